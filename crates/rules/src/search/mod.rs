//! The exact search: what the side to move can force within a horizon of N
//! plies, over any game's rules ([`crate::game::Search`]), knowing no game.
//!
//! A position's value within horizon N is
//! - `win d`: the side to move can force a win, the game ending d plies on
//!   (the winner hurrying, the loser delaying), d ≤ N;
//! - `loss d`: the other side can;
//! - `draw`: both sides can force the game to end drawn within N whatever
//!   lies beyond the horizon — so the value is exactly a draw;
//! - `unknown`: none of these is proven within N plies (or the budget ran
//!   out).
//!
//! Only board moves are searched (an agreement is not a forced outcome),
//! and a position where play stops with no result counts as beyond the
//! horizon. The search is a negamax alpha-beta over scores with iterative
//! deepening and a transposition table: a win at ply p of the search scores
//! `WIN - p`, a draw 0, and a position at the horizon `+1` or `-1`, as good
//! as possible for one side or for the other. Every search has a null
//! window: with nothing proven at horizon d - 1, a win or a loss at d is
//! one exactly d plies away, so each search asks a yes-or-no question — a
//! win is the mover above 0 even with every open line its loss, a loss is
//! it below 0 even with every open line its win, a draw is neither side
//! above 0 with the open lines its own. A value proven at a shorter
//! horizon is the value at every longer one, so deepening stops at the
//! first proof. When the budget runs out the answer is `unknown`, never a
//! guess.

pub mod chance;
pub mod split;
mod table;

pub use table::{fits, Bound, Entry, Table, MAX_MIB};

use crate::game::{Outcome, Search, Side};
use std::time::{Duration, Instant};

/// The score of a win at ply 0.
const WIN: i32 = 1 << 20;
/// The longest horizon.
pub const MAX_DEPTH: u32 = 64;
const DECISIVE: i32 = WIN - MAX_DEPTH as i32 - 1;
const INF: i32 = WIN + 1;
/// The clock is read every this many nodes (a power of two): often enough
/// that a position whose every node generates thousands of turns (a wide
/// Roshi board) still stops within a few percent of its time.
const CLOCK_EVERY: u64 = 16;

/// A position's value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(u32),
    Loss(u32),
    Draw,
    Unknown,
}

impl Value {
    /// The value for the other side of the same position.
    pub fn flip(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Loss(d) => Value::Win(d),
            v => v,
        }
    }

    /// `win`, `loss`, `draw` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
            Value::Unknown => "unknown",
        }
    }

    /// The plies to the end, for a win or a loss.
    pub fn distance(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            _ => None,
        }
    }

    pub fn is_proven(self) -> bool {
        self != Value::Unknown
    }

    /// In words, for the side to move (named `side`, its opponent
    /// `other`): `Red wins in 3`, `White has won`, `a draw`, `nothing
    /// proven`.
    pub fn in_words(self, side: &str, other: &str) -> String {
        match self {
            Value::Win(0) => format!("{side} has won"),
            Value::Loss(0) => format!("{other} has won"),
            Value::Win(d) => format!("{side} wins in {d}"),
            Value::Loss(d) => format!("{other} wins in {d}"),
            Value::Draw => "a draw".to_string(),
            Value::Unknown => "nothing proven".to_string(),
        }
    }

    /// As an annotated record writes it: `W3`, `L0`, `D` (`None` for
    /// unknown).
    pub fn short(self) -> Option<String> {
        match self {
            Value::Win(d) => Some(format!("W{d}")),
            Value::Loss(d) => Some(format!("L{d}")),
            Value::Draw => Some("D".into()),
            Value::Unknown => None,
        }
    }

    /// [`Value::short`]'s spelling read back.
    pub fn from_short(text: &str) -> Option<Value> {
        let distance = |d: &str| {
            (!d.is_empty() && d.len() <= 3 && d.bytes().all(|b| b.is_ascii_digit()))
                .then(|| d.parse().ok())
                .flatten()
        };
        match text.as_bytes().first()? {
            b'W' => distance(&text[1..]).map(Value::Win),
            b'L' => distance(&text[1..]).map(Value::Loss),
            b'D' if text.len() == 1 => Some(Value::Draw),
            _ => None,
        }
    }
}

/// How much one position may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Positions visited, at most (`None`: no cap).
    pub nodes: Option<u64>,
    /// Time, at most, from when a search starts.
    pub time: Option<Duration>,
    /// A moment no search goes past, whenever it starts: the deadline
    /// that several searches of one position share (`moves --best` shares
    /// a position's time among its turns, each also held to the whole).
    pub until: Option<Instant>,
}

