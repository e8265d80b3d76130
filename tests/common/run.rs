//! Running gamerec from a regression test: the binary under test
//! (`GAMEREC_BIN=path` runs another build), in a folder, with its exit code
//! and output; generated games.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub fn bin() -> PathBuf {
    std::env::var_os("GAMEREC_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_gamerec")))
}

/// Runs gamerec in `dir` with `args`: (exit code, stdout, stderr).
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin())
        .current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `count` generated games of `game` in `path`.
pub fn generate(dir: &Path, game: &str, count: u32, path: &str) {
    let count = count.to_string();
    let (code, _, err) = run_in(dir, &["gen", "--game", game, "--games", &count, "-o", path]);
    assert_eq!(code, 0, "{err}");
}

/// The turns (as written) of every game of `path`, read through `convert
/// --to jsonl`, with each game's JSON object.
#[allow(dead_code)]
pub fn games_with_turns(dir: &Path, path: &str) -> Vec<(serde_json::Value, Vec<String>)> {
    let (code, out, err) = run_in(dir, &["convert", "--to", "jsonl", path]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| {
            let g: serde_json::Value = serde_json::from_str(l).unwrap();
            let turns = g["turns"].as_array().unwrap().iter();
            let turns = turns
                .map(|t| t["text"].as_str().unwrap().to_string())
                .collect();
            (g, turns)
        })
        .collect()
}
