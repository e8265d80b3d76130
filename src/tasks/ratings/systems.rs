//! The rating systems run over one game type's games in rating order:
//! Elo, Glicko-2 (rating periods), TrueSkill and Weng-Lin through the
//! `skillratings` crate, the Bradley–Terry fit ([`super::bt`]), each
//! player's record, the history rows and (`--predict`) each system's
//! prediction of every game from the ratings before it.

use super::bt::{self, Fit};
use super::date::Date;
use super::predict::{Score, System, SYSTEMS};
use super::RatedGame;
use skillratings::elo::{self, EloConfig, EloRating};
use skillratings::glicko2::{self, Glicko2Config, Glicko2Rating};
use skillratings::trueskill::{self, TrueSkillConfig, TrueSkillRating};
use skillratings::weng_lin::{self, WengLinConfig, WengLinRating};
use skillratings::Outcomes;
use std::collections::HashMap;

/// How Elo's K is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloK {
    /// The same K for every game, from 1500.
    Fixed(f64),
    /// AbstractPlay's live schedule, from 1200: K 40 for a player's first
    /// 10 rated games, 30 up to 20, 25 up to 40, then 20 (each player's
    /// own K).
    AbstractPlay,
}

impl EloK {
    /// The largest fixed K (a rating moves at most this much a game; past
    /// it ratings run to infinity and NaN over a long archive).
    pub(crate) const MAX_K: f64 = 1000.0;

    /// `--elo-k`'s value: a number above 0 and at most [`EloK::MAX_K`], or
    /// `abstractplay`.
    pub fn read(text: &str) -> Result<EloK, String> {
        match text.trim() {
            "abstractplay" => Ok(EloK::AbstractPlay),
            t => match t.parse::<f64>() {
                Ok(k) if k > 0.0 && k <= Self::MAX_K => Ok(EloK::Fixed(k)),
                _ => Err(format!(
                    "a number above 0 and at most {}, or `abstractplay`",
                    Self::MAX_K
                )),
            },
        }
    }

    fn start(self) -> f64 {
        match self {
            EloK::Fixed(_) => 1500.0,
            EloK::AbstractPlay => 1200.0,
        }
    }

    fn k(self, games: u32) -> f64 {
        match self {
            EloK::Fixed(k) => k,
            EloK::AbstractPlay => match games {
                0..=9 => 40.0,
                10..=19 => 30.0,
                20..=39 => 25.0,
                _ => 20.0,
            },
        }
    }
}

/// Glicko-2's rating periods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    Day,
    /// Seven days from Monday.
    Week,
    Month,
    /// Every N games in rating order, dates or not.
    Games(usize),
}

impl Period {
    /// `--period`'s value: `day`, `week`, `month` or a number of games.
    pub fn read(text: &str) -> Result<Period, String> {
        match text.trim() {
            "day" => Ok(Period::Day),
            "week" => Ok(Period::Week),
            "month" => Ok(Period::Month),
            t => match t.parse::<usize>() {
                Ok(n) if n > 0 => Ok(Period::Games(n)),
                _ => Err("`day`, `week`, `month` or a number of games".into()),
            },
        }
    }

    /// The period a game falls in; an undated game is a period of its own
    /// (`i` is its place in rating order).
    fn of(self, date: Option<Date>, i: usize) -> (i64, usize) {
        let d = match (self, date) {
            (Period::Games(n), _) => return (0, i / n.max(1)),
            (_, None) => return (i64::MAX, i),
            (_, Some(d)) => d,
        };
        let key = match self {
            Period::Day => d.days(),
            // 1970-01-05 was a Monday.
            Period::Week => (d.days() - 4).div_euclid(7),
            _ => i64::from(d.year) * 13 + i64::from(d.month),
        };
        (key, 0)
    }
}

/// The choices a rating run takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingOptions {
    pub elo: EloK,
    pub period: Period,
    pub history: bool,
    pub predict: bool,
}

impl Default for RatingOptions {
    fn default() -> RatingOptions {
        RatingOptions {
            elo: EloK::Fixed(32.0),
            period: Period::Month,
            history: false,
            predict: false,
        }
    }
}

/// One player's ratings and record in one game type.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    pub player: u32,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub first: Option<Date>,
    pub last: Option<Date>,
    pub elo: f64,
    pub glicko2: Glicko2Rating,
    pub trueskill: TrueSkillRating,
    pub weng_lin: WengLinRating,
    /// Bradley–Terry on Elo's scale (1500 the virtual opponent) and its
    /// standard error.
    pub bt: f64,
    pub bt_se: f64,
}

