//! The opening explorer (`gamerec tree`): the positions games reach in
//! their first plies, merged by position — the 64-bit key of the position
//! as its notation writes it ([`Search::notation_key`]), so two move
//! orders that reach one position meet —
//! each with the games that reached it, their results, and the turns
//! played from it. A game is walked once ([`walk`]); an [`Explorer`] adds
//! up the walks for one position, the one a line of turns leads to from
//! each game's start. Schema and conventions: notation/tree.md.

use crate::base::problem::Problem;
use crate::envelope::record::{ReadGame, ResultToken, TurnIn};
use crate::play::replay::{self, Visitor};
use gamerec_rules::game::{Facts, Search, Side};
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

/// How a game ended, for the counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Finish {
    /// The first-named side won.
    First,
    Draw,
    /// The second-named side won.
    Second,
    /// Unfinished (`*`, or no `Result` tag), or a record with an error in
    /// the plies walked (its plies before the error still count as
    /// reached).
    #[default]
    Open,
}

/// What one game did at an explored position: reached it (at ply `ply`,
/// 0-based: after `ply` plies) and played `turn` there (`None`: the game,
/// or the walk, ended there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtTarget {
    pub ply: usize,
    pub turn: Option<String>,
}

/// An explored position a game reached (the first time), with the side to
/// move there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    pub key: u64,
    pub mover: Side,
    pub at: AtTarget,
}

/// Which positions a walk looks for.
#[derive(Clone, Copy, Debug)]
pub enum Aim<'a> {
    /// The one a line of turns (as a user writes them) leads to from the
    /// game's start.
    Line(&'a [String]),
    /// Every position with one of these keys (the viewer's explorer panel:
    /// the positions of the games on the page).
    Keys(&'a HashSet<u64>),
}

/// One game's walk through its first plies.
#[derive(Clone, Debug)]
pub struct Walk {
    /// With [`Aim::Line`]: the position the line leads to from this game's
    /// start (its key, and the position in the game's notation), `None`
    /// where the line is not legal from it.
    pub target: Option<(u64, String)>,
    /// The explored positions the game reached, each the first time.
    pub reached: Vec<Reach>,
    pub finish: Finish,
    /// The record declares no result: `finish` is the rules' ending.
    pub by_rules: bool,
    pub error: Option<Problem>,
}

struct Walker<'a, G: Search + Facts> {
    aim: Aim<'a>,
    depth: usize,
    target: Option<(u64, String)>,
    reached: Vec<Reach>,
    /// The reach at the last ply looked at, waiting for its turn.
    open: Option<usize>,
    started: bool,
    /// Replay past the depth to the end: the record declares no result,
    /// so the rules' ending gives it.
    whole: bool,
    _game: std::marker::PhantomData<G>,
}

impl<G: Search + Facts> Walker<'_, G> {
    /// The line's position from this game's start.
    fn aim_line(&mut self, start: &G::Position) {
        let Aim::Line(line) = self.aim else {
            return;
        };
        let mut pos = start.clone();
        for text in line {
            let Ok(mv) = G::parse_move(&pos, text) else {
                return;
            };
            if G::play(&mut pos, &mv).is_err() {
                return;
            }
        }
        self.target = Some((G::notation_key(&pos), G::write_position(&pos)));
    }

    fn look(&mut self, ply: usize, pos: &G::Position) {
        self.open = None;
        // A line's one position: nothing to key once it is reached, or
        // where the line is not legal from the game's start.
        let line_done =
            matches!(self.aim, Aim::Line(_)) && (self.target.is_none() || !self.reached.is_empty());
        if ply > self.depth || line_done {
            return;
        }
        let key = G::notation_key(pos);
        let wanted = match self.aim {
            Aim::Line(_) => self.target.as_ref().is_some_and(|(k, _)| *k == key),
            Aim::Keys(keys) => keys.contains(&key),
        };
        if wanted && !self.reached.iter().any(|r| r.key == key) {
            self.open = Some(self.reached.len());
            self.reached.push(Reach {
                key,
                mover: G::side_to_move(pos),
                at: AtTarget { ply, turn: None },
            });
        }
    }

    fn start(&mut self, pos: &G::Position) {
        if !std::mem::replace(&mut self.started, true) {
            self.aim_line(pos);
            self.look(0, pos);
        }
    }
}

