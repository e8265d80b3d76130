//! The generic replay loop: drives any [`Game`] through a record, checks move
//! numbers, every move, the end of the game and the declared result.

use crate::convert::Converted;
use crate::game::{
    Counts, Ending, Game, MoveFacts, MovetextStyle, RuleError, Side, SiteFormat, Stat,
};
use crate::gen::GenOptions;
use crate::problem::Problem;
use crate::record::{Record, ResultToken, Span, Tag};
use serde::Serialize;
use std::marker::PhantomData;

/// The verdict on a valid game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub result: ResultToken,
    /// The winning side's tag name (`Red`, `White`, …); `None` for a draw or
    /// an unfinished game.
    pub winner: Option<&'static str>,
    /// `unfinished`, `resignation` (a declared win the rules did not reach),
    /// `agreement` (a declared draw), or the rules' own reason code.
    pub reason: &'static str,
    /// Plies played when the game ended (or when the record stops).
    pub ply: usize,
}

/// What replaying one record found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// Plies played legally.
    pub plies: usize,
    /// Set when the record is valid.
    pub outcome: Option<Outcome>,
    /// Set when it is not.
    pub error: Option<Problem>,
}

/// The result a win for `side` (or a draw) is written as.
pub fn result_token(winner: Option<Side>) -> ResultToken {
    match winner {
        Some(Side::First) => ResultToken::FirstWins,
        Some(Side::Second) => ResultToken::SecondWins,
        None => ResultToken::Draw,
    }
}

fn describe_ending<G: Game>(ending: &Ending, ply: usize) -> String {
    let how = G::describe_reason(ending.reason);
    match ending.winner {
        Some(side) => format!("{} won {how} at ply {ply}", G::SIDES[side.index()]),
        None if ending.decided => format!("drawn {how} at ply {ply}"),
        None => format!("play stopped {how} at ply {ply}"),
    }
}

/// Where the 0-based ply `i` stands in the move numbering: its move number,
/// whether it is the second mover's turn of that number (`N...`), and the
/// side that makes it. `first_mover` makes the `N.` turns; `starts_second`:
/// the start has the other side to move (`1...`).
pub fn turn_at(i: usize, first_mover: Side, starts_second: bool) -> (u64, bool, Side) {
    let k = i + usize::from(starts_second);
    let second = k % 2 == 1;
    let mover = if second {
        first_mover.other()
    } else {
        first_mover
    };
    ((k / 2 + 1) as u64, second, mover)
}

/// The span of a tag's value, or of the record's start when the tag is absent.
fn tag_span(record: &Record, name: &str) -> Span {
    record
        .tag(name)
        .map(|t| t.value_span)
        .unwrap_or(Span::new(record.span.start, record.span.start))
}

/// Replays `record` under `G`. `visit` sees the position before each ply
/// (1-based) is played; with `stop_before = Some(k)` the replay stops before
/// ply `k` and no end-of-record checks are made. Returns the report and the
/// position where the replay stopped (`None` if the start position failed).
pub fn run<G: Game>(
    record: &Record,
    stop_before: Option<usize>,
    visit: &mut dyn FnMut(usize, &G::Position),
) -> (Replay, Option<G::Position>) {
    run_observed::<G>(record, stop_before, visit, None)
}

/// What [`run_observed`] calls after each legal ply: the ply, the positions
/// before and after it, and the move.
pub type Played<'a, G> =
    &'a mut dyn FnMut(usize, &<G as Game>::Position, &<G as Game>::Move, &<G as Game>::Position);

