//! Reading games from any supported input: the record format, a gamerec
//! JSON document or JSON Lines, Parquet, or a site's move strings (the
//! registry's games say which). Every reader streams, game by game.

use crate::archive::{self, rules_for_game, too_large, Options};
use crate::convert::json::{GameIn, FORMAT, VERSION};
use crate::convert::parquet::GamesReader;
use crate::game::SiteFormat;
use crate::problem::{Code, Problem};
use crate::record::{
    each_game, read_leniently, Chunk, Leniently, MovetextStyle, Parsed, ReadGame, Record,
    RecordSource, Span, StreamTurns, Tag, MAX_RECORD_BYTES,
};
use crate::registry::{self, AnyGame, AnySite};
use crate::sites::scan::{Scanned, Values};
use crate::sites::{links, records};
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// What an input holds.
#[derive(Clone, Copy)]
pub enum Format {
    Text,
    Json,
    Jsonl,
    /// A gamerec Parquet games table.
    Parquet,
    /// A site's move strings, for the game that uses that site.
    Site(&'static dyn AnySite),
    /// A site's JSON game records (AbstractPlay's): one, or arrays of them.
    SiteRecords,
    /// A site's game links (the Garden Gate's), one per line.
    SiteLinks,
}

/// How reading an input ended: whether the caller stopped it, and the
/// records it skipped as games gamerec does not play (what they are, how
/// many), in the order first met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    pub stopped: bool,
    pub skipped: Vec<(String, usize)>,
}

impl Reading {
    fn skip(&mut self, what: String) {
        match self.skipped.iter_mut().find(|(w, _)| *w == what) {
            Some((_, n)) => *n += 1,
            None => self.skipped.push((what, 1)),
        }
    }

    fn flow(flow: ControlFlow<()>) -> Reading {
        Reading {
            stopped: flow.is_break(),
            ..Reading::default()
        }
    }
}

