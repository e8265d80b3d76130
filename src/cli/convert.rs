//! `gamerec convert`: rewrite records as canonical text, JSON, JSON Lines,
//! CSV, or a site's move strings (every site notation the registry's games
//! have). The targets and the framing are the library's (`target`).

use super::input::{expand, options, read_all, InputArgs, Item, LenientArgs, Output};
use super::messages;
use super::options::ColorChoice;
use super::progress::Progress;
use gamerec::convert::TraceOptions;
use gamerec::record::{Chunk, ReadGame};
use gamerec::registry;
use gamerec::report::{problem_report, repair_lines, Repaired};
use gamerec::target::{self, convert_one, Dest, GameOut, Job, To};
use std::ops::ControlFlow;
use std::path::PathBuf;

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
    /// Write here instead of stdout (through a temporary file beside it,
    /// put in place at the end; never one of the inputs).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Leave invalid games out instead of converting them up to their error.
    #[arg(long)]
    skip_invalid: bool,
    /// Say nothing on stderr but problems.
    #[arg(short, long)]
    quiet: bool,
    /// Colour the problem reports on stderr.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
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
    jobs: super::jobs::Jobs,
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
    /// The game's index in its input, and the input.
    index: usize,
    input: String,
    /// A game was written already (for the separators).
    any: bool,
    repaired: Repaired,
}

pub fn run(args: Args) {
    let Some(to) = To::named(&args.to) else {
        return messages::error(format!("no output format `{}`", args.to));
    };
    if args.syntax_only && !matches!(to, To::Text) {
        return messages::error("--syntax-only writes text only (--to text)");
    }
    let Some(opts) = options(args.input.game.as_deref()) else {
        return;
    };
    if args.syntax_only && args.lenient.on() {
        return messages::error("--syntax-only replays nothing: it cannot repair (--lenient)");
    }
    let opts = args.lenient.apply(opts);
    args.jobs.init();
    let output = Output::new(args.output.as_deref());
    let Some(sources) = expand(&args.input.paths, args.input.all, &output) else {
        return;
    };
    if matches!(to, To::Parquet) && output.is_terminal() {
        return messages::error(
            "Parquet is a binary format: write it to a file with -o, or pipe it",
        );
    }
    let Some(out) = output.create() else {
        return;
    };
    let mut out = match Dest::new(to, out) {
        Ok(out) => out,
        Err(e) => return messages::finished(Err(e)),
    };
    if let Err(e) = target::head(to, &mut out) {
        return messages::finished(Err(e));
    }
    let color = args.color.for_stderr();
    let trace = TraceOptions {
        syntax_only: args.syntax_only,
        branching: false,
        site: to.site().is_some(),
    };
    let mut tally = Tally::default();
    let mut held = None;
    // Not over output on the same terminal.
    let progress = Progress::for_sources(&sources, args.quiet || output.is_terminal());
    let map = |file: &str, chunk: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| {
        let job = Job {
            to,
            trace,
            file,
            spreadsheet_safe: args.spreadsheet_safe,
        };
        convert_one(job, chunk, game, rules)
    };
    let each = |name: &str, item: Item<'_, GameOut>| {
        let Item::Game(chunk, read) = item else {
            messages::warning(format!("{name}: no game here: the input is empty"));
            return Ok(ControlFlow::Continue(()));
        };
        if tally.input != name {
            (tally.input, tally.index) = (name.to_string(), 0);
        }
        tally.index += 1;
        tally.games += 1;
        let index = tally.index;
        tally.repaired.add(&read.repairs);
        if !read.repairs.is_empty() && !args.quiet {
            let title = read.title.as_deref();
            messages::to_stderr(|err| {
                repair_lines(err, name, chunk, Some(index), title, &read.repairs)
            });
        }
        if let Some(p) = &read.error {
            tally.invalid += 1;
            messages::invalid();
            let title = read.title.as_deref();
            messages::to_stderr(|err| {
                problem_report(err, name, chunk, Some(index), title, p, color)
            });
            if read.nothing_read {
                // Text between games (or no game at all): nothing to write.
                tally.not_games += 1;
                return Ok(ControlFlow::Continue(()));
            }
            if args.skip_invalid {
                return Ok(ControlFlow::Continue(()));
            }
        }
        if let Some(why) = target::left_out(to, read.game, index, read.carried) {
            if !why.is_empty() {
                messages::error(format!("{name}: {why}"));
            }
            return Ok(ControlFlow::Continue(()));
        }
        tally.written += 1;
        for (total, n) in tally.dropped.iter_mut().zip(read.dropped) {
            *total += n;
        }
        let any = std::mem::replace(&mut tally.any, true);
        target::write(to, &mut out, name, index, read, any, &mut held)?;
        Ok(ControlFlow::Continue(()))
    };
    let read = read_all(sources, &args.input, &opts, &progress, map, each);
    progress.finish();
    let any = tally.any;
    let result = read.and_then(|_| target::tail(to, &mut out, any, held));
    messages::finished(result.and_then(|()| out.finish()?.commit()));
    if !args.quiet {
        closing_notes(&args, to, &tally);
    }
}

/// What the run converted and what the target format left out.
fn closing_notes(args: &Args, to: To, tally: &Tally) {
    let [tags, comments, results] = tally.dropped;
    if matches!(
        to,
        To::Csv | To::Site(_) | To::SiteRecord(..) | To::SiteLink(..)
    ) && tags + comments + results > 0
    {
        messages::note(format!(
            "{} cannot carry tags, {}or results: left out {tags} tags, {comments} comments \
             and {results} results",
            args.to,
            if matches!(to, To::Csv) {
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
