//! The lean reading path (`src/io/lean.rs`) against the full reader: every
//! report `validate` makes (as `validate --to json` writes it, with the
//! game's title) and every count `validate --syntax-only` sums must be the
//! same whether the lean path judged a game or the full reader did — on
//! the shipped fixtures, on generated games of all five games, and on
//! those games broken a byte or a token at a time (each break either
//! judged the same by both, or given up by the lean path).

use gamerec::decode::Encoding;
use gamerec::inputs::{self, How, Item};
use gamerec::reading::{Judging, Options};
use gamerec::sources::Source;
use gamerec::validate::{judge, JsonGame};
use std::ops::ControlFlow;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Every game's report (JSON, with its title) and envelope counts, read
/// with the lean path allowed or not; how many games it judged, and how
/// many of those in the reader's buffer (handed on with a chunk that holds
/// no bytes: one cut always holds some).
fn reports(
    bytes: &[u8],
    (judging, titles): (Judging, bool),
    lean: bool,
    game: Option<&str>,
) -> (Vec<String>, usize, usize) {
    let opts = Options {
        jobs: 1,
        titles,
        turns_only: judging == Judging::Replay,
        judging: lean.then_some(judging),
        default_game: game.and_then(gamerec::registry::find),
        ..Options::default()
    };
    let how = How {
        from: None,
        encoding: Encoding::Auto,
        opts,
        count: None,
    };
    let sources = [Source::Bytes("archive".into(), bytes.into())];
    let judged = AtomicUsize::new(0);
    let map = |v: gamerec::formats::Visit<'_, '_>| {
        if v.judged.is_some() {
            judged.fetch_add(1, Ordering::Relaxed);
        }
        judge(v, judging, titles)
    };
    let mut out = Vec::new();
    let mut in_place = 0;
    inputs::read(&sources, &how, map, |item| {
        if let Item::Game(seen) = item {
            in_place += usize::from(seen.chunk.is_some_and(|c| c.bytes.is_empty()));
            let (mut report, counts) = seen.value;
            report.index = Some(seen.index);
            let json = JsonGame::new(seen.input, seen.chunk, &report, false);
            let line = serde_json::to_string(&json).unwrap();
            out.push(format!("{line} {:?} {:?}", report.title, counts));
        }
        Ok(ControlFlow::Continue(()))
    })
    .unwrap();
    (out, judged.into_inner(), in_place)
}

/// Both ways of reading agree on `bytes`, for both kinds of judging (counting with and without titles);
/// returns how many games the lean path judged (replaying).
fn agree(bytes: &[u8], what: &str, game: Option<&str>) -> usize {
    agree_in_place(bytes, what, game).0
}

/// [`agree`], and how many games the lean path judged in the reader's
/// buffer (replaying).
fn agree_in_place(bytes: &[u8], what: &str, game: Option<&str>) -> (usize, usize) {
    let (mut judged, mut in_place) = (0, 0);
    // Counting without titles (`validate --syntax-only`) makes only the
    // `Game` tag; a replay without them (`validate`) the tags it reads;
    // with titles (`-v`), every tag.
    for how in [
        (Judging::Replay, false),
        (Judging::Replay, true),
        (Judging::Envelope, true),
        (Judging::Envelope, false),
    ] {
        let (full, none, _) = reports(bytes, how, false, game);
        assert_eq!(none, 0, "{what}: the lean path was not asked for");
        let (lean, n, m) = reports(bytes, how, true, game);
        assert_eq!(
            full,
            lean,
            "{what} ({how:?}): the lean path's reports differ; input:\n{}",
            String::from_utf8_lossy(bytes)
        );
        if how.0 == Judging::Replay {
            (judged, in_place) = (n, m);
        }
    }
    (judged, in_place)
}

