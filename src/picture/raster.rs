//! Pictures as pixels: a position's SVG rendered to PNG, and a game's
//! positions as an animated GIF (a frame per position, the start first),
//! through resvg/tiny-skia and the `gif` crate. Text is set in a subset of
//! DejaVu Sans carried in the binary (assets/fonts), never a font of the
//! machine, so the same input gives the same bytes everywhere.

use super::{svg, Replayed, Scene};
use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg;
use std::io::{self, Write};
use std::sync::{Arc, OnceLock};

/// DejaVu Sans, Basic Latin, Latin-1 and some punctuation (its licence:
/// assets/fonts/LICENSE-DejaVu).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");
const FAMILY: &str = "DejaVu Sans";

fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family(FAMILY);
        db.set_serif_family(FAMILY);
        db.set_monospace_family(FAMILY);
        usvg::Options {
            font_family: FAMILY.to_string(),
            fontdb: Arc::new(db),
            ..usvg::Options::default()
        }
    })
}

fn failed(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("the picture could not be rendered: {e}"))
}

/// An SVG's pixels at its own width and height, on `background` (`None`:
/// transparent).
pub fn render(svg: &str, background: Option<Color>) -> io::Result<Pixmap> {
    let tree = usvg::Tree::from_str(svg, options()).map_err(failed)?;
    let size = tree.size().to_int_size();
    let mut pixmap =
        Pixmap::new(size.width(), size.height()).ok_or_else(|| failed("an empty picture"))?;
    if let Some(c) = background {
        pixmap.fill(c);
    }
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// A PNG of an SVG (transparent where the SVG draws nothing).
pub fn png(svg: &str) -> io::Result<Vec<u8>> {
    render(svg, None)?.encode_png().map_err(failed)
}

/// The scene of each of a game's positions, `plies` of them played at
/// most (the start first).
pub fn scenes(r: &Replayed, plies: Option<usize>) -> impl ExactSizeIterator<Item = Scene> + '_ {
    let last = plies.map_or(r.frames.len(), |p| (p + 1).min(r.frames.len()));
    r.frames[..last].iter().map(|f| Scene {
        frame: f.clone(),
        ..r.scene.clone()
    })
}

/// What an animation is made with.
#[derive(Clone, Copy, Debug)]
pub struct GifOptions {
    pub svg: svg::SvgOptions,
    /// Hundredths of a second each frame is shown, and the last.
    pub delay: u16,
    pub last_delay: u16,
}

/// Writes `scenes` as an animated GIF that repeats: a frame each, on
/// white, colours chosen per frame (NeuQuant, deterministic).
pub fn gif<W: Write>(
    scenes: impl ExactSizeIterator<Item = Scene>,
    opts: &GifOptions,
    out: W,
) -> io::Result<W> {
    let count = scenes.len();
    let mut encoder: Option<gif::Encoder<W>> = None;
    let mut out = Some(out);
    for (i, scene) in scenes.enumerate() {
        let pixmap = render(&svg::write(&scene, &opts.svg), Some(Color::WHITE))?;
        let (w, h) = (pixmap.width(), pixmap.height());
        let too_big = || failed("a GIF is at most 65535 pixels a side");
        let (w16, h16) = (
            u16::try_from(w).map_err(|_| too_big())?,
            u16::try_from(h).map_err(|_| too_big())?,
        );
        if encoder.is_none() {
            let mut e = gif::Encoder::new(out.take().expect("one writer"), w16, h16, &[])
                .map_err(failed)?;
            e.set_repeat(gif::Repeat::Infinite).map_err(failed)?;
            encoder = Some(e);
        }
        let mut rgba = pixmap.take();
        let mut frame = gif::Frame::from_rgba_speed(w16, h16, &mut rgba, 10);
        frame.delay = match i + 1 == count {
            true => opts.last_delay,
            false => opts.delay,
        };
        encoder
            .as_mut()
            .expect("made above")
            .write_frame(&frame)
            .map_err(failed)?;
    }
    match encoder {
        Some(e) => e.into_inner().map_err(failed),
        None => Err(failed("no position to draw")),
    }
}
