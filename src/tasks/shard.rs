//! Archives split into shards on game boundaries, in input order, named so
//! that they sort (`part-00000.grec.zst`…), for workers that each read one
//! on their own (`shard`, notation/shard.md).
//!
//! Text shards of a text input are its own bytes, cut between games
//! without replaying them: concatenated, the shards are the input. Other
//! shards (JSON Lines, Parquet, or text from another input format) are
//! converted as `convert` would. Shards are written into a hidden staging
//! folder and moved in at the end: an interrupted run leaves no shard that
//! looks complete, a failed one leaves the folder as it was.

use crate::base::decode::{Compression, Input};
use crate::envelope::record::{each_game, Chunk, ChunkReader, MAX_RECORD_BYTES};
use crate::io::formats::write::Framed;
use crate::io::formats::{convert_one, Dest, Format, GameOut, Job, Visit};
use crate::io::inputs::{self, How, Item};
use crate::io::output::{temporaries, Output, Writer};
use crate::io::reading::Options;
use crate::io::sources::Source;
use crate::play::sink::TraceOptions;
use std::cell::RefCell;
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What shards are asked for: their format (text, JSON Lines or Parquet),
/// their compression (not Parquet's, which is inside), and how they are
/// cut.
#[derive(Clone, Copy)]
pub struct Plan {
    pub to: Format,
    pub compression: Compression,
    /// N shards of (nearly) as many games each.
    pub parts: Option<u64>,
    /// A new shard before a game that would take the shard past this many
    /// bytes.
    pub max_bytes: Option<u64>,
}

/// What cutting says as it goes: a warning, an invalid game (replayed
/// shards only), an input that could not be read or held no game.
pub enum ShardEvent<'a> {
    Warning(String),
    Invalid,
    Input(Item<'a, ()>),
}

/// Where cutting says what happens.
pub type Tell<'a> = dyn FnMut(ShardEvent<'_>) + 'a;

/// What was written.
#[derive(Clone, Copy, Debug)]
pub struct Done {
    pub shards: usize,
    pub games: u64,
    /// Games found invalid (replayed shards only).
    pub invalid: usize,
}

impl Done {
    /// `gamerec: wrote 3 shards of 120 games to DIR (1 invalid, written up
    /// to their error)`.
    pub fn summary(&self, dir: &Path) -> String {
        format!(
            "gamerec: wrote {} shard{} of {} game{} to {}{}",
            self.shards,
            if self.shards == 1 { "" } else { "s" },
            self.games,
            if self.games == 1 { "" } else { "s" },
            dir.display(),
            match self.invalid {
                0 => String::new(),
                n => format!(" ({n} invalid, written up to their error)"),
            }
        )
    }
}

/// Why no shard (or not every shard) is in the folder.
#[derive(Debug)]
pub enum Failed {
    /// Writing failed: nothing was moved in, the folder is as it was.
    Written(io::Error),
    /// Moving the shards in failed part way: which were.
    MovedIn(io::Error),
}

/// How shards are cut.
#[derive(Clone, Copy)]
pub(crate) enum Cut {
    /// N shards over this many games in all.
    Parts {
        parts: u64,
        games: u64,
    },
    MaxBytes(u64),
}

/// The shards being written.
struct Shards {
    dir: PathBuf,
    format: Format,
    compression: Compression,
    cut: Cut,
    width: usize,
    /// The shard being written: its path, output, the games and bytes it
    /// holds, its last byte.
    current: Option<Shard>,
    /// Shards made so far.
    made: usize,
    /// Games placed so far (in all shards).
    games: u64,
    /// The shard index the last game was placed in (`Parts`).
    target: u64,
    /// Games found invalid.
    invalid: usize,
}

struct Shard {
    out: Framed<Writer>,
    games: u64,
    bytes: u64,
    /// The last byte written raw.
    last: Option<u8>,
}

