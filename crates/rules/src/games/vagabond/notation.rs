//! The Garden Gate's move syntax: deploy `T(x,y)`, move `(x,y)-(x,y)`, a
//! draw offer `~~` after either, an acceptance `==`; optionally prefixed by
//! the Garden Gate's `0H.` / `0G.` (then checked).

use super::geometry::Point;
use super::position::Position;
use super::tiles::TileCode;
use super::tiles::TileOptions;
use super::Vagabond;
use crate::game::{
    split_draw_offer, MoveSyntaxError, MovetextStyle, Notation, PositionError, Side,
};
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, one_of};
use nom::combinator::opt;
use nom::{IResult, Parser};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Body {
    Deploy { code: TileCode, at: Point },
    Shift { from: Point, to: Point },
    Accept,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The Garden Gate prefix as written: move number and player.
    pub prefix: Option<(u32, Side)>,
    pub body: Body,
    pub offer: bool,
}

impl Move {
    pub fn plain(body: Body) -> Move {
        Move {
            prefix: None,
            body,
            offer: false,
        }
    }
}

/// An optional `-` and one or more digits, as an `i32` (decoded by hand:
/// what nom's combinators cost was a tenth of validating Vagabond).
fn int(i: &str) -> IResult<&str, i32, ()> {
    let fail = || nom::Err::Error(());
    let b = i.as_bytes();
    let sign = usize::from(b.first() == Some(&b'-'));
    let digits = b[sign..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return Err(fail());
    }
    // `-` and digits are ASCII: `end` is a character boundary.
    let end = sign + digits;
    let n = i[..end].parse::<i32>().map_err(|_| fail())?;
    Ok((&i[end..], n))
}

/// `(x,y)`.
fn coords(i: &str) -> IResult<&str, (i32, i32), ()> {
    let fail = || nom::Err::Error(());
    let r = i.strip_prefix('(').ok_or_else(fail)?;
    let (r, x) = int(r)?;
    let r = r.strip_prefix(',').ok_or_else(fail)?;
    let (r, y) = int(r)?;
    let r = r.strip_prefix(')').ok_or_else(fail)?;
    Ok((r, (x, y)))
}

fn prefix(i: &str) -> IResult<&str, (u32, Side), ()> {
    (
        take_while1(|c: char| c.is_ascii_digit()).map_res(|s: &str| s.parse::<u32>()),
        one_of("HG").map(|c| if c == 'H' { Side::First } else { Side::Second }),
        char('.'),
    )
        .map(|(n, side, _)| (n, side))
        .parse(i)
}

const SHAPE: &str = "a Vagabond turn is a deploy `L(0,-6)`, a move `(0,-8)-(-2,-4)` (either \
                     may end in `~~` to offer a draw), or `==`; a Garden Gate prefix like \
                     `0H.` may stand before it";

/// A plain deploy `T(x,y)` or move `(x,y)-(x,y)`, maybe offering a draw
/// (`~~`), decoded by hand from its bytes: coordinates of one or two digits
/// on the board. Anything else (a prefix, an acceptance, every error) is
/// left to the full parser.
fn plain_move(text: &[u8]) -> Option<Move> {
    let (body, offer) = match text {
        [body @ .., b'~', b'~'] => (body, true),
        _ => (text, false),
    };
    let (body, rest) = match body {
        [b'(', ..] => {
            let (from, rest) = plain_point(body)?;
            let [b'-', rest @ ..] = rest else {
                return None;
            };
            let (to, rest) = plain_point(rest)?;
            (Body::Shift { from, to }, rest)
        }
        [letter, rest @ ..] => {
            let code = TileCode::from_letter(char::from(*letter))?;
            let (at, rest) = plain_point(rest)?;
            (Body::Deploy { code, at }, rest)
        }
        [] => return None,
    };
    rest.is_empty().then_some(Move {
        prefix: None,
        body,
        offer,
    })
}

