//! Conversion: a game read from any format becomes a [`Converted`] game (its
//! tags in canonical order, every turn with what the replay found), which
//! each output format writes. Nothing here knows a game's rules; they come
//! through [`Rules::trace`].

pub mod csv;
pub mod json;
pub mod read;
pub mod site;
pub mod text;

use crate::game::{MoveFacts, Side};
use crate::problem::Problem;
use crate::record::{Record, ResultToken};
use crate::replay::{turn_at, Outcome, Rules, Trace, TraceOptions};

/// Tags written first, in this order (the two side tags follow `Round`).
pub const LEADING_TAGS: [&str; 5] = ["Game", "Event", "Site", "Date", "Round"];

/// One turn of a converted game.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnOut {
    /// 1-based.
    pub ply: usize,
    /// The move number (`N.` / `N...`).
    pub number: u64,
    /// Made by the second mover of its move number (`N...`).
    pub second: bool,
    /// The side tag of the player who made it (`Red`, `Host`, …).
    pub side: &'static str,
    /// The canonical spelling for a legal turn; as written otherwise.
    pub text: String,
    /// As written in the input, when that differs from `text`.
    pub written: Option<String>,
    /// What the turn did; `None` from the first illegal turn on.
    pub facts: Option<MoveFacts>,
    /// The turn in the game's site notation, when asked for.
    pub site: Option<String>,
    pub comments: Vec<String>,
}

/// One game ready to be written in any format.
#[derive(Clone, Debug)]
pub struct Converted {
    /// 1-based index of the game in its input.
    pub index: usize,
    /// The rules' name, when the `Game` tag named a known game.
    pub game: Option<&'static str>,
    pub sides: [&'static str; 2],
    /// In canonical order.
    pub tags: Vec<(String, String)>,
    /// Comments before the first turn.
    pub comments: Vec<String>,
    pub turns: Vec<TurnOut>,
    /// The result token that ends the movetext, as written.
    pub result: Option<ResultToken>,
    pub outcome: Option<Outcome>,
    pub error: Option<Problem>,
    /// The trace, for statistics: its totals (facts, site turns, error and
    /// outcome have moved into this game's own fields).
    pub trace: Option<Trace>,
}

impl Converted {
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }

    /// The first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The tags in canonical order: `Game` (the rules' own name), `Event`,
/// `Site`, `Date`, `Round`, the two side tags, `Result`, then every other
/// tag in the order written. A repeated tag keeps its place among the rest.
pub fn canonical_tags(record: &Record, rules: Option<&dyn Rules>) -> Vec<(String, String)> {
    let sides = rules.map_or(["", ""], |r| r.sides());
    let mut order: Vec<&str> = LEADING_TAGS.to_vec();
    order.extend(sides.iter().filter(|s| !s.is_empty()));
    order.push("Result");
    let mut used = vec![false; record.tags.len()];
    let mut out = Vec::with_capacity(record.tags.len());
    for name in order {
        if let Some(i) = record.tags.iter().position(|t| t.name == name) {
            used[i] = true;
            let t = &record.tags[i];
            let value = match (name, rules) {
                ("Game", Some(r)) => r.name().to_string(),
                _ => t.value.clone(),
            };
            out.push((t.name.clone(), value));
        }
    }
    for (t, used) in record.tags.iter().zip(used) {
        if !used {
            out.push((t.name.clone(), t.value.clone()));
        }
    }
    out
}

/// Replays `record` (when its rules are known) and builds its converted
/// form (taking the record's strings). `parse_error` is the envelope's own
/// problem, which takes precedence over what the replay finds.
pub fn convert(
    index: usize,
    record: Record,
    parse_error: Option<Problem>,
    rules: Result<&'static dyn Rules, Problem>,
    opts: TraceOptions,
) -> Converted {
    let (rules, rules_error) = match rules {
        Ok(r) => (Some(r), None),
        Err(p) => (None, Some(p)),
    };
    let mut trace = rules
        .filter(|_| !opts.syntax_only)
        .map(|r| r.trace(&record, opts));
    let sides = rules.map_or(["", ""], |r| r.sides());
    let (first_mover, starts_second) = match (&trace, rules) {
        (Some(t), _) => (t.first_mover, t.starts_second),
        (None, Some(r)) => r.first_turn(&record),
        (None, None) => (Side::First, false),
    };
    // The turns own what each ply did; the trace keeps its totals.
    let (facts, site) = trace.as_mut().map_or((Vec::new(), Vec::new()), |t| {
        (std::mem::take(&mut t.facts), std::mem::take(&mut t.site))
    });
    let mut facts = facts.into_iter();
    let mut site = site.into_iter();
    let tags = canonical_tags(&record, rules);
    let result = record.result.map(|r| r.result);
    let comments = record.comments.into_iter().map(|c| c.text).collect();
    let turns = record
        .turns
        .into_iter()
        .enumerate()
        .map(|(i, turn)| {
            let (number, second, mover) = turn_at(i, first_mover, starts_second);
            // Facts come one per legal ply, from the first turn on.
            let f = facts.next();
            let respelled = f.as_ref().filter(|f| f.canonical != turn.text);
            TurnOut {
                ply: i + 1,
                number,
                second,
                side: sides[mover.index()],
                written: respelled.map(|_| turn.text.clone()),
                text: respelled.map_or(turn.text, |f| f.canonical.clone()),
                facts: f,
                site: site.next(),
                comments: turn.comments.into_iter().map(|c| c.text).collect(),
            }
        })
        .collect();
    let replay_error = trace.as_mut().and_then(|t| t.replay.error.take());
    let outcome = trace.as_mut().and_then(|t| t.replay.outcome.take());
    let error = parse_error.or(rules_error).or(replay_error);
    Converted {
        index,
        game: rules.map(|r| r.name()),
        sides,
        tags,
        comments,
        turns,
        result,
        outcome: if error.is_some() { None } else { outcome },
        error,
        trace,
    }
}