impl Shards {
    fn name(&self, n: usize) -> String {
        let ext = match self.format {
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
            _ => "grec",
        };
        let compressed = match self.compression {
            Compression::None => "",
            Compression::Zstd => ".zst",
            Compression::Gzip => ".gz",
        };
        format!("part-{n:0width$}.{ext}{compressed}", width = self.width)
    }

    /// Whether a unit of `games` games and `bytes` bytes starts a new
    /// shard.
    fn starts_new(&mut self, games: u64, bytes: u64) -> bool {
        let Some(current) = &self.current else {
            return true;
        };
        match self.cut {
            Cut::Parts { parts, games: all } => {
                if games == 0 {
                    return false;
                }
                let target = u64::try_from(
                    u128::from(self.games) * u128::from(parts) / u128::from(all.max(1)),
                )
                .unwrap_or(u64::MAX);
                target > self.target && current.games > 0
            }
            Cut::MaxBytes(max) => {
                games > 0 && current.games > 0 && current.bytes.saturating_add(bytes) > max
            }
        }
    }

    /// Notes a unit placed in the current shard.
    fn placed(&mut self, games: u64, bytes: u64) {
        if let Cut::Parts { parts, games: all } = self.cut {
            if games > 0 {
                self.target = u64::try_from(
                    u128::from(self.games) * u128::from(parts) / u128::from(all.max(1)),
                )
                .unwrap_or(u64::MAX);
            }
        }
        self.games += games;
        if let Some(c) = &mut self.current {
            c.games += games;
            c.bytes += bytes;
        }
    }

    /// Closes the current shard (if any) and opens the next.
    fn next(&mut self) -> io::Result<()> {
        self.close()?;
        let path = self.dir.join(self.name(self.made));
        let writer = Output::new(Some(&path)).create()?;
        let out = match self.format {
            Format::Parquet => Dest::new(Format::Parquet, writer)?,
            _ => Dest::compressed(writer, self.compression)?,
        };
        self.made += 1;
        self.current = Some(Shard {
            out: Framed::new(self.format, out)?,
            games: 0,
            bytes: 0,
            last: None,
        });
        Ok(())
    }

    fn current(&mut self) -> io::Result<&mut Shard> {
        if self.current.is_none() {
            self.next()?;
        }
        Ok(self.current.as_mut().expect("opened above"))
    }

    /// Writes input bytes as they are.
    fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let shard = self.current()?;
        shard.out.out.write_all(bytes)?;
        shard.last = bytes.last().copied();
        Ok(())
    }

    /// Before the first bytes of another input: a line break if the shard
    /// does not end with one (so that its first game starts a line).
    fn new_input(&mut self) -> io::Result<()> {
        if let Some(shard) = &mut self.current {
            if shard.last.is_some_and(|b| b != b'\n') {
                shard.out.out.write_all(b"\n")?;
                shard.last = Some(b'\n');
            }
        }
        Ok(())
    }

    fn close(&mut self) -> io::Result<()> {
        if let Some(shard) = self.current.take() {
            shard.out.finish()?.commit()?;
        }
        Ok(())
    }
}

/// An input read through, every byte it hands on kept until it is placed
/// in a shard.
struct Tee {
    inner: Input,
    kept: Rc<RefCell<Kept>>,
}

/// Bytes read but not yet written to a shard: at most [`KEPT_CAP`] of
/// them. Only a record longer than [`MAX_RECORD_BYTES`] passes that (the
/// chunk reader skips its middle): what is read then is not kept, as no
/// command reads it.
#[derive(Default)]
struct Kept {
    bytes: Vec<u8>,
    /// The input offset of `bytes[0]`.
    base: usize,
    /// Bytes read in all.
    read: usize,
    /// Past the cap: what is read is not kept until the next take.
    full: bool,
}

/// The most bytes [`Kept`] holds: a whole record, the line the chunk
/// reader keeps past it, and a read ahead.
const KEPT_CAP: usize = MAX_RECORD_BYTES + (2 << 20);

