//! What `filter` selects games by: their rules, tags, players, result,
//! length, validity, opening or a position they reach ([`Criteria`]),
//! judged as each game is replayed on a worker thread ([`Picker`]), with
//! the game's output made there too.

use crate::base::problem::Repair;
use crate::envelope::record::{ReadGame, RecordSource, ResultToken, Tag};
use crate::io::diagnostics::Repaired;
use crate::io::formats::{Format, Visit};
use crate::io::passthrough::{written, Written};
use crate::play::pattern::Pattern;
use crate::play::select::{Examined, Probe};
use crate::registry::{self, with_game, AnyGame, GameTask, Playable, Registered};
use crate::tasks::index::{Index, IndexedGame, Placed};
use regex::Regex;
use std::collections::HashSet;
use std::io;

/// Whether `--winner`'s value names a winner: `first`, `second`, `draw`,
/// `none` or a side of a registered game (ignoring case).
pub fn known_winner(w: &str) -> bool {
    let sides = registry::GAMES.iter().flat_map(|g| g.sides());
    ["first", "second", "draw", "none"]
        .iter()
        .any(|k| w.eq_ignore_ascii_case(k))
        || sides.into_iter().any(|s| w.eq_ignore_ascii_case(s))
}

/// A tag a game must have (`--tag`): `NAME=VALUE` (exactly that value) or
/// `NAME~REGEX` (a regular expression found in the value).
pub enum TagTest {
    Is(String, String),
    Matches(String, Regex),
}

impl TagTest {
    pub fn parse(text: &str) -> Result<TagTest, String> {
        let at = text
            .find(['=', '~'])
            .ok_or_else(|| format!("--tag {text}: write NAME=VALUE or NAME~REGEX"))?;
        let (name, value) = (text[..at].to_string(), &text[at + 1..]);
        if name.is_empty() {
            return Err(format!("--tag {text}: the tag's name is missing"));
        }
        Ok(match &text[at..=at] {
            "=" => TagTest::Is(name, value.to_string()),
            _ => TagTest::Matches(
                name,
                Regex::new(value).map_err(|e| format!("--tag {text}: {e}"))?,
            ),
        })
    }

    pub fn holds(&self, tags: &[Tag]) -> bool {
        let (name, test) = match self {
            TagTest::Is(n, _) | TagTest::Matches(n, _) => (n, self),
        };
        tags.iter().any(|t| {
            *t.name == **name
                && match test {
                    TagTest::Is(_, v) => *t.value == **v,
                    TagTest::Matches(_, re) => re.is_match(&t.value),
                }
        })
    }
}

/// Every criterion a game is judged by.
pub struct Criteria {
    /// Only games of these rules.
    pub game: Option<&'static dyn AnyGame>,
    pub tags: Vec<TagTest>,
    /// A player, on either side (ignoring case).
    pub players: Vec<String>,
    /// `first`, `second`, `draw`, `none` or a side's name.
    pub winner: Option<String>,
    /// A reason code or its first word.
    pub reason: Option<String>,
    pub min_plies: Option<usize>,
    pub max_plies: Option<usize>,
    pub valid: bool,
    pub invalid: bool,
    /// The game opens with the probe's turns.
    pub opening: bool,
    /// The game reaches the probe's position.
    pub reaches: bool,
    /// A position of the game matches the probe's pattern.
    pub pattern: bool,
    /// Any criterion holding is enough (default: all of them).
    pub any: bool,
}

impl Criteria {
    /// Whether a game of `rules` with `tags`, examined as `ex`, meets them.
    pub fn holds(&self, rules: Option<&'static dyn AnyGame>, tags: &[Tag], ex: &Examined) -> bool {
        let mut checks = Vec::new();
        if let Some(g) = self.game {
            checks.push(rules.is_some_and(|r| r.name() == g.name()));
        }
        checks.extend(self.tags.iter().map(|t| t.holds(tags)));
        for p in &self.players {
            let sides = rules.map_or(["", ""], |r| r.sides());
            checks.push(tags.iter().any(|t| {
                sides.contains(&&*t.name) && t.value.trim().eq_ignore_ascii_case(p.trim())
            }));
        }
        if let Some(w) = &self.winner {
            checks.push(ex.outcome.as_ref().is_some_and(
                |o| match w.to_ascii_lowercase().as_str() {
                    "first" => o.result == ResultToken::FirstWins,
                    "second" => o.result == ResultToken::SecondWins,
                    "draw" => o.result == ResultToken::Draw,
                    "none" => o.result == ResultToken::Unknown,
                    side => o.winner.is_some_and(|s| s.eq_ignore_ascii_case(side)),
                },
            ));
        }
        if let Some(r) = &self.reason {
            checks.push(
                ex.outcome.as_ref().is_some_and(|o| {
                    o.reason == r || o.reason.split('-').next() == Some(r.as_str())
                }),
            );
        }
        if let Some(n) = self.min_plies {
            checks.push(ex.plies >= n);
        }
        if let Some(n) = self.max_plies {
            checks.push(ex.plies <= n);
        }
        if self.valid {
            checks.push(ex.error.is_none());
        }
        if self.invalid {
            checks.push(ex.error.is_some());
        }
        if self.opening {
            checks.push(ex.opens);
        }
        if self.reaches {
            checks.push(ex.reaches);
        }
        if self.pattern {
            checks.push(ex.pattern_at.is_some());
        }
        match self.any {
            true => checks.is_empty() || checks.iter().any(|&c| c),
            false => checks.iter().all(|&c| c),
        }
    }
}