impl<G: Search + Facts> Visitor<G> for Walker<'_, G> {
    fn before_ply(&mut self, ply: usize, pos: &G::Position) -> ControlFlow<()> {
        self.start(pos);
        // Past the depth nothing is looked at, or played (unless the
        // result must come from the rules' ending).
        match ply > self.depth && !self.whole {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        }
    }

    fn after_ply(&mut self, ply: usize, _: &TurnIn<'_>, mv: &G::Move, after: &G::Position) {
        if let Some(i) = self.open {
            let mut turn = String::new();
            G::spell_standard(mv, &mut turn);
            self.reached[i].at.turn = Some(turn);
        }
        self.look(ply, after);
    }

    fn end(&mut self, pos: &G::Position) {
        self.start(pos);
    }
}

/// Walks a game as it is read: replays its first `depth` plies, looking
/// for the positions `aim` names. Its result is the one its `Result` tag
/// declares (the rest of the game is not replayed: `validate` checks
/// records); a record that declares none (`*`, no tag: a Garden Gate
/// link) is replayed to its end and scored by the rules' ending, as
/// `report` and `ratings` score it ([`declares_result`]).
pub fn walk<G: Search + Facts>(game: &mut dyn ReadGame<'_>, aim: Aim<'_>, depth: usize) -> Walk {
    let declared = declared(game.tags());
    let mut w = Walker::<G> {
        aim,
        depth,
        target: None,
        reached: Vec::new(),
        open: None,
        started: false,
        whole: declared.is_none(),
        _game: std::marker::PhantomData,
    };
    let (replay, _, end) = replay::replay_game::<G, _>(game, &mut w);
    let error = replay::earliest(end.error, replay.error);
    Walk {
        target: w.target,
        reached: w.reached,
        finish: scored(declared, replay.outcome.as_ref(), error.is_some()),
        by_rules: declared.is_none(),
        error,
    }
}

/// The decisive or drawn result a game's `Result` tag declares (`None`
/// for `*` or no tag).
fn declared(tags: &[crate::envelope::record::Tag]) -> Option<ResultToken> {
    tags.iter()
        .find(|t| t.name == "Result")
        .and_then(|t| ResultToken::parse(t.value.trim()))
        .filter(|r| *r != ResultToken::Unknown)
}

/// Whether a game's `Result` tag declares its result (a win or a draw):
/// where it does not, a finished game's result is the rules' ending.
pub(crate) fn declares_result(tags: &[crate::envelope::record::Tag]) -> bool {
    declared(tags).is_some()
}

/// A game's result for the counts: the declared one, or else the one the
/// replay's outcome gives (the rules' ending); open with an error.
fn scored(declared: Option<ResultToken>, outcome: Option<&replay::Outcome>, error: bool) -> Finish {
    match (error, declared) {
        (true, _) => Finish::Open,
        (false, Some(d)) => finish(Some(d)),
        (false, None) => finish(outcome.map(|o| o.result)),
    }
}

fn finish(declared: Option<ResultToken>) -> Finish {
    match declared {
        Some(ResultToken::FirstWins) => Finish::First,
        Some(ResultToken::SecondWins) => Finish::Second,
        Some(ResultToken::Draw) => Finish::Draw,
        Some(ResultToken::Unknown) | None => Finish::Open,
    }
}

/// [`line_target`]'s answer: the start's key, and the line's position
/// (key, notation, side to move) where the line is legal.
pub(crate) type LineTarget = Option<(u64, Option<(u64, String, Side)>)>;

/// Where a line of turns (as a user writes them) leads from the start the
/// tags set up: its key, the position in the game's notation and the side
/// to move there; `None` where the tags set up no start or the line is not
/// legal from it. With the start's key, to share the answer among games
/// with one start.
pub fn line_target<G: Search + Facts>(
    tags: &[crate::envelope::record::Tag],
    line: &[String],
) -> LineTarget {
    let mut pos = G::start(tags).ok()?;
    let start = G::notation_key(&pos);
    for text in line {
        let Ok(mv) = G::parse_move(&pos, text) else {
            return Some((start, None));
        };
        if G::play(&mut pos, &mv).is_err() {
            return Some((start, None));
        }
    }
    let target = (
        G::notation_key(&pos),
        G::write_position(&pos),
        G::side_to_move(&pos),
    );
    Some((start, Some(target)))
}