impl Budget {
    pub const UNLIMITED: Budget = Budget {
        nodes: None,
        time: None,
        until: None,
    };

    /// This budget with its time counted from now: `until` becomes the
    /// earlier of itself and now + `time`.
    pub fn from_now(self) -> Budget {
        let ends = self.time.and_then(|t| Instant::now().checked_add(t));
        Budget {
            until: match (self.until, ends) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            ..self
        }
    }

    /// Whether `until` has passed.
    pub fn is_over(&self) -> bool {
        self.until.is_some_and(|u| Instant::now() >= u)
    }

    /// The longest time a position may be given, in seconds (a week).
    pub const MAX_SECONDS: f64 = 604_800.0;

    /// A time budget from seconds, as `--time` and Python's `time=` take
    /// it: above 0 and at most [`Budget::MAX_SECONDS`].
    pub fn seconds(s: f64) -> Result<Duration, String> {
        if s > 0.0 && s <= Self::MAX_SECONDS {
            Ok(Duration::from_secs_f64(s))
        } else {
            Err(format!(
                "give seconds above 0 and at most {} (a week)",
                Self::MAX_SECONDS
            ))
        }
    }
}

/// What a search counts the horizon as: +1 for the side named, -1 for the
/// other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Favours(Side);

impl Favours {
    fn salt(self) -> u64 {
        match self.0 {
            Side::First => 0x9e37_79b9_7f4a_7c15,
            Side::Second => 0xc2b2_ae3d_27d4_eb4f,
        }
    }

    fn leaf(self, mover: Side) -> i32 {
        match self.0 == mover {
            true => 1,
            false => -1,
        }
    }
}

/// One ply's storage, reused from search to search: the position a child
/// is played into (the turns themselves are never stored: each is played
/// as the generator makes it).
struct Frame<G: Search> {
    next: Option<G::Position>,
}

impl<G: Search> Default for Frame<G> {
    fn default() -> Self {
        Frame { next: None }
    }
}

/// Where a node's children stand while they are searched.
struct Scan {
    best: i32,
    best_i: usize,
    alpha: i32,
    beta: i32,
    /// The highest score a child can have: a win on the next ply.
    ceiling: i32,
    /// A board turn was generated.
    any: bool,
    /// Stop: a cutoff, a win on the next ply, or the budget.
    done: bool,
}

/// A searcher for game `G`: its table and its per-ply storage, reused for
/// every position it is asked about (nothing is allocated per node once the
/// deepest ply has been reached once).
pub struct Searcher<'t, G: Search> {
    table: &'t mut Table,
    frames: Vec<Frame<G>>,
    horizon: Favours,
    /// Positions visited since the searcher was made.
    pub nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Whether the budget ran out while the last `judge` searched its root.
    root_stopped: bool,
    salt: u64,
}

/// A position's value within a horizon and its draw bounds there, for its
/// side to move: whether that side cannot do better than a draw even with
/// every line the horizon leaves open counted its win (`caps`), and whether
/// it gets at least a draw even with every such line counted its loss
/// (`secures`). A draw is exactly both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// `None`: the budget ran out.
    pub value: Option<Value>,
    pub caps: bool,
    pub secures: bool,
}

impl Bounds {
    /// The value of a position from its turns' bounds (each the position
    /// after the turn, for the other side), within a horizon one longer:
    /// a win where a turn leaves the other side lost (the nearest), a loss
    /// where every turn leaves it winning (the farthest), a draw where a
    /// turn caps the other side at a draw and every turn lets it secure
    /// one — exactly what the search proves; `unknown` otherwise.
    pub fn root(turns: &[Bounds]) -> Value {
        let lost = turns.iter().filter_map(|b| match b.value {
            Some(Value::Loss(d)) => Some(d),
            _ => None,
        });
        if let Some(d) = lost.min() {
            return Value::Win(d + 1);
        }
        let won: Option<Vec<u32>> = (turns.iter())
            .map(|b| match b.value {
                Some(Value::Win(d)) => Some(d),
                _ => None,
            })
            .collect();
        match won.and_then(|w| w.into_iter().max()) {
            Some(d) => Value::Loss(d + 1),
            None if turns.iter().any(|b| b.caps) && turns.iter().all(|b| b.secures) => Value::Draw,
            None => Value::Unknown,
        }
    }
}

