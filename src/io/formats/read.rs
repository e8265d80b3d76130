//! Reading any format: what a reader hands on for each game (a named
//! [`Visit`]), how reading ended ([`Reading`]), and the dispatch to each
//! format's reader — in parallel where the format allows ([`read_mapped`]),
//! on this thread ([`read`], [`read_nth`]). Every reader streams, game by
//! game; nothing of a game is kept once it is handed on.

use super::{json, jsonl, links, moves, parquet, records, text, Format};
use crate::base::problem::Problem;
use crate::envelope::record::{Chunk, ReadGame, Record, RecordSource, Span, Tag, MAX_RECORD_BYTES};
use crate::io::reading::{self, Options};
use crate::registry::AnyGame;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// One game as a reader hands it on: the input it is in (its name in
/// reports), its format, the text it was read from (for locating
/// problems; `None` for JSON and Parquet), its rules (or why there are
/// none), and the game itself, read as it is replayed. Its index in the
/// input comes with what is made of it, in input order (a worker thread
/// replaying a game cannot know how many games came before its chunk).
pub struct Visit<'v, 'g> {
    pub input: &'v str,
    pub format: Format,
    pub chunk: Option<&'v Chunk>,
    pub rules: Result<&'static dyn AnyGame, Problem>,
    pub game: &'v mut dyn ReadGame<'g>,
}

/// What is done with each game on this thread; it may stop the reading.
pub type Each<'a> = dyn FnMut(Visit<'_, '_>) -> io::Result<ControlFlow<()>> + 'a;

/// What is made of each game, on any thread.
pub type Map<'a, T> = dyn Fn(Visit<'_, '_>) -> T + Sync + 'a;

/// What is done, in input order, with what `Map` made of each game (and
/// the text it was read from); it may stop the reading.
pub type HandOn<'a, T> = dyn FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>> + 'a;

/// How reading an input ended: whether the caller stopped it, and the
/// records it skipped as games gamerec does not play (what they are, how
/// many), in the order first met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    pub stopped: bool,
    pub skipped: Vec<(String, usize)>,
}

impl Reading {
    pub(super) fn skip(&mut self, what: String) {
        match self.skipped.iter_mut().find(|(w, _)| *w == what) {
            Some((_, n)) => *n += 1,
            None => self.skipped.push((what, 1)),
        }
    }

    pub(super) fn flow(flow: ControlFlow<()>) -> Reading {
        Reading {
            stopped: flow.is_break(),
            ..Reading::default()
        }
    }
}

/// What a reader is reading: the input's name, its format, and how.
#[derive(Clone, Copy)]
pub struct Cx<'a> {
    pub input: &'a str,
    pub format: Format,
    pub opts: &'a Options,
}

impl Cx<'_> {
    /// The visit of a game read from `chunk`.
    pub fn visit<'v, 'g>(
        &'v self,
        chunk: Option<&'v Chunk>,
        game: &'v mut dyn ReadGame<'g>,
        rules: Result<&'static dyn AnyGame, Problem>,
    ) -> Visit<'v, 'g> {
        Visit {
            input: self.input,
            format: self.format,
            chunk,
            rules,
            game,
        }
    }
}

/// Reads every game of `input` (in `cx.format`): `map` works on each as it
/// is read (for the record format and Parquet on worker threads, as many
/// as the options say: nothing of a game need be kept), its results are
/// handed to `each` in input order, with the chunk the game came from,
/// until `each` breaks (then the reading says it stopped). Records of
/// games gamerec does not play (in a site's files) are skipped and
/// counted.
pub fn read_mapped<R, T, M, E>(input: R, cx: Cx<'_>, map: M, mut each: E) -> io::Result<Reading>
where
    R: BufRead + Send,
    T: Send,
    M: Fn(Visit<'_, '_>) -> T + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    match cx.format {
        Format::Text => text::read_mapped(input, cx, &map, each),
        Format::Parquet => parquet::read_mapped(input, cx, &map, each),
        _ => read(input, cx, &mut |visit| {
            let chunk = visit.chunk;
            let made = map(visit);
            each(chunk, made)
        }),
    }
}

