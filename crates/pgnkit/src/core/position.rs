//! A checked chess position: the only way to get one is through [`Position::from_setup`], which reports every
//! problem of an impossible setup at once, so every method may assume both kings exist and the side not to
//! move is not in check.

use std::fmt;

use super::attacks;
use super::bitboard::Bitboard;
use super::board::Board;
use super::castling::Castling;
use super::moves::{Move, MoveKind};
use super::types::{Color, File, Piece, Rank, Role, Square};
use super::zobrist;

/// Whether castling rights are written as `KQkq` and castling moves as `e1g1` (standard), or rights name rook
/// files and castling moves are "king takes own rook" (Chess960).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: the king on e1/e8 castles with a rook in a corner.
    #[default]
    Standard,
    /// Chess960 (Fischer random): the king castles with a rook on either side of it, wherever they started.
    Chess960,
}

/// Anything a FEN can describe, checked or not: [`Position::from_setup`] makes a position of it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// Where the pieces stand.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// Squares of the rooks that may still castle.
    pub castling: Bitboard,
    /// The square a pawn has just crossed with a double step, if any.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move (the 50- and 75-move rules count them).
    pub halfmoves: u32,
    /// The number of the move about to be played, from 1, counting one per Black move.
    pub fullmoves: u32,
}

impl Setup {
    /// The initial position of standard chess.
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling: Bitboard::from_square(Square::A1)
                | Bitboard::from_square(Square::H1)
                | Bitboard::from_square(Square::A8)
                | Bitboard::from_square(Square::H8),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

/// Why a castling right cannot stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingProblem {
    /// No rook of the right's colour stands on the named square.
    NoRook,
    /// The king is not on its first rank, so it has moved and lost every right.
    KingNotOnBackRank,
    /// Standard chess castles only with the king on e1/e8 and a rook on the a- or h-file.
    NotStandardSquares,
    /// A second right names a rook on the same side of the king as another right.
    TwoRooksOneSide,
    /// The named square is not on the first rank of either side.
    NotOnBackRank,
}

/// Why an en-passant square does not fit the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnPassantProblem {
    /// Not on rank 6 with White to move (rank 3 with Black to move): the side to move or the square is wrong.
    WrongRank,
    /// No enemy pawn stands just beyond it, so no pawn has just crossed it.
    NoPawn,
    /// The square itself or the square the pawn came from is occupied.
    SquaresOccupied,
}

/// One reason a setup is not a legal chess position.
///
/// [`PositionError::is_fatal`] separates the problems that make the rules meaningless (missing king, pawn on the
/// last rank...) from those [`Position::from_setup_lenient`] can accept or repair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// That side has no king.
    MissingKing(Color),
    /// That side has this many kings.
    TooManyKings(Color, u32),
    /// A pawn on the first or last rank, where no pawn can stand.
    PawnOnBackRank(Square),
    /// That side has this many pawns, more than 8.
    TooManyPawns(Color, u32),
    /// That side has this many pieces, pawns included, more than 16.
    TooManyPieces(Color, u32),
    /// More pieces than promotions could have made: beyond one queen, two rooks, one bishop per square colour
    /// and two knights, each piece needs a pawn that is no longer on the board.
    TooMuchMaterial {
        /// Whose pieces.
        color: Color,
        /// How many pieces beyond the starting set.
        promoted: u32,
        /// How many pawns could have promoted (8 less the pawns on the board).
        missing_pawns: u32,
    },
    /// A castling right whose king or rook is not on its square.
    InvalidCastlingRight {
        /// Whose right.
        color: Color,
        /// The square of the rook the right names.
        rook_square: Square,
        /// What is wrong with it.
        problem: CastlingProblem,
    },
    /// Both sides may still castle, but their kings or castling rooks stand on different files, which no
    /// (Chess960) starting position allows.
    AsymmetricCastling,
    /// The e.p. square does not match a pawn that has just made a two-square move.
    InvalidEnPassant {
        /// The e.p. square.
        square: Square,
        /// What is wrong with it.
        problem: EnPassantProblem,
    },
    /// An e.p. square means a pawn has just moved, which resets the half-move clock, yet the clock is not 0.
    EnPassantWithHalfmoves {
        /// The e.p. square.
        square: Square,
        /// The clock.
        halfmoves: u32,
    },
    /// The side that has just moved is in check.
    OppositeCheck {
        /// That side's king.
        king: Square,
        /// A piece attacking it.
        attacker: Square,
    },
    /// More checkers than one move can give.
    TooManyCheckers(u32),
    /// A check no last move could have given (two sliders along one line, two pawns or knights, or a check that
    /// the double step behind the e.p. square could not have given or uncovered).
    ImpossibleCheck {
        /// The king in check.
        king: Square,
        /// The pieces giving check.
        checkers: Bitboard,
    },
}

impl PositionError {
    /// Fatal problems make move generation meaningless; [`Position::from_setup_lenient`] accepts the others
    /// (unreachable material or checks) or repairs them (it drops castling rights and e.p. squares that cannot
    /// stand, which changes no legal move).
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            PositionError::MissingKing(_)
                | PositionError::TooManyKings(..)
                | PositionError::PawnOnBackRank(_)
                | PositionError::OppositeCheck { .. }
                | PositionError::InvalidEnPassant {
                    problem: EnPassantProblem::WrongRank,
                    ..
                }
        )
    }
}

