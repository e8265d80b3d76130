//! `gamerec view`: one self-contained HTML file that replays the games of
//! its inputs ply by ply (board, buttons and arrow keys, the move list, the
//! tags, the outcome or the error), with a picker for an archive's games.

use super::input::{expand, options, read_all, InputArgs, Item, Output};
use super::messages;
use super::progress::Progress;
use gamerec::picture::html::{Entry, Page, Part, Unplayable};
use gamerec::picture::svg::SvgOptions;
use gamerec::picture::ErrorAt;
use gamerec::pipeline::with_jobs;
use gamerec::problem::Problem;
use gamerec::record::{title, Chunk, ReadGame};
use gamerec::registry::AnyGame;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 every game valid; 1 some game invalid (it is in the \
viewer with its error); 2 a usage or I/O error."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Only game N (1 for the first, counted over all inputs).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    index: Option<u64>,
    /// Write the page to FILE (never one of the inputs) instead of standard
    /// output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Seen from the other side: the boards turned half round.
    #[arg(long)]
    flip: bool,
    /// Turn the boards by DEGREES clockwise (45 without a value: The Garden
    /// Gate's view of Vagabond Pai Sho).
    #[arg(long, value_name = "DEGREES", num_args = 0..=1, default_missing_value = "45", allow_negative_numbers = true)]
    rotate: Option<f64>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: Args) {
    let Some(opts) = options(args.input.game.as_deref()) else {
        return;
    };
    if args.output.is_none() && std::io::stdout().is_terminal() {
        messages::error(
            "the viewer is an HTML page: give -o FILE.html, or redirect standard output",
        );
        return;
    }
    if let Some(r) = args.rotate.filter(|r| !r.is_finite()) {
        messages::error(format!("--rotate {r}: give a number of degrees"));
        return;
    }
    let output = Output::new(args.output.as_deref());
    let Some(sources) = expand(&args.input.paths, args.input.all, &output) else {
        return;
    };
    let heading = match sources.as_slice() {
        [one] => format!("gamerec — {}", one.name()),
        _ => "gamerec".to_string(),
    };
    let Some(mut out) = output.create() else {
        return;
    };
    let progress = Progress::for_sources(&sources, args.quiet);
    let svg_opts = SvgOptions {
        flip: args.flip,
        rotate: args.rotate.unwrap_or(0.0),
        ..SvgOptions::default()
    };
    let mut page = Page::new(&heading);
    let wanted = args.index.map(|n| n as usize);
    // With --index the games are read on this thread, in order, and only
    // the wanted one is replayed.
    let read_so_far = AtomicUsize::new(0);
    let (mut seen, mut invalid) = (0usize, 0usize);
    let map = |_: &str, _: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| {
        let n = read_so_far.fetch_add(1, Ordering::Relaxed) + 1;
        if wanted.is_some_and(|w| w != n) {
            return None;
        }
        Some(Part::new(entry(game, rules), &svg_opts))
    };
    let each = |_: &str, item: Item<'_, Option<Part>>| {
        if let Item::Game(_, part) = item {
            seen += 1;
            if let Some(part) = part.filter(|_| wanted.is_none_or(|n| n == seen)) {
                if part.invalid() {
                    invalid += 1;
                    messages::invalid();
                }
                page.add(&mut out, seen, part)?;
            }
            if wanted.is_some_and(|n| seen >= n) {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    };
    let jobs = if wanted.is_some() { 1 } else { 0 };
    let read = with_jobs(jobs, || {
        read_all(sources, &args.input, &opts, &progress, map, each)
    });
    progress.finish();
    if let Err(e) = read {
        messages::finished(Err(e));
        return;
    }
    if let Some(n) = wanted.filter(|&n| seen < n) {
        messages::error(format!("there is no game {n} (the inputs hold {seen})"));
        return;
    }
    if page.is_empty() {
        messages::error("no game to view");
        return;
    }
    if invalid > 0 {
        messages::note(format!(
            "{invalid} of {} game{} invalid: the viewer shows each with its error",
            page.len(),
            if page.len() == 1 { " is" } else { "s are" }
        ));
    }
    let written = page.finish(&mut out);
    messages::finished(written.and_then(|()| out.commit()));
}

/// What the viewer shows of a game: its replay, or why it cannot be
/// replayed.
fn entry(game: &mut dyn ReadGame<'_>, rules: Result<&'static dyn AnyGame, Problem>) -> Entry {
    let unplayable = |game: &dyn ReadGame<'_>, p: Problem, sides| {
        Entry::Unplayable(Unplayable {
            title: title(game.tags(), sides).unwrap_or_else(|| "a game".into()),
            tags: game
                .tags()
                .iter()
                .map(|t| (t.name.to_string(), t.value.to_string()))
                .collect(),
            error: ErrorAt {
                ply: p.ply,
                token: p.token.map(String::from),
                message: p.message,
            },
        })
    };
    match rules {
        Ok(r) => match r.replayed(game) {
            Ok(replayed) => Entry::Played(Box::new(replayed)),
            Err(p) => unplayable(game, p, r.sides()),
        },
        Err(p) => unplayable(game, p, ["White", "Black"]),
    }
}
