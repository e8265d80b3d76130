//! What the search needs from Oshi: the key, from each piece's square,
//! height and owner (by its id: the board follows from them), the squares
//! the no-return rule forbids, the score and the side to move; and, at the
//! search's last ply, the turns after which the game surely goes on.

use super::rules::goes_on_after;
use super::{Move, NoReturn, Oshi, Position};
use crate::game::{Keyer, Outcome, Search};
use std::hash::Hasher;

/// SplitMix64's step `i`: the Zobrist tables' random words.
const fn splitmix(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random word per square and piece (owner and height: 8 kinds)…
static PIECE: [u64; 81 * 8] = {
    let mut t = [0; 81 * 8];
    let mut i = 0;
    while i < t.len() {
        t[i] = splitmix(i as u64);
        i += 1;
    }
    t
};

/// …and per square and the other square its piece may not return to.
static RETURN: [u64; 81 * 81] = {
    let mut t = [0; 81 * 81];
    let mut i = 0;
    while i < t.len() {
        t[i] = splitmix((1 << 32) + i as u64);
        i += 1;
    }
    t
};

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

    /// From what the notation writes: each piece's square, height, owner
    /// and no-return square (where it is another square), a Zobrist word
    /// each, xored over the pieces (so the ids, which the notation does not
    /// write, do not count); which sides the rule binds, the score and the
    /// side to move.
    fn notation_key(pos: &Position) -> u64 {
        // Zobrist: the pieces' words xored, whatever their ids, taken over
        // the ids the sides hold (a piece pushed off has no square).
        let mut sum = 0u64;
        let mut bound = 0u64;
        let mut live = u32::from(pos.ids[0] | pos.ids[1]);
        while live != 0 {
            let id = live.trailing_zeros() as usize;
            live &= live - 1;
            let Some(at) = pos.at[id] else { continue };
            let s = at.index();
            let Some(piece) = pos.board[s] else { continue };
            let owner = piece.owner.index();
            sum ^= PIECE[s * 8 + (owner << 2 | usize::from(piece.height & 3))];
            if let Some(r) = pos.forbid[id] {
                bound |= 1 << owner;
                let r = r.index();
                if r != s {
                    sum ^= RETURN[s * 81 + r];
                }
            }
        }
        let mut k = Keyer::default();
        k.word(sum);
        k.word(
            u64::from(pos.score[0])
                | u64::from(pos.score[1]) << 8
                | (pos.to_move.index() as u64) << 16
                | bound << 17,
        );
        k.finish()
    }
}
