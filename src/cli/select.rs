//! `pgnkit select`: writes the games that pass `--where`, reach a `--reaches` position, and (with `--dedupe`)
//! are not duplicates, each as its own text, in input order.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::jobs::localized;
use crate::jobs::messages::Explain;
use crate::jobs::options::SplitBy;
use crate::jobs::run::{Input, JobError, ReadError, RunTotals, Sink, Sources};
use crate::jobs::select::{FilterError, SelectBatch, SelectJob, SelectOptions, SelectState};

use super::convert::notes_text;
use super::output::{
    LangFlag, OutputFlag, Paint, RunFlags, exit_code, failure, inputs, locale, no_games_text,
    plural, progress_bar, read_error, say, say_over, show_games, write_failure,
};
use super::plan::{Kind, Request, plan};
use super::sink::{Output, open_planned};
use super::split::Splitter;

/// `-o` is also the directory of `--split`.
const OUTPUT_HELP: &str = "Write to FILE instead of standard output (FILE.gz, FILE.zst: compressed). FILE is replaced only when the run ends with 0 or 1, never when it is an input. With --split, the directory of the files";

#[derive(clap::Args)]
#[command(mut_arg("output", |a| a.help(OUTPUT_HELP)))]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst, .parquet); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Keep the games for which EXPR holds: stats columns by their CSV name (plies, termination,
    /// opening_eco...), tags by their PGN name (WhiteElo, Event); == != < <= > >= (numbers when both sides
    /// are), ~ and !~ (regular expression), + - * / and abs(...) on numbers (`WhiteElo - BlackElo >= 200`),
    /// and, or, not, parentheses, "strings". A comparison with a missing or non-numeric value where a
    /// number is needed is neither true nor false, even under not. See the guide, "Selecting games"
    #[arg(long = "where", value_name = "EXPR")]
    filter: Option<String>,
    /// Keep the games whose main line reaches this position (placement, side to move, castling rights, e.p.
    /// square when a capture is possible; move counters ignored): a FEN, an EPD, or `startpos`. Repeatable:
    /// any of them
    #[arg(long, value_name = "FEN")]
    reaches: Vec<String>,
    /// Keep the games whose main line reaches a position with this material, whichever side has which:
    /// `KRP v KR` (English letters, one per piece; the king may be left out). Repeatable: any of them
    #[arg(long, value_name = "PIECES")]
    material: Vec<String>,
    /// Drop a game when an earlier chosen game has the same start position and the same main-line moves
    /// (games without moves are never duplicates)
    #[arg(long)]
    dedupe: bool,
    /// With --dedupe, write the dropped games to FILE
    #[arg(long, value_name = "FILE", requires = "dedupe")]
    duplicates: Option<PathBuf>,
    /// Print only the number of games chosen
    #[arg(long, conflicts_with_all = ["normalise", "split"])]
    count: bool,
    /// Write the chosen games into one file per group, in the directory given by -o (new or empty): by
    /// `event`, `round` or `eco` (the tags), `opening` (the opening the moves reach), or N games a file
    #[arg(long, value_name = "BY", requires = "output")]
    split: Option<SplitBy>,
    /// Write the chosen games in export format (English SAN, the Seven Tag Roster first) instead of their
    /// own text
    #[arg(long)]
    normalise: bool,
    #[command(flatten)]
    output: OutputFlag,
    #[command(flatten)]
    lang: LangFlag,
    #[command(flatten)]
    run: RunFlags,
}

/// Where the chosen games go.
enum Destination {
    Stream(Output),
    Split(Splitter),
}

