//! Regression tests for issue 33: what a new user hit — leftover temporary
//! files after Ctrl-C, AbstractPlay's own move lists, a game's identity
//! tied to its label scheme, pictures without coordinates, unhelpful
//! messages. Each test is named after the promise it guards.
//! `GAMEREC_BIN=path cargo test --test new_user` runs them against another
//! build. The viewer's memory is in tests/memory.rs, its layout in
//! tests/browser.rs, Python's exit in tests/python.rs.

#[path = "common/run.rs"]
mod run;
use run::{bin, generate, run_in};
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The names in `dir` (and its sub-folders) that start with `.gamerec-`.
fn temporaries(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".gamerec-"))
        .collect()
}

// Item 2: Ctrl-C or SIGTERM left `.gamerec-XXXX.part` files.

#[cfg(unix)]
#[test]
fn an_interrupted_run_removes_its_temporary_files_and_exits_128_plus_the_signal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 300, "g.grec");
    let games = fs::read(d.join("g.grec")).unwrap();
    let runs: [(&[&str], libc::c_int); 6] = [
        (&["convert", "in.grec", "-o", "out.grec"], libc::SIGINT),
        (&["convert", "in.grec", "-o", "out.parquet"], libc::SIGTERM),
        (&["stats", "in.grec", "-o", "out.csv"], libc::SIGINT),
        (&["view", "in.grec", "-o", "out.html"], libc::SIGTERM),
        (
            &["shard", "--max-bytes", "4K", "-o", "sh", "in.grec"],
            libc::SIGINT,
        ),
        (
            &[
                "gen",
                "--game",
                "oshi",
                "--games",
                "100000000",
                "-o",
                "gen.grec",
            ],
            libc::SIGINT,
        ),
    ];
    for (args, signal) in runs {
        let fifo = d.join("in.grec");
        let _ = fs::remove_file(&fifo);
        assert!(Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let mut child = Command::new(bin())
            .current_dir(d)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Half the games, the pipe left open: the run waits for more.
        let pipe = (args[0] != "gen").then(|| {
            let mut pipe = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            pipe.write_all(&games[..games.len() / 2]).unwrap();
            pipe.flush().unwrap();
            pipe
        });
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while temporaries(d).is_empty() {
            assert!(
                std::time::Instant::now() < deadline,
                "{args:?}: no temporary in 60 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        // SAFETY: a signal to our own child.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let status = child.wait().unwrap();
        drop(pipe);
        assert_eq!(status.code(), Some(128 + signal), "{args:?}: {status:?}");
        assert_eq!(temporaries(d), Vec::<String>::new(), "{args:?} left them");
    }
}

#[test]
fn a_walk_never_reads_a_leftover_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 3, "g.grec");
    // What an older gamerec, killed, left beside its output.
    fs::copy(d.join("g.grec"), d.join(".gamerec-Ab12Cd.part")).unwrap();
    let (code, out, err) = run_in(d, &["validate", "--all", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 games: 3 valid"), "{out}");
}

/// `count` Iqishiqi games (seed 5) in Ludii's labels (`lud.grec`), the same
/// games in AbstractPlay's (`ap.grec`, `Coords "abstractplay"`) and as the
/// site's bare move lists (`ap.txt`, space-separated).
fn iqishiqi_both_ways(d: &Path, count: u32) {
    let (code, _, err) = run_in(
        d,
        &[
            "gen",
            "--game",
            "iqishiqi",
            "--games",
            &count.to_string(),
            "--seed",
            "5",
            "-o",
            "lud.grec",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_in(
        d,
        &[
            "convert",
            "lud.grec",
            "--to",
            "abstractplay",
            "-o",
            "ap.txt",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_in(
        d,
        &[
            "convert",
            "ap.txt",
            "--from",
            "abstractplay",
            "--game",
            "iqishiqi",
            "-o",
            "ap.grec",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(fs::read_to_string(d.join("ap.grec"))
        .unwrap()
        .contains("[Coords \"abstractplay\"]"));
}

// Item 4: AbstractPlay's own comma-separated move lists were refused.

#[test]
fn abstractplay_move_lists_are_read_with_commas_or_spaces() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    iqishiqi_both_ways(d, 80);
    // The site's own form: `c8/i7,f5/j7,…`.
    let spaced = fs::read_to_string(d.join("ap.txt")).unwrap();
    assert!(spaced.lines().all(|l| l.contains(' ') && !l.contains(',')));
    fs::write(d.join("apc.txt"), spaced.replace(' ', ",")).unwrap();
    for args in [
        &[
            "validate",
            "--from",
            "abstractplay",
            "--game",
            "iqishiqi",
            "apc.txt",
        ][..],
        &["validate", "apc.txt"],
        &["validate", "ap.txt"],
    ] {
        let (code, out, err) = run_in(d, args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        assert!(out.contains("80 games: 80 valid"), "{args:?}: {out}");
    }
    // Read from commas, the same games as from spaces.
    let (_, from_commas, _) = run_in(d, &["convert", "apc.txt", "--to", "abstractplay"]);
    assert_eq!(from_commas, spaced);
}

// Item 5: a game's identity depended on its label scheme.

#[test]
fn dedup_finds_the_same_iqishiqi_game_in_either_label_scheme() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    iqishiqi_both_ways(d, 80);
    for by in ["moves", "final-position"] {
        let (code, _, err) = run_in(
            d,
            &["dedup", "--by", by, "lud.grec", "ap.grec", "-o", "one.grec"],
        );
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("160 games, 80 duplicates"), "--by {by}: {err}");
    }
}

#[test]
fn stats_first_turn_and_filter_opening_do_not_depend_on_the_label_scheme() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    iqishiqi_both_ways(d, 40);
    let first_turns = |file: &str| -> Vec<String> {
        let (code, out, err) = run_in(d, &["stats", "--format", "csv", file]);
        assert_eq!(code, 0, "{err}");
        let mut rows = csv::Reader::from_reader(out.as_bytes());
        let at = rows
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == "first_turn")
            .unwrap();
        rows.records().map(|r| r.unwrap()[at].to_string()).collect()
    };
    let (lud, ap) = (first_turns("lud.grec"), first_turns("ap.grec"));
    assert_eq!(lud.len(), 40);
    assert_eq!(lud, ap);
    // The first game's opening turn, written in each scheme: each matches
    // the same games in both files.
    let opening_of = |file: &str| -> String {
        let text = fs::read_to_string(d.join(file)).unwrap();
        let line = text.lines().find(|l| l.starts_with("1. ")).unwrap();
        line.split_whitespace().nth(1).unwrap().to_string()
    };
    for turn in [opening_of("lud.grec"), opening_of("ap.grec")] {
        let matched = |file: &str| {
            let (code, _, err) =
                run_in(d, &["filter", "--opening", &turn, file, "-o", "/dev/null"]);
            assert_eq!(code, 0, "{err}");
            err
        };
        let (a, b) = (matched("lud.grec"), matched("ap.grec"));
        assert_eq!(a, b, "{turn}");
        assert!(!a.contains(" 0 of"), "{turn}: {a}");
    }
}

// Item 6: the README's `.to_pandas()` failed after its own install line.

#[test]
fn the_readme_installs_pandas_where_it_calls_to_pandas() {
    let pyproject = fs::read_to_string(root().join("python/pyproject.toml")).unwrap();
    let extra = pyproject
        .lines()
        .find(|l| l.starts_with("pandas = "))
        .expect("python/pyproject.toml has a `pandas` extra");
    assert!(extra.contains("\"pandas"), "{extra}");
    for doc in ["README.md", "docs/python.md", "python/README.md"] {
        let text = fs::read_to_string(root().join(doc)).unwrap();
        let Some(call) = text.find(".to_pandas()") else {
            continue;
        };
        let install = text[..call]
            .rfind("pip install ")
            .map(|i| &text[i..i + text[i..].find('\n').unwrap()])
            .unwrap_or_else(|| panic!("{doc}: no pip install before .to_pandas()"));
        let earlier = &text[..call];
        assert!(
            install.contains("[pandas]") || earlier.contains("pip install \"./python[pandas]\""),
            "{doc}: `.to_pandas()` needs pandas, and `{install}` does not install it"
        );
    }
}

// Item 7: pictures that cannot be read for coordinates.

/// `gamerec show FILE --ply N ARGS` as an SVG, parsed: (labels with their
/// placed centres, cells' centres by label, the status line's size on
/// screen in pixels, the SVG's text).
struct Drawn {
    labels: Vec<(String, f64, f64)>,
    cells: Vec<(String, f64, f64)>,
    status_px: f64,
    /// Pixels a unit of the SVG's user space is drawn at.
    px: f64,
    status: String,
    svg: String,
}

fn drawn(dir: &Path, file: &str, ply: &str, extra: &[&str]) -> Drawn {
    let mut args = vec!["show", file, "--ply", ply, "--format", "svg"];
    args.extend_from_slice(extra);
    let (code, svg, err) = run_in(dir, &args);
    assert_eq!(code, 0, "{err}");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    let width: f64 = root.attribute("width").unwrap().parse().unwrap();
    let view: Vec<f64> = root
        .attribute("viewBox")
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    let class = |n: &roxmltree::Node| n.attribute("class").unwrap_or("").to_string();
    let f = |n: &roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let status = doc.descendants().find(|n| class(n) == "status").unwrap();
    let status_px = f(&status, "font-size") * width / view[2];
    let labels = doc
        .descendants()
        .filter(|n| class(n) == "label")
        .map(|n| (n.text().unwrap().to_string(), f(&n, "x"), f(&n, "y")))
        .collect();
    let cells = doc
        .descendants()
        .filter(|n| class(n).starts_with("cell") && n.attribute("data-label").is_some())
        .map(|n| {
            let label = n.attribute("data-label").unwrap().to_string();
            let (x, y) = match n.attribute("cx") {
                Some(_) => (f(&n, "cx"), f(&n, "cy")),
                None => {
                    // A hexagon: its points' mean.
                    let pts: Vec<f64> = n
                        .attribute("points")
                        .unwrap()
                        .split([' ', ','])
                        .filter(|s| !s.is_empty())
                        .map(|v| v.parse().unwrap())
                        .collect();
                    let k = pts.len() / 2;
                    let sx: f64 = pts.iter().step_by(2).sum();
                    let sy: f64 = pts.iter().skip(1).step_by(2).sum();
                    (sx / k as f64, sy / k as f64)
                }
            };
            (label, x, y)
        })
        .collect();
    Drawn {
        labels,
        cells,
        status_px,
        px: width / view[2],
        status: status
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect::<Vec<_>>()
            .join(" "),
        svg,
    }
}

#[test]
fn every_iqishiqi_row_and_column_is_named_in_either_label_scheme() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    iqishiqi_both_ways(d, 1);
    for file in ["lud.grec", "ap.grec"] {
        let pic = drawn(d, file, "3", &[]);
        let names: Vec<&str> = pic.labels.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(pic.cells.len(), 169, "{file}");
        // Each cell's label is a letter and a number: both are named
        // somewhere around the board.
        for (label, _, _) in &pic.cells {
            let (letter, number) = label.split_at(1);
            assert!(
                names.contains(&letter),
                "{file}: {letter} of {label} is not named"
            );
            assert!(
                names.contains(&number),
                "{file}: {number} of {label} is not named"
            );
        }
        // No two names drawn on top of each other.
        for (i, a) in pic.labels.iter().enumerate() {
            for b in &pic.labels[i + 1..] {
                let gap = ((a.1 - b.1).powi(2) + (a.2 - b.2).powi(2)).sqrt();
                assert!(gap > 60.0, "{file}: {a:?} and {b:?} overlap");
            }
        }
        assert!(
            pic.svg.contains("North's green"),
            "{file}: the edges' owners"
        );
        assert!(
            pic.status_px >= 12.0,
            "{file}: the status is {:.1} px",
            pic.status_px
        );
        // In text too: every column is named (i14 can be found).
        let (_, text, _) = run_in(d, &["show", file, "--ply", "3", "--ascii"]);
        for (label, _, _) in &pic.cells {
            let column = if file == "lud.grec" {
                &label[..1]
            } else {
                &label[1..]
            };
            assert!(
                text.split_whitespace().any(|w| w == column),
                "{file}: column {column} not named in text:\n{text}"
            );
        }
    }
}

#[test]
fn every_picture_is_readable_at_the_default_size() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for game in ["oshi", "iqishiqi", "retsami", "roshi", "vagabond"] {
        let file = format!("{game}.grec");
        generate(d, game, 1, &file);
        let pic = drawn(d, &file, "3", &[]);
        assert!(
            pic.status_px >= 12.0,
            "{game}: the status line is {:.1} px tall at 480 px",
            pic.status_px
        );
    }
}

/// At the default size every board's cells are at least 36 px apart (a
/// Vagabond tile's letter was ~5 px at 480 px), and no two coordinate
/// labels crowd each other (Vagabond's stepped edge put two numbers
/// within 0.7 of a cell).
#[test]
fn every_board_is_drawn_with_room_for_its_cells_and_labels_at_the_default_size() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for game in ["oshi", "iqishiqi", "retsami", "roshi", "vagabond"] {
        let file = format!("{game}.grec");
        generate(d, game, 1, &file);
        let pic = drawn(d, &file, "1", &[]);
        let dist =
            |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
        let pitch = (pic.cells.iter().enumerate())
            .flat_map(|(i, a)| {
                pic.cells[i + 1..]
                    .iter()
                    .map(move |b| dist((a.1, a.2), (b.1, b.2)))
            })
            .fold(f64::MAX, f64::min);
        assert!(
            pitch * pic.px >= 36.0,
            "{game}: cells {:.1} px apart",
            pitch * pic.px
        );
        for (i, a) in pic.labels.iter().enumerate() {
            for b in &pic.labels[i + 1..] {
                let apart = dist((a.1, a.2), (b.1, b.2)) / pitch;
                assert!(
                    apart >= 0.9,
                    "{game}: labels {} and {} {apart:.2} cells apart",
                    a.0,
                    b.0
                );
            }
        }
    }
}

#[test]
fn vagabond_tiles_carry_their_letters_and_the_header_one_move_number() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "vagabond", 1, "v.grec");
    let (code, _, err) = run_in(
        d,
        &["convert", "v.grec", "--to", "gardengate", "-o", "v.txt"],
    );
    assert_eq!(code, 0, "{err}");
    for file in ["v.grec", "v.txt"] {
        let mut args = vec!["--rotate", "45"];
        if file == "v.txt" {
            args.extend(["--game", "vagabond"]);
        }
        let pic = drawn(d, file, "12", &args);
        let doc = roxmltree::Document::parse(&pic.svg).unwrap();
        // Each tile's picture holds its letter; the key names them all.
        for glyph in doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("glyph"))
        {
            let letter = glyph
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .filter_map(|n| n.text())
                .collect::<String>();
            assert_eq!(letter.len(), 1, "{:?}", glyph.attribute("id"));
            assert!(
                pic.svg.contains(&format!("{letter} ")),
                "{letter} in the key"
            );
        }
        assert!(pic.svg.contains("Tiles: L White Lotus"), "{file}");
        // `11... B(…)`: one number, not `11... 10G.B(…)`.
        let last = pic.status.split("last move ").nth(1).unwrap();
        assert!(
            !last.contains("H.") && !last.contains("G."),
            "{file}: two move numbers in {last:?}"
        );
        // Turned, each label turns with the board: on the axes around it,
        // a cell past the outermost lines (9 cells from the centre, along
        // or across the turned axes), never inside it.
        let n = pic.cells.len() as f64;
        let centre = (
            pic.cells.iter().map(|c| c.1).sum::<f64>() / n,
            pic.cells.iter().map(|c| c.2).sum::<f64>() / n,
        );
        let turn = if args.contains(&"--rotate") {
            45f64
        } else {
            0.0
        }
        .to_radians();
        for (text, x, y) in &pic.labels {
            let (dx, dy) = ((x - centre.0) / 100.0, (y - centre.1) / 100.0);
            let (u, v) = (
                dx * turn.cos() + dy * turn.sin(),
                -dx * turn.sin() + dy * turn.cos(),
            );
            let out = u.abs().max(v.abs());
            assert!(
                (out - 9.0).abs() < 0.05,
                "{file}: label {text} is {out:.2} cells out, not on an axis"
            );
        }
    }
}

