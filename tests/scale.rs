//! Archive scale: `gen` writes valid games, parallel and single-threaded
//! runs report the same, compressed and plain inputs report the same,
//! `--fail-fast` / `--max-errors` stop where they say.

use assert_cmd::Command;
use gamerec::formats::text::write_game;
use gamerec::gen::GenOptions;
use gamerec::record::ResultToken;
use gamerec::validate;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

fn gamerec() -> Command {
    Command::cargo_bin("gamerec").unwrap()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Generated games of every game type validate, their Result tags are the
/// outcome the replay finds, and a game that stops early is unfinished.
#[test]
fn generated_games_validate_for_every_game_and_seed() {
    for rules in gamerec::registry::GAMES {
        for seed in [1, 2, 99, u64::MAX] {
            for finish in [false, true] {
                // Trying every move for an ending is slow in a debug build
                // (Roshi has thousands): fewer plies with the bias.
                let max_plies = if finish { 16 } else { 60 };
                let opts = GenOptions { max_plies, finish };
                let mut text = String::new();
                for i in 1..=4 {
                    if i > 1 {
                        text.push('\n');
                    }
                    write_game(&gamerec::gen::generate(*rules, seed, i, &opts), &mut text);
                }
                let mut n = 0;
                validate::validate(text.as_bytes(), &mut |_, report| {
                    n += 1;
                    let what = format!("{} seed {seed} game {n}", rules.name());
                    assert!(report.is_valid(), "{what}: {:?}", report.error);
                    let outcome = report.outcome.expect("a valid game has an outcome");
                    assert!(report.plies <= max_plies, "{what}");
                    if outcome.result == ResultToken::Unknown {
                        assert!(
                            report.plies == max_plies || outcome.reason != "unfinished",
                            "{what}: stopped early without an ending"
                        );
                    } else {
                        assert_ne!(
                            outcome.reason, "resignation",
                            "{what}: declared, not reached"
                        );
                        assert_ne!(outcome.reason, "agreement", "{what}: declared, not reached");
                    }
                    Ok(())
                })
                .unwrap();
                assert_eq!(n, 4, "{} seed {seed}", rules.name());
            }
        }
    }
}

/// The same seed gives the same games; another seed other games.
#[test]
fn generation_is_deterministic() {
    let opts = GenOptions::default();
    for rules in gamerec::registry::GAMES {
        let game = |seed, i| {
            let mut s = String::new();
            write_game(&gamerec::gen::generate(*rules, seed, i, &opts), &mut s);
            s
        };
        assert_eq!(game(5, 1), game(5, 1));
        assert_ne!(game(5, 1), game(6, 1), "{}", rules.name());
        assert_ne!(game(5, 1), game(5, 2), "{}", rules.name());
    }
}

/// Biasing towards finishing finishes more games.
#[test]
fn the_finishing_bias_finishes_more_games() {
    let rules = gamerec::registry::find("oshi").unwrap();
    let finished = |finish| {
        let opts = GenOptions {
            max_plies: 40,
            finish,
        };
        (1..=30)
            .filter(|&i| {
                gamerec::gen::generate(rules, 3, i, &opts).result != Some(ResultToken::Unknown)
            })
            .count()
    };
    assert!(finished(true) > finished(false));
}

fn gen(args: &[&str]) -> Vec<u8> {
    gamerec()
        .arg("gen")
        .args(args)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone()
}

#[test]
fn gen_cli_writes_count_games_the_same_with_any_jobs() {
    let one = gen(&[
        "--game", "iqishiqi", "--games", "700", "--seed", "4", "-j", "1",
    ]);
    let two = gen(&[
        "--game", "iqishiqi", "--games", "700", "--seed", "4", "-j", "2",
    ]);
    assert_eq!(one, two);
    let text = String::from_utf8(one).unwrap();
    assert_eq!(text.matches("[Game \"iqishiqi\"]").count(), 700);
    assert!(text.contains("[Round \"700\"]"));
    gamerec().args(["gen", "--game", "chess"]).assert().code(2);
}

/// Every fixture (valid and invalid games, broken envelopes) and generated
/// games, repeated until the archive spans many parallel batches.
fn mixed_archive(dir: &Path) -> PathBuf {
    let mut fixtures = Vec::new();
    for entry in walkdir::WalkDir::new(root().join("fixtures")).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "grec") {
            fixtures.extend(std::fs::read(entry.path()).unwrap());
            fixtures.extend(b"\n\n");
        }
    }
    let generated = gen(&["--game", "oshi", "--games", "250", "--seed", "8"]);
    let path = dir.join("mixed.grec");
    let mut f = std::fs::File::create(&path).unwrap();
    for _ in 0..12 {
        f.write_all(&fixtures).unwrap();
        f.write_all(&generated).unwrap();
        f.write_all(b"\n").unwrap();
    }
    path
}

