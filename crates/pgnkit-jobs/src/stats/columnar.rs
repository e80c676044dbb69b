//! Parquet output: each batch's rows become Arrow arrays on the worker that replayed the games
//! (`ArrowCells`). Then one of two ways (`ParquetOut`):
//! * per-game rows are few and cheap to encode: the ordered output side hands the arrays to a Parquet
//!   writer that gathers them into large zstd-compressed row groups, each written out once full;
//! * per-move rows are many, mostly FENs, and encoding and compressing them costs as much as replaying the
//!   games: with several threads each batch is made large enough to be a row group of its own and the
//!   worker encodes it (`encode_row_groups`), so the output side only copies encoded column chunks.
//!
//! Either way a row group ends at `ROW_GROUP_ROWS` rows or `ROW_GROUP_BYTES` encoded bytes, whichever
//! comes first: rows alone let a row group of games with huge tags or comments hold gigabytes in memory
//! until it was written out.
//!
//! The schema is fixed by the columns (`super::table`), whatever the games contain: a column that is
//! missing in every game is still there, all null, with its type.

pub(crate) use crate::options::Codec;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use arrow_array::builder::{
    ArrayBuilder, BooleanBuilder, Date32Builder, Float64Builder, Int32Builder, Int64Builder,
    ListBuilder, StringBuilder, TimestampMicrosecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::{Compression, ZstdLevel};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;

use super::dates::{self, Day};
use super::spill::{Overflow, SpillError, Spillable, SpilledParquet};
use super::table::{Cells, Column, Kind};

/// The output side passes batches to the writer in groups of at least this many rows (or
/// [`WRITE_BYTES`]): the writer's cost per call and column is fixed, and one thread reads in blocks of a few
/// hundred games.
const WRITE_ROWS: usize = 16 * 1024;

/// Batches gathered for the writer are passed on once they hold this many bytes of arrays, whatever their
/// rows: gathering is a copy, worth it for many small batches, not for a few games with huge tags.
const WRITE_BYTES: usize = 16 << 20;

/// A batch this large goes to the writer as it is (after any gathered before it): per-move batches are,
/// and copying them into a larger one costs more than the writer saves.
const DIRECT_ROWS: usize = 4 * 1024;

/// A batch with this many bytes of arrays goes to the writer as it is too.
const DIRECT_BYTES: usize = 4 << 20;

/// Rows per row group: about what DuckDB and Spark write, large enough to compress well and to keep the
/// footer small on any input, small enough that a row group in the making stays a few MB.
pub(crate) const ROW_GROUP_ROWS: usize = 128 * 1024;

/// Encoded (compressed) bytes at which a row group ends, whatever its rows: a row group is held in memory
/// until it is complete. Rows of ordinary games reach [`ROW_GROUP_ROWS`] long before this; games with huge
/// tags or comments reach this first. A single row larger than this is a row group of its own.
pub(crate) const ROW_GROUP_BYTES: usize = 64 << 20;

/// Rows handed to the column writers at a time when a worker encodes a batch ([`encode_row_groups`]), at
/// most: the row group is closed at the first such step past [`ROW_GROUP_BYTES`], so a step is made
/// smaller when its rows are large.
const ENCODE_STEP_ROWS: usize = 8 * 1024;

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
        Kind::Date => DataType::Date32,
        // Microseconds, though the tags give seconds: Parquet has no unit of seconds (a writer makes them
        // milliseconds), and Spark takes microseconds alone from Arrow. "UTC": the tags' clock, so readers
        // see an instant, not a wall time.
        Kind::Timestamp => DataType::Timestamp(TimeUnit::Microsecond, Some(UTC.into())),
    }
}

/// The time zone of [`Kind::Timestamp`] columns.
const UTC: &str = "UTC";

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
    Date(Date32Builder),
    Timestamp(TimestampMicrosecondBuilder),
}

