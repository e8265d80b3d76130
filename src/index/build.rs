//! Building an index, or adding files to one ([`Builder`]).

use super::read::{self, Index};
use super::{invalid, partition, postings_file, Entry, Posting, Turns, NO_TURN, PARTITIONS};
use super::{FILES, GAMES, GAMES_PER_GROUP, POSTINGS_PER_GROUP, SETUPS, TURNS};
use crate::formats::parquet::properties_with;
use arrow_array::builder::{StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray, UInt32Array, UInt64Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Bytes a posting takes on a run file.
const RUN_BYTES: usize = 20;

/// A run spilled to the work folder: sorted postings, and where each
/// partition starts in it (in postings).
struct Run {
    path: PathBuf,
    starts: [u64; PARTITIONS + 1],
}

/// An archive indexed.
#[derive(Clone, Debug)]
struct FileOut {
    name: String,
    path: String,
    bytes: Option<u64>,
    modified: Option<i64>,
    games: u32,
}

/// Builds an index in a folder, or adds files to the index already there.
pub struct Builder {
    dir: PathBuf,
    work: tempfile::TempDir,
    jobs: usize,
    /// Postings gathered since the last spill, and how many it may hold.
    postings: Vec<Posting>,
    cap: usize,
    runs: Vec<Run>,
    /// The turns' spellings.
    turns: Arc<Turns>,
    games: Option<GamesOut>,
    files: Vec<FileOut>,
    /// The index already there (files are being added to it).
    old: Option<Index>,
    /// Games per game type and settings.
    setups: BTreeMap<(String, String), u64>,
}

/// What was built.
#[derive(Clone, Debug, Default)]
pub struct Built {
    pub files: usize,
    pub games: u64,
    pub postings: u64,
    /// Bytes of the index's files.
    pub bytes: u64,
}

/// zstd's fastest level: the index is written once, read often.
fn fast() -> ZstdLevel {
    ZstdLevel::try_new(1).unwrap_or_default()
}

fn writer_props(table: &str, rows: usize) -> WriterProperties {
    properties_with(table, fast(), Some(rows)).build()
}

fn postings_props() -> WriterProperties {
    let b = properties_with("index-postings", fast(), Some(POSTINGS_PER_GROUP));
    // Keys and game ids are near random: delta-encoded, not compressed
    // (compressing them costs time and saves little).
    let mut b = b;
    for column in ["key", "id"] {
        b = b
            .set_column_dictionary_enabled(ColumnPath::from(column), false)
            .set_column_compression(ColumnPath::from(column), Compression::UNCOMPRESSED)
            .set_column_encoding(ColumnPath::from(column), Encoding::DELTA_BINARY_PACKED);
    }
    b.build()
}

pub fn postings_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("key", DataType::UInt64, false),
        Field::new("id", DataType::UInt32, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("turn", DataType::UInt32, true),
    ]))
}

pub fn games_schema() -> SchemaRef {
    let text = |n: &str| Field::new(n, DataType::Utf8, true);
    let int = |n: &str, t: DataType, null: bool| Field::new(n, t, null);
    Arc::new(Schema::new(vec![
        int("id", DataType::UInt32, false),
        int("file", DataType::UInt32, false),
        int("index", DataType::UInt32, false),
        text("game"),
        text("first_player"),
        text("second_player"),
        Field::new("finish", DataType::Utf8, false),
        int("plies", DataType::UInt32, false),
        text("error"),
        int("offset", DataType::UInt64, true),
        int("length", DataType::UInt64, true),
        int("line", DataType::UInt64, true),
        Field::new("settings", DataType::Utf8, false),
        Field::new("tags", DataType::Utf8, false),
        Field::new("turns", DataType::Utf8, false),
    ]))
}

fn files_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("file", DataType::UInt32, false),
        Field::new("name", DataType::Utf8, false),
        Field::new("path", DataType::Utf8, false),
        Field::new("bytes", DataType::UInt64, true),
        Field::new("modified", DataType::Int64, true),
        Field::new("games", DataType::UInt32, false),
    ]))
}

