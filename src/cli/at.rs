//! The position a command works at (`moves`, `perft`): a game of a record
//! file, or a bare position of a named game, or a game's start; and how a
//! failure to reach it is reported.

use super::input::Source;
use super::render::diagnostic;
use super::{EXIT_INVALID, EXIT_TROUBLE, EXIT_VALID};
use gamerec::archive::{nth_game, rules_for, Options};
use gamerec::problem::Problem;
use gamerec::record::{Chunk, Record};
use gamerec::registry::{self, AnyGame};
use std::io::{self, Write};
use std::path::Path;

/// Where the position comes from.
pub struct Place<'a> {
    /// A record file (`-`: stdin).
    pub file: Option<&'a Path>,
    /// Which game of the file, 1-based.
    pub index: usize,
    /// A bare position in the game's Position notation.
    pub position: Option<&'a str>,
    /// The rules: of the bare position or the start, or of a file's
    /// records without a `Game` tag.
    pub game: Option<&'a str>,
}

/// A record to replay, with where it came from.
pub struct Loaded {
    pub rules: &'static dyn AnyGame,
    pub record: Record,
    /// The input's name for diagnostics.
    pub name: String,
    pub chunk: Chunk,
    /// The game's index in its file (`None` for a bare position).
    pub index: Option<usize>,
}

pub enum Failure {
    /// A usage or I/O error: said on stderr, exit code 2.
    Usage(String),
    /// A record (or position) that cannot be replayed to the asked point.
    Invalid(Box<Invalid>),
}

pub struct Invalid {
    name: String,
    chunk: Chunk,
    index: Option<usize>,
    title: Option<String>,
    problem: Problem,
    /// A bad bare position is a usage error, a bad record an invalid one.
    bare: bool,
}

impl Loaded {
    /// The failure of this record at `problem`.
    pub fn invalid(&self, problem: Problem) -> Failure {
        Failure::Invalid(Box::new(Invalid {
            name: self.name.clone(),
            chunk: self.chunk.clone(),
            index: self.index,
            title: self.record.title(self.rules.sides()),
            problem,
            bare: self.index.is_none(),
        }))
    }
}

fn find(name: &str) -> Result<&'static dyn AnyGame, Failure> {
    registry::find(name).ok_or_else(|| {
        Failure::Usage(format!(
            "unknown game `{name}`: one of {}",
            registry::names().join(", ")
        ))
    })
}

/// Reads the record `place` names.
pub fn load(place: &Place) -> Result<Loaded, Failure> {
    let Some(path) = place.file else {
        let rules = find(place.game.unwrap_or_default())?;
        let (record, name, text) = match place.position {
            Some(p) => (Record::from_position(p), "--position", p),
            None => (Record::default(), "start", ""),
        };
        return Ok(Loaded {
            rules,
            record,
            name: name.into(),
            chunk: Chunk::from_bytes(text.as_bytes()),
            index: None,
        });
    };
    let source = if path.as_os_str() == "-" {
        Source::Stdin
    } else {
        Source::File(path.to_path_buf())
    };
    let name = source.name();
    let io_fail = |e: io::Error| Failure::Usage(format!("{name}: {e}"));
    let input = source
        .open(&super::progress::Progress::none())
        .map_err(io_fail)?;
    let n = place.index;
    let mut opts = Options::default();
    if let Some(g) = place.game {
        opts.default_game = Some(find(g)?);
    }
    let (chunk, parsed) = nth_game(input, n, &opts)
        .map_err(io_fail)?
        .ok_or_else(|| Failure::Usage(format!("{name}: there is no game {n}")))?;
    let fail = |chunk: Chunk, problem: Problem| {
        Failure::Invalid(Box::new(Invalid {
            name: name.clone(),
            chunk,
            index: Some(n),
            title: None,
            problem,
            bare: false,
        }))
    };
    if let Some(e) = parsed.error {
        return Err(fail(chunk, e));
    }
    match rules_for(&parsed.record, &opts) {
        Ok(rules) => Ok(Loaded {
            rules,
            record: parsed.record,
            name,
            chunk,
            index: Some(n),
        }),
        Err(p) => Err(fail(chunk, p)),
    }
}

/// Reports a failure on stderr; returns the exit code.
pub fn report(failure: Failure, color: bool) -> i32 {
    match failure {
        Failure::Usage(msg) => {
            eprintln!("gamerec: {msg}");
            EXIT_TROUBLE
        }
        Failure::Invalid(bad) => {
            let Invalid {
                name,
                chunk,
                index,
                title,
                problem,
                bare,
            } = *bad;
            let _ = diagnostic(
                &mut io::stderr(),
                &name,
                &chunk,
                index,
                title.as_deref(),
                &problem,
                color,
            );
            if bare {
                EXIT_TROUBLE
            } else {
                EXIT_INVALID
            }
        }
    }
}

/// Loads the record at `place` and lets `work` write its answer to
/// (buffered) stdout; a failure is reported on stderr (diagnostics coloured
/// when `color`). Returns the exit code.
pub fn answer(
    place: &Place,
    color: bool,
    work: impl FnOnce(&Loaded, &mut dyn Write) -> Result<(), Failure>,
) -> i32 {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let outcome = load(place).and_then(|loaded| {
        work(&loaded, &mut out)?;
        out.flush().map_err(write_failure)
    });
    match outcome {
        Ok(()) => EXIT_VALID,
        Err(failure) => {
            let _ = out.flush();
            report(failure, color)
        }
    }
}

/// A failure to write the answer.
pub fn write_failure(e: io::Error) -> Failure {
    Failure::Usage(e.to_string())
}
