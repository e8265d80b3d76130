//! Iqishiqi's rules: drop a white stone, push the neutral stone along a line
//! of sight from the new group by exactly the group's size; the end by
//! corner, edge or stalemate.

use super::geometry::{
    and, bit, count, flood, has, indices, minus, neighbours, or, shifted, Bits, Dir, Hex, GRID,
    OFF, ON_BOARD, RAYS, RAY_LEN, STEPS, STEP_DELTA,
};
use super::labels::Coords;
use super::notation::Move;
use super::position::Position;
use super::Iqishiqi;
use crate::game::{
    any_move, tag_value, Ending, Generator, Outcome, RuleError, Rules, SetupError, Side,
};
use crate::Tag;
use std::fmt;

/// Why a move is illegal. Cells are kept as written labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IqishiqiError {
    NeutralCell {
        drop: String,
    },
    Occupied {
        drop: String,
    },
    NoStonesLeft,
    NoLineOfSight {
        drop: String,
        size: u32,
        neutral: String,
    },
    NoRoom {
        drop: String,
        size: u32,
        room: u32,
    },
    Unreachable {
        drop: String,
        dest: String,
        legal: Vec<String>,
    },
    Ambiguous {
        drop: String,
        legal: Vec<String>,
    },
}

impl RuleError for IqishiqiError {
    fn code(&self) -> &'static str {
        match self {
            IqishiqiError::NeutralCell { .. } => "neutral-cell",
            IqishiqiError::Occupied { .. } => "occupied",
            IqishiqiError::NoStonesLeft => "no-stones-left",
            IqishiqiError::NoLineOfSight { .. } => "no-line-of-sight",
            IqishiqiError::NoRoom { .. } => "no-room",
            IqishiqiError::Unreachable { .. } => "unreachable-destination",
            IqishiqiError::Ambiguous { .. } => "ambiguous-move",
        }
    }
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => "nowhere".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn stones(n: u32) -> String {
    format!("{n} {}", if n == 1 { "stone" } else { "stones" })
}

impl fmt::Display for IqishiqiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IqishiqiError::NeutralCell { drop } => {
                write!(f, "{drop} holds the neutral stone; drop on an empty cell")
            }
            IqishiqiError::Occupied { drop } => write!(f, "{drop} already holds a white stone"),
            IqishiqiError::NoStonesLeft => {
                write!(f, "no white stones are left in the supply (StoneLimit)")
            }
            IqishiqiError::NoLineOfSight {
                drop,
                size,
                neutral,
            } => write!(
                f,
                "no stone of the new group ({drop}, {}) is the first stone in line of \
                 sight from the neutral stone on {neutral}",
                stones(*size)
            ),
            IqishiqiError::NoRoom { drop, size, room } => write!(
                f,
                "the new group ({drop}) has {}, so the neutral stone moves exactly {size} \
                 cells, but away from the group it has room for at most {room}",
                stones(*size)
            ),
            IqishiqiError::Unreachable { drop, dest, legal } => write!(
                f,
                "no legal push after the drop on {drop} ends on {dest}; the neutral stone \
                 can go to {}",
                or_list(legal)
            ),
            IqishiqiError::Ambiguous { drop, legal } => write!(
                f,
                "ambiguous move: after the drop on {drop} the neutral stone can go to {}; \
                 write the destination, e.g. {drop}/{}",
                or_list(legal),
                legal.first().map_or("", String::as_str)
            ),
        }
    }
}

/// How many steps along direction `d` span `diff` grid indices: divided by
/// [`STEP_DELTA`]'s magnitudes as constants (a multiplication, not a
/// division, per ray of every position).
fn steps(diff: usize, d: usize) -> usize {
    const _: () = assert!(
        STEP_DELTA[0].unsigned_abs() == 15
            && STEP_DELTA[1].unsigned_abs() == 15
            && STEP_DELTA[2].unsigned_abs() == 16
            && STEP_DELTA[3].unsigned_abs() == 16
            && STEP_DELTA[4].unsigned_abs() == 1
            && STEP_DELTA[5].unsigned_abs() == 1
    );
    match d {
        0 | 1 => diff / 15,
        2 | 3 => diff / 16,
        _ => diff,
    }
}

/// Along each of the six rays from the neutral stone: the first stone and
/// its distance, and the empty on-board run before a stone or the edge.
#[derive(Clone, Copy)]
pub struct Rays {
    /// The neutral stone's grid index.
    neutral: usize,
    first: [Option<(Hex, u32)>; 6],
    run: [u32; 6],
}

