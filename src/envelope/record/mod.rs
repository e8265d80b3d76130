//! The record envelope: tag pairs, movetext tokens, comments, results and
//! spans. This module knows no game: move tokens are kept as text and handed
//! to a game's own move parser by the replay loop.

pub mod commands;
mod lenient;
mod parse;
mod reader;

pub use gamerec_rules::game::MovetextStyle;
pub use gamerec_rules::{Tag, Text};
pub use lenient::{read_leniently, Leniently};
pub use parse::{each_game, parse_chunk, parse_chunk_with, End, GameReader, Token, TurnToken};
pub(crate) use parse::{masks, BLANK, BRACE, CLASS};
pub(crate) use reader::InPlace;
pub use reader::{Chunk, ChunkReader, Locator, MAX_RECORD_BYTES, MAX_TAGS};

pub use crate::base::problem::Span;
use crate::base::problem::{Problem, Repair};
use serde::Serialize;

/// A declared result: `1-0`, `0-1`, `1/2-1/2` or `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ResultToken {
    #[serde(rename = "1-0")]
    FirstWins,
    #[serde(rename = "0-1")]
    SecondWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    #[serde(rename = "*")]
    Unknown,
}

impl ResultToken {
    pub fn parse(text: &str) -> Option<ResultToken> {
        ResultToken::from_bytes(text.as_bytes())
    }

    /// [`ResultToken::parse`] of a token's bytes.
    #[inline]
    pub fn from_bytes(token: &[u8]) -> Option<ResultToken> {
        match token {
            b"1-0" => Some(ResultToken::FirstWins),
            b"0-1" => Some(ResultToken::SecondWins),
            b"1/2-1/2" => Some(ResultToken::Draw),
            b"*" => Some(ResultToken::Unknown),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ResultToken::FirstWins => "1-0",
            ResultToken::SecondWins => "0-1",
            ResultToken::Draw => "1/2-1/2",
            ResultToken::Unknown => "*",
        }
    }
}

/// A `{comment}`; `text` is what stands between the braces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub text: String,
    pub span: Span,
}

/// A move number `N.` (before the first mover's turn) or `N...` (before the
/// second mover's turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    pub number: u64,
    /// Written with three dots: announces the second mover's turn.
    pub second: bool,
    /// More digits than any game reaches (`number` is then `u64::MAX`).
    pub too_large: bool,
    pub span: Span,
}

/// A move assessment written at the end of a turn (`e3-e5??`): kept,
/// written back, and no part of the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Assessment {
    /// `!!`
    Brilliant,
    /// `!`
    Good,
    /// `!?`
    Interesting,
    /// `?!`
    Dubious,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Assessment {
    pub const ALL: [Assessment; 6] = [
        Assessment::Brilliant,
        Assessment::Good,
        Assessment::Interesting,
        Assessment::Dubious,
        Assessment::Mistake,
        Assessment::Blunder,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Assessment::Brilliant => "!!",
            Assessment::Good => "!",
            Assessment::Interesting => "!?",
            Assessment::Dubious => "?!",
            Assessment::Mistake => "?",
            Assessment::Blunder => "??",
        }
    }

    pub fn parse(text: &str) -> Option<Assessment> {
        Assessment::ALL.into_iter().find(|a| a.as_str() == text)
    }

    /// `text` without the assessment at its end, and the assessment (a
    /// turn that is nothing but `!` and `?` keeps them: it is no move).
    #[inline]
    pub fn split(text: &str) -> (&str, Option<Assessment>) {
        let bytes = text.as_bytes();
        if !matches!(bytes.last(), Some(b'!' | b'?')) {
            return (text, None);
        }
        let marks = bytes.iter().rev().take_while(|b| matches!(b, b'!' | b'?'));
        let n = marks.count();
        match Assessment::parse(&text[text.len() - n..]) {
            Some(a) if n < text.len() => (&text[..text.len() - n], Some(a)),
            _ => (text, None),
        }
    }
}

/// What a turn's annotation holds besides comments: its assessment and
/// its numeric annotation glyphs (`$N`, in the order written).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Glyphs {
    pub assessment: Option<Assessment>,
    pub nags: Vec<u8>,
}

impl Glyphs {
    pub fn is_empty(&self) -> bool {
        self.assessment.is_none() && self.nags.is_empty()
    }

    /// How many there are (what a format that cannot carry them drops).
    pub fn count(&self) -> usize {
        usize::from(self.assessment.is_some()) + self.nags.len()
    }
}

