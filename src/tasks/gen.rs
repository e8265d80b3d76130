//! `gen`'s library side: random legal games of a game picked by name
//! ([`generate`]), and the positions they pass through, for timing the move
//! generator ([`sample_positions`]).

pub use crate::play::gen::{positions, GenOptions};

use crate::play::gen;
use crate::play::sink::Converted;
use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered};
use gamerec_rules::game::Rules;

/// Game `index` (1-based) of `seed`: random legal turns (`gamerec gen`).
pub fn generate(rules: &dyn AnyGame, seed: u64, index: u64, opts: &GenOptions) -> Converted {
    struct Generate<'o>(u64, u64, &'o GenOptions);
    impl GameTask for Generate<'_> {
        type Output = Converted;
        fn run<G: Playable>(self, _: &Registered<G>) -> Converted {
            gen::game::<G>(self.0, self.1, self.2)
        }
    }
    with_game(rules, Generate(seed, index, opts))
}

/// Every position played from in games `1..=games` of `seed`.
pub fn sample_positions(
    rules: &dyn AnyGame,
    seed: u64,
    games: u64,
    opts: &GenOptions,
) -> Box<dyn Positions> {
    struct Sample<'o>(u64, u64, &'o GenOptions);
    impl GameTask for Sample<'_> {
        type Output = Box<dyn Positions>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            Box::new(PositionsOf::<G> {
                positions: gen::positions::<G>(self.0, self.1, self.2),
            })
        }
    }
    with_game(rules, Sample(seed, games, opts))
}

/// A set of positions of one game, for timing its move generator.
pub trait Positions {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Generates the legal moves of every position; returns how many there
    /// were in all.
    fn count_legal_moves(&mut self) -> usize;
}

/// A game's positions, for [`sample_positions`].
struct PositionsOf<G: Rules> {
    positions: Vec<G::Position>,
}

impl<G: Rules> Positions for PositionsOf<G> {
    fn len(&self) -> usize {
        self.positions.len()
    }

    fn count_legal_moves(&mut self) -> usize {
        self.positions.iter().map(G::count_legal_moves).sum()
    }
}