/// The exact value of each turn, from the side to move's view (`None` where
/// the budget ran out), and the position's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    pub value: Value,
    /// Per legal board turn, in the generator's order.
    pub turns: Vec<Option<Value>>,
}

impl<'t, G: Search> Searcher<'t, G> {
    pub fn new(table: &'t mut Table) -> Self {
        Searcher {
            table,
            frames: Vec::new(),
            horizon: Favours(Side::First),
            nodes: 0,
            limit: u64::MAX,
            deadline: None,
            stopped: false,
            root_stopped: false,
            salt: crate::game::key_of(G::NAME),
        }
    }

    /// Salts every key with `n` as well: entries written under another
    /// salt are never read (a game's search does not see another's).
    pub fn salt_with(&mut self, n: u64) {
        self.salt = crate::game::key_of(&(G::NAME, n));
    }

    /// Whether the budget ran out while the last [`Searcher::judge`]
    /// searched the position itself (its `unknown` then says nothing).
    pub fn exhausted_root(&self) -> bool {
        self.root_stopped
    }

    fn arm(&mut self, budget: Budget) {
        self.limit = budget
            .nodes
            .map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.deadline = budget.from_now().until;
        // A deadline already past stops the search at its first node.
        self.stopped = self.deadline.is_some_and(|d| Instant::now() >= d);
    }

    /// The value of `pos` for the side to move within `depth` plies.
    pub fn value(&mut self, pos: &G::Position, depth: u32, budget: Budget) -> Value {
        self.arm(budget);
        self.deepen(pos, depth.min(MAX_DEPTH))
    }

    /// The value of `pos` and of each of its board turns (the value of the
    /// position after it, for the side that played it), each within
    /// `depth` plies of `pos`, under one budget.
    pub fn judge(&mut self, pos: &G::Position, depth: u32, budget: Budget) -> Judged {
        self.arm(budget);
        let depth = depth.min(MAX_DEPTH);
        let value = self.deepen(pos, depth);
        self.root_stopped = self.stopped;
        let mut moves = Vec::new();
        board_moves::<G>(pos, &mut moves);
        let mut next = pos.clone();
        let mut turns = Vec::with_capacity(moves.len());
        for mv in &moves {
            next.clone_from(pos);
            let v = match G::play_generated(&mut next, mv) {
                Err(_) => Some(Value::Unknown),
                Ok(()) => match self.deepen(&next, depth.saturating_sub(1)) {
                    _ if self.stopped => None,
                    v => Some(v.flip()),
                },
            };
            turns.push(v);
        }
        Judged { value, turns }
    }

    /// The value of `pos` within `depth` plies and its draw bounds there:
    /// what a split root asks of each of its turns ([`split::judge_split`]).
    pub fn bounds(&mut self, pos: &G::Position, depth: u32, budget: Budget) -> Bounds {
        const CUT: Bounds = Bounds {
            value: None,
            caps: false,
            secures: false,
        };
        self.arm(budget);
        let depth = depth.min(MAX_DEPTH);
        let value = self.deepen(pos, depth);
        if self.stopped {
            return CUT;
        }
        let (caps, secures) = match value {
            Value::Draw => (true, true),
            Value::Win(_) => (false, true),
            Value::Loss(_) => (true, false),
            // An ending the rules leave open, or the horizon: beyond it.
            Value::Unknown if depth == 0 || G::ending(pos).is_some() => (false, false),
            Value::Unknown => {
                let mover = G::side_to_move(pos);
                self.horizon = Favours(mover);
                let best_for_mover = self.negamax(pos, depth, 0, 0, 1);
                self.horizon = Favours(mover.other());
                let worst_for_mover = self.negamax(pos, depth, 0, -1, 0);
                if self.stopped {
                    return CUT;
                }
                (best_for_mover <= 0, worst_for_mover >= 0)
            }
        };
        Bounds {
            value: Some(value),
            caps,
            secures,
        }
    }

