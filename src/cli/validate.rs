//! `pgnkit validate`: replay every game, report each problem like a compiler would, exit non-zero on errors.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use crate::jobs::bulk::{self, Event};
use crate::jobs::pipeline::SpentBin;
use crate::jobs::validate::{
    GameReport, ProblemKind, Severity, Tournament, ValidateOptions, termination_name, validate_game,
};
use pgnkit::notation::Language;

use super::diagnostics::{GameLabel, escape_controls, render_problems};
use super::output::{
    BOLD, CYAN, ColorChoice, Paint, YELLOW, exit_code, inputs, no_games_text, plural, progress_bar,
    read_error, say, say_over, show_games, threads, write_failure,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Diagnostics with the source line and a caret, then a summary
    Human,
    /// One JSON object per game (JSON lines); the summary goes to stderr
    Json,
}

#[derive(clap::Args)]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Piece letters of the moves: `auto` detects them per game, or a language code (en, fr, de, nl, es, it,
    /// pt, cs, pl, hu, fi, ro, da, no, sv, figurine)
    #[arg(long, default_value = "auto", value_parser = parse_lang)]
    lang: LangArg,
    /// When to use colours
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Worker threads (default, or 0: all cores; at most one per core)
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No progress bar, no summary
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Exit with 1 on warnings too
    #[arg(long)]
    strict: bool,
    /// The file is said to be complete: an unfinished game (`*`) is worth a warning
    #[arg(long)]
    finished: bool,
    /// Skip the tournament checks (tags: Seven Tag Roster, formats, PlyCount, dates; across all inputs:
    /// duplicates, a player twice in a round, round numbering)
    #[arg(long)]
    no_tournament_checks: bool,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct LangArg(pub Option<Language>);

pub(crate) fn parse_lang(s: &str) -> Result<LangArg, String> {
    if s.eq_ignore_ascii_case("auto") {
        return Ok(LangArg(None));
    }
    Language::from_code(&s.to_ascii_lowercase())
        .map(|l| LangArg(Some(l)))
        .ok_or_else(|| {
            let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
            format!(
                "unknown language '{s}': use auto or one of {}",
                codes.join(", ")
            )
        })
}

/// What a worker hands back for one batch: each game's report and, in JSON mode, its serialised line.
struct BatchResult {
    games: Vec<(GameReport, Option<String>)>,
    bytes: u64,
    /// The thread that built the reports, to free them (see [`SpentBin`]).
    maker: std::thread::ThreadId,
}

/// The notes of one file's games, said in one line when the file ends: a note per use would drown the
/// diagnostics that matter.
#[derive(Default)]
struct FileNotes {
    kinds: BTreeMap<ProblemKind, NoteTally>,
}

/// One kind of note in a file.
struct NoteTally {
    games: u64,
    uses: u64,
    /// The first use's line, column and game.
    first: (u64, u64, u64),
}

impl FileNotes {
    fn add(&mut self, report: &GameReport) {
        for p in report
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Note)
        {
            let entry = self.kinds.entry(p.kind).or_insert(NoteTally {
                games: 0,
                uses: 0,
                first: (p.line, p.column, report.game),
            });
            entry.games += 1;
            entry.uses += p.times();
        }
    }

    /// The line for `file` (nothing when no game had a note).
    fn line(&self, file: &str, paint: &Paint) -> String {
        if self.kinds.is_empty() {
            return String::new();
        }
        let describe = |kind: &ProblemKind, tally: &NoteTally| {
            let (line, column, game) = tally.first;
            format!(
                "{} {} in {} game{} (first {line}:{column}, game {game})",
                kind.as_str(),
                tally.uses,
                tally.games,
                plural(tally.games)
            )
        };
        let (spellings, other): (Vec<_>, Vec<_>) = self
            .kinds
            .iter()
            .partition(|(kind, _)| **kind != ProblemKind::Windows1252Text);
        let mut parts = Vec::new();
        if !spellings.is_empty() {
            let uses: u64 = spellings.iter().map(|(_, k)| k.uses).sum();
            let each: Vec<String> = spellings.iter().map(|(k, v)| describe(k, v)).collect();
            parts.push(format!(
                "{uses} non-standard spelling{} read as meant (errors with --strict): {}",
                plural(uses),
                each.join(", ")
            ));
        }
        for (kind, value) in other {
            parts.push(format!(
                "text that is not UTF-8 read as Windows-1252: {}",
                describe(kind, value)
            ));
        }
        format!(
            "{}: {}: {}\n\n",
            paint.show(CYAN, "note"),
            escape_controls(file),
            parts.join("; ")
        )
    }
}

