//! What a Vagabond turn did (the tile a move captured) and Vagabond's
//! statistics.

use super::notation::{write_move, Body, Move};
use super::position::Position;
use crate::game::{Counts, Effect, MoveFacts, Stat};

/// Captures by tile type, in `Code` order (L S B W C F D Y), then the rest.
pub const STATS: &[Stat] = &[
    Stat::sum("captured_white_lotus"),
    Stat::sum("captured_sky_bison"),
    Stat::sum("captured_badgermole"),
    Stat::sum("captured_wheel"),
    Stat::sum("captured_chrysanthemum"),
    Stat::sum("captured_fire_lily"),
    Stat::sum("captured_white_dragon"),
    Stat::sum("captured_flying_lemur"),
    Stat::first("plies_before_first_capture"),
    Stat::sum("deploys"),
    Stat::sum("shifts"),
];

const FIRST_CAPTURE: usize = 8;

fn point(p: super::Point) -> String {
    format!("({},{})", p.x, p.y)
}

pub fn describe(before: &Position, mv: &Move, _after: &Position) -> MoveFacts {
    let mut canonical = String::new();
    write_move(mv, &mut canonical);
    let (kind, from, to, effects) = match mv.body {
        Body::Accept => ("accept", None, None, Vec::new()),
        Body::Deploy { at, .. } => ("deploy", None, Some(point(at)), Vec::new()),
        Body::Shift { from, to } => {
            let effects = before
                .at(to)
                .map(|t| Effect {
                    piece: Some(format!(
                        "{} {}",
                        super::SIDES[t.owner.index()],
                        t.code.name()
                    )),
                    from: Some(point(to)),
                    ..Effect::new("captured")
                })
                .into_iter()
                .collect();
            ("shift", Some(point(from)), Some(point(to)), effects)
        }
    };
    MoveFacts {
        canonical,
        kind: kind.into(),
        from,
        to,
        effects,
        offer: mv.offer,
    }
}

pub fn count(before: &Position, mv: &Move, ply: usize, counts: &mut Counts) {
    match mv.body {
        Body::Deploy { .. } => counts.add(9, 1),
        Body::Shift { to, .. } => {
            counts.add(10, 1);
            if let Some(t) = before.at(to) {
                counts.add(t.code.index(), 1);
                counts.first(FIRST_CAPTURE, (ply - 1) as u64);
            }
        }
        Body::Accept => {}
    }
}

/// The turn as The Garden Gate writes it: `0H.L(0,-6)`, numbered from 0,
/// Host and the Guest turn after it sharing a number.
pub fn garden_gate(before: &Position, facts: &MoveFacts) -> String {
    let player = match before.to_move {
        crate::game::Side::First => 'H',
        crate::game::Side::Second => 'G',
    };
    format!("{}{player}.{}", before.turn / 2, facts.canonical)
}

/// `0H.…` / `12G.…`: a Garden Gate turn.
pub fn looks_garden_gate(token: &[u8]) -> bool {
    let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && matches!(token.get(digits..digits + 2), Some([b'H' | b'G', b'.']))
}
