//! Whole inputs, opened the same way by every front end (the command line
//! and the Python package): what an input is ([`Source`]: a file, standard
//! input, bytes or a reader of the caller's), its name's extension and
//! announced compression, and the one walk of the paths a user names
//! ([`walk`]): folders walked for record files, links followed, each file
//! once, the output never among the inputs.

use crate::base::decode::{self, Compression, Encoding, Input};
use crate::io::output::{file_id, FileId, Output};
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Extensions of record files picked up when walking a directory.
pub(crate) const RECORD_EXTENSIONS: &[&str] = &["grec", "txt", "json", "jsonl", "parquet"];

/// A reader of the caller's, read once (the Python package's file
/// objects).
pub(crate) type Shared = Arc<Mutex<Option<Box<dyn Read + Send>>>>;

/// One input to read.
#[derive(Clone)]
pub enum Source {
    Stdin,
    File(PathBuf),
    /// Standard input, copied to this temporary file (to be read twice).
    Spooled(PathBuf),
    /// Bytes in memory, and the name reports give them.
    Bytes(String, Arc<[u8]>),
    /// A reader of the caller's, read once, and the name reports give it
    /// (its extension tells the format, as a file's does).
    Reader(String, Shared),
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Stdin => f.write_str("Stdin"),
            Source::File(p) => write!(f, "File({p:?})"),
            Source::Spooled(p) => write!(f, "Spooled({p:?})"),
            Source::Bytes(name, b) => write!(f, "Bytes({name:?}, {} bytes)", b.len()),
            Source::Reader(name, _) => write!(f, "Reader({name:?})"),
        }
    }
}

impl PartialEq for Source {
    fn eq(&self, other: &Source) -> bool {
        match (self, other) {
            (Source::Stdin, Source::Stdin) => true,
            (Source::File(a), Source::File(b)) | (Source::Spooled(a), Source::Spooled(b)) => a == b,
            (Source::Bytes(a, x), Source::Bytes(b, y)) => a == b && x == y,
            (Source::Reader(_, a), Source::Reader(_, b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Source {
    /// A reader of the caller's, named.
    pub fn reader(name: impl Into<String>, reader: Box<dyn Read + Send>) -> Source {
        Source::Reader(name.into(), Arc::new(Mutex::new(Some(reader))))
    }

    /// The name reports give it: the path as given, `<stdin>`, the name
    /// given with bytes or a reader.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin | Source::Spooled(_) => "<stdin>".into(),
            Source::File(p) => p.display().to_string(),
            Source::Bytes(name, _) | Source::Reader(name, _) => name.clone(),
        }
    }

    /// The file name's extension, lowercase, after any compression suffix
    /// (`games.grec.gz` → `grec`); `None` for stdin and bytes.
    pub fn extension(&self) -> Option<String> {
        match self {
            Source::File(p) => extension(p),
            Source::Reader(name, _) => extension(Path::new(name)),
            _ => None,
        }
    }

    /// The compression the file's name announces.
    pub(crate) fn named_compression(&self) -> Option<Compression> {
        match self {
            Source::File(p) => named_compression(p),
            _ => None,
        }
    }

    /// The input's file, when it is a Parquet file as it is (not
    /// compressed), to be read in place.
    pub(crate) fn parquet_file(&self) -> Option<File> {
        let (Source::File(p) | Source::Spooled(p)) = self else {
            return None;
        };
        parquet_file(p)
    }

    /// How many bytes it holds, where that is known before it is read (a
    /// file's size; not standard input's, nor a reader's).
    pub fn size(&self) -> Option<u64> {
        match self {
            Source::File(p) | Source::Spooled(p) => {
                Some(std::fs::metadata(p).map_or(0, |m| m.len()))
            }
            Source::Bytes(_, b) => Some(b.len() as u64),
            Source::Stdin | Source::Reader(..) => None,
        }
    }

    /// Opens the input: its raw bytes through `wrap` (to count them, say),
    /// decompressed when it is gzip or Zstandard, as UTF-8.
    pub(crate) fn open_with(
        &self,
        encoding: Encoding,
        wrap: impl FnOnce(Box<dyn Read + Send>) -> Box<dyn Read + Send>,
    ) -> io::Result<Input> {
        let raw: Box<dyn Read + Send> = match self {
            Source::Stdin => Box::new(io::stdin()),
            Source::File(p) | Source::Spooled(p) => Box::new(File::open(p)?),
            Source::Bytes(_, b) => Box::new(io::Cursor::new(b.clone())),
            Source::Reader(_, shared) => shared
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .ok_or_else(|| io::Error::other("this reader was read already"))?,
        };
        decode::open(wrap(raw), self.named_compression(), encoding)
    }
}

/// The most bytes a side file (an alias file) may hold: a record's cap.
pub(crate) const SIDE_FILE_BYTES: usize = crate::envelope::record::MAX_RECORD_BYTES;

/// A side file read whole as UTF-8, refused past [`SIDE_FILE_BYTES`] (read
/// no further: `/dev/zero` or an endless pipe costs the cap, never more).
pub(crate) fn read_side_file(path: &Path) -> io::Result<String> {
    let file = File::open(path)?;
    let mut bytes = Vec::new();
    file.take(SIDE_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > SIDE_FILE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "more than {} MiB: a side file is capped as a record is",
                SIDE_FILE_BYTES >> 20
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to() + 1),
        )
    })
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
pub(crate) fn named_compression(path: &Path) -> Option<Compression> {
    path.extension()
        .and_then(|e| e.to_str())
        .and_then(Compression::of_extension)
}

/// The file at `path`, when it is a Parquet file as it is (not
/// compressed), to be read in place. Only a regular file is looked at: a
/// named pipe or a device is opened once, by the reader, never here (a
/// look would take its first bytes, and a second open would wait for a
/// writer that has gone).
pub(crate) fn parquet_file(path: &Path) -> Option<File> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut file = File::open(path).ok()?;
    let mut head = [0u8; 4];
    file.read_exact(&mut head).ok()?;
    (&head == b"PAR1").then_some(file)
}

