//! `gamerec._native`: the Python package's compiled half, a thin layer over
//! the gamerec library. Inputs are opened as the command line opens them
//! (`gamerec::sources`), games are read on the library's worker threads
//! with the GIL released, and what comes back is built from the same
//! library functions as the command line's output: `validate()`'s reports
//! are `validate --format json`'s objects, `stats()`'s table is
//! `stats --format parquet`'s, handed over as Arrow data.

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use arrow_schema::SchemaRef;
use crossbeam_channel::{bounded, Receiver, Sender};
use gamerec::archive::{self, GameReport, JsonGame, Options};
use gamerec::convert::json::{game_value, ErrorOut};
use gamerec::convert::parquet::{table_metadata, Rows, BATCH_GAMES};
use gamerec::convert::{text, Collect, Converted, TraceOptions};
use gamerec::decode::{self, Encoding, Input};
use gamerec::input::{read_nth, Format};
use gamerec::picture::svg::{self, SvgOptions};
use gamerec::problem::{Code, Problem};
use gamerec::record::{Chunk, ReadGame};
use gamerec::registry::{self, tell, AnyGame};
use gamerec::sources::{self, read_input};
use gamerec::stats::{game_kinds, game_row, summary_kinds, traced, Summary};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyCapsule, PyDict, PyList, PyString};
use serde_json::Value;
use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    gamerec,
    RecordError,
    PyException,
    "An input that cannot be read (missing, unreadable, not in the format \
     named), or a position a game cannot reach; the message says where."
);

/// Games read ahead of the Python code that takes them.
const AHEAD: usize = 1024;

// ---------------------------------------------------------------------------
// Inputs

/// What `read()`, `validate()` and `stats()` accept as one input.
enum Src {
    Path(PathBuf),
    Bytes(Vec<u8>),
    /// A binary or text file object (anything with `read`).
    Stream(Py<PyAny>, String),
}

/// One input ready to open: its name in reports, and how to open it.
struct Pending {
    name: String,
    extension: Option<String>,
    src: Src,
}

/// The inputs `obj` names: one source, or a list (tuple, any iterable
/// that is not itself a source) of them. A folder stands for its record
/// files.
fn pending_all(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Pending>> {
    if let Some(src) = one_source(obj)? {
        return expand(src);
    }
    let mut out = Vec::new();
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "not an input: {} (give a path, bytes, record text or a file object, or a list of \
             them)",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    for item in items {
        let item = item?;
        match one_source(&item)? {
            Some(src) => out.extend(expand(src)?),
            None => {
                return Err(PyTypeError::new_err(format!(
                    "not an input: {} (give a path, bytes, record text or a file object)",
                    item.get_type().name()?
                )))
            }
        }
    }
    Ok(out)
}

/// `obj` as one input, or `None` when it is not one (a list, say).
fn one_source(obj: &Bound<'_, PyAny>) -> PyResult<Option<Src>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Some(Src::Bytes(b.as_bytes().to_vec())));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Some(Src::Bytes(b.to_vec())));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_cow()?;
        // Record text has lines; a path has none.
        return Ok(Some(match s.contains('\n') {
            true => Src::Bytes(s.as_bytes().to_vec()),
            false => Src::Path(PathBuf::from(s.as_ref())),
        }));
    }
    if obj.hasattr("__fspath__")? {
        return Ok(Some(Src::Path(obj.extract::<PathBuf>()?)));
    }
    if obj.hasattr("read")? {
        let name = obj
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "<stream>".into());
        return Ok(Some(Src::Stream(obj.clone().unbind(), name)));
    }
    if obj.cast::<pyo3::types::PyMemoryView>().is_ok() {
        return Ok(Some(Src::Bytes(obj.extract::<Vec<u8>>()?)));
    }
    Ok(None)
}

