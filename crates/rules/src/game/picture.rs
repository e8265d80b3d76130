//! [`Picture`]: how a game's position looks — its board as cells, lines
//! and labels, the pieces on it, the counts beside it, and the marks of
//! the last move — implemented in the game's `picture.rs`. The drawings
//! themselves (terminal text, SVG, the HTML viewer) are generic, in
//! `src/picture/`: a game says *what* is where, never how it is drawn.
//!
//! Coordinates are in board units (one unit between neighbouring cells),
//! x to the right, y downwards; text positions are a row and a column of a
//! character grid.

use super::{Notation, Rules, Side};

/// How a cell is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A unit square centred on the cell.
    Square,
    /// A pointy-top hexagon one unit wide.
    Hex,
    /// A point where lines cross (pieces sit on it).
    Point,
}

/// What a cell is, for shading it (and for its empty glyph in text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    /// A region of the board (the roshi zone).
    Shaded,
    /// A cell with a rule of its own (the Home Square, a gate).
    Special,
}

/// One cell (square, hex or point) of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Its name in the record's own coordinates (`e5`, `H8`, `(0,8)`).
    pub label: String,
    pub x: f64,
    pub y: f64,
    pub shape: Shape,
    pub kind: Kind,
    /// A class naming what it is in the game (`zone`, `home`, `gate`),
    /// or empty.
    pub class: &'static str,
    /// Where its glyph goes in text: the line, and the column (in
    /// characters) where it starts.
    pub row: u16,
    pub col: u16,
}

/// A line drawn on the board under the pieces (the Way, an edge, a
/// board line).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub points: Vec<(f64, f64)>,
    /// What it is in the game (`way`, `edge`, `grid`): its SVG class.
    pub class: &'static str,
    /// How it is drawn.
    pub kind: LineKind,
    /// Whose it is, for its colour (an edge's owner).
    pub side: Option<Side>,
}

/// How a board line is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A line of the board (the Way, a grid line): thin.
    Guide,
    /// A border a side owns (a goal edge): thick, in the side's colour.
    Border,
}

/// A coordinate label beside the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub text: String,
    pub x: f64,
    pub y: f64,
    /// Where it goes in text: the line (`u16::MAX`: not drawn in text)
    /// and the column where it starts.
    pub row: u16,
    pub col: u16,
}

/// The board of a position: the same for every position of a game with
/// the same settings (size, zone, coordinate scheme).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    pub cells: Vec<Cell>,
    pub lines: Vec<Line>,
    pub labels: Vec<Label>,
    /// Characters of a glyph in text (cells' `col`s leave a space
    /// between glyphs, where the last move's marks go).
    pub slot: u16,
}

impl Board {
    /// The index of the cell called `label`.
    pub fn find(&self, label: &str) -> Option<usize> {
        self.cells.iter().position(|c| c.label == label)
    }
}

/// A kind of piece, drawn once and placed wherever one stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph {
    /// Its id in the SVG's `<defs>` (unique among the game's glyphs).
    pub id: &'static str,
    /// What it is, for a title and the legend (`Red 3-story piece`).
    pub name: &'static str,
    /// SVG content drawn around (0, 0) in units of 1/100 of a cell.
    pub svg: &'static str,
    /// One or two characters for the terminal, and their ASCII stand-in.
    pub text: &'static str,
    pub ascii: &'static str,
    /// Whose piece it is (`None`: nobody's, like a neutral stone).
    pub side: Option<Side>,
}

/// A piece on the board: the cell it stands on (an index into
/// [`Board::cells`]) and its glyph (an index into [`Picture::GLYPHS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub cell: u16,
    pub glyph: u8,
}

/// A line of counts beside the board: a score, a supply, a reserve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    /// Pieces off the board: (glyph, how many).
    pub pieces: Vec<(u8, u8)>,
}

/// The marks of the last move: the cells it left and reached, and arrows
/// (board coordinates) for what it pushed or slid.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    pub from: Vec<u16>,
    pub to: Vec<u16>,
    pub arrows: Vec<((f64, f64), (f64, f64))>,
}

/// A game's pictures (its `picture.rs`).
pub trait Picture: Rules + Notation {
    /// The sides' colours (CSS colours), for glyphs, edges and text.
    const COLOURS: [&'static str; 2];
    /// Every kind of piece.
    const GLYPHS: &'static [Glyph];

    /// The board of this position's settings.
    fn board(pos: &Self::Position) -> Board;
    /// The pieces on the board, on `board`'s cells.
    fn pieces(pos: &Self::Position, out: &mut Vec<Piece>);
    /// The counts beside the board.
    fn notes(pos: &Self::Position) -> Vec<Note>;
    /// What the move `mv`, played from `before`, marks on `board`.
    fn marks(before: &Self::Position, mv: &Self::Move, board: &Board) -> Marks;
}
