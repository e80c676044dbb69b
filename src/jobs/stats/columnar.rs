//! Parquet output: each batch's rows become Arrow arrays on the worker that replayed the games
//! ([`ArrowCells`]); the ordered output side hands them to the Parquet writer ([`ParquetOut`]), which
//! encodes them into zstd-compressed row groups and writes each out as soon as it is full.
//!
//! The schema is fixed by the columns ([`super::table`]), whatever the games contain: a column that is
//! missing in every game is still there, all null, with its type.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, ListBuilder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use super::table::{Cells, Column, Kind};

/// Rows per row group: about what DuckDB and Spark write, large enough to compress well and to keep the
/// footer small on any input, small enough that a row group in the making stays a few MB.
const ROW_GROUP_ROWS: usize = 128 * 1024;

/// The element of a NAG list: never null.
fn nag_field() -> Field {
    Field::new("item", DataType::Int32, false)
}

/// The Arrow type of a column's values.
fn data_type(kind: Kind) -> DataType {
    match kind {
        Kind::Text => DataType::Utf8,
        Kind::Int32 => DataType::Int32,
        Kind::Int64 => DataType::Int64,
        Kind::Bool => DataType::Boolean,
        Kind::Seconds => DataType::Float64,
        Kind::Nags => DataType::List(Arc::new(nag_field())),
    }
}

/// The Arrow schema of a table with these columns.
pub(crate) fn schema<'c, 'n: 'c>(columns: impl IntoIterator<Item = &'c Column<'n>>) -> SchemaRef {
    Arc::new(Schema::new(
        columns
            .into_iter()
            .map(|c| Field::new(c.name, data_type(c.kind), c.nullable))
            .collect::<Vec<_>>(),
    ))
}

/// One column's values being gathered.
enum Builder {
    Text(StringBuilder),
    Int32(Int32Builder),
    Int64(Int64Builder),
    Bool(BooleanBuilder),
    Seconds(Float64Builder),
    Nags(ListBuilder<Int32Builder>),
}

impl Builder {
    fn new(data_type: &DataType) -> Builder {
        match data_type {
            DataType::Int32 => Builder::Int32(Int32Builder::new()),
            DataType::Int64 => Builder::Int64(Int64Builder::new()),
            DataType::Boolean => Builder::Bool(BooleanBuilder::new()),
            DataType::Float64 => Builder::Seconds(Float64Builder::new()),
            DataType::List(_) => {
                Builder::Nags(ListBuilder::new(Int32Builder::new()).with_field(nag_field()))
            }
            _ => Builder::Text(StringBuilder::new()),
        }
    }

    fn append_null(&mut self) {
        match self {
            Builder::Text(b) => b.append_null(),
            Builder::Int32(b) => b.append_null(),
            Builder::Int64(b) => b.append_null(),
            Builder::Bool(b) => b.append_null(),
            Builder::Seconds(b) => b.append_null(),
            Builder::Nags(b) => b.append_null(),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Text(b) => Arc::new(b.finish()),
            Builder::Int32(b) => Arc::new(b.finish()),
            Builder::Int64(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::Seconds(b) => Arc::new(b.finish()),
            Builder::Nags(b) => Arc::new(b.finish()),
        }
    }
}

/// Rows gathered as Arrow arrays, one builder per column of `schema`.
///
/// A value of the wrong kind for its column would be a bug in the row code; it is stored as no value
/// (and caught in debug builds) rather than shifting the row's other values.
pub(crate) struct ArrowCells {
    schema: SchemaRef,
    builders: Vec<Builder>,
    column: usize,
}

impl ArrowCells {
    pub(crate) fn new(schema: &SchemaRef) -> ArrowCells {
        ArrowCells {
            schema: Arc::clone(schema),
            builders: schema
                .fields()
                .iter()
                .map(|f| Builder::new(f.data_type()))
                .collect(),
            column: 0,
        }
    }

