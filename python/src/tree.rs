//! `tree()`: the opening explorer's table as Arrow data (the rows of
//! `gamerec tree --to parquet`).

use crate::calls;
use crate::sources::sources_of;
use crate::{how, RecordError};
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use gamerec::formats::parquet::Batches;
use gamerec::formats::Visit;
use gamerec::inputs::{self as reading, How, Item};
use gamerec::output::Output;
use gamerec::select::Probe;
use gamerec::sources::Source;
use gamerec::tree::{self, Query, Walked};
use gamerec::walk::Explorer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::io;
use std::ops::ControlFlow;

/// The explorer's table as an Arrow C stream (a PyCapsule named
/// `arrow_array_stream`): a row for each explored position and one per
/// turn played there (the package's `tree()` imports it). Every thread of
/// ours has ended when it returns.
#[pyfunction]
#[pyo3(signature = (
    sources, jobs=None, depth=20, play="", min_games=1, player=None, side=None,
    *, format=None, game=None, encoding=None
))]
#[allow(clippy::too_many_arguments)]
pub fn tree_arrow<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    jobs: Option<i64>,
    depth: usize,
    play: &str,
    min_games: u64,
    player: Option<String>,
    side: Option<String>,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyCapsule>> {
    let query = query(depth, play, player, side)?;
    let how = how(format, game, encoding, jobs)?;
    let inputs = sources_of(sources, &Output::new(None))?;
    let batches = py.detach(|| tree_batches(&inputs, &how, &query, min_games));
    calls::stream(
        py,
        batches.map_err(|e| RecordError::new_err(e.to_string()))?,
    )
}

/// What `tree()` and `Index.tree()` explore; `side` needs `player`.
pub fn query(
    depth: usize,
    play: &str,
    player: Option<String>,
    side: Option<String>,
) -> PyResult<Query> {
    if side.is_some() && player.is_none() {
        return Err(PyValueError::new_err("side= needs player="));
    }
    Ok(Query {
        line: Probe::opening_turns(play),
        depth,
        player,
        side,
    })
}

/// The explored positions of `inputs` as record batches.
fn tree_batches(
    inputs: &[Source],
    how: &How<'_>,
    query: &Query,
    min_games: u64,
) -> io::Result<(SchemaRef, Vec<RecordBatch>)> {
    let mut explorer = Explorer::default();
    let map = |v: Visit<'_, '_>| tree::walk(v, query);
    reading::read(inputs, how, map, |item: Item<'_, Walked>| {
        let seen = match item {
            Item::Game(seen) => seen,
            Item::Empty { .. } => return Ok(ControlFlow::Continue(())),
            Item::Failed { input, error } => return Err(calls::failed(input, error)),
        };
        if let (Some(game), Some(walk)) = (seen.value.game, &seen.value.walk) {
            explorer.add(game, seen.input, seen.index, walk);
        }
        Ok(ControlFlow::Continue(()))
    })?;
    let mut rows = Batches::new(&tree::columns());
    for e in explorer.finish(min_games) {
        for row in tree::rows(&e) {
            rows.push(&row)?;
        }
    }
    calls::table(rows, Vec::new(), "tree")
}
