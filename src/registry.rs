//! The registry: the one list of the games gamerec knows ([`GAMES`]), the
//! object-safe face ([`AnyGame`]) through which the readers use a game
//! picked by name — its names, sides, settings and statistics, and the
//! reading path (replay, conversion, repairs) — and [`with_game`], through
//! which any other feature reaches a game's generic code: a feature is a
//! [`GameTask`] in its own module, run with the game's own type, and adds
//! nothing here. Adding a game is one line in the list below (and its
//! folder in the rules crate).

use crate::base::problem::{Problem, Repair};
use crate::envelope::record::{End, ReadGame, Record, Tag};
use crate::play::lenient::{self, Lenient};
use crate::play::replay::{self, Replay};
use crate::play::sink::{self, Converted, GameSink, TraceOptions};
use gamerec_rules::game::{
    Evaluate, Facts, Game, MovetextStyle, Picture, Search, SiteFormat, SiteNotation, Stat,
};
use gamerec_rules::games::{iqishiqi, oshi, retsami, roshi, vagabond};
use std::marker::PhantomData;

/// What a feature does with a game's own type: [`with_game`] runs it with
/// `G` the game a `&dyn AnyGame` stands for, so the feature's code is
/// generic over the game and the registry gains no method for it.
pub trait GameTask {
    type Output;
    fn run<G: Playable>(self, game: &Registered<G>) -> Self::Output;
}

/// What every registered game implements: each concern of the seam.
pub trait Playable: Facts + Picture + Search + Evaluate {}

impl<G: Facts + Picture + Search + Evaluate> Playable for G {}

/// The one list of games: [`GAMES`], and [`with_game`]'s dispatch over it.
macro_rules! registry {
    ($($game:ty $(=> $with:ident)?),* $(,)?) => {
        /// Every game gamerec knows, in the order of the `stats` CSV's columns.
        pub static GAMES: &[&dyn AnyGame] = &[$(&Registered::<$game>::new()$(.$with())?),*];

        /// Runs `task` with the type of the game `game` stands for.
        pub fn with_game<T: GameTask>(game: &dyn AnyGame, task: T) -> T::Output {
            let name = game.name();
            $(
                if name == <$game as Game>::NAME {
                    const REGISTERED: Registered<$game> = Registered::<$game>::new()$(.$with())?;
                    return task.run(&REGISTERED);
                }
            )*
            // Every `AnyGame` is a `Registered` game of the list (the trait
            // is sealed, and only this module registers a game).
            unreachable!("{name} is not in the registry")
        }
    };
}

registry! {
    oshi::Oshi,
    iqishiqi::Iqishiqi => with_site,
    retsami::Retsami,
    roshi::Roshi,
    vagabond::Vagabond => with_site,
}

mod sealed {
    /// Only the registry makes an [`super::AnyGame`].
    pub trait Sealed {}
}

