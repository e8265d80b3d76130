//! Where records come from: files, directories walked recursively, stdin;
//! and what each holds (the record format, JSON, a site's strings).

use super::progress::Progress;
use clap::builder::{PossibleValue, PossibleValuesParser};
use gamerec::archive::Options;
use gamerec::decode::{self, Input};
use gamerec::input::{self as read, Format};
use gamerec::problem::Problem;
use gamerec::record::{Chunk, Parsed};
use gamerec::registry::{self, AnyGame};

use std::fs::File;
use std::io::{self, BufRead};
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

    /// Opens the input, decompressed when it is gzip or Zstandard, its
    /// bytes counted on `progress`.
    pub fn open(&self, progress: &Progress) -> io::Result<Input> {
        let raw: Box<dyn io::Read + Send> = match self {
            Source::Stdin => Box::new(io::stdin()),
            Source::File(p) => Box::new(File::open(p)?),
        };
        decode::decompressed(progress.count(raw))
    }

    /// The file name's extension, lowercase, after any compression suffix
    /// (`games.grec.gz` → `grec`); `None` for stdin.
    pub fn extension(&self) -> Option<String> {
        match self {
            Source::Stdin => None,
            Source::File(p) => extension(p),
        }
    }
}

/// `path`'s extension, lowercase, after any compression suffix.
fn extension(path: &Path) -> Option<String> {
    let ext = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
    };
    match ext(path) {
        Some(e) if decode::SUFFIXES.contains(&e.as_str()) => ext(&path.with_extension("")),
        other => other,
    }
}

/// The bytes to read from `sources` (for a progress bar); `None` when one
/// is stdin.
pub fn total_size(sources: &[Result<Source, (String, io::Error)>]) -> Option<u64> {
    sources.iter().try_fold(0, |sum, s| match s {
        Ok(Source::Stdin) => None,
        Ok(Source::File(p)) => Some(sum + std::fs::metadata(p).map_or(0, |m| m.len())),
        Err(_) => Some(sum),
    })
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

/// `*.grec` and `*.txt`, also compressed (`*.grec.gz`, `*.txt.zst`).
fn is_record_file(path: &Path) -> bool {
    extension(path).is_some_and(|e| RECORD_EXTENSIONS.contains(&e.as_str()))
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
    pub reader: Input,
}

/// Opens every input in turn and hands it to `f`. Inputs that cannot be
/// opened are reported on stderr and counted; the count is returned. An
/// error from `f` stops the walk.
pub fn each_input(
    sources: Vec<Result<Source, (String, io::Error)>>,
    progress: &Progress,
    f: &mut dyn FnMut(Opened) -> io::Result<()>,
) -> io::Result<usize> {
    let mut unreadable = 0;
    for source in sources {
        let opened = source.and_then(|s| {
            let name = s.name();
            let extension = s.extension();
            s.open(progress)
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

/// `--from`'s values: `auto`, the formats of the record itself, and every
/// registered site notation.
pub fn from_values() -> PossibleValuesParser {
    let mut values = vec![
        PossibleValue::new("auto").help("Decide from the file name and its first bytes"),
        PossibleValue::new("text").help("The record format"),
        PossibleValue::new("json").help("A gamerec JSON document"),
        PossibleValue::new("jsonl").help("gamerec JSON Lines"),
    ];
    values.extend(
        registry::sites().map(|s| PossibleValue::new(s.format().name).help(s.format().title)),
    );
    PossibleValuesParser::new(values)
}

/// The format of `opened`: `from` (a value of [`from_values`]), or, for
/// `auto`, detected from its name and its first bytes (which stay unread).
pub fn format(from: &str, opened: &mut Opened) -> io::Result<Format> {
    match from {
        "auto" => Ok(read::detect(
            opened.extension.as_deref(),
            opened.reader.fill_buf()?,
        )),
        name => Format::named(name).ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, format!("no format {name}"))
        }),
    }
}

/// Inputs that held no game or could not be read to the end.
#[derive(Default)]
pub struct Inputs {
    pub empty: usize,
    pub unreadable: usize,
}

/// Reads every game of one input in its format, `map` working on each
/// game in parallel (record format) and `each` seeing the results in input
/// order; an input with no game or a read error is reported on stderr (and
/// counted); a closed stdout stops the run.
pub fn read_games<T, M, E>(
    mut opened: Opened,
    from: &str,
    opts: &Options,
    map: M,
    each: E,
    inputs: &mut Inputs,
) -> io::Result<()>
where
    T: Send,
    M: Fn(Option<&Chunk>, Parsed, Result<&'static dyn AnyGame, Problem>) -> T + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<()>,
{
    let name = opened.name.clone();
    let result = format(from, &mut opened)
        .and_then(|format| read::read_mapped(opened.reader, format, opts, map, each));
    match result {
        Ok(0) => {
            inputs.empty += 1;
            eprintln!("gamerec: {name}: no game here: the input is empty");
            Ok(())
        }
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(e),
        Err(e) => {
            inputs.unreadable += 1;
            eprintln!("gamerec: {name}: {e}");
            Ok(())
        }
    }
}
