//! `pgnkit validate`: replay every game, report each problem like a compiler would, exit non-zero on errors.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::jobs::options::ReportFormat;
use crate::jobs::run::{Finished, Input, JobError, ReadError, RunTotals, Sink, Sources};
use crate::jobs::validate::{
    DEFAULT_TRACKED_GAMES, GameReport, MAX_TRACKED_GAMES, Pairings, Problem, ProblemKind, Severity,
    Tournament, ValidateJob, ValidateOptions, ValidatedBatch, termination_name,
};

use super::diagnostics::{GameLabel, render_file_problems, render_problems};
use super::output::{
    BOLD, CYAN, ColorChoice, LangFlag, Paint, RunFlags, UnplayedFlags, YELLOW, choice,
    decimal_here, exit_code, failure, inputs, locale, no_games_text, plural_here, progress_bar,
    read_error, say, say_over, show_games, unread_inputs, write_failure,
};
use crate::jobs::localized;
use crate::jobs::messages::Explain;
use crate::jobs::safe_text::safe;

#[derive(clap::Args)]
#[command(mut_arg("quiet", |a| a.help("No progress bar, no summary")))]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst, .parquet); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, default_value = "human", value_parser = choice::<ReportFormat>())]
    format: ReportFormat,
    #[command(flatten)]
    lang: LangFlag,
    /// When to use colours
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(flatten)]
    run: RunFlags,
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
    #[command(flatten)]
    unplayed: UnplayedFlags,
    /// Compare the games with a pairing program's report (TRF-16 or TRF-26): every game a pairing of its
    /// round with the same colours and result, every pairing played a game, byes and forfeits alike
    #[arg(long, value_name = "FILE")]
    pairings: Option<PathBuf>,
}

/// The TRF of `--pairings`, read; `None` once said why not (exit 2): a file that cannot be read, or a TRF
/// error with its line and column.
pub(crate) fn read_pairings(path: &Path) -> Option<Arc<Pairings>> {
    let name = path.display().to_string();
    let read = std::fs::read(path).map_err(|e| format!("{}: {e}", safe(&name)));
    match read.and_then(|bytes| {
        Pairings::read(&name, &bytes).map_err(|e| safe(&e.explain(locale())).into_owned())
    }) {
        Ok(pairings) => Some(Arc::new(pairings)),
        Err(message) => {
            let _ = say(&format!("pgnkit: --pairings: {message}\n"));
            None
        }
    }
}

