//! What a Vagabond turn did (the tile a move captured) and Vagabond's
//! statistics.

use super::notation::{Body, Move};
use super::position::Position;
use super::tiles::TileCode;
use super::Vagabond;
use crate::game::{Effect, Facts, MoveFacts, Notation, Sum};

crate::statistics! {
    /// Vagabond's statistics (notation/vagabond.md): captures by tile type,
    /// then the rest.
    pub struct VagabondStats {
        captured_white_lotus: Sum,
        captured_sky_bison: Sum,
        captured_badgermole: Sum,
        captured_wheel: Sum,
        captured_chrysanthemum: Sum,
        captured_fire_lily: Sum,
        captured_white_dragon: Sum,
        captured_flying_lemur: Sum,
        /// Plies played before the first capture.
        plies_before_first_capture: First,
        deploys: Sum,
        /// Moves of a tile already on the board.
        shifts: Sum,
    }
}

impl VagabondStats {
    /// The capture count of a tile type.
    fn captured(&mut self, code: TileCode) -> &mut Sum {
        match code {
            TileCode::L => &mut self.captured_white_lotus,
            TileCode::S => &mut self.captured_sky_bison,
            TileCode::B => &mut self.captured_badgermole,
            TileCode::W => &mut self.captured_wheel,
            TileCode::C => &mut self.captured_chrysanthemum,
            TileCode::F => &mut self.captured_fire_lily,
            TileCode::D => &mut self.captured_white_dragon,
            TileCode::Y => &mut self.captured_flying_lemur,
        }
    }
}

fn point(p: super::Point) -> String {
    format!("({},{})", p.x, p.y)
}

impl Facts for Vagabond {
    type Stats = VagabondStats;

    fn describe(before: &Position, mv: &Move, _after: &Position) -> MoveFacts {
        let mut canonical = String::new();
        Vagabond::write_move(mv, &mut canonical);
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

    fn count(stats: &mut VagabondStats, before: &Position, mv: &Move, _: &Position, ply: usize) {
        match mv.body {
            Body::Deploy { .. } => stats.deploys.add(1),
            Body::Shift { to, .. } => {
                stats.shifts.add(1);
                if let Some(t) = before.at(to) {
                    stats.captured(t.code).add(1);
                    stats.plies_before_first_capture.set((ply - 1) as u64);
                }
            }
            Body::Accept => {}
        }
    }
}
