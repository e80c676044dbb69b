//! FEN and EPD positions: strict parsing that reports every problem with the column where it starts, and
//! writing in standard, X-FEN or Shredder-FEN castling style.

use std::fmt;

use super::bitboard::Bitboard;
use super::board::Board;
use super::position::{CastlingMode, Position, PositionError, Setup};
use super::types::{Color, File, Piece, Rank, Square};

/// The FEN of the initial position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What is wrong with a FEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenErrorKind {
    /// Not 4 (EPD) or 6 space-separated fields.
    FieldCount(usize),
    /// The placement field is not eight ranks of eight squares.
    Placement(String),
    /// The side to move is not `w` or `b`.
    Side(String),
    /// The castling field is not `-` or letters `KQkq` / files `A-H`, `a-h`.
    Castling(String),
    /// The e.p. field is not `-` or a square.
    EnPassant(String),
    /// The half-move clock is not a number (or has leading zeros).
    Halfmoves(String),
    /// The full-move number is not a positive number (or has leading zeros).
    Fullmoves(String),
    /// The fields are well formed but the position is impossible.
    Position(PositionError),
}

/// One problem of a FEN, at a 1-based column of the FEN text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    pub column: usize,
    pub kind: FenErrorKind,
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenErrorKind::FieldCount(n) => {
                write!(
                    f,
                    "expected 6 fields (or 4 for EPD) separated by spaces, found {n}"
                )
            }
            FenErrorKind::Placement(why) => write!(f, "bad piece placement: {why}"),
            FenErrorKind::Side(s) => write!(f, "side to move must be 'w' or 'b', not '{s}'"),
            FenErrorKind::Castling(why) => write!(f, "bad castling field: {why}"),
            FenErrorKind::EnPassant(s) => {
                write!(f, "en-passant field must be '-' or a square, not '{s}'")
            }
            FenErrorKind::Halfmoves(s) => write!(
                f,
                "half-move clock must be a number without leading zeros, not '{s}'"
            ),
            FenErrorKind::Fullmoves(s) => {
                write!(
                    f,
                    "full-move number must be a number from 1 without leading zeros, not '{s}'"
                )
            }
            FenErrorKind::Position(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.kind)
    }
}

/// A parsed FEN before the position is checked, plus where each field started (for error columns).
pub struct ParsedFen {
    pub setup: Setup,
    pub mode: CastlingMode,
    columns: [usize; 6],
}

fn parse_counter(text: &str) -> Option<u32> {
    if text.is_empty()
        || !text.bytes().all(|c| c.is_ascii_digit())
        || (text.len() > 1 && text.starts_with('0'))
    {
        return None;
    }
    text.parse().ok()
}

