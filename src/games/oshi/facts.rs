//! What an Oshi move did (the pieces it pushed and pushed off) and Oshi's
//! statistics.

use super::geometry::Square;
use super::notation::{write_move, Move};
use super::position::{Piece, Position, MAX_PIECES};
use crate::game::{Counts, Effect, MoveFacts, Side, Stat};

pub const STATS: &[Stat] = &[
    Stat::sum("points_first"),
    Stat::sum("points_second"),
    Stat::sum("pushed_off_by_first"),
    Stat::sum("pushed_off_by_second"),
    Stat::sum("pushes_first"),
    Stat::sum("pushes_second"),
];

fn name(p: Piece) -> String {
    format!("{} {}-story", super::SIDES[p.owner.index()], p.height)
}

/// Where each piece (by id) stands.
fn squares(pos: &Position) -> [Option<(Square, Piece)>; MAX_PIECES] {
    let mut at = [None; MAX_PIECES];
    for sq in Square::all() {
        if let Some(p) = pos.piece(sq) {
            at[p.id as usize] = Some((sq, p));
        }
    }
    at
}

pub fn describe(before: &Position, mv: &Move, after: &Position) -> MoveFacts {
    let mut canonical = String::new();
    write_move(mv, &mut canonical);
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

pub fn count(before: &Position, after: &Position, facts: &MoveFacts, counts: &mut Counts) {
    for side in Side::BOTH {
        let gained = after.score[side.index()].saturating_sub(before.score[side.index()]);
        counts.add(side.index(), u64::from(gained));
    }
    let mover = before.to_move.index();
    let off = facts
        .effects
        .iter()
        .filter(|e| e.what == "pushed-off")
        .count();
    counts.add(2 + mover, off as u64);
    if facts.kind == "push" {
        counts.add(4 + mover, 1);
    }
}
