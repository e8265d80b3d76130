//! Oshi's picture: the 9×9 board, each piece a tower seen from above (one,
//! two or three tiers for its stories), the scores beside it; the last
//! move's squares marked, with an arrow for the mover and for every piece
//! it pushed (off the board: an arrow over the edge).

use super::geometry::{Dir, Square};
use super::notation::Move;
use super::position::Position;
use super::Oshi;
use crate::game::{Board, Glyph, Kind, Marks, Note, Picture, Piece, Rules, Side};
use crate::games::grid::square_board;

/// How far past its cell's centre a pushed-off piece's arrow ends, in
/// cells: at the board's edge, its head just over it.
const PUSHED_OFF: f64 = 0.55;

macro_rules! tower {
    ($fill:literal, $stroke:literal, 1) => {
        concat!(
            "<circle r=\"40\" fill=\"",
            $fill,
            "\" stroke=\"",
            $stroke,
            "\" stroke-width=\"4\"/>"
        )
    };
    ($fill:literal, $stroke:literal, 2) => {
        concat!(
            tower!($fill, $stroke, 1),
            "<circle r=\"27\" fill=\"",
            $fill,
            "\" stroke=\"",
            $stroke,
            "\" stroke-width=\"4\"/>"
        )
    };
    ($fill:literal, $stroke:literal, 3) => {
        concat!(
            tower!($fill, $stroke, 2),
            "<circle r=\"14\" fill=\"",
            $fill,
            "\" stroke=\"",
            $stroke,
            "\" stroke-width=\"4\"/>"
        )
    };
}

const RED: &str = "#c62828";
const WHITE: &str = "#f5efdf";

const fn glyph(
    id: &'static str,
    name: &'static str,
    svg: &'static str,
    text: &'static str,
    side: Side,
) -> Glyph {
    Glyph {
        id,
        name,
        svg,
        text,
        ascii: text,
        side: Some(side),
    }
}

impl Picture for Oshi {
    const COLOURS: [&'static str; 2] = [RED, WHITE];
    /// By owner, then height: Red 1..3, White 1..3.
    const GLYPHS: &'static [Glyph] = &[
        glyph(
            "oshi-r1",
            "Red 1-story piece",
            tower!("#c62828", "#4e0d0d", 1),
            "R1",
            Side::First,
        ),
        glyph(
            "oshi-r2",
            "Red 2-story piece",
            tower!("#c62828", "#4e0d0d", 2),
            "R2",
            Side::First,
        ),
        glyph(
            "oshi-r3",
            "Red 3-story piece",
            tower!("#c62828", "#4e0d0d", 3),
            "R3",
            Side::First,
        ),
        glyph(
            "oshi-w1",
            "White 1-story piece",
            tower!("#f5efdf", "#5d4037", 1),
            "W1",
            Side::Second,
        ),
        glyph(
            "oshi-w2",
            "White 2-story piece",
            tower!("#f5efdf", "#5d4037", 2),
            "W2",
            Side::Second,
        ),
        glyph(
            "oshi-w3",
            "White 3-story piece",
            tower!("#f5efdf", "#5d4037", 3),
            "W3",
            Side::Second,
        ),
    ];

    fn board(_: &Position) -> Board {
        square_board(9, 9, 2, |_, _| (Kind::Plain, ""))
    }

    fn pieces(pos: &Position, out: &mut Vec<Piece>) {
        for sq in Square::all() {
            if let Some(p) = pos.piece(sq) {
                out.push(Piece {
                    cell: sq.index() as u16,
                    glyph: (p.owner.index() * 3) as u8 + p.height.clamp(1, 3) - 1,
                });
            }
        }
    }

    fn notes(pos: &Position) -> Vec<Note> {
        let points = |n: u8| if n == 1 { "point" } else { "points" };
        vec![Note {
            text: format!(
                "Red {} {}, White {} {} (7 wins)",
                pos.score[0],
                points(pos.score[0]),
                pos.score[1],
                points(pos.score[1])
            ),
            pieces: Vec::new(),
        }]
    }

    fn marks(before: &Position, mv: &Move, _: &Board) -> Marks {
        let centre = |sq: Square| (f64::from(sq.file()), 8.0 - f64::from(sq.rank()));
        let mut marks = Marks {
            from: vec![mv.from.index() as u16],
            to: vec![mv.to.index() as u16],
            arrows: vec![(centre(mv.from), centre(mv.to))],
        };
        let mut after = before.clone();
        if Oshi::play(&mut after, mv).is_err() {
            return marks;
        }
        let Some((dir, _)) = Dir::between(mv.from, mv.to) else {
            return marks;
        };
        let (df, dr) = dir.delta();
        for (id, (&was, &now)) in before.at.iter().zip(&after.at).enumerate() {
            let Some(was) = was else { continue };
            if was == mv.from
                || now == Some(was)
                || before.ids.iter().all(|ids| ids & (1 << id) == 0)
            {
                continue;
            }
            let end = match now {
                Some(sq) => centre(sq),
                // Pushed off: to the edge, the head over it (not as far
                // as the file letters and rank numbers beside the board).
                None => {
                    let (x, y) = centre(was);
                    (
                        x + f64::from(df) * PUSHED_OFF,
                        y - f64::from(dr) * PUSHED_OFF,
                    )
                }
            };
            marks.arrows.push((centre(was), end));
        }
        marks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    /// The marks of the move `mv` from `position`, and the board.
    fn arrows(position: &str, mv: &str) -> (Marks, Board) {
        let pos = Oshi::parse_position(position).unwrap();
        let mv = Oshi::parse_move(&pos, mv).unwrap();
        let board = Oshi::board(&pos);
        (Oshi::marks(&pos, &mv, &board), board)
    }

    #[test]
    fn a_push_off_arrow_points_over_the_edge_and_hides_no_label() {
        // Off the bottom (the file letters) and off the left (the numbers).
        for (position, mv) in [
            ("9/9/9/9/9/9/9/A8/a8 r 0-0 -", "a2-a1"),
            ("9/9/9/9/9/9/9/9/aA7 r 0-0 -", "b1-a1"),
        ] {
            let (Marks { arrows, .. }, board) = arrows(position, mv);
            assert_eq!(arrows.len(), 2, "{mv}: the move and the push");
            let ((x0, y0), (x1, y1)) = arrows[1];
            // Off the board: past the edge cell by half a cell.
            let past = (x1 - x0).abs().max((y1 - y0).abs());
            assert!(past > 0.5, "{mv}: {:?}", arrows[1]);
            for l in &board.labels {
                let d = ((l.x - x1).powi(2) + (l.y - y1).powi(2)).sqrt();
                assert!(d >= 0.25, "{mv}: the arrow ends on label {}", l.text);
            }
        }
    }
}
