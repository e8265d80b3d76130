//! `gamerec validate PATH...`: parse and replay every game; report each
//! invalid one with its location; a summary at the end.

use super::input::{expand, total_size};
use super::jobs::Jobs;
use super::progress::Progress;
use super::render::{diagnostic, place, ColorChoice, JsonError};
use gamerec::archive::{self, GameReport};
use gamerec::record::Chunk;
use gamerec::replay::Outcome;
use serde::Serialize;
use std::io::{self, Write};
use std::ops::ControlFlow;
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
    /// The rules for records without a [Game] tag.
    #[arg(long, value_name = "GAME", help = super::default_game_help())]
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
    /// Stop at the first invalid game (exit code 1); the rest is not read.
    #[arg(long, conflicts_with = "max_errors")]
    fail_fast: bool,
    /// Stop after N invalid games (exit code 1); the rest is not read.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_errors: Option<u64>,
    #[command(flatten)]
    jobs: Jobs,
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
    /// The run stopped early (`--fail-fast`, `--max-errors`).
    stopped: bool,
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
        Ok(opts) => gamerec::archive::Options {
            titles: args.verbose,
            ..opts
        },
        Err(code) => return code,
    };
    if let Err(code) = args.jobs.init() {
        return code;
    }
    let max_errors = if args.fail_fast {
        Some(1)
    } else {
        args.max_errors
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let color = args.color.for_stdout();
    let mut tally = Tally::default();
    let sources = expand(&args.paths, args.all);
    let progress = Progress::new(total_size(&sources), args.quiet);
    let result = (|| -> io::Result<()> {
        for source in sources {
            if tally.stopped {
                break;
            }
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
            let input = match source.open(&progress) {
                Ok(i) => i,
                Err(e) => {
                    tally.unreadable += 1;
                    out.flush()?;
                    eprintln!("gamerec: {name}: {e}");
                    continue;
                }
            };
            tally.files += 1;
            let mut each = |chunk: &Chunk, report: GameReport| -> io::Result<ControlFlow<()>> {
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
                let written = match args.format {
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
                        (Some(p), _) => progress.suspend(|| {
                            diagnostic(
                                &mut out,
                                &name,
                                chunk,
                                report.index,
                                report.title.as_deref(),
                                p,
                                color,
                            )?;
                            out.flush()
                        }),
                        (None, Some(o)) if args.verbose => writeln!(
                            out,
                            "{name}: {}: {}",
                            place(report.index, report.title.as_deref(), None),
                            outcome_line(o)
                        ),
                        _ => Ok(()),
                    },
                };
                written?;
                let errors = (tally.invalid + tally.empty) as u64;
                if max_errors.is_some_and(|max| errors >= max) {
                    tally.stopped = true;
                    return Ok(ControlFlow::Break(()));
                }
                Ok(ControlFlow::Continue(()))
            };
            if let Err(e) = archive::validate_until(input, &opts, &mut each) {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    return Err(e);
                }
                tally.unreadable += 1;
                out.flush()?;
                eprintln!("gamerec: {name}: {e}");
            }
        }
        // The bar goes before the summary is written.
        progress.finish();
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
            if tally.stopped {
                summary.push_str(&format!(
                    "; stopped after {} invalid (--{}), the rest not read",
                    tally.invalid + tally.empty,
                    if args.fail_fast {
                        "fail-fast"
                    } else {
                        "max-errors"
                    }
                ));
            }
            writeln!(out, "{summary} ({:.2} s)", started.elapsed().as_secs_f64())?;
        }
        out.flush()
    })();
    progress.finish();
    if let Err(code) = super::finished(result) {
        return code;
    }
    super::exit_code(tally.unreadable, tally.invalid + tally.empty)
}