/// `(x,y)` at the front of `b`, on the board, and what follows it.
fn plain_point(b: &[u8]) -> Option<(Point, &[u8])> {
    let [b'(', b @ ..] = b else { return None };
    let (x, b) = plain_int(b)?;
    let [b',', b @ ..] = b else { return None };
    let (y, b) = plain_int(b)?;
    let [b')', b @ ..] = b else { return None };
    Some((Point::new(x, y)?, b))
}

/// An optional `-` and one or two digits at the front of `b`.
fn plain_int(b: &[u8]) -> Option<(i32, &[u8])> {
    let (negative, b) = match b {
        [b'-', b @ ..] => (true, b),
        _ => (false, b),
    };
    let digit = |c: u8| c.is_ascii_digit().then(|| i32::from(c - b'0'));
    let (n, b) = match b {
        [t, u, c, ..] if t.is_ascii_digit() && u.is_ascii_digit() && c.is_ascii_digit() => {
            return None
        }
        [t, u, b @ ..] if t.is_ascii_digit() && u.is_ascii_digit() => {
            (digit(*t)? * 10 + digit(*u)?, b)
        }
        [u, b @ ..] => (digit(*u)?, b),
        [] => return None,
    };
    Some((if negative { -n } else { n }, b))
}

/// The move parser for every form and error: the Garden Gate prefix, the
/// acceptance, the draw offer, and what is wrong where it is wrong.
fn full_move(text: &str) -> Result<Move, MoveSyntaxError> {
    let err = |message: String, at: usize| MoveSyntaxError { message, at };
    let (rest, prefix) = opt(prefix).parse(text).unwrap_or((text, None));
    let at = |r: &str| text.len() - r.len();
    if rest == "==" {
        return Ok(Move {
            prefix,
            body: Body::Accept,
            offer: false,
        });
    }
    let (body_text, offer) = split_draw_offer(rest);
    if body_text.is_empty() {
        return Err(err(
            format!("a draw offer `~~` must follow a move: {SHAPE}"),
            at(rest),
        ));
    }
    let point = |(x, y): (i32, i32), at: usize| {
        Point::new(x, y).ok_or_else(|| {
            err(
                format!("({x},{y}) is not on the board: a point has x² + y² ≤ 80"),
                at,
            )
        })
    };
    let body_at = at(body_text);
    let (tail, body) = if body_text.starts_with('(') {
        let (r, (a, _, b)) = (coords, tag("-"), coords)
            .parse(body_text)
            .map_err(|_| err(format!("expected `(x,y)-(x,y)`: {SHAPE}"), body_at))?;
        let to_at = body_text.find(")-").map_or(body_at, |k| body_at + k + 2);
        (
            r,
            Body::Shift {
                from: point(a, body_at)?,
                to: point(b, to_at)?,
            },
        )
    } else {
        let mut chars = body_text.chars();
        let code = chars
            .next()
            .and_then(TileCode::from_letter)
            .ok_or_else(|| {
                err(
                    format!("expected a tile code L, S, B, W, C, F, D or Y: {SHAPE}"),
                    body_at,
                )
            })?;
        let (r, xy) = coords(&body_text[1..]).map_err(|_| {
            err(
                format!("expected `(x,y)` after the tile code: {SHAPE}"),
                body_at + 1,
            )
        })?;
        (
            r,
            Body::Deploy {
                code,
                at: point(xy, body_at + 1)?,
            },
        )
    };
    if !tail.is_empty() {
        return Err(err(format!("unexpected `{tail}`: {SHAPE}"), at(tail)));
    }
    Ok(Move {
        prefix,
        body,
        offer,
    })
}

impl Notation for Vagabond {
    const STYLE: MovetextStyle = MovetextStyle {
        semicolons: true,
        commas: false,
    };

    fn parse_move(_: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        match plain_move(text.as_bytes()) {
            Some(mv) => Ok(mv),
            None => full_move(text),
        }
    }

