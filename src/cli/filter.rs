//! `gamerec filter`: select games by their rules, tags, players, result,
//! length, validity, opening or a position they reach. Matching games are
//! written as they were in the input (byte for byte for the record
//! format), or in any `convert` format; `--rest` takes the others.

use super::input::{expand, options, read_all_formats, InputArgs, Item, LenientArgs, Output};
use super::jobs::Jobs;
use super::messages;
use super::passthrough::{second, written, Sink, Tiler, Written};
use super::progress::Progress;
use gamerec::input::Format;
use gamerec::problem::{Problem, Repair};
use gamerec::record::{Chunk, ReadGame, RecordSource, ResultToken, Tag};
use gamerec::registry::AnyGame;
use gamerec::report::{repair_lines, Repaired};
use gamerec::select::{Examined, Probe};
use gamerec::target::To;
use regex::Regex;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(mut_arg("game", |a| a.long("only-game").alias("game").help("Only games of these \
rules (records without a Game tag get none here: they stay invalid, as validate says; `--game` \
is the same option)")))]
#[command(
    after_help = "Exit codes (grep's): 0 some game matched; 1 none did; 2 a usage or \
I/O error. Invalid games are not errors here: select them with --invalid."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    lenient: LenientArgs,
    /// A tag: `NAME=VALUE` (exactly that value) or `NAME~REGEX` (a regular
    /// expression found in the value); repeatable.
    #[arg(long, value_name = "NAME=VALUE|NAME~REGEX")]
    tag: Vec<String>,
    /// A player, on either side (the value of either side's tag, ignoring
    /// case); repeatable.
    #[arg(long, value_name = "NAME")]
    player: Vec<String>,
    /// Who won: `first`, `second`, a side's name (`Red`, `Host`…), `draw`,
    /// or `none` (unfinished). Only valid games have a winner.
    #[arg(long, value_name = "WHO")]
    winner: Option<String>,
    /// How the game ended: a reason code (`points`, `home`,
    /// `lotus-captured`, `edge`, `corner`, `roshi`, `agreement`,
    /// `resignation`, `unfinished`… see notation/filter.md) or its first
    /// word (`lotus`).
    #[arg(long, value_name = "R")]
    reason: Option<String>,
    /// At least this many plies (legal ones).
    #[arg(long, value_name = "N")]
    min_plies: Option<usize>,
    /// At most this many plies.
    #[arg(long, value_name = "N")]
    max_plies: Option<usize>,
    /// Valid games only.
    #[arg(long, conflicts_with = "invalid")]
    valid: bool,
    /// Invalid games only.
    #[arg(long)]
    invalid: bool,
    /// The game starts with these turns (`"1. e3-e5 e7-e6"`; move numbers
    /// optional), compared in canonical spelling.
    #[arg(long, value_name = "MOVES")]
    opening: Option<String>,
    /// This position (the game's Position notation) occurs in the game: at
    /// its start or after any ply.
    #[arg(long, value_name = "POSITION")]
    reaches: Option<String>,
    /// A game matches when any criterion holds (default: all of them).
    #[arg(long)]
    any: bool,
    /// Write the matching games in this format instead of as they were
    /// (text, json, jsonl, csv or a site's format, as for convert).
    #[arg(long, visible_alias = "format", value_name = "FORMAT", value_parser = super::options::to_values())]
    to: Option<String>,
    /// Print only how many games matched.
    #[arg(long, conflicts_with_all = ["to", "output"])]
    count: bool,
    /// Write the games that do not match to FILE (the same format).
    #[arg(long, value_name = "FILE")]
    rest: Option<PathBuf>,
    /// Write here instead of standard output (through a temporary file,
    /// never over an input).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    jobs: Jobs,
    /// No progress bar, no closing note.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// `--tag`.
enum TagTest {
    Is(String, String),
    Matches(String, Regex),
}

impl TagTest {
    fn parse(text: &str) -> Result<TagTest, String> {
        let at = text
            .find(['=', '~'])
            .ok_or_else(|| format!("--tag {text}: write NAME=VALUE or NAME~REGEX"))?;
        let (name, value) = (text[..at].to_string(), &text[at + 1..]);
        if name.is_empty() {
            return Err(format!("--tag {text}: the tag's name is missing"));
        }
        Ok(match &text[at..=at] {
            "=" => TagTest::Is(name, value.to_string()),
            _ => TagTest::Matches(
                name,
                Regex::new(value).map_err(|e| format!("--tag {text}: {e}"))?,
            ),
        })
    }

    fn holds(&self, tags: &[Tag]) -> bool {
        let (name, test) = match self {
            TagTest::Is(n, _) | TagTest::Matches(n, _) => (n, self),
        };
        tags.iter().any(|t| {
            *t.name == **name
                && match test {
                    TagTest::Is(_, v) => *t.value == **v,
                    TagTest::Matches(_, re) => re.is_match(&t.value),
                }
        })
    }
}

