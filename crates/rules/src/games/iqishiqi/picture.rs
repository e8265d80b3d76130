//! Iqishiqi's picture: the hex-hex board of pointy-top hexes from the axial
//! coordinates (q to the east, r to the north-north-west), each of the six
//! edges coloured by its owner, the white stones and the black neutral
//! stone, labels in the record's scheme (Ludii or AbstractPlay); the last
//! move's drop and the neutral stone's path marked.

use super::geometry::{Edge, Hex, GRID, RADIUS};
use super::labels::Coords;
use super::notation::Move;
use super::position::Position;
use super::Iqishiqi;
use crate::game::{Board, Cell as BoardCell, Glyph, Kind, Label, Line, Marks, Note};
use crate::game::{LineKind, Picture, Piece, Rules, Shape};
use std::sync::LazyLock;

/// By grid index: the cell's index on the board (cells in grid order).
static CELL: LazyLock<[u16; GRID]> = LazyLock::new(|| {
    let mut t = [u16::MAX; GRID];
    for (i, c) in Hex::all().enumerate() {
        t[c.index()] = i as u16;
    }
    t
});

fn cell(c: Hex) -> u16 {
    CELL[c.index()]
}

const ROOT3_2: f64 = 0.866_025_403_784_438_6;

fn centre(c: Hex) -> (f64, f64) {
    let (q, r) = (f64::from(c.q), f64::from(c.r));
    (q - r / 2.0, -r * ROOT3_2)
}

/// The first character column of the hexes (after the row labels).
const LEFT: i32 = 4;

fn text_at(c: Hex) -> (u16, u16) {
    let (q, r) = (i32::from(c.q), i32::from(c.r));
    ((7 - r) as u16, (LEFT + 2 * q - r + 21) as u16)
}

/// The part of a label that names the row (`8` of `H8` in Ludii's scheme,
/// `h` of `h8` in AbstractPlay's) and the rest.
fn split(coords: Coords, label: &str) -> (String, String) {
    let letter = label.chars().take(1).collect::<String>();
    let number = label.chars().skip(1).collect::<String>();
    match coords {
        Coords::Ludii => (number, letter),
        Coords::AbstractPlay => (letter, number),
    }
}

/// The labels, past the edge lines, one kind beyond each edge: each row's
/// name (the part of a label a row shares) beyond the south-west and
/// north-west edges, and the north-east's; each column's name (the other
/// part: cells along a line from south-south-east to north-north-west)
/// beyond the south and south-east edges, and the north's. So every row
/// and every column is named, and any cell can be found from an edge. In
/// text the same, less the north edge's.
fn labels(coords: Coords, board: &mut Board) {
    for r in -RADIUS..=RADIUS {
        let row: Vec<Hex> = (-RADIUS..=RADIUS).filter_map(|q| Hex::new(q, r)).collect();
        let (Some(&first), Some(&last)) = (row.first(), row.last()) else {
            continue;
        };
        let (name, _) = split(coords, &coords.label(first));
        let (line, col) = text_at(first);
        let (x, y) = centre(first);
        board.labels.push(Label {
            col: col.saturating_sub(1 + name.len() as u16),
            text: name.clone(),
            x: x - 1.2,
            y,
            row: line,
        });
        // Beyond the north-east edge only: past the south-east edge are
        // the columns' names (a row's name there would stand where a
        // column's does).
        if r >= 0 {
            let (x, y) = centre(last);
            let (_, col) = text_at(last);
            board.labels.push(Label {
                text: name,
                x: x + 1.2,
                y,
                row: line,
                col: col + 2,
            });
        }
    }
    // Along a column, a step south is (+½, +√3/2) on the page.
    let (dx, dy) = (0.5 * 1.2, ROOT3_2 * 1.2);
    for q in -RADIUS..=RADIUS {
        let column: Vec<Hex> = (-RADIUS..=RADIUS).filter_map(|r| Hex::new(q, r)).collect();
        let (Some(&south), Some(&north)) = (column.first(), column.last()) else {
            continue;
        };
        let (_, name) = split(coords, &coords.label(south));
        let (line, col) = text_at(south);
        let (x, y) = centre(south);
        board.labels.push(Label {
            text: name.clone(),
            x: x + dx,
            y: y + dy,
            row: line + 1,
            // Under the south edge's cells; past the south-east edge's.
            col: if q <= 0 { col } else { col + 1 },
        });
        // Beyond the north edge only (the north-west edge's are the rows'
        // names); not in text, whose first line is the board's.
        if q >= 0 {
            let (x, y) = centre(north);
            board.labels.push(Label {
                text: name,
                x: x - dx,
                y: y - dy,
                row: u16::MAX,
                col: 0,
            });
        }
    }
}

