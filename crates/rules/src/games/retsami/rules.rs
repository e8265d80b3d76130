//! Retsami's rules: advance along the Way, take a superior enemy counter in
//! a straight line, re-enter on the starting row; home wins; draws by
//! agreement; a player with no move is blocked (drawn).

use super::geometry::{
    corner_count, corners_between, nearest, OnTheWay, Square, HOME, RAYS, STARTING_ROW,
};
use super::notation::{Action, Move};
use super::position::Position;
use super::Retsami;
use crate::game::{any_move, tag_value, Ending, Generator, RuleError, Rules, SetupError, Side};
use crate::Tag;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetsamiError {
    NoCounter {
        from: Square,
    },
    NotYourCounter {
        from: Square,
        owner: Side,
    },
    NotForward {
        from: Square,
        to: Square,
    },
    Occupied {
        to: Square,
    },
    Overtaking {
        from: Square,
        to: Square,
        blocker: Square,
    },
    TooManyCorners {
        from: Square,
        to: Square,
        corners: Vec<u8>,
    },
    NotALine {
        from: Square,
        to: Square,
    },
    NothingToTake {
        to: Square,
        own: bool,
    },
    PathBlocked {
        from: Square,
        to: Square,
        blocker: Square,
    },
    NotSuperior {
        from: Square,
        to: Square,
    },
    NothingOffBoard,
    NotStartingRow {
        to: Square,
    },
    NoOfferPending,
}

impl RuleError for RetsamiError {
    fn code(&self) -> &'static str {
        match self {
            RetsamiError::NoCounter { .. } => "no-counter",
            RetsamiError::NotYourCounter { .. } => "not-your-counter",
            RetsamiError::NotForward { .. } => "not-forward",
            RetsamiError::Occupied { .. } => "occupied",
            RetsamiError::Overtaking { .. } => "overtaking",
            RetsamiError::TooManyCorners { .. } => "too-many-corners",
            RetsamiError::NotALine { .. } => "not-a-line",
            RetsamiError::NothingToTake { .. } => "nothing-to-take",
            RetsamiError::PathBlocked { .. } => "path-blocked",
            RetsamiError::NotSuperior { .. } => "not-superior",
            RetsamiError::NothingOffBoard => "nothing-off-board",
            RetsamiError::NotStartingRow { .. } => "not-starting-row",
            RetsamiError::NoOfferPending => "no-offer-pending",
        }
    }
}

fn name(side: Side) -> &'static str {
    super::SIDES[side.index()]
}

impl fmt::Display for RetsamiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetsamiError::NoCounter { from } => write!(f, "there is no counter on {from}"),
            RetsamiError::NotYourCounter { from, owner } => write!(
                f,
                "the counter on {from} is {}'s; it is {}'s turn",
                name(*owner),
                name(owner.other())
            ),
            RetsamiError::NotForward { from, to } => write!(
                f,
                "{to} (Way {}) is not ahead of {from} (Way {}): counters advance only \
                 forward along the Way",
                to.way(),
                from.way()
            ),
            RetsamiError::Occupied { to } => write!(f, "{to} is not vacant"),
            RetsamiError::Overtaking { from, to, blocker } => write!(
                f,
                "the counter on {blocker} (Way {}) stands between {from} and {to}: a \
                 counter may not overtake another",
                blocker.way()
            ),
            RetsamiError::TooManyCorners { from, to, corners } => write!(
                f,
                "from {from} (Way {}) to {to} (Way {}) the counter would turn {} corners \
                 (Way {}); it may turn at most one",
                from.way(),
                to.way(),
                corners.len(),
                corners
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            RetsamiError::NotALine { from, to } => write!(
                f,
                "{from} and {to} are not on one rank, file or diagonal: a take moves in \
                 a straight line"
            ),
            RetsamiError::NothingToTake { to, own } => {
                if *own {
                    write!(
                        f,
                        "the counter on {to} is your own; only an opponent's can be taken"
                    )
                } else {
                    write!(f, "there is no counter to take on {to}")
                }
            }
            RetsamiError::PathBlocked { from, to, blocker } => {
                write!(
                    f,
                    "the way from {from} to {to} is blocked by the counter on {blocker}"
                )
            }
            RetsamiError::NotSuperior { from, to } => write!(
                f,
                "the counter on {to} (Way {}) is not superior to yours on {from} (Way {}): \
                 only a counter further along the Way can be taken",
                to.way(),
                from.way()
            ),
            RetsamiError::NothingOffBoard => {
                write!(f, "you have no counter off the board to re-enter")
            }
            RetsamiError::NotStartingRow { to } => write!(
                f,
                "{to} (Way {}) is not on the starting row: counters re-enter on Way 1 to 9 \
                 (a1 to i1)",
                to.way()
            ),
            RetsamiError::NoOfferPending => write!(
                f,
                "`==` accepts a draw offered on the opponent's last turn, and none was offered"
            ),
        }
    }
}

