//! Reading an index: its files, a key's postings, games by id, and the
//! games that reached a position ([`Index`]).

use super::keyed;
use super::store::{self, named};
use super::tables::{arrow_error, io_error, newer_u64s, texts, u32s, u64s, FileOut};
use super::{invalid, partition, postings_file, Posting, MAX_FILES, MAX_SETUPS};
use super::{FILES, GAMES, SETUPS, TURNS};
use crate::envelope::record::Tag;
use crate::io::formats::parquet::{guard_io, ColumnKind};
use crate::io::inputs::RecordPlace;
use crate::play::pattern::Pattern;
use crate::registry;
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder, RowSelection,
    RowSelector,
};
use parquet::arrow::ProjectionMask;
use parquet::file::statistics::Statistics;
use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An archive in the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRow {
    /// As it was given when indexed (`<stdin>` for standard input).
    pub name: String,
    /// Absolute.
    pub path: String,
    pub bytes: Option<u64>,
    pub modified: Option<i64>,
    pub games: u32,
    /// Standard input's content digest ([`super::content_digest`]);
    /// `None` for a file.
    pub digest: Option<u64>,
}

/// A game's row (less its tags and turns unless asked for).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexedGame {
    pub id: u32,
    pub file: u32,
    pub index: u32,
    pub game: Option<String>,
    pub players: [Option<String>; 2],
    pub finish: String,
    pub plies: u32,
    pub error: Option<String>,
    /// Byte offset, length and line of the record (record-format inputs).
    pub place: Option<(u64, u64, u64)>,
    /// The record's bytes' key ([`gamerec_rules::game::key_of`]), checked when it
    /// is read back from its place (`None`: an index of before digests).
    pub digest: Option<u64>,
    /// Its settings tags, a JSON array of `[name, value]` pairs.
    pub settings: String,
    pub tags: Option<String>,
    pub turns: Option<String>,
}

/// Where a game a query found is read back from: what `filter --index`
/// keeps of each (a few words, not the row's texts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub id: u32,
    pub file: u32,
    pub index: u32,
    pub place: Option<(u64, u64, u64)>,
    pub digest: Option<u64>,
}

impl IndexedGame {
    /// Where to read the game back.
    pub fn placed(&self) -> Placed {
        Placed {
            id: self.id,
            file: self.file,
            index: self.index,
            place: self.place,
            digest: self.digest,
        }
    }
}

/// A game that reached a position, and the first ply it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub game: IndexedGame,
    pub ply: u32,
}

/// Per game type, why a pattern cannot match it ([`Index::pattern`]).
pub(crate) type Misfits = Vec<(String, String)>;

/// How to read an archive's games a query found ([`Index::plan`]).
#[derive(Clone, Debug)]
pub struct ArchiveReading {
    /// The archive's name as it was given when indexed, and its path.
    pub name: String,
    pub path: PathBuf,
    /// The records to read, each from its place; `None`: read the whole
    /// file (not plain record text, or places unknown).
    pub pieces: Option<Vec<RecordPlace>>,
    /// Why it cannot be read as indexed ([`Index::changed`]).
    pub changed: Option<String>,
}

/// Whether a file is plain record text that records can be read from at
/// their byte offsets: not compressed, not UTF-16, not Parquet.
pub fn plain_text(path: &Path) -> bool {
    let mut head = [0u8; 4];
    let n = File::open(path)
        .and_then(|mut f| io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let head = &head[..n];
    let binary = head.starts_with(&[0x1f, 0x8b])
        || head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd])
        || head.starts_with(&[0xff, 0xfe])
        || head.starts_with(&[0xfe, 0xff])
        || head.starts_with(b"PAR1");
    !binary && crate::io::sources::named_compression(path).is_none()
}

/// An index opened for reading: the generation in force when it was
/// opened, every table held open (a writer that switches generations
/// later does not pull them away).
pub struct Index {
    dir: PathBuf,
    tables: BTreeMap<String, (PathBuf, File)>,
    files: Vec<FileRow>,
}

/// A table held open, read again from its start: a new open file
/// description of the same file (`/proc/self/fd`), so that two readers of
/// one table never share a file offset.
fn reopen(path: &Path, file: &File) -> io::Result<File> {
    use std::os::fd::AsRawFd;
    File::open(format!("/proc/self/fd/{}", file.as_raw_fd()))
        .or_else(|_| File::open(path))
        .map_err(|e| named(path, e))
}

fn open_table(path: &Path, file: File) -> io::Result<ParquetRecordBatchReaderBuilder<File>> {
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| named(path, io_error(e)))?;
    unfolds_sanely(path, builder.metadata())?;
    Ok(builder)
}

