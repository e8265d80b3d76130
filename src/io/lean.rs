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

use crate::envelope::record::{masks, BLANK, BRACE, CLASS, MAX_TAGS};
use crate::envelope::record::{title, Assessment, Chunk, ResultMark, ResultToken, Span, Tag, Text};
use crate::io::reading::{rules_of, EnvelopeCounts, GameReport, Judged, Judging, Options};
use crate::play::replay::{judge, turn_at, Outcome};
use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered};
use gamerec_rules::game::MovetextStyle;

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
    let mut bytes: &[u8] = &chunk.bytes;
    let mut base = chunk.offset;
    if chunk.offset == 0 {
        if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
            bytes = rest;
            base += 3;
        }
    }
    // Checked once: every tag, comment and turn is then text without a
    // check of its own (a chunk that is not all UTF-8 is the full
    // reader's, which locates the bad byte).
    let text = std::str::from_utf8(bytes).ok()?;
    let mut scan = Scan {
        text,
        src: bytes,
        pos: 0,
        base,
        blank: BLANK,
        end: BLANK | BRACE,
        trailing: 0,
    };
    scan.skip_blank();
    let tags = scan.tags()?;
    // The full reader's choice of rules; a game with none is its to report.
    let rules = rules_of(&tags, None, base, opts).ok()?;
    scan.set_style(rules.style());
    scan.skip_blank();
    let counted = match judging {
        Judging::Envelope => count(&mut scan)?,
        Judging::Replay => with_game(
            rules,
            Lean {
                tags: &tags,
                scan: &mut scan,
            },
        )?,
    };
    let mut report = GameReport {
        index: None,
        game: Some(rules.name()),
        title: None,
        plies: 0,
        outcome: None,
        error: None,
        repairs: Vec::new(),
    };
    if let Counted::Played(plies, outcome) = counted.0 {
        report.plies = plies;
        report.outcome = Some(outcome);
    }
    if opts.titles {
        report.title = title(&tags, rules.sides());
    }
    let mut counts = counted.1;
    if judging == Judging::Envelope {
        counts.tags = tags.len();
    }
    Some((rules, Judged { report, counts }))
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
            Token::Turn(_, _, assessed) => {
                pending = false;
                counts.turns += 1;
                counts.glyphs += usize::from(assessed);
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
                Token::Turn(written, text, _) => {
                    let (number, second, _) = turn_at(plies, first_mover, starts_second);
                    let written = written.or(pending.take());
                    if written.is_some_and(|n| n != (number, second)) || ended.is_some() {
                        return None;
                    }
                    let mv = G::parse_move(&pos, text).ok()?;
                    G::play(&mut pos, &mv).ok()?;
                    plies += 1;
                    if let Some(e) = G::ending(&pos) {
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

/// One token of the movetext, as the lean path needs it.
enum Token<'a> {
    End,
    Comment,
    Nag,
    /// A move number standing alone: the number, and whether it has three
    /// dots.
    Number((u64, bool)),
    Result(ResultToken, Span),
    /// A turn: its move number when written on it (`12.e3-e5`), its text
    /// (number and assessment taken off), and whether it had an
    /// assessment.
    Turn(Option<(u64, bool)>, &'a str, bool),
}

/// The chunk's bytes being read.
struct Scan<'a> {
    /// The chunk (after a byte-order mark), all UTF-8, and its bytes.
    text: &'a str,
    src: &'a [u8],
    pos: usize,
    /// The offset of `src[0]` in the input.
    base: usize,
    /// The classes that are blank between tokens, and that end a token.
    blank: u8,
    end: u8,
    /// The comments read after the result token.
    trailing: usize,
}

impl<'a> Scan<'a> {
    fn set_style(&mut self, style: MovetextStyle) {
        (self.blank, self.end) = masks(style);
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

    /// The tag section: `None` where there is none, or at anything the
    /// full reader would read otherwise than plainly (an escape, a byte
    /// that is not UTF-8, a malformed pair, too many pairs).
    fn tags(&mut self) -> Option<Vec<Tag>> {
        let mut tags = Vec::with_capacity(8);
        while self.src.get(self.pos) == Some(&b'[') {
            if tags.len() == MAX_TAGS {
                return None;
            }
            tags.push(self.tag()?);
            self.skip_blank();
        }
        (!tags.is_empty()).then_some(tags)
    }

    /// `[Name "value"]` at `pos`.
    fn tag(&mut self) -> Option<Tag> {
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
        while src
            .get(p)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
        {
            p += 1;
        }
        let name_end = p;
        p = spaces(p);
        if name_end == name_at || src.get(p) != Some(&b'"') {
            return None;
        }
        let value_at = p + 1;
        let len = memchr::memchr3(b'"', b'\\', b'\n', &src[value_at..])?;
        let value_end = value_at + len;
        if src[value_end] != b'"' {
            return None;
        }
        let value = &src[value_at..value_end];
        if memchr::memchr(b'\r', value).is_some() {
            return None;
        }
        let value = self.text.get(value_at..value_end)?;
        p = spaces(value_end + 1);
        if src.get(p) != Some(&b']') {
            return None;
        }
        self.pos = p + 1;
        let name = self.text.get(name_at..name_end)?;
        Some(Tag {
            name: Text::new(name),
            value: Text::new(value),
            span: Span::new(self.base + start, self.base + self.pos),
            value_span: Span::new(self.base + value_at, self.base + value_end),
        })
    }

    /// The next token; `None` at anything the full reader would report (or
    /// read otherwise than plainly). Moves (a letter or a sign first) go
    /// straight to their end; a move number's digits and dots are read
    /// once, its value with them.
    #[inline]
    fn token(&mut self) -> Option<Token<'a>> {
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
            b'$' => {
                let end = self.end_of(p);
                nag(&src[p..end]).then_some(Token::Nag)
            }
            b'*' => {
                let end = self.end_of(p);
                match ResultToken::from_bytes(&src[p..end]) {
                    Some(r) => Some(Token::Result(r, Span::new(self.base + p, self.base + end))),
                    None => self.turn(None, p, end),
                }
            }
            _ => {
                let end = self.end_of(p);
                self.turn(None, p, end)
            }
        }
    }

    /// Where the token starting at `at` ends (its first byte is taken
    /// whatever it is); the scan moves there.
    #[inline(always)]
    fn end_of(&mut self, at: usize) -> usize {
        let (src, end) = (self.src, self.end);
        let mut p = at + 1;
        while p < src.len() && CLASS[usize::from(src[p])] & end == 0 {
            p += 1;
        }
        self.pos = p;
        p
    }

    /// A token starting with a digit at `at`: a result, a move number
    /// alone, a turn with its number, or a turn.
    #[inline]
    fn numbered(&mut self, at: usize) -> Option<Token<'a>> {
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
        let end = self.end_of(at);
        if dots == 0 {
            return match ResultToken::from_bytes(&src[at..end]) {
                Some(r) => Some(Token::Result(r, Span::new(self.base + at, self.base + end))),
                None => self.turn(None, at, end),
            };
        }
        if digits > 18 || (dots != 1 && dots != 3) {
            return None;
        }
        let number = Some((value, dots == 3));
        match q == end {
            true => number.map(Token::Number),
            false => self.turn(number, q, end),
        }
    }

    /// The turn from `from` to `end` (with its move number, when written
    /// on it), its assessment taken off.
    #[inline(always)]
    fn turn(&self, number: Option<(u64, bool)>, from: usize, end: usize) -> Option<Token<'a>> {
        let turn = self.text.get(from..end)?;
        let (kept, assessment) = match self.src[end - 1] {
            b'!' | b'?' => {
                let (kept, a) = Assessment::split(turn);
                (kept, a.is_some())
            }
            _ => (turn, false),
        };
        Some(Token::Turn(number, kept, assessment))
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
