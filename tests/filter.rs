//! `gamerec filter`: every criterion against what the fixtures' expected
//! outcomes (fixtures/<game>/expected.tsv, worked out by hand) say, and
//! the output: the records as they were, `--to`, `--rest`, the exit codes.

use assert_cmd::Command;
use std::path::Path;

fn gamerec() -> Command {
    let mut c = Command::cargo_bin("gamerec").unwrap();
    c.current_dir(root());
    c
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One game's expected outcome.
#[derive(Debug)]
struct Expected {
    game: String,
    valid: bool,
    result: String,
    reason: String,
    ply: usize,
}

fn expected() -> Vec<Expected> {
    let mut out = Vec::new();
    for game in ["iqishiqi", "oshi", "retsami", "roshi", "vagabond"] {
        let text =
            std::fs::read_to_string(root().join(format!("fixtures/{game}/expected.tsv"))).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f[1] == "-" {
                continue; // a problem with a file as a whole: no game
            }
            let valid = f[2] == "valid";
            out.push(Expected {
                game: game.to_string(),
                valid,
                result: if valid {
                    f[3].to_string()
                } else {
                    String::new()
                },
                reason: if valid {
                    f[5].to_string()
                } else {
                    String::new()
                },
                ply: if valid { f[6].parse().unwrap_or(0) } else { 0 },
            });
        }
    }
    out
}

/// `filter fixtures/ ARGS --count`: the count and the exit code.
fn count(args: &[&str]) -> (usize, i32) {
    let out = gamerec()
        .args(["filter", "fixtures/", "--count"])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{args:?}: {text:?}")),
        out.status.code().unwrap(),
    )
}

#[test]
fn validity_game_winner_reason_and_length_select_what_the_expected_outcomes_say() {
    let all = expected();
    let n = |f: &dyn Fn(&Expected) -> bool| all.iter().filter(|e| f(e)).count();
    assert_eq!(count(&[]).0, all.len());
    assert_eq!(count(&["--valid"]), (n(&|e| e.valid), 0));
    assert_eq!(count(&["--invalid"]).0, n(&|e| !e.valid));
    for game in ["iqishiqi", "oshi", "retsami", "roshi", "vagabond"] {
        assert_eq!(
            count(&["--only-game", game, "--valid"]).0,
            n(&|e| e.game == game && e.valid),
            "{game}"
        );
    }
    for (who, result) in [
        ("first", "1-0"),
        ("second", "0-1"),
        ("draw", "1/2-1/2"),
        ("none", "*"),
    ] {
        assert_eq!(
            count(&["--winner", who]).0,
            n(&|e| e.valid && e.result == result),
            "--winner {who}"
        );
    }
    let mut reasons: Vec<&str> = all
        .iter()
        .filter(|e| e.valid)
        .map(|e| e.reason.as_str())
        .collect();
    reasons.sort();
    reasons.dedup();
    assert!(reasons.len() >= 8, "{reasons:?}");
    for r in &reasons {
        assert_eq!(
            count(&["--reason", r]).0,
            n(&|e| e.valid && e.reason == *r),
            "--reason {r}"
        );
    }
    for k in [1, 5, 10, 20] {
        let ks = k.to_string();
        assert_eq!(
            count(&["--valid", "--min-plies", &ks]).0,
            n(&|e| e.valid && e.ply >= k),
            "--min-plies {k}"
        );
        assert_eq!(
            count(&["--valid", "--max-plies", &ks]).0,
            n(&|e| e.valid && e.ply <= k),
            "--max-plies {k}"
        );
    }
    // --any: either criterion.
    assert_eq!(
        count(&["--winner", "draw", "--reason", "points", "--any"]).0,
        n(&|e| e.valid && (e.result == "1/2-1/2" || e.reason == "points"))
    );
    // A reason's first word stands for it.
    assert_eq!(
        count(&["--reason", "lotus"]).0,
        n(&|e| e.valid && e.reason == "lotus-captured")
    );
}

/// A small archive with known players and tags.
const CLUB: &str = r#"[Game "oshi"]
[Event "Club night"]
[Red "Ana"]
[White "Ben"]
[Result "*"]

1. c2-c4 e7-e6 *

[Game "oshi"]
[Event "Club final"]
[Red "Ben"]
[White "Cy"]
[Result "*"]

1. E3-E4 {as written: uppercase} e7-e6 2. e4-e5 *

[Game "retsami"]
[Event "Open"]
[Red "Cy"]
[White "Ana"]
[Result "*"]

1. h1-i3 *
"#;

fn club(args: &[&str]) -> (String, i32) {
    let out = gamerec()
        .args(["filter", "-"])
        .args(args)
        .write_stdin(CLUB)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

fn events(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.strip_prefix("[Event \"")?.strip_suffix("\"]"))
        .collect()
}

