//! `gamerec tree` against a naive count written here: replay each game,
//! key each position, and count the games that reach the explored one
//! (first reach within the depth), their results and the turn they played
//! there — on generated archives of every game; a position two move orders
//! reach is counted once per game, from both; `--player`, `--side` and
//! `--min-games` choose what is counted.

#[allow(dead_code)]
mod common;
#[path = "common/run.rs"]
#[allow(dead_code)]
mod run;
use gamerec::game::{Facts, Search};
use gamerec::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};
use run::run_in;
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// A game of the archive: its turns as written and its result.
struct Game {
    turns: Vec<String>,
    result: String,
}

fn generated(dir: &Path, game: &str, games: u32, seed: u32) -> (String, Vec<Game>) {
    let path = dir.join(format!("{game}.grec"));
    let p = path.to_str().unwrap().to_string();
    let (n, s) = (games.to_string(), seed.to_string());
    let args = [
        "gen",
        "--game",
        game,
        "--games",
        &n,
        "--seed",
        &s,
        "--finish",
        "--stop-after",
        "3000",
        "-o",
        &p,
    ];
    let (code, _, err) = run_in(dir, &args);
    assert_eq!(code, 0, "{err}");
    let games = run::games_with_turns(dir, &p)
        .into_iter()
        .map(|(g, turns)| {
            let tags = g["tags"].as_array().unwrap();
            let result = tags.iter().find(|t| t[0] == "Result").unwrap()[1]
                .as_str()
                .unwrap();
            Game {
                turns,
                result: result.to_string(),
            }
        })
        .collect();
    (p, games)
}

/// Every position of a game's first `depth` plies, keyed, with the turn
/// played from it (`None` after the last).
fn keyed<G: Search + Facts>(game: &Game, depth: usize) -> Vec<(u64, Option<String>)> {
    let mut pos = G::start(&[]).unwrap();
    let mut out = Vec::new();
    for (ply, text) in game.turns.iter().enumerate().take(depth) {
        let mv = G::parse_move(&pos, text).unwrap();
        let mut spelled = String::new();
        G::spell_standard(&mv, &mut spelled);
        out.push((G::notation_key(&pos), Some(spelled)));
        G::play(&mut pos, &mv).unwrap_or_else(|_| panic!("ply {}", ply + 1));
    }
    out.push((G::notation_key(&pos), None));
    out
}

/// The naive counts: games, first wins, draws, second wins, for the
/// position and for each turn played there.
type Tally = [u64; 4];

fn tally(t: &mut Tally, result: &str) {
    t[0] += 1;
    match result {
        "1-0" => t[1] += 1,
        "1/2-1/2" => t[2] += 1,
        "0-1" => t[3] += 1,
        _ => {}
    }
}

fn naive<G: Search + Facts>(
    games: &[Game],
    target: u64,
    depth: usize,
) -> (Tally, BTreeMap<String, Tally>) {
    let (mut at, mut turns) = ([0; 4], BTreeMap::new());
    for g in games {
        let walk = keyed::<G>(g, depth);
        if let Some((_, turn)) = walk.iter().find(|(k, _)| *k == target) {
            tally(&mut at, &g.result);
            if let Some(t) = turn {
                tally(turns.entry(t.clone()).or_insert([0; 4]), &g.result);
            }
        }
    }
    (at, turns)
}

fn counts(j: &Json) -> Tally {
    ["games", "first", "draws", "second"].map(|k| j[k].as_u64().unwrap())
}

fn tree(file: &str, play: &str, more: &[&str]) -> Json {
    let dir = Path::new(file).parent().unwrap();
    let args = [&["tree", file, "--play", play, "--to", "json"], more].concat();
    let (code, out, err) = run_in(dir, &args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    serde_json::from_str(out.lines().next().unwrap()).unwrap()
}

fn tree_counts(j: &Json) -> (Tally, BTreeMap<String, Tally>) {
    let moves = j["moves"].as_array().unwrap().iter();
    let turns = moves.map(|m| (m["turn"].as_str().unwrap().to_string(), counts(m)));
    (counts(j), turns.collect())
}

/// The tree of the position after game `pick`'s first `k` turns equals
/// the naive count, for depths 20 and `k` + 1.
fn agrees<G: Search + Facts>(game: &str, games: u32, pick: usize, k: usize) {
    let dir = tempfile::tempdir().unwrap();
    let (file, all) = generated(dir.path(), game, games, 41);
    let line = all[pick].turns[..k].join(" ");
    let target = keyed::<G>(&all[pick], k).last().unwrap().0;
    for depth in [20, k + 1] {
        let j = tree(&file, &line, &["--depth", &depth.to_string()]);
        assert_eq!(
            tree_counts(&j),
            naive::<G>(&all, target, depth),
            "{game} depth {depth}"
        );
        assert!(j["games"].as_u64().unwrap() >= 1);
    }
}

#[test]
fn oshi_counts_equal_a_naive_count() {
    agrees::<Oshi>("oshi", 300, 0, 1);
}

#[test]
fn retsami_counts_equal_a_naive_count() {
    agrees::<Retsami>("retsami", 300, 3, 2);
}

#[test]
fn iqishiqi_counts_equal_a_naive_count() {
    agrees::<Iqishiqi>("iqishiqi", 200, 1, 2);
}

#[test]
fn roshi_counts_equal_a_naive_count() {
    agrees::<Roshi>("roshi", 60, 0, 1);
}

#[test]
fn vagabond_counts_equal_a_naive_count() {
    agrees::<Vagabond>("vagabond", 60, 0, 1);
}

#[test]
fn the_start_is_explored_without_play_and_counts_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let (file, all) = generated(dir.path(), "retsami", 100, 7);
    let j = tree(&file, "", &[]);
    let target = keyed::<Retsami>(&all[0], 0)[0].0;
    assert_eq!(tree_counts(&j), naive::<Retsami>(&all, target, 20));
    assert_eq!(j["games"].as_u64(), Some(100));
}

