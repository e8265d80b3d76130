//! `gamerec analyse PATH...`: every ply of every game searched exactly
//! within a horizon — proven wins and losses, missed wins, blunders, only
//! moves — with a win-chance estimate and its marks; a line per mark and a
//! summary, JSON Lines, a Parquet row per ply, or the records written back
//! annotated (notation/analysis.md).

use super::messages;
use super::options::{Color, InputArgs, Jobs, OutputArg, Quiet, SearchArgs};
use super::run::{self, Run};
use gamerec::analyse::{self, Analysed, JsonAnalysis, Marked};
use gamerec::analysis::{Plies, Settings};
use gamerec::diagnostics::problem_report;
use gamerec::formats::rows::{RowFormat, RowTable};
use gamerec::inputs::{Item, Seen};
use gamerec::output::{Output, Writer};
use gamerec::record::Chunk;
use gamerec::sink::out::Rendered;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(clap::Args)]
#[command(
    mut_arg("quiet", |a| a.help("Print only the marks: no summary, no progress bar")),
    after_help = "Values, marks, the JSON schema and each game's default horizon: \
notation/analysis.md. A value called a win or a loss is proven within the horizon; where the \
budget runs out it is `unknown`. Estimates (the win chance and its marks) are labelled so."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Search only the last K plies of each game (the rest is replayed).
    #[arg(long, value_name = "K", conflicts_with = "plies", value_parser = clap::value_parser!(u64).range(1..))]
    last: Option<u64>,
    /// Search only plies A to B (`12-30`, `40-`, `7`).
    #[arg(long, value_name = "A-B", value_parser = Plies::parse)]
    plies: Option<Plies>,
    /// Only game N (1 for the first, counted over all inputs), as `view`,
    /// `show` and `moves` take it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    index: Option<u64>,
    /// `human`: a line per mark and a summary; `json`: one object per game
    /// per line; `parquet`: a row per searched ply (notation/analysis.md).
    #[arg(
        long = "to",
        visible_alias = "format",
        value_enum,
        default_value = "human",
        value_name = "FORMAT"
    )]
    format: Format,
    /// Write the records back annotated instead: each searched turn with
    /// its gravest mark's assessment (`??`, `!`, …) and a comment of
    /// commands (`[%value W3] [%win 0.620] [%mark blunder] [%best c7-c9]`);
    /// the marks go to stderr.
    #[arg(long, conflicts_with = "format")]
    annotate: bool,
    #[command(flatten)]
    output: OutputArg,
    #[command(flatten)]
    color: Color,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    jobs: Jobs,
}

impl Args {
    fn settings(&self) -> Settings {
        let plies = match (self.last, self.plies) {
            (Some(k), _) => Plies::Last(k as usize),
            (_, Some(p)) => p,
            _ => Plies::All,
        };
        Settings {
            jobs: self.jobs.threads(),
            ..self.search.settings(plies)
        }
    }
}

/// What `analyse` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
    Parquet,
}

/// Where the analyses go.
enum Sink {
    /// Lines (marks and the summary, or JSON), to the output.
    Lines(io::BufWriter<Writer>),
    Parquet(Box<RowTable<Writer>>),
    /// The records, annotated, to the output; the marks to stderr.
    Annotated(io::BufWriter<Writer>),
}

impl Sink {
    /// The sink `--annotate` and `--to` ask for.
    fn new(writer: Writer, annotate: bool, parquet: bool) -> io::Result<Sink> {
        Ok(match (annotate, parquet) {
            (true, _) => Sink::Annotated(io::BufWriter::new(writer)),
            (false, true) => Sink::Parquet(Box::new(RowTable::new(
                writer,
                RowFormat::Parquet,
                "analysis",
                analyse::columns(),
                false,
            )?)),
            (false, false) => Sink::Lines(io::BufWriter::new(writer)),
        })
    }

