//! `moves`'s library side: the proven best moves of a position as `moves
//! --best` prints them (finding the position is the reading path's, the
//! search is `play::analysis`'s).

use crate::play::analysis::Best;
use gamerec_rules::search::Value;
use std::io::{self, Write};

/// `win 3 (depth 5)`, then a line per best move with the value it keeps,
/// and the estimate's move where nothing is proven.
pub fn write_best(out: &mut dyn Write, best: &Best) -> io::Result<()> {
    let value = |v: Value| match v.distance() {
        Some(d) => format!("{} {d}", v.name()),
        None => v.name().to_string(),
    };
    writeln!(out, "{} (depth {})", value(best.value), best.depth)?;
    for (m, v) in &best.moves {
        writeln!(out, "{m}\t{}", value(*v))?;
    }
    if let Some((m, chance)) = &best.estimate {
        writeln!(out, "{m}\testimate: win chance {chance:.3}")?;
    }
    Ok(())
}