impl Picture for Iqishiqi {
    const COLOURS: [&'static str; 2] = ["#2e7d32", "#6a1b9a"];
    const GLYPHS: &'static [Glyph] = &[
        Glyph {
            id: "iqishiqi-stone",
            name: "White stone",
            svg: "<circle r=\"36\" fill=\"#fafafa\" stroke=\"#616161\" stroke-width=\"4\"/>",
            text: "○",
            ascii: "o",
            side: None,
        },
        Glyph {
            id: "iqishiqi-neutral",
            name: "Neutral stone",
            svg: "<circle r=\"38\" fill=\"#212121\" stroke=\"#ffd54f\" stroke-width=\"6\"/>\
                  <circle r=\"12\" fill=\"#ffd54f\"/>",
            text: "◉",
            ascii: "@",
            side: None,
        },
    ];

    fn board(pos: &Position) -> Board {
        let coords = pos.coords;
        let mut board = Board {
            slot: 1,
            ..Board::default()
        };
        for c in Hex::all() {
            let (x, y) = centre(c);
            let (row, col) = text_at(c);
            board.cells.push(BoardCell {
                label: coords.label(c),
                x,
                y,
                shape: Shape::Hex,
                kind: if c == Hex::CENTRE {
                    Kind::Special
                } else {
                    Kind::Plain
                },
                class: if c == Hex::CENTRE { "centre" } else { "" },
                row,
                col,
            });
        }
        labels(coords, &mut board);
        for edge in [Edge::N, Edge::NE, Edge::SE, Edge::S, Edge::SW, Edge::NW] {
            let mut cells: Vec<(f64, f64)> = Hex::all()
                .filter(|c| c.edges().any(|e| e == edge))
                .map(centre)
                .collect();
            let n = cells.len() as f64;
            let (mx, my) = cells
                .iter()
                .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
            let len = (mx * mx + my * my).sqrt().max(1e-9);
            let (nx, ny) = (mx / len * 0.62, my / len * 0.62);
            cells.sort_by(|a, b| {
                (a.0, a.1)
                    .partial_cmp(&(b.0, b.1))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            board.lines.push(Line {
                points: cells.into_iter().map(|(x, y)| (x + nx, y + ny)).collect(),
                class: "edge",
                kind: LineKind::Border,
                side: Some(edge.owner()),
            });
        }
        board
    }

    fn pieces(pos: &Position, out: &mut Vec<Piece>) {
        for c in Hex::all() {
            if c == pos.neutral {
                out.push(Piece {
                    cell: cell(c),
                    glyph: 1,
                });
            } else if pos.has_stone(c) {
                out.push(Piece {
                    cell: cell(c),
                    glyph: 0,
                });
            }
        }
    }

    fn notes(pos: &Position) -> Vec<Note> {
        let edges = [
            "Edges: North's green (north, south-west, south-east),",
            "South's purple (south, north-west, north-east)",
        ]
        .map(|text| Note {
            text: text.to_string(),
            pieces: Vec::new(),
        });
        let mut text = format!(
            "Stones on the board: {}; coordinates: {}",
            pos.stone_count(),
            pos.coords.name()
        );
        if let Some(left) = pos.stones_left {
            text.push_str(&format!("; stones left: {left}"));
        }
        let mut notes = vec![Note {
            text,
            pieces: Vec::new(),
        }];
        notes.extend(edges);
        notes
    }

    fn marks(before: &Position, mv: &Move, _: &Board) -> Marks {
        let mut marks = Marks {
            from: vec![cell(before.neutral)],
            to: vec![cell(mv.drop)],
            arrows: Vec::new(),
        };
        let mut after = before.clone();
        if Iqishiqi::play(&mut after, mv).is_ok() && after.neutral != before.neutral {
            marks.to.push(cell(after.neutral));
            marks
                .arrows
                .push((centre(before.neutral), centre(after.neutral)));
        }
        marks
    }
}
