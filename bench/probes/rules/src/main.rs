//! How fast can the rules alone replay an archive? A probe for issue 51
//! (the validate targets), not part of the product.
//!
//!     bench/probes/rules.sh [GAME...]
//!
//! The archive's moves are read once, up front, by the game's own notation
//! (the moves of each game up to the first that does not read or play).
//! Then, each timed alone (median of seven rounds):
//! - **engine**: gamerec's own `play_ending` on every move: the rules'
//!   share of `validate`, without the reading, the turn loop or the
//!   parsing;
//! - **probe** (Oshi only): a minimal Oshi on masks, written here only to
//!   measure a ceiling for the design of a compact position: each side's
//!   squares and the tall pieces as `u128` masks, ids by square, each
//!   side's ids contiguous (so the no-return snapshot is one 8-byte copy),
//!   the path tested on a mask, pushes walked on the ray, the end by the
//!   pigeonhole test on masks. Under the default reading of the no-return
//!   rule only, from the standard start.
//!
//! - **probe** (Roshi): a minimal Roshi on the default 7×7 board, every
//!   square a bit of one `u64` (see src/roshi.rs): slides by a flood fill
//!   of shifts, the roshi test by a window of five slid along each line,
//!   a pass checked on masks.
//!
//! A probe must give the engine's verdict on every game (the ply it
//! ended at and its winner, or the ply of the first illegal move); it
//! prints how many differ.

use gamerec_rules::game::{Notation, Rules, Side};
use gamerec_rules::games::iqishiqi::Iqishiqi;
use gamerec_rules::games::oshi::{line, path, step_bits, Dir, Oshi, Square, BOARD};
use gamerec_rules::games::retsami::Retsami;
use gamerec_rules::games::roshi::Roshi;
use std::time::Instant;

mod roshi;

/// One game's moves as square pairs (the probe's own decoding).
type Squares = Vec<(u8, u8)>;

/// The moves of every game (`c2-c3` squares as indices), in order.
fn decode(text: &str) -> Vec<Squares> {
    let sq = |s: &[u8]| Square::parse(std::str::from_utf8(s).ok()?).map(|s| s.index() as u8);
    (turns(text).iter())
        .map(|g| {
            (g.iter())
                .filter_map(|t| {
                    let (from, to) = t.split_once('-')?;
                    Some((sq(from.as_bytes())?, sq(to.as_bytes())?))
                })
                .collect()
        })
        .collect()
}

/// A game's verdict: the ply it ended at and the winner (0 none, 1 Red,
/// 2 White), or the ply of an illegal move with winner 9.
type Verdict = (usize, u8);

/// The turns of every game as written (move numbers and results left out).
fn turns(text: &str) -> Vec<Vec<&str>> {
    let mut games: Vec<Vec<&str>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Game ") {
            games.push(Vec::new());
        }
        if line.starts_with('[') {
            continue;
        }
        let Some(game) = games.last_mut() else {
            continue;
        };
        for t in line.split_ascii_whitespace() {
            let number = t.ends_with('.') && t.as_bytes()[0].is_ascii_digit();
            if !number && !matches!(t, "*" | "1-0" | "0-1" | "1/2-1/2") {
                game.push(t);
            }
        }
    }
    games
}

/// Every game's moves, read by the game's own notation on the way (up to
/// the first that does not read or play).
fn moves<G: Rules + Notation>(games: &[Vec<&str>]) -> Vec<Vec<G::Move>> {
    let start = G::start(&[]).unwrap();
    (games.iter())
        .map(|g| {
            let mut pos = start.clone();
            let mut out = Vec::new();
            for t in g {
                let Ok(mv) = G::parse_move(&pos, t) else {
                    break;
                };
                if G::play(&mut pos, &mv).is_err() {
                    break;
                }
                out.push(mv);
            }
            out
        })
        .collect()
}

/// gamerec's own `play_ending` over every move of every game.
fn engine<G: Rules>(games: &[Vec<G::Move>]) -> Vec<Verdict> {
    let start = G::start(&[]).unwrap();
    let win = |s: Option<Side>| s.map_or(0, |s| 1 + s.index() as u8);
    (games.iter())
        .map(|g| {
            let mut pos = start.clone();
            for (ply, mv) in g.iter().enumerate() {
                match G::play_ending(&mut pos, mv) {
                    Err(_) => return (ply, 9),
                    Ok(Some(e)) => return (ply + 1, win(e.winner)),
                    Ok(None) => {}
                }
            }
            (g.len(), 0)
        })
        .collect()
}

/// No piece (an id) or no square.
const NONE: u8 = 0xFF;

/// The change of square index of a step in each direction.
const STEP: [i32; 4] = [9, 1, -9, -1];

#[derive(Clone)]
struct Pos {
    occ: [u128; 2],
    tall: [u128; 2], // height >= 2, height 3
    id_at: [u8; 81],
    at: [u8; 16],
    forbid: [u8; 16],
    score: [u8; 2],
    side: usize,
}

