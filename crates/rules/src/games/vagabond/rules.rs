//! Vagabond Pai Sho as The Garden Gate plays it: deploys, the moves of every
//! tile, captures, freezing, protection, Sky Bison zones, the Lotus win,
//! draws by agreement; a side with no legal move is stuck.

use super::geometry::{Point, PointSet, DIAGONALS, GRID, STEPS};
use super::notation::{Body, Move};
use super::position::Position;
use super::tiles::{Tile, TileCode, TileOptions};
use super::Vagabond;
use crate::game::{tag_value, Ending, Generator, RuleError, Rules, SetupError, Side};
use crate::Tag;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VagabondError {
    WrongPrefix {
        written: (u32, Side),
        due: (u32, Side),
    },
    NoTile {
        at: Point,
    },
    NotYourTile {
        at: Point,
        owner: Side,
    },
    NotInReserve {
        code: TileCode,
    },
    Occupied {
        at: Point,
    },
    BisonGate {
        code: TileCode,
        at: Point,
    },
    GateDeploy {
        code: TileCode,
        at: Point,
    },
    DragonZone {
        at: Point,
    },
    NullMove {
        at: Point,
    },
    CannotMove {
        code: TileCode,
    },
    Frozen {
        code: TileCode,
        by: Point,
    },
    OwnTile {
        at: Point,
    },
    CannotCapture {
        code: TileCode,
    },
    LotusNotDeployed {
        flower: bool,
    },
    Protected {
        at: Point,
        by: Point,
    },
    EmptyGate {
        at: Point,
    },
    BisonZone {
        bison: Point,
    },
    PathBlocked {
        from: Point,
        to: Point,
        chrysanthemum: bool,
    },
    OutOfRange {
        code: TileCode,
        range: u32,
        distance: u32,
    },
    DragonRange {
        from: Point,
        to: Point,
    },
    WheelDiagonal {
        from: Point,
        to: Point,
    },
    BadgermoleMove {
        from: Point,
        to: Point,
    },
    NoOfferPending,
}

impl RuleError for VagabondError {
    fn code(&self) -> &'static str {
        match self {
            VagabondError::WrongPrefix { .. } => "wrong-move-prefix",
            VagabondError::NoTile { .. } => "no-tile",
            VagabondError::NotYourTile { .. } => "not-your-tile",
            VagabondError::NotInReserve { .. } => "not-in-reserve",
            VagabondError::Occupied { .. } => "occupied",
            VagabondError::BisonGate { .. } => "bison-not-in-gate",
            VagabondError::GateDeploy { .. } => "deploy-on-gate",
            VagabondError::DragonZone { .. } => "dragon-deploy-zone",
            VagabondError::NullMove { .. } => "null-move",
            VagabondError::CannotMove { .. } => "cannot-move",
            VagabondError::Frozen { .. } => "frozen",
            VagabondError::OwnTile { .. } => "own-tile",
            VagabondError::CannotCapture { .. } => "cannot-capture",
            VagabondError::LotusNotDeployed { .. } => "lotus-not-deployed",
            VagabondError::Protected { .. } => "protected",
            VagabondError::EmptyGate { .. } => "empty-gate",
            VagabondError::BisonZone { .. } => "bison-zone",
            VagabondError::PathBlocked { .. } => "path-blocked",
            VagabondError::OutOfRange { .. } | VagabondError::DragonRange { .. } => "out-of-range",
            VagabondError::WheelDiagonal { .. } => "wheel-diagonal",
            VagabondError::BadgermoleMove { .. } => "badgermole-move",
            VagabondError::NoOfferPending => "no-offer-pending",
        }
    }
}

fn side_name(s: Side) -> &'static str {
    super::SIDES[s.index()]
}

fn prefix((n, s): (u32, Side)) -> String {
    format!("{n}{}.", if s == Side::First { 'H' } else { 'G' })
}

impl VagabondError {
    /// A turn that is not the mover's to make: its prefix, tile or reserve.
    fn fmt_turn(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        use VagabondError::*;
        Some(match self {
            WrongPrefix { written, due } => write!(
                f,
                "the prefix says {}, but this turn is {}",
                prefix(*written),
                prefix(*due)
            ),
            NoTile { at } => write!(f, "there is no tile on {at}"),
            NotYourTile { at, owner } => write!(
                f,
                "the tile on {at} is {}'s; it is {}'s turn",
                side_name(*owner),
                side_name(owner.other())
            ),
            NotInReserve { code } => write!(f, "you have no {} left in reserve", code.name()),
            Occupied { at } => write!(f, "{at} is not empty"),
            NoOfferPending => write!(
                f,
                "`==` accepts a draw offered on the opponent's last turn, and none was offered"
            ),
            _ => return None,
        })
    }

