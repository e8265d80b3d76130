//! The sites' move strings (AbstractPlay's, The Garden Gate's): a game is
//! its turns in the site's notation joined by the site's separator, one
//! game per line (or, where the site marks a game's start, from that mark
//! on). Detected by a first word the site's notation recognizes; one
//! format per registered site notation (`--from`/`--to` take its name).
//! Tags, comments and the result are not carried: the games are read with
//! the site's implied tags.

use super::visit::{broken, read_line_capped, Cx, Each, Reading};
use super::{Format, FormatEntry, Peek as Input, Sure};
use crate::envelope::record::{
    each_game, Chunk, MovetextStyle, Span, StreamTurns, Tag, MAX_RECORD_BYTES,
};
use crate::io::reading::too_large;
use crate::play::sink::out::Rendered;
use crate::play::sink::{Converted, GameSink, Head, Tail, TurnOut};
use crate::registry::{self, AnyGame, AnySite};
use gamerec_rules::game::SiteFormat;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// The site notations' line in the table of formats: one format per
/// registered site notation, named and described by it.
pub(crate) const LINE: FormatEntry = FormatEntry {
    name: "",
    read_help: "",
    write_help: "",
    detected_by: "a first turn like",
    formats: || registry::sites().map(Format::Moves).collect(),
    detect: |head: &Input<'_>| {
        registry::sites()
            .find(|s| (s.format().recognizes)(head.token))
            .map(|s| (Sure::Notation, Format::Moves(s)))
    },
};

/// The game's turns in the site notation, joined: the legal ones as the
/// site writes them, an illegal turn and every turn after it as written
/// (so an invalid game keeps every turn, and each game is one line).
pub fn line(game: &Converted, site: SiteFormat) -> String {
    let mut legal = true;
    game.turns
        .iter()
        .map(|t| {
            legal &= t.site.is_some();
            match (&t.site, legal) {
                (Some(s), true) => s.as_str(),
                _ => t.written.as_deref().unwrap_or(&t.text),
            }
        })
        .collect::<Vec<_>>()
        .join(site.separator)
}

/// Writes a game's turns in a site's notation as it is told: one line.
pub(crate) struct SiteSink<'o> {
    out: &'o mut Rendered,
    separator: &'static str,
    first: bool,
}

impl<'o> SiteSink<'o> {
    pub fn new(out: &'o mut Rendered, site: SiteFormat) -> Self {
        SiteSink {
            out,
            separator: site.separator,
            first: true,
        }
    }
}

impl GameSink for SiteSink<'_> {
    fn head(&mut self, _: &Head<'_>) {}

    fn turn(&mut self, turn: TurnOut<'_>) {
        if !self.first {
            self.out.push_str(self.separator);
        }
        self.first = false;
        // Legal turns as the site writes them; from the first illegal one
        // on (no site form), as written.
        let text = turn
            .site
            .as_deref()
            .or(turn.written.as_deref())
            .unwrap_or(&turn.text);
        self.out.push_str(text);
    }

    fn tail(&mut self, _: &Tail<'_>) {
        self.out.push('\n');
    }
}

/// How a site's move strings are read: the game's own style, and `,`
/// between turns where the site joins them so.
fn site_style(rules: &dyn AnyGame, site: &SiteFormat) -> MovetextStyle {
    MovetextStyle {
        commas: site.commas,
        ..rules.style()
    }
}

/// Reads a site's move strings: one game per line, or with a
/// `game_start` marker, a game from each line that starts with it through
/// the lines that do not.
pub fn read<R: BufRead>(
    input: R,
    cx: Cx<'_>,
    site: &'static dyn AnySite,
    each: &mut Each<'_>,
) -> io::Result<Reading> {
    games(input, cx, site.game(), site.format(), each).map(Reading::flow)
}

/// [`read`], saying whether `each` stopped it.
fn games<R: BufRead>(
    mut input: R,
    cx: Cx<'_>,
    rules: &'static dyn AnyGame,
    site: SiteFormat,
    each: &mut Each<'_>,
) -> io::Result<ControlFlow<()>> {
    let (mut offset, mut line_no) = (0usize, 1usize);
    let mut game: Option<Chunk> = None;
    let mut line = Vec::new();
    let mut emit = |chunk: Chunk| -> io::Result<ControlFlow<()>> {
        if chunk.truncated {
            return broken(cx, &chunk, too_large(&chunk), each);
        }
        let style = site_style(rules, &site);
        let at = Span::new(chunk.offset, chunk.offset);
        let tag = |name: &str, value: &str| Tag {
            name: name.into(),
            value: value.into(),
            span: at,
            value_span: at,
        };
        let mut flow = Ok(ControlFlow::Continue(()));
        each_game(&chunk, &|_| style, &mut |game| {
            if !matches!(flow, Ok(ControlFlow::Continue(()))) {
                return;
            }
            // The site's strings name no game: its tags come first.
            let mut tags = vec![tag("Game", rules.name())];
            tags.extend(site.tags.iter().map(|(n, v)| tag(n, v)));
            tags.append(&mut game.tags);
            game.tags = tags;
            flow = each(cx.visit(Some(&chunk), &mut StreamTurns::new(game), Ok(rules)));
        });
        flow
    };
    loop {
        line.clear();
        let (read, cut) = read_line_capped(&mut input, &mut line)?;
        let blank = !cut && line.iter().all(u8::is_ascii_whitespace);
        let trimmed = line
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(&line[..0], |i| &line[i..]);
        let starts = match site.game_start {
            None => true,
            Some(mark) => trimmed.starts_with(mark.as_bytes()),
        };
        if read == 0 || (!blank && starts) {
            if let Some(chunk) = game.take() {
                if emit(chunk)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        if read == 0 {
            return Ok(ControlFlow::Continue(()));
        }
        if !blank {
            match &mut game {
                Some(chunk) if !cut && chunk.bytes.len() + line.len() <= MAX_RECORD_BYTES => {
                    chunk.bytes.extend_from_slice(&line)
                }
                Some(chunk) => {
                    chunk.truncated = true;
                    chunk.bytes = Vec::new();
                }
                None => {
                    let mut chunk = Chunk::from_bytes(if cut { Vec::new() } else { line.clone() });
                    chunk.offset = offset;
                    chunk.line = line_no;
                    chunk.truncated = cut;
                    game = Some(chunk);
                }
            }
        }
        offset += read;
        line_no += 1;
    }
}
