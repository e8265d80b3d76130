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

/// Words for the largest board: 19 files take 20 bits a rank, three ranks
/// a word, so 19 ranks take seven.
const WORDS: usize = 7;
/// Board widths a set is laid out for (an index by files, 0 unused).
const WIDTHS: usize = MAX_SIDE as usize + 1;

/// Where each rank of a board `files` wide starts: its word and the bit of
/// its file a. A rank takes `files + 1` bits, the last never set, and a
/// word holds as many whole ranks as fit.
const fn rank_starts() -> [[(u8, u8); MAX_SIDE as usize]; WIDTHS] {
    let mut out = [[(0, 0); MAX_SIDE as usize]; WIDTHS];
    let mut files = 1;
    while files < WIDTHS {
        let stride = files + 1;
        let per_word = 64 / stride;
        let mut rank = 0;
        while rank < MAX_SIDE as usize {
            out[files][rank] = ((rank / per_word) as u8, ((rank % per_word) * stride) as u8);
            rank += 1;
        }
        files += 1;
    }
    out
}

/// The square of each bit of a word, for a board `files` wide: the rank
/// within the word and the file (a bit past the word's last rank has a rank
/// no board reaches).
const fn bit_squares() -> [[(u8, u8); 64]; WIDTHS] {
    let mut out = [[(0, 0); 64]; WIDTHS];
    let mut files = 1;
    while files < WIDTHS {
        let stride = files + 1;
        let mut b = 0;
        while b < 64 {
            out[files][b] = ((b / stride) as u8, (b % stride) as u8);
            b += 1;
        }
        files += 1;
    }
    out
}

static RANK_STARTS: [[(u8, u8); MAX_SIDE as usize]; WIDTHS] = rank_starts();
static BIT_SQUARES: [[(u8, u8); 64]; WIDTHS] = bit_squares();

/// A set of squares of a board `files` wide: each rank takes `files + 1`
/// bits of a word (bit `start + file`), the last never set, and a word
/// holds as many whole ranks as fit (eight ranks of the default 7×7 board:
/// one word). A rank never straddles two words and the bits past a word's
/// last rank are never set, so a run of set bits always stays inside its
/// rank (what lets [`Bits::flood`] spread whole runs with one add).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    pub(super) words: [u64; WORDS],
    files: u8,
}

impl Bits {
    /// No square, of a board `files` wide (at most 19).
    pub fn none(files: u8) -> Bits {
        Bits {
            words: [0; WORDS],
            files,
        }
    }

    /// Where a square's bit is: its word and the bit in it. The square must
    /// be on a 19×19 board. Sets of one board share their places.
    pub fn place(&self, s: Sq) -> (usize, u32) {
        let (w, b) = RANK_STARTS[usize::from(self.files)][usize::from(s.rank)];
        (usize::from(w), u32::from(b) + u32::from(s.file))
    }

    /// The bits a rank takes.
    fn stride(&self) -> u32 {
        u32::from(self.files) + 1
    }

    /// Every square of a board of size `d`.
    pub fn board(d: Dims) -> Bits {
        let mut b = Bits::none(d.files);
        let row = (1u64 << d.files) - 1;
        for rank in 0..d.ranks {
            let (w, at) = b.place(Sq { rank, file: 0 });
            b.words[w] |= row << at;
        }
        b
    }

    /// Whether the bit at `place` (from [`Bits::place`]) is set.
    pub fn has_at(&self, (w, b): (usize, u32)) -> bool {
        self.words[w] >> b & 1 == 1
    }

    /// Sets or clears the bit at `place`.
    pub fn set_at(&mut self, (w, b): (usize, u32), on: bool) {
        self.words[w] = self.words[w] & !(1 << b) | u64::from(on) << b;
    }

