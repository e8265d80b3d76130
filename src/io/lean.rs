//! The lean reading path: a game that is only judged (`validate`,
//! `validate --syntax-only`) read in one pass over its chunk's bytes —
//! first-byte dispatch, tags parsed once, no turn token built, lent or
//! checked for UTF-8 on its own, move numbers checked against the ply as
//! they are read, each move handed to its game's parser and played at
//! once. It judges only what it can judge alone: a chunk of one game that
//! reads and replays without a problem. Anything else (a problem of any
//! kind, a chunk that is not all UTF-8, an escape in a tag value, a
//! second game in the chunk, a record with no tags) makes it
//! give up, and the full reader reads the chunk — so every report, valid
//! or not, is the one the full reader makes (`tests/lean.rs` compares
//! them).

use crate::envelope::record::{masks, BLANK, BRACE, CLASS, MAX_RECORD_BYTES, MAX_TAGS};
use crate::envelope::record::{title, Assessment, Chunk, ResultMark, ResultToken, Span, Tag, Text};
use crate::io::reading::{rules_of, EnvelopeCounts, GameReport, Judged, Judging, Options};
use crate::play::replay::{judge, turn_at, Outcome};
use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered, GAMES};
use gamerec_rules::game::MovetextStyle;
use std::cell::RefCell;

/// Judges the one game of `chunk` as `judging` asks, or `None` where the
/// full reader must read the chunk (see the module's doc).
pub(crate) fn judge_chunk(
    chunk: &Chunk,
    opts: &Options,
    judging: Judging,
) -> Option<(&'static dyn AnyGame, Judged)> {
    if chunk.truncated || opts.lenient.is_some() {
        return None;
    }
    judge_bytes(&chunk.bytes, chunk.offset, opts, judging, false).map(|(_, judged)| judged)
}