/// Reads every game of `input` on this thread, handing each to `each`
/// as it is read, until `each` breaks.
pub fn read<R: BufRead>(input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<Reading> {
    match cx.format {
        Format::Text => text::read(input, cx, each),
        Format::Json => json::read(input, cx, each),
        Format::Jsonl => jsonl::read(input, cx, each),
        Format::Parquet => parquet::read(input, cx, each),
        Format::Moves(site) => moves::read(input, cx, site, each),
        Format::Records(_) => records::read_all(input, cx, each),
        Format::Links(_) => links::read_all(input, cx, each),
        Format::Csv => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "CSV is written, not read: read the games from the file it was made of",
        )),
    }
}

/// Hands game `n` (1-based) of `input` to `f` as it is read, on this
/// thread (the games before it are read past, nothing of them kept);
/// returns what `f` made of it, or `None` when the input has fewer games.
pub fn read_nth<R, T, F>(input: R, cx: Cx<'_>, n: usize, f: F) -> io::Result<Option<T>>
where
    R: BufRead,
    F: FnOnce(Visit<'_, '_>) -> T,
{
    let (mut f, mut made, mut seen) = (Some(f), None, 0);
    read(input, cx, &mut |visit| {
        seen += 1;
        if seen == n {
            made = f.take().map(|f| f(visit));
        }
        Ok(match seen >= n {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        })
    })?;
    Ok(made)
}

/// A game that could not be read, handed on with its problem.
pub(super) fn broken(
    cx: Cx<'_>,
    chunk: &Chunk,
    p: Problem,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    let record = Record::default();
    each(cx.visit(
        Some(chunk),
        &mut RecordSource::new(&record, Some(p.clone())),
        Err(p),
    ))
}

/// Hands `f` a game read from JSON or Parquet as a record (its rules
/// found), or why none could be read (located in `chunk`, when there is
/// one).
pub(super) fn with_record<T>(
    cx: Cx<'_>,
    chunk: Option<&Chunk>,
    game: Result<json::GameIn, Problem>,
    f: impl FnOnce(Visit<'_, '_>) -> T,
) -> T {
    match game.and_then(json::GameIn::into_record) {
        Ok(mut record) => {
            let mut repairs = Vec::new();
            let rules = reading::repaired(&mut record, None, cx.opts, &mut repairs, &[]);
            f(cx.visit(
                None,
                &mut RecordSource::repaired(&record, None, repairs),
                rules,
            ))
        }
        Err(p) => {
            let record = Record::default();
            f(cx.visit(
                chunk,
                &mut RecordSource::new(&record, Some(p.clone())),
                Err(p),
            ))
        }
    }
}

/// Reads one line (with its `\n`) into `line`, keeping at most
/// [`MAX_RECORD_BYTES`] of it: the rest of a longer line is skipped at
/// memchr speed. Returns the bytes the line took in the input and whether
/// it was cut.
pub(super) fn read_line_capped<R: BufRead>(
    input: &mut R,
    line: &mut Vec<u8>,
) -> io::Result<(usize, bool)> {
    let (mut read, mut cut) = (0, false);
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((read, cut));
        }
        let (take, end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = MAX_RECORD_BYTES.saturating_sub(line.len());
        if take > room {
            cut = true;
        }
        line.extend_from_slice(&buf[..take.min(room)]);
        input.consume(take);
        read += take;
        if end {
            return Ok((read, cut));
        }
    }
}

/// Tags (name, value) each placed at `at`.
pub(super) fn placed(tags: Vec<(String, String)>, at: Span) -> Vec<Tag> {
    tags.into_iter()
        .map(|(name, value)| Tag {
            name: name.into(),
            value: value.into(),
            span: at,
            value_span: at,
        })
        .collect()
}
