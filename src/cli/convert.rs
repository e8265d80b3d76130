//! `gamerec convert`: rewrite records as canonical text, JSON, JSON Lines,
//! CSV, or a site's move strings (every site notation the registry's games
//! have). The targets and the framing are the library's (`target`).

use super::messages;
use super::options::{Color, InputArgs, Jobs, LenientArgs, OutputArg, Quiet};
use super::run::{self, Run};
use gamerec::convert::{Conversion, ConvertEvent, Export};
use gamerec::diagnostics::{problem_report, repair_lines};
use gamerec::formats::write::Framed;
use gamerec::formats::{self, Dest, Format};
use gamerec::inputs::Item;
use gamerec::output::Output;

/// How input formats are detected: the library's table says.
fn after_help() -> String {
    format!(
        "Input formats are detected from the first bytes and the file's name (a format's own \
         mark first, then the extension, then the first word): {}.\nProblems go to stderr; an \
         invalid game is converted up to its error (left out with --skip-invalid); a game the \
         target cannot carry is left out, said as a usage error.",
        formats::detection_help()
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
    let out = match Dest::new(to, out).and_then(|out| Framed::new(to, out)) {
        Ok(out) => out,
        Err(e) => return messages::finished(Err(e)),
    };
    // Not over output on the same terminal.
    let run = run
        .lenient(&args.lenient)
        .progress(args.quiet.quiet || output.is_terminal());
    let export = Export {
        to,
        syntax_only: args.syntax_only,
        skip_invalid: args.skip_invalid,
        spreadsheet_safe: args.spreadsheet_safe,
    };
    let color = args.color.color.for_stderr();
    let done = run.export(export, out, &mut |event| match event {
        ConvertEvent::Repaired(at, repairs) if !args.quiet.quiet => messages::to_stderr(|err| {
            repair_lines(err, at.input, at.chunk, Some(at.index), at.title, repairs)
        }),
        ConvertEvent::Repaired(..) => {}
        ConvertEvent::Invalid(at, p) => {
            messages::invalid();
            messages::to_stderr(|err| {
                problem_report(err, at.input, at.chunk, Some(at.index), at.title, p, color)
            });
        }
        ConvertEvent::LeftOut(input, why) if !why.is_empty() => {
            messages::error(format!("{input}: {why}"))
        }
        ConvertEvent::LeftOut(..) => {}
        ConvertEvent::Input(Item::Empty { input, skipped }) => run::no_game_warning(input, skipped),
        ConvertEvent::Input(_) => {}
    });
    let tally = match done {
        Ok((w, tally)) => {
            messages::finished(w.commit());
            tally
        }
        Err(e) => return messages::finished(Err(e)),
    };
    if !args.quiet.quiet {
        closing_notes(&args, to, &tally);
    }
}

/// What the run converted and what the target format left out.
fn closing_notes(args: &Args, to: Format, tally: &Conversion) {
    if let Some(note) = tally.left_out(&args.to, to) {
        messages::note(note);
    }
    messages::say(tally.summary(args.lenient.on()));
}