/// [`run`], also calling `played` after each legal ply.
pub fn run_observed<G: Game>(
    record: &Record,
    stop_before: Option<usize>,
    visit: &mut dyn FnMut(usize, &G::Position),
    mut played: Option<Played<'_, G>>,
) -> (Replay, Option<G::Position>) {
    let mut report = Replay::default();
    let mut pos = match G::start(&record.tags) {
        Ok(p) => p,
        Err(e) => {
            let base = tag_span(record, e.tag);
            let span = match e.at {
                Some(at) => {
                    let start = (base.start + at).min(base.end);
                    Span::new(start, (start + 1).min(base.end).max(start))
                }
                None => base,
            };
            let token = record.tag_value(e.tag).map(str::to_owned);
            let mut p = Problem::new(
                "bad-setup",
                format!("the {} tag cannot be used: {}", e.tag, e.message),
                span,
            );
            p.token = token;
            report.error = Some(p);
            return (report, None);
        }
    };
    let first_mover = G::first_mover(&pos);
    let starts_second = G::side_to_move(&pos) != first_mover;
    let mut ended: Option<(Ending, usize)> = G::ending(&pos).map(|e| (e, 0));
    for (i, turn) in record.turns.iter().enumerate() {
        let ply = i + 1;
        if stop_before == Some(ply) {
            return (report, Some(pos));
        }
        let fail = |code: &'static str, message: String, span: Span| {
            Problem::new(code, message, span)
                .with_ply(ply)
                .with_token(turn.text.clone())
        };
        // The side to move and the move number follow from the ply.
        let (number, second, mover) = turn_at(i, first_mover, starts_second);
        let mover = G::SIDES[mover.index()];
        if let Some(n) = turn.number {
            if n.number != number || n.second != second {
                let written = format!("{}{}", n.number, if n.second { "..." } else { "." });
                let right = format!("{number}{}", if second { "..." } else { "." });
                let mut p = fail(
                    "wrong-move-number",
                    format!(
                        "move number `{written}` is wrong here: this is move {number}, \
                         {mover}'s turn (`{right}`)"
                    ),
                    n.span,
                );
                p.token = Some(written);
                report.error = Some(p);
                return (report, Some(pos));
            }
        }
        if let Some((ending, at)) = &ended {
            report.error = Some(fail(
                "move-after-end",
                format!(
                    "the game is already over ({}); no move may follow",
                    describe_ending::<G>(ending, *at)
                ),
                turn.span,
            ));
            return (report, Some(pos));
        }
        visit(ply, &pos);
        let mv = match G::parse_move(&pos, &turn.text) {
            Ok(mv) => mv,
            Err(e) => {
                let at = turn.span.start + e.at.min(turn.text.len());
                let mut p = fail("malformed-move", e.message, turn.span);
                if at > turn.span.start && at < turn.span.end {
                    p.span = Span::new(at, turn.span.end);
                }
                report.error = Some(p);
                return (report, Some(pos));
            }
        };
        let before = played.is_some().then(|| pos.clone());
        if let Err(e) = G::play(&mut pos, &mv) {
            report.error = Some(fail(e.code(), e.to_string(), turn.span));
            return (report, Some(pos));
        }
        if let (Some(played), Some(before)) = (played.as_mut(), before.as_ref()) {
            played(ply, before, &mv, &pos);
        }
        report.plies = ply;
        if let Some(e) = G::ending(&pos) {
            ended = Some((e, ply));
        }
    }
    if let Some(k) = stop_before {
        if k != record.turns.len() + 1 {
            let end = record.span.end;
            report.error = Some(Problem::new(
                "no-such-ply",
                format!(
                    "the game has {} plies; there is no position before ply {k}",
                    record.turns.len()
                ),
                Span::new(end, end),
            ));
        }
        return (report, Some(pos));
    }
    match check_result::<G>(record, ended, report.plies) {
        Ok(outcome) => report.outcome = Some(outcome),
        Err(p) => report.error = Some(p),
    }
    (report, Some(pos))
}