pub(crate) fn run(args: Args) -> i32 {
    let Some(opts) = options(&args) else {
        return 2;
    };
    let Some(sources) = inputs(&args.paths, &args.run) else {
        return 2;
    };
    let Some((out, duplicates)) = destinations(&args, &sources) else {
        return 2;
    };
    let threads = args.run.threads();
    let job = SelectJob::new(opts);
    let mut writer = Writer {
        out,
        duplicates,
        bar: progress_bar(&sources, args.run.quiet),
        counts: Counts::default(),
    };
    let started = Instant::now();
    let finished = crate::jobs::run::run(&sources, threads, &job, &mut writer);
    writer.bar.finish_and_clear();
    let finished = match finished {
        Ok(finished) => finished,
        Err(e) => return failure(&e),
    };
    let flushed = match &mut writer.out {
        Destination::Stream(o) if args.count => {
            writeln!(o, "{}", writer.counts.chosen).and_then(|()| o.flush())
        }
        Destination::Stream(o) => o.flush(),
        Destination::Split(s) => s.close_all(),
    };
    if let Err(e) = flushed {
        return write_failure(&e);
    }
    let missing = job.missing_tags(&finished.state);
    match warnings(&writer, &finished.totals, &missing, &sources) {
        Ok(()) => close(writer, &args, &finished.totals, started),
        Err(e) => write_failure(&e),
    }
}

/// The options of the run; `None` once a refusal is said.
fn options(args: &Args) -> Option<SelectOptions> {
    let mut opts =
        match SelectOptions::choosing(args.filter.as_deref(), &args.reaches, &args.material) {
            Ok(opts) => opts,
            Err(FilterError::Where(e)) => {
                let text = args.filter.as_deref().unwrap_or_default();
                let said = localized!(
                    locale(),
                    "pgnkit: --where: {}\n",
                    "pgnkit : --where : {}\n",
                    e.explain(locale())
                );
                let _ = say(&if e.over_budget {
                    // Refused for its size: the expression may be long, it is not shown again.
                    said
                } else {
                    format!("{said}  {text}\n  {}^\n", " ".repeat(e.column - 1))
                });
                return None;
            }
            // An EPD's four fields are read as a FEN's first four.
            Err(FilterError::Reaches { fen, error }) => {
                let _ = say(&format!("pgnkit: --reaches {fen:?}: {error}\n"));
                return None;
            }
            Err(FilterError::Material(e)) => {
                let _ = say(&format!("pgnkit: --material: {e}\n"));
                return None;
            }
        };
    opts.dedupe = args.dedupe;
    opts.lang = args.lang.lang.0;
    opts.normalise = args.normalise;
    opts.keep_text = !args.count;
    opts.split = args.split;
    Some(opts)
}

/// Where the chosen games and the duplicates go, every output checked against the others and the inputs
/// before anything is read or written; `None` once a refusal is said.
fn destinations(args: &Args, sources: &Sources) -> Option<(Destination, Option<Output>)> {
    let mut requests = Vec::new();
    if let Some(path) = &args.output.output {
        requests.push(Request {
            option: "-o",
            path,
            kind: if args.split.is_some() {
                Kind::Directory
            } else {
                Kind::File
            },
        });
    }
    if let Some(path) = &args.duplicates {
        requests.push(Request {
            option: "--duplicates",
            path,
            kind: Kind::File,
        });
    }
    let planned = match plan(&requests, sources) {
        Ok(planned) => planned,
        Err(refusal) => {
            let _ = say(&format!("pgnkit: {}\n", refusal.message(locale())));
            return None;
        }
    };
    let planned_output = args.output.output.as_ref().map(|_| &planned[0]);
    let planned_duplicates = args
        .duplicates
        .as_ref()
        .map(|_| &planned[planned.len() - 1]);
    let out = match (args.split, planned_output) {
        (Some(by), Some(dir)) => Destination::Split(Splitter::new(dir, by)?),
        (_, Some(file)) => Destination::Stream(open_planned(file)?),
        (_, None) => Destination::Stream(super::sink::open_output(None, sources)?),
    };
    let duplicates = match planned_duplicates {
        Some(file) => Some(open_planned(file)?),
        None => None,
    };
    Some((out, duplicates))
}

/// What the closing line counts.
#[derive(Default)]
struct Counts {
    games: u64,
    chosen: u64,
    duplicates: u64,
}

/// Where select writes as the run goes.
struct Writer {
    out: Destination,
    duplicates: Option<Output>,
    bar: indicatif::ProgressBar,
    counts: Counts,
}

