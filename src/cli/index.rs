//! `gamerec index PATH... -o DIR`: the position index — every position
//! each game reached, mapped to its games and plies, with the turns played
//! there and each game's result (notation/index.md). Adding files to an
//! existing index updates it. `filter --reaches/--pattern --index DIR`,
//! `tree --index DIR` and Python's `gamerec.Index(DIR)` answer from it.

use super::messages;
use super::options::{Color, InputArgs, Jobs, Quiet};
use super::run::{self, Run};
use gamerec::index::{self, Builder, TracedGame};
use gamerec::inputs::Item;
use gamerec::output::Output;
use gamerec::sources::Source;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    mut_arg("quiet", |a| a.help("No progress bar, no closing line")),
    after_help = "The index's files and columns: notation/index.md. Every game is replayed \
whole; an invalid record is said (exit code 1) and indexed up to its error. A file already in \
the index is not added twice; one that changed since (size or time) is read again, its games \
replacing the old ones. One writer at a time: a second waits for the first. A folder that \
holds other files than an index is refused."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// The index's folder (made if missing; an index there gains the
    /// files).
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// Postings held in memory, in MiB (1 to 65536): two buffers of half
    /// each, one filling while the other is sorted and spilled as a run to
    /// the index's work folder.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    memory: u64,
    #[command(flatten)]
    color: Color,
    #[command(flatten)]
    jobs: Jobs,
    #[command(flatten)]
    quiet: Quiet,
}

pub fn run(args: Args) {
    let Some(mut run) = Run::start(&args.input, &args.jobs, &Output::new(None)) else {
        return;
    };
    if let Some(input) = overwritten(&run.sources, &args.output) {
        messages::error(format!(
            "{input}: is inside the index's folder {}, or is it; refusing to write over an input",
            args.output.display()
        ));
        return;
    }
    let Some(mut builder) = started(&args, &mut run.sources) else {
        return;
    };
    // Standard input: copied to a file, told apart by its digest.
    let Some(stdin) = spooled(&mut run.sources, &builder) else {
        return;
    };
    let paths: HashMap<String, PathBuf> = (run.sources.iter())
        .filter_map(|s| match s {
            Source::File(p) => Some((s.name(), p.clone())),
            _ => None,
        })
        .collect();
    let run = run.progress(args.quiet.quiet);
    let color = args.color.color.for_stderr();
    let mut current: Option<String> = None;
    let turns = builder.turns();
    let each = |item: Item<'_, TracedGame>| {
        let Some(seen) = run::game(item) else {
            return Ok(ControlFlow::Continue(()));
        };
        if current.as_deref() != Some(seen.input) {
            current = Some(seen.input.to_string());
            match (&stdin, paths.get(seen.input)) {
                (Some((file, digest)), None) if seen.input == "<stdin>" => {
                    builder.stdin(file.path(), *digest)?
                }
                (_, path) => builder.file(seen.input, path.map(PathBuf::as_path))?,
            }
        }
        let e = &seen.value;
        if let Some(p) = &e.error {
            let title = e.title.as_deref();
            run::report_invalid(seen.input, seen.chunk, Some(seen.index), title, p, color);
        }
        builder.add(seen.index, seen.value)?;
        Ok(ControlFlow::Continue(()))
    };
    let read = run.read(|v| index::trace(v, &turns), each);
    let built = read.and_then(|_| builder.finish());
    if let (Ok(b), false) = (&built, args.quiet.quiet) {
        say_built(&args, b);
    }
    messages::finished(built.map(|_| ()));
}

/// The builder, begun: the index's folder locked (waiting for another
/// writer, said), the inputs in the index already left out unless they
/// changed (then their games are replaced); `None` when it cannot start
/// (said).
fn started(args: &Args, sources: &mut Vec<Source>) -> Option<Builder> {
    let dir = args.output.display().to_string();
    let mut waiting = || {
        messages::note(format!(
            "{dir}: another gamerec index is writing it; waiting"
        ))
    };
    let memory = (args.memory as usize) << 20;
    let mut builder = match Builder::create(&args.output, memory, args.jobs.threads(), &mut waiting)
    {
        Ok(b) => b,
        Err(e) => {
            messages::error(format!("{dir}: {e}"));
            return None;
        }
    };
    // A file in the index already: not added twice, unless it changed.
    let mut replace = Vec::new();
    sources.retain(|s| match s {
        Source::File(p) if builder.changed(p) => {
            messages::note(format!(
                "{}: changed since it was indexed; its games are read again",
                p.display()
            ));
            replace.push(p.clone());
            true
        }
        Source::File(p) if builder.holds(p) => {
            messages::warning(format!(
                "{}: already in the index, unchanged; not added again",
                p.display()
            ));
            false
        }
        _ => true,
    });
    if let Err(e) = builder.begin(&replace) {
        messages::error(format!("{dir}: {e}"));
        return None;
    }
    Some(builder)
}

/// Standard input among the sources: copied to a file and its digest
/// taken; the same bytes as a standard input indexed before are not added
/// again (said, and left out). `None` when it cannot be copied (said).
fn spooled(
    sources: &mut Vec<Source>,
    builder: &Builder,
) -> Option<Option<(tempfile::NamedTempFile, u64)>> {
    let copied = gamerec::shard::spool_stdin(sources).and_then(|file| match file {
        Some(f) => Ok(Some((index::content_digest(f.path())?, f))),
        None => Ok(None),
    });
    match copied {
        Err(e) => {
            messages::error(format!("<stdin>: {e}"));
            None
        }
        Ok(None) => Some(None),
        Ok(Some((digest, file))) => match builder.holds_stdin(digest) {
            Some(n) => {
                messages::warning(format!(
                    "<stdin>: the same bytes as the standard input indexed before (file {}); not added again",
                    n + 1
                ));
                sources.retain(|s| !matches!(s, Source::Spooled(_)));
                Some(None)
            }
            None => Some(Some((file, digest))),
        },
    }
}

/// The closing line: what the index now holds.
fn say_built(args: &Args, b: &gamerec::index::Built) {
    messages::say(b.summary(&args.output, args.memory));
}

/// An input inside the index's folder, or the folder itself given as
/// a file (`index g.grec -o g.grec`).
fn overwritten(sources: &[Source], dir: &std::path::Path) -> Option<String> {
    let dir = std::fs::canonicalize(dir).ok()?;
    sources.iter().find_map(|s| {
        let Source::File(p) = s else {
            return None;
        };
        let p = std::fs::canonicalize(p).ok()?;
        p.starts_with(&dir).then(|| s.name())
    })
}
