//! `gamerec ratings`: the Bradley–Terry fit is a maximum of its likelihood
//! (written again here), `--predict` ranks the systems on an archive where
//! players' strengths are known by construction and every system beats a
//! coin, and the command's rows, orders, aliases and skips.

use assert_cmd::Command;
use gamerec::ratings::bt::{self, Pairing};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn gamerec() -> Command {
    Command::cargo_bin("gamerec").unwrap()
}

/// The true strengths (natural log-odds) of the constructed archive.
const STRENGTH: [(&str, f64); 5] = [
    ("Ana", 1.5),
    ("Ben", 0.5),
    ("Cy", 0.0),
    ("Dee", -0.5),
    ("Eve", -1.5),
];

/// splitmix64: a seeded stream of numbers in [0, 1).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Generated Oshi games whose players are drawn in pairs and whose winner
/// is drawn by the Bradley–Terry model over [`STRENGTH`], then put on the
/// side that won; a Date tag, `per_day` games a day.
fn constructed(dir: &Path, games: usize, per_day: usize) -> PathBuf {
    let raw = dir.join("raw.grec");
    gamerec()
        .args([
            "gen", "--game", "oshi", "--finish", "--seed", "5", "--games",
        ])
        .arg(games.to_string())
        .arg("-o")
        .arg(&raw)
        .assert()
        .success();
    let text = std::fs::read_to_string(&raw).unwrap();
    let mut rng = Rng(7);
    let mut out = String::new();
    for (i, record) in text.split("\n[Game ").enumerate() {
        let record = match i {
            0 => record.to_string(),
            _ => format!("[Game {record}"),
        };
        let first_won = record.contains("[Result \"1-0\"]");
        if !first_won && !record.contains("[Result \"0-1\"]") {
            continue;
        }
        let a = (rng.next() * 5.0) as usize;
        let b = (a + 1 + (rng.next() * 4.0) as usize) % 5;
        let p = 1.0 / (1.0 + (STRENGTH[b].1 - STRENGTH[a].1).exp());
        let (winner, loser) = match rng.next() < p {
            true => (STRENGTH[a].0, STRENGTH[b].0),
            false => (STRENGTH[b].0, STRENGTH[a].0),
        };
        let (red, white) = if first_won {
            (winner, loser)
        } else {
            (loser, winner)
        };
        let day = i / per_day;
        let record = record
            .replacen("[Red \"random\"]", &format!("[Red \"{red}\"]"), 1)
            .replacen("[White \"random\"]", &format!("[White \"{white}\"]"), 1)
            .replacen(
                "[Round",
                &format!(
                    "[Date \"2026.{:02}.{:02}\"]\n[Round",
                    1 + day / 28,
                    1 + day % 28
                ),
                1,
            );
        out.push_str(record.trim());
        out.push_str("\n\n");
    }
    let path = dir.join("rated.grec");
    std::fs::write(&path, out).unwrap();
    path
}

