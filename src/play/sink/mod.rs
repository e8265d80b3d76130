//! Conversion: a game read from any format is replayed and told, part by
//! part, to a [`GameSink`] — its head (tags in canonical order, the
//! comments before its first turn), each turn with what the replay found,
//! its tail (result, verdict, totals) — so that a game is written as it is
//! replayed, never kept whole. Each output format is a sink; [`Collect`]
//! gathers a game into a [`Converted`] for those who want it whole.
//! [`tell`] is generic over a game's traits (the registry picks the game);
//! the writers know no game.

pub mod out;

use crate::base::problem::Problem;
use crate::envelope::record::{
    Assessment, ReadGame, Record, RecordSource, ResultToken, Tag, TurnIn,
};
use crate::play::replay::{first_turn, judged, play_turns, turn_at, Outcome, Replay, Visitor};
use gamerec_rules::game::{Facts, MoveFacts, Side, Statistics};
use std::borrow::Cow;

/// Tags written first, in this order (the two side tags follow `Round`).
pub(crate) const LEADING_TAGS: [&str; 5] = ["Game", "Event", "Site", "Date", "Round"];

/// One turn of a converted game.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnOut<'a> {
    /// 1-based.
    pub ply: usize,
    /// The move number (`N.` / `N...`).
    pub number: u64,
    /// Made by the second mover of its move number (`N...`).
    pub second: bool,
    /// The side tag of the player who made it (`Red`, `Host`, …).
    pub side: &'static str,
    /// The canonical spelling for a legal turn; as written otherwise
    /// (borrowed from the input where it can be).
    pub text: Cow<'a, str>,
    /// As written in the input, when that differs from `text`.
    pub written: Option<String>,
    /// What the turn did; `None` from the first illegal turn on.
    pub facts: Option<MoveFacts>,
    /// The turn in the game's site notation, when asked for.
    pub site: Option<String>,
    /// The assessment written at the end of the turn (no part of it).
    pub assessment: Option<Assessment>,
    /// Its numeric annotation glyphs, in order.
    pub nags: Vec<u8>,
    pub comments: Vec<String>,
}

impl TurnOut<'_> {
    /// The turn with its text its own (to keep past the input it was read
    /// from).
    pub fn into_owned(self) -> TurnOut<'static> {
        TurnOut {
            ply: self.ply,
            number: self.number,
            second: self.second,
            side: self.side,
            text: Cow::Owned(self.text.into_owned()),
            written: self.written,
            facts: self.facts,
            site: self.site,
            assessment: self.assessment,
            nags: self.nags,
            comments: self.comments,
        }
    }
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
    pub turns: Vec<TurnOut<'static>>,
    /// The result token that ends the movetext, as written.
    pub result: Option<ResultToken>,
    pub outcome: Option<Outcome>,
    pub error: Option<Problem>,
    /// For statistics: per side, how many turns an analysis marked a
    /// missed win and a blunder (the record's own `[%mark]` commands;
    /// `None` when the record was not analysed).
    pub marks: Option<[[u64; 2]; 2]>,
    /// For statistics: how often the lead changed hands in the win chances
    /// an analysis wrote (`[%win]`, the mover's chance after each turn):
    /// the first side's chance went from above one half to below, or back.
    /// `None` when the record holds no win chance.
    pub leads: Option<u32>,
    /// The trace, for statistics: its totals (facts, site turns, error and
    /// outcome have moved into this game's own fields).
    pub trace: Option<Trace>,
}