    /// Deepens one ply at a time to `depth`, stopping at the first proof.
    /// At horizon d, with nothing proven at d - 1, a win or a loss can only
    /// be one d plies away, so no search needs the exact score: each asks
    /// one question with a null window (fail-soft, so a bound that answers
    /// another question is taken too). The horizon counted as the mover's
    /// (`Favours(mover)`) or the other's bounds the search for wins and
    /// losses on either side: a loss is the mover below 0 even with every
    /// open line its win, a win is it above 0 even with every open line
    /// its loss.
    ///
    /// Most positions prove nothing, and two searches at the full horizon
    /// say so first: a win, a loss or a draw at a shorter horizon is one at
    /// the full horizon too, so no win there and the mover above 0 even
    /// with every open line its win is nothing proven at any horizon. Only
    /// a position these leave open is deepened, with no question of a win
    /// where the first found none.
    fn deepen(&mut self, pos: &G::Position, depth: u32) -> Value {
        if let Some(v) = self.terminal(pos) {
            return v;
        }
        let mover = G::side_to_move(pos);
        let mut may_win = true;
        if depth > 1 {
            self.horizon = Favours(mover.other());
            may_win = self.negamax(pos, depth, 0, 0, 1) >= 1;
            if self.stopped {
                return Value::Unknown;
            }
            if !may_win {
                self.horizon = Favours(mover);
                let best_for_mover = self.negamax(pos, depth, 0, 0, 1);
                if self.stopped || best_for_mover >= 1 {
                    return Value::Unknown;
                }
            }
        }
        for d in 1..=depth {
            if let Some(v) = self.prove_at(pos, d, may_win) {
                return v;
            }
            if self.stopped {
                return Value::Unknown;
            }
        }
        Value::Unknown
    }

    /// What the searches at horizon `d` prove of `pos` (nothing proven at
    /// d - 1; `may_win`: a win is not ruled out); `None` where they prove
    /// nothing or the budget ran out.
    fn prove_at(&mut self, pos: &G::Position, d: u32, may_win: bool) -> Option<Value> {
        let mover = G::side_to_move(pos);
        // A win: above 0 with the open lines the other's.
        if may_win {
            self.horizon = Favours(mover.other());
            let s = self.negamax(pos, d, 0, 0, 1);
            if self.stopped {
                return None;
            }
            if s >= 1 {
                return Some(Value::Win(d));
            }
        }
        // Above 0 with the open lines the mover's: neither a loss nor a
        // draw (a fail-soft bound below 0 is a loss already).
        self.horizon = Favours(mover);
        let best_for_mover = self.negamax(pos, d, 0, 0, 1);
        if self.stopped || best_for_mover >= 1 {
            return None;
        }
        if best_for_mover <= -1 {
            return Some(Value::Loss(d));
        }
        // Capped at a draw: secured too, or lost?
        self.horizon = Favours(mover.other());
        let worst_for_mover = self.negamax(pos, d, 0, -1, 0);
        if self.stopped {
            return None;
        }
        if worst_for_mover >= 0 {
            return Some(Value::Draw);
        }
        self.horizon = Favours(mover);
        let lost = self.negamax(pos, d, 0, -1, 0) <= -1;
        (lost && !self.stopped).then_some(Value::Loss(d))
    }