    /// For each of two sets, whether five squares in a row (rank, file or
    /// diagonal) through `s` are all in the set or `s`, where both sets and
    /// `s` lie in the first word (always on the default 7×7 board): a
    /// window of five slid along each line by shifts (a step off the side of
    /// the board lands on a rank's last bit, a step past the word's last
    /// rank on a bit past it, neither ever set). `None` where a set or `s`
    /// has squares in other words, or the board is more than 13 files wide
    /// (a window of five along a diagonal would shift by 64 bits or more).
    pub fn fives_through(sets: [&Bits; 2], s: Sq) -> Option<[bool; 2]> {
        let (w, b) = sets[0].place(s);
        if w != 0
            || sets[0].files > 13
            || sets
                .iter()
                .any(|set| set.words[1..].iter().any(|&w| w != 0))
        {
            return None;
        }
        Some(fives_in_words(
            [sets[0].words[0], sets[1].words[0]],
            1 << b,
            sets[0].files,
        ))
    }

    pub fn has(&self, s: Sq) -> bool {
        let (w, b) = self.place(s);
        self.words[w] >> b & 1 == 1
    }

    pub fn insert(&mut self, s: Sq) {
        let (w, b) = self.place(s);
        self.words[w] |= 1 << b;
    }

    pub fn remove(&mut self, s: Sq) {
        let (w, b) = self.place(s);
        self.words[w] &= !(1 << b);
    }

    /// The squares of one rank (below 19) as bits from file a.
    pub fn row(&self, rank: u8) -> u32 {
        let (w, b) = self.place(Sq { rank, file: 0 });
        (self.words[w] >> b) as u32 & ((1 << self.stride()) - 1)
    }

    /// How many squares.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The squares, rank by rank from rank 1, each rank from file a.
    pub fn squares(self) -> impl Iterator<Item = Sq> {
        let at = &BIT_SQUARES[usize::from(self.files)];
        let per_word = (64 / self.stride()) as u8;
        (self.words.into_iter().enumerate()).flat_map(move |(w, mut word)| {
            std::iter::from_fn(move || {
                let b = word.trailing_zeros();
                (word != 0).then(|| {
                    word &= word - 1;
                    let (rank, file) = at[b as usize];
                    Sq {
                        rank: w as u8 * per_word + rank,
                        file,
                    }
                })
            })
        })
    }

    /// The squares of `self` reached from `from` by orthogonal steps through
    /// squares of `self` (`from` itself not counted unless a path leads
    /// back to it), on a board `files` wide.
    pub fn flood(self, from: Sq) -> Bits {
        let mut out = Bits {
            words: self.fill(from, None),
            files: self.files,
        };
        if !self.has(from) {
            out.remove(from);
        }
        out
    }

    /// Whether `to` is in [`Bits::flood`] from `from` (never `from` itself:
    /// a slide goes somewhere): the fill stops as soon as it gets there.
    pub fn reaches(self, from: Sq, to: Sq) -> bool {
        let (w, b) = self.place(to);
        from != to && self.fill(from, Some((w, b)))[w] >> b & 1 == 1
    }

    /// A flood fill from `from` through `self` and `from`, a word at a time,
    /// stopped early once the bit `until` is reached. Each round spreads
    /// every word's reach one rank up and down (into the words below and
    /// above too), then along its ranks' runs both ways ([`spread`]), up the
    /// words and back down, until a round changes nothing. No allocation; a
    /// few dozen word operations a word a round (the default board is one
    /// word).
    fn fill(self, from: Sq, until: Option<(usize, u32)>) -> [u64; WORDS] {
        let (w, b) = self.place(from);
        // Doubling steps that cover a run of `files` bits.
        let steps = u32::BITS - u32::from(self.files).leading_zeros();
        let stride = self.stride();
        let mut r = [0; WORDS];
        if w == 0 && self.words[1..].iter().all(|&w| w == 0) {
            // One word (the default board): no word above or below.
            let stop = until.map_or(0, |(w, b)| u64::from(w == 0) << b);
            r[0] = fill_word(self.words[0], 1 << b, stop, self.files);
            return r;
        }
        let mut e = self.words;
        e[w] |= 1 << b;
        r[w] = 1 << b;
        let n = e.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
        // From a word's first rank to its last.
        let across = (64 / stride - 1) * stride;
        let reached = |r: &[u64; WORDS]| until.is_some_and(|(w, b)| r[w] >> b & 1 == 1);
        let step = |r: &mut [u64; WORDS], i: usize| {
            // The rank next to the word below and above (the shift up also
            // brings bits past the word's last rank, which no square has:
            // `e` drops them).
            let mut s = 0;
            if i > 0 {
                s |= r[i - 1] >> across;
            }
            if i + 1 < n {
                s |= r[i + 1] << across;
            }
            let s = r[i] | r[i] << stride | r[i] >> stride | s;
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
            if !changed || reached(&r) {
                return r;
            }
        }
    }
}

