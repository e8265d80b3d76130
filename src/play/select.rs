//! What selecting games (`gamerec filter`) asks of a replay: its verdict,
//! its length, whether it opens with given moves (compared in canonical
//! spelling) and whether a given position occurs in it — all in one pass
//! over the game as it is read.

use crate::base::problem::Problem;
use crate::envelope::record::{ReadGame, Span, TurnIn};
use crate::play::pattern::{Compiled, Pattern};
use crate::play::replay::{self, Outcome, Visitor};
use gamerec_rules::game::{Facts, Picture, Piece, Rules, Search};
use std::ops::ControlFlow;

/// What to look for besides the verdict.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// The opening's turns as the user wrote them (move numbers dropped).
    pub opening: Vec<String>,
    /// A position in the game's `Position` notation.
    pub reaches: Option<String>,
    /// A pattern some position of the game matches (`filter --pattern`).
    pub pattern: Option<Pattern>,
}

impl Probe {
    /// Reads `--opening`'s text: turns separated by white space, move
    /// numbers (`1.`, `1...`) left out.
    pub fn opening_turns(text: &str) -> Vec<String> {
        text.split_whitespace()
            .filter(|t| {
                let digits = t.trim_end_matches('.');
                !(t.ends_with('.')
                    && !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit()))
            })
            .map(String::from)
            .collect()
    }
}

/// What [`examine`] found.
#[derive(Clone, Debug, Default)]
pub struct Examined {
    /// Plies played legally.
    pub plies: usize,
    /// The verdict of a valid game.
    pub outcome: Option<Outcome>,
    /// Why the game is invalid.
    pub error: Option<Problem>,
    /// The game starts with the probe's opening (always, for none).
    pub opens: bool,
    /// The probe's position occurs in the game (before any ply or after
    /// one); `false` when there is none or it cannot be read.
    pub reaches: bool,
    /// The first ply after which the probe's pattern matches (0: the
    /// start); `None` when it never does, or there is none.
    pub pattern_at: Option<usize>,
    /// Why no position of this game can match the pattern (a cell, a piece
    /// or a side it does not have).
    pub pattern_misfit: Option<String>,
    /// The game's extent in its input.
    pub span: Span,
}

/// The visitor behind [`examine`].
struct Look<'p, G: Rules> {
    /// The pattern for this game's board (made at the first position;
    /// why not, when it cannot match this game), the pieces' buffer, and
    /// where it first matched.
    pattern: Option<Result<Compiled, String>>,
    pieces: Vec<Piece>,
    pattern_at: Option<usize>,
    probe: &'p Probe,
    /// The opening's turns matched so far; `None` once one did not.
    matched: Option<usize>,
    /// What the opening's turn at the ply being read may mean, in the
    /// standard labels (`None`: it names no move there).
    expect: Option<Vec<String>>,
    /// The probe's position in canonical spelling, and its key (`None`:
    /// no probe, or it cannot be read): a position's key is compared first
    /// (a word, where writing the position costs a string), its notation
    /// when the keys agree.
    target: Option<(String, u64)>,
    reached: bool,
    seen_start: bool,
    _game: std::marker::PhantomData<G>,
}

impl<G: Facts + Picture + Search> Look<'_, G> {
    fn check_position(&mut self, ply: usize, pos: &G::Position) {
        self.check_pattern(ply, pos);
        if let Some((t, key)) = &self.target {
            if !self.reached && G::notation_key(pos) == *key && G::write_position(pos) == *t {
                self.reached = true;
            }
        }
    }

    /// Looks for the pattern at the position after `ply` plies, until it
    /// matches once.
    fn check_pattern(&mut self, ply: usize, pos: &G::Position) {
        let Some(pattern) = &self.probe.pattern else {
            return;
        };
        if self.pattern_at.is_some() {
            return;
        }
        let compiled = self
            .pattern
            .get_or_insert_with(|| pattern.compile::<G>(&G::board(pos)));
        if let Ok(c) = compiled {
            self.pieces.clear();
            G::pieces(pos, &mut self.pieces);
            if c.holds(&self.pieces) {
                self.pattern_at = Some(ply);
            }
        }
    }
}

impl<G: Facts + Picture + Search> Visitor<G> for Look<'_, G> {
    fn before_ply(&mut self, ply: usize, pos: &G::Position) -> ControlFlow<()> {
        if !std::mem::replace(&mut self.seen_start, true) {
            self.check_position(0, pos);
        }
        self.expect = None;
        if let (Some(k), Some(turn)) = (self.matched, self.probe.opening.get(ply - 1)) {
            debug_assert_eq!(k, ply - 1);
            self.expect = Some(G::readings(pos, turn)).filter(|r| !r.is_empty());
            if self.expect.is_none() {
                self.matched = None;
            }
        }
        ControlFlow::Continue(())
    }

    fn after_ply(&mut self, ply: usize, _: &TurnIn<'_>, mv: &G::Move, after: &G::Position) {
        if let (Some(_), Some(expect)) = (self.matched, self.expect.take()) {
            let mut played = String::new();
            G::spell_standard(mv, &mut played);
            self.matched = expect.contains(&played).then_some(ply);
        }
        self.check_position(ply, after);
    }

    fn end(&mut self, pos: &G::Position) {
        if !self.seen_start {
            self.seen_start = true;
            self.check_position(0, pos);
        }
    }
}

