//! Conversion targets: every output format `convert`, `filter`, `shard`
//! and the Python package write, one game converted to one of them (on any
//! thread), and the framing of a whole output (a JSON document's opening
//! and end, the CSV header, AbstractPlay's array, the separators between
//! games) around the games written in order.

use crate::convert::csv::{self as csv_rows, CsvSink};
use crate::convert::json::{self, JsonSink};
use crate::convert::out::Rendered;
use crate::convert::parquet::{At, GamesWriter};
use crate::convert::site::SiteSink;
use crate::convert::text::TextSink;
use crate::convert::{Collect, Converted, GameSink, Head, Tail, TraceOptions, TurnOut};
use crate::decode::Compression;
use crate::game::SiteFiles;
use crate::problem::{Problem, Repair};
use crate::record::{title, Chunk, ReadGame, Tag};
use crate::registry::{self, tell, AnyGame, AnySite};
use crate::sites::links::{self, LinkSink};
use crate::sites::records::{self, RecordSink};
use std::io::{self, Write};

/// The output formats.
#[derive(Clone, Copy)]
pub enum To {
    Text,
    Json,
    Jsonl,
    Csv,
    /// A Parquet games table (schema: notation/parquet.md).
    Parquet,
    /// A site's move strings, for the game that has that notation.
    Site(&'static dyn AnySite),
    /// AbstractPlay game records (one object, or an array of several),
    /// for the game the site keeps them of.
    SiteRecord(&'static dyn AnySite, &'static str, &'static [&'static str]),
    /// The Garden Gate's long game links, one per line (the game type,
    /// the settings tag holding the options).
    SiteLink(&'static dyn AnySite, u32, &'static str),
}

impl To {
    pub fn named(name: &str) -> Option<To> {
        let files = |f: fn(SiteFiles) -> bool| registry::sites().find(|s| f(s.format().files));
        Some(match name {
            "text" => To::Text,
            "json" => To::Json,
            "jsonl" => To::Jsonl,
            "csv" => To::Csv,
            "parquet" => To::Parquet,
            records::NAME => {
                let site = files(|f| matches!(f, SiteFiles::Records { .. }))?;
                let SiteFiles::Records { name, implied } = site.format().files else {
                    return None;
                };
                To::SiteRecord(site, name, implied)
            }
            links::NAME => {
                let site = files(|f| matches!(f, SiteFiles::Links { .. }))?;
                let SiteFiles::Links { game_type, options } = site.format().files else {
                    return None;
                };
                To::SiteLink(site, game_type, options)
            }
            site => To::Site(registry::find_site(site)?),
        })
    }

