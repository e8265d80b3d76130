//! Perft: the number of move sequences of a given length from a position
//! (the leaves of the game tree at that depth), the standard check of a move
//! generator. A position where the rules have ended the game has no moves.
//! Generic over a game's rules; `gamerec perft` reaches it through the
//! registry.

use crate::game::{Notation, Rules};

/// The leaves `depth` plies below `pos`.
pub fn perft<G: Rules>(pos: &G::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if G::ending(pos).is_some() {
        return 0;
    }
    let mut moves = Vec::new();
    G::legal_moves(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut next = pos.clone();
    moves
        .iter()
        .map(|mv| {
            next.clone_from(pos);
            match G::play(&mut next, mv) {
                Ok(()) => perft::<G>(&next, depth - 1),
                // The generator and the rules disagree: counted as no
                // sequence, and the tests compare against other counts.
                Err(_) => 0,
            }
        })
        .sum()
}

/// See [`check_walk`].
pub const WALK_WIDTH: usize = 2048;

/// Checks the move generator against the rules and the notation along a
/// walk from `start`, one ply per byte of `choices` (which picks the turn
/// played): at each position of it the position must read back from its
/// written form, "has a legal turn" must agree with the list, generated
/// turns must be accepted by the rules, and their written forms must read
/// back as turns that reach the same positions. With `every`, every turn
/// of every position is checked; without, every turn at the start is
/// played, and elsewhere (and for reading back) 64 spread over the list
/// and the one picked, and the walk stops at a position of more than
/// [`WALK_WIDTH`] turns (a Roshi position can have ten thousand; a fuzz
/// target walks without `every`). Returns the turns checked, or what
/// disagreed.
pub fn check_walk<G: Rules + Notation>(
    start: G::Position,
    choices: &[u8],
    every: bool,
) -> Result<u64, String> {
    let mut pos = start;
    let (mut moves, mut checked) = (Vec::new(), 0u64);
    let (mut text, mut next) = (String::new(), pos.clone());
    for (step, &choice) in choices.iter().chain(std::iter::once(&0)).enumerate() {
        let written = G::write_position(&pos);
        match G::parse_position(&written) {
            Ok(back) if G::write_position(&back) == written => {}
            Ok(back) => {
                return Err(format!(
                    "position `{written}` reads back as `{}`",
                    G::write_position(&back)
                ))
            }
            Err(e) => return Err(format!("position `{written}` does not read back: {e:?}")),
        }
        if G::ending(&pos).is_some() {
            return Ok(checked);
        }
        moves.clear();
        G::legal_moves(&pos, &mut moves);
        if G::has_legal_move(&pos) == moves.is_empty() {
            return Err(format!(
                "at `{written}`: has_legal_move disagrees with {} generated turns",
                moves.len()
            ));
        }
        if !every && step > 0 && moves.len() > WALK_WIDTH {
            return Ok(checked);
        }
        let picked = usize::from(choice) % moves.len().max(1);
        // Every `stride`th turn is read back (and played).
        let stride = match every {
            true => 1,
            false => moves.len().div_ceil(64).max(1),
        };
        for (i, mv) in moves.iter().enumerate() {
            let sampled = i % stride == 0 || i == picked;
            if !sampled && step > 0 {
                continue;
            }
            next.clone_from(&pos);
            let played = G::play(&mut next, mv);
            text.clear();
            if played.is_err() || sampled {
                G::write_move(mv, &mut text);
            }
            if let Err(e) = played {
                return Err(format!(
                    "at `{written}`: generated `{text}` is refused: {e}"
                ));
            }
            if sampled {
                read_back::<G>(&pos, &next, &text)
                    .map_err(|e| format!("at `{written}`: `{text}` {e}"))?;
            }
            checked += 1;
        }
        let Some(mv) = moves.get(picked) else {
            return Ok(checked);
        };
        G::play(&mut pos, mv).map_err(|e| e.to_string())?;
    }
    Ok(checked)
}

/// Whether `text`, read at `pos`, is a turn that reaches `after`.
fn read_back<G: Rules + Notation>(
    pos: &G::Position,
    after: &G::Position,
    text: &str,
) -> Result<(), String> {
    let back = G::parse_move(pos, text).map_err(|e| format!("does not read back: {e:?}"))?;
    let mut next = pos.clone();
    G::play(&mut next, &back).map_err(|e| format!("read back is refused: {e}"))?;
    if next != *after {
        return Err("read back plays differently".into());
    }
    Ok(())
}

/// What [`divide`] found: the leaves under each first move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divided {
    /// Each legal first move (canonical spelling) and the leaves below it,
    /// sorted by the move's spelling.
    pub moves: Vec<(String, u64)>,
    /// All leaves: the sum of `moves` (1 at depth 0).
    pub total: u64,
}

