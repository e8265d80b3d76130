//! Roshi's evaluation: what a player looks at — the lines of five through
//! the roshi stone that the other side does not block (a roshi is the
//! stone and four of one side's pieces in a row), how full each side's
//! fullest such line is, how many each has one piece short, and the pieces
//! each still has in hand — weighed by the weights fitted from random
//! self-play games (`eval.weights`, remade as its header says). It looks
//! no turn ahead: a turn is one or two actions, thousands a position.

use super::position::Occupant;
use super::{Position, Roshi};
use crate::game::{Evaluate, Side};

impl Evaluate for Roshi {
    const FEATURES: &'static [&'static str] = &["fullest_line", "one_short", "in_hand"];

    const WEIGHTS: &'static str = include_str!("eval.weights");

    fn features(pos: &Position, out: &mut [f64]) {
        let me = pos.to_move;
        let (mine, theirs) = (lines(pos, me), lines(pos, me.other()));
        let values = [
            mine.0 - theirs.0,
            mine.1 - theirs.1,
            f64::from(pos.supply[me.index()]) - f64::from(pos.supply[me.other().index()]),
        ];
        out.copy_from_slice(&values);
    }
}

/// Over the windows of five squares on the board through the roshi stone
/// (rank, file or diagonal) that hold no piece of the other side: the
/// most pieces of `side`'s one holds (0 to 4), and how many hold three
/// with the fifth square empty.
fn lines(pos: &Position, side: Side) -> (f64, f64) {
    let Some(stone) = pos.stone() else {
        return (0.0, 0.0);
    };
    let (mut fullest, mut short) = (0u8, 0u8);
    for (df, dr) in [(1i8, 0i8), (0, 1), (1, 1), (1, -1)] {
        for back in 0..5i8 {
            let (mut own, mut empty, mut open) = (0u8, 0u8, true);
            for k in 0..5i8 {
                let at = stone.offset(df * (k - back), dr * (k - back));
                match at.filter(|&s| pos.dims.contains(s)).map(|s| pos.at(s)) {
                    None => open = false,
                    Some(Occupant::Piece(p)) if p == side => own += 1,
                    Some(Occupant::Piece(_)) => open = false,
                    Some(Occupant::Empty) => empty += 1,
                    Some(Occupant::Stone) => {}
                }
            }
            if open {
                fullest = fullest.max(own);
                short += u8::from(own == 3 && empty == 1);
            }
        }
    }
    (f64::from(fullest), f64::from(short))
}
