//! Whole inputs, opened the same way by every front end (the command line
//! and the Python package): what an input is ([`Source`]), its name's
//! extension and announced compression, the record files of a folder, and
//! [`read_input`], which detects an opened input's format and reads its
//! games (a Parquet file on disk in place, everything else streamed).

use crate::archive::Options;
use crate::decode::{self, Compression, Encoding, Input};
use crate::input::{self, detect, Format, Reading};
use crate::problem::Problem;
use crate::record::{Chunk, ReadGame};
use crate::registry::AnyGame;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Extensions of record files picked up when walking a directory.
pub const RECORD_EXTENSIONS: &[&str] = &["grec", "txt", "json", "jsonl", "parquet"];

/// One input to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
    /// Standard input, copied to this temporary file (to be read twice).
    Spooled(PathBuf),
}

impl Source {
    /// The name reports give it: the path as given, `<stdin>`.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin | Source::Spooled(_) => "<stdin>".into(),
            Source::File(p) => p.display().to_string(),
        }
    }

    /// The file name's extension, lowercase, after any compression suffix
    /// (`games.grec.gz` → `grec`); `None` for stdin.
    pub fn extension(&self) -> Option<String> {
        match self {
            Source::Stdin | Source::Spooled(_) => None,
            Source::File(p) => extension(p),
        }
    }

    /// The compression the file's name announces.
    pub fn named_compression(&self) -> Option<Compression> {
        match self {
            Source::Stdin | Source::Spooled(_) => None,
            Source::File(p) => named_compression(p),
        }
    }

    /// The input's file, when it is a Parquet file as it is (not
    /// compressed), to be read in place.
    pub fn parquet_file(&self) -> Option<File> {
        let (Source::File(p) | Source::Spooled(p)) = self else {
            return None;
        };
        parquet_file(p)
    }

    /// Opens the input: its raw bytes through `wrap` (to count them, say),
    /// decompressed when it is gzip or Zstandard, as UTF-8.
    pub fn open_with(
        &self,
        encoding: Encoding,
        wrap: impl FnOnce(Box<dyn Read + Send>) -> Box<dyn Read + Send>,
    ) -> io::Result<Input> {
        let raw: Box<dyn Read + Send> = match self {
            Source::Stdin => Box::new(io::stdin()),
            Source::File(p) | Source::Spooled(p) => Box::new(File::open(p)?),
        };
        decode::open(wrap(raw), self.named_compression(), encoding)
    }
}

/// `path`'s extension, lowercase, after any compression suffix.
pub fn extension(path: &Path) -> Option<String> {
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

/// The compression `path`'s name announces.
pub fn named_compression(path: &Path) -> Option<Compression> {
    path.extension()
        .and_then(|e| e.to_str())
        .and_then(Compression::of_extension)
}

/// The file at `path`, when it is a Parquet file as it is (not
/// compressed), to be read in place.
pub fn parquet_file(path: &Path) -> Option<File> {
    let mut file = File::open(path).ok()?;
    let mut head = [0u8; 4];
    file.read_exact(&mut head).ok()?;
    (&head == b"PAR1").then_some(file)
}

/// `*.grec`, `*.txt`, `*.json`, `*.jsonl`, `*.parquet`, also compressed.
pub fn is_record_file(path: &Path) -> bool {
    extension(path).is_some_and(|e| RECORD_EXTENSIONS.contains(&e.as_str()))
}

/// Reads every game of an opened input: its format is `from`, or detected
/// from `extension` (the input's name's, lowercase) and its first bytes;
/// `in_place`, when the input is a Parquet file on disk, is read where it
/// is instead of being streamed. `map` and `each` as for
/// [`input::read_mapped`], `map` also told the format.
pub fn read_input<T, M, E>(
    mut input: Input,
    extension: Option<&str>,
    in_place: Option<File>,
    from: Option<Format>,
    opts: &Options,
    map: M,
    each: E,
) -> io::Result<Reading>
where
    T: Send,
    M: Fn(
            Format,
            Option<&Chunk>,
            &mut dyn ReadGame<'_>,
            Result<&'static dyn AnyGame, Problem>,
        ) -> T
        + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    let format = match from {
        Some(f) => f,
        None => {
            let head = input.fill_buf()?;
            let format = detect(extension, head);
            if matches!(format, Format::Text) {
                not_text(head)?;
            }
            format
        }
    };
    let map =
        |chunk: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| map(format, chunk, game, rules);
    match in_place.filter(|_| matches!(format, Format::Parquet)) {
        Some(file) => input::read_parquet_in_place(file, opts, map, each),
        None => input::read_mapped(input, format, opts, map, each),
    }
}

/// Refuses an input detected as the record format whose first bytes are
/// not text at all: UTF-16 without a byte-order mark (every other byte
/// NUL: it says which `--encoding` reads it), or binary data (an eighth or
/// more of them NUL). A stray NUL in a record is only a bad byte: it costs
/// its value, not the file.
pub fn not_text(head: &[u8]) -> io::Result<()> {
    let head = &head[..head.len().min(4096)];
    let nuls = head.iter().filter(|&&b| b == 0).count();
    if head.len() < 16 || nuls * 8 < head.len() {
        return Ok(());
    }
    let pairs = head.len() / 2;
    let at = |odd: usize| (0..pairs).filter(|i| head[2 * i + odd] == 0).count();
    let (even, odd) = (at(0), at(1));
    let utf16 = |zeros: usize, other: usize| zeros * 10 >= pairs * 9 && other * 10 <= pairs;
    let message = if utf16(odd, even) {
        "this looks like UTF-16 (little-endian) without a byte-order mark: read it with \
         --encoding utf-16le"
            .to_string()
    } else if utf16(even, odd) {
        "this looks like UTF-16 (big-endian) without a byte-order mark: read it with \
         --encoding utf-16be"
            .to_string()
    } else {
        format!(
            "not a record file: binary data ({nuls} of its first {} bytes are NUL)",
            head.len()
        )
    };
    Err(io::Error::new(io::ErrorKind::InvalidData, message))
}

/// The record files under `dir` ([`is_record_file`]), sorted by name,
/// recursively, symbolic links followed (a link back to a folder above it
/// is skipped); the first entry that cannot be read is the error.
pub fn record_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name();
    let mut out = Vec::new();
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_file() && is_record_file(e.path()) => out.push(e.into_path()),
            Ok(_) => {}
            Err(e) if e.loop_ancestor().is_some() => {}
            Err(e) => {
                let name = e.path().unwrap_or(dir).display().to_string();
                return Err(io::Error::other(format!("{name}: {e}")));
            }
        }
    }
    Ok(out)
}
