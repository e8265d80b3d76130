//! `gamerec validate PATH...`: parse and replay every game; report each
//! invalid one with its location; a summary at the end. `--syntax-only`
//! reads every game's envelope and replays nothing, counting what it
//! holds.

use super::messages;
use super::options::{Color, HumanOrJson as Format, InputArgs, Jobs, LenientArgs, Quiet};
use super::run::Run;
use gamerec::diagnostics::{problem_report, repair_lines};
use gamerec::inputs::Item;
use gamerec::output::Output;
use gamerec::reading::{EnvelopeCounts, GameReport, Judging};
use gamerec::record::Chunk;
use gamerec::validate::{self, JsonGame, RunEnd, Validated};
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
#[command(mut_arg("quiet", |a| a.help("Print only the errors: no summary, no per-game lines, no \
progress bar").conflicts_with("verbose")))]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    lenient: LenientArgs,
    /// `human`: diagnostics and a summary; `json`: one JSON object per game
    /// per line (schema: notation/validate-json.md).
    #[arg(
        long = "to",
        visible_alias = "format",
        value_enum,
        default_value = "human",
        value_name = "FORMAT"
    )]
    format: Format,
    #[command(flatten)]
    color: Color,
    #[command(flatten)]
    quiet: Quiet,
    /// Also print one line for every valid game, with its outcome.
    #[arg(short, long)]
    verbose: bool,
    /// Stop at the first invalid game (exit code 1); the rest is not read.
    #[arg(long, conflicts_with = "max_errors")]
    fail_fast: bool,
    /// Stop after N invalid games (exit code 1); the rest is not read.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_errors: Option<u64>,
    /// End the summary with the time the run took (the default on a
    /// terminal).
    #[arg(long)]
    time: bool,
    /// Read every game's envelope (tags, movetext tokens, comments,
    /// results) and replay nothing: report envelope problems and games of
    /// unknown rules, and count what the games hold.
    #[arg(long)]
    syntax_only: bool,
    #[command(flatten)]
    jobs: Jobs,
}

/// Writes one game's report.
fn write_report(
    out: &mut dyn Write,
    args: &Args,
    name: &str,
    chunk: Option<&Chunk>,
    report: &GameReport,
) -> io::Result<()> {
    match args.format {
        Format::Json => {
            let line = JsonGame::new(name, chunk, report, args.lenient.on());
            serde_json::to_writer(&mut *out, &line)?;
            writeln!(out)
        }
        Format::Human if !report.repairs.is_empty() && !args.quiet.quiet => {
            let title = report.title.as_deref();
            repair_lines(out, name, chunk, report.index, title, &report.repairs)?;
            let report = GameReport {
                repairs: Vec::new(),
                ..report.clone()
            };
            write_report(out, args, name, chunk, &report)
        }
        Format::Human => match (&report.error, &report.outcome) {
            (Some(p), _) => messages::suspended(|| {
                let color = args.color.color.for_stdout();
                let title = report.title.as_deref();
                problem_report(out, name, chunk, report.index, title, p, color)?;
                out.flush()
            }),
            (None, _) if args.verbose => match validate::verbose_line(name, report) {
                Some(line) => writeln!(out, "{line}"),
                None => Ok(()),
            },
            _ => Ok(()),
        },
    }
}

pub fn run(args: Args) {
    let started = Instant::now();
    if args.syntax_only && args.lenient.on() {
        return messages::error("--syntax-only replays nothing: it cannot repair (--lenient)");
    }
    if args.syntax_only && args.format == Format::Json {
        return messages::error("--syntax-only reports in human form only (--to human)");
    }
    let Some(mut run) = Run::start(&args.input, &args.jobs, &Output::new(None)) else {
        return;
    };
    if messages::stdout_closed() {
        return;
    }
    run = run.lenient(&args.lenient).progress(args.quiet.quiet);
    run.opts.titles = args.verbose;
    // The comments are counted with --syntax-only (read, not kept).
    run.opts.turns_only = !args.syntax_only;
    let judging = match args.syntax_only {
        true => Judging::Envelope,
        false => Judging::Replay,
    };
    run.opts.judging = Some(judging);
    let (titles, one_job) = (run.opts.titles, run.opts.jobs == 1);
    let max_errors = if args.fail_fast {
        Some(1)
    } else {
        args.max_errors
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut tally = Validated::default();
    // Inputs with no game count against --max-errors too.
    let stop = |errors: usize| match max_errors {
        Some(max) if errors as u64 >= max => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    };
    let map = |v: gamerec::formats::Visit<'_, '_>| validate::judge(v, judging, titles);
    let each = |item: Item<'_, (GameReport, EnvelopeCounts)>| {
        let seen = match item {
            Item::Game(seen) => seen,
            Item::Empty { input, skipped } => {
                let report = GameReport::no_game(skipped);
                let nothing = Chunk::from_bytes(Vec::new());
                write_report(&mut out, &args, input, Some(&nothing), &report)?;
                tally.empty += 1;
                return Ok(stop(tally.invalid + tally.empty));
            }
            Item::Failed { .. } => return Ok(ControlFlow::Continue(())),
        };
        let (mut report, counts) = seen.value;
        report.index = Some(seen.index);
        if !tally.add(&report, &counts) {
            messages::invalid();
        }
        write_report(&mut out, &args, seen.input, seen.chunk, &report)?;
        // -j 1 reports each game as soon as it is read.
        if one_job || report.error.is_some() {
            out.flush()?;
        }
        Ok(stop(tally.invalid + tally.empty))
    };
    let read = run.read(map, each);
    let result = read.and_then(|read| {
        if args.format == Format::Human && !args.quiet.quiet {
            let elapsed = (args.time || io::stdout().is_terminal()).then(|| started.elapsed());
            let end = run_end(&args, &read, elapsed);
            writeln!(out, "{}", tally.summary(&end))?;
        }
        out.flush()
    });
    messages::finished(result);
}

/// How the run ended, for the summary.
fn run_end(args: &Args, read: &gamerec::inputs::Read, elapsed: Option<Duration>) -> RunEnd {
    RunEnd {
        files: read.files,
        empty_files: read.empty,
        syntax_only: args.syntax_only,
        lenient: args.lenient.on(),
        unreadable: messages::errored(),
        stopped_by: read.stopped.then_some(match args.fail_fast {
            true => "fail-fast",
            false => "max-errors",
        }),
        elapsed,
    }
}
