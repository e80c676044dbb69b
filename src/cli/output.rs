//! Terminal concerns shared by the subcommands: colours, progress bars, and writing to a pipe that may
//! close early (`| head` must end quietly with exit 0).

use std::io::{self, IsTerminal};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum ColorChoice {
    /// Colours when writing to a terminal
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour output written to stdout (`for_stderr` false) or stderr.
    pub fn enabled(self, for_stderr: bool) -> bool {
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
pub struct Paint {
    on: bool,
}

impl Paint {
    pub fn new(on: bool) -> Paint {
        Paint { on }
    }

    fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn error(&self, text: &str) -> String {
        self.wrap("1;31", text)
    }

    pub fn warning(&self, text: &str) -> String {
        self.wrap("1;33", text)
    }

    pub fn note(&self, text: &str) -> String {
        self.wrap("1;36", text)
    }

    pub fn bold(&self, text: &str) -> String {
        self.wrap("1", text)
    }
}

/// A progress bar over the bytes of the input, on stderr, only when stderr is a terminal and the user did
/// not ask for quiet; it appears after a short delay so quick runs stay clean.
pub fn progress_bar(total_bytes: Option<u64>, quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
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

/// True for the error a write to a closed pipe gives.
pub fn is_broken_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}
