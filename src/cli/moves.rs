//! `gamerec moves`: the legal moves at a position of a recorded game (or of
//! a bare position), their number, or the number before every ply.

use super::input::Source;
use super::render::{diagnostic, ColorChoice};
use super::{EXIT_INVALID, EXIT_TROUBLE, EXIT_VALID};
use gamerec::archive::{nth_game, rules_for};
use gamerec::games;
use gamerec::problem::Problem;
use gamerec::record::{Chunk, Record};
use gamerec::replay::{record_from_position, Rules};
use std::io::{self, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The record file (`-` reads standard input).
    #[arg(required_unless_present = "position", conflicts_with = "position")]
    file: Option<PathBuf>,
    /// Which game of the file, 1 for the first.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    /// The position before ply K (1 = the start position); by default the
    /// position after the game's last move.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    ply: Option<u64>,
    /// Print only how many legal moves there are.
    #[arg(long, conflicts_with = "each")]
    count: bool,
    /// For every ply of the game: the ply, the number of legal moves before
    /// it and the move played, tab-separated.
    #[arg(long, conflicts_with_all = ["ply", "position"])]
    each: bool,
    /// A bare position in the game's Position notation (see notation/),
    /// instead of a file.
    #[arg(long, requires = "game_type", value_name = "STRING")]
    position: Option<String>,
    /// The game of `--position`, or of a file's records that have no [Game]
    /// tag (e.g. `vagabond` for a bare Garden Gate move string).
    #[arg(long, value_name = "GAME")]
    game_type: Option<String>,
    /// Print the position itself first, in the game's Position notation.
    #[arg(long)]
    show_position: bool,
    /// Colour in diagnostics.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
}

enum Failure {
    Usage(String),
    Invalid(Box<Invalid>),
}

/// A record (or `--position`) that cannot be replayed to the asked point.
struct Invalid {
    name: String,
    chunk: Chunk,
    index: Option<usize>,
    title: Option<String>,
    problem: Problem,
}

fn invalid(
    name: String,
    chunk: Chunk,
    index: Option<usize>,
    title: Option<String>,
    problem: Problem,
) -> Failure {
    Failure::Invalid(Box::new(Invalid {
        name,
        chunk,
        index,
        title,
        problem,
    }))
}

fn load(args: &Args) -> Result<(&'static dyn Rules, Record, String, Chunk), Failure> {
    if let Some(position) = &args.position {
        let name = args.game_type.as_deref().unwrap_or_default();
        let rules = games::find(name).ok_or_else(|| {
            Failure::Usage(format!(
                "unknown game `{name}`: one of {}",
                games::names().join(", ")
            ))
        })?;
        let chunk = Chunk::from_bytes(position.as_bytes());
        return Ok((
            rules,
            record_from_position(position),
            "--position".into(),
            chunk,
        ));
    }
    let path = args
        .file
        .clone()
        .expect("clap requires a file without --position");
    let source = if path.as_os_str() == "-" {
        Source::Stdin
    } else {
        Source::File(path)
    };
    let name = source.name();
    let io_fail = |e: io::Error| Failure::Usage(format!("{name}: {e}"));
    let input = source
        .open(&super::progress::Progress::none())
        .map_err(io_fail)?;
    let n = args.game as usize;
    let mut opts = gamerec::archive::Options::default();
    if let Some(g) = args.game_type.as_deref() {
        opts.default_game = Some(games::find(g).ok_or_else(|| {
            Failure::Usage(format!(
                "unknown game `{g}`: one of {}",
                games::names().join(", ")
            ))
        })?);
    }
    let (chunk, parsed) = nth_game(input, n, &opts)
        .map_err(io_fail)?
        .ok_or_else(|| Failure::Usage(format!("{name}: there is no game {n}")))?;
    if let Some(e) = parsed.error {
        return Err(invalid(name, chunk, Some(n), None, e));
    }
    let rules = match rules_for(&parsed.record, &opts) {
        Ok(r) => r,
        Err(p) => return Err(invalid(name, chunk, Some(n), None, p)),
    };
    Ok((rules, parsed.record, name, chunk))
}

pub fn run(args: Args) -> i32 {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let outcome = (|| -> Result<(), Failure> {
        let (rules, record, name, chunk) = load(&args)?;
        let index = args.position.is_none().then_some(args.game as usize);
        let title = record.title(rules.sides());
        let invalid = |p: Problem| invalid(name.clone(), chunk.clone(), index, title.clone(), p);
        let ply = args.ply.map(|k| k as usize);
        let write_err = |e: io::Error| Failure::Usage(e.to_string());
        if args.show_position {
            let pos = rules.position_at(&record, ply).map_err(invalid)?;
            writeln!(out, "{pos}").map_err(write_err)?;
        }
        if args.each {
            for c in rules.legal_move_counts(&record).map_err(invalid)? {
                writeln!(out, "{}\t{}\t{}", c.ply, c.legal, c.played).map_err(write_err)?;
            }
        } else {
            let moves = rules.legal_moves_at(&record, ply).map_err(invalid)?;
            if args.count {
                writeln!(out, "{}", moves.len()).map_err(write_err)?;
            } else {
                for m in moves {
                    writeln!(out, "{m}").map_err(write_err)?;
                }
            }
        }
        out.flush().map_err(write_err)
    })();
    match outcome {
        Ok(()) => EXIT_VALID,
        Err(Failure::Usage(msg)) => {
            eprintln!("gamerec: {msg}");
            EXIT_TROUBLE
        }
        Err(Failure::Invalid(bad)) => {
            let Invalid {
                name,
                chunk,
                index,
                title,
                problem,
            } = *bad;
            let _ = out.flush();
            let color = args.color.for_stderr();
            let _ = diagnostic(
                &mut io::stderr(),
                &name,
                &chunk,
                index,
                title.as_deref(),
                &problem,
                color,
            );
            // A bad --position is a usage error; a bad record is invalid.
            if args.position.is_some() {
                EXIT_TROUBLE
            } else {
                EXIT_INVALID
            }
        }
    }
}
