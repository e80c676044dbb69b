//! Terminal concerns shared by the subcommands: inputs, threads, colours, progress bars, checked writes to
//! standard error (never `eprintln!`, which panics when stderr is gone), writing to a pipe that may close early
//! (`| head` must end quietly with exit 0), and exit codes. The `-o` file is in `sink`.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::jobs::localized;
use crate::jobs::messages::{Locale, plural as plural_in};

use crate::jobs::messages::Explain;
use crate::jobs::options::{
    AllocatedBye, Choices, InputFormat, Lang, Messages, Moveless, Tiebreaks, UnknownChoice,
    UnplayedRules,
};
use crate::jobs::run::{JobError, Source, Sources, Threads};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::str::FromStr;

use crate::jobs::safe_text::safe;

/// The inputs named on the command line, directories expanded; `None` once the reason is said on stderr
/// (the exit code is then 2). What a directory search left out (a FIFO, a second link to a file or a
/// directory) is said on stderr as a warning.
pub(crate) fn inputs(paths: &[PathBuf], run: &RunFlags) -> Option<Sources> {
    match Sources::expand(paths) {
        Ok(found) => {
            let found = found.with_format(run.input_format);
            for skipped in found.skipped() {
                let _ = say(&format!(
                    "pgnkit: warning: {}\n",
                    safe(&skipped.to_string())
                ));
            }
            Some(found)
        }
        Err(e) => {
            let _ = say(&format!("pgnkit: {}\n", safe(&e.to_string())));
            None
        }
    }
}

/// The flags every run over games has: threads and quiet. Each command says what `-q` silences.
#[derive(clap::Args)]
pub(crate) struct RunFlags {
    /// Worker threads (default, or 0: all cores; at most one per core)
    #[arg(long, short = 'j')]
    pub(crate) jobs: Option<usize>,
    /// No progress bar, no closing line on stderr
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// What the inputs hold: by default Parquet when a file starts as one (rows of games: tag columns and
    /// `movetext`, or a `pgn` column), else PGN
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = choice::<InputFormat>())]
    pub(crate) input_format: InputFormat,
}

impl RunFlags {
    /// The threads of the run (see [`run_threads`]).
    pub(crate) fn threads(&self) -> Threads {
        run_threads(self.jobs, self.quiet)
    }
}

/// `--lang`, for the commands that read moves in any language.
#[derive(clap::Args)]
pub(crate) struct LangFlag {
    /// Piece letters of the moves: `auto` detects them per game, or a language code (en, fr, de, nl, es, it,
    /// pt, cs, pl, hu, fi, ro, da, no, sv, figurine)
    #[arg(long, default_value = "auto")]
    pub(crate) lang: Lang,
}

/// `--moveless` and `--allocated-bye`: how the commands that read a tournament (validate, standings, report)
/// read the games that are not played games.
#[derive(clap::Args)]
pub(crate) struct UnplayedFlags {
    /// What a decided game without a single move is: `forfeit` (TRF + and -), `unrated` (less than one move:
    /// W, D, L) or `played` (its moves are missing). A Termination tag saying forfeit is one whatever this says
    #[arg(long, value_name = "READING", default_value = "forfeit", value_parser = choice::<Moveless>())]
    pub(crate) moveless: Moveless,
    /// Which full-point byes are the pairing-allocated bye (TRF U): `none` (a bye game's full point is a
    /// requested bye, F; a round without a game an absence, Z), `bye-game` (a bye game's full point is U) or
    /// `unpaired` (also: the one player without a game in a round had U, a point)
    #[arg(long, value_name = "BYES", default_value = "none", value_parser = choice::<AllocatedBye>())]
    pub(crate) allocated_bye: AllocatedBye,
}

impl UnplayedFlags {
    /// The rules the jobs read the games by.
    pub(crate) fn rules(&self) -> UnplayedRules {
        UnplayedRules {
            moveless: self.moveless,
            allocated_bye: self.allocated_bye,
        }
    }
}

