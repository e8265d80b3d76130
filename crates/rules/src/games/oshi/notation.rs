//! Oshi move syntax: `FROM-TO`, e.g. `e3-e5` (uppercase accepted).

use super::geometry::Square;
use super::position::Position;
use super::Oshi;
use crate::game::{no_draw_marks, MoveSyntaxError, Notation, PositionError};
use nom::bytes::complete::take;
use nom::character::complete::char;
use nom::{IResult, Parser};

/// A move as written: the mover's squares; what it pushes follows from the
/// rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

fn two_chars(i: &str) -> IResult<&str, &str, ()> {
    take(2usize).parse(i)
}

fn err(message: impl Into<String>, at: usize) -> MoveSyntaxError {
    MoveSyntaxError {
        message: message.into(),
        at,
    }
}

const SHAPE: &str = "an Oshi move is written FROM-TO, like `e3-e5`";

impl Notation for Oshi {
    fn parse_move(_: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        // The usual spelling, `e3-e5`, read directly; the rest (upper case,
        // and every error) by the parser below.
        if let [f1, r1, b'-', f2, r2] = *text.as_bytes() {
            if let (Some(from), Some(to)) = (Square::from_plain(f1, r1), Square::from_plain(f2, r2))
            {
                return Ok(Move { from, to });
            }
        }
        no_draw_marks(text, "Oshi")?;
        let at = |rest: &str| text.len() - rest.len();
        let truncated = || format!("truncated move: {SHAPE}");
        let not_square = |s: &str| format!("`{s}` is not a square a1..i9: {SHAPE}");
        let (rest, a) = two_chars(text).map_err(|_| err(truncated(), 0))?;
        let from = Square::parse(a).ok_or_else(|| err(not_square(a), 0))?;
        let (rest, _) = char::<_, ()>('-').parse(rest).map_err(|_| {
            err(
                format!("expected `-` after the first square: {SHAPE}"),
                at(rest),
            )
        })?;
        let (tail, b) = two_chars(rest).map_err(|_| err(truncated(), at(rest)))?;
        let to = Square::parse(b).ok_or_else(|| err(not_square(b), at(rest)))?;
        if !tail.is_empty() {
            return Err(err(
                format!("unexpected `{tail}` after the move: {SHAPE}"),
                at(tail),
            ));
        }
        Ok(Move { from, to })
    }

    fn write_move(mv: &Move, out: &mut String) {
        mv.from.push_to(out);
        out.push('-');
        mv.to.push_to(out);
    }

    fn parse_position(text: &str) -> Result<Position, PositionError> {
        Position::parse(text)
    }

    fn write_position(pos: &Position) -> String {
        pos.write()
    }

    fn describe_reason(reason: &str) -> String {
        match reason {
            "points" => "on points".into(),
            "no-legal-move" => "as the opponent had no legal move".into(),
            other => other.replace('-', " "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_move(text: &str) -> Result<Move, MoveSyntaxError> {
        Oshi::parse_move(&Position::start(super::super::NoReturn::Own), text)
    }

    fn write_move(mv: &Move, out: &mut String) {
        Oshi::write_move(mv, out)
    }

    #[test]
    fn reads_plain_and_uppercase_moves() {
        let m = parse_move("e3-e5").unwrap();
        assert_eq!(
            (m.from.to_string(), m.to.to_string()),
            ("e3".into(), "e5".into())
        );
        assert_eq!(parse_move("E3-E5").unwrap(), m);
        let mut s = String::new();
        write_move(&m, &mut s);
        assert_eq!(s, "e3-e5");
    }

    #[test]
    fn the_direct_reading_agrees_with_the_parser_on_every_pair() {
        // Lower case is read directly, upper case by the parser.
        for a in Square::all() {
            for b in Square::all() {
                let lower = format!("{a}-{b}");
                let m = parse_move(&lower).unwrap();
                assert_eq!((m.from, m.to), (a, b));
                assert_eq!(parse_move(&lower.to_uppercase()).unwrap(), m);
            }
        }
    }

    #[test]
    fn rejects_malformed_moves_with_the_place() {
        for (text, at) in [
            ("e3", 2),
            ("e3-", 3),
            ("e", 0),
            ("e3e5", 2),
            ("z3-e5", 0),
            ("e3-e0", 3),
            ("e3-e5+", 5),
            ("e3xe5", 2),
            ("e3-e5~~", 5),
            ("==", 0),
            ("é3-e5", 0),
            ("€3-e5", 0),
            ("e3-€5", 3),
        ] {
            let e = parse_move(text).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
