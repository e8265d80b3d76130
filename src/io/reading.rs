//! What reading a game needs and what validating it finds, for every
//! format: how an input is read ([`Options`]), the rules a game asks for
//! (its `Game` tag, `--game`, or under `--lenient` the one game that
//! accepts it), a game's report ([`GameReport`], validated as it is
//! read), and the report as `validate --to json` writes it
//! ([`JsonGame`]). The readers themselves are the formats' (`formats`).

use crate::base::problem::{Code, Problem, Repair, RepairCode};
use crate::envelope::record::{
    title, Chunk, MovetextStyle, ReadGame, Record, Span, Tag, MAX_RECORD_BYTES,
};
use crate::play::lenient::Lenient;
use crate::play::replay::Outcome;
use crate::registry::{self, AnyGame};

/// What validating one game found.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based index of the game in its input; `None` for a problem with
    /// the input as a whole (an input with no game).
    pub index: Option<usize>,
    /// The rules used, when the `Game` tag named a known game.
    pub game: Option<&'static str>,
    /// `Round 3, Ana vs Ben`, from whatever tags are present: for an
    /// invalid game always, for a valid one when [`Options::titles`] asks.
    pub title: Option<String>,
    /// Plies played legally.
    pub plies: usize,
    pub outcome: Option<Outcome>,
    pub error: Option<Problem>,
    /// What `--lenient` repaired to read the game.
    pub repairs: Vec<Repair>,
}

impl GameReport {
    /// The report of an input that holds no game gamerec plays
    /// (`no-games`): none at all, or only `skipped` records of other
    /// games.
    pub fn no_game(skipped: usize) -> GameReport {
        GameReport {
            index: None,
            game: None,
            title: None,
            plies: 0,
            outcome: None,
            error: Some(no_games(skipped)),
            repairs: Vec::new(),
        }
    }

    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }
}

/// How an input is read.
#[derive(Clone, Copy, Default)]
pub struct Options {
    /// The rules for records without a `Game` tag (e.g. a bare Garden Gate
    /// move string).
    pub default_game: Option<&'static dyn AnyGame>,
    /// Give valid games their title too (for listing them).
    pub titles: bool,
    /// The games' comments are not needed (a replay that only judges):
    /// the record format is then read without looking ahead.
    pub turns_only: bool,
    /// `--lenient`: repair what can be repaired without guessing, and list
    /// every repair (each game is then read whole).
    pub lenient: Option<Lenient>,
    /// The most bytes of a Parquet input that is not a file on disk (piped,
    /// or compressed) spooled to a temporary file to be read (`None`:
    /// [`DEFAULT_MAX_SPOOL`]).
    pub max_spool: Option<u64>,
    /// How many threads replay games (0: one per core; 1: all on the
    /// calling thread).
    pub jobs: usize,
    /// The games are only judged, as this says (`validate`): a game of the
    /// record format is then read on the lean path where it can be, and
    /// handed on judged ([`Judged`], in the visit).
    pub judging: Option<Judging>,
}

/// What a judging command asks of each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judging {
    /// Replayed and its declared result judged (`validate`).
    Replay,
    /// Its envelope read and counted, nothing replayed (`validate
    /// --syntax-only`).
    Envelope,
}

/// A game judged on the lean path: its report (its index not yet known)
/// and what its envelope holds (counted with [`Judging::Envelope`] only).
#[derive(Clone, Debug)]
pub struct Judged {
    pub report: GameReport,
    pub counts: EnvelopeCounts,
}

/// The default cap on a spooled Parquet input: 1 GiB.
pub(crate) const DEFAULT_MAX_SPOOL: u64 = 1 << 30;

impl Options {
    /// How many threads replay games: [`Options::jobs`], one per core for 0.
    pub fn threads(&self) -> usize {
        crate::envelope::pipeline::threads(self.jobs)
    }

    /// The movetext style of a record, from its tags.
    pub fn style(&self, tags: &[Tag]) -> MovetextStyle {
        let named = tags
            .iter()
            .find(|t| t.name == "Game")
            .map(|t| registry::find(&t.value));
        match named {
            Some(rules) => rules,
            None => self.default_game,
        }
        .map(|r| r.style())
        .unwrap_or_default()
    }
}

/// The rules a record asks for with its `Game` tag, or the default.
pub(crate) fn rules_for(record: &Record, opts: &Options) -> Result<&'static dyn AnyGame, Problem> {
    let first = record.turns.first().map(|t| (t.span, t.text.as_str()));
    rules_of(&record.tags, first, record.span.start, opts)
}