/// `--tiebreaks`: the tie-breaks the commands that rank tournaments (standings, report) rank by.
#[derive(clap::Args)]
pub(crate) struct TiebreakFlag {
    /// Tie-breaks after points, in order, by FIDE's codes (C.07), comma-separated: PTS, DE, WIN, WON, BPG,
    /// BWG, GE, PS, BH, FB, AOB, SB, KS, ARO, TPR, PTP, APRO, APPO, with a modifier /C1, /C2 (cut) or /M1, /M2
    /// (median), e.g. DE,BH/C1,BH,SB: the list of the tournament's regulations. Default: a list in the order
    /// FIDE has recommended for each tournament's kind (round robin: DE,WIN,SB,KS; Swiss:
    /// BH/C1,BH,DE,ARO/C1,WIN,BWG,BPG,SB). The former names buchholz_cut1, buchholz, sonneborn_berger, wins and
    /// direct_encounter read as BH/C1, BH, SB, WIN, DE
    #[arg(long, value_name = "CODES")]
    tiebreaks: Option<String>,
}

impl TiebreakFlag {
    /// The tie-breaks asked for (each tournament's default without the flag); `None`, said in the run's
    /// language with `command`'s name, for a list that is none.
    pub(crate) fn tiebreaks(&self, command: &str) -> Option<Tiebreaks> {
        let Some(codes) = &self.tiebreaks else {
            return Some(Tiebreaks::default());
        };
        match codes.parse::<Tiebreaks>() {
            Ok(tiebreaks) => Some(tiebreaks),
            Err(e) => {
                let _ = say(&localized!(
                    locale(),
                    "pgnkit {command}: --tiebreaks: {}\n",
                    "pgnkit {command} : --tiebreaks : {}\n",
                    safe(&e.explain(locale()))
                ));
                None
            }
        }
    }
}

/// `-o FILE`, for the commands that write one output.
#[derive(clap::Args)]
pub(crate) struct OutputFlag {
    /// Write to FILE instead of standard output (FILE.gz, FILE.zst: compressed). FILE is replaced only when
    /// the run ends with 0 or 1, never when it is an input
    #[arg(long, short = 'o', value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
}

/// The parser of an option with a fixed set of values: clap lists them with what each means, and hands the
/// one given to the type's `FromStr`.
pub(crate) fn choice<T>() -> impl clap::builder::TypedValueParser<Value = T>
where
    T: Choices + FromStr + Clone + Send + Sync + 'static,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(T::CHOICES.iter().map(|&(name, _, help)| {
        let value = PossibleValue::new(name);
        if help.is_empty() {
            value
        } else {
            value.help(help)
        }
    }))
    .try_map(|word| word.parse::<T>())
}

/// Worker threads for `--jobs`: as many as asked up to the cap (one per core); none given or 0, all cores. A
/// capped request is said on stderr unless `quiet`.
pub(crate) fn run_threads(jobs: Option<usize>, quiet: bool) -> Threads {
    let (threads, capped) = Threads::asked(jobs);
    if let Some(capped) = capped
        && !quiet
    {
        let _ = say(&localized!(
            locale(),
            "pgnkit: {}\n",
            "pgnkit : {}\n",
            capped.explain(locale())
        ));
    }
    threads
}

/// The language of the run's messages, set once from `--messages` or the environment.
static LOCALE: OnceLock<Locale> = OnceLock::new();

/// The language of the messages: `--messages` when given, else from `LC_ALL`/`LC_MESSAGES`/`LANG`.
pub(crate) fn set_locale(asked: Option<Locale>) {
    let _ = LOCALE.set(asked.unwrap_or_else(locale_from_env));
}

/// The run's message language (English until [`set_locale`]).
pub(crate) fn locale() -> Locale {
    LOCALE.get().copied().unwrap_or_default()
}

/// What the POSIX locale variables ask for (see [`Locale::from_posix`]).
pub(crate) fn locale_from_env() -> Locale {
    let var = |name: &str| std::env::var(name).ok();
    Locale::from_posix(
        var("LC_ALL").as_deref(),
        var("LC_MESSAGES").as_deref(),
        var("LANG").as_deref(),
    )
}

/// `--messages`: `en` or `fr`.
pub(crate) fn parse_messages(s: &str) -> Result<Locale, UnknownChoice> {
    s.parse::<Messages>().map(|m| m.0)
}