    /// Where a tile may not deploy, or what it may not capture.
    fn fmt_deploy_capture(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        use VagabondError::*;
        Some(match self {
            BisonGate { code, at } => write!(
                f,
                "a {} deploys only on an empty gate (Temple), and {at} is not one",
                code.name()
            ),
            GateDeploy { code, at } => write!(
                f,
                "{at} is a gate (Temple): only a Sky Bison deploys there, not a {}",
                code.name()
            ),
            DragonZone { at } => write!(
                f,
                "the White Dragon deploys within 5 of one of your Fire Lilies, and {at} is not"
            ),
            OwnTile { at } => write!(f, "{at} holds your own tile: it cannot be captured"),
            CannotCapture { code } => write!(
                f,
                "a {} cannot capture: only a Sky Bison, Wheel or White Dragon can",
                code.name()
            ),
            LotusNotDeployed { flower: true } => write!(
                f,
                "cannot capture a flower before your White Lotus is deployed"
            ),
            LotusNotDeployed { flower: false } => write!(
                f,
                "cannot capture this tile before both White Lotuses are deployed"
            ),
            Protected { at, by } => write!(
                f,
                "the flower on {at} is protected by its owner's Badgermole on {by}"
            ),
            _ => return None,
        })
    }

    /// How a tile may not move.
    fn fmt_movement(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        use VagabondError::*;
        Some(match self {
            NullMove { at } => write!(f, "the tile on {at} must move to another point"),
            CannotMove { code } => write!(f, "a {} never moves", code.name()),
            Frozen { code, by } => write!(
                f,
                "the {} is frozen by the opponent's Chrysanthemum on {by}",
                code.name()
            ),
            EmptyGate { at } => write!(
                f,
                "{at} is an empty gate (Temple): no tile may end a move there"
            ),
            BisonZone { bison } => write!(
                f,
                "the destination is inside the territorial zone (6 points) of the enemy \
                 Sky Bison on {bison}"
            ),
            PathBlocked {
                from,
                to,
                chrysanthemum: true,
            } => write!(
                f,
                "no path of at most 6 steps leads from {from} to {to}: a Sky Bison never \
                 leaves a point next to an enemy Chrysanthemum, so it cannot capture one"
            ),
            PathBlocked { from, to, .. } => write!(f, "the path from {from} to {to} is blocked"),
            OutOfRange {
                code,
                range,
                distance,
            } => write!(
                f,
                "a {} moves at most {range} {}, and this is {distance} away",
                code.name(),
                if *range == 1 { "step" } else { "steps" }
            ),
            DragonRange { from, to } => write!(
                f,
                "the White Dragon on {from} can go only within 5 of one of your Fire \
                 Lilies that is within 5 of it, and {to} is not"
            ),
            WheelDiagonal { from, to } => write!(
                f,
                "the Wheel must move diagonally (as many steps in x as in y): {from} to {to} is not"
            ),
            BadgermoleMove { from, to } => write!(
                f,
                "the Badgermole moves one step, or slides along a line to stop right \
                 before a flower; {from} to {to} is neither"
            ),
            _ => return None,
        })
    }
}

impl fmt::Display for VagabondError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let said = (self.fmt_turn(f))
            .or_else(|| self.fmt_deploy_capture(f))
            .or_else(|| self.fmt_movement(f));
        // Every error is one of the three kinds.
        said.unwrap_or_else(|| write!(f, "{self:?}"))
    }
}

/// What move generation looks up around the mover's tiles, computed at
/// most once per position and only when needed (a search for any legal
/// move usually stops at the first deploy): the mover's Fire Lilies and
/// the active enemy Sky Bisons.
struct Around<'p> {
    pos: &'p Position,
    lilies: std::cell::OnceCell<Vec<Point>>,
    bisons: std::cell::OnceCell<Vec<Point>>,
}

impl<'p> Around<'p> {
    fn new(pos: &'p Position) -> Self {
        Around {
            pos,
            lilies: std::cell::OnceCell::new(),
            bisons: std::cell::OnceCell::new(),
        }
    }

