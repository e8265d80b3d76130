//! `gamerec perft DEPTH`: how many move sequences of DEPTH plies there are
//! from a position (the leaves of the game tree), the standard check of a
//! move generator; with `--divide`, the count under each first move.

use super::at::{answer, write_failure, PlaceArgs};
use super::options::Color;

#[derive(clap::Args)]
#[command(
    after_help = "The position: game N of FILE before ply K (by default after its last move), \
or --game G's start, or --game G --position P. A position where the rules have ended the game \
has no moves. Prints the count; with --divide, first each legal first move and the count below \
it (tab-separated, sorted), then the total."
)]
pub struct Args {
    /// How many plies deep.
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    #[command(flatten)]
    place: PlaceArgs,
    /// The position before ply K of the game (1 = its start).
    #[arg(long, value_name = "K", requires = "file",
          value_parser = clap::value_parser!(u64).range(1..))]
    ply: Option<u64>,
    /// The count under each legal first move, then the total.
    #[arg(long)]
    divide: bool,
    #[command(flatten)]
    color: Color,
}

pub fn run(args: Args) {
    answer(&args.place, args.color.color.for_stderr(), |loaded, out| {
        let ply = args.ply.map(|k| k as usize);
        let divided = gamerec::perft::perft(loaded.rules, loaded.game, ply, args.depth)
            .map_err(super::at::Failure::Invalid)?;
        if args.divide {
            for (mv, n) in &divided.moves {
                writeln!(out, "{mv}\t{n}").map_err(write_failure)?;
            }
        }
        writeln!(out, "{}", divided.total).map_err(write_failure)
    })
}
