//! Reads a FEN and describes the position: the board, whose move it is, its status (check, checkmate,
//! stalemate, material that cannot mate) and its legal moves in SAN.
//!
//! Usage: cargo run -p pgnkit --example fen -- [--lenient] FEN|startpos
//!
//! The FEN may be one argument or its fields as separate arguments. Without `--lenient` a FEN must be exact;
//! with it, sloppy but readable FENs and unreachable but playable positions are accepted, and what was
//! tolerated is listed. An invalid FEN is shown with a caret under each problem.

use std::process::ExitCode;

use pgnkit::core::fen::{self, FenError, InvalidFen};
use pgnkit::notation::{Language, SanPlus};
use pgnkit::{Color, File, Position, Rank, Square};

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let lenient = args.iter().any(|a| a == "--lenient");
    args.retain(|a| a != "--lenient");
    if args.is_empty() {
        eprintln!("usage: fen [--lenient] FEN");
        return ExitCode::from(2);
    }
    let text = fen::expand_startpos(&args.join(" ")).to_string();

    let pos = match fen::parse_fen(&text) {
        Ok(pos) => pos,
        Err(invalid) if lenient => {
            let tolerated = invalid.problems().to_vec();
            match invalid.lenient() {
                Ok(pos) => {
                    show_problems(&text, &tolerated, "tolerated");
                    pos
                }
                Err(invalid) => return refuse(&text, &invalid),
            }
        }
        Err(invalid) => return refuse(&text, &invalid),
    };
    describe(&pos);
    ExitCode::SUCCESS
}

fn refuse(text: &str, invalid: &InvalidFen) -> ExitCode {
    show_problems(text, invalid.problems(), "invalid FEN");
    ExitCode::from(1)
}

/// The FEN, then a caret under each problem's column and its message.
fn show_problems(text: &str, problems: &[FenError], what: &str) {
    println!("{what}:");
    println!("  {text}");
    for problem in problems {
        let pad = " ".repeat(problem.column.saturating_sub(1));
        println!("  {pad}^ {}", problem.kind);
    }
    println!();
}

fn describe(pos: &Position) {
    for rank in Rank::ALL.iter().rev() {
        let row: Vec<char> = File::ALL
            .iter()
            .map(|&file| {
                pos.board()
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', |piece| piece.fen_char())
            })
            .collect();
        let row: Vec<String> = row.iter().map(char::to_string).collect();
        println!("{}  {}", rank.char(), row.join(" "));
    }
    println!("   a b c d e f g h");
    println!();
    println!("FEN:     {}", fen::to_fen(pos));
    println!("To move: {}", pos.turn().name());
    println!("Status:  {}", status(pos));
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| SanPlus::from_move(pos, m).display(Language::En).to_string())
        .collect();
    moves.sort();
    println!("Moves:   {} legal", moves.len());
    if !moves.is_empty() {
        println!("         {}", moves.join(" "));
    }
}

fn status(pos: &Position) -> String {
    let mut words = Vec::new();
    if pos.is_checkmate() {
        words.push(format!("checkmate, {} wins", (!pos.turn()).name()));
    } else if pos.is_stalemate() {
        words.push("stalemate".to_string());
    } else if pos.is_check() {
        words.push("check".to_string());
    }
    if pos.is_insufficient_material() {
        words.push("neither side can mate".to_string());
    } else {
        for color in Color::ALL {
            if pos.has_insufficient_material(color) {
                words.push(format!("{} cannot mate", color.name()));
            }
        }
    }
    if words.is_empty() {
        "normal".to_string()
    } else {
        words.join("; ")
    }
}
