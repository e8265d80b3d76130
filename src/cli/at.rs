//! The position a command works at (`moves`, `perft`): a game of a record
//! file (any input format), a bare position of a named game, or a game's
//! start; and how a failure to reach it is reported.

use super::messages;
use super::options::EncodingArg;
use gamerec::diagnostics::problem_report;
use gamerec::inputs::{self, How};
use gamerec::problem::{Code, Problem};
use gamerec::record::{title, Chunk, ReadGame, Record, RecordSource};
use gamerec::registry::{self, AnyGame};
use gamerec::sources::Source;
use std::io::{self, Write};
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
    #[arg(
        long,
        value_name = "STRING",
        conflicts_with = "file",
        allow_hyphen_values = true
    )]
    pub position: Option<String>,
    /// The file's text encoding (as for validate).
    #[arg(long, default_value = "auto", value_name = "ENCODING", value_parser = super::options::encoding_values())]
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

/// `--ply K`, shared by `moves` and `show`.
#[derive(clap::Args, Clone, Debug)]
pub struct PlyArg {
    /// The position before ply K (1 = the start position); by default the
    /// position after the game's last move.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub ply: Option<u64>,
}

impl PlyArg {
    pub fn ply(&self) -> Option<usize> {
        self.ply.map(|k| k as usize)
    }
}

/// A game to replay as it is read, with where it came from.
pub struct Loaded<'g, 'a> {
    pub rules: &'static dyn AnyGame,
    pub game: &'g mut dyn ReadGame<'a>,
    /// The input's name for diagnostics.
    pub name: &'g str,
    /// The text the game is read from (`None`: read from JSON).
    pub chunk: Option<&'g Chunk>,
    /// The game's index in its file (`None` for a bare position).
    pub index: Option<usize>,
}

pub enum Failure {
    /// A usage or I/O error: said on stderr, exit code 2.
    Usage(String),
    /// The output pipe closed: stop quietly.
    Closed,
    /// A game (or position) that cannot be replayed to the asked point.
    Invalid(Problem),
}

fn find(name: &str) -> Result<&'static dyn AnyGame, Failure> {
    registry::find(name).ok_or_else(|| {
        Failure::Usage(format!(
            "unknown game `{name}`: one of {}",
            registry::names().join(", ")
        ))
    })
}

/// What a command does with the game it is given, writing its answer to
/// `out`.
type Work<'w> = dyn FnMut(&mut Loaded<'_, '_>, &mut dyn Write) -> Result<(), Failure> + 'w;

/// Finds the game `place` names and lets `work` answer with it; a failure
/// is reported.
fn with_game(place: &PlaceArgs, color: bool, work: &mut Work<'_>, out: &mut dyn Write) {
    let (game, n) = place.resolved();
    let Some(path) = place.file.as_deref() else {
        let Some(game) = game else {
            return report(Failure::Usage(
                "give a record file, or --game (with --position or for its start)".into(),
            ));
        };
        let rules = match find(game) {
            Ok(rules) => rules,
            Err(failure) => return report(failure),
        };
        let (record, name, text) = match place.position.as_deref() {
            Some(p) => (Record::from_position(p), "--position", p),
            None => (Record::default(), "start", ""),
        };
        let chunk = Chunk::from_bytes(text.as_bytes());
        let mut loaded = Loaded {
            rules,
            game: &mut RecordSource::new(&record, None),
            name,
            chunk: Some(&chunk),
            index: None,
        };
        return answer_with(&mut loaded, color, work, out);
    };
    if let Err(failure) = nth_game(path, n, game, place.encoding, color, work, out) {
        return report(failure);
    }
    // No --index: say so where the file holds more games than the first.
    if place.index.is_none() && n == 1 && path.as_os_str() != "-" {
        let source = Source::File(path.to_path_buf());
        let how = How {
            encoding: place.encoding.encoding(),
            ..How::default()
        };
        if let Ok(Some(())) = inputs::read_nth(&source, &how, 2, |v| {
            v.game.finish();
        }) {
            messages::note(format!(
                "{}: holds more than one game; this is game 1 (--index N for another)",
                path.display()
            ));
        }
    }
}

