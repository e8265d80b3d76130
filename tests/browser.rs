//! The replay viewer in a real browser: Debian's Chromium, headless, driven
//! through ChromeDriver by tests/browser/view.py. `.ci/run` installs the
//! packages `chromium` and `chromium-driver`; without them this test fails
//! and says so.

use assert_cmd::Command;
use std::path::Path;

#[path = "common/hostile.rs"]
mod hostile_inputs;

#[path = "common/chromium.rs"]
mod chromium;
use chromium::view_py;

fn gamerec() -> Command {
    Command::cargo_bin("gamerec").unwrap()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `gamerec view RECORD -o PAGE`.
fn view(record: &Path, page: &Path) -> assert_cmd::assert::Assert {
    gamerec()
        .arg("view")
        .arg(record)
        .arg("-o")
        .arg(page)
        .assert()
}

#[test]
fn the_viewer_replays_a_game_in_headless_chromium() {
    let game = root().join("fixtures/oshi/points-win.grec");
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("view.html");
    view(&game, &page).success();
    // The game's own plies: how many, and where ply 3 goes.
    let each = gamerec()
        .arg("moves")
        .arg(&game)
        .arg("--each")
        .output()
        .unwrap();
    let each = String::from_utf8(each.stdout).unwrap();
    let plies: Vec<Vec<&str>> = each.lines().map(|l| l.split('\t').collect()).collect();
    let third = plies[2][2];
    let dest = third.split_once('-').unwrap().1;
    let shot = dir.path().join("viewer.png");
    let seen = view_py(&page, &["3".as_ref(), dest.as_ref(), shot.as_ref()]);
    // Three presses of → : the counter says ply 3 of all of them, the
    // move list marks ply 3.
    assert_eq!(seen["ply"], format!("Ply 3 / {}", plies.len()), "{seen}");
    assert!(seen["current"].as_str().unwrap().ends_with(third), "{seen}");
    // The piece that moved stands on its destination's cell, on screen.
    let pieces = seen["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 1, "one piece on {dest}: {seen}");
    assert!(pieces[0]["glyph"].as_str().unwrap().starts_with("#oshi-r"));
    let cell = &seen["cell"];
    let centre = &pieces[0]["centre"];
    for k in 0..2 {
        let (a, b) = (cell[k].as_f64().unwrap(), centre[k].as_f64().unwrap());
        assert!((a - b).abs() < 1.0, "piece at {centre}, cell at {cell}");
    }
    assert_eq!(seen["count"], 16, "{seen}");
    // The screenshot shows a drawn page, not a blank one.
    let png = std::fs::read(&shot).unwrap();
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).expect("a PNG screenshot");
    assert!(pixmap.width() >= 800 && pixmap.height() >= 500);
    let colours: std::collections::BTreeSet<&[u8]> = pixmap.data().chunks(4).collect();
    assert!(colours.len() > 50, "{} colours: blank?", colours.len());
    if let Some(keep) = std::env::var_os("GAMEREC_SCREENSHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
}

#[test]
fn every_injection_in_a_tag_shows_as_text_and_runs_nothing() {
    // Issue 32, item 9: a tag holding `<!--` left the page blank. Each value
    // of the injection list, in one game's tags, must show as it is.
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("inject.grec");
    std::fs::write(&record, hostile_inputs::injection_record()).unwrap();
    let page = dir.path().join("inject.html");
    view(&record, &page).success();
    let shot = dir.path().join("inject.png");
    let seen = view_py(&page, &["tags".as_ref(), "-".as_ref(), shot.as_ref()]);
    assert_eq!(seen["games"], 1, "{seen}");
    assert_eq!(
        seen["pwned"],
        serde_json::Value::Null,
        "a script ran: {seen}"
    );
    let rows = seen["tags"].as_array().unwrap();
    for (i, value) in hostile_inputs::INJECTIONS.iter().enumerate() {
        let row = rows
            .iter()
            .find(|r| r[0] == format!("Inject{i}"))
            .unwrap_or_else(|| panic!("tag Inject{i} is shown: {seen}"));
        assert_eq!(row[1], *value, "Inject{i}");
    }
}

#[test]
fn the_viewer_keeps_its_buttons_still_shows_the_whole_move_list_and_the_refused_turn() {
    // Issue 33, item 9: ▶ and » moved as the ply counter grew, the move
    // list's last row was cut in half, and an invalid game's refused turn
    // was missing from the list.
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.grec");
    gamerec()
        .args([
            "gen",
            "--game",
            "roshi",
            "--stop-after",
            "400",
            "--seed",
            "2",
            "-o",
        ])
        .arg(&long)
        .assert()
        .success();
    let text = std::fs::read_to_string(&long).unwrap();
    // The game with a turn no rule allows before its result.
    let cut = text.rfind(' ').unwrap();
    let bad = format!("{} z99-z98{}", &text[..cut], &text[cut..]);
    let record = dir.path().join("bad.grec");
    std::fs::write(&record, bad).unwrap();
    let page = dir.path().join("bad.html");
    view(&record, &page).code(1);
    let shot = dir.path().join("layout.png");
    let seen = view_py(&page, &["layout".as_ref(), "-".as_ref(), shot.as_ref()]);
    let plies: usize = seen["ply"]
        .as_str()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(plies >= 100, "{seen}");
    assert_eq!(
        seen["next_first"], seen["next_last"],
        "▶ moved between ply 0 and ply {plies}: {seen}"
    );
    let last = &seen["last"];
    assert_eq!(last[0], "z99-z98", "the refused turn ends the list: {seen}");
    assert_eq!(last[1], "illegal", "{seen}");
    let bottom = last[2][3].as_f64().unwrap();
    let list_bottom = seen["list_client_bottom"].as_f64().unwrap();
    assert!(
        bottom <= list_bottom + 0.5,
        "the last row is cut: it ends at {bottom}, the list at {list_bottom}: {seen}"
    );
}

#[test]
fn an_analysed_game_shows_its_marks_and_a_win_chance_curve_that_goes_to_a_ply() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("analysed.grec");
    gamerec()
        .args(["analyse", "--annotate", "--playouts", "20", "-q", "-o"])
        .arg(&record)
        .arg(root().join("fixtures/oshi/points-win.grec"))
        .assert()
        .success();
    let page = dir.path().join("analysed.html");
    view(&record, &page).success();
    let shot = dir.path().join("curve.png");
    let blunder = "#curve circle.mark-blunder";
    let seen = view_py(&page, &["curve".as_ref(), blunder.as_ref(), shot.as_ref()]);
    // The dot of ply 16's blunder, clicked: the viewer is at ply 16.
    assert_eq!(seen["ply"], "Ply 16 / 17", "{seen}");
    assert_eq!(seen["current"], "8... f6-f5??", "{seen}");
    let marked = seen["marked"].as_array().unwrap();
    assert_eq!(
        marked[marked.len() - 2..],
        [
            serde_json::json!([16, "mark-blunder current", "8... f6-f5??"]),
            serde_json::json!([17, "mark-only-move", "9. c7-c9!"])
        ],
        "{seen}"
    );
    // Each marked move shows its mark's assessment (the estimate's marks
    // too, with the playouts).
    for m in marked {
        let (class, text) = (m[1].as_str().unwrap(), m[2].as_str().unwrap());
        let glyph = match class.trim_end_matches(" current") {
            "mark-blunder" | "mark-missed-win" => "??",
            "mark-blunder-estimate" | "mark-mistake" => "?",
            "mark-inaccuracy" => "?!",
            "mark-only-move" => "!",
            other => panic!("unknown class {other}"),
        };
        let (before, after) = text.split_at(text.len() - glyph.len());
        assert!(after == glyph && !before.ends_with(['!', '?']), "{m}");
    }
    // A chance for every ply (the playouts), the cursor at ply 16 of 17.
    assert_eq!(seen["dots"], 17, "{seen}");
    let cursor = seen["cursor"].as_f64().unwrap();
    assert!((cursor - 600.0 * 16.0 / 17.0).abs() < 0.01, "{seen}");
    // The curve has a scale: the chance in percent, the plies below (0
    // to the last, a round step apart).
    let scale: Vec<&str> = (seen["scale"].as_array().unwrap().iter())
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(scale[..5], ["0%", "25%", "50%", "75%", "100%"], "{seen}");
    assert_eq!(scale[5..], ["0", "5", "10", "15"], "{seen}");
    // A record never analysed has no curve.
    let plain = dir.path().join("plain.html");
    view(&root().join("fixtures/oshi/points-win.grec"), &plain).success();
    let html = std::fs::read_to_string(&plain).unwrap();
    assert!(
        html.contains("\"judged\":null"),
        "no curve data for a record not analysed"
    );
}

/// `view ARCHIVE --index 1 --tree ARCHIVE -o PAGE`: game 1 with the
/// explorer panel of its own archive.
fn view_beside_its_tree(archive: &Path, page: &Path) {
    gamerec()
        .arg("view")
        .arg(archive)
        .args(["--index", "1", "--tree"])
        .arg(archive)
        .arg("-o")
        .arg(page)
        .assert()
        .success();
}

/// `view --tree`: beside each position, the games of the tree's archive
/// that reached it and the turns played there (the game's own turn in
/// bold), counted as a naive count over the archive's JSON counts them.
#[test]
fn the_explorer_panel_shows_the_archives_games_and_turns_at_each_position() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("archive.grec");
    gamerec()
        .args([
            "gen", "--game", "retsami", "--games", "200", "--seed", "8", "--finish",
        ])
        .arg("-o")
        .arg(&archive)
        .assert()
        .success();
    let jsonl = gamerec()
        .args(["convert", "--to", "jsonl"])
        .arg(&archive)
        .output()
        .unwrap();
    let games: Vec<Vec<String>> = String::from_utf8(jsonl.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let g: serde_json::Value = serde_json::from_str(l).unwrap();
            let turns = g["turns"].as_array().unwrap().iter();
            turns
                .map(|t| t["text"].as_str().unwrap().to_string())
                .collect()
        })
        .collect();
    let page = dir.path().join("explored.html");
    view_beside_its_tree(&archive, &page);
    let shot = dir.path().join("explorer.png");
    let at = |presses: &str| {
        view_py(
            &page,
            &["explorer".as_ref(), presses.as_ref(), shot.as_ref()],
        )
    };
    let start = at("0");
    assert_eq!(start["shown"], true, "{start}");
    let sum = start["sum"].as_str().unwrap();
    assert!(sum.starts_with("200 games of "), "{start}");
    let rows = start["rows"].as_array().unwrap();
    // A header, then the turns, the most played first; game 1's own first
    // turn in bold with as many games as opened with it.
    let first = &games[0][0];
    let opened = games.iter().filter(|g| &g[0] == first).count();
    let played: Vec<_> = rows.iter().filter(|r| r[1] == "played").collect();
    assert_eq!(played.len(), 1, "{start}");
    assert_eq!(played[0][0][0], first.as_str(), "{start}");
    assert_eq!(played[0][0][1], opened.to_string().as_str(), "{start}");
    let counts: Vec<usize> = rows[1..]
        .iter()
        .map(|r| r[0][1].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{start}");
    for r in &rows[1..] {
        let total: f64 = r[2]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_f64().unwrap())
            .sum();
        assert!((total - 100.0).abs() < 0.5, "a bar is whole: {r}");
    }
    // One ply on: the games that opened with game 1's first turn.
    let next = at("1");
    assert_eq!(
        next["ply"],
        "Ply 1 / ".to_string() + &games[0].len().to_string(),
        "{next}"
    );
    let sum = next["sum"].as_str().unwrap();
    assert!(sum.starts_with(&format!("{opened} game")), "{next}");
    // A page without --tree has no panel.
    let plain = dir.path().join("plain.html");
    view(&archive, &plain).success();
    let html = std::fs::read_to_string(&plain).unwrap();
    assert!(
        !html.contains("explorer-data\">"),
        "no panel data without --tree"
    );
}

