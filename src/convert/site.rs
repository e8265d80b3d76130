//! Other sites' move notations: a game is its turns in the site's notation
//! joined by the site's separator, one game per line. Tags, comments and the
//! result are not carried.

use super::out::Rendered;
use super::{Converted, GameSink, Head, Tail, TurnOut};
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

/// Writes a game's turns in a site's notation as it is told: one line.
pub struct SiteSink<'o> {
    out: &'o mut Rendered,
    separator: &'static str,
    first: bool,
}

impl<'o> SiteSink<'o> {
    pub fn new(out: &'o mut Rendered, site: SiteFormat) -> Self {
        SiteSink {
            out,
            separator: site.separator,
            first: true,
        }
    }
}

impl GameSink for SiteSink<'_> {
    fn head(&mut self, _: &Head<'_>) {}

    fn turn(&mut self, turn: TurnOut<'_>) {
        if !self.first {
            self.out.push_str(self.separator);
        }
        self.first = false;
        // Legal turns as the site writes them; from the first illegal one
        // on (no site form), as written.
        let text = turn
            .site
            .as_deref()
            .or(turn.written.as_deref())
            .unwrap_or(&turn.text);
        self.out.push_str(text);
    }

    fn tail(&mut self, _: &Tail<'_>) {
        self.out.push('\n');
    }
}
