//! `pgnkit standings`: per tournament (Event, Site, year), each player's points and tie-breaks, ranked.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::jobs::options::{StandingsFormat, TrfVersion};
use crate::jobs::run::{Finished, Input, JobError, ReadError, Sink, Sources};
use crate::jobs::standings::{self, Ranked, StandingsBatch, StandingsJob, StandingsState};
use crate::jobs::tournament::Standings;

use super::diagnostics::{GameLabel, render_problems};
use super::output::{
    ColorChoice, Paint, RunFlags, TiebreakFlag, UnplayedFlags, choice, exit_code, failure, inputs,
    locale, progress_bar, read_error, say, write_failure,
};
use super::sink::open_output;
use super::validate::{pairing_text, read_pairings};
use crate::jobs::localized;
use crate::jobs::safe_text::safe;

#[derive(clap::Args)]
#[command(mut_arg("jobs", |a| a.help("Worker threads (default, or 0: all cores)")))]
#[command(mut_arg("quiet", |a| a.help("No progress bar")))]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst, .parquet); `-` reads standard input. All inputs
    /// of a run are read together: a tournament kept as one file per round is one tournament
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Only the tournaments whose Event tag is NAME
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// What to write; a TRF is of one tournament: `--event` chooses it when the inputs hold several
    #[arg(long, default_value = "text", value_parser = choice::<StandingsFormat>())]
    format: StandingsFormat,
    #[command(flatten)]
    tiebreaks: TiebreakFlag,
    /// Write to FILE instead of standard output
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Compare the games with a pairing program's report (TRF-16 or TRF-26), as `validate --pairings`
    /// does: the differences on stderr, exit 1 when there is any
    #[arg(long, value_name = "FILE")]
    pairings: Option<PathBuf>,
    #[command(flatten)]
    unplayed: UnplayedFlags,
    #[command(flatten)]
    run: RunFlags,
}

/// Player entries kept over all tournaments: bounded memory whatever the input (a month of online games
/// makes a "tournament" of every game).
const MAX_PLAYERS: usize = 1_000_000;

/// Tournaments listed when `--format trf` is given several.
const TOURNAMENTS_LISTED: usize = 20;

pub(crate) fn run(args: Args) -> i32 {
    let Some(tiebreaks) = args.tiebreaks.tiebreaks("standings") else {
        return 2;
    };
    let Some(sources) = inputs(&args.paths, &args.run) else {
        return 2;
    };
    let mut job = StandingsJob::new(MAX_PLAYERS, args.unplayed.rules());
    if let Some(path) = &args.pairings {
        let Some(pairings) = read_pairings(path) else {
            return 2;
        };
        job = job.with_pairings(pairings);
    }
    let Some(mut out) = open_output(args.output.as_deref(), &sources) else {
        return 2;
    };
    let Finished { state, totals } = match read(&sources, &args.run, &job) {
        Ok(finished) => finished,
        Err(e) => return failure(&e),
    };
    let standings = &state.standings;
    // A name no tournament has is a usage error, said with the names nearest to it: an empty table and
    // exit 1 read as "no game counted".
    if let Some(event) = &args.event
        && !standings.has_event(event)
    {
        let message = standings::no_such_event(standings, event, locale());
        let _ = say(&localized!(
            locale(),
            "pgnkit standings: --event: {message}\n",
            "pgnkit standings : --event : {message}\n"
        ));
        return 2;
    }
    let ranked: Vec<_> = standings
        .ranked(&tiebreaks)
        .into_iter()
        .filter(|(key, _, _)| args.event.as_ref().is_none_or(|e| key.event == e.trim()))
        .collect();
    let text = match args.format {
        StandingsFormat::Trf(version) => match trf_of(&ranked, args.event.is_some(), version) {
            Some(text) => Ok(text),
            None => return 2,
        },
        format => standings::write(&ranked, format, locale()),
    };
    // Only a TRF can be refused, and trf_of said why.
    let Ok(text) = text else {
        return 2;
    };
    if let Err(e) = out.write_all(text.as_bytes()) {
        return write_failure(&e);
    }
    let notes = notes(standings, &ranked, args.format);
    if !args.run.quiet && !notes.is_empty() && say(&notes).is_err() {
        return 2;
    }
    let (said, differences) = pairing_differences(&state, args.pairings.as_deref());
    if !said.is_empty() && say(&said).is_err() {
        return 2;
    }
    out.close(exit_code(
        totals.read_errors,
        ranked.is_empty() || differences > 0,
    ))
}

/// What `--pairings` found, worded for stderr, and how many differences.
fn pairing_differences(state: &StandingsState, trf: Option<&Path>) -> (String, u64) {
    let Some(trf) = trf else {
        return (String::new(), 0);
    };
    let (at_games, at_trf) = state.pairing_problems();
    let paint = Paint::new(ColorChoice::Auto.enabled(true));
    let mut text = String::new();
    let mut count = 0;
    for w in at_games {
        let label = GameLabel {
            file: &w.file,
            game: w.game,
            white: "",
            black: "",
            round: &w.round,
        };
        render_problems(&label, std::slice::from_ref(&w.problem), &paint, &mut text);
        count += w.problem.times();
    }
    count += pairing_text(trf, &at_trf, &paint, &mut text);
    (text, count)
}

