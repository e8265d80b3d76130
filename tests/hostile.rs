//! Regression tests for issue 32: hostile inputs and faults. Each is named
//! after the promise it guards: no output ever overwrites an input, memory
//! and disk follow the longest game (never a decompression ratio), exit
//! codes tell the truth. `GAMEREC_BIN=path cargo test --test hostile` runs
//! them against another build (an older one fails them). The peak-memory
//! checks of the bombs are in tests/memory.rs.

#[path = "common/run.rs"]
mod run;
use run::{bin, generate, run_in};
use std::fs;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

#[path = "common/hostile.rs"]
mod hostile_inputs;
use hostile_inputs::{injection_record, lz_bomb, INJECTIONS};

// Item 1: an input destroyed with exit 0.

#[test]
fn a_file_found_in_a_walk_is_an_input_and_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("d")).unwrap();
    generate(d, "oshi", 3, "d/a.grec");
    generate(d, "retsami", 3, "d/b.grec");
    let before = fs::read(d.join("d/a.grec")).unwrap();
    for args in [
        &["convert", "d", "-o", "d/a.grec"][..],
        &["stats", "d", "-o", "d/a.grec"],
        &["view", "d", "-o", "d/a.grec"],
        &["dedup", "d", "-o", "d/a.grec"],
        &["filter", "d", "--valid", "-o", "d/a.grec"],
        // Reached through another path to the same folder.
        &["convert", "d/../d", "-o", "d/a.grec"],
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("refusing to write over an input"),
            "{args:?}: {err}"
        );
        assert_eq!(fs::read(d.join("d/a.grec")).unwrap(), before, "{args:?}");
    }
    // Elsewhere, the same walk writes.
    let (code, _, err) = run_in(d, &["convert", "d", "-o", "all.grec"]);
    assert_eq!(code, 0, "{err}");
}

// Item 2: two outputs on one file.

#[test]
fn two_outputs_on_one_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 4, "g.grec");
    fs::create_dir(d.join("sub")).unwrap();
    for args in [
        &[
            "filter", "g.grec", "--valid", "-o", "x.grec", "--rest", "x.grec",
        ][..],
        &[
            "filter",
            "g.grec",
            "--valid",
            "-o",
            "x.grec",
            "--rest",
            "sub/../x.grec",
        ],
        &["dedup", "g.grec", "-o", "y.grec", "--dups", "y.grec"],
        &["dedup", "g.grec", "-o", "sub/../y.grec", "--dups", "y.grec"],
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("is also the other output"), "{args:?}: {err}");
        assert!(!d.join("x.grec").exists() && !d.join("y.grec").exists());
    }
    // An existing file, named through a link.
    fs::write(d.join("x.grec"), "keep").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(d.join("x.grec"), d.join("l.grec")).unwrap();
    #[cfg(unix)]
    {
        let (code, _, err) = run_in(d, &["dedup", "g.grec", "-o", "x.grec", "--dups", "l.grec"]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(fs::read_to_string(d.join("x.grec")).unwrap(), "keep");
    }
    // Two different files are fine.
    let (code, _, err) = run_in(d, &["dedup", "g.grec", "-o", "u.grec", "--dups", "v.grec"]);
    assert_eq!(code, 0, "{err}");
}

// Item 3: a Garden Gate link bomb.

#[test]
fn a_garden_gate_link_bomb_stops_at_the_cap_with_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A good link, then the bomb (20,000 codes: 200 million characters
    // uncapped), then a good link: the bomb costs only its own line.
    generate(d, "vagabond", 1, "v.grec");
    let (code, link, err) = run_in(d, &["convert", "v.grec", "--to", "gardengate-link"]);
    assert_eq!(code, 0, "{err}");
    let link = link.trim();
    fs::write(
        d.join("links.txt"),
        format!("{link}\n{}\n{link}\n", lz_bomb(20_000)),
    )
    .unwrap();
    for from in ["auto", "gardengate-link"] {
        let (code, out, err) = run_in(
            d,
            &["validate", "--from", from, "--color", "never", "links.txt"],
        );
        assert_eq!(code, 1, "{out}{err}");
        assert!(out.contains("[record-too-large]"), "{out}");
        assert!(out.contains("decoding stopped there"), "{out}");
        assert!(out.contains("links.txt:2:1"), "located on its line: {out}");
        assert!(out.contains("3 games: 2 valid, 1 invalid"), "{out}");
    }
}