/// Glicko-2's deviation above which a rating is provisional: lichess's
/// convention (a new player starts at 350 and falls below 110 after a
/// dozen or so games).
pub(crate) const PROVISIONAL_DEVIATION: f64 = 110.0;

impl Rated {
    /// Too few games to rank the player among the established ones: their
    /// Glicko-2 deviation is above [`PROVISIONAL_DEVIATION`].
    pub fn provisional(&self) -> bool {
        self.glicko2.deviation > PROVISIONAL_DEVIATION
    }
}

/// A player's ratings after one game (`--history`); Glicko-2's after the
/// game's rating period.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingStep {
    /// The game's place in rating order.
    pub game: usize,
    pub player: u32,
    pub opponent: u32,
    /// 0: the player held the first side tag.
    pub side: usize,
    pub moved_first: bool,
    pub score: f64,
    pub elo: f64,
    pub glicko2: Glicko2Rating,
    pub trueskill: TrueSkillRating,
    pub weng_lin: WengLinRating,
}

/// One game type's ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeRatings {
    pub game: &'static str,
    /// Its games in rating order.
    pub games: Vec<RatedGame>,
    pub players: Vec<Rated>,
    /// The first mover's advantage on Elo's scale, and its standard error.
    pub advantage: f64,
    pub advantage_se: f64,
    pub exact_se: bool,
    pub history: Vec<RatingStep>,
    /// Per system, how well it predicted the games (`--predict`).
    pub predicted: Vec<(System, Score)>,
}

/// Natural log-odds to Elo points.
pub(crate) const ELO_SCALE: f64 = 400.0 / std::f64::consts::LN_10;

fn outcome(score: f64) -> Outcomes {
    match score {
        s if s > 0.5 => Outcomes::WIN,
        s if s < 0.5 => Outcomes::LOSS,
        _ => Outcomes::DRAW,
    }
}

/// The state of every system while games are rated.
struct State {
    opts: RatingOptions,
    local: HashMap<u32, usize>,
    ids: Vec<u32>,
    elo: Vec<(f64, u32)>,
    glicko2: Vec<Glicko2Rating>,
    trueskill: Vec<TrueSkillRating>,
    weng_lin: Vec<WengLinRating>,
    record: Vec<Rated>,
    /// This period's results per player, and the history rows to patch.
    period: Vec<(usize, Glicko2Rating, Outcomes)>,
    period_steps: Vec<(usize, usize)>,
    history: Vec<RatingStep>,
    bt_games: Vec<bt::Pairing>,
    bt_fit: Option<Fit>,
    scores: [Score; SYSTEMS.len()],
}

impl State {
    fn new(opts: RatingOptions) -> State {
        State {
            opts,
            local: HashMap::new(),
            ids: Vec::new(),
            elo: Vec::new(),
            glicko2: Vec::new(),
            trueskill: Vec::new(),
            weng_lin: Vec::new(),
            record: Vec::new(),
            period: Vec::new(),
            period_steps: Vec::new(),
            history: Vec::new(),
            bt_games: Vec::new(),
            bt_fit: None,
            scores: Default::default(),
        }
    }

    fn player(&mut self, id: u32) -> usize {
        if let Some(&l) = self.local.get(&id) {
            return l;
        }
        let l = self.ids.len();
        self.local.insert(id, l);
        self.ids.push(id);
        self.elo.push((self.opts.elo.start(), 0));
        self.glicko2.push(Glicko2Rating::new());
        self.trueskill.push(TrueSkillRating::new());
        self.weng_lin.push(WengLinRating::new());
        self.record.push(Rated {
            player: id,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            first: None,
            last: None,
            elo: 0.0,
            glicko2: Glicko2Rating::new(),
            trueskill: TrueSkillRating::new(),
            weng_lin: WengLinRating::new(),
            bt: 0.0,
            bt_se: 0.0,
        });
        l
    }

    /// Ends a Glicko-2 rating period: every player who played is rated on
    /// the period's results, every other's deviation grows.
    fn close_period(&mut self) {
        let config = Glicko2Config::new();
        // The period's results grouped by player (a stable sort keeps each
        // player's in order): the work follows the period's games, not the
        // players.
        self.period.sort_by_key(|&(p, _, _)| p);
        let mut results = Vec::new();
        let mut played = vec![false; self.ids.len()];
        for group in self.period.chunk_by(|x, y| x.0 == y.0) {
            let p = group[0].0;
            results.clear();
            results.extend(group.iter().map(|&(_, opponent, o)| (opponent, o)));
            self.glicko2[p] = glicko2::glicko2_rating_period(&self.glicko2[p], &results, &config);
            played[p] = true;
        }
        self.period.clear();
        // Every other player's deviation grows.
        for (p, _) in played.iter().enumerate().filter(|(_, &x)| !x) {
            self.glicko2[p] = glicko2::glicko2_rating_period(&self.glicko2[p], &[], &config);
        }
        for (step, p) in self.period_steps.drain(..) {
            self.history[step].glicko2 = self.glicko2[p];
        }
    }

