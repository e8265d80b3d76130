//! Conversion: a game read from any format becomes a [`Converted`] game (its
//! tags in canonical order, every turn with what the replay found), which
//! each output format writes. [`convert`] and [`trace`] are generic over a
//! game's traits; the registry picks the game. The writers know no game.

pub mod csv;
pub mod json;
pub mod site;
pub mod text;

use crate::game::{Facts, MoveFacts, Side, Statistics};
use crate::problem::Problem;
use crate::record::{Record, ResultToken};
use crate::replay::{first_turn, replay_with, turn_at, Outcome, Replay, Visitor};

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
pub fn canonical_tags(
    record: &Record,
    game: Option<(&'static str, [&'static str; 2])>,
) -> Vec<(String, String)> {
    let sides = game.map_or(["", ""], |g| g.1);
    let mut order: Vec<&str> = LEADING_TAGS.to_vec();
    order.extend(sides.iter().filter(|s| !s.is_empty()));
    order.push("Result");
    let mut used = vec![false; record.tags.len()];
    let mut out = Vec::with_capacity(record.tags.len());
    for name in order {
        if let Some(i) = record.tags.iter().position(|t| t.name == name) {
            used[i] = true;
            let t = &record.tags[i];
            let value = match (name, game) {
                ("Game", Some((game, _))) => game.to_string(),
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

/// What tracing a record asks for besides each ply's facts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceOptions {
    /// Do not replay at all: the envelope only, turns as written
    /// (`convert --syntax-only`).
    pub syntax_only: bool,
    /// Count the legal moves before every ply (the branching factor).
    pub branching: bool,
    /// Write every ply in the game's site notation.
    pub site: bool,
}

/// A game's site notation, as [`trace`] calls it: `(before, move, after,
/// facts)` to the turn as the site writes it.
pub type SiteMove<G> = fn(
    &<G as crate::game::Game>::Position,
    &<G as crate::game::Game>::Move,
    &<G as crate::game::Game>::Position,
    &MoveFacts,
) -> String;

/// A replay with what every legal ply did (for `convert` and `stats`).
#[derive(Clone, Debug)]
pub struct Trace {
    pub replay: Replay,
    /// One per legal ply (a consumer may take them out).
    pub facts: Vec<MoveFacts>,
    /// One per legal ply, in the site notation, when asked (a consumer may
    /// take them out).
    pub site: Vec<String>,
    /// The game's statistics over the legal plies: (column, value).
    pub stats: Vec<(&'static str, Option<u64>)>,
    /// Legal moves summed over the positions before each legal ply.
    pub legal_total: u64,
    /// The side that makes the game's first turn (move numbers `N.`).
    pub first_mover: Side,
    /// The record starts with the other side to move (`1...`).
    pub starts_second: bool,
    /// The first turn, legal, in the game's standard notation (the same
    /// whatever labels the record uses), for counting openings.
    pub opening: Option<String>,
}

impl Trace {
    /// The mean number of legal moves per position played from.
    pub fn branching(&self) -> Option<f64> {
        let plies = self.replay.plies;
        (plies > 0).then(|| self.legal_total as f64 / plies as f64)
    }
}

/// The visitor behind [`trace`].
struct Tracer<G: Facts> {
    opts: TraceOptions,
    site_move: Option<SiteMove<G>>,
    /// The position before the ply being played.
    before: Option<G::Position>,
    facts: Vec<MoveFacts>,
    site: Vec<String>,
    stats: G::Stats,
    legal_total: u64,
    moves: Vec<G::Move>,
    opening: Option<String>,
}

impl<G: Facts> Visitor<G> for Tracer<G> {
    fn before_ply(&mut self, _: usize, pos: &G::Position) -> std::ops::ControlFlow<()> {
        match &mut self.before {
            Some(before) => before.clone_from(pos),
            None => self.before = Some(pos.clone()),
        }
        std::ops::ControlFlow::Continue(())
    }

    fn after_ply(&mut self, ply: usize, mv: &G::Move, after: &G::Position) {
        let before = self.before.as_ref().expect("before_ply came first");
        let f = G::describe(before, mv, after);
        if self.opts.branching {
            self.moves.clear();
            G::legal_moves(before, &mut self.moves);
            self.legal_total += self.moves.len() as u64;
        }
        if let (true, Some(site_move)) = (self.opts.site, self.site_move) {
            self.site.push(site_move(before, mv, after, &f));
        }
        G::count(&mut self.stats, before, mv, after, ply);
        if ply == 1 {
            self.opening = Some(G::standard(before, mv, after));
        }
        self.facts.push(f);
    }

    fn end(&mut self, pos: &G::Position) {
        G::count_end(&mut self.stats, pos);
    }
}

/// Replays `record` under `G`, recording what each legal ply did, the
/// game's statistics and (with `site_move`) each ply in a site's notation.
pub fn trace<G: Facts>(
    record: &Record,
    opts: TraceOptions,
    site_move: Option<SiteMove<G>>,
) -> Trace {
    let mut tracer = Tracer::<G> {
        opts,
        site_move,
        before: None,
        facts: Vec::new(),
        site: Vec::new(),
        stats: G::Stats::default(),
        legal_total: 0,
        moves: Vec::new(),
        opening: None,
    };
    let (replay, _) = replay_with::<G, _>(record, &mut tracer);
    let (first_mover, starts_second) = first_turn::<G>(record);
    let stats = G::Stats::COLUMNS
        .iter()
        .map(|c| c.name)
        .zip(tracer.stats.values())
        .collect();
    Trace {
        replay,
        facts: tracer.facts,
        site: tracer.site,
        stats,
        legal_total: tracer.legal_total,
        first_mover,
        starts_second,
        opening: tracer.opening,
    }
}

/// Replays `record` under `G` and builds its converted form (taking the
/// record's strings). `parse_error` is the envelope's own problem, which
/// takes precedence over what the replay finds.
pub fn convert<G: Facts>(
    index: usize,
    record: Record,
    parse_error: Option<Problem>,
    opts: TraceOptions,
    site_move: Option<SiteMove<G>>,
) -> Converted {
    let trace = (!opts.syntax_only).then(|| trace::<G>(&record, opts, site_move));
    let turn = trace.as_ref().map_or_else(
        || first_turn::<G>(&record),
        |t| (t.first_mover, t.starts_second),
    );
    assemble(
        index,
        record,
        parse_error,
        Some((G::NAME, G::SIDES)),
        turn,
        trace,
    )
}

/// The converted form of a record whose rules are not known (`problem`
/// says why): its envelope only, turns as written.
pub fn without_rules(index: usize, record: Record, problem: Problem) -> Converted {
    assemble(
        index,
        record,
        Some(problem),
        None,
        (Side::First, false),
        None,
    )
}

/// Builds the converted form from the record and its trace.
fn assemble(
    index: usize,
    record: Record,
    error: Option<Problem>,
    game: Option<(&'static str, [&'static str; 2])>,
    (first_mover, starts_second): (Side, bool),
    mut trace: Option<Trace>,
) -> Converted {
    let sides = game.map_or(["", ""], |g| g.1);
    // The turns own what each ply did; the trace keeps its totals.
    let (facts, site) = trace.as_mut().map_or((Vec::new(), Vec::new()), |t| {
        (std::mem::take(&mut t.facts), std::mem::take(&mut t.site))
    });
    let mut facts = facts.into_iter();
    let mut site = site.into_iter();
    let tags = canonical_tags(&record, game);
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
    let error = error.or(replay_error);
    Converted {
        index,
        game: game.map(|g| g.0),
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
