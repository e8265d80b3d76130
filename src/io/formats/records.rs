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

use super::scan::{Scanned, Values};
use super::visit::{broken, Cx, Each, Reading};
use super::{Format, FormatEntry, Peek, Sure};
use crate::base::problem::{Code, Problem};
use crate::envelope::record::{
    Chunk, Comment, Record, RecordSource, ResultMark, ResultToken, Span, Tag, Turn,
    MAX_RECORD_BYTES,
};
use crate::io::reading::too_large;
use crate::play::sink::out::Rendered;
use crate::registry::{self, AnyGame, AnySite};
use gamerec_rules::game::SiteFiles;
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
pub(crate) const LINE: FormatEntry = FormatEntry {
    name: NAME,
    read_help: TITLE,
    write_help: TITLE,
    detected_by: "first bytes `{\"header\"` or `[{\"header\"` (whatever the name)",
    formats: || site().map(Format::Records).into_iter().collect(),
    detect: |head: &Peek<'_>| {
        let site = site().filter(|_| looks_records(head.bytes))?;
        Some((Sure::Magic, Format::Records(site)))
    },
};

/// The `--from`/`--to` name.
pub const NAME: &str = "abstractplay-record";

/// What it is, for help texts.
pub const TITLE: &str = "AbstractPlay game records (JSON; several games: an array of them)";

/// The move strings that end a game other than on the board.
pub(crate) const ENDINGS: [&str; 4] = ["resign", "timeout", "draw", "abandoned"];

/// A turn comment that carries what a move entry held besides its move
/// (`sequence`, `result`): `{ap {"sequence":3}}`.
pub(crate) const ENTRY_COMMENT: &str = "ap ";

/// What one record is.
pub enum RecordKind {
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
            value: value.into(),
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
pub(crate) fn minify(json: &str) -> String {
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
pub fn read(chunk: &Chunk) -> RecordKind {
    let text = match std::str::from_utf8(&chunk.bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = chunk.offset + e.valid_up_to();
            return RecordKind::Broken(Problem::new(
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
            return RecordKind::Broken(Problem::new(
                Code::MalformedSiteRecord,
                format!("{what}: {e}"),
                Span::new(at, at + 1),
            ));
        }
    };
    let (Some(header), Some(moves)) = (top.take("header"), top.take("moves")) else {
        return RecordKind::Broken(r.malformed(
            "not an AbstractPlay game record: it needs `header` and `moves`",
            None,
        ));
    };
    match header_and_moves(&r, header, moves, top) {
        Ok(read) => read,
        Err(p) => RecordKind::Broken(p),
    }
}

/// Reads a record's header and moves: the game (a site game's, or
/// another's, skipped), the site, the event and dates, the players, the
/// rest of the header kept as a tag, then the moves and the result.
fn header_and_moves<'c>(
    r: &Reader<'c>,
    header: &'c RawValue,
    moves: &'c RawValue,
    top: Members<'c>,
) -> Result<RecordKind, Problem> {
    let mut h = r.members(header, "`header`")?;
    let mut tags = Vec::new();
    let mut problem: Option<Problem> = None;
    let site = match game_of(r, &mut h, header, &mut tags, &mut problem)? {
        Ok(site) => site,
        Err(other) => return Ok(RecordKind::Other(other)),
    };
    let mut extra: Vec<(String, String)> = Vec::new();
    if let Some(site_raw) = h.take("site") {
        site_tags(r, site_raw, &mut tags, &mut extra)?;
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
    let results = players(r, &mut h, header, site.game(), &mut tags)?;
    header_rest(r, h, header, top, &mut tags, extra);
    let mut record = Record {
        span: Span::new(r.chunk.offset, r.chunk.offset + r.chunk.bytes.len()),
        ..Record::default()
    };
    let ending = read_moves(r, moves, &mut record, &mut tags, &mut problem)?;
    let result = result_of(&results, ending.as_deref());
    r.tag(&mut tags, "Result", result.0.as_str().to_string(), result.1);
    record.result = Some(ResultMark {
        result: result.0,
        span: r.span(result.1),
    });
    one_line(&tags)?;
    record.tags = tags;
    Ok(RecordKind::Game(record, problem, site))
}

/// The header's `game`: the registered site game of that name, with its
/// tags (`Game`, the site's own) — or, `Err`, the name of another game.
/// Variants are kept as a tag and noted as unsupported (the earliest
/// problem is kept).
fn game_of<'c>(
    r: &Reader<'c>,
    h: &mut Members<'c>,
    header: &'c RawValue,
    tags: &mut Vec<Tag>,
    problem: &mut Option<Problem>,
) -> Result<Result<&'static dyn AnySite, String>, Problem> {
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
        return Ok(Err(name));
    };
    r.tag(tags, "Game", site.game().name().to_string(), name_raw);
    for (n, v) in site.format().tags {
        r.tag(tags, n, v.to_string(), name_raw);
    }
    if let Some(variants) = g.take("variants") {
        let list: Vec<String> = serde_json::from_str(variants.get()).map_err(|_| {
            r.malformed(
                "`header.game.variants` must be a list of strings",
                Some(variants),
            )
        })?;
        if !list.is_empty() {
            r.tag(tags, "Variants", minify(variants.get()), variants);
            let p = Problem::new(
                Code::UnsupportedRecord,
                format!(
                    "variants {} of {name} are not supported: gamerec plays the game without them",
                    list.join(", ")
                ),
                r.span(variants),
            );
            if problem.as_ref().is_none_or(|q| p.span.start < q.span.start) {
                *problem = Some(p);
            }
        }
    }
    if let Some((k, v)) = g.0.first() {
        return Err(r.malformed(format!("`header.game` has a member `{k}`"), Some(v)));
    }
    Ok(Ok(site))
}

