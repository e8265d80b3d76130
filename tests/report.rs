//! `gamerec report`: one self-contained page over all five games, opened
//! in headless Chromium (no console message, every chart drawn with its
//! table), per-player sections, analysed records' figures, and the page
//! loading nothing from elsewhere.

#[path = "common/chromium.rs"]
mod chromium;

use assert_cmd::Command;
use chromium::view_py;
use std::path::{Path, PathBuf};

const GAMES: [&str; 5] = ["oshi", "iqishiqi", "retsami", "roshi", "vagabond"];
const NAMES: [&str; 4] = ["Ana", "Ben", "Cy", "Dee"];

fn gamerec() -> Command {
    Command::cargo_bin("gamerec").unwrap()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Generated games of every type (finishing ones), each side tag given a
/// player in turn and a Date tag, in one archive.
fn archive(dir: &Path, games: usize) -> PathBuf {
    let mut out = String::new();
    let mut k = 0usize;
    for game in GAMES {
        let raw = gamerec()
            .args(["gen", "--finish", "--seed", "3", "--game", game])
            .arg("--games")
            .arg(games.to_string())
            .output()
            .unwrap();
        let text = String::from_utf8(raw.stdout).unwrap();
        for (i, record) in text.split("\n[Game ").enumerate() {
            let mut record = match i {
                0 => record.to_string(),
                _ => format!("[Game {record}"),
            };
            for _ in 0..2 {
                let name = NAMES[k % NAMES.len()];
                k += 1 + usize::from(k % 7 == 3);
                record = record.replacen(" \"random\"]", &format!(" \"{name}\"]"), 1);
            }
            let date = format!("[Date \"2026.{:02}.{:02}\"]\n[Round", 1 + i % 3, 1 + i % 28);
            out.push_str(record.replacen("[Round", &date, 1).trim());
            out.push_str("\n\n");
        }
    }
    let path = dir.join("all.grec");
    std::fs::write(&path, out).unwrap();
    path
}

/// What tests/browser/view.py's `report` mode reads off the page.
fn in_chromium(page: &Path, shot: &Path) -> serde_json::Value {
    view_py(page, &["report".as_ref(), "-".as_ref(), shot.as_os_str()])
}

#[test]
fn the_report_of_all_five_games_opens_in_headless_chromium_with_every_chart_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive(dir.path(), 30);
    let page = dir.path().join("report.html");
    gamerec()
        .args(["report", "-q", "--title", "Five games"])
        .arg(&archive)
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    // Nothing is loaded from elsewhere: no script, no link, no URL.
    for banned in ["<script", "<link", "http://", "https://", "@import", "url("] {
        assert!(!html.contains(banned), "the page holds {banned}");
    }
    assert!(html.contains("Content-Security-Policy"));
    // Where the target folder is, the screenshot stays for people to see.
    let shot = root().join("target/report-screenshot.png");
    let seen = in_chromium(&page, &shot);
    assert_eq!(seen["console"], serde_json::json!([]), "console messages");
    let headings: Vec<&str> = seen["headings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    for game in GAMES {
        assert!(headings.contains(&game), "{game}: {headings:?}");
        for chart in ["results", "advantage", "lengths", "reasons", "openings"] {
            let name = format!("type-{game}-{chart}");
            let c = seen["charts"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["name"] == name.as_str())
                .unwrap_or_else(|| panic!("no chart {name}"));
            assert!(c["size"][0].as_f64().unwrap() > 100.0, "{c}");
            assert!(c["size"][1].as_f64().unwrap() > 40.0, "{c}");
            assert!(c["marks"].as_u64().unwrap() > 0, "{c}");
            assert!(c["rows"].as_u64().unwrap() > 0, "{c}");
        }
    }
    for name in NAMES {
        assert!(
            headings.contains(&format!("Player: {name}").as_str()),
            "{headings:?}"
        );
    }
    // Each player's rating history is drawn, a row per rated game.
    let ratings: Vec<&serde_json::Value> = seen["charts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"].as_str().unwrap().ends_with("-rating"))
        .collect();
    assert!(ratings.len() >= 4, "{ratings:?}");
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn one_players_report_and_an_unknown_player_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let archive = archive(dir.path(), 8);
    let out = gamerec()
        .args(["report", "-q", "--player", "  ben "])
        .arg(&archive)
        .output()
        .unwrap();
    assert!(out.status.success());
    let html = String::from_utf8(out.stdout).unwrap();
    assert_eq!(html.matches("<h2>Player: ").count(), 1);
    assert!(html.contains("<h2>Player: Ben</h2>"));
    let out = gamerec()
        .args(["report", "-q", "--player", "Zed"])
        .arg(&archive)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no game of `Zed` in the archive"), "{err}");
    assert!(!String::from_utf8(out.stdout)
        .unwrap()
        .contains("<h2>Player: "));
}

