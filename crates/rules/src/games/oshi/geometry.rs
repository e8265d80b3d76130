//! The 9×9 board: squares a1..i9, the four orthogonal directions.

pub use crate::games::grid::Square9 as Square;

/// Oshi's steps along a rank or file.
pub trait Step {
    /// The next square in `dir`, or `None` past the edge.
    fn step(self, dir: Dir) -> Option<Square>;
}

impl Step for Square {
    fn step(self, dir: Dir) -> Option<Square> {
        let (df, dr) = dir.delta();
        self.offset(df, dr)
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
