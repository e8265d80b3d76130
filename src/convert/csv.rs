//! The CSV form: one row per turn, for spreadsheets. Tags, comments before
//! the first turn and the result are left out (and said so on stderr).

use super::Converted;
use serde::Serialize;

/// The header, fixed (documented in notation/convert.md).
pub const HEADER: [&str; 13] = [
    "file", "game", "index", "ply", "number", "side", "move", "legal", "kind", "from", "to",
    "effects", "comment",
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
}

/// The rows of one game.
pub fn rows<'a>(file: &'a str, game: &'a Converted) -> impl Iterator<Item = Row<'a>> + 'a {
    game.turns.iter().map(move |t| {
        let f = t.facts.as_ref();
        Row {
            file,
            game: game.game.unwrap_or(""),
            index: game.index,
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
        }
    })
}

impl Row<'_> {
    /// The row's cells as text, in [`HEADER`]'s order.
    pub fn cells(&self) -> [String; 13] {
        [
            self.file.to_string(),
            self.game.to_string(),
            self.index.to_string(),
            self.ply.to_string(),
            self.number.to_string(),
            self.side.to_string(),
            self.mv.to_string(),
            self.legal.to_string(),
            self.kind.to_string(),
            self.from.to_string(),
            self.to.to_string(),
            self.effects.clone(),
            self.comment.clone(),
        ]
    }
}