impl Rays {
    pub fn new(pos: &Position) -> Rays {
        let mut first = [None; 6];
        let mut run = [0; 6];
        let n = pos.neutral.index();
        for d in 0..6 {
            match first_in_sight(&pos.bits, n, d) {
                Some(i) => {
                    let k = steps(i.abs_diff(n), d) as u32;
                    first[d] = Some((Hex::at(i), k));
                    run[d] = k - 1;
                }
                None => run[d] = u32::from(RAY_LEN[n][d]),
            }
        }
        Rays {
            neutral: n,
            first,
            run,
        }
    }

    /// The cells along direction `d` from the neutral stone up to the
    /// first stone in sight, as bits: the empty run, and past it the rim
    /// cell where no stone is in sight.
    fn run_bits(&self, d: usize) -> Bits {
        let ray = RAYS[self.neutral][d];
        match self.first[d] {
            Some((f, _)) => minus(ray, or(RAYS[f.index()][d], bit(f.index()))),
            None => ray,
        }
    }
}

/// The grid index of the first of `stones` along direction `d` from the
/// cell at `n`, if any.
fn first_in_sight(stones: &Bits, n: usize, d: usize) -> Option<usize> {
    let ray = &RAYS[n][d];
    let on_ray = [0, 1, 2, 3].map(|w| stones[w] & ray[w]);
    // Grid indices grow along E, NNE and NNW and shrink along the others:
    // the nearest stone is the lowest or the highest bit.
    if STEP_DELTA[d] > 0 {
        (0..4)
            .find(|&w| on_ray[w] != 0)
            .map(|w| w * 64 + on_ray[w].trailing_zeros() as usize)
    } else {
        (0..4)
            .rev()
            .find(|&w| on_ray[w] != 0)
            .map(|w| w * 64 + 63 - on_ray[w].leading_zeros() as usize)
    }
}

/// What a position offers every drop, computed once when every drop is
/// tried: the groups of white stones, the rays, and by direction the drops
/// that would see the neutral stone along it. A drop is then checked by a
/// few bit tests and the sizes of the groups next to it.
pub struct LineScan {
    /// Group id of each stone's cell, from 1; 0 on an empty cell and at
    /// [`OFF`] (index 255), so that a neighbour off the board reads as
    /// empty. At most 168 stones: ids and sizes fit a byte.
    group: [u8; 256],
    /// The size of each group, by id (id 0: no group, size 0).
    size: [u8; 256],
    rays: Rays,
    /// By direction: the empty run from the neutral stone (a drop there
    /// becomes the first stone in sight), as bits.
    run: [Bits; 6],
    /// By direction: the drops whose new group holds the first stone in
    /// sight along it, as bits: the empty run, and the empty cells next to
    /// the group of the first stone. A push needs that stone in the drop's
    /// group, so no other drop pushes along it.
    sight: [Bits; 6],
}

impl LineScan {
    pub fn new(pos: &Position) -> LineScan {
        let rays = Rays::new(pos);
        let n = pos.neutral.index();
        let empty = minus(ON_BOARD, or(pos.bits, bit(n)));
        let run = std::array::from_fn(|d| rays.run_bits(d));
        let mut an = LineScan {
            group: [0; 256],
            size: [0; 256],
            rays,
            run,
            sight: run,
        };
        let mut left = pos.bits;
        let mut id = 0u8;
        while let Some(start) = indices(left).next() {
            let g = flood(bit(start), pos.bits);
            left = minus(left, g);
            id += 1;
            an.size[usize::from(id)] = count(&g) as u8;
            for i in indices(g) {
                an.group[i] = id;
            }
            let mut next_to = None;
            for (d, first) in rays.first.iter().enumerate() {
                if first.is_some_and(|(f, _)| has(&g, f.index())) {
                    let cells = *next_to.get_or_insert_with(|| and(neighbours(g), empty));
                    an.sight[d] = or(an.sight[d], cells);
                }
            }
        }
        an
    }

    /// The empty cells whose drop sees the neutral stone along some ray.
    fn candidates(&self) -> Bits {
        self.sight.iter().fold([0; 4], |all, s| or(all, *s))
    }

