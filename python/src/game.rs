//! A game as Python sees it ([`Game`]: its tags, moves, outcome or error,
//! positions, legal moves, pictures, text and JSON), built as it is read
//! on a worker thread, and read back from its text when a position is
//! asked for; its problem ([`GameError`]) and its outcome ([`PyOutcome`]).

use crate::RecordError;
use gamerec::formats::json::{game_value, ErrorOut};
use gamerec::formats::{self, text, Cx, Format, Visit};
use gamerec::picture::raster::{self, GifOptions};
use gamerec::picture::svg::{self, SvgOptions};
use gamerec::problem::{Code, Problem};
use gamerec::reading::Options;
use gamerec::record::ReadGame;
use gamerec::registry::{tell, AnyGame};
use gamerec::sink::{Collect, Converted, TraceOptions};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// Where a problem stands in its input: line, column, byte offset.
type At = Option<(usize, usize, usize)>;

/// A game's problem, as Python sees it.
#[pyclass(frozen, get_all, module = "gamerec", name = "GameError")]
#[derive(Clone)]
pub struct GameError {
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
pub struct PyOutcome {
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
pub struct Game {
    pub file: String,
    pub index: usize,
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
pub fn build(v: Visit<'_, '_>, default_game: Option<&'static dyn AnyGame>) -> Game {
    let (chunk, game, rules) = (v.chunk, v.game, v.rules);
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
        let cx = Cx {
            input: &self.file,
            format: Format::Text,
            opts: &opts,
        };
        let got = formats::read_nth(record, cx, 1, |v| f(v.rules.unwrap_or(rules), v.game));
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
            self.again(
                |rules, game| match gamerec::moves::legal_moves_at(rules, game, before) {
                    Ok(l) => Ok(l.position),
                    Err(p) => Err(self.problem_err(p)),
                },
            )
        })
    }

    /// The legal turns after `ply` plies (0: the start; `None`: after the
    /// last legal turn), canonical, sorted; empty when the game is over.
    #[pyo3(signature = (ply=None))]
    fn legal_moves(&self, py: Python<'_>, ply: Option<i64>) -> PyResult<Vec<String>> {
        let before = self.before(ply)?;
        py.detach(|| {
            self.again(
                |rules, game| match gamerec::moves::legal_moves_at(rules, game, before) {
                    Ok(l) => Ok(l.moves),
                    Err(p) => Err(self.problem_err(p)),
                },
            )
        })
    }

    /// The position after `ply` plies as an SVG picture (`size`: width in
    /// pixels; `flip`: seen from the other side; `rotate`: degrees
    /// clockwise).
    #[pyo3(signature = (ply=None, *, size=None, flip=false, rotate=0.0))]
    fn svg(
        &self,
        py: Python<'_>,
        ply: Option<i64>,
        size: Option<u32>,
        flip: bool,
        rotate: f64,
    ) -> PyResult<String> {
        let before = self.before(ply)?;
        if size == Some(0) {
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
                let shown = gamerec::show::scene_at(rules, game, before);
                match (shown.scene, shown.problem) {
                    (Some(scene), None) => Ok(svg::write(&scene, &opts)),
                    (_, Some(p)) => Err(self.problem_err(p)),
                    (None, None) => Err(RecordError::new_err("no picture of this position")),
                }
            })
        })
    }

    /// The position after `ply` plies as a PNG (the SVG of
    /// :meth:`svg`, rendered; the same bytes for the same game and
    /// options).
    #[pyo3(signature = (ply=None, *, size=None, flip=false, rotate=0.0))]
    fn png<'py>(
        &self,
        py: Python<'py>,
        ply: Option<i64>,
        size: Option<u32>,
        flip: bool,
        rotate: f64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let svg = self.svg(py, ply, size, flip, rotate)?;
        let png = py.detach(|| raster::png(&svg));
        let png = png.map_err(|e| RecordError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, &png))
    }

    /// The game as an animated GIF: a frame per position from the start
    /// to the one after `plies` plies (every position by default), the
    /// last move marked; `delay`: milliseconds a frame (the last four
    /// times as long).
    #[pyo3(signature = (plies=None, *, size=None, flip=false, rotate=0.0, delay=800))]
    fn gif<'py>(
        &self,
        py: Python<'py>,
        plies: Option<usize>,
        size: Option<u32>,
        flip: bool,
        rotate: f64,
        delay: u32,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if size == Some(0) || !rotate.is_finite() || !(10..=60_000).contains(&delay) {
            return Err(PyValueError::new_err(
                "size= 1 or more, rotate= a number of degrees, delay= 10 to 60000 ms",
            ));
        }
        let opts = GifOptions {
            svg: SvgOptions { size, flip, rotate },
            delay: (delay / 10) as u16,
            last_delay: (delay * 4 / 10).min(u32::from(u16::MAX)) as u16,
        };
        let gif = py.detach(|| {
            self.again(|rules, game| {
                let r = gamerec::show::replayed(rules, game).map_err(|p| self.problem_err(p))?;
                if let Some(p) = r.problem {
                    return Err(self.problem_err(p));
                }
                let played = r.frames.len().saturating_sub(1);
                if plies.is_some_and(|p| p > played) {
                    return Err(PyValueError::new_err(format!(
                        "plies={}: the game has {played}",
                        plies.unwrap_or(0)
                    )));
                }
                raster::gif(&r, plies, &opts, Vec::new())
                    .map_err(|e| RecordError::new_err(e.to_string()))
            })
        })?;
        Ok(PyBytes::new(py, &gif))
    }

    /// The game analysed (`gamerec analyse --to json`'s object for it,
    /// notation/analysis.md): each searched ply's values before and after
    /// the move, the proven best moves, the win chance and the marks, with
    /// the totals per side. The options are `analyse()`'s; the game's
    /// positions are searched on every core.
    #[pyo3(signature = (
        depth=None, nodes=2_000_000, time=None, playouts=0, seed=1, last=None, plies=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn analysis<'py>(
        &self,
        py: Python<'py>,
        depth: Option<u32>,
        nodes: u64,
        time: Option<f64>,
        playouts: u32,
        seed: u64,
        last: Option<usize>,
        plies: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // The game's positions are searched on every core: the answers
        // are the same with any number of threads.
        let settings = gamerec::analysis::Settings {
            jobs: 0,
            ..crate::settings::settings(depth, nodes, time, playouts, seed, last, plies)?
        };
        let value = py.detach(|| {
            self.again(|rules, game| {
                let a = gamerec::analyse::analyse(game, Ok(rules), &settings);
                let json = gamerec::analyse::JsonAnalysis::new(&self.file, self.index, None, &a);
                serde_json::to_value(json).map_err(|e| PyValueError::new_err(e.to_string()))
            })
        })?;
        crate::values::to_py(py, &value)
    }

    /// A notebook shows the game's last position.
    fn _repr_svg_(&self, py: Python<'_>) -> Option<String> {
        self.svg(py, None, Some(360), false, 0.0).ok()
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
