//! The Parquet form (schema in notation/parquet.md): one file, one row per
//! game, its turns a nested list column (`turns`, one struct per ply, each
//! with its list of effects). Written with Apache Arrow's Rust
//! implementation, zstd-compressed, a batch of [`BATCH_GAMES`] games at a
//! time into row groups of about [`ROW_GROUP_BYTES`] (few row groups: the
//! footer, which the writer keeps until the end, stays small), so that
//! memory does not grow with the archive; read back a batch at a time
//! into records.
//!
//! Detected by its first bytes (`PAR1`). A file on disk is read where it
//! is; any other input (piped, compressed) is spooled to a temporary file
//! first, at most `--max-spool` of it.
//!
//! Also the typed tables of `stats --to parquet` ([`ParquetTable`]): one
//! column per CSV column, integers as integers, rates as doubles, booleans
//! as booleans, empty as null.

use super::json::with_record;
use super::json::{GameIn, JsonTurn};
use super::visit::{Cx, Each, HandOn, Map, Reading};
use super::{Format, FormatEntry, Peek, Sure};
use crate::base::problem::{Code, Problem};
use crate::envelope::record::Chunk;
use crate::envelope::record::{Span, MAX_RECORD_BYTES, MAX_TAGS};
use crate::io::reading::Options;
use crate::play::sink::Converted;
use arrow_array::builder::{
    ArrayBuilder, BooleanBuilder, Float64Builder, Int64Builder, StringBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, ListArray, RecordBatch, StringArray, StructArray};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, FieldRef, Fields, Schema, SchemaRef};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::{ArrowWriter, ProjectionMask};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use std::fs::File;
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Parquet's line in the table of formats.
pub(crate) const LINE: FormatEntry = FormatEntry {
    name: "parquet",
    read_help: "A gamerec Parquet games table",
    write_help: "A Parquet file: one row per game, its turns a nested list (schema: \
                 notation/parquet.md)",
    detected_by: "first bytes `PAR1`",
    formats: || vec![Format::Parquet],
    detect: |head: &Peek<'_>| looks_parquet(head.bytes).then_some((Sure::Magic, Format::Parquet)),
};

/// The file's key-value metadata naming the table (`games`, `stats`,
/// `summary`) and the schema version.
pub(crate) const TABLE_KEY: &str = "gamerec.table";
pub(crate) const VERSION_KEY: &str = "gamerec.version";
pub const VERSION: u32 = 1;

/// Games gathered before they are handed to the Parquet writer…
pub const BATCH_GAMES: usize = 256;
/// …or the games holding this many turns.
pub(crate) const BATCH_TURNS: usize = 1 << 14;
/// A row group is closed once the writer holds this many bytes of it
/// (encoded and compressed pages, dictionaries)…
pub(crate) const ROW_GROUP_BYTES: usize = 32 << 20;
/// …or this many games.
pub(crate) const ROW_GROUP_GAMES: usize = 1 << 16;

fn text(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Utf8, nullable)
}

fn int(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Int64, nullable)
}

fn boolean(name: &str) -> Field {
    Field::new(name, DataType::Boolean, false)
}

/// A list column's item.
fn item(data_type: DataType) -> FieldRef {
    Arc::new(Field::new("item", data_type, false))
}

fn list(name: &str, item: FieldRef) -> Field {
    Field::new(name, DataType::List(item), false)
}

fn tag_fields() -> Fields {
    Fields::from(vec![text("name", false), text("value", false)])
}

fn effect_fields() -> Fields {
    Fields::from(vec![
        text("what", false),
        text("piece", true),
        text("from", true),
        text("to", true),
        int("points", true),
    ])
}

fn turn_fields() -> Fields {
    Fields::from(vec![
        int("ply", false),
        int("number", false),
        text("side", true),
        text("text", false),
        text("written", true),
        boolean("legal"),
        text("kind", true),
        text("from", true),
        text("to", true),
        list("effects", item(DataType::Struct(effect_fields()))),
        boolean("offer"),
        list("comments", item(DataType::Utf8)),
        text("assessment", true),
        list("nags", item(DataType::Int64)),
    ])
}

/// The well-known tags written as columns of their own (all of them are in
/// `tags` too).
pub(crate) const TAG_COLUMNS: [(&str, &str); 4] = [
    ("event", "Event"),
    ("site", "Site"),
    ("date", "Date"),
    ("round", "Round"),
];

/// The games table's schema (notation/parquet.md).
pub fn games_schema() -> SchemaRef {
    let mut fields = vec![
        text("key", false),
        text("file", false),
        int("index", false),
        text("game", true),
    ];
    fields.extend(TAG_COLUMNS.iter().map(|(c, _)| text(c, true)));
    fields.extend([
        text("first_side", true),
        text("first_player", true),
        text("second_side", true),
        text("second_player", true),
        text("start_position", true),
        list("tags", item(DataType::Struct(tag_fields()))),
        list("comments", item(DataType::Utf8)),
        text("declared_result", true),
        boolean("valid"),
        text("result", true),
        text("winner", true),
        text("reason", true),
        int("end_ply", true),
        int("plies", false),
        text("error_code", true),
        text("error_message", true),
        int("error_ply", true),
        int("error_line", true),
        int("error_column", true),
        text("error_token", true),
        list("turns", item(DataType::Struct(turn_fields()))),
    ]);
    Arc::new(Schema::new(fields))
}

fn properties(table: &str) -> WriterProperties {
    properties_with(table, ZstdLevel::default(), None).build()
}

/// Writer properties of a gamerec table: zstd at `level`, chunk
/// statistics, the table's metadata, row groups of at most `rows` rows;
/// more may be set on what is returned.
pub(crate) fn properties_with(
    table: &str,
    level: ZstdLevel,
    rows: Option<usize>,
) -> parquet::file::properties::WriterPropertiesBuilder {
    WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_max_row_group_row_count(rows)
        .set_statistics_enabled(parquet::file::properties::EnabledStatistics::Chunk)
        .set_key_value_metadata(Some(
            table_metadata(table)
                .into_iter()
                .map(|(k, v)| KeyValue::new(k, v))
                .collect(),
        ))
}

fn parquet_error(e: parquet::errors::ParquetError) -> io::Error {
    match e {
        parquet::errors::ParquetError::External(e) => match e.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other.to_string()),
        },
        other => io::Error::other(other.to_string()),
    }
}

fn arrow_error(e: arrow_schema::ArrowError) -> io::Error {
    match e {
        arrow_schema::ArrowError::IoError(_, e) => e,
        other => io::Error::other(other.to_string()),
    }
}

/// A list column being built: its offsets (the items' builders are kept
/// beside it).
struct Offsets(Vec<i32>);

impl Offsets {
    fn new() -> Offsets {
        Offsets(vec![0])
    }

    /// Ends the current row's list at `len` items in all.
    fn close(&mut self, len: usize) -> io::Result<()> {
        let len = i32::try_from(len)
            .map_err(|_| io::Error::other("more than 2^31 items in one row group"))?;
        self.0.push(len);
        Ok(())
    }

    fn finish(&mut self) -> OffsetBuffer<i32> {
        OffsetBuffer::new(std::mem::replace(&mut self.0, vec![0]).into())
    }
}

fn list_array(item: FieldRef, offsets: &mut Offsets, values: ArrayRef) -> io::Result<ArrayRef> {
    ListArray::try_new(item, offsets.finish(), values, None)
        .map(|a| Arc::new(a) as ArrayRef)
        .map_err(arrow_error)
}

fn struct_array(fields: Fields, columns: Vec<ArrayRef>) -> io::Result<ArrayRef> {
    StructArray::try_new(fields, columns, None)
        .map(|a| Arc::new(a) as ArrayRef)
        .map_err(arrow_error)
}

