//! `analyse()` (the analysis table as Arrow data, the rows of `gamerec
//! analyse --to parquet`) and the search options it and `Game.analysis()`
//! share.

use crate::calls;
use crate::settings::settings;
use crate::sources::sources_of;
use crate::{how, RecordError};
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use gamerec::analyse::{self, Analysed};
use gamerec::analysis::Settings;
use gamerec::formats::parquet::{Batches, BATCH_GAMES};
use gamerec::formats::Visit;
use gamerec::inputs::{self as reading, How, Item};
use gamerec::output::Output;
use gamerec::sources::Source;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::io;
use std::ops::ControlFlow;

/// The analysis as an Arrow C stream (a PyCapsule named
/// `arrow_array_stream`): a row per searched ply, the columns of `gamerec
/// analyse --to parquet` (the package's `analyse()` imports it). Every
/// thread of ours has ended when it returns.
#[pyfunction]
#[pyo3(signature = (
    sources, jobs=None, depth=None, nodes=2_000_000, time=None, playouts=0, seed=1,
    last=None, plies=None, *, format=None, game=None, encoding=None
))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_arrow<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    jobs: Option<i64>,
    depth: Option<u32>,
    nodes: u64,
    time: Option<f64>,
    playouts: u32,
    seed: u64,
    last: Option<usize>,
    plies: Option<&str>,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyCapsule>> {
    let how = how(format, game, encoding, jobs)?;
    let settings = Settings {
        jobs: how.opts.jobs,
        ..settings(depth, nodes, time, playouts, seed, last, plies)?
    };
    let inputs = sources_of(sources, &Output::new(None))?;
    let batches = py.detach(|| analysis_batches(&inputs, &how, &settings));
    calls::stream(
        py,
        batches.map_err(|e| RecordError::new_err(e.to_string()))?,
    )
}

/// Every searched ply of every game of `inputs` as record batches.
fn analysis_batches(
    inputs: &[Source],
    how: &How<'_>,
    settings: &Settings,
) -> io::Result<(SchemaRef, Vec<RecordBatch>)> {
    let mut rows = Batches::new(&analyse::columns());
    let mut batches = Vec::new();
    let map = |v: Visit<'_, '_>| analyse::analyse(v.game, v.rules, settings);
    reading::read(inputs, how, map, |item: Item<'_, Analysed>| {
        let seen = match item {
            Item::Game(seen) => seen,
            Item::Empty { .. } => return Ok(ControlFlow::Continue(())),
            Item::Failed { input, error } => return Err(calls::failed(input, error)),
        };
        for row in analyse::rows(seen.input, seen.index, seen.chunk, &seen.value) {
            rows.push(&row)?;
            if rows.pending() >= BATCH_GAMES {
                batches.extend(rows.batch()?);
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    calls::table(rows, batches, "analysis")
}
