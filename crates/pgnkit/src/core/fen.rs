//! FEN and EPD positions: a strict parser that reports every problem with the column where it starts, ways to
//! accept the problems a caller can live with, and writing in standard, X-FEN or Shredder-FEN castling style.
//!
//! [`parse_fen`] is strict: six fields (or the four of EPD) separated by spaces; eight ranks of eight squares,
//! each run of empty squares one digit; `w`/`b`; castling `-` or letters with White's before Black's and `K`
//! before `Q`, where `KQkq` name the outermost rook (X-FEN) and `A`-`H`/`a`-`h` a rook's file (Shredder-FEN),
//! in any mix; e.p. `-` or a square; counters without leading zeros, full-move number from 1; and a legal
//! position ([`Position::from_setup`]). An e.p. square with no legal capture onto it is accepted and dropped.
//!
//! Its error, [`InvalidFen`], says what is tolerable and accepts it on request: sloppy syntax with one obvious
//! reading (castling letters out of order or repeated, counters with leading zeros, a full-move number of 0),
//! positions that are unreachable but playable, castling rights and e.p. squares that cannot stand (dropped),
//! an e.p. square beside a non-zero half-move clock. [`InvalidFen::lenient`] accepts all of these but the
//! clock's repair; `docs/fen.md` has the full table.
//!
//! ```
//! use pgnkit::core::fen::{self, InvalidFen};
//!
//! let pos = fen::parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
//! assert_eq!(pos.legal_moves().len(), 26);
//! assert_eq!(fen::to_fen(&pos), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
//! // EPD: the same first four fields, counters 0 and 1.
//! assert_eq!(fen::parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -").unwrap(), pos);
//!
//! // A leading zero: refused strictly, read as 5 leniently.
//! let sloppy = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 05 1";
//! let invalid = fen::parse_fen(sloppy).unwrap_err();
//! assert_eq!(invalid.to_string(), r#"invalid FEN: column 34: half-move clock "05" has leading zeros"#);
//! assert_eq!(invalid.lenient().unwrap().halfmoves(), 5);
//! ```

use std::fmt;

use super::bitboard::Bitboard;
use super::board::Board;
use super::position::{CastlingMode, EnPassantProblem, Position, PositionError, Setup};
use super::types::{Color, File, Piece, Rank, Square};

/// The FEN of the initial position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The name UCI gives the initial position (`position startpos`): accepted wherever a FEN is asked for on a
/// command line (`pgnkit fen`, `perft`, `select --reaches`), through [`expand_startpos`].
pub const STARTPOS: &str = "startpos";

/// The FEN a position argument stands for: [`STARTING_FEN`] for [`STARTPOS`], else the text itself.
///
/// ```
/// use pgnkit::core::fen::{self, STARTING_FEN};
///
/// assert_eq!(fen::expand_startpos("startpos"), STARTING_FEN);
/// assert_eq!(fen::expand_startpos("8/8/8/8/8/8/8/K1k5 w - - 0 1"), "8/8/8/8/8/8/8/K1k5 w - - 0 1");
/// ```
pub fn expand_startpos(text: &str) -> &str {
    if text == STARTPOS { STARTING_FEN } else { text }
}

/// Which move counter a problem concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counter {
    /// The half-move clock (fifth field).
    Halfmoves,
    /// The full-move number (sixth field).
    Fullmoves,
}

/// What is wrong with a counter field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CounterProblem {
    /// Not digits only.
    NotANumber,
    /// More than 4,294,967,295.
    TooLarge,
    /// `00`, `01`: accepted by lenient parsing.
    LeadingZeros,
    /// A full-move number of 0 (the count starts at 1): lenient parsing reads it as 1.
    Zero,
}

/// What is wrong with a FEN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenErrorKind {
    /// Not 4 (EPD) or 6 space-separated fields.
    FieldCount(usize),
    /// A character in the placement that is not a piece letter (`PNBRQK`, `pnbrqk`), a digit 1-8 or `/`.
    PlacementChar(char),
    /// Two digits in a row: each run of empty squares is one digit.
    AdjacentDigits,
    /// A rank (8 = the first one written) that does not describe exactly eight squares.
    RankLength {
        /// The rank.
        rank: Rank,
        /// How many squares it describes.
        squares: u32,
    },
    /// The placement does not have eight ranks.
    RankCount(usize),
    /// The side to move is not `w` or `b`.
    Side(String),
    /// A castling character that is not `K`, `Q`, `k`, `q` or a file letter (or a `-` beside letters).
    CastlingChar(char),
    /// The same castling right named twice (lenient parsing accepts it).
    CastlingRepeated(char),
    /// White's rights after Black's, or `Q` before `K` (lenient parsing accepts it).
    CastlingOrder(String),
    /// The e.p. field is not `-` or a square.
    EnPassant(String),
    /// A move counter that is not a valid number.
    Counter {
        /// Which counter.
        counter: Counter,
        /// The field as written.
        text: String,
        /// What is wrong with it.
        problem: CounterProblem,
    },
    /// The fields are well formed but the position is impossible.
    Position(PositionError),
}

impl FenErrorKind {
    /// False for the problems [`InvalidFen::lenient`] accepts.
    pub fn is_fatal(&self) -> bool {
        match self {
            FenErrorKind::CastlingRepeated(_) | FenErrorKind::CastlingOrder(_) => false,
            FenErrorKind::Counter { problem, .. } => {
                !matches!(problem, CounterProblem::LeadingZeros | CounterProblem::Zero)
            }
            FenErrorKind::Position(e) => e.is_fatal(),
            _ => true,
        }
    }

    /// Syntax with one obvious reading, which [`InvalidFen::ignore_sloppy_syntax`] accepts.
    pub fn is_sloppy_syntax(&self) -> bool {
        match self {
            FenErrorKind::CastlingRepeated(_) | FenErrorKind::CastlingOrder(_) => true,
            FenErrorKind::Counter { problem, .. } => {
                matches!(problem, CounterProblem::LeadingZeros | CounterProblem::Zero)
            }
            _ => false,
        }
    }
}

