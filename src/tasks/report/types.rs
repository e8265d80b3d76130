//! A game type's section of the report: results by side and the first
//! mover's advantage, game lengths (a histogram, and over time), end
//! reasons, openings with their scores, design metrics and the ratings.

use super::{Fact, Gathered, WinsDrawsLosses};
use crate::picture::chart::{self, Series, Share, COLOURS};
use crate::picture::svg::esc;
use crate::tasks::ratings::systems::TypeRatings;
use crate::tasks::ratings::{self, Sort};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The first side's record, and the first mover's.
fn records(facts: &[&Fact]) -> (WinsDrawsLosses, WinsDrawsLosses) {
    let (mut by_side, mut by_mover) = (WinsDrawsLosses::default(), WinsDrawsLosses::default());
    for f in facts {
        if let Some(s) = f.score {
            by_side.add(s);
            by_mover.add(if f.first == 0 { s } else { 1.0 - s });
        }
    }
    (by_side, by_mover)
}

fn share(label: String, r: &WinsDrawsLosses) -> Option<Share> {
    let (value, lo, hi) = r.score()?;
    Some(Share {
        label,
        value,
        lo,
        hi,
        n: r.games(),
    })
}

fn results(id: &str, sides: [&str; 2], facts: &[&Fact]) -> String {
    let (by_side, by_mover) = records(facts);
    let mut s = chart::stacked(
        &format!("{id}-results"),
        "Results of finished games",
        &["first wins", "draw", "second wins"],
        &[
            (format!("{} – {}", sides[0], sides[1]), by_side.parts()),
            ("first mover – second".to_string(), by_mover.parts()),
        ],
    );
    let shares: Vec<Share> = [
        share(format!("{}'s score", sides[0]), &by_side),
        share("first mover's score".to_string(), &by_mover),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !shares.is_empty() {
        s.push_str(&chart::shares(
            &format!("{id}-advantage"),
            "Score by side, with 95% intervals",
            "score",
            &shares,
        ));
    }
    s
}

/// Bins of about a fifteenth of the longest game, from 0.
fn bins(plies: &[u32]) -> Vec<(u64, u64, u64)> {
    let max = u64::from(plies.iter().copied().max().unwrap_or(0));
    let width = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|w| max / w < 15)
        .unwrap_or(max / 15 + 1);
    let mut counts = vec![0u64; (max / width + 1) as usize];
    for &p in plies {
        counts[(u64::from(p) / width) as usize] += 1;
    }
    (counts.into_iter().enumerate())
        .map(|(i, n)| (i as u64 * width, (i as u64 + 1) * width, n))
        .collect()
}

/// Mean length per month of dated games (two months or more), else per
/// tenth of the games in input order.
fn over_time(id: &str, facts: &[&Fact]) -> String {
    let mut months: BTreeMap<(u16, u8), (u64, u64)> = BTreeMap::new();
    for f in facts.iter().filter(|f| f.valid) {
        if let Some(d) = f.date.filter(|d| d.month > 0) {
            let m = months.entry((d.year, d.month)).or_default();
            m.0 += 1;
            m.1 += u64::from(f.plies);
        }
    }
    let valid: Vec<&&Fact> = facts.iter().filter(|f| f.valid).collect();
    let (points, labels): (Vec<(f64, f64)>, BTreeMap<i64, String>) = if months.len() >= 2 {
        months
            .iter()
            .map(|(&(y, m), &(n, p))| {
                let x = i64::from(y) * 12 + i64::from(m);
                (
                    (x as f64, p as f64 / n as f64),
                    (x, format!("{y:04}-{m:02}")),
                )
            })
            .unzip()
    } else {
        let block = valid.len().div_ceil(10).max(1);
        (valid.chunks(block).enumerate())
            .map(|(i, c)| {
                let end = (i * block + c.len()) as i64;
                let mean = c.iter().map(|f| f64::from(f.plies)).sum::<f64>() / c.len() as f64;
                ((end as f64, mean), (end, format!("games to {end}")))
            })
            .unzip()
    };
    if points.len() < 2 {
        return String::new();
    }
    let x_name = if months.len() >= 2 {
        "month"
    } else {
        "games read"
    };
    let label = |x: f64| {
        labels
            .get(&(x.round() as i64))
            .cloned()
            .unwrap_or_else(|| match months.len() >= 2 {
                true => {
                    let x = x.round() as i64;
                    format!("{:04}-{:02}", (x - 1) / 12, (x - 1) % 12 + 1)
                }
                false => format!("{}", x.round()),
            })
    };
    let series = [Series {
        name: "mean plies".into(),
        colour: COLOURS[3],
        points,
    }];
    chart::lines(
        &format!("{id}-length-time"),
        "Game length over time",
        (x_name, "mean plies"),
        &series,
        &label,
    )
}

