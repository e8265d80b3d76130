//! The index's tables as they are written: schemas, writer properties,
//! the games and postings writers, and the small tables.

use super::{invalid, Posting, DROPPED, NO_TURN};
use super::{GAMES_PER_GROUP, POSTINGS_PER_GROUP};
use crate::io::formats::parquet::properties_with;
use arrow_array::builder::{StringBuilder, UInt64Builder};
use arrow_array::cast::AsArray;
use arrow_array::types::{UInt32Type, UInt64Type};
use arrow_array::{
    Array, ArrayRef, Int64Array, RecordBatch, StringArray, UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;
use std::sync::Arc;

/// An archive indexed.
#[derive(Clone, Debug)]
pub(super) struct FileOut {
    pub(super) name: String,
    pub(super) path: String,
    pub(super) bytes: Option<u64>,
    pub(super) modified: Option<i64>,
    pub(super) games: u32,
    /// Standard input's content digest ([`super::content_digest`]).
    pub(super) digest: Option<u64>,
}

/// zstd's fastest level: the index is written once, read often.
pub(super) fn fast() -> ZstdLevel {
    ZstdLevel::try_new(1).unwrap_or_default()
}

pub(super) fn writer_props(table: &str, rows: usize) -> WriterProperties {
    properties_with(table, fast(), Some(rows)).build()
}

pub(super) fn postings_props() -> WriterProperties {
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

pub(crate) fn postings_schema() -> SchemaRef {
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
        int("digest", DataType::UInt64, true),
        Field::new("settings", DataType::Utf8, false),
        Field::new("tags", DataType::Utf8, false),
        Field::new("turns", DataType::Utf8, false),
    ]))
}

pub(super) fn files_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("file", DataType::UInt32, false),
        Field::new("name", DataType::Utf8, false),
        Field::new("path", DataType::Utf8, false),
        Field::new("bytes", DataType::UInt64, true),
        Field::new("modified", DataType::Int64, true),
        Field::new("games", DataType::UInt32, false),
        Field::new("digest", DataType::UInt64, true),
    ]))
}

pub(super) fn turns_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("turn", DataType::UInt32, false),
        Field::new("text", DataType::Utf8, false),
    ]))
}

/// `games.parquet` as it is written: a batch of rows at a time.
pub(super) struct GamesOut {
    /// The thread writing the table, fed batch by batch (a bounded
    /// channel: at most one batch waits while another is written).
    writer: Option<Writing>,
    pub(super) rows: Vec<GameRowOut>,
    pub(super) next: u32,
}

/// The games table's writer thread (it encodes and compresses the
/// batches made here, rows made into columns on this thread so that the
/// rows' blocks are freed where they were made) and its channel.
struct Writing {
    send: std::sync::mpsc::SyncSender<RecordBatch>,
    thread: std::thread::JoinHandle<io::Result<()>>,
}

/// One game's row.
pub(super) struct GameRowOut {
    pub(super) file: u32,
    pub(super) index: u32,
    pub(super) game: Option<&'static str>,
    pub(super) players: [Option<String>; 2],
    pub(super) finish: &'static str,
    pub(super) plies: u32,
    pub(super) error: Option<String>,
    pub(super) place: Option<(u64, u64, u64)>,
    pub(super) digest: Option<u64>,
    pub(super) settings: String,
    pub(super) tags: String,
    pub(super) turns: String,
}

impl GamesOut {
    /// Starts the table at `path`, written on a thread of its own.
    pub(super) fn create(path: &Path) -> io::Result<GamesOut> {
        let file = BufWriter::new(File::create(path)?);
        let props = writer_props("index-games", GAMES_PER_GROUP);
        let mut writer =
            ArrowWriter::try_new(file, games_schema(), Some(props)).map_err(io_error)?;
        let (send, receive) = std::sync::mpsc::sync_channel::<RecordBatch>(0);
        let thread = std::thread::Builder::new()
            .name("index games".into())
            .spawn(move || -> io::Result<()> {
                for batch in receive {
                    writer.write(&batch).map_err(io_error)?;
                }
                writer.close().map_err(io_error)?;
                Ok(())
            })?;
        Ok(GamesOut {
            writer: Some(Writing { send, thread }),
            rows: Vec::new(),
            next: 0,
        })
    }

