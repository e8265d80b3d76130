//! Command-line interface: one file per subcommand.
//!
//! Exit codes are a contract: 0 every game valid, 1 some record invalid,
//! 2 a usage or I/O error (the rest of the input is still processed).

mod at;
mod convert;
mod gen;
mod input;
mod jobs;
mod moves;
mod perft;
mod progress;
mod render;
mod stats;
mod validate;

use clap::{Parser, Subcommand};
use gamerec::registry;

pub const EXIT_VALID: i32 = 0;
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_TROUBLE: i32 = 2;

#[derive(Parser)]
#[command(
    name = "gamerec",
    version,
    about = about(),
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
    /// Generate random legal games (seeded), for benchmarks and tests.
    Gen(gen::Args),
    /// Count the move sequences of a given length from a position (perft).
    Perft(perft::Args),
}

/// "Validate, convert and analyse recorded games of A, B and C", the
/// games from the registry.
fn about() -> String {
    let titles: Vec<&str> = registry::GAMES.iter().map(|g| g.title()).collect();
    let list = match titles.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    format!("Validate, convert and analyse recorded games of {list}")
}

/// The registered games' names, `a, b or c`, for help texts.
pub fn game_names() -> String {
    let names = registry::names();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// `--game`'s help: the rules for records without a `Game` tag, with a
/// site notation's bare strings as the example where a game has one.
pub fn default_game_help() -> String {
    let example = registry::sites()
        .next()
        .map(|s| {
            format!(
                ", e.g. `{}` for a bare move string like `{}`",
                s.game().name(),
                s.format().example
            )
        })
        .unwrap_or_default();
    format!(
        "The rules for records without a [Game] tag ({}){example}.",
        game_names()
    )
}

/// Options for `--game G`: the rules for records without a `Game` tag.
/// An unknown name is a usage error (exit code 2).
pub fn default_game(name: Option<&str>) -> Result<gamerec::archive::Options, i32> {
    let mut opts = gamerec::archive::Options::default();
    if let Some(name) = name {
        match registry::find(name) {
            Some(rules) => opts.default_game = Some(rules),
            None => {
                eprintln!(
                    "gamerec: unknown game `{name}`: one of {}",
                    registry::names().join(", ")
                );
                return Err(EXIT_TROUBLE);
            }
        }
    }
    Ok(opts)
}

/// `-o FILE`, or stdout; buffered. A file that cannot be created is a usage
/// error (exit code 2), reported here.
pub fn output(path: Option<&std::path::Path>) -> Result<Box<dyn std::io::Write>, i32> {
    let out: Box<dyn std::io::Write> = match path {
        None => Box::new(std::io::stdout().lock()),
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("gamerec: {}: {e}", path.display());
                return Err(EXIT_TROUBLE);
            }
        },
    };
    Ok(Box::new(std::io::BufWriter::with_capacity(1 << 16, out)))
}

/// The end of a run's output: a closed pipe (the reader has seen enough) is
/// not an error; any other write error is reported and is exit code 2.
pub fn finished(result: std::io::Result<()>) -> Result<(), i32> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(EXIT_VALID),
        Err(e) => {
            eprintln!("gamerec: {e}");
            Err(EXIT_TROUBLE)
        }
        Ok(()) => Ok(()),
    }
}

/// The exit code: 2 when something could not be read or done, else 1 when
/// some record is invalid (or an input held no game), else 0.
pub fn exit_code(trouble: usize, invalid: usize) -> i32 {
    if trouble > 0 {
        EXIT_TROUBLE
    } else if invalid > 0 {
        EXIT_INVALID
    } else {
        EXIT_VALID
    }
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
        Command::Gen(args) => gen::run(args),
        Command::Perft(args) => perft::run(args),
    }
}
