//! Pictures of positions: a game's [`Picture`] says what is where, this
//! layer replays a game to the asked point and draws it — as terminal text
//! ([`text`]), as a standalone SVG ([`svg`]), or every ply of a game in a
//! self-contained HTML replay viewer ([`html`]).

pub mod chart;
pub mod html;
pub mod raster;
pub mod svg;
pub mod text;

use crate::base::problem::Problem;
use crate::envelope::record::{title, ReadGame, TurnIn};
use crate::play::analysis::Annotation;
use crate::play::replay::{self, describe_ending, Visitor};
use gamerec_rules::game::{Board, Facts, Glyph, Marks, Note, Picture, Piece, Search, Side};
use gamerec_rules::search::Value;
use serde::Serialize;
use std::ops::ControlFlow;

/// Everything a picture of one position shows.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The game's name (`oshi`) and title (`Oshi`).
    pub game: &'static str,
    pub title: &'static str,
    pub sides: [&'static str; 2],
    pub colours: [&'static str; 2],
    pub glyphs: &'static [Glyph],
    pub board: Board,
    pub frame: Frame,
    /// The position in the game's Position notation.
    pub position: String,
}

impl Scene {
    /// The scene of `pos` of game `G`.
    fn of<G: Picture>(pos: &G::Position, board: Board, frame: Frame) -> Scene {
        Scene {
            game: G::NAME,
            title: G::TITLE,
            sides: G::SIDES,
            colours: G::COLOURS,
            glyphs: G::GLYPHS,
            board,
            frame,
            position: G::write_position(pos),
        }
    }
}

/// What changes from one ply to the next: the pieces, the counts beside
/// the board, the last move's marks and what the position says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    pub pieces: Vec<Piece>,
    pub notes: Vec<Note>,
    pub marks: Marks,
    /// `Red to move`, or how the game ended.
    pub status: String,
    /// The last move as written, with its number (`3... e7-e5`).
    pub last: Option<String>,
}

/// The side to move, or how the game ended at `ply`.
fn status<G: Picture>(pos: &G::Position, ply: usize) -> String {
    match G::ending(pos) {
        Some(e) => format!("Game over: {}", describe_ending::<G>(&e, ply)),
        None => format!("{} to move", G::SIDES[G::side_to_move(pos).index()]),
    }
}

/// The frame of `pos`, reached by `last` (the position before, the move,
/// how it was written) at ply `ply`.
fn frame<G: Picture>(
    pos: &G::Position,
    ply: usize,
    board: &Board,
    last: Option<(&G::Position, &G::Move, String)>,
) -> Frame {
    let mut pieces = Vec::new();
    G::pieces(pos, &mut pieces);
    let (marks, last) = match last {
        Some((before, mv, text)) => (G::marks(before, mv, board), Some(text)),
        None => (Marks::default(), None),
    };
    Frame {
        pieces,
        notes: G::notes(pos),
        marks,
        status: status::<G>(pos, ply),
        last,
    }
}

/// The move in its canonical spelling with its turn's number: `12. e3-e5`,
/// `12... e7-e5` (not as written: a Garden Gate turn carries a number of
/// its own, `19H.C(-7,-5)`, that would stand beside this one).
fn numbered<G: Picture>(ply: usize, first: &G::Position, mv: &G::Move) -> String {
    let first_mover = G::first_mover(first);
    let starts_second = G::side_to_move(first) != first_mover;
    let (n, second, _) = replay::turn_at(ply - 1, first_mover, starts_second);
    let mut text = String::new();
    G::write_move(mv, &mut text);
    format!("{n}{} {text}", if second { "..." } else { "." })
}

/// Keeps the position before the last ply played, and that ply.
struct LastPly<G: Picture> {
    first: Option<G::Position>,
    before: Option<G::Position>,
    last: Option<(G::Position, G::Move, String)>,
}

impl<G: Picture> Visitor<G> for LastPly<G> {
    fn before_ply(&mut self, _: usize, pos: &G::Position) -> ControlFlow<()> {
        if self.first.is_none() {
            self.first = Some(pos.clone());
        }
        self.before = Some(pos.clone());
        ControlFlow::Continue(())
    }

    fn after_ply(&mut self, ply: usize, _: &TurnIn<'_>, mv: &G::Move, _: &G::Position) {
        if let (Some(before), Some(first)) = (self.before.take(), &self.first) {
            let text = numbered::<G>(ply, first, mv);
            self.last = Some((before, mv.clone(), text));
        }
    }
}

