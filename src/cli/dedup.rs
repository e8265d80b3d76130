//! `gamerec dedup`: drop exact duplicates. Two games are the same when they
//! have the same rules, settings, start and moves in canonical spelling
//! (or, `--by final-position`, the same final position): a 128-bit hash
//! of that key finds candidates in memory, and the full key, kept in a
//! temporary file, confirms every match before a game is called a
//! duplicate. Memory per distinct game: one hash and one file offset.

use super::input::{expand, options, read_all_formats, InputArgs, Item, Output};
use super::jobs::Jobs;
use super::messages;
use super::passthrough::{second, written, Sink, Tiler, Written};
use super::progress::Progress;
use gamerec::input::Format;
use gamerec::problem::Problem;
use gamerec::record::{Chunk, ReadGame, RecordSource};
use gamerec::registry::AnyGame;
use gamerec::select::SameBy;
use std::collections::HashMap;
use std::hash::Hasher;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    /// The same rules, settings, start position and moves (canonical
    /// spelling; tags, comments, move numbers do not matter).
    Moves,
    /// The same rules, settings and final position (side to move
    /// included).
    FinalPosition,
}

#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 done (duplicates or not); 2 a usage or I/O error. \
Games that cannot be replayed to their end are never duplicates: they are all written."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// What makes two games the same.
    #[arg(long, value_enum, default_value = "moves", value_name = "WHAT")]
    by: By,
    /// Write the duplicates to FILE, each with a comment naming its
    /// original (file, line, game).
    #[arg(long, value_name = "FILE")]
    dups: Option<PathBuf>,
    /// Print one JSON line per group of duplicates (its original and every
    /// duplicate, each with its file, line and index) on standard output,
    /// at the end (give -o for the games).
    #[arg(long)]
    report: bool,
    /// Write the first occurrence of each game here instead of standard
    /// output (never over an input).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    jobs: Jobs,
    /// No progress bar, no closing note.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Where a game is: input, line, index in its input.
#[derive(Clone, Debug, serde::Serialize)]
struct Place {
    file: String,
    line: Option<usize>,
    index: usize,
}

/// One game, keyed and ready to write (made on a worker thread).
struct Keyed {
    key: Option<(u128, Vec<u8>)>,
    out: Written,
    line: Option<usize>,
}

fn hash128(key: &[u8]) -> u128 {
    let half = |salt: u8| {
        let mut h = std::hash::DefaultHasher::new();
        h.write_u8(salt);
        h.write(key);
        h.finish()
    };
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

/// The distinct games seen: by hash, the offset of each game's full key
/// (and its place) in the spill file. One entry per distinct game; hashes
/// shared by different keys (never seen in practice) chain in `more`.
struct Seen {
    first: HashMap<u128, u64>,
    more: HashMap<u128, Vec<u64>>,
    spill: BufWriter<std::fs::File>,
    file: std::fs::File,
    len: u64,
    names: Vec<String>,
}

impl Seen {
    fn new() -> io::Result<Seen> {
        let file = tempfile::tempfile()?;
        Ok(Seen {
            first: HashMap::new(),
            more: HashMap::new(),
            spill: BufWriter::with_capacity(1 << 16, file.try_clone()?),
            file,
            len: 0,
            names: Vec::new(),
        })
    }

    /// The key and place stored at `at`.
    fn read(&mut self, at: u64) -> io::Result<(Vec<u8>, Place)> {
        use std::os::unix::fs::FileExt;
        self.spill.flush()?;
        let mut head = [0u8; 4];
        self.file.read_exact_at(&mut head, at)?;
        let n = u32::from_le_bytes(head) as usize;
        let mut rest = vec![0u8; n + 4 + 8 + 8];
        self.file.read_exact_at(&mut rest, at + 4)?;
        let num = |i: usize, w: usize| {
            let mut b = [0u8; 8];
            b[..w].copy_from_slice(&rest[i..i + w]);
            u64::from_le_bytes(b)
        };
        let name = self.names[num(n, 4) as usize].clone();
        let line = num(n + 4, 8);
        let index = num(n + 12, 8) as usize;
        rest.truncate(n);
        Ok((
            rest,
            Place {
                file: name,
                line: (line > 0).then_some(line as usize),
                index,
            },
        ))
    }

    fn write(&mut self, key: &[u8], place: &Place) -> io::Result<u64> {
        let at = self.len;
        let name = match self.names.iter().position(|n| *n == place.file) {
            Some(i) => i,
            None => {
                self.names.push(place.file.clone());
                self.names.len() - 1
            }
        };
        self.spill.write_all(&(key.len() as u32).to_le_bytes())?;
        self.spill.write_all(key)?;
        self.spill.write_all(&(name as u32).to_le_bytes())?;
        self.spill
            .write_all(&(place.line.unwrap_or(0) as u64).to_le_bytes())?;
        self.spill.write_all(&(place.index as u64).to_le_bytes())?;
        self.len += 4 + key.len() as u64 + 20;
        Ok(at)
    }

    /// The original of a game with this key (its offset and place), or
    /// `None` after noting it as a new distinct game.
    fn original(
        &mut self,
        hash: u128,
        key: &[u8],
        place: &Place,
    ) -> io::Result<Option<(u64, Place)>> {
        let mut candidates: Vec<u64> = self.first.get(&hash).copied().into_iter().collect();
        candidates.extend(self.more.get(&hash).into_iter().flatten().copied());
        for at in candidates {
            let (stored, original) = self.read(at)?;
            if stored == key {
                return Ok(Some((at, original)));
            }
        }
        let at = self.write(key, place)?;
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(at);
            }
            std::collections::hash_map::Entry::Occupied(_) => {
                self.more.entry(hash).or_default().push(at);
            }
        }
        Ok(None)
    }
}

