//! `gamerec shard`: split archives into shards on game boundaries, in
//! input order, named so that they sort (`part-00000.grec.zst`…), for
//! workers that each read one on their own (notation/shard.md).
//!
//! Text shards of a text input are its own bytes, cut between games
//! without replaying them: concatenated, the shards are the input. Other
//! shards (`--format jsonl|parquet`, or text from another input format) are
//! converted as `convert` would.

use super::input::{
    expand, format, options, parse_size, read_all, InputArgs, Item, Open, Opened, Output, Source,
};
use super::messages;
use super::progress::Progress;
use clap::ValueEnum;
use gamerec::archive::Options;
use gamerec::convert::TraceOptions;
use gamerec::decode::{Compression, Input};
use gamerec::input::Format;
use gamerec::record::{each_game, Chunk, ChunkReader, ReadGame, MAX_RECORD_BYTES};
use gamerec::target::{self, Dest, GameOut, Job, To};
use std::cell::RefCell;
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShardFormat {
    /// The record format: a text input's own bytes, others as canonical
    /// text.
    Text,
    /// gamerec JSON Lines, one game per line.
    Jsonl,
    /// A Parquet games table (notation/parquet.md).
    Parquet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompressArg {
    /// Zstandard (`.zst`).
    Zst,
    /// gzip (`.gz`).
    Gz,
}

#[derive(clap::Args)]
#[command(
    group = clap::ArgGroup::new("size").required(true).args(["parts", "max_bytes"]),
    after_help = "Shards are named part-00000.grec (.jsonl, .parquet), with .zst or .gz when \
compressed, and hold whole games in input order: every game is in exactly one shard. Text \
shards of text input are cut without replaying: concatenated they are the input (UTF-8). \
Exit codes: 0 done (and, when games were replayed, every game valid), 1 some game invalid, 2 \
usage or I/O error. Details: notation/shard.md."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// The folder to write the shards in (made if missing; it must hold no
    /// shards yet).
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// Split into N shards of (nearly) as many games each (fewer when there
    /// are fewer games).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    parts: Option<u64>,
    /// Start a new shard before a game that would take this one past SIZE
    /// bytes (before compression; a game larger than SIZE gets a shard of
    /// its own). Suffixes K, M, G (powers of 1024): 64M.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_bytes: Option<u64>,
    /// Compress each shard (text and jsonl; Parquet is compressed inside).
    #[arg(long, value_enum, value_name = "HOW")]
    compress: Option<CompressArg>,
    /// The shards' format.
    #[arg(
        long = "to",
        visible_alias = "format",
        value_enum,
        default_value = "text",
        value_name = "FORMAT"
    )]
    format: ShardFormat,
    /// Say nothing on stderr but problems.
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    jobs: super::jobs::Jobs,
}

/// How shards are cut.
#[derive(Clone, Copy)]
enum Cut {
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
    format: ShardFormat,
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
}

struct Shard {
    out: Dest<super::input::Writer>,
    games: u64,
    bytes: u64,
    /// A converted game was written (for the separators).
    any: bool,
    /// The last byte written raw.
    last: Option<u8>,
    held: Option<gamerec::convert::out::Rendered>,
}

impl Shards {
    fn to(&self) -> To {
        match self.format {
            ShardFormat::Text => To::Text,
            ShardFormat::Jsonl => To::Jsonl,
            ShardFormat::Parquet => To::Parquet,
        }
    }

