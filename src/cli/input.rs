//! One way in and one way out, for every subcommand (xsv's `Config`): the
//! input options (`PATHS`, `--all`, `--from`, `--game`, `--encoding`),
//! expanding paths (directories walked, symbolic links followed, the
//! output never among the inputs), opening each input (decompressed,
//! transcoded, its format detected), reading its games through the
//! library's readers; and `-o`, written to a temporary file beside it and
//! renamed into place at the end, refused when it is also an input.

use super::messages;
use super::progress::Progress;
use clap::builder::{PossibleValue, PossibleValuesParser};
use gamerec::archive::Options;
use gamerec::decode::{Encoding, Input};
use gamerec::input::{self as read, Format};
use gamerec::lenient::Lenient;
use gamerec::problem::Problem;
use gamerec::record::{Chunk, ReadGame};
use gamerec::registry::{self, AnyGame};
use gamerec::sources::read_input;
use std::fs::{File, Metadata};
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

pub use gamerec::sources::{is_record_file, Source};

/// The options every subcommand that reads archives shares.
#[derive(clap::Args, Clone, Debug)]
pub struct InputArgs {
    /// Files or directories (walked for .grec, .txt, .json, .jsonl and
    /// .parquet files, also compressed); `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// In directories, read every file, not only record files.
    #[arg(long)]
    pub all: bool,
    /// The input format (default: detected per input).
    #[arg(long, default_value = "auto", value_name = "FORMAT", value_parser = from_values())]
    pub from: String,
    /// The rules for records without a [Game] tag.
    #[arg(long, value_name = "GAME", help = super::default_game_help())]
    pub game: Option<String>,
    /// The inputs' text encoding (default: UTF-8, or UTF-16 after a
    /// UTF-16 byte-order mark).
    #[arg(long, value_enum, default_value = "auto", value_name = "ENCODING")]
    pub encoding: EncodingArg,
    /// A Parquet input that is not a file on disk (piped, compressed) is
    /// copied to a temporary file to be read: at most this much of it
    /// (e.g. 512M, 4G).
    #[arg(long, default_value = "1G", value_name = "SIZE", value_parser = parse_size)]
    pub max_spool: u64,
}

/// `64M` → 64 × 1024²; plain digits are bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix(['B', 'b']))
        .unwrap_or(t);
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 10),
        Some((i, 'm' | 'M')) => (&t[..i], 20),
        Some((i, 'g' | 'G')) => (&t[..i], 30),
        Some((i, 't' | 'T')) => (&t[..i], 40),
        _ => (t, 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a size like 1000, 500K, 64M or 2G"))?;
    let bytes = n
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    if bytes == 0 {
        return Err("a size of at least one byte".into());
    }
    Ok(bytes)
}

/// `--lenient` and `--keep-broken` (validate, convert, stats, filter).
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct LenientArgs {
    /// Repair what can be repaired without guessing, and list every repair:
    /// wrong move numbers, a result the replay contradicts, a missing Game
    /// tag (when one game accepts every turn), a comment or tag value left
    /// open (closed at the end of its line), a truncated last move
    /// (notation/lenient.md).
    #[arg(long)]
    pub lenient: bool,
    /// From the first illegal turn on, keep the rest of a game as a comment
    /// instead of an error (implies --lenient).
    #[arg(long)]
    pub keep_broken: bool,
}

impl LenientArgs {
    /// `opts`, reading leniently when asked to.
    pub fn apply(&self, opts: Options) -> Options {
        Options {
            lenient: (self.lenient || self.keep_broken).then_some(Lenient {
                keep_broken: self.keep_broken,
            }),
            ..opts
        }
    }

    pub fn on(&self) -> bool {
        self.lenient || self.keep_broken
    }
}

/// `--encoding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingArg {
    /// UTF-8, or UTF-16 when the input starts with its byte-order mark.
    Auto,
    #[value(name = "utf-8")]
    Utf8,
    /// ISO 8859-1: every byte is one character.
    #[value(name = "latin-1")]
    Latin1,
    #[value(name = "utf-16le")]
    Utf16Le,
    #[value(name = "utf-16be")]
    Utf16Be,
}

