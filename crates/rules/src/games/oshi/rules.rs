//! Oshi's rules: moves of 1..N squares with step-by-step pushing, scoring,
//! the no-return rule, and the end of the game.

use super::geometry::{line, path, step_bits, Dir, Square, Step, BOARD};
use super::notation::Move;
use super::position::{NoReturn, Position, Squares, Tower, MAX_PIECES, POINTS_TO_WIN};
use super::Oshi;
use super::SIDES;
use crate::game::{any_move, tag_value, Ending, Generator, RuleError, Rules, SetupError, Side};
use crate::Tag;
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

/// The squares from a mover's square towards the edge in one direction,
/// and what stands on them: a move is played on this copy of at most nine
/// cells (27 bytes), never on a copy of the board, and written back once
/// it is known to be legal. The ray ends at the edge, or at the empty
/// square that a move of its length fills last (nothing is pushed past
/// it).
struct Ray {
    /// The mover's square index, and the index step along the ray.
    from: usize,
    delta: isize,
    cells: [Option<Tower>; 9],
    /// How many squares the ray has (the mover's included).
    len: usize,
    /// The ray's last square is on the edge (a piece pushed from it
    /// leaves the board).
    edge: bool,
    /// Points scored by pieces pushed off the edge, by side.
    scored: [u8; 2],
    /// Pieces pushed off the edge, by id (as bits).
    off: u16,
}

impl Ray {
    /// The ray from `from` (the mover's square, cell 0) in `dir`, for a
    /// move of up to `distance` squares.
    #[inline]
    fn new(board: &Squares, from: Square, dir: Dir, distance: u8) -> Ray {
        let (file, rank) = (from.file(), from.rank());
        let (room, delta) = match dir {
            Dir::North => (8 - rank, 9),
            Dir::South => (rank, -9),
            Dir::East => (8 - file, 1),
            Dir::West => (file, -1),
        };
        let mut ray = Ray {
            from: from.index(),
            delta,
            cells: [None; 9],
            len: 1,
            edge: true,
            scored: [0; 2],
            off: 0,
        };
        ray.cells[0] = board[from.index()];
        let (mut i, mut gaps) = (from.index() as isize, 0);
        for _ in 0..room {
            i += delta;
            let cell = board[i as usize];
            ray.cells[ray.len] = cell;
            ray.len += 1;
            if cell.is_none() {
                gaps += 1;
                if gaps == distance {
                    break;
                }
            }
        }
        ray.edge = ray.len == room as usize + 1;
        ray
    }

    /// The square of cell `i`.
    #[inline]
    fn square(&self, i: usize) -> Square {
        let index = self.from as isize + self.delta * i as isize;
        Square::from_index(index as u8).expect("a ray stays on the board")
    }

    /// One step of the mover on cell `m`: the train ahead (the unbroken run
    /// of pieces in front) shifts with it, and a train piece crossing the
    /// edge leaves the board, scoring its height for its owner's opponent.
    /// `Err`: the train's length, when it is longer than `height`. The
    /// mover's next cell must be on the board.
    #[inline]
    fn step(&mut self, m: usize, height: u8) -> Result<(), u8> {
        let train = self.cells[m + 1..self.len]
            .iter()
            .take_while(|c| c.is_some())
            .count();
        if train > height as usize {
            return Err(train as u8);
        }
        let last = m + train;
        if last + 1 == self.len {
            // Only past the edge: a ray that stops short of it ends on an
            // empty square the move fills last.
            debug_assert!(self.edge);
            // The train's front piece leaves the board.
            if let Some(p) = self.cells[last] {
                self.scored[p.owner.other().index()] += p.height;
                self.off |= 1 << p.id;
            }
        } else {
            self.cells[last + 1] = self.cells[last];
        }
        for j in (m + 1..=last).rev() {
            self.cells[j] = self.cells[j - 1];
        }
        self.cells[m] = None;
        Ok(())
    }

    /// Writes the ray back into a position: its cells, the squares each
    /// side's pieces stand on, the pieces pushed off and the points they
    /// scored.
    #[inline]
    fn commit(&self, pos: &mut Position) {
        // Cells only move ahead along the ray: a piece leaves its square
        // before it reaches its next one.
        for (i, &cell) in self.cells[..self.len].iter().enumerate() {
            let sq = self.square(i);
            let bit = 1u128 << sq.index();
            if let Some(p) = pos.board[sq.index()] {
                pos.toggle(sq.index(), p);
            }
            pos.board[sq.index()] = cell;
            pos.occupied[0] &= !bit;
            pos.occupied[1] &= !bit;
            if let Some(p) = cell {
                pos.at[p.id as usize] = Some(sq);
                pos.occupied[p.owner.index()] |= bit;
                pos.toggle(sq.index(), p);
            }
        }
        for id in ids_of(self.off) {
            pos.at[id] = None;
        }
        pos.score[0] += self.scored[0];
        pos.score[1] += self.scored[1];
    }
}