#[test]
fn players_tags_openings_and_positions_select_their_games() {
    assert_eq!(
        events(&club(&["--player", "ana"]).0),
        ["Club night", "Open"]
    );
    assert_eq!(
        events(&club(&["--player", "Ben", "--player", "Cy"]).0),
        ["Club final"]
    );
    assert_eq!(events(&club(&["--tag", "Event=Open"]).0), ["Open"]);
    assert_eq!(
        events(&club(&["--tag", "Event~^Club"]).0),
        ["Club night", "Club final"]
    );
    assert_eq!(
        events(&club(&["--tag", "Event~final$", "--any", "--tag", "Red=Cy"]).0),
        ["Club final", "Open"]
    );
    // Openings compare canonical spellings: `E3-E4` is `e3-e4`.
    assert_eq!(
        events(&club(&["--opening", "1. e3-e4 e7-e6"]).0),
        ["Club final"]
    );
    assert_eq!(events(&club(&["--opening", "e3-e4"]).0), ["Club final"]);
    assert_eq!(events(&club(&["--opening", "C2-C4"]).0), ["Club night"]);
    let (out, code) = club(&["--opening", "e3-e4 d8-d7"]);
    assert_eq!((out.as_str(), code), ("", 1), "no game opens so: exit 1");
    // A position the second game reaches, as `moves --show-position`
    // writes it.
    let shown = gamerec()
        .args([
            "moves",
            "-",
            "--index",
            "2",
            "--ply",
            "3",
            "--show-position",
            "--count",
        ])
        .write_stdin(CLUB)
        .output()
        .unwrap();
    let position = String::from_utf8(shown.stdout).unwrap();
    let position = position.lines().next().unwrap();
    assert_eq!(events(&club(&["--reaches", position]).0), ["Club final"]);
    // The start is reached by every game of its rules.
    let start = gamerec()
        .args(["moves", "--game", "oshi", "--show-position", "--count"])
        .output()
        .unwrap();
    let start = String::from_utf8(start.stdout).unwrap();
    let start = start.lines().next().unwrap().to_string();
    assert_eq!(
        events(&club(&["--reaches", &start]).0),
        ["Club night", "Club final"]
    );
}

#[test]
fn matching_records_come_out_as_they_were_and_the_rest_goes_to_rest() {
    let dir = tempfile::tempdir().unwrap();
    let (hit, rest) = (dir.path().join("hit.grec"), dir.path().join("rest.grec"));
    gamerec()
        .args(["filter", "fixtures/oshi/", "--invalid", "-q", "-o"])
        .arg(&hit)
        .arg("--rest")
        .arg(&rest)
        .assert()
        .success();
    // Every line written is a line of the inputs, unchanged.
    let mut input = String::new();
    for f in std::fs::read_dir(root().join("fixtures/oshi")).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "grec") {
            input.push_str(&String::from_utf8_lossy(&std::fs::read(&p).unwrap()));
            input.push('\n');
        }
    }
    let lines: std::collections::BTreeSet<&str> = input.lines().map(str::trim_end).collect();
    for out in [&hit, &rest] {
        let text = String::from_utf8_lossy(&std::fs::read(out).unwrap()).to_string();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                lines.contains(line.trim_end()),
                "{line:?} is not in the input"
            );
        }
    }
    // Matched and rest together: every game, the same verdicts.
    let summary = |p: &Path| {
        let out = gamerec().arg("validate").arg(p).output().unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .last()
            .unwrap()
            .to_string()
    };
    let all = summary(&root().join("fixtures/oshi"));
    let (h, r) = (summary(&hit), summary(&rest));
    let games = |s: &str| -> usize {
        s.split(", ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let valid = |s: &str| -> usize {
        s.split(": ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(valid(&h), 0, "{h}");
    assert_eq!(games(&h) + games(&r), games(&all), "{h} | {r} | {all}");
    assert_eq!(valid(&r), valid(&all));
}

#[test]
fn to_writes_any_convert_format_and_gzip_inputs_are_read() {
    let out = gamerec()
        .args([
            "filter",
            "fixtures/vagabond/games.grec",
            "--winner",
            "Host",
            "--to",
            "jsonl",
            "-q",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.is_empty());
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["game"], "vagabond");
        assert_eq!(v["valid"], true);
        assert_eq!(v["outcome"]["winner"], "Host", "{v}");
    }
    // A gzip'd copy selects the same games.
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("games.grec.gz");
    let raw = std::fs::read(root().join("fixtures/vagabond/games.grec")).unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, &raw).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let plain = gamerec()
        .args([
            "filter",
            "fixtures/vagabond/games.grec",
            "--winner",
            "Host",
            "-q",
        ])
        .output()
        .unwrap();
    let zipped = gamerec()
        .args(["filter", "--winner", "Host", "-q"])
        .arg(&gz)
        .output()
        .unwrap();
    assert_eq!(plain.stdout, zipped.stdout);
}

#[test]
fn exit_codes_follow_grep_and_inputs_are_never_written_over() {
    assert_eq!(count(&["--winner", "draw"]).1, 0);
    assert_eq!(count(&["--min-plies", "100000"]), (0, 1));
    gamerec()
        .args(["filter", "fixtures/", "--tag", "Event~("])
        .assert()
        .code(2);
    gamerec()
        .args(["filter", "fixtures/", "--winner", "nobody"])
        .assert()
        .code(2);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("club.grec");
    std::fs::write(&input, CLUB).unwrap();
    for flag in ["-o", "--rest"] {
        gamerec()
            .arg("filter")
            .arg(&input)
            .arg(flag)
            .arg(&input)
            .assert()
            .code(2);
        assert_eq!(std::fs::read_to_string(&input).unwrap(), CLUB);
    }
}

/// Found by fuzzing (the picture target): a position written in
/// AbstractPlay's cell names was read in Ludii's, so an Iqishiqi game with
/// `[Coords "abstractplay"]` never reached its own positions.
#[test]
fn reaches_reads_the_position_in_the_games_own_coordinates() {
    let game = "[Game \"iqishiqi\"]\n[Coords \"abstractplay\"]\n[Result \"*\"]\n\n1. i7/g8 *\n";
    let shown = gamerec()
        .args(["moves", "-", "--show-position", "--count"])
        .write_stdin(game)
        .output()
        .unwrap();
    let position = String::from_utf8(shown.stdout).unwrap();
    let position = position.lines().next().unwrap().to_string();
    assert_eq!(position, "g8 i7 s", "AbstractPlay's names");
    let out = gamerec()
        .args(["filter", "-", "--count", "--reaches", &position])
        .write_stdin(game)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "1");
}
