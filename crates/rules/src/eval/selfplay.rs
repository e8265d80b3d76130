//! Positions labelled by how their game ended: random self-play games
//! (each turn drawn uniformly from the legal ones, from the standard
//! start, game `i` of a seed on its own random stream), every position of
//! a game that ended with a result, labelled from its side to move's point
//! of view — 1 won, ½ drawn, 0 lost.

use crate::game::{Rules, Side};
use crate::random::play_out;

/// Plies a self-play game may last before it is left out unfinished.
pub const MOST_PLIES: usize = 400;

/// Games `1..=games` of `seed`: each finished game's positions with the
/// result from their mover's point of view, handed to `f`; how many games
/// finished with a result.
pub fn labelled<G: Rules>(seed: u64, games: u64, f: &mut dyn FnMut(&G::Position, f64)) -> u64 {
    let mut finished = 0;
    let mut line = Vec::new();
    for index in 1..=games {
        line.clear();
        let ending = play_out::<G>(seed, index, MOST_PLIES, false, &mut |p, _| {
            line.push(p.clone());
        });
        // A game the rules refused a drawn turn of is left out.
        let Some(ending) = ending.ok().flatten().filter(|e| e.decided) else {
            continue;
        };
        finished += 1;
        for p in &line {
            f(p, score(ending.winner, G::side_to_move(p)));
        }
    }
    finished
}

/// A result as `side` scores it.
fn score(winner: Option<Side>, side: Side) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    }
}
