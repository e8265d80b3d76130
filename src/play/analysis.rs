//! A recorded game analysed ply by ply: each searched position's exact
//! value within the horizon ([`gamerec_rules::search`]), the value the move played
//! keeps, the proven best moves, the win-chance estimate
//! ([`gamerec_rules::search::chance`]), and the marks (proven: a missed win, a
//! blunder, the only move; estimated: an inaccuracy, a mistake, a blunder by
//! the estimate). Generic over a game; `gamerec analyse` reaches it through
//! the registry. Schema and conventions: notation/analysis.md.

use crate::base::problem::{Problem, Span};
use crate::envelope::record::{Assessment, ReadGame, TurnIn};
use crate::play::replay::{self, Visitor};
use gamerec_rules::game::{Notation, Search, Side};
use gamerec_rules::random::stream;
use gamerec_rules::search::chance::{Chance, Tree};
use gamerec_rules::search::{board_moves, split, Budget, Judged, Table, Value};
use std::ops::ControlFlow;

/// Which plies are searched (the rest is replayed only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plies {
    All,
    /// The last K plies of each game.
    Last(usize),
    /// Plies A to B, 1-based, both included.
    Range(usize, usize),
}

impl Plies {
    /// `A-B`, `A-` or `A`.
    pub fn parse(text: &str) -> Result<Plies, String> {
        let number = |s: &str| match s.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("`{s}` is not a ply number (1, 2, …)")),
        };
        let (a, b) = match text.split_once('-') {
            Some((a, "")) => (number(a)?, usize::MAX),
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(text)?, number(text)?),
        };
        if a > b {
            return Err(format!("`{text}`: the first ply is after the last"));
        }
        Ok(Plies::Range(a, b))
    }

    fn covers(self, ply: usize, plies: usize) -> bool {
        match self {
            Plies::All => true,
            Plies::Last(k) => ply.saturating_add(k) > plies,
            Plies::Range(a, b) => (a..=b).contains(&ply),
        }
    }
}

/// How games are analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The horizon in plies; `None`: the game's own default
    /// ([`Search::DEPTH`]).
    pub depth: Option<u32>,
    /// Per position.
    pub budget: Budget,
    /// Playouts of the win-chance estimate per position (0: none).
    pub playouts: u32,
    pub seed: u64,
    pub plies: Plies,
    /// The transposition table's size per thread.
    pub table_mib: usize,
    /// Threads that may search at once, 0 for one per core (a game's
    /// positions are shared among them; the answers are the same with any
    /// number).
    pub jobs: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: None,
            budget: Budget {
                until: None,
                nodes: Some(2_000_000),
                time: None,
            },
            playouts: 0,
            seed: 1,
            plies: Plies::All,
            table_mib: 16,
            jobs: 1,
        }
    }
}

/// A mark on a ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// A forced win existed before the move; the move keeps none.
    MissedWin,
    /// The position was not lost before the move and is lost after it.
    Blunder,
    /// The one move that keeps the win, or the one that does not lose.
    OnlyMove,
    /// Estimates: the mover's win chance fell by 0.1, 0.2, 0.3 or more.
    Inaccuracy,
    Mistake,
    BlunderEstimate,
}

impl Mark {
    pub const ALL: [Mark; 6] = [
        Mark::MissedWin,
        Mark::Blunder,
        Mark::OnlyMove,
        Mark::Inaccuracy,
        Mark::Mistake,
        Mark::BlunderEstimate,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mark::MissedWin => "missed-win",
            Mark::Blunder => "blunder",
            Mark::OnlyMove => "only-move",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::BlunderEstimate => "blunder-estimate",
        }
    }

    /// Whether it comes from the win-chance estimate (not proven).
    pub fn is_estimate(self) -> bool {
        matches!(
            self,
            Mark::Inaccuracy | Mark::Mistake | Mark::BlunderEstimate
        )
    }

    /// The PGN move assessment a mark writes.
    pub fn assessment(self) -> &'static str {
        match self {
            Mark::MissedWin | Mark::Blunder => "??",
            Mark::OnlyMove => "!",
            Mark::Inaccuracy => "?!",
            Mark::Mistake | Mark::BlunderEstimate => "?",
        }
    }
}