/// A source as the inputs it stands for (a folder: its record files).
fn expand(src: Src) -> PyResult<Vec<Pending>> {
    match src {
        Src::Path(p) if p.is_dir() => {
            let files =
                sources::record_files(&p).map_err(|e| RecordError::new_err(e.to_string()))?;
            if files.is_empty() {
                return Err(RecordError::new_err(format!(
                    "no record file found in {}",
                    p.display()
                )));
            }
            Ok(files
                .into_iter()
                .map(|f| Pending {
                    name: f.display().to_string(),
                    extension: sources::extension(&f),
                    src: Src::Path(f),
                })
                .collect())
        }
        Src::Path(p) => Ok(vec![Pending {
            name: p.display().to_string(),
            extension: sources::extension(&p),
            src: Src::Path(p),
        }]),
        Src::Bytes(b) => Ok(vec![Pending {
            name: "<bytes>".into(),
            extension: None,
            src: Src::Bytes(b),
        }]),
        Src::Stream(obj, name) => Ok(vec![Pending {
            extension: sources::extension(std::path::Path::new(&name)),
            name: name.clone(),
            src: Src::Stream(obj, name),
        }]),
    }
}

/// A Python file object read from Rust (the GIL taken for each read).
struct PyReader(Py<PyAny>);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self
                .0
                .call_method1(py, "read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let data = data.bind(py);
            let bytes: Vec<u8> = if let Ok(s) = data.cast::<PyString>() {
                // A text file: its characters as UTF-8 (a read of n
                // characters may be longer than n bytes: what does not
                // fit is an error, so read text in small pieces).
                s.to_cow()
                    .map_err(|e| io::Error::other(e.to_string()))?
                    .as_bytes()
                    .to_vec()
            } else {
                data.extract::<Vec<u8>>()
                    .map_err(|_| io::Error::other("read() returned neither bytes nor str"))?
            };
            if bytes.len() > buf.len() {
                return Err(io::Error::other(
                    "read(n) returned more than n bytes (a text file's characters?)",
                ));
            }
            buf[..bytes.len()].copy_from_slice(&bytes);
            Ok(bytes.len())
        })
    }
}

/// A text-mode file object hands out characters, not bytes: reads of a
/// quarter of the buffer always fit (a character is at most 4 bytes).
struct Quartered(PyReader);

impl Read for Quartered {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (buf.len() / 4).max(1);
        if buf.len() < 4 {
            let mut four = [0u8; 4];
            let got = self.0.read(&mut four[..])?;
            let take = got.min(buf.len());
            buf[..take].copy_from_slice(&four[..take]);
            return Ok(take);
        }
        self.0.read(&mut buf[..n])
    }
}

/// How to read: the format (`None`: detected), the rules of records
/// without a `Game` tag, the encoding.
#[derive(Clone, Copy)]
struct How {
    from: Option<Format>,
    opts: Options,
    encoding: Encoding,
}

fn how(format: Option<&str>, game: Option<&str>, encoding: Option<&str>) -> PyResult<How> {
    let from = match format {
        None | Some("auto") => None,
        Some(name) => Some(Format::named(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown format {name:?}: one of auto, {}",
                Format::all()
                    .iter()
                    .map(|(name, _)| *name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?),
    };
    let mut opts = Options::default();
    if let Some(name) = game {
        opts.default_game = Some(registry::find(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown game {name:?}: one of {}",
                registry::names().join(", ")
            ))
        })?);
    }
    let encoding = match encoding {
        None | Some("auto") => Encoding::Auto,
        Some("utf-8") | Some("utf8") => Encoding::Utf8,
        Some("latin-1") | Some("latin1") | Some("iso-8859-1") => Encoding::Latin1,
        Some("utf-16le") => Encoding::Utf16Le,
        Some("utf-16be") => Encoding::Utf16Be,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "unknown encoding {other:?}: one of auto, utf-8, latin-1, utf-16le, utf-16be"
            )))
        }
    };
    Ok(How {
        from,
        opts,
        encoding,
    })
}

