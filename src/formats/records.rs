//! AbstractPlay's JSON game records (recranks schema 1-0-0): one record,
//! as the game page downloads it, or bulk arrays of them (`ALL.json`,
//! `meta/<game>.json`, …), read record by record ([`super::scan`]).
//!
//! A record becomes a game with tags (notation/abstractplay-record.md has
//! the whole mapping) and its move strings as turns, each located at its
//! string in the file. The strings `resign`, `timeout`, `draw` and
//! `abandoned` end a game as the site records it: they become the
//! `Termination` tag, and the players' `result` values the `Result` tag.
//! Which games the site holds, and under what name, the games say
//! ([`SiteFiles::Records`]); records of any other game are skipped.
//! Detected by its first bytes (`{"header"`, `[{"header"`) whatever the
//! file's name.

use super::read::{broken, Cx, Each, Reading};
use super::scan::{Scanned, Values};
use super::{Format, Head, Line, Sure};
use crate::archive::too_large;
use crate::convert::out::Rendered;
use crate::game::SiteFiles;
use crate::problem::{Code, Problem};
use crate::record::{
    Chunk, Comment, Record, RecordSource, ResultMark, ResultToken, Span, Tag, Turn,
    MAX_RECORD_BYTES,
};
use crate::registry::{self, AnySite};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead};

/// One record written: one game is one record, several an array of them.
/// The first is held until a second one shows which.
pub fn write_game(
    out: &mut dyn io::Write,
    rendered: Rendered,
    any: bool,
    held: &mut Option<Rendered>,
) -> io::Result<()> {
    if !any {
        *held = Some(rendered);
        return Ok(());
    }
    if let Some(first) = held.take() {
        out.write_all(b"[\n")?;
        first.write_to(out, 0, None)?;
    }
    out.write_all(b",\n")?;
    rendered.write_to(out, 0, None)
}

/// After the last record: the one record held, or the array's end (an
/// empty array when there was none).
pub fn tail(out: &mut dyn io::Write, any: bool, held: Option<Rendered>) -> io::Result<()> {
    match (held, any) {
        (Some(one), _) => {
            one.write_to(out, 0, None)?;
            out.write_all(b"\n")
        }
        (None, true) => out.write_all(b"\n]\n"),
        (None, false) => out.write_all(b"[]\n"),
    }
}

/// The game whose records AbstractPlay keeps, among the registered site
/// notations.
fn site() -> Option<&'static dyn AnySite> {
    registry::sites().find(|s| matches!(s.format().files, SiteFiles::Records { .. }))
}

/// The records' line in the table of formats.
pub const LINE: Line = Line {
    name: NAME,
    read_help: TITLE,
    write_help: TITLE,
    formats: || site().map(Format::Records).into_iter().collect(),
    detect: |head: &Head<'_>| {
        let site = site().filter(|_| looks_records(head.bytes))?;
        Some((Sure::Magic, Format::Records(site)))
    },
};

/// The `--from`/`--to` name.
pub const NAME: &str = "abstractplay-record";

/// What it is, for help texts.
pub const TITLE: &str = "AbstractPlay game records (JSON; several games: an array of them)";

/// The move strings that end a game other than on the board.
pub const ENDINGS: [&str; 4] = ["resign", "timeout", "draw", "abandoned"];

/// A turn comment that carries what a move entry held besides its move
/// (`sequence`, `result`): `{ap {"sequence":3}}`.
pub const ENTRY_COMMENT: &str = "ap ";

/// What one record is.
pub enum Read {
    /// A game of a registered site game: the record (its turns located in
    /// the chunk), the problem that stops it being read further (if any),
    /// and the site it belongs to.
    Game(Record, Option<Problem>, &'static dyn AnySite),
    /// A record of a game gamerec does not play: its name.
    Other(String),
    /// Not a record that can be read: why.
    Broken(Problem),
}

/// A JSON object's members in order, each value left as its text.
struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Members<'a>, M::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<Cow<'de, str>, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

impl<'a> Members<'a> {
    fn take(&mut self, name: &str) -> Option<&'a RawValue> {
        let i = self.0.iter().position(|(k, _)| k == name)?;
        Some(self.0.remove(i).1)
    }
}

