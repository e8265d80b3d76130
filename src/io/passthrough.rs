//! Writing records as they were in the input (`filter`, `dedup`): a
//! record-format record's own bytes, the records of a chunk tiling it so
//! that nothing between them is lost or written twice; other inputs as
//! canonical text, or any format the library writes.

use crate::envelope::record::{Chunk, Parsed, RecordSource, Span};
use crate::io::formats::write::Framed;
use crate::io::formats::{convert_one, Dest, Format, GameOut, Job, Visit};
use crate::io::output::Writer;
use crate::play::sink::TraceOptions;
use std::io;
use std::ops::Range;

pub enum Written {
    /// The record as it was in the input: where it is in its chunk.
    Raw(Range<usize>),
    Converted(Box<GameOut>),
}

/// An output and its format's state: records written as they were, or
/// converted to `to` (canonical text by default).
pub struct Sink {
    /// Games are converted to a format asked for (not written raw).
    converted: bool,
    out: Framed<Writer>,
}

impl Sink {
    /// Starts writing to `out`, in `to` (`None`: as the records were).
    pub fn new(to: Option<Format>, out: Writer) -> io::Result<Sink> {
        let format = to.unwrap_or(Format::Text);
        let out = Framed::new(format, Dest::new(format, out)?)?;
        Ok(Sink {
            converted: to.is_some(),
            out,
        })
    }

    /// Writes game `index` of input `file`, as `written` holds it, with
    /// the comment line `note` after its tags when there is one.
    pub fn write(
        &mut self,
        file: &str,
        index: usize,
        written: Written,
        chunk: Option<&Chunk>,
        note: Option<&str>,
    ) -> io::Result<()> {
        match written {
            Written::Raw(range) => {
                let bytes = chunk.and_then(|c| c.bytes.get(range)).unwrap_or_default();
                let bytes = bytes.trim_ascii();
                if bytes.is_empty() {
                    return Ok(());
                }
                match note {
                    Some(n) => self.out.write_raw(&with_note(bytes, n)),
                    None => self.out.write_raw(bytes),
                }
            }
            Written::Converted(game) if note.is_some() && !self.converted => {
                let text = game.into_text()?;
                let noted = with_note(text.trim_ascii(), note.unwrap_or_default());
                self.out.write_raw(&noted)
            }
            Written::Converted(game) => self.out.write(file, index, *game),
        }
    }

    /// Ends the output (its format's framing) and puts it in place.
    pub fn finish(self) -> io::Result<()> {
        self.out.finish()?.commit()
    }
}

/// The bytes of a record as written: from its start to the next line that
/// starts a tag (`[` at the start of a line) or the chunk's end, less the
/// blank lines before that — past what the reader took for the game when
/// its envelope is broken (an unterminated comment, a stray token), so
/// that nothing of it is lost.
pub(crate) fn raw_extent(chunk: &Chunk, span: Span) -> Range<usize> {
    // Spans count from the start of the input.
    let bytes = &chunk.bytes;
    let span = Span::new(
        span.start.saturating_sub(chunk.offset),
        span.end.saturating_sub(chunk.offset),
    );
    let start = span.start.min(bytes.len());
    let from = span.end.clamp(start, bytes.len());
    let next = memchr::memmem::find_iter(&bytes[from..], b"\n[")
        .next()
        .map_or(bytes.len(), |i| from + i + 1);
    let mut end = next.max(from);
    while end > from && bytes[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    start..end
}

/// Where a raw record of a text input is, when it is to be written raw
/// (no `--to`).
pub fn raw(
    format: Format,
    chunk: Option<&Chunk>,
    span: Span,
    to: Option<Format>,
) -> Option<Range<usize>> {
    chunk
        .filter(|_| to.is_none() && matches!(format, Format::Text))
        .map(|c| raw_extent(c, span))
}

/// Makes the raw records of a chunk tile it: each starts where the one
/// before it ended.
#[derive(Default)]
pub struct Tiler {
    /// The input, the chunk (by offset) and where the last record ended.
    last: Option<(String, Option<usize>, usize)>,
}

impl Tiler {
    pub fn tile(&mut self, name: &str, chunk: Option<&Chunk>, written: &mut Option<Written>) {
        let Some(Written::Raw(range)) = written else {
            return;
        };
        let id = chunk.map(|c| c.offset);
        let before = self.last.as_ref().filter(|(n, c, _)| n == name && *c == id);
        if let Some(&(_, _, end)) = before {
            range.start = end;
            range.end = range.end.max(end);
        }
        self.last = Some((name.to_string(), id, range.end));
    }
}

/// `bytes` with the comment line `note` after its tag lines.
pub fn with_note(bytes: &[u8], note: &str) -> Vec<u8> {
    let mut at = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if !line.trim_ascii_start().starts_with(b"[") {
            break;
        }
        at += line.len();
    }
    let mut out = Vec::with_capacity(bytes.len() + note.len() + 4);
    out.extend_from_slice(&bytes[..at]);
    if at > 0 && !bytes[..at].ends_with(b"\n") {
        out.push(b'\n');
    }
    out.push(b'{');
    out.extend_from_slice(note.replace(['{', '}'], "").as_bytes());
    out.extend_from_slice(b"}\n");
    out.extend_from_slice(&bytes[at..]);
    out
}

/// A game read whole (`parsed`, from `visit`) as it is to be written: the
/// record's own bytes for a text input when no format is asked, else
/// converted (`to`, canonical text by default).
pub fn written(visit: Visit<'_, '_>, parsed: &Parsed, to: Option<Format>) -> Written {
    let record = &parsed.record;
    match raw(visit.format, visit.chunk, record.span, to) {
        Some(range) => Written::Raw(range),
        None => {
            let job = Job {
                to: to.unwrap_or(Format::Text),
                trace: TraceOptions {
                    site: to.and_then(Format::site).is_some(),
                    ..TraceOptions::default()
                },
                file: visit.input,
                spreadsheet_safe: false,
            };
            let mut again = RecordSource::new(record, parsed.error.clone());
            Written::Converted(Box::new(convert_one(
                job,
                visit.chunk,
                &mut again,
                visit.rules,
            )))
        }
    }
}