impl fmt::Display for CastlingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingProblem::NoRook => "no rook of that colour stands there",
            CastlingProblem::KingNotOnBackRank => "the king is not on its first rank",
            CastlingProblem::NotStandardSquares => {
                "standard chess castles only with the king on e1/e8 and rooks on the a- and h-files"
            }
            CastlingProblem::TwoRooksOneSide => {
                "another right already names a rook on that side of the king"
            }
            CastlingProblem::NotOnBackRank => "castling rooks stand on the first rank",
        })
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing(c) => write!(f, "{} has no king", c.name()),
            PositionError::TooManyKings(c, n) => write!(f, "{} has {n} kings", c.name()),
            PositionError::PawnOnBackRank(sq) => {
                write!(f, "pawn on {sq}: pawns cannot stand on rank 1 or 8")
            }
            PositionError::TooManyPawns(c, n) => {
                write!(f, "{} has {n} pawns (at most 8)", c.name())
            }
            PositionError::TooManyPieces(c, n) => {
                write!(f, "{} has {n} pieces (at most 16)", c.name())
            }
            PositionError::TooMuchMaterial {
                color,
                promoted,
                missing_pawns,
            } => write!(
                f,
                "{} has {promoted} more pieces than the starting set but only {missing_pawns} pawns could have \
                 promoted",
                color.name()
            ),
            PositionError::InvalidCastlingRight {
                color,
                rook_square,
                problem,
            } => write!(
                f,
                "castling right for {} with the rook on {rook_square}: {problem}",
                color.name()
            ),
            PositionError::AsymmetricCastling => write!(
                f,
                "both sides keep castling rights but their kings or rooks are on different files"
            ),
            PositionError::InvalidEnPassant { square, problem } => match problem {
                EnPassantProblem::WrongRank => {
                    let rank = if square.rank() == Rank::Sixth { 3 } else { 6 };
                    write!(
                        f,
                        "en-passant square {square} is on the wrong rank for the side to move (expected rank {rank})"
                    )
                }
                EnPassantProblem::NoPawn => write!(
                    f,
                    "en-passant square {square}: no pawn stands in front of it to have just moved two squares"
                ),
                EnPassantProblem::SquaresOccupied => write!(
                    f,
                    "en-passant square {square}: it and the square the pawn came from must be empty"
                ),
            },
            PositionError::EnPassantWithHalfmoves { square, halfmoves } => write!(
                f,
                "en-passant square {square} says a pawn has just moved, but the half-move clock is {halfmoves}, not 0"
            ),
            PositionError::OppositeCheck { king, attacker } => write!(
                f,
                "the side not to move is in check (king on {king} attacked from {attacker})"
            ),
            PositionError::TooManyCheckers(n) => {
                write!(f, "the king is attacked by {n} pieces (at most 2)")
            }
            PositionError::ImpossibleCheck { king, checkers } => {
                let from: Vec<String> = (*checkers).map(|sq| sq.to_string()).collect();
                write!(
                    f,
                    "the check of the king on {king} from {} could not have been given by any last move",
                    from.join(" and ")
                )
            }
        }
    }
}