/// [`Bits::fives_through`] on two first words `m` of a board `files` wide,
/// the stone's bit `at`.
pub(super) fn fives_in_words(m: [u64; 2], at: u64, files: u8) -> [bool; 2] {
    // A line of five through the stone holds four of a side's pieces: a
    // side with fewer has none (most turns of a game's first half).
    let four = |x: u64| {
        let x = x & x.wrapping_sub(1);
        let x = x & x.wrapping_sub(1);
        x & x.wrapping_sub(1) != 0
    };
    if !four(m[0]) && !four(m[1]) {
        return [false, false];
    }
    let m = [m[0] | at, m[1] | at];
    // The default board's ranks take 8 bits: each line a byte.
    match files {
        7 => [fives_in_bytes(m[0], at), fives_in_bytes(m[1], at)],
        _ => fives_in_word(m, at, u32::from(files) + 1),
    }
}

/// For each byte read as eight squares of a line, the squares that lie in
/// a run of five or more of its bits.
static IN_FIVE: [u8; 256] = in_five();

const fn in_five() -> [u8; 256] {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut p = 0;
        while p < 8 {
            let (mut lo, mut hi) = (p, p);
            while lo > 0 && byte >> (lo - 1) & 1 == 1 {
                lo -= 1;
            }
            while hi < 7 && byte >> (hi + 1) & 1 == 1 {
                hi += 1;
            }
            if byte >> p & 1 == 1 && hi - lo >= 4 {
                table[byte] |= 1 << p;
            }
            p += 1;
        }
        byte += 1;
    }
    table
}

/// The squares of the diagonal (`anti`: the anti-diagonal) through each
/// bit of a word of ranks 8 bits apart.
static DIAGONALS: [[u64; 64]; 2] = diagonals();

const fn diagonals() -> [[u64; 64]; 2] {
    let mut lines = [[0; 64]; 2];
    let mut at = 0;
    while at < 64 {
        let (file, rank) = (at % 8, at / 8);
        let mut other = 0;
        while other < 64 {
            let (f, r) = (other % 8, other / 8);
            if f + rank == r + file {
                lines[0][at] |= 1 << other;
            }
            if f + r == file + rank {
                lines[1][at] |= 1 << other;
            }
            other += 1;
        }
        at += 1;
    }
    lines
}

/// Whether `m` (a side's pieces and the stone, ranks 8 bits apart, at
/// most eight) holds five in a row through the stone's bit `at`: each line
/// through it gathered into a byte — its rank as it is, its file and
/// diagonals by a multiply (each of their squares on a rank and a file of
/// its own, so no two products meet) — and looked up in [`IN_FIVE`].
#[inline(always)]
fn fives_in_bytes(m: u64, at: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let at_bit = at.trailing_zeros() & 63;
    let (file, rank) = (at_bit % 8, at_bit / 8);
    let gather = |x: u64, by: u64| (x.wrapping_mul(by) >> 56) as usize;
    let rank_line = (m >> (8 * rank)) as u8 as usize;
    let file_line = gather(m >> file & ONES, 0x0102_0408_1020_4080);
    let diagonal = gather(m & DIAGONALS[0][at_bit as usize], ONES);
    let anti = gather(m & DIAGONALS[1][at_bit as usize], ONES);
    (IN_FIVE[rank_line] | IN_FIVE[diagonal] | IN_FIVE[anti]) >> file & 1 == 1
        || IN_FIVE[file_line] >> rank & 1 == 1
}

