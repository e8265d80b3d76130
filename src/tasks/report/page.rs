//! The report's page: one HTML file with everything inside (its style
//! inline, no script, no font or picture from elsewhere: a Content
//! Security Policy forbids loading any), a section per game type, then
//! the players'.

use super::{player, types, Gathered};
use crate::picture::svg::esc;
use crate::tasks::ratings::players::normalise;
use crate::tasks::ratings::{self, systems};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the report is made with.
#[derive(Clone, Debug)]
pub struct PageOptions {
    pub title: String,
    /// Only this player's section (`--player`); else the players with
    /// the most games, up to `players`.
    pub player: Option<String>,
    pub players: usize,
    pub ratings: systems::RatingOptions,
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1200px;\
padding:1em 2em;color:#222;background:#fdfbf7}h1{margin-bottom:.2em}h2{border-bottom:2px solid \
#c8b273;padding-bottom:.2em;margin-top:2em}nav a{margin-right:1em}figure.chart{margin:1.2em 0}\
figcaption{font-weight:600;margin-bottom:.4em}.pair{display:flex;flex-wrap:wrap;gap:1.5em;\
align-items:flex-start}table{border-collapse:collapse;font-size:.9em;margin:.8em 0}caption{\
text-align:left;font-weight:600;padding-bottom:.3em}th,td{border:1px solid #ddd;padding:.2em \
.5em;text-align:right}th[scope=row]{text-align:left;font-weight:normal}svg.chart{background:#fff;\
border:1px solid #eee;max-width:100%;height:auto}td.meaning{text-align:left}div.data{max-height:24em;overflow:auto}footer{margin-top:3em;font-size:.85em;color:#555}";

/// `1 file`, `2 files`.
pub(crate) fn plural(n: usize, what: &str) -> String {
    crate::io::diagnostics::count(n as u64, what)
}

/// The players who get a section, and what was said about the choice.
fn chosen(g: &mut Gathered, opts: &PageOptions) -> (Vec<u32>, Option<String>) {
    if let Some(p) = &opts.player {
        let Some(name) = normalise(p) else {
            return (Vec::new(), Some(format!("no player named `{p}`")));
        };
        let known = g.rated.players.len();
        let id = g.rated.players.id(&name);
        if id as usize >= known {
            return (Vec::new(), Some(format!("no game of `{p}` in the archive")));
        }
        return (vec![id], None);
    }
    let mut games: BTreeMap<u32, u64> = BTreeMap::new();
    for f in &g.facts {
        for p in f.players.iter().flatten() {
            *games.entry(*p).or_default() += 1;
        }
    }
    let mut by: Vec<(u32, u64)> = games.into_iter().collect();
    by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let note = (by.len() > opts.players).then(|| {
        format!(
            "the {} players with the most games of {} have a section (--player P for another)",
            opts.players,
            by.len()
        )
    });
    (
        by.into_iter().take(opts.players).map(|p| p.0).collect(),
        note,
    )
}

/// The report of `g`; and a note when `--player` named no player of the
/// archive (the page says it too).
pub fn page(mut g: Gathered, opts: &PageOptions) -> (String, Option<String>) {
    let rated = ratings::rate(
        &g.rated,
        systems::RatingOptions {
            history: true,
            ..opts.ratings
        },
    );
    let player_count = g.rated.players.len();
    let (players, note) = chosen(&mut g, opts);
    let by_type = g.by_type();
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">\n<meta name=\"generator\" content=\"gamerec {}\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n",
        env!("CARGO_PKG_VERSION"),
        esc(&opts.title),
        esc(&opts.title)
    );
    let _ = writeln!(
        s,
        "<p class=\"summary\">{} games in {}; {}; {} players.{}</p>",
        g.facts.len() + g.untyped,
        plural(g.files, "file"),
        plural(by_type.len(), "game type"),
        player_count,
        match g.untyped {
            0 => String::new(),
            n => format!(" {n} games of no known game type are left out."),
        }
    );
    if let Some(n) = &note {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(n));
    }
    s.push_str("<nav>");
    for game in by_type.keys() {
        let _ = write!(s, "<a href=\"#type-{game}\">{}</a>", esc(game));
    }
    for &p in &players {
        let _ = write!(
            s,
            "<a href=\"#player-{p}\">{}</a>",
            esc(g.rated.players.name(p))
        );
    }
    s.push_str("</nav>\n</header>\n<main>\n");
    for (game, facts) in &by_type {
        s.push_str(&types::section(
            &g,
            game,
            facts,
            rated.iter().find(|t| t.game == *game),
        ));
    }
    for &p in &players {
        s.push_str(&player::section(&g, p, &by_type, &rated));
    }
    let _ = writeln!(
        s,
        "</main>\n<footer>Made by gamerec {}. Scores count a draw as half a win; intervals are \
         95% Wilson intervals; ratings and metrics: notation/ratings.md and notation/report.md.\
         </footer>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
    (s, note.filter(|_| opts.player.is_some()))
}
