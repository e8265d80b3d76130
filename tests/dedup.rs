//! `gamerec dedup` on a directory of mixed archives: the same games as
//! plain text, gzip'd and as JSON Lines, re-spelled copies, and games that
//! only look alike.

use assert_cmd::Command;
use std::io::Write;
use std::path::Path;

fn gamerec() -> Command {
    let mut c = Command::cargo_bin("gamerec").unwrap();
    c.current_dir(root());
    c
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `a.grec` (Oshi's endings), `b.grec.gz` (the same, gzip'd), `c.jsonl`
/// (the same, as JSON Lines), `d.grec` (Vagabond Pai Sho's games).
fn mixed() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let endings = std::fs::read(root().join("fixtures/oshi/endings.grec")).unwrap();
    std::fs::write(dir.path().join("a.grec"), &endings).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&endings).unwrap();
    std::fs::write(dir.path().join("b.grec.gz"), gz.finish().unwrap()).unwrap();
    let jsonl = gamerec()
        .args(["convert", "--to", "jsonl", "fixtures/oshi/endings.grec"])
        .output()
        .unwrap();
    assert!(jsonl.status.success());
    std::fs::write(dir.path().join("c.jsonl"), jsonl.stdout).unwrap();
    std::fs::copy(
        root().join("fixtures/vagabond/games.grec"),
        dir.path().join("d.grec"),
    )
    .unwrap();
    dir
}

fn games(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("[Game ")).count()
}

#[test]
fn the_same_games_in_three_formats_are_kept_once_and_the_report_names_them() {
    let dir = mixed();
    let out = gamerec()
        .arg("dedup")
        .arg(dir.path())
        .args(["--report", "-o"])
        .arg(dir.path().join("unique.out"))
        .arg("--dups")
        .arg(dir.path().join("dups.out"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let unique = std::fs::read_to_string(dir.path().join("unique.out")).unwrap();
    let dups = std::fs::read_to_string(dir.path().join("dups.out")).unwrap();
    // Oshi's 4 endings once, Vagabond Pai Sho's 7 games (all different).
    assert_eq!(games(&unique), 4 + 7, "{unique}");
    assert_eq!(games(&dups), 8, "{dups}");
    // The originals come out as they were in a.grec.
    let a = std::fs::read_to_string(dir.path().join("a.grec")).unwrap();
    assert!(unique.starts_with(a.trim_end()), "{unique}");
    // Each duplicate names its original; both outputs are valid records.
    assert_eq!(
        dups.matches("{gamerec dedup: a duplicate of game ").count(),
        8
    );
    assert!(dups.contains(&format!(
        "of game 1 of {}, line 1}}",
        dir.path().join("a.grec").display()
    )));
    for f in ["unique.out", "dups.out"] {
        gamerec()
            .arg("validate")
            .arg(dir.path().join(f))
            .assert()
            .success();
    }
    // One line a group: its original in a.grec, a copy in b and c.
    let report = String::from_utf8(out.stdout).unwrap();
    let groups: Vec<serde_json::Value> = report
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(groups.len(), 4);
    for (k, g) in groups.iter().enumerate() {
        assert_eq!(g["games"], 3);
        assert!(g["original"]["file"].as_str().unwrap().ends_with("a.grec"));
        assert_eq!(g["original"]["index"], k + 1);
        let files: Vec<&str> = g["duplicates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["file"].as_str().unwrap())
            .collect();
        assert!(
            files[0].ends_with("b.grec.gz") && files[1].ends_with("c.jsonl"),
            "{g}"
        );
    }
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(
        summary.contains("19 games, 8 duplicates left out, 11 written"),
        "{summary}"
    );
}

const LOOKALIKES: &str = r#"[Game "oshi"]
[Event "original"]
[Result "*"]

1. e3-e4 e7-e6 2. c2-c4 *

[Game "oshi"]
[Event "re-spelled: uppercase, no numbers, comments, other tags"]
[Red "Ana"]
[Result "*"]

{a comment} E3-E4 {another} E7-E6 C2-C4 *

[Game "oshi"]
[Event "the same moves under another rule"]
[NoReturn "opponent"]
[Result "*"]

1. e3-e4 e7-e6 2. c2-c4 *

[Game "oshi"]
[Event "one move fewer"]
[Result "*"]

1. e3-e4 e7-e6 *

[Game "oshi"]
[Event "illegal: never a duplicate"]
[Result "*"]

1. e4-e5 *

[Game "oshi"]
[Event "illegal: never a duplicate"]
[Result "*"]

1. e4-e5 *

[Game "vagabond"]
[Event "one order"]
[Result "*"]

1. W(3,-2) B(4,2) 2. W(-2,3) F(-1,4) *

[Game "vagabond"]
[Event "the other order: the same final position"]
[Result "*"]

1. W(-2,3) F(-1,4) 2. W(3,-2) B(4,2) *
"#;

fn events(args: &[&str]) -> Vec<String> {
    let out = gamerec()
        .args(["dedup", "-", "-q"])
        .args(args)
        .write_stdin(LOOKALIKES)
        .output()
        .unwrap();
    // The illegal games make the exit code 1, as in every command.
    assert_eq!(out.status.code(), Some(1));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| {
            Some(
                l.strip_prefix("[Event \"")?
                    .strip_suffix("\"]")?
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn spelling_numbers_comments_and_tags_do_not_matter_rules_start_and_moves_do() {
    assert_eq!(
        events(&[]),
        [
            "original",
            "the same moves under another rule",
            "one move fewer",
            "illegal: never a duplicate",
            "illegal: never a duplicate",
            "one order",
            "the other order: the same final position",
        ]
    );
    // By final position, the two orders are one game.
    assert_eq!(
        events(&["--by", "final-position"]),
        [
            "original",
            "the same moves under another rule",
            "one move fewer",
            "illegal: never a duplicate",
            "illegal: never a duplicate",
            "one order",
        ]
    );
}

#[test]
fn outputs_are_never_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.grec");
    std::fs::write(&input, LOOKALIKES).unwrap();
    for flag in ["-o", "--dups"] {
        gamerec()
            .arg("dedup")
            .arg(&input)
            .arg(flag)
            .arg(&input)
            .assert()
            .code(2);
        assert_eq!(std::fs::read_to_string(&input).unwrap(), LOOKALIKES);
    }
}
