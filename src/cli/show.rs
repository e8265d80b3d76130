//! `gamerec show`: a picture of one position — of a recorded game (any
//! input format, standard input too), a bare position or a game's start —
//! as terminal text or as a standalone SVG.

use super::at::{answer_into, Failure, PlaceArgs, PlyArg};
use super::input::{expand, Output};
use super::messages;
use super::options::ColorChoice;
use gamerec::picture::svg::{self, SvgOptions};
use gamerec::picture::text::{self, TextOptions};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    /// Unicode (or --ascii) text with coordinates, coloured on a terminal.
    Text,
    /// A standalone SVG.
    Svg,
}

#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 shown; 1 the game is invalid before the asked position \
(the position its error stopped at is shown, with the error); 2 a usage or I/O error (no such \
game or ply, an unknown game, a bad --position)."
)]
pub struct Args {
    #[command(flatten)]
    place: PlaceArgs,
    #[command(flatten)]
    at: PlyArg,
    /// `text` or `svg` (default: svg when -o names a .svg file, else text).
    #[arg(
        long = "to",
        visible_alias = "format",
        value_enum,
        value_name = "FORMAT"
    )]
    format: Option<PictureFormat>,
    /// Write the picture to FILE (never one of the inputs) instead of
    /// standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Plain ASCII text instead of Unicode.
    #[arg(long)]
    ascii: bool,
    /// Colour in text pictures and diagnostics (`auto`: on a terminal,
    /// unless NO_COLOR is set).
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// The SVG's width in pixels (its height follows).
    #[arg(long, value_name = "PX", default_value_t = 480, value_parser = clap::value_parser!(u32).range(16..=16384))]
    size: u32,
    /// Seen from the other side: the board turned half round.
    #[arg(long)]
    flip: bool,
    /// Turn the SVG by DEGREES clockwise (45 without a value: The Garden
    /// Gate's view of Vagabond Pai Sho).
    #[arg(long, value_name = "DEGREES", num_args = 0..=1, default_missing_value = "45", allow_negative_numbers = true)]
    rotate: Option<f64>,
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
    let output = Output::new(args.output.as_deref());
    if let Some(file) = &args.place.file {
        if expand(std::slice::from_ref(file), false, &output).is_none() {
            return;
        }
    }
    let format = args.format.unwrap_or_else(|| {
        let svg_file = args
            .output
            .as_ref()
            .and_then(|p| p.extension())
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        match svg_file {
            true => PictureFormat::Svg,
            false => PictureFormat::Text,
        }
    });
    if let Some(r) = args.rotate.filter(|r| !r.is_finite()) {
        messages::error(format!("--rotate {r}: give a number of degrees"));
        return;
    }
    let text_opts = TextOptions {
        ascii: args.ascii,
        color: args.color.enabled(output.is_terminal()),
        flip: args.flip,
    };
    let svg_opts = SvgOptions {
        size: args.size,
        flip: args.flip,
        rotate: args.rotate.unwrap_or(0.0),
    };
    let ply = args.at.ply();
    let mut picture: Option<String> = None;
    answer_into(
        &args.place,
        args.color.for_stderr(),
        &mut io::sink(),
        |loaded, _| {
            let shown = loaded.rules.scene_at(loaded.game, ply);
            if let Some(scene) = &shown.scene {
                picture = Some(match format {
                    PictureFormat::Text => text::write(scene, text_opts),
                    PictureFormat::Svg => svg::write(scene, &svg_opts),
                });
            }
            shown.problem.map_or(Ok(()), |p| Err(Failure::Invalid(p)))
        },
    );
    let Some(picture) = picture else {
        return;
    };
    let Some(mut out) = output.create() else {
        return;
    };
    let written = out.write_all(picture.as_bytes());
    messages::finished(written.and_then(|()| out.commit()));
}