fn generated(game: &str, games: usize, seed: u64, finish: bool) -> Vec<u8> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gamerec"));
    cmd.args(["gen", "--game", game, "--games", &games.to_string()]);
    cmd.args(["--seed", &seed.to_string(), "--stop-after", "60"]);
    if finish {
        cmd.arg("--finish");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The records of an archive, one each (split before each tag section
/// that follows a blank line).
fn records(archive: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8(archive.to_vec()).unwrap();
    text.split("\n\n[")
        .enumerate()
        .map(|(i, r)| match i {
            0 => format!("{r}\n"),
            _ => format!("[{r}\n"),
        })
        .map(String::into_bytes)
        .collect()
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

const BYTES: &[u8] = b" \t\n\r{}[]$!?.;,*-/01239\"\\\xff\xc3\xa9x@~=()";
const TOKENS: &[&str] = &[
    "1.",
    "2.",
    "2...",
    "1...",
    "99.",
    "1..",
    "{x}",
    "{",
    "}",
    "$3",
    "$256",
    "!?",
    "??",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "~~",
    "==",
    "--",
    "[Game \"oshi\"]",
    "[Result \"*\"]",
    "é",
    ";",
    ",",
    "12345678901234567890.",
];

/// `record` broken once: a byte deleted, inserted or replaced, or a token
/// deleted, doubled, swapped with the next or replaced.
fn broken(record: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = record.to_vec();
    let at = rng.below(out.len());
    match rng.below(4) {
        0 => {
            out.remove(at);
        }
        1 => out.insert(at, BYTES[rng.below(BYTES.len())]),
        2 => out[at] = BYTES[rng.below(BYTES.len())],
        _ => {
            let text = String::from_utf8_lossy(record);
            let mut tokens: Vec<String> = text.split(' ').map(str::to_string).collect();
            let i = rng.below(tokens.len());
            match rng.below(4) {
                0 => {
                    tokens.remove(i);
                }
                1 => tokens.insert(i, tokens[i].clone()),
                2 if i + 1 < tokens.len() => tokens.swap(i, i + 1),
                _ => tokens[i] = TOKENS[rng.below(TOKENS.len())].to_string(),
            }
            out = tokens.join(" ").into_bytes();
        }
    }
    out
}

#[test]
fn the_lean_path_reports_the_fixtures_as_the_full_reader_does() {
    let mut judged = 0;
    let mut files = 0;
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "grec") {
                let bytes = std::fs::read(&path).unwrap();
                judged += agree(&bytes, &path.display().to_string(), None);
                files += 1;
            }
        }
    }
    assert!(files >= 20, "{files} fixture files");
    // Most valid fixtures are plain records: the lean path judges them.
    assert!(
        judged >= 30,
        "the lean path judged only {judged} fixture games"
    );
}

#[test]
fn the_lean_path_judges_generated_games_as_the_full_reader_does() {
    for game in ["oshi", "retsami", "iqishiqi", "roshi", "vagabond"] {
        for finish in [false, true] {
            let archive = generated(game, 12, 7, finish);
            let games = records(&archive).len();
            let judged = agree(&archive, game, None);
            assert_eq!(judged, games, "{game}: every generated game is plain");
        }
    }
}

#[test]
fn the_lean_path_gives_up_on_every_break_the_full_reader_reports() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for game in ["oshi", "retsami", "iqishiqi", "roshi", "vagabond"] {
        let (mut judged, mut cases) = (0, 0);
        for record in records(&generated(game, 10, 3, true)) {
            for _ in 0..60 {
                let bytes = broken(&record, &mut rng);
                judged += agree(&bytes, game, None);
                cases += 1;
            }
        }
        // Some breaks leave a valid game (a blank doubled, a comment
        // added): the test must see the lean path judge those too.
        assert!(
            judged > 0 && judged < cases,
            "{game}: {judged} of {cases} judged"
        );
    }
}

