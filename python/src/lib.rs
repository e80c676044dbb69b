//! `pgnkit._native`, the extension module of the Python package: the jobs of the `pgnkit` command
//! (`pgnkit-jobs`) called with the same options, so Python gets the command's answers. `pgnkit/__init__.py`
//! wraps it: it turns the sources Python users have (paths, bytes, lists of texts, Arrow string arrays) into
//! the two kinds this module takes, and the record batches into a `pyarrow.Table`. Records (validate's, and
//! read_games' that add the tags and the moves that replayed) come back as JSON texts, one per game, never
//! joined into lines: a tag may hold any line break.
//!
//! The GIL is released while Rust works; the work runs on a rayon pool of `jobs` threads.

use std::io;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_pyarrow::ToPyArrow;
use pyo3::prelude::*;
use rayon::prelude::*;

use pgnkit::core::{Move, Position, Termination};
use pgnkit::notation::{CheckMark, Language};
use pgnkit::pgn::writer::export_result;
use pgnkit::pgn::{Game, GameReader, GameResult, TokenKind};
use pgnkit::walk::{Confidence, MoveAt, MoveFailure, Visitor, Walk};
use pgnkit_jobs::bulk::{self, Event};
use pgnkit_jobs::input::{self, InputError, Source};
use pgnkit_jobs::moves::{push_san_body, push_uci};
use pgnkit_jobs::stats::{
    BatchError, Format, Output, Shapes, StatsOptions, check_tags, run_batch, table_of_texts,
};
use pgnkit_jobs::validate::report::termination_or_none;
use pgnkit_jobs::validate::tournament::{MAX_TRACKED_GAMES, Tournament};
use pgnkit_jobs::validate::{
    GameReport, ProblemRecords, ValidateOptions, validate_game, validate_game_with,
};
use serde::{Serialize, Serializer};

/// Texts handled by one task: enough that a task's batch is not tiny, few enough to spread over threads.
const TEXTS_PER_TASK: usize = 256;

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

    /// A source the run could not read, known by a message that starts with its name (the run's events
    /// carry no more than that message).
    fn unreadable(name: &str, message: &str) -> Failure {
        let message = message
            .strip_prefix(name)
            .and_then(|m| m.strip_prefix(": "))
            .unwrap_or(message);
        Failure::Io {
            path: Some(name.to_owned()),
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
        }
    }
}