/// The header's `site`: its name and game id (a number keeps its type in
/// a tag of its own).
fn site_tags<'c>(
    r: &Reader<'c>,
    site_raw: &'c RawValue,
    tags: &mut Vec<Tag>,
    extra: &mut Vec<(String, String)>,
) -> Result<(), Problem> {
    let mut s = r.members(site_raw, "`header.site`")?;
    r.string_tag(tags, extra, "Site", "site.name", s.take("name"));
    if let Some(id) = s.take("gameid") {
        match serde_json::from_str::<String>(id.get()) {
            Ok(text) => r.tag(tags, "SiteGameId", text, id),
            Err(_) => {
                r.tag(tags, "SiteGameId", id.get().to_string(), id);
                r.tag(tags, "SiteGameIdType", "number".into(), id);
            }
        }
    }
    match s.0.first() {
        Some((k, v)) => Err(r.malformed(format!("`header.site` has a member `{k}`"), Some(v))),
        None => Ok(()),
    }
}

/// The header's two `players`, each a side's tags (name, user id, AI,
/// score, result, what else it holds); their results, read as numbers.
fn players<'c>(
    r: &Reader<'c>,
    h: &mut Members<'c>,
    header: &'c RawValue,
    rules: &dyn AnyGame,
    tags: &mut Vec<Tag>,
) -> Result<Vec<(Option<i64>, &'c RawValue)>, Problem> {
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
    let sides = rules.sides();
    let mut results = Vec::new();
    for (seat, player) in list.iter().enumerate() {
        results.push(player_tags(r, seat, sides[seat], player, tags)?);
    }
    Ok(results)
}

