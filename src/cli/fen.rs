//! `pgnkit fen <FEN> [--ascii] [--lenient]`: checks a FEN and describes the position — board, side to move,
//! castling rights, e.p. square, check/mate/stalemate/dead-position status and the legal moves in SAN.
//!
//! Exit codes: 0 valid FEN, 1 invalid (every problem listed with its column), 2 usage error.

use std::fmt::Write as _;
use std::io::{self, Write as _};

use pgnkit::core::fen::{self, FenError, InvalidFen};
use pgnkit::notation::SanPlus;
use pgnkit::{Color, File, Move, Piece, Position, Rank, Role, Square};

use super::output::{say, write_failure};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The FEN (quote it, or pass its fields as separate arguments; 4-field EPD is accepted), or `startpos`
    #[arg(required = true, num_args = 1..)]
    fen: Vec<String>,
    /// Draw the board with letters (KQRBNP, kqrbnp) instead of Unicode figurines
    #[arg(long)]
    ascii: bool,
    /// Accept sloppy but unambiguous FENs and unreachable positions, listing what was tolerated on stderr
    #[arg(long)]
    lenient: bool,
}

pub(crate) fn run(args: Args) -> i32 {
    let text = fen::expand_startpos(&args.fen.join(" ")).to_string();
    let parsed = match fen::parse_fen(&text) {
        Ok(pos) => Ok((pos, Vec::new())),
        Err(invalid) if args.lenient => {
            // What the lenient reading tolerated, by column.
            let mut tolerated = invalid.problems().to_vec();
            tolerated.sort_by_key(|e| e.column);
            invalid
                .lenient()
                .map(|pos| (pos, tolerated))
                .map_err(InvalidFen::into_problems)
        }
        Err(invalid) => Err(invalid.into_problems()),
    };
    let (report, code) = match parsed {
        Ok((pos, warnings)) => {
            if !warnings.is_empty()
                && let Err(e) = say(&problems(&text, &warnings, "tolerated"))
            {
                return write_failure(&e);
            }
            (describe(&pos, args.ascii), 0)
        }
        Err(errors) => (problems(&text, &errors, "invalid FEN"), 1),
    };
    let mut out = io::stdout().lock();
    match out.write_all(report.as_bytes()).and_then(|()| out.flush()) {
        // A closed pipe (`| head`) is not an error worth a message; the verdict stands.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => write_failure(&e),
        _ => code,
    }
}

/// The FEN, then a caret under each problem's column and its message.
pub(super) fn problems(text: &str, errors: &[FenError], what: &str) -> String {
    let mut s = String::new();
    let n = errors.len();
    let _ = writeln!(s, "{what}: {n} problem{}", if n == 1 { "" } else { "s" });
    let _ = writeln!(s, "  {text}");
    for e in errors {
        let _ = writeln!(
            s,
            "  {}^ column {}: {}",
            " ".repeat(e.column.saturating_sub(1)),
            e.column,
            e.kind
        );
    }
    s
}

