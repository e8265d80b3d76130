//! The CSV form: one row per turn, for spreadsheets. Tags, comments before
//! the first turn and the result are left out (and said so on stderr).

use super::{Format, FormatEntry, Peek as Input};
use crate::play::sink::out::Rendered;
use crate::play::sink::{Converted, GameSink, Head, Tail, TurnOut};
use serde::Serialize;
use std::borrow::Cow;

/// The header, fixed (documented in notation/convert.md).
/// CSV's line in the table of formats (written, not read).
pub(crate) const LINE: FormatEntry = FormatEntry {
    name: "csv",
    read_help: "",
    write_help: "One row per turn (columns: notation/convert.md)",
    detected_by: "",
    formats: || vec![Format::Csv],
    detect: |_: &Input<'_>| None,
};

/// The header row, before the first game.
pub fn head(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(HEADER).map_err(csv_error)?;
    out.write_all(
        &w.into_inner()
            .map_err(|e| std::io::Error::other(e.to_string()))?,
    )
}

/// One game's rows, its `index` put where [`INDEX_MARK`] holds its place.
pub fn write_game(
    out: &mut dyn std::io::Write,
    index: usize,
    rendered: Rendered,
) -> std::io::Result<()> {
    let mut digits = itoa::Buffer::new();
    let index = digits.format(index).as_bytes();
    rendered.write_to(out, 0, Some((INDEX_MARK, index)))
}

/// A CSV writer's error as the I/O error it is (a closed pipe stays one).
pub(crate) fn csv_error(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

pub const HEADER: [&str; 14] = [
    "file",
    "game",
    "index",
    "ply",
    "number",
    "side",
    "move",
    "legal",
    "kind",
    "from",
    "to",
    "effects",
    "comment",
    "annotation",
];

#[derive(Serialize)]
pub struct Row<'a> {
    pub file: &'a str,
    pub game: &'a str,
    pub index: usize,
    pub ply: usize,
    pub number: u64,
    pub side: &'a str,
    #[serde(rename = "move")]
    pub mv: &'a str,
    /// The turn was replayed and is legal (`false` from the first illegal
    /// turn on, and for turns not replayed).
    pub legal: bool,
    pub kind: &'a str,
    pub from: &'a str,
    pub to: &'a str,
    /// `pushed White 1-story e7-e8; pushed-off White 2-story e9 (2 points)`.
    pub effects: String,
    /// The turn's comments, joined with a line break.
    pub comment: String,
    /// Its assessment and numeric annotation glyphs: `?? $2`.
    pub annotation: String,
}

/// The rows of one game.
pub fn rows<'a>(file: &'a str, game: &'a Converted) -> impl Iterator<Item = Row<'a>> + 'a {
    game.turns
        .iter()
        .map(move |t| Row::new(file, game.game.unwrap_or(""), game.index, t))
}