impl Builder {
    /// A builder with room for `rows` values of `field`, so that it does not grow by copying itself.
    fn new(field: &Field, rows: usize) -> Builder {
        match field.data_type() {
            DataType::Int32 => Builder::Int32(Int32Builder::with_capacity(rows)),
            DataType::Int64 => Builder::Int64(Int64Builder::with_capacity(rows)),
            DataType::Boolean => Builder::Bool(BooleanBuilder::with_capacity(rows)),
            DataType::Float64 => Builder::Seconds(Float64Builder::with_capacity(rows)),
            DataType::List(_) => Builder::Nags(
                ListBuilder::with_capacity(Int32Builder::new(), rows).with_field(nag_field()),
            ),
            DataType::Date32 => Builder::Date(Date32Builder::with_capacity(rows)),
            DataType::Timestamp(..) => Builder::Timestamp(
                TimestampMicrosecondBuilder::with_capacity(rows).with_timezone(UTC),
            ),
            _ => {
                // A FEN is about 60 bytes; most other texts are short. Room reserved but never used
                // costs address space, not memory.
                let width = if field.name().contains("fen") { 64 } else { 16 };
                Builder::Text(StringBuilder::with_capacity(rows, rows * width))
            }
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
            Builder::Date(b) => b.append_null(),
            Builder::Timestamp(b) => b.append_null(),
        }
    }