/// `record` annotated: a comment, a glyph `$N` or an assessment after
/// some of its turns, and a comment after its result.
fn annotated(record: &[u8], rng: &mut Rng) -> Vec<u8> {
    let text = String::from_utf8_lossy(record);
    let cut = text.rfind("]\n").map_or(0, |i| i + 2);
    let (head, movetext) = text.split_at(cut);
    let mut out = head.to_string();
    out.push('\n');
    for token in movetext.split_whitespace() {
        out.push_str(token);
        let turn = token.contains(['-', '@', '/', '(']) && !token.contains(['{', '*']);
        match rng.below(6) {
            0 if !token.ends_with('.') => out.push_str(" {a note}"),
            1 if turn => out.push_str(" $14"),
            2 if turn => out.push_str("!?"),
            _ => {}
        }
        out.push(' ');
    }
    out.push_str("{after the result}\n");
    out.into_bytes()
}

#[test]
fn the_lean_path_counts_annotations_as_the_full_reader_does() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for game in ["oshi", "retsami", "iqishiqi", "roshi", "vagabond"] {
        let (mut judged, mut cases) = (0, 0);
        for record in records(&generated(game, 10, 5, true)) {
            for _ in 0..4 {
                judged += agree(&annotated(&record, &mut rng), game, None);
                cases += 1;
            }
        }
        assert!(judged * 2 > cases, "{game}: {judged} of {cases} judged");
    }
}

#[test]
fn the_lean_path_reads_a_bare_move_string_under_the_default_game() {
    // A Garden Gate move string with no tags: `--game vagabond` names its
    // rules; the lean path needs a tag section, so the full reader reads it.
    let bytes = b"0H.L(0,-6);0G.L(2,6)\n";
    assert_eq!(agree(bytes, "bare", Some("vagabond")), 0);
}

/// A replay makes only the tags it reads (the rules, the start, the
/// settings, the result): records whose settings, `Position` and
/// `Termination` stand among tags it does not read, with names that
/// differ from them only in case or length, and repeated, are judged as
/// the full reader judges them.
#[test]
fn a_replay_reads_its_tags_among_others_as_the_full_reader_does() {
    let records = [
        concat!(
            r#"[Event "e"]"#,
            "\n",
            r#"[coords "abstractplay"]"#,
            "\n",
            r#"[Game "iqishiqi"]"#,
            "\n",
            r#"[Coord "x"]"#,
            "\n",
            r#"[Coords "abstractplay"]"#,
            "\n",
            r#"[StoneLimit "3"]"#,
            "\n",
            r#"[Coords "ludii"]"#,
            "\n",
            r#"[Result "*"]"#,
            "\n\n1. h9/h7 *\n"
        ),
        concat!(
            r#"[Game "iqishiqi"]"#,
            "\n",
            r#"[StoneLimits "1"]"#,
            "\n",
            r#"[StoneLimit "1"]"#,
            "\n",
            r#"[Result "1-0"]"#,
            "\n\n1. H9/H7 1-0\n"
        ),
        concat!(
            r#"[Site "s"]"#,
            "\n",
            r#"[Game "vagabond"]"#,
            "\n",
            r#"[Option "x"]"#,
            "\n",
            r#"[Options "SwapBisonWithLemur"]"#,
            "\n",
            r#"[Result "*"]"#,
            "\n\n1. Y(0,8) *\n"
        ),
        concat!(
            r#"[Game "oshi"]"#,
            "\n",
            r#"[NoReturn "opponent"]"#,
            "\n",
            r#"[Termination "resign"]"#,
            "\n",
            r#"[Terminations "x"]"#,
            "\n",
            r#"[Result "1-0"]"#,
            "\n\n1. c2-c3 1-0\n"
        ),
        concat!(
            r#"[Game "oshi"]"#,
            "\n",
            r#"[Termination "abandoned"]"#,
            "\n",
            r#"[Result "1-0"]"#,
            "\n\n1. c2-c3 1-0\n"
        ),
        concat!(
            r#"[Game "retsami"]"#,
            "\n",
            r#"[FirstPlayer "White"]"#,
            "\n",
            r#"[Result "*"]"#,
            "\n\n1. h1-i4 *\n"
        ),
        concat!(
            r#"[Game "roshi"]"#,
            "\n",
            r#"[Board "9x9"]"#,
            "\n",
            r#"[Boards "19x19"]"#,
            "\n",
            r#"[Result "1-0"]"#,
            "\n\n1. R@e5,@a1 @i9,@h9 2. @c5,a1-b5 @i8 3. @d5 @i7 4. @f5 1-0\n"
        ),
        concat!(
            r#"[Game "roshi"]"#,
            "\n",
            r#"[Position "x"]"#,
            "\n",
            r#"[Result "*"]"#,
            "\n\n1. e5 *\n"
        ),
        concat!(
            r#"[Game "oshi"]"#,
            "\n",
            r#"[Result "1-0"]"#,
            "\n",
            r#"[Result "0-1"]"#,
            "\n",
            "\n1. c2-c3 *\n"
        ),
    ];
    for record in records {
        agree(record.as_bytes(), record, None);
    }
    // The six valid ones (all but the abandoned game with a winner, the
    // bad `Position` and the two results) are judged on the lean path,
    // settings and all: without `StoneLimit` the second would not end in
    // a stalemate, without `Board` the seventh would not fit its board.
    assert!(agree(records.concat().as_bytes(), "all", None) >= 6);
}