fn lengths(id: &str, facts: &[&Fact]) -> String {
    let plies: Vec<u32> = facts.iter().filter(|f| f.valid).map(|f| f.plies).collect();
    if plies.is_empty() {
        return String::new();
    }
    let mut s = chart::histogram(
        &format!("{id}-lengths"),
        "Game lengths",
        "plies",
        &bins(&plies),
    );
    s.push_str(&over_time(id, facts));
    s
}

fn reasons(id: &str, facts: &[&Fact]) -> String {
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for f in facts.iter().filter(|f| f.valid) {
        *counts.entry(f.reason).or_default() += 1;
    }
    let invalid = facts.iter().filter(|f| !f.valid).count() as u64;
    let mut items: Vec<(String, u64)> = counts
        .into_iter()
        .map(|(r, n)| (r.to_string(), n))
        .collect();
    if invalid > 0 {
        items.push(("(invalid record)".into(), invalid));
    }
    items.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    chart::counts(&format!("{id}-reasons"), "How games ended", "games", &items)
}

/// The most played first turns (up to 12) with the first side's score.
fn openings(id: &str, g: &Gathered, sides: [&str; 2], facts: &[&Fact]) -> String {
    let mut by: BTreeMap<u32, WinsDrawsLosses> = BTreeMap::new();
    for f in facts {
        if let (Some(o), Some(s)) = (f.opening, f.score) {
            by.entry(o).or_default().add(s);
        }
    }
    let mut top: Vec<(u32, WinsDrawsLosses)> = by.into_iter().collect();
    top.sort_by(|a, b| {
        (b.1.games().cmp(&a.1.games()))
            .then_with(|| g.openings[a.0 as usize].cmp(&g.openings[b.0 as usize]))
    });
    let shares: Vec<Share> = (top.iter().take(12))
        .filter_map(|(o, r)| share(g.openings[*o as usize].clone(), r))
        .collect();
    if shares.is_empty() {
        return String::new();
    }
    chart::shares(
        &format!("{id}-openings"),
        &format!(
            "First turns: {}'s score after each (95% intervals)",
            sides[0]
        ),
        "score",
        &shares,
    )
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (n, sum) = values.fold((0u64, 0.0), |(n, s), v| (n + 1, s + v));
    (n > 0).then(|| sum / n as f64)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

type Row = (&'static str, String, &'static str);

/// Completion, decisiveness, drawishness, balance and the first mover's
/// advantage.
fn outcome_rows(facts: &[&Fact], rated: Option<&TypeRatings>) -> Vec<Row> {
    let (by_side, by_mover) = records(facts);
    let valid = facts.iter().filter(|f| f.valid).count() as f64;
    let finished = by_side.games() as f64;
    let decisive = (by_side.wins + by_side.losses) as f64;
    let mut rows: Vec<Row> = Vec::new();
    if valid > 0.0 {
        rows.push((
            "completion",
            pct(finished / valid),
            "finished games of the valid ones",
        ));
    }
    if finished > 0.0 {
        rows.push((
            "decisiveness",
            pct(decisive / finished),
            "finished games with a winner",
        ));
        let draws = pct(by_side.draws as f64 / finished);
        rows.push(("drawishness", draws, "finished games drawn"));
    }
    if decisive > 0.0 {
        let gap = (by_side.wins as f64 - by_side.losses as f64).abs() / decisive;
        rows.push((
            "balance",
            pct(1.0 - gap),
            "1 − the gap between the sides' shares of wins",
        ));
    }
    if let Some((p, lo, hi)) = by_mover.score() {
        let points = |x: f64| (x - 0.5) * 100.0;
        let text = format!(
            "{:+.1} points ({:+.1} to {:+.1})",
            points(p),
            points(lo),
            points(hi)
        );
        rows.push((
            "first-mover advantage",
            text,
            "the first mover's score − 50%, 95% interval",
        ));
    }
    if let Some(t) = rated {
        let text = format!("{:+.0} ± {:.0} Elo points", t.advantage, t.advantage_se);
        let meaning = "Bradley–Terry, players' strengths allowed for";
        rows.push(("first-mover advantage (rated)", text, meaning));
    }
    rows
}

/// Branching, duration and lead changes.
fn play_rows(facts: &[&Fact]) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    if let Some(b) = mean(facts.iter().filter_map(|f| f.branching)) {
        rows.push((
            "branching",
            format!("{b:.1}"),
            "mean legal moves at a position played from",
        ));
    }
    if let Some(d) = mean(facts.iter().filter(|f| f.valid).map(|f| f64::from(f.plies))) {
        rows.push((
            "duration",
            format!("{d:.1} plies"),
            "mean length of a valid game",
        ));
    }
    let analysed: Vec<u32> = facts.iter().filter_map(|f| f.leads).collect();
    rows.push(match mean(analysed.iter().map(|&l| f64::from(l))) {
        Some(l) => {
            let text = format!("{l:.2} a game ({} analysed)", analysed.len());
            (
                "lead changes",
                text,
                "the win-chance curve crossing one half",
            )
        }
        None => {
            let why = "no record holds win chances (gamerec analyse --annotate)";
            ("lead changes", "–".into(), why)
        }
    });
    rows
}

