//! The Retsami position and its `Position` notation:
//!
//! ```text
//! WRWRWRWR73 0-0 r -
//! ```
//! The Way from 1 to 81: `R` a red counter, `W` a white one, a number that
//! many empty squares; the counters off the board, `Red-White`; the side to
//! move, `r` or `w`; `~~` when the side to move has a draw offer to answer,
//! else `-`.

use super::geometry::{OnTheWay, Square};
use crate::game::{fields_with_offsets, PositionError, Side};
use std::fmt::Write;

pub const COUNTERS: u8 = 4;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// By side (Red 0, White 1): the squares its counters stand on, as bits
    /// by square index (a1 = bit 0, i9 = bit 80). Set through
    /// [`Position::put`]; never both sides' bit on one square.
    pub board: [u128; 2],
    /// Counters off the board, Red (0) and White (1).
    pub off: [u8; 2],
    pub to_move: Side,
    /// The last turn offered a draw.
    pub offer_pending: bool,
    /// An offer was accepted: the game is drawn.
    pub drawn: bool,
    /// The side that stood on Way 8 at the start and moved first.
    pub first_mover: Side,
}

fn fail<T>(message: impl Into<String>, at: usize) -> Result<T, PositionError> {
    PositionError::fail(message, at)
}

fn letter(side: Side) -> char {
    match side {
        Side::First => 'R',
        Side::Second => 'W',
    }
}

/// The counters-off field, Red-White, like `1-0`.
fn counters_off((at, off): (usize, &str)) -> Result<[u8; 2], PositionError> {
    let parsed: Option<Vec<u8>> = off
        .split_once('-')
        .map(|(a, b)| [a, b].iter().filter_map(|s| s.parse::<u8>().ok()).collect());
    match parsed.as_deref() {
        Some(&[r, w]) => Ok([r, w]),
        _ => fail(
            "the counters off the board are written Red-White, like `1-0`",
            at,
        ),
    }
}

impl Position {
    /// The start: counters alternately on Way 1..=8, `first_mover` on the
    /// even squares (8 among them) and to move.
    pub fn start(first_mover: Side) -> Position {
        let mut pos = Position {
            board: [0; 2],
            off: [0, 0],
            to_move: first_mover,
            offer_pending: false,
            drawn: false,
            first_mover,
        };
        for w in 1..=8u8 {
            let side = if w % 2 == 0 {
                first_mover
            } else {
                first_mover.other()
            };
            pos.put(Square::at_way(w), Some(side));
        }
        pos
    }