/// The declared result against what the replay found.
fn check_result<G: Game>(
    record: &Record,
    ended: Option<(Ending, usize)>,
    plies: usize,
) -> Result<Outcome, Problem> {
    let tag = match record.tag("Result") {
        Some(t) => match ResultToken::parse(t.value.trim()) {
            Some(r) => Some((r, t.value_span)),
            None => {
                return Err(Problem::new(
                    "bad-result",
                    "a Result is one of `1-0`, `0-1`, `1/2-1/2` or `*`",
                    t.value_span,
                )
                .with_token(t.value.clone()))
            }
        },
        None => None,
    };
    let token = record.result.map(|m| (m.result, m.span));
    if let (Some((t, _)), Some((m, span))) = (tag, token) {
        if t != m {
            return Err(Problem::new(
                "result-mismatch",
                format!(
                    "the result token `{}` disagrees with the Result tag `{}`",
                    m.as_str(),
                    t.as_str()
                ),
                span,
            )
            .with_token(m.as_str()));
        }
    }
    let declared = token.or(tag);
    let side_name = |s: Side| G::SIDES[s.index()];
    if let Some((ending, ply)) = ended.filter(|(e, _)| !e.decided) {
        // Play cannot go on, but the rules give no result: the declared one
        // stands.
        let result = declared.map_or(ResultToken::Unknown, |d| d.0);
        let winner = match result {
            ResultToken::FirstWins => Some(side_name(Side::First)),
            ResultToken::SecondWins => Some(side_name(Side::Second)),
            _ => None,
        };
        return Ok(Outcome {
            result,
            winner,
            reason: ending.reason,
            ply,
        });
    }
    if let Some((ending, ply)) = ended {
        let due = result_token(ending.winner);
        if let Some((d, span)) = declared {
            if d != due {
                return Err(Problem::new(
                    "wrong-result",
                    format!(
                        "the record declares `{}`, but {}; the result must be `{}`",
                        d.as_str(),
                        describe_ending::<G>(&ending, ply),
                        due.as_str()
                    ),
                    span,
                )
                .with_token(d.as_str()));
            }
        }
        return Ok(Outcome {
            result: due,
            winner: ending.winner.map(side_name),
            reason: ending.reason,
            ply,
        });
    }
    let (result, winner, reason) = match declared.map(|d| d.0) {
        None | Some(ResultToken::Unknown) => (ResultToken::Unknown, None, "unfinished"),
        Some(ResultToken::FirstWins) => (
            ResultToken::FirstWins,
            Some(side_name(Side::First)),
            "resignation",
        ),
        Some(ResultToken::SecondWins) => (
            ResultToken::SecondWins,
            Some(side_name(Side::Second)),
            "resignation",
        ),
        Some(ResultToken::Draw) => (ResultToken::Draw, None, "agreement"),
    };
    Ok(Outcome {
        result,
        winner,
        reason,
        ply: plies,
    })
}

/// One ply's figure for `moves --each`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlyCount {
    pub ply: usize,
    /// Legal turns before this ply.
    pub legal: usize,
    /// The turn as written in the record.
    pub played: String,
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

/// A replay with what every legal ply did (for `convert` and `stats`).
#[derive(Clone, Debug)]
pub struct Trace {
    pub replay: Replay,
    /// One per legal ply (a consumer may take them out).
    pub facts: Vec<MoveFacts>,
    /// One per legal ply, in the site notation, when asked (a consumer may
    /// take them out).
    pub site: Vec<String>,
    /// The game's statistics over the legal plies.
    pub counts: Counts,
    /// Legal moves summed over the positions before each legal ply.
    pub legal_total: u64,
    /// The side that makes the game's first turn (move numbers `N.`).
    pub first_mover: Side,
    /// The record starts with the other side to move (`1...`).
    pub starts_second: bool,
}

impl Trace {
    /// The mean number of legal moves per position played from.
    pub fn branching(&self) -> Option<f64> {
        let plies = self.replay.plies;
        (plies > 0).then(|| self.legal_total as f64 / plies as f64)
    }
}

