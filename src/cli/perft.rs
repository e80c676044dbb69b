//! `pgnkit perft <FEN|startpos> <DEPTH> [--divide]`

use std::io::{self, Write};

use pgnkit::core::fen;
use pgnkit::core::{perft, perft_divide};

use super::output::{say, write_failure};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// A FEN (quote it), or `startpos`
    position: String,
    /// Depth in half-moves
    depth: u32,
    /// Print the node count below each legal move first
    #[arg(long)]
    divide: bool,
}

pub(crate) fn run(args: Args) -> i32 {
    // Read as `fen --lenient` reads it (perft suites hold such positions), saying what was tolerated: a count
    // for a position other than the one written would otherwise pass for a wrong one.
    let pos = match fen::parse_fen(fen::expand_startpos(&args.position)).or_else(|invalid| {
        let mut tolerated = invalid.problems().to_vec();
        tolerated.sort_by_key(|e| e.column);
        invalid.lenient().inspect(|_| {
            // The count still goes to standard output when this note cannot be written.
            let _ = say(&super::fen::problems(
                &args.position,
                &tolerated,
                "tolerated",
            ));
        })
    }) {
        Ok(pos) => pos,
        Err(invalid) => {
            let text: String = invalid
                .problems()
                .iter()
                .map(|e| format!("pgnkit: invalid FEN: {e}\n"))
                .collect();
            let _ = say(&text);
            return 2;
        }
    };
    let start = std::time::Instant::now();
    let mut out = io::stdout().lock();
    let mut total = 0;
    let written = if args.divide {
        let mut written = Ok(());
        for (m, nodes) in perft_divide(&pos, args.depth) {
            written = written.and_then(|()| {
                writeln!(out, "{}: {nodes}", pgnkit::notation::uci::to_uci(&pos, &m))
            });
            total += nodes;
        }
        // At depth 0 no move is listed and the tree is the position alone.
        if args.depth == 0 {
            total = perft(&pos, 0);
        }
        written
    } else {
        total = perft(&pos, args.depth);
        Ok(())
    };
    let secs = start.elapsed().as_secs_f64();
    let speed = format!("{:.1} Mnodes/s\n", total as f64 / secs.max(1e-9) / 1e6);
    match written
        .and_then(|()| say(&speed))
        .and_then(|()| writeln!(out, "{total}"))
        .and_then(|()| out.flush())
    {
        Ok(()) => 0,
        Err(e) => write_failure(&e),
    }
}
