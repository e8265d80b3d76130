//! The 9×9 board: squares a1..i9, the four orthogonal directions.

use crate::games::grid;
use std::fmt;

pub const SIZE: i8 = 9;

/// A square, `rank * 9 + file`, both 0-based (a1 = 0, i9 = 80).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub fn new(file: i8, rank: i8) -> Option<Square> {
        ((0..SIZE).contains(&file) && (0..SIZE).contains(&rank))
            .then(|| Square((rank * SIZE + file) as u8))
    }

    pub fn file(self) -> i8 {
        (self.0 % 9) as i8
    }

    pub fn rank(self) -> i8 {
        (self.0 / 9) as i8
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The next square in `dir`, or `None` past the edge.
    pub fn step(self, dir: Dir) -> Option<Square> {
        let (df, dr) = dir.delta();
        Square::new(self.file() + df, self.rank() + dr)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..81).map(Square)
    }

    /// Reads `e3` (uppercase accepted).
    pub fn parse(text: &str) -> Option<Square> {
        let (file, rank) = grid::parse_square(text, SIZE as u8, SIZE as u8)?;
        Square::new(file as i8, rank as i8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(2);
        grid::write_square(self.file() as u8, self.rank() as u8, &mut s);
        f.write_str(&s)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    pub fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }

    /// The direction and distance from `a` to `b` when they share a rank or
    /// a file and differ.
    pub fn between(a: Square, b: Square) -> Option<(Dir, u8)> {
        let (df, dr) = (b.file() - a.file(), b.rank() - a.rank());
        match (df, dr) {
            (0, 0) => None,
            (0, d) if d > 0 => Some((Dir::North, d as u8)),
            (0, d) => Some((Dir::South, (-d) as u8)),
            (d, 0) if d > 0 => Some((Dir::East, d as u8)),
            (d, 0) => Some((Dir::West, (-d) as u8)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_and_reject_off_board() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("E3"), Square::parse("e3"));
        for bad in ["j1", "a0", "a10", "", "e", "3e"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn steps_stop_at_the_edge() {
        let a1 = Square::parse("a1").unwrap();
        assert_eq!(a1.step(Dir::South), None);
        assert_eq!(a1.step(Dir::West), None);
        assert_eq!(a1.step(Dir::North), Square::parse("a2"));
        assert_eq!(a1.step(Dir::East), Square::parse("b1"));
        let i9 = Square::parse("i9").unwrap();
        assert_eq!(i9.step(Dir::North), None);
        assert_eq!(i9.step(Dir::East), None);
    }

    #[test]
    fn between_finds_only_straight_lines() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(Dir::between(sq("e3"), sq("e5")), Some((Dir::North, 2)));
        assert_eq!(Dir::between(sq("e3"), sq("b3")), Some((Dir::West, 3)));
        assert_eq!(Dir::between(sq("e3"), sq("f4")), None);
        assert_eq!(Dir::between(sq("e3"), sq("e3")), None);
    }
}
