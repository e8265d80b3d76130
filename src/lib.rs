//! gamerec: read, replay, validate and convert recorded games of five
//! abstract board games — Roshi, Oshi, Iqishiqi, Vagabond Pai Sho and
//! Retsami.
//!
//! The rules of the games are a crate of their own, `gamerec_rules` (the
//! seam traits, the five games, perft and the exact search); this crate
//! reads, writes and analyses records of them. Its source is a folder per
//! layer, each using only the layers before it: `base/` (problems,
//! decoding), `envelope/` (the record envelope, the chunk pipeline),
//! `play/` (everything generic over a game: replay, repairs, the sink
//! every conversion writes to, analysis, generation, patterns, selection,
//! the opening walk), `picture/`, the registry (the one list of games),
//! `io/` (diagnostics, reading, formats, sources, inputs, outputs) and
//! `tasks/` (the library side of each command, named as the command).
//! The layers are private: this file is the facade the front ends (the
//! command line, the Python package, the fuzz targets, the benchmarks and
//! the tests) use. ARCHITECTURE.md has the whole map.
//!
//! ```
//! use gamerec::validate;
//!
//! let input = b"[Game \"oshi\"]\n[Result \"*\"]\n1. e3-e4 e7-e6 2. c2-c5 *\n";
//! let mut reports = Vec::new();
//! validate::validate(&input[..], &mut |chunk, report| {
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

mod base;
mod envelope;
mod io;
pub mod picture;
mod play;
pub mod registry;
mod tasks;

// The facade. The rules crate's modules:
pub use gamerec_rules::{game, games, random, search};
// Base things and the envelope:
pub use base::{decode, problem};
pub use envelope::{pipeline, record};
// Generic over a game:
pub use play::{analysis, lenient, pattern, replay, select, sink, walk};
// Inputs and outputs:
pub use io::{diagnostics, formats, inputs, output, passthrough, reading, sources};
// The commands' library sides, one module per command:
pub use tasks::{
    analyse, convert, dedup, filter, gen, index, moves, perft, ratings, report, shard, show, stats,
    tree, tune, validate, view,
};
