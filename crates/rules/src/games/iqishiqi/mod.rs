//! Iqishiqi (João Pedro Neto, 2003): drop white stones, push the neutral
//! stone onto one of your edges. Rules: ../shared/rules/iqishiqi.md;
//! notation: notation/iqishiqi.md.

mod evaluate;
mod facts;
mod geometry;
mod labels;
mod notation;
mod picture;
mod position;
mod rules;
mod search;
mod site;

#[cfg(test)]
mod tests;

pub use facts::IqishiqiStats;
pub use geometry::{Dir, Edge, Hex, CELLS};
pub use labels::Coords;
pub use notation::Move;
pub use position::Position;
pub use rules::IqishiqiError;

pub struct Iqishiqi;

impl crate::game::Game for Iqishiqi {
    const NAME: &'static str = "iqishiqi";
    const TITLE: &'static str = "Iqishiqi";
    const SIDES: [&'static str; 2] = ["North", "South"];
    type Position = Position;
    type Move = Move;
}