fn done(b: &mut StringBuilder) -> ArrayRef {
    Arc::new(b.finish())
}

fn done_int(b: &mut Int64Builder) -> ArrayRef {
    Arc::new(b.finish())
}

fn done_bool(b: &mut BooleanBuilder) -> ArrayRef {
    Arc::new(b.finish())
}

fn int_of(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The columns of the turns being built.
#[derive(Default)]
struct TurnColumns {
    ply: Int64Builder,
    number: Int64Builder,
    side: StringBuilder,
    text: StringBuilder,
    written: StringBuilder,
    legal: BooleanBuilder,
    kind: StringBuilder,
    from: StringBuilder,
    to: StringBuilder,
    effects: Option<Offsets>,
    effect_what: StringBuilder,
    effect_piece: StringBuilder,
    effect_from: StringBuilder,
    effect_to: StringBuilder,
    effect_points: Int64Builder,
    offer: BooleanBuilder,
    comments: Option<Offsets>,
    comment: StringBuilder,
    assessment: StringBuilder,
    nags: Option<Offsets>,
    nag: Int64Builder,
}

impl TurnColumns {
    fn len(&self) -> usize {
        self.ply.len()
    }

    fn push(&mut self, t: &crate::play::sink::TurnOut) -> io::Result<()> {
        let f = t.facts.as_ref();
        self.ply.append_value(int_of(t.ply));
        self.number
            .append_value(i64::try_from(t.number).unwrap_or(i64::MAX));
        self.side
            .append_option(Some(t.side).filter(|s| !s.is_empty()));
        self.text.append_value(&t.text);
        self.written.append_option(t.written.as_deref());
        self.legal.append_value(f.is_some());
        self.kind.append_option(f.map(|f| &f.kind));
        self.from.append_option(f.and_then(|f| f.from.as_deref()));
        self.to.append_option(f.and_then(|f| f.to.as_deref()));
        for e in f.map_or(&[][..], |f| &f.effects) {
            self.effect_what.append_value(&e.what);
            self.effect_piece.append_option(e.piece.as_deref());
            self.effect_from.append_option(e.from.as_deref());
            self.effect_to.append_option(e.to.as_deref());
            self.effect_points.append_option(e.points.map(i64::from));
        }
        let effects = self.effect_what.len();
        self.effects
            .get_or_insert_with(Offsets::new)
            .close(effects)?;
        self.offer.append_value(f.is_some_and(|f| f.offer));
        for c in &t.comments {
            self.comment.append_value(c);
        }
        let comments = self.comment.len();
        self.comments
            .get_or_insert_with(Offsets::new)
            .close(comments)?;
        self.assessment
            .append_option(t.assessment.map(|a| a.as_str()));
        for &n in &t.nags {
            self.nag.append_value(i64::from(n));
        }
        let nags = self.nag.len();
        self.nags.get_or_insert_with(Offsets::new).close(nags)
    }

    fn finish(&mut self) -> io::Result<ArrayRef> {
        let effects = struct_array(
            effect_fields(),
            vec![
                done(&mut self.effect_what),
                done(&mut self.effect_piece),
                done(&mut self.effect_from),
                done(&mut self.effect_to),
                done_int(&mut self.effect_points),
            ],
        )?;
        let effects = list_array(
            item(DataType::Struct(effect_fields())),
            self.effects.get_or_insert_with(Offsets::new),
            effects,
        )?;
        let comments = list_array(
            item(DataType::Utf8),
            self.comments.get_or_insert_with(Offsets::new),
            done(&mut self.comment),
        )?;
        let nags = list_array(
            item(DataType::Int64),
            self.nags.get_or_insert_with(Offsets::new),
            done_int(&mut self.nag),
        )?;
        struct_array(
            turn_fields(),
            vec![
                done_int(&mut self.ply),
                done_int(&mut self.number),
                done(&mut self.side),
                done(&mut self.text),
                done(&mut self.written),
                done_bool(&mut self.legal),
                done(&mut self.kind),
                done(&mut self.from),
                done(&mut self.to),
                effects,
                done_bool(&mut self.offer),
                comments,
                done(&mut self.assessment),
                nags,
            ],
        )
    }
}

/// Where a game's problem lies in its input (line, column), when it was
/// read from text.
pub(crate) type LineColumn = Option<(usize, usize)>;

/// The columns of the games being built.
#[derive(Default)]
struct GameColumns {
    key: StringBuilder,
    file: StringBuilder,
    index: Int64Builder,
    game: StringBuilder,
    tag_columns: [StringBuilder; 4],
    first_side: StringBuilder,
    first_player: StringBuilder,
    second_side: StringBuilder,
    second_player: StringBuilder,
    start_position: StringBuilder,
    tags: Option<Offsets>,
    tag_name: StringBuilder,
    tag_value: StringBuilder,
    comments: Option<Offsets>,
    comment: StringBuilder,
    declared_result: StringBuilder,
    valid: BooleanBuilder,
    result: StringBuilder,
    winner: StringBuilder,
    reason: StringBuilder,
    end_ply: Int64Builder,
    plies: Int64Builder,
    error_code: StringBuilder,
    error_message: StringBuilder,
    error_ply: Int64Builder,
    error_line: Int64Builder,
    error_column: Int64Builder,
    error_token: StringBuilder,
    turns: Option<Offsets>,
    turn: TurnColumns,
}

impl GameColumns {
    fn len(&self) -> usize {
        self.key.len()
    }

    fn push(&mut self, file: &str, g: &Converted, at: LineColumn) -> io::Result<()> {
        let tag = |name: &str| g.tag(name);
        self.key.append_value(format!("{file}#{}", g.index));
        self.file.append_value(file);
        self.index.append_value(int_of(g.index));
        self.game.append_option(g.game);
        for (b, (_, name)) in self.tag_columns.iter_mut().zip(TAG_COLUMNS) {
            b.append_option(tag(name));
        }
        let side = |i: usize| g.game.map(|_| g.sides[i]).filter(|s| !s.is_empty());
        let player = |i: usize| side(i).and_then(tag);
        self.first_side.append_option(side(0));
        self.first_player.append_option(player(0));
        self.second_side.append_option(side(1));
        self.second_player.append_option(player(1));
        self.start_position.append_option(tag("Position"));
        for (name, value) in &g.tags {
            self.tag_name.append_value(name);
            self.tag_value.append_value(value);
        }
        let tags = self.tag_name.len();
        self.tags.get_or_insert_with(Offsets::new).close(tags)?;
        for c in &g.comments {
            self.comment.append_value(c);
        }
        let comments = self.comment.len();
        self.comments
            .get_or_insert_with(Offsets::new)
            .close(comments)?;
        self.declared_result
            .append_option(g.result.map(|r| r.as_str()));
        self.valid.append_value(g.is_valid());
        let outcome = g.outcome.as_ref();
        self.result
            .append_option(outcome.map(|o| o.result.as_str()));
        self.winner.append_option(outcome.and_then(|o| o.winner));
        self.reason.append_option(outcome.map(|o| o.reason));
        self.end_ply.append_option(outcome.map(|o| int_of(o.ply)));
        self.plies
            .append_value(int_of(g.trace.as_ref().map_or(0, |t| t.replay.plies)));
        let e: Option<&Problem> = g.error.as_ref();
        self.error_code.append_option(e.map(|p| p.code.as_str()));
        self.error_message.append_option(e.map(|p| &p.message));
        self.error_ply
            .append_option(e.and_then(|p| p.ply).map(int_of));
        let at = at.filter(|_| e.is_some());
        self.error_line.append_option(at.map(|a| int_of(a.0)));
        self.error_column.append_option(at.map(|a| int_of(a.1)));
        self.error_token
            .append_option(e.and_then(|p| p.token.as_deref()));
        for t in &g.turns {
            self.turn.push(t)?;
        }
        let turns = self.turn.len();
        self.turns.get_or_insert_with(Offsets::new).close(turns)
    }

    fn finish(&mut self, schema: &SchemaRef) -> io::Result<RecordBatch> {
        let tags = struct_array(
            tag_fields(),
            vec![done(&mut self.tag_name), done(&mut self.tag_value)],
        )?;
        let mut columns = vec![
            done(&mut self.key),
            done(&mut self.file),
            done_int(&mut self.index),
            done(&mut self.game),
        ];
        columns.extend(self.tag_columns.iter_mut().map(done));
        columns.extend([
            done(&mut self.first_side),
            done(&mut self.first_player),
            done(&mut self.second_side),
            done(&mut self.second_player),
            done(&mut self.start_position),
            list_array(
                item(DataType::Struct(tag_fields())),
                self.tags.get_or_insert_with(Offsets::new),
                tags,
            )?,
            list_array(
                item(DataType::Utf8),
                self.comments.get_or_insert_with(Offsets::new),
                done(&mut self.comment),
            )?,
            done(&mut self.declared_result),
            done_bool(&mut self.valid),
            done(&mut self.result),
            done(&mut self.winner),
            done(&mut self.reason),
            done_int(&mut self.end_ply),
            done_int(&mut self.plies),
            done(&mut self.error_code),
            done(&mut self.error_message),
            done_int(&mut self.error_ply),
            done_int(&mut self.error_line),
            done_int(&mut self.error_column),
            done(&mut self.error_token),
        ]);
        let turns = self.turn.finish()?;
        columns.push(list_array(
            item(DataType::Struct(turn_fields())),
            self.turns.get_or_insert_with(Offsets::new),
            turns,
        )?);
        RecordBatch::try_new(schema.clone(), columns).map_err(arrow_error)
    }
}

/// Writes games as a Parquet games table, a row group at a time.
pub struct GamesWriter<W: Write + Send> {
    writer: ArrowWriter<W>,
    schema: SchemaRef,
    columns: GameColumns,
    /// Games in a row group at most.
    row_group: usize,
    /// Games written in all.
    pub games: usize,
}

impl<W: Write + Send> GamesWriter<W> {
    pub fn new(out: W) -> io::Result<GamesWriter<W>> {
        GamesWriter::with_row_groups(out, ROW_GROUP_GAMES)
    }

    /// A writer whose row groups hold at most `games` games (and
    /// [`ROW_GROUP_BYTES`]).
    pub(crate) fn with_row_groups(out: W, games: usize) -> io::Result<GamesWriter<W>> {
        let schema = games_schema();
        let writer = ArrowWriter::try_new(out, schema.clone(), Some(properties("games")))
            .map_err(parquet_error)?;
        Ok(GamesWriter {
            writer,
            schema,
            columns: GameColumns::default(),
            row_group: games.max(1),
            games: 0,
        })
    }

    /// Adds a game read from `file` (`at`: where its problem lies).
    pub fn push(&mut self, file: &str, game: &Converted, at: LineColumn) -> io::Result<()> {
        self.columns.push(file, game, at)?;
        self.games += 1;
        let batch = BATCH_GAMES.min(self.row_group);
        if self.columns.len() >= batch || self.columns.turn.len() >= BATCH_TURNS {
            self.write_batch()?;
        }
        Ok(())
    }

    /// Hands the games gathered to the writer, and closes the row group
    /// when it is large enough.
    fn write_batch(&mut self) -> io::Result<()> {
        if self.columns.len() > 0 {
            let batch = self.columns.finish(&self.schema)?;
            self.writer.write(&batch).map_err(parquet_error)?;
        }
        if self.writer.memory_size() >= ROW_GROUP_BYTES
            || self.writer.in_progress_rows() >= self.row_group
        {
            self.writer.flush().map_err(parquet_error)?;
        }
        Ok(())
    }

    /// Bytes written so far, and the estimated size of what is kept.
    pub fn size(&self) -> usize {
        self.writer.bytes_written() + self.writer.in_progress_size()
    }

    /// Writes the rest and the footer; gives the output back.
    pub fn finish(mut self) -> io::Result<W> {
        self.write_batch()?;
        self.writer.into_inner().map_err(parquet_error)
    }
}

/// A typed column of a [`ParquetTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    Text,
    Int,
    Float,
    Bool,
    /// A list of (name, count) structs, from a JSON object (`{"points":3}`)
    /// or a list of objects (`[{"turn":"e3","count":2}]`) whose members
    /// are the name (the given field) and `count`.
    Counts(&'static str),
}

enum Builder {
    Text(StringBuilder),
    Int(Int64Builder),
    Float(Float64Builder),
    Bool(BooleanBuilder),
    Counts(&'static str, Offsets, StringBuilder, Int64Builder),
}

fn counts_fields(name: &'static str) -> Fields {
    Fields::from(vec![text(name, false), int("count", false)])
}

/// Rows of JSON values (the statistics) built into typed Arrow record
/// batches: one column per name, rows of values in the columns' order.
pub struct Batches {
    schema: SchemaRef,
    builders: Vec<Builder>,
    rows: usize,
}

impl Batches {
    pub fn new(columns: &[(String, ColumnKind)]) -> Batches {
        let fields: Vec<Field> = columns
            .iter()
            .map(|(name, kind)| match kind {
                ColumnKind::Text => text(name, true),
                ColumnKind::Int => int(name, true),
                ColumnKind::Float => Field::new(name, DataType::Float64, true),
                ColumnKind::Bool => Field::new(name, DataType::Boolean, true),
                ColumnKind::Counts(n) => list(name, item(DataType::Struct(counts_fields(n)))),
            })
            .collect();
        let builders = columns
            .iter()
            .map(|(_, kind)| match kind {
                ColumnKind::Text => Builder::Text(StringBuilder::new()),
                ColumnKind::Int => Builder::Int(Int64Builder::new()),
                ColumnKind::Float => Builder::Float(Float64Builder::new()),
                ColumnKind::Bool => Builder::Bool(BooleanBuilder::new()),
                ColumnKind::Counts(n) => {
                    Builder::Counts(n, Offsets::new(), StringBuilder::new(), Int64Builder::new())
                }
            })
            .collect();
        Batches {
            schema: Arc::new(Schema::new(fields)),
            builders,
            rows: 0,
        }
    }

    /// The batches' schema.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Rows added since the last batch.
    pub fn pending(&self) -> usize {
        self.rows
    }

    /// Adds a row: one value per column (a value of the wrong type is
    /// null).
    pub fn push(&mut self, row: &[serde_json::Value]) -> io::Result<()> {
        use serde_json::Value;
        for (b, v) in self.builders.iter_mut().zip(row) {
            match b {
                Builder::Text(b) => b.append_option(match v {
                    Value::Null => None,
                    Value::String(s) => Some(s.clone()),
                    other => Some(other.to_string()),
                }),
                Builder::Int(b) => b.append_option(v.as_i64()),
                Builder::Float(b) => b.append_option(v.as_f64()),
                Builder::Bool(b) => b.append_option(v.as_bool()),
                Builder::Counts(name, offsets, names, counts) => {
                    match v {
                        Value::Object(m) => {
                            for (k, v) in m {
                                names.append_value(k);
                                counts.append_value(v.as_i64().unwrap_or(0));
                            }
                        }
                        Value::Array(items) => {
                            for i in items {
                                names.append_value(i[*name].as_str().unwrap_or(""));
                                counts.append_value(i["count"].as_i64().unwrap_or(0));
                            }
                        }
                        _ => {}
                    }
                    offsets.close(names.len())?;
                }
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// The rows added since the last batch as one batch (`None`: none).
    pub fn batch(&mut self) -> io::Result<Option<RecordBatch>> {
        if self.rows == 0 {
            return Ok(None);
        }
        let mut columns = Vec::with_capacity(self.builders.len());
        for b in &mut self.builders {
            columns.push(match b {
                Builder::Text(b) => done(b),
                Builder::Int(b) => done_int(b),
                Builder::Float(b) => Arc::new(b.finish()) as ArrayRef,
                Builder::Bool(b) => done_bool(b),
                Builder::Counts(name, offsets, names, counts) => {
                    let values =
                        struct_array(counts_fields(name), vec![done(names), done_int(counts)])?;
                    list_array(item(DataType::Struct(counts_fields(name))), offsets, values)?
                }
            });
        }
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), columns)
            .map(Some)
            .map_err(arrow_error)
    }
}

/// The key-value metadata a table of gamerec's carries (in its Parquet
/// footer, and in its schema where it is handed over as Arrow data).
pub fn table_metadata(table: &str) -> Vec<(String, String)> {
    vec![
        (TABLE_KEY.to_string(), table.to_string()),
        (VERSION_KEY.to_string(), VERSION.to_string()),
        (
            "created_by".to_string(),
            format!("gamerec {}", env!("CARGO_PKG_VERSION")),
        ),
    ]
}

/// A typed table written from JSON values (the statistics) as Parquet.
pub struct ParquetTable<W: Write + Send> {
    writer: ArrowWriter<W>,
    rows: Batches,
}

impl<W: Write + Send> ParquetTable<W> {
    pub fn new(
        out: W,
        table: &str,
        columns: &[(String, ColumnKind)],
    ) -> io::Result<ParquetTable<W>> {
        let rows = Batches::new(columns);
        let writer = ArrowWriter::try_new(out, rows.schema(), Some(properties(table)))
            .map_err(parquet_error)?;
        Ok(ParquetTable { writer, rows })
    }

    /// Adds a row: one value per column (a value of the wrong type is
    /// written as null).
    pub fn push(&mut self, row: &[serde_json::Value]) -> io::Result<()> {
        self.rows.push(row)?;
        if self.rows.pending() >= BATCH_GAMES {
            self.write_batch()?;
        }
        Ok(())
    }

    fn write_batch(&mut self) -> io::Result<()> {
        let Some(batch) = self.rows.batch()? else {
            return Ok(());
        };
        self.writer.write(&batch).map_err(parquet_error)?;
        if self.writer.memory_size() >= ROW_GROUP_BYTES
            || self.writer.in_progress_rows() >= ROW_GROUP_GAMES
        {
            self.writer.flush().map_err(parquet_error)?;
        }
        Ok(())
    }

    /// Writes the rest and the footer; gives the output back.
    pub fn finish(mut self) -> io::Result<W> {
        self.write_batch()?;
        self.writer.into_inner().map_err(parquet_error)
    }
}

/// Whether `head` starts a Parquet file.
pub(crate) fn looks_parquet(head: &[u8]) -> bool {
    head.starts_with(b"PAR1")
}

fn malformed(message: String) -> Problem {
    Problem::new(Code::MalformedParquet, message, Span::default())
}

/// A spooled Parquet file, read in ranges that end at its end: a damaged
/// length that points past it reads nothing more, at once (read from the
/// `File` itself, every read past the end was a system call, millions of
/// them for a 15 KB file found by fuzzing).
struct Spooled {
    file: File,
    len: u64,
}

impl parquet::file::reader::Length for Spooled {
    fn len(&self) -> u64 {
        self.len
    }
}

impl parquet::file::reader::ChunkReader for Spooled {
    type T = io::BufReader<io::Take<File>>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = self.file.try_clone()?;
        file.seek(SeekFrom::Start(start))?;
        Ok(io::BufReader::new(
            file.take(self.len.saturating_sub(start)),
        ))
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<bytes::Bytes> {
        use std::io::{Read, Seek, SeekFrom};
        let end = start.checked_add(length as u64).filter(|&e| e <= self.len);
        if end.is_none() {
            return Err(parquet::errors::ParquetError::EOF(format!(
                "{length} bytes at {start} run past the end of the file ({} bytes)",
                self.len
            )));
        }
        let mut buffer = vec![0; length];
        let mut file = self.file.try_clone()?;
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buffer)?;
        Ok(buffer.into())
    }
}

/// Walks the Thrift compact encoding of a Parquet footer and says whether
/// it holds together: every list, set and map counts no more elements than
/// bytes remain (each element takes at least one), nesting stays shallow.
/// The parquet crate skips a list of booleans it does not know as if its
/// elements took no bytes: a damaged footer counting two billion of them
/// held it for ten seconds (found by fuzzing).
pub fn footer_holds_together(bytes: &[u8]) -> bool {
    Thrift { rest: bytes }.value(12, 64).is_some()
}

/// A walk over Thrift's compact encoding (a Parquet footer), checking
/// only that every length and count fits in what is left.
struct Thrift<'a> {
    rest: &'a [u8],
}

impl Thrift<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.rest.split_first()?;
        self.rest = rest;
        Some(b)
    }

    fn skip(&mut self, n: u64) -> Option<()> {
        let n = usize::try_from(n).ok().filter(|&n| n <= self.rest.len())?;
        self.rest = &self.rest[n..];
        Some(())
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    /// A count of elements, each at least a byte long.
    fn count(&mut self, n: u64) -> Option<u64> {
        (n <= self.rest.len() as u64).then_some(n)
    }

    /// A value of type `ty`, nested at most `depth` deep.
    fn value(&mut self, ty: u8, depth: u8) -> Option<()> {
        let depth = depth.checked_sub(1)?;
        match ty {
            1 | 2 => Some(()),
            3 => self.skip(1),
            4..=6 => self.varint().map(|_| ()),
            7 => self.skip(8),
            8 => {
                let n = self.varint()?;
                self.skip(n)
            }
            9 | 10 => self.list(depth),
            11 => self.map(depth),
            12 => self.fields(depth),
            13 => self.skip(16),
            _ => None,
        }
    }

    /// An element of a list or map: a boolean there is a byte.
    fn element(&mut self, ty: u8, depth: u8) -> Option<()> {
        match ty {
            1 | 2 => self.skip(1),
            other => self.value(other, depth),
        }
    }

    /// A list or set: its size and element type, then its elements.
    fn list(&mut self, depth: u8) -> Option<()> {
        let head = self.byte()?;
        let n = match head >> 4 {
            15 => self.varint()?,
            n => u64::from(n),
        };
        let n = self.count(n)?;
        for _ in 0..n {
            self.element(head & 0x0f, depth)?;
        }
        Some(())
    }

    /// A map: its size, its key and value types, then its pairs.
    fn map(&mut self, depth: u8) -> Option<()> {
        let n = self.varint()?;
        let n = self.count(n)?;
        if n == 0 {
            return Some(());
        }
        let kv = self.byte()?;
        for _ in 0..n {
            self.element(kv >> 4, depth)?;
            self.element(kv & 0x0f, depth)?;
        }
        Some(())
    }

    /// A page header (a struct): its compressed page size (field 3, an
    /// `i32`), when the header holds together and gives one.
    fn page_header(&mut self) -> Option<u64> {
        let (mut id, mut size) = (0i64, None);
        loop {
            let head = self.byte()?;
            if head == 0 {
                return size;
            }
            id = match head >> 4 {
                0 => zigzag(self.varint()?),
                delta => id + i64::from(delta),
            };
            if (id, head & 0x0f) == (3, 5) {
                size = u64::try_from(zigzag(self.varint()?)).ok();
            } else {
                self.value(head & 0x0f, 64)?;
            }
        }
    }

    /// A struct's fields, up to its stop byte.
    fn fields(&mut self, depth: u8) -> Option<()> {
        loop {
            let head = self.byte()?;
            if head == 0 {
                return Some(());
            }
            if head >> 4 == 0 {
                self.varint()?;
            }
            self.value(head & 0x0f, depth)?;
        }
    }
}