/// One player's tags, as side `side`; its result.
fn player_tags<'c>(
    r: &Reader<'c>,
    seat: usize,
    side: &str,
    player: &'c RawValue,
    tags: &mut Vec<Tag>,
) -> Result<(Option<i64>, &'c RawValue), Problem> {
    let mut p = r.members(player, "a player")?;
    let name = p
        .take("name")
        .ok_or_else(|| r.malformed(format!("player {} has no `name`", seat + 1), Some(player)))?;
    let value = r.string(name, "a player's `name`")?;
    r.tag(tags, side, value, name);
    let mut own: Vec<(String, String)> = Vec::new();
    let userid = p.take("userid");
    r.string_tag(tags, &mut own, &format!("{side}UserId"), "userid", userid);
    r.bool_tag(
        tags,
        &mut own,
        &format!("{side}AI"),
        "is_ai",
        p.take("is_ai"),
    );
    if let Some(score) = p.take("score") {
        r.tag(tags, &format!("{side}Score"), minify(score.get()), score);
    }
    let result = p
        .take("result")
        .ok_or_else(|| r.malformed(format!("player {} has no `result`", seat + 1), Some(player)))?;
    r.tag(tags, &format!("{side}Result"), minify(result.get()), result);
    let number = match result.get() {
        "null" => None,
        text => Some(text.parse::<i64>().map_err(|_| {
            r.malformed("a player's `result` must be a whole number", Some(result))
        })?),
    };
    own.extend(p.0.iter().map(|(k, v)| (k.to_string(), minify(v.get()))));
    if !own.is_empty() {
        r.tag(tags, &format!("{side}Extra"), object(&own), player);
    }
    Ok((number, result))
}

/// The rest of the header — its flags and the starting position, then
/// every member not read, kept as `HeaderExtra` — and what else the record
/// holds (`RecordExtra`).
fn header_rest<'c>(
    r: &Reader<'c>,
    mut h: Members<'c>,
    header: &'c RawValue,
    top: Members<'c>,
    tags: &mut Vec<Tag>,
    mut extra: Vec<(String, String)>,
) {
    for (tag, key) in [("Unrated", "unrated"), ("PieInvoked", "pie-invoked")] {
        r.bool_tag(tags, &mut extra, tag, key, h.take(key));
    }
    let start = h.take("startingPosition");
    r.string_tag(
        tags,
        &mut extra,
        "StartingPosition",
        "startingPosition",
        start,
    );
    r.bool_tag(tags, &mut extra, "Pied", "pied", h.take("pied"));
    extra.extend(h.0.iter().map(|(k, v)| (k.to_string(), minify(v.get()))));
    if !extra.is_empty() {
        r.tag(tags, "HeaderExtra", object(&extra), header);
    }
    let top_extra: Vec<(String, String)> = top
        .0
        .iter()
        .map(|(k, v)| (k.to_string(), minify(v.get())))
        .collect();
    if !top_extra.is_empty() {
        r.tag(tags, "RecordExtra", object(&top_extra), header);
    }
}

/// The result, from the players' results (and the site's ending: an
/// abandoned game at equal results has none), with the value it is read
/// from.
fn result_of<'c>(
    results: &[(Option<i64>, &'c RawValue)],
    ending: Option<&str>,
) -> (ResultToken, &'c RawValue) {
    let (a, b) = (results[0], results[1]);
    match (a.0, b.0) {
        (Some(x), Some(y)) if x > y => (ResultToken::FirstWins, a.1),
        (Some(x), Some(y)) if x < y => (ResultToken::SecondWins, b.1),
        (Some(_), Some(_)) if ending == Some("abandoned") => (ResultToken::Unknown, a.1),
        (Some(_), Some(_)) => (ResultToken::Draw, a.1),
        _ => (ResultToken::Unknown, if a.0.is_none() { a.1 } else { b.1 }),
    }
}

/// A tag is one line (record-format.md): a value with a line break has no
/// place in one, and the record is refused, as the JSON reader does.
fn one_line(tags: &[Tag]) -> Result<(), Problem> {
    match tags.iter().find(|t| t.value.contains(['\n', '\r'])) {
        Some(t) => Err(Problem::new(
            Code::MalformedSiteRecord,
            format!(
                "this value holds a line break, and tag {} cannot: a tag is one line",
                t.name
            ),
            t.value_span,
        )),
        None => Ok(()),
    }
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
    let mut state = Moves::default();
    'rounds: for (i, round) in rounds.iter().enumerate() {
        for (seat, entry) in round_entries(r, i, round)?.into_iter().enumerate() {
            let place = format!("round {}, seat {}", i + 1, seat + 1);
            if entry.get() == "null" {
                state.nulls += 1;
                state.null_at.get_or_insert((i, seat, entry));
                continue;
            }
            let (text, raw, extras) = entry_move(r, entry, &place)?;
            if let Some(p) = state.stopped(r, &place, &text, raw) {
                if problem.is_none() {
                    *problem = Some(p);
                }
                break 'rounds;
            }
            let span = r.span(raw);
            if ENDINGS.contains(&text.as_str()) {
                tags.push(Tag {
                    name: "Termination".into(),
                    value: text.as_str().into(),
                    span,
                    value_span: span,
                });
                if !extras.is_empty() {
                    r.tag(tags, "TerminationExtra", object(&extras), entry);
                }
                state.ending = Some((text, i, seat));
                continue;
            }
            let comments = match extras.is_empty() {
                true => Vec::new(),
                false => vec![Comment {
                    text: format!("{ENTRY_COMMENT}{}", object(&extras)),
                    span,
                }],
            };
            record.turns.push(Turn {
                number: None,
                text,
                span,
                comments,
                glyphs: Default::default(),
            });
        }
    }
    if state.nulls > 0 && problem.is_none() {
        if let Some((_, _, raw)) = state.null_at {
            r.tag(tags, "TrailingNulls", state.nulls.to_string(), raw);
        }
    }
    Ok(state.ending.map(|e| e.0))
}