/// Opens one input: decompressed, decoded; the file itself too when it is
/// a Parquet file on disk (read in place).
fn open(p: &Pending, encoding: Encoding, py_text: bool) -> io::Result<(Input, Option<File>)> {
    match &p.src {
        Src::Path(path) => {
            let input = decode::open(
                Box::new(File::open(path)?),
                sources::named_compression(path),
                encoding,
            )?;
            Ok((input, sources::parquet_file(path)))
        }
        Src::Bytes(b) => Ok((
            decode::open(Box::new(io::Cursor::new(b.clone())), None, encoding)?,
            None,
        )),
        Src::Stream(obj, _) => {
            let obj = Python::attach(|py| obj.clone_ref(py));
            let raw: Box<dyn Read + Send> = match py_text {
                true => Box::new(Quartered(PyReader(obj))),
                false => Box::new(PyReader(obj)),
            };
            Ok((decode::open(raw, None, encoding)?, None))
        }
    }
}

/// Whether a file object is in text mode (hands out `str`).
fn is_text_stream(p: &Pending) -> bool {
    let Src::Stream(obj, _) = &p.src else {
        return false;
    };
    Python::attach(|py| {
        let io = py.import("io").ok();
        let text = io.and_then(|io| io.getattr("TextIOBase").ok());
        text.is_some_and(|t| obj.bind(py).is_instance(&t).unwrap_or(false))
    })
}

/// Reads every game of one input: `map` on the worker threads, `each` in
/// order with the game's 1-based index; `Ok(false)` when it held no game.
fn read_one<T, M, E>(p: &Pending, how: &How, map: M, mut each: E) -> io::Result<(bool, bool)>
where
    T: Send,
    M: Fn(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T + Sync,
    E: FnMut(Option<&Chunk>, usize, T) -> io::Result<ControlFlow<()>>,
{
    let text = is_text_stream(p);
    let (input, in_place) = open(p, how.encoding, text)?;
    let mut index = 0;
    let map = |_: Format, chunk: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| {
        map(chunk, game, rules)
    };
    let each = |chunk: Option<&Chunk>, t: T| {
        index += 1;
        each(chunk, index, t)
    };
    let ext = p.extension.as_deref();
    let reading = read_input(input, ext, in_place, how.from, &how.opts, map, each)?;
    Ok((index > 0 || !reading.skipped.is_empty(), reading.stopped))
}

/// `jobs=`: a positive number of threads, or `None` (or 0) for one per
/// core.
fn jobs_of(jobs: Option<i64>) -> PyResult<usize> {
    match jobs {
        None => Ok(0),
        Some(n) if n >= 0 => Ok(usize::try_from(n).unwrap_or(usize::MAX).min(1024)),
        Some(n) => Err(PyValueError::new_err(format!(
            "jobs={n}: give a positive number of threads, or None for one per core"
        ))),
    }
}

// ---------------------------------------------------------------------------
// Games

/// Where a problem stands in its input: line, column, byte offset.
type At = Option<(usize, usize, usize)>;

/// A game's problem, as Python sees it.
#[pyclass(frozen, get_all, module = "gamerec", name = "GameError")]
#[derive(Clone)]
struct GameError {
    /// A stable problem code (`too-far`, `malformed-tag`, …).
    code: String,
    /// The sentence a player reads.
    message: String,
    /// 1-based; `None` for a game read from JSON or Parquet.
    line: Option<usize>,
    column: Option<usize>,
    offset: Option<usize>,
    /// The offending turn's ply, when the problem is a turn.
    ply: Option<usize>,
    /// The offending token as written.
    token: Option<String>,
}

#[pymethods]
impl GameError {
    fn __repr__(&self) -> String {
        format!(
            "GameError(code={:?}, ply={}, line={}, column={}, token={:?}, message={:?})",
            self.code,
            opt(self.ply),
            opt(self.line),
            opt(self.column),
            self.token.as_deref().unwrap_or(""),
            self.message
        )
    }

    fn __str__(&self) -> String {
        self.message.clone()
    }
}

fn opt(n: Option<usize>) -> String {
    n.map_or_else(|| "None".into(), |n| n.to_string())
}

impl GameError {
    fn new(p: &Problem, at: At) -> GameError {
        GameError {
            code: p.code.as_str().to_string(),
            message: p.message.clone(),
            line: at.map(|a| a.0),
            column: at.map(|a| a.1),
            offset: at.map(|a| a.2),
            ply: p.ply,
            token: p.token.as_deref().map(str::to_string),
        }
    }
}

/// How a valid game ended.
#[pyclass(frozen, get_all, module = "gamerec", name = "Outcome")]
#[derive(Clone)]
struct PyOutcome {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    result: String,
    /// The winning side's tag name (`Red`, `White`, …); `None` for a draw
    /// or an unfinished game.
    winner: Option<String>,
    /// `unfinished`, `resignation`, `agreement`, or the rules' reason.
    reason: String,
    /// The ply at which the game ended (or the record stops).
    ply: usize,
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(result={:?}, winner={}, reason={:?}, ply={})",
            self.result,
            self.winner
                .as_deref()
                .map_or_else(|| "None".into(), |w| format!("{w:?}")),
            self.reason,
            self.ply
        )
    }
}

