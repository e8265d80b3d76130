//! The Bradley–Terry model with a first-mover advantage, fitted by maximum
//! likelihood (no maintained crate fits it).
//!
//! Player `a` (the first side tag) beats player `b` with probability
//! `σ(θa − θb ± h)`, `+h` when `a` made the first turn and `−h` when `b`
//! did; a draw counts half a win each. So that a player who won (or lost)
//! every game keeps a finite strength, each player also has one virtual
//! draw against a player of strength 0: the function maximised is the log
//! likelihood of the games plus those draws (notation/ratings.md). It is
//! concave; cyclic Newton steps, one parameter at a time, climb it until
//! no partial derivative exceeds [`TOLERANCE`].

/// A game between local player numbers `a` and `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub a: usize,
    pub b: usize,
    /// `a` made the first turn.
    pub a_first: bool,
    /// `a`'s score: 1, 0.5 or 0.
    pub score: f64,
}

/// Strengths (natural log-odds units) and their standard errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub strength: Vec<f64>,
    /// Each strength's standard error relative to the players' mean.
    pub se: Vec<f64>,
    /// The first mover's advantage `h` and its standard error.
    pub advantage: f64,
    pub advantage_se: f64,
    /// The standard errors come from the whole inverse information matrix
    /// (up to [`EXACT_SE`] players); else each is conditional, the others
    /// held fixed (smaller).
    pub exact_se: bool,
}

