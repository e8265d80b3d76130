//! The report (`gamerec report`, notation/report.md): one self-contained
//! HTML page about an archive — per game type its results by side and the
//! first mover's advantage, game lengths, end reasons, openings, design
//! metrics in the manner of Ludii's and the players' ratings; per player
//! their results by side, opening and opponent, their rating over time and
//! what analyses found in their games. Charts are inline SVG
//! ([`crate::picture::chart`]), each with a table of its numbers.
//!
//! Games are gathered as they are read into a [`Fact`] of a few words
//! each (the records are not kept).

mod page;
mod player;
mod types;

pub use page::{page, PageOptions};

use crate::play::sink::Converted;
use crate::tasks::ratings::date::Date;
use crate::tasks::ratings::{self, players, Archive, Players};
use std::collections::{BTreeMap, HashMap};

/// What the report keeps of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Fact {
    pub game: &'static str,
    pub valid: bool,
    /// The players of the first and second side tags (by [`Players`]).
    pub players: [Option<u32>; 2],
    /// Which side (0 or 1) made the first turn.
    pub first: usize,
    /// The first side's score (1, ½, 0); `None`: unfinished or invalid.
    pub score: Option<f64>,
    /// Why the game ended (`points`, `resignation`, `unfinished`…); empty
    /// for an invalid game.
    pub reason: &'static str,
    pub plies: u32,
    /// The mean number of legal moves over the game's positions.
    pub branching: Option<f64>,
    /// The first turn (standard spelling), by number in
    /// [`Gathered::openings`].
    pub opening: Option<u32>,
    /// The second turn (the reply), the same way.
    pub reply: Option<u32>,
    pub date: Option<Date>,
    /// Per side: missed wins and blunders an analysis marked (analysed
    /// records only).
    pub marks: Option<[[u64; 2]; 2]>,
    /// Lead changes in the analysis's win chances.
    pub leads: Option<u32>,
}

/// An archive gathered for the report.
#[derive(Debug, Default)]
pub struct Gathered {
    /// The rated games (and the players, numbered).
    pub rated: Archive,
    pub facts: Vec<Fact>,
    pub openings: Vec<String>,
    opening_ids: HashMap<String, u32>,
    /// Each game type's side names.
    pub sides: BTreeMap<&'static str, [&'static str; 2]>,
    /// Inputs read, and games of no known game type.
    pub files: usize,
    pub untyped: usize,
    last_file: Option<String>,
}

impl Gathered {
    pub fn new(players: Players) -> Gathered {
        Gathered {
            rated: Archive::new(players),
            ..Gathered::default()
        }
    }

    /// Adds game `g` of input `file`.
    pub fn add(&mut self, file: &str, g: &Converted) {
        if self.last_file.as_deref() != Some(file) {
            self.files += 1;
            self.last_file = Some(file.to_string());
        }
        self.rated.add(file, g);
        let Some(game) = g.game else {
            self.untyped += 1;
            return;
        };
        self.sides.insert(game, g.sides);
        let players = g.sides.map(|side| {
            g.tag(side)
                .and_then(players::normalise)
                .map(|name| self.rated.players.id(&name))
        });
        let trace = g.trace.as_ref();
        let opening = (trace.and_then(|t| t.opening.as_deref()))
            .or(g
                .turns
                .first()
                .filter(|t| t.facts.is_some())
                .map(|t| t.text.as_ref()))
            .filter(|_| g.error.is_none())
            .map(|t| self.opening(t));
        let reply = (trace.and_then(|t| t.reply.as_deref()))
            .filter(|_| g.error.is_none())
            .map(|t| self.opening(t));
        self.facts.push(Fact {
            game,
            valid: g.error.is_none(),
            players,
            first: ratings::first_mover(g),
            score: g.error.is_none().then(|| ratings::first_score(g)).flatten(),
            reason: g.outcome.as_ref().map_or("", |o| o.reason),
            plies: trace.map_or(0, |t| t.replay.plies as u32),
            branching: trace.and_then(|t| t.branching()),
            opening,
            reply,
            date: g.tag("Date").and_then(Date::read),
            marks: g.marks,
            leads: g.leads,
        });
    }

    fn opening(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.opening_ids.get(text) {
            return id;
        }
        let id = self.openings.len() as u32;
        self.openings.push(text.to_string());
        self.opening_ids.insert(text.to_string(), id);
        id
    }

    /// The games of each type, types by name.
    pub fn by_type(&self) -> BTreeMap<&'static str, Vec<&Fact>> {
        let mut out: BTreeMap<&'static str, Vec<&Fact>> = BTreeMap::new();
        for f in &self.facts {
            out.entry(f.game).or_default().push(f);
        }
        out
    }
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WinsDrawsLosses {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl WinsDrawsLosses {
    /// Adds a game scored `score` (1, ½, 0).
    pub fn add(&mut self, score: f64) {
        match score {
            s if s > 0.5 => self.wins += 1,
            s if s < 0.5 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score (a draw ½) and its 95 % Wilson interval; `None` without
    /// a game.
    pub fn score(&self) -> Option<(f64, f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let p = (self.wins as f64 + self.draws as f64 / 2.0) / n;
        let (lo, hi) = crate::play::walk::wilson(p, n);
        Some((p, lo, hi))
    }

    pub fn parts(&self) -> Vec<u64> {
        vec![self.wins, self.draws, self.losses]
    }
}
