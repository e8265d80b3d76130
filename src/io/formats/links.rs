//! The Garden Gate's game links: `https://skudpaisho.com/?` and an
//! LZ-String (URI-safe) compressed query string
//! `gameType=2&host=…&guest=…&game=<moves joined by ;>&gameOptions=[…]`.
//! Read as the site reads them (split at `&`, each pair at its first `=`,
//! the value URL-decoded) and written as the site writes them. Which game
//! a `gameType` is, the games say ([`SiteFiles::Links`]). Detected by a
//! first word that is such a link; read one link per line (blank lines
//! skipped).

mod lzstring;

use super::visit::{broken, placed, read_line_capped, Cx, Each, Reading};
use super::{Format, FormatEntry, Peek, Sure};
use crate::base::problem::{Code, Problem};
use crate::envelope::record::Span;
use crate::envelope::record::{each_game, Chunk, Record, RecordSource, StreamTurns};
use crate::io::reading::too_large;
use crate::registry::{self, AnyGame, AnySite};
use gamerec_rules::game::SiteFiles;
use lzstring::Unpacked;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// The `--from`/`--to` name.
pub const NAME: &str = "gardengate-link";

/// What it is, for help texts.
pub const TITLE: &str = "The Garden Gate's game links, one per line";

/// Where a written link points.
pub(crate) const SITE_URL: &str = "https://skudpaisho.com/";

/// What one link is.
#[derive(Debug)]
pub enum Link {
    /// A game of a registered site game: its tags (name, value), its moves
    /// joined by `;` as the link holds them, and the site.
    Game {
        tags: Vec<(String, String)>,
        moves: String,
        site: &'static dyn AnySite,
    },
    /// A game of another `gameType`.
    Other(String),
    /// Not a link that can be read: why.
    Broken(Problem),
}

/// The game whose links The Garden Gate writes, among the registered site
/// notations.
fn site() -> Option<&'static dyn AnySite> {
    registry::sites().find(|s| matches!(s.format().files, SiteFiles::Links { .. }))
}

/// The links' line in the table of formats.
pub(crate) const LINE: FormatEntry = FormatEntry {
    name: NAME,
    read_help: TITLE,
    write_help: TITLE,
    detected_by: "a first word that is a game link (a URL or `?` and its data)",
    formats: || site().map(Format::Links).into_iter().collect(),
    detect: |head: &Peek<'_>| {
        let site = site().filter(|_| looks_like(head.token))?;
        Some((Sure::Token, Format::Links(site)))
    },
};

impl std::fmt::Debug for dyn AnySite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.format().name)
    }
}

/// The most UTF-16 units a link's data may decompress to: 1 Mi, far more
/// than any game needs (a long game's link holds a few thousand). LZ-String
/// can make K²/2 characters of K codes; decoding stops here instead.
pub(crate) const MAX_LINK_UNITS: usize = 1 << 20;

/// Whether `token` (an input's first word) is a Garden Gate link: a URL
/// with a query, or `?` and a payload that decompresses to one (or would
/// decompress past [`MAX_LINK_UNITS`]: reading it says so).
pub(crate) fn looks_like(token: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(token) else {
        return false;
    };
    match text.split_once('?') {
        Some((before, payload)) if before.is_empty() || before.contains("://") => {
            !matches!(query(payload), Query::None)
        }
        _ => false,
    }
}

/// What a link's payload holds.
enum Query {
    /// The query string.
    Text(String),
    /// LZ-String data that decompresses past [`MAX_LINK_UNITS`].
    TooLarge,
    /// Neither compressed nor plain query text.
    None,
}

/// The query string a link's payload holds: decompressed, or (as the site
/// allows with `appType=`) given plain.
fn query(payload: &str) -> Query {
    let payload = payload.trim();
    if payload.is_empty() {
        return Query::None;
    }
    // A URL layer may have turned `+` into a space.
    let payload = payload.replace(' ', "+");
    match lzstring::decompress_uri(&payload, MAX_LINK_UNITS) {
        Unpacked::Done(units) => {
            if let Ok(text) = String::from_utf16(&units) {
                if text.contains('=') {
                    return Query::Text(text);
                }
            }
        }
        Unpacked::TooLarge => return Query::TooLarge,
        Unpacked::Broken => {}
    }
    match payload.contains('=') {
        true => Query::Text(payload),
        false => Query::None,
    }
}