/// `value` with `places` decimals as the run's language writes it: `0.25` in English, `0,25` in French.
pub(crate) fn decimal_here(value: f64, places: usize) -> String {
    crate::jobs::messages::localized_decimal(locale(), &format!("{value:.places$}")).into_owned()
}

/// `s` after a count that takes the plural in the run's language.
pub(crate) fn plural_here(n: u64) -> &'static str {
    plural_in(locale(), n)
}

/// Set once a write to standard error failed: nothing more can be said, and the exit code becomes 2.
static STDERR_LOST: AtomicBool = AtomicBool::new(false);

/// Writes `text` to standard error as it is (the caller ends it with a newline). A failure is remembered
/// (see [`stderr_lost`]) and returned, so that a run can stop: what it has to say can no longer be said.
pub(crate) fn say(text: &str) -> io::Result<()> {
    let written = io::stderr().lock().write_all(text.as_bytes());
    if written.is_err() {
        STDERR_LOST.store(true, Ordering::Relaxed);
    }
    written
}

/// [`say`] without garbling the progress bar.
pub(crate) fn say_over(bar: &ProgressBar, text: &str) -> io::Result<()> {
    bar.suspend(|| say(text))
}

/// Whether a write to standard error failed during the run (the exit code is then 2).
pub(crate) fn stderr_lost() -> bool {
    STDERR_LOST.load(Ordering::Relaxed)
}

/// The warning of a run that read its inputs without finding a single game (exit code 1): an empty file, empty
/// standard input, a file of blank lines, or a wrong path to something that is not PGN.
pub(crate) fn no_games_text(sources: &[Source]) -> String {
    let n = sources.len();
    match sources {
        [Source::Stdin] => localized!(
            locale(),
            "no game found on standard input",
            "aucune partie trouvée sur l'entrée standard"
        ),
        [Source::File(p)] => localized!(
            locale(),
            "no game found in {}",
            "aucune partie trouvée dans {}",
            p.display()
        ),
        _ => localized!(
            locale(),
            "no game found in the {n} inputs",
            "aucune partie trouvée dans les {n} entrées"
        ),
    }
}

/// The `no_games` warning line on stderr (convert, stats), in the run's language.
pub(crate) fn no_games_warning(sources: &[Source]) -> String {
    localized!(
        locale(),
        "warning[no_games]: {}\n",
        "avertissement[no_games] : {}\n",
        no_games_text(sources)
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub(crate) enum ColorChoice {
    /// Colours when writing to a terminal
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour output written to stdout (`for_stderr` false) or stderr.
    pub(crate) fn enabled(self, for_stderr: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none()
                    && if for_stderr {
                        io::stderr().is_terminal()
                    } else {
                        io::stdout().is_terminal()
                    }
            }
        }
    }
}

/// ANSI styles, or nothing when colours are off.
#[derive(Clone, Copy)]
pub(crate) struct Paint {
    on: bool,
}

impl Paint {
    pub(crate) fn new(on: bool) -> Paint {
        Paint { on }
    }

    /// `value` in the colour `code` when colours are on, written straight into whatever formats it (no
    /// String of its own: diagnostics are rendered by the thousand).
    pub(crate) fn show<T: fmt::Display>(&self, code: &'static str, value: T) -> Painted<T> {
        Painted {
            on: self.on,
            code,
            value,
        }
    }

    /// Appends `text` in the colour `code` when colours are on: [`Paint::show`] without the formatting
    /// machinery, for the per-diagnostic hot path.
    pub(crate) fn push(&self, code: &'static str, text: &str, out: &mut String) {
        if self.on {
            out.push_str("\x1b[");
            out.push_str(code);
            out.push('m');
            out.push_str(text);
            out.push_str("\x1b[0m");
        } else {
            out.push_str(text);
        }
    }

    pub(crate) fn error(&self, text: &str) -> String {
        self.show(RED, text).to_string()
    }

    pub(crate) fn bold(&self, text: &str) -> String {
        self.show(BOLD, text).to_string()
    }
}

