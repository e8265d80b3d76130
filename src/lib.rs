//! gamerec: read, replay, validate and convert recorded games of five
//! abstract board games — Roshi, Oshi, Iqishiqi, Vagabond Pai Sho and
//! Retsami.
//!
//! The layers: [`record`] reads the envelope (tags, movetext, comments,
//! results) and knows no game; [`game::Game`] is the seam a game plugs into;
//! [`games`] is the registry; [`replay`] drives any game through a record;
//! [`archive`] streams whole inputs game by game.
//!
//! ```
//! use gamerec::archive;
//!
//! let input = b"[Game \"oshi\"]\n[Result \"*\"]\n1. e3-e4 e7-e6 2. c2-c5 *\n";
//! let mut reports = Vec::new();
//! archive::validate(&input[..], &mut |chunk, report| {
//!     reports.push((chunk.clone(), report));
//!     Ok(())
//! })
//! .unwrap();
//! let (chunk, report) = &reports[0];
//! let problem = report.error.as_ref().unwrap();
//! assert_eq!(problem.code, "too-far");
//! assert_eq!(problem.ply, Some(3));
//! assert_eq!(chunk.locate(problem.span.start), (3, 19));
//! ```

pub mod archive;
pub mod convert;
pub mod decode;
pub mod game;
pub mod games;
pub mod gen;
pub mod pipeline;
pub mod problem;
pub mod record;
pub mod replay;
pub mod stats;

#[cfg(test)]
mod testkit;
