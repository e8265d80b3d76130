//! The Vagabond position and its `Position` notation:
//!
//! ```text
//! L(0,-6),W(-4,0),l(2,6),b(1,6) SSBBWCCFD/SSBWWCCFD HG h -
//! ```
//! The tiles on the board, `T(x,y)` with the code uppercase for Host and
//! lowercase for Guest (or `-`); the reserves `HOST/GUEST` as tile codes
//! (`-` for an empty one); whose Lotus has been deployed (`H`, `G`, `HG` or
//! `-`); the side to move `h` or `g`; `~~` when a draw offer is pending,
//! else `-`.

use super::geometry::{Point, GRID};
use super::tiles::{Tile, TileCode, TileOptions};
use crate::game::{fields_with_offsets, PositionError, Side};
use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: [Option<Tile>; GRID],
    /// Tiles in reserve, by player and code index.
    pub reserve: [[u8; 8]; 2],
    pub lotus_deployed: [bool; 2],
    pub to_move: Side,
    pub offer_pending: bool,
    pub drawn: bool,
    /// Set when a Lotus is captured.
    pub winner: Option<Side>,
    /// Turns since the record's start, counting from 0 for Host's first:
    /// the Garden Gate number of a turn is `turn / 2`.
    pub turn: u32,
    pub options: TileOptions,
}

fn fail<T>(message: impl Into<String>, at: usize) -> Result<T, PositionError> {
    PositionError::fail(message, at)
}

impl Position {
    pub fn start(options: TileOptions) -> Position {
        Position {
            board: [None; GRID],
            reserve: [options.reserve(), options.reserve()],
            lotus_deployed: [false, false],
            to_move: Side::First,
            offer_pending: false,
            drawn: false,
            winner: None,
            turn: 0,
            options,
        }
    }

    pub fn at(&self, p: Point) -> Option<Tile> {
        self.board[p.index()]
    }

    pub fn parse(text: &str, options: TileOptions) -> Result<Position, PositionError> {
        let fields = fields_with_offsets(text);
        if fields.len() != 5 {
            return fail(
                "a Vagabond position has 5 fields: the tiles (`L(0,-6),l(2,6)` or `-`), \
                 the reserves (`HOST/GUEST`), the deployed Lotuses (`HG`, `H`, `G` or \
                 `-`), the side to move (`h` or `g`) and `~~` or `-` for a pending offer",
                0,
            );
        }
        let mut pos = Position::start(options);
        pos.reserve = [[0; 8]; 2];
        pos.tiles(fields[0])?;
        pos.reserves(fields[1])?;
        pos.within_sets(options, fields[1].0)?;
        let (at, lotus) = fields[2];
        pos.lotus_deployed = match lotus {
            "-" => [false, false],
            "H" => [true, false],
            "G" => [false, true],
            "HG" => [true, true],
            _ => return fail("the deployed Lotuses are `HG`, `H`, `G` or `-`", at),
        };
        let (at, side) = fields[3];
        pos.to_move = match side {
            "h" | "H" => Side::First,
            "g" | "G" => Side::Second,
            _ => return fail("the side to move is `h` (Host) or `g` (Guest)", at),
        };
        pos.turn = u32::from(pos.to_move == Side::Second);
        let (at, offer) = fields[4];
        pos.offer_pending = match offer {
            "~~" => true,
            "-" => false,
            _ => return fail("a pending draw offer is `~~`; none is `-`", at),
        };
        Ok(pos)
    }

    /// The tiles field (`L(0,-6),l(2,6)`, or `-`): each tile on its point,
    /// one to a point.
    fn tiles(&mut self, (at, tiles): (usize, &str)) -> Result<(), PositionError> {
        if tiles == "-" {
            return Ok(());
        }
        let mut k = 0;
        for item in tiles.split("),") {
            let item_text = if item.ends_with(')') {
                item.to_string()
            } else {
                format!("{item})")
            };
            let here = at + k;
            k += item.len() + 2;
            let mut chars = item_text.chars();
            let letter = chars.next().unwrap_or(' ');
            let Some(code) = TileCode::from_letter(letter.to_ascii_uppercase()) else {
                return fail(
                    "a tile is a code L S B W C F D Y and a point, like `L(0,-6)`",
                    here,
                );
            };
            let owner = if letter.is_ascii_uppercase() {
                Side::First
            } else {
                Side::Second
            };
            let inner = item_text[1..]
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .and_then(|r| r.split_once(','))
                .and_then(|(x, y)| Some((x.parse::<i32>().ok()?, y.parse::<i32>().ok()?)));
            let Some(point) = inner.and_then(|(x, y)| Point::new(x, y)) else {
                return fail("a tile's point is `(x,y)` on the board", here + 1);
            };
            if self.at(point).is_some() {
                return fail(format!("two tiles on {point}"), here);
            }
            self.board[point.index()] = Some(Tile { owner, code });
        }
        Ok(())
    }