/// Reading one record: its text and where it stands.
struct Reader<'c> {
    chunk: &'c Chunk,
    text: &'c str,
}

impl<'c> Reader<'c> {
    fn span(&self, raw: &RawValue) -> Span {
        let start = raw.get().as_ptr() as usize - self.text.as_ptr() as usize;
        Span::new(
            self.chunk.offset + start,
            self.chunk.offset + start + raw.get().len(),
        )
    }

    fn malformed(&self, message: impl Into<String>, raw: Option<&RawValue>) -> Problem {
        let span = raw.map_or(Span::new(self.chunk.offset, self.chunk.offset + 1), |r| {
            self.span(r)
        });
        let mut p = Problem::new(Code::MalformedSiteRecord, message, span);
        if let Some(r) = raw {
            p = p.with_token(r.get());
        }
        p
    }

    fn members(&self, raw: &'c RawValue, what: &str) -> Result<Members<'c>, Problem> {
        serde_json::from_str::<Members<'c>>(raw.get())
            .map_err(|_| self.malformed(format!("{what} must be a JSON object"), Some(raw)))
    }

    fn string(&self, raw: &RawValue, what: &str) -> Result<String, Problem> {
        serde_json::from_str::<String>(raw.get())
            .map_err(|_| self.malformed(format!("{what} must be a string"), Some(raw)))
    }

    fn tag(&self, tags: &mut Vec<Tag>, name: &str, value: String, raw: &RawValue) {
        let span = self.span(raw);
        tags.push(Tag {
            name: name.into(),
            value,
            span,
            value_span: span,
        });
    }

    /// A member that is a string as the tag `name`; of another type, kept
    /// as JSON among the unknown members.
    fn string_tag(
        &self,
        tags: &mut Vec<Tag>,
        extra: &mut Vec<(String, String)>,
        name: &str,
        key: &str,
        raw: Option<&RawValue>,
    ) {
        let Some(raw) = raw else { return };
        match serde_json::from_str::<String>(raw.get()) {
            Ok(s) => self.tag(tags, name, s, raw),
            Err(_) => extra.push((key.to_string(), minify(raw.get()))),
        }
    }

    /// A member that is `true` or `false` as the tag `name`; of another
    /// type, kept among the unknown members.
    fn bool_tag(
        &self,
        tags: &mut Vec<Tag>,
        extra: &mut Vec<(String, String)>,
        name: &str,
        key: &str,
        raw: Option<&RawValue>,
    ) {
        let Some(raw) = raw else { return };
        match raw.get() {
            v @ ("true" | "false") => self.tag(tags, name, v.to_string(), raw),
            other => extra.push((key.to_string(), minify(other))),
        }
    }
}

/// JSON text with the white space between its tokens removed.
pub fn minify(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !c.is_ascii_whitespace() {
            if c == '"' {
                in_string = true;
            }
            out.push(c);
        }
    }
    out
}

/// Unknown members, as one JSON object (in their order).
fn object(members: &[(String, String)]) -> String {
    let mut s = String::from("{");
    for (i, (k, v)) in members.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&serde_json::Value::from(k.as_str()).to_string());
        s.push(':');
        s.push_str(v);
    }
    s.push('}');
    s
}