    /// The destinations of a drop on the empty cell at grid index `drop`,
    /// at most one per direction, in direction order.
    #[inline]
    fn pushes(&self, pos: &Position, drop: usize, out: &mut Dests) {
        // The new group's size: the drop, and each group next to it once.
        let ids = STEPS[drop].map(|nb| self.group[usize::from(nb)]);
        let mut size = 1;
        for i in 0..ids.len() {
            if !ids[..i].contains(&ids[i]) {
                size += u32::from(self.size[usize::from(ids[i])]);
            }
        }
        let n = pos.neutral.index();
        for d in Dir::ALL {
            if !has(&self.sight[d.index()], drop) {
                continue;
            }
            let away = d.opposite();
            let mut room = self.rays.run[away.index()];
            if has(&self.run[away.index()], drop) {
                // The new stone stands in the way.
                room = steps(drop.abs_diff(n), away.index()) as u32 - 1;
            }
            if room >= size {
                out.push(step_away(pos.neutral, away, size));
            }
        }
    }
}

/// The cell `size` steps from the neutral stone's cell `from` along
/// `away`, known to be on the board (within the empty run).
fn step_away(from: Hex, away: Dir, size: u32) -> Hex {
    let (dq, dr) = away.delta();
    let s = size as i8;
    Hex::new(from.q + dq * s, from.r + dr * s).expect("the empty run stays on the board")
}

/// The group a drop on the empty cell at grid index `start` makes among
/// `stones` (the drop and every group next to it): its cells, as bits, and
/// its size; `None` as soon as it has more than `limit` stones. Found by a
/// flood fill from the drop alone, for checking one drop without analysing
/// the whole board. A stone at a time, not [`flood`]'s word at a time: one
/// drop's group is mostly a few stones, and counting a set's bits is a
/// long sequence where the target has no `popcnt` (callgrind: 6 % more
/// instructions for `validate` on Iqishiqi with the word-at-a-time flood).
/// `STACK` bounds the cells pushed: above `limit`, or [`GRID`] for no
/// limit (a small stack is not zeroed at a cost per call).
fn group_within<const STACK: usize>(
    stones: &Bits,
    start: usize,
    limit: u32,
) -> Option<(Bits, u32)> {
    debug_assert!(STACK >= GRID || (limit as usize) < STACK);
    // [`OFF`] (255) is past the grid's cells: never a stone, so a step off
    // the board reads as empty without a test of its own.
    const _: () = assert!(GRID <= OFF as usize);
    let mut member = bit(start);
    // Most drops touch no stone: a group of one, told without a stack.
    if !(STEPS[start].iter()).any(|&nb| has(stones, usize::from(nb))) {
        return Some((member, 1));
    }
    // The stones not yet in the group: one test per neighbour.
    let mut left = minus(*stones, member);
    let mut size = 1;
    // Each cell is pushed once, after it is counted: at most `limit`.
    let mut stack = [0u8; STACK];
    stack[0] = start as u8;
    let mut top = 1;
    while top > 0 {
        top -= 1;
        for &nb in &STEPS[usize::from(stack[top])] {
            let nb_i = usize::from(nb);
            if has(&left, nb_i) {
                size += 1;
                if size > limit {
                    return None;
                }
                left[nb_i / 64] &= !(1 << (nb_i % 64));
                member[nb_i / 64] |= 1 << (nb_i % 64);
                stack[top] = nb;
                top += 1;
            }
        }
    }
    Some((member, size))
}

/// A stack for a group bounded by an empty run: a ray has at most 14
/// cells.
const RUN: usize = 16;

/// The group a drop on the empty cell `drop` would make, and its size.
fn new_group(pos: &Position, drop: Hex) -> (Bits, u32) {
    group_within::<GRID>(&pos.bits, drop.index(), u32::MAX).expect("no limit")
}

/// What a generated turn (a drop and the destination the generator found
/// for it) leads to, told without playing it, or `None` where telling
/// would cost about what playing does. The neutral stone on a corner or an
/// edge is told as [`Rules::ending`] tells it; the next player left no
/// stone to drop is stalemated. Otherwise the game goes on if the next
/// player can drop on the cell the neutral stone has just come from (the
/// first stone in sight behind it) and push it on by that group's size
/// into the empty run ahead; where that one drop does not fit, the turn is
/// played.
pub fn outcome_after(pos: &Position, mv: &Move) -> Option<Outcome> {
    let dest = mv.dest?;
    let pusher = pos.to_move;
    let d = dest.index();
    // A cell on the rim has a ray with no cell (a table look-up, before
    // asking which edge).
    if RAY_LEN[d].contains(&0) {
        if dest.is_corner() {
            return Some(Outcome::Win(pusher));
        }
        if let Some(edge) = dest.edges().next() {
            return Some(Outcome::Win(edge.owner()));
        }
    }
    if pos.stones_left == Some(1) {
        return Some(Outcome::Win(pusher));
    }
    let (away, _) = ray(pos.neutral, dest)?;
    let mut stones = pos.bits;
    let drop = mv.drop.index();
    stones[drop / 64] |= 1 << (drop % 64);
    // Behind: on the way the neutral stone came, so empty and on the board.
    let behind = usize::from(STEPS[d][away.opposite().index()]);
    if behind == usize::from(OFF) || has(&stones, behind) {
        return None;
    }
    let mut room = 0;
    let mut c = d;
    loop {
        let next = STEPS[c][away.index()];
        if next == OFF || has(&stones, usize::from(next)) {
            break;
        }
        room += 1;
        c = usize::from(next);
    }
    (room > 0 && group_within::<RUN>(&stones, behind, room).is_some()).then_some(Outcome::Open)
}