/// Every game of the inputs into the standings.
fn read(
    sources: &Sources,
    run: &RunFlags,
    job: &StandingsJob,
) -> Result<Finished<StandingsState>, JobError> {
    let threads = run.threads();
    let mut said = Said {
        bar: progress_bar(sources.list(), run.quiet),
    };
    let finished = crate::jobs::run::run(sources, threads, job, &mut said);
    said.bar.finish_and_clear();
    finished
}

/// What standings says as the run goes: the progress, the inputs that could not be read (the standings
/// themselves are written at the end).
struct Said {
    bar: indicatif::ProgressBar,
}

impl Sink<StandingsJob> for Said {
    fn batch(
        &mut self,
        _: Input<'_>,
        _: &mut StandingsBatch,
        _: &StandingsState,
    ) -> Result<(), JobError> {
        Ok(())
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        Ok(read_error(&self.bar, &error.to_string())?)
    }

    fn progress(&mut self, raw_bytes: u64) {
        self.bar.set_position(raw_bytes);
    }
}

/// The TRF of the one tournament in `ranked` (nothing when there is none); `None`, said on stderr, when there
/// are several (`--event` named several, or none was named) or the format cannot hold it.
fn trf_of(ranked: &[Ranked<'_>], event_named: bool, version: TrfVersion) -> Option<String> {
    let several = match ranked {
        [] => return Some(String::new()),
        [(key, _, _)] => {
            return match standings::write(ranked, StandingsFormat::Trf(version), locale()) {
                Ok(text) => Some(text),
                Err(e) => {
                    let _ = say(&format!(
                        "pgnkit standings: cannot write {} — {} — {} as TRF: {e}\n",
                        safe(&key.event),
                        safe(&key.site),
                        safe(&key.year)
                    ));
                    None
                }
            };
        }
        several => several,
    };
    let n = several.len();
    let mut message = if event_named {
        localized!(
            locale(),
            "pgnkit standings: --format trf writes one tournament; the inputs hold {n} with that Event (tell them apart by giving only the files of one):\n",
            "pgnkit standings : --format trf écrit un seul tournoi ; les entrées en contiennent {n} de ce nom d'Event (séparez-les en ne donnant que les fichiers de l'un d'eux) :\n"
        )
    } else {
        localized!(
            locale(),
            "pgnkit standings: --format trf writes one tournament; the inputs hold {n}: choose one with --event NAME:\n",
            "pgnkit standings : --format trf écrit un seul tournoi ; les entrées en contiennent {n} : choisissez-en un avec --event NOM :\n"
        )
    };
    // A database holds thousands: the first ones say what to choose from.
    for (key, _, rows) in several.iter().take(TOURNAMENTS_LISTED) {
        // Whole, so that the name can be given to --event, but safe to print.
        let (event, site, year) = (safe(&key.event), safe(&key.site), safe(&key.year));
        let players = rows.len();
        message.push_str(&localized!(
            locale(),
            "  {event} — {site} — {year} ({players} players)\n",
            "  {event} — {site} — {year} ({players} joueurs)\n"
        ));
    }
    if n > TOURNAMENTS_LISTED {
        let more = n - TOURNAMENTS_LISTED;
        message.push_str(&localized!(
            locale(),
            "  ... and {more} more\n",
            "  ... et {more} autres\n"
        ));
    }
    let _ = say(&message);
    None
}

/// What stderr says after the output: games of no tournament, what CSV and TRF left out, games beyond the
/// bound.
fn notes(standings: &Standings, ranked: &[Ranked<'_>], format: StandingsFormat) -> String {
    let mut notes = String::new();
    if standings.without_event > 0 {
        let n = standings.without_event;
        notes.push_str(&localized!(
            locale(),
            "pgnkit standings: {n} games without an Event tag (or `?`) belong to no tournament\n",
            "pgnkit standings : {n} parties sans balise Event (ou avec `?`) n'appartiennent à aucun tournoi\n"
        ));
    }
    // Text and JSON say what each tournament left out in their own output; CSV rows are players and a TRF
    // has no place for it: stderr says it.
    if matches!(format, StandingsFormat::Csv | StandingsFormat::Trf(_)) {
        for (key, t, _) in ranked {
            if let Some(said) = t.left_out.said(locale()) {
                let (event, site, year) = (&key.event, &key.site, &key.year);
                notes.push_str(&localized!(
                    locale(),
                    "pgnkit standings: {event} — {site} — {year}: {said}\n",
                    "pgnkit standings : {event} — {site} — {year} : {said}\n"
                ));
            }
        }
    }
    if standings.games_left_out > 0 {
        let n = standings.games_left_out;
        notes.push_str(&localized!(
            locale(),
            "pgnkit standings: {n} games left out: more than {MAX_PLAYERS} players\n",
            "pgnkit standings : {n} parties laissées de côté : plus de {MAX_PLAYERS} joueurs\n"
        ));
    }
    notes
}