/// The byte offset in `text` of serde_json's (line, column).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// Reads one record (a chunk from [`super::scan::Values`]).
pub fn read(chunk: &Chunk) -> Read {
    let text = match std::str::from_utf8(&chunk.bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = chunk.offset + e.valid_up_to();
            return Read::Broken(Problem::new(
                Code::InvalidUtf8,
                "an AbstractPlay record must be UTF-8 (JSON)",
                Span::new(at, at + 1),
            ));
        }
    };
    let r = Reader { chunk, text };
    let mut top = match serde_json::from_str::<Members<'_>>(text) {
        Ok(m) => m,
        Err(e) => {
            let at = chunk.offset + offset_of(text, e.line(), e.column());
            let what = if e.is_eof() {
                "the record is cut short"
            } else if text.trim_start().starts_with('{') {
                "not JSON"
            } else {
                "not a game record (a JSON object)"
            };
            return Read::Broken(Problem::new(
                Code::MalformedSiteRecord,
                format!("{what}: {e}"),
                Span::new(at, at + 1),
            ));
        }
    };
    let (Some(header), Some(moves)) = (top.take("header"), top.take("moves")) else {
        return Read::Broken(r.malformed(
            "not an AbstractPlay game record: it needs `header` and `moves`",
            None,
        ));
    };
    match header_and_moves(&r, header, moves, top) {
        Ok(read) => read,
        Err(p) => Read::Broken(p),
    }
}

