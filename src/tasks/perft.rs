//! `perft`'s library side: perft from a position of a game as it is read
//! ([`perft`]), and a walk checking the generator against the rules
//! ([`check_walk`]), for a game picked by name.

use crate::base::problem::Problem;
use crate::envelope::record::ReadGame;
use crate::play::replay;
use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered};
pub use gamerec_rules::perft::{entries, Divided, PerftEntry};

use gamerec_rules::perft;

/// Perft `depth` from the position before ply `ply` of a game as it is read
/// (or after its last turn), divided by first move.
pub fn perft(
    rules: &dyn AnyGame,
    game: &mut dyn ReadGame<'_>,
    ply: Option<usize>,
    depth: u32,
) -> Result<Divided, Problem> {
    struct Perft<'a, 'g>(&'a mut dyn ReadGame<'g>, Option<usize>, u32);
    impl GameTask for Perft<'_, '_> {
        type Output = Result<Divided, Problem>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            let (p, _) = replay::position_before::<G>(self.0, self.1)?;
            Ok(perft::divide::<G>(&p, self.2))
        }
    }
    with_game(rules, Perft(game, ply, depth))
}

/// [`perft::check_walk`] from `position` (the game's Position notation)
/// or, when it is empty, the start; `None` when the position cannot be
/// read.
pub fn check_walk(
    rules: &dyn AnyGame,
    position: &str,
    choices: &[u8],
    every: bool,
) -> Option<Result<u64, String>> {
    struct Walk<'p, 'c>(&'p str, &'c [u8], bool);
    impl GameTask for Walk<'_, '_> {
        type Output = Option<Result<u64, String>>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            let start = match self.0 {
                "" => G::start(&[]).ok()?,
                p => G::parse_position(p).ok()?,
            };
            Some(perft::check_walk::<G>(start, self.1, self.2))
        }
    }
    with_game(rules, Walk(position, choices, every))
}
