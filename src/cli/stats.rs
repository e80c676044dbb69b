//! `pgnkit stats`: one CSV row per game (or per main-line half-move), or an aggregate report, over any
//! number of files in parallel, in input order.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

use crate::jobs::options::UsageError;
use crate::jobs::options::{Codec, Format};
use crate::jobs::run::{Input, JobError, ReadError, RunTotals, Sink, Sources};
use crate::jobs::stats::summary::StatsSummary;
use crate::jobs::stats::{BatchStats, KeepColumns, Output, RowWriter, StatsJob, StatsOptions};

use super::output::{
    LangFlag, OutputFlag, RunFlags, choice, decimal_here, exit_code, failure, inputs, locale,
    no_games_warning, progress_bar, read_error, say, show_games, write_failure,
};
use super::sink::{self as sink_file, open_output};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst, .parquet); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One row per main-line half-move (SAN, UCI, FENs, clock, evaluation, NAGs, comment...) instead of
    /// one per game
    #[arg(long, conflicts_with = "summary")]
    per_move: bool,
    /// A short report instead of rows: results by colour, endings, ECO codes, standings per event
    #[arg(long)]
    summary: bool,
    /// How rows are written: `csv`, `jsonl` (one JSON object per line) or `parquet` (typed columns, the
    /// Date tag as a date with `year`, `month`, `day`, and `utc_date`, `utc_timestamp` from UTCDate and
    /// UTCTime; zstd-compressed). Default: from the name given to -o (`.parquet`, `.jsonl`, `.ndjson`), else
    /// csv
    #[arg(long, value_parser = choice::<Format>(), conflicts_with = "summary")]
    format: Option<Format>,
    /// Parquet's compression: `zstd` (small files), `lz4` (several times faster to write, files about 1.7
    /// times larger) or `none`
    #[arg(long, value_parser = choice::<Codec>(), default_value = "zstd", conflicts_with = "summary")]
    compression: Codec,
    /// Add these PGN tags as columns of the per-game rows, named by the tag, in this order, comma-separated
    /// (`--tags UTCDate,WhiteTitle,Link`); empty where a game has no such tag. At most 256, none that differs
    /// from a column or another tag only by case
    #[arg(long, value_name = "TAGS", value_delimiter = ',', conflicts_with_all = ["per_move", "summary"])]
    tags: Vec<String>,
    /// Carry these columns of Parquet inputs (tables of games: tag columns and `movetext`) into the per-game
    /// rows, after the tags, under their names and types, comma-separated (`--keep-columns Site,WhiteRatingDiff`),
    /// or `all`: every tag column the rows do not already hold. An enrichment in one pass
    #[arg(long, value_name = "COLUMNS", value_delimiter = ',', conflicts_with_all = ["per_move", "summary"])]
    keep_columns: Vec<String>,
    #[command(flatten)]
    output: OutputFlag,
    #[command(flatten)]
    lang: LangFlag,
    #[command(flatten)]
    run: RunFlags,
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
fn choose_format(args: &Args) -> Result<Format, UsageError> {
    let output = args.output.output.as_deref();
    let named = output.and_then(format_of_name);
    let format = match (args.format, named) {
        (Some(asked), Some(named)) if asked != named => {
            return Err(UsageError::FormatNotName {
                asked,
                output: output.map(|p| p.display().to_string()).unwrap_or_default(),
            });
        }
        (Some(asked), _) => asked,
        (None, Some(named)) => named,
        (None, None) => Format::Csv,
    };
    if format != Format::Parquet && args.compression != Codec::Zstd {
        return Err(UsageError::CompressionNotParquet);
    }
    if format == Format::Parquet {
        match output {
            None if std::io::IsTerminal::is_terminal(&io::stdout()) => {
                return Err(UsageError::ParquetToTerminal);
            }
            Some(path) if sink_file::packing_of(path) != sink_file::Packing::Plain => {
                return Err(UsageError::ParquetPacked {
                    output: path.display().to_string(),
                });
            }
            _ => {}
        }
    }
    Ok(format)
}

/// The options of the run, checked: `--tags` first, then the format, then the kept columns (against the first
/// Parquet input).
fn options(args: &Args, sources: &Sources) -> Result<StatsOptions, UsageError> {
    let output = match (args.summary, args.per_move) {
        (true, _) => Output::StatsSummary,
        (false, true) => Output::Moves,
        (false, false) => Output::Games,
    };
    crate::jobs::stats::check_tags(&args.tags)?;
    let format = match output {
        Output::StatsSummary => Format::Csv,
        _ => choose_format(args)?,
    };
    let keep = match args.keep_columns.as_slice() {
        [] => Vec::new(),
        [all] if all == "all" => crate::jobs::stats::kept_columns(sources, &KeepColumns::All)?,
        names => crate::jobs::stats::kept_columns(sources, &KeepColumns::Named(names.to_vec()))?,
    };
    Ok(StatsOptions {
        lang: args.lang.lang.0,
        output,
        format,
        tags: args.tags.clone(),
        keep,
    })
}

