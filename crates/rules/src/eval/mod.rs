//! The win-chance estimate from a game's evaluation ([`Evaluate`]): its
//! features weighed by its fitted weights ([`Weights`], the game's
//! committed `eval.weights`) through the logistic function; and the
//! fitting itself ([`tune`]): random self-play games, every position
//! labelled by its game's result, fitted by logistic regression
//! (Texel-style, by Newton's method). An estimate, never a proof.

mod fit;
mod selfplay;
mod weights;

pub use fit::{log_loss, sigmoid, Fit};
pub use selfplay::MOST_PLIES;
pub use weights::Weights;

use crate::game::Evaluate;

/// A game's evaluation with its weights read: the win chance of the side
/// to move.
pub struct Evaluator<G: Evaluate> {
    weights: Weights,
    features: Vec<f64>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Evaluate> Evaluator<G> {
    /// The game's committed weights; why not, where its file is not one
    /// for its features.
    pub fn new() -> Result<Evaluator<G>, String> {
        Weights::parse(G::WEIGHTS, G::FEATURES).map(Evaluator::with)
    }

    /// An evaluation with these weights.
    pub fn with(weights: Weights) -> Evaluator<G> {
        Evaluator {
            weights,
            features: vec![0.0; G::FEATURES.len()],
            _game: std::marker::PhantomData,
        }
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The side to move's chance of winning (a draw counting half), as
    /// estimated: in (0, 1).
    pub fn win_chance(&mut self, pos: &G::Position) -> f64 {
        G::features(pos, &mut self.features);
        let w = &self.weights;
        let z = w.bias
            + (w.weights.iter().zip(&self.features))
                .map(|(w, f)| w * f)
                .sum::<f64>();
        sigmoid(z)
    }
}

/// The header of a weights file [`tune`] made for `game`: what it is, and
/// the command that makes it again.
pub fn header(game: &str, seed: u64, games: u64) -> String {
    format!(
        "The evaluation's weights for {game}: logistic regression (Newton's method) on\n\
         every position of {games} random self-play games of seed {seed}, each labelled\n\
         by its game's result for the side to move (notation/engine.md). Made by:\n\
         gamerec tune --game {game} --seed {seed} --games {games}"
    )
}

/// What [`tune`] made: the weights, and how well they fit.
#[derive(Clone, Debug)]
pub struct Tuned {
    pub weights: Weights,
    /// Positions fitted, and from how many finished games.
    pub positions: usize,
    pub finished: u64,
    pub fit: Fit,
}

/// Fits the game's weights to `games` random self-play games of `seed`
/// (every position of each game that finished with a result); `None`
/// where no game finished.
pub fn tune<G: Evaluate>(seed: u64, games: u64) -> Option<Tuned> {
    let k = G::FEATURES.len();
    let (mut rows, mut labels) = (Vec::new(), Vec::new());
    let mut features = vec![0.0; k];
    let finished = selfplay::labelled::<G>(seed, games, &mut |pos, label| {
        G::features(pos, &mut features);
        rows.extend_from_slice(&features);
        labels.push(label);
    });
    let fit = fit::fit(&rows, &labels, k)?;
    Some(Tuned {
        weights: Weights {
            seed,
            games,
            bias: fit.weights[0],
            weights: fit.weights[1..].to_vec(),
        },
        positions: labels.len(),
        finished,
        fit,
    })
}

/// How well an evaluation predicts games it was not fitted on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldOut {
    /// Positions, and the mean log-loss of the win chance on them and of
    /// a coin's ½.
    pub positions: usize,
    pub log_loss: f64,
    pub coin: f64,
    /// The expected calibration error over ten equal bins of the win
    /// chance: each bin's share of the positions times the gap between
    /// its mean win chance and its mean result.
    pub calibration_error: f64,
}

/// How the game's evaluation with `weights` predicts the positions of
/// `games` random self-play games of `seed` ([`HeldOut`]).
pub fn held_out<G: Evaluate>(weights: &Weights, seed: u64, games: u64) -> HeldOut {
    let mut eval = Evaluator::<G>::with(weights.clone());
    let (mut loss, mut coin, mut n) = (0.0, 0.0, 0usize);
    // By bin: positions, the win chances' sum, the results' sum.
    let mut bins = [(0usize, 0.0, 0.0); 10];
    selfplay::labelled::<G>(seed, games, &mut |pos, label| {
        let p = eval.win_chance(pos);
        loss += log_loss(p, label);
        coin += log_loss(0.5, label);
        n += 1;
        let bin = &mut bins[((p * 10.0) as usize).min(9)];
        bin.0 += 1;
        bin.1 += p;
        bin.2 += label;
    });
    let n_f = n.max(1) as f64;
    let calibration_error = bins
        .iter()
        .filter(|b| b.0 > 0)
        .map(|&(k, p, y)| (k as f64 / n_f) * ((p - y) / k as f64).abs())
        .sum();
    HeldOut {
        positions: n,
        log_loss: loss / n_f,
        coin: coin / n_f,
        calibration_error,
    }
}