/// One turn as written, before any game has looked at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub number: Option<MoveNumber>,
    /// The turn without its assessment.
    pub text: String,
    /// The whole token (its assessment included).
    pub span: Span,
    /// Comments written after this turn (and before the next one).
    pub comments: Vec<Comment>,
    pub glyphs: Glyphs,
}

/// A declared result token at the end of the movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultMark {
    pub result: ResultToken,
    pub span: Span,
}

/// One game record as read from the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<Tag>,
    /// Comments before the first turn.
    pub comments: Vec<Comment>,
    pub turns: Vec<Turn>,
    pub result: Option<ResultMark>,
    pub span: Span,
}

impl Record {
    /// The first tag with this name (tag names compare case-sensitively,
    /// as in PGN).
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }

    pub fn tag_value(&self, name: &str) -> Option<&str> {
        self.tag(name).map(|t| t.value.as_str())
    }

    /// A record holding only a `Position` tag (for a bare position given on
    /// the command line).
    pub fn from_position(position: &str) -> Record {
        let span = Span::new(0, position.len());
        Record {
            tags: vec![Tag {
                name: "Position".into(),
                value: position.into(),
                span,
                value_span: span,
            }],
            span,
            ..Record::default()
        }
    }

    /// A short human title: `Round 3, Ana vs Ben` from whatever is present.
    pub fn title(&self, sides: [&str; 2]) -> Option<String> {
        title(&self.tags, sides)
    }

    /// Moves every place in the record through `f` (an offset in a patched
    /// text to the offset in the input it came from).
    pub(crate) fn remap_spans(&mut self, f: &dyn Fn(usize) -> usize) {
        let span = |s: &mut Span| *s = Span::new(f(s.start), f(s.end));
        for t in &mut self.tags {
            span(&mut t.span);
            span(&mut t.value_span);
        }
        for c in &mut self.comments {
            span(&mut c.span);
        }
        for t in &mut self.turns {
            if let Some(n) = &mut t.number {
                span(&mut n.span);
            }
            span(&mut t.span);
            for c in &mut t.comments {
                span(&mut c.span);
            }
        }
        if let Some(r) = &mut self.result {
            span(&mut r.span);
        }
        span(&mut self.span);
    }
}

/// A short human title for a game with these tags: `Round 3, Ana vs Ben`
/// from whatever is present.
pub fn title(tags: &[Tag], sides: [&str; 2]) -> Option<String> {
    let value = |name: &str| {
        tags.iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
            .filter(|v| !v.is_empty())
    };
    let mut parts = Vec::new();
    if let Some(round) = value("Round").filter(|r| *r != "?") {
        parts.push(format!("Round {round}"));
    }
    let (a, b) = (value(sides[0]), value(sides[1]));
    if a.is_some() || b.is_some() {
        parts.push(format!("{} vs {}", a.unwrap_or("?"), b.unwrap_or("?")));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// What the parser made of one stretch of input: a record (possibly only
/// partly read) and, when it could not be read to its end, why.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub record: Record,
    pub error: Option<Problem>,
}

/// A turn as the replay reads it: its move number (when written), its text,
/// its place and assessment (the token, [`TurnToken`], whose fields read
/// through), and the comments and glyphs written after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnIn<'a> {
    pub token: TurnToken<'a>,
    pub comments: std::borrow::Cow<'a, [Comment]>,
    pub nags: std::borrow::Cow<'a, [u8]>,
}

impl<'a> std::ops::Deref for TurnIn<'a> {
    type Target = TurnToken<'a>;
    fn deref(&self) -> &TurnToken<'a> {
        &self.token
    }
}

/// Where the replay reads a game's turns from, one at a time, so that a
/// replay need keep no turn. A turn is lent, read in place and never moved
/// (a turn handed on by value is copied with loads wider than the stores
/// that made it, which stalls); the one lent last may be put back (the
/// replay puts back the turn it stops at, for whoever reads on).
pub trait TurnSource<'a> {
    /// The next turn, lent until the next call.
    fn next_turn(&mut self) -> Option<&TurnIn<'a>>;
    /// Puts back the turn lent last: the next call lends it again.
    fn unread(&mut self);
}