/// One game, replayed.
#[pyclass(frozen, module = "gamerec")]
struct Game {
    file: String,
    index: usize,
    game: Converted,
    rules: Option<&'static dyn AnyGame>,
    at: At,
    /// Canonical text.
    text: String,
    /// The record as written, when it was read from text (read back for
    /// positions and pictures, as the command line reads it).
    written: Option<Vec<u8>>,
}

/// Builds a game as it is read (on a worker thread).
fn build(
    chunk: Option<&Chunk>,
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    default_game: Option<&'static dyn AnyGame>,
) -> Game {
    let known = rules.as_ref().ok().copied().or(default_game);
    let mut collect = Collect::new(0);
    tell(game, rules, TraceOptions::default(), &mut collect);
    let converted = collect.into_game();
    let at = match (&converted.error, chunk) {
        (Some(p), Some(c)) => {
            let (line, column) = c.locate(p.span.start);
            Some((line, column, p.span.start))
        }
        _ => None,
    };
    let mut text = String::new();
    text::write_game(&converted, &mut text);
    Game {
        file: String::new(),
        index: 0,
        game: converted,
        rules: known,
        at,
        text,
        written: chunk.map(|c| c.bytes.clone()),
    }
}

impl Game {
    /// The number of legal plies.
    fn legal_plies(&self) -> usize {
        self.game
            .turns
            .iter()
            .take_while(|t| t.facts.is_some())
            .count()
    }

    /// The position after `ply` plies (`None`: after every legal one) as
    /// the library's `before ply` argument; an error when the game cannot
    /// reach it.
    fn before(&self, ply: Option<i64>) -> PyResult<Option<usize>> {
        let legal = self.legal_plies();
        if let Some(p) = &self.game.error {
            if p.ply.is_none() {
                return Err(self.located(p));
            }
        }
        match ply {
            // An invalid game ends where its error stopped the replay.
            None if self.game.error.is_some() => Ok(Some(legal + 1)),
            None => Ok(None),
            Some(k) if k < 0 => Err(PyIndexError::new_err(format!(
                "ply {k}: give the number of plies played, 0 for the start"
            ))),
            Some(k) => {
                let k = k as usize;
                if k > legal {
                    return match &self.game.error {
                        Some(p) => Err(self.located(p)),
                        None => Err(PyIndexError::new_err(format!(
                            "ply {k}: the game has {legal} plies"
                        ))),
                    };
                }
                Ok((k < legal || self.game.error.is_some()).then_some(k + 1))
            }
        }
    }

