//! `gamerec convert`: rewrite records as canonical text, JSON, JSON Lines,
//! CSV, or a site's move strings (every site notation the registry's games
//! have).

use super::input::{expand, options, read_all, InputArgs, Item, Output, Writer};
use super::messages;
use super::progress::Progress;
use super::render::{problem_report, ColorChoice};
use clap::builder::{PossibleValue, PossibleValuesParser};
use gamerec::convert::json::{self, ErrorOut};
use gamerec::convert::site::line;
use gamerec::convert::text::write_game;
use gamerec::convert::{csv as csv_rows, Converted, TraceOptions};
use gamerec::problem::Problem;
use gamerec::record::{Chunk, Parsed};
use gamerec::registry::{self, convert, AnyGame, AnySite};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

/// The output formats.
#[derive(Clone, Copy)]
enum To {
    Text,
    Json,
    Jsonl,
    Csv,
    /// A site's move strings, for the game that has that notation.
    Site(&'static dyn AnySite),
}

impl To {
    fn named(name: &str) -> Option<To> {
        Some(match name {
            "text" => To::Text,
            "json" => To::Json,
            "jsonl" => To::Jsonl,
            "csv" => To::Csv,
            site => To::Site(registry::find_site(site)?),
        })
    }
}

/// `--to`'s values: the built-in formats and every registered site notation.
fn to_values() -> PossibleValuesParser {
    let mut values = vec![
        PossibleValue::new("text").help("The canonical record format"),
        PossibleValue::new("json")
            .help("One JSON document holding every game (schema: notation/json.md)"),
        PossibleValue::new("jsonl").help("JSON Lines: one game object per line"),
        PossibleValue::new("csv").help("One row per turn (columns: notation/convert.md)"),
    ];
    values.extend(
        registry::sites().map(|s| PossibleValue::new(s.format().name).help(s.format().title)),
    );
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
}

/// One game converted (in parallel), with what the sequential side needs
/// to know of its record.
struct Read {
    /// For text and JSON targets the game is written here already (JSON
    /// without its place) and `game` keeps no turns.
    rendered: Option<String>,
    game: Converted,
    title: Option<String>,
    /// Nothing of a game was read (no tags, turns or comments).
    nothing_read: bool,
    /// The target site can carry the game's start (true for other targets).
    carried: bool,
}

/// The output side: one format's writer.
enum Sink {
    Text { first: bool },
    Json { first: bool },
    Jsonl,
    Csv(Box<csv::Writer<Writer>>),
    Site(&'static dyn AnySite),
}

fn problem_out<'a>(chunk: Option<&Chunk>, p: &'a Problem) -> ErrorOut<'a> {
    let at = chunk.map(|c| super::render::locate(c, p.span));
    ErrorOut {
        code: p.code.as_str(),
        message: &p.message,
        line: at.map(|a| a.line),
        column: at.map(|a| a.column),
        ply: p.ply,
        token: p.token.as_deref(),
    }
}

/// A CSV writer's error as the I/O error it is (a closed pipe stays one).
pub fn csv_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

/// A CSV cell made safe for spreadsheets: `'` before a leading `=`, `+`,
/// `-`, `@`, tab or carriage return.
pub fn spreadsheet_safe(cell: &str) -> std::borrow::Cow<'_, str> {
    match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => format!("'{cell}").into(),
        _ => cell.into(),
    }
}

impl Sink {
    fn new(to: To, out: Writer) -> io::Result<(Sink, Option<Writer>)> {
        Ok(match to {
            To::Text => (Sink::Text { first: true }, Some(out)),
            To::Json => {
                let mut out = out;
                out.write_all(json::document_start().as_bytes())?;
                (Sink::Json { first: true }, Some(out))
            }
            To::Jsonl => (Sink::Jsonl, Some(out)),
            To::Csv => {
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(out);
                w.write_record(csv_rows::HEADER).map_err(csv_error)?;
                (Sink::Csv(Box::new(w)), None)
            }
            To::Site(site) => (Sink::Site(site), Some(out)),
        })
    }

    fn write(
        &mut self,
        out: &mut Option<Writer>,
        file: &str,
        game: &Converted,
        rendered: Option<&str>,
        tally: &mut Tally,
        safe: bool,
    ) -> io::Result<()> {
        let rendered = || rendered.ok_or_else(|| io::Error::other("a game not rendered"));
        let mut out = out.as_mut();
        let mut write = |bytes: &[u8]| match out.as_mut() {
            Some(o) => o.write_all(bytes),
            None => Ok(()),
        };
        match self {
            Sink::Text { first } => {
                if !*first {
                    write(b"\n")?;
                }
                *first = false;
                write(rendered()?.as_bytes())
            }
            Sink::Json { first } => {
                if !*first {
                    write(b",\n")?;
                }
                *first = false;
                write(json::with_place(file, game.index, rendered()?).as_bytes())
            }
            Sink::Jsonl => {
                write(json::with_place(file, game.index, rendered()?).as_bytes())?;
                write(b"\n")
            }
            Sink::Csv(w) => {
                tally.dropped[0] += game.tags.len();
                tally.dropped[1] += game.comments.len();
                tally.dropped[2] += usize::from(game.result.is_some());
                for row in csv_rows::rows(file, game) {
                    let cells = row.cells();
                    let cells = cells.iter().map(|c| {
                        if safe {
                            spreadsheet_safe(c)
                        } else {
                            std::borrow::Cow::Borrowed(c.as_str())
                        }
                    });
                    w.write_record(cells.map(|c| c.into_owned()))
                        .map_err(csv_error)?;
                }
                Ok(())
            }
            Sink::Site(site) => {
                tally.dropped[0] += game.tags.len();
                tally.dropped[1] += game.comments.len()
                    + game.turns.iter().map(|t| t.comments.len()).sum::<usize>();
                tally.dropped[2] += usize::from(game.result.is_some());
                // One line per game, an empty one for a game with no turn.
                write(line(game, site.format()).as_bytes())?;
                write(b"\n")
            }
        }
    }