/// The destination `mv` names, when it is a legal push: checked on its own
/// ray, without the other five. The neutral stone goes `k` cells along
/// `away` only if the drop's new group has exactly `k` stones, holds the
/// first stone in sight the other way, and the `k` cells are empty (the
/// new stone blocks too). `None` for a move without a destination and for
/// any illegal one: [`destinations`] then looks at every ray and says why.
pub(super) fn written_push(pos: &Position, mv: &Move) -> Option<Hex> {
    let dest = mv.dest?;
    let drop = mv.drop.index();
    if mv.drop == pos.neutral || has(&pos.bits, drop) || !can_drop(pos) {
        return None;
    }
    let (away, k) = ray(pos.neutral, dest)?;
    let mut stones = pos.bits;
    stones[drop / 64] |= 1 << (drop % 64);
    // A ray has at most 14 cells, so `k` fits the small stack.
    let (member, size) = group_within::<RUN>(&stones, drop, k)?;
    if size != k {
        return None;
    }
    let n = pos.neutral.index();
    let sighted = first_in_sight(&stones, n, away.opposite().index())?;
    if !has(&member, sighted) {
        return None;
    }
    let mut c = n;
    for _ in 0..k {
        c = usize::from(STEPS[c][away.index()]);
        if c == usize::from(OFF) || has(&stones, c) {
            return None;
        }
    }
    Some(dest)
}

/// Whether some turn of the side to move wins at once, told without
/// generating its turns; `None` with one stone left in the supply (where
/// every push off the rim stalemates) or the game already over. A push
/// moves the neutral stone along the empty run of one of its rays, so it
/// ends on the rim only at the end of a run that meets no stone: there it
/// wins on a corner or the mover's edge, checked by trying the drops that
/// could push that far. Anywhere else it wins only where the next player
/// is left no move: where [`kept_whatever_the_drop`] shows a push of one
/// left to them, not at all; elsewhere [`one_step_kept`] finds the cells
/// a drop would have to take to leave them none, and only the drops on
/// those cells that push there are played and asked [`Rules::ending`].
pub fn wins_at_once(pos: &Position) -> Option<bool> {
    if !can_drop(pos) {
        return Some(false);
    }
    // On the rim the game is over; with one stone left every push ends it.
    if RAY_LEN[pos.neutral.index()].contains(&0) || pos.stones_left == Some(1) {
        return None;
    }
    let rays = Rays::new(pos);
    let free = minus(ON_BOARD, or(pos.bits, neighbours(pos.bits)));
    let kept = kept_whatever_the_drop(pos, &free);
    for away in Dir::ALL {
        let a = away.index();
        // The run's cells off the rim, and the rim at its end if it meets
        // no stone, kept where a corner or the mover's edge is there.
        let run = rays.run_bits(a);
        let (run, rim) = match rays.first[a] {
            Some(_) => (run, None),
            None => {
                let end = step_away(pos.neutral, away, rays.run[a]);
                (minus(run, bit(end.index())), Some(end))
            }
        };
        let rim = rim.filter(|t| t.is_corner() || t.edges().any(|e| e.owner() == pos.to_move));
        let doubtful = minus(run, kept);
        if doubtful == [0; 4] && rim.is_none() {
            continue;
        }
        let drops = drops_in_sight(pos, &rays, away.opposite());
        let wins_at = |t: Hex, drops: Bits| indices(drops).any(|x| wins_by(pos, Hex::at(x), t));
        for t in indices(doubtful).map(Hex::at) {
            let takes = one_step_kept(pos, &free, t).map_or(drops, |cells| and(drops, cells));
            if wins_at(t, takes) {
                return Some(true);
            }
        }
        if rim.is_some_and(|t| wins_at(t, drops)) {
            return Some(true);
        }
    }
    Some(false)
}