/// A payload's query string, or why there is none: too large to decode,
/// or not a game link.
fn query_text(payload: &str) -> Result<String, (Code, String)> {
    match query(payload) {
        Query::Text(query) => Ok(query),
        Query::TooLarge => Err((
            Code::RecordTooLarge,
            format!(
                "a Garden Gate link whose data decompresses to more than {} Mi \
                 characters (no game is that long); decoding stopped there",
                MAX_LINK_UNITS >> 20
            ),
        )),
        Query::None => Err((
            Code::MalformedSiteRecord,
            "not a Garden Gate game link: its data does not decompress to a game".into(),
        )),
    }
}

/// `%XX` sequences as UTF-8 (as JavaScript's `decodeURIComponent`); a
/// value that does not decode is kept as it is.
fn url_decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) => {
                    out.push(b);
                    i += 3;
                    continue;
                }
                None => return value.to_string(),
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| value.to_string())
}

/// Reads one link (`text`, standing at `span` in the input).
pub fn read(text: &str, span: Span) -> Link {
    let broken = |code, message: String| Link::Broken(Problem::new(code, message, span));
    let text = text.trim();
    let payload = match text.split_once('?') {
        Some((_, p)) => p,
        None => text,
    };
    let payload = payload.split('#').next().unwrap_or_default();
    let pairs = match query_text(payload) {
        Ok(query) => pairs_of(&query),
        Err((code, message)) => return broken(code, message),
    };
    let get = |k: &str| {
        pairs
            .iter()
            .find(|(n, _, _)| n == k)
            .map(|(_, v, _)| v.as_str())
    };
    if let Some(what) = offline(&get) {
        return broken(Code::OfflineLink, what.into());
    }
    let game_type = get("gameType").unwrap_or("1");
    let site = game_type.parse::<u32>().ok().and_then(|n| {
        registry::sites().find(
            |s| matches!(s.format().files, SiteFiles::Links { game_type, .. } if game_type == n),
        )
    });
    let Some(site) = site else {
        return Link::Other(format!("gameType {game_type}"));
    };
    let SiteFiles::Links {
        options: options_tag,
        ..
    } = site.format().files
    else {
        return Link::Other(format!("gameType {game_type}"));
    };
    let Some(moves) = get("game") else {
        return broken(
            Code::MalformedSiteRecord,
            "a Garden Gate link with no game in it (no `game=`)".into(),
        );
    };
    let tags = link_tags(&pairs, site, options_tag);
    // A tag is one line (record-format.md).
    if let Some((name, _)) = tags.iter().find(|(_, v)| v.contains(['\n', '\r'])) {
        return broken(
            Code::MalformedSiteRecord,
            format!("the link's {name} holds a line break, and a tag cannot: a tag is one line"),
        );
    }
    Link::Game {
        tags,
        moves: moves.to_string(),
        site,
    }
}

/// A query's pairs: each its key, its value URL-decoded, and the pair as
/// written (empty pairs skipped; the site also splits at `&amp;`).
fn pairs_of(query: &str) -> Vec<(String, String, String)> {
    let mut pairs = Vec::new();
    for pair in query.split('&') {
        let pair = pair.strip_prefix("amp;").unwrap_or(pair);
        if pair.is_empty() {
            continue;
        }
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        pairs.push((k.to_string(), url_decode(v), pair.to_string()));
    }
    pairs
}

/// Why a link holds no moves, when it is one of the site's links to a
/// game elsewhere (shortened, spectating).
fn offline<'a>(get: &impl Fn(&str) -> Option<&'a str>) -> Option<&'static str> {
    if get("tu").is_some() {
        return Some(
            "a shortened link: it holds no moves; open it in a browser and copy the full game \
             link (\"Get game link\")",
        );
    }
    get("wg").map(|_| {
        "a spectate link: it names a game on the site and holds no moves; open it in a \
         browser and copy the full game link (\"Get game link\")"
    })
}