    /// About the bytes of the values appended (offsets and validity left out).
    fn bytes(&self) -> usize {
        match self {
            Builder::Text(b) => b.values_slice().len() + 4 * b.len(),
            Builder::Int32(b) => 4 * b.len(),
            Builder::Int64(b) => 8 * b.len(),
            Builder::Bool(b) => b.len() / 8,
            Builder::Seconds(b) => 8 * b.len(),
            Builder::Nags(b) => 4 * (b.values_ref().len() + b.len()),
            Builder::Date(b) => 4 * b.len(),
            Builder::Timestamp(b) => 8 * b.len(),
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
            Builder::Date(b) => Arc::new(b.finish()),
            Builder::Timestamp(b) => Arc::new(b.finish()),
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
    /// The rows the builders were made for, again after their rows are spilled.
    rows: usize,
}

impl ArrowCells {
    /// Cells for about `rows` rows of `schema` (more may come: the builders then grow).
    pub(crate) fn new(schema: &SchemaRef, rows: usize) -> ArrowCells {
        ArrowCells {
            schema: Arc::clone(schema),
            builders: Self::builders(schema, rows),
            column: 0,
            rows,
        }
    }

    fn builders(schema: &SchemaRef, rows: usize) -> Vec<Builder> {
        schema
            .fields()
            .iter()
            .map(|f| Builder::new(f, rows))
            .collect()
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
                // 32-bit columns hold values bounded where they are read (Elo, counts): out of range would
                // be a bug, stored as no value (and refused when the column is required).
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

    fn date(&mut self, day: Day) {
        match self.next() {
            Some(Builder::Date(b)) => b.append_value(day.unix_days()),
            Some(b) => Self::mismatch(b),
            None => {}
        }
    }

    fn timestamp(&mut self, day: Day, seconds: u32) {
        match self.next() {
            Some(Builder::Timestamp(b)) => b.append_value(dates::unix_micros(day, seconds)),
            Some(b) => Self::mismatch(b),
            None => {}
        }
    }

    fn typed(&self) -> bool {
        true
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

impl Spillable for ArrowCells {
    fn held_bytes(&self) -> usize {
        self.builders.iter().map(Builder::bytes).sum()
    }

    fn spill(&mut self, overflow: &mut Overflow<'_>) {
        let arrays = self.builders.iter_mut().map(Builder::finish).collect();
        match RecordBatch::try_new(Arc::clone(&self.schema), arrays) {
            Ok(rows) => overflow.arrow(&rows),
            Err(e) => overflow.failed(io::Error::other(e)),
        }
        // Builders that finish start again empty: room for as many rows as before spares their growth.
        self.builders = Self::builders(&self.schema, self.rows);
    }
}

/// Why Parquet output failed.
#[derive(Debug)]
pub(crate) enum ParquetFailure {
    /// Writing to the output failed.
    Write(io::Error),
    /// The Parquet writer refused (a bug, or a limit of the format).
    Encode(ParquetError),
    /// Rows a batch spilled could not be read back.
    Spill(SpillError),
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

/// How a run writes Parquet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// The output side encodes the batches' arrays into row groups of [`ROW_GROUP_ROWS`] (or
    /// [`ROW_GROUP_BYTES`]).
    OnOutput,
    /// Each batch is a row group (or several, past [`ROW_GROUP_BYTES`]), encoded by its worker
    /// ([`encode_row_groups`]).
    InWorkers,
}

/// One row group's column chunks, and its rows.
struct EncodedRowGroup {
    chunks: Vec<ArrowColumnChunk>,
    rows: usize,
}

/// One batch's rows, encoded by its worker: row groups ready to append, usually one.
#[derive(Default)]
pub(crate) struct EncodedRowGroups(Vec<EncodedRowGroup>);

impl std::fmt::Debug for EncodedRowGroups {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rows: Vec<usize> = self.0.iter().map(|g| g.rows).collect();
        write!(f, "EncodedRowGroups(rows {rows:?})")
    }
}

/// Passes a batch's columns to column writers, one per leaf.
fn write_leaves(
    writers: &mut [parquet::arrow::arrow_writer::ArrowColumnWriter],
    batch: &RecordBatch,
) -> Result<(), ParquetError> {
    let mut next = writers.iter_mut();
    for (array, field) in batch.columns().iter().zip(batch.schema().fields()) {
        for leaf in compute_leaves(field, array)? {
            let writer = next
                .next()
                .ok_or_else(|| ParquetError::General("more leaves than column writers".into()))?;
            writer.write(&leaf)?;
        }
    }
    Ok(())
}

/// Encodes a batch into column chunks with writers from `factory` (as the output's writer would): one row
/// group, or one per [`ROW_GROUP_BYTES`] of encoded data.
pub(crate) fn encode_row_groups(
    factory: &ArrowRowGroupWriterFactory,
    batch: &RecordBatch,
) -> Result<EncodedRowGroups, ParquetError> {
    encode_row_groups_within(factory, batch, ROW_GROUP_BYTES)
}

/// [`encode_row_groups`] with row groups ending past `row_group_bytes`.
fn encode_row_groups_within(
    factory: &ArrowRowGroupWriterFactory,
    batch: &RecordBatch,
    row_group_bytes: usize,
) -> Result<EncodedRowGroups, ParquetError> {
    let mut groups = Vec::new();
    let mut open = None;
    let mut rows = 0;
    let mut start = 0;
    // A step of about an eighth of a row group, by the batch's average row (its arrays' room included).
    let row_bytes = batch.get_array_memory_size() / batch.num_rows().max(1);
    let step = (row_group_bytes / 8 / row_bytes.max(1)).clamp(1, ENCODE_STEP_ROWS);
    while start < batch.num_rows() {
        let len = step.min(batch.num_rows() - start);
        let writers = match &mut open {
            Some(writers) => writers,
            // The index only matters to encrypted files, which these are not.
            None => open.insert(factory.create_column_writers(0)?),
        };
        write_leaves(writers, &batch.slice(start, len))?;
        start += len;
        rows += len;
        let encoded: usize = writers.iter().map(|w| w.get_estimated_total_bytes()).sum();
        if encoded >= row_group_bytes
            && let Some(writers) = open.take()
        {
            groups.push(close_row_group(writers, rows)?);
            rows = 0;
        }
    }
    if let Some(writers) = open {
        groups.push(close_row_group(writers, rows)?);
    }
    Ok(EncodedRowGroups(groups))
}

fn close_row_group(
    writers: Vec<parquet::arrow::arrow_writer::ArrowColumnWriter>,
    rows: usize,
) -> Result<EncodedRowGroup, ParquetError> {
    let chunks = writers
        .into_iter()
        .map(|w| w.close())
        .collect::<Result<_, _>>()?;
    Ok(EncodedRowGroup { chunks, rows })
}

/// Batches gathered on the output side before they go to the writer together.
#[derive(Default)]
pub(crate) struct Pending {
    batches: Vec<RecordBatch>,
    rows: usize,
    /// Bytes of their arrays (room reserved included).
    bytes: usize,
}

impl Pending {
    fn push(&mut self, batch: &RecordBatch) {
        self.batches.push(batch.clone());
        self.rows += batch.num_rows();
        self.bytes += batch.get_array_memory_size();
    }

    fn full(&self) -> bool {
        self.rows >= WRITE_ROWS || self.bytes >= WRITE_BYTES
    }

    /// Passes the pending batches to the writer as one.
    fn write(&mut self, writer: &mut ArrowWriter<Vec<u8>>) -> Result<(), ParquetError> {
        match self.batches.as_slice() {
            [] => {}
            [only] => writer.write(only)?,
            [first, ..] => {
                let batch =
                    arrow_select::concat::concat_batches(&first.schema(), self.batches.iter())?;
                writer.write(&batch)?;
            }
        }
        *self = Pending::default();
        Ok(())
    }
}

/// Whether a batch goes to the writer as it is rather than gathered with others.
fn direct(batch: &RecordBatch) -> bool {
    batch.num_rows() >= DIRECT_ROWS || batch.get_array_memory_size() >= DIRECT_BYTES
}

/// The settings of a run's writer for rows of `schema`: what a batch's spilled rows are encoded with
/// ([`super::spill::Spill`]), so that their column chunks can be appended to the output as they are.
pub(crate) fn writer_properties(schema: &SchemaRef, codec: Codec) -> WriterProperties {
    properties(schema, codec, ROW_GROUP_BYTES)
}

/// Rows read back at a time from a batch's spilled rows when the output side encodes them: as many as
/// [`DIRECT_ROWS`] or more, so that each goes to the writer as it is.
const READ_BACK_ROWS: usize = 2 * DIRECT_ROWS;

/// The writer's settings: the codec, large row groups, no dictionary or statistics where they cannot help.
fn properties(schema: &SchemaRef, codec: Codec, row_group_bytes: usize) -> WriterProperties {
    let compression = match codec {
        Codec::Zstd => Compression::ZSTD(ZstdLevel::default()),
        Codec::Lz4 => Compression::LZ4_RAW,
        Codec::None => Compression::UNCOMPRESSED,
    };
    let mut props = WriterProperties::builder()
        .set_compression(compression)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_max_row_group_bytes(Some(row_group_bytes))
        .set_created_by(format!("pgnkit {}", env!("CARGO_PKG_VERSION")));
    // A dictionary pays for text that repeats (names, events, SAN, UCI); numbers compress as well without
    // one, and hashing every value to build it costs more than the encoding itself.
    for field in schema.fields() {
        if field.data_type() != &DataType::Utf8 {
            props =
                props.set_column_dictionary_enabled(ColumnPath::from(field.name().as_str()), false);
        }
    }
    // In per-move rows (the ones with `fen_before`) a text column's smallest and largest values select
    // nothing a query would ask for (file names, SANs, squares, colours), and comparing every value with
    // them costs about a twentieth of the run; the number columns keep theirs (`game`, `ply`). The file
    // name and the colour repeat row after row: compressed as they are, they cost less than hashing each
    // value into a dictionary, for the same size within a few bytes.
    if schema.field_with_name("fen_before").is_ok() {
        for field in schema.fields() {
            if field.data_type() == &DataType::Utf8 {
                props = props.set_column_statistics_enabled(
                    ColumnPath::from(field.name().as_str()),
                    EnabledStatistics::None,
                );
            }
        }
        for name in ["file", "color"] {
            props = props.set_column_dictionary_enabled(ColumnPath::from(name), false);
        }
    }
    // FENs, errors and comments are nearly all distinct: a dictionary would be built only to be given up,
    // and their smallest and largest values select nothing.
    for name in ["fen", "fen_before", "final_fen", "first_error", "comment"] {
        if schema.field_with_name(name).is_ok() {
            let path = || ColumnPath::from(name);
            props = props
                .set_column_dictionary_enabled(path(), false)
                .set_column_statistics_enabled(path(), EnabledStatistics::None);
        }
    }
    props.build()
}

/// The Parquet writer of a run. It writes into a buffer whose bytes are passed to the run's output after
/// each batch: the output (standard output, a compressed or temporary file) need not be `Send`, and what
/// waits in memory is at most a row group.
pub(crate) enum ParquetOut {
    OnOutput {
        writer: ArrowWriter<Vec<u8>>,
        /// Batches not yet passed to the writer (`WRITE_ROWS`, `WRITE_BYTES`).
        pending: Pending,
    },
    InWorkers {
        writer: SerializedFileWriter<Vec<u8>>,
        factory: Arc<ArrowRowGroupWriterFactory>,
        row_group_bytes: usize,
    },
}

impl ParquetOut {
    /// A writer for rows of `schema`.
    pub(crate) fn new(
        schema: &SchemaRef,
        encoding: Encoding,
        codec: Codec,
    ) -> Result<ParquetOut, ParquetFailure> {
        Self::with_row_group_bytes(schema, encoding, codec, ROW_GROUP_BYTES)
    }

    fn with_row_group_bytes(
        schema: &SchemaRef,
        encoding: Encoding,
        codec: Codec,
        row_group_bytes: usize,
    ) -> Result<ParquetOut, ParquetFailure> {
        let props = properties(schema, codec, row_group_bytes);
        let writer = ArrowWriter::try_new(Vec::new(), Arc::clone(schema), Some(props))?;
        Ok(match encoding {
            Encoding::OnOutput => ParquetOut::OnOutput {
                writer,
                pending: Pending::default(),
            },
            Encoding::InWorkers => {
                let (writer, factory) = writer.into_serialized_writer()?;
                ParquetOut::InWorkers {
                    writer,
                    factory: Arc::new(factory),
                    row_group_bytes,
                }
            }
        })
    }

    /// What the workers encode their row groups with, when they do.
    pub(crate) fn factory(&self) -> Option<Arc<ArrowRowGroupWriterFactory>> {
        match self {
            ParquetOut::OnOutput { .. } => None,
            ParquetOut::InWorkers { factory, .. } => Some(Arc::clone(factory)),
        }
    }

    /// Encodes a batch of rows, then passes whatever the writer has finished to `out`.
    pub(crate) fn write(
        &mut self,
        batch: &RecordBatch,
        out: &mut impl Write,
    ) -> Result<(), ParquetFailure> {
        match self {
            ParquetOut::OnOutput { writer, pending } => {
                if direct(batch) {
                    // Written as it is, not copied into a larger one; what was gathered goes first.
                    pending.write(writer)?;
                    writer.write(batch)?;
                } else {
                    pending.push(batch);
                    if pending.full() {
                        pending.write(writer)?;
                    }
                }
            }
            ParquetOut::InWorkers {
                factory,
                row_group_bytes,
                ..
            } => {
                let groups = encode_row_groups_within(factory, batch, *row_group_bytes)?;
                return self.append(groups, out);
            }
        }
        self.drain(out)
    }

    /// Appends the row groups a worker encoded, passing each to `out` as it is appended.
    pub(crate) fn append(
        &mut self,
        groups: EncodedRowGroups,
        out: &mut impl Write,
    ) -> Result<(), ParquetFailure> {
        for group in groups.0 {
            if group.rows == 0 {
                continue;
            }
            match self {
                ParquetOut::OnOutput { .. } => {
                    return Err(ParquetFailure::Encode(ParquetError::General(
                        "an encoded row group for a writer that encodes its own".into(),
                    )));
                }
                ParquetOut::InWorkers { writer, .. } => {
                    let mut row_group = writer.next_row_group()?;
                    for chunk in group.chunks {
                        chunk.append_to_row_group(&mut row_group)?;
                    }
                    row_group.close()?;
                }
            }
            self.drain(out)?;
        }
        Ok(())
    }

    /// Writes the rows a batch spilled: their row groups' column chunks appended as they were encoded when
    /// the workers encode, else the rows read back and written as any other batch's.
    pub(crate) fn append_spilled(
        &mut self,
        spilled: SpilledParquet,
        out: &mut impl Write,
    ) -> Result<(), ParquetFailure> {
        let ParquetOut::InWorkers { writer, .. } = self else {
            for rows in spilled
                .record_batches(READ_BACK_ROWS)
                .map_err(ParquetFailure::Spill)?
            {
                self.write(&rows.map_err(ParquetFailure::Spill)?, out)?;
            }
            return Ok(());
        };
        let metadata = spilled.metadata();
        for (index, group) in metadata.row_groups().iter().enumerate() {
            let page_index = metadata.page_index_for_row_group(index);
            let mut row_group = writer.next_row_group()?;
            for (column, chunk) in group.columns().iter().enumerate() {
                let close = ColumnCloseResult {
                    bytes_written: chunk.compressed_size() as u64,
                    rows_written: group.num_rows() as u64,
                    metadata: chunk.clone(),
                    bloom_filter: None,
                    column_index: page_index.column_index(column).cloned(),
                    offset_index: page_index.offset_index(column).cloned(),
                };
                row_group
                    .append_column(spilled.file(), close)
                    .map_err(|e| match e {
                        // Reading the spilled chunk, not writing the output's buffer.
                        ParquetError::External(e) => {
                            ParquetFailure::Spill(SpillError::reading(io::Error::other(e)))
                        }
                        e => ParquetFailure::Encode(e),
                    })?;
            }
            row_group.close()?;
            Self::drain_buffer(writer.inner_mut(), out)?;
        }
        Ok(())
    }

    /// Moves the bytes written so far to `out`. The writer counts the bytes it writes itself, so emptying
    /// its buffer does not disturb the offsets it records in the footer.
    fn drain(&mut self, out: &mut impl Write) -> Result<(), ParquetFailure> {
        match self {
            ParquetOut::OnOutput { writer, .. } => Self::drain_buffer(writer.inner_mut(), out),
            ParquetOut::InWorkers { writer, .. } => Self::drain_buffer(writer.inner_mut(), out),
        }
    }

    /// Moves a writer's buffered bytes to `out`.
    fn drain_buffer(buffer: &mut Vec<u8>, out: &mut impl Write) -> Result<(), ParquetFailure> {
        if !buffer.is_empty() {
            out.write_all(buffer).map_err(ParquetFailure::Write)?;
            buffer.clear();
        }
        Ok(())
    }

    /// Writes the last row group and the footer.
    pub(crate) fn finish(mut self, out: &mut impl Write) -> Result<(), ParquetFailure> {
        match &mut self {
            ParquetOut::OnOutput { writer, pending } => {
                pending.write(writer)?;
                writer.finish()?;
            }
            ParquetOut::InWorkers { writer, .. } => {
                writer.finish()?;
            }
        }
        self.drain(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::table::{GAME_COLUMNS, MOVE_COLUMNS, TYPED_GAME_COLUMNS};
    use arrow_array::{Array, Float64Array, Int32Array, ListArray, StringArray};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    #[test]
    fn every_column_kind_has_a_builder_of_its_type() {
        let schema = schema(
            GAME_COLUMNS
                .iter()
                .chain(&TYPED_GAME_COLUMNS)
                .chain(&MOVE_COLUMNS),
        );
        let cells = ArrowCells::new(&schema, 0);
        let batch = cells.finish().unwrap();
        assert_eq!(batch.num_columns(), 58);
        assert_eq!(batch.num_rows(), 0);
    }

    #[test]
    fn rows_round_trip_through_parquet() {
        let columns = [
            MOVE_COLUMNS[3],  // san: text
            MOVE_COLUMNS[8],  // clock: seconds
            GAME_COLUMNS[8],  // white_elo: nullable int32
            MOVE_COLUMNS[15], // nags
            MOVE_COLUMNS[16], // comment: nullable text
        ];
        let schema = schema(&columns);
        for encoding in [Encoding::OnOutput, Encoding::InWorkers] {
            for codec in [Codec::Zstd, Codec::Lz4, Codec::None] {
                round_trip(&schema, encoding, codec);
            }
        }
    }

    #[test]
    fn per_move_text_columns_have_no_statistics_and_game_rows_keep_theirs() {
        let stats = |props: &WriterProperties, name: &str| {
            props.statistics_enabled(&ColumnPath::from(name)) != EnabledStatistics::None
        };
        let dictionary = |props: &WriterProperties, name: &str| {
            props.dictionary_enabled(&ColumnPath::from(name))
        };
        let moves = properties(&schema(&MOVE_COLUMNS), Codec::Zstd, ROW_GROUP_BYTES);
        for text in [
            "file",
            "san",
            "uci",
            "color",
            "fen",
            "fen_before",
            "comment",
        ] {
            assert!(!stats(&moves, text), "{text}");
        }
        for number in ["game", "ply", "move_number", "is_check", "clock"] {
            assert!(stats(&moves, number), "{number}");
        }
        assert!(!dictionary(&moves, "file") && !dictionary(&moves, "color"));
        assert!(dictionary(&moves, "san") && dictionary(&moves, "uci"));
        assert!(!dictionary(&moves, "fen") && !dictionary(&moves, "ply"));

        let games = properties(&schema(&GAME_COLUMNS), Codec::Zstd, ROW_GROUP_BYTES);
        for text in ["file", "white", "black", "event", "opening_eco"] {
            assert!(stats(&games, text) && dictionary(&games, text), "{text}");
        }
        assert!(!stats(&games, "final_fen") && !dictionary(&games, "final_fen"));
    }

    #[test]
    fn large_and_small_batches_keep_their_order() {
        let schema = schema(&MOVE_COLUMNS[2..3]); // ply
        let sizes = [DIRECT_ROWS, 3, 5, DIRECT_ROWS + 1, 2];
        let mut out = Vec::new();
        let mut writer = ParquetOut::new(&schema, Encoding::OnOutput, Codec::Zstd).unwrap();
        let mut next = 0;
        for size in sizes {
            let mut cells = ArrowCells::new(&schema, size);
            for _ in 0..size {
                cells.int(next);
                cells.end_row();
                next += 1;
            }
            writer.write(&cells.finish().unwrap(), &mut out).unwrap();
        }
        writer.finish(&mut out).unwrap();

        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(out))
            .unwrap()
            .build()
            .unwrap();
        let mut read = Vec::new();
        for batch in reader {
            let batch = batch.unwrap();
            let plies = batch
                .column(0)
                .as_any()
                .downcast_ref::<Int32Array>()
                .unwrap();
            read.extend(plies.values().iter().map(|&v| i64::from(v)));
        }
        assert_eq!(read, (0..next).collect::<Vec<_>>());
    }

    #[test]
    fn row_groups_end_at_their_bytes_whatever_their_rows() {
        // Rows of 5 MiB, uncompressed, under a limit of 8 MiB: rows alone (128K of them) would have made one
        // row group of all. The output's writer ends a row group before a row would take it past the limit;
        // a worker, encoding a step of rows at a time, at the first step past it.
        let limit = 8 << 20;
        let big = 5 << 20;
        let schema = schema(&[GAME_COLUMNS[1], GAME_COLUMNS[2]]); // game, event
        for (encoding, expected) in [
            (Encoding::OnOutput, [1, 1, 1].as_slice()),
            (Encoding::InWorkers, [2, 1].as_slice()),
        ] {
            let mut out = Vec::new();
            let mut writer =
                ParquetOut::with_row_group_bytes(&schema, encoding, Codec::None, limit).unwrap();
            let mut cells = ArrowCells::new(&schema, 1);
            for row in 0..3u8 {
                cells.int(i64::from(row));
                cells.text(&char::from(b'a' + row).to_string().repeat(big));
                cells.end_row();
                if encoding == Encoding::OnOutput {
                    // One row a batch, as a batch holding one game with a huge tag gives: each is written as
                    // it comes, none gathered into a copy of them all.
                    let batch = std::mem::replace(&mut cells, ArrowCells::new(&schema, 1));
                    let batch = batch.finish().unwrap();
                    assert!(direct(&batch));
                    writer.write(&batch, &mut out).unwrap();
                }
            }
            if encoding == Encoding::InWorkers {
                writer.write(&cells.finish().unwrap(), &mut out).unwrap();
            }
            writer.finish(&mut out).unwrap();

            let builder =
                ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(out)).unwrap();
            let groups: Vec<i64> = builder
                .metadata()
                .row_groups()
                .iter()
                .map(|g| g.num_rows())
                .collect();
            assert_eq!(groups, expected, "{encoding:?}");
            let mut events = Vec::new();
            for batch in builder.build().unwrap() {
                let batch = batch.unwrap();
                let column = batch
                    .column(1)
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .unwrap();
                events.extend(column.iter().map(|v| v.map(|v| (v.len(), v.as_bytes()[0]))));
            }
            assert_eq!(
                events,
                [Some((big, b'a')), Some((big, b'b')), Some((big, b'c'))],
                "{encoding:?}"
            );
        }
    }

    fn round_trip(schema: &SchemaRef, encoding: Encoding, codec: Codec) {
        let mut out = Vec::new();
        let mut writer = ParquetOut::new(schema, encoding, codec).unwrap();
        for part in 0..2 {
            let mut cells = ArrowCells::new(schema, 1);
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
            let batch = cells.finish().unwrap();
            match writer.factory() {
                Some(factory) => {
                    let groups = encode_row_groups(&factory, &batch).unwrap();
                    writer.append(groups, &mut out).unwrap();
                }
                None => writer.write(&batch, &mut out).unwrap(),
            }
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
        assert_eq!(&b.schema(), schema);
        let san = b.column(0).as_any().downcast_ref::<StringArray>().unwrap();
        assert_eq!((san.value(0), san.value(1)), ("e4", "Nf3"));
        let clock = b.column(1).as_any().downcast_ref::<Float64Array>().unwrap();
        assert_eq!(clock.value(0), 179.5);
        assert!(clock.is_null(1));
        let elo = b.column(2).as_any().downcast_ref::<Int32Array>().unwrap();
        assert_eq!(elo.value(0), -35);
        assert!(elo.is_null(1), "out of range is no value");
        let nags = b.column(3).as_any().downcast_ref::<ListArray>().unwrap();
        let first = nags.value(0);
        let first = first.as_any().downcast_ref::<Int32Array>().unwrap();
        assert_eq!(first.values().to_vec(), vec![1, 14]);
        assert_eq!(nags.value(1).len(), 0);
        let comment = b.column(4).as_any().downcast_ref::<StringArray>().unwrap();
        assert!(comment.is_null(0));
        assert_eq!(comment.value(1), "a note, \"quoted\"");
        let last = batches.last().unwrap();
        let clock = last
            .column(1)
            .as_any()
            .downcast_ref::<Float64Array>()
            .unwrap();
        assert_eq!(clock.value(last.num_rows() - 2), 179.501);
    }
}