impl EncodingArg {
    pub fn encoding(self) -> Encoding {
        match self {
            EncodingArg::Auto => Encoding::Auto,
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::Latin1 => Encoding::Latin1,
            EncodingArg::Utf16Le => Encoding::Utf16Le,
            EncodingArg::Utf16Be => Encoding::Utf16Be,
        }
    }
}

/// `--from`'s values: `auto`, the formats of the record itself, and every
/// registered site notation.
pub fn from_values() -> PossibleValuesParser {
    let auto = PossibleValue::new("auto").help("Decide from the file name and its first bytes");
    let all = Format::all().into_iter();
    PossibleValuesParser::new(
        std::iter::once(auto).chain(all.map(|(name, help)| PossibleValue::new(name).help(help))),
    )
}

/// Opening a [`Source`] with its bytes counted on the progress bar.
pub trait Open {
    /// Opens the input: decompressed when it is gzip or Zstandard, as
    /// UTF-8, its bytes counted on `progress`.
    fn open(&self, encoding: Encoding, progress: &Progress) -> io::Result<Input>;
}

impl Open for Source {
    fn open(&self, encoding: Encoding, progress: &Progress) -> io::Result<Input> {
        self.open_with(encoding, |raw| progress.count(raw))
    }
}

/// A file's identity: the same file has the same one whatever path (or
/// link) reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct FileId(u64, u64);

