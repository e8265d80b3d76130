//! [`SiteNotation`]: another site's move notation a game is exported to and
//! read back from (`convert --to <site>`), implemented in the game's
//! `site.rs` by a game that has one. The site format is named there and
//! nowhere else: the command line's lists come from the registry.

use super::{Facts, MoveFacts};

/// A site's move notation, as the generic readers and writers see it.
#[derive(Clone, Copy, Debug)]
pub struct SiteFormat {
    /// The `--to`/`--from` name.
    pub name: &'static str,
    /// What it is, for help texts: "The Garden Gate's move strings".
    pub title: &'static str,
    /// A first turn in this notation, for help texts.
    pub example: &'static str,
    /// Tags a game read back from the site gets besides `Game`.
    pub tags: &'static [(&'static str, &'static str)],
    /// Turns are joined with this.
    pub separator: &'static str,
    /// `,` separates turns too when they are read (the site's own lists
    /// join them so; turns of this notation hold no comma).
    pub commas: bool,
    /// A line starting with this begins a new game (other lines continue
    /// the game); `None`: every line is one game.
    pub game_start: Option<&'static str>,
    /// Whether an input's first token (up to white space or `;`) is a turn
    /// in this notation, for guessing an input's format.
    pub recognizes: fn(&[u8]) -> bool,
    /// The site's own game files that hold this game in this notation.
    pub files: SiteFiles,
}

/// The files a site keeps games in (beyond bare move strings), as far as
/// the game is concerned: how the site names it there. The formats
/// themselves are read and written in `sites/`, which knows no game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteFiles {
    /// Move strings only.
    None,
    /// AbstractPlay's JSON game records (one, or bulk arrays of them):
    /// the game's name in `header.game.name`. Seat 0 plays the first side.
    /// `implied`: the settings tags a record implies without holding them
    /// (its moves are in the site's labels, whatever a labels tag says).
    Records {
        name: &'static str,
        implied: &'static [&'static str],
    },
    /// The Garden Gate's game links: the game's `gameType` number; the
    /// link's `gameOptions` are the game's settings tag `options`.
    Links {
        game_type: u32,
        options: &'static str,
    },
}

/// A game's site notation.
pub trait SiteNotation: Facts {
    const SITE: SiteFormat;

    /// A legal move in the site's notation; `facts` is what
    /// [`Facts::describe`] said of it.
    fn site_move(
        before: &Self::Position,
        mv: &Self::Move,
        after: &Self::Position,
        facts: &MoveFacts,
    ) -> String;
}