/// `*.grec`, `*.txt`, `*.json`, `*.jsonl`, `*.parquet`, also compressed.
pub(crate) fn is_record_file(path: &Path) -> bool {
    extension(path).is_some_and(|e| RECORD_EXTENSIONS.contains(&e.as_str()))
}

/// The file among `sources` that `output` would write over, if one is.
pub fn among<'s>(output: &Output, sources: &'s [Source]) -> Option<&'s Path> {
    sources.iter().find_map(|s| match s {
        Source::File(p) => std::fs::metadata(p)
            .ok()
            .filter(|m| output.is(p, m))
            .map(|_| p.as_path()),
        _ => None,
    })
}

/// What a walk says of what it passed over (a note) or could not read (an
/// error: the rest is still walked), in the order met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    Note(String),
    Error(String),
}

/// What [`walk`] found: the inputs in order, what it said, and whether it
/// refused to go on (an input is the output: nothing may be read or
/// written).
#[derive(Debug, Default)]
pub struct WalkedPaths {
    pub sources: Vec<Source>,
    pub said: Vec<Said>,
    pub refused: bool,
}

/// The real folders and files a walk has reached already.
#[derive(Default)]
struct Seen {
    dirs: HashSet<Option<FileId>>,
    files: HashSet<FileId>,
}

