//! `Index(path)`: a position index (`gamerec index`) queried from Python —
//! the games that reached a position, those a pattern matches, and the
//! opening explorer's table, all answered from the index alone.

use crate::calls;
use crate::RecordError;
use gamerec::formats::parquet::Batches;
use gamerec::index::{self, Hit, Index};
use gamerec::pattern::Pattern;
use gamerec::tree;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::io;
use std::path::Path;

/// The index at `path`, refused (as the command line refuses it) where an
/// archive of it changed since it was indexed.
fn opened(path: &str) -> PyResult<Index> {
    let index = Index::open(Path::new(path)).map_err(|e| RecordError::new_err(e.to_string()))?;
    match index.stale() {
        Some(why) => Err(RecordError::new_err(why)),
        None => Ok(index),
    }
}

fn hits_table<'py>(
    py: Python<'py>,
    index: &Index,
    hits: &[Hit],
) -> PyResult<Bound<'py, PyCapsule>> {
    let table = (|| {
        let mut rows = Batches::new(&index::hit_columns());
        for h in hits {
            rows.push(&h.row(index))?;
        }
        calls::table(rows, Vec::new(), "index-hits")
    })();
    calls::stream(
        py,
        table.map_err(|e: io::Error| RecordError::new_err(e.to_string()))?,
    )
}

/// How many games the index at `path` holds (and whether it opens).
#[pyfunction]
pub fn index_games(path: &str) -> PyResult<u64> {
    Ok(opened(path)?.games())
}

/// The games that reached `position` (any game's Position notation), as
/// an Arrow C stream of [`index::hit_columns`].
#[pyfunction]
pub fn index_reaches_arrow<'py>(
    py: Python<'py>,
    path: &str,
    position: &str,
) -> PyResult<Bound<'py, PyCapsule>> {
    let index = opened(path)?;
    let hits = py
        .detach(|| index.reaches(position))
        .map_err(|e| RecordError::new_err(e.to_string()))?
        .map_err(PyValueError::new_err)?;
    hits_table(py, &index, &hits)
}

/// The games a position of which matches `pattern`
/// (notation/pattern.md), replayed from the index's turns.
#[pyfunction]
pub fn index_pattern_arrow<'py>(
    py: Python<'py>,
    path: &str,
    pattern: &str,
) -> PyResult<Bound<'py, PyCapsule>> {
    let pattern = Pattern::parse(pattern).map_err(PyValueError::new_err)?;
    let index = opened(path)?;
    let (hits, _) = py
        .detach(|| index.pattern(&pattern))
        .map_err(|e| RecordError::new_err(e.to_string()))?;
    hits_table(py, &index, &hits)
}

/// The opening explorer's table (the rows of `gamerec tree --index`).
#[pyfunction]
#[pyo3(signature = (path, depth=20, play="", min_games=1, player=None, side=None))]
pub fn index_tree_arrow<'py>(
    py: Python<'py>,
    path: &str,
    depth: usize,
    play: &str,
    min_games: u64,
    player: Option<String>,
    side: Option<String>,
) -> PyResult<Bound<'py, PyCapsule>> {
    let query = crate::tree::query(depth, play, player, side)?;
    let index = opened(path)?;
    let table = py.detach(|| {
        let mut rows = Batches::new(&tree::columns());
        for e in index::explore(&index, &query, min_games)? {
            for row in tree::rows(&e) {
                rows.push(&row)?;
            }
        }
        calls::table(rows, Vec::new(), "tree")
    });
    calls::stream(py, table.map_err(|e| RecordError::new_err(e.to_string()))?)
}
