//! `--lenient` and `--keep-broken`: every repair on the games written for
//! it (tests/data/lenient/, outcomes in its expected.tsv), the repairs'
//! places and texts, the exit codes and summaries, the same repairs through
//! gzip and JSON, and each repaired game converted to canonical text that
//! validates strictly.

use assert_cmd::Command;
use serde_json::Value;
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

const DIR: &str = "tests/data/lenient";

/// `validate --format json` over `path` with `flags`: one object per game.
fn validate_json(path: &Path, flags: &[&str]) -> Vec<Value> {
    let out = gamerec()
        .arg("validate")
        .args(flags)
        .args(["--format", "json", "-j", "2"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn file_name(game: &Value) -> String {
    let file = game["file"].as_str().unwrap();
    Path::new(file)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// `valid 1-0 edge` or `invalid too-far`.
fn verdict(game: &Value) -> String {
    match game["valid"].as_bool().unwrap() {
        true => format!(
            "valid {} {}",
            game["outcome"]["result"].as_str().unwrap(),
            game["outcome"]["reason"].as_str().unwrap()
        ),
        false => format!("invalid {}", game["error"]["code"].as_str().unwrap()),
    }
}

fn repair_codes(game: &Value) -> String {
    let codes: Vec<&str> = game["repairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    match codes.is_empty() {
        true => "-".into(),
        false => codes.join(","),
    }
}

/// One row of expected.tsv.
struct Row {
    file: String,
    index: u64,
    mode: String,
    repairs: String,
    verdict: String,
    strict: String,
}

fn expected() -> Vec<Row> {
    let text = std::fs::read_to_string(root().join(DIR).join("expected.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let (verdict, strict) = f[4..].split_at(f.len() - 5);
            Row {
                file: f[0].into(),
                index: f[1].parse().unwrap(),
                mode: f[2].into(),
                repairs: f[3].into(),
                verdict: verdict.join(" "),
                strict: strict[0].into(),
            }
        })
        .collect()
}

#[test]
fn every_game_written_for_a_repair_reads_as_expected_in_both_modes() {
    let rows = expected();
    for (mode, flag) in [("lenient", "--lenient"), ("keep-broken", "--keep-broken")] {
        let games = validate_json(&root().join(DIR), &[flag]);
        let wanted: Vec<&Row> = rows
            .iter()
            .filter(|r| r.mode == "both" || r.mode == mode)
            .collect();
        assert_eq!(games.len(), wanted.len(), "{mode}: one row per game");
        for g in &games {
            let (file, index) = (file_name(g), g["index"].as_u64().unwrap());
            let row = wanted
                .iter()
                .find(|r| r.file == file && r.index == index)
                .unwrap_or_else(|| panic!("{mode}: no row for {file} {index}"));
            assert_eq!(repair_codes(g), row.repairs, "{mode}: {file} {index}");
            assert_eq!(verdict(g), row.verdict, "{mode}: {file} {index}");
        }
    }
    // Without --lenient: the problems the repairs answer, and no `repairs`.
    for g in validate_json(&root().join(DIR), &[]) {
        let (file, index) = (file_name(&g), g["index"].as_u64().unwrap());
        let row = rows
            .iter()
            .find(|r| r.file == file && r.index == index)
            .unwrap();
        let strict = match g["valid"].as_bool().unwrap() {
            true => "valid".to_string(),
            false => g["error"]["code"].as_str().unwrap().to_string(),
        };
        assert_eq!(strict, row.strict, "strict: {file} {index}");
        assert!(g.get("repairs").is_none(), "strict output has no repairs");
    }
    // Every repair code is exercised by some game.
    for code in gamerec::problem::RepairCode::ALL {
        assert!(
            rows.iter()
                .any(|r| r.repairs.split(',').any(|c| c == code.as_str())),
            "{code} has no game"
        );
    }
}

/// The repairs of game `index` of `file` (--lenient, or `flags`).
fn repairs_of(file: &str, index: u64, flags: &[&str]) -> Vec<Value> {
    let games = validate_json(&root().join(DIR).join(file), flags);
    let game = games
        .iter()
        .find(|g| g["index"].as_u64() == Some(index))
        .unwrap();
    game["repairs"].as_array().unwrap().clone()
}

/// (line, column, ply, before, after) of each repair.
fn shown(repairs: &[Value]) -> Vec<(u64, u64, Option<u64>, String, String)> {
    repairs
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["column"].as_u64().unwrap(),
                r["ply"].as_u64(),
                r["before"].as_str().unwrap().to_string(),
                r["after"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn s(text: &str) -> String {
    text.to_string()
}

#[test]
fn move_numbers_are_renumbered_by_their_ply_where_they_stand() {
    let r = repairs_of("numbers.grec", 1, &["--lenient"]);
    assert_eq!(
        shown(&r),
        [
            (6, 16, Some(3), s("7."), s("2.")),
            (6, 31, Some(5), s("2..."), s("3."))
        ]
    );
    let r = repairs_of("numbers.grec", 2, &["--lenient"]);
    assert_eq!(
        shown(&r),
        [
            (11, 1, Some(1), s("1.."), s("1.")),
            (11, 32, Some(5), s("3.."), s("3.")),
            (11, 47, None, s("4."), s(""))
        ]
    );
    // Roshi: both setups are move 1.
    let r = repairs_of("numbers.grec", 3, &["--lenient"]);
    assert_eq!(shown(&r), [(16, 13, Some(2), s("2."), s("1..."))]);
}

#[test]
fn open_tags_and_comments_are_closed_at_the_end_of_their_line() {
    let r = repairs_of("open.grec", 1, &["--lenient"]);
    let texts: Vec<(String, String)> = shown(&r).into_iter().map(|t| (t.3, t.4)).collect();
    assert_eq!(
        texts,
        [
            (
                s("[Event \"Tag values, a tag pair and a comment left open"),
                s("[Event \"Tag values, a tag pair and a comment left open\"]")
            ),
            (s("[Red \"Ana]"), s("[Red \"Ana\"]")),
            (s("[White \"Ben\""), s("[White \"Ben\"]")),
            (
                s("{White starts on the left"),
                s("{White starts on the left}")
            ),
        ]
    );
    let lines: Vec<u64> = shown(&r).iter().map(|t| t.0).collect();
    assert_eq!(lines, [2, 3, 4, 6]);
    // The tags read are the repaired ones.
    let out = gamerec()
        .args(["convert", "--lenient", "--to", "json"])
        .arg(root().join(DIR).join("open.grec"))
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tags = &doc["games"][0]["tags"];
    assert_eq!(tags[2], serde_json::json!(["Red", "Ana"]));
    assert_eq!(tags[3], serde_json::json!(["White", "Ben"]));
    let comment = doc["games"][0]["turns"][1]["comments"][0].as_str();
    assert_eq!(comment, Some("White starts on the left"));
}

#[test]
fn a_result_is_replaced_only_where_the_rules_decided_the_game() {
    let r = repairs_of("results.grec", 1, &["--lenient"]);
    assert_eq!(
        shown(&r),
        [
            (3, 10, None, s("0-1"), s("1-0")),
            (5, 58, None, s("0-1"), s("1-0"))
        ]
    );
    let r = repairs_of("results.grec", 3, &["--lenient"]);
    assert_eq!(shown(&r), [(16, 10, None, s("1/2-1/2"), s("1-0"))]);
    // A declared win the rules did not reach is a resignation; a result no
    // repair can make agree with a Termination tag stays an error.
    assert!(repairs_of("results.grec", 4, &["--lenient"]).is_empty());
    assert!(repairs_of("results.grec", 5, &["--lenient"]).is_empty());
}

#[test]
fn a_missing_game_tag_is_added_only_when_one_game_accepts_every_turn() {
    let r = repairs_of("game-tag.grec", 1, &["--lenient"]);
    assert_eq!(shown(&r), [(1, 1, None, s(""), s("[Game \"iqishiqi\"]"))]);
    // No turns: every game accepts them; the note says why none was chosen.
    let out = gamerec()
        .args(["validate", "--lenient", "--color", "never"])
        .arg(root().join(DIR).join("game-tag.grec"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "the rules of oshi, iqishiqi, retsami, roshi, vagabond all accept every turn"
        ),
        "{text}"
    );
    assert!(text.contains("no game's rules accept every turn"), "{text}");
}

#[test]
fn a_truncated_last_move_is_dropped_and_a_malformed_one_is_not() {
    let r = repairs_of("truncated.grec", 1, &["--lenient"]);
    assert_eq!(shown(&r), [(4, 25, Some(4), s("g8-"), s(""))]);
    let r = repairs_of("truncated.grec", 3, &["--lenient"]);
    assert_eq!(shown(&r), [(14, 30, Some(4), s("F(-1,"), s(""))]);
    assert!(repairs_of("truncated.grec", 2, &["--lenient"]).is_empty());
}

#[test]
fn keep_broken_keeps_every_turn_and_comment_from_the_first_illegal_one() {
    let r = repairs_of("broken.grec", 1, &["--keep-broken"]);
    assert_eq!(
        shown(&r),
        [(5, 19, Some(3), s("c2-c9 …"), s("{2. c2-c9 g8-g6 3. c1-d1}"))]
    );
    let out = gamerec()
        .args(["convert", "--keep-broken"])
        .arg(root().join(DIR).join("broken.grec"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "1. a1-d1 a9-a7 {2. c2-c9 g8-g6 3. c1-d1} {a comment on the broken move} 1-0"
        ),
        "{text}"
    );
    assert!(text.contains("{1. h1-h9 e1xf1} *"), "{text}");
}

/// (file, index, valid, result, reason, plies) of each game.
fn outcomes(games: &[Value]) -> Vec<(bool, Value, Value, Value)> {
    games
        .iter()
        .map(|g| {
            (
                g["valid"].as_bool().unwrap(),
                g["outcome"]["result"].clone(),
                g["outcome"]["reason"].clone(),
                g["plies"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_repaired_game_converts_to_canonical_text_that_validates_strictly() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["--lenient", "--keep-broken"] {
        for entry in std::fs::read_dir(root().join(DIR)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "grec") {
                continue;
            }
            let lenient = validate_json(&path, &[flag]);
            let out = gamerec()
                .args(["convert", flag, "--skip-invalid"])
                .arg(&path)
                .output()
                .unwrap();
            let converted = dir.path().join("converted.grec");
            std::fs::write(&converted, &out.stdout).unwrap();
            let valid: Vec<Value> = lenient
                .into_iter()
                .filter(|g| g["valid"].as_bool().unwrap())
                .collect();
            if valid.is_empty() {
                assert!(out.stdout.is_empty(), "{flag} {}", path.display());
                continue;
            }
            let strict = validate_json(&converted, &[]);
            assert_eq!(
                outcomes(&strict),
                outcomes(&valid),
                "{flag} {}",
                path.display()
            );
            // Canonical text is a fixed point: converting it again changes
            // nothing.
            let again = gamerec().arg("convert").arg(&converted).output().unwrap();
            assert_eq!(again.stdout, out.stdout, "{flag} {}", path.display());
        }
    }
}

#[test]
fn exit_codes_and_summaries_count_games_and_repairs() {
    let numbers = root().join(DIR).join("numbers.grec");
    let out = gamerec().arg("validate").arg(&numbers).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = gamerec()
        .args(["validate", "--lenient"])
        .arg(&numbers)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("1 file, 4 games: 4 valid, 0 invalid; 3 games repaired (6 repairs)\n"),
        "{text}"
    );
    assert_eq!(
        text.matches(": repaired [move-number] ").count(),
        6,
        "{text}"
    );
    // The whole folder: the summary adds up what the JSON lists.
    let games = validate_json(&root().join(DIR), &["--lenient"]);
    let repaired = games
        .iter()
        .filter(|g| !g["repairs"].as_array().unwrap().is_empty())
        .count();
    let repairs: usize = games
        .iter()
        .map(|g| g["repairs"].as_array().unwrap().len())
        .sum();
    let out = gamerec()
        .args(["validate", "--lenient", "-q"])
        .arg(root().join(DIR))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "some games stay invalid");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("repaired ["));
    for (cmd, extra) in [
        ("convert", &["-o", "/dev/null"][..]),
        ("stats", &["-o", "/dev/null"][..]),
        ("filter", &["--count"][..]),
    ] {
        let out = gamerec()
            .args([cmd, "--lenient"])
            .args(extra)
            .arg(root().join(DIR))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.matches(": repaired [").count(), repairs, "{cmd}: {err}");
        if cmd != "filter" {
            let summary = format!("{repaired} games repaired ({repairs} repairs)");
            assert!(err.contains(&summary), "{cmd}: {err}");
        }
    }
    let out = gamerec()
        .args(["convert", "--lenient", "--syntax-only"])
        .arg(&numbers)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn filter_judges_repaired_games_and_writes_them_as_they_were_or_repaired() {
    let results = root().join(DIR).join("results.grec");
    let count = |flags: &[&str]| {
        let out = gamerec()
            .arg("filter")
            .args(flags)
            .args(["--winner", "first", "--count"])
            .arg(&results)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    // Strictly only the resignation is valid; repaired, two edge wins too.
    assert_eq!(count(&[]), "1");
    assert_eq!(count(&["--lenient"]), "3");
    let raw = gamerec()
        .args(["filter", "--lenient", "--reason", "edge", "-q"])
        .arg(&results)
        .output()
        .unwrap();
    let raw = String::from_utf8(raw.stdout).unwrap();
    let input = std::fs::read_to_string(&results).unwrap();
    assert!(
        input.starts_with(&raw[..raw.find("\n\n[Game").unwrap()]),
        "as written"
    );
    assert!(raw.contains("[Result \"0-1\"]"), "{raw}");
    let repaired = gamerec()
        .args([
            "filter",
            "--lenient",
            "--reason",
            "edge",
            "-q",
            "--to",
            "text",
        ])
        .arg(&results)
        .output()
        .unwrap();
    let repaired = String::from_utf8(repaired.stdout).unwrap();
    assert!(!repaired.contains("[Result \"0-1\"]"), "{repaired}");
    assert!(!repaired.contains(" 0-1\n"), "{repaired}");
    assert_eq!(
        repaired.matches("[Result \"1-0\"]").count(),
        2,
        "{repaired}"
    );
}

#[test]
fn the_same_repairs_are_made_through_gzip_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let results = std::fs::read(root().join(DIR).join("results.grec")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&results).unwrap();
    std::fs::write(dir.path().join("results.grec.gz"), gz.finish().unwrap()).unwrap();
    let plain = validate_json(&root().join(DIR).join("results.grec"), &["--lenient"]);
    let zipped = validate_json(&dir.path().join("results.grec.gz"), &["--lenient"]);
    assert_eq!(
        plain
            .iter()
            .map(|g| g["repairs"].clone())
            .collect::<Vec<_>>(),
        zipped
            .iter()
            .map(|g| g["repairs"].clone())
            .collect::<Vec<_>>()
    );
    // As JSON Lines (written strictly, the wrong results kept): the game's
    // repairs, with no line and column (a JSON game has none of its own).
    let jsonl = gamerec()
        .args(["convert", "--to", "jsonl"])
        .arg(root().join(DIR).join("results.grec"))
        .output()
        .unwrap();
    std::fs::write(dir.path().join("results.jsonl"), jsonl.stdout).unwrap();
    let games = validate_json(&dir.path().join("results.jsonl"), &["--lenient"]);
    assert_eq!(
        games.iter().map(repair_codes).collect::<Vec<_>>(),
        ["result,result", "result,result", "result", "-", "-"]
    );
    assert!(games[0]["repairs"][0]["line"].is_null());
    assert_eq!(verdict(&games[1]), "valid 0-1 roshi");
}