impl Mark {
    /// The mark of this name.
    pub fn named(name: &str) -> Option<Mark> {
        Mark::ALL.into_iter().find(|m| m.name() == name)
    }

    /// How grave it is: the assessment of a turn of several marks is its
    /// gravest's.
    fn gravity(self) -> u8 {
        match self {
            Mark::Blunder => 5,
            Mark::MissedWin => 4,
            Mark::BlunderEstimate => 3,
            Mark::Mistake => 2,
            Mark::Inaccuracy => 1,
            Mark::OnlyMove => 0,
        }
    }
}

/// The comment commands `analyse --annotate` writes (and replaces when it
/// annotates a record again): notation/analysis.md.
pub(crate) const COMMANDS: [&str; 4] = ["value", "win", "mark", "best"];

/// The tag an annotated record names its annotator in (`gamerec VERSION,
/// depth N`).
pub(crate) const ANNOTATOR: &str = "Annotator";

/// A win chance to three decimals (an estimate is no more precise), half
/// away from zero: what the JSON, the tables and `[%win]` all write.
pub(crate) fn round_chance(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// What an annotated turn says of itself: `[%value W3] [%win 0.620]
/// [%mark blunder] [%best c7-c9]` — the value after the move and the
/// mover's win chance after it (both for the side that moved), the marks,
/// and what was better where a proven mark says the move was wrong.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotation {
    pub value: Option<Value>,
    pub win: Option<f64>,
    pub marks: Vec<Mark>,
    pub best: Vec<String>,
}

impl Annotation {
    /// The annotation of a searched ply.
    pub fn of(p: &PlyAnalysis) -> Annotation {
        let wrong = p
            .marks
            .iter()
            .any(|m| matches!(m, Mark::MissedWin | Mark::Blunder));
        Annotation {
            value: p.after.filter(|v| v.is_proven()),
            win: p.chance_after,
            marks: p.marks.clone(),
            best: if wrong { p.best.clone() } else { Vec::new() },
        }
    }

    /// Read back from a turn's comments (the last of each command counts;
    /// a value that does not read is left out).
    pub fn read<'a>(comments: impl IntoIterator<Item = &'a str>) -> Annotation {
        let mut a = Annotation::default();
        for c in comments {
            for (name, value) in crate::envelope::record::commands::commands(c) {
                match name {
                    "value" => a.value = Value::from_short(value),
                    "win" => a.win = value.parse().ok().filter(|w| (0.0..=1.0).contains(w)),
                    "mark" => a.marks = value.split(',').filter_map(Mark::named).collect(),
                    "best" => a.best = value.split_whitespace().map(String::from).collect(),
                    _ => {}
                }
            }
        }
        a
    }

    pub fn is_empty(&self) -> bool {
        *self == Annotation::default()
    }

    /// The commands as one comment (`None` when there is nothing to say).
    pub fn comment(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(v) = self.value.and_then(Value::short) {
            parts.push(format!("[%value {v}]"));
        }
        if let Some(w) = self.win {
            // Rounded as the JSON rounds it, then written: the two agree.
            parts.push(format!("[%win {:.3}]", round_chance(w)));
        }
        if !self.marks.is_empty() {
            let names: Vec<&str> = self.marks.iter().map(|m| m.name()).collect();
            parts.push(format!("[%mark {}]", names.join(",")));
        }
        if !self.best.is_empty() {
            parts.push(format!("[%best {}]", self.best.join(" ")));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// The turn's assessment: its gravest mark's.
    pub fn assessment(&self) -> Option<Assessment> {
        Assessment::parse(self.gravest_first().first()?.assessment())
    }

    /// The marks, the gravest first (what a picture of the turn shows).
    pub(crate) fn gravest_first(&self) -> Vec<Mark> {
        let mut marks = self.marks.clone();
        marks.sort_by_key(|m| std::cmp::Reverse(m.gravity()));
        marks
    }
}

/// One searched ply.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyAnalysis {
    /// 1-based.
    pub ply: usize,
    /// Its move number, and whether the second mover of that number made
    /// it (`8...`).
    pub number: u64,
    pub second: bool,
    /// The turn as the record writes it, and where.
    pub turn: String,
    pub span: Span,
    pub side: Side,
    /// The position before the move, for the side to move.
    pub before: Value,
    /// The position after the move, for the side that moved, within the
    /// same horizon (`None`: the budget ran out, or the turn was an
    /// agreement).
    pub after: Option<Value>,
    /// The moves that keep `before` (proven; empty when it is unknown).
    pub best: Vec<String>,
    /// The estimate's favourite move, where nothing is proven.
    pub estimate_best: Option<String>,
    /// The mover's win chance before and after the move (proven values
    /// override the estimate: 1, 0, ½).
    pub chance: Option<f64>,
    pub chance_after: Option<f64>,
    /// The playouts behind `chance` and `chance_after` where they are
    /// estimates (`None`: proven, or absent): how sure each is.
    pub chance_playouts: Option<u32>,
    pub chance_after_playouts: Option<u32>,
    pub marks: Vec<Mark>,
    /// Positions the exact search visited for this ply.
    pub nodes: u64,
    /// Whether the budget ran out before `before` was settled.
    pub exhausted: bool,
}