#[derive(Default)]
struct RunTotals {
    games: u64,
    plies: u64,
    variation_moves: u64,
    errors: u64,
    warnings: u64,
    notes: u64,
    games_with_errors: u64,
    bytes: u64,
    terminations: BTreeMap<&'static str, u64>,
    claimable: BTreeMap<&'static str, u64>,
    io_errors: u64,
}

pub(crate) fn run(args: Args) -> i32 {
    let Some(sources) = inputs(&args.paths) else {
        return 2;
    };
    let opts = ValidateOptions {
        lang: args.lang.0,
        finished: args.finished,
        tag_checks: !args.no_tournament_checks,
        track_claims: true,
        final_fen: args.format == Format::Json,
        strict: args.strict,
        report_tags: true,
    };
    let jobs = threads(args.jobs, args.quiet);
    let json = args.format == Format::Json;
    let paint = Paint::new(args.color.enabled(false));
    let bar = progress_bar(&sources, args.quiet);
    let names: Vec<std::sync::Arc<str>> = sources.iter().map(|s| s.display_name().into()).collect();
    let started = Instant::now();
    let mut summary = RunTotals::default();
    let mut tournament = Tournament::new();
    let mut said_saturated = false;
    let mut file_notes = FileNotes::default();
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());

    let spent = SpentBin::new(jobs);
    let stopped = bulk::run(
        &sources,
        jobs,
        bulk::BATCH_SIZE,
        |source, reader| {
            spent.empty();
            let mut games = Vec::new();
            let mut bytes = 0;
            while let Some(game) = reader.next_game() {
                bytes += game.source.len() as u64;
                let report = validate_game(game, &names[source], &opts);
                let line = json.then(|| serde_json::to_string(&report).unwrap_or_default());
                games.push((report, line));
            }
            BatchResult {
                games,
                bytes,
                maker: std::thread::current().id(),
            }
        },
        |event| {
            let written = match event {
                // The tournament checks run across files: a tournament kept as one file per round is one
                // tournament.
                Event::Start { .. } => {
                    file_notes = FileNotes::default();
                    Ok(())
                }
                Event::Batch { result, .. } => {
                    summary.bytes += result.bytes;
                    emit_batch(
                        result,
                        &mut out,
                        &mut summary,
                        &mut tournament,
                        &mut file_notes,
                        &opts,
                        json,
                        &paint,
                        &bar,
                        &spent,
                    )
                }
                Event::Error { message, .. } => {
                    summary.io_errors += 1;
                    read_error(&bar, &message)
                }
                Event::End { source } => {
                    let notes = file_notes.line(&names[source], &paint);
                    let written = if json || args.quiet || notes.is_empty() {
                        Ok(())
                    } else {
                        bar.suspend(|| out.write_all(notes.as_bytes()))
                    };
                    if tournament.saturated && !said_saturated && !args.quiet {
                        said_saturated = true;
                        written.and_then(|()| {
                            say_over(
                                &bar,
                                &format!(
                                    "pgnkit: {}: more than {} games in this run; duplicate, round and round-numbering checks stopped there\n",
                                    names[source],
                                    crate::jobs::validate::tournament::MAX_TRACKED_GAMES
                                ),
                            )
                        })
                    } else {
                        written
                    }
                }
            };
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => ControlFlow::Break(e),
            }
        },
        |bytes| bar.set_position(bytes),
    );
    bar.finish_and_clear();
    if let Some(e) = stopped {
        return write_failure(&e);
    }
    let elapsed = started.elapsed().as_secs_f64();
    // The records are all out before the summary says how the run went.
    if json && let Err(e) = out.flush() {
        return write_failure(&e);
    }
    // Findings about whole tournaments (round numbering), known only now: after the diagnostics, or on
    // stderr beside JSON records, whose stdout holds one object per game and nothing else.
    if opts.tag_checks {
        let warnings = tournament.finish();
        if !warnings.is_empty() {
            let paint = Paint::new(args.color.enabled(json));
            let mut text = String::new();
            for w in &warnings {
                let label = GameLabel {
                    file: &w.file,
                    game: w.game,
                    white: "",
                    black: "",
                    round: &w.round,
                };
                render_problems(&label, std::slice::from_ref(&w.problem), &paint, &mut text);
                summary.warnings += w.problem.times();
            }
            if let Err(e) = say_or_write(json, &mut out, &text) {
                return write_failure(&e);
            }
        }
    }
    // No game at all is no clean pass: a warning (with the diagnostics, or on stderr beside JSON records).
    let no_games = summary.games == 0 && summary.io_errors == 0;
    if no_games {
        summary.warnings += 1;
        let paint = Paint::new(args.color.enabled(json));
        let mut text = String::new();
        paint.push(YELLOW, "warning[no_games]", &mut text);
        text.push_str(": ");
        paint.push(BOLD, &no_games_text(&sources), &mut text);
        text.push('\n');
        if let Err(e) = say_or_write(json, &mut out, &text) {
            return write_failure(&e);
        }
    }
    if !args.quiet {
        let text = summary_text(&summary, elapsed, &paint);
        if let Err(e) = say_or_write(json, &mut out, &text) {
            return write_failure(&e);
        }
    }
    if let Err(e) = out.flush() {
        return write_failure(&e);
    }
    exit_code(
        summary.io_errors,
        summary.errors > 0 || (args.strict && summary.warnings > 0) || no_games,
    )
}

