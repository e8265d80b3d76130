//! Vagabond Pai Sho's evaluation: what a player looks at — whether each
//! side could capture the other's White Lotus at once, the tiles each has
//! left and how many of them capture (Sky Bison, Wheel, White Dragon,
//! Flying Lemur), how many each has deployed, and whether each one's Lotus
//! is on the board with a Badgermole of its own beside it (which no
//! capture can touch) — weighed by the weights fitted from random
//! self-play games (`eval.weights`, remade as its header says).

use super::geometry::Point;
use super::{Position, TileCode, Vagabond};
use crate::game::{Evaluate, Search, Side};

impl Evaluate for Vagabond {
    const FEATURES: &'static [&'static str] = &[
        "wins_now",
        "their_wins_now",
        "tiles",
        "capturers",
        "deployed",
        "lotus_guarded",
    ];

    const WEIGHTS: &'static str = include_str!("eval.weights");

    fn features(pos: &Position, out: &mut [f64]) {
        let me = pos.to_move;
        let mut turned = pos.clone();
        turned.to_move = me.other();
        let wins = |p: &Position| f64::from(u8::from(Vagabond::wins_at_once(p) == Some(true)));
        let (mine, theirs) = (counts(pos, me), counts(pos, me.other()));
        let values = [
            wins(pos),
            wins(&turned),
            mine[0] - theirs[0],
            mine[1] - theirs[1],
            mine[2] - theirs[2],
            mine[3] - theirs[3],
        ];
        out.copy_from_slice(&values);
    }
}

/// `side`'s tiles left (on the board and in reserve), how many of them
/// capture, how many are on the board, and whether its Lotus stands
/// guarded (1 or 0).
fn counts(pos: &Position, side: Side) -> [f64; 4] {
    let capturer = |c: TileCode| matches!(c, TileCode::S | TileCode::W | TileCode::D | TileCode::Y);
    let (mut left, mut capturers, mut deployed, mut guarded) = (0u32, 0u32, 0u32, false);
    for (i, &n) in pos.reserve[side.index()].iter().enumerate() {
        left += u32::from(n);
        if TileCode::ALL.get(i).is_some_and(|&c| capturer(c)) {
            capturers += u32::from(n);
        }
    }
    for p in Point::all() {
        let Some(t) = pos.board[p.index()].filter(|t| t.owner == side) else {
            continue;
        };
        left += 1;
        deployed += 1;
        capturers += u32::from(capturer(t.code));
        if t.code == TileCode::L {
            guarded = p.neighbours().any(|q| {
                pos.board[q.index()].is_some_and(|b| b.owner == side && b.code == TileCode::B)
            });
        }
    }
    [left, capturers, deployed, u32::from(guarded)].map(f64::from)
}
