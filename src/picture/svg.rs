//! A position as a standalone SVG: deterministic (the same scene and
//! options give the same bytes), a `viewBox`, each kind of piece drawn once
//! in `<defs>` and placed with `<use>`, every cell an element whose class
//! names its label (`class="cell e5 plain"`), the last move highlighted
//! with arrows for what it moved, the counts beside the board.
//!
//! The board is drawn in user units of 1/100 of a cell. The pieces group
//! (`<g class="pieces">`) holds one `<use class="piece …"
//! data-cell="LABEL">` per piece: what tests and stylesheets look for.

use super::Scene;
use gamerec_rules::game::{Board, Cell, Kind, LineKind, Shape};
use std::fmt::Write;

/// User units per board unit.
pub(crate) const UNIT: f64 = 100.0;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct SvgOptions {
    /// The picture's width in pixels (its height follows); `None`: by the
    /// board, [`PX_PER_CELL`] a cell and at least [`MIN_AUTO_SIZE`].
    pub size: Option<u32>,
    /// Seen from the other side (turned half round).
    pub flip: bool,
    /// BoardLayout by this many degrees clockwise (The Garden Gate's view of
    /// Vagabond Pai Sho is 45).
    pub rotate: f64,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            size: None,
            flip: false,
            rotate: 0.0,
        }
    }
}

/// Pixels a board cell is drawn at by default: a 9×9 board fits the
/// smallest default width, Roshi's 19×19 and Vagabond's 17 points across
/// get room for their tiles' letters.
pub(crate) const PX_PER_CELL: f64 = 40.0;

/// The smallest default width.
pub(crate) const MIN_AUTO_SIZE: u32 = 480;

/// A number as the SVG writes it: at most one decimal, no `-0`.
pub fn num(v: f64) -> String {
    decimals(v, 1)
}

