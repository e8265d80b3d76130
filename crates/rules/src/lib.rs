//! The rules of five abstract board games — Roshi, Oshi, Iqishiqi,
//! Vagabond Pai Sho and Retsami — with no I/O: positions, legal moves,
//! move and position notation, what each move did, perft, and an exact
//! game-tree search that proves wins, losses and draws within a horizon.
//!
//! This is the rules crate of [gamerec](https://crates.io/crates/gamerec),
//! the command-line tool and library that reads, validates, converts and
//! analyses recorded games; it is kept apart so that a bot, an engine or a
//! site can have the rules without gamerec's formats, tables and pictures.
//!
//! - [`game`]: the seam, one small trait per concern — [`game::Game`]
//!   (constants), [`game::Rules`] (start, play, the move generator, the
//!   end), [`game::Notation`], [`game::Facts`], [`game::Picture`],
//!   [`game::Search`] and [`game::SiteNotation`];
//! - [`games`]: the five games, one folder each with the same files;
//! - [`perft`]: counting move sequences, and the perft data files;
//! - [`search`]: the exact search (and a win-chance estimate, labelled as
//!   one), generic over [`game::Search`];
//! - [`eval`]: the evaluation's win chance (an estimate) from a game's
//!   features and fitted weights ([`game::Evaluate`]), and the fitting
//!   from self-play games;
//! - [`Tag`], [`Text`], [`Span`]: the tag pairs a game's start is read
//!   from; [`random`]: seeded random streams.
//!
//! ```
//! use gamerec_rules::game::{Notation, Rules};
//! use gamerec_rules::games::oshi::Oshi;
//! use gamerec_rules::search::{Budget, Searcher, Table, Value};
//!
//! // A position, in Oshi's Position notation (rules.md).
//! let mut pos = Oshi::start(&[]).unwrap();
//! let mut moves = Vec::new();
//! Oshi::legal_moves(&pos, &mut moves);
//! assert_eq!(moves.len(), 34);
//!
//! let e3e4 = Oshi::parse_move(&pos, "e3-e4").unwrap();
//! Oshi::play(&mut pos, &e3e4).unwrap();
//! assert!(Oshi::play(&mut pos.clone(), &e3e4).is_err()); // e3 is empty now
//!
//! let mut table = Table::with_mib(1);
//! let judged = Searcher::<Oshi>::new(&mut table).judge(&pos, 2, Budget::UNLIMITED);
//! assert_eq!(judged.value, Value::Unknown); // nothing is forced in two plies
//! ```

pub mod eval;
pub mod game;
pub mod games;
pub mod perft;
pub mod random;
pub mod search;
mod span;
mod tag;
mod text;

pub use span::Span;
pub use tag::Tag;
pub use text::{Text, INLINE};

#[cfg(test)]
mod testkit;
