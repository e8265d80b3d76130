//! `gamerec stats`: statistics per game, or a summary per game type, as
//! JSON Lines or CSV with a fixed header (notation/stats.md).

use super::input::{expand, options, read_all, InputArgs, Item, LenientArgs, Output, Writer};
use super::messages;
use super::options::ColorChoice;
use super::progress::Progress;
use clap::ValueEnum;
use gamerec::convert::csv::spreadsheet_safe;
use gamerec::convert::parquet::Table;
use gamerec::convert::Converted;
use gamerec::problem::{Problem, Repair};
use gamerec::record::{title, Chunk, ReadGame};
use gamerec::registry::AnyGame;
use gamerec::report::{problem_report, repair_lines, Repaired};
use gamerec::stats::{
    game_header, game_kinds, game_row, summary_cell, summary_kinds, traced, Summary,
    SUMMARY_COLUMNS,
};
use gamerec::target::csv_error;
use serde_json::Value;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

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
    after_help = "Columns and their meaning: notation/stats.md. Invalid games get a row \
with valid=false and the error code (statistics cover their legal turns) and are reported on \
stderr; exit codes as for validate: 0 every game valid, 1 some game invalid, 2 usage or I/O \
error."
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
    /// Write here instead of stdout (through a temporary file beside it,
    /// put in place at the end; never one of the inputs).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    jobs: super::jobs::Jobs,
    /// Do not report invalid games on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Colour in the reports of invalid games on stderr (`auto`: on a
    /// terminal, unless NO_COLOR is set).
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// CSV: start a cell that begins with `=`, `+`, `-` or `@` with `'`, so
    /// that a spreadsheet shows it instead of running it as a formula.
    #[arg(long)]
    spreadsheet_safe: bool,
}

/// Where rows go.
enum Out {
    Csv(Box<csv::Writer<Writer>>, bool),
    Json(Writer),
    Parquet(Box<Table<Writer>>),
}

impl Out {
    fn row<I: IntoIterator<Item = String>>(&mut self, record: I) -> io::Result<()> {
        match self {
            Out::Csv(w, safe) => {
                let cells = record.into_iter().map(|c| {
                    if *safe {
                        spreadsheet_safe(&c).into_owned()
                    } else {
                        c
                    }
                });
                w.write_record(cells).map_err(csv_error)
            }
            Out::Json(_) | Out::Parquet(_) => Ok(()),
        }
    }

    /// A row of typed values (Parquet only).
    fn values(&mut self, row: &[Value]) -> io::Result<()> {
        match self {
            Out::Parquet(t) => t.push(row),
            _ => Ok(()),
        }
    }

    fn json(&mut self, value: &Value) -> io::Result<()> {
        match self {
            Out::Json(w) => {
                serde_json::to_writer(&mut *w, value)?;
                w.write_all(b"\n")
            }
            Out::Csv(..) | Out::Parquet(_) => Ok(()),
        }
    }

    fn commit(self) -> io::Result<()> {
        match self {
            Out::Csv(w, _) => w
                .into_inner()
                .map_err(|e| io::Error::new(e.error().kind(), e.error().to_string()))?
                .commit(),
            Out::Json(w) => w.commit(),
            Out::Parquet(t) => t.finish()?.commit(),
        }
    }
}

