//! The CSV exports load into a real analysis tool, DuckDB (from PyPI), with
//! the right row counts and numeric columns typed as numbers. `.ci/run`
//! installs DuckDB; a bare `cargo test` installs it under target/ when the
//! Python in PATH does not have it.

mod common;

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A PYTHONPATH under which `import duckdb` works.
fn duckdb_path() -> String {
    common::python_path(&[("duckdb", "duckdb")])
}

/// Runs a DuckDB query over a CSV file; returns its one-line answer.
fn query(pythonpath: &str, csv: &Path, sql: &str) -> String {
    let script = format!(
        "import duckdb, sys\n\
         rel = duckdb.read_csv(sys.argv[1], header=True)\n\
         duckdb.register('t', rel)\n\
         print(duckdb.sql(\"\"\"{sql}\"\"\").fetchall()[0])"
    );
    let out = process::Command::new("python3")
        .args(["-c", &script, csv.to_str().unwrap()])
        .env("PYTHONPATH", pythonpath)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn export(args: &[&str], dir: &Path, name: &str) -> (PathBuf, usize) {
    let out = Command::cargo_bin("gamerec")
        .unwrap()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    let path = dir.join(name);
    std::fs::write(&path, &out.stdout).unwrap();
    let rows = csv::Reader::from_reader(&out.stdout[..])
        .records()
        .map(Result::unwrap)
        .count();
    assert!(rows > 0, "{name} has rows");
    (path, rows)
}

#[test]
fn csv_exports_load_into_duckdb_with_the_right_row_counts() {
    let py = duckdb_path();
    let dir = tempfile::tempdir().unwrap();
    let (games, n) = export(
        &["stats", "-q", "--format", "csv", "fixtures/"],
        dir.path(),
        "games.csv",
    );
    // Every game of the fixtures, valid or not, is one row: 176 games.
    assert_eq!(n, 176);
    assert_eq!(
        query(&py, &games, "SELECT count(*) FROM t"),
        format!("({n},)")
    );
    // Numbers load as numbers: plies sum as integers, branching as doubles.
    let types = query(
        &py,
        &games,
        "SELECT typeof(plies), typeof(branching), typeof(oshi_points_first) FROM t LIMIT 1",
    );
    assert_eq!(types, "('BIGINT', 'DOUBLE', 'BIGINT')");
    let valid = query(&py, &games, "SELECT count(*) FROM t WHERE valid");
    assert_eq!(valid, "(63,)", "as validate counts them");
    let (turns, n) = export(
        &["convert", "-q", "--to", "csv", "fixtures/"],
        dir.path(),
        "turns.csv",
    );
    assert_eq!(
        query(&py, &turns, "SELECT count(*) FROM t"),
        format!("({n},)")
    );
    let (summary, n) = export(
        &["stats", "-q", "--summary", "--format", "csv", "fixtures/"],
        dir.path(),
        "summary.csv",
    );
    assert_eq!(
        query(&py, &summary, "SELECT count(*), sum(games) FROM t"),
        format!("({n}, 176)")
    );
}