/// A game as the generic machinery sees it: object-safe, one per game in the
/// registry.
pub trait Rules: Sync {
    fn name(&self) -> &'static str;
    fn aliases(&self) -> &'static [&'static str];
    fn sides(&self) -> [&'static str; 2];
    /// How this game's movetext is tokenised.
    fn style(&self) -> MovetextStyle;
    fn replay(&self, record: &Record) -> Replay;
    /// The legal turns (canonical, sorted) before ply `ply` (1-based), or
    /// after the last turn when `None`.
    fn legal_moves_at(&self, record: &Record, ply: Option<usize>) -> Result<Vec<String>, Problem>;
    /// The number of legal turns before every ply of the record.
    fn legal_move_counts(&self, record: &Record) -> Result<Vec<PlyCount>, Problem>;
    /// The position before ply `ply`, or after the last turn, in the game's
    /// `Position` notation.
    fn position_at(&self, record: &Record, ply: Option<usize>) -> Result<String, Problem>;
    /// Replays, recording what each legal ply did.
    fn trace(&self, record: &Record, opts: TraceOptions) -> Trace;
    /// The game-specific statistics, in column order.
    fn stats(&self) -> &'static [Stat];
    /// The site notation the game exports to.
    fn site(&self) -> Option<SiteFormat>;
    /// Whether the record starts where a game read back from the site
    /// would: the standard start, with no setting the site cannot express.
    fn site_can_carry(&self, record: &Record) -> bool;
    /// Game `index` (1-based) of `seed`: random legal turns (`gamerec gen`).
    fn generate(&self, seed: u64, index: u64, opts: &GenOptions) -> Converted;
    /// The side whose turns are numbered `N.`, and whether the record's
    /// start position has the other side to move (`1...`), from its tags
    /// alone (the first-named side and `false` when they set up no start).
    fn first_turn(&self, record: &Record) -> (Side, bool);
}

/// Plugs a [`Game`] into the registry.
pub struct Registered<G>(PhantomData<fn() -> G>);

impl<G> Registered<G> {
    pub const fn new() -> Self {
        Registered(PhantomData)
    }
}

