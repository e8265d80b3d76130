//! Oshi's rules: moves of 1..N squares with step-by-step pushing, scoring,
//! the no-return rule, and the end of the game.

use super::geometry::{Dir, Square, Step};
use super::notation::Move;
use super::position::{Board, NoReturn, Piece, Position, MAX_PIECES, POINTS_TO_WIN};

/// Piece locations by id ([`Position::at`]).
type Locations = [Option<Square>; MAX_PIECES];
use super::Oshi;
use super::SIDES;
use crate::game::{any_move, tag_value, Ending, Generator, RuleError, Rules, SetupError, Side};
use crate::record::Tag;
use std::fmt;

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OshiError {
    NoPiece {
        from: Square,
    },
    NotYourPiece {
        from: Square,
        owner: Side,
    },
    NullMove {
        from: Square,
    },
    NotStraight {
        from: Square,
        to: Square,
    },
    TooFar {
        from: Square,
        height: u8,
        distance: u8,
    },
    /// At step `step` of the move, the mover on `at` faced a train of
    /// `train` pieces.
    TrainTooLong {
        from: Square,
        step: u8,
        at: Square,
        train: u8,
        height: u8,
    },
    NoReturn {
        from: Square,
        to: Square,
        reading: NoReturn,
    },
}

impl RuleError for OshiError {
    fn code(&self) -> &'static str {
        match self {
            OshiError::NoPiece { .. } => "no-piece",
            OshiError::NotYourPiece { .. } => "not-your-piece",
            OshiError::NullMove { .. } => "null-move",
            OshiError::NotStraight { .. } => "not-straight",
            OshiError::TooFar { .. } => "too-far",
            OshiError::TrainTooLong { .. } => "train-too-long",
            OshiError::NoReturn { .. } => "no-return",
        }
    }
}

fn pieces(n: u8) -> &'static str {
    if n == 1 {
        "piece"
    } else {
        "pieces"
    }
}

impl fmt::Display for OshiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OshiError::NoPiece { from } => write!(f, "there is no piece on {from}"),
            OshiError::NotYourPiece { from, owner } => write!(
                f,
                "the piece on {from} is {}'s; it is {}'s turn",
                SIDES[owner.index()],
                SIDES[owner.other().index()]
            ),
            OshiError::NullMove { from } => {
                write!(f, "the piece on {from} must move at least one square")
            }
            OshiError::NotStraight { from, to } => write!(
                f,
                "{from} and {to} are not on one rank or file: pieces move \
                 forward, backward, left or right, never diagonally"
            ),
            OshiError::TooFar {
                from,
                height,
                distance,
            } => write!(
                f,
                "the piece on {from} is a {height}-story and moves at most {height} \
                 {}, not {distance}",
                if height == 1 { "square" } else { "squares" }
            ),
            OshiError::TrainTooLong {
                from,
                step,
                at,
                train,
                height,
            } => {
                if step > 1 {
                    write!(f, "at step {step} of the move from {from}, ")?;
                }
                write!(
                    f,
                    "the train ahead of {at} has {train} {}; a {height}-story pushes at most {height}",
                    pieces(train)
                )
            }
            OshiError::NoReturn { from, to, reading } => write!(
                f,
                "the piece on {from} stood on {to} at the start of {} and may not \
                 end its move there (no-return rule)",
                match reading {
                    NoReturn::Own => "your previous turn",
                    NoReturn::Opponent => "your opponent's last turn",
                }
            ),
        }
    }
}

/// One step of the mover on `m` in `dir`: the train ahead (the unbroken run
/// of pieces in front) shifts with it, and a train piece crossing the edge
/// leaves the board, scoring its height for its owner's opponent. Returns
/// the mover's new square, or the train's length when it is longer than
/// `height`. The mover's next square must be on the board.
fn step(
    board: &mut Board,
    at: &mut Locations,
    score: &mut [u8; 2],
    m: Square,
    dir: Dir,
    height: u8,
) -> Result<Square, u8> {
    let next = m.step(dir).expect("the mover never leaves the board");
    let mut train = [next; 9];
    let mut len = 0usize;
    let mut sq = Some(next);
    while let Some(s) = sq.filter(|s| board[s.index()].is_some()) {
        train[len] = s;
        len += 1;
        sq = s.step(dir);
    }
    if len > height as usize {
        return Err(len as u8);
    }
    for &s in train[..len].iter().rev() {
        let p = board[s.index()].take().expect("a train piece");
        let to = s.step(dir);
        match to {
            Some(n) => board[n.index()] = Some(p),
            None => score[p.owner.other().index()] += p.height,
        }
        at[p.id as usize] = to;
    }
    let mover = board[m.index()].take();
    if let Some(p) = mover {
        at[p.id as usize] = Some(next);
    }
    board[next.index()] = mover;
    Ok(next)
}

