//! `pgnkit._native`, the extension module of the Python package: the jobs of the `pgnkit` command
//! (`pgnkit-jobs`) run by the same run layer (`pgnkit_jobs::run`) with the same options, so Python gets the
//! command's answers; only the sinks are Python's (they collect record batches, records, texts).
//! `pgnkit/__init__.py` wraps it: it turns the sources Python users have (paths, bytes, lists of texts, Arrow
//! string arrays) into the two kinds this module takes, and the record batches into a `pyarrow.Table`. Records
//! (validate's, and read_games' that add the tags and the moves that replayed) come back as JSON texts, one per
//! game, never joined into lines: a tag may hold any line break. repair's report comes back as its lines (the
//! job writes them with every line break in a string escaped), its games as one text.
//!
//! The GIL is released while Rust works, on `jobs` threads (at most one per core).

use std::io;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_pyarrow::ToPyArrow;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use pgnkit::notation::Language;
use pgnkit::pgn::GameReader;
use pgnkit_jobs::messages::Locale;
use pgnkit_jobs::options::{Format, Lang, Letters, Messages, Notation, OutputFormat, UsageError};
use pgnkit_jobs::repair::{RepairBatch, RepairJob, RepairOptions};
use pgnkit_jobs::run::{
    self, Input, InputError, Job, JobError, JoinedInputs, Parts, ReadError, Sink, Source, Sources,
    Threads,
};
use pgnkit_jobs::stats::{Output, StatsJob, StatsOptions, check_tags};
use pgnkit_jobs::validate::{
    GameRead, MAX_TRACKED_GAMES, ReadGamesJob, ValidateJob, ValidateOptions, ValidatedBatch,
};
use serde::Serialize;

mod texts;
mod writer;

use texts::{Column, record_sources};

/// Why a call failed, raised as one of the exceptions of `pgnkit/exceptions.py` (all `PgnkitError`s). Made
/// where the work runs, without the GIL; turned into the exception once it is held again.
enum Failure {
    /// An option value the command would refuse: `UsageError`, a `ValueError`.
    Usage(String),
    /// Reading `path` (a source, or what the run needs of the system when `None`) failed: `InputError`, an
    /// `OSError` of the error's kind with the path.
    Io {
        path: Option<String>,
        error: io::Error,
    },
    /// Rows or text that cannot be handed to Python: `EncodeError`, a `ValueError`.
    Encode(String),
}

impl Failure {
    fn usage(message: impl Into<String>) -> Failure {
        Failure::Usage(message.into())
    }

    /// `path` could not be read, for a reason the system gave no error for (`message` says it; a path at its
    /// start is dropped, the exception has it apart).
    fn unreadable(path: &str, message: &str) -> Failure {
        let message = message
            .strip_prefix(path)
            .and_then(|m| m.strip_prefix(": "))
            .unwrap_or(message);
        Failure::Io {
            path: Some(path.to_owned()),
            error: io::Error::other(message.to_owned()),
        }
    }
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Failure {
        match e {
            InputError::NotFound(path) => Failure::Io {
                path: Some(path.display().to_string()),
                error: io::ErrorKind::NotFound.into(),
            },
            InputError::Io { path, error } => Failure::Io {
                path: Some(path),
                error,
            },
            InputError::EmptyDirectory(ref path) => {
                Failure::unreadable(&path.display().to_string(), &e.to_string())
            }
            InputError::Table { ref path, .. } | InputError::NotParquet(ref path) => {
                Failure::unreadable(path, &e.to_string())
            }
        }
    }
}

impl From<ReadError> for Failure {
    fn from(e: ReadError) -> Failure {
        match e {
            ReadError::Open(e) => Failure::from(e),
            ReadError::Read { path, source } => Failure::Io {
                path: Some(path),
                error: source,
            },
            ReadError::GameTooLarge { path, game } => Failure::Io {
                path: Some(path),
                error: io::Error::other(game.to_string()),
            },
        }
    }
}

impl From<JobError> for Failure {
    fn from(e: JobError) -> Failure {
        match e {
            JobError::Input(e) => Failure::from(e),
            // What the run needs of the system: its threads, a temporary file.
            JobError::Output(error) => Failure::Io { path: None, error },
            JobError::Encode(reason) => Failure::Encode(reason.to_string()),
            JobError::Usage(usage) => Failure::Usage(usage.to_string()),
        }
    }
}

