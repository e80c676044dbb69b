//! stats as a [`Job`] of the run: each batch's rows made on a worker (as text, Arrow arrays, or Parquet row
//! groups encoded there), then, in input order, the summary's records gathered; [`RowWriter`] writes the rows
//! out in the format asked. How big a batch is and where Parquet is encoded follow from the options and the
//! threads, here.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Mutex;

use pgnkit::pgn::GameReader;

use super::columnar::{self, Codec, Encoding, ParquetFailure, ParquetOut};
use super::spill::{CopyFailure, Spill, SpillError, Spilled};
use super::summary::{Limits, StatsSummary};
use super::{BatchError, BatchStats, Format, Output, Shapes, StatsOptions, run_batch, table};
use crate::run::reading::BATCH_SIZE;
use crate::run::{Input, Job, JobError, Threads};

/// Per-move rows are about 20 times the size of the moves they describe: smaller batches keep the output
/// waiting in memory small.
const PER_MOVE_BATCH: usize = BATCH_SIZE / 4;

/// Per-move rows to Parquet on several threads: each batch is a row group its worker encodes, and a row
/// group must be large (about 100,000 rows from a MiB of games) for the file's footer to stay small.
const PARQUET_MOVE_BATCH: usize = 1 << 19;

/// stats' job.
pub struct StatsJob {
    opts: StatsOptions,
    shapes: Shapes,
    codec: Codec,
    batch_bytes: usize,
    /// Output buffers the sink is done with, for the workers to fill again: a few, whatever the input size.
    buffers: Mutex<Vec<Vec<u8>>>,
}

impl StatsJob {
    /// stats with `opts` on `threads`, and the writer of its rows (Parquet compressed with `codec`). Per-move
    /// rows to Parquet are encoded by the workers when there are several, a row group a batch.
    pub fn new(
        opts: StatsOptions,
        codec: Codec,
        threads: Threads,
    ) -> Result<(StatsJob, RowWriter), JobError> {
        let encoding = match opts.output {
            Output::Moves if threads.get() > 1 => Encoding::InWorkers,
            _ => Encoding::OnOutput,
        };
        let mut shapes = Shapes::of(&opts);
        let parquet = match &shapes.schema {
            Some(schema) => Some(ParquetOut::new(schema, encoding, codec)?),
            None => None,
        };
        shapes.row_groups = parquet.as_ref().and_then(ParquetOut::factory);
        let batch_bytes = match opts.output {
            Output::Moves if shapes.row_groups.is_some() => PARQUET_MOVE_BATCH,
            Output::Moves => PER_MOVE_BATCH,
            _ => BATCH_SIZE,
        };
        let header = match (opts.format, opts.output) {
            (_, Output::StatsSummary) | (Format::Jsonl | Format::Parquet, _) => None,
            (Format::Csv, _) => {
                let mut header = Vec::new();
                table::csv_header(&mut header, &opts.columns());
                Some(header)
            }
        };
        let job = StatsJob {
            opts,
            shapes,
            codec,
            batch_bytes,
            buffers: Mutex::default(),
        };
        Ok((job, RowWriter { parquet, header }))
    }

    /// stats with `opts` for a caller that takes each batch's rows as Arrow arrays ([`BatchStats::table`]:
    /// the Python package); `opts.format` is [`Format::Parquet`], whose arrays they are. Nothing is encoded or
    /// spilled.
    pub fn arrow(opts: StatsOptions) -> StatsJob {
        let shapes = Shapes::of(&opts);
        let batch_bytes = match opts.output {
            Output::Moves => PER_MOVE_BATCH,
            _ => BATCH_SIZE,
        };
        StatsJob {
            opts,
            shapes,
            codec: Codec::default(),
            batch_bytes,
            buffers: Mutex::default(),
        }
    }

