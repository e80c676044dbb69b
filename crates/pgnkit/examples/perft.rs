//! Perft: counts the leaf nodes of the legal move tree of a position to a depth, the usual check of a move
//! generator against published counts.
//!
//! Usage: cargo run --release -p pgnkit --example perft -- [--divide] [FEN|startpos] DEPTH
//!
//! The FEN is one argument (quote it). A FEN that is sloppy but readable, or a position that is unreachable
//! but playable (perft suites have both), is accepted, and what was tolerated is said on stderr. `--divide`
//! first prints each legal move in UCI with the nodes below it.

use std::process::ExitCode;
use std::time::Instant;

use pgnkit::Position;
use pgnkit::core::fen;
use pgnkit::core::{perft, perft_divide};
use pgnkit::notation::uci::to_uci;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let divide = args.iter().any(|a| a == "--divide");
    args.retain(|a| a != "--divide");
    let (position, depth) = match args.as_slice() {
        [depth] => (fen::STARTPOS, depth),
        [position, depth] => (position.as_str(), depth),
        _ => return usage(),
    };
    let Ok(depth) = depth.parse::<u32>() else {
        return usage();
    };
    let Some(pos) = read(fen::expand_startpos(position)) else {
        return ExitCode::from(1);
    };

    let start = Instant::now();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        for (m, nodes) in perft_divide(&pos, depth) {
            println!("{}: {nodes}", to_uci(&pos, &m));
            total += nodes;
        }
        total
    } else {
        perft(&pos, depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "{nodes} nodes in {seconds:.3} s ({:.1} Mnodes/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

/// The position of `text`, read leniently; every problem on stderr.
fn read(text: &str) -> Option<Position> {
    match fen::parse_fen(text) {
        Ok(pos) => Some(pos),
        Err(invalid) => {
            let found = invalid.problems().to_vec();
            match invalid.lenient() {
                Ok(pos) => {
                    for problem in &found {
                        eprintln!("tolerated: {problem}");
                    }
                    Some(pos)
                }
                Err(invalid) => {
                    eprintln!("{invalid}");
                    None
                }
            }
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: perft [--divide] [FEN|startpos] DEPTH");
    ExitCode::from(2)
}