    /// The canonical form: no prefix (it depends on the ply).
    fn write_move(mv: &Move, out: &mut String) {
        let _ = match mv.body {
            Body::Accept => write!(out, "=="),
            Body::Deploy { code, at } => write!(out, "{}({},{})", code.letter(), at.x, at.y),
            Body::Shift { from, to } => write!(out, "({},{})-({},{})", from.x, from.y, to.x, to.y),
        };
        if mv.offer {
            out.push_str("~~");
        }
    }

    fn parse_position(text: &str) -> Result<Position, PositionError> {
        Position::parse(text, TileOptions::default())
    }

    fn write_position(pos: &Position) -> String {
        pos.write()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_move(text: &str) -> Result<Move, MoveSyntaxError> {
        Vagabond::parse_move(&Position::start(TileOptions::default()), text)
    }

    fn write_move(mv: &Move, out: &mut String) {
        Vagabond::write_move(mv, out)
    }

    fn round(text: &str) -> String {
        let mut s = String::new();
        write_move(&parse_move(text).unwrap(), &mut s);
        s
    }

    #[test]
    fn the_plain_decoder_reads_what_the_full_parser_reads() {
        let mut texts = Vec::new();
        let points: Vec<String> = (-10..=10)
            .flat_map(|x| (-10..=10).map(move |y| format!("({x},{y})")))
            .collect();
        for (i, p) in points.iter().enumerate() {
            for code in "LSBWCFDYXl".chars() {
                texts.push(format!("{code}{p}"));
            }
            texts.push(format!("{p}-{}", points[(i * 31 + 7) % points.len()]));
        }
        let offers: Vec<String> = texts.iter().map(|t| format!("{t}~~")).collect();
        texts.extend(offers);
        for odd in [
            "",
            "~~",
            "==",
            "==~~",
            "0H.L(0,-6)",
            "L(0,-6",
            "L(00,-6)",
            "L(0,-006)",
            "L(-0,0)",
            "L(+1,0)",
            "L(1, 0)",
            "(0,0)(1,0)",
            "(0,0)-",
            "(0,0)-(1,0)x",
            "L(0,0)~",
            "L(0,0)~~~",
            "(0,0)--(1,0)",
            "L((0,0)",
            "é(0,0)",
            "L(0,1é)",
        ] {
            texts.push(odd.to_string());
        }
        let mut plain = 0;
        for text in &texts {
            if let Some(mv) = plain_move(text.as_bytes()) {
                plain += 1;
                assert_eq!(full_move(text), Ok(mv), "{text}");
            }
        }
        // Every well-formed deploy and move on the board, with and
        // without an offer.
        assert!(plain > 249 * 8 * 2, "{plain}");
    }

    #[test]
    fn reads_the_garden_gate_forms() {
        assert_eq!(round("L(0,-6)"), "L(0,-6)");
        assert_eq!(round("0H.L(0,-6)"), "L(0,-6)");
        assert_eq!(round("3H.(0,-8)-(-2,-4)"), "(0,-8)-(-2,-4)");
        assert_eq!(round("7G.D(-6,1)~~"), "D(-6,1)~~");
        assert_eq!(round("8H.=="), "==");
        assert_eq!(round("=="), "==");
        let m = parse_move("12G.S(8,0)").unwrap();
        assert_eq!(m.prefix, Some((12, Side::Second)));
    }

    #[test]
    fn rejects_malformed_turns_with_the_place() {
        for (text, at) in [
            ("", 0),
            ("~~", 0),
            ("0H.~~", 3),
            ("X(0,0)", 0),
            ("L(0,9)", 1),
            ("L(0,0", 1),
            ("L 0,0", 1),
            ("(0,0)-(9,9)", 6),
            ("(0,0)(1,0)", 0),
            ("(0,0)-(1,0)x", 11),
            ("0X.L(0,0)", 0),
            ("L(0,0)==", 6),
        ] {
            let e = parse_move(text).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
