//! Issue 49: the promises of the commands added last (analyse, moves
//! --best, tree, index, ratings, report, view) — never panic, bounded
//! memory and time, exit codes that tell the truth, nothing lost — each
//! guarded by a test named after what it guards. Timings are measured in
//! BENCHMARKS.md; a test here bounds a time only where the bound is far
//! from noise (tens of times what the command takes now).

#[allow(dead_code)]
mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn gamerec() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gamerec"));
    cmd.env_remove("NO_COLOR").stdin(Stdio::null());
    cmd
}

/// Runs in `dir` with `args`: (exit code, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = gamerec().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `gen --game GAME --games N --seed S --finish -o NAME` in `dir`.
fn generated(dir: &Path, game: &str, games: usize, seed: u64, name: &str) -> PathBuf {
    let (code, _, err) = run(
        dir,
        &[
            "gen",
            "--game",
            game,
            "--games",
            &games.to_string(),
            "--seed",
            &seed.to_string(),
            "--finish",
            "-o",
            name,
        ],
    );
    assert_eq!(code, 0, "{err}");
    dir.join(name)
}

/// Runs a Python `script` with pyarrow in `dir`, with `args`; it must
/// succeed.
fn pyarrow(dir: &Path, script: &str, args: &[&str]) {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .current_dir(dir)
        .env("PYTHONPATH", common::python_path(&[("pyarrow", "pyarrow")]))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A usage error: exit 2, no panic, a message that names what is wrong.
fn refused(dir: &Path, args: &[&str], says: &str) {
    let (code, _, err) = run(dir, args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
}

#[test]
fn search_times_past_a_week_are_usage_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 2, 5, "g.grec");
    for time in ["1e300", "1e19", "604801", "0", "-1", "nan", "inf"] {
        let time = format!("--time={time}");
        refused(dir.path(), &["analyse", "g.grec", &time], "--time");
        refused(dir.path(), &["moves", "g.grec", "--best", &time], "--time");
    }
    // The largest time is still taken.
    let (code, _, err) = run(
        dir.path(),
        &["analyse", "g.grec", "--last", "1", "--time", "604800"],
    );
    assert!(code == 0 || code == 1, "{err}");
}

#[test]
fn playouts_past_the_cap_are_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 2, 5, "g.grec");
    refused(
        dir.path(),
        &["analyse", "g.grec", "--playouts", "4000000000"],
        "--playouts",
    );
    refused(
        dir.path(),
        &["analyse", "g.grec", "--playouts", "10000001"],
        "--playouts",
    );
}

#[test]
fn tables_larger_than_half_the_machine_are_a_usage_error_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 2, 5, "g.grec");
    // 64 threads of 4 GiB: 256 GiB of tables.
    refused(
        dir.path(),
        &["analyse", "g.grec", "--hash", "4096", "-j", "64"],
        "half of this machine",
    );
}

#[test]
fn time_bounds_the_estimate_however_many_playouts_are_asked() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 2, 5, "g.grec");
    let began = Instant::now();
    let (code, out, err) = run(
        dir.path(),
        &[
            "analyse",
            "g.grec",
            "--playouts",
            "10000000",
            "--last",
            "1",
            "-j",
            "1",
            "--time",
            "1",
            "--to",
            "json",
        ],
    );
    // Two games, one position each (and its successor's estimate): a few
    // seconds, never the hours ten million playouts take.
    assert!(
        began.elapsed() < Duration::from_secs(60),
        "{:?}",
        began.elapsed()
    );
    assert!(code == 0 || code == 1, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn time_bounds_best_moves_in_a_position_with_a_million_turns() {
    let dir = tempfile::tempdir().unwrap();
    // A 19×19 Roshi board with six pieces: 1,378,595 legal turns.
    let wide =
        "R17R/19/19/19/19/9R9/19/19/19/9S9/19/19/19/19/R18/19/19/19/R17B i9-k11 3-7 r play -";
    let began = Instant::now();
    let (code, out, err) = run(
        dir.path(),
        &[
            "moves",
            "--game",
            "roshi",
            "--position",
            wide,
            "--best",
            "--depth",
            "2",
            "--time",
            "1",
        ],
    );
    // It ran 209 s for --time 2; now the time, plus generating the turns.
    assert!(
        began.elapsed() < Duration::from_secs(60),
        "{:?}",
        began.elapsed()
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("unknown (depth 2)"), "{out}");
}

#[test]
fn analyse_last_at_the_largest_number_searches_every_ply_instead_of_none() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 1, 5, "g.grec");
    let (_, all, _) = run(dir.path(), &["analyse", "g.grec", "--to", "json"]);
    let (_, last, _) = run(
        dir.path(),
        &[
            "analyse",
            "g.grec",
            "--to",
            "json",
            "--last",
            "18446744073709551615",
        ],
    );
    let plies = |out: &str| -> usize {
        let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        v["plies"].as_array().unwrap().len()
    };
    assert!(plies(&all) > 10);
    assert_eq!(plies(&last), plies(&all));
}