impl Rules for Oshi {
    const SETTINGS: &'static [&'static str] = &["NoReturn"];

    type Error = OshiError;

    /// The standard start or the `Position` tag's, under the `NoReturn`
    /// setting.
    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let no_return = match tag_value(tags, "NoReturn").map(str::to_ascii_lowercase) {
            None => NoReturn::Own,
            Some(v) if v == "own" => NoReturn::Own,
            Some(v) if v == "opponent" => NoReturn::Opponent,
            Some(_) => {
                return Err(SetupError {
                    tag: "NoReturn",
                    message: "NoReturn is `own` (the default) or `opponent`".into(),
                    at: None,
                })
            }
        };
        match tag_value(tags, "Position") {
            None => Ok(Position::start(no_return)),
            Some(text) => {
                let mut pos = Position::parse(text).map_err(SetupError::from)?;
                pos.no_return = no_return;
                Ok(pos)
            }
        }
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    /// Checks `mv` against every rule and plays it.
    fn play(pos: &mut Position, mv: &Move) -> Result<(), OshiError> {
        let Move { from, to } = *mv;
        let piece: Piece = pos.piece(from).ok_or(OshiError::NoPiece { from })?;
        if piece.owner != pos.to_move {
            return Err(OshiError::NotYourPiece {
                from,
                owner: piece.owner,
            });
        }
        if from == to {
            return Err(OshiError::NullMove { from });
        }
        let (dir, distance) = Dir::between(from, to).ok_or(OshiError::NotStraight { from, to })?;
        if distance > piece.height {
            return Err(OshiError::TooFar {
                from,
                height: piece.height,
                distance,
            });
        }
        let mut board = pos.board;
        let mut at = pos.at;
        let mut score = pos.score;
        let mut m = from;
        for k in 1..=distance {
            m = step(&mut board, &mut at, &mut score, m, dir, piece.height).map_err(|train| {
                OshiError::TrainTooLong {
                    from,
                    step: k,
                    at: m,
                    train,
                    height: piece.height,
                }
            })?;
        }
        if pos.forbid[piece.id as usize] == Some(to) {
            return Err(OshiError::NoReturn {
                from,
                to,
                reading: pos.no_return,
            });
        }
        // The no-return squares for the next turn of the side the rule binds:
        // where its pieces stood before this move.
        let bound = match pos.no_return {
            NoReturn::Own => pos.to_move,
            NoReturn::Opponent => pos.to_move.other(),
        };
        // Over every id, without branches (16 of them, a vector's worth).
        let ids = pos.ids[bound.index()];
        for (id, (forbid, at)) in pos.forbid.iter_mut().zip(&pos.at).enumerate() {
            if ids >> id & 1 != 0 && at.is_some() {
                *forbid = *at;
            }
        }
        pos.board = board;
        pos.at = at;
        pos.score = score;
        pos.to_move = pos.to_move.other();
        Ok(())
    }

    /// Every legal move of the side to move, in generation order; `emit`
    /// returns `false` to stop early.
    fn generate(pos: &Position, emit: Generator<'_, Move>) {
        for from in Square::all() {
            let Some(piece) = pos.piece(from).filter(|p| p.owner == pos.to_move) else {
                continue;
            };
            for dir in Dir::ALL {
                let mut board = pos.board;
                let mut at = pos.at;
                let mut score = pos.score;
                let mut m = from;
                for _ in 0..piece.height {
                    if m.step(dir).is_none() {
                        break;
                    }
                    match step(&mut board, &mut at, &mut score, m, dir, piece.height) {
                        Ok(n) => m = n,
                        Err(_) => break,
                    }
                    if pos.forbid[piece.id as usize] != Some(m) && !emit(Move { from, to: m }) {
                        return;
                    }
                }
            }
        }
    }

    fn has_legal_move(pos: &Position) -> bool {
        // Fast path: a piece of the side to move with an empty square next to
        // it that the no-return rule leaves open has a one-square move pushing
        // nothing. Only positions with none are searched in full.
        for id in ids_of(pos.ids[pos.to_move.index()]) {
            let Some(sq) = pos.at[id] else { continue };
            for dir in Dir::ALL {
                if let Some(next) = sq.step(dir) {
                    if pos.board[next.index()].is_none() && pos.forbid[id] != Some(next) {
                        return true;
                    }
                }
            }
        }
        any_move(|emit| Self::generate(pos, emit))
    }

    /// The end of the game, checked after each move: 7 points wins (both at
    /// once: the mover wins); a player to move with no legal move loses.
    fn ending(pos: &Position) -> Option<Ending> {
        let mover = pos.to_move.other();
        let reached = |s: Side| pos.score[s.index()] >= POINTS_TO_WIN;
        if reached(mover) {
            return Some(Ending::win(mover, "points"));
        }
        if reached(pos.to_move) {
            return Some(Ending::win(pos.to_move, "points"));
        }
        if !Self::has_legal_move(pos) {
            return Some(Ending::win(mover, "no-legal-move"));
        }
        None
    }
}

/// The piece ids in a bit set ([`Position::ids`]).
fn ids_of(mut bits: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let id = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            id
        })
    })
}
