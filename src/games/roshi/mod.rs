//! Roshi (Mark S. Ball, 2025): place, slide and push pieces to build a
//! five-in-a-row through the roshi stone. Rules: ../shared/rules/roshi.md;
//! notation: notation/roshi.md.

mod facts;
mod geometry;
mod notation;
mod position;
mod rules;

#[cfg(test)]
mod tests;

pub use geometry::{Dims, Sq, Zone};
pub use notation::{Action, Move};
pub use position::{Cell, Phase, Position, SlideRule};
pub use rules::RoshiError;

use crate::game::{
    tag_value, Counts, Ending, Game, MoveFacts, MoveSyntaxError, SetupError, Side, Stat,
};
use crate::record::Tag;

pub const SIDES: [&str; 2] = ["Red", "Blue"];

pub struct Roshi;

fn bad(tag: &'static str, message: &str) -> SetupError {
    SetupError {
        tag,
        message: message.into(),
        at: None,
    }
}

fn settings(tags: &[Tag]) -> Result<(Option<Dims>, Option<Zone>, SlideRule), SetupError> {
    let dims = match tag_value(tags, "Board") {
        None => None,
        Some(v) => Some(Dims::parse(v).ok_or_else(|| {
            bad(
                "Board",
                "Board is the board's size, like `7x7` or `9x9` (5 to 19 a side)",
            )
        })?),
    };
    let zone = match tag_value(tags, "Zone") {
        None => None,
        Some(v) => Some(Zone::parse(v).ok_or_else(|| {
            bad(
                "Zone",
                "Zone is a rectangle given by two opposite corners, like `c3-e5`",
            )
        })?),
    };
    let slide = match tag_value(tags, "Slide").map(str::to_ascii_lowercase) {
        None => SlideRule::Path,
        Some(v) if v == "path" => SlideRule::Path,
        Some(v) if v == "line" => SlideRule::Line,
        Some(_) => return Err(bad("Slide", "Slide is `path` (the default) or `line`")),
    };
    Ok((dims, zone, slide))
}

impl Game for Roshi {
    const NAME: &'static str = "roshi";
    const SIDES: [&'static str; 2] = SIDES;

    type Position = Position;
    type Move = Move;
    type Error = RoshiError;

    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let (dims, zone, slide) = settings(tags)?;
        if let Some(text) = tag_value(tags, "Position") {
            let pos = Position::parse(text, slide)?;
            if dims.is_some_and(|d| d != pos.dims) {
                return Err(bad(
                    "Board",
                    "the Board tag and the Position disagree on the size",
                ));
            }
            if zone.is_some_and(|z| z != pos.zone) {
                return Err(bad(
                    "Zone",
                    "the Zone tag and the Position disagree on the zone",
                ));
            }
            return Ok(pos);
        }
        let dims = dims.unwrap_or(Dims { files: 7, ranks: 7 });
        let zone = zone.unwrap_or_else(|| Zone::default_for(dims));
        if !zone.fits(dims) {
            return Err(bad("Zone", "the zone must lie on the board"));
        }
        Ok(Position::start(dims, zone, slide))
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    fn parse_move(_: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        notation::parse_move(text)
    }

    fn play(pos: &mut Position, mv: &Move) -> Result<(), RoshiError> {
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
        mv: &Move,
        after: &Position,
        _: &MoveFacts,
        _: usize,
        counts: &mut Counts,
    ) {
        facts::count(before, mv, after, counts)
    }

    fn describe_reason(reason: &str) -> String {
        match reason {
            "roshi" => "with a roshi".into(),
            "double-pass" => "after two passes in a row".into(),
            other => other.replace('-', " "),
        }
    }
}