#[test]
fn elo_k_past_a_thousand_is_a_usage_error_not_nan() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 2, 5, "g.grec");
    for k in ["1e308", "1001", "0", "inf"] {
        refused(dir.path(), &["ratings", "g.grec", "--elo-k", k], "--elo-k");
    }
}

#[test]
fn tree_side_that_no_game_has_and_a_line_no_game_reads_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 2, 5, "g.grec");
    refused(
        dir.path(),
        &["tree", "g.grec", "--player", "random", "--side", "nobody"],
        "--side",
    );
    refused(dir.path(), &["tree", "g.grec", "--play", "1. zz"], "zz");
    // A side's name, any case, and a line no game reached are still fine.
    let (code, _, err) = run(
        dir.path(),
        &["tree", "g.grec", "--player", "random", "--side", "red"],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(dir.path(), &["tree", "g.grec", "--play", "1. a1-a2"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("no game reaches"), "{err}");
}

#[test]
fn a_double_negation_in_a_pattern_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 2, 5, "g.grec");
    refused(
        dir.path(),
        &["filter", "g.grec", "--pattern", "!!a1=*"],
        "label",
    );
}

#[test]
fn alias_files_are_capped_and_loops_refused_and_chains_followed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let archive = generated(d, "oshi", 6, 5, "g.grec");
    // Name the sides: Ana plays Red in every game, Ben or Bob White.
    let text = std::fs::read_to_string(&archive).unwrap();
    let mut named = String::new();
    for (i, record) in text.split("\n[Game ").enumerate() {
        let record = match i {
            0 => record.to_string(),
            _ => format!("[Game {record}"),
        };
        let white = ["Ben", "Bob"][i % 2];
        named.push_str(
            &record
                .replacen("[Red \"random\"]", "[Red \"Ana\"]", 1)
                .replacen("[White \"random\"]", &format!("[White \"{white}\"]"), 1),
        );
        named.push('\n');
    }
    std::fs::write(d.join("named.grec"), named).unwrap();
    refused(
        d,
        &["ratings", "named.grec", "--alias", "/dev/zero"],
        "16 MiB",
    );
    std::fs::write(d.join("loop.txt"), "Ana => Ben\nBen => Ana\n").unwrap();
    refused(d, &["ratings", "named.grec", "--alias", "loop.txt"], "loop");
    // Bob => Ben, Ben => Cy: Bob's and Ben's games are Cy's.
    std::fs::write(d.join("chain.txt"), "Bob => Ben\nBen => Cy\n").unwrap();
    let (code, out, err) = run(
        d,
        &[
            "ratings",
            "named.grec",
            "--alias",
            "chain.txt",
            "--to",
            "json",
            "--sort",
            "name",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let players: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["player"].to_string())
        .collect();
    assert_eq!(players, ["\"Ana\"", "\"Cy\""], "{out}");
}

#[test]
fn a_named_pipe_is_opened_once_and_read() {
    let dir = tempfile::tempdir().unwrap();
    let archive = generated(dir.path(), "oshi", 2, 5, "g.grec");
    let fifo = dir.path().join("p.grec");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo has no other precondition.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let bytes = std::fs::read(&archive).unwrap();
    let to = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(to).unwrap();
        let _ = f.write_all(&bytes);
    });
    let mut child = gamerec()
        .arg("validate")
        .arg(&fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            // Let the writer go.
            let _ = std::fs::File::open(&fifo);
            panic!("validate hung on a named pipe");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("2 games: 2 valid"), "{said}");
}

#[test]
fn bradley_terry_predictions_on_sixty_games_beat_a_coin() {
    // The archive the issue found 11.46 nats of mean log-loss on: sixty
    // generated Oshi games between eight players, ten a day.
    let dir = tempfile::tempdir().unwrap();
    let archive = generated(dir.path(), "oshi", 60, 7, "g.grec");
    let text = std::fs::read_to_string(&archive).unwrap();
    let mut named = String::new();
    let mut state = 1u64;
    for (i, record) in text.split("\n[Game ").enumerate() {
        let record = match i {
            0 => record.to_string(),
            _ => format!("[Game {record}"),
        };
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let a = (state >> 33) % 8;
        let b = (a + 1 + (state >> 45) % 7) % 8;
        named.push_str(
            &record
                .replacen("[Red \"random\"]", &format!("[Red \"P{a}\"]"), 1)
                .replacen("[White \"random\"]", &format!("[White \"P{b}\"]"), 1)
                .replacen(
                    "[Round",
                    &format!("[Date \"2026.01.{:02}\"]\n[Round", 1 + i / 10),
                    1,
                ),
        );
        named.push('\n');
    }
    std::fs::write(dir.path().join("named.grec"), named).unwrap();
    let (code, out, err) = run(
        dir.path(),
        &["ratings", "named.grec", "--predict", "--to", "json"],
    );
    assert_eq!(code, 0, "{err}");
    // The players are paired at random and the winners are the random
    // games' own: there is nothing to learn. Every system stays within a
    // quarter of a nat of a coin (the learners that move fast, TrueSkill
    // and Bradley–Terry refitted after each game, overfit a little: 0.84
    // and 0.86); Bradley–Terry was at 10.22.
    for line in out.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let loss = row["log_loss"].as_f64().unwrap();
        assert!(loss < std::f64::consts::LN_2 + 0.25, "{row}");
    }
}