    fn lilies(&self) -> impl Iterator<Item = Point> + Clone + '_ {
        let me = self.pos.to_move;
        (self
            .lilies
            .get_or_init(|| own_fire_lilies(self.pos, me).collect()))
        .iter()
        .copied()
    }

    fn bisons(&self) -> impl Iterator<Item = Point> + Clone + '_ {
        let me = self.pos.to_move;
        (self
            .bisons
            .get_or_init(|| active_enemy_bisons(self.pos, me).collect()))
        .iter()
        .copied()
    }
}

/// Emits every deploy: one per tile code in reserve and point it may
/// deploy on; `false` when `emit` stopped.
fn deploys(pos: &Position, around: &Around<'_>, emit: Generator<'_, Move>) -> bool {
    TileCode::ALL
        .into_iter()
        .all(|code| deploys_of(pos, around, code, emit))
}

/// Emits every deploy of a `code` tile (none where the reserve has none);
/// `false` when `emit` stopped.
fn deploys_of(
    pos: &Position,
    around: &Around<'_>,
    code: TileCode,
    emit: Generator<'_, Move>,
) -> bool {
    if pos.reserve[pos.to_move.index()][code.index()] == 0 {
        return true;
    }
    for at in Point::all().filter(|&p| pos.at(p).is_none()) {
        let ok = if code.is_flyer() {
            at.is_gate()
        } else {
            !at.is_gate() && (code != TileCode::D || near(around.lilies(), at).next().is_some())
        };
        if ok && !emit(Move::plain(Body::Deploy { code, at })) {
            return false;
        }
    }
    true
}

/// Emits every move of a tile on the board (not a deploy); `false` when
/// `emit` stopped.
fn shifts(pos: &Position, around: &Around<'_>, emit: Generator<'_, Move>) -> bool {
    let me = pos.to_move;
    for a in Point::all() {
        let Some(t) = pos.at(a).filter(|t| t.owner == me) else {
            continue;
        };
        if matches!(t.code, TileCode::C | TileCode::F) || frozen_by(pos, a).is_some() {
            continue;
        }
        let mut cand = [false; GRID];
        candidates(pos, t, a, around, &mut cand);
        for b in marked(&cand) {
            if b == a {
                continue;
            }
            let ok = match pos.at(b) {
                Some(_) => capture_check(pos, t, b).is_ok(),
                None => !b.is_gate(),
            } && (t.code != TileCode::S || zone_holding(around.bisons(), b).is_none());
            if ok && !emit(Move::plain(Body::Shift { from: a, to: b })) {
                return false;
            }
        }
    }
    true
}

/// Marks in `cand` the points tile `t` on `a` may move to as its kind
/// moves (captures and gates are checked after).
fn candidates(pos: &Position, t: Tile, a: Point, around: &Around<'_>, cand: &mut [bool; GRID]) {
    let empty = |p: Point| pos.at(p).is_none();
    match t.code {
        TileCode::L => a.neighbours().for_each(|n| cand[n.index()] = true),
        TileCode::B => {
            a.neighbours().for_each(|n| cand[n.index()] = true);
            for step in STEPS {
                let mut p = a;
                while let Some(n) = p.step(step).filter(|&n| empty(n)) {
                    if n.step(step)
                        .and_then(|x| pos.at(x))
                        .is_some_and(|x| x.code.is_flower())
                    {
                        cand[n.index()] = true;
                    }
                    p = n;
                }
            }
        }
        TileCode::W => {
            for step in DIAGONALS {
                let mut p = a;
                while let Some(n) = p.step(step) {
                    cand[n.index()] = true;
                    if !empty(n) {
                        break;
                    }
                    p = n;
                }
            }
        }
        TileCode::D => {
            for f in near(around.lilies(), a) {
                within(f, 5).for_each(|p| cand[p.index()] = true);
            }
        }
        TileCode::Y => within(a, 5).for_each(|p| cand[p.index()] = true),
        TileCode::S => {
            bison_reach(pos, a, pos.to_move, cand, None);
        }
        TileCode::C | TileCode::F => {}
    }
}

/// The opponent's Chrysanthemum next to `p` that freezes a flyer of `me`.
fn enemy_chrysanthemum_next_to(pos: &Position, p: Point, me: Side) -> Option<Point> {
    p.neighbours().find(|&n| {
        pos.at(n)
            .is_some_and(|t| t.code == TileCode::C && t.owner != me)
    })
}

