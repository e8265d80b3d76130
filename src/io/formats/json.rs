//! A gamerec JSON document (schema in notation/json.md): one document
//! `{"format":"gamerec","version":1,"games":[…]}`, detected by its
//! extension `.json` or its first word `{"format"`, read game by game
//! (each element of `games` read as JSON Lines reads a line), and written
//! as the games are converted. The game object is JSON Lines' too
//! ([`super::jsonl`]).

use super::scan::{Scanned, Values};
use super::visit::{Cx, Each, Reading, Visit};
use super::{Format, FormatEntry, Peek as Input, Sure};
use crate::base::problem::{Code, Problem};
use crate::envelope::record::{
    Assessment, Chunk, Comment, Glyphs, Record, RecordSource, ResultMark, ResultToken, Span, Tag,
    Turn, MAX_TAGS,
};
use crate::io::reading::{self, too_large};
use crate::play::replay::Outcome;
use crate::play::sink::out::Rendered;
use crate::play::sink::{Converted, GameSink, Head, Tail, TurnOut};
use gamerec_rules::game::MoveFacts;
use serde::{Deserialize, Serialize};
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// The JSON document's line in the table of formats.
pub(crate) const LINE: FormatEntry = FormatEntry {
    name: "json",
    read_help: "A gamerec JSON document",
    write_help: "One JSON document holding every game (schema: notation/json.md)",
    detected_by: "the extension `.json`, or a first word `{\"format\"`",
    formats: || vec![Format::Json],
    detect: |head: &Input<'_>| {
        if head.extension == Some("json") {
            Some((Sure::Extension, Format::Json))
        } else if head.token.starts_with(b"{\"format\"") {
            Some((Sure::Token, Format::Json))
        } else {
            None
        }
    },
};

/// The schema version written and read.
pub const VERSION: u32 = 1;
pub const FORMAT: &str = "gamerec";

/// Where a problem lies, for the JSON form.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorOut<'a> {
    pub code: &'a str,
    pub message: &'a str,
    /// 1-based; absent for games read from JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    pub ply: Option<usize>,
    pub token: Option<&'a str>,
}

#[derive(Serialize)]
struct TurnJson<'a> {
    ply: usize,
    number: u64,
    side: &'a str,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    written: Option<&'a str>,
    legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    effects: &'a [gamerec_rules::game::Effect],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    offer: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    assessment: Option<&'static str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    nags: &'a [u8],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    comments: &'a [String],
}

impl<'a> TurnJson<'a> {
    fn new(t: &'a TurnOut) -> Self {
        let f: Option<&MoveFacts> = t.facts.as_ref();
        TurnJson {
            ply: t.ply,
            number: t.number,
            side: t.side,
            text: &t.text,
            written: t.written.as_deref(),
            legal: f.is_some(),
            kind: f.map(|f| f.kind.as_str()),
            from: f.and_then(|f| f.from.as_deref()),
            to: f.and_then(|f| f.to.as_deref()),
            effects: f.map_or(&[], |f| &f.effects),
            offer: f.is_some_and(|f| f.offer),
            assessment: t.assessment.map(Assessment::as_str),
            nags: &t.nags,
            comments: &t.comments,
        }
    }
}

/// One game as a JSON object.
pub fn game_value(
    file: &str,
    game: &Converted,
    error: Option<ErrorOut<'_>>,
) -> serde_json::Result<String> {
    Ok(with_place(file, game.index, &game_body(game, error)?))
}

/// One game's object without its place (`file`, `index`), for rendering
/// where the place is not known yet (in parallel); [`with_place`]
/// completes it.
pub(crate) fn game_body(
    game: &Converted,
    error: Option<ErrorOut<'_>>,
) -> serde_json::Result<String> {
    let mut out = Rendered::new();
    let mut sink = JsonSink::new(&mut out, None);
    sink.error = error.map(|e| ErrorOwned {
        code: e.code.to_string(),
        message: e.message.to_string(),
        line: e.line,
        column: e.column,
        ply: e.ply,
        token: e.token.map(str::to_string),
    });
    game.tell(&mut sink);
    sink.failed.take().map_or(Ok(()), Err)?;
    Ok(out.into_string())
}

/// A problem's place, owned (found when the game's tail is told).
#[derive(Clone, Debug, Serialize)]
struct ErrorOwned {
    code: String,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    ply: Option<usize>,
    token: Option<String>,
}

