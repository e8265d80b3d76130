//! Vagabond Pai Sho, as played at The Garden Gate: deploy and move tiles,
//! capture the opponent's White Lotus. Rules:
//! ../shared/rules/vagabond-pai-sho.md; notation: notation/vagabond.md.

mod evaluate;
mod facts;
mod geometry;
mod notation;
mod picture;
mod position;
mod rules;
mod search;
mod site;
mod tiles;

#[cfg(test)]
mod tests;

pub use facts::VagabondStats;
pub use geometry::Point;
pub use notation::{Body, Move};
pub use position::Position;
pub use rules::VagabondError;
pub use tiles::{Tile, TileCode, TileOptions};

pub const SIDES: [&str; 2] = ["Host", "Guest"];

pub struct Vagabond;

impl crate::game::Game for Vagabond {
    const NAME: &'static str = "vagabond";
    const TITLE: &'static str = "Vagabond Pai Sho";
    const ALIASES: &'static [&'static str] = &["vagabond pai sho"];
    const SIDES: [&'static str; 2] = SIDES;
    type Position = Position;
    type Move = Move;
}
