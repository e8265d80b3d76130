//! Roshi turn syntax: one or two actions joined by `,` — place `@SQ`, slide
//! `FROM-TO`, push `P>T`; Red's setup `R@SQ,@SQ` (the stone, then a red
//! piece); Blue's setup `@SQ,@SQ`; a pass `--`.

use super::geometry::Sq;
use super::position::{Position, SlideRule};
use super::Roshi;
use crate::game::{no_draw_marks, MoveSyntaxError, Notation, PositionError};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// `R@SQ`: the roshi stone (Red's setup only).
    Stone(Sq),
    Place(Sq),
    Slide(Sq, Sq),
    Push(Sq, Sq),
}

impl Action {
    /// The action's type, for "never the same type twice".
    pub fn kind(self) -> ActionKind {
        match self {
            Action::Stone(_) => ActionKind::Stone,
            Action::Place(_) => ActionKind::Place,
            Action::Slide(..) => ActionKind::Slide,
            Action::Push(..) => ActionKind::Push,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    Stone,
    Place,
    Slide,
    Push,
}

impl ActionKind {
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Stone => "stone placement",
            ActionKind::Place => "place",
            ActionKind::Slide => "slide",
            ActionKind::Push => "push",
        }
    }
}

/// A turn: a pass, or up to three actions as written (the rules refuse
/// three; they are kept to say so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    acts: [Action; 3],
    len: u8,
}

impl Move {
    pub const PASS: Move = Move {
        acts: [Action::Place(Sq { rank: 0, file: 0 }); 3],
        len: 0,
    };

    pub fn new(actions: &[Action]) -> Move {
        let mut m = Move::PASS;
        for (i, &a) in actions.iter().take(3).enumerate() {
            m.acts[i] = a;
        }
        m.len = actions.len().min(3) as u8;
        m
    }

    /// [`Move::new`] of two actions (what the generator makes of every
    /// pair), the unused slot as `new` leaves it, built in registers: `new`
    /// copies [`Move::PASS`] from memory first, a load that waits on the
    /// store before it wherever their addresses share their last 12 bits
    /// (which runs, address randomisation decides).
    pub fn pair(a: Action, b: Action) -> Move {
        Move {
            acts: [a, b, Action::Place(Sq { rank: 0, file: 0 })],
            len: 2,
        }
    }

    pub fn actions(&self) -> &[Action] {
        &self.acts[..self.len as usize]
    }

    pub fn is_pass(&self) -> bool {
        self.len == 0
    }
}

/// A square at the start of `b`: letters, then digits, read as one square
/// (what [`Sq::parse`] accepts: one letter, then 1 to 99 without a leading
/// zero); the square and the bytes it took. More letters or digits than a
/// square has make no square.
fn square(b: &[u8]) -> Option<(Sq, usize)> {
    let (&f, rest) = b.split_first()?;
    if !f.is_ascii_alphabetic() {
        return None;
    }
    let digit = |i: usize| rest.get(i).filter(|c| c.is_ascii_digit()).map(|c| c - b'0');
    let (rank, len) = match (digit(0), digit(1)) {
        (None | Some(0), _) => return None,
        (Some(d), None) => (d, 1),
        (Some(d), Some(e)) => (d * 10 + e, 2),
    };
    if digit(len).is_some() {
        return None;
    }
    let file = f.to_ascii_lowercase() - b'a';
    Some((
        Sq {
            file,
            rank: rank - 1,
        },
        1 + len,
    ))
}

/// One action at the start of `b` (`R@SQ`, `@SQ`, `SQ-SQ` or `SQ>SQ`),
/// decoded from the bytes by hand, and the bytes it took.
fn action(b: &[u8]) -> Option<(Action, usize)> {
    match b {
        [b'R' | b'r', b'@', rest @ ..] => square(rest).map(|(s, n)| (Action::Stone(s), n + 2)),
        [b'@', rest @ ..] => square(rest).map(|(s, n)| (Action::Place(s), n + 1)),
        _ => {
            let (from, n) = square(b)?;
            let kind: fn(Sq, Sq) -> Action = match b.get(n) {
                Some(b'-') => Action::Slide,
                Some(b'>') => Action::Push,
                _ => return None,
            };
            let (to, m) = square(&b[n + 1..])?;
            Some((kind(from, to), n + 1 + m))
        }
    }
}

const SHAPE: &str = "a Roshi turn is one or two actions joined by `,`: place `@c3`, slide \
                     `c3-c6`, push `d4>d5`; or `--` to pass";

