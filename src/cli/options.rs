//! The options several commands share, each declared once here and
//! flattened into the commands that take it: the inputs (`PATHS`, `--all`,
//! `--from`, `--game`, `--encoding`, `--max-spool`), `--lenient`, `-o`,
//! `--quiet`, `--color`, `-j`; and the values `--from` and `--to` take,
//! from the library's table of formats.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use gamerec::decode::Encoding;
use gamerec::formats;
use gamerec::lenient::Lenient;
use gamerec::reading::Options;
use std::io::{self, IsTerminal};
use std::path::PathBuf;

/// The inputs, as every command that reads archives takes them.
#[derive(clap::Args, Clone, Debug)]
pub struct InputArgs {
    /// Files or directories (walked for .grec, .txt, .json, .jsonl and
    /// .parquet files, also compressed); `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// In directories, read every file, not only record files.
    #[arg(long)]
    pub all: bool,
    /// The input format (default: detected per input).
    #[arg(long, default_value = "auto", value_name = "FORMAT", value_parser = from_values())]
    pub from: String,
    /// The rules for records without a [Game] tag.
    #[arg(long, value_name = "GAME", help = super::default_game_help())]
    pub game: Option<String>,
    /// The inputs' text encoding (default: UTF-8, or UTF-16 after a
    /// UTF-16 byte-order mark).
    #[arg(long, default_value = "auto", value_name = "ENCODING", value_parser = encoding_values())]
    pub encoding: EncodingArg,
    /// A Parquet input that is not a file on disk (piped, compressed) is
    /// copied to a temporary file to be read: at most this much of it
    /// (e.g. 512M, 4G).
    #[arg(long, default_value = "1G", value_name = "SIZE", value_parser = parse_size)]
    pub max_spool: u64,
}

/// `--lenient` and `--keep-broken`.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct LenientArgs {
    /// Repair what can be repaired without guessing, and list every repair:
    /// wrong move numbers, a result the replay contradicts, a missing Game
    /// tag (when one game accepts every turn), a comment or tag value left
    /// open (closed at the end of its line), a truncated last move
    /// (notation/lenient.md).
    #[arg(long)]
    pub lenient: bool,
    /// From the first illegal turn on, keep the rest of a game as a comment
    /// instead of an error (implies --lenient).
    #[arg(long)]
    pub keep_broken: bool,
}

impl LenientArgs {
    /// `opts`, reading leniently when asked to.
    pub fn apply(&self, opts: Options) -> Options {
        Options {
            lenient: self.on().then_some(Lenient {
                keep_broken: self.keep_broken,
            }),
            ..opts
        }
    }

    pub fn on(&self) -> bool {
        self.lenient || self.keep_broken
    }
}

/// `-o FILE`.
#[derive(clap::Args, Clone, Debug)]
pub struct OutputArg {
    /// Write here instead of standard output (through a temporary file
    /// beside it, put in place at the end; never one of the inputs).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--quiet`.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Quiet {
    /// Say nothing on stderr but problems: no progress bar, no notes, no
    /// closing line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--color`.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Color {
    /// Colour in diagnostics (`auto`: on a terminal, unless NO_COLOR is
    /// set).
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: ColorChoice,
}

/// `--color`'s values: when to colour what is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// `auto`: colour only on a terminal, and never when `NO_COLOR` is set
    /// to a non-empty value.
    pub fn enabled(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }

    pub fn for_stdout(self) -> bool {
        self.enabled(io::stdout().is_terminal())
    }

    pub fn for_stderr(self) -> bool {
        self.enabled(io::stderr().is_terminal())
    }
}

/// `--jobs N`: how many threads replay games.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Jobs {
    /// Threads that replay games (default, or 0: one per core; 1 runs
    /// everything on the main thread, reporting each game as it is read; at
    /// most 4 per core).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
}

impl Jobs {
    /// The number of threads from `--jobs` (clamped, with a note, to 4
    /// threads per core).
    pub fn threads(&self) -> usize {
        let cores = gamerec::pipeline::threads(0);
        let ceiling = 4 * cores;
        match self.jobs {
            None | Some(0) => cores,
            Some(n) if n > ceiling => {
                super::messages::note(format!(
                    "--jobs {n} is more than 4 threads per core: using {ceiling}"
                ));
                ceiling
            }
            Some(n) => n,
        }
    }
}

