//! The package's functions: `read()` (games streamed to Python from a
//! thread of their own), `validate()`, `stats()` (as Arrow data),
//! `convert()`, `inputs()` and `games()` — each over the library's one
//! reading path (`inputs::read`) and the same library functions as the
//! command line's output.

use crate::game::{build, Game};
use crate::sources::sources_of;
use crate::values::to_py;
use crate::{how, RecordError, AHEAD};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use arrow_schema::SchemaRef;
use crossbeam_channel::{bounded, Receiver, Sender};
use gamerec::convert::{ConvertEvent, Export};
use gamerec::formats::parquet::{table_metadata, Batches, BATCH_GAMES};
use gamerec::formats::write::Framed;
use gamerec::formats::{self as table, Dest, Format, Visit};
use gamerec::inputs::{self as reader, How, Item};
use gamerec::output::Output;
use gamerec::reading::{GameReport, Judging};
use gamerec::record::Chunk;
use gamerec::registry;
use gamerec::sink::Converted;
use gamerec::sources::{self, Source};
use gamerec::stats::{game_kinds, game_row, summary_kinds, traced, Summary};
use gamerec::validate::JsonGame;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyList, PyString};
use serde_json::Value;
use std::io;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

/// What the reading thread hands the iterator.
enum Next {
    Game(Box<Game>),
    Failed(String),
}