/// The tags in canonical order: `Game` (the rules' own name), `Event`,
/// `Site`, `Date`, `Round`, the two side tags, `Result`, then every other
/// tag in the order written. A repeated tag keeps its place among the rest.
pub(crate) fn canonical_tags<'t>(
    tags: &'t [Tag],
    game: Option<(&'static str, [&'static str; 2])>,
) -> Vec<(&'t str, &'t str)> {
    let sides = game.map_or(["", ""], |g| g.1);
    let order = LEADING_TAGS
        .iter()
        .chain(sides.iter().filter(|s| !s.is_empty()))
        .chain(std::iter::once(&"Result"));
    // Which tags have been placed, a bit each. Past the 64th, a tag was
    // placed when its name is in `order` and no tag before it has that name.
    let mut used = 0u64;
    let mut out = Vec::with_capacity(tags.len());
    for &name in order.clone() {
        if let Some(i) = tags.iter().position(|t| t.name == name) {
            if i < 64 {
                used |= 1 << i;
            }
            let t = &tags[i];
            let value = match (name, game) {
                ("Game", Some((game, _))) => game,
                _ => t.value.as_str(),
            };
            out.push((t.name.as_str(), value));
        }
    }
    for (i, t) in tags.iter().enumerate() {
        let placed = match i {
            0..64 => used & (1 << i) != 0,
            _ => order.clone().any(|&n| n == t.name) && !tags[..i].iter().any(|u| u.name == t.name),
        };
        if !placed {
            out.push((t.name.as_str(), t.value.as_str()));
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

/// A game's site notation, as [`tell`] calls it: `(before, move, after,
/// facts)` to the turn as the site writes it.
pub(crate) type SiteMove<G> = fn(
    &<G as gamerec_rules::game::Game>::Position,
    &<G as gamerec_rules::game::Game>::Move,
    &<G as gamerec_rules::game::Game>::Position,
    &MoveFacts,
) -> String;

/// A replay's totals (for `stats`).
#[derive(Clone, Debug)]
pub struct Trace {
    pub replay: Replay,
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
    /// The second turn (the reply to the first), the same way.
    pub reply: Option<String>,
}

/// The most legal turns counted in one game for its branching factor
/// (2^30): a real game stays far below it (a 19×19 Roshi game of 300 plies
/// at a hundred thousand turns a position is 3 × 10^7).
pub(crate) const BRANCHING_BUDGET: u64 = 1 << 30;

impl Trace {
    /// The mean number of legal moves per position played from; `None`
    /// when the game's counting stopped at [`BRANCHING_BUDGET`].
    pub fn branching(&self) -> Option<f64> {
        let plies = self.replay.plies;
        (plies > 0 && self.legal_total <= BRANCHING_BUDGET)
            .then(|| self.legal_total as f64 / plies as f64)
    }
}

/// A game's head: what is known before its first turn.
#[derive(Clone, Copy, Debug)]
pub struct Head<'a> {
    pub game: Option<&'static str>,
    pub sides: [&'static str; 2],
    /// In canonical order.
    pub tags: &'a [(&'a str, &'a str)],
    /// Comments before the first turn.
    pub comments: &'a [String],
}

impl Head<'_> {
    /// The tags, owned (for a sink that keeps them).
    pub(crate) fn owned_tags(&self) -> Vec<(String, String)> {
        (self.tags.iter())
            .map(|&(n, v)| (n.to_owned(), v.to_owned()))
            .collect()
    }
}

/// A game's tail: what is known after its last turn.
#[derive(Clone, Copy, Debug)]
pub struct Tail<'a> {
    /// The result token that ends the movetext, as written.
    pub result: Option<ResultToken>,
    /// Set when the game is valid.
    pub outcome: Option<&'a Outcome>,
    pub error: Option<&'a Problem>,
    /// The replay's totals (`None` when not replayed).
    pub trace: Option<&'a Trace>,
    /// How many turns were told.
    pub turns: usize,
}

impl Tail<'_> {
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }
}

