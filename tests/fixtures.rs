//! Replays every fixture under fixtures/<game>/ and compares each game with
//! the expectation written beside it in fixtures/<game>/expected.tsv.

use gamerec::reading::GameReport;
use gamerec::record::Chunk;
use gamerec::validate;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// (file, game index or "-") -> the expectation's words after the index.
type Expectations = BTreeMap<(String, String), Vec<String>>;

fn read_expectations(path: &Path) -> Expectations {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut map = Expectations::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        assert!(
            words.len() >= 5,
            "{}:{}: too few fields",
            path.display(),
            n + 1
        );
        let key = (words[0].clone(), words[1].clone());
        assert!(
            map.insert(key, words[2..].to_vec()).is_none(),
            "{}:{}: duplicate expectation",
            path.display(),
            n + 1
        );
    }
    map
}

fn describe(chunk: &Chunk, report: &GameReport) -> Vec<String> {
    match (&report.error, &report.outcome) {
        (Some(p), _) => {
            let (line, col) = chunk.locate(p.span.start);
            vec![
                "invalid".into(),
                p.code.into(),
                format!("{line}:{col}"),
                p.ply.map_or("-".into(), |p| p.to_string()),
            ]
        }
        (None, Some(o)) => vec![
            "valid".into(),
            o.result.as_str().into(),
            o.winner.unwrap_or("-").into(),
            o.reason.into(),
            o.ply.to_string(),
        ],
        (None, None) => panic!("a report with neither outcome nor error"),
    }
}

#[test]
fn every_fixture_game_matches_its_expectation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut games_checked = 0;
    let mut folders = 0;
    for dir in fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        folders += 1;
        let mut expected = read_expectations(&dir.join("expected.tsv"));
        let mut files: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "grec" || e == "txt"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: no fixtures", dir.display());
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let input = fs::read(&file).unwrap();
            let mut failures = Vec::new();
            validate::validate(&input[..], &mut |chunk, report| {
                let index = report.index.map_or("-".into(), |i| i.to_string());
                let got = describe(chunk, &report);
                match expected.remove(&(name.clone(), index.clone())) {
                    None => {
                        failures.push(format!("{name} game {index}: no expectation, got {got:?}"))
                    }
                    Some(want) if want != got => failures.push(format!(
                        "{name} game {index}: expected {want:?}, got {got:?}"
                    )),
                    Some(_) => games_checked += 1,
                }
                Ok(())
            })
            .unwrap();
            assert!(failures.is_empty(), "{}", failures.join("\n"));
        }
        assert!(
            expected.is_empty(),
            "expectations without a game: {:?}",
            expected.keys().collect::<Vec<_>>()
        );
    }
    assert!(folders >= 1);
    assert!(games_checked >= 40, "only {games_checked} games checked");
}
