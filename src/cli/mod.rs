//! Command-line parsing and dispatch. Exit codes: 0 clean, 1 problems found, 2 usage or I/O error.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod completions;
mod convert;
mod diagnostics;
mod fen;
mod help_fr;
mod man;
mod output;
mod perft;
mod plan;
mod repair;
mod report;
mod select;
mod sink;
mod split;
mod standings;
mod stats;
mod tree;
mod validate;

/// Shown at the end of `--help` and in the manual pages.
const EXIT_CODES: &str = "Exit codes: 0 clean, 1 problems found, 2 usage or I/O error.";

/// select's, which reads "problems found" as grep does.
const SELECT_EXIT_CODES: &str =
    "Exit codes: 0 some game chosen, 1 no game chosen, 2 usage or I/O error.";

/// tree's: an empty tree is "nothing found", as select's nothing chosen.
const TREE_EXIT_CODES: &str =
    "Exit codes: 0 a tree written, 1 no game reaches the root, 2 usage or I/O error.";

#[derive(Parser)]
#[command(
    name = "pgnkit",
    version,
    about = "Validate, convert and summarise chess PGN and FEN files",
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Language of the messages for people: en or fr (default: from LC_ALL, LC_MESSAGES or LANG, else en).
    /// Problem kinds, JSON keys and CSV columns never change with it
    #[arg(long, global = true, value_name = "LANG", value_parser = output::parse_messages)]
    messages: Option<pgnkit_jobs::messages::Locale>,
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game and report illegal, ambiguous or unreadable moves, endings and result problems
    #[command(after_help = EXIT_CODES)]
    Validate(validate::Args),
    /// One CSV row per game (or per move) with tags, validity and move counts, or a summary with standings
    #[command(after_help = EXIT_CODES)]
    Stats(stats::Args),
    /// The opening tree of the games' main lines: every position to a depth, each move's games, results,
    /// ratings and opening; as text, CSV, JSON lines, Parquet, an HTML page or a Polyglot book
    #[command(after_help = TREE_EXIT_CODES)]
    Tree(tree::Args),
    /// Check a FEN and show the position, its status and its legal moves
    #[command(after_help = EXIT_CODES)]
    Fen(fen::Args),
    /// Rewrite games in export-format PGN (any piece-letter language, SAN/LAN/UCI), JSON lines or EPD
    #[command(after_help = EXIT_CODES)]
    Convert(convert::Args),
    /// Put right the slips of transcribed games (a wrong letter or square, a move left out, written twice or
    /// swapped): a game is repaired when one correction lets the rest replay
    #[command(after_help = EXIT_CODES)]
    Repair(repair::Args),
    /// Write the games that match an expression, reach a position or are not duplicates, as they were
    #[command(after_help = SELECT_EXIT_CODES)]
    Select(select::Args),
    /// Tournament standings with tie-breaks (Buchholz, Sonneborn-Berger, direct encounter...), per (Event, Site, year); FIDE TRF-16
    #[command(after_help = EXIT_CODES)]
    Standings(standings::Args),
    /// One self-contained HTML page: standings, crosstables, each game's status, a diagram at each error
    #[command(after_help = EXIT_CODES)]
    Report(report::Args),
    /// Count the leaf nodes of the legal move tree (move generator check)
    #[command(after_help = EXIT_CODES)]
    Perft(perft::Args),
    /// Print the shell completion script for SHELL
    #[command(hide = true)]
    Completions(completions::Args),
    /// Print the manual page in roff, or write one page per command into a directory
    #[command(hide = true)]
    Man(man::Args),
}

/// The clap definition of the whole command line, for the generated completions and manual pages.
fn command() -> clap::Command {
    Cli::command()
}

pub(crate) fn run() -> i32 {
    // The help is in the run's language, which must be known before the command line is parsed.
    let mut command = command();
    if help_locale(std::env::args_os()) == pgnkit_jobs::messages::Locale::Fr {
        command = help_fr::translate(command);
    }
    let parsed = command
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let code = match parsed {
        Ok(cli) => dispatch(cli),
        // Usage errors go to stderr (2); --help and --version to stdout (0).
        Err(e) => match (e.print(), e.use_stderr()) {
            (_, true) => 2,
            (Ok(()), false) => 0,
            (Err(e), false) => output::write_failure(&e),
        },
    };
    finish(code)
}

/// The language of `--help` and of clap's usage errors: `--messages X` (or `--messages=X`) among the
/// arguments, else the environment's. Arguments need not be UTF-8 (`args_os`: a hostile one is clap's to
/// refuse, not a panic here).
fn help_locale(args: impl Iterator<Item = std::ffi::OsString>) -> pgnkit_jobs::messages::Locale {
    let args: Vec<String> = args
        .map(|a| a.to_str().unwrap_or_default().to_string())
        .collect();
    let asked = args
        .iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--messages") {
            Some("") => args.get(i + 1).map(String::as_str),
            Some(rest) => rest.strip_prefix('='),
            None => None,
        });
    asked
        .and_then(|code| output::parse_messages(code).ok())
        .unwrap_or_else(output::locale_from_env)
}

/// The exit code once standard output is flushed: 2 when that fails (a closed pipe apart, which keeps `code`;
/// a failure already reported, with 2, is not said twice), or when standard error could not be written during
/// the run.
fn finish(code: i32) -> i32 {
    use std::io::Write;
    let code = match std::io::stdout().flush() {
        Err(e) if code != 2 && e.kind() != std::io::ErrorKind::BrokenPipe => {
            output::write_failure(&e)
        }
        _ => code,
    };
    if output::stderr_lost() { 2 } else { code }
}

fn dispatch(cli: Cli) -> i32 {
    output::set_locale(cli.messages);
    match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Tree(args) => tree::run(args),
        Command::Fen(args) => fen::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Select(args) => select::run(args),
        Command::Repair(args) => repair::run(args),
        Command::Standings(args) => standings::run(args),
        Command::Report(args) => report::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    }
}