/// The cells off the rim where the next player keeps a push of one
/// whatever single drop the pusher made: where the pushes of one the
/// stones allow, by direction, include one of the sets no drop spoils
/// together ([`KEEPING`]), found for every cell at once by shifting bits.
pub(super) fn kept_whatever_the_drop(pos: &Position, free: &Bits) -> Bits {
    let room = minus(ON_BOARD, pos.bits);
    // By direction e: the cells t with t + e free and t - e empty.
    let one: [Bits; 6] = std::array::from_fn(|e| {
        let d = STEP_DELTA[e];
        and(shifted(*free, -d), shifted(room, d))
    });
    let (sets, len) = &KEEPING;
    sets[..*len].iter().fold([0; 4], |kept, &set| {
        let all = (0..6)
            .filter(|e| set & 1 << e != 0)
            .fold(ON_BOARD, |all, e| and(all, one[e]));
        or(kept, all)
    })
}

/// The smallest sets of directions (bit `e.index()`) whose pushes of one
/// no single drop spoils together ([`SPOILERS`] empty), and how many.
static KEEPING: ([u8; 64], usize) = keeping();

const fn keeping() -> ([u8; 64], usize) {
    let (mut sets, mut len) = ([0u8; 64], 0);
    let mut set = 1;
    while set < 64 {
        let mut smallest = SPOILERS[set] == 0;
        let mut e = 0;
        while e < 6 {
            let less = set & !(1 << e);
            if less != set && less != 0 && SPOILERS[less] == 0 {
                smallest = false;
            }
            e += 1;
        }
        if smallest {
            sets[len] = set as u8;
            len += 1;
        }
        set += 1;
    }
    (sets, len)
}

/// Where the neutral stone stands on the cell `t`, off the rim, after a
/// push: the cells a drop of the pusher would have to take so that the
/// next player has no push of one (a drop touching no stone, next to the
/// neutral stone, with the cell beyond it empty), or `None` where the
/// next player has none whatever the drop (any other push may still be
/// theirs). Empty: every drop leaves one. Which pushes of one the stones
/// allow is six bit tests; the cells a drop must take to spoil them all
/// depend on those six answers only ([`SPOILERS`]).
pub(super) fn one_step_kept(pos: &Position, free: &Bits, t: Hex) -> Option<Bits> {
    let t = t.index();
    let mut open = 0;
    for e in Dir::ALL {
        if pushes_one(&pos.bits, t, e, |c| has(free, c)) {
            open |= 1 << e.index();
        }
    }
    if open == 0 {
        return None;
    }
    let mut takes = [0; 4];
    let mut near = SPOILERS[open];
    while near != 0 {
        let o = near.trailing_zeros() as i16;
        near &= near - 1;
        // Offsets (dq, dr) in -2..=2 as o = (dq + 2) * 5 + dr + 2; a grid
        // index moves by 15 a step in q and 1 in r. A cell past the grid's
        // rows lands on another: one more drop tried, never one missed.
        let x = t as i16 + (o / 5 - 2) * 15 + (o % 5 - 2);
        if (0..GRID as i16).contains(&x) {
            let x = x as usize;
            takes[x / 64] |= 1 << (x % 64);
        }
    }
    Some(takes)
}

/// By the set of directions `e` (bit `e.index()`) in which the next player
/// has a push of one from the neutral stone's cell: the cells, as offsets
/// from it, that a single drop must take to spoil every one of them. The
/// push along `e` drops next to the neutral stone at `+e` and moves it to
/// `-e`: a drop at `+e`, next to `+e` (but on the neutral stone) or at
/// `-e` spoils it. Offsets (dq, dr) are bits (dq + 2) * 5 + dr + 2.
static SPOILERS: [u32; 64] = spoilers();

