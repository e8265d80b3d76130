//! How problems are shown: ariadne diagnostics for people, JSON for scripts.

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use gamerec::problem::Problem;
use gamerec::record::{Chunk, Span};
use serde::Serialize;
use std::io::{self, IsTerminal, Write};

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

/// Line, column (characters, 1-based) and byte offset of a span's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
}

pub fn locate(chunk: &Chunk, span: Span) -> Location {
    let (line, column) = chunk.locate(span.start);
    Location {
        line,
        column,
        offset: span.start,
    }
}

/// `game 2 (Round 3, Ana vs Ben), ply 5`
pub fn place(index: Option<usize>, title: Option<&str>, ply: Option<usize>) -> String {
    let mut s = match index {
        Some(i) => format!("game {i}"),
        None => "input".to_string(),
    };
    if let Some(t) = title {
        s.push_str(&format!(" ({t})"));
    }
    if let Some(p) = ply {
        s.push_str(&format!(", ply {p}"));
    }
    s
}

/// Writes one problem as an ariadne report with the offending token marked.
pub fn diagnostic(
    out: &mut dyn Write,
    file: &str,
    chunk: &Chunk,
    index: Option<usize>,
    title: Option<&str>,
    problem: &Problem,
    color: bool,
) -> io::Result<()> {
    let headline = match index {
        Some(_) => format!("{}: {}", place(index, title, problem.ply), problem.message),
        None => problem.message.clone(),
    };
    if chunk.bytes.is_empty() {
        let at = locate(chunk, problem.span);
        return writeln!(
            out,
            "[{}] Error: {file}:{}:{}: {headline}",
            problem.code, at.line, at.column
        );
    }
    let text = chunk.display_text();
    let len = text.len();
    let mut start = problem.span.start.saturating_sub(chunk.offset).min(len);
    let mut end = problem
        .span
        .end
        .saturating_sub(chunk.offset)
        .clamp(start, len);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    if start == end {
        // Mark one character where possible: a zero-width caret is easy to miss.
        if end < len {
            end += text[end..].chars().next().map_or(0, char::len_utf8);
        } else if start > 0 {
            start -= text[..start].chars().next_back().map_or(0, char::len_utf8);
        }
    }
    let label = match (&problem.token, problem.ply) {
        (Some(t), Some(p)) => format!("`{t}` at ply {p}"),
        (Some(t), None) => format!("`{t}`"),
        (None, Some(p)) => format!("ply {p}"),
        (None, None) => "here".to_string(),
    };
    let file = file.to_string();
    let mut report = Report::build(ReportKind::Error, (file.clone(), start..end))
        .with_config(
            Config::default()
                .with_color(color)
                .with_index_type(IndexType::Byte),
        )
        .with_code(problem.code)
        .with_message(headline)
        .with_label(
            Label::new((file.clone(), start..end))
                .with_message(label)
                .with_color(Color::Red),
        );
    for note in &problem.notes {
        report = report.with_note(note);
    }
    let offset = chunk.line - 1;
    let source = Source::from(text).with_display_line_offset(offset);
    let mut rendered = Vec::new();
    report.finish().write((file, source), &mut rendered)?;
    out.write_all(fix_gutter(&String::from_utf8_lossy(&rendered), offset).as_bytes())
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

#[cfg(test)]
mod tests {
    use super::*;
    use gamerec::problem::Problem;

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
            truncated: false,
        };
        let at = 5000 + text.find("zz").unwrap();
        let p = Problem::new(
            gamerec::problem::Code::MalformedMove,
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
}

/// The JSON form of a problem.
#[derive(Serialize)]
pub struct JsonError<'a> {
    pub code: &'a str,
    pub message: &'a str,
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    pub ply: Option<usize>,
    pub token: Option<&'a str>,
}

impl<'a> JsonError<'a> {
    pub fn new(chunk: &Chunk, p: &'a Problem) -> Self {
        let at = locate(chunk, p.span);
        JsonError {
            code: p.code.as_str(),
            message: &p.message,
            line: at.line,
            column: at.column,
            offset: at.offset,
            ply: p.ply,
            token: p.token.as_deref(),
        }
    }
}