impl Format {
    pub fn name(&self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
            Format::Site(s) => s.format().name,
            Format::SiteRecords => records::NAME,
            Format::SiteLinks => links::NAME,
        }
    }

    /// The format called `name` (`--from`).
    pub fn named(name: &str) -> Option<Format> {
        match name {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "jsonl" => Some(Format::Jsonl),
            "parquet" => Some(Format::Parquet),
            records::NAME => Some(Format::SiteRecords),
            links::NAME => Some(Format::SiteLinks),
            other => registry::find_site(other).map(Format::Site),
        }
    }

    /// Every input format's name and what it is, in the order help texts
    /// and errors list them (`auto` is the front ends' own).
    pub fn all() -> Vec<(&'static str, &'static str)> {
        let mut all = vec![
            ("text", "The record format"),
            ("json", "A gamerec JSON document"),
            ("jsonl", "gamerec JSON Lines"),
            ("parquet", "A gamerec Parquet games table"),
        ];
        all.extend(registry::sites().map(|s| (s.format().name, s.format().title)));
        all.push((records::NAME, records::TITLE));
        all.push((links::NAME, links::TITLE));
        all
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

/// Whether `head` starts an AbstractPlay record (`{"header"…`, white space
/// allowed) or an array of them (`[{"header"…`, or an empty array).
fn looks_records(head: &[u8]) -> bool {
    let skip = |b: &[u8]| -> usize { b.iter().take_while(|c| c.is_ascii_whitespace()).count() };
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut at = skip(head);
    if head.get(at) == Some(&b'[') {
        at += 1;
        at += skip(&head[at..]);
        if head.get(at) == Some(&b']') {
            return true;
        }
    }
    if head.get(at) != Some(&b'{') {
        return false;
    }
    at += 1;
    at += skip(&head[at..]);
    head[at..].starts_with(b"\"header\"") || head[at..].starts_with(b"\"moves\"")
}

/// Guesses an input's format from its name's extension and its first
/// bytes: an AbstractPlay record or array of them (`{"header"…`,
/// `[{"header"…`) whatever its name; `.json` / `{"format"…` a gamerec JSON
/// document, `.jsonl` / `{` JSON Lines; a Garden Gate link (a URL or `?`
/// and a payload that decompresses to a game); a first token a game's site
/// notation recognizes, that site's strings; anything else the record
/// format.
pub fn detect(extension: Option<&str>, head: &[u8]) -> Format {
    if crate::convert::parquet::looks_parquet(head) {
        return Format::Parquet;
    }
    if looks_records(head) {
        return Format::SiteRecords;
    }
    match extension.map(str::to_ascii_lowercase).as_deref() {
        Some("json") => return Format::Json,
        Some("jsonl") | Some("ndjson") => return Format::Jsonl,
        _ => {}
    }
    let token = first_token(head);
    if links::looks_like(token) {
        return Format::SiteLinks;
    }
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

/// What [`read`] calls with each game: where it came from, what was read,
/// and its rules (or why there are none).
pub type Visit<'a> =
    dyn FnMut(Option<&Chunk>, Parsed, Result<&'static dyn AnyGame, Problem>) -> io::Result<()> + 'a;

/// Reads every game of `input` whole; returns how many there were.
pub fn read<R: BufRead + Send>(
    input: R,
    format: Format,
    opts: &Options,
    each: &mut Visit<'_>,
) -> io::Result<usize> {
    let mut n = 0;
    let _ = read_mapped(
        input,
        format,
        opts,
        |_, game, rules| (game.record(), rules),
        |chunk, (parsed, rules)| {
            n += 1;
            each(chunk, parsed, rules).map(|()| ControlFlow::Continue(()))
        },
    )?;
    Ok(n)
}

/// What is done with each game as it is read: where it came from (for
/// locating problems; `None` for JSON), the game, its rules (or why there
/// are none).
pub type Map<'a, T> = dyn Fn(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T
    + Sync
    + 'a;

/// Reads every game of `input`: `map` works on each as it is read (for
/// the record format on the pipeline's worker threads: nothing of a game
/// need be kept), its results are handed to `each` in input order until
/// `each` breaks (then the reading says it stopped). Records of games
/// gamerec does not play (in a site's files) are skipped and counted.
pub fn read_mapped<R, T, M, E>(
    input: R,
    format: Format,
    opts: &Options,
    map: M,
    mut each: E,
) -> io::Result<Reading>
where
    R: BufRead + Send,
    T: Send,
    M: Fn(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    let mut sequential = |chunk: Option<&Chunk>,
                          game: &mut dyn ReadGame<'_>,
                          rules: Result<&'static dyn AnyGame, Problem>| {
        each(chunk, map(chunk, game, rules))
    };
    match format {
        Format::Text => {
            let mut stopped = false;
            crate::pipeline::map_chunks(
                input,
                |chunk| games_of(chunk, opts, &map),
                |chunk, games| {
                    for game in games {
                        if each(Some(&chunk), game)?.is_break() {
                            stopped = true;
                            return Ok(ControlFlow::Break(()));
                        }
                    }
                    Ok(ControlFlow::Continue(()))
                },
            )?;
            Ok(Reading {
                stopped,
                ..Reading::default()
            })
        }
        Format::Json => read_json(input, opts, &mut sequential).map(Reading::flow),
        Format::Jsonl => read_jsonl(input, opts, &mut sequential).map(Reading::flow),
        Format::Parquet => read_parquet_mapped(input, opts, &map, &mut each).map(Reading::flow),
        Format::Site(site) => {
            read_site(input, site.game(), site.format(), &mut sequential).map(Reading::flow)
        }
        Format::SiteRecords => read_records(input, &mut sequential),
        Format::SiteLinks => read_links(input, &mut sequential),
    }
}

/// Hands game `n` (1-based) of `input` to `f` as it is read, on this
/// thread (the games before it are read past, nothing of them kept);
/// returns what `f` made of it, or `None` when the input has fewer games.
pub fn read_nth<R, T, F>(
    input: R,
    format: Format,
    opts: &Options,
    n: usize,
    f: F,
) -> io::Result<Option<T>>
where
    R: BufRead,
    F: FnOnce(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T,
{
    let (mut f, mut made, mut seen) = (Some(f), None, 0);
    let mut visit = |chunk: Option<&Chunk>,
                     game: &mut dyn ReadGame<'_>,
                     rules: Result<&'static dyn AnyGame, Problem>| {
        seen += 1;
        if seen == n {
            made = f.take().map(|f| f(chunk, game, rules));
        }
        Ok(match seen >= n {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        })
    };
    match format {
        Format::Text => {
            let mut chunks = crate::record::ChunkReader::new(input);
            while let Some(chunk) = chunks.next_chunk()? {
                let flows = games_in(&chunk, opts, &mut |c, g, r| visit(c, g, r));
                if flows
                    .iter()
                    .any(|f| matches!(f, Ok(ControlFlow::Break(()))))
                {
                    break;
                }
            }
        }
        Format::Json => {
            let _ = read_json(input, opts, &mut visit)?;
        }
        Format::Jsonl => {
            let _ = read_jsonl(input, opts, &mut visit)?;
        }
        Format::Parquet => {
            let _ = read_parquet(input, opts, &mut visit)?;
        }
        Format::Site(site) => {
            let _ = read_site(input, site.game(), site.format(), &mut visit)?;
        }
        Format::SiteRecords => {
            let _ = read_records(input, &mut visit)?;
        }
        Format::SiteLinks => {
            let _ = read_links(input, &mut visit)?;
        }
    }
    Ok(made)
}

/// A game to hand on sequentially: its chunk, the game, its rules.
type Each<'a> = dyn FnMut(
        Option<&Chunk>,
        &mut dyn ReadGame<'_>,
        Result<&'static dyn AnyGame, Problem>,
    ) -> io::Result<ControlFlow<()>>
    + 'a;

/// What `map` makes of the games of one chunk of the record format, each
/// read as it is handed on.
fn games_of<T>(chunk: &Chunk, opts: &Options, map: &Map<'_, T>) -> Vec<T> {
    games_in(chunk, opts, &mut |c, g, r| map(c, g, r))
}

/// [`Map`] called on one thread.
type MapMut<'a, T> = dyn FnMut(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T
    + 'a;

/// [`games_of`] with a sequential `f`.
fn games_in<T>(chunk: &Chunk, opts: &Options, f: &mut MapMut<'_, T>) -> Vec<T> {
    if chunk.truncated {
        let p = too_large(chunk);
        let record = Record::default();
        return vec![f(
            Some(chunk),
            &mut RecordSource::new(&record, Some(p.clone())),
            Err(p),
        )];
    }
    if opts.lenient.is_some() {
        return leniently(chunk, opts, f);
    }
    each_game(chunk, &|tags| opts.style(tags), &mut |game| {
        let mut game = match opts.turns_only {
            true => StreamTurns::lean(game),
            false => StreamTurns::new(game),
        };
        let rules = rules_for_game(&mut game, opts);
        f(Some(chunk), &mut game, rules)
    })
}

/// `--lenient`: every game of a chunk read whole, repaired, and handed
/// on with its repairs.
fn leniently<T>(chunk: &Chunk, opts: &Options, f: &mut MapMut<'_, T>) -> Vec<T> {
    read_leniently(chunk, &|tags| opts.style(tags))
        .into_iter()
        .map(|game| {
            let Leniently {
                parsed: Parsed { mut record, error },
                mut repairs,
                renumbered,
            } = game;
            let rules =
                archive::repaired(&mut record, error.as_ref(), opts, &mut repairs, &renumbered);
            f(
                Some(chunk),
                &mut RecordSource::repaired(&record, error, repairs),
                rules,
            )
        })
        .collect()
}

/// Hands `f` a game read from JSON or Parquet as a record (its rules
/// found), or why none could be read (located in `chunk`, when there is
/// one).
fn with_record<T>(
    chunk: Option<&Chunk>,
    game: Result<GameIn, Problem>,
    opts: &Options,
    f: impl FnOnce(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T,
) -> T {
    match game.and_then(GameIn::into_record) {
        Ok(mut record) => {
            let mut repairs = Vec::new();
            let rules = archive::repaired(&mut record, None, opts, &mut repairs, &[]);
            f(
                None,
                &mut RecordSource::repaired(&record, None, repairs),
                rules,
            )
        }
        Err(p) => {
            let record = Record::default();
            f(
                chunk,
                &mut RecordSource::new(&record, Some(p.clone())),
                Err(p),
            )
        }
    }
}

/// A game read from JSON, or why none could be.
fn from_json(
    chunk: Option<&Chunk>,
    game: Result<GameIn, Problem>,
    opts: &Options,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    with_record(chunk, game, opts, |c, g, r| each(c, g, r))
}

fn malformed_json(e: serde_json::Error, line_base: usize) -> Problem {
    Problem::new(
        crate::convert::json::json_error_code(&e),
        format!(
            "not a gamerec JSON game (line {}, column {}): {e}",
            e.line() + line_base,
            e.column()
        ),
        Span::default(),
    )
}

/// Reads a gamerec JSON document game by game: its object is walked key
/// by key (each key and each other member's value capped as a record is),
/// and its `games` array is cut into its elements, each read as JSON Lines
/// reads a line: at most [`MAX_RECORD_BYTES`] of it (a longer one is
/// `record-too-large`), located at its own offset, line and column. Memory
/// follows the largest game, never the document. A `format` or `version`
/// that is not this reader's stops the reading where it stands (the writer
/// puts both before `games`).
fn read_json<R: BufRead>(
    input: R,
    opts: &Options,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    let mut doc = Values::new(input);
    let fail = |doc: &Values<R>, code, message: String, each: &mut Each<'_>| {
        let (offset, line, column) = doc.position();
        let mut chunk = Chunk::from_bytes(Vec::new());
        (chunk.offset, chunk.line, chunk.column) = (offset, line, column);
        let p = Problem::new(code, message, Span::new(offset, offset));
        from_json(Some(&chunk), Err(p), opts, each)
    };
    if doc.peek()? != Some(b'{') {
        let what = "not a gamerec JSON document: it does not start with `{`".to_string();
        return fail(&doc, Code::MalformedJson, what, each);
    }
    doc.bump()?;
    loop {
        match doc.peek()? {
            Some(b'}') => return Ok(ControlFlow::Continue(())),
            Some(b',') => {
                doc.bump()?;
                continue;
            }
            Some(b'"') => {}
            Some(_) | None => {
                let what = "not a gamerec JSON document: a member's name or the document's \
                            end `}` was expected here"
                    .to_string();
                return fail(&doc, Code::MalformedJson, what, each);
            }
        }
        let key = match doc.member()? {
            Scanned::Value(c) if !c.truncated => serde_json::from_slice::<String>(&c.bytes).ok(),
            _ => None,
        };
        if doc.peek()? != Some(b':') {
            let what = "not a gamerec JSON document: a member's `:` was expected here".to_string();
            return fail(&doc, Code::MalformedJson, what, each);
        }
        doc.bump()?;
        doc.peek()?;
        match key.as_deref() {
            Some("games") if doc.peek()? == Some(b'[') => {
                doc.enter_array()?;
                if json_games(&mut doc, opts, each)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Some("games") => {
                let what = "`games` is not an array of games".to_string();
                return fail(&doc, Code::MalformedJson, what, each);
            }
            key => {
                let value = match doc.member()? {
                    Scanned::Value(c) if !c.truncated => {
                        serde_json::from_slice::<serde_json::Value>(&c.bytes).ok()
                    }
                    _ => None,
                };
                let unsupported = match key {
                    Some("format") => value.as_ref().and_then(|v| v.as_str()) != Some(FORMAT),
                    Some("version") => {
                        value.as_ref().and_then(serde_json::Value::as_u64) != Some(VERSION.into())
                    }
                    _ => false,
                };
                if unsupported {
                    let what = format!(
                        "this reads format `{FORMAT}` version {VERSION}, not {} `{}`",
                        key.unwrap_or_default(),
                        value.map_or("?".into(), |v| v.to_string())
                    );
                    return fail(&doc, Code::UnsupportedJson, what, each);
                }
            }
        }
    }
}

/// The elements of a document's `games` array, each a game.
fn json_games<R: BufRead>(
    doc: &mut Values<R>,
    opts: &Options,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    while let Some(scanned) = doc.next_value()? {
        let (chunk, game) = match scanned {
            Scanned::Value(chunk) if chunk.truncated => {
                let p = too_large(&chunk);
                (chunk, Err(p))
            }
            Scanned::Value(chunk) => {
                let game = json_game(&chunk);
                (chunk, game)
            }
            Scanned::Cut(chunk, end) => {
                let p = Problem::new(
                    Code::MalformedJson,
                    "the document ends inside this game".to_string(),
                    Span::new(end, end),
                );
                let flow = from_json(Some(&chunk), Err(p), opts, each)?;
                return Ok(flow);
            }
            Scanned::Stray(b, offset, line, column) => {
                let mut chunk = Chunk::from_bytes(Vec::new());
                (chunk.offset, chunk.line, chunk.column) = (offset, line, column);
                let p = Problem::new(
                    Code::MalformedJson,
                    format!(
                        "`{}` where a game or the end of `games` was expected",
                        b as char
                    ),
                    Span::new(offset, offset + 1),
                );
                (chunk, Err(p))
            }
        };
        if from_json(Some(&chunk), game, opts, each)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// One element of `games`, read as a game.
fn json_game(chunk: &Chunk) -> Result<GameIn, Problem> {
    let at = Span::new(chunk.offset, chunk.offset);
    if std::str::from_utf8(&chunk.bytes).is_err() {
        return Err(Problem::new(
            Code::InvalidUtf8,
            "JSON input must be UTF-8",
            at,
        ));
    }
    serde_json::from_slice::<GameIn>(&chunk.bytes).map_err(|e| {
        let mut p = malformed_json(e, chunk.line - 1);
        p.span = at;
        p
    })
}

/// Reads one line (with its `\n`) into `line`, keeping at most
/// [`MAX_RECORD_BYTES`] of it: the rest of a longer line is skipped at
/// memchr speed. Returns the bytes the line took in the input and whether
/// it was cut.
fn read_line_capped<R: BufRead>(input: &mut R, line: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    let (mut read, mut cut) = (0, false);
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok((read, cut));
        }
        let (take, end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = MAX_RECORD_BYTES.saturating_sub(line.len());
        if take > room {
            cut = true;
        }
        line.extend_from_slice(&buf[..take.min(room)]);
        input.consume(take);
        read += take;
        if end {
            return Ok((read, cut));
        }
    }
}

fn read_jsonl<R: BufRead>(
    mut input: R,
    opts: &Options,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    let mut line = Vec::new();
    let (mut offset, mut number) = (0usize, 0usize);
    loop {
        line.clear();
        let (read, cut) = read_line_capped(&mut input, &mut line)?;
        if read == 0 {
            return Ok(ControlFlow::Continue(()));
        }
        number += 1;
        let mut chunk = Chunk::from_bytes(Vec::new());
        chunk.offset = offset;
        chunk.line = number;
        offset += read;
        let game = if cut {
            chunk.truncated = true;
            Err(too_large(&chunk))
        } else {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_start_matches('\u{feff}').trim();
            if text.is_empty() {
                continue;
            }
            serde_json::from_str::<GameIn>(text).map_err(|e| {
                let mut p = malformed_json(e, number - 1);
                p.span = Span::new(offset - read, offset - read);
                p
            })
        };
        if from_json(Some(&chunk), game, opts, each)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
}

/// Games of a Parquet table mapped at once, on the pipeline's threads.
const PARQUET_BATCH: usize = 512;

/// About how many bytes (as text) of Parquet games are mapped at a time.
const PARQUET_BATCH_BYTES: usize = 8 << 20;

/// About the size of a game as text: its tags, comments and turns.
fn text_size(g: &GameIn) -> usize {
    let strings = |list: &[String]| list.iter().map(|c| c.len() + 3).sum::<usize>();
    g.tags
        .iter()
        .map(|(n, v)| n.len() + v.len() + 6)
        .sum::<usize>()
        + strings(&g.comments)
        + (g.turns.iter())
            .map(|t| t.text.len() + 2 + strings(&t.comments))
            .sum::<usize>()
}

/// What `map` makes of a game read from JSON or Parquet (or of why none
/// could be read).
fn map_json<T>(game: Result<GameIn, Problem>, opts: &Options, map: &Map<'_, T>) -> T {
    with_record(None, game, opts, |c, g, r| map(c, g, r))
}

/// Reads a Parquet games table (copied to a temporary file first: Parquet
/// is read from its end) a batch of games at a time, each batch mapped on
/// the pipeline's threads, the results handed on in order.
fn read_parquet_mapped<R, T, M, E>(
    mut input: R,
    opts: &Options,
    map: &M,
    each: &mut E,
) -> io::Result<ControlFlow<()>>
where
    R: BufRead,
    T: Send,
    M: Fn(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    let file = spool(&mut input, opts)?;
    parquet_mapped(file, opts, map, each)
}

/// A Parquet input that is not a file on disk, copied to an unlinked
/// temporary file (Parquet is read from its end), at most `max_spool` bytes
/// of it: past that the copy stops and the input is an error that says so
/// (no disk fills up with a decompression bomb that starts `PAR1`). A
/// spooled file that does not end as Parquet does (`PAR1`) is said at
/// once.
fn spool<R: BufRead>(input: &mut R, opts: &Options) -> io::Result<std::fs::File> {
    let cap = opts.max_spool.unwrap_or(crate::archive::DEFAULT_MAX_SPOOL);
    let mut file = tempfile::tempfile()?;
    let copied = io::copy(
        &mut io::Read::take(&mut *input, cap.saturating_add(1)),
        &mut file,
    )?;
    if copied > cap {
        return Err(io::Error::other(format!(
            "a Parquet input that is not a file on disk (piped or compressed) is copied to a \
             temporary file to be read, and this one is longer than {}; the copy stopped \
             there (give it as an uncompressed file, or raise --max-spool)",
            size_text(cap)
        )));
    }
    Ok(file)
}

/// `1073741824` → `1 GiB`; sizes that are not whole units in bytes.
pub fn size_text(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// Reads the games of a Parquet file on disk in place, as [`read_mapped`]
/// reads any input.
pub fn read_parquet_in_place<T, M, E>(
    file: std::fs::File,
    opts: &Options,
    map: M,
    mut each: E,
) -> io::Result<Reading>
where
    T: Send,
    M: Fn(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    parquet_mapped(file, opts, &map, &mut each).map(Reading::flow)
}

/// The games of a Parquet file, a batch at a time, mapped on the
/// pipeline's threads, handed on in order.
fn parquet_mapped<T, M, E>(
    file: std::fs::File,
    opts: &Options,
    map: &M,
    each: &mut E,
) -> io::Result<ControlFlow<()>>
where
    T: Send,
    M: Fn(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    use rayon::prelude::*;
    let mut games = match GamesReader::open(file) {
        Ok(games) => games,
        Err(p) => return each(None, map_json(Err(p), opts, map)),
    };
    let jobs = crate::pipeline::jobs();
    let pool = match jobs > 1 {
        true => rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .ok(),
        false => None,
    };
    loop {
        // At most PARQUET_BATCH games, and about PARQUET_BATCH_BYTES of
        // them: a batch of large games is a small one.
        let (mut batch, mut bytes) = (Vec::new(), 0usize);
        while batch.len() < PARQUET_BATCH && bytes < PARQUET_BATCH_BYTES {
            let Some(game) = games.next_game() else {
                break;
            };
            bytes += game.as_ref().map_or(0, text_size);
            batch.push(game);
        }
        if batch.is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        let mapped: Vec<T> = match &pool {
            Some(pool) => pool.install(|| {
                batch
                    .into_par_iter()
                    .map(|g| map_json(g, opts, map))
                    .collect()
            }),
            None => batch.into_iter().map(|g| map_json(g, opts, map)).collect(),
        };
        for t in mapped {
            if each(None, t)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
    }
}

/// Reads a Parquet games table: copied to a temporary file first (Parquet
/// is read from its end), then a row group at a time.
fn read_parquet<R: BufRead>(
    mut input: R,
    opts: &Options,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    let file = spool(&mut input, opts)?;
    read_parquet_file(file, opts, each)
}

/// Reads the games of a Parquet games table, in order; a file that is no
/// games table (or is damaged past some row) is one invalid game saying so.
fn read_parquet_file(
    file: std::fs::File,
    opts: &Options,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    let mut games = match GamesReader::open(file) {
        Ok(games) => games,
        Err(p) => return from_json(None, Err(p), opts, each),
    };
    while let Some(game) = games.next_game() {
        if from_json(None, game, opts, each)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// How a site's move strings are read: the game's own style, and `,`
/// between turns where the site joins them so.
fn site_style(rules: &dyn AnyGame, site: &SiteFormat) -> MovetextStyle {
    MovetextStyle {
        commas: site.commas,
        ..rules.style()
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
) -> io::Result<ControlFlow<()>> {
    let (mut offset, mut line_no) = (0usize, 1usize);
    let mut game: Option<Chunk> = None;
    let mut line = Vec::new();
    let mut emit = |chunk: Chunk| -> io::Result<ControlFlow<()>> {
        if chunk.truncated {
            return broken(&chunk, too_large(&chunk), each);
        }
        let style = site_style(rules, &site);
        let at = Span::new(chunk.offset, chunk.offset);
        let tag = |name: &str, value: &str| Tag {
            name: name.into(),
            value: value.into(),
            span: at,
            value_span: at,
        };
        let mut flow = Ok(ControlFlow::Continue(()));
        each_game(&chunk, &|_| style, &mut |game| {
            if !matches!(flow, Ok(ControlFlow::Continue(()))) {
                return;
            }
            // The site's strings name no game: its tags come first.
            let mut tags = vec![tag("Game", rules.name())];
            tags.extend(site.tags.iter().map(|(n, v)| tag(n, v)));
            tags.append(&mut game.tags);
            game.tags = tags;
            flow = each(Some(&chunk), &mut StreamTurns::new(game), Ok(rules));
        });
        flow
    };
    loop {
        line.clear();
        let (read, cut) = read_line_capped(&mut input, &mut line)?;
        let blank = !cut && line.iter().all(u8::is_ascii_whitespace);
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
                if emit(chunk)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        if read == 0 {
            return Ok(ControlFlow::Continue(()));
        }
        if !blank {
            match &mut game {
                Some(chunk) if !cut && chunk.bytes.len() + line.len() <= MAX_RECORD_BYTES => {
                    chunk.bytes.extend_from_slice(&line)
                }
                Some(chunk) => {
                    chunk.truncated = true;
                    chunk.bytes = Vec::new();
                }
                None => {
                    let mut chunk = Chunk::from_bytes(if cut { Vec::new() } else { line.clone() });
                    chunk.offset = offset;
                    chunk.line = line_no;
                    chunk.truncated = cut;
                    game = Some(chunk);
                }
            }
        }
        offset += read;
        line_no += 1;
    }
}

/// A game that could not be read, handed on with its problem.
fn broken(chunk: &Chunk, p: Problem, each: &mut Each<'_>) -> io::Result<ControlFlow<()>> {
    let record = Record::default();
    each(
        Some(chunk),
        &mut RecordSource::new(&record, Some(p.clone())),
        Err(p),
    )
}

/// Reads AbstractPlay records, one by one as [`Values`] cuts them.
fn read_records<R: BufRead>(input: R, each: &mut Each<'_>) -> io::Result<Reading> {
    let mut values = Values::new(input);
    let mut reading = Reading::default();
    while let Some(scanned) = values.next_value()? {
        let flow = match scanned {
            Scanned::Value(chunk) if chunk.truncated => {
                let p = too_large(&chunk);
                broken(&chunk, p, each)?
            }
            Scanned::Value(chunk) => match records::read(&chunk) {
                records::Read::Game(record, problem, site) => each(
                    Some(&chunk),
                    &mut RecordSource::new(&record, problem),
                    Ok(site.game()),
                ),
                records::Read::Other(name) => {
                    reading.skip(name);
                    continue;
                }
                records::Read::Broken(p) => broken(&chunk, p, each),
            }?,
            Scanned::Cut(chunk, end) => {
                let p = Problem::new(
                    Code::MalformedSiteRecord,
                    "the file ends inside this record: it is cut short",
                    Span::new(end, end),
                );
                let mut shown = chunk;
                shown.bytes.truncate(MAX_RECORD_BYTES);
                broken(&shown, p, each)?
            }
            Scanned::Stray(byte, offset, line, column) => {
                let chunk = Chunk {
                    bytes: vec![byte],
                    offset,
                    line,
                    column,
                    truncated: false,
                };
                let p = Problem::new(
                    Code::MalformedSiteRecord,
                    format!("`{}` where a record should start", byte as char),
                    Span::new(offset, offset + 1),
                )
                .with_token((byte as char).to_string());
                broken(&chunk, p, each)?
            }
        };
        if flow.is_break() {
            reading.stopped = true;
            return Ok(reading);
        }
    }
    Ok(reading)
}

/// Reads Garden Gate links, one per line (blank lines skipped).
fn read_links<R: BufRead>(mut input: R, each: &mut Each<'_>) -> io::Result<Reading> {
    let mut reading = Reading::default();
    let (mut offset, mut number) = (0usize, 0usize);
    let mut line = Vec::new();
    loop {
        line.clear();
        let (read, cut) = read_line_capped(&mut input, &mut line)?;
        if read == 0 {
            return Ok(reading);
        }
        number += 1;
        let start = offset;
        offset += read;
        let text = String::from_utf8_lossy(&line);
        let trimmed = text.trim_start_matches('\u{feff}');
        let lead = trimmed.len() - trimmed.trim_start().len();
        let trimmed = trimmed.trim();
        if trimmed.is_empty() && !cut {
            continue;
        }
        let link_start = start + (text.len() - text.trim_start_matches('\u{feff}').len()) + lead;
        let at = Span::new(link_start, link_start + trimmed.len());
        let mut chunk = Chunk::from_bytes(Vec::new());
        chunk.offset = link_start;
        chunk.line = number;
        chunk.column = 1 + text[..link_start - start].chars().count();
        let flow = if cut {
            chunk.truncated = true;
            let p = too_large(&chunk);
            broken(&chunk, p, each)?
        } else {
            match links::read(trimmed, at) {
                links::Link::Other(what) => {
                    reading.skip(what);
                    continue;
                }
                links::Link::Broken(p) => {
                    chunk.bytes = trimmed.as_bytes().to_vec();
                    broken(&chunk, p, each)?
                }
                links::Link::Game { tags, moves, site } => {
                    // The moves, decoded, stand in for the link: a problem
                    // in them is shown there (its column counts in them).
                    chunk.bytes = moves.into_bytes();
                    game_from_site(&chunk, site.game(), tags, at, each)?
                }
            }
        };
        if flow.is_break() {
            reading.stopped = true;
            return Ok(reading);
        }
    }
}

/// Reads a site game's decoded moves (in `chunk`) with `tags` before them,
/// each tag placed at `at`.
fn game_from_site(
    chunk: &Chunk,
    rules: &'static dyn AnyGame,
    tags: Vec<(String, String)>,
    at: Span,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    let style = rules.style();
    let mut flow = Ok(ControlFlow::Continue(()));
    let mut tags = Some(tags);
    each_game(chunk, &|_| style, &mut |game| {
        if !matches!(flow, Ok(ControlFlow::Continue(()))) {
            return;
        }
        let mut own = placed(tags.take().unwrap_or_default(), at);
        own.append(&mut game.tags);
        game.tags = own;
        flow = each(Some(chunk), &mut StreamTurns::new(game), Ok(rules));
    });
    if let Some(tags) = tags {
        // No moves at all: the game is its tags.
        let record = Record {
            tags: placed(tags, at),
            span: at,
            ..Record::default()
        };
        return each(
            Some(chunk),
            &mut RecordSource::new(&record, None),
            Ok(rules),
        );
    }
    flow
}

/// Tags (name, value) each placed at `at`.
fn placed(tags: Vec<(String, String)>, at: Span) -> Vec<Tag> {
    tags.into_iter()
        .map(|(name, value)| Tag {
            name,
            value,
            span: at,
            value_span: at,
        })
        .collect()
}