fn turns_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("turn", DataType::UInt32, false),
        Field::new("text", DataType::Utf8, false),
    ]))
}

/// `games.parquet` as it is written: a batch of rows at a time.
struct GamesOut {
    writer: ArrowWriter<BufWriter<File>>,
    rows: Vec<GameOut>,
    next: u32,
}

/// One game's row.
struct GameOut {
    file: u32,
    index: u32,
    game: Option<&'static str>,
    players: [Option<String>; 2],
    finish: &'static str,
    plies: u32,
    error: Option<String>,
    place: Option<(u64, u64, u64)>,
    settings: String,
    tags: String,
    turns: String,
}

impl GamesOut {
    fn create(path: &Path) -> io::Result<GamesOut> {
        let file = BufWriter::new(File::create(path)?);
        let props = writer_props("index-games", GAMES_PER_GROUP);
        let writer = ArrowWriter::try_new(file, games_schema(), Some(props)).map_err(io_error)?;
        Ok(GamesOut {
            writer,
            rows: Vec::new(),
            next: 0,
        })
    }

    fn push(&mut self, row: GameOut) -> io::Result<u32> {
        let id = self.next;
        self.next = self
            .next
            .checked_add(1)
            .ok_or_else(|| invalid("too many games"))?;
        self.rows.push(row);
        if self.rows.len() == 4096 {
            self.flush()?;
        }
        Ok(id)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let first = self.next - self.rows.len() as u32;
        let rows = std::mem::take(&mut self.rows);
        let batch = games_batch(first, &rows)?;
        self.writer.write(&batch).map_err(io_error)
    }

    /// Copies an existing index's games (ids from 0, in order).
    fn copy(&mut self, batch: &RecordBatch) -> io::Result<()> {
        self.flush()?;
        let batch =
            RecordBatch::try_new(games_schema(), batch.columns().to_vec()).map_err(arrow_error)?;
        self.next += batch.num_rows() as u32;
        self.writer.write(&batch).map_err(io_error)
    }

    fn finish(mut self) -> io::Result<()> {
        self.flush()?;
        self.writer.close().map_err(io_error)?;
        Ok(())
    }
}

fn games_batch(first: u32, rows: &[GameOut]) -> io::Result<RecordBatch> {
    let n = rows.len();
    let u32s = |f: &dyn Fn(usize, &GameOut) -> u32| -> ArrayRef {
        Arc::new(UInt32Array::from_iter_values(
            rows.iter().enumerate().map(|(i, r)| f(i, r)),
        ))
    };
    let texts = |f: &dyn Fn(&GameOut) -> Option<&str>| -> ArrayRef {
        let mut b = StringBuilder::with_capacity(n, n * 8);
        for r in rows {
            b.append_option(f(r));
        }
        Arc::new(b.finish())
    };
    let places = |f: &dyn Fn((u64, u64, u64)) -> u64| -> ArrayRef {
        let mut b = UInt64Builder::with_capacity(n);
        for r in rows {
            b.append_option(r.place.map(f));
        }
        Arc::new(b.finish())
    };
    let columns = vec![
        u32s(&|i, _| first + i as u32),
        u32s(&|_, r| r.file),
        u32s(&|_, r| r.index),
        texts(&|r| r.game),
        texts(&|r| r.players[0].as_deref()),
        texts(&|r| r.players[1].as_deref()),
        texts(&|r| Some(r.finish)),
        u32s(&|_, r| r.plies),
        texts(&|r| r.error.as_deref()),
        places(&|p| p.0),
        places(&|p| p.1),
        places(&|p| p.2),
        texts(&|r| Some(&r.settings)),
        texts(&|r| Some(&r.tags)),
        texts(&|r| Some(&r.turns)),
    ];
    RecordBatch::try_new(games_schema(), columns).map_err(arrow_error)
}

pub(super) fn io_error(e: parquet::errors::ParquetError) -> io::Error {
    io::Error::other(e.to_string())
}

