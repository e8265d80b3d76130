//! `gamerec tune --game G --seed S --games N`: a game's evaluation
//! weights fitted to seeded random self-play games, written as its weights
//! file (the committed `eval.weights` is what its header's command
//! writes); how well they fit and predict other games goes to stderr.

use super::messages;
use super::options::{OutputArg, Quiet};
use super::run::{self};
use gamerec::output::Output;
use std::io::Write;

#[derive(clap::Args)]
#[command(
    after_help = "Game i of seed S plays uniformly random legal turns from the standard start \
(at most 400 plies); every position of each game that ended with a result is labelled 1, 1/2 or \
0 for its side to move, and the weights of the game's features are fitted by logistic regression \
(Newton's method). The same seed and number of games give the same file, bit for bit. Then the \
weights are tried on as many games of seed S+1: their log-loss against a coin's, and their \
calibration error. Memory: every position's features are held for the fit, 8 bytes a feature \
(about 17 MB for 2,000 games of 180 positions and 6 features). See notation/engine.md."
)]
pub struct Args {
    /// The game.
    #[arg(long, value_name = "GAME", help = format!("The game: {}", super::game_names()))]
    game: String,
    /// The self-play games' seed.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// How many self-play games (at most 100,000: every position's
    /// features are held for the fit, 8 bytes a feature).
    #[arg(long, default_value_t = 2000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    games: u64,
    #[command(flatten)]
    output: OutputArg,
    #[command(flatten)]
    quiet: Quiet,
}

pub fn run(args: Args) {
    let Some(rules) = run::find(&args.game) else {
        return;
    };
    let Some(tuned) = gamerec::tune::tune(rules, args.seed, args.games) else {
        return messages::error(format!(
            "none of the {} self-play games of seed {} ended with a result: nothing to fit",
            args.games, args.seed
        ));
    };
    let Some(mut out) = run::create(&Output::new(args.output.output.as_deref())) else {
        return;
    };
    let written = out
        .write_all(tuned.text.as_bytes())
        .and_then(|()| out.commit());
    if written.is_ok() && !args.quiet.quiet {
        let h = &tuned.held_out;
        messages::say(format!(
            "gamerec: fitted {} positions of {} finished games: log-loss {:.4} (a constant: \
             {:.4}); on {} positions of seed {}: log-loss {:.4} (a coin: {:.4}), calibration \
             error {:.4}",
            tuned.positions,
            tuned.finished,
            tuned.fit.log_loss,
            tuned.fit.constant_log_loss,
            h.positions,
            args.seed.wrapping_add(1),
            h.log_loss,
            h.coin,
            h.calibration_error
        ));
    }
    messages::finished(written);
}