/// `view --tree` for every game: the panel at the start and one ply on
/// counts the archive's games there (it was empty for Oshi, Roshi and
/// Vagabond: the page keyed its positions by the search's key, the
/// explorer by the notation's).
#[test]
fn the_explorer_panel_counts_games_for_all_five_games() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["oshi", "roshi", "vagabond", "iqishiqi", "retsami"] {
        let archive = dir.path().join(format!("{game}.grec"));
        gamerec()
            .args([
                "gen", "--game", game, "--games", "20", "--seed", "4", "--finish",
            ])
            .arg("-o")
            .arg(&archive)
            .assert()
            .success();
        let page = dir.path().join(format!("{game}.html"));
        view_beside_its_tree(&archive, &page);
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            !html.contains("\"positions\":{}"),
            "{game}: no position counted"
        );
        let shot = dir.path().join(format!("{game}.png"));
        for presses in ["0", "1"] {
            let seen = view_py(
                &page,
                &["explorer".as_ref(), presses.as_ref(), shot.as_ref()],
            );
            assert_eq!(seen["shown"], true, "{game} after {presses}: {seen}");
            let sum = seen["sum"].as_str().unwrap();
            let games: usize = sum
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{game} after {presses}: {seen}"));
            assert!((1..=20).contains(&games), "{game} after {presses}: {seen}");
            if presses == "0" {
                assert_eq!(games, 20, "{game}: every game starts there: {seen}");
            }
        }
    }
}
