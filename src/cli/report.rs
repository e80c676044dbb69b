//! `pgnkit report`: one self-contained HTML page (standings, crosstables, each game's status, a diagram at
//! each faulty move), written to `-o FILE` or to standard output when that is not a terminal. Its labels and
//! validate's messages are in the language of `--messages` (global: see `cli/mod.rs`).

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use crate::jobs::bulk::{self, Event};
use crate::jobs::input::Source;
use crate::jobs::report::html::{PageOptions, page};
use crate::jobs::report::{Collector, GameFacts, Limits, examine};
use crate::jobs::tournament::Tiebreak;
use crate::jobs::validate::ValidateOptions;

use super::output::{
    exit_code, inputs, locale, plural_here, progress_bar, read_error, say, show_games, threads,
    write_failure,
};
use super::sink::open_output;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst); `-` reads standard input. All inputs
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
    /// Worker threads (default, or 0: all cores; at most one per core)
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No progress bar, no summary on stderr
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// What a worker hands back for one batch.
struct BatchResult {
    games: Vec<GameFacts>,
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
    let Some(sources) = inputs(&args.paths) else {
        return 2;
    };
    let Some(mut out) = open_output(args.output.as_deref(), &sources) else {
        return 2;
    };
    let (collector, io_errors) = match collect(&sources, &args) {
        Ok(collected) => collected,
        Err(e) => return write_failure(&e),
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
    let html = page(
        &collector,
        &PageOptions {
            lang: locale(),
            event: args.event.as_deref(),
            tiebreaks: &Tiebreak::DEFAULT,
        },
    );
    if let Err(e) = out.write_all(html.as_bytes()) {
        return write_failure(&e);
    }
    if !args.quiet && say(&summary_line(&collector, &args)).is_err() {
        return out.close(2);
    }
    out.close(exit_code(io_errors, collector.has_problems()))
}

/// Every game of the inputs examined and collected in input order, validate's findings about the run
/// included, and how many inputs could not be read; `Err` when stderr could not say so.
fn collect(sources: &[Source], args: &Args) -> io::Result<(Collector, u64)> {
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
    };
    let limits = Limits::default();
    let jobs = threads(args.jobs, args.quiet);
    let bar = progress_bar(sources, args.quiet);
    let names: Vec<Arc<str>> = sources.iter().map(|s| s.display_name().into()).collect();
    let mut collector = Collector::new(limits, opts.tag_checks).in_locale(opts.messages);
    let mut io_errors = 0u64;
    let stopped = bulk::run(
        sources,
        jobs,
        bulk::BATCH_SIZE,
        |source, reader| {
            let mut games = Vec::new();
            while let Some(group) = reader.next_group() {
                // Read a group, then examine it: each step's code serves the whole group while cached.
                for game in group {
                    games.push(examine(game, &names[source], &opts, &limits));
                }
            }
            BatchResult { games }
        },
        |event| {
            match event {
                Event::Start { source } => collector.start_file(&names[source]),
                Event::Batch { result, .. } => {
                    for facts in result.games {
                        collector.add(facts);
                    }
                    show_games(&bar, collector.games);
                }
                Event::Error { message, .. } => {
                    io_errors += 1;
                    if let Err(e) = read_error(&bar, &message) {
                        return ControlFlow::Break(e);
                    }
                    collector.read_error(message);
                }
                Event::End { .. } => {}
            }
            ControlFlow::Continue(())
        },
        |bytes| bar.set_position(bytes),
    );
    bar.finish_and_clear();
    if let Some(e) = stopped {
        return Err(e);
    }
    collector.finish();
    Ok((collector, io_errors))
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