fn own_counter(pos: &Position, from: Square) -> Result<(), RetsamiError> {
    match pos.at(from) {
        None => Err(RetsamiError::NoCounter { from }),
        Some(owner) if owner != pos.to_move => Err(RetsamiError::NotYourCounter { from, owner }),
        Some(_) => Ok(()),
    }
}

/// Checks an action against the rules.
pub fn check(pos: &Position, action: Action) -> Result<(), RetsamiError> {
    match action {
        Action::Advance { from, to } => {
            own_counter(pos, from)?;
            let (a, b) = (from.way(), to.way());
            if b <= a {
                return Err(RetsamiError::NotForward { from, to });
            }
            if pos.at(to).is_some() {
                return Err(RetsamiError::Occupied { to });
            }
            if let Some(blocker) = (a + 1..b)
                .map(Square::at_way)
                .find(|&s| pos.at(s).is_some())
            {
                return Err(RetsamiError::Overtaking { from, to, blocker });
            }
            if corner_count(a, b) > 1 {
                let corners = corners_between(a, b).collect();
                return Err(RetsamiError::TooManyCorners { from, to, corners });
            }
            Ok(())
        }
        Action::Take { from, to } => {
            own_counter(pos, from)?;
            let mut path = from
                .line_to(to)
                .ok_or(RetsamiError::NotALine { from, to })?;
            match pos.at(to) {
                None => return Err(RetsamiError::NothingToTake { to, own: false }),
                Some(s) if s == pos.to_move => {
                    return Err(RetsamiError::NothingToTake { to, own: true })
                }
                Some(_) => {}
            }
            if let Some(blocker) = path.find(|&s| pos.at(s).is_some()) {
                return Err(RetsamiError::PathBlocked { from, to, blocker });
            }
            if to.way() <= from.way() {
                return Err(RetsamiError::NotSuperior { from, to });
            }
            Ok(())
        }
        Action::Enter { to } => {
            if pos.off[pos.to_move.index()] == 0 {
                return Err(RetsamiError::NothingOffBoard);
            }
            if !STARTING_ROW.contains(&to.way()) {
                return Err(RetsamiError::NotStartingRow { to });
            }
            if pos.at(to).is_some() {
                return Err(RetsamiError::Occupied { to });
            }
            Ok(())
        }
    }
}

/// Plays `mv`, whose action [`check`] has passed (an acceptance is checked
/// here: it needs an offer pending).
fn apply(pos: &mut Position, mv: &Move) -> Result<(), RetsamiError> {
    match *mv {
        Move::Accept => {
            if !pos.offer_pending {
                return Err(RetsamiError::NoOfferPending);
            }
            pos.drawn = true;
            pos.offer_pending = false;
        }
        Move::Play { action, offer } => {
            let me = pos.to_move;
            match action {
                Action::Advance { from, to } => {
                    pos.board[me.index()] ^= 1 << from.index() | 1 << to.index();
                }
                Action::Take { from, to } => {
                    pos.board[me.index()] ^= 1 << from.index() | 1 << to.index();
                    pos.board[me.other().index()] &= !(1 << to.index());
                    pos.off[me.other().index()] += 1;
                }
                Action::Enter { to } => {
                    pos.board[me.index()] |= 1 << to.index();
                    pos.off[me.index()] -= 1;
                }
            }
            // An offer made with a winning move is void: the win ends the game.
            pos.offer_pending = offer && pos.occupied() >> Square::at_way(HOME).index() & 1 == 0;
        }
    }
    pos.to_move = pos.to_move.other();
    Ok(())
}