/// A zigzag-encoded integer's value.
fn zigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// `n` bytes of `file` from `start` (`None`: they cannot be read).
fn read_at(file: &File, start: u64, n: u64) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file.try_clone().ok()?;
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    file.take(n).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Whether the page headers of a column chunk (`len` bytes from `start`)
/// hold together as the footer must ([`footer_holds_together`]): the
/// parquet crate skips a page header's list of booleans as it does a
/// footer's, as if its elements took no bytes (a 12.7 KB file found by
/// fuzzing held it eleven seconds). Each header is walked in the first 4
/// KiB after it (or 256 KiB), then the page it announces is stepped over.
/// A header longer than that, or bytes that cannot be read, are left to
/// the reader.
fn pages_hold_together(file: &File, start: u64, len: u64) -> bool {
    let mut at = 0u64;
    while at < len {
        let left = len - at;
        let mut step = None;
        for cap in [4 << 10, 256 << 10] {
            let n = left.min(cap);
            let Some(bytes) = read_at(file, start + at, n) else {
                return true;
            };
            let mut t = Thrift { rest: &bytes };
            match t.page_header() {
                Some(size) => {
                    step = Some(((bytes.len() - t.rest.len()) as u64).saturating_add(size));
                    break;
                }
                None if n == left && bytes.len() as u64 == n => return false,
                None => {}
            }
        }
        match step {
            Some(step) => at = at.saturating_add(step),
            None => return true,
        }
    }
    true
}

