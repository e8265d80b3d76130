//! The Oshi position and its `Position` notation.
//!
//! ```text
//! c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -
//! ```
//! Ranks 9 down to 1 separated by `/`; in each, files a..i: a digit is that
//! many empty squares, a letter a piece: `A` `B` `C` Red 1-, 2-, 3-story,
//! `a` `b` `c` White. Then the side to move (`r` or `w`), the points each
//! side has scored (`Red-White`), and the no-return squares (see
//! notation/oshi.md): `-`, or for each side bound by the rule its letter
//! `R`/`W`, followed by `(cur=ret,...)` for each of its pieces that may not
//! end its next move on a square `ret` other than the one it stands on.

use super::geometry::Square;
use super::zobrist;
use crate::game::{fields_with_offsets, PositionError, Side};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tower {
    pub owner: Side,
    pub height: u8,
    /// Identity, stable through pushes (the no-return rule follows pieces).
    pub id: u8,
}

/// Which reading of the no-return rule a record uses (`NoReturn` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoReturn {
    /// The square the piece stood on at the start of its owner's previous
    /// turn (default).
    Own,
    /// The square it stood on at the start of the opponent's last turn.
    Opponent,
}

pub const MAX_PIECES: usize = 16;
/// Pieces per side of each height 1, 2, 3.
pub const PIECES_PER_HEIGHT: [usize; 3] = [4, 2, 2];
pub const POINTS_TO_WIN: u8 = 7;

pub const START: &str = "c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -";

pub type Squares = [Option<Tower>; 81];

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Squares,
    pub to_move: Side,
    /// Points scored by Red (index 0) and White (index 1).
    pub score: [u8; 2],
    /// By piece id: the square that piece may not end its owner's next move
    /// on; `None` where the rule does not (yet) bind it.
    pub forbid: [Option<Square>; MAX_PIECES],
    pub no_return: NoReturn,
    /// By piece id: where that piece stands (`None` once pushed off, or for
    /// an id no piece has). Follows from `board`; kept so that a move need
    /// not search the board for a side's pieces.
    pub at: [Option<Square>; MAX_PIECES],
    /// By side: the ids of its pieces, as bits (owners never change).
    pub ids: [u16; 2],
    /// By side: the squares its pieces stand on, as bits (bit `i` is the
    /// square of index `i`, [`Square::index`]). Follows from `board`; kept
    /// so that a move's path and the end of the game are tested on masks.
    pub occupied: [u128; 2],
    /// The xor of the pieces' own Zobrist words ([`zobrist`]: each
    /// piece's square, owner and height). Follows from the board; kept by
    /// `play` for the pieces a move moves, so the notation key needs no
    /// pass over the pieces.
    pub zobrist: u64,
    /// By side: the xor of its pieces' no-return words ([`zobrist`]: each
    /// piece's square and the other square it may not return to), kept the
    /// same way (a side the rule binds anew starts from 0: each of its
    /// pieces stands on its no-return square).
    pub returns: [u64; 2],
}

fn fail<T>(message: impl Into<String>, at: usize) -> Result<T, PositionError> {
    PositionError::fail(message, at)
}

fn side_letter(side: Side) -> char {
    match side {
        Side::First => 'R',
        Side::Second => 'W',
    }
}

fn piece_letter(p: Tower) -> char {
    let c = (b'a' + p.height - 1) as char;
    match p.owner {
        Side::First => c.to_ascii_uppercase(),
        Side::Second => c,
    }
}

/// What a board field puts where: file, rank, owner, height, and its
/// place in the text.
type Placed = (i8, i8, Side, u8, usize);

/// The board field: 9 ranks of 9 squares, `/` between, from the top.
fn board((board_at, board): (usize, &str)) -> Result<Vec<Placed>, PositionError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return fail(
            format!(
                "the board has 9 ranks separated by `/`; found {}",
                ranks.len()
            ),
            board_at,
        );
    }
    let mut at = board_at;
    let mut placed = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        rank(8 - i as i8, rank_text, at, &mut placed)?;
        at += rank_text.len() + 1;
    }
    Ok(placed)
}

