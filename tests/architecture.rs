//! The crate's shape, checked from its source (as rust-analyzer's tidy tests
//! do):
//! - the library's modules depend one way, down the layers ARCHITECTURE.md
//!   describes, however a path is written (a `use` tree grouped or nested,
//!   `super::`, `self::`, a path written in full in code, an import placed
//!   after a test module);
//! - no code outside `src/games/` and the registry names a game, a site
//!   notation or a game's settings tag (the command line and the Python
//!   package included);
//! - no command file of the command line (a file whose `Args` the command
//!   enum holds) uses another command's file, no
//!   two of its files use each other, and nothing outside `src/` compiles a
//!   file of `src/` in with `#[path]`.
//!
//! A self-test copies the tree, puts each kind of violation into the copy,
//! and must see every one of them reported.

#[path = "architecture/source.rs"]
mod source;

use source::Code;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest layer first. A module may use
/// the modules of earlier layers only.
const LAYERS: &[&[&str]] = &[
    &["problem", "decode"],
    &["record"],
    &["pipeline", "random", "report"],
    &["game"],
    &["games"],
    &["replay", "pattern", "perft", "search"],
    &[
        "analysis", "convert", "lenient", "pattern", "select", "tree",
    ],
    &["gen", "picture"],
    &["registry"],
    &["archive"],
    &["formats"],
    &["analysed", "explored", "output", "ratings", "stats"],
    &["overview"],
    &["sources"],
    &["inputs"],
    &["export", "passthrough", "shard"],
    &["dedup", "filter", "index"],
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Which program a file belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Crate {
    Library,
    Cli,
    Python,
    Fuzz,
}

/// A source file as the checks read it.
struct File {
    /// The path from the tree's root, with `/`.
    rel: String,
    krate: Crate,
    /// The file's module path in its crate (the crate root is empty).
    module: Vec<String>,
    /// The code, comments blanked and test code cut.
    code: Code,
}

impl File {
    /// The library's top-level module the file is in (`None` for the
    /// crate root).
    fn top(&self) -> Option<&str> {
        match self.krate {
            Crate::Library => self.module.first().map(String::as_str),
            _ => None,
        }
    }

    /// A file of unit tests only (`tests.rs` of a module, the test kit).
    fn is_tests(&self) -> bool {
        self.rel.ends_with("/tests.rs") || self.rel.ends_with("/testkit.rs")
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's module path from its crate's source folder: `convert/text.rs`
/// is `formats::text`, a `mod.rs` is its folder, the crate roots are empty.
fn module_path(rel_to_src: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel_to_src
        .iter()
        .map(|p| p.to_str().unwrap().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && ["lib", "main"].contains(&parts[0].as_str()) {
        parts.clear();
    }
    parts
}

/// Every source file of the tree at `root`: the library and the binary
/// (`src/`), the Python package (`python/src/`), the fuzz crate
/// (`fuzz/src/`, `fuzz/fuzz_targets/`).
fn files(root: &Path) -> Vec<File> {
    let mut out = Vec::new();
    for (dir, krate) in [
        ("src", Crate::Library),
        ("python/src", Crate::Python),
        ("fuzz/src", Crate::Fuzz),
        ("fuzz/fuzz_targets", Crate::Fuzz),
    ] {
        let base = root.join(dir);
        let mut paths = Vec::new();
        rust_files(&base, &mut paths);
        paths.sort();
        for path in paths {
            let inner = path.strip_prefix(&base).unwrap();
            let mut module = module_path(inner);
            let mut krate = krate;
            if krate == Crate::Library
                && (module.first().is_some_and(|m| m == "cli") || inner == Path::new("main.rs"))
            {
                krate = Crate::Cli;
            }
            if krate == Crate::Fuzz && dir == "fuzz/fuzz_targets" {
                module.clear();
            }
            let text = fs::read_to_string(&path).unwrap();
            out.push(File {
                rel: format!("{dir}/{}", inner.display()),
                krate,
                module,
                code: source::without_tests(&source::read(&text)),
            });
        }
    }
    out
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Uses against the layers: a library module naming a module of its own
/// layer or a higher one.
fn layering(files: &[File]) -> Vec<String> {
    let mut wrong = BTreeSet::new();
    for file in files {
        let Some(top) = file.top() else { continue };
        if file.is_tests() {
            continue;
        }
        let Some(own) = layer_of(top) else {
            wrong.insert(format!(
                "{}: module `{top}` is in no layer of tests/architecture.rs",
                file.rel
            ));
            continue;
        };
        for path in source::paths(&file.code, &file.module) {
            let Some(other) = path.first() else { continue };
            if other == top {
                continue;
            }
            if let Some(layer) = layer_of(other) {
                if layer >= own {
                    wrong.insert(format!("{}: `{top}` uses `{other}`", file.rel));
                }
            }
        }
    }
    wrong.into_iter().collect()
}

/// The command line's files: a command's file uses no other command's
/// file, and no two files use each other.
fn command_line(files: &[File]) -> Vec<String> {
    let mut wrong = BTreeSet::new();
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let cli: Vec<&File> = files
        .iter()
        .filter(|f| f.krate == Crate::Cli && f.module.len() == 2)
        .collect();
    let names: BTreeSet<&str> = cli.iter().map(|f| f.module[1].as_str()).collect();
    // The commands are the files whose `Args` the command enum holds
    // (`Validate(validate::Args)`); the others are what they share.
    let commands: BTreeSet<&str> = files
        .iter()
        .find(|f| f.krate == Crate::Cli && f.module == ["cli"])
        .map(|f| {
            names
                .iter()
                .copied()
                .filter(|n| f.code.masked.contains(&format!("({n}::")))
                .collect()
        })
        .unwrap_or_default();
    for file in cli {
        let own = &file.module[1];
        for path in source::paths(&file.code, &file.module) {
            if path.len() < 2
                || path[0] != "cli"
                || &path[1] == own
                || !names.contains(path[1].as_str())
            {
                continue;
            }
            let other = &path[1];
            uses.entry(own.clone()).or_default().insert(other.clone());
            if commands.contains(own.as_str()) && commands.contains(other.as_str()) {
                wrong.insert(format!(
                    "{}: the command `{own}` uses the command `{other}`",
                    file.rel
                ));
            }
        }
    }
    for (a, used) in &uses {
        for b in used {
            if a < b && uses.get(b).is_some_and(|u| u.contains(a)) {
                wrong.insert(format!("src/cli: `{a}` and `{b}` use each other"));
            }
        }
    }
    wrong.into_iter().collect()
}

/// Files outside `src/` compiled in with `#[path]` (the Python package and
/// the fuzz crate use the library, not copies of the binary's files).
fn path_includes(files: &[File]) -> Vec<String> {
    files
        .iter()
        .filter(|f| matches!(f.krate, Crate::Python | Crate::Fuzz))
        .filter(|f| f.code.masked.contains("#[path"))
        .map(|f| format!("{}: compiles a file in with #[path]", f.rel))
        .collect()
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

/// The tags that hold a game's settings (`Rules::SETTINGS`): only the
/// game's folder and what reads them from there spell them.
fn settings_tags() -> Vec<String> {
    let mut tags: Vec<String> = gamerec::registry::GAMES
        .iter()
        .flat_map(|g| g.settings().iter().map(|t| t.to_string()))
        .collect();
    tags.sort();
    tags.dedup();
    tags
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

/// Game knowledge outside the games: a game's name (anywhere in code), or
/// a settings tag written as a string literal.
fn game_literals(files: &[File], names: &[String], tags: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let rel = &file.rel;
        if rel.starts_with("src/games/") || rel == "src/registry.rs" || file.krate == Crate::Fuzz {
            continue;
        }
        // The sites' file formats name the sites (AbstractPlay, the Garden
        // Gate), whose game notations share those names; they name no game.
        // So does the ratings' Elo schedule of AbstractPlay's (a site's,
        // for every game).
        let site_file = rel == "src/formats/records.rs"
            || rel.starts_with("src/formats/links")
            || rel == "src/ratings/systems.rs"
            || rel == "src/cli/ratings.rs";
        if !site_file {
            for name in names {
                if names_word(&file.code.text, name) {
                    found.push(format!("{rel} names `{name}`"));
                }
            }
        }
        for tag in tags {
            if file.code.text.contains(&format!("\"{tag}\"")) {
                found.push(format!("{rel} spells the settings tag `{tag}`"));
            }
        }
    }
    found
}

/// Everything the checks find in the tree at `root`.
fn check(root: &Path) -> Vec<String> {
    let files = files(root);
    let mut all = layering(&files);
    all.extend(command_line(&files));
    all.extend(path_includes(&files));
    all.extend(game_literals(&files, &game_names(), &settings_tags()));
    all
}

#[test]
fn modules_depend_only_on_lower_layers() {
    let files = files(root());
    let wrong = layering(&files);
    assert!(
        wrong.is_empty(),
        "uses against the layers:\n{}",
        wrong.join("\n")
    );
    // Every library file is in a layer, and the replay knows nothing of
    // what is built on it.
    assert!(files.iter().filter(|f| f.krate == Crate::Library).count() > 50);
    let replay = files.iter().find(|f| f.rel == "src/replay.rs").unwrap();
    for path in source::paths(&replay.code, &replay.module) {
        let first = path.first().map(String::as_str);
        assert!(
            !matches!(first, Some("convert" | "gen" | "stats" | "registry")),
            "replay uses {path:?}"
        );
    }
}

#[test]
fn command_files_use_no_other_command_and_no_file_circles() {
    let files = files(root());
    let mut wrong = command_line(&files);
    wrong.extend(path_includes(&files));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn only_the_games_and_the_registry_name_a_game() {
    let names = game_names();
    assert!(names.len() >= 5);
    let tags = settings_tags();
    assert!(!tags.is_empty());
    let found = game_literals(&files(root()), &names, &tags);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

fn copy_tree(from: &Path, to: &Path) {
    for dir in ["src", "python/src", "fuzz/src", "fuzz/fuzz_targets"] {
        let mut paths = Vec::new();
        rust_files(&from.join(dir), &mut paths);
        for path in paths {
            let dest = to.join(path.strip_prefix(from).unwrap());
            fs::create_dir_all(dest.parent().unwrap()).unwrap();
            fs::copy(&path, &dest).unwrap();
        }
    }
}

/// Each kind of violation, put into a copy of the tree: the file, what is
/// appended to it, and what the checks must then report.
const INJECTIONS: &[(&str, &str, &str)] = &[
    (
        "src/record/mod.rs",
        "use crate::registry::GAMES;",
        "`record` uses `registry`",
    ),
    (
        "src/record/mod.rs",
        "use crate::{problem::Problem, sources};",
        "`record` uses `sources`",
    ),
    (
        "src/record/reader.rs",
        "use crate::{problem::{self, Problem}, game::{Rules}};",
        "`record` uses `game`",
    ),
    (
        "src/select.rs",
        "use super::registry::GAMES;",
        "`select` uses `registry`",
    ),
    (
        "src/convert/out.rs",
        "use super::super::stats::Summary;",
        "`convert` uses `stats`",
    ),
    (
        "src/record/mod.rs",
        "pub use self::super::inputs::read;",
        "`record` uses `inputs`",
    ),
    (
        "src/formats/json.rs",
        "use crate::inputs::{self, read};",
        "`formats` uses `inputs`",
    ),
    (
        "src/inputs.rs",
        "fn injected() { let _ = crate::shard::cut; }",
        "`inputs` uses `shard`",
    ),
    (
        "src/record/mod.rs",
        "fn injected() -> usize { crate::registry::GAMES.len() }",
        "`record` uses `registry`",
    ),
    (
        "src/convert/out.rs",
        "fn injected() { let _ = super::super::archive::report; }",
        "`convert` uses `archive`",
    ),
    (
        "src/problem.rs",
        "#[cfg(test)]\nmod injected_tests {\n    use crate::registry;\n}\nuse crate::record::Span;",
        "`problem` uses `record`",
    ),
    (
        "src/problem.rs",
        "mod inner {\n    use super::super::decode;\n    use super::super::games;\n}",
        "`problem` uses `games`",
    ),
    (
        "src/convert/mod.rs",
        "fn injected() -> &'static str { \"oshi\" }",
        "names `oshi`",
    ),
    (
        "python/src/lib.rs",
        "fn injected() -> &'static str { \"Retsami\" }",
        "names `Retsami`",
    ),
    (
        "src/cli/view.rs",
        "fn injected() { \"vagabond\"; }",
        "names `vagabond`",
    ),
    (
        "src/picture/svg.rs",
        "fn injected() -> &'static str { \"Coords\" }",
        "settings tag `Coords`",
    ),
    (
        "src/cli/view.rs",
        "use super::convert::Args as A;",
        "the command `view` uses the command `convert`",
    ),
    (
        "src/cli/view.rs",
        "fn injected() { let _ = crate::cli::stats::run; }",
        "the command `view` uses the command `stats`",
    ),
    (
        "src/cli/messages.rs",
        "use super::progress::Progress as P;",
        "`messages` and `progress` use each other",
    ),
    (
        "fuzz/src/lib.rs",
        "#[path = \"../../src/cli/mod.rs\"]\nmod cli2;",
        "compiles a file in with #[path]",
    ),
];

/// What must not be reported: the same shapes in comments, strings and a
/// test module, and uses that go down the layers.
const HARMLESS: &[(&str, &str)] = &[
    (
        "src/record/mod.rs",
        "// use crate::registry;\n/* crate::sources::x /* nested */ */",
    ),
    (
        "src/record/mod.rs",
        "const INJECTED: &str = \"use crate::registry; crate::input\";",
    ),
    (
        "src/record/mod.rs",
        "const INJECTED_R: &str = r#\"super::super::stats \"quoted\"\"#;",
    ),
    (
        "src/record/mod.rs",
        "#[cfg(test)]\nmod injected_tests {\n    use crate::registry;\n}",
    ),
    (
        "src/sources.rs",
        "use crate::{formats::{self, read}, registry::{AnyGame}};",
    ),
    (
        "src/record/mod.rs",
        "fn injected<'a>(c: &'a str) -> char { let _ = '{'; c.chars().next().unwrap_or('}') }",
    ),
];

/// What the checks find in the copy at `base` with `added` appended to
/// `file`, beyond what they found in the tree as it is (`before`); the
/// file is put back after.
fn found_with(base: &Path, before: &[String], file: &str, added: &str) -> Vec<String> {
    let path = base.join(file);
    let original = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{original}\n{added}\n")).unwrap();
    let found = check(base)
        .into_iter()
        .filter(|f| !before.contains(f))
        .collect();
    fs::write(&path, &original).unwrap();
    println!("{file} + {:?}:", added.replace('\n', " "));
    found
}

#[test]
fn the_checks_can_fail_on_every_kind_of_violation() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path();
    copy_tree(root(), base);
    let before = check(base);
    println!("the tree as it is: {} findings", before.len());
    for finding in &before {
        println!("  {finding}");
    }
    for (file, injected, expected) in INJECTIONS {
        let found = found_with(base, &before, file, injected);
        for f in &found {
            println!("  found: {f}");
        }
        assert!(
            found.iter().any(|f| f.contains(expected)),
            "{file}: `{injected}` was not reported as {expected:?}; found {found:?}"
        );
    }
    for (file, harmless) in HARMLESS {
        let found = found_with(base, &before, file, harmless);
        println!("  {} findings", found.len());
        assert!(
            found.is_empty(),
            "{file}: `{harmless}` was reported: {found:?}"
        );
    }
    // The word check finds a name in code and not inside another word.
    assert!(names_word("find(\"oshi\")", "oshi"));
    assert!(!names_word("roshis", "oshi"));
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
