//! The record envelope: tag pairs, movetext tokens, comments, results and
//! spans. This module knows no game: move tokens are kept as text and handed
//! to a game's own move parser by the replay loop.

pub mod commands;
mod lenient;
mod parse;
mod reader;

pub use lenient::{read_leniently, Leniently};
pub use parse::{each_game, parse_chunk, parse_chunk_with, End, GameReader, Token, TurnToken};
pub use reader::{Chunk, ChunkReader, MAX_RECORD_BYTES, MAX_TAGS};

pub use crate::problem::Span;
use crate::problem::{Problem, Repair};
use serde::Serialize;

/// How a game's movetext is tokenised, beyond white space; the game is
/// known from the tag section, so the caller decides from the tags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovetextStyle {
    /// `;` separates turns too (Vagabond, for Garden Gate exports).
    pub semicolons: bool,
    /// `,` separates turns too (AbstractPlay's Iqishiqi move lists,
    /// `c8/i7,f5/j7`).
    pub commas: bool,
}

/// One tag pair `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    /// The whole `[...]`.
    pub span: Span,
    /// The value between the quotes.
    pub value_span: Span,
}

impl Tag {
    /// A tag made by gamerec, not read from an input (no place in one).
    pub fn unplaced(name: &str, value: &str) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
            span: Span::default(),
            value_span: Span::default(),
        }
    }
}

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
        match text {
            "1-0" => Some(ResultToken::FirstWins),
            "0-1" => Some(ResultToken::SecondWins),
            "1/2-1/2" => Some(ResultToken::Draw),
            "*" => Some(ResultToken::Unknown),
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
    pub fn remap_spans(&mut self, f: &dyn Fn(usize) -> usize) {
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
/// its place, and the comments written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnIn<'a> {
    pub number: Option<MoveNumber>,
    pub text: std::borrow::Cow<'a, str>,
    pub span: Span,
    pub comments: std::borrow::Cow<'a, [Comment]>,
    pub assessment: Option<Assessment>,
    pub nags: std::borrow::Cow<'a, [u8]>,
}

/// Where the replay reads a game's turns from, one at a time, so that a
/// replay need keep no turn. A turn read may be put back (the replay puts
/// back the turn it stops at, for whoever reads on).
pub trait TurnSource<'a> {
    fn next_turn(&mut self) -> Option<TurnIn<'a>>;
    fn unread(&mut self, turn: TurnIn<'a>);
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

/// A game already read.
pub struct RecordSource<'a> {
    record: &'a Record,
    next: usize,
    back: Option<TurnIn<'a>>,
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
            back: None,
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
    fn next_turn(&mut self) -> Option<TurnIn<'a>> {
        if let Some(t) = self.back.take() {
            return Some(t);
        }
        let t = self.record.turns.get(self.next)?;
        self.next += 1;
        Some(TurnIn {
            number: t.number,
            text: std::borrow::Cow::Borrowed(&t.text),
            span: t.span,
            comments: std::borrow::Cow::Borrowed(&t.comments),
            assessment: t.glyphs.assessment,
            nags: std::borrow::Cow::Borrowed(&t.glyphs.nags),
        })
    }

    fn unread(&mut self, turn: TurnIn<'a>) {
        self.back = Some(turn);
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
        match &self.back {
            Some(t) => Some((t.span, &t.text)),
            None => self
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
        self.back = None;
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
        let skip = self.next - usize::from(self.back.is_some());
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
pub struct StreamTurns<'g, 'r, 'a> {
    tags: Vec<Tag>,
    turns: Stream<'g, 'r, 'a>,
}

/// The turns of a [`StreamTurns`] (apart from its tags, so that both can be
/// lent at once).
struct Stream<'g, 'r, 'a> {
    game: &'g mut GameReader<'r, 'a>,
    /// The next turn token, read ahead.
    ahead: Option<TurnToken<'a>>,
    /// A turn put back.
    back: Option<TurnIn<'a>>,
    /// Comments are read with the turn before them (else skipped).
    comments: bool,
}

impl<'g, 'r, 'a> StreamTurns<'g, 'r, 'a> {
    /// Starts reading `game`'s movetext, each turn with the comments after
    /// it (those before the first turn are read at once).
    pub fn new(game: &'g mut GameReader<'r, 'a>) -> Self {
        let mut leading = parse::After::default();
        let mut ahead = None;
        Stream::read_to_turn(game, &mut leading, true, &mut ahead);
        game.leading = leading.comments;
        StreamTurns {
            tags: std::mem::take(&mut game.tags),
            turns: Stream {
                game,
                ahead,
                back: None,
                comments: true,
            },
        }
    }

    /// Starts reading `game`'s turns, comments skipped and nothing read
    /// ahead.
    pub fn lean(game: &'g mut GameReader<'r, 'a>) -> Self {
        StreamTurns {
            tags: std::mem::take(&mut game.tags),
            turns: Stream {
                game,
                ahead: None,
                back: None,
                comments: false,
            },
        }
    }
}

impl<'r, 'a> Stream<'_, 'r, 'a> {
    /// Reads tokens up to the next turn, into `slot`; the comments on the
    /// way go to `comments` (when kept).
    #[inline(always)]
    fn read_to_turn(
        game: &mut GameReader<'r, 'a>,
        after: &mut parse::After,
        keep: bool,
        slot: &mut Option<TurnToken<'a>>,
    ) {
        if !game.next_turn_into(after, keep, slot) {
            *slot = None;
        }
    }
}

