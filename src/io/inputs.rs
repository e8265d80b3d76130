//! The one reading path, for every front end (the command line's commands
//! and the Python package): every game of every input, in order. Each
//! input is opened ([`Source::open_with`]: decompressed, decoded), its
//! format named or detected, and its games read by the format's reader:
//! `map` makes what the caller wants of each game as it is read (a named
//! [`Visit`]; on worker threads for the record format and Parquet), and
//! `each` sees the results in input order, each with its input and its
//! index there ([`Item`]). An input that cannot be read is an item too,
//! and the rest is read; an input with no game gamerec plays is one item.

use crate::base::decode::{Encoding, Input};
use crate::envelope::record::Chunk;
use crate::io::formats::visit::Cx;
use crate::io::formats::{self, parquet, text, Format, Visit};
use crate::io::reading::Options;
use crate::io::sources::Source;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// How inputs are read.
#[derive(Clone, Copy, Default)]
pub struct How<'a> {
    /// The inputs' format (`None`: detected per input, from its name and
    /// first bytes).
    pub from: Option<Format>,
    /// The inputs' text encoding.
    pub encoding: Encoding,
    /// How games are read: the rules of untagged records, `--lenient`,
    /// threads, the spool cap.
    pub opts: Options,
    /// Every input's raw bytes pass through this (a progress bar counts
    /// them).
    pub count: Option<&'a Count<'a>>,
}

/// What counts an input's raw bytes as they are read.
pub type Count<'a> = dyn Fn(Box<dyn io::Read + Send>) -> Box<dyn io::Read + Send> + Sync + 'a;

/// A game handed on in input order: its input's name, its 1-based index
/// there, the text it was read from (for locating problems; `None` for
/// JSON and Parquet), and what `map` made of it.
pub struct Seen<'a, T> {
    pub input: &'a str,
    pub index: usize,
    pub chunk: Option<&'a Chunk>,
    pub value: T,
}

/// What [`read`] hands on, in input order.
pub enum Item<'a, T> {
    Game(Seen<'a, T>),
    /// An input that holds no game gamerec plays: empty, blank, or only
    /// records of games it does not play (`skipped` of them).
    Empty {
        input: &'a str,
        skipped: usize,
    },
    /// An input that could not be opened, or read to its end (its games
    /// before the error were handed on).
    Failed {
        input: &'a str,
        error: io::Error,
    },
}

impl<'a, T> Item<'a, T> {
    /// The game, or (`Err`) what was said of an input as a whole, without
    /// a game's type.
    #[inline(always)]
    pub fn game(self) -> Result<Seen<'a, T>, Item<'a, ()>> {
        match self {
            Item::Game(seen) => Ok(seen),
            Item::Empty { input, skipped } => Err(Item::Empty { input, skipped }),
            Item::Failed { input, error } => Err(Item::Failed { input, error }),
        }
    }
}

/// What reading the inputs found, besides the games.
#[derive(Clone, Debug, Default)]
pub struct Read {
    /// Inputs opened.
    pub files: usize,
    /// Inputs that held no game gamerec plays.
    pub empty: usize,
    /// The reading stopped early (`each` broke).
    pub stopped: bool,
    /// Records skipped as games gamerec does not play: what, how many.
    pub skipped: Vec<(String, usize)>,
}

impl Read {
    /// `skipped 3 records of 2 other games (Amazons 2, Ataxx 1): gamerec
    /// does not play them`, when any were.
    pub fn skipped_note(&self) -> Option<String> {
        if self.skipped.is_empty() {
            return None;
        }
        let total: usize = self.skipped.iter().map(|(_, n)| n).sum();
        let kinds = self.skipped.len();
        let list: Vec<String> = self
            .skipped
            .iter()
            .take(12)
            .map(|(what, n)| format!("{what} {n}"))
            .collect();
        let more = if kinds > 12 { ", …" } else { "" };
        Some(format!(
            "skipped {total} record{} of {kinds} other game{} ({}{more}): gamerec does not play them",
            if total == 1 { "" } else { "s" },
            if kinds == 1 { "" } else { "s" },
            list.join(", ")
        ))
    }