impl Sink<SelectJob> for Writer {
    /// Writes a batch's chosen games, dropping (or diverting) the duplicates.
    fn batch(
        &mut self,
        input: Input<'_>,
        batch: &mut SelectBatch,
        _: &SelectState,
    ) -> Result<(), JobError> {
        let counts = &mut self.counts;
        counts.games += batch.games;
        let mut notes = String::new();
        let (out, mut duplicates) = (&mut self.out, self.duplicates.as_mut());
        self.bar.suspend(|| -> io::Result<()> {
            for chosen in &batch.chosen {
                let text = &batch.text[chosen.text.clone()];
                if chosen.duplicate {
                    counts.duplicates += 1;
                    if let Some(d) = duplicates.as_deref_mut() {
                        d.write_all(text)?;
                    }
                    continue;
                }
                counts.chosen += 1;
                if !chosen.notes.is_empty() {
                    notes.push_str(&notes_text(&chosen.notes, input.name, &Paint::new(false)));
                }
                match out {
                    Destination::Stream(o) => o.write_all(text)?,
                    Destination::Split(s) => s.write(chosen.group.as_deref(), text)?,
                }
            }
            Ok(())
        })?;
        if !notes.is_empty() {
            say_over(&self.bar, &notes)?;
        }
        show_games(&self.bar, counts.games);
        Ok(())
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        Ok(read_error(&self.bar, &error.to_string())?)
    }

    fn progress(&mut self, raw_bytes: u64) {
        self.bar.set_position(raw_bytes);
    }
}

/// The warnings of a finished run: no game at all; tags `--where` names that no game has.
fn warnings(
    writer: &Writer,
    totals: &RunTotals,
    missing: &[impl Explain],
    sources: &Sources,
) -> io::Result<()> {
    let games = writer.counts.games;
    if games == 0 && totals.read_errors == 0 {
        say(&format!("warning[no_games]: {}\n", no_games_text(sources)))?;
    }
    if games > 0 {
        say(&missing_tags_warnings(missing))?;
    }
    Ok(())
}

/// The closing line; the outputs put in place; the exit code.
fn close(writer: Writer, args: &Args, totals: &RunTotals, started: Instant) -> i32 {
    let counts = &writer.counts;
    if !args.run.quiet {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let dropped = if args.dedupe {
            format!(
                ", {} duplicate{} dropped",
                counts.duplicates,
                plural(counts.duplicates)
            )
        } else {
            String::new()
        };
        let files = match &writer.out {
            Destination::Split(s) => format!(
                ", written into {} file{} in {}",
                s.files(),
                plural(s.files()),
                args.output
                    .output
                    .as_deref()
                    .unwrap_or(Path::new("."))
                    .display()
            ),
            Destination::Stream(_) => String::new(),
        };
        let closing = format!(
            "pgnkit select: {} of {} games chosen{dropped}{files}; {:.1} MB in {:.2} s ({:.1} MB/s, {:.0} games/s)\n",
            counts.chosen,
            counts.games,
            totals.bytes as f64 / 1e6,
            secs,
            totals.bytes as f64 / 1e6 / secs,
            counts.games as f64 / secs
        );
        if let Err(e) = say(&closing) {
            return write_failure(&e);
        }
    }
    // 1 when nothing was chosen, as grep does: scripts can test for it.
    let code = exit_code(totals.read_errors, counts.chosen == 0);
    // The chosen games first: a split that cannot be put in place (its directory filled meanwhile) fails
    // the run, and the duplicates file is then left as it was too.
    let code = match writer.out {
        Destination::Stream(o) => o.close(code),
        Destination::Split(s) => s.finish(code),
    };
    match writer.duplicates {
        Some(d) => d.close(code).max(code),
        None => code,
    }
}

/// A warning for each tag `--where` names that no game of the run has, with the nearest tag name seen: a
/// misspelt tag is empty in every game, so the expression chose nothing without a word.
fn missing_tags_warnings(missing: &[impl Explain]) -> String {
    missing
        .iter()
        .map(|missing| {
            localized!(
                locale(),
                "warning[unknown_tag]: --where: {}\n",
                "avertissement[unknown_tag] : --where : {}\n",
                missing.explain(locale())
            )
        })
        .collect()
}
