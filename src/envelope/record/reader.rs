//! Streaming: cuts an input into chunks of one game each (a tag section and
//! its movetext), so that an archive is read with memory bounded by its
//! largest game, never by its size.
//!
//! A chunk ends where a line's first non-blank character is `[` after some
//! movetext has been seen. Inside an open `{comment}`, a line that is exactly
//! one tag pair (and closes no comment: a `}` in it means the comment it
//! began in was closed, so the line is movetext) also starts a new chunk, so
//! that an unterminated comment hides no more than its own game.

use std::io::{self, BufRead};

/// A record longer than this is reported and skipped, not kept in memory.
pub const MAX_RECORD_BYTES: usize = 16 << 20;

/// A record with more tag pairs than this is reported (`record-too-large`)
/// and its other tags are not kept: a tag pair costs about a hundred bytes
/// in memory and six in the text (`[a""]`), so a record under
/// [`MAX_RECORD_BYTES`] of nothing but tags would take hundreds of
/// megabytes. Real records hold a few dozen.
pub const MAX_TAGS: usize = 10_000;

/// Bytes of one line kept for boundary checks once a record is too long.
const MAX_LINE_KEPT: usize = 4096;

/// One stretch of input holding (normally) one game.
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    pub bytes: Vec<u8>,
    /// Byte offset of `bytes[0]` in the whole input.
    pub offset: usize,
    /// 1-based line number of `bytes[0]`.
    pub line: usize,
    /// 1-based column (in characters) of `bytes[0]` on its line; 0 is
    /// read as 1 (a chunk that starts a line). A record cut from the
    /// middle of a line (one element of a one-line JSON array) starts
    /// further right.
    pub column: usize,
    /// The record was longer than [`MAX_RECORD_BYTES`]; `bytes` holds its
    /// beginning only.
    pub truncated: bool,
}

impl Chunk {
    /// A chunk over bytes already in memory (offset 0, line 1).
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Chunk {
        Chunk {
            bytes: bytes.into(),
            offset: 0,
            line: 1,
            column: 1,
            truncated: false,
        }
    }

    /// 1-based line and column (in characters) of an absolute byte offset
    /// inside this chunk.
    pub fn locate(&self, offset: usize) -> (usize, usize) {
        self.locator().at(offset)
    }

    /// A [`Locator`] over this chunk: many offsets located in increasing
    /// order cost one pass over the chunk, not one each.
    pub(crate) fn locator(&self) -> Locator<'_> {
        Locator {
            chunk: self,
            rel: 0,
            line: self.line,
            chars: 0,
        }
    }

    /// The chunk as text for display, with the same byte offsets: every byte
    /// of an invalid UTF-8 sequence becomes `?` and a carriage return a space.
    pub fn display_text(&self) -> String {
        let mut out = String::with_capacity(self.bytes.len());
        for piece in self.bytes.utf8_chunks() {
            out.push_str(piece.valid());
            out.extend(std::iter::repeat_n('?', piece.invalid().len()));
        }
        out.replace('\r', " ")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Normal,
    Tag { quoted: bool, escaped: bool },
    Comment,
}

/// Reads an input chunk by chunk.
pub struct ChunkReader<R> {
    inner: R,
    split: Splitter,
    done: bool,
}

impl<R: BufRead> ChunkReader<R> {
    pub fn new(inner: R) -> Self {
        ChunkReader {
            inner,
            split: Splitter::new(),
            done: false,
        }
    }