/// Where the tile on `p` is frozen from (a Sky Bison or Lemur next to an
/// enemy Chrysanthemum).
fn frozen_by(pos: &Position, p: Point) -> Option<Point> {
    let t = pos.at(p)?;
    if !t.code.is_flyer() {
        return None;
    }
    enemy_chrysanthemum_next_to(pos, p, t.owner)
}

/// The Badgermole protecting the flower on `p`.
fn protected_by(pos: &Position, p: Point) -> Option<Point> {
    let t = pos.at(p)?;
    if !t.code.is_flower() {
        return None;
    }
    p.neighbours().find(|&n| {
        pos.at(n)
            .is_some_and(|b| b.code == TileCode::B && b.owner == t.owner)
    })
}

fn capture_check(pos: &Position, mover: Tile, at: Point) -> Result<(), VagabondError> {
    let target = pos.at(at).expect("a tile to capture");
    if target.owner == mover.owner {
        return Err(VagabondError::OwnTile { at });
    }
    if !mover.code.can_capture() {
        return Err(VagabondError::CannotCapture { code: mover.code });
    }
    let me = mover.owner.index();
    let lotus_ok = if target.code.is_flower() {
        pos.lotus_deployed[me]
    } else {
        pos.lotus_deployed[0] && pos.lotus_deployed[1]
    };
    if !lotus_ok {
        return Err(VagabondError::LotusNotDeployed {
            flower: target.code.is_flower(),
        });
    }
    if let Some(by) = protected_by(pos, at) {
        return Err(VagabondError::Protected { at, by });
    }
    Ok(())
}

/// The opponent's active Sky Bisons (off their gates, not frozen): each
/// zones out `me`'s Sky Bisons within 6.
fn active_enemy_bisons(pos: &Position, me: Side) -> impl Iterator<Item = Point> + '_ {
    Point::all().filter(move |&q| active_enemy_bison(pos, me, q))
}

/// Whether an active Sky Bison of the opponent's stands on `q`.
fn active_enemy_bison(pos: &Position, me: Side, q: Point) -> bool {
    pos.at(q)
        .is_some_and(|t| t.code == TileCode::S && t.owner != me)
        && !q.is_gate()
        && frozen_by(pos, q).is_none()
}

/// The Sky Bison among `bisons` whose zone holds `b`.
fn zone_holding(mut bisons: impl Iterator<Item = Point>, b: Point) -> Option<Point> {
    bisons.find(|q| q.distance(b) <= 6)
}

/// Every point a Sky Bison on `a` reaches in at most 6 steps: intermediate
/// points empty and on the board, and never departing from a point next to
/// an enemy Chrysanthemum. Marks them in `reach`; with `stop`, only
/// whether that point is reached is asked. Whether `stop` was reached.
/// A breadth-first search a ring at a time, each ring the last one's
/// neighbours as a set of bits ([`PointSet::neighbours`]).
fn bison_reach(
    pos: &Position,
    a: Point,
    me: Side,
    reach: &mut [bool; GRID],
    stop: Option<Point>,
) -> bool {
    let (occupied, enemy_c) = tiles_within(pos, a, me);
    // Points a Bison may not depart from (its own start excepted).
    let blocked = enemy_c.neighbours();
    let start = PointSet::one(a);
    let (mut ring, mut seen, mut reached) = (start, start, PointSet::EMPTY);
    for step in 1..=6 {
        let next = ring.neighbours().minus(start);
        reached = reached.or(next);
        if stop.is_some_and(|b| reached.has(b.index())) {
            return true;
        }
        if step == 6 {
            break;
        }
        let fresh = next.minus(occupied).minus(seen);
        seen = seen.or(fresh);
        ring = fresh.minus(blocked);
        if ring.is_empty() {
            break;
        }
    }
    if stop.is_some() {
        return false;
    }
    for p in Point::all().filter(|p| reached.has(p.index())) {
        reach[p.index()] = true;
    }
    false
}

/// The tiles a Sky Bison on `a` can meet in 6 steps, as sets: every tile
/// within 6 of `a` (the points a path may cross), and `me`'s enemies'
/// Chrysanthemums among them (those next to a point within 5, from which
/// a Bison could depart).
fn tiles_within(pos: &Position, a: Point, me: Side) -> (PointSet, PointSet) {
    let (mut occupied, mut enemy_c) = (PointSet::EMPTY, PointSet::EMPTY);
    tile_within(pos, a, 6, |q, t| {
        occupied.insert(q.index());
        if t.code == TileCode::C && t.owner != me {
            enemy_c.insert(q.index());
        }
        false
    });
    (occupied, enemy_c)
}