// Item 5: a compressed Parquet bomb spooled to disk.

#[test]
fn a_parquet_input_that_is_not_a_file_is_spooled_up_to_its_cap() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // PAR1 and then 8 MiB of zeros, compressed: a few hundred bytes.
    let mut evil = zstd::encode_all(&b"PAR1"[..], 3).unwrap();
    evil.extend(zstd::encode_all(&vec![0u8; 8 << 20][..], 19).unwrap());
    fs::write(d.join("evil.zst"), &evil).unwrap();
    let (code, _, err) = run_in(d, &["validate", "--max-spool", "1M", "evil.zst"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("longer than 1 MiB") && err.contains("--max-spool"),
        "{err}"
    );
    // Under the cap it is read, and found not to be Parquet.
    let (code, out, err) = run_in(d, &["validate", "--max-spool", "16M", "evil.zst"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("malformed-parquet"), "{out}");
    // A real games table, compressed, is read under the default cap.
    generate(d, "oshi", 20, "g.grec");
    let (code, _, err) = run_in(
        d,
        &["convert", "g.grec", "--to", "parquet", "-o", "g.parquet"],
    );
    assert_eq!(code, 0, "{err}");
    let packed = zstd::encode_all(&fs::read(d.join("g.parquet")).unwrap()[..], 3).unwrap();
    fs::write(d.join("g.parquet.zst"), packed).unwrap();
    let (code, out, err) = run_in(d, &["validate", "g.parquet.zst"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("20 games: 20 valid"), "{out}");
}

// Item 9: the viewer's page blanked by `<!--`.

#[test]
fn the_viewer_page_carries_any_tag_value_as_json_data() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("c.grec"), injection_record()).unwrap();
    let (code, _, err) = run_in(d, &["view", "c.grec", "-o", "c.html"]);
    assert_eq!(code, 0, "{err}");
    let page = fs::read_to_string(d.join("c.html")).unwrap();
    let start = page
        .find("<script type=\"application/json\" class=\"game\"")
        .unwrap();
    let data = &page[start..];
    let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
    // Nothing in it that the HTML parser would act on inside a script.
    assert!(!data.contains('<') && !data.contains('>'), "{data}");
    let value: serde_json::Value = serde_json::from_str(data).expect("the data is JSON");
    // The title in the game's attribute is escaped: the tag ends where it
    // should.
    let tag = &page[start..start + page[start..].find('>').unwrap()];
    assert!(tag.contains(" data-title=\""), "{tag}");
    let tags = value["tags"].as_array().unwrap();
    for (i, v) in INJECTIONS.iter().enumerate() {
        let found = tags.iter().find(|t| t[0] == format!("Inject{i}")).unwrap();
        assert_eq!(found[1], *v, "tag {i} reads back as it was");
    }
}

// Item 12: exit codes that lie.

#[cfg(unix)]
#[test]
fn a_closed_stdout_is_an_error_not_a_lost_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 2, "x.grec");
    let shell = |cmd: &str| {
        Command::new("sh")
            .current_dir(d)
            .arg("-c")
            .arg(cmd)
            .arg(bin())
            .output()
            .unwrap()
    };
    for cmd in [
        "exec \"$0\" convert x.grec >&-",
        "exec \"$0\" validate x.grec >&-",
        "exec \"$0\" stats x.grec >&-",
    ] {
        let out = shell(cmd);
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("standard output is closed"), "{cmd}: {err}");
    }
    // With -o, stdout is not needed; and no file opened takes stdout's
    // number (what goes to stdout never lands in the output).
    let out = shell("exec \"$0\" convert x.grec -o y.grec >&-");
    assert_eq!(out.status.code(), Some(0));
    let (_, canonical, _) = run_in(d, &["convert", "x.grec"]);
    assert_eq!(fs::read_to_string(d.join("y.grec")).unwrap(), canonical);
}

#[test]
fn gen_with_the_largest_count_writes_games_at_once() {
    // count + 1 wrapped to 0: the loop ran for ever with nothing written.
    let mut child = Command::new(bin())
        .args([
            "gen",
            "--game",
            "oshi",
            "--games",
            &u64::MAX.to_string(),
            "-j",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut head = vec![0u8; 4096];
        let got = stdout.read_exact(&mut head).map(|()| head);
        let _ = tx.send(got);
    });
    let head = rx.recv_timeout(std::time::Duration::from_secs(120));
    let _ = child.kill();
    let _ = child.wait();
    let head = head.expect("games within two minutes").unwrap();
    assert!(String::from_utf8_lossy(&head).starts_with("[Game \"oshi\"]"));
}

