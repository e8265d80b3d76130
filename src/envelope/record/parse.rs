//! The envelope parser (nom over raw bytes, exact spans). It reads tag pairs,
//! comments, move numbers, move tokens and result tokens; it never looks
//! inside a move token.

use super::{
    Assessment, Chunk, Comment, Glyphs, MoveNumber, MovetextStyle, Parsed, Record, ResultMark,
    ResultToken, Span, Tag, Text, Turn,
};
use crate::base::problem::{Code, Problem};
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, space0};
use nom::error::{ContextError, ErrorKind, ParseError};
use nom::{IResult, Parser};
use std::borrow::Cow;

type In<'a> = &'a [u8];

/// A nom error that remembers where it failed and what was expected there.
#[derive(Debug)]
struct Expected<'a> {
    at: In<'a>,
    what: &'static str,
}

impl<'a> ParseError<In<'a>> for Expected<'a> {
    fn from_error_kind(input: In<'a>, _: ErrorKind) -> Self {
        Expected {
            at: input,
            what: "something else",
        }
    }
    fn append(_: In<'a>, _: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<In<'a>> for Expected<'a> {
    fn add_context(_: In<'a>, what: &'static str, other: Self) -> Self {
        Expected { at: other.at, what }
    }
}

fn context<'a, O>(
    what: &'static str,
    mut p: impl Parser<In<'a>, Output = O, Error = Expected<'a>>,
) -> impl FnMut(In<'a>) -> IResult<In<'a>, O, Expected<'a>> {
    move |i| {
        p.parse(i)
            .map_err(|e| e.map(|inner| Expected::add_context(i, what, inner)))
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Byte classes for the movetext scan: ASCII white space, the braces,
/// `;` and `,` (blank only where a game's style says so) — the lean path's
/// too (`io::lean`).
pub(crate) const BLANK: u8 = 1;
pub(crate) const BRACE: u8 = 2;
const SEMI: u8 = 4;
const COMMA: u8 = 8;

pub(crate) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c.is_ascii_whitespace() {
            BLANK
        } else if c == b'{' || c == b'}' {
            BRACE
        } else if c == b';' {
            SEMI
        } else if c == b',' {
            COMMA
        } else {
            0
        };
        b += 1;
    }
    t
};

/// The classes that are blank between tokens, and those that end a token,
/// under a game's movetext style (`;` and `,` among them where it says).
pub(crate) fn masks(style: MovetextStyle) -> (u8, u8) {
    let semi = if style.semicolons { SEMI } else { 0 };
    let comma = if style.commas { COMMA } else { 0 };
    (BLANK | semi | comma, BLANK | BRACE | semi | comma)
}

fn is_tag_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `[Name "value"]`, returning the name and the raw (still escaped) value.
fn tag_pair(i: In<'_>) -> IResult<In<'_>, (In<'_>, In<'_>), Expected<'_>> {
    let (i, _) = char('[').parse(i)?;
    let (i, _) = space0.parse(i)?;
    let (i, name) = context(
        "a tag name (letters, digits or `_`)",
        take_while1(is_tag_name_byte),
    )(i)?;
    let (i, _) = space0.parse(i)?;
    let (i, _) = context("`\"` opening the tag value", char('"'))(i)?;
    let (i, value) = tag_value(i)?;
    let (i, _) = context("`\"` closing the tag value", char('"'))(i)?;
    let (i, _) = space0.parse(i)?;
    let (i, _) = context("`]` closing the tag pair", char(']'))(i)?;
    Ok((i, (name, value)))
}

/// The raw bytes of a tag value, up to its closing quote or the line end.
/// `\"` and `\\` are the only escapes.
fn tag_value(i: In<'_>) -> IResult<In<'_>, In<'_>, Expected<'_>> {
    let mut k = 0;
    while let Some(&b) = i.get(k) {
        match b {
            b'"' | b'\n' | b'\r' => break,
            b'\\' => match i.get(k + 1) {
                Some(b'"' | b'\\') => k += 2,
                _ => {
                    return Err(nom::Err::Error(Expected {
                        at: &i[k..],
                        what: "`\\\"` or `\\\\` (the only escapes in a tag value)",
                    }))
                }
            },
            _ => k += 1,
        }
    }
    Ok((&i[k..], &i[..k]))
}

/// `{ ... }`, returning the text between the braces.
fn comment(i: In<'_>) -> IResult<In<'_>, In<'_>, Expected<'_>> {
    let (i, _) = char('{').parse(i)?;
    let (i, text) = take_while(|b| b != b'}').parse(i)?;
    let (i, _) = context("`}` closing the comment", char('}'))(i)?;
    Ok((i, text))
}

/// The digits and dots of a move number at the start of a token: `12.` or
/// `12...`; returns the number, the dot count and the rest of the token.
fn move_number(token: In<'_>) -> IResult<In<'_>, (In<'_>, usize), Expected<'_>> {
    let (i, digits) = take_while1(|b: u8| b.is_ascii_digit()).parse(token)?;
    let (i, dots) = take_while1(|b| b == b'.').parse(i)?;
    Ok((i, (digits, dots.len())))
}

fn utf8<'a>(bytes: In<'a>, start: usize, what: &str) -> Result<&'a str, Problem> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = start + e.valid_up_to();
        Problem {
            code: Code::InvalidUtf8,
            message: format!(
                "{what} holds a byte that is not UTF-8 text (a file in Latin-1 or \
                 Windows-1252 reads with --encoding latin-1)"
            ),
            span: Span::new(at, at + e.error_len().unwrap_or(1)),
            token: None,
            ..Default::default()
        }
    })
}

