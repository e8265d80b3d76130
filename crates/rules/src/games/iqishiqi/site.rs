//! AbstractPlay's Iqishiqi move lists: moves in AbstractPlay's labels,
//! lowercase, the destination always written. Read separated by spaces or
//! commas (the site's own lists, `c8/i7,f5/j7`); written separated by
//! spaces.

use super::facts::resolved;
use super::labels::Coords;
use super::notation::Move;
use super::position::Position;
use super::Iqishiqi;
use crate::game::{MoveFacts, Notation, SiteFiles, SiteFormat, SiteNotation};

/// The move in AbstractPlay's labels, lowercase, destination always
/// written: the form AbstractPlay's move list uses.
pub fn abstractplay_move(mv: &Move, after: &Position) -> String {
    let full = Move {
        coords: Coords::AbstractPlay,
        ..resolved(mv, after)
    };
    let mut s = String::new();
    Iqishiqi::write_move(&full, &mut s);
    s.to_ascii_lowercase()
}

/// `h9/h7`: an AbstractPlay Iqishiqi move (lowercase, destination written),
/// alone or first in the site's comma-joined list (`h9/h7,f5/j7`).
pub fn looks_abstractplay(token: &[u8]) -> bool {
    let token = token.split(|&b| b == b',').next().unwrap_or(token);
    let cell = |c: &[u8]| {
        matches!(c.first(), Some(b'a'..=b'o'))
            && (2..=3).contains(&c.len())
            && c[1..].iter().all(u8::is_ascii_digit)
    };
    let mut parts = token.split(|&b| b == b'/');
    matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None) if cell(a) && cell(b))
}

impl SiteNotation for Iqishiqi {
    const SITE: SiteFormat = SiteFormat {
        name: "abstractplay",
        title: "Iqishiqi games as AbstractPlay move lists (AbstractPlay's labels)",
        example: "h9/h7",
        tags: &[("Coords", "abstractplay")],
        separator: " ",
        commas: true,
        game_start: None,
        recognizes: looks_abstractplay,
        files: SiteFiles::Records {
            name: "Iqishiqi",
            implied: &["Coords"],
        },
    };

    fn site_move(_: &Position, mv: &Move, after: &Position, _: &MoveFacts) -> String {
        abstractplay_move(mv, after)
    }
}
