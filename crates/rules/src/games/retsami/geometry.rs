//! The 9×9 board and the Way: the 81-square path spiralling inward
//! counter-clockwise from a1 (Way 1) to the Home Square e5 (Way 81).

pub use crate::games::grid::Square9 as Square;

/// The Way index of each square, rank 1 first (the table of the rules).
const WAY_BY_RANK: [[u8; 9]; 9] = [
    [1, 2, 3, 4, 5, 6, 7, 8, 9],
    [32, 33, 34, 35, 36, 37, 38, 39, 10],
    [31, 56, 57, 58, 59, 60, 61, 40, 11],
    [30, 55, 72, 73, 74, 75, 62, 41, 12],
    [29, 54, 71, 80, 81, 76, 63, 42, 13],
    [28, 53, 70, 79, 78, 77, 64, 43, 14],
    [27, 52, 69, 68, 67, 66, 65, 44, 15],
    [26, 51, 50, 49, 48, 47, 46, 45, 16],
    [25, 24, 23, 22, 21, 20, 19, 18, 17],
];

/// Where the Way changes direction.
pub const CORNERS: [u8; 16] = [
    9, 17, 25, 32, 39, 45, 51, 56, 61, 65, 69, 72, 75, 77, 79, 80,
];

pub const HOME: u8 = 81;
/// The starting row is Way 1..=9.
pub const STARTING_ROW: std::ops::RangeInclusive<u8> = 1..=9;

/// The eight directions a take follows, as (file, rank) steps, in the
/// order generation tries them.
pub const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// By direction: whether square indices grow along it (the nearest
/// square of a ray's set is then its lowest bit, else its highest).
pub const ASCENDING: [bool; 8] = {
    let mut t = [false; 8];
    let mut d = 0;
    while d < 8 {
        t[d] = DIRECTIONS[d].1 * 9 + DIRECTIONS[d].0 > 0;
        d += 1;
    }
    t
};

