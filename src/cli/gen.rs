//! `gamerec gen --game G --count N --seed S`: random legal games in the
//! text format, for benchmarks and tests. The same seed gives the same
//! games on every run, with any number of jobs.

use super::messages;
use super::options::{Jobs, OutputArg};
use super::run::{self};
use gamerec::formats::text::write_game;
use gamerec::gen::GenOptions;
use gamerec::output::Output;
use rayon::prelude::*;
use std::io::Write;

/// Games generated together before they are written, in order.
const BATCH: u64 = 512;

#[derive(clap::Args)]
#[command(
    after_help = "Each game plays uniformly random legal turns from the standard start until \
the rules end it or --stop-after is reached (then it is unfinished, `*`). Its Result tag is the \
one the rules give. Game i of seed S is the same on every machine and with any --jobs."
)]
pub struct Args {
    /// The game.
    #[arg(long, value_name = "GAME", help = format!("The game: {}", super::game_names()))]
    game: String,
    /// How many games.
    #[arg(long = "games", default_value_t = 1, value_name = "N")]
    count: u64,
    /// Deprecated: the same as --games (`--count` elsewhere prints only a
    /// count).
    #[arg(
        long = "count",
        value_name = "N",
        hide = true,
        conflicts_with = "count"
    )]
    old_count: Option<u64>,
    /// The seed.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Stop a game after this many plies (unfinished, `*`).
    #[arg(long = "stop-after", default_value_t = GenOptions::default().max_plies, value_name = "P")]
    max_plies: usize,
    /// Deprecated: the same as --stop-after (`--max-plies` elsewhere
    /// selects games by length).
    #[arg(
        long = "max-plies",
        value_name = "P",
        hide = true,
        conflicts_with = "max_plies"
    )]
    old_max_plies: Option<usize>,
    /// Bias towards finishing: where a legal move ends the game, play one.
    #[arg(long)]
    finish: bool,
    #[command(flatten)]
    output: OutputArg,
    #[command(flatten)]
    jobs: Jobs,
}

/// Notes that `--old N` is now `--new N`, `--old` meaning what it `does`
/// elsewhere.
fn moved(old: &str, new: &str, n: impl std::fmt::Display, does: &str) {
    messages::note(format!(
        "gen --{old} {n} is now --{new} {n} (--{old} {does} elsewhere); the old spelling goes \
         in a later release"
    ));
}

pub fn run(mut args: Args) {
    if let Some(n) = args.old_count {
        moved("count", "games", n, "prints only a count");
        args.count = n;
    }
    if let Some(n) = args.old_max_plies {
        moved("max-plies", "stop-after", n, "selects games by length");
        args.max_plies = n;
    }
    let Some(rules) = run::find(&args.game) else {
        return;
    };
    let jobs = args.jobs.threads();
    // No more threads than batches of games.
    let threads = jobs.min(args.count.div_ceil(BATCH).max(1) as usize);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(e) => return messages::error(format!("cannot start {threads} threads: {e}")),
    };
    let Some(mut out) = run::create(&Output::new(args.output.output.as_deref())) else {
        return;
    };
    let opts = GenOptions {
        max_plies: args.max_plies,
        finish: args.finish,
    };
    let result = (|| -> std::io::Result<()> {
        // Inclusive ranges: `--count` may be u64::MAX, and count + 1 would
        // wrap.
        let mut start = 1u64;
        while start <= args.count {
            let last = start.saturating_add(BATCH - 1).min(args.count);
            let texts: Vec<String> = pool.install(|| {
                (start..=last)
                    .into_par_iter()
                    .map(|i| {
                        let mut s = String::new();
                        if i > 1 {
                            s.push('\n');
                        }
                        write_game(&gamerec::gen::generate(rules, args.seed, i, &opts), &mut s);
                        s
                    })
                    .collect()
            });
            for t in texts {
                out.write_all(t.as_bytes())?;
            }
            match last.checked_add(1) {
                Some(next) => start = next,
                None => break,
            }
        }
        out.commit()
    })();
    messages::finished(result);
}
