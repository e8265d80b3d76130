//! The crates' shape, checked from their source (as rust-analyzer's tidy
//! tests do):
//! - the library's folders are layers ([`FOLDERS`], lowest first): a file
//!   uses only the folders before its own, however a path is written (a
//!   `use` tree grouped or nested, `super::`, `self::`, a path written in
//!   full in code, an import placed after a test module), and never the
//!   facade's re-exports (`crate::record`) in place of the real path;
//! - no file circle inside a folder: in every folder of the library, the
//!   rules crate, the command line and the Python package, no two of its
//!   files or sub-folders use each other, directly or round a longer loop;
//! - the front ends (the command line, the Python package, the fuzz
//!   targets, the benchmarks and the tests) use the facade (`lib.rs`'s
//!   re-exports) and never a layer folder behind it;
//! - no code outside the rules crate's `games/` and the registry names a
//!   game, a site notation or a game's settings tag (the command line and
//!   the Python package included);
//! - no command file of the command line (a file whose `Args` the command
//!   enum holds) uses another command's file, and nothing outside `src/`
//!   compiles a file of `src/` in with `#[path]`.
//!
//! A self-test copies the tree, puts each kind of violation into the copy,
//! and must see every one of them reported.

#[path = "architecture/source.rs"]
mod source;

use source::Code;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's folders (and the registry, one file), lowest layer
/// first. A file may use the folders before its own only; inside a folder,
/// any file of it that is not in a circle.
const FOLDERS: &[&str] = &[
    "base", "envelope", "play", "picture", "registry", "io", "tasks",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Which program a file belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Crate {
    Rules,
    Library,
    Cli,
    Python,
    Fuzz,
    /// The main crate's benchmarks and integration tests.
    Outside,
}

/// A source file as the checks read it.
struct File {
    /// The path from the tree's root, with `/`.
    rel: String,
    /// The folder its crate's module paths start from (`src`).
    base: &'static str,
    krate: Crate,
    /// The file's module path in its crate (the crate root is empty).
    module: Vec<String>,
    /// The code, comments blanked and test code cut.
    code: Code,
}

impl File {
    /// The library's folder the file is in (`None` for the crate root).
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

/// Every source file of the tree at `root`: the rules crate
/// (`crates/rules/src/`), the library and the binary (`src/`), the Python
/// package (`python/src/`), the fuzz crate (`fuzz/src/`,
/// `fuzz/fuzz_targets/`), the benchmarks and the integration tests.
fn files(root: &Path) -> Vec<File> {
    let mut out = Vec::new();
    for (dir, krate) in [
        ("crates/rules/src", Crate::Rules),
        ("src", Crate::Library),
        ("benches", Crate::Outside),
        ("tests", Crate::Outside),
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
            if (krate == Crate::Fuzz && dir == "fuzz/fuzz_targets") || krate == Crate::Outside {
                module.clear();
            }
            let text = fs::read_to_string(&path).unwrap();
            out.push(File {
                rel: format!("{dir}/{}", inner.display()),
                base: dir,
                krate,
                module,
                code: source::without_tests(&source::read(&text)),
            });
        }
    }
    out
}

fn layer_of(folder: &str) -> Option<usize> {
    FOLDERS.iter().position(|&f| f == folder)
}

/// The names `lib.rs` re-exports (`pub use …::{a, b}`, `pub mod a`): the
/// facade.
fn facade(files: &[File]) -> BTreeSet<String> {
    let Some(lib) = files.iter().find(|f| f.rel == "src/lib.rs") else {
        return BTreeSet::new();
    };
    let mut names = BTreeSet::new();
    for item in lib.code.masked.split(';') {
        let item = item.trim();
        if let Some(rest) = item.strip_prefix("pub mod ") {
            names.insert(rest.trim().to_string());
        } else if let Some(rest) = item.strip_prefix("pub use ") {
            let inner = rest.rsplit("::").next().unwrap_or(rest);
            for name in inner.split(|c: char| "{}, \n".contains(c)) {
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    names.insert(name.to_string());
                }
            }
        }
    }
    names
}

