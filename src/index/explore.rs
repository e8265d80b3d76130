//! `tree --index`: the opening explorer answered from an index, not from
//! the archives — each game's target (where the line leads from its
//! start, worked out once per game type and start), then the target's
//! postings: the games that reached it within the depth, the ply they
//! first did, the turn they played there. The walks are added up by the
//! explorer `tree` uses ([`Explorer`]), in the games' order.

use super::{finish_of, tags_of, Index, NO_TURN};
use crate::explored::Query;
use crate::game::Side;
use crate::registry;
use crate::tree::{AtTarget, Explored, Explorer, Reach, Walk};
use std::collections::{BTreeMap, HashMap};
use std::io;

/// A game the query keeps, and its target.
struct Kept {
    game: &'static str,
    file: u32,
    index: u32,
    finish: String,
    key: u64,
}

/// The explored positions (see [`Explorer::finish`]) of the games in the
/// index that `query` keeps.
pub fn explore(index: &Index, query: &Query, min_games: u64) -> io::Result<Vec<Explored>> {
    type Target = Option<(u64, String, Side)>;
    let mut memo: HashMap<(&'static str, u64), Target> = HashMap::new();
    let mut kept: BTreeMap<u32, Kept> = BTreeMap::new();
    let mut targets: HashMap<(&'static str, u64), (String, Side)> = HashMap::new();
    index.each_game_row(false, &mut |row| {
        let Some(rules) = row.game.as_deref().and_then(registry::find) else {
            return Ok(());
        };
        let tags = tags_of(row.tags.as_deref().unwrap_or("[]"));
        if !query.keeps(&tags, rules.sides()) {
            return Ok(());
        }
        let target = match rules.line_target(&tags, &[]) {
            Some((start, _)) => memo
                .entry((rules.name(), start))
                .or_insert_with(|| rules.line_target(&tags, &query.line).and_then(|t| t.1))
                .clone(),
            None => None,
        };
        if let Some((key, position, mover)) = target {
            targets
                .entry((rules.name(), key))
                .or_insert((position, mover));
            kept.insert(
                row.id,
                Kept {
                    game: rules.name(),
                    file: row.file,
                    index: row.index,
                    finish: row.finish,
                    key,
                },
            );
        }
        Ok(())
    })?;
    let texts = index.turn_texts()?;
    let mut walks: BTreeMap<u32, Walk> = BTreeMap::new();
    for (&(game, key), (position, mover)) in &targets {
        let mut first: BTreeMap<u32, (u32, u32)> = BTreeMap::new();
        for p in index.postings(key)? {
            if p.ply as usize <= query.depth {
                first.entry(p.id).or_insert((p.ply, p.turn));
            }
        }
        for (id, (ply, turn)) in first {
            let Some(k) = kept.get(&id).filter(|k| k.game == game && k.key == key) else {
                continue;
            };
            // The walk stops at the depth: a turn there is not walked.
            let turn = match turn {
                NO_TURN => None,
                _ if ply as usize >= query.depth => None,
                t => texts.get(t as usize).cloned(),
            };
            let reach = Reach {
                key,
                mover: *mover,
                at: AtTarget {
                    ply: ply as usize,
                    turn,
                },
            };
            walks.insert(
                id,
                Walk {
                    target: Some((key, position.clone())),
                    reached: vec![reach],
                    finish: finish_of(&k.finish),
                    error: None,
                },
            );
        }
    }
    let mut explorer = Explorer::default();
    for (id, walk) in &walks {
        let k = &kept[id];
        let file = index
            .files()
            .get(k.file as usize)
            .map_or("", |f| f.name.as_str());
        explorer.add(k.game, file, k.index as usize, walk);
    }
    Ok(explorer.finish(min_games))
}
