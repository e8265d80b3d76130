//! The exact search against a plain minimax written here (no pruning, no
//! table, no ordering, no deepening), on positions of random games of every
//! game — from the middle of games and from their last plies, where forced
//! outcomes are — at horizons 1–3 (1–2 for Roshi and Vagabond, whose
//! positions have hundreds to thousands of turns: horizon 2 where a
//! position has at most 60); and the keys: equal
//! positions reached by different move orders have equal keys, different
//! ones differ.

use gamerec::game::{Notation, Search};
use gamerec::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};
use gamerec::gen::{positions, GenOptions};
use gamerec::search::split::judge_split;
use gamerec::search::{Budget, Searcher, Table, Value};
use std::collections::HashMap;

/// A win `d` plies from the node scores `W - d`.
const W: i32 = 1 << 20;

/// The plain minimax: the node's score with every position at the horizon
/// (and every position where play stops with no result) counted as the
/// worst and as the best it could be for the side to move — (-1, +1) — a
/// draw 0, a win or loss its distance. Returns (pessimistic, optimistic).
fn minimax<G: Search>(pos: &G::Position, depth: u32) -> (i32, i32) {
    if let Some(e) = G::ending(pos) {
        return match (e.decided, e.winner) {
            (false, _) => (-1, 1),
            (true, None) => (0, 0),
            (true, Some(w)) if w == G::side_to_move(pos) => (W, W),
            (true, Some(_)) => (-W, -W),
        };
    }
    if depth == 0 {
        return (-1, 1);
    }
    let mut moves = Vec::new();
    G::legal_moves(pos, &mut moves);
    moves.retain(|m| !G::agreement(m));
    if moves.is_empty() {
        return (-1, 1);
    }
    let shift = |s: i32| match s {
        s if s > 1 => s - 1,
        s if s < -1 => s + 1,
        s => s,
    };
    let (mut lo, mut hi) = (i32::MIN, i32::MIN);
    for m in &moves {
        let mut next = pos.clone();
        G::play(&mut next, m).unwrap_or_else(|e| panic!("a generated move is refused: {e}"));
        let (clo, chi) = minimax::<G>(&next, depth - 1);
        lo = lo.max(shift(-chi));
        hi = hi.max(shift(-clo));
    }
    (lo, hi)
}

fn value_of((lo, hi): (i32, i32)) -> Value {
    match (lo, hi) {
        (lo, _) if lo > 1 => Value::Win((W - lo) as u32),
        (_, hi) if hi < -1 => Value::Loss((W + hi) as u32),
        (0, 0) => Value::Draw,
        _ => Value::Unknown,
    }
}

/// Positions to test: `middle` spread over random games, and the last
/// `tail` positions of each of `games` games (biased to finish, so that
/// forced wins are among them).
fn sample<G: Search + Notation>(games: u64, middle: usize, tail: usize) -> Vec<G::Position> {
    let mut out = Vec::new();
    for g in 0..games {
        let plain = positions::<G>(100 + g, 1, &GenOptions::default());
        let step = (plain.len() / middle.max(1)).max(1);
        out.extend(plain.iter().step_by(step).take(middle).cloned());
        out.extend(last_positions::<G>(200 + g, tail));
    }
    out
}

/// The last `tail` positions of a random game made to finish, from `seed`
/// (random games finish within a few thousand plies).
fn last_positions<G: Search + Notation>(seed: u64, tail: usize) -> Vec<G::Position> {
    let finishing = GenOptions {
        finish: true,
        max_plies: 5000,
    };
    let ended = positions::<G>(seed, 1, &finishing);
    ended.into_iter().rev().take(tail).collect()
}

/// Checks the search's value of every sampled position, and of every turn
/// from it, against the minimax at horizons 1..=max.
/// Positions of more than `wide` turns are checked at horizon 1 only.
fn agrees<G: Search + Notation>(games: u64, middle: usize, tail: usize, max: u32, wide: usize) {
    let seen = agrees_on::<G>(sample::<G>(games, middle, tail), max, wide);
    // The sample reaches proven values, not only unknown ones.
    eprintln!("{}: {seen:?}", G::NAME);
    let proven = |v: &Value| !matches!(v, Value::Unknown | Value::Draw);
    assert!(seen.iter().any(|(v, _)| proven(v)));
}