    /// The game's problem as an exception, located.
    fn located(&self, p: &Problem) -> PyErr {
        let mut place = self.file.clone();
        if let Some((line, column, _)) = self.at {
            place.push_str(&format!(":{line}:{column}"));
        }
        let ply = p.ply.map_or_else(String::new, |n| format!(", ply {n}"));
        RecordError::new_err(format!(
            "{place}: game {}{ply}: {} [{}]",
            self.index,
            p.message,
            p.code.as_str()
        ))
    }

    /// Reads the game back from its canonical text and hands it to `f`.
    fn again<T>(
        &self,
        f: impl FnOnce(&'static dyn AnyGame, &mut dyn ReadGame<'_>) -> PyResult<T>,
    ) -> PyResult<T> {
        let Some(rules) = self.rules else {
            return match &self.game.error {
                Some(p) => Err(self.located(p)),
                None => Err(RecordError::new_err("the game's rules are not known")),
            };
        };
        let opts = Options {
            default_game: Some(rules),
            ..Options::default()
        };
        let record = self.written.as_deref().unwrap_or(self.text.as_bytes());
        let got = read_nth(
            io::Cursor::new(record),
            Format::Text,
            &opts,
            1,
            |_, game, found| f(found.unwrap_or(rules), game),
        );
        match got {
            Ok(Some(r)) => r,
            Ok(None) => Err(RecordError::new_err("the game could not be read back")),
            Err(e) => Err(RecordError::new_err(e.to_string())),
        }
    }

    fn problem_err(&self, p: Problem) -> PyErr {
        match p.code {
            Code::NoSuchPly => PyIndexError::new_err(p.message),
            _ => self.located(&p),
        }
    }
}

