//! The generic replay: drives any game through a record — move numbers,
//! every move, the end of the game — telling a [`Visitor`] what happens
//! (the way pgn-reader's `Visitor` keeps reading apart from what the caller
//! does). Judging the declared result is a separate step after the moves
//! ([`judge`]). Depends only on the game seam, the record and problems.

use crate::base::problem::{Code, Problem};
use crate::envelope::record::{
    End, ReadGame, Record, RecordSource, ResultMark, ResultToken, Span, Tag, TurnIn, TurnSource,
};
use gamerec_rules::game::{Ending, Notation, RuleError, Rules, Side};
use serde::Serialize;
use std::ops::ControlFlow;

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

/// What a replay tells its caller as it goes. Every method has a default
/// that does nothing, so a visitor implements only what it needs.
pub trait Visitor<G: Rules> {
    /// Before ply `ply` (1-based) is read, with the position it would be
    /// played from. `Break` stops the replay there (no later checks).
    fn before_ply(&mut self, _ply: usize, _pos: &G::Position) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// After ply `ply` was played legally: the turn as written, the move
    /// and the position after it.
    fn after_ply(&mut self, _ply: usize, _turn: &TurnIn<'_>, _mv: &G::Move, _after: &G::Position) {}

    /// Where the replay stopped (the end of the record, an error, or a
    /// `Break`), when the record's start could be set up.
    fn end(&mut self, _pos: &G::Position) {}
}

/// Sees nothing: a plain replay.
impl<G: Rules> Visitor<G> for () {}

/// What [`play`] found, before the declared result is judged.
#[derive(Clone, Debug)]
pub struct Played<P> {
    /// Plies played legally.
    pub plies: usize,
    /// How the rules ended the game, and after which ply.
    pub ended: Option<(Ending, usize)>,
    /// Why the moves cannot be replayed (a bad start, a wrong move number,
    /// an illegal move…).
    pub error: Option<Problem>,
    /// The ply the visitor stopped before, if it did.
    pub stopped: Option<usize>,
    /// The position reached; `None` when the start could not be set up.
    pub position: Option<P>,
}

/// The result a win for `side` (or a draw) is written as.
pub(crate) fn result_token(winner: Option<Side>) -> ResultToken {
    match winner {
        Some(Side::First) => ResultToken::FirstWins,
        Some(Side::Second) => ResultToken::SecondWins,
        None => ResultToken::Draw,
    }
}

pub(crate) fn describe_ending<G: Notation>(ending: &Ending, ply: usize) -> String {
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
pub(crate) fn turn_at(i: usize, first_mover: Side, starts_second: bool) -> (u64, bool, Side) {
    let k = i + usize::from(starts_second);
    let second = k % 2 == 1;
    let mover = if second {
        first_mover.other()
    } else {
        first_mover
    };
    ((k / 2 + 1) as u64, second, mover)
}

/// The side whose turns are numbered `N.`, and whether the record's start
/// has the other side to move (`1...`), from its tags alone (the
/// first-named side and `false` when they set up no start).
pub fn first_turn<G: Rules>(tags: &[Tag]) -> (Side, bool) {
    match G::start(tags) {
        Ok(p) => {
            let first = G::first_mover(&p);
            (first, G::side_to_move(&p) != first)
        }
        Err(_) => (Side::First, false),
    }
}

/// The span of a tag's value, or of the record's start when the tag is absent.
fn tag_span(tags: &[Tag], start: usize, name: &str) -> Span {
    tags.iter()
        .find(|t| t.name == name)
        .map(|t| t.value_span)
        .unwrap_or(Span::new(start, start))
}

/// The problem of a start the tags cannot set up.
fn bad_setup(tags: &[Tag], start: usize, e: gamerec_rules::game::SetupError) -> Problem {
    let base = tag_span(tags, start, e.tag);
    let span = match e.at {
        Some(at) => {
            let start = (base.start + at).min(base.end);
            Span::new(start, (start + 1).min(base.end).max(start))
        }
        None => base,
    };
    let token = gamerec_rules::game::tag_value(tags, e.tag).map(crate::base::problem::capped);
    let mut p = Problem::new(
        Code::BadSetup,
        format!("the {} tag cannot be used: {}", e.tag, e.message),
        span,
    );
    p.token = token;
    p
}

/// Replays the moves of `record` under `G`, telling `visitor`: the move
/// numbers, every move against the rules, and no move after the end. The
/// declared result is not looked at ([`judge`] does that).
pub fn play<G, V>(record: &Record, visitor: &mut V) -> Played<G::Position>
where
    G: Rules + Notation,
    V: Visitor<G>,
{
    play_turns::<G, V>(
        &record.tags,
        record.span.start,
        &mut RecordSource::new(record, None),
        visitor,
    )
}

/// [`play`] over turns read from `turns` (the game's `tags`; `start`: where
/// it begins, for locating a missing tag). The turn the replay stops at is
/// put back, for whoever reads on.
pub(crate) fn play_turns<'a, G, V>(
    tags: &[Tag],
    start: usize,
    turns: &mut dyn TurnSource<'a>,
    visitor: &mut V,
) -> Played<G::Position>
where
    G: Rules + Notation,
    V: Visitor<G>,
{
    let mut played = Played {
        plies: 0,
        ended: None,
        error: None,
        stopped: None,
        position: None,
    };
    let mut pos = match G::start(tags) {
        Ok(p) => p,
        Err(e) => {
            played.error = Some(bad_setup(tags, start, e));
            return played;
        }
    };
    played.error = moves::<G, V>(turns, &mut pos, visitor, &mut played);
    visitor.end(&pos);
    played.position = Some(pos);
    played
}

/// The loop of [`play`]: returns the problem that stopped it, if any.
fn moves<'a, G, V>(
    turns: &mut dyn TurnSource<'a>,
    pos: &mut G::Position,
    visitor: &mut V,
    played: &mut Played<G::Position>,
) -> Option<Problem>
where
    G: Rules + Notation,
    V: Visitor<G>,
{
    let first_mover = G::first_mover(pos);
    let starts_second = G::side_to_move(pos) != first_mover;
    played.ended = G::ending(pos).map(|e| (e, 0));
    let mut i = 0;
    while let Some(turn) = turns.next_turn() {
        let ply = i + 1;
        if visitor.before_ply(ply, pos).is_break() {
            played.stopped = Some(ply);
            turns.unread();
            return None;
        }
        let problem =
            ply_problem::<G, V>(i, turn, first_mover, starts_second, pos, visitor, played);
        if problem.is_some() {
            turns.unread();
            return problem;
        }
        i += 1;
    }
    None
}

