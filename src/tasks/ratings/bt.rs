//! The Bradley–Terry model with a first-mover advantage, fitted by maximum
//! likelihood (no maintained crate fits it).
//!
//! Player `a` (the first side tag) beats player `b` with probability
//! `σ(θa − θb ± h)`, `+h` when `a` made the first turn and `−h` when `b`
//! did; a draw counts half a win each. So that a player who won (or lost)
//! every game keeps a finite strength, each player also has one virtual
//! draw against a player of strength 0; and so that the first mover's
//! advantage stays finite when the first mover has won (or lost) every
//! game so far — as after the first game of `--predict`, where an
//! unbounded advantage predicted the next second-mover win at 10⁻⁹ — the
//! advantage has one virtual drawn game too (a game between equals, drawn
//! whoever moved first). The function maximised is the log likelihood of
//! the games plus those draws (notation/ratings.md). It is concave;
//! Newton steps solved by conjugate gradients climb it until no partial
//! derivative exceeds [`TOLERANCE`].

/// A game between local player numbers `a` and `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
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
pub(crate) const TOLERANCE: f64 = 1e-9;
/// Players up to which standard errors invert the whole matrix.
pub(crate) const EXACT_SE: usize = 800;
/// Newton steps at most (a handful reach the top).
const STEPS: usize = 200;

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
fn odds(g: &Pairing, strength: &[f64], h: f64) -> f64 {
    strength[g.a] - strength[g.b] + if g.a_first { h } else { -h }
}

/// `a`'s chance of beating `b` (`a_first`: `a` moves first).
pub fn chance(fit: &Fit, a: usize, b: usize, a_first: bool) -> f64 {
    let g = Pairing {
        a,
        b,
        a_first,
        score: 0.0,
    };
    sigmoid(odds(&g, &fit.strength, fit.advantage))
}

/// The function the fit maximises: the games' log likelihood plus each
/// player's virtual draw.
pub fn objective(games: &[Pairing], strength: &[f64], h: f64) -> f64 {
    let games: f64 = games
        .iter()
        .map(|g| {
            let x = odds(g, strength, h);
            g.score * ln_sigmoid(x) + (1.0 - g.score) * ln_sigmoid(-x)
        })
        .sum();
    let draws: f64 = (strength.iter().chain([&h]))
        .map(|&t| 0.5 * ln_sigmoid(t) + 0.5 * ln_sigmoid(-t))
        .sum();
    games + draws
}

/// The parameters: the players' strengths, then the advantage.
fn split(x: &[f64]) -> (&[f64], f64) {
    let (strength, h) = x.split_at(x.len() - 1);
    (strength, h[0])
}

/// The objective's gradient at `x`, and each game's weight q(1 − q) there
/// (q the chance the game's first player wins).
fn gradient(games: &[Pairing], x: &[f64], weights: &mut Vec<f64>) -> Vec<f64> {
    let n = x.len() - 1;
    let (strength, h) = split(x);
    // The virtual draws' part, the advantage's included.
    let mut g: Vec<f64> = x.iter().map(|&t| 0.5 - sigmoid(t)).collect();
    weights.clear();
    for game in games {
        let q = sigmoid(odds(game, strength, h));
        let r = game.score - q;
        g[game.a] += r;
        g[game.b] -= r;
        g[n] += if game.a_first { r } else { -r };
        weights.push(q * (1.0 - q));
    }
    g
}