/// A game analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub depth: u32,
    /// Plies replayed legally.
    pub plies: usize,
    pub searched: Vec<PlyAnalysis>,
    /// Why the replay stopped early (the legal prefix is analysed).
    pub error: Option<Problem>,
}

impl Analysis {
    /// Marks per side (by [`Side::index`]), in [`Mark::ALL`]'s order.
    pub fn totals(&self) -> [[usize; 6]; 2] {
        let mut t = [[0; 6]; 2];
        for p in &self.searched {
            for m in &p.marks {
                t[p.side.index()][*m as usize] += 1;
            }
        }
        t
    }
}

/// A played ply kept for the search.
struct Step<P> {
    ply: usize,
    number: (u64, bool),
    turn: String,
    span: Span,
    before: P,
    after: P,
}

struct Keep<G: Search> {
    before: Option<G::Position>,
    /// The plies searched, kept as the game is replayed: only those the
    /// settings name (the last K as they go by), so memory follows them,
    /// not the game's length.
    steps: std::collections::VecDeque<Step<G::Position>>,
    plies: Plies,
    /// The side whose turns are `N.`, and whether the start has the other
    /// to move.
    numbering: Option<(Side, bool)>,
}

impl<G: Search> Visitor<G> for Keep<G> {
    fn before_ply(&mut self, _: usize, pos: &G::Position) -> ControlFlow<()> {
        if self.numbering.is_none() {
            let first = G::first_mover(pos);
            self.numbering = Some((first, G::side_to_move(pos) != first));
        }
        self.before = Some(pos.clone());
        ControlFlow::Continue(())
    }

    fn after_ply(&mut self, ply: usize, turn: &TurnIn<'_>, _: &G::Move, after: &G::Position) {
        let wanted = match self.plies {
            Plies::Range(a, b) => (a..=b).contains(&ply),
            Plies::All | Plies::Last(_) => true,
        };
        if !wanted {
            self.before = None;
            return;
        }
        if let Plies::Last(k) = self.plies {
            if self.steps.len() >= k {
                self.steps.pop_front();
            }
        }
        if let Some(before) = self.before.take() {
            let (first, starts_second) = self.numbering.unwrap_or((Side::First, false));
            let (n, second, _) = replay::turn_at(ply - 1, first, starts_second);
            self.steps.push_back(Step {
                ply,
                number: (n, second),
                turn: turn.text.to_string(),
                span: turn.span,
                before,
                after: after.clone(),
            });
        }
    }
}

