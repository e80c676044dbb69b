//! Parse-only pass over PGN files (the benchmark's pgnkit side; not a CLI subcommand).
//!
//! Usage: cargo run --release --example parse_only -- [--diagnostics] [--batches | --split-only]
//!        [--block BYTES] FILE...
//!
//! Default: `read_games` (fixed-size blocks, one pass) parses every game. `--batches` goes through
//! `BatchReader` (splitter, then parser: the multi-thread path run on one thread); `--split-only` stops
//! after finding game boundaries. Prints one summary line: games, move tokens, games with errors,
//! warnings. `--diagnostics` also prints every diagnostic as `file:line:column: game N: message`.

use std::fs::File;
use std::ops::ControlFlow;
use std::process;

use pgnkit::pgn::{
    BatchReader, DEFAULT_BATCH, DEFAULT_BLOCK, DiagnosticSeverity, Game, TokenKind, read_games,
};

#[derive(Default)]
struct Tally {
    games: u64,
    moves: u64,
    bad: u64,
    warnings: u64,
}

impl Tally {
    fn add(&mut self, path: &str, game: &Game<'_>, show: bool) {
        self.games += 1;
        self.moves += game
            .tokens
            .iter()
            .filter(|t| matches!(t.kind, TokenKind::Move(_)))
            .count() as u64;
        if game.has_errors() {
            self.bad += 1;
        }
        for d in &game.diagnostics {
            if d.kind.severity() == DiagnosticSeverity::Warning {
                self.warnings += 1;
            }
            if show {
                let at = game.location(d.span.start);
                let level = match d.kind.severity() {
                    DiagnosticSeverity::Note => "note",
                    DiagnosticSeverity::Warning => "warning",
                    DiagnosticSeverity::Error => "error",
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

fn fail(msg: String) -> ! {
    eprintln!("{msg}");
    process::exit(2)
}

fn main() {
    let mut files = Vec::new();
    let (mut show, mut batches, mut split_only) = (false, false, false);
    let mut block = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--diagnostics" => show = true,
            "--batches" => batches = true,
            "--split-only" => split_only = true,
            "--block" => {
                block = Some(
                    args.next()
                        .and_then(|b| b.parse().ok())
                        .unwrap_or_else(|| fail("--block BYTES".into())),
                )
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        fail(
            "usage: parse_only [--diagnostics] [--batches | --split-only] [--block BYTES] FILE..."
                .into(),
        );
    }
    let mut tally = Tally::default();
    for path in &files {
        let file = File::open(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
        if batches || split_only {
            for batch in BatchReader::with_block_size(file, block.unwrap_or(DEFAULT_BATCH)) {
                let batch = batch.unwrap_or_else(|e| fail(format!("{path}: {e}")));
                if split_only {
                    tally.games += batch.games as u64;
                    continue;
                }
                let mut reader = batch.games();
                while let Some(game) = reader.next_game() {
                    tally.add(path, game, show);
                }
            }
        } else {
            read_games(file, block.unwrap_or(DEFAULT_BLOCK), |game| {
                tally.add(path, game, show);
                ControlFlow::<()>::Continue(())
            })
            .unwrap_or_else(|e| fail(format!("{path}: {e}")));
        }
    }
    println!(
        "games={} moves={} games_with_errors={} warnings={}",
        tally.games, tally.moves, tally.bad, tally.warnings
    );
}
