//! `moves`'s library side, for a game picked by name: the legal turns at a
//! position of a game as it is read ([`legal_moves_at`]), their number
//! before every ply ([`legal_move_counts`]), and the proven best moves
//! ([`best_at`]) as `moves --best` prints them ([`write_best`]).

use crate::base::problem::Problem;
use crate::envelope::record::ReadGame;
use crate::play::analysis::{self, Best, Settings};
use crate::play::replay::{self, LegalMoves, PlyCount};
use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered};
use gamerec_rules::search::Value;
use std::io::{self, Write};
use std::ops::ControlFlow;

/// The position before ply `ply` (1-based) of a game as it is read, or
/// after its last turn, and the legal turns there (canonical, sorted).
pub fn legal_moves_at(
    rules: &dyn AnyGame,
    game: &mut dyn ReadGame<'_>,
    ply: Option<usize>,
) -> Result<LegalMoves, Problem> {
    struct At<'a, 'g>(&'a mut dyn ReadGame<'g>, Option<usize>);
    impl GameTask for At<'_, '_> {
        type Output = Result<LegalMoves, Problem>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            replay::legal_moves_at::<G>(self.0, self.1)
        }
    }
    with_game(rules, At(game, ply))
}

/// Tells `each` the number of legal turns before every ply of a game as it
/// is read that can be replayed; returns the problem that stopped it, if
/// one did.
pub fn legal_move_counts(
    rules: &dyn AnyGame,
    game: &mut dyn ReadGame<'_>,
    each: &mut dyn FnMut(PlyCount<'_>) -> ControlFlow<()>,
) -> Option<Problem> {
    type Each<'e> = dyn FnMut(PlyCount<'_>) -> ControlFlow<()> + 'e;
    struct Counts<'a, 'g, 'e, 'f>(&'a mut dyn ReadGame<'g>, &'e mut Each<'f>);
    impl GameTask for Counts<'_, '_, '_, '_> {
        type Output = Option<Problem>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            replay::legal_move_counts::<G>(self.0, self.1)
        }
    }
    with_game(rules, Counts(game, each))
}

/// The proven best moves before ply `ply` (1-based) of a game as it is
/// read, or after its last turn (`moves --best`).
pub fn best_at(
    rules: &dyn AnyGame,
    game: &mut dyn ReadGame<'_>,
    ply: Option<usize>,
    settings: &Settings,
) -> Result<Best, Problem> {
    struct BestAt<'a, 'g, 's>(&'a mut dyn ReadGame<'g>, Option<usize>, &'s Settings);
    impl GameTask for BestAt<'_, '_, '_> {
        type Output = Result<Best, Problem>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            let (pos, _) = replay::position_before::<G>(self.0, self.1)?;
            Ok(analysis::best_at::<G>(&pos, self.2))
        }
    }
    with_game(rules, BestAt(game, ply, settings))
}

/// `win 3 (depth 5)`, then a line per best move with the value it keeps,
/// and the estimate's move where nothing is proven.
pub fn write_best(out: &mut dyn Write, best: &Best) -> io::Result<()> {
    let value = |v: Value| match v.distance() {
        Some(d) => format!("{} {d}", v.name()),
        None => v.name().to_string(),
    };
    writeln!(out, "{} (depth {})", value(best.value), best.depth)?;
    for (m, v) in &best.moves {
        writeln!(out, "{m}\t{}", value(*v))?;
    }
    if let Some((m, chance)) = &best.estimate {
        writeln!(out, "{m}\testimate: win chance {chance:.3}")?;
    }
    Ok(())
}