/// Why [`Position::play`] (or [`GameState::play`](super::GameState::play)) refused a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// No piece of the side to move stands on the move's origin square.
    NoPieceToMove {
        /// The move's origin square.
        from: Square,
    },
    /// Another piece of the side to move stands on the origin square than the one the move names.
    WrongPiece {
        /// The move's origin square.
        from: Square,
        /// The role of the piece that stands there.
        found: Role,
        /// The role the move names.
        moved: Role,
    },
    /// Castling (with the king on the move's origin square and the rook on its target) is not allowed: no
    /// right to castle on that side, a piece in the way, the king in check, or a square it crosses or lands
    /// on attacked.
    CastlingNotAllowed,
    /// The piece may go from the origin to the target square, but not as the move describes it (what it
    /// captures, or what kind of move it is): `legal` is the legal move between those squares.
    Mismatch {
        /// The legal move between the same squares.
        legal: Move,
    },
    /// The piece on `from` does not move to `to`: not its way of moving, its path blocked, one of its own
    /// pieces there, or a pawn promoting off the last rank or not promoting on it.
    CannotReach {
        /// The move's origin square.
        from: Square,
        /// The move's target square.
        to: Square,
    },
    /// The piece moves that way, but its king would then be in check: the piece is pinned, a check is left
    /// unanswered, or the king steps onto an attacked square.
    LeavesKingInCheck,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NoPieceToMove { from } => {
                write!(f, "no piece of the side to move stands on {from}")
            }
            IllegalMove::WrongPiece { from, found, moved } => write!(
                f,
                "the move names a {}, but a {} stands on {from}",
                moved.name(),
                found.name()
            ),
            IllegalMove::CastlingNotAllowed => write!(f, "castling is not allowed here"),
            IllegalMove::Mismatch { legal } => write!(
                f,
                "the move from {} to {} is legal, but not as described (the legal one: {legal:?})",
                legal.from, legal.to
            ),
            IllegalMove::CannotReach { from, to } => {
                write!(f, "the piece on {from} cannot move to {to}")
            }
            IllegalMove::LeavesKingInCheck => write!(f, "the move would leave the king in check"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A legal chess position: the pieces, the side to move, castling rights, the e.p. square and the counters,
/// checked (both kings there, the side not to move not in check...), with its Zobrist hash.
///
/// Made by [`Position::new`] (the initial position), [`Position::from_setup`] or
/// [`fen::parse_fen`](super::fen::parse_fen); moves come from [`Position::legal_moves`] and are played with
/// [`Position::play`] (checked) or [`Position::play_unchecked`].
///
/// ```
/// use pgnkit::{Color, Position, Role, Square};
///
/// let pos = Position::new();
/// let moves = pos.legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert_eq!(moves.iter().filter(|m| m.role == Role::Knight).count(), 4);
/// // Play 1. e4 from the list: a checked play returns the new position, the old one is left as it was.
/// let e4 = *moves.iter().find(|m| m.from == Square::E2 && m.to == Square::E4).unwrap();
/// let after = pos.play(e4).unwrap();
/// assert_eq!((pos.turn(), after.turn()), (Color::White, Color::Black));
/// assert_eq!(after.board().piece_at(Square::E4).map(|p| p.role), Some(Role::Pawn));
/// // 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#, each move known legal: played in place, unchecked.
/// let mut pos = after;
/// for (from, to) in [("e7", "e5"), ("d1", "h5"), ("b8", "c6"), ("f1", "c4"), ("g8", "f6"), ("h5", "f7")] {
///     let (from, to): (Square, Square) = (from.parse().unwrap(), to.parse().unwrap());
///     let m = *pos.legal_moves().iter().find(|m| m.from == from && m.to == to).unwrap();
///     pos.play_unchecked(m);
/// }
/// assert!(pos.is_checkmate());
/// assert_eq!(pos.fullmoves(), 4);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    board: Board,
    turn: Color,
    castling: Bitboard,
    /// Set only when an en-passant capture is legal, so FEN output and the hash follow FIDE's "same position".
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    mode: CastlingMode,
    hash: u64,
    /// The pieces giving check to the side to move, found once after each move: validate's legality test,
    /// convert's check marks and stats' check counts all ask for it. A function of the board and the turn,
    /// so it changes no comparison.
    checkers: Bitboard,
}

/// A position's identity under FIDE's "same position" rule: see [`Position::key`]. Equal keys mean equal
/// positions (no hashing is involved); [`Position::zobrist`] is a fast hash of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    board: Board,
    turn: Color,
    castling: Bitboard,
    ep_square: Option<Square>,
}

impl PositionKey {
    /// The placement of the pieces.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Whether `pos` is this position: `pos.key() == *self`, read from `pos` in place. A key built to be
    /// compared is copied onto the stack and read back at once in words that straddle the copy's stores,
    /// which the CPU cannot forward: a wait at every look-up of an opening.
    ///
    /// ```
    /// use pgnkit::core::fen::parse_fen;
    /// let with_ep = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    /// let later = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7").unwrap();
    /// let no_castling = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b kq - 0 1").unwrap();
    /// // No black pawn can take on e3: the same position.
    /// assert!(with_ep.key().is_of(&later));
    /// assert!(!with_ep.key().is_of(&no_castling));
    /// ```
    #[inline]
    pub fn is_of(&self, pos: &Position) -> bool {
        self.board == pos.board
            && self.turn == pos.turn
            && self.castling == pos.castling
            && self.ep_square == pos.ep_square
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}{} to move", self.board, self.turn.name())
    }
}

impl Position {
    /// The initial position.
    pub fn new() -> Position {
        // Checked once: every game without a FEN tag starts here.
        static INITIAL: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        *INITIAL.get_or_init(|| {
            Position::from_setup(Setup::standard(), CastlingMode::Standard)
                .expect("the initial position is legal")
        })
    }

    /// Checks a setup, returning every problem found (not just the first).
    ///
    /// An e.p. square that is consistent but useless (no legal capture onto it) is dropped, not rejected:
    /// FIDE's "same position" ignores it.
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, Vec<PositionError>> {
        match Position::from_setup_lenient(setup, mode) {
            Ok((pos, problems)) if problems.is_empty() => Ok(pos),
            Ok((_, problems)) => Err(problems),
            Err(errors) => Err(errors),
        }
    }

