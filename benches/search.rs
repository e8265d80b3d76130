//! The exact search's speed beside perft's, per game, on one thread: the
//! positions per second each plays from the same positions (positions of
//! seeded random games). Perft here plays every move of its last ply too
//! (no bulk counting of leaves), so both count positions made by playing a
//! move: the physical anchor a search cannot beat. The search runs its
//! iterative deepening, its three searches per depth and its table (the
//! size `analyse` uses; each position's search reads none of another's
//! entries).
//!
//! `cargo bench --bench search` (or `-- oshi 3` for one game and horizon).
//!
//! `cargo bench --bench search -- sets` (or `-- sets oshi`): the issue-51
//! measure instead — the committed position sets (`bench/positions/`, 50
//! a game, made by `bench/positions.sh`), each searched to the game's
//! default horizon with no budget: the time over the whole set (median of
//! `ROUNDS` rounds, 5 by default), the positions searched a second, and
//! perft's to the same horizon from the same positions (`PERFT=0`: none).

use gamerec::analysis::Settings;
use gamerec::game::{Notation, Search};
use gamerec::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};
use gamerec::gen::{positions, GenOptions};
use gamerec::search::{Budget, Searcher, Table};
use std::time::Instant;

/// Positions made by playing every move to `depth` plies (the root not
/// counted), as perft would with no bulk counting.
fn played<G: Search>(
    pos: &G::Position,
    depth: u32,
    moves: &mut Vec<Vec<G::Move>>,
    ply: usize,
) -> u64 {
    if depth == 0 || G::ending(pos).is_some() {
        return 0;
    }
    if moves.len() <= ply {
        moves.push(Vec::new());
    }
    let mut list = std::mem::take(&mut moves[ply]);
    list.clear();
    G::legal_moves(pos, &mut list);
    let mut next = pos.clone();
    let mut n = 0;
    for m in &list {
        next.clone_from(pos);
        if G::play(&mut next, m).is_ok() {
            n += 1 + played::<G>(&next, depth - 1, moves, ply + 1);
        }
    }
    moves[ply] = list;
    n
}

fn bench<G: Search + Notation>(depth: u32, sample: usize) {
    let all = positions::<G>(7, 4, &GenOptions::default());
    let step = (all.len() / sample).max(1);
    let picked: Vec<_> = all.iter().step_by(step).take(sample).cloned().collect();
    let mut moves = Vec::new();
    // SEARCH_ONLY=N: no perft, the search N times (for a profiler).
    let repeat: usize = std::env::var("SEARCH_ONLY")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let t = Instant::now();
    let perft: u64 = match repeat {
        0 => picked
            .iter()
            .map(|p| played::<G>(p, depth, &mut moves, 0))
            .sum(),
        _ => 1,
    };
    let perft_s = t.elapsed().as_secs_f64();
    // As `analyse` uses it: the default table, each position's search
    // under a salt of its own (no entry of another is read).
    let mut table = Table::with_mib(Settings::default().table_mib);
    let (mut nodes, mut search_s) = (0u64, 0.0);
    // The search takes milliseconds: 20 rounds by default.
    let rounds = if repeat == 0 { 20 } else { repeat };
    for (i, p) in picked
        .iter()
        .cycle()
        .take(picked.len() * rounds)
        .enumerate()
    {
        let mut s = Searcher::<G>::new(&mut table);
        s.salt_with(i as u64);
        let t = Instant::now();
        s.value(p, depth, Budget::UNLIMITED);
        search_s += t.elapsed().as_secs_f64();
        nodes += s.nodes;
    }
    let (pr, sr) = (perft as f64 / perft_s, nodes as f64 / search_s);
    println!(
        "{:<9} depth {depth}  positions {:>3}  perft {:>12} pos in {:>7.3}s = {:>6.2} M/s  \
         search {:>12} pos in {:>7.3}s = {:>6.2} M/s  ratio {:.2}",
        G::NAME,
        picked.len(),
        perft,
        perft_s,
        pr / 1e6,
        nodes,
        search_s,
        sr / 1e6,
        sr / pr
    );
}

