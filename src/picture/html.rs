//! The replay viewer: one self-contained HTML file (no network access, no
//! external script, style or font) that replays games ply by ply.
//!
//! Each distinct board is drawn once as SVG (by [`super::svg`]: its cells,
//! lines and labels, each glyph in `<defs>`); every ply is a compact frame —
//! the pieces as pairs of numbers (cell, glyph), the counts, the status and
//! the last move's marks — that the page's script turns into `<use>`
//! elements. So a long game costs a few bytes a piece a ply, not an SVG a
//! ply.
//!
//! The page is written as the games come ([`Page::add`]): each board and
//! each game is a JSON `<script>` element of its own, written once and
//! dropped, and the page's script parses a game's data only when it is
//! picked. So making the page holds one game at a time (memory follows the
//! longest game, not the archive), and a browser opening a page of ten
//! thousand games parses one.

use super::svg::{self, esc, num, BoardLayout, SvgOptions};
use super::{ErrorAt, Replayed};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{self, Write};

/// A game that could not be replayed at all (its start cannot be set up,
/// or its rules are unknown): listed with its error, nothing drawn.
pub struct Unplayable {
    pub title: String,
    pub tags: Vec<(String, String)>,
    pub error: ErrorAt,
}

/// A game for the viewer.
pub enum ViewerGame {
    Played(Box<Replayed>),
    Unplayable(Unplayable),
}

/// One game's part of the page, made apart from the page (on any thread:
/// the replay and its JSON are the costly part) and handed to
/// [`Page::add`] in order.
pub struct Part {
    /// The board's data (script-safe JSON); `None` when nothing is drawn.
    board: Option<String>,
    title: String,
    invalid: bool,
    /// The game's data (script-safe JSON).
    game: String,
}

impl Part {
    pub fn new(entry: ViewerGame, opts: &SvgOptions) -> Part {
        Part::with_keys(entry, opts, None)
    }

    /// With each frame's position key as `name:hex` (`name`: the game's
    /// `Game` tag value), for the explorer panel ([`Page::finish_explored`]).
    pub fn with_keys(entry: ViewerGame, opts: &SvgOptions, name: Option<&str>) -> Part {
        match entry {
            ViewerGame::Played(r) => played(&r, opts, name),
            ViewerGame::Unplayable(u) => Part {
                board: None,
                title: u.title.clone(),
                invalid: true,
                game: to_json(&json!({
                    "title": u.title,
                    "tags": u.tags,
                    "frames": [],
                    "moves": [],
                    "outcome": Value::Null,
                    "error": u.error,
                })),
            },
        }
    }

    /// Whether the game is invalid (it is shown with its error).
    pub fn invalid(&self) -> bool {
        self.invalid
    }
}

/// The viewer page, written game by game to an output.
pub struct Page {
    heading: String,
    /// A board's data → its number on the page.
    known: HashMap<String, usize>,
    games: usize,
}

impl Page {
    /// A page titled `heading`; nothing is written before the first game.
    pub fn new(heading: &str) -> Page {
        Page {
            heading: heading.to_string(),
            known: HashMap::new(),
            games: 0,
        }
    }

    /// How many games were added.
    pub fn len(&self) -> usize {
        self.games
    }

    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// Writes a game (`index`: its number in the input, for the picker),
    /// with its board the first time that board is seen, and the page's
    /// head before the first game.
    pub fn add(&mut self, out: &mut dyn Write, index: usize, part: Part) -> io::Result<()> {
        if self.games == 0 {
            self.head(out)?;
        }
        self.games += 1;
        let board = match part.board {
            None => String::new(),
            Some(data) => {
                let n = match self.known.get(&data) {
                    Some(&n) => n,
                    None => {
                        let n = self.known.len();
                        writeln!(
                            out,
                            "<script type=\"application/json\" class=\"board\">{data}</script>"
                        )?;
                        self.known.insert(data, n);
                        n
                    }
                };
                format!(" data-board=\"{n}\"")
            }
        };
        writeln!(
            out,
            "<script type=\"application/json\" class=\"game\" data-index=\"{index}\" \
             data-title=\"{}\"{board}{}>{}</script>",
            esc(&part.title),
            if part.invalid {
                " data-invalid=\"\""
            } else {
                ""
            },
            part.game
        )
    }

