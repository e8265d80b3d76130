//! `convert` and `stats` as a user and a script see them: every output
//! parses, the text → JSON → text round trip is exact on every fixture,
//! site strings read back, snapshots of each format, exit codes.

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

fn gamerec() -> Command {
    let mut cmd = Command::cargo_bin("gamerec").unwrap();
    cmd.env_remove("NO_COLOR");
    cmd
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every fixture record file, sorted.
fn fixture_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in fs::read_dir(root().join("fixtures")).unwrap() {
        for f in fs::read_dir(dir.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "grec") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 20, "the fixtures are where they should be");
    files
}

/// Runs gamerec in the crate's root; returns (exit code, stdout, stderr).
fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut cmd = gamerec();
    cmd.current_dir(root()).args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The valid sample games of each game, as snapshot inputs.
const SAMPLES: [&str; 5] = [
    "fixtures/oshi/points-win.grec",
    "fixtures/iqishiqi/unfinished.grec",
    "fixtures/retsami/endings.grec",
    "fixtures/roshi/endings.grec",
    "fixtures/vagabond/games.grec",
];

fn converted(to: &str, extra: &[&str]) -> String {
    let mut args = vec!["convert", "-q", "--to", to];
    args.extend_from_slice(extra);
    args.extend_from_slice(&SAMPLES);
    let (code, out, err) = run(&args, None);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn text_json_text_is_exact_on_every_fixture() {
    for file in fixture_files() {
        let f = file.to_str().unwrap();
        let (_, text, _) = run(&["convert", "-q", f], None);
        let (_, json, _) = run(&["convert", "-q", "--to", "json", f], None);
        let (_, jsonl, _) = run(&["convert", "-q", "--to", "jsonl", f], None);
        let (_, back, _) = run(
            &["convert", "-q", "--from", "json", "-"],
            Some(json.as_bytes()),
        );
        let (_, back_l, _) = run(&["convert", "-q", "-"], Some(jsonl.as_bytes()));
        let (_, again, _) = run(&["convert", "-q", "-"], Some(text.as_bytes()));
        assert_eq!(back, text, "{f}: text -> json -> text");
        assert_eq!(back_l, text, "{f}: text -> jsonl -> text");
        assert_eq!(again, text, "{f}: canonical text is its own canonical form");
    }
}

#[test]
fn converting_keeps_every_comment_tag_and_move() {
    // Everything the parser reads from a record survives text and JSON.
    for file in fixture_files() {
        let f = file.to_str().unwrap();
        let (_, json, _) = run(&["convert", "-q", "--to", "jsonl", f], None);
        let (_, validated, _) = run(&["validate", "--format", "json", f], None);
        let games: Vec<Value> = json
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let reports: Vec<Value> = validated
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for g in &games {
            // A game read only in part (a broken envelope) is still written.
            let index = g["index"].as_u64().unwrap() as usize;
            let report = &reports[index - 1];
            assert_eq!(g["valid"], report["valid"], "{f} game {index}");
            if g["valid"] == Value::Bool(true) {
                assert_eq!(g["outcome"], report["outcome"], "{f} game {index}");
            }
        }
        let source = fs::read(&file).unwrap();
        let source = String::from_utf8_lossy(&source);
        let comments_in = source.matches('{').count();
        let comments_out: usize = games
            .iter()
            .map(|g| {
                g["comments"].as_array().map_or(0, Vec::len)
                    + g["turns"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|t| t["comments"].as_array().map_or(0, Vec::len))
                        .sum::<usize>()
            })
            .sum();
        // Broken envelopes and undecodable comments are reported, not kept.
        if !f.contains("broken") && !f.contains("bad-records") && !f.contains("latin1") {
            assert_eq!(comments_out, comments_in, "{f}: every comment kept");
        }
    }
}

#[test]
fn json_documents_parse_and_follow_the_schema() {
    let out = converted("json", &[]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["format"], "gamerec");
    assert_eq!(doc["version"], 1);
    let games = doc["games"].as_array().unwrap();
    assert!(games.len() >= 10);
    for g in games {
        for key in [
            "file", "index", "game", "valid", "tags", "turns", "result", "outcome",
        ] {
            assert!(g.get(key).is_some(), "{key} missing in {g}");
        }
        assert_eq!(g["tags"][0][0], "Game", "Game is the first tag");
        for (i, t) in g["turns"].as_array().unwrap().iter().enumerate() {
            assert_eq!(t["ply"], i + 1);
            assert!(t["side"].is_string() && t["text"].is_string() && t["kind"].is_string());
        }
    }
}

#[test]
fn csv_rows_parse_one_per_turn_under_the_fixed_header() {
    let out = converted("csv", &[]);
    let jsonl = converted("jsonl", &[]);
    let turns: usize = jsonl
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["turns"]
                .as_array()
                .unwrap()
                .len()
        })
        .sum();
    let mut r = csv::Reader::from_reader(out.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, gamerec::formats::csv::HEADER);
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), turns);
    for row in &rows {
        assert!(row[3].parse::<u32>().is_ok(), "ply is a number: {row:?}");
    }
}