/// Analyses a game as it is read: replays it and searches the plies
/// `settings` names.
pub fn analyse<G: Search + Notation>(game: &mut dyn ReadGame<'_>, settings: &Settings) -> Analysis {
    let mut keep = Keep::<G> {
        before: None,
        steps: std::collections::VecDeque::new(),
        plies: settings.plies,
        numbering: None,
    };
    let (replay, _, end) = replay::replay_game::<G, _>(game, &mut keep);
    let error = replay::earliest(end.error, replay.error);
    let plies = replay.plies;
    let depth = settings.depth.unwrap_or(G::DEPTH);
    keep.steps.retain(|s| settings.plies.covers(s.ply, plies));
    let searched = search_steps::<G>(keep.steps.make_contiguous(), settings, depth);
    Analysis {
        depth,
        plies,
        searched,
        error,
    }
}

/// What one position's search and estimate found, before its neighbours
/// are known.
struct Searched {
    judged: Judged,
    exhausted: bool,
    nodes: u64,
    estimate: Option<Chance>,
    /// The estimate of the position after the move, where the next ply is
    /// not searched (`None`: it is).
    next_chance: Option<Option<Chance>>,
}

/// A thread's storage for searching positions one after another.
struct Worker {
    table: Table,
    tree: Tree,
}

/// Searches step `i` on its own ([`split::alone`]).
fn search_one<G: Search>(
    steps: &[Step<G::Position>],
    i: usize,
    worker: &mut Worker,
    settings: &Settings,
    depth: u32,
) -> Searched {
    let step = &steps[i];
    // One deadline for the position: its search, then its estimates in
    // what time is left.
    let budget = settings.budget.from_now();
    let mut searcher = split::alone::<G>(&mut worker.table);
    let judged = searcher.judge(&step.before, depth, budget);
    // Each position's estimate has its own random stream, from the seed
    // and the position: the same whatever the thread, the game or where
    // in the input it stands.
    let tree = &mut worker.tree;
    let mut rng = stream(settings.seed, G::key(&step.before));
    let lost = proven_lost(&judged);
    let until = budget.until;
    let estimate = tree.estimate::<G>(&step.before, settings.playouts, until, &lost, &mut rng);
    // The position after the move, from its mover's view: the next step's
    // estimate where the next ply is searched, else its own.
    let next_chance = match steps.get(i + 1) {
        Some(next) if next.ply == step.ply + 1 => None,
        _ => {
            let mut rng = stream(settings.seed, G::key(&step.after));
            Some(tree.estimate::<G>(&step.after, settings.playouts, until, &[], &mut rng))
        }
    };
    Searched {
        judged,
        exhausted: searcher.exhausted_root(),
        nodes: searcher.nodes,
        estimate,
        next_chance,
    }
}

/// Every step's search, the steps shared among up to `settings.jobs`
/// threads.
fn search_all<G: Search>(
    steps: &[Step<G::Position>],
    settings: &Settings,
    depth: u32,
) -> Vec<Searched> {
    let init = || Worker {
        table: split::take_table(settings.table_mib),
        tree: Tree::default(),
    };
    let search = |w: &mut Worker, i| search_one::<G>(steps, i, w, settings, depth);
    let done = |w: Worker| split::give_back(w.table);
    let jobs = crate::envelope::pipeline::threads(settings.jobs);
    split::map_split(steps.len(), jobs, &init, &search, &done)
}