fn figurine(piece: Piece, ascii: bool) -> char {
    if ascii {
        return piece.fen_char();
    }
    match (piece.color, piece.role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

fn describe(pos: &Position, ascii: bool) -> String {
    let mut s = String::new();
    for rank in Rank::ALL.iter().rev() {
        let _ = write!(s, "{} ", rank.char());
        for file in File::ALL {
            let c = match pos.board().piece_at(Square::from_coords(file, *rank)) {
                Some(piece) => figurine(piece, ascii),
                None if ascii => '.',
                None => '·',
            };
            let _ = write!(s, " {c}");
        }
        s.push('\n');
    }
    s.push_str("   a b c d e f g h\n\n");
    let _ = writeln!(s, "FEN:          {}", fen::to_fen(pos));
    let _ = writeln!(s, "Side to move: {}", pos.turn().name());
    let castling = fen::to_fen(pos)
        .split(' ')
        .nth(2)
        .unwrap_or("-")
        .to_string();
    let mode = match pos.castling_mode() {
        pgnkit::CastlingMode::Standard => String::new(),
        pgnkit::CastlingMode::Chess960 => {
            let shredder = fen::to_fen_with(pos, fen::CastlingStyle::Shredder);
            let files = shredder.split(' ').nth(2).unwrap_or("-");
            format!(" (Chess960; Shredder-FEN {files})")
        }
    };
    let _ = writeln!(s, "Castling:     {castling}{mode}");
    let ep = pos.ep_square().map_or("-".to_string(), |sq| sq.to_string());
    let _ = writeln!(s, "En passant:   {ep}");
    let _ = writeln!(
        s,
        "Counters:     half-move clock {}, full-move number {}",
        pos.halfmoves(),
        pos.fullmoves()
    );
    let _ = writeln!(s, "Status:       {}", status(pos));
    let moves = pos.legal_moves();
    let mut sans: Vec<String> = moves.iter().map(|m| san(pos, m)).collect();
    sans.sort();
    let _ = writeln!(s, "Legal moves:  {}", sans.len());
    // Wrapped at about 80 columns.
    let mut line = String::new();
    for m in &sans {
        if !line.is_empty() && line.len() + 1 + m.len() > 76 {
            let _ = writeln!(s, "  {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(m);
    }
    if !line.is_empty() {
        let _ = writeln!(s, "  {line}");
    }
    s
}

fn status(pos: &Position) -> String {
    let mut parts = Vec::new();
    if pos.is_checkmate() {
        parts.push(format!("checkmate, {} wins", (!pos.turn()).name()));
    } else if pos.is_stalemate() {
        parts.push("stalemate (draw)".to_string());
    } else if pos.is_check() {
        parts.push("check".to_string());
    }
    if pos.is_insufficient_material() {
        parts.push("insufficient material: dead position (draw)".to_string());
    } else {
        for color in Color::ALL {
            if pos.has_insufficient_material(color) {
                parts.push(format!("{} cannot mate", color.name()));
            }
        }
    }
    if parts.is_empty() {
        "normal".to_string()
    } else {
        parts.join("; ")
    }
}

/// Canonical SAN with English letters (minimal disambiguation by legal moves, `+`/`#`).
fn san(pos: &Position, m: &Move) -> String {
    SanPlus::from_move(pos, m).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans(fen_text: &str) -> Vec<String> {
        let pos = fen::parse_fen(fen_text).unwrap();
        let mut v: Vec<String> = pos.legal_moves().iter().map(|m| san(&pos, m)).collect();
        v.sort();
        v
    }

    #[test]
    fn san_disambiguates_by_file_then_rank_then_both() {
        // Same rank: the file tells them apart; same file: the rank; a third piece: both.
        let v = sans("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
        assert!(v.contains(&"Rad1".to_string()) && v.contains(&"Rhd1".to_string()));
        let v = sans("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert!(v.contains(&"R1a3".to_string()) && v.contains(&"R5a3".to_string()));
        let v = sans("6k1/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1");
        for want in ["Q1d4", "Qa4d4", "Qhd4", "Qae4", "Qhe4"] {
            assert!(v.contains(&want.to_string()), "{want} not in {v:?}");
        }
    }

    #[test]
    fn san_marks_castling_promotion_en_passant_check_and_mate() {
        let v = sans("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        for want in ["O-O", "O-O-O", "exd6", "bxa8=Q+", "b8=N", "b8=Q+", "Rxa8+"] {
            assert!(v.contains(&want.to_string()), "{want} not in {v:?}");
        }
        let v = sans("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert!(v.contains(&"Ra8#".to_string()), "{v:?}");
    }

    #[test]
    fn status_words() {
        let mate = fen::parse_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").unwrap();
        assert_eq!(status(&mate), "checkmate, White wins");
        let stale = fen::parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(status(&stale), "stalemate (draw); Black cannot mate");
        let dead = fen::parse_fen("7k/8/6K1/8/8/8/8/6B1 b - - 0 1").unwrap();
        assert_eq!(status(&dead), "insufficient material: dead position (draw)");
        assert_eq!(status(&Position::new()), "normal");
    }
}
