//! Vagabond Pai Sho's picture: the circular board (points with
//! x² + y² ≤ 80 on their lines, x to the right and y up as the record
//! writes them), the four gates marked, each tile a disc of its owner's
//! colour (Host green, Guest red) with its own sign, the reserves beside
//! the board; the last move's points marked. `--rotate 45` turns it the
//! way The Garden Gate shows it.

use super::geometry::{Point, GRID};
use super::notation::{Body, Move};
use super::position::Position;
use super::tiles::TileCode;
use super::Vagabond;
use crate::game::{Board, Cell, Glyph, Kind, Label, Line, Marks, Note, Picture, Piece};
use crate::game::{LineKind, Shape, Side};
use std::sync::LazyLock;

static CELL: LazyLock<[u16; GRID]> = LazyLock::new(|| {
    let mut t = [u16::MAX; GRID];
    for (i, p) in Point::all().enumerate() {
        t[p.index()] = i as u16;
    }
    t
});

fn cell(p: Point) -> u16 {
    CELL[p.index()]
}

fn centre(p: Point) -> (f64, f64) {
    (f64::from(p.x), -f64::from(p.y))
}

/// How far from the centre the axes' numbers stand, in points: under
/// (and left of) the outermost line.
const AXIS: f64 = 9.0;

fn text_col(x: i8) -> u16 {
    (4 + 3 * (i32::from(x) + 8)) as u16
}

/// A disc of the owner's colour, the tile's sign in white, and its letter
/// (as moves name it: `L` for a White Lotus) on the disc's lower right.
macro_rules! tile {
    ($fill:literal, $sign:expr, $letter:literal) => {
        concat!(
            "<circle r=\"40\" fill=\"",
            $fill,
            "\" stroke=\"#212121\" stroke-width=\"3\"/><g fill=\"#fff\" stroke=\"#fff\">",
            $sign,
            "</g><text x=\"30\" y=\"32\" font-family=\"sans-serif\" font-size=\"34\" \
             font-weight=\"bold\" text-anchor=\"middle\" dominant-baseline=\"central\" \
             fill=\"#212121\" stroke=\"#fff\" stroke-width=\"5\" paint-order=\"stroke\">",
            $letter,
            "</text>"
        )
    };
}

/// Each tile's sign, drawn in white on the disc.
macro_rules! lotus {
    () => {
        "<ellipse rx=\"8\" ry=\"26\"/><ellipse rx=\"8\" ry=\"26\" transform=\"rotate(45)\"/><ellipse rx=\"8\" ry=\"26\" transform=\"rotate(90)\"/><ellipse rx=\"8\" ry=\"26\" transform=\"rotate(135)\"/>"
    };
}
macro_rules! bison {
    () => {
        "<path d=\"M0,-24 L22,16 L-22,16 z\"/>"
    };
}
macro_rules! badger {
    () => {
        "<rect x=\"-18\" y=\"-18\" width=\"36\" height=\"36\"/>"
    };
}
macro_rules! wheel {
    () => {
        "<circle r=\"22\" fill=\"none\" stroke-width=\"6\"/><path d=\"M-22,0 L22,0 M0,-22 L0,22\" stroke-width=\"6\"/>"
    };
}
macro_rules! chrys {
    () => {
        "<circle r=\"8\"/><circle cx=\"0\" cy=\"-20\" r=\"7\"/><circle cx=\"0\" cy=\"20\" r=\"7\"/><circle cx=\"-20\" cy=\"0\" r=\"7\"/><circle cx=\"20\" cy=\"0\" r=\"7\"/><circle cx=\"14\" cy=\"14\" r=\"7\"/><circle cx=\"-14\" cy=\"-14\" r=\"7\"/><circle cx=\"14\" cy=\"-14\" r=\"7\"/><circle cx=\"-14\" cy=\"14\" r=\"7\"/>"
    };
}
macro_rules! lily {
    () => {
        "<path d=\"M0,-26 L14,0 L0,26 L-14,0 z\"/>"
    };
}
macro_rules! dragon {
    () => {
        "<path d=\"M-24,0 L-12,-20 L12,-20 L24,0 L12,20 L-12,20 z\"/>"
    };
}
macro_rules! lemur {
    () => {
        "<path d=\"M0,24 L22,-16 L-22,-16 z\"/>"
    };
}

macro_rules! tiles {
    ($($id:literal $name:literal $fill:literal $side:ident $text:literal $letter:literal $sign:ident),* $(,)?) => {
        &[$(Glyph {
            id: $id,
            name: $name,
            svg: tile!($fill, $sign!(), $letter),
            text: $text,
            ascii: $text,
            side: Some(Side::$side),
        }),*]
    };
}

/// The tiles' letters, as moves and the tiles' pictures name them (two
/// lines: a picture's notes are no wider than its board).
const KEY: [&str; 2] = [
    "Tiles: L White Lotus, S Sky Bison, B Badgermole, W Wheel,",
    "C Chrysanthemum, F Fire Lily, D White Dragon, Y Flying Lemur",
];

