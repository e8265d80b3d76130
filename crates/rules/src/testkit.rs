//! Helpers shared by the games' unit tests.

use crate::game::{Facts, MoveFacts, Notation, RuleError, Rules, Statistics};

/// The `POSITION | COUNT` lines of a crates/rules/tests/data/*-counts.txt file (blank
/// lines and `#` comments skipped).
pub fn counts(data: &str) -> Vec<(&str, usize)> {
    data.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (position, count) = line.split_once('|').expect("POSITION | COUNT");
            (position.trim(), count.trim().parse().expect("a count"))
        })
        .collect()
}

/// A seeded random source for tests: `gen`'s PCG stream and its unbiased
/// `below`.
pub struct Random(rand_pcg::Pcg64Mcg);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(crate::random::stream(seed, 0))
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        crate::random::below(&mut self.0, n)
    }
}

/// The canonical spellings of every legal move of `G` in `pos`, sorted.
pub fn legal<G: Rules + Notation>(pos: &G::Position) -> std::collections::BTreeSet<String> {
    let mut out = Vec::new();
    G::legal_moves(pos, &mut out);
    out.iter()
        .map(|m| {
            let mut s = String::new();
            G::write_move(m, &mut s);
            s
        })
        .collect()
}

/// The code of a refused move; panics when the move was accepted.
pub fn refused<E: RuleError>(r: Result<(), E>) -> &'static str {
    match r {
        Ok(()) => panic!("the move must be refused"),
        Err(e) => e.code(),
    }
}

/// A tag pair with no place in any input.
pub fn tag(name: &str, value: &str) -> crate::Tag {
    crate::Tag {
        name: name.into(),
        value: value.into(),
        span: Default::default(),
        value_span: Default::default(),
    }
}

/// Plays `moves` from the start `tags` give (each must be legal) and returns
/// what each move did and the game's statistics at the end.
pub fn played<G: Facts>(tags: &[(&str, &str)], moves: &str) -> (Vec<MoveFacts>, Vec<Option<u64>>) {
    let tags: Vec<_> = tags.iter().map(|(n, v)| tag(n, v)).collect();
    let mut pos = G::start(&tags).unwrap_or_else(|e| panic!("bad start: {}", e.message));
    let mut stats = G::Stats::default();
    let mut facts = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let before = pos.clone();
        let mv = G::parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
        if let Err(e) = G::play(&mut pos, &mv) {
            panic!("{text} refused: {e}");
        }
        facts.push(G::describe(&before, &mv, &pos));
        G::count(&mut stats, &before, &mv, &pos, i + 1);
    }
    G::count_end(&mut stats, &pos);
    (facts, stats.values())
}

/// The value of the statistic `name` of `G`.
pub fn stat<G: Facts>(counts: &[Option<u64>], name: &str) -> Option<u64> {
    let i = G::Stats::COLUMNS
        .iter()
        .position(|s| s.name == name)
        .unwrap_or_else(|| panic!("no statistic {name}"));
    counts[i]
}

/// Perft counted without the move generator: every candidate move
/// `candidates` lists for a position (a superset of the legal ones: every
/// move that can be written, perhaps narrowed by what the board plainly
/// shows) is tried through `play`, and those it accepts are counted. A
/// position the rules have ended has no moves.
pub fn naive_perft<G: Rules>(
    pos: &G::Position,
    depth: u32,
    candidates: &dyn Fn(&G::Position) -> Vec<G::Move>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if G::ending(pos).is_some() {
        return 0;
    }
    candidates(pos)
        .iter()
        .map(|mv| {
            let mut next = pos.clone();
            match G::play(&mut next, mv) {
                Ok(()) => naive_perft::<G>(&next, depth - 1, candidates),
                Err(_) => 0,
            }
        })
        .sum()
}

