//! The command line as a user and a script see it: exit codes, the JSON
//! Lines report, diagnostics, stdin, directories, `moves`.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

fn gamerec() -> Command {
    let mut cmd = Command::cargo_bin("gamerec").unwrap();
    cmd.env_remove("NO_COLOR");
    cmd
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/oshi")
        .join(name)
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Runs gamerec with `args`, expects exit `code`, returns standard output.
fn stdout_of<I, S>(args: I, code: i32) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = gamerec()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

const VALID_GAME: &str = "[Game \"oshi\"]\n[Result \"*\"]\n1. e3-e4 e7-e6 *\n";

#[test]
fn exit_0_when_every_game_is_valid() {
    gamerec()
        .args(["validate"])
        .arg(fixture("points-win.grec"))
        .arg(fixture("endings.grec"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "2 files, 5 games: 5 valid, 0 invalid",
        ));
}

#[test]
fn exit_1_when_a_game_is_invalid_and_the_rest_is_still_read() {
    let out = stdout_of(
        [
            std::ffi::OsString::from("validate"),
            std::ffi::OsString::from("--color"),
            std::ffi::OsString::from("never"),
            fixture("broken-envelopes.grec").into_os_string(),
        ],
        1,
    );
    let text = out;
    assert!(text.contains("11 games: 3 valid, 8 invalid"), "{text}");
    // The diagnostic names the file, line and column, the game and the token.
    assert!(text.contains("broken-envelopes.grec:11:10"), "{text}");
    assert!(text.contains("[unterminated-comment] Error: game 3: unterminated comment"));
    assert!(!text.contains('\x1b'), "no colour with --color never");
}

#[test]
fn diagnostic_points_at_the_offending_move() {
    let out = stdout_of(
        [
            std::ffi::OsString::from("validate"),
            std::ffi::OsString::from("--color"),
            std::ffi::OsString::from("never"),
            fixture("illegal-moves.grec").into_os_string(),
        ],
        1,
    );
    let text = out;
    let expected = "[train-too-long] Error: game 6, ply 1: the train ahead of c2 has 4 \
                    pieces; a 2-story pushes at most 2";
    assert!(text.contains(expected), "{text}");
    assert!(text.contains("illegal-moves.grec:23:4"), "{text}");
    assert!(text.contains("23 │ 1. c2-d2 *"), "{text}");
    assert!(text.contains("`c2-d2` at ply 1"), "{text}");
}

#[test]
fn exit_2_for_an_unreadable_file_and_the_others_are_still_checked() {
    let out = gamerec()
        .args(["validate", "--format", "json", "no/such/file.grec"])
        .arg(fixture("points-win.grec"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/file.grec"))
        .get_output()
        .stdout
        .clone();
    let lines = json_lines(&String::from_utf8(out).unwrap());
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["valid"], true);
}

#[test]
fn exit_2_for_usage_errors() {
    gamerec().assert().code(2);
    gamerec().args(["validate"]).assert().code(2);
    gamerec()
        .args(["validate", "--format", "xml", "x"])
        .assert()
        .code(2);
    gamerec().args(["frobnicate"]).assert().code(2);
    gamerec().args(["--help"]).assert().code(0);
}

#[test]
fn json_lines_report_has_every_field() {
    let out = stdout_of(
        [
            std::ffi::OsString::from("validate"),
            std::ffi::OsString::from("--format"),
            std::ffi::OsString::from("json"),
            fixture("illegal-moves.grec").into_os_string(),
            fixture("endings.grec").into_os_string(),
            fixture("empty.grec").into_os_string(),
        ],
        1,
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 9 + 4 + 1);
    for l in &lines {
        for key in [
            "file", "index", "game", "valid", "plies", "outcome", "error",
        ] {
            assert!(l.get(key).is_some(), "{key} missing in {l}");
        }
        assert_eq!(l["valid"].as_bool().unwrap(), l["error"].is_null());
        assert_eq!(l["valid"].as_bool().unwrap(), !l["outcome"].is_null());
    }
    let err = &lines[7]["error"];
    assert_eq!(err["code"], "no-return");
    assert_eq!(err["line"], 32);
    assert_eq!(err["column"], 19);
    assert_eq!(err["ply"], 3);
    assert_eq!(err["token"], "e4-e3");
    let offset = err["offset"].as_u64().unwrap() as usize;
    let bytes = fs::read(fixture("illegal-moves.grec")).unwrap();
    assert_eq!(&bytes[offset..offset + 5], b"e4-e3");
    let won = &lines[9]["outcome"];
    assert_eq!(won["result"], "1-0");
    assert_eq!(won["winner"], "Red");
    assert_eq!(won["reason"], "points");
    assert_eq!(won["ply"], 4);
    assert_eq!(lines[12]["outcome"]["reason"], "no-legal-move");
    let empty = &lines[13];
    assert!(empty["index"].is_null());
    assert_eq!(empty["error"]["code"], "no-games");
}

#[test]
fn an_empty_file_is_reported_and_makes_the_run_invalid() {
    gamerec()
        .args(["validate"])
        .arg(fixture("empty.grec"))
        .arg(fixture("endings.grec"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "empty.grec:1:1: no game here: the input is empty",
        ))
        .stdout(predicate::str::contains(
            "2 files, 4 games: 4 valid, 0 invalid, 1 file with no game",
        ));
}

#[test]
fn reads_standard_input() {
    gamerec()
        .args(["validate", "--format", "json", "-"])
        .write_stdin(VALID_GAME)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\"file\":\"<stdin>\""));
    gamerec()
        .args(["validate", "-", "--color", "never"])
        .write_stdin("[Game \"oshi\"]\n1. e3-e6 *\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("<stdin>:2:4"));
}

#[test]
fn walks_directories_for_record_files() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("club/2026")).unwrap();
    fs::write(dir.path().join("club/a.grec"), VALID_GAME).unwrap();
    fs::write(dir.path().join("club/2026/b.txt"), VALID_GAME).unwrap();
    fs::write(dir.path().join("club/2026/notes.md"), "not a record").unwrap();
    let out = stdout_of(
        [
            std::ffi::OsString::from("validate"),
            std::ffi::OsString::from("--format"),
            std::ffi::OsString::from("json"),
            std::ffi::OsString::from(dir.path()),
        ],
        0,
    );
    let files: Vec<String> = json_lines(&out)
        .iter()
        .map(|l| l["file"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(
        files[0].ends_with("b.txt") && files[1].ends_with("a.grec"),
        "{files:?}"
    );
    // --all reads every file: the notes are not a record.
    gamerec()
        .args(["validate", "--all", "--quiet", "--color", "never"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("notes.md"));
}

#[test]
fn quiet_prints_only_errors_and_verbose_every_game() {
    gamerec()
        .args(["validate", "--quiet"])
        .arg(fixture("endings.grec"))
        .assert()
        .code(0)
        .stdout("");
    gamerec()
        .args(["validate", "--verbose"])
        .arg(fixture("endings.grec"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "game 4 (Ana vs Ben): 0-1 (White wins, no-legal-move, ply 1)",
        ));
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let bad = fixture("illegal-moves.grec");
    gamerec()
        .args(["validate", "--color", "always"])
        .arg(&bad)
        .assert()
        .stdout(predicate::str::contains("\x1b["));
    // Not a terminal: auto means no colour.
    gamerec()
        .args(["validate"])
        .arg(&bad)
        .assert()
        .stdout(predicate::str::contains("\x1b[").not());
    gamerec()
        .args(["validate", "--color", "auto"])
        .env("NO_COLOR", "1")
        .arg(&bad)
        .assert()
        .stdout(predicate::str::contains("\x1b[").not());
}

#[test]
fn moves_lists_counts_and_follows_each_ply() {
    let start = "c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -";
    gamerec()
        .args([
            "moves",
            "--game-type",
            "oshi",
            "--count",
            "--position",
            start,
        ])
        .assert()
        .code(0)
        .stdout("34\n");
    let out = stdout_of(
        [
            std::ffi::OsString::from("moves"),
            std::ffi::OsString::from("--game-type"),
            std::ffi::OsString::from("OSHI"),
            std::ffi::OsString::from("--position"),
            std::ffi::OsString::from(start),
        ],
        0,
    );
    let moves: Vec<String> = out.lines().map(str::to_owned).collect();
    assert_eq!(moves.len(), 34);
    assert!(moves.contains(&"a1-a4".to_string()) && moves.contains(&"e3-e2".to_string()));
    // Before ply 1 of a game is its start position.
    gamerec()
        .args(["moves", "--ply", "1", "--count"])
        .arg(fixture("points-win.grec"))
        .assert()
        .code(0)
        .stdout("34\n");
    // After the last move of a finished game: nothing is legal.
    gamerec()
        .args(["moves", "--count"])
        .arg(fixture("points-win.grec"))
        .assert()
        .code(0)
        .stdout("0\n");
    let out = stdout_of(
        [
            std::ffi::OsString::from("moves"),
            std::ffi::OsString::from("--each"),
            fixture("points-win.grec").into_os_string(),
        ],
        0,
    );
    let text = out;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 17);
    assert_eq!(lines[0], "1\t34\ta1-a4");
    assert!(lines[16].starts_with("17\t") && lines[16].ends_with("\tc7-c9"));
    // The Nth game of a file, and the position itself.
    gamerec()
        .args(["moves", "--game", "4", "--ply", "1", "--show-position"])
        .arg(fixture("endings.grec"))
        .assert()
        .code(0)
        .stdout(
            "9/9/9/9/9/a8/9/a8/Aaa6 w 0-0 -\na2-a1\na2-a3\na2-b2\na4-a3\na4-a5\na4-b4\n\
             b1-a1\nb1-b2\nb1-c1\nc1-c2\nc1-d1\n",
        );
}

#[test]
fn moves_for_iqishiqi_in_both_label_schemes() {
    let t1 = "E7 H2,E5,D6,G6,H7,I9,J9,H11,I11 n";
    gamerec()
        .args([
            "moves",
            "--game-type",
            "iqishiqi",
            "--count",
            "--position",
            t1,
        ])
        .assert()
        .code(0)
        .stdout("27\n");
    let out = stdout_of(
        ["moves", "--game-type", "iqishiqi", "--position", "H8 - n"],
        0,
    );
    assert_eq!(out.lines().count(), 42);
    assert!(
        out.lines().all(|m| m.contains('/')),
        "always DROP/DEST: {out}"
    );
    // The same start in AbstractPlay labels, through a record.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ap.grec");
    fs::write(&file, "[Game \"iqishiqi\"]\n[Coords \"abstractplay\"]\n*\n").unwrap();
    let out = stdout_of(
        [std::ffi::OsString::from("moves"), file.into_os_string()],
        0,
    );
    assert_eq!(out.lines().count(), 42);
    assert!(out.lines().any(|m| m == "i7/g8"), "{out}");
}

#[test]
fn moves_for_retsami_count_an_acceptance_while_an_offer_is_pending() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.grec");
    fs::write(&file, "[Game \"retsami\"]\n1. h1-i3~~ *\n").unwrap();
    let out = stdout_of(
        [
            std::ffi::OsString::from("moves"),
            file.clone().into_os_string(),
        ],
        0,
    );
    assert!(out.lines().any(|m| m == "=="), "{out}");
    assert!(
        out.lines().all(|m| !m.ends_with("~~")),
        "offers are not separate moves"
    );
    // White's 7 moves after 1. h1-i3 (crates/rules/tests/data/retsami-counts.txt), plus ==.
    assert_eq!(out.lines().count(), 8);
    let each = stdout_of(
        [
            std::ffi::OsString::from("moves"),
            "--each".into(),
            file.into_os_string(),
        ],
        0,
    );
    assert_eq!(each, "1\t12\th1-i3~~\n");
}

