//! The board: points (x, y) with x² + y² ≤ 80 (249 points), the four gates,
//! the four x/y neighbours, Manhattan distance.

use std::fmt;

/// Points are stored in a 17×17 grid, `(x + 8) * 17 + (y + 8)`.
pub const GRID: usize = 289;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: i8,
    pub y: i8,
}

/// The board's points, x then y ascending, made once at compile time (the
/// move generator walks them for every piece).
static ALL_POINTS: [Point; 249] = {
    let mut out = [Point { x: 0, y: 0 }; 249];
    let (mut n, mut x) = (0, -8i32);
    while x <= 8 {
        let mut y = -8i32;
        while y <= 8 {
            if Point::on_board(x, y) {
                out[n] = Point {
                    x: x as i8,
                    y: y as i8,
                };
                n += 1;
            }
            y += 1;
        }
        x += 1;
    }
    assert!(n == 249);
    out
};

pub const STEPS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const DIAGONALS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Point {
    /// Whether (x, y) is on the board: x² + y² ≤ 80 (computed without
    /// overflow for any coordinates a record may hold).
    pub const fn on_board(x: i32, y: i32) -> bool {
        let (x, y) = (x as i64, y as i64);
        x * x + y * y <= 80
    }

    pub fn new(x: i32, y: i32) -> Option<Point> {
        Point::on_board(x, y).then_some(Point {
            x: x as i8,
            y: y as i8,
        })
    }

    pub fn index(self) -> usize {
        (self.x + 8) as usize * 17 + (self.y + 8) as usize
    }

    /// Every point, x then y ascending (grid index ascending).
    pub fn all() -> impl Iterator<Item = Point> {
        ALL_POINTS.iter().copied()
    }

    /// The four gates (Temples): (0, ±8) and (±8, 0).
    pub const GATES: [Point; 4] = [
        Point { x: -8, y: 0 },
        Point { x: 0, y: -8 },
        Point { x: 0, y: 8 },
        Point { x: 8, y: 0 },
    ];

    /// Whether the point is one of the four gates ([`Point::GATES`]).
    pub fn is_gate(self) -> bool {
        (self.x == 0 && self.y.abs() == 8) || (self.y == 0 && self.x.abs() == 8)
    }

    pub fn step(self, (dx, dy): (i8, i8)) -> Option<Point> {
        Point::new((self.x + dx) as i32, (self.y + dy) as i32)
    }

    /// The four neighbours along the lines.
    pub fn neighbours(self) -> impl Iterator<Item = Point> {
        STEPS.into_iter().filter_map(move |d| self.step(d))
    }

    pub fn distance(self, other: Point) -> u32 {
        (self.x - other.x).unsigned_abs() as u32 + (self.y - other.y).unsigned_abs() as u32
    }
}

/// A set of points as bits of the 17×17 grid, bit `Point::index`: what a
/// Sky Bison's reach is dilated over, a step to every neighbour at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointSet([u64; 5]);

/// Which cells [`set_of`] keeps.
#[derive(Clone, Copy)]
enum Cells {
    Board,
    BelowTop,
    AboveBottom,
}

/// A set of grid cells, made at compile time.
const fn set_of(keep: Cells) -> PointSet {
    let mut words = [0u64; 5];
    let mut i = 0;
    while i < GRID {
        let (x, y) = ((i / 17) as i32 - 8, (i % 17) as i32 - 8);
        let kept = match keep {
            Cells::Board => Point::on_board(x, y),
            Cells::BelowTop => y < 8,
            Cells::AboveBottom => y > -8,
        };
        if kept {
            words[i / 64] |= 1 << (i % 64);
        }
        i += 1;
    }
    PointSet(words)
}

impl PointSet {
    pub const EMPTY: PointSet = PointSet([0; 5]);
    /// Every point of the board.
    pub const BOARD: PointSet = set_of(Cells::Board);
    /// The grid's cells that are not on its top row (y = 8): one step up
    /// stays in the same column.
    const BELOW_TOP: PointSet = set_of(Cells::BelowTop);
    /// The cells not on the bottom row (y = −8).
    const ABOVE_BOTTOM: PointSet = set_of(Cells::AboveBottom);

