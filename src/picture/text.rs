//! A position as terminal text: the board's cells on a character grid with
//! their coordinates, the pieces as one or two characters (coloured by
//! side on a terminal), the last move's cells marked `<` (left) and `>`
//! (reached), then the side to move, the last move and the counts.

use super::Scene;
use gamerec_rules::game::{Glyph, Kind};
use std::fmt::Write;

/// How to write the text.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextOptions {
    /// Plain ASCII instead of Unicode.
    pub ascii: bool,
    /// ANSI colours.
    pub color: bool,
    /// Seen from the other side (rows and columns reversed).
    pub flip: bool,
}

/// One character of the grid and its colour (an ANSI SGR code).
#[derive(Clone)]
struct Char {
    text: String,
    sgr: Option<String>,
}

fn empty_glyph(kind: Kind, ascii: bool) -> &'static str {
    match (kind, ascii) {
        (Kind::Plain, false) => "·",
        (Kind::Plain, true) => ".",
        (Kind::Shaded, false) => "∘",
        (Kind::Shaded, true) => ":",
        (Kind::Special, false) => "◇",
        (Kind::Special, true) => "*",
    }
}

/// `#rrggbb` as a 24-bit ANSI foreground.
fn ansi(colour: &str) -> Option<String> {
    let hex = colour.strip_prefix('#').filter(|h| h.len() == 6)?;
    let v = u32::from_str_radix(hex, 16).ok()?;
    Some(format!(
        "1;38;2;{};{};{}",
        v >> 16,
        (v >> 8) & 0xff,
        v & 0xff
    ))
}

/// The characters of a glyph's text (padded to `slot`).
fn glyph_chars(g: &Glyph, ascii: bool) -> Vec<String> {
    let text = if ascii { g.ascii } else { g.text };
    text.chars().map(String::from).collect()
}

/// Writes the picture of `scene` as text.
pub fn write(scene: &Scene, opts: TextOptions) -> String {
    let grid = grid(items(scene, opts), opts.flip);
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", scene.title, scene.frame.status);
    for line in grid {
        let mut text = String::new();
        for ch in &line {
            match (&ch.sgr, opts.color && ch.text != " ") {
                (Some(sgr), true) => {
                    let _ = write!(text, "\x1b[{sgr}m{}\x1b[0m", ch.text);
                }
                _ => text.push_str(&ch.text),
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    footer(scene, opts, &mut out);
    if opts.ascii {
        out = out.replace('—', "-");
    }
    out
}

/// What goes on the character grid: (row, col, characters, colour).
type Item = (usize, usize, Vec<String>, Option<String>);

/// The labels, each cell's glyph (padded to the board's slot) and the
/// last move's marks, as grid items.
fn items(scene: &Scene, opts: TextOptions) -> Vec<Item> {
    let board = &scene.board;
    let slot = board.slot.max(1) as usize;
    let mut items: Vec<Item> = Vec::new();
    for l in board.labels.iter().filter(|l| l.row != u16::MAX) {
        let chars = l.text.chars().map(String::from).collect();
        items.push((l.row as usize, l.col as usize, chars, None));
    }
    let mut on_cell: Vec<Option<&Glyph>> = vec![None; board.cells.len()];
    for p in &scene.frame.pieces {
        if let (Some(slot), Some(g)) = (
            on_cell.get_mut(p.cell as usize),
            scene.glyphs.get(p.glyph as usize),
        ) {
            *slot = Some(g);
        }
    }
    let marker_sgr = Some("1;33".to_string());
    for (i, c) in board.cells.iter().enumerate() {
        let (mut chars, sgr) = match on_cell[i] {
            Some(g) => (
                glyph_chars(g, opts.ascii),
                g.side.and_then(|s| ansi(scene.colours[s.index()])),
            ),
            None => (
                vec![empty_glyph(c.kind, opts.ascii).to_string()],
                Some("2".to_string()),
            ),
        };
        while chars.len() < slot {
            chars.push(" ".into());
        }
        items.push((c.row as usize, c.col as usize, chars, sgr));
        let i = i as u16;
        // Not `<` for the cell left: `>W1<` read as brackets around one
        // cell.
        let marker = if scene.frame.marks.to.contains(&i) {
            Some(">")
        } else if scene.frame.marks.from.contains(&i) {
            Some(if opts.ascii { "~" } else { "◦" })
        } else {
            None
        };
        if let (Some(m), true) = (marker, c.col > 0) {
            let at = (c.row as usize, c.col as usize - 1);
            items.push((at.0, at.1, vec![m.into()], marker_sgr.clone()));
        }
    }
    items
}

/// The items laid on a grid just large enough (turned half round when
/// `flip`: an item keeps its characters' order, so a mark before a glyph
/// comes after it).
fn grid(items: Vec<Item>, flip: bool) -> Vec<Vec<Char>> {
    let rows = items.iter().map(|i| i.0 + 1).max().unwrap_or(0);
    let cols = items.iter().map(|i| i.1 + i.2.len()).max().unwrap_or(0);
    let blank = Char {
        text: " ".into(),
        sgr: None,
    };
    let mut grid = vec![vec![blank; cols]; rows];
    for (row, col, chars, sgr) in items {
        let len = chars.len();
        let (r, c0) = match flip {
            true => (rows - 1 - row, cols - col - len),
            false => (row, col),
        };
        for (k, ch) in chars.into_iter().enumerate() {
            grid[r][c0 + k] = Char {
                text: ch,
                sgr: sgr.clone(),
            };
        }
    }
    grid
}

/// The last move (what the marks mean) and the notes, under the board.
fn footer(scene: &Scene, opts: TextOptions, out: &mut String) {
    if let Some(last) = &scene.frame.last {
        let left = if opts.ascii { "~" } else { "◦" };
        let _ = writeln!(out, "Last move: {last} (> reached, {left} left)");
    }
    for note in &scene.frame.notes {
        out.push_str(&note.text);
        for &(g, n) in &note.pieces {
            if let Some(glyph) = scene.glyphs.get(g as usize) {
                let text = if opts.ascii { glyph.ascii } else { glyph.text };
                let times = if opts.ascii { "x" } else { "×" };
                let _ = write!(out, " {}{times}{n}", text.trim());
            }
        }
        out.push('\n');
    }
}