/// Where a converted game goes, part by part, in order: its head, each of
/// its turns, its tail.
pub trait GameSink {
    fn head(&mut self, head: &Head<'_>);
    fn turn(&mut self, turn: TurnOut<'_>);
    fn tail(&mut self, tail: &Tail<'_>);
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

    /// Tells the game to `sink`.
    pub fn tell(&self, sink: &mut dyn GameSink) {
        let tags: Vec<(&str, &str)> = (self.tags.iter())
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        sink.head(&Head {
            game: self.game,
            sides: self.sides,
            tags: &tags,
            comments: &self.comments,
        });
        for t in &self.turns {
            sink.turn(t.clone());
        }
        sink.tail(&Tail {
            result: self.result,
            outcome: self.outcome.as_ref(),
            error: self.error.as_ref(),
            trace: self.trace.as_ref(),
            turns: self.turns.len(),
        });
    }
}

/// Gathers a game told into a [`Converted`]; `first_only`: keeps only its
/// first turn (what `stats` needs of the turns).
#[derive(Debug)]
pub struct Collect {
    game: Converted,
    first_only: bool,
}

impl Collect {
    pub fn new(index: usize) -> Collect {
        Collect {
            game: Converted {
                index,
                game: None,
                sides: ["", ""],
                tags: Vec::new(),
                comments: Vec::new(),
                turns: Vec::new(),
                result: None,
                outcome: None,
                error: None,
                marks: None,
                leads: None,
                trace: None,
            },
            first_only: false,
        }
    }

    /// Keeps only the first turn.
    pub fn first_only(mut self) -> Collect {
        self.first_only = true;
        self
    }

    pub fn into_game(self) -> Converted {
        self.game
    }
}

impl GameSink for Collect {
    fn head(&mut self, head: &Head<'_>) {
        self.game.game = head.game;
        self.game.sides = head.sides;
        self.game.tags = head.owned_tags();
        self.game.comments = head.comments.to_vec();
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        match self.first_only {
            false => self.game.turns.push(turn.into_owned()),
            // Only a legal first turn is needed (the opening).
            true if self.game.turns.is_empty() && turn.facts.is_some() => {
                self.game.turns.push(turn.into_owned())
            }
            true => {}
        }
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        self.game.result = tail.result;
        self.game.outcome = tail.outcome.cloned();
        self.game.error = tail.error.cloned();
        self.game.trace = tail.trace.cloned();
    }
}

/// The visitor behind [`tell`]: each legal ply, described, to the sink.
struct Tracer<'s, G: Facts> {
    opts: TraceOptions,
    site_move: Option<SiteMove<G>>,
    sink: &'s mut dyn GameSink,
    first_mover: Side,
    starts_second: bool,
    /// The position before the ply being played.
    before: Option<G::Position>,
    stats: G::Stats,
    legal_total: u64,
    opening: Option<String>,
    reply: Option<String>,
}

impl<G: Facts> Visitor<G> for Tracer<'_, G> {
    fn before_ply(&mut self, _: usize, pos: &G::Position) -> std::ops::ControlFlow<()> {
        match &mut self.before {
            Some(before) => before.clone_from(pos),
            None => self.before = Some(pos.clone()),
        }
        std::ops::ControlFlow::Continue(())
    }

    fn after_ply(&mut self, ply: usize, turn: &TurnIn<'_>, mv: &G::Move, after: &G::Position) {
        let before = self.before.as_ref().expect("before_ply came first");
        let f = G::describe(before, mv, after);
        // Past the budget a game's turns are no longer counted (its
        // branching is unknown): a game built so that every position has a
        // million turns costs seconds, not minutes.
        if self.opts.branching && self.legal_total <= BRANCHING_BUDGET {
            self.legal_total += G::count_legal_moves(before) as u64;
        }
        let site = match (self.opts.site, self.site_move) {
            (true, Some(site_move)) => Some(site_move(before, mv, after, &f)),
            _ => None,
        };
        G::count(&mut self.stats, before, mv, after, ply);
        match ply {
            1 => self.opening = Some(G::standard(before, mv, after)),
            2 => self.reply = Some(G::standard(before, mv, after)),
            _ => {}
        }
        let (number, second, mover) = turn_at(ply - 1, self.first_mover, self.starts_second);
        let respelled = f.canonical != turn.text;
        self.sink.turn(TurnOut {
            ply,
            number,
            second,
            side: G::SIDES[mover.index()],
            written: respelled.then(|| turn.text.to_string()),
            text: if respelled {
                Cow::Owned(f.canonical.clone())
            } else {
                Cow::Borrowed(turn.text.as_ref())
            },
            facts: Some(f),
            site,
            assessment: turn.assessment,
            nags: turn.nags.to_vec(),
            comments: turn.comments.iter().map(|c| c.text.clone()).collect(),
        });
    }

    fn end(&mut self, pos: &G::Position) {
        G::count_end(&mut self.stats, pos);
    }
}

/// A turn not replayed (after the game's error, or when nothing is
/// replayed), as written.
fn as_written<'a>(
    i: usize,
    turn: &'a TurnIn<'_>,
    sides: [&'static str; 2],
    first: (Side, bool),
) -> TurnOut<'a> {
    let (number, second, mover) = turn_at(i, first.0, first.1);
    TurnOut {
        ply: i + 1,
        number,
        second,
        side: sides[mover.index()],
        text: Cow::Borrowed(turn.text.as_ref()),
        written: None,
        facts: None,
        site: None,
        assessment: turn.assessment,
        nags: turn.nags.to_vec(),
        comments: turn.comments.iter().map(|c| c.text.clone()).collect(),
    }
}