/// Checks and plays one ply (0-based `i`); the problem with it, if any.
fn ply_problem<G, V>(
    i: usize,
    turn: &TurnIn<'_>,
    first_mover: Side,
    starts_second: bool,
    pos: &mut G::Position,
    visitor: &mut V,
    played: &mut Played<G::Position>,
) -> Option<Problem>
where
    G: Rules + Notation,
    V: Visitor<G>,
{
    let ply = i + 1;
    let fail = |code: Code, message: String, span: Span| {
        Problem::new(code, message, span)
            .with_ply(ply)
            .with_token(turn.text.as_ref())
    };
    // The side to move and the move number follow from the ply.
    let (number, second, mover) = turn_at(i, first_mover, starts_second);
    let mover = G::SIDES[mover.index()];
    if let Some(n) = turn.number.filter(|n| n.too_large) {
        let right = format!("{number}{}", if second { "..." } else { "." });
        return Some(fail(
            Code::WrongMoveNumber,
            format!("move number too large: this is move {number}, {mover}'s turn (`{right}`)"),
            n.span,
        ));
    }
    if let Some(n) = turn.number {
        if n.number != number || n.second != second {
            let written = format!("{}{}", n.number, if n.second { "..." } else { "." });
            let right = format!("{number}{}", if second { "..." } else { "." });
            let mut p = fail(
                Code::WrongMoveNumber,
                format!(
                    "move number `{written}` is wrong here: this is move {number}, \
                     {mover}'s turn (`{right}`)"
                ),
                n.span,
            );
            p.token = Some(written.into_boxed_str());
            return Some(p);
        }
    }
    if let Some((ending, at)) = &played.ended {
        return Some(fail(
            Code::MoveAfterEnd,
            format!(
                "the game is already over ({}); no move may follow",
                describe_ending::<G>(ending, *at)
            ),
            turn.span,
        ));
    }
    let mv = match G::parse_move(pos, &turn.text) {
        Ok(mv) => mv,
        Err(e) => {
            let at = turn.span.start + e.at.min(turn.text.len());
            let mut p = fail(Code::MalformedMove, e.message, turn.span);
            if at > turn.span.start && at < turn.span.end {
                p.span = Span::new(at, turn.span.end);
            }
            return Some(p);
        }
    };
    let ended = match G::play_ending(pos, &mv) {
        Ok(ended) => ended,
        Err(e) => return Some(fail(Code::Rule(e.code()), e.to_string(), turn.span)),
    };
    visitor.after_ply(ply, turn, &mv, pos);
    played.plies = ply;
    if let Some(e) = ended {
        played.ended = Some((e, ply));
    }
    None
}