/// The rules a game being read asks for with its `Game` tag, or the
/// default.
pub(crate) fn rules_for_game(
    game: &mut dyn ReadGame<'_>,
    opts: &Options,
) -> Result<&'static dyn AnyGame, Problem> {
    let start = game.start();
    // The first turn is looked at only for a game with no Game tag.
    let named = game.tags().iter().any(|t| t.name == "Game") || opts.default_game.is_some();
    if named {
        return rules_of(game.tags(), None, start, opts);
    }
    let first = game
        .peek_turn()
        .map(|(span, text)| (span, text.to_string()));
    rules_of(
        game.tags(),
        first.as_ref().map(|(s, t)| (*s, t.as_str())),
        start,
        opts,
    )
}

/// The rules `tags` name; `first`: the first turn (for placing and
/// explaining a missing `Game` tag); `start`: where the game starts.
pub(crate) fn rules_of(
    tags: &[Tag],
    first: Option<(Span, &str)>,
    start: usize,
    opts: &Options,
) -> Result<&'static dyn AnyGame, Problem> {
    let game = tags.iter().find(|t| t.name == "Game");
    if let (None, Some(default)) = (game, opts.default_game) {
        return Ok(default);
    }
    match game {
        Some(tag) => registry::find(&tag.value).ok_or_else(|| {
            Problem::new(
                Code::UnknownGame,
                format!(
                    "unknown game `{}`: the Game tag names one of {}",
                    tag.value,
                    registry::names().join(", ")
                ),
                tag.value_span,
            )
            .with_token(tag.value.clone())
        }),
        None => {
            let span = tags
                .first()
                .map(|t| t.span)
                .or(first.map(|(span, _)| span))
                .unwrap_or(Span::new(start, start));
            let mut p = Problem::new(
                Code::MissingGame,
                format!(
                    "this game has no [Game \"…\"] tag, which names its rules ({})",
                    registry::names().join(", ")
                ),
                span,
            );
            // The games whose notation reads the first turn, or an example.
            let readers: Vec<String> = registry::GAMES
                .iter()
                .filter(|g| first.is_some_and(|(_, text)| g.reads_turn(tags, text)))
                .map(|g| format!("`--game {}`", g.name()))
                .collect();
            let example = match readers.as_slice() {
                [] => registry::sites().next().map_or(String::new(), |s| {
                    format!(
                        ", e.g. `--game {}` for bare move strings like `{}`",
                        s.game().name(),
                        s.format().example
                    )
                }),
                some => format!("; these moves read as {}", some.join(" or ")),
            };
            p.notes.push(format!(
                "`--game GAME` gives the rules of records without a Game tag{example}"
            ));
            Err(p)
        }
    }
}

/// `--lenient`: the rules of a record read whole, repairing it under them
/// (`error`: its envelope's problem, when one remains: then nothing more
/// is repaired). A record without a `Game` tag (and no `--game`) is given
/// the one game whose move notation and rules accept every turn — none
/// when several do. `renumbered`: see [`crate::envelope::record::Leniently`].
pub fn repaired(
    record: &mut Record,
    error: Option<&Problem>,
    opts: &Options,
    repairs: &mut Vec<Repair>,
    renumbered: &[usize],
) -> Result<&'static dyn AnyGame, Problem> {
    let rules = rules_for(record, opts);
    let Some(lenient) = opts.lenient.filter(|_| error.is_none()) else {
        return rules;
    };
    let rules = match rules {
        Err(p) if p.code == Code::MissingGame => guess_game(record, repairs).map_err(|why| {
            let mut p = p;
            p.notes.push(why);
            p
        }),
        other => other,
    };
    if let Ok(game) = rules {
        game.repair(record, lenient, repairs, renumbered);
    }
    // In the order they stand in the input.
    repairs.sort_by_key(|r| r.span.start);
    rules
}

