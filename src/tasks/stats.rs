//! Statistics: one row per game (`--per game`) and a summary per game type
//! (`--summary`), as JSON or CSV with fixed columns (notation/stats.md).

use crate::base::problem::Problem;
use crate::envelope::record::{ReadGame, ResultToken};
use crate::io::formats::parquet::ColumnKind;
use crate::io::formats::rows::{Row, RowFormat, RowTable};
use crate::play::analysis::{Annotation, Mark, ANNOTATOR, COMMANDS};
use crate::play::sink::{Collect, Converted, GameSink, Head, Tail, TraceOptions, TurnOut};
use crate::registry::{stats_columns, tell, AnyGame};
use serde::Serialize;
use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

/// The columns every game has, before the game-specific ones.
pub(crate) const GAME_COLUMNS: [&str; 24] = [
    "file",
    "index",
    "game",
    "valid",
    "error",
    "first_side",
    "first_player",
    "second_side",
    "second_player",
    "first_mover",
    "declared_result",
    "result",
    "winner",
    "winner_player",
    "reason",
    "plies",
    "branching",
    "first_turn",
    "event",
    "analysed",
    "first_missed_wins",
    "first_blunders",
    "second_missed_wins",
    "second_blunders",
];

/// Every column of the per-game CSV: the common ones, then each game's own
/// statistics as `<game>_<name>`, games in registry order.
pub fn game_header() -> Vec<String> {
    let mut h: Vec<String> = GAME_COLUMNS.iter().map(|s| s.to_string()).collect();
    for (game, columns) in stats_columns() {
        for stat in columns {
            h.push(format!("{game}_{}", stat.name));
        }
    }
    h
}

/// The per-game columns with their types (for Parquet): integers,
/// doubles, booleans, text.
pub fn game_kinds() -> Vec<(String, ColumnKind)> {
    game_header()
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let kind = match GAME_COLUMNS.get(i).copied() {
                Some("index" | "plies") => ColumnKind::Int,
                Some(c) if c.ends_with("_missed_wins") || c.ends_with("_blunders") => {
                    ColumnKind::Int
                }
                Some("valid" | "analysed") => ColumnKind::Bool,
                Some("branching") => ColumnKind::Float,
                Some(_) => ColumnKind::Text,
                // A game's own statistics: counts.
                None => ColumnKind::Int,
            };
            (name, kind)
        })
        .collect()
}

/// The summary's columns with their types (for Parquet); `reasons` and
/// `top_first_turns` are lists of (name, count).
pub fn summary_kinds() -> Vec<(String, ColumnKind)> {
    SUMMARY_COLUMNS
        .iter()
        .map(|&name| {
            let kind = match name {
                "game" | "first_side" | "second_side" => ColumnKind::Text,
                "first_mover_win_rate" | "length_mean" | "length_median" | "branching_mean" => {
                    ColumnKind::Float
                }
                "reasons" => ColumnKind::Counts("reason"),
                "top_first_turns" => ColumnKind::Counts("turn"),
                _ => ColumnKind::Int,
            };
            (name.to_string(), kind)
        })
        .collect()
}

/// One game's statistics, as ordered (column, value) pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsRow {
    pub values: Vec<(String, Value)>,
    /// This game's own statistics (name without prefix, value).
    pub counts: Vec<(&'static str, Option<u64>)>,
}

fn text(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::String(s.to_string()))
}

fn num(n: Option<u64>) -> Value {
    n.map_or(Value::Null, |n| Value::Number(n.into()))
}

/// The side that made (or would make) the game's first turn.
fn first_mover(g: &Converted) -> Option<&'static str> {
    let t = g.trace.as_ref()?;
    let side = if t.starts_second {
        t.first_mover.other()
    } else {
        t.first_mover
    };
    Some(g.sides[side.index()])
}

/// What the statistics need of a game as it is read: its head, its first
/// legal turn, its verdict and the replay's totals with the branching
/// factor (its `index` is left for the caller to set).
pub fn traced(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
) -> Converted {
    traced_with(game, rules, true)
}

