//! The canonical text form: tags in canonical order, move numbers before
//! every first-mover turn (and `N...` where a second-mover turn does not
//! follow its partner directly), canonical move spellings, comments kept,
//! lines wrapped at [`WIDTH`] columns, one blank line between games.

use super::out::Rendered;
use super::{Converted, GameSink, Head, Tail, TurnOut};

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
struct Lines {
    /// Where the movetext starts in the output.
    start: usize,
    column: usize,
}

impl Lines {
    /// A space before a token `w` columns wide, or a line break where it
    /// would not fit.
    fn separate(&mut self, out: &mut Rendered, w: usize) {
        if out.len() > self.start {
            if self.column + 1 + w > WIDTH {
                out.push('\n');
                self.column = 0;
            } else {
                out.push(' ');
                self.column += 1;
            }
        }
    }

    /// A token of one line made of `parts`.
    fn push(&mut self, out: &mut Rendered, parts: &[&str]) {
        let w = parts.iter().map(|p| width(p)).sum();
        self.separate(out, w);
        for p in parts {
            out.push_str(p);
        }
        self.column += w;
    }

    /// A `{comment}`, which may span lines.
    fn comment(&mut self, out: &mut Rendered, text: &str) {
        // The braces count on the line each stands on.
        match text.split_once('\n') {
            Some((first_line, _)) => self.separate(out, width(first_line) + 1),
            None => self.separate(out, width(text) + 2),
        }
        out.push('{');
        out.push_str(text);
        out.push('}');
        match text.rfind('\n') {
            Some(i) => self.column = width(&text[i + 1..]) + 1,
            None => self.column += width(text) + 2,
        }
    }
}

/// Writes a game in canonical text as it is told, ending with a newline.
pub struct TextSink<'o> {
    out: &'o mut Rendered,
    lines: Lines,
    /// The last thing written was a comment, or nothing yet: a second
    /// mover's turn needs its `N...`.
    after_break: bool,
    /// Comments stood before the first turn.
    leading: bool,
}

impl<'o> TextSink<'o> {
    pub fn new(out: &'o mut Rendered) -> Self {
        TextSink {
            out,
            lines: Lines {
                start: 0,
                column: 0,
            },
            after_break: true,
            leading: false,
        }
    }
}

impl GameSink for TextSink<'_> {
    fn head(&mut self, head: &Head<'_>) {
        let out = &mut *self.out;
        for (name, value) in head.tags {
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
        if !head.tags.is_empty() {
            out.push('\n');
        }
        self.lines.start = out.len();
        for c in head.comments {
            self.lines.comment(out, c);
        }
        self.leading = !head.comments.is_empty();
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        let mut digits = itoa::Buffer::new();
        let out = &mut *self.out;
        // `N...` is needed where the second mover's turn opens the
        // movetext or follows a comment.
        if !turn.second {
            self.lines
                .push(out, &[digits.format(turn.number), ". ", &turn.text]);
        } else if self.after_break {
            self.lines
                .push(out, &[digits.format(turn.number), "... ", &turn.text]);
        } else {
            self.lines.push(out, &[&turn.text]);
        }
        for c in &turn.comments {
            self.lines.comment(out, c);
        }
        self.after_break = !turn.comments.is_empty();
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        let out = &mut *self.out;
        match (tail.result, tail.outcome) {
            (Some(r), _) => self.lines.push(out, &[r.as_str()]),
            // A game with no movetext at all would run into the next game's
            // tags: it is given its result token (computed when valid, `*`
            // otherwise) so it stays a game of its own.
            (None, outcome) if tail.turns == 0 && !self.leading => self
                .lines
                .push(out, &[outcome.map_or("*", |o| o.result.as_str())]),
            (None, _) => {}
        }
        if out.len() > self.lines.start {
            out.push('\n');
        }
    }
}

/// Writes one game in canonical text, ending with a newline.
pub fn write_game(game: &Converted, out: &mut String) {
    let mut rendered = Rendered::new();
    game.tell(&mut TextSink::new(&mut rendered));
    out.push_str(&rendered.into_string());
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
