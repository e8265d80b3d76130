//! What the index asks of a game's own rules, run with the game's type
//! ([`with_game`]): a game's positions keyed as it is read ([`trace_game`]), a
//! written position's key ([`position_key`]), where a line of turns leads
//! ([`line_target`]), and the first position matching a pattern
//! ([`first_match`]).

use crate::envelope::record::{ReadGame, Tag};
use crate::play::pattern::Pattern;
use crate::play::walk::{LineTarget, Traced};
use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered};

/// Replays a whole game as it is read, keying every position.
pub fn trace_game(rules: &dyn AnyGame, game: &mut dyn ReadGame<'_>) -> Traced {
    struct Trace<'a, 'g>(&'a mut dyn ReadGame<'g>);
    impl GameTask for Trace<'_, '_> {
        type Output = Traced;
        fn run<G: Playable>(self, _: &Registered<G>) -> Traced {
            crate::play::walk::trace::<G>(self.0)
        }
    }
    with_game(rules, Trace(game))
}

/// The key ([`gamerec_rules::game::Search::notation_key`]) of a position
/// written in the game's `Position` notation, read under these settings
/// tags (Iqishiqi's `Coords` say how its cells are named), as `filter
/// --reaches` reads it; why not, when it cannot be read.
pub fn position_key(rules: &dyn AnyGame, settings: &[Tag], text: &str) -> Result<u64, String> {
    struct Key<'t>(Vec<Tag>, &'t str);
    impl GameTask for Key<'_> {
        type Output = Result<u64, String>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            let mut tags = self.0;
            tags.push(Tag::unplaced("Position", self.1));
            match G::start(&tags) {
                Ok(p) => Ok(G::notation_key(&p)),
                Err(e) => Err(e.message),
            }
        }
    }
    with_game(rules, Key(settings.to_vec(), text))
}

/// [`crate::play::walk::line_target`] for the game.
pub fn line_target(rules: &dyn AnyGame, tags: &[Tag], line: &[String]) -> LineTarget {
    struct Target<'t, 'l>(&'t [Tag], &'l [String]);
    impl GameTask for Target<'_, '_> {
        type Output = LineTarget;
        fn run<G: Playable>(self, _: &Registered<G>) -> LineTarget {
            crate::play::walk::line_target::<G>(self.0, self.1)
        }
    }
    with_game(rules, Target(tags, line))
}

/// [`crate::play::pattern::first_match`] for the game.
pub fn first_match(
    rules: &dyn AnyGame,
    pattern: &Pattern,
    tags: &[Tag],
    turns: &str,
) -> Result<Option<usize>, String> {
    struct Match<'p, 't, 'u>(&'p Pattern, &'t [Tag], &'u str);
    impl GameTask for Match<'_, '_, '_> {
        type Output = Result<Option<usize>, String>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            crate::play::pattern::first_match::<G>(self.0, self.1, self.2)
        }
    }
    with_game(rules, Match(pattern, tags, turns))
}
