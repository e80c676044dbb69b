//! Reads a PGN file and prints, for each game, its tags and the number of moves of its main line, then every
//! problem the reader found, located as `line:column`.
//!
//! Usage: cargo run -p pgnkit --example read_games -- FILE.pgn
//!
//! The file is read in blocks ([`pgnkit::pgn::read_games`]): memory stays bounded whatever its size. The
//! reader is lenient: a damaged game gets located diagnostics and the next games are read as usual.

use std::fs::File;
use std::ops::ControlFlow;
use std::process::ExitCode;

use pgnkit::pgn::{DEFAULT_BLOCK, DiagnosticSeverity, Game, read_games};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!("usage: read_games FILE.pgn");
        return ExitCode::from(2);
    };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut errors = 0;
    let read = read_games(file, DEFAULT_BLOCK, |game| {
        errors += print_game(&path, game);
        ControlFlow::<()>::Continue(())
    });
    match read {
        // A read error, or a game longer than the reader's limit (its message says where it starts).
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::from(2)
        }
        Ok(_) if errors > 0 => ExitCode::FAILURE,
        Ok(_) => ExitCode::SUCCESS,
    }
}

/// Prints one game; returns how many errors the reader found in it.
fn print_game(path: &str, game: &Game<'_>) -> usize {
    println!("game {} (line {}):", game.index + 1, game.line);
    for tag in &game.tags {
        println!("  [{} \"{}\"]", game.tag_name(tag), game.tag_value(tag));
    }
    let result = game.result.map_or("none", |r| r.as_str());
    println!(
        "  {} moves in the main line, termination marker {result}",
        game.main_line().count()
    );
    // One cursor for the game's problems: they come in order, so locating them all is one pass.
    let mut locator = game.locator();
    let mut errors = 0;
    for problem in &game.diagnostics {
        let severity = match problem.kind.severity() {
            DiagnosticSeverity::Error => {
                errors += 1;
                "error"
            }
            DiagnosticSeverity::Warning => "warning",
            DiagnosticSeverity::Note => "note",
        };
        let at = locator.locate(problem.span.start as usize);
        let text: String = game.text(problem.span).chars().take(40).collect();
        println!("  {path}:{at}: {severity}: {} `{text}`", problem.kind);
    }
    errors
}
