//! Retsami (John Wildsmith): race four counters along the inward spiral to
//! the Home Square, taking superior enemy counters on the way. Rules:
//! ../shared/rules/retsami.md; notation: notation/retsami.md.

mod facts;
mod geometry;
mod notation;
mod position;
mod rules;

#[cfg(test)]
mod tests;

pub use geometry::{Square, CORNERS, HOME};
pub use notation::{Action, Move};
pub use position::Position;
pub use rules::RetsamiError;

use crate::game::{
    tag_value, Counts, Ending, Game, MoveFacts, MoveSyntaxError, SetupError, Side, Stat,
};
use crate::record::Tag;

pub const SIDES: [&str; 2] = ["Red", "White"];

pub struct Retsami;

fn first_player(tags: &[Tag]) -> Result<Side, SetupError> {
    match tag_value(tags, "FirstPlayer").map(str::to_ascii_lowercase) {
        None => Ok(Side::First),
        Some(v) if v == "red" => Ok(Side::First),
        Some(v) if v == "white" => Ok(Side::Second),
        Some(_) => Err(SetupError {
            tag: "FirstPlayer",
            message: "FirstPlayer is `Red` (the default) or `White`: that side stands on \
                      Way 2, 4, 6, 8 and moves first"
                .into(),
            at: None,
        }),
    }
}

impl Game for Retsami {
    const NAME: &'static str = "retsami";
    const SIDES: [&'static str; 2] = SIDES;

    type Position = Position;
    type Move = Move;
    type Error = RetsamiError;

    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let first = first_player(tags)?;
        match tag_value(tags, "Position") {
            None => Ok(Position::start(first)),
            Some(text) => Ok(Position::parse(text, first)?),
        }
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    fn first_mover(start: &Position) -> Side {
        start.first_mover
    }

    fn parse_move(_: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        notation::parse_move(text)
    }

    fn play(pos: &mut Position, mv: &Move) -> Result<(), RetsamiError> {
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

    fn count_end(end: &Position, counts: &mut Counts) {
        facts::count_end(end, counts)
    }

    fn describe_reason(reason: &str) -> String {
        match reason {
            "home" => "by reaching the Home Square".into(),
            "draw-accepted" => "by an accepted draw offer".into(),
            "blocked" => "as the player to move had no legal move (blocked)".into(),
            other => other.replace('-', " "),
        }
    }
}