/// [`traced`], the branching factor counted only when `branching` (it
/// counts every position's legal turns: most of the work; `ratings`
/// needs no branching factor).
pub fn traced_with(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    branching: bool,
) -> Converted {
    let trace = TraceOptions {
        syntax_only: false,
        branching,
        site: false,
    };
    let mut marking = Marking {
        inner: Collect::new(0).first_only(),
        sides: ["", ""],
        analysed: false,
        marks: [[0; 2]; 2],
        leader: None,
        leads: None,
    };
    tell(game, rules, trace, &mut marking);
    let mut game = marking.inner.into_game();
    game.marks = marking.analysed.then_some(marking.marks);
    game.leads = marking.leads;
    game
}

/// Counts, per side, the marks an analysis wrote into the record (`gamerec
/// analyse --annotate`: an `Annotator` tag of gamerec's, or a turn with
/// one of its commands), passing the game on.
struct Marking {
    inner: Collect,
    sides: [&'static str; 2],
    analysed: bool,
    /// Per side: missed wins, blunders.
    marks: [[u64; 2]; 2],
    /// The side ahead by the last win chance that was not one half.
    leader: Option<bool>,
    /// Lead changes so far; `None` until a win chance is read.
    leads: Option<u32>,
}

impl GameSink for Marking {
    fn head(&mut self, head: &Head<'_>) {
        self.sides = head.sides;
        self.analysed =
            (head.tags.iter()).any(|(n, v)| *n == ANNOTATOR && v.starts_with("gamerec"));
        self.inner.head(head)
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        if turn.comments.iter().any(|c| c.contains("[%")) {
            let a = Annotation::read(turn.comments.iter().map(String::as_str));
            let ours = |c: &String| {
                crate::envelope::record::commands::commands(c)
                    .iter()
                    .any(|(n, _)| COMMANDS.contains(n))
            };
            self.analysed |= turn.comments.iter().any(ours);
            let side = usize::from(turn.side == self.sides[1] && !turn.side.is_empty());
            for (i, mark) in [Mark::MissedWin, Mark::Blunder].into_iter().enumerate() {
                self.marks[side][i] += u64::from(a.marks.contains(&mark));
            }
            if let Some(win) = a.win {
                // The first side's chance, whoever moved.
                let first = if side == 0 { win } else { 1.0 - win };
                let leads = self.leads.get_or_insert(0);
                if first != 0.5 {
                    let ahead = first > 0.5;
                    *leads += u32::from(self.leader.is_some_and(|l| l != ahead));
                    self.leader = Some(ahead);
                }
            }
        }
        self.inner.turn(turn)
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        self.inner.tail(tail)
    }
}

/// The statistics row of a converted (traced) game.
pub fn game_row(file: &str, g: &Converted) -> StatsRow {
    let declared = g
        .result
        .or_else(|| g.tag("Result").and_then(|r| ResultToken::parse(r.trim())));
    let outcome = g.outcome.as_ref();
    let trace = g.trace.as_ref();
    let first_mover = first_mover(g);
    let player = |side: &str| g.tag(side).filter(|s| !side.is_empty() && !s.is_empty());
    let winner = outcome.and_then(|o| o.winner);
    let branching = trace
        .and_then(|t| t.branching())
        .and_then(|b| Number::from_f64((b * 1000.0).round() / 1000.0))
        .map_or(Value::Null, Value::Number);
    let values: Vec<(&str, Value)> = vec![
        ("file", Value::String(file.to_string())),
        ("index", num(Some(g.index as u64))),
        ("game", text(g.game)),
        ("valid", Value::Bool(g.is_valid())),
        ("error", text(g.error.as_ref().map(|p| p.code.as_str()))),
        ("first_side", text(g.game.map(|_| g.sides[0]))),
        ("first_player", text(player(g.sides[0]))),
        ("second_side", text(g.game.map(|_| g.sides[1]))),
        ("second_player", text(player(g.sides[1]))),
        ("first_mover", text(first_mover)),
        ("declared_result", text(declared.map(ResultToken::as_str))),
        ("result", text(outcome.map(|o| o.result.as_str()))),
        ("winner", text(winner)),
        ("winner_player", text(winner.and_then(player))),
        ("reason", text(outcome.map(|o| o.reason))),
        (
            "plies",
            num(Some(trace.map_or(0, |t| t.replay.plies) as u64)),
        ),
        ("branching", branching),
        // In the game's standard labels (what `--summary` counts), the same
        // whatever labels the record uses.
        (
            "first_turn",
            text(
                trace.and_then(|t| t.opening.as_deref()).or(g
                    .turns
                    .first()
                    .filter(|t| t.facts.is_some())
                    .map(|t| t.text.as_ref())),
            ),
        ),
        ("event", text(g.tag("Event"))),
        ("analysed", Value::Bool(g.marks.is_some())),
        ("first_missed_wins", num(g.marks.map(|m| m[0][0]))),
        ("first_blunders", num(g.marks.map(|m| m[0][1]))),
        ("second_missed_wins", num(g.marks.map(|m| m[1][0]))),
        ("second_blunders", num(g.marks.map(|m| m[1][1]))),
    ];
    let counts = trace.map_or_else(Vec::new, |t| t.stats.clone());
    StatsRow {
        values: values
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        counts,
    }
}

impl StatsRow {
    /// The JSON object: the common fields, then `stats` with the game's
    /// own statistics.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        for (k, v) in &self.values {
            m.insert(k.clone(), v.clone());
        }
        let mut stats = Map::new();
        for (k, v) in &self.counts {
            stats.insert(k.to_string(), num(*v));
        }
        m.insert("stats".into(), Value::Object(stats));
        Value::Object(m)
    }

    /// The CSV record, in [`game_header`]'s order; empty where a value is
    /// absent or belongs to another game.
    pub fn to_csv(&self) -> Vec<String> {
        self.cells().iter().map(cell).collect()
    }

    /// Every column's value, in [`game_header`]'s order; null where a value
    /// is absent or belongs to another game.
    pub fn cells(&self) -> Vec<Value> {
        let mut out: Vec<Value> = self.values.iter().map(|(_, v)| v.clone()).collect();
        let game = self
            .values
            .iter()
            .find(|(k, _)| k == "game")
            .map(|(_, v)| v);
        for (name, columns) in stats_columns() {
            let mine = game.and_then(Value::as_str) == Some(name);
            for (i, _) in columns.iter().enumerate() {
                out.push(match (mine, self.counts.get(i)) {
                    (true, Some((_, Some(v)))) => Value::from(*v),
                    _ => Value::Null,
                });
            }
        }
        out
    }
}

fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The columns of the summary CSV.
pub const SUMMARY_COLUMNS: [&str; 25] = [
    "game",
    "games",
    "valid",
    "invalid",
    "finished",
    "unfinished",
    "first_side",
    "second_side",
    "wins_first",
    "wins_second",
    "draws",
    "first_mover_wins",
    "first_mover_win_rate",
    "length_mean",
    "length_median",
    "length_min",
    "length_max",
    "branching_mean",
    "reasons",
    "top_first_turns",
    "analysed",
    "first_missed_wins",
    "first_blunders",
    "second_missed_wins",
    "second_blunders",
];

/// How many of the most common first turns the summary lists.
pub(crate) const TOP_FIRST_TURNS: usize = 5;

/// Running totals for one game type.
#[derive(Clone, Debug, Default)]
struct Totals {
    sides: [&'static str; 2],
    games: u64,
    valid: u64,
    finished: u64,
    wins: [u64; 2],
    draws: u64,
    first_mover_wins: u64,
    lengths: Vec<u32>,
    branching: Vec<f64>,
    reasons: BTreeMap<&'static str, u64>,
    first_turns: HashMap<String, u64>,
    /// Games analysed, and their marks per side (missed wins, blunders).
    analysed: u64,
    marks: [[u64; 2]; 2],
}

/// A value rounded to three decimals.
fn rounded(x: f64) -> Value {
    Number::from_f64((x * 1000.0).round() / 1000.0).map_or(Value::Null, Value::Number)
}

/// The mean of `v`, none for no value.
fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// The median of sorted `lengths`.
fn median(lengths: &[u32]) -> Option<f64> {
    let n = lengths.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(f64::from(lengths[n / 2])),
        _ => Some((f64::from(lengths[n / 2 - 1]) + f64::from(lengths[n / 2])) / 2.0),
    }
}

