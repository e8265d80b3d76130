//! `gamerec._native`: the Python package's compiled half, a thin layer over
//! the gamerec library. Inputs are the library's sources (`sources`: a
//! folder walked by the library's walk), games are read through the
//! library's one reading path (`inputs::read`) on its worker threads with
//! the GIL released, and what comes back is built by the same library
//! functions as the command line's output: `validate()`'s reports are
//! `validate --to json`'s objects, `stats()`'s table is `stats --to
//! parquet`'s (handed over as Arrow data), `convert()` is `convert`'s
//! export. Format and encoding names are the library's too.

mod analyse;
mod calls;
mod game;
mod index;
mod ratings;
mod settings;
mod sources;
mod tree;
mod values;

use game::{Game, GameError, PyOutcome};
use gamerec::decode::Encoding;
use gamerec::formats;
use gamerec::inputs::How;
use gamerec::reading::Options;
use gamerec::registry;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

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

/// How to read, from the keyword arguments: the format (`None` or `auto`:
/// detected), the rules of records without a `Game` tag, the encoding,
/// the threads (`None` or 0: one per core).
fn how(
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
    jobs: Option<i64>,
) -> PyResult<How<'static>> {
    let from = match format {
        None | Some("auto") => None,
        Some(name) => Some(formats::reader(name).ok_or_else(|| {
            let names: Vec<&str> = formats::readable().into_iter().map(|(n, _)| n).collect();
            PyValueError::new_err(format!(
                "unknown format {name:?}: one of auto, {}",
                names.join(", ")
            ))
        })?),
    };
    let mut opts = Options {
        jobs: jobs_of(jobs)?,
        ..Options::default()
    };
    if let Some(name) = game {
        opts.default_game = Some(registry::find(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown game {name:?}: one of {}",
                registry::names().join(", ")
            ))
        })?);
    }
    let encoding = match encoding {
        None => Encoding::Auto,
        Some(name) => Encoding::named(name).ok_or_else(|| {
            let names: Vec<&str> = Encoding::ALL.iter().map(|(n, _, _)| *n).collect();
            PyValueError::new_err(format!(
                "unknown encoding {name:?}: one of {}",
                names.join(", ")
            ))
        })?,
    };
    Ok(How {
        from,
        encoding,
        opts,
        count: None,
    })
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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RecordError", m.py().get_type::<RecordError>())?;
    m.add_class::<Game>()?;
    m.add_class::<GameError>()?;
    m.add_class::<PyOutcome>()?;
    m.add_class::<calls::Games>()?;
    m.add_function(wrap_pyfunction!(calls::read, m)?)?;
    m.add_function(wrap_pyfunction!(calls::validate, m)?)?;
    m.add_function(wrap_pyfunction!(calls::stats_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(analyse::analyse_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(tree::tree_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(ratings::ratings_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(ratings::report_html, m)?)?;
    m.add_function(wrap_pyfunction!(index::index_games, m)?)?;
    m.add_function(wrap_pyfunction!(index::index_reaches_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(index::index_pattern_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(index::index_tree_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(calls::convert, m)?)?;
    m.add_function(wrap_pyfunction!(calls::formats, m)?)?;
    m.add_function(wrap_pyfunction!(calls::games, m)?)?;
    m.add_function(wrap_pyfunction!(calls::inputs, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
