//! The hex-hex board with 8 cells a side: 169 cells in axial coordinates
//! (q, r), centre (0, 0), valid where |q| ≤ 7, |r| ≤ 7 and |q − r| ≤ 7.

use crate::game::Side;

pub const RADIUS: i8 = 7;
pub const CELLS: usize = 169;
/// Cells are stored in a 15×15 grid; `(q + 7) * 15 + (r + 7)`.
pub const GRID: usize = 225;

/// No neighbour that way (off the board), in [`STEPS`].
pub const OFF: u8 = u8::MAX;

/// By grid index and direction ([`Dir::index`]): the neighbour's grid index,
/// or [`OFF`]. For the hot paths that walk the board by index.
pub static STEPS: [[u8; 6]; GRID] = steps();

const fn on_board(q: i8, r: i8) -> bool {
    q.abs() <= RADIUS && r.abs() <= RADIUS && (q - r).abs() <= RADIUS
}

const fn steps() -> [[u8; 6]; GRID] {
    // In `Dir::ALL` order: E, W, NNE, SSW, NNW, SSE.
    let deltas: [(i8, i8); 6] = [(1, 0), (-1, 0), (1, 1), (-1, -1), (0, 1), (0, -1)];
    let mut table = [[OFF; 6]; GRID];
    let mut i = 0;
    while i < GRID {
        let (q, r) = ((i / 15) as i8 - RADIUS, (i % 15) as i8 - RADIUS);
        if on_board(q, r) {
            let mut d = 0;
            while d < 6 {
                let (nq, nr) = (q + deltas[d].0, r + deltas[d].1);
                if on_board(nq, nr) {
                    table[i][d] = ((nq + RADIUS) as usize * 15 + (nr + RADIUS) as usize) as u8;
                }
                d += 1;
            }
        }
        i += 1;
    }
    table
}

/// The change of grid index of one step, by direction: grid indices grow
/// along E, NNE and NNW.
pub const STEP_DELTA: [i16; 6] = [15, -15, 16, -16, 1, -1];

/// By grid index and direction: the cells along the ray (the cell itself
/// left out), as bits over grid indices.
pub static RAYS: [[[u64; 4]; 6]; GRID] = rays().0;
/// By grid index and direction: how many cells the ray has.
pub static RAY_LEN: [[u8; 6]; GRID] = rays().1;

#[allow(clippy::type_complexity)]
const fn rays() -> ([[[u64; 4]; 6]; GRID], [[u8; 6]; GRID]) {
    let steps = steps();
    let mut masks = [[[0u64; 4]; 6]; GRID];
    let mut lens = [[0u8; 6]; GRID];
    let mut i = 0;
    while i < GRID {
        let mut d = 0;
        while d < 6 {
            let mut c = steps[i][d];
            while c != OFF {
                masks[i][d][c as usize / 64] |= 1 << (c as usize % 64);
                lens[i][d] += 1;
                c = steps[c as usize][d];
            }
            d += 1;
        }
        i += 1;
    }
    (masks, lens)
}

/// A set of cells as bits over grid indices (bit `i` of word `i / 64`):
/// groups, rays and runs are found a word at a time.
pub type Bits = [u64; 4];

/// The on-board cells.
pub static ON_BOARD: Bits = on_board_bits();

const fn on_board_bits() -> Bits {
    let mut bits = [0u64; 4];
    let mut i = 0;
    while i < GRID {
        let (q, r) = ((i / 15) as i8 - RADIUS, (i % 15) as i8 - RADIUS);
        if on_board(q, r) {
            bits[i / 64] |= 1 << (i % 64);
        }
        i += 1;
    }
    bits
}

/// The set holding the cell at grid index `i` alone.
#[inline]
pub fn bit(i: usize) -> Bits {
    let mut b = [0; 4];
    b[i / 64] = 1 << (i % 64);
    b
}