pub(super) fn arrow_error(e: arrow_schema::ArrowError) -> io::Error {
    io::Error::other(e.to_string())
}

impl Builder {
    /// Starts an index in `dir` (made if missing), or adding to the one
    /// there; `memory` bytes of postings are gathered before a run is
    /// spilled; the merge runs on `jobs` threads.
    pub fn create(dir: &Path, memory: usize, jobs: usize) -> io::Result<Builder> {
        std::fs::create_dir_all(dir)?;
        let old = match dir.join(GAMES).exists() {
            true => Some(Index::open(dir)?),
            false => None,
        };
        let work = tempfile::Builder::new()
            .prefix(".index-work")
            .tempdir_in(dir)?;
        let mut games = GamesOut::create(&work.path().join(GAMES))?;
        let (mut turns, mut files, mut setups) = (Vec::new(), Vec::new(), BTreeMap::new());
        if let Some(old) = &old {
            old.each_games_batch(&mut |b| games.copy(b))?;
            turns = old.turn_texts()?;
            files = old.files().iter().map(FileOut::from).collect();
            setups = old
                .setups()?
                .into_iter()
                .map(|(g, s, n)| ((g, s), n))
                .collect();
        }
        Ok(Builder {
            dir: dir.to_path_buf(),
            work,
            jobs: jobs.max(1),
            postings: Vec::new(),
            cap: (memory / std::mem::size_of::<Posting>()).max(1024),
            runs: Vec::new(),
            turns: Arc::new(Turns::new(turns)),
            games: Some(games),
            files,
            old,
            setups,
        })
    }

    /// The turns' dictionary, for [`super::trace`] on the workers.
    pub fn turns(&self) -> Arc<Turns> {
        self.turns.clone()
    }

    /// Whether the file at `path` is in the index already.
    pub fn holds(&self, path: &Path) -> bool {
        let abs = absolute(path);
        self.files.iter().any(|f| f.path == abs)
    }

    /// Starts the games of an archive (its name as given).
    pub fn file(&mut self, name: &str, path: Option<&Path>) -> io::Result<()> {
        let (bytes, modified) = path.map_or((None, None), stamp);
        u32::try_from(self.files.len()).map_err(|_| invalid("too many files"))?;
        self.files.push(FileOut {
            name: name.to_string(),
            path: path.map_or(String::new(), absolute),
            bytes,
            modified,
            games: 0,
        });
        Ok(())
    }

    /// Adds game `index` (1-based) of the archive last started.
    pub fn add(&mut self, index: usize, entry: Entry) -> io::Result<()> {
        let file = self
            .files
            .len()
            .checked_sub(1)
            .ok_or_else(|| invalid("no file started"))?;
        self.files[file].games += 1;
        let Entry {
            game,
            players,
            settings,
            tags,
            traced,
            turn_ids,
            error,
            place,
            ..
        } = entry;
        let row = GameOut {
            file: file as u32,
            index: u32::try_from(index).map_err(|_| invalid("too many games in a file"))?,
            game,
            players,
            finish: super::finish_name(traced.finish),
            plies: traced.keys.len().saturating_sub(1) as u32,
            error: error.map(|p| p.message),
            place,
            settings,
            tags,
            turns: traced.turns,
        };
        if let Some(g) = game {
            *self
                .setups
                .entry((g.to_string(), row.settings.clone()))
                .or_insert(0) += 1;
        }
        let games = self
            .games
            .as_mut()
            .ok_or_else(|| invalid("the index is finished"))?;
        let id = games.push(row)?;
        if self.postings.capacity() == 0 {
            self.postings.reserve_exact(self.cap);
        }
        for (ply, &key) in traced.keys.iter().enumerate() {
            let turn = turn_ids.get(ply).copied().unwrap_or(NO_TURN);
            let ply = ply as u32;
            self.postings.push(Posting { key, id, ply, turn });
        }
        if self.postings.len() >= self.cap {
            self.spill()?;
        }
        Ok(())
    }

