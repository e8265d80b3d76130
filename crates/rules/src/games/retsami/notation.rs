//! Retsami move syntax: advance `FROM-TO`, take `FROMxTO` (`X` accepted),
//! re-enter `@TO`; any of them may carry a draw offer `~~`; `==` accepts an
//! offer.

use super::geometry::Square;
use super::position::Position;
use super::Retsami;
use crate::game::{split_draw_offer, MoveSyntaxError, Notation, PositionError, Side};
use nom::branch::alt;
use nom::bytes::complete::take;
use nom::character::complete::{char, one_of};
use nom::{IResult, Parser};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    Advance { from: Square, to: Square },
    Take { from: Square, to: Square },
    Enter { to: Square },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// An action, perhaps with a draw offer.
    Play { action: Action, offer: bool },
    /// `==`: the offer of the opponent's last turn is accepted.
    Accept,
}

const SHAPE: &str =
    "a Retsami turn is an advance `h1-i3`, a take `b1xc1`, a re-entry `@c1` (any of them \
     may end in `~~` to offer a draw), or `==` to accept one";

fn two(i: &str) -> IResult<&str, &str, ()> {
    take(2usize).parse(i)
}

fn err(message: String, at: usize) -> MoveSyntaxError {
    MoveSyntaxError { message, at }
}

/// The usual spellings, `h1-i3`, `b1xc1` and `@c1`, read directly; `None`
/// for every other text, which [`parse_full`] reads (upper case, draw
/// offers, `==`, and every error).
#[inline]
fn parse_plain(text: &str) -> Option<Move> {
    let square = Square::from_plain;
    let action = match *text.as_bytes() {
        [f1, r1, sep @ (b'-' | b'x'), f2, r2] => {
            let (from, to) = (square(f1, r1)?, square(f2, r2)?);
            if sep == b'-' {
                Action::Advance { from, to }
            } else {
                Action::Take { from, to }
            }
        }
        [b'@', f, r] => Action::Enter { to: square(f, r)? },
        _ => return None,
    };
    Some(Move::Play {
        action,
        offer: false,
    })
}

/// A turn in any spelling the notation allows, or why it is none.
fn parse_full(text: &str) -> Result<Move, MoveSyntaxError> {
    if text == "==" {
        return Ok(Move::Accept);
    }
    let (body, offer) = split_draw_offer(text);
    if body.is_empty() {
        return Err(err(
            format!("a draw offer `~~` must follow a move: {SHAPE}"),
            0,
        ));
    }
    let at = |rest: &str| body.len() - rest.len();
    let square = |s: &str, at: usize| {
        Square::parse(s).ok_or_else(|| err(format!("`{s}` is not a square a1..i9: {SHAPE}"), at))
    };
    let action = if let Some(rest) = body.strip_prefix('@') {
        let (tail, to) = two(rest).map_err(|_| err(format!("truncated move: {SHAPE}"), 1))?;
        let to = square(to, 1)?;
        if !tail.is_empty() {
            return Err(err(format!("unexpected `{tail}`: {SHAPE}"), at(tail)));
        }
        Action::Enter { to }
    } else {
        let (rest, a) = two(body).map_err(|_| err(format!("truncated move: {SHAPE}"), 0))?;
        let from = square(a, 0)?;
        let (rest, sep) = alt((char::<_, ()>('-'), one_of("xX")))
            .parse(rest)
            .map_err(|_| {
                err(
                    format!("expected `-` or `x` after the first square: {SHAPE}"),
                    2,
                )
            })?;
        let (tail, b) = two(rest).map_err(|_| err(format!("truncated move: {SHAPE}"), 3))?;
        let to = square(b, 3)?;
        if !tail.is_empty() {
            return Err(err(format!("unexpected `{tail}`: {SHAPE}"), at(tail)));
        }
        if sep == '-' {
            Action::Advance { from, to }
        } else {
            Action::Take { from, to }
        }
    };
    Ok(Move::Play { action, offer })
}

impl Notation for Retsami {
    fn parse_move(_: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        match parse_plain(text) {
            Some(mv) => Ok(mv),
            None => parse_full(text),
        }
    }

    fn write_move(mv: &Move, out: &mut String) {
        match *mv {
            Move::Accept => out.push_str("=="),
            Move::Play { action, offer } => {
                match action {
                    Action::Advance { from, to } | Action::Take { from, to } => {
                        from.push_to(out);
                        out.push(match action {
                            Action::Take { .. } => 'x',
                            _ => '-',
                        });
                        to.push_to(out);
                    }
                    Action::Enter { to } => {
                        out.push('@');
                        to.push_to(out);
                    }
                }
                if offer {
                    out.push_str("~~");
                }
            }
        }
    }

    fn parse_position(text: &str) -> Result<Position, PositionError> {
        Position::parse(text, Side::First)
    }

    fn write_position(pos: &Position) -> String {
        pos.write()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_spellings_read_directly_as_the_full_parser_reads_them() {
        // Every text of the plain shapes over an alphabet with each
        // edge: files and ranks in and out of range, upper case, and
        // every separator the full parser knows or rejects.
        let files = ["a", "i", "j", "A", "e", "`"];
        let ranks = ["1", "9", "0", ":", "5"];
        let seps = ["-", "x", "X", "+", "@"];
        let mut texts = Vec::new();
        for f1 in files {
            for r1 in ranks {
                texts.push(format!("@{f1}{r1}"));
                for sep in seps {
                    for f2 in files {
                        for r2 in ranks {
                            texts.push(format!("{f1}{r1}{sep}{f2}{r2}"));
                        }
                    }
                }
            }
        }
        let mut plain = 0;
        for text in &texts {
            if let Some(mv) = parse_plain(text) {
                plain += 1;
                assert_eq!(Ok(mv), parse_full(text), "{text}");
            }
        }
        // a, i, e by 1, 9, 5: nine squares each side, two separators, and
        // the re-entries onto the nine.
        assert_eq!(plain, 9 * 2 * 9 + 9);
        // And through the trait, as replay calls it.
        let pos = Position::start(Side::First);
        for text in &texts {
            assert_eq!(Retsami::parse_move(&pos, text), parse_full(text), "{text}");
        }
    }

    fn parse_move(text: &str) -> Result<Move, MoveSyntaxError> {
        Retsami::parse_move(&Position::start(Side::First), text)
    }

    fn write_move(mv: &Move, out: &mut String) {
        Retsami::write_move(mv, out)
    }

    fn round(text: &str) -> String {
        let mut s = String::new();
        write_move(&parse_move(text).unwrap(), &mut s);
        s
    }

    #[test]
    fn reads_every_kind_of_turn() {
        assert_eq!(round("h1-i3"), "h1-i3");
        assert_eq!(round("B1XC1"), "b1xc1");
        assert_eq!(round("b1xc1"), "b1xc1");
        assert_eq!(round("@c1"), "@c1");
        assert_eq!(round("d1-d2~~"), "d1-d2~~");
        assert_eq!(round("@C1~~"), "@c1~~");
        assert_eq!(round("=="), "==");
        assert!(matches!(
            parse_move("d1-d2~~").unwrap(),
            Move::Play { offer: true, .. }
        ));
    }

    #[test]
    fn rejects_malformed_turns_with_the_place() {
        for (text, at) in [
            ("~~", 0),
            ("h1", 2),
            ("h1-", 3),
            ("h1/i3", 2),
            ("j1-i3", 0),
            ("h1-i0", 3),
            ("h1-i3x", 5),
            ("@", 1),
            ("@j1", 1),
            ("@c1c", 3),
            ("===", 0),
            ("=", 0),
        ] {
            let e = parse_move(text).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
