//! Parquet as a user, a script and an analysis tool see it: the text →
//! Parquet → text round trip is exact on every fixture and on generated
//! games of every rule set; validate, stats and filter read a Parquet
//! archive like any input; DuckDB and pyarrow (from PyPI; `.ci/run`
//! installs them, a bare `cargo test` puts them under target/pydeps) read
//! every table with the documented types, and a SQL join of games and turns
//! gives the per-game ply counts `stats` gives.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every fixture record file, sorted.
fn fixture_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in fs::read_dir(root().join("fixtures")).unwrap() {
        for f in fs::read_dir(dir.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "grec") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 20, "the fixtures are where they should be");
    files
}

/// Runs gamerec in the crate's root; returns (exit code, stdout, stderr).
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

fn text(args: &[&str]) -> String {
    let (code, out, err) = run(args, None);
    assert!(code == 0 || code == 1, "{args:?}: {err}");
    String::from_utf8(out).unwrap()
}

/// `convert --to parquet` of `input` into `out`.
fn to_parquet(input: &str, out: &Path) {
    let (code, _, err) = run(
        &[
            "convert",
            "-q",
            "--to",
            "parquet",
            input,
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(code == 0 || code == 1, "{input}: {err}");
    assert!(
        fs::read(out).unwrap().starts_with(b"PAR1"),
        "{input}: a Parquet file"
    );
}

#[test]
fn text_parquet_text_is_exact_on_every_fixture() {
    let dir = tempfile::tempdir().unwrap();
    for file in fixture_files() {
        let f = file.to_str().unwrap();
        let canonical = text(&["convert", "-q", f]);
        let pq = dir.path().join("games.parquet");
        to_parquet(f, &pq);
        let back = text(&["convert", "-q", pq.to_str().unwrap()]);
        assert_eq!(back, canonical, "{f}: text -> parquet -> text");
        // Every turn as it was written (where it is not in canonical
        // spelling) is kept too.
        let as_written = |input: &str| text(&["convert", "-q", "--syntax-only", input]);
        assert_eq!(
            as_written(pq.to_str().unwrap()),
            as_written(f),
            "{f}: turns as written"
        );
        // From standard input too, told by its first bytes.
        let (_, back, _) = run(&["convert", "-q", "-"], Some(&fs::read(&pq).unwrap()));
        assert_eq!(
            String::from_utf8(back).unwrap(),
            canonical,
            "{f}: parquet on stdin"
        );
    }
}

#[test]
fn generated_games_of_every_rule_set_round_trip_through_parquet() {
    let dir = tempfile::tempdir().unwrap();
    for game in gamerec::registry::GAMES {
        let name = game.name();
        let grec = dir.path().join(format!("{name}.grec"));
        let (code, _, err) = run(
            &[
                "gen",
                "--game",
                name,
                "--games",
                "40",
                "--seed",
                "11",
                "--max-plies",
                "120",
                "-o",
                grec.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let canonical = text(&["convert", "-q", grec.to_str().unwrap()]);
        let pq = dir.path().join(format!("{name}.parquet"));
        to_parquet(grec.to_str().unwrap(), &pq);
        let back = text(&["convert", "-q", pq.to_str().unwrap()]);
        assert_eq!(back, canonical, "{name}: generated games through parquet");
        assert_eq!(back.matches("[Game ").count(), 40);
    }
}

/// `stats` rows without their place (file and index).
fn stats_rows(input: &str) -> Vec<Value> {
    text(&["stats", "-q", input])
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("file");
            o.remove("index");
            v
        })
        .collect()
}

#[test]
fn validate_stats_and_filter_read_parquet_like_any_input() {
    // Compared with the same games as JSON Lines, the other export that
    // reads back (canonical text writes `*` where no result was written).
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("all.jsonl");
    fs::write(
        &jsonl,
        text(&["convert", "-q", "--to", "jsonl", "fixtures/"]),
    )
    .unwrap();
    let pq = dir.path().join("all.parquet");
    to_parquet("fixtures/", &pq);
    let (c, p) = (jsonl.to_str().unwrap(), pq.to_str().unwrap());

    // The same verdicts, game by game.
    let verdicts = |input: &str| -> Vec<(bool, Option<String>)> {
        text(&["validate", "--format", "json", input])
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (
                    v["valid"].as_bool().unwrap(),
                    v["error"]["code"].as_str().map(str::to_string),
                )
            })
            .collect()
    };
    let from_text = verdicts(c);
    assert_eq!(from_text.len(), 175);
    assert_eq!(verdicts(p), from_text);
    let (code, _, _) = run(&["validate", "-q", p], None);
    assert_eq!(code, 1, "some fixture games are invalid");

    assert_eq!(stats_rows(p), stats_rows(c));

    let picked =
        |input: &str| text(&["filter", "--valid", "--game", "oshi", "--to", "text", input]);
    let from_parquet = picked(p);
    assert!(from_parquet.matches("[Game \"oshi\"]").count() > 5);
    assert_eq!(from_parquet, picked(c));

    // Compressed, it is read the same (decompressed to a temporary file).
    let gz = dir.path().join("all.parquet.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, &fs::read(&pq).unwrap()).unwrap();
    fs::write(&gz, enc.finish().unwrap()).unwrap();
    assert_eq!(verdicts(gz.to_str().unwrap()), from_text);

    // A folder walk picks Parquet files up too.
    let walked = dir.path().join("walk");
    fs::create_dir(&walked).unwrap();
    fs::copy(&pq, walked.join("a.parquet")).unwrap();
    let out = text(&["validate", walked.to_str().unwrap()]);
    assert!(out.contains("1 file, 175 games"), "{out}");
}

#[test]
fn a_damaged_parquet_file_is_reported_and_the_other_inputs_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("a.parquet");
    to_parquet("fixtures/oshi/points-win.grec", &pq);
    let bytes = fs::read(&pq).unwrap();
    let cut = dir.path().join("cut.parquet");
    fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let (code, out, err) = run(
        &[
            "validate",
            cut.to_str().unwrap(),
            "fixtures/oshi/points-win.grec",
        ],
        None,
    );
    assert_eq!(code, 1, "{err}");
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("malformed-parquet"), "{out}");
    assert!(out.contains("2 files"), "{out}");

    // A statistics table is not an archive.
    let stats = dir.path().join("stats.parquet");
    let (code, _, err) = run(
        &[
            "stats",
            "-q",
            "--format",
            "parquet",
            "fixtures/oshi/points-win.grec",
            "-o",
            stats.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run(&["validate", stats.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(String::from_utf8(out).unwrap().contains("holds no games"));
}

/// A PYTHONPATH with DuckDB and pyarrow.
fn python() -> String {
    common::python_path(&[("duckdb", "duckdb"), ("pyarrow", "pyarrow")])
}

/// Runs a Python script (argv: the paths); returns its stdout.
fn python_run(path: &str, script: &str, args: &[&Path]) -> String {
    let out = process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .env("PYTHONPATH", path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn duckdb_and_pyarrow_read_every_table_with_its_types() {
    let py = python();
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.parquet");
    to_parquet("fixtures/", &games);
    let stats = dir.path().join("stats.parquet");
    let summary = dir.path().join("summary.parquet");
    for (extra, out) in [(None, &stats), (Some("--summary"), &summary)] {
        let mut args = vec!["stats", "-q", "--format", "parquet"];
        args.extend(extra);
        args.extend(["fixtures/", "-o", out.to_str().unwrap()]);
        let (code, _, err) = run(&args, None);
        assert_eq!(code, 1, "some fixtures are invalid: {err}");
    }
    let stats_csv = text(&["stats", "-q", "--format", "csv", "fixtures/"]);
    let csv_rows = csv::Reader::from_reader(stats_csv.as_bytes())
        .records()
        .map(Result::unwrap)
        .count();

    // pyarrow: row counts and the documented types.
    let script = r#"
import sys, json, pyarrow.parquet as pq
games, stats, summary = (pq.read_table(p) for p in sys.argv[1:4])
t = lambda table, col: str(table.schema.field(col).type)
turn = games.schema.field("turns").type.value_type
print(json.dumps({
  "games": games.num_rows,
  "turns": sum(len(x) for x in games.column("turns").to_pylist()),
  "stats": stats.num_rows,
  "summary": summary.num_rows,
  "types": [t(games, "index"), t(games, "valid"), t(games, "plies"), t(games, "game"),
            str(turn.field("ply").type), str(turn.field("legal").type),
            str(turn.field("effects").type.value_type.field("points").type),
            t(stats, "plies"), t(stats, "branching"), t(stats, "valid"),
            t(stats, "oshi_points_first"), t(summary, "first_mover_win_rate"),
            str(summary.schema.field("reasons").type.value_type.field("count").type)],
  "tags": games.column("tags").to_pylist()[0][0],
}))
"#;
    let got: Value =
        serde_json::from_str(&python_run(&py, script, &[&games, &stats, &summary])).unwrap();
    let exported = text(&["convert", "-q", "--to", "jsonl", "fixtures/"]);
    assert_eq!(got["games"], exported.lines().count());
    assert_eq!(got["stats"], csv_rows);
    assert_eq!(got["summary"], 6, "five games and `unknown`");
    let types: Vec<&str> = got["types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "int64", "bool", "int64", "string", "int64", "bool", "int64", "int64", "double",
            "bool", "int64", "double", "int64"
        ]
    );
    assert_eq!(got["tags"]["name"], "Game");
    let csv_out = text(&["convert", "-q", "--to", "csv", "fixtures/"]);
    let csv_turns = csv::Reader::from_reader(csv_out.as_bytes())
        .records()
        .map(Result::unwrap)
        .count();
    assert_eq!(got["turns"], csv_turns, "every turn, as in the CSV");

    // DuckDB: the turns as a table joined to the games gives the per-game
    // legal ply counts of `stats`.
    let script = r#"
import sys, duckdb
games, stats = sys.argv[1], sys.argv[2]
duckdb.sql(f"CREATE VIEW games AS SELECT * FROM read_parquet('{games}')")
duckdb.sql("CREATE VIEW turns AS SELECT key, unnest(turns, recursive := true) FROM games")
rows = duckdb.sql(f"""
  SELECT g.file, g.index, count(t.ply) FILTER (WHERE t.legal) AS legal, s.plies
  FROM games g
  LEFT JOIN turns t ON t.key = g.key
  JOIN read_parquet('{stats}') s ON s.file = g.file AND s.index = g.index
  GROUP BY g.file, g.index, s.plies
""").fetchall()
print(len(rows), sum(1 for r in rows if r[2] == r[3]), sum(r[2] for r in rows))
print(duckdb.sql("SELECT typeof(ply), typeof(legal), typeof(text) FROM turns LIMIT 1").fetchall()[0])
"#;
    let out = python_run(&py, script, &[&games, &stats]);
    let mut lines = out.lines();
    let counts: Vec<u64> = lines
        .next()
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(
        counts[0],
        got["games"].as_u64().unwrap(),
        "every game joined"
    );
    assert_eq!(
        counts[1], counts[0],
        "ply counts agree with stats on every game"
    );
    let stats_plies: u64 = text(&["stats", "-q", "fixtures/"])
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["plies"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert!(stats_plies > 100);
    assert_eq!(counts[2], stats_plies);
    assert_eq!(lines.next().unwrap(), "('BIGINT', 'BOOLEAN', 'VARCHAR')");
}

#[test]
fn every_column_of_the_games_table_is_documented() {
    use arrow_schema::DataType;
    let doc = fs::read_to_string(root().join("notation/parquet.md")).unwrap();
    let documented = |name: &str| doc.contains(&format!("| `{name}` |"));
    let schema = gamerec::formats::parquet::games_schema();
    let mut missing = Vec::new();
    for field in schema.fields() {
        if !documented(field.name()) {
            missing.push(field.name().clone());
        }
        // The turns' own fields.
        if let DataType::List(item) = field.data_type() {
            if let DataType::Struct(fields) = item.data_type() {
                if field.name() == "turns" {
                    for f in fields {
                        if !documented(f.name()) {
                            missing.push(format!("turns.{}", f.name()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in notation/parquet.md: {missing:?}"
    );
    assert_eq!(schema.fields().len(), 29, "the test sees every column");
}