/// Judges the game that `data` (the chunk reader's buffered bytes, from
/// input offset `offset`) starts with, in place: its length (where the
/// chunk reader would end its chunk) and its judgment; `None` where the
/// chunk reader must cut the chunk and the full path read it — wherever
/// [`judge_chunk`] would give up, and wherever the game's end is not
/// plainly seen within `data` (see [`in_place_end`]).
pub(crate) fn judge_in_place(
    data: &[u8],
    offset: usize,
    opts: &Options,
    judging: Judging,
) -> Option<(usize, (&'static dyn AnyGame, Judged))> {
    if opts.lenient.is_some() {
        return None;
    }
    judge_bytes(data, offset, opts, judging, true)
}

/// Judges the game at the start of `bytes` (input offset `offset`): the
/// whole of them, or with `in_place` the chunk they start with. Returns
/// the length judged.
fn judge_bytes(
    bytes: &[u8],
    offset: usize,
    opts: &Options,
    judging: Judging,
    in_place: bool,
) -> Option<(usize, (&'static dyn AnyGame, Judged))> {
    let judge = |kept: &mut Kept| judge_kept(bytes, offset, opts, judging, in_place, kept);
    KEPT.with(|kept| match kept.try_borrow_mut() {
        Ok(mut kept) => judge(&mut kept),
        Err(_) => judge(&mut Kept::default()),
    })
}

/// Where a game's tag pairs are, and the tags made of them.
#[derive(Default)]
struct Kept {
    places: Vec<TagAt>,
    tags: Vec<Tag>,
}

thread_local! {
    /// [`Kept`] from game to game, so that judging one allocates nothing.
    static KEPT: RefCell<Kept> = RefCell::default();
}

/// [`judge_bytes`] with the buffers `kept`.
fn judge_kept(
    bytes: &[u8],
    offset: usize,
    opts: &Options,
    judging: Judging,
    in_place: bool,
    kept: &mut Kept,
) -> Option<(usize, (&'static dyn AnyGame, Judged))> {
    let (mut bytes, mut base, mut bom) = (bytes, offset, 0);
    if offset == 0 {
        if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
            bytes = rest;
            base += 3;
            bom = 3;
        }
    }
    let mut scan = Scan {
        text: "",
        src: bytes,
        pos: 0,
        base,
        blank: BLANK,
        end: BLANK | BRACE,
        separators: None,
        trailing: 0,
    };
    scan.skip_blank();
    scan.tags(&mut kept.places)?;
    let places = &kept.places;
    let end = match in_place {
        true => in_place_end(bytes, scan.pos)?,
        false => bytes.len(),
    };
    // Checked once: every tag, comment and turn is then text without a
    // check of its own (a chunk that is not all UTF-8 is the full
    // reader's, which locates the bad byte).
    let text = std::str::from_utf8(&bytes[..end]).ok()?;
    made_tags(places, bytes, text, base, judging, opts, &mut kept.tags)?;
    let tags = &kept.tags[..];
    (scan.src, scan.text) = (&bytes[..end], text);
    // The full reader's choice of rules; a game with none is its to report.
    let rules = rules_of(tags, None, base, opts).ok()?;
    scan.set_style(rules.style());
    scan.skip_blank();
    let counted = match judging {
        Judging::Envelope => count(&mut scan)?,
        Judging::Replay => with_game(
            rules,
            Lean {
                tags,
                scan: &mut scan,
            },
        )?,
    };
    let title = opts.titles.then(|| title(tags, rules.sides())).flatten();
    let judged = judgment(rules, counted, title, places.len());
    Some((bom + end, (rules, judged)))
}

/// The tags a game's judging makes from its tag pairs, into `out`: a
/// title needs every tag; a replay the tags it reads (the rules, the
/// start, the result); counting only the first `Game` tag. `None` where a
/// tag's text is not at a character boundary.
#[inline(always)]
fn made_tags(
    places: &[TagAt],
    bytes: &[u8],
    text: &str,
    base: usize,
    judging: Judging,
    opts: &Options,
    out: &mut Vec<Tag>,
) -> Option<()> {
    out.clear();
    let name = |p: &TagAt| &bytes[p.name.0..p.name.1];
    if judging == Judging::Replay || opts.titles {
        for p in places {
            if opts.titles || read_by_replay(name(p)) {
                out.push(p.tag(text, base)?);
            }
        }
    } else if let Some(p) = places.iter().find(|p| name(p) == b"Game") {
        out.push(p.tag(text, base)?);
    }
    Some(())
}

/// Whether a replay reads the tag called `name`: the one naming the rules,
/// the start and every game's settings ([`Rules::start`]), the declared
/// result and how it was reached ([`judge`]). The others are not made.
///
/// [`Rules::start`]: gamerec_rules::game::Rules::start
fn read_by_replay(name: &[u8]) -> bool {
    matches!(name, b"Game" | b"Result" | b"Termination" | b"Position")
        || (GAMES.iter())
            .flat_map(|g| g.settings())
            .any(|s| s.as_bytes() == name)
}

/// The report and counts of a game read on the lean path: `tags` of them
/// in its tag section.
fn judgment(
    rules: &'static dyn AnyGame,
    counted: Tally,
    title: Option<String>,
    tags: usize,
) -> Judged {
    let mut report = GameReport {
        index: None,
        game: Some(rules.name()),
        title,
        plies: 0,
        outcome: None,
        error: None,
        repairs: Vec::new(),
    };
    let mut counts = counted.1;
    match counted.0 {
        Counted::Played(plies, outcome) => {
            report.plies = plies;
            report.outcome = Some(outcome);
        }
        // Only counted: the tags are among the counts.
        Counted::Read => counts.tags = tags,
    }
    Judged { report, counts }
}

/// Where the chunk reader ends the chunk that `bytes` start with, when
/// that is plainly seen: the start of the line of the first `[` after the
/// tag section (from `movetext`, where the tag section's blanks end), where only the chunk reader's blanks
/// (space, tab, CR) stand before it on its line. The chunk reader then
/// cuts there and nowhere before: no `[` in the movetext means no tag line
/// in it and none inside a comment, and before the movetext there are
/// only tag pairs and blanks — but no form feed, which the chunk reader
/// reads as movetext. `None` otherwise (a `[` in a comment, a game that
/// runs past `bytes`), and the chunk reader cuts the chunk.
fn in_place_end(bytes: &[u8], movetext: usize) -> Option<usize> {
    let cut = movetext + memchr::memchr(b'[', &bytes[movetext..])?;
    let line = movetext + memchr::memrchr(b'\n', &bytes[movetext..cut])? + 1;
    let plain = bytes[line..cut]
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r'));
    let form_feed = memchr::memchr(0x0C, &bytes[..movetext]).is_some();
    (plain && !form_feed && line + 3 < MAX_RECORD_BYTES).then_some(line)
}

/// What the movetext gave: the replay's plies and outcome (or nothing,
/// when only counted), and the envelope's counts.
struct Tally(Counted, EnvelopeCounts);

enum Counted {
    Read,
    Played(usize, Outcome),
}

/// The movetext read and counted, nothing replayed; `None` at any problem.
fn count(scan: &mut Scan<'_>) -> Option<Tally> {
    let mut counts = EnvelopeCounts::default();
    let mut pending = false;
    loop {
        match scan.token()? {
            Token::End => break,
            Token::Comment if pending => return None,
            Token::Comment => counts.comments += 1,
            Token::Nag => {
                if pending || counts.turns == 0 {
                    return None;
                }
                counts.glyphs += 1;
            }
            Token::Number(_) if pending => return None,
            Token::Number(_) => pending = true,
            Token::Result(..) => {
                if pending {
                    return None;
                }
                counts.results = 1;
                scan.after_result()?;
                counts.comments += scan.trailing;
                return (counts.turns > 0).then_some(Tally(Counted::Read, counts));
            }
            Token::Turn(Some(_), ..) if pending => return None,
            Token::Turn(_, from, end) => {
                pending = false;
                counts.turns += 1;
                counts.glyphs += usize::from(scan.assessed(from, end));
            }
        }
    }
    (!pending && counts.turns > 0).then_some(Tally(Counted::Read, counts))
}

/// The replay on the lean path, with the game's own types.
struct Lean<'s, 'a> {
    tags: &'s [Tag],
    scan: &'s mut Scan<'a>,
}

impl GameTask for Lean<'_, '_> {
    type Output = Option<Tally>;

    fn run<G: Playable>(self, _: &Registered<G>) -> Option<Tally> {
        let mut pos = G::start(self.tags).ok()?;
        let first_mover = G::first_mover(&pos);
        let starts_second = G::side_to_move(&pos) != first_mover;
        let mut ended = G::ending(&pos).map(|e| (e, 0));
        let mut pending: Option<(u64, bool)> = None;
        let mut plies = 0;
        let mut result = None;
        let scan = self.scan;
        loop {
            match scan.token()? {
                Token::End => break,
                Token::Comment => {
                    if pending.is_some() {
                        return None;
                    }
                }
                Token::Nag => {
                    if pending.is_some() || plies == 0 {
                        return None;
                    }
                }
                Token::Number(_) if pending.is_some() => return None,
                Token::Number(n) => pending = Some(n),
                Token::Result(r, span) => {
                    if pending.is_some() {
                        return None;
                    }
                    result = Some(ResultMark { result: r, span });
                    scan.after_result()?;
                    break;
                }
                Token::Turn(Some(_), ..) if pending.is_some() => return None,
                Token::Turn(written, from, end) => {
                    let (number, second, _) = turn_at(plies, first_mover, starts_second);
                    let written = written.or(pending.take());
                    if written.is_some_and(|n| n != (number, second)) || ended.is_some() {
                        return None;
                    }
                    let text = scan.turn(from, end).0;
                    let ending = match G::play_written(&mut pos, text) {
                        Some(ending) => ending,
                        None => {
                            let mv = G::parse_move(&pos, text).ok()?;
                            G::play_ending(&mut pos, &mv).ok()?
                        }
                    };
                    plies += 1;
                    if let Some(e) = ending {
                        ended = Some((e, plies));
                    }
                }
            }
        }
        if pending.is_some() || plies == 0 {
            return None;
        }
        let outcome = judge::<G>(self.tags, result, ended, plies).ok()?;
        Some(Tally(
            Counted::Played(plies, outcome),
            EnvelopeCounts::default(),
        ))
    }
}

/// Where a tag pair is in the chunk: all of it, its name, its value.
struct TagAt {
    start: usize,
    end: usize,
    name: (usize, usize),
    value: (usize, usize),
}

impl TagAt {
    /// The tag pair, from the chunk's text (which starts at input offset
    /// `base`).
    #[inline(always)]
    fn tag(&self, text: &str, base: usize) -> Option<Tag> {
        let (name, value) = (self.name, self.value);
        Some(Tag {
            name: Text::new(text.get(name.0..name.1)?),
            value: Text::new(text.get(value.0..value.1)?),
            span: Span::new(base + self.start, base + self.end),
            value_span: Span::new(base + value.0, base + value.1),
        })
    }
}

/// One token of the movetext, as the lean path needs it.
enum Token {
    End,
    Comment,
    Nag,
    /// A move number standing alone: the number, and whether it has three
    /// dots.
    Number((u64, bool)),
    Result(ResultToken, Span),
    /// A turn: its move number when written on it (`12.e3-e5`), and where
    /// its text (number taken off, assessment not) starts and ends: only
    /// a replay needs it as text ([`Scan::turn`]).
    Turn(Option<(u64, bool)>, usize, usize),
}

/// The chunk's bytes being read.
struct Scan<'a> {
    /// The chunk (after a byte-order mark), all UTF-8, and its bytes
    /// (which, until the chunk's end is known, may run on past it).
    text: &'a str,
    src: &'a [u8],
    pos: usize,
    /// The offset of `src[0]` in the input.
    base: usize,
    /// The classes that are blank between tokens, and that end a token.
    blank: u8,
    end: u8,
    /// The style's separators `;` and `,` (each eight times over, or a
    /// brace where the style has none), when it has either.
    separators: Option<(u64, u64)>,
    /// The comments read after the result token.
    trailing: usize,
}

impl<'a> Scan<'a> {
    fn set_style(&mut self, style: MovetextStyle) {
        (self.blank, self.end) = masks(style);
        let each = |on: bool, b: u8| ONES * u64::from(if on { b } else { b'{' });
        self.separators = (style.semicolons || style.commas)
            .then(|| (each(style.semicolons, b';'), each(style.commas, b',')));
    }

    #[inline]
    fn skip_blank(&mut self) {
        let (src, mask) = (self.src, self.blank);
        let mut p = self.pos;
        while p < src.len() && CLASS[usize::from(src[p])] & mask != 0 {
            p += 1;
        }
        self.pos = p;
    }

    /// The tag section's pairs, where they are: `None` where there is
    /// none, or at anything the full reader would read otherwise than
    /// plainly (an escape, a malformed pair, too many pairs).
    fn tags(&mut self, tags: &mut Vec<TagAt>) -> Option<()> {
        tags.clear();
        while self.src.get(self.pos) == Some(&b'[') {
            if tags.len() == MAX_TAGS {
                return None;
            }
            tags.push(self.tag()?);
            self.skip_blank();
        }
        (!tags.is_empty()).then_some(())
    }

    /// `[Name "value"]` at `pos`.
    fn tag(&mut self) -> Option<TagAt> {
        let start = self.pos;
        let src = self.src;
        let spaces = |mut p: usize| {
            while matches!(src.get(p), Some(b' ' | b'\t')) {
                p += 1;
            }
            p
        };
        let name_at = spaces(start + 1);
        let mut p = name_at;
        while src.get(p).is_some_and(|&b| NAME[usize::from(b)]) {
            p += 1;
        }
        let name_end = p;
        p = spaces(p);
        if name_end == name_at || src.get(p) != Some(&b'"') {
            return None;
        }
        let value_at = p + 1;
        // Values are short: a plain walk beats a vector search's set-up.
        // It stops at the closing quote, or at an escape, a line's end or
        // a CR, which the full reader reads.
        let len = src[value_at..]
            .iter()
            .position(|&b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))?;
        let value_end = value_at + len;
        if src[value_end] != b'"' {
            return None;
        }
        p = spaces(value_end + 1);
        if src.get(p) != Some(&b']') {
            return None;
        }
        self.pos = p + 1;
        Some(TagAt {
            start,
            end: self.pos,
            name: (name_at, name_end),
            value: (value_at, value_end),
        })
    }

    /// The next token; `None` at anything the full reader would report (or
    /// read otherwise than plainly). Moves (a letter or a sign first) go
    /// straight to their end; a move number's digits and dots are read
    /// once, its value with them.
    #[inline(always)]
    fn token(&mut self) -> Option<Token> {
        let (src, blank) = (self.src, self.blank);
        let mut p = self.pos;
        while p < src.len() && CLASS[usize::from(src[p])] & blank != 0 {
            p += 1;
        }
        self.pos = p;
        let Some(&first) = src.get(p) else {
            return Some(Token::End);
        };
        match first {
            b'{' => self.comment().then_some(Token::Comment),
            b'[' | b'}' | 0x80.. => None,
            b'0'..=b'9' => self.numbered(p),
            _ => {
                // The first byte is the token's whatever it is.
                let end = self.end_from(p + 1);
                self.pos = end;
                match first {
                    b'$' => nag(&src[p..end]).then_some(Token::Nag),
                    b'*' => Some(self.result_or_turn(p, end)),
                    _ => Some(Token::Turn(None, p, end)),
                }
            }
        }
    }

    /// The first byte at or after `p` that ends a token, or the chunk's
    /// end: eight bytes at a time while there are eight.
    #[inline(always)]
    fn end_from(&self, mut p: usize) -> usize {
        let (src, end) = (self.src, self.end);
        while let Some(word) = src.get(p..p + 8) {
            let mut bytes = [0; 8];
            bytes.copy_from_slice(word);
            let hits = self.may_end(u64::from_le_bytes(bytes));
            if hits == 0 {
                p += 8;
                continue;
            }
            p += (hits.trailing_zeros() / 8) as usize;
            if CLASS[usize::from(src[p])] & end != 0 {
                return p;
            }
            p += 1;
        }
        while p < src.len() && CLASS[usize::from(src[p])] & end == 0 {
            p += 1;
        }
        p
    }

    /// The bytes of `w` (eight, the first lowest) that may end a token,
    /// as their high bits. The lowest flagged byte is an ASCII byte below
    /// `!`, a brace (or `y` or DEL, which share its bits), or one of the
    /// style's separators; no byte below it ends a token. Those above it
    /// may be flagged wrongly (a borrow carried up), so only it is
    /// looked at, and checked against [`CLASS`].
    #[inline(always)]
    fn may_end(&self, w: u64) -> u64 {
        let low = w.wrapping_sub(ONES * 0x21) & !w & HIGHS;
        let brace = zero_bytes((w & (ONES * 0xF9)) ^ (ONES * 0x79));
        match self.separators {
            None => low | brace,
            Some((semi, comma)) => low | brace | zero_bytes(w ^ semi) | zero_bytes(w ^ comma),
        }
    }

    /// A token starting with a digit at `at`: a result, a move number
    /// alone, a turn with its number, or a turn.
    #[inline(always)]
    fn numbered(&mut self, at: usize) -> Option<Token> {
        let src = self.src;
        let (mut q, mut value) = (at, 0u64);
        while q < src.len() && src[q].is_ascii_digit() {
            value = value
                .wrapping_mul(10)
                .wrapping_add(u64::from(src[q] - b'0'));
            q += 1;
        }
        let digits = q - at;
        while q < src.len() && src[q] == b'.' {
            q += 1;
        }
        let dots = q - at - digits;
        // Digits and dots end no token: the end is looked for after them
        // (a move number alone usually ends right there).
        let end = match src.get(q) {
            Some(&b) if CLASS[usize::from(b)] & self.end != 0 => q,
            _ => self.end_from(q),
        };
        self.pos = end;
        if dots == 0 {
            return Some(self.result_or_turn(at, end));
        }
        if digits > 18 || (dots != 1 && dots != 3) {
            return None;
        }
        let number = (value, dots == 3);
        Some(match q == end {
            true => Token::Number(number),
            false => Token::Turn(Some(number), q, end),
        })
    }

    /// The token from `at` to `end`: a result, or else a turn.
    #[inline(always)]
    fn result_or_turn(&self, at: usize, end: usize) -> Token {
        match ResultToken::from_bytes(&self.src[at..end]) {
            Some(r) => Token::Result(r, Span::new(self.base + at, self.base + end)),
            None => Token::Turn(None, at, end),
        }
    }

    /// A turn's text from `from` to `end` (never empty), its assessment
    /// taken off, and whether it had one. A token starts after an ASCII
    /// byte and ends at one, so the slice is always text (an empty one,
    /// which no game reads as a move, stands for a slice that is not).
    #[inline]
    fn turn(&self, from: usize, end: usize) -> (&'a str, bool) {
        let turn = self.text.get(from..end).unwrap_or_default();
        match self.src[end - 1] {
            b'!' | b'?' => {
                let (kept, a) = Assessment::split(turn);
                (kept, a.is_some())
            }
            _ => (turn, false),
        }
    }

    /// Whether the turn from `from` to `end` ends with an assessment.
    #[inline(always)]
    fn assessed(&self, from: usize, end: usize) -> bool {
        matches!(self.src[end - 1], b'!' | b'?') && self.turn(from, end).1
    }

    /// A `{comment}` at `pos`: `false` where it is unclosed.
    fn comment(&mut self) -> bool {
        let from = self.pos + 1;
        let Some(len) = memchr::memchr(b'}', &self.src[from..]) else {
            return false;
        };
        self.pos = from + len + 1;
        true
    }

    /// After the result token: only comments, then the chunk's end
    /// (anything else is a further game, for the full reader).
    fn after_result(&mut self) -> Option<()> {
        loop {
            self.skip_blank();
            match self.src.get(self.pos) {
                None => return Some(()),
                Some(b'{') if self.comment() => self.trailing += 1,
                Some(_) => return None,
            }
        }
    }
}