/// Lets `work` answer with game `n` of the file at `path`, in whatever
/// format it is, as the game is read.
fn nth_game(
    path: &Path,
    n: usize,
    game: Option<&str>,
    encoding: EncodingArg,
    color: bool,
    work: &mut Work<'_>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let source = if path.as_os_str() == "-" {
        Source::Stdin
    } else {
        Source::File(path.to_path_buf())
    };
    let name = source.name();
    let io_fail = |e: io::Error| Failure::Usage(format!("{name}: {e}"));
    let how = How {
        encoding: encoding.encoding(),
        opts: match game {
            None => gamerec::reading::Options::default(),
            Some(g) => options_for(g)?,
        },
        ..How::default()
    };
    let answered = inputs::read_nth(&source, &how, n, |v| {
        let index = Some(n);
        match v.rules {
            Ok(rules) => {
                let mut loaded = Loaded {
                    rules,
                    game: v.game,
                    name: &name,
                    chunk: v.chunk,
                    index,
                };
                answer_with(&mut loaded, color, work, out);
            }
            // A game without rules cannot be replayed.
            Err(p) => report_invalid(&name, v.chunk, index, None, &p, color),
        }
    })
    .map_err(io_fail)?;
    answered.ok_or_else(|| Failure::Usage(format!("{name}: there is no game {n}")))
}

fn options_for(game: &str) -> Result<gamerec::reading::Options, Failure> {
    let rules = find(game)?;
    Ok(gamerec::reading::Options {
        default_game: Some(rules),
        ..Default::default()
    })
}

/// Reports a failure that is not a game's: a usage or I/O error, or a
/// closed pipe.
fn report(failure: Failure) {
    match failure {
        Failure::Usage(msg) => messages::error(msg),
        Failure::Closed => messages::finished(Err(io::ErrorKind::BrokenPipe.into())),
        Failure::Invalid(p) => messages::error(p.message),
    }
}

/// Reports the problem that keeps a game (or a bare position: no `index`)
/// from being replayed to the asked point.
fn report_invalid(
    name: &str,
    chunk: Option<&Chunk>,
    index: Option<usize>,
    title: Option<&str>,
    problem: &Problem,
    color: bool,
) {
    let mut err = io::stderr().lock();
    let _ = problem_report(&mut err, name, chunk, index, title, problem, color);
    if index.is_none() || problem.code == Code::NoSuchPly {
        messages::error(match problem.code {
            Code::NoSuchPly => "no such ply (see above)",
            _ => "the position cannot be used (see above)",
        });
    } else {
        messages::invalid();
    }
}

/// Lets `work` write its answer about `loaded` to `out`, then reports its
/// failure, if any, after what it wrote.
fn answer_with(loaded: &mut Loaded<'_, '_>, color: bool, work: &mut Work<'_>, out: &mut dyn Write) {
    let done = work(loaded, out);
    let flushed = out.flush().map_err(write_failure);
    match done.and(flushed) {
        Ok(()) => {}
        Err(Failure::Invalid(p)) => {
            let title = title(loaded.game.tags(), loaded.rules.sides());
            report_invalid(
                loaded.name,
                loaded.chunk,
                loaded.index,
                title.as_deref(),
                &p,
                color,
            )
        }
        Err(other) => report(other),
    }
}

/// Finds the game `place` names and lets `work` write its answer to
/// (buffered) stdout, as the game is read; a failure is reported on stderr
/// (diagnostics coloured when `color`) after what was written.
pub fn answer(
    place: &PlaceArgs,
    color: bool,
    mut work: impl FnMut(&mut Loaded<'_, '_>, &mut dyn Write) -> Result<(), Failure>,
) {
    if messages::stdout_closed() {
        return;
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    with_game(place, color, &mut work, &mut out);
}

/// [`answer`], writing to `out`.
pub fn answer_into(
    place: &PlaceArgs,
    color: bool,
    out: &mut dyn Write,
    mut work: impl FnMut(&mut Loaded<'_, '_>, &mut dyn Write) -> Result<(), Failure>,
) {
    with_game(place, color, &mut work, out);
}

/// A failure to write the answer.
pub fn write_failure(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::Closed
    } else {
        Failure::Usage(e.to_string())
    }
}
