//! `gamerec dedup`: drop exact duplicates (the same rules, settings, start
//! and moves in canonical spelling, or `--by final-position` the same
//! final position; the library's `dedup` keys and finds them).

use super::messages;
use super::options::{InputArgs, Jobs, OutputArg, Quiet};
use super::run::{self, Run};
use gamerec::dedup::{self, keyed, note, Distinct, Found, Keyed, Report};
use gamerec::inputs::Item;
use gamerec::output::Output;
use gamerec::passthrough::Tiler;
use gamerec::select::SameBy;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    /// The same rules, settings, start position and moves (canonical
    /// spelling; tags, comments, move numbers do not matter).
    Moves,
    /// The same rules, settings and final position (side to move
    /// included).
    FinalPosition,
}

#[derive(clap::Args)]
#[command(
    mut_arg("output", |a| a.help("Write the first occurrence of each game here instead of \
standard output (through a temporary file put in place at the end; never over an input)")),
    after_help = "Games that cannot be replayed to their end are never duplicates: they are \
all written (and make the exit code 1)."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// What makes two games the same.
    #[arg(long, value_enum, default_value = "moves", value_name = "WHAT")]
    by: By,
    /// Write the duplicates to FILE, each with a comment naming its
    /// original (file, line, game).
    #[arg(long, value_name = "FILE")]
    dups: Option<PathBuf>,
    /// Print one JSON line per group of duplicates (its original and every
    /// duplicate, each with its file, line and index) on standard output,
    /// at the end (give -o for the games).
    #[arg(long)]
    report: bool,
    #[command(flatten)]
    output: OutputArg,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    quiet: Quiet,
}

pub fn run(args: Args) {
    let by = match args.by {
        By::Moves => SameBy::Moves,
        By::FinalPosition => SameBy::FinalPosition,
    };
    let output = Output::new(args.output.output.as_deref());
    let Some(run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    let mut seen = match Distinct::new() {
        Ok(s) => s,
        Err(e) => return messages::error(format!("a temporary file for the keys: {e}")),
    };
    let Some(mut out) = run::sink(None, &output) else {
        return;
    };
    let Ok(mut dups) = run::second(args.dups.as_deref(), &output, &run.sources, None) else {
        return;
    };
    let run = run.progress(args.quiet.quiet || output.is_terminal());
    let (mut games, mut duplicates) = (0usize, 0usize);
    let mut report = match args.report.then(Report::new).transpose() {
        Ok(r) => r,
        Err(e) => return messages::error(format!("a temporary file for the report: {e}")),
    };
    let mut tiler = Tiler::default();
    let each = |item: Item<'_, Keyed>| {
        let Some(game) = run::game(item) else {
            return Ok(ControlFlow::Continue(()));
        };
        let (name, chunk, keyed) = (game.input, game.chunk, game.value);
        games += 1;
        let place = Found {
            file: name.to_string(),
            line: keyed.line,
            index: game.index,
        };
        let mut written = Some(keyed.out);
        tiler.tile(name, chunk, &mut written);
        let written = written.expect("tiling keeps it");
        let original = match &keyed.key {
            Some((hash, key)) => seen.original(*hash, key, &place)?,
            None => {
                messages::invalid();
                None
            }
        };
        match original {
            None => out.write(name, place.index, written, chunk, None)?,
            Some((at, first)) => {
                duplicates += 1;
                if let Some(d) = dups.as_mut() {
                    d.write(name, place.index, written, chunk, Some(&note(&first)))?;
                }
                if let Some(report) = report.as_mut() {
                    report.add(at, first, &place)?;
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    };
    let read = run.read(|v| keyed(v, by), each);
    let mut result = read.map(|_| ()).and_then(|()| out.finish());
    if let Some(d) = dups {
        result = result.and_then(|()| d.finish());
    }
    if let Some(report) = report.filter(|_| result.is_ok()) {
        let stdout = io::stdout();
        let mut w = BufWriter::new(stdout.lock());
        result = report.write(&mut w).and_then(|()| w.flush());
    }
    messages::finished(result);
    if !args.quiet.quiet {
        messages::say(dedup::summary(games, duplicates));
    }
}