/// The bytes of a tag's name: ASCII letters, digits and `_`.
static NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    t
};

/// A byte eight times over, and their high bits.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = ONES * 0x80;

/// The zero bytes of `w` as their high bits: the lowest flagged byte is
/// zero, and none below it is (those above may be flagged wrongly).
#[inline(always)]
fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(ONES) & !w & HIGHS
}

/// Whether a token is a numeric annotation glyph `$N` (0 to 255).
fn nag(token: &[u8]) -> bool {
    let digits = &token[1..];
    !digits.is_empty()
        && digits.len() <= 3
        && digits.iter().all(u8::is_ascii_digit)
        && digits
            .iter()
            .fold(0u16, |n, d| n * 10 + u16::from(d - b'0'))
            <= 255
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time search for a token's end stops where a walk over
    /// the byte classes one byte at a time stops: under each movetext
    /// style, from every start, over bytes of every class — among them the
    /// bytes that share a brace's bits (`y`, DEL), controls that are not
    /// blank, separators and bytes past ASCII.
    #[test]
    fn token_ends_found_a_word_at_a_time_are_those_found_byte_by_byte() {
        let alphabet = b" \t\n\r\x0c\x0b\x00{}y\x7f;,a1-.\x80\xc3xy";
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut src = Vec::new();
        for _ in 0..4000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Runs of token bytes, so that ends fall at every distance.
            let pick = (seed % 64) as usize;
            src.push(match pick < alphabet.len() {
                true => alphabet[pick],
                false => b'a' + (pick % 3) as u8,
            });
        }
        for (semicolons, commas) in [(false, false), (true, false), (false, true), (true, true)] {
            let mut scan = Scan {
                text: "",
                src: &src,
                pos: 0,
                base: 0,
                blank: BLANK,
                end: BLANK | BRACE,
                separators: None,
                trailing: 0,
            };
            scan.set_style(MovetextStyle { semicolons, commas });
            for start in 0..=src.len() {
                let mut p = start;
                while p < src.len() && CLASS[usize::from(src[p])] & scan.end == 0 {
                    p += 1;
                }
                assert_eq!(
                    scan.end_from(start),
                    p,
                    "from {start}, {semicolons} {commas}"
                );
            }
        }
    }
}