/// Records the chunk reader cuts where the lean path cannot see the end
/// plainly: a `[` in a comment, a form feed among the tags, a game run on
/// into the next with no line between, a tag line inside a comment left
/// open, the next game's `[` after a blank that is not the reader's.
const AWKWARD: &[&str] = &[
    "[Game \"oshi\"]\n\n1. c2-c3 {[%clk 0:01]} *\n",
    "[Game \"oshi\"]\n\x0c\n[Event \"x\"]\n\n1. c2-c3 *\n",
    "[Game \"oshi\"]\n\n1. c2-c3 *\n[Game \"oshi\"]\n1. c2-c3 *",
    "[Game \"oshi\"]\n\n1. c2-c3 {open\n[Event \"y\"]\n\n1. c2-c3 *\n",
    "[Game \"oshi\"]\n\n1. c2-c3 *\n\x0c[Game \"oshi\"]\n\n1. c2-c3 *\n",
    "[Game \"oshi\"]\r\n\r\n1. c2-c3 *\r\n\r\n",
    "[Game \"oshi\"]\n\n1. c2-c3 * {after}\n  [Game \"oshi\"]\n\n1. c2-c3 *\n",
];

/// Whole archives — plain games, broken ones, annotated ones and awkward
/// ones, one after another — read with each game judged in the reader's
/// buffer where the lean path can: every report is the one the full
/// reader makes, and most plain games are judged in place.
#[test]
fn games_judged_in_place_among_others_are_reported_as_the_full_reader_does() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for game in ["oshi", "retsami", "iqishiqi", "roshi", "vagabond"] {
        let records = records(&generated(game, 40, 13, true));
        let mut archive = Vec::new();
        for (i, record) in records.iter().enumerate() {
            let record = match i % 4 {
                0 => broken(record, &mut rng),
                1 => annotated(record, &mut rng),
                _ => record.clone(),
            };
            archive.extend_from_slice(&record);
            archive.push(b'\n');
            if i % 7 == 3 {
                archive.extend_from_slice(AWKWARD[i / 7 % AWKWARD.len()].as_bytes());
                archive.push(b'\n');
            }
        }
        let (judged, in_place) = agree_in_place(&archive, game, None);
        assert!(
            in_place * 3 > records.len() && in_place <= judged,
            "{game}: {in_place} of {} records judged in place ({judged} judged)",
            records.len()
        );
    }
}
