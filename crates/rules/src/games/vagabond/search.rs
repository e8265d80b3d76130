//! What the search needs from Vagabond Pai Sho: the default key (the whole
//! position, reserves and a pending offer included); accepting a draw is an
//! agreement, not searched; what a turn ends is told without playing it
//! (only taking a Lotus ends the game with a result), and whether any turn
//! takes a Lotus, without generating the turns.

use super::rules::check_shift;
use super::{Body, Move, Point, Position, TileCode, Vagabond};
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

    /// Only taking a Lotus wins: whether a tile of the mover may move onto
    /// one of the other side's, checked as `play` checks a move.
    fn wins_at_once(pos: &Position) -> Option<bool> {
        let me = pos.to_move;
        let lotus = |p: &Point| {
            pos.at(*p)
                .is_some_and(|t| t.code == TileCode::L && t.owner != me)
        };
        let mine = |a: &Point| pos.at(*a).is_some_and(|t| t.owner == me);
        Some(Point::all().filter(lotus).any(|q| {
            Point::all()
                .filter(mine)
                .any(|a| check_shift(pos, a, q).is_ok())
        }))
    }

    fn agreement(mv: &Move) -> bool {
        mv.body == Body::Accept
    }

    fn withdraw_offer(pos: &mut Position) {
        pos.offer_pending = false;
    }
}