fn json_rows(args: &[&str]) -> Vec<Value> {
    let out = gamerec()
        .args(args)
        .args(["--to", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The log likelihood of `games` plus one virtual draw per player against
/// strength 0 and one virtual drawn game for the first mover's advantage,
/// as notation/ratings.md defines it, written out again.
fn likelihood(games: &[Pairing], strength: &[f64], h: f64) -> f64 {
    let p = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut total = 0.0;
    for g in games {
        let x = strength[g.a] - strength[g.b] + if g.a_first { h } else { -h };
        total += g.score * p(x).ln() + (1.0 - g.score) * (1.0 - p(x)).ln();
    }
    for &t in strength.iter().chain([&h]) {
        total += 0.5 * p(t).ln() + 0.5 * (1.0 - p(t)).ln();
    }
    total
}

#[test]
fn bradley_terry_advantage_stays_finite_when_every_first_mover_has_won() {
    // After one game, won by the first mover, the next second-mover win
    // must not be called impossible (it was: 1e-9, 21 nats of log-loss).
    let one = [Pairing {
        a: 0,
        b: 1,
        a_first: true,
        score: 1.0,
    }];
    let fit = bt::fit(&one, 2, None);
    assert!(fit.advantage.is_finite() && fit.advantage < 2.0, "{fit:?}");
    let second_wins = 1.0 - bt::chance(&fit, 0, 1, true);
    assert!(second_wins > 0.1, "{second_wins}");
}

#[test]
fn predict_on_a_small_archive_no_system_is_far_worse_than_a_coin() {
    // Sixty games, ten a day: the predictions begin from almost nothing.
    let dir = tempfile::tempdir().unwrap();
    let archive = constructed(dir.path(), 60, 10);
    let rows = json_rows(&["ratings", archive.to_str().unwrap(), "--predict"]);
    let coin = rows.iter().find(|r| r["system"] == "coin").unwrap()["log_loss"]
        .as_f64()
        .unwrap();
    for r in &rows {
        let loss = r["log_loss"].as_f64().unwrap();
        assert!(
            loss < coin + 0.1,
            "{} log-loss {loss} against a coin's {coin}",
            r["system"]
        );
    }
}

#[test]
fn bradley_terry_fit_is_a_maximum_nudging_any_parameter_lowers_the_likelihood() {
    // Four players, first movers and draws mixed, one player unbeaten.
    let spec = [
        (0, 1, true, 1.0),
        (1, 0, true, 1.0),
        (0, 2, false, 1.0),
        (2, 3, true, 0.5),
        (3, 1, false, 0.0),
        (1, 2, true, 1.0),
        (2, 1, true, 0.0),
        (0, 3, true, 1.0),
        (3, 2, false, 1.0),
        (1, 3, true, 0.5),
        (2, 0, true, 0.0),
    ];
    let games: Vec<Pairing> = spec
        .iter()
        .map(|&(a, b, a_first, score)| Pairing {
            a,
            b,
            a_first,
            score,
        })
        .collect();
    let fit = bt::fit(&games, 4, None);
    let best = likelihood(&games, &fit.strength, fit.advantage);
    assert!((best - bt::objective(&games, &fit.strength, fit.advantage)).abs() < 1e-9);
    for step in [1e-3, -1e-3, 1e-2, -1e-2] {
        for p in 0..=4 {
            let mut s = fit.strength.clone();
            let mut h = fit.advantage;
            match p {
                4 => h += step,
                p => s[p] += step,
            }
            assert!(
                likelihood(&games, &s, h) < best,
                "nudging parameter {p} by {step} raised the likelihood"
            );
        }
    }
    // Player 0 lost no game: its strength is the largest, and finite.
    assert!(fit.strength[0].is_finite());
    assert!(fit.strength.iter().all(|&t| t <= fit.strength[0]));
    assert!(fit.exact_se && fit.se.iter().all(|&e| e > 0.0 && e.is_finite()));
}

#[test]
fn predict_ranks_systems_on_an_archive_of_known_strengths_and_every_one_beats_a_coin() {
    let dir = tempfile::tempdir().unwrap();
    let archive = constructed(dir.path(), 400, 10);
    let path = archive.to_str().unwrap();
    let rows = json_rows(&["ratings", path, "--predict", "--period", "day"]);
    let log_loss = |system: &str| {
        let row = rows.iter().find(|r| r["system"] == system).unwrap();
        assert_eq!(row["game"], "oshi");
        row["log_loss"].as_f64().unwrap()
    };
    let coin = log_loss("coin");
    assert!((coin - std::f64::consts::LN_2).abs() < 1e-4);
    for system in ["elo", "glicko2", "trueskill", "weng-lin", "bradley-terry"] {
        assert!(log_loss(system) < coin - 0.05, "{system} {rows:?}");
        let row = rows.iter().find(|r| r["system"] == system).unwrap();
        assert!(row["accuracy"].as_f64().unwrap() > 0.65, "{row}");
    }
    // Each system ranks the players as they were made.
    let players = json_rows(&["ratings", path]);
    assert_eq!(players.len(), 5);
    for column in ["elo", "glicko2", "trueskill", "weng_lin", "bradley_terry"] {
        let mut by: Vec<(f64, &str)> = players
            .iter()
            .map(|r| (r[column].as_f64().unwrap(), r["player"].as_str().unwrap()))
            .collect();
        by.sort_by(|x, y| y.0.total_cmp(&x.0));
        let names: Vec<&str> = by.iter().map(|(_, n)| *n).collect();
        assert_eq!(names, ["Ana", "Ben", "Cy", "Dee", "Eve"], "{column}");
    }
    // The first mover has no advantage by construction: zero within two
    // standard errors.
    let r = &players[0];
    let (h, se) = (
        r["first_mover_advantage"].as_f64().unwrap(),
        r["first_mover_advantage_se"].as_f64().unwrap(),
    );
    assert!(h.abs() < 2.0 * se, "{h} ± {se}");
}

#[test]
fn games_are_rated_in_date_order_whatever_the_order_of_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let archive = constructed(dir.path(), 60, 1);
    let text = std::fs::read_to_string(&archive).unwrap();
    let mut records: Vec<&str> = text.split("\n\n[Game ").collect();
    records.reverse();
    let reversed = dir.path().join("reversed.grec");
    let joined: Vec<String> = records
        .iter()
        .map(|r| match r.starts_with("[Game ") {
            true => r.trim().to_string(),
            false => format!("[Game {}", r.trim()),
        })
        .collect();
    std::fs::write(&reversed, joined.join("\n\n")).unwrap();
    let a = json_rows(&["ratings", archive.to_str().unwrap(), "--sort", "name"]);
    let b = json_rows(&["ratings", reversed.to_str().unwrap(), "--sort", "name"]);
    assert_eq!(a, b);
    assert_eq!(a.len(), 5);
}

#[test]
fn history_has_a_row_per_game_per_player_and_ends_at_the_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let archive = constructed(dir.path(), 80, 10);
    let path = archive.to_str().unwrap();
    let history = json_rows(&["ratings", path, "--history", "--period", "week"]);
    let players = json_rows(&["ratings", path, "--period", "week"]);
    let games: u64 = players.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    assert_eq!(history.len() as u64, games);
    for p in &players {
        let last = history
            .iter()
            .rev()
            .find(|h| h["player"] == p["player"])
            .unwrap();
        for column in ["elo", "glicko2", "trueskill", "weng_lin"] {
            assert_eq!(last[column], p[column], "{column} of {}", p["player"]);
        }
    }
    // The human table: the first line, a blank one, the header, a row each.
    let human = gamerec()
        .args(["ratings", path, "--history", "--period", "week"])
        .output()
        .unwrap();
    let text = String::from_utf8(human.stdout).unwrap();
    assert_eq!(text.lines().count(), history.len() + 3, "{text}");
    assert!(text
        .lines()
        .nth(2)
        .unwrap()
        .trim_start()
        .starts_with("game  date"));
    let first = &history[0];
    assert_eq!(first["opponent"], history[1]["player"]);
    assert_eq!(
        first["score"].as_f64().unwrap() + history[1]["score"].as_f64().unwrap(),
        1.0
    );
}

const TWO: &str = "[Game \"oshi\"]\n[Red \"ana  lopez\"]\n[White \"Ben\"]\n[Result \"1-0\"]\n\n\
1. e3-e4 1-0\n\n\
[Game \"oshi\"]\n[Red \"Ben\"]\n[White \"A. Lopez\"]\n[Result \"0-1\"]\n\n1. e3-e4 0-1\n\n\
[Game \"oshi\"]\n[Red \"Ben\"]\n[White \"Cy\"]\n\n1. e3-e4 *\n\n\
[Game \"oshi\"]\n[Red \"Ben\"]\n\n1. e3-e4 e7-e6 1-0\n\n\
[Game \"oshi\"]\n[Red \"Ben\"]\n[White \"Cy\"]\n\n1. e3-e9 1-0\n";

#[test]
fn aliases_merge_spellings_and_unrated_games_are_counted_by_reason() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("two.grec");
    std::fs::write(&archive, TWO).unwrap();
    let alias = dir.path().join("alias.txt");
    std::fs::write(&alias, "# one player\nA. Lopez => Ana Lopez\n").unwrap();
    let out = gamerec()
        .args(["ratings", "--alias"])
        .arg(&alias)
        .arg(&archive)
        .output()
        .unwrap();
    // The last record is invalid: exit 1, and it is said.
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "oshi: 2 games, 2 players; undated: rated in input order; not rated: 1 invalid, \
             1 unfinished, 1 without two players"
        ),
        "{text}"
    );
    assert!(text.contains("\nAna Lopez "), "{text}");
    assert!(text.contains("2-0-0"), "{text}");
    // Without the alias, three players.
    let rows = gamerec()
        .args(["ratings", "--to", "csv"])
        .arg(&archive)
        .output()
        .unwrap();
    let csv = String::from_utf8(rows.stdout).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(csv.starts_with("game,player,games,wins,draws,losses,first_date"));
    // An alias file that cannot be read is a usage error.
    std::fs::write(&alias, "A. Lopez = Ana\n").unwrap();
    let bad = gamerec()
        .args(["ratings", "--alias"])
        .arg(&alias)
        .arg(&archive)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("alias.txt:1: expected"));
}

#[test]
fn parquet_rows_are_written_and_refused_on_a_terminal_free_pipe_only() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("two.grec");
    std::fs::write(&archive, TWO).unwrap();
    let out = dir.path().join("r.parquet");
    gamerec()
        .args(["ratings", "-q", "--to", "parquet", "-o"])
        .arg(&out)
        .arg(&archive)
        .assert()
        .code(1);
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
}