    pub fn one(p: Point) -> PointSet {
        let mut s = PointSet::EMPTY;
        s.insert(p.index());
        s
    }

    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 5]
    }

    pub fn and(self, o: PointSet) -> PointSet {
        PointSet(std::array::from_fn(|w| self.0[w] & o.0[w]))
    }

    pub fn or(self, o: PointSet) -> PointSet {
        PointSet(std::array::from_fn(|w| self.0[w] | o.0[w]))
    }

    pub fn minus(self, o: PointSet) -> PointSet {
        PointSet(std::array::from_fn(|w| self.0[w] & !o.0[w]))
    }

    /// Every index moved up by `k` (< 64); bits past the grid fall off
    /// the board mask later.
    fn up(self, k: u32) -> PointSet {
        let w = self.0;
        PointSet(std::array::from_fn(|i| {
            w[i] << k | if i > 0 { w[i - 1] >> (64 - k) } else { 0 }
        }))
    }

    /// Every index moved down by `k` (< 64).
    fn down(self, k: u32) -> PointSet {
        let w = self.0;
        PointSet(std::array::from_fn(|i| {
            w[i] >> k | if i < 4 { w[i + 1] << (64 - k) } else { 0 }
        }))
    }

    /// The points next to a point of the set, along the lines (the set's
    /// own points only where they are next to another).
    pub fn neighbours(self) -> PointSet {
        let ys = self
            .and(PointSet::BELOW_TOP)
            .up(1)
            .or(self.and(PointSet::ABOVE_BOTTOM).down(1));
        ys.or(self.up(17)).or(self.down(17)).and(PointSet::BOARD)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_249_points_and_4_gates() {
        assert_eq!(Point::all().count(), 249);
        let gates: Vec<Point> = Point::all().filter(|p| p.is_gate()).collect();
        assert_eq!(gates.len(), 4);
        for (x, y) in [(0, 8), (8, 0), (0, -8), (-8, 0)] {
            assert!(gates.contains(&Point { x, y }));
        }
        assert_eq!(gates, Point::GATES);
        // Rows of 9, 11, 13, 15 and 17 points.
        let row = |y: i8| Point::all().filter(|p| p.y == y).count();
        assert_eq!(
            [row(8), row(7), row(6), row(5), row(4), row(0)],
            [9, 11, 13, 15, 17, 17]
        );
        assert!(Point::new(5, 7).is_some() && Point::new(5, 8).is_none());
    }

    #[test]
    fn the_point_table_is_every_point_on_the_board_in_grid_order() {
        let walked: Vec<Point> = (-8..=8)
            .flat_map(|x| (-8..=8).filter_map(move |y| Point::new(x, y)))
            .collect();
        assert_eq!(Point::all().collect::<Vec<_>>(), walked);
        assert!(walked.windows(2).all(|w| w[0].index() < w[1].index()));
    }

    #[test]
    fn a_set_s_neighbours_are_its_points_neighbours() {
        let all: Vec<Point> = Point::all().collect();
        for (k, &p) in all.iter().enumerate() {
            // One point, and a scattered set around it.
            let mut set = PointSet::one(p);
            let mut want: Vec<Point> = p.neighbours().collect();
            if k % 3 == 0 {
                let q = all[(k * 37 + 11) % all.len()];
                set.insert(q.index());
                want.extend(q.neighbours());
            }
            let got: Vec<Point> = all
                .iter()
                .copied()
                .filter(|c| set.neighbours().has(c.index()))
                .collect();
            want.sort_by_key(|c| c.index());
            want.dedup();
            assert_eq!(got, want, "{p}");
        }
        assert_eq!(PointSet::BOARD.neighbours(), PointSet::BOARD);
        let count = |s: PointSet| s.0.iter().map(|w| w.count_ones()).sum::<u32>();
        assert_eq!(count(PointSet::BOARD), 249);
    }

    #[test]
    fn neighbours_are_the_four_along_the_lines() {
        let o = Point { x: 0, y: 0 };
        assert_eq!(o.neighbours().count(), 4);
        assert!(o.neighbours().all(|n| n.distance(o) == 1));
        // (±1, 8) are on the board (1 + 64 ≤ 80), (0, 9) is not.
        assert_eq!(Point { x: 0, y: 8 }.neighbours().count(), 3);
    }
}
