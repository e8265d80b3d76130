//! Retsami's picture: the 9×9 board with the Way drawn as the spiral it
//! is, from a1 inward to the Home Square e5 (marked), the counters on it
//! and those off the board beside it; the last move's squares marked.

use super::geometry::{OnTheWay, Square, HOME};
use super::notation::{Action, Move};
use super::position::Position;
use super::Retsami;
use crate::game::{Board, Glyph, Kind, Line, LineKind, Marks, Note, Picture, Piece, Side};
use crate::games::grid::square_board;

fn centre(sq: Square) -> (f64, f64) {
    (f64::from(sq.file()), 8.0 - f64::from(sq.rank()))
}

impl Picture for Retsami {
    const COLOURS: [&'static str; 2] = ["#c62828", "#f5efdf"];
    const GLYPHS: &'static [Glyph] = &[
        Glyph {
            id: "retsami-red",
            name: "Red counter",
            svg: "<circle r=\"36\" fill=\"#c62828\" stroke=\"#4e0d0d\" stroke-width=\"4\"/>\
                  <circle r=\"20\" fill=\"none\" stroke=\"#4e0d0d\" stroke-width=\"3\"/>",
            text: "●",
            ascii: "R",
            side: Some(Side::First),
        },
        Glyph {
            id: "retsami-white",
            name: "White counter",
            svg: "<circle r=\"36\" fill=\"#f5efdf\" stroke=\"#5d4037\" stroke-width=\"4\"/>\
                  <circle r=\"20\" fill=\"none\" stroke=\"#5d4037\" stroke-width=\"3\"/>",
            text: "○",
            ascii: "W",
            side: Some(Side::Second),
        },
    ];

    fn board(_: &Position) -> Board {
        let home = Square::at_way(HOME);
        let mut board = square_board(9, 9, 1, |file, rank| {
            match Square::new(file as i8, rank as i8) == Some(home) {
                true => (Kind::Special, "home"),
                false => (Kind::Plain, ""),
            }
        });
        board.lines.push(Line {
            points: (1..=HOME).map(|w| centre(Square::at_way(w))).collect(),
            class: "way",
            kind: LineKind::Guide,
            side: None,
        });
        board
    }

    fn pieces(pos: &Position, out: &mut Vec<Piece>) {
        for sq in Square::all() {
            if let Some(side) = pos.at(sq) {
                out.push(Piece {
                    cell: sq.index() as u16,
                    glyph: side.index() as u8,
                });
            }
        }
    }

    fn notes(pos: &Position) -> Vec<Note> {
        vec![Note {
            text: format!("Off the board: Red {}, White {}", pos.off[0], pos.off[1]),
            pieces: vec![(0, pos.off[0]), (1, pos.off[1])]
                .into_iter()
                .filter(|&(_, n)| n > 0)
                .collect(),
        }]
    }

    fn marks(_: &Position, mv: &Move, _: &Board) -> Marks {
        let Move::Play { action, .. } = *mv else {
            return Marks::default();
        };
        match action {
            Action::Advance { from, to } | Action::Take { from, to } => Marks {
                from: vec![from.index() as u16],
                to: vec![to.index() as u16],
                arrows: vec![(centre(from), centre(to))],
            },
            Action::Enter { to } => Marks {
                from: Vec::new(),
                to: vec![to.index() as u16],
                arrows: Vec::new(),
            },
        }
    }
}