    fn add_skipped(&mut self, skipped: &[(String, usize)]) {
        for (what, n) in skipped {
            match self.skipped.iter_mut().find(|(w, _)| w == what) {
                Some((_, total)) => *total += n,
                None => self.skipped.push((what.clone(), *n)),
            }
        }
    }
}

/// Opens `source` as `how` says.
pub fn open(source: &Source, how: &How<'_>) -> io::Result<Input> {
    source.open_with(how.encoding, |raw| match how.count {
        Some(count) => count(raw),
        None => raw,
    })
}

/// The format of an opened input: the one `how` names, or detected from
/// its name and first bytes (which stay unread). An input detected as the
/// record format that is no text at all is refused ([`text::not_text`]).
pub fn format_of(source: &Source, input: &mut Input, how: &How<'_>) -> io::Result<Format> {
    if let Some(format) = how.from {
        return Ok(format);
    }
    let head = input.fill_buf()?;
    let format = formats::detect(source.extension().as_deref(), head);
    if matches!(format, Format::Text) {
        text::not_text(head)?;
    }
    Ok(format)
}

/// Reads every game of every source in order (see the module's doc): an
/// input that cannot be opened or read to its end is an [`Item::Failed`]
/// and the rest is read; `each` may stop the reading, and its errors (the
/// output's) end it and come back.
pub fn read<T, M, E>(sources: &[Source], how: &How<'_>, map: M, mut each: E) -> io::Result<Read>
where
    T: Send,
    M: Fn(Visit<'_, '_>) -> T + Sync,
    E: FnMut(Item<'_, T>) -> io::Result<ControlFlow<()>>,
{
    let mut read = Read::default();
    for source in sources {
        let name = source.name();
        let input = match open(source, how) {
            Ok(input) => input,
            Err(error) => {
                let item = Item::Failed {
                    input: &name,
                    error,
                };
                match each(item)? {
                    ControlFlow::Continue(()) => continue,
                    ControlFlow::Break(()) => return Ok(stopped(read)),
                }
            }
        };
        read.files += 1;
        let mut games = 0;
        let each_game = |chunk: Option<&Chunk>, value| {
            games += 1;
            let item = Item::Game(Seen {
                input: &name,
                index: games,
                chunk,
                value,
            });
            each(item).map_err(output_error)
        };
        let result = read_one(source, input, &name, how, &map, each_game);
        let flow = match result {
            Ok(r) if r.stopped => {
                read.add_skipped(&r.skipped);
                return Ok(stopped(read));
            }
            Ok(r) if games == 0 => {
                read.add_skipped(&r.skipped);
                read.empty += 1;
                let skipped = r.skipped.iter().map(|(_, n)| n).sum();
                each(Item::Empty {
                    input: &name,
                    skipped,
                })?
            }
            Ok(r) => {
                read.add_skipped(&r.skipped);
                ControlFlow::Continue(())
            }
            Err(e) => match into_output_error(e) {
                Ok(output) => return Err(output),
                Err(error) => each(Item::Failed {
                    input: &name,
                    error,
                })?,
            },
        };
        if flow.is_break() {
            return Ok(stopped(read));
        }
    }
    Ok(read)
}

fn stopped(read: Read) -> Read {
    Read {
        stopped: true,
        ..read
    }
}

/// Reads the games of one opened input: a Parquet file on disk where it
/// is, any other input streamed.
fn read_one<T, M>(
    source: &Source,
    mut input: Input,
    name: &str,
    how: &How<'_>,
    map: &M,
    each: impl FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
) -> io::Result<formats::Reading>
where
    T: Send,
    M: Fn(Visit<'_, '_>) -> T + Sync,
{
    let format = format_of(source, &mut input, how)?;
    let cx = Cx {
        input: name,
        format,
        opts: &how.opts,
    };
    match source
        .parquet_file()
        .filter(|_| matches!(format, Format::Parquet))
    {
        Some(file) => parquet::read_in_place(file, cx, map, each),
        None => formats::read_mapped(input, cx, map, each),
    }
}

/// A record's place in a record-format file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordPlace {
    /// Its index there (1-based).
    pub index: usize,
    /// Byte offset, length and 1-based line.
    pub place: (u64, u64, u64),
    /// The key of its bytes when it was indexed ([`gamerec_rules::game::key_of`]):
    /// bytes read back with another key are a changed archive, refused.
    pub digest: Option<u64>,
}

/// Reads only these records of the record-format file at `path` (named
/// `name`), each from its place, on this thread, handing each game on
/// with its index in the file; stops where `each` breaks.
pub fn read_pieces<T, M, E>(
    name: &str,
    path: &std::path::Path,
    pieces: &[RecordPlace],
    how: &How<'_>,
    map: M,
    mut each: E,
) -> io::Result<ControlFlow<()>>
where
    M: Fn(Visit<'_, '_>) -> T + Sync,
    E: FnMut(Item<'_, T>) -> io::Result<ControlFlow<()>>,
{
    use std::io::{Read as _, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    let cx = Cx {
        input: name,
        format: Format::Text,
        opts: &how.opts,
    };
    for piece in pieces {
        let (offset, length, line) = piece.place;
        let too_long = length > crate::envelope::record::MAX_RECORD_BYTES as u64;
        let mut bytes =
            vec![0; length.min(crate::envelope::record::MAX_RECORD_BYTES as u64) as usize];
        file.seek(SeekFrom::Start(offset))?;
        let changed = || {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{name}: game {} (line {line}) changed since it was indexed \
                     (run gamerec index again)",
                    piece.index
                ),
            )
        };
        file.read_exact(&mut bytes).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => changed(),
            _ => e,
        })?;
        if piece
            .digest
            .is_some_and(|d| d != gamerec_rules::game::key_of(bytes.as_slice()))
        {
            return Err(changed());
        }
        let index = piece.index;
        let chunk = Chunk {
            bytes,
            offset: offset as usize,
            line: line as usize,
            column: 1,
            truncated: too_long,
        };
        for value in text::games_of_chunk(cx, &chunk, &map) {
            let seen = Seen {
                input: name,
                index,
                chunk: Some(&chunk),
                value,
            };
            if each(Item::Game(seen))?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// Hands game `n` (1-based) of `source` to `f` as it is read, on this
/// thread (the games before it are read past); `None` when the input has
/// fewer games.
pub fn read_nth<T>(
    source: &Source,
    how: &How<'_>,
    n: usize,
    f: impl FnOnce(Visit<'_, '_>) -> T,
) -> io::Result<Option<T>> {
    let mut input = open(source, how)?;
    let format = format_of(source, &mut input, how)?;
    let name = source.name();
    let cx = Cx {
        input: &name,
        format,
        opts: &how.opts,
    };
    formats::read_nth(input, cx, n, f)
}

/// An error raised while handing a game on (the caller's output), marked
/// so that it is not taken for an error reading the input.
pub(crate) fn output_error(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), OutputError(e))
}

/// The output's error (marked by [`output_error`]), unwrapped; or the
/// input's, as it was.
pub(crate) fn into_output_error(e: io::Error) -> Result<io::Error, io::Error> {
    if !e.get_ref().is_some_and(|inner| inner.is::<OutputError>()) {
        return Err(e);
    }
    let inner = e.into_inner().expect("checked above");
    Ok(inner
        .downcast::<OutputError>()
        .map(|o| o.0)
        .unwrap_or_else(io::Error::other))
}

#[derive(Debug)]
struct OutputError(io::Error);

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for OutputError {}