/// Where reading the moves stands: the site's ending (its string, round
/// and seat), the nulls met and the first of them.
#[derive(Default)]
struct Moves<'c> {
    ending: Option<(String, usize, usize)>,
    nulls: usize,
    null_at: Option<(usize, usize, &'c RawValue)>,
}

impl<'c> Moves<'c> {
    /// Why a move `text` (at `raw`) cannot be read where it stands: after
    /// the site ended the game, or after a null (a turn not played).
    fn stopped(
        &mut self,
        r: &Reader<'c>,
        place: &str,
        text: &str,
        raw: &RawValue,
    ) -> Option<Problem> {
        if let Some((end, ei, es)) = &self.ending {
            let message = format!(
                "{place}: `{text}` after the game ended by `{end}` (round {}, seat {})",
                ei + 1,
                es + 1
            );
            return Some(Problem::new(Code::MoveAfterEnd, message, r.span(raw)).with_token(text));
        }
        let (ni, ns, nraw) = self.null_at.take()?;
        let message = format!(
            "round {}, seat {}: no move (null), but every turn of a two-player game is played",
            ni + 1,
            ns + 1
        );
        Some(Problem::new(Code::MalformedSiteRecord, message, r.span(nraw)).with_token("null"))
    }
}

/// Round `i`'s entries, at most one per player.
fn round_entries<'c>(
    r: &Reader<'c>,
    i: usize,
    round: &'c RawValue,
) -> Result<Vec<&'c RawValue>, Problem> {
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
    Ok(entries)
}

/// A move entry read: the move's text, where it stands, the entry's other
/// members.
type Entry<'c> = (String, &'c RawValue, Vec<(String, String)>);

/// A move entry: a string, or an object with its `move` and what else it
/// holds; the move's text, where it stands, the other members.
fn entry_move<'c>(r: &Reader<'c>, entry: &'c RawValue, place: &str) -> Result<Entry<'c>, Problem> {
    if !entry.get().starts_with('{') {
        return Ok((r.string(entry, "a move")?, entry, Vec::new()));
    }
    let mut m = r.members(entry, "a move entry")?;
    let mv = m
        .take("move")
        .ok_or_else(|| r.malformed(format!("{place}: a move entry has no `move`"), Some(entry)))?;
    let extras: Vec<(String, String)> =
        m.0.iter()
            .map(|(k, v)| (k.to_string(), minify(v.get())))
            .collect();
    Ok((r.string(mv, "`move`")?, mv, extras))
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

/// A game's tags as a record is written from them: each tag taken is
/// noted as used (the rest are counted as left out), and tags holding JSON
/// objects that are not objects are counted as unwritable.
struct Taken<'t> {
    tags: &'t [(String, String)],
    used: Vec<String>,
    unwritable: usize,
}