/// By square index and direction ([`DIRECTIONS`]): the squares along the
/// ray to the board's edge (the square itself left out), as bits by
/// square index.
pub static RAYS: [[u128; 8]; 81] = {
    let mut t = [[0u128; 8]; 81];
    let mut i = 0;
    while i < 81 {
        let (f, r) = ((i % 9) as i8, (i / 9) as i8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let (mut nf, mut nr) = (f + df, r + dr);
            while nf >= 0 && nf < 9 && nr >= 0 && nr < 9 {
                t[i][d] |= 1u128 << (nr as usize * 9 + nf as usize);
                nf += df;
                nr += dr;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// The square of `bits` nearest the start of a ray along direction `d`
/// (`bits` a non-empty part of that ray), by square index.
#[inline]
pub fn nearest(bits: u128, d: usize) -> usize {
    debug_assert!(bits != 0);
    if ASCENDING[d] {
        bits.trailing_zeros() as usize
    } else {
        127 - bits.leading_zeros() as usize
    }
}

/// Where a square lies on the Way, and the straight lines a take follows.
pub trait OnTheWay: Sized {
    /// The square's Way index, 1..=81.
    fn way(self) -> u8;
    /// The square with Way index `w` (1..=81).
    fn at_way(w: u8) -> Self;
    /// The squares strictly between `self` and `to` on a rank, file or
    /// diagonal; `None` when they share no line.
    fn line_to(self, to: Self) -> Option<impl Iterator<Item = Self>>;
}

impl OnTheWay for Square {
    fn way(self) -> u8 {
        WAY_BY_RANK[self.rank() as usize][self.file() as usize]
    }

    fn at_way(w: u8) -> Square {
        BY_WAY[w as usize]
    }

    fn line_to(self, to: Square) -> Option<impl Iterator<Item = Square>> {
        let (df, dr) = (to.file() - self.file(), to.rank() - self.rank());
        if (df, dr) == (0, 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return None;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let steps = df.abs().max(dr.abs());
        let from = self;
        Some((1..steps).filter_map(move |k| from.offset(sf * k, sr * k)))
    }
}

/// The square of each Way index (index 0, no square, holds a1), made at
/// compile time from [`WAY_BY_RANK`].
const BY_WAY: [Square; 82] = {
    let a1 = match Square::from_index(0) {
        Some(sq) => sq,
        None => panic!("a1 is a square"),
    };
    let mut t = [a1; 82];
    let mut i = 0;
    while i < 81 {
        if let Some(sq) = Square::from_index(i as u8) {
            t[WAY_BY_RANK[i / 9][i % 9] as usize] = sq;
        }
        i += 1;
    }
    t
};

/// How many corners come before each Way index: `CORNERS_BEFORE[w]` is the
/// number of corners `c < w` (`w` up to 82).
const CORNERS_BEFORE: [u8; 83] = {
    let mut t = [0u8; 83];
    let mut w = 0;
    while w < 83 {
        let mut n = 0;
        let mut k = 0;
        while k < CORNERS.len() {
            if (CORNERS[k] as usize) < w {
                n += 1;
            }
            k += 1;
        }
        t[w] = n;
        w += 1;
    }
    t
};

/// The corner squares strictly between Way indices `from` and `to`.
pub fn corners_between(from: u8, to: u8) -> impl Iterator<Item = u8> {
    CORNERS.into_iter().filter(move |&c| c > from && c < to)
}

/// How many corners lie strictly between Way indices `from` and `to`
/// (1..=81 each): `corners_between(from, to).count()` by table.
pub fn corner_count(from: u8, to: u8) -> u8 {
    let (lo, hi) = (usize::from(from) + 1, usize::from(to));
    match hi > lo {
        true => CORNERS_BEFORE[hi.min(82)] - CORNERS_BEFORE[lo.min(82)],
        false => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_way_visits_every_square_once_by_orthogonal_steps() {
        let mut seen = [false; 82];
        for sq in Square::all() {
            assert!(!std::mem::replace(&mut seen[sq.way() as usize], true));
        }
        assert!(seen[1..].iter().all(|&s| s));
        for w in 1..81u8 {
            let (a, b) = (Square::at_way(w), Square::at_way(w + 1));
            let d = (b.file() - a.file()).abs() + (b.rank() - a.rank()).abs();
            assert_eq!(d, 1, "Way {w} to {}", w + 1);
        }
        assert_eq!(Square::at_way(1).to_string(), "a1");
        assert_eq!(Square::at_way(HOME).to_string(), "e5");
    }

    #[test]
    fn the_listed_corners_are_where_the_way_turns() {
        let turns: Vec<u8> = (2..81u8)
            .filter(|&w| {
                let (a, b, c) = (
                    Square::at_way(w - 1),
                    Square::at_way(w),
                    Square::at_way(w + 1),
                );
                (b.file() - a.file(), b.rank() - a.rank())
                    != (c.file() - b.file(), c.rank() - b.rank())
            })
            .collect();
        assert_eq!(turns, CORNERS);
    }

    #[test]
    fn corner_counts_by_table_agree_with_the_corners() {
        for a in 1..=HOME {
            for b in 1..=HOME {
                let slow = corners_between(a, b).count() as u8;
                assert_eq!(corner_count(a, b), slow, "corners between {a} and {b}");
            }
        }
        assert_eq!(corner_count(8, 18), 2, "9 and 17");
        assert_eq!(corner_count(9, 17), 0, "strictly between");
    }

    #[test]
    fn the_spiral_runs_counter_clockwise() {
        // Along rank 1 to the right, then up the i file.
        assert_eq!(Square::at_way(9).to_string(), "i1");
        assert_eq!(Square::at_way(17).to_string(), "i9");
        assert_eq!(Square::at_way(25).to_string(), "a9");
    }

    #[test]
    fn lines_cover_ranks_files_and_diagonals_only() {
        let sq = |s| Square::parse(s).unwrap();
        let between: Vec<String> = sq("b1")
            .line_to(sq("b4"))
            .unwrap()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(between, ["b2", "b3"]);
        let between: Vec<String> = sq("a1")
            .line_to(sq("d4"))
            .unwrap()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(between, ["b2", "c3"]);
        assert_eq!(sq("a1").line_to(sq("b2")).unwrap().count(), 0);
        assert!(sq("a1").line_to(sq("b3")).is_none());
        assert!(sq("a1").line_to(sq("a1")).is_none());
    }
}
