//! A player's section of the report, per game type they played: results
//! by side and by who moved first, by opening and by opponent, their
//! ratings over their games, and what analyses marked in their turns.

use super::{Fact, Gathered, WinsDrawsLosses};
use crate::picture::chart::{self, Series, Share, COLOURS};
use crate::picture::svg::esc;
use crate::tasks::ratings::systems::TypeRatings;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The player's side in a game, and their score; `None` when they did
/// not play it.
fn seat(f: &Fact, player: u32) -> Option<usize> {
    f.players.iter().position(|p| *p == Some(player))
}

fn their_score(f: &Fact, side: usize) -> Option<f64> {
    f.score.map(|s| if side == 0 { s } else { 1.0 - s })
}

fn share(label: &str, r: &WinsDrawsLosses) -> Option<Share> {
    let (value, lo, hi) = r.score()?;
    Some(Share {
        label: label.to_string(),
        value,
        lo,
        hi,
        n: r.games(),
    })
}

fn by_side(id: &str, player: u32, sides: [&str; 2], facts: &[&Fact]) -> String {
    // As each side tag, moving first, moving second, in all.
    let mut r = [WinsDrawsLosses::default(); 5];
    for f in facts {
        let Some(side) = seat(f, player) else {
            continue;
        };
        let Some(score) = their_score(f, side) else {
            continue;
        };
        r[side].add(score);
        r[if f.first == side { 2 } else { 3 }].add(score);
        r[4].add(score);
    }
    let labels = [
        format!("as {}", sides[0]),
        format!("as {}", sides[1]),
        "moving first".to_string(),
        "moving second".to_string(),
    ];
    let rows: Vec<(String, Vec<u64>)> = (labels.iter().zip(&r))
        .map(|(l, r)| (l.clone(), r.parts()))
        .collect();
    let mut s = chart::stacked(
        &format!("{id}-sides"),
        "Results by side",
        &["won", "drawn", "lost"],
        &rows,
    );
    let shares: Vec<Share> = [("in all", 4), ("moving first", 2), ("moving second", 3)]
        .iter()
        .filter_map(|&(l, i)| share(l, &r[i]))
        .collect();
    if !shares.is_empty() {
        s.push_str(&chart::shares(
            &format!("{id}-score"),
            "Score, with 95% intervals",
            "score",
            &shares,
        ));
    }
    s
}

/// A table of records by a key (an opening, an opponent), most games
/// first, at most `limit` rows.
fn table(
    caption: &str,
    key: &str,
    rows: BTreeMap<String, WinsDrawsLosses>,
    limit: usize,
) -> String {
    let mut rows: Vec<(String, WinsDrawsLosses)> = rows.into_iter().collect();
    rows.sort_by(|a, b| b.1.games().cmp(&a.1.games()).then_with(|| a.0.cmp(&b.0)));
    let mut s = format!(
        "<table class=\"by\"><caption>{}</caption>\n<tr><th scope=\"col\">{}</th>\
         <th scope=\"col\">games</th><th scope=\"col\">won-drawn-lost</th>\
         <th scope=\"col\">score</th></tr>\n",
        esc(caption),
        esc(key)
    );
    for (name, r) in rows.iter().take(limit) {
        let score = r
            .score()
            .map_or("–".into(), |(p, _, _)| format!("{:.1}%", p * 100.0));
        let _ = writeln!(
            s,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}-{}-{}</td><td>{score}</td></tr>",
            esc(name),
            r.games(),
            r.wins,
            r.draws,
            r.losses
        );
    }
    if rows.len() > limit {
        let _ = writeln!(
            s,
            "<tr><td colspan=\"4\">({} more)</td></tr>",
            rows.len() - limit
        );
    }
    s.push_str("</table>\n");
    s
}

