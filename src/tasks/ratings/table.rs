//! What `gamerec ratings` writes: a table per game type for people, or
//! rows (JSON Lines, CSV, Parquet) with fixed columns — a row per player,
//! per game and player (`--history`), or per system (`--predict`).

use super::predict::{Score, System};
use super::systems::{Rated, TypeRatings, PROVISIONAL_DEVIATION};
use super::{Archive, Skip};
use crate::io::formats::parquet::ColumnKind;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Which rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    Players,
    History,
    Predict,
}

/// The columns of `rows`, typed.
pub fn columns(rows: Listing) -> Vec<(String, ColumnKind)> {
    use ColumnKind::{Float, Int, Text};
    let c: &[(&str, ColumnKind)] = match rows {
        Listing::Players => &[
            ("game", Text),
            ("player", Text),
            ("games", Int),
            ("wins", Int),
            ("draws", Int),
            ("losses", Int),
            ("first_date", Text),
            ("last_date", Text),
            ("elo", Float),
            ("glicko2", Float),
            ("glicko2_rd", Float),
            ("glicko2_volatility", Float),
            ("trueskill", Float),
            ("trueskill_sigma", Float),
            ("weng_lin", Float),
            ("weng_lin_sigma", Float),
            ("bradley_terry", Float),
            ("bradley_terry_se", Float),
            ("first_mover_advantage", Float),
            ("first_mover_advantage_se", Float),
            ("provisional", ColumnKind::Bool),
        ],
        Listing::History => &[
            ("game", Text),
            ("file", Text),
            ("index", Int),
            ("date", Text),
            ("player", Text),
            ("opponent", Text),
            ("side", Int),
            ("moved_first", ColumnKind::Bool),
            ("score", Float),
            ("elo", Float),
            ("glicko2", Float),
            ("glicko2_rd", Float),
            ("trueskill", Float),
            ("trueskill_sigma", Float),
            ("weng_lin", Float),
            ("weng_lin_sigma", Float),
        ],
        Listing::Predict => &[
            ("game", Text),
            ("system", Text),
            ("games", Int),
            ("log_loss", Float),
            ("brier", Float),
            ("accuracy", Float),
            ("decisive", Int),
        ],
    };
    c.iter().map(|(n, k)| (n.to_string(), *k)).collect()
}

/// `x` rounded to `places` decimals, as a JSON number.
fn round(x: f64, places: i32) -> Value {
    let f = 10f64.powi(places);
    serde_json::Number::from_f64((x * f).round() / f).map_or(Value::Null, Value::Number)
}

fn date(d: Option<super::date::Date>) -> Value {
    d.map_or(Value::Null, |d| Value::String(d.to_string()))
}

/// A player's row.
pub fn player_row(a: &Archive, t: &TypeRatings, r: &Rated) -> Vec<Value> {
    vec![
        json!(t.game),
        json!(a.players.name(r.player)),
        json!(r.games),
        json!(r.wins),
        json!(r.draws),
        json!(r.losses),
        date(r.first),
        date(r.last),
        round(r.elo, 2),
        round(r.glicko2.rating, 2),
        round(r.glicko2.deviation, 2),
        round(r.glicko2.volatility, 6),
        round(r.trueskill.rating, 3),
        round(r.trueskill.uncertainty, 3),
        round(r.weng_lin.rating, 3),
        round(r.weng_lin.uncertainty, 3),
        round(r.bt, 2),
        round(r.bt_se, 2),
        round(t.advantage, 2),
        round(t.advantage_se, 2),
        json!(r.provisional()),
    ]
}

/// The history's rows of one game type.
pub(crate) fn history_rows(a: &Archive, t: &TypeRatings) -> Vec<Vec<Value>> {
    (t.history.iter())
        .map(|s| {
            let g = &t.games[s.game];
            vec![
                json!(t.game),
                json!(a.files[g.file as usize]),
                json!(g.index),
                date(g.date),
                json!(a.players.name(s.player)),
                json!(a.players.name(s.opponent)),
                json!(s.side),
                json!(s.moved_first),
                json!(s.score),
                round(s.elo, 2),
                round(s.glicko2.rating, 2),
                round(s.glicko2.deviation, 2),
                round(s.trueskill.rating, 3),
                round(s.trueskill.uncertainty, 3),
                round(s.weng_lin.rating, 3),
                round(s.weng_lin.uncertainty, 3),
            ]
        })
        .collect()
}