/// The problems of the pairings (the TRF `trf`) that no game answered, after the games' diagnostics; how
/// many.
pub(crate) fn pairing_text(
    trf: &Path,
    problems: &[Problem],
    paint: &Paint,
    text: &mut String,
) -> u64 {
    let problems: Vec<&Problem> = problems.iter().collect();
    render_file_problems(&trf.display().to_string(), &problems, paint, text);
    problems.iter().map(|p| p.times()).sum()
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
        let (tournament, rest): (Vec<_>, Vec<_>) = self.kinds.iter().partition(|(kind, _)| {
            matches!(
                kind,
                ProblemKind::Forfeit
                    | ProblemKind::UnratedGame
                    | ProblemKind::Bye
                    | ProblemKind::FideIdNameVariant
            )
        });
        let (spellings, other): (Vec<_>, Vec<_>) = rest
            .into_iter()
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
        if !tournament.is_empty() {
            let each: Vec<String> = tournament.iter().map(|(k, v)| describe(k, v)).collect();
            let each = each.join(", ");
            parts.push(localized!(
                locale(),
                "games of a tournament read as not played over the board, or players by FIDE id: {each}",
                "parties d'un tournoi lues comme non jouées sur l'échiquier, ou joueurs par identifiant FIDE : {each}"
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

/// What the summary counts.
#[derive(Default)]
struct Counts {
    games: u64,
    plies: u64,
    variation_moves: u64,
    errors: u64,
    warnings: u64,
    notes: u64,
    games_with_errors: u64,
    terminations: BTreeMap<&'static str, u64>,
    claimable: BTreeMap<&'static str, u64>,
}

impl Counts {
    fn add(&mut self, report: &GameReport) {
        self.games += 1;
        self.plies += u64::from(report.plies);
        self.variation_moves += u64::from(report.variation_moves);
        let errors = report.count(Severity::Error);
        self.errors += errors;
        self.warnings += report.count(Severity::Warning);
        self.notes += report.count(Severity::Note);
        self.games_with_errors += u64::from(errors > 0);
        *self
            .terminations
            .entry(termination_name(report.termination))
            .or_default() += 1;
        for claim in &report.claimable {
            *self.claimable.entry(claim.as_str()).or_default() += 1;
        }
    }
}

pub(crate) fn run(args: Args) -> i32 {
    let Some(sources) = inputs(&args.paths, &args.run) else {
        return 2;
    };
    let json = args.format == ReportFormat::Json;
    let opts = ValidateOptions {
        lang: args.lang.lang.0,
        finished: args.finished,
        tag_checks: !args.no_tournament_checks,
        track_claims: true,
        final_fen: json,
        strict: args.strict,
        report_tags: true,
        messages: locale(),
        unplayed: args.unplayed.rules(),
    };
    let threads = args.run.threads();
    let mut job = ValidateJob::new(opts, json, args.track_games as usize, threads);
    if let Some(path) = &args.pairings {
        let Some(pairings) = read_pairings(path) else {
            return 2;
        };
        job = job.with_pairings(pairings);
    }
    let stdout = io::stdout();
    let mut printer = Printer {
        out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        bar: progress_bar(sources.list(), args.run.quiet),
        paint: Paint::new(args.color.enabled(false)),
        json,
        quiet: args.run.quiet,
        counts: Counts::default(),
        file_notes: FileNotes::default(),
        track_games: args.track_games as usize,
        said_saturated: false,
    };
    let started = Instant::now();
    let finished = crate::jobs::run::run(&sources, threads, &job, &mut printer);
    printer.bar.finish_and_clear();
    match finished {
        Ok(finished) => close(printer, finished, &args, &sources, started),
        Err(e) => failure(&e),
    }
}

/// What validate says as the run goes: each batch's diagnostics or records, each file's notes.
struct Printer<'o> {
    out: io::BufWriter<io::StdoutLock<'o>>,
    bar: indicatif::ProgressBar,
    paint: Paint,
    json: bool,
    quiet: bool,
    counts: Counts,
    file_notes: FileNotes,
    /// The most games the checks across games follow (`--track-games`, which the job was given).
    track_games: usize,
    said_saturated: bool,
}

impl Sink<ValidateJob> for Printer<'_> {
    fn start(&mut self, _: Input<'_>, _: &Tournament) -> Result<(), JobError> {
        self.file_notes = FileNotes::default();
        Ok(())
    }

    fn batch(
        &mut self,
        _: Input<'_>,
        batch: &mut ValidatedBatch,
        _: &Tournament,
    ) -> Result<(), JobError> {
        // The batch's output is gathered, then written at once: one pause of the progress bar per batch.
        let mut text = String::new();
        for report in &batch.games {
            self.counts.add(report);
            self.file_notes.add(report);
            if !self.json && !report.problems.is_empty() {
                render_problems(
                    &GameLabel::of(report),
                    &report.problems,
                    &self.paint,
                    &mut text,
                );
            }
        }
        show_games(&self.bar, self.counts.games);
        let (out, bar) = (&mut self.out, &self.bar);
        let written = if self.json {
            bar.suspend(|| out.write_all(&batch.records))
        } else if text.is_empty() {
            Ok(())
        } else {
            bar.suspend(|| out.write_all(text.as_bytes()))
        };
        Ok(written?)
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        Ok(read_error(&self.bar, &error.to_string())?)
    }

    fn end(&mut self, input: Input<'_>, _: u64, tournament: &Tournament) -> Result<(), JobError> {
        let notes = self.file_notes.line(input.name, &self.paint);
        if !(self.json || self.quiet || notes.is_empty()) {
            let out = &mut self.out;
            self.bar.suspend(|| out.write_all(notes.as_bytes()))?;
        }
        if tournament.saturated && !self.said_saturated && !self.quiet {
            self.said_saturated = true;
            say_over(&self.bar, &saturated_text(input.name, self.track_games))?;
        }
        Ok(())
    }

    fn progress(&mut self, raw_bytes: u64) {
        self.bar.set_position(raw_bytes);
    }
}

/// Said once the checks across games follow no more games.
fn saturated_text(name: &str, limit: usize) -> String {
    localized!(
        locale(),
        "pgnkit: {}: more than {} game{} in this run; duplicate, round and round-numbering checks stopped there (--track-games GAMES follows more)\n",
        "pgnkit : {} : plus de {} partie{} dans cette exécution ; les contrôles de doublons, de rondes et de numérotation des rondes s'arrêtent là (--track-games PARTIES en suit davantage)\n",
        safe(name),
        limit,
        if limit == 1 { "" } else { "s" }
    )
}

/// The end of a run: the findings about whole tournaments, the warning of a run without games, the summary;
/// the exit code.
fn close(
    mut printer: Printer<'_>,
    finished: Finished<Tournament>,
    args: &Args,
    sources: &Sources,
    started: Instant,
) -> i32 {
    let elapsed = started.elapsed().as_secs_f64();
    let json = printer.json;
    // The records are all out before the summary says how the run went.
    if json && let Err(e) = printer.out.flush() {
        return write_failure(&e);
    }
    let counts = &mut printer.counts;
    let out = &mut printer.out;
    // Findings about whole tournaments (round numbering), known only now: after the diagnostics, or on
    // stderr beside JSON records, whose stdout holds one object per game and nothing else.
    let mut text = String::new();
    if let Some(trf) = &args.pairings {
        let paint = Paint::new(args.color.enabled(json));
        let problems = finished.state.pairing_problems();
        counts.errors += pairing_text(trf, &problems, &paint, &mut text);
    }
    if !args.no_tournament_checks {
        let paint = Paint::new(args.color.enabled(json));
        for w in &finished.state.finish() {
            let label = GameLabel {
                file: &w.file,
                game: w.game,
                white: "",
                black: "",
                round: &w.round,
            };
            render_problems(&label, std::slice::from_ref(&w.problem), &paint, &mut text);
            counts.warnings += w.problem.times();
        }
    }
    // No game at all is no clean pass: a warning (with the diagnostics, or on stderr beside JSON records).
    let no_games = counts.games == 0 && finished.totals.read_errors == 0;
    if no_games {
        counts.warnings += 1;
        text.push_str(&no_games_line(
            sources,
            Paint::new(args.color.enabled(json)),
        ));
    }
    if !args.run.quiet {
        text.push_str(&summary_text(
            counts,
            &finished.totals,
            elapsed,
            &printer.paint,
        ));
    }
    if let Err(e) = say_or_write(json, out, &text).and_then(|()| out.flush()) {
        return write_failure(&e);
    }
    exit_code(
        finished.totals.read_errors,
        counts.errors > 0 || (args.strict && counts.warnings > 0) || no_games,
    )
}

/// `warning[no_games]` and what was read.
fn no_games_line(sources: &Sources, paint: Paint) -> String {
    let mut text = String::new();
    paint.push(
        YELLOW,
        localized_str("warning[no_games]", "avertissement[no_games]"),
        &mut text,
    );
    text.push_str(colon());
    paint.push(BOLD, &no_games_text(sources.list()), &mut text);
    text.push('\n');
    text
}

/// Text after the records: on stderr in JSON mode (stdout holds only records), else on stdout.
fn say_or_write(json: bool, out: &mut impl Write, text: &str) -> io::Result<()> {
    if json {
        say(text)
    } else {
        out.write_all(text.as_bytes())
    }
}

fn summary_text(s: &Counts, totals: &RunTotals, elapsed: f64, paint: &Paint) -> String {
    let secs = elapsed.max(1e-9);
    let locale = locale();
    let (games, plies, in_variations) = (s.games, s.plies, s.variation_moves);
    let mb_per_s = decimal_here(totals.bytes as f64 / secs / 1e6, 1);
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
    if totals.read_errors > 0 {
        text.push_str(&paint.error(&unread_inputs(totals.read_errors)));
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