fn header_and_moves<'c>(
    r: &Reader<'c>,
    header: &'c RawValue,
    moves: &'c RawValue,
    top: Members<'c>,
) -> Result<Read, Problem> {
    let mut h = r.members(header, "`header`")?;
    let game = h
        .take("game")
        .ok_or_else(|| r.malformed("the header has no `game`", Some(header)))?;
    let mut g = r.members(game, "`header.game`")?;
    let name_raw = g
        .take("name")
        .ok_or_else(|| r.malformed("`header.game` has no `name`", Some(game)))?;
    let name = r.string(name_raw, "`header.game.name`")?;
    let here = |s: &&'static dyn AnySite| matches!(s.format().files, SiteFiles::Records { name: n, .. } if n == name);
    let Some(site) = registry::sites().find(here) else {
        return Ok(Read::Other(name));
    };
    let rules = site.game();
    let sides = rules.sides();
    let mut tags = Vec::new();
    let mut extra: Vec<(String, String)> = Vec::new();
    r.tag(&mut tags, "Game", rules.name().to_string(), name_raw);
    for (n, v) in site.format().tags {
        r.tag(&mut tags, n, v.to_string(), name_raw);
    }
    let mut problem: Option<Problem> = None;
    let fail = |p: Problem, problem: &mut Option<Problem>| {
        if problem.as_ref().is_none_or(|q| p.span.start < q.span.start) {
            *problem = Some(p);
        }
    };
    if let Some(variants) = g.take("variants") {
        let list: Vec<String> = serde_json::from_str(variants.get()).map_err(|_| {
            r.malformed(
                "`header.game.variants` must be a list of strings",
                Some(variants),
            )
        })?;
        if !list.is_empty() {
            r.tag(&mut tags, "Variants", minify(variants.get()), variants);
            fail(
                Problem::new(
                    Code::UnsupportedRecord,
                    format!(
                        "variants {} of {name} are not supported: gamerec plays the game without them",
                        list.join(", ")
                    ),
                    r.span(variants),
                ),
                &mut problem,
            );
        }
    }
    if let Some((k, v)) = g.0.first() {
        return Err(r.malformed(format!("`header.game` has a member `{k}`"), Some(v)));
    }
    if let Some(site_raw) = h.take("site") {
        let mut s = r.members(site_raw, "`header.site`")?;
        r.string_tag(&mut tags, &mut extra, "Site", "site.name", s.take("name"));
        if let Some(id) = s.take("gameid") {
            match serde_json::from_str::<String>(id.get()) {
                Ok(text) => r.tag(&mut tags, "SiteGameId", text, id),
                Err(_) => {
                    r.tag(&mut tags, "SiteGameId", id.get().to_string(), id);
                    r.tag(&mut tags, "SiteGameIdType", "number".into(), id);
                }
            }
        }
        if let Some((k, v)) = s.0.first() {
            return Err(r.malformed(format!("`header.site` has a member `{k}`"), Some(v)));
        }
    }
    r.string_tag(&mut tags, &mut extra, "Event", "event", h.take("event"));
    r.string_tag(&mut tags, &mut extra, "Round", "round", h.take("round"));
    for (tag, key) in [
        ("DateStart", "date-start"),
        ("DateEnd", "date-end"),
        ("DateGenerated", "date-generated"),
    ] {
        r.string_tag(&mut tags, &mut extra, tag, key, h.take(key));
    }
    let players = h
        .take("players")
        .ok_or_else(|| r.malformed("the header has no `players`", Some(header)))?;
    let list: Vec<&RawValue> = serde_json::from_str(players.get())
        .map_err(|_| r.malformed("`header.players` must be a list", Some(players)))?;
    if list.len() != 2 {
        return Err(Problem::new(
            Code::UnsupportedRecord,
            format!(
                "a {}-player game: gamerec's {} is the two-player game",
                list.len(),
                rules.name()
            ),
            r.span(players),
        ));
    }
    let mut results: Vec<(Option<i64>, &RawValue)> = Vec::new();
    for (seat, player) in list.iter().enumerate() {
        let side = sides[seat];
        let mut p = r.members(player, "a player")?;
        let name = p.take("name").ok_or_else(|| {
            r.malformed(format!("player {} has no `name`", seat + 1), Some(player))
        })?;
        let value = r.string(name, "a player's `name`")?;
        r.tag(&mut tags, side, value, name);
        let mut own: Vec<(String, String)> = Vec::new();
        r.string_tag(
            &mut tags,
            &mut own,
            &format!("{side}UserId"),
            "userid",
            p.take("userid"),
        );
        r.bool_tag(
            &mut tags,
            &mut own,
            &format!("{side}AI"),
            "is_ai",
            p.take("is_ai"),
        );
        if let Some(score) = p.take("score") {
            r.tag(
                &mut tags,
                &format!("{side}Score"),
                minify(score.get()),
                score,
            );
        }
        let result = p.take("result").ok_or_else(|| {
            r.malformed(format!("player {} has no `result`", seat + 1), Some(player))
        })?;
        r.tag(
            &mut tags,
            &format!("{side}Result"),
            minify(result.get()),
            result,
        );
        let number = match result.get() {
            "null" => None,
            text => Some(text.parse::<i64>().map_err(|_| {
                r.malformed("a player's `result` must be a whole number", Some(result))
            })?),
        };
        results.push((number, result));
        own.extend(p.0.iter().map(|(k, v)| (k.to_string(), minify(v.get()))));
        if !own.is_empty() {
            r.tag(&mut tags, &format!("{side}Extra"), object(&own), player);
        }
    }
    r.bool_tag(
        &mut tags,
        &mut extra,
        "Unrated",
        "unrated",
        h.take("unrated"),
    );
    r.bool_tag(
        &mut tags,
        &mut extra,
        "PieInvoked",
        "pie-invoked",
        h.take("pie-invoked"),
    );
    r.string_tag(
        &mut tags,
        &mut extra,
        "StartingPosition",
        "startingPosition",
        h.take("startingPosition"),
    );
    r.bool_tag(&mut tags, &mut extra, "Pied", "pied", h.take("pied"));
    extra.extend(h.0.iter().map(|(k, v)| (k.to_string(), minify(v.get()))));
    if !extra.is_empty() {
        r.tag(&mut tags, "HeaderExtra", object(&extra), header);
    }
    let top_extra: Vec<(String, String)> = top
        .0
        .iter()
        .map(|(k, v)| (k.to_string(), minify(v.get())))
        .collect();
    if !top_extra.is_empty() {
        r.tag(&mut tags, "RecordExtra", object(&top_extra), header);
    }
    let mut record = Record {
        span: Span::new(r.chunk.offset, r.chunk.offset + r.chunk.bytes.len()),
        ..Record::default()
    };
    let ending = read_moves(r, moves, &mut record, &mut tags, &mut problem)?;
    // The result, from the players' results.
    let (a, b) = (results[0], results[1]);
    let result = match (a.0, b.0) {
        (Some(x), Some(y)) if x > y => (ResultToken::FirstWins, a.1),
        (Some(x), Some(y)) if x < y => (ResultToken::SecondWins, b.1),
        (Some(_), Some(_)) if ending.as_deref() == Some("abandoned") => (ResultToken::Unknown, a.1),
        (Some(_), Some(_)) => (ResultToken::Draw, a.1),
        _ => (ResultToken::Unknown, if a.0.is_none() { a.1 } else { b.1 }),
    };
    r.tag(&mut tags, "Result", result.0.as_str().to_string(), result.1);
    record.result = Some(ResultMark {
        result: result.0,
        span: r.span(result.1),
    });
    // A tag is one line (record-format.md): a value with a line break has
    // no place in one, and the record is refused, as the JSON reader does.
    if let Some(t) = tags.iter().find(|t| t.value.contains(['\n', '\r'])) {
        return Err(Problem::new(
            Code::MalformedSiteRecord,
            format!(
                "this value holds a line break, and tag {} cannot: a tag is one line",
                t.name
            ),
            t.value_span,
        ));
    }
    record.tags = tags;
    Ok(Read::Game(record, problem, site))
}