impl<'a> Row<'a> {
    /// The row of one turn.
    pub fn new(file: &'a str, game: &'a str, index: usize, t: &'a TurnOut) -> Row<'a> {
        let f = t.facts.as_ref();
        Row {
            file,
            game,
            index,
            ply: t.ply,
            number: t.number,
            side: t.side,
            mv: &t.text,
            legal: f.is_some(),
            kind: f.map_or("", |f| f.kind.as_str()),
            from: f.and_then(|f| f.from.as_deref()).unwrap_or(""),
            to: f.and_then(|f| f.to.as_deref()).unwrap_or(""),
            effects: f.map_or_else(String::new, |f| {
                f.effects
                    .iter()
                    .map(|e| {
                        let mut s = e.what.clone();
                        if let Some(p) = &e.piece {
                            s.push(' ');
                            s.push_str(p);
                        }
                        match (&e.from, &e.to) {
                            (Some(a), Some(b)) => s.push_str(&format!(" {a}-{b}")),
                            (Some(a), None) | (None, Some(a)) => s.push_str(&format!(" {a}")),
                            (None, None) => {}
                        }
                        if let Some(p) = e.points {
                            s.push_str(&format!(" ({p} points)"));
                        }
                        s
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
            comment: t.comments.join("\n"),
            annotation: annotation(t),
        }
    }
}

/// A turn's assessment and glyphs as text: `?? $2` (empty when it has
/// none).
pub(crate) fn annotation(t: &TurnOut) -> String {
    let mut parts: Vec<String> = t
        .assessment
        .map(|a| a.as_str().to_string())
        .into_iter()
        .collect();
    parts.extend(t.nags.iter().map(|n| format!("${n}")));
    parts.join(" ")
}

/// A CSV cell made safe for spreadsheets: `'` before a leading `=`, `+`,
/// `-`, `@`, tab or carriage return.
pub fn spreadsheet_safe(cell: &str) -> std::borrow::Cow<'_, str> {
    match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => format!("'{cell}").into(),
        _ => cell.into(),
    }
}

/// The byte written for the game's index when it is not known yet (never
/// in UTF-8 text): [`crate::play::sink::out::Rendered::write_to`] puts the index there.
pub(crate) const INDEX_MARK: u8 = 0xFF;

/// Writes a game's rows as it is told.
pub(crate) struct CsvSink<'o> {
    w: csv::Writer<&'o mut Rendered>,
    file: String,
    game: Option<&'static str>,
    /// The index, or [`INDEX_MARK`] when it is given later.
    index: Option<usize>,
    safe: bool,
    /// What the writer could not write.
    pub failed: Option<csv::Error>,
}

impl<'o> CsvSink<'o> {
    /// Rows of a game of `file` (its `index`, or a mark to replace); `safe`:
    /// spreadsheet-safe cells.
    pub fn new(out: &'o mut Rendered, file: &str, index: Option<usize>, safe: bool) -> Self {
        CsvSink {
            w: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(out),
            file: file.to_string(),
            game: None,
            index,
            safe,
            failed: None,
        }
    }
}

impl GameSink for CsvSink<'_> {
    fn head(&mut self, head: &Head<'_>) {
        self.game = head.game;
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        let row = Row::new(
            &self.file,
            self.game.unwrap_or(""),
            self.index.unwrap_or(0),
            &turn,
        );
        let mut cells = row.cells();
        if self.safe {
            for c in cells.iter_mut() {
                if let Cow::Owned(safe) = spreadsheet_safe(c) {
                    *c = Cow::Owned(safe);
                }
            }
        }
        let mark = [INDEX_MARK];
        let cells = cells
            .iter()
            .enumerate()
            .map(|(i, c)| match (i, self.index) {
                (2, None) => &mark[..],
                _ => c.as_bytes(),
            });
        if let Err(e) = self.w.write_record(cells) {
            self.failed.get_or_insert(e);
        }
    }

    fn tail(&mut self, _: &Tail<'_>) {
        if let Err(e) = self.w.flush() {
            self.failed.get_or_insert(e.into());
        }
    }
}

impl Row<'_> {
    /// The row's cells as text, in [`HEADER`]'s order (borrowed where the
    /// row borrows).
    pub fn cells(&self) -> [Cow<'_, str>; 14] {
        [
            Cow::Borrowed(self.file),
            Cow::Borrowed(self.game),
            Cow::Owned(self.index.to_string()),
            Cow::Owned(self.ply.to_string()),
            Cow::Owned(self.number.to_string()),
            Cow::Borrowed(self.side),
            Cow::Borrowed(self.mv),
            Cow::Borrowed(if self.legal { "true" } else { "false" }),
            Cow::Borrowed(self.kind),
            Cow::Borrowed(self.from),
            Cow::Borrowed(self.to),
            Cow::Borrowed(&self.effects),
            Cow::Borrowed(&self.comment),
            Cow::Borrowed(&self.annotation),
        ]
    }
}
