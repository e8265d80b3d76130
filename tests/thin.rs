//! Regression tests for issue 34: one vocabulary across commands, one exit
//! code rule, one table of formats, one reading path — each named after the
//! promise it guards. `GAMEREC_BIN=path cargo test --test thin` runs them
//! against another build (the output-identity check of the refactoring is
//! bench/outputs.sh: two builds, every command, `diff -r`).

#[path = "common/run.rs"]
mod run;
use gamerec::formats;
use run::{generate, run_in};
use std::fs;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `gamerec ARGS` in the repository: (exit code, stdout, stderr).
fn gamerec(args: &[&str]) -> (i32, String, String) {
    run_in(root(), args)
}

/// A record of a game gamerec plays.
const OSHI: &str = "[Game \"oshi\"]\n[Result \"*\"]\n\n1. e3-e4 e7-e6 *\n";

/// An AbstractPlay file whose one record is of a game gamerec does not
/// play.
const OTHER_GAME: &str =
    "[{\"header\":{\"game\":{\"name\":\"Amazons\",\"variants\":[]}},\"moves\":[[\"a1\"]]}]\n";

#[test]
fn every_command_that_writes_a_choice_of_formats_calls_it_to_and_keeps_format() {
    for command in [
        "validate", "convert", "filter", "stats", "shard", "show", "tree",
    ] {
        let (code, help, _) = gamerec(&[command, "--help"]);
        assert_eq!(code, 0);
        assert!(help.contains("--to <FORMAT>"), "{command}: {help}");
        assert!(help.contains("--format]"), "{command}: {help}");
    }
    // The alias works as the option does.
    let (_, by_to, _) = gamerec(&["stats", "--to", "csv", "fixtures/oshi/endings.grec"]);
    let (_, by_format, _) = gamerec(&["stats", "--format", "csv", "fixtures/oshi/endings.grec"]);
    assert!(by_to.starts_with("file,index,game"), "{by_to}");
    assert_eq!(by_to, by_format);
}

#[test]
fn filter_only_game_selects_and_game_gives_the_rules_of_untagged_records() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed.grec");
    // An untagged Oshi game, then a tagged Iqishiqi one.
    let untagged = "[Event \"untagged\"]\n\n1. e3-e4 e7-e6 *\n\n";
    let iq = "[Game \"iqishiqi\"]\n[Event \"iq\"]\n\n1. H9/H7 *\n";
    fs::write(&input, format!("{untagged}{iq}")).unwrap();
    let input = input.to_str().unwrap();
    // `--only-game` selects: the untagged game has no rules, so it is not
    // an Oshi game.
    let (code, out, _) = run_in(
        dir.path(),
        &["filter", input, "--only-game", "oshi", "--count"],
    );
    assert_eq!((code, out.trim()), (1, "0"));
    // `--game` gives it its rules, as in every command: now it is one.
    let (code, out, _) = run_in(
        dir.path(),
        &[
            "filter",
            input,
            "--game",
            "oshi",
            "--only-game",
            "oshi",
            "--count",
        ],
    );
    assert_eq!((code, out.trim()), (0, "1"));
    let (code, out, _) = run_in(dir.path(), &["validate", input, "--game", "oshi"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn gen_games_and_stop_after_are_its_spellings_and_the_old_ones_say_so() {
    let (code, by_games, err) =
        gamerec(&["gen", "--game", "oshi", "--games", "3", "--stop-after", "9"]);
    assert_eq!(code, 0);
    assert!(err.is_empty(), "{err}");
    let (code, by_count, err) =
        gamerec(&["gen", "--game", "oshi", "--count", "3", "--max-plies", "9"]);
    assert_eq!(code, 0);
    assert_eq!(by_games, by_count, "the old spellings still work");
    assert!(err.contains("--count 3 is now --games 3"), "{err}");
    assert!(err.contains("--max-plies 9 is now --stop-after 9"), "{err}");
    // --count means one thing elsewhere: print only a count.
    let (_, help, _) = gamerec(&["gen", "--help"]);
    assert!(!help.contains("--count"), "{help}");
    for command in ["filter", "moves"] {
        let (_, help, _) = gamerec(&[command, "--help"]);
        assert!(
            help.contains("--count") && help.contains("only"),
            "{command}"
        );
    }
}

#[test]
fn view_takes_jobs_and_color_as_every_command_that_reads_archives_does() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("p.html");
    let page = page.to_str().unwrap();
    let input = root().join("fixtures/oshi/illegal-moves.grec");
    let input = input.to_str().unwrap();
    for args in [["-j", "2"], ["--color", "never"]] {
        let mut all = vec!["view", input, "-o", page];
        all.extend(args);
        let (code, _, err) = gamerec(&all);
        // The games are invalid: each is reported, and the exit code is 1.
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("Error: game 1"), "{err}");
        assert!(!err.contains('\u{1b}'), "no colour in a pipe: {err}");
    }
    // The options every archive command shares are the same options.
    for command in [
        "validate", "convert", "filter", "dedup", "stats", "shard", "view", "tree",
    ] {
        let (_, help, _) = gamerec(&[command, "--help"]);
        for option in [
            "--jobs <N>",
            "--from <FORMAT>",
            "--game <GAME>",
            "--encoding",
        ] {
            assert!(help.contains(option), "{command} lacks {option}");
        }
    }
}