impl<'t> Taken<'t> {
    fn new(tags: &'t [(String, String)], implied: &[&str]) -> Self {
        let mut used: Vec<String> = vec!["Game".into(), "Result".into()];
        used.extend(implied.iter().map(|t| t.to_string()));
        Taken {
            tags,
            used,
            unwritable: 0,
        }
    }

    /// The value of tag `name`, noted as used.
    fn take(&mut self, name: &str) -> Option<String> {
        self.used.push(name.to_string());
        let found = self.tags.iter().find(|(n, _)| n == name);
        found.map(|(_, v)| v.clone())
    }

    /// `object` with the members of the JSON object tag `name` holds.
    fn extend(&mut self, object: &mut Obj, name: &str) {
        if let Some(v) = self.take(name) {
            if !object.extend_from(&v) {
                self.unwritable += 1;
            }
        }
    }
}

/// The header's `game` (its name, its variants), event and round, `site`
/// (name and game id) and dates (the `Date` tag's, else now).
fn game_and_site(taken: &mut Taken<'_>, name: &str, header: &mut Obj) {
    let mut game = Obj::default();
    game.insert("name", name);
    match taken.take("Variants") {
        Some(v) => game.insert_json("variants", value(&v)),
        None => game.insert("variants", Vec::<String>::new()),
    }
    header.insert("game", &game);
    for (tag, key) in [("Event", "event"), ("Round", "round")] {
        if let Some(v) = taken.take(tag) {
            header.insert(key, v);
        }
    }
    let mut site = Obj::default();
    let site_name = taken.take("Site");
    site.insert("name", site_name.unwrap_or_else(|| "Abstract Play".into()));
    let id = taken.take("SiteGameId").unwrap_or_default();
    match taken.take("SiteGameIdType").as_deref() {
        Some("number") => site.insert_json("gameid", value(&id)),
        _ => site.insert("gameid", id),
    }
    header.insert("site", &site);
    let date = taken.take("Date").and_then(|d| from_date_tag(&d));
    for (tag, key) in [("DateStart", "date-start"), ("DateEnd", "date-end")] {
        let v = taken
            .take(tag)
            .or_else(|| date.clone())
            .unwrap_or_else(now_iso);
        header.insert(key, v);
    }
    let generated = taken.take("DateGenerated").unwrap_or_else(now_iso);
    header.insert("date-generated", generated);
}

/// The players' results the game's result gives (for a record that does
/// not have its own): an abandoned game's are 0 and 0.
fn due_results(
    sink: &RecordSink<'_>,
    tail: &crate::play::sink::Tail<'_>,
    termination: Option<&str>,
) -> [Option<u8>; 2] {
    let result = tail
        .outcome
        .map(|o| o.result)
        .or(tail.result)
        .or_else(|| sink.tag("Result").and_then(ResultToken::parse))
        .unwrap_or(ResultToken::Unknown);
    match result {
        ResultToken::FirstWins => [Some(1), Some(0)],
        ResultToken::SecondWins => [Some(0), Some(1)],
        ResultToken::Draw => [Some(1), Some(1)],
        ResultToken::Unknown if termination == Some("abandoned") => [Some(0), Some(0)],
        ResultToken::Unknown => [None, None],
    }
}

/// One player of side `side`: name, user id, AI, score, result (as the
/// record had it, else `due`), what else it held.
fn player_object(taken: &mut Taken<'_>, side: &str, due: Option<u8>) -> Obj {
    let mut p = Obj::default();
    p.insert("name", taken.take(side).unwrap_or_default());
    if let Some(v) = taken.take(&format!("{side}UserId")) {
        p.insert("userid", v);
    }
    for (tag, key) in [("AI", "is_ai"), ("Score", "score")] {
        if let Some(v) = taken.take(&format!("{side}{tag}")) {
            p.insert_json(key, value(&v));
        }
    }
    match taken.take(&format!("{side}Result")) {
        Some(v) => p.insert_json("result", value(&v)),
        None => p.insert("result", due),
    }
    taken.extend(&mut p, &format!("{side}Extra"));
    p
}