/// The change of board index of one step in `dir`.
#[inline]
fn index_step(dir: Dir) -> isize {
    match dir {
        Dir::North => 9,
        Dir::South => -9,
        Dir::East => 1,
        Dir::West => -1,
    }
}

/// How many squares in a row after `from` in `dir` are empty, up to
/// `limit` squares, all of them on the board.
#[inline]
fn empty_run(board: &Squares, from: Square, dir: Dir, limit: u8) -> u8 {
    let step = index_step(dir);
    let mut i = from.index() as isize;
    let mut n = 0;
    while n < limit {
        i += step;
        if board[i as usize].is_some() {
            break;
        }
        n += 1;
    }
    n
}

/// The squares left between `from` and the edge in `dir`.
#[inline]
fn room(from: Square, dir: Dir) -> u8 {
    let (file, rank) = (from.file() as u8, from.rank() as u8);
    match dir {
        Dir::North => 8 - rank,
        Dir::South => rank,
        Dir::East => 8 - file,
        Dir::West => file,
    }
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
        let piece: Tower = pos.piece(from).ok_or(OshiError::NoPiece { from })?;
        if piece.owner != pos.to_move {
            return Err(OshiError::NotYourPiece {
                from,
                owner: piece.owner,
            });
        }
        let Some((dir, distance)) = line(from, to) else {
            return Err(if from == to {
                OshiError::NullMove { from }
            } else {
                OshiError::NotStraight { from, to }
            });
        };
        if distance > piece.height {
            return Err(OshiError::TooFar {
                from,
                height: piece.height,
                distance,
            });
        }
        // Most moves push nothing: every square on the way is empty.
        let occupied = pos.occupied[0] | pos.occupied[1];
        let clear = occupied & path(from, to, dir, distance) == 0;
        let mut ray = (!clear).then(|| Ray::new(&pos.board, from, dir, distance));
        if let Some(ray) = ray.as_mut() {
            for k in 1..=distance {
                let m = usize::from(k - 1);
                ray.step(m, piece.height)
                    .map_err(|train| OshiError::TrainTooLong {
                        from,
                        step: k,
                        at: ray.square(m),
                        train,
                        height: piece.height,
                    })?;
            }
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
        let ids = pos.ids[bound.index()];
        // Its no-return words leave the key: each piece now stands on its
        // no-return square.
        pos.returns[bound.index()] = 0;
        for (id, (forbid, at)) in pos.forbid.iter_mut().zip(&pos.at).enumerate() {
            if ids >> id & 1 != 0 && at.is_some() {
                *forbid = *at;
            }
        }
        match ray {
            Some(ray) => ray.commit(pos),
            None => {
                pos.toggle(from.index(), piece);
                pos.board[to.index()] = pos.board[from.index()].take();
                pos.at[piece.id as usize] = Some(to);
                pos.occupied[piece.owner.index()] ^= 1 << from.index() | 1 << to.index();
                pos.toggle(to.index(), piece);
            }
        }
        pos.to_move = pos.to_move.other();
        Ok(())
    }

    /// Every legal move of the side to move, in generation order; `emit`
    /// returns `false` to stop early.
    fn generate(pos: &Position, emit: Generator<'_, Move>) {
        // The side's squares from where its pieces stand, in square order
        // (the order a walk over the board gives), not the board walked.
        let mut squares = [0u8; MAX_PIECES];
        let mut n = 0;
        for id in ids_of(pos.ids[pos.to_move.index()]) {
            if let Some(sq) = pos.at[id] {
                squares[n] = sq.index() as u8;
                n += 1;
            }
        }
        squares[..n].sort_unstable();
        for &index in &squares[..n] {
            let from = Square::from_index(index).expect("a piece's square");
            let Some(piece) = pos.piece(from) else {
                continue;
            };
            let forbid = pos.forbid[piece.id as usize];
            for dir in Dir::ALL {
                // The moves onto empty squares push nothing; the rest are
                // played on the ray.
                let reach = piece.height.min(room(from, dir));
                let free = empty_run(&pos.board, from, dir, reach);
                let mut to = from;
                for _ in 0..free {
                    to = to.step(dir).expect("within the room to the edge");
                    if forbid != Some(to) && !emit(Move { from, to }) {
                        return;
                    }
                }
                if free == reach {
                    continue;
                }
                let mut ray = Ray::new(&pos.board, from, dir, piece.height);
                for m in 0..usize::from(piece.height).min(ray.len - 1) {
                    if ray.step(m, piece.height).is_err() {
                        break;
                    }
                    let to = ray.square(m + 1);
                    if m >= usize::from(free) && forbid != Some(to) && !emit(Move { from, to }) {
                        return;
                    }
                }
            }
        }
    }

    fn has_legal_move(pos: &Position) -> bool {
        // On masks: each piece may not return to one square at most, so
        // when more empty squares lie next to the side's pieces than it has
        // pieces, one of them has two empty neighbours, one of which it may
        // step onto, pushing nothing.
        let mine = pos.occupied[pos.to_move.index()];
        let empty = !(pos.occupied[0] | pos.occupied[1]) & BOARD;
        let next = Dir::ALL
            .into_iter()
            .fold(0, |n, dir| n | step_bits(mine, dir));
        if (next & empty).count_ones() > mine.count_ones() {
            return true;
        }
        // Then: a piece of the side to move with an empty square next to
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

/// Whether the game surely goes on after `mv`, a turn the generator made:
/// it pushes nothing (so no point is scored and no piece of the other side
/// moves), neither side has its points, and a piece of the other side has
/// an empty square next to it that the move does not fill and the
/// no-return rule leaves open after it (under `own` the other side's
/// no-return squares stay as they are; under `opponent` they become the
/// squares its pieces stand on, none next to them). `false`: play it to know.
pub(super) fn goes_on_after(pos: &Position, mv: &Move) -> bool {
    let Move { from, to } = *mv;
    let Some((dir, distance)) = Dir::between(from, to) else {
        return false;
    };
    if empty_run(&pos.board, from, dir, distance) != distance
        || pos.score.iter().any(|&s| s >= POINTS_TO_WIN)
    {
        return false;
    }
    let other = pos.to_move.other();
    ids_of(pos.ids[other.index()]).any(|id| {
        let Some(sq) = pos.at[id] else { return false };
        Dir::ALL.into_iter().any(|d| {
            sq.step(d)
                .is_some_and(|next| next != to && opens_a_step(pos, id, next))
        })
    })
}

/// Whether the other side's piece `id` may step onto `next`, a square next
/// to it, once the side to move has moved without touching either: the
/// square is empty, and the no-return rule leaves it open (under `own` the
/// other side's no-return squares stay as they are; under `opponent` they
/// become the squares its pieces stand on, none next to them).
fn opens_a_step(pos: &Position, id: usize, next: Square) -> bool {
    pos.board[next.index()].is_none()
        && (pos.no_return == NoReturn::Opponent || pos.forbid[id] != Some(next))
}

/// Whether the side to move surely cannot win with its next turn (`false`:
/// it may; generate the turns to know). A win needs its points or the
/// other side left with no move:
/// - points: a piece of height N moving along a ray pushes off only pieces
///   on the ray's last N squares before the edge (a piece i squares from
///   the edge leaves after i + 1 steps), each once, so no ray whose last N
///   squares hold less of the other side's height than the points missing
///   can bring them;
/// - a move changes squares along one rank or file only, so two one-step
///   moves of the other side ([`opens_a_step`]) on no common rank or file
///   leave it a move whatever the turn.
pub(super) fn no_win_at_once(pos: &Position) -> bool {
    let me = pos.to_move;
    let other = me.other();
    let need = POINTS_TO_WIN.saturating_sub(pos.score[me.index()]);
    let height = |i: usize| {
        pos.board[i]
            .filter(|t| t.owner == other)
            .map_or(0, |t| t.height)
    };
    for id in ids_of(pos.ids[me.index()]) {
        let Some(from) = pos.at[id] else { continue };
        let reach = pos.board[from.index()].map_or(0, |t| usize::from(t.height));
        let (file, rank) = (from.file() as usize, from.rank() as usize);
        // The squares k = 0, 1, … from each edge, beyond `from`: east,
        // west, north, south.
        let mut gains = [0u8; 4];
        for k in 0..reach {
            let far = 8 - k;
            gains[0] += if far > file {
                height(rank * 9 + far)
            } else {
                0
            };
            gains[1] += if k < file { height(rank * 9 + k) } else { 0 };
            gains[2] += if far > rank {
                height(far * 9 + file)
            } else {
                0
            };
            gains[3] += if k < rank { height(k * 9 + file) } else { 0 };
        }
        if gains.iter().any(|&g| g >= need) {
            return false;
        }
    }
    // The ranks and files (9 bits each) of each one-step move found.
    let mut lines = [(0u16, 0u16); 4 * MAX_PIECES];
    let mut found = 0;
    for id in ids_of(pos.ids[other.index()]) {
        let Some(sq) = pos.at[id] else { continue };
        for dir in Dir::ALL {
            let Some(next) = sq.step(dir).filter(|&n| opens_a_step(pos, id, n)) else {
                continue;
            };
            let ranks = 1u16 << sq.rank() | 1 << next.rank();
            let files = 1u16 << sq.file() | 1 << next.file();
            if lines[..found]
                .iter()
                .any(|&(r, f)| r & ranks == 0 && f & files == 0)
            {
                return true;
            }
            lines[found] = (ranks, files);
            found += 1;
        }
    }
    false
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
