//! Roshi (Mark S. Ball, 2025): place, slide and push pieces to build a
//! five-in-a-row through the roshi stone. Rules: ../shared/rules/roshi.md;
//! notation: notation/roshi.md.

mod evaluate;
mod facts;
mod geometry;
mod notation;
mod picture;
mod position;
mod quick;
mod rules;
mod search;

#[cfg(test)]
mod tests;

pub use facts::RoshiStats;
pub use geometry::{Dims, Sq, Zone};
pub use notation::{Action, Move};
pub use position::{Occupant, Phase, Position, SlideRule};
pub use rules::RoshiError;

pub const SIDES: [&str; 2] = ["Red", "Blue"];

pub struct Roshi;

impl crate::game::Game for Roshi {
    const NAME: &'static str = "roshi";
    const TITLE: &'static str = "Roshi";
    const SIDES: [&'static str; 2] = SIDES;
    type Position = Position;
    type Move = Move;
}