#[cfg(unix)]
fn file_id(meta: &Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId(meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Metadata) -> Option<FileId> {
    None
}

/// `-o FILE`, or stdout.
pub struct Output {
    path: Option<PathBuf>,
    /// The file it names, when it exists.
    id: Option<FileId>,
    /// It exists and is not a regular file (a device, a pipe): written in
    /// place, not through a temporary file.
    special: bool,
}

impl Output {
    pub fn new(path: Option<&Path>) -> Output {
        let meta = path.and_then(|p| std::fs::metadata(p).ok());
        Output {
            path: path.map(Path::to_path_buf),
            id: meta.as_ref().and_then(file_id),
            special: meta.is_some_and(|m| !m.is_file()),
        }
    }

    /// Whether `path` (a candidate input) is this output.
    fn is(&self, path: &Path, meta: &Metadata) -> bool {
        match (self.id, file_id(meta)) {
            (Some(a), Some(b)) => a == b,
            _ => self.path.as_deref().is_some_and(|o| {
                o == path
                    || (std::fs::canonicalize(o).ok())
                        .is_some_and(|c| std::fs::canonicalize(path).ok() == Some(c))
            }),
        }
    }

    /// Whether `other` writes to the same file as this output: the same
    /// file where both exist, else the same path once their folders are
    /// resolved (`sub/../x.grec` is `x.grec`).
    pub fn same_as(&self, other: &Output) -> bool {
        let (Some(a), Some(b)) = (&self.path, &other.path) else {
            return false;
        };
        if let (Some(x), Some(y)) = (self.id, other.id) {
            return x == y;
        }
        let resolved = |p: &Path| -> PathBuf {
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            match (std::fs::canonicalize(dir), p.file_name()) {
                (Ok(d), Some(name)) => d.join(name),
                _ => p.to_path_buf(),
            }
        };
        resolved(a) == resolved(b)
    }

    /// The path named, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether the output is stdout on a terminal.
    pub fn is_terminal(&self) -> bool {
        use std::io::IsTerminal;
        self.path.is_none() && io::stdout().is_terminal()
    }

    /// Opens the output for writing: stdout, or a temporary file beside
    /// the named one (renamed into place by [`Writer::commit`]). A failure
    /// is reported.
    pub fn create(&self) -> Option<Writer> {
        let Some(path) = &self.path else {
            if messages::stdout_closed() {
                return None;
            }
            return Some(Writer {
                out: io::BufWriter::with_capacity(1 << 16, Box::new(io::stdout())),
                temp: None,
                terminal: self.is_terminal().then(Vec::new),
            });
        };
        let file: io::Result<(Box<dyn Write + Send>, Option<Temporary>)> = if self.special {
            File::create(path).map(|f| (Box::new(f) as Box<dyn Write + Send>, None))
        } else {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let mut builder = tempfile::Builder::new();
            builder.prefix(".gamerec-").suffix(".part");
            #[cfg(unix)]
            {
                // Readable by its owner alone while it is written; given
                // its final mode at the end (the replaced file's, or a new
                // file's: 0666 less the umask).
                use std::os::unix::fs::PermissionsExt;
                builder.permissions(std::fs::Permissions::from_mode(0o600));
            }
            // On the list of temporaries an interruption removes.
            super::interrupt::create(
                || builder.tempfile_in(dir),
                |t| t.path().to_path_buf(),
                false,
            )
            .map(|(t, registered)| {
                let (file, temp) = t.into_parts();
                (
                    Box::new(file) as Box<dyn Write + Send>,
                    Some((temp, path.clone(), registered)),
                )
            })
        };
        match file {
            Ok((out, temp)) => Some(Writer {
                out: io::BufWriter::with_capacity(1 << 16, out),
                temp,
                terminal: None,
            }),
            Err(e) => {
                // Said of the file asked for: the temporary's own name
                // (tempfile's message carries it) means nothing to the user.
                let e = without_temporary_name(e);
                messages::error(format!("{}: {e}", path.display()));
                None
            }
        }
    }
}

/// `e` without the path tempfile adds to its message (`… at path
/// "/d/.gamerec-pjhZ61.part"`): the system's own message.
fn without_temporary_name(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.rsplit_once(" at path \"") {
        Some((message, _)) => io::Error::new(e.kind(), message.to_string()),
        None => e,
    }
}

/// A temporary file, where it goes at the end, and its place on the list
/// of temporaries an interruption removes (left after the file).
type Temporary = (tempfile::TempPath, PathBuf, super::interrupt::Registered);

/// An output being written.
pub struct Writer {
    out: io::BufWriter<Box<dyn Write + Send>>,
    temp: Option<Temporary>,
    /// Stdout is a terminal: control characters and bidirectional
    /// controls are written escaped (as `ls` does), never in files or
    /// pipes. Holds the start of a UTF-8 sequence cut by a write.
    terminal: Option<Vec<u8>>,
}

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.terminal {
            None => self.out.write_all(buf),
            Some(pending) => {
                pending.extend_from_slice(buf);
                let keep = escape_for_terminal(pending, &mut self.out, false)?;
                pending.drain(..pending.len() - keep);
                Ok(())
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        if let Some(pending) = &mut self.terminal {
            escape_for_terminal(pending, &mut self.out, true)?;
            pending.clear();
        }
        self.out.flush()
    }
}

/// Writes `bytes` to `out` with every control character but a line break
/// and a tab, every bidirectional control, and every byte that is not
/// UTF-8 escaped (`\u{1b}`, `\x9b`). Returns how many bytes at the end were
/// held back, being the start of a sequence that may go on (unless `end`).
pub fn escape_for_terminal(bytes: &[u8], out: &mut dyn Write, end: bool) -> io::Result<usize> {
    let mut chunks = bytes.utf8_chunks().peekable();
    while let Some(chunk) = chunks.next() {
        let mut rest = chunk.valid();
        while let Some(i) = rest.find(|c: char| {
            (c.is_control() || gamerec::report::is_bidi(c)) && c != '\n' && c != '\t'
        }) {
            out.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().expect("found");
            write!(out, "\\u{{{:x}}}", c as u32)?;
            rest = &rest[i + c.len_utf8()..];
        }
        out.write_all(rest.as_bytes())?;
        let bad = chunk.invalid();
        // The last invalid piece, shorter than a character, may be cut.
        if !end && chunks.peek().is_none() && !bad.is_empty() && bad.len() < 4 {
            let held = bytes.len() - (bad.as_ptr() as usize - bytes.as_ptr() as usize);
            if std::str::from_utf8(&bytes[bytes.len() - held..])
                .is_err_and(|e| e.error_len().is_none())
            {
                return Ok(held);
            }
        }
        for b in bad {
            write!(out, "\\x{b:02x}")?;
        }
    }
    Ok(0)
}

impl Writer {
    /// Flushes the output and puts a file written through a temporary one
    /// in place. Dropped without this,
    /// the temporary file is removed: a failed run leaves no half-written
    /// output.
    pub fn commit(mut self) -> io::Result<()> {
        Write::flush(&mut self)?;
        if let Some((temp, path, _registered)) = self.temp.take() {
            // A file written over keeps its permissions; a new one gets
            // a new file's.
            match std::fs::metadata(&path) {
                Ok(m) => std::fs::set_permissions(&temp, m.permissions())?,
                Err(_) => set_new_file_mode(&temp)?,
            }
            temp.persist(&path).map_err(|e| e.error)?;
        }
        Ok(())
    }
}

/// Gives `path` the mode a newly created file would have: 0666 less the
/// umask (read from /proc/self/status; 022 where it cannot be).
fn set_new_file_mode(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let umask = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("Umask:"))?;
                u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
            })
            .unwrap_or(0o022);
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666 & !umask))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Expands the command line's paths: `-` is stdin, a directory is walked
/// (sorted, recursively, symbolic links followed, loops skipped, each real
/// folder walked once however many links reach it) for record files (every
/// file with `all`). What cannot be read is reported. The output is never
/// an input: when a named file or one found in a walk is the output, that
/// is an error and `None` comes back (nothing may be read or written).
pub fn expand(paths: &[PathBuf], all: bool, output: &Output) -> Option<Vec<Source>> {
    let mut out = Vec::new();
    let mut walked = Walked::default();
    for path in paths {
        if path.as_os_str() == "-" {
            out.push(Source::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Err(e) => messages::error(format!("{}: {e}", path.display())),
            Ok(m) if m.is_dir() => {
                let before = out.len();
                let again = walked.dirs.contains(&file_id(&m));
                walk(path, all, output, &mut walked, &mut out).ok()?;
                if out.len() == before && !again {
                    messages::error(format!("no record file found in {}", path.display()));
                }
            }
            Ok(m) => {
                if output.is(path, &m) {
                    refuse(path);
                    return None;
                }
                out.push(Source::File(path.clone()));
            }
        }
    }
    Some(out)
}

/// An input that is also the output: said (exit 2).
fn refuse(path: &Path) {
    messages::error(format!(
        "{}: is also the output; refusing to write over an input",
        path.display()
    ));
}

/// The real folders and files a walk has reached already.
#[derive(Default)]
struct Walked {
    dirs: std::collections::HashSet<Option<FileId>>,
    files: std::collections::HashSet<FileId>,
}

/// Walks `dir` into `out`; `Err` (said) when a file found is the output.
fn walk(
    dir: &Path,
    all: bool,
    output: &Output,
    walked: &mut Walked,
    out: &mut Vec<Source>,
) -> Result<(), ()> {
    let dirs = std::cell::RefCell::new(std::mem::take(&mut walked.dirs));
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
            !e.file_type().is_dir()
                || e.metadata()
                    .ok()
                    .and_then(|m| file_id(&m))
                    .is_none_or(|id| dirs.borrow_mut().insert(Some(id)))
        });
    let mut result = Ok(());
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_dir() => {}
            Ok(e) => {
                let wanted = all || is_record_file(e.path());
                if !wanted {
                    continue;
                }
                if !e.file_type().is_file() {
                    messages::note(format!(
                        "{}: skipped: not a regular file",
                        e.path().display()
                    ));
                    continue;
                }
                let meta = e.metadata().ok();
                if meta.as_ref().is_some_and(|m| output.is(e.path(), m)) {
                    refuse(e.path());
                    result = Err(());
                    break;
                }
                let id = meta.as_ref().and_then(file_id);
                if id.is_none_or(|id| walked.files.insert(id)) {
                    out.push(Source::File(e.into_path()));
                }
            }
            Err(e) => walk_error(dir, all, &e),
        }
    }
    walked.dirs = dirs.into_inner();
    result
}