#[test]
fn analysed_records_give_lead_changes_and_each_players_marks() {
    let dir = tempfile::tempdir().unwrap();
    let raw = archive(dir.path(), 3);
    let oshi: String = std::fs::read_to_string(&raw)
        .unwrap()
        .split("\n\n[Game ")
        .filter(|r| r.contains("\"oshi\""))
        .map(|r| match r.starts_with("[Game ") {
            true => format!("{r}\n\n"),
            false => format!("[Game {r}\n\n"),
        })
        .collect();
    let plain = dir.path().join("oshi.grec");
    std::fs::write(&plain, oshi).unwrap();
    let annotated = dir.path().join("annotated.grec");
    gamerec()
        .args([
            "analyse",
            "-q",
            "--annotate",
            "--playouts",
            "30",
            "--nodes",
            "20000",
        ])
        .arg(&plain)
        .arg("-o")
        .arg(&annotated)
        .assert()
        .success();
    let html = String::from_utf8(
        gamerec()
            .args(["report", "-q"])
            .arg(&annotated)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let leads = html
        .split("<th scope=\"row\">lead changes</th><td>")
        .nth(1)
        .expect("a lead changes row");
    assert!(leads.contains("a game (3 analysed)"), "{}", &leads[..80]);
    assert!(html.contains("<caption>In analysed records</caption>"));
    // The same games not analysed say so.
    let html = String::from_utf8(
        gamerec()
            .args(["report", "-q"])
            .arg(&plain)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(html.contains("no record holds win chances"));
    assert!(!html.contains("<caption>In analysed records</caption>"));
}

/// A player's "By first turn" is their own first turn: the game's second
/// turn (their reply) when they moved second, not their opponent's.
#[test]
fn by_first_turn_gives_the_players_own_turn_when_they_moved_second() {
    let dir = tempfile::tempdir().unwrap();
    let raw = gamerec()
        .args([
            "gen", "--finish", "--seed", "11", "--game", "oshi", "--games", "6",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(raw.stdout).unwrap();
    let named = text
        .replace("[Red \"random\"]", "[Red \"Ann\"]")
        .replace("[White \"random\"]", "[White \"Bob\"]");
    let path = dir.path().join("ab.grec");
    std::fs::write(&path, &named).unwrap();
    let json = gamerec()
        .args(["convert", "--to", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let games: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let html = gamerec()
        .args(["report", "-q", "--player", "Bob"])
        .arg(&path)
        .output()
        .unwrap();
    let html = String::from_utf8(html.stdout).unwrap();
    let row = |turn: &str, mover: &str| format!("<th scope=\"row\">{turn} ({mover})</th>");
    for g in games["games"].as_array().unwrap() {
        let turns = g["turns"].as_array().unwrap();
        let side = |i: usize| turns[i]["side"].as_str().unwrap();
        let text = |i: usize| turns[i]["text"].as_str().unwrap();
        // Bob is White: his first turn is the one White made first.
        let theirs = (0..2).find(|&i| side(i) == "White").unwrap();
        let mover = if theirs == 0 {
            "moving first"
        } else {
            "moving second"
        };
        assert!(html.contains(&row(text(theirs), mover)), "{}", text(theirs));
        if text(1 - theirs) != text(theirs) {
            let other = row(text(1 - theirs), mover);
            assert!(!html.contains(&other), "Ann's turn {other} is not Bob's");
        }
    }
}
