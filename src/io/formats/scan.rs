//! Cuts a stream of JSON into its records without reading it whole: the
//! input is one JSON value (a record), a JSON array of them (a bulk file,
//! often one line of hundreds of megabytes), or several values one after
//! another. Each record comes out as a [`Chunk`] holding its own bytes, its
//! offset, line and column, so that a problem inside it is located in the
//! file; memory is bounded by the largest record, never by the file.

use crate::envelope::record::{Chunk, MAX_RECORD_BYTES};
use std::io::{self, BufRead};

/// What the scanner found next.
#[derive(Debug)]
pub enum Scanned {
    /// One top-level value or array element, whole (or, when
    /// `chunk.truncated`, only its beginning: it was too long).
    Value(Chunk),
    /// The input ends inside a value: its beginning (capped), and where
    /// the input ends.
    Cut(Chunk, usize),
    /// A byte where no value may start or continue (`]` with no array
    /// open, any `}` between values, a `,` where no element ends, …): its offset, line and column.
    Stray(u8, usize, usize, usize),
}

/// Where the scanner is between values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outer {
    /// At the top level, outside any array.
    Top,
    /// Inside the top-level array, before an element.
    Element,
    /// Inside the top-level array, after an element (`,` or `]` next).
    AfterElement,
}

/// The JSON values of an input, one by one.
pub struct Values<R> {
    inner: R,
    outer: Outer,
    /// Entered with [`Values::enter_array`]: the array's `]` ends it.
    one_array: bool,
    /// Absolute offset, line and column (in characters, 1-based) of the
    /// next byte.
    offset: usize,
    line: usize,
    column: usize,
}

impl<R: BufRead> Values<R> {
    pub fn new(inner: R) -> Self {
        Values {
            inner,
            outer: Outer::Top,
            one_array: false,
            offset: 0,
            line: 1,
            column: 1,
        }
    }

    /// Moves past one byte already looked at.
    fn step(&mut self, b: u8) {
        self.offset += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if b & 0xC0 != 0x80 {
            self.column += 1;
        }
    }

    /// The next value, or `None` at the end of the input.
    pub(crate) fn next_value(&mut self) -> io::Result<Option<Scanned>> {
        // Between values: white space, a byte-order mark, `[`, `,`, `]`.
        loop {
            let buf = fill(&mut self.inner)?;
            let Some(&b) = buf.first() else {
                return Ok(None);
            };
            let bom = self.offset == 0 && buf.starts_with(b"\xEF\xBB\xBF");
            if bom {
                self.inner.consume(3);
                self.offset += 3;
                continue;
            }
            let at = (b, self.offset, self.line, self.column);
            match (b, self.outer) {
                (b' ' | b'\t' | b'\r' | b'\n', _) => {}
                (b'[', Outer::Top) => self.outer = Outer::Element,
                (b',', Outer::AfterElement) => self.outer = Outer::Element,
                (b']', Outer::Element | Outer::AfterElement) if self.one_array => {
                    self.outer = Outer::Top;
                    self.one_array = false;
                    self.inner.consume(1);
                    self.step(b);
                    return Ok(None);
                }
                (b']', Outer::Element | Outer::AfterElement) => self.outer = Outer::Top,
                // `}` never starts a value: stray wherever it stands (read
                // as one, it would end an empty value and never be passed).
                (b',' | b']', _) | (b'}', _) => {
                    self.inner.consume(1);
                    self.step(b);
                    return Ok(Some(Scanned::Stray(at.0, at.1, at.2, at.3)));
                }
                (_, Outer::AfterElement) => {
                    // A missing comma: read the value anyway.
                    return self.value().map(Some);
                }
                _ => return self.value().map(Some),
            }
            self.inner.consume(1);
            self.step(b);
        }
    }