/// Parses the six (or four) fields without checking the position, collecting syntax problems.
pub fn parse_setup(fen: &str) -> Result<ParsedFen, Vec<FenError>> {
    let mut errors = Vec::new();
    // Fields and their 1-based starting columns.
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in fen.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                fields.push((s, &fen[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        fields.push((s, &fen[s..]));
    }
    if fields.len() != 6 && fields.len() != 4 {
        let column = fields.get(6).map_or(fen.len() + 1, |f| f.0 + 1);
        return Err(vec![FenError {
            column,
            kind: FenErrorKind::FieldCount(fields.len()),
        }]);
    }
    let mut columns = [0; 6];
    for (i, (col, _)) in fields.iter().enumerate() {
        columns[i] = col + 1;
    }
    let (pcol, placement) = fields[0];
    let board = match parse_placement(placement) {
        Ok(board) => board,
        Err((offset, why)) => {
            errors.push(FenError {
                column: pcol + offset + 1,
                kind: FenErrorKind::Placement(why),
            });
            Board::empty()
        }
    };
    let turn = match fields[1].1 {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            errors.push(FenError {
                column: columns[1],
                kind: FenErrorKind::Side(other.to_string()),
            });
            Color::White
        }
    };
    let (castling, mode) = match parse_castling(fields[2].1, &board) {
        Ok(c) => c,
        Err((offset, why)) => {
            errors.push(FenError {
                column: columns[2] + offset,
                kind: FenErrorKind::Castling(why),
            });
            (Bitboard::EMPTY, CastlingMode::Standard)
        }
    };
    let ep_square = match fields[3].1 {
        "-" => None,
        s => match Square::from_ascii(s.as_bytes()) {
            Some(sq) => Some(sq),
            None => {
                errors.push(FenError {
                    column: columns[3],
                    kind: FenErrorKind::EnPassant(s.to_string()),
                });
                None
            }
        },
    };
    let (mut halfmoves, mut fullmoves) = (0, 1);
    if fields.len() == 6 {
        match parse_counter(fields[4].1) {
            Some(n) => halfmoves = n,
            None => errors.push(FenError {
                column: columns[4],
                kind: FenErrorKind::Halfmoves(fields[4].1.to_string()),
            }),
        }
        match parse_counter(fields[5].1).filter(|&n| n >= 1) {
            Some(n) => fullmoves = n,
            None => errors.push(FenError {
                column: columns[5],
                kind: FenErrorKind::Fullmoves(fields[5].1.to_string()),
            }),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ParsedFen {
        setup: Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        },
        mode,
        columns,
    })
}

/// Placement errors carry the 0-based offset inside the field.
fn parse_placement(text: &str) -> Result<Board, (usize, String)> {
    let mut board = Board::empty();
    let mut rank = 7i32;
    let mut file = 0u32;
    for (i, c) in text.char_indices() {
        match c {
            '/' => {
                if file != 8 {
                    return Err((i, format!("rank {} has {} squares, not 8", rank + 1, file)));
                }
                rank -= 1;
                file = 0;
                if rank < 0 {
                    return Err((i, "more than 8 ranks".into()));
                }
            }
            '1'..='8' => {
                file += c as u32 - '0' as u32;
                if file > 8 {
                    return Err((i, format!("rank {} has more than 8 squares", rank + 1)));
                }
            }
            _ => {
                let Some(piece) = Piece::from_fen_char(c) else {
                    return Err((
                        i,
                        format!("'{c}' is not a piece letter (PNBRQK, pnbrqk) or digit"),
                    ));
                };
                if file >= 8 {
                    return Err((i, format!("rank {} has more than 8 squares", rank + 1)));
                }
                board.put(
                    Square::from_coords(File::new(file as u8), Rank::new(rank as u8)),
                    piece,
                );
                file += 1;
            }
        }
    }
    if rank != 0 || file != 8 {
        let why = if rank > 0 {
            format!("only {} ranks", 8 - rank)
        } else {
            format!("rank 1 has {file} squares, not 8")
        };
        return Err((text.len(), why));
    }
    Ok(board)
}

/// Reads `KQkq`, X-FEN (`K`/`Q` = outermost rook) and Shredder-FEN (rook files) castling rights.
fn parse_castling(text: &str, board: &Board) -> Result<(Bitboard, CastlingMode), (usize, String)> {
    let mut rights = Bitboard::EMPTY;
    let mut chess960 = false;
    if text == "-" {
        return Ok((rights, CastlingMode::Standard));
    }
    for (i, c) in text.char_indices() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = color.back_rank();
        let rooks = board.rooks() & board.by_color(color) & Bitboard::rank(back);
        let king = (board.kings() & board.by_color(color) & Bitboard::rank(back)).first();
        let rook = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let kingside = c.eq_ignore_ascii_case(&'k');
                let candidates = match king {
                    Some(k) => rooks
                        .filter(|r| (r.file() > k.file()) == kingside)
                        .collect::<Bitboard>(),
                    None => rooks,
                };
                // The outermost rook on that side (X-FEN); without one, the corner, so the error names it.
                let outer = if kingside {
                    candidates.last()
                } else {
                    candidates.first()
                };
                outer.unwrap_or(Square::from_coords(
                    if kingside { File::H } else { File::A },
                    back,
                ))
            }
            'a'..='h' => {
                chess960 = true;
                Square::from_coords(File::new(c.to_ascii_lowercase() as u8 - b'a'), back)
            }
            _ => return Err((i, format!("'{c}' is not K, Q, k, q or a file letter"))),
        };
        if rights.contains(rook) {
            return Err((i, format!("'{c}' repeats a right")));
        }
        rights = rights.with(rook);
    }
    // Rights that are not the standard corners with the king on e1/e8 can only be Chess960.
    for rook in rights {
        let color = if rook.rank() == Rank::First {
            Color::White
        } else {
            Color::Black
        };
        let king =
            (board.kings() & board.by_color(color) & Bitboard::rank(color.back_rank())).first();
        if !matches!(rook.file(), File::A | File::H) || king.is_some_and(|k| k.file() != File::E) {
            chess960 = true;
        }
    }
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    Ok((rights, mode))
}

impl ParsedFen {
    /// Checks the position, mapping each rule problem to the column of the field it concerns.
    pub fn into_position(self) -> Result<Position, Vec<FenError>> {
        let columns = self.columns;
        Position::from_setup(self.setup, self.mode).map_err(|errors| Self::locate(columns, errors))
    }

    /// Accepts positions that are unreachable but playable (see [`Position::from_setup_lenient`]).
    pub fn into_position_lenient(self) -> Result<Position, Vec<FenError>> {
        let columns = self.columns;
        Position::from_setup_lenient(self.setup, self.mode)
            .map(|(pos, _)| pos)
            .map_err(|errors| Self::locate(columns, errors))
    }

