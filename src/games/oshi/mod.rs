//! Oshi (Tyler Bielman, WizKids 2006): push 7 points of your opponent's
//! pieces off a 9×9 board. Rules: ../shared/rules/oshi.md; notation:
//! notation/oshi.md.

mod facts;
mod geometry;
mod notation;
mod position;
mod rules;

#[cfg(test)]
mod tests;

pub use geometry::{Dir, Square};
pub use notation::Move;
pub use position::{NoReturn, Piece, Position};
pub use rules::OshiError;

use crate::game::{
    tag_value, Counts, Ending, Game, MoveFacts, MoveSyntaxError, SetupError, Side, Stat,
};
use crate::record::Tag;

pub const SIDES: [&str; 2] = ["Red", "White"];

pub struct Oshi;

impl Game for Oshi {
    const NAME: &'static str = "oshi";
    const SIDES: [&'static str; 2] = SIDES;

    type Position = Position;
    type Move = Move;
    type Error = OshiError;

    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let no_return = match tag_value(tags, "NoReturn").map(str::to_ascii_lowercase) {
            None => NoReturn::Own,
            Some(v) if v == "own" => NoReturn::Own,
            Some(v) if v == "opponent" => NoReturn::Opponent,
            Some(_) => {
                return Err(SetupError {
                    tag: "NoReturn",
                    message: "NoReturn is `own` (the default) or `opponent`".into(),
                    at: None,
                })
            }
        };
        match tag_value(tags, "Position") {
            None => Ok(Position::start(no_return)),
            Some(text) => {
                let mut pos = Position::parse(text).map_err(SetupError::from)?;
                pos.no_return = no_return;
                Ok(pos)
            }
        }
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    fn parse_move(_: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        notation::parse_move(text)
    }

    fn play(pos: &mut Position, mv: &Move) -> Result<(), OshiError> {
        rules::play(pos, mv)
    }

    fn legal_moves(pos: &Position, out: &mut Vec<Move>) {
        rules::legal_moves(pos, out)
    }

    fn ending(pos: &Position) -> Option<Ending> {
        rules::ending(pos)
    }

    fn write_move(mv: &Move, out: &mut String) {
        notation::write_move(mv, out)
    }

    fn write_position(pos: &Position) -> String {
        pos.write()
    }

    fn describe(before: &Position, mv: &Move, after: &Position) -> MoveFacts {
        facts::describe(before, mv, after)
    }

    const STATS: &'static [Stat] = facts::STATS;

    fn count(
        before: &Position,
        _: &Move,
        after: &Position,
        f: &MoveFacts,
        _: usize,
        counts: &mut Counts,
    ) {
        facts::count(before, after, f, counts)
    }

    fn describe_reason(reason: &str) -> String {
        match reason {
            "points" => "on points".into(),
            "no-legal-move" => "as the opponent had no legal move".into(),
            other => other.replace('-', " "),
        }
    }
}