/// [`agrees`] on the positions given; how many of each value they have.
fn agrees_on<G: Search + Notation>(
    sample: Vec<G::Position>,
    max: u32,
    wide: usize,
) -> HashMap<Value, usize> {
    let mut table = Table::with_mib(4);
    let mut seen = HashMap::<Value, usize>::new();
    for pos in sample {
        let max = if G::count_legal_moves(&pos) > wide {
            1
        } else {
            max
        };
        for depth in 1..=max {
            let mut searcher = Searcher::<G>::new(&mut table);
            let judged = searcher.judge(&pos, depth, Budget::UNLIMITED);
            let expected = value_of(minimax::<G>(&pos, depth));
            let at = G::write_position(&pos);
            assert_eq!(judged.value, expected, "{} at depth {depth}: {at}", G::NAME);
            *seen.entry(expected).or_default() += 1;
            // The root split among threads: the value put together from
            // each turn's own search is the same, and so is every turn's.
            let (split, stopped) = judge_split::<G>(&pos, depth, Budget::UNLIMITED, 1, 3);
            assert!(!stopped);
            assert_eq!(split, judged, "{} at depth {depth}, split: {at}", G::NAME);
            let mut moves = Vec::new();
            G::legal_moves(&pos, &mut moves);
            moves.retain(|m| !G::agreement(m));
            assert_eq!(judged.turns.len(), moves.len());
            for (m, got) in moves.iter().zip(&judged.turns) {
                let mut next = pos.clone();
                G::play(&mut next, m).unwrap_or_else(|e| panic!("refused: {e}"));
                let want = value_of(minimax::<G>(&next, depth - 1)).flip();
                assert_eq!(
                    *got,
                    Some(want),
                    "{} at depth {depth}: {at}, a turn",
                    G::NAME
                );
            }
        }
    }
    seen
}

#[test]
fn oshi_search_agrees_with_minimax() {
    agrees::<Oshi>(6, 2, 10, 3, usize::MAX);
}

#[test]
fn retsami_search_agrees_with_minimax() {
    agrees::<Retsami>(4, 3, 8, 3, usize::MAX);
}

#[test]
fn iqishiqi_search_agrees_with_minimax() {
    agrees::<Iqishiqi>(4, 3, 6, 3, usize::MAX);
}

/// The last `tail` positions of `games` finished games, where forced wins
/// further than one ply lie (random play walks into them).
fn endings<G: Search + Notation>(games: u64, tail: usize) -> Vec<G::Position> {
    (0..games)
        .flat_map(|g| last_positions::<G>(300 + g, tail))
        .collect()
}

/// Wins and losses more than a ply away — a loss in 2, a win in 3 — are
/// proven at exactly their distance, each by its own question to the
/// search (the samples above reach almost only wins in 1).
#[test]
fn wins_and_losses_beyond_a_ply_agree_with_minimax() {
    let mut seen = HashMap::<Value, usize>::new();
    let mut add = |more: HashMap<Value, usize>| {
        for (v, n) in more {
            *seen.entry(v).or_default() += n;
        }
    };
    add(agrees_on::<Oshi>(endings::<Oshi>(20, 12), 3, usize::MAX));
    add(agrees_on::<Retsami>(
        endings::<Retsami>(10, 12),
        3,
        usize::MAX,
    ));
    add(agrees_on::<Iqishiqi>(
        endings::<Iqishiqi>(20, 12),
        3,
        usize::MAX,
    ));
    eprintln!("{seen:?}");
    let far = |keep: fn(&Value) -> bool| seen.iter().filter(|(v, _)| keep(v)).count();
    assert!(far(|v| matches!(v, Value::Loss(d) if *d >= 2)) > 0);
    assert!(far(|v| matches!(v, Value::Win(d) if *d >= 3)) > 0);
}

#[test]
fn roshi_search_agrees_with_minimax() {
    agrees::<Roshi>(4, 2, 6, 2, 60);
}

#[test]
fn vagabond_search_agrees_with_minimax() {
    agrees::<Vagabond>(4, 1, 6, 2, 60);
}

/// Every position within `depth` plies of `pos`, each with its key.
fn reach<G: Search>(pos: &G::Position, depth: u32, out: &mut Vec<(G::Position, u64)>) {
    out.push((pos.clone(), G::key(pos)));
    if depth == 0 || G::ending(pos).is_some() {
        return;
    }
    let mut moves = Vec::new();
    G::legal_moves(pos, &mut moves);
    for m in moves.iter().take(12) {
        let mut next = pos.clone();
        G::play(&mut next, m).unwrap_or_else(|e| panic!("refused: {e}"));
        reach::<G>(&next, depth - 1, out);
    }
}

