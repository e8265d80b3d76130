//! The sites' own files: AbstractPlay game records written by AbstractPlay's
//! own code (tests/data/abstractplay, made by its make.sh from gameslib's
//! `genRecord`) and Garden Gate links compressed by the site's own
//! LZ-String (tests/data/gardengate, made by its make.sh), plus hand-made
//! edge cases. The verdicts expected are the sites' own: read from the
//! records' players' results, never written into this file.

mod common;

use serde_json::Value;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_gamerec"))
}

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// Runs gamerec with `stdin`; returns exit code, stdout and stderr.
fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = stdin.unwrap_or_default().to_vec();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `validate --format json` of `args`' inputs: one verdict per game.
fn verdicts(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<Value>, String) {
    let mut all = vec!["validate", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, stdin);
    let rows = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (code, rows, err)
}

/// The result and reason a record's own data gives: the players' results
/// (higher wins, equal draws, an abandoned game has none) and the site's
/// ending, if it has one.
fn site_verdict(record: &Value) -> (String, Option<&'static str>) {
    let results: Vec<i64> = record["header"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["result"].as_i64().unwrap())
        .collect();
    let last = record["moves"]
        .as_array()
        .unwrap()
        .last()
        .and_then(|r| r.as_array().unwrap().last())
        .and_then(Value::as_str)
        .unwrap_or("");
    let reason = match last {
        "resign" => Some("resignation"),
        "timeout" => Some("timeout"),
        "draw" => Some("agreement"),
        "abandoned" => Some("abandoned"),
        _ => None,
    };
    let result = if last == "abandoned" {
        "*"
    } else if results[0] > results[1] {
        "1-0"
    } else if results[0] < results[1] {
        "0-1"
    } else {
        "1/2-1/2"
    };
    (result.to_string(), reason)
}

