//! Fits a game's evaluation weights to random self-play games and prints
//! the weights file (the game's `eval.weights`):
//!
//! ```text
//! cargo run --release -p gamerec-rules --example tune -- oshi 1 2000 \
//!     > crates/rules/src/games/oshi/eval.weights
//! ```
//!
//! How well they fit, and how well they predict other games (of the next
//! seed), goes to standard error.

use gamerec_rules::eval::{header, held_out, tune};
use gamerec_rules::game::{Evaluate, Game};
use gamerec_rules::games::iqishiqi::Iqishiqi;
use gamerec_rules::games::oshi::Oshi;
use gamerec_rules::games::retsami::Retsami;
use gamerec_rules::games::roshi::Roshi;
use gamerec_rules::games::vagabond::Vagabond;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names = [
        Oshi::NAME,
        Retsami::NAME,
        Iqishiqi::NAME,
        Roshi::NAME,
        Vagabond::NAME,
    ]
    .join(", ");
    let [game, seed, games] = args.as_slice() else {
        eprintln!("usage: tune GAME SEED GAMES (GAME: {names})");
        return ExitCode::from(2);
    };
    let (Ok(seed), Ok(games)) = (seed.parse::<u64>(), games.parse::<u64>()) else {
        eprintln!("tune: SEED and GAMES are whole numbers");
        return ExitCode::from(2);
    };
    match game.as_str() {
        g if g == Oshi::NAME => run::<Oshi>(seed, games),
        g if g == Retsami::NAME => run::<Retsami>(seed, games),
        g if g == Iqishiqi::NAME => run::<Iqishiqi>(seed, games),
        g if g == Roshi::NAME => run::<Roshi>(seed, games),
        g if g == Vagabond::NAME => run::<Vagabond>(seed, games),
        other => {
            eprintln!("tune: no evaluation for {other:?} yet ({names})");
            ExitCode::from(2)
        }
    }
}

fn run<G: Evaluate>(seed: u64, games: u64) -> ExitCode {
    let Some(t) = tune::<G>(seed, games) else {
        eprintln!("tune: no self-play game finished");
        return ExitCode::from(1);
    };
    print!(
        "{}",
        t.weights.write(&header(G::NAME, seed, games), G::FEATURES)
    );
    let h = held_out::<G>(&t.weights, seed + 1, games);
    eprintln!(
        "{} positions of {} finished games: log-loss {:.4} (a constant: {:.4}); \
         {} positions of {games} games of seed {}: log-loss {:.4} (a coin: {:.4}), \
         calibration error {:.4}",
        t.positions,
        t.finished,
        t.fit.log_loss,
        t.fit.constant_log_loss,
        h.positions,
        seed + 1,
        h.log_loss,
        h.coin,
        h.calibration_error
    );
    ExitCode::SUCCESS
}