    pub(super) fn push(&mut self, row: GameRowOut) -> io::Result<u32> {
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

    pub(super) fn flush(&mut self) -> io::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let first = self.next - self.rows.len() as u32;
        let batch = games_batch(first, &self.rows)?;
        self.rows.clear();
        self.send(batch)
    }

    /// Hands a batch to the writer thread; its error if it stopped.
    fn send(&mut self, batch: RecordBatch) -> io::Result<()> {
        let writing = self
            .writer
            .as_ref()
            .ok_or_else(|| invalid("the games table is finished"))?;
        if writing.send.send(batch).is_ok() {
            return Ok(());
        }
        // The thread stopped: its error says why.
        self.join()?;
        Err(invalid("the games table's writer stopped"))
    }

    /// Waits for the writer thread to write what it was given and close
    /// the table.
    fn join(&mut self) -> io::Result<()> {
        let Some(Writing { send, thread }) = self.writer.take() else {
            return Ok(());
        };
        drop(send);
        thread
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the games table's writer failed")))
    }

    /// Carries a batch of an existing index's games (read in order) into
    /// this one, less those of the files `dropped`: each kept game takes
    /// the next id, and `kept` gets each old game's new id ([`DROPPED`]
    /// for the rest); `gone` gets each dropped game's type and settings.
    /// A column an older index lacks (`digest`) is carried as nulls.
    pub(super) fn carry(
        &mut self,
        batch: &RecordBatch,
        dropped: &[u32],
        kept: &mut Vec<u32>,
        gone: &mut Vec<(String, String)>,
    ) -> io::Result<()> {
        self.flush()?;
        let (files, games, settings) = (
            u32s(batch, "file")?,
            texts(batch, "game")?,
            texts(batch, "settings")?,
        );
        let schema = games_schema();
        let n = batch.num_rows();
        let mut row = 0;
        while row < n {
            // A run of rows all kept, or all dropped.
            let drop = dropped.contains(&files[row]);
            let end = (row..n)
                .find(|&i| dropped.contains(&files[i]) != drop)
                .unwrap_or(n);
            if drop {
                kept.extend(std::iter::repeat_n(DROPPED, end - row));
                for i in row..end {
                    if let Some(g) = &games[i] {
                        gone.push((g.clone(), settings[i].clone().unwrap_or_default()));
                    }
                }
            } else {
                let part = batch.slice(row, end - row);
                let first = self.next;
                let ids = UInt32Array::from_iter_values(first..first + (end - row) as u32);
                let columns: Vec<ArrayRef> = (schema.fields().iter())
                    .map(|f| match f.name().as_str() {
                        "id" => Arc::new(ids.clone()) as ArrayRef,
                        name => part.column_by_name(name).cloned().unwrap_or_else(|| {
                            arrow_array::new_null_array(f.data_type(), end - row)
                        }),
                    })
                    .collect();
                let out = RecordBatch::try_new(schema.clone(), columns).map_err(arrow_error)?;
                kept.extend(first..first + (end - row) as u32);
                self.next = first
                    .checked_add((end - row) as u32)
                    .ok_or_else(|| invalid("too many games"))?;
                self.send(out)?;
            }
            row = end;
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> io::Result<()> {
        self.flush()?;
        self.join()
    }
}

impl Drop for GamesOut {
    /// A table left unfinished (an error) still has its thread waited
    /// for, so nothing writes in the work folder once it is removed.
    fn drop(&mut self) {
        let _ = self.join();
    }
}

pub(super) fn games_batch(first: u32, rows: &[GameRowOut]) -> io::Result<RecordBatch> {
    let n = rows.len();
    let u32s = |f: &dyn Fn(usize, &GameRowOut) -> u32| -> ArrayRef {
        Arc::new(UInt32Array::from_iter_values(
            rows.iter().enumerate().map(|(i, r)| f(i, r)),
        ))
    };
    let texts = |f: &dyn Fn(&GameRowOut) -> Option<&str>| -> ArrayRef {
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
        Arc::new(rows.iter().map(|r| r.digest).collect::<UInt64Array>()),
        texts(&|r| Some(&r.settings)),
        texts(&|r| Some(&r.tags)),
        texts(&|r| Some(&r.turns)),
    ];
    RecordBatch::try_new(games_schema(), columns).map_err(arrow_error)
}

/// A u32 column of a batch of the index (nulls as [`NO_TURN`]).
pub(super) fn u32s(b: &RecordBatch, name: &str) -> io::Result<Vec<u32>> {
    let c = b
        .column_by_name(name)
        .ok_or_else(|| invalid(format!("no column {name}")))?;
    let a = c
        .as_primitive_opt::<UInt32Type>()
        .ok_or_else(|| invalid(format!("{name}: not u32")))?;
    Ok((0..a.len())
        .map(|i| if a.is_null(i) { NO_TURN } else { a.value(i) })
        .collect())
}

/// A text column of a batch of the index.
pub(super) fn texts(b: &RecordBatch, name: &str) -> io::Result<Vec<Option<String>>> {
    let c = b
        .column_by_name(name)
        .ok_or_else(|| invalid(format!("no column {name}")))?;
    let a = c
        .as_string_opt::<i32>()
        .ok_or_else(|| invalid(format!("{name}: not text")))?;
    Ok((0..a.len())
        .map(|i| (!a.is_null(i)).then(|| a.value(i).to_string()))
        .collect())
}

/// A u64 column an index of before it lacks: nulls there.
pub(super) fn newer_u64s(b: &RecordBatch, name: &str) -> io::Result<Vec<Option<u64>>> {
    match b.column_by_name(name) {
        Some(_) => u64s(b, name),
        None => Ok(vec![None; b.num_rows()]),
    }
}

pub(super) fn u64s(b: &RecordBatch, name: &str) -> io::Result<Vec<Option<u64>>> {
    let c = b
        .column_by_name(name)
        .ok_or_else(|| invalid(format!("no column {name}")))?;
    let a = c
        .as_primitive_opt::<UInt64Type>()
        .ok_or_else(|| invalid(format!("{name}: not u64")))?;
    Ok((0..a.len())
        .map(|i| (!a.is_null(i)).then(|| a.value(i)))
        .collect())
}

pub(super) fn io_error(e: parquet::errors::ParquetError) -> io::Error {
    io::Error::other(e.to_string())
}

pub(super) fn arrow_error(e: arrow_schema::ArrowError) -> io::Error {
    io::Error::other(e.to_string())
}

/// A postings file as it is written.
pub(super) struct PostingsOut {
    pub(super) writer: ArrowWriter<BufWriter<File>>,
    pub(super) rows: Vec<Posting>,
}

impl PostingsOut {
    pub(super) fn create(path: &Path) -> io::Result<PostingsOut> {
        let file = BufWriter::new(File::create(path)?);
        let writer = ArrowWriter::try_new(file, postings_schema(), Some(postings_props()))
            .map_err(io_error)?;
        Ok(PostingsOut {
            writer,
            rows: Vec::with_capacity(POSTINGS_PER_GROUP),
        })
    }

    pub(super) fn push(&mut self, p: Posting) -> io::Result<()> {
        self.rows.push(p);
        if self.rows.len() == POSTINGS_PER_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    pub(super) fn flush(&mut self) -> io::Result<()> {
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

    pub(super) fn finish(mut self) -> io::Result<()> {
        self.flush()?;
        self.writer.close().map_err(io_error)?;
        Ok(())
    }
}

pub(super) fn write_turns<'a>(path: &Path, texts: impl Iterator<Item = &'a str>) -> io::Result<()> {
    let texts: Vec<&str> = texts.collect();
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt32Array::from_iter_values(0..texts.len() as u32)),
        Arc::new(StringArray::from(texts)),
    ];
    write_one(path, "index-turns", turns_schema(), columns)
}

pub(super) fn write_setups(
    path: &Path,
    setups: &BTreeMap<(String, String), u64>,
) -> io::Result<()> {
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

pub(super) fn write_files(path: &Path, files: &[FileOut]) -> io::Result<()> {
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
        Arc::new(files.iter().map(|f| f.digest).collect::<UInt64Array>()),
    ];
    write_one(path, "index-files", files_schema(), columns)
}

pub(super) fn write_one(
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