/// Checks the `source naive` entries of `crates/rules/tests/data/<game>.perft` up to
/// `limit` leaves against [`naive_perft`]; returns how many counts were
/// checked. Set `GAMEREC_PERFT_NAIVE_ALL=1` to check every such count
/// (slow: run it in release, `cargo test --release perft_counts`).
pub fn check_perft_file<G: Rules>(
    game: &str,
    limit: u64,
    candidates: &dyn Fn(&G::Position) -> Vec<G::Move>,
) -> usize {
    let path = format!("{}/tests/data/{game}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let all = std::env::var_os("GAMEREC_PERFT_NAIVE_ALL").is_some();
    let mut checked = 0;
    for entry in crate::perft::entries(text.lines().map(String::from)) {
        let entry = entry.unwrap_or_else(|e| panic!("{path}: {e}"));
        if entry.source.as_deref() != Some("naive") {
            continue;
        }
        let tags: Vec<_> = entry.tag_pairs().iter().map(|(n, v)| tag(n, v)).collect();
        let pos = G::start(&tags).unwrap_or_else(|e| panic!("{}: {}", entry.id, e.message));
        for &(depth, expected) in &entry.counts {
            if expected > limit && !all {
                continue;
            }
            let got = naive_perft::<G>(&pos, depth, candidates);
            assert_eq!(got, expected, "{path}: {} perft {depth}", entry.id);
            checked += 1;
        }
    }
    checked
}

/// Every position played from in random games `1..=games` of `seed`: from
/// the standard start, a uniformly chosen legal move each turn, until the
/// rules end the game or 200 plies are played (gamerec's `gen` without
/// `--finish`: the same games).
pub fn random_positions<G: Rules>(seed: u64, games: u64) -> Vec<G::Position> {
    let mut out = Vec::new();
    for index in 1..=games {
        let played = crate::random::play_out::<G>(seed, index, 200, false, &mut |p, _| {
            out.push(p.clone());
        });
        if let Err(e) = played {
            panic!("a generated move is illegal: {e}");
        }
    }
    out
}

/// Checks [`crate::game::Search::outcome_of`] against playing each
/// generated board turn and asking `ending`, in every position given:
/// how many turns it told (`open`, `decided`), so a test can ask that
/// both kinds were seen.
pub fn check_outcomes<G: crate::game::Search + Notation>(
    positions: &[G::Position],
) -> (usize, usize) {
    use crate::game::Outcome;
    let (mut open, mut decided) = (0, 0);
    let mut moves = Vec::new();
    for p in positions {
        moves.clear();
        crate::search::board_moves::<G>(p, &mut moves);
        for m in &moves {
            let Some(told) = G::outcome_of(p, m) else {
                continue;
            };
            let mut text = String::new();
            G::write_move(m, &mut text);
            let mut after = p.clone();
            if let Err(e) = G::play_generated(&mut after, m) {
                panic!("{text}: a generated turn is refused: {e}");
            }
            assert_eq!(told, Outcome::of(G::ending(&after)), "{text}");
            match told {
                Outcome::Open => open += 1,
                _ => decided += 1,
            }
        }
    }
    (open, decided)
}

/// Checks [`crate::game::Search::wins_at_once`] against playing each
/// generated board turn and asking `ending`, in every position given (the
/// game not ended): the positions it told a win in, told no win in, and
/// left untold where a turn wins (so a test can ask that each was seen).
pub fn check_wins_at_once<G: crate::game::Search + Notation>(
    positions: &[G::Position],
) -> [usize; 3] {
    let mut seen = [0; 3];
    let mut moves = Vec::new();
    for p in positions.iter().filter(|p| G::ending(p).is_none()) {
        moves.clear();
        crate::search::board_moves::<G>(p, &mut moves);
        let me = G::side_to_move(p);
        let wins = moves.iter().any(|m| {
            let mut after = p.clone();
            G::play_generated(&mut after, m).is_ok()
                && G::ending(&after).is_some_and(|e| e.decided && e.winner == Some(me))
        });
        match G::wins_at_once(p) {
            Some(told) => {
                assert_eq!(told, wins, "{}", G::write_position(p));
                seen[usize::from(!told)] += 1;
            }
            None => seen[2] += usize::from(wins),
        }
    }
    seen
}

/// Checks that every `step`-th generated turn of `pos`, played by
/// `play_generated` (what the search plays), makes the position `play`
/// makes.
pub fn check_play_generated<G: Rules + Notation>(pos: &G::Position, step: usize)
where
    G::Position: PartialEq + std::fmt::Debug,
{
    let mut list = Vec::new();
    G::legal_moves(pos, &mut list);
    for m in list.iter().step_by(step) {
        let (mut checked, mut trusted) = (pos.clone(), pos.clone());
        let mut text = String::new();
        G::write_move(m, &mut text);
        if let Err(e) = G::play(&mut checked, m) {
            panic!("{text}: {e}");
        }
        if let Err(e) = G::play_generated(&mut trusted, m) {
            panic!("{text}: {e}");
        }
        assert_eq!(checked, trusted, "{text}");
    }
}

/// Checks [`Rules::play_ending`] against [`Rules::play`] then
/// [`Rules::ending`] in every position given: every `step`-th legal turn,
/// read back from its canonical spelling as a record's turn is, and the
/// turns of the next position given (mostly refused here), must make the
/// same position, the same ending and the same refusal. Returns how many
/// turns were played with the game going on and with the game ended, so a
/// test can ask that both kinds were seen.
pub fn check_play_ending<G: Rules + Notation>(
    positions: &[G::Position],
    step: usize,
) -> (usize, usize)
where
    G::Position: PartialEq + std::fmt::Debug,
{
    let (mut open, mut ended) = (0, 0);
    let mut turns = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let mut texts = Vec::new();
        turns.clear();
        G::legal_moves(p, &mut turns);
        texts.extend(turns.iter().step_by(step).map(|m| written::<G>(m)));
        if let Some(next) = positions.get(i + 1) {
            turns.clear();
            G::legal_moves(next, &mut turns);
            texts.extend(turns.iter().step_by(step).map(|m| written::<G>(m)));
        }
        for text in texts {
            let Ok(m) = G::parse_move(p, &text) else {
                continue;
            };
            let (mut plain, mut told) = (p.clone(), p.clone());
            let by_ending = G::play(&mut plain, &m).map(|()| G::ending(&plain));
            let by_play = G::play_ending(&mut told, &m);
            match (by_ending, by_play) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "{text}: the ending told");
                    match a {
                        None => open += 1,
                        Some(_) => ended += 1,
                    }
                }
                (Err(a), Err(b)) => assert_eq!(a.code(), b.code(), "{text}: the refusal"),
                (a, b) => panic!("{text}: play {}, play_ending {}", a.is_ok(), b.is_ok()),
            }
            assert_eq!(plain, told, "{text}: the position");
        }
    }
    (open, ended)
}

