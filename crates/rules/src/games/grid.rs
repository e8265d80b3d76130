//! Algebraic square names for rectangular boards (Oshi, Retsami, Roshi):
//! files `a`.. from the left, ranks `1`.. from the bottom; uppercase
//! accepted on input.

use std::fmt::Write;

/// Reads a square on a board of `files` × `ranks` (at most 26 × 99) as
/// 0-based (file, rank).
pub fn parse_square(text: &str, files: u8, ranks: u8) -> Option<(u8, u8)> {
    square_bytes(text.as_bytes(), files, ranks)
}

/// [`parse_square`] on bytes (what a decoder reading bytes in place calls).
pub fn square_bytes(bytes: &[u8], files: u8, ranks: u8) -> Option<(u8, u8)> {
    let (&f, digits) = bytes.split_first()?;
    if !f.is_ascii_alphabetic()
        || digits.is_empty()
        || digits.len() > 2
        || digits[0] == b'0'
        || !digits.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let file = f.to_ascii_lowercase() - b'a';
    let rank = digits_value(digits) as u8;
    (file < files && (1..=ranks).contains(&rank)).then_some((file, rank - 1))
}

/// The value of one or two ASCII digits (checked by the caller).
pub fn digits_value(digits: &[u8]) -> u32 {
    digits.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0'))
}

/// Writes a 0-based (file, rank) as `e3`.
pub fn write_square(file: u8, rank: u8, out: &mut String) {
    out.push((b'a' + file) as char);
    match rank {
        0..=8 => out.push((b'1' + rank) as char),
        _ => {
            let _ = write!(out, "{}", u32::from(rank) + 1);
        }
    }
}

/// A square of a 9×9 board (Oshi, Retsami): `rank * 9 + file`, both
/// 0-based (a1 = 0, i9 = 80).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square9(u8);

impl Square9 {
    pub fn new(file: i8, rank: i8) -> Option<Square9> {
        ((0..9).contains(&file) && (0..9).contains(&rank)).then(|| Square9((rank * 9 + file) as u8))
    }

    /// The square with this index (a1 = 0, i9 = 80), if there is one.
    pub const fn from_index(index: u8) -> Option<Square9> {
        if index < 81 {
            Some(Square9(index))
        } else {
            None
        }
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

    /// The square `df` files and `dr` ranks away, if on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square9> {
        Square9::new(self.file() + df, self.rank() + dr)
    }

    /// a1, b1, …, i9.
    pub fn all() -> impl Iterator<Item = Square9> {
        (0..81).map(Square9)
    }

    /// The square a lower-case file letter and a rank digit name, as the
    /// usual spelling writes it (`e`, `3`); `None` for any other two bytes.
    /// For the quick paths of move parsers: [`Square9::parse`] reads the
    /// rest.
    #[inline]
    pub fn from_plain(file: u8, rank: u8) -> Option<Square9> {
        match (file, rank) {
            (b'a'..=b'i', b'1'..=b'9') => Some(Square9((rank - b'1') * 9 + (file - b'a'))),
            _ => None,
        }
    }

    /// Reads `e3` (uppercase accepted).
    pub fn parse(text: &str) -> Option<Square9> {
        let (file, rank) = parse_square(text, 9, 9)?;
        Square9::new(file as i8, rank as i8)
    }
}

impl std::fmt::Display for Square9 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Files a..i, ranks 1..9: two characters, no allocation.
        let text = [b'a' + self.file() as u8, b'1' + self.rank() as u8];
        f.write_str(std::str::from_utf8(&text).unwrap_or("??"))
    }
}

impl Square9 {
    /// Appends the square's label (`e3`).
    pub fn push_to(self, out: &mut String) {
        out.push((b'a' + self.file() as u8) as char);
        out.push((b'1' + self.rank() as u8) as char);
    }
}

/// The board of a rectangular game for its picture: cells `a1`.. in the
/// order `rank * files + file`, one unit apart (rank 1 at the bottom),
/// ranks labelled on the left and files below; `kind` says what each
/// square is. In text a glyph takes `slot` characters.
pub fn square_board(
    files: u8,
    ranks: u8,
    slot: u16,
    kind: impl Fn(u8, u8) -> (crate::game::Kind, &'static str),
) -> crate::game::Board {
    use crate::game::{Board, Cell, Label, Shape};
    let top = f64::from(ranks) - 1.0;
    let col = |file: u8| 4 + (slot + 1) * u16::from(file);
    let mut board = Board {
        slot,
        ..Board::default()
    };
    for rank in 0..ranks {
        for file in 0..files {
            let mut label = String::new();
            write_square(file, rank, &mut label);
            let (kind, class) = kind(file, rank);
            board.cells.push(Cell {
                label,
                x: f64::from(file),
                y: top - f64::from(rank),
                shape: Shape::Square,
                kind,
                class,
                row: u16::from(ranks - 1 - rank),
                col: col(file),
            });
        }
        let number = (rank + 1).to_string();
        board.labels.push(Label {
            col: 2 - number.len() as u16,
            text: number,
            x: -0.85,
            y: top - f64::from(rank),
            row: u16::from(ranks - 1 - rank),
        });
    }
    for file in 0..files {
        board.labels.push(Label {
            text: ((b'a' + file) as char).to_string(),
            x: f64::from(file),
            y: top + 0.85,
            row: u16::from(ranks),
            col: col(file),
        });
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_square_is_read_as_the_full_parser_reads_it() {
        let mut plain = 0;
        for file in 0..=u8::MAX {
            for rank in 0..=u8::MAX {
                let Some(sq) = Square9::from_plain(file, rank) else {
                    continue;
                };
                plain += 1;
                let text = String::from_utf8(vec![file, rank]).expect("ASCII");
                assert_eq!(Square9::parse(&text), Some(sq), "{text}");
            }
        }
        // Lower case only: upper case is the full parser's.
        assert_eq!(plain, 81);
    }

    #[test]
    fn squares_round_trip_on_boards_of_every_size() {
        for size in [7u8, 9, 19] {
            for file in 0..size {
                for rank in 0..size {
                    let mut s = String::new();
                    write_square(file, rank, &mut s);
                    assert_eq!(parse_square(&s, size, size), Some((file, rank)), "{s}");
                    assert_eq!(
                        parse_square(&s.to_uppercase(), size, size),
                        Some((file, rank))
                    );
                }
            }
        }
        for bad in ["j1", "a0", "a10", "", "e", "3e", "a01", "é3"] {
            assert_eq!(parse_square(bad, 9, 9), None, "{bad}");
        }
        assert_eq!(parse_square("s19", 19, 19), Some((18, 18)));
    }

    #[test]
    fn nine_by_nine_squares() {
        for sq in Square9::all() {
            assert_eq!(Square9::parse(&sq.to_string()), Some(sq));
            assert_eq!(Square9::new(sq.file(), sq.rank()), Some(sq));
        }
        assert_eq!(Square9::all().count(), 81);
        let a1 = Square9::parse("a1").unwrap();
        assert_eq!((a1.index(), a1.offset(-1, 0)), (0, None));
        assert_eq!(a1.offset(1, 1), Square9::parse("b2"));
        assert_eq!(Square9::parse("i9").unwrap().index(), 80);
        assert_eq!(Square9::parse("j1"), None);
    }
}