pub(crate) fn run(args: Args) -> i32 {
    let Some(sources) = inputs(&args.paths, &args.run) else {
        return 2;
    };
    let opts = match options(&args, &sources) {
        Ok(opts) => opts,
        Err(refused) => return failure(&JobError::Usage(refused)),
    };
    let threads = args.run.threads();
    let summary = opts.output == Output::StatsSummary;
    let Some(out) = open_output(args.output.output.as_deref(), &sources) else {
        return 2;
    };
    // A long game's rows beyond a batch's share of memory go to a temporary file: beside the output, on the
    // disk that is to hold them anyway, else where TMPDIR says.
    let spill = out
        .staging_dir()
        .map_or_else(std::env::temp_dir, std::path::Path::to_path_buf);
    let (job, rows) = match StatsJob::new(opts, args.compression, threads, spill) {
        Ok(made) => made,
        Err(e) => return failure(&e),
    };
    let mut writer = Writer {
        out,
        rows,
        bar: progress_bar(&sources, args.run.quiet),
        counts: Counts::default(),
    };
    if let Err(e) = writer.rows.start(&mut writer.out) {
        return write_failure(&e);
    }
    let started = Instant::now();
    let finished = crate::jobs::run::run(&sources, threads, &job, &mut writer);
    writer.bar.finish_and_clear();
    let Writer {
        mut out,
        rows,
        counts,
        ..
    } = writer;
    let ended = finished.and_then(|finished| {
        rows.finish(&mut out)?;
        if summary {
            let mut summary = finished.state;
            summary.bytes = finished.totals.bytes;
            out.write_all(summary.render_in(locale()).as_bytes())?;
        }
        out.flush()?;
        Ok(finished.totals)
    });
    match ended {
        Ok(totals) => close(out, &counts, &totals, &sources, args.run.quiet, started),
        Err(e) => failure(&e),
    }
}

/// What the closing line counts.
#[derive(Default)]
struct Counts {
    games: u64,
    plies: u64,
    games_with_errors: u64,
}

/// Where stats writes its rows as the run goes.
struct Writer {
    out: sink_file::Output,
    rows: RowWriter,
    bar: indicatif::ProgressBar,
    counts: Counts,
}

impl Sink<StatsJob> for Writer {
    fn batch(
        &mut self,
        _: Input<'_>,
        batch: &mut BatchStats,
        _: &StatsSummary,
    ) -> Result<(), JobError> {
        self.counts.games += batch.games;
        self.counts.plies += batch.plies;
        self.counts.games_with_errors += batch.games_with_errors;
        let (rows, out) = (&mut self.rows, &mut self.out);
        self.bar.suspend(|| rows.write(batch, out))?;
        show_games(&self.bar, self.counts.games);
        Ok(())
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        Ok(read_error(&self.bar, &error.to_string())?)
    }

    fn progress(&mut self, raw_bytes: u64) {
        self.bar.set_position(raw_bytes);
    }
}

/// The end of a run: the warning of a run without games, the closing line; the output put in place; the
/// exit code.
fn close(
    out: sink_file::Output,
    counts: &Counts,
    totals: &RunTotals,
    sources: &Sources,
    quiet: bool,
    started: Instant,
) -> i32 {
    let no_games = counts.games == 0 && totals.read_errors == 0;
    if no_games && let Err(e) = say(&no_games_warning(sources)) {
        return write_failure(&e);
    }
    if !quiet {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let closing = crate::jobs::localized!(
            locale(),
            "pgnkit stats: {} games, {} half-moves, {} with errors; {} MB in {} s ({} MB/s, {:.0} games/s)\n",
            "pgnkit stats : {} parties, {} demi-coups, {} avec erreurs ; {} Mo en {} s ({} Mo/s, {:.0} parties/s)\n",
            counts.games,
            counts.plies,
            counts.games_with_errors,
            decimal_here(totals.bytes as f64 / 1e6, 1),
            decimal_here(secs, 2),
            decimal_here(totals.bytes as f64 / 1e6 / secs, 1),
            counts.games as f64 / secs
        );
        if let Err(e) = say(&closing) {
            return write_failure(&e);
        }
    }
    // Said before the output is put in place: a run that cannot report is a failed run.
    out.close(exit_code(
        totals.read_errors,
        counts.games_with_errors > 0 || no_games,
    ))
}
