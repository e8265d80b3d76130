//! Read a position, list the legal moves, play one, ask the search for the
//! best move: `cargo run -p gamerec-rules --example play`.

use gamerec_rules::game::{Notation, Rules};
use gamerec_rules::games::oshi::Oshi;
use gamerec_rules::search::{Budget, Searcher, Table, Value};

fn main() {
    // Oshi's start, in its Position notation (notation/oshi.md).
    let text = "c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -";
    let mut pos = Oshi::parse_position(text).expect("a position");
    let mut moves = Vec::new();
    Oshi::legal_moves(&pos, &mut moves);
    println!("{} legal moves", moves.len());

    let mv = Oshi::parse_move(&pos, "e3-e4").expect("a move");
    Oshi::play(&mut pos, &mv).expect("a legal move");
    println!("after e3-e4: {}", Oshi::write_position(&pos));

    // Exact to 3 plies: each turn's value for the side that plays it.
    let mut table = Table::with_mib(16);
    let judged = Searcher::<Oshi>::new(&mut table).judge(&pos, 3, Budget::UNLIMITED);
    let rank = |v: &Option<Value>| match v {
        Some(Value::Win(d)) => 1000 - *d as i64,
        Some(Value::Loss(d)) => *d as i64 - 1000,
        _ => 0,
    };
    moves.clear();
    Oshi::legal_moves(&pos, &mut moves);
    let best = (0..moves.len())
        .max_by_key(|&i| rank(&judged.turns[i]))
        .expect("a move");
    let mut best_text = String::new();
    Oshi::write_move(&moves[best], &mut best_text);
    println!("value {}: best {best_text}", judged.value.name());
}