/// One problem of a FEN, at a 1-based column (in characters) of the FEN text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// Where the problem starts: 1 for the FEN's first character.
    pub column: usize,
    /// What the problem is.
    pub kind: FenErrorKind,
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenErrorKind::FieldCount(n) => write!(
                f,
                "expected 6 fields (or 4 for EPD) separated by spaces, found {n}"
            ),
            FenErrorKind::PlacementChar(c) => write!(
                f,
                "bad piece placement: {c:?} is not a piece letter (PNBRQK, pnbrqk), a digit 1-8 or '/'"
            ),
            FenErrorKind::AdjacentDigits => write!(
                f,
                "bad piece placement: two digits in a row (write a run of empty squares as one digit)"
            ),
            FenErrorKind::RankLength { rank, squares } => write!(
                f,
                "bad piece placement: rank {} has {squares} squares, not 8",
                rank.char()
            ),
            FenErrorKind::RankCount(n) => {
                write!(f, "bad piece placement: {n} ranks, not 8")
            }
            FenErrorKind::Side(s) => write!(f, "side to move must be 'w' or 'b', not {s:?}"),
            FenErrorKind::CastlingChar(c) => write!(
                f,
                "bad castling field: {c:?} is not K, Q, k, q or a file letter (or '-' alone)"
            ),
            FenErrorKind::CastlingRepeated(c) => {
                write!(f, "bad castling field: {c:?} repeats a right")
            }
            FenErrorKind::CastlingOrder(s) => write!(
                f,
                "bad castling field: {s:?} is out of order (White's rights first, K before Q)"
            ),
            FenErrorKind::EnPassant(s) => {
                write!(f, "en-passant field must be '-' or a square, not {s:?}")
            }
            FenErrorKind::Counter {
                counter,
                text,
                problem,
            } => {
                let name = match counter {
                    Counter::Halfmoves => "half-move clock",
                    Counter::Fullmoves => "full-move number",
                };
                let why = match problem {
                    CounterProblem::NotANumber => "is not a number",
                    CounterProblem::TooLarge => "is too large",
                    CounterProblem::LeadingZeros => "has leading zeros",
                    CounterProblem::Zero => "must be at least 1",
                };
                write!(f, "{name} {text:?} {why}")
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

/// The fields of a FEN as read, before the position is checked, with where each part stands in the text (for
/// error columns).
#[derive(Debug, Clone)]
struct ParsedFen {
    setup: Setup,
    mode: CastlingMode,
    /// 1-based column of each field (0 for an absent field).
    columns: [usize; 6],
    /// 1-based column of the letter of each piece.
    square_columns: [usize; 64],
    /// Column of the castling letter naming each rook square.
    castling_columns: Vec<(Square, usize)>,
    /// Problems lenient parsing reads one obvious way (castling order, counter zeros).
    tolerated: Vec<FenError>,
}

/// The fields as split, with 1-based columns counted in characters.
fn split_fields(fen: &str) -> Vec<(usize, &str)> {
    let mut fields = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, column)
    let mut column = 0;
    for (i, c) in fen.char_indices() {
        column += 1;
        if c.is_whitespace() {
            if let Some((s, col)) = start.take() {
                fields.push((col, &fen[s..i]));
            }
        } else if start.is_none() {
            start = Some((i, column));
        }
    }
    if let Some((s, col)) = start {
        fields.push((col, &fen[s..]));
    }
    fields
}

fn parse_counter(text: &str) -> Result<u32, (u32, CounterProblem)> {
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return Err((0, CounterProblem::NotANumber));
    }
    let value: u32 = text.parse().map_err(|_| (0, CounterProblem::TooLarge))?;
    if text.len() > 1 && text.starts_with('0') {
        return Err((value, CounterProblem::LeadingZeros));
    }
    Ok(value)
}

/// Everything read from the text, problems included.
struct Reading {
    parsed: ParsedFen,
    errors: Vec<FenError>,
    /// Which fields could be read (placement, side, castling, e.p., half-moves, full-moves).
    ok: [bool; 6],
}

fn read(fen: &str) -> Reading {
    let fields = split_fields(fen);
    let mut errors = Vec::new();
    let mut ok = [false; 6];
    let mut columns = [0; 6];
    for (i, (col, _)) in fields.iter().take(6).enumerate() {
        columns[i] = *col;
    }
    let field_count_ok = fields.len() == 6 || fields.len() == 4;
    if !field_count_ok {
        let column = match fields.get(6) {
            Some((col, _)) => *col,
            None => fen.chars().count() + 1,
        };
        errors.push(FenError {
            column,
            kind: FenErrorKind::FieldCount(fields.len()),
        });
    }
    let field = |i: usize| fields.get(i).map(|f| f.1);

    let mut square_columns = [0; 64];
    let board = match fields.first() {
        Some(&(col, text)) => match parse_placement(text, col, &mut square_columns, &mut errors) {
            Some(board) => {
                ok[0] = true;
                board
            }
            None => Board::empty(),
        },
        None => Board::empty(),
    };
    let turn = match field(1) {
        Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => {
            errors.push(FenError {
                column: columns[1],
                kind: FenErrorKind::Side(other.to_string()),
            });
            Color::White
        }
        None => Color::White,
    };
    ok[1] = matches!(field(1), Some("w" | "b"));
    let mut castling = Bitboard::EMPTY;
    let mut mode = CastlingMode::Standard;
    let mut castling_columns = Vec::new();
    let mut tolerated = Vec::new();
    if let Some(text) = field(2) {
        let before = errors.len();
        (castling, mode) = parse_castling(
            text,
            columns[2],
            &board,
            &mut castling_columns,
            &mut errors,
            &mut tolerated,
        );
        ok[2] = errors.len() == before;
    }
    let mut ep_square = None;
    match field(3) {
        Some("-") => ok[3] = true,
        Some(s) => match Square::from_ascii(s.as_bytes()) {
            Some(sq) => {
                ep_square = Some(sq);
                ok[3] = true;
            }
            None => errors.push(FenError {
                column: columns[3],
                kind: FenErrorKind::EnPassant(s.to_string()),
            }),
        },
        None => {}
    }
    let (mut halfmoves, mut fullmoves) = (0, 1);
    if fields.len() == 4 {
        ok[4] = true;
        ok[5] = true;
    }
    if fields.len() >= 6 {
        for (i, counter) in [(4, Counter::Halfmoves), (5, Counter::Fullmoves)] {
            let text = fields[i].1;
            let value = match parse_counter(text) {
                Ok(0) if counter == Counter::Fullmoves => Err((1, CounterProblem::Zero)),
                Ok(0) => Ok(0),
                Ok(n) => Ok(n),
                Err((0, CounterProblem::LeadingZeros)) if counter == Counter::Fullmoves => {
                    Err((1, CounterProblem::LeadingZeros))
                }
                Err(e) => Err(e),
            };
            let value = match value {
                Ok(n) => {
                    ok[i] = true;
                    n
                }
                Err((n, problem)) => {
                    let error = FenError {
                        column: columns[i],
                        kind: FenErrorKind::Counter {
                            counter,
                            text: text.to_string(),
                            problem,
                        },
                    };
                    if error.kind.is_fatal() {
                        errors.push(error);
                    } else {
                        ok[i] = true;
                        tolerated.push(error);
                    }
                    n
                }
            };
            match counter {
                Counter::Halfmoves => halfmoves = value,
                Counter::Fullmoves => fullmoves = value,
            }
        }
    }
    if !field_count_ok {
        // Counters are only read when all six fields are there; the others still get checked above.
        ok[4] = false;
        ok[5] = false;
    }
    Reading {
        parsed: ParsedFen {
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
            square_columns,
            castling_columns,
            tolerated,
        },
        errors,
        ok,
    }
}

/// Reads the placement; on any problem reports each (first bad character and wrong length per rank, wrong rank
/// count) and returns None.
fn parse_placement(
    text: &str,
    column: usize,
    square_columns: &mut [usize; 64],
    errors: &mut Vec<FenError>,
) -> Option<Board> {
    let before = errors.len();
    let mut board = Board::empty();
    let mut ranks = 0;
    let mut rank_start = column;
    let mut col = column;
    let mut squares = 0u32;
    let mut rank_bad = false;
    let mut previous_digit = false;
    let end_rank = |ranks: &mut usize,
                    squares: u32,
                    rank_start: usize,
                    rank_bad: bool,
                    errors: &mut Vec<FenError>| {
        if *ranks < 8 && squares != 8 && !rank_bad {
            errors.push(FenError {
                column: rank_start,
                kind: FenErrorKind::RankLength {
                    rank: Rank::new(7 - *ranks as u8),
                    squares,
                },
            });
        }
        *ranks += 1;
    };
    for c in text.chars() {
        match c {
            '/' => {
                end_rank(&mut ranks, squares, rank_start, rank_bad, errors);
                if ranks == 8 {
                    errors.push(FenError {
                        column: col,
                        kind: FenErrorKind::RankCount(text.split('/').count()),
                    });
                    return None;
                }
                squares = 0;
                rank_bad = false;
                previous_digit = false;
                rank_start = col + 1;
            }
            '1'..='8' => {
                if previous_digit && !rank_bad {
                    errors.push(FenError {
                        column: col,
                        kind: FenErrorKind::AdjacentDigits,
                    });
                    rank_bad = true;
                }
                previous_digit = true;
                squares += c as u32 - '0' as u32;
            }
            _ => {
                previous_digit = false;
                match Piece::from_fen_char(c) {
                    Some(piece) if !rank_bad => {
                        if squares < 8 {
                            let sq = Square::from_coords(
                                File::new(squares as u8),
                                Rank::new(7 - ranks as u8),
                            );
                            board.put(sq, piece);
                            square_columns[sq.index()] = col;
                        }
                        squares += 1;
                    }
                    Some(_) => squares += 1,
                    None => {
                        if !rank_bad {
                            errors.push(FenError {
                                column: col,
                                kind: FenErrorKind::PlacementChar(c),
                            });
                            rank_bad = true;
                        }
                    }
                }
            }
        }
        col += 1;
    }
    end_rank(&mut ranks, squares, rank_start, rank_bad, errors);
    if ranks != 8 {
        errors.push(FenError {
            column: col,
            kind: FenErrorKind::RankCount(ranks),
        });
    }
    (errors.len() == before).then_some(board)
}

