//! A game analysed as every front end reads it: its rules picked from its
//! tags, the analysis ([`crate::analysis`]), and its JSON form
//! (`analyse --format json`, notation/analysis.md), built here for the
//! command line and the Python package alike.

use crate::analysis::{Analysis, Mark, PlyAnalysis, Settings};
use crate::archive::JsonAt;
use crate::archive::JsonError;
use crate::problem::Problem;
use crate::record::{Chunk, ReadGame};
use crate::registry::AnyGame;
use crate::search::Value;
use serde::Serialize;
use std::collections::BTreeMap;

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
    let title = crate::record::title(game.tags(), sides);
    match rules {
        Ok(rules) => {
            let analysis = rules.analyse(game, settings);
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
    pub at: JsonAt,
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
        let ply = |p: &'a PlyAnalysis| JsonPly {
            ply: p.ply,
            turn: &p.turn,
            side: a.sides[p.side.index()],
            at: JsonAt::new(chunk, p.span),
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
    (x * 1000.0).round() / 1000.0
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