/// Design metrics in the manner of Ludii's (notation/report.md).
fn metrics(facts: &[&Fact], rated: Option<&TypeRatings>) -> String {
    let mut s = String::from(
        "<table class=\"metrics\"><caption>Design metrics</caption>\n<tr><th scope=\"col\">\
         metric</th><th scope=\"col\">value</th><th scope=\"col\">meaning</th></tr>\n",
    );
    for (name, value, meaning) in outcome_rows(facts, rated)
        .into_iter()
        .chain(play_rows(facts))
    {
        let _ = writeln!(
            s,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td class=\"meaning\">{}</td></tr>",
            esc(name),
            esc(&value),
            esc(meaning)
        );
    }
    s.push_str("</table>\n");
    s
}

/// The top players by Bradley–Terry.
fn ratings_table(g: &Gathered, t: &TypeRatings) -> String {
    let mut s = String::from("<table class=\"ratings\"><caption>Ratings (the 20 highest by Bradley–Terry, provisional players — Elo marked ? — after the established; every player: gamerec ratings)</caption>\n<tr><th scope=\"col\">player</th><th scope=\"col\">games</th><th scope=\"col\">won-drawn-lost</th><th scope=\"col\">Bradley–Terry (se)</th><th scope=\"col\">Elo</th><th scope=\"col\">Glicko-2 (rd)</th></tr>\n");
    for i in ratings::order(&g.rated, t, Sort::BradleyTerry, 1)
        .into_iter()
        .take(20)
    {
        let r = &t.players[i];
        let name = g.rated.players.name(r.player);
        let _ = writeln!(
            s,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}-{}-{}</td><td>{:.0} ({:.0})</td><td>{:.0}{}</td><td>{:.0} ({:.0})</td></tr>",
            esc(name), r.games, r.wins, r.draws, r.losses, r.bt, r.bt_se, r.elo, if r.provisional() { "?" } else { "" }, r.glicko2.rating, r.glicko2.deviation
        );
    }
    s.push_str("</table>\n");
    s
}

/// The section of game type `game`.
pub fn section(g: &Gathered, game: &str, facts: &[&Fact], rated: Option<&TypeRatings>) -> String {
    let id = format!("type-{game}");
    let sides = g.sides.get(game).copied().unwrap_or(["first", "second"]);
    let valid = facts.iter().filter(|f| f.valid).count();
    let finished = facts.iter().filter(|f| f.score.is_some()).count();
    let mut s = format!(
        "<section id=\"{id}\" class=\"game-type\">\n<h2>{}</h2>\n<p class=\"counts\">{} games: {valid} valid, {finished} finished{}.</p>\n",
        esc(game),
        facts.len(),
        rated.map_or(String::new(), |t| format!("; {} players rated", t.players.len()))
    );
    s.push_str(&results(&id, sides, facts));
    s.push_str(&lengths(&id, facts));
    s.push_str(&reasons(&id, facts));
    s.push_str(&openings(&id, g, sides, facts));
    s.push_str(&metrics(facts, rated));
    if let Some(t) = rated.filter(|t| !t.players.is_empty()) {
        s.push_str(&ratings_table(g, t));
    }
    s.push_str("</section>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_bins_start_at_zero_and_hold_every_game() {
        let b = bins(&[0, 3, 17, 44, 44]);
        assert_eq!(b[0].0, 0);
        assert_eq!(b.iter().map(|x| x.2).sum::<u64>(), 5);
        assert!(b.len() <= 16);
        assert!(b.windows(2).all(|w| w[0].1 == w[1].0));
    }
}
