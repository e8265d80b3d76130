//! `gamerec view`: one self-contained HTML file that replays the games of
//! its inputs ply by ply (board, buttons and arrow keys, the move list, the
//! tags, the outcome or the error), with a picker for an archive's games.

use super::messages;
use super::options::{Color, InputArgs, Jobs, OutputArg, Quiet};
use super::run::{self, Run};
use gamerec::formats::Visit;
use gamerec::inputs::{Item, Seen};
use gamerec::output::{Output, Writer};
use gamerec::picture::html::{Page, Part, ViewerGame};
use gamerec::picture::svg::SvgOptions;
use gamerec::problem::Problem;
use gamerec::tree::{self, Walked};
use gamerec::view;
use gamerec::walk::Explorer;
use std::collections::HashSet;
use std::io::{self, IsTerminal};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(clap::Args)]
#[command(
    mut_arg("output", |a| a.help("Write the page to FILE (never one of the inputs) instead of \
standard output")),
    after_help = "An invalid game is in the viewer with its error, and reported on stderr."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Only game N (1 for the first, counted over all inputs).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    index: Option<u64>,
    #[command(flatten)]
    output: OutputArg,
    /// Seen from the other side: the boards turned half round.
    #[arg(long)]
    flip: bool,
    /// Turn the boards by DEGREES clockwise (45 without a value: The Garden
    /// Gate's view of Vagabond Pai Sho).
    #[arg(long, value_name = "DEGREES", num_args = 0..=1, default_missing_value = "45", allow_negative_numbers = true)]
    rotate: Option<f64>,
    /// An explorer panel beside the board: for each position shown, the
    /// games of these inputs (an archive: files or folders) that reached
    /// it, their results and the turns played there (notation/tree.md).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    tree: Vec<PathBuf>,
    /// With `--tree`: look at positions in the tree's games' first N plies.
    #[arg(long, value_name = "N", default_value_t = 20, requires = "tree")]
    tree_depth: usize,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    color: Color,
    #[command(flatten)]
    jobs: Jobs,
}

/// A game drawn for the page (on a worker thread), with its problem and
/// title when it is invalid, and its positions' keys (`--tree`).
type Drawn = Option<(Part, Option<(Problem, Option<String>)>, Vec<u64>)>;

pub fn run(args: Args) {
    if args.output.output.is_none() && std::io::stdout().is_terminal() {
        messages::error(
            "the viewer is an HTML page: give -o FILE.html, or redirect standard output",
        );
        return;
    }
    if let Some(r) = args.rotate.filter(|r| !r.is_finite()) {
        messages::error(format!("--rotate {r}: give a number of degrees"));
        return;
    }
    let output = Output::new(args.output.output.as_deref());
    let Some(mut run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    let heading = match run.sources.as_slice() {
        [one] => format!("gamerec — {}", one.name()),
        _ => "gamerec".to_string(),
    };
    let Some(mut out) = run::create(&output) else {
        return;
    };
    let wanted = args.index.map(|n| n as usize);
    // With --index the games are read on this thread, in order, and only
    // the wanted one is replayed.
    if wanted.is_some() {
        run.opts.jobs = 1;
    }
    let run = run.progress(args.quiet.quiet);
    let svg_opts = SvgOptions {
        flip: args.flip,
        rotate: args.rotate.unwrap_or(0.0),
        ..SvgOptions::default()
    };
    let page = Page::new(&heading);
    let explore = !args.tree.is_empty();
    let read_so_far = AtomicUsize::new(0);
    let map = |v: Visit<'_, '_>| -> Drawn {
        let n = read_so_far.fetch_add(1, Ordering::Relaxed) + 1;
        if wanted.is_some_and(|w| w != n) {
            return None;
        }
        let name = v.rules.as_ref().ok().map(|r| r.name());
        let (entry, problem) = view::entry(v);
        let keys = match (&entry, explore) {
            (ViewerGame::Played(r), true) => r.keys.clone(),
            _ => Vec::new(),
        };
        let name = name.filter(|_| explore);
        Some((Part::with_keys(entry, &svg_opts, name), problem, keys))
    };
    let mut viewer = Viewer {
        page,
        wanted,
        seen: 0,
        invalid: 0,
        color: args.color.color.for_stderr(),
        keys: HashSet::new(),
    };
    let each = |item: Item<'_, Drawn>| match run::game(item) {
        Some(game) => viewer.add(game, &mut out),
        None => Ok(ControlFlow::Continue(())),
    };
    if let Err(e) = run.read(map, each) {
        messages::finished(Err(e));
        return;
    }
    let panel = match explore && !viewer.page.is_empty() {
        true => match explored_panel(&args, &viewer.keys, &output) {
            Some(p) => Some(p),
            None => return,
        },
        false => None,
    };
    viewer.finish(out, args.quiet.quiet, panel.as_deref());
}

