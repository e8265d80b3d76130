//! What a Roshi turn did (each action, the piece a push moved) and Roshi's
//! statistics.

use super::geometry::Sq;
use super::notation::{Action, Move};
use super::position::{Occupant, Phase, Position};
use super::rules::roshis;
use super::Roshi;
use crate::game::{Effect, Facts, MoveFacts, Notation};

crate::statistics! {
    /// Roshi's statistics (notation/roshi.md).
    pub struct RoshiStats {
        /// Place actions after the setup.
        places: Sum,
        slides: Sum,
        pushes: Sum,
        passes: Sum,
        /// Pushes that moved the roshi stone.
        stone_pushes: Sum,
        /// Turns after which both players had a roshi (no win).
        turns_with_both_roshis: Sum,
    }
}

fn piece(cell: Occupant) -> String {
    match cell {
        Occupant::Piece(side) => format!("{} piece", super::SIDES[side.index()]),
        Occupant::Stone => "roshi stone".into(),
        Occupant::Empty => "nothing".into(),
    }
}

/// Where a push moves its target: one square further, away from the pusher.
fn beyond(p: Sq, t: Sq) -> Option<Sq> {
    let df = t.file as i8 - p.file as i8;
    let dr = t.rank as i8 - p.rank as i8;
    t.offset(df, dr)
}

fn action_effect(pos: &Position, a: Action) -> Effect {
    let s = |q: Sq| Some(q.to_string());
    let own = format!("{} piece", super::SIDES[pos.to_move.index()]);
    match a {
        Action::Stone(at) => Effect {
            piece: Some("roshi stone".into()),
            to: s(at),
            ..Effect::new("placed")
        },
        Action::Place(at) => Effect {
            piece: Some(own),
            to: s(at),
            ..Effect::new("placed")
        },
        Action::Slide(from, to) => Effect {
            piece: Some(own),
            from: s(from),
            to: s(to),
            ..Effect::new("slid")
        },
        Action::Push(p, t) => Effect {
            piece: Some(piece(pos.at(t))),
            from: s(t),
            to: beyond(p, t).and_then(s),
            ..Effect::new("pushed")
        },
    }
}

/// Plays one action of a legal turn on a scratch board (for describing the
/// next action).
fn apply(pos: &mut Position, a: Action) {
    match a {
        Action::Stone(at) => pos.set(at, Occupant::Stone),
        Action::Place(at) => pos.set(at, Occupant::Piece(pos.to_move)),
        Action::Slide(from, to) => {
            let c = pos.at(from);
            pos.set(from, Occupant::Empty);
            pos.set(to, c);
        }
        Action::Push(p, t) => {
            if let Some(dest) = beyond(p, t) {
                let c = pos.at(t);
                pos.set(t, Occupant::Empty);
                pos.set(dest, c);
            }
        }
    }
}

impl Facts for Roshi {
    type Stats = RoshiStats;

    fn describe(before: &Position, mv: &Move, _after: &Position) -> MoveFacts {
        let mut canonical = String::new();
        Roshi::write_move(mv, &mut canonical);
        let acts = mv.actions();
        // Each action sees the board as the actions before it left it.
        let mut pos = before.clone();
        let mut effects = Vec::new();
        for &a in acts {
            effects.push(action_effect(&pos, a));
            apply(&mut pos, a);
        }
        let kind = if mv.is_pass() {
            "pass".to_string()
        } else if before.phase == Phase::Setup {
            "setup".to_string()
        } else {
            acts.iter()
                .map(|a| match a {
                    Action::Stone(_) | Action::Place(_) => "place",
                    Action::Slide(..) => "slide",
                    Action::Push(..) => "push",
                })
                .collect::<Vec<_>>()
                .join("+")
        };
        let (from, to) = match acts {
            [Action::Place(at)] | [Action::Stone(at)] => (None, Some(at.to_string())),
            [Action::Slide(a, b)] | [Action::Push(a, b)] => {
                (Some(a.to_string()), Some(b.to_string()))
            }
            _ => (None, None),
        };
        MoveFacts {
            canonical,
            kind,
            from,
            to,
            effects,
            offer: false,
        }
    }

    fn count(stats: &mut RoshiStats, before: &Position, mv: &Move, after: &Position, _: usize) {
        if mv.is_pass() {
            stats.passes.add(1);
        }
        if before.phase == Phase::Play {
            for &a in mv.actions() {
                match a {
                    Action::Stone(_) | Action::Place(_) => stats.places.add(1),
                    Action::Slide(..) => stats.slides.add(1),
                    Action::Push(_, t) => {
                        stats.pushes.add(1);
                        if before.at(t) == Occupant::Stone {
                            stats.stone_pushes.add(1);
                        }
                    }
                }
            }
        }
        if let Some(stone) = after.stone() {
            if roshis(after, stone) == [true, true] {
                stats.turns_with_both_roshis.add(1);
            }
        }
    }
}