    fn finish(self, out: Option<Writer>) -> io::Result<()> {
        match (self, out) {
            (Sink::Json { first }, Some(mut out)) => {
                if first {
                    out.write_all(json::document_start().trim_end().as_bytes())?;
                    out.write_all(b"]}\n")?;
                } else {
                    out.write_all(json::DOCUMENT_END.as_bytes())?;
                }
                out.commit()
            }
            (Sink::Csv(w), _) => w
                .into_inner()
                .map_err(|e| io::Error::new(e.error().kind(), e.error().to_string()))?
                .commit(),
            (_, Some(out)) => out.commit(),
            (_, None) => Ok(()),
        }
    }
}

/// Converts one game (on a worker thread): replays it and, for text and
/// JSON, renders it.
fn read_one(
    to: To,
    trace: TraceOptions,
    chunk: Option<&Chunk>,
    parsed: Parsed,
    rules: Result<&'static dyn AnyGame, Problem>,
) -> Read {
    let record = &parsed.record;
    let known = rules.as_ref().ok();
    let title = record.title(known.map_or(["", ""], |r| r.sides()));
    let nothing_read =
        record.tags.is_empty() && record.turns.is_empty() && record.comments.is_empty();
    let carried = match (to, known) {
        (To::Site(site), Some(_)) => site.can_carry(record),
        _ => true,
    };
    let mut game = convert(0, parsed.record, parsed.error, rules, trace);
    let rendered = match to {
        To::Text => {
            let mut s = String::new();
            write_game(&game, &mut s);
            Some(s)
        }
        To::Json | To::Jsonl => {
            let error = game.error.as_ref().map(|p| problem_out(chunk, p));
            // A game serde cannot write: reported when written.
            json::game_body(&game, error).ok()
        }
        _ => None,
    };
    if rendered.is_some() {
        // Only the verdict is still needed: what is waiting to be written
        // stays small.
        game.turns = Vec::new();
        game.tags = Vec::new();
        game.comments = Vec::new();
        game.trace = None;
    }
    Read {
        rendered,
        game,
        title,
        nothing_read,
        carried,
    }
}

/// Why a game is left out of a site's strings, if it is.
fn left_out(to: To, game: &Converted, carried: bool) -> Option<String> {
    let To::Site(site) = to else { return None };
    let name = site.format().name;
    match game.game {
        // Unknown rules: already reported as invalid.
        None => Some(String::new()),
        Some(got) if got != site.game().name() => Some(format!(
            "game {} is {got}; {name} carries only {} games: left out",
            game.index,
            site.game().name()
        )),
        Some(_) if !carried => Some(format!(
            "game {} starts from a position or with a setting (tags Position, settings) \
             that {name} cannot express: left out",
            game.index
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
    args.jobs.init();
    let output = Output::new(args.output.as_deref());
    let Some(sources) = expand(&args.input.paths, args.input.all, &output) else {
        return;
    };
    let Some(writer) = output.create() else {
        return;
    };
    let (mut sink, mut out) = match Sink::new(to, writer) {
        Ok(s) => s,
        Err(e) => return messages::finished(Err(e)),
    };
    let color = args.color.for_stderr();
    let trace = TraceOptions {
        syntax_only: args.syntax_only,
        branching: false,
        site: matches!(to, To::Site(_)),
    };
    let mut tally = Tally::default();
    // Not over output on the same terminal.
    let progress = Progress::for_sources(&sources, args.quiet || output.is_terminal());
    let map = |chunk: Option<&Chunk>, parsed, rules| read_one(to, trace, chunk, parsed, rules);
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
        let mut game = read.game;
        game.index = tally.index;
        if let Some(p) = &game.error {
            tally.invalid += 1;
            messages::invalid();
            let title = read.title.as_deref();
            messages::to_stderr(|err| {
                problem_report(err, name, chunk, Some(game.index), title, p, color)
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
        if let Some(why) = left_out(to, &game, read.carried) {
            if !why.is_empty() {
                messages::error(format!("{name}: {why}"));
            }
            return Ok(ControlFlow::Continue(()));
        }
        tally.written += 1;
        let safe = args.spreadsheet_safe;
        let rendered = read.rendered.as_deref();
        sink.write(&mut out, name, &game, rendered, &mut tally, safe)?;
        Ok(ControlFlow::Continue(()))
    };
    let read = read_all(sources, &args.input, &opts, &progress, map, each);
    progress.finish();
    messages::finished(read.and_then(|_| sink.finish(out)));
    if !args.quiet {
        closing_notes(&args, to, &tally);
    }
}

/// What the run converted and what the target format left out.
fn closing_notes(args: &Args, to: To, tally: &Tally) {
    let [tags, comments, results] = tally.dropped;
    if matches!(to, To::Csv | To::Site(_)) && tags + comments + results > 0 {
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
    messages::say(line);
}
