//! `gamerec stats`: statistics per game, or a summary per game type, as
//! JSON Lines or CSV with a fixed header (notation/stats.md).

use super::messages;
use super::options::{Color, InputArgs, Jobs, LenientArgs, OutputArg, Quiet};
use super::run::{self, Run};
use clap::ValueEnum;
use gamerec::diagnostics::{problem_report, repair_lines, Repaired};
use gamerec::formats::rows::RowFormat;
use gamerec::formats::{Format, Visit};
use gamerec::inputs::Item;
use gamerec::output::Output;
use gamerec::problem::Repair;
use gamerec::record::title;
use gamerec::sink::Converted;
use gamerec::stats::{traced, StatsWriter};
use std::ops::ControlFlow;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Per {
    /// One row per game.
    Game,
    /// One row per game type: results, win reasons, lengths, the first
    /// mover's win rate, the most common first turns (`--summary`).
    Type,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// JSON Lines: one object per game (or per game type).
    Json,
    /// CSV with a fixed header.
    Csv,
    /// A Parquet table with the CSV's columns, typed (needs -o or a pipe).
    Parquet,
}

#[derive(clap::Args)]
#[command(
    mut_arg("quiet", |a| a.help("Say nothing on stderr: no progress bar, no reports of \
invalid games")),
    after_help = "Columns and their meaning: notation/stats.md. Invalid games get a row \
with valid=false and the error code (statistics cover their legal turns) and are reported on \
stderr."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    lenient: LenientArgs,
    /// A row per game (the default) or per game type.
    #[arg(long, value_enum, default_value = "game", conflicts_with = "summary")]
    per: Per,
    /// One row per game type: the same as `--per type`.
    #[arg(long)]
    summary: bool,
    /// `json`: JSON Lines, one object per row; `csv`: CSV with the fixed
    /// header notation/stats.md documents; `parquet`: the CSV's columns,
    /// typed (notation/parquet.md).
    #[arg(
        long = "to",
        visible_alias = "format",
        value_enum,
        default_value = "json",
        value_name = "FORMAT"
    )]
    format: StatsFormat,
    #[command(flatten)]
    output: OutputArg,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    color: Color,
    /// CSV: start a cell that begins with `=`, `+`, `-` or `@` with `'`, so
    /// that a spreadsheet shows it instead of running it as a formula.
    #[arg(long)]
    spreadsheet_safe: bool,
}

pub fn run(args: Args) {
    let per_type = args.summary || args.per == Per::Type;
    let output = Output::new(args.output.output.as_deref());
    let Some(run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    if args.format == StatsFormat::Parquet && run::binary_to_terminal(Format::Parquet, &output) {
        return;
    }
    let Some(writer) = run::create(&output) else {
        return;
    };
    let written = match args.format {
        StatsFormat::Json => RowFormat::Json,
        StatsFormat::Csv => RowFormat::Csv,
        StatsFormat::Parquet => RowFormat::Parquet,
    };
    let mut out = match StatsWriter::new(writer, written, per_type, args.spreadsheet_safe) {
        Ok(out) => out,
        Err(e) => return messages::finished(Err(e)),
    };
    // Not over output on the same terminal.
    let run = run
        .lenient(&args.lenient)
        .progress(args.quiet.quiet || output.is_terminal());
    let color = args.color.color.for_stderr();
    let map = |v: Visit<'_, '_>| {
        let sides = v.rules.as_ref().map_or(["", ""], |r| r.sides());
        let repairs = v.game.repairs().to_vec();
        let traced = traced(v.game, v.rules);
        // A title is shown with a problem or a repair only.
        let title = (traced.error.is_some() || !repairs.is_empty())
            .then(|| title(v.game.tags(), sides))
            .flatten();
        (traced, title, repairs)
    };
    let mut repaired = Repaired::default();
    let each = |item: Item<'_, (Converted, Option<String>, Vec<Repair>)>| {
        let Some(game) = run::game(item) else {
            return Ok(ControlFlow::Continue(()));
        };
        let (name, chunk, index) = (game.input, game.chunk, game.index);
        let (mut converted, title, repairs) = game.value;
        converted.index = index;
        repaired.add(&repairs);
        if !repairs.is_empty() && !args.quiet.quiet {
            let title = title.as_deref();
            messages::to_stderr(|err| repair_lines(err, name, chunk, Some(index), title, &repairs));
        }
        if let Some(p) = &converted.error {
            messages::invalid();
            if !args.quiet.quiet {
                let title = title.as_deref();
                messages::to_stderr(|err| {
                    problem_report(err, name, chunk, Some(index), title, p, color)
                });
            }
        }
        out.add(name, &converted)?;
        Ok(ControlFlow::Continue(()))
    };
    let result = run.read(map, each).and_then(|_| out.finish());
    messages::finished(result.and_then(|w| w.commit()));
    if args.lenient.on() && !args.quiet.quiet {
        messages::say(format!("gamerec: {}", repaired.summary()));
    }
}
