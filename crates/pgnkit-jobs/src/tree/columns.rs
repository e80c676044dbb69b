//! The tree's rows as a table: one row per (position, move), the same columns in CSV, JSON lines, Parquet
//! and Arrow ([`COLUMNS`]).

use std::fmt::Write as _;
use std::io::Write;
use std::sync::{Arc, OnceLock};

use arrow_array::builder::{
    Date32Builder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use serde::Serialize;

use super::tally::iso_date;
use super::{Row, Tree, TreeWritten};
use crate::options::Codec;
use crate::run::JobError;
use crate::stats::columnar::{ParquetFailure, writer_properties};
use crate::stats::dates::Day;
use pgnkit::notation::uci;
use pgnkit::notation::{CheckMark, Language, Leniencies, San, SanPlus};
use pgnkit::openings;

/// The columns, in order, with their Arrow types.
const COLUMNS: [(&str, DataType); 15] = [
    ("fen", DataType::Utf8),
    ("move_uci", DataType::Utf8),
    ("move_san", DataType::Utf8),
    ("games", DataType::Int64),
    ("white_wins", DataType::Int64),
    ("draws", DataType::Int64),
    ("black_wins", DataType::Int64),
    ("score", DataType::Float64),
    ("mover_elo", DataType::Int32),
    ("opponent_elo", DataType::Int32),
    ("performance", DataType::Int32),
    ("first_date", DataType::Date32),
    ("last_date", DataType::Date32),
    ("eco", DataType::Utf8),
    ("opening", DataType::Utf8),
];

/// Rows per record batch of the Parquet output.
const PARQUET_ROWS: usize = 8192;

/// A row's values, as the columns give them.
#[derive(Serialize)]
pub(crate) struct Values {
    pub(crate) fen: String,
    pub(crate) move_uci: String,
    pub(crate) move_san: String,
    pub(crate) games: u64,
    pub(crate) white_wins: u64,
    pub(crate) draws: u64,
    pub(crate) black_wins: u64,
    /// The side to move's score, rounded to four decimals (text outputs).
    pub(crate) score: Option<f64>,
    pub(crate) mover_elo: Option<u64>,
    pub(crate) opponent_elo: Option<u64>,
    pub(crate) performance: Option<i64>,
    pub(crate) first_date: Option<String>,
    pub(crate) last_date: Option<String>,
    pub(crate) eco: Option<&'static str>,
    pub(crate) opening: Option<&'static str>,
}

impl Values {
    pub(crate) fn of(row: &Row) -> Values {
        let t = &row.tally;
        let mut text = MoveText::default();
        let opening = text.fill(row);
        Values {
            fen: row.epd.to_string(),
            move_uci: text.uci,
            move_san: text.san,
            games: t.games,
            white_wins: t.white_wins,
            draws: t.draws,
            black_wins: t.black_wins,
            score: t
                .score(row.mover())
                .map(|s| (s * 10_000.0).round() / 10_000.0),
            mover_elo: t.mover_elo(),
            opponent_elo: t.opponent_elo(),
            performance: t.performance(),
            first_date: iso_date(t.first_date),
            last_date: iso_date(t.last_date),
            eco: opening.map(|o| o.eco),
            opening: opening.map(|o| o.name),
        }
    }
}

/// The move of a row as text (UCI, SAN with its check mark) and the opening it leads to, made into buffers
/// reused from row to row, the position after the move played once for both the check mark and the opening.
#[derive(Default)]
pub(crate) struct MoveText {
    pub(crate) uci: String,
    pub(crate) san: String,
}

impl MoveText {
    /// Fills the buffers for `row`; the opening of the position after the move.
    pub(crate) fn fill(&mut self, row: &Row) -> Option<&'static openings::Opening> {
        let after = row.position.after_unchecked(row.played);
        let san = SanPlus {
            san: San::from_move(&row.position, &row.played),
            mark: CheckMark::after(&after),
            annotation: None,
            leniencies: Leniencies::NONE,
        };
        self.uci.clear();
        self.san.clear();
        let u = uci::Uci::from_move(&row.position, &row.played);
        for square in [u.from, u.to] {
            self.uci.push(square.file().char());
            self.uci.push(square.rank().char());
        }
        if let Some(role) = u.promotion {
            self.uci.push(role.lower_char());
        }
        let _ = write!(self.san, "{}", san.display(Language::En));
        openings::table().get(&after)
    }
}

