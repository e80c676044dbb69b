//! Rewrites moves written with French piece letters (R roi, D dame, T tour, F fou, C cavalier) with English
//! ones (K, Q, R, B, N): SAN tokens given on the command line, or the games of a small PGN file.
//!
//! Usage:
//!   cargo run -p pgnkit --example french_to_english -- 1. e4 e5 2. Cf3 Cc6 3. Fb5 Cf6 4. O-O Fe7 5. Te1
//!   cargo run -p pgnkit --example french_to_english -- --pgn GAMES.pgn
//!
//! Each move is resolved against the position (French `R` is a king, English `R` a rook: the letters alone do
//! not say which piece moves), then written as canonical English SAN with its check mark. Games start from the
//! initial position; a game with a `FEN` tag is skipped. Only the main line is rewritten.

use std::process::ExitCode;

use pgnkit::Position;
use pgnkit::notation::{Language, SanPlus};
use pgnkit::pgn::{Game, GameReader, GameResult};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = match args.as_slice() {
        [flag, path] if flag == "--pgn" => match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        },
        [] => {
            eprintln!("usage: french_to_english SAN... | --pgn FILE");
            return ExitCode::from(2);
        }
        // Tokens on the command line are a movetext without tags.
        tokens => tokens.join(" ").into_bytes(),
    };
    let mut failed = false;
    let mut games = GameReader::new(&text);
    while let Some(game) = games.next_game() {
        for tag in &game.tags {
            println!("[{} \"{}\"]", game.tag_name(tag), game.tag_value(tag));
        }
        if !game.tags.is_empty() {
            println!();
        }
        if game.tag("FEN").is_some() {
            eprintln!(
                "game {}: starts from a FEN position: skipped",
                game.index + 1
            );
            continue;
        }
        match to_english(game) {
            Ok(movetext) => println!("{movetext}\n"),
            Err(message) => {
                eprintln!("game {}: {message}", game.index + 1);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The main line of `game` (from the initial position) in English SAN, with move numbers and the termination
/// marker.
fn to_english(game: &Game<'_>) -> Result<String, String> {
    let mut pos = Position::new();
    let mut out = String::new();
    for (ply, (token, mv)) in game.main_line().enumerate() {
        let written = game.san(mv);
        let located = || {
            format!(
                "{} `{}`",
                game.location(token.span.start),
                String::from_utf8_lossy(written)
            )
        };
        let san = SanPlus::parse(written, Language::Fr)
            .map_err(|e| format!("{}: not French SAN: {e}", located()))?;
        let legal = san
            .san
            .to_move(&pos)
            .map_err(|e| format!("{}: {e}", located()))?;
        if ply % 2 == 0 {
            out.push_str(&format!("{}. ", ply / 2 + 1));
        }
        // The canonical English token of the move, and the position after it.
        let english = SanPlus::from_move_and_play(&mut pos, &legal);
        out.push_str(&english.display(Language::En).to_string());
        out.push(' ');
    }
    out.push_str(game.result.map_or("*", GameResult::as_str));
    Ok(out)
}