/// One rank of the board (at `at` in the text): its pieces into `placed`.
fn rank(rank: i8, text: &str, at: usize, placed: &mut Vec<Placed>) -> Result<(), PositionError> {
    let mut file = 0i8;
    for (k, c) in text.char_indices() {
        let here = at + k;
        match c {
            '1'..='9' => file += c as i8 - b'0' as i8,
            'a'..='c' | 'A'..='C' => {
                let owner = if c.is_ascii_uppercase() {
                    Side::First
                } else {
                    Side::Second
                };
                let height = c.to_ascii_lowercase() as u8 - b'a' + 1;
                if file < 9 {
                    placed.push((file, rank, owner, height, here));
                }
                file += 1;
            }
            _ => {
                return fail(
                    format!(
                        "`{c}` is not a board character: digits count empty squares, A B C \
                         are Red 1-, 2-, 3-story pieces, a b c White's"
                    ),
                    here,
                )
            }
        }
        if file > 9 {
            return fail(format!("rank {} has more than 9 squares", rank + 1), here);
        }
    }
    if file != 9 {
        return fail(format!("rank {} has {file} squares, not 9", rank + 1), at);
    }
    Ok(())
}

impl Position {
    pub fn start(no_return: NoReturn) -> Position {
        static START_POSITION: std::sync::LazyLock<Position> = std::sync::LazyLock::new(|| {
            Position::parse(START).expect("the start position is well formed")
        });
        let mut p = START_POSITION.clone();
        p.no_return = no_return;
        p
    }

    pub fn piece(&self, sq: Square) -> Option<Tower> {
        self.board[sq.index()]
    }

    /// The Zobrist words of `piece` standing on square index `at`: its
    /// own, and its no-return word (0 where it may return anywhere, or its
    /// no-return square is `at`).
    #[inline]
    pub(super) fn words(&self, at: usize, piece: Tower) -> (u64, u64) {
        let forbid = self.forbid[usize::from(piece.id) & (MAX_PIECES - 1)];
        (
            zobrist::piece(at, piece.owner.index(), piece.height),
            zobrist::forbidden(at, forbid.map_or(81, Square::index)),
        )
    }

    /// Takes `piece` off square index `at` in the keys, or puts it there
    /// (the same xor).
    #[inline]
    pub(super) fn toggle(&mut self, at: usize, piece: Tower) {
        let (own, ret) = self.words(at, piece);
        self.zobrist ^= own;
        self.returns[piece.owner.index()] ^= ret;
    }

    /// Sets [`Position::zobrist`] and [`Position::returns`] from the
    /// pieces (after the position is read).
    pub(super) fn rekey(&mut self) {
        (self.zobrist, self.returns) = (0, [0; 2]);
        for at in 0..self.board.len() {
            if let Some(piece) = self.board[at] {
                self.toggle(at, piece);
            }
        }
    }

    /// Which sides the no-return rule binds now, as bits (Red 1, White 2):
    /// those with a piece on the board that has a no-return square (the
    /// rule binds all of a side's pieces at once).
    #[inline]
    pub(super) fn bound(&self) -> u64 {
        let mut bound = 0;
        for side in 0..2 {
            let mut ids = self.ids[side];
            while ids != 0 {
                let id = ids.trailing_zeros() as usize;
                ids &= ids - 1;
                if self.at[id].is_some() {
                    bound |= u64::from(self.forbid[id].is_some()) << side;
                    break;
                }
            }
        }
        bound
    }

