//! A minimal Roshi, written only to measure a ceiling for issue 51's Roshi
//! validate target: the default board only (7×7, the central 3×3 zone,
//! slides along free paths), every square a bit of one `u64` (bit
//! `8·rank + file`; file 7 is never on the board, so a step off the side
//! of the board lands on a square no set holds and needs no mask). Each
//! side's pieces and the stone are masks; a slide's path is a flood fill
//! by shifts; a pass is checked on masks; the roshi test slides a window of
//! five along each of the four lines. It checks every rule a replay of the
//! default board checks, and gives the engine's verdict on every game.

use gamerec_rules::games::roshi::{Action, Move};

/// Every square of the 7×7 board.
const BOARD: u64 = 0x007f_7f7f_7f7f_7f7f;
/// The central 3×3: c3–e5.
const ZONE: u64 = 0b11100 << 16 | 0b11100 << 24 | 0b11100 << 32;
/// The board's orthogonal steps as shifts.
const STEPS: [i8; 4] = [1, -1, 8, -8];

/// A square's bit; none for a square off the 7×7 board.
fn bit(s: gamerec_rules::games::roshi::Sq) -> u64 {
    match s.rank < 7 && s.file < 7 {
        true => 1 << (8 * s.rank + s.file),
        false => 0,
    }
}

fn shift(m: u64, by: i8) -> u64 {
    match by >= 0 {
        true => m << by,
        false => m >> -by,
    }
}

/// One action: its kind (0 stone, 1 place, 2 slide, 3 push) and its
/// squares as bits (a square off the board is 0).
#[derive(Clone, Copy)]
pub struct Act {
    kind: u8,
    a: u64,
    b: u64,
}

/// A turn: up to three actions (three is refused, as the engine refuses
/// it); none is a pass.
#[derive(Clone, Copy)]
pub struct Turn {
    n: u8,
    acts: [Act; 3],
}

/// The engine's turns in the probe's form.
pub fn turns(games: &[Vec<Move>]) -> Vec<Vec<Turn>> {
    let act = |a: &Action| match *a {
        Action::Stone(s) => Act { kind: 0, a: bit(s), b: 0 },
        Action::Place(s) => Act { kind: 1, a: bit(s), b: 0 },
        Action::Slide(f, t) => Act { kind: 2, a: bit(f), b: bit(t) },
        Action::Push(p, t) => Act { kind: 3, a: bit(p), b: bit(t) },
    };
    let none = Act { kind: 9, a: 0, b: 0 };
    (games.iter())
        .map(|g| {
            (g.iter())
                .map(|m| {
                    let mut acts = [none; 3];
                    for (i, a) in m.actions().iter().enumerate() {
                        acts[i] = act(a);
                    }
                    Turn { n: m.actions().len() as u8, acts }
                })
                .collect()
        })
        .collect()
}

#[derive(Clone, Copy)]
pub struct Pos {
    pieces: [u64; 2],
    stone: u64,
    supply: [u8; 2],
    side: usize,
    setup: bool,
    last_pass: bool,
}

impl Pos {
    pub fn start() -> Pos {
        Pos {
            pieces: [0; 2],
            stone: 0,
            supply: [8; 2],
            side: 0,
            setup: true,
            last_pass: false,
        }
    }

    fn empty(&self) -> u64 {
        BOARD & !(self.pieces[0] | self.pieces[1] | self.stone)
    }

    fn place(&mut self, s: u64) -> Result<(), ()> {
        if self.supply[self.side] == 0 || self.empty() & s == 0 {
            return Err(());
        }
        self.pieces[self.side] |= s;
        self.supply[self.side] -= 1;
        Ok(())
    }

    fn slide(&mut self, from: u64, to: u64) -> Result<(), ()> {
        let empty = self.empty();
        if self.pieces[self.side] & from == 0 || empty & to == 0 {
            return Err(());
        }
        let through = empty | from;
        let mut r = from;
        loop {
            let n = (r | r << 1 | r >> 1 | r << 8 | r >> 8) & through;
            if n & to != 0 {
                break;
            }
            if n == r {
                return Err(());
            }
            r = n;
        }
        self.pieces[self.side] ^= from | to;
        Ok(())
    }

    fn push(&mut self, p: u64, t: u64) -> Result<(), ()> {
        if self.pieces[self.side] & p == 0 {
            return Err(());
        }
        let Some(&d) = STEPS.iter().find(|&&d| shift(p, d) == t && t != 0) else {
            return Err(());
        };
        let dest = shift(t, d) & self.empty();
        if dest == 0 {
            return Err(());
        }
        if self.stone & t != 0 {
            if ZONE & dest == 0 {
                return Err(());
            }
            self.stone = dest;
            return Ok(());
        }
        let owner = match self.pieces[0] & t != 0 {
            true => 0,
            false if self.pieces[1] & t != 0 => 1,
            false => return Err(()),
        };
        self.pieces[owner] ^= t | dest;
        Ok(())
    }

    /// Whether the side to move has any action (a pass is legal only
    /// without one).
    fn has_action(&self) -> bool {
        let (mine, empty) = (self.pieces[self.side], self.empty());
        if self.supply[self.side] > 0 && empty != 0 {
            return true;
        }
        let pieces = self.pieces[0] | self.pieces[1];
        STEPS.iter().any(|&d| {
            let next = shift(mine, d);
            next & empty != 0
                || shift(next & pieces, d) & empty != 0
                || shift(next & self.stone, d) & empty & ZONE != 0
        })
    }

    /// Whether `side` has five in a row holding the stone, the rest its own.
    fn roshi(&self, side: usize) -> bool {
        let m = self.pieces[side] | self.stone;
        [1u32, 8, 9, 7].iter().any(|&d| {
            let starts = m & m >> d & m >> (2 * d) & m >> (3 * d) & m >> (4 * d);
            let windows = starts | starts << d | starts << (2 * d) | starts << (3 * d) | starts << (4 * d);
            windows & self.stone != 0
        })
    }

    fn normal(&mut self, t: &Turn) -> Result<(), ()> {
        if t.n > 2 || (t.n == 2 && t.acts[0].kind == t.acts[1].kind) {
            return Err(());
        }
        for a in &t.acts[..t.n as usize] {
            match a.kind {
                1 => self.place(a.a)?,
                2 => self.slide(a.a, a.b)?,
                3 => self.push(a.a, a.b)?,
                _ => return Err(()),
            }
        }
        Ok(())
    }

    fn take_field(&mut self, t: &Turn) -> Result<(), ()> {
        let [a, b, _] = &t.acts;
        if t.n != 2 || b.kind != 1 {
            return Err(());
        }
        match (self.side, a.kind) {
            (0, 0) if a.a & ZONE & self.empty() != 0 => self.stone = a.a,
            (1, 1) => self.place(a.a)?,
            _ => return Err(()),
        }
        self.place(b.a)?;
        self.setup = self.side == 0;
        Ok(())
    }

    /// Plays `t`: what it ended (0 a draw, 1 Red won, 2 Blue), or nothing.
    pub fn play(&mut self, t: &Turn) -> Result<Option<u8>, ()> {
        let mut next = *self;
        if self.setup {
            next.take_field(t)?;
        } else if t.n == 0 {
            if self.has_action() {
                return Err(());
            }
            if self.last_pass {
                return Ok(Some(0));
            }
            next.last_pass = true;
        } else {
            next.normal(t)?;
            next.last_pass = false;
        }
        next.side ^= 1;
        *self = next;
        Ok(match (self.roshi(0), self.roshi(1)) {
            (true, false) => Some(1),
            (false, true) => Some(2),
            _ => None,
        })
    }
}