/// `v` rounded to at most `places` decimals, written without trailing
/// zeros and never as `-0`.
pub(crate) fn decimals(v: f64, places: i32) -> String {
    let f = 10f64.powi(places);
    let r = (v * f).round() / f;
    let r = if r == 0.0 { 0.0 } else { r };
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// Escapes text for XML content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Board coordinates to user units, turned about the board's centre.
#[derive(Clone, Copy, Debug)]
pub struct BoardLayout {
    cx: f64,
    cy: f64,
    cos: f64,
    sin: f64,
}

impl BoardLayout {
    pub fn new(board: &Board, opts: &SvgOptions) -> BoardLayout {
        let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for c in &board.cells {
            lo = (lo.0.min(c.x), lo.1.min(c.y));
            hi = (hi.0.max(c.x), hi.1.max(c.y));
        }
        if board.cells.is_empty() {
            (lo, hi) = ((0.0, 0.0), (0.0, 0.0));
        }
        let degrees = opts.rotate + if opts.flip { 180.0 } else { 0.0 };
        // Exact for the quarter turns, so that the bytes do not depend on
        // the platform's sine.
        let d = degrees.rem_euclid(360.0);
        let (sin, cos) = if d == 0.0 {
            (0.0, 1.0)
        } else if d == 90.0 {
            (1.0, 0.0)
        } else if d == 180.0 {
            (0.0, -1.0)
        } else if d == 270.0 {
            (-1.0, 0.0)
        } else {
            d.to_radians().sin_cos()
        };
        BoardLayout {
            cx: (lo.0 + hi.0) / 2.0,
            cy: (lo.1 + hi.1) / 2.0,
            cos,
            sin,
        }
    }

    /// A board point in user units.
    pub fn at(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let (dx, dy) = (x - self.cx, y - self.cy);
        (
            (dx * self.cos - dy * self.sin) * UNIT,
            (dx * self.sin + dy * self.cos) * UNIT,
        )
    }

    /// The outline of a cell (user units), `None` for a point.
    fn outline(&self, c: &Cell, grow: f64) -> Option<Vec<(f64, f64)>> {
        let corners: Vec<(f64, f64)> = match c.shape {
            Shape::Square => {
                let h = 0.5 * grow;
                vec![(-h, -h), (h, -h), (h, h), (-h, h)]
            }
            Shape::Hex => {
                let r = grow / 3f64.sqrt();
                (0..6)
                    .map(|k| {
                        let a = (60.0 * k as f64 - 90.0).to_radians();
                        (r * a.cos(), r * a.sin())
                    })
                    .collect()
            }
            Shape::Point => return None,
        };
        Some(
            corners
                .into_iter()
                .map(|(dx, dy)| self.at((c.x + dx, c.y + dy)))
                .collect(),
        )
    }
}

fn points(pts: &[(f64, f64)]) -> String {
    pts.iter()
        .map(|&(x, y)| format!("{},{}", num(x), num(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn cell_fill(kind: Kind) -> &'static str {
    match kind {
        Kind::Plain => "#f3e3c3",
        Kind::Shaded => "#d9bf8c",
        Kind::Special => "#b5d3a7",
    }
}

/// The board's extent in user units (cells, labels and lines).
fn extent(board: &Board, place: &BoardLayout) -> (f64, f64, f64, f64) {
    let mut pts: Vec<(f64, f64)> = Vec::new();
    for c in &board.cells {
        match place.outline(c, 1.0) {
            Some(o) => pts.extend(o),
            None => {
                let (x, y) = place.at((c.x, c.y));
                pts.extend([(x - 30.0, y - 30.0), (x + 30.0, y + 30.0)]);
            }
        }
    }
    for l in &board.labels {
        let (x, y) = place.at((l.x, l.y));
        pts.extend([(x - 25.0, y - 25.0), (x + 25.0, y + 25.0)]);
    }
    for l in &board.lines {
        pts.extend(l.points.iter().map(|&p| place.at(p)));
    }
    let lo_x = pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
    let lo_y = pts.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    let hi_x = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max);
    let hi_y = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    if pts.is_empty() {
        return (0.0, 0.0, 100.0, 100.0);
    }
    (lo_x, lo_y, hi_x, hi_y)
}

/// The `<defs>` of a scene's glyphs and the arrowhead.
pub fn defs(scene: &Scene) -> String {
    let mut out = String::from("<defs>\n");
    for g in scene.glyphs {
        let _ = writeln!(
            out,
            "<g id=\"{}\" class=\"glyph\"><title>{}</title>{}</g>",
            g.id,
            esc(g.name),
            g.svg
        );
    }
    out.push_str(
        "<marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"4\" \
         markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#e65100\"/></marker>\n",
    );
    out.push_str("</defs>\n");
    out
}

/// The board without pieces, marks or counts: background, cells, lines and
/// labels (user units, placed by `place`).
pub fn board(scene: &Scene, place: &BoardLayout) -> String {
    let b = &scene.board;
    let mut out = String::from("<g class=\"board\">\n");
    // Points sit on their lines; squares and hexes under them.
    let on_lines = b.cells.iter().any(|c| c.shape == Shape::Point);
    if on_lines {
        board_lines(scene, place, &mut out);
    }
    for c in &b.cells {
        board_cell(c, place, &mut out);
    }
    if !on_lines {
        board_lines(scene, place, &mut out);
    }
    // Larger on a larger board (Iqishiqi's 15 rows, Vagabond's 17), so a
    // picture of any board shows them at about the same size.
    let (x0, _, x1, _) = extent(b, place);
    let size = (26.0 * (x1 - x0) / 800.0).clamp(26.0, 40.0);
    let _ = writeln!(
        out,
        "</g>\n<g class=\"labels\" font-family=\"sans-serif\" font-size=\"{}\" fill=\"#5d4037\" \
         text-anchor=\"middle\" dominant-baseline=\"central\">",
        num(size)
    );
    for l in &b.labels {
        let (x, y) = place.at((l.x, l.y));
        let _ = writeln!(
            out,
            "<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>",
            num(x),
            num(y),
            esc(&l.text)
        );
    }
    out.push_str("</g>\n");
    out
}

/// The board's lines: its border (in its side's colour when it is one
/// side's) and its guides.
fn board_lines(scene: &Scene, place: &BoardLayout, out: &mut String) {
    for l in &scene.board.lines {
        let pts: Vec<(f64, f64)> = l.points.iter().map(|&p| place.at(p)).collect();
        let colour = l.side.map_or("#6d4c41", |s| scene.colours[s.index()]);
        let width = match l.kind {
            LineKind::Border => 14,
            LineKind::Guide => 3,
        };
        let _ = writeln!(
            out,
            "<polyline class=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" \
             stroke-width=\"{width}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
            l.class,
            points(&pts)
        );
    }
}

/// One cell: its outline (a square, a hex), or a point drawn as a dot.
fn board_cell(c: &Cell, place: &BoardLayout, out: &mut String) {
    let class = cell_class(c);
    match place.outline(c, 1.0) {
        Some(o) => {
            let _ = writeln!(
                out,
                "<polygon class=\"{class}\" data-label=\"{}\" points=\"{}\" fill=\"{}\" \
                 stroke=\"#8d6e63\" stroke-width=\"2\"/>",
                esc(&c.label),
                points(&o),
                cell_fill(c.kind)
            );
        }
        None => {
            let (x, y) = place.at((c.x, c.y));
            let (r, fill) = match c.kind {
                Kind::Special => (16, "#2e7d32"),
                Kind::Shaded => (10, "#8d6e63"),
                Kind::Plain => (7, "#6d4c41"),
            };
            let _ = writeln!(
                out,
                "<circle class=\"{class}\" data-label=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{r}\" \
                 fill=\"{fill}\"/>",
                esc(&c.label),
                num(x),
                num(y)
            );
        }
    }
}

/// `cell e5 plain zone`.
pub(crate) fn cell_class(c: &Cell) -> String {
    let kind = match c.kind {
        Kind::Plain => "plain",
        Kind::Shaded => "shaded",
        Kind::Special => "special",
    };
    let mut class = format!("cell {} {kind}", esc(&c.label));
    if !c.class.is_empty() {
        class.push(' ');
        class.push_str(c.class);
    }
    class
}

/// The last move's marks.
fn marks(scene: &Scene, place: &BoardLayout) -> String {
    let b = &scene.board;
    let m = &scene.frame.marks;
    let mut out = String::from("<g class=\"marks\">\n");
    for (cells, what, fill) in [(&m.from, "from", "#ffe082"), (&m.to, "to", "#ffb300")] {
        for &i in cells {
            let Some(c) = b.cells.get(i as usize) else {
                continue;
            };
            match place.outline(c, 0.9) {
                Some(o) => {
                    let _ = writeln!(
                        out,
                        "<polygon class=\"mark {what}\" data-cell=\"{}\" points=\"{}\" \
                         fill=\"{fill}\" fill-opacity=\"0.75\"/>",
                        esc(&c.label),
                        points(&o)
                    );
                }
                None => {
                    let (x, y) = place.at((c.x, c.y));
                    let _ = writeln!(
                        out,
                        "<circle class=\"mark {what}\" data-cell=\"{}\" cx=\"{}\" cy=\"{}\" \
                         r=\"46\" fill=\"{fill}\" fill-opacity=\"0.75\"/>",
                        esc(&c.label),
                        num(x),
                        num(y)
                    );
                }
            }
        }
    }
    out.push_str("</g>\n");
    out
}

/// The arrows of the last move (drawn over the pieces).
fn arrows(scene: &Scene, place: &BoardLayout) -> String {
    let mut out = String::from("<g class=\"arrows\">\n");
    for &(a, b) in &scene.frame.marks.arrows {
        let (a, b) = (place.at(a), place.at(b));
        let _ = writeln!(
            out,
            "<line class=\"arrow\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e65100\" \
             stroke-width=\"9\" stroke-opacity=\"0.8\" marker-end=\"url(#arrowhead)\"/>",
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1)
        );
    }
    out.push_str("</g>\n");
    out
}

/// The pieces, one `<use>` each.
fn pieces(scene: &Scene, place: &BoardLayout) -> String {
    let mut out = String::from("<g class=\"pieces\">\n");
    for p in &scene.frame.pieces {
        let (Some(c), Some(g)) = (
            scene.board.cells.get(p.cell as usize),
            scene.glyphs.get(p.glyph as usize),
        ) else {
            continue;
        };
        let (x, y) = place.at((c.x, c.y));
        let _ = writeln!(
            out,
            "<use class=\"piece {}\" href=\"#{}\" x=\"{}\" y=\"{}\" data-cell=\"{}\"><title>{} on \
             {}</title></use>",
            g.id,
            g.id,
            num(x),
            num(y),
            esc(&c.label),
            esc(g.name),
            esc(&c.label)
        );
    }
    out.push_str("</g>\n");
    out
}

/// The width the notes need (user units, text at scale 1).
fn notes_width(scene: &Scene) -> f64 {
    scene
        .frame
        .notes
        .iter()
        .map(|n| {
            let text = n.text.chars().count() as f64 * 14.0;
            let icons = n.pieces.len() as f64 * 95.0;
            text.max(icons)
        })
        .fold(0.0, f64::max)
}

/// The notes (counts, reserves, keys) below the board, from `(x, y)` down,
/// text `k` times its base size.
fn notes(scene: &Scene, x: f64, y: f64, k: f64) -> String {
    let mut out = format!(
        "<g class=\"notes\" font-family=\"sans-serif\" font-size=\"{}\" fill=\"#3e2723\">\n",
        num(26.0 * k)
    );
    let mut y = y;
    for n in &scene.frame.notes {
        let _ = writeln!(
            out,
            "<text class=\"note\" x=\"{}\" y=\"{}\">{}</text>",
            num(x),
            num(y + 26.0 * k),
            esc(&n.text)
        );
        y += 40.0 * k;
        if n.pieces.is_empty() {
            continue;
        }
        let mut ix = x;
        for &(g, count) in &n.pieces {
            let Some(glyph) = scene.glyphs.get(g as usize) else {
                continue;
            };
            let _ = writeln!(
                out,
                "<use class=\"spare {}\" href=\"#{}\" transform=\"translate({},{}) scale({})\" \
                 data-count=\"{count}\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\">×{count}</text>",
                glyph.id,
                glyph.id,
                num(ix + 25.0 * k),
                num(y + 25.0 * k),
                num(0.5 * k),
                num(ix + 50.0 * k),
                num(y + 33.0 * k),
                num(22.0 * k)
            );
            ix += 95.0 * k;
        }
        y += 60.0 * k;
    }
    out.push_str("</g>\n");
    out
}

/// The standalone SVG of `scene`: the status line over the board, the
/// notes under it. Text grows with the board (`k`): at any width it is
/// drawn at about the same size against the board's cells.
pub fn write(scene: &Scene, opts: &SvgOptions) -> String {
    let place = BoardLayout::new(&scene.board, opts);
    let (x0, y0, x1, y1) = extent(&scene.board, &place);
    let k = ((x1 - x0) / 800.0).max(1.0);
    let margin = 30.0 * k;
    let mut status = scene.frame.status.clone();
    if let Some(last) = &scene.frame.last {
        status = format!("{status} · last move {last}");
    }
    // The status in lines no wider than the board (about 17 units a
    // character at size 32).
    let status = wrap(&status, ((x1 - x0) / (17.0 * k)).max(20.0) as usize);
    let head = (40.0 + 40.0 * status.len() as f64) * k;
    let below = match notes_height(scene) {
        h if h > 0.0 => h * k + margin,
        _ => 0.0,
    };
    let (vx, vy) = (x0 - margin, y0 - margin - head);
    let vw = (x1 - x0).max(notes_width(scene) * k) + 2.0 * margin;
    let vh = y1 - y0 + 2.0 * margin + head + below;
    let width = match opts.size {
        Some(px) => px.max(1) as f64,
        // A cell is 100 units.
        None => (vw / 100.0 * PX_PER_CELL)
            .round()
            .max(f64::from(MIN_AUTO_SIZE)),
    };
    let height = (width * vh / vw).round();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"gamerec {}\" width=\"{}\" height=\"{}\" \
         viewBox=\"{} {} {} {}\">",
        scene.game,
        width as u32,
        height as u32,
        num(vx),
        num(vy),
        num(vw),
        num(vh)
    );
    let _ = writeln!(
        out,
        "<title>{} — {}</title>",
        esc(scene.title),
        esc(&scene.position)
    );
    out.push_str(&defs(scene));
    let _ = writeln!(
        out,
        "<rect class=\"background\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fbf7ee\"/>",
        num(vx),
        num(vy),
        num(vw),
        num(vh)
    );
    out.push_str(&status_text(&status, x0, vy + margin + 30.0 * k, k));
    out.push_str(&board(scene, &place));
    out.push_str(&marks(scene, &place));
    out.push_str(&pieces(scene, &place));
    out.push_str(&arrows(scene, &place));
    out.push_str(&notes(scene, x0, y1 + margin, k));
    out.push_str("</svg>\n");
    out
}

/// The status line (`lines` of it) at `(x, y)`, text `k` times its base
/// size.
fn status_text(lines: &[String], x: f64, y: f64, k: f64) -> String {
    let mut out = format!(
        "<text class=\"status\" x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"{}\" \
         fill=\"#3e2723\">",
        num(x),
        num(y),
        num(32.0 * k),
    );
    for (i, line) in lines.iter().enumerate() {
        if i == 0 {
            out.push_str(&esc(line));
        } else {
            let _ = write!(
                out,
                "<tspan x=\"{}\" dy=\"{}\">{}</tspan>",
                num(x),
                num(40.0 * k),
                esc(line)
            );
        }
    }
    out.push_str("</text>\n");
    out
}

/// `text` in lines of at most `width` characters, cut at spaces (a word
/// longer than that alone on its line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

fn notes_height(scene: &Scene) -> f64 {
    scene
        .frame
        .notes
        .iter()
        .map(|n| if n.pieces.is_empty() { 40.0 } else { 100.0 })
        .sum()
}