pub fn run(args: Args) {
    let Some(opts) = options(args.input.game.as_deref()) else {
        return;
    };
    args.jobs.init();
    let by = match args.by {
        By::Moves => SameBy::Moves,
        By::FinalPosition => SameBy::FinalPosition,
    };
    let output = Output::new(args.output.as_deref());
    let Some(sources) = expand(&args.input.paths, args.input.all, &output) else {
        return;
    };
    let mut seen = match Seen::new() {
        Ok(s) => s,
        Err(e) => return messages::error(format!("a temporary file for the keys: {e}")),
    };
    let Some(mut out) = Sink::open(None, &output) else {
        return;
    };
    let Ok(mut dups) = second(args.dups.as_deref(), &output, &sources, None) else {
        return;
    };
    let progress = Progress::for_sources(&sources, args.quiet || output.is_terminal());
    let map = |file: &str,
               format: Format,
               chunk: Option<&Chunk>,
               game: &mut dyn ReadGame<'_>,
               rules: Result<&'static dyn AnyGame, Problem>| {
        let parsed = game.record();
        let record = &parsed.record;
        let key = rules
            .as_ref()
            .ok()
            .and_then(|r| r.key(&mut RecordSource::new(record, parsed.error.clone()), by));
        let line = chunk.map(|c| c.locate(record.span.start).0);
        let out = written(file, format, chunk, &parsed, rules, None);
        Keyed {
            key: key.map(|k| (hash128(&k), k)),
            out,
            line,
        }
    };
    let (mut games, mut duplicates) = (0usize, 0usize);
    let mut groups: HashMap<u64, (Place, Vec<Place>)> = HashMap::new();
    let mut index_in = (String::new(), 0usize);
    let mut tiler = Tiler::default();
    let each = |name: &str, item: Item<'_, Keyed>| {
        let Item::Game(chunk, keyed) = item else {
            return Ok(ControlFlow::Continue(()));
        };
        if index_in.0 != name {
            index_in = (name.to_string(), 0);
        }
        index_in.1 += 1;
        games += 1;
        let place = Place {
            file: name.to_string(),
            line: keyed.line,
            index: index_in.1,
        };
        let mut written = Some(keyed.out);
        tiler.tile(name, chunk, &mut written);
        let written = written.expect("tiling keeps it");
        let original = match &keyed.key {
            Some((hash, key)) => seen.original(*hash, key, &place)?,
            None => None,
        };
        match original {
            None => out.write(name, place.index, written, chunk, None)?,
            Some((at, first)) => {
                duplicates += 1;
                if let Some(d) = dups.as_mut() {
                    let note = format!(
                        "gamerec dedup: a duplicate of game {} of {}{}",
                        first.index,
                        first.file,
                        first.line.map_or(String::new(), |l| format!(", line {l}"))
                    );
                    d.write(name, place.index, written, chunk, Some(&note))?;
                }
                if args.report {
                    groups
                        .entry(at)
                        .or_insert_with(|| (first, Vec::new()))
                        .1
                        .push(place);
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    };
    let read = read_all_formats(sources, &args.input, &opts, &progress, map, each);
    progress.finish();
    let mut result = read.map(|_| ()).and_then(|()| out.finish());
    if let Some(d) = dups {
        result = result.and_then(|()| d.finish());
    }
    if args.report && result.is_ok() {
        let mut list: Vec<(u64, (Place, Vec<Place>))> = groups.into_iter().collect();
        list.sort_by_key(|(at, _)| *at);
        let stdout = io::stdout();
        let mut w = stdout.lock();
        for (_, (original, copies)) in list {
            let line = serde_json::json!({
                "original": original,
                "duplicates": copies,
                "games": copies.len() + 1,
            });
            if let Err(e) = writeln!(w, "{line}") {
                result = Err(e);
                break;
            }
        }
    }
    messages::finished(result);
    if !args.quiet {
        messages::say(format!(
            "gamerec: {games} games, {duplicates} duplicate{} left out, {} written",
            if duplicates == 1 { "" } else { "s" },
            games - duplicates
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::{Place, Seen};

    #[test]
    fn a_shared_hash_is_confirmed_by_the_full_key() {
        let mut seen = Seen::new().unwrap();
        let place = |index| Place {
            file: "x".into(),
            line: Some(index),
            index,
        };
        // Two different keys under one hash: both are distinct games.
        assert!(seen.original(7, b"key one", &place(1)).unwrap().is_none());
        assert!(seen.original(7, b"key two", &place(2)).unwrap().is_none());
        // Each is found again, and only by its own key.
        let (_, first) = seen.original(7, b"key one", &place(3)).unwrap().unwrap();
        assert_eq!(first.index, 1);
        let (_, second) = seen.original(7, b"key two", &place(4)).unwrap().unwrap();
        assert_eq!((second.index, second.line), (2, Some(2)));
        assert!(seen.original(8, b"key one", &place(5)).unwrap().is_none());
    }
}