impl From<BatchError> for Failure {
    fn from(e: BatchError) -> Failure {
        match e {
            BatchError::Encode(e) => Failure::Encode(e.to_string()),
            BatchError::Spill(spill) => Failure::Io {
                path: (!spill.dir.as_os_str().is_empty()).then(|| spill.dir.display().to_string()),
                error: spill.error,
            },
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

fn stats_options(tags: Option<Vec<String>>, per_move: bool) -> Result<StatsOptions, Failure> {
    let tags = tags.unwrap_or_default();
    if per_move && !tags.is_empty() {
        return Err(Failure::usage(
            "tags are columns of the per-game rows: not with per_move=True",
        ));
    }
    check_tags(&tags).map_err(|m| Failure::usage(format!("tags: {m}")))?;
    Ok(StatsOptions {
        lang: None,
        output: if per_move {
            Output::Moves
        } else {
            Output::Games
        },
        format: Format::Parquet,
        tags,
    })
}

/// A pool of `jobs` threads (all cores when `None` or 0).
fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Failure> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = match jobs {
        None | Some(0) => cores,
        Some(n) => n.min(cores),
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Io {
            path: None,
            error: io::Error::other(format!("cannot start {threads} threads: {e}")),
        })
}

/// The arrow schema of `stats`' rows.
#[pyfunction]
#[pyo3(signature = (*, tags=None, per_move=false))]
fn stats_schema(py: Python<'_>, tags: Option<Vec<String>>, per_move: bool) -> PyResult<Py<PyAny>> {
    let opts = stats_options(tags, per_move)?;
    let schema = Shapes::of(&opts)
        .schema
        .ok_or_else(|| Failure::Encode("no Arrow schema".into()))?;
    Ok(schema.as_ref().to_pyarrow(py)?.unbind())
}

fn to_python(py: Python<'_>, batches: Vec<RecordBatch>) -> PyResult<Vec<Py<PyAny>>> {
    batches
        .iter()
        .map(|b| b.to_pyarrow(py).map(Bound::unbind))
        .collect()
}

/// Rows of PGN texts held in memory, each one or more games, named `names` in the `file` column.
#[pyfunction]
#[pyo3(signature = (texts, names, *, tags=None, per_move=false, jobs=None))]
fn stats_texts(
    py: Python<'_>,
    texts: Vec<Vec<u8>>,
    names: Vec<String>,
    tags: Option<Vec<String>>,
    per_move: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    if texts.len() != names.len() {
        return Err(Failure::usage("as many names as texts").into());
    }
    let opts = stats_options(tags, per_move)?;
    let shapes = Shapes::of(&opts);
    let pool = pool(jobs)?;
    let batches = py.detach(|| {
        pool.install(|| {
            texts
                .par_chunks(TEXTS_PER_TASK)
                .zip(names.par_chunks(TEXTS_PER_TASK))
                .map(|(texts, names)| {
                    let texts = texts
                        .iter()
                        .map(Vec::as_slice)
                        .zip(names.iter().map(String::as_str));
                    table_of_texts(texts, &opts, &shapes).map_err(Failure::from)
                })
                .collect::<Result<Vec<Option<RecordBatch>>, Failure>>()
        })
    })?;
    to_python(py, batches.into_iter().flatten().collect())
}

/// The sources of `paths` (directories searched for .pgn, .pgn.gz, .pgn.zst, as the command does).
fn sources(paths: Vec<PathBuf>) -> Result<Vec<Source>, Failure> {
    let found = input::expand(&paths)?;
    if let Some(skipped) = found.skipped.first() {
        let path = skipped.path.display().to_string();
        return Err(Failure::unreadable(&path, &skipped.to_string()));
    }
    Ok(found.sources)
}

/// A source the run stopped reading, with the message of the run's event. The event has only the message, so
/// the file is opened again: when that fails, the system's error gives Python its kind and number; when it
/// opens, the read failed later (damaged compressed data, a game over the size limit) and the message is all
/// there is. Only regular files are opened again: opening a pipe could wait for a writer.
fn unreadable_source(source: &Source, message: &str) -> Failure {
    if let Source::File(path) = source
        && !std::fs::metadata(path).is_ok_and(|m| !m.is_file())
        && let Err(error) = std::fs::File::open(path)
    {
        return Failure::Io {
            path: Some(source.display_name()),
            error,
        };
    }
    Failure::unreadable(&source.display_name(), message)
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
    let opts = stats_options(tags, per_move)?;
    let shapes = Shapes::of(&opts);
    let sources = sources(paths)?;
    let names: Vec<String> = sources.iter().map(Source::display_name).collect();
    let threads = pool(jobs)?.current_num_threads();
    let tables = py.detach(|| {
        let mut tables = Vec::new();
        bulk::run(
            &sources,
            threads,
            bulk::BATCH_SIZE,
            |source, games| run_batch(games, &names[source], &opts, &shapes, Vec::new()),
            |event| {
                match event {
                    Event::Batch { result, .. } => match result {
                        Ok(batch) => tables.extend(batch.table),
                        Err(e) => return ControlFlow::Break(Failure::from(e)),
                    },
                    // The command goes on with the other files and exits with 2; Python has no partial
                    // success, so the first error ends the run.
                    Event::Error { source, message } => {
                        return ControlFlow::Break(unreadable_source(&sources[source], &message));
                    }
                    Event::Start { .. } | Event::End { .. } => {}
                }
                ControlFlow::Continue(())
            },
            |_| {},
        )
        .map_or(Ok(tables), Err)
    })?;
    to_python(py, tables)
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
        messages: pgnkit_jobs::messages::Locale::En,
    })
}

/// The checks across games, following every game: the records are all returned, each far larger than the
/// 40 bytes a tracked game costs, so the command's limit (there to bound its memory) would only hide duplicates.
fn every_game_tracked() -> Tournament {
    Tournament::new().with_limit(MAX_TRACKED_GAMES)
}