/// The one game whose move notation and rules accept every turn of
/// `record` (move numbers aside, the declared result aside), its `Game`
/// tag added; or why there is none.
fn guess_game(
    record: &mut Record,
    repairs: &mut Vec<Repair>,
) -> Result<&'static dyn AnyGame, String> {
    let at = Span::new(record.span.start, record.span.start);
    let game_tag = |name: &str| Tag {
        name: "Game".into(),
        value: name.into(),
        span: at,
        value_span: at,
    };
    let mut probe = record.clone();
    for t in &mut probe.turns {
        t.number = None;
    }
    probe.tags.insert(0, game_tag(""));
    let accepting: Vec<&'static dyn AnyGame> = registry::GAMES
        .iter()
        .copied()
        .filter(|g| {
            probe.tags[0].value = g.name().into();
            let replay = g.replay(&probe);
            replay.plies == probe.turns.len()
                && replay
                    .error
                    .is_none_or(|e| e.ply.is_none() && e.code != Code::BadSetup)
        })
        .collect();
    match accepting.as_slice() {
        [one] => {
            record.tags.insert(0, game_tag(one.name()));
            repairs.push(Repair::new(
                RepairCode::GameTag,
                format!(
                    "no Game tag: {} is the one game whose rules accept every turn",
                    one.title()
                ),
                at,
                "",
                format!("[Game \"{}\"]", one.name()),
            ));
            Ok(*one)
        }
        [] => Err("--lenient: no game's rules accept every turn".into()),
        some => Err(format!(
            "--lenient: the rules of {} all accept every turn; `--game` says which",
            some.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// Validates a game as it is read, under `rules` (or reports why it has
/// none); `titles`: give a valid game its title too. A game read only in
/// part is replayed as far as it was read (its legal plies count); the
/// envelope's problem comes first.
pub fn report(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    titles: bool,
) -> GameReport {
    let mut report = begun(game, &rules);
    let end = match &rules {
        Ok(rules) => {
            let (replay, end) = rules.replay_game(game);
            report.plies = replay.plies;
            report.outcome = replay.outcome;
            report.error = replay.error;
            end
        }
        Err(_) => game.finish(),
    };
    let sides = rules.as_ref().map_or(["", ""], |r| r.sides());
    if let Some(p) = end.error.or(rules.err()) {
        report.outcome = None;
        report.error = Some(p);
    }
    entitle(&mut report, game, sides, titles);
    report
}

/// A game's report before anything is found in it: its rules and its
/// repairs.
fn begun(game: &dyn ReadGame<'_>, rules: &Result<&'static dyn AnyGame, Problem>) -> GameReport {
    GameReport {
        index: None,
        game: rules.as_ref().ok().map(|r| r.name()),
        title: None,
        plies: 0,
        outcome: None,
        error: None,
        repairs: game.repairs().to_vec(),
    }
}

/// Gives a report its game's title where one is shown: with a problem or
/// a repair, and for every game when `titles`.
fn entitle(report: &mut GameReport, game: &dyn ReadGame<'_>, sides: [&str; 2], titles: bool) {
    if report.error.is_some() || titles || !report.repairs.is_empty() {
        report.title = title(game.tags(), sides);
    }
}

/// What a game's envelope holds, counted as it is read (`validate
/// --syntax-only`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnvelopeCounts {
    pub tags: usize,
    pub turns: usize,
    /// Comments anywhere in the movetext.
    pub comments: usize,
    /// Assessments (`!?`) and numeric annotation glyphs (`$N`).
    pub glyphs: usize,
    /// Result tokens (`1-0`, `*`…): one per game that ends with one.
    pub results: usize,
}

impl EnvelopeCounts {
    pub fn add(&mut self, other: &EnvelopeCounts) {
        self.tags += other.tags;
        self.turns += other.turns;
        self.comments += other.comments;
        self.glyphs += other.glyphs;
        self.results += other.results;
    }
}

/// Reads a game's envelope to its end, replaying nothing: its problem
/// (the envelope's, else why it has no rules) and what it holds, counted.
/// `titles`: give a well-formed game its title too.
pub fn envelope(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    titles: bool,
) -> (GameReport, EnvelopeCounts) {
    let mut counts = EnvelopeCounts {
        tags: game.tags().len(),
        comments: game.leading().len(),
        ..EnvelopeCounts::default()
    };
    while let Some(turn) = game.next_turn() {
        counts.turns += 1;
        counts.comments += turn.comments.len();
        counts.glyphs += turn.nags.len() + usize::from(turn.assessment.is_some());
    }
    let end = game.finish();
    counts.results = usize::from(end.result.is_some());
    let sides = rules.as_ref().map_or(["", ""], |r| r.sides());
    let mut report = begun(game, &rules);
    report.error = end.error.or(rules.err());
    entitle(&mut report, game, sides, titles);
    (report, counts)
}

/// The problem of an input with no game gamerec plays: none at all, or
/// only `skipped` records of games it does not play.
pub fn no_games(skipped: usize) -> Problem {
    let message = match skipped {
        0 => "no game here: the input is empty or holds only white space".to_string(),
        1 => "no game here that gamerec plays: its one record is of another game".to_string(),
        n => format!("no game here that gamerec plays: its {n} records are of other games"),
    };
    Problem::new(Code::NoGames, message, Span::new(0, 0))
}

/// The problem of a record longer than [`MAX_RECORD_BYTES`] (a truncated
/// chunk).
pub fn too_large(chunk: &Chunk) -> Problem {
    let at = chunk.offset;
    Problem::new(
        Code::RecordTooLarge,
        format!(
            "this game is longer than {} MiB; it is skipped",
            MAX_RECORD_BYTES >> 20
        ),
        Span::new(at, at + 1),
    )
}