/// Counts rows and positions as they are written (rows of one position come together).
#[derive(Default)]
pub(crate) struct Counter {
    written: TreeWritten,
    last: Option<super::node::Node>,
}

impl Counter {
    pub(crate) fn count(&mut self, row: &Row) {
        self.written.rows += 1;
        if self.last != Some(row.node) {
            self.written.positions += 1;
            self.last = Some(row.node);
        }
    }

    pub(crate) fn written(&self) -> TreeWritten {
        self.written
    }
}

pub(crate) fn write_csv(tree: Tree, out: &mut dyn Write) -> Result<TreeWritten, JobError> {
    let mut csv = csv::Writer::from_writer(out);
    let header: Vec<&str> = COLUMNS.iter().map(|(name, _)| *name).collect();
    csv.write_record(&header).map_err(csv_error)?;
    let mut counter = Counter::default();
    // Numbers are written into this buffer, the move into `text`'s: a row allocates nothing.
    let mut number = [0u8; 20];
    let mut text = MoveText::default();
    for row in tree.rows() {
        let row = row?;
        counter.count(&row);
        let t = &row.tally;
        let opening = text.fill(&row);
        csv.write_field(row.epd.as_bytes()).map_err(csv_error)?;
        csv.write_field(text.uci.as_bytes()).map_err(csv_error)?;
        csv.write_field(text.san.as_bytes()).map_err(csv_error)?;
        for n in [t.games, t.white_wins, t.draws, t.black_wins] {
            csv.write_field(digits(n, &mut number)).map_err(csv_error)?;
        }
        let score = t
            .score(row.mover())
            .map_or(&[][..], |s| four_decimals(s, &mut number));
        csv.write_field(score).map_err(csv_error)?;
        for n in [t.mover_elo(), t.opponent_elo()] {
            let cell = n.map_or(&[][..], |n| digits(n, &mut number));
            csv.write_field(cell).map_err(csv_error)?;
        }
        let performance = t
            .performance()
            .map_or(&[][..], |p| signed_digits(p, &mut number));
        csv.write_field(performance).map_err(csv_error)?;
        for date in [t.first_date, t.last_date] {
            csv.write_field(iso_digits(date, &mut number))
                .map_err(csv_error)?;
        }
        csv.write_field(opening.map_or("", |o| o.eco))
            .map_err(csv_error)?;
        csv.write_field(opening.map_or("", |o| o.name))
            .map_err(csv_error)?;
        csv.write_record(None::<&[u8]>).map_err(csv_error)?;
    }
    csv.flush()?;
    Ok(counter.written())
}

/// The decimal digits of `n`, written at the end of `buf`.
fn digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[at..];
        }
    }
}

/// The decimal digits of `n` with its sign (a performance is below zero for a zero score against opponents
/// rated under 800).
fn signed_digits(n: i64, buf: &mut [u8; 20]) -> &[u8] {
    let len = digits(n.unsigned_abs(), buf).len();
    if n >= 0 {
        return &buf[buf.len() - len..];
    }
    let at = buf.len() - len - 1;
    buf[at] = b'-';
    &buf[at..]
}

/// A score from 0 to 1 rounded to four decimals, as `f64`'s shortest form writes it (`0.5`, `0.6667`, `1`).
fn four_decimals(score: f64, buf: &mut [u8; 20]) -> &[u8] {
    let k = (score.clamp(0.0, 1.0) * 10_000.0).round() as u32;
    match k {
        0 => b"0",
        10_000 => b"1",
        _ => {
            buf[..2].copy_from_slice(b"0.");
            let mut len = 2;
            for div in [1000, 100, 10, 1] {
                buf[len] = b'0' + (k / div % 10) as u8;
                len += 1;
            }
            while buf[len - 1] == b'0' {
                len -= 1;
            }
            &buf[..len]
        }
    }
}

