//! `--predict`: each system scored on the archive as liglicko2 scores
//! Glicko-2's variants — games in rating order, each predicted from the
//! ratings before it — by log-loss, Brier score and accuracy.

/// A system that predicts games; `Coin` says one half every time, the
/// baseline a system must beat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum System {
    Coin,
    Elo,
    Glicko2,
    TrueSkill,
    WengLin,
    BradleyTerry,
}

/// Every system, in the order written.
pub(crate) const SYSTEMS: [System; 6] = [
    System::Coin,
    System::Elo,
    System::Glicko2,
    System::TrueSkill,
    System::WengLin,
    System::BradleyTerry,
];

impl System {
    pub fn name(self) -> &'static str {
        match self {
            System::Coin => "coin",
            System::Elo => "elo",
            System::Glicko2 => "glicko2",
            System::TrueSkill => "trueskill",
            System::WengLin => "weng-lin",
            System::BradleyTerry => "bradley-terry",
        }
    }
}

/// How well a system predicted the games it saw.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    pub games: u64,
    /// Sums over the games of −(s ln p + (1 − s) ln(1 − p)) and (p − s)².
    pub log_loss: f64,
    pub brier: f64,
    /// Decisive games, and those whose winner had the higher chance (a
    /// chance of exactly one half counts half).
    pub decisive: u64,
    pub right: f64,
}

/// Chances are kept this far from 0 and 1, so that one confident miss
/// costs a large loss, not an infinite one.
const EPSILON: f64 = 1e-15;

impl Score {
    /// Adds a game whose first player had chance `p` and scored `score`.
    pub fn add(&mut self, p: f64, score: f64) {
        let p = p.clamp(EPSILON, 1.0 - EPSILON);
        self.games += 1;
        self.log_loss -= score * p.ln() + (1.0 - score) * (1.0 - p).ln();
        self.brier += (p - score) * (p - score);
        if score != 0.5 {
            self.decisive += 1;
            self.right += match p {
                0.5 => 0.5,
                p if (p > 0.5) == (score > 0.5) => 1.0,
                _ => 0.0,
            };
        }
    }

    /// Adds another's games (the total over game types).
    pub fn merge(&mut self, other: &Score) {
        self.games += other.games;
        self.log_loss += other.log_loss;
        self.brier += other.brier;
        self.decisive += other.decisive;
        self.right += other.right;
    }

    /// Mean log-loss, mean Brier score, accuracy over decisive games.
    pub fn means(&self) -> (f64, f64, Option<f64>) {
        let n = self.games.max(1) as f64;
        let accuracy = (self.decisive > 0).then(|| self.right / self.decisive as f64);
        (self.log_loss / n, self.brier / n, accuracy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_coin_scores_ln_2_and_a_quarter_and_a_sure_right_guess_nothing() {
        let mut coin = Score::default();
        coin.add(0.5, 1.0);
        coin.add(0.5, 0.0);
        let (ll, brier, acc) = coin.means();
        assert!((ll - std::f64::consts::LN_2).abs() < 1e-12);
        assert!((brier - 0.25).abs() < 1e-12);
        assert_eq!(acc, Some(0.5));
        let mut sure = Score::default();
        sure.add(1.0, 1.0);
        sure.add(0.8, 0.5);
        assert_eq!(sure.decisive, 1);
        assert_eq!(sure.means().2, Some(1.0));
    }
}
