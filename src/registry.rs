//! The registry: the one list of the games gamerec knows, and the
//! object-safe face ([`AnyGame`]) through which the command line and the
//! archive readers use a game picked by name. It sits on top of the
//! library's game layers: each method here calls the generic replay,
//! conversion, generation or perft for its game. Adding a game is one line
//! in [`GAMES`] (and its folder under `src/games/`).

use crate::base::problem::{Problem, Repair};
use crate::envelope::record::{End, ReadGame, Record, Tag};
use crate::picture::{self, Replayed, Shown};
use crate::play::analysis::{self, Analysis, Best, Settings};
use crate::play::gen::{self, GenOptions};
use crate::play::lenient::{self, Lenient};
use crate::play::replay::{self, LegalMoves, PlyCount, Replay};
use crate::play::select::{self, Examined, Probe, SameBy};
use crate::play::sink::{self, Converted, GameSink, TraceOptions};
use crate::play::walk;
use gamerec_rules::game::{
    Facts, Game, MovetextStyle, Picture, Rules, Search, SiteFormat, SiteNotation, Stat,
};
use gamerec_rules::games::{iqishiqi, oshi, retsami, roshi, vagabond};
use gamerec_rules::perft::{self, Divided};
use std::marker::PhantomData;
use std::ops::ControlFlow;

/// Every game gamerec knows, in the order of the `stats` CSV's columns.
pub static GAMES: &[&dyn AnyGame] = &[
    &Registered::<oshi::Oshi>::new(),
    &Registered::<iqishiqi::Iqishiqi>::new().with_site(),
    &Registered::<retsami::Retsami>::new(),
    &Registered::<roshi::Roshi>::new(),
    &Registered::<vagabond::Vagabond>::new().with_site(),
];

