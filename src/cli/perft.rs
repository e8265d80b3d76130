//! `gamerec perft DEPTH`: how many move sequences of DEPTH plies there are
//! from a position (the leaves of the game tree), the standard check of a
//! move generator; with `--divide`, the count under each first move.

use super::at::{answer, write_failure, Place};
use super::render::ColorChoice;
use std::path::PathBuf;

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
    /// A record file (`-` reads standard input); without one, --game's start
    /// or --position.
    file: Option<PathBuf>,
    /// Which game of the file, 1 for the first.
    #[arg(long, default_value_t = 1, value_name = "N", requires = "file",
          value_parser = clap::value_parser!(u64).range(1..))]
    index: u64,
    /// The position before ply K of the game (1 = its start).
    #[arg(long, value_name = "K", requires = "file",
          value_parser = clap::value_parser!(u64).range(1..))]
    ply: Option<u64>,
    /// The rules: of the start or --position, or of a file's records that
    /// have no [Game] tag.
    #[arg(long, value_name = "GAME", required_unless_present = "file", help = game_help())]
    game: Option<String>,
    /// A bare position in the game's Position notation (see notation/).
    #[arg(
        long,
        value_name = "STRING",
        conflicts_with = "file",
        requires = "game"
    )]
    position: Option<String>,
    /// The count under each legal first move, then the total.
    #[arg(long)]
    divide: bool,
    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
}

fn game_help() -> String {
    format!(
        "The rules ({}): of the start or --position, or of a file's records that have no \
         [Game] tag",
        super::game_names()
    )
}

pub fn run(args: Args) -> i32 {
    let place = Place {
        file: args.file.as_deref(),
        index: args.index as usize,
        position: args.position.as_deref(),
        game: args.game.as_deref(),
    };
    answer(&place, args.color.for_stderr(), |loaded, out| {
        let ply = args.ply.map(|k| k as usize);
        let divided = loaded
            .rules
            .perft(&loaded.record, ply, args.depth)
            .map_err(|p| loaded.invalid(p))?;
        if args.divide {
            for (mv, n) in &divided.moves {
                writeln!(out, "{mv}\t{n}").map_err(write_failure)?;
            }
        }
        writeln!(out, "{}", divided.total).map_err(write_failure)
    })
}