    /// Each system's chance for `a` (first side tag) against `b`, before
    /// the game.
    fn predict(&mut self, a: usize, b: usize, a_first: bool, score: f64) {
        let ea = EloRating {
            rating: self.elo[a].0,
        };
        let eb = EloRating {
            rating: self.elo[b].0,
        };
        let chances = [
            0.5,
            elo::expected_score(&ea, &eb).0,
            glicko2::expected_score(&self.glicko2[a], &self.glicko2[b]).0,
            trueskill::expected_score(
                &self.trueskill[a],
                &self.trueskill[b],
                &TrueSkillConfig::new(),
            )
            .0,
            weng_lin::expected_score(&self.weng_lin[a], &self.weng_lin[b], &WengLinConfig::new()).0,
            self.bt_fit
                .as_ref()
                .filter(|f| a < f.strength.len() && b < f.strength.len())
                .map_or(0.5, |f| bt::chance(f, a, b, a_first)),
        ];
        for (s, p) in self.scores.iter_mut().zip(chances) {
            s.add(p, score);
        }
    }

    fn play(&mut self, i: usize, g: &RatedGame) {
        let a = self.player(g.players[0]);
        let b = self.player(g.players[1]);
        let a_first = g.first == 0;
        if self.opts.predict {
            self.predict(a, b, a_first, g.score);
        }
        let o = outcome(g.score);
        // Elo: each player with their own K.
        let (ra, rb) = (
            EloRating {
                rating: self.elo[a].0,
            },
            EloRating {
                rating: self.elo[b].0,
            },
        );
        let ka = EloConfig {
            k: self.opts.elo.k(self.elo[a].1),
        };
        let kb = EloConfig {
            k: self.opts.elo.k(self.elo[b].1),
        };
        let new_a = elo::elo(&ra, &rb, &o, &ka).0;
        let new_b = elo::elo(&ra, &rb, &o, &kb).1;
        self.elo[a] = (new_a.rating, self.elo[a].1 + 1);
        self.elo[b] = (new_b.rating, self.elo[b].1 + 1);
        // Glicko-2: results kept for the period's end.
        let back = outcome(1.0 - g.score);
        self.period.push((a, self.glicko2[b], o));
        self.period.push((b, self.glicko2[a], back));
        let (ta, tb) = trueskill::trueskill(
            &self.trueskill[a],
            &self.trueskill[b],
            &o,
            &TrueSkillConfig::new(),
        );
        (self.trueskill[a], self.trueskill[b]) = (ta, tb);
        let (wa, wb) = weng_lin::weng_lin(
            &self.weng_lin[a],
            &self.weng_lin[b],
            &o,
            &WengLinConfig::new(),
        );
        (self.weng_lin[a], self.weng_lin[b]) = (wa, wb);
        for (p, q, side, s) in [(a, b, 0, g.score), (b, a, 1, 1.0 - g.score)] {
            let r = &mut self.record[p];
            r.games += 1;
            match s {
                s if s > 0.5 => r.wins += 1,
                s if s < 0.5 => r.losses += 1,
                _ => r.draws += 1,
            }
            if g.date.is_some() {
                r.first = r.first.or(g.date);
                r.last = g.date.max(r.last);
            }
            if self.opts.history {
                self.period_steps.push((self.history.len(), p));
                self.history.push(RatingStep {
                    game: i,
                    player: self.ids[p],
                    opponent: self.ids[q],
                    side,
                    moved_first: (side == 0) == a_first,
                    score: s,
                    elo: self.elo[p].0,
                    glicko2: self.glicko2[p],
                    trueskill: self.trueskill[p],
                    weng_lin: self.weng_lin[p],
                });
            }
        }
        self.bt_games.push(bt::Pairing {
            a,
            b,
            a_first,
            score: g.score,
        });
    }
}

