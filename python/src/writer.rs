//! `StatsWriter`: stats' rows of texts written as one Parquet file by the command's own writer (same
//! columns, encodings, compression and row groups as `pgnkit stats -o x.parquet`), for a Spark task to write
//! its input's rows itself and hand Spark only a count. The file's bytes are given back as they are made
//! (`take`), for Python to put wherever the output goes (a local disk, HDFS, object storage).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use pgnkit_jobs::options::Codec;
use pgnkit_jobs::run::{self, Input, JobError, ReadError, Sink, Source, Sources, Threads};
use pgnkit_jobs::stats::summary::StatsSummary;
use pgnkit_jobs::stats::{BatchStats, RowWriter, StatsJob};

use crate::texts::{Column, record_sources};
use crate::{Failure, option, stats_options};

/// The month of each game, `YYYY-MM`, or `None` when its date does not tell it: from the `year` and `month`
/// columns (set when the PGN date gives them, `2025.05.??` included). The one place that knows how a row's
/// month is held.
fn months(table: &RecordBatch) -> Vec<Option<String>> {
    let part = |name: &str| {
        table
            .column_by_name(name)
            .filter(|c| *c.data_type() == DataType::Int32)
            .map(|c| c.as_primitive::<Int32Type>().clone())
    };
    let (Some(years), Some(months)) = (part("year"), part("month")) else {
        return vec![None; table.num_rows()];
    };
    years
        .iter()
        .zip(months.iter())
        .map(|(y, m)| Some(format!("{:04}-{:02}", y?, m?)))
        .collect()
}

/// Games and main-line half-moves.
#[derive(Clone, Copy, Default)]
struct Count {
    games: u64,
    plies: u64,
}

/// The writer's sink: each batch's rows to the Parquet writer, counted.
struct Written<'w> {
    rows: &'w mut RowWriter,
    out: &'w mut Vec<u8>,
    total: &'w mut Count,
    games_with_errors: &'w mut u64,
    by_month: Option<&'w mut BTreeMap<Option<String>, Count>>,
}

impl Sink<StatsJob> for Written<'_> {
    fn batch(
        &mut self,
        _: Input<'_>,
        batch: &mut BatchStats,
        _: &StatsSummary,
    ) -> Result<(), JobError> {
        self.total.games += batch.games;
        self.total.plies += batch.plies;
        *self.games_with_errors += batch.games_with_errors;
        if let (Some(by_month), Some(table)) = (self.by_month.as_deref_mut(), &batch.table) {
            let plies = table
                .column_by_name("plies")
                .filter(|p| *p.data_type() == DataType::Int32)
                .map(|p| p.as_primitive::<Int32Type>().clone());
            for (row, month) in months(table).into_iter().enumerate() {
                let count = by_month.entry(month).or_default();
                count.games += 1;
                if let Some(plies) = &plies {
                    count.plies += u64::try_from(plies.value(row)).unwrap_or(0);
                }
            }
        }
        self.rows.write(batch, self.out)
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        Err(JobError::Input(error))
    }
}

/// stats' rows of the texts it is given, as one Parquet file (see the module's documentation).
#[pyclass(module = "pgnkit._native")]
pub(crate) struct StatsWriter {
    job: StatsJob,
    /// `None` once finished. In a mutex for Python, which may share the object between threads: the
    /// Parquet writer is not `Sync` (a method takes `&mut self`, which gets the writer without locking).
    rows: Mutex<Option<RowWriter>>,
    /// The file's bytes made and not yet taken.
    out: Vec<u8>,
    threads: Threads,
    total: Count,
    games_with_errors: u64,
    /// Per-game rows' games and half-moves by month; `None` for per-move rows.
    by_month: Option<BTreeMap<Option<String>, Count>>,
}