/// The picture of the position before ply `ply` (1-based) of a game as it
/// is read, or after its last turn, the last move to reach it marked.
#[derive(Clone, Debug)]
pub struct Shown {
    /// The asked position; where a problem came first, the position it
    /// stopped the replay at (`None`: the start cannot be set up, or there
    /// is no such ply).
    pub scene: Option<Scene>,
    /// What kept the replay from the asked position.
    pub problem: Option<Problem>,
}

/// [`Shown`] for a game as it is read.
pub fn scene_at<G: Picture>(game: &mut dyn ReadGame<'_>, ply: Option<usize>) -> Shown {
    let mut seen = LastPly::<G> {
        first: None,
        before: None,
        last: None,
    };
    let reached = replay::reach::<G, _>(game, ply, &mut seen);
    let no_such_ply = reached
        .problem
        .as_ref()
        .is_some_and(|p| p.code == crate::base::problem::Code::NoSuchPly);
    let scene = reached.position.filter(|_| !no_such_ply).map(|pos| {
        let board = G::board(&pos);
        let last = seen.last.as_ref().map(|(b, m, t)| (b, m, t.clone()));
        let frame = frame::<G>(&pos, reached.plies, &board, last);
        Scene::of::<G>(&pos, board, frame)
    });
    Shown {
        scene,
        problem: reached.problem,
    }
}

/// A whole game for the viewer: the board, a frame per position (the
/// start first) and the moves between them.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub scene: Scene,
    /// `frames[k]` is the position after `k` plies; `frames[0]` is
    /// `scene.frame`'s start.
    pub frames: Vec<Frame>,
    /// Each frame's position key ([`Search::notation_key`]: the one the
    /// opening explorer merges by, so that `view --tree` finds its counts).
    pub keys: Vec<u64>,
    /// Each ply's turn in the game's standard labels (as the explorer
    /// spells turns).
    pub played: Vec<String>,
    /// The turns as written (`1. e3-e5`, with the record's assessment:
    /// `1. e3-e5??`), one per ply played.
    pub moves: Vec<String>,
    /// What an analysis wrote on each ply (`gamerec analyse --annotate`),
    /// one per ply played.
    pub judged: Vec<PlyNote>,
    /// The game's side names (the curve is the first's win chance).
    pub sides: [&'static str; 2],
    pub title: Option<String>,
    pub tags: Vec<(String, String)>,
    /// The outcome (`Red won on points at ply 31`) when the game is valid.
    pub outcome: Option<String>,
    /// Why the game is invalid, and at which ply.
    pub error: Option<ErrorAt>,
    /// The problem itself, located (for a diagnostic).
    pub problem: Option<Problem>,
    /// The plies played, where more than [`MAX_FRAMES`] (only those are
    /// drawn).
    pub cut: Option<usize>,
}

/// What an annotated record says of a ply, for the viewer.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlyNote {
    /// The marks (`blunder`, `only-move`, …), the gravest first.
    #[serde(rename = "m", skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<&'static str>,
    /// The first-named side's win chance after the move (0 to 1): the
    /// record's `[%win]`, or its `[%value]` where that is all it says.
    #[serde(rename = "c", skip_serializing_if = "Option::is_none")]
    pub chance: Option<f64>,
    /// The value after the move, said for people (`Red wins in 3`).
    #[serde(rename = "v", skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl PlyNote {
    /// From a turn's comments; `mover` made the move (of `sides`).
    fn of<'a>(
        comments: impl IntoIterator<Item = &'a str>,
        mover: Side,
        sides: [&str; 2],
    ) -> PlyNote {
        let a = Annotation::read(comments);
        let mine = a.win.or(match a.value {
            Some(Value::Win(_)) => Some(1.0),
            Some(Value::Loss(_)) => Some(0.0),
            Some(Value::Draw) => Some(0.5),
            _ => None,
        });
        let (me, them) = (sides[mover.index()], sides[mover.other().index()]);
        PlyNote {
            marks: a.gravest_first().iter().map(|m| m.name()).collect(),
            chance: mine.map(|c| match mover {
                Side::First => c,
                Side::Second => 1.0 - c,
            }),
            value: a.value.map(|v| v.in_words(me, them)),
        }
    }
}

/// Why a game is invalid.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorAt {
    pub ply: Option<usize>,
    pub token: Option<String>,
    pub message: String,
}

/// Records every position of a replay.
struct EveryPly<G: Picture + Search + Facts> {
    first: Option<G::Position>,
    board: Option<Board>,
    before: Option<G::Position>,
    frames: Vec<Frame>,
    keys: Vec<u64>,
    played: Vec<String>,
    moves: Vec<String>,
    judged: Vec<PlyNote>,
    /// Plies played, drawn or not.
    plies: usize,
}

