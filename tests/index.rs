//! The position index (`gamerec index`): its answers equal a scan's —
//! `filter --reaches/--pattern --index` writes what `filter` writes from
//! the archives, `tree --index` what `tree` writes — on generated archives
//! of every game and on the fixtures (invalid records, compressed, JSON
//! and Parquet inputs among them); an index does not depend on the
//! threads, on the memory cap (runs spilled and merged), or on whether
//! files were added to it later; it never writes over an input, and a
//! changed archive is said, not misread.

#[allow(dead_code)]
mod common;
#[path = "common/run.rs"]
#[allow(dead_code)]
mod run;
use gamerec::game::{Facts, Picture, Search};
use gamerec::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};
use run::run_in;
use std::path::Path;

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args);
    assert!(code == 0 || code == 1, "{args:?}: {code}\n{err}");
    out
}

fn generated(dir: &Path, game: &str, games: u32, seed: u32) -> String {
    let p = dir.join(format!("{game}-{seed}.grec"));
    let p = p.to_str().unwrap().to_string();
    let (n, s) = (games.to_string(), seed.to_string());
    let args = [
        "gen", "--game", game, "--games", &n, "--seed", &s, "--finish", "-o", &p,
    ];
    let (code, _, err) = run_in(dir, &args);
    assert_eq!(code, 0, "{err}");
    p
}

