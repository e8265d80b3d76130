//! What the index keeps of one game, made on the worker threads.

use super::keyed;
use super::Turns;
use crate::base::problem::Problem;
use crate::io::formats::{Format, Visit};
use crate::play::walk::Traced;

/// A game traced for the index.
#[derive(Debug, Default)]
pub struct TracedGame {
    /// Its rules (`None`: rules unknown).
    pub game: Option<&'static str>,
    pub title: Option<String>,
    /// The side tags' values (first side, second side).
    pub players: [Option<String>; 2],
    /// The tags as a JSON array of `[name, value]` pairs.
    pub tags: String,
    /// Those of them that are the game's settings (`Rules::SETTINGS`), the
    /// same way.
    pub settings: String,
    pub traced: Traced,
    /// The turns' numbers ([`Turns`]), ply by ply.
    pub turn_ids: Vec<u32>,
    /// Why the record is invalid (the trace's error, or why its rules are
    /// unknown).
    pub error: Option<Problem>,
    /// Where the record is in its input (record-format inputs): its byte
    /// offset, length, and 1-based line.
    pub place: Option<(u64, u64, u64)>,
    /// The key of the record's bytes at that place, checked when the
    /// record is read back (an archive changed under the same size and
    /// time is noticed).
    pub digest: Option<u64>,
}

/// Traces a game as it is read (on any thread), its turns numbered in
/// `turns`.
pub fn trace(v: Visit<'_, '_>, turns: &Turns) -> TracedGame {
    let sides = v.rules.as_ref().map_or(["", ""], |r| r.sides());
    let tags = v.game.tags();
    let title = crate::envelope::record::title(tags, sides);
    let pairs: Vec<[&str; 2]> = tags
        .iter()
        .map(|t| [t.name.as_str(), t.value.as_str()])
        .collect();
    let tags_json = serde_json::to_string(&pairs).unwrap_or_default();
    let settings_of = v.rules.as_ref().map_or(&[][..], |r| r.settings());
    let settings: Vec<&[&str; 2]> = pairs
        .iter()
        .filter(|p| settings_of.contains(&p[0]))
        .collect();
    let settings = serde_json::to_string(&settings).unwrap_or_default();
    let players = sides.map(|s| {
        tags.iter()
            .find(|t| !s.is_empty() && t.name == s)
            .map(|t| t.value.to_string())
    });
    let (game, traced, error) = match v.rules {
        Ok(rules) => {
            let traced = keyed::trace_game(rules, v.game);
            let error = traced.error.clone();
            (Some(rules.name()), traced, error)
        }
        Err(p) => {
            let end = v.game.finish();
            let traced = Traced {
                span: end.span,
                ..Traced::default()
            };
            (None, traced, Some(end.error.unwrap_or(p)))
        }
    };
    let (place, digest) = match (v.format, v.chunk) {
        (Format::Text, Some(chunk)) if !chunk.truncated => {
            // The bytes `filter` writes for the record (up to the next
            // one, less white space), and the line they start on.
            let extent = crate::io::passthrough::raw_extent(chunk, traced.span);
            let before = chunk.bytes.get(..extent.start).unwrap_or_default();
            let lines = memchr::memchr_iter(b'\n', before).count();
            let bytes = chunk.bytes.get(extent.clone()).unwrap_or_default();
            let place = (
                (chunk.offset + extent.start) as u64,
                extent.len() as u64,
                (chunk.line + lines) as u64,
            );
            (Some(place), Some(gamerec_rules::game::key_of(bytes)))
        }
        _ => (None, None),
    };
    let spellings = traced.turns.split(' ').filter(|t| !t.is_empty());
    let turn_ids = match game {
        // Numbered by the move where the game numbers every one of them.
        Some(name) if traced.codes.len() + 1 == traced.keys.len() => spellings
            .zip(&traced.codes)
            .map(|(t, &code)| turns.id_coded(name, code, t))
            .collect(),
        _ => spellings.map(|t| turns.id(t)).collect(),
    };
    TracedGame {
        game,
        title,
        players,
        tags: tags_json,
        settings,
        traced,
        turn_ids,
        error,
        place,
        digest,
    }
}
