//! Oshi's evaluation: what a player counts — the points each side has
//! (the stories each has on the board follow from them: a side's
//! pieces pushed off are the other side's points), the stories each has on
//! the rim (one push from leaving) and on the ring inside it (two), the
//! most points one move could win each side now, and how many moves each
//! has — weighed by the weights fitted from random self-play games
//! (`eval.weights`, remade as its header says).

use super::{Oshi, Position};
use crate::game::{after_each_turn, Evaluate, Side};

impl Evaluate for Oshi {
    const FEATURES: &'static [&'static str] = &[
        "points",
        "rim_stories",
        "inner_ring_stories",
        "best_push",
        "their_best_push",
        "mobility",
    ];

    const WEIGHTS: &'static str = include_str!("eval.weights");

    fn features(pos: &Position, out: &mut [f64]) {
        let me = pos.to_move;
        let sign = |owner: Side| if owner == me { 1.0 } else { -1.0 };
        // By ring: 0 the rim, 1 the ring inside it.
        let mut rings = [0.0; 2];
        for (i, piece) in pos.board.iter().enumerate() {
            let Some(t) = piece else { continue };
            let (file, rank) = (i % 9, i / 9);
            let ring = file.min(8 - file).min(rank).min(8 - rank);
            if let Some(r) = rings.get_mut(ring) {
                *r += sign(t.owner) * f64::from(t.height);
            }
        }
        let mut theirs = pos.clone();
        theirs.to_move = me.other();
        let (best, mine) = best_push(pos);
        let (their_best, their_moves) = best_push(&theirs);
        let values = [
            f64::from(pos.score[me.index()]) - f64::from(pos.score[me.other().index()]),
            rings[0],
            rings[1],
            best,
            their_best,
            mine - their_moves,
        ];
        out.copy_from_slice(&values);
    }
}

/// The most the side to move's score can gain on the other's with one
/// move (0 where no move pushes a piece off to its good), and how many
/// moves it has. The other side's is asked of the same board with the
/// turn handed over, as if it were to move.
fn best_push(pos: &Position) -> (f64, f64) {
    let me = pos.to_move.index();
    let lead = |p: &Position| i32::from(p.score[me]) - i32::from(p.score[1 - me]);
    let before = lead(pos);
    let mut best = 0;
    let moves = after_each_turn::<Oshi>(pos, &mut |after| best = best.max(lead(after) - before));
    (f64::from(best), moves as f64)
}
