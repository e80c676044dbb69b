//! `pgnkit validate`: replay every game, report each problem like a compiler would, exit non-zero on errors.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use crate::jobs::bulk::{self, Event};
use crate::jobs::pipeline::SpentBin;
use crate::jobs::validate::tournament::{DEFAULT_TRACKED_GAMES, MAX_TRACKED_GAMES};
use crate::jobs::validate::{
    GameReport, ProblemKind, Severity, Tournament, ValidateOptions, termination_name, validate_game,
};
use pgnkit::notation::Language;

use super::diagnostics::{GameLabel, render_problems};
use super::output::{
    BOLD, CYAN, ColorChoice, Paint, YELLOW, decimal_here, exit_code, inputs, locale, no_games_text,
    plural_here, progress_bar, read_error, say, say_over, show_games, threads, write_failure,
};
use crate::jobs::localized;
use crate::jobs::messages::Explain;
use crate::jobs::safe_text::safe;

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
    /// How many games the checks across inputs (duplicates, a player twice in a round, round numbering)
    /// follow before they stop and say so; each costs about 48 bytes of memory
    #[arg(long, value_name = "GAMES", default_value_t = DEFAULT_TRACKED_GAMES as u64,
          value_parser = clap::value_parser!(u64).range(1..=MAX_TRACKED_GAMES as u64))]
    track_games: u64,
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

/// What a worker hands back for one batch: each game's report and, in JSON mode, the records of them all.
struct BatchResult {
    games: Vec<GameReport>,
    /// With `--format json`: the games' records, one line each, as the worker wrote them (one buffer per batch:
    /// the output side writes it as it stands unless the tournament checks add to a game's problems).
    records: Vec<u8>,
    /// Where each game's record ends in `records`.
    record_ends: Vec<usize>,
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
            let entry = self.kinds.entry(p.kind()).or_insert(NoteTally {
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
            localized!(
                locale(),
                "{} {} in {} game{} (first {line}:{column}, game {game})",
                "{} {} dans {} partie{} (première {line}:{column}, partie {game})",
                kind.as_str(),
                tally.uses,
                tally.games,
                plural_here(tally.games)
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
            let s = plural_here(uses);
            let each = each.join(", ");
            parts.push(localized!(
                locale(),
                "{uses} non-standard spelling{s} read as meant (errors with --strict): {each}",
                "{uses} graphie{s} hors norme lue{s} comme voulu (erreurs avec --strict) : {each}"
            ));
        }
        for (kind, value) in other {
            parts.push(localized!(
                locale(),
                "text that is not UTF-8 read as Windows-1252: {}",
                "texte qui n'est pas en UTF-8 lu en Windows-1252 : {}",
                describe(kind, value)
            ));
        }
        format!(
            "{}{}{}{}{}\n\n",
            paint.show(CYAN, localized_str("note", "remarque")),
            colon(),
            safe(file),
            colon(),
            parts.join("; ")
        )
    }
}

/// `: ` in English, ` : ` in French (a space before the colon).
fn colon() -> &'static str {
    localized_str(": ", " : ")
}