    /// The site game this target carries, for a site's format.
    pub fn site(self) -> Option<&'static dyn AnySite> {
        match self {
            To::Site(s) | To::SiteRecord(s, ..) | To::SiteLink(s, ..) => Some(s),
            _ => None,
        }
    }

    /// Every output format's name and what it is, in the order help texts
    /// list them: the built-in formats, each registered site notation, the
    /// sites' files.
    pub fn all() -> Vec<(&'static str, &'static str)> {
        let mut all = vec![
            ("text", "The canonical record format"),
            (
                "json",
                "One JSON document holding every game (schema: notation/json.md)",
            ),
            ("jsonl", "JSON Lines: one game object per line"),
            ("csv", "One row per turn (columns: notation/convert.md)"),
            (
                "parquet",
                "A Parquet file: one row per game, its turns a nested list (schema: \
                 notation/parquet.md)",
            ),
        ];
        all.extend(registry::sites().map(|s| (s.format().name, s.format().title)));
        all.push((records::NAME, records::TITLE));
        all.push((links::NAME, links::TITLE));
        all
    }

    /// Whether the target can carry a game with these tags: a site's
    /// format cannot express every start or setting (a link carries its
    /// options tag itself); every other format carries any game.
    pub fn can_carry(self, tags: &[Tag]) -> bool {
        match self {
            To::SiteLink(site, _, options) => {
                let tags: Vec<Tag> = tags.iter().filter(|t| t.name != options).cloned().collect();
                site.can_carry(&tags)
            }
            To::Site(site) | To::SiteRecord(site, ..) => site.can_carry(tags),
            _ => true,
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
    /// What the target cannot carry: tags, comments, results.
    pub dropped: [usize; 3],
    /// Why the output could not be made, if it could not.
    pub failed: Option<String>,
    /// What `--lenient` repaired.
    pub repairs: Vec<Repair>,
    /// The game whole, and where its problem lies (for Parquet).
    pub whole: Option<Box<(Converted, At)>>,
}

impl GameOut {
    pub fn is_invalid(&self) -> bool {
        self.error.is_some()
    }

    /// Nothing of a game was read (text between games).
    pub fn nothing_read(&self) -> bool {
        self.nothing_read
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

    /// The game as canonical text (it was converted `--to text`).
    pub fn into_text(self) -> io::Result<Vec<u8>> {
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
        self.inner.turn(turn);
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        self.noted.result = tail.result.is_some();
        self.noted.error = tail.error.cloned();
        self.inner.tail(tail);
    }
}

/// A CSV writer's error as the I/O error it is (a closed pipe stays one).
pub fn csv_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

/// What converting one game needs besides the game.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    pub to: To,
    pub trace: TraceOptions,
    /// The input's name (the CSV's `file` column).
    pub file: &'a str,
    pub spreadsheet_safe: bool,
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
    let mut failed = None;
    let mut site_left_out = [0; 2];
    let record = |sink: &mut dyn GameSink| {
        let mut recorder = Recorder {
            inner: sink,
            noted: Noted::default(),
        };
        tell(game, rules, job.trace, &mut recorder);
        recorder.noted
    };
    let mut whole = None;
    let r = match job.to {
        To::Text => record(&mut TextSink::new(&mut rendered)),
        To::Parquet => {
            let mut collect = Collect::new(0);
            let r = record(&mut collect);
            let game = collect.into_game();
            let at = (game.error.as_ref()).and_then(|p| chunk.map(|c| c.locate(p.span.start)));
            whole = Some(Box::new((game, at)));
            r
        }
        To::Json | To::Jsonl => {
            let mut sink = JsonSink::new(&mut rendered, chunk);
            let r = record(&mut sink);
            failed = sink.failed.take().map(|e| e.to_string());
            r
        }
        To::Csv => {
            let mut sink = CsvSink::new(&mut rendered, job.file, None, job.spreadsheet_safe);
            let r = record(&mut sink);
            failed = sink.failed.take().map(|e| e.to_string());
            r
        }
        To::Site(s) => record(&mut SiteSink::new(&mut rendered, s.format())),
        To::SiteRecord(_, name, implied) => {
            let mut sink = RecordSink::new(&mut rendered, name, implied);
            let r = record(&mut sink);
            site_left_out = sink.left_out;
            r
        }
        To::SiteLink(_, game_type, options) => {
            let mut sink = LinkSink::new(&mut rendered, game_type, options);
            let r = record(&mut sink);
            site_left_out = sink.left_out;
            r
        }
    };
    let dropped = match job.to {
        To::Csv => [r.tags, r.comments, usize::from(r.result)],
        To::Site(_) => [r.tags, r.comments + r.turn_comments, usize::from(r.result)],
        // A record carries its result (the players'); a link does not.
        To::SiteRecord(..) => [site_left_out[0], site_left_out[1], 0],
        To::SiteLink(..) => [site_left_out[0], site_left_out[1], usize::from(r.result)],
        _ => [0; 3],
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
    pub fn new(to: To, out: W) -> io::Result<Self> {
        Ok(match to {
            To::Parquet => Dest::Parquet(Box::new(GamesWriter::new(out)?)),
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

/// Writes a converted game in the target format.
pub fn write(
    to: To,
    out: &mut Dest<impl Write + Send>,
    file: &str,
    index: usize,
    read: GameOut,
    any: bool,
    held: &mut Option<Rendered>,
) -> io::Result<()> {
    if let Some(why) = read.failed {
        return Err(io::Error::other(format!("{file}: game {index}: {why}")));
    }
    match to {
        To::Parquet => {
            let (Dest::Parquet(table), Some(whole)) = (out, read.whole) else {
                return Err(io::Error::other("a Parquet table was not opened"));
            };
            let (mut game, at) = *whole;
            game.index = index;
            table.push(file, &game, at)
        }
        To::Text => {
            if any {
                out.write_all(b"\n")?;
            }
            read.rendered.write_to(out, 0, None)
        }
        To::Json | To::Jsonl => {
            if any && matches!(to, To::Json) {
                out.write_all(b",\n")?;
            }
            // `{"file":…,"index":…,` before the rest of the game's object.
            let file = serde_json::Value::from(file).to_string();
            write!(out, "{{\"file\":{file},\"index\":{index},")?;
            read.rendered.write_to(out, 1, None)?;
            if matches!(to, To::Jsonl) {
                out.write_all(b"\n")?;
            }
            Ok(())
        }
        To::Csv => {
            let mut digits = itoa::Buffer::new();
            let index = digits.format(index).as_bytes();
            read.rendered
                .write_to(out, 0, Some((csv_rows::INDEX_MARK, index)))
        }
        To::Site(_) | To::SiteLink(..) => read.rendered.write_to(out, 0, None),
        To::SiteRecord(..) => {
            // One game: one record; several: an array of them. The first
            // is held until a second one shows which.
            if !any {
                *held = Some(read.rendered);
                return Ok(());
            }
            if let Some(first) = held.take() {
                out.write_all(b"[\n")?;
                first.write_to(out, 0, None)?;
            }
            out.write_all(b",\n")?;
            read.rendered.write_to(out, 0, None)
        }
    }
}

/// What comes before the first game (the JSON document's opening, the CSV
/// header).
pub fn head(to: To, out: &mut Dest<impl Write + Send>) -> io::Result<()> {
    match to {
        To::Json => out.write_all(json::document_start().as_bytes()),
        To::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.write_record(csv_rows::HEADER).map_err(csv_error)?;
            out.write_all(
                &w.into_inner()
                    .map_err(|e| io::Error::other(e.to_string()))?,
            )
        }
        _ => Ok(()),
    }
}

/// What comes after the last game (the JSON document's end, the
/// AbstractPlay array's, or the one record held).
pub fn tail(
    to: To,
    out: &mut Dest<impl Write + Send>,
    any: bool,
    held: Option<Rendered>,
) -> io::Result<()> {
    if let To::SiteRecord(..) = to {
        return match (held, any) {
            (Some(one), _) => {
                one.write_to(out, 0, None)?;
                out.write_all(b"\n")
            }
            (None, true) => out.write_all(b"\n]\n"),
            (None, false) => out.write_all(b"[]\n"),
        };
    }
    match (to, any) {
        (To::Json, false) => {
            out.write_all(json::document_start().trim_end().as_bytes())?;
            out.write_all(b"]}\n")
        }
        (To::Json, true) => out.write_all(json::DOCUMENT_END.as_bytes()),
        _ => Ok(()),
    }
}

/// Why a game is left out of a site's strings, if it is.
pub fn left_out(to: To, game: Option<&str>, index: usize, carried: bool) -> Option<String> {
    let site = to.site()?;
    let name = match to {
        To::SiteRecord(..) => records::NAME,
        To::SiteLink(..) => links::NAME,
        _ => site.format().name,
    };
    match game {
        // Unknown rules: already reported as invalid.
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
