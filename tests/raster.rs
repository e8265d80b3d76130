//! PNG and animated GIF pictures (`show --to png|gif`): a real decoder
//! (Pillow) reads them, a GIF has a frame per position (plies + 1), and
//! the same input gives the same bytes.

mod common;

use assert_cmd::Command;
use std::path::Path;
use std::process;

const GAMES: [&str; 5] = ["oshi", "iqishiqi", "retsami", "roshi", "vagabond"];

fn gamerec() -> Command {
    Command::cargo_bin("gamerec").unwrap()
}

/// (format, frames, width, height) as Pillow reads them.
fn decoded(path: &Path) -> (String, u64, u64, u64) {
    let script = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\n\
                  im.load()\nn = getattr(im, 'n_frames', 1)\nfor i in range(n):\n    \
                  im.seek(i); im.convert('RGB')\nprint(im.format, n, im.size[0], im.size[1])";
    let out = process::Command::new("python3")
        .args(["-c", script, path.to_str().unwrap()])
        .env("PYTHONPATH", common::python_path(&[("PIL", "pillow")]))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let f: Vec<&str> = text.split_whitespace().collect();
    (
        f[0].to_string(),
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
        f[3].parse().unwrap(),
    )
}

fn plies(archive: &Path) -> u64 {
    let out = gamerec().arg("stats").arg(archive).output().unwrap();
    let row: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    row["plies"].as_u64().unwrap()
}

#[test]
fn a_gif_has_a_frame_per_position_and_a_png_decodes_for_every_game_the_same_bytes_twice() {
    let dir = tempfile::tempdir().unwrap();
    for game in GAMES {
        let archive = dir.path().join(format!("{game}.grec"));
        gamerec()
            .args(["gen", "--game", game, "--stop-after", "9", "-o"])
            .arg(&archive)
            .assert()
            .success();
        let gif = dir.path().join(format!("{game}.gif"));
        gamerec()
            .args(["show", "--size", "200", "--delay", "300", "-o"])
            .arg(&gif)
            .arg(&archive)
            .assert()
            .success();
        let (format, frames, width, _) = decoded(&gif);
        assert_eq!(format, "GIF", "{game}");
        assert_eq!(frames, plies(&archive) + 1, "{game}");
        assert_eq!(width, 200, "{game}");
        let again = gamerec()
            .args(["show", "--size", "200", "--delay", "300", "--to", "gif"])
            .arg(&archive)
            .output()
            .unwrap();
        assert_eq!(again.stdout, std::fs::read(&gif).unwrap(), "{game}");
        // Up to the position before ply 3: three frames.
        let part = dir.path().join(format!("{game}-3.gif"));
        gamerec()
            .args(["show", "--ply", "3", "--size", "120", "-o"])
            .arg(&part)
            .arg(&archive)
            .assert()
            .success();
        assert_eq!(decoded(&part).1, 3, "{game}");
        let png = dir.path().join(format!("{game}.png"));
        gamerec()
            .args(["show", "--size", "300", "-o"])
            .arg(&png)
            .arg(&archive)
            .assert()
            .success();
        let (format, frames, width, height) = decoded(&png);
        assert_eq!((format.as_str(), frames, width), ("PNG", 1, 300), "{game}");
        assert!(height > 0);
        let again = gamerec()
            .args(["show", "--size", "300", "--to", "png"])
            .arg(&archive)
            .output()
            .unwrap();
        assert_eq!(again.stdout, std::fs::read(&png).unwrap(), "{game}");
    }
}

#[test]
fn a_gif_past_the_games_end_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("o.grec");
    gamerec()
        .args(["gen", "--game", "oshi", "--stop-after", "4", "-o"])
        .arg(&archive)
        .assert()
        .success();
    gamerec()
        .args(["show", "--ply", "40", "--to", "gif"])
        .arg(&archive)
        .assert()
        .code(2);
}

/// A status line that wraps makes some positions' pictures taller (an
/// Oshi game's last, "Game over: … at ply 100 · last move 50… a6-a9", at
/// 480 px): every frame is drawn on one canvas, the tallest picture's.
#[test]
fn a_gif_whose_pictures_differ_in_height_is_one_canvas_the_tallest() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("o.grec");
    gamerec()
        .args(["gen", "--game", "oshi", "--finish", "--seed", "2", "-o"])
        .arg(&archive)
        .assert()
        .success();
    let height = |args: &[&str], name: &str| {
        let path = dir.path().join(name);
        gamerec()
            .arg("show")
            .args(args)
            .arg("-o")
            .arg(&path)
            .arg(&archive)
            .assert()
            .success();
        decoded(&path)
    };
    let (_, _, _, last) = height(&[], "last.png");
    let (_, _, _, early) = height(&["--ply", "40"], "early.png");
    assert!(
        last > early,
        "the last position's status line wraps: {last} vs {early}"
    );
    let (format, frames, _, tall) = height(&[], "game.gif");
    assert_eq!((format.as_str(), tall), ("GIF", last));
    assert_eq!(frames, plies(&archive) + 1);
}