/// One game type's summary row: its counts, results, lengths, branching,
/// reasons and most common first turns.
fn summary_row(game: &str, t: &Totals) -> Vec<(&'static str, Value)> {
    let mut lengths = t.lengths.clone();
    lengths.sort_unstable();
    let decided = t.wins[0] + t.wins[1];
    let lengths_f: Vec<f64> = lengths.iter().map(|&l| f64::from(l)).collect();
    let side = |s: &'static str| text(Some(s).filter(|s| !s.is_empty()));
    let win_rate = match decided {
        0 => Value::Null,
        _ => rounded(t.first_mover_wins as f64 / decided as f64),
    };
    vec![
        ("game", Value::String(game.to_string())),
        ("games", num(Some(t.games))),
        ("valid", num(Some(t.valid))),
        ("invalid", num(Some(t.games - t.valid))),
        ("finished", num(Some(t.finished))),
        ("unfinished", num(Some(t.valid - t.finished))),
        ("first_side", side(t.sides[0])),
        ("second_side", side(t.sides[1])),
        ("wins_first", num(Some(t.wins[0]))),
        ("wins_second", num(Some(t.wins[1]))),
        ("draws", num(Some(t.draws))),
        ("first_mover_wins", num(Some(t.first_mover_wins))),
        ("first_mover_win_rate", win_rate),
        ("length_mean", mean(&lengths_f).map_or(Value::Null, rounded)),
        (
            "length_median",
            median(&lengths).map_or(Value::Null, rounded),
        ),
        ("length_min", num(lengths.first().map(|&l| u64::from(l)))),
        ("length_max", num(lengths.last().map(|&l| u64::from(l)))),
        (
            "branching_mean",
            mean(&t.branching).map_or(Value::Null, rounded),
        ),
        (
            "reasons",
            Value::Object(
                (t.reasons.iter())
                    .map(|(k, v)| (k.to_string(), num(Some(*v))))
                    .collect(),
            ),
        ),
        ("top_first_turns", top_first_turns(t)),
        ("analysed", num(Some(t.analysed))),
        ("first_missed_wins", num(Some(t.marks[0][0]))),
        ("first_blunders", num(Some(t.marks[0][1]))),
        ("second_missed_wins", num(Some(t.marks[1][0]))),
        ("second_blunders", num(Some(t.marks[1][1]))),
    ]
}

/// The most common first turns, most first (ties by spelling).
fn top_first_turns(t: &Totals) -> Value {
    let mut firsts: Vec<(&String, &u64)> = t.first_turns.iter().collect();
    firsts.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    firsts.truncate(TOP_FIRST_TURNS);
    let counts: Vec<TurnCount<'_>> = (firsts.iter())
        .map(|(turn, count)| TurnCount {
            turn,
            count: **count,
        })
        .collect();
    serde_json::to_value(counts).unwrap_or(Value::Null)
}

/// The aggregate over an archive, per game type (`None`: unknown game).
#[derive(Debug, Default)]
pub struct Summary {
    by_game: BTreeMap<String, Totals>,
}

#[derive(Serialize)]
struct TurnCount<'a> {
    turn: &'a str,
    count: u64,
}

