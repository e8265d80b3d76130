//! Positions labelled by how their game ended: random self-play games
//! (each turn drawn uniformly from the legal ones, from the standard
//! start, game `i` of a seed on its own random stream), every position of
//! a game that ended with a result, labelled from its side to move's point
//! of view — 1 won, ½ drawn, 0 lost.

use crate::game::{Rules, Side};

/// Plies a self-play game may last before it is left out unfinished.
pub const MOST_PLIES: usize = 400;

/// Games `1..=games` of `seed`: each finished game's positions with the
/// result from their mover's point of view, handed to `f`; how many games
/// finished with a result.
pub fn labelled<G: Rules>(seed: u64, games: u64, f: &mut dyn FnMut(&G::Position, f64)) -> u64 {
    let mut finished = 0;
    let mut moves = Vec::new();
    let mut line = Vec::new();
    for index in 1..=games {
        let Ok(mut pos) = G::start(&[]) else {
            return finished;
        };
        let mut rng = crate::random::stream(seed, index);
        line.clear();
        let ending = loop {
            if let Some(e) = G::ending(&pos) {
                break Some(e);
            }
            moves.clear();
            G::legal_moves(&pos, &mut moves);
            if moves.is_empty() || line.len() == MOST_PLIES {
                break None;
            }
            line.push(pos.clone());
            let pick = crate::random::below(&mut rng, moves.len());
            if G::play_generated(&mut pos, &moves[pick]).is_err() {
                break None;
            }
        };
        let Some(ending) = ending.filter(|e| e.decided) else {
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