struct Reader<'a> {
    src: In<'a>,
    /// `src` as text, when all of it is UTF-8 (checked once, so tokens
    /// need no check of their own).
    text: Option<&'a str>,
    base: usize,
    pos: usize,
    /// The classes that are blank between tokens, and that end a token
    /// (`;` among them where it separates tokens: set per game from its
    /// tags).
    blank_mask: u8,
    end_mask: u8,
    /// The first byte that is not UTF-8 in the game being read: it is
    /// reported, and read as U+FFFD so the rest of the game is kept.
    bad_byte: Option<Problem>,
}

impl<'a> Reader<'a> {
    /// A sub-slice of `src` as text (`start`: its absolute offset, for the
    /// error).
    #[inline]
    fn utf8(&mut self, bytes: In<'a>, start: usize, what: &str) -> Cow<'a, str> {
        let rel = bytes.as_ptr() as usize - self.src.as_ptr() as usize;
        if let Some(t) = self.text.and_then(|t| t.get(rel..rel + bytes.len())) {
            return Cow::Borrowed(t);
        }
        self.utf8_checked(bytes, start, what)
    }

    /// A turn's text, written into `out`: borrowed from the chunk, or
    /// where the chunk is not all UTF-8 checked (a bad byte is reported,
    /// and read as U+FFFD).
    #[inline(always)]
    fn turn_text(&mut self, bytes: In<'a>, start: usize, out: &mut Cow<'a, str>) {
        let rel = bytes.as_ptr() as usize - self.src.as_ptr() as usize;
        match self.text.and_then(|t| t.get(rel..rel + bytes.len())) {
            Some(t) => *out = Cow::Borrowed(t),
            None => *out = self.utf8_checked(bytes, start, "this token"),
        }
    }

    /// [`Reader::utf8`] where the chunk is not all UTF-8.
    #[cold]
    fn utf8_checked(&mut self, bytes: In<'a>, start: usize, what: &str) -> Cow<'a, str> {
        match utf8(bytes, start, what) {
            Ok(t) => Cow::Borrowed(t),
            Err(p) => {
                self.bad_byte.get_or_insert(p);
                String::from_utf8_lossy(bytes)
            }
        }
    }

    fn rest(&self) -> In<'a> {
        &self.src[self.pos..]
    }

    /// Absolute offset of a sub-slice of `src`.
    fn offset_of(&self, s: In<'a>) -> usize {
        self.base + (s.as_ptr() as usize - self.src.as_ptr() as usize)
    }

    fn here(&self) -> usize {
        self.base + self.pos
    }

    fn advance_to(&mut self, rest: In<'a>) {
        self.pos = self.src.len() - rest.len();
    }

    /// Says whether `;` and `,` separate tokens (and are blank between
    /// them).
    fn set_separators(&mut self, style: MovetextStyle) {
        (self.blank_mask, self.end_mask) = masks(style);
    }

    #[inline]
    fn skip_blank(&mut self) {
        let (src, mask) = (self.src, self.blank_mask);
        let mut p = self.pos;
        while p < src.len() && CLASS[usize::from(src[p])] & mask != 0 {
            p += 1;
        }
        self.pos = p;
    }

    /// Where the token starting at `from` ends (its first byte is taken
    /// whatever it is).
    #[inline]
    fn token_end(&self, from: usize) -> usize {
        let (src, mask) = (self.src, self.end_mask);
        let mut p = from + 1;
        while p < src.len() && CLASS[usize::from(src[p])] & mask == 0 {
            p += 1;
        }
        p.min(src.len())
    }

    fn ends_token(&self, b: u8) -> bool {
        CLASS[usize::from(b)] & self.end_mask != 0
    }

    fn peek(&self) -> Option<u8> {
        self.rest().first().copied()
    }

    /// The span of the token starting here (up to white space or a brace),
    /// at least one byte where there is input left.
    fn token_span_at(&self, at: usize) -> Span {
        let rel = at - self.base;
        let len = self.src[rel..]
            .iter()
            .position(|&b| self.ends_token(b))
            .unwrap_or(self.src.len() - rel);
        Span::new(at, at + len.max(1).min(self.src.len() - rel))
    }

    /// The text of a problem's token (its first bytes: see
    /// [`crate::base::problem::capped`]).
    fn token_text_boxed(&self, span: Span) -> Option<Box<str>> {
        let bytes = &self.src[span.start - self.base..span.end - self.base];
        let bytes = &bytes[..bytes.len().min(crate::base::problem::TOKEN_CAP + 4)];
        (!bytes.is_empty()).then(|| crate::base::problem::capped(&String::from_utf8_lossy(bytes)))
    }

    fn error_at(&self, code: Code, message: String, at: usize) -> Problem {
        let span = self.token_span_at(at);
        Problem {
            code,
            message,
            span,
            token: self.token_text_boxed(span),
            ..Default::default()
        }
    }

    fn tag(&mut self) -> Result<Tag, Problem> {
        let start = self.here();
        match tag_pair(self.rest()) {
            Ok((rest, (name, raw))) => {
                let value_start = self.offset_of(raw);
                let raw_text = self.utf8(raw, value_start, "the tag value");
                // Letters, digits and `_` only (see `tag_pair`).
                let name = Text::new(std::str::from_utf8(name).unwrap_or_default());
                let value = match memchr::memchr(b'\\', raw) {
                    None => Text::new(&raw_text),
                    Some(_) => Text::from(unescape(&raw_text)),
                };
                self.advance_to(rest);
                Ok(Tag {
                    name,
                    value,
                    span: Span::new(start, self.here()),
                    value_span: Span::new(value_start, value_start + raw.len()),
                })
            }
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                let at = self.offset_of(e.at);
                let unterminated = matches!(e.at.first(), None | Some(b'\n' | b'\r'));
                if unterminated {
                    Err(Problem {
                        code: Code::UnterminatedTag,
                        message: format!(
                            "unterminated tag pair: the line ends where {} was expected",
                            e.what
                        ),
                        span: Span::new(start, at.max(start + 1)),
                        token: self.token_text_boxed(Span::new(start, at)),
                        ..Default::default()
                    })
                } else {
                    Err(self.error_at(
                        Code::MalformedTag,
                        format!("malformed tag pair: expected {}", e.what),
                        at,
                    ))
                }
            }
            Err(nom::Err::Incomplete(_)) => unreachable!("complete parsers only"),
        }
    }