    fn name(&self, n: usize) -> String {
        let ext = match self.format {
            ShardFormat::Text => "grec",
            ShardFormat::Jsonl => "jsonl",
            ShardFormat::Parquet => "parquet",
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
        let output = Output::new(Some(&path));
        let Some(writer) = output.create() else {
            return Err(io::Error::other(format!(
                "{}: cannot be written",
                path.display()
            )));
        };
        let out = match self.format {
            ShardFormat::Parquet => Dest::new(To::Parquet, writer)?,
            _ => Dest::compressed(writer, self.compression)?,
        };
        self.made += 1;
        self.current = Some(Shard {
            out,
            games: 0,
            bytes: 0,
            any: false,
            last: None,
            held: None,
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
        shard.out.write_all(bytes)?;
        shard.last = bytes.last().copied();
        Ok(())
    }

    /// Before the first bytes of another input: a line break if the shard
    /// does not end with one (so that its first game starts a line).
    fn new_input(&mut self) -> io::Result<()> {
        if let Some(shard) = &mut self.current {
            if shard.last.is_some_and(|b| b != b'\n') {
                shard.out.write_all(b"\n")?;
                shard.last = Some(b'\n');
            }
        }
        Ok(())
    }

    fn close(&mut self) -> io::Result<()> {
        if let Some(mut shard) = self.current.take() {
            if shard.any {
                target::tail(self.to(), &mut shard.out, true, shard.held.take())?;
            }
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

/// Opens `source` and tells its format.
fn open(source: &Source, args: &InputArgs, progress: &Progress) -> io::Result<(Opened, Format)> {
    let reader = source.open(args.encoding.encoding(), progress)?;
    let mut opened = Opened {
        extension: source.extension(),
        reader,
    };
    let format = format(&args.from, &mut opened)?;
    Ok((opened, format))
}

/// Whether the shards take this input's own bytes.
fn raw(shard: ShardFormat, format: Format) -> bool {
    shard == ShardFormat::Text && matches!(format, Format::Text)
}

/// Counts the games of every input (for `--parts`).
fn count(sources: &[Source], args: &Args, opts: &Options) -> u64 {
    let progress = Progress::for_sources(&[], true);
    let mut games = 0;
    for source in sources {
        let Ok((opened, format)) = open(source, &args.input, &progress) else {
            continue; // Said when it is read.
        };
        if raw(args.format, format) {
            let mut chunks = ChunkReader::new(opened.reader);
            while let Ok(Some(chunk)) = chunks.next_chunk() {
                games += games_in(&chunk, opts);
            }
            continue;
        }
        drop(opened);
        let _ = read_all(
            vec![source.clone()],
            &args.input,
            opts,
            &progress,
            |_, _, _: &mut dyn ReadGame<'_>, _| (),
            |_, item: Item<'_, ()>| {
                if let Item::Game(..) = item {
                    games += 1;
                }
                Ok(ControlFlow::Continue(()))
            },
        );
    }
    games
}

/// Cuts a text input into the shards by its own bytes.
fn cut_raw(name: &str, opened: Opened, shards: &mut Shards, opts: &Options) -> io::Result<()> {
    let kept = Rc::new(RefCell::new(Kept::default()));
    let tee = Tee {
        inner: opened.reader,
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
            messages::warning(format!(
                "{name}, line {line}: a record longer than {} MiB (record-too-large): its \
                 first {} MiB went to {}, the rest of it was left out, as every command \
                 reads it",
                MAX_RECORD_BYTES >> 20,
                MAX_RECORD_BYTES >> 20,
                shards.name(shards.made.saturating_sub(1))
            ));
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

pub fn run(args: Args) {
    let Some(opts) = options(args.input.game.as_deref()) else {
        return;
    };
    if args.compress.is_some() && args.format == ShardFormat::Parquet {
        return messages::error(
            "Parquet shards are compressed inside (zstd): --compress is for text and jsonl",
        );
    }
    args.jobs.init();
    let dir = &args.output;
    if let Err(e) = std::fs::create_dir_all(dir) {
        return messages::error(format!("{}: {e}", dir.display()));
    }
    match existing_shards(dir) {
        Ok(Some(name)) => {
            return messages::error(format!(
                "{}: already holds shards ({name}); choose an empty folder",
                dir.display()
            ))
        }
        Ok(None) => {}
        Err(e) => return messages::error(format!("{}: {e}", dir.display())),
    }
    let output = Output::new(None);
    let Some(mut sources) = expand(&args.input.paths, args.input.all, &output) else {
        return;
    };
    // Standard input is opened twice (its format told, then read; with
    // --parts, its games counted first): kept in a temporary file.
    let mut spooled = None;
    if let Some(i) = sources.iter().position(|s| *s == Source::Stdin) {
        match spool() {
            Ok(temp) => {
                sources[i] = Source::Spooled(temp.path().to_path_buf());
                spooled = Some(temp);
            }
            Err(e) => return messages::error(format!("<stdin>: {e}")),
        }
    }
    let cut = match (args.parts, args.max_bytes) {
        (Some(parts), _) => Cut::Parts {
            parts,
            games: count(&sources, &args, &opts),
        },
        (None, Some(max)) => Cut::MaxBytes(max),
        (None, None) => return messages::error("say --parts N or --max-bytes SIZE"),
    };
    let width = match cut {
        Cut::Parts { parts, .. } => 5.max(parts.saturating_sub(1).to_string().len()),
        Cut::MaxBytes(_) => 5,
    };
    // Shards are written into a hidden folder beside them and moved in at
    // the end: an interrupted run leaves no shard that looks complete, and
    // a failed one leaves the folder as it was.
    let (staging, _registered) = match staging_in(dir) {
        Ok(t) => t,
        Err(e) => return messages::error(format!("{}: {e}", dir.display())),
    };
    let mut shards = Shards {
        dir: staging.path().to_path_buf(),
        format: args.format,
        compression: match args.compress {
            None => Compression::None,
            Some(CompressArg::Zst) => Compression::Zstd,
            Some(CompressArg::Gz) => Compression::Gzip,
        },
        cut,
        width,
        current: None,
        made: 0,
        games: 0,
        target: 0,
    };
    let progress = Progress::for_sources(&sources, args.quiet);
    let mut invalid = 0usize;
    let mut result = Ok(());
    for source in sources {
        let name = source.name();
        let (opened, format) = match open(&source, &args.input, &progress) {
            Ok(o) => o,
            Err(e) => {
                messages::error(format!("{name}: {e}"));
                continue;
            }
        };
        if raw(args.format, format) {
            if let Err(e) = cut_raw(&name, opened, &mut shards, &opts) {
                messages::error(format!("{name}: {e}"));
            }
            continue;
        }
        drop(opened);
        result = converted(source, &args, &opts, &progress, &mut shards, &mut invalid);
        if result.is_err() {
            break;
        }
    }
    progress.finish();
    finish(result, shards, staging, spooled, dir, invalid, args.quiet);
}

/// A hidden staging folder in `dir`, on the list of temporaries an
/// interruption removes.
fn staging_in(dir: &Path) -> io::Result<(tempfile::TempDir, super::interrupt::Registered)> {
    super::interrupt::create(
        || {
            tempfile::Builder::new()
                .prefix(".gamerec-shards-")
                .tempdir_in(dir)
        },
        |t| t.path().to_path_buf(),
        true,
    )
}

/// Closes the last shard, moves the shards in from `staging` and says
/// what was written (or, after a failure, what is there).
fn finish(
    result: io::Result<()>,
    mut shards: Shards,
    staging: tempfile::TempDir,
    spooled: Option<tempfile::NamedTempFile>,
    dir: &Path,
    invalid: usize,
    quiet: bool,
) {
    let result = result.and_then(|()| shards.close());
    drop(spooled);
    if let Err(e) = result {
        // Nothing was moved in: the staging folder goes.
        messages::finished(Err(e));
        if messages::errored() {
            messages::say(format!(
                "gamerec: no shard written: {} is as it was",
                dir.display()
            ));
        }
        return;
    }
    // A failure part way says how many shards were moved in.
    if let Err(e) = publish(staging.path(), dir, shards.made, &shards) {
        return messages::error(e);
    }
    drop(staging);
    if shards.games == 0 {
        messages::invalid();
        messages::warning("no game in the input: no shard written");
    }
    if !quiet {
        messages::say(format!(
            "gamerec: wrote {} shard{} of {} game{} to {}{}",
            shards.made,
            if shards.made == 1 { "" } else { "s" },
            shards.games,
            if shards.games == 1 { "" } else { "s" },
            dir.display(),
            match invalid {
                0 => String::new(),
                n => format!(" ({n} invalid, written up to their error)"),
            }
        ));
    }
}

/// Converts the games of one input into the shards.
fn converted(
    source: Source,
    args: &Args,
    opts: &Options,
    progress: &Progress,
    shards: &mut Shards,
    invalid: &mut usize,
) -> io::Result<()> {
    let to = shards.to();
    let trace = TraceOptions::default();
    let (mut input, mut index) = (String::new(), 0usize);
    let map = |file: &str, chunk: Option<&Chunk>, game: &mut dyn ReadGame<'_>, rules| {
        let job = Job {
            to,
            trace,
            file,
            spreadsheet_safe: false,
        };
        target::convert_one(job, chunk, game, rules)
    };
    let each = |name: &str, item: Item<'_, GameOut>| {
        let Item::Game(_, read) = item else {
            messages::warning(format!("{name}: no game here: the input is empty"));
            return Ok(ControlFlow::Continue(()));
        };
        if input != name {
            (input, index) = (name.to_string(), 0);
        }
        index += 1;
        if read.is_invalid() {
            *invalid += 1;
            messages::invalid();
        }
        if read.nothing_read() {
            return Ok(ControlFlow::Continue(()));
        }
        let bytes = read.size() as u64;
        if shards.starts_new(1, bytes) {
            shards.next()?;
        }
        shards.placed(1, bytes);
        let shard = shards.current()?;
        let any = std::mem::replace(&mut shard.any, true);
        if !any {
            target::head(to, &mut shard.out)?;
        } else if shard.last.is_some_and(|b| b != b'\n') && matches!(to, To::Text) {
            shard.out.write_all(b"\n")?;
        }
        target::write(to, &mut shard.out, name, index, read, any, &mut shard.held)?;
        // Text and JSON Lines end their games with a line break.
        shard.last = Some(b'\n');
        Ok(ControlFlow::Continue(()))
    };
    read_all(vec![source], &args.input, opts, progress, map, each).map(|_| ())
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
