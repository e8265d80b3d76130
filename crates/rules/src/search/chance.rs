//! The win-chance estimate: Monte Carlo tree search (UCT) with random
//! playouts — the `gen` policy, every legal board move alike — generic over
//! the rules. An estimate, never a proof: where the exact search proves a
//! value, the value overrides it. Seeded: the same position, seed and
//! number of playouts give the same estimate on any thread.

use super::board_moves;
use crate::game::{Search, Side};
use crate::random::below;
use rand_core::Rng;
use std::time::Instant;

/// A playout still going after this many plies counts as half a win.
pub const PLAYOUT_PLIES: usize = 200;
/// The most playouts one position may be given (`--playouts`).
pub const MAX_PLAYOUTS: u32 = 10_000_000;
/// The most nodes the tree holds (32 bytes each: 32 MiB). Past it no node
/// is expanded: the playouts go on from the tree's leaves, so memory stays
/// bounded whatever the playouts and the width of the game.
pub const MAX_NODES: usize = 1 << 20;
/// UCB1's exploration constant (√2).
const EXPLORE: f64 = std::f64::consts::SQRT_2;

/// What the estimate found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chance {
    /// The side to move's chance of winning, a draw counting half.
    pub win: f64,
    /// The most visited board turn (its index in the generator's order).
    pub best: Option<usize>,
    /// The playouts run: those asked for, or fewer where the deadline
    /// came first.
    pub playouts: u32,
}

#[derive(Clone, Copy)]
struct Node {
    visits: u32,
    /// Wins of the side that moved into this node (draws count half).
    score: f64,
    /// The turn from the parent, by index in the parent's moves.
    turn: u32,
    first: u32,
    /// Children: `u32::MAX` until expanded.
    children: u32,
    /// Children visited at least once (they come first).
    tried: u32,
}

/// The tree's storage, reused from position to position.
#[derive(Default)]
pub struct Tree {
    nodes: Vec<Node>,
    /// The nodes of this iteration, each with the side that moved into it.
    path: Vec<(u32, Side)>,
}