/// Writes a game as a JSON object (without its place: see [`with_place`])
/// as it is told; the turns are kept in a buffer of their own (spilled to a
/// file when long) until the verdict, which comes first in the object, is
/// known.
pub struct JsonSink<'o, 'c> {
    out: &'o mut Rendered,
    /// Where the game was read, for its problem's line and column.
    chunk: Option<&'c Chunk>,
    game: Option<&'static str>,
    tags: Vec<(String, String)>,
    comments: Vec<String>,
    turns: Rendered,
    first: bool,
    /// A problem's place given beforehand (a game from [`Converted`]).
    error: Option<ErrorOwned>,
    /// What serde could not write.
    pub failed: Option<serde_json::Error>,
}

impl<'o, 'c> JsonSink<'o, 'c> {
    pub fn new(out: &'o mut Rendered, chunk: Option<&'c Chunk>) -> Self {
        JsonSink {
            out,
            chunk,
            game: None,
            tags: Vec::new(),
            comments: Vec::new(),
            turns: Rendered::new(),
            first: true,
            error: None,
            failed: None,
        }
    }

    fn note(&mut self, r: serde_json::Result<()>) {
        if let Err(e) = r {
            self.failed.get_or_insert(e);
        }
    }
}

#[derive(Serialize)]
struct HeadJson<'a> {
    game: Option<&'a str>,
    valid: bool,
    tags: Vec<[&'a str; 2]>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    comments: &'a [String],
}

#[derive(Serialize)]
struct TailJson<'a> {
    result: Option<ResultToken>,
    outcome: Option<&'a Outcome>,
    error: Option<ErrorOwned>,
}

impl GameSink for JsonSink<'_, '_> {
    fn head(&mut self, head: &Head<'_>) {
        self.game = head.game;
        self.tags = head.owned_tags();
        self.comments = head.comments.to_vec();
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        if !self.first {
            self.turns.push(',');
        }
        self.first = false;
        let r = serde_json::to_writer(&mut self.turns, &TurnJson::new(&turn));
        self.note(r);
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        let head = HeadJson {
            game: self.game,
            valid: tail.is_valid(),
            tags: self
                .tags
                .iter()
                .map(|(n, v)| [n.as_str(), v.as_str()])
                .collect(),
            comments: &self.comments,
        };
        let error = match (self.error.take(), tail.error) {
            (Some(given), _) => Some(given),
            (None, Some(p)) => {
                let at = self.chunk.map(|c| c.locate(p.span.start));
                Some(ErrorOwned {
                    code: p.code.as_str().to_string(),
                    message: p.message.clone(),
                    line: at.map(|a| a.0),
                    column: at.map(|a| a.1),
                    ply: p.ply,
                    token: p.token.as_deref().map(str::to_string),
                })
            }
            (None, None) => None,
        };
        let tail_json = TailJson {
            result: tail.result,
            outcome: tail.outcome,
            error,
        };
        // {"game":…,"valid":…,"tags":…[,"comments":…],"turns":[…],"result":…,…}
        let head_text = serde_json::to_string(&head);
        let tail_text = serde_json::to_string(&tail_json);
        let (head_text, tail_text) = match (head_text, tail_text) {
            (Ok(h), Ok(t)) => (h, t),
            (Err(e), _) | (_, Err(e)) => {
                self.failed.get_or_insert(e);
                return;
            }
        };
        self.out.push_str(&head_text[..head_text.len() - 1]);
        self.out.push_str(",\"turns\":[");
        let turns = std::mem::take(&mut self.turns);
        if let Err(e) = turns.write_to(&mut *self.out, 0, None) {
            self.failed.get_or_insert(serde_json::Error::io(e));
        }
        self.out.push_str("],");
        self.out.push_str(&tail_text[1..]);
    }
}

/// A [`game_body`] with `file` and `index` as its first members.
pub fn with_place(file: &str, index: usize, body: &str) -> String {
    let file = serde_json::Value::from(file).to_string();
    let rest = body.strip_prefix('{').unwrap_or(body);
    let sep = if rest.starts_with('}') { "" } else { "," };
    format!("{{\"file\":{file},\"index\":{index}{sep}{rest}")
}

/// The document's opening, up to the games array.
pub fn document_start() -> String {
    format!("{{\"format\":\"{FORMAT}\",\"version\":{VERSION},\"games\":[\n")
}