impl<G> Default for Registered<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// The canonical spellings of every legal turn, sorted, each once.
pub fn canonical_moves<G: Game>(pos: &G::Position) -> Vec<String> {
    let mut moves = Vec::new();
    G::legal_moves(pos, &mut moves);
    let mut out: Vec<String> = moves
        .iter()
        .map(|m| {
            let mut s = String::new();
            G::write_move(m, &mut s);
            s
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

impl<G> Registered<G>
where
    G: Game,
{
    fn position_before(&self, record: &Record, ply: Option<usize>) -> Result<G::Position, Problem> {
        let (report, pos) = run::<G>(record, ply, &mut |_, _| {});
        match (report.error, pos) {
            // The record's result is not needed to know a position.
            (Some(p), _)
                if !matches!(p.code, "wrong-result" | "result-mismatch" | "bad-result") =>
            {
                Err(p)
            }
            (_, Some(pos)) => Ok(pos),
            (e, None) => Err(e.expect("a failed start reports why")),
        }
    }
}

impl<G: Game> Rules for Registered<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn aliases(&self) -> &'static [&'static str] {
        G::ALIASES
    }

    fn sides(&self) -> [&'static str; 2] {
        G::SIDES
    }

    fn style(&self) -> MovetextStyle {
        G::STYLE
    }

    fn replay(&self, record: &Record) -> Replay {
        run::<G>(record, None, &mut |_, _| {}).0
    }

    fn legal_moves_at(&self, record: &Record, ply: Option<usize>) -> Result<Vec<String>, Problem> {
        let pos = self.position_before(record, ply)?;
        if G::ending(&pos).is_some() {
            return Ok(Vec::new());
        }
        Ok(canonical_moves::<G>(&pos))
    }

    fn legal_move_counts(&self, record: &Record) -> Result<Vec<PlyCount>, Problem> {
        let mut counts = Vec::new();
        let (report, _) = run::<G>(record, None, &mut |ply, pos| {
            counts.push(PlyCount {
                ply,
                legal: canonical_moves::<G>(pos).len(),
                played: record.turns[ply - 1].text.clone(),
            })
        });
        match report.error {
            Some(p) if !matches!(p.code, "wrong-result" | "result-mismatch" | "bad-result") => {
                Err(p)
            }
            _ => Ok(counts),
        }
    }

    fn position_at(&self, record: &Record, ply: Option<usize>) -> Result<String, Problem> {
        self.position_before(record, ply)
            .map(|p| G::write_position(&p))
    }

    fn trace(&self, record: &Record, opts: TraceOptions) -> Trace {
        let mut facts = Vec::new();
        let mut site = Vec::new();
        let mut counts = Counts::new(G::STATS);
        let mut legal_total = 0u64;
        let mut moves = Vec::new();
        let mut played = |ply: usize, before: &G::Position, mv: &G::Move, after: &G::Position| {
            let f = G::describe(before, mv, after);
            if opts.branching {
                moves.clear();
                G::legal_moves(before, &mut moves);
                legal_total += moves.len() as u64;
            }
            if opts.site {
                site.push(G::site_move(before, mv, after, &f));
            }
            G::count(before, mv, after, &f, ply, &mut counts);
            facts.push(f);
        };
        let (replay, end) = run_observed::<G>(record, None, &mut |_, _| {}, Some(&mut played));
        if let Some(end) = &end {
            G::count_end(end, &mut counts);
        }
        let (first_mover, starts_second) = self.first_turn(record);
        Trace {
            replay,
            facts,
            site,
            counts,
            legal_total,
            first_mover,
            starts_second,
        }
    }

    fn stats(&self) -> &'static [Stat] {
        G::STATS
    }

    fn site(&self) -> Option<SiteFormat> {
        G::SITE
    }

    fn site_can_carry(&self, record: &Record) -> bool {
        let Some(site) = G::SITE else { return false };
        let tag = |name: &str, value: &str| Tag {
            name: name.into(),
            value: value.into(),
            span: Span::default(),
            value_span: Span::default(),
        };
        let site_tags: Vec<Tag> = site.tags.iter().map(|(n, v)| tag(n, v)).collect();
        let mut tags: Vec<Tag> = record
            .tags
            .iter()
            .filter(|t| !site.tags.iter().any(|(n, _)| *n == t.name))
            .cloned()
            .collect();
        tags.extend(site_tags.iter().cloned());
        match (G::start(&tags), G::start(&site_tags)) {
            (Ok(a), Ok(b)) => G::write_position(&a) == G::write_position(&b),
            _ => false,
        }
    }

    fn generate(&self, seed: u64, index: u64, opts: &GenOptions) -> Converted {
        crate::gen::game::<G>(seed, index, opts)
    }

    fn first_turn(&self, record: &Record) -> (Side, bool) {
        match G::start(&record.tags) {
            Ok(p) => {
                let first = G::first_mover(&p);
                (first, G::side_to_move(&p) != first)
            }
            Err(_) => (Side::First, false),
        }
    }
}

/// A record holding only a `Position` tag (for `moves --position`).
pub fn record_from_position(position: &str) -> Record {
    let span = Span::new(0, position.len());
    Record {
        tags: vec![Tag {
            name: "Position".into(),
            value: position.into(),
            span,
            value_span: span,
        }],
        span,
        ..Record::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_are_numbered_from_the_first_mover() {
        let f = Side::First;
        assert_eq!(turn_at(0, f, false), (1, false, Side::First));
        assert_eq!(turn_at(1, f, false), (1, true, Side::Second));
        assert_eq!(turn_at(2, f, false), (2, false, Side::First));
        // The other side to move at the start: `1...` first.
        assert_eq!(turn_at(0, f, true), (1, true, Side::Second));
        assert_eq!(turn_at(1, f, true), (2, false, Side::First));
        // Retsami's `FirstPlayer "White"`: White makes the `N.` turns.
        assert_eq!(turn_at(0, Side::Second, false), (1, false, Side::Second));
        assert_eq!(turn_at(3, Side::Second, false), (2, true, Side::First));
    }
}
