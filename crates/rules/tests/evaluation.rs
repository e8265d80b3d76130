//! Each game's evaluation (`games/<game>/evaluate.rs`, notation/engine.md)
//! through the public `eval` API alone: its committed weights
//! (`eval.weights`) are exactly what fitting makes from the seed and the
//! number of games the file names, written as the fitting writes them
//! (header included); and on the positions of the games of the next seed,
//! which it was not fitted on, its win chance beats a coin's ½ in log-loss
//! and is calibrated.

use gamerec_rules::eval::{header, held_out, tune, Evaluator, Weights};
use gamerec_rules::game::Evaluate;
use gamerec_rules::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};

fn committed<G: Evaluate>() {
    let committed = Weights::parse(G::WEIGHTS, G::FEATURES).unwrap();
    let tuned = tune::<G>(committed.seed, committed.games).unwrap();
    let text = header(G::NAME, committed.seed, committed.games);
    assert_eq!(
        tuned.weights.write(&text, G::FEATURES),
        G::WEIGHTS,
        "{}",
        G::NAME
    );
    assert!(
        tuned.fit.log_loss < tuned.fit.constant_log_loss,
        "{}: {:?}",
        G::NAME,
        tuned.fit
    );
}

/// On `games` games of the next seed: a log-loss below a coin's by at
/// least `margin`, an expected calibration error under 0.05, over more
/// than `least` positions.
fn held<G: Evaluate>(games: u64, margin: f64, least: usize) {
    let eval = Evaluator::<G>::new().unwrap();
    let w = eval.weights();
    let h = held_out::<G>(w, w.seed + 1, games);
    assert!(h.log_loss < h.coin - margin, "{}: {h:?}", G::NAME);
    assert!(h.calibration_error < 0.05, "{}: {h:?}", G::NAME);
    assert!(h.positions > least, "{}: {h:?}", G::NAME);
}

#[test]
fn the_committed_weights_are_what_tuning_with_their_seed_and_games_makes() {
    committed::<Oshi>();
    committed::<Retsami>();
    committed::<Iqishiqi>();
    committed::<Roshi>();
    committed::<Vagabond>();
}

/// Random self-play says little of who wins a Roshi game long before its
/// end (a random turn seldom completes the roshi it could): its
/// evaluation beats a coin, but barely (notation/engine.md).
#[test]
fn each_evaluation_predicts_games_it_was_not_fitted_on_better_than_a_coin() {
    held::<Oshi>(300, 0.03, 20_000);
    held::<Retsami>(1000, 0.02, 50_000);
    held::<Iqishiqi>(2000, 0.02, 10_000);
    held::<Roshi>(60, 0.0, 2_000);
    held::<Vagabond>(300, 0.01, 20_000);
}