/// [`perft`] with the count under each first move (`perft --divide`), as
/// chess perft tools print it for finding where two generators disagree.
pub fn divide<G: Rules + Notation>(pos: &G::Position, depth: u32) -> Divided {
    if depth == 0 {
        return Divided {
            moves: Vec::new(),
            total: 1,
        };
    }
    if G::ending(pos).is_some() {
        return Divided::default();
    }
    let mut moves = Vec::new();
    G::legal_moves(pos, &mut moves);
    let mut out: Vec<(String, u64)> = moves
        .iter()
        .map(|mv| {
            let mut text = String::new();
            G::write_move(mv, &mut text);
            let mut next = pos.clone();
            let n = match G::play(&mut next, mv) {
                Ok(()) => perft::<G>(&next, depth - 1),
                Err(_) => 0,
            };
            (text, n)
        })
        .collect();
    out.sort();
    Divided {
        total: out.iter().map(|(_, n)| n).sum(),
        moves: out,
    }
}

/// One position of a perft data file (`crates/rules/tests/data/<game>.perft`), with the
/// counts expected at each depth.
///
/// The format, one item a line (blank lines and `#` comments skipped):
///
/// ```text
/// id start                      # a new entry, named
/// source naive                  # how the counts were established
/// tag NoReturn opponent         # a setting tag (any number)
/// position 9/9/... r 0-0 -      # the position (absent: the game's start)
/// perft 1 34                    # depth and leaf count (any number)
/// ```
///
/// The sources: `naive` (every writable move tried through the rules'
/// `play`, without the move generator: the games' unit tests recount these),
/// `hand` (worked out by hand, the working in a comment), or another
/// implementation's figure (its name, e.g. `abstractplay`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftEntry {
    pub id: String,
    /// How the counts were established.
    pub source: Option<String>,
    /// Setting tags, `(name, value)`.
    pub tags: Vec<(String, String)>,
    pub position: Option<String>,
    /// `(depth, leaves)`.
    pub counts: Vec<(u32, u64)>,
}

impl PerftEntry {
    /// The entry's start as tag pairs (settings, then the `Position`).
    pub fn tag_pairs(&self) -> Vec<(String, String)> {
        let mut tags = self.tags.clone();
        if let Some(p) = &self.position {
            tags.push(("Position".into(), p.clone()));
        }
        tags
    }
}

/// Reads perft data, entry by entry, from lines (a line that is not of the
/// format is an error naming its number).
pub fn entries(
    lines: impl Iterator<Item = String>,
) -> impl Iterator<Item = Result<PerftEntry, String>> {
    let mut lines = lines.enumerate().peekable();
    std::iter::from_fn(move || {
        let mut entry: Option<PerftEntry> = None;
        loop {
            let starts_next =
                matches!(lines.peek(), Some((_, l)) if l.trim_start().starts_with("id "));
            if starts_next && entry.is_some() {
                return entry.map(Ok);
            }
            let Some((n, line)) = lines.next() else {
                return entry.map(Ok);
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let bad = || Some(Err(format!("line {}: `{line}`", n + 1)));
            match (key, entry.as_mut()) {
                ("id", None) => {
                    entry = Some(PerftEntry {
                        id: rest.trim().to_string(),
                        ..PerftEntry::default()
                    })
                }
                ("tag", Some(e)) => match rest.trim().split_once(' ') {
                    Some((name, value)) => e.tags.push((name.into(), value.trim().into())),
                    None => return bad(),
                },
                ("position", Some(e)) => e.position = Some(rest.trim().to_string()),
                ("source", Some(e)) => e.source = Some(rest.trim().to_string()),
                ("perft", Some(e)) => {
                    let mut words = rest.split_whitespace().map(str::parse::<u64>);
                    match (words.next(), words.next(), words.next()) {
                        (Some(Ok(d)), Some(Ok(n)), None) if d <= 64 => e.counts.push((d as u32, n)),
                        _ => return bad(),
                    }
                }
                _ => return bad(),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_files_are_read_entry_by_entry() {
        let text = "# a comment\nid start\nsource hand\nperft 1 34\nperft 2 1156\n\nid other\ntag A b c\nposition x y\nperft 3 7\n";
        let got: Vec<PerftEntry> = entries(text.lines().map(String::from))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].id, "start");
        assert_eq!(got[0].counts, vec![(1, 34), (2, 1156)]);
        assert_eq!(got[0].source.as_deref(), Some("hand"));
        assert_eq!(got[1].tags, vec![("A".to_string(), "b c".to_string())]);
        assert_eq!(got[1].position.as_deref(), Some("x y"));
        assert_eq!(
            got[1].tag_pairs().last().unwrap(),
            &("Position".to_string(), "x y".to_string())
        );
        let bad: Vec<_> = entries("id a\nperft x 3\n".lines().map(String::from)).collect();
        assert_eq!(bad, vec![Err("line 2: `perft x 3`".to_string())]);
        let orphan: Vec<_> = entries("perft 1 3\n".lines().map(String::from)).collect();
        assert!(orphan[0].is_err());
    }
}
