//! How problems are shown: ariadne diagnostics for people (a problem with
//! the lines of input around it, a repair as one line), JSON for scripts,
//! and text from the input escaped for a terminal. Every front end prints
//! problems through this module (the command line, the fuzz crate).

use crate::base::problem::{Problem, Repair};
use crate::envelope::record::{Chunk, Span};
use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use serde::Serialize;
use std::fmt::{self, Display};
use std::io::{self, Write};

/// The JSON form of a problem: its place when there is one (a game read
/// from JSON has no line and column of its own).
#[derive(Serialize)]
pub struct JsonError<'a> {
    pub code: &'a str,
    pub message: &'a str,
    #[serde(flatten)]
    pub at: Location,
    pub ply: Option<usize>,
    pub token: Option<&'a str>,
}

/// Where a problem or a repair stands: line and column (characters,
/// 1-based) and byte offset of its span's start; none for a game read from
/// JSON (it has no lines of its own). Diagnostics and JSON say it alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub offset: Option<usize>,
}

impl Location {
    pub fn new(chunk: Option<&Chunk>, span: Span) -> Self {
        Self::located(chunk.map(|c| c.locate(span.start)), span)
    }

    /// Where `span` stands, `at` its line and column (`None`: no lines).
    pub fn located(at: Option<(usize, usize)>, span: Span) -> Self {
        Location {
            line: at.map(|a| a.0),
            column: at.map(|a| a.1),
            offset: at.map(|_| span.start),
        }
    }
}

impl<'a> JsonError<'a> {
    pub fn new(chunk: Option<&Chunk>, p: &'a Problem) -> Self {
        JsonError {
            code: p.code.as_str(),
            message: &p.message,
            at: Location::new(chunk, p.span),
            ply: p.ply,
            token: p.token.as_deref(),
        }
    }
}

/// One repair of `--lenient` in `--format json`.
#[derive(Serialize)]
pub struct JsonRepair<'a> {
    pub code: &'a str,
    pub message: &'a str,
    #[serde(flatten)]
    pub at: Location,
    pub ply: Option<usize>,
    pub before: &'a str,
    pub after: &'a str,
}

impl<'a> JsonRepair<'a> {
    pub fn new(chunk: Option<&Chunk>, r: &'a Repair) -> Self {
        JsonRepair {
            code: r.code.as_str(),
            message: &r.message,
            at: Location::new(chunk, r.span),
            ply: r.ply,
            before: &r.before,
            after: &r.after,
        }
    }
}

/// `game 2 (Round 3, Ana vs Ben), ply 5`
pub fn place(index: Option<usize>, title: Option<&str>, ply: Option<usize>) -> String {
    let mut s = match index {
        Some(i) => format!("game {i}"),
        None => "input".to_string(),
    };
    if let Some(t) = title {
        s.push_str(&format!(" ({})", escape(t)));
    }
    if let Some(p) = ply {
        s.push_str(&format!(", ply {p}"));
    }
    s
}

/// Characters of the offending line shown on either side of the marked
/// token; the rest of a long line is cut with `…`.
const WINDOW: usize = 60;

