//! What every format's reader shares: what it hands on for each game (a
//! named [`Visit`]), what it is reading ([`Cx`]), how reading ended
//! ([`Reading`]), and the helpers the readers have in common (a broken
//! game handed on, a game read as a record, a line read with a cap, tags
//! placed). The dispatch to the readers is `read.rs`'s.

use super::Format;
use crate::base::problem::Problem;
use crate::envelope::record::{Chunk, ReadGame, Record, RecordSource, Span, Tag, MAX_RECORD_BYTES};
use crate::io::reading::{Judged, Options};
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
    /// The game already judged on the lean path, where the options asked
    /// for judging ([`Options::judging`]) and it could be: `game` is then
    /// read already (it holds nothing), and this is its report.
    pub judged: Option<Judged>,
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
    pub(crate) fn visit<'v, 'g>(
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
            judged: None,
        }
    }

    /// The visit of a game of `chunk` judged on the lean path.
    pub(crate) fn judged<'v, 'g>(
        &'v self,
        chunk: &'v Chunk,
        game: &'v mut dyn ReadGame<'g>,
        rules: &'static dyn AnyGame,
        judged: Judged,
    ) -> Visit<'v, 'g> {
        Visit {
            input: self.input,
            format: self.format,
            chunk: Some(chunk),
            rules: Ok(rules),
            game,
            judged: Some(judged),
        }
    }
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
