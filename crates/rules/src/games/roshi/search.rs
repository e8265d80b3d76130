//! What the search needs from Roshi: the default key (the whole position,
//! its setup phase and supplies included); at the search's last ply, the
//! turns that leave every line of five through the stone as it was, and
//! on a board of one word every turn of play, told without playing them.

use super::quick;
use super::rules::outcome_after;
use super::{Move, Position, Roshi};
use crate::game::{Outcome, Search};

impl Search for Roshi {
    /// Hundreds to ten thousand turns a position.
    const DEPTH: u32 = 1;

    /// A pass (a second in a row draws), or a turn that touches no line of
    /// five through the stone ([`outcome_after`]); on a board of one word,
    /// any other turn of play, made on words ([`quick::outcome`]); any
    /// other is played.
    fn outcome_of(pos: &Position, mv: &Move) -> Option<Outcome> {
        outcome_after(pos, mv).or_else(|| quick::outcome(pos, mv))
    }
}