    fn comment(&mut self) -> Result<Comment, Problem> {
        let start = self.here();
        match comment(self.rest()) {
            Ok((rest, text)) => {
                let text = self.utf8(text, start + 1, "the comment").into_owned();
                self.advance_to(rest);
                Ok(Comment {
                    text,
                    span: Span::new(start, self.here()),
                })
            }
            Err(_) => Err(Problem {
                code: Code::UnterminatedComment,
                message: "unterminated comment: this `{` is never closed by a `}`".into(),
                span: Span::new(start, start + 1),
                token: Some("{".into()),
                ..Default::default()
            }),
        }
    }

    /// Reads one game's tag section, and the problem that stopped it if one
    /// did; `follows_game`: a game came before in this chunk (text with no
    /// tag section is then junk between games).
    fn header(
        &mut self,
        follows_game: bool,
        style: &dyn Fn(&[Tag]) -> MovetextStyle,
    ) -> (Vec<Tag>, Option<Problem>) {
        self.set_separators(MovetextStyle::default());
        // Most records have a handful of tags.
        let mut tags = Vec::with_capacity(8);
        while self.peek() == Some(b'[') {
            if tags.len() == super::MAX_TAGS {
                let p = self.error_at(
                    Code::RecordTooLarge,
                    format!(
                        "more than {} tag pairs: the record is not read further (no \
                         record needs that many)",
                        super::MAX_TAGS
                    ),
                    self.here(),
                );
                return (tags, Some(p));
            }
            match self.tag() {
                Ok(t) => tags.push(t),
                Err(p) => return (tags, Some(p)),
            }
            self.skip_blank();
        }
        self.set_separators(style(&tags));
        self.skip_blank();
        if tags.is_empty() && follows_game {
            let p = self.error_at(
                Code::JunkBetweenGames,
                "text after the result of the previous game; a new game starts \
                 with its tag pairs, like [Game \"...\"]"
                    .into(),
                self.here(),
            );
            return (tags, Some(p));
        }
        (tags, None)
    }

