//! Rectangular boards up to 19×19, squares, the roshi zone.

use crate::games::grid;
use std::fmt;

pub const MAX_SIDE: u8 = 19;
pub const MIN_SIDE: u8 = 5;
/// Cells are stored `rank * 19 + file`.
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
        grid::parse_square(text, 26, 99).map(|(file, rank)| Sq { file, rank })
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
