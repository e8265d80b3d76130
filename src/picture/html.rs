//! The replay viewer: one self-contained HTML file (no network access, no
//! external script, style or font) that replays games ply by ply.
//!
//! Each distinct board is drawn once as SVG (by [`super::svg`]: its cells,
//! lines and labels, each glyph in `<defs>`); every ply is a compact frame —
//! the pieces as pairs of numbers (cell, glyph), the counts, the status and
//! the last move's marks — that the page's script turns into `<use>`
//! elements. So a long game costs a few bytes a piece a ply, not an SVG a
//! ply.

use super::svg::{self, esc, num, Place, SvgOptions};
use super::{ErrorAt, Replayed};
use serde_json::{json, Value};
use std::collections::HashMap;

/// A game that could not be replayed at all (its start cannot be set up,
/// or its rules are unknown): listed with its error, nothing drawn.
pub struct Unplayable {
    pub title: String,
    pub tags: Vec<(String, String)>,
    pub error: ErrorAt,
}

/// A game for the viewer.
pub enum Entry {
    Played(Box<Replayed>),
    Unplayable(Unplayable),
}

/// Builds the viewer page of `games`.
pub struct Viewer {
    opts: SvgOptions,
    boards: Vec<Value>,
    /// A board's SVG → its index in `boards`.
    known: HashMap<String, usize>,
    games: Vec<Value>,
}