fn openings_and_opponents(g: &Gathered, player: u32, facts: &[&Fact]) -> String {
    let (mut openings, mut opponents) = (BTreeMap::new(), BTreeMap::new());
    for f in facts {
        let Some(side) = seat(f, player) else {
            continue;
        };
        let Some(score) = their_score(f, side) else {
            continue;
        };
        // Their own first turn: the game's first when they moved first,
        // its second (the reply) when not.
        let (theirs, mover) = match f.first == side {
            true => (f.opening, "moving first"),
            false => (f.reply, "moving second"),
        };
        if let Some(o) = theirs {
            let key = format!("{} ({mover})", g.openings[o as usize]);
            openings
                .entry(key)
                .or_insert_with(WinsDrawsLosses::default)
                .add(score);
        }
        if let Some(other) = f.players[1 - side] {
            let name = g.rated.players.name(other).to_string();
            opponents
                .entry(name)
                .or_insert_with(WinsDrawsLosses::default)
                .add(score);
        }
    }
    let mut s = table("By first turn", "first turn", openings, 15);
    s.push_str(&table("By opponent", "opponent", opponents, 25));
    s
}

fn history(id: &str, player: u32, rated: Option<&TypeRatings>) -> String {
    let Some(t) = rated else {
        return String::new();
    };
    let steps: Vec<_> = t.history.iter().filter(|h| h.player == player).collect();
    if steps.len() < 2 {
        return String::new();
    }
    let points =
        |f: &dyn Fn(&crate::tasks::ratings::systems::RatingStep) -> f64| -> Vec<(f64, f64)> {
            (steps.iter().enumerate())
                .map(|(i, h)| ((i + 1) as f64, f(h)))
                .collect()
        };
    let series = [
        Series {
            name: "Elo".into(),
            colour: COLOURS[3],
            points: points(&|h| h.elo),
        },
        Series {
            name: "Glicko-2".into(),
            colour: COLOURS[0],
            points: points(&|h| h.glicko2.rating),
        },
    ];
    chart::lines(
        &format!("{id}-rating"),
        "Rating after each rated game",
        ("rated game", "rating"),
        &series,
        &|x| format!("{}", x.round()),
    )
}

fn analysis(player: u32, facts: &[&Fact]) -> String {
    let (mut games, mut missed, mut blunders) = (0u64, 0u64, 0u64);
    for f in facts {
        let (Some(side), Some(m)) = (seat(f, player), f.marks) else {
            continue;
        };
        games += 1;
        missed += m[side][0];
        blunders += m[side][1];
    }
    if games == 0 {
        return "<p class=\"analysis\">No analysed record (gamerec analyse --annotate).</p>\n"
            .into();
    }
    format!(
        "<table class=\"analysis\"><caption>In analysed records</caption>\n\
         <tr><th scope=\"col\">analysed games</th><th scope=\"col\">missed wins</th>\
         <th scope=\"col\">blunders</th><th scope=\"col\">per game</th></tr>\n\
         <tr><td>{games}</td><td>{missed}</td><td>{blunders}</td><td>{:.2}</td></tr>\n</table>\n",
        (missed + blunders) as f64 / games as f64
    )
}

/// The section of player `player` (their number in the report's players).
pub fn section(
    g: &Gathered,
    player: u32,
    by_type: &BTreeMap<&'static str, Vec<&Fact>>,
    rated: &[TypeRatings],
) -> String {
    let name = g.rated.players.name(player);
    let mut s = format!(
        "<section id=\"player-{player}\" class=\"player\">\n<h2>Player: {}</h2>\n",
        esc(name)
    );
    for (game, facts) in by_type {
        let theirs: Vec<&Fact> = (facts.iter().copied())
            .filter(|f| seat(f, player).is_some())
            .collect();
        if theirs.is_empty() {
            continue;
        }
        let id = format!("player-{player}-{game}");
        let sides = g.sides.get(game).copied().unwrap_or(["first", "second"]);
        let _ = writeln!(s, "<h3>{} ({} games)</h3>", esc(game), theirs.len());
        s.push_str(&by_side(&id, player, sides, &theirs));
        s.push_str(&openings_and_opponents(g, player, &theirs));
        s.push_str(&history(
            &id,
            player,
            rated.iter().find(|t| t.game == *game),
        ));
        s.push_str(&analysis(player, &theirs));
    }
    s.push_str("</section>\n");
    s
}