/// The positions of `bench/positions/<game>.pos` (game, ply, position,
/// tab-separated; `#` starts a comment).
fn position_set<G: Search + Notation>() -> Vec<G::Position> {
    let path = format!(
        "{}/bench/positions/{}.pos",
        env!("CARGO_MANIFEST_DIR"),
        G::NAME
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (text.lines())
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let field = l.splitn(3, '\t').nth(2).unwrap_or_default();
            G::parse_position(field).unwrap_or_else(|e| panic!("{path}: {l}: {e:?}"))
        })
        .collect()
}

/// The committed set searched to the default horizon: see the module's
/// documentation.
fn bench_set<G: Search + Notation>() {
    let set = position_set::<G>();
    let depth = G::DEPTH;
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    let mut moves = Vec::new();
    let t = Instant::now();
    // PERFT=0: the search only (for a profiler).
    let perft: u64 = match std::env::var("PERFT").as_deref() {
        Ok("0") => 1,
        _ => (set.iter())
            .map(|p| played::<G>(p, depth, &mut moves, 0))
            .sum(),
    };
    let perft_s = t.elapsed().as_secs_f64();
    let mut table = Table::with_mib(Settings::default().table_mib);
    let (mut times, mut nodes, mut proven) = (Vec::new(), 0u64, 0usize);
    for round in 0..rounds.max(1) {
        let (mut round_s, mut round_nodes, mut round_proven) = (0.0, 0u64, 0usize);
        for (i, p) in set.iter().enumerate() {
            let mut s = Searcher::<G>::new(&mut table);
            s.salt_with((round * set.len() + i) as u64);
            let t = Instant::now();
            let v = s.value(p, depth, Budget::UNLIMITED);
            round_s += t.elapsed().as_secs_f64();
            round_nodes += s.nodes;
            round_proven += usize::from(v.is_proven());
        }
        times.push(round_s);
        (nodes, proven) = (round_nodes, round_proven);
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let (pr, sr) = (perft as f64 / perft_s, nodes as f64 / median);
    println!(
        "{:<9} horizon {depth}  positions {}  proven {proven:>2}  search {:>9.4}s \
         {nodes:>10} pos = {:>6.2} M/s  perft {perft:>10} pos in {perft_s:>7.3}s = {:>6.2} M/s  \
         ratio {:.2}",
        G::NAME,
        set.len(),
        median,
        sr / 1e6,
        pr / 1e6,
        sr / pr
    );
}

fn main() {
    if std::env::args().any(|a| a == "sets") {
        let only =
            (std::env::args().skip_while(|a| a != "sets").skip(1)).find(|a| !a.starts_with('-'));
        let run = |name: &str, f: fn()| {
            if only.as_deref().is_none_or(|o| o == name) {
                f();
            }
        };
        run("oshi", bench_set::<Oshi>);
        run("retsami", bench_set::<Retsami>);
        run("iqishiqi", bench_set::<Iqishiqi>);
        run("roshi", bench_set::<Roshi>);
        run("vagabond", bench_set::<Vagabond>);
        return;
    }
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let only = args.first().map(String::as_str);
    let depth = args.get(1).and_then(|d| d.parse().ok());
    let run = |name: &str, d: u32, f: fn(u32, usize), sample: usize| {
        if only.is_none_or(|o| o == name) {
            f(depth.unwrap_or(d), sample);
        }
    };
    run("oshi", 3, bench::<Oshi>, 40);
    run("retsami", 5, bench::<Retsami>, 40);
    run("iqishiqi", 3, bench::<Iqishiqi>, 40);
    run("roshi", 2, bench::<Roshi>, 6);
    run("vagabond", 2, bench::<Vagabond>, 4);
}