    /// Reads the `Position` notation.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let fields = fields_with_offsets(text);
        if fields.len() != 4 {
            return fail(
                format!(
                    "an Oshi position has 4 fields separated by spaces (board, side to \
                     move, score, no-return squares); found {}",
                    fields.len()
                ),
                0,
            );
        }
        let mut pos = Position {
            board: [None; 81],
            to_move: Side::First,
            score: [0, 0],
            forbid: [None; MAX_PIECES],
            no_return: NoReturn::Own,
            at: [None; MAX_PIECES],
            ids: [0; 2],
            occupied: [0; 2],
            zobrist: 0,
            returns: [0; 2],
        };
        pos.place(board(fields[0])?)?;
        // Side to move.
        let (side_at, side) = fields[1];
        pos.to_move = match side {
            "r" | "R" => Side::First,
            "w" | "W" => Side::Second,
            _ => return fail("the side to move is `r` (Red) or `w` (White)", side_at),
        };
        // Score.
        let (score_at, score) = fields[2];
        let parsed: Option<Vec<u8>> = score
            .split_once('-')
            .map(|(a, b)| [a, b].iter().filter_map(|s| s.parse::<u8>().ok()).collect());
        match parsed.as_deref() {
            Some(&[r, w]) if r <= 14 && w <= 14 => pos.score = [r, w],
            _ => {
                return fail(
                    "the score is written Red-White in points, like `3-0` (at most 14 each)",
                    score_at,
                )
            }
        }
        // No-return squares.
        let (ret_at, ret) = fields[3];
        if ret != "-" {
            pos.parse_returns(ret, ret_at)?;
        }
        pos.rekey();
        Ok(pos)
    }

    /// Puts the board's pieces on it, each side at most its pieces of
    /// each height, ids given in square order (so that they do not depend
    /// on the text).
    fn place(&mut self, mut placed: Vec<Placed>) -> Result<(), PositionError> {
        placed.sort_by_key(|&(f, r, ..)| (r, f));
        let mut counts = [[0usize; 3]; 2];
        for (id, (file, rank, owner, height, here)) in placed.into_iter().enumerate() {
            let count = &mut counts[owner.index()][height as usize - 1];
            *count += 1;
            if *count > PIECES_PER_HEIGHT[height as usize - 1] {
                return fail(
                    format!(
                        "too many {height}-story pieces for {}: a side has {} of them",
                        if owner == Side::First { "Red" } else { "White" },
                        PIECES_PER_HEIGHT[height as usize - 1]
                    ),
                    here,
                );
            }
            let id = id as u8;
            let sq = Square::new(file, rank).expect("on the board");
            self.board[sq.index()] = Some(Tower { owner, height, id });
            self.at[id as usize] = Some(sq);
            self.ids[owner.index()] |= 1 << id;
            self.occupied[owner.index()] |= 1 << sq.index();
        }
        Ok(())
    }

    fn parse_returns(&mut self, text: &str, base: usize) -> Result<(), PositionError> {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut seen = [false; 2];
        while i < bytes.len() {
            let side = match bytes[i] {
                b'R' => Side::First,
                b'W' => Side::Second,
                _ => {
                    return fail(
                        "no-return squares are `-`, or `R` and/or `W`, each optionally \
                         followed by `(cur=ret,...)`",
                        base + i,
                    )
                }
            };
            if std::mem::replace(&mut seen[side.index()], true) {
                return fail("a side is listed twice in the no-return squares", base + i);
            }
            // Bound by the rule: every piece of this side, at its own square.
            for sq in Square::all() {
                if let Some(p) = self.piece(sq).filter(|p| p.owner == side) {
                    self.forbid[p.id as usize] = Some(sq);
                }
            }
            i += 1;
            if bytes.get(i) == Some(&b'(') {
                let close = match text[i..].find(')') {
                    Some(c) => i + c,
                    None => return fail("`(` without its `)`", base + i),
                };
                let mut at = i + 1;
                for pair in text[i + 1..close].split(',') {
                    let parsed = pair
                        .split_once('=')
                        .and_then(|(a, b)| Some((Square::parse(a)?, Square::parse(b)?)));
                    let Some((cur, ret)) = parsed else {
                        return fail("expected `cur=ret`, two squares like `e5=e3`", base + at);
                    };
                    match self.piece(cur) {
                        Some(p) if p.owner == side => self.forbid[p.id as usize] = Some(ret),
                        _ => {
                            return fail(
                                format!(
                                    "no piece of {} stands on {cur}",
                                    if side == Side::First { "Red" } else { "White" }
                                ),
                                base + at,
                            )
                        }
                    }
                    at += pair.len() + 1;
                }
                i = close + 1;
            }
        }
        Ok(())
    }

    /// Writes the `Position` notation.
    pub fn write(&self) -> String {
        let mut out = String::with_capacity(64);
        for rank in (0..9).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.board[Square::new(file, rank).unwrap().index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(piece_letter(p));
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(match self.to_move {
            Side::First => " r ",
            Side::Second => " w ",
        });
        let _ = write!(out, "{}-{} ", self.score[0], self.score[1]);
        let mut any = false;
        for side in Side::BOTH {
            let pieces: Vec<(Square, Tower)> = Square::all()
                .filter_map(|sq| self.piece(sq).map(|p| (sq, p)))
                .filter(|(_, p)| p.owner == side)
                .collect();
            if !pieces
                .iter()
                .any(|(_, p)| self.forbid[p.id as usize].is_some())
            {
                continue;
            }
            any = true;
            out.push(side_letter(side));
            let moved: Vec<String> = pieces
                .iter()
                .filter_map(|&(sq, p)| match self.forbid[p.id as usize] {
                    Some(ret) if ret != sq => Some(format!("{sq}={ret}")),
                    _ => None,
                })
                .collect();
            if !moved.is_empty() {
                let _ = write!(out, "({})", moved.join(","));
            }
        }
        if !any {
            out.push('-');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn start_position_matches_the_published_setup() {
        let p = Position::start(NoReturn::Own);
        let expect = [
            ("a1", Side::First, 3),
            ("i1", Side::First, 3),
            ("c2", Side::First, 2),
            ("g2", Side::First, 2),
            ("d2", Side::First, 1),
            ("e2", Side::First, 1),
            ("f2", Side::First, 1),
            ("e3", Side::First, 1),
            ("a9", Side::Second, 3),
            ("i9", Side::Second, 3),
            ("c8", Side::Second, 2),
            ("g8", Side::Second, 2),
            ("d8", Side::Second, 1),
            ("e8", Side::Second, 1),
            ("f8", Side::Second, 1),
            ("e7", Side::Second, 1),
        ];
        let mut n = 0;
        for s in Square::all() {
            if let Some(piece) = p.piece(s) {
                n += 1;
                let want = expect
                    .iter()
                    .find(|(name, ..)| sq(name) == s)
                    .unwrap_or_else(|| panic!("unexpected piece on {s}"));
                assert_eq!((piece.owner, piece.height), (want.1, want.2), "{s}");
            }
        }
        assert_eq!(n, 16);
        assert_eq!(p.to_move, Side::First);
        assert_eq!(p.score, [0, 0]);
        assert!(p.forbid.iter().all(Option::is_none));
    }

    #[test]
    fn notation_round_trips() {
        for text in [
            START,
            "c7c/2baaab2/9/4a4/4A4/9/9/2BAAAB2/C7C r 0-0 R(e5=e3)W(e6=e7)",
            "c7c/2baaab2/9/4a4/9/4A4/9/2BAAAB2/C7C r 0-0 R(e4=e3)W(e6=e7)",
            "9/9/9/9/9/9/9/9/A8 w 3-6 R",
            "a8/9/9/9/9/9/9/9/9 r 0-0 W",
        ] {
            assert_eq!(Position::parse(text).unwrap().write(), text);
        }
    }

    #[test]
    fn bad_positions_are_located() {
        for (text, at) in [
            ("9/9 r 0-0 -", 0),
            ("9/9/9/9/9/9/9/9/9 x 0-0 -", 18),
            ("9/9/9/9/9/9/9/9/8 r 0-0 -", 16),
            ("9/9/9/9/9/9/9/9/91 r 0-0 -", 17),
            ("9/9/9/9/9/9/9/9/AAAAA4 r 0-0 -", 20),
            ("9/9/9/9/9/9/9/9/8x r 0-0 -", 17),
            ("9/9/9/9/9/9/9/9/9 r 0 -", 20),
            ("9/9/9/9/9/9/9/9/9 r 0-15 -", 20),
            ("9/9/9/9/9/9/9/9/A8 r 0-0 W(a1=a2)", 27),
            ("9/9/9/9/9/9/9/9/A8 r 0-0 R(a1)", 27),
            ("9/9/9/9/9/9/9/9/A8 r 0-0 RR", 26),
            ("9/9/9/9/9/9/9/9/A8 r 0-0 X", 25),
            ("9/9/9/9/9/9/9/9/9 r 0-0", 0),
        ] {
            let e = Position::parse(text).expect_err(text);
            assert_eq!(e.at, at, "{text}: {}", e.message);
        }
    }

    #[test]
    fn returns_bind_a_whole_side() {
        let p = Position::parse("9/9/9/9/9/9/9/9/A7a w 0-0 R(a1=b1)W").unwrap();
        let red = p.piece(sq("a1")).unwrap();
        let white = p.piece(sq("i1")).unwrap();
        assert_eq!(p.forbid[red.id as usize], Some(sq("b1")));
        assert_eq!(p.forbid[white.id as usize], Some(sq("i1")));
    }
}
