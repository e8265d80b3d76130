//! The position a command works at (`moves`, `perft`): a game of a record
//! file (any input format), a bare position of a named game, or a game's
//! start; and how a failure to reach it is reported.

use super::input::{format, EncodingArg, Opened, Source};
use super::messages;
use super::render::problem_report;
use gamerec::input::read_mapped;
use gamerec::problem::{Code, Problem};
use gamerec::record::{Chunk, Record};
use gamerec::registry::{self, AnyGame};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// The options that say where the position is, shared by `moves` and
/// `perft`.
#[derive(clap::Args, Clone, Debug)]
pub struct PlaceArgs {
    /// A record file (any format `convert` reads; `-` reads standard
    /// input); without one, the position of --position or --game's start.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Which game of the file, 1 for the first.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub index: Option<u64>,
    /// The rules: of --position or the start, or of a file's records that
    /// have no [Game] tag.
    #[arg(long, value_name = "GAME", help = super::default_game_help())]
    pub game: Option<String>,
    /// Deprecated: the same as --game.
    #[arg(long, value_name = "GAME", hide = true, conflicts_with = "game")]
    pub game_type: Option<String>,
    /// A bare position in the game's Position notation (see notation/),
    /// instead of a file.
    #[arg(long, value_name = "STRING", conflicts_with = "file")]
    pub position: Option<String>,
    /// The file's text encoding (as for validate).
    #[arg(long, value_enum, default_value = "auto", value_name = "ENCODING")]
    pub encoding: EncodingArg,
}

impl PlaceArgs {
    /// The rules named, and the game's index: `--game 2` (digits, the old
    /// meaning) still picks the second game, with a note.
    fn resolved(&self) -> (Option<&str>, usize) {
        let mut game = self.game.as_deref();
        let mut index = self.index;
        if let Some(g) = self.game_type.as_deref() {
            messages::note("--game-type is now --game (the rules); it goes in a later release");
            game = Some(g);
        }
        if let Some(n) = game.filter(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit())) {
            if index.is_none() && self.position.is_none() {
                messages::note(format!(
                    "--game {n} is now --index {n} (--game names the rules); the old \
                     spelling goes in a later release"
                ));
                index = n.parse().ok();
                game = None;
            }
        }
        (game, index.unwrap_or(1) as usize)
    }
}

/// A record to replay, with where it came from.
pub struct Loaded {
    pub rules: &'static dyn AnyGame,
    pub record: Record,
    /// The input's name for diagnostics.
    pub name: String,
    /// The text the record came from (`None`: read from JSON).
    pub chunk: Option<Chunk>,
    /// The game's index in its file (`None` for a bare position).
    pub index: Option<usize>,
}

pub enum Failure {
    /// A usage or I/O error: said on stderr, exit code 2.
    Usage(String),
    /// The output pipe closed: stop quietly.
    Closed,
    /// A record (or position) that cannot be replayed to the asked point.
    Invalid(Box<Invalid>),
}

pub struct Invalid {
    name: String,
    chunk: Option<Chunk>,
    index: Option<usize>,
    title: Option<String>,
    problem: Problem,
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
pub fn load(place: &PlaceArgs) -> Result<Loaded, Failure> {
    let (game, n) = place.resolved();
    let Some(path) = place.file.as_deref() else {
        let Some(game) = game else {
            return Err(Failure::Usage(
                "give a record file, or --game (with --position or for its start)".into(),
            ));
        };
        let rules = find(game)?;
        let (record, name, text) = match place.position.as_deref() {
            Some(p) => (Record::from_position(p), "--position", p),
            None => (Record::default(), "start", ""),
        };
        return Ok(Loaded {
            rules,
            record,
            name: name.into(),
            chunk: Some(Chunk::from_bytes(text.as_bytes())),
            index: None,
        });
    };
    nth_game(path, n, game, place.encoding)
}

/// Game `n` of the file at `path`, in whatever format it is.
fn nth_game(
    path: &Path,
    n: usize,
    game: Option<&str>,
    encoding: EncodingArg,
) -> Result<Loaded, Failure> {
    let source = if path.as_os_str() == "-" {
        Source::Stdin
    } else {
        Source::File(path.to_path_buf())
    };
    let name = source.name();
    let io_fail = |e: io::Error| Failure::Usage(format!("{name}: {e}"));
    let opts = match game {
        None => gamerec::archive::Options::default(),
        Some(g) => options_for(g)?,
    };
    let reader = source
        .open(encoding.encoding(), &super::progress::Progress::none())
        .map_err(io_fail)?;
    let mut opened = Opened {
        extension: source.extension(),
        reader,
    };
    let fmt = format("auto", &mut opened).map_err(io_fail)?;
    let (mut i, mut found) = (0, None);
    let _ = read_mapped(
        opened.reader,
        fmt,
        &opts,
        |chunk, game, rules| (chunk.cloned(), game.record(), rules),
        |_, game| {
            i += 1;
            if i < n {
                return Ok(ControlFlow::Continue(()));
            }
            found = Some(game);
            Ok(ControlFlow::Break(()))
        },
    )
    .map_err(io_fail)?;
    let (chunk, parsed, rules) =
        found.ok_or_else(|| Failure::Usage(format!("{name}: there is no game {n}")))?;
    let fail = |chunk: Option<Chunk>, problem: Problem| {
        Failure::Invalid(Box::new(Invalid {
            name: name.clone(),
            chunk,
            index: Some(n),
            title: None,
            problem,
        }))
    };
    if let Some(e) = parsed.error {
        return Err(fail(chunk, e));
    }
    match rules {
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

fn options_for(game: &str) -> Result<gamerec::archive::Options, Failure> {
    let rules = find(game)?;
    Ok(gamerec::archive::Options {
        default_game: Some(rules),
        ..Default::default()
    })
}

/// Reports a failure: a usage mistake (also a bad bare position, or a ply
/// beyond the game's end) is an error (exit code 2), a record that cannot
/// be replayed to the asked point an invalid one (1).
pub fn report(failure: Failure, color: bool) {
    match failure {
        Failure::Usage(msg) => messages::error(msg),
        Failure::Closed => messages::finished(Err(io::ErrorKind::BrokenPipe.into())),
        Failure::Invalid(bad) => {
            let Invalid {
                name,
                chunk,
                index,
                title,
                problem,
            } = *bad;
            let mut err = io::stderr().lock();
            let _ = problem_report(
                &mut err,
                &name,
                chunk.as_ref(),
                index,
                title.as_deref(),
                &problem,
                color,
            );
            if index.is_none() || problem.code == Code::NoSuchPly {
                messages::error(match problem.code {
                    Code::NoSuchPly => "no such ply (see above)",
                    _ => "the position cannot be used (see above)",
                });
            } else {
                messages::invalid();
            }
        }
    }
}

/// Loads the record at `place` and lets `work` write its answer to
/// (buffered) stdout; a failure is reported on stderr (diagnostics coloured
/// when `color`).
pub fn answer(
    place: &PlaceArgs,
    color: bool,
    work: impl FnOnce(&Loaded, &mut dyn Write) -> Result<(), Failure>,
) {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let outcome = load(place).and_then(|loaded| {
        let done = work(&loaded, &mut out);
        // What was written before a failure is shown before its report.
        out.flush().map_err(write_failure)?;
        done
    });
    if let Err(failure) = outcome {
        report(failure, color);
    }
}

/// A failure to write the answer.
pub fn write_failure(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::Closed
    } else {
        Failure::Usage(e.to_string())
    }
}
