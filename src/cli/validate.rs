//! `pgnkit validate`: replay every game, report each problem like a compiler would, exit non-zero on errors.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use pgnkit::jobs::bulk::{self, Event};
use pgnkit::jobs::pipeline::SpentBin;
use pgnkit::jobs::validate::{GameReport, Severity, Tournament, ValidateOptions, validate_game};
use pgnkit::notation::Language;

use super::output::{
    BOLD, CYAN, ColorChoice, Paint, RED, YELLOW, exit_code, inputs, no_games_text, plural,
    progress_bar, read_error, say, say_over, show_games, threads, write_failure,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Diagnostics with the source line and a caret, then a summary
    Human,
    /// One JSON object per game (JSON lines); the summary goes to stderr
    Json,
}

#[derive(clap::Args)]
pub struct Args {
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
    /// Skip the tournament checks (Seven Tag Roster, tag formats, duplicates, a player twice in a round)
    #[arg(long)]
    no_tournament_checks: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct LangArg(pub Option<Language>);

pub fn parse_lang(s: &str) -> Result<LangArg, String> {
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

#[derive(Default)]
struct Summary {
    games: u64,
    plies: u64,
    variation_moves: u64,
    errors: u64,
    warnings: u64,
    games_with_errors: u64,
    bytes: u64,
    terminations: BTreeMap<&'static str, u64>,
    claimable: BTreeMap<&'static str, u64>,
    io_errors: u64,
}

pub fn run(args: Args) -> i32 {
    let Some(sources) = inputs(&args.paths) else {
        return 2;
    };
    let opts = ValidateOptions {
        lang: args.lang.0,
        finished: args.finished,
        tag_checks: !args.no_tournament_checks,
        track_claims: true,
        final_fen: args.format == Format::Json,
    };
    let jobs = threads(args.jobs, args.quiet);
    let json = args.format == Format::Json;
    let paint = Paint::new(args.color.enabled(false));
    let bar = progress_bar(&sources, args.quiet);
    let names: Vec<std::sync::Arc<str>> = sources.iter().map(|s| s.display_name().into()).collect();
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut tournament = Tournament::new();
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
                Event::Start { .. } => {
                    tournament = Tournament::new();
                    Ok(())
                }
                Event::Batch { result, .. } => {
                    summary.bytes += result.bytes;
                    emit_batch(
                        result,
                        &mut out,
                        &mut summary,
                        &mut tournament,
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
                Event::End { source } if tournament.saturated && !args.quiet => say_over(
                    &bar,
                    &format!(
                        "pgnkit: {}: more than {} games; duplicate and round checks stopped there\n",
                        names[source],
                        pgnkit::jobs::validate::tournament::MAX_TRACKED_GAMES
                    ),
                ),
                Event::End { .. } => Ok(()),
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
        let said = if json {
            say(&text)
        } else {
            out.write_all(text.as_bytes())
        };
        if let Err(e) = said {
            return write_failure(&e);
        }
    }
    if !args.quiet {
        let text = summary_text(&summary, elapsed, &paint);
        let said = if json {
            say(&text)
        } else {
            out.write_all(text.as_bytes())
        };
        if let Err(e) = said {
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
    summary: &mut Summary,
    tournament: &mut Tournament,
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
        let errors = report.errors() as u64;
        summary.errors += errors;
        summary.warnings += report.warnings() as u64;
        summary.games_with_errors += u64::from(errors > 0);
        *summary.terminations.entry(report.termination).or_default() += 1;
        for claim in &report.claimable {
            *summary.claimable.entry(claim).or_default() += 1;
        }
        if json {
            match line {
                Some(line) if !added => text.push_str(line),
                _ => text.push_str(&serde_json::to_string(&report).unwrap_or_default()),
            }
            text.push('\n');
        } else if !report.problems.is_empty() {
            render_human_into(report, paint, &mut text);
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

/// Appends the diagnostics of one game to `text`, compiler style: severity and kind, the message,
/// `file:line:col` with the game, the source line with a caret under the move, and any suggestion. Written
/// without temporary Strings: a file with many warnings renders them by the hundred thousand, on the ordered
/// output thread.
pub fn render_human_into(report: &GameReport, paint: &Paint, text: &mut String) {
    let name = |n: &str| if n.is_empty() { "?" } else { n }.to_owned();
    // Everything is pushed piece by piece: on a file with hundreds of thousands of warnings (duplicate games),
    // the formatting machinery was a good part of the ordered output thread's time.
    let players = if report.white.is_empty() && report.black.is_empty() {
        String::new()
    } else {
        [", ", &name(&report.white), " – ", &name(&report.black)].concat()
    };
    let round = if report.round.is_empty() || report.round == "?" || report.round == "-" {
        String::new()
    } else {
        [", round ", report.round.as_str()].concat()
    };
    for p in &report.problems {
        let (colour, severity) = match p.severity {
            Severity::Error => (RED, "error"),
            Severity::Warning => (YELLOW, "warning"),
        };
        paint.push(
            colour,
            &[severity, "[", p.kind.as_str(), "]"].concat(),
            text,
        );
        text.push_str(": ");
        paint.push(BOLD, &p.message, text);
        text.push_str("\n  ");
        paint.push(CYAN, "-->", text);
        text.push(' ');
        text.push_str(&report.file);
        text.push(':');
        pgnkit::core::decimal::push(text, p.line);
        text.push(':');
        pgnkit::core::decimal::push(text, p.column);
        text.push_str(" (game ");
        pgnkit::core::decimal::push(text, report.game);
        text.push_str(&players);
        text.push_str(&round);
        if let (Some(n), Some(m)) = (&p.move_number, &p.move_text) {
            text.push_str("; ");
            text.push_str(n);
            text.push(' ');
            text.push_str(m);
            if p.in_variation {
                text.push_str(" in a variation");
            }
        }
        text.push_str(")\n");
        if !p.source_line.is_empty() {
            let line = p.line.to_string();
            let (shown, caret_at) = window(&p.source_line, p.column as usize);
            let caret_len = p.move_text.as_ref().map_or(1, |m| m.chars().count().max(1));
            let gutter = " ".repeat(line.len());
            // gutter and bar
            text.push_str(&gutter);
            text.push(' ');
            paint.push(CYAN, "|", text);
            text.push('\n');
            // line number, bar, the line
            paint.push(CYAN, &line, text);
            text.push(' ');
            paint.push(CYAN, "|", text);
            text.push(' ');
            text.push_str(&shown);
            text.push('\n');
            // the carets under the move
            text.push_str(&gutter);
            text.push(' ');
            paint.push(CYAN, "|", text);
            text.push(' ');
            text.push_str(&caret_at);
            paint.push(colour, &"^".repeat(caret_len), text);
            text.push('\n');
        }
        if let Some(s) = &p.suggestion {
            text.push_str("  ");
            paint.push(CYAN, "= help:", text);
            text.push(' ');
            text.push_str(s);
            text.push('\n');
        }
        text.push('\n');
    }
}

/// At most about 100 characters of a long line around `column` (1-based), and the padding that puts a caret
/// under that column (tabs kept, so the caret lines up).
fn window(line: &str, column: usize) -> (String, String) {
    const SPAN: usize = 48;
    let chars: Vec<char> = line.chars().collect();
    let col = column.saturating_sub(1).min(chars.len());
    let (from, to) = if chars.len() <= 2 * SPAN + 4 {
        (0, chars.len())
    } else {
        let from = col.saturating_sub(SPAN);
        (from, (col + SPAN).min(chars.len()))
    };
    let mut shown: String = chars[from..to].iter().collect();
    let mut pad: String = chars[from..col]
        .iter()
        .map(|&c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    if from > 0 {
        shown.insert(0, '…');
        pad.insert(0, ' ');
    }
    if to < chars.len() {
        shown.push('…');
    }
    (shown, pad)
}

fn summary_text(s: &Summary, elapsed: f64, paint: &Paint) -> String {
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
        "{verdict}, {} warning{}\n",
        s.warnings,
        plural(s.warnings)
    ));
    let endings: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    text.push_str(&format!("endings: {}\n", endings.join(", ")));
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