/// A whole game's positions, for the position index (`gamerec index`).
#[derive(Clone, Debug, Default)]
pub struct Traced {
    /// The key ([`Search::notation_key`]) of every position: `keys[i]`
    /// after `i` plies (the start first), up to the last legal ply.
    pub keys: Vec<u64>,
    /// The turns played, in the game's standard spelling, one space
    /// between (as many as `keys` has positions, less one).
    pub turns: String,
    /// Each turn's [`Facts::move_code`] where the game numbers its moves
    /// (empty where it does not).
    pub codes: Vec<u32>,
    /// The result the `Result` tag declares, or else the rules' ending
    /// ([`Finish::Open`] for a record with an error anywhere).
    pub finish: Finish,
    /// Why the record is invalid.
    pub error: Option<Problem>,
    /// The record's extent in its chunk.
    pub span: crate::envelope::record::Span,
}

struct Tracer<G: Search> {
    keys: Vec<u64>,
    turns: String,
    codes: Vec<u32>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Search + Facts> Visitor<G> for Tracer<G> {
    fn before_ply(&mut self, _: usize, pos: &G::Position) -> ControlFlow<()> {
        if self.keys.is_empty() {
            self.keys.push(G::notation_key(pos));
        }
        ControlFlow::Continue(())
    }

    fn after_ply(&mut self, _: usize, _: &TurnIn<'_>, mv: &G::Move, after: &G::Position) {
        if !self.turns.is_empty() {
            self.turns.push(' ');
        }
        G::spell_standard(mv, &mut self.turns);
        if let Some(code) = G::move_code(mv) {
            self.codes.push(code);
        }
        self.keys.push(G::notation_key(after));
    }

    fn end(&mut self, pos: &G::Position) {
        if self.keys.is_empty() {
            self.keys.push(G::notation_key(pos));
        }
    }
}

/// Replays a whole game as it is read, keying every position.
pub fn trace<G: Search + Facts>(game: &mut dyn ReadGame<'_>) -> Traced {
    let declared = declared(game.tags());
    let mut t = Tracer::<G> {
        keys: Vec::new(),
        turns: String::new(),
        codes: Vec::new(),
        _game: std::marker::PhantomData,
    };
    let (replay, _, end) = replay::replay_game::<G, _>(game, &mut t);
    let error = replay::earliest(end.error, replay.error);
    Traced {
        keys: t.keys,
        turns: t.turns,
        codes: t.codes,
        finish: scored(declared, replay.outcome.as_ref(), error.is_some()),
        error,
        span: end.span,
    }
}

/// Games and their results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Every game, finished or not.
    pub games: u64,
    pub first: u64,
    pub draws: u64,
    pub second: u64,
    /// Finished games whose records declare no result (a Garden Gate
    /// link): their result is the rules' ending.
    pub by_rules: u64,
}

impl Results {
    fn add(&mut self, finish: Finish, by_rules: bool) {
        self.games += 1;
        if by_rules && finish != Finish::Open {
            self.by_rules += 1;
        }
        match finish {
            Finish::First => self.first += 1,
            Finish::Draw => self.draws += 1,
            Finish::Second => self.second += 1,
            Finish::Open => {}
        }
    }

    /// Finished games.
    pub fn finished(&self) -> u64 {
        self.first + self.draws + self.second
    }

    /// `side`'s score (a win 1, a draw ½) over the finished games and its
    /// 95 % Wilson interval; `None` without a finished game.
    pub fn score(&self, side: Side) -> Option<(f64, f64, f64)> {
        let n = self.finished() as f64;
        if n == 0.0 {
            return None;
        }
        let wins = match side {
            Side::First => self.first,
            Side::Second => self.second,
        } as f64;
        let p = (wins + self.draws as f64 / 2.0) / n;
        let (lo, hi) = wilson(p, n);
        Some((p, lo, hi))
    }
}