#[test]
fn abstractplay_records_get_the_verdicts_the_site_recorded() {
    let path = data("abstractplay/meta-iqishiqi.json");
    let records: Vec<Value> = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let (code, rows, err) = verdicts(&[path.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows.len(), records.len());
    let mut site_endings = 0;
    for (record, row) in records.iter().zip(&rows) {
        let (result, reason) = site_verdict(record);
        assert_eq!(row["valid"], true, "{row}");
        assert_eq!(row["outcome"]["result"], result.as_str(), "{row}\n{record}");
        let winner = match result.as_str() {
            "1-0" => Value::from("North"),
            "0-1" => Value::from("South"),
            _ => Value::Null,
        };
        assert_eq!(row["outcome"]["winner"], winner, "{row}");
        if let Some(reason) = reason {
            site_endings += 1;
            assert_eq!(row["outcome"]["reason"], reason, "{row}");
        }
        // Every board move is a ply.
        let moves = record["moves"].as_array().unwrap().iter();
        let entries = moves.flat_map(|r| r.as_array().unwrap().iter()).count();
        let plies = entries - usize::from(reason.is_some());
        assert_eq!(row["plies"], plies, "{row}");
    }
    assert!(site_endings >= 4, "the data has every kind of site ending");
}

#[test]
fn abstractplay_records_round_trip_through_text_byte_for_byte() {
    for entry in fs::read_dir(data("abstractplay/single")).unwrap() {
        let path = entry.unwrap().path();
        let original = fs::read(&path).unwrap();
        let (code, text, err) = run(&["convert", "-q", path.to_str().unwrap()], None);
        assert_eq!(code, 0, "{err}");
        let (code, back, err) = run(
            &["convert", "-q", "--to", "abstractplay-record", "-"],
            Some(&text),
        );
        assert_eq!(code, 0, "{err}");
        let mut expected = original.clone();
        expected.push(b'\n');
        assert_eq!(
            String::from_utf8_lossy(&back),
            String::from_utf8_lossy(&expected),
            "{}",
            path.display()
        );
    }
    // A bulk file: an array of the same records.
    let path = data("abstractplay/meta-iqishiqi.json");
    let (_, text, _) = run(&["convert", "-q", path.to_str().unwrap()], None);
    let (code, back, err) = run(
        &["convert", "-q", "--to", "abstractplay-record", "-"],
        Some(&text),
    );
    assert_eq!(code, 0, "{err}");
    let back: Value = serde_json::from_slice(&back).unwrap();
    let original: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(back, original);
}

#[test]
fn other_games_in_a_bulk_file_are_skipped_and_counted_three_players_refused() {
    let path = data("abstractplay/ALL.json");
    let records: Vec<Value> = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let mut others: Vec<(String, usize)> = Vec::new();
    let (mut two, mut three) = (0, 0);
    for r in &records {
        let name = r["header"]["game"]["name"].as_str().unwrap();
        if name == "Iqishiqi" {
            match r["header"]["players"].as_array().unwrap().len() {
                2 => two += 1,
                _ => three += 1,
            }
            continue;
        }
        match others.iter_mut().find(|(n, _)| n == name) {
            Some((_, k)) => *k += 1,
            None => others.push((name.to_string(), 1)),
        }
    }
    assert!(three > 0 && !others.is_empty());
    let (code, rows, err) = verdicts(&[path.to_str().unwrap()], None);
    assert_eq!(code, 1, "three-player games are invalid here: {err}");
    assert_eq!(rows.len(), two + three);
    let refused: Vec<&Value> = rows.iter().filter(|r| r["valid"] == false).collect();
    assert_eq!(refused.len(), three);
    for r in refused {
        assert_eq!(r["error"]["code"], "unsupported-record", "{r}");
        assert!(
            r["error"]["message"].as_str().unwrap().contains("3-player"),
            "{r}"
        );
    }
    let total: usize = others.iter().map(|(_, n)| n).sum();
    let list: Vec<String> = others.iter().map(|(n, k)| format!("{n} {k}")).collect();
    let note = format!(
        "skipped {total} records of {} other games ({})",
        others.len(),
        list.join(", ")
    );
    assert!(err.contains(&note), "{note}\n{err}");
}

/// A record of the generated data with its header and moves replaced.
fn record(moves: &str, results: [&str; 2]) -> String {
    format!(
        "{{\"header\":{{\"game\":{{\"name\":\"Iqishiqi\",\"variants\":[]}},\"site\":{{\"name\":\"Abstract Play\",\"gameid\":\"iqishiqi#1\"}},\
         \"date-start\":\"2025-01-01T00:00:00.000Z\",\"date-end\":\"2025-01-02T00:00:00.000Z\",\"date-generated\":\"2025-01-03T00:00:00.000Z\",\
         \"players\":[{{\"name\":\"Ana\",\"result\":{}}},{{\"name\":\"Ben\",\"result\":{}}}]}},\"moves\":{moves}}}",
        results[0], results[1]
    )
}

#[test]
fn site_endings_give_the_result_and_reason_the_players_results_say() {
    for (moves, results, result, reason) in [
        ("[[\"resign\"]]", ["0", "1"], "0-1", "resignation"),
        ("[[\"o8/g7\",\"timeout\"]]", ["1", "0"], "1-0", "timeout"),
        (
            "[[\"o8/g7\",\"b7/h7\"],[\"draw\"]]",
            ["1", "1"],
            "1/2-1/2",
            "agreement",
        ),
        ("[[\"o8/g7\",\"abandoned\"]]", ["0", "0"], "*", "abandoned"),
        // A short last round ending in null: the seat did not play.
        ("[[\"o8/g7\",null]]", ["0", "0"], "1/2-1/2", "agreement"),
    ] {
        let text = record(moves, results);
        let (code, rows, err) = verdicts(&["-"], Some(text.as_bytes()));
        assert_eq!(code, 0, "{moves}: {err}");
        assert_eq!(rows[0]["outcome"]["result"], result, "{moves}: {}", rows[0]);
        assert_eq!(rows[0]["outcome"]["reason"], reason, "{moves}: {}", rows[0]);
        // And the record comes back whole.
        let (_, back_text, _) = run(&["convert", "-q", "-"], Some(text.as_bytes()));
        let (_, back, _) = run(
            &["convert", "-q", "--to", "abstractplay-record", "-"],
            Some(&back_text),
        );
        assert_eq!(String::from_utf8(back).unwrap(), format!("{text}\n"));
    }
}

/// `(line, column)` of the first `needle` in `text` (1-based, characters).
fn place(text: &str, needle: &str) -> (u64, u64) {
    let at = text.find(needle).unwrap();
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    (line as u64, col as u64)
}

#[test]
fn problems_in_a_record_are_located_at_the_offending_json() {
    // A board move after a resignation; results against the resignation;
    // a null where a seat must play; results a decided game contradicts.
    let pretty = |moves: &str, results: [&str; 2]| {
        let v: Value = serde_json::from_str(&record(moves, results)).unwrap();
        serde_json::to_string_pretty(&v).unwrap()
    };
    for (text, code, needle) in [
        (
            pretty("[[\"o8/g7\",\"resign\"],[\"b7/h7\"]]", ["1", "0"]),
            "move-after-end",
            "\"b7/h7\"",
        ),
        (
            pretty("[[\"o8/g7\",\"resign\"]]", ["1", "1"]),
            "wrong-result",
            "\"result\": 1",
        ),
        (
            pretty("[[\"o8/g7\",null],[\"b7/h7\"]]", ["0", "0"]),
            "malformed-site-record",
            "null",
        ),
    ] {
        let (exit, rows, err) = verdicts(&["-"], Some(text.as_bytes()));
        assert_eq!(exit, 1, "{err}");
        let e = &rows[0]["error"];
        assert_eq!(e["code"], code, "{e}\n{text}");
        let (line, column) = place(&text, needle);
        let at = (e["line"].as_u64().unwrap(), e["column"].as_u64().unwrap());
        let expected = if needle.starts_with("\"result") {
            (line, column + 10)
        } else {
            (line, column)
        };
        assert_eq!(at, expected, "{e}\n{text}");
    }
    // A decided game whose results say the other side won: take a record
    // the rules end, swap its players' results.
    let path = data("abstractplay/meta-iqishiqi.json");
    let records: Vec<Value> = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let decided = records
        .iter()
        .find(|r| site_verdict(r).1.is_none() && site_verdict(r).0 == "1-0")
        .unwrap();
    let mut swapped = decided.clone();
    swapped["header"]["players"][0]["result"] = 0.into();
    swapped["header"]["players"][1]["result"] = 1.into();
    let text = serde_json::to_string(&swapped).unwrap();
    let (exit, rows, _) = verdicts(&["-"], Some(text.as_bytes()));
    assert_eq!(exit, 1);
    assert_eq!(rows[0]["error"]["code"], "wrong-result", "{}", rows[0]);
}

#[test]
fn a_bulk_file_cut_short_keeps_its_whole_records() {
    let text = fs::read_to_string(data("abstractplay/meta-iqishiqi.json")).unwrap();
    let records: Vec<Value> = serde_json::from_str(&text).unwrap();
    let cut = &text[..text.len() * 2 / 3];
    let whole = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .scan(1usize, |at, r| {
            *at += r.len() + 1;
            Some(*at)
        })
        .filter(|&end| end <= cut.len())
        .count();
    let (code, rows, err) = verdicts(&["-"], Some(cut.as_bytes()));
    assert_eq!(code, 1, "{err}");
    assert_eq!(rows.len(), whole + 1);
    assert!(rows[..whole].iter().all(|r| r["valid"] == true));
    let last = &rows[whole]["error"];
    assert_eq!(last["code"], "malformed-site-record", "{last}");
    assert!(
        last["message"].as_str().unwrap().contains("cut short"),
        "{last}"
    );
}

#[test]
fn garden_gate_links_made_by_the_sites_lz_string_read_and_write_back_identically() {
    let links = data("gardengate/links.txt");
    let games = data("gardengate/games.txt");
    let (code, from_links, err) = verdicts(&[links.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    let (_, from_notation, _) = verdicts(&["--game", "vagabond", games.to_str().unwrap()], None);
    assert_eq!(from_links.len(), from_notation.len());
    for (a, b) in from_links.iter().zip(&from_notation) {
        assert_eq!(a["plies"], b["plies"], "{a}\n{b}");
        assert_eq!(a["outcome"], b["outcome"], "{a}\n{b}");
    }
    // link -> text -> link gives the site's own link, byte for byte.
    let (_, text, _) = run(&["convert", "-q", links.to_str().unwrap()], None);
    let (code, back, err) = run(
        &["convert", "-q", "--to", "gardengate-link", "-"],
        Some(&text),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        String::from_utf8(back).unwrap(),
        fs::read_to_string(&links).unwrap()
    );
    // The side tags and options came from the link.
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("[Host \"Ana\"]") && text.contains("[Options \"DoubleTiles\"]"));
}

#[test]
fn garden_gate_links_without_a_vagabond_game_say_why() {
    let other = data("gardengate/other.txt");
    let (code, rows, err) = verdicts(&[other.to_str().unwrap()], None);
    assert_eq!(code, 1, "{err}");
    let codes: Vec<&str> = rows
        .iter()
        .map(|r| r["error"]["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["offline-link", "offline-link"], "{rows:?}");
    assert!(rows[0]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("shortened"));
    assert!(rows[1]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("spectate"));
    assert_eq!(rows[1]["error"]["line"], 2);
    assert!(
        err.contains("skipped 1 record of 1 other game (gameType 1 1)"),
        "{err}"
    );
    // A payload that is not the site's: located on its line.
    let (code, rows, _) = verdicts(
        &["--from", "gardengate-link", "-"],
        Some(b"\nhttps://skudpaisho.com/?%%%\n"),
    );
    assert_eq!(code, 1);
    assert_eq!(rows[0]["error"]["code"], "malformed-site-record");
    assert_eq!(rows[0]["error"]["line"], 2);
}

/// The violations of the recranks schema 1-0-0 (the site's own, kept in
/// tests/data/abstractplay/recranks) Python's `jsonschema` finds in each
/// file of `files`, and how many records it checked.
fn schema_violations(files: &[&Path]) -> (Vec<Value>, usize) {
    let py = common::python_path(&[
        ("jsonschema", "jsonschema"),
        ("rfc3339_validator", "rfc3339-validator"),
    ]);
    let out = Command::new("python3")
        .arg(data("abstractplay/check_schema.py"))
        .arg(data("abstractplay/recranks/gamerecord.json"))
        .args(files)
        .env("PYTHONPATH", py)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let (last, lines) = stdout.trim_end().rsplit_once('\n').unwrap_or(("", &stdout));
    let (last, lines) = if lines.starts_with("checked") {
        (lines, last)
    } else {
        (last, lines)
    };
    let checked = last
        .strip_prefix("checked ")
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "check_schema.py said:\n{stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let violations = lines
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (violations, checked)
}

#[test]
fn abstractplay_records_written_validate_against_the_recranks_schema() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, args: &[&str], stdin: Option<&[u8]>| -> PathBuf {
        let mut all = vec!["convert", "-q", "--to", "abstractplay-record"];
        all.extend_from_slice(args);
        let (code, out, err) = run(&all, stdin);
        // 1: invalid games among them; 2: games starting from a position,
        // which a record cannot express, left out (notation/convert.md).
        assert!(code <= 1 || err.contains("cannot express"), "{err}");
        let path = dir.path().join(name);
        fs::write(&path, out).unwrap();
        path
    };
    // Every record of the site's own files, read and written back.
    let mut site = Vec::new();
    for entry in fs::read_dir(data("abstractplay/single")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        site.push(write(&name, &[path.to_str().unwrap()], None));
    }
    for name in ["meta-iqishiqi.json", "ALL.json"] {
        let path = data(&format!("abstractplay/{name}"));
        site.push(write(name, &[path.to_str().unwrap()], None));
    }
    let files: Vec<&Path> = site.iter().map(PathBuf::as_path).collect();
    let (violations, checked) = schema_violations(&files);
    assert!(violations.is_empty(), "{violations:#?}");
    assert!(checked >= 40, "{checked} records");

    // Games that were never records: the Iqishiqi fixtures and generated
    // games. A finished game's record validates; an unfinished or invalid
    // game's has `null` results (as gameslib writes one), which the schema
    // (for finished games only) refuses, and nothing else.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/iqishiqi");
    let from_fixtures = write("fixtures.json", &[fixtures.to_str().unwrap()], None);
    let (code, generated, err) = run(
        &["gen", "--game", "iqishiqi", "--games", "60", "--seed", "21"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let from_gen = write("gen.json", &["-"], Some(&generated));
    let (violations, checked) = schema_violations(&[&from_fixtures, &from_gen]);
    let mut finished = 0;
    for (file, path) in [(&from_fixtures, "fixtures"), (&from_gen, "gen")] {
        let records: Vec<Value> = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        for (i, record) in records.iter().enumerate() {
            let results: Vec<&Value> = record["header"]["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| &p["result"])
                .collect();
            let file = file.to_str().unwrap();
            let mine: Vec<&Value> = violations
                .iter()
                .filter(|v| v["file"] == file && v["index"] == i)
                .collect();
            if results.iter().all(|r| r.is_i64()) {
                finished += 1;
                assert!(mine.is_empty(), "{path} record {i}: {mine:#?}\n{record}");
            } else {
                assert!(results.iter().all(|r| r.is_null()), "{record}");
                for v in mine {
                    let at = v["path"].as_str().unwrap();
                    let unique = at == "/header/players"
                        && v["message"].as_str().unwrap().contains("non-unique");
                    assert!(at.ends_with("/result") || unique, "{path} record {i}: {v}");
                }
            }
        }
    }
    assert!(finished >= 60, "{finished} finished of {checked}");

    // The validator is not blind: a record without its end date, with a
    // result that is not a number or with a member the schema does not
    // know is refused.
    let one: Value = serde_json::from_str(&fs::read_to_string(&site[0]).unwrap()).unwrap();
    let mut broken = Vec::new();
    for (i, edit) in ["date-end", "result", "extra"].iter().enumerate() {
        let mut r = one.clone();
        match *edit {
            "date-end" => {
                r["header"].as_object_mut().unwrap().remove("date-end");
            }
            "result" => r["header"]["players"][0]["result"] = Value::from("1"),
            _ => r["moves"][0] = Value::from("h9/h7"),
        }
        let path = dir.path().join(format!("broken-{i}.json"));
        fs::write(&path, r.to_string()).unwrap();
        broken.push(path);
    }
    let files: Vec<&Path> = broken.iter().map(PathBuf::as_path).collect();
    let (violations, checked) = schema_violations(&files);
    assert_eq!(checked, 3);
    for path in &broken {
        assert!(
            violations
                .iter()
                .any(|v| v["file"] == path.to_str().unwrap()),
            "{} was not refused: {violations:#?}",
            path.display()
        );
    }
}

/// The games of a canonical text, one string each.
fn games_of(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Game ") || games.is_empty() {
            games.push(String::new());
        }
        games.last_mut().unwrap().push_str(line);
    }
    games
}

/// Whether each game of a JSON Lines conversion has an `Options` tag.
fn with_options(jsonl: &[u8]) -> Vec<bool> {
    String::from_utf8_lossy(jsonl)
        .lines()
        .map(|l| {
            let game: Value = serde_json::from_str(l).unwrap();
            let tags = game["tags"].as_array().unwrap();
            tags.iter().any(|t| t[0] == "Options")
        })
        .collect()
}

/// The turns each game of a JSON Lines conversion has, as written.
fn turns_of(jsonl: &[u8]) -> Vec<Vec<String>> {
    String::from_utf8_lossy(jsonl)
        .lines()
        .map(|l| {
            let game: Value = serde_json::from_str(l).unwrap();
            game["turns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["text"].as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn a_folder_of_downloaded_site_files_validates_converts_every_way_and_gives_stats() {
    use flate2::{write::GzEncoder, Compression};
    // What a player downloads: single records as the game page gives them,
    // a bulk file (gzipped), and a file of Garden Gate links.
    let dir = tempfile::tempdir().unwrap();
    let downloads = dir.path().join("downloads");
    fs::create_dir_all(downloads.join("abstractplay/meta")).unwrap();
    fs::create_dir_all(downloads.join("gardengate")).unwrap();
    let mut site_records: Vec<(String, Value)> = Vec::new();
    let mut singles: Vec<PathBuf> = fs::read_dir(data("abstractplay/single"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    singles.sort();
    for path in &singles {
        let to = downloads
            .join("abstractplay")
            .join(path.file_name().unwrap());
        fs::copy(path, &to).unwrap();
        let record = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
        site_records.push((to.to_str().unwrap().to_string(), record));
    }
    let bulk = fs::read(data("abstractplay/meta-iqishiqi.json")).unwrap();
    let gz = downloads.join("abstractplay/meta/iqishiqi.json.gz");
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(&bulk).unwrap();
    fs::write(&gz, encoder.finish().unwrap()).unwrap();
    let bulk: Vec<Value> = serde_json::from_slice(&bulk).unwrap();
    for record in bulk {
        site_records.push((gz.to_str().unwrap().to_string(), record));
    }
    let links = downloads.join("gardengate/links.txt");
    fs::copy(data("gardengate/links.txt"), &links).unwrap();
    let all = downloads.to_str().unwrap();

    // validate: every game valid, with the result, winner and ending the
    // site recorded (AbstractPlay: the players' results; Garden Gate: the
    // game the link holds, as its notation gives it).
    let (code, rows, err) = verdicts(&[all], None);
    assert_eq!(code, 0, "{err}");
    let (_, from_notation, _) = verdicts(
        &[
            "--game",
            "vagabond",
            data("gardengate/games.txt").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(rows.len(), site_records.len() + from_notation.len());
    let (ap_rows, gg_rows) = rows.split_at(site_records.len());
    let mut per_file = std::collections::HashMap::new();
    let mut winners = Vec::new();
    for ((file, record), row) in site_records.iter().zip(ap_rows) {
        let index = per_file.entry(file.clone()).or_insert(0);
        *index += 1;
        assert_eq!(
            (&row["file"], &row["index"]),
            (&Value::from(file.as_str()), &Value::from(*index))
        );
        let (result, reason) = site_verdict(record);
        assert_eq!(row["outcome"]["result"], result.as_str(), "{row}");
        if let Some(reason) = reason {
            assert_eq!(row["outcome"]["reason"], reason, "{row}");
        }
        // Seat 0 moves first and is North.
        let (winner, player) = match result.as_str() {
            "1-0" => ("North", record["header"]["players"][0]["name"].clone()),
            "0-1" => ("South", record["header"]["players"][1]["name"].clone()),
            _ => ("", Value::Null),
        };
        let side = if winner.is_empty() {
            Value::Null
        } else {
            Value::from(winner)
        };
        assert_eq!(row["outcome"]["winner"], side, "{row}");
        winners.push(player);
    }
    for (row, expected) in gg_rows.iter().zip(&from_notation) {
        assert_eq!(row["file"], links.to_str().unwrap());
        assert_eq!(row["outcome"], expected["outcome"], "{row}");
        assert_eq!(row["plies"], expected["plies"], "{row}");
    }

    // convert to every format and back. The lossless ones give the same
    // canonical text; each site's file format carries its own site's games
    // (the others are left out and said, exit 2), byte for byte; the move
    // strings carry the moves; CSV has a row per turn.
    let (code, canonical, err) = run(&["convert", "-q", all], None);
    assert_eq!(code, 0, "{err}");
    let canonical = String::from_utf8(canonical).unwrap();
    let games = games_of(&canonical);
    assert_eq!(games.len(), rows.len());
    let trimmed = |games: Vec<String>| -> Vec<String> {
        games.iter().map(|g| g.trim_end().to_string()).collect()
    };
    let of = |game: &str| -> Vec<String> {
        let tag = format!("[Game \"{game}\"]");
        trimmed(
            games
                .iter()
                .filter(|g| g.starts_with(&tag))
                .cloned()
                .collect(),
        )
    };
    let every = trimmed(games.clone());
    for (to, expected) in [
        ("json", every.clone()),
        ("jsonl", every.clone()),
        ("abstractplay-record", of("iqishiqi")),
        ("gardengate-link", of("vagabond")),
    ] {
        let (code, out, err) = run(&["convert", "-q", "--to", to, all], None);
        let expected_code = if expected == every { 0 } else { 2 };
        assert_eq!(code, expected_code, "--to {to}: {err}");
        if expected_code == 2 {
            assert!(err.contains("left out"), "--to {to}: {err}");
        }
        let (code, back, err) = run(&["convert", "-q", "--from", to, "-"], Some(&out));
        assert_eq!(code, 0, "--from {to}: {err}");
        let back = trimmed(games_of(&String::from_utf8(back).unwrap()));
        assert_eq!(back.len(), expected.len(), "--to {to} and back");
        for (b, e) in back.iter().zip(&expected) {
            assert_eq!(b, e, "--to {to} and back");
        }
    }
    let (_, jsonl, _) = run(&["convert", "-q", "--to", "jsonl", all], None);
    // A game with options (a setting) is left out of move strings, which
    // cannot express it.
    let turns: Vec<Vec<String>> = turns_of(&jsonl)
        .into_iter()
        .zip(with_options(&jsonl))
        .filter(|(_, options)| !options)
        .map(|(t, _)| t)
        .collect();
    let (ap_turns, gg_turns) = turns.split_at(site_records.len());
    for (to, game, expected) in [
        ("abstractplay", "iqishiqi", ap_turns),
        ("gardengate", "vagabond", gg_turns),
    ] {
        let (code, out, err) = run(&["convert", "--to", to, all], None);
        assert_eq!(code, 2, "--to {to}: {err}");
        assert!(err.contains("cannot carry tags"), "--to {to}: {err}");
        assert!(err.contains("games: left out"), "--to {to}: {err}");
        let (code, back, err) = run(
            &[
                "convert", "-q", "--to", "jsonl", "--from", to, "--game", game, "-",
            ],
            Some(&out),
        );
        assert_eq!(code, 0, "--from {to}: {err}");
        // A line per game (a game without a move: an empty line, which
        // reads back as no game), with the same board moves in the site's
        // spelling (site endings such as `resign` are results, which move
        // strings do not carry).
        assert_eq!(out.split(|&b| b == b'\n').count() - 1, expected.len());
        let back = turns_of(&back);
        let expected: Vec<_> = expected.iter().filter(|t| !t.is_empty()).cloned().collect();
        assert!(expected.len() >= 10, "--to {to}");
        assert_eq!(back, expected, "--to {to} and back");
    }
    let (code, csv, err) = run(&["convert", "-q", "--to", "csv", all], None);
    assert_eq!(code, 0, "{err}");
    let plies: u64 = rows.iter().map(|r| r["plies"].as_u64().unwrap()).sum();
    assert_eq!(
        csv::Reader::from_reader(&csv[..]).records().count() as u64,
        plies
    );

    // stats: a row per game with the verdict validate gave, and the
    // summary counts every game.
    let (code, out, err) = run(&["stats", "-q", "--format", "json", all], None);
    assert_eq!(code, 0, "{err}");
    let stats: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(stats.len(), rows.len());
    for (s, row) in stats.iter().zip(&rows) {
        assert_eq!(s["result"], row["outcome"]["result"], "{s}");
        assert_eq!(s["winner"], row["outcome"]["winner"], "{s}");
        assert_eq!(s["reason"], row["outcome"]["reason"], "{s}");
        assert_eq!(s["plies"], row["plies"], "{s}");
    }
    // The players who won, by the names the site gave them.
    for (s, player) in stats.iter().zip(&winners) {
        assert_eq!(&s["winner_player"], player, "{s}");
    }
    let (code, out, err) = run(&["stats", "-q", "--summary", "--format", "csv", all], None);
    assert_eq!(code, 0, "{err}");
    let games: u64 = csv::Reader::from_reader(&out[..])
        .deserialize::<std::collections::HashMap<String, String>>()
        .map(|r| r.unwrap()["games"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(games, rows.len() as u64);
}

/// Found by fuzzing (`site`): a record with a member twice (JSON allows
/// it; the second is kept in an `…Extra` tag) lost one of them when
/// written back, and a tag of extra members that was not a JSON object
/// vanished without being counted.
#[test]
fn a_record_with_a_member_twice_is_written_back_as_it_was() {
    let path = data("abstractplay/single/iqishiqi-1.json");
    let original = fs::read_to_string(&path).unwrap();
    let twice = original
        .replacen("\"round\":", "\"round\":\"9\",\"round\":", 1)
        .replacen(
            "\"players\":[{",
            "\"players\":[{\"x\":{\"a\":1,\"a\":2},\"x\":3,",
            1,
        );
    assert_ne!(twice, original, "the record has a round and players");
    let (code, text, err) = run(&["convert", "-q", "-"], Some(twice.as_bytes()));
    assert_eq!(code, 0, "{err}");
    let (code, back, err) = run(
        &["convert", "-q", "--to", "abstractplay-record", "-"],
        Some(&text),
    );
    assert_eq!(code, 0, "{err}");
    // Every member comes back (members without a tag of their own after
    // the others), and the game reads back to the same text.
    let back = String::from_utf8(back).unwrap();
    for member in [
        "\"round\":\"9\"",
        "\"round\":\"1\"",
        "\"x\":{\"a\":1,\"a\":2},\"x\":3",
    ] {
        assert!(back.contains(member), "{member} in {back}");
    }
    assert_eq!(back.len(), twice.trim_end().len() + 1, "{back}");
    let (code, again, err) = run(&["convert", "-q", "-"], Some(back.as_bytes()));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        String::from_utf8_lossy(&again),
        String::from_utf8_lossy(&text)
    );
    // An extra-members tag that is not a JSON object: left out, counted.
    let text = String::from_utf8(text).unwrap();
    let edited = text.replacen("[Event ", "[HeaderExtra \"not an object\"]\n[Event ", 1);
    assert_ne!(edited, text);
    let (code, _, err) = run(
        &["convert", "--to", "abstractplay-record", "-"],
        Some(edited.as_bytes()),
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("left out 1 tag,"), "{err}");
}

/// A tag is one line: a record whose player's name holds a line break is
/// refused at that name (found by fuzzing, `site`, on links).
#[test]
fn a_line_break_in_a_record_value_is_refused_where_it_stands() {
    let original = fs::read_to_string(data("abstractplay/single/iqishiqi-1.json")).unwrap();
    let broken = original.replacen("\"Chlo", "\"Ch\\nlo", 1);
    assert_ne!(broken, original);
    let (code, out, err) = run(
        &["validate", "--format", "json", "-"],
        Some(broken.as_bytes()),
    );
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["error"]["code"], "malformed-site-record", "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("South"),
        "{v}"
    );
    let at = v["error"]["offset"].as_u64().unwrap() as usize;
    assert!(broken[at..].starts_with("\"Ch\\nlo"), "{v}");
}