/// The builtin `OSError` subclass Python gives an error of this kind (the system's number, when there is one,
/// decides instead).
fn os_error_kind(kind: io::ErrorKind) -> &'static str {
    match kind {
        io::ErrorKind::NotFound => "FileNotFoundError",
        io::ErrorKind::PermissionDenied => "PermissionError",
        io::ErrorKind::IsADirectory => "IsADirectoryError",
        io::ErrorKind::NotADirectory => "NotADirectoryError",
        io::ErrorKind::Interrupted => "InterruptedError",
        io::ErrorKind::TimedOut => "TimeoutError",
        _ => "OSError",
    }
}

impl Failure {
    fn into_exception(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        let exceptions = py.import("pgnkit.exceptions")?;
        match self {
            Failure::Usage(message) => exceptions.getattr("UsageError")?.call1((message,)),
            Failure::Encode(message) => exceptions.getattr("EncodeError")?.call1((message,)),
            Failure::Io { path, error } => exceptions.getattr("_input_error")?.call1((
                os_error_kind(error.kind()),
                error.raw_os_error(),
                error.to_string(),
                path,
            )),
        }
    }
}

impl From<Failure> for PyErr {
    fn from(failure: Failure) -> PyErr {
        Python::attach(|py| match failure.into_exception(py) {
            Ok(exception) => PyErr::from_value(exception),
            Err(e) => e,
        })
    }
}

/// An option's value read by the type the command reads it with (its `FromStr`), refused as `name: why`.
fn option<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, Failure>
where
    T::Err: std::fmt::Display,
{
    value
        .parse()
        .map_err(|e| Failure::usage(format!("{name}: {e}")))
}

/// The piece letters moves are read with (`auto` or a language), as `--lang` reads them.
fn language(code: &str) -> Result<Option<Language>, Failure> {
    code.parse::<Lang>()
        .map(|lang| lang.0)
        .map_err(|e| Failure::usage(e.to_string()))
}

/// The sources of `paths` (directories searched for .pgn, .pgn.gz, .pgn.zst, as the command does); what a
/// directory search would leave out is an error here (Python has no warnings to say it with).
fn path_sources(paths: &[PathBuf]) -> Result<Sources, Failure> {
    let sources = Sources::expand(paths)?;
    if let Some(skipped) = sources.skipped().first() {
        let path = skipped.path.display().to_string();
        return Err(Failure::unreadable(&path, &skipped.to_string()));
    }
    Ok(sources)
}

/// Texts held in memory as the sources of a run, each shown by its name; gzip and zstd texts (a compressed
/// file's bytes) are decompressed by the run, as the command reads such files. Each plain text is copied once, from Python's
/// bytes (a `Vec<u8>` taken from Python and then made an `Arc<[u8]>` would be two copies).
fn text_sources(texts: Vec<Bound<'_, PyBytes>>, names: Vec<String>) -> Result<Sources, Failure> {
    if texts.len() != names.len() {
        return Err(Failure::usage("as many names as texts"));
    }
    let mut list = Vec::with_capacity(texts.len());
    for (text, name) in texts.iter().zip(names) {
        // Compressed texts are decompressed by the run, as files are.
        list.push(Source::Text {
            name,
            text: Arc::from(text.as_bytes()),
        });
    }
    Ok(Sources::new(list))
}

/// The sources a function that takes paths or texts reads: the texts, named by their index, when given.
fn sources_of(
    paths: Option<Vec<PathBuf>>,
    texts: Option<Vec<Bound<'_, PyBytes>>>,
) -> Result<Sources, Failure> {
    match texts {
        Some(texts) => {
            let names = (0..texts.len()).map(|i| i.to_string()).collect();
            text_sources(texts, names)
        }
        None => path_sources(&paths.unwrap_or_default()),
    }
}

/// Python's sink: each merged batch handed to `take`, which keeps what Python gets of it. The first read
/// error ends the run: Python has no partial success (the command goes on with the other inputs and exits
/// with 2).
struct Collect<F> {
    take: F,
    /// Why `take` stopped the run.
    failure: Option<Failure>,
}

impl<J: Job, F> Sink<J> for Collect<F>
where
    F: FnMut(&mut J::Batch) -> Result<(), Failure>,
{
    fn batch(&mut self, _: Input<'_>, batch: &mut J::Batch, _: &J::State) -> Result<(), JobError> {
        (self.take)(batch).map_err(|failure| {
            self.failure = Some(failure);
            // Only stops the run: the failure above is what is raised.
            JobError::Output(io::Error::other("stopped by the sink"))
        })
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        Err(JobError::Input(error))
    }
}

