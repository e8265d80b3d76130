//! What an Iqishiqi move did (where the neutral stone went) and Iqishiqi's
//! statistics.

use super::geometry::Hex;
use super::labels::Coords;
use super::notation::Move;
use super::position::Position;
use super::Iqishiqi;
use crate::game::{Effect, Facts, MoveFacts, Notation};

crate::statistics! {
    /// Iqishiqi's statistics (notation/iqishiqi.md).
    pub struct IqishiqiStats {
        /// The farthest the neutral stone went in one push.
        longest_push: Max,
        /// The largest group of white stones at the end.
        largest_group: Max,
        stones_dropped: Sum,
    }
}

/// The resolved move: the destination is where the neutral stone went.
pub fn resolved(mv: &Move, after: &Position) -> Move {
    Move {
        dest: Some(after.neutral),
        ..*mv
    }
}

/// How far the neutral stone moved (along one line).
pub fn push_length(a: Hex, b: Hex) -> u64 {
    let (dq, dr) = (i64::from(b.q - a.q), i64::from(b.r - a.r));
    dq.abs().max(dr.abs()).max((dq - dr).abs()) as u64
}

/// The largest group of white stones on the board.
pub fn largest_group(pos: &Position) -> u64 {
    let mut seen = [false; 15 * 15];
    let mut best = 0;
    let mut stack = Vec::new();
    for start in Hex::all() {
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

impl Facts for Iqishiqi {
    type Stats = IqishiqiStats;

    fn describe(before: &Position, mv: &Move, after: &Position) -> MoveFacts {
        let full = resolved(mv, after);
        let mut canonical = String::new();
        Iqishiqi::write_move(&full, &mut canonical);
        let label = |c: Hex| before.coords.label(c);
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

    const NAMING: &'static [&'static str] = &["Coords"];

    /// In Ludii's labels, whatever the record's `Coords`, the destination
    /// written.
    fn write_standard(_: &Position, mv: &Move, after: &Position, out: &mut String) {
        Self::spell_standard(&resolved(mv, after), out)
    }

    fn standard_position(pos: &Position) -> String {
        Position {
            coords: Coords::Ludii,
            ..pos.clone()
        }
        .write()
    }

    /// Read in Ludii's labels and in AbstractPlay's (either case).
    fn readings(pos: &Position, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for coords in [Coords::Ludii, Coords::AbstractPlay] {
            let there = Position {
                coords,
                ..pos.clone()
            };
            for t in [text.to_string(), text.to_ascii_uppercase()] {
                if let Ok(mv) = Iqishiqi::parse_move(&there, &t) {
                    let mut s = String::new();
                    Self::spell_standard(&mv, &mut s);
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    fn spell_standard(mv: &Move, out: &mut String) {
        let ludii = Move {
            coords: Coords::Ludii,
            ..*mv
        };
        Iqishiqi::write_move(&ludii, out)
    }

    fn count(stats: &mut IqishiqiStats, before: &Position, _: &Move, after: &Position, _: usize) {
        stats
            .longest_push
            .raise(push_length(before.neutral, after.neutral));
        stats.stones_dropped.add(1);
    }

    fn count_end(stats: &mut IqishiqiStats, end: &Position) {
        stats.largest_group.raise(largest_group(end));
    }
}