fn search_steps<G: Search + Notation>(
    steps: &[Step<G::Position>],
    settings: &Settings,
    depth: u32,
) -> Vec<PlyAnalysis> {
    let mut out: Vec<PlyAnalysis> = Vec::with_capacity(steps.len());
    let mut moves = Vec::new();
    let searched = search_all::<G>(steps, settings, depth);
    for (step, found) in steps.iter().zip(searched) {
        let Searched {
            judged,
            exhausted,
            nodes,
            estimate,
            next_chance,
        } = found;
        moves.clear();
        board_moves::<G>(&step.before, &mut moves);
        let played = played_index::<G>(&step.before, &moves, &step.after);
        let known = played.and_then(|i| judged.turns.get(i).copied().flatten());
        // Where the budget left the move's value unknown but the move ended
        // the game, the rules say it.
        let after = known.or_else(|| ended_value::<G>(&step.after).map(Value::flip));
        let mut marks = proven_marks(&judged, played, exhausted);
        if let (None, Some(v)) = (known, after) {
            marks.extend(turn_marks(judged.value, v, exhausted));
        }
        let proven = proven_chance(judged.value);
        let chance = proven.or(estimate.map(|e| e.win));
        let proven_after = after.and_then(proven_chance);
        let ended_after = ended_chance::<G>(&step.after);
        let next_estimate = next_chance.flatten().filter(|_| proven_after.is_none());
        let mut a = PlyAnalysis {
            ply: step.ply,
            number: step.number.0,
            second: step.number.1,
            turn: step.turn.clone(),
            span: step.span,
            side: G::side_to_move(&step.before),
            before: judged.value,
            after,
            best: best_moves::<G>(&judged, &moves),
            estimate_best: None,
            chance,
            chance_after: proven_after.or_else(|| {
                let other = match next_chance {
                    Some(c) => c.map(|c| c.win).or(ended_after),
                    None => None,
                };
                other.map(|c| 1.0 - c)
            }),
            chance_playouts: estimate.filter(|_| proven.is_none()).map(|e| e.playouts),
            chance_after_playouts: next_estimate.map(|e| e.playouts),
            marks,
            exhausted,
            nodes,
        };
        if a.best.is_empty() && settings.playouts > 0 {
            a.estimate_best = estimate_move::<G>(estimate.and_then(|e| e.best), &moves);
        }
        // The previous ply's chance after, from this ply's chance before.
        if let Some(prev) = out.last_mut().filter(|p| p.ply + 1 == step.ply) {
            if prev.chance_after.is_none() || prev.after.is_none_or(|v| !v.is_proven()) {
                prev.chance_after = a.chance.map(|c| 1.0 - c);
                prev.chance_after_playouts = a.chance_playouts;
            }
        }
        out.push(a);
    }
    after_from_next(&mut out);
    for a in &mut out {
        estimate_marks(a);
    }
    out
}

/// Where the budget left a move's value unknown and the next ply is
/// searched with a proven value, that value (for the other side) is the
/// position after the move's: exact, from the next ply's own search; the
/// marks it proves follow.
fn after_from_next(out: &mut [PlyAnalysis]) {
    for i in 1..out.len() {
        let (next, next_ply) = (out[i].before, out[i].ply);
        let a = &mut out[i - 1];
        if a.after.is_none() && a.ply + 1 == next_ply && next.is_proven() {
            a.after = Some(next.flip());
            a.marks
                .extend(turn_marks(a.before, next.flip(), a.exhausted));
        }
    }
}

/// Which turns the search proved to lose (for the side that plays them):
/// the estimate never plays them from the position.
fn proven_lost(judged: &Judged) -> Vec<bool> {
    (judged.turns.iter())
        .map(|v| matches!(v, Some(Value::Loss(_))))
        .collect()
}

/// The estimate's favourite move (its index among `moves`), written.
fn estimate_move<G: Notation>(best: Option<usize>, moves: &[G::Move]) -> Option<String> {
    best.and_then(|i| moves.get(i)).map(|m| written::<G>(m))
}

fn written<G: Notation>(mv: &G::Move) -> String {
    let mut s = String::new();
    G::write_move(mv, &mut s);
    s
}

/// The board turn among `moves` that reaches `after`, a draw offer it made
/// aside (`None`: the turn played was an agreement).
fn played_index<G: Search>(
    before: &G::Position,
    moves: &[G::Move],
    after: &G::Position,
) -> Option<usize> {
    let mut next = before.clone();
    let mut board = after.clone();
    G::withdraw_offer(&mut board);
    moves.iter().position(|m| {
        next.clone_from(before);
        G::play(&mut next, m).is_ok() && next == board
    })
}

/// The side to move's win chance where a value is proven.
fn proven_chance(v: Value) -> Option<f64> {
    match v {
        Value::Win(_) => Some(1.0),
        Value::Loss(_) => Some(0.0),
        Value::Draw => Some(0.5),
        Value::Unknown => None,
    }
}

