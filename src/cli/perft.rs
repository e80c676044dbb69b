//! `pgnkit perft <FEN|startpos> <DEPTH> [--divide]`

use std::io::Write;

use pgnkit::Position;
use pgnkit::core::{fen, perft, perft_divide};

#[derive(clap::Args)]
pub struct Args {
    /// A FEN (quote it), or `startpos`
    position: String,
    /// Depth in half-moves
    depth: u32,
    /// Print the node count below each legal move first
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> i32 {
    let pos = if args.position == "startpos" {
        Position::new()
    } else {
        match fen::parse_fen_lenient(&args.position) {
            Ok(pos) => pos,
            Err(errors) => {
                for e in errors {
                    eprintln!("pgnkit: invalid FEN: {e}");
                }
                return 2;
            }
        }
    };
    let start = std::time::Instant::now();
    let mut out = std::io::stdout().lock();
    let total = if args.divide {
        let mut total = 0;
        for (m, nodes) in perft_divide(&pos, args.depth) {
            let _ = writeln!(out, "{}: {nodes}", pgnkit::notation::uci::to_uci(&pos, &m));
            total += nodes;
        }
        if args.depth == 0 { 1 } else { total }
    } else {
        perft(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!("{:.1} Mnodes/s", total as f64 / secs.max(1e-9) / 1e6);
    let _ = writeln!(out, "{total}");
    0
}