/// Replays `game` under `G` and tells it to `sink` as it goes: its head,
/// each turn (legal ones described, in canonical spelling; from the first
/// illegal one on as written), its tail. An envelope problem (in how the
/// game was read) comes before what the replay finds.
pub fn tell<'a, G: Facts>(
    game: &mut dyn ReadGame<'a>,
    opts: TraceOptions,
    site_move: Option<SiteMove<G>>,
    sink: &mut dyn GameSink,
) {
    let comments: Vec<String> = game.leading().into_iter().map(|c| c.text).collect();
    let tags = game.tags();
    sink.head(&Head {
        game: Some(G::NAME),
        sides: G::SIDES,
        tags: &canonical_tags(tags, Some((G::NAME, G::SIDES))),
        comments: &comments,
    });
    let (first_mover, starts_second) = first_turn::<G>(tags);
    let mut told = 0;
    let mut played = None;
    let mut totals = None;
    if !opts.syntax_only {
        let mut tracer = Tracer::<G> {
            opts,
            site_move,
            sink: &mut *sink,
            first_mover,
            starts_second,
            before: None,
            stats: G::Stats::default(),
            legal_total: 0,
            opening: None,
            reply: None,
        };
        let start = game.start();
        let (tags, turns) = game.parts();
        let p = play_turns::<G, _>(tags, start, turns, &mut tracer);
        told = p.plies;
        let stats = G::Stats::COLUMNS
            .iter()
            .map(|c| c.name)
            .zip(tracer.stats.values())
            .collect();
        totals = Some((stats, tracer.legal_total, [tracer.opening, tracer.reply]));
        played = Some(p);
    }
    while let Some(turn) = game.next_turn() {
        sink.turn(as_written(
            told,
            turn,
            G::SIDES,
            (first_mover, starts_second),
        ));
        told += 1;
    }
    let end = game.finish();
    let trace = played
        .zip(totals)
        .map(|(p, (stats, legal_total, [opening, reply]))| Trace {
            replay: judged::<G>(game.tags(), end.result, &p),
            stats,
            legal_total,
            first_mover,
            starts_second,
            opening,
            reply,
        });
    let replay_error = trace.as_ref().and_then(|t| t.replay.error.as_ref());
    let error = end.error.as_ref().or(replay_error);
    let outcome = trace.as_ref().and_then(|t| t.replay.outcome.as_ref());
    sink.tail(&Tail {
        result: end.result.map(|r| r.result),
        outcome: if error.is_some() { None } else { outcome },
        error,
        trace: trace.as_ref(),
        turns: told,
    });
}

/// Tells a game whose rules are not known (`problem` says why): its head,
/// its turns as written, its tail with the problem.
pub(crate) fn tell_without_rules<'a>(
    game: &mut dyn ReadGame<'a>,
    problem: Problem,
    sink: &mut dyn GameSink,
) {
    let comments: Vec<String> = game.leading().into_iter().map(|c| c.text).collect();
    sink.head(&Head {
        game: None,
        sides: ["", ""],
        tags: &canonical_tags(game.tags(), None),
        comments: &comments,
    });
    let mut told = 0;
    while let Some(turn) = game.next_turn() {
        sink.turn(as_written(told, turn, ["", ""], (Side::First, false)));
        told += 1;
    }
    let end = game.finish();
    sink.tail(&Tail {
        result: end.result.map(|r| r.result),
        outcome: None,
        error: Some(end.error.as_ref().unwrap_or(&problem)),
        trace: None,
        turns: told,
    });
}