/// Reads `moves` into the record's turns; returns the ending string, if the
/// site ended the game.
fn read_moves<'c>(
    r: &Reader<'c>,
    moves: &'c RawValue,
    record: &mut Record,
    tags: &mut Vec<Tag>,
    problem: &mut Option<Problem>,
) -> Result<Option<String>, Problem> {
    let rounds: Vec<&RawValue> = serde_json::from_str(moves.get())
        .map_err(|_| r.malformed("`moves` must be a list of rounds", Some(moves)))?;
    let mut ending: Option<(String, usize, usize)> = None;
    let mut nulls = 0usize;
    let mut null_at: Option<(usize, usize, &RawValue)> = None;
    let stop = |p: Problem, problem: &mut Option<Problem>| {
        if problem.is_none() {
            *problem = Some(p);
        }
    };
    'rounds: for (i, round) in rounds.iter().enumerate() {
        let entries: Vec<&RawValue> = serde_json::from_str(round.get()).map_err(|_| {
            r.malformed(
                format!("round {} must be a list of moves", i + 1),
                Some(round),
            )
        })?;
        if entries.len() > 2 {
            return Err(r.malformed(
                format!(
                    "round {} has {} entries for two players",
                    i + 1,
                    entries.len()
                ),
                Some(round),
            ));
        }
        for (seat, entry) in entries.iter().enumerate() {
            let place = format!("round {}, seat {}", i + 1, seat + 1);
            if entry.get() == "null" {
                nulls += 1;
                null_at.get_or_insert((i, seat, entry));
                continue;
            }
            let (text, raw, extras) = if entry.get().starts_with('{') {
                let mut m = r.members(entry, "a move entry")?;
                let mv = m.take("move").ok_or_else(|| {
                    r.malformed(format!("{place}: a move entry has no `move`"), Some(entry))
                })?;
                let extras: Vec<(String, String)> =
                    m.0.iter()
                        .map(|(k, v)| (k.to_string(), minify(v.get())))
                        .collect();
                (r.string(mv, "`move`")?, mv, extras)
            } else {
                (r.string(entry, "a move")?, *entry, Vec::new())
            };
            if let Some((end, ei, es)) = &ending {
                stop(
                    Problem::new(
                        Code::MoveAfterEnd,
                        format!(
                            "{place}: `{text}` after the game ended by `{end}` (round {}, seat {})",
                            ei + 1,
                            es + 1
                        ),
                        r.span(raw),
                    )
                    .with_token(&text),
                    problem,
                );
                break 'rounds;
            }
            if let Some((ni, ns, nraw)) = null_at.take() {
                stop(
                    Problem::new(
                        Code::MalformedSiteRecord,
                        format!(
                            "round {}, seat {}: no move (null), but every turn of a two-player game is played",
                            ni + 1,
                            ns + 1
                        ),
                        r.span(nraw),
                    )
                    .with_token("null"),
                    problem,
                );
                break 'rounds;
            }
            let span = r.span(raw);
            if ENDINGS.contains(&text.as_str()) {
                let s = r.span(raw);
                tags.push(Tag {
                    name: "Termination".into(),
                    value: text.clone(),
                    span: s,
                    value_span: s,
                });
                if !extras.is_empty() {
                    r.tag(tags, "TerminationExtra", object(&extras), entry);
                }
                ending = Some((text, i, seat));
                continue;
            }
            let comments = if extras.is_empty() {
                Vec::new()
            } else {
                vec![Comment {
                    text: format!("{ENTRY_COMMENT}{}", object(&extras)),
                    span,
                }]
            };
            record.turns.push(Turn {
                number: None,
                text,
                span,
                comments,
            });
        }
    }
    if nulls > 0 && problem.is_none() {
        if let Some((_, _, raw)) = null_at {
            r.tag(tags, "TrailingNulls", nulls.to_string(), raw);
        }
    }
    Ok(ending.map(|e| e.0))
}