/// Replays a game as it is read, judging it and looking for what `probe`
/// asks.
pub fn examine<G: Facts + Picture + Search>(
    game: &mut dyn ReadGame<'_>,
    probe: &Probe,
) -> Examined {
    // The position is read under the game's own settings (Iqishiqi's
    // `Coords` say how its cells are named).
    let target = probe.reaches.as_deref().and_then(|p| {
        let mut tags: Vec<crate::envelope::record::Tag> = game
            .tags()
            .iter()
            .filter(|t| G::SETTINGS.contains(&&*t.name))
            .cloned()
            .collect();
        tags.push(crate::envelope::record::Tag::unplaced("Position", p));
        G::start(&tags)
            .ok()
            .map(|p| (G::write_position(&p), G::notation_key(&p)))
    });
    let mut look = Look::<G> {
        probe,
        matched: Some(0),
        expect: None,
        target,
        reached: false,
        seen_start: false,
        pattern: None,
        pieces: Vec::new(),
        pattern_at: None,
        _game: std::marker::PhantomData,
    };
    let (report, _, end) = replay::replay_game::<G, _>(game, &mut look);
    let error = replay::earliest(end.error, report.error);
    let outcome = report.outcome.filter(|_| error.is_none());
    Examined {
        plies: report.plies,
        outcome,
        opens: look.matched.is_some_and(|k| k >= probe.opening.len()),
        reaches: look.reached,
        pattern_at: look.pattern_at,
        pattern_misfit: look.pattern.and_then(Result::err),
        error,
        span: end.span,
    }
}

#[cfg(test)]
mod tests {
    use super::Probe;

    #[test]
    fn opening_turns_leave_move_numbers_out() {
        assert_eq!(
            Probe::opening_turns("1. e3-e5 e7-e6 2... c2-c5  d4"),
            ["e3-e5", "e7-e6", "c2-c5", "d4"]
        );
        // A Garden Gate prefix is part of its turn.
        assert_eq!(Probe::opening_turns("0H.L(0,-6)"), ["0H.L(0,-6)"]);
    }
}

/// What makes two games the same for `dedup`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SameBy {
    /// The same rules, settings and start, and the same moves.
    Moves,
    /// The same rules and settings, and the same final position (with the
    /// side to move).
    FinalPosition,
}

/// Builds a game's key as it is replayed.
struct Keying<G: Rules> {
    key: Vec<u8>,
    /// A move's spelling (reused: no allocation a move).
    spelled: String,
    /// The position before the ply being read (kept with `clone_from`).
    before: Option<G::Position>,
    by: SameBy,
    started: bool,
}

impl<G: Facts> Keying<G> {
    fn start(&mut self, pos: &G::Position) {
        if !std::mem::replace(&mut self.started, true) && self.by == SameBy::Moves {
            self.key
                .extend_from_slice(G::standard_position(pos).as_bytes());
            self.key.push(0);
        }
    }
}

impl<G: Facts> Visitor<G> for Keying<G> {
    fn before_ply(&mut self, _: usize, pos: &G::Position) -> ControlFlow<()> {
        self.start(pos);
        if self.by == SameBy::Moves {
            match &mut self.before {
                Some(b) => b.clone_from(pos),
                None => self.before = Some(pos.clone()),
            }
        }
        ControlFlow::Continue(())
    }

    fn after_ply(&mut self, _: usize, _: &TurnIn<'_>, mv: &G::Move, after: &G::Position) {
        if let (SameBy::Moves, Some(before)) = (self.by, &self.before) {
            self.spelled.clear();
            G::write_standard(before, mv, after, &mut self.spelled);
            self.key.extend_from_slice(self.spelled.as_bytes());
            self.key.push(b' ');
        }
    }

    fn end(&mut self, pos: &G::Position) {
        self.start(pos);
        if self.by == SameBy::FinalPosition {
            self.key
                .extend_from_slice(G::standard_position(pos).as_bytes());
        }
    }
}

/// The key two games share exactly when they are the same game `by` this
/// measure: the rules' name, the values of their settings tags
/// ([`Rules::SETTINGS`], less those that only name cells:
/// [`Facts::NAMING`]), then the start position and every move in the
/// standard spelling ([`Facts::write_standard`]), or the final position
/// ([`Facts::standard_position`]). Tags, comments, move numbers, spellings
/// and label schemes play no part. `None` for a game whose envelope or
/// moves cannot be read to the end (it is the same as no other game).
pub fn key<G: Facts>(game: &mut dyn ReadGame<'_>, by: SameBy) -> Option<Vec<u8>> {
    let mut key = Vec::with_capacity(64);
    key.extend_from_slice(G::NAME.as_bytes());
    key.push(0);
    for name in G::SETTINGS.iter().filter(|s| !G::NAMING.contains(s)) {
        if let Some(v) = gamerec_rules::game::tag_value(game.tags(), name) {
            key.extend_from_slice(name.as_bytes());
            key.push(b'=');
            key.extend_from_slice(v.trim().as_bytes());
        }
        key.push(0);
    }
    let mut keying = Keying::<G> {
        key,
        spelled: String::with_capacity(16),
        before: None,
        by,
        started: false,
    };
    let start = game.start();
    let (tags, turns) = game.parts();
    let played = replay::play_turns::<G, _>(tags, start, turns, &mut keying);
    let end = game.finish();
    (played.error.is_none() && end.error.is_none()).then_some(keying.key)
}
