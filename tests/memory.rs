//! Regression tests for issue 14's items 12 and 24: gamerec's memory
//! follows the size of the longest game, not the length of its line, of a
//! token or its number of plies. In a test binary of their own, whose
//! inputs are written a piece at a time: the kernel counts a child's peak
//! memory from before it starts gamerec (the test process's own peak), so
//! that must stay small. `GAMEREC_BIN=path` runs them against another
//! build.

#![cfg(target_os = "linux")]

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bin() -> PathBuf {
    std::env::var_os("GAMEREC_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_gamerec")))
}

/// Runs gamerec with `args` (its output thrown away) and returns its exit
/// code, its peak resident memory in MiB as the kernel counted it, and
/// what it wrote on stderr.
#[allow(clippy::zombie_processes)] // reaped by wait4, which std cannot do
fn peak_memory(args: &[&str]) -> (i32, f64, String) {
    let err = tempfile::NamedTempFile::new().unwrap();
    let child = Command::new(bin())
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err.reopen().unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, writing into the two locals.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(got, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    // ru_maxrss is in KiB on Linux.
    let mib = usage.ru_maxrss as f64 / 1024.0;
    (
        code,
        mib,
        fs::read_to_string(err.path()).unwrap_or_default(),
    )
}

/// Writes `head`, `body` `times` times, then `tail` to `path`, a piece at a
/// time.
fn write(path: &Path, head: &str, body: &[&str], times: usize, tail: &str) {
    let mut out = BufWriter::new(File::create(path).unwrap());
    out.write_all(head.as_bytes()).unwrap();
    for i in 0..times {
        out.write_all(body[i % body.len()].as_bytes()).unwrap();
    }
    out.write_all(tail.as_bytes()).unwrap();
    out.flush().unwrap();
}

/// Every subcommand that reads a game, with `file` as its input.
fn readers(file: &Path) -> Vec<Vec<&str>> {
    let file = file.to_str().unwrap();
    [
        &["validate", "-q"][..],
        &["validate", "--format", "json"],
        &["convert", "--to", "text"],
        &["convert", "--to", "json"],
        &["convert", "--to", "jsonl"],
        &["convert", "--to", "csv"],
        &["stats"],
        &["stats", "--summary"],
        &["moves", "--count"],
        &["moves", "--each"],
        &["perft", "1"],
    ]
    .iter()
    .map(|args| {
        let mut args = args.to_vec();
        args.push(file);
        args
    })
    .collect()
}

#[test]
fn a_ten_megabyte_line_or_token_is_read_in_64_mib_and_shown_in_a_window() {
    let dir = tempfile::tempdir().unwrap();
    let head = "[Game \"oshi\"]\n1. ";
    // One line of 10 MB: the second move is refused.
    let line = dir.path().join("line.grec");
    write(&line, head, &["e3-e4 "], 10_000_000 / 6, "*\n");
    // One token of 10 MB.
    let token = dir.path().join("token.grec");
    write(&token, head, &["xxxxxxxxxx"], 1_000_000, " *\n");
    for file in [&line, &token] {
        for args in readers(file) {
            let (code, mib, err) = peak_memory(&args);
            assert_eq!(code, 1, "{args:?}: {err}");
            assert!(mib <= 64.0, "{args:?}: {mib:.1} MiB");
            // The diagnostic shows a window of the line, not all of it.
            assert!(err.len() < 4096, "{args:?}: {} bytes on stderr", err.len());
        }
        // validate's diagnostics are on stdout.
        let out = Command::new(bin())
            .args(["validate", "--color", "never"])
            .arg(file)
            .output()
            .unwrap();
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(shown.len() < 4096, "{} bytes", shown.len());
        assert!(shown.contains('…'), "{shown}");
    }
}

#[test]
fn memory_follows_the_size_of_a_game_not_its_plies_or_tokens() {
    let dir = tempfile::tempdir().unwrap();
    // A Vagabond game of a million legal plies (two tiles shuttling).
    let million = dir.path().join("million.grec");
    write(
        &million,
        "[Game \"vagabond\"]\nL(0,-6) L(0,6)",
        &[" (0,-6)-(0,-5) (0,6)-(0,5)", " (0,-5)-(0,-6) (0,5)-(0,6)"],
        (1_000_000 - 2) / 2,
        " *\n",
    );
    // 15.8 MB of one-byte tokens: the first is refused.
    let bytes = dir.path().join("bytes.grec");
    write(&bytes, "[Game \"oshi\"]\n1. ", &["a "], 7_900_000, "*\n");
    for (file, valid) in [(&million, true), (&bytes, false)] {
        let size = fs::metadata(file).unwrap().len() as f64 / f64::from(1 << 20);
        for args in readers(file) {
            // stats and moves --each count the legal moves before each of
            // the million plies: slow, and no different in memory.
            if valid && matches!(args[..2], ["stats", _] | ["moves", "--each"]) {
                continue;
            }
            let (code, mib, err) = peak_memory(&args);
            assert_eq!(code, if valid { 0 } else { 1 }, "{args:?}: {err}");
            assert!(
                mib <= 64.0 + 2.0 * size,
                "{args:?}: {mib:.1} MiB for a {size:.1} MiB game"
            );
        }
    }
}

#[test]
fn a_bulk_abstractplay_file_of_200_mb_is_read_record_by_record() {
    // AbstractPlay's bulk files are one JSON array. This one repeats the
    // records AbstractPlay's own code wrote (tests/data/abstractplay) past
    // 200 MB, with records of other games between them.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/abstractplay");
    let parse = |name: &str| -> Vec<serde_json::Value> {
        serde_json::from_str(&fs::read_to_string(data.join(name)).unwrap()).unwrap()
    };
    let ours: Vec<String> = parse("meta-iqishiqi.json")
        .iter()
        .map(|r| r.to_string())
        .collect();
    let others: Vec<String> = parse("ALL.json")
        .iter()
        .filter(|r| r["header"]["game"]["name"] != "Iqishiqi")
        .map(|r| r.to_string())
        .collect();
    let mut body: Vec<String> = ours.iter().map(|r| format!("{r},\n")).collect();
    body.extend(others.iter().map(|r| format!("{r},\n")));
    let round: usize = body.iter().map(String::len).sum();
    let rounds = 200_000_000 / round + 1;
    let dir = tempfile::tempdir().unwrap();
    let bulk = dir.path().join("ALL.json");
    let last = format!("{}\n]\n", ours[0]);
    write(&bulk, "[\n", &[&body.concat()], rounds, &last);
    let size = fs::metadata(&bulk).unwrap().len();
    assert!(size >= 200_000_000, "{size} bytes");
    let games = rounds * ours.len() + 1;
    let skipped = rounds * others.len();
    for args in [
        &["validate", "-q"][..],
        &["stats", "--summary"],
        &["convert", "--to", "jsonl"],
    ] {
        let mut args = args.to_vec();
        args.push(bulk.to_str().unwrap());
        let (code, mib, err) = peak_memory(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(mib <= 64.0, "{args:?}: {mib:.1} MiB for {size} bytes");
        eprintln!("{args:?}: {mib:.1} MiB peak for {size} bytes");
        let note = format!("skipped {skipped} records of 2 other games");
        assert!(err.contains(&note), "{args:?}: {err}");
        if args[0] == "convert" {
            assert!(
                err.contains(&format!("converted {games} of {games} games")),
                "{err}"
            );
        }
    }
}

#[path = "common/hostile.rs"]
mod hostile_inputs;

#[test]
fn a_garden_gate_link_bomb_is_decoded_in_bounded_memory() {
    // 40,000 codes: 800 million characters uncapped (5.3 GB before the
    // cap); stopped at 1 Mi characters.
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("link.txt");
    fs::write(&link, hostile_inputs::lz_bomb(40_000) + "\n").unwrap();
    let path = link.to_str().unwrap();
    for args in [
        &["validate", path][..],
        &["validate", "--from", "gardengate-link", path],
        &["stats", path],
    ] {
        let (code, mib, err) = peak_memory(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(mib < 64.0, "{args:?}: {mib:.1} MiB");
    }
}

mod common;

/// Runs gamerec with `args`: its exit code and stdout.
fn stdout_of(args: &[&str]) -> (i32, String) {
    let out = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn parquet_games_past_the_cap_are_refused_before_they_are_built() {
    // tests/hostile/parquet_bombs.py (pyarrow): 16 games of 2.79 million
    // tags (3.5 GB in validate before), 8 games of a 40 MB tag value, and
    // a 20 MB game between two good ones, each in a row group of its own.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let grec = d.join("g.grec");
    let table = d.join("g.parquet");
    let (code, _) = stdout_of(&[
        "gen",
        "--game",
        "oshi",
        "--games",
        "3",
        "-o",
        grec.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let (code, _) = stdout_of(&[
        "convert",
        grec.to_str().unwrap(),
        "--to",
        "parquet",
        "-o",
        table.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/parquet_bombs.py");
    let made = Command::new("python3")
        .arg(&script)
        .arg(&table)
        .arg(d)
        .env("PYTHONPATH", common::python_path(&[("pyarrow", "pyarrow")]))
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    // The bombs' row groups are refused from the footer, never decoded: 64
    // MiB. The 20 MB game in a row group of its own is decoded by Arrow (the
    // row whole, about twice its size) and measured before it is built: 80
    // MiB.
    for (file, games, too_large, cap) in [
        ("tags.parquet", 16, 16, 64.0),
        ("event.parquet", 8, 8, 64.0),
        ("mixed.parquet", 3, 1, 80.0),
    ] {
        let path = d.join(file);
        let path = path.to_str().unwrap();
        let (code, out) = stdout_of(&["validate", "--format", "json", path]);
        assert_eq!(code, 1, "{file}");
        assert_eq!(out.lines().count(), games, "{file}: {out}");
        assert_eq!(
            out.matches("record-too-large").count(),
            too_large,
            "{file}: {out}"
        );
        for args in [
            &["validate", path][..],
            &["stats", "--summary", path],
            &["convert", path],
        ] {
            let (code, mib, err) = peak_memory(args);
            assert_eq!(code, 1, "{args:?}: {err}");
            assert!(mib < cap, "{args:?}: {mib:.1} MiB");
        }
    }
}

#[test]
fn a_json_document_is_read_a_game_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    // A game of a 40 MB comment between two good ones (read whole before:
    // as much memory as the document), and 3 million empty games.
    let game = r#"{"tags":[["Game","oshi"]],"turns":[{"text":"c2-c3"}]}"#;
    let big = dir.path().join("big.json");
    let mut out = BufWriter::new(File::create(&big).unwrap());
    write!(
        out,
        r#"{{"format":"gamerec","version":1,"games":[{game},{{"comments":[""#
    )
    .unwrap();
    for _ in 0..40 {
        out.write_all(&[b'x'; 1 << 20]).unwrap();
    }
    write!(out, r#""]}},{game}]}}"#).unwrap();
    out.flush().unwrap();
    drop(out);
    let empties = dir.path().join("empties.json");
    let mut out = BufWriter::new(File::create(&empties).unwrap());
    write!(out, r#"{{"format":"gamerec","version":1,"games":[{{}}"#).unwrap();
    for _ in 1..3_000_000 {
        out.write_all(b",{}").unwrap();
    }
    out.write_all(b"]}").unwrap();
    out.flush().unwrap();
    drop(out);
    let big = big.to_str().unwrap();
    let (code, report) = stdout_of(&["validate", "--format", "json", big]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 3, "{report}");
    assert!(lines[0].contains("\"valid\":true") && lines[2].contains("\"valid\":true"));
    assert!(lines[1].contains("record-too-large"), "{}", lines[1]);
    for path in [big, empties.to_str().unwrap()] {
        let (code, mib, err) = peak_memory(&["validate", path]);
        assert_eq!(code, 1, "{err}");
        assert!(mib < 64.0, "{path}: {mib:.1} MiB");
    }
}

#[test]
fn a_record_of_millions_of_tags_costs_no_more_than_any_large_record() {
    // Four games of 2.79 million empty tags, each just under the 16 MiB cap
    // (1.1 GB in validate before: a hundred bytes a tag). A record keeps
    // 10,000 tags at most; what is left is what any game near the cap
    // costs (its chunk, read and parsed), measured beside it.
    let dir = tempfile::tempdir().unwrap();
    let tags = dir.path().join("tags.grec");
    let mut out = BufWriter::new(File::create(&tags).unwrap());
    for _ in 0..4 {
        out.write_all(b"[Game \"oshi\"]\n").unwrap();
        for _ in 0..2_790_000 {
            out.write_all(b"[a\"\"]\n").unwrap();
        }
        out.write_all(b"\n1. c2-c3 *\n\n").unwrap();
    }
    out.flush().unwrap();
    drop(out);
    let plain = dir.path().join("plain.grec");
    write(
        &plain,
        "[Game \"oshi\"]\n\n1. c2-c3 {",
        &[&format!("{}\n", "x".repeat(79))],
        209_000,
        "} *\n",
    );
    let (code, base, err) = peak_memory(&["validate", "-j", "2", plain.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // Issue 51: a valid game of 16.7 MB in 64 MiB at two jobs (it took 69
    // MiB while the allocator kept a grown buffer's old blocks).
    assert!(
        base < 64.0,
        "a plain valid game near the cap: {base:.1} MiB"
    );
    for args in [
        &["validate", "-j", "2"][..],
        &["stats", "-j", "2"],
        &["convert", "-j", "2", "--to", "json"],
        &["dedup", "-j", "2"],
    ] {
        let mut args = args.to_vec();
        args.push(tags.to_str().unwrap());
        let (code, mib, err) = peak_memory(&args);
        assert!(code == 1 || code == 0, "{args:?}: {err}");
        // Two such records in flight at two jobs, each its chunk and its
        // reading: about twice a plain game (39 MiB now; this bound was
        // 1.5 times a plain game of 67 MiB, 116 MiB, before its buffer
        // was given back; `convert` measured 61-84 MiB, with the timing
        // of its threads).
        assert!(
            mib < base * 2.0 + 16.0,
            "{args:?}: {mib:.1} MiB, a plain game near the cap {base:.1} MiB"
        );
    }
    let (code, out) = stdout_of(&["validate", "--format", "json", tags.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(out.matches("more than 10000 tag pairs").count(), 4, "{out}");
}

#[test]
fn shard_cuts_a_record_past_the_cap_as_every_command_reads_it() {
    // A 2 GB file of NUL bytes took 3.1 GB in shard: it kept every byte it
    // read until the record ended. Such a file is now refused by shard as
    // by every command (binary data, issue 34: one reading path); a record
    // of text past the cap is cut. 300 MB here, sparse.
    let dir = tempfile::tempdir().unwrap();
    let zeros = dir.path().join("z.grec");
    File::create(&zeros).unwrap().set_len(300 << 20).unwrap();
    let out = dir.path().join("sh");
    let shard = |input: &std::path::Path, out: &std::path::Path| {
        peak_memory(&[
            "shard",
            "--parts",
            "4",
            "-o",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ])
    };
    let (code, _, err) = shard(&zeros, &out);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a record file: binary data"), "{err}");
    // A comment left open at the start, then 300 MB (sparse NULs): one
    // record past the cap.
    let long = dir.path().join("long.grec");
    let mut file = File::create(&long).unwrap();
    file.write_all(b"[Game \"oshi\"]\n{").unwrap();
    file.write_all(&[b'a'; 8192]).unwrap();
    file.set_len(300 << 20).unwrap();
    let cut = dir.path().join("sh2");
    let (code, mib, err) = shard(&long, &cut);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("record-too-large"), "{err}");
    // Issue 51: under 64 MiB (107 MiB once, 84 while the allocator kept a
    // grown buffer's old blocks).
    assert!(mib < 64.0, "{mib:.1} MiB");
    let written: u64 = fs::read_dir(&cut)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(written <= 17 << 20, "{written} bytes of shards");
}

#[test]
fn dedup_report_keeps_the_places_of_duplicates_on_disk() {
    // A million copies of one game (about 540 bytes each in memory before:
    // 540 MB).
    let dir = tempfile::tempdir().unwrap();
    let dups = dir.path().join("dups.grec");
    write(
        &dups,
        "",
        &["[Game \"oshi\"]\n\n1. c2-c3 *\n\n"],
        1_000_000,
        "",
    );
    let dups = dups.to_str().unwrap();
    let (code, mib, err) = peak_memory(&["dedup", "--report", "-o", "/dev/null", dups]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1000000 games, 999999 duplicates"), "{err}");
    assert!(mib < 64.0, "{mib:.1} MiB");
}

#[test]
fn view_writes_the_page_game_by_game_and_index_replays_one_game() {
    // Issue 33, item 1: the viewer held every game's frames until the end,
    // about 1.4 MB a game (2,000 games: 2.9 GB); with --index it replayed
    // every game before the wanted one.
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("g.grec");
    let status = Command::new(bin())
        .args([
            "gen", "--game", "oshi", "--games", "2000", "--seed", "3", "-o",
        ])
        .arg(&games)
        .status()
        .unwrap();
    assert!(status.success());
    let games = games.to_str().unwrap();
    let page = dir.path().join("g.html");
    let page = page.to_str().unwrap();
    let (code, mib, err) = peak_memory(&["view", games, "-q", "-o", page]);
    assert_eq!(code, 0, "{err}");
    assert!(mib < 96.0, "{mib:.1} MiB for 2,000 games");
    // Read a line at a time (a game's element is one line): this test's
    // own memory counts in its children's peaks.
    let games_on = |page: &str| -> Vec<String> {
        use std::io::BufRead;
        std::io::BufReader::new(File::open(page).unwrap())
            .lines()
            .map(Result::unwrap)
            .filter(|l| l.contains("class=\"game\""))
            .map(|l| l[..l.find('>').unwrap()].to_string())
            .collect()
    };
    assert_eq!(games_on(page).len(), 2000, "every game is on the page");
    let (code, mib, err) = peak_memory(&["view", games, "--index", "1999", "-o", page]);
    assert_eq!(code, 0, "{err}");
    assert!(mib < 48.0, "{mib:.1} MiB for one game of 2,000");
    let only = games_on(page);
    assert_eq!(only.len(), 1);
    assert!(only[0].contains("data-index=\"1999\""), "{only:?}");
}