pub fn write_action(a: Action, out: &mut String) {
    let _ = match a {
        Action::Stone(s) => write!(out, "R@{s}"),
        Action::Place(s) => write!(out, "@{s}"),
        Action::Slide(a, b) => write!(out, "{a}-{b}"),
        Action::Push(a, b) => write!(out, "{a}>{b}"),
    };
}

impl Notation for Roshi {
    fn parse_move(_: &Position, text: &str) -> Result<Move, MoveSyntaxError> {
        let err = |message: String, at: usize| MoveSyntaxError { message, at };
        if text == "--" {
            return Ok(Move::PASS);
        }
        no_draw_marks(text, "Roshi")?;
        // No allocation per turn: at most three actions are kept (a third is
        // kept so that the rules can say "too many"); more are only counted.
        let mut actions = [Action::Place(Sq { rank: 0, file: 0 }); 3];
        let mut count = 0;
        let bytes = text.as_bytes();
        let mut at = 0;
        loop {
            let (a, n) = action(&bytes[at..])
                .ok_or_else(|| err(format!("expected an action: {SHAPE}"), at))?;
            if count < 3 {
                actions[count] = a;
            }
            count += 1;
            at += n;
            match bytes.get(at) {
                None => break,
                Some(b',') => at += 1,
                // `at` follows an ASCII action: a character boundary.
                Some(_) => {
                    let r = &text[at..];
                    return Err(err(
                        format!("unexpected `{r}` after an action: {SHAPE}"),
                        at,
                    ));
                }
            }
        }
        if count > 3 {
            return Err(err(format!("{count} actions: a turn has one or two"), 0));
        }
        Ok(Move::new(&actions[..count]))
    }

    fn write_move(mv: &Move, out: &mut String) {
        if mv.is_pass() {
            out.push_str("--");
            return;
        }
        for (i, &a) in mv.actions().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_action(a, out);
        }
    }

    fn parse_position(text: &str) -> Result<Position, PositionError> {
        Position::parse(text, SlideRule::Path)
    }

    fn write_position(pos: &Position) -> String {
        pos.write()
    }

    fn describe_reason(reason: &str) -> String {
        match reason {
            "roshi" => "with a roshi".into(),
            "double-pass" => "after two passes in a row".into(),
            other => other.replace('-', " "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand decoder of a square reads what `Sq::parse` reads of the
    /// letters and digits at the start, on every string of up to five bytes
    /// over letters, digits, separators and a non-ASCII byte.
    #[test]
    fn square_reads_as_sq_parse_does() {
        let alphabet = b"aZs019-,>@\xc3";
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..5 {
            let longer: Vec<Vec<u8>> = texts
                .iter()
                .filter(|t| t.len() == texts.last().map_or(0, Vec::len))
                .flat_map(|t| alphabet.iter().map(move |&c| [t.clone(), vec![c]].concat()))
                .collect();
            texts.extend(longer);
        }
        assert!(texts.len() > 100_000, "{}", texts.len());
        for b in &texts {
            let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
            let digits = b[letters..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let len = letters + digits;
            let expected = (letters > 0 && digits > 0)
                .then(|| std::str::from_utf8(&b[..len]).ok().and_then(Sq::parse))
                .flatten()
                .map(|s| (s, len));
            assert_eq!(square(b), expected, "{:?}", String::from_utf8_lossy(b));
        }
    }

    fn parse_move(text: &str) -> Result<Move, MoveSyntaxError> {
        use crate::game::Rules;
        Roshi::parse_move(&Roshi::start(&[]).unwrap(), text)
    }

    fn write_move(mv: &Move, out: &mut String) {
        Roshi::write_move(mv, out)
    }

    fn round(text: &str) -> String {
        let mut s = String::new();
        write_move(&parse_move(text).unwrap(), &mut s);
        s
    }

    #[test]
    fn reads_every_kind_of_turn() {
        for t in [
            "R@d4,@a1",
            "@b2,@f6",
            "@c3,d4>d5",
            "c3-c6",
            "d4>d5,@a1",
            "--",
            "s19-a1",
        ] {
            assert_eq!(round(t), t);
        }
        assert_eq!(round("r@D4,@A1"), "R@d4,@a1");
        assert_eq!(parse_move("@a1,@b1,@c1").unwrap().actions().len(), 3);
    }

    #[test]
    fn rejects_malformed_turns_with_the_place() {
        for (text, at) in [
            ("", 0),
            ("@", 0),
            ("@c3,", 4),
            ("@c3;d4>d5", 3),
            ("c3", 0),
            ("c3+c4", 0),
            ("@c3,,@d4", 4),
            ("--,@a1", 0),
            ("@a1~~", 3),
            ("@a1,@b1,@c1,@d1", 0),
        ] {
            let e = parse_move(text).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }
}