/// What is made of each game: validate's report, with what else a kind of record needs, then the record as
/// JSON text once the checks across games have added their problems to the report.
trait Records: Sync {
    type Extra: Send;
    fn read(
        &self,
        game: &Game<'_>,
        name: &Arc<str>,
        opts: &ValidateOptions,
    ) -> (GameReport, Self::Extra);
    fn record(&self, report: &GameReport, extra: Self::Extra) -> Result<String, Failure>;
}

/// A record as JSON text.
fn json(record: &impl Serialize) -> Result<String, Failure> {
    serde_json::to_string(record).map_err(|e| Failure::Encode(e.to_string()))
}

/// `validate --format json`'s records: the report alone.
struct Reports;

impl Records for Reports {
    type Extra = ();
    fn read(&self, game: &Game<'_>, name: &Arc<str>, opts: &ValidateOptions) -> (GameReport, ()) {
        (validate_game(game, name, opts), ())
    }
    fn record(&self, report: &GameReport, (): ()) -> Result<String, Failure> {
        json(&report.record(pgnkit_jobs::messages::Locale::En))
    }
}

/// The records of one source's games, with the checks across its games.
fn records_of_source<R: Records>(
    games: &mut GameReader<'_>,
    name: &Arc<str>,
    opts: &ValidateOptions,
    kind: &R,
) -> Result<Vec<String>, Failure> {
    let mut tournament = every_game_tracked();
    let mut records = Vec::new();
    while let Some(game) = games.next_game() {
        let (mut report, extra) = kind.read(game, name, opts);
        if opts.tag_checks {
            tournament.check(&mut report);
        }
        records.push(kind.record(&report, extra)?);
    }
    Ok(records)
}

/// The records of texts in memory, each text checked across its own games.
fn records_of_texts<R: Records>(
    py: Python<'_>,
    texts: &[Vec<u8>],
    names: &[String],
    opts: &ValidateOptions,
    jobs: Option<usize>,
    kind: &R,
) -> PyResult<Vec<String>> {
    if texts.len() != names.len() {
        return Err(Failure::usage("as many names as texts").into());
    }
    let pool = pool(jobs)?;
    let records = py.detach(|| {
        pool.install(|| {
            texts
                .par_iter()
                .zip(names.par_iter())
                .map(|(text, name)| {
                    let name = Arc::from(name.as_str());
                    records_of_source(&mut GameReader::new(text), &name, opts, kind)
                })
                .collect::<Result<Vec<Vec<String>>, Failure>>()
        })
    })?;
    Ok(records.into_iter().flatten().collect())
}

/// The records of files and directories, read on all cores in input order; the games of all the files are
/// checked against each other as the command does (the command's round-numbering warnings, about whole
/// tournaments, are not records and are not returned).
fn records_of_paths<R: Records>(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    opts: &ValidateOptions,
    jobs: Option<usize>,
    kind: &R,
) -> PyResult<Vec<String>> {
    let sources = sources(paths)?;
    let names: Vec<Arc<str>> = sources
        .iter()
        .map(|s| Arc::from(s.display_name()))
        .collect();
    let threads = pool(jobs)?.current_num_threads();
    let records = py.detach(|| {
        let mut records = Vec::new();
        let mut tournament = every_game_tracked();
        bulk::run(
            &sources,
            threads,
            bulk::BATCH_SIZE,
            |source, games| {
                let mut read = Vec::new();
                while let Some(game) = games.next_game() {
                    read.push(kind.read(game, &names[source], opts));
                }
                read
            },
            |event| {
                match event {
                    Event::Start { .. } | Event::End { .. } => {}
                    Event::Batch { result, .. } => {
                        for (mut report, extra) in result {
                            if opts.tag_checks {
                                tournament.check(&mut report);
                            }
                            match kind.record(&report, extra) {
                                Ok(record) => records.push(record),
                                Err(failure) => return ControlFlow::Break(failure),
                            }
                        }
                    }
                    // The first error ends the run (see stats_paths).
                    Event::Error { source, message } => {
                        return ControlFlow::Break(unreadable_source(&sources[source], &message));
                    }
                }
                ControlFlow::Continue(())
            },
            |_| {},
        )
        .map_or(Ok(records), Err)
    })?;
    Ok(records)
}

