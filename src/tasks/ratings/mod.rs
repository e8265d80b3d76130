//! Ratings (`gamerec ratings`, notation/ratings.md): the players of each
//! game type rated from their finished games, in date order, by Elo,
//! Glicko-2, TrueSkill and Weng-Lin (the `skillratings` crate) and by a
//! Bradley–Terry model with a first-mover advantage fitted by maximum
//! likelihood ([`bt`]); `--predict` scores each system on the archive.
//!
//! What a game contributes is a [`RatedGame`]: its game type, its two players
//! (names normalised, aliases merged), its date, who moved first and the
//! first side's score. Ratings need every game before they can be written,
//! so an archive costs a few words a game, never its records.

pub mod bt;
pub mod date;
pub mod players;
pub mod predict;
pub mod systems;
pub mod table;

use crate::envelope::record::ResultToken;
use crate::play::sink::Converted;
use date::Date;
pub use players::Players;
use std::collections::BTreeMap;

/// One finished game between two named players, as ratings see it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The rules' name.
    pub game: &'static str,
    /// The input and the game's 1-based place in it.
    pub file: u32,
    pub index: usize,
    /// The `Date` tag, read (`None`: absent or unreadable).
    pub date: Option<Date>,
    /// The players of the first and the second side tag, by their number
    /// in [`Players`].
    pub players: [u32; 2],
    /// Which of the two made the game's first turn (0 or 1).
    pub first: usize,
    /// The first side's score: 1 a win, 0.5 a draw, 0 a loss.
    pub score: f64,
}

/// Why a game is not rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// An invalid record (its error is reported as everywhere).
    Invalid,
    /// No `Game` tag naming one of the five games.
    NoGame,
    /// Neither won nor drawn (`*`).
    Unfinished,
    /// A side tag is missing or empty.
    NoPlayer,
    /// The same player on both sides.
    SamePlayer,
}

impl Skip {
    pub fn name(self) -> &'static str {
        match self {
            Skip::Invalid => "invalid",
            Skip::NoGame => "no game type",
            Skip::Unfinished => "unfinished",
            Skip::NoPlayer => "without two players",
            Skip::SamePlayer => "one player on both sides",
        }
    }
}

/// The first side's score in a replayed game: from the winner the rules
/// (or a declared resignation) gave, or a draw; `None` when unfinished.
pub(crate) fn first_score(g: &Converted) -> Option<f64> {
    let outcome = g.outcome.as_ref()?;
    match outcome.winner {
        Some(w) if w == g.sides[0] => Some(1.0),
        Some(_) => Some(0.0),
        None => (outcome.result == ResultToken::Draw).then_some(0.5),
    }
}

/// Which side (0 the first side tag, 1 the second) made the first turn.
pub fn first_mover(g: &Converted) -> usize {
    g.trace.as_ref().map_or(0, |t| {
        let side = if t.starts_second {
            t.first_mover.other()
        } else {
            t.first_mover
        };
        side.index()
    })
}

/// The games of an archive, gathered as they are read.
#[derive(Debug, Default)]
pub struct Archive {
    pub players: Players,
    /// Input names, by number.
    pub files: Vec<String>,
    pub games: Vec<RatedGame>,
    /// Games not rated, per reason and game type ("" when unknown).
    pub skipped: BTreeMap<(Skip, &'static str), usize>,
}

impl Archive {
    pub fn new(players: Players) -> Archive {
        Archive {
            players,
            ..Archive::default()
        }
    }

    /// Adds game `g` of input `file`, or counts why it is not rated.
    pub fn add(&mut self, file: &str, g: &Converted) {
        match self.played(file, g) {
            Ok(p) => self.games.push(p),
            Err(why) => *self.skipped.entry((why, g.game.unwrap_or(""))).or_default() += 1,
        }
    }

