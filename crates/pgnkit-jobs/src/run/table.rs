//! Games from Parquet files whose rows are games, in either of two shapes:
//! * **tag columns and `movetext`** (the Lichess database's shape on Hugging Face: `Event`, `Site`, `White`,
//!   `WhiteElo`, `UTCDate`... and the moves in `movetext`): each row is written out as a game's PGN text, a
//!   tag pair per non-null column in column order, then the movetext;
//! * **a `pgn` column** holding each game's whole text, read as it is.
//!
//! Rows are read in order, a few hundred at a time, and turned into batches of game texts made of records
//! ([`pgnkit::pgn::RecordStart`]): every game knows its row group and row, lines and columns count from the
//! start of its row's text, and no game runs on into the next row. The text of a batch is what the reader of a
//! PGN file hands the workers, so every job reads a Parquet file as it reads PGN, and memory stays a few
//! batches whatever the file's size: the arrays of one read, and the batches in flight.
//!
//! Column names are matched to tag names without regard to case or underscores (`white_elo`, `whiteelo` and
//! `WhiteElo` are the tag `WhiteElo`); other names are kept, their characters outside a tag name's replaced by
//! `_`. Typed values are written as PGN writes them: integers in decimal, dates `2025.05.01`, times
//! `00:00:07`. Columns of other types (lists, structs, decimals...) are no tags and are not read.

use std::fmt;
use std::fs::File;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use arrow_schema::{Field, Schema};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder,
};
use parquet::file::reader::ChunkReader;
use pgnkit::pgn::{Batch, BufferStart, MAX_BATCH_GAMES, Record, RecordStart};

/// The first (and last) four bytes of a Parquet file.
pub(crate) const MAGIC: &[u8; 4] = b"PAR1";

/// Rows read from the file at a time: the arrays of one read are held while its rows become text, so memory
/// holds this many rows' worth (reads of 1,024 rows were no faster); the text is cut in batches of the run's
/// size anyway.
const READ_ROWS: usize = 256;

/// Why a Parquet file gives no games.
#[derive(Debug)]
pub enum TableError {
    /// The file is not Parquet, or its footer or schema cannot be read.
    Damaged(parquet::errors::ParquetError),
    /// Neither a `movetext` nor a `pgn` column of text: the rows are not games (a file `pgnkit stats` wrote,
    /// say). The columns it has, for the message.
    NotGames { columns: Vec<String> },
    /// The `movetext` or `pgn` column holds no text.
    NotText { column: String, kind: String },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Damaged(e) => write!(f, "damaged Parquet data: {e}"),
            TableError::NotGames { columns } => {
                const SHOWN: usize = 12;
                let mut shown = columns
                    .iter()
                    .take(SHOWN)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ");
                if columns.len() > SHOWN {
                    shown.push_str(", …");
                }
                write!(
                    f,
                    "no `movetext` or `pgn` column, so its rows are not games (its columns: {shown})"
                )
            }
            TableError::NotText { column, kind } => {
                write!(f, "the column `{column}` holds {kind}, not text")
            }
        }
    }
}

impl std::error::Error for TableError {}

impl From<parquet::errors::ParquetError> for TableError {
    fn from(e: parquet::errors::ParquetError) -> Self {
        TableError::Damaged(e)
    }
}

impl From<TableError> for io::Error {
    fn from(e: TableError) -> Self {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

/// How the rows hold their games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Tag columns, and the moves in the column at this index of the read schema.
    TagsAndMovetext { movetext: usize },
    /// The whole text in the column at this index.
    Pgn { text: usize },
}

/// A column read as a tag: its index in the read schema and the tag's name.
#[derive(Debug, Clone)]
struct TagColumn {
    index: usize,
    name: String,
    /// A rating change (`WhiteRatingDiff`): one that is no loss is written with its sign, `+5` or `+0`, as
    /// Lichess writes it.
    signed: bool,
}

/// The games of one Parquet file, as batches of game texts made of records.
pub(crate) struct TableGames {
    rows: ParquetRecordBatchReader,
    shape: Shape,
    tags: Vec<TagColumn>,
    /// The index of a `Result` column, to end a movetext that has no result with it.
    result: Option<usize>,
    /// The first row of each row group, and the rows of the file after the last.
    group_starts: Vec<u64>,
    /// The arrays being turned into text, and the next of their rows.
    current: Option<RecordBatch>,
    next_row: usize,
    /// Rows of the file before `current`.
    rows_before: u64,
    /// The rows' text so far.
    bytes_read: u64,
    /// Reading failed: the error, to be handed out once the rows before it have been.
    failed: Option<TableError>,
    /// No more batches: the last row, or an error, was handed out.
    done: bool,
    /// Where the share of the file's bytes read so far goes (for a progress bar), and the file's size.
    progress: Option<(Arc<AtomicU64>, u64)>,
}

impl TableGames {
    /// The games of a Parquet file, opened.
    pub(crate) fn open_file(file: File) -> Result<TableGames, TableError> {
        TableGames::new(file)
    }