/// Uses against the layers: a library file naming a folder of its own
/// layer's successors, or a name of the facade instead of a real path.
fn layering(files: &[File]) -> Vec<String> {
    let facade = facade(files);
    let mut wrong = BTreeSet::new();
    for file in files {
        let Some(top) = file.top() else { continue };
        if file.is_tests() {
            continue;
        }
        let Some(own) = layer_of(top) else {
            wrong.insert(format!(
                "{}: folder `{top}` is in no layer of tests/architecture.rs",
                file.rel
            ));
            continue;
        };
        for path in source::paths(&file.code, &file.module) {
            let Some(other) = path.first() else { continue };
            if other == top {
                continue;
            }
            match layer_of(other) {
                Some(layer) if layer > own => {
                    wrong.insert(format!("{}: `{top}` uses `{other}`", file.rel));
                }
                None if facade.contains(other) => {
                    wrong.insert(format!(
                        "{}: `crate::{other}` goes through the facade (write the path)",
                        file.rel
                    ));
                }
                _ => {}
            }
        }
    }
    wrong.into_iter().collect()
}

/// File circles: in each folder of each crate, the files and sub-folders
/// that use one another round a loop (a folder's `mod.rs`, its face, is
/// not one of them).
fn circles(files: &[File]) -> Vec<String> {
    // (crate, folder) -> child -> children it uses
    type Graph = BTreeMap<String, BTreeSet<String>>;
    let mut graphs: BTreeMap<(String, Vec<String>), Graph> = BTreeMap::new();
    let mut children: BTreeMap<(String, Vec<String>), BTreeSet<String>> = BTreeMap::new();
    let crate_dir = |f: &File| f.base.to_string();
    let relevant = |f: &File| {
        matches!(
            f.krate,
            Crate::Rules | Crate::Library | Crate::Cli | Crate::Python
        )
    };
    for f in files.iter().filter(|f| relevant(f)) {
        for k in 0..f.module.len() {
            children
                .entry((crate_dir(f), f.module[..k].to_vec()))
                .or_default()
                .insert(f.module[k].clone());
        }
    }
    for f in files.iter().filter(|f| relevant(f) && !f.is_tests()) {
        let krate = crate_dir(f);
        for path in source::paths(&f.code, &f.module) {
            let k = f
                .module
                .iter()
                .zip(&path)
                .take_while(|(a, b)| a == b)
                .count();
            if k >= f.module.len() || k >= path.len() {
                continue;
            }
            let key = (krate.clone(), f.module[..k].to_vec());
            if !children.get(&key).is_some_and(|c| c.contains(&path[k])) {
                continue;
            }
            graphs
                .entry(key)
                .or_default()
                .entry(f.module[k].clone())
                .or_default()
                .insert(path[k].clone());
        }
    }
    let mut wrong = BTreeSet::new();
    for ((krate, folder), graph) in &graphs {
        let reach = |from: &str| {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from.to_string()];
            while let Some(n) = todo.pop() {
                for m in graph.get(&n).into_iter().flatten() {
                    if seen.insert(m.clone()) {
                        todo.push(m.clone());
                    }
                }
            }
            seen
        };
        let mut done = BTreeSet::new();
        for node in graph.keys() {
            if done.contains(node) || !reach(node).contains(node) {
                continue;
            }
            let circle: Vec<String> = reach(node)
                .into_iter()
                .filter(|m| reach(m).contains(node))
                .collect();
            done.extend(circle.iter().cloned());
            let place = std::iter::once(krate.clone())
                .chain(folder.iter().cloned())
                .collect::<Vec<_>>()
                .join("/");
            wrong.insert(format!("{place}: a file circle: {}", circle.join(", ")));
        }
    }
    wrong.into_iter().collect()
}

