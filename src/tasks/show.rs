//! `show`'s library side: a game drawn at a position — as text, an SVG or
//! a PNG ([`Draw::picture`]) — or as an animated GIF of its positions up
//! to there ([`Draw::animation`]), written frame by frame.

use crate::base::problem::Problem;
use crate::envelope::record::ReadGame;
use crate::picture::raster::{self, GifOptions};
use crate::picture::svg;
use crate::picture::text::{self, TextOptions};
use crate::picture::{Replayed, Shown};
use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered};
use std::io::{self, Write};

/// A still picture's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Still {
    Text,
    Svg,
    Png,
}

/// Why a picture stops short of the asked position.
#[derive(Debug)]
pub enum Stop {
    /// The game cannot be replayed to it.
    Invalid(Problem),
    /// The asked position or picture cannot be (a usage error).
    Usage(String),
}

/// How `show` draws: the position before ply `ply` (1-based; `None`: after
/// the last turn), with these options.
pub struct Draw {
    pub format: Still,
    pub ply: Option<usize>,
    pub text: TextOptions,
    pub gif: GifOptions,
}

impl Draw {
    /// The picture of the loaded game (`None`: nothing to draw), and why
    /// it stops short of the asked position.
    pub fn picture(
        &self,
        rules: &dyn AnyGame,
        game: &mut dyn ReadGame<'_>,
    ) -> (Option<io::Result<Vec<u8>>>, Result<(), Stop>) {
        let shown = scene_at(rules, game, self.ply);
        let svg_opts = &self.gif.svg;
        let picture = shown.scene.as_ref().map(|scene| match self.format {
            Still::Text => Ok(text::write(scene, self.text).into_bytes()),
            Still::Svg => Ok(svg::write(scene, svg_opts).into_bytes()),
            _ => raster::png(&svg::write(scene, svg_opts)),
        });
        (
            picture,
            shown.problem.map_or(Ok(()), |p| Err(Stop::Invalid(p))),
        )
    }

    /// The game's positions up to the asked one as an animated GIF,
    /// written to `out` frame by frame as each is drawn (`None`: nothing
    /// written).
    pub fn animation(
        &self,
        rules: &dyn AnyGame,
        game: &mut dyn ReadGame<'_>,
        out: &mut dyn Write,
    ) -> (Option<io::Result<()>>, Result<(), Stop>) {
        let r = match replayed(rules, game) {
            Ok(r) => r,
            Err(p) => return (None, Err(Stop::Invalid(p))),
        };
        let played = r.cut.unwrap_or(r.frames.len().saturating_sub(1));
        if let Some(k) = self.ply.filter(|&k| k > played + 1) {
            let why = format!("the game has {played} plies; there is no position before ply {k}");
            return (None, Err(Stop::Usage(why)));
        }
        // A frame per position to the asked ply (or the end).
        let frames = self.ply.unwrap_or(played + 1);
        if frames > raster::MAX_GIF_FRAMES {
            let why = format!(
                "a GIF of {frames} positions: at most {}; give --ply {} or less",
                raster::MAX_GIF_FRAMES,
                raster::MAX_GIF_FRAMES
            );
            return (None, Err(Stop::Usage(why)));
        }
        let buffered = io::BufWriter::new(out);
        let gif = raster::gif(&r, self.ply.map(|k| k - 1), &self.gif, buffered)
            .and_then(|mut b| b.flush());
        (
            Some(gif),
            r.problem.map_or(Ok(()), |p| Err(Stop::Invalid(p))),
        )
    }
}

/// The picture of the position before ply `ply` (1-based) of a game as it
/// is read, or after its last turn.
pub fn scene_at(rules: &dyn AnyGame, game: &mut dyn ReadGame<'_>, ply: Option<usize>) -> Shown {
    struct Scene<'a, 'g>(&'a mut dyn ReadGame<'g>, Option<usize>);
    impl GameTask for Scene<'_, '_> {
        type Output = Shown;
        fn run<G: Playable>(self, _: &Registered<G>) -> Shown {
            crate::picture::scene_at::<G>(self.0, self.1)
        }
    }
    with_game(rules, Scene(game, ply))
}

/// Every position of a game as it is read (the viewer, a GIF); the problem
/// when its start cannot be set up.
pub fn replayed(rules: &dyn AnyGame, game: &mut dyn ReadGame<'_>) -> Result<Replayed, Problem> {
    struct Frames<'a, 'g>(&'a mut dyn ReadGame<'g>);
    impl GameTask for Frames<'_, '_> {
        type Output = Result<Replayed, Problem>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Self::Output {
            crate::picture::replayed::<G>(self.0)
        }
    }
    with_game(rules, Frames(game))
}