/// Replays `record` and judges its declared result: the report `validate`
/// gives.
pub fn replay<G: Rules + Notation>(record: &Record) -> Replay {
    replay_with::<G, ()>(record, &mut ()).0
}

/// [`replay`], telling `visitor`; also returns the position reached.
pub(crate) fn replay_with<G, V>(record: &Record, visitor: &mut V) -> (Replay, Option<G::Position>)
where
    G: Rules + Notation,
    V: Visitor<G>,
{
    let played = play::<G, V>(record, visitor);
    (
        judged::<G>(&record.tags, record.result, &played),
        played.position,
    )
}

/// The report of what [`play`] found, its declared result judged.
pub fn judged<G: Notation>(
    tags: &[Tag],
    result: Option<ResultMark>,
    played: &Played<G::Position>,
) -> Replay {
    let mut report = Replay {
        plies: played.plies,
        ..Replay::default()
    };
    match &played.error {
        Some(p) => report.error = Some(p.clone()),
        None => match judge::<G>(tags, result, played.ended, played.plies) {
            Ok(outcome) => report.outcome = Some(outcome),
            Err(p) => report.error = Some(p),
        },
    }
    report
}

/// Replays a game as it is read (nothing of its movetext kept) and judges
/// its declared result; returns the report, the position reached and how
/// the reading ended (an envelope problem there comes before the report's).
pub(crate) fn replay_game<'a, G, V>(
    game: &mut dyn ReadGame<'a>,
    visitor: &mut V,
) -> (Replay, Option<G::Position>, End)
where
    G: Rules + Notation,
    V: Visitor<G>,
{
    let start = game.start();
    let (tags, turns) = game.parts();
    let played = play_turns::<G, V>(tags, start, turns, visitor);
    let end = game.finish();
    let report = judged::<G>(game.tags(), end.result, &played);
    (report, played.position, end)
}

/// The declared result (result token and `Result` tag) against what the
/// replay found: how the rules ended the game, if they did, after `plies`
/// legal plies.
pub fn judge<G: Notation>(
    tags: &[Tag],
    result: Option<ResultMark>,
    ended: Option<(Ending, usize)>,
    plies: usize,
) -> Result<Outcome, Problem> {
    let declared = declared(tags, result)?;
    let termination = termination(tags, declared)?;
    if let (Some((ending, ply)), Some(t)) = (ended, termination) {
        return Err(Problem::new(
            Code::MoveAfterEnd,
            format!(
                "the game ends by `{}`, but {}",
                t.value,
                describe_ending::<G>(&ending, ply)
            ),
            t.value_span,
        )
        .with_token(t.value.clone()));
    }
    match ended {
        Some((ending, ply)) => ended_by_rules::<G>(&ending, ply, declared),
        None => Ok(ended_off_the_board::<G>(
            termination.map(|t| t.value.as_str()),
            declared,
            plies,
        )),
    }
}

