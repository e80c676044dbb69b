//! Command-line parsing and dispatch. Exit codes: 0 clean, 1 problems found, 2 usage or I/O error.

use clap::{Parser, Subcommand};

mod convert;
mod fen;
mod output;
mod perft;
mod stats;
mod validate;

#[derive(Parser)]
#[command(
    name = "pgnkit",
    version,
    about = "Validate, convert and summarise chess PGN and FEN files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game and report illegal, ambiguous or unreadable moves, endings and result problems
    Validate(validate::Args),
    /// One CSV row per game (or per move) with tags, validity and move counts, or a summary with standings
    Stats(stats::Args),
    /// Check a FEN and show the position, its status and its legal moves
    Fen(fen::Args),
    /// Rewrite games in export-format PGN (any piece-letter language, SAN/LAN/UCI), JSON lines or EPD
    Convert(convert::Args),
    /// Count the leaf nodes of the legal move tree (move generator check)
    Perft(perft::Args),
}

pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Fen(args) => fen::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Perft(args) => perft::run(args),
    }
}
