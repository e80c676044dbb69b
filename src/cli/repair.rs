//! `pgnkit repair`: every game written out in input order; a game whose main line does not replay is put right
//! when one correction fits best (a comment at each edit says what was written), any other game byte for byte.
//! Each faulty game is told on stderr and, with `--report`, as a JSON line.

use std::io::Write;
use std::path::PathBuf;

use crate::jobs::repair::{RepairBatch, RepairJob, RepairNote, RepairOptions};
use crate::jobs::run::{Input, JobError, ReadError, RunTotals, Sink, Sources};

use super::output::{
    BOLD, CYAN, ColorChoice, GREEN, LangFlag, OutputFlag, Paint, RunFlags, YELLOW, exit_code,
    failure, inputs, locale, no_games_warning, plural_here, progress_bar, read_error, say,
    say_over, show_games, unread_inputs, write_failure,
};
use super::sink::{Output, open_output};
use crate::jobs::localized;
use crate::jobs::safe_text::safe;

#[derive(clap::Args)]
#[command(mut_arg("quiet", |a| a.help("No progress bar, no summary (the faulty games are still told)")))]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst, .parquet); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    lang: LangFlag,
    #[command(flatten)]
    output: OutputFlag,
    /// Also write one JSON line per faulty game to FILE: where, the kind of edit, what was written, the
    /// correction, whether it is certain, and the candidates with how far each lets the game replay
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Edits a correction may make, at most (1 to 3)
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    max_edits: u8,
    /// Also remove what live broadcasts leave: king moves to the centre after the game, moves after the
    /// end, and a correction left in a variation where the main line stops
    #[arg(long)]
    broadcast: bool,
    #[command(flatten)]
    run: RunFlags,
    /// When to colour the notes (on stderr)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

/// What the summary counts.
#[derive(Default)]
struct Counts {
    games: u64,
    repaired: u64,
    unrepaired: u64,
}

pub(crate) fn run(args: Args) -> i32 {
    let job = RepairJob::new(RepairOptions {
        lang: args.lang.lang.0,
        search: pgnkit::repair::RepairOptions {
            max_edits: args.max_edits,
            broadcast: args.broadcast,
        },
        messages: locale(),
    });
    let Some(sources) = inputs(&args.paths, &args.run) else {
        return 2;
    };
    let Some(out) = open_output(args.output.output.as_deref(), &sources) else {
        return 2;
    };
    let report = match &args.report {
        Some(path) => match open_output(Some(path), &sources) {
            Some(report) => Some(report),
            None => return 2,
        },
        None => None,
    };
    let threads = args.run.threads();
    let mut writer = Writer {
        out,
        report,
        bar: progress_bar(&sources, args.run.quiet),
        paint: Paint::new(args.color.enabled(true)),
        counts: Counts::default(),
    };
    let finished = crate::jobs::run::run(&sources, threads, &job, &mut writer);
    writer.bar.finish_and_clear();
    let flushed = writer.out.flush().and_then(|()| match &mut writer.report {
        Some(report) => report.flush(),
        None => Ok(()),
    });
    let totals = match finished.and_then(|f| Ok(flushed.map(|()| f.totals)?)) {
        Ok(totals) => totals,
        Err(e) => return failure(&e),
    };
    close(writer, &totals, &sources, args.run.quiet)
}

/// Where repair writes as the run goes: the games to the output, the report lines to `--report`, the notes to
/// stderr.
struct Writer {
    out: Output,
    report: Option<Output>,
    bar: indicatif::ProgressBar,
    paint: Paint,
    counts: Counts,
}

impl Sink<RepairJob> for Writer {
    fn batch(
        &mut self,
        input: Input<'_>,
        result: &mut RepairBatch,
        _: &(),
    ) -> Result<(), JobError> {
        let counts = &mut self.counts;
        counts.games += result.games;
        counts.repaired += result.repaired;
        counts.unrepaired += result.unrepaired;
        if !result.notes.is_empty() {
            say_over(
                &self.bar,
                &notes_text(&result.notes, input.name, &self.paint),
            )?;
        }
        show_games(&self.bar, counts.games);
        if let Some(report) = &mut self.report {
            report.write_all(&result.report)?;
        }
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

/// The faulty games of a batch: `file:line:col: repaired|not repaired: game N (White – Black, round R): what`.
fn notes_text(notes: &[RepairNote], name: &str, paint: &Paint) -> String {
    let mut text = String::new();
    let locale = locale();
    for n in notes {
        let (colour, word) = if n.repaired {
            (GREEN, localized!(locale, "repaired", "corrigée"))
        } else {
            (YELLOW, localized!(locale, "not repaired", "non corrigée"))
        };
        let place = match n.record {
            None => format!("{}:{}:{}:", safe(name), n.line, n.column),
            Some(r) => format!(
                "{}, {} {}, {} {}, {}:{}:",
                safe(name),
                localized!(locale, "row group", "groupe de rangées"),
                r.group,
                localized!(locale, "row", "rangée"),
                r.row,
                n.line,
                n.column
            ),
        };
        paint.push(BOLD, &place, &mut text);
        text.push(' ');
        paint.push(colour, &word, &mut text);
        text.push_str(&localized!(locale, ": game {}", " : partie {}", n.game));
        let (white, black, round): (&str, &str, &str) = (&n.white, &n.black, &n.round);
        if !white.is_empty() || !black.is_empty() {
            let name = |s: &str| {
                if s.is_empty() {
                    "?".to_string()
                } else {
                    s.to_string()
                }
            };
            text.push_str(&safe(&format!(" ({} – {}", name(white), name(black))));
            if !round.is_empty() && round != "?" && round != "-" {
                text.push_str(&safe(&localized!(
                    locale,
                    ", round {}",
                    ", ronde {}",
                    round
                )));
            }
            text.push(')');
        }
        text.push('\n');
        text.push_str("  ");
        paint.push(CYAN, "=", &mut text);
        text.push(' ');
        text.push_str(&safe(&n.message));
        text.push_str("\n\n");
    }
    text
}

/// The end of a run: the summary, the outputs put in place, the exit code: 0 when every game replays as it
/// comes out, 1 when a faulty game was left as it was.
fn close(writer: Writer, totals: &RunTotals, sources: &Sources, quiet: bool) -> i32 {
    let counts = &writer.counts;
    let no_games = counts.games == 0 && totals.read_errors == 0;
    if no_games && let Err(e) = say(&no_games_warning(sources)) {
        return write_failure(&e);
    }
    if !quiet && let Err(e) = say(&summary_text(counts, totals)) {
        return write_failure(&e);
    }
    let code = exit_code(totals.read_errors, counts.unrepaired > 0 || no_games);
    let code = match writer.report {
        Some(report) => report.close(code),
        None => code,
    };
    writer.out.close(code)
}

fn summary_text(c: &Counts, totals: &RunTotals) -> String {
    let (games, repaired, unrepaired) = (c.games, c.repaired, c.unrepaired);
    let clean = games - repaired - unrepaired;
    let locale = locale();
    let g = plural_here(games);
    let (r, u) = (plural_here(repaired), plural_here(unrepaired));
    let mut text = match locale {
        crate::jobs::messages::Locale::En => format!(
            "{games} game{g}: {clean} clean, {repaired} repaired, {unrepaired} left as they were\n"
        ),
        crate::jobs::messages::Locale::Fr => format!(
            "{games} partie{g} : {clean} sans erreur, {repaired} corrigée{r}, {unrepaired} laissée{u} telle{u} quelle{u}\n"
        ),
    };
    text.push_str(&unread_inputs(totals.read_errors));
    text
}