    /// The next token of a game's movetext: `None` at its end (the end of
    /// the chunk, or past the result token and the comments after it) or at
    /// the first problem, which is left in `m.problem`.
    #[inline(always)]
    fn token(&mut self, m: &mut MovetextState) -> Option<Token<'a>> {
        let mut turn = TurnToken::default();
        match self.read(m, &mut turn) {
            Ok(Some(Read::Turn)) => Some(Token::Turn(turn)),
            Ok(Some(Read::Comment(c))) => Some(Token::Comment(c)),
            Ok(Some(Read::Result(r))) => Some(Token::Result(r)),
            Ok(Some(Read::Nag(n))) => Some(Token::Nag(n)),
            Ok(None) => None,
            Err(p) => {
                m.problem = Some(p);
                None
            }
        }
    }

    /// Reads the next token; a turn is written to `turn` (in place: a turn
    /// handed back by value through the layers above was copied with
    /// loads wider than the stores that made it, which stalls).
    #[inline(always)]
    fn read(
        &mut self,
        m: &mut MovetextState,
        turn: &mut TurnToken<'a>,
    ) -> Result<Option<Read>, Box<Problem>> {
        if m.after_result {
            return self.after_result();
        }
        loop {
            self.skip_blank();
            let at = self.here();
            match self.peek() {
                None => return self.movetext_end(m),
                Some(b'{') => return self.comment_read(m),
                Some(b @ (b'[' | b'}')) => return fail(self.misplaced(b, at)),
                Some(_) => {
                    let end = self.token_end(self.pos);
                    let token = &self.src[self.pos..end];
                    let span = Span::new(at, at + token.len());
                    self.pos = end;
                    // Results start `1`, `0` or `*`; move numbers with a
                    // digit: other tokens (most moves) skip both checks.
                    let first = token[0];
                    let result = match first {
                        b'0' | b'1' | b'*' => ResultToken::from_bytes(token),
                        _ => None,
                    };
                    if let Some(result) = result {
                        return self.result_read(m, result, span);
                    }
                    if first == b'$' {
                        if let Some(n) = nag(token) {
                            return self.nag_read(m, n, span);
                        }
                    }
                    let numbered = first
                        .is_ascii_digit()
                        .then(|| move_number(token).ok())
                        .flatten();
                    // A turn's fields are written into the slot one by one
                    // (a token built aside and moved in is copied with loads
                    // wider than the stores that made it, which stalls).
                    let Some((rest, (digits, dots))) = numbered else {
                        turn.number = m.pending_number.take();
                        self.turn_text(token, at, &mut turn.text);
                        turn.span = span;
                        turn.assessment = None;
                        assessed(token, turn);
                        m.turned = true;
                        return Ok(Some(Read::Turn));
                    };
                    let n = self.move_number_at(at, digits, dots)?;
                    let number_span = n.span;
                    if m.pending_number.is_some() {
                        return fail(self.dangling(m.pending_number, ""));
                    }
                    if rest.is_empty() {
                        m.pending_number = Some(n);
                        continue;
                    }
                    // The number is ASCII: the turn's text starts after it.
                    let after = digits.len() + dots;
                    turn.number = Some(n);
                    self.turn_text(&token[after..], at + after, &mut turn.text);
                    turn.span = Span::new(number_span.end, span.end);
                    turn.assessment = None;
                    assessed(token, turn);
                    m.turned = true;
                    return Ok(Some(Read::Turn));
                }
            }
        }
    }

    /// The movetext's end: after a move number, a turn was due.
    #[cold]
    fn movetext_end(&self, m: &MovetextState) -> Result<Option<Read>, Box<Problem>> {
        match m.pending_number {
            Some(_) => fail(self.dangling(m.pending_number, ", but the movetext ends")),
            None => Ok(None),
        }
    }

    /// A comment between turns (not between a move number and its turn).
    fn comment_read(&mut self, m: &MovetextState) -> Result<Option<Read>, Box<Problem>> {
        let c = self.comment()?;
        if m.pending_number.is_some() {
            return fail(self.dangling(m.pending_number, ""));
        }
        Ok(Some(Read::Comment(c)))
    }

    /// The result token (not after a move number): the movetext ends with
    /// it.
    #[cold]
    fn result_read(
        &self,
        m: &mut MovetextState,
        result: ResultToken,
        span: Span,
    ) -> Result<Option<Read>, Box<Problem>> {
        if m.pending_number.is_some() {
            return fail(self.dangling(m.pending_number, ", not by the result"));
        }
        m.after_result = true;
        Ok(Some(Read::Result(ResultMark { result, span })))
    }

    /// A numeric annotation glyph `$N`: it belongs to the turn before it.
    #[cold]
    fn nag_read(
        &self,
        m: &mut MovetextState,
        nag: u8,
        span: Span,
    ) -> Result<Option<Read>, Box<Problem>> {
        if m.pending_number.is_some() {
            return fail(self.dangling(m.pending_number, ""));
        }
        if !m.turned {
            return fail(Problem {
                code: Code::MisplacedGlyph,
                message: "a numeric annotation glyph `$N` follows the turn it annotates; \
                          this one stands before the first turn"
                    .into(),
                span,
                token: self.token_text_boxed(span),
                ..Default::default()
            });
        }
        Ok(Some(Read::Nag(nag)))
    }

    /// Comments right after the result token still belong to the game:
    /// one is read if it comes next, else the movetext has ended.
    #[cold]
    fn after_result(&mut self) -> Result<Option<Read>, Box<Problem>> {
        let save = self.pos;
        self.skip_blank();
        if self.peek() != Some(b'{') {
            self.pos = save;
            return Ok(None);
        }
        let c = self.comment()?;
        Ok(Some(Read::Comment(c)))
    }

    /// A `[` or `}` where a token should start.
    #[cold]
    fn misplaced(&self, byte: u8, at: usize) -> Problem {
        match byte {
            b'[' => self.error_at(
                Code::TagInMovetext,
                "a tag pair cannot stand inside the movetext; a new game's tag section \
                 starts on a line of its own"
                    .into(),
                at,
            ),
            _ => self.error_at(
                Code::StrayBrace,
                "`}` without a `{` opening a comment".into(),
                at,
            ),
        }
    }

    /// The move number of `digits` and `dots` at `at`: `N.` or `N...`.
    /// ASCII digits (checked by `move_number`); too many for a u64 is a
    /// number no game reaches, which the replay reports at its ply.
    #[inline]
    fn move_number_at(
        &self,
        at: usize,
        digits: &[u8],
        dots: usize,
    ) -> Result<MoveNumber, Box<Problem>> {
        let number_span = Span::new(at, at + digits.len() + dots);
        let value = digits.iter().try_fold(0u64, |n, d| {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        });
        if dots != 1 && dots != 3 {
            return fail(Problem {
                code: Code::MalformedMoveNumber,
                message: "a move number is written `N.` before the first mover's turn or \
                          `N...` before the second mover's"
                    .into(),
                span: number_span,
                token: self.token_text_boxed(number_span),
                ..Default::default()
            });
        }
        Ok(MoveNumber {
            number: value.unwrap_or(u64::MAX),
            second: dots == 3,
            too_large: value.is_none(),
            span: number_span,
        })
    }

    /// A move number with no turn after it.
    fn dangling(&self, number: Option<MoveNumber>, what_follows: &str) -> Problem {
        let span = number.map_or(Span::new(self.here(), self.here()), |n| n.span);
        Problem {
            code: Code::DanglingMoveNumber,
            message: format!("a move number must be followed by its turn{what_follows}"),
            span,
            token: self.token_text_boxed(span),
            ..Default::default()
        }
    }
}