pub fn run(args: Args) {
    let per_type = args.summary || args.per == Per::Type;
    let Some(opts) = options(args.input.game.as_deref()) else {
        return;
    };
    let opts = args.lenient.apply(opts);
    args.jobs.init();
    let output = Output::new(args.output.as_deref());
    let Some(sources) = expand(&args.input.paths, args.input.all, &output) else {
        return;
    };
    if args.format == StatsFormat::Parquet && output.is_terminal() {
        return messages::error(
            "Parquet is a binary format: write it to a file with -o, or pipe it",
        );
    }
    let Some(writer) = output.create() else {
        return;
    };
    let mut out = match args.format {
        StatsFormat::Parquet => {
            let (table, kinds) = match per_type {
                true => ("summary", summary_kinds()),
                false => ("stats", game_kinds()),
            };
            match Table::new(writer, table, &kinds) {
                Ok(t) => Out::Parquet(Box::new(t)),
                Err(e) => return messages::finished(Err(e)),
            }
        }
        StatsFormat::Csv => Out::Csv(
            Box::new(
                csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(writer),
            ),
            args.spreadsheet_safe,
        ),
        StatsFormat::Json => Out::Json(writer),
    };
    let color = args.color.for_stderr();
    let header = match (args.format, per_type) {
        (StatsFormat::Json | StatsFormat::Parquet, _) => Ok(()),
        (StatsFormat::Csv, true) => out.row(SUMMARY_COLUMNS.map(String::from)),
        (StatsFormat::Csv, false) => out.row(game_header()),
    };
    let mut summary = Summary::default();
    let (mut input, mut index) = (String::new(), 0);
    // Not over output on the same terminal.
    let progress = Progress::for_sources(&sources, args.quiet || output.is_terminal());
    let map = |_: &str,
               _: Option<&Chunk>,
               game: &mut dyn ReadGame<'_>,
               rules: Result<&'static dyn AnyGame, Problem>| {
        let sides = rules.as_ref().map_or(["", ""], |r| r.sides());
        let repairs = game.repairs().to_vec();
        let traced = traced(game, rules);
        // A title is shown with a problem or a repair only.
        let title = (traced.error.is_some() || !repairs.is_empty())
            .then(|| title(game.tags(), sides))
            .flatten();
        (traced, title, repairs)
    };
    let mut repaired = Repaired::default();
    let each = |name: &str, item: Item<'_, (Converted, Option<String>, Vec<Repair>)>| {
        let Item::Game(chunk, (mut game, title, repairs)) = item else {
            messages::warning(format!("{name}: no game here: the input is empty"));
            return Ok(ControlFlow::Continue(()));
        };
        if input != name {
            (input, index) = (name.to_string(), 0);
        }
        index += 1;
        game.index = index;
        repaired.add(&repairs);
        if !repairs.is_empty() && !args.quiet {
            let title = title.as_deref();
            messages::to_stderr(|err| repair_lines(err, name, chunk, Some(index), title, &repairs));
        }
        if let Some(p) = &game.error {
            messages::invalid();
            if !args.quiet {
                messages::to_stderr(|err| {
                    problem_report(err, name, chunk, Some(index), title.as_deref(), p, color)
                });
            }
        }
        if per_type {
            summary.add(&game);
            return Ok(ControlFlow::Continue(()));
        }
        let row = game_row(name, &game);
        match args.format {
            StatsFormat::Csv => out.row(row.to_csv()),
            StatsFormat::Json => out.json(&row.to_json()),
            StatsFormat::Parquet => out.values(&row.cells()),
        }?;
        Ok(ControlFlow::Continue(()))
    };
    let result = header
        .and_then(|()| read_all(sources, &args.input, &opts, &progress, map, each))
        .and_then(|_| match per_type {
            true => write_summary(&mut out, args.format, &summary),
            false => Ok(()),
        });
    progress.finish();
    messages::finished(result.and_then(|()| out.commit()));
    if args.lenient.on() && !args.quiet {
        messages::say(format!("gamerec: {}", repaired.summary()));
    }
}

fn write_summary(out: &mut Out, format: StatsFormat, summary: &Summary) -> io::Result<()> {
    for row in summary.rows() {
        match format {
            StatsFormat::Csv => out.row(row.iter().map(|(_, v)| summary_cell(v)))?,
            StatsFormat::Parquet => {
                let values: Vec<Value> = row.into_iter().map(|(_, v)| v).collect();
                out.values(&values)?
            }
            StatsFormat::Json => {
                let obj: serde_json::Map<String, Value> =
                    row.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                out.json(&Value::Object(obj))?;
            }
        }
    }
    Ok(())
}