/// Reads `KQkq`, X-FEN (`K`/`Q` = outermost rook on that side) and Shredder-FEN (rook files) castling rights.
/// Any right that is not a standard corner with the king on the e-file, or any file letter, means Chess960.
fn parse_castling(
    text: &str,
    column: usize,
    board: &Board,
    letter_columns: &mut Vec<(Square, usize)>,
    errors: &mut Vec<FenError>,
    tolerated: &mut Vec<FenError>,
) -> (Bitboard, CastlingMode) {
    let mut rights = Bitboard::EMPTY;
    let mut chess960 = false;
    if text == "-" {
        return (rights, CastlingMode::Standard);
    }
    let mut out_of_order = false;
    let mut seen_black = false;
    let mut seen_queenside = [false; 2];
    for (i, c) in text.chars().enumerate() {
        let col = column + i;
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
                if kingside && seen_queenside[color.index()] {
                    out_of_order = true;
                }
                if !kingside {
                    seen_queenside[color.index()] = true;
                }
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
            _ => {
                errors.push(FenError {
                    column: col,
                    kind: FenErrorKind::CastlingChar(c),
                });
                continue;
            }
        };
        if color == Color::White && seen_black {
            out_of_order = true;
        }
        seen_black |= color == Color::Black;
        if rights.contains(rook) {
            tolerated.push(FenError {
                column: col,
                kind: FenErrorKind::CastlingRepeated(c),
            });
            continue;
        }
        rights = rights.with(rook);
        letter_columns.push((rook, col));
    }
    if out_of_order {
        tolerated.push(FenError {
            column,
            kind: FenErrorKind::CastlingOrder(text.to_string()),
        });
    }
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
    (rights, mode)
}

/// Parses and checks a FEN (or the four-field EPD form) strictly: the position, or every problem found (see the
/// module documentation for what is accepted).
///
/// The error carries the position as read and says what stands in its way; its `ignore_*` methods accept
/// the problems a caller can live with ([`InvalidFen::lenient`] all of them).
///
/// ```
/// use pgnkit::core::fen::{self, FenErrorKind, InvalidFen};
/// use pgnkit::core::PositionError;
///
/// // Both sides have castling rights, but White's rooks are gone (a sloppy export).
/// let text = "4k2r/8/8/8/8/8/8/4K3 w Kk - 0 1";
/// let invalid = fen::parse_fen(text).unwrap_err();
/// assert!(matches!(
///     invalid.problems()[0].kind,
///     FenErrorKind::Position(PositionError::InvalidCastlingRight { .. })
/// ));
/// assert_eq!(
///     invalid.problems()[0].to_string(),
///     "column 24: castling right for White with the rook on h1: no rook of that colour stands there"
/// );
/// // Accepting it drops the right that cannot stand; Black's stays.
/// let pos = invalid.ignore_invalid_castling_rights().unwrap();
/// assert_eq!(fen::to_fen(&pos), "4k2r/8/8/8/8/8/8/4K3 w k - 0 1");
/// // A missing king is never acceptable.
/// assert!(fen::parse_fen("8/8/8/8/8/8/8/4K3 w - - 0 1").or_else(InvalidFen::lenient).is_err());
/// ```
pub fn parse_fen(fen: &str) -> Result<Position, InvalidFen> {
    let Reading {
        mut parsed,
        mut errors,
        ok,
    } = read(fen);
    if !errors.is_empty() {
        // Some field cannot be read: no position. Report every syntax problem, and the position problems that
        // the fields that could be read already show.
        if ok[0] {
            if !ok[2] {
                parsed.setup.castling = Bitboard::EMPTY;
                parsed.castling_columns.clear();
            }
            if !ok[4] {
                parsed.setup.halfmoves = 0;
            }
            let mut position_errors = parsed.position_errors();
            position_errors.retain(|e| {
                let needs_side = matches!(
                    e.kind,
                    FenErrorKind::Position(
                        PositionError::OppositeCheck { .. }
                            | PositionError::TooManyCheckers(_)
                            | PositionError::ImpossibleCheck { .. }
                            | PositionError::InvalidEnPassant { .. }
                            | PositionError::EnPassantWithHalfmoves { .. }
                    )
                );
                ok[1] || !needs_side
            });
            errors.extend(position_errors);
        }
        errors.extend(parsed.tolerated);
        errors.sort_by_key(|e| e.column);
        return Err(InvalidFen {
            read: None,
            problems: errors,
            ignored: Tolerance::NONE,
        });
    }
    let mut problems = parsed.tolerated.clone();
    match Position::from_setup_lenient(parsed.setup.clone(), parsed.mode) {
        Ok((pos, found)) if found.is_empty() && problems.is_empty() => Ok(pos),
        Ok((_, found)) | Err(found) => {
            if !found.is_empty() {
                problems.extend(parsed.locate(found));
                problems.sort_by_key(|e| e.column);
            }
            Err(InvalidFen {
                read: Some(Box::new(parsed)),
                problems,
                ignored: Tolerance::NONE,
            })
        }
    }
}

impl ParsedFen {
    /// Every position problem, fatal or not.
    fn position_errors(&self) -> Vec<FenError> {
        match Position::from_setup_lenient(self.setup.clone(), self.mode) {
            Ok((_, problems)) | Err(problems) => self.locate(problems),
        }
    }

    /// Points each rule problem at the text it concerns: a piece's letter, a castling letter or a field.
    fn locate(&self, errors: Vec<PositionError>) -> Vec<FenError> {
        let board = &self.setup.board;
        let piece_column = |sq: Square| match self.square_columns[sq.index()] {
            0 => self.columns[0].max(1),
            col => col,
        };
        errors
            .into_iter()
            .map(|e| {
                let column = match &e {
                    PositionError::MissingKing(_)
                    | PositionError::TooManyPawns(..)
                    | PositionError::TooManyPieces(..)
                    | PositionError::TooMuchMaterial { .. } => self.columns[0].max(1),
                    // The second king is the one too many.
                    PositionError::TooManyKings(color, _) => {
                        let kings = board.kings() & board.by_color(*color);
                        let mut by_column: Vec<usize> = kings.map(piece_column).collect();
                        by_column.sort_unstable();
                        by_column.get(1).copied().unwrap_or(self.columns[0].max(1))
                    }
                    PositionError::PawnOnBackRank(sq) => piece_column(*sq),
                    PositionError::InvalidCastlingRight { rook_square, .. } => self
                        .castling_columns
                        .iter()
                        .find(|(sq, _)| sq == rook_square)
                        .map_or(self.columns[2], |&(_, col)| col),
                    PositionError::AsymmetricCastling => self.columns[2],
                    PositionError::InvalidEnPassant { .. } => self.columns[3],
                    PositionError::EnPassantWithHalfmoves { .. } => {
                        if self.columns[4] != 0 {
                            self.columns[4]
                        } else {
                            self.columns[3]
                        }
                    }
                    PositionError::OppositeCheck { .. } => self.columns[1],
                    PositionError::TooManyCheckers(_) => {
                        board.king_of(self.setup.turn).map_or(1, piece_column)
                    }
                    PositionError::ImpossibleCheck { king, .. } => piece_column(*king),
                };
                FenError {
                    column,
                    kind: FenErrorKind::Position(e),
                }
            })
            .collect()
    }
}