/// One game, selected (or not) on a worker thread, with its output.
pub struct Picked {
    pub matched: bool,
    /// The game in the output format (`None`: not wanted).
    pub out: Option<Written>,
    /// What `--lenient` repaired, and the game's title (to say so).
    pub repairs: Vec<Repair>,
    pub title: Option<String>,
    /// Why no position of this game's rules can match `--pattern` (its
    /// rules named).
    pub misfit: Option<(&'static str, String)>,
}

/// What picking a game needs, on any thread: what to look for while it
/// is replayed, the criteria it must meet, the output format (`None`: as
/// it was), and whether matching games and the rest are written.
pub struct Picker<'a> {
    pub probe: &'a Probe,
    pub criteria: &'a Criteria,
    pub to: Option<Format>,
    pub want_out: bool,
    pub want_rest: bool,
}

impl Picker<'_> {
    /// Judges a game as it is read: whether it matches, and (when it goes
    /// to an output) the form it is written in.
    pub fn pick(&self, visit: Visit<'_, '_>) -> Picked {
        let repairs = visit.game.repairs().to_vec();
        let parsed = visit.game.record();
        let record = &parsed.record;
        let known = visit.rules.as_ref().ok().copied();
        let title = (!repairs.is_empty())
            .then(|| record.title(known.map_or(["", ""], |r| r.sides())))
            .flatten();
        let examined = match known {
            Some(r) => examine(
                r,
                &mut RecordSource::new(record, parsed.error.clone()),
                self.probe,
            ),
            None => Examined {
                error: visit.rules.as_ref().err().cloned(),
                span: record.span,
                ..Examined::default()
            },
        };
        let matched = self.criteria.holds(known, &record.tags, &examined);
        let wanted = if matched {
            self.want_out
        } else {
            self.want_rest
        };
        let misfit = known
            .zip(examined.pattern_misfit)
            .map(|(r, m)| (r.name(), m));
        let out = wanted.then(|| written(visit, &parsed, self.to));
        Picked {
            matched,
            out,
            repairs,
            title,
            misfit,
        }
    }
}

/// What [`candidates`] has to say: an error (nothing is read) or a warning.
pub enum Notice {
    Error(String),
    Warning(String),
}

/// The games the index says may match `--reaches` (a position) and
/// `--pattern` (both, when both are given); `None` when the position
/// cannot be read or neither is given (said through `said`).
pub fn candidates(
    index: &Index,
    reaches: Option<&str>,
    pattern: Option<&Pattern>,
    said: &mut dyn FnMut(Notice),
) -> io::Result<Option<Vec<Placed>>> {
    let mut found: Option<Vec<Placed>> = None;
    if let Some(position) = reaches {
        let placed = &mut |row: IndexedGame, _| row.placed();
        match index.reaches_with(position, placed)? {
            Ok(hits) => found = Some(hits),
            Err(why) => {
                said(Notice::Error(format!("--reaches: {why}")));
                return Ok(None);
            }
        }
    }
    if let Some(pattern) = pattern {
        let (hits, misfits) = index.pattern(pattern)?;
        let hits: Vec<Placed> = hits.iter().map(|h| h.game.placed()).collect();
        for (game, why) in misfits {
            said(Notice::Warning(format!(
                "--pattern: {why}: no {game} position matches it"
            )));
        }
        found = Some(match found {
            None => hits,
            Some(before) => {
                let ids: HashSet<u32> = hits.iter().map(|h| h.id).collect();
                before.into_iter().filter(|h| ids.contains(&h.id)).collect()
            }
        });
    }
    if found.is_none() {
        said(Notice::Error(
            "--index answers --reaches and --pattern: give one of them".into(),
        ));
    }
    Ok(found)
}

/// `gamerec: 3 of 40 games matched`, with the repairs when read leniently.
pub fn summary(matched: usize, games: usize, repaired: Option<&Repaired>) -> String {
    let repaired = match repaired {
        Some(r) => format!("; {}", r.summary()),
        None => String::new(),
    };
    format!("gamerec: {matched} of {games} games matched{repaired}")
}

/// Replays a game as it is read for `filter`: its verdict, its length, and
/// what `probe` looks for.
pub fn examine(rules: &dyn AnyGame, game: &mut dyn ReadGame<'_>, probe: &Probe) -> Examined {
    struct Examine<'a, 'g, 'p>(&'a mut dyn ReadGame<'g>, &'p Probe);
    impl GameTask for Examine<'_, '_, '_> {
        type Output = Examined;
        fn run<G: Playable>(self, _: &Registered<G>) -> Examined {
            crate::play::select::examine::<G>(self.0, self.1)
        }
    }
    with_game(rules, Examine(game, probe))
}
