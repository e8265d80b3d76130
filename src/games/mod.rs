//! The registry of games. Adding a game is one folder here and one line in
//! [`GAMES`].

pub mod grid;
pub mod iqishiqi;
pub mod oshi;
pub mod retsami;
pub mod roshi;
pub mod vagabond;

use crate::replay::{Registered, Rules};

/// Every game gamerec knows.
pub static GAMES: &[&dyn Rules] = &[
    &Registered::<oshi::Oshi>::new(),
    &Registered::<iqishiqi::Iqishiqi>::new(),
    &Registered::<retsami::Retsami>::new(),
    &Registered::<roshi::Roshi>::new(),
    &Registered::<vagabond::Vagabond>::new(),
];

/// The game named by a `Game` tag value (case-insensitive, aliases too).
pub fn find(name: &str) -> Option<&'static dyn Rules> {
    let name = name.trim();
    let is = |known: &str| known.eq_ignore_ascii_case(name);
    GAMES
        .iter()
        .copied()
        .find(|g| is(g.name()) || g.aliases().iter().any(|a| is(a)))
}

/// The names a `Game` tag may hold, for error messages.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}
