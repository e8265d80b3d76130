//! The Zobrist words of Oshi's notation key: a random word per square and
//! piece kind (owner and height), and per square and the other square the
//! piece standing there may not return to. A position keeps their xor
//! over its pieces ([`super::Position::zobrist`] and
//! [`super::Position::returns`]), changed by each move for the pieces it
//! moves, so the key costs no pass over the pieces.

/// SplitMix64's step `i`: the tables' random words.
const fn splitmix(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random word per square and piece (owner and height: 8 kinds)…
static PIECE: [[u64; 8]; 81] = {
    let mut t = [[0; 8]; 81];
    let mut i = 0;
    while i < 81 * 8 {
        t[i / 8][i % 8] = splitmix(i as u64);
        i += 1;
    }
    t
};

/// …and per square and the other square its piece may not return to: 0
/// where that is the same square, or (index 81) none.
static RETURN: [[u64; 82]; 81] = {
    let mut t = [[0; 82]; 81];
    let mut i = 0;
    while i < 81 * 81 {
        let (square, forbidden) = (i / 81, i % 81);
        if square != forbidden {
            t[square][forbidden] = splitmix((1 << 32) + i as u64);
        }
        i += 1;
    }
    t
};

/// The word of a piece of `owner` (0 Red, 1 White) and `height` standing
/// on square index `square`.
#[inline]
pub fn piece(square: usize, owner: usize, height: u8) -> u64 {
    PIECE[square][(owner << 2 | usize::from(height)) & 7]
}

/// The word of a piece standing on square index `square` that may not
/// return to square index `forbidden` (0 where that is `square`; 81: no
/// square, 0).
#[inline]
pub fn forbidden(square: usize, forbidden: usize) -> u64 {
    RETURN[square][forbidden.min(81)]
}
