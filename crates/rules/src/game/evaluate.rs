//! [`Evaluate`]: a game's evaluation — features of a position a player
//! would name, weighed by weights fitted from self-play games (a data file
//! in the game's folder, `eval.weights`), as a win chance for the side to
//! move. An estimate, labelled as one: a value the exact search proves
//! always overrides it.

use super::Rules;

/// A game's evaluation (`games/<game>/evaluate.rs`).
pub trait Evaluate: Rules {
    /// The features' names, in order, as the weights file names them.
    const FEATURES: &'static [&'static str];

    /// The committed weights file's text (`eval.weights`: how it was made,
    /// then a weight per line; [`crate::eval::Weights`]).
    const WEIGHTS: &'static str;

    /// The position's features from the side to move's point of view (each
    /// "the mover's less the other side's" where a feature has two sides),
    /// written into `out`, which is `FEATURES.len()` long.
    fn features(pos: &Self::Position, out: &mut [f64]);
}

/// Hands `f` each position one legal turn of the side to move leads to
/// (for features that look a turn ahead: what a player sees at once);
/// how many turns.
pub fn after_each_turn<G: Rules>(pos: &G::Position, f: &mut dyn FnMut(&G::Position)) -> usize {
    let mut turns = 0;
    let mut after = pos.clone();
    G::generate(pos, &mut |mv| {
        turns += 1;
        after.clone_from(pos);
        if G::play_generated(&mut after, &mv).is_ok() {
            f(&after);
        }
        true
    });
    turns
}