impl Summary {
    pub fn add(&mut self, g: &Converted) {
        let key = g.game.unwrap_or("unknown").to_string();
        let t = self.by_game.entry(key).or_default();
        t.sides = g.sides;
        t.games += 1;
        if let Some(m) = g.marks {
            t.analysed += 1;
            for (total, n) in t.marks.iter_mut().flatten().zip(m.iter().flatten()) {
                *total += n;
            }
        }
        let (Some(outcome), Some(trace)) = (g.outcome.as_ref(), g.trace.as_ref()) else {
            return;
        };
        t.valid += 1;
        t.lengths.push(trace.replay.plies as u32);
        if let Some(b) = trace.branching() {
            t.branching.push(b);
        }
        // In one labelling, whatever the record's settings.
        let first = g.turns.first().map(|t| t.text.as_ref());
        if let Some(opening) = trace.opening.as_deref().or(first) {
            *t.first_turns.entry(opening.to_owned()).or_default() += 1;
        }
        if outcome.result == ResultToken::Unknown {
            return;
        }
        t.finished += 1;
        *t.reasons.entry(outcome.reason).or_default() += 1;
        match outcome.result {
            ResultToken::FirstWins => t.wins[0] += 1,
            ResultToken::SecondWins => t.wins[1] += 1,
            _ => t.draws += 1,
        }
        if outcome.winner.is_some() && outcome.winner == first_mover(g) {
            t.first_mover_wins += 1;
        }
    }

    /// One (column, value) list per game type, in name order.
    pub fn rows(&self) -> Vec<Vec<(&'static str, Value)>> {
        (self.by_game.iter())
            .map(|(game, t)| summary_row(game, t))
            .collect()
    }
}

/// A summary value as a CSV cell: objects and lists as `key=value` pairs
/// joined with `;` (`points=3;resignation=1`, `e3-e5=2;a1-a4=1`).
pub fn summary_cell(v: &Value) -> String {
    match v {
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}={}", cell(v)))
            .collect::<Vec<_>>()
            .join(";"),
        Value::Array(items) => items
            .iter()
            .map(|i| format!("{}={}", cell(&i["turn"]), cell(&i["count"])))
            .collect::<Vec<_>>()
            .join(";"),
        other => cell(other),
    }
}

/// Statistics being written: a row per game, or (`per_type`) the games
/// gathered into a summary row per game type written at the end — through
/// the one table writer ([`RowTable`]).
pub struct StatsWriter<W: Write + Send> {
    table: RowTable<W>,
    per_type: bool,
    summary: Summary,
}

impl<W: Write + Send> StatsWriter<W> {
    /// Starts writing to `out` (the CSV header first); `spreadsheet_safe`:
    /// CSV cells that would start a formula are quoted with `'`.
    pub fn new(
        out: W,
        format: RowFormat,
        per_type: bool,
        spreadsheet_safe: bool,
    ) -> io::Result<Self> {
        let (name, columns) = match per_type {
            true => ("summary", summary_kinds()),
            false => ("stats", game_kinds()),
        };
        Ok(StatsWriter {
            table: RowTable::new(out, format, name, columns, spreadsheet_safe)?,
            per_type,
            summary: Summary::default(),
        })
    }

    /// Adds game `g` of input `file`: its row, or its share of the summary.
    pub fn add(&mut self, file: &str, g: &Converted) -> io::Result<()> {
        if self.per_type {
            self.summary.add(g);
            return Ok(());
        }
        let row = game_row(file, g);
        match self.table.format() {
            // JSON nests the game's own statistics: its shape, not the cells.
            RowFormat::Json => self.table.push_row(Row {
                cells: &[],
                csv: None,
                json: Some(row.to_json()),
            }),
            _ => self.table.push(&row.cells()),
        }
    }

    /// Writes the summary's rows (per type) and the format's end; gives
    /// the output back.
    pub fn finish(mut self) -> io::Result<W> {
        if self.per_type {
            for row in self.summary.rows() {
                let csv = row.iter().map(|(_, v)| summary_cell(v)).collect();
                let json: serde_json::Map<String, Value> = (row.iter())
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
                let cells: Vec<Value> = row.into_iter().map(|(_, v)| v).collect();
                self.table.push_row(Row {
                    cells: &cells,
                    csv: Some(csv),
                    json: Some(Value::Object(json)),
                })?;
            }
        }
        self.table.finish()
    }
}