    /// Skips white space (and a byte-order mark at the start) and tells
    /// the next byte, left unread: for walking a document's object.
    pub(crate) fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            let buf = fill(&mut self.inner)?;
            if self.offset == 0 && buf.starts_with(b"\xEF\xBB\xBF") {
                self.inner.consume(3);
                self.offset += 3;
                continue;
            }
            match buf.first() {
                Some(&b) if b.is_ascii_whitespace() => {
                    self.inner.consume(1);
                    self.step(b);
                }
                other => return Ok(other.copied()),
            }
        }
    }

    /// Moves past the byte [`Values::peek`] told.
    pub(crate) fn bump(&mut self) -> io::Result<()> {
        if let Some(&b) = fill(&mut self.inner)?.first() {
            self.inner.consume(1);
            self.step(b);
        }
        Ok(())
    }

    /// One value at the next byte (a member's key or value in a
    /// document), whole or capped as any value.
    pub fn member(&mut self) -> io::Result<Scanned> {
        self.outer = Outer::Top;
        self.value()
    }

    /// Moves into the array at the next byte (`[`): [`Values::next_value`]
    /// then gives its elements, and `None` after its `]`.
    pub(crate) fn enter_array(&mut self) -> io::Result<()> {
        self.bump()?;
        self.outer = Outer::Element;
        self.one_array = true;
        Ok(())
    }

    /// Where the next byte stands: offset, line, column.
    pub fn position(&self) -> (usize, usize, usize) {
        (self.offset, self.line, self.column)
    }

    /// Reads one value starting at the next byte.
    fn value(&mut self) -> io::Result<Scanned> {
        let mut chunk = Chunk {
            offset: self.offset,
            line: self.line,
            column: self.column,
            ..Chunk::default()
        };
        if self.outer == Outer::Element {
            self.outer = Outer::AfterElement;
        }
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        let first = fill(&mut self.inner)?.first().copied();
        let scalar = !matches!(first, Some(b'{' | b'['));
        // A string ends at its closing quote (a key before its `:`).
        let string = first == Some(b'"');
        loop {
            let buf = fill(&mut self.inner)?;
            if buf.is_empty() {
                if scalar && !in_string {
                    return Ok(Scanned::Value(chunk));
                }
                return Ok(Scanned::Cut(chunk, self.offset));
            }
            let mut used = 0;
            let mut done = false;
            for &b in buf {
                if in_string {
                    if escaped {
                        escaped = false;
                    } else if b == b'\\' {
                        escaped = true;
                    } else if b == b'"' {
                        in_string = false;
                        if string {
                            used += 1;
                            done = true;
                        }
                    }
                } else {
                    match b {
                        b'"' => in_string = true,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' if scalar => {
                            done = true;
                        }
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                used += 1;
                                done = true;
                            }
                        }
                        b',' | b' ' | b'\t' | b'\r' | b'\n' if scalar || depth == 0 => {
                            done = true;
                        }
                        _ => {}
                    }
                }
                if done {
                    break;
                }
                used += 1;
            }
            let piece = &buf[..used];
            keep_capped(&mut chunk, piece);
            for &b in piece {
                if b == b'\n' {
                    self.line += 1;
                    self.column = 1;
                } else if b & 0xC0 != 0x80 {
                    self.column += 1;
                }
            }
            self.offset += used;
            self.inner.consume(used);
            if done {
                return Ok(Scanned::Value(chunk));
            }
        }
    }
}

/// Adds `piece` to `chunk` while it stays within [`MAX_RECORD_BYTES`]
/// (else marks it truncated); grown by doubling, but never past the cap (a
/// doubling at 9 MiB would hold 18).
fn keep_capped(chunk: &mut Chunk, piece: &[u8]) {
    let needed = chunk.bytes.len() + piece.len();
    if needed > MAX_RECORD_BYTES {
        chunk.truncated = true;
        return;
    }
    if needed > chunk.bytes.capacity() {
        let to = (needed * 2).clamp(needed, MAX_RECORD_BYTES);
        chunk.bytes.reserve_exact(to - chunk.bytes.len());
    }
    chunk.bytes.extend_from_slice(piece);
}

