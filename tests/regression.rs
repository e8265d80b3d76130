//! One test per problem found when gamerec was tried as a user would, on
//! bad inputs and by fuzzing (issue 14), each named after what it guards.
//! `GAMEREC_BIN=path cargo test --test regression` runs them against
//! another build of gamerec (an older one fails them).

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn bin() -> PathBuf {
    std::env::var_os("GAMEREC_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_gamerec")))
}

fn gamerec() -> Command {
    let mut cmd = Command::new(bin());
    cmd.env_remove("NO_COLOR").stdin(Stdio::null());
    cmd
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs with `args` (and `stdin`), returns (exit code, stdout, stderr).
fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    run_in(root(), args, stdin)
}

fn run_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut cmd = gamerec();
    cmd.current_dir(dir).args(args);
    let out: Output = match stdin {
        None => cmd.output().unwrap(),
        Some(bytes) => {
            cmd.stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut child = cmd.spawn().unwrap();
            let mut input = child.stdin.take().unwrap();
            let bytes = bytes.to_vec();
            let writer = std::thread::spawn(move || {
                let _ = input.write_all(&bytes);
            });
            let out = child.wait_with_output().unwrap();
            writer.join().unwrap();
            out
        }
    };
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

const GAME: &str = "[Game \"oshi\"]\n[Result \"*\"]\n\n1. e3-e4 e7-e6 *\n";

/// `count` generated games of `game`, as text.
fn generated(game: &str, count: u32) -> String {
    let (code, out, err) = run(
        &[
            "gen",
            "--game",
            game,
            "--games",
            &count.to_string(),
            "--seed",
            "3",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    out
}

// 1. Data loss: an output that is also an input.

#[test]
fn convert_and_stats_never_write_over_an_input() {
    let dir = scratch();
    let a = dir.path().join("a.grec");
    fs::write(&a, GAME).unwrap();
    for cmd in ["convert", "stats"] {
        let (code, _, err) = run_in(dir.path(), &[cmd, "a.grec", "-o", "a.grec"], None);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(err.contains("refusing to write over an input"), "{err}");
        assert_eq!(
            fs::read_to_string(&a).unwrap(),
            GAME,
            "{cmd} left a.grec alone"
        );
    }
    // The same file through a symbolic link.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&a, dir.path().join("link.grec")).unwrap();
        let (code, _, _) = run_in(dir.path(), &["convert", "a.grec", "-o", "link.grec"], None);
        assert_eq!(code, 2);
        assert_eq!(fs::read_to_string(&a).unwrap(), GAME);
    }
}

#[test]
fn an_output_appears_whole_or_not_at_all() {
    let dir = scratch();
    let out = dir.path().join("out.grec");
    fs::write(&out, "old\n").unwrap();
    // A run under way (its input still open) has not touched the old
    // output; killed, it leaves it as it was.
    let mut child = gamerec()
        .current_dir(dir.path())
        .args(["convert", "-", "-o", "out.grec"])
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    for _ in 0..2000 {
        input.write_all(GAME.as_bytes()).unwrap();
        input.write_all(b"\n").unwrap();
    }
    input.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let untouched = |when: &str| {
        let now = fs::read_to_string(&out).unwrap();
        assert!(
            now == "old\n",
            "{when}: the old output was replaced ({} bytes)",
            now.len()
        );
    };
    untouched("while running");
    child.kill().unwrap();
    child.wait().unwrap();
    untouched("after a failed run");
    // A folder that does not exist: nothing is created, exit 2.
    fs::write(dir.path().join("a.grec"), GAME).unwrap();
    let (code, _, _) = run_in(
        dir.path(),
        &["convert", "a.grec", "-o", "no/such/out.grec"],
        None,
    );
    assert_eq!(code, 2);
    // A good run puts the whole output in place, no temporary file beside.
    let (code, _, err) = run_in(dir.path(), &["convert", "a.grec", "-o", "out.grec"], None);
    assert_eq!(code, 0, "{err}");
    assert!(fs::read_to_string(&out).unwrap().contains("e7-e6"));
    let temporary = fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".part")
        })
        .count();
    // (The killed run's temporary file is the only one, if any.)
    assert!(temporary <= 1);
}