/// A game as the generic machinery sees it: object-safe, one per game in
/// [`GAMES`].
pub trait AnyGame: Sync + sealed::Sealed {
    /// The `Game` tag value.
    fn name(&self) -> &'static str;
    /// The game's name as people write it.
    fn title(&self) -> &'static str;
    /// Other names the `Game` tag may hold.
    fn aliases(&self) -> &'static [&'static str];
    /// The side tags, first-named side first.
    fn sides(&self) -> [&'static str; 2];
    /// The tags the game's settings are read from (`Rules::SETTINGS`).
    fn settings(&self) -> &'static [&'static str];
    /// How this game's movetext is tokenised.
    fn style(&self) -> MovetextStyle;
    /// Replays the record and judges its result (`validate`).
    fn replay(&self, record: &Record) -> Replay;
    /// Replays a game as it is read and judges its result; also says how
    /// its reading ended.
    fn replay_game(&self, game: &mut dyn ReadGame<'_>) -> (Replay, End);
    /// Replays a game as it is read and tells it to `sink` part by part
    /// (`convert`, `stats`).
    fn tell(&self, game: &mut dyn ReadGame<'_>, opts: TraceOptions, sink: &mut dyn GameSink);
    /// Replays the record and builds its converted form (`convert`,
    /// `stats`); `parse_error` is the envelope's own problem.
    fn convert(
        &self,
        index: usize,
        record: Record,
        parse_error: Option<Problem>,
        opts: TraceOptions,
    ) -> Converted;
    /// `--lenient`: repairs a record read whole (its envelope read without
    /// problems) under this game's rules ([`lenient::repair`]).
    fn repair(
        &self,
        record: &mut Record,
        lenient: Lenient,
        repairs: &mut Vec<Repair>,
        renumbered: &[usize],
    );
    /// Whether the game's move notation reads `turn` as a game with these
    /// `tags` starts (for guessing the rules of a record without a `Game`
    /// tag).
    fn reads_turn(&self, tags: &[Tag], turn: &str) -> bool;
    /// The game's own statistics' columns.
    fn stats(&self) -> &'static [Stat];
    /// The game's site notation, if it has one.
    fn site(&self) -> Option<&'static dyn AnySite>;
    /// The exact search's default horizon for this game.
    fn default_depth(&self) -> u32;
}

/// A site notation as the generic machinery sees it.
pub trait AnySite: Sync {
    fn format(&self) -> SiteFormat;
    /// The game written in this notation.
    fn game(&self) -> &'static dyn AnyGame;
    /// Whether a game with these tags starts where a game read back from
    /// the site would: the standard start, with no setting the site cannot
    /// express.
    fn can_carry(&self, tags: &[Tag]) -> bool;
}

/// Plugs a game into the registry: `Registered::<G>::new()`, and
/// `.with_site()` for a game with a site notation.
pub struct Registered<G: Game> {
    /// The game's site notation, when it is registered with one: the
    /// adapter, and the function the trace calls for each ply.
    site: Option<(&'static dyn AnySite, sink::SiteMove<G>)>,
}

impl<G: Game> Registered<G> {
    const fn new() -> Self {
        Registered { site: None }
    }
}

impl<G: SiteNotation> Registered<G> {
    /// The game's site notation ([`SiteNotation`]) is offered too.
    const fn with_site(self) -> Self {
        Registered {
            site: Some((SiteOf::<G>::ADAPTER, G::site_move)),
        }
    }
}

/// A game's site notation, registered.
struct SiteOf<G>(PhantomData<fn() -> G>);

impl<G: SiteNotation> SiteOf<G> {
    const ADAPTER: &'static dyn AnySite = &SiteOf::<G>(PhantomData);
}

impl<G: SiteNotation> AnySite for SiteOf<G> {
    fn format(&self) -> SiteFormat {
        G::SITE
    }

    fn game(&self) -> &'static dyn AnyGame {
        find(G::NAME).expect("a registered game's site is registered with it")
    }

    fn can_carry(&self, record_tags: &[Tag]) -> bool {
        let site_tags: Vec<Tag> = (G::SITE.tags.iter())
            .map(|(n, v)| Tag::unplaced(n, v))
            .collect();
        let mut tags: Vec<Tag> = record_tags
            .iter()
            .filter(|t| !G::SITE.tags.iter().any(|(n, _)| *n == t.name))
            .cloned()
            .collect();
        tags.extend(site_tags.iter().cloned());
        match (G::start(&tags), G::start(&site_tags)) {
            (Ok(a), Ok(b)) => G::write_position(&a) == G::write_position(&b),
            _ => false,
        }
    }
}

impl<G: Game> sealed::Sealed for Registered<G> {}

impl<G: Playable> AnyGame for Registered<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn aliases(&self) -> &'static [&'static str] {
        G::ALIASES
    }

    fn sides(&self) -> [&'static str; 2] {
        G::SIDES
    }

    fn settings(&self) -> &'static [&'static str] {
        G::SETTINGS
    }

    fn style(&self) -> MovetextStyle {
        G::STYLE
    }

    fn replay(&self, record: &Record) -> Replay {
        replay::replay::<G>(record)
    }

    fn replay_game(&self, game: &mut dyn ReadGame<'_>) -> (Replay, End) {
        let (replay, _, end) = replay::replay_game::<G, ()>(game, &mut ());
        (replay, end)
    }

    fn tell(&self, game: &mut dyn ReadGame<'_>, opts: TraceOptions, sink: &mut dyn GameSink) {
        let site_move = self.site.map(|(_, f)| f);
        sink::tell::<G>(game, opts, site_move, sink)
    }

    fn convert(
        &self,
        index: usize,
        record: Record,
        parse_error: Option<Problem>,
        opts: TraceOptions,
    ) -> Converted {
        let site_move = self.site.map(|(_, f)| f);
        sink::convert::<G>(index, record, parse_error, opts, site_move)
    }

    fn repair(
        &self,
        record: &mut Record,
        lenient: Lenient,
        repairs: &mut Vec<Repair>,
        renumbered: &[usize],
    ) {
        lenient::repair::<G>(record, lenient, repairs, renumbered)
    }

    fn reads_turn(&self, tags: &[Tag], turn: &str) -> bool {
        G::start(tags).is_ok_and(|start| G::parse_move(&start, turn).is_ok())
    }

    fn stats(&self) -> &'static [Stat] {
        <G::Stats as gamerec_rules::game::Statistics>::COLUMNS
    }

    fn site(&self) -> Option<&'static dyn AnySite> {
        self.site.map(|(s, _)| s)
    }

    fn default_depth(&self) -> u32 {
        G::DEPTH
    }
}

