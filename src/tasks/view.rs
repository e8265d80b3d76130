//! `view`'s library side: what the viewer's page shows of each game (the
//! page itself is `picture::html`'s).

use crate::base::problem::Problem;
use crate::envelope::record::{title, ReadGame};
use crate::io::formats::Visit;
use crate::picture::html::{Unplayable, ViewerGame};
use crate::picture::ErrorAt;
use crate::tasks::show::replayed;

/// What the viewer shows of a game: its replay, or why it cannot be
/// replayed; and its problem with its title, when it is invalid.
pub fn entry(v: Visit<'_, '_>) -> (ViewerGame, Option<(Problem, Option<String>)>) {
    let game = v.game;
    let unplayable = |game: &dyn ReadGame<'_>, p: Problem, sides| {
        let title = title(game.tags(), sides);
        let entry = ViewerGame::Unplayable(Unplayable {
            title: title.clone().unwrap_or_else(|| "a game".into()),
            tags: game
                .tags()
                .iter()
                .map(|t| (t.name.to_string(), t.value.to_string()))
                .collect(),
            error: ErrorAt {
                ply: p.ply,
                token: p.token.as_deref().map(String::from),
                message: p.message.clone(),
            },
        });
        (entry, Some((p, title)))
    };
    match v.rules {
        Ok(r) => match replayed(r, game) {
            Ok(replayed) => {
                let problem = (replayed.problem.clone()).map(|p| (p, replayed.title.clone()));
                (ViewerGame::Played(Box::new(replayed)), problem)
            }
            Err(p) => unplayable(game, p, r.sides()),
        },
        Err(p) => unplayable(game, p, ["White", "Black"]),
    }
}