impl StatsWriter {
    fn write_sources(&mut self, py: Python<'_>, sources: Sources) -> Result<(), Failure> {
        let Some(rows) = self
            .rows
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        else {
            return Err(Failure::usage("the writer is finished"));
        };
        let (job, threads) = (&self.job, self.threads);
        let mut sink = Written {
            rows,
            out: &mut self.out,
            total: &mut self.total,
            games_with_errors: &mut self.games_with_errors,
            by_month: self.by_month.as_mut(),
        };
        py.detach(|| run::run(&sources, threads, job, &mut sink))?;
        Ok(())
    }
}

#[pymethods]
impl StatsWriter {
    #[new]
    #[pyo3(signature = (*, tags=None, per_move=false, compression="zstd", jobs=None))]
    fn new(
        tags: Option<Vec<String>>,
        per_move: bool,
        compression: &str,
        jobs: Option<usize>,
    ) -> PyResult<Self> {
        let opts = stats_options(tags, per_move)?;
        let codec = option::<Codec>("compression", compression)?;
        let (threads, _) = Threads::asked(jobs);
        let (job, mut rows) =
            StatsJob::new(opts, codec, threads, std::env::temp_dir()).map_err(Failure::from)?;
        let mut out = Vec::new();
        rows.start(&mut out)
            .map_err(|e| Failure::from(JobError::Output(e)))?;
        Ok(StatsWriter {
            job,
            rows: Mutex::new(Some(rows)),
            out,
            threads,
            total: Count::default(),
            games_with_errors: 0,
            by_month: (!per_move).then(BTreeMap::new),
        })
    }

    /// Writes the rows of each text of `texts` (a column, as its chunks, of whole files' contents, gzip and
    /// zstd decompressed) named `names` in the `file` column; nulls are no texts.
    fn write_texts(
        &mut self,
        py: Python<'_>,
        texts: Vec<Column>,
        names: Vec<String>,
    ) -> PyResult<()> {
        let values: Vec<Option<&[u8]>> = texts.iter().flat_map(Column::values).collect();
        if values.len() != names.len() {
            return Err(Failure::usage("as many names as texts").into());
        }
        let mut list = Vec::with_capacity(values.len());
        for (value, name) in values.into_iter().zip(names) {
            let Some(value) = value else { continue };
            list.push(Source::Text {
                name,
                text: Arc::from(value),
            });
        }
        Ok(self.write_sources(py, Sources::new(list))?)
    }

    /// Writes the rows of the files `paths`, read as the command reads them (gzip and zstd decompressed as
    /// they are read), named by their paths in the `file` column.
    fn write_paths(&mut self, py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<()> {
        let list = paths.into_iter().map(Source::File).collect();
        Ok(self.write_sources(py, Sources::new(list))?)
    }

    /// Writes the rows of the games of `records`, a column (as its chunks) of records as Spark's text source
    /// cuts files at each `\n[Event ` ([`record_sources`]).
    fn write_records(&mut self, py: Python<'_>, records: Vec<Column>, name: &str) -> PyResult<()> {
        Ok(self.write_sources(py, record_sources(&records, name))?)
    }

    /// The bytes of the file made since the last call.
    fn take<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = PyBytes::new(py, &self.out);
        self.out.clear();
        bytes
    }

    /// Ends the file: its last bytes (the last row group, the footer), with any not yet taken.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let Some(rows) = self
            .rows
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        else {
            return Err(Failure::usage("the writer is finished").into());
        };
        let out = &mut self.out;
        py.detach(|| rows.finish(out)).map_err(Failure::from)?;
        Ok(self.take(py))
    }

    /// Games written.
    #[getter]
    fn games(&self) -> u64 {
        self.total.games
    }

    /// Main-line half-moves replayed.
    #[getter]
    fn plies(&self) -> u64 {
        self.total.plies
    }

    /// Games with errors (as the command's closing line counts them).
    #[getter]
    fn games_with_errors(&self) -> u64 {
        self.games_with_errors
    }

    /// Games and half-moves by month (`YYYY-MM`, `None` when the date does not tell it), in order; empty for
    /// per-move rows.
    fn months(&self) -> Vec<(Option<String>, u64, u64)> {
        self.by_month
            .iter()
            .flatten()
            .map(|(month, count)| (month.clone(), count.games, count.plies))
            .collect()
    }
}