// 2. A directory walk that would read its own output.

#[test]
fn a_directory_walk_never_reads_its_own_output() {
    let dir = scratch();
    let d = dir.path().join("d");
    fs::create_dir(&d).unwrap();
    fs::write(d.join("b.grec"), generated("iqishiqi", 50)).unwrap();
    let (code, _, err) = run_in(
        dir.path(),
        &["convert", "d", "-o", "d/canonical.grec"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let text = fs::read_to_string(d.join("canonical.grec")).unwrap();
    assert_eq!(text.matches("[Game \"iqishiqi\"]").count(), 50);
    // The second time, d/canonical.grec is a record file of the walk: an
    // input, so it is refused as the output (issue 32; tests/hostile.rs).
    let (code, _, err) = run_in(
        dir.path(),
        &["convert", "d", "-o", "d/canonical.grec"],
        None,
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(fs::read_to_string(d.join("canonical.grec")).unwrap(), text);
}

// 3. A byte that is not UTF-8.

#[test]
fn a_byte_that_is_not_utf8_costs_only_its_value() {
    let latin1: &[u8] =
        b"[Game \"oshi\"]\n[Event \"Club\"]\n[Red \"Jos\xe9\"]\n[White \"Ben\"]\n[Result \"*\"]\n\n1. e3-e4 e7-e6 *\n";
    let (code, out, err) = run(&["convert", "--color", "never", "-"], Some(latin1));
    assert_eq!(code, 1, "the bad byte is reported: {err}");
    assert!(
        err.contains("invalid-utf8") && err.contains("<stdin>:3:"),
        "{err}"
    );
    // Everything else is kept and replayed.
    for kept in [
        "[Event \"Club\"]",
        "[Red \"Jos\u{FFFD}\"]",
        "[White \"Ben\"]",
        "1. e3-e4 e7-e6 *",
    ] {
        assert!(out.contains(kept), "{kept} in {out}");
    }
    // Read as Latin-1: exact.
    let (code, out, err) = run(&["convert", "--encoding", "latin-1", "-"], Some(latin1));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[Red \"José\"]"), "{out}");
    // A file with a UTF-16 byte-order mark is read as UTF-16.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(GAME.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let (code, out, err) = run(&["validate", "--format", "json", "-"], Some(&utf16));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"valid\":true"), "{out}");
}

// 4. Site strings that lost games and turns.

#[test]
fn site_strings_have_one_line_per_game_with_every_turn() {
    // A valid game, one illegal at ply 2 (then one more turn), one illegal
    // at ply 1, one with no turn.
    let input = "[Game \"iqishiqi\"]\n1. H9/H7 I7/G7 *\n\n\
                 [Game \"iqishiqi\"]\n1. H9/H7 H9/H6 2. B1 *\n\n\
                 [Game \"iqishiqi\"]\n1. H8/H7 *\n\n\
                 [Game \"iqishiqi\"]\n*\n";
    let (code, out, err) = run(
        &["convert", "--to", "abstractplay", "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        ["i7/g8 g9/g7", "i7/g8 H9/H6 B1", "H8/H7", ""],
        "{out}"
    );
    assert!(err.contains("converted 4 of 4 games"), "{err}");
    // Left out on request, and said so.
    let (_, out, err) = run(
        &["convert", "--to", "abstractplay", "--skip-invalid", "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(out, "i7/g8 g9/g7\n\n");
    assert!(err.contains("2 left out"), "{err}");
}

// 5. Text between games that vanished.

#[test]
fn text_between_games_is_counted_as_left_out() {
    let input = format!("{GAME}\nthis is not a game\n\n{GAME}");
    let (code, out, err) = run(&["convert", "-"], Some(input.as_bytes()));
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.matches("[Game").count(), 2);
    assert!(err.contains("stretch of text that is no game"), "{err}");
}

// 6. A closed pipe.

/// Runs with stdout a pipe closed after the first line; returns the exit
/// code and stderr.
fn closed_after_one_line(args: &[&str]) -> (i32, String) {
    let mut child = gamerec()
        .current_dir(root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code().unwrap_or(-1), err)
}

#[test]
fn a_closed_pipe_stops_quietly_with_141_or_1() {
    let dir = scratch();
    let valid = dir.path().join("valid.grec");
    fs::write(&valid, generated("oshi", 3000)).unwrap();
    let valid = valid.to_str().unwrap();
    for args in [
        &["validate", "--format", "json", "-j", "1", valid][..],
        &["convert", "--to", "csv", valid],
        &["convert", valid],
        &["stats", "--format", "csv", valid],
        &["gen", "--game", "oshi", "--games", "5000"],
    ] {
        let (code, err) = closed_after_one_line(args);
        assert_eq!(code, 141, "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}: quiet");
    }
    // An invalid game was seen before the pipe closed: 1.
    let (code, err) = closed_after_one_line(&["validate", "fixtures/"]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("Broken pipe"), "{err}");
}

// 7. Directories with nothing to read.

#[cfg(unix)]
#[test]
fn a_directory_of_links_and_special_files_is_read_or_refused() {
    let dir = scratch();
    let d = dir.path();
    fs::write(d.join("real.data"), GAME).unwrap();
    std::os::unix::fs::symlink(d.join("real.data"), d.join("game.grec")).unwrap();
    std::os::unix::fs::symlink(d.join("missing"), d.join("dangling.grec")).unwrap();
    std::os::unix::fs::symlink(d, d.join("loop")).unwrap();
    let fifo = d.join("fifo.grec");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let (code, out, err) = run(&["validate", d.to_str().unwrap()], None);
    // The link to a file is followed; the dangling one is an error.
    assert!(out.contains("1 game: 1 valid"), "{out}");
    assert!(
        err.contains("dangling.grec") && err.contains("dangling"),
        "{err}"
    );
    assert!(
        err.contains("fifo.grec: skipped: not a regular file"),
        "{err}"
    );
    assert_eq!(code, 2, "{err}");
    // Nothing at all to read: an error, not a success.
    let empty = scratch();
    let (code, _, err) = run(&["validate", empty.path().to_str().unwrap()], None);
    assert_eq!(code, 2);
    assert!(err.contains("no record file found in"), "{err}");
    fs::remove_file(d.join("game.grec")).unwrap();
    fs::remove_file(d.join("real.data")).unwrap();
    let (code, _, err) = run(&["validate", d.to_str().unwrap()], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no record file found in"), "{err}");
}

// 8. validate reads what convert reads.

#[test]
fn validate_reads_every_format_convert_reads() {
    let (code, out, err) = run(
        &["validate", "--format", "json", "-"],
        Some(b"i7/g8 g9/g7\n"),
    );
    assert_eq!(code, 0, "an AbstractPlay move list: {err}");
    assert!(out.contains("\"game\":\"iqishiqi\""), "{out}");
    let (_, json, _) = run(
        &["convert", "--to", "json", "fixtures/oshi/points-win.grec"],
        None,
    );
    let (code, out, err) = run(
        &["validate", "--format", "json", "-"],
        Some(json.as_bytes()),
    );
    assert_eq!(code, 0, "a gamerec JSON document: {err}");
    assert!(out.contains("\"reason\":\"points\""), "{out}");
}

// 9. --jobs.

#[test]
fn jobs_are_clamped_to_a_ceiling_and_zero_means_every_core() {
    let dir = scratch();
    fs::write(dir.path().join("one.grec"), GAME).unwrap();
    let (code, _, err) = run_in(dir.path(), &["validate", "-j", "100000", "one.grec"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--jobs 100000") && err.contains("using"),
        "{err}"
    );
    let (code, _, err) = run_in(dir.path(), &["validate", "-j", "0", "one.grec"], None);
    assert_eq!((code, err.as_str()), (0, ""));
}

// 10. A move number too large.

#[test]
fn a_move_number_too_large_is_located_at_its_ply() {
    let input = "[Game \"oshi\"]\n1. e3-e4 e7-e6 99999999999999999999. c2-c4 *\n";
    let (code, out, _) = run(
        &["validate", "--format", "json", "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["plies"], 2, "{v}");
    assert_eq!(v["error"]["ply"], 3, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("too large"),
        "{v}"
    );
}

// 11. Control characters in diagnostics.

#[test]
fn control_characters_never_reach_the_terminal_raw() {
    let input = b"[Game \"oshi\"]\n[Red \"\x1b[2J\"]\n1. e3\x1b]0;owned\x07-e4\x00 *\n";
    // Diagnostics and summaries (validate's on stdout, the others' on
    // stderr); what convert writes is the data, exact.
    for (args, human_stdout) in [
        (&["validate", "--color", "never", "-v", "-"][..], true),
        (&["convert", "--color", "never", "-"], false),
        (&["stats", "--color", "never", "-"], false),
        (&["moves", "--color", "never", "-"], false),
    ] {
        let (_, out, err) = run(args, Some(input));
        let shown = if human_stdout {
            vec![&out, &err]
        } else {
            vec![&err]
        };
        for text in shown {
            assert!(!text.contains(['\x1b', '\x07', '\0']), "{args:?}: {text:?}");
        }
    }
    // JSON stays exact.
    let (_, out, _) = run(&["validate", "--format", "json", "-"], Some(input));
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(
        v["error"]["token"].as_str().unwrap().contains('\x1b'),
        "{v}"
    );
}

// 12 and 24 (memory) are in tests/memory.rs: a peak counted there is
// gamerec's alone.

// 13. -j 1 reports each game as it is read.

#[test]
fn one_job_reports_each_game_as_soon_as_it_is_read() {
    for format in ["human", "json"] {
        let mut child = gamerec()
            .args(["validate", "-j", "1", "-v", "--format", format, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        // One game, and the start of another (so the first is complete).
        input.write_all(GAME.as_bytes()).unwrap();
        input.write_all(b"\n[Game \"oshi\"]\n").unwrap();
        input.flush().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            tx.send(line).unwrap();
        });
        // The report comes while the input is still open.
        let line = rx.recv_timeout(Duration::from_secs(20));
        drop(input);
        let _ = child.wait();
        assert!(line.is_ok(), "{format}: no report before the end of input");
    }
}

// 14. moves: exit codes, the end of the game, --each.

#[test]
fn moves_states_the_end_and_keeps_to_the_exit_codes() {
    let win = "fixtures/oshi/points-win.grec";
    let (code, out, err) = run(&["moves", win, "--ply", "1000"], None);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    let (code, _, _) = run(&["moves", win, "--index", "99"], None);
    assert_eq!(code, 2);
    // After the last move of a finished game: none, and why.
    let (code, out, err) = run(&["moves", win], None);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.contains("the game is over") && err.contains("points"),
        "{err}"
    );
    // --each: the legal prefix of an invalid game, then its error.
    let illegal = "fixtures/oshi/illegal-moves.grec";
    let (code, out, err) = run(
        &[
            "moves", illegal, "--index", "8", "--each", "--color", "never",
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(!out.is_empty(), "the legal prefix is printed");
    assert!(err.contains("no-return"), "{err}");
    // A problem after the asked ply does not matter there, and --each
    // prints the plies before a malformed token.
    let broken = "[Game \"oshi\"]\n1. e3-e4 e7-e6 2. e4?e5 *\n";
    let (code, out, err) = run(
        &["moves", "--ply", "2", "--count", "-"],
        Some(broken.as_bytes()),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.trim().parse::<usize>().unwrap() > 0, "{out}");
    let (code, out, err) = run(&["moves", "--each", "-"], Some(broken.as_bytes()));
    assert_eq!((code, out.lines().count()), (1, 2), "{out}{err}");
}

// 15. One meaning of --game.

#[test]
fn game_means_the_rules_everywhere_and_index_picks_a_game() {
    let start = "c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -";
    let (code, out, err) = run(
        &["moves", "--game", "oshi", "--position", start, "--count"],
        None,
    );
    assert_eq!((code, out.as_str()), (0, "34\n"), "{err}");
    let file = "fixtures/oshi/endings.grec";
    let (_, by_index, _) = run(&["moves", file, "--index", "2", "--count"], None);
    // The old spelling still works, with a note.
    let (code, old, err) = run(&["moves", file, "--game", "2", "--count"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(old, by_index);
    assert!(err.contains("--index"), "{err}");
    let changelog = fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    assert!(
        changelog.contains("--index"),
        "the change is in the changelog"
    );
}

// 17. Smaller things.

#[test]
fn help_texts_name_files_that_exist_and_every_option_says_what_it_does() {
    let (_, help, _) = run(&["convert", "--help"], None);
    assert!(!help.contains("notation/csv.md"), "{help}");
    for doc in help.split("notation/").skip(1) {
        let name = doc
            .split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-'))
            .next();
        let name = name.unwrap().trim_end_matches('.');
        assert!(root().join("notation").join(name).exists(), "{name}");
    }
    let (_, help, _) = run(&["stats", "--help"], None);
    for option in ["--to <FORMAT>", "--color <WHEN>"] {
        let line = help.lines().find(|l| l.contains(option)).unwrap();
        let said = line.split(option).nth(1).unwrap().trim();
        assert!(
            !said.is_empty() || help.contains(&format!("{option}\n          ")),
            "{option}: {help}"
        );
    }
}

#[test]
fn a_missing_game_tag_says_how_to_give_the_rules() {
    let (code, out, _) = run(
        &["validate", "--color", "never", "-"],
        Some(b"L(0,-6) L(2,6)\n"),
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("missing-game") && out.contains("--game vagabond"),
        "{out}"
    );
}

#[test]
fn a_compressed_name_without_its_magic_is_an_io_error() {
    let dir = scratch();
    fs::write(dir.path().join("a.grec.zst"), GAME).unwrap();
    fs::write(dir.path().join("b.grec.gz"), GAME).unwrap();
    for (file, says) in [
        ("a.grec.zst", "not a zstd stream"),
        ("b.grec.gz", "not a gzip stream"),
    ] {
        let (code, _, err) = run_in(dir.path(), &["validate", file], None);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn two_runs_print_the_same_summary() {
    let (_, a, _) = run(&["validate", "fixtures/"], None);
    let (_, b, _) = run(&["validate", "fixtures/"], None);
    assert_eq!(a, b, "no elapsed time off a terminal");
    let (_, timed, _) = run(
        &["validate", "--time", "fixtures/oshi/points-win.grec"],
        None,
    );
    assert!(timed.trim_end().ends_with(" s)"), "{timed}");
}

#[test]
fn turn_csv_says_which_turns_are_legal_and_can_be_made_spreadsheet_safe() {
    let (_, out, _) = run(
        &["convert", "--to", "csv", "fixtures/oshi/illegal-moves.grec"],
        None,
    );
    let mut rows = csv::Reader::from_reader(out.as_bytes());
    let header = rows.headers().unwrap().clone();
    let legal = header
        .iter()
        .position(|h| h == "legal")
        .expect("a legal column");
    let values: Vec<String> = rows
        .records()
        .map(|r| r.unwrap()[legal].to_string())
        .collect();
    assert!(values.contains(&"true".into()) && values.contains(&"false".into()));
    // A cell a spreadsheet would run as a formula.
    let input = "[Game \"roshi\"]\n[Event \"=HYPERLINK(1)\"]\n1. R@d4,@a1 @f6,@b2 *\n";
    let (_, plain, _) = run(&["stats", "--format", "csv", "-"], Some(input.as_bytes()));
    assert!(
        plain.contains(",=HYPERLINK(1)"),
        "the default stays exact: {plain}"
    );
    let (_, safe, _) = run(
        &["stats", "--format", "csv", "--spreadsheet-safe", "-"],
        Some(input.as_bytes()),
    );
    assert!(
        safe.contains(",'=HYPERLINK(1)") && !safe.contains(",=HYPERLINK"),
        "{safe}"
    );
}

// 25. Lines of site strings and JSON Lines have the record cap.

#[test]
fn an_overlong_line_of_json_lines_or_site_strings_is_a_located_error() {
    let long = format!(
        "{{\"tags\":[[\"Game\",\"oshi\"]],\"comments\":[\"{}\"]}}",
        "x".repeat(17 << 20)
    );
    let input =
        format!("{long}\n{{\"tags\":[[\"Game\",\"oshi\"]],\"turns\":[{{\"text\":\"e3-e4\"}}]}}\n");
    let (code, out, _) = run(
        &["validate", "--format", "json", "--from", "jsonl", "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["error"]["code"], "record-too-large");
    assert_eq!(lines[0]["error"]["line"], 1);
    assert_eq!(lines[1]["valid"], true, "the next line is read");
    let site = format!("{}\nh9/h7\n", "h9/h7 ".repeat(3 << 20));
    let (code, out, _) = run(
        &[
            "validate",
            "--format",
            "json",
            "--from",
            "abstractplay",
            "-",
        ],
        Some(site.as_bytes()),
    );
    assert_eq!(code, 1);
    assert!(
        out.lines().next().unwrap().contains("record-too-large"),
        "{out}"
    );
    assert!(
        out.lines().nth(1).unwrap().contains("\"valid\":true"),
        "{out}"
    );
}

// Completions and the manual page come from the one definition.

#[test]
fn completions_and_the_manual_page_list_every_subcommand() {
    let subcommands = ["validate", "moves", "convert", "stats", "gen", "perft"];
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = run(&["completions", shell], None);
        assert_eq!(code, 0, "{err}");
        for s in subcommands {
            assert!(out.contains(s), "{shell}: {s}");
        }
    }
    let (code, man, _) = run(&["man"], None);
    assert_eq!(code, 0);
    assert!(
        man.starts_with(".ie") || man.contains(".TH gamerec"),
        "{man}"
    );
    for s in subcommands {
        assert!(
            man.contains(&format!("gamerec\\-{s}")) || man.contains(s),
            "{s}"
        );
    }
    let (code, page, _) = run(&["man", "validate"], None);
    assert_eq!(code, 0);
    assert!(page.contains("fail\\-fast"), "{page}");
    // Bash reads its script without an error.
    if Command::new("bash").arg("--version").output().is_ok() {
        let (_, script, _) = run(&["completions", "bash"], None);
        let ok = Command::new("bash")
            .args(["-c", &format!("{script}\ncomplete -p gamerec")])
            .output()
            .unwrap();
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
    }
}

// 18–22. Numbers read from the input that overflowed.

/// The validate report of one record.
fn verdict(record: &str) -> (i32, serde_json::Value) {
    let (code, out, err) = run(
        &["validate", "--format", "json", "-"],
        Some(record.as_bytes()),
    );
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    (
        code,
        serde_json::from_str(out.lines().next().unwrap()).unwrap(),
    )
}

#[test]
fn a_point_far_off_the_vagabond_board_is_refused_not_a_crash() {
    for x in ["46400", "46341", "2147483647", "-2147483648"] {
        let (code, v) = verdict(&format!("[Game \"vagabond\"]\n0H.L({x},0) *\n"));
        assert_eq!(code, 1, "{x}: {v}");
        assert_eq!(v["valid"], false);
        let (code, v) = verdict(&format!(
            "[Game \"vagabond\"]\n[Position \"L({x},0) LSSBBWWCCFD/LSSBBWWCCFD H g -\"]\n*\n"
        ));
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (1, Some("bad-setup")),
            "{x}"
        );
    }
    // Not read as another point (46341² wraps to 25 in 32 bits).
    let (_, out, _) = run(
        &["convert", "-"],
        Some(b"[Game \"vagabond\"]\n0H.L(46341,0) *\n"),
    );
    assert!(!out.contains("L(5,0)"), "{out}");
}

#[test]
fn counts_in_a_position_too_large_for_their_type_are_refused() {
    // Retsami: 255 counters off the board.
    let (code, v) = verdict("[Game \"retsami\"]\n[Position \"R80 255-0 r -\"]\n*\n");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("bad-setup")),
        "{v}"
    );
    // Roshi: 255 pieces in supply; 256 red pieces on a 19x19 board.
    let (code, v) =
        verdict("[Game \"roshi\"]\n[Position \"7/7/7/3S3/7/7/R6 c3-e5 255-8 r play -\"]\n*\n");
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("bad-setup")),
        "{v}"
    );
    let mut ranks = vec!["19".to_string(); 19];
    for (i, rank) in ranks.iter_mut().take(15).enumerate() {
        *rank = if i == 9 { "9S9".into() } else { "R".repeat(19) };
    }
    let reds: usize = ranks.iter().map(|r| r.matches('R').count()).sum();
    assert!(reds >= 256, "{reds}");
    let board = format!("{} j9-j11 0-8 r play -", ranks.join("/"));
    let (code, v) = verdict(&format!("[Game \"roshi\"]\n[Position \"{board}\"]\n*\n"));
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("bad-setup")),
        "{v}"
    );
    // Vagabond: 256 identical tiles in a reserve (wrapped to 0), and 31
    // Sky Bisons (more than the set's two).
    for reserve in ["C".repeat(256), "S".repeat(31)] {
        let (code, v) = verdict(&format!(
            "[Game \"vagabond\"]\n[Position \"- {reserve}/LSSBBWWCCFD - h -\"]\n*\n"
        ));
        assert_eq!(
            (code, v["error"]["code"].as_str()),
            (1, Some("bad-setup")),
            "{reserve}: {v}"
        );
    }
}

// 16. Openings in one labelling.

#[test]
fn the_summary_counts_an_opening_once_whatever_its_labels() {
    let ludii = "[Game \"iqishiqi\"]\n1. H9/H7 *\n";
    let abstractplay = "[Game \"iqishiqi\"]\n[Coords \"abstractplay\"]\n1. i7/g8 *\n";
    let input = format!("{ludii}\n{abstractplay}");
    let (_, out, _) = run(&["stats", "--summary", "-"], Some(input.as_bytes()));
    let row: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(
        row["top_first_turns"],
        serde_json::json!([{"turn": "H9/H7", "count": 2}]),
        "{row}"
    );
}

/// Found by fuzzing (`position`, 2.26 million executions in): a run of
/// empty squares written with twenty digits overflowed the file counter
/// of Roshi's Position parser (a panic with overflow checks, a wrong
/// square without). It is refused like any other over-wide rank.
#[test]
fn roshi_position_with_a_twenty_digit_run_of_empty_squares_is_refused() {
    let (code, v) = verdict(
        "[Game \"roshi\"]\n[Position \"B000000018446744073709551615RRBR/RB1B1/R1SBR/15/R4 b3-d3 7-7 r play -\"]\n*\n",
    );
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (1, Some("bad-setup")),
        "{v}"
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 19"),
        "{v}"
    );
}

/// Found by fuzzing (`site`, in CI's 15-second smoke): a `}` where an
/// AbstractPlay record should start was read as an empty record that ended
/// before it, again and again: `validate` never finished. It is one
/// located error now, and what follows it is still read.
#[test]
fn a_stray_closing_brace_in_an_abstractplay_file_is_an_error_not_a_hang() {
    let dir = scratch();
    let file = dir.path().join("games.json");
    let record =
        fs::read_to_string(root().join("tests/data/abstractplay/single/iqishiqi-1.json")).unwrap();
    fs::write(&file, format!("}}\n{}", record.trim())).unwrap();
    let mut child = gamerec()
        .args([
            "validate",
            "--format",
            "json",
            "--from",
            "abstractplay-record",
        ])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("validate did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let games: Vec<serde_json::Value> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(games.len(), 2, "{stdout}");
    assert_eq!(games[0]["error"]["line"], 1, "{stdout}");
    assert_eq!(games[0]["error"]["column"], 1, "{stdout}");
    assert_eq!(games[1]["valid"], true, "{stdout}");
}

/// Found by fuzzing (`parquet`): a 15 KB Parquet file whose page lengths
/// point past its end took 24 s to reject, the Parquet reader reading past
/// the end of the file two million times. Ranges now end at the file's end
/// (`convert::parquet`); it is one invalid game saying the file is damaged.
#[test]
fn a_parquet_file_whose_lengths_point_past_its_end_is_rejected_as_damaged() {
    let file = root().join("tests/data/parquet/damaged-length.parquet");
    let mut child = gamerec()
        .args(["validate", "--format", "json"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("validate did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let line: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(line["error"]["code"], "malformed-parquet");
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("damaged"),
        "{line}"
    );
}

/// Found by fuzzing (`parquet`, in CI's 15-second smoke): a 15 KB Parquet
/// file whose footer holds a list of two billion booleans took ten seconds
/// to reject — the parquet crate skips a list of booleans as if its
/// elements took no bytes. The footer is walked first now
/// (`convert::parquet::footer_holds_together`) and the file refused at
/// once as damaged.
#[test]
fn a_parquet_footer_counting_more_elements_than_bytes_is_refused_as_damaged() {
    let file = root().join("tests/data/parquet/endless-footer-list.parquet");
    let footer = {
        let bytes = fs::read(&file).unwrap();
        let n = bytes.len();
        let size = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
        bytes[n - 8 - size..n - 8].to_vec()
    };
    assert!(!gamerec::formats::parquet::footer_holds_together(&footer));
    let message = malformed_parquet_message(&file);
    assert!(
        message.contains("footer does not hold together"),
        "{message}"
    );
}

/// `validate --format json` on a damaged Parquet file: exit 1, one
/// `malformed-parquet` problem; its message.
fn malformed_parquet_message(file: &std::path::Path) -> String {
    let out = gamerec()
        .args(["validate", "--format", "json"])
        .arg(file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let line: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(line["error"]["code"], "malformed-parquet", "{line}");
    line["error"]["message"].as_str().unwrap().to_string()
}

/// Fuzzing (parquet target, found again in a smoke run): a page header
/// (not the footer) holding a list of two billion booleans held the
/// parquet crate's Thrift reader eleven seconds before it said the file
/// was damaged, as it skips such a list as if its elements took no bytes.
/// The page headers of the chunks to be read are walked first, as the
/// footer is.
#[test]
fn a_parquet_page_header_counting_more_elements_than_bytes_is_refused_as_damaged() {
    let file = root().join("tests/data/parquet/endless-page-header-list.parquet");
    let message = malformed_parquet_message(&file);
    assert!(message.contains("a page header of column"), "{message}");
    assert!(message.contains("does not hold together"), "{message}");
}

#[test]
fn a_comment_line_that_looks_like_a_tag_pair_but_closes_the_comment_is_not_a_new_game() {
    // Fuzzing (lenient target): the canonical text joined the next comment
    // onto a comment's line that began with `[`, making
    // `[Position "x} 1. f6-d5 {y"]`, which the reader took for a tag line
    // inside an open comment and cut the game there: the converted record
    // read back as two broken games.
    let record = "[Game \"retsami\"]\n[Position \"2R26W3W6W3R5R12W12R4 0-0 r -\"]\n\n\
                  {a comment over two lines, the second\n[Position \"2R2 it.} 1. f6-d5\n\
                  {[%, depth 5\"]\n\n{and another} 1-0\n";
    let dir = scratch();
    let input = dir.path().join("in.grec");
    fs::write(&input, record).unwrap();
    let (code, text, err) = run(
        &["convert", input.to_str().unwrap(), "--to", "text", "-q"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("f6-d5 {[%, depth 5\"]"), "{text}");
    let out = dir.path().join("out.grec");
    fs::write(&out, &text).unwrap();
    let (code, again, err) = run(
        &["convert", out.to_str().unwrap(), "--to", "text", "-q"],
        None,
    );
    assert_eq!(
        code, 0,
        "the canonical text reads back as the same one valid game: {err}"
    );
    assert_eq!(again, text);
}
