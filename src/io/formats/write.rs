//! Writing any format: one game converted to it (on any thread:
//! [`convert_one`], with what the run needs to know of it), where the
//! games go ([`Dest`]: bytes, compressed, or a Parquet table), and the
//! framing of a whole output around the games written in order (each
//! format's own: the JSON document's opening and end, the CSV header,
//! AbstractPlay's array, the separators between games).

use super::csv::CsvSink;
use super::json::JsonSink;
use super::links::LinkSink;
use super::moves::SiteSink;
use super::parquet::{GamesWriter, LineColumn};
use super::records::{self, RecordSink};
use super::text::TextSink;
use super::{csv, json, Format};
use crate::base::decode::Compression;
use crate::base::problem::{Problem, Repair};
use crate::envelope::record::{title, Chunk, ReadGame, Tag};
use crate::play::sink::out::Rendered;
use crate::play::sink::{Collect, Converted, GameSink, Head, Tail, TraceOptions, TurnOut};
use crate::registry::{tell, AnyGame};
use gamerec_rules::game::SiteFiles;
use std::io::{self, Write};

impl Format {
    /// Whether the format can carry a game with these tags: a site's
    /// format cannot express every start or setting (a link carries its
    /// options tag itself); every other format carries any game.
    pub fn can_carry(self, tags: &[Tag]) -> bool {
        match self {
            Format::Links(site) => match site.format().files {
                SiteFiles::Links { options, .. } => {
                    let tags: Vec<Tag> =
                        tags.iter().filter(|t| t.name != options).cloned().collect();
                    site.can_carry(&tags)
                }
                _ => site.can_carry(tags),
            },
            Format::Moves(site) | Format::Records(site) => site.can_carry(tags),
            _ => true,
        }
    }

    /// Whether the format leaves out what a game holds besides its turns
    /// (CSV: tags and comments before the first turn; a site's format:
    /// what the site cannot carry), and says how much.
    pub(crate) fn drops(self) -> bool {
        matches!(
            self,
            Format::Csv | Format::Moves(_) | Format::Records(_) | Format::Links(_)
        )
    }

    /// Why a game is left out of a site's format, if it is: a game of
    /// other rules, or a start or setting the site cannot express (an
    /// empty reason: the game's rules are unknown, already reported).
    pub fn left_out(self, game: Option<&str>, index: usize, carried: bool) -> Option<String> {
        let site = self.site()?;
        let name = self.name();
        match game {
            None => Some(String::new()),
            Some(got) if got != site.game().name() => Some(format!(
                "game {index} is {got}; {name} carries only {} games: left out",
                site.game().name()
            )),
            Some(_) if !carried => Some(format!(
                "game {index} starts from a position or with a setting (tags Position, settings) \
                 that {name} cannot express: left out"
            )),
            Some(_) => None,
        }
    }
}

/// One game converted (on a worker thread): its output, and what the
/// sequential side needs to know of it.
pub struct GameOut {
    /// The game in the target format (without the framing `write` adds).
    pub rendered: Rendered,
    /// The game's rules, where they are known.
    pub game: Option<&'static str>,
    /// What made the game invalid.
    pub error: Option<Problem>,
    /// The game's title, when a problem or a repair will show it.
    pub title: Option<String>,
    /// Nothing of a game was read (no tags, turns or comments).
    pub nothing_read: bool,
    /// The target site can carry the game's start (true for other targets).
    pub carried: bool,
    /// What the target cannot carry: tags, comments, results,
    /// assessments and glyphs.
    pub dropped: [usize; 4],
    /// Why the output could not be made, if it could not.
    pub failed: Option<String>,
    /// What `--lenient` repaired.
    pub repairs: Vec<Repair>,
    /// The game whole, and where its problem lies (for Parquet).
    pub whole: Option<Box<(Converted, LineColumn)>>,
}

impl GameOut {
    pub(crate) fn is_invalid(&self) -> bool {
        self.error.is_some()
    }

    /// The game's size as written: its bytes, or for a Parquet row what
    /// its canonical text would take.
    pub fn size(&self) -> usize {
        match &self.whole {
            None => self.rendered.len(),
            Some(whole) => {
                let g = &whole.0;
                let tags: usize = g.tags.iter().map(|(n, v)| n.len() + v.len() + 6).sum();
                let comments: usize = g.comments.iter().map(|c| c.len() + 3).sum();
                let turns: usize = (g.turns.iter())
                    .map(|t| {
                        t.text.len() + 1 + t.comments.iter().map(|c| c.len() + 3).sum::<usize>()
                    })
                    .sum();
                tags + comments + turns + 2
            }
        }
    }

    /// The game as canonical text (it was converted to text).
    pub(crate) fn into_text(self) -> io::Result<Vec<u8>> {
        if let Some(why) = self.failed {
            return Err(io::Error::other(why));
        }
        let mut text = Vec::new();
        self.rendered.write_to(&mut text, 0, None)?;
        Ok(text)
    }
}

/// What the run needs to know of a game converted.
#[derive(Default)]
struct Noted {
    game: Option<&'static str>,
    tags: usize,
    comments: usize,
    turn_comments: usize,
    glyphs: usize,
    result: bool,
    turns: usize,
    error: Option<Problem>,
}

