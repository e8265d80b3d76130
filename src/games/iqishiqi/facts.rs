//! What an Iqishiqi move did (where the neutral stone went) and Iqishiqi's
//! statistics.

use super::geometry::Cell;
use super::labels::Coords;
use super::notation::{write_move, Move};
use super::position::Position;
use crate::game::{Counts, Effect, MoveFacts, Stat};

pub const STATS: &[Stat] = &[
    Stat::max("longest_push"),
    Stat::max("largest_group"),
    Stat::sum("stones_dropped"),
];

/// The resolved move: the destination is where the neutral stone went.
fn resolved(mv: &Move, after: &Position) -> Move {
    Move {
        dest: Some(after.neutral),
        ..*mv
    }
}

pub fn describe(before: &Position, mv: &Move, after: &Position) -> MoveFacts {
    let full = resolved(mv, after);
    let mut canonical = String::new();
    write_move(&full, &mut canonical);
    let label = |c: Cell| before.coords.label(c);
    MoveFacts {
        canonical,
        kind: "drop".into(),
        from: None,
        to: Some(label(mv.drop)),
        effects: vec![Effect {
            piece: Some("neutral stone".into()),
            from: Some(label(before.neutral)),
            to: Some(label(after.neutral)),
            ..Effect::new("pushed")
        }],
        offer: false,
    }
}

/// How far the neutral stone moved (along one line).
pub fn push_length(a: Cell, b: Cell) -> u64 {
    let (dq, dr) = (i64::from(b.q - a.q), i64::from(b.r - a.r));
    dq.abs().max(dr.abs()).max((dq - dr).abs()) as u64
}

pub fn count(before: &Position, after: &Position, counts: &mut Counts) {
    counts.max(0, push_length(before.neutral, after.neutral));
    counts.add(2, 1);
}

/// The largest group of white stones on the board.
pub fn largest_group(pos: &Position) -> u64 {
    let mut seen = [false; 15 * 15];
    let mut best = 0;
    let mut stack = Vec::new();
    for start in Cell::all() {
        if !pos.has_stone(start) || seen[start.index()] {
            continue;
        }
        seen[start.index()] = true;
        stack.push(start);
        let mut size = 0;
        while let Some(c) = stack.pop() {
            size += 1;
            for n in c.neighbours() {
                if pos.has_stone(n) && !seen[n.index()] {
                    seen[n.index()] = true;
                    stack.push(n);
                }
            }
        }
        best = best.max(size);
    }
    best
}

/// The move in AbstractPlay's labels, lowercase, destination always
/// written: the form AbstractPlay's move list uses.
pub fn abstractplay_move(mv: &Move, after: &Position) -> String {
    let full = Move {
        coords: Coords::AbstractPlay,
        ..resolved(mv, after)
    };
    let mut s = String::new();
    write_move(&full, &mut s);
    s.to_ascii_lowercase()
}

/// `h9/h7`: an AbstractPlay Iqishiqi move (lowercase, destination written).
pub fn looks_abstractplay(token: &[u8]) -> bool {
    let cell = |c: &[u8]| {
        matches!(c.first(), Some(b'a'..=b'o'))
            && (2..=3).contains(&c.len())
            && c[1..].iter().all(u8::is_ascii_digit)
    };
    let mut parts = token.split(|&b| b == b'/');
    matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None) if cell(a) && cell(b))
}
