//! The seam between the generic machinery (reader, replay, CLI) and a game's
//! rules. A game implements [`Game`]; nothing outside its folder under
//! `src/games/` knows its rules.

use crate::record::Tag;
use std::fmt;

/// The two sides, in the order the record format names them (the first-named
/// side is the first of each pair of side tags).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub const BOTH: [Side; 2] = [Side::First, Side::Second];
}

/// How the rules ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `None`: drawn.
    pub winner: Option<Side>,
    /// A short stable code, e.g. `points`, `no-legal-move`.
    pub reason: &'static str,
}

/// A move the rules refuse. `code` is a stable kebab-case name for scripts
/// and fixtures; `Display` is the sentence a player reads.
pub trait RuleError: fmt::Display {
    fn code(&self) -> &'static str;
}

/// A move token that is not a move of this game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSyntaxError {
    pub message: String,
    /// Byte offset inside the token where reading failed.
    pub at: usize,
}

/// A tag the game could not accept (a setting or the `Position`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The tag at fault.
    pub tag: &'static str,
    pub message: String,
    /// Byte offset inside the tag value, where known.
    pub at: Option<usize>,
}

/// The value of the first tag called `name`.
pub fn tag_value<'a>(tags: &'a [Tag], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|t| t.name == name)
        .map(|t| t.value.as_str())
}

/// One game's rules and notation.
pub trait Game: 'static {
    /// The `Game` tag value (lowercase).
    const NAME: &'static str;
    /// Names accepted besides `NAME` (lowercase).
    const ALIASES: &'static [&'static str] = &[];
    /// The side tags, first-named side first.
    const SIDES: [&'static str; 2];

    type Position: Clone;
    type Move: Clone;
    type Error: RuleError;

    /// The start position: the standard one, or the `Position` tag's, with
    /// the game's settings read from their tags.
    fn start(tags: &[Tag]) -> Result<Self::Position, SetupError>;

    fn side_to_move(pos: &Self::Position) -> Side;

    /// Reads one turn as written (a game's own nom parser).
    fn parse_move(pos: &Self::Position, text: &str) -> Result<Self::Move, MoveSyntaxError>;

    /// Checks a move against every rule and plays it.
    fn play(pos: &mut Self::Position, mv: &Self::Move) -> Result<(), Self::Error>;

    /// Every legal turn, each once, appended to `out`.
    fn legal_moves(pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// Whether the rules have ended the game in this position.
    fn ending(pos: &Self::Position) -> Option<Ending>;

    /// The canonical spelling of a move.
    fn write_move(mv: &Self::Move, out: &mut String);

    /// The position in the game's `Position` notation.
    fn write_position(pos: &Self::Position) -> String;

    /// A phrase for an ending reason, e.g. "on points".
    fn describe_reason(reason: &str) -> String {
        reason.replace('-', " ")
    }
}