/// The points within `d` steps of `p` (Manhattan distance).
fn within(p: Point, d: i32) -> impl Iterator<Item = Point> {
    (-d..=d).flat_map(move |dx| {
        let left = d - dx.abs();
        (-left..=left).filter_map(move |dy| Point::new(i32::from(p.x) + dx, i32::from(p.y) + dy))
    })
}

/// The first active enemy Sky Bison in board order whose zone holds `b`
/// (only a Bison within 6 of `b` can zone it).
fn bison_zoning(pos: &Position, me: Side, b: Point) -> Option<Point> {
    tile_within(pos, b, 6, |q, t| {
        t.code == TileCode::S && t.owner != me && active_enemy_bison(pos, me, q)
    })
}

/// The first point in board order within `d` of `p` whose tile `pick`
/// takes (each tile is shown to `pick` until it takes one): only the
/// grid's cells of that diamond are looked at, column by column, by index.
fn tile_within(
    pos: &Position,
    p: Point,
    d: i32,
    mut pick: impl FnMut(Point, Tile) -> bool,
) -> Option<Point> {
    let (px, py) = (i32::from(p.x), i32::from(p.y));
    for x in (px - d).max(-8)..=(px + d).min(8) {
        let left = d - (x - px).abs();
        let column = (x + 8) as usize * 17;
        for y in (py - left).max(-8)..=(py + left).min(8) {
            // A cell off the board holds no tile.
            let Some(t) = pos.board[column + (y + 8) as usize] else {
                continue;
            };
            let q = Point {
                x: x as i8,
                y: y as i8,
            };
            if pick(q, t) {
                return Some(q);
            }
        }
    }
    None
}

/// The points marked in a grid of flags, in grid order (which is
/// [`Point::all`]'s), eight flags looked at at a time.
fn marked(flags: &[bool; GRID]) -> impl Iterator<Item = Point> + '_ {
    (0..GRID.div_ceil(8))
        .filter(move |&w| {
            let end = (w * 8 + 8).min(GRID);
            flags[w * 8..end].iter().any(|&f| f)
        })
        .flat_map(move |w| (w * 8..(w * 8 + 8).min(GRID)).filter(move |&i| flags[i]))
        .map(|i| Point {
            x: (i / 17) as i8 - 8,
            y: (i % 17) as i8 - 8,
        })
}

/// `me`'s Fire Lilies on the board.
fn own_fire_lilies(pos: &Position, me: Side) -> impl Iterator<Item = Point> + '_ {
    Point::all().filter(move |&f| {
        pos.at(f)
            .is_some_and(|t| t.code == TileCode::F && t.owner == me)
    })
}

/// Those of `lilies` within 5 of `p`.
fn near(lilies: impl Iterator<Item = Point>, p: Point) -> impl Iterator<Item = Point> {
    lilies.filter(move |f| f.distance(p) <= 5)
}

/// Whether the Badgermole on `a` may slide to the empty `b`: same line,
/// empty between, and a flower right beyond `b`.
fn badgermole_sight(pos: &Position, a: Point, b: Point) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if (dx != 0 && dy != 0) || (dx, dy) == (0, 0) {
        return false;
    }
    let step = (dx.signum(), dy.signum());
    let mut p = a;
    loop {
        p = match p.step(step) {
            Some(p) => p,
            None => return false,
        };
        if p == b {
            break;
        }
        if pos.at(p).is_some() {
            return false;
        }
    }
    b.step(step)
        .and_then(|beyond| pos.at(beyond))
        .is_some_and(|t| t.code.is_flower())
}

fn check_deploy(pos: &Position, code: TileCode, at: Point) -> Result<(), VagabondError> {
    let me = pos.to_move;
    if pos.reserve[me.index()][code.index()] == 0 {
        return Err(VagabondError::NotInReserve { code });
    }
    if pos.at(at).is_some() {
        return Err(VagabondError::Occupied { at });
    }
    if code.is_flyer() {
        if !at.is_gate() {
            return Err(VagabondError::BisonGate { code, at });
        }
    } else if at.is_gate() {
        return Err(VagabondError::GateDeploy { code, at });
    }
    if code == TileCode::D && near(own_fire_lilies(pos, me), at).next().is_none() {
        return Err(VagabondError::DragonZone { at });
    }
    Ok(())
}