const fn spoilers() -> [u32; 64] {
    const fn offset(dq: i8, dr: i8) -> u32 {
        1 << ((dq + 2) * 5 + dr + 2) as u32
    }
    let mut by_dir = [0u32; 6];
    let mut e = 0;
    while e < 6 {
        let (dq, dr) = Dir::ALL[e].delta();
        let mut cells = offset(dq, dr) | offset(-dq, -dr);
        let mut f = 0;
        while f < 6 {
            let (fq, fr) = Dir::ALL[f].delta();
            if !(fq == -dq && fr == -dr) {
                cells |= offset(dq + fq, dr + fr);
            }
            f += 1;
        }
        by_dir[e] = cells;
        e += 1;
    }
    let mut table = [0u32; 64];
    let mut set = 1;
    while set < 64 {
        let mut all = u32::MAX;
        let mut e = 0;
        while e < 6 {
            if set & (1 << e) != 0 {
                all &= by_dir[e];
            }
            e += 1;
        }
        table[set] = all;
        set += 1;
    }
    table
}

/// The empty cells whose drop could hold the first stone in sight along
/// `d`: its empty run, and the empty cells next to that stone's group.
fn drops_in_sight(pos: &Position, rays: &Rays, d: Dir) -> Bits {
    let run = rays.run_bits(d.index());
    match rays.first[d.index()] {
        None => run,
        Some((f, _)) => {
            let empty = minus(ON_BOARD, or(pos.bits, bit(pos.neutral.index())));
            or(run, and(neighbours(flood(bit(f.index()), pos.bits)), empty))
        }
    }
}

/// Whether the drop `drop` pushes the neutral stone to `t` and wins there.
fn wins_by(pos: &Position, drop: Hex, t: Hex) -> bool {
    let mv = Move {
        drop,
        dest: Some(t),
        coords: pos.coords,
    };
    if written_push(pos, &mv).is_none() {
        return false;
    }
    let mut after = pos.clone();
    apply(&mut after, drop, t);
    Iqishiqi::ending(&after).is_some_and(|e| e.winner == Some(pos.to_move))
}

/// Whether the side to move, with a stone to drop, can push the neutral
/// stone one cell, as a sign that play goes on: the neutral stone is off
/// the rim (so neither a corner nor an edge has ended the game), and next
/// to it is an empty cell that touches no stone, with the cell beyond the
/// neutral stone empty. A drop there is a group of one, the first stone in
/// sight, with room for its push. `false` says nothing: the full rules
/// are asked then.
fn steps_aside(pos: &Position) -> bool {
    let n = pos.neutral.index();
    if RAY_LEN[n].contains(&0) {
        return false;
    }
    let bits = &pos.bits;
    let free = |c: usize| {
        !has(bits, c) && (STEPS[c].iter()).all(|&nb| nb == OFF || !has(bits, usize::from(nb)))
    };
    Dir::ALL.into_iter().any(|e| pushes_one(bits, n, e, free))
}

/// Whether, the neutral stone at grid index `t` among the white stones
/// `bits`, the player to move can push it one cell against `e`: the cell
/// at `+e` is `free` (empty and touching no stone: a drop there is a group
/// of one, the first stone in sight) and the cell at `-e` is empty.
/// `free` is asked of an on-board cell only.
fn pushes_one(bits: &Bits, t: usize, e: Dir, free: impl Fn(usize) -> bool) -> bool {
    let (c, b) = (STEPS[t][e.index()], STEPS[t][e.opposite().index()]);
    c != OFF && b != OFF && !has(bits, usize::from(b)) && free(usize::from(c))
}

/// The direction and distance of `c` from `from` along one of the six rays.
fn ray(from: Hex, c: Hex) -> Option<(Dir, u32)> {
    let (dq, dr) = (c.q - from.q, c.r - from.r);
    let (d, k) = match (dq, dr) {
        (0, 0) => return None,
        (q, 0) if q > 0 => (Dir::E, q),
        (q, 0) => (Dir::W, -q),
        (q, r) if q == r && q > 0 => (Dir::Nne, q),
        (q, r) if q == r => (Dir::Ssw, -q),
        (0, r) if r > 0 => (Dir::Nnw, r),
        (0, r) => (Dir::Sse, -r),
        _ => return None,
    };
    Some((d, k as u32))
}

/// The destinations a drop gives: at most one per direction, kept inline
/// (no allocation per move played).
#[derive(Clone, Copy, Debug, Default)]
pub struct Dests {
    cells: [Option<Hex>; 6],
    len: usize,
}

impl Dests {
    fn push(&mut self, c: Hex) {
        self.cells[self.len] = Some(c);
        self.len += 1;
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn len(&self) -> usize {
        self.len
    }

    pub fn contains(&self, c: &Hex) -> bool {
        self.iter().any(|d| d == *c)
    }

    pub fn iter(&self) -> impl Iterator<Item = Hex> + '_ {
        self.cells[..self.len].iter().flatten().copied()
    }
}