    /// Like [`Position::from_setup`], but fails only on fatal problems ([`PositionError::is_fatal`]), returning
    /// the others beside the position: unreachable material or checks are accepted (move generation is sound for
    /// them, and perft suites contain them); castling rights whose king or rook is missing and e.p. squares with
    /// no pawn behind them are dropped, which changes no legal move.
    pub fn from_setup_lenient(
        setup: Setup,
        mode: CastlingMode,
    ) -> Result<(Position, Vec<PositionError>), Vec<PositionError>> {
        let mut errors = Vec::new();
        let board = setup.board;
        for color in Color::ALL {
            Self::check_material(&board, color, &mut errors);
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        for sq in board.pawns() & back_ranks {
            errors.push(PositionError::PawnOnBackRank(sq));
        }
        let castling = Self::check_castling(&board, setup.castling, mode, &mut errors);
        let ep_square = match setup.ep_square {
            Some(ep) => {
                Self::check_en_passant(&board, setup.turn, ep, setup.halfmoves, &mut errors)
            }
            None => None,
        };
        let kings_ok = (board.kings() & board.by_color(Color::White)).count() == 1
            && (board.kings() & board.by_color(Color::Black)).count() == 1;
        let mut pos = Position {
            board,
            turn: setup.turn,
            castling,
            ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            mode,
            hash: 0,
            checkers: Bitboard::EMPTY,
        };
        if kings_ok {
            pos.checkers = pos.compute_checkers();
            pos.check_checks(&mut errors);
            if let Some(ep) = pos.ep_square
                && !pos.has_legal_en_passant(ep)
            {
                pos.ep_square = None;
            }
        }
        if errors.iter().any(PositionError::is_fatal) {
            return Err(errors);
        }
        pos.hash = pos.compute_hash();
        Ok((pos, errors))
    }

    fn check_material(board: &Board, color: Color, errors: &mut Vec<PositionError>) {
        let ours = board.by_color(color);
        let kings = (board.kings() & ours).count();
        match kings {
            0 => errors.push(PositionError::MissingKing(color)),
            1 => {}
            n => errors.push(PositionError::TooManyKings(color, n)),
        }
        let pawns = (board.pawns() & ours).count();
        if pawns > 8 {
            errors.push(PositionError::TooManyPawns(color, pawns));
        }
        let pieces = ours.count();
        if pieces > 16 {
            errors.push(PositionError::TooManyPieces(color, pieces));
        }
        if pawns > 8 || pieces > 16 {
            return; // already named; the promotion count would only repeat it
        }
        let count = |bb: Bitboard| (bb & ours).count();
        let promoted = count(board.queens()).saturating_sub(1)
            + count(board.rooks()).saturating_sub(2)
            + count(board.knights()).saturating_sub(2)
            + count(board.bishops() & Bitboard::LIGHT_SQUARES).saturating_sub(1)
            + count(board.bishops() & Bitboard::DARK_SQUARES).saturating_sub(1);
        let missing_pawns = 8 - pawns;
        if promoted > missing_pawns {
            errors.push(PositionError::TooMuchMaterial {
                color,
                promoted,
                missing_pawns,
            });
        }
    }

    /// Returns the rights that can stand; reports the others.
    fn check_castling(
        board: &Board,
        castling: Bitboard,
        mode: CastlingMode,
        errors: &mut Vec<PositionError>,
    ) -> Bitboard {
        let mut valid = Bitboard::EMPTY;
        // (king file, rook file per side) of each colour whose rights stand, to compare the two colours.
        let mut files: [Option<(File, [Option<File>; 2])>; 2] = [None, None];
        for color in Color::ALL {
            let back = Bitboard::rank(color.back_rank());
            let rights = castling & back;
            let king = (board.kings() & board.by_color(color) & back).single();
            let mut sides: [Option<File>; 2] = [None, None];
            for rook_square in rights {
                let bad = |problem| PositionError::InvalidCastlingRight {
                    color,
                    rook_square,
                    problem,
                };
                if board.piece_at(rook_square) != Some(Piece::new(color, Role::Rook)) {
                    errors.push(bad(CastlingProblem::NoRook));
                    continue;
                }
                let Some(king) = king else {
                    errors.push(bad(CastlingProblem::KingNotOnBackRank));
                    continue;
                };
                if mode == CastlingMode::Standard
                    && (king.file() != File::E || !matches!(rook_square.file(), File::A | File::H))
                {
                    errors.push(bad(CastlingProblem::NotStandardSquares));
                    continue;
                }
                let side = usize::from(rook_square.file() > king.file());
                if sides[side].is_some() {
                    errors.push(bad(CastlingProblem::TwoRooksOneSide));
                    continue;
                }
                sides[side] = Some(rook_square.file());
                valid = valid.with(rook_square);
            }
            if let Some(king) = king
                && sides.iter().any(Option::is_some)
            {
                files[color.index()] = Some((king.file(), sides));
            }
        }
        // Rights must sit on a first or last rank.
        for rook_square in castling & !(Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth))
        {
            let color = board
                .piece_at(rook_square)
                .map_or(Color::White, |p| p.color);
            errors.push(PositionError::InvalidCastlingRight {
                color,
                rook_square,
                problem: CastlingProblem::NotOnBackRank,
            });
        }
        // Both colours started from mirrored squares, so if both still may castle, their kings (and rooks on the
        // same side) share files.
        if let [Some((wk, ws)), Some((bk, bs))] = files {
            let rooks_differ = ws.iter().zip(bs.iter()).any(|(w, b)| match (w, b) {
                (Some(w), Some(b)) => w != b,
                _ => false,
            });
            if wk != bk || rooks_differ {
                errors.push(PositionError::AsymmetricCastling);
            }
        }
        valid
    }