/// A prediction row.
pub(crate) fn predict_row(game: &str, system: System, s: &Score) -> Vec<Value> {
    let (ll, brier, accuracy) = s.means();
    vec![
        json!(game),
        json!(system.name()),
        json!(s.games),
        round(ll, 4),
        round(brier, 4),
        accuracy.map_or(Value::Null, |a| round(a, 4)),
        json!(s.decisive),
    ]
}

/// Every game type's predictions, then (with more than one type) their
/// total as game `all`.
pub fn predict_rows(types: &[TypeRatings]) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    let mut total: BTreeMap<System, Score> = BTreeMap::new();
    for t in types {
        for (system, s) in &t.predicted {
            rows.push(predict_row(t.game, *system, s));
            total.entry(*system).or_default().merge(s);
        }
    }
    if types.len() > 1 {
        for (system, s) in &total {
            rows.push(predict_row("all", *system, s));
        }
    }
    rows
}

/// Every row of `rows` over the rated game types, in order (players with
/// at least `min_games` games, in `sort`'s order), each handed to `push`.
pub fn each_row(
    a: &Archive,
    rated: &[TypeRatings],
    rows: Listing,
    (sort, min_games): (super::Sort, u32),
    mut push: impl FnMut(&[Value]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    match rows {
        Listing::Players => {
            for t in rated {
                for i in super::order(a, t, sort, min_games) {
                    push(&player_row(a, t, &t.players[i]))?;
                }
            }
        }
        Listing::History => {
            for t in rated {
                for row in history_rows(a, t) {
                    push(&row)?;
                }
            }
        }
        Listing::Predict => {
            for row in predict_rows(rated) {
                push(&row)?;
            }
        }
    }
    Ok(())
}

/// The line that says what was rated and what was not.
pub fn headline(a: &Archive, t: &TypeRatings) -> String {
    let mut s = format!(
        "{}: {}, {}",
        t.game,
        crate::io::diagnostics::count(t.games.len() as u64, "game"),
        crate::io::diagnostics::count(t.players.len() as u64, "player")
    );
    let undated = a.undated(t.game);
    if undated == t.games.len() {
        s.push_str("; undated: rated in input order");
    } else if undated > 0 {
        let _ = write!(
            s,
            "; {undated} undated (rated after the dated ones, in input order)"
        );
    }
    let skipped: Vec<String> = (a.skipped.iter())
        .filter(|((_, g), _)| *g == t.game)
        .map(|((why, _), n)| format!("{n} {}", why.name()))
        .collect();
    if !skipped.is_empty() {
        let _ = write!(s, "; not rated: {}", skipped.join(", "));
    }
    s
}

/// Games no type could take (no game type), said once.
pub fn untyped(a: &Archive) -> Option<String> {
    let n: usize = (a.skipped.iter())
        .filter(|((why, g), _)| g.is_empty() || *why == Skip::NoGame)
        .map(|(_, n)| n)
        .sum();
    (n > 0).then(|| format!("{n} games of no known game type not rated"))
}

/// A name as a terminal shows it: control and direction characters
/// escaped (a U+202E in a name would turn the rest of its row around).
fn shown(name: &str) -> String {
    crate::io::diagnostics::escape(name)
}

/// The human table of one game type's players, in the given order.
pub fn human_players(a: &Archive, t: &TypeRatings, order: &[usize]) -> String {
    let mut s = headline(a, t);
    let se = if t.exact_se { "" } else { " (conditional)" };
    let _ = write!(
        s,
        "\nfirst mover's advantage (Bradley–Terry): {:+.0} ± {:.0} Elo points{se}\n\n",
        // Not `-0`.
        if t.advantage.abs() < 0.5 {
            0.0
        } else {
            t.advantage
        },
        t.advantage_se
    );
    let width = (order.iter())
        .map(|&i| shown(a.players.name(t.players[i].player)).chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 32);
    let _ = writeln!(
        s,
        "{:<width$}  {:>5}  {:>14}  {:>6}  {:>12}  {:>13}  {:>13}  {:>13}",
        "player",
        "games",
        "won-drawn-lost",
        "elo",
        "glicko2 (rd)",
        "trueskill (σ)",
        "weng-lin (σ)",
        "bt (se)",
    );
    for &i in order {
        let r = &t.players[i];
        let name: String = shown(a.players.name(r.player)).chars().take(32).collect();
        let _ = writeln!(
            s,
            "{name:<width$}  {:>5}  {:>14}  {:>6}  {:>12}  {:>13}  {:>13}  {:>13}",
            r.games,
            format!("{}-{}-{}", r.wins, r.draws, r.losses),
            format!("{:.0}{}", r.elo, if r.provisional() { "?" } else { "" }),
            format!("{:.0} ({:.0})", r.glicko2.rating, r.glicko2.deviation),
            format!("{:.1} ({:.1})", r.trueskill.rating, r.trueskill.uncertainty),
            format!("{:.1} ({:.1})", r.weng_lin.rating, r.weng_lin.uncertainty),
            format!("{:.0} ({:.0})", r.bt, r.bt_se),
        );
    }
    if order.iter().any(|&i| t.players[i].provisional()) {
        let _ = writeln!(
            s,
            "? provisional: Glicko-2 deviation above {PROVISIONAL_DEVIATION:.0} (too few games); \
             ranked after the established players"
        );
    }
    let unlisted = t.players.len() - order.len();
    if unlisted > 0 {
        let _ = writeln!(
            s,
            "({} with fewer games than --min-games not listed)",
            crate::io::diagnostics::count(unlisted as u64, "player")
        );
    }
    s
}

/// The human table of one game type's history: a row per game per
/// player, the ratings after it.
pub fn human_history(a: &Archive, t: &TypeRatings) -> String {
    let mut s = headline(a, t);
    s.push_str("\n\n");
    let name = |id: u32| -> String { shown(a.players.name(id)).chars().take(24).collect() };
    let width = (t.history.iter())
        .map(|h| {
            name(h.player)
                .chars()
                .count()
                .max(name(h.opponent).chars().count())
        })
        .max()
        .unwrap_or(6)
        .max(8);
    let _ = writeln!(
        s,
        "{:>6}  {:<10}  {:<width$}  {:<width$}  {:>5}  {:>6}  {:>12}  {:>13}  {:>13}",
        "game",
        "date",
        "player",
        "opponent",
        "score",
        "elo",
        "glicko2 (rd)",
        "trueskill (σ)",
        "weng-lin (σ)",
    );
    for h in &t.history {
        let date = (t.games[h.game].date).map_or("–".to_string(), |d| d.to_string());
        let _ = writeln!(
            s,
            "{:>6}  {date:<10}  {:<width$}  {:<width$}  {:>5}  {:>6.0}  {:>12}  {:>13}  {:>13}",
            h.game + 1,
            name(h.player),
            name(h.opponent),
            h.score,
            h.elo,
            format!("{:.0} ({:.0})", h.glicko2.rating, h.glicko2.deviation),
            format!("{:.1} ({:.1})", h.trueskill.rating, h.trueskill.uncertainty),
            format!("{:.1} ({:.1})", h.weng_lin.rating, h.weng_lin.uncertainty),
        );
    }
    s
}

/// The human table of the predictions.
pub fn human_predict(types: &[TypeRatings]) -> String {
    let mut s = String::from(
        "each game predicted from the ratings before it (accuracy: decisive games)\n\n",
    );
    let _ = writeln!(
        s,
        "{:<10}  {:<14}  {:>6}  {:>8}  {:>6}  {:>8}",
        "game", "system", "games", "log-loss", "brier", "accuracy"
    );
    for row in predict_rows(types) {
        let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
        let accuracy = match &row[5] {
            Value::Null => "–".to_string(),
            v => format!("{:.1}%", f(v) * 100.0),
        };
        let _ = writeln!(
            s,
            "{:<10}  {:<14}  {:>6}  {:>8.4}  {:>6.4}  {:>8}",
            row[0].as_str().unwrap_or(""),
            row[1].as_str().unwrap_or(""),
            row[2],
            f(&row[3]),
            f(&row[4]),
            accuracy
        );
    }
    s
}