/// Passes a game on to the format's writer, noting what the run needs to
/// know of it.
struct Recorder<'s> {
    inner: &'s mut dyn GameSink,
    noted: Noted,
}

impl GameSink for Recorder<'_> {
    fn head(&mut self, head: &Head<'_>) {
        self.noted.game = head.game;
        self.noted.tags = head.tags.len();
        self.noted.comments = head.comments.len();
        self.inner.head(head);
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        self.noted.turns += 1;
        self.noted.turn_comments += turn.comments.len();
        self.noted.glyphs += usize::from(turn.assessment.is_some()) + turn.nags.len();
        self.inner.turn(turn);
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        self.noted.result = tail.result.is_some();
        self.noted.error = tail.error.cloned();
        self.inner.tail(tail);
    }
}

/// What converting one game needs besides the game.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    pub to: Format,
    pub trace: TraceOptions,
    /// The input's name (the CSV's `file` column).
    pub file: &'a str,
    pub spreadsheet_safe: bool,
}

/// A game told to its format's writer: what was noted, what a site's
/// format left out (tags, comments), the game whole (Parquet), and why
/// the output could not be made.
struct Told {
    noted: Noted,
    site_left_out: [usize; 2],
    whole: Option<Box<(Converted, LineColumn)>>,
    failed: Option<String>,
}

/// Tells `game` to the writer of `job.to`, into `rendered`.
fn told(
    job: Job<'_>,
    chunk: Option<&Chunk>,
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
    rendered: &mut Rendered,
) -> Told {
    let record = |sink: &mut dyn GameSink| {
        let mut recorder = Recorder {
            inner: sink,
            noted: Noted::default(),
        };
        tell(game, rules, job.trace, &mut recorder);
        recorder.noted
    };
    let mut out = Told {
        noted: Noted::default(),
        site_left_out: [0; 2],
        whole: None,
        failed: None,
    };
    out.noted = match job.to {
        Format::Text => record(&mut TextSink::new(rendered)),
        Format::Parquet => {
            let mut collect = Collect::new(0);
            let noted = record(&mut collect);
            let game = collect.into_game();
            let at = (game.error.as_ref()).and_then(|p| chunk.map(|c| c.locate(p.span.start)));
            out.whole = Some(Box::new((game, at)));
            noted
        }
        Format::Json | Format::Jsonl => {
            let mut sink = JsonSink::new(rendered, chunk);
            let noted = record(&mut sink);
            out.failed = sink.failed.take().map(|e| e.to_string());
            noted
        }
        Format::Csv => {
            let mut sink = CsvSink::new(rendered, job.file, None, job.spreadsheet_safe);
            let noted = record(&mut sink);
            out.failed = sink.failed.take().map(|e| e.to_string());
            noted
        }
        Format::Moves(s) => record(&mut SiteSink::new(rendered, s.format())),
        Format::Records(s) => {
            let SiteFiles::Records { name, implied } = s.format().files else {
                return out;
            };
            let mut sink = RecordSink::new(rendered, name, implied);
            let noted = record(&mut sink);
            out.site_left_out = sink.left_out;
            noted
        }
        Format::Links(s) => {
            let SiteFiles::Links { game_type, options } = s.format().files else {
                return out;
            };
            let mut sink = LinkSink::new(rendered, game_type, options);
            let noted = record(&mut sink);
            out.site_left_out = sink.left_out;
            noted
        }
    };
    out
}

/// Converts one game (on a worker thread): replays it and writes it in the
/// target format as it goes.
pub fn convert_one(
    job: Job<'_>,
    chunk: Option<&Chunk>,
    game: &mut dyn ReadGame<'_>,
    rules: Result<&'static dyn AnyGame, Problem>,
) -> GameOut {
    let known = rules.as_ref().ok().copied();
    let repairs = game.repairs().to_vec();
    let carried = known.is_none() || job.to.can_carry(game.tags());
    let mut rendered = Rendered::new();
    let Told {
        noted: r,
        site_left_out,
        whole,
        failed,
    } = told(job, chunk, game, rules, &mut rendered);
    let dropped = match job.to {
        Format::Csv => [r.tags, r.comments, usize::from(r.result), 0],
        Format::Moves(_) => [
            r.tags,
            r.comments + r.turn_comments,
            usize::from(r.result),
            r.glyphs,
        ],
        // A record carries its result (the players'); a link does not.
        Format::Records(_) => [site_left_out[0], site_left_out[1], 0, r.glyphs],
        Format::Links(_) => [
            site_left_out[0],
            site_left_out[1],
            usize::from(r.result),
            r.glyphs,
        ],
        _ => [0; 4],
    };
    // A title is shown with a problem or a repair only.
    let title = (r.error.is_some() || !repairs.is_empty())
        .then(|| title(game.tags(), known.map_or(["", ""], |r| r.sides())))
        .flatten();
    GameOut {
        rendered,
        game: r.game,
        error: r.error,
        title,
        nothing_read: r.tags == 0 && r.turns == 0 && r.comments == 0,
        carried,
        dropped,
        failed,
        repairs,
        whole,
    }
}

