//! `gamerec tree PATH...`: the opening explorer — the games that reached
//! one position in their first plies (the start, or where `--play` leads),
//! transpositions merged, their results and the mover's score with its
//! 95 % interval, and the turns played from it with the same counts
//! (notation/tree.md).

use super::messages;
use super::options::{Color, InputArgs, Jobs, OutputArg};
use super::run::{self, Run};
use gamerec::formats::rows::{RowFormat, RowTable};
use gamerec::index::{self, Index};
use gamerec::inputs::Item;
use gamerec::output::Output;
use gamerec::output::Writer;
use gamerec::select::Probe;
use gamerec::tree::{self, Query, Walked};
use gamerec::walk::{Explored, Explorer};
use std::io::{self, Write};
use std::ops::ControlFlow;

#[derive(clap::Args)]
#[command(
    mut_arg("paths", |a| a.required(false).required_unless_present("index")),
    after_help = "Counts, the score and the JSON schema: notation/tree.md. Positions \
are merged by position, whatever the move order that reached them. Results are the ones the \
records' Result tags declare; games are replayed only as far as --depth (validate checks \
records), and a record with an error within it counts as a game, not as a result."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Answer from this position index (`gamerec index`) instead of
    /// reading archives (a record with an error anywhere counts as a game,
    /// not a result: the index replayed it whole).
    #[arg(long, value_name = "DIR", conflicts_with = "paths")]
    index: Option<std::path::PathBuf>,
    /// Look at positions reached in each game's first N plies.
    #[arg(long, value_name = "N", default_value_t = 20)]
    depth: usize,
    /// The position to explore: where these turns lead from each game's
    /// start (`"1. e3-e5 e7-e6"`; move numbers optional). Default: the
    /// start.
    #[arg(long, value_name = "TURNS", default_value = "")]
    play: String,
    /// List only turns played in at least K games.
    #[arg(long, value_name = "K", default_value_t = 1)]
    min_games: u64,
    /// Only games player P played (a side tag's value, any case).
    #[arg(long, value_name = "P")]
    player: Option<String>,
    /// With `--player`: only games where P played this side (`first`,
    /// `second`, or the side's tag name, e.g. `Red`).
    #[arg(long, value_name = "S", requires = "player")]
    side: Option<String>,
    /// `human`: the table; `json`: one object per explored position per
    /// line; `parquet`: a row per explored position and one per turn
    /// played there (notation/tree.md).
    #[arg(
        long = "to",
        visible_alias = "format",
        value_enum,
        default_value = "human",
        value_name = "FORMAT"
    )]
    format: Format,
    #[command(flatten)]
    output: OutputArg,
    #[command(flatten)]
    color: Color,
    #[command(flatten)]
    jobs: Jobs,
}

/// What `tree` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
    Parquet,
}

pub fn run(args: Args) {
    if let Some(side) = args.side.as_deref().filter(|s| !tree::side_named(s)) {
        return messages::error(format!(
            "--side `{side}`: give `first`, `second` or a side's name (`Red`, `Host`, …)"
        ));
    }
    let output = Output::new(args.output.output.as_deref());
    if let Some(dir) = &args.index {
        return from_index(&args, dir, &output);
    }
    let Some(run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    let parquet = args.format == Format::Parquet;
    if parquet && run::binary_to_terminal(gamerec::formats::Format::Parquet, &output) {
        return;
    }
    let Some(writer) = run::create(&output) else {
        return;
    };
    let query = query(&args);
    let line = &query.line;
    let run = run.progress(output.is_terminal());
    let map = |v: gamerec::formats::Visit<'_, '_>| tree::walk(v, &query);
    let mut explorer = Explorer::default();
    let color = args.color.color.for_stderr();
    let each = |item: Item<'_, Walked>| {
        if let Some(seen) = run::game(item) {
            run::explore(&mut explorer, &seen, color);
        }
        Ok(ControlFlow::Continue(()))
    };
    let read = run.read(map, each);
    let result = read.and_then(|_| found(&args, writer, explorer.finish(args.min_games), line));
    messages::finished(result.and_then(|w| w.commit()));
}

/// `--index DIR`: the same answer from the index.
fn from_index(args: &Args, dir: &std::path::Path, output: &Output) {
    if args.format == Format::Parquet
        && run::binary_to_terminal(gamerec::formats::Format::Parquet, output)
    {
        return;
    }
    let Some(writer) = run::create(output) else {
        return;
    };
    let query = query(args);
    let result = Index::open(dir)
        .and_then(fresh)
        .and_then(|index| index::explore(&index, &query, args.min_games))
        .and_then(|explored| found(args, writer, explored, &query.line));
    messages::finished(result.and_then(|w| w.commit()));
}

/// The index, where no archive of it changed since it was indexed.
fn fresh(index: Index) -> io::Result<Index> {
    match index.stale() {
        Some(why) => Err(io::Error::new(io::ErrorKind::InvalidData, why)),
        None => Ok(index),
    }
}

/// Says when nothing was found, and writes what was.
fn found(args: &Args, writer: Writer, found: Vec<Explored>, line: &[String]) -> io::Result<Writer> {
    if let Some(first) = line
        .first()
        .filter(|t| found.is_empty() && !tree::some_game_reads(t))
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("--play: `{first}` is no game's turn"),
        ));
    }
    if found.is_empty() {
        messages::note(match line.is_empty() {
            true => "no game to explore".to_string(),
            false => format!("no game reaches the position after {}", args.play.trim()),
        });
    }
    write(writer, args.format, &found, line)
}

fn query(args: &Args) -> Query {
    Query {
        line: Probe::opening_turns(&args.play),
        depth: args.depth,
        player: args.player.clone(),
        side: args.side.clone(),
    }
}

/// Writes what was found in `format`.
fn write(
    writer: Writer,
    format: Format,
    found: &[Explored],
    line: &[String],
) -> io::Result<Writer> {
    if format == Format::Parquet {
        let mut table = RowTable::new(writer, RowFormat::Parquet, "tree", tree::columns(), false)?;
        for e in found {
            for row in tree::rows(e) {
                table.push(&row)?;
            }
        }
        return table.finish();
    }
    let mut out = io::BufWriter::new(writer);
    for (i, e) in found.iter().enumerate() {
        match format {
            Format::Json => {
                serde_json::to_writer(&mut out, &tree::to_json(e, line))?;
                writeln!(out)?;
            }
            _ => {
                if i > 0 {
                    writeln!(out)?;
                }
                tree::human(&mut out, e, line)?;
            }
        }
    }
    out.into_inner().map_err(|e| e.into_error())
}