impl<'a> TurnSource<'a> for Stream<'_, '_, 'a> {
    fn next_turn(&mut self) -> Option<TurnIn<'a>> {
        if let Some(t) = self.back.take() {
            return Some(t);
        }
        if !self.comments {
            // Handed back by value: measured faster here than through the
            // slot (the turn goes straight on, by value, to the replay).
            let turn = match self.ahead.take() {
                Some(t) => t,
                None => loop {
                    if let Token::Turn(t) = self.game.next_token()? {
                        break t;
                    }
                },
            };
            return Some(TurnIn {
                number: turn.number,
                text: turn.text,
                span: turn.span,
                comments: std::borrow::Cow::Borrowed(&[]),
                assessment: turn.assessment,
                nags: std::borrow::Cow::Borrowed(&[]),
            });
        }
        let turn = self.ahead.take()?;
        let mut after = parse::After::default();
        Self::read_to_turn(self.game, &mut after, true, &mut self.ahead);
        Some(TurnIn {
            number: turn.number,
            text: turn.text,
            span: turn.span,
            comments: std::borrow::Cow::Owned(after.comments),
            assessment: turn.assessment,
            nags: std::borrow::Cow::Owned(after.nags),
        })
    }

    fn unread(&mut self, turn: TurnIn<'a>) {
        self.back = Some(turn);
    }
}

impl<'a> TurnSource<'a> for StreamTurns<'_, '_, 'a> {
    fn next_turn(&mut self) -> Option<TurnIn<'a>> {
        self.turns.next_turn()
    }

    fn unread(&mut self, turn: TurnIn<'a>) {
        self.turns.unread(turn)
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
        if t.back.is_none() && t.ahead.is_none() && !t.comments {
            Stream::read_to_turn(t.game, &mut parse::After::default(), false, &mut t.ahead);
        }
        match &t.back {
            Some(b) => Some((b.span, &b.text)),
            None => t.ahead.as_ref().map(|a| (a.span, a.text.as_ref())),
        }
    }

    fn parts(&mut self) -> (&[Tag], &mut dyn TurnSource<'a>) {
        (&self.tags, &mut self.turns)
    }

    fn finish(&mut self) -> End {
        self.turns.back = None;
        self.turns.ahead = None;
        self.turns.game.finish()
    }

    fn record(&mut self) -> Parsed {
        let mut record = Record {
            tags: self.tags.clone(),
            comments: self.leading(),
            ..Record::default()
        };
        while let Some(t) = self.next_turn() {
            record.turns.push(Turn {
                number: t.number,
                text: t.text.into_owned(),
                span: t.span,
                comments: t.comments.into_owned(),
                glyphs: Glyphs {
                    assessment: t.assessment,
                    nags: t.nags.into_owned(),
                },
            });
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