/// The 95 % Wilson score interval of a proportion `p` of `n`.
pub(crate) fn wilson(p: f64, n: f64) -> (f64, f64) {
    const Z: f64 = 1.959_963_984_540_054;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A game named as `file#index`.
pub(crate) type Example = (String, usize);

/// How many example games a position and a turn keep.
pub(crate) const EXAMPLES: usize = 8;

/// A turn played from the explored position.
#[derive(Clone, Debug, Default)]
pub struct TurnCounts {
    pub counts: Results,
    pub examples: Vec<Example>,
}

/// The explored position of one game type and start: its games, and the
/// turns played from it.
#[derive(Clone, Debug)]
pub struct Explored {
    pub game: &'static str,
    /// Its position key.
    pub key: u64,
    /// In the game's position notation (empty where the walks were aimed
    /// at keys, not a line).
    pub position: String,
    pub mover: Side,
    pub counts: Results,
    pub examples: Vec<Example>,
    /// In the order first played ([`Explorer::finish`]: the most played
    /// first).
    pub turns: Vec<(String, TurnCounts)>,
    /// Turns left out by `min_games`.
    pub left_out: usize,
}

/// Adds up walks, in input order, per game type and explored position.
#[derive(Default)]
pub struct Explorer {
    found: Vec<Explored>,
    index: HashMap<(&'static str, u64), usize>,
    /// Per position found, its turns' places in its `turns`.
    turn_index: Vec<HashMap<String, usize>>,
}

impl Explorer {
    /// Adds game `index` of `file` (of game type `game`).
    pub fn add(&mut self, game: &'static str, file: &str, index: usize, walk: &Walk) {
        for reach in &walk.reached {
            let position = match &walk.target {
                Some((key, position)) if *key == reach.key => position.as_str(),
                _ => "",
            };
            let scored = (walk.finish, walk.by_rules);
            self.add_reach(game, (file, index), reach, position, scored);
        }
    }

    /// Adds one game's reach of a position (`position`: its notation, or
    /// empty), with the game's result and whether the rules' ending gave
    /// it ([`declares_result`]).
    pub(crate) fn add_reach(
        &mut self,
        game: &'static str,
        (file, index): (&str, usize),
        reach: &Reach,
        position: &str,
        (finish, by_rules): (Finish, bool),
    ) {
        let n = self.found.len();
        let slot = *self.index.entry((game, reach.key)).or_insert(n);
        if slot == n {
            self.found.push(Explored {
                game,
                key: reach.key,
                position: position.to_string(),
                mover: reach.mover,
                counts: Results::default(),
                examples: Vec::new(),
                turns: Vec::new(),
                left_out: 0,
            });
            self.turn_index.push(HashMap::new());
        }
        let e = &mut self.found[slot];
        e.counts.add(finish, by_rules);
        if e.examples.len() < EXAMPLES {
            e.examples.push((file.to_string(), index));
        }
        if let Some(turn) = &reach.at.turn {
            let places = &mut self.turn_index[slot];
            let i = match places.get(turn.as_str()) {
                Some(&i) => i,
                None => {
                    places.insert(turn.clone(), e.turns.len());
                    e.turns.push((turn.clone(), TurnCounts::default()));
                    e.turns.len() - 1
                }
            };
            let t = &mut e.turns[i].1;
            t.counts.add(finish, by_rules);
            if t.examples.len() < EXAMPLES {
                t.examples.push((file.to_string(), index));
            }
        }
    }

    /// What was found: per game type and position, in the order first met;
    /// each position's turns played in at least `min_games` games, the
    /// most played first (ties in the order first played).
    pub fn finish(self, min_games: u64) -> Vec<Explored> {
        let mut found = self.found;
        for e in &mut found {
            let all = e.turns.len();
            e.turns.retain(|(_, t)| t.counts.games >= min_games);
            e.left_out = all - e.turns.len();
            e.turns.sort_by_key(|t| std::cmp::Reverse(t.1.counts.games));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_matches_a_hand_computation() {
        // p = 0.5 of 100: 0.5 ± 1.96·√(0.0025 + 0.000096)/1.0384.
        let (lo, hi) = wilson(0.5, 100.0);
        assert!((lo - 0.4038).abs() < 1e-4, "{lo}");
        assert!((hi - 0.5962).abs() < 1e-4, "{hi}");
        // Never outside [0, 1], and not a point at the ends.
        let (lo, hi) = wilson(1.0, 5.0);
        assert!(hi == 1.0 && lo > 0.5 && lo < 0.6, "{lo} {hi}");
    }

    #[test]
    fn a_score_counts_a_draw_as_half_and_leaves_unfinished_games_out() {
        let mut c = Results::default();
        for f in [
            Finish::First,
            Finish::First,
            Finish::Draw,
            Finish::Second,
            Finish::Open,
        ] {
            c.add(f, false);
        }
        assert_eq!(c.games, 5);
        assert_eq!(c.finished(), 4);
        assert_eq!(c.score(Side::First).unwrap().0, 2.5 / 4.0);
        assert_eq!(c.score(Side::Second).unwrap().0, 1.5 / 4.0);
        assert_eq!(Results::default().score(Side::First), None);
    }
}