/// The games of `read()`, read ahead on a thread of their own. Dropped
/// (read to the end or not), it stops that thread and waits for it to end:
/// no thread of ours outlives the iterator.
#[pyclass(module = "gamerec")]
pub struct Games {
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

/// Reads every game of `inputs` and hands each to the iterator; an input
/// that cannot be read is an error the iterator raises when it gets
/// there, and the rest is read.
fn read_thread(inputs: &[Source], how: How<'static>, tx: Sender<Next>) {
    let default_game = how.opts.default_game;
    let _ = reader::read(
        inputs,
        &how,
        |v: Visit<'_, '_>| build(v, default_game),
        |item| {
            let next = match item {
                Item::Game(seen) => {
                    let mut g = seen.value;
                    g.file = seen.input.to_string();
                    g.index = seen.index;
                    Next::Game(Box::new(g))
                }
                Item::Failed { input, error } => Next::Failed(format!("{input}: {error}")),
                Item::Empty { .. } => return Ok(ControlFlow::Continue(())),
            };
            match tx.send(next) {
                Ok(()) => Ok(ControlFlow::Continue(())),
                Err(_) => Ok(ControlFlow::Break(())),
            }
        },
    );
}

/// read(source, format=None, *, game=None, encoding=None, jobs=None)
#[pyfunction]
#[pyo3(signature = (source, format=None, *, game=None, encoding=None, jobs=None))]
pub fn read(
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
    jobs: Option<i64>,
) -> PyResult<Games> {
    let how = how(format, game, encoding, jobs)?;
    let inputs = sources_of(source, &Output::new(None))?;
    let (tx, rx) = bounded(AHEAD);
    let thread = std::thread::Builder::new()
        .name("gamerec-read".into())
        .spawn(move || {
            // A panic of the library would end the iteration silently, as
            // if the input ended there: it is said instead.
            let said = tx.clone();
            let run = std::panic::AssertUnwindSafe(|| read_thread(&inputs, how, tx));
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
// validate(), stats() and convert()

/// validate(sources, jobs=None, *, format=None, game=None, encoding=None)
#[pyfunction]
#[pyo3(signature = (sources, jobs=None, *, format=None, game=None, encoding=None))]
pub fn validate<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    jobs: Option<i64>,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let mut how = how(format, game, encoding, jobs)?;
    how.opts.turns_only = true;
    how.opts.judging = Some(Judging::Replay);
    let inputs = sources_of(sources, &Output::new(None))?;
    let values = py.detach(|| -> io::Result<Vec<Value>> {
        let mut out = Vec::new();
        let nothing = Chunk::from_bytes(Vec::new());
        let map = |v: Visit<'_, '_>| gamerec::validate::judge(v, Judging::Replay, false).0;
        reader::read(&inputs, &how, map, |item| {
            let (input, chunk, report) = match item {
                Item::Game(seen) => {
                    let mut report = seen.value;
                    report.index = Some(seen.index);
                    (seen.input, seen.chunk, report)
                }
                Item::Empty { input, skipped } => {
                    (input, Some(&nothing), GameReport::no_game(skipped))
                }
                Item::Failed { input, error } => return Err(failed(input, error)),
            };
            let line = JsonGame::new(input, chunk, &report, false);
            out.push(serde_json::to_value(&line).map_err(io::Error::other)?);
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(out)
    });
    let values = values.map_err(|e| RecordError::new_err(e.to_string()))?;
    let list = PyList::empty(py);
    for v in &values {
        list.append(to_py(py, v)?)?;
    }
    Ok(list)
}

/// An input that cannot be read, as the error that stops the call.
pub fn failed(input: &str, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{input}: {error}"))
}

/// The statistics as an Arrow C stream (a PyCapsule named
/// `arrow_array_stream`): the record batches of `stats --to parquet`'s
/// table, handed to pyarrow without a file between (the package's
/// `stats()` imports it). Every thread of ours has ended when it returns.
#[pyfunction]
#[pyo3(signature = (sources, jobs=None, summary=false, *, format=None, game=None, encoding=None))]
pub fn stats_arrow<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    jobs: Option<i64>,
    summary: bool,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyCapsule>> {
    let how = how(format, game, encoding, jobs)?;
    let inputs = sources_of(sources, &Output::new(None))?;
    let batches = py.detach(|| stats_batches(&inputs, &how, summary));
    stream(
        py,
        batches.map_err(|e| RecordError::new_err(e.to_string()))?,
    )
}

/// The statistics of every game of `inputs` as record batches: a row per
/// game, or (`summary`) per game type.
fn stats_batches(
    inputs: &[Source],
    how: &How<'_>,
    summary: bool,
) -> io::Result<(SchemaRef, Vec<RecordBatch>)> {
    let (name, kinds) = match summary {
        true => ("summary", summary_kinds()),
        false => ("stats", game_kinds()),
    };
    let mut rows = Batches::new(&kinds);
    let mut batches = Vec::new();
    let mut totals = Summary::default();
    let map = |v: Visit<'_, '_>| traced(v.game, v.rules);
    reader::read(inputs, how, map, |item| {
        let (input, index, mut game): (&str, usize, Converted) = match item {
            Item::Game(seen) => (seen.input, seen.index, seen.value),
            Item::Empty { .. } => return Ok(ControlFlow::Continue(())),
            Item::Failed { input, error } => return Err(failed(input, error)),
        };
        game.index = index;
        match summary {
            true => totals.add(&game),
            false => {
                rows.push(&game_row(input, &game).cells())?;
                if rows.pending() >= BATCH_GAMES {
                    batches.extend(rows.batch()?);
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    for row in totals.rows() {
        let values: Vec<Value> = row.into_iter().map(|(_, v)| v).collect();
        rows.push(&values)?;
    }
    table(rows, batches, name)
}

/// The rows left in `rows` added to `batches`, and every batch given the
/// schema with gamerec's table metadata (`name`: `stats`, `summary`,
/// `analysis`).
pub fn table(
    mut rows: Batches,
    mut batches: Vec<RecordBatch>,
    name: &str,
) -> io::Result<(SchemaRef, Vec<RecordBatch>)> {
    batches.extend(rows.batch()?);
    let metadata: std::collections::HashMap<String, String> =
        table_metadata(name).into_iter().collect();
    let schema = Arc::new(rows.schema().as_ref().clone().with_metadata(metadata));
    let batches = batches
        .into_iter()
        .map(|b| b.with_schema(schema.clone()).map_err(io::Error::other))
        .collect::<io::Result<Vec<_>>>()?;
    Ok((schema, batches))
}

/// Record batches handed to Python as an Arrow C stream (a PyCapsule named
/// `arrow_array_stream`).
pub fn stream<'py>(
    py: Python<'py>,
    (schema, batches): (SchemaRef, Vec<RecordBatch>),
) -> PyResult<Bound<'py, PyCapsule>> {
    let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
    let stream = FFI_ArrowArrayStream::new(Box::new(reader));
    PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
}

/// convert(sources, to="text", path=None, *, format=None, game=None,
/// encoding=None, jobs=None, skip_invalid=False)
#[pyfunction]
#[pyo3(signature = (sources, to="text", path=None, *, format=None, game=None, encoding=None, jobs=None, skip_invalid=false))]
#[allow(clippy::too_many_arguments)]
pub fn convert(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    to: &str,
    path: Option<PathBuf>,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
    jobs: Option<i64>,
    skip_invalid: bool,
) -> PyResult<Option<Py<PyAny>>> {
    let how = how(format, game, encoding, jobs)?;
    let to_format = table::writer(to).ok_or_else(|| {
        let names: Vec<&str> = table::writable().into_iter().map(|(n, _)| n).collect();
        PyValueError::new_err(format!(
            "unknown format {to:?}: one of {}",
            names.join(", ")
        ))
    })?;
    let output = Output::new(path.as_deref());
    let inputs = sources_of(sources, &output)?;
    if let Some(input) = sources::among(&output, &inputs) {
        return Err(RecordError::new_err(format!(
            "{}: is also the output; refusing to write over an input",
            input.display()
        )));
    }
    let export = Export {
        to: to_format,
        syntax_only: false,
        skip_invalid,
        spreadsheet_safe: false,
    };
    let (mut left_out, mut failures) = (Vec::new(), Vec::new());
    let written = py.detach(|| -> io::Result<Option<Vec<u8>>> {
        let mut tell = |event: ConvertEvent<'_>| match event {
            ConvertEvent::LeftOut(input, why) if !why.is_empty() => {
                left_out.push(format!("{input}: {why}"))
            }
            ConvertEvent::Input(Item::Failed { input, error }) => {
                failures.push(failed(input, error))
            }
            _ => {}
        };
        let Some(path) = &path else {
            let out = framed(to_format, Vec::new())?;
            let (bytes, _) = gamerec::convert::run(&inputs, &how, export, out, &mut tell)?;
            return Ok(Some(bytes));
        };
        let out = framed(to_format, output.create()?)?;
        let (writer, _) = gamerec::convert::run(&inputs, &how, export, out, &mut tell)?;
        // An input that could not be read: the file is not put in place.
        if let Some(e) = failures.drain(..).next() {
            return Err(io::Error::new(
                e.kind(),
                format!("{e} ({} not written)", path.display()),
            ));
        }
        writer.commit()?;
        Ok(None)
    });
    let written = written.map_err(|e| RecordError::new_err(e.to_string()))?;
    if let Some(e) = failures.into_iter().next() {
        return Err(RecordError::new_err(e.to_string()));
    }
    let warning = py.get_type::<pyo3::exceptions::PyUserWarning>();
    for said in left_out {
        let said = std::ffi::CString::new(said).unwrap_or_default();
        PyErr::warn(py, warning.as_any(), &said, 1)?;
    }
    Ok(match (written, to_format) {
        (None, _) => None,
        (Some(bytes), Format::Parquet) => Some(PyBytes::new(py, &bytes).into_any().unbind()),
        (Some(bytes), _) => Some(
            PyString::new(py, &String::from_utf8_lossy(&bytes))
                .into_any()
                .unbind(),
        ),
    })
}

/// An output in `to` over `w`.
fn framed<W: io::Write + Send>(to: Format, w: W) -> io::Result<Framed<W>> {
    Framed::new(to, Dest::new(to, w)?)
}

/// The files `sources` (paths) stand for: a folder's record files, sorted;
/// a file as it is.
#[pyfunction]
pub fn inputs(sources: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    sources_of(sources, &Output::new(None))?
        .into_iter()
        .map(|s| match s {
            Source::File(_) => Ok(s.name()),
            _ => Err(PyTypeError::new_err("inputs() takes paths only")),
        })
        .collect()
}

/// Every format of the library's table: its name, and what it is when
/// read and when written (`None`: it is not).
#[pyfunction]
pub fn formats() -> Vec<(&'static str, Option<&'static str>, Option<&'static str>)> {
    table::all()
        .map(|f| (f.name(), f.read_help(), f.write_help()))
        .collect()
}

/// The games gamerec knows, by the `Game` tag's value.
#[pyfunction]
pub fn games() -> Vec<&'static str> {
    registry::names()
}
