//! `gamerec stats`: statistics per game, or a summary per game type, as
//! JSON Lines or CSV with a fixed header (notation/stats.md).

use super::convert::report;
use super::input::{each_input, expand, read_games, total_size, Inputs};
use super::progress::Progress;
use super::render::ColorChoice;
use clap::{Args as ClapArgs, ValueEnum};
use gamerec::convert::{Converted, TraceOptions};
use gamerec::problem::Problem;
use gamerec::record::Chunk;
use gamerec::registry::{convert, AnyGame};
use gamerec::stats::{game_header, game_row, summary_cell, Summary, SUMMARY_COLUMNS};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Per {
    /// One row per game.
    Game,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// JSON Lines: one object per game (or per game type).
    Json,
    /// CSV with a fixed header.
    Csv,
}

#[derive(ClapArgs)]
#[command(
    after_help = "Columns and their meaning: notation/stats.md. Invalid games get a row \
with valid=false and the error code (statistics cover their legal turns) and are reported on \
stderr; exit codes as for validate: 0 every game valid, 1 some game invalid, 2 usage or I/O \
error."
)]
pub struct Args {
    /// Files or directories (walked for .grec and .txt files); `-` is stdin.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One row per game (the default).
    #[arg(long, value_enum, default_value = "game", conflicts_with = "summary")]
    per: Per,
    /// One row per game type instead: results, win reasons, lengths, the
    /// first mover's win rate, the most common first turns.
    #[arg(long)]
    summary: bool,
    #[arg(long, value_enum, default_value = "json")]
    format: StatsFormat,
    /// Write here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Rules for records without a `Game` tag.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// The input format (default: detected per input, as for convert).
    #[arg(long, default_value = "auto", value_parser = super::input::from_values())]
    from: String,
    /// In directories, read every file, not only .grec and .txt.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    jobs: super::jobs::Jobs,
    /// Do not report invalid games on stderr.
    #[arg(short, long)]
    quiet: bool,
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
}

/// Where rows go.
enum Out {
    Csv(Box<csv::Writer<Box<dyn Write>>>),
    Json(Box<dyn Write>),
}

impl Out {
    fn csv<I: IntoIterator<Item = S>, S: AsRef<[u8]>>(&mut self, record: I) -> io::Result<()> {
        match self {
            Out::Csv(w) => w.write_record(record).map_err(io::Error::other),
            Out::Json(_) => Ok(()),
        }
    }

    fn json(&mut self, value: &serde_json::Value) -> io::Result<()> {
        match self {
            Out::Json(w) => {
                serde_json::to_writer(&mut *w, value)?;
                w.write_all(b"\n")
            }
            Out::Csv(_) => Ok(()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::Csv(w) => w.flush(),
            Out::Json(w) => w.flush(),
        }
    }
}

pub fn run(args: Args) -> i32 {
    let opts = match super::default_game(args.game.as_deref()) {
        Ok(opts) => opts,
        Err(code) => return code,
    };
    let out = match super::output(args.output.as_deref()) {
        Ok(out) => out,
        Err(code) => return code,
    };
    let mut csv = match args.format {
        StatsFormat::Csv => Out::Csv(Box::new(
            csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(out),
        )),
        StatsFormat::Json => Out::Json(out),
    };
    let color = args.color.for_stderr();
    if let Err(code) = args.jobs.init() {
        return code;
    }
    let trace = TraceOptions {
        syntax_only: false,
        branching: true,
        site: false,
    };
    let mut invalid = 0;
    let mut inputs = Inputs::default();
    let mut summary = Summary::default();
    let sources = expand(&args.paths, args.all);
    // Not over output on the same terminal.
    let to_terminal = args.output.is_none() && io::stdout().is_terminal();
    let progress = Progress::new(total_size(&sources), args.quiet || to_terminal);
    let result = (|| -> io::Result<()> {
        if args.format == StatsFormat::Csv {
            if args.summary {
                csv.csv(SUMMARY_COLUMNS)?;
            } else {
                csv.csv(game_header())?;
            }
        }
        inputs.unreadable += each_input(sources, &progress, &mut |opened| {
            let name = opened.name.clone();
            let mut index = 0;
            // Replayed in parallel; counted and written in input order.
            let map = |_: Option<&Chunk>,
                       parsed: gamerec::record::Parsed,
                       rules: Result<&'static dyn AnyGame, Problem>| {
                let sides = rules.as_ref().map_or(["", ""], |r| r.sides());
                let title = parsed.record.title(sides);
                let game = convert(0, parsed.record, parsed.error, rules, trace);
                (game, title)
            };
            let each = |chunk: Option<&Chunk>, (mut game, title): (Converted, Option<String>)| {
                index += 1;
                game.index = index;
                if let Some(p) = &game.error {
                    invalid += 1;
                    if !args.quiet {
                        progress
                            .suspend(|| report(&name, chunk, index, title.as_deref(), p, color));
                    }
                }
                if args.summary {
                    summary.add(&game);
                    return Ok(());
                }
                let row = game_row(&name, &game);
                match args.format {
                    StatsFormat::Csv => csv.csv(row.to_csv()),
                    StatsFormat::Json => csv.json(&row.to_json()),
                }
            };
            read_games(opened, &args.from, &opts, map, each, &mut inputs)
        })?;
        if args.summary {
            for row in summary.rows() {
                match args.format {
                    StatsFormat::Csv => csv.csv(row.iter().map(|(_, v)| summary_cell(v)))?,
                    StatsFormat::Json => {
                        let obj: serde_json::Map<String, serde_json::Value> =
                            row.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                        csv.json(&serde_json::Value::Object(obj))?;
                    }
                }
            }
        }
        csv.flush()
    })();
    progress.finish();
    if let Err(code) = super::finished(result) {
        return code;
    }
    super::exit_code(inputs.unreadable, invalid + inputs.empty)
}
