//! `gamerec convert`: rewrite records as canonical text, JSON, JSON Lines,
//! CSV, or a site's move strings (every site notation the registry's games
//! have).

use super::input::{each_input, expand, read_games, total_size, Inputs};
use super::progress::Progress;
use super::render::{diagnostic, locate, ColorChoice};
use super::EXIT_TROUBLE;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::Args as ClapArgs;
use gamerec::convert::json::{self, ErrorOut};
use gamerec::convert::site::line;
use gamerec::convert::text::write_game;
use gamerec::convert::{csv as csv_rows, Converted, TraceOptions};
use gamerec::game::SiteFormat;
use gamerec::problem::Problem;
use gamerec::record::Chunk;
use gamerec::registry::{self, convert, AnyGame, AnySite};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

/// The output formats.
#[derive(Clone, Copy)]
enum To {
    /// The canonical record format.
    Text,
    /// One JSON document holding every game (schema: notation/json.md).
    Json,
    /// JSON Lines: one game object per line.
    Jsonl,
    /// One row per turn (columns: notation/convert.md).
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

    fn is_text(self) -> bool {
        matches!(self, To::Text)
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

#[derive(ClapArgs)]
#[command(after_help = after_help())]
pub struct Args {
    /// Files or directories (walked for .grec and .txt files); `-` is stdin.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The output format.
    #[arg(long, default_value = "text", value_parser = to_values())]
    to: String,
    /// The input format (default: detected per input).
    #[arg(long, default_value = "auto", value_parser = super::input::from_values())]
    from: String,
    /// Write here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Rules for records without a `Game` tag.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Leave invalid games out instead of converting them up to their error.
    #[arg(long)]
    skip_invalid: bool,
    /// In directories, read every file, not only .grec and .txt.
    #[arg(long)]
    all: bool,
    /// Say nothing on stderr but problems.
    #[arg(short, long)]
    quiet: bool,
    /// Colour the problem reports on stderr.
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
    /// Check and rewrite the envelope only (tags, movetext, comments,
    /// results): moves are not replayed and stay as written. Text output
    /// only.
    #[arg(long)]
    syntax_only: bool,
    #[command(flatten)]
    jobs: super::jobs::Jobs,
}

/// What the run saw, for the exit code and the closing notes.
#[derive(Default)]
struct Tally {
    games: usize,
    written: usize,
    invalid: usize,
    /// Games of a game the target format cannot carry.
    foreign: usize,
    /// What the target format dropped: tags, comments, results.
    dropped: [usize; 3],
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
    Csv(Box<csv::Writer<Box<dyn Write>>>),
    Site(SiteFormat),
}

fn problem_out<'a>(chunk: Option<&Chunk>, p: &'a Problem) -> ErrorOut<'a> {
    let at = chunk.map(|c| locate(c, p.span));
    ErrorOut {
        code: p.code.as_str(),
        message: &p.message,
        line: at.map(|a| a.line),
        column: at.map(|a| a.column),
        ply: p.ply,
        token: p.token.as_deref(),
    }
}

/// Reports a problem on stderr: with the source marked when there is one,
/// else on one line.
pub fn report(
    name: &str,
    chunk: Option<&Chunk>,
    index: usize,
    title: Option<&str>,
    p: &Problem,
    color: bool,
) {
    let mut err = io::stderr().lock();
    let _ = match chunk {
        Some(chunk) => diagnostic(&mut err, name, chunk, Some(index), title, p, color),
        None => writeln!(
            err,
            "[{}] Error: {name}: {}: {}{}",
            p.code,
            super::render::place(Some(index), title, p.ply),
            p.message,
            p.token
                .as_deref()
                .map_or(String::new(), |t| format!(" (`{t}`)"))
        ),
    };
}

impl Sink {
    fn write(
        &mut self,
        out: &mut dyn Write,
        file: &str,
        game: &Converted,
        rendered: Option<&str>,
        tally: &mut Tally,
    ) -> io::Result<()> {
        let rendered = || rendered.ok_or_else(|| io::Error::other("a game not rendered"));
        match self {
            Sink::Text { first } => {
                if !*first {
                    out.write_all(b"\n")?;
                }
                *first = false;
                out.write_all(rendered()?.as_bytes())
            }
            Sink::Json { first } => {
                if !*first {
                    out.write_all(b",\n")?;
                }
                *first = false;
                out.write_all(json::with_place(file, game.index, rendered()?).as_bytes())
            }
            Sink::Jsonl => {
                out.write_all(json::with_place(file, game.index, rendered()?).as_bytes())?;
                out.write_all(b"\n")
            }
            Sink::Csv(w) => {
                tally.dropped[0] += game.tags.len();
                tally.dropped[1] += game.comments.len();
                tally.dropped[2] += usize::from(game.result.is_some());
                for row in csv_rows::rows(file, game) {
                    w.serialize(row).map_err(io::Error::other)?;
                }
                Ok(())
            }
            Sink::Site(format) => {
                tally.dropped[0] += game.tags.len();
                tally.dropped[1] += game.comments.len()
                    + game.turns.iter().map(|t| t.comments.len()).sum::<usize>();
                tally.dropped[2] += usize::from(game.result.is_some());
                let text = line(game, *format);
                if text.is_empty() {
                    return Ok(());
                }
                writeln!(out, "{text}")
            }
        }
    }

    fn finish(self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Sink::Json { first } => {
                if first {
                    out.write_all(json::document_start().trim_end().as_bytes())?;
                    out.write_all(b"]}\n")
                } else {
                    out.write_all(json::DOCUMENT_END.as_bytes())
                }
            }
            Sink::Csv(mut w) => w.flush(),
            _ => Ok(()),
        }
    }
}

