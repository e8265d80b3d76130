//! `ratings()` and `report()`: the players rated (the rows of `gamerec
//! ratings --to parquet`, or of `--history` / `--predict`) as Arrow data,
//! and the report page as a string (notation/ratings.md, report.md).

use crate::calls::{self, failed};
use crate::sources::sources_of;
use crate::{how, RecordError};
use gamerec::formats::parquet::Batches;
use gamerec::formats::Visit;
use gamerec::inputs::{self as reading, How, Item};
use gamerec::output::Output;
use gamerec::ratings::systems::{EloK, Period, RatingOptions};
use gamerec::ratings::table::{self, Listing as Kind};
use gamerec::ratings::{self, Archive, Players, Sort};
use gamerec::report::{self, Gathered, PageOptions};
use gamerec::sink::Converted;
use gamerec::sources::Source;
use gamerec::stats::traced_with;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::collections::BTreeMap;
use std::io;
use std::ops::ControlFlow;

/// Every game of `inputs`, replayed for statistics (the branching factor
/// counted when `branching`), handed to `add`.
fn each_game(
    inputs: &[Source],
    how: &How<'_>,
    branching: bool,
    mut add: impl FnMut(&str, Converted),
) -> io::Result<()> {
    let map = |v: Visit<'_, '_>| traced_with(v.game, v.rules, branching);
    reading::read(inputs, how, map, |item| {
        match item {
            Item::Game(seen) => {
                let mut g: Converted = seen.value;
                g.index = seen.index;
                add(seen.input, g);
            }
            Item::Empty { .. } => {}
            Item::Failed { input, error } => return Err(failed(input, error)),
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(())
}

/// Players merged by `alias` ({spelling: name}).
fn players(alias: Option<BTreeMap<String, String>>) -> PyResult<Players> {
    let mut players = Players::default();
    for (from, to) in alias.unwrap_or_default() {
        players
            .alias(&from, &to)
            .map_err(|e| PyValueError::new_err(format!("alias {from:?}: {e}")))?;
    }
    Ok(players)
}

/// The ratings' rows as an Arrow C stream (a PyCapsule named
/// `arrow_array_stream`; the package's `ratings()` imports it).
#[pyfunction]
#[pyo3(signature = (
    sources, jobs=None, *, alias=None, elo_k=None, period=None, history=false, predict=false,
    sort="bradley-terry", format=None, game=None, encoding=None
))]
#[allow(clippy::too_many_arguments)]
pub fn ratings_arrow<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    jobs: Option<i64>,
    alias: Option<BTreeMap<String, String>>,
    elo_k: Option<&Bound<'py, PyAny>>,
    period: Option<&Bound<'py, PyAny>>,
    history: bool,
    predict: bool,
    sort: &str,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyCapsule>> {
    if history && predict {
        return Err(PyValueError::new_err(
            "history= and predict= are two tables: ask for one",
        ));
    }
    let Some(sort) = Sort::read(sort) else {
        return Err(PyValueError::new_err(format!(
            "sort={sort:?}: one of {}",
            Sort::NAMES.join(", ")
        )));
    };
    let k = elo_k.map_or_else(
        || Ok("32".into()),
        |k| k.str().map(|s| s.to_string_lossy().into_owned()),
    )?;
    let p = period.map_or_else(
        || Ok("month".into()),
        |p| p.str().map(|s| s.to_string_lossy().into_owned()),
    )?;
    let elo = EloK::read(&k).map_err(|e| PyValueError::new_err(format!("elo_k: {e}")))?;
    let period = Period::read(&p).map_err(|e| PyValueError::new_err(format!("period: {e}")))?;
    let opts = RatingOptions {
        elo,
        period,
        history,
        predict,
    };
    let mut archive = Archive::new(players(alias)?);
    let how = how(format, game, encoding, jobs)?;
    let inputs = sources_of(sources, &Output::new(None))?;
    let batches = py.detach(|| {
        each_game(&inputs, &how, false, |name, g| archive.add(name, &g))?;
        let rated = ratings::rate(&archive, opts);
        let kind = match (history, predict) {
            (true, _) => Kind::History,
            (_, true) => Kind::Predict,
            _ => Kind::Players,
        };
        let mut rows = Batches::new(&table::columns(kind));
        table::each_row(&archive, &rated, kind, (sort, 1), |row| rows.push(row))?;
        calls::table(rows, Vec::new(), "ratings")
    });
    calls::stream(
        py,
        batches.map_err(|e| RecordError::new_err(e.to_string()))?,
    )
}

/// The report page (`gamerec report`'s HTML) of `sources`.
#[pyfunction]
#[pyo3(signature = (
    sources, jobs=None, *, player=None, players=12, alias=None, title="gamerec report",
    format=None, game=None, encoding=None
))]
#[allow(clippy::too_many_arguments)]
pub fn report_html<'py>(
    py: Python<'py>,
    sources: &Bound<'py, PyAny>,
    jobs: Option<i64>,
    player: Option<String>,
    players: usize,
    alias: Option<BTreeMap<String, String>>,
    title: &str,
    format: Option<&str>,
    game: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<String> {
    let mut gathered = Gathered::new(self::players(alias)?);
    let how = how(format, game, encoding, jobs)?;
    let inputs = sources_of(sources, &Output::new(None))?;
    let opts = PageOptions {
        title: title.to_string(),
        player,
        players,
        ratings: RatingOptions::default(),
    };
    let page = py.detach(|| {
        each_game(&inputs, &how, true, |name, g| gathered.add(name, &g))?;
        Ok::<_, io::Error>(report::page(gathered, &opts))
    });
    match page {
        Ok((_, Some(note))) => Err(PyValueError::new_err(note)),
        Ok((html, None)) => Ok(html),
        Err(e) => Err(RecordError::new_err(e.to_string())),
    }
}