/// The result of a playout for `side`: 1 won, 0 lost, ½ drawn or unsettled.
fn result_for(winner: Option<Side>, side: Side) -> f64 {
    match winner {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

impl Tree {
    /// The side to move's win chance in `root` after `playouts` playouts
    /// (at most [`MAX_PLAYOUTS`]), or as many as `until` leaves time for
    /// (`None` when the rules have ended the game, there is no board move,
    /// or no playout was run).
    /// `lost[i]`: board turn `i` (in the generator's order) is proven to
    /// lose; the root never plays it, so the estimate neither recommends
    /// nor counts a move a proof refutes (an empty `lost`: none is).
    pub fn estimate<G: Search>(
        &mut self,
        root: &G::Position,
        playouts: u32,
        until: Option<Instant>,
        lost: &[bool],
        rng: &mut impl Rng,
    ) -> Option<Chance> {
        let playouts = playouts.min(MAX_PLAYOUTS);
        if playouts == 0 || G::ending(root).is_some() {
            return None;
        }
        self.nodes.clear();
        self.nodes.push(Node {
            visits: 0,
            score: 0.0,
            turn: 0,
            first: 0,
            children: u32::MAX,
            tried: 0,
        });
        let (mut pos, mut moves) = (root.clone(), Vec::new());
        let mover = G::side_to_move(root);
        let mut won = 0.0;
        let mut run = 0;
        while run < playouts {
            if until.is_some_and(|u| Instant::now() >= u) {
                break;
            }
            run += 1;
            pos.clone_from(root);
            let winner = self.descend::<G>(&mut pos, &mut moves, lost, rng);
            won += result_for(winner, mover);
            self.back_up(winner);
        }
        let root = self.nodes[0];
        if run == 0 || root.children == 0 || root.children == u32::MAX {
            return None;
        }
        let kids = &self.nodes[root.first as usize..(root.first + root.children) as usize];
        let best = kids
            .iter()
            .max_by_key(|n| n.visits)
            .map(|n| n.turn as usize);
        Some(Chance {
            win: won / f64::from(run),
            best,
            playouts: run,
        })
    }

    /// One iteration: selection and expansion down the tree, then a random
    /// playout; returns the winner (`None`: drawn or unsettled).
    fn descend<G: Search>(
        &mut self,
        pos: &mut G::Position,
        moves: &mut Vec<G::Move>,
        lost: &[bool],
        rng: &mut impl Rng,
    ) -> Option<Side> {
        self.path.clear();
        let (mut at, mut into) = (0u32, G::side_to_move(pos).other());
        loop {
            self.path.push((at, into));
            if let Err(winner) = turns::<G>(pos, moves) {
                return winner;
            }
            let node = self.nodes[at as usize];
            if node.children == u32::MAX {
                if self.nodes.len() + moves.len() > MAX_NODES {
                    // The tree is full: a random playout from this leaf.
                    return playout::<G>(pos, moves, rng);
                }
                let root_lost = if at == 0 { lost } else { &[] };
                self.expand(at, moves.len(), root_lost);
            }
            if self.nodes[at as usize].children == 0 {
                // Every turn is lost: nothing to choose.
                return None;
            }
            let child = self.select(at, rng);
            let turn = self.nodes[child as usize].turn as usize;
            into = G::side_to_move(pos);
            if G::play_generated(pos, &moves[turn]).is_err() {
                return None;
            }
            at = child;
            if node.children == u32::MAX || self.nodes[child as usize].visits == 0 {
                self.path.push((child, into));
                return playout::<G>(pos, moves, rng);
            }
        }
    }

    /// Gives node `at` a child per turn of its `n`, less those `lost`.
    fn expand(&mut self, at: u32, n: usize, lost: &[bool]) {
        let first = self.nodes.len();
        let kept = (0..n as u32).filter(|&t| !lost.get(t as usize).copied().unwrap_or(false));
        self.nodes.extend(kept.map(|turn| Node {
            visits: 0,
            score: 0.0,
            turn,
            first: 0,
            children: u32::MAX,
            tried: 0,
        }));
        let children = (self.nodes.len() - first) as u32;
        let node = &mut self.nodes[at as usize];
        node.first = first as u32;
        node.children = children;
    }

    /// An untried child picked at random (moved to the tried ones), or
    /// the tried child with the best UCB1.
    fn select(&mut self, at: u32, rng: &mut impl Rng) -> u32 {
        let node = self.nodes[at as usize];
        if node.tried < node.children {
            let pick = node.tried + below(rng, (node.children - node.tried) as usize) as u32;
            self.nodes.swap(
                (node.first + node.tried) as usize,
                (node.first + pick) as usize,
            );
            self.nodes[at as usize].tried += 1;
            return node.first + node.tried;
        }
        let ln = f64::from(node.visits.max(1)).ln();
        (node.first..node.first + node.children)
            .max_by(|&a, &b| {
                let ucb = |i: u32| {
                    let n = self.nodes[i as usize];
                    let v = f64::from(n.visits.max(1));
                    n.score / v + EXPLORE * (ln / v).sqrt()
                };
                ucb(a).total_cmp(&ucb(b))
            })
            .unwrap_or(node.first)
    }

    /// Adds the result to every node of the path, for the side that moved
    /// into it.
    fn back_up(&mut self, winner: Option<Side>) {
        for &(i, side) in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.score += result_for(winner, side);
        }
    }
}

/// The board turns of `pos` in `moves`; `Err` with the winner (`None`:
/// drawn or unsettled) where play has stopped.
fn turns<G: Search>(pos: &G::Position, moves: &mut Vec<G::Move>) -> Result<(), Option<Side>> {
    if let Some(e) = G::ending(pos) {
        return Err(e.winner.filter(|_| e.decided));
    }
    moves.clear();
    board_moves::<G>(pos, moves);
    match moves.is_empty() {
        true => Err(None),
        false => Ok(()),
    }
}

/// Random board moves until the rules end the game or
/// [`PLAYOUT_PLIES`] are played.
fn playout<G: Search>(
    pos: &mut G::Position,
    moves: &mut Vec<G::Move>,
    rng: &mut impl Rng,
) -> Option<Side> {
    for _ in 0..PLAYOUT_PLIES {
        if let Err(winner) = turns::<G>(pos, moves) {
            return winner;
        }
        let mv = &moves[below(rng, moves.len())];
        if G::play_generated(pos, mv).is_err() {
            return None;
        }
    }
    G::ending(pos).and_then(|e| e.winner.filter(|_| e.decided))
}