/// The result a record declares: its result token, else its Result tag
/// (which must be a result, and agree with the token); where it stands.
fn declared(
    tags: &[Tag],
    result: Option<ResultMark>,
) -> Result<Option<(ResultToken, Span)>, Problem> {
    let tag = match tags.iter().find(|t| t.name == "Result") {
        Some(t) => match ResultToken::parse(t.value.trim()) {
            Some(r) => Some((r, t.value_span)),
            None => {
                return Err(Problem::new(
                    Code::BadResult,
                    "a Result is one of `1-0`, `0-1`, `1/2-1/2` or `*`",
                    t.value_span,
                )
                .with_token(t.value.clone()))
            }
        },
        None => None,
    };
    let token = result.map(|m| (m.result, m.span));
    if let (Some((t, _)), Some((m, span))) = (tag, token) {
        if t != m {
            return Err(Problem::new(
                Code::ResultMismatch,
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
    Ok(token.or(tag))
}

/// The outcome of a game the rules ended at `ply`: the rules' result (the
/// declared one must agree), or, where play cannot go on but the rules
/// give no result, the declared one.
fn ended_by_rules<G: Notation>(
    ending: &Ending,
    ply: usize,
    declared: Option<(ResultToken, Span)>,
) -> Result<Outcome, Problem> {
    let side_name = |s: Side| G::SIDES[s.index()];
    if !ending.decided {
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
    let due = result_token(ending.winner);
    if let Some((d, span)) = declared.filter(|(d, _)| *d != due) {
        return Err(Problem::new(
            Code::WrongResult,
            format!(
                "the record declares `{}`, but {}; the result must be `{}`",
                d.as_str(),
                describe_ending::<G>(ending, ply),
                due.as_str()
            ),
            span,
        )
        .with_token(d.as_str()));
    }
    Ok(Outcome {
        result: due,
        winner: ending.winner.map(side_name),
        reason: ending.reason,
        ply,
    })
}

/// The outcome of a game the rules did not end: the declared result, for
/// the reason the record's termination gives (resignation by default for
/// a win, agreement for a draw; unfinished without a result).
fn ended_off_the_board<G: Notation>(
    termination: Option<&str>,
    declared: Option<(ResultToken, Span)>,
    plies: usize,
) -> Outcome {
    let side_name = |s: Side| G::SIDES[s.index()];
    let reason = |default: &'static str| match termination {
        Some("resign") => "resignation",
        Some("timeout") => "timeout",
        Some("draw") => "agreement",
        Some("abandoned") => "abandoned",
        _ => default,
    };
    let (result, winner, reason) = match declared.map(|d| d.0) {
        None | Some(ResultToken::Unknown) => (ResultToken::Unknown, None, reason("unfinished")),
        Some(ResultToken::FirstWins) => (
            ResultToken::FirstWins,
            Some(side_name(Side::First)),
            reason("resignation"),
        ),
        Some(ResultToken::SecondWins) => (
            ResultToken::SecondWins,
            Some(side_name(Side::Second)),
            reason("resignation"),
        ),
        Some(ResultToken::Draw) => (ResultToken::Draw, None, reason("agreement")),
    };
    Outcome {
        result,
        winner,
        reason,
        ply: plies,
    }
}

/// The `Termination` tag, when it names how a site ended the game off the
/// board (`resign`, `timeout`, `draw`, `abandoned`; other values are left
/// alone), checked against the declared result: a resignation or a
/// timeout has a winner, a draw is drawn, an abandoned game has no result.
fn termination(
    tags: &[Tag],
    declared: Option<(ResultToken, Span)>,
) -> Result<Option<&Tag>, Problem> {
    let Some(t) = tags.iter().find(|t| t.name == "Termination").filter(|t| {
        matches!(
            t.value.as_str(),
            "resign" | "timeout" | "draw" | "abandoned"
        )
    }) else {
        return Ok(None);
    };
    let (result, span) = declared.unwrap_or((ResultToken::Unknown, t.value_span));
    let fits = match t.value.as_str() {
        "resign" | "timeout" => {
            matches!(result, ResultToken::FirstWins | ResultToken::SecondWins)
        }
        "draw" => result == ResultToken::Draw,
        _ => result == ResultToken::Unknown,
    };
    if fits {
        return Ok(Some(t));
    }
    let due = match t.value.as_str() {
        "resign" | "timeout" => "a win for one side",
        "draw" => "a draw",
        _ => "no result (`*`)",
    };
    Err(Problem::new(
        Code::WrongResult,
        format!(
            "the game ends by `{}`, which gives {due}, but the result is `{}`",
            t.value,
            result.as_str()
        ),
        span,
    )
    .with_token(result.as_str()))
}

/// Stops the replay before ply `k`; tells `inner` what it sees until then.
struct StopBefore<'v, V>(Option<usize>, &'v mut V);

impl<G: Rules, V: Visitor<G>> Visitor<G> for StopBefore<'_, V> {
    fn before_ply(&mut self, ply: usize, pos: &G::Position) -> ControlFlow<()> {
        if Some(ply) == self.0 {
            ControlFlow::Break(())
        } else {
            self.1.before_ply(ply, pos)
        }
    }

    fn after_ply(&mut self, ply: usize, turn: &TurnIn<'_>, mv: &G::Move, after: &G::Position) {
        self.1.after_ply(ply, turn, mv, after)
    }

    fn end(&mut self, pos: &G::Position) {
        self.1.end(pos)
    }
}

/// The first of two problems in the input.
pub(crate) fn earliest(a: Option<Problem>, b: Option<Problem>) -> Option<Problem> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.span.start < a.span.start { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// The position before ply `ply` (1-based) of a game as it is read, or
/// after its last turn when `None`, and the plies played to reach it. A
/// wrong declared result does not matter here, nor a problem in the input
/// past the asked point; of two problems before it, the first.
pub(crate) fn position_before<G: Rules + Notation>(
    game: &mut dyn ReadGame<'_>,
    ply: Option<usize>,
) -> Result<(G::Position, usize), Problem> {
    position_before_with::<G, ()>(game, ply, &mut ())
}

/// [`position_before`], telling `visitor` the plies played to reach it.
pub(crate) fn position_before_with<G, V>(
    game: &mut dyn ReadGame<'_>,
    ply: Option<usize>,
    visitor: &mut V,
) -> Result<(G::Position, usize), Problem>
where
    G: Rules + Notation,
    V: Visitor<G>,
{
    let reached = reach::<G, V>(game, ply, visitor);
    match (reached.problem, reached.position) {
        (Some(p), _) => Err(p),
        (None, Some(pos)) => Ok((pos, reached.plies)),
        (None, None) => unreachable!("a replay without error has a position"),
    }
}

/// How far [`reach`] got.
#[derive(Clone, Debug)]
pub struct Reached<P> {
    /// The position reached: the asked one, or where a problem stopped the
    /// replay (`None`: the start cannot be set up).
    pub position: Option<P>,
    /// Plies played to reach it.
    pub plies: usize,
    /// What kept the replay from the asked position (a problem before it,
    /// or no such ply).
    pub problem: Option<Problem>,
}

/// Replays a game as it is read up to the position before ply `ply`
/// (1-based), or after its last turn, telling `visitor` the plies played.
pub fn reach<G, V>(
    game: &mut dyn ReadGame<'_>,
    ply: Option<usize>,
    visitor: &mut V,
) -> Reached<G::Position>
where
    G: Rules + Notation,
    V: Visitor<G>,
{
    let start = game.start();
    let (tags, turns) = game.parts();
    let played = play_turns::<G, _>(tags, start, turns, &mut StopBefore(ply, visitor));
    // Where the replay stopped short of the end, the turn it stopped at.
    let stop_at = match played.stopped {
        Some(_) => game.peek_turn().map(|(span, _)| span.start),
        None => None,
    };
    let end = game.finish();
    let envelope = end
        .error
        .filter(|e| stop_at.is_none_or(|at| e.span.start < at));
    let mut problem = earliest(envelope, played.error);
    if let (Some(k), None, None) = (ply, played.stopped, &problem) {
        if k != played.plies + 1 {
            problem = Some(Problem::new(
                Code::NoSuchPly,
                format!(
                    "the game has {} plies; there is no position before ply {k}",
                    played.plies
                ),
                Span::new(end.span.end, end.span.end),
            ));
        }
    }
    Reached {
        position: played.position,
        plies: played.plies,
        problem,
    }
}

/// The canonical spellings of every legal turn, sorted, each once; none
/// where the game has ended.
pub(crate) fn canonical_moves<G: Rules + Notation>(pos: &G::Position) -> Vec<String> {
    if G::ending(pos).is_some() {
        return Vec::new();
    }
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

/// One ply's figure for `moves --each`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlyCount<'t> {
    pub ply: usize,
    /// Legal turns before this ply.
    pub legal: usize,
    /// The turn as written in the record.
    pub played: &'t str,
}

/// Counts the legal turns before every ply and tells each count once its
/// ply was played.
struct CountEach<'f, M> {
    /// The legal moves before the ply being read (kept to reuse).
    moves: Vec<M>,
    each: &'f mut dyn FnMut(PlyCount<'_>) -> ControlFlow<()>,
    stop: bool,
}

impl<G: Rules + Notation> Visitor<G> for CountEach<'_, G::Move> {
    fn before_ply(&mut self, _: usize, pos: &G::Position) -> ControlFlow<()> {
        if self.stop {
            return ControlFlow::Break(());
        }
        // The generator gives each legal turn once.
        self.moves.clear();
        G::legal_moves(pos, &mut self.moves);
        ControlFlow::Continue(())
    }

    fn after_ply(&mut self, ply: usize, turn: &TurnIn<'_>, _: &G::Move, _: &G::Position) {
        let count = PlyCount {
            ply,
            legal: self.moves.len(),
            played: &turn.text,
        };
        self.stop = (self.each)(count).is_break();
    }
}

