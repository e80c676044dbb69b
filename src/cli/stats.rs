//! `pgnkit stats`: one CSV row per game (or per main-line half-move), or an aggregate report, over any
//! number of files in parallel, in input order.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use crate::jobs::bulk::{self, Event};
use crate::jobs::input::Source;
use crate::jobs::messages::Explain;
use crate::jobs::stats::columnar::{self, Codec, Encoding, ParquetFailure, ParquetOut};
use crate::jobs::stats::spill::{CopyFailure, Spill, SpillError, Spilled};
use crate::jobs::stats::summary::{Limits, StatsSummary};
use crate::jobs::stats::table;
use crate::jobs::stats::{BatchError, BatchStats, Format, Output, Shapes, StatsOptions, run_batch};

use super::output::{
    decimal_here, exit_code, inputs, locale, no_games_warning, progress_bar, read_error, say,
    show_games, threads, write_failure,
};
use super::sink::open_output;
use super::validate::{LangArg, parse_lang};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One row per main-line half-move (SAN, UCI, FENs, clock, evaluation, NAGs, comment...) instead of
    /// one per game
    #[arg(long, conflicts_with = "summary")]
    per_move: bool,
    /// A short report instead of rows: results by colour, endings, ECO codes, standings per event
    #[arg(long)]
    summary: bool,
    /// How rows are written: `csv`, `jsonl` (one JSON object per line) or `parquet` (typed columns,
    /// zstd-compressed). Default: from the name given to -o (`.parquet`, `.jsonl`, `.ndjson`), else csv
    #[arg(long, value_enum, conflicts_with = "summary")]
    format: Option<FormatArg>,
    /// Parquet's compression: `zstd` (small files), `lz4` (several times faster to write, files about 1.7
    /// times larger) or `none`
    #[arg(long, value_enum, default_value = "zstd", conflicts_with = "summary")]
    compression: CodecArg,
    /// Add these PGN tags as columns of the per-game rows, named by the tag, in this order, comma-separated
    /// (`--tags UTCDate,WhiteTitle,Link`); empty where a game has no such tag. At most 256, none that differs
    /// from a column or another tag only by case
    #[arg(long, value_name = "TAGS", value_delimiter = ',', conflicts_with_all = ["per_move", "summary"])]
    tags: Vec<String>,
    /// Write to FILE instead of standard output (FILE.gz, FILE.zst: compressed). FILE is replaced only when
    /// the run ends with 0 or 1, never when it is an input
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Piece letters of the moves: `auto` detects them per game, or a language code (en, fr, de, nl, es, it,
    /// pt, cs, pl, hu, fi, ro, da, no, sv, figurine)
    #[arg(long, default_value = "auto", value_parser = parse_lang)]
    lang: LangArg,
    /// Worker threads (default, or 0: all cores; at most one per core)
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No progress bar, no closing line on stderr
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FormatArg {
    Csv,
    Jsonl,
    Parquet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum CodecArg {
    Zstd,
    Lz4,
    None,
}

impl FormatArg {
    fn format(self) -> Format {
        match self {
            FormatArg::Csv => Format::Csv,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Parquet => Format::Parquet,
        }
    }
}

/// The format a file name asks for: `.parquet`; `.jsonl`, `.ndjson` (also compressed: `.jsonl.gz`...);
/// `.csv` (likewise). `None` for any other name.
fn format_of_name(path: &std::path::Path) -> Option<Format> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let name = [".gz", ".zst", ".zstd"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(&name);
    if name.ends_with(".parquet") {
        Some(Format::Parquet)
    } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
        Some(Format::Jsonl)
    } else if name.ends_with(".csv") {
        Some(Format::Csv)
    } else {
        None
    }
}

/// The format of the run: `--format`, else the output's name. A format the name contradicts, and Parquet
/// anywhere it cannot go (a terminal; a `.gz` or `.zst` name: Parquet compresses inside), are usage errors.
fn choose_format(args: &Args) -> Result<Format, String> {
    let named = args.output.as_deref().and_then(format_of_name);
    let format = match (args.format.map(FormatArg::format), named) {
        (Some(asked), Some(named)) if asked != named => {
            return Err(format!(
                "--format {} but the output is named {}",
                format_name(asked),
                args.output
                    .as_deref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            ));
        }
        (Some(asked), _) => asked,
        (None, Some(named)) => named,
        (None, None) => Format::Csv,
    };
    if format != Format::Parquet && args.compression != CodecArg::Zstd {
        return Err(
            "--compression is Parquet's: CSV and JSON lines are compressed by their name (-o FILE.zst, FILE.gz)"
                .into(),
        );
    }
    if format == Format::Parquet {
        match args.output.as_deref() {
            None if std::io::IsTerminal::is_terminal(&io::stdout()) => {
                return Err(
                    "Parquet is binary: give a file with -o FILE.parquet, or redirect standard output"
                        .into(),
                );
            }
            Some(path) if super::sink::packing_of(path) != super::sink::Packing::Plain => {
                return Err(format!(
                    "{}: Parquet is compressed inside; name the file FILE.parquet",
                    path.display()
                ));
            }
            _ => {}
        }
    }
    Ok(format)
}

fn codec(arg: CodecArg) -> Codec {
    match arg {
        CodecArg::Zstd => Codec::Zstd,
        CodecArg::Lz4 => Codec::Lz4,
        CodecArg::None => Codec::None,
    }
}

fn format_name(format: Format) -> &'static str {
    match format {
        Format::Csv => "csv",
        Format::Jsonl => "jsonl",
        Format::Parquet => "parquet",
    }
}

