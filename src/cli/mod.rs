//! Command-line interface, thin over the library: one file per subcommand,
//! each its options and calls into the library; the options several
//! commands share are declared once (`options`) and flattened into them;
//! `run` is the run every command that reads archives shares (inputs,
//! each game's index, progress, messages); `messages` prints what is not a
//! diagnostic and keeps the exit code ([`EXIT_CODES`], one rule for every
//! command); `alloc` is the binary's allocator.

pub(crate) mod alloc;
mod analyse;
mod at;
mod completions;
mod convert;
mod dedup;
mod filter;
mod gen;
mod index;
mod interrupt;
mod messages;
mod moves;
mod options;
mod perft;
mod progress;
mod ratings;
mod report;
mod run;
mod shard;
mod show;
mod stats;
mod tree;
mod tune;
mod validate;
mod view;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use gamerec::registry;

/// The exit codes: one rule for every command, shown in the help of each
/// (and in the README).
pub const EXIT_CODES: &str = "Exit codes: 0 done, and every game read is valid; 1 some \
record is invalid (a game its rules or the record format refuse, or an input that holds no \
game gamerec plays) — for filter, grep's: no game matched; 2 a usage or I/O error (the other \
inputs are still read); 141 the output pipe closed early (1 if an invalid record was seen \
before).";

#[derive(Parser)]
#[command(name = "gamerec", version, about = about(), after_help = EXIT_CODES)]
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
    /// Search every ply exactly within a horizon: proven wins and losses,
    /// missed wins, blunders, only moves; a win-chance estimate.
    Analyse(analyse::Args),
    /// Convert records to canonical text, JSON, CSV or a site's notation.
    Convert(convert::Args),
    /// Select games by rules, tags, players, result, length, validity,
    /// opening or a position reached.
    Filter(filter::Args),
    /// Drop exact duplicates: the same rules, start and moves (or final
    /// position).
    Dedup(dedup::Args),
    /// Statistics per game or per game type, as JSON Lines, CSV or Parquet.
    Stats(stats::Args),
    /// Rate each game type's players: Elo, Glicko-2, TrueSkill, Weng-Lin
    /// and Bradley–Terry with a first-mover advantage; `--predict` scores
    /// the systems.
    Ratings(ratings::Args),
    /// One self-contained HTML page: results, lengths, openings, design
    /// metrics and ratings per game type; per player their results and
    /// rating over time.
    Report(report::Args),
    /// The opening explorer: the games that reached a position (the start,
    /// or where `--play` leads), their results and the turns played there.
    Tree(tree::Args),
    /// The position index: every position each game reached, mapped to its
    /// games and plies, for `filter --index`, `tree --index` and Python.
    Index(index::Args),
    /// Split archives into shards on game boundaries, for workers that
    /// each read one.
    Shard(shard::Args),
    /// Show a position as a picture: terminal text, a standalone SVG, a
    /// PNG, or the game to it as an animated GIF.
    Show(show::Args),
    /// Write a self-contained HTML page that replays the games.
    View(view::Args),
    /// Generate random legal games (seeded), for benchmarks and tests.
    Gen(gen::Args),
    /// Count the move sequences of a given length from a position (perft).
    Perft(perft::Args),
    /// Fit a game's evaluation weights to seeded random self-play games
    /// (its `eval.weights` file).
    Tune(tune::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(completions::Args),
    /// Print the manual page (roff), for `man -l -` or a man directory.
    Man(completions::ManArgs),
}

/// The command line's definition (for parsing, completions and the manual
/// page): every command's help ends with the exit codes.
pub fn definition() -> clap::Command {
    Cli::command().mut_subcommands(|c| {
        if matches!(c.get_name(), "completions" | "man") {
            return c;
        }
        let own = c.get_after_help().map(|h| format!("{h}\n\n"));
        c.after_help(format!("{}{EXIT_CODES}", own.unwrap_or_default()))
    })
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

/// Standard output was closed when gamerec started (see `main`).
pub fn stdout_was_closed() {
    messages::set_stdout_was_closed();
}

/// Runs the command line; returns the exit code (from [`messages`]).
pub fn run() -> i32 {
    interrupt::install();
    let parsed = definition()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                messages::EXIT_TROUBLE
            } else {
                messages::EXIT_VALID
            };
        }
    };
    match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Filter(args) => filter::run(args),
        Command::Dedup(args) => dedup::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Ratings(args) => ratings::run(args),
        Command::Report(args) => report::run(args),
        Command::Tree(args) => tree::run(args),
        Command::Index(args) => index::run(args),
        Command::Shard(args) => shard::run(args),
        Command::Show(args) => show::run(args),
        Command::View(args) => view::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => completions::man(args),
    }
    messages::exit_code()
}
