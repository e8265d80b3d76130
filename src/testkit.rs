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

/// A small seeded generator, so random playouts repeat exactly.
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % n
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
