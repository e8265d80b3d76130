//! What several test files share: Python packages from PyPI for the tests
//! that check gamerec's output with real consumers (DuckDB, the JSON-schema
//! validator). `.ci/run` installs them; a bare `cargo test` installs a
//! missing one under target/pydeps, and fails saying why when it cannot.

use std::path::{Path, PathBuf};
use std::process;

/// A PYTHONPATH under which `import MODULE` works for every `(module,
/// pip requirement)` of `needs`: the current one when it does, else
/// target/pydeps, where missing requirements are installed with pip.
pub fn python_path(needs: &[(&str, &str)]) -> String {
    let imports = needs
        .iter()
        .map(|(module, _)| format!("import {module}"))
        .collect::<Vec<_>>()
        .join("; ");
    let probe = |path: &str| {
        process::Command::new("python3")
            .args(["-c", &imports])
            .env("PYTHONPATH", path)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let current = std::env::var("PYTHONPATH").unwrap_or_default();
    if probe(&current) {
        return current;
    }
    let target: PathBuf = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("target"),
            PathBuf::from,
        )
        .join("pydeps");
    let target = target.to_str().unwrap().to_string();
    let packages: Vec<&str> = needs.iter().map(|(_, pip)| *pip).collect();
    if !probe(&target) {
        let out = process::Command::new("python3")
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(["--upgrade", "--target", &target])
            .args(&packages)
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "this test needs {packages:?} from PyPI, installed with Python 3's pip, \
                     but `python3` cannot be run ({e}): install Python 3 with pip, \
                     or `pip install {}` yourself",
                    packages.join(" ")
                )
            });
        assert!(
            out.status.success(),
            "this test needs {packages:?} from PyPI, but `python3 -m pip install --target \
             {target}` failed (no pip, or no network access to PyPI?): install them yourself \
             with `pip install {}` and rerun. pip said:\n{}",
            packages.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(
        probe(&target),
        "{packages:?} were installed under {target} but `{imports}` still fails there"
    );
    target
}
