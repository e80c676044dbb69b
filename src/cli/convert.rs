//! `pgnkit convert`: every game replayed and written again in export-format PGN (moves in canonical SAN of
//! any language, LAN or UCI), JSON lines or EPD; games that cannot be converted are never dropped silently.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use crate::jobs::bulk::{self, Event};
use crate::jobs::convert::{
    BatchOutput, ConvertOptions, Notation, Note, OutputFormat, convert_batch,
};
use crate::jobs::input::Source;
use pgnkit::notation::Language;
use pgnkit::pgn::writer::Keep;

use super::diagnostics::{GameLabel, render_problems};
use super::output::{
    CYAN, ColorChoice, Paint, decimal_here, exit_code, inputs, locale, no_games_warning,
    plural_here, progress_bar, read_error, say, say_over, show_games, threads, write_failure,
};
use super::sink::open_output;
use super::validate::{LangArg, parse_lang};
use crate::jobs::localized;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum NotationArg {
    /// Standard algebraic notation, minimal disambiguation, `+`/`#`
    San,
    /// Long algebraic notation (`Ng1-f3`, `e7-e8=Q+`)
    Lan,
    /// UCI coordinates (`g1f3`, `e7e8q`); castling king-takes-rook in Chess960
    Uci,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FormatArg {
    /// PGN in export format
    Pgn,
    /// One JSON object per game: tags, moves in SAN and UCI, result, termination, language
    Jsonl,
    /// One EPD line per position of the main line, with `id "game N ply M";`
    Epd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum StripArg {
    /// Brace and `;` comments
    Comments,
    /// Variations, with everything inside them
    Variations,
    /// NAGs and suffix annotations (`!`, `?!`...)
    Nags,
    /// `[%clk ...]` commands inside comments (a comment left empty is dropped)
    Clocks,
}

#[derive(clap::Args)]
pub(crate) struct Args {
    /// PGN files or directories (searched for .pgn, .pgn.gz, .pgn.zst); `-` reads standard input
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Piece letters to write: en, fr, de, nl, es, it, pt, cs, pl, hu, fi, ro, da, no, sv, or figurine
    #[arg(long, default_value = "en", value_parser = parse_target)]
    to: Language,
    /// Piece letters of the input: `auto` detects them per game, or a language code
    #[arg(long, default_value = "auto", value_parser = parse_lang)]
    from: LangArg,
    /// How moves are written in PGN output
    #[arg(long, value_enum, default_value_t = NotationArg::San)]
    notation: NotationArg,
    /// What to leave out, comma-separated
    #[arg(long, value_enum, value_delimiter = ',')]
    strip: Vec<StripArg>,
    /// Output format
    #[arg(long, value_enum, default_value_t = FormatArg::Pgn)]
    output_format: FormatArg,
    /// Set the ECO, Opening and Variation tags to the opening the moves reach (the embedded lichess table:
    /// the latest named position of the main line); a game that reaches none keeps its tags. PGN output only
    #[arg(long)]
    add_opening: bool,
    /// Leave out games that cannot be converted (they are counted; the exit code is still 1)
    #[arg(long)]
    skip_invalid: bool,
    /// Write to FILE instead of standard output (FILE.gz, FILE.zst: compressed). FILE is replaced only when
    /// the run ends with 0 or 1, never when it is an input
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Worker threads (default, or 0: all cores; at most one per core)
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No progress bar, no summary (diagnostics are still printed)
    #[arg(long, short = 'q')]
    quiet: bool,
    /// When to colour the diagnostics (on stderr)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

fn parse_target(s: &str) -> Result<Language, String> {
    Language::from_code(s).ok_or_else(|| {
        let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
        format!("unknown language '{s}': use one of {}", codes.join(", "))
    })
}

#[derive(Default)]
struct ConvertTotals {
    games: u64,
    converted: u64,
    kept: u64,
    skipped: u64,
    bytes: u64,
    io_errors: u64,
}

pub(crate) fn run(args: Args) -> i32 {
    if args.add_opening && args.output_format != FormatArg::Pgn {
        let _ = say("pgnkit: --add-opening writes tags: it needs --output-format pgn\n");
        return 2;
    }
    let Some(sources) = inputs(&args.paths) else {
        return 2;
    };
    let opts = ConvertOptions {
        messages: locale(),
        to: args.to,
        from: args.from.0,
        notation: match args.notation {
            NotationArg::San => Notation::San,
            NotationArg::Lan => Notation::Lan,
            NotationArg::Uci => Notation::Uci,
        },
        format: match args.output_format {
            FormatArg::Pgn => OutputFormat::Pgn,
            FormatArg::Jsonl => OutputFormat::Jsonl,
            FormatArg::Epd => OutputFormat::Epd,
        },
        keep: Keep {
            comments: !args.strip.contains(&StripArg::Comments),
            variations: !args.strip.contains(&StripArg::Variations),
            nags: !args.strip.contains(&StripArg::Nags),
            clocks: !args.strip.contains(&StripArg::Clocks),
        },
        skip_invalid: args.skip_invalid,
        add_opening: args.add_opening,
    };
    let Some(mut out) = open_output(args.output.as_deref(), &sources) else {
        return 2;
    };
    let jobs = threads(args.jobs, args.quiet);
    let bar = progress_bar(&sources, args.quiet);
    let names: Vec<String> = sources.iter().map(Source::display_name).collect();
    let started = Instant::now();
    let mut summary = ConvertTotals::default();
    let paint = Paint::new(args.color.enabled(true));

    let stopped = bulk::run(
        &sources,
        jobs,
        bulk::BATCH_SIZE,
        |source, games| convert_batch(games, &names[source], &opts),
        |event| {
            let written = match event {
                Event::Start { .. } => Ok(()),
                Event::End { bytes, .. } => {
                    summary.bytes += bytes;
                    Ok(())
                }
                Event::Batch { source, result } => emit_batch(
                    &result,
                    &names[source],
                    &mut out,
                    &mut summary,
                    &bar,
                    &paint,
                ),
                Event::Error { message, .. } => {
                    summary.io_errors += 1;
                    read_error(&bar, &message)
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
    let flushed = match stopped {
        Some(e) => Err(e),
        None => out.flush(),
    };
    if let Err(e) = flushed {
        return write_failure(&e);
    }
    let no_games = summary.games == 0 && summary.io_errors == 0;
    if no_games && let Err(e) = say(&no_games_warning(&sources)) {
        return write_failure(&e);
    }
    if !args.quiet
        && let Err(e) = say(&summary_text(&summary, started.elapsed().as_secs_f64()))
    {
        return write_failure(&e);
    }
    // Said before the output is put in place: a run that cannot report is a failed run.
    out.close(exit_code(
        summary.io_errors,
        summary.kept + summary.skipped > 0 || no_games,
    ))
}

fn emit_batch(
    result: &BatchOutput,
    name: &str,
    out: &mut impl Write,
    summary: &mut ConvertTotals,
    bar: &indicatif::ProgressBar,
    paint: &Paint,
) -> io::Result<()> {
    summary.games += result.games;
    summary.converted += result.converted;
    summary.kept += result.kept;
    summary.skipped += result.skipped;
    if !result.notes.is_empty() {
        say_over(bar, &notes_text(&result.notes, name, paint))?;
    }
    show_games(bar, summary.games);
    bar.suspend(|| out.write_all(&result.text))
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

fn summary_text(s: &ConvertTotals, elapsed: f64) -> String {
    let (games, out) = (s.games, s.converted + s.kept);
    let (converted, kept, skipped) = (s.converted, s.kept, s.skipped);
    let mb_per_s = decimal_here(s.bytes as f64 / elapsed.max(1e-9) / 1e6, 1);
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
    if s.io_errors > 0 {
        let n = s.io_errors;
        let p = plural_here(n);
        text.push_str(&localized!(
            locale(),
            "{n} input{p} could not be read\n",
            "{n} entrée{p} illisible{p}\n"
        ));
    }
    text
}
