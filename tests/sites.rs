//! The sites' own files: AbstractPlay game records written by AbstractPlay's
//! own code (tests/data/abstractplay, made by its make.sh from gameslib's
//! `genRecord`) and Garden Gate links compressed by the site's own
//! LZ-String (tests/data/gardengate, made by its make.sh), plus hand-made
//! edge cases. The verdicts expected are the sites' own: read from the
//! records' players' results, never written into this file.

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
