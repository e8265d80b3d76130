//! Reading games from any supported input: the record format, a gamerec
//! JSON document or JSON Lines, or a site's move strings (the registry's
//! games say which). Every reader streams except the JSON document, which
//! is read whole.

use crate::archive::{rules_for, too_large, Options};
use crate::convert::json::{DocumentIn, GameIn, FORMAT, VERSION};
use crate::game::SiteFormat;
use crate::problem::{Code, Problem};
use crate::record::{parse_chunk_with, Chunk, Parsed, Record, Span, Tag, MAX_RECORD_BYTES};
use crate::registry::{self, AnyGame, AnySite};
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// What an input holds.
#[derive(Clone, Copy)]
pub enum Format {
    Text,
    Json,
    Jsonl,
    /// A site's move strings, for the game that uses that site.
    Site(&'static dyn AnySite),
}

impl Format {
    pub fn name(&self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Site(s) => s.format().name,
        }
    }

    /// The format called `name` (`--from`).
    pub fn named(name: &str) -> Option<Format> {
        match name {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "jsonl" => Some(Format::Jsonl),
            other => registry::find_site(other).map(Format::Site),
        }
    }
}

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
/// bytes: `.json` / `{"format"…` is a JSON document, `.jsonl` / `{` JSON
/// Lines, a first token a game's site notation recognizes that site's
/// strings; anything else the record format.
pub fn detect(extension: Option<&str>, head: &[u8]) -> Format {
    match extension.map(str::to_ascii_lowercase).as_deref() {
        Some("json") => return Format::Json,
        Some("jsonl") | Some("ndjson") => return Format::Jsonl,
        _ => {}
    }
    let token = first_token(head);
    if token.starts_with(b"{\"format\"") {
        return Format::Json;
    }
    if token.starts_with(b"{") {
        return Format::Jsonl;
    }
    registry::sites()
        .find(|s| (s.format().recognizes)(token))
        .map_or(Format::Text, Format::Site)
}