/// A position that two games reach by different move orders, found in a
/// generated archive: exploring it by either line counts both games.
#[test]
fn two_move_orders_that_reach_one_position_merge() {
    let dir = tempfile::tempdir().unwrap();
    let (file, all) = generated(dir.path(), "retsami", 400, 3);
    let mut seen: HashMap<u64, (usize, Vec<String>)> = HashMap::new();
    let found = all.iter().enumerate().find_map(|(i, g)| {
        let walk = keyed::<Retsami>(g, 8);
        walk.iter().enumerate().find_map(|(ply, (key, _))| {
            let line = g.turns[..ply].to_vec();
            match seen.get(key) {
                Some((j, other)) if *j != i && *other != line => Some((*key, other.clone(), line)),
                Some(_) => None,
                None => {
                    seen.insert(*key, (i, line));
                    None
                }
            }
        })
    });
    let (key, line_a, line_b) = found.expect("a transposition within 8 plies");
    let explored = |line: &[String]| {
        let mut j = tree(&file, &line.join(" "), &[]);
        j.as_object_mut().unwrap().remove("play");
        j
    };
    let (one, other) = (explored(&line_a), explored(&line_b));
    assert_eq!(one, other, "both lines explore one position");
    assert!(one["games"].as_u64().unwrap() >= 2);
    assert_eq!(tree_counts(&one), naive::<Retsami>(&all, key, 20));
}

#[test]
fn player_side_and_min_games_choose_what_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("named.grec");
    let game = |red: &str, white: &str, moves: &str, result: &str| {
        format!(
            "[Game \"oshi\"]\n[Red \"{red}\"]\n[White \"{white}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    };
    let text = [
        game("Ann", "Bob", "1. e3-e4 e7-e6", "*"),
        game("Bob", "Ann", "1. e3-e4 d8-d7", "*"),
        game("ann", "Cy", "1. c2-c3 e7-e6", "*"),
    ]
    .concat();
    std::fs::write(&p, text).unwrap();
    let file = p.to_str().unwrap();
    let start = |more: &[&str]| tree(file, "", more);
    assert_eq!(start(&[])["games"], 3);
    assert_eq!(start(&["--player", "ANN"])["games"], 3);
    assert_eq!(start(&["--player", "Ann", "--side", "Red"])["games"], 2);
    assert_eq!(start(&["--player", "Ann", "--side", "second"])["games"], 1);
    assert_eq!(start(&["--player", "Bob"])["games"], 2);
    let turns = |j: Json| j["moves"].as_array().unwrap().len();
    assert_eq!(turns(start(&[])), 2);
    assert_eq!(turns(start(&["--min-games", "2"])), 1);
    // The table says what --min-games left out.
    let (_, table, _) = run_in(dir.path(), &["tree", file, "--min-games", "2"]);
    assert!(
        table.contains("(1 more turn, each played in fewer games than --min-games)"),
        "{table}"
    );
    // A side no game has: a usage error, not an empty answer.
    let args = [
        "tree", file, "--player", "Ann", "--side", "Green", "--to", "json",
    ];
    let (code, out, err) = run_in(dir.path(), &args);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("--side `Green`"), "{err}");
    let after = tree(file, "1. e3-e4", &[]);
    assert_eq!(after["games"], 2);
    assert_eq!(after["to_move"], "White");
    // Unfinished games count as games, not as results.
    assert_eq!(counts(&after), [2, 0, 0, 0]);
    assert_eq!(after["score"], Json::Null);
}

#[test]
fn a_record_with_an_error_in_the_walked_plies_is_reported_and_counts_as_a_game_only() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.grec");
    let good = "[Game \"oshi\"]\n[Result \"1-0\"]\n\n1. e3-e4 e7-e6 1-0\n\n";
    let bad = "[Game \"oshi\"]\n[Result \"1-0\"]\n\n1. e3-e4 e7-e5 1-0\n\n";
    // Past the depth an error is not looked for: results as declared.
    let late = "[Game \"oshi\"]\n[Result \"0-1\"]\n\n1. e3-e4 e7-e6 2. e4-e9 0-1\n\n";
    std::fs::write(&p, [good, bad, late].concat()).unwrap();
    let file = p.to_str().unwrap();
    let run = |depth: &str| {
        run_in(
            dir.path(),
            &[
                "tree", file, "--play", "1. e3-e4", "--depth", depth, "--to", "json",
            ],
        )
    };
    let (code, out, err) = run("20");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("game 2") && err.contains("ply 2"), "{err}");
    let j: Json = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(counts(&j), [3, 1, 0, 0], "{j}");
    let (code, out, err) = run("2");
    assert_eq!(code, 1, "{err}");
    let j: Json = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(counts(&j), [3, 1, 0, 1], "{j}");
}
