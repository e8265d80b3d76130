//! The run every command that reads archives shares (xsv's `Config`):
//! the rules `--game` names, the input format and encoding, the threads;
//! the paths walked by the library (what the walk says is said here, the
//! output never among the inputs); a progress bar; then every game read
//! through the library's one reading path, each handed to the command with
//! its input and its index there. What cannot be read is said (exit 2) and
//! the rest is read; an input with no game gamerec plays makes the exit
//! code 1; writing the output ends in [`messages::finished`].

use super::messages;
use super::options::{InputArgs, Jobs, LenientArgs};
use super::progress::Progress;
use gamerec::convert::{self, Export};
use gamerec::decode::Encoding;
use gamerec::formats::write::Framed;
use gamerec::formats::{self, Format, Visit};
use gamerec::inputs::{self, How, Item, Read, Seen};
use gamerec::output::{Output, Writer};
use gamerec::passthrough::Sink;
use gamerec::reading::Options;
use gamerec::registry::{self, AnyGame};
use gamerec::shard::{self, Done, Failed, Plan, Tell};
use gamerec::sources::{self, Said, Source};
use std::io;
use std::ops::ControlFlow;
use std::path::Path;

/// A run over the inputs a command names.
pub struct Run {
    pub sources: Vec<Source>,
    /// How games are read: the rules of untagged records, `--lenient`,
    /// threads, the spool cap, and what the command adds.
    pub opts: Options,
    from: Option<Format>,
    encoding: Encoding,
    progress: Progress,
}

impl Run {
    /// Starts a run over `input`'s paths, `output` never among them;
    /// `None` when it cannot (said: exit 2).
    pub fn start(input: &InputArgs, jobs: &Jobs, output: &Output) -> Option<Run> {
        let mut opts = options(input.game.as_deref())?;
        opts.jobs = jobs.threads();
        opts.max_spool = Some(input.max_spool);
        let sources = walk(input, output)?;
        Some(Run {
            sources,
            opts,
            from: formats::reader(&input.from),
            encoding: input.encoding.encoding(),
            progress: Progress::none(),
        })
    }

    /// Reads leniently when asked to.
    pub fn lenient(mut self, lenient: &LenientArgs) -> Run {
        self.opts = lenient.apply(self.opts);
        self
    }

    /// Shows a progress bar over the inputs' bytes (not when `quiet`, nor
    /// when stderr is no terminal).
    pub fn progress(mut self, quiet: bool) -> Run {
        self.progress = Progress::for_sources(&self.sources, quiet);
        self
    }

    /// How the library reads the inputs, their bytes counted on the bar.
    fn how<'c>(&self, count: &'c inputs::Count<'c>) -> How<'c> {
        How {
            from: self.from,
            encoding: self.encoding,
            opts: self.opts,
            count: Some(count),
        }
    }

    /// Reads every game of every input: `map` works on each as it is read
    /// (on worker threads), `each` sees the results in input order, each
    /// with its input and index, and may stop the run; it also sees each
    /// input with no game gamerec plays (exit code 1). An input that
    /// cannot be read is said (exit 2) and the rest is read. At the end,
    /// what was skipped is noted and the bar removed. Errors writing the
    /// output come back.
    pub fn read<T, M, E>(&self, map: M, each: E) -> io::Result<Read>
    where
        T: Send,
        M: Fn(Visit<'_, '_>) -> T + Sync,
        E: FnMut(Item<'_, T>) -> io::Result<ControlFlow<()>>,
    {
        self.read_sources(&self.sources, map, each)
    }

    /// Every game replayed with the statistics' trace
    /// (`gamerec::stats::traced_with`, the branching factor counted when
    /// `branching`), handed to `add` with its input's name in input order;
    /// an invalid game is said (unless `quiet`) and still handed on
    /// (`ratings`, `report`).
    pub fn traced(
        &self,
        (quiet, color, branching): (bool, bool, bool),
        mut add: impl FnMut(&str, gamerec::sink::Converted),
    ) -> io::Result<Read> {
        let map = |v: Visit<'_, '_>| {
            let sides = v.rules.as_ref().map_or(["", ""], |r| r.sides());
            let traced = gamerec::stats::traced_with(v.game, v.rules, branching);
            let title = (traced.error.is_some())
                .then(|| gamerec::record::title(v.game.tags(), sides))
                .flatten();
            (traced, title)
        };
        let each = |item: Item<'_, (gamerec::sink::Converted, Option<String>)>| {
            let Some(game) = game(item) else {
                return Ok(ControlFlow::Continue(()));
            };
            let (mut converted, title) = game.value;
            converted.index = game.index;
            if let Some(p) = &converted.error {
                match quiet {
                    true => messages::invalid(),
                    false => report_invalid(
                        game.input,
                        game.chunk,
                        Some(game.index),
                        title.as_deref(),
                        p,
                        color,
                    ),
                }
            }
            add(game.input, converted);
            Ok(ControlFlow::Continue(()))
        };
        self.read(map, each)
    }