impl Kept {
    fn keep(&mut self, bytes: &[u8]) {
        self.read += bytes.len();
        if self.full {
            return;
        }
        let room = KEPT_CAP.saturating_sub(self.bytes.len());
        self.bytes
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.full = bytes.len() > room;
    }

    /// Takes the bytes before input offset `to`. After bytes were not
    /// kept, those before `to` are gone, and keeping starts again with the
    /// next read.
    fn take_before(&mut self, to: usize) -> Vec<u8> {
        let n = to.saturating_sub(self.base).min(self.bytes.len());
        self.base += n;
        let taken = self.bytes.drain(..n).collect();
        if self.full && to >= self.base {
            self.bytes.clear();
            self.base = self.read;
            self.full = false;
        }
        taken
    }
}

impl io::Read for Tee {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.kept.borrow_mut().keep(&buf[..n]);
        Ok(n)
    }
}

impl BufRead for Tee {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let n = amt.min(buf.len());
            self.kept.borrow_mut().keep(&buf[..n]);
        }
        self.inner.consume(amt);
    }
}

/// The games a chunk of the record format holds.
fn games_in(chunk: &Chunk, opts: &Options) -> u64 {
    if chunk.truncated {
        return 1;
    }
    each_game(chunk, &|tags| opts.style(tags), &mut |_| ()).len() as u64
}

/// Whether the shards take this input's own bytes.
fn raw(shard: Format, format: Format) -> bool {
    matches!((shard, format), (Format::Text, Format::Text))
}

/// Opens `source` and tells its format.
fn open(source: &Source, how: &How<'_>) -> io::Result<(Input, Format)> {
    let mut input = inputs::open(source, how)?;
    let format = inputs::format_of(source, &mut input, how)?;
    Ok((input, format))
}

/// Counts the games of every input (for `parts`).
fn count(sources: &[Source], how: &How<'_>, to: Format) -> u64 {
    let how = How {
        count: None,
        ..*how
    };
    let mut games = 0;
    for source in sources {
        let Ok((input, format)) = open(source, &how) else {
            continue; // Said when it is read.
        };
        if raw(to, format) {
            let mut chunks = ChunkReader::new(input);
            while let Ok(Some(chunk)) = chunks.next_chunk() {
                games += games_in(&chunk, &how.opts);
            }
            continue;
        }
        drop(input);
        let _ = inputs::read(
            std::slice::from_ref(source),
            &how,
            |_| (),
            |item| {
                if let Item::Game(_) = item {
                    games += 1;
                }
                Ok(ControlFlow::Continue(()))
            },
        );
    }
    games
}

/// The folder to write shards in, made if missing: it must hold no shard
/// yet (said why not).
pub fn prepare(dir: &Path) -> Result<(), String> {
    let said = |e: io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(said)?;
    match existing_shards(dir).map_err(said)? {
        Some(name) => Err(format!(
            "{}: already holds shards ({name}); choose an empty folder",
            dir.display()
        )),
        None => Ok(()),
    }
}

/// Standard input among `sources`, copied to a temporary file (it is
/// opened twice: its format told, then read; with parts, its games
/// counted first); the file, kept until the shards are cut.
pub fn spool_stdin(sources: &mut [Source]) -> io::Result<Option<tempfile::NamedTempFile>> {
    let Some(i) = sources.iter().position(|s| *s == Source::Stdin) else {
        return Ok(None);
    };
    let temp = spool()?;
    sources[i] = Source::Spooled(temp.path().to_path_buf());
    Ok(Some(temp))
}

