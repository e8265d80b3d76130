//! The record format (tag pairs and movetext, notation/format.md):
//! detection (what no other format claims), the reader (cut into chunks
//! on a reader thread, each parsed and replayed on a worker thread, or all
//! on this one), and the writer of its canonical form: tags in canonical
//! order, move numbers before
//! every first-mover turn (and `N...` where a second-mover turn does not
//! follow its partner directly), canonical move spellings, comments kept,
//! lines wrapped at [`WIDTH`] columns, one blank line between games.

use super::visit::{Cx, Each, Map, Reading, Visit};
use super::{Format, FormatEntry, Peek as Input, Sure};
use crate::envelope::record::{
    each_game, read_leniently, Chunk, ChunkReader, InPlace, Leniently, Parsed, Record,
    RecordSource, StreamTurns,
};
use crate::io::lean;
use crate::io::reading::{self, rules_for_game, too_large, Judging};
use crate::play::sink::out::Rendered;
use crate::play::sink::{Converted, GameSink, Head, Tail, TurnOut};
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// The record format's line in the table of formats.
pub(crate) const LINE: FormatEntry = FormatEntry {
    name: "text",
    read_help: "The record format",
    write_help: "The canonical record format",
    detected_by: "anything else",
    formats: || vec![Format::Text],
    detect: |_: &Input<'_>| Some((Sure::Fallback, Format::Text)),
};

/// Refuses an input detected as the record format whose first bytes are
/// not text at all: UTF-16 without a byte-order mark (every other byte
/// NUL: it says which `--encoding` reads it), or binary data (an eighth or
/// more of them NUL). A stray NUL in a record is only a bad byte: it costs
/// its value, not the file.
pub(crate) fn not_text(head: &[u8]) -> io::Result<()> {
    let head = &head[..head.len().min(4096)];
    let nuls = head.iter().filter(|&&b| b == 0).count();
    if head.len() < 16 || nuls * 8 < head.len() {
        return Ok(());
    }
    let pairs = head.len() / 2;
    let at = |odd: usize| (0..pairs).filter(|i| head[2 * i + odd] == 0).count();
    let (even, odd) = (at(0), at(1));
    let utf16 = |zeros: usize, other: usize| zeros * 10 >= pairs * 9 && other * 10 <= pairs;
    let message = if utf16(odd, even) {
        "this looks like UTF-16 (little-endian) without a byte-order mark: read it with \
         --encoding utf-16le"
            .to_string()
    } else if utf16(even, odd) {
        "this looks like UTF-16 (big-endian) without a byte-order mark: read it with \
         --encoding utf-16be"
            .to_string()
    } else {
        format!(
            "not a record file: binary data ({nuls} of its first {} bytes are NUL)",
            head.len()
        )
    };
    Err(io::Error::new(io::ErrorKind::InvalidData, message))
}

/// Reads every game of a record-format input: cut into chunks (a record
/// each, or several), `map` on each game on the worker threads the
/// options say (all on this thread with one), its results handed to
/// `each` in input order.
pub fn read_mapped<R, T, E>(
    input: R,
    cx: Cx<'_>,
    map: &Map<'_, T>,
    mut each: E,
) -> io::Result<Reading>
where
    R: BufRead + Send,
    T: Send,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    if cx.opts.threads() == 1 && cx.opts.lenient.is_none() {
        if let Some(judging) = cx.opts.judging {
            return judged_in_place(input, cx, judging, map, each);
        }
    }
    let mut stopped = false;
    crate::envelope::pipeline::map_chunks(
        cx.opts.threads(),
        input,
        |chunk| games_in(cx, chunk, &mut |visit| map(visit)),
        |chunk, games| {
            for game in games {
                if each(Some(&chunk), game)?.is_break() {
                    stopped = true;
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        },
    )?;
    Ok(Reading {
        stopped,
        ..Reading::default()
    })
}

/// [`read_mapped`] with one job, for a command that only judges games: each
/// game the lean path can judge is judged in the chunk reader's buffer
/// (`lean::judge_in_place`), the others cut into chunks and read as
/// always.
fn judged_in_place<R, T, E>(
    input: R,
    cx: Cx<'_>,
    judging: Judging,
    map: &Map<'_, T>,
    mut each: E,
) -> io::Result<Reading>
where
    R: BufRead,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    let opts = cx.opts;
    let mut chunks = ChunkReader::new(input);
    let mut judge = |data: &[u8], offset| lean::judge_in_place(data, offset, opts, judging);
    while let Some(next) = chunks.next_in_place(&mut judge)? {
        let flow = match next {
            InPlace::Judged(place, (rules, judged)) => {
                let record = Record::default();
                let mut game = RecordSource::new(&record, None);
                let t = map(cx.judged(&place, &mut game, rules, judged));
                each(Some(&place), t)?
            }
            InPlace::Chunk(chunk) => {
                let mut flow = ControlFlow::Continue(());
                for t in games_in(cx, &chunk, &mut |visit| map(visit)) {
                    flow = each(Some(&chunk), t)?;
                    if flow.is_break() {
                        break;
                    }
                }
                flow
            }
        };
        if flow.is_break() {
            return Ok(Reading {
                stopped: true,
                ..Reading::default()
            });
        }
    }
    Ok(Reading::default())
}