/// The footer of a Parquet file of `len` bytes, if its last bytes say
/// where it is.
fn footer(file: &File, len: u64) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file.try_clone().ok()?;
    let mut tail = [0u8; 8];
    file.seek(SeekFrom::Start(len.checked_sub(8)?)).ok()?;
    file.read_exact(&mut tail).ok()?;
    let size = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    let start = len.checked_sub(8)?.checked_sub(size)?;
    let mut bytes = vec![0; usize::try_from(size).ok()?];
    file.seek(SeekFrom::Start(start)).ok()?;
    file.read_exact(&mut bytes).ok()?;
    Some(bytes)
}

/// The games of a Parquet games table written by gamerec, read a row group
/// at a time.
pub(crate) struct GamesReader {
    batches: ParquetRecordBatchReader,
    batch: Option<RecordBatch>,
    row: usize,
    failed: bool,
    /// The row groups still to read, in order, with their rows left.
    groups: std::collections::VecDeque<Group>,
}

/// A row group: its rows left to hand on, and why it is not decoded at
/// all (its rows are each said to be too large).
struct Group {
    rows: u64,
    refused: Option<String>,
}

/// The leaf columns a record is read back from (the rest is found again).
fn read_leaves(schema: &parquet::schema::types::SchemaDescriptor) -> Vec<usize> {
    (schema.columns().iter().enumerate())
        .filter(|(_, c)| {
            let parts = c.path().parts();
            match parts.first().map(String::as_str) {
                Some("tags" | "comments" | "declared_result") => true,
                Some("turns") => parts.iter().any(|p| {
                    matches!(
                        p.as_str(),
                        "text" | "written" | "comments" | "assessment" | "nags"
                    )
                }),
                _ => false,
            }
        })
        .map(|(i, _)| i)
        .collect()
}

