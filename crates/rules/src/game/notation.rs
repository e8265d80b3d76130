//! [`Notation`]: how a game's moves and positions are written — reading and
//! writing a move token and a `Position` string, and naming how a game
//! ended.

use super::Game;

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

/// A move token that is not a move of this game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSyntaxError {
    pub message: String,
    /// Byte offset inside the token where reading failed.
    pub at: usize,
}

/// A `Position` string that cannot be read: why, and the byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub message: String,
    pub at: usize,
}

impl PositionError {
    /// `Err` with this message at this offset.
    pub fn fail<T>(message: impl Into<String>, at: usize) -> Result<T, PositionError> {
        Err(PositionError {
            message: message.into(),
            at,
        })
    }
}

impl From<PositionError> for super::SetupError {
    fn from(e: PositionError) -> Self {
        super::SetupError {
            tag: "Position",
            message: e.message,
            at: Some(e.at),
        }
    }
}

/// The space-separated fields of a position string, each with its byte
/// offset.
pub fn fields_with_offsets(text: &str) -> Vec<(usize, &str)> {
    let mut fields = Vec::new();
    let mut offset = 0;
    for part in text.split(' ') {
        if !part.is_empty() {
            fields.push((offset, part));
        }
        offset += part.len() + 1;
    }
    fields
}

/// Splits a draw offer off a turn: `d1-d2~~` is `d1-d2` with an offer.
pub fn split_draw_offer(text: &str) -> (&str, bool) {
    match text.strip_suffix("~~") {
        Some(rest) => (rest, true),
        None => (text, false),
    }
}

/// Refuses draw offers (`~~`) and acceptances (`==`) in a game without them.
pub fn no_draw_marks(text: &str, game: &str) -> Result<(), MoveSyntaxError> {
    if text.ends_with("~~") || text == "==" {
        return Err(MoveSyntaxError {
            message: format!("draw offers (`~~`) and acceptances (`==`) do not exist in {game}"),
            at: text.len().saturating_sub(2),
        });
    }
    Ok(())
}

/// A game's notation (its `notation.rs`): the record format's move tokens
/// and `Position` strings. Other sites' notations are namespaces of their
/// own ([`super::SiteNotation`]).
pub trait Notation: Game {
    /// How this game's movetext is tokenised.
    const STYLE: MovetextStyle = MovetextStyle {
        semicolons: false,
        commas: false,
    };

    /// Reads one turn as written.
    fn parse_move(pos: &Self::Position, text: &str) -> Result<Self::Move, MoveSyntaxError>;

    /// The canonical spelling of a move.
    fn write_move(mv: &Self::Move, out: &mut String);

    /// Reads a position in the game's `Position` notation, under the
    /// default settings.
    fn parse_position(text: &str) -> Result<Self::Position, PositionError>;

    /// The position in the game's `Position` notation.
    fn write_position(pos: &Self::Position) -> String;

    /// A phrase for an ending reason, e.g. "on points".
    fn describe_reason(reason: &str) -> String {
        reason.replace('-', " ")
    }
}
