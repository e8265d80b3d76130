//! The crate's shape, checked from its source (as rust-analyzer's tidy tests
//! do): the library's modules depend one way, down the layers ARCHITECTURE.md
//! describes; and no code outside `src/games/` and the registry names a
//! game or a site notation, so a new game is its folder plus its registry
//! line.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest layer first. A module may use
/// the modules of earlier layers only.
const LAYERS: &[&[&str]] = &[
    &["problem", "decode"],
    &["record"],
    &["pipeline", "random"],
    &["game"],
    &["games"],
    &["replay", "perft"],
    &["convert", "lenient", "picture", "select"],
    &["gen"],
    &["registry"],
    &["archive", "stats", "sites"],
    &["input"],
    &["sources"],
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The library's files, each with its top-level module (`None`: the crate
/// root or the binary's command line, which sit above every layer).
fn library_files() -> Vec<(Option<String>, PathBuf)> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(&src).unwrap();
            let first = rel.components().next().unwrap().as_os_str();
            let first = first.to_str().unwrap().trim_end_matches(".rs").to_string();
            let module = match first.as_str() {
                "lib" | "main" | "cli" => None,
                _ => Some(first),
            };
            (module, path)
        })
        .collect()
}

/// The code of a file without comments and without its test module at the
/// end (tests may use any example they like).
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.rfind("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    let mut out = String::new();
    for line in text.lines() {
        let code = match line.find("//") {
            // A comment after code keeps only the code (a `//` inside a
            // string literal is left alone).
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// A file of unit tests only (`tests.rs` of a module, the test kit).
fn is_test_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "tests.rs" || n == "testkit.rs")
}

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| l.contains(&module))
        .unwrap_or_else(|| panic!("module `{module}` is in no layer of tests/architecture.rs"))
}

#[test]
fn modules_depend_only_on_lower_layers() {
    let mut uses: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for (module, path) in library_files() {
        let Some(module) = module else { continue };
        // Unit tests may use any part of the library.
        if is_test_file(&path) {
            continue;
        }
        let text = code(&path);
        for (i, _) in text.match_indices("crate::") {
            let before = text[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let is_macro = text[i + 7 + name.len()..].starts_with('!');
            if !name.is_empty() && name != module && !is_macro {
                let file = path.strip_prefix(root()).unwrap().display().to_string();
                uses.entry(module.clone()).or_default().insert((name, file));
            }
        }
    }
    let mut wrong = Vec::new();
    for (module, used) in &uses {
        for (other, file) in used {
            if layer_of(other) >= layer_of(module) {
                wrong.push(format!("{file}: `{module}` uses `{other}`"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "uses against the layers:\n{}",
        wrong.join("\n")
    );
    // The replay knows nothing of what is built on it.
    let replay = code(&root().join("src/replay.rs"));
    for upper in ["convert", "gen", "stats", "registry"] {
        assert!(
            !replay.contains(&format!("crate::{upper}")),
            "replay uses {upper}"
        );
    }
}

/// Every name a game or a site notation goes by.
fn game_names() -> Vec<String> {
    let mut names = Vec::new();
    for g in gamerec::registry::GAMES {
        names.push(g.name().to_string());
        names.push(g.title().to_string());
        names.extend(g.aliases().iter().map(|a| a.to_string()));
        if let Some(site) = g.site() {
            names.push(site.format().name.to_string());
        }
    }
    names
}

fn names_word(text: &str, name: &str) -> bool {
    let text = text.to_ascii_lowercase();
    let name = name.to_ascii_lowercase();
    text.match_indices(&name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[test]
fn only_the_games_and_the_registry_name_a_game() {
    let names = game_names();
    assert!(names.len() >= 5);
    let mut found = Vec::new();
    for (_, path) in library_files() {
        let rel = path.strip_prefix(root()).unwrap().display().to_string();
        // The sites' file formats name the sites (AbstractPlay, the Garden
        // Gate), whose game notations share those names; they name no game.
        if rel.starts_with("src/games/")
            || rel == "src/registry.rs"
            || rel.starts_with("src/sites/")
        {
            continue;
        }
        let text = code(&path);
        for name in &names {
            if names_word(&text, name) {
                found.push(format!("{rel} names `{name}`"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checks_above_can_fail() {
    // The word check finds a name in code and not inside another word.
    assert!(names_word("find(\"oshi\")", "oshi"));
    assert!(!names_word("roshis", "oshi"));
    // Comments and the test module are not code.
    let dir = std::env::temp_dir().join(format!("gamerec-arch-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("x.rs");
    fs::write(
        &file,
        "// about oshi\nfn f() { g(\"roshi\") }\n#[cfg(test)]\nmod tests {\n    \"oshi\"\n}\n",
    )
    .unwrap();
    let text = code(&file);
    assert!(!names_word(&text, "oshi"), "{text}");
    assert!(names_word(&text, "roshi"), "{text}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_problem_code_is_documented() {
    let doc = fs::read_to_string(root().join("notation/format.md")).unwrap();
    for code in gamerec::problem::Code::ALL {
        assert!(
            doc.contains(&format!("`{}`", code.as_str())),
            "notation/format.md does not list `{code}`"
        );
    }
}