/// A game to read: its tags, the comments before its first turn, its turns
/// one by one, and how its reading ended — a game being read from text
/// ([`StreamTurns`], nothing of it kept) or one already read
/// ([`RecordSource`]).
pub trait ReadGame<'a>: TurnSource<'a> {
    fn tags(&self) -> &[Tag];
    /// Where the game starts in the input.
    fn start(&self) -> usize;
    /// The comments before the first turn (taken: asked once).
    fn leading(&mut self) -> Vec<Comment>;
    /// The next turn's place and text, without reading it.
    fn peek_turn(&mut self) -> Option<(Span, &str)>;
    /// The tags and the turns at once (to replay without copying the
    /// tags).
    fn parts(&mut self) -> (&[Tag], &mut dyn TurnSource<'a>);
    /// Reads what is left (keeping nothing) and says how the reading ended:
    /// the result token, and the problem that stopped it.
    fn finish(&mut self) -> End;
    /// What is left of the game, read into a [`Record`] (with the turns
    /// already read left out), and its problem.
    fn record(&mut self) -> Parsed;
    /// What `--lenient` repaired to read the game this way (nothing, for a
    /// game read strictly).
    fn repairs(&self) -> &[Repair] {
        &[]
    }
}

/// A recorded turn as the replay reads it (borrowed).
fn lent<'a>(t: &'a Turn) -> TurnIn<'a> {
    TurnIn {
        token: TurnToken {
            number: t.number,
            text: std::borrow::Cow::Borrowed(&t.text),
            span: t.span,
            assessment: t.glyphs.assessment,
        },
        comments: std::borrow::Cow::Borrowed(&t.comments),
        nags: std::borrow::Cow::Borrowed(&t.glyphs.nags),
    }
}

/// A turn lent by a source, kept: a [`Turn`] of a [`Record`].
fn kept(t: &TurnIn<'_>) -> Turn {
    Turn {
        number: t.number,
        text: t.text.to_string(),
        span: t.span,
        comments: t.comments.to_vec(),
        glyphs: Glyphs {
            assessment: t.assessment,
            nags: t.nags.to_vec(),
        },
    }
}

/// A game already read.
pub struct RecordSource<'a> {
    record: &'a Record,
    /// The next turn of `record` to lend.
    next: usize,
    /// The turn lent last.
    current: TurnIn<'a>,
    /// `current` was put back.
    back: bool,
    leading_taken: bool,
    error: Option<Problem>,
    repairs: Vec<Repair>,
}

impl<'a> RecordSource<'a> {
    /// `record`, with `error` the problem its reading met (if any).
    pub fn new(record: &'a Record, error: Option<Problem>) -> Self {
        RecordSource {
            record,
            next: 0,
            current: TurnIn::default(),
            back: false,
            leading_taken: false,
            error,
            repairs: Vec::new(),
        }
    }

    /// The record as `--lenient` repaired it, with its repairs.
    pub fn repaired(record: &'a Record, error: Option<Problem>, repairs: Vec<Repair>) -> Self {
        RecordSource {
            repairs,
            ..RecordSource::new(record, error)
        }
    }
}

impl<'a> TurnSource<'a> for RecordSource<'a> {
    fn next_turn(&mut self) -> Option<&TurnIn<'a>> {
        if !std::mem::take(&mut self.back) {
            let record: &'a Record = self.record;
            self.current = lent(record.turns.get(self.next)?);
            self.next += 1;
        }
        Some(&self.current)
    }

    fn unread(&mut self) {
        self.back = true;
    }
}

impl<'a> ReadGame<'a> for RecordSource<'a> {
    fn tags(&self) -> &[Tag] {
        &self.record.tags
    }

    fn start(&self) -> usize {
        self.record.span.start
    }

    fn leading(&mut self) -> Vec<Comment> {
        if std::mem::replace(&mut self.leading_taken, true) {
            return Vec::new();
        }
        self.record.comments.clone()
    }

    fn peek_turn(&mut self) -> Option<(Span, &str)> {
        match self.back {
            true => Some((self.current.span, &self.current.text)),
            false => self
                .record
                .turns
                .get(self.next)
                .map(|t| (t.span, t.text.as_str())),
        }
    }

    fn parts(&mut self) -> (&[Tag], &mut dyn TurnSource<'a>) {
        let tags: &'a [Tag] = &self.record.tags;
        (tags, self)
    }

    fn finish(&mut self) -> End {
        self.next = self.record.turns.len();
        self.back = false;
        End {
            error: self.error.clone(),
            result: self.record.result,
            span: self.record.span,
        }
    }

    fn repairs(&self) -> &[Repair] {
        &self.repairs
    }

    fn record(&mut self) -> Parsed {
        let mut record = self.record.clone();
        let skip = self.next - usize::from(self.back);
        record.turns.drain(..skip.min(record.turns.len()));
        if self.leading_taken {
            record.comments.clear();
        }
        self.finish();
        Parsed {
            record,
            error: self.error.clone(),
        }
    }
}

