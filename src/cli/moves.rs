//! `gamerec moves`: the legal moves at a position of a recorded game (or of
//! a bare position), their number, or the number before every ply.

use super::at::{answer, write_failure, Place};
use super::render::ColorChoice;
use gamerec::problem::Problem;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The record file (`-` reads standard input).
    #[arg(required_unless_present = "position", conflicts_with = "position")]
    file: Option<PathBuf>,
    /// Which game of the file, 1 for the first.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    /// The position before ply K (1 = the start position); by default the
    /// position after the game's last move.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    ply: Option<u64>,
    /// Print only how many legal moves there are.
    #[arg(long, conflicts_with = "each")]
    count: bool,
    /// For every ply of the game: the ply, the number of legal moves before
    /// it and the move played, tab-separated.
    #[arg(long, conflicts_with_all = ["ply", "position"])]
    each: bool,
    /// A bare position in the game's Position notation (see notation/),
    /// instead of a file.
    #[arg(long, requires = "game_type", value_name = "STRING")]
    position: Option<String>,
    /// The game of `--position`, or of a file's records that have no [Game]
    /// tag.
    #[arg(long, value_name = "GAME", help = super::default_game_help())]
    game_type: Option<String>,
    /// Print the position itself first, in the game's Position notation.
    #[arg(long)]
    show_position: bool,
    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
}

pub fn run(args: Args) -> i32 {
    let place = Place {
        file: args.file.as_deref(),
        index: args.game as usize,
        position: args.position.as_deref(),
        game: args.game_type.as_deref(),
    };
    answer(&place, args.color.for_stderr(), |loaded, out| {
        let (rules, record) = (loaded.rules, &loaded.record);
        let invalid = |p: Problem| loaded.invalid(p);
        let ply = args.ply.map(|k| k as usize);
        if args.show_position {
            let pos = rules.position_at(record, ply).map_err(invalid)?;
            writeln!(out, "{pos}").map_err(write_failure)?;
        }
        if args.each {
            for c in rules.legal_move_counts(record).map_err(invalid)? {
                writeln!(out, "{}\t{}\t{}", c.ply, c.legal, c.played).map_err(write_failure)?;
            }
        } else {
            let moves = rules.legal_moves_at(record, ply).map_err(invalid)?;
            if args.count {
                writeln!(out, "{}", moves.len()).map_err(write_failure)?;
            } else {
                for m in moves {
                    writeln!(out, "{m}").map_err(write_failure)?;
                }
            }
        }
        Ok(())
    })
}
