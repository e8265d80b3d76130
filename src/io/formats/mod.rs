//! Every format gamerec reads or writes, one module each holding the
//! format's detection, its reader and its writer together: the record
//! format ([`text`]), a gamerec JSON document ([`json`]) and JSON Lines
//! ([`jsonl`]), CSV ([`csv`], written only), a Parquet games table
//! ([`parquet`]), a site's move strings ([`moves`], one format per
//! registered site notation), AbstractPlay's game records ([`records`])
//! and The Garden Gate's game links ([`links`]).
//!
//! [`FORMATS`] is the one table of them: `--from` and `--to` take their
//! names and help from it, detection tries its lines in order, and the
//! Python package lists it. A new format is a module here and one line
//! in the table (and its arm in [`Format`]'s dispatch: [`read`] and
//! [`write`] match on it, so the compiler names each place).
//!
//! The modules know the formats, not the games: which game a site's file
//! holds, and under what name, the registered games say (`SiteFiles`).

pub mod csv;
pub mod json;
pub mod jsonl;
pub mod links;
pub mod moves;
pub mod parquet;
pub mod read;
pub mod records;
pub mod rows;
pub mod scan;
pub mod text;
pub mod visit;
pub mod write;

pub use read::{read, read_mapped, read_nth};
pub use visit::{Cx, Each, HandOn, Map, Reading, Visit};
pub use write::{convert_one, Dest, GameOut, Job};

use crate::registry::AnySite;

/// A format, read or written.
#[derive(Clone, Copy)]
pub enum Format {
    /// The record format (canonical text when written).
    Text,
    /// A gamerec JSON document.
    Json,
    /// gamerec JSON Lines.
    Jsonl,
    /// CSV, one row per turn (written only).
    Csv,
    /// A gamerec Parquet games table.
    Parquet,
    /// A site's move strings, for the game that has that notation.
    Moves(&'static dyn AnySite),
    /// AbstractPlay's JSON game records (one, or arrays of them), of the
    /// game the site keeps them of.
    Records(&'static dyn AnySite),
    /// The Garden Gate's game links, one per line.
    Links(&'static dyn AnySite),
}

/// How sure a line of the table is that an input is in its format; the
/// surest line wins, the first in the table among equals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sure {
    /// Nothing says otherwise (the record format).
    Fallback,
    /// The first word reads in a site's move notation.
    Notation,
    /// The first word has the format's shape (`{`, a link).
    Token,
    /// The file name's extension (`.json`, `.jsonl`).
    Extension,
    /// The first bytes are the format's own mark (`PAR1`, `{"header"`).
    Magic,
}

/// What detection looks at: the input's name's extension (lowercase, after
/// a compression suffix; `None` for standard input), its first bytes (a
/// byte-order mark stripped), and their first word.
pub struct Peek<'a> {
    pub extension: Option<&'a str>,
    pub bytes: &'a [u8],
    pub token: &'a [u8],
}

/// One line of [`FORMATS`]: a format module's entry.
pub struct FormatEntry {
    /// The `--from`/`--to` name (empty: each site notation's own name).
    pub name: &'static str,
    /// What it is, for `--from`'s help (empty: not read; for a site
    /// notation, its title).
    pub read_help: &'static str,
    /// What it is, for `--to`'s help (empty: not written).
    pub write_help: &'static str,
    /// How detection knows the format, for help texts (empty: it does not
    /// detect it).
    pub detected_by: &'static str,
    /// The formats of the line: one, or one per registered site game.
    pub formats: fn() -> Vec<Format>,
    /// Whether an input is in the line's format, and how sure that is.
    pub detect: fn(&Peek<'_>) -> Option<(Sure, Format)>,
}

/// Every format, in the order help lists them and detection tries them.
pub(crate) static FORMATS: &[&FormatEntry] = &[
    &text::LINE,
    &json::LINE,
    &jsonl::LINE,
    &csv::LINE,
    &parquet::LINE,
    &moves::LINE,
    &records::LINE,
    &links::LINE,
];

impl Format {
    /// The format's line in [`FORMATS`].
    pub fn line(self) -> &'static FormatEntry {
        match self {
            Format::Text => &text::LINE,
            Format::Json => &json::LINE,
            Format::Jsonl => &jsonl::LINE,
            Format::Csv => &csv::LINE,
            Format::Parquet => &parquet::LINE,
            Format::Moves(_) => &moves::LINE,
            Format::Records(_) => &records::LINE,
            Format::Links(_) => &links::LINE,
        }
    }