/// What a walk could not read, said (a loop is a note, the rest errors).
fn walk_error(dir: &Path, all: bool, e: &walkdir::Error) {
    let name = e
        .path()
        .map_or_else(|| dir.display().to_string(), |p| p.display().to_string());
    if e.loop_ancestor().is_some() {
        messages::note(format!("{name}: skipped: a link back to a folder above it"));
    } else if e
        .io_error()
        .is_some_and(|io| io.kind() == io::ErrorKind::NotFound)
        && e.path().is_some_and(|p| p.is_symlink())
    {
        if all || e.path().is_some_and(is_record_file) {
            messages::error(format!("{name}: a link to nothing (dangling)"));
        }
    } else {
        messages::error(format!("{name}: {e}"));
    }
}

/// One input opened for reading.
pub struct Opened {
    /// The file name's extension, lowercase (`None` for stdin).
    pub extension: Option<String>,
    pub reader: Input,
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

/// The reading options `--game` gives; `None` (reported) for an unknown
/// game.
pub fn options(game: Option<&str>) -> Option<Options> {
    let mut opts = Options::default();
    if let Some(name) = game {
        match registry::find(name) {
            Some(rules) => opts.default_game = Some(rules),
            None => {
                messages::error(format!(
                    "unknown game `{name}`: one of {}",
                    registry::names().join(", ")
                ));
                return None;
            }
        }
    }
    Some(opts)
}

/// What reading the inputs found, besides the games.
#[derive(Default)]
pub struct Read {
    /// Inputs opened.
    pub files: usize,
    /// Inputs that held no game.
    pub empty: usize,
    /// The walk stopped early (`each` broke or the output pipe closed).
    pub stopped: bool,
    /// Records skipped as games gamerec does not play: what, how many.
    pub skipped: Vec<(String, usize)>,
}

impl Read {
    /// Says what was skipped (once, at the end of a run): `skipped 3
    /// records of 2 other games (Amazons 2, Ataxx 1)`.
    pub fn note_skipped(&self) {
        if self.skipped.is_empty() {
            return;
        }
        let total: usize = self.skipped.iter().map(|(_, n)| n).sum();
        let kinds = self.skipped.len();
        let list: Vec<String> = self
            .skipped
            .iter()
            .take(12)
            .map(|(what, n)| format!("{what} {n}"))
            .collect();
        let more = if kinds > 12 { ", …" } else { "" };
        messages::note(format!(
            "skipped {total} record{} of {kinds} other game{} ({}{more}): gamerec does not play them",
            if total == 1 { "" } else { "s" },
            if kinds == 1 { "" } else { "s" },
            list.join(", ")
        ));
    }
}

/// What [`read_all`] hands on, in input order.
pub enum Item<'a, T> {
    /// A game (the chunk it came from, `None` for JSON) and what `map` made
    /// of it.
    Game(Option<&'a Chunk>, T),
    /// The input holds no game at all (an invalid input).
    Empty,
}

/// Reads every game of every source in order: `map` works on each game as
/// it is read (in parallel for the record format; it is told the input's
/// name), `each` sees the results in input order with the input's name, and
/// may stop the run. Inputs that cannot be opened or read to their end are
/// reported and the rest is read; a closed output pipe stops the run.
/// Errors writing the output come back.
pub fn read_all<T, M, E>(
    sources: Vec<Source>,
    args: &InputArgs,
    opts: &Options,
    progress: &Progress,
    map: M,
    each: E,
) -> io::Result<Read>
where
    T: Send,
    M: Fn(&str, Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T
        + Sync,
    E: FnMut(&str, Item<'_, T>) -> io::Result<ControlFlow<()>>,
{
    let map = |name: &str, _: Format, chunk: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| {
        map(name, chunk, game, rules)
    };
    read_all_formats(sources, args, opts, progress, map, each)
}

/// [`read_all`], `map` told each input's format too.
pub fn read_all_formats<T, M, E>(
    sources: Vec<Source>,
    args: &InputArgs,
    opts: &Options,
    progress: &Progress,
    map: M,
    mut each: E,
) -> io::Result<Read>
where
    T: Send,
    M: Fn(
            &str,
            Format,
            Option<&Chunk>,
            &mut dyn ReadGame<'_>,
            Result<&'static dyn AnyGame, Problem>,
        ) -> T
        + Sync,
    E: FnMut(&str, Item<'_, T>) -> io::Result<ControlFlow<()>>,
{
    let mut read = Read::default();
    let opts = &Options {
        max_spool: Some(args.max_spool),
        ..*opts
    };
    for source in sources {
        let name = source.name();
        let opened = match source.open(args.encoding.encoding(), progress) {
            Ok(reader) => Opened {
                extension: source.extension(),
                reader,
            },
            Err(e) => {
                messages::error(format!("{name}: {e}"));
                continue;
            }
        };
        read.files += 1;
        let mut games = 0;
        let from = match args.from.as_str() {
            "auto" => None,
            name => Format::named(name),
        };
        let map_game = |format: Format,
                        chunk: Option<&Chunk>,
                        game: &mut dyn ReadGame<'_>,
                        rules| { map(&name, format, chunk, game, rules) };
        let each_game = |chunk: Option<&Chunk>, t| {
            games += 1;
            each(&name, Item::Game(chunk, t)).map_err(output_error)
        };
        let in_place = source.parquet_file();
        let ext = opened.extension.as_deref();
        let result = read_input(
            opened.reader,
            ext,
            in_place,
            from,
            opts,
            map_game,
            each_game,
        );
        if let Ok(r) = &result {
            for (what, n) in &r.skipped {
                match read.skipped.iter_mut().find(|(w, _)| w == what) {
                    Some((_, total)) => *total += n,
                    None => read.skipped.push((what.clone(), *n)),
                }
            }
        }
        let skipped_only = result.as_ref().is_ok_and(|r| !r.skipped.is_empty());
        match result.map(|r| r.stopped) {
            Ok(true) => {
                read.stopped = true;
                read.note_skipped();
                return Ok(read);
            }
            Ok(false) if games == 0 && skipped_only => {}
            Ok(false) if games == 0 => {
                read.empty += 1;
                messages::invalid();
                if each(&name, Item::Empty)?.is_break() {
                    read.stopped = true;
                    return Ok(read);
                }
            }
            Ok(false) => {}
            Err(e) => match into_output_error(e) {
                Ok(written) => return Err(written),
                Err(e) => messages::error(format!("{name}: {e}")),
            },
        }
    }
    read.note_skipped();
    Ok(read)
}

/// An error raised while writing the output, marked so that it is not taken
/// for an error reading the input.
fn output_error(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), OutputError(e))
}

/// The output's error, unwrapped; or the input's, as it was.
fn into_output_error(e: io::Error) -> Result<io::Error, io::Error> {
    if !e.get_ref().is_some_and(|inner| inner.is::<OutputError>()) {
        return Err(e);
    }
    let inner = e.into_inner().expect("checked above");
    Ok(inner
        .downcast::<OutputError>()
        .map(|o| o.0)
        .unwrap_or_else(io::Error::other))
}

#[derive(Debug)]
struct OutputError(io::Error);

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for OutputError {}

#[cfg(test)]
mod tests {
    use super::escape_for_terminal;

    fn escaped(pieces: &[&[u8]]) -> String {
        let (mut out, mut pending) = (Vec::new(), Vec::new());
        for piece in pieces {
            pending.extend_from_slice(piece);
            let keep = escape_for_terminal(&pending, &mut out, false).unwrap();
            pending.drain(..pending.len() - keep);
        }
        escape_for_terminal(&pending, &mut out, true).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn data_to_a_terminal_has_its_controls_escaped_even_when_cut_between_writes() {
        let text = "[Event \"a\u{1b}]0;x\u{7}b\u{202e}c\u{9b}\"]\n\té\n".as_bytes();
        let want = "[Event \"a\\u{1b}]0;x\\u{7}b\\u{202e}c\\u{9b}\"]\n\té\n";
        assert_eq!(escaped(&[text]), want);
        // Cut at every byte: the same.
        for at in 0..text.len() {
            assert_eq!(escaped(&[&text[..at], &text[at..]]), want, "cut at {at}");
        }
        // A byte that is not UTF-8 is shown as its value.
        assert_eq!(escaped(&[b"a\x9bb", b"\xff"]), "a\\x9bb\\xff");
    }
}