pub(super) fn check_shift(pos: &Position, a: Point, b: Point) -> Result<(), VagabondError> {
    let me = pos.to_move;
    let t = pos.at(a).ok_or(VagabondError::NoTile { at: a })?;
    if t.owner != me {
        return Err(VagabondError::NotYourTile {
            at: a,
            owner: t.owner,
        });
    }
    if a == b {
        return Err(VagabondError::NullMove { at: a });
    }
    if matches!(t.code, TileCode::C | TileCode::F) {
        return Err(VagabondError::CannotMove { code: t.code });
    }
    if let Some(by) = frozen_by(pos, a) {
        return Err(VagabondError::Frozen { code: t.code, by });
    }
    if pos.at(b).is_some() {
        capture_check(pos, t, b)?;
    } else if b.is_gate() {
        return Err(VagabondError::EmptyGate { at: b });
    }
    check_reach(pos, t, a, b)
}

/// Whether tile `t` on `a` reaches `b` as its kind moves.
#[inline]
fn check_reach(pos: &Position, t: Tile, a: Point, b: Point) -> Result<(), VagabondError> {
    let me = pos.to_move;
    let distance = a.distance(b);
    let too_far = |range| VagabondError::OutOfRange {
        code: t.code,
        range,
        distance,
    };
    match t.code {
        TileCode::S => bison_reaches(pos, a, b),
        TileCode::Y if distance > 5 => Err(too_far(5)),
        TileCode::D
            if tile_within(pos, a, 5, |f, t| {
                t.code == TileCode::F && t.owner == me && f.distance(b) <= 5
            })
            .is_none() =>
        {
            Err(VagabondError::DragonRange { from: a, to: b })
        }
        TileCode::W => wheel_reaches(pos, a, b),
        TileCode::B if distance != 1 && !badgermole_sight(pos, a, b) => {
            Err(VagabondError::BadgermoleMove { from: a, to: b })
        }
        TileCode::L if distance != 1 => Err(too_far(1)),
        _ => Ok(()),
    }
}

/// A Sky Bison on `a` reaches `b`: outside every active enemy Bison's
/// zone, at most 6 away, along a path of at most 6 steps.
fn bison_reaches(pos: &Position, a: Point, b: Point) -> Result<(), VagabondError> {
    let me = pos.to_move;
    if let Some(bison) = bison_zoning(pos, me, b) {
        return Err(VagabondError::BisonZone { bison });
    }
    let distance = a.distance(b);
    if distance > 6 {
        return Err(VagabondError::OutOfRange {
            code: TileCode::S,
            range: 6,
            distance,
        });
    }
    let mut reach = [false; GRID];
    if !bison_reach(pos, a, me, &mut reach, Some(b)) {
        let chrysanthemum = pos.at(b).is_some_and(|x| x.code == TileCode::C);
        return Err(VagabondError::PathBlocked {
            from: a,
            to: b,
            chrysanthemum,
        });
    }
    Ok(())
}

/// A Wheel on `a` reaches `b`: diagonally, over empty points.
fn wheel_reaches(pos: &Position, a: Point, b: Point) -> Result<(), VagabondError> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if dx.abs() != dy.abs() {
        return Err(VagabondError::WheelDiagonal { from: a, to: b });
    }
    let step = (dx.signum(), dy.signum());
    let mut p = a.step(step).expect("between two board points");
    while p != b {
        if pos.at(p).is_some() {
            return Err(VagabondError::PathBlocked {
                from: a,
                to: b,
                chrysanthemum: false,
            });
        }
        p = p.step(step).expect("between two board points");
    }
    Ok(())
}

