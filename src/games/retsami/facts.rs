//! What a Retsami turn did (a take removes a counter) and Retsami's
//! statistics.

use super::geometry::{OnTheWay, Square};
use super::notation::{write_move, Action, Move};
use super::position::Position;
use crate::game::{Counts, Effect, MoveFacts, Side, Stat};

pub const STATS: &[Stat] = &[
    Stat::sum("takes_first"),
    Stat::sum("takes_second"),
    Stat::sum("reentries_first"),
    Stat::sum("reentries_second"),
    Stat::max("furthest_way_first"),
    Stat::max("furthest_way_second"),
    Stat::max("leader_furthest_way"),
    Stat::sum("draw_offers"),
];

pub fn describe(before: &Position, mv: &Move, _after: &Position) -> MoveFacts {
    let mut canonical = String::new();
    write_move(mv, &mut canonical);
    let (action, offer) = match *mv {
        Move::Accept => {
            return MoveFacts {
                canonical,
                kind: "accept".into(),
                ..MoveFacts::default()
            }
        }
        Move::Play { action, offer } => (action, offer),
    };
    let (kind, from, to, effects) = match action {
        Action::Advance { from, to } => ("advance", Some(from), to, Vec::new()),
        Action::Take { from, to } => {
            let victim = before.to_move.other();
            let effects = vec![Effect {
                piece: Some(format!("{} counter", super::SIDES[victim.index()])),
                from: Some(to.to_string()),
                ..Effect::new("taken")
            }];
            ("take", Some(from), to, effects)
        }
        Action::Enter { to } => ("enter", None, to, Vec::new()),
    };
    MoveFacts {
        canonical,
        kind: kind.into(),
        from: from.map(|s| s.to_string()),
        to: Some(to.to_string()),
        effects,
        offer,
    }
}

/// The highest Way index a counter of `side` stands on.
fn furthest(pos: &Position, side: Side) -> u64 {
    Square::all()
        .filter(|&sq| pos.at(sq) == Some(side))
        .map(|sq| u64::from(sq.way()))
        .max()
        .unwrap_or(0)
}

pub fn count(before: &Position, after: &Position, facts: &MoveFacts, counts: &mut Counts) {
    let mover = before.to_move.index();
    match facts.kind.as_str() {
        "take" => counts.add(mover, 1),
        "enter" => counts.add(2 + mover, 1),
        _ => {}
    }
    if facts.offer {
        counts.add(7, 1);
    }
    count_end(after, counts);
}

pub fn count_end(pos: &Position, counts: &mut Counts) {
    for side in Side::BOTH {
        let w = furthest(pos, side);
        counts.max(4 + side.index(), w);
        counts.max(6, w);
    }
}
