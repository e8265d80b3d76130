//! Rows of named, typed cells written as JSON Lines, CSV (a header first)
//! or a Parquet table: the one writer of typed rows every command's table
//! goes through (`stats`, `ratings`, `analyse`, `tree`). A row may be shaped
//! its own way for CSV or JSON ([`Row`]).

use super::csv::{csv_error, spreadsheet_safe};
use super::parquet::{ColumnKind, ParquetTable};
use serde_json::{Map, Value};
use std::io::{self, Write};

/// The formats rows are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    Json,
    Csv,
    Parquet,
}

enum Out<W: Write + Send> {
    Json(W),
    Csv(Box<csv::Writer<W>>),
    Parquet(Box<ParquetTable<W>>),
}

/// A row as the formats write it: its typed cells (in the columns'
/// order), and where CSV or JSON write it otherwise, their shape of it (a
/// cell's own text, a nested JSON object).
pub struct Row<'a> {
    pub cells: &'a [Value],
    pub csv: Option<Vec<String>>,
    pub json: Option<Value>,
}

/// A table being written.
pub struct RowTable<W: Write + Send> {
    out: Out<W>,
    columns: Vec<(String, ColumnKind)>,
    spreadsheet_safe: bool,
}

impl<W: Write + Send> RowTable<W> {
    /// Starts table `table` (its name in Parquet's metadata) with these
    /// columns; `spreadsheet_safe`: CSV cells that would start a formula
    /// are quoted with `'`.
    pub fn new(
        out: W,
        format: RowFormat,
        table: &str,
        columns: Vec<(String, ColumnKind)>,
        spreadsheet_safe: bool,
    ) -> io::Result<RowTable<W>> {
        let out = match format {
            RowFormat::Json => Out::Json(out),
            RowFormat::Csv => {
                let mut w = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(out);
                w.write_record(columns.iter().map(|(n, _)| n))
                    .map_err(csv_error)?;
                Out::Csv(Box::new(w))
            }
            RowFormat::Parquet => Out::Parquet(Box::new(ParquetTable::new(out, table, &columns)?)),
        };
        Ok(RowTable {
            out,
            columns,
            spreadsheet_safe,
        })
    }

    /// The format the table is written in (so that a caller shapes a row
    /// only as that format needs it).
    pub fn format(&self) -> RowFormat {
        match self.out {
            Out::Json(_) => RowFormat::Json,
            Out::Csv(_) => RowFormat::Csv,
            Out::Parquet(_) => RowFormat::Parquet,
        }
    }

    /// Writes a row: a value per column, in order (`null` for none).
    pub fn push(&mut self, row: &[Value]) -> io::Result<()> {
        self.push_row(Row {
            cells: row,
            csv: None,
            json: None,
        })
    }

    /// Writes a row, in the shape given for CSV or JSON where one is.
    pub fn push_row(&mut self, shaped: Row<'_>) -> io::Result<()> {
        let row = shaped.cells;
        match &mut self.out {
            Out::Json(w) if shaped.json.is_some() => {
                serde_json::to_writer(&mut *w, &shaped.json)?;
                w.write_all(b"\n")
            }
            Out::Json(w) => {
                let obj: Map<String, Value> = (self.columns.iter())
                    .zip(row)
                    .map(|((n, _), v)| (n.clone(), v.clone()))
                    .collect();
                serde_json::to_writer(&mut *w, &Value::Object(obj))?;
                w.write_all(b"\n")
            }
            Out::Csv(w) => {
                // The row's own CSV shape, or each cell's text.
                let cells = shaped.csv.unwrap_or_else(|| {
                    (row.iter())
                        .map(|v| match v {
                            Value::Null => String::new(),
                            Value::String(s) => s.clone(),
                            v => v.to_string(),
                        })
                        .collect()
                });
                let safe = self.spreadsheet_safe;
                let cells = cells.into_iter().map(|c| match safe {
                    true => spreadsheet_safe(&c).into_owned(),
                    false => c,
                });
                w.write_record(cells).map_err(csv_error)
            }
            Out::Parquet(t) => t.push(row),
        }
    }

    /// Ends the table; gives the output back.
    pub fn finish(self) -> io::Result<W> {
        match self.out {
            Out::Json(w) => Ok(w),
            Out::Csv(w) => w
                .into_inner()
                .map_err(|e| io::Error::new(e.error().kind(), e.error().to_string())),
            Out::Parquet(t) => t.finish(),
        }
    }
}
