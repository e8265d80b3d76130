//! `gamerec convert`: rewrite records as canonical text, JSON, JSON Lines,
//! CSV, or a site's move strings (every site notation the registry's games
//! have). The targets and the framing are the library's (`target`).

use super::messages;
use super::options::{Color, InputArgs, Jobs, LenientArgs, OutputArg, Quiet};
use super::run::{self, Run};
use gamerec::convert::TraceOptions;
use gamerec::formats::write::Framed;
use gamerec::formats::{self, convert_one, Dest, Format, GameOut, Job, Visit};
use gamerec::inputs::{Item, Seen};
use gamerec::output::Output;
use gamerec::registry;
use gamerec::report::{problem_report, repair_lines, Repaired};
use std::ops::ControlFlow;

/// How input formats are detected, with each site notation's example.
fn after_help() -> String {
    let sites: Vec<String> = registry::sites()
        .map(|s| {
            format!(
                "a first turn like `{}` {}",
                s.format().example,
                s.format().name
            )
        })
        .collect();
    format!(
        "Input formats are detected: `.json` and input starting `{{\"format\"` is a gamerec JSON \
         document, `.jsonl` or `{{` JSON Lines, {}, anything else the record format.\n\
         Problems go to stderr; exit codes: 0 every game valid, 1 some game invalid (converted \
         up to its error, or left out with --skip-invalid), 2 usage or I/O error, or a game the \
         target cannot carry.",
        sites.join(", ")
    )
}

#[derive(clap::Args)]
#[command(after_help = after_help())]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    lenient: LenientArgs,
    /// The output format.
    #[arg(long, visible_alias = "format", default_value = "text", value_name = "FORMAT", value_parser = super::options::to_values())]
    to: String,
    #[command(flatten)]
    output: OutputArg,
    /// Leave invalid games out instead of converting them up to their error.
    #[arg(long)]
    skip_invalid: bool,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    color: Color,
    /// Check and rewrite the envelope only (tags, movetext, comments,
    /// results): moves are not replayed and stay as written. Text output
    /// only.
    #[arg(long)]
    syntax_only: bool,
    /// CSV: start a cell that begins with `=`, `+`, `-` or `@` with `'`, so
    /// that a spreadsheet shows it instead of running it as a formula.
    #[arg(long)]
    spreadsheet_safe: bool,
    #[command(flatten)]
    jobs: Jobs,
}

/// What the run saw, for the closing notes.
#[derive(Default)]
struct Tally {
    games: usize,
    written: usize,
    invalid: usize,
    /// Stretches of text read where a game was expected but holding none
    /// (text between games): reported, left out.
    not_games: usize,
    /// What the target format dropped: tags, comments, results.
    dropped: [usize; 3],
    repaired: Repaired,
}

pub fn run(args: Args) {
    let Some(to) = formats::writer(&args.to) else {
        return messages::error(format!("no output format `{}`", args.to));
    };
    if args.syntax_only && !matches!(to, Format::Text) {
        return messages::error("--syntax-only writes text only (--to text)");
    }
    if run::options(args.input.game.as_deref()).is_none() {
        return;
    }
    if args.syntax_only && args.lenient.on() {
        return messages::error("--syntax-only replays nothing: it cannot repair (--lenient)");
    }
    let output = Output::new(args.output.output.as_deref());
    let Some(run) = Run::start(&args.input, &args.jobs, &output) else {
        return;
    };
    if run::binary_to_terminal(to, &output) {
        return;
    }
    let Some(out) = run::create(&output) else {
        return;
    };
    let framed = Dest::new(to, out).and_then(|out| Framed::new(to, out));
    let mut out = match framed {
        Ok(out) => out,
        Err(e) => return messages::finished(Err(e)),
    };
    // Not over output on the same terminal.
    let run = run
        .lenient(&args.lenient)
        .progress(args.quiet.quiet || output.is_terminal());
    let trace = TraceOptions {
        syntax_only: args.syntax_only,
        branching: false,
        site: to.site().is_some(),
    };
    let mut tally = Tally::default();
    let map = |v: Visit<'_, '_>| {
        let job = Job {
            to,
            trace,
            file: v.input,
            spreadsheet_safe: args.spreadsheet_safe,
        };
        convert_one(job, v.chunk, v.game, v.rules)
    };
    let each = |item: Item<'_, GameOut>| {
        let seen = match item {
            Item::Game(seen) => seen,
            Item::Empty { input, skipped } => {
                run::no_game_warning(input, skipped);
                return Ok(ControlFlow::Continue(()));
            }
            Item::Failed { .. } => return Ok(ControlFlow::Continue(())),
        };
        let (input, index) = (seen.input, seen.index);
        if let Some(game) = converted(&args, to, &mut tally, seen) {
            tally.written += 1;
            out.write(input, index, game)?;
        }
        Ok(ControlFlow::Continue(()))
    };
    let read = run.read(map, each);
    let result = read.and_then(|_| out.finish());
    messages::finished(result.and_then(|w| w.commit()));
    if !args.quiet.quiet {
        closing_notes(&args, to, &tally);
    }
}

/// Reports a converted game's repairs and problem (said on stderr) and
/// counts it; the game when it is to be written.
fn converted(
    args: &Args,
    to: Format,
    tally: &mut Tally,
    seen: Seen<'_, GameOut>,
) -> Option<GameOut> {
    let Seen {
        input,
        index,
        chunk,
        value: game,
    } = seen;
    tally.games += 1;
    tally.repaired.add(&game.repairs);
    let title = game.title.as_deref();
    if !game.repairs.is_empty() && !args.quiet.quiet {
        messages::to_stderr(|err| {
            repair_lines(err, input, chunk, Some(index), title, &game.repairs)
        });
    }
    if let Some(p) = &game.error {
        tally.invalid += 1;
        messages::invalid();
        let color = args.color.color.for_stderr();
        messages::to_stderr(|err| problem_report(err, input, chunk, Some(index), title, p, color));
        if game.nothing_read {
            // Text between games (or no game at all): nothing to write.
            tally.not_games += 1;
            return None;
        }
        if args.skip_invalid {
            return None;
        }
    }
    if let Some(why) = to.left_out(game.game, index, game.carried) {
        if !why.is_empty() {
            messages::error(format!("{input}: {why}"));
        }
        return None;
    }
    for (total, n) in tally.dropped.iter_mut().zip(game.dropped) {
        *total += n;
    }
    Some(game)
}

/// What the run converted and what the target format left out.
fn closing_notes(args: &Args, to: Format, tally: &Tally) {
    let [tags, comments, results] = tally.dropped;
    if to.drops() && tags + comments + results > 0 {
        messages::note(format!(
            "{} cannot carry tags, {}or results: left out {tags} tags, {comments} comments \
             and {results} results",
            args.to,
            if matches!(to, Format::Csv) {
                "comments before the first turn "
            } else {
                "comments "
            }
        ));
    }
    let mut line = format!(
        "gamerec: converted {} of {} games ({} invalid",
        tally.written, tally.games, tally.invalid
    );
    let left = tally.games - tally.written;
    if left > 0 {
        line.push_str(&format!(", {left} left out"));
    }
    if tally.not_games > 0 {
        line.push_str(&format!(
            ", of which {} stretch{} of text that {} no game",
            tally.not_games,
            if tally.not_games == 1 { "" } else { "es" },
            if tally.not_games == 1 { "is" } else { "are" }
        ));
    }
    line.push(')');
    if args.lenient.on() {
        line.push_str(&format!("; {}", tally.repaired.summary()));
    }
    messages::say(line);
}