#[test]
fn lossy_targets_say_what_they_left_out() {
    let (code, _, err) = run(&["convert", "--to", "csv", SAMPLES[0]], None);
    assert_eq!(code, 0);
    assert!(
        err.contains("left out 7 tags, 1 comment and 1 result"),
        "{err}"
    );
    let (_, _, err) = run(&["convert", "--to", "json", SAMPLES[0]], None);
    assert!(!err.contains("left out"), "{err}");
}

#[test]
fn garden_gate_export_is_the_reference_string_and_reads_back() {
    // shared/rules/vagabond-pai-sho.md, section 13: the full example game.
    let reference = "0H.L(0,-6);0G.L(2,6);1H.W(-4,0);1G.B(1,6);2H.S(0,-8);2G.C(0,4);\
3H.(0,-8)-(-2,-4);3G.S(8,0);4H.(-4,0)-(-1,3);4G.(8,0)-(4,2);5H.(-1,3)-(0,4);5G.(4,2)-(0,4);\
6H.W(-1,8);6G.F(-6,0);7H.(-1,8)-(1,6);7G.D(-6,1)~~;8H.F(4,5);8G.(-6,1)-(-5,3);9H.D(3,3);\
9G.B(6,-2);10H.(3,3)-(2,6)";
    let (code, out, _) = run(
        &[
            "convert",
            "-q",
            "--skip-invalid",
            "--to",
            "gardengate",
            "fixtures/vagabond/",
        ],
        None,
    );
    // Invalid games are skipped (exit 1 at least); games from a Position
    // the site cannot express are left out (exit 2).
    assert_eq!(code, 2);
    assert_eq!(out.lines().next(), Some(reference));
    // Read back (detected), written again: the same strings.
    let (code, again, err) = run(
        &["convert", "-q", "--to", "gardengate", "-"],
        Some(out.as_bytes()),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, out);
    // One move per line, as the site's UI shows a game, is one game.
    let per_line = reference.replace(';', "\n");
    let (code, text, err) = run(&["convert", "-q", "-"], Some(per_line.as_bytes()));
    assert_eq!(code, 0, "{err}");
    assert_eq!(text.matches("[Game \"vagabond\"]").count(), 1);
    // No result was written; the Lotus capture on the last turn ends it.
    assert!(text.trim_end().ends_with("11. (3,3)-(2,6)"), "{text}");
}

