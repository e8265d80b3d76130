//! Rectangular boards up to 19×19, squares, the roshi zone.

use crate::games::grid;
use std::fmt;

pub const MAX_SIDE: u8 = 19;
pub const MIN_SIDE: u8 = 5;
/// Cells are numbered `rank * 19 + file`.
pub const CELLS: usize = 361;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq {
    pub rank: u8,
    pub file: u8,
}

impl Sq {
    pub fn index(self) -> usize {
        self.rank as usize * MAX_SIDE as usize + self.file as usize
    }

    /// Reads any `letter digits` square; whether it is on the board is for
    /// the rules to say.
    pub fn parse(text: &str) -> Option<Sq> {
        Sq::from_bytes(text.as_bytes())
    }

    /// [`Sq::parse`] on bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<Sq> {
        grid::square_bytes(bytes, 26, 99).map(|(file, rank)| Sq { file, rank })
    }

    pub fn offset(self, df: i8, dr: i8) -> Option<Sq> {
        let file = self.file as i16 + df as i16;
        let rank = self.rank as i16 + dr as i16;
        ((0..=98).contains(&file) && (0..=98).contains(&rank)).then_some(Sq {
            file: file as u8,
            rank: rank as u8,
        })
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(3);
        grid::write_square(self.file, self.rank, &mut s);
        f.write_str(&s)
    }
}

/// Three ranks to a word.
const RANKS_A_WORD: usize = 3;
/// Bits a rank takes in its word: 19 files and a bit that is never set.
const RANK_BITS: u32 = 20;
/// Words for 19 ranks.
const WORDS: usize = (MAX_SIDE as usize).div_ceil(RANKS_A_WORD);

/// A set of squares: bit `20 · (rank mod 3) + file` of word `rank / 3`. A
/// rank never straddles two words, and bit 19 of every rank and bits 60–63
/// of every word are never set, so a run of set bits always stays inside
/// its rank (what lets [`Bits::flood`] spread whole runs with one add).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits([u64; WORDS]);

impl Bits {
    /// Where a square's bit is: its word and the bit in it. The square must
    /// be on a 19×19 board.
    fn place(s: Sq) -> (usize, u32) {
        let (rank, file) = (usize::from(s.rank), u32::from(s.file));
        let in_word = (rank % RANKS_A_WORD) as u32;
        (rank / RANKS_A_WORD, in_word * RANK_BITS + file)
    }

    /// Every square of a board of size `d`.
    pub fn board(d: Dims) -> Bits {
        let mut b = Bits::default();
        let row = (1u64 << d.files) - 1;
        for rank in 0..usize::from(d.ranks) {
            b.0[rank / RANKS_A_WORD] |= row << ((rank % RANKS_A_WORD) as u32 * RANK_BITS);
        }
        b
    }

    pub fn has(&self, s: Sq) -> bool {
        let (w, b) = Bits::place(s);
        self.0[w] >> b & 1 == 1
    }

    pub fn insert(&mut self, s: Sq) {
        let (w, b) = Bits::place(s);
        self.0[w] |= 1 << b;
    }

    pub fn remove(&mut self, s: Sq) {
        let (w, b) = Bits::place(s);
        self.0[w] &= !(1 << b);
    }

    /// The squares of one rank (below 19) as bits from file a.
    pub fn row(&self, rank: u8) -> u32 {
        let (w, b) = Bits::place(Sq { rank, file: 0 });
        (self.0[w] >> b) as u32 & ((1 << RANK_BITS) - 1)
    }

    /// How many squares.
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The squares, rank by rank from rank 1, each rank from file a.
    pub fn squares(self) -> impl Iterator<Item = Sq> {
        self.0.into_iter().enumerate().flat_map(|(w, mut word)| {
            std::iter::from_fn(move || {
                let b = word.trailing_zeros();
                (word != 0).then(|| {
                    word &= word - 1;
                    Sq {
                        rank: (w * RANKS_A_WORD) as u8 + (b / RANK_BITS) as u8,
                        file: (b % RANK_BITS) as u8,
                    }
                })
            })
        })
    }

    /// The squares of `self` reached from `from` by orthogonal steps through
    /// squares of `self` (`from` itself not counted unless a path leads
    /// back to it), on a board `files` wide.
    pub fn flood(self, from: Sq, files: u8) -> Bits {
        let mut out = Bits(self.fill(from, None, files));
        if !self.has(from) {
            out.remove(from);
        }
        out
    }

    /// Whether `to` is in [`Bits::flood`] from `from` (never `from` itself:
    /// a slide goes somewhere): the fill stops as soon as it gets there.
    pub fn reaches(self, from: Sq, to: Sq, files: u8) -> bool {
        from != to && Bits(self.fill(from, Some(Bits::place(to)), files)).has(to)
    }

