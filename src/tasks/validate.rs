//! `validate`'s library side: every game of an input validated
//! ([`validate`]), a game's report as JSON ([`JsonGame`],
//! notation/validate-json.md), its outcome in words ([`outcome_line`]), and
//! the tally and the closing summary ([`Validated`]) — what the command line
//! prints and the Python package returns. Reading a game and judging it
//! is `io::reading`'s.

use crate::envelope::record::Chunk;
use crate::io::diagnostics::{escape, place, JsonError, JsonRepair, Repaired};
use crate::io::formats::{self, Cx, Format, Visit};
use crate::io::reading::{self, EnvelopeCounts, GameReport, Judging, Options};
use crate::play::replay::Outcome;
use serde::Serialize;
use std::io::{self, BufRead};
use std::ops::ControlFlow;
use std::time::Duration;

/// Validates every game of `input` (the record format) with the default
/// options, calling `each` with the chunk each came from and its report
/// (its index filled in), in input order, replayed on one thread per core;
/// an input with no game is one report saying so. Returns the number of
/// games.
pub fn validate<R: BufRead + Send>(
    input: R,
    each: &mut dyn FnMut(&Chunk, GameReport) -> io::Result<()>,
) -> io::Result<usize> {
    let opts = Options {
        turns_only: true,
        judging: Some(Judging::Replay),
        ..Options::default()
    };
    let cx = Cx {
        input: "<input>",
        format: Format::Text,
        opts: &opts,
    };
    let mut games = 0;
    let nothing = Chunk::from_bytes(Vec::new());
    formats::read_mapped(
        input,
        cx,
        |v| judge(v, Judging::Replay, false).0,
        |chunk, mut report| {
            games += 1;
            report.index = Some(games);
            each(chunk.unwrap_or(&nothing), report)?;
            Ok(ControlFlow::Continue(()))
        },
    )?;
    if games == 0 {
        each(&nothing, GameReport::no_game(0))?;
    }
    Ok(games)
}

/// Judges one game as `judging` says (`titles`: a valid game gets its
/// title too): its report and what its envelope holds (counted with
/// [`Judging::Envelope`] only) — taken from the lean path where the game
/// was judged there, else read and judged now.
pub fn judge(v: Visit<'_, '_>, judging: Judging, titles: bool) -> (GameReport, EnvelopeCounts) {
    if let Some(judged) = v.judged {
        return (judged.report, judged.counts);
    }
    match judging {
        Judging::Envelope => reading::envelope(v.game, v.rules, titles),
        Judging::Replay => (
            reading::report(v.game, v.rules, titles),
            EnvelopeCounts::default(),
        ),
    }
}

/// One game's report as `validate --format json` writes it
/// (notation/validate-json.md); every front end builds it here.
#[derive(Serialize)]
pub struct JsonGame<'a> {
    pub file: &'a str,
    pub index: Option<usize>,
    pub game: Option<&'a str>,
    pub valid: bool,
    pub plies: usize,
    pub outcome: Option<&'a Outcome>,
    pub error: Option<JsonError<'a>>,
    /// With `--lenient` only: what was repaired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repairs: Option<Vec<JsonRepair<'a>>>,
}

impl<'a> JsonGame<'a> {
    /// The report of a game of input `file`, read from `chunk` (`None`
    /// for JSON); with its repairs when read leniently.
    pub fn new(
        file: &'a str,
        chunk: Option<&Chunk>,
        report: &'a GameReport,
        lenient: bool,
    ) -> JsonGame<'a> {
        JsonGame {
            file,
            index: report.index,
            game: report.game,
            valid: report.is_valid(),
            plies: report.plies,
            outcome: report.outcome.as_ref(),
            error: report.error.as_ref().map(|p| JsonError::new(chunk, p)),
            repairs: lenient.then(|| {
                let repairs = report.repairs.iter();
                repairs.map(|r| JsonRepair::new(chunk, r)).collect()
            }),
        }
    }
}

