//! `tree --index`: the opening explorer answered from an index, not from
//! the archives — each game's target (where the line leads from its
//! start, worked out once per game type and start), then each target's
//! postings: the games that reached it within the depth, the ply they
//! first did, the turn they played there. The reaches are added up by the
//! explorer `tree` uses ([`Explorer`]), in the games' order. Memory: a few
//! words per game of the index, and the targets' postings.

use super::keyed;
use super::{finish_of, tags_of, Index, NO_TURN};
use crate::play::walk::{declares_result, AtTarget, Explored, Explorer, Finish, Reach};
use crate::registry;
use crate::tasks::tree::Query;
use gamerec_rules::game::Side;
use std::collections::HashMap;
use std::io;

/// A target: a game type's position where the line leads from a start.
struct Target {
    game: &'static str,
    key: u64,
    position: String,
    mover: Side,
}

/// What the explorer needs of a game the query keeps.
#[derive(Clone, Copy)]
struct Kept {
    /// Its target's number.
    target: u32,
    file: u32,
    index: u32,
    finish: Finish,
    /// The record declares no result: the rules' ending gave `finish`.
    by_rules: bool,
}

/// The games the query keeps (by id; `None`: not kept, or the line is
/// not legal from its start), and the targets.
fn targets(index: &Index, query: &Query) -> io::Result<(Vec<Option<Kept>>, Vec<Target>)> {
    let mut targets: Vec<Target> = Vec::new();
    let mut by_key: HashMap<(&'static str, u64), u32> = HashMap::new();
    // Per game type and start: the target's number, if the line is legal.
    let mut memo: HashMap<(&'static str, u64), Option<u32>> = HashMap::new();
    let mut kept = Vec::new();
    index.each_game_row(false, &mut |row| {
        let id = row.id as usize;
        kept.resize(id + 1, None);
        let Some(rules) = row.game.as_deref().and_then(registry::find) else {
            return Ok(());
        };
        let tags = tags_of(row.tags.as_deref().unwrap_or("[]"));
        if !query.keeps(&tags, rules.sides()) {
            return Ok(());
        }
        let Some((start, _)) = keyed::line_target(rules, &tags, &[]) else {
            return Ok(());
        };
        let target = *memo.entry((rules.name(), start)).or_insert_with(|| {
            let (key, position, mover) = keyed::line_target(rules, &tags, &query.line)?.1?;
            let n = targets.len() as u32;
            let t = *by_key.entry((rules.name(), key)).or_insert(n);
            if t == n {
                let game = rules.name();
                targets.push(Target {
                    game,
                    key,
                    position,
                    mover,
                });
            }
            Some(t)
        });
        kept[id] = target.map(|target| Kept {
            target,
            file: row.file,
            index: row.index,
            finish: finish_of(&row.finish),
            by_rules: !declares_result(&tags),
        });
        Ok(())
    })?;
    Ok((kept, targets))
}

/// The explored positions (see [`Explorer::finish`]) of the games in the
/// index that `query` keeps.
pub fn explore(index: &Index, query: &Query, min_games: u64) -> io::Result<Vec<Explored>> {
    let (kept, targets) = targets(index, query)?;
    // Each kept game's first reach of its own target within the depth:
    // (game, target, ply, turn), in the games' order.
    let mut reaches: Vec<(u32, u32, u32, u32)> = Vec::new();
    for (t, target) in targets.iter().enumerate() {
        let mut last = None;
        for p in index.postings(target.key)? {
            let own = kept.get(p.id as usize).copied().flatten();
            let counts = own.is_some_and(|k| k.target == t as u32);
            if counts && p.ply as usize <= query.depth && last != Some(p.id) {
                reaches.push((p.id, t as u32, p.ply, p.turn));
                last = Some(p.id);
            }
        }
    }
    reaches.sort_unstable();
    let texts = index.turn_texts()?;
    let mut explorer = Explorer::default();
    for (id, t, ply, turn) in reaches {
        let (Some(k), target) = (kept[id as usize], &targets[t as usize]) else {
            continue;
        };
        // The walk stops at the depth: a turn there is not walked.
        let turn = match turn {
            NO_TURN => None,
            _ if ply as usize >= query.depth => None,
            t => texts.get(t as usize).cloned(),
        };
        let reach = Reach {
            key: target.key,
            mover: target.mover,
            at: AtTarget {
                ply: ply as usize,
                turn,
            },
        };
        let file = index
            .files()
            .get(k.file as usize)
            .map_or("", |f| f.name.as_str());
        let at = (file, k.index as usize);
        explorer.add_reach(
            target.game,
            at,
            &reach,
            &target.position,
            (k.finish, k.by_rules),
        );
    }
    Ok(explorer.finish(min_games))
}