fn written<G: Notation>(m: &G::Move) -> String {
    let mut s = String::new();
    G::write_move(m, &mut s);
    s
}

/// Checks a game's own [`Rules::has_legal_move`] against the generator's
/// first turn in every position given. Returns how many positions had a
/// legal turn and how many had none.
pub fn check_has_legal_move<G: Rules + Notation>(positions: &[G::Position]) -> (usize, usize)
where
    G::Position: std::fmt::Debug,
{
    let (mut some, mut none) = (0, 0);
    for p in positions {
        let generated = crate::game::any_move(|emit| G::generate(p, emit));
        assert_eq!(G::has_legal_move(p), generated, "{p:?}");
        match generated {
            true => some += 1,
            false => none += 1,
        }
    }
    (some, none)
}

/// Checks [`Facts::move_code`] over the legal moves of random games:
/// below [`Facts::MOVE_CODES`], and two moves share a code exactly when
/// [`Facts::spell_standard`] spells them alike. Returns how many distinct
/// spellings it met.
pub fn check_move_codes<G: Facts>(seed: u64, games: u64) -> usize {
    use std::collections::HashMap;
    let mut by_code: HashMap<u32, String> = HashMap::new();
    let mut by_spelling: HashMap<String, u32> = HashMap::new();
    let mut moves = Vec::new();
    for pos in random_positions::<G>(seed, games) {
        moves.clear();
        G::legal_moves(&pos, &mut moves);
        for mv in &moves {
            let code = G::move_code(mv).expect("the game numbers its moves");
            assert!(
                code < G::MOVE_CODES,
                "code {code} of {} codes",
                G::MOVE_CODES
            );
            let mut spelling = String::new();
            G::spell_standard(mv, &mut spelling);
            let known = by_code.entry(code).or_insert_with(|| spelling.clone());
            assert_eq!(*known, spelling, "two spellings share code {code}");
            let known = by_spelling.entry(spelling.clone()).or_insert(code);
            assert_eq!(*known, code, "{spelling} has two codes");
        }
    }
    by_spelling.len()
}

/// The game's features of `pos`, by name.
pub fn features<G: crate::game::Evaluate>(pos: &G::Position) -> Vec<(&'static str, f64)> {
    let mut out = vec![0.0; G::FEATURES.len()];
    G::features(pos, &mut out);
    G::FEATURES.iter().copied().zip(out).collect()
}