/// Where converted games go: bytes (compressed or not), or a Parquet table
/// being built, over the output `W`.
pub enum Dest<W: Write + Send> {
    Bytes(W),
    Zstd(Box<zstd::Encoder<'static, W>>),
    Gzip(Box<flate2::write::GzEncoder<W>>),
    Parquet(Box<GamesWriter<W>>),
}

impl<W: Write + Send> Dest<W> {
    /// The destination of `to` over `out`.
    pub fn new(to: Format, out: W) -> io::Result<Self> {
        Ok(match to {
            Format::Parquet => Dest::Parquet(Box::new(GamesWriter::new(out)?)),
            _ => Dest::Bytes(out),
        })
    }

    /// The bytes of `out`, compressed as asked.
    pub fn compressed(out: W, compression: Compression) -> io::Result<Self> {
        Ok(match compression {
            Compression::None => Dest::Bytes(out),
            Compression::Zstd => Dest::Zstd(Box::new(zstd::Encoder::new(out, 0)?)),
            Compression::Gzip => Dest::Gzip(Box::new(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::default(),
            ))),
        })
    }

    /// Finishes the output (the compressed stream's end, the Parquet
    /// footer) and gives back the output under it.
    pub fn finish(self) -> io::Result<W> {
        match self {
            Dest::Bytes(w) => Ok(w),
            Dest::Zstd(z) => z.finish(),
            Dest::Gzip(g) => g.finish(),
            Dest::Parquet(p) => p.finish(),
        }
    }
}

impl<W: Write + Send> Write for Dest<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Dest::Bytes(w) => w.write(buf),
            Dest::Zstd(z) => z.write(buf),
            Dest::Gzip(g) => g.write(buf),
            Dest::Parquet(_) => Err(io::Error::other("bytes cannot go into a Parquet table")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Dest::Bytes(w) => w.flush(),
            Dest::Zstd(z) => z.flush(),
            Dest::Gzip(g) => g.flush(),
            Dest::Parquet(_) => Ok(()),
        }
    }
}

/// An output in one format being written game by game, in order: its
/// framing before the first game, between games and after the last.
pub struct Framed<W: Write + Send> {
    pub to: Format,
    pub out: Dest<W>,
    /// A game was written already (for the separators).
    any: bool,
    /// An AbstractPlay record held until a second shows it is an array.
    held: Option<Rendered>,
}

impl<W: Write + Send> Framed<W> {
    /// Starts an output in `to` over `out`: what comes before the first
    /// game (the JSON document's opening, the CSV header).
    pub fn new(to: Format, out: Dest<W>) -> io::Result<Self> {
        let mut framed = Framed {
            to,
            out,
            any: false,
            held: None,
        };
        match to {
            Format::Json => json::head(&mut framed.out)?,
            Format::Csv => csv::head(&mut framed.out)?,
            _ => {}
        }
        Ok(framed)
    }

    /// Whether a game was written.
    pub fn any(&self) -> bool {
        self.any
    }

    /// Writes a converted game, game `index` of input `file`.
    pub fn write(&mut self, file: &str, index: usize, game: GameOut) -> io::Result<()> {
        if let Some(why) = game.failed {
            return Err(io::Error::other(format!("{file}: game {index}: {why}")));
        }
        let any = std::mem::replace(&mut self.any, true);
        let out = &mut self.out;
        match self.to {
            Format::Parquet => {
                let (Dest::Parquet(table), Some(whole)) = (out, game.whole) else {
                    return Err(io::Error::other("a Parquet table was not opened"));
                };
                let (mut converted, at) = *whole;
                converted.index = index;
                table.push(file, &converted, at)
            }
            Format::Text => {
                if any {
                    out.write_all(b"\n")?;
                }
                game.rendered.write_to(out, 0, None)
            }
            Format::Json => {
                let separator: &[u8] = if any { b",\n" } else { b"" };
                json::write_game(out, file, index, game.rendered, separator)
            }
            Format::Jsonl => {
                json::write_game(out, file, index, game.rendered, b"")?;
                out.write_all(b"\n")
            }
            Format::Csv => csv::write_game(out, index, game.rendered),
            Format::Moves(_) | Format::Links(_) => game.rendered.write_to(out, 0, None),
            Format::Records(_) => records::write_game(out, game.rendered, any, &mut self.held),
        }
    }

    /// Writes bytes as they are (a record-format record as it was in its
    /// input), after a blank line when a game was written before.
    pub(crate) fn write_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        if std::mem::replace(&mut self.any, true) {
            self.out.write_all(b"\n")?;
        }
        self.out.write_all(bytes)?;
        if !bytes.ends_with(b"\n") {
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// What comes after the last game (the JSON document's end, the
    /// AbstractPlay array's, or the one record held); gives the output
    /// back, finished.
    pub fn finish(mut self) -> io::Result<W> {
        match self.to {
            Format::Records(_) => records::tail(&mut self.out, self.any, self.held.take())?,
            Format::Json => json::tail(&mut self.out, self.any)?,
            _ => {}
        }
        self.out.finish()
    }
}
