//! Roshi's rules: the setup turns, then one or two different actions a turn
//! (place, slide, push), a pass only when nothing else is possible; a roshi
//! for exactly one player wins; two passes in a row draw.

use super::geometry::{Bits, Dims, Sq, Zone};
use super::notation::{Action, ActionKind, Move};
use super::position::{Occupant, Phase, Position, SlideRule};
use super::quick;
use super::Roshi;
use crate::game::{tag_value, Ending, Generator, Outcome, RuleError, Rules, SetupError, Side};
use crate::Tag;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoshiError {
    SameActionTwice { kind: &'static str },
    TooManyActions { n: usize },
    EmptySupply,
    Occupied { at: Sq },
    PushTwo { target: Sq, dest: Sq },
    OffBoard { at: Sq, dims: Dims },
    StoneOutOfZone { at: Sq, zone: Zone },
    NotAdjacent { pusher: Sq, target: Sq },
    NotYourPiece { at: Sq, owner: Side },
    NoPiece { at: Sq },
    NothingToPush { at: Sq },
    SlideStone { at: Sq },
    NullSlide { at: Sq },
    BlockedSlide { from: Sq, to: Sq },
    BentSlide { from: Sq, to: Sq },
    PassWithAction,
    SetupShape { message: &'static str },
}

impl RuleError for RoshiError {
    fn code(&self) -> &'static str {
        match self {
            RoshiError::SameActionTwice { .. } => "same-action-twice",
            RoshiError::TooManyActions { .. } => "too-many-actions",
            RoshiError::EmptySupply => "empty-supply",
            RoshiError::Occupied { .. } => "occupied",
            RoshiError::PushTwo { .. } => "push-two",
            RoshiError::OffBoard { .. } => "off-board",
            RoshiError::StoneOutOfZone { .. } => "stone-out-of-zone",
            RoshiError::NotAdjacent { .. } => "not-adjacent",
            RoshiError::NotYourPiece { .. } => "not-your-piece",
            RoshiError::NoPiece { .. } => "no-piece",
            RoshiError::NothingToPush { .. } => "nothing-to-push",
            RoshiError::SlideStone { .. } => "slide-stone",
            RoshiError::NullSlide { .. } => "null-slide",
            RoshiError::BlockedSlide { .. } => "blocked-slide",
            RoshiError::BentSlide { .. } => "bent-slide",
            RoshiError::PassWithAction => "pass-with-action",
            RoshiError::SetupShape { .. } => "bad-setup-turn",
        }
    }
}

impl fmt::Display for RoshiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoshiError::SameActionTwice { kind } => write!(
                f,
                "two {kind} actions in one turn: a turn's two actions are of different types"
            ),
            RoshiError::TooManyActions { n } => {
                write!(f, "{n} actions in one turn: a turn has one or two")
            }
            RoshiError::EmptySupply => write!(f, "you have no pieces left to place"),
            RoshiError::Occupied { at } => write!(f, "{at} is not empty"),
            RoshiError::PushTwo { target, dest } => write!(
                f,
                "pushing {target} would move the piece on {dest} too: a push moves one piece"
            ),
            RoshiError::OffBoard { at, dims } => write!(f, "{at} is off the {dims} board"),
            RoshiError::StoneOutOfZone { at, zone } => write!(
                f,
                "{at} is outside the roshi zone {zone}: the roshi stone never leaves it"
            ),
            RoshiError::NotAdjacent { pusher, target } => write!(
                f,
                "{pusher} is not orthogonally next to {target}: a piece pushes only a \
                 neighbour on its rank or file"
            ),
            RoshiError::NotYourPiece { at, owner } => write!(
                f,
                "the piece on {at} is {}'s: you move and push with your own pieces",
                super::SIDES[owner.index()]
            ),
            RoshiError::NoPiece { at } => write!(f, "there is no piece on {at}"),
            RoshiError::NothingToPush { at } => write!(f, "there is nothing on {at} to push"),
            RoshiError::SlideStone { at } => write!(
                f,
                "the roshi stone on {at} neither slides nor pushes: it moves only when pushed"
            ),
            RoshiError::NullSlide { at } => {
                write!(f, "a slide moves the piece on {at} to another square")
            }
            RoshiError::BlockedSlide { from, to } => {
                write!(f, "no way through empty squares leads from {from} to {to}")
            }
            RoshiError::BentSlide { from, to } => write!(
                f,
                "{from} and {to} are not on one rank or file: under [Slide \"line\"] a \
                 piece slides in a straight line"
            ),
            RoshiError::PassWithAction => write!(
                f,
                "a pass is allowed only when no action at all is possible, and one is"
            ),
            RoshiError::SetupShape { message } => f.write_str(message),
        }
    }
}

const DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn on_board(pos: &Position, s: Sq) -> Result<(), RoshiError> {
    if pos.dims.contains(s) {
        Ok(())
    } else {
        Err(RoshiError::OffBoard {
            at: s,
            dims: pos.dims,
        })
    }
}

fn empty(pos: &Position, s: Sq) -> Result<(), RoshiError> {
    on_board(pos, s)?;
    if pos.is_empty(s) {
        Ok(())
    } else {
        Err(RoshiError::Occupied { at: s })
    }
}

fn own_piece(pos: &Position, s: Sq) -> Result<(), RoshiError> {
    on_board(pos, s)?;
    match pos.at(s) {
        Occupant::Empty => Err(RoshiError::NoPiece { at: s }),
        Occupant::Stone => Err(RoshiError::SlideStone { at: s }),
        Occupant::Piece(owner) if owner != pos.to_move => {
            Err(RoshiError::NotYourPiece { at: s, owner })
        }
        Occupant::Piece(_) => Ok(()),
    }
}

/// Whether `to` is reachable from `from` by orthogonal steps through empty
/// squares (or, under `line`, along one rank or file).
fn slide_reaches(pos: &Position, from: Sq, to: Sq) -> Result<(), RoshiError> {
    match pos.slide {
        SlideRule::Line => {
            if from.file != to.file && from.rank != to.rank {
                return Err(RoshiError::BentSlide { from, to });
            }
            let (df, dr) = (
                (to.file as i8 - from.file as i8).signum(),
                (to.rank as i8 - from.rank as i8).signum(),
            );
            let mut s = from;
            while s != to {
                s = s.offset(df, dr).expect("between two squares");
                if !pos.is_empty(s) {
                    return Err(RoshiError::BlockedSlide { from, to });
                }
            }
            Ok(())
        }
        SlideRule::Path => {
            if !pos.dims.contains(from) || !pos.dims.contains(to) {
                return Err(RoshiError::BlockedSlide { from, to });
            }
            match pos.empties().reaches(from, to) {
                true => Ok(()),
                false => Err(RoshiError::BlockedSlide { from, to }),
            }
        }
    }
}

/// How many slides the side to move has in `pos`: under the path rule the
/// squares each piece's flood fill reaches, counted as bits.
fn count_slides(pos: &Position) -> usize {
    let mine = pos.pieces(pos.to_move).squares();
    match pos.slide {
        SlideRule::Line => mine.map(|s| slide_targets(pos, s).len()).sum(),
        SlideRule::Path => {
            let empty = pos.empties();
            mine.map(|s| empty.flood(s).count()).sum()
        }
    }
}

/// Whether a slide's path is still to be proven (a turn as written) or the
/// generator has found it already (a turn it made).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Path {
    Check,
    Known,
}