/// Batches of whole games: the size every job uses.
const BLOCK: usize = bulk::BATCH_SIZE;

/// Per-move rows are about 20 times the size of the moves they describe: smaller batches keep the output
/// waiting in memory small.
const PER_MOVE_BLOCK: usize = bulk::BATCH_SIZE / 4;

/// Per-move rows to Parquet on several threads: each batch is a row group its worker encodes, and a row
/// group must be large (about 100,000 rows from a MiB of games) for the file's footer to stay small.
const PARQUET_MOVE_BLOCK: usize = 1 << 19;

#[derive(Default)]
struct Totals {
    games: u64,
    plies: u64,
    games_with_errors: u64,
    bytes: u64,
    io_errors: u64,
}

/// Why a run stopped early.
enum Stop {
    Write(io::Error),
    /// The rows could not be made: Arrow arrays or Parquet (a bug, or a limit of the format), or the
    /// temporary file of a long game's rows.
    Rows(BatchError),
}

impl From<ParquetFailure> for Stop {
    fn from(e: ParquetFailure) -> Self {
        match e {
            ParquetFailure::Write(e) => Stop::Write(e),
            ParquetFailure::Encode(e) => Stop::Rows(BatchError::Encode(e)),
            ParquetFailure::Spill(e) => Stop::Rows(BatchError::Spill(e)),
        }
    }
}

impl From<CopyFailure> for Stop {
    fn from(e: CopyFailure) -> Self {
        match e {
            CopyFailure::Write(e) => Stop::Write(e),
            CopyFailure::Spill(e) => Stop::Rows(BatchError::Spill(e)),
        }
    }
}

/// Ends a run whose rows could not be made: exit 2.
fn rows_failure(e: &BatchError) -> i32 {
    let _ = say(&format!("pgnkit: {}\n", e.explain(locale())));
    2
}