    /// [`Run::read`] over these sources.
    pub fn read_sources<T, M, E>(&self, sources: &[Source], map: M, mut each: E) -> io::Result<Read>
    where
        T: Send,
        M: Fn(Visit<'_, '_>) -> T + Sync,
        E: FnMut(Item<'_, T>) -> io::Result<ControlFlow<()>>,
    {
        let bar = &self.progress;
        let count = move |raw| bar.count(raw);
        let read = inputs::read(sources, &self.how(&count), map, |item| {
            match item {
                Item::Failed { input, error } => {
                    messages::error(format!("{input}: {error}"));
                    return Ok(ControlFlow::Continue(()));
                }
                Item::Empty { .. } => messages::invalid(),
                Item::Game(_) => {}
            }
            each(item)
        });
        self.progress.finish();
        if let Some(note) = read.as_ref().ok().and_then(Read::skipped_note) {
            messages::note(note);
        }
        read
    }

    /// Reads only these records of one record-format file, each from its
    /// place (`filter --index`), as [`Run::read`] reads.
    pub fn read_pieces<T, M, E>(
        &self,
        name: &str,
        path: &Path,
        pieces: &[inputs::RecordPlace],
        map: M,
        each: E,
    ) -> io::Result<ControlFlow<()>>
    where
        M: Fn(Visit<'_, '_>) -> T + Sync,
        E: FnMut(Item<'_, T>) -> io::Result<ControlFlow<()>>,
    {
        let count = |raw| raw;
        inputs::read_pieces(name, path, pieces, &self.how(&count), map, each)
    }
}

impl Run {
    /// Converts every game into `out` (the library's `convert::run`), their
    /// bytes counted on the bar; an input that cannot be read is said
    /// (exit 2), one with no game makes the exit code 1 (and is told).
    pub fn export<W: std::io::Write + Send>(
        &self,
        export: Export,
        out: Framed<W>,
        tell: &mut dyn FnMut(convert::ConvertEvent<'_>),
    ) -> io::Result<(W, convert::Conversion)> {
        let bar = &self.progress;
        let count = move |raw| bar.count(raw);
        let done = convert::run(
            &self.sources,
            &self.how(&count),
            export,
            out,
            &mut |event| {
                match &event {
                    convert::ConvertEvent::Input(Item::Failed { input, error }) => {
                        messages::error(format!("{input}: {error}"))
                    }
                    convert::ConvertEvent::Input(Item::Empty { .. }) => messages::invalid(),
                    _ => {}
                }
                tell(event)
            },
        );
        self.progress.finish();
        if let Some(note) = done.as_ref().ok().and_then(|(_, t)| t.read.skipped_note()) {
            messages::note(note);
        }
        done
    }

    /// Cuts the inputs into shards (the library's `shard::cut`), their
    /// bytes counted on the bar.
    pub fn cut(&self, dir: &Path, plan: &Plan, tell: &mut Tell<'_>) -> Result<Done, Failed> {
        let bar = &self.progress;
        let count = move |raw| bar.count(raw);
        let done = shard::cut(dir, plan, &self.sources, &self.how(&count), tell);
        self.progress.finish();
        done
    }
}

/// The reading options `--game` gives; `None` (said) for an unknown game.
pub fn options(game: Option<&str>) -> Option<Options> {
    let mut opts = Options::default();
    if let Some(name) = game {
        opts.default_game = Some(find(name)?);
    }
    Some(opts)
}

/// The game called `name`; `None` (said) when there is none.
pub fn find(name: &str) -> Option<&'static dyn AnyGame> {
    let found = registry::find(name);
    if found.is_none() {
        messages::error(format!(
            "unknown game `{name}`: one of {}",
            registry::names().join(", ")
        ));
    }
    found
}

/// Walks `input`'s paths through the library, saying what it says; `None`
/// when it refused (an input is the output: nothing may be read).
pub fn walk(input: &InputArgs, output: &Output) -> Option<Vec<Source>> {
    let walked = sources::walk(&input.paths, input.all, output);
    said(walked.said);
    (!walked.refused).then_some(walked.sources)
}

/// Says what a walk said: its notes and its errors (exit 2).
pub fn said(said: Vec<Said>) {
    for said in said {
        match said {
            Said::Note(n) => messages::note(n),
            Said::Error(e) => messages::error(e),
        }
    }
}

/// Opens `output` for writing; `None` when it cannot be (said): a
/// standard output closed when gamerec started, a file that cannot be
/// made.
pub fn create(output: &Output) -> Option<Writer> {
    if output.path().is_none() && messages::stdout_closed() {
        return None;
    }
    match output.create() {
        Ok(w) => Some(w),
        Err(e) => {
            messages::error(e);
            None
        }
    }
}

/// Refuses a binary format on a terminal (said); whether it was refused.
pub fn binary_to_terminal(to: Format, output: &Output) -> bool {
    let refused = matches!(to, Format::Parquet) && output.is_terminal();
    if refused {
        messages::error("Parquet is a binary format: write it to a file with -o, or pipe it");
    }
    refused
}

/// The game of an item; an input with no game gamerec plays is said (a
/// warning; its exit code is already 1), one that could not be read was
/// said by [`Run::read`].
pub fn game<T>(item: Item<'_, T>) -> Option<Seen<'_, T>> {
    match item.game() {
        Ok(seen) => Some(seen),
        Err(Item::Empty { input, skipped }) => {
            no_game_warning(input, skipped);
            None
        }
        Err(_) => None,
    }
}

/// An invalid game, said on stderr as every command says it; the exit
/// code becomes 1.
pub fn report_invalid(
    input: &str,
    chunk: Option<&gamerec::record::Chunk>,
    index: Option<usize>,
    title: Option<&str>,
    problem: &gamerec::problem::Problem,
    color: bool,
) {
    messages::invalid();
    messages::to_stderr(|err| {
        gamerec::diagnostics::problem_report(err, input, chunk, index, title, problem, color)
    });
}

/// The warning for an input with no game gamerec plays (`convert`,
/// `stats`, `shard`).
pub fn no_game_warning(input: &str, skipped: usize) {
    let why = match skipped {
        0 => "no game here: the input is empty".to_string(),
        n => gamerec::reading::no_games(n).message,
    };
    messages::warning(format!("{input}: {why}"));
}

/// Opens `output` for records written as they were, or in `to`; `None`
/// when it cannot be (said).
pub fn sink(to: Option<Format>, output: &Output) -> Option<Sink> {
    if to.is_some_and(|t| binary_to_terminal(t, output)) {
        return None;
    }
    match Sink::new(to, create(output)?) {
        Ok(s) => Some(s),
        Err(e) => {
            messages::finished(Err(e));
            None
        }
    }
}

/// A second output (`--rest`, `--dups`), checked not to be one of the
/// inputs nor the same file as the `first` output, and opened: `Err` when
/// it cannot be (said), `Ok(None)` when none is asked for.
pub fn second(
    path: Option<&Path>,
    first: &Output,
    sources: &[Source],
    to: Option<Format>,
) -> Result<Option<Sink>, ()> {
    let Some(path) = path else {
        return Ok(None);
    };
    let output = Output::new(Some(path));
    if first.same_as(&output) {
        messages::error(format!(
            "{}: is also the other output (-o {}); two outputs on one file would lose one",
            path.display(),
            first
                .path()
                .map_or(String::new(), |p| p.display().to_string())
        ));
        return Err(());
    }
    if let Some(input) = sources::among(&output, sources) {
        messages::error(format!(
            "{}: is also the output; refusing to write over an input",
            input.display()
        ));
        return Err(());
    }
    sink(to, &output).map(Some).ok_or(())
}

/// Adds a walked game to `explorer`, reporting it when the plies walked
/// hold an error (`tree`, `view --tree`).
pub fn explore(
    explorer: &mut gamerec::walk::Explorer,
    seen: &Seen<'_, gamerec::tree::Walked>,
    color: bool,
) {
    let w = &seen.value;
    if let Some(p) = &w.error {
        let (input, chunk, title) = (seen.input, seen.chunk, w.title.as_deref());
        report_invalid(input, chunk, Some(seen.index), title, p, color);
    }
    if let (Some(game), Some(walk)) = (w.game, &w.walk) {
        explorer.add(game, seen.input, seen.index, walk);
    }
}

/// The players merged by `--alias`; `None` when the file cannot be read
/// (said, exit 2).
pub fn players(alias: Option<&Path>) -> Option<gamerec::ratings::Players> {
    gamerec::ratings::Players::from_alias_file(alias)
        .map_err(messages::error)
        .ok()
}
