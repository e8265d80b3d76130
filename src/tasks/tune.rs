//! `tune`'s library side: a game's evaluation weights fitted to random
//! self-play games ([`gamerec_rules::eval::tune`]), as the text of its
//! weights file, for a game picked by name (notation/engine.md).

use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered};
use gamerec_rules::eval;

/// What `tune` made: the weights file's text, and how well the weights
/// fit and predict the games of the next seed.
#[derive(Clone, Debug)]
pub struct Tuned {
    pub text: String,
    /// Positions fitted, and the finished games they came from.
    pub positions: usize,
    pub finished: u64,
    pub fit: eval::Fit,
    /// The weights on the same number of games of the next seed.
    pub held_out: eval::HeldOut,
}

/// Fits `game`'s evaluation to `games` random self-play games of `seed`;
/// `None` where no game finished with a result.
pub fn tune(game: &dyn AnyGame, seed: u64, games: u64) -> Option<Tuned> {
    struct Tune(u64, u64);
    impl GameTask for Tune {
        type Output = Option<Tuned>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            let Tune(seed, games) = self;
            let t = eval::tune::<G>(seed, games)?;
            let header = eval::header(G::NAME, seed, games);
            Some(Tuned {
                text: t.weights.write(&header, G::FEATURES),
                positions: t.positions,
                finished: t.finished,
                held_out: eval::held_out::<G>(&t.weights, seed.wrapping_add(1), games),
                fit: t.fit,
            })
        }
    }
    with_game(game, Tune(seed, games))
}