    /// The next chunk, or `None` at the end of the input.
    pub(crate) fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        self.cut(false)
    }

    /// The next game, judged by `judge` in the reader's own buffer where it
    /// can be — no chunk made, no byte copied — or else the next chunk.
    ///
    /// `judge` is given the buffered bytes from where the next chunk starts
    /// (at input offset `offset`) and answers with the length of the chunk
    /// it judged and its judgment, or `None`. It must answer only for a
    /// chunk that the chunk reader would end where it says, at the `[`
    /// that starts the next line (after spaces, tabs or CRs only), read in
    /// movetext — not in a comment or a tag pair — and within the bytes it
    /// was given: the reader then starts afresh there. The judged chunk
    /// comes back as a [`Chunk`] with its place and no bytes.
    pub(crate) fn next_in_place<T>(
        &mut self,
        judge: &mut InPlaceJudge<'_, T>,
    ) -> io::Result<Option<InPlace<T>>> {
        if !self.done && self.split.is_fresh() {
            let data = loop {
                match self.inner.fill_buf() {
                    Ok(d) => break d,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            if let Some((len, judged)) = judge(data, self.split.pos) {
                let lines = newlines(&data[..len]);
                let place = Chunk {
                    bytes: Vec::new(),
                    offset: self.split.pos,
                    line: self.split.line,
                    column: 1,
                    truncated: false,
                };
                let (pos, line) = (self.split.pos + len, self.split.line + lines);
                self.split.reset_at(pos, line);
                self.inner.consume(len);
                return Ok(Some(InPlace::Judged(place, judged)));
            }
        }
        Ok(self.cut(true)?.map(InPlace::Chunk))
    }

    /// The next chunk. With `rewind`, the bytes of the chunk after it that
    /// the cut had to read (its line's start, up to the byte that ended
    /// this chunk) are left in the reader, where they can be, and the
    /// splitter starts afresh at them: the next game can then be judged in
    /// place ([`ChunkReader::next_in_place`]).
    fn cut(&mut self, rewind: bool) -> io::Result<Option<Chunk>> {
        if self.done {
            return Ok(None);
        }
        loop {
            let data = match self.inner.fill_buf() {
                Ok(d) => d,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if data.is_empty() {
                let (chunk, more) = self.split.finish();
                self.done = !more;
                return Ok(chunk);
            }
            let (mut consumed, chunk) = self.split.feed(data);
            if chunk.is_some() && rewind {
                // What the splitter holds of the next chunk, when read in
                // this call, goes back to the reader — where it is a line's
                // blanks and the `[` that cut it: a fresh splitter reads
                // that into the same state. (After a cut inside a comment,
                // or a `}` before the `[`, the state it is in is not one a
                // fresh splitter would reach.)
                let head = self.split.buf.len();
                let plain = self.split.buf.split_last().is_some_and(|(&last, blanks)| {
                    last == b'[' && blanks.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
                });
                if plain && head <= consumed && self.split.pos - self.split.buf_offset == head {
                    consumed -= head;
                    let (pos, line) = (self.split.buf_offset, self.split.buf_line);
                    self.split.reset_at(pos, line);
                }
            }
            self.inner.consume(consumed);
            if let Some(chunk) = chunk {
                if chunk.bytes.iter().all(u8::is_ascii_whitespace) && !chunk.truncated {
                    continue;
                }
                return Ok(Some(chunk));
            }
        }
    }
}

/// What judges a game in place for [`ChunkReader::next_in_place`]: the
/// buffered bytes and their input offset in, the chunk's length and its
/// judgment out.
pub(crate) type InPlaceJudge<'j, T> = dyn FnMut(&[u8], usize) -> Option<(usize, T)> + 'j;

/// What [`ChunkReader::next_in_place`] gives: a game judged in the
/// reader's buffer (its place, and the judgment), or a chunk.
pub(crate) enum InPlace<T> {
    Judged(Chunk, T),
    Chunk(Chunk),
}

/// The byte scanner behind [`ChunkReader`]: the chunk being assembled and
/// the lexical state it needs to find the next boundary. It holds no
/// reader, so the reader's buffer is scanned in place.
struct Splitter {
    buf: Vec<u8>,
    buf_offset: usize,
    buf_line: usize,
    /// Absolute offset and line of the next byte to read.
    pos: usize,
    line: usize,
    /// Index in `buf` where the current line starts.
    line_start: usize,
    state: State,
    seen_movetext: bool,
    only_blank_on_line: bool,
    truncated: bool,
    kept_len: usize,
    /// Copy runs of bytes that cannot end a chunk in one go (off only in
    /// the tests that check it changes nothing).
    fast: bool,
    /// Bytes looked at one by one (for the tests).
    #[cfg(test)]
    slow_steps: usize,
}

impl Splitter {
    fn new() -> Self {
        Splitter {
            fast: true,
            #[cfg(test)]
            slow_steps: 0,
            buf: Vec::new(),
            buf_offset: 0,
            buf_line: 1,
            pos: 0,
            line: 1,
            line_start: 0,
            state: State::Normal,
            seen_movetext: false,
            only_blank_on_line: true,
            truncated: false,
            kept_len: 0,
        }
    }

    /// Whether the splitter stands at a chunk's start with nothing read of
    /// it: as it was made, but further on in the input.
    fn is_fresh(&self) -> bool {
        self.buf.is_empty()
            && self.state == State::Normal
            && !self.seen_movetext
            && self.only_blank_on_line
            && !self.truncated
    }

    /// Starts afresh at input offset `pos`, line `line`: where a chunk
    /// starts at a line's start with blanks and `[`, a splitter that reads
    /// it from its first byte cuts it where one that read on from the
    /// chunk before does.
    fn reset_at(&mut self, pos: usize, line: usize) {
        let fast = self.fast;
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        *self = Splitter {
            buf,
            buf_offset: pos,
            buf_line: line,
            pos,
            line,
            fast,
            ..Splitter::new()
        };
    }

    /// Cuts the buffer at `at` (a line start): everything before it becomes
    /// the returned chunk, the rest starts the next one.
    fn split_at(&mut self, at: usize) -> Chunk {
        // The next chunk's buffer starts as large as this one (games in an
        // archive are alike), so that it need not grow byte by byte; but
        // not past 1 MiB: after a game near the cap, another 16 MiB would
        // be held before the next game needs it.
        let mut rest = Vec::with_capacity(at.clamp(256, 1 << 20));
        rest.extend_from_slice(&self.buf[at..]);
        self.buf.truncate(at);
        let bytes = std::mem::replace(&mut self.buf, rest);
        let chunk = Chunk {
            bytes,
            offset: self.buf_offset,
            line: self.buf_line,
            column: 1,
            truncated: self.truncated,
        };
        // What stays in the buffer is the current line, read up to `pos`.
        self.buf_offset = self.pos - self.buf.len();
        self.buf_line = self.line - self.buf.iter().filter(|&&b| b == b'\n').count();
        self.line_start -= at.min(self.line_start);
        self.truncated = false;
        self.seen_movetext = false;
        chunk
    }

    fn push(&mut self, b: u8) {
        if !self.truncated && self.buf.len() >= MAX_RECORD_BYTES {
            self.truncated = true;
            self.kept_len = self.buf.len();
        }
        if !self.truncated || self.buf.len() - self.line_start.min(self.buf.len()) < MAX_LINE_KEPT {
            self.buf.push(b);
        }
    }

    fn end_line(&mut self) {
        self.line += 1;
        if self.truncated {
            self.buf.truncate(self.kept_len);
        }
        self.line_start = self.buf.len();
        self.only_blank_on_line = true;
    }

    /// At the end of the input: the last chunk, if any, and whether one more
    /// may follow (a tag line ending an open comment).
    fn finish(&mut self) -> (Option<Chunk>, bool) {
        if self.state == State::Comment && is_open_tag_line(&self.buf[self.line_start..]) {
            let at = self.line_start;
            let chunk = self.split_at(at);
            if !chunk.bytes.is_empty() {
                // The tag line becomes the last chunk on the next call.
                self.state = State::Normal;
                return (Some(chunk), true);
            }
        }
        if self.buf.iter().all(u8::is_ascii_whitespace) && !self.truncated {
            return (None, false);
        }
        let len = self.buf.len();
        (Some(self.split_at(len)), false)
    }

    /// Scans `data` up to the first chunk boundary. Returns how many bytes
    /// were used and the finished chunk, if a boundary was found.
    fn feed(&mut self, data: &[u8]) -> (usize, Option<Chunk>) {
        let mut consumed = 0;
        let mut out = None;
        while consumed < data.len() {
            // Fast path: a whole tag line of a tag section, in one go.
            if let Some(len) = self.tag_line(&data[consumed..]) {
                self.buf.extend_from_slice(&data[consumed..consumed + len]);
                self.pos += len;
                consumed += len;
                self.end_line();
                continue;
            }
            // Fast path: the bytes before the next one that matters are
            // copied in one go.
            let skip = self.run_length(&data[consumed..]);
            if skip > 0 && self.fast {
                let (take, keep) = self.kept(skip);
                if take > 0 {
                    self.note_lines(&data[consumed..consumed + take]);
                    self.buf.extend_from_slice(&data[consumed..consumed + keep]);
                    self.pos += take;
                    consumed += take;
                    continue;
                }
            }
            let b = data[consumed];
            #[cfg(test)]
            {
                self.slow_steps += 1;
            }
            out = self.step(b);
            self.push(b);
            self.pos += 1;
            consumed += 1;
            if b == b'\n' {
                self.end_line();
            }
            if out.is_some() {
                break;
            }
        }
        (consumed, out)
    }

    /// How many bytes at the start of `data` can be copied in one go: in
    /// movetext only `{`, `[` and the line's end matter, inside a comment
    /// only `}` and the line's end, inside a tag pair quotes, escapes, the
    /// closing bracket and the line's end.
    #[inline]
    fn run_length(&self, data: &[u8]) -> usize {
        match self.state {
            // In movetext only `{` and `[` matter: lines are counted, and
            // whether the last one is blank so far is seen, over the run
            // ([`Splitter::note_lines`]). Not for a record past the cap
            // (its lines are cut one by one), nor where a byte-order mark
            // may still be read.
            State::Normal if self.seen_movetext && !self.truncated && self.pos >= 3 => {
                memchr::memchr2(b'{', b'[', data)
            }
            State::Normal if !self.only_blank_on_line && self.seen_movetext => {
                memchr::memchr3(b'{', b'[', b'\n', data)
            }
            State::Comment => memchr::memchr2(b'}', b'\n', data),
            // Inside a tag pair: quotes, escapes, the closing bracket
            // and the line's end.
            State::Tag {
                quoted: true,
                escaped: false,
            } => memchr::memchr3(b'"', b'\\', b'\n', data),
            State::Tag { quoted: false, .. } => memchr::memchr3(b'"', b']', b'\n', data),
            _ => Some(0),
        }
        .unwrap_or(data.len())
    }

    /// The length of the tag line (its line end included) that `data`
    /// starts with, where a tag section goes on and the line is exactly one
    /// tag pair: the byte scan would read it as one tag pair and be where
    /// it was at the line's start, one line further.
    #[inline]
    fn tag_line(&self, data: &[u8]) -> Option<usize> {
        let goes_on = self.fast
            && self.state == State::Normal
            && !self.seen_movetext
            && self.only_blank_on_line
            && !self.truncated;
        if !goes_on || data.first() != Some(&b'[') {
            return None;
        }
        let len = tag_line_len(data)?;
        (self.buf.len() + len < MAX_RECORD_BYTES).then_some(len)
    }

    /// Notes the lines a run of bytes taken in one go ends and starts
    /// (before it is added to the block): the line count, where the last
    /// line starts, and whether it is blank so far (in movetext).
    #[inline]
    fn note_lines(&mut self, run: &[u8]) {
        let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        // The line ends counted in one vectorised pass (a search per line
        // end cost more), the last one found from the end.
        let ends = memchr::memchr_iter(b'\n', run).count();
        self.line += ends;
        let last = match ends {
            0 => None,
            _ => memchr::memrchr(b'\n', run),
        };
        match last {
            None => {
                if self.state == State::Normal && self.only_blank_on_line {
                    self.only_blank_on_line = run.iter().all(blank);
                }
            }
            Some(last) => {
                self.line_start = self.buf.len() + last + 1;
                self.only_blank_on_line = run[last + 1..].iter().all(blank);
            }
        }
    }

    /// How much of a run of `skip` bytes is taken in one go, and how much
    /// of that is kept: under the cap, what fits below it (the byte that
    /// reaches the cap is looked at alone); past it all of the run, and
    /// only the current line's first bytes kept (for the boundary checks).
    #[inline]
    fn kept(&self, skip: usize) -> (usize, usize) {
        if self.truncated {
            let line = self.buf.len() - self.line_start.min(self.buf.len());
            (skip, skip.min(MAX_LINE_KEPT.saturating_sub(line)))
        } else {
            let take = skip.min(MAX_RECORD_BYTES.saturating_sub(self.buf.len() + 1));
            (take, take)
        }
    }

    /// Moves the state past byte `b`; a chunk boundary found here gives the
    /// finished chunk.
    #[inline]
    fn step(&mut self, b: u8) -> Option<Chunk> {
        let mut out = None;
        match self.state {
            State::Normal => match b {
                b'[' if self.only_blank_on_line && self.seen_movetext => {
                    let at = self.line_start;
                    out = Some(self.split_at(at));
                    // This `[` starts the new chunk's tag section.
                    self.state = State::Tag {
                        quoted: false,
                        escaped: false,
                    };
                    self.only_blank_on_line = false;
                }
                b'[' => {
                    self.state = State::Tag {
                        quoted: false,
                        escaped: false,
                    };
                    self.only_blank_on_line = false;
                }
                b'{' => {
                    self.state = State::Comment;
                    self.seen_movetext = true;
                    self.only_blank_on_line = false;
                }
                b' ' | b'\t' | b'\r' | b'\n' => {}
                0xEF | 0xBB | 0xBF if self.pos < 3 => {} // byte order mark
                _ => {
                    self.seen_movetext = true;
                    self.only_blank_on_line = false;
                }
            },
            State::Tag { quoted, escaped } => {
                self.state = match (b, quoted, escaped) {
                    (b'\n', _, _) => State::Normal,
                    (_, true, true) => State::Tag {
                        quoted: true,
                        escaped: false,
                    },
                    (b'\\', true, false) => State::Tag {
                        quoted: true,
                        escaped: true,
                    },
                    (b'"', q, _) => State::Tag {
                        quoted: !q,
                        escaped: false,
                    },
                    (b']', false, _) => State::Normal,
                    _ => self.state,
                };
            }
            State::Comment => {
                if b == b'}' {
                    self.state = State::Normal;
                } else if b == b'\n' && is_open_tag_line(&self.buf[self.line_start..]) {
                    let at = self.line_start;
                    out = Some(self.split_at(at));
                    self.state = State::Normal;
                }
            }
        }
        out
    }
}

impl<R: BufRead> Iterator for ChunkReader<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_chunk().transpose()
    }
}

