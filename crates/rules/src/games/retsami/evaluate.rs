//! Retsami's evaluation: what a player counts — how far each side's
//! leader (its counter furthest along the Way) and its counters together
//! have come, the counters each has off the board, the takes each could
//! make at once (a counter an enemy can take is one that stands ahead of
//! it in its line), and whether each could reach Home at once — weighed by
//! the weights fitted from random self-play games (`eval.weights`, remade
//! as its header says).

use super::geometry::{OnTheWay, Square, HOME};
use super::{Position, Retsami};
use crate::game::{after_each_turn, Evaluate, Side};

impl Evaluate for Retsami {
    const FEATURES: &'static [&'static str] = &[
        "leader",
        "progress",
        "off_board",
        "takes",
        "their_takes",
        "home_now",
        "their_home_now",
    ];

    const WEIGHTS: &'static str = include_str!("eval.weights");

    fn features(pos: &Position, out: &mut [f64]) {
        let me = pos.to_move;
        let (mine, theirs) = (along(pos, me), along(pos, me.other()));
        let mut turned = pos.clone();
        turned.to_move = me.other();
        let (takes, home) = at_once(pos);
        let (their_takes, their_home) = at_once(&turned);
        let values = [
            mine.0 - theirs.0,
            mine.1 - theirs.1,
            f64::from(pos.off[me.index()]) - f64::from(pos.off[me.other().index()]),
            takes,
            their_takes,
            home,
            their_home,
        ];
        out.copy_from_slice(&values);
    }
}

/// `side`'s leader's Way index (0 with no counter on the board), and the
/// sum of its counters' Way indices, in tens.
fn along(pos: &Position, side: Side) -> (f64, f64) {
    let mut bits = pos.board[side.index()];
    let (mut leader, mut sum) = (0u8, 0u32);
    while bits != 0 {
        let i = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let way = Square::from_index(i).map_or(0, |sq| sq.way());
        leader = leader.max(way);
        sum += u32::from(way);
    }
    (f64::from(leader), f64::from(sum) / 10.0)
}

/// The side to move's turns that take a counter, and whether one reaches
/// Home (1 or 0), as if it were to move.
fn at_once(pos: &Position) -> (f64, f64) {
    let (me, them) = (pos.to_move.index(), pos.to_move.other().index());
    let (mut takes, mut home) = (0u32, false);
    let home_square = Square::at_way(HOME);
    after_each_turn::<Retsami>(pos, &mut |after| {
        takes += u32::from(after.off[them] > pos.off[them]);
        home |= after.board[me] >> home_square.index() & 1 == 1;
    });
    (f64::from(takes), f64::from(u8::from(home)))
}
