//! Retsami (John Wildsmith): race four counters along the inward spiral to
//! the Home Square, taking superior enemy counters on the way. Rules:
//! ../shared/rules/retsami.md; notation: notation/retsami.md.

mod evaluate;
mod facts;
mod geometry;
mod notation;
mod picture;
mod position;
mod rules;
mod search;

#[cfg(test)]
mod tests;

pub use facts::RetsamiStats;
pub use geometry::{Square, CORNERS, HOME};
pub use notation::{Action, Move};
pub use position::Position;
pub use rules::RetsamiError;

pub const SIDES: [&str; 2] = ["Red", "White"];

pub struct Retsami;

impl crate::game::Game for Retsami {
    const NAME: &'static str = "retsami";
    const TITLE: &'static str = "Retsami";
    const SIDES: [&'static str; 2] = SIDES;
    type Position = Position;
    type Move = Move;
}
