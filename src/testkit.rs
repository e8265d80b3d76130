//! Helpers shared by the games' unit tests.

/// The `POSITION | COUNT` lines of a tests/data/*-counts.txt file (blank
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
        Random(crate::gen::stream(seed, 0))
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        crate::gen::below(&mut self.0, n)
    }
}

/// The canonical spellings of every legal move of `G` in `pos`, sorted.
pub fn legal<G: crate::game::Game>(pos: &G::Position) -> std::collections::BTreeSet<String> {
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
pub fn refused<E: crate::game::RuleError>(r: Result<(), E>) -> &'static str {
    match r {
        Ok(()) => panic!("the move must be refused"),
        Err(e) => e.code(),
    }
}

/// A tag pair with no place in any input.
pub fn tag(name: &str, value: &str) -> crate::record::Tag {
    crate::record::Tag {
        name: name.into(),
        value: value.into(),
        span: Default::default(),
        value_span: Default::default(),
    }
}

/// Plays `moves` from the start `tags` give (each must be legal) and returns
/// what each move did and the game's statistics at the end.
pub fn played<G: crate::game::Game>(
    tags: &[(&str, &str)],
    moves: &str,
) -> (Vec<crate::game::MoveFacts>, Vec<Option<u64>>) {
    let tags: Vec<_> = tags.iter().map(|(n, v)| tag(n, v)).collect();
    let mut pos = G::start(&tags).unwrap_or_else(|e| panic!("bad start: {}", e.message));
    let mut counts = crate::game::Counts::new(G::STATS);
    let mut facts = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let before = pos.clone();
        let mv = G::parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
        if let Err(e) = G::play(&mut pos, &mv) {
            panic!("{text} refused: {e}");
        }
        let f = G::describe(&before, &mv, &pos);
        G::count(&before, &mv, &pos, &f, i + 1, &mut counts);
        facts.push(f);
    }
    G::count_end(&pos, &mut counts);
    (facts, counts.0)
}

/// The value of the statistic `name` of `G`.
pub fn stat<G: crate::game::Game>(counts: &[Option<u64>], name: &str) -> Option<u64> {
    let i = G::STATS
        .iter()
        .position(|s| s.name == name)
        .unwrap_or_else(|| panic!("no statistic {name}"));
    counts[i]
}
