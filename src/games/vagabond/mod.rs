//! Vagabond Pai Sho, as played at The Garden Gate: deploy and move tiles,
//! capture the opponent's White Lotus. Rules:
//! ../shared/rules/vagabond-pai-sho.md; notation: notation/vagabond.md.

mod facts;
mod geometry;
mod notation;
mod position;
mod rules;
mod tiles;

#[cfg(test)]
mod tests;

pub use geometry::Point;
pub use notation::{Body, Move};
pub use position::Position;
pub use rules::VagabondError;
pub use tiles::{Code, Options, Tile};

use crate::game::{
    tag_value, Counts, Ending, Game, MoveFacts, MoveSyntaxError, MovetextStyle, SetupError, Side,
    SiteFormat, Stat,
};
use crate::record::Tag;

pub const SIDES: [&str; 2] = ["Host", "Guest"];

pub struct Vagabond;

impl Game for Vagabond {
    const NAME: &'static str = "vagabond";
    const ALIASES: &'static [&'static str] = &["vagabond pai sho"];
    const SIDES: [&'static str; 2] = SIDES;
    const STYLE: MovetextStyle = MovetextStyle { semicolons: true };

    type Position = Position;
    type Move = Move;
    type Error = VagabondError;

    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let options = match tag_value(tags, "Options") {
            None => Options::default(),
            Some(v) => Options::parse(v).map_err(|m| SetupError {
                tag: "Options",
                message: format!(
                    "{m}: Options are DoubleTiles and SwapBisonWithLemur, comma-separated"
                ),
                at: None,
            })?,
        };
        match tag_value(tags, "Position") {
            None => Ok(Position::start(options)),
            Some(text) => Ok(Position::parse(text, options)?),
        }
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    fn parse_move(_: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        notation::parse_move(text)
    }

    fn play(pos: &mut Position, mv: &Move) -> Result<(), VagabondError> {
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
        _: &Position,
        _: &MoveFacts,
        ply: usize,
        counts: &mut Counts,
    ) {
        facts::count(before, mv, ply, counts)
    }

    const SITE: Option<SiteFormat> = Some(SiteFormat {
        name: "gardengate",
        tags: &[],
        separator: ";",
        game_start: Some("0H."),
        recognizes: facts::looks_garden_gate,
    });

    fn site_move(before: &Position, _: &Move, _: &Position, f: &MoveFacts) -> String {
        facts::garden_gate(before, f)
    }

    fn describe_reason(reason: &str) -> String {
        match reason {
            "lotus-captured" => "by capturing the White Lotus".into(),
            "draw-accepted" => "by an accepted draw offer".into(),
            "stuck" => "as the side to move has no legal move (stuck)".into(),
            other => other.replace('-', " "),
        }
    }
}
