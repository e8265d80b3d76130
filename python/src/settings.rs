//! The analysis settings `analyse()` and `Game.analyse()` take, checked
//! as the command line checks its `--depth`, `--nodes`, `--time`,
//! `--playouts`, `--seed`, `--last` and `--plies`.

use gamerec::analysis::{Plies, Settings};
use gamerec::search::Budget;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The search options, as the command line's `--depth`, `--nodes`,
/// `--time`, `--playouts`, `--seed`, `--last` and `--plies` take them.
#[allow(clippy::too_many_arguments)]
pub fn settings(
    depth: Option<u32>,
    nodes: u64,
    time: Option<f64>,
    playouts: u32,
    seed: u64,
    last: Option<usize>,
    plies: Option<&str>,
) -> PyResult<Settings> {
    if depth == Some(0) || depth.is_some_and(|d| d > 64) {
        return Err(PyValueError::new_err(
            "depth: give a horizon of 1 to 64 plies",
        ));
    }
    let time = match time {
        None => None,
        Some(s) => {
            Some(Budget::seconds(s).map_err(|e| PyValueError::new_err(format!("time={s}: {e}")))?)
        }
    };
    if playouts > gamerec::search::chance::MAX_PLAYOUTS {
        return Err(PyValueError::new_err(format!(
            "playouts={playouts}: give at most {}",
            gamerec::search::chance::MAX_PLAYOUTS
        )));
    }
    let plies = match (last, plies) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err("give last= or plies=, not both"));
        }
        (Some(0), _) => return Err(PyValueError::new_err("last=0: give 1 or more plies")),
        (Some(k), None) => Plies::Last(k),
        (None, Some(p)) => Plies::parse(p).map_err(PyValueError::new_err)?,
        (None, None) => Plies::All,
    };
    Ok(Settings {
        depth,
        budget: Budget {
            until: None,
            nodes: (nodes > 0).then_some(nodes),
            time,
        },
        playouts,
        seed,
        plies,
        ..Settings::default()
    })
}
