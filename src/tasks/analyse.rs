//! A game analysed as every front end reads it: its rules picked from its
//! tags, the analysis ([`crate::play::analysis`]), and its JSON form
//! (`analyse --format json`, notation/analysis.md), built here for the
//! command line and the Python package alike.

use crate::base::problem::Problem;
use crate::envelope::record::{commands, Chunk, ReadGame, RecordSource};
use crate::io::diagnostics::{escape, place, JsonError, Location};
use crate::io::formats::parquet::ColumnKind;
use crate::io::formats::text::TextSink;
use crate::play::analysis::{
    Analysis, Annotation, Mark, PlyAnalysis, Settings, ANNOTATOR, COMMANDS,
};
use crate::play::sink::out::Rendered;
use crate::play::sink::{GameSink, Head, Tail, TraceOptions, TurnOut};
use crate::registry::{tell, with_game, AnyGame, GameTask, Playable, Registered};
use gamerec_rules::search::Value;
use serde::Serialize;
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// One game analysed, or why it could not be.
pub struct Analysed {
    pub game: Option<&'static str>,
    pub sides: [&'static str; 2],
    /// `Round 3, Ana vs Ben`, where the tags say.
    pub title: Option<String>,
    pub analysis: Option<Analysis>,
    /// Why there is no analysis, or why it stops early.
    pub error: Option<Problem>,
}

impl Analysed {
    /// Whether the game is valid (every ply replayed, nothing refused).
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }
}

/// Analyses a game as it is read.
pub fn analyse(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    settings: &Settings,
) -> Analysed {
    let sides = rules.as_ref().map_or(["", ""], |r| r.sides());
    let title = crate::envelope::record::title(game.tags(), sides);
    match rules {
        Ok(rules) => {
            let analysis = analysis_of(rules, game, settings);
            Analysed {
                game: Some(rules.name()),
                sides,
                title,
                error: analysis.error.clone(),
                analysis: Some(analysis),
            }
        }
        Err(p) => {
            let end = game.finish();
            Analysed {
                game: None,
                sides,
                title,
                analysis: None,
                error: Some(end.error.unwrap_or(p)),
            }
        }
    }
}

/// A value in JSON: `{"value": "win", "distance": 3}`.
#[derive(Serialize)]
pub struct JsonValue {
    pub value: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
}

impl From<Value> for JsonValue {
    fn from(v: Value) -> Self {
        JsonValue {
            value: v.name(),
            distance: v.distance(),
        }
    }
}

/// One searched ply in JSON.
#[derive(Serialize)]
pub struct JsonPly<'a> {
    pub ply: usize,
    pub turn: &'a str,
    pub side: &'static str,
    #[serde(flatten)]
    pub at: Location,
    pub before: JsonValue,
    pub after: Option<JsonValue>,
    pub best: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate_best: Option<&'a str>,
    pub win_chance: Option<f64>,
    pub win_chance_after: Option<f64>,
    pub marks: Vec<&'static str>,
    pub nodes: u64,
}

/// One game's analysis in JSON (`analyse --format json`, a line per game).
#[derive(Serialize)]
pub struct JsonAnalysis<'a> {
    pub file: &'a str,
    pub index: usize,
    pub game: Option<&'a str>,
    pub valid: bool,
    pub depth: Option<u32>,
    /// Plies replayed legally.
    pub plies_played: usize,
    pub plies: Vec<JsonPly<'a>>,
    /// Marks per side: `{"Red": {"blunder": 1, …}, …}`.
    pub totals: BTreeMap<&'static str, BTreeMap<&'static str, usize>>,
    pub error: Option<JsonError<'a>>,
}

