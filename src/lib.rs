//! gamerec: read, replay, validate and convert recorded games of five
//! abstract board games.
//!
//! The layers: [`record`] reads the envelope (tags, movetext, comments,
//! results) and knows no game; [`game::Game`] is the seam a game plugs into;
//! [`games`] is the registry; [`replay`] drives any game through a record;
//! [`archive`] streams whole inputs game by game.

pub mod archive;
pub mod game;
pub mod games;
pub mod problem;
pub mod record;
pub mod replay;

#[cfg(test)]
mod testkit;