/// `1-0 (Red wins, points, ply 145)`; `unfinished after 12 plies`.
pub(crate) fn outcome_line(o: &Outcome) -> String {
    match (o.winner, o.reason) {
        (_, "unfinished") => format!("unfinished after {} plies", o.ply),
        (Some(w), reason) => format!("{} ({w} wins, {reason}, ply {})", o.result.as_str(), o.ply),
        (None, reason) => format!("{} (drawn, {reason}, ply {})", o.result.as_str(), o.ply),
    }
}

/// `validate -v`'s line for a valid game: `FILE: game 3 (…): 1-0 (…)`, or
/// `well-formed` when nothing was replayed; `None` for an invalid game.
pub fn verbose_line(name: &str, report: &GameReport) -> Option<String> {
    if report.error.is_some() {
        return None;
    }
    let what = match &report.outcome {
        Some(o) => outcome_line(o),
        None => "well-formed".to_string(),
    };
    let here = place(report.index, report.title.as_deref(), None);
    Some(format!("{}: {here}: {what}", escape(name)))
}

/// What validating found in all.
#[derive(Clone, Debug, Default)]
pub struct Validated {
    pub games: usize,
    pub valid: usize,
    pub invalid: usize,
    /// Inputs with no game.
    pub empty: usize,
    pub repaired: Repaired,
    /// What the games hold (`--syntax-only`).
    pub counts: EnvelopeCounts,
}

/// How a run ended, for its summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunEnd {
    /// Files read, and those with no game.
    pub files: usize,
    pub empty_files: usize,
    /// Only the envelopes were read (`--syntax-only`).
    pub syntax_only: bool,
    /// Games were repaired (`--lenient`).
    pub lenient: bool,
    /// Some input could not be read.
    pub unreadable: bool,
    /// The option that stopped the reading early (`fail-fast`,
    /// `max-errors`), if one did.
    pub stopped_by: Option<&'static str>,
    /// How long the run took, when it is to be said.
    pub elapsed: Option<Duration>,
}

impl Validated {
    /// Counts one game's report in; says whether it is valid.
    pub fn add(&mut self, report: &GameReport, counts: &EnvelopeCounts) -> bool {
        self.counts.add(counts);
        self.games += 1;
        self.repaired.add(&report.repairs);
        let valid = report.is_valid();
        match valid {
            true => self.valid += 1,
            false => self.invalid += 1,
        }
        valid
    }

    /// `3 files, 162 games: 49 valid, 113 invalid, 1 file with no game`.
    pub fn summary(&self, end: &RunEnd) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut line = format!(
            "{}, {}: {} {}, {} invalid",
            plural(end.files, "file", "files"),
            plural(self.games, "game", "games"),
            self.valid,
            if end.syntax_only {
                "well-formed"
            } else {
                "valid"
            },
            self.invalid
        );
        if end.empty_files > 0 {
            line.push_str(&format!(
                ", {} with no game",
                plural(end.empty_files, "file", "files")
            ));
        }
        if end.lenient {
            line.push_str(&format!("; {}", self.repaired.summary()));
        }
        if end.syntax_only {
            let c = &self.counts;
            line.push_str(&format!(
                "; read, nothing replayed: {}, {}, {}, {}, {}",
                plural(c.tags, "tag", "tags"),
                plural(c.turns, "turn", "turns"),
                plural(c.comments, "comment", "comments"),
                plural(c.glyphs, "glyph", "glyphs"),
                plural(c.results, "result", "results"),
            ));
        }
        if end.unreadable {
            line.push_str(", some input unreadable (see above)");
        }
        if let Some(by) = end.stopped_by {
            line.push_str(&format!(
                "; stopped after {} invalid (--{by}), the rest not read",
                self.invalid + self.empty
            ));
        }
        if let Some(t) = end.elapsed {
            line.push_str(&format!(" ({:.2} s)", t.as_secs_f64()));
        }
        line
    }
}
