//! `gamerec show`: a picture of one position — of a recorded game (any
//! input format, standard input too), a bare position or a game's start —
//! as terminal text or as a standalone SVG.

use super::at::{answer_into, Failure, PlaceArgs, PlyArg};
use super::messages;
use super::options::{Color, OutputArg};
use super::run::{self};
use gamerec::output::Output;
use gamerec::picture::svg::{self, SvgOptions};
use gamerec::picture::text::{self, TextOptions};
use gamerec::sources;
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
    /// `text` or `svg` (default: svg when -o names a .svg file, else text).
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
    let output = Output::new(args.output.output.as_deref());
    if let Some(file) = &args.place.file {
        let walked = sources::walk(std::slice::from_ref(file), false, &output);
        if walked.refused {
            return run::said(walked.said);
        }
    }
    let format = args.format.unwrap_or_else(|| {
        let svg_file = (args.output.output.as_ref())
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
        color: args.color.color.enabled(output.is_terminal()),
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
        args.color.color.for_stderr(),
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
    let Some(mut out) = run::create(&output) else {
        return;
    };
    let written = out.write_all(picture.as_bytes());
    messages::finished(written.and_then(|()| out.commit()));
}