#[test]
fn moves_for_roshi_setup_and_settings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.grec");
    fs::write(&file, "[Game \"roshi\"]\n[Board \"9x9\"]\n*\n").unwrap();
    // Red's setup on 9x9: 9 zone squares, then one of 80 others.
    let out = stdout_of(
        [
            std::ffi::OsString::from("moves"),
            "--count".into(),
            file.clone().into_os_string(),
        ],
        0,
    );
    assert_eq!(out, "720\n");
    let out = stdout_of(
        [
            std::ffi::OsString::from("moves"),
            "--show-position".into(),
            "--count".into(),
            file.into_os_string(),
        ],
        0,
    );
    assert_eq!(out, "9/9/9/9/9/9/9/9/9 d4-f6 8-8 r setup -\n720\n");
}

#[test]
fn a_bare_garden_gate_string_validates_with_game_vagabond() {
    let sample = "0H.L(0,-6);0G.L(2,6);1H.W(-4,0);1G.B(1,6);2H.S(0,-8);2G.C(0,4);\
        3H.(0,-8)-(-2,-4);3G.S(8,0);4H.(-4,0)-(-1,3);4G.(8,0)-(4,2);5H.(-1,3)-(0,4);\
        5G.(4,2)-(0,4);6H.W(-1,8);6G.F(-6,0);7H.(-1,8)-(1,6);7G.D(-6,1)~~;8H.F(4,5);\
        8G.(-6,1)-(-5,3);9H.D(3,3);9G.B(6,-2);10H.(3,3)-(2,6)";
    let out = String::from_utf8(
        gamerec()
            .args(["validate", "--format", "json", "--game", "vagabond", "-"])
            .write_stdin(sample)
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    let lines = json_lines(&out);
    assert_eq!(lines[0]["outcome"]["winner"], "Host");
    assert_eq!(lines[0]["outcome"]["reason"], "lotus-captured");
    assert_eq!(lines[0]["plies"], 21);
    // Without --game the same text is recognised as Garden Gate strings
    // (validate reads every format convert reads).
    gamerec()
        .args(["validate", "--format", "json", "-"])
        .write_stdin(sample)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("lotus-captured"));
    // Turns without the site's prefixes have no rules without --game; the
    // problem says how to give them.
    gamerec()
        .args(["validate", "--color", "never", "-"])
        .write_stdin("L(0,-6) L(2,6)\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("missing-game"))
        .stdout(predicate::str::contains("--game"));
    // The Garden Gate would drop the second `0H.` line silently; gamerec
    // reports it, with its place.
    gamerec()
        .args(["validate", "--color", "never", "--game", "vagabond", "-"])
        .write_stdin("0H.L(0,0);0H.L(1,1);0G.S(8,0)")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("wrong-move-prefix"))
        .stdout(predicate::str::contains("<stdin>:1:11"));
    // The per-ply counts of the sample game (the reference list, plus the
    // acceptance `==` while 7G's offer is pending).
    let each = String::from_utf8(
        gamerec()
            .args(["moves", "--each", "--game-type", "vagabond", "-"])
            .write_stdin(sample)
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    let counts: Vec<&str> = each
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(counts[0], "1229");
    assert_eq!(counts[16], "810");
    assert_eq!(counts[20], "611");
    gamerec()
        .args(["validate", "--game", "go", "-"])
        .write_stdin(sample)
        .assert()
        .code(2);
}

#[test]
fn moves_reports_bad_input_with_the_contract_exit_codes() {
    // A record invalid before the asked ply: 1, with a diagnostic.
    gamerec()
        .args(["moves", "--game", "8", "--color", "never"])
        .arg(fixture("illegal-moves.grec"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no-return"));
    // No such game, no such ply, a bad position, an unknown game: 2.
    gamerec()
        .args(["moves", "--game", "99"])
        .arg(fixture("endings.grec"))
        .assert()
        .code(2);
    gamerec()
        .args(["moves", "--ply", "40"])
        .arg(fixture("points-win.grec"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-ply"));
    gamerec()
        .args(["moves", "--game-type", "oshi", "--position", "9/9 r 0-0 -"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("9 ranks"));
    gamerec()
        .args(["moves", "--game-type", "chess", "--position", "x"])
        .assert()
        .code(2);
    gamerec().args(["moves"]).assert().code(2);
}

#[test]
fn perft_counts_from_a_start_a_position_or_a_recorded_game() {
    assert_eq!(stdout_of(["perft", "2", "--game", "oshi"], 0), "1156\n");
    assert_eq!(stdout_of(["perft", "0", "--game", "retsami"], 0), "1\n");
    // --divide: one line per legal first move, the same moves `moves`
    // lists, adding up to the total on the last line.
    let start = "c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -";
    let divided = stdout_of(
        [
            "perft",
            "2",
            "--game",
            "oshi",
            "--position",
            start,
            "--divide",
        ],
        0,
    );
    let mut lines: Vec<&str> = divided.lines().collect();
    let total: u64 = lines.pop().unwrap().parse().unwrap();
    assert_eq!(total, 1156);
    let split: Vec<(&str, u64)> = lines
        .iter()
        .map(|l| {
            let (m, n) = l.split_once('\t').unwrap();
            (m, n.parse().unwrap())
        })
        .collect();
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), total);
    let listed = stdout_of(["moves", "--game-type", "oshi", "--position", start], 0);
    let moves: Vec<&str> = split.iter().map(|(m, _)| *m).collect();
    assert_eq!(moves, listed.lines().collect::<Vec<_>>());
    // Game 1 of a file before ply 5: depth 1 is the legal-move count there.
    let file = fixture("points-win.grec");
    let count = stdout_of(
        [
            "moves".as_ref(),
            file.as_os_str(),
            "--game".as_ref(),
            "1".as_ref(),
            "--ply".as_ref(),
            "5".as_ref(),
            "--count".as_ref(),
        ],
        0,
    );
    let perft = stdout_of(
        [
            "perft".as_ref(),
            "1".as_ref(),
            file.as_os_str(),
            "--index".as_ref(),
            "1".as_ref(),
            "--ply".as_ref(),
            "5".as_ref(),
        ],
        0,
    );
    assert_eq!(perft, count);
}

#[test]
fn perft_reports_bad_input_with_the_contract_exit_codes() {
    // A record invalid before the asked point: 1, with a diagnostic.
    gamerec()
        .args(["perft", "1", "--index", "8", "--color", "never"])
        .arg(fixture("illegal-moves.grec"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no-return"));
    gamerec()
        .args(["perft", "1", "--ply", "40"])
        .arg(fixture("points-win.grec"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-ply"));
    // Usage: no game, an unknown game, a bad position, no such game: 2.
    gamerec().args(["perft", "2"]).assert().code(2);
    gamerec()
        .args(["perft", "2", "--game", "chess"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown game `chess`"));
    gamerec()
        .args(["perft", "1", "--game", "oshi", "--position", "9/9 r 0-0 -"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("9 ranks"));
    gamerec()
        .args(["perft", "1", "--index", "99"])
        .arg(fixture("endings.grec"))
        .assert()
        .code(2);
    // A record without a Game tag, read with --game.
    gamerec()
        .args(["perft", "1", "--game", "vagabond", "-"])
        .write_stdin("0H.L(0,-6);0G.L(2,6)\n")
        .assert()
        .code(0)
        .stdout("980\n");
}

#[test]
fn validate_syntax_only_reads_and_counts_every_token_and_replays_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.grec");
    // Game 2's moves are illegal (nothing stands on a5): well-formed here.
    // Game 3 names no known game; game 4's movetext holds a tag pair.
    fs::write(
        &path,
        "[Game \"oshi\"]\n[Round \"1\"]\n\n{before} 1. e3-e4 {after} $1 e7-e6?? 2. d2-d3 *\n\n\
         [Game \"oshi\"]\n\n1. a5-a6 1-0\n\n\
         [Game \"chess\"]\n\n1. e4 *\n\n\
         [Game \"oshi\"]\n\n1. e3-e4 [Round \"2\"] *\n",
    )
    .unwrap();
    let out = stdout_of(["validate", "--syntax-only", path.to_str().unwrap()], 1);
    assert!(out.contains("[unknown-game]"), "{out}");
    assert!(out.contains("[tag-in-movetext]"), "{out}");
    assert!(!out.contains("no-piece"), "{out}");
    let summary = out.lines().last().unwrap();
    assert_eq!(
        summary,
        "1 file, 4 games: 2 well-formed, 2 invalid; read, nothing replayed: 5 tags, 6 turns, \
         2 comments, 2 glyphs, 3 results"
    );
    // The same games replayed: game 2 is invalid too.
    let replayed = stdout_of(["validate", path.to_str().unwrap()], 1);
    assert!(replayed.contains("1 valid, 3 invalid"), "{replayed}");
    // Only the first game: exit 0, one line per game with --verbose.
    let first = dir.path().join("first.grec");
    fs::write(&first, "[Game \"oshi\"]\n\n1. e3-e4 *\n").unwrap();
    let out = stdout_of(
        ["validate", "--syntax-only", "-v", first.to_str().unwrap()],
        0,
    );
    assert!(out.contains("game 1: well-formed"), "{out}");
    // JSON and repairs need the replay: usage errors.
    for flag in ["--to=json", "--lenient"] {
        gamerec()
            .args(["validate", "--syntax-only", flag])
            .arg(&first)
            .assert()
            .code(2);
    }
}

/// `tune` writes a game's weights file exactly as the committed one (whose
/// header names the command), to standard output or `-o`, and says on
/// stderr how well the weights fit and predict other games (nothing with
/// `-q`); a bad game or count is a usage error.
#[test]
fn tune_writes_the_committed_weights_file_and_says_how_well_it_fits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let committed =
        fs::read_to_string(root.join("crates/rules/src/games/iqishiqi/eval.weights")).unwrap();
    assert!(committed.contains("# gamerec tune --game iqishiqi --seed 1 --games 2000\n"));
    let args = [
        "tune", "--game", "iqishiqi", "--seed", "1", "--games", "2000",
    ];
    let out = gamerec().args(args).assert().code(0).get_output().clone();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), committed);
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(
        said.contains("finished games: log-loss") && said.contains("calibration error"),
        "{said}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.weights");
    let out = gamerec()
        .args(args)
        .args(["-q", "-o"])
        .arg(&file)
        .assert()
        .code(0)
        .get_output()
        .clone();
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert_eq!(fs::read_to_string(&file).unwrap(), committed);
    gamerec().args(["tune", "--game", "chess"]).assert().code(2);
    gamerec()
        .args(["tune", "--game", "oshi", "--games", "0"])
        .assert()
        .code(2);
}