/// A game link's tags: `Game`, the players, the options (in the site
/// game's `options_tag`), and what has no tag of its own (another key, a
/// second `host`, options that would not come back the same) kept as
/// written, in order, in `LinkExtra`, written back so. Tags in one order
/// whatever the pairs' order, as a link is written.
fn link_tags(
    pairs: &[(String, String, String)],
    site: &'static dyn AnySite,
    options_tag: &str,
) -> Vec<(String, String)> {
    let sides = site.game().sides();
    let mut tags = vec![("Game".to_string(), site.game().name().to_string())];
    let mut extra = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let (mut host, mut guest, mut options) = (None, None, None);
    for (k, v, raw) in pairs {
        let first = !seen.contains(&k.as_str());
        seen.push(k);
        match k.as_str() {
            "gameType" | "game" if first => {}
            "host" if first => host = Some(v.clone()),
            "guest" if first => guest = Some(v.clone()),
            "gameOptions" if first => match serde_json::from_str::<Vec<String>>(v) {
                Ok(list) if list.is_empty() => {}
                Ok(list)
                    if list
                        .iter()
                        .all(|o| !o.is_empty() && o.trim() == o && !o.contains(',')) =>
                {
                    options = Some(list.join(","))
                }
                _ => extra.push(raw.as_str()),
            },
            _ => extra.push(raw.as_str()),
        }
    }
    let named = [(sides[0], host), (sides[1], guest), (options_tag, options)];
    for (name, value) in named {
        if let Some(value) = value {
            tags.push((name.to_string(), value));
        }
    }
    if !extra.is_empty() {
        tags.push(("LinkExtra".into(), extra.join("&")));
    }
    tags
}

/// What a link says of a game besides its turns.
#[derive(Default)]
pub struct LinkHead<'a> {
    pub host: Option<&'a str>,
    pub guest: Option<&'a str>,
    /// Comma-separated, as the `Options` tag.
    pub options: &'a str,
    /// Pairs kept as written (`LinkExtra`), `&`-joined.
    pub extra: &'a str,
}

/// The site's long link for a game: its `gameType`, the side tags (a side
/// with no tag has no pair), its turns in the site's notation joined by
/// `;`, its options and the pairs kept from a link read.
pub fn write(game_type: u32, head: &LinkHead<'_>, turns: &[&str]) -> String {
    let mut q = format!("gameType={game_type}");
    for (key, name) in [("host", head.host), ("guest", head.guest)] {
        if let Some(name) = name {
            q.push_str(&format!("&{key}={}", encode_name(name)));
        }
    }
    q.push_str("&game=");
    q.push_str(&turns.join(";"));
    let options: Vec<&str> = head
        .options
        .split(',')
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .collect();
    if !options.is_empty() {
        q.push_str("&gameOptions=");
        q.push_str(&serde_json::to_string(&options).expect("strings"));
    }
    if !head.extra.is_empty() {
        q.push('&');
        q.push_str(head.extra);
    }
    format!(
        "{SITE_URL}?{}",
        lz_str::compress_to_encoded_uri_component(q.as_str())
    )
}

/// A name as a link's value: as the site writes it (plain), except that
/// `&` is `%26` (plain, it would end the pair) and, where the name would
/// not URL-decode to itself, `%` is `%25` — so that it reads back as it is.
fn encode_name(name: &str) -> String {
    let value = name.replace('&', "%26");
    if url_decode(&value) == name {
        value
    } else {
        name.replace('%', "%25").replace('&', "%26")
    }
}

/// Writes a game as the site's long link, one per line.
pub struct LinkSink<'o> {
    out: &'o mut crate::play::sink::out::Rendered,
    game_type: u32,
    /// The settings tag the link's `gameOptions` are.
    options: &'static str,
    sides: [&'static str; 2],
    tags: Vec<(String, String)>,
    turns: Vec<String>,
    /// Tags and comments a link cannot carry.
    pub left_out: [usize; 2],
}

impl<'o> LinkSink<'o> {
    pub fn new(
        out: &'o mut crate::play::sink::out::Rendered,
        game_type: u32,
        options: &'static str,
    ) -> Self {
        LinkSink {
            out,
            game_type,
            options,
            sides: ["", ""],
            tags: Vec::new(),
            turns: Vec::new(),
            left_out: [0, 0],
        }
    }
}

