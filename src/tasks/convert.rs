//! Every game of the inputs written to one output in one format:
//! `convert`'s work, shared by the command line and the Python package.
//! Each game is converted on a worker thread as it is read; the games are
//! written in input order into the format's framing; what happens (a
//! repair, an invalid game, a game the format cannot carry, an input that
//! cannot be read) is told as it happens, and what the format left out is
//! counted.

use crate::base::problem::{Problem, Repair};
use crate::envelope::record::Chunk;
use crate::io::diagnostics::{count, Repaired};
use crate::io::formats::write::Framed;
use crate::io::formats::{convert_one, Format, GameOut, Job, Visit};
use crate::io::inputs::{self, How, Item, Read};
use crate::io::sources::Source;
use crate::play::sink::TraceOptions;
use std::io::{self, Write};
use std::ops::ControlFlow;

/// What is asked of an export besides its inputs and output.
#[derive(Clone, Copy)]
pub struct Export {
    pub to: Format,
    /// The envelope only: moves not replayed, kept as written (text only).
    pub syntax_only: bool,
    /// Leave invalid games out instead of converting them up to their
    /// error.
    pub skip_invalid: bool,
    /// CSV: cells that would start a formula start with `'`.
    pub spreadsheet_safe: bool,
}

/// Where a game is: its input, its index there, the text it was read
/// from, and its title (for a problem or a repair).
#[derive(Clone, Copy)]
pub struct GameAt<'a> {
    pub input: &'a str,
    pub index: usize,
    pub chunk: Option<&'a Chunk>,
    pub title: Option<&'a str>,
}

/// What an export tells as it goes.
pub enum ConvertEvent<'a> {
    /// What `--lenient` repaired in a game.
    Repaired(GameAt<'a>, &'a [Repair]),
    /// A game is invalid (converted up to its error, or left out).
    Invalid(GameAt<'a>, &'a Problem),
    /// A game the format cannot carry, left out: why (empty: its rules are
    /// unknown, already told as invalid).
    LeftOut(&'a str, String),
    /// An input that could not be read, or held no game gamerec plays.
    Input(Item<'a, ()>),
}

/// What an export did.
#[derive(Clone, Debug, Default)]
pub struct Conversion {
    pub games: usize,
    pub written: usize,
    pub invalid: usize,
    /// Stretches of text read where a game was expected but holding none
    /// (text between games): told, left out.
    pub not_games: usize,
    /// What the format dropped: tags, comments, results, assessments and
    /// glyphs.
    pub dropped: [usize; 4],
    /// Games repaired, and repairs.
    pub repaired: Repaired,
    /// What reading found besides the games.
    pub read: Read,
}

impl Conversion {
    /// What the target format (`to`, named `name` as the user gave it)
    /// left out, when it left something out.
    pub fn left_out(&self, name: &str, to: Format) -> Option<String> {
        let [tags, comments, results, glyphs] = self.dropped;
        if !to.drops() || tags + comments + results + glyphs == 0 {
            return None;
        }
        Some(match to {
            Format::Csv => format!(
                "{name} cannot carry tags, comments before the first turn or results: left out \
                 {}, {} and {}",
                count(tags as u64, "tag"),
                count(comments as u64, "comment"),
                count(results as u64, "result"),
            ),
            _ => format!(
                "{name} cannot carry tags, comments, results, assessments or glyphs: left out \
                 {}, {}, {} and {glyphs} assessments and glyphs",
                count(tags as u64, "tag"),
                count(comments as u64, "comment"),
                count(results as u64, "result"),
            ),
        })
    }

    /// `gamerec: converted 12 of 13 games (1 invalid, 1 left out)`, with
    /// the repairs when read leniently.
    pub fn summary(&self, lenient: bool) -> String {
        let mut line = format!(
            "gamerec: converted {} of {} games ({} invalid",
            self.written, self.games, self.invalid
        );
        let left = self.games - self.written;
        if left > 0 {
            line.push_str(&format!(", {left} left out"));
        }
        if self.not_games > 0 {
            line.push_str(&format!(
                ", of which {} stretch{} of text that {} no game",
                self.not_games,
                if self.not_games == 1 { "" } else { "es" },
                if self.not_games == 1 { "is" } else { "are" }
            ));
        }
        line.push(')');
        if lenient {
            line.push_str(&format!("; {}", self.repaired.summary()));
        }
        line
    }
}

/// Converts every game of `sources` (read as `how` says) as `export` says
/// into `out`, telling `tell` what happens; gives the output back,
/// finished, with what was done. Errors writing the output end it.
pub fn run<W: Write + Send>(
    sources: &[Source],
    how: &How<'_>,
    export: Export,
    mut out: Framed<W>,
    tell: &mut dyn FnMut(ConvertEvent<'_>),
) -> io::Result<(W, Conversion)> {
    let trace = TraceOptions {
        syntax_only: export.syntax_only,
        branching: false,
        site: export.to.site().is_some(),
    };
    let mut tally = Conversion::default();
    let map = |v: Visit<'_, '_>| {
        let job = Job {
            to: export.to,
            trace,
            file: v.input,
            spreadsheet_safe: export.spreadsheet_safe,
        };
        convert_one(job, v.chunk, v.game, v.rules)
    };
    let each = |item: Item<'_, GameOut>| {
        let seen = match item.game() {
            Ok(seen) => seen,
            Err(input) => {
                tell(ConvertEvent::Input(input));
                return Ok(ControlFlow::Continue(()));
            }
        };
        let at = GameAt {
            input: seen.input,
            index: seen.index,
            chunk: seen.chunk,
            title: seen.value.title.as_deref(),
        };
        if judged(export, &mut tally, at, &seen.value, tell) {
            tally.written += 1;
            out.write(seen.input, seen.index, seen.value)?;
        }
        Ok(ControlFlow::Continue(()))
    };
    tally.read = inputs::read(sources, how, map, each)?;
    Ok((out.finish()?, tally))
}

/// Counts a converted game and tells its repairs and problem; whether it
/// is to be written (an invalid game is, up to its error, unless asked
/// otherwise; a game the format cannot carry is not).
fn judged(
    export: Export,
    tally: &mut Conversion,
    at: GameAt<'_>,
    game: &GameOut,
    tell: &mut dyn FnMut(ConvertEvent<'_>),
) -> bool {
    tally.games += 1;
    if !game.repairs.is_empty() {
        tally.repaired.add(&game.repairs);
        tell(ConvertEvent::Repaired(at, &game.repairs));
    }
    if let Some(p) = &game.error {
        tally.invalid += 1;
        tell(ConvertEvent::Invalid(at, p));
        if game.nothing_read {
            // Text between games (or no game at all): nothing to write.
            tally.not_games += 1;
            return false;
        }
        if export.skip_invalid {
            return false;
        }
    }
    if let Some(why) = export.to.left_out(game.game, at.index, game.carried) {
        tell(ConvertEvent::LeftOut(at.input, why));
        return false;
    }
    for (total, n) in tally.dropped.iter_mut().zip(game.dropped) {
        *total += n;
    }
    true
}
