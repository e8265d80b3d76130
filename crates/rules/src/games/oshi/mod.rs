//! Oshi (Tyler Bielman, WizKids 2006): push 7 points of your opponent's
//! pieces off a 9×9 board. Rules: ../shared/rules/oshi.md; notation:
//! notation/oshi.md.

mod evaluate;
mod facts;
mod geometry;
mod notation;
mod picture;
mod position;
mod rules;
mod search;
mod zobrist;

#[cfg(test)]
mod tests;

pub use facts::OshiStats;
pub use geometry::{line, path, step_bits, Dir, Square, BOARD};
pub use notation::Move;
pub use position::{NoReturn, Position, Tower};
pub use rules::OshiError;

pub const SIDES: [&str; 2] = ["Red", "White"];

pub struct Oshi;

impl crate::game::Game for Oshi {
    const NAME: &'static str = "oshi";
    const TITLE: &'static str = "Oshi";
    const SIDES: [&'static str; 2] = SIDES;
    type Position = Position;
    type Move = Move;
}