impl<'a> JsonAnalysis<'a> {
    pub fn new(file: &'a str, index: usize, chunk: Option<&Chunk>, a: &'a Analysed) -> Self {
        // The plies are in order: located in one pass over the chunk.
        let mut locator = chunk.map(Chunk::locator);
        let ply = |p: &'a PlyAnalysis| JsonPly {
            ply: p.ply,
            turn: &p.turn,
            side: a.sides[p.side.index()],
            at: Location::located(locator.as_mut().map(|l| l.at(p.span.start)), p.span),
            before: p.before.into(),
            after: p.after.map(JsonValue::from),
            best: &p.best,
            estimate_best: p.estimate_best.as_deref(),
            win_chance: p.chance.map(round),
            win_chance_after: p.chance_after.map(round),
            marks: p.marks.iter().map(|m| m.name()).collect(),
            nodes: p.nodes,
        };
        let totals = a
            .analysis
            .as_ref()
            .map(Analysis::totals)
            .unwrap_or_default();
        JsonAnalysis {
            file,
            index,
            game: a.game,
            valid: a.is_valid(),
            depth: a.analysis.as_ref().map(|x| x.depth),
            plies_played: a.analysis.as_ref().map_or(0, |x| x.plies),
            plies: a
                .analysis
                .iter()
                .flat_map(|x| &x.searched)
                .map(ply)
                .collect(),
            totals: named(a.sides, totals),
            error: a.error.as_ref().map(|p| JsonError::new(chunk, p)),
        }
    }
}

/// Three decimals: an estimate is no more precise.
fn round(x: f64) -> f64 {
    crate::play::analysis::round_chance(x)
}

fn named(
    sides: [&'static str; 2],
    t: [[usize; 6]; 2],
) -> BTreeMap<&'static str, BTreeMap<&'static str, usize>> {
    sides
        .iter()
        .zip(t)
        .filter(|(s, _)| !s.is_empty())
        .map(|(s, counts)| {
            let by_mark = Mark::ALL.iter().zip(counts).map(|(m, n)| (m.name(), n));
            (*s, by_mark.collect())
        })
        .collect()
}

/// Analyses a game and writes it back annotated (`analyse --annotate`):
/// its canonical text, each searched turn with the assessment of its
/// gravest mark and a comment of commands (notation/analysis.md); the
/// commands and assessments an earlier annotation wrote on those turns are
/// replaced, everything else is kept.
pub fn annotate(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    settings: &Settings,
) -> (Analysed, Rendered) {
    let parsed = game.record();
    let source = || RecordSource::repaired(&parsed.record, parsed.error.clone(), Vec::new());
    let analysed = analyse(&mut source(), rules.clone(), settings);
    let mut rendered = Rendered::new();
    let mut sink = Annotating {
        inner: &mut TextSink::new(&mut rendered),
        plies: analysed.analysis.as_ref().map_or(&[][..], |a| &a.searched),
        depth: analysed.analysis.as_ref().map(|a| a.depth),
    };
    tell(&mut source(), rules, TraceOptions::default(), &mut sink);
    (analysed, rendered)
}

/// Passes a game on with its searched turns annotated.
struct Annotating<'s> {
    inner: &'s mut dyn GameSink,
    plies: &'s [PlyAnalysis],
    depth: Option<u32>,
}

impl GameSink for Annotating<'_> {
    fn head(&mut self, head: &Head<'_>) {
        let Some(depth) = self.depth else {
            return self.inner.head(head);
        };
        let annotator = format!("gamerec {}, depth {depth}", env!("CARGO_PKG_VERSION"));
        let mut tags: Vec<(&str, &str)> = (head.tags.iter())
            .filter(|(n, _)| *n != ANNOTATOR)
            .copied()
            .collect();
        tags.push((ANNOTATOR, &annotator));
        self.inner.head(&Head {
            tags: &tags,
            ..*head
        });
    }

    fn turn(&mut self, mut turn: TurnOut<'_>) {
        let Ok(i) = self.plies.binary_search_by_key(&turn.ply, |p| p.ply) else {
            return self.inner.turn(turn);
        };
        let mut ours = false;
        let mut kept = Vec::with_capacity(turn.comments.len() + 1);
        for c in turn.comments.drain(..) {
            let (rest, found) = commands::without(&c, &COMMANDS);
            ours |= found;
            if !found || !rest.is_empty() {
                kept.push(rest);
            }
        }
        if ours {
            // The assessment was an earlier annotation's.
            turn.assessment = None;
        }
        let a = Annotation::of(&self.plies[i]);
        if let Some(assessment) = a.assessment() {
            turn.assessment = Some(assessment);
        }
        if let Some(c) = a.comment() {
            kept.insert(0, c);
        }
        turn.comments = kept;
        self.inner.turn(turn)
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        self.inner.tail(tail)
    }
}

