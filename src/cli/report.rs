//! `gamerec report PATH... [-o report.html] [--player P]`: one
//! self-contained HTML page about the archive — per game type results by
//! side, the first mover's advantage, lengths, end reasons, openings,
//! design metrics and ratings; per player results by side, opening and
//! opponent, their rating over time and analysis totals
//! (notation/report.md).

use super::messages;
use super::options::{Color, InputArgs, Jobs, OutputArg, Quiet};
use super::run::{self, Run};
use gamerec::output::Output;
use gamerec::ratings::systems::{EloK, Period, RatingOptions};
use gamerec::report::{self, Gathered, PageOptions};
use std::io::Write;

#[derive(clap::Args)]
#[command(after_help = "What the page holds and how each figure is computed: \
notation/report.md. The page loads nothing from elsewhere (no script, no font, no picture); \
every chart has a table of its numbers beside it.")]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// A section for this player only (a side tag's value, any case);
    /// default: the players with the most games.
    #[arg(long, value_name = "P")]
    player: Option<String>,
    /// How many players get a section without --player.
    #[arg(long, value_name = "N", default_value_t = 12)]
    players: usize,
    /// Merge spellings of a name (as `ratings --alias`).
    #[arg(long, value_name = "FILE")]
    alias: Option<std::path::PathBuf>,
    /// The page's heading.
    #[arg(long, value_name = "TEXT", default_value = "gamerec report")]
    title: String,
    #[command(flatten)]
    output: OutputArg,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    color: Color,
}

pub fn run(args: Args) {
    let output = Output::new(args.output.output.as_deref());
    let Some(players) = run::players(args.alias.as_deref()) else {
        return;
    };
    let Some(run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    let Some(mut writer) = run::create(&output) else {
        return;
    };
    let run = run.progress(args.quiet.quiet || output.is_terminal());
    let mut gathered = Gathered::new(players);
    let how = (args.quiet.quiet, args.color.color.for_stderr(), true);
    let read = run.traced(how, |name, g| gathered.add(name, &g));
    let opts = PageOptions {
        title: args.title.clone(),
        player: args.player.clone(),
        players: args.players,
        ratings: RatingOptions {
            elo: EloK::Fixed(32.0),
            period: Period::Month,
            history: true,
            predict: false,
        },
    };
    let result = read.and_then(|_| {
        let (page, note) = report::page(gathered, &opts);
        if let Some(n) = note {
            messages::warning(n);
        }
        writer.write_all(page.as_bytes()).map(|()| writer)
    });
    messages::finished(result.and_then(|w| w.commit()));
}