/// A game being read from text: its turns one by one — each with the
/// comments after it ([`StreamTurns::new`]), or the turns alone, which
/// needs no reading ahead ([`StreamTurns::lean`], for a replay that keeps
/// nothing).
pub(crate) struct StreamTurns<'g, 'r, 'a> {
    tags: Vec<Tag>,
    turns: Stream<'g, 'r, 'a>,
}

/// The turns of a [`StreamTurns`] (apart from its tags, so that both can be
/// lent at once). Turns are read into two slots in turn, in place: the one
/// lent, and the one read ahead (the next turn, read to find where the
/// comments after the lent one end, or to peek at it).
struct Stream<'g, 'r, 'a> {
    game: &'g mut GameReader<'r, 'a>,
    slots: [TurnIn<'a>; 2],
    /// The slot lent last.
    current: usize,
    /// The other slot holds the next turn, read ahead.
    ahead: bool,
    /// The turn lent last was put back.
    back: bool,
    /// Comments are read with the turn before them (else skipped).
    comments: bool,
}

impl<'g, 'r, 'a> StreamTurns<'g, 'r, 'a> {
    /// Starts reading `game`'s movetext, each turn with the comments after
    /// it (those before the first turn are read at once).
    pub fn new(game: &'g mut GameReader<'r, 'a>) -> Self {
        let mut leading = parse::After::default();
        let mut first = TurnIn::default();
        let ahead = game.next_turn_into(&mut leading, true, &mut first.token);
        game.leading = leading.comments;
        StreamTurns {
            tags: std::mem::take(&mut game.tags),
            turns: Stream {
                game,
                slots: [TurnIn::default(), first],
                current: 0,
                ahead,
                back: false,
                comments: true,
            },
        }
    }

    /// Starts reading `game`'s turns, comments skipped and nothing read
    /// ahead.
    pub(crate) fn lean(game: &'g mut GameReader<'r, 'a>) -> Self {
        StreamTurns {
            tags: std::mem::take(&mut game.tags),
            turns: Stream {
                game,
                slots: [TurnIn::default(), TurnIn::default()],
                current: 0,
                ahead: false,
                back: false,
                comments: false,
            },
        }
    }
}

impl<'a> TurnSource<'a> for Stream<'_, '_, 'a> {
    #[inline]
    fn next_turn(&mut self) -> Option<&TurnIn<'a>> {
        if std::mem::take(&mut self.back) {
            return Some(&self.slots[self.current]);
        }
        if self.ahead {
            self.current ^= 1;
            self.ahead = false;
        } else if self.comments {
            // Nothing was read ahead: the movetext has ended.
            return None;
        } else {
            // Lean: the turn is read into its slot, nothing else kept.
            let slot = &mut self.slots[self.current].token;
            if !self
                .game
                .next_turn_into(&mut parse::After::default(), false, slot)
            {
                return None;
            }
            return Some(&self.slots[self.current]);
        }
        if self.comments {
            // The comments and glyphs after the lent turn, up to the next
            // turn (read into the other slot).
            let [a, b] = &mut self.slots;
            let (lent, next) = if self.current == 0 { (a, b) } else { (b, a) };
            let mut after = parse::After::default();
            self.ahead = self.game.next_turn_into(&mut after, true, &mut next.token);
            lent.comments = std::borrow::Cow::Owned(after.comments);
            lent.nags = std::borrow::Cow::Owned(after.nags);
        }
        Some(&self.slots[self.current])
    }

    fn unread(&mut self) {
        self.back = true;
    }
}

impl<'a> TurnSource<'a> for StreamTurns<'_, '_, 'a> {
    fn next_turn(&mut self) -> Option<&TurnIn<'a>> {
        self.turns.next_turn()
    }

    fn unread(&mut self) {
        self.turns.unread()
    }
}