fn validate_json(args: &[&str], path: &Path, stdin: Option<Vec<u8>>) -> (Vec<Value>, i32) {
    let mut cmd = gamerec();
    cmd.args(["validate", "--format", "json"]).args(args);
    match stdin {
        Some(bytes) => cmd.arg("-").write_stdin(bytes),
        None => cmd.arg(path),
    };
    let out = cmd.output().unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("file");
            v
        })
        .collect();
    (lines, out.status.code().unwrap())
}

#[test]
fn parallel_and_single_threaded_runs_report_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = mixed_archive(dir.path());
    let (one, code1) = validate_json(&["-j", "1"], &path, None);
    let (two, code2) = validate_json(&["-j", "2"], &path, None);
    let (four, _) = validate_json(&["--jobs", "4"], &path, None);
    assert_eq!(code1, 1);
    assert_eq!(code2, 1);
    // Many batches of the parallel reader (64 KiB each).
    assert!(std::fs::metadata(&path).unwrap().len() > 3 << 20);
    assert!(one.len() > 3000, "{} games", one.len());
    let invalid = one.iter().filter(|g| g["valid"] == false).count();
    assert!(invalid > 1000 && invalid < one.len());
    assert_eq!(one, two);
    assert_eq!(one, four);
    // Indices run 1.. in input order.
    for (i, g) in one.iter().enumerate() {
        assert_eq!(g["index"], i + 1);
    }
}

