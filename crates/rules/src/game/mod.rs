//! The seam between the generic machinery and a game. A game is a type that
//! implements one small trait per concern, each in its own module here and
//! in its own file of the game's folder under `games/<game>/`:
//!
//! - [`Game`] (the game's `mod.rs`): its name, its sides, its position and
//!   move types — constants only;
//! - [`Rules`] (`rules.rs`): the start, the side to move, playing a move, the
//!   one move generator, the end of the game;
//! - [`Notation`] (`notation.rs`): reading and writing a move and a
//!   `Position` string;
//! - [`Facts`] (`facts.rs`): what a legal move did, and the game's own
//!   statistics as a typed struct;
//! - [`Picture`] (`picture.rs`): what a position looks like — the board's
//!   cells, the pieces, the counts beside it, the last move's marks;
//! - [`Search`] (`search.rs`): a position's key, which turns are
//!   agreements, the default horizon — what a search needs;
//! - [`Evaluate`] (`evaluate.rs`): the features of a
//!   position a player would name, and their fitted weights — what the
//!   win-chance estimate weighs;
//! - [`SiteNotation`] (`site.rs`, optional): another site's move notation.
//!
//! Nothing outside a game's folder knows its rules: the generic code is
//! written against these traits, and gamerec's registry turns each game
//! into an object its command line can pick by name.

mod evaluate;
mod facts;
mod notation;
mod picture;
mod rules;
mod search;
mod site;

pub use evaluate::{after_each_turn, Evaluate};
pub use facts::{Column, Effect, Facts, First, Fold, Max, MoveFacts, Stat, Statistics, Sum};
pub use notation::{
    fields_with_offsets, no_draw_marks, split_draw_offer, MoveSyntaxError, MovetextStyle, Notation,
    PositionError,
};
pub use picture::{
    Board, Cell, Glyph, Kind, Label, Line, LineKind, Marks, Note, Picture, Piece, Shape,
};
pub use rules::{any_move, collect_moves, tag_value, Generator, RuleError, Rules, SetupError};
pub use search::{key_of, Keyer, Outcome, Search};
pub use site::{SiteFiles, SiteFormat, SiteNotation};

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
    /// `false`: play cannot go on, but the rules give no result (a stuck
    /// position); the declared result stands.
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

/// What a game is: its names, its sides and the types its other traits
/// speak of. Implemented in the game's `mod.rs`, with constants only.
pub trait Game: Sized + 'static {
    /// The `Game` tag value (lowercase).
    const NAME: &'static str;
    /// The game's name as people write it (`Vagabond Pai Sho`).
    const TITLE: &'static str;
    /// Names accepted besides `NAME` (lowercase).
    const ALIASES: &'static [&'static str] = &[];
    /// The side tags, first-named side first.
    const SIDES: [&'static str; 2];

    type Position: Clone + Eq + std::hash::Hash + Send + Sync;
    type Move: Clone;
}