/// The information matrix (the objective's negated Hessian) at `x` times
/// `v`, without the matrix: a pass over the games.
fn times(games: &[Pairing], x: &[f64], weights: &[f64], v: &[f64]) -> Vec<f64> {
    let n = x.len() - 1;
    let mut out: Vec<f64> = (x.iter().zip(v))
        .map(|(&t, &vi)| sigmoid(t) * (1.0 - sigmoid(t)) * vi)
        .collect();
    for (game, &w) in games.iter().zip(weights) {
        let sh = if game.a_first { 1.0 } else { -1.0 };
        let d = w * (v[game.a] - v[game.b] + sh * v[n]);
        out[game.a] += d;
        out[game.b] -= d;
        out[n] += sh * d;
    }
    out
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves information × d = g by conjugate gradients (the matrix is
/// positive definite: the virtual draws see to it).
fn newton_step(games: &[Pairing], x: &[f64], weights: &[f64], g: &[f64]) -> Vec<f64> {
    let mut d = vec![0.0; g.len()];
    let mut r = g.to_vec();
    let mut p = r.clone();
    let mut rr = dot(&r, &r);
    let stop = rr * 1e-20;
    for _ in 0..(4 * g.len()).max(50) {
        if rr <= stop {
            break;
        }
        let ap = times(games, x, weights, &p);
        let alpha = rr / dot(&p, &ap);
        for i in 0..d.len() {
            d[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        let next = dot(&r, &r);
        let beta = next / rr;
        rr = next;
        for i in 0..p.len() {
            p[i] = r[i] + beta * p[i];
        }
    }
    d
}

/// Fits `players` strengths and the advantage to `games`, starting from
/// `start` (a fit of fewer games: `--predict` refits as games come).
/// Newton's method, each step solved by conjugate gradients and halved
/// until the objective rises, until no partial derivative exceeds
/// [`TOLERANCE`].
pub fn fit(games: &[Pairing], players: usize, start: Option<&Fit>) -> Fit {
    let mut x = vec![0.0; players + 1];
    if let Some(s) = start {
        let k = s.strength.len().min(players);
        x[..k].copy_from_slice(&s.strength[..k]);
        x[players] = s.advantage;
    }
    let mut weights = Vec::with_capacity(games.len());
    let value = |x: &[f64]| {
        let (strength, h) = split(x);
        objective(games, strength, h)
    };
    let mut now = value(&x);
    for _ in 0..STEPS {
        let g = gradient(games, &x, &mut weights);
        if g.iter().all(|d| d.abs() < TOLERANCE) {
            break;
        }
        let d = newton_step(games, &x, &weights, &g);
        let mut scale = 1.0;
        let mut moved = false;
        while scale > 1e-6 {
            let tried: Vec<f64> = x.iter().zip(&d).map(|(a, b)| a + scale * b).collect();
            let v = value(&tried);
            if v >= now {
                (x, now, moved) = (tried, v, true);
                break;
            }
            scale /= 2.0;
        }
        if !moved {
            break;
        }
    }
    let (strength, h) = split(&x);
    let (se, advantage_se, exact_se) = errors(games, players, strength, h);
    Fit {
        strength: strength.to_vec(),
        se,
        advantage: h,
        advantage_se,
        exact_se,
    }
}

/// The information matrix (minus the objective's second derivatives):
/// players first, the advantage last.
fn information(games: &[Pairing], players: usize, strength: &[f64], h: f64) -> Vec<Vec<f64>> {
    let n = players + 1;
    let mut m = vec![vec![0.0; n]; n];
    for (p, &t) in strength.iter().chain([&h]).enumerate() {
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
fn errors(games: &[Pairing], players: usize, strength: &[f64], h: f64) -> (Vec<f64>, f64, bool) {
    if players <= EXACT_SE {
        let m = information(games, players, strength, h);
        if let Some(inv) = invert(m) {
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
    // Conditional errors need only the diagonal: memory by the players,
    // never their square.
    let se: Vec<f64> = diagonal(games, players, strength, h)
        .into_iter()
        .map(|d| match d {
            d if d > 0.0 => 1.0 / d.sqrt(),
            _ => f64::INFINITY,
        })
        .collect();
    (se[..players].to_vec(), se[players], false)
}

/// The information matrix's diagonal, players first, the advantage last.
fn diagonal(games: &[Pairing], players: usize, strength: &[f64], h: f64) -> Vec<f64> {
    let mut d: Vec<f64> = (strength.iter().chain([&h]))
        .map(|&t| sigmoid(t) * (1.0 - sigmoid(t)))
        .collect();
    for g in games {
        let q = sigmoid(odds(g, strength, h));
        let w = q * (1.0 - q);
        if g.a != g.b {
            d[g.a] += w;
            d[g.b] += w;
        }
        d[players] += w;
    }
    d
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