#[allow(clippy::too_many_arguments)]
fn emit_batch(
    result: BatchResult,
    out: &mut impl Write,
    summary: &mut RunTotals,
    tournament: &mut Tournament,
    file_notes: &mut FileNotes,
    opts: &ValidateOptions,
    json: bool,
    paint: &Paint,
    bar: &indicatif::ProgressBar,
    spent: &SpentBin<Vec<(GameReport, Option<String>)>>,
) -> io::Result<()> {
    // The batch's output is gathered, then written at once: one pause of the progress bar per batch.
    let mut text = String::new();
    let mut games = result.games;
    for (report, line) in &mut games {
        let added = opts.tag_checks && tournament.check(report);
        summary.games += 1;
        summary.plies += u64::from(report.plies);
        summary.variation_moves += u64::from(report.variation_moves);
        let errors = report.errors();
        summary.errors += errors;
        summary.warnings += report.warnings();
        summary.notes += report.notes();
        file_notes.add(report);
        summary.games_with_errors += u64::from(errors > 0);
        *summary
            .terminations
            .entry(termination_name(report.termination))
            .or_default() += 1;
        for claim in &report.claimable {
            *summary.claimable.entry(claim.as_str()).or_default() += 1;
        }
        if json {
            match line {
                Some(line) if !added => text.push_str(line),
                _ => text.push_str(&serde_json::to_string(&report).unwrap_or_default()),
            }
            text.push('\n');
        } else if !report.problems.is_empty() {
            render_problems(&GameLabel::of(report), &report.problems, paint, &mut text);
        }
    }
    show_games(bar, summary.games);
    // The reports were built on a worker: freed there too (see SpentBin).
    spent.put(result.maker, games);
    if text.is_empty() {
        return Ok(());
    }
    bar.suspend(|| out.write_all(text.as_bytes()))
}

/// Text after the records: on stderr in JSON mode (stdout holds only records), else on stdout.
fn say_or_write(json: bool, out: &mut impl Write, text: &str) -> io::Result<()> {
    if json {
        say(text)
    } else {
        out.write_all(text.as_bytes())
    }
}

fn summary_text(s: &RunTotals, elapsed: f64, paint: &Paint) -> String {
    let secs = elapsed.max(1e-9);
    let mut text = format!(
        "{} {} game{}, {} half-moves in the main lines and {} in variations, in {:.2} s ({:.1} MB/s, {:.0} games/s)\n",
        paint.bold("validated"),
        s.games,
        plural(s.games),
        s.plies,
        s.variation_moves,
        elapsed,
        s.bytes as f64 / secs / 1e6,
        s.games as f64 / secs
    );
    let verdict = if s.errors == 0 {
        paint.bold("no errors")
    } else {
        paint.error(&format!(
            "{} error{} in {} game{}",
            s.errors,
            plural(s.errors),
            s.games_with_errors,
            plural(s.games_with_errors)
        ))
    };
    text.push_str(&format!(
        "{verdict}, {} warning{}",
        s.warnings,
        plural(s.warnings)
    ));
    if s.notes > 0 {
        text.push_str(&format!(", {} note{}", s.notes, plural(s.notes)));
    }
    text.push('\n');
    let endings: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    if !endings.is_empty() {
        text.push_str(&format!("endings: {}\n", endings.join(", ")));
    }
    if !s.claimable.is_empty() {
        let claims: Vec<String> = s
            .claimable
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        text.push_str(&format!(
            "draw claimable at the end: {}\n",
            claims.join(", ")
        ));
    }
    if s.io_errors > 0 {
        text.push_str(&paint.error(&format!(
            "{} input{} could not be read\n",
            s.io_errors,
            plural(s.io_errors)
        )));
    }
    text
}