    /// The `--from`/`--to` name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Moves(site) => site.format().name,
            _ => self.line().name,
        }
    }

    /// What it is when read (`None`: it is not).
    pub fn read_help(self) -> Option<&'static str> {
        match self {
            Format::Moves(site) => Some(site.format().title),
            _ => Some(self.line().read_help).filter(|h| !h.is_empty()),
        }
    }

    /// What it is when written (`None`: it is not).
    pub fn write_help(self) -> Option<&'static str> {
        match self {
            Format::Moves(site) => Some(site.format().title),
            _ => Some(self.line().write_help).filter(|h| !h.is_empty()),
        }
    }

    /// The site game a site's format carries.
    pub fn site(self) -> Option<&'static dyn AnySite> {
        match self {
            Format::Moves(s) | Format::Records(s) | Format::Links(s) => Some(s),
            _ => None,
        }
    }
}

/// Every format of the table, a site's line once per registered site game.
pub fn all() -> impl Iterator<Item = Format> {
    FORMATS.iter().flat_map(|line| (line.formats)())
}

/// The format called `name`, read or written.
pub fn named(name: &str) -> Option<Format> {
    all().find(|f| f.name() == name)
}

/// The formats gamerec reads, with their help: `--from`'s values (`auto`
/// is the front ends' own).
pub fn readable() -> Vec<(&'static str, &'static str)> {
    all()
        .filter_map(|f| Some((f.name(), f.read_help()?)))
        .collect()
}

/// The formats gamerec writes, with their help: `--to`'s values.
pub fn writable() -> Vec<(&'static str, &'static str)> {
    all()
        .filter_map(|f| Some((f.name(), f.write_help()?)))
        .collect()
}

/// The format read as `name` (`--from`); `None` when there is none or it is
/// not read.
pub fn reader(name: &str) -> Option<Format> {
    named(name).filter(|f| f.read_help().is_some())
}

/// The format written as `name` (`--to`); `None` when there is none or it
/// is not written.
pub fn writer(name: &str) -> Option<Format> {
    named(name).filter(|f| f.write_help().is_some())
}

/// The first word of `head` (after a byte-order mark and white space, up
/// to white space or `;`).
fn first_token(head: &[u8]) -> &[u8] {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let rest = &head[start..];
    let end = rest
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == b';')
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Guesses an input's format from its name's extension and its first
/// bytes: each line of [`FORMATS`] says whether the input is in its
/// format and how sure it is ([`Sure`]); the surest wins, the first line
/// among equals. Nothing sure: the record format.
pub fn detect(extension: Option<&str>, bytes: &[u8]) -> Format {
    let extension = extension.map(str::to_ascii_lowercase);
    let head = Peek {
        extension: extension.as_deref(),
        bytes,
        token: first_token(bytes),
    };
    let mut best: Option<(Sure, Format)> = None;
    for line in FORMATS {
        if let Some((sure, format)) = (line.detect)(&head) {
            if best.is_none_or(|(b, _)| sure > b) {
                best = Some((sure, format));
            }
        }
    }
    best.map_or(Format::Text, |(_, f)| f)
}

/// How detection tells each format, for help texts, in the table's order
/// and the record format last: `json: the extension …; …; text: anything
/// else`.
pub fn detection_help() -> String {
    let mut said: Vec<String> = all()
        .filter(|f| !matches!(f, Format::Text) && !f.line().detected_by.is_empty())
        .map(|f| match f {
            Format::Moves(site) => {
                let example = site.format().example;
                format!("{}: {} `{example}`", f.name(), f.line().detected_by)
            }
            _ => format!("{}: {}", f.name(), f.line().detected_by),
        })
        .collect();
    said.push(format!("text: {}", text::LINE.detected_by));
    said.join("; ")
}

/// `1073741824` → `1 GiB`; sizes that are not whole units in bytes.
pub(crate) fn size_text(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}