impl Pos {
    fn start() -> Pos {
        let mut p = Pos {
            occ: [0; 2],
            tall: [0; 2],
            id_at: [NONE; 81],
            at: [NONE; 16],
            forbid: [NONE; 16],
            score: [0; 2],
            side: 0,
        };
        let mut n = [0usize; 2];
        let mut put = |p: &mut Pos, sq: u8, side: usize, h: u8| {
            let id = side * 8 + n[side];
            n[side] += 1;
            p.occ[side] |= 1 << sq;
            if h >= 2 {
                p.tall[0] |= 1 << sq;
            }
            if h == 3 {
                p.tall[1] |= 1 << sq;
            }
            p.id_at[sq as usize] = id as u8;
            p.at[id] = sq;
        };
        // Red: a1 i1 (3), c2 g2 (2), d2 e2 f2 e3 (1); White mirrored.
        for (f, r, h) in [
            (0, 0, 3),
            (8, 0, 3),
            (2, 1, 2),
            (6, 1, 2),
            (3, 1, 1),
            (4, 1, 1),
            (5, 1, 1),
            (4, 2, 1),
        ] {
            put(&mut p, r * 9 + f, 0, h);
            put(&mut p, (8 - r) * 9 + f, 1, h);
        }
        p
    }

    fn height(&self, sq: u32) -> u8 {
        1 + (self.tall[0] >> sq & 1) as u8 + (self.tall[1] >> sq & 1) as u8
    }

    /// Plays `from`-`to`: `Err` when illegal, else whether the game ended
    /// and who won (1 Red, 2 White).
    fn play(&mut self, from: u8, to: u8) -> Result<Option<u8>, ()> {
        let me = self.side;
        let (f, t) = (
            Square::from_index(from).ok_or(())?,
            Square::from_index(to).ok_or(())?,
        );
        let line = line(f, t);
        if self.occ[me] >> from & 1 == 0 || line.is_none() {
            return Err(());
        }
        let (dir, d) = line.ok_or(())?;
        let h = self.height(u32::from(from));
        if d > h {
            return Err(());
        }
        let id = self.id_at[usize::from(from)];
        if self.forbid[usize::from(id)] == to {
            return Err(()); // checked after the pushes in gamerec; same verdict
        }
        let all = self.occ[0] | self.occ[1];
        let path = path(f, t, dir, d);
        // The no-return snapshot: where the mover's pieces stand now.
        let (lo, hi) = (me * 8, me * 8 + 8);
        let snapshot: [u8; 8] = self.at[lo..hi].try_into().unwrap();
        if all & path == 0 {
            let (f, t) = (1u128 << from, 1u128 << to);
            self.occ[me] ^= f | t;
            for tall in &mut self.tall {
                if *tall & f != 0 {
                    *tall ^= f | t;
                }
            }
            self.id_at[usize::from(to)] = id;
            self.id_at[usize::from(from)] = NONE;
            self.at[usize::from(id)] = to;
        } else {
            self.push(from, dir as usize, d, h)?;
        }
        self.forbid[lo..hi].copy_from_slice(&snapshot);
        self.side ^= 1;
        Ok(self.ending())
    }

    /// A move that pushes: walked on the ray, one step at a time.
    fn push(&mut self, from: u8, dir: usize, d: u8, h: u8) -> Result<(), ()> {
        let (f, r) = (i32::from(from % 9), i32::from(from / 9));
        let room = [8 - r, 8 - f, r, f][dir] as usize;
        let mut cells = [NONE; 10]; // ids along the ray, the mover first
        for (k, c) in cells.iter_mut().enumerate().take(room + 1) {
            *c = self.id_at[(i32::from(from) + STEP[dir] * k as i32) as usize];
        }
        let mut scored = [0u8; 2];
        for m in 0..usize::from(d) {
            let train = cells[m + 1..=room]
                .iter()
                .take_while(|&&c| c != NONE)
                .count();
            if train > usize::from(h) {
                return Err(());
            }
            let last = m + train;
            if last == room {
                let off = cells[last];
                let owner = usize::from(off >= 8);
                scored[owner ^ 1] += self.height(u32::from(self.at[usize::from(off)]));
                self.at[usize::from(off)] = NONE;
            } else {
                cells[last + 1] = cells[last];
            }
            for j in (m + 1..=last).rev() {
                cells[j] = cells[j - 1];
            }
            cells[m] = NONE;
        }
        // Write the ray back: heights by id from where the pieces stood.
        let mut heights = [0u8; 10];
        for (k, &c) in cells.iter().enumerate().take(room + 1) {
            if c != NONE && self.at[usize::from(c)] != NONE {
                heights[k] = self.height(u32::from(self.at[usize::from(c)]));
            }
        }
        for (k, &c) in cells.iter().enumerate().take(room + 1) {
            let sq = (i32::from(from) + STEP[dir] * k as i32) as usize;
            let bit = 1u128 << sq;
            self.occ[0] &= !bit;
            self.occ[1] &= !bit;
            self.tall[0] &= !bit;
            self.tall[1] &= !bit;
            self.id_at[sq] = c;
            if c == NONE {
                continue;
            }
            self.occ[usize::from(c >= 8)] |= bit;
            if heights[k] >= 2 {
                self.tall[0] |= bit;
            }
            if heights[k] == 3 {
                self.tall[1] |= bit;
            }
            self.at[usize::from(c)] = sq as u8;
        }
        self.score[0] += scored[0];
        self.score[1] += scored[1];
        Ok(())
    }