    /// The games of a Parquet file held in memory (standard input, read whole: a Parquet file is read from its
    /// end).
    pub(crate) fn open_bytes(bytes: bytes::Bytes) -> Result<TableGames, TableError> {
        TableGames::new(bytes)
    }

    fn new<T: ChunkReader + 'static>(input: T) -> Result<TableGames, TableError> {
        let found = ArrowReaderMetadata::load(&input, ArrowReaderOptions::new())?;
        // Text columns are read as views: they are only copied into the games' text, so a view of the
        // decoded page spares a copy.
        let as_views: Vec<Field> = found
            .schema()
            .fields()
            .iter()
            .map(|f| match f.data_type() {
                DataType::Utf8 | DataType::LargeUtf8 => {
                    f.as_ref().clone().with_data_type(DataType::Utf8View)
                }
                DataType::Binary | DataType::LargeBinary => {
                    f.as_ref().clone().with_data_type(DataType::BinaryView)
                }
                _ => f.as_ref().clone(),
            })
            .collect();
        let hinted = ArrowReaderOptions::new().with_schema(Arc::new(Schema::new_with_metadata(
            as_views,
            found.schema().metadata().clone(),
        )));
        let metadata = ArrowReaderMetadata::try_new(found.metadata().clone(), hinted)?;
        let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(input, metadata);
        let schema = builder.schema().clone();
        let find = |name: &str| {
            schema
                .fields()
                .iter()
                .position(|f| f.name().eq_ignore_ascii_case(name))
        };
        let (games_column, is_movetext) = match (find("movetext"), find("pgn")) {
            (Some(i), _) => (i, true),
            (None, Some(i)) => (i, false),
            (None, None) => {
                return Err(TableError::NotGames {
                    columns: schema.fields().iter().map(|f| f.name().clone()).collect(),
                });
            }
        };
        let games_field = &schema.fields()[games_column];
        if !is_text(games_field.data_type()) {
            return Err(TableError::NotText {
                column: games_field.name().clone(),
                kind: games_field.data_type().to_string(),
            });
        }
        // Only what becomes text is read: the games' column and, beside `movetext`, the tag columns.
        let read: Vec<usize> = (0..schema.fields().len())
            .filter(|&i| {
                i == games_column || (is_movetext && is_scalar(schema.fields()[i].data_type()))
            })
            .collect();
        let position = |i: usize| read.iter().position(|&r| r == i).unwrap_or(0);
        let shape = if is_movetext {
            Shape::TagsAndMovetext {
                movetext: position(games_column),
            }
        } else {
            Shape::Pgn {
                text: position(games_column),
            }
        };
        let tags: Vec<TagColumn> = if is_movetext {
            read.iter()
                .enumerate()
                .filter(|&(_, &i)| i != games_column)
                .map(|(at, &i)| {
                    let name = tag_name(schema.fields()[i].name());
                    TagColumn {
                        index: at,
                        signed: name.ends_with("RatingDiff"),
                        name,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let result = tags.iter().find(|t| t.name == "Result").map(|t| t.index);
        let mut group_starts = vec![0u64];
        for group in builder.metadata().row_groups() {
            let last = *group_starts.last().unwrap_or(&0);
            group_starts.push(last + group.num_rows().max(0) as u64);
        }
        let mask = ProjectionMask::roots(builder.parquet_schema(), read.iter().copied());
        let rows = builder
            .with_projection(mask)
            .with_batch_size(READ_ROWS)
            .build()?;
        Ok(TableGames {
            rows,
            shape,
            tags,
            result,
            group_starts,
            current: None,
            next_row: 0,
            rows_before: 0,
            bytes_read: 0,
            failed: None,
            done: false,
            progress: None,
        })
    }

    /// Keeps `counter` at the share of `size` (the file's bytes) that the rows handed out stand for.
    pub(crate) fn count_progress(&mut self, counter: Arc<AtomicU64>, size: u64) {
        self.progress = Some((counter, size));
    }

    /// Bytes of game text made so far (what the run counts as read, as it counts a file's decompressed bytes).
    pub(crate) fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The row group holding the file's row `row`.
    fn group_of(&self, row: u64) -> u32 {
        let after = self.group_starts.partition_point(|&start| start <= row);
        after.saturating_sub(1) as u32
    }

    /// The next batch of about `batch_bytes` bytes of game text (at least one row, at most
    /// [`MAX_BATCH_GAMES`] rows), `None` after the last row. An error ends the file: the rows before it
    /// were all handed out.
    pub(crate) fn next_batch(
        &mut self,
        batch_bytes: usize,
        mut spare: Vec<u8>,
    ) -> Option<Result<Batch, TableError>> {
        if self.done {
            return None;
        }
        spare.clear();
        let mut bytes = spare;
        let mut records = Vec::new();
        while bytes.len() < batch_bytes && records.len() < MAX_BATCH_GAMES && self.failed.is_none()
        {
            let current = match &self.current {
                Some(current) if self.next_row < current.num_rows() => current,
                _ => {
                    if let Some(done) = &self.current {
                        self.rows_before += done.num_rows() as u64;
                    }
                    self.current = None;
                    self.next_row = 0;
                    match self.rows.next() {
                        Some(Ok(read)) => {
                            self.current = Some(read);
                            continue;
                        }
                        Some(Err(e)) => {
                            // The rows read before the error go out first; the error comes next, and ends
                            // the file.
                            self.failed = Some(TableError::Damaged(e.into()));
                            break;
                        }
                        None => break,
                    }
                }
            };
            let row = self.rows_before + self.next_row as u64;
            records.push(RecordStart {
                at: bytes.len(),
                record: Record {
                    group: self.group_of(row),
                    row,
                },
                first_game: row,
            });
            let last = row + 1 >= self.group_starts.last().copied().unwrap_or(0);
            write_row(
                &mut bytes,
                current,
                self.next_row,
                self.shape,
                (&self.tags, self.result),
                last,
            );
            self.next_row += 1;
        }
        if records.is_empty() {
            self.done = true;
            return self.failed.take().map(Err);
        }
        let games = records.len();
        // The batch starts where the text made so far ends.
        let start = BufferStart {
            offset: self.bytes_read,
            line: 1,
            column: 1,
            index: records[0].first_game,
        };
        self.bytes_read += bytes.len() as u64;
        if let Some((counter, size)) = &self.progress {
            let rows = self.group_starts.last().copied().unwrap_or(0).max(1);
            let done = self.rows_before + self.next_row as u64;
            let share = (*size as u128 * done.min(rows) as u128 / rows as u128) as u64;
            counter.store(share, Ordering::Relaxed);
        }
        Some(Ok(Batch {
            bytes,
            start,
            games,
            records,
        }))
    }
}

/// A column of a table of games, as `stats --keep-columns` carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TableColumn {
    /// Its name in the file.
    pub(crate) name: String,
    /// The tag its values become in each game's text.
    pub(crate) tag: String,
    /// What its values are.
    pub(crate) kind: TableKind,
    /// Whether its values become tags: a scalar column beside `movetext` (not the games' own column, a list,
    /// a structure, nor any column of a file that holds its games in a `pgn` column).
    pub(crate) is_tag: bool,
}

/// What the values of a column of a table of games are, for the rows that carry them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TableKind {
    Integer,
    Boolean,
    Date,
    /// Text, and anything else written as text (floats, times, timestamps).
    Text,
}

/// The columns of a Parquet file of games (only its footer is read); `None` when it is no such file.
pub(crate) fn table_columns<T: ChunkReader + 'static>(input: T) -> Option<Vec<TableColumn>> {
    let schema = ParquetRecordBatchReaderBuilder::try_new(input)
        .ok()?
        .schema()
        .clone();
    let fields = schema.fields();
    let movetext = fields
        .iter()
        .any(|f| f.name().eq_ignore_ascii_case("movetext") && is_text(f.data_type()));
    let pgn = fields
        .iter()
        .any(|f| f.name().eq_ignore_ascii_case("pgn") && is_text(f.data_type()));
    if !movetext && !pgn {
        return None;
    }
    Some(
        fields
            .iter()
            .map(|f| {
                let kind = f.data_type();
                TableColumn {
                    name: f.name().clone(),
                    tag: tag_name(f.name()),
                    kind: if kind.is_integer() {
                        TableKind::Integer
                    } else if matches!(kind, DataType::Boolean) {
                        TableKind::Boolean
                    } else if matches!(kind, DataType::Date32 | DataType::Date64) {
                        TableKind::Date
                    } else {
                        TableKind::Text
                    },
                    is_tag: movetext
                        && !f.name().eq_ignore_ascii_case("movetext")
                        && is_scalar(kind),
                }
            })
            .collect(),
    )
}

/// Whether the file at `path` is a Parquet file whose rows are games (it has a `movetext` or `pgn` column
/// of text): what a directory search reads. Only its footer is read.
pub(crate) fn holds_games(path: &std::path::Path) -> bool {
    match File::open(path) {
        Ok(file) => table_columns(file).is_some(),
        // Opening it again when it is read says why.
        Err(_) => true,
    }
}

/// Whether a column of this type holds text (or bytes of text in another encoding).
fn is_text(kind: &DataType) -> bool {
    matches!(
        kind,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
    ) || matches!(kind, DataType::Dictionary(_, values) if is_text(values))
}

/// Whether a column of this type can be a tag's value.
fn is_scalar(kind: &DataType) -> bool {
    is_text(kind)
        || kind.is_integer()
        || matches!(
            kind,
            DataType::Float32
                | DataType::Float64
                | DataType::Boolean
                | DataType::Date32
                | DataType::Date64
                | DataType::Time32(_)
                | DataType::Time64(_)
                | DataType::Timestamp(_, _)
        )
}

/// The tags a column name may stand for, in their PGN spelling: matched without regard to case or `_`.
const KNOWN_TAGS: [&str; 38] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteElo",
    "BlackElo",
    "WhiteTitle",
    "BlackTitle",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "WhiteFideId",
    "BlackFideId",
    "WhiteTeam",
    "BlackTeam",
    "UTCDate",
    "UTCTime",
    "ECO",
    "Opening",
    "Variation",
    "SubVariation",
    "Termination",
    "TimeControl",
    "FEN",
    "SetUp",
    "Variant",
    "PlyCount",
    "Annotator",
    "EventDate",
    "EventType",
    "EventRounds",
    "EventCountry",
    "Board",
    "Mode",
    "Section",
    "Stage",
];

