//! What the search needs from Retsami: the key, from the board spread to a
//! byte a square (eleven words) and the rest of the position in one word;
//! accepting a draw is an agreement, not searched; whether a turn reaches
//! the Home Square, without generating the turns.

use super::geometry::{corner_count, OnTheWay};
use super::rules::check;
use super::{Action, Move, Position, Retsami, Square, HOME};
use crate::game::{Keyer, Search};
use std::hash::Hasher;

impl Search for Retsami {
    /// About ten moves a position: five plies take milliseconds.
    const DEPTH: u32 = 5;

    fn key(pos: &Position) -> u64 {
        // A byte a square, 1 + the side where a counter stands (the key as
        // it was when the board was kept so: index files hold these keys).
        let mut board = [0u8; 81];
        for (side, &bits) in pos.board.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                board[bits.trailing_zeros() as usize] = 1 + side as u8;
                bits &= bits - 1;
            }
        }
        let mut k = Keyer::default();
        k.write(&board);
        k.word(
            u64::from(pos.off[0])
                | u64::from(pos.off[1]) << 8
                | (pos.to_move.index() as u64) << 16
                | u64::from(pos.offer_pending) << 17
                | u64::from(pos.drawn) << 18
                | (pos.first_mover.index() as u64) << 19,
        );
        k.finish()
    }

    /// Only reaching the Home Square wins, and only by an advance (a
    /// take needs the other side's counter there, which would have won):
    /// whether a counter of the mover may advance there, checked as `play`
    /// checks it, asked only of counters with at most one corner between
    /// them and Home (80 and 79).
    fn wins_at_once(pos: &Position) -> Option<bool> {
        let to = Square::at_way(HOME);
        let mut mine = pos.board[pos.to_move.index()];
        while mine != 0 {
            let i = mine.trailing_zeros() as u8;
            mine &= mine - 1;
            let from = Square::from_index(i).expect("a bit of the board");
            if corner_count(from.way(), HOME) <= 1
                && check(pos, Action::Advance { from, to }).is_ok()
            {
                return Some(true);
            }
        }
        Some(false)
    }

    fn agreement(mv: &Move) -> bool {
        matches!(mv, Move::Accept)
    }

    fn withdraw_offer(pos: &mut Position) {
        pos.offer_pending = false;
    }

    /// The search's key less what the notation does not write: the first
    /// mover, and whether a draw was agreed (a test checks the rest
    /// follows the notation alone, over generated games and an agreed
    /// draw; the fuzz target checks it on every game it replays).
    fn notation_key(pos: &Position) -> u64 {
        let mut p = pos.clone();
        p.first_mover = crate::game::Side::First;
        p.drawn = false;
        Self::key(&p)
    }
}
