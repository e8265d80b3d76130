//! The Python package (python/): installed with pip into a virtual
//! environment under target/pyenv (made on first use; pip installs maturin
//! and the test extras — pytest, Dask, PySpark, pandas — from PyPI), then
//! its pytest suite run: every API answer against the command line's for
//! the same input, the doctests, the notebook-style example, and a sharded
//! archive's statistics on a Dask LocalCluster and on Spark `local[2]`
//! equal to `gamerec stats` of the whole archive. Needs Python ≥ 3.9 with
//! venv and pip, network access to PyPI the first time, and Java 17 for
//! Spark; fails saying which is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        tail(&out.stdout),
        tail(&out.stderr)
    );
}

fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let start = text.len().saturating_sub(8000);
    let start = (start..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    text[start..].to_string()
}

/// The virtual environment's interpreter, made with `python3 -m venv`
/// (or $PYTHON) when missing.
fn venv() -> PathBuf {
    let dir = root().join("target/pyenv");
    let python = dir.join("bin/python");
    if !python.exists() {
        let base = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        run(
            Command::new(&base).args(["-m", "venv"]).arg(&dir),
            "making a virtual environment (python3 -m venv; Debian: apt-get install python3-venv)",
        );
    }
    python
}

#[test]
fn the_python_package_passes_its_tests() {
    let python = venv();
    let bin = python.parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let pip = |args: &[&str], what: &str| {
        run(
            Command::new(&python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                ])
                .args(args)
                .current_dir(root())
                .env("PATH", &path),
            what,
        )
    };
    // maturin in the environment, then the package built from this
    // checkout (cargo rebuilds only what changed) with its test extras.
    // Without build isolation, PySpark (a source distribution only) is
    // built with the environment's setuptools, which needs `wheel` before
    // setuptools 70.1 (Python 3.11's venv has 65.5).
    pip(
        &["maturin>=1.5,<2", "setuptools>=70.1", "wheel"],
        "pip install maturin, setuptools and wheel",
    );
    pip(
        &["--no-build-isolation", "./python[test]"],
        "pip install ./python[test]",
    );
    let gamerec = env!("CARGO_BIN_EXE_gamerec");
    run(
        Command::new(&python)
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .args(["python/tests", "--doctest-modules", "--pyargs", "gamerec"])
            .current_dir(root())
            .env("PATH", &path)
            .env("GAMEREC_BIN", gamerec)
            .env("PYSPARK_PYTHON", &python)
            .env("PYSPARK_DRIVER_PYTHON", &python),
        "pytest python/tests (the Python package's tests)",
    );
}
