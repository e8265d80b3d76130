//! The Roshi position and its `Position` notation:
//!
//! ```text
//! 7/7/2R4/3S3/7/1B3B1/7 c3-e5 7-6 r play -
//! ```
//! Ranks from the top down separated by `/`, each from file a: `R` a red
//! piece, `B` a blue one, `S` the roshi stone, a number that many empty
//! squares (the ranks give the board's size); the zone; the supplies
//! `Red-Blue`; the side to move `r` or `b`; the phase `setup` or `play`;
//! `--` when the last turn was a pass, else `-`.

use super::geometry::{Bits, Dims, Sq, Zone, CELLS, MAX_SIDE};
use crate::game::{fields_with_offsets, PositionError, Side};
use std::fmt::Write;

pub const PIECES: u8 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Occupant {
    Empty,
    Piece(Side),
    Stone,
}

/// How far a slide may go (`Slide` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlideRule {
    /// Any path of orthogonal steps through empty squares (default).
    Path,
    /// A straight orthogonal line through empty squares.
    Line,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Setup,
    Play,
}

/// A position: the pieces as a set of squares a side and the stone's
/// square (what the flood fill of a slide and the roshi test read without
/// walking cells), the board's squares kept beside them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub dims: Dims,
    pub zone: Zone,
    /// Red's pieces (0) and Blue's (1).
    pub(super) pieces: [Bits; 2],
    pub(super) stone: Option<Sq>,
    /// Every square of the board (from `dims`).
    pub(super) board: Bits,
    /// Unplaced pieces, Red (0) and Blue (1).
    pub supply: [u8; 2],
    pub to_move: Side,
    pub phase: Phase,
    /// The last turn was a pass.
    pub last_pass: bool,
    /// Two passes in a row: drawn.
    pub drawn: bool,
    pub slide: SlideRule,
}

fn fail<T>(message: impl Into<String>, at: usize) -> Result<T, PositionError> {
    PositionError::fail(message, at)
}

/// What a board field puts where: file, rank, what, and its place in the
/// text.
type Placed = (u8, u8, Occupant, usize);

/// The board field (ranks from the top, `/` between): its size (5 to 19
/// each way, every rank as wide) and what stands on it.
fn board((at, board): (usize, &str)) -> Result<(Dims, Vec<Placed>), PositionError> {
    let ranks: Vec<&str> = board.split('/').collect();
    let height = ranks.len();
    if !(5..=MAX_SIDE as usize).contains(&height) {
        return fail("a board has 5 to 19 ranks", at);
    }
    let mut placed = Vec::new();
    let mut width = None;
    let mut off = at;
    for (i, rank_text) in ranks.iter().enumerate() {
        let file = rank((height - 1 - i) as u8, rank_text, off, &mut placed)?;
        match width {
            None if file >= 5 => width = Some(file),
            None => return fail("a board has 5 to 19 files", off),
            Some(w) if w != file => {
                return fail(format!("this rank has {file} squares, the first {w}"), off)
            }
            Some(_) => {}
        }
        off += rank_text.len() + 1;
    }
    let dims = Dims {
        files: width.unwrap_or(0) as u8,
        ranks: height as u8,
    };
    Ok((dims, placed))
}

/// One rank of the board field (at `off` in the text): what stands on it
/// into `placed`; its width.
fn rank(
    rank: u8,
    text: &str,
    off: usize,
    placed: &mut Vec<Placed>,
) -> Result<usize, PositionError> {
    let bytes = text.as_bytes();
    let mut file = 0usize;
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'0'..=b'9' => {
                let len = bytes[k..].iter().take_while(|b| b.is_ascii_digit()).count();
                file = file.saturating_add(text[k..k + len].parse::<usize>().unwrap_or(usize::MAX));
                k += len;
            }
            c @ (b'R' | b'B' | b'S' | b'r' | b'b' | b's') => {
                let cell = match c.to_ascii_uppercase() {
                    b'R' => Occupant::Piece(Side::First),
                    b'B' => Occupant::Piece(Side::Second),
                    _ => Occupant::Stone,
                };
                placed.push((file as u8, rank, cell, off + k));
                file += 1;
                k += 1;
            }
            _ => {
                return fail(
                    "the board is written with `R`, `B`, `S` and numbers of empty squares",
                    off + k,
                )
            }
        }
        if file > MAX_SIDE as usize {
            return fail("a rank has at most 19 squares", off + k.saturating_sub(1));
        }
    }
    Ok(file)
}