/// Every criterion of the command line.
struct Criteria {
    game: Option<&'static dyn AnyGame>,
    tags: Vec<TagTest>,
    players: Vec<String>,
    winner: Option<String>,
    reason: Option<String>,
    min_plies: Option<usize>,
    max_plies: Option<usize>,
    valid: bool,
    invalid: bool,
    opening: bool,
    reaches: bool,
    any: bool,
}

impl Criteria {
    fn holds(&self, rules: Option<&'static dyn AnyGame>, tags: &[Tag], ex: &Examined) -> bool {
        let mut checks = Vec::new();
        if let Some(g) = self.game {
            checks.push(rules.is_some_and(|r| r.name() == g.name()));
        }
        checks.extend(self.tags.iter().map(|t| t.holds(tags)));
        for p in &self.players {
            let sides = rules.map_or(["", ""], |r| r.sides());
            checks.push(tags.iter().any(|t| {
                sides.contains(&&*t.name) && t.value.trim().eq_ignore_ascii_case(p.trim())
            }));
        }
        if let Some(w) = &self.winner {
            checks.push(ex.outcome.as_ref().is_some_and(
                |o| match w.to_ascii_lowercase().as_str() {
                    "first" => o.result == ResultToken::FirstWins,
                    "second" => o.result == ResultToken::SecondWins,
                    "draw" => o.result == ResultToken::Draw,
                    "none" => o.result == ResultToken::Unknown,
                    side => o.winner.is_some_and(|s| s.eq_ignore_ascii_case(side)),
                },
            ));
        }
        if let Some(r) = &self.reason {
            checks.push(
                ex.outcome.as_ref().is_some_and(|o| {
                    o.reason == r || o.reason.split('-').next() == Some(r.as_str())
                }),
            );
        }
        if let Some(n) = self.min_plies {
            checks.push(ex.plies >= n);
        }
        if let Some(n) = self.max_plies {
            checks.push(ex.plies <= n);
        }
        if self.valid {
            checks.push(ex.error.is_none());
        }
        if self.invalid {
            checks.push(ex.error.is_some());
        }
        if self.opening {
            checks.push(ex.opens);
        }
        if self.reaches {
            checks.push(ex.reaches);
        }
        match self.any {
            true => checks.is_empty() || checks.iter().any(|&c| c),
            false => checks.iter().all(|&c| c),
        }
    }
}

/// One game, selected (or not) on a worker thread, with its output.
struct Picked {
    matched: bool,
    /// The game in the output format (`None`: not wanted).
    out: Option<Written>,
    /// What `--lenient` repaired, and the game's title (to say so).
    repairs: Vec<Repair>,
    title: Option<String>,
}

/// What the options select, checked: the output format, what to look for
/// while a game is replayed, and the criteria a game must meet; `None`
/// when an option is wrong (said).
/// What `map` needs to pick a game, on any thread.
struct Picker<'a> {
    probe: &'a Probe,
    criteria: &'a Criteria,
    to: Option<To>,
    /// Whether matching games (`-o`) and the rest (`--rest`) are written.
    want_out: bool,
    want_rest: bool,
}

impl Picker<'_> {
    /// Judges a game as it is read: whether it matches, and (when it goes
    /// to an output) the form it is written in.
    fn pick(
        &self,
        file: &str,
        format: Format,
        chunk: Option<&Chunk>,
        game: &mut dyn ReadGame<'_>,
        rules: Result<&'static dyn AnyGame, Problem>,
    ) -> Picked {
        let repairs = game.repairs().to_vec();
        let parsed = game.record();
        let record = &parsed.record;
        let known = rules.as_ref().ok().copied();
        let title = (!repairs.is_empty())
            .then(|| record.title(known.map_or(["", ""], |r| r.sides())))
            .flatten();
        let examined = match known {
            Some(r) => r.examine(
                &mut RecordSource::new(record, parsed.error.clone()),
                self.probe,
            ),
            None => Examined {
                error: rules.as_ref().err().cloned(),
                span: record.span,
                ..Examined::default()
            },
        };
        let matched = self.criteria.holds(known, &record.tags, &examined);
        let wanted = if matched {
            self.want_out
        } else {
            self.want_rest
        };
        let out = wanted.then(|| written(file, format, chunk, &parsed, rules, self.to));
        Picked {
            matched,
            out,
            repairs,
            title,
        }
    }
}

