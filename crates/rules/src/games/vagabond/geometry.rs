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
    fn neighbours_are_the_four_along_the_lines() {
        let o = Point { x: 0, y: 0 };
        assert_eq!(o.neighbours().count(), 4);
        assert!(o.neighbours().all(|n| n.distance(o) == 1));
        // (±1, 8) are on the board (1 + 64 ≤ 80), (0, 9) is not.
        assert_eq!(Point { x: 0, y: 8 }.neighbours().count(), 3);
    }
}