    /// Sorts the postings gathered and writes them as a run.
    fn spill(&mut self) -> io::Result<()> {
        sort(&mut self.postings);
        let path = self.work.path().join(format!("run-{}", self.runs.len()));
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&path)?);
        for p in &self.postings {
            let mut b = [0u8; RUN_BYTES];
            b[..8].copy_from_slice(&p.key.to_le_bytes());
            b[8..12].copy_from_slice(&p.id.to_le_bytes());
            b[12..16].copy_from_slice(&p.ply.to_le_bytes());
            b[16..].copy_from_slice(&p.turn.to_le_bytes());
            out.write_all(&b)?;
        }
        out.flush()?;
        let starts = starts(&self.postings);
        self.runs.push(Run { path, starts });
        self.postings.clear();
        Ok(())
    }

    /// Merges and writes everything, then puts the new files in place.
    pub fn finish(mut self) -> io::Result<Built> {
        sort(&mut self.postings);
        let out = self
            .games
            .take()
            .ok_or_else(|| invalid("the index is finished"))?;
        let games = out.next;
        out.finish()?;
        // Turn numbers in the order of their spellings: the same index
        // whatever order the threads met them in.
        let (texts, renumber) = self.turns.renumbering();
        let work = self.work.path().to_path_buf();
        let parts = Parts {
            old: self.old.as_ref(),
            runs: &self.runs,
            postings: &self.postings,
        };
        let total = parts.merge_all(self.jobs, &work, &renumber)?;
        write_turns(&work.join(TURNS), texts.iter().map(String::as_str))?;
        write_files(&work.join(FILES), &self.files)?;
        write_setups(&work.join(SETUPS), &self.setups)?;
        let mut names = [GAMES, TURNS, FILES, SETUPS].map(String::from).to_vec();
        names.extend((0..PARTITIONS).map(postings_file));
        let mut bytes = 0;
        for name in &names {
            bytes += std::fs::metadata(work.join(name))?.len();
            std::fs::rename(work.join(name), self.dir.join(name))?;
        }
        Ok(Built {
            files: self.files.len(),
            games: u64::from(games),
            postings: total,
            bytes,
        })
    }
}

/// What the merge reads: the old index, the runs, the postings in memory
/// (sorted).
struct Parts<'a> {
    old: Option<&'a Index>,
    runs: &'a [Run],
    postings: &'a [Posting],
}

impl Parts<'_> {
    /// Merges each partition's runs (and old postings) into its file, on
    /// `jobs` threads; returns the postings written.
    fn merge_all(&self, jobs: usize, work: &Path, renumber: &[u32]) -> io::Result<u64> {
        let next = AtomicUsize::new(0);
        let total = std::sync::atomic::AtomicU64::new(0);
        let results: Vec<io::Result<()>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..jobs.min(PARTITIONS))
                .map(|_| {
                    s.spawn(|| -> io::Result<()> {
                        loop {
                            let p = next.fetch_add(1, Ordering::Relaxed);
                            if p >= PARTITIONS {
                                return Ok(());
                            }
                            let n = self.merge(p, &work.join(postings_file(p)), renumber)?;
                            total.fetch_add(n, Ordering::Relaxed);
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(io::Error::other("a merge thread failed")))
                })
                .collect()
        });
        results.into_iter().collect::<io::Result<Vec<()>>>()?;
        Ok(total.into_inner())
    }

    /// Merges partition `p` into `out`.
    fn merge(&self, p: usize, out: &Path, renumber: &[u32]) -> io::Result<u64> {
        let mut sources: Vec<Box<dyn Iterator<Item = io::Result<Posting>> + '_>> = Vec::new();
        if let Some(old) = self.old {
            // The old postings: already sorted, their turns numbered as
            // the builder started (the old numbering).
            sources.push(Box::new(old.partition_postings(p)?));
        }
        for run in self.runs {
            sources.push(Box::new(run_segment(run, p)?));
        }
        let lo = self.postings.partition_point(|q| partition(q.key) < p);
        let hi = self.postings.partition_point(|q| partition(q.key) <= p);
        sources.push(Box::new(self.postings[lo..hi].iter().map(|q| Ok(*q))));
        let mut w = PostingsOut::create(out)?;
        let mut heap = BinaryHeap::new();
        for (i, s) in sources.iter_mut().enumerate() {
            if let Some(q) = s.next().transpose()? {
                heap.push(Next::new(q, i));
            }
        }
        let mut n = 0u64;
        while let Some(mut top) = heap.peek_mut() {
            let q = top.posting();
            let turn = match q.turn {
                NO_TURN => NO_TURN,
                t => *renumber
                    .get(t as usize)
                    .ok_or_else(|| invalid("a turn out of range"))?,
            };
            w.push(Posting { turn, ..q })?;
            n += 1;
            // The source's next posting takes the top's place (one sift).
            match sources[top.source as usize].next().transpose()? {
                Some(next) => *top = Next::new(next, top.source as usize),
                None => {
                    std::collections::binary_heap::PeekMut::pop(top);
                }
            }
        }
        w.finish()?;
        Ok(n)
    }
}