/// Reads every game of a record-format input on this thread.
pub fn read<R: BufRead>(input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<Reading> {
    let mut chunks = ChunkReader::new(input);
    while let Some(chunk) = chunks.next_chunk()? {
        // After a break (or an error) the chunk's other games are passed
        // over.
        let mut done = false;
        let flows = games_in(cx, &chunk, &mut |visit| {
            if done {
                return Ok(ControlFlow::Break(()));
            }
            let flow = each(visit);
            done = !matches!(flow, Ok(ControlFlow::Continue(())));
            flow
        });
        for flow in flows {
            if flow?.is_break() {
                return Ok(Reading::flow(ControlFlow::Break(())));
            }
        }
    }
    Ok(Reading::default())
}

/// What `map` makes of each game of one chunk (a record read from its
/// place in a file: `filter --index`).
pub(crate) fn games_of_chunk<T>(cx: Cx<'_>, chunk: &Chunk, map: &Map<'_, T>) -> Vec<T> {
    games_in(cx, chunk, &mut |visit| map(visit))
}

/// What `f` makes of each game of one chunk, each read as it is handed on
/// (after a game it breaks on, the others are passed over).
fn games_in<T>(cx: Cx<'_>, chunk: &Chunk, f: &mut dyn FnMut(Visit<'_, '_>) -> T) -> Vec<T> {
    let opts = cx.opts;
    if chunk.truncated {
        let p = too_large(chunk);
        let record = Record::default();
        return vec![f(cx.visit(
            Some(chunk),
            &mut RecordSource::new(&record, Some(p.clone())),
            Err(p),
        ))];
    }
    if opts.lenient.is_some() {
        return leniently(cx, chunk, f);
    }
    if let Some((rules, judged)) = opts.judging.and_then(|j| lean::judge_chunk(chunk, opts, j)) {
        let record = Record::default();
        let mut game = RecordSource::new(&record, None);
        return vec![f(cx.judged(chunk, &mut game, rules, judged))];
    }
    each_game(chunk, &|tags| opts.style(tags), &mut |game| {
        let mut game = match opts.turns_only {
            true => StreamTurns::lean(game),
            false => StreamTurns::new(game),
        };
        let rules = rules_for_game(&mut game, opts);
        f(cx.visit(Some(chunk), &mut game, rules))
    })
}

/// `--lenient`: every game of a chunk read whole, repaired, and handed
/// on with its repairs.
fn leniently<T>(cx: Cx<'_>, chunk: &Chunk, f: &mut dyn FnMut(Visit<'_, '_>) -> T) -> Vec<T> {
    let opts = cx.opts;
    read_leniently(chunk, &|tags| opts.style(tags))
        .into_iter()
        .map(|game| {
            let Leniently {
                parsed: Parsed { mut record, error },
                mut repairs,
                renumbered,
            } = game;
            let rules =
                reading::repaired(&mut record, error.as_ref(), opts, &mut repairs, &renumbered);
            f(cx.visit(
                Some(chunk),
                &mut RecordSource::repaired(&record, error, repairs),
                rules,
            ))
        })
        .collect()
}

/// Movetext lines are wrapped before this many columns where possible (a
/// single token longer than that stands on its own line).
pub(crate) const WIDTH: usize = 79;

/// A tag value with `\` and `"` escaped.
pub(crate) fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// Columns a piece of text takes (characters; bytes for ASCII).
fn width(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Lays tokens out on lines of at most `WIDTH` columns.
struct Lines {
    /// Where the movetext starts in the output.
    start: usize,
    column: usize,
}

impl Lines {
    /// A space before a token `w` columns wide, or a line break where it
    /// would not fit.
    fn separate(&mut self, out: &mut Rendered, w: usize) {
        if out.len() > self.start {
            if self.column + 1 + w > WIDTH {
                out.push('\n');
                self.column = 0;
            } else {
                out.push(' ');
                self.column += 1;
            }
        }
    }

    /// A token of one line made of `parts`.
    fn push(&mut self, out: &mut Rendered, parts: &[&str]) {
        let w = parts.iter().map(|p| width(p)).sum();
        self.separate(out, w);
        for p in parts {
            out.push_str(p);
        }
        self.column += w;
    }

    /// A `{comment}`, which may span lines.
    fn comment(&mut self, out: &mut Rendered, text: &str) {
        // The braces count on the line each stands on.
        match text.split_once('\n') {
            Some((first_line, _)) => self.separate(out, width(first_line) + 1),
            None => self.separate(out, width(text) + 2),
        }
        out.push('{');
        out.push_str(text);
        out.push('}');
        match text.rfind('\n') {
            Some(i) => self.column = width(&text[i + 1..]) + 1,
            None => self.column += width(text) + 2,
        }
    }
}

/// Writes a game in canonical text as it is told, ending with a newline.
pub struct TextSink<'o> {
    out: &'o mut Rendered,
    lines: Lines,
    /// The last thing written was a comment, or nothing yet: a second
    /// mover's turn needs its `N...`.
    after_break: bool,
    /// Comments stood before the first turn.
    leading: bool,
}

impl<'o> TextSink<'o> {
    pub fn new(out: &'o mut Rendered) -> Self {
        TextSink {
            out,
            lines: Lines {
                start: 0,
                column: 0,
            },
            after_break: true,
            leading: false,
        }
    }
}

impl GameSink for TextSink<'_> {
    fn head(&mut self, head: &Head<'_>) {
        let out = &mut *self.out;
        for (name, value) in head.tags {
            out.push('[');
            out.push_str(name);
            out.push_str(" \"");
            if value.contains(['"', '\\']) {
                out.push_str(&escape(value));
            } else {
                out.push_str(value);
            }
            out.push_str("\"]\n");
        }
        if !head.tags.is_empty() {
            out.push('\n');
        }
        self.lines.start = out.len();
        for c in head.comments {
            self.lines.comment(out, c);
        }
        self.leading = !head.comments.is_empty();
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        let mut digits = itoa::Buffer::new();
        let out = &mut *self.out;
        // `N...` is needed where the second mover's turn opens the
        // movetext or follows a comment.
        let assessment = turn.assessment.map_or("", |a| a.as_str());
        if !turn.second {
            self.lines.push(
                out,
                &[digits.format(turn.number), ". ", &turn.text, assessment],
            );
        } else if self.after_break {
            self.lines.push(
                out,
                &[digits.format(turn.number), "... ", &turn.text, assessment],
            );
        } else {
            self.lines.push(out, &[&turn.text, assessment]);
        }
        for &n in &turn.nags {
            self.lines.push(out, &["$", digits.format(n)]);
        }
        for c in &turn.comments {
            self.lines.comment(out, c);
        }
        self.after_break = !turn.comments.is_empty();
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        let out = &mut *self.out;
        match (tail.result, tail.outcome) {
            (Some(r), _) => self.lines.push(out, &[r.as_str()]),
            // A game with no movetext at all would run into the next game's
            // tags: it is given its result token (computed when valid, `*`
            // otherwise) so it stays a game of its own.
            (None, outcome) if tail.turns == 0 && !self.leading => self
                .lines
                .push(out, &[outcome.map_or("*", |o| o.result.as_str())]),
            (None, _) => {}
        }
        if out.len() > self.lines.start {
            out.push('\n');
        }
    }
}

/// Writes one game in canonical text, ending with a newline.
pub fn write_game(game: &Converted, out: &mut String) {
    let mut rendered = Rendered::new();
    game.tell(&mut TextSink::new(&mut rendered));
    out.push_str(&rendered.into_string());
}

/// Writes games in canonical text, separated by blank lines.
pub struct TextWriter {
    first: bool,
}

impl Default for TextWriter {
    fn default() -> Self {
        TextWriter { first: true }
    }
}

impl TextWriter {
    pub fn game(&mut self, game: &Converted) -> String {
        let mut s = String::new();
        if !self.first {
            s.push('\n');
        }
        self.first = false;
        write_game(game, &mut s);
        s
    }
}
