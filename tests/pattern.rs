//! `filter --pattern` against a naive scan written here: replay each game,
//! list each position's pieces by cell label and piece name, and check the
//! pattern's terms — on generated archives of every game, with patterns
//! made from a real position (a piece, a side, an empty cell, a negated
//! term), so each one matches at least the game it was taken from.

#[allow(dead_code)]
mod common;
#[path = "common/run.rs"]
#[allow(dead_code)]
mod run;
use gamerec::game::{Picture, Piece};
use gamerec::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};
use run::run_in;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;

fn archive(dir: &Path, game: &str, games: u32) -> (String, Vec<Vec<String>>) {
    let path = dir.join(format!("{game}.grec"));
    let p = path.to_str().unwrap().to_string();
    let n = games.to_string();
    let args = [
        "gen", "--game", game, "--games", &n, "--seed", "23", "-o", &p,
    ];
    let (code, _, err) = run_in(dir, &args);
    assert_eq!(code, 0, "{err}");
    let games = run::games_with_turns(dir, &p)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    (p, games)
}

/// Every position of a game (the start first): cell label → the names of
/// the pieces on it.
fn positions<G: Picture>(turns: &[String]) -> Vec<BTreeMap<String, Vec<String>>> {
    let mut pos = G::start(&[]).unwrap();
    let board = G::board(&pos);
    let mut out = Vec::new();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut look = |pos: &G::Position| {
        pieces.clear();
        G::pieces(pos, &mut pieces);
        let mut at: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for p in &pieces {
            let label = board.cells[p.cell as usize].label.clone();
            at.entry(label)
                .or_default()
                .push(G::GLYPHS[p.glyph as usize].ascii.to_string());
        }
        at
    };
    out.push(look(&pos));
    for t in turns {
        let mv = G::parse_move(&pos, t).unwrap();
        G::play(&mut pos, &mv).unwrap_or_else(|_| panic!("{t}"));
        out.push(look(&pos));
    }
    out
}

/// One term, checked the plain way.
fn term<G: Picture>(at: &BTreeMap<String, Vec<String>>, t: &str) -> bool {
    let (not, t) = match t.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (cell, what) = t.split_once('=').unwrap();
    let here = at.get(cell).cloned().unwrap_or_default();
    let side_of = |name: &str| {
        G::GLYPHS
            .iter()
            .find(|g| g.ascii == name)
            .and_then(|g| g.side)
    };
    let met = match what {
        "-" => here.is_empty(),
        "*" => !here.is_empty(),
        w if w.ends_with('*') => here
            .iter()
            .any(|n| side_of(n).is_some_and(|s| G::SIDES[s.index()].starts_with(&w[..1]))),
        w => here.iter().any(|n| n == w),
    };
    met != not
}

/// Games (1-based) with a position where every term holds.
fn naive<G: Picture>(games: &[Vec<String>], pattern: &str) -> Vec<usize> {
    let terms: Vec<&str> = pattern.split_whitespace().collect();
    (games.iter().enumerate())
        .filter(|(_, g)| {
            positions::<G>(g)
                .iter()
                .any(|at| terms.iter().all(|t| term::<G>(at, t)))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

fn filtered(dir: &Path, file: &str, pattern: &str) -> Vec<usize> {
    let (code, out, err) = run_in(
        dir,
        &["filter", file, "--pattern", pattern, "--to", "jsonl"],
    );
    assert!(code == 0 || code == 1, "{err}");
    assert!(!err.contains("warning"), "{err}");
    let rounds = out.lines().map(|l| {
        let g: Json = serde_json::from_str(l).unwrap();
        let tags = g["tags"].as_array().unwrap();
        let round = tags.iter().find(|t| t[0] == "Round").unwrap()[1]
            .as_str()
            .unwrap();
        round.parse().unwrap()
    });
    rounds.collect()
}

/// Patterns taken from game 1's position after `ply` plies: a piece by
/// name, a side, an empty cell; with a negated term.
fn agrees<G: Picture>(game: &str, games: u32, ply: usize) {
    let dir = tempfile::tempdir().unwrap();
    let (file, all) = archive(dir.path(), game, games);
    let at = &positions::<G>(&all[0])[ply];
    let (cell, names) = at.iter().next().expect("a piece on the board");
    let board = G::board(&G::start(&[]).unwrap());
    let empty = board
        .cells
        .iter()
        .map(|c| &c.label)
        .find(|l| !at.contains_key(*l))
        .unwrap();
    let side = G::GLYPHS
        .iter()
        .find(|g| g.ascii == names[0])
        .and_then(|g| g.side);
    let mut patterns = vec![
        format!("{cell}={}", names[0]),
        format!("{cell}={} {empty}=-", names[0]),
        format!("{cell}=* !{empty}=*"),
    ];
    if let Some(s) = side {
        let initial = &G::SIDES[s.index()][..1];
        patterns.push(format!("{cell}={initial}* {empty}=-"));
    }
    for p in &patterns {
        let want = naive::<G>(&all, p);
        assert!(want.contains(&1), "{game} {p}: the game it comes from");
        assert_eq!(filtered(dir.path(), &file, p), want, "{game} {p}");
    }
}

#[test]
fn oshi_patterns_match_as_a_naive_scan_does() {
    agrees::<Oshi>("oshi", 40, 12);
}

#[test]
fn retsami_patterns_match_as_a_naive_scan_does() {
    agrees::<Retsami>("retsami", 40, 9);
}

#[test]
fn iqishiqi_patterns_match_as_a_naive_scan_does() {
    agrees::<Iqishiqi>("iqishiqi", 40, 4);
}

#[test]
fn roshi_patterns_match_as_a_naive_scan_does() {
    agrees::<Roshi>("roshi", 10, 20);
}

#[test]
fn vagabond_patterns_match_as_a_naive_scan_does() {
    agrees::<Vagabond>("vagabond", 10, 8);
}

#[test]
fn a_pattern_a_game_cannot_match_is_said_and_a_malformed_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = archive(dir.path(), "oshi", 3);
    let (code, _, err) = run_in(
        dir.path(),
        &["filter", &file, "--pattern", "e5=Q3", "--count"],
    );
    assert_eq!(code, 1, "nothing matches: {err}");
    assert!(
        err.contains("`e5=Q3` names no piece") && err.contains("R1 R2 R3 W1 W2 W3"),
        "{err}"
    );
    let (code, _, err) = run_in(
        dir.path(),
        &["filter", &file, "--pattern", "e5=G*", "--count"],
    );
    assert_eq!(code, 1, "nothing matches: {err}");
    assert!(
        err.contains("no side's name starts with `g` (Red, White)"),
        "{err}"
    );
    let (code, _, err) = run_in(dir.path(), &["filter", &file, "--pattern", "e5", "--count"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("CELL=WHAT"), "{err}");
    // Cells in any case.
    let (_, lower, _) = run_in(
        dir.path(),
        &["filter", &file, "--pattern", "e1=*", "--count"],
    );
    let (_, upper, _) = run_in(
        dir.path(),
        &["filter", &file, "--pattern", "E1=*", "--count"],
    );
    assert_eq!(lower, upper);
}
