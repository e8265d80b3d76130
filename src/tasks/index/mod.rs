//! The position index (`gamerec index`): every position each game reached,
//! by its key ([`gamerec_rules::game::Search::notation_key`]), mapped to the game
//! and the ply, with the turn played there; and each game's file, place,
//! result, tags and turns. A directory of Parquet files (schema:
//! notation/index.md):
//!
//! - `files.parquet`: the archives indexed, with their size and time, so
//!   that a changed one is noticed;
//! - `games.parquet`: a row per game, its `id` the row's number;
//! - `postings-00.parquet` … `postings-15.parquet`: a row per position a
//!   game reached (`key`, `id`, `ply`, `turn`), the keys split by their
//!   top four bits, each file sorted by key, game and ply — a query opens
//!   one file and reads the row groups whose keys hold its own;
//! - `turns.parquet`: the turns' spellings, by number;
//! - `setups.parquet`: the game types and their settings (the tags that set
//!   up the rules, such as Iqishiqi's `Coords`), with their games — a
//!   position is read, and keyed, under each.
//!
//! Built streaming ([`Builder`]): games are traced on the workers, their
//! postings gathered up to a memory cap, sorted, and spilled as runs to a
//! work folder in the index; at the end the runs (and, when files are
//! added to an existing index, its postings) are merged partition by
//! partition on the worker threads. The new files are written beside the
//! old ones and renamed over them only when all are complete.

mod build;
mod explore;
mod keyed;
mod merge;
mod read;
mod store;
mod tables;
mod trace;
mod turns;

pub use build::{Builder, Built};
pub use explore::explore;
pub use keyed::{first_match, line_target, position_key, trace_game};
pub use read::{
    hit_columns, plain_text, tags_of, ArchiveReading, FileRow, Hit, Index, IndexedGame, Placed,
};
pub use store::{Lock, LOCK, MANIFEST};
pub use trace::{trace, TracedGame};
pub use turns::Turns;

/// Postings files, by the top bits of the key.
pub(crate) const PARTITIONS: usize = 16;
/// Postings per row group (a query reads the row groups its key is in).
pub(crate) const POSTINGS_PER_GROUP: usize = 1 << 16;
/// Games per row group of `games.parquet` (a game's row group is its id
/// over this).
pub(crate) const GAMES_PER_GROUP: usize = 1 << 14;

/// The most archives an index names (a file number is a u32; past this
/// `files.parquet` is taken as damaged).
pub(crate) const MAX_FILES: usize = 1 << 20;
/// The most game types and settings an index holds: a position is keyed
/// under each, so more would make every query slow (taken as damaged).
pub(crate) const MAX_SETUPS: usize = 4096;

pub(crate) const FILES: &str = "files.parquet";
pub const GAMES: &str = "games.parquet";
pub const TURNS: &str = "turns.parquet";
pub(crate) const SETUPS: &str = "setups.parquet";

/// The postings file of partition `p`.
pub(crate) fn postings_file(p: usize) -> String {
    format!("postings-{p:02}.parquet")
}

/// The partition of a key.
pub(crate) fn partition(key: u64) -> usize {
    (key >> 60) as usize
}

/// One position a game reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Posting {
    pub key: u64,
    /// The game's `id`.
    pub id: u32,
    /// Plies played before it (0: the start).
    pub ply: u32,
    /// The turn played there ([`NO_TURN`]: none, the game ended there).
    pub turn: u32,
}

/// An old game's new id when adding to an index re-indexes its file: left
/// out of the new index.
const DROPPED: u32 = u32::MAX;

/// A posting's `turn` where the game played none.
pub(crate) const NO_TURN: u32 = u32::MAX;

/// The result a game's `Result` tag declares, as the index writes it.
pub(crate) fn finish_name(f: crate::play::walk::Finish) -> &'static str {
    use crate::play::walk::Finish;
    match f {
        Finish::First => "first",
        Finish::Draw => "draw",
        Finish::Second => "second",
        Finish::Open => "open",
    }
}

/// The digest of a file's bytes (standard input, copied to a file, is told
/// apart by it): [`gamerec_rules::game::Keyer`] fed 64 KiB blocks, so the same
/// bytes give the same digest however they were read.
pub fn content_digest(path: &std::path::Path) -> std::io::Result<u64> {
    use std::hash::Hasher;
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut keyer = gamerec_rules::game::Keyer::default();
    let mut block = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let mut filled = 0;
        while filled < block.len() {
            match file.read(&mut block[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        keyer.write(&block[..filled]);
        total += filled as u64;
        if filled < block.len() {
            keyer.word(total);
            return Ok(keyer.finish());
        }
    }
}

/// A file's size and modification time (nanoseconds since the epoch).
fn stamp(path: &std::path::Path) -> (Option<u64>, Option<i64>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return (None, None);
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_nanos()).ok());
    (Some(meta.len()), modified)
}

/// The [`crate::play::walk::Finish`] a `finish` column value names.
pub(crate) fn finish_of(name: &str) -> crate::play::walk::Finish {
    use crate::play::walk::Finish;
    match name {
        "first" => Finish::First,
        "draw" => Finish::Draw,
        "second" => Finish::Second,
        _ => Finish::Open,
    }
}

fn invalid(message: impl Into<String>) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message.into())
}