#[pymethods]
impl Game {
    /// The input the game came from (`<bytes>`, `<stream>` or the path).
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// 1-based position of the game in its input.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// The tags in canonical order (`Game`, `Event`, `Site`, `Date`,
    /// `Round`, the sides, `Result`, then the rest as written); a repeated
    /// tag keeps its first value here (`tag_pairs` has them all).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, value) in &self.game.tags {
            if !d.contains(name)? {
                d.set_item(name, value)?;
            }
        }
        Ok(d)
    }

    /// Every tag, in canonical order, repeats included.
    #[getter]
    fn tag_pairs(&self) -> Vec<(String, String)> {
        self.game.tags.clone()
    }

    /// The rules' name (`oshi`, …); `None` when unknown.
    #[getter]
    fn game_type(&self) -> Option<&'static str> {
        self.game.game
    }

    /// The legal turns, canonical.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game
            .turns
            .iter()
            .take_while(|t| t.facts.is_some())
            .map(|t| t.text.to_string())
            .collect()
    }

    /// Every turn as written (the illegal one and those after it too).
    #[getter]
    fn written(&self) -> Vec<String> {
        self.game
            .turns
            .iter()
            .map(|t| t.written.clone().unwrap_or_else(|| t.text.to_string()))
            .collect()
    }

    /// Comments before the first turn.
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.game.comments.clone()
    }

    /// Whether the game replays under its rules.
    #[getter]
    fn valid(&self) -> bool {
        self.game.is_valid()
    }

    /// How the game ended; `None` when it is invalid.
    #[getter]
    fn outcome(&self) -> Option<PyOutcome> {
        self.game.outcome.as_ref().map(|o| PyOutcome {
            result: o.result.as_str().to_string(),
            winner: o.winner.map(str::to_string),
            reason: o.reason.to_string(),
            ply: o.ply,
        })
    }

    /// What is wrong with the game; `None` when it is valid.
    #[getter]
    fn error(&self) -> Option<GameError> {
        self.game.error.as_ref().map(|p| GameError::new(p, self.at))
    }

    /// The position after `ply` plies (0: the start; `None`: after the
    /// last legal turn), in the game's Position notation.
    #[pyo3(signature = (ply=None))]
    fn position(&self, py: Python<'_>, ply: Option<i64>) -> PyResult<String> {
        let before = self.before(ply)?;
        py.detach(|| {
            self.again(|rules, game| match rules.legal_moves_at(game, before) {
                Ok(l) => Ok(l.position),
                Err(p) => Err(self.problem_err(p)),
            })
        })
    }

    /// The legal turns after `ply` plies (0: the start; `None`: after the
    /// last legal turn), canonical, sorted; empty when the game is over.
    #[pyo3(signature = (ply=None))]
    fn legal_moves(&self, py: Python<'_>, ply: Option<i64>) -> PyResult<Vec<String>> {
        let before = self.before(ply)?;
        py.detach(|| {
            self.again(|rules, game| match rules.legal_moves_at(game, before) {
                Ok(l) => Ok(l.moves),
                Err(p) => Err(self.problem_err(p)),
            })
        })
    }

    /// The position after `ply` plies as an SVG picture (`size`: width in
    /// pixels; `flip`: seen from the other side; `rotate`: degrees
    /// clockwise).
    #[pyo3(signature = (ply=None, *, size=480, flip=false, rotate=0.0))]
    fn svg(
        &self,
        py: Python<'_>,
        ply: Option<i64>,
        size: u32,
        flip: bool,
        rotate: f64,
    ) -> PyResult<String> {
        let before = self.before(ply)?;
        if size == 0 {
            return Err(PyValueError::new_err(
                "size=0: give the picture's width in pixels (1 or more)",
            ));
        }
        if !rotate.is_finite() {
            return Err(PyValueError::new_err(format!(
                "rotate={rotate}: give a number of degrees"
            )));
        }
        let opts = SvgOptions { size, flip, rotate };
        py.detach(|| {
            self.again(|rules, game| {
                let shown = rules.scene_at(game, before);
                match (shown.scene, shown.problem) {
                    (Some(scene), None) => Ok(svg::write(&scene, &opts)),
                    (_, Some(p)) => Err(self.problem_err(p)),
                    (None, None) => Err(RecordError::new_err("no picture of this position")),
                }
            })
        })
    }

    /// A notebook shows the game's last position.
    fn _repr_svg_(&self, py: Python<'_>) -> Option<String> {
        self.svg(py, None, 360, false, 0.0).ok()
    }

    /// The game in canonical text (the record format): tags in canonical
    /// order, canonical spellings, every comment kept.
    fn to_text(&self) -> String {
        self.text.clone()
    }

    /// The game as one JSON object of `convert --to jsonl`
    /// (notation/json.md).
    fn to_json(&self) -> PyResult<String> {
        let error = self.game.error.as_ref().map(|p| ErrorOut {
            code: p.code.as_str(),
            message: &p.message,
            line: self.at.map(|a| a.0),
            column: self.at.map(|a| a.1),
            ply: p.ply,
            token: p.token.as_deref(),
        });
        let mut g = self.game.clone();
        g.index = self.index;
        game_value(&self.file, &g, error).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        let sides = self.game.sides;
        let names: Vec<&str> = sides
            .iter()
            .map(|s| self.game.tag(s).unwrap_or("?"))
            .collect();
        let verdict = match (&self.game.outcome, &self.game.error) {
            (Some(o), _) => format!("{} ({})", o.result.as_str(), o.reason),
            (_, Some(p)) => format!("invalid: {}", p.code.as_str()),
            _ => String::new(),
        };
        format!(
            "<Game {} of {}: {}, {} vs {}, {} plies, {verdict}>",
            self.index,
            self.file,
            self.game.game.unwrap_or("unknown game"),
            names[0],
            names.get(1).unwrap_or(&"?"),
            self.legal_plies()
        )
    }
}

// ---------------------------------------------------------------------------
// read()

/// What the reading thread hands the iterator.
enum Next {
    Game(Box<Game>),
    Failed(String),
}