    fn locate(columns: [usize; 6], errors: Vec<PositionError>) -> Vec<FenError> {
        errors
            .into_iter()
            .map(|e| {
                let field = match e {
                    PositionError::InvalidCastlingRight { .. } => 2,
                    PositionError::InvalidEnPassant { .. } => 3,
                    PositionError::OppositeCheck { .. } => 1,
                    _ => 0,
                };
                FenError {
                    column: columns[field],
                    kind: FenErrorKind::Position(e),
                }
            })
            .collect()
    }
}

/// Parses and checks a FEN (or the four-field EPD form), reporting every problem.
pub fn parse_fen(fen: &str) -> Result<Position, Vec<FenError>> {
    parse_setup(fen)?.into_position()
}

/// Parses a FEN accepting unreachable but playable positions (perft suites have some).
pub fn parse_fen_lenient(fen: &str) -> Result<Position, Vec<FenError>> {
    parse_setup(fen)?.into_position_lenient()
}

/// How castling rights are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastlingStyle {
    /// `KQkq` where the rook is the outermost on its side, a file letter otherwise (X-FEN; plain FEN for
    /// standard chess).
    XFen,
    /// Always file letters (Shredder-FEN).
    Shredder,
}

/// The FEN of a position. Standard chess always writes `KQkq`; Chess960 positions use X-FEN.
pub fn to_fen(pos: &Position) -> String {
    to_fen_with(pos, CastlingStyle::XFen)
}

pub fn to_fen_with(pos: &Position, style: CastlingStyle) -> String {
    let mut out = placement(pos.board());
    out.push(' ');
    out.push(pos.turn().fen_char());
    out.push(' ');
    out.push_str(&castling_field(pos, style));
    out.push(' ');
    match pos.ep_square() {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", pos.halfmoves(), pos.fullmoves()));
    out
}

/// EPD: the first four FEN fields.
pub fn to_epd(pos: &Position) -> String {
    let fen = to_fen(pos);
    fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen).to_string()
}

pub fn placement(board: &Board) -> String {
    let mut out = String::with_capacity(72);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board.piece_at(Square::from_coords(file, *rank)) {
                Some(piece) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(piece.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if *rank != Rank::First {
            out.push('/');
        }
    }
    out
}

fn castling_field(pos: &Position, style: CastlingStyle) -> String {
    let mut out = String::new();
    let board = pos.board();
    for color in Color::ALL {
        let back = Bitboard::rank(color.back_rank());
        let rights = pos.castling_rights() & back;
        let king = pos.king(color);
        let rooks = board.rooks() & board.by_color(color) & back;
        // Shredder-FEN lists files in order (`BFbf`); X-FEN puts kingside first, as in `KQkq`.
        let mut ordered: Vec<Square> = rights.collect();
        if style == CastlingStyle::XFen {
            ordered.reverse();
        }
        for rook in ordered {
            let kingside = rook.file() > king.file();
            let outermost = if kingside {
                rooks.filter(|r| r.file() > king.file()).last() == Some(rook)
            } else {
                rooks.into_iter().find(|r| r.file() < king.file()) == Some(rook)
            };
            let letter = if style == CastlingStyle::XFen
                && (pos.castling_mode() == CastlingMode::Standard || outermost)
            {
                if kingside { 'k' } else { 'q' }
            } else {
                rook.file().char()
            };
            out.push(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    if out.is_empty() { "-".into() } else { out }
}

impl std::str::FromStr for Position {
    type Err = Vec<FenError>;
    fn from_str(s: &str) -> Result<Position, Self::Err> {
        parse_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_fen_round_trips() {
        let pos = parse_fen(STARTING_FEN).unwrap();
        assert_eq!(pos, Position::new());
        assert_eq!(to_fen(&pos), STARTING_FEN);
    }

    #[test]
    fn epd_form_is_accepted() {
        let pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
        assert_eq!(pos.fullmoves(), 1);
    }

    #[test]
    fn several_problems_reported_at_once() {
        let errors = parse_fen("8/8/8/8/8/8/8/8 x KQ - 0 0").unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0].column, 17);
        assert!(matches!(errors[0].kind, FenErrorKind::Side(_)));
        assert_eq!(errors[1].column, 26);
    }

    #[test]
    fn shredder_castling_round_trips() {
        let fen = "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w BFbf - 0 1";
        let pos = parse_fen(fen).unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(to_fen_with(&pos, CastlingStyle::Shredder), fen);
        assert_eq!(parse_fen(&to_fen(&pos)).unwrap(), pos);
    }
}