impl From<&read::FileRow> for FileOut {
    fn from(f: &read::FileRow) -> FileOut {
        FileOut {
            name: f.name.clone(),
            path: f.path.clone(),
            bytes: f.bytes,
            modified: f.modified,
            games: f.games,
        }
    }
}

/// Sorts postings by key, game and ply: by key first (one word to
/// compare), then each run of one key (the start, the common openings) by
/// game and ply.
fn sort(postings: &mut [Posting]) {
    postings.sort_unstable_by_key(|p| p.key);
    let mut from = 0;
    while from < postings.len() {
        let key = postings[from].key;
        let to = from + postings[from..].partition_point(|p| p.key == key);
        if to - from > 1 {
            postings[from..to].sort_unstable_by_key(|p| (p.id, p.ply));
        }
        from = to;
    }
}

/// A posting in the merge's heap: its order as one number (key, game,
/// ply), least first, and the source it came from.
#[derive(PartialEq, Eq)]
struct Next {
    order: u128,
    turn: u32,
    source: u32,
}

impl Next {
    fn new(p: Posting, source: usize) -> Next {
        Next {
            order: u128::from(p.key) << 64 | u128::from(p.id) << 32 | u128::from(p.ply),
            turn: p.turn,
            source: source as u32,
        }
    }

    fn posting(&self) -> Posting {
        Posting {
            key: (self.order >> 64) as u64,
            id: (self.order >> 32) as u32,
            ply: self.order as u32,
            turn: self.turn,
        }
    }
}

impl Ord for Next {
    fn cmp(&self, other: &Next) -> std::cmp::Ordering {
        other.order.cmp(&self.order)
    }
}

impl PartialOrd for Next {
    fn partial_cmp(&self, other: &Next) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Where each partition starts in sorted postings.
fn starts(sorted: &[Posting]) -> [u64; PARTITIONS + 1] {
    let mut s = [0u64; PARTITIONS + 1];
    for (p, at) in s.iter_mut().enumerate() {
        *at = sorted.partition_point(|q| partition(q.key) < p) as u64;
    }
    s
}

/// Partition `p` of a run, read back.
fn run_segment(run: &Run, p: usize) -> io::Result<impl Iterator<Item = io::Result<Posting>>> {
    let mut file = File::open(&run.path)?;
    file.seek(SeekFrom::Start(run.starts[p] * RUN_BYTES as u64))?;
    let mut r = BufReader::with_capacity(1 << 16, file);
    let mut left = run.starts[p + 1] - run.starts[p];
    Ok(std::iter::from_fn(move || {
        if left == 0 {
            return None;
        }
        left -= 1;
        let mut b = [0u8; RUN_BYTES];
        Some(r.read_exact(&mut b).map(|()| {
            let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
            Posting {
                key: u64::from_le_bytes(b[..8].try_into().unwrap_or_default()),
                id: word(8),
                ply: word(12),
                turn: word(16),
            }
        }))
    }))
}

/// A postings file as it is written.
struct PostingsOut {
    writer: ArrowWriter<BufWriter<File>>,
    rows: Vec<Posting>,
}

impl PostingsOut {
    fn create(path: &Path) -> io::Result<PostingsOut> {
        let file = BufWriter::new(File::create(path)?);
        let writer = ArrowWriter::try_new(file, postings_schema(), Some(postings_props()))
            .map_err(io_error)?;
        Ok(PostingsOut {
            writer,
            rows: Vec::with_capacity(POSTINGS_PER_GROUP),
        })
    }

