//! An evaluation's weights as a data file: what made them (the seed and
//! the number of self-play games), the bias, and a weight per feature by
//! name.
//!
//! ```text
//! # comment lines start with '#'
//! seed 1
//! games 2000
//! bias 0.0123456789
//! points 0.512345678
//! ```

use std::fmt::Write;

/// Fitted weights, and what made them.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The self-play games' seed and how many there were.
    pub seed: u64,
    pub games: u64,
    pub bias: f64,
    /// One per feature, in the game's order.
    pub weights: Vec<f64>,
}

impl Weights {
    /// Reads a weights file whose features must be `names`, in order; why
    /// not, with the 1-based line, where it is not one.
    pub fn parse(text: &str, names: &[&str]) -> Result<Weights, String> {
        let mut fields = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(i, l)| {
                let mut words = l.split_whitespace();
                match (words.next(), words.next(), words.next()) {
                    (Some(name), Some(value), None) => Ok((i + 1, name, value)),
                    _ => Err(format!("line {}: not `name value`", i + 1)),
                }
            });
        let mut next = |want: &str| -> Result<(usize, &str), String> {
            match fields.next() {
                Some(Ok((line, name, value))) if name == want => Ok((line, value)),
                Some(Ok((line, name, _))) => Err(format!(
                    "line {line}: `{name}`, where `{want}` was expected"
                )),
                Some(Err(e)) => Err(e),
                None => Err(format!("`{want}` is missing")),
            }
        };
        let int = |(line, v): (usize, &str)| {
            v.parse::<u64>()
                .map_err(|_| format!("line {line}: `{v}` is not a whole number"))
        };
        let real = |(line, v): (usize, &str)| match v.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(format!("line {line}: `{v}` is not a finite number")),
        };
        let seed = int(next("seed")?)?;
        let games = int(next("games")?)?;
        let bias = real(next("bias")?)?;
        let weights = names
            .iter()
            .map(|name| real(next(name)?))
            .collect::<Result<Vec<f64>, String>>()?;
        match fields.next() {
            None => Ok(Weights {
                seed,
                games,
                bias,
                weights,
            }),
            Some(Ok((line, name, _))) => Err(format!("line {line}: `{name}` is not a feature")),
            Some(Err(e)) => Err(e),
        }
    }

    /// The file's text: `header` as comment lines, then the fields (each
    /// number as Rust writes an `f64` shortest, so reading it back gives
    /// the same bits).
    pub fn write(&self, header: &str, names: &[&str]) -> String {
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "seed {}", self.seed);
        let _ = writeln!(out, "games {}", self.games);
        let _ = writeln!(out, "bias {:?}", self.bias);
        for (name, w) in names.iter().zip(&self.weights) {
            let _ = writeln!(out, "{name} {w:?}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[&str] = &["points", "stories"];

    #[test]
    fn weights_read_back_as_written_to_the_bit() {
        let w = Weights {
            seed: 3,
            games: 10,
            bias: -0.1,
            weights: vec![1.0 / 3.0, -2.5e-7],
        };
        let text = w.write("made by a test\nsecond line", NAMES);
        assert!(text.starts_with("# made by a test\n# second line\nseed 3\n"));
        assert_eq!(Weights::parse(&text, NAMES), Ok(w));
    }

    #[test]
    fn a_weights_file_that_is_not_one_says_where() {
        let good = "seed 1\ngames 2\nbias 0\npoints 1\nstories 2\n";
        assert!(Weights::parse(good, NAMES).is_ok());
        let cases = [
            (
                "seed 1\ngames 2\nbias 0\nstories 1\npoints 2\n",
                "line 4: `stories`, where `points`",
            ),
            (
                "seed 1\ngames 2\nbias 0\npoints 1\n",
                "`stories` is missing",
            ),
            (
                "seed 1\ngames 2\nbias x\npoints 1\nstories 2\n",
                "line 3: `x` is not a finite",
            ),
            (
                "seed 1\ngames 2\nbias inf\npoints 1\nstories 2\n",
                "line 3: `inf` is not a finite",
            ),
            ("seed -1\ngames 2\n", "line 1: `-1` is not a whole"),
            ("seed 1 2\n", "line 1: not `name value`"),
            (
                &format!("{good}mobility 3\n"),
                "line 6: `mobility` is not a feature",
            ),
        ];
        for (text, said) in cases {
            let e = Weights::parse(text, NAMES).unwrap_err();
            assert!(e.contains(said), "{text:?}: {e}");
        }
    }
}
