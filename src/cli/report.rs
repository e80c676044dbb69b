//! `pgnkit report`: one self-contained HTML page (standings, crosstables, each game's status, a diagram at
//! each faulty move), written to `-o FILE` or to standard output when that is not a terminal. Its labels and
//! validate's messages are in the language of `--messages` (global: see `cli/mod.rs`).

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use crate::jobs::report::{Collector, GameFacts, Limits, ReportJob};
use crate::jobs::run::{Finished, Input, JobError, ReadError, Sink, Sources};
use crate::jobs::validate::ValidateOptions;

use super::output::{
    RunFlags, TiebreakFlag, UnplayedFlags, exit_code, failure, inputs, locale, plural_here,
    progress_bar, read_error, say, show_games, write_failure,
};
use super::sink::open_output;

#[derive(clap::Args)]
#[command(mut_arg("quiet", |a| a.help("No progress bar, no summary on stderr")))]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst, .parquet); `-` reads standard input. All inputs
    /// of a run make one page: a tournament kept as one file per round is one tournament
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Write the page to FILE (required when standard output is a terminal; `FILE.gz`/`.zst` compress it)
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Only the tournaments whose Event tag is NAME get standings and a crosstable (every game is still
    /// checked and listed)
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    #[command(flatten)]
    tiebreaks: TiebreakFlag,
    #[command(flatten)]
    unplayed: UnplayedFlags,
    #[command(flatten)]
    run: RunFlags,
}

pub(crate) fn run(args: Args) -> i32 {
    // An HTML page on a terminal is of no use to anyone: ask for a file (a pipe or a redirection is fine).
    if args.output.is_none() && io::stdout().is_terminal() {
        let _ = say(&crate::jobs::localized!(
            locale(),
            "pgnkit report: the page is HTML: give -o FILE (or redirect standard output to a file)\n",
            "pgnkit report : la page est en HTML : donnez -o FICHIER (ou redirigez la sortie standard vers un fichier)\n"
        ));
        return 2;
    }
    let Some(tiebreaks) = args.tiebreaks.tiebreaks("report") else {
        return 2;
    };
    let Some(sources) = inputs(&args.paths, &args.run) else {
        return 2;
    };
    let Some(mut out) = open_output(args.output.as_deref(), &sources) else {
        return 2;
    };
    let (collector, io_errors) = match collect(&sources, &args.run, &args.unplayed) {
        Ok(collected) => collected,
        Err(e) => return failure(&e),
    };
    if let Some(event) = &args.event
        && !collector.standings.has_event(event)
    {
        let message = crate::jobs::standings::no_such_event(&collector.standings, event, locale());
        let _ = say(&crate::jobs::localized!(
            locale(),
            "pgnkit report: --event: {message}\n",
            "pgnkit report : --event : {message}\n"
        ));
        return 2;
    }
    let html = collector.page(args.event.as_deref(), &tiebreaks, locale());
    if let Err(e) = out.write_all(html.as_bytes()) {
        return write_failure(&e);
    }
    if !args.run.quiet && say(&summary_line(&collector, &args)).is_err() {
        return out.close(2);
    }
    out.close(exit_code(io_errors, collector.has_problems()))
}

/// Every game of the inputs examined and collected in input order, validate's findings about the run
/// included, and how many inputs could not be read.
fn collect(
    sources: &Sources,
    run: &RunFlags,
    unplayed: &UnplayedFlags,
) -> Result<(Collector, u64), JobError> {
    let opts = ValidateOptions {
        lang: None,
        finished: false,
        tag_checks: true,
        track_claims: true,
        final_fen: false,
        strict: false,
        report_tags: true,
        // The page's labels and validate's messages in one language (the global `--messages`).
        messages: locale(),
        unplayed: unplayed.rules(),
    };
    let threads = run.threads();
    let limits = Limits::default();
    let mut said = Said {
        bar: progress_bar(sources.list(), run.quiet),
        read_errors: Vec::new(),
        listed: limits.rows,
        not_listed: 0,
    };
    let job = ReportJob::new(opts, limits);
    let finished = crate::jobs::run::run(sources, threads, &job, &mut said);
    said.bar.finish_and_clear();
    let Finished {
        state: mut collector,
        totals,
    } = finished?;
    // The page lists what could not be read, then counts validate's findings about the whole run.
    collector.finish(said.read_errors, said.not_listed);
    Ok((collector, totals.read_errors))
}

/// What report says as the run goes (the progress, the inputs that could not be read) and what it keeps for
/// the page of those inputs.
struct Said {
    bar: indicatif::ProgressBar,
    /// The first `listed` messages (a directory of a million unreadable files still makes a page).
    read_errors: Vec<String>,
    listed: usize,
    not_listed: u64,
}

impl Sink<ReportJob> for Said {
    fn batch(
        &mut self,
        _: Input<'_>,
        _: &mut Vec<GameFacts>,
        collector: &Collector,
    ) -> Result<(), JobError> {
        show_games(&self.bar, collector.games);
        Ok(())
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        let message = error.to_string();
        read_error(&self.bar, &message)?;
        if self.read_errors.len() < self.listed {
            self.read_errors.push(message);
        } else {
            self.not_listed += 1;
        }
        Ok(())
    }

    fn progress(&mut self, raw_bytes: u64) {
        self.bar.set_position(raw_bytes);
    }
}

/// The line stderr gets after the page: games, errors, warnings and diagrams, and where the page went.
fn summary_line(collector: &Collector, args: &Args) -> String {
    let (games, errors) = (collector.games, collector.errors);
    let (warnings, diagrams) = (collector.warnings, collector.diagrams_drawn);
    let (g, e, w, d) = (
        plural_here(games),
        plural_here(errors),
        plural_here(warnings),
        plural_here(diagrams),
    );
    let written = match &args.output {
        Some(path) => crate::jobs::localized!(
            locale(),
            "; page written to {}",
            " ; page écrite dans {}",
            path.display()
        ),
        None => String::new(),
    };
    crate::jobs::localized!(
        locale(),
        "pgnkit report: {games} game{g}, {errors} error{e}, {warnings} warning{w}; {diagrams} diagram{d}{written}\n",
        "pgnkit report : {games} partie{g}, {errors} erreur{e}, {warnings} avertissement{w} ; {diagrams} diagramme{d}{written}\n"
    )
}
