//! `pgnkit standings`: per tournament (Event, Site, year), each player's points and tie-breaks, ranked.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;

use crate::jobs::bulk::{self, Event};
use crate::jobs::standings::{
    GameEntry, Standing, Standings, Tiebreak, TournamentKey, entry_of, trf,
};

use super::output::{
    exit_code, inputs, locale, progress_bar, read_error, say, threads, write_failure,
};
use super::sink::open_output;
use crate::jobs::localized;
use crate::jobs::messages::{Locale, localized_decimal};
use crate::jobs::safe_text::{Align, name_column, push_cell, safe};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Csv,
    Json,
    Trf,
}

#[derive(clap::Args)]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst); `-` reads standard input. All inputs
    /// of a run are read together: a tournament kept as one file per round is one tournament
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Only the tournaments whose Event tag is NAME
    #[arg(long, value_name = "NAME")]
    event: Option<String>,
    /// `text` (a table per tournament), `csv` (one row per player), `json` (one object per tournament) or
    /// `trf` (FIDE's Tournament Report File, TRF-16, of one tournament: `--event` chooses it when the inputs
    /// hold several)
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Tie-breaks after points, in order, comma-separated: buchholz_cut1, buchholz, sonneborn_berger, wins,
    /// direct_encounter (the points among the tied players, when they have all met; FIDE puts it first for
    /// round robins)
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "buchholz_cut1,buchholz,sonneborn_berger,wins,direct_encounter"
    )]
    tiebreaks: Vec<String>,
    /// Write to FILE instead of standard output
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default, or 0: all cores)
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No progress bar
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Player entries kept over all tournaments: bounded memory whatever the input (a month of online games
/// makes a "tournament" of every game).
const MAX_PLAYERS: usize = 1_000_000;

/// Tournaments listed when `--format trf` is given several.
const TOURNAMENTS_LISTED: usize = 20;

pub(crate) fn run(args: Args) -> i32 {
    let mut tiebreaks = Vec::new();
    for name in &args.tiebreaks {
        match Tiebreak::from_name(name.trim()) {
            Some(t) => tiebreaks.push(t),
            None => {
                let _ = say(&format!(
                    "pgnkit: --tiebreaks: unknown tie-break '{name}': use buchholz_cut1, buchholz, sonneborn_berger, wins or direct_encounter\n"
                ));
                return 2;
            }
        }
    }
    let Some(sources) = inputs(&args.paths) else {
        return 2;
    };
    let Some(mut out) = open_output(args.output.as_deref(), &sources) else {
        return 2;
    };
    let jobs = threads(args.jobs, args.quiet);
    let bar = progress_bar(&sources, args.quiet);
    let mut standings = Standings::new(MAX_PLAYERS);
    let mut io_errors = 0u64;
    let stopped = bulk::run(
        &sources,
        jobs,
        bulk::BATCH_SIZE,
        |_, games| {
            let mut entries: Vec<Option<GameEntry>> = Vec::new();
            while let Some(game) = games.next_game() {
                entries.push(entry_of(game));
            }
            entries
        },
        |event| {
            match event {
                Event::Batch { result, .. } => {
                    for entry in &result {
                        standings.add(entry.as_ref());
                    }
                }
                Event::Error { message, .. } => {
                    io_errors += 1;
                    if let Err(e) = read_error(&bar, &message) {
                        return ControlFlow::Break(e);
                    }
                }
                Event::Start { .. } | Event::End { .. } => {}
            }
            ControlFlow::Continue(())
        },
        |bytes| bar.set_position(bytes),
    );
    bar.finish_and_clear();
    if let Some(e) = stopped {
        return write_failure(&e);
    }
    // A name no tournament has is a usage error, said with the names nearest to it: an empty table and
    // exit 1 read as "no game counted".
    if let Some(event) = &args.event
        && !standings.has_event(event)
    {
        let message = standings.no_such_event(event, locale());
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
        Format::Csv => csv(&ranked),
        Format::Json => json(&ranked),
        Format::Text => text(&ranked, &tiebreaks),
        Format::Trf => match ranked.as_slice() {
            [] => String::new(),
            [(key, t, rows)] => match trf::write(key, t, rows) {
                Ok(text) => text,
                Err(e) => {
                    let _ = say(&format!(
                        "pgnkit standings: cannot write {} — {} — {} as TRF: {e}\n",
                        safe(&key.event),
                        safe(&key.site),
                        safe(&key.year)
                    ));
                    return 2;
                }
            },
            several => {
                let n = several.len();
                let mut message = match args.event {
                    Some(_) => localized!(
                        locale(),
                        "pgnkit standings: --format trf writes one tournament; the inputs hold {n} with that Event (tell them apart by giving only the files of one):\n",
                        "pgnkit standings : --format trf écrit un seul tournoi ; les entrées en contiennent {n} de ce nom d'Event (séparez-les en ne donnant que les fichiers de l'un d'eux) :\n"
                    ),
                    None => localized!(
                        locale(),
                        "pgnkit standings: --format trf writes one tournament; the inputs hold {n}: choose one with --event NAME:\n",
                        "pgnkit standings : --format trf écrit un seul tournoi ; les entrées en contiennent {n} : choisissez-en un avec --event NOM :\n"
                    ),
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
                return 2;
            }
        },
    };
    if let Err(e) = out.write_all(text.as_bytes()) {
        return write_failure(&e);
    }
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
    if matches!(args.format, Format::Csv | Format::Trf) {
        for (key, t, _) in &ranked {
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
    if !args.quiet && !notes.is_empty() && say(&notes).is_err() {
        return 2;
    }
    out.close(exit_code(io_errors, ranked.is_empty()))
}

type Ranked<'a> = (
    &'a TournamentKey,
    &'a crate::jobs::standings::Tournament,
    Vec<Standing>,
);

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(ranked: &[Ranked<'_>]) -> String {
    let mut out = String::from(
        "event,site,year,rank,player,rating,points,games,wins,unfinished,buchholz,buchholz_cut1,sonneborn_berger,aro,performance,direct_encounter\n",
    );
    for (key, _, rows) in ranked {
        for r in rows {
            out.push_str(&format!(
                "{},{},{},{},{},{}\n",
                csv_field(&key.event),
                csv_field(&key.site),
                csv_field(&key.year),
                r.rank,
                csv_field(&r.player),
                r.figures("").join(",")
            ));
        }
    }
    out
}

fn json(ranked: &[Ranked<'_>]) -> String {
    let mut out = String::new();
    for (key, t, rows) in ranked {
        let players: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "rank": r.rank,
                    "player": r.player,
                    "rating": r.rating,
                    "points": r.half_points as f64 / 2.0,
                    "games": r.games,
                    "wins": r.wins,
                    "unfinished": r.unfinished,
                    "buchholz": r.buchholz as f64 / 2.0,
                    "buchholz_cut1": r.buchholz_cut1 as f64 / 2.0,
                    "sonneborn_berger": r.sonneborn_berger_quarters as f64 / 4.0,
                    "aro": r.aro,
                    "performance": r.performance,
                    "direct_encounter": r.direct_encounter.map(|v| v as f64 / 2.0),
                })
            })
            .collect();
        let record = serde_json::json!({
            "event": key.event,
            "site": key.site,
            "year": key.year,
            "unfinished_games": t.unfinished,
            "duplicate_games": t.left_out.duplicates,
            "unknown_player_games": t.left_out.unknown_player,
            "self_play_games": t.left_out.against_self,
            "players": players,
        });
        out.push_str(&record.to_string());
        out.push('\n');
    }
    out
}

fn text(ranked: &[Ranked<'_>], tiebreaks: &[Tiebreak]) -> String {
    let mut out = String::new();
    let names: Vec<&str> = tiebreaks.iter().map(|t| t.name()).collect();
    let locale = locale();
    for (key, t, rows) in ranked {
        // Said whole (it is what `--event` wants), but safe to print.
        let (event, site, year) = (safe(&key.event), safe(&key.site), safe(&key.year));
        let players = rows.len();
        out.push_str(&localized!(
            locale,
            "{event} — {site} — {year}: {players} players",
            "{event} — {site} — {year} : {players} joueurs"
        ));
        if t.unfinished > 0 {
            let n = t.unfinished;
            out.push_str(&localized!(
                locale,
                ", unfinished games (not scored): {n}",
                ", parties inachevées (non comptées) : {n}"
            ));
        }
        let names = names.join(", ");
        out.push_str(&localized!(
            locale,
            "; ranked by points, then {names}\n",
            " ; classés aux points, puis {names}\n"
        ));
        if let Some(said) = t.left_out.said(locale) {
            out.push_str(&format!("  ({said})\n"));
        }
        // Names are cut to a column of at most NAME_COLUMNS: a row's length does not grow with the longest
        // name of the tournament.
        let player = localized!(locale, "player", "joueur");
        let width = name_column(rows.iter().map(|r| r.player.as_str()), &player);
        out.push_str(&match locale {
            Locale::En => "  rank  ".to_string(),
            Locale::Fr => format!("  {:>4}  ", "rang"),
        });
        push_cell(&mut out, &player, width, Align::Left);
        out.push_str(match locale {
            Locale::En => {
                "  rating  points  games  wins  buchholz  bh-cut1  s-b      aro  perf  d-e\n"
            }
            // The same widths as the rows: Elo, parties, gains, moyenne des adversaires, confrontation
            // directe.
            Locale::Fr => {
                "     Elo  points  part.  gain  buchholz  bh-cut1    s-b  m.adv  perf  c-d\n"
            }
        });
        for r in rows {
            // The unfinished count (f[4]) is said once per tournament above the table.
            let f = r
                .figures("-")
                .map(|v| localized_decimal(locale, &v).into_owned());
            out.push_str(&format!("  {:>4}  ", r.rank));
            push_cell(&mut out, &r.player, width, Align::Left);
            out.push_str(&format!(
                "  {:>6}  {:>6}  {:>5}  {:>4}  {:>8}  {:>7}  {:>5}  {:>5}  {:>4}  {:>3}\n",
                f[0], f[1], f[2], f[3], f[5], f[6], f[7], f[8], f[9], f[10],
            ));
        }
        out.push('\n');
    }
    out
}