/// A problem that stops the reading of a movetext (boxed: the hot path
/// moves tokens, not problems).
#[cold]
fn fail<T>(p: Problem) -> Result<T, Box<Problem>> {
    Err(Box::new(p))
}

/// The value of a numeric annotation glyph token `$N` (N from 0 to 255,
/// at most three digits); `None` for any other token.
fn nag(token: &[u8]) -> Option<u8> {
    let digits = token.strip_prefix(b"$")?;
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0u16, |n, d| n * 10 + u16::from(d - b'0'));
    u8::try_from(n).ok()
}

/// Takes the assessment off the end of the turn just read (`token`: its
/// bytes), in place: the turn is not moved (a turn handed back by value
/// is copied with loads wider than the stores that made it, which
/// stalls).
#[inline(always)]
fn assessed(token: &[u8], turn: &mut TurnToken<'_>) {
    if matches!(token.last(), Some(b'!' | b'?')) {
        split_assessment(turn);
    }
}

#[cold]
fn split_assessment(turn: &mut TurnToken<'_>) {
    let (kept, assessment) = Assessment::split(&turn.text);
    let n = kept.len();
    if assessment.is_none() {
        return;
    }
    turn.assessment = assessment;
    match &mut turn.text {
        Cow::Borrowed(t) => *t = &t[..n],
        Cow::Owned(t) => t.truncate(n),
    }
}

fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Where the reading of a game's movetext stands.
#[derive(Default)]
struct MovetextState {
    /// A move number read, its turn not yet.
    pending_number: Option<MoveNumber>,
    /// The result token was read: only comments may follow.
    after_result: bool,
    /// A turn was read (a `$N` glyph may follow).
    turned: bool,
    /// The problem that stopped the reading.
    problem: Option<Box<Problem>>,
}

/// A turn as read: its move number (when written before it), its text (a
/// byte that is not UTF-8 read as U+FFFD) and place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnToken<'a> {
    pub number: Option<MoveNumber>,
    /// Without its assessment.
    pub text: Cow<'a, str>,
    pub span: Span,
    pub assessment: Option<Assessment>,
}

/// What [`Reader::read`] read (a turn is written to the caller's slot).
enum Read {
    Turn,
    Comment(Comment),
    Result(ResultMark),
    Nag(u8),
}

/// One item of a game's movetext, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    Turn(TurnToken<'a>),
    Comment(Comment),
    Result(ResultMark),
    /// A numeric annotation glyph `$N` (of the turn before it).
    Nag(u8),
}

/// What stands between one turn and the next: its comments and glyphs.
#[derive(Debug, Default)]
pub(super) struct After {
    pub comments: Vec<Comment>,
    pub nags: Vec<u8>,
}

/// How reading a game ended.
#[derive(Clone, Debug, Default)]
pub struct End {
    /// Why the game could not be read to its end (or the first byte that
    /// is not UTF-8, where that came first).
    pub error: Option<Problem>,
    pub result: Option<ResultMark>,
    /// The game's whole extent.
    pub span: Span,
}

/// One game of a chunk being read: its tags, then its movetext token by
/// token (nothing of it kept), then how the reading ended.
pub struct GameReader<'r, 'a> {
    reader: &'r mut Reader<'a>,
    pub tags: Vec<Tag>,
    /// The comments before the first turn, once read ahead (for
    /// [`super::StreamTurns`]).
    pub(super) leading: Vec<Comment>,
    start: usize,
    state: MovetextState,
    error: Option<Problem>,
    result: Option<ResultMark>,
    end: Option<End>,
}