/// Arrow decodes about this many bytes of rows at a time (a batch is at
/// least one row and at most 256).
const BATCH_BYTES: u64 = 4 << 20;

/// The file's row groups as [`Group`]s, and the batch size: rows of about
/// [`BATCH_BYTES`] in the row group of the largest rows. A row's size is
/// what decoding its columns that are read (`leaves`) builds, from the
/// footer: their uncompressed bytes and 8 bytes a value (the offsets and
/// levels Arrow makes; a dictionary-encoded column of millions of empty
/// tags is tiny on disk and in bytes, not in values). A row group whose
/// rows average more than twice [`MAX_RECORD_BYTES`] that way is not
/// decoded at all (a 50 MB tag value, or 2.79 million tags, is never
/// built): its rows are each said to be too large.
fn row_groups(
    meta: &[parquet::file::metadata::RowGroupMetaData],
    leaves: &[usize],
) -> (Vec<Group>, usize) {
    let mut largest = 1u64;
    let groups = meta
        .iter()
        .map(|g| {
            let rows = u64::try_from(g.num_rows()).unwrap_or(0);
            let bytes = (leaves.iter().filter_map(|&i| g.columns().get(i)))
                .map(|c| {
                    let bytes = u64::try_from(c.uncompressed_size()).unwrap_or(u64::MAX);
                    let values = u64::try_from(c.num_values()).unwrap_or(u64::MAX);
                    bytes.saturating_add(values.saturating_mul(8))
                })
                .fold(0u64, u64::saturating_add);
            let average = bytes / rows.max(1);
            let refused = (average > 2 * MAX_RECORD_BYTES as u64).then(|| {
                format!(
                    "a game of a Parquet row group whose rows would each take {} MiB to \
                     decode on average, more than a game of at most {} MiB as text can: \
                     not read",
                    average >> 20,
                    MAX_RECORD_BYTES >> 20
                )
            });
            if refused.is_none() {
                largest = largest.max(average);
            }
            Group { rows, refused }
        })
        .collect();
    let batch = (BATCH_BYTES / largest).clamp(1, 256);
    (groups, batch as usize)
}

/// Refuses a file in which a page header of a column chunk to be read
/// does not hold together ([`pages_hold_together`]).
fn chunks_hold_together(
    file: &File,
    file_len: u64,
    groups: &[parquet::file::metadata::RowGroupMetaData],
    kept: &[usize],
    leaves: &[usize],
) -> Result<(), Problem> {
    for group in kept.iter().filter_map(|&g| groups.get(g)) {
        for column in leaves.iter().filter_map(|&i| group.columns().get(i)) {
            let (start, len) = column.byte_range();
            let len = len.min(file_len.saturating_sub(start));
            if !pages_hold_together(file, start, len) {
                return Err(malformed(format!(
                    "the Parquet file is damaged: a page header of column `{}` does not \
                     hold together",
                    column.column_path().string()
                )));
            }
        }
    }
    Ok(())
}

/// Runs `f`, turning a panic in the Parquet reader (a corrupt file it did
/// not check) into a problem.
/// The panic is caught and said as a problem, so the default hook's
/// `panicked at …` is not printed for it.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, Problem>) -> Result<T, Problem> {
    static QUIET_HOOK: std::sync::Once = std::sync::Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    let was = GUARDED.with(|g| g.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(was));
    result.unwrap_or_else(|_| {
        Err(malformed(format!(
            "the Parquet file is damaged: reading its {what} failed"
        )))
    })
}

/// Runs `f`, turning a panic in the Parquet reader (a damaged file it did
/// not check) into an error naming `what`: for readers of other Parquet
/// files than games tables (the position index's).
pub(crate) fn guard_io<T>(what: &str, f: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let mut inner = None;
    let outcome = guarded(what, || {
        inner = Some(f());
        Ok(())
    });
    match (outcome, inner) {
        (Ok(()), Some(result)) => result,
        (Err(p), _) => Err(io::Error::new(io::ErrorKind::InvalidData, p.message)),
        (Ok(()), None) => Err(io::Error::other(format!("reading {what} failed"))),
    }
}

