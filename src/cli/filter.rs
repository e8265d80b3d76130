//! `gamerec filter`: select games by their rules, tags, players, result,
//! length, validity, opening or a position they reach. Matching games are
//! written as they were in the input (byte for byte for the record
//! format), or in any `convert` format; `--rest` takes the others.

use super::messages;
use super::options::{InputArgs, Jobs, LenientArgs, OutputArg, Quiet};
use super::run::{self, Run};
use gamerec::diagnostics::{repair_lines, Repaired};
use gamerec::filter::{self, known_winner, Criteria, Notice, Picked, Picker, TagTest};
use gamerec::formats::{self, Format};
use gamerec::index::{Index, Placed};
use gamerec::inputs::{Item, Read};
use gamerec::output::Output;
use gamerec::passthrough::Tiler;
use gamerec::pattern::Pattern;
use gamerec::select::Probe;
use gamerec::sources::Source;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    mut_arg("quiet", |a| a.help("No progress bar, no closing note")),
    mut_arg("paths", |a| a.required(false).required_unless_present("index")),
    after_help = "Exit codes are grep's here: 0 some game matched; 1 none did; 2 a usage or \
I/O error. Invalid games are not errors here: select them with --invalid."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    lenient: LenientArgs,
    /// Only games of these rules (`--game` is another option: the rules
    /// of records without a Game tag).
    #[arg(long, value_name = "GAME")]
    only_game: Option<String>,
    /// A tag: `NAME=VALUE` (exactly that value) or `NAME~REGEX` (a regular
    /// expression found in the value); repeatable.
    #[arg(long, value_name = "NAME=VALUE|NAME~REGEX")]
    tag: Vec<String>,
    /// A player, on either side (the value of either side's tag, ignoring
    /// case); repeatable.
    #[arg(long, value_name = "NAME")]
    player: Vec<String>,
    /// Who won: `first`, `second`, a side's name (`Red`, `Host`…), `draw`,
    /// or `none` (unfinished). Only valid games have a winner.
    #[arg(long, value_name = "WHO")]
    winner: Option<String>,
    /// How the game ended: a reason code (`points`, `home`,
    /// `lotus-captured`, `edge`, `corner`, `roshi`, `agreement`,
    /// `resignation`, `unfinished`… see notation/filter.md) or its first
    /// word (`lotus`).
    #[arg(long, value_name = "R")]
    reason: Option<String>,
    /// At least this many plies (legal ones).
    #[arg(long, value_name = "N")]
    min_plies: Option<usize>,
    /// At most this many plies.
    #[arg(long, value_name = "N")]
    max_plies: Option<usize>,
    /// Valid games only.
    #[arg(long, conflicts_with = "invalid")]
    valid: bool,
    /// Invalid games only.
    #[arg(long)]
    invalid: bool,
    /// The game starts with these turns (`"1. e3-e5 e7-e6"`; move numbers
    /// optional), compared in canonical spelling.
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
    /// This position (the game's Position notation) occurs in the game: at
    /// its start or after any ply.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    reaches: Option<String>,
    /// A position of the game (its start or after any ply) matches this
    /// pattern: cells and what stands on them (`"a1=R3 e5=W* d4=-"`;
    /// notation/pattern.md).
    #[arg(long, value_name = "PATTERN", value_parser = Pattern::parse)]
    pattern: Option<Pattern>,
    /// Answer --reaches and --pattern from this position index
    /// (`gamerec index`) instead of reading archives: only the games it
    /// names are read, each from its place in its file, and checked as
    /// without the index.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["any", "rest", "paths"])]
    index: Option<PathBuf>,
    /// A game matches when any criterion holds (default: all of them).
    #[arg(long)]
    any: bool,
    /// Write the matching games in this format instead of as they were
    /// (text, json, jsonl, csv or a site's format, as for convert).
    #[arg(long, visible_alias = "format", value_name = "FORMAT", value_parser = super::options::to_values())]
    to: Option<String>,
    /// Print only how many games matched.
    #[arg(long, conflicts_with_all = ["to", "output"])]
    count: bool,
    /// Write the games that do not match to FILE (the same format).
    #[arg(long, value_name = "FILE")]
    rest: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArg,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    quiet: Quiet,
}

/// What the options select, checked: the output format, what to look for
/// while a game is replayed, and the criteria a game must meet; `None`
/// when an option is wrong (said).
fn selection(args: &Args) -> Option<(Option<Format>, Probe, Criteria)> {
    let to = match args.to.as_deref().map(formats::writer) {
        None => None,
        Some(Some(to)) => Some(to),
        Some(None) => {
            messages::error("no such output format");
            return None;
        }
    };
    let tags: Result<Vec<TagTest>, String> = args.tag.iter().map(|t| TagTest::parse(t)).collect();
    let tags = match tags {
        Ok(t) => t,
        Err(e) => {
            messages::error(e);
            return None;
        }
    };
    if let Some(w) = args.winner.as_deref().filter(|w| !known_winner(w)) {
        let e = format!("--winner {w}: one of first, second, draw, none or a side's name");
        messages::error(e);
        return None;
    }
    let game = match args.only_game.as_deref() {
        None => None,
        Some(name) => Some(run::find(name)?),
    };
    let probe = Probe {
        opening: (args.opening.as_deref())
            .map(Probe::opening_turns)
            .unwrap_or_default(),
        reaches: args.reaches.clone(),
        pattern: args.pattern.clone(),
    };
    let criteria = Criteria {
        game,
        tags,
        players: args.player.clone(),
        winner: args.winner.clone(),
        reason: args.reason.clone(),
        min_plies: args.min_plies,
        max_plies: args.max_plies,
        valid: args.valid,
        invalid: args.invalid,
        opening: args.opening.is_some(),
        reaches: args.reaches.is_some(),
        pattern: args.pattern.is_some(),
        any: args.any,
    };
    Some((to, probe, criteria))
}