// The position index: one writer at a time, generations switched
// atomically, records checked when read back, damaged files refused.

const OSHI_START: &str = "c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -";

/// Indexes `archive` into `ix`, the process killing itself at `step` of
/// the switch (`GAMEREC_TEST_KILL_AT`).
fn index_killed_at(dir: &Path, archive: &str, ix: &str, step: &str) {
    let killed = gamerec()
        .current_dir(dir)
        .args(["index", "-q", archive, "-o", ix])
        .env("GAMEREC_TEST_KILL_AT", step)
        .output()
        .unwrap();
    assert_eq!(killed.status.code(), None, "{step}: killed by a signal");
}

/// How many games of the index at `ix` reach the start (exit 0 asserted).
fn start_count(dir: &Path, ix: &str) -> usize {
    let (code, out, err) = run(
        dir,
        &["filter", "--index", ix, "--reaches", OSHI_START, "--count"],
    );
    assert_eq!(code, 0, "{err}");
    out.trim().parse().unwrap()
}

/// `tree --index` at the start, as JSON.
fn tree_at_start(dir: &Path, ix: &str) -> serde_json::Value {
    let (code, out, err) = run(dir, &["tree", "--index", ix, "--to", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(out.lines().next().unwrap()).unwrap()
}

#[test]
fn index_writers_at_once_take_turns_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let names: Vec<String> = (1..=4).map(|i| format!("a{i}.grec")).collect();
    for (i, name) in names.iter().enumerate() {
        generated(d, "oshi", 40 + 10 * i, i as u64 + 1, name);
    }
    // Four writers on one folder at once.
    let children: Vec<_> = names
        .iter()
        .map(|n| {
            gamerec()
                .current_dir(d)
                .args(["index", "-q", n, "-o", "together"])
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The same as one writer indexing them all.
    let mut all = vec!["index", "-q"];
    all.extend(names.iter().map(String::as_str));
    all.extend(["-o", "alone"]);
    let (code, _, err) = run(d, &all);
    assert_eq!(code, 0, "{err}");
    assert_eq!(start_count(d, "together"), 40 + 50 + 60 + 70);
    assert_eq!(start_count(d, "alone"), 40 + 50 + 60 + 70);
    assert_eq!(
        tree_at_start(d, "together")["games"],
        tree_at_start(d, "alone")["games"]
    );
    // Nothing but the lock, the manifest and one generation is left.
    let mut left: Vec<String> = std::fs::read_dir(d.join("together"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left.len(), 3, "{left:?}");
}

#[test]
fn index_killed_at_any_step_of_its_switch_keeps_the_old_or_the_new_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generated(d, "oshi", 60, 1, "a.grec");
    generated(d, "oshi", 30, 2, "b.grec");
    let steps = [
        "tables-written",
        "generation-renamed",
        "manifest-written",
        "manifest-renamed",
    ];
    for (i, step) in steps.iter().enumerate() {
        let ix = format!("ix{i}");
        let (code, _, err) = run(d, &["index", "-q", "a.grec", "-o", &ix]);
        assert_eq!(code, 0, "{err}");
        index_killed_at(d, "b.grec", &ix, step);
        // Old (a) or new (a and b), whole: postings and games agree.
        let seen = start_count(d, &ix);
        let games = tree_at_start(d, &ix)["games"].as_u64().unwrap() as usize;
        assert_eq!(seen, games, "{step}");
        let expected = if *step == "manifest-renamed" { 90 } else { 60 };
        assert_eq!(seen, expected, "{step}");
        // The next writer cleans up and finishes the job.
        let (code, _, err) = run(d, &["index", "-q", "b.grec", "-o", &ix]);
        assert_eq!(code, 0, "{step}: {err}");
        assert_eq!(start_count(d, &ix), 90, "{step}");
        let entries = std::fs::read_dir(d.join(&ix)).unwrap().count();
        assert_eq!(entries, 3, "{step}: leftovers removed");
    }
}

/// A first index killed after its generation was renamed into place but
/// before its manifest named it left a folder every later writer refused
/// as "not a gamerec index" (and a second writer started at that moment
/// refused it too: `index_writers_at_once_take_turns_and_lose_nothing`
/// failed so, now and then).
#[test]
fn a_first_index_killed_before_its_manifest_is_written_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generated(d, "oshi", 20, 3, "a.grec");
    for step in ["generation-renamed", "manifest-written"] {
        let ix = format!("ix-{step}");
        index_killed_at(d, "a.grec", &ix, step);
        let (code, _, err) = run(d, &["index", "-q", "a.grec", "-o", &ix]);
        assert_eq!(code, 0, "{step}: {err}");
        assert_eq!(start_count(d, &ix), 20, "{step}");
        let entries = std::fs::read_dir(d.join(&ix)).unwrap().count();
        assert_eq!(entries, 3, "{step}: leftovers removed");
    }
    // Names only like the writer's are still not gamerec's to write into.
    std::fs::create_dir_all(d.join("mine/gen-1")).unwrap();
    refused(d, &["index", "a.grec", "-o", "mine"], "not a gamerec index");
    assert!(d.join("mine/gen-1").is_dir());
}

#[test]
fn index_refuses_a_folder_it_did_not_write_and_an_input_inside_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generated(d, "oshi", 5, 1, "g.grec");
    std::fs::create_dir(d.join("mine")).unwrap();
    std::fs::write(d.join("mine/turns.parquet"), "precious").unwrap();
    refused(d, &["index", "g.grec", "-o", "mine"], "not a gamerec index");
    assert_eq!(
        std::fs::read_to_string(d.join("mine/turns.parquet")).unwrap(),
        "precious"
    );
    assert_eq!(std::fs::read_dir(d.join("mine")).unwrap().count(), 1);
    refused(
        d,
        &["index", "g.grec", "-o", "g.grec"],
        "refusing to write over an input",
    );
    // An index folder inside a folder walked is passed over (it made 17
    // malformed-Parquet errors).
    std::fs::create_dir(d.join("walked")).unwrap();
    std::fs::copy(d.join("g.grec"), d.join("walked/g.grec")).unwrap();
    let (code, _, err) = run(d, &["index", "-q", "walked", "-o", "walked/ix"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(d, &["validate", "walked"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 file, 5 games"), "{out}{err}");
}

#[test]
fn index_memory_out_of_range_is_a_usage_error_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generated(d, "oshi", 2, 5, "g.grec");
    for memory in ["17592186044415", "17592186044416", "0"] {
        refused(
            d,
            &["index", "g.grec", "-o", "y.idx", "--memory", memory],
            "--memory",
        );
        assert!(!d.join("y.idx").exists());
    }
}

#[test]
fn index_merges_at_most_a_bounded_number_of_runs_at_once() {
    // Many small runs (--memory 1: two buffers of 21,845 postings; 20,000
    // games of about 95 positions: some 90 runs, so runs are merged twice
    // on the way): the merge holds at most 32 run files open per thread,
    // so a descriptor limit of 64 is enough (--memory 0 made 3,085 spill
    // files and failed under 1,024).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generated(d, "oshi", 20_000, 3, "big.grec");
    let mut cmd = gamerec();
    cmd.current_dir(d).args([
        "index", "-q", "-j1", "--memory", "1", "big.grec", "-o", "ix",
    ]);
    // SAFETY: setrlimit between fork and exec touches no lock or heap.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            match libc::setrlimit(libc::RLIMIT_NOFILE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, _, err) = run(d, &["index", "-q", "big.grec", "-o", "whole"]);
    assert_eq!(code, 0, "{err}");
    // The postings buffers stay within --memory together: spilled before
    // a game would pass one (it doubled past it, 2 MiB of 1), and the
    // other's room set aside before its first posting (left to double, it
    // passed its half: 1.2 MiB of 1).
    let (code, _, said) = run(d, &["index", "--memory", "1", "big.grec", "-o", "again"]);
    assert_eq!(code, 0, "{said}");
    let most: f64 = said
        .split("at most ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(most <= 1.0, "{said}");
    assert_eq!(start_count(d, "ix"), 20_000);
    assert_eq!(tree_at_start(d, "ix"), tree_at_start(d, "whole"));
}

#[test]
fn a_changed_archive_is_read_again_by_index_and_refused_by_every_query_before() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = generated(d, "oshi", 30, 1, "a.grec");
    let (code, _, err) = run(d, &["index", "-q", "a.grec", "-o", "ix"]);
    assert_eq!(code, 0, "{err}");
    // Games appended: every query refuses the stale index.
    let more = generated(d, "oshi", 12, 2, "more.grec");
    let mut text = std::fs::read_to_string(&a).unwrap();
    text.push('\n');
    text.push_str(&std::fs::read_to_string(&more).unwrap());
    std::fs::write(&a, text).unwrap();
    refused(
        d,
        &["tree", "--index", "ix"],
        "changed since it was indexed",
    );
    refused(
        d,
        &["filter", "--index", "ix", "--reaches", OSHI_START],
        "changed since it was indexed",
    );
    // Indexing it again replaces its games.
    let (code, _, err) = run(d, &["index", "a.grec", "-o", "ix"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("its games are read again"), "{err}");
    assert_eq!(start_count(d, "ix"), 42);
    let (code, _, err) = run(d, &["index", "-q", "a.grec", "-o", "fresh"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(tree_at_start(d, "ix"), tree_at_start(d, "fresh"));
}

#[test]
fn a_record_changed_under_the_same_size_and_time_is_refused_when_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = generated(d, "oshi", 10, 1, "a.grec");
    let (code, _, err) = run(d, &["index", "-q", "a.grec", "-o", "ix"]);
    assert_eq!(code, 0, "{err}");
    let when = std::fs::metadata(&a).unwrap().modified().unwrap();
    // Same length, one tag's value changed, the time put back.
    let text = std::fs::read_to_string(&a).unwrap();
    let changed = text.replacen("[Round \"1\"]", "[Round \"9\"]", 1);
    assert_ne!(changed, text);
    std::fs::write(&a, &changed).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&a)
        .unwrap()
        .set_modified(when)
        .unwrap();
    let (code, out, err) = run(d, &["filter", "--index", "ix", "--reaches", OSHI_START]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("changed since it was indexed"), "{err}");
    assert!(!out.contains("[Round \"9\"]"), "{out}");
}

#[test]
fn parquet_in_every_codec_pyarrow_writes_is_read_back_whole() {
    // pyarrow's default is snappy; gamerec read only zstd and none
    // ("Disabled feature at compile time: snap").
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generated(d, "oshi", 12, 5, "g.grec");
    let (code, _, err) = run(
        d,
        &[
            "convert",
            "-q",
            "--to",
            "parquet",
            "g.grec",
            "-o",
            "g.parquet",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (_, canonical, _) = run(d, &["convert", "-q", "g.parquet"]);
    assert!(canonical.contains("[Game \"oshi\"]"));
    let script = r#"
import sys, pyarrow.parquet as pq
table = pq.read_table(sys.argv[1])
for codec in ["snappy", "gzip", "lz4", "brotli", "zstd", "none"]:
    pq.write_table(table, f"{sys.argv[2]}/{codec}.parquet", compression=codec)
"#;
    pyarrow(d, script, &["g.parquet", "."]);
    for codec in ["snappy", "gzip", "lz4", "brotli", "zstd", "none"] {
        let file = format!("{codec}.parquet");
        let (code, text, err) = run(d, &["convert", "-q", &file]);
        assert_eq!(code, 0, "{codec}: {err}");
        assert_eq!(text, canonical, "{codec}");
    }
}

/// A legal Oshi game of `rounds` × 8 plies: two pieces a side stepping out
/// and back (the no-return rule allows it), as long as one wants.
fn cycling(dir: &Path, rounds: usize, name: &str) -> PathBuf {
    let cycle = [
        "e3-e4", "e7-e6", "d2-d3", "d8-d7", "e4-e3", "e6-e7", "d3-d2", "d7-d8",
    ];
    let mut text = String::from("[Game \"oshi\"]\n\n");
    for i in 0..rounds * cycle.len() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(cycle[i % cycle.len()]);
        text.push(' ');
    }
    text.push_str("*\n");
    std::fs::write(dir.join(name), text).unwrap();
    dir.join(name)
}

#[test]
fn a_game_longer_than_the_frame_cap_is_drawn_to_the_cap_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    cycling(d, 3125, "long.grec");
    let (code, _, err) = run(d, &["validate", "long.grec"]);
    assert_eq!(code, 0, "25,000 legal plies: {err}");
    let (code, _, err) = run(d, &["view", "long.grec", "-o", "long.html"]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(d.join("long.html")).unwrap();
    assert!(
        html.contains("drawn to ply 20000 of 25000"),
        "the page says what it drew"
    );
    // A GIF of every position is refused past 2,000; up to a ply it is made.
    refused(
        d,
        &["show", "long.grec", "--to", "gif", "-o", "x.gif"],
        "at most 2000",
    );
    assert!(!d.join("x.gif").exists());
    let (code, _, err) = run(
        d,
        &[
            "show",
            "long.grec",
            "--to",
            "gif",
            "--ply",
            "9",
            "-o",
            "x.gif",
        ],
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn pictures_past_their_widest_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    cycling(d, 1, "g.grec");
    refused(
        d,
        &[
            "show", "g.grec", "--to", "png", "--size", "16384", "-o", "x.png",
        ],
        "4096",
    );
    refused(
        d,
        &[
            "show", "g.grec", "--to", "gif", "--size", "2048", "-o", "x.gif",
        ],
        "1024",
    );
    let (code, _, err) = run(
        d,
        &[
            "show", "g.grec", "--to", "svg", "--size", "16384", "-o", "x.svg",
        ],
    );
    assert_eq!(code, 0, "an SVG is text: {err}");
}

#[test]
fn analyse_json_locates_each_ply_in_one_pass() {
    // Every ply's line and column, as a diagnostic's: the same as the
    // human lines say (the JSON located each from the record's start:
    // quadratic in plies, 69 s at 100,000).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    cycling(d, 40, "g.grec");
    let (code, out, err) = run(d, &["analyse", "g.grec", "--to", "json", "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    let g: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let text = std::fs::read_to_string(d.join("g.grec")).unwrap();
    let plies = g["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 320);
    for p in plies {
        let offset = p["offset"].as_u64().unwrap() as usize;
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = offset - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        assert_eq!(
            (p["line"].as_u64(), p["column"].as_u64()),
            (Some(line as u64), Some(column as u64))
        );
        assert!(text[offset..].starts_with(p["turn"].as_str().unwrap()));
    }
}

#[test]
fn an_interrupted_index_leaves_no_work_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generated(d, "oshi", 20_000, 4, "big.grec");
    let mut child = gamerec()
        .current_dir(d)
        .args(["index", "-q", "-j1", "big.grec", "-o", "ix"])
        .spawn()
        .unwrap();
    // Wait for the work folder, then interrupt (Ctrl-C).
    let working = || {
        std::fs::read_dir(d.join("ix")).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(".index-work"))
        })
    };
    let began = Instant::now();
    while !working() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before it could be interrupted"
        );
        assert!(began.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: kill has no preconditions.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(!working(), "the work folder is removed");
    // The folder is still the index's: the next run writes it.
    let (code, _, err) = run(d, &["index", "-q", "big.grec", "-o", "ix"]);
    assert_eq!(code, 0, "{err}");
}

/// Garden Gate links declare no result: `tree` (scanning, and from an
/// index) scores each game by the rules' ending the replay reaches, as
/// `convert`'s outcome (and report and ratings) do, and says so.
#[test]
fn tree_scores_links_without_a_result_by_the_rules_ending_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let links = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gardengate/games.txt");
    std::fs::copy(&links, dir.path().join("links.txt")).unwrap();
    let (code, out, err) = run(dir.path(), &["convert", "links.txt", "--to", "json"]);
    assert_eq!(code, 0, "{err}");
    let converted: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut wins = [0u64; 2];
    for g in converted["games"].as_array().unwrap() {
        assert!(g["result"].is_null(), "a link declares no result");
        match g["outcome"]["result"].as_str() {
            Some("1-0") => wins[0] += 1,
            Some("0-1") => wins[1] += 1,
            _ => {}
        }
    }
    assert!(wins[0] + wins[1] > 0, "the fixture has finished games");
    let (code, _, err) = run(dir.path(), &["index", "links.txt", "-o", "ix"]);
    assert_eq!(code, 0, "{err}");
    for from in [&["links.txt"][..], &["--index", "ix"][..]] {
        let mut args = vec!["tree", "--depth", "0", "--to", "json"];
        args.extend_from_slice(from);
        let (code, out, err) = run(dir.path(), &args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let t: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        assert_eq!(
            [t["first"].as_u64(), t["second"].as_u64()],
            [Some(wins[0]), Some(wins[1])],
            "{args:?}"
        );
        assert_eq!(t["by_rules"].as_u64(), Some(wins[0] + wins[1]), "{args:?}");
    }
    let (_, out, _) = run(dir.path(), &["tree", "links.txt", "--depth", "0"]);
    assert!(
        out.contains("with no declared result: scored by the rules' ending"),
        "{out}"
    );
}

/// A leaderboard does not rank a one-game player above the established
/// ones: they are provisional (marked, and listed after), and
/// `--min-games` leaves them out of the list.
#[test]
fn a_one_game_winner_is_provisional_and_ranked_after_established_players() {
    let dir = tempfile::tempdir().unwrap();
    let path = generated(dir.path(), "oshi", 60, 4, "a.grec");
    let text = std::fs::read_to_string(&path).unwrap();
    let names = ["Ann", "Bob", "Cid"];
    let mut out = String::new();
    for (i, record) in text.split("\n[Game ").enumerate() {
        let record = if i == 0 {
            record.to_string()
        } else {
            format!("[Game {record}")
        };
        // The last game: a newcomer against Ann, winning whoever wins.
        let (a, b) = match i {
            59 if record.contains("[Result \"1-0\"]") => ("Newbie", "Ann"),
            59 => ("Ann", "Newbie"),
            _ => (names[i % 3], names[(i + 1) % 3]),
        };
        let record = record
            .replacen("[Red \"random\"]", &format!("[Red \"{a}\"]"), 1)
            .replacen("[White \"random\"]", &format!("[White \"{b}\"]"), 1);
        out.push_str(record.trim());
        out.push_str("\n\n");
    }
    std::fs::write(dir.path().join("b.grec"), out).unwrap();
    let (code, csv, err) = run(
        dir.path(),
        &["ratings", "b.grec", "--to", "csv", "--sort", "elo"],
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let last = rows.last().unwrap();
    assert_eq!((last[1], last[2], last[3]), ("Newbie", "1", "1"), "{csv}");
    assert_eq!(last.last(), Some(&"true"), "{csv}");
    assert!(
        rows[..rows.len() - 1]
            .iter()
            .all(|r| r.last() == Some(&"false")),
        "{csv}"
    );
    let (_, human, _) = run(dir.path(), &["ratings", "b.grec", "--sort", "elo"]);
    assert!(human.contains("? provisional"), "{human}");
    let (_, human, _) = run(dir.path(), &["ratings", "b.grec", "--min-games", "2"]);
    assert!(!human.contains("Newbie"), "{human}");
    assert!(
        human.contains("(1 player with fewer games than --min-games not listed)"),
        "{human}"
    );
}

/// `analyse --index N` searches game N alone (the same analysis as in the
/// whole archive's run), as `view`, `show` and `moves` take it; past the
/// last game it is an error (exit 2).
#[test]
fn analyse_index_searches_that_game_alone() {
    let dir = tempfile::tempdir().unwrap();
    generated(dir.path(), "oshi", 4, 5, "g.grec");
    let json = |extra: &[&str]| {
        let mut args = vec!["analyse", "g.grec", "--last", "6", "--to", "json"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(dir.path(), &args);
        assert!(code == 0 || code == 1, "{args:?}: {err}");
        out.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .collect::<Vec<_>>()
    };
    let all = json(&[]);
    assert_eq!(all.len(), 4);
    let one = json(&["--index", "3"]);
    assert_eq!(one.len(), 1);
    assert_eq!(one[0]["index"], 3);
    assert_eq!(one[0], all[2]);
    let (code, out, err) = run(dir.path(), &["analyse", "g.grec", "--index", "5"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("there is no game 5 (the inputs hold 4)"),
        "{err}"
    );
}

/// Standard input has no path to know it by: `index -` takes its bytes'
/// digest, and the same bytes piped again are not added twice (other
/// bytes are).
#[test]
fn standard_input_indexed_twice_is_added_once() {
    let dir = tempfile::tempdir().unwrap();
    let a = generated(dir.path(), "oshi", 5, 1, "a.grec");
    let b = generated(dir.path(), "oshi", 3, 2, "b.grec");
    let piped = |file: &Path| {
        let out = gamerec()
            .current_dir(dir.path())
            .args(["index", "-", "-o", "ix"])
            .stdin(std::fs::File::open(file).unwrap())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let games = || {
        let (code, out, err) = run(
            dir.path(),
            &["tree", "--index", "ix", "--depth", "0", "--to", "json"],
        );
        assert_eq!(code, 0, "{err}");
        let t: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        t["games"].as_u64().unwrap()
    };
    piped(&a);
    assert_eq!(games(), 5);
    let said = piped(&a);
    assert!(
        said.contains(
            "the same bytes as the standard input indexed before (file 1); not added again"
        ),
        "{said}"
    );
    assert_eq!(games(), 5);
    piped(&b);
    assert_eq!(games(), 8);
}

/// Rewrites the index `ix` in `dir` with pyarrow as `mode` says
/// (tests/promises.rs's hostile index tables).
fn rewrite_index(dir: &Path, mode: &str) {
    let script = r#"
import sys, glob, json, pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet as pq
mode = sys.argv[1]
gen = "ix/" + json.load(open("ix/index.json"))["generation"]
def write(path, table, **kw):
    meta = pq.read_metadata(path).metadata
    pq.write_table(table.replace_schema_metadata(meta), path, compression="zstd", **kw)
if mode in ("dictionary", "unfolding"):
    path = gen + "/games.parquet"
    t = pq.read_table(path)
    big = '[["Event","' + "x" * (4 << 20) + '"]]'
    t = t.set_column(t.schema.get_field_index("tags"), "tags", pa.array([big] * t.num_rows))
    # One 4 MiB value named from every row (a dictionary page), or
    # stored plain in every row and compressed away.
    kw = {"dictionary_pagesize_limit": 1 << 30} if mode == "dictionary" else {"use_dictionary": False}
    write(path, t, **kw)
else:
    # The key every game reaches: the start.
    files = glob.glob(gen + "/postings-*.parquet")
    best = max(((pc.max(pc.value_counts(pq.read_table(f)["key"]).field("counts")).as_py() or 0, f) for f in files))
    path = best[1]
    t = pq.read_table(path)
    if mode == "repeated":
        t = pa.concat_tables([t] * 50).sort_by([("key", "ascending"), ("id", "ascending"), ("ply", "ascending")])
    else:
        t = t.take(pa.array(range(t.num_rows - 1, -1, -1)))
    write(path, t)
"#;
    pyarrow(dir, script, &[mode]);
}

/// Index tables are read within bounds whatever they hold: a value a
/// dictionary names from every row is held once (tree and a pattern
/// answer as before; it cost 7.4 GB and failed), a column that would
/// unfold a thousandfold is refused before a page is read, postings that
/// repeat a game are read once each, and postings out of order are
/// refused as damage.
#[test]
fn index_tables_are_read_within_bounds_whatever_they_hold() {
    let start = "c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -";
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generated(d, "oshi", 600, 3, "g.grec");
    let fresh = || {
        let _ = std::fs::remove_dir_all(d.join("ix"));
        let (code, _, err) = run(d, &["index", "g.grec", "-o", "ix", "-q"]);
        assert_eq!(code, 0, "{err}");
    };
    let answers = || {
        let mut tree = run(d, &["tree", "--index", "ix", "--depth", "1"]);
        // The rewritten tags declare no result: the table says so.
        tree.1 = (tree.1.lines())
            .filter(|l| !l.contains("with no declared result"))
            .map(|l| format!("{l}\n"))
            .collect();
        let pattern = run(
            d,
            &["filter", "--index", "ix", "--pattern", "a1=*", "--count"],
        );
        let reaches = run(
            d,
            &["filter", "--index", "ix", "--reaches", start, "--count"],
        );
        [tree, pattern, reaches]
    };
    fresh();
    let before = answers();
    assert_eq!(before[2].1.trim(), "600");
    rewrite_index(d, "dictionary");
    assert_eq!(
        answers(),
        before,
        "a dictionary-encoded 4 MiB tag in every row"
    );
    fresh();
    rewrite_index(d, "repeated");
    assert_eq!(answers(), before, "every posting of the start 50 times");
    fresh();
    rewrite_index(d, "reversed");
    let (code, _, err) = run(
        d,
        &["filter", "--index", "ix", "--reaches", start, "--count"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("postings out of order") && err.contains("postings-"),
        "{err}"
    );
    fresh();
    rewrite_index(d, "unfolding");
    for args in [
        &["tree", "--index", "ix"][..],
        &["filter", "--index", "ix", "--pattern", "a1=*", "--count"][..],
    ] {
        let (code, _, err) = run(d, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("games.parquet") && err.contains("more than 1024 times"),
            "{err}"
        );
    }
}

/// `show --to gif` writes the GIF as its frames are drawn, not held whole
/// to the end (141 MB held at 3,000 frames): its first bytes come after
/// the first frame, and a reader that stops there stops it at once (a
/// stream held whole would draw every frame first: about 60 s here, in a
/// debug build; the bound is half of that).
#[test]
fn a_gif_is_written_as_its_frames_are_drawn() {
    let dir = tempfile::tempdir().unwrap();
    cycling(dir.path(), 300, "long.grec");
    let mut child = gamerec()
        .current_dir(dir.path())
        .args(["show", "long.grec", "--to", "gif", "--ply", "2000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let began = Instant::now();
    let mut head = [0u8; 6];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut head).unwrap();
    assert_eq!(&head, b"GIF89a");
    drop(child.stdout.take());
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.code() != Some(101), "{status:?}");
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "still drawing after its reader left"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(!err.contains("panicked"), "{err}");
}

/// A name with a direction override (U+202E) or a control character is
/// escaped in the ratings tables, never sent raw to the terminal (it
/// turned the rest of its row around).
#[test]
fn ratings_tables_escape_control_and_direction_characters_in_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = generated(dir.path(), "oshi", 4, 2, "g.grec");
    let text = std::fs::read_to_string(&path).unwrap();
    let named = text
        .replace("[Red \"random\"]", "[Red \"A\u{202e}nn\u{7}\"]")
        .replace("[White \"random\"]", "[White \"Bob\"]");
    std::fs::write(&path, named).unwrap();
    for extra in [&[][..], &["--history"][..]] {
        let mut args = vec!["ratings", "g.grec"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(dir.path(), &args);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains('\u{202e}') && !out.contains('\u{7}'), "{out}");
        assert!(out.contains("A\\u{202e}nn"), "{out}");
    }
    // The rows (JSON) keep the name as it is.
    let (_, json, _) = run(dir.path(), &["ratings", "g.grec", "--to", "json"]);
    assert!(
        json.contains("A\\u202enn") || json.contains("A\u{202e}nn"),
        "{json}"
    );
}

/// `analyse --last K` keeps only the last K plies as the game is replayed
/// (1,000,000 plies held 940 MB for `--last 1`): the plies it searches are
/// the last K, the same as `--plies` names them.
#[test]
fn analyse_last_keeps_only_the_plies_it_searches() {
    let dir = tempfile::tempdir().unwrap();
    cycling(dir.path(), 250, "long.grec");
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["analyse", "long.grec", "--to", "json"];
        all.extend_from_slice(args);
        let (code, out, err) = run(dir.path(), &all);
        assert_eq!(code, 0, "{args:?}: {err}");
        serde_json::from_str(out.lines().next().unwrap()).unwrap()
    };
    let last = json(&["--last", "3"]);
    let named = json(&["--plies", "1998-2000"]);
    assert_eq!(last["plies_played"], 2000);
    let plies: Vec<u64> = (last["plies"].as_array().unwrap().iter())
        .map(|p| p["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(plies, [1998, 1999, 2000]);
    assert_eq!(last["plies"], named["plies"]);
}