impl crate::play::sink::GameSink for LinkSink<'_> {
    fn head(&mut self, head: &crate::play::sink::Head<'_>) {
        self.sides = head.sides;
        self.tags = head.owned_tags();
        self.left_out[1] += head.comments.len();
    }

    fn turn(&mut self, turn: crate::play::sink::TurnOut<'_>) {
        self.left_out[1] += turn.comments.len();
        let text = turn
            .site
            .or(turn.written)
            .unwrap_or_else(|| turn.text.into_owned());
        self.turns.push(text);
    }

    fn tail(&mut self, _: &crate::play::sink::Tail<'_>) {
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let carried = [
            "Game",
            self.options,
            "Result",
            "LinkExtra",
            self.sides[0],
            self.sides[1],
        ];
        self.left_out[0] += self
            .tags
            .iter()
            .filter(|(n, _)| !carried.contains(&n.as_str()))
            .count();
        let turns: Vec<&str> = self.turns.iter().map(String::as_str).collect();
        let head = LinkHead {
            host: tag(self.sides[0]),
            guest: tag(self.sides[1]),
            options: tag(self.options).unwrap_or_default(),
            extra: tag("LinkExtra").unwrap_or_default(),
        };
        let link = write(self.game_type, &head, &turns);
        self.out.push_str(&link);
        self.out.push('\n');
    }
}