/// Why a drop gives no push.
enum NoPush {
    NoLineOfSight { size: u32 },
    NoRoom { size: u32, room: u32 },
}

/// The destinations of a drop on `drop` whose new group (`in_group`, of
/// `size` stones) is known, or why there are none: for one drop, with the
/// reason ([`LineScan::pushes`] tries every drop of a position).
fn pushes_of(
    pos: &Position,
    rays: &Rays,
    drop: Hex,
    size: u32,
    in_group: impl Fn(Hex) -> bool,
    out: &mut Dests,
) -> Result<(), NoPush> {
    let on_ray = ray(pos.neutral, drop);
    let mut sighted = false;
    let mut best_room = 0;
    let before = out.len();
    for d in Dir::ALL {
        // The first stone along d once the drop is made.
        let first = match (on_ray, rays.first[d.index()]) {
            (Some((rd, k)), Some((_, fk))) if rd == d && k < fk => Some(drop),
            (Some((rd, _)), None) if rd == d => Some(drop),
            (_, f) => f.map(|(c, _)| c),
        };
        if !first.is_some_and(&in_group) {
            continue;
        }
        sighted = true;
        let away = d.opposite();
        let mut room = rays.run[away.index()];
        if let Some((rd, k)) = on_ray {
            if rd == away && k <= room {
                room = k - 1; // the new stone blocks the push
            }
        }
        best_room = best_room.max(room);
        if room >= size {
            out.push(step_away(pos.neutral, away, size));
        }
    }
    match (out.len() > before, sighted) {
        (true, _) => Ok(()),
        (false, false) => Err(NoPush::NoLineOfSight { size }),
        (false, true) => Err(NoPush::NoRoom {
            size,
            room: best_room,
        }),
    }
}

fn can_drop(pos: &Position) -> bool {
    pos.stones_left != Some(0)
}

/// The legal destinations after a drop on `drop`, or why there are none.
pub fn destinations(pos: &Position, drop: Hex) -> Result<Dests, IqishiqiError> {
    let label = |c: Hex| pos.coords.label(c);
    if drop == pos.neutral {
        return Err(IqishiqiError::NeutralCell { drop: label(drop) });
    }
    if pos.has_stone(drop) {
        return Err(IqishiqiError::Occupied { drop: label(drop) });
    }
    if !can_drop(pos) {
        return Err(IqishiqiError::NoStonesLeft);
    }
    let (member, size) = new_group(pos, drop);
    let mut dests = Dests::default();
    match pushes_of(
        pos,
        &Rays::new(pos),
        drop,
        size,
        |c| has(&member, c.index()),
        &mut dests,
    ) {
        Ok(()) => Ok(dests),
        Err(NoPush::NoLineOfSight { size }) => Err(IqishiqiError::NoLineOfSight {
            drop: label(drop),
            size,
            neutral: label(pos.neutral),
        }),
        Err(NoPush::NoRoom { size, room }) => Err(IqishiqiError::NoRoom {
            drop: label(drop),
            size,
            room,
        }),
    }
}

/// The destination of `mv` once it is checked against every rule: the one
/// written, or the only one the drop gives.
fn checked_dest(pos: &Position, mv: &Move) -> Result<Hex, IqishiqiError> {
    if let Some(dest) = written_push(pos, mv) {
        return Ok(dest);
    }
    let dests = destinations(pos, mv.drop)?;
    let label = |c: Hex| pos.coords.label(c);
    // The destinations' labels, for the error messages only.
    let legal = || {
        let mut l: Vec<String> = dests.iter().map(label).collect();
        l.sort();
        l
    };
    match mv.dest {
        Some(d) if dests.contains(&d) => Ok(d),
        Some(d) => Err(IqishiqiError::Unreachable {
            drop: label(mv.drop),
            dest: label(d),
            legal: legal(),
        }),
        None if dests.len() == 1 => Ok(dests.iter().next().expect("one destination")),
        None => Err(IqishiqiError::Ambiguous {
            drop: label(mv.drop),
            legal: legal(),
        }),
    }
}

/// Drops a stone on `drop` and moves the neutral stone to `dest`, a
/// destination [`destinations`] gives that drop.
fn apply(pos: &mut Position, drop: Hex, dest: Hex) {
    pos.place(drop);
    pos.neutral = dest;
    if let Some(left) = pos.stones_left.as_mut() {
        *left -= 1;
    }
    pos.to_move = pos.to_move.other();
}

