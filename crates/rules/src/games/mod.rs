//! The games, one folder each (the same files in each: `mod.rs` with the
//! game's constants, `rules.rs`, `notation.rs`, `facts.rs`, `position.rs`,
//! and `site.rs` for a game with a site notation), and the geometry two of
//! them share. The list of games the program knows is the registry
//! (gamerec's `registry`).

pub mod grid;
pub mod iqishiqi;
pub mod oshi;
pub mod retsami;
pub mod roshi;
pub mod vagabond;