/// The side to move's value where the rules have ended the game.
fn ended_value<G: Search>(pos: &G::Position) -> Option<Value> {
    let e = G::ending(pos).filter(|e| e.decided)?;
    Some(match e.winner {
        Some(w) if w == G::side_to_move(pos) => Value::Win(0),
        Some(_) => Value::Loss(0),
        None => Value::Draw,
    })
}

/// The side to move's chance where the rules have ended the game.
fn ended_chance<G: Search>(pos: &G::Position) -> Option<f64> {
    let e = G::ending(pos).filter(|e| e.decided)?;
    Some(match e.winner {
        Some(w) if w == G::side_to_move(pos) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    })
}

/// The turns that keep the position's proven value.
fn best_moves<G: Search + Notation>(judged: &Judged, moves: &[G::Move]) -> Vec<String> {
    let keeps = |v: Value| match (judged.value, v) {
        (Value::Win(d), Value::Win(e)) | (Value::Loss(d), Value::Loss(e)) => e + 1 == d,
        (Value::Draw, Value::Draw) => true,
        _ => false,
    };
    judged
        .turns
        .iter()
        .zip(moves)
        .filter(|(v, _)| v.is_some_and(keeps))
        .map(|(_, m)| written::<G>(m))
        .collect()
}

/// `missed-win` and `blunder` from the values before and after a move
/// (`exhausted`: the budget ran out before the value before was settled).
fn turn_marks(before: Value, after: Value, exhausted: bool) -> impl Iterator<Item = Mark> {
    let missed = matches!(before, Value::Win(_)) && !matches!(after, Value::Win(_));
    let not_lost = !matches!(before, Value::Loss(_)) && !exhausted;
    let blunder = not_lost && matches!(after, Value::Loss(_));
    [(missed, Mark::MissedWin), (blunder, Mark::Blunder)]
        .into_iter()
        .filter_map(|(yes, m)| yes.then_some(m))
}

/// The proven marks of the turn played (`played`: its index).
fn proven_marks(judged: &Judged, played: Option<usize>, exhausted: bool) -> Vec<Mark> {
    let mut marks = Vec::new();
    let Some(Some(after)) = played.map(|i| judged.turns[i]) else {
        return marks;
    };
    let before = judged.value;
    marks.extend(turn_marks(before, after, exhausted));
    let all_known = judged.turns.iter().all(Option::is_some);
    if all_known && judged.turns.len() > 1 {
        let count = |keeps: &dyn Fn(Value) -> bool| {
            judged.turns.iter().filter(|v| v.is_some_and(keeps)).count()
        };
        let wins = count(&|v| matches!(v, Value::Win(_)));
        let not_losing = count(&|v| !matches!(v, Value::Loss(_)));
        let only_win =
            matches!(before, Value::Win(_)) && wins == 1 && matches!(after, Value::Win(_));
        let only_save = !matches!(before, Value::Win(_) | Value::Loss(_))
            && not_losing == 1
            && !matches!(after, Value::Loss(_));
        if only_win || only_save {
            marks.push(Mark::OnlyMove);
        }
    }
    marks
}

/// Standard errors an estimate's drop must clear beyond its mark's
/// threshold.
pub(crate) const MARK_CONFIDENCE: f64 = 2.0;

/// The estimate's marks, where no proven mark says more.
fn estimate_marks(a: &mut PlyAnalysis) {
    if a.marks
        .iter()
        .any(|m| matches!(m, Mark::MissedWin | Mark::Blunder))
    {
        return;
    }
    let (Some(before), Some(after)) = (a.chance, a.chance_after) else {
        return;
    };
    // The drop's lower confidence bound: two standard errors below it,
    // each estimate's error at most ½/√playouts (none where proven). A
    // mark is given only where the drop is sure enough to hold under
    // another seed (the marks at 200 playouts changed with the seed).
    let var = |n: Option<u32>| n.map_or(0.0, |n| 0.25 / f64::from(n.max(1)));
    let se = (var(a.chance_playouts) + var(a.chance_after_playouts)).sqrt();
    let drop = before - after - MARK_CONFIDENCE * se;
    let mark = match drop {
        d if d >= 0.3 => Mark::BlunderEstimate,
        d if d >= 0.2 => Mark::Mistake,
        d if d >= 0.1 => Mark::Inaccuracy,
        _ => return,
    };
    a.marks.push(mark);
}

