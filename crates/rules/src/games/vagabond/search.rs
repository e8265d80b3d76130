//! What the search needs from Vagabond Pai Sho: the default key (the whole
//! position, reserves and a pending offer included); accepting a draw is an
//! agreement, not searched; what a turn ends is told without playing it
//! (only taking a Lotus ends the game with a result).

use super::{Body, Move, Position, TileCode, Vagabond};
use crate::game::{Outcome, Search};

impl Search for Vagabond {
    /// About a thousand turns a position.
    const DEPTH: u32 = 1;

    /// A move onto a Lotus takes it and wins (the generator lets a tile
    /// take only the other side's); any other board turn leaves the game
    /// going on, or stuck with no result. Accepting a draw is not a board
    /// turn: played.
    fn outcome_of(pos: &Position, mv: &Move) -> Option<Outcome> {
        match mv.body {
            Body::Shift { to, .. } => Some(match pos.at(to) {
                Some(t) if t.code == TileCode::L => Outcome::Win(pos.to_move),
                _ => Outcome::Open,
            }),
            Body::Deploy { .. } => Some(Outcome::Open),
            Body::Accept => None,
        }
    }

    fn agreement(mv: &Move) -> bool {
        mv.body == Body::Accept
    }

    fn withdraw_offer(pos: &mut Position) {
        pos.offer_pending = false;
    }
}
