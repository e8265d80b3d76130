//! Command-line interface: one file per subcommand.
//!
//! Exit codes are a contract: 0 every game valid, 1 some record invalid,
//! 2 a usage or I/O error (the rest of the input is still processed).

mod convert;
mod input;
mod moves;
mod render;
mod stats;
mod validate;

use clap::{Parser, Subcommand};

pub const EXIT_VALID: i32 = 0;
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_TROUBLE: i32 = 2;

#[derive(Parser)]
#[command(
    name = "gamerec",
    version,
    about = "Validate, convert and analyse recorded games of Roshi, Oshi, Iqishiqi, \
             Vagabond Pai Sho and Retsami",
    after_help = "Exit codes: 0 every game valid, 1 some record invalid, 2 usage or I/O error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and replay every game, reporting each invalid one.
    Validate(validate::Args),
    /// List (or count) the legal moves at a position.
    Moves(moves::Args),
    /// Convert records to canonical text, JSON, CSV or a site's notation.
    Convert(convert::Args),
    /// Statistics per game or per game type, as JSON Lines or CSV.
    Stats(stats::Args),
}

/// Options for `--game G`: the rules for records without a `Game` tag.
/// An unknown name is a usage error (exit code 2).
pub fn default_game(name: Option<&str>) -> Result<gamerec::archive::Options, i32> {
    let mut opts = gamerec::archive::Options::default();
    if let Some(name) = name {
        match gamerec::games::find(name) {
            Some(rules) => opts.default_game = Some(rules),
            None => {
                eprintln!(
                    "gamerec: unknown game `{name}`: one of {}",
                    gamerec::games::names().join(", ")
                );
                return Err(EXIT_TROUBLE);
            }
        }
    }
    Ok(opts)
}

pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                EXIT_TROUBLE
            } else {
                EXIT_VALID
            };
        }
    };
    match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Stats(args) => stats::run(args),
    }
}
