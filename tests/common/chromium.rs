//! Headless Chromium for the tests that open a page gamerec wrote (the
//! viewer, tests/browser.rs; the report, tests/report.rs): Debian's
//! `chromium` and `chromium-driver`, driven by tests/browser/view.py.

use std::path::Path;

/// Runs tests/browser/view.py on `page` in Chromium with `args` (PRESSES
/// DEST SCREENSHOT, `tags - SCREENSHOT`, `report - SCREENSHOT`, …): what
/// it read from the page. Fails saying what to install when Chromium or
/// ChromeDriver is missing.
pub fn view_py(page: &Path, args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let driver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    for (what, path) in [("chromium", &chromium), ("chromium-driver", &driver)] {
        assert!(
            Path::new(path).exists(),
            "this test opens a page in Chromium: install Debian's `chromium` and \
             `chromium-driver` (apt-get install chromium chromium-driver; `.ci/run` does), or \
             set CHROMIUM and CHROMEDRIVER; {path} ({what}) is missing"
        );
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/browser/view.py"))
        .arg(page)
        .args(args)
        .env("CHROMIUM", &chromium)
        .env("CHROMEDRIVER", &driver)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "view.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