#[test]
fn stats_per_takes_game_or_type() {
    let (code, by_type, _) = gamerec(&["stats", "--per", "type", "fixtures/oshi/endings.grec"]);
    let (_, summary, _) = gamerec(&["stats", "--summary", "fixtures/oshi/endings.grec"]);
    assert_eq!(code, 0);
    assert_eq!(by_type, summary);
    let (_, by_game, _) = gamerec(&["stats", "--per", "game", "fixtures/oshi/endings.grec"]);
    let (_, reports, _) = gamerec(&["validate", "--to", "json", "fixtures/oshi/endings.grec"]);
    assert_eq!(by_game.lines().count(), reports.lines().count());
    assert_ne!(by_game, by_type);
}

/// Every command that reads archives, with what it needs besides its
/// input (and `{}` where the input goes).
fn commands(dir: &Path) -> Vec<Vec<String>> {
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let list: [&[&str]; 8] = [
        &["validate", "{}"],
        &["convert", "{}"],
        &["stats", "{}"],
        &["dedup", "{}"],
        &["view", "{}", "-o", "PAGE"],
        &["shard", "{}", "--parts", "2", "-o", "SHARDS"],
        &[
            "shard", "{}", "--parts", "2", "--to", "jsonl", "-o", "SHARDS",
        ],
        &["filter", "{}"],
    ];
    list.iter()
        .map(|args| {
            args.iter()
                .map(|a| match *a {
                    "PAGE" => out("page.html"),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect()
}

/// A name no other call used.
fn rand_suffix() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[test]
fn exit_codes_follow_one_rule_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let valid = write("valid.grec", OSHI);
    let empty = write("empty.grec", "");
    let other = write("other.json", OTHER_GAME);
    let invalid = write("invalid.grec", "[Game \"oshi\"]\n\n1. e3-e9 *\n");
    for command in commands(dir.path()) {
        let name = command[0].clone();
        let with = |input: &str| -> (i32, String) {
            // A new folder of shards each time (a folder with shards is
            // refused).
            let shards = dir.path().join(format!("shards-{}", rand_suffix()));
            let shards = shards.to_str().unwrap().to_string();
            let args: Vec<&str> = command
                .iter()
                .map(|a| match a.as_str() {
                    "{}" => input,
                    "SHARDS" => &shards,
                    other => other,
                })
                .collect();
            let (code, out, err) = run_in(dir.path(), &args);
            (code, format!("{out}{err}"))
        };
        let (valid_code, err) = with(&valid);
        let (empty_code, _) = with(&empty);
        let (other_code, other_err) = with(&other);
        let (invalid_code, _) = with(&invalid);
        if name == "filter" {
            // grep's: 0 some game matched (every one does), 1 none did.
            assert_eq!([valid_code, empty_code, other_code], [0, 1, 1], "{name}");
            continue;
        }
        assert_eq!(valid_code, 0, "{name} of a valid game: {err}");
        // An input with no game gamerec plays is one rule, empty or not.
        assert_eq!(empty_code, 1, "{name} of an empty file");
        assert_eq!(other_code, empty_code, "{name} of another game's record");
        assert!(
            other_err.contains("gamerec plays") || name == "shard",
            "{name}: {other_err}"
        );
        // A command judges what it replays: text shards of text are its own
        // bytes, cut without replaying.
        let replays = name != "shard" || command.iter().any(|a| a == "jsonl");
        assert_eq!(
            invalid_code,
            i32::from(replays),
            "{command:?} of an invalid game"
        );
    }
    // Stated once, the same in every command's help and the README.
    let (_, top, _) = gamerec(&["--help"]);
    let rule = top
        .lines()
        .skip_while(|l| !l.starts_with("Exit codes:"))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(rule.contains("1 some record is invalid"), "{top}");
    for command in [
        "validate", "convert", "filter", "dedup", "stats", "shard", "view", "show", "tree",
    ] {
        let (_, help, _) = gamerec(&[command, "--help"]);
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let rule = rule.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&rule), "{command}'s help: {help}");
    }
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        readme.contains("an input that holds no game gamerec plays"),
        "the README states the rule"
    );
    let dedup = fs::read_to_string(root().join("notation/dedup.md")).unwrap();
    assert!(!dedup.contains("**0** done (with duplicates or without)"));
}

