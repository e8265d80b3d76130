//! gamerec: read, replay, validate and convert recorded games of five
//! abstract board games — Roshi, Oshi, Iqishiqi, Vagabond Pai Sho and
//! Retsami.
//!
//! The layers: [`record`] reads the envelope (tags, movetext, comments,
//! results) and knows no game; [`game`] is the seam a game plugs into, one
//! small trait per concern; [`games`] holds the games; [`replay`] drives any
//! game through a record; [`convert`], [`gen`] and [`perft`] build on it;
//! [`registry`] lists the games and lets the rest pick one by name;
//! [`formats`] reads and writes every format, one module each (the table
//! [`formats::FORMATS`]); [`sources`] and [`output`] are whole inputs and
//! outputs; [`inputs`] is the one reading path every front end takes.
//! ARCHITECTURE.md has the whole map.
//!
//! ```
//! use gamerec::inputs;
//!
//! let input = b"[Game \"oshi\"]\n[Result \"*\"]\n1. e3-e4 e7-e6 2. c2-c5 *\n";
//! let mut reports = Vec::new();
//! inputs::validate(&input[..], &mut |chunk, report| {
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

// The layers, lowest first: a module uses only modules of the layers above
// it (tests/architecture.rs checks it; ARCHITECTURE.md explains them).
// What is wrong, and the raw input:
pub mod decode;
pub mod problem;
// The envelope, and cutting an input into records:
pub mod pipeline;
// How problems are shown:
pub mod record;
pub mod report;
// Seeded random streams (the rules crate's):
pub use gamerec_rules::random;
// The seam a game implements, and the games:
pub use gamerec_rules::{game, games};
// Generic over a game:
pub use gamerec_rules::{perft, search};
pub mod replay;
// ...and built on the replay:
pub mod analysis;
pub mod convert;
pub mod gen;
pub mod lenient;
pub mod pattern;
pub mod picture;
pub mod select;
pub mod tree;
// The list of games, and choosing one by name:
pub mod registry;
// What reading a game needs, and a game's report:
pub mod analysed;
pub mod archive;
pub mod explored;
// Every format, read and written:
pub mod formats;
// Statistics; where output goes:
pub mod output;
pub mod overview;
pub mod ratings;
pub mod stats;
// Whole inputs, as every front end opens them:
pub mod sources;
// The one reading path:
pub mod inputs;
// What commands do with whole inputs: records written as they were,
// selected, without duplicates, in shards:
pub mod dedup;
pub mod export;
pub mod filter;
pub mod index;
pub mod passthrough;
pub mod shard;