/// A day kept as `YYYYMMDD` in ISO form (`2025-05-01`); empty for 0.
fn iso_digits(date: u32, buf: &mut [u8; 20]) -> &[u8] {
    if date == 0 {
        return b"";
    }
    let (year, month, day) = (date / 10_000, date / 100 % 100, date % 100);
    let parts = [(year, 4), (month, 2), (day, 2)];
    let mut len = 0;
    for (i, (value, width)) in parts.into_iter().enumerate() {
        if i > 0 {
            buf[len] = b'-';
            len += 1;
        }
        for k in (0..width).rev() {
            buf[len] = b'0' + (value / 10u32.pow(k) % 10) as u8;
            len += 1;
        }
    }
    &buf[..len]
}

fn csv_error(e: csv::Error) -> JobError {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => JobError::Output(e),
        other => JobError::Output(std::io::Error::other(format!("{other:?}"))),
    }
}

pub(crate) fn write_jsonl(tree: Tree, out: &mut dyn Write) -> Result<TreeWritten, JobError> {
    let mut counter = Counter::default();
    let mut line = Vec::with_capacity(512);
    for row in tree.rows() {
        let row = row?;
        counter.count(&row);
        line.clear();
        serde_json::to_writer(&mut line, &Values::of(&row))
            .map_err(|e| JobError::Output(e.into()))?;
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(counter.written())
}

pub(crate) fn schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let fields: Vec<Field> = COLUMNS
                .iter()
                .map(|(name, kind)| {
                    let required = matches!(
                        *name,
                        "fen"
                            | "move_uci"
                            | "move_san"
                            | "games"
                            | "white_wins"
                            | "draws"
                            | "black_wins"
                    );
                    Field::new(*name, kind.clone(), !required)
                })
                .collect();
            Arc::new(Schema::new(fields))
        })
        .clone()
}

/// Builds record batches of rows.
struct Columns {
    fen: StringBuilder,
    uci: StringBuilder,
    san: StringBuilder,
    counts: [Int64Builder; 4],
    score: Float64Builder,
    elo: [Int32Builder; 3],
    dates: [Date32Builder; 2],
    eco: StringBuilder,
    opening: StringBuilder,
    len: usize,
    text: MoveText,
}

impl Columns {
    fn new() -> Columns {
        Columns {
            fen: StringBuilder::new(),
            uci: StringBuilder::new(),
            san: StringBuilder::new(),
            counts: Default::default(),
            score: Float64Builder::new(),
            elo: Default::default(),
            dates: Default::default(),
            eco: StringBuilder::new(),
            opening: StringBuilder::new(),
            len: 0,
            text: MoveText::default(),
        }
    }

    fn push(&mut self, row: &Row) {
        let t = &row.tally;
        let opening = self.text.fill(row);
        self.fen.append_value(&*row.epd);
        self.uci.append_value(&self.text.uci);
        self.san.append_value(&self.text.san);
        for (b, n) in self
            .counts
            .iter_mut()
            .zip([t.games, t.white_wins, t.draws, t.black_wins])
        {
            b.append_value(n as i64);
        }
        // Unrounded in a typed column.
        self.score.append_option(t.score(row.mover()));
        self.elo[0].append_option(t.mover_elo().map(|e| e as i32));
        self.elo[1].append_option(t.opponent_elo().map(|e| e as i32));
        self.elo[2].append_option(t.performance().map(|e| e as i32));
        for (b, date) in self.dates.iter_mut().zip([t.first_date, t.last_date]) {
            let day = (date != 0)
                .then(|| {
                    Day::new(
                        (date / 10_000) as u16,
                        (date / 100 % 100) as u8,
                        (date % 100) as u8,
                    )
                })
                .flatten();
            b.append_option(day.map(Day::unix_days));
        }
        self.eco.append_option(opening.map(|o| o.eco));
        self.opening.append_option(opening.map(|o| o.name));
        self.len += 1;
    }