/// The tag a column stands for: a known tag's PGN spelling, else the name with any character a tag name
/// cannot hold replaced by `_`.
fn tag_name(column: &str) -> String {
    let folded: Vec<u8> = column
        .bytes()
        .filter(|&b| b != b'_')
        .map(|b| b.to_ascii_lowercase())
        .collect();
    if let Some(known) = KNOWN_TAGS
        .iter()
        .find(|t| t.as_bytes().eq_ignore_ascii_case(&folded))
    {
        return known.to_string();
    }
    let name: String = column
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        "_".to_string()
    } else {
        name
    }
}

/// Appends row `row`'s game text: its tag pairs and movetext, or its `pgn` text, then a blank line as
/// between the games of a file; the file's `last` row ends with its line, as a file's last game does.
fn write_row(
    out: &mut Vec<u8>,
    batch: &RecordBatch,
    row: usize,
    shape: Shape,
    (tags, result): (&[TagColumn], Option<usize>),
    last: bool,
) {
    match shape {
        Shape::Pgn { text } => {
            let start = out.len();
            push_text(out, batch.column(text), row);
            end_game(out, start, last);
        }
        Shape::TagsAndMovetext { movetext } => {
            let row_start = out.len();
            for tag in tags {
                let column = batch.column(tag.index);
                if column.is_null(row) {
                    continue;
                }
                out.push(b'[');
                out.extend_from_slice(tag.name.as_bytes());
                out.extend_from_slice(b" \"");
                let value_start = out.len();
                push_value(out, column, row);
                if tag.signed
                    && column.data_type().is_integer()
                    && !out[value_start..].starts_with(b"-")
                {
                    out.insert(value_start, b'+');
                }
                escape_tag_value(out, value_start);
                out.extend_from_slice(b"\"]\n");
            }
            if !tags.is_empty() {
                out.push(b'\n');
            }
            let moves_start = out.len();
            push_text(out, batch.column(movetext), row);
            // A movetext without its result (a collection that keeps it in the `Result` column only) ends
            // with the column's.
            let written = trim_end(&out[moves_start..]);
            let (written_len, has_result) = (written.len(), ends_with_result(written));
            if !has_result && let Some(result) = result {
                let start = out.len();
                push_value(out, batch.column(result), row);
                if is_result(&out[start..]) {
                    let value = out.split_off(start);
                    out.truncate(moves_start + written_len);
                    if written_len > 0 {
                        out.push(b' ');
                    }
                    out.extend_from_slice(&value);
                } else {
                    out.truncate(start);
                }
            }
            end_game(out, row_start, last);
        }
    }
}