/// Whether the cell at grid index `i` is in `b`.
#[inline]
pub fn has(b: &Bits, i: usize) -> bool {
    b[i / 64] >> (i % 64) & 1 != 0
}

#[inline]
pub fn or(a: Bits, b: Bits) -> Bits {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
}

#[inline]
pub fn and(a: Bits, b: Bits) -> Bits {
    [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
}

/// The cells of `a` not in `b`.
#[inline]
pub fn minus(a: Bits, b: Bits) -> Bits {
    [a[0] & !b[0], a[1] & !b[1], a[2] & !b[2], a[3] & !b[3]]
}

/// How many cells `b` holds.
#[inline]
pub fn count(b: &Bits) -> u32 {
    b.iter().map(|w| w.count_ones()).sum()
}

/// The grid indices in `b`, in grid order.
#[inline]
pub fn indices(b: Bits) -> impl Iterator<Item = usize> {
    (0..4).flat_map(move |w| {
        let mut word = b[w];
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let i = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                i
            })
        })
    })
}

/// `b` shifted towards higher grid indices by `k` (1 ≤ k < 64).
#[inline]
fn up(b: Bits, k: u32) -> Bits {
    [
        b[0] << k,
        b[1] << k | b[0] >> (64 - k),
        b[2] << k | b[1] >> (64 - k),
        b[3] << k | b[2] >> (64 - k),
    ]
}

/// `b` shifted towards lower grid indices by `k` (1 ≤ k < 64).
#[inline]
fn down(b: Bits, k: u32) -> Bits {
    [
        b[0] >> k | b[1] << (64 - k),
        b[1] >> k | b[2] << (64 - k),
        b[2] >> k | b[3] << (64 - k),
        b[3] >> k,
    ]
}

/// `b` with each bit moved by `by` grid indices (|by| < 64), bits moved
/// past either end dropped.
#[inline]
pub fn shifted(b: Bits, by: i16) -> Bits {
    match by {
        0 => b,
        k if k > 0 => up(b, k as u32),
        k => down(b, k.unsigned_abs() as u32),
    }
}

/// The on-board cells next to a cell of `b`. The six steps change the
/// grid index by 1, 15 or 16 ([`STEP_DELTA`]); a step that wraps from one
/// row of the grid to the next lands on a cell off the board (the test
/// `neighbour_bits_agree_with_the_step_table` checks every cell), so the
/// shifts need no mask but the board's.
#[inline]
pub fn neighbours(b: Bits) -> Bits {
    let near = or(or(up(b, 1), down(b, 1)), or(up(b, 15), down(b, 15)));
    and(or(near, or(up(b, 16), down(b, 16))), ON_BOARD)
}

