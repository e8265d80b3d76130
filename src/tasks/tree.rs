//! The opening explorer's answers as every front end writes them: the
//! human table (`gamerec tree`), one JSON object per explored position
//! (in the shape of lichess's opening explorer, adapted to our sides and
//! notation), and the rows of its table (`--to parquet`, Python's
//! `gamerec.tree()`). Schema: notation/tree.md.

use crate::base::problem::Problem;
use crate::envelope::record::{ReadGame, Tag};
use crate::io::diagnostics::{count, escape};
use crate::io::formats::parquet::ColumnKind;
use crate::io::formats::Visit;
use crate::play::walk::{Aim, Example, Explored, Results, Walk};
use crate::registry::{self, with_game, AnyGame, GameTask, Playable, Registered};
use gamerec_rules::game::Side;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};

/// What to explore: the position `line` leads to from each game's start,
/// in games' first `depth` plies, of the games `player` played (on `side`).
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Turns as a user writes them (move numbers left out).
    pub line: Vec<String>,
    pub depth: usize,
    /// A side tag's value, any case.
    pub player: Option<String>,
    /// With `player`: `first`, `second`, or a side's tag name.
    pub side: Option<String>,
}

impl Query {
    /// Whether `player` (and `side`) keep a game with these tags.
    pub fn keeps(&self, tags: &[Tag], sides: [&str; 2]) -> bool {
        let Some(p) = &self.player else {
            return true;
        };
        let plays = |side: &str| {
            tags.iter()
                .any(|t| t.name == side && t.value.trim().eq_ignore_ascii_case(p.trim()))
        };
        let side = self
            .side
            .as_deref()
            .map(|s| match s.to_ascii_lowercase().as_str() {
                "first" => Some(0),
                "second" => Some(1),
                s => sides.iter().position(|n| n.eq_ignore_ascii_case(s)),
            });
        match side {
            None => sides.iter().any(|s| plays(s)),
            Some(Some(i)) => plays(sides[i]),
            Some(None) => false,
        }
    }
}

/// Whether `side` names a side `--side` can mean: `first`, `second`, or
/// a side's tag name in some game (any case).
pub fn side_named(side: &str) -> bool {
    let s = side.trim();
    ["first", "second"]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(s))
        || (registry::GAMES.iter()).any(|g| g.sides().iter().any(|n| n.eq_ignore_ascii_case(s)))
}

/// Whether some game reads `turn` as a first turn from its usual start:
/// a line whose first turn no game reads is a mistake in the line, not a
/// position no game reached.
pub fn some_game_reads(turn: &str) -> bool {
    registry::GAMES.iter().any(|g| g.reads_turn(&[], turn))
}

/// A game as the explorer sees it.
pub struct Walked {
    pub game: Option<&'static str>,
    pub title: Option<String>,
    /// `None`: left out by the query's player, or rules unknown.
    pub walk: Option<Walk>,
    pub error: Option<Problem>,
}

/// Walks a game as it is read, for `query` (on any thread).
pub fn walk(v: Visit<'_, '_>, query: &Query) -> Walked {
    aimed(v, Aim::Line(&query.line), query.depth, query)
}

/// Walks a game as it is read, looking for the positions with these keys
/// in its first `depth` plies (the viewer's explorer panel).
pub fn walk_keys(v: Visit<'_, '_>, keys: &HashSet<u64>, depth: usize) -> Walked {
    aimed(v, Aim::Keys(keys), depth, &Query::default())
}

fn aimed(v: Visit<'_, '_>, aim: Aim<'_>, depth: usize, query: &Query) -> Walked {
    let sides = v.rules.as_ref().map_or(["", ""], |r| r.sides());
    let title = crate::envelope::record::title(v.game.tags(), sides);
    match v.rules {
        Ok(rules) if query.keeps(v.game.tags(), sides) => {
            let walk = walk_game(rules, v.game, aim, depth);
            Walked {
                game: Some(rules.name()),
                title,
                error: walk.error.clone(),
                walk: Some(walk),
            }
        }
        Ok(rules) => {
            v.game.finish();
            Walked {
                game: Some(rules.name()),
                title,
                walk: None,
                error: None,
            }
        }
        Err(p) => Walked {
            game: None,
            title,
            walk: None,
            error: Some(v.game.finish().error.unwrap_or(p)),
        },
    }
}