    fn played(&mut self, file: &str, g: &Converted) -> Result<RatedGame, Skip> {
        let game = g.game.ok_or(Skip::NoGame)?;
        if g.error.is_some() {
            return Err(Skip::Invalid);
        }
        let score = first_score(g).ok_or(Skip::Unfinished)?;
        let name = |side: &str| g.tag(side).and_then(players::normalise);
        let (Some(a), Some(b)) = (name(g.sides[0]), name(g.sides[1])) else {
            return Err(Skip::NoPlayer);
        };
        let players = [self.players.id(&a), self.players.id(&b)];
        if players[0] == players[1] {
            return Err(Skip::SamePlayer);
        }
        if self.files.last().is_none_or(|f| f != file) {
            self.files.push(file.to_string());
        }
        Ok(RatedGame {
            game,
            file: (self.files.len() - 1) as u32,
            index: g.index,
            date: g.tag("Date").and_then(Date::read),
            players,
            first: first_mover(g),
            score,
        })
    }

    /// The games of each game type, in rating order: by date, undated
    /// games after the dated ones, ties in input order (the sort is
    /// stable).
    pub fn by_type(&self) -> BTreeMap<&'static str, Vec<&RatedGame>> {
        let mut out: BTreeMap<&'static str, Vec<&RatedGame>> = BTreeMap::new();
        for p in &self.games {
            out.entry(p.game).or_default().push(p);
        }
        for games in out.values_mut() {
            games.sort_by_key(|p| (p.date.is_none(), p.date));
        }
        out
    }

    /// How many games of type `game` are undated.
    pub fn undated(&self, game: &str) -> usize {
        (self.games.iter())
            .filter(|p| p.game == game && p.date.is_none())
            .count()
    }
}

/// Every game type's ratings, types in name order.
pub fn rate(archive: &Archive, opts: systems::RatingOptions) -> Vec<systems::TypeRatings> {
    (archive.by_type().into_iter())
        .map(|(game, games)| systems::rate(game, &games, opts))
        .collect()
}

/// What the players' table is ordered by (highest first; names A to Z).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sort {
    BradleyTerry,
    Elo,
    Glicko2,
    TrueSkill,
    WengLin,
    Games,
    Name,
}

impl Sort {
    /// The orders' names, as `--sort` takes them.
    pub const NAMES: [&'static str; 7] = [
        "bradley-terry",
        "elo",
        "glicko2",
        "trueskill",
        "weng-lin",
        "games",
        "name",
    ];

    pub fn read(text: &str) -> Option<Sort> {
        let all = [
            Sort::BradleyTerry,
            Sort::Elo,
            Sort::Glicko2,
            Sort::TrueSkill,
            Sort::WengLin,
            Sort::Games,
            Sort::Name,
        ];
        let i = Sort::NAMES.iter().position(|n| *n == text.trim())?;
        Some(all[i])
    }
}

/// The players of `t` with at least `min_games` rated games, in the order
/// `sort` gives, ties by name; ordered by a rating, the provisional ones
/// ([`systems::Rated::provisional`]) come after the established ones, as
/// a leaderboard lists them.
pub fn order(
    archive: &Archive,
    t: &systems::TypeRatings,
    sort: Sort,
    min_games: u32,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..t.players.len())
        .filter(|&i| t.players[i].games >= min_games)
        .collect();
    let ranked = !matches!(sort, Sort::Games | Sort::Name);
    let late = |i: usize| ranked && t.players[i].provisional();
    let name = |i: usize| archive.players.name(t.players[i].player).to_lowercase();
    let value = |i: usize| {
        let r = &t.players[i];
        match sort {
            Sort::BradleyTerry => r.bt,
            Sort::Elo => r.elo,
            Sort::Glicko2 => r.glicko2.rating,
            Sort::TrueSkill => r.trueskill.rating,
            Sort::WengLin => r.weng_lin.rating,
            Sort::Games => f64::from(r.games),
            Sort::Name => 0.0,
        }
    };
    order.sort_by(|&x, &y| {
        (late(x).cmp(&late(y)))
            .then_with(|| value(y).total_cmp(&value(x)))
            .then_with(|| name(x).cmp(&name(y)))
    });
    order
}
