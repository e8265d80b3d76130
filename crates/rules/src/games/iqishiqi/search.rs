//! What the search needs from Iqishiqi: the key, from the stones' bit
//! words, the neutral stone, the side to move, the supply and the label
//! scheme; at the search's last ply, the endings told without playing.

use super::rules::{outcome_after, wins_at_once};
use super::{Iqishiqi, Move, Position};
use crate::game::{Keyer, Outcome, Search};
use std::hash::Hasher;

impl Search for Iqishiqi {
    /// About forty drops a position.
    const DEPTH: u32 = 3;

    /// The neutral stone on a corner or an edge, the next player without
    /// a stone, or a drop behind it that pushes it on ([`outcome_after`]);
    /// any other turn is played.
    fn outcome_of(pos: &Position, mv: &Move) -> Option<Outcome> {
        outcome_after(pos, mv)
    }

    /// A corner or the mover's edge at the end of an open ray, or the next
    /// player left no move, found by trying only the drops that could do it
    /// ([`wins_at_once`]).
    fn wins_at_once(pos: &Position) -> Option<bool> {
        wins_at_once(pos)
    }

    fn key(pos: &Position) -> u64 {
        let mut k = Keyer::default();
        for w in pos.bits {
            k.word(w);
        }
        k.word(
            u64::from(pos.neutral.q as u8)
                | u64::from(pos.neutral.r as u8) << 8
                | (pos.to_move.index() as u64) << 16
                | (pos.coords as u64) << 17
                | u64::from(pos.stones_left.is_some()) << 20
                | u64::from(pos.stones_left.unwrap_or(0)) << 32,
        );
        k.finish()
    }

    /// The search's key: every field it hashes is in the notation (the
    /// cells' labels follow the `Coords` setting; a test checks it over
    /// generated games).
    fn notation_key(pos: &Position) -> u64 {
        Self::key(pos)
    }
}