/// Whether a line inside an open comment is a tag line that starts a new
/// game: one tag pair, with no `}` in it (a line that closes the comment and
/// opens another, like `[x "a} 1. e3-e5 {b"]`, is movetext that only looks
/// like a tag pair).
fn is_open_tag_line(line: &[u8]) -> bool {
    !line.contains(&b'}') && is_tag_line(line)
}

/// The length, line end included, of the line `data` starts with where
/// that line is one tag pair (`[` first): found in one pass over the
/// line's bytes, with no search for the line's end first.
fn tag_line_len(data: &[u8]) -> Option<usize> {
    let mut end = tag_pair_end(data)?;
    // After the `]`, only the bytes the byte scan takes for blank (a form
    // feed there is movetext to it).
    while matches!(data.get(end), Some(b' ' | b'\t' | b'\r')) {
        end += 1;
    }
    (data.get(end) == Some(&b'\n')).then_some(end + 1)
}

/// Whether a line (its end not included) is exactly one tag pair
/// `[Name "value"]`, blanks around.
fn is_tag_line(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    line.first() == Some(&b'[') && tag_pair_end(line) == Some(line.len())
}

/// Where the tag pair `data` starts with (its `[` first) ends, just after
/// its `]`; `None` where it is not one on this line. The name
/// follows the `[` at once (letters, digits, `_`); blanks may stand
/// around the quoted value, whose `\` escapes the byte after it (a line
/// end too soon is none).
fn tag_pair_end(data: &[u8]) -> Option<usize> {
    let at = |p: usize| data.get(p).copied();
    // Blank within a line (`trim_ascii`'s bytes but the line end).
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\x0c' | b'\r');
    let mut p = 1;
    while at(p).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
        p += 1;
    }
    if p == 1 {
        return None;
    }
    while at(p).is_some_and(blank) {
        p += 1;
    }
    if at(p)? != b'"' {
        return None;
    }
    p += 1;
    loop {
        match at(p)? {
            b'"' => break,
            b'\n' => return None,
            b'\\' if at(p + 1)? == b'\n' => return None,
            b'\\' => p += 2,
            _ => p += 1,
        }
    }
    p += 1;
    while at(p).is_some_and(blank) {
        p += 1;
    }
    (at(p)? == b']').then_some(p + 1)
}