/// The registered games' names, for messages.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}

/// The game named by a `Game` tag value (case-insensitive, aliases too).
pub fn find(name: &str) -> Option<&'static dyn AnyGame> {
    // Most records spell the name as the registry does.
    if let Some(g) = GAMES.iter().copied().find(|g| g.name() == name) {
        return Some(g);
    }
    let name = name.trim();
    let is = |known: &str| known.eq_ignore_ascii_case(name);
    GAMES
        .iter()
        .copied()
        .find(|g| is(g.name()) || g.aliases().iter().any(|a| is(a)))
}

/// Every site notation, in registry order.
pub fn sites() -> impl Iterator<Item = &'static dyn AnySite> {
    GAMES.iter().filter_map(|g| g.site())
}

/// The site notation called `name` (`--to`, `--from`).
pub fn find_site(name: &str) -> Option<&'static dyn AnySite> {
    sites().find(|s| s.format().name == name)
}

/// Replays `record` (when its rules are known) and builds its converted
/// form; without rules, its envelope as read, with the problem that says
/// why.
pub fn convert(
    index: usize,
    record: Record,
    parse_error: Option<Problem>,
    rules: Result<&'static dyn AnyGame, Problem>,
    opts: TraceOptions,
) -> Converted {
    match rules {
        Ok(game) => game.convert(index, record, parse_error, opts),
        Err(p) => sink::without_rules(index, record, parse_error, p),
    }
}

/// Replays `game` (when its rules are known) and tells it to `sink`;
/// without rules, its envelope as read, with the problem that says why.
pub fn tell(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    opts: TraceOptions,
    sink: &mut dyn GameSink,
) {
    match rules {
        Ok(r) => r.tell(game, opts, sink),
        Err(p) => sink::tell_without_rules(game, p, sink),
    }
}

/// The `(game, columns)` of every game's own statistics, in registry order.
pub(crate) fn stats_columns() -> impl Iterator<Item = (&'static str, &'static [Stat])> {
    GAMES.iter().map(|g| (g.name(), g.stats()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names the type a task is run with.
    struct TypeName;

    impl GameTask for TypeName {
        type Output = &'static str;
        fn run<G: Playable>(self, _: &Registered<G>) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn with_game_runs_each_registered_game_with_its_own_type() {
        for game in GAMES {
            assert_eq!(with_game(*game, TypeName), game.name());
        }
        let names = names();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(
            unique.len(),
            names.len(),
            "two games share a name: {names:?}"
        );
    }

    #[test]
    fn a_registered_site_is_offered_through_with_game_too() {
        struct HasSite;
        impl GameTask for HasSite {
            type Output = bool;
            fn run<G: Playable>(self, game: &Registered<G>) -> bool {
                game.site.is_some()
            }
        }
        for game in GAMES {
            assert_eq!(
                with_game(*game, HasSite),
                game.site().is_some(),
                "{}",
                game.name()
            );
        }
    }
}
