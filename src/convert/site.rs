//! Other sites' notations (`gardengate`, `abstractplay`): a game is its
//! turns in the site's notation joined by the site's separator, one game per
//! line. Tags, comments and the result are not carried.

use super::Converted;
use crate::game::SiteFormat;
use crate::games;
use crate::replay::Rules;

/// The game whose site notation is called `name`.
pub fn rules_for_site(name: &str) -> Option<(&'static dyn Rules, SiteFormat)> {
    games::GAMES
        .iter()
        .find_map(|r| r.site().filter(|s| s.name == name).map(|s| (*r, s)))
}

/// Every site notation's name.
pub fn site_names() -> Vec<&'static str> {
    games::GAMES
        .iter()
        .filter_map(|r| r.site().map(|s| s.name))
        .collect()
}

/// The game's legal turns in the site notation, joined; `None` when some
/// turn has no site form (the game is not legal up to its end).
pub fn line(game: &Converted, site: SiteFormat) -> String {
    game.turns
        .iter()
        .map_while(|t| t.site.as_deref())
        .collect::<Vec<_>>()
        .join(site.separator)
}