/// Checks one action of a normal turn and applies it to `pos`.
fn act(pos: &mut Position, a: Action, path: Path) -> Result<(), RoshiError> {
    let me = pos.to_move;
    match a {
        Action::Stone(_) => Err(RoshiError::SetupShape {
            message: "the roshi stone is placed only in Red's setup turn (`R@SQ,@SQ`)",
        }),
        Action::Place(s) => {
            if pos.supply[me.index()] == 0 {
                return Err(RoshiError::EmptySupply);
            }
            empty(pos, s)?;
            pos.set(s, Occupant::Piece(me));
            pos.supply[me.index()] -= 1;
            Ok(())
        }
        Action::Slide(from, to) => {
            own_piece(pos, from)?;
            on_board(pos, to)?;
            if from == to {
                return Err(RoshiError::NullSlide { at: from });
            }
            empty(pos, to)?;
            if path == Path::Check {
                slide_reaches(pos, from, to)?;
            }
            pos.set(from, Occupant::Empty);
            pos.set(to, Occupant::Piece(me));
            Ok(())
        }
        Action::Push(p, t) => {
            on_board(pos, p)?;
            on_board(pos, t)?;
            match pos.at(p) {
                Occupant::Empty => return Err(RoshiError::NoPiece { at: p }),
                Occupant::Stone => return Err(RoshiError::SlideStone { at: p }),
                Occupant::Piece(owner) if owner != me => {
                    return Err(RoshiError::NotYourPiece { at: p, owner })
                }
                Occupant::Piece(_) => {}
            }
            let (df, dr) = (t.file as i8 - p.file as i8, t.rank as i8 - p.rank as i8);
            if df.abs() + dr.abs() != 1 {
                return Err(RoshiError::NotAdjacent {
                    pusher: p,
                    target: t,
                });
            }
            let target = pos.at(t);
            if target == Occupant::Empty {
                return Err(RoshiError::NothingToPush { at: t });
            }
            let dest =
                t.offset(df, dr)
                    .filter(|&d| pos.dims.contains(d))
                    .ok_or(RoshiError::OffBoard {
                        at: t.offset(df, dr).unwrap_or(t),
                        dims: pos.dims,
                    })?;
            if !pos.is_empty(dest) {
                return Err(RoshiError::PushTwo { target: t, dest });
            }
            if target == Occupant::Stone && !pos.zone.contains(dest) {
                return Err(RoshiError::StoneOutOfZone {
                    at: dest,
                    zone: pos.zone,
                });
            }
            pos.set(dest, target);
            pos.set(t, Occupant::Empty);
            Ok(())
        }
    }
}

fn setup_turn(pos: &mut Position, mv: &Move) -> Result<(), RoshiError> {
    match (pos.to_move, mv.actions()) {
        (Side::First, &[Action::Stone(z), Action::Place(s)]) => {
            on_board(pos, z)?;
            if !pos.zone.contains(z) {
                return Err(RoshiError::StoneOutOfZone {
                    at: z,
                    zone: pos.zone,
                });
            }
            empty(pos, z)?;
            pos.set(z, Occupant::Stone);
            act(pos, Action::Place(s), Path::Check)
        }
        (Side::First, _) => Err(RoshiError::SetupShape {
            message: "Red takes the field with `R@SQ,@SQ`: the roshi stone on an empty \
                      square of the zone, then one red piece",
        }),
        (Side::Second, &[Action::Place(a), Action::Place(b)]) => {
            act(pos, Action::Place(a), Path::Check)?;
            act(pos, Action::Place(b), Path::Check)
        }
        (Side::Second, _) => Err(RoshiError::SetupShape {
            message: "Blue takes the field with `@SQ,@SQ`: two blue pieces on empty squares",
        }),
    }
}

