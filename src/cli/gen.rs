//! `gamerec gen --game G --count N --seed S`: random legal games in the
//! text format, for benchmarks and tests. The same seed gives the same
//! games on every run, with any number of jobs.

use super::jobs::Jobs;
use gamerec::convert::text::write_game;
use gamerec::gen::GenOptions;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

/// Games generated together before they are written, in order.
const BATCH: u64 = 512;

#[derive(clap::Args)]
#[command(
    after_help = "Each game plays uniformly random legal turns from the standard start until \
the rules end it or --max-plies is reached (then it is unfinished, `*`). Its Result tag is the \
one the rules give. Game i of seed S is the same on every machine and with any --jobs."
)]
pub struct Args {
    /// The game.
    #[arg(long, value_name = "GAME", help = format!("The game: {}", super::game_names()))]
    game: String,
    /// How many games.
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: u64,
    /// The seed.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Stop a game after this many plies (unfinished, `*`).
    #[arg(long, default_value_t = GenOptions::default().max_plies, value_name = "P")]
    max_plies: usize,
    /// Bias towards finishing: where a legal move ends the game, play one.
    #[arg(long)]
    finish: bool,
    /// Write here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    jobs: Jobs,
}

pub fn run(args: Args) -> i32 {
    let Some(rules) = gamerec::registry::find(&args.game) else {
        eprintln!(
            "gamerec: unknown game `{}`: one of {}",
            args.game,
            gamerec::registry::names().join(", ")
        );
        return super::EXIT_TROUBLE;
    };
    if let Err(code) = args.jobs.init() {
        return code;
    }
    let mut out = match super::output(args.output.as_deref()) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let opts = GenOptions {
        max_plies: args.max_plies,
        finish: args.finish,
    };
    let result = (|| -> std::io::Result<()> {
        let mut start = 1;
        while start <= args.count {
            let end = (start + BATCH).min(args.count + 1);
            let texts: Vec<String> = (start..end)
                .into_par_iter()
                .map(|i| {
                    let mut s = String::new();
                    if i > 1 {
                        s.push('\n');
                    }
                    write_game(&rules.generate(args.seed, i, &opts), &mut s);
                    s
                })
                .collect();
            for t in texts {
                out.write_all(t.as_bytes())?;
            }
            start = end;
        }
        out.flush()
    })();
    match super::finished(result) {
        Err(code) => code,
        Ok(()) => super::EXIT_VALID,
    }
}