/// Cuts every game of `sources` (read as `how` says) into shards in
/// `dir` as `plan` says, telling `tell` what happens; the shards are
/// written into a staging folder and moved in at the end.
pub fn cut(
    dir: &Path,
    plan: &Plan,
    sources: &[Source],
    how: &How<'_>,
    tell: &mut Tell<'_>,
) -> Result<Done, Failed> {
    let cut = match (plan.parts, plan.max_bytes) {
        (Some(parts), _) => Cut::Parts {
            parts,
            games: count(sources, how, plan.to),
        },
        (None, Some(max)) => Cut::MaxBytes(max),
        (None, None) => Cut::MaxBytes(u64::MAX),
    };
    let width = match cut {
        Cut::Parts { parts, .. } => 5.max(parts.saturating_sub(1).to_string().len()),
        Cut::MaxBytes(_) => 5,
    };
    let (staging, _registered) = staging_in(dir).map_err(Failed::Written)?;
    let mut shards = Shards {
        dir: staging.path().to_path_buf(),
        format: plan.to,
        compression: plan.compression,
        cut,
        width,
        current: None,
        made: 0,
        games: 0,
        target: 0,
        invalid: 0,
    };
    for source in sources {
        let name = source.name();
        let (input, format) = match open(source, how) {
            Ok(o) => o,
            Err(error) => {
                tell(ShardEvent::Input(Item::Failed {
                    input: &name,
                    error,
                }));
                continue;
            }
        };
        let result = match raw(plan.to, format) {
            true => cut_raw(&name, input, &mut shards, &how.opts, tell),
            false => {
                drop(input);
                // The output's error ends the run.
                converted(source, how, &mut shards, tell).map_err(inputs::output_error)
            }
        };
        match result.map_err(inputs::into_output_error) {
            Err(Ok(written)) => return Err(Failed::Written(written)),
            Err(Err(error)) => tell(ShardEvent::Input(Item::Failed {
                input: &name,
                error,
            })),
            Ok(()) => {}
        }
    }
    shards.close().map_err(Failed::Written)?;
    // A failure part way says how many shards were moved in.
    publish(staging.path(), dir, shards.made, &shards).map_err(Failed::MovedIn)?;
    drop(staging);
    Ok(Done {
        shards: shards.made,
        games: shards.games,
        invalid: shards.invalid,
    })
}

/// Cuts a text input into the shards by its own bytes.
fn cut_raw(
    name: &str,
    input: Input,
    shards: &mut Shards,
    opts: &Options,
    tell: &mut Tell<'_>,
) -> io::Result<()> {
    let kept = Rc::new(RefCell::new(Kept::default()));
    let tee = Tee {
        inner: input,
        kept: kept.clone(),
    };
    let mut chunks = ChunkReader::new(tee);
    shards.new_input()?;
    // After a record past the cap: the rest of it, up to the next game, is
    // left out (as every command reads it).
    let mut after_too_large = false;
    while let Some(chunk) = chunks.next_chunk()? {
        // What lies before the chunk belongs with the game before it.
        let mut before = kept.borrow_mut().take_before(chunk.offset);
        if std::mem::take(&mut after_too_large) {
            before.clear();
        }
        let games = games_in(&chunk, opts);
        let bytes = chunk.bytes.len() as u64;
        match (shards.starts_new(games, bytes), shards.current.is_some()) {
            (true, true) => {
                shards.raw(&before)?;
                shards.next()?;
            }
            // The input's first bytes go in the first shard.
            (true, false) => {
                shards.next()?;
                shards.raw(&before)?;
            }
            (false, _) => shards.raw(&before)?,
        }
        shards.placed(games, bytes);
        // The chunk's own bytes, as the reader keeps them (the input's, up
        // to the cap).
        kept.borrow_mut()
            .take_before(chunk.offset + chunk.bytes.len());
        shards.raw(&chunk.bytes)?;
        if chunk.truncated {
            after_too_large = true;
            let (line, _) = chunk.locate(chunk.offset);
            tell(ShardEvent::Warning(format!(
                "{name}, line {line}: a record longer than {} MiB (record-too-large): its \
                 first {} MiB went to {}, the rest of it was left out, as every command \
                 reads it",
                MAX_RECORD_BYTES >> 20,
                MAX_RECORD_BYTES >> 20,
                shards.name(shards.made.saturating_sub(1))
            )));
        }
    }
    // The rest: what follows the last chunk (the reader has read to the
    // input's end).
    let mut rest = std::mem::take(&mut kept.borrow_mut().bytes);
    if after_too_large {
        rest.clear();
    }
    if shards.current.is_none() && rest.iter().all(u8::is_ascii_whitespace) {
        // No game at all: no shard of blank space.
        return Ok(());
    }
    shards.raw(&rest)
}