/// `validate --format json`'s records (as JSON text) for texts in memory.
#[pyfunction]
#[pyo3(signature = (texts, names, *, lang="auto", strict=false, jobs=None))]
fn validate_texts(
    py: Python<'_>,
    texts: Vec<Vec<u8>>,
    names: Vec<String>,
    lang: &str,
    strict: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let opts = validate_options(lang, strict)?;
    records_of_texts(py, &texts, &names, &opts, jobs, &Reports)
}

/// `validate --format json`'s records (as JSON text) for files and directories (see [`records_of_paths`]).
#[pyfunction]
#[pyo3(signature = (paths, *, lang="auto", strict=false, jobs=None))]
fn validate_paths(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    lang: &str,
    strict: bool,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let opts = validate_options(lang, strict)?;
    records_of_paths(py, paths, &opts, jobs, &Reports)
}

/// The main line as far as it replayed, in canonical English SAN and in UCI (as convert's JSON lines write
/// it), seen along validate's walk so that a game is replayed once.
struct MainLine<'g, 'a> {
    game: &'g Game<'a>,
    san: String,
    uci: String,
    /// A move token gave no move, in the main line or a variation: convert would not convert the game.
    failed: bool,
}

impl MainLine<'_, '_> {
    fn separate(&mut self) {
        if !self.san.is_empty() {
            self.san.push(' ');
            self.uci.push(' ');
        }
    }
}

impl Visitor for MainLine<'_, '_> {
    type Output = ();

    fn before_move(&mut self, at: MoveAt<'_>, before: &Position, m: &Move) -> ControlFlow<()> {
        if at.depth == 0 {
            self.separate();
            let token = match &at.token.kind {
                TokenKind::Move(mt) => self.game.san(mt),
                _ => &[],
            };
            push_san_body(&mut self.san, token, at.canonical, before, m, Language::En);
            push_uci(&mut self.uci, before, m);
        }
        ControlFlow::Continue(())
    }

    fn after_move(&mut self, at: MoveAt<'_>, _: &Move, after: &Position) -> ControlFlow<()> {
        if at.depth == 0
            && let Some(mark) = CheckMark::after(after)
        {
            self.san.push_str(mark.as_str());
        }
        ControlFlow::Continue(())
    }

    fn null_move(&mut self, at: MoveAt<'_>, _: &Position) -> ControlFlow<()> {
        if at.depth == 0 {
            self.separate();
            self.san.push_str("--");
            self.uci.push_str("0000");
        }
        ControlFlow::Continue(())
    }

    fn failure(&mut self, _: MoveAt<'_>, _: &Position, _: MoveFailure) -> ControlFlow<()> {
        self.failed = true;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Walk) {}
}

/// What `read_games` keeps of a game besides its report.
struct GameFacts {
    /// Names and values, in the file's order.
    tags: Vec<(String, String)>,
    converted: bool,
    result: GameResult,
    san: String,
    uci: String,
}

/// `read_games`' records: every game has the same keys, those of convert's JSON lines for a converted game
/// (`san` and `uci` as lists) and validate's verdict; a game that is not converted holds what replayed.
struct GameRecords;

/// A game's tags as a JSON object, in their order.
struct TagMap<'r>(&'r [(String, String)]);

impl Serialize for TagMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

/// Moves separated by spaces, as a JSON list.
struct MoveList<'r>(&'r str);

impl Serialize for MoveList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.split_ascii_whitespace())
    }
}

#[derive(Serialize)]
struct GameRecord<'r> {
    file: &'r str,
    game: u64,
    converted: bool,
    tags: TagMap<'r>,
    lang: Language,
    lang_confidence: Confidence,
    result: GameResult,
    #[serde(serialize_with = "termination_or_none")]
    termination: Option<Termination>,
    plies: u32,
    san: MoveList<'r>,
    uci: MoveList<'r>,
    valid: bool,
    problems: ProblemRecords<'r>,
}

impl Records for GameRecords {
    type Extra = GameFacts;