// Item 13: the smaller ones.

#[test]
fn an_unpaired_utf16_surrogate_is_an_invalid_utf8_problem_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[Game \"oshi\"]\n[Event \"A\u{0}B\"]\n\n1. c2-c3 *\n";
    let mut bytes = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        // The NUL stands for the lone high surrogate.
        let u = if u == 0 { 0xD800 } else { u };
        bytes.extend(u.to_le_bytes());
    }
    fs::write(dir.path().join("s.grec"), bytes).unwrap();
    let (code, out, err) = run_in(dir.path(), &["validate", "--color", "never", "s.grec"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("[invalid-utf8]"), "{out}");
    assert!(out.contains("s.grec:2:10"), "line 2, column 10: {out}");
}

#[test]
fn zstd_archives_made_by_pzstd_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 6, "g.grec");
    let text = fs::read(d.join("g.grec")).unwrap();
    // pzstd's layout: each frame behind a skippable frame that holds its
    // size.
    let mut bytes = Vec::new();
    for part in text.chunks(text.len() / 2 + 1) {
        let frame = zstd::encode_all(part, 3).unwrap();
        bytes.extend([0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0]);
        bytes.extend((frame.len() as u32).to_le_bytes());
        bytes.extend(frame);
    }
    fs::write(d.join("g.grec.zst"), bytes).unwrap();
    let (code, out, err) = run_in(d, &["validate", "g.grec.zst"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("6 games: 6 valid"), "{out}");
}

#[test]
fn bidi_controls_never_reach_the_terminal_raw_in_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let record = "[Game \"oshi\"]\n[Event \"x\u{202e}y\"]\n\n1. c2\u{202e}-c3 *\n";
    fs::write(dir.path().join("b\u{2066}.grec"), record).unwrap();
    let (code, out, err) = run_in(dir.path(), &["validate", "--color", "never", "."]);
    assert_eq!(code, 1, "{out}{err}");
    for text in [&out, &err] {
        assert!(
            !text.contains('\u{202e}') && !text.contains('\u{2066}'),
            "{text}"
        );
    }
    assert!(out.contains("\\u{202e}"), "{out}");
}

#[cfg(unix)]
#[test]
fn an_output_keeps_the_mode_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 2, "g.grec");
    fs::write(d.join("private.grec"), "").unwrap();
    fs::set_permissions(d.join("private.grec"), fs::Permissions::from_mode(0o600)).unwrap();
    let (code, _, err) = run_in(d, &["convert", "g.grec", "-o", "private.grec"]);
    assert_eq!(code, 0, "{err}");
    let mode = |p: &str| fs::metadata(d.join(p)).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode("private.grec"), 0o600);
    // A new file: 0666 less the umask (027 in the shell below).
    let out = Command::new("sh")
        .current_dir(d)
        .arg("-c")
        .arg("umask 027; exec \"$0\" convert g.grec -o new.grec")
        .arg(bin())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(mode("new.grec"), 0o640);
}

