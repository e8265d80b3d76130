//! `gamerec show`: a picture of one position — of a recorded game (any
//! input format, standard input too), a bare position or a game's start —
//! as terminal text or as a standalone SVG.

use super::at::{answer_into, Failure, PlaceArgs, PlyArg};
use super::messages;
use super::options::{Color, OutputArg};
use super::run::{self};
use gamerec::output::Output;
use gamerec::picture::raster::{self, GifOptions};
use gamerec::picture::svg::SvgOptions;
use gamerec::picture::text::TextOptions;
use gamerec::show::{Draw, Still, Stop};
use gamerec::sources;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    /// Unicode (or --ascii) text with coordinates, coloured on a terminal.
    Text,
    /// A standalone SVG.
    Svg,
    /// The SVG as a PNG.
    Png,
    /// The game as an animated GIF: a frame per position from the start
    /// to the asked one (every position without --ply), the last move
    /// marked in each.
    Gif,
}

#[derive(clap::Args)]
#[command(
    mut_arg("output", |a| a.help("Write the picture to FILE (never one of the inputs) instead \
of standard output")),
    mut_arg("color", |a| a.help("Colour in text pictures and diagnostics (`auto`: on a \
terminal, unless NO_COLOR is set)")),
    after_help = "A game invalid before the asked position is shown where its error stopped \
it, with the error (exit code 1); no such game or ply, an unknown game or a bad --position is a \
usage error (2)."
)]
pub struct Args {
    #[command(flatten)]
    place: PlaceArgs,
    #[command(flatten)]
    at: PlyArg,
    /// `text`, `svg`, `png` or `gif` (default: from -o's extension, else
    /// text).
    #[arg(
        long = "to",
        visible_alias = "format",
        value_enum,
        value_name = "FORMAT"
    )]
    format: Option<PictureFormat>,
    #[command(flatten)]
    output: OutputArg,
    /// Plain ASCII text instead of Unicode.
    #[arg(long)]
    ascii: bool,
    #[command(flatten)]
    color: Color,
    /// The picture's width in pixels (its height follows): an SVG up to
    /// 16384, a PNG up to 4096, a GIF up to 1024. Default: 40 pixels a
    /// board cell, at least 480 (a 9×9 board 480, Roshi's 19×19 about 870).
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(16..=16384))]
    size: Option<u32>,
    /// Seen from the other side: the board turned half round.
    #[arg(long)]
    flip: bool,
    /// Turn the SVG by DEGREES clockwise (45 without a value: The Garden
    /// Gate's view of Vagabond Pai Sho).
    #[arg(long, value_name = "DEGREES", num_args = 0..=1, default_missing_value = "45", allow_negative_numbers = true)]
    rotate: Option<f64>,
    /// GIF: milliseconds each position is shown (the last stays four
    /// times as long).
    #[arg(long, value_name = "MS", default_value_t = 800, value_parser = clap::value_parser!(u32).range(10..=60_000))]
    delay: u32,
}

/// The format asked for, else the one -o's extension names, else text.
fn format_of(args: &Args) -> PictureFormat {
    args.format.unwrap_or_else(|| {
        let extension = (args.output.output.as_ref())
            .and_then(|p| p.extension())
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("svg") => PictureFormat::Svg,
            Some("png") => PictureFormat::Png,
            Some("gif") => PictureFormat::Gif,
            _ => PictureFormat::Text,
        }
    })
}

/// How the picture is drawn.
/// Whether the options make a picture `format` can be written as (a
/// usage error said where not): a PNG or GIF not to a terminal, no wider
/// than its cap, a finite rotation.
fn options_hold(args: &Args, format: PictureFormat) -> bool {
    let binary = matches!(format, PictureFormat::Png | PictureFormat::Gif);
    if binary && args.output.output.is_none() && io::stdout().is_terminal() {
        messages::error("a PNG or GIF is not written to a terminal: give -o FILE or a pipe");
        return false;
    }
    let widest = match format {
        PictureFormat::Png => Some(("PNG", raster::MAX_PNG_SIZE)),
        PictureFormat::Gif => Some(("GIF", raster::MAX_GIF_SIZE)),
        _ => None,
    };
    let size = args.size.unwrap_or(0);
    if let Some((name, most)) = widest.filter(|&(_, most)| size > most) {
        messages::error(format!(
            "--size {size}: a {name} is at most {most} pixels wide"
        ));
        return false;
    }
    if let Some(r) = args.rotate.filter(|r| !r.is_finite()) {
        messages::error(format!("--rotate {r}: give a number of degrees"));
        return false;
    }
    true
}

pub fn run(mut args: Args) {
    // Records piped in: standard input.
    let place = &mut args.place;
    if place.file.is_none()
        && place.position.is_none()
        && place.game.is_none()
        && place.game_type.is_none()
        && !io::stdin().is_terminal()
    {
        place.file = Some(PathBuf::from("-"));
    }
    let output = Output::new(args.output.output.as_deref());
    if let Some(file) = &args.place.file {
        let walked = sources::walk(std::slice::from_ref(file), false, &output);
        if walked.refused {
            return run::said(walked.said);
        }
    }
    let format = format_of(&args);
    if !options_hold(&args, format) {
        return;
    }
    let text_opts = TextOptions {
        ascii: args.ascii,
        color: args.color.color.enabled(output.is_terminal()),
        flip: args.flip,
    };
    let svg_opts = SvgOptions {
        size: args.size,
        flip: args.flip,
        rotate: args.rotate.unwrap_or(0.0),
    };
    let draw = Draw {
        format: match format {
            PictureFormat::Text => Still::Text,
            PictureFormat::Svg => Still::Svg,
            _ => Still::Png,
        },
        ply: args.at.ply(),
        text: text_opts,
        gif: GifOptions {
            svg: svg_opts,
            delay: (args.delay / 10).max(1) as u16,
            last_delay: (args.delay * 4 / 10).min(u32::from(u16::MAX)) as u16,
        },
    };
    if format == PictureFormat::Gif {
        return animate(&args, &draw, &output);
    }
    let mut picture: Option<io::Result<Vec<u8>>> = None;
    answer_into(
        &args.place,
        args.color.color.for_stderr(),
        &mut io::sink(),
        |loaded, _| {
            let (drawn, verdict) = draw.picture(loaded.rules, loaded.game);
            picture = drawn;
            verdict.map_err(failure)
        },
    );
    let picture = match picture {
        Some(Ok(p)) => p,
        Some(Err(e)) => return messages::finished(Err(e)),
        None => return,
    };
    let Some(mut out) = run::create(&output) else {
        return;
    };
    let written = out.write_all(&picture);
    messages::finished(written.and_then(|()| out.commit()));
}

/// `--to gif`: the animation streamed to the output as it is drawn (the
/// output put in place when it is whole; nothing where the game cannot be
/// drawn).
fn animate(args: &Args, draw: &Draw, output: &Output) {
    let Some(mut out) = run::create(output) else {
        return;
    };
    let mut written: Option<io::Result<()>> = None;
    answer_into(
        &args.place,
        args.color.color.for_stderr(),
        &mut io::sink(),
        |loaded, _| {
            let (drawn, verdict) = draw.animation(loaded.rules, loaded.game, &mut out);
            written = drawn;
            verdict.map_err(failure)
        },
    );
    // Not drawn (said): the output is left as it was.
    if let Some(w) = written {
        messages::finished(w.and_then(|()| out.commit()));
    }
}

fn failure(stop: Stop) -> Failure {
    match stop {
        Stop::Invalid(p) => Failure::Invalid(p),
        Stop::Usage(why) => Failure::Usage(why),
    }
}