/// Ends the game text written from `start` on with a line break, and a blank line after it unless it is the
/// file's `last` (or already ends with one). An empty text stays empty.
fn end_game(out: &mut Vec<u8>, start: usize, last: bool) {
    if out.len() == start {
        return;
    }
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    if !last && !out.ends_with(b"\n\n") {
        out.push(b'\n');
    }
}

fn trim_end(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    &text[..end]
}

fn is_result(text: &[u8]) -> bool {
    matches!(text, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// Whether a movetext ends with a game termination marker.
fn ends_with_result(moves: &[u8]) -> bool {
    let last = moves
        .rsplit(|b| b.is_ascii_whitespace())
        .next()
        .unwrap_or(b"");
    is_result(last)
}

/// Escapes what was appended from `from` on as a tag value: `\` and `"` get a backslash, and a line break
/// or tab, which a tag pair cannot hold, becomes a space.
fn escape_tag_value(out: &mut Vec<u8>, from: usize) {
    if !out[from..]
        .iter()
        .any(|&b| matches!(b, b'\\' | b'"' | b'\n' | b'\r' | b'\t'))
    {
        return;
    }
    let value = out.split_off(from);
    for b in value {
        match b {
            b'\\' | b'"' => out.extend_from_slice(&[b'\\', b]),
            b'\n' | b'\r' | b'\t' => out.push(b' '),
            _ => out.push(b),
        }
    }
}

/// Appends the text (or bytes) of a text column's row; nothing for a null.
fn push_text(out: &mut Vec<u8>, column: &ArrayRef, row: usize) {
    if column.is_null(row) {
        return;
    }
    match column.data_type() {
        DataType::Utf8 => out.extend_from_slice(column.as_string::<i32>().value(row).as_bytes()),
        DataType::LargeUtf8 => {
            out.extend_from_slice(column.as_string::<i64>().value(row).as_bytes())
        }
        DataType::Utf8View => out.extend_from_slice(column.as_string_view().value(row).as_bytes()),
        DataType::Binary => out.extend_from_slice(column.as_binary::<i32>().value(row)),
        DataType::LargeBinary => out.extend_from_slice(column.as_binary::<i64>().value(row)),
        DataType::BinaryView => out.extend_from_slice(column.as_binary_view().value(row)),
        DataType::Dictionary(_, _) => {
            if let Some(dictionary) = column.as_any_dictionary_opt() {
                let keys = dictionary.normalized_keys();
                if let Some(&key) = keys.get(row) {
                    push_text(out, dictionary.values(), key);
                }
            }
        }
        _ => {}
    }
}

/// Appends a scalar value as PGN writes it; nothing for a null.
fn push_value(out: &mut Vec<u8>, column: &ArrayRef, row: usize) {
    use std::io::Write;
    if column.is_null(row) {
        return;
    }
    macro_rules! number {
        ($t:ty) => {{
            let _ = write!(out, "{}", column.as_primitive::<$t>().value(row));
        }};
    }
    match column.data_type() {
        DataType::Int8 => number!(Int8Type),
        DataType::Int16 => number!(Int16Type),
        DataType::Int32 => number!(Int32Type),
        DataType::Int64 => number!(Int64Type),
        DataType::UInt8 => number!(UInt8Type),
        DataType::UInt16 => number!(UInt16Type),
        DataType::UInt32 => number!(UInt32Type),
        DataType::UInt64 => number!(UInt64Type),
        DataType::Float32 => number!(Float32Type),
        DataType::Float64 => number!(Float64Type),
        DataType::Boolean => {
            let value = column.as_boolean().value(row);
            out.extend_from_slice(if value { b"true" } else { b"false" });
        }
        DataType::Date32 => push_date(
            out,
            i64::from(column.as_primitive::<Date32Type>().value(row)),
        ),
        DataType::Date64 => push_date(
            out,
            column
                .as_primitive::<Date64Type>()
                .value(row)
                .div_euclid(86_400_000),
        ),
        DataType::Time32(TimeUnit::Second) => push_time(
            out,
            i64::from(column.as_primitive::<Time32SecondType>().value(row)),
        ),
        DataType::Time32(_) => push_time(
            out,
            i64::from(column.as_primitive::<Time32MillisecondType>().value(row)) / 1_000,
        ),
        DataType::Time64(TimeUnit::Microsecond) => push_time(
            out,
            column.as_primitive::<Time64MicrosecondType>().value(row) / 1_000_000,
        ),
        DataType::Time64(_) => push_time(
            out,
            column.as_primitive::<Time64NanosecondType>().value(row) / 1_000_000_000,
        ),
        DataType::Timestamp(unit, _) => {
            let seconds = match unit {
                TimeUnit::Second => column.as_primitive::<TimestampSecondType>().value(row),
                TimeUnit::Millisecond => column
                    .as_primitive::<TimestampMillisecondType>()
                    .value(row)
                    .div_euclid(1_000),
                TimeUnit::Microsecond => column
                    .as_primitive::<TimestampMicrosecondType>()
                    .value(row)
                    .div_euclid(1_000_000),
                TimeUnit::Nanosecond => column
                    .as_primitive::<TimestampNanosecondType>()
                    .value(row)
                    .div_euclid(1_000_000_000),
            };
            push_date(out, seconds.div_euclid(86_400));
            out.push(b' ');
            push_time(out, seconds.rem_euclid(86_400));
        }
        _ => push_text(out, column, row),
    }
}

/// Appends a day counted from 1970-01-01 as `YYYY.MM.DD` (the proleptic Gregorian calendar).
fn push_date(out: &mut Vec<u8>, days: i64) {
    use std::io::Write;
    let (year, month, day) = civil_from_days(days);
    let _ = write!(out, "{year:04}.{month:02}.{day:02}");
}

/// Appends seconds since midnight as `HH:MM:SS`.
fn push_time(out: &mut Vec<u8>, seconds: i64) {
    use std::io::Write;
    let seconds = seconds.rem_euclid(86_400);
    let _ = write!(
        out,
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
}

/// The year, month and day of a day counted from 1970-01-01, in the proleptic Gregorian calendar: eras of
/// 400 years (146,097 days) that start on March 1st, so that the leap day ends the year.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Int64Array, StringArray};
    use parquet::arrow::ArrowWriter;

    fn parquet(batch: &RecordBatch) -> bytes::Bytes {
        let mut out = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
        writer.write(batch).unwrap();
        writer.close().unwrap();
        bytes::Bytes::from(out)
    }

    fn all_text(mut games: TableGames, batch_bytes: usize) -> (String, Vec<RecordStart>) {
        let (mut text, mut records) = (String::new(), Vec::new());
        while let Some(batch) = games.next_batch(batch_bytes, Vec::new()) {
            let batch = batch.unwrap();
            let base = text.len();
            records.extend(batch.records.iter().map(|r| RecordStart {
                at: r.at + base,
                ..*r
            }));
            text.push_str(std::str::from_utf8(&batch.bytes).unwrap());
        }
        (text, records)
    }

    #[test]
    fn days_become_gregorian_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_209), (2025, 5, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(-719_468), (0, 3, 1));
    }

    #[test]
    fn column_names_become_tag_names() {
        assert_eq!(tag_name("white_elo"), "WhiteElo");
        assert_eq!(tag_name("utcdate"), "UTCDate");
        assert_eq!(tag_name("ECO"), "ECO");
        assert_eq!(tag_name("My Column"), "My_Column");
        assert_eq!(tag_name(""), "_");
    }

    #[test]
    fn tag_columns_and_movetext_become_games_with_their_rows() {
        let schema = Arc::new(Schema::new(vec![
            Field::new("Event", DataType::Utf8, true),
            Field::new("WhiteElo", DataType::Int64, true),
            Field::new("Result", DataType::Utf8, true),
            Field::new("movetext", DataType::Utf8, true),
        ]));
        let batch = RecordBatch::try_new(
            schema,
            vec![
                Arc::new(StringArray::from(vec![
                    Some("Say \"hi\"\\"),
                    None,
                    Some("C"),
                ])),
                Arc::new(Int64Array::from(vec![Some(2500), Some(1800), None])),
                Arc::new(StringArray::from(vec![Some("1-0"), Some("0-1"), None])),
                Arc::new(StringArray::from(vec![
                    Some("1. e4 e5 1-0"),
                    Some("1. d4 {resigns"),
                    None,
                ])),
            ],
        )
        .unwrap();
        let games = TableGames::open_bytes(parquet(&batch)).unwrap();
        let (text, records) = all_text(games, 1 << 20);
        assert_eq!(
            text,
            "[Event \"Say \\\"hi\\\"\\\\\"]\n[WhiteElo \"2500\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
             [WhiteElo \"1800\"]\n[Result \"0-1\"]\n\n1. d4 {resigns 0-1\n\n\
             [Event \"C\"]\n\n"
        );
        assert_eq!(
            records.iter().map(|r| r.record.row).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        // Each game is read within its row: the unclosed comment does not swallow the third.
        let mut reader = pgnkit::pgn::GameReader::with_records(text.as_bytes(), &records);
        let mut seen = Vec::new();
        while let Some(game) = reader.next_game() {
            seen.push((
                game.index,
                game.line,
                game.tag("Event").map(|e| e.into_owned()),
            ));
        }
        assert_eq!(
            seen,
            [
                (0, 1, Some("Say \"hi\"\\".to_string())),
                (1, 1, None),
                (2, 1, Some("C".to_string()))
            ]
        );
    }

    #[test]
    fn small_batches_cut_between_rows_and_a_file_without_games_is_refused() {
        let schema = Arc::new(Schema::new(vec![Field::new("pgn", DataType::Utf8, false)]));
        let texts: Vec<String> = (0..10)
            .map(|i| format!("[Round \"{i}\"]\n\n1. e4 *"))
            .collect();
        let batch = RecordBatch::try_new(
            schema,
            vec![Arc::new(StringArray::from(
                texts.iter().map(String::as_str).collect::<Vec<_>>(),
            ))],
        )
        .unwrap();
        let mut games = TableGames::open_bytes(parquet(&batch)).unwrap();
        let mut batches = 0;
        let mut rows = 0;
        while let Some(b) = games.next_batch(10, Vec::new()) {
            let b = b.unwrap();
            assert_eq!(b.records[0].at, 0);
            rows += b.records.len();
            batches += 1;
        }
        assert_eq!((rows, batches), (10, 10));

        let schema = Arc::new(Schema::new(vec![Field::new(
            "games",
            DataType::Int64,
            false,
        )]));
        let batch =
            RecordBatch::try_new(schema, vec![Arc::new(Int64Array::from(vec![1, 2]))]).unwrap();
        let refused = TableGames::open_bytes(parquet(&batch)).err().unwrap();
        assert!(
            refused
                .to_string()
                .contains("no `movetext` or `pgn` column"),
            "{refused}"
        );
        assert!(TableGames::open_bytes(bytes::Bytes::from_static(b"PAR1 not really")).is_err());
    }
}