/// The games of `read()`, read ahead on a thread of their own. Dropped
/// (read to the end or not), it stops that thread and waits for it to end:
/// no thread of ours outlives the iterator.
#[pyclass(module = "gamerec")]
struct Games {
    rx: Option<Receiver<Next>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Games {
    fn drop(&mut self) {
        // No receiver: the thread's next send fails and it returns.
        drop(self.rx.take());
        if let Some(thread) = self.thread.take() {
            // The GIL let go while waiting: the thread may be reading a
            // Python file object.
            Python::attach(|py| py.detach(|| drop(thread.join())));
        }
    }
}

#[pymethods]
impl Games {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Game>> {
        let Some(rx) = self.rx.clone() else {
            return Ok(None);
        };
        match py.detach(move || rx.recv()) {
            Ok(Next::Game(g)) => Ok(Some(*g)),
            Ok(Next::Failed(message)) => Err(RecordError::new_err(message)),
            Err(_) => Ok(None),
        }
    }
}

fn read_thread(inputs: Vec<Pending>, how: How, tx: Sender<Next>, jobs: usize) {
    gamerec::pipeline::with_jobs(jobs, || {
        for p in &inputs {
            let default_game = how.opts.default_game;
            let map = |chunk: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| {
                build(chunk, game, rules, default_game)
            };
            let each = |_: Option<&Chunk>, index: usize, mut g: Game| {
                g.file = p.name.clone();
                g.index = index;
                match tx.send(Next::Game(Box::new(g))) {
                    Ok(()) => Ok(ControlFlow::Continue(())),
                    Err(_) => Ok(ControlFlow::Break(())),
                }
            };
            match read_one(p, &how, map, each) {
                Ok((_, true)) => return,
                Ok(_) => {}
                Err(e) => {
                    if tx.send(Next::Failed(format!("{}: {e}", p.name))).is_err() {
                        return;
                    }
                }
            }
        }
    })
}

/// read(source, format=None, *, game=None, encoding=None, jobs=None)
#[pyfunction]
#[pyo3(signature = (source, format=None, *, game=None, encoding=None, jobs=None))]
fn read(
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
    jobs: Option<i64>,
) -> PyResult<Games> {
    let how = how(format, game, encoding)?;
    let inputs = pending_all(source)?;
    let (tx, rx) = bounded(AHEAD);
    let jobs = jobs_of(jobs)?;
    let thread = std::thread::Builder::new()
        .name("gamerec-read".into())
        .spawn(move || {
            // A panic of the library would end the iteration silently, as
            // if the input ended there: it is said instead.
            let said = tx.clone();
            let run = std::panic::AssertUnwindSafe(|| read_thread(inputs, how, tx, jobs));
            if let Err(panic) = std::panic::catch_unwind(run) {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let _ = said.send(Next::Failed(format!(
                    "internal error while reading (a bug of gamerec: please report it): {what}"
                )));
            }
        })
        .map_err(|e| RecordError::new_err(format!("cannot start a reading thread: {e}")))?;
    Ok(Games {
        rx: Some(rx),
        thread: Some(thread),
    })
}

// ---------------------------------------------------------------------------
// validate() and stats()

/// validate(sources, jobs=None, *, format=None, game=None, encoding=None)
#[pyfunction]
#[pyo3(signature = (sources, jobs=None, *, format=None, game=None, encoding=None))]
fn validate<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    jobs: Option<i64>,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let how = how(format, game, encoding)?;
    let inputs = pending_all(sources)?;
    let jobs = jobs_of(jobs)?;
    let values = py.detach(|| -> Result<Vec<Value>, String> {
        gamerec::pipeline::with_jobs(jobs, || {
            let mut out = Vec::new();
            for p in &inputs {
                let map = |_: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| {
                    archive::report(game, rules, false)
                };
                let each = |chunk: Option<&Chunk>, index: usize, mut report: GameReport| {
                    report.index = Some(index);
                    let line = JsonGame::new(&p.name, chunk, &report, false);
                    out.push(serde_json::to_value(&line).map_err(io::Error::other)?);
                    Ok(ControlFlow::Continue(()))
                };
                let (any, _) =
                    read_one(p, &how, map, each).map_err(|e| format!("{}: {e}", p.name))?;
                if !any {
                    let report = GameReport::no_game();
                    let nothing = Chunk::from_bytes(Vec::new());
                    let line = JsonGame::new(&p.name, Some(&nothing), &report, false);
                    out.push(serde_json::to_value(&line).map_err(|e| e.to_string())?);
                }
            }
            Ok(out)
        })
    });
    let values = values.map_err(RecordError::new_err)?;
    let list = PyList::empty(py);
    for v in &values {
        list.append(to_py(py, v)?)?;
    }
    Ok(list)
}

