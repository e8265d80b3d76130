//! What the search needs from Oshi: the key, from each piece's square,
//! height and owner (by its id: the board follows from them), the squares
//! the no-return rule forbids, the score and the side to move.

use super::{NoReturn, Oshi, Position};
use crate::game::{Keyer, Search};
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
}