pub(crate) fn run(args: Args) -> i32 {
    let Some(sources) = inputs(&args.paths) else {
        return 2;
    };
    let output = match (args.summary, args.per_move) {
        (true, _) => Output::StatsSummary,
        (false, true) => Output::Moves,
        (false, false) => Output::Games,
    };
    if let Err(refused) = crate::jobs::stats::check_tags(&args.tags) {
        let _ = say(&format!("pgnkit: --tags: {}\n", refused.explain(locale())));
        return 2;
    }
    let format = match (output, choose_format(&args)) {
        (Output::StatsSummary, _) => Format::Csv,
        (_, Ok(format)) => format,
        (_, Err(message)) => {
            let _ = say(&format!("pgnkit: {message}\n"));
            return 2;
        }
    };
    let opts = StatsOptions {
        lang: args.lang.0,
        output,
        format,
        tags: args.tags.clone(),
    };
    let jobs = threads(args.jobs, args.quiet);
    let encoding = match output {
        Output::Moves if jobs > 1 => Encoding::InWorkers,
        _ => Encoding::OnOutput,
    };
    let mut shapes = Shapes::of(&opts);
    let mut parquet = match &shapes.schema {
        Some(schema) => match ParquetOut::new(schema, encoding, codec(args.compression)) {
            Ok(writer) => Some(writer),
            Err(e) => {
                let _ = say(&format!("pgnkit: cannot write Parquet: {e:?}\n"));
                return 2;
            }
        },
        None => None,
    };
    shapes.row_groups = parquet.as_ref().and_then(ParquetOut::factory);
    let Some(mut out) = open_output(args.output.as_deref(), &sources) else {
        return 2;
    };
    if output == Output::Moves {
        // A long game's rows beyond a batch's share of memory go to a temporary file: beside the output,
        // on the disk that is to hold them anyway, else where TMPDIR says.
        let dir = out
            .staging_dir()
            .map_or_else(std::env::temp_dir, std::path::Path::to_path_buf);
        let props = shapes
            .schema
            .as_ref()
            .map(|schema| columnar::writer_properties(schema, codec(args.compression)));
        shapes.spill = Some(Spill::new(dir, format, props));
    }
    if format == Format::Csv && output != Output::StatsSummary {
        let mut header = Vec::new();
        table::csv_header(&mut header, &opts.columns());
        if let Err(e) = out.write_all(&header) {
            return write_failure(&e);
        }
    }

    let block = match output {
        Output::Moves if shapes.row_groups.is_some() => PARQUET_MOVE_BLOCK,
        Output::Moves => PER_MOVE_BLOCK,
        _ => BLOCK,
    };
    let bar = progress_bar(&sources, args.quiet);
    let names: Vec<String> = sources.iter().map(Source::display_name).collect();
    // Output buffers go back to the workers once written: a few, reused, whatever the input size.
    let pool: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
    let mut totals = Totals::default();
    let mut summary = StatsSummary::new(Limits::default());
    let started = Instant::now();

    let stopped = bulk::run(
        &sources,
        jobs,
        block,
        |source, games| {
            let buf = pool
                .lock()
                .ok()
                .and_then(|mut p| p.pop())
                .unwrap_or_default();
            run_batch(games, &names[source], &opts, &shapes, buf)
        },
        |event| {
            let step = match event {
                Event::Start { .. } => {
                    summary.files += 1;
                    Ok(())
                }
                Event::Batch { result, .. } => match result {
                    Ok(batch) => emit(
                        batch,
                        &mut out,
                        parquet.as_mut(),
                        &mut totals,
                        &mut summary,
                        &bar,
                        &pool,
                    ),
                    Err(e) => Err(Stop::Rows(e)),
                },
                Event::Error { message, .. } => {
                    totals.io_errors += 1;
                    read_error(&bar, &message).map_err(Stop::Write)
                }
                Event::End { bytes, .. } => {
                    totals.bytes += bytes;
                    Ok(())
                }
            };
            match step {
                Ok(()) => ControlFlow::Continue(()),
                Err(stop) => ControlFlow::Break(stop),
            }
        },
        |bytes| bar.set_position(bytes),
    );
    bar.finish_and_clear();
    match stopped {
        Some(Stop::Write(e)) => return write_failure(&e),
        Some(Stop::Rows(e)) => return rows_failure(&e),
        None => {}
    }
    if let Some(writer) = parquet {
        match writer.finish(&mut out).map_err(Stop::from) {
            Ok(()) => {}
            Err(Stop::Write(e)) => return write_failure(&e),
            Err(Stop::Rows(e)) => return rows_failure(&e),
        }
    }
    if output == Output::StatsSummary {
        summary.bytes = totals.bytes;
        if let Err(e) = out.write_all(summary.render_in(locale()).as_bytes()) {
            return write_failure(&e);
        }
    }
    if let Err(e) = out.flush() {
        return write_failure(&e);
    }
    let no_games = totals.games == 0 && totals.io_errors == 0;
    if no_games && let Err(e) = say(&no_games_warning(&sources)) {
        return write_failure(&e);
    }
    if !args.quiet {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let closing = crate::jobs::localized!(
            locale(),
            "pgnkit stats: {} games, {} half-moves, {} with errors; {} MB in {} s ({} MB/s, {:.0} games/s)\n",
            "pgnkit stats : {} parties, {} demi-coups, {} avec erreurs ; {} Mo en {} s ({} Mo/s, {:.0} parties/s)\n",
            totals.games,
            totals.plies,
            totals.games_with_errors,
            decimal_here(totals.bytes as f64 / 1e6, 1),
            decimal_here(secs, 2),
            decimal_here(totals.bytes as f64 / 1e6 / secs, 1),
            totals.games as f64 / secs
        );
        if let Err(e) = say(&closing) {
            return write_failure(&e);
        }
    }
    // Said before the output is put in place: a run that cannot report is a failed run.
    out.close(exit_code(
        totals.io_errors,
        totals.games_with_errors > 0 || no_games,
    ))
}

/// Writes a batch's rows (or adds its records to the summary) on the ordered output side.
fn emit(
    batch: BatchStats,
    out: &mut impl Write,
    parquet: Option<&mut ParquetOut>,
    totals: &mut Totals,
    summary: &mut StatsSummary,
    bar: &indicatif::ProgressBar,
    pool: &Mutex<Vec<Vec<u8>>>,
) -> Result<(), Stop> {
    totals.games += batch.games;
    totals.plies += batch.plies;
    totals.games_with_errors += batch.games_with_errors;
    for record in batch.records {
        summary.add(record);
    }
    // Rows a batch spilled came before the rows it kept.
    let mut parquet = parquet;
    match batch.spilled {
        Some(Spilled::Text(rows)) => {
            bar.suspend(|| rows.copy_to(out))?;
        }
        Some(Spilled::Parquet(rows)) => match parquet.as_deref_mut() {
            Some(writer) => writer.append_spilled(rows, out)?,
            // Arrow rows are made for Parquet output only.
            None => {
                return Err(Stop::Rows(BatchError::Spill(SpillError::reading(
                    io::Error::other("Parquet rows spilled for a text output"),
                ))));
            }
        },
        None => {}
    }
    if !batch.text.is_empty() {
        bar.suspend(|| out.write_all(&batch.text))
            .map_err(Stop::Write)?;
    }
    if let Some(writer) = parquet {
        if let Some(table) = &batch.table {
            writer.write(table, out)?;
        }
        if let Some(groups) = batch.row_groups {
            writer.append(groups, out)?;
        }
    }
    show_games(bar, totals.games);
    if let Ok(mut p) = pool.lock() {
        p.push(batch.text);
    }
    Ok(())
}