/// `--tree`: the explorer panel's data for the positions in `keys`, from
/// the tree's inputs (read as the viewed ones are: `--from`, `--game`,
/// `--encoding`); `None` when they cannot be read (said).
fn explored_panel(args: &Args, keys: &HashSet<u64>, output: &Output) -> Option<String> {
    let input = InputArgs {
        paths: args.tree.clone(),
        ..args.input.clone()
    };
    let run = Run::start(&input, &args.jobs, output)?.progress(args.quiet.quiet);
    let depth = args.tree_depth;
    let map = |v: Visit<'_, '_>| tree::walk_keys(v, keys, depth);
    let mut explorer = Explorer::default();
    let color = args.color.color.for_stderr();
    let each = |item: Item<'_, Walked>| {
        if let Some(seen) = run::game(item) {
            run::explore(&mut explorer, &seen, color);
        }
        Ok(ControlFlow::Continue(()))
    };
    if let Err(e) = run.read(map, each) {
        messages::finished(Err(e));
        return None;
    }
    let names: Vec<String> = args.tree.iter().map(|p| p.display().to_string()).collect();
    Some(tree::panel(&explorer.finish(1), &names.join(", "), depth))
}

/// The page being written, and what was seen of the games.
struct Viewer {
    page: Page,
    /// `--index`: the one game wanted.
    wanted: Option<usize>,
    seen: usize,
    invalid: usize,
    color: bool,
    /// The positions of the games on the page (`--tree`).
    keys: HashSet<u64>,
}

impl Viewer {
    /// Adds a game drawn for the page (the one wanted, with `--index`),
    /// reporting it when it is invalid; stops after the one wanted.
    fn add(&mut self, game: Seen<'_, Drawn>, out: &mut Writer) -> io::Result<ControlFlow<()>> {
        self.seen += 1;
        let (seen, wanted) = (self.seen, self.wanted);
        if let Some((part, problem, keys)) = game.value.filter(|_| wanted.is_none_or(|n| n == seen))
        {
            self.keys.extend(keys);
            if let Some((p, title)) = problem {
                self.invalid += 1;
                let (input, chunk, title) = (game.input, game.chunk, title.as_deref());
                run::report_invalid(input, chunk, Some(game.index), title, &p, self.color);
            }
            self.page.add(out, seen, part)?;
        }
        match wanted.is_some_and(|n| seen >= n) {
            true => Ok(ControlFlow::Break(())),
            false => Ok(ControlFlow::Continue(())),
        }
    }

    /// Ends the page and puts it in place; an `--index` past the games, or
    /// no game at all, is an error.
    fn finish(self, mut out: Writer, quiet: bool, panel: Option<&str>) {
        if let Some(n) = self.wanted.filter(|&n| self.seen < n) {
            let held = self.seen;
            return messages::error(format!("there is no game {n} (the inputs hold {held})"));
        }
        if self.page.is_empty() {
            // Each input held no game gamerec plays (exit code 1, said), or
            // could not be read (2, said).
            return messages::warning("no game to view: no page written");
        }
        let games = self.page.len();
        if self.invalid > 0 && !quiet {
            messages::note(format!(
                "{} of {games} game{} invalid: the viewer shows each with its error",
                self.invalid,
                if games == 1 { " is" } else { "s are" }
            ));
        }
        let written = self.page.finish_explored(&mut out, panel);
        messages::finished(written.and_then(|()| out.commit()));
    }
}
