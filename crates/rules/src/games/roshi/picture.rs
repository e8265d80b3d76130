//! Roshi's picture: the board of its size with the roshi zone shaded, the
//! red and blue pieces, the roshi stone distinct, both supplies beside it;
//! the last turn's squares marked, with an arrow for each slide and push.

use super::geometry::Sq;
use super::notation::{Action, Move};
use super::position::{Occupant, Phase, Position};
use super::Roshi;
use crate::game::{Board, Glyph, Kind, Marks, Note, Picture, Piece, Side};
use crate::games::grid::square_board;

/// The board cell of a square: cells go `rank * files + file`.
fn cell(pos: &Position, s: Sq) -> u16 {
    u16::from(s.rank) * u16::from(pos.dims.files) + u16::from(s.file)
}

fn centre(pos: &Position, s: Sq) -> (f64, f64) {
    (
        f64::from(s.file),
        f64::from(pos.dims.ranks) - 1.0 - f64::from(s.rank),
    )
}

impl Picture for Roshi {
    const COLOURS: [&'static str; 2] = ["#c62828", "#1565c0"];
    const GLYPHS: &'static [Glyph] = &[
        Glyph {
            id: "roshi-red",
            name: "Red piece",
            svg: "<circle r=\"36\" fill=\"#c62828\" stroke=\"#4e0d0d\" stroke-width=\"4\"/>",
            text: "●",
            ascii: "R",
            side: Some(Side::First),
        },
        Glyph {
            id: "roshi-blue",
            name: "Blue piece",
            svg: "<circle r=\"36\" fill=\"#1565c0\" stroke=\"#0d2c54\" stroke-width=\"4\"/>",
            text: "○",
            ascii: "B",
            side: Some(Side::Second),
        },
        Glyph {
            id: "roshi-stone",
            name: "Roshi stone",
            svg: "<rect x=\"-30\" y=\"-30\" width=\"60\" height=\"60\" transform=\"rotate(45)\" \
                  fill=\"#212121\" stroke=\"#ffd54f\" stroke-width=\"6\"/>",
            text: "◆",
            ascii: "S",
            side: None,
        },
    ];

    fn board(pos: &Position) -> Board {
        let zone = pos.zone;
        square_board(pos.dims.files, pos.dims.ranks, 1, |file, rank| {
            match zone.contains(Sq { file, rank }) {
                true => (Kind::Shaded, "zone"),
                false => (Kind::Plain, ""),
            }
        })
    }

    fn pieces(pos: &Position, out: &mut Vec<Piece>) {
        for s in pos.dims.squares() {
            let glyph = match pos.at(s) {
                Occupant::Empty => continue,
                Occupant::Piece(side) => side.index() as u8,
                Occupant::Stone => 2,
            };
            out.push(Piece {
                cell: cell(pos, s),
                glyph,
            });
        }
    }

    fn notes(pos: &Position) -> Vec<Note> {
        let mut text = format!("Supply: Red {}, Blue {}", pos.supply[0], pos.supply[1]);
        if pos.phase == Phase::Setup {
            text.push_str(" (setting up)");
        }
        vec![Note {
            text,
            pieces: vec![(0, pos.supply[0]), (1, pos.supply[1])]
                .into_iter()
                .filter(|&(_, n)| n > 0)
                .collect(),
        }]
    }

    fn marks(before: &Position, mv: &Move, _: &Board) -> Marks {
        let mut marks = Marks::default();
        for &a in mv.actions() {
            match a {
                Action::Stone(s) | Action::Place(s) => marks.to.push(cell(before, s)),
                Action::Slide(a, b) => {
                    marks.from.push(cell(before, a));
                    marks.to.push(cell(before, b));
                    marks.arrows.push((centre(before, a), centre(before, b)));
                }
                // T moves one square directly away from P.
                Action::Push(p, t) => {
                    let df = i8::try_from(i16::from(t.file) - i16::from(p.file)).unwrap_or(0);
                    let dr = i8::try_from(i16::from(t.rank) - i16::from(p.rank)).unwrap_or(0);
                    marks.from.push(cell(before, t));
                    if let Some(dest) = t.offset(df, dr).filter(|&d| before.dims.contains(d)) {
                        marks.to.push(cell(before, dest));
                        marks.arrows.push((centre(before, t), centre(before, dest)));
                    }
                }
            }
        }
        marks
    }
}