/// The problems a caller may choose to accept, as a set (each `InvalidFen::ignore_*` adds one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tolerance(u8);

impl Tolerance {
    const NONE: Tolerance = Tolerance(0);
    const UNREACHABLE: Tolerance = Tolerance(1);
    const CASTLING_RIGHTS: Tolerance = Tolerance(2);
    const EP_SQUARE: Tolerance = Tolerance(4);
    const HALFMOVE_CLOCK: Tolerance = Tolerance(8);

    const fn with(self, other: Tolerance) -> Tolerance {
        Tolerance(self.0 | other.0)
    }

    const fn covers(self, other: Tolerance) -> bool {
        self.0 & other.0 != 0
    }

    /// What accepts a position problem, if anything can: written out per variant, so that a new kind of
    /// problem needs a decision here.
    fn of(problem: &PositionError) -> Tolerance {
        match problem {
            PositionError::MissingKing(_)
            | PositionError::TooManyKings(..)
            | PositionError::PawnOnBackRank(_)
            | PositionError::OppositeCheck { .. }
            | PositionError::InvalidEnPassant {
                problem: EnPassantProblem::WrongRank,
                ..
            } => Tolerance::NONE,
            PositionError::TooManyPawns(..)
            | PositionError::TooManyPieces(..)
            | PositionError::TooMuchMaterial { .. }
            | PositionError::AsymmetricCastling
            | PositionError::TooManyCheckers(_)
            | PositionError::ImpossibleCheck { .. } => Tolerance::UNREACHABLE,
            PositionError::EnPassantWithHalfmoves { .. } => {
                Tolerance::UNREACHABLE.with(Tolerance::HALFMOVE_CLOCK)
            }
            PositionError::InvalidCastlingRight { .. } => Tolerance::CASTLING_RIGHTS,
            PositionError::InvalidEnPassant {
                problem: EnPassantProblem::NoPawn | EnPassantProblem::SquaresOccupied,
                ..
            } => Tolerance::EP_SQUARE,
        }
    }
}

/// A FEN that [`parse_fen`] refused: every problem found, the fields as read, and named ways to accept the
/// problems a caller can live with.
///
/// Each `ignore_*` method accepts one kind of problem and gives the position if nothing else stands in the
/// way, else the error back (the accepted kinds remembered), so they chain with `or_else`. A problem
/// that makes the rules meaningless (a missing king, a pawn on the first or last rank, the side not to
/// move in check, an e.p. square on the wrong rank) or a field that cannot be read is never accepted.
///
/// [`InvalidFen::problems`] lists what the strict reading found, for messages. Position problems stay listed
/// after they are accepted (the position is still unreachable, say); sloppy syntax leaves the list once
/// [`InvalidFen::ignore_sloppy_syntax`] has read it the one obvious way.
///
/// ```
/// use pgnkit::core::fen::{self, InvalidFen};
///
/// // Castling letters out of order and a full-move number of 0: sloppy, but with one obvious reading.
/// let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 0";
/// let invalid = fen::parse_fen(text).unwrap_err();
/// assert_eq!(invalid.problems().len(), 2);
/// let pos = invalid.ignore_sloppy_syntax().unwrap();
/// assert_eq!(fen::to_fen(&pos), fen::STARTING_FEN);
///
/// // Three white rooks beside eight pawns cannot come from a game, but can be played from (perft suites
/// // have such positions); the king-side right names h1, where no rook stands.
/// let text = "4k3/8/8/8/8/8/PPPPPPPP/RRR1K3 w K - 0 1";
/// let pos = fen::parse_fen(text)
///     .or_else(InvalidFen::ignore_unreachable)
///     .or_else(InvalidFen::ignore_invalid_castling_rights)
///     .unwrap();
/// assert!(pos.castling_rights().is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct InvalidFen {
    /// The fields as read (sloppy syntax read the one obvious way), when every field could be read; boxed, as
    /// it holds a column per square and errors travel by value.
    read: Option<Box<ParsedFen>>,
    problems: Vec<FenError>,
    ignored: Tolerance,
}

impl InvalidFen {
    /// Every problem found, each at its column, for messages: the strict reading's list, less the sloppy
    /// syntax once [`InvalidFen::ignore_sloppy_syntax`] has accepted it.
    pub fn problems(&self) -> &[FenError] {
        &self.problems
    }

    /// [`InvalidFen::problems`], owned.
    pub fn into_problems(self) -> Vec<FenError> {
        self.problems
    }

    /// The position as written, unchecked, when every field could be read (sloppy syntax read the one obvious
    /// way); `None` when a field could not be read at all.
    pub fn setup(&self) -> Option<&Setup> {
        self.read.as_ref().map(|read| &read.setup)
    }

    /// Accepts the syntax that has one obvious reading: castling letters out of order or repeated (`qK`,
    /// `KK`), counters with leading zeros (`00`, `01`), a full-move number of 0 (read as 1). Once read, these
    /// leave [`InvalidFen::problems`]. Nothing changes when some field cannot be read at all.
    pub fn ignore_sloppy_syntax(mut self) -> Result<Position, InvalidFen> {
        if self.read.is_some() {
            self.problems.retain(|p| !p.kind.is_sloppy_syntax());
        }
        self.accept(Tolerance::NONE)
    }

    /// Accepts a position no game can reach but the rules can be played from: more pawns or pieces than a side
    /// starts with, or more promoted pieces than missing pawns; checks no last move could have given; castling
    /// rights whose kings or rooks stand on different files for the two sides; an e.p. square with a
    /// half-move clock other than 0 (both kept as written).
    pub fn ignore_unreachable(self) -> Result<Position, InvalidFen> {
        self.accept(Tolerance::UNREACHABLE)
    }

    /// Accepts castling rights whose king or rook is not where the right needs it, by dropping them: such a
    /// right could never be used, so no legal move changes.
    pub fn ignore_invalid_castling_rights(self) -> Result<Position, InvalidFen> {
        self.accept(Tolerance::CASTLING_RIGHTS)
    }

    /// Accepts an e.p. square with no pawn in front of it, or with the squares the pawn crossed occupied, by
    /// dropping it: no capture onto it was possible, so no legal move changes.
    pub fn ignore_invalid_ep_square(self) -> Result<Position, InvalidFen> {
        self.accept(Tolerance::EP_SQUARE)
    }

    /// Accepts an e.p. square beside a half-move clock other than 0 by reading the clock as 0: the e.p.
    /// square says a pawn has just moved, which resets the clock, and it is the field that changes what can
    /// be played (chess.com exports write `... f6 1 2`). [`InvalidFen::ignore_unreachable`] keeps the clock
    /// as written instead; with both, the clock is read as 0.
    pub fn ignore_halfmove_clock(self) -> Result<Position, InvalidFen> {
        self.accept(Tolerance::HALFMOVE_CLOCK)
    }

