//! The Iqishiqi position and its `Position` notation:
//!
//! ```text
//! E7 H2,E5,D6,G6,H7,I9,J9,H11,I11 n 40
//! ```
//! The neutral stone's cell; the white stones, comma-separated (`-` for
//! none); the side to move, `n` or `s`; optionally the white stones left
//! in the supply (absent: unlimited, or what the `StoneLimit` tag leaves).
//! Cells are written in the record's label scheme.

use super::geometry::{count, has, Bits, Hex};
use super::labels::Coords;
use crate::game::{fields_with_offsets, PositionError, Side};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The white stones, as bits over grid indices (rays and groups are
    /// walked a word at a time; a copy is 32 bytes, not a byte a cell).
    pub bits: Bits,
    pub neutral: Hex,
    pub to_move: Side,
    /// `None`: an unlimited supply.
    pub stones_left: Option<u32>,
    /// The label scheme moves and positions are written in.
    pub coords: Coords,
}

fn fail<T>(message: impl Into<String>, at: usize) -> Result<T, PositionError> {
    PositionError::fail(message, at)
}

impl Position {
    pub fn start(coords: Coords, stone_limit: Option<u32>) -> Position {
        Position {
            bits: [0; 4],
            neutral: Hex::CENTRE,
            to_move: Side::First,
            stones_left: stone_limit,
            coords,
        }
    }

    /// Puts a white stone on `c`.
    pub fn place(&mut self, c: Hex) {
        let i = c.index();
        self.bits[i / 64] |= 1 << (i % 64);
    }

    pub fn has_stone(&self, c: Hex) -> bool {
        has(&self.bits, c.index())
    }

    pub fn stone_count(&self) -> u32 {
        count(&self.bits)
    }

    /// Reads the notation; `stone_limit` (the `StoneLimit` tag) sets the
    /// supply when the position does not say what is left.
    pub fn parse(
        text: &str,
        coords: Coords,
        stone_limit: Option<u32>,
    ) -> Result<Position, PositionError> {
        let fields = fields_with_offsets(text);
        if !(3..=4).contains(&fields.len()) {
            return fail(
                "an Iqishiqi position is: the neutral stone's cell, the white stones \
                 (comma-separated, or `-`), the side to move (`n` or `s`), and \
                 optionally the stones left",
                0,
            );
        }
        let cell = |label: &str, at: usize| {
            coords.parse(label).ok_or_else(|| PositionError {
                message: format!("`{label}` is not a cell in {} labels", coords.name()),
                at,
            })
        };
        let (at, neutral) = fields[0];
        let mut pos = Position::start(coords, stone_limit);
        pos.neutral = cell(neutral, at)?;
        let (mut at, stones) = fields[1];
        if stones != "-" {
            for label in stones.split(',') {
                let c = cell(label, at)?;
                if c == pos.neutral {
                    return fail(format!("{label} holds the neutral stone"), at);
                }
                if pos.has_stone(c) {
                    return fail(format!("{label} is listed twice"), at);
                }
                pos.place(c);
                at += label.len() + 1;
            }
        }
        let (at, side) = fields[2];
        pos.to_move = match side {
            "n" | "N" => Side::First,
            "s" | "S" => Side::Second,
            _ => return fail("the side to move is `n` (North) or `s` (South)", at),
        };
        let count = pos.stone_count();
        match fields.get(3) {
            Some(&(at, left)) => match left.parse::<u32>() {
                Ok(n) => pos.stones_left = Some(n),
                Err(_) => return fail("the stones left are a whole number", at),
            },
            None => {
                if let Some(limit) = stone_limit {
                    if count > limit {
                        return fail(
                            format!(
                                "{count} stones on the board, more than the StoneLimit {limit}"
                            ),
                            fields[1].0,
                        );
                    }
                    pos.stones_left = Some(limit - count);
                }
            }
        }
        Ok(pos)
    }

    pub fn write(&self) -> String {
        let mut out = self.coords.label(self.neutral);
        out.push(' ');
        let stones: Vec<String> = Hex::all()
            .filter(|&c| self.has_stone(c))
            .map(|c| self.coords.label(c))
            .collect();
        if stones.is_empty() {
            out.push('-');
        } else {
            out.push_str(&stones.join(","));
        }
        out.push_str(match self.to_move {
            Side::First => " n",
            Side::Second => " s",
        });
        if let Some(left) = self.stones_left {
            out.push_str(&format!(" {left}"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_in_both_schemes() {
        let p = Position::parse("E7 H2,E5,D6,G6,H7,I9,J9,H11,I11 n", Coords::Ludii, None).unwrap();
        assert_eq!(p.stone_count(), 9);
        let again = Position::parse(&p.write(), Coords::Ludii, None).unwrap();
        assert_eq!(again, p);
        let mut ap = p.clone();
        ap.coords = Coords::AbstractPlay;
        let again = Position::parse(&ap.write(), Coords::AbstractPlay, None).unwrap();
        assert_eq!(again.bits, p.bits);
        assert_eq!(again.neutral, p.neutral);
        assert_eq!(Position::start(Coords::Ludii, None).write(), "H8 - n");
        assert_eq!(
            Position::start(Coords::AbstractPlay, Some(75)).write(),
            "h8 - n 75"
        );
    }

    #[test]
    fn the_stone_limit_counts_the_stones_already_down() {
        let p = Position::parse("H8 A1,B1 s", Coords::Ludii, Some(75)).unwrap();
        assert_eq!(p.stones_left, Some(73));
        let p = Position::parse("H8 A1,B1 s 5", Coords::Ludii, Some(75)).unwrap();
        assert_eq!(p.stones_left, Some(5));
        assert!(Position::parse("H8 A1,B1 s", Coords::Ludii, Some(1)).is_err());
    }

    #[test]
    fn bad_positions_are_located() {
        for (text, at) in [
            ("H8", 0),
            ("Z9 - n", 0),
            ("H8 A1,A9 n", 6),
            ("H8 A1,A1 n", 6),
            ("H8 A1,H8 n", 6),
            ("H8 - x", 5),
            ("H8 - n many", 7),
        ] {
            let e = Position::parse(text, Coords::Ludii, None).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
