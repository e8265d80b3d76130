//! The record envelope: tag pairs, movetext tokens, comments, results and
//! spans. This module knows no game: move tokens are kept as text and handed
//! to a game's own move parser by the replay loop.

mod parse;
mod reader;

pub use parse::{each_game, parse_chunk, parse_chunk_with, End, GameReader, Token, TurnToken};
pub use reader::{Chunk, ChunkReader, MAX_RECORD_BYTES};

use crate::problem::Problem;
pub use crate::problem::Span;
use serde::Serialize;

/// How a game's movetext is tokenised, beyond white space; the game is
/// known from the tag section, so the caller decides from the tags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovetextStyle {
    /// `;` separates turns too (Vagabond, for Garden Gate exports).
    pub semicolons: bool,
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

/// One turn as written, before any game has looked at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub number: Option<MoveNumber>,
    pub text: String,
    pub span: Span,
    /// Comments written after this turn (and before the next one).
    pub comments: Vec<Comment>,
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
        let mut parts = Vec::new();
        if let Some(round) = self
            .tag_value("Round")
            .filter(|r| !r.is_empty() && *r != "?")
        {
            parts.push(format!("Round {round}"));
        }
        let a = self.tag_value(sides[0]).filter(|s| !s.is_empty());
        let b = self.tag_value(sides[1]).filter(|s| !s.is_empty());
        if a.is_some() || b.is_some() {
            parts.push(format!("{} vs {}", a.unwrap_or("?"), b.unwrap_or("?")));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// What the parser made of one stretch of input: a record (possibly only
/// partly read) and, when it could not be read to its end, why.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub record: Record,
    pub error: Option<Problem>,
}