    /// Returns the e.p. square if it is consistent with a double step just made.
    fn check_en_passant(
        board: &Board,
        turn: Color,
        ep: Square,
        halfmoves: u32,
        errors: &mut Vec<PositionError>,
    ) -> Option<Square> {
        let mover = !turn; // the side that just made the double step
        let bad = |problem| PositionError::InvalidEnPassant {
            square: ep,
            problem,
        };
        if ep.rank() != turn.relative_rank(Rank::Sixth) {
            errors.push(bad(EnPassantProblem::WrongRank));
            return None;
        }
        let forward: i8 = if mover == Color::White { 1 } else { -1 };
        // Rank 3/6 squares always have neighbours above and below; None cannot happen but is handled anyway.
        let (Some(pawn_square), Some(origin)) = (ep.offset(0, forward), ep.offset(0, -forward))
        else {
            errors.push(bad(EnPassantProblem::WrongRank));
            return None;
        };
        if board.piece_at(pawn_square) != Some(Piece::new(mover, Role::Pawn)) {
            errors.push(bad(EnPassantProblem::NoPawn));
            return None;
        }
        if board.occupied().contains(ep) || board.occupied().contains(origin) {
            errors.push(bad(EnPassantProblem::SquaresOccupied));
            return None;
        }
        if halfmoves != 0 {
            errors.push(PositionError::EnPassantWithHalfmoves {
                square: ep,
                halfmoves,
            });
        }
        Some(ep)
    }

