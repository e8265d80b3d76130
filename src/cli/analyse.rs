//! `gamerec analyse PATH...`: every ply of every game searched exactly
//! within a horizon — proven wins and losses, missed wins, blunders, only
//! moves — with a win-chance estimate and its marks; a line per mark and a
//! summary, or JSON Lines (notation/analysis.md).

use super::messages;
use super::options::{Color, HumanOrJson as Format, InputArgs, Jobs, Quiet, SearchArgs};
use super::run::Run;
use gamerec::analysed::{self, Analysed, JsonAnalysis};
use gamerec::analysis::{Mark, Plies, PlyAnalysis, Settings};
use gamerec::inputs::Item;
use gamerec::output::Output;
use gamerec::record::Chunk;
use gamerec::report::{escape, place, problem_report};
use gamerec::search::Value;
use std::io::{self, Write};
use std::ops::ControlFlow;

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
    /// `human`: a line per mark and a summary; `json`: one object per game
    /// per line (notation/analysis.md).
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
    #[command(flatten)]
    jobs: Jobs,
}

impl Args {
    fn settings(&self) -> Settings {
        self.search.settings(match (self.last, self.plies) {
            (Some(k), _) => Plies::Last(k as usize),
            (_, Some(p)) => p,
            _ => Plies::All,
        })
    }
}

#[derive(Default)]
struct Tally {
    games: usize,
    invalid: usize,
    searched: usize,
    marks: [usize; 6],
}

pub fn run(args: Args) {
    let Some(run) = Run::start(&args.input, &args.jobs, &Output::new(None)) else {
        return;
    };
    if messages::stdout_closed() {
        return;
    }
    let run = run.progress(args.quiet.quiet);
    let settings = args.settings();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut tally = Tally::default();
    let map = |v: gamerec::formats::Visit<'_, '_>| analysed::analyse(v.game, v.rules, &settings);
    let each = |item: Item<'_, Analysed>| {
        let Some(seen) = super::run::game(item) else {
            return Ok(ControlFlow::Continue(()));
        };
        let a = &seen.value;
        tally.games += 1;
        if !a.is_valid() {
            tally.invalid += 1;
            messages::invalid();
        }
        if let Some(x) = &a.analysis {
            tally.searched += x.searched.len();
            for side in x.totals() {
                for (t, n) in tally.marks.iter_mut().zip(side) {
                    *t += n;
                }
            }
        }
        match args.format {
            Format::Json => {
                let line = JsonAnalysis::new(seen.input, seen.index, seen.chunk, a);
                serde_json::to_writer(&mut out, &line)?;
                writeln!(out)?;
            }
            Format::Human => human(&mut out, &args, seen.input, seen.index, seen.chunk, a)?,
        }
        Ok(ControlFlow::Continue(()))
    };
    let read = run.read(map, each);
    let result = read.and_then(|_| {
        if args.format == Format::Human && !args.quiet.quiet {
            summary(&mut out, &tally)?;
        }
        out.flush()
    });
    messages::finished(result);
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
    if let Some(x) = &a.analysis {
        for p in &x.searched {
            for &m in &p.marks {
                let at = match chunk {
                    Some(c) => {
                        let (line, col) = c.locate(p.span.start);
                        format!("{}:{line}:{col}", escape(input))
                    }
                    None => escape(input),
                };
                let turn = format!("{}{}", escape(&p.turn), m.assessment());
                let said = explain(m, p, a.sides);
                let here = place(Some(index), title, Some(p.ply));
                writeln!(out, "{at}: {here}: {turn} {}: {said}", m.name())?;
            }
        }
    }
    if let Some(p) = &a.error {
        messages::suspended(|| {
            let color = args.color.color.for_stdout();
            problem_report(out, input, chunk, Some(index), title, p, color)?;
            out.flush()
        })?;
    }
    Ok(())
}

/// `win in 3`, `a draw`, … for `side` (named) of a value that is its.
fn value_text(v: Value, side: &str, other: &str) -> String {
    match v {
        Value::Win(0) => format!("{side} has won"),
        Value::Loss(0) => format!("{other} has won"),
        Value::Win(d) => format!("{side} wins in {d}"),
        Value::Loss(d) => format!("{other} wins in {d}"),
        Value::Draw => "a draw".to_string(),
        Value::Unknown => "nothing proven".to_string(),
    }
}

/// What a mark says: the values before and after, and what was better.
fn explain(m: Mark, p: &PlyAnalysis, sides: [&str; 2]) -> String {
    let (me, them) = (sides[p.side.index()], sides[p.side.other().index()]);
    let after = p
        .after
        .map_or("unknown".into(), |v| value_text(v, me, them));
    let before = value_text(p.before, me, them);
    let better = match p.best.as_slice() {
        [] => match &p.estimate_best {
            Some(e) => format!("; the estimate's move: {e}"),
            None => String::new(),
        },
        [one] => format!("; best: {one}"),
        [first, rest @ ..] => format!("; best: {first} (or {} more)", rest.len()),
    };
    match m {
        Mark::MissedWin => format!("before it {before}{better}; after it {after}"),
        Mark::Blunder => format!("now {after}; before it {before}{better}"),
        Mark::OnlyMove if matches!(p.before, Value::Win(_)) => {
            format!("the only move that wins ({before})")
        }
        Mark::OnlyMove => format!("the only move that does not lose ({after})"),
        _ => {
            let c = |x: Option<f64>| x.map_or("?".into(), |x| format!("{x:.2}"));
            format!(
                "{me}'s win chance {} -> {} (estimate)",
                c(p.chance),
                c(p.chance_after)
            )
        }
    }
}

/// `12 games (1 invalid), 640 plies searched: 3 missed wins, 5 blunders, …`
fn summary(out: &mut dyn Write, t: &Tally) -> io::Result<()> {
    let games = match t.games {
        1 => "1 game".to_string(),
        n => format!("{n} games"),
    };
    let invalid = match t.invalid {
        0 => String::new(),
        n => format!(" ({n} invalid)"),
    };
    let marks: Vec<String> = Mark::ALL
        .iter()
        .zip(t.marks)
        .map(|(m, n)| format!("{n} {}", m.name()))
        .collect();
    writeln!(
        out,
        "{games}{invalid}, {} plies searched: {}",
        t.searched,
        marks.join(", ")
    )
}