/// One of two fixed texts, in the run's language.
fn localized_str(en: &'static str, fr: &'static str) -> &'static str {
    match locale() {
        crate::jobs::messages::Locale::En => en,
        crate::jobs::messages::Locale::Fr => fr,
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
        messages: locale(),
    };
    let jobs = threads(args.jobs, args.quiet);
    let json = args.format == Format::Json;
    let paint = Paint::new(args.color.enabled(false));
    let bar = progress_bar(&sources, args.quiet);
    let names: Vec<std::sync::Arc<str>> = sources.iter().map(|s| s.display_name().into()).collect();
    let started = Instant::now();
    let mut summary = RunTotals::default();
    let mut tournament = Tournament::new_in(locale()).with_limit(args.track_games as usize);
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
            let (mut records, mut record_ends) = (Vec::new(), Vec::new());
            if json {
                // A record usually takes less room than the game it describes: with room for the batch's bytes
                // the buffer is not moved to a larger one (which would hold both for a while). The room not
                // written to is never touched, so it costs no memory.
                records.reserve(reader.remaining());
            }
            while let Some(group) = reader.next_group() {
                // A group's games are all checked, then all written: each step's code serves the whole
                // group while it is in the instruction cache.
                let first = games.len();
                for game in group {
                    games.push(validate_game(game, &names[source], &opts));
                }
                if json {
                    for report in &games[first..] {
                        // A record that cannot be written is an empty line, nothing half-written.
                        let start = records.len();
                        if serde_json::to_writer(&mut records, &report.record(opts.messages))
                            .is_err()
                        {
                            records.truncate(start);
                        }
                        records.push(b'\n');
                        record_ends.push(records.len());
                    }
                }
            }
            BatchResult {
                games,
                records,
                record_ends,
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
                Event::Batch { result, .. } => emit_batch(
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
                ),
                Event::Error { message, .. } => {
                    summary.io_errors += 1;
                    read_error(&bar, &message)
                }
                Event::End { source, bytes } => {
                    summary.bytes += bytes;
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
                                &localized!(
                                    locale(),
                                    "pgnkit: {}: more than {} game{} in this run; duplicate, round and round-numbering checks stopped there (--track-games GAMES follows more)\n",
                                    "pgnkit : {} : plus de {} partie{} dans cette exécution ; les contrôles de doublons, de rondes et de numérotation des rondes s'arrêtent là (--track-games PARTIES en suit davantage)\n",
                                    safe(&names[source]),
                                    tournament.limit(),
                                    if tournament.limit() == 1 { "" } else { "s" }
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
        paint.push(
            YELLOW,
            localized_str("warning[no_games]", "avertissement[no_games]"),
            &mut text,
        );
        text.push_str(colon());
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
    spent: &SpentBin<(Vec<GameReport>, Vec<u8>, Vec<usize>)>,
) -> io::Result<()> {
    // The batch's output is gathered, then written at once: one pause of the progress bar per batch. With JSON,
    // the worker's records are written as they stand unless a game's problems grew here; from that game on,
    // the records are gathered in `text`.
    let mut text = String::new();
    let mut games = result.games;
    let records = &result.records;
    let mut rewritten = false;
    for (i, report) in games.iter_mut().enumerate() {
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
            let record = record_range(&result.record_ends, i);
            if added && !rewritten {
                rewritten = true;
                // serde_json writes UTF-8: nothing is replaced.
                text.push_str(&String::from_utf8_lossy(&records[..record.start]));
            }
            if added {
                text.push_str(
                    &serde_json::to_string(&report.record(opts.messages)).unwrap_or_default(),
                );
                text.push('\n');
            } else if rewritten {
                text.push_str(&String::from_utf8_lossy(&records[record]));
            }
        } else if !report.problems.is_empty() {
            render_problems(&GameLabel::of(report), &report.problems, paint, &mut text);
        }
    }
    show_games(bar, summary.games);
    let written = if json && !rewritten {
        bar.suspend(|| out.write_all(records))
    } else if text.is_empty() {
        Ok(())
    } else {
        bar.suspend(|| out.write_all(text.as_bytes()))
    };
    // The reports and records were built on a worker: freed there too (see SpentBin).
    spent.put(result.maker, (games, result.records, result.record_ends));
    written
}

/// Where game `i`'s record is in a batch's records, from where each ends.
fn record_range(ends: &[usize], i: usize) -> std::ops::Range<usize> {
    let start = if i == 0 { 0 } else { ends[i - 1] };
    start..ends[i]
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
    let locale = locale();
    let (games, plies, in_variations) = (s.games, s.plies, s.variation_moves);
    let mb_per_s = decimal_here(s.bytes as f64 / secs / 1e6, 1);
    let games_per_s = s.games as f64 / secs;
    let elapsed = decimal_here(elapsed, 2);
    let g = plural_here(s.games);
    let mut text = localized!(
        locale,
        "{} {games} game{g}, {plies} half-moves in the main lines and {in_variations} in variations, in {elapsed} s ({mb_per_s} MB/s, {games_per_s:.0} games/s)\n",
        "{} {games} partie{g}, {plies} demi-coups dans les lignes principales et {in_variations} dans les variantes, en {elapsed} s ({mb_per_s} Mo/s, {games_per_s:.0} parties/s)\n",
        paint.bold(localized_str("validated", "validé :"))
    );
    let verdict = if s.errors == 0 {
        paint.bold(localized_str("no errors", "aucune erreur"))
    } else {
        let (errors, in_games) = (s.errors, s.games_with_errors);
        let (e, g) = (plural_here(errors), plural_here(in_games));
        paint.error(&localized!(
            locale,
            "{errors} error{e} in {in_games} game{g}",
            "{errors} erreur{e} dans {in_games} partie{g}"
        ))
    };
    let warnings = s.warnings;
    let w = plural_here(warnings);
    text.push_str(&localized!(
        locale,
        "{verdict}, {warnings} warning{w}",
        "{verdict}, {warnings} avertissement{w}"
    ));
    if s.notes > 0 {
        let notes = s.notes;
        let n = plural_here(notes);
        text.push_str(&localized!(
            locale,
            ", {notes} note{n}",
            ", {notes} remarque{n}"
        ));
    }
    text.push('\n');
    let endings: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, v)| format!("{} {v}", ending_name(k)))
        .collect();
    if !endings.is_empty() {
        let endings = endings.join(", ");
        text.push_str(&localized!(
            locale,
            "endings: {endings}\n",
            "fins : {endings}\n"
        ));
    }
    if !s.claimable.is_empty() {
        let claims: Vec<String> = s
            .claimable
            .iter()
            .map(|(k, v)| format!("{} {v}", claim_name(k)))
            .collect();
        let claims = claims.join(", ");
        text.push_str(&localized!(
            locale,
            "draw claimable at the end: {claims}\n",
            "nulle réclamable à la fin : {claims}\n"
        ));
    }
    if s.io_errors > 0 {
        let n = s.io_errors;
        let p = plural_here(n);
        text.push_str(&paint.error(&localized!(
            locale,
            "{n} input{p} could not be read\n",
            "{n} entrée{p} illisible{p}\n"
        )));
    }
    text
}

/// A termination's name in the summary: the JSON name in English (`checkmate`, `none`), words in French.
fn ending_name(name: &str) -> String {
    use pgnkit::core::Termination;
    if locale() == crate::jobs::messages::Locale::En {
        return name.to_string();
    }
    [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::SeventyFiveMoves,
        Termination::FivefoldRepetition,
    ]
    .into_iter()
    .find(|t| t.as_str() == name)
    .map_or_else(|| "aucune".to_string(), |t| t.explain(locale()))
}

/// A draw claim's name in the summary (the JSON name in English).
fn claim_name(name: &str) -> &str {
    match (locale(), name) {
        (crate::jobs::messages::Locale::Fr, "threefold_repetition") => "triple répétition",
        (crate::jobs::messages::Locale::Fr, "fifty_moves") => "règle des 50 coups",
        _ => name,
    }
}