thread_local! {
    /// Whether this thread runs inside [`guarded`], whose panics are said
    /// as problems.
    static GUARDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl GamesReader {
    /// Opens a games table, or says why `file` is not one.
    pub fn open(file: File) -> Result<GamesReader, Problem> {
        let len = file
            .metadata()
            .map_err(|e| malformed(format!("the Parquet file cannot be read: {e}")))?
            .len();
        if footer(&file, len).is_some_and(|f| !footer_holds_together(&f)) {
            return Err(malformed(
                "the Parquet file is damaged: its footer does not hold together".into(),
            ));
        }
        let pages = file.try_clone();
        let file = Spooled { file, len };
        guarded("footer", || {
            let builder = ParquetRecordBatchReaderBuilder::try_new(file)
                .map_err(|e| malformed(format!("not a readable Parquet file: {e}")))?;
            let meta = builder.metadata().file_metadata().key_value_metadata();
            let value = |key: &str| {
                meta.and_then(|kv| kv.iter().find(|k| k.key == key))
                    .and_then(|k| k.value.clone())
            };
            match value(TABLE_KEY).as_deref() {
                Some("games") | None => {}
                Some(other) => {
                    return Err(malformed(format!(
                        "a gamerec {other} table holds no games: read a games table \
                         (`convert --to parquet`)"
                    )))
                }
            }
            if let Some(v) = value(VERSION_KEY) {
                if v != VERSION.to_string() {
                    let mut p = malformed(format!(
                        "a games table of schema version {v}; this gamerec reads version \
                         {VERSION}"
                    ));
                    p.code = Code::UnsupportedParquet;
                    return Err(p);
                }
            }
            let schema = builder.schema().clone();
            for column in ["tags", "comments", "turns", "declared_result"] {
                if schema.field_with_name(column).is_err() {
                    return Err(malformed(format!(
                        "not a gamerec games table: it has no column `{column}`"
                    )));
                }
            }
            // Only what a record holds is read: the rest is found again.
            let parquet_schema = builder.parquet_schema();
            let leaves = read_leaves(parquet_schema);
            let wanted = ProjectionMask::leaves(parquet_schema, leaves.iter().copied());
            let (groups, batch_size) = row_groups(builder.metadata().row_groups(), &leaves);
            let kept: Vec<usize> = (groups.iter().enumerate())
                .filter(|(_, g)| g.refused.is_none())
                .map(|(i, _)| i)
                .collect();
            if let Ok(pages) = &pages {
                chunks_hold_together(pages, len, builder.metadata().row_groups(), &kept, &leaves)?;
            }
            let batches = builder
                .with_projection(wanted)
                .with_row_groups(kept)
                .with_batch_size(batch_size)
                .build()
                .map_err(|e| malformed(format!("not a readable Parquet file: {e}")))?;
            Ok(GamesReader {
                batches,
                batch: None,
                row: 0,
                failed: false,
                groups: groups.into(),
            })
        })
    }

    /// The next game, or why the rest cannot be read (after which there is
    /// none).
    pub(crate) fn next_game(&mut self) -> Option<Result<GameIn, Problem>> {
        if self.failed {
            return None;
        }
        // Past the row groups the footer lists, nothing is read.
        while self.groups.front().is_some_and(|g| g.rows == 0) {
            self.groups.pop_front();
        }
        let group = self.groups.front_mut()?;
        group.rows -= 1;
        if let Some(why) = &group.refused {
            return Some(Err(too_large(why.clone())));
        }
        loop {
            if let Some(batch) = &self.batch {
                if self.row < batch.num_rows() {
                    let row = self.row;
                    self.row += 1;
                    let game = guarded("rows", || {
                        check_size(batch, row)?;
                        game_at(batch, row)
                    });
                    if game.as_ref().is_err_and(|p| p.code != Code::RecordTooLarge) {
                        self.failed = true;
                    }
                    return Some(game);
                }
            }
            let next = guarded("row groups", || match self.batches.next() {
                None => Ok(None),
                Some(Ok(b)) => Ok(Some(b)),
                Some(Err(e)) => Err(malformed(format!("the Parquet file is damaged: {e}"))),
            });
            match next {
                Ok(Some(b)) => {
                    self.batch = Some(b);
                    self.row = 0;
                }
                Ok(None) => return None,
                Err(p) => {
                    self.failed = true;
                    return Some(Err(p));
                }
            }
        }
    }
}

fn column<'a>(batch: &'a RecordBatch, name: &str) -> Result<&'a ArrayRef, Problem> {
    batch
        .column_by_name(name)
        .ok_or_else(|| malformed(format!("not a gamerec games table: no column `{name}`")))
}

fn wrong(name: &str) -> Problem {
    malformed(format!(
        "not a gamerec games table: column `{name}` is not of the documented type \
         (notation/parquet.md)"
    ))
}

fn strings<'a>(array: &'a dyn Array, name: &str) -> Result<&'a StringArray, Problem> {
    array.as_string_opt::<i32>().ok_or_else(|| wrong(name))
}

fn lists<'a>(array: &'a dyn Array, name: &str) -> Result<&'a ListArray, Problem> {
    array.as_list_opt::<i32>().ok_or_else(|| wrong(name))
}

fn structs<'a>(array: &'a dyn Array, name: &str) -> Result<&'a StructArray, Problem> {
    array.as_struct_opt().ok_or_else(|| wrong(name))
}

fn member<'a>(s: &'a StructArray, name: &str, of: &str) -> Result<&'a ArrayRef, Problem> {
    s.column_by_name(name)
        .ok_or_else(|| malformed(format!("not a gamerec games table: `{of}` has no `{name}`")))
}

/// A string that must be there.
fn value(a: &StringArray, i: usize, name: &str) -> Result<String, Problem> {
    if a.is_null(i) {
        return Err(malformed(format!("`{name}` is null where it cannot be")));
    }
    Ok(a.value(i).to_string())
}

/// The strings of list `row` of a list of strings.
fn string_list(list: &ListArray, row: usize, name: &str) -> Result<Vec<String>, Problem> {
    if list.is_null(row) {
        return Ok(Vec::new());
    }
    let offsets = list.value_offsets();
    let values = strings(list.values().as_ref(), name)?;
    let (start, end) = (offsets[row] as usize, offsets[row + 1] as usize);
    (start..end).map(|i| value(values, i, name)).collect()
}

/// The glyphs of list `row` of `turns.nags` (each 0 to 255).
fn nag_list(list: &ListArray, row: usize) -> Result<Vec<u8>, Problem> {
    if list.is_null(row) {
        return Ok(Vec::new());
    }
    let values = (list
        .values()
        .as_primitive_opt::<arrow_array::types::Int64Type>())
    .ok_or_else(|| wrong("turns.nags"))?;
    let (start, end) = list_range(list, row);
    (start..end)
        .map(|i| {
            u8::try_from(values.value(i))
                .map_err(|_| malformed("`turns.nags` holds a number outside 0 to 255".into()))
        })
        .collect()
}

fn too_large(message: String) -> Problem {
    Problem::new(Code::RecordTooLarge, message, Span::default())
}

/// The bytes of strings `start..end` of `a`, from its offsets (nothing
/// decoded).
fn string_bytes(a: &StringArray, start: usize, end: usize) -> usize {
    let offsets = a.value_offsets();
    match (offsets.get(start), offsets.get(end)) {
        (Some(&s), Some(&e)) => usize::try_from(e - s).unwrap_or(usize::MAX),
        _ => usize::MAX,
    }
}