    fn head(&self, out: &mut dyn Write) -> io::Result<()> {
        let heading = esc(&self.heading);
        write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{heading}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
             <header><h1>{heading}</h1><label>Game <select id=\"picker\"></select></label></header>\n\
             {BODY}"
        )
    }

    /// Ends the page (its script, after every game). A page with no game
    /// writes nothing.
    pub fn finish(self, out: &mut dyn Write) -> io::Result<()> {
        self.finish_explored(out, None)
    }

    /// Ends the page with the explorer panel's data (JSON: what
    /// [`crate::tasks::tree::panel`] makes), shown beside each position whose
    /// key a game's frames carry ([`Part::with_keys`]).
    pub fn finish_explored(self, out: &mut dyn Write, explorer: Option<&str>) -> io::Result<()> {
        if self.games == 0 {
            return Ok(());
        }
        if let Some(data) = explorer {
            let data = script_safe(data);
            writeln!(
                out,
                "<script type=\"application/json\" id=\"explorer-data\">{data}</script>"
            )?;
        }
        write!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n")
    }
}

/// The whole page of `entries` at once (for a few games: a test, the fuzz
/// target).
pub fn page(heading: &str, opts: &SvgOptions, entries: Vec<ViewerGame>) -> String {
    let mut page = Page::new(heading);
    let mut out = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        // Writing to a Vec cannot fail.
        let _ = page.add(&mut out, i + 1, Part::new(entry, opts));
    }
    let _ = page.finish(&mut out);
    String::from_utf8(out).unwrap_or_default()
}

fn to_json(value: &Value) -> String {
    script_safe(&serde_json::to_string(value).unwrap_or_else(|_| "null".into()))
}

/// A board's data: its SVG (cells, lines, labels and glyphs), where each
/// cell is drawn, the glyphs and the view box.
fn board_data(r: &Replayed, place: &BoardLayout) -> String {
    let scene = &r.scene;
    let mut svg = String::new();
    svg.push_str(&svg::defs(scene));
    svg.push_str(&svg::board(scene, place));
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
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in scene
        .board
        .cells
        .iter()
        .map(|c| (c.x, c.y))
        .chain(scene.board.labels.iter().map(|l| (l.x, l.y)))
    {
        let (px, py) = place.at((x, y));
        (lo_x, hi_x) = (lo_x.min(px), hi_x.max(px));
        (lo_y, hi_y) = (lo_y.min(py), hi_y.max(py));
    }
    let (lo_x, lo_y, hi_x, hi_y) = (lo_x - 80.0, lo_y - 80.0, hi_x + 80.0, hi_y + 80.0);
    let view = format!(
        "{} {} {} {}",
        num(lo_x),
        num(lo_y),
        num(hi_x - lo_x),
        num(hi_y - lo_y)
    );
    to_json(&json!({
        "game": scene.game,
        "view": view,
        "svg": svg,
        "cells": cells,
        "glyphs": glyphs,
    }))
}