/// The supplies field (`Red-Blue`, like `7-6`): a side has 8 pieces on the
/// board (`on`) and in supply together.
fn supplies((at, supply): (usize, &str), on: [u32; 2]) -> Result<[u8; 2], PositionError> {
    let parsed: Option<Vec<u8>> = supply
        .split_once('-')
        .map(|(a, b)| [a, b].iter().filter_map(|s| s.parse::<u8>().ok()).collect());
    match parsed.as_deref() {
        Some(&[r, b])
            if u32::from(r) + on[0] <= u32::from(PIECES)
                && u32::from(b) + on[1] <= u32::from(PIECES) =>
        {
            Ok([r, b])
        }
        _ => fail(
            "the supplies are written Red-Blue, like `7-6`; a side has 8 pieces on the board \
             and in supply together",
            at,
        ),
    }
}

impl Position {
    pub fn start(dims: Dims, zone: Zone, slide: SlideRule) -> Position {
        Position {
            dims,
            zone,
            pieces: [Bits::none(dims.files); 2],
            stone: None,
            board: Bits::board(dims),
            supply: [PIECES, PIECES],
            to_move: Side::First,
            phase: Phase::Setup,
            last_pass: false,
            drawn: false,
            slide,
        }
    }

    /// What stands on `s` (empty off the board).
    pub fn at(&self, s: Sq) -> Occupant {
        if !self.dims.contains(s) {
            return Occupant::Empty;
        }
        let at = self.board.place(s);
        if self.pieces[0].has_at(at) {
            Occupant::Piece(Side::First)
        } else if self.pieces[1].has_at(at) {
            Occupant::Piece(Side::Second)
        } else if self.stone == Some(s) {
            Occupant::Stone
        } else {
            Occupant::Empty
        }
    }

    /// Puts `c` on `s`, a square of the board.
    pub fn set(&mut self, s: Sq, c: Occupant) {
        let at = self.board.place(s);
        self.pieces[0].set_at(at, c == Occupant::Piece(Side::First));
        self.pieces[1].set_at(at, c == Occupant::Piece(Side::Second));
        if self.stone == Some(s) {
            self.stone = None;
        }
        if c == Occupant::Stone {
            self.stone = Some(s);
        }
    }

    pub fn is_empty(&self, s: Sq) -> bool {
        self.dims.contains(s) && self.at(s) == Occupant::Empty
    }

    pub fn stone(&self) -> Option<Sq> {
        self.stone
    }

    /// `side`'s pieces.
    pub(crate) fn pieces(&self, side: Side) -> &Bits {
        &self.pieces[side.index()]
    }

    /// The empty squares.
    pub(crate) fn empties(&self) -> Bits {
        let mut taken = self.pieces[0] | self.pieces[1];
        if let Some(s) = self.stone {
            taken.insert(s);
        }
        self.board & !taken
    }

    pub fn parse(text: &str, slide: SlideRule) -> Result<Position, PositionError> {
        let fields = fields_with_offsets(text);
        if fields.len() != 6 {
            return fail(
                "a Roshi position has 6 fields: the board (ranks from the top, `/` \
                 between), the zone (`c3-e5`), the supplies (`8-8`), the side to move \
                 (`r` or `b`), the phase (`setup` or `play`) and `--` or `-` for a pass",
                0,
            );
        }
        let (dims, placed) = board(fields[0])?;
        let (at, zone) = fields[1];
        let zone = Zone::parse(zone)
            .filter(|z| z.fits(dims))
            .ok_or_else(|| PositionError {
                message: "the zone is two opposite corners on the board, like `c3-e5`".into(),
                at,
            })?;
        let mut pos = Position::start(dims, zone, slide);
        let (on, stones) = pos.place(placed)?;
        pos.supply = supplies(fields[2], on)?;
        let (at, side) = fields[3];
        pos.to_move = match side {
            "r" | "R" => Side::First,
            "b" | "B" => Side::Second,
            _ => return fail("the side to move is `r` (Red) or `b` (Blue)", at),
        };
        let (at, phase) = fields[4];
        pos.phase = match phase {
            "setup" => Phase::Setup,
            "play" => Phase::Play,
            _ => return fail("the phase is `setup` or `play`", at),
        };
        if pos.phase == Phase::Play && stones == 0 {
            return fail("in play the roshi stone is on the board", at);
        }
        let (at, pass) = fields[5];
        pos.last_pass = match pass {
            "--" => true,
            "-" => false,
            _ => return fail("`--` when the last turn was a pass, else `-`", at),
        };
        Ok(pos)
    }

