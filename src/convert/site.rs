//! Other sites' move notations: a game is its turns in the site's notation
//! joined by the site's separator, one game per line. Tags, comments and the
//! result are not carried.

use super::Converted;
use crate::game::SiteFormat;

/// The game's legal turns in the site notation, joined (the turns up to the
/// first that has no site form: the game's legal prefix).
pub fn line(game: &Converted, site: SiteFormat) -> String {
    game.turns
        .iter()
        .map_while(|t| t.site.as_deref())
        .collect::<Vec<_>>()
        .join(site.separator)
}