/// The analysis table's columns (`analyse --to parquet`, a row per
/// searched ply; notation/analysis.md).
pub fn columns() -> Vec<(String, ColumnKind)> {
    [
        ("file", ColumnKind::Text),
        ("index", ColumnKind::Int),
        ("game", ColumnKind::Text),
        ("valid", ColumnKind::Bool),
        ("depth", ColumnKind::Int),
        ("ply", ColumnKind::Int),
        ("turn", ColumnKind::Text),
        ("side", ColumnKind::Text),
        ("line", ColumnKind::Int),
        ("column", ColumnKind::Int),
        ("before", ColumnKind::Text),
        ("before_distance", ColumnKind::Int),
        ("after", ColumnKind::Text),
        ("after_distance", ColumnKind::Int),
        ("best", ColumnKind::Text),
        ("estimate_best", ColumnKind::Text),
        ("win_chance", ColumnKind::Float),
        ("win_chance_after", ColumnKind::Float),
        ("marks", ColumnKind::Text),
        ("nodes", ColumnKind::Int),
    ]
    .into_iter()
    .map(|(n, k)| (n.to_string(), k))
    .collect()
}

/// A game's rows of the analysis table, one per searched ply, in
/// [`columns`]' order.
pub fn rows(file: &str, index: usize, chunk: Option<&Chunk>, a: &Analysed) -> Vec<Vec<Json>> {
    let Some(x) = &a.analysis else {
        return Vec::new();
    };
    let mut locator = chunk.map(Chunk::locator);
    x.searched
        .iter()
        .map(|p| {
            let at = locator.as_mut().map(|l| l.at(p.span.start));
            let after = p.after.unwrap_or(Value::Unknown);
            let marks: Vec<&str> = p.marks.iter().map(|m| m.name()).collect();
            vec![
                json!(file),
                json!(index),
                json!(a.game),
                json!(a.is_valid()),
                json!(x.depth),
                json!(p.ply),
                json!(p.turn),
                json!(a.sides[p.side.index()]),
                json!(at.map(|a| a.0)),
                json!(at.map(|a| a.1)),
                json!(p.before.name()),
                json!(p.before.distance()),
                json!(p.after.map(|v| v.name())),
                json!(after.distance()),
                json!(p.best.join(" ")),
                json!(p.estimate_best),
                json!(p.chance.map(round)),
                json!(p.chance_after.map(round)),
                json!(marks.join(",")),
                json!(p.nodes),
            ]
        })
        .collect()
}

/// What `analyse` found in all: games, invalid ones, plies searched, and
/// the marks of each kind (in [`Mark::ALL`]'s order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marked {
    pub games: usize,
    pub invalid: usize,
    pub searched: usize,
    pub marks: [usize; 6],
}

impl Marked {
    /// Counts one game in; says whether it is valid.
    pub fn add(&mut self, a: &Analysed) -> bool {
        self.games += 1;
        if !a.is_valid() {
            self.invalid += 1;
        }
        if let Some(x) = &a.analysis {
            self.searched += x.searched.len();
            for side in x.totals() {
                for (t, n) in self.marks.iter_mut().zip(side) {
                    *t += n;
                }
            }
        }
        a.is_valid()
    }

    /// `12 games (1 invalid), 640 plies searched: 3 missed wins, 5 blunders, …`
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let t = self;
        let games = match t.games {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        let invalid = match t.invalid {
            0 => String::new(),
            n => format!(" ({n} invalid)"),
        };
        let marks: Vec<String> = Mark::ALL
            .iter()
            .zip(t.marks)
            .map(|(m, n)| format!("{n} {}", m.name()))
            .collect();
        let plies = match t.searched {
            1 => "1 ply".to_string(),
            n => format!("{n} plies"),
        };
        writeln!(
            out,
            "{games}{invalid}, {plies} searched: {}",
            marks.join(", ")
        )
    }
}