    /// Checks on either king: the side not to move must not be in check, and the side to move's checkers must
    /// be explainable by one last move.
    fn check_checks(&self, errors: &mut Vec<PositionError>) {
        let board = &self.board;
        let them = !self.turn;
        let their_king = self.king(them);
        let attackers = self.attackers_to(their_king, self.turn, board.occupied());
        if let Some(attacker) = attackers.first() {
            errors.push(PositionError::OppositeCheck {
                king: their_king,
                attacker,
            });
        }
        let checkers = self.checkers();
        let king = self.our_king();
        let impossible = PositionError::ImpossibleCheck { king, checkers };
        if checkers.count() > 2 {
            errors.push(PositionError::TooManyCheckers(checkers.count()));
            return;
        }
        if let (Some(a), Some(b)) = (checkers.first(), checkers.last())
            && a != b
        {
            // In a double check one checker moved and the other, a slider, was uncovered: two checkers on one
            // line through the king, or two that are not sliders, cannot come from one move.
            let leapers = board.pawns() | board.knights() | board.kings();
            if attacks::aligned(king, a, b) || (leapers.contains(a) && leapers.contains(b)) {
                errors.push(impossible);
                return;
            }
        }
        // After a double step, each checker is the pawn itself or a slider uncovered through its origin square.
        if let Some(ep) = self.ep_square {
            let forward: i8 = if them == Color::White { 1 } else { -1 };
            if let (Some(pawn), Some(origin)) = (ep.offset(0, forward), ep.offset(0, -forward)) {
                let explained = checkers
                    .into_iter()
                    .all(|c| c == pawn || attacks::between(king, c).contains(origin));
                if !explained {
                    errors.push(impossible);
                }
            }
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut h = zobrist::side_key(self.turn);
        for (sq, piece) in self.board.iter() {
            h ^= zobrist::piece_key(piece, sq);
        }
        for rook in self.castling {
            h ^= zobrist::castling_key(rook);
        }
        if let Some(ep) = self.ep_square {
            h ^= zobrist::en_passant_key(ep);
        }
        h
    }

    // ---- accessors ----

    /// Where the pieces stand.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Squares of the rooks that may still castle.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The e.p. square, present only when an en-passant capture is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The number of the move about to be played, from 1 (one per Black move).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether castling follows standard chess or Chess960 (which decides how castling is written).
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The same position in a Chess960 game: castling rights that read as standard chess (`KQkq`, king on
    /// the e-file, rooks in the corners) are Chess960 rights there, which changes no legal move but how
    /// castling is written (UCI king takes rook, X-FEN letters). A FEN cannot say which game it is from; the
    /// caller knows (a PGN `Variant` tag).
    #[inline]
    pub fn into_chess960(mut self) -> Position {
        self.mode = CastlingMode::Chess960;
        self
    }

    /// Zobrist hash over FIDE's "same position" (9.2.2): placement, side to move, castling rights and the e.p.
    /// square only when a capture onto it is legal. Maintained incrementally by [`Position::play_unchecked`].
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// Recomputes the hash from scratch; equals [`Position::zobrist`] (used by tests).
    pub fn zobrist_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    /// What makes two positions "the same" for FIDE (Article 9.2.2), as a value to compare, store or hash:
    /// placement, side to move, castling rights and the e.p. square only when a capture onto it is legal.
    /// The move counters and the castling notation (standard or Chess960) are left out.
    ///
    /// ```
    /// use pgnkit::core::fen::parse_fen;
    ///
    /// // After 1. e4 no black pawn can take on e3: the e.p. square in the FEN does not count.
    /// let with_ep = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    /// let without = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7").unwrap();
    /// assert_eq!(with_ep.key(), without.key());
    /// // Castling rights do.
    /// let no_castling = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b kq - 0 1").unwrap();
    /// assert_ne!(with_ep.key(), no_castling.key());
    /// ```
    #[inline]
    pub fn key(&self) -> PositionKey {
        PositionKey {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
        }
    }

    /// Back to a setup (for FEN output and editing).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The side to move's king.
    #[inline]
    pub fn our_king(&self) -> Square {
        self.king(self.turn)
    }

    /// The king of `color` (a checked position has exactly one per side).
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.board.king_of(color).unwrap_or(Square::A1)
    }

    /// Pieces of `attacker` that attack `sq`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        ((attacks::knight_attacks(sq) & b.knights())
            | (attacks::king_attacks(sq) & b.kings())
            | (attacks::pawn_attacks(!attacker, sq) & b.pawns())
            | (attacks::rook_attacks(sq, occupied) & b.straight_sliders())
            | (attacks::bishop_attacks(sq, occupied) & b.diagonal_sliders()))
            & b.by_color(attacker)
    }

    /// Enemy pieces giving check to the side to move (kept with the position: no computation).
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    fn compute_checkers(&self) -> Bitboard {
        self.attackers_to(self.our_king(), !self.turn, self.board.occupied())
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().non_empty()
    }

    /// Our pieces that shield our king from an enemy slider, each the only piece on that line.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned_for(self.turn)
    }

    /// Pieces of `color` pinned to their own king.
    pub fn pinned_for(&self, color: Color) -> Bitboard {
        let b = &self.board;
        let king = self.king(color);
        let theirs = b.by_color(!color);
        let snipers = ((attacks::rook_attacks(king, theirs) & b.straight_sliders())
            | (attacks::bishop_attacks(king, theirs) & b.diagonal_sliders()))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & b.occupied();
            if !blockers.more_than_one() {
                pinned |= blockers & b.by_color(color);
            }
        }
        pinned
    }

    /// The enemy slider that pins the piece on `sq` to its king, if any.
    pub fn pinner_of(&self, sq: Square) -> Option<Square> {
        let piece = self.board.piece_at(sq)?;
        let king = self.king(piece.color);
        let b = &self.board;
        let theirs = b.by_color(!piece.color);
        let snipers = ((attacks::rook_attacks(king, theirs) & b.straight_sliders())
            | (attacks::bishop_attacks(king, theirs) & b.diagonal_sliders()))
            & theirs;
        snipers.into_iter().find(|&sniper| {
            let blockers = attacks::between(king, sniper) & b.occupied();
            blockers == Bitboard::from_square(sq)
        })
    }

    /// Whether the side to move may capture en passant from `from` onto `ep` without leaving its king in check.
    pub(crate) fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.turn;
        let b = &self.board;
        let king = self.our_king();
        let captured = Square::from_coords(ep.file(), from.rank());
        let occupied =
            (b.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
                | Bitboard::from_square(ep);
        let theirs = b.by_color(!us) & !Bitboard::from_square(captured);
        let sliders = (attacks::rook_attacks(king, occupied) & b.straight_sliders())
            | (attacks::bishop_attacks(king, occupied) & b.diagonal_sliders());
        let leapers = (attacks::knight_attacks(king) & b.knights())
            | (attacks::pawn_attacks(us, king) & b.pawns());
        ((sliders | leapers) & theirs).is_empty()
    }

    fn has_legal_en_passant(&self, ep: Square) -> bool {
        let capturers = attacks::pawn_attacks(!self.turn, ep)
            & self.board.pawns()
            & self.board.by_color(self.turn);
        capturers
            .into_iter()
            .any(|from| self.en_passant_is_legal(from, ep))
    }

    // ---- making moves ----

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board.put_on_empty(sq, piece);
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board.take(sq)?;
        self.hash ^= zobrist::piece_key(piece, sq);
        Some(piece)
    }

    #[inline]
    fn set_castling(&mut self, rights: Bitboard) {
        for changed in self.castling ^ rights {
            self.hash ^= zobrist::castling_key(changed);
        }
        self.castling = rights;
    }

    /// Plays a move that must be legal in this position (as returned by move generation or SAN resolution).
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant_key(ep);
        }
        self.halfmoves = if m.is_zeroing() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        let mut rights = self.castling;
        match m.kind {
            MoveKind::Castle => {
                let castling = Castling::new(m.from, m.to);
                let king = self.take(castling.king());
                let rook = self.take(castling.rook());
                if let (Some(king), Some(rook)) = (king, rook) {
                    self.put(castling.king_to(), king);
                    self.put(castling.rook_to(), rook);
                }
                rights &= !Bitboard::rank(us.back_rank());
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(m.to.file(), m.from.rank());
                self.take(captured);
                if let Some(pawn) = self.take(m.from) {
                    self.put(m.to, pawn);
                }
            }
            MoveKind::Normal | MoveKind::DoublePush => {
                // The move says what moves and what it takes: no need to read the board for them.
                if let Some(role) = m.capture {
                    let captured = Piece::new(!us, role);
                    self.board.remove(captured, m.to);
                    self.hash ^= zobrist::piece_key(captured, m.to);
                }
                let piece = Piece::new(us, m.role);
                match m.promotion {
                    None => {
                        self.board.shift(piece, m.from, m.to);
                        self.hash ^=
                            zobrist::piece_key(piece, m.from) ^ zobrist::piece_key(piece, m.to);
                    }
                    Some(role) => {
                        self.board.remove(piece, m.from);
                        self.hash ^= zobrist::piece_key(piece, m.from);
                        self.put(m.to, Piece::new(us, role));
                    }
                }
                if m.role == Role::King {
                    rights &= !Bitboard::rank(us.back_rank());
                }
                rights &= !(Bitboard::from_square(m.from) | Bitboard::from_square(m.to));
            }
        }
        if rights != self.castling {
            self.set_castling(rights);
        }
        self.turn = !us;
        self.hash ^= zobrist::side_key(Color::Black);
        if m.kind == MoveKind::DoublePush {
            let ep = Square::from_coords(
                m.from.file(),
                if us == Color::White {
                    Rank::Third
                } else {
                    Rank::Sixth
                },
            );
            if self.has_legal_en_passant(ep) {
                self.ep_square = Some(ep);
                self.hash ^= zobrist::en_passant_key(ep);
            }
        }
        // Looked up in full: a test of the moved piece and of the line it left costs fewer instructions but
        // more time (its branches on the piece and the lines mispredict; docs/performance.md, "Tuning
        // constants").
        self.checkers = self.compute_checkers();
    }

    /// The position after `m`, if `m` is one of the legal moves here (as [`Position::legal_moves`] lists it:
    /// the same squares, role, capture, promotion and kind); else why it is not.
    ///
    /// The check generates the legal moves; a move known to be legal (from move generation or SAN
    /// resolution) is played faster by [`Position::play_unchecked`] or [`Position::after_unchecked`].
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        self.legality(&m)?;
        Ok(self.after_unchecked(m))
    }

    /// The position after `m`, which must be legal here (as [`Position::play_unchecked`], on a copy).
    #[inline]
    pub fn after_unchecked(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// `Ok` if `m` is one of the legal moves here, else the reason it is not.
    pub(crate) fn legality(&self, m: &Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            return Ok(());
        }
        Err(self.why_illegal(m))
    }

    /// Why `m`, which is not among the legal moves, is illegal.
    #[cold]
    fn why_illegal(&self, m: &Move) -> IllegalMove {
        let us = self.turn;
        let b = &self.board;
        let Some(piece) = b.piece_at(m.from).filter(|p| p.color == us) else {
            return IllegalMove::NoPieceToMove { from: m.from };
        };
        if piece.role != m.role {
            return IllegalMove::WrongPiece {
                from: m.from,
                found: piece.role,
                moved: m.role,
            };
        }
        let legal = self.legal_moves();
        if let Some(legal) = legal
            .iter()
            .find(|l| l.from == m.from && l.to == m.to && l.promotion == m.promotion)
        {
            return IllegalMove::Mismatch { legal: *legal };
        }
        if m.kind == MoveKind::Castle {
            return IllegalMove::CastlingNotAllowed;
        }
        if self.moves_so_on_this_board(m) {
            IllegalMove::LeavesKingInCheck
        } else {
            IllegalMove::CannotReach {
                from: m.from,
                to: m.to,
            }
        }
    }

    /// Whether the piece on `m.from` could make `m` if its own king's safety did not count: the piece moves
    /// that way, its path is clear, the target does not hold one of its own pieces, and a pawn promotes exactly
    /// when it reaches the last rank.
    fn moves_so_on_this_board(&self, m: &Move) -> bool {
        let us = self.turn;
        let b = &self.board;
        let occupied = b.occupied();
        if b.by_color(us).contains(m.to) {
            return false;
        }
        let reaches = match m.role {
            Role::Pawn => {
                let last = m.to.rank() == us.relative_rank(Rank::Eighth);
                let promotes_right = match m.promotion {
                    None => !last,
                    Some(role) => last && !matches!(role, Role::Pawn | Role::King),
                };
                let forward: i8 = if us == Color::White { 1 } else { -1 };
                let one = m.from.offset(0, forward);
                let push = one == Some(m.to) && !occupied.contains(m.to);
                let double = m.from.rank() == us.relative_rank(Rank::Second)
                    && one.is_some_and(|one| !occupied.contains(one))
                    && one.and_then(|one| one.offset(0, forward)) == Some(m.to)
                    && !occupied.contains(m.to);
                let capture = attacks::pawn_attacks(us, m.from).contains(m.to)
                    && (b.by_color(!us).contains(m.to) || self.ep_square == Some(m.to));
                promotes_right && (push || double || capture)
            }
            Role::Knight => attacks::knight_attacks(m.from).contains(m.to),
            Role::Bishop => attacks::bishop_attacks(m.from, occupied).contains(m.to),
            Role::Rook => attacks::rook_attacks(m.from, occupied).contains(m.to),
            Role::Queen => attacks::queen_attacks(m.from, occupied).contains(m.to),
            Role::King => attacks::king_attacks(m.from).contains(m.to),
        };
        reaches && (m.role == Role::Pawn || m.promotion.is_none())
    }

    /// Passes the turn without moving (a PGN null move `--`). Only sensible when not in check.
    pub fn play_null(&mut self) {
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant_key(ep);
        }
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::side_key(Color::Black);
        self.checkers = self.compute_checkers();
    }

    // ---- game state ----

    /// Whether the side to move is checkmated: in check, without a legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated: not in check, without a legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Whether the side to move has a legal move (cheaper than generating them all).
    pub fn has_legal_move(&self) -> bool {
        // A king step is the usual answer, found without generating every move (this runs after each check
        // to tell check from mate); the generator decides only when the king cannot move.
        let us = self.turn;
        let king = self.our_king();
        let without_king = self.board.occupied().without(king);
        for to in attacks::king_attacks(king) & !self.board.by_color(us) {
            if self.attackers_to(to, !us, without_king).is_empty() {
                return true;
            }
        }
        !self.legal_moves().is_empty()
    }

    /// Neither side can mate by any series of legal moves, by the usual static test: K v K, K+minor v K,
    /// and bishops all on squares of one colour with no knights or pawns (FIDE 5.2.2 "dead position";
    /// fortresses are not detected).
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// `color` cannot possibly mate, whatever the opponent plays (FIDE 6.9): a bare king; king and one knight
    /// against a king with at most queens (which cannot block their own king); bishops all on one square colour
    /// when the opponent has no pawn, knight or bishop of the other colour.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        if (ours & (b.pawns() | b.rooks() | b.queens())).non_empty() {
            return false;
        }
        if (ours & b.knights()).non_empty() {
            let theirs = b.by_color(!color);
            return ours.count() <= 2 && (theirs & !b.kings() & !b.queens()).is_empty();
        }
        if (ours & b.bishops()).non_empty() {
            let bishops = b.bishops();
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour && (b.pawns() | b.knights()).is_empty();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_checkers_equal_a_fresh_look_after_every_move() {
        use crate::core::random_games::random_games;
        let (mut checks, mut double) = (0, 0);
        random_games(60, 200, 25, |step, after| {
            let fresh =
                after.attackers_to(after.our_king(), !after.turn(), after.board().occupied());
            assert_eq!(
                after.checkers(),
                fresh,
                "{:?} after {:?} in {}",
                after,
                step.played,
                crate::core::fen::to_fen(&step.before)
            );
            checks += usize::from(fresh.non_empty());
            double += usize::from(fresh.more_than_one());
        });
        assert!(checks > 1000 && double > 5, "{checks} {double}");
    }

    #[test]
    fn initial_position() {
        let pos = Position::new();
        assert_eq!(pos.turn(), Color::White);
        assert_eq!(pos.castling_rights().count(), 4);
        assert!(!pos.is_check());
        assert_eq!(pos.zobrist(), pos.zobrist_from_scratch());
    }

    #[test]
    fn checked_play_says_why_a_move_is_illegal() {
        use crate::core::fen::parse_fen;
        let mv = |from: Square, to: Square, role: Role| Move {
            from,
            to,
            role,
            capture: None,
            promotion: None,
            kind: MoveKind::Normal,
        };
        let start = Position::new();
        let e4 = Move {
            kind: MoveKind::DoublePush,
            ..mv(Square::E2, Square::E4, Role::Pawn)
        };
        let after = start.play(e4).unwrap();
        assert_eq!(after, start.after_unchecked(e4));
        assert_eq!(
            start.play(mv(Square::E4, Square::E5, Role::Pawn)),
            Err(IllegalMove::NoPieceToMove { from: Square::E4 })
        );
        assert_eq!(
            start.play(mv(Square::G1, Square::F3, Role::Bishop)),
            Err(IllegalMove::WrongPiece {
                from: Square::G1,
                found: Role::Knight,
                moved: Role::Bishop
            })
        );
        // The double step described as an ordinary move.
        assert_eq!(
            start.play(mv(Square::E2, Square::E4, Role::Pawn)),
            Err(IllegalMove::Mismatch { legal: e4 })
        );
        assert_eq!(
            start.play(mv(Square::F1, Square::C4, Role::Bishop)),
            Err(IllegalMove::CannotReach {
                from: Square::F1,
                to: Square::C4
            })
        );
        // The knight on d2 is pinned by the bishop on b4.
        let pinned = parse_fen("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1").unwrap();
        let err = pinned
            .play(mv(Square::D2, Square::F3, Role::Knight))
            .unwrap_err();
        assert_eq!(err, IllegalMove::LeavesKingInCheck);
        assert_eq!(err.to_string(), "the move would leave the king in check");
        let castle = Move {
            kind: MoveKind::Castle,
            ..mv(Square::E1, Square::H1, Role::King)
        };
        assert_eq!(start.play(castle), Err(IllegalMove::CastlingNotAllowed));
    }

    #[test]
    fn setup_problems_are_all_reported() {
        let mut setup = Setup::standard();
        setup.board.take(Square::E1);
        setup.board.take(Square::A1);
        let pawn = Piece::new(Color::White, Role::Pawn);
        setup.board.put(Square::A1, pawn);
        let errors = Position::from_setup(setup, CastlingMode::Standard).unwrap_err();
        assert!(errors.contains(&PositionError::MissingKing(Color::White)));
        assert!(errors.contains(&PositionError::PawnOnBackRank(Square::A1)));
        assert!(
            errors
                .iter()
                .any(|e| matches!(e, PositionError::InvalidCastlingRight { .. }))
        );
    }
}