    /// Accepts everything the other `ignore_*` methods accept except [`InvalidFen::ignore_halfmove_clock`]'s
    /// repair: sloppy syntax, unreachable positions, castling rights and e.p. squares that cannot stand. This
    /// is `pgnkit fen --lenient` and `pgnkit perft`: perft suites and real files have all of these.
    pub fn lenient(self) -> Result<Position, InvalidFen> {
        self.ignore_sloppy_syntax().or_else(|e| {
            e.accept(
                Tolerance::UNREACHABLE
                    .with(Tolerance::CASTLING_RIGHTS)
                    .with(Tolerance::EP_SQUARE),
            )
        })
    }

    /// Adds `tolerance` to what is accepted; the position if every problem left is accepted.
    fn accept(mut self, tolerance: Tolerance) -> Result<Position, InvalidFen> {
        self.ignored = self.ignored.with(tolerance);
        let Some(read) = &self.read else {
            return Err(self);
        };
        let mut reset_clock = false;
        for problem in &self.problems {
            let FenErrorKind::Position(e) = &problem.kind else {
                return Err(self);
            };
            if !self.ignored.covers(Tolerance::of(e)) {
                return Err(self);
            }
            reset_clock |= matches!(e, PositionError::EnPassantWithHalfmoves { .. })
                && self.ignored.covers(Tolerance::HALFMOVE_CLOCK);
        }
        let mut setup = read.setup.clone();
        if reset_clock {
            setup.halfmoves = 0;
        }
        match Position::from_setup_lenient(setup, read.mode) {
            Ok((pos, _)) => Ok(pos),
            Err(_) => Err(self),
        }
    }
}

impl fmt::Display for InvalidFen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid FEN")?;
        for (i, problem) in self.problems.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InvalidFen {}

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

/// The FEN of a position, castling rights written in `style`.
pub fn to_fen_with(pos: &Position, style: CastlingStyle) -> String {
    let mut out = String::with_capacity(90);
    write_fen(pos, style, &mut out);
    out
}

/// Appends the FEN of `pos` to `out` (what [`to_fen_with`] returns, without allocating: stats writes one
/// per game, or per move).
pub fn write_fen(pos: &Position, style: CastlingStyle, out: &mut String) {
    write_placement(pos.board(), out);
    write_fen_after_placement(pos, style, out);
}

/// The FEN's fields after the placement, each after a space.
fn write_fen_after_placement(pos: &Position, style: CastlingStyle, out: &mut String) {
    // Gathered in a buffer and appended once (a `push` per character cost more than the fields).
    let mut buf = [0u8; 48];
    buf[..3].copy_from_slice(&[b' ', pos.turn().fen_char() as u8, b' ']);
    let mut len = 3;
    len += castling_field(pos, style, &mut buf[len..len + 16]);
    buf[len] = b' ';
    len += 1;
    match pos.ep_square() {
        Some(sq) => {
            buf[len] = sq.file().char() as u8;
            buf[len + 1] = sq.rank().char() as u8;
            len += 2;
        }
        None => {
            buf[len] = b'-';
            len += 1;
        }
    }
    for n in [pos.halfmoves(), pos.fullmoves()] {
        buf[len] = b' ';
        len += 1;
        // The counters of nearly every position of a game have one or two digits.
        if n < 10 {
            buf[len] = b'0' + n as u8;
            len += 1;
        } else if n < 100 {
            buf[len] = b'0' + (n / 10) as u8;
            buf[len + 1] = b'0' + (n % 10) as u8;
            len += 2;
        } else {
            let mut digits = [0u8; 20];
            let digits = super::decimal::digits(n.into(), &mut digits);
            buf[len..len + digits.len()].copy_from_slice(digits);
            len += digits.len();
        }
    }
    push_ascii(out, &buf, len);
}

/// EPD: the first four FEN fields.
pub fn to_epd(pos: &Position) -> String {
    let mut out = String::with_capacity(80);
    write_epd(pos, &mut out);
    out
}

/// Appends the EPD of `pos` (the first four FEN fields) to `out`.
pub fn write_epd(pos: &Position, out: &mut String) {
    write_fen(pos, CastlingStyle::XFen, out);
    // Drop the two counters: the last two spaces and what follows them.
    for _ in 0..2 {
        if let Some(space) = out.rfind(' ') {
            out.truncate(space);
        }
    }
}

/// The first field of a FEN: where the pieces stand, rank 8 first.
pub fn placement(board: &Board) -> String {
    let mut out = String::with_capacity(72);
    write_placement(board, &mut out);
    out
}

fn write_placement(board: &Board, out: &mut String) {
    let mut buf = [0u8; 72];
    let len = placement_into(board, &mut buf, |_rank, codes| {
        let mut text = [0u8; 8];
        let len = rank_text(codes, &mut text);
        (text, len)
    });
    push_ascii(out, &buf, len);
}

/// Writes the placement field into `buf` (72 bytes hold the longest), rank 8 first, asking `rank_text` for
/// each rank's text from its eight mailbox codes; returns the length.
#[inline(always)]
fn placement_into(
    board: &Board,
    buf: &mut [u8; 72],
    mut rank_text: impl FnMut(usize, u64) -> ([u8; 8], usize),
) -> usize {
    let codes = board.codes();
    let mut len = 0;
    for rank in (0..8).rev() {
        let mut row = [0u8; 8];
        row.copy_from_slice(&codes[rank * 8..rank * 8 + 8]);
        let (text, n) = rank_text(rank, u64::from_le_bytes(row));
        buf[len..len + 8].copy_from_slice(&text);
        len += n;
        if rank != 0 {
            buf[len] = b'/';
            len += 1;
        }
    }
    len
}

/// The FEN text of one rank from its eight mailbox codes (a1's first), into `text`; returns its length.
#[inline]
fn rank_text(codes: u64, text: &mut [u8; 8]) -> usize {
    let mut len = 0;
    let mut empty = 0u8;
    for code in codes.to_le_bytes() {
        if code == 0 {
            empty += 1;
        } else {
            if empty > 0 {
                text[len] = b'0' + empty;
                len += 1;
                empty = 0;
            }
            text[len] = PIECE_LETTERS[usize::from(code).min(12)];
            len += 1;
        }
    }
    if empty > 0 {
        text[len] = b'0' + empty;
        len += 1;
    }
    len
}

/// A piece's FEN letter by mailbox code (0, no piece, is never looked up).
const PIECE_LETTERS: &[u8; 13] = b".PNBRQKpnbrqk";

/// Appends the first `len` bytes of `buf`, known to be ASCII. The whole buffer is copied into the string's
/// spare room, a fixed size the compiler writes as a few moves where a copy of `len` bytes would be a call to
/// `memcpy`, which cost as much as writing a FEN's fields; only `len` of them then count.
#[inline(always)]
fn push_ascii<const N: usize>(out: &mut String, buf: &[u8; N], len: usize) {
    let len = len.min(N);
    debug_assert!(buf[..len].is_ascii());
    // SAFETY: only ASCII is kept (callers write FEN letters, digits, '/' and spaces), so the string stays
    // UTF-8; `reserve(N)` leaves room for the N bytes copied after the current end, and the length grows by
    // `len <= N` of them, all written.
    unsafe {
        let bytes = out.as_mut_vec();
        bytes.reserve(N);
        let end = bytes.len();
        std::ptr::copy_nonoverlapping(buf.as_ptr(), bytes.as_mut_ptr().add(end), N);
        bytes.set_len(end + len);
    }
}

/// Writes FENs of a sequence of positions that differ little from one to the next (the positions of a
/// game): it remembers the text of each rank and writes again only the ranks that changed, which a move
/// does to one or two. The text is exactly [`write_fen`]'s.
///
/// ```
/// use pgnkit::core::Position;
/// use pgnkit::core::fen::{CastlingStyle, FenWriter, write_fen};
///
/// let mut writer = FenWriter::new();
/// let mut out = String::new();
/// writer.write(&Position::new(), CastlingStyle::XFen, &mut out);
/// assert_eq!(out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// ```
#[derive(Clone, Debug)]
pub struct FenWriter {
    /// Per rank (rank 1 first): its eight mailbox codes, its text and the text's length.
    ranks: [(u64, [u8; 8], usize); 8],
}