/// Expands the paths a user names: `-` is stdin, a directory is walked
/// (sorted, recursively, symbolic links followed, loops skipped, each real
/// folder and file read once however many links reach it, gamerec's own
/// temporaries never) for record files (every file with `all`). What
/// cannot be read is said, and the rest walked. The output is never an
/// input: when a named file or one found in a walk is the output, that is
/// said and the walk is refused.
pub fn walk(paths: &[PathBuf], all: bool, output: &Output) -> WalkedPaths {
    let mut out = WalkedPaths::default();
    let mut seen = Seen::default();
    for path in paths {
        if path.as_os_str() == "-" {
            out.sources.push(Source::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => out
                .said
                .push(Said::Error(format!("{}: {e}", path.display()))),
            Ok(m) if m.is_dir() => {
                let before = out.sources.len();
                let again = seen.dirs.contains(&file_id(&m));
                walk_dir(path, all, output, &mut seen, &mut out);
                if out.refused {
                    return out;
                }
                if out.sources.len() == before && !again {
                    let none = format!("no record file found in {}", path.display());
                    out.said.push(Said::Error(none));
                }
            }
            Ok(m) => {
                if output.is(path, &m) {
                    refuse(path, &mut out);
                    return out;
                }
                out.sources.push(Source::File(path.clone()));
            }
        }
    }
    out
}

/// Whether `dir` is a position index's folder: its manifest (what
/// `index::store` writes first in `index.json`), or the tables of an index
/// of before manifests.
pub(crate) fn is_index_folder(dir: &Path) -> bool {
    let manifest = File::open(dir.join("index.json")).and_then(|f| {
        let mut head = Vec::new();
        f.take(64).read_to_end(&mut head)?;
        Ok(head)
    });
    if manifest.is_ok_and(|h| h.starts_with(br#"{"format":"gamerec-index""#)) {
        return true;
    }
    [
        "games.parquet",
        "files.parquet",
        "turns.parquet",
        "setups.parquet",
    ]
    .iter()
    .all(|n| dir.join(n).is_file())
}

/// An input that is also the output: said, and the walk refused.
fn refuse(path: &Path, out: &mut WalkedPaths) {
    out.said.push(Said::Error(format!(
        "{}: is also the output; refusing to write over an input",
        path.display()
    )));
    out.refused = true;
}

/// Walks `dir` into `out` (refused when a file found is the output).
fn walk_dir(dir: &Path, all: bool, output: &Output, seen: &mut Seen, out: &mut WalkedPaths) {
    let dirs = std::cell::RefCell::new(std::mem::take(&mut seen.dirs));
    // A folder reached again (through another link) is not walked again:
    // 50 links to one folder read its files once, not 50 times.
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            // gamerec's own temporaries (`-o`'s `.gamerec-XXXX.part`, a
            // shard's `.gamerec-shards-XXXX` staging folder, left by a run
            // that was killed) are never inputs found in a walk.
            if e.depth() > 0 && e.file_name().to_string_lossy().starts_with(".gamerec-") {
                return false;
            }
            // A position index's folder (`gamerec index -o`) holds tables,
            // not archives.
            if e.depth() > 0 && e.file_type().is_dir() && is_index_folder(e.path()) {
                return false;
            }
            !e.file_type().is_dir()
                || e.metadata()
                    .ok()
                    .and_then(|m| file_id(&m))
                    .is_none_or(|id| dirs.borrow_mut().insert(Some(id)))
        });
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_dir() => {}
            Ok(e) if !(all || is_record_file(e.path())) => {}
            Ok(e) if !e.file_type().is_file() => out.said.push(Said::Note(format!(
                "{}: skipped: not a regular file",
                e.path().display()
            ))),
            Ok(e) => {
                let meta = e.metadata().ok();
                if meta.as_ref().is_some_and(|m| output.is(e.path(), m)) {
                    refuse(e.path(), out);
                    break;
                }
                let id = meta.as_ref().and_then(file_id);
                if id.is_none_or(|id| seen.files.insert(id)) {
                    out.sources.push(Source::File(e.into_path()));
                }
            }
            Err(e) => walk_error(dir, all, &e, out),
        }
    }
    seen.dirs = dirs.into_inner();
}

/// What a walk could not read, said (a loop is a note, the rest errors).
fn walk_error(dir: &Path, all: bool, e: &walkdir::Error, out: &mut WalkedPaths) {
    let name = e
        .path()
        .map_or_else(|| dir.display().to_string(), |p| p.display().to_string());
    if e.loop_ancestor().is_some() {
        out.said.push(Said::Note(format!(
            "{name}: skipped: a link back to a folder above it"
        )));
    } else if e
        .io_error()
        .is_some_and(|io| io.kind() == io::ErrorKind::NotFound)
        && e.path().is_some_and(|p| p.is_symlink())
    {
        if all || e.path().is_some_and(is_record_file) {
            out.said
                .push(Said::Error(format!("{name}: a link to nothing (dangling)")));
        }
    } else {
        out.said.push(Said::Error(format!("{name}: {e}")));
    }
}