    /// A flood fill from `from` through `self` and `from`, a word at a time,
    /// stopped early once the bit `until` is reached. Each round spreads
    /// every word's reach one rank up and down (into the words below and
    /// above too), then along its ranks' runs both ways ([`spread`]), up the
    /// words and back down, until a round changes nothing. No allocation; a few dozen word
    /// operations a word a round.
    fn fill(self, from: Sq, until: Option<(usize, u32)>, files: u8) -> [u64; WORDS] {
        let mut e = self;
        e.insert(from);
        let e = e.0;
        let mut r = Bits::default();
        r.insert(from);
        let mut r = r.0;
        let n = e.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        // Doubling steps that cover a run of `files` bits.
        let steps = u32::BITS - u32::from(files).leading_zeros();
        let step = |r: &mut [u64; WORDS], i: usize| {
            // The rank next to the word below and above (the shift up also
            // brings bits 60–63, which no square has: `e` drops them).
            let mut s = 0;
            if i > 0 {
                s |= r[i - 1] >> (2 * RANK_BITS);
            }
            if i + 1 < n {
                s |= r[i + 1] << (2 * RANK_BITS);
            }
            let s = r[i] | r[i] << RANK_BITS | r[i] >> RANK_BITS | s;
            let y = spread(s & e[i], e[i], steps);
            let grew = y != r[i];
            r[i] = y;
            grew
        };
        loop {
            let mut changed = false;
            for i in 0..n {
                changed |= step(&mut r, i);
            }
            for i in (0..n.saturating_sub(1)).rev() {
                changed |= step(&mut r, i);
            }
            let done = until.is_some_and(|(w, b)| r[w] >> b & 1 == 1);
            if !changed || done {
                return r;
            }
        }
    }
}

/// The runs of `e` holding a bit of `s` (`s` ⊆ `e`), whole: upwards from
/// each seed by the carry of an add, downwards by an occluded fill that
/// doubles its reach each of its `steps` (runs are under 2^steps bits).
fn spread(s: u64, e: u64, steps: u32) -> u64 {
    let up = (e & !e.wrapping_add(s)) | s;
    let (mut g, mut p) = (s, e);
    for k in 0..steps {
        g |= p & (g >> (1 << k));
        p &= p >> (1 << k);
    }
    up | g
}

impl std::ops::BitOr for Bits {
    type Output = Bits;
    fn bitor(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl std::ops::BitAnd for Bits {
    type Output = Bits;
    fn bitand(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl std::ops::Not for Bits {
    type Output = Bits;
    fn not(self) -> Bits {
        Bits(self.0.map(|w| !w))
    }
}

/// The board's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dims {
    pub files: u8,
    pub ranks: u8,
}

impl Dims {
    pub fn contains(self, s: Sq) -> bool {
        s.file < self.files && s.rank < self.ranks
    }

    pub fn squares(self) -> impl Iterator<Item = Sq> {
        (0..self.ranks).flat_map(move |rank| (0..self.files).map(move |file| Sq { rank, file }))
    }

    /// Reads `7x7` (also `7X7`).
    pub fn parse(text: &str) -> Option<Dims> {
        let (a, b) = text.trim().split_once(['x', 'X'])?;
        let (files, ranks) = (a.parse().ok()?, b.parse().ok()?);
        ((MIN_SIDE..=MAX_SIDE).contains(&files) && (MIN_SIDE..=MAX_SIDE).contains(&ranks))
            .then_some(Dims { files, ranks })
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

/// The roshi zone: a rectangle of squares, corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Zone {
    pub lo: Sq,
    pub hi: Sq,
}

impl Zone {
    /// The central 3×3: lower-left at file and rank ⌊(n − 3) / 2⌋.
    pub fn default_for(d: Dims) -> Zone {
        let lo = Sq {
            file: (d.files - 3) / 2,
            rank: (d.ranks - 3) / 2,
        };
        Zone {
            lo,
            hi: Sq {
                file: lo.file + 2,
                rank: lo.rank + 2,
            },
        }
    }

    pub fn contains(self, s: Sq) -> bool {
        (self.lo.file..=self.hi.file).contains(&s.file)
            && (self.lo.rank..=self.hi.rank).contains(&s.rank)
    }

    /// Reads `c3-e5` (any two opposite corners).
    pub fn parse(text: &str) -> Option<Zone> {
        let (a, b) = text.trim().split_once('-')?;
        let (a, b) = (Sq::parse(a)?, Sq::parse(b)?);
        Some(Zone {
            lo: Sq {
                file: a.file.min(b.file),
                rank: a.rank.min(b.rank),
            },
            hi: Sq {
                file: a.file.max(b.file),
                rank: a.rank.max(b.rank),
            },
        })
    }

    pub fn fits(self, d: Dims) -> bool {
        d.contains(self.hi)
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.lo, self.hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_zones_are_central() {
        let z = |n| Zone::default_for(Dims { files: n, ranks: n }).to_string();
        assert_eq!(z(7), "c3-e5");
        assert_eq!(z(9), "d4-f6");
        assert_eq!(z(5), "b2-d4");
        // Even sizes: floor((n - 3) / 2).
        assert_eq!(z(8), "c3-e5");
        assert_eq!(z(19), "i9-k11");
    }

    #[test]
    fn settings_parse() {
        assert_eq!(Dims::parse("9x9"), Some(Dims { files: 9, ranks: 9 }));
        assert_eq!(
            Dims::parse("19X19"),
            Some(Dims {
                files: 19,
                ranks: 19
            })
        );
        for bad in ["4x4", "20x20", "9", "ax9", ""] {
            assert_eq!(Dims::parse(bad), None, "{bad}");
        }
        assert_eq!(Zone::parse("e5-c3").unwrap().to_string(), "c3-e5");
        assert!(!Zone::parse("f6-h8")
            .unwrap()
            .fits(Dims { files: 7, ranks: 7 }));
        assert!(Zone::parse("c3").is_none());
    }
}