impl Default for FenWriter {
    fn default() -> Self {
        FenWriter::new()
    }
}

impl FenWriter {
    /// A writer that remembers nothing yet.
    pub fn new() -> FenWriter {
        // Codes no board has (13 and above), so every rank is written the first time.
        FenWriter {
            ranks: [(u64::MAX, [0; 8], 0); 8],
        }
    }

    /// Appends the FEN of `pos` to `out`, as [`write_fen`] does.
    pub fn write(&mut self, pos: &Position, style: CastlingStyle, out: &mut String) {
        let mut buf = [0u8; 72];
        let ranks = &mut self.ranks;
        let len = placement_into(pos.board(), &mut buf, |rank, codes| {
            let cached = &mut ranks[rank];
            if cached.0 != codes {
                cached.0 = codes;
                cached.2 = rank_text(codes, &mut cached.1);
            }
            (cached.1, cached.2)
        });
        push_ascii(out, &buf, len);
        write_fen_after_placement(pos, style, out);
    }
}

/// The four corners, where the rooks of standard chess's castling rights stand.
const CORNERS: Bitboard = Bitboard(1 | 1 << 7 | 1 << 56 | 1 << 63);

/// Writes the castling field into `out` (16 bytes hold the longest); returns its length.
fn castling_field(pos: &Position, style: CastlingStyle, out: &mut [u8]) -> usize {
    let mut len = 0;
    // Castling letters are ASCII.
    let put = |out: &mut [u8], len: &mut usize, c: char| {
        out[*len] = c as u8;
        *len += 1;
    };
    let rights = pos.castling_rights();
    if style == CastlingStyle::XFen
        && pos.castling_mode() == CastlingMode::Standard
        && (rights & !CORNERS).is_empty()
    {
        // Standard chess with rights on corner rooks, the king on its e-file (every position of a standard
        // game): `KQkq`, which the general loop below also writes, a hot path of per-move FENs.
        let king_on_e = |color: Color| pos.king(color).file() == File::E;
        let white_ok = (rights & Bitboard::rank(Rank::First)).is_empty() || king_on_e(Color::White);
        let black_ok =
            (rights & Bitboard::rank(Rank::Eighth)).is_empty() || king_on_e(Color::Black);
        if white_ok && black_ok {
            for (corner, letter) in [
                (Square::H1, 'K'),
                (Square::A1, 'Q'),
                (Square::H8, 'k'),
                (Square::A8, 'q'),
            ] {
                if rights.contains(corner) {
                    put(out, &mut len, letter);
                }
            }
            if len == 0 {
                put(out, &mut len, '-');
            }
            return len;
        }
    }
    let board = pos.board();
    // `KQkq` on corner rooks with the king on the e-file reads back as standard chess; a Chess960 position
    // like that is written with file letters so that it reads back as Chess960.
    let reads_as_standard = pos.castling_rights().all(|rook| {
        let color = if rook.rank() == Rank::First {
            Color::White
        } else {
            Color::Black
        };
        matches!(rook.file(), File::A | File::H) && pos.king(color).file() == File::E
    });
    let letters_allowed = match pos.castling_mode() {
        CastlingMode::Standard => true,
        CastlingMode::Chess960 => !reads_as_standard,
    };
    for color in Color::ALL {
        let back = Bitboard::rank(color.back_rank());
        let rights = pos.castling_rights() & back;
        let king = pos.king(color);
        let rooks = board.rooks() & board.by_color(color) & back;
        // Shredder-FEN lists files in order (`BFbf`); X-FEN puts kingside first, as in `KQkq`.
        let mut ordered = [Square::A1; 8];
        let mut count = 0;
        for rook in rights {
            ordered[count] = rook;
            count += 1;
        }
        let ordered = &mut ordered[..count];
        if style == CastlingStyle::XFen {
            ordered.reverse();
        }
        for &rook in ordered.iter() {
            let kingside = rook.file() > king.file();
            let outermost = if kingside {
                rooks.filter(|r| r.file() > king.file()).last() == Some(rook)
            } else {
                rooks.into_iter().find(|r| r.file() < king.file()) == Some(rook)
            };
            let letter = if style == CastlingStyle::XFen
                && (pos.castling_mode() == CastlingMode::Standard || outermost && letters_allowed)
            {
                if kingside { 'k' } else { 'q' }
            } else {
                rook.file().char()
            };
            put(
                out,
                &mut len,
                if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                },
            );
        }
    }
    if len == 0 {
        put(out, &mut len, '-');
    }
    len
}

impl std::str::FromStr for Position {
    type Err = InvalidFen;
    fn from_str(s: &str) -> Result<Position, Self::Err> {
        parse_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rank's text square by square, as the FEN standard describes it.
    fn plain_rank_text(codes: [u8; 8]) -> String {
        let mut out = String::new();
        let mut empty = 0;
        for code in codes {
            if code == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(char::from(PIECE_LETTERS[usize::from(code)]));
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        out
    }

    #[test]
    fn every_rank_shape_with_every_piece_reads_as_the_plain_rule_writes_it() {
        // Every set of occupied squares, each filled with each of the twelve pieces in turn (a different one
        // per square, so a letter taken from the wrong square shows).
        for occupied in 0u32..256 {
            for first in 1u8..=12 {
                let mut codes = [0u8; 8];
                for (square, code) in codes.iter_mut().enumerate() {
                    if occupied >> square & 1 == 1 {
                        *code = (first - 1 + square as u8) % 12 + 1;
                    }
                }
                let mut text = [0u8; 8];
                let len = rank_text(u64::from_le_bytes(codes), &mut text);
                assert_eq!(
                    std::str::from_utf8(&text[..len]).unwrap(),
                    plain_rank_text(codes),
                    "{codes:?}"
                );
            }
        }
    }
    use crate::core::{CastlingProblem, EnPassantProblem};

    /// Every position two plies deep from a few rich positions (castling rights lost, en passant, promotions,
    /// Chess960 rights), walked depth first so that consecutive positions share ranks or do not: the writer
    /// that remembers ranks writes what `write_fen` writes, in both castling styles.
    #[test]
    fn the_rank_remembering_writer_writes_what_write_fen_writes() {
        fn visit(pos: &Position, depth: u32, writer: &mut FenWriter, seen: &mut usize) {
            for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
                let (mut expected, mut written) = (String::from("x"), String::from("x"));
                write_fen(pos, style, &mut expected);
                writer.write(pos, style, &mut written);
                assert_eq!(written, expected);
            }
            *seen += 1;
            if depth > 0 {
                for &m in &pos.legal_moves() {
                    let mut next = *pos;
                    next.play_unchecked(m);
                    visit(&next, depth - 1, writer, seen);
                }
            }
        }
        let mut writer = FenWriter::new();
        let mut seen = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 345",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 b GBgb - 99 400",
        ] {
            visit(&parse_fen(fen).unwrap(), 2, &mut writer, &mut seen);
        }
        assert!(seen > 2_000, "{seen}");
    }