/// Every legal single action of the types in `kinds`.
fn actions(pos: &Position, kinds: &[ActionKind], emit: &mut dyn FnMut(Action) -> bool) -> bool {
    let me = pos.to_move;
    let mine = pos.pieces(me);
    for &kind in kinds {
        match kind {
            ActionKind::Place if pos.supply[me.index()] > 0 => {
                for s in pos.empties().squares() {
                    if !emit(Action::Place(s)) {
                        return false;
                    }
                }
            }
            ActionKind::Slide => {
                let empty = pos.empties();
                for from in mine.squares() {
                    let mut slide = |to| emit(Action::Slide(from, to));
                    let go_on = match pos.slide {
                        // The flood's squares as they come: nothing built.
                        SlideRule::Path => (empty.flood(from).squares()).all(slide),
                        SlideRule::Line => slide_targets(pos, from).into_iter().all(&mut slide),
                    };
                    if !go_on {
                        return false;
                    }
                }
            }
            ActionKind::Push => {
                for p in mine.squares() {
                    for (df, dr) in DIRS {
                        let Some(t) = p.offset(df, dr).filter(|&t| pos.dims.contains(t)) else {
                            continue;
                        };
                        let target = pos.at(t);
                        if target == Occupant::Empty {
                            continue;
                        }
                        let Some(d) = t.offset(df, dr).filter(|&d| pos.is_empty(d)) else {
                            continue;
                        };
                        if target == Occupant::Stone && !pos.zone.contains(d) {
                            continue;
                        }
                        if !emit(Action::Push(p, t)) {
                            return false;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    true
}

/// Every empty square a piece on `from` can slide to.
fn slide_targets(pos: &Position, from: Sq) -> Vec<Sq> {
    let mut out = Vec::new();
    match pos.slide {
        SlideRule::Line => {
            for (df, dr) in DIRS {
                let mut s = from;
                while let Some(n) = s.offset(df, dr).filter(|&n| pos.is_empty(n)) {
                    out.push(n);
                    s = n;
                }
            }
        }
        SlideRule::Path => out.extend(pos.empties().flood(from).squares()),
    }
    out
}

/// Checks `mv` against every rule (a slide's path as `path` says) and
/// plays it; a refused turn leaves `pos` as it was. On words where it can
/// ([`quick::turn`]); otherwise, and for every refusal, square by square.
fn turn(pos: &mut Position, mv: &Move, path: Path) -> Result<(), RoshiError> {
    match quick::turn(pos, mv, path == Path::Known) {
        true => Ok(()),
        false => full_turn(pos, mv, path),
    }
}

/// [`turn`] square by square: every rule, every error.
pub(super) fn full_turn(pos: &mut Position, mv: &Move, path: Path) -> Result<(), RoshiError> {
    if path == Path::Known && pos.phase == Phase::Play && !mv.is_pass() {
        // A generated turn: one or two actions of different types, each
        // legal after the one before, played in place (no copy to fall
        // back on: `play_generated` is never refused a generated turn).
        for &a in mv.actions() {
            act(pos, a, path)?;
        }
        pos.last_pass = false;
        pos.to_move = pos.to_move.other();
        return Ok(());
    }
    let mut next = pos.clone();
    if next.phase == Phase::Setup {
        setup_turn(&mut next, mv)?;
        if next.to_move == Side::Second {
            next.phase = Phase::Play;
        }
    } else if mv.is_pass() {
        // The generator passes only when no action is possible.
        if path == Path::Check && has_action(pos) {
            return Err(RoshiError::PassWithAction);
        }
        next.drawn = pos.last_pass;
        next.last_pass = true;
    } else {
        let acts = mv.actions();
        if acts.len() > 2 {
            return Err(RoshiError::TooManyActions { n: acts.len() });
        }
        if acts.len() == 2
            && acts[0].kind() == acts[1].kind()
            && acts[0].kind() != ActionKind::Stone
        {
            return Err(RoshiError::SameActionTwice {
                kind: acts[0].kind().name(),
            });
        }
        for &a in acts {
            act(&mut next, a, path)?;
        }
        next.last_pass = false;
    }
    next.to_move = pos.to_move.other();
    *pos = next;
    Ok(())
}

/// What `mv`, a turn the generator made in play, ends, where that is
/// plain without playing it: a second pass in a row draws, a first goes
/// on; a turn that does not push the stone and changes no square on a
/// line of five through it (its rank, file and diagonals, within four)
/// leaves the roshis as they were, none decisive, so the game goes on.
/// `None`: play it to know.
pub(super) fn outcome_after(pos: &Position, mv: &Move) -> Option<Outcome> {
    if pos.phase != Phase::Play || pos.drawn {
        return None;
    }
    if mv.is_pass() {
        return Some(match pos.last_pass {
            true => Outcome::Draw,
            false => Outcome::Open,
        });
    }
    let stone = pos.stone()?;
    let on_a_line = |s: Sq| {
        let (df, dr) = (s.file.abs_diff(stone.file), s.rank.abs_diff(stone.rank));
        df.max(dr) <= 4 && (df == 0 || dr == 0 || df == dr)
    };
    for &a in mv.actions() {
        let touches = match a {
            Action::Place(s) => on_a_line(s),
            Action::Slide(from, to) => on_a_line(from) || on_a_line(to),
            Action::Push(p, t) => {
                let beyond = t.offset(t.file as i8 - p.file as i8, t.rank as i8 - p.rank as i8)?;
                // The stone's own square is on every line: a push of the
                // stone is played.
                on_a_line(t) || on_a_line(beyond)
            }
            Action::Stone(_) => true,
        };
        if touches {
            return None;
        }
    }
    Some(Outcome::Open)
}

const ALL: [ActionKind; 3] = [ActionKind::Place, ActionKind::Slide, ActionKind::Push];

/// Every legal single action of a normal turn.
#[cfg(test)]
pub fn legal_actions(pos: &Position) -> Vec<Action> {
    let mut out = Vec::new();
    actions(pos, &ALL, &mut |a| {
        out.push(a);
        true
    });
    out
}

fn has_action(pos: &Position) -> bool {
    !actions(pos, &ALL, &mut |_| false)
}

/// Whether `side` has a roshi: five or more squares in a row (rank, file or
/// diagonal) holding the stone and otherwise only `side`'s pieces.
#[cfg(test)]
pub fn has_roshi(pos: &Position, side: Side) -> bool {
    pos.stone()
        .is_some_and(|stone| roshis(pos, stone)[side.index()])
}

/// Whether Red and Blue have a roshi through the stone on `stone`: on
/// words where the board is one ([`Bits::fives_through`]), otherwise rank
/// by rank.
pub(super) fn roshis(pos: &Position, stone: Sq) -> [bool; 2] {
    let sets = [pos.pieces(Side::First), pos.pieces(Side::Second)];
    Bits::fives_through(sets, stone)
        .unwrap_or_else(|| [Side::First, Side::Second].map(|side| roshi_through(pos, stone, side)))
}

/// [`has_roshi`] with the stone's square already known, rank by rank.
pub(super) fn roshi_through(pos: &Position, stone: Sq, side: Side) -> bool {
    // The nine ranks a line of five through the stone can cross, `side`'s
    // pieces a rank as bits (none off the board).
    let mine = pos.pieces(side);
    let row = |k: i16| match u8::try_from(i16::from(stone.rank) + k) {
        Ok(rank) if rank < pos.dims.ranks => mine.row(rank),
        _ => 0,
    };
    // Every line of five through the stone holds one of `side`'s pieces
    // next to it: none of the eight neighbours is `side`'s, no roshi.
    let near = u64::from(row(-1) | row(0) | row(1)) & (7 << stone.file >> 1);
    if near == 0 {
        return false;
    }
    let rows: [u32; 9] = std::array::from_fn(|k| row(k as i16 - 4));
    let file = i32::from(stone.file);
    // How many of `side`'s pieces follow the stone one way, up to the four a
    // roshi can need on one side.
    let run = |df: i32, dr: i32| {
        let mut n = 0;
        while n < 4 {
            let (f, k) = (file + df * (n + 1), 4 + dr * (n + 1));
            if !(0..19).contains(&f) || rows[k as usize] >> f & 1 == 0 {
                break;
            }
            n += 1;
        }
        n
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)]
        .into_iter()
        .any(|(df, dr)| 1 + run(df, dr) + run(-df, -dr) >= 5)
}

fn bad(tag: &'static str, message: &str) -> SetupError {
    SetupError {
        tag,
        message: message.into(),
        at: None,
    }
}

/// The `Board`, `Zone` and `Slide` tags.
fn settings(tags: &[Tag]) -> Result<(Option<Dims>, Option<Zone>, SlideRule), SetupError> {
    let dims = match tag_value(tags, "Board") {
        None => None,
        Some(v) => Some(Dims::parse(v).ok_or_else(|| {
            bad(
                "Board",
                "Board is the board's size, like `7x7` or `9x9` (5 to 19 a side)",
            )
        })?),
    };
    let zone = match tag_value(tags, "Zone") {
        None => None,
        Some(v) => Some(Zone::parse(v).ok_or_else(|| {
            bad(
                "Zone",
                "Zone is a rectangle given by two opposite corners, like `c3-e5`",
            )
        })?),
    };
    let slide = match tag_value(tags, "Slide").map(str::to_ascii_lowercase) {
        None => SlideRule::Path,
        Some(v) if v == "path" => SlideRule::Path,
        Some(v) if v == "line" => SlideRule::Line,
        Some(_) => return Err(bad("Slide", "Slide is `path` (the default) or `line`")),
    };
    Ok((dims, zone, slide))
}

impl Rules for Roshi {
    const SETTINGS: &'static [&'static str] = &["Board", "Zone", "Slide"];

    type Error = RoshiError;

    /// The standard start on the `Board` with the `Zone`, or the `Position`
    /// tag's (which the `Board` and `Zone` tags, when given, must agree with);
    /// `Slide` chooses the slide rule.
    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let (dims, zone, slide) = settings(tags)?;
        if let Some(text) = tag_value(tags, "Position") {
            let pos = Position::parse(text, slide)?;
            if dims.is_some_and(|d| d != pos.dims) {
                return Err(bad(
                    "Board",
                    "the Board tag and the Position disagree on the size",
                ));
            }
            if zone.is_some_and(|z| z != pos.zone) {
                return Err(bad(
                    "Zone",
                    "the Zone tag and the Position disagree on the zone",
                ));
            }
            return Ok(pos);
        }
        let dims = dims.unwrap_or(Dims { files: 7, ranks: 7 });
        let zone = zone.unwrap_or_else(|| Zone::default_for(dims));
        if !zone.fits(dims) {
            return Err(bad("Zone", "the zone must lie on the board"));
        }
        Ok(Position::start(dims, zone, slide))
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    /// Checks `mv` against every rule and plays it.
    fn play(pos: &mut Position, mv: &Move) -> Result<(), RoshiError> {
        turn(pos, mv, Path::Check)
    }

    /// A turn as written read and played on words where the board is one
    /// word wide enough (`quick::play_written`).
    #[inline(always)]
    fn play_written(pos: &mut Position, text: &str) -> Option<Option<Ending>> {
        quick::play_written(pos, text.as_bytes())
    }

    /// A generated turn's slide has its path already: no flood fill.
    fn play_generated(pos: &mut Position, mv: &Move) -> Result<(), RoshiError> {
        turn(pos, mv, Path::Known)
    }

    fn generate(pos: &Position, emit: Generator<'_, Move>) {
        if pos.phase == Phase::Setup {
            let empties: Vec<Sq> = pos.dims.squares().filter(|&s| pos.is_empty(s)).collect();
            match pos.to_move {
                Side::First => {
                    for &z in empties.iter().filter(|&&z| pos.zone.contains(z)) {
                        for &s in empties.iter().filter(|&&s| s != z) {
                            if !emit(Move::new(&[Action::Stone(z), Action::Place(s)])) {
                                return;
                            }
                        }
                    }
                }
                Side::Second => {
                    // Two identical pieces: each pair once, in board order.
                    for (i, &a) in empties.iter().enumerate() {
                        for &b in &empties[i + 1..] {
                            if !emit(Move::new(&[Action::Place(a), Action::Place(b)])) {
                                return;
                            }
                        }
                    }
                }
            }
            return;
        }
        let mut firsts = Vec::new();
        actions(pos, &ALL, &mut |a| {
            firsts.push(a);
            true
        });
        if firsts.is_empty() {
            emit(Move::PASS);
            return;
        }
        for a1 in firsts {
            if !emit(Move::new(&[a1])) {
                return;
            }
            let mut after = pos.clone();
            act(&mut after, a1, Path::Known).expect("a generated action is legal");
            let mut others = [a1.kind(); 2];
            for (slot, k) in others
                .iter_mut()
                .zip(ALL.into_iter().filter(|&k| k != a1.kind()))
            {
                *slot = k;
            }
            let go_on = actions(&after, &others, &mut |a2| emit(Move::pair(a1, a2)));
            if !go_on {
                return;
            }
        }
    }

    /// The pairs counted, not built: a setup turn's by their number (a
    /// zone square times another empty square; two of the empty squares),
    /// a turn in play as each first action and, after it, how many second
    /// actions of another kind there are (placements by the number of
    /// empty squares).
    fn count_legal_moves(pos: &Position) -> usize {
        let empties = pos.dims.squares().filter(|&s| pos.is_empty(s)).count();
        if pos.phase == Phase::Setup {
            return match pos.to_move {
                Side::First => {
                    let zone = pos
                        .dims
                        .squares()
                        .filter(|&s| pos.is_empty(s) && pos.zone.contains(s));
                    zone.count() * empties.saturating_sub(1)
                }
                Side::Second => empties * empties.saturating_sub(1) / 2,
            };
        }
        let mut firsts = Vec::new();
        actions(pos, &ALL, &mut |a| {
            firsts.push(a);
            true
        });
        if firsts.is_empty() {
            return 1; // the pass
        }
        let mut after = pos.clone();
        let mut n = 0;
        for a1 in firsts {
            after.clone_from(pos);
            act(&mut after, a1, Path::Known).expect("a generated action is legal");
            n += 1;
            for kind in ALL.into_iter().filter(|&k| k != a1.kind()) {
                n += match kind {
                    // A slide or a push before it leaves as many squares
                    // empty (a placement is never followed by another).
                    ActionKind::Place if after.supply[after.to_move.index()] > 0 => empties,
                    ActionKind::Place => 0,
                    ActionKind::Slide => count_slides(&after),
                    _ => {
                        let mut k = 0;
                        actions(&after, &[kind], &mut |_| {
                            k += 1;
                            true
                        });
                        k
                    }
                };
            }
        }
        n
    }

    /// After a turn: exactly one player with a roshi wins; two passes in a row
    /// draw.
    fn ending(pos: &Position) -> Option<Ending> {
        if pos.drawn {
            return Some(Ending::draw("double-pass"));
        }
        let stone = pos.stone()?;
        match roshis(pos, stone) {
            [true, false] => Some(Ending::win(Side::First, "roshi")),
            [false, true] => Some(Ending::win(Side::Second, "roshi")),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::Random;

    /// Whether five squares in a row hold the stone and otherwise only
    /// `side`'s pieces, by trying every line of five on the board.
    fn roshi_by_every_line(pos: &Position, side: Side) -> bool {
        let lines = [(1, 0), (0, 1), (1, 1), (1, -1)];
        pos.dims.squares().any(|start| {
            lines.iter().any(|&(df, dr)| {
                let mut squares = (0..5).map(|k| start.offset(df * k, dr * k));
                let all = |s: Option<Sq>| s.is_some_and(|s| pos.dims.contains(s));
                let five: Vec<Sq> = squares
                    .by_ref()
                    .map_while(|s| s.filter(|_| all(s)))
                    .collect();
                five.len() == 5
                    && five.iter().any(|&s| pos.at(s) == Occupant::Stone)
                    && five.iter().all(|&s| {
                        matches!(pos.at(s), Occupant::Stone) || pos.at(s) == Occupant::Piece(side)
                    })
            })
        })
    }

    /// `roshi_through` agrees with trying every line of five, on random
    /// boards of several shapes, crowded to sparse, with the stone anywhere
    /// (edges and corners included).
    #[test]
    fn roshi_test_agrees_with_every_line_on_random_boards() {
        let mut rng = Random::new(5);
        let mut found = 0;
        for (files, ranks) in [(5u8, 5u8), (7, 7), (9, 6), (19, 19)] {
            found += roshi_tests_agree(&mut rng, Dims { files, ranks }, ranks);
        }
        assert!(found > 300, "{found}");
    }

    /// Boards of several words with every piece and the stone in the first
    /// (the ranks it holds): the roshi test reads that word alone.
    #[test]
    fn roshi_test_agrees_with_every_line_on_the_first_word_of_large_boards() {
        let mut rng = Random::new(6);
        let mut found = 0;
        for (files, ranks) in [(19u8, 19u8), (12, 9), (9, 19)] {
            let in_first_word = (64 / (files + 1)).min(ranks);
            found += roshi_tests_agree(&mut rng, Dims { files, ranks }, in_first_word);
        }
        assert!(found > 100, "{found}");
    }

    /// Every line of five through every square, on boards of one word and
    /// of more: the stone and four of a side's pieces are that side's
    /// roshi (the fewest pieces one takes); three are none.
    #[test]
    fn the_stone_and_four_pieces_in_a_line_are_a_roshi() {
        let mut lines = 0;
        for (files, ranks) in [(7u8, 7u8), (5, 5), (9, 6), (19, 19)] {
            let dims = Dims { files, ranks };
            let zone = Zone {
                lo: Sq { file: 0, rank: 0 },
                hi: Sq {
                    file: files - 1,
                    rank: ranks - 1,
                },
            };
            for stone in dims.squares() {
                for (df, dr) in [(1i8, 0i8), (0, 1), (1, 1), (1, -1)] {
                    for k in 0..5i8 {
                        let line: Option<Vec<Sq>> = (0..5)
                            .map(|i| stone.offset(df * (i - k), dr * (i - k)))
                            .map(|s| s.filter(|&s| dims.contains(s)))
                            .collect();
                        let Some(line) = line else { continue };
                        for side in [Side::First, Side::Second] {
                            let mut pos = Position::start(dims, zone, SlideRule::Path);
                            pos.set(stone, Occupant::Stone);
                            for &s in line.iter().filter(|&&s| s != stone) {
                                pos.set(s, Occupant::Piece(side));
                            }
                            let mut expected = [false; 2];
                            expected[side.index()] = true;
                            assert_eq!(roshis(&pos, stone), expected, "{}", pos.write());
                            let last = *line.iter().rfind(|&&s| s != stone).unwrap();
                            pos.set(last, Occupant::Empty);
                            assert_eq!(roshis(&pos, stone), [false; 2], "{}", pos.write());
                            lines += 1;
                        }
                    }
                }
            }
        }
        assert!(lines > 5_000, "{lines}");
    }

    /// Random boards of size `dims`, pieces and the stone on the first
    /// `used` ranks: the roshi test against every line. Returns the roshis
    /// found.
    fn roshi_tests_agree(rng: &mut Random, dims: Dims, used: u8) -> usize {
        let Dims { files, ranks } = dims;
        let mut found = 0;
        for round in 0..600 {
            // Crowded, half as crowded, sparse boards.
            let (red, blue) = [(60, 20), (30, 10), (15, 15)][round % 3];
            let zone = Zone {
                lo: Sq { file: 0, rank: 0 },
                hi: Sq {
                    file: files - 1,
                    rank: ranks - 1,
                },
            };
            let mut pos = Position::start(dims, zone, SlideRule::Path);
            for sq in dims.squares().filter(|s| s.rank < used) {
                let r = rng.below(100);
                if r < red {
                    pos.set(sq, Occupant::Piece(Side::First));
                } else if r < red + blue {
                    pos.set(sq, Occupant::Piece(Side::Second));
                }
            }
            let stone = Sq {
                file: rng.below(usize::from(files)) as u8,
                rank: rng.below(usize::from(used)) as u8,
            };
            pos.set(stone, Occupant::Stone);
            // Both tests: rank by rank, and on words where the board is
            // one (`roshis`).
            let both = roshis(&pos, stone);
            for side in [Side::First, Side::Second] {
                let expected = roshi_by_every_line(&pos, side);
                assert_eq!(
                    roshi_through(&pos, stone, side),
                    expected,
                    "{}",
                    pos.write()
                );
                assert_eq!(both[side.index()], expected, "{}", pos.write());
                found += usize::from(expected);
            }
        }
        found
    }

    /// The empty squares a plain breadth-first search from `from` reaches
    /// through orthogonal steps (the reference the flood fill is held to).
    fn searched(pos: &Position, from: Sq) -> Vec<Sq> {
        let mut seen = vec![from];
        let mut todo = std::collections::VecDeque::from([from]);
        while let Some(s) = todo.pop_front() {
            for (df, dr) in DIRS {
                if let Some(n) = s.offset(df, dr).filter(|&n| pos.is_empty(n)) {
                    if !seen.contains(&n) {
                        seen.push(n);
                        todo.push_back(n);
                    }
                }
            }
        }
        seen.retain(|&s| s != from);
        seen.sort_unstable();
        seen
    }

    /// Path slides: `slide_reaches` accepts, and the generator's
    /// `slide_targets` lists in board order, exactly the squares a plain
    /// search reaches, on random boards of every shape from 5×5 to 19×19,
    /// sparse and crowded; the count of slides is their number.
    #[test]
    fn slides_agree_with_a_plain_search_on_random_boards() {
        let mut rng = Random::new(361);
        let mut checked = 0;
        for files in [5u8, 7, 9, 13, 19] {
            for ranks in [5u8, 8, 19] {
                for fill in [10, 35, 60] {
                    let dims = Dims { files, ranks };
                    let zone = Zone {
                        lo: Sq { file: 0, rank: 0 },
                        hi: Sq { file: 0, rank: 0 },
                    };
                    let mut pos = Position::start(dims, zone, SlideRule::Path);
                    for sq in dims.squares() {
                        if rng.below(100) < fill {
                            pos.set(sq, Occupant::Piece(Side::First));
                        }
                    }
                    let mut slides = 0;
                    for from in dims.squares().filter(|&s| !pos.is_empty(s)) {
                        let targets = searched(&pos, from);
                        assert_eq!(slide_targets(&pos, from), targets, "{}", pos.write());
                        slides += targets.len();
                    }
                    assert_eq!(count_slides(&pos), slides, "{}", pos.write());
                    for from in dims.squares().filter(|&s| !pos.is_empty(s)).take(6) {
                        let targets = searched(&pos, from);
                        for to in dims.squares() {
                            let reached = slide_reaches(&pos, from, to).is_ok();
                            assert_eq!(
                                reached,
                                targets.contains(&to),
                                "{dims} {from}-{to}: {}",
                                pos.write()
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
