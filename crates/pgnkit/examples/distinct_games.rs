//! Writes a large PGN file of distinct games from a few real ones, for benchmarks (`benches/`): each game as
//! it is, then `COPIES` shortened copies of its main line (variations dropped, comments and NAGs of the main
//! line kept), the k-th copy ending k half-moves earlier with `*` (PlyCount set to match), its Event tag
//! marked ` #k` so that no copy
//! is taken for a repeat of the game or a second game of a player in the same round.
//!
//! Usage: cargo run --release -p pgnkit --example distinct_games -- COPIES FILE... > OUT.pgn
//!
//! No two games written have the same players and moves unless the inputs had, so the checks across games
//! (duplicates, a player twice in a round) stay as quiet as on the inputs and a benchmark measures the work
//! on each game rather than the printing of warnings about copies.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use pgnkit::pgn::{DEFAULT_BLOCK, Game, TokenKind, read_games};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((copies, files)) = args
        .split_first()
        .and_then(|(n, files)| Some((n.parse::<u32>().ok()?, files)))
        .filter(|(_, files)| !files.is_empty())
    else {
        eprintln!("usage: distinct_games COPIES FILE... > OUT.pgn");
        return ExitCode::from(2);
    };
    let mut out = BufWriter::new(io::stdout().lock());
    for path in files {
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        };
        let mut failed = None;
        let read = read_games(file, DEFAULT_BLOCK, |game| {
            match write_game(&mut out, game, copies) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        if let Some(e) = failed {
            eprintln!("writing: {e}");
            return ExitCode::from(2);
        }
        if let Err(e) = read {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("writing: {e}");
            ExitCode::from(2)
        }
    }
}

/// The game as read, then its shortened copies.
fn write_game(out: &mut impl Write, game: &Game<'_>, copies: u32) -> io::Result<()> {
    out.write_all(game.source)?;
    if !game.source.ends_with(b"\n\n") {
        out.write_all(b"\n\n")?;
    }
    if game.tags.is_empty() || game.has_errors() {
        return Ok(());
    }
    let moves = main_line_moves(game);
    for k in 1..=copies.min(moves.saturating_sub(1)) {
        write_copy(out, game, moves - k, k)?;
    }
    Ok(())
}

/// The number of move tokens of the main line.
fn main_line_moves(game: &Game<'_>) -> u32 {
    let mut depth = 0u32;
    let mut moves = 0;
    for token in &game.tokens {
        match token.kind {
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth = depth.saturating_sub(1),
            TokenKind::Move(_) if depth == 0 => moves += 1,
            _ => {}
        }
    }
    moves
}

/// The copy `k` of the game: its tags (Event marked, Result `*`) and the first `keep` moves of its main line.
fn write_copy(out: &mut impl Write, game: &Game<'_>, keep: u32, k: u32) -> io::Result<()> {
    for tag in &game.tags {
        let name = game.bytes(tag.name);
        let value = game.bytes(tag.value);
        out.write_all(b"[")?;
        out.write_all(name)?;
        out.write_all(b" \"")?;
        match name {
            b"Result" => out.write_all(b"*")?,
            b"PlyCount" => write!(out, "{keep}")?,
            b"Event" if !matches!(value, b"" | b"?") => {
                out.write_all(value)?;
                write!(out, " #{k}")?;
            }
            _ => out.write_all(value)?,
        }
        out.write_all(b"\"]\n")?;
    }
    out.write_all(b"\n")?;
    let mut depth = 0u32;
    let mut written = 0;
    let mut line = 0;
    for token in &game.tokens {
        let keep_token = match token.kind {
            TokenKind::VariationStart => {
                depth += 1;
                false
            }
            TokenKind::VariationEnd => {
                depth = depth.saturating_sub(1);
                false
            }
            _ if depth > 0 => false,
            TokenKind::Move(_) => {
                if written == keep {
                    break;
                }
                written += 1;
                true
            }
            TokenKind::MoveNumber { .. } => written < keep,
            TokenKind::Nag(_) | TokenKind::Comment => true,
            _ => false,
        };
        if keep_token {
            let bytes = game.bytes(token.span);
            if line > 0 && line + bytes.len() > 79 {
                out.write_all(b"\n")?;
                line = 0;
            } else if line > 0 {
                out.write_all(b" ")?;
                line += 1;
            }
            out.write_all(bytes)?;
            line += bytes.len();
        }
    }
    if line > 0 {
        out.write_all(b" ")?;
    }
    out.write_all(b"*\n\n")
}