pub fn run(args: Args) -> i32 {
    let Some(to) = To::named(&args.to) else {
        eprintln!("gamerec: no output format `{}`", args.to);
        return EXIT_TROUBLE;
    };
    if args.syntax_only && !to.is_text() {
        eprintln!("gamerec: --syntax-only writes text only (--to text)");
        return EXIT_TROUBLE;
    }
    if let Err(code) = args.jobs.init() {
        return code;
    }
    let opts = match super::default_game(args.game.as_deref()) {
        Ok(opts) => opts,
        Err(code) => return code,
    };
    let mut out = match super::output(args.output.as_deref()) {
        Ok(out) => out,
        Err(code) => return code,
    };
    // The site notation written, and the game that has it.
    let site = match to {
        To::Site(s) => Some(s.format().name),
        _ => None,
    };
    let site_game = match to {
        To::Site(s) => Some(s.game().name()),
        _ => None,
    };
    let mut sink = match to {
        To::Text => Sink::Text { first: true },
        To::Json => {
            if let Err(e) = out.write_all(json::document_start().as_bytes()) {
                eprintln!("gamerec: {e}");
                return EXIT_TROUBLE;
            }
            Sink::Json { first: true }
        }
        To::Jsonl => Sink::Jsonl,
        To::Csv => {
            let inner: Box<dyn Write> = std::mem::replace(&mut out, Box::new(io::sink()));
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(inner);
            if let Err(e) = w.write_record(csv_rows::HEADER) {
                eprintln!("gamerec: {e}");
                return EXIT_TROUBLE;
            }
            Sink::Csv(Box::new(w))
        }
        To::Site(s) => Sink::Site(s.format()),
    };
    let color = args.color.for_stderr();
    let trace = TraceOptions {
        syntax_only: args.syntax_only,
        branching: false,
        site: site.is_some(),
    };
    let mut tally = Tally::default();
    let mut trouble = Inputs::default();
    let sources = expand(&args.paths, args.all);
    // Not over output on the same terminal.
    let to_terminal = args.output.is_none() && io::stdout().is_terminal();
    let progress = Progress::new(total_size(&sources), args.quiet || to_terminal);
    let result = (|| -> io::Result<()> {
        let unreadable = each_input(sources, &progress, &mut |opened| {
            let name = opened.name.clone();
            let mut index = 0;
            // Replayed in parallel; reported and written in input order.
            let map = |chunk: Option<&Chunk>,
                       parsed: gamerec::record::Parsed,
                       rules: Result<&'static dyn AnyGame, Problem>| {
                let record = &parsed.record;
                let known = rules.as_ref().ok();
                let title = record.title(known.map_or(["", ""], |r| r.sides()));
                let nothing_read =
                    record.tags.is_empty() && record.turns.is_empty() && record.comments.is_empty();
                let carried = match (to, known) {
                    (To::Site(site), Some(_)) => site.can_carry(record),
                    _ => true,
                };
                let game = convert(0, parsed.record, parsed.error, rules, trace);
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
                let mut game = game;
                if rendered.is_some() {
                    // Only the verdict is still needed: what is waiting to
                    // be written stays small.
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
            };
            let each = |chunk: Option<&Chunk>, read: Read| {
                let Read {
                    rendered,
                    mut game,
                    title,
                    nothing_read,
                    carried,
                } = read;
                index += 1;
                game.index = index;
                tally.games += 1;
                if let Some(p) = &game.error {
                    tally.invalid += 1;
                    progress.suspend(|| report(&name, chunk, index, title.as_deref(), p, color));
                    if args.skip_invalid || nothing_read {
                        return Ok(());
                    }
                }
                if let (Some(want), Some(got)) = (site_game, game.game) {
                    if want != got {
                        tally.foreign += 1;
                        eprintln!(
                            "gamerec: {name}: game {index} is {got}; {} carries only {want} \
                             games: left out",
                            site.unwrap_or("")
                        );
                        return Ok(());
                    }
                }
                if site.is_some() && game.game.is_none() {
                    // Unknown rules: already reported as invalid.
                    return Ok(());
                }
                if let (Some(site), false) = (site, carried) {
                    tally.foreign += 1;
                    eprintln!(
                        "gamerec: {name}: game {index} starts from a position or with a \
                         setting (tags Position, settings) that {site} cannot express: left out"
                    );
                    return Ok(());
                }
                tally.written += 1;
                sink.write(&mut out, &name, &game, rendered.as_deref(), &mut tally)
            };
            read_games(opened, &args.from, &opts, map, each, &mut trouble)
        })?;
        trouble.unreadable += unreadable;
        std::mem::replace(&mut sink, Sink::Jsonl).finish(&mut out)?;
        out.flush()
    })();
    progress.finish();
    if let Err(code) = super::finished(result) {
        return code;
    }
    let lossy = matches!(to, To::Csv | To::Site(_));
    let [tags, comments, results] = tally.dropped;
    if lossy && !args.quiet && tags + comments + results > 0 {
        eprintln!(
            "gamerec: note: {} cannot carry tags, {}or results: left out {tags} tags, \
             {comments} comments and {results} results",
            args.to,
            if matches!(to, To::Csv) {
                "comments before the first turn "
            } else {
                "comments "
            }
        );
    }
    if !args.quiet {
        eprintln!(
            "gamerec: converted {} of {} games ({} invalid{})",
            tally.written,
            tally.games,
            tally.invalid,
            if tally.foreign > 0 {
                format!(", {} of another game", tally.foreign)
            } else {
                String::new()
            }
        );
    }
    super::exit_code(
        trouble.unreadable + tally.foreign,
        tally.invalid + trouble.empty,
    )
}