    #[test]
    fn fen_and_epd_append_to_what_is_there() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 345",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 b GBgb - 99 4000000000",
        ] {
            let pos = parse_fen(fen).unwrap();
            let mut out = String::from("x ");
            write_fen(&pos, CastlingStyle::XFen, &mut out);
            assert_eq!(out, format!("x {}", to_fen(&pos)));
            let mut epd = String::from("y ");
            write_epd(&pos, &mut epd);
            let full = to_fen(&pos);
            let fields: Vec<&str> = full.split(' ').take(4).collect();
            assert_eq!(epd, format!("y {}", fields.join(" ")));
        }
        let pos = parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 345").unwrap();
        assert_eq!(to_fen(&pos), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 345");
        assert_eq!(to_epd(&pos), "4k3/8/8/3pP3/8/8/8/4K3 w - d6");
    }

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

    /// The strict errors of `fen` as (column, kind).
    fn errors(fen: &str) -> Vec<(usize, FenErrorKind)> {
        parse_fen(fen)
            .unwrap_err()
            .into_problems()
            .into_iter()
            .map(|e| (e.column, e.kind))
            .collect()
    }

    /// `fen` read with every tolerance but the clock's repair.
    fn parse_fen_lenient(fen: &str) -> Result<Position, InvalidFen> {
        parse_fen(fen).or_else(InvalidFen::lenient)
    }

    fn col(fen: &str, needle: &str) -> usize {
        fen.find(needle).unwrap() + 1
    }

    #[test]
    fn several_problems_reported_at_once() {
        use PositionError::*;
        let fen = "8/8/8/8/8/8/8/8 x KQ - 0 0";
        assert_eq!(
            errors(fen),
            vec![
                (1, FenErrorKind::Position(MissingKing(Color::White))),
                (1, FenErrorKind::Position(MissingKing(Color::Black))),
                (17, FenErrorKind::Side("x".into())),
                (
                    19,
                    FenErrorKind::Position(InvalidCastlingRight {
                        color: Color::White,
                        rook_square: Square::H1,
                        problem: CastlingProblem::NoRook
                    })
                ),
                (
                    20,
                    FenErrorKind::Position(InvalidCastlingRight {
                        color: Color::White,
                        rook_square: Square::A1,
                        problem: CastlingProblem::NoRook
                    })
                ),
                (
                    26,
                    FenErrorKind::Counter {
                        counter: Counter::Fullmoves,
                        text: "0".into(),
                        problem: CounterProblem::Zero
                    }
                ),
            ]
        );
        assert!(parse_fen_lenient(fen).is_err());
    }

    #[test]
    fn placement_errors_point_at_their_character() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1";
        assert_eq!(
            errors(fen),
            vec![(col(fen, "X"), FenErrorKind::PlacementChar('X'))]
        );
        let fen = "4k3/8/8/8/8/8/8/4K12 w - - 0 1";
        assert_eq!(
            errors(fen),
            vec![(col(fen, "2 "), FenErrorKind::AdjacentDigits)]
        );
        let fen = "4k3/8/8/8/8/9/8/4K2 w - - 0 1";
        assert_eq!(
            errors(fen),
            vec![
                (col(fen, "9"), FenErrorKind::PlacementChar('9')),
                (
                    col(fen, "4K2"),
                    FenErrorKind::RankLength {
                        rank: Rank::First,
                        squares: 7
                    }
                ),
            ]
        );
        let fen = "4k3/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            errors(fen),
            vec![(col(fen, " w"), FenErrorKind::RankCount(7))]
        );
        let fen = "4k3/8/8/8/8/8/8/4K3/8 w - - 0 1";
        assert_eq!(
            errors(fen),
            vec![(col(fen, "/8 w"), FenErrorKind::RankCount(9))]
        );
        // Columns count characters, not bytes.
        let fen = "4k3/8/8/8/8/8/8/4K3 w - é 0 1";
        assert_eq!(errors(fen), vec![(25, FenErrorKind::EnPassant("é".into()))]);
        let fen = "é3k3/8/8/8/8/8/8/4K3 x - - 0 1";
        assert_eq!(
            errors(fen),
            vec![
                (1, FenErrorKind::PlacementChar('é')),
                (22, FenErrorKind::Side("x".into()))
            ]
        );
    }

    #[test]
    fn field_problems() {
        let fen = "4k3/8/8/8/8/8/8/4K3 W - - 0 1";
        assert_eq!(errors(fen), vec![(21, FenErrorKind::Side("W".into()))]);
        let fen = "4k3/8/8/8/8/8/8/4K3 w X- - 0 1";
        assert_eq!(
            errors(fen),
            vec![
                (23, FenErrorKind::CastlingChar('X')),
                (24, FenErrorKind::CastlingChar('-'))
            ]
        );
        let fen = "4k3/8/8/8/8/8/8/4K3 w - e9 0 1";
        assert_eq!(
            errors(fen),
            vec![(25, FenErrorKind::EnPassant("e9".into()))]
        );
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - x 99999999999";
        assert_eq!(
            errors(fen),
            vec![
                (
                    27,
                    FenErrorKind::Counter {
                        counter: Counter::Halfmoves,
                        text: "x".into(),
                        problem: CounterProblem::NotANumber
                    }
                ),
                (
                    29,
                    FenErrorKind::Counter {
                        counter: Counter::Fullmoves,
                        text: "99999999999".into(),
                        problem: CounterProblem::TooLarge
                    }
                ),
            ]
        );
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0";
        assert_eq!(errors(fen), vec![(28, FenErrorKind::FieldCount(5))]);
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra";
        assert_eq!(errors(fen), vec![(31, FenErrorKind::FieldCount(7))]);
        assert_eq!(errors(""), vec![(1, FenErrorKind::FieldCount(0))]);
    }

    #[test]
    fn lenient_parsing_tolerates_order_and_zeros_and_reports_them() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w qKkQK - 00 01";
        let kinds: Vec<FenErrorKind> = errors(fen).into_iter().map(|e| e.1).collect();
        assert_eq!(kinds.len(), 4, "{kinds:?}");
        assert!(kinds.contains(&FenErrorKind::CastlingOrder("qKkQK".into())));
        assert!(kinds.contains(&FenErrorKind::CastlingRepeated('K')));
        // Sloppy syntax only: accepting it is enough, and the problems are gone from the list of a later error.
        let pos = parse_fen(fen)
            .or_else(InvalidFen::ignore_sloppy_syntax)
            .unwrap();
        assert_eq!(to_fen(&pos), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let with_rook_missing = "r3k2r/8/8/8/8/8/8/4K2R w qKkQK - 00 01";
        let invalid = parse_fen(with_rook_missing).unwrap_err();
        assert_eq!(invalid.problems().len(), 5);
        let invalid = invalid.ignore_sloppy_syntax().unwrap_err();
        assert_eq!(invalid.problems().len(), 1);
        let pos = invalid.ignore_invalid_castling_rights().unwrap();
        assert_eq!(to_fen(&pos), "r3k2r/8/8/8/8/8/8/4K2R w Kkq - 0 1");
        let pos = parse_fen_lenient("4k3/8/8/8/8/8/8/4K3 w - - 0 0").unwrap();
        assert_eq!(pos.fullmoves(), 1);
    }

    #[test]
    fn what_each_tolerance_accepts() {
        use crate::core::{CastlingProblem, Color};
        // Every position problem but the fatal ones can be accepted by some `ignore_*`.
        let (sq, bb) = (Square::E4, Bitboard::EMPTY);
        for e in [
            PositionError::MissingKing(Color::White),
            PositionError::TooManyKings(Color::White, 2),
            PositionError::PawnOnBackRank(sq),
            PositionError::TooManyPawns(Color::White, 9),
            PositionError::TooManyPieces(Color::White, 17),
            PositionError::TooMuchMaterial {
                color: Color::White,
                promoted: 2,
                missing_pawns: 1,
            },
            PositionError::InvalidCastlingRight {
                color: Color::White,
                rook_square: sq,
                problem: CastlingProblem::NoRook,
            },
            PositionError::AsymmetricCastling,
            PositionError::InvalidEnPassant {
                square: sq,
                problem: EnPassantProblem::WrongRank,
            },
            PositionError::InvalidEnPassant {
                square: sq,
                problem: EnPassantProblem::NoPawn,
            },
            PositionError::InvalidEnPassant {
                square: sq,
                problem: EnPassantProblem::SquaresOccupied,
            },
            PositionError::EnPassantWithHalfmoves {
                square: sq,
                halfmoves: 1,
            },
            PositionError::OppositeCheck {
                king: sq,
                attacker: sq,
            },
            PositionError::TooManyCheckers(3),
            PositionError::ImpossibleCheck {
                king: sq,
                checkers: bb,
            },
        ] {
            assert_eq!(Tolerance::of(&e) == Tolerance::NONE, e.is_fatal(), "{e:?}");
        }
    }

    #[test]
    fn the_half_move_clock_beside_an_ep_square() {
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 2";
        // Read as written (unreachable), or with the clock read as 0.
        let pos = parse_fen(fen)
            .or_else(InvalidFen::ignore_unreachable)
            .unwrap();
        assert_eq!((pos.ep_square(), pos.halfmoves()), (Some(Square::D6), 3));
        let pos = parse_fen(fen)
            .or_else(InvalidFen::ignore_halfmove_clock)
            .unwrap();
        assert_eq!((pos.ep_square(), pos.halfmoves()), (Some(Square::D6), 0));
        // With another problem beside it, nothing is accepted and every problem stays listed.
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w K d6 3 2";
        let invalid = parse_fen(fen).unwrap_err();
        let listed = invalid.problems().to_vec();
        assert_eq!(listed.len(), 2);
        let invalid = invalid.ignore_halfmove_clock().unwrap_err();
        assert_eq!(invalid.problems(), listed);
        assert!(invalid.setup().is_some());
        // ... until that one is accepted too.
        let pos = invalid.ignore_invalid_castling_rights().unwrap();
        assert_eq!(to_fen(&pos), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    }

    #[test]
    fn an_unreadable_field_is_never_accepted() {
        let invalid = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0").unwrap_err();
        assert!(invalid.setup().is_none());
        let listed = invalid.problems().to_vec();
        let invalid = invalid.lenient().unwrap_err();
        assert_eq!(invalid.problems(), listed);
        assert_eq!(
            invalid.to_string(),
            "invalid FEN: column 28: expected 6 fields (or 4 for EPD) separated by spaces, found 5"
        );
    }

    #[test]
    fn position_errors_point_at_pieces_and_fields() {
        use PositionError::*;
        let fen = "4k3/8/8/8/8/8/8/P3K3 w - - 0 1";
        assert_eq!(
            errors(fen),
            vec![(17, FenErrorKind::Position(PawnOnBackRank(Square::A1)))]
        );
        // Black in check with White to move: the side field is wrong.
        let fen = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1";
        assert_eq!(
            errors(fen),
            vec![(
                col(fen, "w"),
                FenErrorKind::Position(OppositeCheck {
                    king: Square::E8,
                    attacker: Square::E1
                })
            )]
        );
        let fen = "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1";
        assert_eq!(
            errors(fen),
            vec![(
                col(fen, "Q "),
                FenErrorKind::Position(InvalidCastlingRight {
                    color: Color::White,
                    rook_square: Square::A1,
                    problem: CastlingProblem::NoRook
                })
            )]
        );
        // Three checkers; two sliders on one line; a check the double step could not have given.
        let fen = "4k3/8/8/8/8/2n1n3/3q4/3K4 w - - 0 1";
        assert_eq!(
            errors(fen),
            vec![(col(fen, "K"), FenErrorKind::Position(TooManyCheckers(3)))]
        );
        let fen = "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1";
        assert!(matches!(
            errors(fen)[..],
            [(_, FenErrorKind::Position(ImpossibleCheck { .. }))]
        ));
        let fen = "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1";
        assert!(matches!(
            errors(fen)[..],
            [(_, FenErrorKind::Position(ImpossibleCheck { .. }))]
        ));
        // The double step uncovering a check through its origin square is fine.
        assert!(parse_fen("8/8/8/k7/3Pp3/8/8/4B1K1 b - d3 0 1").is_ok());
        assert!(parse_fen("8/8/8/k7/3Pp3/8/8/R5K1 b - d3 0 1").is_err());
        assert!(parse_fen("8/8/8/k7/3Pp3/8/8/R5K1 b - - 0 1").is_ok());
        // Nine queens and eight pawns.
        let fen = "4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1";
        assert!(matches!(
            errors(fen)[..],
            [(
                1,
                FenErrorKind::Position(TooMuchMaterial {
                    promoted: 1,
                    missing_pawns: 0,
                    ..
                })
            )]
        ));
        assert!(parse_fen_lenient(fen).is_ok());
        // Two light-squared bishops need a promotion too.
        let fen = "4k3/8/8/8/8/8/PPPPPPPP/1BB1K3 w - - 0 1";
        assert!(parse_fen(fen).is_ok());
        let fen = "4k3/8/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1";
        assert!(parse_fen(fen).is_ok());
        let fen = "4k3/8/8/8/8/8/PPPPPPPP/3BKB2 w - - 0 1";
        assert!(parse_fen(fen).is_err());
    }

    #[test]
    fn en_passant_checks() {
        use PositionError::*;
        // Consistent and capturable: kept.
        let pos = parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
        assert_eq!(pos.ep_square(), Some(Square::D6));
        // Consistent but no capture: accepted and dropped.
        let pos = parse_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2").unwrap();
        assert_eq!(pos.ep_square(), None);
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 2";
        assert_eq!(
            errors(fen),
            vec![(
                col(fen, "3 2"),
                FenErrorKind::Position(EnPassantWithHalfmoves {
                    square: Square::D6,
                    halfmoves: 3
                })
            )]
        );
        let fen = "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(
            errors(fen),
            vec![(
                col(fen, "d6"),
                FenErrorKind::Position(InvalidEnPassant {
                    square: Square::D6,
                    problem: EnPassantProblem::NoPawn
                })
            )]
        );
        assert_eq!(parse_fen_lenient(fen).unwrap().ep_square(), None);
        let fen = "4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert!(matches!(
            errors(fen)[..],
            [(
                _,
                FenErrorKind::Position(InvalidEnPassant {
                    problem: EnPassantProblem::SquaresOccupied,
                    ..
                })
            )]
        ));
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 b - d6 0 2";
        assert!(matches!(
            errors(fen)[..],
            [(
                _,
                FenErrorKind::Position(InvalidEnPassant {
                    problem: EnPassantProblem::WrongRank,
                    ..
                })
            )]
        ));
        assert!(parse_fen_lenient(fen).is_err());
    }

    #[test]
    fn chess960_mode_survives_x_fen() {
        // A Chess960 game whose king is on e1 with corner rooks: X-FEN `KQ` would read back as standard chess,
        // so file letters are written.
        let pos = parse_fen("4k3/8/8/8/8/8/8/R3K2R w AH - 0 1").unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(to_fen(&pos), "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1");
        assert_eq!(parse_fen(&to_fen(&pos)).unwrap(), pos);
        // X-FEN letters for an inner rook: `K` is the outermost (h1), the inner one is named by its file.
        let pos = parse_fen("1r2k1r1/8/8/8/8/8/8/1R2K1RR w GQg - 0 1").unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
        assert_eq!(to_fen(&pos), "1r2k1r1/8/8/8/8/8/8/1R2K1RR w GQk - 0 1");
        assert_eq!(
            to_fen_with(&pos, CastlingStyle::Shredder),
            "1r2k1r1/8/8/8/8/8/8/1R2K1RR w BGg - 0 1"
        );
        assert_eq!(parse_fen(&to_fen(&pos)).unwrap(), pos);
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