/// How many times its stored size a column of the index may unfold to
/// when decompressed (gamerec's own tables reach about 35), past
/// [`UNFOLD_FREE`] bytes.
pub(crate) const MOST_UNFOLDING: u64 = 1024;

/// Bytes a column may unfold to whatever its stored size.
pub(crate) const UNFOLD_FREE: u64 = 64 << 20;

/// Refuses a table a column of which would decompress to more than
/// [`MOST_UNFOLDING`] times its stored bytes (and more than
/// [`UNFOLD_FREE`]): a small file that unfolds into gigabytes is not an
/// index gamerec wrote. Read from the footer, before any page is.
fn unfolds_sanely(path: &Path, meta: &parquet::file::metadata::ParquetMetaData) -> io::Result<()> {
    for g in meta.row_groups() {
        for c in g.columns() {
            let (stored, unfolded) = (
                c.compressed_size().max(0) as u64,
                c.uncompressed_size().max(0) as u64,
            );
            if unfolded > UNFOLD_FREE && unfolded > MOST_UNFOLDING.saturating_mul(stored) {
                return Err(named(
                    path,
                    invalid(format!(
                        "column {} unfolds from {stored} to {unfolded} bytes, more than {MOST_UNFOLDING} times: \
                         not an index gamerec wrote (build it again)",
                        c.column_path()
                    )),
                ));
            }
        }
    }
    Ok(())
}

/// Tries to open an index this many times when a writer switches its
/// generation between reading the manifest and opening the tables.
const OPEN_TRIES: usize = 3;

impl Index {
    /// Opens the index in `dir`: the generation its manifest names (or the
    /// tables of an index of before generations), every table held open.
    pub fn open(dir: &Path) -> io::Result<Index> {
        guard_io("the index", || {
            let mut tries = 0;
            loop {
                tries += 1;
                match Self::open_once(dir) {
                    Err(e) if e.kind() == io::ErrorKind::NotFound && tries < OPEN_TRIES => continue,
                    other => return other,
                }
            }
        })
    }