impl Viewer {
    pub fn new(opts: SvgOptions) -> Viewer {
        Viewer {
            opts,
            boards: Vec::new(),
            known: HashMap::new(),
            games: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Adds a game (`index`: its number in the input, for the picker).
    pub fn add(&mut self, index: usize, entry: Entry) {
        let game = match entry {
            Entry::Played(r) => self.played(index, &r),
            Entry::Unplayable(u) => json!({
                "index": index,
                "title": u.title,
                "tags": u.tags,
                "board": Value::Null,
                "frames": [],
                "moves": [],
                "outcome": Value::Null,
                "error": u.error,
            }),
        };
        self.games.push(game);
    }

    fn board_index(&mut self, r: &Replayed) -> usize {
        let scene = &r.scene;
        let place = Place::new(&scene.board, &self.opts);
        let mut svg = String::new();
        svg.push_str(&svg::defs(scene));
        svg.push_str(&svg::board(scene, &place));
        if let Some(&i) = self.known.get(&svg) {
            return i;
        }
        let cells: Vec<Value> = scene
            .board
            .cells
            .iter()
            .map(|c| {
                let (x, y) = place.at((c.x, c.y));
                json!([num(x), num(y), c.label])
            })
            .collect();
        let glyphs: Vec<Value> = scene
            .glyphs
            .iter()
            .map(|g| {
                json!([
                    g.id,
                    g.text,
                    g.name,
                    g.side.map(|s| scene.colours[s.index()])
                ])
            })
            .collect();
        // The board's extent: the cells' and labels' placed corners.
        let mut xs: Vec<f64> = Vec::new();
        let mut ys: Vec<f64> = Vec::new();
        for (x, y) in scene
            .board
            .cells
            .iter()
            .map(|c| (c.x, c.y))
            .chain(scene.board.labels.iter().map(|l| (l.x, l.y)))
        {
            let (px, py) = place.at((x, y));
            xs.push(px);
            ys.push(py);
        }
        let lo_x = xs.iter().copied().fold(f64::MAX, f64::min) - 80.0;
        let lo_y = ys.iter().copied().fold(f64::MAX, f64::min) - 80.0;
        let hi_x = xs.iter().copied().fold(f64::MIN, f64::max) + 80.0;
        let hi_y = ys.iter().copied().fold(f64::MIN, f64::max) + 80.0;
        let view = format!(
            "{} {} {} {}",
            num(lo_x),
            num(lo_y),
            num(hi_x - lo_x),
            num(hi_y - lo_y)
        );
        let i = self.boards.len();
        self.boards.push(json!({
            "game": scene.game,
            "view": view,
            "svg": svg,
            "cells": cells,
            "glyphs": glyphs,
        }));
        self.known.insert(svg, i);
        i
    }

    fn played(&mut self, index: usize, r: &Replayed) -> Value {
        let board = self.board_index(r);
        let place = Place::new(&r.scene.board, &self.opts);
        let frames: Vec<Value> = r
            .frames
            .iter()
            .map(|f| {
                let pieces: Vec<u16> = f
                    .pieces
                    .iter()
                    .flat_map(|p| [p.cell, u16::from(p.glyph)])
                    .collect();
                let notes: Vec<Value> = f.notes.iter().map(|n| json!([n.text, n.pieces])).collect();
                let arrows: Vec<Value> = f
                    .marks
                    .arrows
                    .iter()
                    .map(|&(a, b)| {
                        let (a, b) = (place.at(a), place.at(b));
                        json!([num(a.0), num(a.1), num(b.0), num(b.1)])
                    })
                    .collect();
                json!({
                    "p": pieces,
                    "n": notes,
                    "s": f.status,
                    "f": f.marks.from,
                    "t": f.marks.to,
                    "a": arrows,
                })
            })
            .collect();
        let title = r
            .title
            .clone()
            .unwrap_or_else(|| format!("{} game", r.scene.title));
        json!({
            "index": index,
            "title": title,
            "game": r.scene.title,
            "tags": r.tags,
            "board": board,
            "frames": frames,
            "moves": r.moves,
            "outcome": r.outcome,
            "error": r.error,
        })
    }

    /// The page.
    pub fn finish(self, heading: &str) -> String {
        let data = json!({ "boards": self.boards, "games": self.games });
        let data = script_safe(&serde_json::to_string(&data).unwrap_or_else(|_| "{}".into()));
        let mut page = String::new();
        page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        page.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        page.push_str(&format!("<title>{}</title>\n", esc(heading)));
        page.push_str("<style>\n");
        page.push_str(STYLE);
        page.push_str("</style>\n</head>\n<body>\n");
        page.push_str(&format!(
            "<header><h1>{}</h1><label>Game <select id=\"picker\"></select></label></header>\n",
            esc(heading)
        ));
        page.push_str(BODY);
        page.push_str("<script type=\"application/json\" id=\"data\">");
        page.push_str(&data);
        page.push_str("</script>\n<script>\n");
        page.push_str(SCRIPT);
        page.push_str("</script>\n</body>\n</html>\n");
        page
    }
}

const STYLE: &str = r#"body { font-family: system-ui, sans-serif; margin: 0; background: #fbf7ee; color: #3e2723; }
header { display: flex; gap: 2em; align-items: baseline; padding: 0.5em 1em; background: #efe4cf; }
header h1 { font-size: 1.2em; margin: 0; }
main { display: flex; flex-wrap: wrap; gap: 1em; padding: 1em; }
#board { flex: 1 1 480px; max-width: 720px; }
#board svg { width: 100%; height: auto; }
aside { flex: 1 1 320px; }
#controls button { font-size: 1.2em; min-width: 2.5em; }
#ply { display: inline-block; min-width: 6em; text-align: center; font-variant-numeric: tabular-nums; }
#moves { max-height: 40vh; overflow-y: auto; padding-left: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 0.2em 0.8em; }
#moves li { cursor: pointer; padding: 0 0.3em; border-radius: 3px; }
#moves li.current { background: #ffb300; }
#error { color: #b71c1c; font-weight: bold; }
#tags td { padding: 0 0.5em 0 0; }
.cell.from { fill: #ffe082; }
.cell.to { fill: #ffb300; }
circle.cell.from, circle.cell.to { r: 22px; }
"#;

const BODY: &str = r#"<main>
<div id="board"></div>
<aside>
<h2 id="title"></h2>
<div id="controls"><button id="first" title="First (Home)">&#xAB;</button> <button id="prev" title="Back (&#x2190;)">&#x25C0;</button> <span id="ply"></span> <button id="next" title="Forward (&#x2192;)">&#x25B6;</button> <button id="last" title="Last (End)">&#xBB;</button></div>
<p id="status"></p>
<div id="notes"></div>
<p id="outcome"></p>
<p id="error"></p>
<ol id="moves"></ol>
<table id="tags"></table>
</aside>
</main>
"#;

const SCRIPT: &str = r##""use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
let game = null, ply = 0, cellEls = [];

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function pick(i) {
  game = DATA.games[i];
  $("title").textContent = game.title;
  const tags = $("tags");
  tags.replaceChildren();
  for (const [k, v] of game.tags) {
    const tr = document.createElement("tr");
    const a = document.createElement("td"); a.textContent = k;
    const b = document.createElement("td"); b.textContent = v;
    tr.append(a, b); tags.append(tr);
  }
  const moves = $("moves");
  moves.replaceChildren();
  game.moves.forEach((m, k) => {
    const li = document.createElement("li");
    li.textContent = m; li.dataset.ply = k + 1;
    li.addEventListener("click", () => go(k + 1));
    moves.append(li);
  });
  $("outcome").textContent = game.outcome ? "Result: " + game.outcome : "";
  const holder = $("board");
  holder.replaceChildren();
  cellEls = [];
  if (game.board !== null) {
    const board = DATA.boards[game.board];
    const svg = el("svg", { viewBox: board.view, class: "gamerec " + board.game });
    svg.innerHTML = board.svg;
    svg.append(el("g", { class: "marks" }), el("g", { class: "pieces" }), el("g", { class: "arrows" }));
    holder.append(svg);
    cellEls = Array.from(svg.querySelectorAll("g.board .cell"));
  }
  go(0);
}

function go(k) {
  if (!game) return;
  const last = Math.max(game.frames.length - 1, 0);
  ply = Math.min(Math.max(k, 0), last);
  $("ply").textContent = "Ply " + ply + " / " + last;
  for (const li of $("moves").children) li.classList.toggle("current", Number(li.dataset.ply) === ply);
  const cur = $("moves").querySelector("li.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  const err = game.error;
  $("error").textContent = err && ply === last
    ? "Invalid" + (err.ply ? " at ply " + err.ply : "") + (err.token ? " (" + err.token + ")" : "") + ": " + err.message
    : "";
  const f = game.frames[ply];
  if (!f) { $("status").textContent = ""; $("notes").replaceChildren(); return; }
  const board = DATA.boards[game.board];
  const svg = $("board").querySelector("svg");
  $("status").textContent = f.s;
  const notes = $("notes");
  notes.replaceChildren();
  for (const [text, spares] of f.n) {
    const p = document.createElement("p");
    p.textContent = text + spares.map(([g, n]) => " " + board.glyphs[g][1] + "\u00d7" + n).join("");
    notes.append(p);
  }
  cellEls.forEach((c, i) => {
    c.classList.toggle("from", f.f.includes(i));
    c.classList.toggle("to", f.t.includes(i));
  });
  const pieces = svg.querySelector("g.pieces");
  pieces.replaceChildren();
  for (let i = 0; i < f.p.length; i += 2) {
    const [x, y, label] = board.cells[f.p[i]];
    const [id, , name] = board.glyphs[f.p[i + 1]];
    const use = el("use", { href: "#" + id, class: "piece " + id, x: x, y: y, "data-cell": label });
    use.append(el("title", {}, name + " on " + label));
    pieces.append(use);
  }
  const arrows = svg.querySelector("g.arrows");
  arrows.replaceChildren();
  for (const [x1, y1, x2, y2] of f.a) {
    arrows.append(el("line", { class: "arrow", x1, y1, x2, y2, stroke: "#e65100", "stroke-width": 9, "stroke-opacity": 0.8, "marker-end": "url(#arrowhead)" }));
  }
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(ply - 1));
$("next").addEventListener("click", () => go(ply + 1));
$("last").addEventListener("click", () => go(Infinity));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT") return;
  const to = { ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: Infinity }[e.key];
  if (to !== undefined) { e.preventDefault(); go(to); }
});
const picker = $("picker");
DATA.games.forEach((g, i) => {
  const o = document.createElement("option");
  o.value = i; o.textContent = g.index + ". " + g.title + (g.error ? " (invalid)" : "");
  picker.append(o);
});
picker.addEventListener("change", () => { pick(Number(picker.value)); picker.blur(); });
if (DATA.games.length) pick(0);
"##;

/// JSON text made safe inside a `<script>` element: `<`, `>` and `&` only
/// ever stand inside JSON strings, where `\u003c`, `\u003e` and `\u0026`
/// mean the same, so no `</script>`, `<!--` or `<script` can reach the
/// HTML parser, and the text is still JSON that `JSON.parse` reads back
/// to the same values.
fn script_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}