    /// The reserves field (`HOST/GUEST`, each tile codes or `-`).
    fn reserves(&mut self, (at, reserves): (usize, &str)) -> Result<(), PositionError> {
        let Some((host, guest)) = reserves.split_once('/') else {
            return fail(
                "the reserves are written `HOST/GUEST`, like `SSBBWWCCFD/LSSBBWWCCFD`",
                at,
            );
        };
        for (side, text, off) in [
            (Side::First, host, at),
            (Side::Second, guest, at + host.len() + 1),
        ] {
            if text == "-" {
                continue;
            }
            for (i, c) in text.char_indices() {
                let code =
                    TileCode::from_letter(c.to_ascii_uppercase()).ok_or_else(|| PositionError {
                        message: format!("`{c}` is not a tile code"),
                        at: off + i,
                    })?;
                // Counted wide: a reserve may be written any length.
                let n = &mut self.reserve[side.index()][code.index()];
                *n = n.saturating_add(1);
            }
        }
        Ok(())
    }

    /// Each side has the tiles of its set (the Options tag says which), on the
    /// board and in reserve together; a captured tile is gone.
    fn within_sets(&self, options: TileOptions, at: usize) -> Result<(), PositionError> {
        let set = options.reserve();
        for side in Side::BOTH {
            for code in TileCode::ALL {
                let on_board = Point::all()
                    .filter(|&p| self.at(p) == Some(Tile { owner: side, code }))
                    .count();
                let held = on_board + usize::from(self.reserve[side.index()][code.index()]);
                let allowed = usize::from(set[code.index()]);
                if held > allowed {
                    return fail(
                        format!(
                            "{} has {held} {} tiles on the board and in reserve; the set has {allowed}",
                            super::SIDES[side.index()],
                            code.name()
                        ),
                        at,
                    );
                }
            }
        }
        Ok(())
    }

    pub fn write(&self) -> String {
        let tiles: Vec<String> = Point::all()
            .filter_map(|p| {
                self.at(p).map(|t| {
                    let c = t.code.letter();
                    let c = if t.owner == Side::First {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    };
                    format!("{c}({},{})", p.x, p.y)
                })
            })
            .collect();
        let mut out = if tiles.is_empty() {
            "-".to_string()
        } else {
            tiles.join(",")
        };
        out.push(' ');
        for (i, side) in Side::BOTH.into_iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            let mut any = false;
            for code in TileCode::ALL {
                for _ in 0..self.reserve[side.index()][code.index()] {
                    out.push(code.letter());
                    any = true;
                }
            }
            if !any {
                out.push('-');
            }
        }
        let lotus = match self.lotus_deployed {
            [true, true] => "HG",
            [true, false] => "H",
            [false, true] => "G",
            [false, false] => "-",
        };
        let _ = write!(
            out,
            " {lotus} {} {}",
            if self.to_move == Side::First {
                'h'
            } else {
                'g'
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
    fn notation_round_trips() {
        let start = Position::start(TileOptions::default());
        assert_eq!(start.write(), "- LSSBBWWCCFD/LSSBBWWCCFD - h -");
        for text in [
            "- LSSBBWWCCFD/LSSBBWWCCFD - h -",
            "W(-4,0),L(0,-6),b(1,6),l(2,6) SSBWCCFD/SSBWWCCFD HG g ~~",
            "S(0,8) -/- - h -",
        ] {
            let p = Position::parse(text, TileOptions::default()).unwrap();
            assert_eq!(p.write(), text);
        }
    }

    #[test]
    fn bad_positions_are_located() {
        for (text, at) in [
            ("- LS/LS - h", 0),
            ("X(0,0) -/- - h -", 0),
            ("L(0,9) -/- - h -", 1),
            ("L(0,0),S(0,0) -/- - h -", 7),
            ("- LS - h -", 2),
            ("- LS/LQ - h -", 6),
            ("- -/- X h -", 6),
            ("- -/- - x -", 8),
            ("- -/- - h ?", 10),
        ] {
            let e = Position::parse(text, TileOptions::default()).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