    fn open_once(dir: &Path) -> io::Result<Index> {
        let Some(at) = store::tables_dir(dir)? else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: no index here (no {}): make one with gamerec index",
                    dir.display(),
                    store::MANIFEST
                ),
            ));
        };
        let mut tables = BTreeMap::new();
        for name in store::table_names() {
            let path = at.join(&name);
            let file = File::open(&path).map_err(|e| named(&path, e))?;
            tables.insert(name, (path, file));
        }
        let mut index = Index {
            dir: dir.to_path_buf(),
            tables,
            files: Vec::new(),
        };
        index.files = index.read_files()?;
        Ok(index)
    }

    /// A table of the index, to read from its start.
    fn table(&self, name: &str) -> io::Result<ParquetRecordBatchReaderBuilder<File>> {
        let (path, file) = self
            .tables
            .get(name)
            .ok_or_else(|| invalid(format!("no table {name}")))?;
        open_table(path, reopen(path, file)?)
    }

    /// `games.parquet` to read from its start, its text columns decoded as
    /// dictionaries: a value the file stores once and names from many rows
    /// (a dictionary page) is held once, not copied into every row — a
    /// small file cannot unfold into gigabytes. Rows are made from it one
    /// at a time ([`GameColumns`]).
    fn games_table(&self) -> io::Result<ParquetRecordBatchReaderBuilder<File>> {
        let (path, file) = self
            .tables
            .get(GAMES)
            .ok_or_else(|| invalid(format!("no table {GAMES}")))?;
        let plain = self.table(GAMES)?;
        let fields: Vec<Field> = (plain.schema().fields().iter())
            .map(|f| match f.data_type() {
                DataType::Utf8 => Field::new(
                    f.name(),
                    DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
                    f.is_nullable(),
                ),
                _ => f.as_ref().clone(),
            })
            .collect();
        let schema = Arc::new(Schema::new_with_metadata(
            fields,
            plain.schema().metadata().clone(),
        ));
        let options = ArrowReaderOptions::new().with_schema(schema);
        let builder =
            ParquetRecordBatchReaderBuilder::try_new_with_options(reopen(path, file)?, options)
                .map_err(|e| named(path, io_error(e)))?;
        // Values stored plain are as large decoded as the footer says
        // (however well they compress): as many rows a batch as fit in
        // TEXT_AT_ONCE by the largest row group's bytes a row.
        let per_row = (builder.metadata().row_groups().iter())
            .map(|g| g.total_byte_size().max(0) as u64 / g.num_rows().max(1) as u64)
            .max()
            .unwrap_or(0)
            .max(1);
        let rows = (TEXT_AT_ONCE as u64 / per_row).clamp(1, 1 << 14) as usize;
        Ok(builder.with_batch_size(rows))
    }

    /// A table's path, for messages.
    fn path_of(&self, name: &str) -> PathBuf {
        self.tables
            .get(name)
            .map_or_else(|| self.dir.join(name), |(p, _)| p.clone())
    }

    fn read_files(&self) -> io::Result<Vec<FileRow>> {
        let mut files = Vec::new();
        let path = self.path_of(FILES);
        let in_file = |e: io::Error| named(&path, e);
        for b in self
            .table(FILES)?
            .build()
            .map_err(io_error)
            .map_err(in_file)?
        {
            let b = b.map_err(arrow_error).map_err(in_file)?;
            let (names, paths) = (texts(&b, "name"), texts(&b, "path"));
            let (names, paths) = (names.map_err(in_file)?, paths.map_err(in_file)?);
            let (bytes, games) = (u64s(&b, "bytes"), u32s(&b, "games"));
            let (bytes, games) = (bytes.map_err(in_file)?, games.map_err(in_file)?);
            let modified = b
                .column_by_name("modified")
                .and_then(|c| c.as_primitive_opt::<Int64Type>().cloned())
                .ok_or_else(|| in_file(invalid("no modified column")))?;
            // Standard input's digest (none in an index of before it).
            let digests = newer_u64s(&b, "digest").map_err(in_file)?;
            for i in 0..b.num_rows() {
                if files.len() >= MAX_FILES {
                    return Err(in_file(invalid(format!("more than {MAX_FILES} files"))));
                }
                files.push(FileRow {
                    name: names[i].clone().unwrap_or_default(),
                    path: paths[i].clone().unwrap_or_default(),
                    bytes: bytes[i],
                    modified: (!modified.is_null(i)).then(|| modified.value(i)),
                    games: games[i],
                    digest: digests[i],
                });
            }
        }
        Ok(files)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The archives indexed, by file number.
    pub fn files(&self) -> &[FileRow] {
        &self.files
    }

    /// Games in the index.
    pub fn games(&self) -> u64 {
        self.files.iter().map(|f| u64::from(f.games)).sum()
    }

    /// The turns' spellings, by number.
    pub fn turn_texts(&self) -> io::Result<Vec<String>> {
        guard_io(TURNS, || {
            let mut out = Vec::new();
            for b in self.table(TURNS)?.build().map_err(io_error)? {
                let b = b.map_err(arrow_error)?;
                out.extend(
                    texts(&b, "text")?
                        .into_iter()
                        .map(Option::unwrap_or_default),
                );
            }
            Ok(out)
        })
    }

    /// Hands every batch of `games.parquet` to `f`, in order.
    pub(crate) fn each_games_batch(
        &self,
        f: &mut dyn FnMut(&RecordBatch) -> io::Result<()>,
    ) -> io::Result<()> {
        guard_io(GAMES, || {
            for b in self.table(GAMES)?.build().map_err(io_error)? {
                f(&b.map_err(arrow_error)?)?;
            }
            Ok(())
        })
    }

    /// Every game row, in order, handed on in chunks of at most
    /// [`ROWS_AT_ONCE`] rows and [`TEXT_AT_ONCE`] bytes of text (a chunk
    /// is worked on in parallel, so its texts are held at once).
    fn each_games_chunk(
        &self,
        long: Columns,
        f: &mut dyn FnMut(Vec<IndexedGame>) -> io::Result<()>,
    ) -> io::Result<()> {
        guard_io(GAMES, || {
            let reader = self.games_table()?.build().map_err(io_error)?;
            for b in reader {
                let b = b.map_err(arrow_error)?;
                let cols = GameColumns::of(&b, long)?;
                let (mut chunk, mut bytes) = (Vec::new(), 0);
                for i in 0..b.num_rows() {
                    let size = cols.text_len(i);
                    if !chunk.is_empty()
                        && (bytes + size > TEXT_AT_ONCE || chunk.len() >= ROWS_AT_ONCE)
                    {
                        f(std::mem::take(&mut chunk))?;
                        bytes = 0;
                    }
                    chunk.push(cols.row(i)?);
                    bytes += size;
                }
                if !chunk.is_empty() {
                    f(chunk)?;
                }
            }
            Ok(())
        })
    }

    /// Every posting of partition `p`, in order.
    pub(crate) fn partition_postings(
        &self,
        p: usize,
    ) -> io::Result<impl Iterator<Item = io::Result<Posting>>> {
        let reader = self
            .table(&postings_file(p))?
            .with_batch_size(1 << 16)
            .build()
            .map_err(io_error)?;
        Ok(postings_of(reader))
    }

    /// The games `games.parquet` holds (its rows, from its footer).
    fn game_count(&self) -> io::Result<u64> {
        guard_io(GAMES, || {
            let builder = self.table(GAMES)?;
            let rows = builder.metadata().row_groups().iter();
            Ok(rows.map(|g| g.num_rows().max(0) as u64).sum())
        })
    }

    /// The first posting of `key` of each game that reached it (its
    /// earliest ply), by game. Streamed and checked as read: a partition's
    /// postings are sorted by key, game and ply, and name games the index
    /// holds, so memory is at most a posting a game, however many a
    /// damaged or hand-made file repeats.
    pub fn postings(&self, key: u64) -> io::Result<Vec<Posting>> {
        let games = self.game_count()?;
        let file = postings_file(partition(key));
        let path = self.path_of(&file);
        let damaged = |why: String| {
            named(
                &path,
                invalid(format!("{why}: the index is damaged (build it again)")),
            )
        };
        guard_io("the postings", || {
            let builder = self.table(&file)?;
            let groups: Vec<usize> = builder
                .metadata()
                .row_groups()
                .iter()
                .enumerate()
                .filter(|(_, g)| match g.column(0).statistics() {
                    Some(Statistics::Int64(s)) => match (s.min_opt(), s.max_opt()) {
                        (Some(&lo), Some(&hi)) => (lo as u64) <= key && key <= hi as u64,
                        _ => true,
                    },
                    _ => true,
                })
                .map(|(i, _)| i)
                .collect();
            let reader = builder
                .with_row_groups(groups)
                .with_batch_size(1 << 16)
                .build()
                .map_err(io_error)?;
            let mut out: Vec<Posting> = Vec::new();
            let mut last: Option<(u64, u32, u32)> = None;
            for p in postings_of(reader) {
                let p = p?;
                let here = (p.key, p.id, p.ply);
                if last.is_some_and(|l| l > here) {
                    return Err(damaged(format!("postings out of order at key {key:016x}")));
                }
                last = Some(here);
                if p.key != key {
                    continue;
                }
                if u64::from(p.id) >= games {
                    return Err(damaged(format!(
                        "a posting names game {}, past its {games} games",
                        p.id
                    )));
                }
                if out.last().is_none_or(|o| o.id != p.id) {
                    out.push(p);
                }
            }
            Ok(out)
        })
    }

    /// The rows of games `ids` (sorted, no repeats), with their tags and
    /// turns when `whole`.
    pub(crate) fn game_rows(&self, ids: &[u32], whole: bool) -> io::Result<Vec<IndexedGame>> {
        guard_io(GAMES, || {
            let builder = self.games_table()?;
            let meta = builder.metadata().clone();
            let mut starts = Vec::new();
            let mut at = 0u64;
            for g in meta.row_groups() {
                starts.push(at);
                at += g.num_rows() as u64;
            }
            if let Some(&id) = ids.iter().find(|&&id| u64::from(id) >= at) {
                return Err(
                    self.damaged(format!("the postings name game {id}, past its {at} games"))
                );
            }
            let schema = builder.parquet_schema();
            let leaves: Vec<usize> = (0..schema.num_columns())
                .filter(|&i| whole || !matches!(schema.column(i).name(), "tags" | "turns"))
                .collect();
            let mask = ProjectionMask::leaves(schema, leaves);
            let (groups, selectors) = selection(ids, &starts, &meta);
            let reader = builder
                .with_projection(mask)
                .with_row_groups(groups)
                .with_row_selection(RowSelection::from(selectors))
                .build()
                .map_err(io_error)?;
            let mut out = Vec::with_capacity(ids.len());
            let long = Columns {
                tags: whole,
                turns: whole,
            };
            for b in reader {
                let b = b.map_err(arrow_error)?;
                let cols = GameColumns::of(&b, long)?;
                for i in 0..b.num_rows() {
                    out.push(cols.row(i)?);
                }
            }
            self.are_the_asked(&out, ids)?;
            Ok(out)
        })
    }

    /// Checks that the rows read are the games asked for (a game's id is
    /// its row).
    fn are_the_asked(&self, out: &[IndexedGame], ids: &[u32]) -> io::Result<()> {
        let mut asked: Vec<u32> = ids.to_vec();
        asked.sort_unstable();
        asked.dedup();
        if out.len() == asked.len() && out.iter().zip(&asked).all(|(r, &id)| r.id == id) {
            return Ok(());
        }
        let found = out.iter().zip(&asked).find(|(r, &id)| r.id != id);
        Err(self.damaged(match found {
            Some((r, id)) => format!("row {id} holds game {}, not game {id}", r.id),
            None => format!("{} rows read for {} games asked", out.len(), asked.len()),
        }))
    }

    /// `games.parquet` is damaged, and why.
    fn damaged(&self, why: String) -> io::Error {
        named(
            &self.path_of(GAMES),
            invalid(format!("{why}: the index is damaged (build it again)")),
        )
    }

    /// Every game row, in order, with its tags, and its turns when `turns`.
    pub(crate) fn each_game_row(
        &self,
        turns: bool,
        f: &mut dyn FnMut(IndexedGame) -> io::Result<()>,
    ) -> io::Result<()> {
        guard_io(GAMES, || {
            let builder = self.games_table()?;
            let schema = builder.parquet_schema();
            let leaves: Vec<usize> = (0..schema.num_columns())
                .filter(|&i| turns || schema.column(i).name() != "turns")
                .collect();
            let mask = ProjectionMask::leaves(schema, leaves);
            let reader = builder.with_projection(mask).build().map_err(io_error)?;
            for b in reader {
                let b = b.map_err(arrow_error)?;
                let cols = GameColumns::of(&b, Columns { tags: true, turns })?;
                for i in 0..b.num_rows() {
                    f(cols.row(i)?)?;
                }
            }
            Ok(())
        })
    }

    /// The game types and settings of the index's games, and how many
    /// games each has.
    pub fn setups(&self) -> io::Result<Vec<(String, String, u64)>> {
        guard_io(SETUPS, || {
            let mut out = Vec::new();
            for b in self.table(SETUPS)?.build().map_err(io_error)? {
                let b = b.map_err(arrow_error)?;
                let (games, settings, counts) = (
                    texts(&b, "game")?,
                    texts(&b, "settings")?,
                    u64s(&b, "games")?,
                );
                if out.len() + b.num_rows() > MAX_SETUPS {
                    return Err(named(
                        &self.path_of(SETUPS),
                        invalid(format!("more than {MAX_SETUPS} game types and settings")),
                    ));
                }
                for i in 0..b.num_rows() {
                    let (g, s) = (games[i].clone(), settings[i].clone());
                    out.push((
                        g.unwrap_or_default(),
                        s.unwrap_or_default(),
                        counts[i].unwrap_or(0),
                    ));
                }
            }
            Ok(out)
        })
    }

    /// The games that reached `position` (a `Position` notation: it is
    /// read under each game type and settings the index holds, as `filter
    /// --reaches` reads it), with the first ply each reached it; `Err` with
    /// why when none reads it.
    pub fn reaches(&self, position: &str) -> io::Result<Result<Vec<Hit>, String>> {
        self.reaches_with(position, &mut |game, ply| Hit { game, ply })
    }

    /// [`Index::reaches`], each game's row and ply kept as `keep` makes
    /// them: the game rows are read [`ROWS_AT_ONCE`] at a time, so memory
    /// follows what `keep` keeps (`filter --index` keeps where to read the
    /// record, not the row's texts).
    pub(crate) fn reaches_with<T>(
        &self,
        position: &str,
        keep: &mut dyn FnMut(IndexedGame, u32) -> T,
    ) -> io::Result<Result<Vec<T>, String>> {
        let mut keyed = Vec::new();
        let mut why = Vec::new();
        for (game, settings, _) in self.setups()? {
            let Some(g) = registry::find(&game) else {
                continue;
            };
            match keyed::position_key(g, &tags_of(&settings), position.trim()) {
                Ok(key) => keyed.push((g.name(), settings, key)),
                Err(e) => why.push(format!("{game}: {e}")),
            }
        }
        if keyed.is_empty() {
            why.dedup();
            let why = match why.is_empty() {
                true => "the index holds no game".to_string(),
                false => why.join("; "),
            };
            return Ok(Err(format!("no game reads this position ({why})")));
        }
        let mut hits = Vec::new();
        for (game, settings, key) in keyed {
            // The first posting of each game, by game: its earliest ply.
            let postings = self.postings(key)?;
            hits.reserve_exact(postings.len());
            for chunk in postings.chunks(ROWS_AT_ONCE) {
                let ids: Vec<u32> = chunk.iter().map(|p| p.id).collect();
                for (row, p) in self.game_rows(&ids, false)?.into_iter().zip(chunk) {
                    if row.game.as_deref() == Some(game) && row.settings == settings {
                        let id = row.id;
                        hits.push((id, keep(row, p.ply)));
                    }
                }
            }
        }
        hits.sort_unstable_by_key(|h| h.0);
        Ok(Ok(hits.into_iter().map(|h| h.1).collect()))
    }

    /// The games a position of which matches `pattern`, each with the
    /// first ply one did: every game's turns replayed from the index (on
    /// the threads rayon has), not from its archive. Also, per game type,
    /// why the pattern cannot match it (a cell or piece it does not have),
    /// in the order first met.
    pub fn pattern(&self, pattern: &Pattern) -> io::Result<(Vec<Hit>, Misfits)> {
        use rayon::prelude::*;
        let mut hits = Vec::new();
        let mut misfits: Vec<(String, String)> = Vec::new();
        let long = Columns {
            tags: true,
            turns: true,
        };
        self.each_games_chunk(long, &mut |rows| {
            let found: Vec<(IndexedGame, Result<Option<usize>, String>)> = rows
                .into_par_iter()
                .map(|row| {
                    let game = row.game.as_deref().and_then(registry::find);
                    let tags = tags_of(row.tags.as_deref().unwrap_or("[]"));
                    let turns = row.turns.as_deref().unwrap_or("");
                    let m = game.map_or(Ok(None), |g| keyed::first_match(g, pattern, &tags, turns));
                    (row, m)
                })
                .collect();
            for (row, m) in found {
                match m {
                    // A hit keeps its row less its tags and turns (what
                    // the game held most of).
                    Ok(Some(ply)) => hits.push(Hit {
                        game: IndexedGame {
                            tags: None,
                            turns: None,
                            ..row
                        },
                        ply: ply as u32,
                    }),
                    Ok(None) => {}
                    Err(why) => {
                        let game = row.game.clone().unwrap_or_default();
                        if !misfits.iter().any(|(g, _)| *g == game) {
                            misfits.push((game, why));
                        }
                    }
                }
            }
            Ok(())
        })?;
        Ok((hits, misfits))
    }

    /// How to read the games `hits` names from their archives, file by file
    /// in the index's order: each record from its place where the index
    /// has it and the file is plain record text, else the whole file.
    pub fn plan(&self, hits: &[Placed]) -> Vec<ArchiveReading> {
        let mut by_file: BTreeMap<u32, Vec<&Placed>> = BTreeMap::new();
        for h in hits {
            by_file.entry(h.file).or_default().push(h);
        }
        by_file
            .into_iter()
            .filter_map(|(file, hits)| {
                let f = self.files.get(file as usize)?;
                let path = PathBuf::from(&f.path);
                let mut pieces: Option<Vec<RecordPlace>> = plain_text(&path).then(Vec::new);
                for h in hits {
                    match (h.place, pieces.as_mut()) {
                        (Some(place), Some(p)) => p.push(RecordPlace {
                            index: h.index as usize,
                            place,
                            digest: h.digest,
                        }),
                        _ => pieces = None,
                    }
                }
                if let Some(p) = pieces.as_mut() {
                    p.sort_by_key(|p| (p.index, p.place));
                    p.dedup_by_key(|p| (p.index, p.place));
                }
                Some(ArchiveReading {
                    name: f.name.clone(),
                    path,
                    pieces,
                    changed: self.changed(file),
                })
            })
            .collect()
    }

    /// Why the index's answers may be stale: the first archive (read from
    /// a path) gone or changed since it was indexed. Every query refuses
    /// then (`filter --index`, `tree --index`, Python's `Index`), saying to
    /// index it again — which replaces the changed file's games.
    pub fn stale(&self) -> Option<String> {
        (0..self.files.len() as u32)
            .filter(|&f| !self.files[f as usize].path.is_empty())
            .find_map(|f| self.changed(f))
    }

    /// Why an archive cannot be read where the index says its games are:
    /// it is gone, or its size or time changed since it was indexed.
    pub fn changed(&self, file: u32) -> Option<String> {
        let f = self.files.get(file as usize)?;
        if f.path.is_empty() {
            return Some(format!(
                "{}: indexed from a stream (standard input), which cannot be read again",
                f.name
            ));
        }
        let (bytes, modified) = super::stamp(Path::new(&f.path));
        match (bytes, modified) {
            (None, _) => Some(format!(
                "{}: gone since it was indexed (index the folder anew)",
                f.name
            )),
            (b, m) if b != f.bytes || m != f.modified => Some(format!(
                "{}: changed since it was indexed (run gamerec index on it again to update \
                 the index)",
                f.name
            )),
            _ => None,
        }
    }
}