/// The largest partial derivative the fit leaves.
pub const TOLERANCE: f64 = 1e-9;
/// Players up to which standard errors invert the whole matrix.
pub const EXACT_SE: usize = 800;
const SWEEPS: usize = 100_000;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn ln_sigmoid(x: f64) -> f64 {
    // ln σ(x) = −ln(1 + e^−x), computed without overflow.
    if x > 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// The log-odds that `a` wins `g`.
fn odds(g: &Game, strength: &[f64], h: f64) -> f64 {
    strength[g.a] - strength[g.b] + if g.a_first { h } else { -h }
}

/// `a`'s chance of beating `b` (`a_first`: `a` moves first).
pub fn chance(fit: &Fit, a: usize, b: usize, a_first: bool) -> f64 {
    let g = Game {
        a,
        b,
        a_first,
        score: 0.0,
    };
    sigmoid(odds(&g, &fit.strength, fit.advantage))
}

/// The function the fit maximises: the games' log likelihood plus each
/// player's virtual draw.
pub fn objective(games: &[Game], strength: &[f64], h: f64) -> f64 {
    let games: f64 = games
        .iter()
        .map(|g| {
            let x = odds(g, strength, h);
            g.score * ln_sigmoid(x) + (1.0 - g.score) * ln_sigmoid(-x)
        })
        .sum();
    let draws: f64 = strength
        .iter()
        .map(|&t| 0.5 * ln_sigmoid(t) + 0.5 * ln_sigmoid(-t))
        .sum();
    games + draws
}

/// A Newton step, at most one unit (far from the top a full step can
/// overshoot it).
fn step(d1: f64, d2: f64) -> f64 {
    (-d1 / d2).clamp(-1.0, 1.0)
}

/// Each game's players, for the sweeps.
fn by_player(games: &[Game], players: usize) -> Vec<Vec<usize>> {
    let mut of = vec![Vec::new(); players];
    for (i, g) in games.iter().enumerate() {
        of[g.a].push(i);
        of[g.b].push(i);
    }
    of
}

/// Fits `players` strengths and the advantage to `games`, starting from
/// `start` (a fit of fewer games: `--predict` refits as games come).
pub fn fit(games: &[Game], players: usize, start: Option<&Fit>) -> Fit {
    let mut strength = vec![0.0; players];
    let mut h = 0.0;
    if let Some(s) = start {
        strength[..s.strength.len().min(players)]
            .copy_from_slice(&s.strength[..s.strength.len().min(players)]);
        h = s.advantage;
    }
    let of = by_player(games, players);
    for _ in 0..SWEEPS {
        let mut worst: f64 = 0.0;
        for p in 0..players {
            // d/dθp and d²/dθp² of the objective.
            let t = strength[p];
            let s = sigmoid(t);
            let (mut d1, mut d2) = (0.5 - s, -s * (1.0 - s));
            for &i in &of[p] {
                let g = &games[i];
                let q = sigmoid(odds(g, &strength, h));
                let sign = if g.a == p { 1.0 } else { -1.0 };
                d1 += sign * (g.score - q);
                d2 -= q * (1.0 - q);
            }
            worst = worst.max(d1.abs());
            strength[p] = t + step(d1, d2);
        }
        let (mut d1, mut d2) = (0.0, 0.0);
        for g in games {
            let q = sigmoid(odds(g, &strength, h));
            let sign = if g.a_first { 1.0 } else { -1.0 };
            d1 += sign * (g.score - q);
            d2 -= q * (1.0 - q);
        }
        worst = worst.max(d1.abs());
        if d2 < 0.0 {
            h += step(d1, d2);
        }
        if worst < TOLERANCE {
            break;
        }
    }
    let (se, advantage_se, exact_se) = errors(games, players, &strength, h);
    Fit {
        strength,
        se,
        advantage: h,
        advantage_se,
        exact_se,
    }
}

/// The information matrix (minus the objective's second derivatives):
/// players first, the advantage last.
fn information(games: &[Game], players: usize, strength: &[f64], h: f64) -> Vec<Vec<f64>> {
    let n = players + 1;
    let mut m = vec![vec![0.0; n]; n];
    for (p, &t) in strength.iter().enumerate() {
        m[p][p] += sigmoid(t) * (1.0 - sigmoid(t));
    }
    for g in games {
        let q = sigmoid(odds(g, strength, h));
        let w = q * (1.0 - q);
        // ∂x/∂θa = 1, ∂x/∂θb = −1, ∂x/∂h = ±1.
        let sh = if g.a_first { 1.0 } else { -1.0 };
        let terms = [(g.a, 1.0), (g.b, -1.0), (players, sh)];
        for &(i, si) in &terms {
            for &(j, sj) in &terms {
                m[i][j] += w * si * sj;
            }
        }
    }
    m
}

/// Standard errors: from the inverse information matrix (up to
/// [`EXACT_SE`] players), a player's relative to the players' mean; else
/// the inverse square roots of its diagonal (each with the others fixed).
fn errors(games: &[Game], players: usize, strength: &[f64], h: f64) -> (Vec<f64>, f64, bool) {
    let m = information(games, players, strength, h);
    let n = players + 1;
    if players <= EXACT_SE {
        if let Some(inv) = invert(m.clone()) {
            // A player's error relative to the players' mean: the variance
            // of θi − mean(θ), so that the level the virtual draws fix
            // (known only loosely) does not count.
            let k = players as f64;
            let row: Vec<f64> = (0..players)
                .map(|i| inv[i][..players].iter().sum::<f64>() / k)
                .collect();
            let all = row.iter().sum::<f64>() / k;
            let se = (0..players)
                .map(|i| (inv[i][i] - 2.0 * row[i] + all).max(0.0).sqrt())
                .collect();
            return (se, inv[players][players].max(0.0).sqrt(), true);
        }
    }
    let se: Vec<f64> = (0..n)
        .map(|i| match m[i][i] {
            d if d > 0.0 => 1.0 / d.sqrt(),
            _ => f64::INFINITY,
        })
        .collect();
    (se[..players].to_vec(), se[players], false)
}

/// Gauss–Jordan inversion with partial pivoting; `None` when singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for j in 0..n {
            m[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..n {
            if row != col && m[row][col] != 0.0 {
                let f = m[row][col];
                for j in 0..n {
                    m[row][j] -= f * m[col][j];
                    inv[row][j] -= f * inv[col][j];
                }
            }
        }
    }
    Some(inv)
}
