//! `gamerec convert`: rewrite records as canonical text, JSON, JSON Lines,
//! CSV, or a site's move strings (every site notation the registry's games
//! have).

use super::input::{expand, options, read_all, InputArgs, Item, LenientArgs, Output, Writer};
use super::messages;
use super::progress::Progress;
use super::render::{problem_report, repair_lines, ColorChoice, Repaired};
use clap::builder::{PossibleValue, PossibleValuesParser};
use gamerec::convert::csv::{self as csv_rows, CsvSink};
use gamerec::convert::json::{self, JsonSink};
use gamerec::convert::out::Rendered;
use gamerec::convert::parquet::{At, GamesWriter};
use gamerec::convert::site::SiteSink;
use gamerec::convert::text::TextSink;
use gamerec::convert::{Collect, Converted, GameSink, Head, Tail, TraceOptions, TurnOut};
use gamerec::decode::Compression;
use gamerec::game::SiteFiles;
use gamerec::problem::{Problem, Repair};
use gamerec::record::{title, Chunk, ReadGame};
use gamerec::registry::{self, tell, AnyGame, AnySite};
use gamerec::sites::links::{self, LinkSink};
use gamerec::sites::records::{self, RecordSink};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

/// The output formats.
#[derive(Clone, Copy)]
pub(super) enum To {
    Text,
    Json,
    Jsonl,
    Csv,
    /// A Parquet games table (schema: notation/parquet.md).
    Parquet,
    /// A site's move strings, for the game that has that notation.
    Site(&'static dyn AnySite),
    /// AbstractPlay game records (one object, or an array of several),
    /// for the game the site keeps them of.
    SiteRecord(&'static dyn AnySite, &'static str),
    /// The Garden Gate's long game links, one per line.
    SiteLink(&'static dyn AnySite, u32),
}

impl To {
    pub(super) fn named(name: &str) -> Option<To> {
        let files = |f: fn(SiteFiles) -> bool| registry::sites().find(|s| f(s.format().files));
        Some(match name {
            "text" => To::Text,
            "json" => To::Json,
            "jsonl" => To::Jsonl,
            "csv" => To::Csv,
            "parquet" => To::Parquet,
            records::NAME => {
                let site = files(|f| matches!(f, SiteFiles::Records { .. }))?;
                let SiteFiles::Records { name } = site.format().files else {
                    return None;
                };
                To::SiteRecord(site, name)
            }
            links::NAME => {
                let site = files(|f| matches!(f, SiteFiles::Links { .. }))?;
                let SiteFiles::Links { game_type } = site.format().files else {
                    return None;
                };
                To::SiteLink(site, game_type)
            }
            site => To::Site(registry::find_site(site)?),
        })
    }

    /// The site game this target carries, for a site's format.
    pub(super) fn site(self) -> Option<&'static dyn AnySite> {
        match self {
            To::Site(s) | To::SiteRecord(s, _) | To::SiteLink(s, _) => Some(s),
            _ => None,
        }
    }
}

/// `--to`'s values: the built-in formats and every registered site notation.
pub(super) fn to_values() -> PossibleValuesParser {
    let mut values = vec![
        PossibleValue::new("text").help("The canonical record format"),
        PossibleValue::new("json")
            .help("One JSON document holding every game (schema: notation/json.md)"),
        PossibleValue::new("jsonl").help("JSON Lines: one game object per line"),
        PossibleValue::new("csv").help("One row per turn (columns: notation/convert.md)"),
        PossibleValue::new("parquet").help(
            "A Parquet file: one row per game, its turns a nested list (schema: \
             notation/parquet.md)",
        ),
    ];
    values.extend(
        registry::sites().map(|s| PossibleValue::new(s.format().name).help(s.format().title)),
    );
    values.push(PossibleValue::new(records::NAME).help(records::TITLE));
    values.push(PossibleValue::new(links::NAME).help(links::TITLE));
    PossibleValuesParser::new(values)
}

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
    #[arg(long, default_value = "text", value_parser = to_values())]
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

/// One game converted (on a worker thread): its output, and what the
/// sequential side needs to know of it.
pub(super) struct Read {
    rendered: Rendered,
    game: Option<&'static str>,
    error: Option<Problem>,
    title: Option<String>,
    /// Nothing of a game was read (no tags, turns or comments).
    nothing_read: bool,
    /// The target site can carry the game's start (true for other targets).
    carried: bool,
    /// What the target cannot carry: tags, comments, results.
    dropped: [usize; 3],
    /// Why the output could not be made, if it could not.
    failed: Option<String>,
    /// What `--lenient` repaired.
    pub(super) repairs: Vec<Repair>,
    /// The game whole, and where its problem lies (for Parquet).
    whole: Option<Box<(Converted, At)>>,
}

impl Read {
    pub(super) fn is_invalid(&self) -> bool {
        self.error.is_some()
    }