// Item 9: the text picture's marks read as brackets.

#[test]
fn the_text_pictures_last_move_marks_do_not_read_as_brackets() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 1, "o.grec");
    for ascii in [false, true] {
        let mut args = vec!["show", "o.grec", "--ply", "4"];
        if ascii {
            args.push("--ascii");
        }
        let (code, text, err) = run_in(d, &args);
        assert_eq!(code, 0, "{err}");
        assert!(!text.contains('<'), "{text}");
        assert!(text.contains('>'), "the destination is marked:\n{text}");
        let left = if ascii { '~' } else { '◦' };
        assert!(text.contains(left), "the cell left is marked:\n{text}");
    }
}

// Item 8: messages that did not say what was wrong.

#[test]
fn utf16_without_a_byte_order_mark_names_the_encoding_that_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let record = "[Game \"oshi\"]\n\n1. c2-c3 *\n";
    let le: Vec<u8> = record.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = record.encode_utf16().flat_map(u16::to_be_bytes).collect();
    fs::write(d.join("le.grec"), le).unwrap();
    fs::write(d.join("be.grec"), be).unwrap();
    for (file, encoding) in [("le.grec", "utf-16le"), ("be.grec", "utf-16be")] {
        let (code, _, err) = run_in(d, &["validate", file]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&format!("--encoding {encoding}")), "{err}");
        assert!(!err.contains("malformed-tag"), "{err}");
        let (code, out, err) = run_in(d, &["validate", "--encoding", encoding, file]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("1 game: 1 valid"), "{out}");
    }
}