#[test]
fn every_format_of_the_table_is_in_from_and_to_and_their_errors() {
    let readable: Vec<&str> = formats::readable().iter().map(|(n, _)| *n).collect();
    let writable: Vec<&str> = formats::writable().iter().map(|(n, _)| *n).collect();
    assert!(readable.contains(&"abstractplay-record") && readable.contains(&"gardengate-link"));
    assert!(writable.contains(&"csv") && !readable.contains(&"csv"));
    let (_, help, _) = gamerec(&["convert", "--help"]);
    for name in readable.iter().chain(&writable) {
        assert!(
            help.contains(&format!("- {name}")),
            "convert --help lacks {name}"
        );
    }
    let (code, _, err) = gamerec(&["validate", "--from", "nosuch", "fixtures/oshi"]);
    assert_eq!(code, 2);
    for name in &readable {
        assert!(err.contains(name), "--from's error lacks {name}: {err}");
    }
    let (code, _, err) = gamerec(&["convert", "--to", "nosuch", "fixtures/oshi"]);
    assert_eq!(code, 2);
    for name in &writable {
        assert!(err.contains(name), "--to's error lacks {name}: {err}");
    }
    let (_, man, _) = gamerec(&["man", "convert"]);
    let man = man.replace("\\-", "-");
    for name in &writable {
        assert!(man.contains(name), "the man page lacks {name}");
    }
    // The help says how each format read is detected.
    for name in readable {
        assert!(
            help.contains(&format!("{name}: ")),
            "convert's detection help lacks {name}"
        );
    }
    // Each name is one format, and reads back as itself.
    for f in formats::all() {
        assert_eq!(formats::named(f.name()).map(|g| g.name()), Some(f.name()));
    }
}

#[test]
fn detection_tries_the_table_and_the_surest_line_wins() {
    use formats::{detect, Format};
    let is = |f: Format, name: &str| f.name() == name;
    assert!(is(detect(None, b"PAR1...."), "parquet"));
    assert!(is(
        detect(Some("json"), b"[{\"header\":{}}]"),
        "abstractplay-record"
    ));
    assert!(is(
        detect(Some("jsonl"), b"{\"format\":\"gamerec\"}"),
        "jsonl"
    ));
    assert!(is(detect(Some("json"), b"{\"x\":1}"), "json"));
    assert!(is(
        detect(None, b"{\"format\":\"gamerec\",\"games\":[]}"),
        "json"
    ));
    assert!(is(detect(None, b"{\"tags\":[]}\n"), "jsonl"));
    assert!(is(detect(None, b"[Game \"oshi\"]\n"), "text"));
    assert!(is(detect(Some("GREC"), b"1. e3-e4 *"), "text"));
}

#[test]
fn an_empty_input_and_one_of_another_game_are_each_one_no_games_report() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("other.json"), OTHER_GAME).unwrap();
    fs::write(dir.path().join("empty.grec"), "").unwrap();
    let (code, out, err) = run_in(
        dir.path(),
        &["validate", "--to", "json", "other.json", "empty.grec"],
    );
    assert_eq!(code, 1, "{err}");
    let reports: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports.len(), 2);
    for r in &reports {
        assert_eq!(r["error"]["code"], "no-games", "{r}");
    }
    assert!(reports[0]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("its one record is of another game"));
    assert!(
        err.contains("skipped 1 record of 1 other game (Amazons 1)"),
        "{err}"
    );
}

#[test]
fn the_librarys_walk_reads_a_folder_once_as_the_command_line_does() {
    // The library's walk is the one every front end takes (the Python
    // package's: python/tests): links to one folder read once, gamerec's
    // temporaries never, a loop noted.
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    fs::create_dir(&games).unwrap();
    generate(dir.path(), "oshi", 2, "games/a.grec");
    fs::write(games.join(".gamerec-x.part"), OSHI).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&games, games.join("again")).unwrap();
        std::os::unix::fs::symlink(&games, dir.path().join("link")).unwrap();
    }
    let walked = gamerec::sources::walk(
        &[games.clone(), dir.path().join("link")],
        false,
        &gamerec::output::Output::new(None),
    );
    let names: Vec<String> = walked.sources.iter().map(|s| s.name()).collect();
    assert_eq!(names, [games.join("a.grec").to_str().unwrap()]);
    let (code, out, err) = run_in(dir.path(), &["validate", "--to", "json", "games", "link"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "two games, read once: {out}");
}
