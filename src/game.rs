//! The seam between the generic machinery (reader, replay, CLI) and a game's
//! rules. A game implements [`Game`]; nothing outside its folder under
//! `src/games/` knows its rules.

pub use crate::record::MovetextStyle;
use crate::record::Tag;
use serde::{Deserialize, Serialize};
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
    /// `None`: drawn (or, when not `decided`, no result).
    pub winner: Option<Side>,
    /// A short stable code, e.g. `points`, `no-legal-move`.
    pub reason: &'static str,
    /// `false`: play cannot go on, but the rules give no result (Vagabond's
    /// stuck position); the declared result stands.
    pub decided: bool,
}

impl Ending {
    pub fn win(side: Side, reason: &'static str) -> Ending {
        Ending {
            winner: Some(side),
            reason,
            decided: true,
        }
    }

    pub fn draw(reason: &'static str) -> Ending {
        Ending {
            winner: None,
            reason,
            decided: true,
        }
    }

    /// Play stops with no result.
    pub fn stuck(reason: &'static str) -> Ending {
        Ending {
            winner: None,
            reason,
            decided: false,
        }
    }
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

impl From<PositionError> for SetupError {
    fn from(e: PositionError) -> Self {
        SetupError {
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

/// A move generator: calls its argument with each legal move until that
/// returns `false`.
pub type Generator<'a, M> = &'a mut dyn FnMut(M) -> bool;

/// Every move a generator produces.
pub fn collect_moves<M>(generate: impl FnOnce(Generator<'_, M>), out: &mut Vec<M>) {
    generate(&mut |m| {
        out.push(m);
        true
    });
}

/// Whether a generator produces any move (it stops at the first).
pub fn any_move<M>(generate: impl FnOnce(Generator<'_, M>)) -> bool {
    let mut any = false;
    generate(&mut |_| {
        any = true;
        false
    });
    any
}

/// The value of the first tag called `name`.
pub fn tag_value<'a>(tags: &'a [Tag], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|t| t.name == name)
        .map(|t| t.value.as_str())
}

/// What one legal move did, as the replay found it (for `convert` and
/// `stats`). Squares are in the record's own notation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveFacts {
    /// The move's full canonical spelling (e.g. Iqishiqi's destination
    /// always written).
    pub canonical: String,
    /// The move's type, kebab-case: e.g. `move`, `drop`, `take`, `deploy`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Pieces the move displaced, captured or scored with, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The turn offers a draw (`~~`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub offer: bool,
}

/// One consequence of a move: a piece pushed, pushed off, captured, taken…
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// `pushed`, `pushed-off`, `captured`, `taken`, `neutral-moved`…
    pub what: String,
    /// The piece, e.g. `White 2-story`, `Guest Wheel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Points the move scored by it (Oshi).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
}

impl Effect {
    pub fn new(what: &str) -> Effect {
        Effect {
            what: what.into(),
            ..Effect::default()
        }
    }
}

/// How a game-specific statistic accumulates over a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// A total, starting at 0.
    Sum,
    /// A maximum, starting at 0.
    Max,
    /// Set once, the first time; empty until then.
    First,
}

/// One game-specific statistic: its column name and how it accumulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    pub name: &'static str,
    pub fold: Fold,
}

impl Stat {
    pub const fn sum(name: &'static str) -> Stat {
        Stat {
            name,
            fold: Fold::Sum,
        }
    }
    pub const fn max(name: &'static str) -> Stat {
        Stat {
            name,
            fold: Fold::Max,
        }
    }
    pub const fn first(name: &'static str) -> Stat {
        Stat {
            name,
            fold: Fold::First,
        }
    }
}

/// The values of a game's [`Stat`]s, in the order `Game::STATS` lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts(pub Vec<Option<u64>>);

impl Counts {
    pub fn new(stats: &[Stat]) -> Counts {
        Counts(
            stats
                .iter()
                .map(|s| (s.fold != Fold::First).then_some(0))
                .collect(),
        )
    }
    /// Adds `n` to a sum.
    pub fn add(&mut self, i: usize, n: u64) {
        let v = self.0[i].get_or_insert(0);
        *v += n;
    }
    /// Raises a maximum to `n`.
    pub fn max(&mut self, i: usize, n: u64) {
        let v = self.0[i].get_or_insert(0);
        *v = (*v).max(n);
    }
    /// Sets a first-time value unless it is already set.
    pub fn first(&mut self, i: usize, n: u64) {
        self.0[i].get_or_insert(n);
    }
}

/// Another site's notation a game is exported to and read back from
/// (`convert --to gardengate`, `--to abstractplay`).
#[derive(Clone, Copy, Debug)]
pub struct SiteFormat {
    /// The `--to`/`--from` name.
    pub name: &'static str,
    /// Tags a game read back from the site gets besides `Game`.
    pub tags: &'static [(&'static str, &'static str)],
    /// Turns are joined with this.
    pub separator: &'static str,
    /// A line starting with this begins a new game (other lines continue
    /// the game); `None`: every line is one game.
    pub game_start: Option<&'static str>,
    /// Whether an input's first token (up to white space or `;`) is a turn
    /// in this notation, for guessing an input's format.
    pub recognizes: fn(&[u8]) -> bool,
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

    /// The side that makes the game's first turn (move numbers `N.` are
    /// its turns). Usually the first-named side.
    fn first_mover(_start: &Self::Position) -> Side {
        Side::First
    }

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

    /// How this game's movetext is tokenised.
    const STYLE: MovetextStyle = MovetextStyle { semicolons: false };

    /// A phrase for an ending reason, e.g. "on points".
    fn describe_reason(reason: &str) -> String {
        reason.replace('-', " ")
    }

    /// What a legal move did: `before` and `after` are the positions around
    /// it.
    fn describe(before: &Self::Position, mv: &Self::Move, after: &Self::Position) -> MoveFacts;

    /// The game-specific statistics `stats` reports, in column order.
    const STATS: &'static [Stat] = &[];

    /// Adds one legal ply (1-based `ply`) to the statistics.
    fn count(
        _before: &Self::Position,
        _mv: &Self::Move,
        _after: &Self::Position,
        _facts: &MoveFacts,
        _ply: usize,
        _counts: &mut Counts,
    ) {
    }

    /// Adds what the final position shows to the statistics.
    fn count_end(_end: &Self::Position, _counts: &mut Counts) {}

    /// The site notation this game exports to, if any.
    const SITE: Option<SiteFormat> = None;

    /// A legal move in [`Game::SITE`]'s notation.
    fn site_move(
        _before: &Self::Position,
        _mv: &Self::Move,
        _after: &Self::Position,
        facts: &MoveFacts,
    ) -> String {
        facts.canonical.clone()
    }
}