    /// The value of a position where the rules have ended the game.
    fn terminal(&self, pos: &G::Position) -> Option<Value> {
        let ending = G::ending(pos)?;
        Some(match (ending.decided, ending.winner) {
            (false, _) => Value::Unknown,
            (true, None) => Value::Draw,
            (true, Some(w)) if w == G::side_to_move(pos) => Value::Win(0),
            (true, Some(_)) => Value::Loss(0),
        })
    }

    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limit {
            self.stopped = true;
        } else if self.nodes & (CLOCK_EVERY - 1) == 0 {
            if let Some(d) = self.deadline {
                self.stopped = Instant::now() >= d;
            }
        }
        self.stopped
    }

    fn negamax(&mut self, pos: &G::Position, depth: u32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        let mover = G::side_to_move(pos);
        if let Some(e) = G::ending(pos) {
            return match (e.decided, e.winner) {
                (false, _) => self.horizon.leaf(mover),
                (true, None) => 0,
                (true, Some(w)) if w == mover => WIN - ply as i32,
                (true, Some(_)) => ply as i32 - WIN,
            };
        }
        if depth == 0 {
            return self.horizon.leaf(mover);
        }
        if let Some(s) = (depth == 1)
            .then(|| self.at_once(pos, ply, alpha))
            .flatten()
        {
            return s;
        }
        // A position one ply above the horizon is not looked up nor stored:
        // its children are only played and judged, cheaper than a probe
        // that misses the cache (a quarter of the search's time when it
        // was done everywhere).
        let tabled = depth > 1;
        let key = match tabled {
            true => (G::key(pos) ^ self.salt ^ self.horizon.salt()) | 1,
            false => 0,
        };
        let mut first = usize::MAX;
        if let Some(e) = tabled.then(|| self.table.get(key)).flatten() {
            if let Some(s) = usable(e, depth, ply, alpha, beta) {
                return s;
            }
            first = usize::from(e.best);
        }
        if self.frames.len() <= ply {
            self.frames.resize_with(ply + 1, Frame::default);
        }
        let mut next = match self.frames[ply].next.take() {
            Some(next) => next,
            None => pos.clone(),
        };
        let scan = self.children(pos, &mut next, first, depth, ply, (alpha, beta));
        self.frames[ply].next = Some(next);
        if !scan.any {
            // No board move, and the rules have not ended the game: play
            // stops (or only an agreement is left), beyond the horizon.
            return self.horizon.leaf(mover);
        }
        let (best, best_i) = (scan.best, scan.best_i);
        if self.stopped {
            return 0;
        }
        let bound = match best {
            b if b >= beta => Bound::Lower,
            b if b <= alpha => Bound::Upper,
            _ => Bound::Exact,
        };
        if best == -INF {
            // The rules refused every generated turn: beyond the horizon.
            return self.horizon.leaf(mover);
        }
        if !tabled {
            return best;
        }
        self.table.put(Entry {
            key,
            score: to_entry(best, ply),
            depth: depth as u8,
            bound,
            best: u16::try_from(best_i).unwrap_or(u16::MAX),
        });
        best
    }

    /// At the last ply a turn scores a win at once, a draw (0) or the
    /// horizon: where only a win would lift the score above alpha, a game
    /// that can tell whether there is one is asked instead of its turns
    /// (no win: the score is at most the other two, a bound below alpha,
    /// as a failing search returns). `None`: search the turns.
    fn at_once(&self, pos: &G::Position, ply: usize, alpha: i32) -> Option<i32> {
        let most = self.horizon.leaf(G::side_to_move(pos)).max(0);
        match (most <= alpha).then(|| G::wins_at_once(pos)).flatten()? {
            false => Some(most),
            true => Some(WIN - (ply as i32 + 1)),
        }
    }

    /// Searches `pos`'s board turns, each played into `next` as the
    /// generator makes it, so that a cutoff stops the generation too: the
    /// table's turn `first` (the index among the board turns) by a
    /// generation that stops there, then the others in the generator's
    /// order. Nothing stored per turn; the same turns visited in the same
    /// order as searching a list of them would.
    fn children(
        &mut self,
        pos: &G::Position,
        next: &mut G::Position,
        first: usize,
        depth: u32,
        ply: usize,
        (alpha, beta): (i32, i32),
    ) -> Scan {
        let mut scan = Scan {
            best: -INF,
            best_i: first,
            alpha,
            beta,
            ceiling: WIN - (ply as i32 + 1),
            any: false,
            done: false,
        };
        let mut tried_first = false;
        if first != usize::MAX {
            let mut i = 0;
            G::generate(pos, &mut |m| {
                if G::agreement(&m) {
                    return true;
                }
                if i < first {
                    i += 1;
                    return true;
                }
                tried_first = true;
                self.child(pos, next, &m, i, depth, ply, &mut scan);
                false
            });
        }
        if scan.done {
            return scan;
        }
        let mut i = 0;
        G::generate(pos, &mut |m| {
            if G::agreement(&m) {
                return true;
            }
            let this = i;
            i += 1;
            if this != first || !tried_first {
                self.child(pos, next, &m, this, depth, ply, &mut scan);
            }
            !scan.done
        });
        scan
    }

    /// Plays turn `i`, `m`, of `pos` into `next` and searches it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        pos: &G::Position,
        next: &mut G::Position,
        m: &G::Move,
        i: usize,
        depth: u32,
        ply: usize,
        scan: &mut Scan,
    ) {
        scan.any = true;
        // At the last ply only the ending after a turn counts: a game that
        // can tell it without the turn played is asked (the turn still
        // counts as a position visited, for the budget).
        let told = match depth {
            1 => G::outcome_of(pos, m),
            _ => None,
        };
        let s = match told {
            Some(outcome) => {
                if self.out_of_budget() {
                    scan.done = true;
                    return;
                }
                let mover = G::side_to_move(pos);
                match outcome {
                    Outcome::Open => self.horizon.leaf(mover),
                    Outcome::Draw => 0,
                    Outcome::Win(w) if w == mover => WIN - (ply as i32 + 1),
                    Outcome::Win(_) => ply as i32 + 1 - WIN,
                }
            }
            None => {
                next.clone_from(pos);
                if G::play_generated(next, m).is_err() {
                    return;
                }
                let s = -self.negamax(next, depth - 1, ply + 1, -scan.beta, -scan.alpha);
                if self.stopped {
                    scan.done = true;
                    return;
                }
                s
            }
        };
        if s > scan.best {
            (scan.best, scan.best_i) = (s, i);
            scan.alpha = scan.alpha.max(s);
            // A cutoff; or a win on the next ply, which no turn can beat.
            scan.done = s >= scan.beta || s >= scan.ceiling;
        }
    }
}