/// Reads Garden Gate links, one per line (blank lines skipped).
pub(crate) fn read_all<R: BufRead>(
    mut input: R,
    cx: Cx<'_>,
    each: &mut Each<'_>,
) -> io::Result<Reading> {
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
            broken(cx, &chunk, p, each)?
        } else {
            match self::read(trimmed, at) {
                Link::Other(what) => {
                    reading.skip(what);
                    continue;
                }
                Link::Broken(p) => {
                    chunk.bytes = trimmed.as_bytes().to_vec();
                    broken(cx, &chunk, p, each)?
                }
                Link::Game { tags, moves, site } => {
                    // The moves, decoded, stand in for the link: a problem
                    // in them is shown there (its column counts in them).
                    chunk.bytes = moves.into_bytes();
                    game_from_site(cx, &chunk, site.game(), tags, at, each)?
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
    cx: Cx<'_>,
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
        flow = each(cx.visit(Some(chunk), &mut StreamTurns::new(game), Ok(rules)));
    });
    if let Some(tags) = tags {
        // No moves at all: the game is its tags.
        let record = Record {
            tags: placed(tags, at),
            span: at,
            ..Record::default()
        };
        return each(cx.visit(
            Some(chunk),
            &mut RecordSource::new(&record, None),
            Ok(rules),
        ));
    }
    flow
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_link_reads_back_with_its_tags_and_moves() {
        let head = LinkHead {
            host: Some("Ana"),
            guest: Some("Ben"),
            options: "DoubleTiles",
            extra: "",
        };
        let link = write(2, &head, &["0H.L(0,-6)", "0G.L(0,6)"]);
        assert!(link.starts_with("https://skudpaisho.com/?"));
        let Link::Game { tags, moves, .. } = read(&link, Span::default()) else {
            panic!("a game")
        };
        assert_eq!(moves, "0H.L(0,-6);0G.L(0,6)");
        assert_eq!(
            tags,
            [
                ("Game".to_string(), "vagabond".to_string()),
                ("Host".into(), "Ana".into()),
                ("Guest".into(), "Ben".into()),
                ("Options".into(), "DoubleTiles".into())
            ]
        );
    }

    #[test]
    fn shortened_and_spectate_links_say_what_they_are() {
        for (q, word) in [("tu=abc123", "shortened"), ("wg=4711", "spectate")] {
            let link = format!("?{}", lz_str::compress_to_encoded_uri_component(q));
            match read(&link, Span::default()) {
                Link::Broken(p) => {
                    assert_eq!(p.code, Code::OfflineLink);
                    assert!(p.message.contains(word), "{}", p.message);
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn another_game_type_is_named() {
        let link = format!(
            "?{}",
            lz_str::compress_to_encoded_uri_component("gameType=7&game=1H.a")
        );
        assert!(matches!(read(&link, Span::default()), Link::Other(t) if t == "gameType 7"));
        // No gameType: the site's first game (Skud Pai Sho).
        let link = format!(
            "?{}",
            lz_str::compress_to_encoded_uri_component("game=1H.a")
        );
        assert!(matches!(read(&link, Span::default()), Link::Other(t) if t == "gameType 1"));
    }

    #[test]
    fn a_plus_turned_into_a_space_is_mended_and_garbage_is_an_error() {
        let head = LinkHead {
            host: Some("A+B"),
            guest: Some("C"),
            ..LinkHead::default()
        };
        let link = write(2, &head, &["0H.L(0,-6)"]);
        let spaced = link.replace('+', " ");
        assert!(matches!(read(&spaced, Span::default()), Link::Game { .. }));
        assert!(matches!(
            read("https://skudpaisho.com/?%%%%", Span::default()),
            Link::Broken(p) if p.code == Code::MalformedSiteRecord
        ));
        assert!(looks_like(link.as_bytes()));
        assert!(!looks_like(b"0H.L(0,-6)"));
    }

    fn tags_of(link: &str) -> Vec<(String, String)> {
        match read(link, Span::default()) {
            Link::Game { tags, .. } => tags,
            other => panic!("{other:?}"),
        }
    }

    /// Found by fuzzing (`site`): a link with a pair of its own (and no
    /// `host`) lost that pair and gained an empty `Host` when written back.
    #[test]
    fn pairs_without_a_tag_and_missing_sides_come_back_as_they_were() {
        let q = "gameType=2&h%C3%AFst=Ben&guest=Chl%C3%A9&game=0H.W(2,2)&x&gameOptions=[\" A\"]&host=a&host=b";
        let link = format!("?{}", lz_str::compress_to_encoded_uri_component(q));
        let tags = tags_of(&link);
        let get = |n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
        assert_eq!(get("Host"), Some("a"));
        assert_eq!(get("Guest"), Some("Chlé"));
        assert_eq!(get("Options"), None);
        assert_eq!(
            get("LinkExtra"),
            Some("h%C3%AFst=Ben&x&gameOptions=[\" A\"]&host=b")
        );
        let head = LinkHead {
            host: get("Host"),
            guest: get("Guest"),
            options: "",
            extra: get("LinkExtra").unwrap(),
        };
        assert_eq!(tags_of(&write(2, &head, &["0H.W(2,2)"])), tags);
        // A game with no `Host` tag: no `host` pair, no `Host` read back.
        let head = LinkHead {
            guest: Some("Ben"),
            ..LinkHead::default()
        };
        assert_eq!(
            tags_of(&write(2, &head, &["0H.W(2,2)"])),
            [
                ("Game".to_string(), "vagabond".to_string()),
                ("Guest".into(), "Ben".into())
            ]
        );
    }

    #[test]
    fn names_with_ampersands_and_percent_signs_read_back_as_they_are() {
        for name in ["A&B", "100%", "%41", "50% & more", "Jos%C3%A9"] {
            let head = LinkHead {
                host: Some(name),
                guest: Some(""),
                ..LinkHead::default()
            };
            let tags = tags_of(&write(2, &head, &["0H.L(0,-6)"]));
            assert_eq!(tags[1], ("Host".to_string(), name.to_string()));
            assert_eq!(tags[2], ("Guest".to_string(), String::new()));
        }
    }

    /// Found by fuzzing (`site`): a line break in a pair was kept in a tag,
    /// which the record format cannot hold; the game came back without it.
    #[test]
    fn a_line_break_in_a_link_is_refused_with_the_tag_it_would_be() {
        for (q, tag) in [
            ("gameType=2&game=&x=a\rb", "LinkExtra"),
            ("gameType=2&host=A%0AB&game=", "Host"),
        ] {
            let link = format!("?{}", lz_str::compress_to_encoded_uri_component(q));
            match read(&link, Span::default()) {
                Link::Broken(p) => {
                    assert_eq!(p.code, Code::MalformedSiteRecord);
                    assert!(p.message.contains(tag), "{}", p.message);
                }
                other => panic!("{other:?}"),
            }
        }
    }
}