/// Equal positions reached by different move orders have equal keys, and
/// unequal positions unequal keys (64-bit keys: a collision among a few
/// thousand positions would be a broken key, not chance). Playing on a
/// copy leaves the original's key as it was.
fn keys<G: Search + Notation>() {
    let mut all = Vec::new();
    for pos in sample::<G>(2, 2, 1) {
        let before = G::key(&pos);
        reach::<G>(&pos, 4, &mut all);
        assert_eq!(G::key(&pos), before);
    }
    let mut by_key: HashMap<u64, &G::Position> = HashMap::new();
    let mut by_position: HashMap<&G::Position, u64> = HashMap::new();
    let mut transposed = 0;
    for (pos, key) in &all {
        assert_eq!(
            *key,
            G::key(pos),
            "{}: a key is the same every time",
            G::NAME
        );
        if let Some(other) = by_key.insert(*key, pos) {
            assert!(
                other == pos,
                "{}: two positions share a key: {} and {}",
                G::NAME,
                G::write_position(other),
                G::write_position(pos)
            );
        }
        if let Some(k) = by_position.insert(pos, *key) {
            assert_eq!(k, *key, "{}: equal positions, different keys", G::NAME);
            transposed += 1;
        }
    }
    // Different move orders met (the tree holds each move order once).
    assert!(transposed > 0, "{}: no transposition met", G::NAME);
}

#[test]
fn keys_follow_positions_not_move_orders() {
    keys::<Oshi>();
    keys::<Retsami>();
    keys::<Iqishiqi>();
    keys::<Roshi>();
    keys::<Vagabond>();
}

/// The values the analysis fixtures (fixtures/<game>/analysis.grec, written
/// by `analyse --annotate`) hold after each move agree with the plain
/// minimax at the depth their `Annotator` tag names: each `[%value]` is
/// the minimax's value for the side that moved, and a move without one is
/// one the minimax proves nothing of.
fn fixture_values_agree<G: Search + Notation>(draws: &mut usize) {
    use gamerec::analysis::Annotation;
    use gamerec::record::{parse_chunk, Chunk};
    let path = format!(
        "{}/fixtures/{}/analysis.grec",
        env!("CARGO_MANIFEST_DIR"),
        G::NAME
    );
    let text = std::fs::read(&path).unwrap();
    let mut plies = 0;
    for parsed in parse_chunk(&Chunk::from_bytes(text)) {
        let record = parsed.record;
        let depth: u32 = (record.tag_value("Annotator").unwrap())
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let mut pos = G::start(&record.tags).unwrap_or_else(|_| panic!("{path}: a start"));
        for (i, turn) in record.turns.iter().enumerate() {
            // Positions with proven draws among them: the split root too.
            let mut table = Table::with_mib(1);
            let whole = Searcher::<G>::new(&mut table).judge(&pos, depth, Budget::UNLIMITED);
            let (split, _) = judge_split::<G>(&pos, depth, Budget::UNLIMITED, 1, 2);
            assert_eq!(split, whole, "{path}: ply {}, split", i + 1);
            *draws += usize::from(whole.value == Value::Draw);
            let mv = G::parse_move(&pos, &turn.text).unwrap_or_else(|_| panic!("{}", turn.text));
            G::play(&mut pos, &mv).unwrap_or_else(|e| panic!("{}: {e}", turn.text));
            let said = Annotation::read(turn.comments.iter().map(|c| c.text.as_str()));
            let want = value_of(minimax::<G>(&pos, depth - 1)).flip();
            let got = said.value.unwrap_or(Value::Unknown);
            assert_eq!(got, want, "{path}: ply {} ({})", i + 1, turn.text);
            plies += 1;
        }
    }
    assert!(plies > 0, "{path}: no ply checked");
}

#[test]
fn analysis_fixture_values_agree_with_minimax() {
    let mut draws = 0;
    fixture_values_agree::<Oshi>(&mut draws);
    fixture_values_agree::<Retsami>(&mut draws);
    fixture_values_agree::<Iqishiqi>(&mut draws);
    fixture_values_agree::<Roshi>(&mut draws);
    fixture_values_agree::<Vagabond>(&mut draws);
    assert!(draws > 0, "a proven draw among the positions");
}

#[test]
fn a_turn_proven_lost_is_never_the_estimates_nor_played_from_the_root() {
    use gamerec::game::Rules;
    use gamerec::games::oshi::Oshi;
    use gamerec::search::chance::Tree;
    let start = Oshi::start(&[]).unwrap();
    let mut moves = Vec::new();
    gamerec::search::board_moves::<Oshi>(&start, &mut moves);
    assert!(moves.len() > 3);
    // Every turn lost but the third: the estimate can only choose it.
    let mut lost = vec![true; moves.len()];
    lost[2] = false;
    let mut rng = gamerec::random::stream(1, 0);
    let mut tree = Tree::default();
    let c = tree
        .estimate::<Oshi>(&start, 50, None, &lost, &mut rng)
        .unwrap();
    assert_eq!(c.best, Some(2));
    assert_eq!(c.playouts, 50);
    // Every turn lost: no estimate.
    let all = vec![true; moves.len()];
    assert_eq!(
        tree.estimate::<Oshi>(&start, 50, None, &all, &mut rng),
        None
    );
    // A deadline past: no playout, no estimate.
    let past = Some(std::time::Instant::now());
    assert_eq!(tree.estimate::<Oshi>(&start, 50, past, &[], &mut rng), None);
}
