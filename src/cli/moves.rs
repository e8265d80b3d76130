//! `gamerec moves`: the legal moves at a position of a recorded game (or of
//! a bare position), their number, or the number before every ply.

use super::at::{answer, write_failure, Failure, PlaceArgs, PlyArg};
use super::messages;
use super::options::{Color, SearchArgs};
use std::ops::ControlFlow;

#[derive(clap::Args)]
#[command(
    after_help = "A game invalid before the asked point makes the exit code 1 (with --each, \
the counts before its error are printed first); no such game or ply, an unknown game or a bad \
--position is a usage error (2)."
)]
pub struct Args {
    #[command(flatten)]
    place: PlaceArgs,
    #[command(flatten)]
    at: PlyArg,
    /// Print only how many legal moves there are.
    #[arg(long, conflicts_with = "each")]
    count: bool,
    /// For every ply of the game: the ply, the number of legal moves before
    /// it and the move played, tab-separated.
    #[arg(long, conflicts_with_all = ["ply", "position"])]
    each: bool,
    /// Print the position itself first, in the game's Position notation.
    #[arg(long)]
    show_position: bool,
    /// The proven best moves instead (an exact search within --depth
    /// plies: notation/analysis.md): the position's value, then each move
    /// that keeps it with the value it leaves; where nothing is proven,
    /// the estimate's move with --playouts.
    #[arg(long, conflicts_with_all = ["count", "each"])]
    best: bool,
    #[command(flatten)]
    search: SearchArgs,
    /// With --best: threads that search the position's turns (default, or
    /// 0: one per core; the answer is the same with any number).
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    #[command(flatten)]
    color: Color,
}

pub fn run(args: Args) {
    if args.best
        && !args
            .search
            .tables_fit(gamerec::pipeline::threads(args.jobs.unwrap_or(0)))
    {
        return;
    }
    answer(&args.place, args.color.color.for_stderr(), |loaded, out| {
        let rules = loaded.rules;
        if args.each {
            // The legal prefix as it is replayed, then the problem that
            // stopped it.
            let mut written = Ok(());
            let problem = gamerec::moves::legal_move_counts(rules, loaded.game, &mut |c| {
                written = writeln!(out, "{}\t{}\t{}", c.ply, c.legal, c.played);
                match written {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(_) => ControlFlow::Break(()),
                }
            });
            written.map_err(write_failure)?;
            return problem.map_or(Ok(()), |p| Err(Failure::Invalid(p)));
        }
        let ply = args.at.ply();
        if args.best {
            let settings = gamerec::analysis::Settings {
                jobs: args.jobs.unwrap_or(0),
                ..args.search.settings(gamerec::analysis::Plies::All)
            };
            let best = gamerec::moves::best_at(rules, loaded.game, ply, &settings)
                .map_err(Failure::Invalid)?;
            return gamerec::moves::write_best(out, &best).map_err(write_failure);
        }
        let legal =
            gamerec::moves::legal_moves_at(rules, loaded.game, ply).map_err(Failure::Invalid)?;
        if args.show_position {
            writeln!(out, "{}", legal.position).map_err(write_failure)?;
        }
        if let Some(how) = &legal.over {
            messages::note(format!("the game is over ({how}): no legal move"));
        }
        if args.count {
            writeln!(out, "{}", legal.moves.len()).map_err(write_failure)?;
        } else {
            for m in &legal.moves {
                writeln!(out, "{m}").map_err(write_failure)?;
            }
        }
        Ok::<(), Failure>(())
    })
}