/// The row groups holding `ids` (each below the games' count), and the
/// runs of rows to read through them, in order: only the wanted rows are
/// decoded.
fn selection(
    ids: &[u32],
    starts: &[u64],
    meta: &parquet::file::metadata::ParquetMetaData,
) -> (Vec<usize>, Vec<RowSelector>) {
    let mut wanted: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for &id in ids {
        let g = starts
            .partition_point(|&s| s <= u64::from(id))
            .saturating_sub(1);
        wanted.entry(g).or_default().push(id);
    }
    let mut selectors = Vec::new();
    for (&g, ids) in &mut wanted {
        let mut at = starts[g];
        ids.sort_unstable();
        ids.dedup();
        for &id in ids.iter() {
            let id = u64::from(id);
            if id > at {
                selectors.push(RowSelector::skip((id - at) as usize));
            }
            selectors.push(RowSelector::select(1));
            at = id + 1;
        }
        let end = starts[g] + meta.row_group(g).num_rows() as u64;
        if end > at {
            selectors.push(RowSelector::skip((end - at) as usize));
        }
    }
    (wanted.into_keys().collect(), selectors)
}

/// Game rows a query reads at once.
pub(crate) const ROWS_AT_ONCE: usize = 4096;

/// Bytes of tags and turns a query holds at once while it works on a
/// chunk of games in parallel (a single game may hold more: up to a
/// record's cap).
pub(crate) const TEXT_AT_ONCE: usize = 64 << 20;

