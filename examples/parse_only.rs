//! Parse-only pass over PGN files (the benchmark's pgnkit side; not a CLI subcommand).
//!
//! Usage: cargo run --release --example parse_only -- [--diagnostics] [--block BYTES] FILE...
//!
//! Reads each file with `BatchReader` (fixed-size blocks) and parses every game; prints one summary
//! line: games, move tokens, games with errors, warnings. `--diagnostics` also prints every diagnostic
//! as `file:line:column: game N: message`.

use std::fs::File;
use std::process;

use pgnkit::pgn::{BatchReader, Severity, TokenKind};

fn main() {
    let mut files = Vec::new();
    let mut show = false;
    let mut block = BatchReader::<File>::DEFAULT_BLOCK;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--diagnostics" => show = true,
            "--block" => {
                block = args.next().and_then(|b| b.parse().ok()).unwrap_or_else(|| {
                    eprintln!("--block BYTES");
                    process::exit(2)
                })
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: parse_only [--diagnostics] [--block BYTES] FILE...");
        process::exit(2);
    }
    let (mut games, mut moves, mut bad, mut warnings) = (0u64, 0u64, 0u64, 0u64);
    for path in &files {
        let file = File::open(path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            process::exit(2)
        });
        for batch in BatchReader::with_block_size(file, block) {
            let batch = batch.unwrap_or_else(|e| {
                eprintln!("{path}: {e}");
                process::exit(2)
            });
            let mut reader = batch.games();
            while let Some(game) = reader.next_game() {
                games += 1;
                moves += game
                    .tokens
                    .iter()
                    .filter(|t| matches!(t.kind, TokenKind::Move(_)))
                    .count() as u64;
                if game.has_errors() {
                    bad += 1;
                }
                for d in &game.diagnostics {
                    if d.kind.severity() == Severity::Warning {
                        warnings += 1;
                    }
                    if show {
                        let at = game.location(d.span.start);
                        let level = match d.kind.severity() {
                            Severity::Warning => "warning",
                            Severity::Error => "error",
                        };
                        println!(
                            "{path}:{at}: game {}: {level}: {} `{}`",
                            game.index + 1,
                            d.kind,
                            game.text(d.span).chars().take(40).collect::<String>()
                        );
                    }
                }
            }
        }
    }
    println!("games={games} moves={moves} games_with_errors={bad} warnings={warnings}");
}