#[test]
fn abstractplay_export_reads_back_and_refuses_other_starts() {
    let (_, out, _) = run(
        &[
            "convert",
            "-q",
            "--to",
            "abstractplay",
            "fixtures/iqishiqi/unfinished.grec",
        ],
        None,
    );
    // H9/H7 I7/G7 G9/G5 in AbstractPlay's labels.
    assert_eq!(out.lines().next(), Some("i7/g8 g9/g7 i6/e7"));
    let (code, again, err) = run(
        &["convert", "-q", "--to", "abstractplay", "-"],
        Some(out.as_bytes()),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, out);
    let (_, text, _) = run(
        &["convert", "-q", "--from", "abstractplay", "-"],
        Some(out.as_bytes()),
    );
    assert!(text.contains("[Coords \"abstractplay\"]"), "{text}");
    // A game from a Position tag cannot be carried: left out, exit 2.
    let (code, _, err) = run(
        &[
            "convert",
            "--to",
            "abstractplay",
            "fixtures/iqishiqi/endings.grec",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(err.contains("cannot express"), "{err}");
    // Another game entirely: left out, exit 2.
    let (code, out, err) = run(&["convert", "--to", "gardengate", SAMPLES[0]], None);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("carries only vagabond"), "{err}");
}

#[test]
fn invalid_games_are_converted_up_to_their_error_or_skipped() {
    let file = "fixtures/oshi/illegal-moves.grec";
    let (code, out, err) = run(&["convert", "--to", "jsonl", file], None);
    assert_eq!(code, 1);
    assert!(err.contains("Error"), "the error is reported: {err}");
    let games: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!games.is_empty());
    for g in &games {
        assert_eq!(g["valid"], false);
        // Every game of this fixture fails at a ply: the turns before it
        // are legal (canonical), that one and the rest are not.
        let ply = g["error"]["ply"].as_u64().expect("an illegal turn");
        for t in g["turns"].as_array().unwrap() {
            let legal = t["legal"].as_bool().unwrap();
            assert_eq!(legal, t["ply"].as_u64().unwrap() < ply, "{g}");
            assert_eq!(legal, t.get("kind").is_some(), "parts only for legal turns");
        }
    }
    let (code, out, _) = run(&["convert", "--skip-invalid", file], None);
    assert_eq!((code, out.as_str()), (1, ""));
    let (code, _, _) = run(&["convert", "--to", "json", "no/such/file.grec"], None);
    assert_eq!(code, 2);
}

#[test]
fn json_that_is_not_a_game_is_reported_not_panicked_on() {
    for input in [
        "{\"format\":\"gamerec\",\"version\":1,\"games\":[{\"tags\":[[\"Game\",\"oshi\"]],\"turns\":[{\"text\":\"e3 e4\"}]}]}",
        "{\"format\":\"gamerec\",\"version\":9,\"games\":[]}",
        "{\"tags\":[[\"Bad Name\",\"x\"]]}\n{\"turns\":7}\n",
        "{\"format\":\"gamerec\"",
    ] {
        let (code, _, err) = run(&["convert", "-"], Some(input.as_bytes()));
        assert_eq!(code, 1, "{input}: {err}");
        assert!(err.contains("Error"), "{err}");
    }
}

#[test]
fn a_json_turn_with_an_assessment_that_is_none_is_malformed() {
    let game = |turn: &str| format!("{{\"tags\":[[\"Game\",\"oshi\"]],\"turns\":[{turn}]}}\n");
    let bad = game("{\"text\":\"e3-e4\",\"assessment\":\"!!!\"}");
    let (code, _, err) = run(&["convert", "--from", "jsonl", "-"], Some(bad.as_bytes()));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("[malformed-json]") && err.contains("\"!!!\""),
        "{err}"
    );
    // Given as a field or glued to the text, one reads as the other.
    let field = game("{\"text\":\"e3-e4\",\"assessment\":\"?!\",\"nags\":[6]}");
    let glued = game("{\"text\":\"e3-e4?!\",\"nags\":[6]}");
    let text = |input: &str| {
        run(
            &["convert", "--from", "jsonl", "-", "-q"],
            Some(input.as_bytes()),
        )
    };
    let (code, out, err) = text(&field);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1. e3-e4?! $6"), "{out}");
    assert_eq!(text(&glued).1, out);
}

