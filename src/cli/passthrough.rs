//! Writing records as they were in the input (`filter`, `dedup`): a
//! record-format record's own bytes, the records of a chunk tiling it so
//! that nothing between them is lost or written twice; other inputs as
//! canonical text, or any `convert` format.

use super::input::{expand, Output, Source};
use super::messages;
use gamerec::convert::out::Rendered;
use gamerec::convert::TraceOptions;
use gamerec::input::Format;
use gamerec::problem::Problem;
use gamerec::record::{Chunk, Parsed, RecordSource, Span};
use gamerec::registry::AnyGame;
use gamerec::target::{self, Dest, GameOut, Job, To};
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

pub enum Written {
    /// The record as it was in the input: where it is in its chunk.
    Raw(Range<usize>),
    Converted(Box<GameOut>),
}

/// An output and its format's state.
pub struct Sink {
    to: Option<To>,
    out: Dest<super::input::Writer>,
    any: bool,
    held: Option<Rendered>,
}

impl Sink {
    pub fn open(to: Option<To>, output: &Output) -> Option<Sink> {
        if matches!(to, Some(To::Parquet)) && output.is_terminal() {
            messages::error("Parquet is a binary format: write it to a file with -o, or pipe it");
            return None;
        }
        let out = output.create()?;
        let mut out = match Dest::new(to.unwrap_or(To::Text), out) {
            Ok(out) => out,
            Err(e) => {
                messages::finished(Err(e));
                return None;
            }
        };
        if let Some(to) = to {
            if let Err(e) = target::head(to, &mut out) {
                messages::finished(Err(e));
                return None;
            }
        }
        Some(Sink {
            to,
            out,
            any: false,
            held: None,
        })
    }

    pub fn write(
        &mut self,
        file: &str,
        index: usize,
        written: Written,
        chunk: Option<&Chunk>,
        note: Option<&str>,
    ) -> io::Result<()> {
        match (written, self.to) {
            (Written::Raw(range), _) => {
                let bytes = chunk.and_then(|c| c.bytes.get(range)).unwrap_or_default();
                let bytes = bytes.trim_ascii();
                if bytes.is_empty() {
                    return Ok(());
                }
                let noted;
                let bytes = match note {
                    Some(n) => {
                        noted = with_note(bytes, n);
                        &noted[..]
                    }
                    None => bytes,
                };
                if std::mem::replace(&mut self.any, true) {
                    self.out.write_all(b"\n")?;
                }
                self.out.write_all(bytes)?;
                if !bytes.ends_with(b"\n") {
                    self.out.write_all(b"\n")?;
                }
                Ok(())
            }
            (Written::Converted(read), None) if note.is_some() => {
                let text = read.into_text()?;
                let noted = with_note(text.trim_ascii(), note.unwrap_or_default());
                if std::mem::replace(&mut self.any, true) {
                    self.out.write_all(b"\n")?;
                }
                self.out.write_all(&noted)?;
                self.out.write_all(b"\n")
            }
            (Written::Converted(read), to) => {
                let any = std::mem::replace(&mut self.any, true);
                let to = to.unwrap_or(To::Text);
                target::write(to, &mut self.out, file, index, *read, any, &mut self.held)
            }
        }
    }

    pub fn finish(mut self) -> io::Result<()> {
        if let Some(to) = self.to {
            target::tail(to, &mut self.out, self.any, self.held.take())?;
        }
        self.out.finish()?.commit()
    }
}

/// The bytes of a record as written: from its start to the next line that
/// starts a tag (`[` at the start of a line) or the chunk's end, less the
/// blank lines before that — past what the reader took for the game when
/// its envelope is broken (an unterminated comment, a stray token), so
/// that nothing of it is lost.
pub fn raw_extent(chunk: &Chunk, span: Span) -> Range<usize> {
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
    to: Option<To>,
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

/// A game read whole (`parsed`) as it is to be written: the record's own
/// bytes for a text input when no `--to` is asked, else converted (`to`,
/// canonical text by default).
pub fn written(
    file: &str,
    format: Format,
    chunk: Option<&Chunk>,
    parsed: &Parsed,
    rules: Result<&'static dyn AnyGame, Problem>,
    to: Option<To>,
) -> Written {
    let record = &parsed.record;
    match raw(format, chunk, record.span, to) {
        Some(range) => Written::Raw(range),
        None => {
            let job = Job {
                to: to.unwrap_or(To::Text),
                trace: TraceOptions {
                    site: to.and_then(To::site).is_some(),
                    ..TraceOptions::default()
                },
                file,
                spreadsheet_safe: false,
            };
            let mut again = RecordSource::new(record, parsed.error.clone());
            Written::Converted(Box::new(target::convert_one(job, chunk, &mut again, rules)))
        }
    }
}

/// A second output (`--rest`, `--dups`), checked not to be one of the
/// `sources` nor the same file as the `first` output, and opened: `Err`
/// when it cannot be (said), `Ok(None)` when none is asked for.
pub fn second(
    path: Option<&Path>,
    first: &Output,
    sources: &[Source],
    to: Option<To>,
) -> Result<Option<Sink>, ()> {
    let Some(path) = path else {
        return Ok(None);
    };
    let output = Output::new(Some(path));
    if first.same_as(&output) {
        messages::error(format!(
            "{}: is also the other output (-o {}); two outputs on one file would lose one",
            path.display(),
            first
                .path()
                .map_or(String::new(), |p| p.display().to_string())
        ));
        return Err(());
    }
    let files: Vec<PathBuf> = sources
        .iter()
        .filter_map(|s| match s {
            Source::File(p) => Some(p.clone()),
            Source::Stdin | Source::Spooled(_) => None,
        })
        .collect();
    if expand(&files, false, &output).is_none() {
        return Err(());
    }
    Sink::open(to, &output).map(Some).ok_or(())
}