/// The legal turns that are moves on the board, in the generator's order.
pub fn board_moves<G: Search>(pos: &G::Position, out: &mut Vec<G::Move>) {
    G::generate(pos, &mut |m| {
        if !G::agreement(&m) {
            out.push(m);
        }
        true
    });
}

/// A score as stored: a win's distance from the entry's position.
fn to_entry(s: i32, ply: usize) -> i32 {
    match s {
        s if s > DECISIVE => s + ply as i32,
        s if s < -DECISIVE => s - ply as i32,
        s => s,
    }
}

fn from_entry(s: i32, ply: usize) -> i32 {
    match s {
        s if s > DECISIVE => s - ply as i32,
        s if s < -DECISIVE => s + ply as i32,
        s => s,
    }
}

/// An entry's score where it answers a search to `depth` at `ply` with the
/// window (alpha, beta): one searched to the same horizon, or an exact win
/// or loss no further away than the horizon (the same at every horizon that
/// reaches it).
fn usable(e: &Entry, depth: u32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_entry(e.score, ply);
    let reach = WIN - e.score.abs();
    let same = u32::from(e.depth) == depth
        || (e.bound == Bound::Exact && e.score.abs() > DECISIVE && reach as u32 <= depth);
    if !same {
        return None;
    }
    match e.bound {
        Bound::Exact => Some(s),
        Bound::Lower if s >= beta => Some(s),
        Bound::Upper if s <= alpha => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Bounds, Value};

    fn b(value: Option<Value>, caps: bool, secures: bool) -> Bounds {
        Bounds {
            value,
            caps,
            secures,
        }
    }

    #[test]
    fn a_root_is_put_together_from_its_turns_as_minimax_does() {
        let draw = b(Some(Value::Draw), true, true);
        let won = |d| b(Some(Value::Win(d)), false, true);
        let lost = |d| b(Some(Value::Loss(d)), true, false);
        let open = |caps, secures| b(Some(Value::Unknown), caps, secures);
        let cut = b(None, false, false);
        // A turn that leaves the other side lost: the nearest wins.
        assert_eq!(
            Bounds::root(&[won(1), lost(4), lost(2), cut]),
            Value::Win(3)
        );
        // Every turn leaves it winning: the farthest.
        assert_eq!(Bounds::root(&[won(1), won(5)]), Value::Loss(6));
        assert_eq!(Bounds::root(&[won(1), cut]), Value::Unknown);
        // A draw: one turn holds the other side to a draw, none lets it
        // do worse than one for sure… (an open turn where it at least
        // draws keeps the draw; one where it may lose does not).
        assert_eq!(Bounds::root(&[won(2), draw]), Value::Draw);
        assert_eq!(Bounds::root(&[open(false, true), draw]), Value::Draw);
        assert_eq!(
            Bounds::root(&[open(true, false), open(false, true)]),
            Value::Unknown
        );
        assert_eq!(Bounds::root(&[draw, open(false, false)]), Value::Unknown);
        assert_eq!(Bounds::root(&[draw, cut]), Value::Unknown);
        assert_eq!(Bounds::root(&[]), Value::Unknown);
    }

    use super::*;

    #[test]
    fn values_flip_to_the_other_sides() {
        assert_eq!(Value::Win(2).flip(), Value::Loss(2));
        assert_eq!(Value::Draw.flip(), Value::Draw);
    }

    #[test]
    fn stored_wins_count_from_their_own_position() {
        // A win 5 plies from the root found at ply 2 is a win in 3 from
        // there, and reads back as 5 at ply 2 and as 4 at ply 1.
        let s = WIN - 5;
        let stored = to_entry(s, 2);
        assert_eq!(stored, WIN - 3);
        assert_eq!(from_entry(stored, 2), s);
        assert_eq!(from_entry(stored, 1), WIN - 4);
        assert_eq!(from_entry(to_entry(-s, 2), 2), -s);
    }
}
