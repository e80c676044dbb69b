//! `pgnkit select`: writes the games that pass `--where`, reach a `--reaches` position, and (with `--dedupe`)
//! are not duplicates, each as its own text, in input order.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use crate::jobs::bulk::{self, Event};
use crate::jobs::input::Source;
use crate::jobs::localized;
use crate::jobs::messages::Explain;
use crate::jobs::select::material::Material;
use crate::jobs::select::{
    SelectBatch, SelectOptions, SplitBy, TagSightings, Target, columns, expr, select_batch,
};

use super::convert::notes_text;
use super::output::{
    Paint, exit_code, inputs, locale, no_games_text, plural, progress_bar, read_error, say,
    say_over, show_games, threads, write_failure,
};
use super::plan::{Kind, Request, plan};
use super::sink::{Output, open_planned};
use super::split::Splitter;
use super::validate::{LangArg, parse_lang};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Keep the games for which EXPR holds: stats columns by their CSV name (plies, termination,
    /// opening_eco...), tags by their PGN name (WhiteElo, Event); == != < <= > >= (numbers when both sides
    /// are), ~ and !~ (regular expression), and, or, not, parentheses, "strings". See the guide, "Selecting
    /// games"
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
    #[arg(long, value_name = "BY", value_parser = parse_split, requires = "output")]
    split: Option<SplitBy>,
    /// Write the chosen games in export format (English SAN, the Seven Tag Roster first) instead of their
    /// own text
    #[arg(long)]
    normalise: bool,
    /// Write to FILE instead of standard output (FILE.gz, FILE.zst: compressed). FILE is replaced only when
    /// the run ends with 0 or 1, never when it is an input. With --split, the directory of the files
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Piece letters of the moves: `auto` detects them per game, or a language code (en, fr, de, nl, es, it,
    /// pt, cs, pl, hu, fi, ro, da, no, sv, figurine)
    #[arg(long, default_value = "auto", value_parser = parse_lang)]
    lang: LangArg,
    /// Worker threads (default, or 0: all cores; at most one per core)
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No progress bar, no closing line on stderr
    #[arg(long, short = 'q')]
    quiet: bool,
}

fn parse_split(s: &str) -> Result<SplitBy, String> {
    match s {
        "event" => Ok(SplitBy::Event),
        "round" => Ok(SplitBy::Round),
        "eco" => Ok(SplitBy::Eco),
        "opening" => Ok(SplitBy::Opening),
        n => match n.parse::<u64>() {
            Ok(n) if n > 0 => Ok(SplitBy::Games(n)),
            _ => Err(format!(
                "'{s}': split by event, round, eco, opening, or a number of games a file"
            )),
        },
    }
}

/// Where the chosen games go.
enum Destination {
    Stream(Output),
    Split(Splitter),
}

/// Keys are already uniform 128-bit hashes: their low half is a good enough hash for the set.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

#[derive(Default)]
struct Totals {
    games: u64,
    chosen: u64,
    duplicates: u64,
    bytes: u64,
    io_errors: u64,
    /// The tags `--where` names that the games have.
    tags: TagSightings,
}

pub(crate) fn run(args: Args) -> i32 {
    let filter = match args.filter.as_deref().map(|e| expr::parse(e, columns())) {
        None => None,
        Some(Ok(e)) => Some(e),
        Some(Err(e)) => {
            let text = args.filter.as_deref().unwrap_or_default();
            let _ = say(&match e.over_budget {
                // Refused for its size: the expression may be long, it is not shown again.
                Some(over) => localized!(
                    locale(),
                    "pgnkit: --where: column {}: {}\n",
                    "pgnkit : --where : colonne {} : {}\n",
                    e.column,
                    over.explain(locale())
                ),
                None => format!(
                    "pgnkit: --where: {e}\n  {text}\n  {}^\n",
                    " ".repeat(e.column - 1)
                ),
            });
            return 2;
        }
    };
    let mut reaches = Vec::new();
    for fen in &args.reaches {
        // An EPD's four fields are read as a FEN's first four.
        match Target::parse(fen) {
            Ok(target) => reaches.push(target),
            Err(e) => {
                let _ = say(&format!("pgnkit: --reaches {fen:?}: {e}\n"));
                return 2;
            }
        }
    }
    let mut materials = Vec::new();
    for text in &args.material {
        match Material::parse(text) {
            Ok(m) => materials.push(m),
            Err(e) => {
                let _ = say(&format!("pgnkit: --material: {e}\n"));
                return 2;
            }
        }
    }
    let Some(sources) = inputs(&args.paths) else {
        return 2;
    };
    // Every output checked against the others and the inputs before anything is read or written.
    let mut requests = Vec::new();
    if let Some(path) = &args.output {
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
    let planned = match plan(&requests, &sources) {
        Ok(planned) => planned,
        Err(refusal) => {
            let _ = say(&format!("pgnkit: {}\n", refusal.message(locale())));
            return 2;
        }
    };
    let planned_output = args.output.as_ref().map(|_| &planned[0]);
    let planned_duplicates = args
        .duplicates
        .as_ref()
        .map(|_| &planned[planned.len() - 1]);
    let opts = SelectOptions {
        filter,
        reaches,
        materials,
        dedupe: args.dedupe,
        lang: args.lang.0,
        normalise: args.normalise,
        keep_text: !args.count,
        split: args.split,
    };
    let mut out = match (args.split, planned_output) {
        (Some(by), Some(dir)) => match Splitter::new(dir, by) {
            Some(s) => Destination::Split(s),
            None => return 2,
        },
        (_, Some(file)) => match open_planned(file) {
            Some(o) => Destination::Stream(o),
            None => return 2,
        },
        (_, None) => match super::sink::open_output(None, &sources) {
            Some(o) => Destination::Stream(o),
            None => return 2,
        },
    };
    let mut dups_out = match planned_duplicates {
        Some(file) => match open_planned(file) {
            Some(o) => Some(o),
            None => return 2,
        },
        None => None,
    };

    let jobs = threads(args.jobs, args.quiet);
    let bar = progress_bar(&sources, args.quiet);
    let names: Vec<String> = sources.iter().map(Source::display_name).collect();
    let pool: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
    let mut seen: HashSet<u128, BuildHasherDefault<KeyHasher>> = HashSet::default();
    let mut totals = Totals::default();
    let started = Instant::now();

    let stopped = bulk::run(
        &sources,
        jobs,
        bulk::BATCH_SIZE,
        |source, games| {
            let buf = pool
                .lock()
                .ok()
                .and_then(|mut p| p.pop())
                .unwrap_or_default();
            select_batch(games, &names[source], &opts, buf)
        },
        |event| {
            let step = match event {
                Event::Start { .. } => Ok(()),
                Event::End { bytes, .. } => {
                    totals.bytes += bytes;
                    Ok(())
                }
                Event::Batch { source, result } => {
                    let written = emit(
                        &result,
                        &names[source],
                        &mut out,
                        dups_out.as_mut(),
                        &mut seen,
                        &mut totals,
                        &bar,
                    );
                    if let Ok(mut p) = pool.lock() {
                        p.push(result.text);
                    }
                    written
                }
                Event::Error { message, .. } => {
                    totals.io_errors += 1;
                    read_error(&bar, &message)
                }
            };
            match step {
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
    let flushed = match &mut out {
        Destination::Stream(o) if args.count => {
            writeln!(o, "{}", totals.chosen).and_then(|()| o.flush())
        }
        Destination::Stream(o) => o.flush(),
        Destination::Split(s) => s.close_all(),
    };
    if let Err(e) = flushed {
        return write_failure(&e);
    }
    let no_games = totals.games == 0 && totals.io_errors == 0;
    if no_games && let Err(e) = say(&format!("warning[no_games]: {}\n", no_games_text(&sources))) {
        return write_failure(&e);
    }
    if totals.games > 0
        && let Some(filter) = &opts.filter
        && let Err(e) = say(&missing_tags_warnings(&totals.tags, &filter.tags()))
    {
        return write_failure(&e);
    }
    if !args.quiet {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let dropped = if args.dedupe {
            format!(
                ", {} duplicate{} dropped",
                totals.duplicates,
                plural(totals.duplicates)
            )
        } else {
            String::new()
        };
        let files = match &out {
            Destination::Split(s) => format!(
                ", written into {} file{} in {}",
                s.files(),
                plural(s.files()),
                args.output.as_deref().unwrap_or(Path::new(".")).display()
            ),
            Destination::Stream(_) => String::new(),
        };
        let closing = format!(
            "pgnkit select: {} of {} games chosen{dropped}{files}; {:.1} MB in {:.2} s ({:.1} MB/s, {:.0} games/s)\n",
            totals.chosen,
            totals.games,
            totals.bytes as f64 / 1e6,
            secs,
            totals.bytes as f64 / 1e6 / secs,
            totals.games as f64 / secs
        );
        if let Err(e) = say(&closing) {
            return write_failure(&e);
        }
    }
    // 1 when nothing was chosen, as grep does: scripts can test for it.
    let code = exit_code(totals.io_errors, totals.chosen == 0);
    // The chosen games first: a split that cannot be put in place (its directory filled meanwhile) fails
    // the run, and the duplicates file is then left as it was too.
    let code = match out {
        Destination::Stream(o) => o.close(code),
        Destination::Split(s) => s.finish(code),
    };
    match dups_out {
        Some(d) => d.close(code).max(code),
        None => code,
    }
}

/// A warning for each tag `--where` names that no game of the run has, with the nearest tag name seen: a
/// misspelt tag is empty in every game, so the expression chose nothing without a word.
fn missing_tags_warnings(sightings: &TagSightings, names: &[&str]) -> String {
    sightings
        .missing(names)
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

/// Writes a batch's chosen games on the ordered output side, dropping (or diverting) duplicates.
fn emit(
    batch: &SelectBatch,
    name: &str,
    out: &mut Destination,
    mut dups_out: Option<&mut Output>,
    seen: &mut HashSet<u128, BuildHasherDefault<KeyHasher>>,
    totals: &mut Totals,
    bar: &indicatif::ProgressBar,
) -> io::Result<()> {
    totals.games += batch.games;
    totals.tags.merge(&batch.tags);
    let mut notes = String::new();
    bar.suspend(|| -> io::Result<()> {
        for chosen in &batch.chosen {
            let text = &batch.text[chosen.text.clone()];
            if let Some(key) = chosen.key
                && !seen.insert(key)
            {
                totals.duplicates += 1;
                if let Some(d) = dups_out.as_deref_mut() {
                    d.write_all(text)?;
                }
                continue;
            }
            totals.chosen += 1;
            if !chosen.notes.is_empty() {
                notes.push_str(&notes_text(&chosen.notes, name, &Paint::new(false)));
            }
            match out {
                Destination::Stream(o) => o.write_all(text)?,
                Destination::Split(s) => s.write(chosen.group.as_deref(), text)?,
            }
        }
        Ok(())
    })?;
    if !notes.is_empty() {
        say_over(bar, &notes)?;
    }
    show_games(bar, totals.games);
    Ok(())
}