#[test]
fn compressed_and_plain_inputs_report_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let path = mixed_archive(dir.path());
    let plain = std::fs::read(&path).unwrap();
    let gz_path = dir.path().join("mixed.grec.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&plain).unwrap();
    let gz = gz.finish().unwrap();
    std::fs::write(&gz_path, &gz).unwrap();
    let zst = zstd::encode_all(&plain[..], 1).unwrap();
    let zst_path = dir.path().join("mixed.grec.zst");
    std::fs::write(&zst_path, &zst).unwrap();

    let expected = validate_json(&[], &path, None);
    assert_eq!(validate_json(&[], &gz_path, None), expected);
    assert_eq!(validate_json(&[], &zst_path, None), expected);
    assert_eq!(validate_json(&[], &path, Some(gz)), expected);
    assert_eq!(validate_json(&[], &path, Some(zst)), expected);
    assert_eq!(validate_json(&["-j", "1"], &gz_path, None), expected);

    // A directory walk picks up compressed record files.
    let out = gamerec()
        .args(["validate", "-q"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let summary = gamerec().arg("validate").arg(dir.path()).output().unwrap();
    let text = String::from_utf8(summary.stdout).unwrap();
    let games = expected.0.len();
    assert!(
        text.contains(&format!("3 files, {} games", 3 * games)),
        "{}",
        text.lines().last().unwrap()
    );
}

#[test]
fn a_corrupt_compressed_file_is_an_io_error_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.grec.gz");
    std::fs::write(&bad, b"\x1f\x8b\x08\x00not gzip at all").unwrap();
    let out = gamerec()
        .arg("validate")
        .arg(&bad)
        .arg(root().join("fixtures/oshi/points-win.grec"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("bad.grec.gz"), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("1 valid"), "{stdout}");
}

#[test]
fn fail_fast_and_max_errors_stop_after_that_many_invalid_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = mixed_archive(dir.path());
    let (all, _) = validate_json(&[], &path, None);
    for (args, n) in [
        (vec!["--fail-fast"], 1),
        (vec!["--max-errors", "5"], 5),
        (vec!["--max-errors", "5", "-j", "1"], 5),
    ] {
        let (got, code) = validate_json(&args, &path, None);
        assert_eq!(code, 1, "{args:?}");
        assert_eq!(got.iter().filter(|g| g["valid"] == false).count(), n);
        // What was reported is the archive's beginning, up to the nth error.
        assert_eq!(got[..], all[..got.len()], "{args:?}");
        assert_eq!(got.last().unwrap()["valid"], false);
    }
    let out = gamerec()
        .args(["validate", "--max-errors", "2"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("stopped after 2 invalid (--max-errors)"),
        "{text}"
    );
    // Usage errors.
    assert_eq!(run(&["validate", "--max-errors", "0"], &path).2, 2);
    assert_eq!(
        run(&["validate", "--fail-fast", "--max-errors", "3"], &path).2,
        2
    );
}

/// No progress bar in a pipe: stderr stays empty on a valid run.
#[test]
fn no_progress_bar_in_a_pipe() {
    let archive = gen(&["--game", "oshi", "--games", "50"]);
    let out = gamerec()
        .args(["validate", "-"])
        .write_stdin(archive)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
}

fn run(args: &[&str], path: &Path) -> (Vec<u8>, Vec<u8>, i32) {
    let out = gamerec().args(args).arg(path).output().unwrap();
    (out.stdout, out.stderr, out.status.code().unwrap())
}

#[test]
fn convert_and_stats_write_the_same_in_parallel() {
    let dir = tempfile::tempdir().unwrap();
    let path = mixed_archive(dir.path());
    for args in [
        &["convert", "--to", "text"][..],
        &["convert", "--to", "jsonl"],
        &["convert", "--to", "json"],
        &["convert", "--to", "csv"],
        &["convert", "--syntax-only"],
        &["stats"],
        &["stats", "--format", "csv"],
        &["stats", "--summary"],
    ] {
        let one = run(&[args, &["-j", "1", "--color", "never"]].concat(), &path);
        let two = run(&[args, &["-j", "2", "--color", "never"]].concat(), &path);
        assert_eq!(one.2, 1, "{args:?}");
        assert!(!one.0.is_empty(), "{args:?}");
        assert!(one == two, "{args:?} differs with 2 jobs");
    }
}

#[test]
fn syntax_only_convert_keeps_moves_as_written_and_checks_the_envelope() {
    let dir = tempfile::tempdir().unwrap();
    // Canonical text (as gen writes it) comes back unchanged.
    let archive = gen(&["--game", "retsami", "--count", "40", "--seed", "2"]);
    let path = dir.path().join("g.grec");
    std::fs::write(&path, &archive).unwrap();
    let (out, _, code) = run(&["convert", "--syntax-only"], &path);
    assert_eq!(code, 0);
    assert_eq!(out, archive);
    // An illegal move is not noticed; a broken envelope is.
    let bad = dir.path().join("bad.grec");
    std::fs::write(
        &bad,
        "[Game \"oshi\"]\n\n1. e3-e9 {too far} e7-e6 *\n\n[Game \"oshi\"]\n\n1. e3-e4 {open\n",
    )
    .unwrap();
    let (out, err, code) = run(&["convert", "--syntax-only", "--color", "never"], &bad);
    assert_eq!(code, 1);
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("1. e3-e9 {too far} 1... e7-e6 *"), "{out}");
    let err = String::from_utf8(err).unwrap();
    assert!(
        err.contains("unclosed-comment") || err.contains("comment"),
        "{err}"
    );
    assert!(!err.contains("too-far"), "{err}");
    // Full conversion does notice it.
    let (_, err, code) = run(&["convert", "--color", "never"], &bad);
    assert_eq!(code, 1);
    assert!(String::from_utf8(err).unwrap().contains("too-far"));
    // Text only.
    assert_eq!(
        run(&["convert", "--syntax-only", "--to", "json"], &path).2,
        2
    );
}

/// On a terminal a long run shows a progress bar on stderr; `--quiet`
/// shows none. (`script` gives the run a terminal; `stats` takes long
/// enough on a few megabytes, even in a quick build.)
#[test]
fn a_long_run_on_a_terminal_shows_a_progress_bar() {
    let dir = tempfile::tempdir().unwrap();
    let games = gen(&["--game", "oshi", "--games", "200", "--seed", "3"]);
    let path = dir.path().join("long.grec");
    let mut f = std::fs::File::create(&path).unwrap();
    // About 20 MB: a few seconds, well over the second the bar waits for.
    for _ in 0..80 {
        f.write_all(&games).unwrap();
        f.write_all(b"\n").unwrap();
    }
    drop(f);
    let bin = assert_cmd::cargo::cargo_bin("gamerec");
    let out = dir.path().join("stats.csv");
    let on_terminal = |args: &str| {
        let command = format!(
            "{} stats -j1 --summary -o {} {args} {}",
            bin.display(),
            out.display(),
            path.display()
        );
        let run = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .output()
            .expect("script (util-linux) runs a command on a terminal");
        String::from_utf8_lossy(&run.stdout).into_owned()
    };
    let seen = on_terminal("");
    assert!(seen.contains(" MiB/"), "no bar: {seen:.300}");
    let quiet = on_terminal("--quiet");
    assert!(!quiet.contains(" MiB/"), "{quiet:.300}");
}
