//! What an Oshi move did (the pieces it pushed and pushed off) and Oshi's
//! statistics.

use super::geometry::Square;
use super::notation::Move;
use super::position::{Position, Tower, MAX_PIECES};
use super::Oshi;
use crate::game::{Effect, Facts, MoveFacts, Notation, Side};

crate::statistics! {
    /// Oshi's statistics (notation/oshi.md).
    pub struct OshiStats {
        /// Points scored by the first-named side (Red).
        points_first: Sum,
        points_second: Sum,
        /// Pieces the first-named side pushed off the board.
        pushed_off_by_first: Sum,
        pushed_off_by_second: Sum,
        /// The first-named side's moves that pushed another piece.
        pushes_first: Sum,
        pushes_second: Sum,
    }
}

fn name(p: Tower) -> String {
    format!("{} {}-story", super::SIDES[p.owner.index()], p.height)
}

/// Where each piece (by id) stands.
fn squares(pos: &Position) -> [Option<(Square, Tower)>; MAX_PIECES] {
    let mut at = [None; MAX_PIECES];
    for sq in Square::all() {
        if let Some(p) = pos.piece(sq) {
            at[p.id as usize] = Some((sq, p));
        }
    }
    at
}

impl Facts for Oshi {
    type Stats = OshiStats;

    /// A move is its two squares.
    const MOVE_CODES: u32 = 81 * 81;

    fn move_code(mv: &Move) -> Option<u32> {
        Some(mv.from.index() as u32 * 81 + mv.to.index() as u32)
    }

    fn describe(before: &Position, mv: &Move, after: &Position) -> MoveFacts {
        let mut canonical = String::new();
        Oshi::write_move(mv, &mut canonical);
        let mover = before.piece(mv.from).map(|p| p.id);
        let (was, now) = (squares(before), squares(after));
        let mut effects = Vec::new();
        for (id, (old, new)) in was.iter().zip(now.iter()).enumerate() {
            let Some((from, piece)) = old else { continue };
            if Some(id as u8) == mover {
                continue;
            }
            match new {
                Some((to, _)) if to == from => {}
                Some((to, _)) => effects.push(Effect {
                    piece: Some(name(*piece)),
                    from: Some(from.to_string()),
                    to: Some(to.to_string()),
                    ..Effect::new("pushed")
                }),
                None => effects.push(Effect {
                    piece: Some(name(*piece)),
                    from: Some(from.to_string()),
                    points: Some(u32::from(piece.height)),
                    ..Effect::new("pushed-off")
                }),
            }
        }
        let kind = if effects.is_empty() { "move" } else { "push" };
        MoveFacts {
            canonical,
            kind: kind.into(),
            from: Some(mv.from.to_string()),
            to: Some(mv.to.to_string()),
            effects,
            offer: false,
        }
    }

    fn count(stats: &mut OshiStats, before: &Position, mv: &Move, after: &Position, _: usize) {
        let [first, second] = [Side::First, Side::Second]
            .map(|s| u64::from(after.score[s.index()].saturating_sub(before.score[s.index()])));
        stats.points_first.add(first);
        stats.points_second.add(second);
        let mover = before.piece(mv.from).map(|p| p.id as usize);
        let off = (0..MAX_PIECES)
            .filter(|&id| before.at[id].is_some() && after.at[id].is_none())
            .count() as u64;
        let pushed = (0..MAX_PIECES).any(|id| Some(id) != mover && before.at[id] != after.at[id]);
        let (pushed_off, pushes) = match before.to_move {
            Side::First => (&mut stats.pushed_off_by_first, &mut stats.pushes_first),
            Side::Second => (&mut stats.pushed_off_by_second, &mut stats.pushes_second),
        };
        pushed_off.add(off);
        pushes.add(u64::from(pushed));
    }
}
