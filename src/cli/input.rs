//! Where records come from: files, directories walked recursively, stdin.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Extensions of record files picked up when walking a directory.
pub const RECORD_EXTENSIONS: &[&str] = &["grec", "txt"];

/// One input to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".into(),
            Source::File(p) => p.display().to_string(),
        }
    }

    pub fn open(&self) -> io::Result<Box<dyn BufRead>> {
        Ok(match self {
            Source::Stdin => Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
            Source::File(p) => Box::new(BufReader::with_capacity(1 << 16, File::open(p)?)),
        })
    }
}

/// Expands the command line's paths: `-` is stdin, a directory is walked
/// (sorted, recursively) for record files (every file with `all`). Paths
/// that cannot be read are returned as errors, in order, beside the rest.
pub fn expand(paths: &[PathBuf], all: bool) -> Vec<Result<Source, (String, io::Error)>> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            out.push(Ok(Source::Stdin));
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => out.push(Err((path.display().to_string(), e))),
            Ok(m) if m.is_dir() => walk(path, all, &mut out),
            Ok(_) => out.push(Ok(Source::File(path.clone()))),
        }
    }
    out
}

fn is_record_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

fn walk(dir: &Path, all: bool, out: &mut Vec<Result<Source, (String, io::Error)>>) {
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        match entry {
            Ok(e) if e.file_type().is_file() && (all || is_record_file(e.path())) => {
                out.push(Ok(Source::File(e.into_path())))
            }
            Ok(_) => {}
            Err(e) => {
                let name = e
                    .path()
                    .map_or_else(|| dir.display().to_string(), |p| p.display().to_string());
                out.push(Err((name, e.into())));
            }
        }
    }
}

/// One input opened for reading.
pub struct Opened {
    pub name: String,
    /// The file name's extension, lowercase (`None` for stdin).
    pub extension: Option<String>,
    pub reader: Box<dyn BufRead>,
}

/// Opens every input in turn and hands it to `f`. Inputs that cannot be
/// opened are reported on stderr and counted; the count is returned. An
/// error from `f` stops the walk.
pub fn each_input(
    paths: &[PathBuf],
    all: bool,
    f: &mut dyn FnMut(Opened) -> io::Result<()>,
) -> io::Result<usize> {
    let mut unreadable = 0;
    for source in expand(paths, all) {
        let opened = source.and_then(|s| {
            let name = s.name();
            let extension = match &s {
                Source::File(p) => p
                    .extension()
                    .and_then(|e| e.to_str())
                    .map(str::to_ascii_lowercase),
                Source::Stdin => None,
            };
            s.open()
                .map(|reader| Opened {
                    name: name.clone(),
                    extension,
                    reader,
                })
                .map_err(|e| (name, e))
        });
        match opened {
            Ok(o) => f(o)?,
            Err((name, e)) => {
                unreadable += 1;
                eprintln!("gamerec: {name}: {e}");
            }
        }
    }
    Ok(unreadable)
}