    fn finish(&mut self) -> Result<RecordBatch, JobError> {
        self.len = 0;
        let [games, white, draws, black] = &mut self.counts;
        let [mover, opponent, performance] = &mut self.elo;
        let [first, last] = &mut self.dates;
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(self.fen.finish()),
            Arc::new(self.uci.finish()),
            Arc::new(self.san.finish()),
            Arc::new(games.finish()),
            Arc::new(white.finish()),
            Arc::new(draws.finish()),
            Arc::new(black.finish()),
            Arc::new(self.score.finish()),
            Arc::new(mover.finish()),
            Arc::new(opponent.finish()),
            Arc::new(performance.finish()),
            Arc::new(first.finish()),
            Arc::new(last.finish()),
            Arc::new(self.eco.finish()),
            Arc::new(self.opening.finish()),
        ];
        RecordBatch::try_new(schema(), arrays).map_err(|e| parquet_error(e.into()))
    }
}

/// The rows as record batches of at most `rows` rows.
pub(crate) fn record_batches(
    tree: Tree,
    rows: usize,
) -> impl Iterator<Item = Result<RecordBatch, JobError>> {
    let mut source = tree.rows();
    let mut columns = Columns::new();
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        while columns.len < rows {
            match source.next() {
                Some(Ok(row)) => columns.push(&row),
                Some(Err(e)) => {
                    done = true;
                    return Some(Err(JobError::from(e)));
                }
                None => {
                    done = true;
                    break;
                }
            }
        }
        if columns.len == 0 && done {
            return None;
        }
        Some(columns.finish())
    })
}

pub(crate) fn write_parquet(tree: Tree, out: &mut dyn Write) -> Result<TreeWritten, JobError> {
    let schema = schema();
    let props = writer_properties(&schema, Codec::Zstd);
    // Encoded into memory and handed on after each batch: the output need not be `Send`, and what is held
    // stays one row group's worth.
    let mut writer =
        ArrowWriter::try_new(Vec::new(), schema, Some(props)).map_err(parquet_error)?;
    let mut counter = Counter::default();
    let mut columns = Columns::new();
    let mut rows = tree.rows();
    loop {
        let row = rows.next().transpose()?;
        if let Some(row) = &row {
            counter.count(row);
            columns.push(row);
        }
        if columns.len == PARQUET_ROWS || (row.is_none() && columns.len > 0) {
            let batch = columns.finish()?;
            writer.write(&batch).map_err(parquet_error)?;
            out.write_all(&std::mem::take(writer.inner_mut()))?;
        }
        if row.is_none() {
            break;
        }
    }
    let bytes = writer.into_inner().map_err(parquet_error)?;
    out.write_all(&bytes)?;
    Ok(counter.written())
}

fn parquet_error(e: parquet::errors::ParquetError) -> JobError {
    JobError::from(ParquetFailure::from(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_dates_are_written_as_their_display_forms() {
        let mut buf = [0u8; 20];
        for k in 0..=10_000u32 {
            let s = f64::from(k) / 10_000.0;
            let shown = ((s * 10_000.0).round() / 10_000.0).to_string();
            assert_eq!(four_decimals(s, &mut buf), shown.as_bytes(), "{k}");
        }
        assert_eq!(four_decimals(2.0 / 3.0, &mut buf), b"0.6667");
        for date in [20250501, 19991231, 10101, 0] {
            let shown = iso_date(date).unwrap_or_default();
            assert_eq!(iso_digits(date, &mut buf), shown.as_bytes());
        }
    }

    #[test]
    fn digits_are_those_of_display() {
        let mut buf = [0u8; 20];
        for n in [0, 7, 10, 99, 100, 2_147_483_648, u64::MAX] {
            assert_eq!(digits(n, &mut buf), n.to_string().as_bytes());
        }
        for n in [0, 2630, -799, i64::MIN + 1, i64::MIN] {
            assert_eq!(signed_digits(n, &mut buf), n.to_string().as_bytes());
        }
    }
}