/// A game analysed ([`analyse`]), or with `annotate` also written back
/// annotated ([`annotate`]).
pub fn analysed(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    settings: &Settings,
    annotate: bool,
) -> (Analysed, Option<Rendered>) {
    match annotate {
        true => {
            let (a, text) = self::annotate(game, rules, settings);
            (a, Some(text))
        }
        false => (analyse(game, rules, settings), None),
    }
}

/// A game's marks, a line each (`FILE:LINE:COL: game 2 (…), ply 40:
/// 20... d7-d9?? blunder: …`): `analyse`'s human output, less the game's
/// problem (shown as a diagnostic by the front end).
pub fn write_marks(
    out: &mut dyn Write,
    input: &str,
    index: usize,
    chunk: Option<&Chunk>,
    a: &Analysed,
) -> io::Result<()> {
    let title = a.title.as_deref();
    let Some(x) = &a.analysis else {
        return Ok(());
    };
    for (i, p) in x.searched.iter().enumerate() {
        let next = x.searched.get(i + 1).filter(|n| n.ply == p.ply + 1);
        for &m in &p.marks {
            let at = match chunk {
                Some(c) => {
                    let (line, col) = c.locate(p.span.start);
                    format!("{}:{line}:{col}", escape(input))
                }
                None => escape(input),
            };
            let turn = format!("{}{}", numbered(p, &escape(&p.turn)), m.assessment());
            let said = explain(m, p, next, a.sides);
            let here = place(Some(index), title, Some(p.ply));
            writeln!(out, "{at}: {here}: {turn} {}: {said}", m.name())?;
        }
    }
    Ok(())
}

/// `8... f6-f5`: a turn with its move number.
pub(crate) fn numbered(p: &PlyAnalysis, turn: &str) -> String {
    format!("{}{} {turn}", p.number, if p.second { "..." } else { "." })
}

/// What a mark says: the values before and after, what was better, and
/// (from the next ply's proven best moves, where it is searched) how the
/// win after a blunder begins.
pub(crate) fn explain(
    m: Mark,
    p: &PlyAnalysis,
    next: Option<&PlyAnalysis>,
    sides: [&str; 2],
) -> String {
    let (me, them) = (sides[p.side.index()], sides[p.side.other().index()]);
    let mut after = p.after.map_or("unknown".into(), |v| v.in_words(me, them));
    if let (Some(Value::Loss(d)), Some(n)) = (p.after, next) {
        if let Some(first) = n.best.first() {
            let more = if d > 1 { " …" } else { "" };
            after.push_str(&format!(": {}{more}", numbered(n, &escape(first))));
        }
    }
    let before = p.before.in_words(me, them);
    let better = match p.best.as_slice() {
        [] => match &p.estimate_best {
            Some(e) => format!("; the estimate's move: {e}"),
            None => String::new(),
        },
        [one] => format!("; best: {one}"),
        [first, rest @ ..] => format!("; best: {first} (or {} more)", rest.len()),
    };
    match m {
        Mark::MissedWin => format!("before it {before}{better}; after it {after}"),
        Mark::Blunder => format!("now {after}; before it {before}{better}"),
        Mark::OnlyMove if matches!(p.before, Value::Win(_)) => {
            format!("the only move that wins ({before})")
        }
        Mark::OnlyMove => format!("the only move that does not lose ({after})"),
        _ => {
            let c = |x: Option<f64>| x.map_or("?".into(), |x| format!("{x:.2}"));
            format!(
                "{me}'s win chance {} -> {} (estimate)",
                c(p.chance),
                c(p.chance_after)
            )
        }
    }
}

/// A game analysed as it is read, under its rules (`rules`).
pub(crate) fn analysis_of(
    rules: &dyn AnyGame,
    game: &mut dyn ReadGame<'_>,
    settings: &Settings,
) -> Analysis {
    struct Analyse<'a, 'g, 's>(&'a mut dyn ReadGame<'g>, &'s Settings);
    impl GameTask for Analyse<'_, '_, '_> {
        type Output = Analysis;
        fn run<G: Playable>(self, _: &Registered<G>) -> Analysis {
            crate::play::analysis::analyse::<G>(self.0, self.1)
        }
    }
    with_game(rules, Analyse(game, settings))
}