/// The columns of a table of hits (Python's `Index.reaches()` and
/// `.pattern()`): the game's `id` in the index, its `file` (as given when
/// indexed) and `index` there, its `game` type, the first `ply` after
/// which it matched, and its `finish`.
pub fn hit_columns() -> Vec<(String, ColumnKind)> {
    [
        ("id", ColumnKind::Int),
        ("file", ColumnKind::Text),
        ("index", ColumnKind::Int),
        ("game", ColumnKind::Text),
        ("ply", ColumnKind::Int),
        ("finish", ColumnKind::Text),
    ]
    .into_iter()
    .map(|(n, k)| (n.to_string(), k))
    .collect()
}

impl Hit {
    /// The hit's row ([`hit_columns`]).
    pub fn row(&self, index: &Index) -> Vec<serde_json::Value> {
        let file = index
            .files
            .get(self.game.file as usize)
            .map(|f| f.name.as_str());
        vec![
            self.game.id.into(),
            file.into(),
            self.game.index.into(),
            self.game.game.as_deref().into(),
            self.ply.into(),
            self.game.finish.as_str().into(),
        ]
    }
}

/// A game's tags from the index's `tags` column.
pub fn tags_of(json: &str) -> Vec<Tag> {
    let pairs: Vec<(String, String)> = serde_json::from_str(json).unwrap_or_default();
    pairs
        .into_iter()
        .map(|(name, value)| Tag::unplaced(&name, &value))
        .collect()
}