/// A hidden staging folder in `dir`, on the list of temporaries an
/// interruption removes.
fn staging_in(dir: &Path) -> io::Result<(tempfile::TempDir, temporaries::Listed)> {
    temporaries::create(
        || {
            tempfile::Builder::new()
                .prefix(".gamerec-shards-")
                .tempdir_in(dir)
        },
        |t| t.path().to_path_buf(),
        true,
    )
}

/// Converts the games of one input into the shards.
fn converted(
    source: &Source,
    how: &How<'_>,
    shards: &mut Shards,
    tell: &mut Tell<'_>,
) -> io::Result<()> {
    let to = shards.format;
    let map = |v: Visit<'_, '_>| {
        let job = Job {
            to,
            trace: TraceOptions::default(),
            file: v.input,
            spreadsheet_safe: false,
        };
        convert_one(job, v.chunk, v.game, v.rules)
    };
    let each = |item: Item<'_, GameOut>| {
        let game = match item.game() {
            Ok(game) => game,
            Err(input) => {
                tell(ShardEvent::Input(input));
                return Ok(ControlFlow::Continue(()));
            }
        };
        let (name, index, read) = (game.input, game.index, game.value);
        if read.is_invalid() {
            shards.invalid += 1;
            tell(ShardEvent::Invalid);
        }
        if read.nothing_read {
            return Ok(ControlFlow::Continue(()));
        }
        let bytes = read.size() as u64;
        if shards.starts_new(1, bytes) {
            shards.next()?;
        }
        shards.placed(1, bytes);
        let shard = shards.current()?;
        if shard.last.is_some_and(|b| b != b'\n') && matches!(to, Format::Text) {
            shard.out.out.write_all(b"\n")?;
        }
        shard.out.write(name, index, read)?;
        // Text and JSON Lines end their games with a line break.
        shard.last = Some(b'\n');
        Ok(ControlFlow::Continue(()))
    };
    inputs::read(std::slice::from_ref(source), how, map, each).map(|_| ())
}

/// A file in `dir` named like a shard, if there is one.
fn existing_shards(dir: &Path) -> io::Result<Option<String>> {
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.starts_with("part-") {
            return Ok(Some(name));
        }
    }
    Ok(None)
}

/// Moves the `made` shards from `staging` into `dir`, in order. A failure
/// part way (a shard of the same name appeared meanwhile, a full disk on
/// another file system) says which shards were moved.
fn publish(staging: &Path, dir: &Path, made: usize, shards: &Shards) -> io::Result<()> {
    for n in 0..made {
        let name = shards.name(n);
        let to = dir.join(&name);
        if to.exists() {
            return Err(io::Error::other(format!(
                "{}: appeared while the shards were written; {n} of {made} shards were moved in",
                to.display()
            )));
        }
        std::fs::rename(staging.join(&name), &to).map_err(|e| {
            io::Error::other(format!(
                "{}: {e}; {n} of {made} shards were moved in",
                to.display()
            ))
        })?;
    }
    Ok(())
}

/// Standard input, copied to a temporary file.
fn spool() -> io::Result<tempfile::NamedTempFile> {
    let mut temp = tempfile::NamedTempFile::new()?;
    io::copy(&mut io::stdin().lock(), temp.as_file_mut())?;
    temp.as_file_mut().flush()?;
    Ok(temp)
}