    /// Nothing of a game was read (text between games).
    pub(super) fn nothing_read(&self) -> bool {
        self.nothing_read
    }
    /// The game's size as written: its bytes, or for a Parquet row what
    /// its canonical text would take.
    pub(super) fn size(&self) -> usize {
        match &self.whole {
            None => self.rendered.len(),
            Some(whole) => {
                let g = &whole.0;
                let tags: usize = g.tags.iter().map(|(n, v)| n.len() + v.len() + 6).sum();
                let comments: usize = g.comments.iter().map(|c| c.len() + 3).sum();
                let turns: usize = (g.turns.iter())
                    .map(|t| {
                        t.text.len() + 1 + t.comments.iter().map(|c| c.len() + 3).sum::<usize>()
                    })
                    .sum();
                tags + comments + turns + 2
            }
        }
    }

    /// The game as canonical text (it was converted `--to text`).
    pub(super) fn into_text(self) -> io::Result<Vec<u8>> {
        if let Some(why) = self.failed {
            return Err(io::Error::other(why));
        }
        let mut text = Vec::new();
        self.rendered.write_to(&mut text, 0, None)?;
        Ok(text)
    }
}

/// What the run needs to know of a game converted.
#[derive(Default)]
struct Noted {
    game: Option<&'static str>,
    tags: usize,
    comments: usize,
    turn_comments: usize,
    result: bool,
    turns: usize,
    error: Option<Problem>,
}

/// Passes a game on to the format's writer, noting what the run needs to
/// know of it.
struct Recorder<'s> {
    inner: &'s mut dyn GameSink,
    noted: Noted,
}

impl GameSink for Recorder<'_> {
    fn head(&mut self, head: &Head<'_>) {
        self.noted.game = head.game;
        self.noted.tags = head.tags.len();
        self.noted.comments = head.comments.len();
        self.inner.head(head);
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        self.noted.turns += 1;
        self.noted.turn_comments += turn.comments.len();
        self.inner.turn(turn);
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        self.noted.result = tail.result.is_some();
        self.noted.error = tail.error.cloned();
        self.inner.tail(tail);
    }
}

/// A CSV writer's error as the I/O error it is (a closed pipe stays one).
pub fn csv_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

/// What converting one game needs besides the game.
#[derive(Clone, Copy)]
pub(super) struct Job<'a> {
    pub(super) to: To,
    pub(super) trace: TraceOptions,
    /// The input's name (the CSV's `file` column).
    pub(super) file: &'a str,
    pub(super) spreadsheet_safe: bool,
}