impl Rules for Iqishiqi {
    const SETTINGS: &'static [&'static str] = &["Coords", "StoneLimit"];

    type Error = IqishiqiError;

    /// The standard start or the `Position` tag's, in the labels `Coords`
    /// names and with the supply `StoneLimit` sets.
    fn start(tags: &[Tag]) -> Result<Position, SetupError> {
        let coords = match tag_value(tags, "Coords").map(str::to_ascii_lowercase) {
            None => Coords::Ludii,
            Some(v) if v == "ludii" => Coords::Ludii,
            Some(v) if v == "abstractplay" => Coords::AbstractPlay,
            Some(_) => {
                return Err(SetupError {
                    tag: "Coords",
                    message: "Coords is `ludii` (the default) or `abstractplay`".into(),
                    at: None,
                })
            }
        };
        let limit = match tag_value(tags, "StoneLimit") {
            None => None,
            Some(v) => Some(v.trim().parse::<u32>().map_err(|_| SetupError {
                tag: "StoneLimit",
                message: "StoneLimit is the number of white stones in the supply, like `75`".into(),
                at: None,
            })?),
        };
        match tag_value(tags, "Position") {
            None => Ok(Position::start(coords, limit)),
            Some(text) => Position::parse(text, coords, limit).map_err(SetupError::from),
        }
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.to_move
    }

    /// Checks `mv` against every rule and plays it.
    fn play(pos: &mut Position, mv: &Move) -> Result<(), IqishiqiError> {
        let dest = checked_dest(pos, mv)?;
        apply(pos, mv.drop, dest);
        Ok(())
    }

    /// Plays as [`Rules::play`] does, then tells that play goes on where
    /// [`steps_aside`] finds the next player a push of one; otherwise
    /// [`Rules::ending`] is asked.
    fn play_ending(pos: &mut Position, mv: &Move) -> Result<Option<Ending>, IqishiqiError> {
        let dest = checked_dest(pos, mv)?;
        apply(pos, mv.drop, dest);
        if can_drop(pos) && steps_aside(pos) {
            return Ok(None);
        }
        Ok(Self::ending(pos))
    }

    /// A generated turn names its drop and a destination the generator
    /// found for it: nothing to prove, so no ray is looked at again.
    fn play_generated(pos: &mut Position, mv: &Move) -> Result<(), IqishiqiError> {
        match mv.dest {
            Some(dest) => {
                apply(pos, mv.drop, dest);
                Ok(())
            }
            None => Self::play(pos, mv),
        }
    }

    /// Every legal move, each with its destination; `emit` returns `false` to
    /// stop early.
    fn generate(pos: &Position, emit: Generator<'_, Move>) {
        if !can_drop(pos) {
            return;
        }
        let an = LineScan::new(pos);
        let mut dests = Dests::default();
        for i in indices(an.candidates()) {
            dests.clear();
            an.pushes(pos, i, &mut dests);
            let drop = Hex::at(i);
            for dest in dests.iter() {
                let mv = Move {
                    drop,
                    dest: Some(dest),
                    coords: pos.coords,
                };
                if !emit(mv) {
                    return;
                }
            }
        }
    }

    fn has_legal_move(pos: &Position) -> bool {
        if !can_drop(pos) {
            return false;
        }
        // Fast path: a drop on the empty run along a ray is the first stone in
        // sight there; it is legal when the run the other way has room for its
        // group. Most positions have one; only those that do not are searched in
        // full.
        let rays = Rays::new(pos);
        for d in Dir::ALL {
            let room = rays.run[d.opposite().index()];
            if room == 0 {
                continue;
            }
            let mut c = pos.neutral;
            for _ in 0..rays.run[d.index()] {
                c = c.step(d).expect("the run is on the board");
                if group_within::<RUN>(&pos.bits, c.index(), room).is_some() {
                    return true;
                }
            }
        }
        any_move(|emit| Self::generate(pos, emit))
    }

    /// Checked after each move, in this order: the neutral stone on a corner
    /// (the pusher wins), on an edge (its owner wins), the next player without
    /// a legal move (the pusher wins).
    fn ending(pos: &Position) -> Option<Ending> {
        let pusher = pos.to_move.other();
        if pos.neutral.is_corner() {
            return Some(Ending::win(pusher, "corner"));
        }
        if let Some(edge) = pos.neutral.edges().next() {
            return Some(Ending::win(edge.owner(), "edge"));
        }
        if !Self::has_legal_move(pos) {
            return Some(Ending::win(pusher, "stalemate"));
        }
        None
    }
}