/// [`fives_in_words`], ranks `stride` bits apart.
#[inline(always)]
fn fives_in_word(m: [u64; 2], at: u64, stride: u32) -> [bool; 2] {
    let (mut f0, mut f1) = (0, 0);
    for d in [1, stride, stride + 1, stride - 1] {
        // Where the five squares from a bit of `m` on are all in `m`.
        let starts = |m: u64| {
            let two = m & m >> d;
            two & two >> (2 * d) & m >> (4 * d)
        };
        // A line of five through `at` starts on it or one of the four
        // squares before it.
        let back = at | at >> d;
        let through = back | back >> (2 * d) | at >> (4 * d);
        f0 |= starts(m[0]) & through;
        f1 |= starts(m[1]) & through;
    }
    [f0 != 0, f1 != 0]
}

/// [`Bits::fill`] within one word of a board `files` wide: the squares of
/// `e` reached from `seed` by orthogonal steps through `e` and `seed`,
/// stopped early once a bit of `stop` is reached.
pub(super) fn fill_word(e: u64, seed: u64, stop: u64, files: u8) -> u64 {
    // The default board's 7 files: shifts by a constant.
    match files {
        7 => fill_word_of(e, seed, stop, 7),
        _ => fill_word_of(e, seed, stop, files),
    }
}

#[inline(always)]
fn fill_word_of(e: u64, seed: u64, stop: u64, files: u8) -> u64 {
    let e = e | seed;
    let stride = u32::from(files) + 1;
    // Doubling steps that cover a run of `files` bits.
    let steps = u32::BITS - u32::from(files).leading_zeros();
    let mut r = seed;
    loop {
        let y = spread((r | r << stride | r >> stride) & e, e, steps);
        if y == r || y & stop != 0 {
            return y;
        }
        r = y;
    }
}

/// Whether `to` is reached from `seed` by orthogonal steps through `e`
/// within one word of a board `files` wide: a step at a time, stopping as
/// soon as `to` is reached (a slide as written is usually a few steps
/// long; [`fill_word`] fills whole runs, for the generator's full floods).
/// Whether, on a board of one word 7 files wide (a rank 8 bits), one of
/// the two shortest bent paths from `from` to `to` — along the rank, then
/// the file, or the file, then the rank — lies in `e` (which holds both
/// ends): the slide's path found without a search (most slides as
/// written have one). `false` says nothing: search.
#[inline(always)]
pub(super) fn bent_path_clear(e: u64, from: Sq, to: Sq) -> bool {
    let span = |a: u8, b: u8| (a.min(b), a.max(b));
    let row = |rank: u8, (lo, hi): (u8, u8)| ((2u64 << hi) - (1u64 << lo)) << (8 * rank);
    let file = |f: u8, (lo, hi): (u8, u8)| {
        (0x0101_0101_0101_0101u64 << f) & (!0u64 >> (56 - 8 * hi)) & (!0u64 << (8 * lo))
    };
    let (files, ranks) = (span(from.file, to.file), span(from.rank, to.rank));
    let first = row(from.rank, files) | file(to.file, ranks);
    let second = file(from.file, ranks) | row(to.rank, files);
    first & !e == 0 || second & !e == 0
}

#[inline(always)]
pub(super) fn reaches_word(e: u64, seed: u64, to: u64, files: u8) -> bool {
    // The default board's ranks take 8 bits: shifts by a constant.
    match files {
        7 => reaches_word_of(e, seed, to, 8),
        _ => reaches_word_of(e, seed, to, u32::from(files) + 1),
    }
}

