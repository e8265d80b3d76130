//! `gamerec validate PATH...`: parse and replay every game; report each
//! invalid one with its location; a summary at the end.

use super::input::expand;
use super::render::{diagnostic, place, ColorChoice, JsonError};
use gamerec::archive::{self, GameReport};
use gamerec::record::Chunk;
use gamerec::replay::Outcome;
use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Record files or directories (walked recursively for *.grec and
    /// *.txt); `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// In directories, read every file, not only *.grec and *.txt.
    #[arg(long)]
    all: bool,
    /// The rules for records without a [Game] tag, e.g. `vagabond` for a
    /// bare Garden Gate move string.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// `human`: diagnostics and a summary; `json`: one JSON object per game
    /// per line (schema: notation/validate-json.md).
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Colour in diagnostics (`auto`: on a terminal, unless NO_COLOR is set).
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// Print only the errors: no summary, no per-game lines.
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,
    /// Also print one line for every valid game, with its outcome.
    #[arg(short, long)]
    verbose: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
}

/// One line of `--format json`.
#[derive(Serialize)]
struct JsonGame<'a> {
    file: &'a str,
    index: Option<usize>,
    game: Option<&'a str>,
    valid: bool,
    plies: usize,
    outcome: Option<&'a Outcome>,
    error: Option<JsonError<'a>>,
}

#[derive(Default)]
struct Tally {
    files: usize,
    games: usize,
    valid: usize,
    invalid: usize,
    /// Inputs holding no game at all (an invalid record too).
    empty: usize,
    unreadable: usize,
}

fn outcome_line(o: &Outcome) -> String {
    match (o.winner, o.reason) {
        (_, "unfinished") => format!("unfinished after {} plies", o.ply),
        (Some(w), reason) => format!("{} ({w} wins, {reason}, ply {})", o.result.as_str(), o.ply),
        (None, reason) => format!("{} (drawn, {reason}, ply {})", o.result.as_str(), o.ply),
    }
}

pub fn run(args: Args) -> i32 {
    let started = Instant::now();
    let opts = match super::default_game(args.game.as_deref()) {
        Ok(opts) => opts,
        Err(code) => return code,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let color = args.color.for_stdout();
    let mut tally = Tally::default();
    let result = (|| -> io::Result<()> {
        for source in expand(&args.paths, args.all) {
            let source = match source {
                Ok(s) => s,
                Err((name, e)) => {
                    tally.unreadable += 1;
                    out.flush()?;
                    eprintln!("gamerec: {name}: {e}");
                    continue;
                }
            };
            let name = source.name();
            let input = match source.open() {
                Ok(i) => i,
                Err(e) => {
                    tally.unreadable += 1;
                    out.flush()?;
                    eprintln!("gamerec: {name}: {e}");
                    continue;
                }
            };
            tally.files += 1;
            let mut each = |chunk: &Chunk, report: GameReport| -> io::Result<()> {
                if report.index.is_none() {
                    tally.empty += 1;
                } else {
                    tally.games += 1;
                    if report.is_valid() {
                        tally.valid += 1;
                    } else {
                        tally.invalid += 1;
                    }
                }
                match args.format {
                    Format::Json => {
                        let line = JsonGame {
                            file: &name,
                            index: report.index,
                            game: report.game,
                            valid: report.is_valid(),
                            plies: report.plies,
                            outcome: report.outcome.as_ref(),
                            error: report.error.as_ref().map(|p| JsonError::new(chunk, p)),
                        };
                        serde_json::to_writer(&mut out, &line)?;
                        writeln!(out)
                    }
                    Format::Human => match (&report.error, &report.outcome) {
                        (Some(p), _) => diagnostic(
                            &mut out,
                            &name,
                            chunk,
                            report.index,
                            report.title.as_deref(),
                            p,
                            color,
                        ),
                        (None, Some(o)) if args.verbose => writeln!(
                            out,
                            "{name}: {}: {}",
                            place(report.index, report.title.as_deref(), None),
                            outcome_line(o)
                        ),
                        _ => Ok(()),
                    },
                }
            };
            if let Err(e) = archive::validate_with(input, &opts, &mut each) {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    return Err(e);
                }
                tally.unreadable += 1;
                out.flush()?;
                eprintln!("gamerec: {name}: {e}");
            }
        }
        if args.format == Format::Human && !args.quiet {
            let mut summary = format!(
                "{} {}, {} {}: {} valid, {} invalid",
                tally.files,
                if tally.files == 1 { "file" } else { "files" },
                tally.games,
                if tally.games == 1 { "game" } else { "games" },
                tally.valid,
                tally.invalid
            );
            if tally.empty > 0 {
                summary.push_str(&format!(
                    ", {} {} with no game",
                    tally.empty,
                    if tally.empty == 1 { "file" } else { "files" }
                ));
            }
            if tally.unreadable > 0 {
                summary.push_str(&format!(", {} unreadable", tally.unreadable));
            }
            writeln!(out, "{summary} ({:.2} s)", started.elapsed().as_secs_f64())?;
        }
        out.flush()
    })();
    if let Err(code) = super::finished(result) {
        return code;
    }
    super::exit_code(tally.unreadable, tally.invalid + tally.empty)
}