/// Converts one game (on a worker thread): replays it and writes it in the
/// target format as it goes.
pub(super) fn read_one(
    job: Job<'_>,
    chunk: Option<&Chunk>,
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
) -> Read {
    let known = rules.as_ref().ok().copied();
    let repairs = game.repairs().to_vec();
    let carried = match (job.to.site(), known) {
        // A link carries the game's options too.
        (Some(site), Some(_)) if matches!(job.to, To::SiteLink(..)) => {
            let tags: Vec<_> = game
                .tags()
                .iter()
                .filter(|t| t.name != "Options")
                .cloned()
                .collect();
            site.can_carry(&tags)
        }
        (Some(site), Some(_)) => site.can_carry(game.tags()),
        _ => true,
    };
    let mut rendered = Rendered::new();
    let mut failed = None;
    let mut site_left_out = [0; 2];
    let record = |sink: &mut dyn GameSink| {
        let mut recorder = Recorder {
            inner: sink,
            noted: Noted::default(),
        };
        tell(game, rules, job.trace, &mut recorder);
        recorder.noted
    };
    let mut whole = None;
    let r = match job.to {
        To::Text => record(&mut TextSink::new(&mut rendered)),
        To::Parquet => {
            let mut collect = Collect::new(0);
            let r = record(&mut collect);
            let game = collect.into_game();
            let at = (game.error.as_ref()).and_then(|p| chunk.map(|c| c.locate(p.span.start)));
            whole = Some(Box::new((game, at)));
            r
        }
        To::Json | To::Jsonl => {
            let mut sink = JsonSink::new(&mut rendered, chunk);
            let r = record(&mut sink);
            failed = sink.failed.take().map(|e| e.to_string());
            r
        }
        To::Csv => {
            let mut sink = CsvSink::new(&mut rendered, job.file, None, job.spreadsheet_safe);
            let r = record(&mut sink);
            failed = sink.failed.take().map(|e| e.to_string());
            r
        }
        To::Site(s) => record(&mut SiteSink::new(&mut rendered, s.format())),
        To::SiteRecord(_, name) => {
            let mut sink = RecordSink::new(&mut rendered, name);
            let r = record(&mut sink);
            site_left_out = sink.left_out;
            r
        }
        To::SiteLink(_, game_type) => {
            let mut sink = LinkSink::new(&mut rendered, game_type);
            let r = record(&mut sink);
            site_left_out = sink.left_out;
            r
        }
    };
    let dropped = match job.to {
        To::Csv => [r.tags, r.comments, usize::from(r.result)],
        To::Site(_) => [r.tags, r.comments + r.turn_comments, usize::from(r.result)],
        // A record carries its result (the players'); a link does not.
        To::SiteRecord(..) => [site_left_out[0], site_left_out[1], 0],
        To::SiteLink(..) => [site_left_out[0], site_left_out[1], usize::from(r.result)],
        _ => [0; 3],
    };
    // A title is shown with a problem or a repair only.
    let title = (r.error.is_some() || !repairs.is_empty())
        .then(|| title(game.tags(), known.map_or(["", ""], |r| r.sides())))
        .flatten();
    Read {
        rendered,
        game: r.game,
        error: r.error,
        title,
        nothing_read: r.tags == 0 && r.turns == 0 && r.comments == 0,
        carried,
        dropped,
        failed,
        repairs,
        whole,
    }
}

/// Where converted games go: bytes (compressed or not), or a Parquet table
/// being built.
pub(super) enum Dest {
    Bytes(Writer),
    Zstd(Box<zstd::Encoder<'static, Writer>>),
    Gzip(Box<flate2::write::GzEncoder<Writer>>),
    Parquet(Box<GamesWriter<Writer>>),
}

impl Dest {
    /// The destination of `to` over `out`.
    pub(super) fn new(to: To, out: Writer) -> io::Result<Dest> {
        Ok(match to {
            To::Parquet => Dest::Parquet(Box::new(GamesWriter::new(out)?)),
            _ => Dest::Bytes(out),
        })
    }

    /// The bytes of `out`, compressed as asked.
    pub(super) fn compressed(out: Writer, compression: Compression) -> io::Result<Dest> {
        Ok(match compression {
            Compression::None => Dest::Bytes(out),
            Compression::Zstd => Dest::Zstd(Box::new(zstd::Encoder::new(out, 0)?)),
            Compression::Gzip => Dest::Gzip(Box::new(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::default(),
            ))),
        })
    }

    /// Finishes the output and puts it in place.
    pub(super) fn commit(self) -> io::Result<()> {
        match self {
            Dest::Bytes(w) => w.commit(),
            Dest::Zstd(z) => z.finish()?.commit(),
            Dest::Gzip(g) => g.finish()?.commit(),
            Dest::Parquet(p) => p.finish()?.commit(),
        }
    }
}

impl Write for Dest {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Dest::Bytes(w) => w.write(buf),
            Dest::Zstd(z) => z.write(buf),
            Dest::Gzip(g) => g.write(buf),
            Dest::Parquet(_) => Err(io::Error::other("bytes cannot go into a Parquet table")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Dest::Bytes(w) => w.flush(),
            Dest::Zstd(z) => z.flush(),
            Dest::Gzip(g) => g.flush(),
            Dest::Parquet(_) => Ok(()),
        }
    }
}