/// Front ends past the facade: a path into `gamerec` whose first name is
/// not one `lib.rs` re-exports (a layer folder, say).
fn past_the_facade(files: &[File]) -> Vec<String> {
    let facade = facade(files);
    let mut wrong = BTreeSet::new();
    for file in files {
        if matches!(file.krate, Crate::Library | Crate::Rules) {
            continue;
        }
        for path in source::crate_paths(&file.code, "gamerec") {
            let Some(first) = path.first() else { continue };
            if !facade.contains(first) && first != "self" {
                wrong.insert(format!(
                    "{}: `gamerec::{first}` is past the facade",
                    file.rel
                ));
            }
        }
    }
    wrong.into_iter().collect()
}

/// The command line's files: a command's file uses no other command's
/// file (two files that use each other are a circle: [`circles`]).
fn command_line(files: &[File]) -> Vec<String> {
    let mut wrong = BTreeSet::new();
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
            if commands.contains(own.as_str()) && commands.contains(other.as_str()) {
                wrong.insert(format!(
                    "{}: the command `{own}` uses the command `{other}`",
                    file.rel
                ));
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
        if rel.starts_with("crates/rules/src/games/")
            || rel == "src/registry.rs"
            || matches!(file.krate, Crate::Fuzz | Crate::Outside)
        {
            continue;
        }
        // The sites' file formats name the sites (AbstractPlay, the Garden
        // Gate), whose game notations share those names; they name no game.
        // So does the ratings' Elo schedule of AbstractPlay's (a site's,
        // for every game).
        let site_file = rel == "src/io/formats/records.rs"
            || rel.starts_with("src/io/formats/links")
            || rel == "src/tasks/ratings/systems.rs"
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
    all.extend(circles(&files));
    all.extend(past_the_facade(&files));
    all.extend(command_line(&files));
    all.extend(path_includes(&files));
    all.extend(game_literals(&files, &game_names(), &settings_tags()));
    all
}

#[test]
fn folders_depend_only_on_lower_layers() {
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
    let replay = files
        .iter()
        .find(|f| f.rel == "src/play/replay.rs")
        .unwrap();
    for path in source::paths(&replay.code, &replay.module) {
        let at = |i: usize| path.get(i).map(String::as_str);
        assert!(
            !matches!((at(0), at(1)), (Some("play"), Some("sink" | "gen")))
                && !matches!(at(0), Some("registry" | "io" | "tasks")),
            "replay uses {path:?}"
        );
    }
}

#[test]
fn no_file_circle_in_any_folder() {
    let wrong = circles(&files(root()));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn front_ends_use_the_facade_only() {
    let files = files(root());
    let facade = facade(&files);
    for name in ["record", "formats", "inputs", "convert", "tree", "report"] {
        assert!(
            facade.contains(name),
            "the facade lacks `{name}`: {facade:?}"
        );
    }
    for folder in FOLDERS {
        assert!(
            !facade.contains(*folder) || ["picture", "registry"].contains(folder),
            "`{folder}` is a layer, not part of the facade"
        );
    }
    let wrong = past_the_facade(&files);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn command_files_use_no_other_command() {
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
    for dir in [
        "crates/rules/src",
        "src",
        "python/src",
        "fuzz/src",
        "fuzz/fuzz_targets",
        "benches",
        "tests",
    ] {
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
        "src/envelope/record/mod.rs",
        "use crate::registry::GAMES;",
        "`envelope` uses `registry`",
    ),
    (
        "src/envelope/record/mod.rs",
        "use crate::{base::problem::Problem, io::sources};",
        "`envelope` uses `io`",
    ),
    (
        "src/envelope/record/reader.rs",
        "use crate::{base::problem::{self, Problem}, tasks::{stats}};",
        "`envelope` uses `tasks`",
    ),
    (
        "src/play/select.rs",
        "use super::super::registry::GAMES;",
        "`play` uses `registry`",
    ),
    (
        "src/play/sink/out.rs",
        "use super::super::super::tasks::stats::Summary;",
        "`play` uses `tasks`",
    ),
    (
        "src/envelope/record/mod.rs",
        "pub use self::super::super::io::inputs::read;",
        "`envelope` uses `io`",
    ),
    (
        "src/io/inputs.rs",
        "fn injected() { let _ = crate::tasks::shard::cut; }",
        "`io` uses `tasks`",
    ),
    (
        "src/envelope/record/mod.rs",
        "fn injected() -> usize { crate::registry::GAMES.len() }",
        "`envelope` uses `registry`",
    ),
    (
        "src/play/sink/out.rs",
        "fn injected() { let _ = super::super::super::io::reading::report; }",
        "`play` uses `io`",
    ),
    (
        "src/base/problem.rs",
        "#[cfg(test)]\nmod injected_tests {\n    use crate::registry;\n}\nuse crate::envelope::record::Span;",
        "`base` uses `envelope`",
    ),
    (
        "src/base/problem.rs",
        "mod inner {\n    use super::super::decode;\n    use super::super::super::tasks;\n}",
        "`base` uses `tasks`",
    ),
    (
        "src/tasks/stats.rs",
        "use crate::record::Chunk;",
        "`crate::record` goes through the facade",
    ),
    (
        "src/io/formats/json.rs",
        "use crate::io::inputs::{self, read};",
        "src/io: a file circle: formats, inputs",
    ),
    (
        "src/play/replay.rs",
        "fn injected() { let _ = super::gen::GenOptions::default(); }",
        "src/play: a file circle: gen, replay",
    ),
    (
        "crates/rules/src/games/oshi/geometry.rs",
        "fn injected() { let _ = crate::games::oshi::position::MAX_PIECES; }",
        "crates/rules/src/games/oshi: a file circle: geometry, position",
    ),
    (
        "src/cli/messages.rs",
        "use super::progress::Progress as P;",
        "src/cli: a file circle: messages, progress",
    ),
    (
        "src/cli/view.rs",
        "use gamerec::tasks::tree::panel;",
        "`gamerec::tasks` is past the facade",
    ),
    (
        "python/src/lib.rs",
        "fn injected() { let _ = gamerec::io::inputs::read; }",
        "`gamerec::io` is past the facade",
    ),
    (
        "benches/replay.rs",
        "use gamerec::{play::replay, record};",
        "`gamerec::play` is past the facade",
    ),
    (
        "src/play/sink/mod.rs",
        "fn injected() -> &'static str { \"oshi\" }",
        "names `oshi`",
    ),
    (
        "crates/rules/src/search/mod.rs",
        "fn injected() -> &'static str { \"Iqishiqi\" }",
        "names `Iqishiqi`",
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
        "fuzz/src/lib.rs",
        "#[path = \"../../src/cli/mod.rs\"]\nmod cli2;",
        "compiles a file in with #[path]",
    ),
];

/// What must not be reported: the same shapes in comments, strings and a
/// test module, and uses that go down the layers or one way in a folder.
const HARMLESS: &[(&str, &str)] = &[
    (
        "src/envelope/record/mod.rs",
        "// use crate::registry;\n/* crate::io::sources::x /* nested */ */",
    ),
    (
        "src/envelope/record/mod.rs",
        "const INJECTED: &str = \"use crate::registry; crate::input\";",
    ),
    (
        "src/envelope/record/mod.rs",
        "const INJECTED_R: &str = r#\"super::super::stats \"quoted\"\"#;",
    ),
    (
        "src/envelope/record/mod.rs",
        "#[cfg(test)]\nmod injected_tests {\n    use crate::registry;\n}",
    ),
    (
        "src/io/sources.rs",
        "use crate::{io::formats::{self, read}, registry::{AnyGame}};",
    ),
    (
        "src/tasks/report/mod.rs",
        "use crate::tasks::ratings::systems;",
    ),
    ("src/cli/view.rs", "use gamerec::{record::Chunk, formats};"),
    (
        "src/envelope/record/mod.rs",
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