    fn ending(&self) -> Option<u8> {
        let mover = self.side ^ 1;
        if self.score[mover] >= 7 {
            return Some(1 + mover as u8);
        }
        if self.score[self.side] >= 7 {
            return Some(1 + self.side as u8);
        }
        let mine = self.occ[self.side];
        let empty = !(self.occ[0] | self.occ[1]) & BOARD;
        let next = Dir::ALL.into_iter().fold(0, |n, d| n | step_bits(mine, d));
        if (next & empty & BOARD).count_ones() > mine.count_ones() || self.any_move() {
            return None;
        }
        Some(1 + mover as u8)
    }

    fn any_move(&self) -> bool {
        let mut mine = self.occ[self.side];
        while mine != 0 {
            let from = mine.trailing_zeros() as u8;
            mine &= mine - 1;
            for to in 0..81u8 {
                if self.clone().play(from, to).is_ok() {
                    return true;
                }
            }
        }
        false
    }
}

fn probe(games: &[Squares]) -> Vec<Verdict> {
    let start = Pos::start();
    games
        .iter()
        .map(|g| {
            let mut pos = start.clone();
            for (ply, &(f, t)) in g.iter().enumerate() {
                match pos.play(f, t) {
                    Err(()) => return (ply, 9),
                    Ok(Some(w)) => return (ply + 1, w),
                    Ok(None) => {}
                }
            }
            (g.len(), 0)
        })
        .collect()
}

fn best(rounds: usize, mut f: impl FnMut() -> Vec<Verdict>) -> (f64, Vec<Verdict>) {
    let mut times = Vec::new();
    let mut out = Vec::new();
    for _ in 0..rounds {
        let t = Instant::now();
        out = std::hint::black_box(f());
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], out)
}

/// Times the engine alone over the archive's moves; gives back the moves,
/// the engine's verdicts and the number of plies for a probe to match.
fn measure<G: Rules + Notation>(text: &str) -> (Vec<Vec<G::Move>>, Vec<Verdict>, usize) {
    let games = moves::<G>(&turns(text));
    let plies: usize = games.iter().map(Vec::len).sum();
    let (te, ve) = best(7, || engine::<G>(&games));
    println!("{} games, {plies} plies (median of 7 rounds)", games.len());
    println!("engine  {te:.3} s  {:.1} ns a ply", te * 1e9 / plies as f64);
    (games, ve, plies)
}

/// Prints a probe's time and how many of its verdicts differ from the
/// engine's.
fn report(engine: &[Verdict], plies: usize, (tp, vp): (f64, Vec<Verdict>)) {
    let differ = engine.iter().zip(&vp).filter(|(a, b)| a != b).count();
    println!("probe   {tp:.3} s  {:.1} ns a ply", tp * 1e9 / plies as f64);
    println!("verdicts that differ: {differ} of {}", engine.len());
}

/// The minimal Roshi over every game, as `probe` does for Oshi.
fn roshi_probe(games: &[Vec<roshi::Turn>]) -> Vec<Verdict> {
    (games.iter())
        .map(|g| {
            let mut pos = roshi::Pos::start();
            for (ply, t) in g.iter().enumerate() {
                match pos.play(t) {
                    Err(()) => return (ply, 9),
                    Ok(Some(w)) => return (ply + 1, w),
                    Ok(None) => {}
                }
            }
            (g.len(), 0)
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, game, path] = &args[..] else {
        panic!("usage: rules-probe GAME ARCHIVE");
    };
    let text = std::fs::read_to_string(path).expect("readable");
    match game.as_str() {
        "oshi" => {
            let (_, ve, plies) = measure::<Oshi>(&text);
            let squares = decode(&text);
            report(&ve, plies, best(7, || probe(&squares)));
        }
        "retsami" => drop(measure::<Retsami>(&text)),
        "iqishiqi" => drop(measure::<Iqishiqi>(&text)),
        "roshi" => {
            let (games, ve, plies) = measure::<Roshi>(&text);
            let turns = roshi::turns(&games);
            report(&ve, plies, best(7, || roshi_probe(&turns)));
        }
        _ => panic!("oshi, retsami, iqishiqi or roshi"),
    }
}