/// Locates offsets of a chunk in increasing order in one pass (a game's
/// plies, each located for JSON or a table: `Chunk::locate` for each
/// counted the lines from the chunk's start, and the characters from the
/// line's, quadratic in a game's plies when its movetext is one line).
pub struct Locator<'c> {
    chunk: &'c Chunk,
    /// How far the chunk is counted (relative to it), the line there, and
    /// the characters of that line before it.
    rel: usize,
    line: usize,
    chars: usize,
}

impl Locator<'_> {
    /// 1-based line and column (in characters) of an absolute byte offset,
    /// as [`Chunk::locate`] gives them.
    pub fn at(&mut self, offset: usize) -> (usize, usize) {
        let c = self.chunk;
        let rel = offset.saturating_sub(c.offset).min(c.bytes.len());
        if rel < self.rel {
            // Back: count again from the chunk's start.
            (self.rel, self.line, self.chars) = (0, c.line, 0);
        }
        let new = &c.bytes[self.rel..rel];
        let from = match memchr::memrchr(b'\n', new) {
            Some(last) => {
                self.line += memchr::memchr_iter(b'\n', new).count();
                self.chars = 0;
                last + 1
            }
            None => 0,
        };
        // Count characters, not bytes: skip UTF-8 continuation bytes.
        self.chars += new[from..].iter().filter(|&&b| (b & 0xC0) != 0x80).count();
        self.rel = rel;
        let mut col = 1 + self.chars;
        if self.line == c.line {
            col += c.column.saturating_sub(1);
        }
        (self.line, col)
    }
}