    fn read(
        &self,
        game: &Game<'_>,
        name: &Arc<str>,
        opts: &ValidateOptions,
    ) -> (GameReport, GameFacts) {
        let mut line = MainLine {
            game,
            san: String::new(),
            uci: String::new(),
            failed: false,
        };
        let (report, replay) = validate_game_with(game, name, opts, &mut line);
        // Convert's conditions: no reader error, a start position, every move played.
        let converted = replay.is_some() && !line.failed && game.errors().next().is_none();
        let tags = game
            .tags
            .iter()
            .map(|t| (game.tag_name(t).to_owned(), game.tag_value(t).into_owned()))
            .collect();
        let facts = GameFacts {
            tags,
            converted,
            result: export_result(game),
            san: line.san,
            uci: line.uci,
        };
        (report, facts)
    }

    fn record(&self, report: &GameReport, facts: GameFacts) -> Result<String, Failure> {
        let record = GameRecord {
            file: &report.file,
            game: report.game,
            converted: facts.converted,
            tags: TagMap(&facts.tags),
            lang: report.lang,
            lang_confidence: report.lang_confidence,
            result: facts.result,
            termination: report.termination,
            plies: report.plies,
            san: MoveList(&facts.san),
            uci: MoveList(&facts.uci),
            valid: report.valid,
            problems: ProblemRecords::new(&report.problems, pgnkit_jobs::messages::Locale::En),
        };
        json(&record)
    }
}

/// `read_games`' records (as JSON text) for texts in memory.
#[pyfunction]
#[pyo3(signature = (texts, names, *, lang="auto", jobs=None))]
fn read_games_texts(
    py: Python<'_>,
    texts: Vec<Vec<u8>>,
    names: Vec<String>,
    lang: &str,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let opts = validate_options(lang, false)?;
    records_of_texts(py, &texts, &names, &opts, jobs, &GameRecords)
}

/// `read_games`' records (as JSON text) for files and directories (see [`records_of_paths`]).
#[pyfunction]
#[pyo3(signature = (paths, *, lang="auto", jobs=None))]
fn read_games_paths(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    lang: &str,
    jobs: Option<usize>,
) -> PyResult<Vec<String>> {
    let opts = validate_options(lang, false)?;
    records_of_paths(py, paths, &opts, jobs, &GameRecords)
}

/// A source's texts: files and directories read whole in input order, or the texts given. Each comes with its
/// name (the path, or the text's index).
fn source_texts(
    paths: Option<Vec<PathBuf>>,
    texts: Option<Vec<Vec<u8>>>,
) -> Result<Vec<(String, Vec<u8>)>, Failure> {
    if let Some(texts) = texts {
        return Ok(texts
            .into_iter()
            .enumerate()
            .map(|(i, t)| (i.to_string(), t))
            .collect());
    }
    let mut out = Vec::new();
    let sources = sources(paths.unwrap_or_default())?;
    for source in &sources {
        let name = source.display_name();
        let mut opened = input::open(source)?;
        let mut bytes = Vec::new();
        if let Err(error) = io::Read::read_to_end(&mut opened.reader, &mut bytes) {
            return Err(Failure::Io {
                path: Some(name),
                error,
            });
        }
        out.push((name, bytes));
    }
    Ok(out)
}

fn language(code: &str) -> Result<Option<Language>, Failure> {
    if code.eq_ignore_ascii_case("auto") {
        return Ok(None);
    }
    Language::from_code(&code.to_ascii_lowercase())
        .map(Some)
        .ok_or_else(|| Failure::usage(format!("unknown language '{code}'")))
}

