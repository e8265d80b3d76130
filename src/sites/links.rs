//! The Garden Gate's game links: `https://skudpaisho.com/?` and an
//! LZ-String (URI-safe) compressed query string
//! `gameType=2&host=…&guest=…&game=<moves joined by ;>&gameOptions=[…]`.
//! Read as the site reads them (split at `&`, each pair at its first `=`,
//! the value URL-decoded) and written as the site writes them. Which game
//! a `gameType` is, the games say ([`SiteFiles::Links`]).

use crate::game::SiteFiles;
use crate::problem::{Code, Problem};
use crate::record::Span;
use crate::registry::{self, AnySite};

/// The `--from`/`--to` name.
pub const NAME: &str = "gardengate-link";

/// What it is, for help texts.
pub const TITLE: &str = "The Garden Gate's game links, one per line";

/// Where a written link points.
pub const SITE_URL: &str = "https://skudpaisho.com/";

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

impl std::fmt::Debug for dyn AnySite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.format().name)
    }
}

/// Whether `token` (an input's first word) is a Garden Gate link: a URL
/// with a query, or `?` and a payload that decompresses to one.
pub fn looks_like(token: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(token) else {
        return false;
    };
    match text.split_once('?') {
        Some((before, payload)) if before.is_empty() || before.contains("://") => {
            query(payload).is_some()
        }
        _ => false,
    }
}

/// The query string a link's payload holds: decompressed, or (as the site
/// allows with `appType=`) given plain.
fn query(payload: &str) -> Option<String> {
    let payload = payload.trim();
    if payload.is_empty() {
        return None;
    }
    // A URL layer may have turned `+` into a space.
    let payload = payload.replace(' ', "+");
    if let Some(units) = lz_str::decompress_from_encoded_uri_component(&payload) {
        if let Ok(text) = String::from_utf16(&units) {
            if text.contains('=') {
                return Some(text);
            }
        }
    }
    payload.contains('=').then_some(payload)
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
    let Some(query) = query(payload) else {
        return broken(
            Code::MalformedSiteRecord,
            "not a Garden Gate game link: its data does not decompress to a game".into(),
        );
    };
    let mut pairs: Vec<(String, String)> = Vec::new();
    for pair in query.split('&') {
        // The site also splits at `&amp;`.
        let pair = pair.strip_prefix("amp;").unwrap_or(pair);
        if pair.is_empty() {
            continue;
        }
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        pairs.push((k.to_string(), url_decode(v)));
    }
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    if get("tu").is_some() {
        return broken(
            Code::OfflineLink,
            "a shortened link: it holds no moves; open it in a browser and copy the full game \
             link (\"Get game link\")"
                .into(),
        );
    }
    if get("wg").is_some() {
        return broken(
            Code::OfflineLink,
            "a spectate link: it names a game on the site and holds no moves; open it in a \
             browser and copy the full game link (\"Get game link\")"
                .into(),
        );
    }
    let game_type = get("gameType").unwrap_or("1");
    let site = game_type.parse::<u32>().ok().and_then(|n| {
        registry::sites().find(|s| s.format().files == SiteFiles::Links { game_type: n })
    });
    let Some(site) = site else {
        return Link::Other(format!("gameType {game_type}"));
    };
    let Some(moves) = get("game") else {
        return broken(
            Code::MalformedSiteRecord,
            "a Garden Gate link with no game in it (no `game=`)".into(),
        );
    };
    let sides = site.game().sides();
    let mut tags = vec![("Game".to_string(), site.game().name().to_string())];
    let mut extra = Vec::new();
    for (k, v) in &pairs {
        match k.as_str() {
            "gameType" | "game" => {}
            "host" => tags.push((sides[0].to_string(), v.clone())),
            "guest" => tags.push((sides[1].to_string(), v.clone())),
            "gameOptions" => match serde_json::from_str::<Vec<String>>(v) {
                Ok(options) if !options.is_empty() => {
                    tags.push(("Options".into(), options.join(",")))
                }
                Ok(_) => {}
                Err(_) => extra.push(format!("{k}={v}")),
            },
            _ => extra.push(format!("{k}={v}")),
        }
    }
    if !extra.is_empty() {
        tags.push(("LinkExtra".into(), extra.join("&")));
    }
    Link::Game {
        tags,
        moves: moves.to_string(),
        site,
    }
}

/// The site's long link for a game: its `gameType`, the side tags, its
/// turns in the site's notation joined by `;`, and its options.
pub fn write(game_type: u32, host: &str, guest: &str, turns: &[&str], options: &str) -> String {
    let mut q = format!(
        "gameType={game_type}&host={host}&guest={guest}&game={}",
        turns.join(";")
    );
    let options: Vec<&str> = options
        .split(',')
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .collect();
    if !options.is_empty() {
        q.push_str("&gameOptions=");
        q.push_str(&serde_json::to_string(&options).expect("strings"));
    }
    format!(
        "{SITE_URL}?{}",
        lz_str::compress_to_encoded_uri_component(q.as_str())
    )
}

/// Writes a game as the site's long link, one per line.
pub struct LinkSink<'o> {
    out: &'o mut crate::convert::out::Rendered,
    game_type: u32,
    sides: [&'static str; 2],
    tags: Vec<(String, String)>,
    turns: Vec<String>,
    /// Tags and comments a link cannot carry.
    pub left_out: [usize; 2],
}

impl<'o> LinkSink<'o> {
    pub fn new(out: &'o mut crate::convert::out::Rendered, game_type: u32) -> Self {
        LinkSink {
            out,
            game_type,
            sides: ["", ""],
            tags: Vec::new(),
            turns: Vec::new(),
            left_out: [0, 0],
        }
    }
}

impl crate::convert::GameSink for LinkSink<'_> {
    fn head(&mut self, head: &crate::convert::Head<'_>) {
        self.sides = head.sides;
        self.tags = head.tags.to_vec();
        self.left_out[1] += head.comments.len();
    }

    fn turn(&mut self, turn: crate::convert::TurnOut) {
        self.left_out[1] += turn.comments.len();
        let text = turn.site.or(turn.written).unwrap_or(turn.text);
        self.turns.push(text);
    }

    fn tail(&mut self, _: &crate::convert::Tail<'_>) {
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n == name)
                .map_or("", |(_, v)| v.as_str())
        };
        let carried = ["Game", "Options", "Result", self.sides[0], self.sides[1]];
        self.left_out[0] += self
            .tags
            .iter()
            .filter(|(n, _)| !carried.contains(&n.as_str()))
            .count();
        let turns: Vec<&str> = self.turns.iter().map(String::as_str).collect();
        let link = write(
            self.game_type,
            tag(self.sides[0]),
            tag(self.sides[1]),
            &turns,
            tag("Options"),
        );
        self.out.push_str(&link);
        self.out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_link_reads_back_with_its_tags_and_moves() {
        let link = write(2, "Ana", "Ben", &["0H.L(0,-6)", "0G.L(0,6)"], "DoubleTiles");
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
        let link = write(2, "A+B", "C", &["0H.L(0,-6)"], "");
        let spaced = link.replace('+', " ");
        assert!(matches!(read(&spaced, Span::default()), Link::Game { .. }));
        assert!(matches!(
            read("https://skudpaisho.com/?%%%%", Span::default()),
            Link::Broken(p) if p.code == Code::MalformedSiteRecord
        ));
        assert!(looks_like(link.as_bytes()));
        assert!(!looks_like(b"0H.L(0,-6)"));
    }
}