/// Tells `each` the number of legal turns before every ply of a game as it
/// is read, up to the first problem (of its moves or of the input, not of
/// its declared result), which is returned; `each` may stop it.
pub fn legal_move_counts<G: Rules + Notation>(
    game: &mut dyn ReadGame<'_>,
    each: &mut dyn FnMut(PlyCount<'_>) -> ControlFlow<()>,
) -> Option<Problem> {
    let mut counter = CountEach {
        moves: Vec::new(),
        each,
        stop: false,
    };
    let start = game.start();
    let (tags, turns) = game.parts();
    let played = play_turns::<G, _>(tags, start, turns, &mut counter);
    if played.stopped.is_some() {
        return None;
    }
    earliest(game.finish().error, played.error)
}

/// The legal turns at a position, or how the game ended there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalMoves {
    /// The position, in the game's Position notation.
    pub position: String,
    /// Canonical spellings, sorted.
    pub moves: Vec<String>,
    /// The game is over: how it ended (`Red won on points at ply 17`).
    pub over: Option<String>,
}

/// The legal turns before ply `ply` (1-based) of a game as it is read, or
/// after its last turn.
pub fn legal_moves_at<G: Rules + Notation>(
    game: &mut dyn ReadGame<'_>,
    ply: Option<usize>,
) -> Result<LegalMoves, Problem> {
    let (pos, plies) = position_before::<G>(game, ply)?;
    let over = G::ending(&pos).map(|ending| describe_ending::<G>(&ending, plies));
    Ok(LegalMoves {
        position: G::write_position(&pos),
        moves: canonical_moves::<G>(&pos),
        over,
    })
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
