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
/// The most positions an animated GIF shows (each drawn twice, ~70 ms
/// at 480 px; the GIF is written as its frames are drawn).
pub(crate) const MAX_GIF_FRAMES: usize = 2_000;
/// The widest PNG, in pixels (4,096² × 4 bytes: 64 MiB of pixels).
pub const MAX_PNG_SIZE: u32 = 4096;
/// The widest GIF, in pixels (its canvas and a frame held at once).
pub const MAX_GIF_SIZE: u32 = 1024;

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
pub(crate) fn scenes(
    r: &Replayed,
    plies: Option<usize>,
) -> impl ExactSizeIterator<Item = Scene> + '_ {
    let last = plies.map_or(r.frames.len(), |p| (p + 1).min(r.frames.len()));
    r.frames[..last].iter().map(|f| Scene {
        frame: f.clone(),
        ..r.scene.clone()
    })
}

/// The smallest rectangle (x, y, width, height) holding every pixel
/// that differs between two RGBA images of `w` × `h`; one pixel when none
/// does.
fn changed(a: &[u8], b: &[u8], w: u32, h: u32) -> (u32, u32, u32, u32) {
    let (w, h) = (w as usize, h as usize);
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        let row = y * w * 4..(y + 1) * w * 4;
        let (ra, rb) = (&a[row.clone()], &b[row]);
        if ra == rb {
            continue;
        }
        let first = (0..w).find(|&x| ra[x * 4..x * 4 + 4] != rb[x * 4..x * 4 + 4]);
        let last = (0..w)
            .rev()
            .find(|&x| ra[x * 4..x * 4 + 4] != rb[x * 4..x * 4 + 4]);
        if let (Some(f), Some(l)) = (first, last) {
            (x0, x1, y0, y1) = (x0.min(f), x1.max(l), y0.min(y), y1.max(y));
        }
    }
    if x0 > x1 {
        return (0, 0, 1, 1);
    }
    (
        x0 as u32,
        y0 as u32,
        (x1 - x0 + 1) as u32,
        (y1 - y0 + 1) as u32,
    )
}

/// The pixels of a rectangle of an RGBA image `w` wide.
fn crop(rgba: &[u8], w: u32, (x, y, cw, ch): (u32, u32, u32, u32)) -> Vec<u8> {
    let mut out = Vec::with_capacity((cw * ch * 4) as usize);
    for row in y..y + ch {
        let start = ((row * w + x) * 4) as usize;
        out.extend_from_slice(&rgba[start..start + (cw * 4) as usize]);
    }
    out
}

/// What an animation is made with.
#[derive(Clone, Copy, Debug)]
pub struct GifOptions {
    pub svg: svg::SvgOptions,
    /// Hundredths of a second each frame is shown, and the last.
    pub delay: u16,
    pub last_delay: u16,
}

/// Writes a game's positions, `plies` of them played at most (the start
/// first), as an animated GIF that repeats: a frame each, on white,
/// colours chosen per frame (NeuQuant, deterministic); after the first, a
/// frame holds only the rectangle that changed. One frame is held at a
/// time (each drawn twice: once for its size).
pub fn gif<W: Write>(
    game: &Replayed,
    plies: Option<usize>,
    opts: &GifOptions,
    out: W,
) -> io::Result<W> {
    let tree = |scene: Scene| usvg::Tree::from_str(&svg::write(&scene, &opts.svg), options());
    // A frame's height can differ (a status line that wraps): every frame
    // is drawn on a canvas the size of the largest.
    let (mut w, mut h) = (0, 0);
    for scene in scenes(game, plies) {
        let size = tree(scene).map_err(failed)?.size().to_int_size();
        (w, h) = (size.width().max(w), size.height().max(h));
    }
    if w == 0 {
        return Err(failed("no position to draw"));
    }
    let too_big = || failed("a GIF is at most 65535 pixels a side");
    let (w16, h16) = (
        u16::try_from(w).map_err(|_| too_big())?,
        u16::try_from(h).map_err(|_| too_big())?,
    );
    let mut encoder = gif::Encoder::new(out, w16, h16, &[]).map_err(encoding)?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(encoding)?;
    let mut previous: Option<Vec<u8>> = None;
    let count = scenes(game, plies).len();
    for (i, scene) in scenes(game, plies).enumerate() {
        let mut pixmap = Pixmap::new(w, h).ok_or_else(|| failed("an empty picture"))?;
        pixmap.fill(Color::WHITE);
        resvg::render(
            &tree(scene).map_err(failed)?,
            Transform::default(),
            &mut pixmap.as_mut(),
        );
        let rgba = pixmap.take();
        // After the first frame only the rectangle that changed is
        // encoded, kept over the frame before.
        let rect = (previous.as_deref()).map_or((0, 0, w, h), |p| changed(p, &rgba, w, h));
        let mut part = crop(&rgba, w, rect);
        let mut frame = gif::Frame::from_rgba_speed(rect.2 as u16, rect.3 as u16, &mut part, 10);
        (frame.left, frame.top) = (rect.0 as u16, rect.1 as u16);
        frame.dispose = gif::DisposalMethod::Keep;
        frame.delay = match i + 1 == count {
            true => opts.last_delay,
            false => opts.delay,
        };
        encoder.write_frame(&frame).map_err(encoding)?;
        previous = Some(rgba);
    }
    encoder.into_inner().map_err(encoding)
}

/// An encoder's error: the output's own as it is (a closed pipe, a full
/// disk), anything else as a picture that could not be made.
fn encoding(e: gif::EncodingError) -> io::Error {
    match e {
        gif::EncodingError::Io(e) => e,
        other => failed(other),
    }
}