    /// Per-move rows past a batch's share of memory go to temporary files in `dir` (best beside the output:
    /// on the disk that is to hold them anyway). Other rows stay in memory.
    pub fn spill_into(&mut self, dir: PathBuf) {
        if self.opts.output == Output::Moves {
            let props = self
                .shapes
                .schema
                .as_ref()
                .map(|schema| columnar::writer_properties(schema, self.codec));
            self.shapes.spill = Some(Spill::new(dir, self.opts.format, props));
        }
    }
}

impl Job for StatsJob {
    type Batch = BatchStats;
    /// The summary's records (empty unless the summary is asked for) and the inputs read.
    type State = StatsSummary;

    fn initial_state(&self) -> StatsSummary {
        StatsSummary::new(Limits::default())
    }

    fn batch_bytes(&self) -> usize {
        self.batch_bytes
    }

    fn work(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Result<BatchStats, JobError> {
        let buf = self
            .buffers
            .lock()
            .ok()
            .and_then(|mut b| b.pop())
            .unwrap_or_default();
        Ok(run_batch(games, input.name, &self.opts, &self.shapes, buf)?)
    }

    fn begin_input(&self, summary: &mut StatsSummary, _input: Input<'_>) {
        summary.files += 1;
    }

    fn merge(&self, summary: &mut StatsSummary, _input: Input<'_>, batch: &mut BatchStats) {
        for record in batch.records.drain(..) {
            summary.add(record);
        }
    }

    fn recycle(&self, batch: BatchStats) {
        if let Ok(mut buffers) = self.buffers.lock() {
            buffers.push(batch.text);
        }
    }
}

/// Writes stats' rows out, in the run's format: the CSV header, then each batch's rows (those it spilled
/// first), then Parquet's footer.
pub struct RowWriter {
    parquet: Option<ParquetOut>,
    /// The CSV header, until written.
    header: Option<Vec<u8>>,
}

impl RowWriter {
    /// Writes what comes before the rows (CSV's header).
    pub fn start(&mut self, out: &mut impl Write) -> io::Result<()> {
        match self.header.take() {
            Some(header) => out.write_all(&header),
            None => Ok(()),
        }
    }

    /// Writes a batch's rows; a batch whose rows could not be made ends the run.
    pub fn write(&mut self, batch: &mut BatchStats, out: &mut impl Write) -> Result<(), JobError> {
        // Rows a batch spilled came before the rows it kept.
        match batch.spilled.take() {
            Some(Spilled::Text(rows)) => {
                rows.copy_to(out)?;
            }
            Some(Spilled::Parquet(rows)) => match self.parquet.as_mut() {
                Some(writer) => writer.append_spilled(rows, out)?,
                // Arrow rows are made for Parquet output only.
                None => {
                    return Err(JobError::from(BatchError::Spill(SpillError::reading(
                        io::Error::other("Parquet rows spilled for a text output"),
                    ))));
                }
            },
            None => {}
        }
        if !batch.text.is_empty() {
            out.write_all(&batch.text)?;
        }
        if let Some(writer) = self.parquet.as_mut() {
            if let Some(table) = &batch.table {
                writer.write(table, out)?;
            }
            if let Some(groups) = batch.row_groups.take() {
                writer.append(groups, out)?;
            }
        }
        Ok(())
    }

    /// Writes what comes after the rows (Parquet's last row group and footer).
    pub fn finish(self, out: &mut impl Write) -> Result<(), JobError> {
        match self.parquet {
            Some(writer) => Ok(writer.finish(out)?),
            None => Ok(()),
        }
    }
}

impl From<ParquetFailure> for JobError {
    fn from(e: ParquetFailure) -> Self {
        match e {
            ParquetFailure::Write(e) => JobError::Output(e),
            ParquetFailure::Encode(e) => JobError::from(BatchError::Encode(e)),
            ParquetFailure::Spill(e) => JobError::from(BatchError::Spill(e)),
        }
    }
}

impl From<CopyFailure> for JobError {
    fn from(e: CopyFailure) -> Self {
        match e {
            CopyFailure::Write(e) => JobError::Output(e),
            CopyFailure::Spill(e) => JobError::from(BatchError::Spill(e)),
        }
    }
}