#[test]
fn snapshot_text() {
    insta::assert_snapshot!(converted("text", &[]));
}

#[test]
fn snapshot_json() {
    let doc: Value = serde_json::from_str(&converted("json", &[])).unwrap();
    insta::assert_snapshot!(serde_json::to_string_pretty(&doc).unwrap());
}

#[test]
fn snapshot_csv() {
    insta::assert_snapshot!(converted("csv", &[]));
}

#[test]
fn snapshot_sites() {
    let gg = run(&["convert", "-q", "--to", "gardengate", SAMPLES[4]], None).1;
    let ap = run(&["convert", "-q", "--to", "abstractplay", SAMPLES[1]], None).1;
    insta::assert_snapshot!(format!("gardengate:\n{gg}abstractplay:\n{ap}"));
}

fn stats(args: &[&str]) -> String {
    let mut all = vec!["stats", "-q"];
    all.extend_from_slice(args);
    all.extend_from_slice(&SAMPLES);
    let (code, out, err) = run(&all, None);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn snapshot_stats() {
    insta::assert_snapshot!("stats_json", stats(&[]));
    insta::assert_snapshot!("stats_csv", stats(&["--format", "csv"]));
    insta::assert_snapshot!("summary_json", stats(&["--summary"]));
    insta::assert_snapshot!("summary_csv", stats(&["--summary", "--format", "csv"]));
}

#[test]
fn the_documented_headers_are_the_written_ones() {
    let doc = |name: &str| fs::read_to_string(root().join("notation").join(name)).unwrap();
    let stats = doc("stats.md");
    assert!(stats.contains(&gamerec::stats::game_header().join(",")));
    assert!(stats.contains(&gamerec::stats::SUMMARY_COLUMNS.join(",")));
    assert!(doc("convert.md").contains(&gamerec::formats::csv::HEADER.join(",")));
    let (_, out, _) = run(&["stats", "-q", "--format", "csv", SAMPLES[0]], None);
    assert_eq!(
        out.lines().next().unwrap(),
        gamerec::stats::game_header().join(",")
    );
}

#[test]
fn stats_agree_with_validate_and_count_what_the_fixtures_say() {
    let (code, out, _) = run(&["stats", "-q", "fixtures/"], None);
    assert_eq!(code, 1, "the fixtures hold invalid games");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (_, validated, _) = run(&["validate", "--format", "json", "fixtures/"], None);
    let reports: Vec<Value> = validated
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["index"] != Value::Null)
        .collect();
    assert_eq!(rows.len(), reports.len());
    for (row, rep) in rows.iter().zip(&reports) {
        assert_eq!(row["valid"], rep["valid"], "{row}");
        if rep["valid"] == Value::Bool(true) {
            // (An invalid game's statistics cover the turns read and legal,
            // also those of a record read only in part.)
            assert_eq!(row["plies"], rep["plies"], "{row}");
            assert_eq!(row["reason"], rep["outcome"]["reason"]);
            assert_eq!(row["winner"], rep["outcome"]["winner"]);
        }
    }
    // The points-win fixture: Red pushes off a 3-story, a 3-story and a
    // 2-story (its comments say Red 3, Red 6, Red 8).
    let win = rows
        .iter()
        .find(|r| r["file"].as_str().unwrap().ends_with("points-win.grec"))
        .unwrap();
    assert_eq!(win["stats"]["points_first"], 8);
    assert_eq!(win["stats"]["pushed_off_by_first"], 3);
    assert_eq!(win["first_mover"], "Red");
    assert_eq!(win["plies"], 17);
    let (_, summary, _) = run(&["stats", "-q", "--summary", "fixtures/"], None);
    let total: u64 = summary
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["games"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert_eq!(total as usize, reports.len());
}