impl Picture for Vagabond {
    const COLOURS: [&'static str; 2] = ["#2e7d32", "#b71c1c"];
    /// By owner (Host, Guest), then in [`TileCode::ALL`]'s order.
    const GLYPHS: &'static [Glyph] = tiles![
        "vps-hl" "Host White Lotus" "#2e7d32" First "L" "L" lotus,
        "vps-hs" "Host Sky Bison" "#2e7d32" First "S" "S" bison,
        "vps-hb" "Host Badgermole" "#2e7d32" First "B" "B" badger,
        "vps-hw" "Host Wheel" "#2e7d32" First "W" "W" wheel,
        "vps-hc" "Host Chrysanthemum" "#2e7d32" First "C" "C" chrys,
        "vps-hf" "Host Fire Lily" "#2e7d32" First "F" "F" lily,
        "vps-hd" "Host White Dragon" "#2e7d32" First "D" "D" dragon,
        "vps-hy" "Host Flying Lemur" "#2e7d32" First "Y" "Y" lemur,
        "vps-gl" "Guest White Lotus" "#b71c1c" Second "l" "L" lotus,
        "vps-gs" "Guest Sky Bison" "#b71c1c" Second "s" "S" bison,
        "vps-gb" "Guest Badgermole" "#b71c1c" Second "b" "B" badger,
        "vps-gw" "Guest Wheel" "#b71c1c" Second "w" "W" wheel,
        "vps-gc" "Guest Chrysanthemum" "#b71c1c" Second "c" "C" chrys,
        "vps-gf" "Guest Fire Lily" "#b71c1c" Second "f" "F" lily,
        "vps-gd" "Guest White Dragon" "#b71c1c" Second "d" "D" dragon,
        "vps-gy" "Guest Flying Lemur" "#b71c1c" Second "y" "Y" lemur,
    ];

    fn board(_: &Position) -> Board {
        let mut board = Board {
            slot: 1,
            ..Board::default()
        };
        for p in Point::all() {
            let (x, y) = centre(p);
            board.cells.push(Cell {
                label: p.to_string(),
                x,
                y,
                shape: Shape::Point,
                kind: if p.is_gate() {
                    Kind::Special
                } else {
                    Kind::Plain
                },
                class: if p.is_gate() { "gate" } else { "" },
                row: (8 - p.y) as u16,
                col: text_col(p.x),
            });
        }
        for k in -8i8..=8 {
            let along: Vec<i8> = (-8i8..=8)
                .filter(|&j| Point::new(k.into(), j.into()).is_some())
                .collect();
            let (lo, hi) = (f64::from(along[0]), f64::from(along[along.len() - 1]));
            let k = f64::from(k);
            // The line x = k and the line y = k.
            board.lines.push(Line {
                points: vec![(k, -lo), (k, -hi)],
                class: "grid",
                kind: LineKind::Guide,
                side: None,
            });
            board.lines.push(Line {
                points: vec![(lo, -k), (hi, -k)],
                class: "grid",
                kind: LineKind::Guide,
                side: None,
            });
        }
        // The columns' numbers in one line under the board, the rows' in
        // one column left of it, as a chart's axes: on a round board a
        // number beside each line's own end would crowd its neighbours
        // where the edge steps.
        for v in -8i8..=8 {
            let number = v.to_string();
            board.labels.push(Label {
                text: number.clone(),
                x: f64::from(v),
                y: AXIS,
                row: 17,
                // The last digit under the point.
                col: text_col(v) + 1 - number.len() as u16,
            });
            board.labels.push(Label {
                col: 2u16.saturating_sub(number.len() as u16),
                text: number,
                x: -AXIS,
                y: -f64::from(v),
                row: (8 - v) as u16,
            });
        }
        board
    }

    fn pieces(pos: &Position, out: &mut Vec<Piece>) {
        for p in Point::all() {
            if let Some(t) = pos.at(p) {
                out.push(Piece {
                    cell: cell(p),
                    glyph: (t.owner.index() * 8 + t.code.index()) as u8,
                });
            }
        }
    }

    fn notes(pos: &Position) -> Vec<Note> {
        let mut notes: Vec<Note> = Side::BOTH
            .into_iter()
            .map(|side| {
                let reserve = &pos.reserve[side.index()];
                let total: u32 = reserve.iter().map(|&n| u32::from(n)).sum();
                Note {
                    text: format!("{} reserve: {total} tiles", super::SIDES[side.index()]),
                    pieces: TileCode::ALL
                        .into_iter()
                        .filter(|c| reserve[c.index()] > 0)
                        .map(|c| ((side.index() * 8 + c.index()) as u8, reserve[c.index()]))
                        .collect(),
                }
            })
            .collect();
        notes.extend(KEY.map(|line| Note {
            text: line.to_string(),
            pieces: Vec::new(),
        }));
        notes
    }

    fn marks(_: &Position, mv: &Move, _: &Board) -> Marks {
        match mv.body {
            Body::Deploy { at, .. } => Marks {
                to: vec![cell(at)],
                ..Marks::default()
            },
            Body::Shift { from, to } => Marks {
                from: vec![cell(from)],
                to: vec![cell(to)],
                arrows: vec![(centre(from), centre(to))],
            },
            Body::Accept => Marks::default(),
        }
    }
}