/// One game read: where it came from (for locating problems; `None` for
/// JSON), what was read, and its rules.
pub type Each<'a> =
    dyn FnMut(Option<&Chunk>, Parsed, Result<&'static dyn AnyGame, Problem>) -> io::Result<()> + 'a;

/// Reads every game of `input`; returns how many there were.
pub fn read<R: BufRead + Send>(
    input: R,
    format: Format,
    opts: &Options,
    each: &mut Each<'_>,
) -> io::Result<usize> {
    read_mapped(
        input,
        format,
        opts,
        |_, parsed, rules| (parsed, rules),
        |chunk, (parsed, rules)| each(chunk, parsed, rules),
    )
}

/// A game as read, with its rules (or why there are none).
type Read = (Parsed, Result<&'static dyn AnyGame, Problem>);

/// [`read`], with the work on each game (`map`: replaying, converting) done
/// on as many threads as the current rayon pool is wide (record format), and
/// its results handed to `each` in input order.
pub fn read_mapped<R, T, M, E>(
    input: R,
    format: Format,
    opts: &Options,
    map: M,
    mut each: E,
) -> io::Result<usize>
where
    R: BufRead + Send,
    T: Send,
    M: Fn(Option<&Chunk>, Parsed, Result<&'static dyn AnyGame, Problem>) -> T + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<()>,
{
    let mut sequential =
        |chunk: Option<&Chunk>, parsed, rules| each(chunk, map(chunk, parsed, rules));
    match format {
        Format::Text => {
            let mut n = 0;
            crate::pipeline::map_chunks(
                input,
                |chunk| {
                    games_of(chunk, opts)
                        .into_iter()
                        .map(|(parsed, rules)| map(Some(chunk), parsed, rules))
                        .collect::<Vec<T>>()
                },
                |chunk, games| {
                    for game in games {
                        n += 1;
                        each(Some(&chunk), game)?;
                    }
                    Ok(ControlFlow::Continue(()))
                },
            )?;
            Ok(n)
        }
        Format::Json => read_json(input, opts, &mut sequential),
        Format::Jsonl => read_jsonl(input, opts, &mut sequential),
        Format::Site(site) => read_site(input, site.game(), site.format(), &mut sequential),
    }
}

/// The games of one chunk of the record format.
fn games_of(chunk: &Chunk, opts: &Options) -> Vec<Read> {
    if chunk.truncated {
        let p = too_large(chunk);
        let parsed = Parsed {
            record: Record::default(),
            error: Some(p.clone()),
        };
        return vec![(parsed, Err(p))];
    }
    parse_chunk_with(chunk, &|tags| opts.style(tags))
        .into_iter()
        .map(|parsed| {
            let rules = rules_for(&parsed.record, opts);
            (parsed, rules)
        })
        .collect()
}

fn from_json(game: Result<GameIn, Problem>, opts: &Options, each: &mut Each<'_>) -> io::Result<()> {
    match game.and_then(GameIn::into_record) {
        Ok(record) => {
            let rules = rules_for(&record, opts);
            each(
                None,
                Parsed {
                    record,
                    error: None,
                },
                rules,
            )
        }
        Err(p) => each(
            None,
            Parsed {
                record: Record::default(),
                error: Some(p.clone()),
            },
            Err(p),
        ),
    }
}

fn malformed_json(e: serde_json::Error, line_base: usize) -> Problem {
    Problem::new(
        Code::MalformedJson,
        format!(
            "not a gamerec JSON game (line {}, column {}): {e}",
            e.line() + line_base,
            e.column()
        ),
        Span::default(),
    )
}

fn read_json<R: BufRead>(mut input: R, opts: &Options, each: &mut Each<'_>) -> io::Result<usize> {
    let mut text = String::new();
    if let Err(e) = input.read_to_string(&mut text) {
        if e.kind() != io::ErrorKind::InvalidData {
            return Err(e);
        }
        let p = Problem::new(
            Code::InvalidUtf8,
            "JSON input must be UTF-8",
            Span::default(),
        );
        return from_json(Err(p), opts, each).map(|_| 1);
    }
    match serde_json::from_str::<DocumentIn>(text.trim_start_matches('\u{feff}')) {
        Err(e) => from_json(Err(malformed_json(e, 0)), opts, each).map(|_| 1),
        Ok(doc) => {
            if doc.format.as_deref().is_some_and(|f| f != FORMAT)
                || doc.version.is_some_and(|v| v != VERSION)
            {
                let p = Problem::new(
                    Code::UnsupportedJson,
                    format!(
                        "this reads format `{FORMAT}` version {VERSION}, not `{}` version {}",
                        doc.format.as_deref().unwrap_or("?"),
                        doc.version.map_or("?".into(), |v| v.to_string())
                    ),
                    Span::default(),
                );
                return from_json(Err(p), opts, each).map(|_| 1);
            }
            let n = doc.games.len();
            for g in doc.games {
                from_json(Ok(g), opts, each)?;
            }
            Ok(n)
        }
    }
}

fn read_jsonl<R: BufRead>(mut input: R, opts: &Options, each: &mut Each<'_>) -> io::Result<usize> {
    let mut n = 0;
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(n);
        }
        number += 1;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_start_matches('\u{feff}').trim();
        if text.is_empty() {
            continue;
        }
        n += 1;
        let game = serde_json::from_str::<GameIn>(text).map_err(|e| malformed_json(e, number - 1));
        from_json(game, opts, each)?;
    }
}

/// Reads a site's move strings: one game per line, or with a
/// `game_start` marker, a game from each line that starts with it through
/// the lines that do not.
fn read_site<R: BufRead>(
    mut input: R,
    rules: &'static dyn AnyGame,
    site: SiteFormat,
    each: &mut Each<'_>,
) -> io::Result<usize> {
    let mut n = 0;
    let (mut offset, mut line_no) = (0usize, 1usize);
    let mut game: Option<Chunk> = None;
    let mut line = Vec::new();
    let mut emit = |chunk: Chunk, n: &mut usize| -> io::Result<()> {
        *n += 1;
        if chunk.truncated {
            let p = too_large(&chunk);
            let parsed = Parsed {
                record: Record::default(),
                error: Some(p.clone()),
            };
            return each(Some(&chunk), parsed, Err(p));
        }
        let style = rules.style();
        for mut parsed in parse_chunk_with(&chunk, &|_| style) {
            let at = Span::new(chunk.offset, chunk.offset);
            let tag = |name: &str, value: &str| Tag {
                name: name.into(),
                value: value.into(),
                span: at,
                value_span: at,
            };
            let mut tags = vec![tag("Game", rules.name())];
            tags.extend(site.tags.iter().map(|(n, v)| tag(n, v)));
            tags.append(&mut parsed.record.tags);
            parsed.record.tags = tags;
            each(Some(&chunk), parsed, Ok(rules))?;
        }
        Ok(())
    };
    loop {
        line.clear();
        let read = input.read_until(b'\n', &mut line)?;
        let blank = line.iter().all(u8::is_ascii_whitespace);
        let trimmed = line
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(&line[..0], |i| &line[i..]);
        let starts = match site.game_start {
            None => true,
            Some(mark) => trimmed.starts_with(mark.as_bytes()),
        };
        if read == 0 || (!blank && starts) {
            if let Some(chunk) = game.take() {
                emit(chunk, &mut n)?;
            }
        }
        if read == 0 {
            return Ok(n);
        }
        if !blank {
            match &mut game {
                Some(chunk) if chunk.bytes.len() + line.len() <= MAX_RECORD_BYTES => {
                    chunk.bytes.extend_from_slice(&line)
                }
                Some(chunk) => chunk.truncated = true,
                None => {
                    let mut chunk = Chunk::from_bytes(line.clone());
                    chunk.offset = offset;
                    chunk.line = line_no;
                    game = Some(chunk);
                }
            }
        }
        offset += read;
        line_no += 1;
    }
}