    /// Puts the board's pieces and stone on it (one stone at most, in the
    /// zone); how many pieces each side has on it, and the stones.
    fn place(&mut self, placed: Vec<Placed>) -> Result<([u32; 2], u32), PositionError> {
        // Wide enough for a 19x19 board of one side's pieces.
        let mut on = [0u32; 2];
        let mut stones = 0;
        for (file, rank, cell, at) in placed {
            let s = Sq { file, rank };
            match cell {
                Occupant::Stone => {
                    stones += 1;
                    if stones > 1 {
                        return fail("there is one roshi stone", at);
                    }
                    if !self.zone.contains(s) {
                        return fail(format!("the roshi stone on {s} is outside the zone"), at);
                    }
                }
                Occupant::Piece(side) => on[side.index()] += 1,
                Occupant::Empty => {}
            }
            self.set(s, cell);
        }
        Ok((on, stones))
    }

    pub fn write(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.dims.ranks).rev() {
            let mut empty = 0;
            for file in 0..self.dims.files {
                let c = self.at(Sq { file, rank });
                if c == Occupant::Empty {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    let _ = write!(out, "{empty}");
                    empty = 0;
                }
                out.push(match c {
                    Occupant::Piece(Side::First) => 'R',
                    Occupant::Piece(Side::Second) => 'B',
                    _ => 'S',
                });
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let _ = write!(
            out,
            " {} {}-{} {} {} {}",
            self.zone,
            self.supply[0],
            self.supply[1],
            if self.to_move == Side::First {
                'r'
            } else {
                'b'
            },
            if self.phase == Phase::Setup {
                "setup"
            } else {
                "play"
            },
            if self.last_pass { "--" } else { "-" }
        );
        out
    }
}

/// Hashed as the board of cells it once was (`rank * 19 + file`, 361 of
/// them), then the other fields in their order: Roshi's search key (the
/// default, [`crate::game::key_of`] the position) stays what it was.
impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut cells = [Occupant::Empty; CELLS];
        for s in self.dims.squares() {
            cells[s.index()] = self.at(s);
        }
        self.dims.hash(state);
        self.zone.hash(state);
        cells.hash(state);
        self.supply.hash(state);
        self.to_move.hash(state);
        self.phase.hash(state);
        self.last_pass.hash(state);
        self.drawn.hash(state);
        self.slide.hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in [
            "7/7/7/7/7/7/7 c3-e5 8-8 r setup -",
            "7/7/2R4/3S3/7/1B3B1/7 c3-e5 7-6 r play -",
            "9/9/9/9/4S4/9/9/9/9 d4-f6 8-8 b play --",
            "19/19/19/19/19/19/19/19/19/9S9/19/19/19/19/19/19/19/19/19 h8-j10 8-8 r play -",
            "5/5/2S2/5/RRRR1 b2-d4 4-8 b play -",
        ] {
            assert_eq!(
                Position::parse(text, SlideRule::Path).unwrap().write(),
                text
            );
        }
    }

    #[test]
    fn bad_positions_are_located() {
        for (text, at) in [
            ("7/7/7 c3-e5 8-8 r setup -", 0),
            ("7/7/7/7/7/7/6 c3-e5 8-8 r setup -", 12),
            ("7/7/7/7/7/7/6X c3-e5 8-8 r setup -", 13),
            ("7/7/7/7/7/7/7 c3-h8 8-8 r setup -", 14),
            ("7/7/7/7/7/7/S6 c3-e5 8-8 r play -", 12),
            ("7/7/7/3S3/7/7/S6 c3-e5 8-8 r play -", 14),
            ("7/7/7/7/7/7/RRRRRRR 8-8 r setup -", 0),
            ("7/7/7/7/7/7/RR5 c3-e5 8-8 r setup -", 22),
            ("7/7/7/7/7/7/7 c3-e5 8-8 x setup -", 24),
            ("7/7/7/7/7/7/7 c3-e5 8-8 r later -", 26),
            ("7/7/7/7/7/7/7 c3-e5 8-8 r play -", 26),
            ("7/7/7/7/7/7/7 c3-e5 8-8 r setup ?", 32),
        ] {
            let e = Position::parse(text, SlideRule::Path).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