impl<'a> GameReader<'_, 'a> {
    /// Where the game starts in the input.
    pub fn start(&self) -> usize {
        self.start
    }

    /// The next token of the movetext; `None` at its end or at the first
    /// problem (which [`GameReader::finish`] gives).
    #[inline(always)]
    pub(crate) fn next_token(&mut self) -> Option<Token<'a>> {
        if self.error.is_some() || self.end.is_some() || self.state.problem.is_some() {
            return None;
        }
        let t = self.reader.token(&mut self.state);
        if let Some(Token::Result(r)) = &t {
            self.result = Some(*r);
        }
        t
    }

    /// Reads up to the next turn, which is written to `turn`; the comments
    /// and glyphs on the way go to `after` (when `keep`). `false` at the
    /// end of the movetext or at the first problem (which
    /// [`GameReader::finish`] gives).
    #[inline(always)]
    pub(super) fn next_turn_into(
        &mut self,
        after: &mut After,
        keep: bool,
        turn: &mut TurnToken<'a>,
    ) -> bool {
        if self.error.is_some() || self.end.is_some() || self.state.problem.is_some() {
            return false;
        }
        loop {
            match self.reader.read(&mut self.state, turn) {
                Ok(Some(Read::Turn)) => return true,
                Ok(Some(Read::Comment(c))) => {
                    if keep {
                        after.comments.push(c)
                    }
                }
                Ok(Some(Read::Nag(n))) => {
                    if keep {
                        after.nags.push(n)
                    }
                }
                Ok(Some(Read::Result(r))) => self.result = Some(r),
                Ok(None) => return false,
                Err(p) => {
                    self.state.problem = Some(p);
                    return false;
                }
            }
        }
    }

    /// Reads what is left of the game (keeping nothing) and says how its
    /// reading ended.
    pub fn finish(&mut self) -> End {
        if let Some(end) = &self.end {
            return end.clone();
        }
        while self.next_token().is_some() {}
        let stopped = self.error.take().or(self.state.problem.take().map(|p| *p));
        // A bad byte was read as U+FFFD; it is the game's problem when
        // nothing else stopped the reading first.
        let error = match (stopped, self.reader.bad_byte.take()) {
            (Some(e), Some(b)) if b.span.start < e.span.start => Some(b),
            (e, b) => e.or(b),
        };
        if error.as_ref().is_some_and(|e| e.code != Code::InvalidUtf8) {
            // A broken game takes the rest of its chunk: the next chunk
            // starts at the next tag section.
            self.reader.pos = self.reader.src.len();
        }
        let end = End {
            error,
            result: self.result,
            span: Span::new(self.start, self.reader.here()),
        };
        self.end = Some(end.clone());
        end
    }

    /// The whole game as a [`Record`].
    pub fn record(&mut self) -> Parsed {
        let mut record = Record {
            tags: std::mem::take(&mut self.tags),
            ..Record::default()
        };
        // About one turn per 6 bytes of movetext (`e3-e5 `, move numbers),
        // so that the turns are not copied as they grow; capped, for a
        // chunk that is mostly one long comment.
        let left = self.reader.src.len() - self.reader.pos;
        record.turns.reserve((left / 6).min(1024));
        while let Some(token) = self.next_token() {
            match token {
                Token::Turn(t) => record.turns.push(Turn {
                    number: t.number,
                    text: t.text.into_owned(),
                    span: t.span,
                    comments: Vec::new(),
                    glyphs: Glyphs {
                        assessment: t.assessment,
                        nags: Vec::new(),
                    },
                }),
                Token::Nag(n) => {
                    if let Some(turn) = record.turns.last_mut() {
                        turn.glyphs.nags.push(n)
                    }
                }
                Token::Comment(c) => match record.turns.last_mut() {
                    Some(turn) => turn.comments.push(c),
                    None => record.comments.push(c),
                },
                Token::Result(r) => record.result = Some(r),
            }
        }
        let end = self.finish();
        record.span = end.span;
        Parsed {
            record,
            error: end.error,
        }
    }
}

/// Parses every game in a chunk with plain white-space tokens.
pub fn parse_chunk(chunk: &Chunk) -> Vec<Parsed> {
    parse_chunk_with(chunk, &|_| MovetextStyle::default())
}

/// Parses every game in a chunk. Normally a chunk holds one game; text after
/// a result token is read as a further (usually broken) game. `style` says,
/// from a game's tags, how its movetext is tokenised.
pub fn parse_chunk_with(chunk: &Chunk, style: &dyn Fn(&[Tag]) -> MovetextStyle) -> Vec<Parsed> {
    each_game(chunk, style, &mut |game| game.record())
}

