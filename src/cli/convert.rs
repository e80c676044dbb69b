//! `pgnkit convert`: every game replayed and written again in export-format PGN (moves in canonical SAN of
//! any language, LAN or UCI), JSON lines or EPD; games that cannot be converted are never dropped silently.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use crate::jobs::convert::{BatchOutput, ConvertJob, ConvertOptions, Note};
use crate::jobs::options::{Lang, Letters, Notation, OutputFormat, Strip};
use crate::jobs::run::{Input, JobError, ReadError, RunTotals, Sink, Sources};

use super::diagnostics::{GameLabel, render_problems};
use super::output::{
    CYAN, ColorChoice, OutputFlag, Paint, RunFlags, choice, decimal_here, exit_code, failure,
    inputs, locale, no_games_warning, plural_here, progress_bar, read_error, say, say_over,
    show_games, unread_inputs, write_failure,
};
use super::sink::{Output, open_output};
use crate::jobs::localized;

#[derive(clap::Args)]
#[command(mut_arg("quiet", |a| a.help("No progress bar, no summary (diagnostics are still printed)")))]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst, .parquet); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Piece letters to write: en, fr, de, nl, es, it, pt, cs, pl, hu, fi, ro, da, no, sv, or figurine
    #[arg(long, default_value = "en")]
    to: Letters,
    /// Piece letters of the input: `auto` detects them per game, or a language code
    #[arg(long, default_value = "auto")]
    from: Lang,
    /// How moves are written in PGN output
    #[arg(long, default_value = "san", value_parser = choice::<Notation>())]
    notation: Notation,
    /// What to leave out, comma-separated
    #[arg(long, value_delimiter = ',', value_parser = choice::<Strip>())]
    strip: Vec<Strip>,
    /// Output format
    #[arg(long, default_value = "pgn", value_parser = choice::<OutputFormat>())]
    output_format: OutputFormat,
    /// Set the ECO, Opening and Variation tags to the opening the moves reach (the embedded lichess table:
    /// the latest named position of the main line); a game that reaches none keeps its tags. PGN output only
    #[arg(long)]
    add_opening: bool,
    /// Leave out games that cannot be converted (they are counted; the exit code is still 1)
    #[arg(long)]
    skip_invalid: bool,
    /// Convert a game whose main line does not replay with its certain repair (as `pgnkit repair` makes it,
    /// a comment at the correction saying what was written); a game without one is not converted
    #[arg(long)]
    repair: bool,
    #[command(flatten)]
    output: OutputFlag,
    #[command(flatten)]
    run: RunFlags,
    /// When to colour the diagnostics (on stderr)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

/// What the summary counts.
#[derive(Default)]
struct Counts {
    games: u64,
    converted: u64,
    repaired: u64,
    kept: u64,
    skipped: u64,
}

pub(crate) fn run(args: Args) -> i32 {
    let job = match ConvertJob::new(ConvertOptions {
        messages: locale(),
        to: args.to.0,
        from: args.from.0,
        notation: args.notation,
        format: args.output_format,
        keep: Strip::keep(&args.strip),
        skip_invalid: args.skip_invalid,
        add_opening: args.add_opening,
        repair: args.repair,
    }) {
        Ok(job) => job,
        Err(refused) => return failure(&JobError::Usage(refused)),
    };
    let Some(sources) = inputs(&args.paths, &args.run) else {
        return 2;
    };
    let Some(out) = open_output(args.output.output.as_deref(), &sources) else {
        return 2;
    };
    let threads = args.run.threads();
    let mut writer = Writer {
        out,
        bar: progress_bar(&sources, args.run.quiet),
        paint: Paint::new(args.color.enabled(true)),
        counts: Counts::default(),
    };
    let started = Instant::now();
    let finished = crate::jobs::run::run(&sources, threads, &job, &mut writer);
    writer.bar.finish_and_clear();
    let totals = match finished.and_then(|f| Ok(writer.out.flush().map(|()| f.totals)?)) {
        Ok(totals) => totals,
        Err(e) => return failure(&e),
    };
    close(writer, &totals, &sources, args.run.quiet, started)
}

/// Where convert writes as the run goes: the games to the output, the notes on them to stderr.
struct Writer {
    out: Output,
    bar: indicatif::ProgressBar,
    paint: Paint,
    counts: Counts,
}