fn sides_of(game: &str) -> [&'static str; 2] {
    registry::find(game).map_or(["first", "second"], |g| g.sides())
}

fn percent(n: u64, of: u64) -> String {
    match of {
        0 => "–".to_string(),
        _ => format!("{:.1}%", 100.0 * n as f64 / of as f64),
    }
}

fn score_cells(c: &Results, mover: Side) -> (String, String) {
    match c.score(mover) {
        Some((p, lo, hi)) => (format!("{p:.3}"), format!("{lo:.3}–{hi:.3}")),
        None => ("–".into(), "–".into()),
    }
}

fn examples(list: &[Example]) -> String {
    let named: Vec<String> = list
        .iter()
        .map(|(f, i)| format!("{}#{i}", escape(f)))
        .collect();
    named.join(", ")
}

/// The explorer's table for one position.
pub fn human(out: &mut dyn Write, e: &Explored, line: &[String]) -> io::Result<()> {
    let sides = sides_of(e.game);
    let mover = sides[e.mover.index()];
    let after = match line.is_empty() {
        true => "the start".to_string(),
        false => format!("after {}", escape(&line.join(" "))),
    };
    let c = &e.counts;
    writeln!(out, "{}: {after} ({})", e.game, escape(&e.position))?;
    let (score, interval) = score_cells(c, e.mover);
    writeln!(
        out,
        "{} games, {} finished: {} {} · draw {} · {} {}; {mover} to move scores {score} ({interval})",
        c.games,
        c.finished(),
        sides[0],
        percent(c.first, c.finished()),
        percent(c.draws, c.finished()),
        sides[1],
        percent(c.second, c.finished()),
    )?;
    if c.by_rules > 0 {
        let n = count(c.by_rules, "finished game");
        writeln!(
            out,
            "({n} with no declared result: scored by the rules' ending)"
        )?;
    }
    let width = e
        .turns
        .iter()
        .map(|(t, _)| t.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "\n{:width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>6}  95% interval",
        "turn", "games", sides[0], "draw", sides[1], "score"
    )?;
    for (turn, t) in &e.turns {
        let c = &t.counts;
        let (score, interval) = score_cells(c, e.mover);
        let f = c.finished();
        writeln!(
            out,
            "{:width$}  {:>7}  {:>7}  {:>7}  {:>7}  {score:>6}  {interval}",
            escape(turn),
            c.games,
            percent(c.first, f),
            percent(c.draws, f),
            percent(c.second, f),
        )?;
    }
    if e.left_out > 0 {
        let n = count(e.left_out as u64, "more turn");
        writeln!(out, "({n}, each played in fewer games than --min-games)")?;
    }
    writeln!(out, "\nexamples: {}", examples(&e.examples))?;
    Ok(())
}

fn counts_json(c: &Results, mover: Side) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("games".into(), json!(c.games));
    m.insert("first".into(), json!(c.first));
    m.insert("draws".into(), json!(c.draws));
    m.insert("second".into(), json!(c.second));
    let (score, low, high) = match c.score(mover) {
        Some((p, lo, hi)) => (json!(round(p)), json!(round(lo)), json!(round(hi))),
        None => (Value::Null, Value::Null, Value::Null),
    };
    m.insert("score".into(), score);
    m.insert("score_low".into(), low);
    m.insert("score_high".into(), high);
    m
}

fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn games_json(list: &[Example]) -> Value {
    let games: Vec<Value> = list
        .iter()
        .map(|(f, i)| json!({"file": f, "index": i}))
        .collect();
    Value::Array(games)
}

/// One explored position as JSON (notation/tree.md).
pub fn to_json(e: &Explored, line: &[String]) -> Value {
    let sides = sides_of(e.game);
    let mut m = serde_json::Map::new();
    m.insert("game".into(), json!(e.game));
    m.insert("play".into(), json!(line));
    m.insert("position".into(), json!(e.position));
    m.insert("first_side".into(), json!(sides[0]));
    m.insert("second_side".into(), json!(sides[1]));
    m.insert("to_move".into(), json!(sides[e.mover.index()]));
    m.extend(counts_json(&e.counts, e.mover));
    m.insert("by_rules".into(), json!(e.counts.by_rules));
    let moves: Vec<Value> = e
        .turns
        .iter()
        .map(|(turn, t)| {
            let mut m = serde_json::Map::new();
            m.insert("turn".into(), json!(turn));
            m.extend(counts_json(&t.counts, e.mover));
            m.insert("top_games".into(), games_json(&t.examples));
            Value::Object(m)
        })
        .collect();
    m.insert("moves".into(), Value::Array(moves));
    m.insert("top_games".into(), games_json(&e.examples));
    Value::Object(m)
}

