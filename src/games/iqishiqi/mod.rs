//! Iqishiqi (João Pedro Neto, 2003): drop white stones, push the neutral
//! stone onto one of your edges. Rules: ../shared/rules/iqishiqi.md;
//! notation: notation/iqishiqi.md.

mod facts;
mod geometry;
mod labels;
mod notation;
mod position;
mod rules;

#[cfg(test)]
mod tests;

pub use geometry::{Cell, Dir, Edge, CELLS};
pub use labels::Coords;
pub use notation::Move;
pub use position::Position;
pub use rules::IqishiqiError;

use crate::game::{
    tag_value, Counts, Ending, Game, MoveFacts, MoveSyntaxError, SetupError, Side, SiteFormat, Stat,
};
use crate::record::Tag;

pub struct Iqishiqi;

fn settings(tags: &[Tag]) -> Result<(Coords, Option<u32>), SetupError> {
    let coords = match tag_value(tags, "Coords").map(str::to_ascii_lowercase) {
        None => Coords::Ludii,
        Some(v) if v == "ludii" => Coords::Ludii,
        Some(v) if v == "abstractplay" => Coords::AbstractPlay,
        Some(_) => {
            return Err(SetupError {
                tag: "Coords",
                message: "Coords is `ludii` (the default) or `abstractplay`".into(),
                at: None,
            })
        }
    };
    let limit = match tag_value(tags, "StoneLimit") {
        None => None,
        Some(v) => Some(v.trim().parse::<u32>().map_err(|_| SetupError {
            tag: "StoneLimit",
            message: "StoneLimit is the number of white stones in the supply, like `75`".into(),
            at: None,
        })?),
    };
    Ok((coords, limit))
}

impl Game for Iqishiqi {
    const NAME: &'static str = "iqishiqi";
    const SIDES: [&'static str; 2] = ["North", "South"];

    type Position = Position;
    type Move = Move;
    type Error = IqishiqiError;

    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let (coords, limit) = settings(tags)?;
        match tag_value(tags, "Position") {
            None => Ok(Position::start(coords, limit)),
            Some(text) => Position::parse(text, coords, limit).map_err(SetupError::from),
        }
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        notation::parse_move(text, pos.coords)
    }

    fn play(pos: &mut Position, mv: &Move) -> Result<(), IqishiqiError> {
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
        _: &MoveFacts,
        _: usize,
        counts: &mut Counts,
    ) {
        facts::count(before, after, counts)
    }

    fn count_end(end: &Position, counts: &mut Counts) {
        counts.max(1, facts::largest_group(end));
    }

    const SITE: Option<SiteFormat> = Some(SiteFormat {
        name: "abstractplay",
        tags: &[("Coords", "abstractplay")],
        separator: " ",
        game_start: None,
        recognizes: facts::looks_abstractplay,
    });

    fn site_move(_: &Position, mv: &Move, after: &Position, _: &MoveFacts) -> String {
        facts::abstractplay_move(mv, after)
    }

    fn describe_reason(reason: &str) -> String {
        match reason {
            "corner" => "by pushing the neutral stone onto a corner".into(),
            "edge" => "as the neutral stone reached one of their edges".into(),
            "stalemate" => "by stalemate (the opponent had no legal move)".into(),
            other => other.replace('-', " "),
        }
    }
}
