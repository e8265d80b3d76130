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

/// The board's squares as bits of a `u128`: bit `i` is the square of
/// index `i` ([`Square::index`]).
pub const BOARD: u128 = (1 << 81) - 1;

/// The squares of one file, as bits.
const fn file_bits(file: u32) -> u128 {
    let (mut bits, mut rank) = (0, 0);
    while rank < 9 {
        bits |= 1 << (rank * 9 + file);
        rank += 1;
    }
    bits
}

const FILE_A: u128 = file_bits(0);
const FILE_I: u128 = file_bits(8);

/// The squares one step in `dir` from the squares of `bits` (those steps
/// that stay on the board).
#[inline]
pub fn step_bits(bits: u128, dir: Dir) -> u128 {
    match dir {
        Dir::North => bits << 9 & BOARD,
        Dir::South => bits >> 9,
        Dir::East => (bits & !FILE_I) << 1,
        Dir::West => (bits & !FILE_A) >> 1,
    }
}

/// By square pair (`from * 81 + to`): 0 where the two are not on one rank
/// or file or are the same square, otherwise the direction's place in
/// [`Dir::ALL`] times 16 plus the distance ([`Dir::between`] as a table).
static LINES: [u8; 81 * 81] = {
    let mut t = [0; 81 * 81];
    let mut i = 0;
    while i < t.len() {
        let (a, b) = ((i / 81) as i32, (i % 81) as i32);
        let (df, dr) = (b % 9 - a % 9, b / 9 - a / 9);
        t[i] = match (df, dr) {
            (0, 0) => 0,
            (0, d) if d > 0 => d as u8,
            (d, 0) if d > 0 => 16 | d as u8,
            (0, d) => 32 | (-d) as u8,
            (d, 0) => 48 | (-d) as u8,
            _ => 0,
        };
        i += 1;
    }
    t
};

/// By direction ([`Dir::ALL`]'s order) and distance: the squares a move
/// of that distance passes and ends on, as bits, shifted down to the
/// lower of its two end squares ([`path`]).
static RUNS: [[u128; 9]; 4] = {
    let mut t = [[0; 9]; 4];
    let mut d = 1;
    while d < 9 {
        let mut k = 0;
        while k < d {
            t[0][d] |= 1 << (9 * (k + 1));
            t[1][d] |= 1 << (k + 1);
            t[2][d] |= 1 << (9 * k);
            t[3][d] |= 1 << k;
            k += 1;
        }
        d += 1;
    }
    t
};

/// [`Dir::between`] by table: the direction and distance from `a` to `b`
/// when they share a rank or a file and differ.
#[inline]
pub fn line(a: Square, b: Square) -> Option<(Dir, u8)> {
    let code = LINES[a.index() * 81 + b.index()];
    (code != 0).then(|| (Dir::ALL[usize::from(code >> 4)], code & 15))
}

/// The squares after `from` up to and including `to`, as bits, where `to`
/// is `distance` squares from `from` in `dir` ([`line`]).
#[inline]
pub fn path(from: Square, to: Square, dir: Dir, distance: u8) -> u128 {
    RUNS[dir as usize][usize::from(distance)] << from.index().min(to.index())
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
    fn lines_and_paths_by_table_are_the_steps_walked() {
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(line(a, b), Dir::between(a, b), "{a} {b}");
                let Some((dir, distance)) = line(a, b) else {
                    continue;
                };
                let (mut walked, mut at) = (0u128, a);
                for _ in 0..distance {
                    at = at.step(dir).unwrap();
                    walked |= 1 << at.index();
                }
                assert_eq!(at, b);
                assert_eq!(path(a, b, dir, distance), walked, "{a} {b}");
            }
        }
    }

    #[test]
    fn bits_step_as_squares_do() {
        for sq in Square::all() {
            for dir in Dir::ALL {
                let stepped = sq.step(dir).map_or(0, |s| 1u128 << s.index());
                assert_eq!(step_bits(1 << sq.index(), dir), stepped, "{sq} {dir:?}");
            }
        }
        let every = step_bits(BOARD, Dir::East) | step_bits(BOARD, Dir::West);
        assert_eq!(every, BOARD);
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
