//! `gamerec ratings PATH...`: each game type's players rated from their
//! finished games in date order — Elo, Glicko-2, TrueSkill, Weng-Lin and
//! Bradley–Terry with a first-mover advantage — or, with `--history`, a
//! row per game per player, or, with `--predict`, how well each system
//! predicted the archive (notation/ratings.md).

use super::messages;
use super::options::{Color, InputArgs, Jobs, OutputArg, Quiet};
use super::run::{self, Run};
use gamerec::formats::rows::{RowFormat, RowTable as RowsOut};
use gamerec::output::{Output, Writer};
use gamerec::ratings::systems::{EloK, Period, RatingOptions, TypeRatings};
use gamerec::ratings::table::{self, Listing};
use gamerec::ratings::{self, Archive, Sort};
use std::io::{self, Write};

#[derive(clap::Args)]
#[command(
    after_help = "Systems, conventions and columns: notation/ratings.md. A game \
is rated when it is valid, won or drawn, and names a player in each side tag; the rest are \
counted in the table's first line. Games are rated in Date order (undated games after, in \
input order)."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Merge spellings of a name: a file of lines `SPELLING => NAME`
    /// (compared without case; `#` starts a comment line).
    #[arg(long, value_name = "FILE")]
    alias: Option<std::path::PathBuf>,
    /// Elo's K: a number above 0 and at most 1000, or `abstractplay` for AbstractPlay's live
    /// schedule (from 1200; K 40, 30, 25, then 20 as a player's rated
    /// games pass 10, 20 and 40).
    #[arg(long, value_name = "K", default_value = "32", value_parser = EloK::read)]
    elo_k: EloK,
    /// Glicko-2's rating period: `day`, `week`, `month`, or a number N
    /// (every N games, dates or not); an undated game is a period of its
    /// own.
    #[arg(long, value_name = "P", default_value = "month", value_parser = Period::read)]
    period: Period,
    /// A row per game per player: the ratings after it (Glicko-2's after
    /// its rating period).
    #[arg(long, conflicts_with = "predict")]
    history: bool,
    /// Score each system on the archive: every game predicted from the
    /// ratings before it; log-loss, Brier score, accuracy.
    #[arg(long)]
    predict: bool,
    /// The players' order: by a system's rating (highest first), games, or
    /// name.
    #[arg(long, value_enum, default_value = "bradley-terry")]
    sort: SortArg,
    /// List only players with at least N rated games (every game still
    /// counts in the ratings). Ordered by a rating, provisional players
    /// (Glicko-2 deviation above 110, marked `?`) come after the rest.
    #[arg(long, value_name = "N", default_value = "1")]
    min_games: u32,
    /// `human`: a table per game type; `json`: JSON Lines; `csv`; `parquet`
    /// (the columns of notation/ratings.md).
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
    jobs: Jobs,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    color: Color,
    /// CSV: start a cell that begins with `=`, `+`, `-` or `@` with `'`.
    #[arg(long)]
    spreadsheet_safe: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
    Csv,
    Parquet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SortArg {
    BradleyTerry,
    Elo,
    Glicko2,
    Trueskill,
    WengLin,
    Games,
    Name,
}

pub fn run(args: Args) {
    let output = Output::new(args.output.output.as_deref());
    let Some(players) = run::players(args.alias.as_deref()) else {
        return;
    };
    let Some(run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    if args.format == Format::Parquet
        && run::binary_to_terminal(gamerec::formats::Format::Parquet, &output)
    {
        return;
    }
    let Some(writer) = run::create(&output) else {
        return;
    };
    let run = run.progress(args.quiet.quiet || output.is_terminal());
    let mut archive = Archive::new(players);
    let how = (args.quiet.quiet, args.color.color.for_stderr(), false);
    let read = run.traced(how, |name, g| archive.add(name, &g));
    let opts = RatingOptions {
        elo: args.elo_k,
        period: args.period,
        history: args.history,
        predict: args.predict,
    };
    let result = read.and_then(|_| {
        let rated = ratings::rate(&archive, opts);
        if rated.is_empty() {
            messages::note("no game to rate: none is valid, finished and between two players");
        }
        write(&args, writer, &archive, &rated)
    });
    messages::finished(result.and_then(|w| w.commit()));
}

fn sort(s: SortArg) -> Sort {
    match s {
        SortArg::BradleyTerry => Sort::BradleyTerry,
        SortArg::Elo => Sort::Elo,
        SortArg::Glicko2 => Sort::Glicko2,
        SortArg::Trueskill => Sort::TrueSkill,
        SortArg::WengLin => Sort::WengLin,
        SortArg::Games => Sort::Games,
        SortArg::Name => Sort::Name,
    }
}

/// Writes the ratings (or history, or predictions) in the asked format.
fn write(args: &Args, writer: Writer, a: &Archive, rated: &[TypeRatings]) -> io::Result<Writer> {
    let rows = match (args.history, args.predict) {
        (true, _) => Listing::History,
        (_, true) => Listing::Predict,
        _ => Listing::Players,
    };
    let format = match args.format {
        Format::Human => {
            let listing = (sort(args.sort), args.min_games);
            return human(writer, a, rated, rows, listing);
        }
        Format::Json => RowFormat::Json,
        Format::Csv => RowFormat::Csv,
        Format::Parquet => RowFormat::Parquet,
    };
    let name = match rows {
        Listing::Players => "ratings",
        Listing::History => "rating_history",
        Listing::Predict => "rating_predictions",
    };
    let out = io::BufWriter::new(writer);
    let mut out = RowsOut::new(
        out,
        format,
        name,
        table::columns(rows),
        args.spreadsheet_safe,
    )?;
    let listing = (sort(args.sort), args.min_games);
    table::each_row(a, rated, rows, listing, |row| out.push(row))?;
    out.finish()?.into_inner().map_err(|e| e.into_error())
}

fn human(
    writer: Writer,
    a: &Archive,
    rated: &[TypeRatings],
    rows: Listing,
    (sort, min_games): (Sort, u32),
) -> io::Result<Writer> {
    let mut out = io::BufWriter::new(writer);
    if let Some(line) = table::untyped(a) {
        writeln!(out, "{line}\n")?;
    }
    match rows {
        Listing::Predict => {
            for t in rated {
                writeln!(out, "{}", table::headline(a, t))?;
            }
            writeln!(out)?;
            write!(out, "{}", table::human_predict(rated))?;
        }
        Listing::Players | Listing::History => {
            for (i, t) in rated.iter().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                match rows {
                    Listing::History => write!(out, "{}", table::human_history(a, t))?,
                    _ => write!(
                        out,
                        "{}",
                        table::human_players(a, t, &ratings::order(a, t, sort, min_games))
                    )?,
                }
            }
        }
    }
    out.into_inner().map_err(|e| e.into_error())
}