impl<'a> ReadGame<'a> for StreamTurns<'_, '_, 'a> {
    fn tags(&self) -> &[Tag] {
        &self.tags
    }

    fn start(&self) -> usize {
        self.turns.game.start()
    }

    fn leading(&mut self) -> Vec<Comment> {
        std::mem::take(&mut self.turns.game.leading)
    }

    fn peek_turn(&mut self) -> Option<(Span, &str)> {
        let t = &mut self.turns;
        if !t.back && !t.ahead && !t.comments {
            let next = &mut t.slots[t.current ^ 1].token;
            t.ahead = t
                .game
                .next_turn_into(&mut parse::After::default(), false, next);
        }
        let slot = match (t.back, t.ahead) {
            (true, _) => &t.slots[t.current],
            (false, true) => &t.slots[t.current ^ 1],
            (false, false) => return None,
        };
        Some((slot.span, slot.text.as_ref()))
    }

    fn parts(&mut self) -> (&[Tag], &mut dyn TurnSource<'a>) {
        (&self.tags, &mut self.turns)
    }

    fn finish(&mut self) -> End {
        self.turns.back = false;
        self.turns.ahead = false;
        self.turns.game.finish()
    }

    fn record(&mut self) -> Parsed {
        let mut record = Record {
            tags: self.tags.clone(),
            comments: self.leading(),
            ..Record::default()
        };
        while let Some(t) = self.next_turn() {
            record.turns.push(kept(t));
        }
        let end = self.finish();
        record.result = end.result;
        record.span = end.span;
        Parsed {
            record,
            error: end.error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &[u8] = b"[Game \"oshi\"]\n\n{lead} 1. e3-e4 {a} {b} $3 e7-e6?? 2. d2-d3! $1 \
        2... d7-d6 {c}\n3. c2-c3 1-0 {end}\n";

    /// Every turn a source lends, peeking before each and putting each
    /// back once: (number, text, span, assessment, comments, glyphs).
    fn lent(game: &mut dyn ReadGame<'_>) -> Vec<(Option<u64>, String, Span, String, usize)> {
        let mut out = Vec::new();
        loop {
            let peeked = game
                .peek_turn()
                .map(|(span, text)| (span, text.to_string()));
            let Some(t) = game.next_turn() else {
                assert_eq!(peeked, None);
                break;
            };
            let first = (
                t.number.map(|n| n.number),
                t.text.to_string(),
                t.span,
                t.comments
                    .iter()
                    .map(|c| c.text.as_str())
                    .collect::<Vec<_>>()
                    .join("|"),
                t.nags.len() + usize::from(t.assessment.is_some()),
            );
            assert_eq!(peeked, Some((first.2, first.1.clone())));
            game.unread();
            assert_eq!(game.peek_turn().map(|(span, _)| span), Some(first.2));
            let again = game.next_turn().expect("the turn put back");
            assert_eq!(
                (again.text.to_string(), again.span),
                (first.1.clone(), first.2)
            );
            out.push(first);
        }
        out
    }

    #[test]
    fn text_lean_and_recorded_sources_lend_the_same_turns() {
        let chunk = Chunk::from_bytes(GAME);
        let style = |_: &[Tag]| MovetextStyle::default();
        let streamed = each_game(&chunk, &style, &mut |g| lent(&mut StreamTurns::new(g)));
        let lean = each_game(&chunk, &style, &mut |g| lent(&mut StreamTurns::lean(g)));
        let parsed = parse_chunk(&chunk).remove(0);
        let recorded = lent(&mut RecordSource::new(&parsed.record, None));
        assert_eq!(streamed[0], recorded);
        let texts: Vec<_> = recorded.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(texts, ["e3-e4", "e7-e6", "d2-d3", "d7-d6", "c2-c3"]);
        assert_eq!(recorded[0].3, "a|b");
        assert_eq!(recorded[4].3, "end");
        assert_eq!((recorded[1].4, recorded[2].4), (1, 2));
        // The lean source skips comments and glyphs, and nothing else.
        let strip = |v: &[(Option<u64>, String, Span, String, usize)]| {
            v.iter()
                .map(|t| (t.0, t.1.clone(), t.2))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&lean[0]), strip(&recorded));
        assert!(lean[0].iter().all(|t| t.3.is_empty()));
    }

    #[test]
    fn what_is_left_after_some_turns_is_the_rest_of_the_record() {
        let chunk = Chunk::from_bytes(GAME);
        let style = |_: &[Tag]| MovetextStyle::default();
        let rest = each_game(&chunk, &style, &mut |g| {
            let mut s = StreamTurns::new(g);
            s.next_turn();
            s.next_turn();
            s.unread();
            s.record()
        });
        let texts: Vec<_> = rest[0]
            .record
            .turns
            .iter()
            .map(|t| t.text.as_str())
            .collect();
        assert_eq!(texts, ["e7-e6", "d2-d3", "d7-d6", "c2-c3"]);
        assert_eq!(
            rest[0].record.result.map(|r| r.result),
            Some(ResultToken::FirstWins)
        );
    }

    #[test]
    fn result_tokens_read_from_bytes_as_from_text() {
        for t in ["1-0", "0-1", "1/2-1/2", "*", "1-1", "", "1/2", "**", "0-1 "] {
            assert_eq!(
                ResultToken::from_bytes(t.as_bytes()),
                ResultToken::parse(t),
                "{t}"
            );
        }
    }
}