/// Which of the long columns to read.
#[derive(Clone, Copy)]
struct Columns {
    tags: bool,
    turns: bool,
}

/// A text column of a batch of `games.parquet`: plain, or decoded as a
/// dictionary ([`Index::games_table`]).
enum TextColumn<'a> {
    Plain(&'a arrow_array::StringArray),
    Dictionary(
        &'a arrow_array::Int32DictionaryArray,
        &'a arrow_array::StringArray,
    ),
    /// Not read (a long column left out).
    Absent,
}

impl<'a> TextColumn<'a> {
    fn of(b: &'a RecordBatch, name: &str) -> io::Result<TextColumn<'a>> {
        let c = b
            .column_by_name(name)
            .ok_or_else(|| invalid(format!("no column {name}")))?;
        if let Some(a) = c.as_string_opt::<i32>() {
            return Ok(TextColumn::Plain(a));
        }
        let not_text = || invalid(format!("{name}: not text"));
        let d = c.as_dictionary_opt::<Int32Type>().ok_or_else(not_text)?;
        let values = d.values().as_string_opt::<i32>().ok_or_else(not_text)?;
        Ok(TextColumn::Dictionary(d, values))
    }

    fn get(&self, i: usize) -> Option<&'a str> {
        match self {
            TextColumn::Plain(a) => (!a.is_null(i)).then(|| a.value(i)),
            TextColumn::Dictionary(d, values) => {
                let k = d.key(i)?;
                (k < values.len() && !values.is_null(k)).then(|| values.value(k))
            }
            TextColumn::Absent => None,
        }
    }