/// Reads every game of a chunk in turn, handing each to `f` as it is read
/// (its tags read, its movetext still to come); what `f` leaves unread is
/// read past. Returns what `f` made of each.
pub fn each_game<T>(
    chunk: &Chunk,
    style: &dyn Fn(&[Tag]) -> MovetextStyle,
    f: &mut dyn FnMut(&mut GameReader<'_, '_>) -> T,
) -> Vec<T> {
    let mut r = Reader {
        src: &chunk.bytes,
        text: std::str::from_utf8(&chunk.bytes).ok(),
        base: chunk.offset,
        pos: 0,
        blank_mask: BLANK,
        end_mask: BLANK | BRACE,
        bad_byte: None,
    };
    if chunk.offset == 0 {
        if let Ok((rest, _)) = tag::<_, _, ()>(BOM).parse(r.rest()) {
            r.advance_to(rest);
        }
    }
    let mut out = Vec::new();
    loop {
        r.skip_blank();
        if r.peek().is_none() {
            break;
        }
        let start = r.here();
        r.bad_byte = None;
        let (tags, error) = r.header(!out.is_empty(), style);
        let mut game = GameReader {
            reader: &mut r,
            tags,
            leading: Vec::new(),
            start,
            state: MovetextState::default(),
            error,
            result: None,
            end: None,
        };
        let made = f(&mut game);
        game.finish();
        out.push(made);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Vec<Parsed> {
        parse_chunk(&Chunk::from_bytes(text))
    }

    fn one(text: &[u8]) -> Parsed {
        let mut all = parse(text);
        assert_eq!(all.len(), 1, "{all:?}");
        all.remove(0)
    }

    #[test]
    fn reads_tags_turns_numbers_comments_and_result() {
        let p = one(b"[Game \"oshi\"]\n[Event \"Club \\\"night\\\" \\\\ 1\"]\n{pre} 1. e3-e5 e7-e6 {after e7} 2.c2-c4 2... c8-c6 1-0 {post}\n");
        assert!(p.error.is_none(), "{:?}", p.error);
        let r = p.record;
        assert_eq!(r.tag_value("Game"), Some("oshi"));
        assert_eq!(r.tag_value("Event"), Some("Club \"night\" \\ 1"));
        assert_eq!(r.comments[0].text, "pre");
        let texts: Vec<_> = r.turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["e3-e5", "e7-e6", "c2-c4", "c8-c6"]);
        assert_eq!(r.turns[0].number.unwrap().number, 1);
        assert!(!r.turns[0].number.unwrap().second);
        assert!(r.turns[1].number.is_none());
        assert_eq!(r.turns[1].comments[0].text, "after e7");
        assert_eq!(r.turns[3].number.unwrap().number, 2);
        assert!(r.turns[3].number.unwrap().second);
        assert_eq!(r.turns[3].comments[0].text, "post");
        assert_eq!(r.result.unwrap().result, ResultToken::FirstWins);
        // Spans point at the move text itself, not at a glued number.
        let c2 = &r.turns[2];
        let src = b"[Game \"oshi\"]\n[Event \"Club \\\"night\\\" \\\\ 1\"]\n{pre} 1. e3-e5 e7-e6 {after e7} 2.c2-c4";
        assert_eq!(c2.span.end, src.len());
        assert_eq!(c2.span.start, src.len() - 5);
    }

    #[test]
    fn empty_tag_value_and_spaces_inside_brackets() {
        let p = one(b"[ Game  \"oshi\" ]\n[Site \"\"]\n*");
        assert!(p.error.is_none(), "{:?}", p.error);
        assert_eq!(p.record.tag_value("Site"), Some(""));
    }

    #[test]
    fn unterminated_tag_is_located() {
        let p = one(b"[Game \"oshi\"]\n[Event \"Club\n1. e3-e5 *");
        let e = p.error.unwrap();
        assert_eq!(e.code, "unterminated-tag");
        assert_eq!(e.span.start, 14);
    }

    #[test]
    fn malformed_tags() {
        let e = one(b"[Game oshi]\n*").error.unwrap();
        assert_eq!(e.code, "malformed-tag");
        assert!(e.message.contains("opening the tag value"), "{}", e.message);
        assert_eq!(e.span.start, 6);
        let e = one(b"[Event \"a\\nb\"]\n*").error.unwrap();
        assert_eq!(e.code, "malformed-tag");
    }

    #[test]
    fn unterminated_comment_points_at_its_brace() {
        let e = one(b"[Game \"oshi\"]\n1. e3-e5 {oops\ne7-e6")
            .error
            .unwrap();
        assert_eq!(e.code, "unterminated-comment");
        assert_eq!(e.span, Span::new(23, 24));
    }

    #[test]
    fn invalid_utf8_is_located_in_tokens_comments_and_tags() {
        let e = one(b"[Game \"oshi\"]\n1. e3\xFF-e5").error.unwrap();
        assert_eq!((e.code.as_str(), e.span.start), ("invalid-utf8", 19));
        let e = one(b"[Game \"oshi\"]\n{caf\xC3} *").error.unwrap();
        assert_eq!((e.code.as_str(), e.span.start), ("invalid-utf8", 18));
        let e = one(b"[Event \"\xFE\"]\n*").error.unwrap();
        assert_eq!((e.code.as_str(), e.span.start), ("invalid-utf8", 8));
    }

    #[test]
    fn bom_and_crlf_are_accepted() {
        let p = one(b"\xEF\xBB\xBF[Game \"oshi\"]\r\n1. e3-e5\r\n*\r\n");
        assert!(p.error.is_none(), "{:?}", p.error);
        assert_eq!(p.record.turns[0].text, "e3-e5");
        assert_eq!(p.record.tags[0].span.start, 3);
    }

    #[test]
    fn junk_after_result_is_a_separate_error() {
        let all = parse(b"[Game \"oshi\"]\n1. e3-e5 * e7-e6 foo\n");
        assert_eq!(all.len(), 2);
        assert!(all[0].error.is_none());
        let e = all[1].error.as_ref().unwrap();
        assert_eq!(e.code, "junk-between-games");
        assert_eq!(e.token.as_deref(), Some("e7-e6"));
    }

    #[test]
    fn stray_tokens_and_numbers() {
        let e = one(b"[Game \"oshi\"]\n1. e3-e5 } *").error.unwrap();
        assert_eq!(e.code, "stray-brace");
        let e = one(b"[Game \"oshi\"]\n1. e3-e5 [Round \"1\"] *")
            .error
            .unwrap();
        assert_eq!(e.code, "tag-in-movetext");
        let e = one(b"[Game \"oshi\"]\n1.. e3-e5 *").error.unwrap();
        assert_eq!(e.code, "malformed-move-number");
        let e = one(b"[Game \"oshi\"]\n1. e3-e5 2. *").error.unwrap();
        assert_eq!(e.code, "dangling-move-number");
        let e = one(b"[Game \"oshi\"]\n1. e3-e5 2.").error.unwrap();
        assert_eq!(e.code, "dangling-move-number");
    }

    #[test]
    fn semicolons_separate_turns_where_the_style_says_so() {
        let text = b"[Game \"vagabond\"]\n0H.L(0,-6);0G.L(2,6);\n1H.W(-4,0) ;1G.B(1,6)~~ *";
        let semis = |tags: &[Tag]| MovetextStyle {
            semicolons: tags.iter().any(|t| t.value == "vagabond"),
            commas: false,
        };
        let p = parse_chunk_with(&Chunk::from_bytes(&text[..]), &semis).remove(0);
        assert!(p.error.is_none(), "{:?}", p.error);
        let texts: Vec<_> = p.record.turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            ["0H.L(0,-6)", "0G.L(2,6)", "1H.W(-4,0)", "1G.B(1,6)~~"]
        );
        let second = &p.record.turns[1];
        assert_eq!(&text[second.span.start..second.span.end], b"0G.L(2,6)");
        // Other games keep `;` inside the token.
        let p = one(b"[Game \"oshi\"]\n1. e3-e4;e7-e6 *");
        assert_eq!(p.record.turns[0].text, "e3-e4;e7-e6");
    }

    #[test]
    fn game_without_tags_is_read_for_the_caller_to_judge() {
        let p = one(b"1. e3-e5 *");
        assert!(p.error.is_none());
        assert!(p.record.tags.is_empty());
        assert_eq!(p.record.turns.len(), 1);
    }

    #[test]
    fn assessments_and_glyphs_are_kept_apart_from_the_turn() {
        let r = one(b"[Game \"oshi\"]\n1. e3-e5?? $1 $14 {c} e7-e6!? $0 2. a1-a2! b1-b2?! $255 *");
        let r = r.record;
        let texts: Vec<&str> = r.turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["e3-e5", "e7-e6", "a1-a2", "b1-b2"]);
        let a: Vec<Option<&str>> = (r.turns.iter())
            .map(|t| t.glyphs.assessment.map(Assessment::as_str))
            .collect();
        assert_eq!(a, [Some("??"), Some("!?"), Some("!"), Some("?!")]);
        let nags: Vec<&[u8]> = r.turns.iter().map(|t| &t.glyphs.nags[..]).collect();
        assert_eq!(nags, [&[1, 14][..], &[0], &[], &[255]]);
        assert_eq!(r.turns[0].comments[0].text, "c");
        // The span is the whole token, its assessment included.
        assert_eq!(r.turns[0].span.end - r.turns[0].span.start, "e3-e5??".len());
    }

    #[test]
    fn what_is_no_assessment_or_glyph_stays_in_the_turn() {
        let r = one(b"[Game \"oshi\"]\n1. e3-e5!!! e7-e6?x ?? $256 $x $ *").record;
        let texts: Vec<&str> = r.turns.iter().map(|t| t.text.as_str()).collect();
        // The game's own parser refuses these, each at its place.
        assert_eq!(texts, ["e3-e5!!!", "e7-e6?x", "??", "$256", "$x", "$"]);
        assert!(r.turns.iter().all(|t| t.glyphs.is_empty()));
    }

    #[test]
    fn a_glyph_before_the_first_turn_is_located() {
        let p = one(b"[Game \"oshi\"]\n$3 1. e3-e5 *");
        let e = p.error.unwrap();
        assert_eq!(e.code, Code::MisplacedGlyph);
        assert_eq!(e.span, Span::new(14, 16));
        let p = one(b"[Game \"oshi\"]\n1. $3 e3-e5 *");
        assert_eq!(p.error.unwrap().code, Code::DanglingMoveNumber);
    }

    #[test]
    fn never_panics_on_arbitrary_bytes() {
        // A deterministic sweep over short byte strings built from the
        // characters that matter to the grammar.
        let alphabet = b"[]{}\"\\ \n1.-*/0eG\xFF";
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            let mut bytes = Vec::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 24) as usize;
            let mut s = seed;
            for _ in 0..len {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                bytes.push(alphabet[(s >> 33) as usize % alphabet.len()]);
            }
            for p in parse(&bytes) {
                if let Some(e) = p.error {
                    assert!(e.span.start <= bytes.len() && e.span.end <= bytes.len());
                }
            }
        }
    }
}
