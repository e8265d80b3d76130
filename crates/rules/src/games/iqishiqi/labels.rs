//! Cell labels. Two schemes share strings that mean different cells, so a
//! record declares its scheme (`Coords` tag); it is never guessed.
//!
//! - Ludii (default): letter `A` + (q + 7), number r + 8. Centre `H8`.
//! - AbstractPlay: letter `a` + (r + 7) (the row from the bottom), number the
//!   position in the row from the left, (q + 7) − max(0, r) + 1. Centre `h8`.

use super::geometry::Hex;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Coords {
    Ludii,
    AbstractPlay,
}

impl Coords {
    pub fn name(self) -> &'static str {
        match self {
            Coords::Ludii => "ludii",
            Coords::AbstractPlay => "abstractplay",
        }
    }

    /// Reads a label (either case).
    pub fn parse(self, text: &str) -> Option<Hex> {
        self.parse_bytes(text.as_bytes())
    }

    /// [`Coords::parse`] on the label's bytes.
    pub fn parse_bytes(self, label: &[u8]) -> Option<Hex> {
        // A letter, then a number from 1 to 15 with no leading zero.
        let (letter, number) = match *label {
            [l, d @ b'1'..=b'9'] => (l, d - b'0'),
            [l, b'1', d @ b'0'..=b'5'] => (l, 10 + d - b'0'),
            _ => return None,
        };
        let letter = match letter {
            b'a'..=b'o' => letter - b'a',
            b'A'..=b'O' => letter - b'A',
            _ => return None,
        };
        let (letter, number) = (i32::from(letter), i32::from(number));
        let (q, r) = match self {
            Coords::Ludii => (letter - 7, number - 8),
            Coords::AbstractPlay => {
                let r = letter - 7;
                (number - 1 - 7 + r.max(0), r)
            }
        };
        Hex::new(q as i8, r as i8)
    }

    pub fn write(self, cell: Hex, out: &mut String) {
        let (q, r) = (cell.q as i32, cell.r as i32);
        let _ = match self {
            Coords::Ludii => write!(out, "{}{}", (b'A' + (q + 7) as u8) as char, r + 8),
            Coords::AbstractPlay => write!(
                out,
                "{}{}",
                (b'a' + (r + 7) as u8) as char,
                (q + 7) - r.max(0) + 1
            ),
        };
    }

    pub fn label(self, cell: Hex) -> String {
        let mut s = String::with_capacity(3);
        self.write(cell, &mut s);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_schemes_round_trip_over_all_169_cells() {
        let mut ludii = std::collections::HashSet::new();
        let mut ap = std::collections::HashSet::new();
        for cell in Hex::all() {
            for (coords, seen) in [(Coords::Ludii, &mut ludii), (Coords::AbstractPlay, &mut ap)] {
                let label = coords.label(cell);
                assert_eq!(coords.parse(&label), Some(cell), "{label}");
                assert!(seen.insert(label));
            }
            // Through the other scheme and back.
            let via = Coords::AbstractPlay
                .parse(&Coords::AbstractPlay.label(cell))
                .unwrap();
            assert_eq!(Coords::Ludii.label(via), Coords::Ludii.label(cell));
        }
        assert_eq!((ludii.len(), ap.len()), (169, 169));
    }

    #[test]
    fn documented_landmarks() {
        fn l(s: &str) -> Hex {
            Coords::Ludii.parse(s).unwrap()
        }
        fn a(s: &str) -> Hex {
            Coords::AbstractPlay.parse(s).unwrap()
        }
        assert_eq!(l("H8"), Hex::CENTRE);
        assert_eq!(a("h8"), Hex::CENTRE);
        // Bottom row A1..H1 = a1..a8; top row H15..O15 = o1..o8.
        for i in 0..8 {
            let ludii = format!("{}1", (b'A' + i) as char);
            assert_eq!(l(&ludii), a(&format!("a{}", i + 1)), "{ludii}");
            let ludii = format!("{}15", (b'H' + i) as char);
            assert_eq!(l(&ludii), a(&format!("o{}", i + 1)), "{ludii}");
        }
        // The SE edge: H1, I2, …, O8.
        for i in 0..8 {
            let c = l(&format!("{}{}", (b'H' + i) as char, i + 1));
            assert_eq!(c.q - c.r, 7);
        }
        // The same string, different cells.
        assert_ne!(Coords::Ludii.parse("C5"), Coords::AbstractPlay.parse("c5"));
        assert_eq!(l("h8"), l("H8"));
    }

    /// The label reader as first written: a letter, one or two digits, no
    /// leading zero, then the scheme's arithmetic.
    fn parse_by_rule(coords: Coords, text: &str) -> Option<Hex> {
        let (&letter, digits) = text.as_bytes().split_first()?;
        if !letter.is_ascii_alphabetic()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.iter().all(u8::is_ascii_digit)
            || digits[0] == b'0'
        {
            return None;
        }
        let letter = (letter.to_ascii_lowercase() - b'a') as i32;
        let number = crate::games::grid::digits_value(digits) as i32;
        if letter > 14 || number > 15 {
            return None;
        }
        let (q, r) = match coords {
            Coords::Ludii => (letter - 7, number - 8),
            Coords::AbstractPlay => (number - 1 - 7 + (letter - 7).max(0), letter - 7),
        };
        Hex::new(q as i8, r as i8)
    }

    #[test]
    fn every_short_ascii_text_reads_as_the_rule_reads_it() {
        let bytes: Vec<u8> = (b' '..=b'~').collect();
        let mut texts = vec![String::new()];
        for &a in &bytes {
            texts.push(char::from(a).to_string());
            for &b in &bytes {
                texts.push(format!("{}{}", char::from(a), char::from(b)));
            }
        }
        for &a in b"aAhHoOpPzZ1" {
            for n in 0..200 {
                texts.push(format!("{}{n}", char::from(a)));
                texts.push(format!("{}{n:03}", char::from(a)));
            }
        }
        for coords in [Coords::Ludii, Coords::AbstractPlay] {
            for t in &texts {
                assert_eq!(coords.parse(t), parse_by_rule(coords, t), "{t}");
            }
        }
    }

    #[test]
    fn labels_off_the_board_or_malformed_are_refused() {
        for bad in [
            "A9", "O7", "P1", "H16", "H0", "H", "8", "HH", "H08", "H100", "",
        ] {
            assert_eq!(Coords::Ludii.parse(bad), None, "{bad}");
        }
        for bad in ["a9", "o9", "h16", "p1", "a0"] {
            assert_eq!(Coords::AbstractPlay.parse(bad), None, "{bad}");
        }
    }
}