    /// Row `i`'s text, owned; longer than any record's can be (its tags
    /// as JSON, each byte escaped at most six bytes long), the index is
    /// damaged.
    fn owned(&self, i: usize) -> io::Result<Option<String>> {
        const MOST: usize = 6 * crate::envelope::record::MAX_RECORD_BYTES;
        match self.get(i) {
            Some(t) if t.len() > MOST => Err(invalid(format!(
                "a text of {} bytes in games.parquet, longer than a record's can be: the index is damaged (build it again)",
                t.len()
            ))),
            t => Ok(t.map(str::to_string)),
        }
    }
}

/// The columns of a batch of `games.parquet`, rows made from them one at
/// a time.
struct GameColumns<'a> {
    id: Vec<u32>,
    file: Vec<u32>,
    index: Vec<u32>,
    plies: Vec<u32>,
    offset: Vec<Option<u64>>,
    length: Vec<Option<u64>>,
    line: Vec<Option<u64>>,
    digest: Vec<Option<u64>>,
    game: TextColumn<'a>,
    players: [TextColumn<'a>; 2],
    finish: TextColumn<'a>,
    error: TextColumn<'a>,
    settings: TextColumn<'a>,
    tags: TextColumn<'a>,
    turns: TextColumn<'a>,
}

impl<'a> GameColumns<'a> {
    fn of(b: &'a RecordBatch, long: Columns) -> io::Result<GameColumns<'a>> {
        let text = |name| TextColumn::of(b, name);
        let long_text = |name, wanted: bool| match wanted {
            true => TextColumn::of(b, name),
            false => Ok(TextColumn::Absent),
        };
        Ok(GameColumns {
            id: u32s(b, "id")?,
            file: u32s(b, "file")?,
            index: u32s(b, "index")?,
            plies: u32s(b, "plies")?,
            offset: u64s(b, "offset")?,
            length: u64s(b, "length")?,
            line: u64s(b, "line")?,
            digest: newer_u64s(b, "digest")?,
            game: text("game")?,
            players: [text("first_player")?, text("second_player")?],
            finish: text("finish")?,
            error: text("error")?,
            settings: text("settings")?,
            tags: long_text("tags", long.tags)?,
            turns: long_text("turns", long.turns)?,
        })
    }

    /// The bytes of row `i`'s tags and turns (what a row holds most of).
    fn text_len(&self, i: usize) -> usize {
        let len = |c: &TextColumn<'_>| c.get(i).map_or(0, str::len);
        len(&self.tags) + len(&self.turns)
    }

    fn row(&self, i: usize) -> io::Result<IndexedGame> {
        Ok(IndexedGame {
            id: self.id[i],
            file: self.file[i],
            index: self.index[i],
            game: self.game.owned(i)?,
            players: [self.players[0].owned(i)?, self.players[1].owned(i)?],
            finish: self.finish.owned(i)?.unwrap_or_default(),
            plies: self.plies[i],
            error: self.error.owned(i)?,
            place: match (self.offset[i], self.length[i], self.line[i]) {
                (Some(o), Some(l), Some(n)) => Some((o, l, n)),
                _ => None,
            },
            digest: self.digest[i],
            settings: self.settings.owned(i)?.unwrap_or_default(),
            tags: self.tags.owned(i)?,
            turns: self.turns.owned(i)?,
        })
    }
}

/// The postings a reader reads, in order.
fn postings_of(reader: ParquetRecordBatchReader) -> impl Iterator<Item = io::Result<Posting>> {
    reader.flat_map(|b| {
        let rows: Vec<io::Result<Posting>> = match b.map_err(arrow_error).and_then(|b| {
            let keys = b
                .column(0)
                .as_primitive_opt::<UInt64Type>()
                .cloned()
                .ok_or_else(|| invalid("key: not u64"))?;
            let (id, ply, turn) = (u32s(&b, "id")?, u32s(&b, "ply")?, u32s(&b, "turn")?);
            Ok((0..b.num_rows())
                .map(|i| {
                    Ok(Posting {
                        key: keys.value(i),
                        id: id[i],
                        ply: ply[i],
                        turn: turn[i],
                    })
                })
                .collect())
        }) {
            Ok(rows) => rows,
            Err(e) => vec![Err(e)],
        };
        rows
    })
}

impl From<&FileRow> for FileOut {
    fn from(f: &FileRow) -> FileOut {
        FileOut {
            name: f.name.clone(),
            path: f.path.clone(),
            bytes: f.bytes,
            modified: f.modified,
            games: f.games,
            digest: f.digest,
        }
    }
}