pub const DOCUMENT_END: &str = "\n]}\n";

/// A document's opening, before its first game.
pub fn head(out: &mut dyn io::Write) -> io::Result<()> {
    out.write_all(document_start().as_bytes())
}

/// One game's object (the body `rendered`, without its braces' opening)
/// with its place first: `{"file":…,"index":…,` then the rest; after
/// `any` game, a separator first (in a document).
pub fn write_game(
    out: &mut dyn io::Write,
    file: &str,
    index: usize,
    rendered: Rendered,
    separator: &[u8],
) -> io::Result<()> {
    out.write_all(separator)?;
    let file = serde_json::Value::from(file).to_string();
    write!(out, "{{\"file\":{file},\"index\":{index},")?;
    rendered.write_to(out, 1, None)
}

/// A document's end (an empty `games` array when no game was written).
pub fn tail(out: &mut dyn io::Write, any: bool) -> io::Result<()> {
    if !any {
        out.write_all(document_start().trim_end().as_bytes())?;
        return out.write_all(b"]}\n");
    }
    out.write_all(DOCUMENT_END.as_bytes())
}

/// A game as read back from JSON: only what the record holds.
#[derive(Debug, Deserialize)]
pub struct GameIn {
    #[serde(default, deserialize_with = "capped_tags")]
    pub tags: Vec<(String, String)>,
    #[serde(default)]
    pub comments: Vec<String>,
    #[serde(default)]
    pub turns: Vec<JsonTurn>,
    #[serde(default)]
    pub result: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct JsonTurn {
    pub text: String,
    #[serde(default)]
    pub assessment: Option<String>,
    #[serde(default)]
    pub nags: Vec<u8>,
    #[serde(default)]
    pub comments: Vec<String>,
}

/// What a game of more than [`MAX_TAGS`] tag pairs fails with (reading
/// stops there: no more are built).
pub(crate) const TOO_MANY_TAGS: &str = "more tag pairs than a record may hold";

/// The `tags` list, refused past [`MAX_TAGS`] pairs as it is read.
fn capped_tags<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    struct Capped;
    impl<'de> serde::de::Visitor<'de> for Capped {
        type Value = Vec<(String, String)>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of [name, value] pairs")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut tags = Vec::new();
            while let Some(pair) = seq.next_element()? {
                if tags.len() == MAX_TAGS {
                    return Err(serde::de::Error::custom(format!(
                        "{TOO_MANY_TAGS} ({MAX_TAGS})"
                    )));
                }
                tags.push(pair);
            }
            Ok(tags)
        }
    }
    d.deserialize_seq(Capped)
}

/// Why a game read from JSON failed: `record-too-large` for one of too
/// many tags, else malformed JSON.
pub(crate) fn json_error_code(e: &serde_json::Error) -> Code {
    match e.to_string().contains(TOO_MANY_TAGS) {
        true => Code::RecordTooLarge,
        false => Code::MalformedJson,
    }
}

/// A whole JSON document.
#[derive(Debug, Deserialize)]
pub struct DocumentIn {
    pub format: Option<String>,
    pub version: Option<u32>,
    pub games: Vec<GameIn>,
}

fn bad(code: Code, message: String) -> Problem {
    Problem::new(code, message, Span::default())
}

/// A tag as a record holds it: its name letters, digits and `_`, its
/// value one line.
fn check_tag(name: &str, value: &str) -> Result<(), Problem> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(bad(
            Code::MalformedTag,
            format!("a tag name is letters, digits and `_`, not {name:?}"),
        ));
    }
    if value.contains(['\n', '\r']) {
        return Err(bad(
            Code::MalformedTag,
            format!("the value of tag {name} cannot hold a line break"),
        ));
    }
    Ok(())
}

/// A comment as a record holds it: without `}`.
fn comment(text: String) -> Result<Comment, Problem> {
    if text.contains('}') {
        return Err(bad(
            Code::MalformedComment,
            format!("a comment cannot hold `}}`: {text:?}"),
        ));
    }
    Ok(Comment {
        text,
        span: Span::default(),
    })
}