impl Rules for Vagabond {
    const SETTINGS: &'static [&'static str] = &["Options"];

    type Error = VagabondError;

    /// The standard start or the `Position` tag's, under the `Options` tag.
    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let options = match tag_value(tags, "Options") {
            None => TileOptions::default(),
            Some(v) => TileOptions::parse(v).map_err(|m| SetupError {
                tag: "Options",
                message: format!(
                    "{m}: Options are DoubleTiles and SwapBisonWithLemur, comma-separated"
                ),
                at: None,
            })?,
        };
        match tag_value(tags, "Position") {
            None => Ok(Position::start(options)),
            Some(text) => Ok(Position::parse(text, options)?),
        }
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    /// Checks `mv` against every rule and plays it.
    fn play(pos: &mut Position, mv: &Move) -> Result<(), VagabondError> {
        let me = pos.to_move;
        let due = (pos.turn / 2, me);
        if let Some(written) = mv.prefix {
            if written != due {
                return Err(VagabondError::WrongPrefix { written, due });
            }
        }
        match mv.body {
            Body::Accept => {
                if !pos.offer_pending {
                    return Err(VagabondError::NoOfferPending);
                }
                pos.drawn = true;
            }
            Body::Deploy { code, at } => {
                check_deploy(pos, code, at)?;
                pos.reserve[me.index()][code.index()] -= 1;
                pos.board[at.index()] = Some(Tile { owner: me, code });
                if code == TileCode::L {
                    pos.lotus_deployed[me.index()] = true;
                }
            }
            Body::Shift { from, to } => {
                check_shift(pos, from, to)?;
                let captured = pos.board[to.index()].take();
                pos.board[to.index()] = pos.board[from.index()].take();
                if captured.is_some_and(|t| t.code == TileCode::L) {
                    pos.winner = Some(me);
                }
            }
        }
        // An offer made with the winning move is void.
        pos.offer_pending = mv.offer && pos.winner.is_none() && mv.body != Body::Accept;
        pos.turn += 1;
        pos.to_move = me.other();
        Ok(())
    }

    fn generate(pos: &Position, emit: Generator<'_, Move>) {
        if pos.offer_pending && !emit(Move::plain(Body::Accept)) {
            return;
        }
        let around = Around::new(pos);
        if deploys(pos, &around, emit) {
            shifts(pos, &around, emit);
        }
    }

    /// Asked of the same turns [`Rules::generate`] makes, cheapest first:
    /// an acceptance; a deploy of a flying tile (on an empty gate) or of any
    /// other tile but the Dragon (on any empty point but a gate); a step of
    /// a Lotus or a Badgermole; a move of any tile on the board; then the
    /// Dragon's deploys, whose points depend on the Fire Lilies.
    fn has_legal_move(pos: &Position) -> bool {
        if pos.offer_pending {
            return true;
        }
        let reserve = &pos.reserve[pos.to_move.index()];
        let held = |fly: bool| {
            (TileCode::ALL.into_iter())
                .any(|c| reserve[c.index()] > 0 && c != TileCode::D && c.is_flyer() == fly)
        };
        if held(true) && Point::GATES.into_iter().any(|g| pos.at(g).is_none()) {
            return true;
        }
        if held(false) && Point::all().any(|p| !p.is_gate() && pos.at(p).is_none()) {
            return true;
        }
        // A Lotus or a Badgermole (never frozen) steps to any empty
        // neighbour but a gate.
        let me = pos.to_move;
        let steps = |a: Point| a.neighbours().any(|n| pos.at(n).is_none() && !n.is_gate());
        if Point::all().any(|a| {
            pos.at(a).is_some_and(|t| {
                t.owner == me && matches!(t.code, TileCode::L | TileCode::B) && steps(a)
            })
        }) {
            return true;
        }
        let around = Around::new(pos);
        !shifts(pos, &around, &mut |_| false)
            || !deploys_of(pos, &around, TileCode::D, &mut |_| false)
    }

    /// The Lotus captured wins; an accepted offer draws; a side with no legal
    /// move is stuck, with no result.
    fn ending(pos: &Position) -> Option<Ending> {
        if let Some(w) = pos.winner {
            return Some(Ending::win(w, "lotus-captured"));
        }
        if pos.drawn {
            return Some(Ending::draw("draw-accepted"));
        }
        if !Self::has_legal_move(pos) {
            return Some(Ending::stuck("stuck"));
        }
        None
    }
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    /// A Sky Bison's move as checked before the search stopped early and
    /// the zone scan looked only near `b`: every active enemy Bison in board
    /// order, the whole reach.
    fn bison_reaches_by_full_scans(
        pos: &Position,
        a: Point,
        b: Point,
    ) -> Result<(), VagabondError> {
        let me = pos.to_move;
        if let Some(bison) = zone_holding(active_enemy_bisons(pos, me), b) {
            return Err(VagabondError::BisonZone { bison });
        }
        if a.distance(b) > 6 {
            return Err(VagabondError::OutOfRange {
                code: TileCode::S,
                range: 6,
                distance: a.distance(b),
            });
        }
        let mut reach = [false; GRID];
        bison_reach_by_queue(pos, a, me, &mut reach);
        match reach[b.index()] {
            true => Ok(()),
            false => Err(VagabondError::PathBlocked {
                from: a,
                to: b,
                chrysanthemum: pos.at(b).is_some_and(|x| x.code == TileCode::C),
            }),
        }
    }

    /// A Sky Bison's reach as first written: a breadth-first search over a
    /// queue, a point at a time, asking each point's neighbours.
    fn bison_reach_by_queue(pos: &Position, a: Point, me: Side, reach: &mut [bool; GRID]) {
        let mut dist = [u8::MAX; GRID];
        dist[a.index()] = 0;
        let mut queue = vec![a];
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            let d = dist[u.index()];
            if d >= 6 || (u != a && enemy_chrysanthemum_next_to(pos, u, me).is_some()) {
                continue;
            }
            for v in u.neighbours().filter(|&v| v != a) {
                reach[v.index()] = true;
                if pos.at(v).is_none() && dist[v.index()] == u8::MAX {
                    dist[v.index()] = d + 1;
                    queue.push(v);
                }
            }
        }
    }

    /// The reach by rings of bits is the reach by a queue, for every tile
    /// of the side to move as if it were a Sky Bison, along random games.
    #[test]
    fn bison_reach_by_rings_is_the_reach_by_a_queue() {
        let mut compared = 0;
        for pos in crate::testkit::random_positions::<Vagabond>(61, 12) {
            let me = pos.to_move;
            for a in Point::all().filter(|&a| pos.at(a).is_some_and(|t| t.owner == me)) {
                let (mut rings, mut queue) = ([false; GRID], [false; GRID]);
                bison_reach(&pos, a, me, &mut rings, None);
                bison_reach_by_queue(&pos, a, me, &mut queue);
                assert_eq!(rings, queue, "{a}");
                for b in Point::all() {
                    let stopped = bison_reach(&pos, a, me, &mut [false; GRID], Some(b));
                    assert_eq!(stopped, queue[b.index()], "{a} {b}");
                }
                compared += 1;
            }
        }
        assert!(compared > 1_000, "{compared}");
    }

    /// `bison_reaches` (its search stopped at the target, its zones looked
    /// for within 6 of it) gives the full scans' verdict and names the same
    /// Bison, for every Sky Bison of the mover and every point, along
    /// random games.
    #[test]
    fn bison_checks_agree_with_full_scans_along_random_games() {
        let mut rng = crate::testkit::Random::new(6);
        let (mut checked, mut zoned) = (0, 0);
        for _ in 0..12 {
            let mut pos = Vagabond::start(&[]).unwrap();
            for _ in 0..120 {
                if Vagabond::ending(&pos).is_some() {
                    break;
                }
                let bisons = Point::all().filter(|&q| {
                    pos.at(q)
                        .is_some_and(|t| t.code == TileCode::S && t.owner == pos.to_move)
                });
                for a in bisons.collect::<Vec<_>>() {
                    for b in Point::all() {
                        let got = bison_reaches(&pos, a, b);
                        assert_eq!(got, bison_reaches_by_full_scans(&pos, a, b), "{a} {b}");
                        checked += 1;
                        zoned += usize::from(matches!(got, Err(VagabondError::BisonZone { .. })));
                    }
                }
                let mut moves = Vec::new();
                Vagabond::legal_moves(&pos, &mut moves);
                let mv = moves[rng.below(moves.len())];
                Vagabond::play(&mut pos, &mv).unwrap();
            }
        }
        assert!(checked > 10_000 && zoned > 100, "{checked} {zoned}");
    }

    #[test]
    fn marked_gives_the_flagged_points_in_board_order() {
        let mut flags = [false; GRID];
        let picked: Vec<Point> = Point::all().filter(|p| (p.x * 3 + p.y) % 7 == 0).collect();
        for p in &picked {
            flags[p.index()] = true;
        }
        assert_eq!(marked(&flags).collect::<Vec<_>>(), picked);
        assert_eq!(marked(&[false; GRID]).count(), 0);
        let last = Point::all().last().unwrap();
        let mut one = [false; GRID];
        one[last.index()] = true;
        assert_eq!(marked(&one).collect::<Vec<_>>(), [last]);
    }

    #[test]
    fn within_is_the_points_at_most_that_far() {
        for centre in [
            Point { x: 0, y: 0 },
            Point { x: 7, y: -3 },
            Point { x: 0, y: 8 },
        ] {
            let mut got: Vec<Point> = within(centre, 5).collect();
            got.sort_by_key(|p| p.index());
            let want: Vec<Point> = Point::all().filter(|p| p.distance(centre) <= 5).collect();
            assert_eq!(got, want);
        }
    }
}