/// The line the problem points at, as shown: at most [`WINDOW`] characters
/// either side of the span (cut with `…`), invalid bytes as `?`, control
/// characters escaped. Returns the text and the span's byte range in it.
fn excerpt(chunk: &Chunk, span: Span) -> (String, std::ops::Range<usize>) {
    let bytes = &chunk.bytes;
    let start = span.start.saturating_sub(chunk.offset).min(bytes.len());
    let line_start = bytes[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line_end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
    let end = span.end.saturating_sub(chunk.offset).clamp(start, line_end);
    // Cut by characters: step back and forward over whole UTF-8 sequences.
    let back = |from: usize, chars: usize| {
        let mut at = from;
        let mut n = 0;
        while at > line_start && n < chars {
            at -= 1;
            if bytes[at] & 0xC0 != 0x80 {
                n += 1;
            }
        }
        at
    };
    let forward = |from: usize, chars: usize| {
        let mut at = from;
        let mut n = 0;
        while at < line_end && n < chars {
            at += 1;
            while at < line_end && bytes[at] & 0xC0 == 0x80 {
                at += 1;
            }
            n += 1;
        }
        at
    };
    let from = back(start, WINDOW);
    let marked_end = forward(start, WINDOW).min(end.max(start));
    let to = forward(marked_end.max(start), WINDOW);
    let mut out = String::new();
    if from > line_start {
        out.push('…');
    }
    let show = |piece: &[u8], out: &mut String| {
        for chunk in piece.utf8_chunks() {
            for c in chunk.valid().chars() {
                match c {
                    '\r' | '\t' => out.push(' '),
                    c if c.is_control() || is_bidi(c) => {
                        out.push_str(&format!("\\u{{{:x}}}", c as u32))
                    }
                    c => out.push(c),
                }
            }
            out.extend(std::iter::repeat_n('?', chunk.invalid().len()));
        }
    };
    show(&bytes[from..start], &mut out);
    let a = out.len();
    show(&bytes[start..marked_end], &mut out);
    let b = out.len();
    show(&bytes[marked_end..to], &mut out);
    if to < line_end {
        out.push('…');
    }
    (out, a..b)
}

/// Writes one problem as an ariadne report with the offending token marked:
/// the line it stands on (a window of it, for a long line), the file's own
/// line and column.
pub fn diagnostic(
    out: &mut dyn Write,
    file: &str,
    chunk: &Chunk,
    index: Option<usize>,
    title: Option<&str>,
    problem: &Problem,
    color: bool,
) -> io::Result<()> {
    let file = escape(file);
    let headline = match index {
        Some(_) => format!("{}: {}", place(index, title, problem.ply), problem.message),
        None => problem.message.clone(),
    };
    let headline = escape(&headline);
    let (line, column) = chunk.locate(problem.span.start);
    if chunk.bytes.is_empty() {
        return writeln!(
            out,
            "[{}] Error: {file}:{line}:{column}: {headline}",
            problem.code
        );
    }
    let (text, mut range) = excerpt(chunk, problem.span);
    if range.is_empty() {
        // Mark one character where possible: a zero-width caret is easy to miss.
        if range.end < text.len() {
            range.end += text[range.end..].chars().next().map_or(0, char::len_utf8);
        } else if range.start > 0 {
            range.start -= text[..range.start]
                .chars()
                .next_back()
                .map_or(0, char::len_utf8);
        }
    }
    let label = match (&problem.token, problem.ply) {
        (Some(t), Some(p)) => format!("`{}` at ply {p}", escape(&shorten(t))),
        (Some(t), None) => format!("`{}`", escape(&shorten(t))),
        (None, Some(p)) => format!("ply {p}"),
        (None, None) => "here".to_string(),
    };
    let mut report = Report::build(ReportKind::Error, (file.clone(), range.clone()))
        .with_config(
            Config::default()
                .with_color(color)
                .with_index_type(IndexType::Byte),
        )
        .with_code(problem.code)
        .with_message(headline)
        .with_label(
            Label::new((file.clone(), range))
                .with_message(label)
                .with_color(Color::Red),
        );
    for note in &problem.notes {
        report = report.with_note(escape(note));
    }
    let offset = line - 1;
    let source = Source::from(text).with_display_line_offset(offset);
    let mut rendered = Vec::new();
    report
        .finish()
        .write((file.clone(), source), &mut rendered)?;
    let rendered = String::from_utf8_lossy(&rendered);
    // The header names the file's own line and column, not the excerpt's.
    let rendered = fix_header(&rendered, &file, line, column);
    out.write_all(fix_gutter(&rendered, offset).as_bytes())
}

/// A token shown in a label: at most [`WINDOW`] characters of it.
fn shorten(token: &str) -> String {
    match token.char_indices().nth(WINDOW) {
        Some((i, _)) => format!("{}…", &token[..i]),
        None => token.to_string(),
    }
}

/// Puts the file's line and column into ariadne's `file:line:col` header.
fn fix_header(rendered: &str, file: &str, line: usize, column: usize) -> String {
    let mut lines = rendered.split_inclusive('\n');
    let mut out = String::with_capacity(rendered.len());
    for l in lines.by_ref() {
        let tag = format!("[ {file}:");
        if let Some(i) = l.find(&tag) {
            let after = &l[i + tag.len()..];
            let end = after.find(" ]").unwrap_or(after.len());
            out.push_str(&l[..i + tag.len()]);
            out.push_str(&format!("{line}:{column}"));
            out.push_str(&after[end..]);
            break;
        }
        out.push_str(l);
    }
    lines.for_each(|l| out.push_str(l));
    out
}

/// ariadne 0.6 applies `with_display_line_offset` to the `file:line:col`
/// header but not to the line numbers in the left margin. Shift those by
/// `offset` and widen the margin of every line to match.
fn fix_gutter(rendered: &str, offset: usize) -> String {
    if offset == 0 {
        return rendered.to_string();
    }
    // A margin line: leading spaces, an optional colour escape, the rest.
    fn split(line: &str) -> (usize, &str, &str) {
        let lead = line.len() - line.trim_start_matches(' ').len();
        let after = &line[lead..];
        if after.starts_with('\x1b') {
            if let Some(end) = after.find('m') {
                return (lead, &after[..=end], &after[end + 1..]);
            }
        }
        (lead, "", after)
    }
    // A numbered margin: spaces, digits, " │"; returns its width (without
    // the leading spaces), the number and what follows it.
    fn numbered(rest: &str) -> Option<(usize, usize, &str)> {
        let pad = rest.len() - rest.trim_start_matches(' ').len();
        let after = rest[pad..].trim_start_matches(|c: char| c.is_ascii_digit());
        let digits = &rest[pad..rest.len() - after.len()];
        (!digits.is_empty() && after.starts_with(" │"))
            .then(|| (pad + digits.len(), digits.parse().unwrap_or(0), after))
    }
    let lines: Vec<&str> = rendered.split_inclusive('\n').collect();
    let mut old_width = 0;
    let mut max_line = 0;
    for line in lines.iter().skip(1) {
        let (lead, _, rest) = split(line);
        if let Some((width, n, _)) = numbered(rest) {
            old_width = old_width.max(lead + width);
            max_line = max_line.max(n + offset);
        }
    }
    if old_width == 0 {
        return rendered.to_string();
    }
    // ariadne keeps one space before the widest number.
    let new_width = old_width.max(1 + max_line.to_string().len());
    let extra = new_width - old_width;
    let mut out = String::with_capacity(rendered.len() + lines.len() * extra);
    for (i, line) in lines.iter().enumerate() {
        let (lead, escape, rest) = split(line);
        if i == 0 {
            out.push_str(line);
            continue;
        }
        match numbered(rest) {
            Some((_, n, after)) => {
                let n = (n + offset).to_string();
                out.extend(std::iter::repeat_n(' ', new_width - n.len()));
                out.push_str(escape);
                out.push_str(&n);
                out.push_str(after);
            }
            None if lead == 0 && rest.starts_with('─') => {
                out.push_str(escape);
                out.extend(std::iter::repeat_n('─', extra));
                out.push_str(rest);
            }
            None => {
                out.extend(std::iter::repeat_n(' ', extra));
                out.push_str(line);
            }
        }
    }
    out
}

/// Text with its control characters escaped for a terminal: a line break
/// and a tab stay, every other control character (ESC, BEL, NUL, DEL, C1…)
/// and every bidirectional control (U+202A–U+202E, U+2066–U+2069, the
/// marks U+200E, U+200F and U+061C, which reorder what a terminal shows)
/// becomes `\u{1b}`-style text.
pub struct Escaped<'a>(pub &'a str);