/// Writes a converted game in the target format.
pub(super) fn write(
    to: To,
    out: &mut Dest,
    file: &str,
    index: usize,
    read: Read,
    any: bool,
    held: &mut Option<Rendered>,
) -> io::Result<()> {
    if let Some(why) = read.failed {
        return Err(io::Error::other(format!("{file}: game {index}: {why}")));
    }
    match to {
        To::Parquet => {
            let (Dest::Parquet(table), Some(whole)) = (out, read.whole) else {
                return Err(io::Error::other("a Parquet table was not opened"));
            };
            let (mut game, at) = *whole;
            game.index = index;
            table.push(file, &game, at)
        }
        To::Text => {
            if any {
                out.write_all(b"\n")?;
            }
            read.rendered.write_to(out, 0, None)
        }
        To::Json | To::Jsonl => {
            if any && matches!(to, To::Json) {
                out.write_all(b",\n")?;
            }
            // `{"file":…,"index":…,` before the rest of the game's object.
            let file = serde_json::Value::from(file).to_string();
            write!(out, "{{\"file\":{file},\"index\":{index},")?;
            read.rendered.write_to(out, 1, None)?;
            if matches!(to, To::Jsonl) {
                out.write_all(b"\n")?;
            }
            Ok(())
        }
        To::Csv => {
            let mut digits = itoa::Buffer::new();
            let index = digits.format(index).as_bytes();
            read.rendered
                .write_to(out, 0, Some((csv_rows::INDEX_MARK, index)))
        }
        To::Site(_) | To::SiteLink(..) => read.rendered.write_to(out, 0, None),
        To::SiteRecord(..) => {
            // One game: one record; several: an array of them. The first
            // is held until a second one shows which.
            if !any {
                *held = Some(read.rendered);
                return Ok(());
            }
            if let Some(first) = held.take() {
                out.write_all(b"[\n")?;
                first.write_to(out, 0, None)?;
            }
            out.write_all(b",\n")?;
            read.rendered.write_to(out, 0, None)
        }
    }
}

/// What comes before the first game (the JSON document's opening, the CSV
/// header).
pub(super) fn head(to: To, out: &mut Dest) -> io::Result<()> {
    match to {
        To::Json => out.write_all(json::document_start().as_bytes()),
        To::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.write_record(csv_rows::HEADER).map_err(csv_error)?;
            out.write_all(
                &w.into_inner()
                    .map_err(|e| io::Error::other(e.to_string()))?,
            )
        }
        _ => Ok(()),
    }
}

/// What comes after the last game (the JSON document's end, the
/// AbstractPlay array's, or the one record held).
pub(super) fn tail(to: To, out: &mut Dest, any: bool, held: Option<Rendered>) -> io::Result<()> {
    if let To::SiteRecord(..) = to {
        return match (held, any) {
            (Some(one), _) => {
                one.write_to(out, 0, None)?;
                out.write_all(b"\n")
            }
            (None, true) => out.write_all(b"\n]\n"),
            (None, false) => out.write_all(b"[]\n"),
        };
    }
    match (to, any) {
        (To::Json, false) => {
            out.write_all(json::document_start().trim_end().as_bytes())?;
            out.write_all(b"]}\n")
        }
        (To::Json, true) => out.write_all(json::DOCUMENT_END.as_bytes()),
        _ => Ok(()),
    }
}

/// Why a game is left out of a site's strings, if it is.
fn left_out(to: To, game: Option<&str>, index: usize, carried: bool) -> Option<String> {
    let site = to.site()?;
    let name = match to {
        To::SiteRecord(..) => records::NAME,
        To::SiteLink(..) => links::NAME,
        _ => site.format().name,
    };
    match game {
        // Unknown rules: already reported as invalid.
        None => Some(String::new()),
        Some(got) if got != site.game().name() => Some(format!(
            "game {index} is {got}; {name} carries only {} games: left out",
            site.game().name()
        )),
        Some(_) if !carried => Some(format!(
            "game {index} starts from a position or with a setting (tags Position, settings) \
             that {name} cannot express: left out"
        )),
        Some(_) => None,
    }
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
    if let Err(e) = head(to, &mut out) {
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
        read_one(job, chunk, game, rules)
    };
    let each = |name: &str, item: Item<'_, Read>| {
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
        if let Some(why) = left_out(to, read.game, index, read.carried) {
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
        write(to, &mut out, name, index, read, any, &mut held)?;
        Ok(ControlFlow::Continue(()))
    };
    let read = read_all(sources, &args.input, &opts, &progress, map, each);
    progress.finish();
    let any = tally.any;
    let result = read.and_then(|_| tail(to, &mut out, any, held));
    messages::finished(result.and_then(|()| out.commit()));
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