/// The header's flags, starting position, and what else it held.
fn header_flags(taken: &mut Taken<'_>, header: &mut Obj) {
    for (tag, key) in [
        ("Unrated", "unrated"),
        ("PieInvoked", "pie-invoked"),
        ("StartingPosition", "startingPosition"),
        ("Pied", "pied"),
    ] {
        if let Some(v) = taken.take(tag) {
            match key {
                "startingPosition" => header.insert(key, v),
                _ => header.insert_json(key, value(&v)),
            }
        }
    }
    taken.extend(header, "HeaderExtra");
}

/// After the moves: the site's ending (with what else its entry held), and
/// the trailing nulls the record had (two at most).
fn ending_entries(
    taken: &mut Taken<'_>,
    termination: Option<String>,
    entries: &mut Vec<Box<RawValue>>,
) {
    if let Some(end) = &termination {
        let mut e = Obj::default();
        e.insert("move", end);
        match taken.take("TerminationExtra") {
            Some(extra) if e.extend_from(&extra) => entries.push(raw(&e)),
            Some(_) => {
                taken.unwritable += 1;
                entries.push(raw(end));
            }
            None => entries.push(raw(end)),
        }
    }
    let nulls = taken
        .take("TrailingNulls")
        .and_then(|n| n.parse::<usize>().ok());
    entries.extend(std::iter::repeat_n(
        raw(serde_json::Value::Null),
        nulls.unwrap_or(0).min(2),
    ));
}

/// Writes a game as an AbstractPlay record (the mapping of
/// notation/abstractplay-record.md, backwards), one JSON object on one
/// line. What a record cannot carry is counted in `left_out`: tags with no
/// place in a record, and comments.
pub struct RecordSink<'o> {
    out: &'o mut crate::play::sink::out::Rendered,
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
        out: &'o mut crate::play::sink::out::Rendered,
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

impl crate::play::sink::GameSink for RecordSink<'_> {
    fn head(&mut self, head: &crate::play::sink::Head<'_>) {
        self.sides = head.sides;
        self.tags = head.owned_tags();
        self.left_out[1] += head.comments.len();
    }

    fn turn(&mut self, turn: crate::play::sink::TurnOut<'_>) {
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

    fn tail(&mut self, tail: &crate::play::sink::Tail<'_>) {
        let mut entries = std::mem::take(&mut self.moves);
        let mut taken = Taken::new(&self.tags, self.implied);
        let mut header = Obj::default();
        game_and_site(&mut taken, self.name, &mut header);
        let termination = taken.take("Termination");
        let due = due_results(self, tail, termination.as_deref());
        let players: Vec<Obj> = (self.sides.into_iter().zip(due))
            .map(|(side, due)| player_object(&mut taken, side, due))
            .collect();
        header.insert("players", &players);
        header_flags(&mut taken, &mut header);
        // The moves, two to a round; the site's ending, trailing nulls.
        ending_entries(&mut taken, termination, &mut entries);
        let rounds: Vec<&[Box<RawValue>]> = entries.chunks(2).collect();
        let mut record = Obj::default();
        record.insert("header", &header);
        record.insert("moves", &rounds);
        taken.extend(&mut record, "RecordExtra");
        self.left_out[0] += taken.unwritable;
        self.left_out[0] += (self.tags.iter())
            .filter(|(n, _)| !taken.used.contains(n))
            .count();
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
pub(crate) fn read_all<R: BufRead>(
    input: R,
    cx: Cx<'_>,
    each: &mut Each<'_>,
) -> io::Result<Reading> {
    let mut values = Values::new(input);
    let mut reading = Reading::default();
    while let Some(scanned) = values.next_value()? {
        let flow = match scanned {
            Scanned::Value(chunk) if chunk.truncated => {
                let p = too_large(&chunk);
                broken(cx, &chunk, p, each)?
            }
            Scanned::Value(chunk) => match read(&chunk) {
                RecordKind::Game(record, problem, site) => each(cx.visit(
                    Some(&chunk),
                    &mut RecordSource::new(&record, problem),
                    Ok(site.game()),
                )),
                RecordKind::Other(name) => {
                    reading.skip(name);
                    continue;
                }
                RecordKind::Broken(p) => broken(cx, &chunk, p, each),
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