impl Rules for Retsami {
    const SETTINGS: &'static [&'static str] = &["FirstPlayer"];

    type Error = RetsamiError;

    /// The standard start or the `Position` tag's; `FirstPlayer` names the
    /// side that stands on Way 2, 4, 6, 8 and moves first.
    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let first = match tag_value(tags, "FirstPlayer").map(str::to_ascii_lowercase) {
            None => Side::First,
            Some(v) if v == "red" => Side::First,
            Some(v) if v == "white" => Side::Second,
            Some(_) => {
                return Err(SetupError {
                    tag: "FirstPlayer",
                    message: "FirstPlayer is `Red` (the default) or `White`: that side stands on \
                              Way 2, 4, 6, 8 and moves first"
                        .into(),
                    at: None,
                })
            }
        };
        match tag_value(tags, "Position") {
            None => Ok(Position::start(first)),
            Some(text) => Ok(Position::parse(text, first)?),
        }
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    fn first_mover(start: &Position) -> Side {
        start.first_mover
    }

    /// Checks `mv` against every rule and plays it.
    fn play(pos: &mut Position, mv: &Move) -> Result<(), RetsamiError> {
        if let Move::Play { action, .. } = *mv {
            check(pos, action)?;
        }
        apply(pos, mv)
    }

    /// A generated turn obeys the rules `check` proves: only an accepted
    /// offer is looked at (it needs one pending).
    fn play_generated(pos: &mut Position, mv: &Move) -> Result<(), RetsamiError> {
        apply(pos, mv)
    }

    fn generate(pos: &Position, emit: Generator<'_, Move>) {
        let me = pos.to_move;
        let play = |action| Move::Play {
            action,
            offer: false,
        };
        if pos.offer_pending && !emit(Move::Accept) {
            return;
        }
        let occupied = pos.occupied();
        let theirs = pos.board[me.other().index()];
        let square = |i: usize| Square::from_index(i as u8).expect("a bit of the board");
        // The side's counters in square order.
        let mut mine = pos.board[me.index()];
        while mine != 0 {
            let i = mine.trailing_zeros() as usize;
            mine &= mine - 1;
            let from = square(i);
            // Advances: forward over empty squares, at most one corner between.
            let a = from.way();
            for b in a + 1..=HOME {
                let to = Square::at_way(b);
                if occupied >> to.index() & 1 != 0 || corner_count(a, b) > 1 {
                    break;
                }
                if !emit(play(Action::Advance { from, to })) {
                    return;
                }
            }
            // Takes: the first counter in each of the eight directions.
            for (d, ray) in RAYS[i].iter().enumerate() {
                let on = ray & occupied;
                if on == 0 {
                    continue;
                }
                let t = nearest(on, d);
                if theirs >> t & 1 != 0 {
                    let to = square(t);
                    if to.way() > a && !emit(play(Action::Take { from, to })) {
                        return;
                    }
                }
            }
        }
        if pos.off[me.index()] > 0 {
            for w in STARTING_ROW {
                let to = Square::at_way(w);
                if pos.at(to).is_none() && !emit(play(Action::Enter { to })) {
                    return;
                }
            }
        }
    }

    fn has_legal_move(pos: &Position) -> bool {
        // Fast path: an offer to accept, a counter off the board with a
        // vacant starting square, or a counter whose next square on the Way
        // is empty (one step forward crosses no corner): each is a legal
        // turn. Only positions with none are searched in full.
        let me = pos.to_move;
        if pos.offer_pending {
            return true;
        }
        let vacant = |w: u8| pos.at(Square::at_way(w)).is_none();
        if pos.off[me.index()] > 0 && STARTING_ROW.into_iter().any(vacant) {
            return true;
        }
        let mut mine = pos.board[me.index()];
        while mine != 0 {
            let i = mine.trailing_zeros() as u8;
            mine &= mine - 1;
            let w = Square::from_index(i).expect("a bit of the board").way();
            if w < HOME && vacant(w + 1) {
                return true;
            }
        }
        any_move(|emit| Self::generate(pos, emit))
    }

    /// A counter on the Home Square wins; an accepted offer draws; a player to
    /// move with no legal move is blocked: drawn.
    fn ending(pos: &Position) -> Option<Ending> {
        if pos.drawn {
            return Some(Ending::draw("draw-accepted"));
        }
        if let Some(side) = pos.at(Square::at_way(HOME)) {
            return Some(Ending::win(side, "home"));
        }
        if !Self::has_legal_move(pos) {
            return Some(Ending::draw("blocked"));
        }
        None
    }
}