/// Runs `job` over `sources` on `jobs` threads (none or 0: all cores; at most one per core) without the GIL,
/// `take` receiving each merged batch in input order.
fn run_job<J, F>(
    py: Python<'_>,
    sources: &Sources,
    jobs: Option<usize>,
    job: &J,
    take: F,
) -> Result<(), Failure>
where
    J: Job,
    F: FnMut(&mut J::Batch) -> Result<(), Failure> + Send,
{
    let (threads, _) = Threads::asked(jobs);
    py.detach(|| {
        let mut sink = Collect {
            take,
            failure: None,
        };
        match run::run(sources, threads, job, &mut sink) {
            Ok(_) => Ok(()),
            Err(e) => Err(sink.failure.take().unwrap_or_else(|| e.into())),
        }
    })
}

/// What Python gets of a run, made batch by batch in input order: records (as JSON text), or repair's games
/// and report.
trait Collected: Default + Send {
    /// `more`, made of the batches after these, put after them.
    fn append(&mut self, more: Self);
}

impl Collected for Vec<String> {
    fn append(&mut self, mut more: Vec<String>) {
        Vec::append(self, &mut more);
    }
}

/// A job over texts each checked alone: texts given as a list are independent of each other (a column of
/// games, one per row, is no tournament), each checked across its own games. A text small enough to be read
/// whole is reported, checked and turned into what Python gets (`finish`: its games' records) on the worker
/// that reads it, several texts to a batch (the run takes them as parts of one stream), so that a column of
/// one-game texts costs its games; a larger text is read in batches, checked in input order, and finished by
/// the sink.
struct EachTextAlone<'j, J, F, R> {
    job: &'j J,
    finish: F,
    collected: PhantomData<fn() -> R>,
}

/// A batch of [`EachTextAlone`].
enum AloneBatch<B, R> {
    /// A batch of a larger text, to be checked in input order and finished.
    Open(B),
    /// What Python gets of small texts, each checked alone, or why it could not be made.
    Finished(Result<R, Failure>),
}

