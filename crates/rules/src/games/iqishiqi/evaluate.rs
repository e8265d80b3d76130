//! Iqishiqi's evaluation: what a player looks at — how near the neutral
//! stone is to each side's edges, whether each side could win at once
//! (a corner, its own edge, or the other side left no move) — weighed by
//! the weights fitted from random self-play games (`eval.weights`, remade
//! as its header says). The stones are both sides' alike, so each side
//! has the same turns: how many is no feature.

use super::geometry::{Edge, RADIUS};
use super::{Iqishiqi, Position};
use crate::game::{after_each_turn, Evaluate, Rules, Search, Side};

impl Evaluate for Iqishiqi {
    const FEATURES: &'static [&'static str] = &["edge_nearness", "wins_now", "their_wins_now"];

    const WEIGHTS: &'static str = include_str!("eval.weights");

    fn features(pos: &Position, out: &mut [f64]) {
        let me = pos.to_move;
        let mut turned = pos.clone();
        turned.to_move = me.other();
        let values = [
            nearest(pos, me.other()) - nearest(pos, me),
            wins_at_once(pos),
            wins_at_once(&turned),
        ];
        out.copy_from_slice(&values);
    }
}

/// How many cells the neutral stone is from the nearest of `side`'s
/// edges.
fn nearest(pos: &Position, side: Side) -> f64 {
    let (q, r, radius) = (pos.neutral.q, pos.neutral.r, RADIUS);
    let distance = |e: Edge| match e {
        Edge::N => radius - r,
        Edge::S => r + radius,
        Edge::SW => q + radius,
        Edge::NE => radius - q,
        Edge::SE => radius - (q - r),
        Edge::NW => (q - r) + radius,
    };
    let edges = [Edge::N, Edge::NE, Edge::SE, Edge::S, Edge::SW, Edge::NW];
    let d = edges
        .into_iter()
        .filter(|e| e.owner() == side)
        .map(distance)
        .min();
    f64::from(d.unwrap_or(0))
}

/// Whether a turn of the side to move wins at once (1 or 0), as if it
/// were to move.
fn wins_at_once(pos: &Position) -> f64 {
    if let Some(wins) = <Iqishiqi as Search>::wins_at_once(pos) {
        return f64::from(u8::from(wins));
    }
    let me = pos.to_move;
    let mut wins = false;
    after_each_turn::<Iqishiqi>(pos, &mut |after| {
        wins |= !wins && Iqishiqi::ending(after).is_some_and(|e| e.winner == Some(me));
    });
    f64::from(u8::from(wins))
}
