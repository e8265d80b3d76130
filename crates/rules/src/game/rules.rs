//! [`Rules`]: how a game is played — its start, whose turn it is, playing a
//! move with every rule checked, the one move generator, and the end.

use super::{Ending, Game, Side};
use crate::Tag;
use std::fmt;

/// A move the rules refuse. `code` is a stable kebab-case name for scripts
/// and fixtures; `Display` is the sentence a player reads.
pub trait RuleError: fmt::Display {
    fn code(&self) -> &'static str;
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

/// A move generator's output: called with each legal move until it returns
/// `false`.
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

/// The value of the first tag called `name` (for reading a game's settings).
pub fn tag_value<'a>(tags: &'a [Tag], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|t| t.name == name)
        .map(|t| t.value.as_str())
}

/// A game's rules (its `rules.rs`). One move generator is required; the
/// list of legal moves and whether there is one are provided from it (a
/// game may answer `has_legal_move` faster itself).
pub trait Rules: Game {
    type Error: RuleError;

    /// The tags [`Rules::start`] reads the game's settings from, besides
    /// `Position` (what makes two games with the same moves the same game:
    /// `dedup`).
    const SETTINGS: &'static [&'static str] = &[];

    /// The start position: the standard one, or the `Position` tag's, with
    /// the game's settings read from their tags.
    fn start(tags: &[Tag]) -> Result<Self::Position, SetupError>;

    fn side_to_move(pos: &Self::Position) -> Side;

    /// The side that makes the game's first turn (move numbers `N.` are
    /// its turns). Usually the first-named side.
    fn first_mover(_start: &Self::Position) -> Side {
        Side::First
    }

    /// Checks a move against every rule and plays it; a refused move leaves
    /// the position as it was.
    fn play(pos: &mut Self::Position, mv: &Self::Move) -> Result<(), Self::Error>;

    /// Plays a move as [`Rules::play`] does and says what it ended: what
    /// [`Rules::ending`] says of the position it makes (a replay asks after
    /// every move). The default asks `ending`; a game that learns the
    /// ending while it plays (the cell the move reached, a capture) or can
    /// tell cheaply that play goes on answers itself, so that `ending`
    /// costs nothing after most moves. A refused move leaves the position
    /// as it was.
    fn play_ending(
        pos: &mut Self::Position,
        mv: &Self::Move,
    ) -> Result<Option<Ending>, Self::Error> {
        Self::play(pos, mv)?;
        Ok(Self::ending(pos))
    }

    /// Reads the turn spelled `text` and plays it in one step, where the
    /// game has a way faster than [`Notation::parse_move`] then
    /// [`Rules::play_ending`] and takes this turn: `Some` of what
    /// `play_ending` would say, the position made as it would make it.
    /// `None`: not taken, `pos` untouched; the caller reads and plays the
    /// turn the usual way, which gives every error. The lean reading path
    /// asks this first; the default takes nothing.
    ///
    /// [`Notation::parse_move`]: super::Notation::parse_move
    fn play_written(_pos: &mut Self::Position, _text: &str) -> Option<Option<Ending>> {
        None
    }

    /// Plays a turn [`Rules::generate`] produced in this very position (what
    /// the search plays): the same position [`Rules::play`] makes, but a
    /// game may skip the checks its generator has already made (Roshi skips
    /// the flood fill that proves a slide's path, and plays the turn in
    /// place). The default is `play`. Unlike `play`, a turn it refuses
    /// (never one the generator made) may leave the position part played:
    /// every caller drops the position then.
    fn play_generated(pos: &mut Self::Position, mv: &Self::Move) -> Result<(), Self::Error> {
        Self::play(pos, mv)
    }

    /// Calls `emit` with every legal turn, each once, until it returns
    /// `false`.
    fn generate(pos: &Self::Position, emit: Generator<'_, Self::Move>);

    /// Every legal turn, each once, appended to `out`.
    fn legal_moves(pos: &Self::Position, out: &mut Vec<Self::Move>) {
        collect_moves(|emit| Self::generate(pos, emit), out)
    }

    /// How many legal turns the side to move has: `legal_moves(pos).len()`,
    /// counted without building them. A game whose turns are pairs of
    /// actions counts the pairs (Roshi), so that counting stays cheap where
    /// a position has a million turns.
    fn count_legal_moves(pos: &Self::Position) -> usize {
        let mut n = 0;
        Self::generate(pos, &mut |_| {
            n += 1;
            true
        });
        n
    }

    /// Whether the side to move has a legal turn.
    fn has_legal_move(pos: &Self::Position) -> bool {
        any_move(|emit| Self::generate(pos, emit))
    }

    /// Whether the rules have ended the game in this position.
    fn ending(pos: &Self::Position) -> Option<Ending>;
}