#[cfg(unix)]
#[test]
fn a_folder_reached_through_many_links_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir_all(d.join("walk/real")).unwrap();
    generate(d, "oshi", 1, "walk/real/g.grec");
    // 50 links to the folder, and a folder of 50 links to the links.
    fs::create_dir(d.join("walk/more")).unwrap();
    for i in 0..50 {
        std::os::unix::fs::symlink(d.join("walk/real"), d.join(format!("walk/l{i}"))).unwrap();
        std::os::unix::fs::symlink(d.join("walk"), d.join(format!("walk/more/m{i}"))).unwrap();
    }
    let (code, out, err) = run_in(d, &["validate", "walk"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 file, 1 game"), "{out}{err}");
}

#[test]
fn a_damaged_parquet_file_is_a_problem_never_a_panic_message() {
    // A caught panic in the Parquet reader is said as a problem, without
    // the panic hook's `panicked at`: a footer that holds together and
    // column metadata that does not (fuzz/seeds hold more).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 3, "g.grec");
    let (code, _, err) = run_in(
        d,
        &["convert", "g.grec", "--to", "parquet", "-o", "g.parquet"],
    );
    assert_eq!(code, 0, "{err}");
    let good = fs::read(d.join("g.parquet")).unwrap();
    // Every byte of the data pages changed in turn, one file each: some of
    // these make the reader panic inside its guard.
    let mut any_damaged = false;
    for at in (4..good.len().saturating_sub(8)).step_by(good.len() / 64 + 1) {
        let mut bad = good.clone();
        bad[at] ^= 0xFF;
        fs::write(d.join("bad.parquet"), &bad).unwrap();
        let (code, out, err) = run_in(d, &["validate", "--color", "never", "bad.parquet"]);
        assert!(!err.contains("panicked at"), "byte {at}: {err}");
        assert!(matches!(code, 0 | 1), "byte {at}: {code} {out}{err}");
        any_damaged |= out.contains("malformed-parquet");
    }
    assert!(any_damaged);
    std::io::stderr().flush().unwrap();
}

#[cfg(unix)]
#[test]
fn control_bytes_from_a_tag_reach_a_terminal_escaped_and_a_pipe_as_they_are() {
    // `script` (util-linux) runs the command on a pseudo-terminal.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let record = "[Game \"oshi\"]\n[Event \"a\u{1b}]0;owned\u{7}b\u{202e}c\"]\n\n1. c2-c3 *\n";
    fs::write(d.join("esc.grec"), record).unwrap();
    for cmd in [
        "convert esc.grec",
        "stats --format csv esc.grec",
        "filter esc.grec",
    ] {
        let out = Command::new("script")
            .current_dir(d)
            .args([
                "-qec",
                &format!("\"{}\" {cmd}", bin().display()),
                "/dev/null",
            ])
            .output()
            .expect("util-linux's `script` runs the command on a terminal");
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(
            !shown.contains('\u{1b}') && !shown.contains('\u{202e}'),
            "{cmd}: {shown:?}"
        );
        assert!(
            shown.contains("a\\u{1b}]0;owned\\u{7}b\\u{202e}c"),
            "{cmd}: {shown:?}"
        );
        // Into a pipe, the bytes as they are (lossless).
        let args: Vec<&str> = cmd.split(' ').collect();
        let (_, piped, _) = run_in(d, &args);
        assert!(
            piped.contains("a\u{1b}]0;owned\u{7}b\u{202e}c"),
            "{cmd}: {piped:?}"
        );
    }
}

// Item 6: a JSON document read whole.

#[test]
fn a_json_document_is_read_game_by_game_in_any_member_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 5, "g.grec");
    let (code, _, err) = run_in(d, &["convert", "g.grec", "--to", "json", "-o", "g.json"]);
    assert_eq!(code, 0, "{err}");
    let (_, canonical, _) = run_in(d, &["convert", "g.grec"]);
    let (code, back, err) = run_in(d, &["convert", "g.json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(back, canonical);
    // The members in another order, and one gamerec does not know.
    let doc: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.join("g.json")).unwrap()).unwrap();
    let reordered = format!(
        "{{\"games\": {}, \"note\": {{\"a\": [1, \"]\"]}}, \"version\": 1, \"format\": \"gamerec\"}}",
        doc["games"]
    );
    fs::write(d.join("r.json"), reordered).unwrap();
    let (code, back, err) = run_in(d, &["convert", "--from", "json", "r.json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(back, canonical);
    // Another version is said; a damaged game costs only itself, located.
    fs::write(
        d.join("v.json"),
        "{\"format\":\"gamerec\",\"version\":9,\"games\":[]}",
    )
    .unwrap();
    let (code, out, _) = run_in(d, &["validate", "--format", "json", "v.json"]);
    assert_eq!(code, 1);
    assert!(out.contains("unsupported-json"), "{out}");
    let games = doc["games"].as_array().unwrap();
    let text = format!(
        "{{\"format\":\"gamerec\",\"version\":1,\"games\":[\n{},\n{{\"tags\": 7}},\n{}\n]}}",
        games[0], games[1]
    );
    fs::write(d.join("bad.json"), text).unwrap();
    let (code, out, _) = run_in(d, &["validate", "--format", "json", "bad.json"]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[1].contains("malformed-json") && lines[1].contains("\"line\":3"),
        "{}",
        lines[1]
    );
}

// Item 10: memory per game.

#[test]
fn a_record_holds_at_most_ten_thousand_tags_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let record = |tags: usize| {
        let mut text = String::from("[Game \"oshi\"]\n");
        for i in 0..tags - 1 {
            text.push_str(&format!("[T{i} \"\"]\n"));
        }
        text + "\n1. c2-c3 *\n"
    };
    fs::write(d.join("ok.grec"), record(10_000)).unwrap();
    fs::write(d.join("over.grec"), record(10_001)).unwrap();
    let (code, out, err) = run_in(d, &["validate", "ok.grec"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = run_in(d, &["validate", "--format", "json", "over.grec"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("record-too-large") && out.contains("\"line\":10001"),
        "{out}"
    );
    // The same games as JSON Lines: the record whole is written from
    // ok.grec, and the one of 10,001 tags built by hand.
    let (code, ok, err) = run_in(d, &["convert", "ok.grec", "--to", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    let mut game: serde_json::Value = serde_json::from_str(ok.trim()).unwrap();
    game["tags"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(["One", "more"]));
    fs::write(d.join("over.jsonl"), format!("{}\n{}", ok.trim(), game)).unwrap();
    let (code, out, _) = run_in(d, &["validate", "--format", "json", "over.jsonl"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("\"valid\":true"), "{out}");
    assert!(lines[1].contains("record-too-large"), "{out}");
}

// Item 11: interrupted work that looks finished.

#[cfg(unix)]
#[test]
fn an_interrupted_shard_leaves_no_shard_that_looks_complete() {
    // The input is a named pipe: shards are written as games arrive, and
    // the run is killed after its first shard, with the pipe still open.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 400, "g.grec");
    let games = fs::read(d.join("g.grec")).unwrap();
    assert!(Command::new("mkfifo")
        .arg(d.join("in.grec"))
        .status()
        .unwrap()
        .success());
    let mut child = Command::new(bin())
        .current_dir(d)
        .args(["shard", "--max-bytes", "4K", "-o", "out", "in.grec"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut pipe = fs::OpenOptions::new()
        .write(true)
        .open(d.join("in.grec"))
        .unwrap();
    pipe.write_all(&games[..games.len() / 2]).unwrap();
    pipe.flush().unwrap();
    let staged = || {
        fs::read_dir(d.join("out"))
            .ok()
            .into_iter()
            .flatten()
            .any(|e| {
                let e = e.unwrap();
                e.file_name()
                    .to_string_lossy()
                    .starts_with(".gamerec-shards-")
                    && fs::read_dir(e.path()).unwrap().count() > 1
            })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !staged() {
        assert!(
            std::time::Instant::now() < deadline,
            "no shard written in 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    assert!(!child.wait().unwrap().success());
    drop(pipe);
    let parts: Vec<String> = fs::read_dir(d.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("part-"))
        .collect();
    assert!(parts.is_empty(), "an interrupted run left {parts:?}");
    // A second run into the same folder is not refused, and writes every
    // game.
    let (code, _, err) = run_in(d, &["shard", "--max-bytes", "4K", "-o", "out", "g.grec"]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = run_in(d, &["validate", "out"]);
    assert!(out.contains("400 games: 400 valid"), "{out}");
}

// Item 8: CPU amplification in Roshi.

#[test]
fn roshi_turns_counted_as_pairs_agree_with_the_turns_listed() {
    // ../shared/repro/roshi_slow.py 1: a 19×19 position of about a million
    // two-action turns, four plies. `stats` counts the pairs (its
    // branching); `moves --each` lists and counts every turn.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let position =
        "R17R/19/19/19/19/9R9/19/19/19/9S9/19/19/19/19/R18/19/19/19/R17B i9-k11 3-7 r play -";
    let record = format!(
        "[Game \"roshi\"]\n[Board \"19x19\"]\n[Zone \"i9-k11\"]\n[Position \"{position}\"]\n\n\
         1. a19-a18 s1-s2 2. a18-a19 s2-s1 *\n"
    );
    fs::write(d.join("r.grec"), record).unwrap();
    let (code, each, err) = run_in(d, &["moves", "--each", "r.grec"]);
    assert_eq!(code, 0, "{err}");
    let counts: Vec<u64> = each
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 4, "{each}");
    assert!(counts.iter().all(|&n| n > 300_000), "{counts:?}");
    let (code, stats, err) = run_in(d, &["stats", "r.grec"]);
    assert_eq!(code, 0, "{err}");
    let row: serde_json::Value = serde_json::from_str(stats.trim()).unwrap();
    let mean = counts.iter().sum::<u64>() as f64 / 4.0;
    assert_eq!(row["branching"].as_f64(), Some(mean), "{counts:?}");
}