    pub fn at(&self, sq: Square) -> Option<Side> {
        let bit = 1u128 << sq.index();
        if self.board[0] & bit != 0 {
            Some(Side::First)
        } else if self.board[1] & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// Puts `side`'s counter on `sq`, or empties it.
    pub fn put(&mut self, sq: Square, side: Option<Side>) {
        let bit = 1u128 << sq.index();
        self.board[0] &= !bit;
        self.board[1] &= !bit;
        if let Some(side) = side {
            self.board[side.index()] |= bit;
        }
    }

    /// Both sides' counters, as bits by square index.
    pub fn occupied(&self) -> u128 {
        self.board[0] | self.board[1]
    }

    pub fn parse(text: &str, first_mover: Side) -> Result<Position, PositionError> {
        let fields = fields_with_offsets(text);
        if fields.len() != 4 {
            return fail(
                "a Retsami position has 4 fields: the Way (like `WRWRWRWR73`), the \
                 counters off the board (`0-0`), the side to move (`r` or `w`), and \
                 `~~` or `-` for a pending draw offer",
                0,
            );
        }
        let mut pos = Position::start(first_mover);
        pos.board = [0; 2];
        let on = pos.way(fields[0])?;
        pos.off = counters_off(fields[1])?;
        for side in Side::BOTH {
            // (Wide enough for any count a Position may write.)
            if u32::from(on[side.index()]) + u32::from(pos.off[side.index()]) > u32::from(COUNTERS)
            {
                return fail(
                    format!(
                        "{} has more than {COUNTERS} counters",
                        if side == Side::First { "Red" } else { "White" }
                    ),
                    fields[0].0,
                );
            }
        }
        let (at, side) = fields[2];
        pos.to_move = match side {
            "r" | "R" => Side::First,
            "w" | "W" => Side::Second,
            _ => return fail("the side to move is `r` (Red) or `w` (White)", at),
        };
        let (at, offer) = fields[3];
        pos.offer_pending = match offer {
            "~~" => true,
            "-" => false,
            _ => return fail("a pending draw offer is `~~`; none is `-`", at),
        };
        Ok(pos)
    }

    /// The Way field: its 81 squares along the Way, counters `R`, `W` and
    /// numbers of empty squares; each side's counters on it.
    fn way(&mut self, (at, way): (usize, &str)) -> Result<[u8; 2], PositionError> {
        let mut on = [0u8; 2];
        let bytes = way.as_bytes();
        let mut w = 0usize; // squares described so far
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'R' | b'W' | b'r' | b'w' => {
                    let side = if bytes[i].eq_ignore_ascii_case(&b'R') {
                        Side::First
                    } else {
                        Side::Second
                    };
                    if w >= 81 {
                        return fail("the Way has 81 squares; this describes more", at + i);
                    }
                    self.put(Square::at_way(w as u8 + 1), Some(side));
                    on[side.index()] += 1;
                    w += 1;
                    i += 1;
                }
                b'1'..=b'9' => {
                    let len = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                    let n: usize = way[i..i + len].parse().unwrap_or(usize::MAX);
                    w = w.saturating_add(n);
                    if w > 81 {
                        return fail("the Way has 81 squares; this describes more", at + i);
                    }
                    i += len;
                }
                _ => {
                    return fail(
                        "the Way is written with `R`, `W` and numbers of empty squares",
                        at + i,
                    )
                }
            }
        }
        if w != 81 {
            return fail(format!("the Way has 81 squares; this describes {w}"), at);
        }
        Ok(on)
    }

    pub fn write(&self) -> String {
        let mut out = String::new();
        let mut empty = 0;
        for w in 1..=81u8 {
            match self.at(Square::at_way(w)) {
                None => empty += 1,
                Some(side) => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push(letter(side));
                }
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        let _ = write!(
            out,
            " {}-{} {} {}",
            self.off[0],
            self.off[1],
            if self.to_move == Side::First {
                'r'
            } else {
                'w'
            },
            if self.offer_pending { "~~" } else { "-" }
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_alternates_counters_on_way_1_to_8() {
        let p = Position::start(Side::First);
        assert_eq!(p.write(), "WRWRWRWR73 0-0 r -");
        for (w, side) in [
            (1, Side::Second),
            (2, Side::First),
            (7, Side::Second),
            (8, Side::First),
        ] {
            assert_eq!(p.at(Square::at_way(w)), Some(side), "Way {w}");
        }
        assert_eq!(p.at(Square::at_way(9)), None);
        let p = Position::start(Side::Second);
        assert_eq!(p.write(), "RWRWRWRW73 0-0 w -");
    }

    #[test]
    fn notation_round_trips() {
        for text in [
            "WRWRWRWR73 0-0 r -",
            "W2R76R 1-2 w ~~",
            "81 4-4 r -",
            "R80 0-0 w -",
        ] {
            assert_eq!(Position::parse(text, Side::First).unwrap().write(), text);
        }
    }

    #[test]
    fn bad_positions_are_located() {
        for (text, at) in [
            ("WR 0-0 r -", 0),
            ("WRX78 0-0 r -", 2),
            ("W81 0-0 r -", 1),
            ("RRRRR76 0-0 r -", 0),
            ("R80 4-0 r -", 0),
            ("R80 0 r -", 4),
            ("R80 0-0 x -", 8),
            ("R80 0-0 r ?", 10),
            ("R80 0-0 r", 0),
        ] {
            let e = Position::parse(text, Side::First).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