/// Replays `record` under `G` and gathers its converted form.
/// `parse_error` is the envelope's own problem, which takes precedence over
/// what the replay finds.
pub fn convert<G: Facts>(
    index: usize,
    record: Record,
    parse_error: Option<Problem>,
    opts: TraceOptions,
    site_move: Option<SiteMove<G>>,
) -> Converted {
    let mut collect = Collect::new(index);
    tell::<G>(
        &mut RecordSource::new(&record, parse_error),
        opts,
        site_move,
        &mut collect,
    );
    collect.into_game()
}

/// The converted form of a record whose rules are not known (`problem`
/// says why): its envelope only, turns as written.
pub(crate) fn without_rules(
    index: usize,
    record: Record,
    parse_error: Option<Problem>,
    problem: Problem,
) -> Converted {
    let mut collect = Collect::new(index);
    tell_without_rules(
        &mut RecordSource::new(&record, parse_error),
        problem,
        &mut collect,
    );
    collect.into_game()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::record::Span;

    fn tag(name: &str, value: &str) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
            span: Span::new(0, 0),
            value_span: Span::new(0, 0),
        }
    }

    /// The order the doc comment describes, found the slow way: the first
    /// tag of each leading name in turn, then every tag not taken, in the
    /// order written.
    fn by_definition(
        tags: &[Tag],
        game: Option<(&'static str, [&'static str; 2])>,
    ) -> Vec<(String, String)> {
        let sides = game.map_or(["", ""], |g| g.1);
        let mut order: Vec<&str> = LEADING_TAGS.to_vec();
        order.extend(sides.iter().filter(|s| !s.is_empty()));
        order.push("Result");
        let mut taken = vec![false; tags.len()];
        let mut out = Vec::new();
        for name in order {
            if let Some(i) = tags.iter().position(|t| t.name == name) {
                taken[i] = true;
                let value = match (name, game) {
                    ("Game", Some((g, _))) => g.to_string(),
                    _ => tags[i].value.to_string(),
                };
                out.push((name.to_string(), value));
            }
        }
        for (t, taken) in tags.iter().zip(taken) {
            if !taken {
                out.push((t.name.to_string(), t.value.to_string()));
            }
        }
        out
    }

    fn owned(tags: Vec<(&str, &str)>) -> Vec<(String, String)> {
        tags.into_iter()
            .map(|(n, v)| (n.into(), v.into()))
            .collect()
    }

    #[test]
    fn canonical_tags_put_the_leading_tags_first_and_keep_the_rest_in_order() {
        let tags = [
            tag("Extra", "1"),
            tag("Result", "1-0"),
            tag("Red", "Ana"),
            tag("Game", "OSHI"),
            tag("Event", "Cup"),
            tag("Event", "again"),
            tag("White", "Ben"),
        ];
        let game = Some(("oshi", ["Red", "White"]));
        let got = owned(canonical_tags(&tags, game));
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["Game", "Event", "Red", "White", "Result", "Extra", "Event"]
        );
        assert_eq!(got[0].1, "oshi", "the rules' own name");
        assert_eq!(got[6].1, "again", "a repeated tag keeps its place");
        assert_eq!(got, by_definition(&tags, game));
    }

    /// Past 64 tags the placed ones are not tracked by bits: a leading tag
    /// written late, repeated, is placed once and its repeat kept in order.
    #[test]
    fn canonical_tags_of_a_record_with_more_than_64_tags() {
        let mut tags: Vec<Tag> = (0..70)
            .map(|i| tag(&format!("T{i}"), &i.to_string()))
            .collect();
        tags.insert(3, tag("Round", "early"));
        tags.insert(66, tag("Event", "late"));
        tags.insert(68, tag("Event", "later"));
        tags.push(tag("Game", "iqishiqi"));
        tags.push(tag("Round", "last"));
        for game in [None, Some(("iqishiqi", ["North", "South"]))] {
            let got = owned(canonical_tags(&tags, game));
            assert_eq!(got.len(), tags.len());
            assert_eq!(got, by_definition(&tags, game));
            assert_eq!(got[1], ("Event".into(), "late".into()));
            assert!(got.contains(&("Event".into(), "later".into())));
        }
    }
}
