//! The canonical text form: tags in canonical order, move numbers before
//! every first-mover turn (and `N...` where a second-mover turn does not
//! follow its partner directly), canonical move spellings, comments kept,
//! lines wrapped at [`WIDTH`] columns, one blank line between games.

use super::Converted;
use std::fmt::Write;

/// Movetext lines are wrapped before this many columns where possible (a
/// single token longer than that stands on its own line).
pub const WIDTH: usize = 79;

/// A tag value with `\` and `"` escaped.
pub fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// Lays tokens out on lines of at most `WIDTH` columns.
struct Lines {
    out: String,
    column: usize,
}

impl Lines {
    fn push(&mut self, token: &str) {
        let first_line = token.split('\n').next().unwrap_or("");
        if self.column > 0 {
            if self.column + 1 + first_line.chars().count() > WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.out.push_str(token);
        match token.rfind('\n') {
            Some(i) => self.column = token[i + 1..].chars().count(),
            None => self.column += token.chars().count(),
        }
    }
}

/// Writes one game in canonical text, ending with a newline.
pub fn write_game(game: &Converted, out: &mut String) {
    for (name, value) in &game.tags {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    let mut lines = Lines {
        out: String::new(),
        column: 0,
    };
    for c in &game.comments {
        lines.push(&format!("{{{c}}}"));
    }
    // `N...` is needed where the second mover's turn opens the movetext or
    // follows a comment.
    let mut after_break = true;
    for turn in &game.turns {
        let token = if !turn.second {
            format!("{}. {}", turn.number, turn.text)
        } else if after_break {
            format!("{}... {}", turn.number, turn.text)
        } else {
            turn.text.clone()
        };
        lines.push(&token);
        for c in &turn.comments {
            lines.push(&format!("{{{c}}}"));
        }
        after_break = !turn.comments.is_empty();
    }
    match (game.result, &game.outcome) {
        (Some(r), _) => lines.push(r.as_str()),
        // A game with no movetext at all would run into the next game's
        // tags: it is given its result token (computed when valid, `*`
        // otherwise) so it stays a game of its own.
        (None, outcome) if game.turns.is_empty() && game.comments.is_empty() => {
            lines.push(outcome.as_ref().map_or("*", |o| o.result.as_str()))
        }
        (None, _) => {}
    }
    if !game.tags.is_empty() {
        out.push('\n');
    }
    if !lines.out.is_empty() {
        out.push_str(&lines.out);
        out.push('\n');
    }
}

/// Writes games in canonical text, separated by blank lines.
pub struct TextWriter {
    first: bool,
}

impl Default for TextWriter {
    fn default() -> Self {
        TextWriter { first: true }
    }
}

impl TextWriter {
    pub fn game(&mut self, game: &Converted) -> String {
        let mut s = String::new();
        if !self.first {
            s.push('\n');
        }
        self.first = false;
        write_game(game, &mut s);
        s
    }
}