/// `--encoding`: one of the library's encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodingArg(Encoding);

impl EncodingArg {
    pub fn encoding(self) -> Encoding {
        self.0
    }
}

/// `--encoding`'s values: the library's encodings.
pub fn encoding_values() -> impl TypedValueParser<Value = EncodingArg> {
    let values = Encoding::ALL.iter().map(|(name, help, _)| {
        let value = PossibleValue::new(*name);
        match help.is_empty() {
            true => value,
            false => value.help(*help),
        }
    });
    PossibleValuesParser::new(values)
        .map(|name| EncodingArg(Encoding::named(&name).unwrap_or_default()))
}

/// `--from`'s values: `auto`, then every format the library reads.
pub fn from_values() -> PossibleValuesParser {
    let auto = PossibleValue::new("auto").help("Decide from the file name and its first bytes");
    let all = formats::readable().into_iter();
    PossibleValuesParser::new(
        std::iter::once(auto).chain(all.map(|(name, help)| PossibleValue::new(name).help(help))),
    )
}

/// `--to`'s values: every format the library writes.
pub fn to_values() -> PossibleValuesParser {
    PossibleValuesParser::new(
        formats::writable()
            .into_iter()
            .map(|(name, help)| PossibleValue::new(name).help(help)),
    )
}

/// `64M` → 64 × 1024²; plain digits are bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix(['B', 'b']))
        .unwrap_or(t);
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 10),
        Some((i, 'm' | 'M')) => (&t[..i], 20),
        Some((i, 'g' | 'G')) => (&t[..i], 30),
        Some((i, 't' | 'T')) => (&t[..i], 40),
        _ => (t, 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a size like 1000, 500K, 64M or 2G"))?;
    let bytes = n
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    if bytes == 0 {
        return Err("a size of at least one byte".into());
    }
    Ok(bytes)
}

/// What a search takes (`analyse`, `moves --best`): the horizon, the
/// budget per position, the estimate's playouts and seed, the table.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct SearchArgs {
    /// The horizon, in plies (default: the game's own, notation/analysis.md).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(gamerec::search::MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// At most this many positions searched per position asked about (0:
    /// no cap).
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub nodes: u64,
    /// At most this long per position asked about, in seconds (e.g. 0.5;
    /// above 0, at most 604800, a week); the answer is then `unknown`
    /// where nothing was proven, and the estimate stops there too.
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub time: Option<std::time::Duration>,
    /// Random playouts per position for the win-chance estimate (Monte
    /// Carlo tree search; 0: no estimate; at most 10000000, and fewer where
    /// --time ends first).
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=i64::from(gamerec::search::chance::MAX_PLAYOUTS)))]
    pub playouts: u32,
    /// The estimate's seed: the same seed gives the same estimates, with
    /// any -j.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The transposition table per thread, in MiB (1 to 4096; all the
    /// threads' tables together at most half the machine's memory).
    #[arg(long, value_name = "MIB", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
}

impl SearchArgs {
    /// Whether `threads` tables of `--hash` MiB fit in this machine
    /// (a usage error said where they do not).
    pub fn tables_fit(&self, threads: usize) -> bool {
        match gamerec::search::fits(self.hash as usize, threads) {
            Ok(()) => true,
            Err(e) => {
                super::messages::error(format!("--hash {} with {threads} threads: {e}", self.hash));
                false
            }
        }
    }

    /// The library's settings, searching `plies`.
    pub fn settings(&self, plies: gamerec::analysis::Plies) -> gamerec::analysis::Settings {
        gamerec::analysis::Settings {
            depth: self.depth,
            budget: gamerec::search::Budget {
                until: None,
                nodes: (self.nodes > 0).then_some(self.nodes),
                time: self.time,
            },
            playouts: self.playouts,
            seed: self.seed,
            plies,
            table_mib: self.hash as usize,
            jobs: 1,
        }
    }
}

fn seconds(text: &str) -> Result<std::time::Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) => gamerec::search::Budget::seconds(s).map_err(|e| format!("`{text}`: {e}")),
        _ => Err(format!("`{text}` is not a number of seconds")),
    }
}

/// `--to human|json` for the commands that report on games (`validate`,
/// `analyse`): lines for people, or one JSON object per game per line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HumanOrJson {
    Human,
    Json,
}