    /// The builder of the next value, if there is a next column.
    #[inline]
    fn next(&mut self) -> Option<&mut Builder> {
        let b = self.builders.get_mut(self.column);
        self.column += 1;
        b
    }

    fn mismatch(b: &mut Builder) {
        debug_assert!(false, "a value of the wrong kind for its column");
        b.append_null();
    }

    /// The rows as one record batch.
    pub(crate) fn finish(mut self) -> Result<RecordBatch, ArrowError> {
        let arrays = self.builders.iter_mut().map(Builder::finish).collect();
        RecordBatch::try_new(self.schema, arrays)
    }
}

impl Cells for ArrowCells {
    #[inline]
    fn text(&mut self, value: &str) {
        match self.next() {
            Some(Builder::Text(b)) => b.append_value(value),
            Some(b) => Self::mismatch(b),
            None => {}
        }
    }

    #[inline]
    fn int(&mut self, value: i64) {
        match self.next() {
            Some(Builder::Int64(b)) => b.append_value(value),
            Some(Builder::Int32(b)) => match i32::try_from(value) {
                Ok(v) => b.append_value(v),
                // Values are bounded where they are read (Elo, evaluations); out of range is no value.
                Err(_) => b.append_null(),
            },
            Some(b) => Self::mismatch(b),
            None => {}
        }
    }

    #[inline]
    fn flag(&mut self, value: bool) {
        match self.next() {
            Some(Builder::Bool(b)) => b.append_value(value),
            Some(b) => Self::mismatch(b),
            None => {}
        }
    }

    fn seconds(&mut self, value: Duration) {
        match self.next() {
            Some(Builder::Seconds(b)) => b.append_value(value.as_secs_f64()),
            Some(b) => Self::mismatch(b),
            None => {}
        }
    }

    fn nags(&mut self, nags: &[u8]) {
        match self.next() {
            Some(Builder::Nags(b)) => {
                for &nag in nags {
                    b.values().append_value(i32::from(nag));
                }
                b.append(true);
            }
            Some(b) => Self::mismatch(b),
            None => {}
        }
    }

    #[inline]
    fn null(&mut self) {
        if let Some(b) = self.next() {
            b.append_null();
        }
    }

    fn end_row(&mut self) {
        // A row cut short (a bug) is padded, so the columns keep the same length.
        while self.column < self.builders.len() {
            self.null();
        }
        self.column = 0;
    }
}

/// Why Parquet output failed.
#[derive(Debug)]
pub(crate) enum ParquetFailure {
    /// Writing to the output failed.
    Write(io::Error),
    /// The Parquet writer refused (a bug, or a limit of the format).
    Encode(ParquetError),
}

impl From<ParquetError> for ParquetFailure {
    fn from(e: ParquetError) -> Self {
        match e {
            ParquetError::External(inner) => match inner.downcast::<io::Error>() {
                Ok(io) => ParquetFailure::Write(*io),
                Err(other) => ParquetFailure::Encode(ParquetError::External(other)),
            },
            e => ParquetFailure::Encode(e),
        }
    }
}

/// The Parquet writer of a run. It writes into a buffer whose bytes are passed to the run's output after
/// each batch: the output (standard output, a compressed or temporary file) need not be `Send`, and what
/// waits in memory is at most one row group.
pub(crate) struct ParquetOut {
    writer: ArrowWriter<Vec<u8>>,
}

impl ParquetOut {
    /// A writer for rows of `schema`.
    pub(crate) fn new(schema: &SchemaRef) -> Result<ParquetOut, ParquetFailure> {
        let mut props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("pgnkit {}", env!("CARGO_PKG_VERSION")));
        // FENs are nearly all distinct: a dictionary would be built only to be given up.
        for name in ["fen", "fen_before", "final_fen", "first_error", "comment"] {
            if schema.field_with_name(name).is_ok() {
                props = props.set_column_dictionary_enabled(ColumnPath::from(name), false);
            }
        }
        let writer = ArrowWriter::try_new(Vec::new(), Arc::clone(schema), Some(props.build()))?;
        Ok(ParquetOut { writer })
    }