fn played(r: &Replayed, opts: &SvgOptions, name: Option<&str>) -> Part {
    let place = BoardLayout::new(&r.scene.board, opts);
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
    let mut game = json!({
        "title": title,
        "game": r.scene.title,
        "tags": r.tags,
        "frames": frames,
        "moves": r.moves,
        // Only an analysed game has the curve's data.
        "judged": r.judged.iter().any(|j| *j != Default::default()).then_some(&r.judged),
        "sides": r.sides,
        "outcome": r.outcome,
        "error": r.error,
    });
    if let Some(n) = name {
        let keys: Vec<String> = r.keys.iter().map(|k| format!("{n}:{k:016x}")).collect();
        game["keys"] = json!(keys);
        game["played"] = json!(r.played);
    }
    let game = to_json(&game);
    Part {
        board: Some(board_data(r, &place)),
        title,
        invalid: r.error.is_some(),
        game,
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
#controls { white-space: nowrap; }
#ply { display: inline-block; width: 16ch; text-align: center; font-variant-numeric: tabular-nums; white-space: nowrap; overflow: hidden; vertical-align: middle; }
#moves { max-height: 40vh; overflow-y: auto; margin: 0; padding: 0.2em 0 0.6em; list-style: none; display: flex; flex-wrap: wrap; align-content: flex-start; gap: 0.2em 0.8em; line-height: 1.5; }
#moves li { cursor: pointer; padding: 0 0.3em; border-radius: 3px; }
#moves li.current { background: #ffb300; }
#moves li.illegal { color: #b71c1c; text-decoration: line-through; }
#error { color: #b71c1c; font-weight: bold; }
#tags td { padding: 0 0.5em 0 0; }
#moves li.mark-blunder, #moves li.mark-missed-win { color: #b71c1c; font-weight: bold; }
#moves li.mark-blunder-estimate, #moves li.mark-mistake { color: #e65100; }
#moves li.mark-inaccuracy { color: #8d6e63; }
#moves li.mark-only-move { color: #1b5e20; font-weight: bold; }
#curve { width: 100%; height: auto; cursor: pointer; margin-top: 0.5em; }
#curve .curve-bg { fill: #fffdf7; stroke: #d7ccc8; }
#curve .curve-mid { stroke: #d7ccc8; stroke-dasharray: 4 4; }
#curve .curve-line { fill: none; stroke: #3e2723; stroke-width: 2; }
#curve circle { fill: #3e2723; }
#curve circle.mark-blunder, #curve circle.mark-missed-win { fill: #b71c1c; }
#curve circle.mark-blunder-estimate, #curve circle.mark-mistake { fill: #e65100; }
#curve circle.mark-only-move { fill: #1b5e20; }
#curve text { font-size: 12px; fill: #6d4c41; }
#curve .curve-tick { stroke: #a1887f; }
#curve-at { stroke: #ffb300; stroke-width: 3; }
#explorer h3 { font-size: 1em; margin: 0.8em 0 0.2em; }
#explorer p { margin: 0.2em 0; font-size: 0.9em; }
#explorer-moves { border-collapse: collapse; font-size: 0.9em; width: 100%; }
#explorer-moves td, #explorer-moves th { padding: 0.1em 0.4em 0.1em 0; white-space: nowrap; text-align: left; font-weight: normal; color: #6d4c41; }
#explorer-moves td { color: inherit; }
#explorer-moves tr.played td:first-child { font-weight: bold; }
.bar { display: flex; width: 12em; height: 1em; border: 1px solid #bcaaa4; }
.bar span { display: block; height: 100%; }
.bar .first { background: #fffdf7; }
.bar .draw { background: #a1887f; }
.bar .second { background: #3e2723; }
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
<section id="explorer" hidden><h3>Explorer</h3><p id="explorer-sum"></p><table id="explorer-moves"></table></section>
<table id="tags"></table>
</aside>
</main>
"#;

const SCRIPT: &str = r##""use strict";
// Each board and each game is a JSON script element of its own: a game's
// data is parsed when it is picked, a board's when first drawn.
const BOARDS = Array.from(document.querySelectorAll("script.board"));
const GAMES = Array.from(document.querySelectorAll("script.game"));
const parsedBoards = new Map();
// The explorer panel's data (`view --tree`): positions by `game:key`.
const EXPLORER_EL = document.getElementById("explorer-data");
const EXPLORER = EXPLORER_EL ? JSON.parse(EXPLORER_EL.textContent) : null;
const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
let game = null, board = null, ply = 0, cellEls = [];

function boardAt(i) {
  if (!parsedBoards.has(i)) parsedBoards.set(i, JSON.parse(BOARDS[i].textContent));
  return parsedBoards.get(i);
}

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function pick(i) {
  const e = GAMES[i];
  game = JSON.parse(e.textContent);
  board = e.dataset.board === undefined ? null : boardAt(Number(e.dataset.board));
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
    const j = game.judged && game.judged[k];
    if (j && j.m) { li.className = "mark-" + j.m[0]; li.title = j.m.join(", ") + (j.v ? ": " + j.v : ""); }
    else if (j && j.v) li.title = j.v;
    li.addEventListener("click", () => go(k + 1));
    moves.append(li);
  });
  // An invalid game's refused turn ends its list, struck through.
  if (game.error && game.error.token) {
    const li = document.createElement("li");
    li.className = "illegal";
    li.textContent = game.error.token;
    li.title = game.error.message;
    li.addEventListener("click", () => go(Infinity));
    moves.append(li);
  }
  $("outcome").textContent = game.outcome ? "Result: " + game.outcome : "";
  const holder = $("board");
  holder.replaceChildren();
  cellEls = [];
  if (board !== null) {
    const svg = el("svg", { viewBox: board.view, class: "gamerec " + board.game });
    svg.innerHTML = board.svg;
    svg.append(el("g", { class: "marks" }), el("g", { class: "pieces" }), el("g", { class: "arrows" }));
    holder.append(svg);
    cellEls = Array.from(svg.querySelectorAll("g.board .cell"));
  }
  curve(holder);
  go(0);
}

// The win-chance curve of an analysed game (notation/analysis.md): the
// first-named side's chance after each ply; a click goes to that ply.
// Its scale: the chance in percent on the left, plies below.
const CW = 600, CH = 120, GL = 40, GB = 18;
function curve(holder) {
  const j = game.judged;
  if (!j) return;
  const pts = [];
  j.forEach((x, k) => { if (x.c !== undefined) pts.push([k + 1, x.c]); });
  if (!pts.length) return;
  const n = Math.max(game.frames.length - 1, 1);
  const at = (k, c) => [(k / n) * CW, (1 - c) * CH];
  const svg = el("svg", { id: "curve", viewBox: -GL + " 0 " + (CW + GL) + " " + (CH + GB) });
  svg.append(el("rect", { class: "curve-bg", x: 0, y: 0, width: CW, height: CH }));
  svg.append(el("line", { class: "curve-mid", x1: 0, y1: CH / 2, x2: CW, y2: CH / 2 }));
  for (const c of [0, 0.25, 0.5, 0.75, 1]) {
    const y = (1 - c) * CH;
    svg.append(el("line", { class: "curve-tick", x1: -4, y1: y, x2: 0, y2: y }));
    const label = el("text", { class: "curve-scale", x: -6, y: Math.min(Math.max(y + 4, 10), CH), "text-anchor": "end" }, c * 100 + "%");
    svg.append(label);
  }
  // Ply ticks a round step apart, about six of them.
  const nice = [];
  for (let p = 1; p <= 1e7; p *= 10) nice.push(p, 2 * p, 5 * p);
  const step = nice.find((s) => s >= n / 6) || n;
  for (let k = 0; k <= n; k += step) {
    const x = (k / n) * CW;
    svg.append(el("line", { class: "curve-tick", x1: x, y1: CH, x2: x, y2: CH + 4 }));
    svg.append(el("text", { class: "curve-scale", x: x, y: CH + 15, "text-anchor": k === 0 ? "start" : "middle" }, String(k)));
  }
  let d = "", prev = null;
  for (const [k, c] of pts) {
    const [x, y] = at(k, c);
    d += (prev !== null && k === prev + 1 ? "L" : "M") + x.toFixed(1) + " " + y.toFixed(1) + " ";
    prev = k;
  }
  svg.append(el("path", { class: "curve-line", d: d }));
  for (const [k, c] of pts) {
    const [x, y] = at(k, c);
    const m = j[k - 1].m;
    const dot = el("circle", { cx: x, cy: y, r: m ? 5 : 2, class: m ? "mark-" + m[0] : "", "data-ply": k });
    dot.append(el("title", {}, "ply " + k + ": " + Math.round(c * 100) + "%" + (m ? " " + m.join(", ") : "")));
    svg.append(dot);
  }
  svg.append(el("text", { x: 4, y: 14 }, game.sides[0] + "'s win chance"));
  svg.append(el("line", { id: "curve-at", x1: 0, y1: 0, x2: 0, y2: CH }));
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    const x = ((e.clientX - r.left) / r.width) * (CW + GL) - GL;
    go(Math.round((x / CW) * n));
  });
  holder.append(svg);
}

function go(k) {
  if (!game) return;
  const last = Math.max(game.frames.length - 1, 0);
  ply = Math.min(Math.max(k, 0), last);
  $("ply").textContent = "Ply " + ply + " / " + last;
  const cursor = $("curve-at");
  if (cursor) { const x = (ply / Math.max(last, 1)) * CW; cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); }
  for (const li of $("moves").children) li.classList.toggle("current", Number(li.dataset.ply) === ply);
  const cur = $("moves").querySelector("li.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  const err = game.error;
  $("error").textContent = err && ply === last
    ? "Invalid" + (err.ply ? " at ply " + err.ply : "") + (err.token ? " (" + err.token + ")" : "") + ": " + err.message
    : "";
  explore();
  const f = game.frames[ply];
  if (!f) { $("status").textContent = ""; $("notes").replaceChildren(); return; }
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

// The explorer panel: the games of the tree that reached this position,
// and the turns played from it, each with a bar of results (the first-named
// side's wins, draws, the second's).
function pct(n, of) { return of ? Math.round((1000 * n) / of) / 10 : 0; }
function bar(first, draws, second) {
  const of = first + draws + second;
  const b = document.createElement("div");
  b.className = "bar";
  b.title = game.sides[0] + " " + pct(first, of) + "%, draw " + pct(draws, of) + "%, " + game.sides[1] + " " + pct(second, of) + "%";
  for (const [cls, n] of [["first", first], ["draw", draws], ["second", second]]) {
    const s = document.createElement("span");
    s.className = cls; s.style.width = pct(n, of) + "%";
    b.append(s);
  }
  return b;
}
function explore() {
  const panel = $("explorer");
  if (!EXPLORER || !game.keys) { panel.hidden = true; return; }
  panel.hidden = false;
  const at = EXPLORER.positions[game.keys[ply]];
  const rows = $("explorer-moves");
  rows.replaceChildren();
  if (!at) {
    $("explorer-sum").textContent = "No game of " + EXPLORER.source + " reached this position within its first " + EXPLORER.depth + " plies.";
    return;
  }
  const [first, draws, second] = at.r;
  $("explorer-sum").textContent = at.g + " game" + (at.g === 1 ? "" : "s") + " of " + EXPLORER.source + " reached this position";
  $("explorer-sum").append(bar(first, draws, second));
  const next = game.played && game.played[ply];
  if (at.m.length) {
    const head = document.createElement("tr");
    for (const text of ["turn", "games", game.sides[0] + " \u00b7 draw \u00b7 " + game.sides[1]]) {
      const th = document.createElement("th"); th.textContent = text; head.append(th);
    }
    rows.append(head);
  }
  for (const [turn, g, a, d, b] of at.m) {
    const tr = document.createElement("tr");
    if (turn === next) tr.className = "played";
    const t = document.createElement("td"); t.textContent = turn;
    const n = document.createElement("td"); n.textContent = g;
    const c = document.createElement("td"); c.append(bar(a, d, b));
    tr.append(t, n, c);
    rows.append(tr);
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
GAMES.forEach((g, i) => {
  const o = document.createElement("option");
  o.value = i;
  o.textContent = g.dataset.index + ". " + g.dataset.title + (g.dataset.invalid !== undefined ? " (invalid)" : "");
  picker.append(o);
});
picker.addEventListener("change", () => { pick(Number(picker.value)); picker.blur(); });
if (GAMES.length) pick(0);
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
