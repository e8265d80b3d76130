//! Seeded random streams: game `index` of `seed` has its own PCG-64 stream,
//! so random games can be made in any order and in parallel; and the
//! random game played on one ([`play_out`]). Used by `gen`, the
//! evaluation's self-play and the tests.

use crate::game::{Ending, Rules};
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Plays random game `index` of `seed` from the standard start: each turn
/// drawn uniformly from the legal turns (with `finish`, from those that
/// end the game with a result, where there are any) until the rules end
/// the game, no turn is legal, or `most` turns are played. `turn` sees
/// each position and the turn drawn there before it is played. The
/// ending the rules gave (`None`: stopped without one, or the game has no
/// standard start); a drawn turn the rules refuse (the generator and the
/// rules disagreeing: a bug) stops it with the rules' error.
pub fn play_out<G: Rules>(
    seed: u64,
    index: u64,
    most: usize,
    finish: bool,
    turn: &mut dyn FnMut(&G::Position, &G::Move),
) -> Result<Option<Ending>, G::Error> {
    let mut rng = stream(seed, index);
    let Ok(mut pos) = G::start(&[]) else {
        return Ok(None);
    };
    let (mut moves, mut finishing) = (Vec::new(), Vec::new());
    let mut ending = G::ending(&pos);
    let mut played = 0;
    while ending.is_none() && played < most {
        moves.clear();
        G::legal_moves(&pos, &mut moves);
        if moves.is_empty() {
            break;
        }
        finishing.clear();
        if finish {
            finishing.extend((0..moves.len()).filter(|&i| {
                let mut next = pos.clone();
                G::play(&mut next, &moves[i]).is_ok() && G::ending(&next).is_some_and(|e| e.decided)
            }));
        }
        let pick = match finishing.len() {
            0 => below(&mut rng, moves.len()),
            n => finishing[below(&mut rng, n)],
        };
        turn(&pos, &moves[pick]);
        G::play(&mut pos, &moves[pick])?;
        played += 1;
        ending = G::ending(&pos);
    }
    Ok(ending)
}

/// The random stream of game `index` (1-based) of `seed`.
pub fn stream(seed: u64, index: u64) -> Pcg64Mcg {
    // Distinct (seed, index) pairs give distinct 64-bit inputs for the
    // generator's own seed expansion.
    Pcg64Mcg::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A uniform index below `n` (`n > 0`): Lemire's multiply-and-reject, no
/// bias.
pub fn below(rng: &mut impl Rng, n: usize) -> usize {
    let n = n as u64;
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        if (m as u64) >= threshold {
            return (m >> 64) as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = stream(7, 1);
        let mut seen = [0usize; 5];
        for _ in 0..5000 {
            seen[below(&mut rng, 5)] += 1;
        }
        // Each of 5 values about 1000 times (binomial sd ≈ 28).
        for n in seen {
            assert!((850..1150).contains(&n), "{seen:?}");
        }
    }

    #[test]
    fn streams_differ_by_seed_and_index() {
        let first = |s, i| stream(s, i).next_u64();
        assert_eq!(first(1, 1), first(1, 1));
        assert_ne!(first(1, 1), first(1, 2));
        assert_ne!(first(1, 1), first(2, 1));
    }
}