/// The time now as AbstractPlay writes dates (`2025-01-04T12:00:00.000Z`).
fn now_iso() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    iso(secs)
}

/// Seconds since 1970 as an ISO 8601 UTC date-time with milliseconds.
fn iso(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.000Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// `2026.03.08` (a record's `Date` tag, complete) as a date-time.
fn from_date_tag(date: &str) -> Option<String> {
    let mut parts = date.split('.');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    let ok = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    (ok(y, 4) && ok(m, 2) && ok(d, 2) && parts.next().is_none())
        .then(|| format!("{y}-{m}-{d}T00:00:00.000Z"))
}

/// JSON text as a value written as it is (minified), or as a JSON string
/// when it is not JSON.
fn value(text: &str) -> Box<RawValue> {
    if serde_json::from_str::<&RawValue>(text).is_ok() {
        if let Ok(raw) = RawValue::from_string(minify(text)) {
            return raw;
        }
    }
    raw(text)
}

/// Any value as JSON text.
fn raw(v: impl serde::Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(&v).expect("a JSON value")
}

/// A JSON object written with its members as listed: in order, a key
/// twice when listed twice (a record read may have it so, and is written
/// back as it was), each value as its JSON text.
#[derive(Default)]
struct Obj(Vec<(String, Box<RawValue>)>);

impl Obj {
    fn insert(&mut self, key: &str, v: impl serde::Serialize) {
        self.0.push((key.to_string(), raw(v)));
    }

    fn insert_json(&mut self, key: &str, v: Box<RawValue>) {
        self.0.push((key.to_string(), v));
    }

    /// Adds the members of a JSON object given as text (a tag's value),
    /// duplicates and all; `false` (and nothing added) when it is not one.
    fn extend_from(&mut self, text: &str) -> bool {
        let Ok(members) = serde_json::from_str::<Members<'_>>(text) else {
            return false;
        };
        for (k, v) in members.0 {
            self.insert_json(&k, value(v.get()));
        }
        true
    }
}

