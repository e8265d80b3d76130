//! Iqishiqi move syntax: `DROP/DEST` (the drop cell, then where the neutral
//! stone lands), or `DROP` alone where exactly one push follows.

use super::geometry::Hex;
use super::labels::Coords;
use super::position::Position;
use super::Iqishiqi;
use crate::game::{no_draw_marks, MoveSyntaxError, Notation, PositionError};
use nom::bytes::complete::take_while1;
use nom::character::complete::char;
use nom::combinator::opt;
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// A move as written: the destination may be left to the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub drop: Hex,
    pub dest: Option<Hex>,
    pub coords: Coords,
}

fn label(i: &str) -> IResult<&str, &str, ()> {
    take_while1(|c: char| c.is_ascii_alphanumeric()).parse(i)
}

fn shape(i: &str) -> IResult<&str, (&str, Option<&str>), ()> {
    (label, opt(preceded(char('/'), label))).parse(i)
}

/// A move in its plain form, decoded by hand: one label, or two around a
/// `/`, each a cell in `coords`'s scheme. Anything else (and every error)
/// is left to the full parser, which says what is wrong.
fn plain_move(coords: Coords, text: &str) -> Option<Move> {
    let bytes = text.as_bytes();
    // A label is two or three bytes: the `/`, if any, is the third or the
    // fourth.
    let (drop, dest) = match bytes {
        [_, _, b'/', dest @ ..] => (&bytes[..2], Some(coords.parse_bytes(dest)?)),
        [_, _, _, b'/', dest @ ..] => (&bytes[..3], Some(coords.parse_bytes(dest)?)),
        _ => (bytes, None),
    };
    Some(Move {
        drop: coords.parse_bytes(drop)?,
        dest,
        coords,
    })
}

/// The move parser for every form and error: labels of letters and digits,
/// `/` between them, each checked against `coords`'s scheme.
fn full_move(coords: Coords, text: &str) -> Result<Move, MoveSyntaxError> {
    let err = |message: String, at: usize| MoveSyntaxError { message, at };
    let how = match coords {
        Coords::Ludii => "an Iqishiqi move is written DROP/DEST, like `F5/A7`",
        Coords::AbstractPlay => "an Iqishiqi move is written DROP/DEST, like `e3/g1`",
    };
    no_draw_marks(text, "Iqishiqi")?;
    let (rest, (drop, dest)) =
        shape(text).map_err(|_| err(format!("expected a cell: {how}"), 0))?;
    if !rest.is_empty() {
        return Err(err(
            format!("unexpected `{rest}`: {how}"),
            text.len() - rest.len(),
        ));
    }
    let cell = |l: &str, at: usize| {
        coords.parse(l).ok_or_else(|| {
            err(
                format!("`{l}` is not a cell in {} labels: {how}", coords.name()),
                at,
            )
        })
    };
    let drop_cell = cell(drop, 0)?;
    let dest = match dest {
        Some(d) => Some(cell(d, drop.len() + 1)?),
        None => None,
    };
    Ok(Move {
        drop: drop_cell,
        dest,
        coords,
    })
}

impl Notation for Iqishiqi {
    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        match plain_move(pos.coords, text) {
            Some(mv) => Ok(mv),
            None => full_move(pos.coords, text),
        }
    }

    fn write_move(mv: &Move, out: &mut String) {
        mv.coords.write(mv.drop, out);
        if let Some(dest) = mv.dest {
            out.push('/');
            mv.coords.write(dest, out);
        }
    }

    fn parse_position(text: &str) -> Result<Position, PositionError> {
        Position::parse(text, Coords::Ludii, None)
    }

    fn write_position(pos: &Position) -> String {
        pos.write()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_move(text: &str, coords: Coords) -> Result<Move, MoveSyntaxError> {
        Iqishiqi::parse_move(&Position::start(coords, None), text)
    }

    fn write_move(mv: &Move, out: &mut String) {
        Iqishiqi::write_move(mv, out)
    }

    #[test]
    fn reads_both_forms_in_both_schemes() {
        let m = parse_move("F5/A7", Coords::Ludii).unwrap();
        assert_eq!(m.drop, Coords::Ludii.parse("F5").unwrap());
        assert_eq!(m.dest, Coords::Ludii.parse("A7"));
        let m = parse_move("f5", Coords::Ludii).unwrap();
        assert_eq!(m.dest, None);
        let m = parse_move("h8/h7", Coords::AbstractPlay).unwrap();
        assert_eq!(m.drop, Hex::CENTRE);
        let mut s = String::new();
        write_move(&m, &mut s);
        assert_eq!(s, "h8/h7");
    }

    #[test]
    fn the_plain_decoder_reads_what_the_full_parser_reads() {
        let mut texts = vec![String::new()];
        for coords in [Coords::Ludii, Coords::AbstractPlay] {
            let labels: Vec<String> = Hex::all().map(|c| coords.label(c)).collect();
            for (i, a) in labels.iter().enumerate() {
                texts.push(a.clone());
                texts.push(a.to_ascii_lowercase());
                let b = &labels[(i * 7 + 3) % labels.len()];
                texts.push(format!("{a}/{b}"));
            }
        }
        for odd in [
            "/A7", "F5/", "F5//A7", "F5/A7/", "F5/A7/B1", "F5~~", "==", "H08", "H0/A7", "é5",
            "F5/é", "P1/A7", "A9", "F 5", "F5/A7 ", "F55/A7", "Ff/A7",
        ] {
            texts.push(odd.to_string());
        }
        let mut plain = 0;
        for coords in [Coords::Ludii, Coords::AbstractPlay] {
            for text in &texts {
                if let Some(mv) = plain_move(coords, text) {
                    plain += 1;
                    assert_eq!(full_move(coords, text), Ok(mv), "{text}");
                }
            }
        }
        // Every well-formed label and pair in its own scheme, at least.
        assert!(plain >= 4 * 169 * 3 / 2, "{plain}");
    }

    #[test]
    fn rejects_malformed_moves_with_the_place() {
        for (text, at) in [
            ("", 0),
            ("/A7", 0),
            ("F5/", 2),
            ("F5-A7", 2),
            ("Z5/A7", 0),
            ("F5/A9", 3),
            ("F5/A7/B1", 5),
            ("F5~~", 2),
        ] {
            let e = parse_move(text, Coords::Ludii).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