/// The cells of `within` connected to `seed` through `within` (a group of
/// stones: `seed` must lie in `within`).
#[inline]
pub fn flood(seed: Bits, within: Bits) -> Bits {
    let mut group = seed;
    loop {
        let grown = and(or(group, neighbours(group)), within);
        if grown == group {
            return group;
        }
        group = grown;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    pub q: i8,
    pub r: i8,
}

/// The six neighbour steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    E,
    W,
    Nne,
    Ssw,
    Nnw,
    Sse,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::E, Dir::W, Dir::Nne, Dir::Ssw, Dir::Nnw, Dir::Sse];

    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::E => (1, 0),
            Dir::W => (-1, 0),
            Dir::Nne => (1, 1),
            Dir::Ssw => (-1, -1),
            Dir::Nnw => (0, 1),
            Dir::Sse => (0, -1),
        }
    }

    pub fn opposite(self) -> Dir {
        match self {
            Dir::E => Dir::W,
            Dir::W => Dir::E,
            Dir::Nne => Dir::Ssw,
            Dir::Ssw => Dir::Nne,
            Dir::Nnw => Dir::Sse,
            Dir::Sse => Dir::Nnw,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// The six edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Edge {
    /// North owns N, SW and SE; South owns S, NW and NE.
    pub fn owner(self) -> Side {
        match self {
            Edge::N | Edge::SW | Edge::SE => Side::First,
            Edge::S | Edge::NW | Edge::NE => Side::Second,
        }
    }
}

impl Hex {
    pub fn new(q: i8, r: i8) -> Option<Hex> {
        Hex::on_board(q, r).then_some(Hex { q, r })
    }

    pub fn on_board(q: i8, r: i8) -> bool {
        on_board(q, r)
    }

    /// The cell at a grid index known to be on the board (from `STEPS`).
    pub fn at(index: usize) -> Hex {
        debug_assert!(Hex::from_index(index).is_some());
        Hex {
            q: (index / 15) as i8 - RADIUS,
            r: (index % 15) as i8 - RADIUS,
        }
    }

    pub const CENTRE: Hex = Hex { q: 0, r: 0 };

    pub fn index(self) -> usize {
        (self.q + RADIUS) as usize * 15 + (self.r + RADIUS) as usize
    }

    pub fn from_index(i: usize) -> Option<Hex> {
        Hex::new((i / 15) as i8 - RADIUS, (i % 15) as i8 - RADIUS)
    }

    pub fn step(self, dir: Dir) -> Option<Hex> {
        let (dq, dr) = dir.delta();
        Hex::new(self.q + dq, self.r + dr)
    }

    pub fn neighbours(self) -> impl Iterator<Item = Hex> {
        Dir::ALL.into_iter().filter_map(move |d| self.step(d))
    }

    /// Every cell, in grid order.
    pub fn all() -> impl Iterator<Item = Hex> {
        (0..GRID).filter_map(Hex::from_index)
    }

    /// The edges this cell lies on (two for a corner).
    pub fn edges(self) -> impl Iterator<Item = Edge> {
        let Hex { q, r } = self;
        [
            (r == RADIUS, Edge::N),
            (q == RADIUS, Edge::NE),
            (q - r == RADIUS, Edge::SE),
            (r == -RADIUS, Edge::S),
            (q == -RADIUS, Edge::SW),
            (q - r == -RADIUS, Edge::NW),
        ]
        .into_iter()
        .filter_map(|(on, e)| on.then_some(e))
    }

    pub fn is_corner(self) -> bool {
        self.edges().count() == 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ray_tables_agree_with_stepping() {
        for i in 0..GRID {
            let Some(start) = Hex::from_index(i) else {
                continue;
            };
            for d in Dir::ALL {
                let mut c = start;
                let mut cells = 0;
                let mut index_grows = None;
                while let Some(n) = c.step(d) {
                    assert!(RAYS[i][d.index()][n.index() / 64] & (1 << (n.index() % 64)) != 0);
                    index_grows = Some(n.index() > c.index());
                    assert_eq!(
                        n.index() as i64 - c.index() as i64,
                        STEP_DELTA[d.index()] as i64
                    );
                    cells += 1;
                    c = n;
                }
                assert_eq!(RAY_LEN[i][d.index()], cells);
                let bits: u32 = RAYS[i][d.index()].iter().map(|w| w.count_ones()).sum();
                assert_eq!(bits, u32::from(cells));
                if let Some(grows) = index_grows {
                    assert_eq!(grows, STEP_DELTA[d.index()] > 0);
                }
            }
        }
    }

    #[test]
    fn neighbour_bits_agree_with_the_step_table() {
        assert_eq!(count(&ON_BOARD), CELLS as u32);
        for (i, steps) in STEPS.iter().enumerate() {
            assert_eq!(indices(bit(i)).collect::<Vec<_>>(), [i]);
            assert_eq!(has(&ON_BOARD, i), Hex::from_index(i).is_some());
            if !has(&ON_BOARD, i) {
                continue; // sets only ever hold on-board cells
            }
            let by_table = steps
                .iter()
                .filter(|&&n| n != OFF)
                .fold([0; 4], |b, &n| or(b, bit(usize::from(n))));
            assert_eq!(neighbours(bit(i)), by_table, "grid index {i}");
        }
        // Whole sets: the union of the cells' neighbours.
        let some: Bits = [
            0x8421_0842_1084_2108,
            0x0F0F_0000_F0F0_1234,
            u64::MAX,
            0x1_FFFF_FFFF,
        ];
        let some = and(some, ON_BOARD);
        let by_cells = indices(some).fold([0; 4], |b, i| or(b, neighbours(bit(i))));
        assert_eq!(neighbours(some), by_cells);
    }

    #[test]
    fn a_flood_finds_the_stones_connected_to_its_seed() {
        let line: Vec<Hex> = (0..4).map(|q| Hex::new(q, 0).unwrap()).collect();
        let apart = Hex::new(-3, 2).unwrap();
        let stones = line
            .iter()
            .chain([&apart])
            .fold([0; 4], |b, c| or(b, bit(c.index())));
        let group = flood(bit(line[3].index()), stones);
        let expected = line.iter().fold([0; 4], |b, c| or(b, bit(c.index())));
        assert_eq!(group, expected);
        assert_eq!(count(&group), 4);
        assert_eq!(flood(bit(apart.index()), stones), bit(apart.index()));
    }

    #[test]
    fn the_step_table_agrees_with_stepping() {
        for (i, steps) in STEPS.iter().enumerate() {
            for d in Dir::ALL {
                let by_table = steps[d.index()];
                let stepped = Hex::from_index(i).and_then(|c| c.step(d));
                match stepped {
                    Some(n) => assert_eq!(by_table as usize, n.index()),
                    None => assert_eq!(by_table, OFF, "{i} {d:?}"),
                }
            }
        }
    }

    #[test]
    fn the_board_has_169_cells_in_rows_of_8_to_15() {
        assert_eq!(Hex::all().count(), CELLS);
        let row = |r: i8| Hex::all().filter(|c| c.r == r).count();
        let lengths: Vec<usize> = (-7..=7).map(row).collect();
        assert_eq!(
            lengths,
            [8, 9, 10, 11, 12, 13, 14, 15, 14, 13, 12, 11, 10, 9, 8]
        );
    }

    #[test]
    fn six_corners_on_two_edges_and_each_edge_has_8_cells() {
        let corners: Vec<Hex> = Hex::all().filter(|c| c.is_corner()).collect();
        assert_eq!(corners.len(), 6);
        for (q, r) in [(-7, -7), (0, -7), (7, 0), (7, 7), (0, 7), (-7, 0)] {
            assert!(corners.contains(&Hex { q, r }), "({q},{r})");
        }
        for edge in [Edge::N, Edge::NE, Edge::SE, Edge::S, Edge::SW, Edge::NW] {
            let n = Hex::all().filter(|c| c.edges().any(|e| e == edge)).count();
            assert_eq!(n, 8, "{edge:?}");
        }
        // 6 × 8 cells, the 6 corners counted twice.
        assert_eq!(Hex::all().filter(|c| c.edges().count() > 0).count(), 42);
    }

    #[test]
    fn each_side_owns_three_non_adjacent_edges() {
        let north: Vec<Edge> = [Edge::N, Edge::NE, Edge::SE, Edge::S, Edge::SW, Edge::NW]
            .into_iter()
            .filter(|e| e.owner() == Side::First)
            .collect();
        assert_eq!(north, [Edge::N, Edge::SE, Edge::SW]);
    }

    #[test]
    fn neighbours_are_six_inside_and_fewer_on_edges() {
        assert_eq!(Hex::CENTRE.neighbours().count(), 6);
        assert_eq!(Hex::new(-7, -7).unwrap().neighbours().count(), 3);
        assert_eq!(Hex::new(-3, -7).unwrap().neighbours().count(), 4);
        for d in Dir::ALL {
            let there = Hex::CENTRE.step(d).unwrap();
            assert_eq!(there.step(d.opposite()), Some(Hex::CENTRE));
        }
    }
}