impl<J, F, R> Job for EachTextAlone<'_, J, F, R>
where
    J: Job,
    F: Fn(&J::Batch, &mut R) -> Result<(), Failure> + Sync,
    R: Collected,
{
    type Batch = AloneBatch<J::Batch, R>;
    type State = J::State;

    fn initial_state(&self) -> J::State {
        self.job.initial_state()
    }

    fn batch_bytes(&self) -> usize {
        self.job.batch_bytes()
    }

    fn work(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Result<Self::Batch, JobError> {
        self.job.work(input, games).map(AloneBatch::Open)
    }

    fn merge(&self, state: &mut J::State, input: Input<'_>, batch: &mut Self::Batch) {
        if let AloneBatch::Open(batch) = batch {
            self.job.merge(state, input, batch);
        }
    }

    fn begin_input(&self, state: &mut J::State, input: Input<'_>) {
        *state = self.job.initial_state();
        self.job.begin_input(state, input);
    }

    fn recycle(&self, batch: Self::Batch) {
        if let AloneBatch::Open(batch) = batch {
            self.job.recycle(batch);
        }
    }

    fn joined_inputs(&self) -> Option<&dyn JoinedInputs<Batch = Self::Batch>> {
        Some(self)
    }
}

impl<J, F, R> JoinedInputs for EachTextAlone<'_, J, F, R>
where
    J: Job,
    F: Fn(&J::Batch, &mut R) -> Result<(), Failure> + Sync,
    R: Collected,
{
    type Batch = AloneBatch<J::Batch, R>;

    fn work_parts(&self, parts: Parts<'_>) -> Result<Self::Batch, JobError> {
        let mut collected = R::default();
        for (input, mut games) in parts {
            let mut batch = self.job.work(input, &mut games)?;
            let mut state = self.job.initial_state();
            self.job.begin_input(&mut state, input);
            self.job.merge(&mut state, input, &mut batch);
            // The batch is dropped here, on the thread that made it (what `recycle` arranges for the sink).
            if let Err(failure) = (self.finish)(&batch, &mut collected) {
                return Ok(AloneBatch::Finished(Err(failure)));
            }
        }
        Ok(AloneBatch::Finished(Ok(collected)))
    }
}

/// What `finish` makes of each batch of `job` over `sources`, in input order: texts each checked alone, or
/// paths whose games are all checked against each other as the command checks them.
fn run_records<J, F, R>(
    py: Python<'_>,
    sources: &Sources,
    texts: bool,
    jobs: Option<usize>,
    job: &J,
    finish: F,
) -> Result<R, Failure>
where
    J: Job,
    F: Fn(&J::Batch, &mut R) -> Result<(), Failure> + Sync,
    R: Collected,
{
    let mut collected = R::default();
    if texts {
        let alone = EachTextAlone {
            job,
            finish: &finish,
            collected: PhantomData,
        };
        run_job(py, sources, jobs, &alone, |batch| match batch {
            AloneBatch::Open(batch) => finish(batch, &mut collected),
            AloneBatch::Finished(done) => {
                collected.append(std::mem::replace(done, Ok(R::default()))?);
                Ok(())
            }
        })?;
    } else {
        run_job(py, sources, jobs, job, |batch| {
            finish(batch, &mut collected)
        })?;
    }
    Ok(collected)
}

fn stats_options(tags: Option<Vec<String>>, per_move: bool) -> Result<StatsOptions, Failure> {
    let tags = tags.unwrap_or_default();
    if per_move && !tags.is_empty() {
        return Err(Failure::usage(
            "tags are columns of the per-game rows: not with per_move=True",
        ));
    }
    check_tags(&tags).map_err(|refused| match refused {
        UsageError::Tags(why) => Failure::usage(format!("tags: {why}")),
        refused => Failure::usage(refused.to_string()),
    })?;
    Ok(StatsOptions {
        lang: None,
        output: if per_move {
            Output::Moves
        } else {
            Output::Games
        },
        format: Format::Parquet,
        tags,
        keep: Vec::new(),
    })
}

/// The arrow schema of `stats`' rows.
#[pyfunction]
#[pyo3(signature = (*, tags=None, per_move=false))]
fn stats_schema(py: Python<'_>, tags: Option<Vec<String>>, per_move: bool) -> PyResult<Py<PyAny>> {
    let opts = stats_options(tags, per_move)?;
    Ok(opts.arrow_schema().as_ref().to_pyarrow(py)?.unbind())
}

/// stats' rows of `sources` as Arrow record batches, in input order.
fn stats_of(
    py: Python<'_>,
    sources: &Sources,
    tags: Option<Vec<String>>,
    per_move: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    let job = StatsJob::arrow(stats_options(tags, per_move)?);
    let mut tables: Vec<RecordBatch> = Vec::new();
    run_job(py, sources, jobs, &job, |batch| {
        tables.extend(batch.table.take());
        Ok(())
    })?;
    to_python(py, tables)
}

fn to_python(py: Python<'_>, batches: Vec<RecordBatch>) -> PyResult<Vec<Py<PyAny>>> {
    batches
        .iter()
        .map(|b| b.to_pyarrow(py).map(Bound::unbind))
        .collect()
}

/// Rows of PGN texts held in memory, each one or more games, named `names` in the `file` column. The texts
/// share record batches (stats' job takes its inputs as parts of one stream): a record batch per text would
/// cost more than its game for a column of one-game texts, as Spark's `mapInArrow` hands them.
#[pyfunction]
#[pyo3(signature = (texts, names, *, tags=None, per_move=false, jobs=None))]
fn stats_texts(
    py: Python<'_>,
    texts: Vec<Bound<'_, PyBytes>>,
    names: Vec<String>,
    tags: Option<Vec<String>>,
    per_move: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    let sources = text_sources(texts, names)?;
    stats_of(py, &sources, tags, per_move, jobs)
}

/// Rows of the games of Spark's text records (a column of strings or bytes, as its chunks): the files Spark's
/// text source cut at each `\n[Event ` put back together, so that the games are read from the files' bytes
/// (`texts::rejoin`).
#[pyfunction]
#[pyo3(signature = (records, name, *, tags=None, per_move=false, jobs=None))]
fn stats_records(
    py: Python<'_>,
    records: Vec<Column>,
    name: &str,
    tags: Option<Vec<String>>,
    per_move: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    let sources = record_sources(&records, name);
    stats_of(py, &sources, tags, per_move, jobs)
}

/// Rows of a column of PGN texts (strings or bytes, as its chunks), each one or more games (a null is an empty
/// text), named by their index in the `file` column: the Arrow column read where it lies, with no Python
/// object made of a text.
#[pyfunction]
#[pyo3(signature = (texts, *, tags=None, per_move=false, jobs=None))]
fn stats_column(
    py: Python<'_>,
    texts: Vec<Column>,
    tags: Option<Vec<String>>,
    per_move: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    let mut list = Vec::new();
    for (i, text) in texts.iter().flat_map(Column::values).enumerate() {
        let name = i.to_string();
        list.push(Source::Text {
            name,
            text: Arc::from(text.unwrap_or_default()),
        });
    }
    stats_of(py, &Sources::new(list), tags, per_move, jobs)
}

/// Rows of PGN files (and directories), read on all cores in input order.
#[pyfunction]
#[pyo3(signature = (paths, *, tags=None, per_move=false, jobs=None))]
fn stats_paths(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    tags: Option<Vec<String>>,
    per_move: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    let sources = path_sources(&paths)?;
    stats_of(py, &sources, tags, per_move, jobs)
}

fn validate_options(lang: &str, strict: bool) -> Result<ValidateOptions, Failure> {
    // `validate --format json`'s options.
    Ok(ValidateOptions {
        lang: language(lang)?,
        finished: false,
        tag_checks: true,
        track_claims: true,
        final_fen: true,
        strict,
        report_tags: true,
        messages: Locale::En,
        unplayed: Default::default(),
    })
}

/// A record as JSON text.
fn json(record: &impl Serialize) -> Result<String, Failure> {
    serde_json::to_string(record).map_err(|e| Failure::Encode(e.to_string()))
}

/// `validate --format json`'s records (as JSON text) of `sources`. The checks across games follow every game:
/// the records are all returned, each far larger than the 40 bytes a tracked game costs, so the command's
/// limit (there to bound its memory) would only hide duplicates. The command's round-numbering warnings,
/// about whole tournaments, are not records and are not returned.
fn validate_records(
    py: Python<'_>,
    sources: &Sources,
    texts: bool,
    lang: &str,
    strict: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let opts = validate_options(lang, strict)?;
    let (threads, _) = Threads::asked(jobs);
    let job = ValidateJob::new(opts, false, MAX_TRACKED_GAMES, threads);
    let records = run_records(
        py,
        sources,
        texts,
        jobs,
        &job,
        |batch: &ValidatedBatch, records: &mut Vec<String>| {
            for report in &batch.games {
                records.push(json(&report.record(Locale::En))?);
            }
            Ok(())
        },
    )?;
    Ok(records)
}

/// `validate --format json`'s records (as JSON text) for texts in memory, each checked across its own games.
#[pyfunction]
#[pyo3(signature = (texts, names, *, lang="auto", strict=false, jobs=None))]
fn validate_texts(
    py: Python<'_>,
    texts: Vec<Bound<'_, PyBytes>>,
    names: Vec<String>,
    lang: &str,
    strict: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let sources = text_sources(texts, names)?;
    validate_records(py, &sources, true, lang, strict, jobs)
}

/// `validate --format json`'s records (as JSON text) for files and directories, read on all cores in input
/// order, the games of all the files checked against each other as the command does.
#[pyfunction]
#[pyo3(signature = (paths, *, lang="auto", strict=false, jobs=None))]
fn validate_paths(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    lang: &str,
    strict: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let sources = path_sources(&paths)?;
    validate_records(py, &sources, false, lang, strict, jobs)
}

/// `read_games`' records (as JSON text) of `sources` (texts each checked alone, or paths all together).
fn read_games_records(
    py: Python<'_>,
    sources: &Sources,
    texts: bool,
    lang: &str,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let job = ReadGamesJob::new(validate_options(lang, false)?);
    let records = run_records(
        py,
        sources,
        texts,
        jobs,
        &job,
        |batch: &Vec<GameRead>, records: &mut Vec<String>| {
            for game in batch {
                records.push(json(&game.record())?);
            }
            Ok(())
        },
    )?;
    Ok(records)
}

/// `read_games`' records (as JSON text) for texts in memory.
#[pyfunction]
#[pyo3(signature = (texts, names, *, lang="auto", jobs=None))]
fn read_games_texts(
    py: Python<'_>,
    texts: Vec<Bound<'_, PyBytes>>,
    names: Vec<String>,
    lang: &str,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let sources = text_sources(texts, names)?;
    read_games_records(py, &sources, true, lang, jobs)
}

/// `read_games`' records (as JSON text) for files and directories (see [`validate_paths`]).
#[pyfunction]
#[pyo3(signature = (paths, *, lang="auto", jobs=None))]
fn read_games_paths(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    lang: &str,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let sources = path_sources(&paths)?;
    read_games_records(py, &sources, false, lang, jobs)
}

/// What repair makes of a run, as `pgnkit repair` writes it: the games (to `-o`), the report (to `--report`),
/// and the counts of its summary.
#[derive(Default)]
struct Repaired {
    text: Vec<u8>,
    report: Vec<u8>,
    games: u64,
    repaired: u64,
    unrepaired: u64,
}

impl Repaired {
    fn add(&mut self, batch: &RepairBatch) {
        self.text.extend_from_slice(&batch.text);
        self.report.extend_from_slice(&batch.report);
        self.games += batch.games;
        self.repaired += batch.repaired;
        self.unrepaired += batch.unrepaired;
    }
}

impl Collected for Repaired {
    fn append(&mut self, mut more: Repaired) {
        self.text.append(&mut more.text);
        self.report.append(&mut more.report);
        self.games += more.games;
        self.repaired += more.repaired;
        self.unrepaired += more.unrepaired;
    }
}

/// What Python gets of repair: the games as text, the report's lines (JSON text, one per faulty game), the
/// number of games, of those repaired, of the faulty games left as they were.
type RepairedText = (String, Vec<String>, u64, u64, u64);

/// `pgnkit repair`'s output, report and counts for `sources`, with the command's options (`--lang`,
/// `--max-edits`, `--broadcast`, `--messages`). Nothing crosses games: texts given as a list are repaired as
/// they would be in one file, several small texts to a batch.
#[allow(clippy::too_many_arguments)]
fn repair_of(
    py: Python<'_>,
    sources: &Sources,
    texts: bool,
    lang: &str,
    max_edits: i64,
    broadcast: bool,
    messages: &str,
    jobs: Option<usize>,
) -> PyResult<RepairedText> {
    // As `--max-edits` takes it.
    let max_edits = u8::try_from(max_edits)
        .ok()
        .filter(|n| (1..=3).contains(n))
        .ok_or_else(|| Failure::usage(format!("max_edits: {max_edits} is not in 1..=3")))?;
    let job = RepairJob::new(RepairOptions {
        lang: language(lang)?,
        search: pgnkit::repair::RepairOptions {
            max_edits,
            broadcast,
        },
        messages: option::<Messages>("messages", messages)?.0,
    });
    let done: Repaired = run_records(
        py,
        sources,
        texts,
        jobs,
        &job,
        |batch: &RepairBatch, done: &mut Repaired| {
            done.add(batch);
            Ok(())
        },
    )?;
    let text = String::from_utf8(done.text).map_err(|e| {
        Failure::Encode(format!(
            "the output is not UTF-8 text (a game copied unchanged keeps its file's bytes): {e}"
        ))
    })?;
    // serde_json escapes line feeds in strings: each line is a record.
    let report = String::from_utf8_lossy(&done.report)
        .split_terminator('\n')
        .map(str::to_owned)
        .collect();
    Ok((text, report, done.games, done.repaired, done.unrepaired))
}

/// `pgnkit repair`'s output, report and counts for texts in memory (named `names` in the report).
#[pyfunction]
#[pyo3(signature = (texts, names, *, lang="auto", max_edits=2, broadcast=false, messages="en", jobs=None))]
#[allow(clippy::too_many_arguments)]
fn repair_texts(
    py: Python<'_>,
    texts: Vec<Bound<'_, PyBytes>>,
    names: Vec<String>,
    lang: &str,
    max_edits: i64,
    broadcast: bool,
    messages: &str,
    jobs: Option<usize>,
) -> PyResult<RepairedText> {
    let sources = text_sources(texts, names)?;
    repair_of(
        py, &sources, true, lang, max_edits, broadcast, messages, jobs,
    )
}

/// `pgnkit repair`'s output, report and counts for files and directories, read on all cores in input order.
#[pyfunction]
#[pyo3(signature = (paths, *, lang="auto", max_edits=2, broadcast=false, messages="en", jobs=None))]
#[allow(clippy::too_many_arguments)]
fn repair_paths(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    lang: &str,
    max_edits: i64,
    broadcast: bool,
    messages: &str,
    jobs: Option<usize>,
) -> PyResult<RepairedText> {
    let sources = path_sources(&paths)?;
    repair_of(
        py, &sources, false, lang, max_edits, broadcast, messages, jobs,
    )
}

/// `pgnkit convert`'s output for the games of the source, as text.
#[pyfunction]
#[pyo3(signature = (paths=None, texts=None, *, to="en", source_lang="auto", notation="san", output_format="pgn", skip_invalid=false))]
#[allow(clippy::too_many_arguments)]
fn convert(
    py: Python<'_>,
    paths: Option<Vec<PathBuf>>,
    texts: Option<Vec<Bound<'_, PyBytes>>>,
    to: &str,
    source_lang: &str,
    notation: &str,
    output_format: &str,
    skip_invalid: bool,
) -> PyResult<String> {
    use pgnkit_jobs::convert::{ConvertJob, ConvertOptions};
    if to.eq_ignore_ascii_case("auto") {
        return Err(Failure::usage("to: a language, not auto").into());
    }
    let opts = ConvertOptions {
        to: option::<Letters>("to", to)?.0,
        from: language(source_lang)?,
        notation: option::<Notation>("notation", notation)?,
        format: option::<OutputFormat>("output_format", output_format)?,
        skip_invalid,
        ..ConvertOptions::default()
    };
    let job = ConvertJob::new(opts).map_err(|e| Failure::usage(e.to_string()))?;
    let sources = sources_of(paths, texts)?;
    let mut text = Vec::new();
    run_job(py, &sources, None, &job, |batch| {
        text.extend_from_slice(&batch.text);
        Ok(())
    })?;
    String::from_utf8(text).map_err(|e| {
        Failure::Encode(format!(
            "the output is not UTF-8 text (a game copied unchanged keeps its file's bytes): {e}"
        ))
        .into()
    })
}

/// The texts of the games `pgnkit select` chooses, in input order, without the duplicates its job tells
/// (`dedupe`: the first of each key is kept over all the sources).
#[pyfunction]
#[pyo3(signature = (paths=None, texts=None, *, where_=None, reaches=Vec::new(), material=Vec::new(), dedupe=false, lang="auto"))]
#[allow(clippy::too_many_arguments)]
fn select(
    py: Python<'_>,
    paths: Option<Vec<PathBuf>>,
    texts: Option<Vec<Bound<'_, PyBytes>>>,
    where_: Option<&str>,
    reaches: Vec<String>,
    material: Vec<String>,
    dedupe: bool,
    lang: &str,
) -> PyResult<Vec<String>> {
    use pgnkit_jobs::select::{FilterError, SelectJob, SelectOptions};
    let mut opts = SelectOptions::choosing(where_, &reaches, &material).map_err(|e| match e {
        FilterError::Where(e) => Failure::usage(format!("where: {e}")),
        FilterError::Reaches { fen, error } => Failure::usage(format!("reaches {fen:?}: {error}")),
        FilterError::Material(e) => Failure::usage(format!("material: {e}")),
    })?;
    opts.dedupe = dedupe;
    opts.lang = language(lang)?;
    opts.keep_text = true;
    let job = SelectJob::new(opts);
    let sources = sources_of(paths, texts)?;
    let mut chosen = Vec::new();
    run_job(py, &sources, None, &job, |batch| {
        for game in batch.chosen.iter().filter(|game| !game.duplicate) {
            chosen.push(String::from_utf8_lossy(&batch.text[game.text.clone()]).into_owned());
        }
        Ok(())
    })?;
    Ok(chosen)
}

/// Rows per record batch of `tree`'s table.
const TREE_BATCH_ROWS: usize = 65_536;

// The default of `tree`'s `depth` (the signature takes a literal) is the command's.
const _: () = assert!(pgnkit_jobs::tree::DEFAULT_DEPTH == 20);

/// A refused tree request, in the words of the Python parameters.
fn tree_usage(e: pgnkit_jobs::tree::TreeOptionError, color: bool) -> Failure {
    use pgnkit_jobs::tree::TreeOptionError;
    match e {
        TreeOptionError::Where(e) => Failure::usage(format!("where: {e}")),
        TreeOptionError::From { fen, error } => {
            Failure::usage(format!("from_fen {fen:?}: {error}"))
        }
        TreeOptionError::FromMoves { token, reason, .. } if token.is_empty() => {
            Failure::usage(format!("from_moves: {reason}"))
        }
        TreeOptionError::FromMoves { ply, token, reason } => {
            Failure::usage(format!("from_moves: half-move {ply}, {token:?}: {reason}"))
        }
        TreeOptionError::Player if color => {
            Failure::usage("color: needs player (a name that is not empty)")
        }
        TreeOptionError::Player => Failure::usage("player: a name that is not empty"),
        TreeOptionError::Depth => Failure::usage("depth: at least 1 half-move"),
    }
}

/// The arrow schema of `tree`'s rows.
#[pyfunction]
fn tree_schema(py: Python<'_>) -> PyResult<Py<PyAny>> {
    Ok(pgnkit_jobs::tree::Tree::schema()
        .as_ref()
        .to_pyarrow(py)?
        .unbind())
}

/// `pgnkit tree --format parquet`'s rows for the games of the source, as Arrow record batches in the
/// command's order: the run's batches go into the tree as they come (its tallies past `memory` bytes spill
/// as sorted runs to `temp_dir`), then the tree's rows are merged out, all without the GIL.
#[pyfunction]
#[pyo3(signature = (paths=None, texts=None, *, depth=20, from_fen=None, from_moves=None, min_games=1, player=None, color=None, where_=None, lang="auto", memory=None, temp_dir=None, jobs=None))]
#[allow(clippy::too_many_arguments)]
fn tree(
    py: Python<'_>,
    paths: Option<Vec<PathBuf>>,
    texts: Option<Vec<Bound<'_, PyBytes>>>,
    depth: i64,
    from_fen: Option<&str>,
    from_moves: Option<&str>,
    min_games: i64,
    player: Option<&str>,
    color: Option<&str>,
    where_: Option<&str>,
    lang: &str,
    memory: Option<i64>,
    temp_dir: Option<PathBuf>,
    jobs: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    use pgnkit::core::Color;
    use pgnkit_jobs::tree::{TreeJob, TreeOptionError, TreeRequest, default_memory};
    // A depth `--depth` cannot take is refused as `--depth 0` is.
    let depth = u32::try_from(depth).map_err(|_| tree_usage(TreeOptionError::Depth, false))?;
    let min_games = u64::try_from(min_games)
        .map_err(|_| Failure::usage(format!("min_games: {min_games} is negative")))?;
    let memory = match memory {
        None => default_memory(),
        Some(bytes) => usize::try_from(bytes)
            .map_err(|_| Failure::usage(format!("memory: {bytes} bytes is negative")))?,
    };
    let color = match color {
        None => None,
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        Some(other) => {
            return Err(Failure::usage(format!("color: {other:?}: use white or black")).into());
        }
    };
    let request = TreeRequest {
        filter: where_,
        from_fen,
        from_moves,
        player,
        color,
        lang: language(lang)?,
        depth,
        min_games,
        memory,
        spill_dir: temp_dir.unwrap_or_else(std::env::temp_dir),
    };
    let job = TreeJob::new(request).map_err(|e| tree_usage(e, color.is_some()))?;
    let sources = sources_of(paths, texts)?;
    let mut builder = job.builder();
    run_job(py, &sources, jobs, &job, |batch| {
        builder.add(batch).map_err(Failure::from)
    })?;
    let batches = py
        .detach(|| {
            builder
                .finish()
                .record_batches(TREE_BATCH_ROWS)
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(Failure::from)?;
    to_python(py, batches)
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(stats_schema, m)?)?;
    m.add_function(wrap_pyfunction!(stats_texts, m)?)?;
    m.add_function(wrap_pyfunction!(stats_paths, m)?)?;
    m.add_function(wrap_pyfunction!(stats_records, m)?)?;
    m.add_function(wrap_pyfunction!(stats_column, m)?)?;
    m.add_class::<writer::StatsWriter>()?;
    m.add_function(wrap_pyfunction!(validate_texts, m)?)?;
    m.add_function(wrap_pyfunction!(validate_paths, m)?)?;
    m.add_function(wrap_pyfunction!(read_games_texts, m)?)?;
    m.add_function(wrap_pyfunction!(read_games_paths, m)?)?;
    m.add_function(wrap_pyfunction!(repair_texts, m)?)?;
    m.add_function(wrap_pyfunction!(repair_paths, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(select, m)?)?;
    m.add_function(wrap_pyfunction!(tree_schema, m)?)?;
    m.add_function(wrap_pyfunction!(tree, m)?)?;
    Ok(())
}