    fn push(&mut self, p: Posting) -> io::Result<()> {
        self.rows.push(p);
        if self.rows.len() == POSTINGS_PER_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let r = &self.rows;
        let turns: UInt32Array = r
            .iter()
            .map(|p| (p.turn != NO_TURN).then_some(p.turn))
            .collect();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from_iter_values(r.iter().map(|p| p.key))),
            Arc::new(UInt32Array::from_iter_values(r.iter().map(|p| p.id))),
            Arc::new(UInt32Array::from_iter_values(r.iter().map(|p| p.ply))),
            Arc::new(turns),
        ];
        let batch = RecordBatch::try_new(postings_schema(), columns).map_err(arrow_error)?;
        self.writer.write(&batch).map_err(io_error)?;
        self.writer.flush().map_err(io_error)?;
        self.rows.clear();
        Ok(())
    }

    fn finish(mut self) -> io::Result<()> {
        self.flush()?;
        self.writer.close().map_err(io_error)?;
        Ok(())
    }
}

fn write_turns<'a>(path: &Path, texts: impl Iterator<Item = &'a str>) -> io::Result<()> {
    let texts: Vec<&str> = texts.collect();
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt32Array::from_iter_values(0..texts.len() as u32)),
        Arc::new(StringArray::from(texts)),
    ];
    write_one(path, "index-turns", turns_schema(), columns)
}

fn write_setups(path: &Path, setups: &BTreeMap<(String, String), u64>) -> io::Result<()> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("game", DataType::Utf8, false),
        Field::new("settings", DataType::Utf8, false),
        Field::new("games", DataType::UInt64, false),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(setups.keys().map(|k| &k.0))),
        Arc::new(StringArray::from_iter_values(setups.keys().map(|k| &k.1))),
        Arc::new(UInt64Array::from_iter_values(setups.values().copied())),
    ];
    write_one(path, "index-setups", schema, columns)
}

fn write_files(path: &Path, files: &[FileOut]) -> io::Result<()> {
    let mut b = UInt64Builder::new();
    for f in files {
        b.append_option(f.bytes);
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt32Array::from_iter_values(0..files.len() as u32)),
        Arc::new(StringArray::from_iter_values(files.iter().map(|f| &f.name))),
        Arc::new(StringArray::from_iter_values(files.iter().map(|f| &f.path))),
        Arc::new(b.finish()),
        Arc::new(files.iter().map(|f| f.modified).collect::<Int64Array>()),
        Arc::new(UInt32Array::from_iter_values(files.iter().map(|f| f.games))),
    ];
    write_one(path, "index-files", files_schema(), columns)
}

fn write_one(
    path: &Path,
    table: &str,
    schema: SchemaRef,
    columns: Vec<ArrayRef>,
) -> io::Result<()> {
    let batch = RecordBatch::try_new(schema.clone(), columns).map_err(arrow_error)?;
    let file = BufWriter::new(File::create(path)?);
    let mut w =
        ArrowWriter::try_new(file, schema, Some(writer_props(table, 1 << 20))).map_err(io_error)?;
    w.write(&batch).map_err(io_error)?;
    w.close().map_err(io_error)?;
    Ok(())
}

/// A file's size and modification time (nanoseconds since the epoch).
pub fn stamp(path: &Path) -> (Option<u64>, Option<i64>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return (None, None);
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_nanos()).ok());
    (Some(meta.len()), modified)
}

/// A path made absolute (the index is read from other folders).
pub fn absolute(path: &Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .to_string_lossy()
        .into_owned()
}
