//! A seeded generator of random legal games (`gamerec gen`), for benchmarks
//! and property tests. Game `index` of seed `seed` is the same on every run
//! and every machine: each game has its own random stream (PCG 64, seeded
//! from the seed and the index), so games can be generated in parallel.

use crate::play::replay::{result_token, turn_at};
use crate::play::sink::{Converted, TurnOut};
use gamerec_rules::game::{Ending, Notation, Rules, Side};
use gamerec_rules::random;

/// How games are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// A game still going after this many plies stops there, unfinished
    /// (`*`).
    pub max_plies: usize,
    /// Bias towards finishing: where some legal move ends the game, play
    /// one of those (uniformly); otherwise any legal move.
    pub finish: bool,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            max_plies: 200,
            finish: false,
        }
    }
}

/// Game `index` (1-based) of `seed`: random legal turns from the standard
/// start until the rules end the game or `max_plies` are played, with its
/// tags and the result the rules give (`*` when unfinished or when play
/// stops with no result).
pub fn game<G: Rules + Notation>(seed: u64, index: u64, opts: &GenOptions) -> Converted {
    let (turns, ending) = play_out::<G>(seed, index, opts, &mut |_| {});
    let result = match ending {
        Some(e) if e.decided => result_token(e.winner),
        _ => crate::envelope::record::ResultToken::Unknown,
    };
    let tags = vec![
        ("Game".to_string(), G::NAME.to_string()),
        ("Event".to_string(), format!("gamerec gen, seed {seed}")),
        ("Round".to_string(), index.to_string()),
        (
            G::SIDES[Side::First.index()].to_string(),
            "random".to_string(),
        ),
        (
            G::SIDES[Side::Second.index()].to_string(),
            "random".to_string(),
        ),
        ("Result".to_string(), result.as_str().to_string()),
    ];
    Converted {
        index: index as usize,
        game: Some(G::NAME),
        sides: G::SIDES,
        tags,
        comments: Vec::new(),
        turns,
        result: Some(result),
        outcome: None,
        error: None,
        marks: None,
        leads: None,
        trace: None,
    }
}

/// Every position played from in games `1..=games` of `seed` (for
/// benchmarks of move generation and tests over many positions).
pub fn positions<G: Rules + Notation>(
    seed: u64,
    games: u64,
    opts: &GenOptions,
) -> Vec<G::Position> {
    let mut out = Vec::new();
    for index in 1..=games {
        play_out::<G>(seed, index, opts, &mut |p| out.push(p.clone()));
    }
    out
}

/// Plays game `index` of `seed`, showing `visit` each position before a
/// turn is chosen; returns the turns and the ending reached.
fn play_out<G: Rules + Notation>(
    seed: u64,
    index: u64,
    opts: &GenOptions,
    visit: &mut dyn FnMut(&G::Position),
) -> (Vec<TurnOut<'static>>, Option<Ending>) {
    let start = G::start(&[]).expect("the standard start needs no tag");
    let first_mover = G::first_mover(&start);
    let starts_second = G::side_to_move(&start) != first_mover;
    let mut turns = Vec::new();
    let mut last = String::new();
    let played = random::play_out::<G>(seed, index, opts.max_plies, opts.finish, &mut |pos, mv| {
        visit(pos);
        let mut text = String::new();
        G::write_move(mv, &mut text);
        last.clone_from(&text);
        let (number, second, mover) = turn_at(turns.len(), first_mover, starts_second);
        turns.push(TurnOut {
            ply: turns.len() + 1,
            number,
            second,
            side: G::SIDES[mover.index()],
            text: text.into(),
            written: None,
            facts: None,
            site: None,
            assessment: None,
            nags: Vec::new(),
            comments: Vec::new(),
        });
    });
    match played {
        Ok(ending) => (turns, ending),
        // The move generator and the rules disagree: a bug, not input.
        Err(e) => panic!("{}: generated move {last} is illegal: {e}", G::NAME),
    }
}
