//! What a Retsami turn did (a take removes a counter) and Retsami's
//! statistics.

use super::geometry::{OnTheWay, Square};
use super::notation::{Action, Move};
use super::position::Position;
use super::Retsami;
use crate::game::{Effect, Facts, MoveFacts, Notation, Side};

crate::statistics! {
    /// Retsami's statistics (notation/retsami.md).
    pub struct RetsamiStats {
        /// Enemy counters the first-named side took.
        takes_first: Sum,
        takes_second: Sum,
        /// Re-entries from off the board.
        reentries_first: Sum,
        reentries_second: Sum,
        /// The farthest Way index a counter of the side reached.
        furthest_way_first: Max,
        furthest_way_second: Max,
        /// The farthest Way index any counter reached.
        leader_furthest_way: Max,
        draw_offers: Sum,
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

impl Facts for Retsami {
    type Stats = RetsamiStats;

    fn describe(before: &Position, mv: &Move, _after: &Position) -> MoveFacts {
        let mut canonical = String::new();
        Retsami::write_move(mv, &mut canonical);
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

    fn count(stats: &mut RetsamiStats, before: &Position, mv: &Move, after: &Position, _: usize) {
        let first = before.to_move == Side::First;
        if let Move::Play { action, offer } = *mv {
            match action {
                Action::Take { .. } if first => stats.takes_first.add(1),
                Action::Take { .. } => stats.takes_second.add(1),
                Action::Enter { .. } if first => stats.reentries_first.add(1),
                Action::Enter { .. } => stats.reentries_second.add(1),
                Action::Advance { .. } => {}
            }
            stats.draw_offers.add(u64::from(offer));
        }
        Self::count_end(stats, after);
    }

    fn count_end(stats: &mut RetsamiStats, pos: &Position) {
        let [first, second] = Side::BOTH.map(|side| furthest(pos, side));
        stats.furthest_way_first.raise(first);
        stats.furthest_way_second.raise(second);
        stats.leader_furthest_way.raise(first.max(second));
    }
}
