//! What the search needs from Oshi: the key, from each piece's square,
//! height and owner (by its id: the board follows from them), the squares
//! the no-return rule forbids, the score and the side to move; and, at the
//! search's last ply, the turns after which the game surely goes on, and
//! the positions where no turn can win at once.

use super::rules::{goes_on_after, no_win_at_once};
use super::{Move, NoReturn, Oshi, Position};
use crate::game::{Keyer, Outcome, Search};
use std::hash::Hasher;

impl Search for Oshi {
    /// About 34 moves a position.
    const DEPTH: u32 = 3;

    fn key(pos: &Position) -> u64 {
        let square = |s: Option<super::Square>| s.map_or(0u8, |s| 1 + s.index() as u8);
        let mut pieces = [0u8; 48];
        for (id, at) in pos.at.iter().enumerate() {
            let piece = at.and_then(|s| pos.board[s.index()]);
            pieces[3 * id] = square(*at);
            pieces[3 * id + 1] = piece.map_or(0, |p| p.height | (p.owner.index() as u8) << 4);
            pieces[3 * id + 2] = square(pos.forbid[id]);
        }
        let mut k = Keyer::default();
        k.write(&pieces);
        k.word(
            u64::from(pos.score[0])
                | u64::from(pos.score[1]) << 8
                | (pos.to_move.index() as u64) << 16
                | u64::from(pos.no_return == NoReturn::Own) << 17
                | u64::from(pos.ids[0]) << 24
                | u64::from(pos.ids[1]) << 40,
        );
        k.finish()
    }

    /// A turn that pushes nothing and leaves the other side a move: the
    /// game goes on ([`goes_on_after`]); any other is played.
    fn outcome_of(pos: &Position, mv: &Move) -> Option<Outcome> {
        goes_on_after(pos, mv).then_some(Outcome::Open)
    }

    /// No win at once where [`no_win_at_once`] can tell (neither the
    /// points within reach nor the other side ever left without a move);
    /// elsewhere the turns are generated.
    fn wins_at_once(pos: &Position) -> Option<bool> {
        no_win_at_once(pos).then_some(false)
    }

    /// From what the notation writes: each piece's square, height, owner
    /// and no-return square (where it is another square), a Zobrist word
    /// each, xored over the pieces (so the ids, which the notation does not
    /// write, do not count) and kept by the position as moves change it
    /// ([`Position::zobrist`], [`Position::returns`]); which sides the rule binds, the score and
    /// the side to move.
    fn notation_key(pos: &Position) -> u64 {
        let mut k = Keyer::default();
        k.word(pos.zobrist ^ pos.returns[0] ^ pos.returns[1]);
        k.word(
            u64::from(pos.score[0])
                | u64::from(pos.score[1]) << 8
                | (pos.to_move.index() as u64) << 16
                | pos.bound() << 17,
        );
        k.finish()
    }
}