/// The range of list `row` of `list`.
fn list_range(list: &ListArray, row: usize) -> (usize, usize) {
    let offsets = list.value_offsets();
    let at = |i: usize| offsets.get(i).and_then(|&o| usize::try_from(o).ok());
    match (at(row), at(row + 1)) {
        (Some(s), Some(e)) if s <= e => (s, e),
        _ => (0, 0),
    }
}

/// Refuses game `row` when its text form would pass [`MAX_RECORD_BYTES`]
/// or it holds more than [`MAX_TAGS`] tags, as the record format's reader
/// does: measured from the arrays' offsets before anything is built (each
/// tag `[name "value"]` and a line break, each turn and comment with the
/// space or braces around it).
fn check_size(batch: &RecordBatch, row: usize) -> Result<(), Problem> {
    let mut size = 0usize;
    let tags = lists(column(batch, "tags")?.as_ref(), "tags")?;
    let (ts, te) = list_range(tags, row);
    if te - ts > MAX_TAGS {
        return Err(too_large(format!(
            "a game of {} tag pairs: more than {MAX_TAGS}, not read",
            te - ts
        )));
    }
    if !tags.is_null(row) && te > ts {
        let s = structs(tags.values().as_ref(), "tags")?;
        let names = strings(member(s, "name", "tags")?.as_ref(), "tags.name")?;
        let values = strings(member(s, "value", "tags")?.as_ref(), "tags.value")?;
        size = size
            .saturating_add(string_bytes(names, ts, te))
            .saturating_add(string_bytes(values, ts, te))
            .saturating_add(6 * (te - ts));
    }
    let comments = lists(column(batch, "comments")?.as_ref(), "comments")?;
    let (cs, ce) = list_range(comments, row);
    if !comments.is_null(row) && ce > cs {
        let values = strings(comments.values().as_ref(), "comments")?;
        size = size
            .saturating_add(string_bytes(values, cs, ce))
            .saturating_add(3 * (ce - cs));
    }
    let turns = lists(column(batch, "turns")?.as_ref(), "turns")?;
    let (us, ue) = list_range(turns, row);
    if !turns.is_null(row) && ue > us {
        let s = structs(turns.values().as_ref(), "turns")?;
        let text = strings(member(s, "text", "turns")?.as_ref(), "turns.text")?;
        let written = strings(member(s, "written", "turns")?.as_ref(), "turns.written")?;
        let turn_comments = lists(member(s, "comments", "turns")?.as_ref(), "turns.comments")?;
        let (ks, _) = list_range(turn_comments, us);
        let (_, ke) = list_range(turn_comments, ue.saturating_sub(1));
        size = size
            .saturating_add(string_bytes(text, us, ue))
            .saturating_add(string_bytes(written, us, ue))
            .saturating_add(2 * (ue - us));
        if ke > ks {
            let values = strings(turn_comments.values().as_ref(), "turns.comments")?;
            size = size
                .saturating_add(string_bytes(values, ks, ke))
                .saturating_add(3 * (ke - ks));
        }
    }
    if size > MAX_RECORD_BYTES {
        return Err(too_large(format!(
            "a game of more than {} MiB as text: not read",
            MAX_RECORD_BYTES >> 20
        )));
    }
    Ok(())
}

/// What the record of game `row` holds: its tags, comments, turns as
/// written with their comments, and result.
fn game_at(batch: &RecordBatch, row: usize) -> Result<GameIn, Problem> {
    let tags = lists(column(batch, "tags")?.as_ref(), "tags")?;
    let mut tag_list = Vec::new();
    if !tags.is_null(row) {
        let s = structs(tags.values().as_ref(), "tags")?;
        let names = strings(member(s, "name", "tags")?.as_ref(), "tags.name")?;
        let values = strings(member(s, "value", "tags")?.as_ref(), "tags.value")?;
        let offsets = tags.value_offsets();
        for i in offsets[row] as usize..offsets[row + 1] as usize {
            tag_list.push((
                value(names, i, "tags.name")?,
                value(values, i, "tags.value")?,
            ));
        }
    }
    let comments = string_list(
        lists(column(batch, "comments")?.as_ref(), "comments")?,
        row,
        "comments",
    )?;
    let turns = lists(column(batch, "turns")?.as_ref(), "turns")?;
    let mut turn_list = Vec::new();
    if !turns.is_null(row) {
        let s = structs(turns.values().as_ref(), "turns")?;
        let text = strings(member(s, "text", "turns")?.as_ref(), "turns.text")?;
        let written = strings(member(s, "written", "turns")?.as_ref(), "turns.written")?;
        let turn_comments = lists(member(s, "comments", "turns")?.as_ref(), "turns.comments")?;
        // Tables written before assessments were kept have neither column.
        let assessments = match s.column_by_name("assessment") {
            Some(a) => Some(strings(a.as_ref(), "turns.assessment")?),
            None => None,
        };
        let nags = match s.column_by_name("nags") {
            Some(n) => Some(lists(n.as_ref(), "turns.nags")?),
            None => None,
        };
        let offsets = turns.value_offsets();
        for i in offsets[row] as usize..offsets[row + 1] as usize {
            // As written: `written` where it differs from `text`.
            let as_written = match written.is_null(i) {
                true => value(text, i, "turns.text")?,
                false => written.value(i).to_string(),
            };
            turn_list.push(JsonTurn {
                text: as_written,
                assessment: assessments
                    .filter(|a| !a.is_null(i))
                    .map(|a| a.value(i).to_string()),
                nags: match nags {
                    Some(n) => nag_list(n, i)?,
                    None => Vec::new(),
                },
                comments: string_list(turn_comments, i, "turns.comments")?,
            });
        }
    }
    let result = strings(
        column(batch, "declared_result")?.as_ref(),
        "declared_result",
    )?;
    Ok(GameIn {
        tags: tag_list,
        comments,
        turns: turn_list,
        result: (!result.is_null(row)).then(|| result.value(row).to_string()),
    })
}

/// Games of a Parquet table mapped at once, on the pipeline's threads.
const PARQUET_BATCH: usize = 512;

/// About how many bytes (as text) of Parquet games are mapped at a time.
const PARQUET_BATCH_BYTES: usize = 8 << 20;

/// About the size of a game as text: its tags, comments and turns.
fn text_size(g: &GameIn) -> usize {
    let strings = |list: &[String]| list.iter().map(|c| c.len() + 3).sum::<usize>();
    g.tags
        .iter()
        .map(|(n, v)| n.len() + v.len() + 6)
        .sum::<usize>()
        + strings(&g.comments)
        + (g.turns.iter())
            .map(|t| t.text.len() + 2 + strings(&t.comments))
            .sum::<usize>()
}

/// What `map` makes of a game read from Parquet (or of why none could be
/// read).
fn mapped<T>(cx: Cx<'_>, game: Result<GameIn, Problem>, map: &Map<'_, T>) -> T {
    with_record(cx, None, game, map)
}

/// Reads a Parquet games table (copied to a temporary file first: Parquet
/// is read from its end) a batch of games at a time, each batch mapped on
/// the threads the options say, the results handed on in order.
pub fn read_mapped<R, T, E>(
    mut input: R,
    cx: Cx<'_>,
    map: &Map<'_, T>,
    each: E,
) -> io::Result<Reading>
where
    R: BufRead,
    T: Send,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    let file = spool(&mut input, cx.opts)?;
    read_in_place(file, cx, map, each)
}