    /// Encodes a batch of rows, then passes whatever the writer has finished to `out`.
    pub(crate) fn write(
        &mut self,
        batch: &RecordBatch,
        out: &mut impl Write,
    ) -> Result<(), ParquetFailure> {
        self.writer.write(batch)?;
        self.drain(out)
    }

    /// Moves the bytes written so far to `out`. The writer counts the bytes it writes itself, so emptying
    /// its buffer does not disturb the offsets it records in the footer.
    fn drain(&mut self, out: &mut impl Write) -> Result<(), ParquetFailure> {
        let buffer = self.writer.inner_mut();
        if !buffer.is_empty() {
            out.write_all(buffer).map_err(ParquetFailure::Write)?;
            buffer.clear();
        }
        Ok(())
    }

    /// Writes the last row group and the footer.
    pub(crate) fn finish(mut self, out: &mut impl Write) -> Result<(), ParquetFailure> {
        self.writer.finish()?;
        self.drain(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::stats::table::{GAME_COLUMNS, MOVE_COLUMNS};
    use arrow_array::{Array, Float64Array, Int32Array, ListArray, StringArray};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    #[test]
    fn every_column_kind_has_a_builder_of_its_type() {
        let schema = schema(GAME_COLUMNS.iter().chain(&MOVE_COLUMNS));
        let cells = ArrowCells::new(&schema);
        let batch = cells.finish().unwrap();
        assert_eq!(batch.num_columns(), 53);
        assert_eq!(batch.num_rows(), 0);
    }

    #[test]
    fn rows_round_trip_through_parquet() {
        let columns = [
            MOVE_COLUMNS[3],  // san: text
            MOVE_COLUMNS[8],  // clock: seconds
            MOVE_COLUMNS[12], // eval_cp: int32
            MOVE_COLUMNS[15], // nags
            MOVE_COLUMNS[16], // comment: nullable text
        ];
        let schema = schema(&columns);
        let mut out = Vec::new();
        let mut writer = ParquetOut::new(&schema).unwrap();
        for part in 0..2 {
            let mut cells = ArrowCells::new(&schema);
            cells.plain("e4");
            cells.seconds(Duration::from_millis(179_500 + part));
            cells.int(-35);
            cells.nags(&[1, 14]);
            cells.null();
            cells.end_row();
            cells.text("Nf3");
            cells.null();
            cells.int(i64::from(i32::MAX) + 1);
            cells.nags(&[]);
            cells.text("a note, \"quoted\"");
            cells.end_row();
            writer.write(&cells.finish().unwrap(), &mut out).unwrap();
        }
        writer.finish(&mut out).unwrap();

        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(out))
            .unwrap()
            .build()
            .unwrap();
        let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
        let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(rows, 4);
        let b = &batches[0];
        assert_eq!(b.schema(), schema);
        let san = b.column(0).as_any().downcast_ref::<StringArray>().unwrap();
        assert_eq!((san.value(0), san.value(1)), ("e4", "Nf3"));
        let clock = b.column(1).as_any().downcast_ref::<Float64Array>().unwrap();
        assert_eq!(clock.value(0), 179.5);
        assert!(clock.is_null(1));
        let eval = b.column(2).as_any().downcast_ref::<Int32Array>().unwrap();
        assert_eq!(eval.value(0), -35);
        assert!(eval.is_null(1), "out of range is no value");
        let nags = b.column(3).as_any().downcast_ref::<ListArray>().unwrap();
        let first = nags.value(0);
        let first = first.as_any().downcast_ref::<Int32Array>().unwrap();
        assert_eq!(first.values().to_vec(), vec![1, 14]);
        assert_eq!(nags.value(1).len(), 0);
        let comment = b.column(4).as_any().downcast_ref::<StringArray>().unwrap();
        assert!(comment.is_null(0));
        assert_eq!(comment.value(1), "a note, \"quoted\"");
    }
}