impl serde::Serialize for Obj {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Writes a game as an AbstractPlay record (the mapping of
/// notation/abstractplay-record.md, backwards), one JSON object on one
/// line. What a record cannot carry is counted in `left_out`: tags with no
/// place in a record, and comments.
pub struct RecordSink<'o> {
    out: &'o mut crate::convert::out::Rendered,
    name: &'static str,
    /// Settings tags the record implies (`SiteFiles::Records`).
    implied: &'static [&'static str],
    sides: [&'static str; 2],
    tags: Vec<(String, String)>,
    moves: Vec<Box<RawValue>>,
    /// Tags and comments the record cannot carry.
    pub left_out: [usize; 2],
}

impl<'o> RecordSink<'o> {
    /// A record of the site game called `name` there, which implies the
    /// settings tags `implied`.
    pub fn new(
        out: &'o mut crate::convert::out::Rendered,
        name: &'static str,
        implied: &'static [&'static str],
    ) -> Self {
        RecordSink {
            out,
            name,
            implied,
            sides: ["", ""],
            tags: Vec::new(),
            moves: Vec::new(),
            left_out: [0, 0],
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl crate::convert::GameSink for RecordSink<'_> {
    fn head(&mut self, head: &crate::convert::Head<'_>) {
        self.sides = head.sides;
        self.tags = head.owned_tags();
        self.left_out[1] += head.comments.len();
    }

    fn turn(&mut self, turn: crate::convert::TurnOut<'_>) {
        let text = turn
            .site
            .as_deref()
            .or(turn.written.as_deref())
            .unwrap_or(&turn.text)
            .to_string();
        let mut entry = None;
        for c in &turn.comments {
            match c.strip_prefix(ENTRY_COMMENT) {
                Some(json) if entry.is_none() && json.trim_start().starts_with('{') => {
                    let mut m = Obj::default();
                    m.insert("move", &text);
                    if m.extend_from(json) {
                        entry = Some(raw(&m));
                    } else {
                        self.left_out[1] += 1;
                    }
                }
                _ => self.left_out[1] += 1,
            }
        }
        self.moves.push(entry.unwrap_or_else(|| raw(&text)));
    }

    fn tail(&mut self, tail: &crate::convert::Tail<'_>) {
        use serde_json::Value;
        let [first, second] = self.sides;
        let mut entries = std::mem::take(&mut self.moves);
        let mut used: Vec<String> = vec!["Game".into(), "Result".into()];
        used.extend(self.implied.iter().map(|t| t.to_string()));
        let mut take = |name: &str| -> Option<String> {
            used.push(name.to_string());
            self.tag(name).map(str::to_string)
        };
        // Tags holding JSON objects that are not objects: left out.
        let mut unwritable = 0;
        let mut header = Obj::default();
        let mut game = Obj::default();
        game.insert("name", self.name);
        match take("Variants") {
            Some(v) => game.insert_json("variants", value(&v)),
            None => game.insert("variants", Vec::<String>::new()),
        }
        header.insert("game", &game);
        for (tag, key) in [("Event", "event"), ("Round", "round")] {
            if let Some(v) = take(tag) {
                header.insert(key, v);
            }
        }
        let mut site = Obj::default();
        site.insert(
            "name",
            take("Site").unwrap_or_else(|| "Abstract Play".into()),
        );
        let id = take("SiteGameId").unwrap_or_default();
        match take("SiteGameIdType").as_deref() {
            Some("number") => site.insert_json("gameid", value(&id)),
            _ => site.insert("gameid", id),
        }
        header.insert("site", &site);
        let date = take("Date").and_then(|d| from_date_tag(&d));
        for (tag, key) in [("DateStart", "date-start"), ("DateEnd", "date-end")] {
            let v = take(tag).or_else(|| date.clone()).unwrap_or_else(now_iso);
            header.insert(key, v);
        }
        let generated = take("DateGenerated").unwrap_or_else(now_iso);
        header.insert("date-generated", generated);
        // The players' results: as the record had them, else the result's.
        let termination = take("Termination");
        let result = tail
            .outcome
            .map(|o| o.result)
            .or(tail.result)
            .or_else(|| self.tag("Result").and_then(ResultToken::parse))
            .unwrap_or(ResultToken::Unknown);
        let due = match result {
            ResultToken::FirstWins => [Some(1), Some(0)],
            ResultToken::SecondWins => [Some(0), Some(1)],
            ResultToken::Draw => [Some(1), Some(1)],
            ResultToken::Unknown if termination.as_deref() == Some("abandoned") => {
                [Some(0), Some(0)]
            }
            ResultToken::Unknown => [None, None],
        };
        let mut players = Vec::new();
        for (seat, side) in [first, second].into_iter().enumerate() {
            let mut p = Obj::default();
            p.insert("name", take(side).unwrap_or_default());
            if let Some(v) = take(&format!("{side}UserId")) {
                p.insert("userid", v);
            }
            if let Some(v) = take(&format!("{side}AI")) {
                p.insert_json("is_ai", value(&v));
            }
            if let Some(v) = take(&format!("{side}Score")) {
                p.insert_json("score", value(&v));
            }
            match take(&format!("{side}Result")) {
                Some(v) => p.insert_json("result", value(&v)),
                None => p.insert("result", due[seat]),
            }
            if let Some(v) = take(&format!("{side}Extra")) {
                if !p.extend_from(&v) {
                    unwritable += 1;
                }
            }
            players.push(p);
        }
        header.insert("players", &players);
        for (tag, key) in [
            ("Unrated", "unrated"),
            ("PieInvoked", "pie-invoked"),
            ("StartingPosition", "startingPosition"),
            ("Pied", "pied"),
        ] {
            if let Some(v) = take(tag) {
                match key {
                    "startingPosition" => header.insert(key, v),
                    _ => header.insert_json(key, value(&v)),
                }
            }
        }
        if let Some(v) = take("HeaderExtra") {
            if !header.extend_from(&v) {
                unwritable += 1;
            }
        }
        // The moves, two to a round; the site's ending, trailing nulls.
        if let Some(end) = &termination {
            let mut e = Obj::default();
            e.insert("move", end);
            match take("TerminationExtra") {
                Some(extra) if e.extend_from(&extra) => entries.push(raw(&e)),
                Some(_) => {
                    unwritable += 1;
                    entries.push(raw(end));
                }
                None => entries.push(raw(end)),
            }
        }
        let nulls = take("TrailingNulls").and_then(|n| n.parse::<usize>().ok());
        entries.extend(std::iter::repeat_n(
            raw(Value::Null),
            nulls.unwrap_or(0).min(2),
        ));
        let rounds: Vec<&[Box<RawValue>]> = entries.chunks(2).collect();
        let mut record = Obj::default();
        record.insert("header", &header);
        record.insert("moves", &rounds);
        if let Some(v) = take("RecordExtra") {
            if !record.extend_from(&v) {
                unwritable += 1;
            }
        }
        self.left_out[0] += unwritable;
        self.left_out[0] += self.tags.iter().filter(|(n, _)| !used.contains(n)).count();
        let text = serde_json::to_string(&record).expect("a JSON value");
        self.out.push_str(&text);
    }
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

/// Reads AbstractPlay records, one by one as [`Values`] cuts them.
pub fn read_all<R: BufRead>(input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<Reading> {
    let mut values = Values::new(input);
    let mut reading = Reading::default();
    while let Some(scanned) = values.next_value()? {
        let flow = match scanned {
            Scanned::Value(chunk) if chunk.truncated => {
                let p = too_large(&chunk);
                broken(cx, &chunk, p, each)?
            }
            Scanned::Value(chunk) => match read(&chunk) {
                Read::Game(record, problem, site) => each(cx.visit(
                    Some(&chunk),
                    &mut RecordSource::new(&record, problem),
                    Ok(site.game()),
                )),
                Read::Other(name) => {
                    reading.skip(name);
                    continue;
                }
                Read::Broken(p) => broken(cx, &chunk, p, each),
            }?,
            Scanned::Cut(chunk, end) => {
                let p = Problem::new(
                    Code::MalformedSiteRecord,
                    "the file ends inside this record: it is cut short",
                    Span::new(end, end),
                );
                let mut shown = chunk;
                shown.bytes.truncate(MAX_RECORD_BYTES);
                broken(cx, &shown, p, each)?
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
                broken(cx, &chunk, p, each)?
            }
        };
        if flow.is_break() {
            reading.stopped = true;
            return Ok(reading);
        }
    }
    Ok(reading)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_the_site_writes_them() {
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(1_735_992_000), "2025-01-04T12:00:00.000Z");
        assert_eq!(iso(951_782_400 + 86_399), "2000-02-29T23:59:59.000Z");
        assert_eq!(
            from_date_tag("2026.03.08").as_deref(),
            Some("2026-03-08T00:00:00.000Z")
        );
        assert_eq!(from_date_tag("2026.??.08"), None);
    }

    #[test]
    fn minify_keeps_white_space_inside_strings() {
        assert_eq!(minify("{ \"a b\" : [1, 2] }"), "{\"a b\":[1,2]}");
        assert_eq!(minify("\"x\\\" y\""), "\"x\\\" y\"");
    }
}
