//! The canonical text form: tags in canonical order, move numbers before
//! every first-mover turn (and `N...` where a second-mover turn does not
//! follow its partner directly), canonical move spellings, comments kept,
//! lines wrapped at [`WIDTH`] columns, one blank line between games.

use super::Converted;

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

/// Columns a piece of text takes (characters; bytes for ASCII).
fn width(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Lays tokens out on lines of at most `WIDTH` columns.
struct Lines<'a> {
    out: &'a mut String,
    /// Where the movetext starts in `out`.
    start: usize,
    column: usize,
}

impl Lines<'_> {
    /// A space before a token `w` columns wide, or a line break where it
    /// would not fit.
    fn separate(&mut self, w: usize) {
        if self.out.len() > self.start {
            if self.column + 1 + w > WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
    }

    /// A token of one line made of `parts`.
    fn push(&mut self, parts: &[&str]) {
        let w = parts.iter().map(|p| width(p)).sum();
        self.separate(w);
        for p in parts {
            self.out.push_str(p);
        }
        self.column += w;
    }

    /// A `{comment}`, which may span lines.
    fn comment(&mut self, text: &str) {
        // The braces count on the line each stands on.
        match text.split_once('\n') {
            Some((first_line, _)) => self.separate(width(first_line) + 1),
            None => self.separate(width(text) + 2),
        }
        self.out.push('{');
        self.out.push_str(text);
        self.out.push('}');
        match text.rfind('\n') {
            Some(i) => self.column = width(&text[i + 1..]) + 1,
            None => self.column += width(text) + 2,
        }
    }
}

/// Writes one game in canonical text, ending with a newline.
pub fn write_game(game: &Converted, out: &mut String) {
    for (name, value) in &game.tags {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        if value.contains(['"', '\\']) {
            out.push_str(&escape(value));
        } else {
            out.push_str(value);
        }
        out.push_str("\"]\n");
    }
    if !game.tags.is_empty() {
        out.push('\n');
    }
    let start = out.len();
    let mut lines = Lines {
        out,
        start,
        column: 0,
    };
    for c in &game.comments {
        lines.comment(c);
    }
    // `N...` is needed where the second mover's turn opens the movetext or
    // follows a comment.
    let mut after_break = true;
    let mut digits = itoa::Buffer::new();
    for turn in &game.turns {
        if !turn.second {
            lines.push(&[digits.format(turn.number), ". ", &turn.text]);
        } else if after_break {
            lines.push(&[digits.format(turn.number), "... ", &turn.text]);
        } else {
            lines.push(&[&turn.text]);
        }
        for c in &turn.comments {
            lines.comment(c);
        }
        after_break = !turn.comments.is_empty();
    }
    match (game.result, &game.outcome) {
        (Some(r), _) => lines.push(&[r.as_str()]),
        // A game with no movetext at all would run into the next game's
        // tags: it is given its result token (computed when valid, `*`
        // otherwise) so it stays a game of its own.
        (None, outcome) if game.turns.is_empty() && game.comments.is_empty() => {
            lines.push(&[outcome.as_ref().map_or("*", |o| o.result.as_str())])
        }
        (None, _) => {}
    }
    if out.len() > start {
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
