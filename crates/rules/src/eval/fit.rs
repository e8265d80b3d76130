//! Logistic regression by Newton's method: the weights `w` (the bias
//! first) that minimise the mean log-loss of `σ(w·x)` against labels in
//! [0, 1] (a win 1, a draw ½, a loss 0), with a little L2 penalty so that
//! a feature that never varies keeps a weight of 0. Deterministic: the
//! same samples in the same order give the same bits.

/// What the fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The bias, then a weight per feature.
    pub weights: Vec<f64>,
    /// The mean log-loss of the fitted model on the samples, and of the
    /// best constant (the labels' mean) for comparison.
    pub log_loss: f64,
    pub constant_log_loss: f64,
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The L2 penalty a weight pays, per sample.
const PENALTY: f64 = 1e-6;

/// Newton steps at most (each solves a system as wide as the features).
const STEPS: usize = 50;

/// Fits `k` features: `rows` holds each sample's `k` features, one sample
/// after another; `labels` one label per sample. `None` without samples.
pub fn fit(rows: &[f64], labels: &[f64], k: usize) -> Option<Fit> {
    let n = labels.len();
    if n == 0 || rows.len() != n * k {
        return None;
    }
    let width = k + 1;
    let mut w = vec![0.0; width];
    let mut x = vec![0.0; width];
    for _ in 0..STEPS {
        let mut gradient = vec![0.0; width];
        let mut hessian = vec![0.0; width * width];
        for (i, &y) in labels.iter().enumerate() {
            sample(&mut x, &rows[i * k..(i + 1) * k]);
            let p = sigmoid(dot(&w, &x));
            let s = p * (1.0 - p);
            for a in 0..width {
                gradient[a] += (p - y) * x[a];
                for b in 0..width {
                    hessian[a * width + b] += s * x[a] * x[b];
                }
            }
        }
        for a in 0..width {
            gradient[a] += PENALTY * n as f64 * w[a];
            hessian[a * width + a] += PENALTY * n as f64;
        }
        let step = solve(&mut hessian, &mut gradient, width)?;
        let mut largest = 0.0f64;
        for (wa, d) in w.iter_mut().zip(&step) {
            *wa -= d;
            largest = largest.max(d.abs());
        }
        if largest < 1e-12 {
            break;
        }
    }
    let mean = labels.iter().sum::<f64>() / n as f64;
    let mut loss = 0.0;
    let mut constant = 0.0;
    for (i, &y) in labels.iter().enumerate() {
        sample(&mut x, &rows[i * k..(i + 1) * k]);
        loss += log_loss(sigmoid(dot(&w, &x)), y);
        constant += log_loss(mean, y);
    }
    Some(Fit {
        weights: w,
        log_loss: loss / n as f64,
        constant_log_loss: constant / n as f64,
    })
}

/// The log-loss of predicting `p` where the label is `y` (clamped away
/// from 0 and 1 so that a sure prediction costs a finite amount).
pub fn log_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// `x` = 1 (the bias's input), then the features.
fn sample(x: &mut [f64], features: &[f64]) {
    x[0] = 1.0;
    x[1..].copy_from_slice(features);
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// Solves `m · s = v` (`m` is `w`×`w`, row by row) by Gaussian elimination
/// with partial pivoting; `None` where `m` is singular.
fn solve(m: &mut [f64], v: &mut [f64], w: usize) -> Option<Vec<f64>> {
    for col in 0..w {
        let pivot =
            (col..w).max_by(|&a, &b| m[a * w + col].abs().total_cmp(&m[b * w + col].abs()))?;
        if m[pivot * w + col].abs() < 1e-300 {
            return None;
        }
        if pivot != col {
            for c in 0..w {
                m.swap(pivot * w + c, col * w + c);
            }
            v.swap(pivot, col);
        }
        for row in col + 1..w {
            let f = m[row * w + col] / m[col * w + col];
            for c in col..w {
                m[row * w + c] -= f * m[col * w + c];
            }
            v[row] -= f * v[col];
        }
    }
    let mut s = vec![0.0; w];
    for row in (0..w).rev() {
        let rest: f64 = (row + 1..w).map(|c| m[row * w + c] * s[c]).sum();
        s[row] = (v[row] - rest) / m[row * w + row];
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    /// Labels drawn from a known logistic model are fitted back to its
    /// weights, and the fit predicts them better than a constant.
    #[test]
    fn the_fit_finds_the_weights_that_made_the_labels() {
        let truth = [0.3, 1.5, -0.8];
        let mut rng = crate::random::stream(5, 1);
        let mut uniform = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (mut rows, mut labels) = (Vec::new(), Vec::new());
        for _ in 0..40_000 {
            let f = [uniform() * 4.0 - 2.0, uniform() * 4.0 - 2.0];
            let p = sigmoid(truth[0] + truth[1] * f[0] + truth[2] * f[1]);
            rows.extend(f);
            labels.push(if uniform() < p { 1.0 } else { 0.0 });
        }
        let fit = fit(&rows, &labels, 2).unwrap();
        for (got, want) in fit.weights.iter().zip(truth) {
            assert!(
                (got - want).abs() < 0.05,
                "{:?} against {truth:?}",
                fit.weights
            );
        }
        assert!(fit.log_loss < fit.constant_log_loss - 0.05, "{fit:?}");
    }

    /// Soft labels (draws as ½) are fitted as their mean: a constant ½
    /// gives a bias of 0; a feature that never varies keeps a weight of 0.
    #[test]
    fn draws_count_half_and_a_feature_that_never_varies_weighs_nothing() {
        let rows = vec![0.0; 6];
        let labels = [1.0, 0.0, 0.5, 0.5, 1.0, 0.0];
        let fit = fit(&rows, &labels, 1).unwrap();
        assert!(fit.weights.iter().all(|w| w.abs() < 1e-9), "{fit:?}");
        assert!((fit.log_loss - fit.constant_log_loss).abs() < 1e-12);
        assert_eq!(super::fit(&[], &[], 1), None);
        assert_eq!(super::fit(&[1.0], &[1.0, 0.0], 1), None);
    }

    #[test]
    fn a_system_is_solved_with_its_rows_swapped() {
        let mut m = vec![0.0, 2.0, 3.0, 1.0];
        let mut v = vec![4.0, 5.0];
        let s = solve(&mut m, &mut v, 2).unwrap();
        // 2y = 4, 3x + y = 5: x = 1, y = 2.
        assert!(
            (s[0] - 1.0).abs() < 1e-12 && (s[1] - 2.0).abs() < 1e-12,
            "{s:?}"
        );
        assert_eq!(solve(&mut [1.0, 2.0, 2.0, 4.0], &mut [1.0, 2.0], 2), None);
    }
}