/// `pgnkit convert`'s output for the games of the source, as text.
#[pyfunction]
#[pyo3(signature = (paths=None, texts=None, *, to="en", source_lang="auto", notation="san", output_format="pgn", skip_invalid=false))]
#[allow(clippy::too_many_arguments)]
fn convert(
    py: Python<'_>,
    paths: Option<Vec<PathBuf>>,
    texts: Option<Vec<Vec<u8>>>,
    to: &str,
    source_lang: &str,
    notation: &str,
    output_format: &str,
    skip_invalid: bool,
) -> PyResult<String> {
    use pgnkit_jobs::convert::{ConvertOptions, Notation, OutputFormat, convert_batch};
    let opts = ConvertOptions {
        to: language(to)?.ok_or_else(|| Failure::usage("to: a language, not auto"))?,
        from: language(source_lang)?,
        notation: match notation {
            "san" => Notation::San,
            "lan" => Notation::Lan,
            "uci" => Notation::Uci,
            other => {
                return Err(
                    Failure::usage(format!("notation: san, lan or uci, not {other:?}")).into(),
                );
            }
        },
        format: match output_format {
            "pgn" => OutputFormat::Pgn,
            "jsonl" => OutputFormat::Jsonl,
            "epd" => OutputFormat::Epd,
            other => {
                return Err(Failure::usage(format!(
                    "output_format: pgn, jsonl or epd, not {other:?}"
                ))
                .into());
            }
        },
        skip_invalid,
        ..ConvertOptions::default()
    };
    let inputs = source_texts(paths, texts)?;
    let text = py.detach(|| {
        inputs
            .par_iter()
            .map(|(name, bytes)| convert_batch(&mut GameReader::new(bytes), name, &opts).text)
            .collect::<Vec<Vec<u8>>>()
            .concat()
    });
    String::from_utf8(text).map_err(|e| {
        Failure::Encode(format!(
            "the output is not UTF-8 text (a game copied unchanged keeps its file's bytes): {e}"
        ))
        .into()
    })
}

/// The texts of the games `pgnkit select` chooses, in input order.
#[pyfunction]
#[pyo3(signature = (paths=None, texts=None, *, where_=None, reaches=Vec::new(), material=Vec::new(), dedupe=false, lang="auto"))]
#[allow(clippy::too_many_arguments)]
fn select(
    py: Python<'_>,
    paths: Option<Vec<PathBuf>>,
    texts: Option<Vec<Vec<u8>>>,
    where_: Option<&str>,
    reaches: Vec<String>,
    material: Vec<String>,
    dedupe: bool,
    lang: &str,
) -> PyResult<Vec<String>> {
    use pgnkit_jobs::select::material::Material;
    use pgnkit_jobs::select::{SelectOptions, Target, columns, expr, select_batch};
    let filter = where_
        .map(|text| expr::parse(text, columns()))
        .transpose()
        .map_err(|e| Failure::usage(format!("where: {e}")))?;
    let reaches = reaches
        .iter()
        .map(|fen| Target::parse(fen).map_err(|e| Failure::usage(format!("reaches {fen:?}: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let materials = material
        .iter()
        .map(|m| Material::parse(m).map_err(|e| Failure::usage(format!("material: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let opts = SelectOptions {
        filter,
        reaches,
        materials,
        dedupe,
        lang: language(lang)?,
        normalise: false,
        keep_text: true,
        split: None,
    };
    let inputs = source_texts(paths, texts)?;
    let batches = py.detach(|| {
        inputs
            .par_iter()
            .map(|(name, bytes)| select_batch(&mut GameReader::new(bytes), name, &opts, Vec::new()))
            .collect::<Vec<_>>()
    });
    let mut seen = std::collections::HashSet::new();
    let mut chosen = Vec::new();
    for batch in &batches {
        for game in &batch.chosen {
            // --dedupe: the first of each key is kept; games without moves are never duplicates.
            if dedupe && game.key.is_some_and(|key| !seen.insert(key)) {
                continue;
            }
            chosen.push(String::from_utf8_lossy(&batch.text[game.text.clone()]).into_owned());
        }
    }
    Ok(chosen)
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(stats_schema, m)?)?;
    m.add_function(wrap_pyfunction!(stats_texts, m)?)?;
    m.add_function(wrap_pyfunction!(stats_paths, m)?)?;
    m.add_function(wrap_pyfunction!(validate_texts, m)?)?;
    m.add_function(wrap_pyfunction!(validate_paths, m)?)?;
    m.add_function(wrap_pyfunction!(read_games_texts, m)?)?;
    m.add_function(wrap_pyfunction!(read_games_paths, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(select, m)?)?;
    Ok(())
}