/// The folder of the generation an index's manifest names.
fn generation(dir: &Path) -> std::path::PathBuf {
    let manifest = std::fs::read_to_string(dir.join("index.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    dir.join(v["generation"].as_str().unwrap())
}

/// Every table of an index (of the generation in force), by name, with
/// its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let dir = generation(dir);
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_str().unwrap().to_string(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

/// Positions and patterns of a game's first record: its positions after
/// 0, 3 and 9 plies and after its last; a pattern of an occupied and an
/// empty cell of its last position.
fn probes<G: Search + Facts + Picture>(archive: &str, dir: &Path) -> (Vec<String>, Vec<String>) {
    let turns = run::games_with_turns(dir, archive).remove(0).1;
    let mut pos = G::start(&[]).unwrap();
    let mut positions = vec![G::write_position(&pos)];
    for (ply, text) in turns.iter().enumerate() {
        let mv = G::parse_move(&pos, text).unwrap();
        assert!(G::play(&mut pos, &mv).is_ok());
        if ply + 1 == 3 || ply + 1 == 9 {
            positions.push(G::write_position(&pos));
        }
    }
    positions.push(G::write_position(&pos));
    let board = G::board(&pos);
    let mut pieces = Vec::new();
    G::pieces(&pos, &mut pieces);
    let full = pieces
        .first()
        .map(|p| board.cells[p.cell as usize].label.clone());
    let empty = (0..board.cells.len())
        .find(|&c| pieces.iter().all(|p| p.cell as usize != c))
        .map(|c| board.cells[c].label.clone());
    let mut patterns = Vec::new();
    if let Some(f) = &full {
        patterns.push(format!("{f}=*"));
    }
    if let (Some(f), Some(e)) = (&full, &empty) {
        patterns.push(format!("{f}=* {e}=-"));
    }
    (positions, patterns)
}

/// `filter` with and without the index writes the same games, the same
/// way, for each probe.
fn filters_agree(dir: &Path, archives: &[&str], index: &str, probes: &[(&str, String)]) {
    for (option, probe) in probes {
        for to in [None, Some("jsonl")] {
            let mut scan: Vec<&str> = vec!["filter", "-q"];
            scan.extend(archives);
            scan.extend([*option, probe.as_str()]);
            let mut indexed = vec!["filter", "-q", "--index", index, option, probe.as_str()];
            if let Some(to) = to {
                scan.extend(["--to", to]);
                indexed.extend(["--to", to]);
            }
            let (a, b) = (run_in(dir, &scan), run_in(dir, &indexed));
            assert_eq!(a.0, b.0, "{option} {probe}: exit codes\n{}\n{}", a.2, b.2);
            assert_eq!(a.1, b.1, "{option} {probe} --to {to:?}");
        }
    }
}

fn index_answers_as_a_scan_does<G: Search + Facts + Picture>(game: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let a = generated(dir, game, 40, 5);
    let b = generated(dir, game, 30, 6);
    ok(dir, &["index", "-q", &a, &b, "-o", "ix"]);
    let (positions, patterns) = probes::<G>(&a, dir);
    let mut all: Vec<(&str, String)> = positions.into_iter().map(|p| ("--reaches", p)).collect();
    all.extend(patterns.into_iter().map(|p| ("--pattern", p)));
    filters_agree(dir, &[&a, &b], "ix", &all);
    // The explorer: at the start and two plies on.
    let turns = run::games_with_turns(dir, &a).remove(0).1;
    for play in [String::new(), turns[..2].join(" ")] {
        let scan = ok(dir, &["tree", &a, &b, "--play", &play, "--to", "json"]);
        let indexed = ok(
            dir,
            &["tree", "--index", "ix", "--play", &play, "--to", "json"],
        );
        assert!(!scan.is_empty());
        assert_eq!(scan, indexed, "tree --play {play:?}");
        let depth = ["--depth", "1"];
        let scan = ok(
            dir,
            &[&["tree", &a, &b, "--play", &play][..], &depth].concat(),
        );
        let indexed = ok(
            dir,
            &[&["tree", "--index", "ix", "--play", &play][..], &depth].concat(),
        );
        assert_eq!(scan, indexed, "tree --depth 1 --play {play:?}");
    }
}

#[test]
fn the_oshi_index_answers_as_a_scan_does() {
    index_answers_as_a_scan_does::<Oshi>("oshi");
}

#[test]
fn the_retsami_index_answers_as_a_scan_does() {
    index_answers_as_a_scan_does::<Retsami>("retsami");
}

#[test]
fn the_iqishiqi_index_answers_as_a_scan_does() {
    index_answers_as_a_scan_does::<Iqishiqi>("iqishiqi");
}

#[test]
fn the_roshi_index_answers_as_a_scan_does() {
    index_answers_as_a_scan_does::<Roshi>("roshi");
}

#[test]
fn the_vagabond_index_answers_as_a_scan_does() {
    index_answers_as_a_scan_does::<Vagabond>("vagabond");
}

#[test]
fn the_fixtures_index_answers_as_a_scan_does() {
    // Invalid records, several records a chunk, compressed, JSON and
    // Parquet inputs: each game's start, and patterns of each game type.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let fixtures = fixtures.to_str().unwrap();
    let (code, _, err) = run_in(dir, &["index", "-q", fixtures, "-o", "ix"]);
    assert_eq!(code, 1, "invalid fixtures make the exit code 1: {err}");
    let starts: Vec<String> = ["oshi", "retsami", "iqishiqi", "roshi", "vagabond"]
        .iter()
        .map(|g| {
            let out = ok(dir, &["moves", "--game", g, "--show-position", "--count"]);
            out.lines().next().unwrap().to_string()
        })
        .collect();
    let mut probes: Vec<(&str, String)> = starts.into_iter().map(|p| ("--reaches", p)).collect();
    probes.push(("--pattern", "e5=*".to_string()));
    probes.push(("--pattern", "a1=-".to_string()));
    filters_agree(dir, &[fixtures], "ix", &probes);
    let scan = ok(dir, &["tree", fixtures, "--to", "json"]);
    let (_, indexed, _) = run_in(dir, &["tree", "--index", "ix", "--to", "json"]);
    // The index counts a record with an error anywhere as unfinished; the
    // scan only where the error is within --depth: the positions and
    // their games agree.
    let games = |out: &str| -> Vec<(String, u64)> {
        out.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|j| {
                (
                    j["position"].as_str().unwrap().to_string(),
                    j["games"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(games(&scan), games(&indexed));
}

#[test]
fn an_index_does_not_depend_on_threads_memory_or_files_added_later() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let a = generated(dir, "retsami", 60, 1);
    let b = generated(dir, "oshi", 40, 2);
    ok(dir, &["index", "-q", "-j1", &a, &b, "-o", "whole"]);
    let whole = files(Path::new(&dir.join("whole")));
    assert!(whole.iter().any(|(n, _)| n == "postings-00.parquet"));
    // Runs spilled past a 1 MiB cap and merged, on three threads.
    ok(
        dir,
        &[
            "index", "-q", "-j3", "--memory", "1", &a, &b, "-o", "spilled",
        ],
    );
    assert_eq!(files(&dir.join("spilled")), whole);
    // One file, then the other added.
    ok(dir, &["index", "-q", &a, "-o", "added"]);
    let first = files(&dir.join("added"));
    assert_ne!(first, whole);
    ok(dir, &["index", "-q", &b, "-o", "added"]);
    assert_eq!(files(&dir.join("added")), whole);
    // A file already there is not added again.
    let (code, _, err) = run_in(dir, &["index", "-q", &a, "-o", "added"]);
    assert_eq!(code, 0);
    assert!(err.contains("already in the index"), "{err}");
    assert_eq!(files(&dir.join("added")), whole);
}

#[test]
fn an_index_never_writes_over_an_input_and_a_changed_archive_is_said() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let a = generated(dir, "oshi", 20, 3);
    ok(dir, &["index", "-q", &a, "-o", "ix"]);
    let tables = generation(&dir.join("ix"));
    let games = std::fs::read(tables.join("games.parquet")).unwrap();
    let inside = tables.join("games.parquet");
    let (code, _, err) = run_in(dir, &["index", "-q", inside.to_str().unwrap(), "-o", "ix"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("refusing to write over an input"), "{err}");
    assert_eq!(std::fs::read(tables.join("games.parquet")).unwrap(), games);
    // No work folder is left behind: the lock, the manifest, the tables.
    let mut left: Vec<String> = std::fs::read_dir(dir.join("ix"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, [".lock", "gen-00000001", "index.json"]);
    assert_eq!(std::fs::read_dir(&tables).unwrap().count(), 4 + 16);
    // The archive changes: the index says so rather than read the wrong
    // bytes.
    let start = ok(
        dir,
        &["moves", "--game", "oshi", "--show-position", "--count"],
    );
    let start = start.lines().next().unwrap().to_string();
    let mut text = std::fs::read(&a).unwrap();
    text.splice(0..0, b"\n".iter().copied());
    std::fs::write(&a, text).unwrap();
    let (code, out, err) = run_in(dir, &["filter", "--index", "ix", "--reaches", &start]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("changed since it was indexed"), "{err}");
    assert!(out.is_empty());
    // A folder with no index, and a query the index cannot answer.
    let (code, _, err) = run_in(dir, &["tree", "--index", "nowhere"]);
    assert_eq!(code, 2);
    assert!(err.contains("no index here"), "{err}");
    let (code, _, err) = run_in(dir, &["filter", "--index", "ix", "--player", "x"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--index answers --reaches and --pattern"),
        "{err}"
    );
    let (code, _, err) = run_in(
        dir,
        &["filter", "--index", "ix", "--reaches", "no position"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("no game reads this position"), "{err}");
}

#[test]
fn an_index_of_standard_input_answers_tree_but_cannot_reread_its_games() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let a = generated(dir, "oshi", 20, 4);
    let piped = std::process::Command::new(run::bin())
        .current_dir(dir)
        .args(["index", "-q", "-", "-o", "ix"])
        .stdin(std::fs::File::open(&a).unwrap())
        .output()
        .unwrap();
    assert!(
        piped.status.success(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    let scan = ok(dir, &["tree", &a, "--to", "json"]);
    let indexed = ok(dir, &["tree", "--index", "ix", "--to", "json"]);
    // The same counts; the examples name the stream.
    assert_eq!(scan.replace(&a, "<stdin>"), indexed);
    let start = ok(
        dir,
        &["moves", "--game", "oshi", "--show-position", "--count"],
    );
    let start = start.lines().next().unwrap().to_string();
    let (code, _, err) = run_in(dir, &["filter", "--index", "ix", "--reaches", &start]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be read again"), "{err}");
}

#[test]
fn a_pattern_from_the_index_reads_an_iqishiqi_game_under_abstractplays_labels() {
    // The index keeps turns in the standard (Ludii) spelling; a game
    // whose cells are named by AbstractPlay's labels is replayed from them
    // under its own labels (the fuzz target found the index's replay
    // reading them as AbstractPlay's).
    use gamerec::game::{Notation, Rules};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let record = "[Game \"iqishiqi\"]\n[Coords \"abstractplay\"]\n[Result \"*\"]\n\n1. i7/g8 *\n";
    std::fs::write(dir.join("ap.grec"), record).unwrap();
    let coords = gamerec::record::Tag::unplaced("Coords", "abstractplay");
    let mut pos = Iqishiqi::start(&[coords]).unwrap();
    let mv = Iqishiqi::parse_move(&pos, "i7/g8").unwrap();
    assert!(Iqishiqi::play(&mut pos, &mv).is_ok());
    let (board, mut pieces) = (Iqishiqi::board(&pos), Vec::new());
    Iqishiqi::pieces(&pos, &mut pieces);
    // Every piece of the position after the turn: no earlier one has them.
    let pattern: Vec<String> = pieces
        .iter()
        .map(|p| format!("{}=*", board.cells[p.cell as usize].label))
        .collect();
    let pattern = pattern.join(" ");
    ok(dir, &["index", "-q", "ap.grec", "-o", "ix"]);
    let scan = ok(dir, &["filter", "-q", "ap.grec", "--pattern", &pattern]);
    assert!(scan.contains("i7/g8"), "{pattern}: {scan}");
    let indexed = ok(
        dir,
        &["filter", "-q", "--index", "ix", "--pattern", &pattern],
    );
    assert_eq!(scan, indexed, "{pattern}");
}
