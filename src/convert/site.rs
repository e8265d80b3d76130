//! Other sites' move notations: a game is its turns in the site's notation
//! joined by the site's separator, one game per line. Tags, comments and the
//! result are not carried.

use super::Converted;
use crate::game::SiteFormat;

/// The game's turns in the site notation, joined: the legal ones as the
/// site writes them, an illegal turn and every turn after it as written
/// (so an invalid game keeps every turn, and each game is one line).
pub fn line(game: &Converted, site: SiteFormat) -> String {
    let mut legal = true;
    game.turns
        .iter()
        .map(|t| {
            legal &= t.site.is_some();
            match (&t.site, legal) {
                (Some(s), true) => s.as_str(),
                _ => t.written.as_deref().unwrap_or(&t.text),
            }
        })
        .collect::<Vec<_>>()
        .join(site.separator)
}