/// Rates one game type's games, given in rating order.
pub fn rate(game: &'static str, games: &[&RatedGame], opts: RatingOptions) -> TypeRatings {
    let mut s = State::new(opts);
    // Bradley–Terry is refitted for the predictions after every 64th of
    // the games (warm-started).
    let block = games.len().div_ceil(64).max(1);
    let mut current = None;
    for (i, g) in games.iter().enumerate() {
        let period = opts.period.of(g.date, i);
        if current.is_some_and(|c| c != period) {
            s.close_period();
        }
        current = Some(period);
        if opts.predict && i > 0 && i % block == 0 {
            s.bt_fit = Some(bt::fit(&s.bt_games, s.ids.len(), s.bt_fit.as_ref()));
        }
        s.play(i, g);
    }
    if current.is_some() {
        s.close_period();
    }
    let fit = bt::fit(&s.bt_games, s.ids.len(), s.bt_fit.as_ref());
    let mut players = s.record;
    for (p, r) in players.iter_mut().enumerate() {
        r.elo = s.elo[p].0;
        r.glicko2 = s.glicko2[p];
        r.trueskill = s.trueskill[p];
        r.weng_lin = s.weng_lin[p];
        r.bt = 1500.0 + fit.strength[p] * ELO_SCALE;
        r.bt_se = fit.se[p] * ELO_SCALE;
    }
    TypeRatings {
        game,
        games: games.iter().map(|g| (*g).clone()).collect(),
        players,
        advantage: fit.advantage * ELO_SCALE,
        advantage_se: fit.advantage_se * ELO_SCALE,
        exact_se: fit.exact_se,
        history: s.history,
        predicted: match opts.predict {
            true => SYSTEMS.iter().copied().zip(s.scores).collect(),
            false => Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(a: u32, b: u32, score: f64) -> RatedGame {
        RatedGame {
            game: "oshi",
            file: 0,
            index: 1,
            date: None,
            players: [a, b],
            first: 0,
            score,
        }
    }

    /// Glickman's example (glicko2.pdf): a 1500/200/0.06 player beats a
    /// 1400/30 one and loses to 1550/100 and 1700/300 in one period.
    #[test]
    fn glicko2_gives_glickmans_worked_example() {
        let mut s = State::new(RatingOptions::default());
        let start = [
            (1500.0, 200.0),
            (1400.0, 30.0),
            (1550.0, 100.0),
            (1700.0, 300.0),
        ];
        for (id, (r, rd)) in start.into_iter().enumerate() {
            let p = s.player(id as u32);
            s.glicko2[p] = Glicko2Rating {
                rating: r,
                deviation: rd,
                volatility: 0.06,
            };
        }
        for (opponent, score) in [(1, 1.0), (2, 0.0), (3, 0.0)] {
            s.play(0, &played(0, opponent, score));
        }
        s.close_period();
        let g = s.glicko2[0];
        // Glickman rounds as he goes (μ' = −0.2069): 1464.06; exactly,
        // 1464.0507.
        assert!((g.rating - 1464.06).abs() < 0.02, "{g:?}");
        assert_eq!((g.deviation * 100.0).round(), 15_152.0, "{g:?}");
        assert!((g.volatility - 0.05999).abs() < 1e-5, "{g:?}");
    }

    /// Elo by hand: E = 1 / (1 + 10^((Rb − Ra) / 400)), R' = R + K (S − E).
    #[test]
    fn elo_updates_as_computed_by_hand_with_each_players_own_k() {
        let mut s = State::new(RatingOptions::default());
        s.play(0, &played(0, 1, 1.0));
        assert_eq!((s.elo[0].0, s.elo[1].0), (1516.0, 1484.0));
        s.play(1, &played(1, 2, 1.0));
        let e: f64 = 1.0 / (1.0 + 10f64.powf((1500.0 - 1484.0) / 400.0));
        assert!((s.elo[1].0 - (1484.0 + 32.0 * (1.0 - e))).abs() < 1e-9);
        assert!((s.elo[2].0 - (1500.0 - 32.0 * (1.0 - e))).abs() < 1e-9);
        // AbstractPlay's schedule: from 1200, K 40 for a new player, 30
        // from the tenth game.
        let mut ap = State::new(RatingOptions {
            elo: EloK::AbstractPlay,
            ..RatingOptions::default()
        });
        for i in 0..10 {
            ap.play(i, &played(0, 1, 0.5));
        }
        assert_eq!((ap.elo[0], ap.elo[1]), ((1200.0, 10), (1200.0, 10)));
        let new = ap.player(2);
        ap.play(10, &played(0, new as u32, 1.0));
        assert_eq!(ap.elo[0].0, 1215.0);
        assert_eq!(ap.elo[new].0, 1180.0);
    }
}