#[inline(always)]
fn reaches_word_of(e: u64, seed: u64, to: u64, stride: u32) -> bool {
    let e = e | seed;
    // A step off a rank's end lands on the bit after it, never a square.
    let step = |r: u64| (r | r << 1 | r >> 1 | r << stride | r >> stride) & e;
    let mut r = seed;
    loop {
        // Two steps a round: half the rounds' branches.
        let n = step(step(r));
        if n & to != 0 {
            return true;
        }
        if n == r {
            return false;
        }
        r = n;
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
        Bits {
            words: std::array::from_fn(|i| self.words[i] | o.words[i]),
            files: self.files,
        }
    }
}

impl std::ops::BitAnd for Bits {
    type Output = Bits;
    fn bitand(self, o: Bits) -> Bits {
        Bits {
            words: std::array::from_fn(|i| self.words[i] & o.words[i]),
            files: self.files,
        }
    }
}

impl std::ops::Not for Bits {
    type Output = Bits;
    fn not(self) -> Bits {
        Bits {
            words: self.words.map(|w| !w),
            files: self.files,
        }
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
    fn every_square_has_a_bit_of_its_own_on_every_board() {
        for files in MIN_SIDE..=MAX_SIDE {
            for ranks in MIN_SIDE..=MAX_SIDE {
                let d = Dims { files, ranks };
                let board = Bits::board(d);
                assert_eq!(
                    board.count(),
                    usize::from(files) * usize::from(ranks),
                    "{d}"
                );
                let mut all = Bits::none(files);
                for (n, s) in d.squares().enumerate() {
                    let mut one = Bits::none(files);
                    one.insert(s);
                    assert_eq!(one.squares().collect::<Vec<_>>(), [s], "{d} {s}");
                    assert!(board.has(s) && !all.has(s), "{d} {s}");
                    all.insert(s);
                    assert_eq!(all.count(), n + 1, "{d} {s}");
                    assert!(all.has_at(all.place(s)));
                }
                assert_eq!(all, board, "{d}");
                assert!(d.squares().eq(board.squares()), "{d}");
            }
        }
    }

    /// On every board of one word, a step-at-a-time search reaches what
    /// the fill of whole runs reaches, from every square of random sets;
    /// on those 7 files wide, a bent path found clear is one the fill
    /// finds.
    #[test]
    fn a_search_step_by_step_reaches_what_the_fill_reaches() {
        let mut rng = crate::testkit::Random::new(3);
        let mut word = || (0..64).fold(0u64, |m, i| m | (rng.below(2) as u64) << i);
        let (mut reached, mut bent) = ([0; 2], 0);
        for files in MIN_SIDE..=MAX_SIDE {
            for ranks in MIN_SIDE..=MAX_SIDE {
                let d = Dims { files, ranks };
                let board = Bits::board(d);
                if board.words[1] != 0 {
                    continue;
                }
                for _ in 0..40 {
                    let e = board.words[0] & (word() | word());
                    for s in d.squares() {
                        let seed = 1 << board.place(s).1;
                        let filled = fill_word(e, seed, 0, files);
                        for t in d.squares() {
                            let to = 1 << board.place(t).1;
                            let by_steps = reaches_word(e & !seed, seed, to & e, files);
                            assert_eq!(by_steps, filled & to & e != 0, "{d} {s} {t} {e:x}");
                            reached[usize::from(by_steps)] += 1;
                            // A bent path found clear is a path.
                            if files == 7 && bent_path_clear(e | seed, s, t) {
                                assert!(filled & to != 0, "{d} {s} {t} {e:x}");
                                bent += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(reached[0] > 100_000 && reached[1] > 100_000, "{reached:?}");
        assert!(bent > 10_000, "{bent}");
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