/// The columns of the explorer's table: a row for the explored position
/// (`turn` null) and one per turn played there.
pub fn columns() -> Vec<(String, ColumnKind)> {
    [
        ("game", ColumnKind::Text),
        ("position", ColumnKind::Text),
        ("to_move", ColumnKind::Text),
        ("turn", ColumnKind::Text),
        ("games", ColumnKind::Int),
        ("first", ColumnKind::Int),
        ("draws", ColumnKind::Int),
        ("second", ColumnKind::Int),
        ("score", ColumnKind::Float),
        ("score_low", ColumnKind::Float),
        ("score_high", ColumnKind::Float),
        ("top_games", ColumnKind::Text),
    ]
    .into_iter()
    .map(|(n, k)| (n.to_string(), k))
    .collect()
}

/// The explored position's rows, in [`columns`]' order.
pub fn rows(e: &Explored) -> Vec<Vec<Value>> {
    let sides = sides_of(e.game);
    let row = |turn: Option<&str>, c: &Results, top: &[Example]| {
        let (score, low, high) = match c.score(e.mover) {
            Some((p, lo, hi)) => (json!(round(p)), json!(round(lo)), json!(round(hi))),
            None => (Value::Null, Value::Null, Value::Null),
        };
        let named: Vec<String> = top.iter().map(|(f, i)| format!("{f}#{i}")).collect();
        vec![
            json!(e.game),
            json!(e.position),
            json!(sides[e.mover.index()]),
            json!(turn),
            json!(c.games),
            json!(c.first),
            json!(c.draws),
            json!(c.second),
            score,
            low,
            high,
            json!(named.join(" ")),
        ]
    };
    let mut out = vec![row(None, &e.counts, &e.examples)];
    for (turn, t) in &e.turns {
        out.push(row(Some(turn), &t.counts, &t.examples));
    }
    out
}

/// How many turns the viewer's panel lists per position, the most played
/// first.
pub(crate) const PANEL_TURNS: usize = 12;

/// The viewer's explorer panel data (JSON): what `source` (the tree's
/// inputs, named) holds at each position found, by `game:key` (the keys
/// [`crate::picture::html::Part::with_keys`] writes): the games (`g`), their
/// results (`r`: first-named side's wins, draws, second's) and the turns
/// played there (`m`: turn, games, and the same three counts).
pub fn panel(found: &[Explored], source: &str, depth: usize) -> String {
    let mut positions = BTreeMap::new();
    for e in found {
        let c = &e.counts;
        let turns: Vec<Value> = (e.turns.iter().take(PANEL_TURNS))
            .map(|(t, n)| {
                let n = &n.counts;
                json!([t, n.games, n.first, n.draws, n.second])
            })
            .collect();
        let at = json!({"g": c.games, "r": [c.first, c.draws, c.second], "m": turns});
        positions.insert(format!("{}:{:016x}", e.game, e.key), at);
    }
    json!({"source": source, "depth": depth, "positions": positions}).to_string()
}

/// Walks a game as it is read for the opening explorer: its result, and
/// what it played at the positions `aim` names, within its first `depth`
/// plies.
pub(crate) fn walk_game(
    rules: &dyn AnyGame,
    game: &mut dyn ReadGame<'_>,
    aim: Aim<'_>,
    depth: usize,
) -> Walk {
    struct WalkTask<'a, 'g, 'k>(&'a mut dyn ReadGame<'g>, Aim<'k>, usize);
    impl GameTask for WalkTask<'_, '_, '_> {
        type Output = Walk;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            crate::play::walk::walk::<G>(self.0, self.1, self.2)
        }
    }
    with_game(rules, WalkTask(game, aim, depth))
}
