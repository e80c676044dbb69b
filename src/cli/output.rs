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

use crate::jobs::input::{self, Source};
use crate::jobs::pipeline::default_jobs;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::jobs::safe_text::safe;

/// The inputs named on the command line, directories expanded; `None` once the reason is said on stderr
/// (the exit code is then 2). What a directory search left out (a FIFO, a second link to a file or a
/// directory) is said on stderr as a warning.
pub(crate) fn inputs(paths: &[PathBuf]) -> Option<Vec<Source>> {
    match input::expand(paths) {
        Ok(found) => {
            for skipped in &found.skipped {
                let _ = say(&format!(
                    "pgnkit: warning: {}\n",
                    safe(&skipped.to_string())
                ));
            }
            Some(found.sources)
        }
        Err(e) => {
            let _ = say(&format!("pgnkit: {}\n", safe(&e.to_string())));
            None
        }
    }
}

/// How many worker threads a run may have per core. More only adds contention and memory (4 batches in
/// flight per thread; the thread counts tried: docs/performance.md, "Tuning constants").
pub(crate) const THREADS_PER_CORE: usize = 1;

/// Worker threads for `--jobs`: as many as asked up to the cap ([`THREADS_PER_CORE`] per core, as counted by
/// `available_parallelism`, which follows CPU affinity and cgroup quotas); none given or 0, all cores. A
/// capped request is said on stderr unless `quiet`.
pub(crate) fn threads(jobs: Option<usize>, quiet: bool) -> usize {
    let cores = default_jobs().max(1);
    let most = cores * THREADS_PER_CORE;
    match jobs {
        None | Some(0) => cores,
        Some(n) if n > most => {
            if !quiet {
                let _ = say(&localized!(
                    locale(),
                    "pgnkit: --jobs {n} capped to {most}, the number of cores available\n",
                    "pgnkit : --jobs {n} ramené à {most}, le nombre de cœurs disponibles\n"
                ));
            }
            most
        }
        Some(n) => n,
    }
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
pub(crate) fn parse_messages(s: &str) -> Result<Locale, String> {
    Locale::from_code(s).ok_or_else(|| format!("unknown message language '{s}': use en or fr"))
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

/// Writes `bytes` to standard output; the exit code.
pub(crate) fn print_bytes(bytes: &[u8]) -> i32 {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) => write_failure(&e),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_zero_is_all_cores_and_requests_are_capped() {
        let cores = default_jobs();
        assert_eq!(threads(None, true), cores);
        assert_eq!(threads(Some(0), true), cores);
        assert_eq!(threads(Some(1), true), 1);
        assert_eq!(threads(Some(cores), true), cores);
        assert_eq!(threads(Some(100_000), true), cores * THREADS_PER_CORE);
        assert_eq!(threads(Some(usize::MAX), true), cores * THREADS_PER_CORE);
    }
}