#[test]
fn a_binary_file_is_not_a_record_file_and_no_byte_dump() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // An executable's start: its header and tables, NULs among them.
    let mut binary = b"\x7fELF\x02\x01\x01\x00".to_vec();
    for i in 0..4096u32 {
        binary.extend_from_slice(&(i * 7919).to_le_bytes()[..2]);
        binary.extend_from_slice(&[0, 0]);
    }
    fs::write(d.join("prog"), &binary).unwrap();
    let (code, _, err) = run_in(d, &["validate", "prog"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("prog: not a record file"), "{err}");
    assert!(!err.contains("\\x") && err.lines().count() <= 3, "{err}");
    // A stray NUL in a record costs its value, not the file.
    fs::write(
        d.join("one.grec"),
        "[Game \"oshi\"]\n[Event \"a\0b\"]\n\n1. c2-c3 *\n",
    )
    .unwrap();
    let (_, out, err) = run_in(d, &["validate", "one.grec"]);
    assert!(out.contains("1 game"), "{out}{err}");
}

#[test]
fn an_output_in_a_missing_folder_is_named_without_the_temporary_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(d, "oshi", 1, "x.grec");
    let (code, _, err) = run_in(d, &["convert", "x.grec", "-o", "missing/d/o.grec"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("missing/d/o.grec: No such file or directory"),
        "{err}"
    );
    assert!(!err.contains(".gamerec-"), "{err}");
}