/// Colour codes for [`Paint::show`].
pub(crate) const RED: &str = "1;31";
pub(crate) const YELLOW: &str = "1;33";
pub(crate) const GREEN: &str = "1;32";
pub(crate) const CYAN: &str = "1;36";
pub(crate) const BOLD: &str = "1";

/// A value shown in a colour (see [`Paint::show`]).
pub(crate) struct Painted<T> {
    on: bool,
    code: &'static str,
    value: T,
}

impl<T: fmt::Display> fmt::Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.on {
            write!(f, "\x1b[{}m{}\x1b[0m", self.code, self.value)
        } else {
            self.value.fmt(f)
        }
    }
}

/// A progress bar over the bytes of the inputs, on stderr, only when stderr is a terminal and the user did
/// not ask for quiet; it appears after a short delay so quick runs stay clean.
pub(crate) fn progress_bar(sources: &[Source], quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // Unknown (no bar, a counter) as soon as one input is standard input.
    let total_bytes: Option<u64> = sources.iter().map(Source::size_hint).sum();
    let bar = match total_bytes {
        Some(total) => {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4))
        }
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4)),
    };
    let template = if total_bytes.is_some() {
        "{spinner} [{elapsed_precise}] [{wide_bar}] {bytes}/{total_bytes} ({bytes_per_sec}, {msg}) ETA {eta}"
    } else {
        "{spinner} [{elapsed_precise}] {bytes} ({bytes_per_sec}, {msg})"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// Sets the progress bar's message to the games read so far and their rate (nothing when the bar is hidden).
pub(crate) fn show_games(bar: &ProgressBar, games: u64) {
    if bar.is_hidden() {
        return;
    }
    let secs = bar.elapsed().as_secs_f64().max(1e-3);
    bar.set_message(format!("{games} games, {:.0} games/s", games as f64 / secs));
}

/// An input that could not be opened or read, said on stderr without garbling the progress bar; the error
/// is that of stderr.
pub(crate) fn read_error(bar: &ProgressBar, message: &str) -> io::Result<()> {
    // the message names a file: its name may hold anything
    say_over(bar, &format!("pgnkit: {}\n", safe(message)))
}

/// Exit code for a failed write: a closed pipe (`| head`) is a normal way to stop reading, so 0; anything
/// else is said on stderr, 2; and 2 without a word once stderr itself cannot be written.
pub(crate) fn write_failure(e: &io::Error) -> i32 {
    if stderr_lost() {
        return 2;
    }
    if e.kind() == io::ErrorKind::BrokenPipe {
        return 0;
    }
    let _ = say(&localized!(
        locale(),
        "pgnkit: cannot write output: {e}\n",
        "pgnkit : impossible d'écrire la sortie : {e}\n"
    ));
    2
}

/// The exit code of a run that stopped on `error`, said on stderr: a write failure as [`write_failure`] says
/// it (a closed pipe is 0), anything else with 2.
pub(crate) fn failure(error: &JobError) -> i32 {
    match error {
        JobError::Output(e) => write_failure(e),
        // the message names a file: its name may hold anything
        JobError::Input(e) => {
            let _ = say(&format!("pgnkit: {}\n", safe(&e.to_string())));
            2
        }
        other => {
            let _ = say(&format!("pgnkit: {}\n", other.explain(locale())));
            2
        }
    }
}

/// Writes `bytes` to standard output; the exit code.
pub(crate) fn print_bytes(bytes: &[u8]) -> i32 {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) => write_failure(&e),
    }
}

/// The summary's line for inputs that could not be read (none when `n` is 0).
pub(crate) fn unread_inputs(n: u64) -> String {
    if n == 0 {
        return String::new();
    }
    let p = plural_here(n);
    localized!(
        locale(),
        "{n} input{p} could not be read\n",
        "{n} entrée{p} illisible{p}\n"
    )
}

/// The exit code of a bulk run: 2 when an input could not be read, else 1 when problems were found, else 0.
pub(crate) fn exit_code(io_errors: u64, problems: bool) -> i32 {
    if io_errors > 0 {
        2
    } else if problems {
        1
    } else {
        0
    }
}

/// `"s"` unless `n` is 1.
pub(crate) fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