impl JsonTurn {
    /// The turn of `ply` as a record holds it: one token without spaces
    /// or brackets, with its comments.
    fn into_turn(self, ply: usize) -> Result<Turn, Problem> {
        let (text, written) = Assessment::split(self.text.trim());
        let text = text.to_string();
        let assessment = match self.assessment.as_deref() {
            None => written,
            Some(a) => Some(Assessment::parse(a).ok_or_else(|| {
                let mut p = bad(
                    Code::MalformedJson,
                    format!("an assessment is one of !!, !, !?, ?!, ?, ??, not {a:?}"),
                );
                p.ply = Some(ply);
                p
            })?),
        };
        if text.is_empty() || text.contains(|c: char| c.is_whitespace() || "{}[]".contains(c)) {
            let mut p = bad(
                Code::MalformedMove,
                format!(
                    "a turn is one token without spaces or brackets: {:?}",
                    self.text
                ),
            );
            p.ply = Some(ply);
            p.token = Some(self.text.into_boxed_str());
            return Err(p);
        }
        Ok(Turn {
            number: None,
            text,
            span: Span::default(),
            comments: (self.comments.into_iter())
                .map(comment)
                .collect::<Result<_, _>>()?,
            glyphs: Glyphs {
                assessment,
                nags: self.nags,
            },
        })
    }
}

impl GameIn {
    /// The record this game describes, or why it cannot be one.
    pub(crate) fn into_record(self) -> Result<Record, Problem> {
        let none = Span::default();
        for (name, value) in &self.tags {
            check_tag(name, value)?;
        }
        let mut turns = Vec::with_capacity(self.turns.len());
        for (i, t) in self.turns.into_iter().enumerate() {
            turns.push(t.into_turn(i + 1)?);
        }
        let result = match self.result {
            None => None,
            Some(r) => Some(ResultMark {
                result: ResultToken::parse(&r).ok_or_else(|| {
                    bad(
                        Code::BadResult,
                        format!("a result is one of `1-0`, `0-1`, `1/2-1/2` or `*`, not {r:?}"),
                    )
                })?,
                span: none,
            }),
        };
        Ok(Record {
            tags: self
                .tags
                .into_iter()
                .map(|(name, value)| Tag {
                    name: name.into(),
                    value: value.into(),
                    span: none,
                    value_span: none,
                })
                .collect(),
            comments: (self.comments.into_iter())
                .map(comment)
                .collect::<Result<_, _>>()?,
            turns,
            result,
            span: none,
        })
    }
}

/// A game read from JSON, or why none could be.
pub(super) fn from_json(
    cx: Cx<'_>,
    chunk: Option<&Chunk>,
    game: Result<GameIn, Problem>,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    with_record(cx, chunk, game, each)
}

pub(super) fn malformed_json(e: serde_json::Error, line_base: usize) -> Problem {
    Problem::new(
        json_error_code(&e),
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
pub fn read<R: BufRead>(input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<Reading> {
    document(input, cx, each).map(Reading::flow)
}

/// [`read`], saying whether `each` stopped it.
fn document<R: BufRead>(input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<ControlFlow<()>> {
    let mut doc = Values::new(input);
    let fail = |doc: &Values<R>, code, message: String, each: &mut Each<'_>| {
        let (offset, line, column) = doc.position();
        let mut chunk = Chunk::from_bytes(Vec::new());
        (chunk.offset, chunk.line, chunk.column) = (offset, line, column);
        let p = Problem::new(code, message, Span::new(offset, offset));
        from_json(cx, Some(&chunk), Err(p), each)
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
                if json_games(&mut doc, cx, each)?.is_break() {
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
    cx: Cx<'_>,
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
                let flow = from_json(cx, Some(&chunk), Err(p), each)?;
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
        if from_json(cx, Some(&chunk), game, each)?.is_break() {
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

/// Hands `f` a game read from JSON or Parquet as a record (its rules
/// found), or why none could be read (located in `chunk`, when there is
/// one).
pub(super) fn with_record<T>(
    cx: Cx<'_>,
    chunk: Option<&Chunk>,
    game: Result<GameIn, Problem>,
    f: impl FnOnce(Visit<'_, '_>) -> T,
) -> T {
    match game.and_then(GameIn::into_record) {
        Ok(mut record) => {
            let mut repairs = Vec::new();
            let rules = reading::repaired(&mut record, None, cx.opts, &mut repairs, &[]);
            f(cx.visit(
                None,
                &mut RecordSource::repaired(&record, None, repairs),
                rules,
            ))
        }
        Err(p) => {
            let record = Record::default();
            f(cx.visit(
                chunk,
                &mut RecordSource::new(&record, Some(p.clone())),
                Err(p),
            ))
        }
    }
}