/// How many `\n` bytes `bytes` holds: eight bytes a word, each byte's
/// hits counted in a byte of their own. On a game's few hundred bytes this
/// is about twice as fast as a vector search, whose setup and byte-by-byte
/// tail cost more there than they save.
pub(crate) fn newlines(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut words = bytes.chunks_exact(8);
    let mut n = 0;
    loop {
        // At most 31 words a round: each byte's count stays under 32 and
        // their sum under 256, so one multiply adds them up.
        let (mut counts, mut taken) = (0u64, 0);
        for word in words.by_ref().take(31) {
            let mut w = [0; 8];
            w.copy_from_slice(word);
            let x = u64::from_le_bytes(w) ^ (ONES * u64::from(b'\n'));
            // A byte's high bit: set where the byte of `x` is zero.
            let zero = !(((x & (ONES * 0x7F)) + ONES * 0x7F) | x) & (ONES * 0x80);
            counts += zero >> 7;
            taken += 1;
        }
        n += (counts.wrapping_mul(ONES) >> 56) as usize;
        if taken < 31 {
            break;
        }
    }
    n + words.remainder().iter().filter(|&&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The word-at-a-time count of newlines is a plain count, on every
    /// length up to 300 with newlines anywhere and bytes one bit from a
    /// newline's (`\x0b`, `\x8a`, `\x0e`, `\x02`).
    #[test]
    fn newlines_counted_a_word_at_a_time_are_those_counted_byte_by_byte() {
        let mut state = 1u64;
        for len in 0..300 {
            for _ in 0..20 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        b"\n\n\n\x0b\x8a\x0e\x02a \xff"[(state >> 59) as usize % 10]
                    })
                    .collect();
                let plain = bytes.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(super::newlines(&bytes), plain, "{bytes:?}");
            }
        }
        assert_eq!(super::newlines(&[b'\n'; 1000]), 1000);
    }

    /// Every chunk of `input` read through a buffer of `capacity` bytes,
    /// with or without the fast path.
    fn all_chunks(input: &[u8], capacity: usize, fast: bool) -> Vec<(Vec<u8>, usize, usize, bool)> {
        let mut r = ChunkReader::new(io::BufReader::with_capacity(capacity, input));
        r.split.fast = fast;
        r.map(|c| {
            let c = c.unwrap();
            (c.bytes, c.offset, c.line, c.truncated)
        })
        .collect()
    }

    proptest! {
        /// The fast path (runs copied in one go) and any buffer size cut an
        /// input exactly where the byte-by-byte scan does.
        #[test]
        fn the_fast_path_cuts_where_the_byte_scan_does(
            pieces in proptest::collection::vec(
                prop_oneof![
                    Just("[Game \"oshi\"]\n"), Just("[A \"x]{\\\"\"]"), Just("["), Just("]"),
                    Just("\""), Just("\\"), Just("{"), Just("}"), Just("\n"), Just(" "),
                    Just("1. e3-e5"), Just("*"), Just("\u{feff}"), Just("é"),
                    Just("\r"), Just("\t"), Just("\x0c"), Just("[A_1 \"v\" ]\r\n"),
                    Just("[A\"\\\\\"]\n"),
                ],
                0..60,
            )
        ) {
            let input = pieces.concat().into_bytes();
            let reference = all_chunks(&input, 1 << 16, false);
            prop_assert_eq!(&all_chunks(&input, 1 << 16, true), &reference);
            prop_assert_eq!(&all_chunks(&input, 1, true), &reference);
            prop_assert_eq!(&all_chunks(&input, 5, true), &reference);
        }
    }

    /// Whether the chunk reader, having read `input` up to `end`, is in
    /// movetext there (not in a comment, nor a tag pair).
    fn in_movetext_at(input: &[u8], end: usize) -> bool {
        let mut split = Splitter::new();
        let mut at = 0;
        while at < end {
            at += split.feed(&input[at..end]).0;
        }
        split.state == State::Normal
    }

    /// Every chunk of `input` read through a buffer of `capacity` bytes by
    /// [`ChunkReader::next_in_place`], with a judge that takes, in place,
    /// each chunk of `reference` that starts where it is asked, lies in the
    /// bytes it is given and is one `take` picks (by its number); a chunk
    /// taken in place comes back with the bytes it was given for it.
    fn in_place_chunks(
        input: &[u8],
        capacity: usize,
        reference: &[(Vec<u8>, usize, usize, bool)],
        take: &dyn Fn(usize) -> bool,
    ) -> Vec<(Vec<u8>, usize, usize, bool)> {
        let mut r = ChunkReader::new(io::BufReader::with_capacity(capacity, input));
        let mut judge = |data: &[u8], offset: usize| {
            let i = reference.iter().position(|c| c.1 == offset)?;
            let (bytes, truncated) = (&reference[i].0, reference[i].3);
            // As the contract says: the chunk ends where the next line
            // starts with the reader's blanks and `[`, within `data`, and
            // that `[` is what cuts it (the reader is in movetext there,
            // not in a comment or a tag pair).
            let next = data.get(bytes.len()..)?;
            let plain = next.iter().find(|b| !matches!(b, b' ' | b'\t' | b'\r')) == Some(&b'[');
            let cut_there = plain && in_movetext_at(input, offset + bytes.len());
            (cut_there && !truncated && take(i))
                .then(|| (bytes.len(), data[..bytes.len()].to_vec()))
        };
        let mut out = Vec::new();
        while let Some(next) = r.next_in_place(&mut judge).unwrap() {
            out.push(match next {
                InPlace::Judged(c, bytes) => {
                    assert!(c.bytes.is_empty() && !c.truncated);
                    (bytes, c.offset, c.line, c.truncated)
                }
                InPlace::Chunk(c) => (c.bytes, c.offset, c.line, c.truncated),
            });
        }
        out
    }

    proptest! {
        /// Games taken in place and chunks cut around them (the bytes the
        /// cut read of the next chunk given back) are the chunks the chunk
        /// reader cuts, with their offsets and lines, through any buffer.
        #[test]
        fn games_judged_in_place_leave_the_cuts_where_they_were(
            pieces in proptest::collection::vec(
                prop_oneof![
                    Just("[Game \"oshi\"]\n"), Just("[A \"x]{\\\"\"]"), Just("["), Just("]"),
                    Just("\""), Just("{"), Just("}"), Just("\n"), Just(" "), Just("\n\n"),
                    Just("1. e3-e5"), Just("*\n"), Just("\u{feff}"), Just("é"),
                    Just("\r"), Just("\t"), Just("\x0c"), Just("[A_1 \"v\" ]\r\n"),
                ],
                0..60,
            ),
            every in 1usize..4,
        ) {
            let input = pieces.concat().into_bytes();
            let reference = all_chunks(&input, 1 << 16, true);
            for capacity in [1 << 16, 7, 64] {
                let takes: [&dyn Fn(usize) -> bool; 2] = [&|_| true, &|i| i % every == 0];
                for take in takes {
                    prop_assert_eq!(&in_place_chunks(&input, capacity, &reference, take), &reference);
                }
            }
        }
    }

    /// The tag line as the splitter read it before it was read in one
    /// pass: the line trimmed, the brackets, the name and the quotes
    /// stripped, the value walked for an unescaped quote.
    fn tag_line_by_parts(line: &[u8]) -> bool {
        let line = line.trim_ascii();
        let Some(inner) = line.strip_prefix(b"[").and_then(|l| l.strip_suffix(b"]")) else {
            return false;
        };
        let name_len = inner
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if name_len == 0 {
            return false;
        }
        let rest = inner[name_len..].trim_ascii();
        let Some(value) = rest.strip_prefix(b"\"").and_then(|r| r.strip_suffix(b"\"")) else {
            return false;
        };
        let mut escaped = false;
        for &b in value {
            match (b, escaped) {
                (_, true) => escaped = false,
                (b'\\', false) => escaped = true,
                (b'"', false) => return false,
                _ => {}
            }
        }
        !escaped
    }

    proptest! {
        /// A tag line measured in one pass, and a line read as one tag
        /// pair, are exactly the lines that the reading by parts accepts.
        #[test]
        fn a_tag_line_read_in_one_pass_is_one_read_by_parts(
            pieces in proptest::collection::vec(
                prop_oneof![
                    Just("Name"), Just("_1"), Just(" \"v\""), Just("\""), Just("]"),
                    Just("]\n"), Just("\n"), Just(" "), Just("\t"), Just("\r"),
                    Just("\x0c"), Just("\x0b"), Just("\\"), Just("\\\""), Just("["),
                    Just("é"),
                ],
                0..10,
            )
        ) {
            let data = format!("[{}", pieces.concat()).into_bytes();
            let line_end = memchr::memchr(b'\n', &data);
            // The splitter's tag line: after the `]`, only what the byte
            // scan takes for blank.
            let after_bracket = |line: &[u8]| {
                let tail = &line[line.iter().rposition(|&b| b == b']').unwrap_or(0)..];
                tail[1..].iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
            };
            let reference = line_end
                .filter(|&end| tag_line_by_parts(&data[..end]) && after_bracket(&data[..end]))
                .map(|end| end + 1);
            prop_assert_eq!(tag_line_len(&data), reference);
            // A line as the splitter hands it over: its end not included,
            // blanks before it allowed.
            let line = [b" \t".as_slice(), &data[..line_end.unwrap_or(data.len())]].concat();
            prop_assert_eq!(is_tag_line(&line), tag_line_by_parts(&line));
        }
    }

    /// A form feed after a tag pair's `]` is movetext to the byte scan,
    /// so the tag line's fast path must not take the line whole (it did,
    /// and cut the input otherwise than the byte scan).
    #[test]
    fn a_form_feed_after_a_tag_pair_is_movetext_on_both_paths() {
        let input = b"[A \"x\"]\x0c\n[B \"y\"]\n";
        let reference = all_chunks(input, 1 << 16, false);
        assert_eq!(reference.len(), 2);
        assert_eq!(all_chunks(input, 1 << 16, true), reference);
        assert_eq!(tag_line_len(input), None);
        assert!(is_tag_line(&input[..8]));
    }

    #[test]
    fn tag_lines_measured_in_one_pass() {
        let len = |s: &str| tag_line_len(s.as_bytes());
        assert_eq!(len("[Game \"oshi\"]\n1."), Some(14));
        assert_eq!(len("[A_1\t\"x]\\\"\" ]\r\n"), Some(15));
        assert_eq!(len("[A \"x\\\"]\n"), None);
        assert_eq!(len("[ A \"x\"]\n"), None);
        assert_eq!(len("[A \"x\"] ]\n"), None);
        assert_eq!(len("[A \"x\"]"), None);
    }

    fn chunks(input: &str) -> Vec<(String, usize, usize)> {
        ChunkReader::new(input.as_bytes())
            .map(|c| {
                let c = c.unwrap();
                (String::from_utf8(c.bytes).unwrap(), c.offset, c.line)
            })
            .collect()
    }

    #[test]
    fn splits_at_each_tag_section_after_movetext() {
        let input = "[Game \"oshi\"]\n\n1. e3-e5 *\n\n[Game \"oshi\"]\n[Round \"2\"]\n1. e3-e4 *\n";
        let got = chunks(input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, "[Game \"oshi\"]\n\n1. e3-e5 *\n\n");
        assert_eq!(
            (got[1].1, got[1].2),
            (input.find("[Game \"oshi\"]\n[R").unwrap(), 5)
        );
        assert!(got[1].0.starts_with("[Game \"oshi\"]\n[Round"));
    }

    #[test]
    fn tag_value_with_braces_does_not_open_a_comment() {
        let got = chunks("[Event \"a {b\"]\n[Game \"oshi\"]\n1. e3-e5 *\n[Game \"oshi\"]\n*\n");
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn bracket_inside_comment_is_not_a_boundary_but_a_tag_line_is() {
        let got = chunks("[Game \"oshi\"]\n1. e3-e5 {see\n[this] too} *\n[Game \"oshi\"]\n*\n");
        assert_eq!(got.len(), 2, "{got:?}");
        let got = chunks("[Game \"oshi\"]\n1. e3-e5 {open\n[Game \"oshi\"]\n1. e3-e4 *\n");
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[1].2, 3);
        assert!(got[1].0.starts_with("[Game"));
        // A line that closes the comment it began in and opens another is
        // movetext, however much it looks like a tag pair.
        let got = chunks("[Game \"oshi\"]\n{a\n[Event \"b} 1. e3-e5 {c\"]\nd} *\n");
        assert_eq!(got.len(), 1, "{got:?}");
    }

    #[test]
    fn empty_or_blank_input_gives_no_chunk() {
        assert!(chunks("").is_empty());
        assert!(chunks(" \n\r\n").is_empty());
        assert_eq!(chunks("[Game \"oshi\"]\n*\n\n\n").len(), 1);
    }

    #[test]
    fn locate_counts_lines_and_characters() {
        let c = Chunk {
            bytes: "ab\ncé d".as_bytes().to_vec(),
            offset: 100,
            line: 7,
            column: 1,
            truncated: false,
        };
        assert_eq!(c.locate(100), (7, 1));
        assert_eq!(c.locate(103), (8, 1));
        // 'd' comes after "cé " (4 bytes, 3 characters).
        assert_eq!(c.locate(107), (8, 4));
    }

    #[test]
    fn a_locator_reused_forward_and_back_agrees_with_a_fresh_one() {
        let c = Chunk {
            bytes: "ab\ncé d\n\nxyz\n é".as_bytes().to_vec(),
            offset: 50,
            line: 3,
            column: 9,
            truncated: false,
        };
        let mut l = c.locator();
        let n = c.bytes.len();
        // Forward over every offset (and past the end), then back and forth.
        let order = (45..n + 55).chain([60, 52, 66, 50, 49]);
        for at in order {
            assert_eq!(l.at(at), c.locate(at), "offset {at}");
        }
    }

    #[test]
    fn a_huge_record_is_truncated_and_the_next_one_found() {
        let mut input = String::from("[Game \"oshi\"]\n");
        let line = "e3-e4 e7-e6 ".repeat(100) + "\n";
        while input.len() < MAX_RECORD_BYTES + 100_000 {
            input.push_str(&line);
        }
        let second_at = input.len();
        input.push_str("[Game \"oshi\"]\n*\n");
        let mut reader = ChunkReader::new(input.as_bytes());
        let first = reader.next_chunk().unwrap().unwrap();
        assert!(first.truncated);
        assert!(first.bytes.len() <= MAX_RECORD_BYTES + MAX_LINE_KEPT);
        let second = reader.next_chunk().unwrap().unwrap();
        assert!(!second.truncated);
        assert_eq!(second.offset, second_at);
        // Lines are counted past the cap too (runs of movetext lines are
        // taken in one go below it).
        assert_eq!(second.line, input[..second_at].matches('\n').count() + 1);
        assert_eq!(second.bytes, b"[Game \"oshi\"]\n*\n");
        assert!(reader.next_chunk().unwrap().is_none());
    }

    #[test]
    fn a_record_past_the_cap_is_skipped_run_by_run_not_byte_by_byte() {
        // A 40 MB comment on one line: 24 MB past the cap.
        let mut input = b"[Game \"x\"]\n1. a {".to_vec();
        input.resize(input.len() + (40 << 20), b'x');
        input.extend_from_slice(b"} *\n[Game \"x\"]\n*\n");
        let mut split = Splitter::new();
        let mut chunks = Vec::new();
        let mut at = 0;
        while at < input.len() {
            // As a reader's buffer hands it on: 64 KiB at a time.
            let end = (at + (64 << 10)).min(input.len());
            let (used, chunk) = split.feed(&input[at..end]);
            at += used;
            chunks.extend(chunk);
        }
        chunks.extend(split.finish().0);
        assert_eq!(chunks.len(), 2);
        assert!(chunks[0].truncated && chunks[0].bytes.len() <= MAX_RECORD_BYTES + MAX_LINE_KEPT);
        assert_eq!(chunks[1].bytes, b"[Game \"x\"]\n*\n");
        // A few steps at each boundary the buffer makes, not one per byte.
        assert!(
            split.slow_steps < 100_000,
            "{} bytes looked at one by one",
            split.slow_steps
        );
    }
}