impl Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(i) =
            rest.find(|c: char| (c.is_control() || is_bidi(c)) && c != '\n' && c != '\t')
        {
            f.write_str(&rest[..i])?;
            let c = rest[i..].chars().next().expect("found a character");
            write!(f, "\\u{{{:x}}}", c as u32)?;
            rest = &rest[i + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// A count and its noun, singular for one: `1 file`, `2 files`.
pub fn count(n: impl Into<u64>, what: &str) -> String {
    match n.into() {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

/// A bidirectional formatting character: embeddings, overrides, isolates
/// and the directional marks.
pub(crate) fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

/// [`Escaped`], as a string.
pub(crate) fn escape(text: &str) -> String {
    Escaped(text).to_string()
}

/// Writes the repairs `--lenient` made to one game, a line each:
/// `file:3:9: game 2 (Ana vs Ben), ply 3: repaired [move-number] move
/// number `7.` is wrong here: this is `2.` (`7.` → `2.`)`.
pub fn repair_lines(
    out: &mut dyn Write,
    name: &str,
    chunk: Option<&Chunk>,
    index: Option<usize>,
    title: Option<&str>,
    repairs: &[Repair],
) -> io::Result<()> {
    for r in repairs {
        let at = match chunk {
            Some(c) => {
                let (line, column) = c.locate(r.span.start);
                format!("{}:{line}:{column}", escape(name))
            }
            None => escape(name),
        };
        let shown = |s: &str| match s {
            "" => "nothing".to_string(),
            s => format!("`{}`", escape(&shorten(s))),
        };
        writeln!(
            out,
            "{at}: {}: repaired [{}] {} ({} → {})",
            escape(&place(index, title, r.ply)),
            r.code,
            escape(&r.message),
            shown(&r.before),
            shown(&r.after)
        )?;
    }
    Ok(())
}

/// What `--lenient` repaired in a run, for its summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct Repaired {
    pub games: usize,
    pub repairs: usize,
}

impl Repaired {
    pub fn add(&mut self, repairs: &[Repair]) {
        if !repairs.is_empty() {
            self.games += 1;
            self.repairs += repairs.len();
        }
    }

    /// `3 games repaired (5 repairs)`.
    pub fn summary(&self) -> String {
        let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
        format!(
            "{} repaired ({})",
            plural(self.games, "game"),
            plural(self.repairs, "repair")
        )
    }
}

/// Writes one problem: a diagnostic with the source marked when it came
/// from a chunk of text, else one line (a game read from JSON).
pub fn problem_report(
    out: &mut dyn Write,
    name: &str,
    chunk: Option<&Chunk>,
    index: Option<usize>,
    title: Option<&str>,
    p: &Problem,
    color: bool,
) -> io::Result<()> {
    match chunk {
        Some(chunk) => diagnostic(out, name, chunk, index, title, p, color),
        None => writeln!(
            out,
            "[{}] Error: {}: {}: {}{}",
            p.code,
            escape(name),
            escape(&place(index, title, p.ply)),
            escape(&p.message),
            p.token
                .as_deref()
                .map_or(String::new(), |t| format!(" (`{}`)", escape(&shorten(t))))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::problem::Problem;

    fn render(chunk: &Chunk, problem: &Problem, color: bool) -> String {
        let mut out = Vec::new();
        diagnostic(&mut out, "f.grec", chunk, Some(2), None, problem, color).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn margin_numbers_are_the_files_line_numbers() {
        let text = "[Game \"oshi\"]\n1. e3-e4 zz *\n";
        let chunk = Chunk {
            bytes: text.as_bytes().to_vec(),
            offset: 5000,
            line: 998,
            column: 1,
            truncated: false,
        };
        let at = 5000 + text.find("zz").unwrap();
        let p = Problem::new(
            crate::base::problem::Code::MalformedMove,
            "bad",
            Span::new(at, at + 2),
        );
        let plain = render(&chunk, &p, false);
        assert!(plain.contains("f.grec:999:10"), "{plain}");
        assert!(plain.contains(" 999 │ 1. e3-e4 zz *"), "{plain}");
        assert!(!plain.contains(" 2 │"), "{plain}");
        // Every margin is as wide as the widest number.
        let bar_columns: Vec<usize> = plain
            .lines()
            .skip(1)
            .filter_map(|l| l.find('│').map(|b| l[..b].chars().count()))
            .collect();
        assert!(bar_columns.windows(2).all(|w| w[0] == w[1]), "{plain}");
        let colored = render(&chunk, &p, true);
        assert!(colored.contains("999"), "{colored}");
        assert!(colored.contains('\x1b'));
    }

    #[test]
    fn control_characters_are_escaped_and_text_is_not() {
        assert_eq!(
            escape("e3\x1b]0;owned\x07-e4\0"),
            "e3\\u{1b}]0;owned\\u{7}-e4\\u{0}"
        );
        assert_eq!(escape("café\tline\nnext"), "café\tline\nnext");
        assert_eq!(escape("\u{9b}2J"), "\\u{9b}2J");
    }

    #[test]
    fn bidi_controls_are_escaped() {
        assert_eq!(
            escape("a\u{202e}gnp.exe\u{2066}b\u{200f}"),
            "a\\u{202e}gnp.exe\\u{2066}b\\u{200f}"
        );
        assert_eq!(escape("שלום abc"), "שלום abc");
    }
}
