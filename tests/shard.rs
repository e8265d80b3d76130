//! `gamerec shard` as a cluster's driver uses it: text shards concatenate
//! back to the input's bytes, every game lands in exactly one shard (in
//! input order), the per-game statistics of the shards together are those
//! of the whole archive, names sort, and what cannot be done is refused.

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    let mut cmd = Command::cargo_bin("gamerec").unwrap();
    cmd.current_dir(root()).args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every fixture file, concatenated: an archive with valid and invalid
/// games, comments, odd spacing and broken envelopes.
fn archive(dir: &Path) -> PathBuf {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root().join("fixtures"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "grec"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for f in files {
        let bytes = fs::read(f).unwrap();
        // Each file on lines of its own, as `cat` would give when they end
        // with a line break.
        all.extend_from_slice(&bytes);
        if !bytes.ends_with(b"\n") && !bytes.is_empty() {
            all.push(b'\n');
        }
    }
    let path = dir.join("all.grec");
    fs::write(&path, all).unwrap();
    path
}

/// The shards in `dir`, in name order.
fn shards(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn shard(input: &str, out: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["shard", input, "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let (code, _, err) = run(&args, None);
    (code, err)
}

fn decompressed(path: &Path) -> Vec<u8> {
    let bytes = fs::read(path).unwrap();
    let mut out = Vec::new();
    match path.extension().and_then(|e| e.to_str()) {
        Some("zst") => {
            zstd::stream::read::Decoder::new(&bytes[..])
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
        }
        Some("gz") => {
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_end(&mut out)
                .unwrap();
        }
        _ => out = bytes,
    }
    out
}

/// Per-game `stats` rows of `input` without their place (file, index).
fn stats(input: &str) -> Vec<Value> {
    let (_, out, err) = run(&["stats", "-q", input], None);
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("file");
            o.remove("index");
            v
        })
        .inspect(|v| assert!(v.is_object(), "{err}"))
        .collect()
}

#[test]
fn text_shards_concatenate_to_the_input_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let input = archive(dir.path());
    let whole = fs::read(&input).unwrap();
    let cuts: [&[&str]; 6] = [
        &["--parts", "1"],
        &["--parts", "4"],
        &["--parts", "7", "--compress", "zst"],
        &["--max-bytes", "2K"],
        &["--max-bytes", "500", "--compress", "gz"],
        &["--max-bytes", "1"],
    ];
    for (i, cut) in cuts.iter().enumerate() {
        let out = dir.path().join(format!("out{i}"));
        let (code, err) = shard(input.to_str().unwrap(), &out, cut);
        assert_eq!(code, 0, "{cut:?}: {err}");
        let parts = shards(&out);
        let mut joined = Vec::new();
        for p in &parts {
            joined.extend(decompressed(p));
        }
        assert!(
            joined == whole,
            "{cut:?}: the shards together are the input"
        );
        if let ["--parts", n, ..] = cut {
            assert_eq!(parts.len(), n.parse::<usize>().unwrap(), "{cut:?}");
        }
        let names: Vec<String> = parts
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        let suffix = match cut.last() {
            Some(&"zst") => ".grec.zst",
            Some(&"gz") => ".grec.gz",
            _ => ".grec",
        };
        for (n, name) in names.iter().enumerate() {
            assert_eq!(*name, format!("part-{n:05}{suffix}"), "{cut:?}");
        }
    }
}

#[test]
fn every_game_is_in_exactly_one_shard_and_the_stats_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let input = archive(dir.path());
    let input = input.to_str().unwrap();
    let whole = stats(input);
    assert!(whole.len() > 150);
    for (i, cut) in [
        ["--parts", "5", "--format", "text"],
        ["--parts", "3", "--format", "jsonl"],
        ["--max-bytes", "4K", "--format", "parquet"],
        ["--parts", "4", "--format", "parquet"],
    ]
    .iter()
    .enumerate()
    {
        let out = dir.path().join(format!("out{i}"));
        let (code, err) = shard(input, &out, cut);
        assert!(code == 0 || code == 1, "{cut:?}: {err}");
        let parts = shards(&out);
        assert!(parts.len() > 1, "{cut:?}");
        // In name order, the shards' games are the archive's, in order.
        let mut together = Vec::new();
        for p in &parts {
            let part = stats(p.to_str().unwrap());
            assert!(!part.is_empty(), "{cut:?}: {} holds games", p.display());
            together.extend(part);
        }
        if cut[3] == "text" {
            assert_eq!(together, whole, "{cut:?}");
            continue;
        }
        // Converted shards hold what a conversion holds: every game read
        // (the text between games that holds none is no game).
        let (_, jsonl, _) = run(&["convert", "-q", "--to", "jsonl", input], None);
        let converted = dir.path().join(format!("whole{i}.jsonl"));
        fs::write(&converted, jsonl).unwrap();
        assert_eq!(together, stats(converted.to_str().unwrap()), "{cut:?}");
    }
}

#[test]
fn parts_are_balanced_by_games_and_never_more_than_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let gen = dir.path().join("gen.grec");
    let (code, _, err) = run(
        &[
            "gen",
            "--game",
            "oshi",
            "--games",
            "10",
            "-o",
            gen.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let out = dir.path().join("three");
    let (code, err) = shard(gen.to_str().unwrap(), &out, &["--parts", "3"]);
    assert_eq!(code, 0, "{err}");
    let counts: Vec<usize> = shards(&out)
        .iter()
        .map(|p| {
            String::from_utf8(fs::read(p).unwrap())
                .unwrap()
                .matches("[Game ")
                .count()
        })
        .collect();
    assert_eq!(counts, [4, 3, 3]);
    let out = dir.path().join("many");
    let (code, err) = shard(gen.to_str().unwrap(), &out, &["--parts", "25"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(shards(&out).len(), 10, "one game per shard at most");
    assert!(err.contains("wrote 10 shards of 10 games"), "{err}");
}

#[test]
fn standard_input_is_sharded_too() {
    let dir = tempfile::tempdir().unwrap();
    let input = fs::read(root().join("fixtures/oshi/points-win.grec")).unwrap();
    let out = dir.path().join("out");
    let (code, _, err) = run(
        &["shard", "-", "-o", out.to_str().unwrap(), "--parts", "2"],
        Some(&input),
    );
    assert_eq!(code, 0, "{err}");
    let joined: Vec<u8> = shards(&out)
        .iter()
        .flat_map(|p| fs::read(p).unwrap())
        .collect();
    assert_eq!(joined, input);
}

#[test]
fn what_cannot_be_done_is_refused_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = "fixtures/oshi/points-win.grec";
    let (code, err) = shard(input, &out, &["--parts", "2"]);
    assert_eq!(code, 0, "{err}");
    let before = shards(&out);
    // A folder that holds shards already: nothing is written over.
    let (code, err) = shard(input, &out, &["--parts", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("already holds shards"), "{err}");
    assert_eq!(shards(&out), before);
    let other = dir.path().join("other");
    for bad in [
        &["--parts", "0"][..],
        &["--max-bytes", "lots"],
        &["--parts", "2", "--max-bytes", "1M"],
        &["--parts", "2", "--format", "parquet", "--compress", "zst"],
        &[],
    ] {
        let (code, err) = shard(input, &other, bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(!other.exists() || shards(&other).is_empty(), "{bad:?}");
    }
}