/// The most plies of a game drawn (`view`, `show --to gif`): a frame each
/// is kept, so memory follows them; a longer game (a legal cycle repeated
/// to the record cap reaches a million plies) is drawn to this ply, and
/// the picture says so.
pub(crate) const MAX_FRAMES: usize = 20_000;

impl<G: Picture + Search + Facts> Visitor<G> for EveryPly<G> {
    fn before_ply(&mut self, ply: usize, pos: &G::Position) -> ControlFlow<()> {
        if self.first.is_none() {
            let board = G::board(pos);
            self.frames.push(frame::<G>(pos, ply - 1, &board, None));
            self.keys.push(G::notation_key(pos));
            self.board = Some(board);
            self.first = Some(pos.clone());
        }
        self.before = Some(pos.clone());
        ControlFlow::Continue(())
    }

    fn after_ply(&mut self, ply: usize, turn: &TurnIn<'_>, mv: &G::Move, after: &G::Position) {
        self.plies = ply;
        if ply > MAX_FRAMES {
            // Past the cap the game is replayed (its verdict is the whole
            // game's) but not drawn.
            self.before = None;
            return;
        }
        let (Some(before), Some(first), Some(board)) =
            (self.before.take(), &self.first, &self.board)
        else {
            return;
        };
        let text = numbered::<G>(ply, first, mv);
        let assessment = turn.assessment.map_or("", |a| a.as_str());
        self.moves.push(format!("{text}{assessment}"));
        let comments = turn.comments.iter().map(|c| c.text.as_str());
        let mover = G::side_to_move(&before);
        self.judged.push(PlyNote::of(comments, mover, G::SIDES));
        self.frames
            .push(frame::<G>(after, ply, board, Some((&before, mv, text))));
        self.keys.push(G::notation_key(after));
        let mut spelled = String::new();
        G::spell_standard(mv, &mut spelled);
        self.played.push(spelled);
    }

    fn end(&mut self, pos: &G::Position) {
        if self.first.is_none() {
            // No ply was read: the start alone.
            let board = G::board(pos);
            self.frames.push(frame::<G>(pos, 0, &board, None));
            self.keys.push(G::notation_key(pos));
            self.board = Some(board);
            self.first = Some(pos.clone());
        }
    }
}

/// Replays a whole game as it is read, keeping a frame for every position
/// (`None` when its start cannot be set up: nothing to draw).
pub fn replayed<G: Picture + Search + Facts>(
    game: &mut dyn ReadGame<'_>,
) -> Result<Replayed, Problem> {
    let mut every = EveryPly::<G> {
        plies: 0,
        first: None,
        board: None,
        before: None,
        frames: Vec::new(),
        keys: Vec::new(),
        played: Vec::new(),
        moves: Vec::new(),
        judged: Vec::new(),
    };
    let (report, pos, end) = replay::replay_game::<G, _>(game, &mut every);
    let tags: Vec<(String, String)> = game
        .tags()
        .iter()
        .map(|t| (t.name.to_string(), t.value.to_string()))
        .collect();
    let title = title(game.tags(), G::SIDES);
    let error = replay::earliest(end.error, report.error);
    let (Some(pos), Some(board)) = (pos, every.board) else {
        return Err(error.unwrap_or_else(|| {
            Problem::new(
                crate::base::problem::Code::BadSetup,
                "the game's start cannot be set up".to_string(),
                Default::default(),
            )
        }));
    };
    let mut outcome = report.outcome.as_ref().map(|o| match o.winner {
        Some(w) => format!("{} ({w} won, {})", o.result.as_str(), o.reason),
        None => format!("{} ({})", o.result.as_str(), o.reason),
    });
    if every.plies > MAX_FRAMES {
        let cut = format!("drawn to ply {MAX_FRAMES} of {}", every.plies);
        outcome = Some(match outcome {
            Some(o) => format!("{o}; {cut}"),
            None => cut,
        });
    }
    let frame = every.frames.last().cloned().unwrap_or_default();
    Ok(Replayed {
        scene: Scene::of::<G>(&pos, board, frame),
        frames: every.frames,
        keys: every.keys,
        played: every.played,
        moves: every.moves,
        judged: every.judged,
        sides: G::SIDES,
        title,
        tags,
        outcome,
        error: error.as_ref().map(|p| ErrorAt {
            ply: p.ply,
            token: p.token.as_deref().map(String::from),
            message: p.message.clone(),
        }),
        problem: error,
        cut: (every.plies > MAX_FRAMES).then_some(every.plies),
    })
}

/// Whose glyph it is, for colouring: the side's index, or none.
pub fn side_index(side: Option<Side>) -> Option<usize> {
    side.map(Side::index)
}