/// A Parquet input that is not a file on disk, copied to an unlinked
/// temporary file (Parquet is read from its end), at most `max_spool` bytes
/// of it: past that the copy stops and the input is an error that says so
/// (no disk fills up with a decompression bomb that starts `PAR1`). A
/// spooled file that does not end as Parquet does (`PAR1`) is said at
/// once.
fn spool<R: BufRead>(input: &mut R, opts: &Options) -> io::Result<File> {
    let cap = opts
        .max_spool
        .unwrap_or(crate::io::reading::DEFAULT_MAX_SPOOL);
    let mut file = tempfile::tempfile()?;
    let copied = io::copy(
        &mut io::Read::take(&mut *input, cap.saturating_add(1)),
        &mut file,
    )?;
    if copied > cap {
        return Err(io::Error::other(format!(
            "a Parquet input that is not a file on disk (piped or compressed) is copied to a \
             temporary file to be read, and this one is longer than {}; the copy stopped \
             there (give it as an uncompressed file, or raise --max-spool)",
            super::size_text(cap)
        )));
    }
    Ok(file)
}

/// Reads the games of a Parquet file on disk where it is, a batch at a
/// time, each batch mapped on the threads the options say, the results
/// handed on in order; a file that is no games table (or is damaged past
/// some row) is one invalid game saying so.
pub(crate) fn read_in_place<T, E>(
    file: File,
    cx: Cx<'_>,
    map: &Map<'_, T>,
    mut each: E,
) -> io::Result<Reading>
where
    T: Send,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    batches(file, cx, map, &mut each).map(Reading::flow)
}

/// [`read_in_place`], saying whether `each` stopped it.
fn batches<T: Send>(
    file: File,
    cx: Cx<'_>,
    map: &Map<'_, T>,
    each: &mut HandOn<'_, T>,
) -> io::Result<ControlFlow<()>> {
    use rayon::prelude::*;
    let mut games = match GamesReader::open(file) {
        Ok(games) => games,
        Err(p) => return each(None, mapped(cx, Err(p), map)),
    };
    let jobs = cx.opts.threads();
    let pool = match jobs > 1 {
        true => rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .ok(),
        false => None,
    };
    loop {
        // At most PARQUET_BATCH games, and about PARQUET_BATCH_BYTES of
        // them: a batch of large games is a small one.
        let (mut batch, mut bytes) = (Vec::new(), 0usize);
        while batch.len() < PARQUET_BATCH && bytes < PARQUET_BATCH_BYTES {
            let Some(game) = games.next_game() else {
                break;
            };
            bytes += game.as_ref().map_or(0, text_size);
            batch.push(game);
        }
        if batch.is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        let mapped: Vec<T> = match &pool {
            Some(pool) => {
                pool.install(|| batch.into_par_iter().map(|g| mapped(cx, g, map)).collect())
            }
            None => batch.into_iter().map(|g| mapped(cx, g, map)).collect(),
        };
        for t in mapped {
            if each(None, t)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
    }
}

/// Reads a Parquet games table on this thread: copied to a temporary file
/// first (Parquet is read from its end), then a row group at a time.
pub fn read<R: BufRead>(mut input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<Reading> {
    let file = spool(&mut input, cx.opts)?;
    let mut games = match GamesReader::open(file) {
        Ok(games) => games,
        Err(p) => return with_record(cx, None, Err(p), each).map(Reading::flow),
    };
    while let Some(game) = games.next_game() {
        if with_record(cx, None, game, &mut *each)?.is_break() {
            return Ok(Reading::flow(ControlFlow::Break(())));
        }
    }
    Ok(Reading::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::gen::GenOptions;
    use crate::registry;
    use parquet::file::reader::FileReader;

    /// Games of every rule set, generated.
    fn games() -> Vec<Converted> {
        let opts = GenOptions {
            max_plies: 30,
            ..GenOptions::default()
        };
        registry::GAMES
            .iter()
            .flat_map(|g| (0..3).map(move |i| crate::tasks::gen::generate(*g, 7, i, &opts)))
            .collect()
    }

    #[test]
    fn games_are_written_in_row_groups_and_read_back_in_order() {
        let games = games();
        let mut file = tempfile::tempfile().unwrap();
        let mut w = GamesWriter::with_row_groups(&mut file, 4).unwrap();
        for (i, g) in games.iter().enumerate() {
            let mut g = g.clone();
            g.index = i + 1;
            w.push("gen", &g, None).unwrap();
        }
        w.finish().unwrap();
        let reader =
            parquet::file::serialized_reader::SerializedFileReader::new(file.try_clone().unwrap())
                .unwrap();
        assert_eq!(
            reader.metadata().num_row_groups(),
            games.len().div_ceil(4),
            "a row group every 4 games"
        );
        let mut back = GamesReader::open(file).unwrap();
        for g in &games {
            let read = back.next_game().unwrap().unwrap();
            assert_eq!(read.tags, g.tags);
            let turns: Vec<&str> = read.turns.iter().map(|t| t.text.as_str()).collect();
            let written: Vec<&str> = g.turns.iter().map(|t| t.text.as_ref()).collect();
            assert_eq!(turns, written);
            assert_eq!(read.result.as_deref(), g.result.map(|r| r.as_str()));
        }
        assert!(back.next_game().is_none());
    }

    #[test]
    fn a_file_that_is_not_parquet_is_a_problem_not_a_panic() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"PAR1 this is not parquet at all").unwrap();
        let p = GamesReader::open(file).err().unwrap();
        assert_eq!(p.code, Code::MalformedParquet);
        assert!(
            p.message.contains("not a readable Parquet file"),
            "{}",
            p.message
        );
    }

    #[test]
    fn a_length_past_the_end_of_a_spooled_file_reads_nothing() {
        use parquet::file::reader::ChunkReader;
        use std::io::Read;
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"0123456789").unwrap();
        let spooled = Spooled { file, len: 10 };
        assert_eq!(&spooled.get_bytes(2, 3).unwrap()[..], b"234");
        assert!(spooled.get_bytes(5, 100).is_err());
        assert!(spooled.get_bytes(u64::MAX, 2).is_err());
        let mut rest = Vec::new();
        spooled.get_read(7).unwrap().read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"789");
        let mut at_end = spooled.get_read(10).unwrap();
        assert_eq!(at_end.read(&mut [0; 8]).unwrap(), 0);
        // The reader's limit, not the file, says so: no read is made.
        assert_eq!(at_end.get_ref().limit(), 0);
    }

    #[test]
    fn a_footer_is_walked_as_thrift_and_a_list_longer_than_its_bytes_refused() {
        // What gamerec writes holds together.
        let mut file = tempfile::tempfile().unwrap();
        let mut w = GamesWriter::new(&mut file).unwrap();
        for g in games() {
            w.push("gen", &g, None).unwrap();
        }
        w.finish().unwrap();
        let len = file.metadata().unwrap().len();
        let f = footer(&file, len).unwrap();
        assert!(footer_holds_together(&f));
        // A struct with field 1 a list of 2^31 booleans (header 0xF1, then
        // the count as a varint) and nothing after it.
        let bools = [0x19, 0xF1, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00];
        assert!(!footer_holds_together(&bools));
        // The same list counting 2 booleans, with their 2 bytes.
        assert!(footer_holds_together(&[0x19, 0x21, 0x01, 0x01, 0x00]));
        // Cut anywhere, gamerec's footer does not hold together.
        assert!(!footer_holds_together(&f[..f.len() / 2]));
    }

    #[test]
    fn a_statistics_table_is_not_read_as_games() {
        let mut file = tempfile::tempfile().unwrap();
        let mut t =
            ParquetTable::new(&mut file, "stats", &[("plies".into(), ColumnKind::Int)]).unwrap();
        t.push(&[serde_json::Value::from(3)]).unwrap();
        t.finish().unwrap();
        let p = GamesReader::open(file).err().unwrap();
        assert!(
            p.message.contains("stats table holds no games"),
            "{}",
            p.message
        );
    }
}
