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
use super::{
    BatchError, BatchStats, Format, Output, Shapes, StatsOptions, run_batch, run_parts, table,
};
use crate::run::reading::BATCH_SIZE;
use crate::run::{Input, Job, JobError, JoinedInputs, Parts, Threads};

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
    /// rows to Parquet are encoded by the workers when there are several, a row group a batch. Per-move rows
    /// past a batch's share of memory go to temporary files in `spill` (best beside the output: on the disk
    /// that is to hold them anyway); other rows stay in memory.
    pub fn new(
        opts: StatsOptions,
        codec: Codec,
        threads: Threads,
        spill: PathBuf,
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
        let mut job = StatsJob {
            opts,
            shapes,
            codec,
            batch_bytes,
            buffers: Mutex::default(),
        };
        job.spill_into(spill);
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

    /// Per-move rows past a batch's share of memory go to temporary files in `dir`.
    fn spill_into(&mut self, dir: PathBuf) {
        if self.opts.output == Output::Moves {
            let props = self
                .shapes
                .schema
                .as_ref()
                .map(|schema| columnar::writer_properties(schema, self.codec));
            self.shapes.spill = Some(Spill::new(dir, self.opts.format, props));
        }
    }

    /// An output buffer the sink is done with, or a new one.
    fn buffer(&self) -> Vec<u8> {
        self.buffers
            .lock()
            .ok()
            .and_then(|mut b| b.pop())
            .unwrap_or_default()
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
        Ok(run_batch(
            games,
            input.name,
            &self.opts,
            &self.shapes,
            self.buffer(),
        )?)
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

    fn joined_inputs(&self) -> Option<&dyn JoinedInputs<Batch = BatchStats>> {
        Some(self)
    }
}

/// Every row names its input and numbers its game within it, so the rows of many small texts (a column of
/// one-game texts) share a batch: one record batch for them all.
impl JoinedInputs for StatsJob {
    type Batch = BatchStats;

    fn work_parts(&self, parts: Parts<'_>) -> Result<BatchStats, JobError> {
        Ok(run_parts(parts, &self.opts, &self.shapes, self.buffer())?)
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::RecordBatch;

    use super::*;
    use crate::run::{ReadError, Sink, Source, Sources, run};

    /// Games unlike each other: clocks, castling and a promotion, a start position, a move that does not
    /// replay, a result marker only.
    const GAMES: [&str; 5] = [
        "[Event \"A\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:00] } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
        "[Event \"B\"]\n[SetUp \"1\"]\n[FEN \"8/P7/8/8/8/8/k6K/8 w - - 0 60\"]\n\n60. a8=Q+ Kb1 61. Qb7+ *\n",
        "[Event \"C\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 1/2-1/2\n",
        "[Event \"D\"]\n\n1. e4 e5 2. Ke3 *\n",
        "1-0\n",
    ];

    /// Texts of one game each and of several, an empty one, one after a BOM, one named with a comma.
    fn texts() -> Vec<(String, Vec<u8>)> {
        let mut texts: Vec<(String, Vec<u8>)> = (0..40)
            .map(|i| (i.to_string(), GAMES[i % GAMES.len()].as_bytes().to_vec()))
            .collect();
        texts.push(("all".into(), GAMES.join("\n").into_bytes()));
        texts.push(("empty".into(), Vec::new()));
        texts.push((
            "bom".into(),
            [&b"\xef\xbb\xbf"[..], GAMES[2].as_bytes()].concat(),
        ));
        texts.push(("a, \"quoted\" name".into(), GAMES[0].as_bytes().to_vec()));
        texts.push(("last".into(), GAMES[1].as_bytes().to_vec()));
        texts
    }

    struct Tables(Vec<RecordBatch>);

    impl Sink<StatsJob> for Tables {
        fn batch(
            &mut self,
            _: Input<'_>,
            batch: &mut BatchStats,
            _: &super::super::summary::StatsSummary,
        ) -> Result<(), JobError> {
            self.0.extend(batch.table.take());
            Ok(())
        }

        fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
            panic!("{error}")
        }
    }

    /// The rows of small texts taken together by the run are those of each text read alone, as Python's
    /// stats of texts made them before it went through the run (one table per text, joined).
    #[test]
    fn the_rows_of_texts_taken_together_are_those_of_each_text_alone() {
        let texts = texts();
        let sources = Sources::new(
            texts
                .iter()
                .map(|(name, text)| Source::Text {
                    name: name.clone(),
                    text: Arc::from(&text[..]),
                })
                .collect(),
        );
        for output in [Output::Games, Output::Moves] {
            let opts = StatsOptions {
                lang: None,
                output,
                format: Format::Parquet,
                tags: match output {
                    Output::Games => vec!["SetUp".into()],
                    _ => Vec::new(),
                },
                keep: Vec::new(),
            };
            let shapes = Shapes::of(&opts);
            let schema = shapes.schema.clone().unwrap();
            let alone: Vec<RecordBatch> = texts
                .iter()
                .filter_map(|(name, text)| {
                    let mut games = GameReader::new(text);
                    run_batch(&mut games, name, &opts, &shapes, Vec::new())
                        .unwrap()
                        .table
                })
                .collect();
            let alone = arrow_select::concat::concat_batches(&schema, &alone).unwrap();
            assert!(alone.num_rows() > 40, "{output:?}");
            for threads in [1, 2] {
                let threads = Threads::asked(Some(threads)).0;
                let mut tables = Tables(Vec::new());
                run(
                    &sources,
                    threads,
                    &StatsJob::arrow(opts.clone()),
                    &mut tables,
                )
                .unwrap();
                // Far fewer record batches than texts, none empty.
                assert!(tables.0.len() < 5, "{output:?}: {} tables", tables.0.len());
                assert!(tables.0.iter().all(|t| t.num_rows() > 0));
                let together = arrow_select::concat::concat_batches(&schema, &tables.0).unwrap();
                assert_eq!(together, alone, "{output:?} on {threads:?}");
            }
        }
    }
}