/// A game as the generic machinery sees it: object-safe, one per game in
/// [`GAMES`].
pub trait AnyGame: Sync {
    /// The `Game` tag value.
    fn name(&self) -> &'static str;
    /// The game's name as people write it.
    fn title(&self) -> &'static str;
    /// Other names the `Game` tag may hold.
    fn aliases(&self) -> &'static [&'static str];
    /// The side tags, first-named side first.
    fn sides(&self) -> [&'static str; 2];
    /// The tags the game's settings are read from (`Rules::SETTINGS`).
    fn settings(&self) -> &'static [&'static str];
    /// How this game's movetext is tokenised.
    fn style(&self) -> MovetextStyle;
    /// Replays the record and judges its result (`validate`).
    fn replay(&self, record: &Record) -> Replay;
    /// Replays a game as it is read and judges its result; also says how
    /// its reading ended.
    fn replay_game(&self, game: &mut dyn ReadGame<'_>) -> (Replay, End);
    /// Replays a game as it is read and tells it to `sink` part by part
    /// (`convert`, `stats`).
    fn tell(&self, game: &mut dyn ReadGame<'_>, opts: TraceOptions, sink: &mut dyn GameSink);
    /// Replays the record and builds its converted form (`convert`,
    /// `stats`); `parse_error` is the envelope's own problem.
    fn convert(
        &self,
        index: usize,
        record: Record,
        parse_error: Option<Problem>,
        opts: TraceOptions,
    ) -> Converted;
    /// The position before ply `ply` (1-based) of a game as it is read, or
    /// after its last turn, and the legal turns there (canonical, sorted).
    fn legal_moves_at(
        &self,
        game: &mut dyn ReadGame<'_>,
        ply: Option<usize>,
    ) -> Result<LegalMoves, Problem>;
    /// The picture of the position before ply `ply` (1-based) of a game
    /// as it is read, or after its last turn (`show`).
    fn scene_at(&self, game: &mut dyn ReadGame<'_>, ply: Option<usize>) -> Shown;
    /// Every position of a game as it is read, for the viewer (`view`);
    /// the problem when its start cannot be set up.
    fn replayed(&self, game: &mut dyn ReadGame<'_>) -> Result<Replayed, Problem>;
    /// Replays a game as it is read for `filter`: its verdict, its length,
    /// and what `probe` looks for.
    fn examine(&self, game: &mut dyn ReadGame<'_>, probe: &Probe) -> Examined;
    /// The key two games share exactly when they are the same game
    /// (`dedup`); `None` when the game cannot be replayed to its end.
    fn key(&self, game: &mut dyn ReadGame<'_>, by: SameBy) -> Option<Vec<u8>>;
    /// Tells `each` the number of legal turns before every ply of a game as
    /// it is read that can be replayed; returns the problem that stopped
    /// it, if one did.
    fn legal_move_counts(
        &self,
        game: &mut dyn ReadGame<'_>,
        each: &mut dyn FnMut(PlyCount<'_>) -> ControlFlow<()>,
    ) -> Option<Problem>;
    /// Perft `depth` from the position before ply `ply` of a game as it is
    /// read (or after its last turn), divided by first move.
    fn perft(
        &self,
        game: &mut dyn ReadGame<'_>,
        ply: Option<usize>,
        depth: u32,
    ) -> Result<Divided, Problem>;
    /// [`perft::check_walk`] from `position` (the game's Position notation)
    /// or, when it is empty, the start; `None` when the position cannot be
    /// read.
    fn check_walk(
        &self,
        position: &str,
        choices: &[u8],
        every: bool,
    ) -> Option<Result<u64, String>>;
    /// `--lenient`: repairs a record read whole (its envelope read without
    /// problems) under this game's rules ([`lenient::repair`]).
    fn repair(
        &self,
        record: &mut Record,
        lenient: Lenient,
        repairs: &mut Vec<Repair>,
        renumbered: &[usize],
    );
    /// Whether the game's move notation reads `turn` as a game with these
    /// `tags` starts (for guessing the rules of a record without a `Game`
    /// tag).
    fn reads_turn(&self, tags: &[Tag], turn: &str) -> bool;
    /// The game's own statistics' columns.
    fn stats(&self) -> &'static [Stat];
    /// The game's site notation, if it has one.
    fn site(&self) -> Option<&'static dyn AnySite>;
    /// Game `index` (1-based) of `seed`: random legal turns (`gamerec gen`).
    fn generate(&self, seed: u64, index: u64, opts: &GenOptions) -> Converted;
    /// Every position played from in games `1..=games` of `seed`, for
    /// timing the move generator.
    fn sample_positions(&self, seed: u64, games: u64, opts: &GenOptions) -> Box<dyn Positions>;
    /// The exact search's default horizon for this game.
    fn default_depth(&self) -> u32;
    /// A game analysed as it is read (`gamerec analyse`).
    fn analyse(&self, game: &mut dyn ReadGame<'_>, settings: &Settings) -> Analysis;
    /// Walks a game as it is read for the opening explorer (`tree`, the
    /// viewer's panel): its result, and what it played at the positions
    /// `aim` names, within its first `depth` plies.
    fn walk(&self, game: &mut dyn ReadGame<'_>, aim: walk::Aim<'_>, depth: usize) -> walk::Walk;
    /// Replays a whole game as it is read, keying every position, for the
    /// position index (`gamerec index`).
    fn trace(&self, game: &mut dyn ReadGame<'_>) -> walk::Traced;
    /// The key ([`gamerec_rules::game::Search::notation_key`]) of a position
    /// written in this game's `Position` notation, read under these
    /// settings tags (Iqishiqi's `Coords` say how its cells are named), as
    /// `filter --reaches` reads it; why not, when it cannot be read.
    fn position_key(&self, settings: &[Tag], text: &str) -> Result<u64, String>;
    /// [`walk::line_target`] for this game.
    fn line_target(&self, tags: &[Tag], line: &[String]) -> walk::LineTarget;
    /// [`crate::play::pattern::first_match`] for this game.
    fn first_match(
        &self,
        pattern: &crate::play::pattern::Pattern,
        tags: &[Tag],
        turns: &str,
    ) -> Result<Option<usize>, String>;
    /// The proven best moves before ply `ply` (1-based) of a game as it is
    /// read, or after its last turn (`moves --best`).
    fn best_at(
        &self,
        game: &mut dyn ReadGame<'_>,
        ply: Option<usize>,
        settings: &Settings,
    ) -> Result<Best, Problem>;
}

/// A site notation as the generic machinery sees it.
pub trait AnySite: Sync {
    fn format(&self) -> SiteFormat;
    /// The game written in this notation.
    fn game(&self) -> &'static dyn AnyGame;
    /// Whether a game with these tags starts where a game read back from
    /// the site would: the standard start, with no setting the site cannot
    /// express.
    fn can_carry(&self, tags: &[Tag]) -> bool;
}

/// A set of positions of one game, for timing its move generator.
pub trait Positions {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Generates the legal moves of every position; returns how many there
    /// were in all.
    fn count_legal_moves(&mut self) -> usize;
}

/// Plugs a game into the registry: `Registered::<G>::new()`, and
/// `.with_site()` for a game with a site notation.
pub struct Registered<G: Game> {
    /// The game's site notation, when it is registered with one: the
    /// adapter, and the function the trace calls for each ply.
    site: Option<(&'static dyn AnySite, sink::SiteMove<G>)>,
}

impl<G: Game> Registered<G> {
    pub const fn new() -> Self {
        Registered { site: None }
    }
}

impl<G: Game> Default for Registered<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: SiteNotation> Registered<G> {
    /// The game's site notation ([`SiteNotation`]) is offered too.
    pub const fn with_site(self) -> Self {
        Registered {
            site: Some((SiteOf::<G>::ADAPTER, G::site_move)),
        }
    }
}

/// A game's site notation, registered.
struct SiteOf<G>(PhantomData<fn() -> G>);

impl<G: SiteNotation> SiteOf<G> {
    const ADAPTER: &'static dyn AnySite = &SiteOf::<G>(PhantomData);
}

impl<G: SiteNotation> AnySite for SiteOf<G> {
    fn format(&self) -> SiteFormat {
        G::SITE
    }

    fn game(&self) -> &'static dyn AnyGame {
        find(G::NAME).expect("a registered game's site is registered with it")
    }

    fn can_carry(&self, record_tags: &[Tag]) -> bool {
        let site_tags: Vec<Tag> = (G::SITE.tags.iter())
            .map(|(n, v)| Tag::unplaced(n, v))
            .collect();
        let mut tags: Vec<Tag> = record_tags
            .iter()
            .filter(|t| !G::SITE.tags.iter().any(|(n, _)| *n == t.name))
            .cloned()
            .collect();
        tags.extend(site_tags.iter().cloned());
        match (G::start(&tags), G::start(&site_tags)) {
            (Ok(a), Ok(b)) => G::write_position(&a) == G::write_position(&b),
            _ => false,
        }
    }
}

/// A game's positions, for [`AnyGame::sample_positions`].
struct PositionsOf<G: Rules> {
    positions: Vec<G::Position>,
}

impl<G: Rules> Positions for PositionsOf<G> {
    fn len(&self) -> usize {
        self.positions.len()
    }

    fn count_legal_moves(&mut self) -> usize {
        self.positions.iter().map(G::count_legal_moves).sum()
    }
}

impl<G: Facts + Picture + Search> AnyGame for Registered<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn aliases(&self) -> &'static [&'static str] {
        G::ALIASES
    }

    fn sides(&self) -> [&'static str; 2] {
        G::SIDES
    }

    fn settings(&self) -> &'static [&'static str] {
        G::SETTINGS
    }

    fn style(&self) -> MovetextStyle {
        G::STYLE
    }

    fn replay(&self, record: &Record) -> Replay {
        replay::replay::<G>(record)
    }

    fn replay_game(&self, game: &mut dyn ReadGame<'_>) -> (Replay, End) {
        let (replay, _, end) = replay::replay_game::<G, ()>(game, &mut ());
        (replay, end)
    }

    fn tell(&self, game: &mut dyn ReadGame<'_>, opts: TraceOptions, sink: &mut dyn GameSink) {
        let site_move = self.site.map(|(_, f)| f);
        sink::tell::<G>(game, opts, site_move, sink)
    }

    fn convert(
        &self,
        index: usize,
        record: Record,
        parse_error: Option<Problem>,
        opts: TraceOptions,
    ) -> Converted {
        let site_move = self.site.map(|(_, f)| f);
        sink::convert::<G>(index, record, parse_error, opts, site_move)
    }

    fn legal_moves_at(
        &self,
        game: &mut dyn ReadGame<'_>,
        ply: Option<usize>,
    ) -> Result<LegalMoves, Problem> {
        replay::legal_moves_at::<G>(game, ply)
    }

    fn scene_at(&self, game: &mut dyn ReadGame<'_>, ply: Option<usize>) -> Shown {
        picture::scene_at::<G>(game, ply)
    }

    fn replayed(&self, game: &mut dyn ReadGame<'_>) -> Result<Replayed, Problem> {
        picture::replayed::<G>(game)
    }

    fn examine(&self, game: &mut dyn ReadGame<'_>, probe: &Probe) -> Examined {
        select::examine::<G>(game, probe)
    }

    fn key(&self, game: &mut dyn ReadGame<'_>, by: SameBy) -> Option<Vec<u8>> {
        select::key::<G>(game, by)
    }

    fn legal_move_counts(
        &self,
        game: &mut dyn ReadGame<'_>,
        each: &mut dyn FnMut(PlyCount<'_>) -> ControlFlow<()>,
    ) -> Option<Problem> {
        replay::legal_move_counts::<G>(game, each)
    }

    fn perft(
        &self,
        game: &mut dyn ReadGame<'_>,
        ply: Option<usize>,
        depth: u32,
    ) -> Result<Divided, Problem> {
        replay::position_before::<G>(game, ply).map(|(p, _)| perft::divide::<G>(&p, depth))
    }

    fn check_walk(
        &self,
        position: &str,
        choices: &[u8],
        every: bool,
    ) -> Option<Result<u64, String>> {
        let start = match position {
            "" => G::start(&[]).ok()?,
            p => G::parse_position(p).ok()?,
        };
        Some(perft::check_walk::<G>(start, choices, every))
    }

    fn repair(
        &self,
        record: &mut Record,
        lenient: Lenient,
        repairs: &mut Vec<Repair>,
        renumbered: &[usize],
    ) {
        lenient::repair::<G>(record, lenient, repairs, renumbered)
    }

    fn reads_turn(&self, tags: &[Tag], turn: &str) -> bool {
        G::start(tags).is_ok_and(|start| G::parse_move(&start, turn).is_ok())
    }

    fn stats(&self) -> &'static [Stat] {
        <G::Stats as gamerec_rules::game::Statistics>::COLUMNS
    }

    fn site(&self) -> Option<&'static dyn AnySite> {
        self.site.map(|(s, _)| s)
    }

    fn generate(&self, seed: u64, index: u64, opts: &GenOptions) -> Converted {
        gen::game::<G>(seed, index, opts)
    }

    fn sample_positions(&self, seed: u64, games: u64, opts: &GenOptions) -> Box<dyn Positions> {
        Box::new(PositionsOf::<G> {
            positions: gen::positions::<G>(seed, games, opts),
        })
    }

    fn default_depth(&self) -> u32 {
        G::DEPTH
    }

    fn analyse(&self, game: &mut dyn ReadGame<'_>, settings: &Settings) -> Analysis {
        analysis::analyse::<G>(game, settings)
    }

    fn walk(&self, game: &mut dyn ReadGame<'_>, aim: walk::Aim<'_>, depth: usize) -> walk::Walk {
        walk::walk::<G>(game, aim, depth)
    }

    fn trace(&self, game: &mut dyn ReadGame<'_>) -> walk::Traced {
        walk::trace::<G>(game)
    }

    fn position_key(&self, settings: &[Tag], text: &str) -> Result<u64, String> {
        let mut tags: Vec<Tag> = settings.to_vec();
        tags.push(Tag::unplaced("Position", text));
        match G::start(&tags) {
            Ok(p) => Ok(G::notation_key(&p)),
            Err(e) => Err(e.message),
        }
    }

    fn first_match(
        &self,
        pattern: &crate::play::pattern::Pattern,
        tags: &[Tag],
        turns: &str,
    ) -> Result<Option<usize>, String> {
        crate::play::pattern::first_match::<G>(pattern, tags, turns)
    }

    fn line_target(&self, tags: &[Tag], line: &[String]) -> walk::LineTarget {
        walk::line_target::<G>(tags, line)
    }

    fn best_at(
        &self,
        game: &mut dyn ReadGame<'_>,
        ply: Option<usize>,
        settings: &Settings,
    ) -> Result<Best, Problem> {
        let (pos, _) = replay::position_before::<G>(game, ply)?;
        Ok(analysis::best_at::<G>(&pos, settings))
    }
}

/// The registered games' names, for messages.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}

/// The game named by a `Game` tag value (case-insensitive, aliases too).
pub fn find(name: &str) -> Option<&'static dyn AnyGame> {
    let name = name.trim();
    let is = |known: &str| known.eq_ignore_ascii_case(name);
    GAMES
        .iter()
        .copied()
        .find(|g| is(g.name()) || g.aliases().iter().any(|a| is(a)))
}

/// Every site notation, in registry order.
pub fn sites() -> impl Iterator<Item = &'static dyn AnySite> {
    GAMES.iter().filter_map(|g| g.site())
}

/// The site notation called `name` (`--to`, `--from`).
pub fn find_site(name: &str) -> Option<&'static dyn AnySite> {
    sites().find(|s| s.format().name == name)
}

/// Replays `record` (when its rules are known) and builds its converted
/// form; without rules, its envelope as read, with the problem that says
/// why.
pub fn convert(
    index: usize,
    record: Record,
    parse_error: Option<Problem>,
    rules: Result<&'static dyn AnyGame, Problem>,
    opts: TraceOptions,
) -> Converted {
    match rules {
        Ok(game) => game.convert(index, record, parse_error, opts),
        Err(p) => sink::without_rules(index, record, parse_error, p),
    }
}

/// Replays `game` (when its rules are known) and tells it to `sink`;
/// without rules, its envelope as read, with the problem that says why.
pub fn tell(
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    opts: TraceOptions,
    sink: &mut dyn GameSink,
) {
    match rules {
        Ok(r) => r.tell(game, opts, sink),
        Err(p) => sink::tell_without_rules(game, p, sink),
    }
}

/// The `(game, columns)` of every game's own statistics, in registry order.
pub fn stats_columns() -> impl Iterator<Item = (&'static str, &'static [Stat])> {
    GAMES.iter().map(|g| (g.name(), g.stats()))
}