fn fill<R: BufRead>(r: &mut R) -> io::Result<&[u8]> {
    loop {
        match r.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    r.fill_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<String> {
        let mut v = Values::new(text.as_bytes());
        let mut out = Vec::new();
        while let Some(s) = v.next_value().unwrap() {
            out.push(match s {
                Scanned::Value(c) => format!(
                    "{}@{}:{}:{}",
                    String::from_utf8(c.bytes).unwrap(),
                    c.offset,
                    c.line,
                    c.column
                ),
                Scanned::Cut(c, end) => {
                    format!(
                        "cut {}@{} end {end}",
                        String::from_utf8(c.bytes).unwrap(),
                        c.offset
                    )
                }
                Scanned::Stray(b, o, l, c) => format!("stray {}@{o}:{l}:{c}", b as char),
            });
        }
        out
    }

    #[test]
    fn an_array_is_cut_into_its_elements_with_their_places() {
        assert_eq!(
            all("[{\"a\":[1,{\"b\":\"]}\"}]},\n {\"c\":\"\\\"}\"}]"),
            [
                "{\"a\":[1,{\"b\":\"]}\"}]}@1:1:2",
                "{\"c\":\"\\\"}\"}@24:2:2"
            ]
        );
    }

    #[test]
    fn a_single_object_and_objects_one_after_another_are_values() {
        assert_eq!(
            all(" {\"x\":1}\n{\"y\":2} "),
            ["{\"x\":1}@1:1:2", "{\"y\":2}@9:2:1"]
        );
        assert_eq!(all("[]"), Vec::<String>::new());
        assert_eq!(
            all("[1, \"é\" ,null]"),
            ["1@1:1:2", "\"é\"@4:1:5", "null@10:1:10"]
        );
    }

    #[test]
    fn a_file_cut_short_says_where_it_ends() {
        assert_eq!(
            all("[{\"a\":1},{\"b\":[2"),
            ["{\"a\":1}@1:1:2", "cut {\"b\":[2@9 end 16"]
        );
        assert_eq!(all("[{\"a\":\"x"), ["cut {\"a\":\"x@1 end 8"]);
    }

    #[test]
    fn stray_brackets_and_commas_are_reported_where_they_stand() {
        assert_eq!(all("{\"a\":1}]"), ["{\"a\":1}@0:1:1", "stray ]@7:1:8"]);
        assert_eq!(all("[,{}]"), ["stray ,@1:1:2", "{}@2:1:3"]);
    }

    /// The fuzz target `site` found this: a `}` between values was read as
    /// an empty value that ended before it, again and again, for ever.
    #[test]
    fn a_closing_brace_between_values_is_stray_and_passed() {
        assert_eq!(all("}"), ["stray }@0:1:1"]);
        assert_eq!(all("[{}}]"), ["{}@1:1:2", "stray }@3:1:4"]);
        assert_eq!(all("1}2"), ["1@0:1:1", "stray }@1:1:2", "2@2:1:3"]);
    }

    #[test]
    fn a_record_past_the_cap_is_kept_short_and_marked() {
        let long = format!("[{{\"a\":\"{}\"}},{{}}]", "x".repeat(MAX_RECORD_BYTES + 10));
        let mut v = Values::new(long.as_bytes());
        let Some(Scanned::Value(first)) = v.next_value().unwrap() else {
            panic!("a value")
        };
        assert!(first.truncated);
        assert!(first.bytes.len() <= MAX_RECORD_BYTES);
        let Some(Scanned::Value(second)) = v.next_value().unwrap() else {
            panic!("a value")
        };
        assert_eq!(second.bytes, b"{}");
        assert_eq!(second.offset, MAX_RECORD_BYTES + 10 + 10);
    }
}
