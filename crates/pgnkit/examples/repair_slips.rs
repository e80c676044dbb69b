//! Searches each game of a PGN file for the repair of its transcription slips and prints, per game with a
//! main line that does not replay, one JSON line: the game's number, whether the repair is certain, its edits
//! and the repaired main line in UCI.
//!
//! Usage: cargo run -p pgnkit --example repair_slips -- FILE.pgn [--broadcast]

use std::process::ExitCode;

use pgnkit::notation::uci::Uci;
use pgnkit::pgn::parse_all;
use pgnkit::repair::{self, RepairOptions};
use pgnkit::walk;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: repair_slips FILE.pgn [--broadcast]");
        return ExitCode::from(2);
    };
    let options = RepairOptions {
        broadcast: args.iter().any(|a| a == "--broadcast"),
        ..RepairOptions::default()
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    for (number, game) in parse_all(&bytes).iter().enumerate() {
        let Ok(prepared) = walk::prepare(game, None) else {
            continue;
        };
        let Some(diagnosis) = repair::diagnose(game, &prepared, &options) else {
            continue;
        };
        let best = diagnosis.candidates.first();
        let uci: Vec<String> = best
            .map(|c| {
                let mut pos = c.before;
                c.moves
                    .iter()
                    .map(|m| {
                        let u = Uci::from_move(&pos, m).to_string();
                        pos.play_unchecked(*m);
                        format!("\"{u}\"")
                    })
                    .collect()
            })
            .unwrap_or_default();
        let kinds: Vec<String> = best
            .map(|c| {
                c.edits
                    .iter()
                    .map(|e| format!("\"{}\"", e.kind.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        let costs: Vec<String> = diagnosis
            .corrections()
            .map(|c| {
                let edits: Vec<String> = c
                    .edits
                    .iter()
                    .map(|e| format!("{}@{}", e.kind.as_str(), e.ply))
                    .collect();
                format!(
                    "[{},{},\"{} {}\"]",
                    c.edits.len(),
                    c.cost,
                    edits.join(" "),
                    diagnosis.correction_text(game, c, &prepared)
                )
            })
            .collect();
        println!(
            "{{\"game\":{},\"certain\":{},\"failed_at\":{},\"edits\":[{}],\"corrections\":[{}],\"uci\":[{}]}}",
            number + 1,
            diagnosis.certain,
            diagnosis.failed_at,
            kinds.join(","),
            costs.join(","),
            uci.join(",")
        );
    }
    ExitCode::SUCCESS
}