fn selection(args: &Args) -> Option<(Option<To>, Probe, Criteria)> {
    let to = match args.to.as_deref().map(To::named) {
        None => None,
        Some(Some(to)) => Some(to),
        Some(None) => {
            messages::error("no such output format");
            return None;
        }
    };
    let tags: Result<Vec<TagTest>, String> = args.tag.iter().map(|t| TagTest::parse(t)).collect();
    let tags = match tags {
        Ok(t) => t,
        Err(e) => {
            messages::error(e);
            return None;
        }
    };
    if let Some(w) = &args.winner {
        let sides = gamerec::registry::GAMES.iter().flat_map(|g| g.sides());
        let known = ["first", "second", "draw", "none"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
            || sides.into_iter().any(|s| w.eq_ignore_ascii_case(s));
        if !known {
            messages::error(format!(
                "--winner {w}: one of first, second, draw, none or a side's name"
            ));
            return None;
        }
    }
    // `--game` selects here: it does not give rules to records without a
    // Game tag (they stay invalid, as validate says).
    let game = match args.input.game.as_deref() {
        None => None,
        Some(name) => match gamerec::registry::find(name) {
            Some(g) => Some(g),
            None => {
                messages::error(format!(
                    "unknown game `{name}`: one of {}",
                    gamerec::registry::names().join(", ")
                ));
                return None;
            }
        },
    };
    let probe = Probe {
        opening: args
            .opening
            .as_deref()
            .map(Probe::opening_turns)
            .unwrap_or_default(),
        reaches: args.reaches.clone(),
    };
    let criteria = Criteria {
        game,
        tags,
        players: args.player.clone(),
        winner: args.winner.clone(),
        reason: args.reason.clone(),
        min_plies: args.min_plies,
        max_plies: args.max_plies,
        valid: args.valid,
        invalid: args.invalid,
        opening: args.opening.is_some(),
        reaches: args.reaches.is_some(),
        any: args.any,
    };
    Some((to, probe, criteria))
}

pub fn run(args: Args) {
    let Some((to, probe, criteria)) = selection(&args) else {
        return;
    };
    let Some(opts) = options(None) else {
        return;
    };
    let opts = args.lenient.apply(opts);
    args.jobs.init();
    let output = Output::new(args.output.as_deref());
    let Some(sources) = expand(&args.input.paths, args.input.all, &output) else {
        return;
    };
    let mut out = match args.count {
        true => None,
        false => match Sink::open(to, &output) {
            Some(s) => Some(s),
            None => return,
        },
    };
    let Ok(mut rest) = second(args.rest.as_deref(), &output, &sources, to) else {
        return;
    };
    let progress = Progress::for_sources(&sources, args.quiet || output.is_terminal());
    let picker = Picker {
        probe: &probe,
        criteria: &criteria,
        to,
        want_out: out.is_some(),
        want_rest: rest.is_some(),
    };
    let map = |file: &str,
               format: Format,
               chunk: Option<&Chunk>,
               game: &mut dyn ReadGame<'_>,
               rules: Result<&'static dyn AnyGame, Problem>| {
        picker.pick(file, format, chunk, game, rules)
    };
    let mut repaired = Repaired::default();
    let (mut games, mut matched) = (0usize, 0usize);
    let mut index_in = (String::new(), 0usize);
    let mut tiler = Tiler::default();
    let each = |name: &str, item: Item<'_, Picked>| {
        let Item::Game(chunk, mut picked) = item else {
            return Ok(ControlFlow::Continue(()));
        };
        tiler.tile(name, chunk, &mut picked.out);
        if index_in.0 != name {
            index_in = (name.to_string(), 0);
        }
        index_in.1 += 1;
        games += 1;
        repaired.add(&picked.repairs);
        if !picked.repairs.is_empty() && !args.quiet {
            let (index, title) = (Some(index_in.1), picked.title.as_deref());
            messages::to_stderr(|err| {
                repair_lines(err, name, chunk, index, title, &picked.repairs)
            });
        }
        matched += usize::from(picked.matched);
        let sink = if picked.matched {
            out.as_mut()
        } else {
            rest.as_mut()
        };
        if let (Some(sink), Some(written)) = (sink, picked.out) {
            sink.write(name, index_in.1, written, chunk, None)?;
        }
        Ok(ControlFlow::Continue(()))
    };
    let read = read_all_formats(sources, &args.input, &opts, &progress, map, each);
    progress.finish();
    let written = read
        .map(|_| ())
        .and_then(|()| out.map_or(Ok(()), Sink::finish))
        .and_then(|()| rest.map_or(Ok(()), Sink::finish));
    finish(&args, written, matched, games, &repaired);
}

/// Says how the run went: the count (`--count`), the error if any, the
/// matches (exit code 1 when none: an empty input or an invalid game is no
/// error here).
fn finish(args: &Args, written: io::Result<()>, matched: usize, games: usize, repaired: &Repaired) {
    let mut result = written;
    if args.count {
        result = result.and_then(|()| {
            let mut stdout = io::stdout().lock();
            writeln!(stdout, "{matched}").and_then(|()| stdout.flush())
        });
    }
    messages::finished(result);
    messages::set_not_found(matched == 0);
    if !args.quiet && !args.count {
        let repaired = match args.lenient.on() {
            true => format!("; {}", repaired.summary()),
            false => String::new(),
        };
        messages::say(format!(
            "gamerec: {matched} of {games} games matched{repaired}"
        ));
    }
}