pub fn run(args: Args) {
    let Some((to, probe, criteria)) = selection(&args) else {
        return;
    };
    let output = Output::new(args.output.output.as_deref());
    let Some(run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    let mut out = match args.count {
        true => None,
        false => match run::sink(to, &output) {
            Some(s) => Some(s),
            None => return,
        },
    };
    let Ok(mut rest) = run::second(args.rest.as_deref(), &output, &run.sources, to) else {
        return;
    };
    let run = run
        .lenient(&args.lenient)
        .progress(args.quiet.quiet || output.is_terminal());
    let picker = Picker {
        probe: &probe,
        criteria: &criteria,
        to,
        want_out: out.is_some(),
        want_rest: rest.is_some(),
    };
    let mut repaired = Repaired::default();
    let (mut games, mut matched) = (0usize, 0usize);
    let mut misfits: Vec<&'static str> = Vec::new();
    let mut tiler = Tiler::default();
    let each = |item: Item<'_, Picked>| {
        let Item::Game(game) = item else {
            return Ok(ControlFlow::Continue(()));
        };
        let (name, chunk, index, mut picked) = (game.input, game.chunk, game.index, game.value);
        tiler.tile(name, chunk, &mut picked.out);
        games += 1;
        repaired.add(&picked.repairs);
        if !picked.repairs.is_empty() && !args.quiet.quiet {
            let title = picked.title.as_deref();
            messages::to_stderr(|err| {
                repair_lines(err, name, chunk, Some(index), title, &picked.repairs)
            });
        }
        if let Some((game, why)) = picked.misfit.take() {
            if !misfits.contains(&game) {
                misfits.push(game);
                messages::warning(format!("--pattern: {why}: no {game} position matches it"));
            }
        }
        matched += usize::from(picked.matched);
        let sink = match picked.matched {
            true => out.as_mut(),
            false => rest.as_mut(),
        };
        if let (Some(sink), Some(written)) = (sink, picked.out) {
            sink.write(name, index, written, chunk, None)?;
        }
        Ok(ControlFlow::Continue(()))
    };
    let read = match &args.index {
        None => run.read(|v| picker.pick(v), each),
        Some(dir) => indexed(&run, dir, &args, |v| picker.pick(v), each),
    };
    let written = read
        .map(|_| ())
        .and_then(|()| out.map_or(Ok(()), |s| s.finish()))
        .and_then(|()| rest.map_or(Ok(()), |s| s.finish()));
    finish(&args, written, matched, games, &repaired);
}

/// Reads the games the index at `dir` names for `--reaches` and
/// `--pattern` (every criterion is checked again as the games are read).
fn indexed<T, M, E>(run: &Run, dir: &Path, args: &Args, map: M, mut each: E) -> io::Result<Read>
where
    T: Send,
    M: Fn(gamerec::formats::Visit<'_, '_>) -> T + Sync,
    E: FnMut(Item<'_, T>) -> io::Result<ControlFlow<()>>,
{
    let index = Index::open(dir)?;
    let Some(hits) = candidates(&index, args)? else {
        return Ok(Read::default());
    };
    if let Some(why) = index.stale() {
        return Err(io::Error::new(io::ErrorKind::InvalidData, why));
    }
    for r in index.plan(&hits) {
        if let Some(why) = r.changed {
            messages::error(why);
            continue;
        }
        let flow = match &r.pieces {
            Some(pieces) => match run.read_pieces(&r.name, &r.path, pieces, &map, &mut each) {
                Ok(flow) => flow,
                // A record changed under the same size and time: said, and
                // the other archives still read.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    messages::error(e);
                    continue;
                }
                Err(e) => return Err(e),
            },
            None => {
                let whole = [Source::File(r.path.clone())];
                let read = run.read_sources(&whole, &map, &mut each)?;
                match read.stopped {
                    true => ControlFlow::Break(()),
                    false => ControlFlow::Continue(()),
                }
            }
        };
        if flow.is_break() {
            break;
        }
    }
    Ok(Read::default())
}

/// The games the index says may match `--reaches` and `--pattern`;
/// `None` when there is none to look for (said).
fn candidates(index: &Index, args: &Args) -> io::Result<Option<Vec<Placed>>> {
    let said = &mut |said: Notice| match said {
        Notice::Error(e) => messages::error(e),
        Notice::Warning(w) => messages::warning(w),
    };
    filter::candidates(index, args.reaches.as_deref(), args.pattern.as_ref(), said)
}

/// Says how the run went: the count (`--count`), the error if any, the
/// matches (exit code 1 when none: an empty input or an invalid game is no
/// error here).
fn finish(args: &Args, written: io::Result<()>, matched: usize, games: usize, repaired: &Repaired) {
    let mut result = written;
    if args.count {
        result = result.and_then(|()| {
            let mut stdout = io::stdout().lock();
            writeln!(stdout, "{matched}").and_then(|()| stdout.flush())
        });
    }
    messages::finished(result);
    messages::set_not_found(matched == 0);
    if !args.quiet.quiet && !args.count {
        let repaired = args.lenient.on().then_some(repaired);
        messages::say(filter::summary(matched, games, repaired));
    }
}