    /// Writes one game's analysis (the `games`-th).
    fn write(
        &mut self,
        args: &Args,
        seen: Seen<'_, (Analysed, Option<Rendered>)>,
        games: usize,
    ) -> io::Result<()> {
        let (input, index, chunk) = (seen.input, seen.index, seen.chunk);
        let a = &seen.value.0;
        match self {
            Sink::Lines(out) if args.format == Format::Json => {
                serde_json::to_writer(&mut *out, &JsonAnalysis::new(input, index, chunk, a))?;
                writeln!(out)?;
            }
            Sink::Lines(out) => human(out, args, input, index, chunk, a)?,
            Sink::Parquet(table) => {
                for row in analyse::rows(input, index, chunk, a) {
                    table.push(&row)?;
                }
            }
            Sink::Annotated(out) => {
                if games > 1 {
                    writeln!(out)?;
                }
                if let Some(text) = seen.value.1 {
                    text.write_to(out, 0, None)?;
                }
                // Said whole, then written (the lock `to_stderr` takes
                // is the one a problem report takes).
                let mut said = Vec::new();
                human(&mut said, args, input, index, chunk, a)?;
                messages::to_stderr(|err| err.write_all(&said));
            }
        }
        Ok(())
    }

    fn finish(self) -> io::Result<Writer> {
        match self {
            Sink::Lines(w) | Sink::Annotated(w) => w.into_inner().map_err(|e| e.into_error()),
            Sink::Parquet(t) => t.finish(),
        }
    }
}

pub fn run(args: Args) {
    if !args.search.tables_fit(args.jobs.threads()) {
        return;
    }
    let output = Output::new(args.output.output.as_deref());
    let Some(mut run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    let wanted = args.index.map(|n| n as usize);
    // With --index the games are read on this thread, in order, and only
    // the wanted one is searched (the search still takes -j threads).
    if wanted.is_some() {
        run.opts.jobs = 1;
    }
    let parquet = args.format == Format::Parquet && !args.annotate;
    if parquet && run::binary_to_terminal(gamerec::formats::Format::Parquet, &output) {
        return;
    }
    let Some(writer) = run::create(&output) else {
        return;
    };
    let mut sink = match Sink::new(writer, args.annotate, parquet) {
        Ok(s) => s,
        Err(e) => return messages::finished(Err(e)),
    };
    let run = run.progress(args.quiet.quiet || output.is_terminal());
    let settings = args.settings();
    let mut tally = Marked::default();
    let read_so_far = AtomicUsize::new(0);
    let map = |v: gamerec::formats::Visit<'_, '_>| {
        let n = read_so_far.fetch_add(1, Ordering::Relaxed) + 1;
        if wanted.is_some_and(|w| w != n) {
            return None;
        }
        Some(analyse::analysed(v.game, v.rules, &settings, args.annotate))
    };
    let mut seen_games = 0;
    let each = |item: Item<'_, Option<(Analysed, Option<Rendered>)>>| {
        let Some(seen) = super::run::game(item) else {
            return Ok(ControlFlow::Continue(()));
        };
        seen_games += 1;
        if let Some(value) = seen.value {
            if !tally.add(&value.0) {
                messages::invalid();
            }
            let seen = Seen {
                input: seen.input,
                index: seen.index,
                chunk: seen.chunk,
                value,
            };
            sink.write(&args, seen, tally.games)?;
        }
        match wanted.is_some_and(|n| seen_games >= n) {
            true => Ok(ControlFlow::Break(())),
            false => Ok(ControlFlow::Continue(())),
        }
    };
    let read = run.read(map, each);
    if let Some(n) = wanted.filter(|&n| read.is_ok() && seen_games < n) {
        let held = seen_games;
        return messages::error(format!("there is no game {n} (the inputs hold {held})"));
    }
    let result = read.and_then(|_| {
        let human = args.format == Format::Human || args.annotate;
        if human && !args.quiet.quiet {
            match &mut sink {
                Sink::Lines(out) => tally.write(out)?,
                _ => messages::to_stderr(|err| tally.write(err)),
            }
        }
        sink.finish()
    });
    messages::finished(result.and_then(|w| w.commit()));
}

/// A game's marks, a line each, then its problem if it has one.
fn human(
    out: &mut dyn Write,
    args: &Args,
    input: &str,
    index: usize,
    chunk: Option<&Chunk>,
    a: &Analysed,
) -> io::Result<()> {
    let title = a.title.as_deref();
    analyse::write_marks(out, input, index, chunk, a)?;
    if let Some(p) = &a.error {
        messages::suspended(|| {
            let color = match args.annotate {
                true => args.color.color.for_stderr(),
                false => args.color.color.for_stdout(),
            };
            problem_report(out, input, chunk, Some(index), title, p, color)?;
            out.flush()
        })?;
    }
    Ok(())
}
