//! [`Search`]: what a search over the rules needs from a game besides its
//! rules — a 64-bit key for each position (for transposition tables), which
//! turns are agreements rather than board moves, and the default horizon.
//! (The search orders moves by its table only; a game's own ordering is
//! not part of the seam yet.) Copying a position is `Clone::clone_from`
//! (every game's position is a flat value: a copy reuses the target's
//! storage), so the search needs no undo.

use super::{Ending, Rules, Side};
use std::hash::{Hash, Hasher};

/// A game the exact search and the win-chance estimate can play
/// (`games/<game>/search.rs`). Every item has a default.
pub trait Search: Rules {
    /// The horizon `gamerec analyse` searches to by default, in plies
    /// (chosen per game so that a typical position takes milliseconds:
    /// notation/analysis.md).
    const DEPTH: u32 = 3;

    /// The position's key: equal positions have equal keys, and everything
    /// that changes the legal moves or the ending is in it (the default
    /// hashes the whole position through its `Hash`, which agrees with its
    /// `Eq`, so nothing can be left out). A game may compute it faster from
    /// a packed form of its own.
    fn key(pos: &Self::Position) -> u64 {
        key_of(pos)
    }

    /// The key of the position as its `Position` notation writes it: equal
    /// strings have equal keys (the default hashes the string), so two
    /// positions the notation cannot tell apart share one — what the
    /// position index (`gamerec index`) and the opening explorer merge by,
    /// and what `filter --reaches` compares. A game may compute it from its
    /// own fields where they follow from the string alone (a test checks
    /// `key(parse(write(p))) == key(p)` over generated games).
    fn notation_key(pos: &Self::Position) -> u64
    where
        Self: super::Notation,
    {
        key_of(Self::write_position(pos).as_bytes())
    }

    /// Whether a turn is an agreement (accepting a draw offer) rather than
    /// a move on the board: the search plays board moves only, since an
    /// agreement is not a forced outcome.
    fn agreement(_mv: &Self::Move) -> bool {
        false
    }

    /// What playing `mv`, a board turn [`Rules::generate`] made in `pos`,
    /// leads to, told without playing it, where the game can (the search
    /// asks it of every turn at its last ply, where nothing but the
    /// ending after a turn counts): `None` (the default) has the turn
    /// played and [`Rules::ending`] asked. A game answers only where
    /// [`Rules::play_generated`] plays the turn and the answer is what
    /// `ending` would say of the position after it (a test per game checks
    /// this over generated games).
    fn outcome_of(_pos: &Self::Position, _mv: &Self::Move) -> Option<Outcome> {
        None
    }

    /// Whether some board turn of the side to move wins at once (the
    /// position after it decided, that side the winner), told without
    /// generating the turns, where the game can. The search asks it at its
    /// last ply wherever nothing but such a win could lift the position's
    /// score, so one answer stands for the turns a generation would tell
    /// one by one. `None` (the default): they are generated. A game answers
    /// only what generating, playing and asking [`Rules::ending`] would say
    /// (a test per game that answers checks this over generated games).
    fn wins_at_once(_pos: &Self::Position) -> Option<bool> {
        None
    }

    /// Takes back a draw offer the last turn made (the search makes no
    /// offer: a turn that offered is judged as the board move it also
    /// was). Nothing to do in a game without offers.
    fn withdraw_offer(_pos: &mut Self::Position) {}
}

/// What a turn leads to, as [`Search::outcome_of`] tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on, or stops with no result (an ending that is not
    /// `decided`).
    Open,
    /// A decided draw.
    Draw,
    /// A win for this side.
    Win(Side),
}

impl Outcome {
    /// The outcome an [`Ending`] (or none) stands for.
    pub fn of(ending: Option<Ending>) -> Outcome {
        match ending {
            Some(Ending {
                decided: true,
                winner: Some(w),
                ..
            }) => Outcome::Win(w),
            Some(Ending {
                decided: true,
                winner: None,
                ..
            }) => Outcome::Draw,
            _ => Outcome::Open,
        }
    }
}

/// A 64-bit key of anything hashable: each word folded into the state by a
/// 128-bit multiply whose halves are xored (every input bit reaches every
/// state bit at once: the Fx multiply-rotate mix let two Iqishiqi
/// positions whose stone words differed in their top and bottom bits
/// cancel out, which the key test caught), then a SplitMix64 finaliser.
pub fn key_of<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut k = Keyer::default();
    value.hash(&mut k);
    k.finish()
}

/// The hasher behind [`key_of`]; a game computing its own key can feed it
/// packed words.
#[derive(Clone, Copy)]
pub struct Keyer(u64);

impl Default for Keyer {
    fn default() -> Self {
        // π's digits: no all-zero state to start from.
        Keyer(0x243f_6a88_85a3_08d3)
    }
}

impl Keyer {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;

    /// Adds one word.
    #[inline]
    pub fn word(&mut self, w: u64) {
        let m = u128::from(self.0 ^ w) * u128::from(Self::K);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
}

impl Hasher for Keyer {
    #[inline]
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 56));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }

    #[inline]
    fn write_isize(&mut self, i: isize) {
        self.word(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::key_of;

    #[test]
    fn keys_follow_every_part_of_a_value() {
        assert_eq!(key_of(&[1u8, 2, 3]), key_of(&[1u8, 2, 3]));
        assert_ne!(key_of(&[1u8, 2, 3]), key_of(&[1u8, 3, 2]));
        assert_ne!(key_of(&(Some(1u8), false)), key_of(&(Some(1u8), true)));
        assert_ne!(key_of(&None::<u8>), key_of(&Some(0u8)));
    }

    /// Two words whose differences sit in the top bits of one and the
    /// bottom bits of the next (two Iqishiqi positions that met on one key
    /// under a multiply-rotate mix).
    #[test]
    fn top_bits_do_not_cancel_the_next_words_bottom_bits() {
        let a = [0x8000_0000_4000_0080u64, 0x10, 0, 0];
        let b = [0x4000_0000_4000_0080u64, 0x08, 0, 0];
        assert_ne!(key_of(&a), key_of(&b));
        let mut seen = std::collections::HashSet::new();
        for i in 0..64 {
            for j in 0..64 {
                assert!(seen.insert(key_of(&[1u64 << i, 1u64 << j])), "{i} {j}");
            }
        }
    }
}