/// A JSON value as Python objects (objects keep their keys' order).
fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => u.into_pyobject(py)?.into_any(),
            (_, Some(i), _) => i.into_pyobject(py)?.into_any(),
            (_, _, Some(f)) => f.into_pyobject(py)?.into_any(),
            _ => py.None().into_bound(py),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// The statistics as an Arrow C stream (a PyCapsule named
/// `arrow_array_stream`): the record batches of `stats --format
/// parquet`'s table, handed to pyarrow without a file between (the
/// package's `stats()` imports it). Every thread of ours has ended when it
/// returns.
#[pyfunction]
#[pyo3(signature = (sources, jobs=None, summary=false, *, format=None, game=None, encoding=None))]
fn stats_arrow<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    jobs: Option<i64>,
    summary: bool,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyCapsule>> {
    let how = how(format, game, encoding)?;
    let inputs = pending_all(sources)?;
    let jobs = jobs_of(jobs)?;
    let batches = py.detach(|| -> Result<(SchemaRef, Vec<RecordBatch>), String> {
        gamerec::pipeline::with_jobs(jobs, || {
            let (name, kinds) = match summary {
                true => ("summary", summary_kinds()),
                false => ("stats", game_kinds()),
            };
            let mut rows = Rows::new(&kinds);
            let mut batches = Vec::new();
            let mut totals = Summary::default();
            for p in &inputs {
                let map =
                    |_: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| traced(game, rules);
                let each = |_: Option<&Chunk>, index: usize, mut game: Converted| {
                    game.index = index;
                    match summary {
                        true => totals.add(&game),
                        false => {
                            rows.push(&game_row(&p.name, &game).cells())?;
                            if rows.pending() >= BATCH_GAMES {
                                batches.extend(rows.batch()?);
                            }
                        }
                    }
                    Ok(ControlFlow::Continue(()))
                };
                read_one(p, &how, map, each).map_err(|e| format!("{}: {e}", p.name))?;
            }
            for row in totals.rows() {
                let values: Vec<Value> = row.into_iter().map(|(_, v)| v).collect();
                rows.push(&values).map_err(|e| e.to_string())?;
            }
            batches.extend(rows.batch().map_err(|e| e.to_string())?);
            let metadata: std::collections::HashMap<String, String> =
                table_metadata(name).into_iter().collect();
            let schema = Arc::new(rows.schema().as_ref().clone().with_metadata(metadata));
            let batches = batches
                .into_iter()
                .map(|b| b.with_schema(schema.clone()).map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            Ok((schema, batches))
        })
    });
    let (schema, batches) = batches.map_err(RecordError::new_err)?;
    let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
    let stream = FFI_ArrowArrayStream::new(Box::new(reader));
    PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
}

/// The files `sources` (paths) stand for: a folder's record files, sorted;
/// a file as it is.
#[pyfunction]
fn inputs(sources: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    pending_all(sources)?
        .into_iter()
        .map(|p| match p.src {
            Src::Path(_) => Ok(p.name),
            _ => Err(PyTypeError::new_err("inputs() takes paths only")),
        })
        .collect()
}

/// The games gamerec knows, by the `Game` tag's value.
#[pyfunction]
fn games() -> Vec<&'static str> {
    registry::names()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RecordError", m.py().get_type::<RecordError>())?;
    m.add_class::<Game>()?;
    m.add_class::<GameError>()?;
    m.add_class::<PyOutcome>()?;
    m.add_class::<Games>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(stats_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(inputs, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