impl Sink<ConvertJob> for Writer {
    fn batch(
        &mut self,
        input: Input<'_>,
        result: &mut BatchOutput,
        _: &(),
    ) -> Result<(), JobError> {
        let counts = &mut self.counts;
        counts.games += result.games;
        counts.converted += result.converted;
        counts.repaired += result.repaired;
        counts.kept += result.kept;
        counts.skipped += result.skipped;
        if !result.notes.is_empty() {
            say_over(
                &self.bar,
                &notes_text(&result.notes, input.name, &self.paint),
            )?;
        }
        show_games(&self.bar, counts.games);
        let out = &mut self.out;
        Ok(self.bar.suspend(|| out.write_all(&result.text))?)
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        Ok(read_error(&self.bar, &error.to_string())?)
    }

    fn progress(&mut self, raw_bytes: u64) {
        self.bar.set_position(raw_bytes);
    }
}

/// The end of a run: the warning of a run without games, the summary; the output put in place; the exit
/// code.
fn close(
    writer: Writer,
    totals: &RunTotals,
    sources: &Sources,
    quiet: bool,
    started: Instant,
) -> i32 {
    let counts = &writer.counts;
    let no_games = counts.games == 0 && totals.read_errors == 0;
    if no_games && let Err(e) = say(&no_games_warning(sources)) {
        return write_failure(&e);
    }
    if !quiet
        && let Err(e) = say(&summary_text(
            counts,
            totals,
            started.elapsed().as_secs_f64(),
        ))
    {
        return write_failure(&e);
    }
    // Said before the output is put in place: a run that cannot report is a failed run.
    writer.out.close(exit_code(
        totals.read_errors,
        counts.kept + counts.skipped > 0 || no_games,
    ))
}

/// What convert says of games on stderr, with validate's renderer: the same words, locations and source
/// lines (also `select --normalise`'s).
pub(crate) fn notes_text(notes: &[Note], name: &str, paint: &Paint) -> String {
    let mut text = String::new();
    for n in notes {
        let label = GameLabel {
            file: name,
            game: n.game,
            white: &n.white,
            black: &n.black,
            round: &n.round,
        };
        render_problems(&label, &n.problems, paint, &mut text);
        if let Some(action) = n.action {
            text.push_str("  ");
            let fr = locale() == crate::jobs::messages::Locale::Fr;
            let (heading, game) = if fr {
                ("= remarque :", " partie ")
            } else {
                ("= note:", " game ")
            };
            text.push_str(&paint.show(CYAN, heading).to_string());
            text.push_str(game);
            text.push_str(&n.game.to_string());
            text.push(' ');
            text.push_str(action);
            text.push_str("\n\n");
        }
    }
    text
}

fn summary_text(s: &Counts, totals: &RunTotals, elapsed: f64) -> String {
    let (games, out) = (s.games, s.converted + s.kept);
    let (converted, kept, skipped) = (s.converted, s.kept, s.skipped);
    let mb_per_s = decimal_here(totals.bytes as f64 / elapsed.max(1e-9) / 1e6, 1);
    let elapsed = decimal_here(elapsed, 2);
    let g = plural_here(games);
    let mut text = match locale() {
        crate::jobs::messages::Locale::En => {
            let were = if kept == 1 { "it was" } else { "they were" };
            format!(
                "{games} game{g} in, {out} out ({converted} converted, {kept} not converted and kept as {were}), {skipped} skipped, in {elapsed} s ({mb_per_s} MB/s)\n"
            )
        }
        crate::jobs::messages::Locale::Fr => {
            let k = plural_here(kept);
            format!(
                "{games} partie{g} lue{g}, {out} écrite{o} ({converted} convertie{c}, {kept} non convertie{k} et gardée{k} telle{k} quelle{k}), {skipped} ignorée{i}, en {elapsed} s ({mb_per_s} Mo/s)\n",
                o = plural_here(out),
                c = plural_here(converted),
                i = plural_here(skipped)
            )
        }
    };
    if s.repaired > 0 {
        let n = s.repaired;
        let p = plural_here(n);
        text.push_str(&localized!(
            locale(),
            "{n} of the converted games repaired first\n",
            "{n} des parties converties corrigée{p} d'abord\n"
        ));
    }
    text.push_str(&unread_inputs(totals.read_errors));
    text
}