/// The proven best moves at a position (`moves --best`), or the
/// estimate's where none is proven.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// The horizon searched.
    pub depth: u32,
    /// The position's value for the side to move.
    pub value: Value,
    /// Each board turn that keeps the value (canonical spelling), with the
    /// value of the position it reaches for the side that moved.
    pub moves: Vec<(String, Value)>,
    /// Where nothing is proven and playouts were asked for: the estimate's
    /// most visited turn and the side to move's win chance.
    pub estimate: Option<(String, f64)>,
}

/// [`Best`] at `pos`, searched under `settings` (its horizon, budget,
/// playouts and seed).
pub fn best_at<G: Search + Notation>(pos: &G::Position, settings: &Settings) -> Best {
    // The position's deadline counts from here: generating a wide
    // position's turns is part of its time.
    let whole = settings.budget.from_now();
    let depth = settings.depth.unwrap_or(G::DEPTH);
    let mut moves = Vec::new();
    board_moves::<G>(pos, &mut moves);
    // The turns shared among the threads, each with an equal share of the
    // position's budget: the same answers with any number of threads.
    // Each turn also stops at the position's deadline, however wide the
    // position.
    let share = |n: u64| (n / moves.len().max(1) as u64).max(1);
    let budget = Budget {
        nodes: settings.budget.nodes.map(share),
        time: (settings.budget.time)
            .map(|t| t / u32::try_from(moves.len().max(1)).unwrap_or(u32::MAX)),
        until: whole.until,
    };
    let jobs = crate::envelope::pipeline::threads(settings.jobs);
    let (judged, _) = split::judge_split::<G>(pos, depth, budget, settings.table_mib, jobs);
    let kept = best_moves::<G>(&judged, &moves);
    let values = judged.turns.iter().zip(&moves).filter_map(|(v, m)| {
        let text = written::<G>(m);
        kept.contains(&text)
            .then(|| (text, v.unwrap_or(Value::Unknown)))
    });
    let moves_kept: Vec<(String, Value)> = values.collect();
    let estimate = match moves_kept.is_empty() {
        true => {
            let mut rng = stream(settings.seed, G::key(pos));
            let lost = proven_lost(&judged);
            let e =
                Tree::default().estimate::<G>(pos, settings.playouts, whole.until, &lost, &mut rng);
            e.and_then(|e| Some((written::<G>(moves.get(e.best?)?), e.win)))
        }
        false => None,
    };
    Best {
        depth,
        value: judged.value,
        moves: moves_kept,
        estimate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamerec_rules::game::Side;

    #[test]
    fn an_annotation_reads_back_as_written() {
        let mut p = ply(3, Value::Win(3), Some(Value::Loss(2)));
        p.marks = vec![Mark::MissedWin, Mark::Blunder];
        p.best = vec!["c7-c9".into(), "(0,-8)-(-2,-4)".into()];
        p.chance_after = Some(0.125);
        let a = Annotation::of(&p);
        let c = a.comment().unwrap();
        assert_eq!(
            c,
            "[%value L2] [%win 0.125] [%mark missed-win,blunder] [%best c7-c9 (0,-8)-(-2,-4)]"
        );
        assert_eq!(Annotation::read([c.as_str()]), a);
        assert_eq!(a.assessment(), Some(Assessment::Blunder));
        // Best moves are written only where a proven mark says the move
        // was wrong; an unknown value is not written.
        let mut q = ply(4, Value::Win(1), None);
        q.best = vec!["a1-a2".into()];
        q.marks = vec![Mark::OnlyMove];
        assert_eq!(Annotation::of(&q).comment().unwrap(), "[%mark only-move]");
        assert_eq!(Annotation::of(&q).assessment(), Some(Assessment::Good));
        assert_eq!(
            Annotation::of(&ply(5, Value::Unknown, None)).comment(),
            None
        );
    }

    #[test]
    fn values_short_spelling_reads_back() {
        for v in [Value::Win(0), Value::Win(12), Value::Loss(3), Value::Draw] {
            assert_eq!(Value::from_short(&v.short().unwrap()), Some(v));
        }
        for bad in ["", "W", "X3", "D1", "W-1", "L1234", "w3"] {
            assert_eq!(Value::from_short(bad), None, "{bad}");
        }
    }

    fn ply(ply: usize, before: Value, after: Option<Value>) -> PlyAnalysis {
        PlyAnalysis {
            ply,
            number: 1,
            second: false,
            turn: String::new(),
            span: Span::default(),
            side: Side::First,
            before,
            after,
            best: Vec::new(),
            estimate_best: None,
            chance: None,
            chance_after: None,
            chance_playouts: None,
            chance_after_playouts: None,
            marks: Vec::new(),
            nodes: 0,
            exhausted: false,
        }
    }

    #[test]
    fn a_move_that_leaves_a_win_or_a_lost_position_is_marked() {
        let marks = |b, a, x| turn_marks(b, a, x).collect::<Vec<_>>();
        assert_eq!(marks(Value::Win(3), Value::Win(2), false), []);
        assert_eq!(marks(Value::Win(3), Value::Draw, false), [Mark::MissedWin]);
        assert_eq!(
            marks(Value::Win(3), Value::Loss(4), false),
            [Mark::MissedWin, Mark::Blunder]
        );
        assert_eq!(
            marks(Value::Unknown, Value::Loss(2), false),
            [Mark::Blunder]
        );
        // Lost already, or nothing settled before the budget ran out.
        assert_eq!(marks(Value::Loss(3), Value::Loss(2), false), []);
        assert_eq!(marks(Value::Unknown, Value::Loss(2), true), []);
    }

    #[test]
    fn a_value_the_budget_left_unknown_is_taken_from_the_next_ply() {
        let mut out = vec![
            ply(4, Value::Win(3), None),
            ply(5, Value::Win(1), None),
            ply(7, Value::Loss(1), None),
        ];
        after_from_next(&mut out);
        // Ply 5's position is a win for its mover: ply 4's mover is lost.
        assert_eq!(out[0].after, Some(Value::Loss(1)));
        assert_eq!(out[0].marks, [Mark::MissedWin, Mark::Blunder]);
        // Ply 6 was not searched: ply 5's stays unknown.
        assert_eq!(out[1].after, None);
        assert!(out[1].marks.is_empty());
    }

    #[test]
    fn plies_read_as_ranges() {
        assert_eq!(Plies::parse("12-30"), Ok(Plies::Range(12, 30)));
        assert_eq!(Plies::parse("40-"), Ok(Plies::Range(40, usize::MAX)));
        assert_eq!(Plies::parse("7"), Ok(Plies::Range(7, 7)));
        assert!(Plies::parse("5-2").is_err());
        assert!(Plies::parse("0").is_err());
        assert!(Plies::Last(3).covers(8, 10) && !Plies::Last(3).covers(7, 10));
    }

    #[test]
    fn win_commands_agree_with_the_json_to_the_last_decimal() {
        // 73 of 600 plies differed by 0.001: `{:.3}` rounds the binary
        // value half to even, the JSON rounded half away from zero.
        for k in 0..=20_000 {
            let w = f64::from(k) / 20_000.0;
            let a = Annotation {
                win: Some(w),
                ..Annotation::default()
            };
            let text = a.comment().unwrap();
            let written: f64 = text
                .trim_start_matches("[%win ")
                .trim_end_matches(']')
                .parse()
                .unwrap();
            assert_eq!(written, round_chance(w), "{w}: {text}");
        }
    }

    #[test]
    fn the_largest_last_covers_every_ply_instead_of_wrapping_to_none() {
        assert!((1..=10).all(|p| Plies::Last(usize::MAX).covers(p, 10)));
        assert!(Plies::Last(10).covers(1, 10) && Plies::Last(11).covers(1, 10));
    }
}
