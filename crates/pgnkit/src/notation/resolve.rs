//! Resolving a [`San`] against a position: the one legal move it denotes, or why there is none (a reason a club
//! player understands) or which pieces could all go.
//!
//! The legal path never generates the move list: it takes the pieces of the named role that reach the target
//! (attack tables with the current occupancy), tests each one's legality directly (is our king attacked once
//! the piece has moved? — that one test covers pins, check evasions and king safety), and only when that finds
//! nothing runs the slower code that explains why. Writing SAN uses the same candidate test, so disambiguation
//! is by legal moves only: a pinned knight does not force `Nbd2`.

use std::fmt;

use super::san::{CastlingSide, Leniencies, Leniency, San, SanPlus};
use crate::core::attacks;
use crate::core::{
    Bitboard, Castling, CastlingMode, CastlingObstacle, Color, File, Move, MoveKind, Piece,
    Position, Rank, Role, Square,
};

/// A piece on a square, as messages name it ("the bishop on c4").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceAt {
    /// What the piece is.
    pub role: Role,
    /// Where it stands.
    pub square: Square,
}

impl PieceAt {
    fn on(pos: &Position, square: Square) -> PieceAt {
        PieceAt {
            role: pos.board().role_at(square).unwrap_or(Role::Pawn),
            square,
        }
    }
}

impl fmt::Display for PieceAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} on {}", self.role.name(), self.square)
    }
}

/// A piece whose way to the target is blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Blocked {
    /// The piece that would reach the target.
    pub piece: PieceAt,
    /// The first piece in its way.
    pub blocker: PieceAt,
}

/// Why castling is not allowed (FIDE 3.8.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingError {
    /// The king is not on its original square.
    KingMoved,
    /// The right for this side is lost while the king kept another (so this rook moved), or the rook is gone.
    RookMoved {
        /// The square of the rook this castling uses: the corner in standard chess; in Chess960 the outermost
        /// rook on that side of the king, if there is one.
        rook: Option<Square>,
    },
    /// Both rights are lost with king and rook at home: one of them moved and came back.
    RightsLost {
        /// The square of the rook this castling uses: the corner in standard chess; in Chess960 the outermost
        /// rook on that side of the king, if there is one.
        rook: Option<Square>,
    },
    /// A square between king and rook, or where either lands, is occupied.
    Occupied {
        /// The first such square.
        square: Square,
    },
    /// The king is in check: castling is no way out of it.
    InCheck {
        /// A piece giving check.
        checker: PieceAt,
    },
    /// The king would cross a square an enemy piece attacks.
    PassesThroughAttack {
        /// The attacked square.
        square: Square,
        /// A piece attacking it.
        attacker: PieceAt,
    },
    /// The king would land on a square an enemy piece attacks.
    LandsInCheck {
        /// Where the king lands.
        square: Square,
        /// A piece attacking it.
        attacker: PieceAt,
    },
}

/// Why a SAN move is illegal in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IllegalReason {
    /// No piece of that role (matching the written file/rank) attacks or reaches the target.
    NoPieceCanReach {
        /// The role written.
        role: Role,
        /// The target square.
        to: Square,
        /// The file written to tell pieces apart, if any.
        file: Option<File>,
        /// The rank written to tell pieces apart, if any.
        rank: Option<Rank>,
        /// A piece that would reach it but for a blocker.
        blocked: Option<Blocked>,
    },
    /// The target holds a piece of the side to move.
    OwnPieceOnTarget {
        /// The target square.
        to: Square,
        /// The piece standing there.
        piece: Piece,
    },
    /// The piece may not leave the line between its king and an enemy slider.
    Pinned {
        /// The pinned piece.
        piece: PieceAt,
        /// Where its king stands.
        king: Square,
        /// The enemy slider pinning it.
        pinner: PieceAt,
    },
    /// The king would move onto an attacked square.
    KingIntoCheck {
        /// The square the king would move to.
        to: Square,
        /// A piece attacking it.
        attacker: PieceAt,
    },
    /// The side to move is in check and the move neither captures the checker nor blocks it.
    IgnoresCheck {
        /// A piece giving check.
        checker: PieceAt,
        /// The other one, in a double check.
        second: Option<PieceAt>,
    },
    /// The move uncovers an attack on its own king otherwise (the en-passant pin along a rank).
    ExposesKing {
        /// The enemy piece that would attack the king.
        attacker: PieceAt,
    },
    /// Castling is not allowed now.
    Castling {
        /// Which castling was written.
        side: CastlingSide,
        /// Why not.
        reason: CastlingError,
    },
    /// No pawn (from the written file/rank) attacks the target.
    PawnCannotCapture {
        /// The target square.
        to: Square,
        /// The pawn's file as written, if any.
        file: Option<File>,
        /// The pawn's rank as written, if any.
        rank: Option<Rank>,
    },
    /// A pawn capture onto an empty square that is not a legal en-passant target. `en_passant_exposes` names
    /// the piece an en-passant capture there would expose the king to, when it would.
    NothingToCapture {
        /// The target square.
        to: Square,
        /// The piece an en-passant capture on `to` would expose the king to, when it would.
        en_passant_exposes: Option<PieceAt>,
    },
    /// A pawn reaches the last rank without a promotion piece.
    MustPromote {
        /// The square it reaches.
        to: Square,
    },
    /// A promotion piece written for a pawn move that does not reach the last rank.
    PromotionNotOnLastRank {
        /// The square the pawn reaches.
        to: Square,
    },
    /// A promotion attached to a piece other than a pawn.
    NotAPawn {
        /// The role written.
        role: Role,
    },
    /// `--` / `Z0` is a pass, not a move.
    NullMove,
}

/// Why a SAN move does not denote exactly one legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SanError {
    /// No legal move matches.
    Illegal(IllegalReason),
    /// Several pieces of `role` could legally go to `to`: their squares.
    Ambiguous {
        /// The role written.
        role: Role,
        /// The target square.
        to: Square,
        /// The squares of the pieces that could all go.
        from: Bitboard,
    },
}

impl From<IllegalReason> for SanError {
    fn from(r: IllegalReason) -> SanError {
        SanError::Illegal(r)
    }
}

fn write_origin(f: &mut fmt::Formatter<'_>, file: Option<File>, rank: Option<Rank>) -> fmt::Result {
    match (file, rank) {
        (Some(file), Some(rank)) => write!(f, " from {}", Square::from_coords(file, rank)),
        (Some(file), None) => write!(f, " from the {}-file", file.char()),
        (None, Some(rank)) => write!(f, " from rank {}", rank.char()),
        (None, None) => Ok(()),
    }
}

impl fmt::Display for CastlingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CastlingError::KingMoved => write!(f, "the king has moved"),
            CastlingError::RookMoved { rook: Some(sq) } => {
                write!(f, "the rook on {sq} has moved or gone")
            }
            CastlingError::RookMoved { rook: None } => write!(f, "that rook has moved or gone"),
            CastlingError::RightsLost { rook: Some(sq) } => {
                write!(f, "the king or the rook on {sq} has moved")
            }
            CastlingError::RightsLost { rook: None } => {
                write!(f, "the king or that rook has moved")
            }
            CastlingError::Occupied { square } => write!(f, "{square} is occupied"),
            CastlingError::InCheck { checker } => write!(f, "the king is in check from {checker}"),
            CastlingError::PassesThroughAttack { square, attacker } => {
                write!(
                    f,
                    "the king passes through {square}, attacked by {attacker}"
                )
            }
            CastlingError::LandsInCheck { square, attacker } => {
                write!(
                    f,
                    "the king would land in check on {square}, attacked by {attacker}"
                )
            }
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalReason::NoPieceCanReach {
                role,
                to,
                file,
                rank,
                blocked,
            } => {
                write!(f, "no {} can reach {to}", role.name())?;
                write_origin(f, file, rank)?;
                if let Some(Blocked { piece, blocker }) = blocked {
                    write!(f, " ({piece} is blocked by {blocker})")?;
                }
                Ok(())
            }
            IllegalReason::OwnPieceOnTarget { to, piece } => write!(
                f,
                "illegal: {to} is occupied by {}'s own {}",
                piece.color.name(),
                piece.role.name()
            ),
            IllegalReason::Pinned {
                piece,
                king,
                pinner,
            } => write!(
                f,
                "illegal: {piece} is pinned to the king on {king} by {pinner}"
            ),
            IllegalReason::KingIntoCheck { attacker, .. } => {
                write!(f, "illegal: the king would stand in check from {attacker}")
            }
            IllegalReason::IgnoresCheck {
                checker,
                second: None,
            } => write!(
                f,
                "illegal: the king is in check from {checker} and this move does not answer it"
            ),
            IllegalReason::IgnoresCheck {
                checker,
                second: Some(second),
            } => write!(
                f,
                "illegal: the king is in double check from {checker} and {second}, and only a king move \
                 answers it"
            ),
            IllegalReason::ExposesKing { attacker } => {
                write!(f, "illegal: the move would expose the king to {attacker}")
            }
            IllegalReason::Castling { reason, .. } => write!(f, "castling not allowed: {reason}"),
            IllegalReason::PawnCannotCapture { to, file, rank } => {
                write!(f, "no pawn can capture on {to}")?;
                write_origin(f, file, rank)
            }
            IllegalReason::NothingToCapture {
                to,
                en_passant_exposes,
            } => {
                write!(f, "there is no piece to capture on {to}")?;
                if let Some(attacker) = en_passant_exposes {
                    write!(
                        f,
                        " (and capturing en passant there would expose the king to {attacker})"
                    )?;
                }
                Ok(())
            }
            IllegalReason::MustPromote { .. } => {
                write!(f, "a pawn reaching the last rank must promote")
            }
            IllegalReason::PromotionNotOnLastRank { .. } => {
                write!(f, "promotion is only possible on the last rank")
            }
            IllegalReason::NotAPawn { role } => {
                write!(f, "only a pawn can promote, not a {}", role.name())
            }
            IllegalReason::NullMove => {
                write!(f, "a null move (--) passes the turn; it is no chess move")
            }
        }
    }
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SanError::Illegal(reason) => reason.fmt(f),
            SanError::Ambiguous { role, to, from } => {
                write!(f, "ambiguous: the {} on ", role.plural())?;
                let n = from.count();
                for (i, sq) in from.enumerate() {
                    let sep = match i {
                        0 => "",
                        _ if i + 1 == n as usize => " and ",
                        _ => ", ",
                    };
                    write!(f, "{sep}{sq}")?;
                }
                let all = if n == 2 { "both" } else { "all" };
                write!(f, " can {all} go to {to}")
            }
        }
    }
}

impl std::error::Error for SanError {}

/// A resolved move and the leniencies the resolution needed (capture marks, disambiguation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// Where the SAN departed from the strict syntax and still denoted this move.
    pub leniencies: Leniencies,
    /// The SAN as written (check mark aside) is the canonical SAN of the move, the one
    /// [`San::from_move`] gives: no leniency, and exactly the disambiguation SAN needs (a rank written where
    /// the file would do is no leniency, but it is not canonical either). Writers copy such a move instead
    /// of spelling it again.
    pub canonical: bool,
}

impl San {
    /// The legal move this SAN denotes in `pos`.
    #[inline]
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        self.resolve(pos).map(|r| r.mv)
    }

    /// The legal move this SAN denotes in `pos`, with the leniencies found on the way.
    #[inline(always)]
    pub fn resolve(&self, pos: &Position) -> Result<Resolved, SanError> {
        match *self {
            San::Normal {
                role: Role::Pawn,
                file,
                rank,
                capture,
                to,
                promotion,
            } => resolve_pawn(pos, file, rank, capture, to, promotion),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if promotion.is_some() {
                    return Err(IllegalReason::NotAPawn { role }.into());
                }
                resolve_piece(pos, role, file, rank, capture, to)
            }
            San::Castle(side) => resolve_castle(pos, side).map(|mv| Resolved {
                mv,
                leniencies: Leniencies::NONE,
                canonical: true,
            }),
            San::Null => Err(IllegalReason::NullMove.into()),
        }
    }

    /// Minimal SAN for a legal move: the file if it tells the movers apart, else the rank, else both, counting
    /// only pieces that could legally go there; pawn captures always name their file.
    pub fn from_move(pos: &Position, m: &Move) -> San {
        if let Some(castling) = m.castling() {
            return San::Castle(castling.side());
        }
        let (file, rank) = if m.role == Role::Pawn {
            (m.is_capture().then(|| m.from.file()), None)
        } else {
            let b = pos.board();
            let others = pos.attackers_to(m.to, pos.turn(), b.occupied()) & b.by_role(m.role);
            let others = others
                .without(m.from)
                .filter(|&from| piece_move_is_legal(pos, m.role, from, m.to))
                .collect();
            let (file, rank) = needed_hints(m.from, others);
            (file.then(|| m.from.file()), rank.then(|| m.from.rank()))
        };
        San::Normal {
            role: m.role,
            file,
            rank,
            capture: m.is_capture(),
            to: m.to,
            promotion: m.promotion,
        }
    }
}

impl SanPlus {
    /// The legal move this token denotes, with every leniency of its syntax and resolution (the check mark is
    /// judged separately by [`SanPlus::mark_leniencies`], which needs the position after the move).
    #[inline(always)]
    pub fn resolve(&self, pos: &Position) -> Result<Resolved, SanError> {
        if self.leniencies.intersects(ORIGIN_IN_FULL) {
            return self.resolve_origin_in_full(pos);
        }
        self.resolve_as(&self.san, pos)
    }

    /// [`SanPlus::resolve`] for a token that writes its origin square in full (coordinates, long algebraic),
    /// where the piece standing there may be another than the letters say. Out of line: the common path must
    /// stay small enough to be inlined where every move is read, and free of a second `Result` to merge.
    #[cold]
    #[inline(never)]
    fn resolve_origin_in_full(&self, pos: &Position) -> Result<Resolved, SanError> {
        if self.leniencies.contains(Leniency::CoordinateMove) {
            return self.resolve_as(&coordinate_reading(&self.san, pos, false), pos);
        }
        match self.resolve_as(&self.san, pos) {
            Ok(resolved) => Ok(resolved),
            Err(error) => self.resolve_long_coordinates(pos, error),
        }
    }

    /// A long algebraic token that failed as written: when it names an origin square in full with a separator
    /// and no piece letter (`g1-f3`, `e1-g1`, `f3xe5`), it was read as a pawn's move, which fails when a piece
    /// stands there; the piece on the origin square moves instead, as for coordinates (`g1f3`), with the
    /// capture mark as written judged against the board. Any other failure stands (`error`).
    fn resolve_long_coordinates(
        &self,
        pos: &Position,
        error: SanError,
    ) -> Result<Resolved, SanError> {
        let San::Normal {
            role: Role::Pawn,
            file: Some(_),
            rank: Some(_),
            capture,
            ..
        } = self.san
        else {
            return Err(error);
        };
        if self.leniencies.contains(Leniency::PawnLetter) {
            return Err(error);
        }
        let reading = coordinate_reading(&self.san, pos, true);
        if reading == self.san {
            // No piece of ours but a pawn on the origin square: the pawn's reason stands.
            return Err(error);
        }
        let resolved = reading.resolve(pos)?;
        let mut leniencies =
            resolved.leniencies | self.leniencies | Leniency::CoordinateMove.into();
        if let San::Castle(_) = reading {
            // Castling in coordinates is noted as such, with or without the hyphen (`e1g1`, `e1-g1`): no
            // origin square is written in full where SAN needs less. An `x` claims a capture that castling
            // never makes.
            leniencies = leniencies.without(Leniency::LongAlgebraic);
            if capture {
                leniencies.insert(Leniency::SpuriousCapture);
            }
        }
        Ok(Resolved {
            mv: resolved.mv,
            leniencies,
            canonical: false,
        })
    }

    #[inline(always)]
    fn resolve_as(&self, san: &San, pos: &Position) -> Result<Resolved, SanError> {
        san.resolve(pos).map(|r| Resolved {
            mv: r.mv,
            leniencies: r.leniencies | self.leniencies,
            canonical: r.canonical && self.leniencies.is_empty(),
        })
    }

    /// The legal move this SAN denotes in `pos` (the check mark is not checked).
    #[inline]
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        self.san.to_move(pos)
    }
}

/// Leniencies of a token whose origin square is written in full: [`SanPlus::resolve`] reads them out of line.
const ORIGIN_IN_FULL: Leniencies = Leniencies::NONE
    .with(Leniency::CoordinateMove)
    .with(Leniency::LongAlgebraic);

/// A move in coordinates (`g1f3`, `e1g1`) read as UCI does: the piece on the origin square moves, and a king
/// moving two files along its rank, or onto its own castling rook, castles. Without a piece of ours on the
/// origin square, or with a pawn there, the pawn reading stands (and explains the failure, if any). A piece
/// move captures what stands on the target, unless `written_capture` keeps the mark as written (`g1-f3`,
/// `f3xe5`: a separator says whether the writer meant a capture, and resolution judges it).
fn coordinate_reading(san: &San, pos: &Position, written_capture: bool) -> San {
    let San::Normal {
        role: Role::Pawn,
        file: Some(file),
        rank: Some(rank),
        capture,
        to,
        promotion,
    } = *san
    else {
        return *san;
    };
    let from = Square::from_coords(file, rank);
    let us = pos.turn();
    let Some(piece) = pos.board().piece_at(from).filter(|p| p.color == us) else {
        return *san;
    };
    if piece.role == Role::Pawn {
        return *san;
    }
    if piece.role == Role::King && promotion.is_none() {
        let along_rank = from.rank() == to.rank();
        // Standard chess writes castling as the king's two-file step; Chess960 only as king takes rook.
        let two_files = along_rank
            && pos.castling_mode() == CastlingMode::Standard
            && from.file().index().abs_diff(to.file().index()) == 2;
        if two_files || (along_rank && pos.castling_rights().contains(to)) {
            return San::Castle(CastlingSide::of(from, to));
        }
    }
    San::Normal {
        role: piece.role,
        file: Some(file),
        rank: Some(rank),
        capture: if written_capture {
            capture
        } else {
            pos.board().by_color(!us).contains(to)
        },
        to,
        promotion,
    }
}

#[inline]
fn hint_mask(file: Option<File>, rank: Option<Rank>) -> Bitboard {
    let mut mask = Bitboard::FULL;
    if let Some(file) = file {
        mask &= Bitboard::file(file);
    }
    if let Some(rank) = rank {
        mask &= Bitboard::rank(rank);
    }
    mask
}

/// Which of file and rank SAN needs to tell `from` apart from `others`.
#[inline]
fn needed_hints(from: Square, others: Bitboard) -> (bool, bool) {
    if others.is_empty() {
        (false, false)
    } else if (others & Bitboard::file(from.file())).is_empty() {
        (true, false)
    } else if (others & Bitboard::rank(from.rank())).is_empty() {
        (false, true)
    } else {
        (true, true)
    }
}

/// The leniency of a written disambiguation, given what SAN needs.
#[inline]
fn hint_leniency(file: bool, rank: bool, needed: (bool, bool)) -> Leniencies {
    if file && rank && needed != (true, true) {
        Leniency::LongAlgebraic.into()
    } else if (file || rank) && needed == (false, false) {
        Leniency::OverDisambiguated.into()
    } else {
        Leniencies::NONE
    }
}

#[inline]
fn capture_leniency(written: bool, captures: bool) -> Leniencies {
    match (written, captures) {
        (false, true) => Leniency::MissingCapture.into(),
        (true, false) => Leniency::SpuriousCapture.into(),
        _ => Leniencies::NONE,
    }
}

/// Whether moving our non-king piece from `from` to `to` (capturing whatever stands there, not en passant)
/// leaves our king unattacked. Covers pins and check evasion in one test.
#[inline(always)]
fn safe_after(pos: &Position, from: Square, to: Square) -> bool {
    // Out of check, leaving `from` can only expose our king to an enemy slider behind it on the king's ray,
    // and not while the piece stays on that line: most moves are answered without looking up any attack.
    if pos.checkers().is_empty() {
        let king = pos.our_king();
        let b = pos.board();
        let sliders = (b.straight_sliders() | b.diagonal_sliders()) & b.by_color(!pos.turn());
        if (attacks::beyond(king, from) & sliders).is_empty()
            || attacks::line(king, from).contains(to)
        {
            return true;
        }
    }
    king_unattacked_after(pos, from, to)
}

/// [`safe_after`] by looking: our king's attackers once the piece has moved.
#[inline(never)]
fn king_unattacked_after(pos: &Position, from: Square, to: Square) -> bool {
    let occupied = pos.board().occupied().without(from).with(to);
    pos.attackers_to(pos.our_king(), !pos.turn(), occupied)
        .without(to)
        .is_empty()
}

/// Whether our king may step from `from` to `to` (not castling).
#[inline]
fn king_safe_at(pos: &Position, from: Square, to: Square) -> bool {
    let occupied = pos.board().occupied().without(from);
    pos.attackers_to(to, !pos.turn(), occupied).is_empty()
}

#[inline]
fn piece_move_is_legal(pos: &Position, role: Role, from: Square, to: Square) -> bool {
    if role == Role::King {
        king_safe_at(pos, from, to)
    } else {
        safe_after(pos, from, to)
    }
}

#[inline(always)]
fn resolve_piece(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
) -> Result<Resolved, SanError> {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    // A piece of `role` reaches `to` exactly when it attacks it. Asking for all our attackers and keeping the
    // role costs two table lookups more than looking up that role's moves alone, but has no branch on the
    // role, which the CPU cannot predict from move to move.
    let candidates = pos.attackers_to(to, pos.turn(), b.occupied()) & b.by_role(role);
    let hints = hint_mask(file, rank);
    if (candidates & hints).is_empty() {
        return Err(unreachable(pos, role, to, file, rank).into());
    }
    if ours.contains(to) {
        return Err(own_piece(pos, to).into());
    }
    let mut legal = Bitboard::EMPTY;
    for from in candidates {
        if piece_move_is_legal(pos, role, from, to) {
            legal = legal.with(from);
        }
    }
    let chosen = legal & hints;
    let Some(from) = chosen.single() else {
        return Err(match (candidates & hints).first() {
            Some(from) if chosen.is_empty() => {
                explain_illegal(pos, role, from, to, MoveKind::Normal).into()
            }
            _ => SanError::Ambiguous {
                role,
                to,
                from: chosen,
            },
        });
    };
    let captured = b.role_at(to);
    let mut leniencies = capture_leniency(capture, captured.is_some());
    // Without a hint the move was unambiguous (or it failed above): SAN needs none.
    let mut exact_hints = true;
    if file.is_some() || rank.is_some() {
        let needed = needed_hints(from, legal.without(from));
        leniencies |= hint_leniency(file.is_some(), rank.is_some(), needed);
        exact_hints = (file.is_some(), rank.is_some()) == needed;
    }
    Ok(Resolved {
        mv: Move::assembled(from, to, role, captured, None, MoveKind::Normal),
        leniencies,
        canonical: leniencies.is_empty() && exact_hints,
    })
}

#[inline(always)]
fn resolve_pawn(
    pos: &Position,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> Result<Resolved, SanError> {
    let us = pos.turn();
    let b = pos.board();
    let ours = b.by_color(us);
    let pawns = b.pawns() & ours;
    let hints = hint_mask(file, rank);
    let mut leniencies = Leniencies::NONE;

    let (candidates, kind, captured) = if capture || file.is_some_and(|f| f != to.file()) {
        let candidates = attacks::pawn_attacks(!us, to) & pawns & hints;
        if candidates.is_empty() {
            return Err(IllegalReason::PawnCannotCapture { to, file, rank }.into());
        }
        let (kind, captured) = if b.by_color(!us).contains(to) {
            (MoveKind::Normal, b.role_at(to))
        } else if pos.ep_square() == Some(to) {
            (MoveKind::EnPassant, Some(Role::Pawn))
        } else if ours.contains(to) {
            return Err(own_piece(pos, to).into());
        } else {
            return Err(nothing_to_capture(pos, candidates, to).into());
        };
        if !capture {
            leniencies.insert(Leniency::MissingCapture);
        }
        if file.is_none() {
            leniencies.insert(Leniency::MissingPawnFile);
        }
        if rank.is_some() {
            leniencies |= hint_leniency(file.is_some(), true, (true, false));
        }
        (candidates, kind, captured)
    } else {
        let back: i8 = if us == Color::White { -1 } else { 1 };
        let one = to.offset(0, back);
        let (from, kind) = match one {
            Some(one) if pawns.contains(one) => (Some(one), MoveKind::Normal),
            Some(one)
                if to.rank() == us.relative_rank(Rank::Fourth) && !b.occupied().contains(one) =>
            {
                let two = one.offset(0, back).filter(|&two| pawns.contains(two));
                (two, MoveKind::DoublePush)
            }
            _ => (None, MoveKind::Normal),
        };
        let from = match from {
            Some(from) if hints.contains(from) && !b.occupied().contains(to) => from,
            _ => return Err(pawn_unreachable(pos, to, file, rank, from).into()),
        };
        if file.is_some() || rank.is_some() {
            leniencies |= hint_leniency(file.is_some(), rank.is_some(), (false, false));
        }
        (Bitboard::from_square(from), kind, None)
    };

    let last = to.rank() == us.relative_rank(Rank::Eighth);
    match promotion {
        None if last => return Err(IllegalReason::MustPromote { to }.into()),
        Some(_) if !last => return Err(IllegalReason::PromotionNotOnLastRank { to }.into()),
        _ => {}
    }
    let mut chosen = Bitboard::EMPTY;
    for from in candidates {
        let legal = if kind == MoveKind::EnPassant {
            pos.en_passant_is_legal(from, to)
        } else {
            safe_after(pos, from, to)
        };
        if legal {
            chosen = chosen.with(from);
        }
    }
    match chosen.single() {
        Some(from) => Ok(Resolved {
            mv: Move::assembled(from, to, Role::Pawn, captured, promotion, kind),
            leniencies,
            // Every pawn form other than SAN's (`exd5`, `e4`) is a leniency.
            canonical: leniencies.is_empty(),
        }),
        None if chosen.is_empty() => {
            let from = candidates.first().expect("candidates are not empty");
            Err(explain_illegal(pos, Role::Pawn, from, to, kind).into())
        }
        None => Err(SanError::Ambiguous {
            role: Role::Pawn,
            to,
            from: chosen,
        }),
    }
}

fn resolve_castle(pos: &Position, side: CastlingSide) -> Result<Move, SanError> {
    let us = pos.turn();
    let b = pos.board();
    let king = pos.our_king();
    let back = us.back_rank();
    let fail = |reason| Err(IllegalReason::Castling { side, reason }.into());
    let rights = pos.castling_rights() & Bitboard::rank(back) & b.rooks() & b.by_color(us);
    let Some(rook) = rights
        .into_iter()
        .find(|&r| CastlingSide::of(king, r) == side)
    else {
        return fail(no_castling_right(pos, side));
    };
    let castling = Castling::new(king, rook);
    let piece_at = |attackers: Bitboard| PieceAt::on(pos, attackers.first().unwrap_or(king));
    match pos.castling_obstacle(castling, pos.checkers()) {
        None => Ok(Move {
            from: king,
            to: rook,
            role: Role::King,
            capture: None,
            promotion: None,
            kind: MoveKind::Castle,
        }),
        // The piece in the way nearest the king.
        Some(CastlingObstacle::Blocked(blockers)) => fail(CastlingError::Occupied {
            square: blockers.min_by_key(|&sq| sq.distance(king)).unwrap_or(king),
        }),
        Some(CastlingObstacle::InCheck(checkers)) => fail(CastlingError::InCheck {
            checker: piece_at(checkers),
        }),
        Some(CastlingObstacle::CrossesAttack { square, attackers }) => {
            fail(CastlingError::PassesThroughAttack {
                square,
                attacker: piece_at(attackers),
            })
        }
        Some(CastlingObstacle::LandsInCheck { attackers }) => fail(CastlingError::LandsInCheck {
            square: castling.king_to(),
            attacker: piece_at(attackers),
        }),
    }
}

// ---- explanations (only run when resolution fails) ----

fn own_piece(pos: &Position, to: Square) -> IllegalReason {
    IllegalReason::OwnPieceOnTarget {
        to,
        piece: pos.board().piece_at(to).expect("an own piece stands there"),
    }
}

/// Why a castling right is missing, as far as the position can tell.
fn no_castling_right(pos: &Position, side: CastlingSide) -> CastlingError {
    let us = pos.turn();
    let b = pos.board();
    let king = pos.our_king();
    let back = us.back_rank();
    let standard = pos.castling_mode() == CastlingMode::Standard;
    if king.rank() != back || (standard && king.file() != File::E) {
        return CastlingError::KingMoved;
    }
    let kingside = side == CastlingSide::King;
    let our_rooks = b.rooks() & b.by_color(us) & Bitboard::rank(back);
    let rook = if standard {
        let corner = if kingside { File::H } else { File::A };
        Some(Square::from_coords(corner, back))
    } else {
        let beyond: Bitboard = our_rooks
            .filter(|&r| CastlingSide::of(king, r) == side)
            .collect();
        if kingside {
            beyond.last()
        } else {
            beyond.first()
        }
    };
    let rook_home = rook.is_some_and(|r| our_rooks.contains(r));
    let any_right = (pos.castling_rights() & Bitboard::rank(back)).non_empty();
    if !any_right && rook_home {
        CastlingError::RightsLost { rook }
    } else {
        CastlingError::RookMoved { rook }
    }
}

/// A piece of `role` (matching the hints) that would reach `to` on an empty board, and what blocks it.
fn find_blocked(pos: &Position, role: Role, to: Square, hints: Bitboard) -> Option<Blocked> {
    let b = pos.board();
    let empty = Bitboard::EMPTY;
    let pieces = b.by_role(role) & b.by_color(pos.turn()) & hints;
    let open = match role {
        Role::Bishop => attacks::bishop_attacks(to, empty),
        Role::Rook => attacks::rook_attacks(to, empty),
        Role::Queen => attacks::queen_attacks(to, empty),
        _ => empty,
    };
    let from = (pieces & open).first()?;
    let blocker = (attacks::between(from, to) & b.occupied()).min_by_key(|sq| sq.distance(from))?;
    Some(Blocked {
        piece: PieceAt { role, square: from },
        blocker: PieceAt::on(pos, blocker),
    })
}

fn unreachable(
    pos: &Position,
    role: Role,
    to: Square,
    file: Option<File>,
    rank: Option<Rank>,
) -> IllegalReason {
    IllegalReason::NoPieceCanReach {
        role,
        to,
        file,
        rank,
        blocked: find_blocked(pos, role, to, hint_mask(file, rank)),
    }
}

/// A pawn push that finds no pawn: say which pawn is blocked, if one is.
fn pawn_unreachable(
    pos: &Position,
    to: Square,
    file: Option<File>,
    rank: Option<Rank>,
    from: Option<Square>,
) -> IllegalReason {
    let us = pos.turn();
    let b = pos.board();
    let hints = hint_mask(file, rank);
    let back: i8 = if us == Color::White { -1 } else { 1 };
    let blocked = match from {
        // The pawn is there but the target is taken.
        Some(from) if hints.contains(from) => Some((from, to)),
        _ => {
            // A pawn on its start square behind a piece on the square in between.
            let one = to.offset(0, back);
            let two = one.and_then(|s| s.offset(0, back));
            match (one, two) {
                (Some(one), Some(two))
                    if to.rank() == us.relative_rank(Rank::Fourth)
                        && (b.pawns() & b.by_color(us) & hints).contains(two)
                        && b.occupied().contains(one) =>
                {
                    Some((two, one))
                }
                _ => None,
            }
        }
    };
    IllegalReason::NoPieceCanReach {
        role: Role::Pawn,
        to,
        file,
        rank,
        blocked: blocked.map(|(from, blocker)| Blocked {
            piece: PieceAt {
                role: Role::Pawn,
                square: from,
            },
            blocker: PieceAt::on(pos, blocker),
        }),
    }
}

/// A pawn capture onto an empty square that is no legal e.p. target. If an enemy pawn stands where a double
/// step would have put it, say whether capturing it en passant would expose the king anyway (the position drops
/// an e.p. square whose capture is illegal, so the double step itself cannot be seen).
fn nothing_to_capture(pos: &Position, candidates: Bitboard, to: Square) -> IllegalReason {
    let us = pos.turn();
    let b = pos.board();
    let back: i8 = if us == Color::White { -1 } else { 1 };
    let en_passant_exposes = to
        .offset(0, back)
        .filter(|&victim| {
            to.rank() == us.relative_rank(Rank::Sixth)
                && b.piece_at(victim) == Some(Piece::new(!us, Role::Pawn))
        })
        .and_then(|victim| {
            let from = candidates
                .into_iter()
                .find(|&from| !pos.en_passant_is_legal(from, to))?;
            let occupied = b.occupied().without(from).without(victim).with(to);
            let attackers = pos
                .attackers_to(pos.our_king(), !us, occupied)
                .without(victim);
            attackers.first().map(|sq| PieceAt::on(pos, sq))
        });
    IllegalReason::NothingToCapture {
        to,
        en_passant_exposes,
    }
}

/// Why a geometrically possible move of the piece on `from` to `to` is illegal.
fn explain_illegal(
    pos: &Position,
    role: Role,
    from: Square,
    to: Square,
    kind: MoveKind,
) -> IllegalReason {
    let us = pos.turn();
    let them = !us;
    let b = pos.board();
    let king = pos.our_king();
    if role == Role::King {
        let attacker = pos
            .attackers_to(to, them, b.occupied().without(from))
            .first()
            .map_or(
                PieceAt {
                    role: Role::King,
                    square: to,
                },
                |sq| PieceAt::on(pos, sq),
            );
        return IllegalReason::KingIntoCheck { to, attacker };
    }
    let victim = if kind == MoveKind::EnPassant {
        Square::from_coords(to.file(), from.rank())
    } else {
        to
    };
    let checkers = pos.checkers();
    let answers_check = checkers
        .single()
        .is_some_and(|checker| checker == victim || attacks::between(king, checker).contains(to));
    if let Some(pinner) = pos.pinner_of(from)
        && !attacks::line(king, pinner).contains(to)
        && (checkers.is_empty() || answers_check)
    {
        return IllegalReason::Pinned {
            piece: PieceAt { role, square: from },
            king,
            pinner: PieceAt::on(pos, pinner),
        };
    }
    let mut checkers_iter = checkers;
    if let Some(first) = checkers_iter.next() {
        return IllegalReason::IgnoresCheck {
            checker: PieceAt::on(pos, first),
            second: checkers_iter.next().map(|sq| PieceAt::on(pos, sq)),
        };
    }
    let occupied = b.occupied().without(from).without(victim).with(to);
    let attacker = pos
        .attackers_to(king, them, occupied)
        .without(victim)
        .first()
        .map_or(
            PieceAt {
                role: Role::King,
                square: king,
            },
            |sq| PieceAt::on(pos, sq),
        );
    IllegalReason::ExposesKing { attacker }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fen::parse_fen;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn pos(fen: &str) -> Position {
        parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"))
    }

    fn resolve(fen: &str, token: &str) -> Result<Resolved, SanError> {
        SanPlus::from_ascii(token.as_bytes())
            .unwrap_or_else(|e| panic!("{token}: {e}"))
            .resolve(&pos(fen))
    }

    fn ok(fen: &str, token: &str) -> Resolved {
        resolve(fen, token).unwrap_or_else(|e| panic!("{token} in {fen}: {e}"))
    }

    fn uci(r: &Resolved) -> String {
        format!("{}{}", r.mv.from, r.mv.to)
    }

    fn message(fen: &str, token: &str) -> String {
        match resolve(fen, token) {
            Ok(r) => panic!("{token} in {fen} resolved to {:?}", r.mv),
            Err(e) => e.to_string(),
        }
    }

    fn leniencies(fen: &str, token: &str) -> Vec<Leniency> {
        ok(fen, token).leniencies.iter().collect()
    }

    #[test]
    fn ordinary_moves_resolve() {
        let r = ok(START, "Nf3");
        assert_eq!(
            (uci(&r), r.mv.role, r.mv.capture),
            ("g1f3".into(), Role::Knight, None)
        );
        assert!(r.leniencies.is_empty());
        assert_eq!(ok(START, "e4").mv.kind, MoveKind::DoublePush);
        assert_eq!(ok(START, "e3").mv.kind, MoveKind::Normal);
        let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        let r = ok(fen, "exd5");
        assert_eq!((uci(&r), r.mv.capture), ("e4d5".into(), Some(Role::Pawn)));
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        let r = ok(fen, "exd6");
        assert_eq!((uci(&r), r.mv.kind), ("e5d6".into(), MoveKind::EnPassant));
        assert_eq!(leniencies(fen, "exd6e.p."), [Leniency::EnPassantSuffix]);
        let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(ok(fen, "a8=Q").mv.promotion, Some(Role::Queen));
        assert_eq!(ok(fen, "a8=N").mv.promotion, Some(Role::Knight));
        assert_eq!(leniencies(fen, "a8Q"), [Leniency::PromotionWithoutEquals]);
        assert_eq!(leniencies(fen, "a8=q"), [Leniency::LowercasePromotion]);
        let black = "4k3/8/8/8/8/8/p7/4K3 b - - 0 1";
        assert_eq!(uci(&ok(black, "a1=R")), "a2a1");
        let r = ok(
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
            "dxe4",
        );
        assert_eq!(uci(&r), "d5e4");
    }

    #[test]
    fn ambiguity_names_the_pieces() {
        let fen = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1";
        assert_eq!(
            message(fen, "Rd1"),
            "ambiguous: the rooks on a1 and f1 can both go to d1"
        );
        assert_eq!(
            resolve(fen, "Rd1"),
            Err(SanError::Ambiguous {
                role: Role::Rook,
                to: Square::D1,
                from: Bitboard::from_square(Square::A1).with(Square::F1),
            })
        );
        assert!(ok(fen, "Rad1").leniencies.is_empty());
        assert!(ok(fen, "Rfd1").leniencies.is_empty());
        let queens = "4k3/8/8/8/1Q1Q4/8/1Q6/4K3 w - - 0 1";
        assert_eq!(
            message(queens, "Qd2"),
            "ambiguous: the queens on b2, b4 and d4 can all go to d2"
        );
        assert_eq!(
            message(queens, "Qbd2"),
            "ambiguous: the queens on b2 and b4 can both go to d2"
        );
        assert_eq!(uci(&ok(queens, "Qb4d2")), "b4d2");
        assert_eq!(uci(&ok(queens, "Q2d2")), "b2d2");
        let pawns = "4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1";
        assert_eq!(
            message(pawns, "xd5"),
            "ambiguous: the pawns on c4 and e4 can both go to d5"
        );
    }

    #[test]
    fn unreachable_targets() {
        assert_eq!(message(START, "Nf4"), "no knight can reach f4");
        assert_eq!(
            message(START, "Nbf3"),
            "no knight can reach f3 from the b-file"
        );
        assert_eq!(message(START, "N1d4"), "no knight can reach d4 from rank 1");
        assert_eq!(message(START, "Nb1d4"), "no knight can reach d4 from b1");
        assert_eq!(
            message(START, "Ra3"),
            "no rook can reach a3 (the rook on a1 is blocked by the pawn on a2)"
        );
        assert_eq!(message(START, "Qe5"), "no queen can reach e5");
        assert_eq!(message(START, "e5"), "no pawn can reach e5");
        let blocked = "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1";
        assert_eq!(
            message(blocked, "e4"),
            "no pawn can reach e4 (the pawn on e2 is blocked by the knight on e3)"
        );
        assert_eq!(
            message(blocked, "e3"),
            "no pawn can reach e3 (the pawn on e2 is blocked by the knight on e3)"
        );
        assert_eq!(message(START, "e3e4"), "no pawn can reach e4 from e3");
        assert_eq!(
            message(START, "Nd2"),
            "illegal: d2 is occupied by White's own pawn"
        );
        assert_eq!(
            resolve(START, "Nd2"),
            Err(SanError::Illegal(IllegalReason::OwnPieceOnTarget {
                to: Square::D2,
                piece: Piece::new(Color::White, Role::Pawn)
            }))
        );
    }

    #[test]
    fn pins_checks_and_king_safety() {
        let pinned = "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1";
        assert_eq!(
            message(pinned, "Bd3"),
            "illegal: the bishop on e2 is pinned to the king on e1 by the rook on e8"
        );
        assert_eq!(uci(&ok(pinned, "Kd2")), "e1d2");
        let queen = "4k3/8/8/8/7q/8/8/3K4 w - - 0 1";
        assert_eq!(
            message(queen, "Ke1"),
            "illegal: the king would stand in check from the queen on h4"
        );
        let knight = "4k3/8/8/8/8/5n2/P7/4K3 w - - 0 1";
        assert_eq!(
            message(knight, "a3"),
            "illegal: the king is in check from the knight on f3 and this move does not answer it"
        );
        let double = "4k3/8/8/8/8/5n2/P7/r3K3 w - - 0 1";
        assert_eq!(
            message(double, "a3"),
            "illegal: the king is in double check from the rook on a1 and the knight on f3, and only \
             a king move answers it"
        );
        // A pinned piece that would answer the check is reported as pinned.
        let pin_and_check = "4r1k1/8/8/8/1b6/8/4N3/4K3 w - - 0 1";
        assert_eq!(
            message(pin_and_check, "Nc3"),
            "illegal: the knight on e2 is pinned to the king on e1 by the rook on e8"
        );
        assert_eq!(
            message(pin_and_check, "Nc1"),
            "illegal: the king is in check from the bishop on b4 and this move does not answer it"
        );
        // Blocking and capturing the checker are fine.
        let block = "4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1";
        assert_eq!(uci(&ok(block, "Nd2")), "b1d2");
        assert_eq!(uci(&ok(block, "Nc3")), "b1c3");
        assert!(message(block, "Na3").contains("does not answer"));
        assert_eq!(
            uci(&ok("4k3/8/8/8/1b6/8/8/1R2K3 w - - 0 1", "Rxb4")),
            "b1b4"
        );
    }

    #[test]
    fn pawn_reasons() {
        let fen = "4k3/8/8/4p3/8/8/3P4/4K3 w - - 0 1";
        assert_eq!(
            message(fen, "dxe5"),
            "no pawn can capture on e5 from the d-file"
        );
        assert_eq!(message(fen, "xe5"), "no pawn can capture on e5");
        let last = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            message(last, "a8"),
            "a pawn reaching the last rank must promote"
        );
        assert_eq!(
            message(START, "e4=Q"),
            "promotion is only possible on the last rank"
        );
        let no_ep = "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1";
        assert_eq!(message(no_ep, "exd6"), "there is no piece to capture on d6");
        let exposed = "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1";
        assert_eq!(
            message(exposed, "exd6"),
            "there is no piece to capture on d6 (and capturing en passant there would expose the \
             king to the rook on a5)"
        );
        assert_eq!(message(START, "exd3"), "there is no piece to capture on d3");
        assert_eq!(
            message("4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1", "exd3"),
            "illegal: d3 is occupied by White's own knight"
        );
    }

    #[test]
    fn exposing_the_king_en_passant() {
        // The position drops an e.p. square whose capture is illegal, so test the explanation itself.
        let p = pos("4k3/8/8/r2pP2K/8/8/8/8 w - - 0 1");
        assert_eq!(
            explain_illegal(&p, Role::Pawn, Square::E5, Square::D6, MoveKind::EnPassant)
                .to_string(),
            "illegal: the move would expose the king to the rook on a5"
        );
    }

    #[test]
    fn castling_conditions() {
        let through = "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1";
        assert_eq!(
            message(through, "O-O"),
            "castling not allowed: the king passes through f1, attacked by the bishop on c4"
        );
        assert_eq!(
            message("4k3/8/8/8/8/8/8/3K3R w - - 0 1", "O-O"),
            "castling not allowed: the king has moved"
        );
        assert_eq!(
            message("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "O-O"),
            "castling not allowed: the rook on h1 has moved or gone"
        );
        assert_eq!(
            message("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O"),
            "castling not allowed: the rook on h1 has moved or gone"
        );
        assert_eq!(
            message("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O"),
            "castling not allowed: the king or the rook on h1 has moved"
        );
        assert_eq!(
            message(START, "O-O"),
            "castling not allowed: f1 is occupied"
        );
        assert_eq!(
            message(START, "O-O-O"),
            "castling not allowed: d1 is occupied"
        );
        assert_eq!(
            message("4k3/8/8/8/1b6/8/8/4K2R w K - 0 1", "O-O"),
            "castling not allowed: the king is in check from the bishop on b4"
        );
        assert_eq!(
            message("4k1r1/8/8/8/8/8/8/4K2R w K - 0 1", "O-O"),
            "castling not allowed: the king would land in check on g1, attacked by the rook on g8"
        );
        // The rook may cross an attacked square (b1).
        let r = ok("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O");
        assert_eq!(
            (r.mv.from, r.mv.to, r.mv.kind),
            (Square::E1, Square::A1, MoveKind::Castle)
        );
        assert_eq!(
            ok("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "O-O-O")
                .mv
                .king_destination(),
            Square::C8
        );
        assert_eq!(
            leniencies("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "0-0"),
            [Leniency::CastlingZeros]
        );
    }

    #[test]
    fn chess960_castling() {
        let fen = "4k3/8/8/8/8/8/8/RK5R w HA - 0 1";
        let r = ok(fen, "O-O");
        assert_eq!((r.mv.from, r.mv.to), (Square::B1, Square::H1));
        assert_eq!(r.mv.king_destination(), Square::G1);
        let r = ok(fen, "O-O-O");
        assert_eq!((r.mv.from, r.mv.to), (Square::B1, Square::A1));
        let legal = pos(fen).legal_moves();
        assert!(legal.contains(&ok(fen, "O-O").mv) && legal.contains(&ok(fen, "O-O-O").mv));
        // The king already stands on g1: only the rook moves.
        let r = ok("4k3/8/8/8/8/8/8/6KR w H - 0 1", "O-O");
        assert_eq!((r.mv.from, r.mv.to), (Square::G1, Square::H1));
        assert_eq!(
            message("4k3/8/8/8/8/8/8/1K3N1R w H - 0 1", "O-O"),
            "castling not allowed: f1 is occupied"
        );
        assert_eq!(
            message("4k3/8/8/8/8/8/8/1K5R w H - 0 1", "O-O-O"),
            "castling not allowed: that rook has moved or gone"
        );
    }

    #[test]
    fn resolution_leniencies() {
        use Leniency::*;
        assert_eq!(leniencies(START, "Ngf3"), [OverDisambiguated]);
        assert_eq!(leniencies(START, "N1f3"), [OverDisambiguated]);
        assert_eq!(leniencies(START, "Ng1f3"), [LongAlgebraic]);
        assert_eq!(leniencies(START, "Ng1-f3"), [LongAlgebraic]);
        assert_eq!(leniencies(START, "e2e4"), [LongAlgebraic, CoordinateMove]);
        assert_eq!(leniencies(START, "g1f3"), [LongAlgebraic, CoordinateMove]);
        assert_eq!(leniencies(START, "nf3"), [LowercasePieceLetter]);
        assert_eq!(leniencies(START, "Ng1f3"), [LongAlgebraic]);
        let promotion = "8/4P3/8/8/8/8/k7/7K w - - 0 1";
        assert_eq!(
            leniencies(promotion, "e7e8q"),
            [
                PromotionWithoutEquals,
                LowercasePromotion,
                LongAlgebraic,
                CoordinateMove
            ]
        );
        assert_eq!(leniencies(promotion, "e8(Q)"), [ParenthesizedPromotion]);
        let castle = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        assert_eq!(leniencies(castle, "e1g1"), [CoordinateMove]);
        assert_eq!(leniencies(castle, "e1h1"), [CoordinateMove]);
        assert_eq!(leniencies(START, "e2-e4"), [LongAlgebraic]);
        assert_eq!(leniencies(START, "ee4"), [OverDisambiguated]);
        assert_eq!(leniencies(START, "Nxf3"), [SpuriousCapture]);
        assert_eq!(leniencies(START, "Pe4"), [PawnLetter]);
        let capture = "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1";
        assert_eq!(leniencies(capture, "Ne5"), [MissingCapture]);
        assert_eq!(
            leniencies(capture, "Nf3e5"),
            [LongAlgebraic, MissingCapture]
        );
        assert_eq!(leniencies(capture, "Nf3xe5"), [LongAlgebraic]);
        assert_eq!(leniencies(capture, "N:e5"), [ColonCapture]);
        let pawn = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(leniencies(pawn, "ed5"), [MissingCapture]);
        assert_eq!(leniencies(pawn, "xd5"), [MissingPawnFile]);
        assert_eq!(leniencies(pawn, "e4xd5"), [LongAlgebraic]);
        assert_eq!(
            leniencies(pawn, "e4d5"),
            [LongAlgebraic, MissingCapture, CoordinateMove]
        );
        // Needed disambiguation is no leniency, even in full.
        let queens = "4k3/8/8/8/1Q1Q4/8/1Q6/4K3 w - - 0 1";
        assert!(ok(queens, "Qb4d2").leniencies.is_empty());
        assert_eq!(leniencies(queens, "Qd4d2"), [LongAlgebraic]);
    }

    /// `e1-g1`, `g1-f3`, `f3xe5`: an origin square in full with a separator and no piece letter moves the piece
    /// standing there, as coordinates without the separator do (`e1g1`, `g1f3`); a pawn there keeps its
    /// long algebraic reading, without a note.
    #[test]
    fn long_coordinates_move_the_piece_on_the_origin_square() {
        use Leniency::*;
        let castle = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        for token in ["e1-g1", "e1-h1"] {
            let r = ok(castle, token);
            assert!(r.mv.is_castle() && !r.canonical, "{token}");
            assert_eq!(leniencies(castle, token), [CoordinateMove], "{token}");
        }
        assert!(ok(castle, "e1xg1").mv.is_castle());
        assert_eq!(
            leniencies(castle, "e1xg1"),
            [SpuriousCapture, CoordinateMove]
        );
        assert_eq!(
            leniencies(castle, "e1:g1"),
            [ColonCapture, SpuriousCapture, CoordinateMove]
        );
        let r = ok(START, "g1-f3");
        assert_eq!((uci(&r), r.mv.role), ("g1f3".into(), Role::Knight));
        assert_eq!(leniencies(START, "g1-f3"), [LongAlgebraic, CoordinateMove]);
        assert_eq!(
            leniencies(START, "g1xf3"),
            [LongAlgebraic, SpuriousCapture, CoordinateMove]
        );
        let capture = "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1";
        let r = ok(capture, "f3xe5");
        assert_eq!((uci(&r), r.mv.capture), ("f3e5".into(), Some(Role::Pawn)));
        assert_eq!(
            leniencies(capture, "f3xe5"),
            [LongAlgebraic, CoordinateMove]
        );
        assert_eq!(
            leniencies(capture, "f3-e5"),
            [LongAlgebraic, MissingCapture, CoordinateMove]
        );
        assert_eq!(
            leniencies(capture, "f3:e5"),
            [ColonCapture, LongAlgebraic, CoordinateMove]
        );
        // Black's king, in Chess960 onto its own rook.
        let black = "rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1";
        assert!(ok(black, "b8-h8").mv.is_castle());
        // A pawn on the origin square: its long algebraic move, no coordinates noted.
        assert_eq!(leniencies(START, "e2-e4"), [LongAlgebraic]);
        let pawn = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(leniencies(pawn, "e4xd5"), [LongAlgebraic]);
        // Why a piece cannot go is said of the piece; without one of ours there, of the pawn.
        assert_eq!(
            message("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1-g1"),
            "castling not allowed: the king or the rook on h1 has moved"
        );
        assert_eq!(
            message(START, "d1-h5"),
            "no queen can reach h5 from d1 (the queen on d1 is blocked by the pawn on e2)"
        );
        assert_eq!(message(START, "e7-e5"), "no pawn can reach e5 from e7");
        // A pawn letter says a pawn moves: no other piece is read into it.
        assert!(resolve(START, "Pg1-f3").is_err());
    }

    #[test]
    fn pinned_pieces_do_not_force_disambiguation() {
        let fen = "4r1k1/8/8/7N/8/8/4N3/4K3 w - - 0 1";
        let r = ok(fen, "Ng3");
        assert_eq!((uci(&r), r.leniencies), ("h5g3".into(), Leniencies::NONE));
        assert_eq!(San::from_move(&pos(fen), &r.mv).to_string(), "Ng3");
        assert_eq!(leniencies(fen, "Nhg3"), [Leniency::OverDisambiguated]);
        assert_eq!(
            message(fen, "Neg3"),
            "illegal: the knight on e2 is pinned to the king on e1 by the rook on e8"
        );
    }

    #[test]
    fn check_mark_leniencies() {
        let p = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
        let judge = |token: &str| {
            let plus = SanPlus::from_ascii(token.as_bytes()).unwrap();
            let r = plus.resolve(&p).unwrap();
            (r.leniencies | plus.mark_leniencies(&p.play(r.mv).unwrap()))
                .iter()
                .collect::<Vec<_>>()
        };
        assert_eq!(judge("Qh4#"), []);
        assert_eq!(judge("Qh4++"), [Leniency::DoublePlusMate]);
        assert_eq!(judge("Qh4+"), [Leniency::WrongCheckMark]);
        assert_eq!(judge("Qh4"), [Leniency::MissingCheckMark]);
        assert_eq!(judge("Qg5+"), [Leniency::SpuriousCheckMark]);
        assert_eq!(crate::notation::CheckMark::after(&p), None);
    }

    #[test]
    fn other_errors() {
        assert_eq!(
            message(START, "--"),
            "a null move (--) passes the turn; it is no chess move"
        );
        let bad = San::Normal {
            role: Role::Knight,
            file: None,
            rank: None,
            capture: false,
            to: Square::F3,
            promotion: Some(Role::Queen),
        };
        assert_eq!(
            bad.to_move(&Position::new()).unwrap_err().to_string(),
            "only a pawn can promote, not a knight"
        );
    }

    #[test]
    fn minimal_disambiguation_when_writing() {
        let queens = pos("4k3/8/8/8/1Q1Q4/8/1Q6/4K3 w - - 0 1");
        let written = |from: Square| {
            let m = queens
                .legal_moves()
                .iter()
                .find(|m| m.from == from && m.to == Square::D2)
                .copied()
                .unwrap();
            SanPlus::from_move(&queens, &m).to_string()
        };
        assert_eq!(written("b4".parse().unwrap()), "Qb4d2");
        assert_eq!(written(Square::B2), "Q2d2");
        assert_eq!(written("d4".parse().unwrap()), "Qdd2");
        let p = Position::new();
        let e4 = ok(START, "e4").mv;
        assert_eq!(SanPlus::from_move(&p, &e4).to_string(), "e4");
        let mut q = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let ep = q
            .legal_moves()
            .iter()
            .find(|m| m.is_en_passant())
            .copied()
            .unwrap();
        assert_eq!(SanPlus::from_move_and_play(&mut q, &ep).to_string(), "exd6");
        let mate = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
        let qh4 = ok(
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            "Qh4",
        )
        .mv;
        assert_eq!(SanPlus::from_move(&mate, &qh4).to_string(), "Qh4#");
        assert_eq!(
            SanPlus::from_move(&mate, &qh4)
                .display(crate::notation::Language::Fr)
                .to_string(),
            "Dh4#"
        );
    }

    /// Every move a piece could make were it not for its king, written with its full origin: exactly the
    /// legal ones resolve (pins, checks and the short cut for pieces off the king's lines all agree with
    /// move generation).
    #[test]
    fn pseudo_moves_resolve_exactly_when_legal() {
        use crate::core::random_games::random_games;
        let (mut tried, mut refused) = (0, 0);
        random_games(20, 120, 0, |_, pos| {
            let legal = pos.legal_moves();
            let b = pos.board();
            let (ours, theirs) = (b.by_color(pos.turn()), b.by_color(!pos.turn()));
            let last = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
            for from in ours {
                let role = b.role_at(from).unwrap();
                let targets = match role {
                    Role::Pawn => {
                        let forward = if pos.turn() == Color::White { 1 } else { -1 };
                        let ahead: Bitboard = from
                            .offset(0, forward)
                            .filter(|&sq| !b.occupied().contains(sq))
                            .into_iter()
                            .collect();
                        (attacks::pawn_attacks(pos.turn(), from) & theirs | ahead) & !last
                    }
                    Role::Knight => attacks::knight_attacks(from),
                    Role::Bishop => attacks::bishop_attacks(from, b.occupied()),
                    Role::Rook => attacks::rook_attacks(from, b.occupied()),
                    Role::Queen => attacks::queen_attacks(from, b.occupied()),
                    Role::King => attacks::king_attacks(from),
                } & !ours;
                for to in targets {
                    let san = San::Normal {
                        role,
                        file: Some(from.file()),
                        rank: Some(from.rank()),
                        capture: theirs.contains(to),
                        to,
                        promotion: None,
                    };
                    let is_legal = legal
                        .iter()
                        .any(|m| m.from == from && m.to == to && !m.is_castle());
                    let resolved = san.resolve(pos);
                    assert_eq!(
                        resolved.is_ok(),
                        is_legal,
                        "{san:?} in {}",
                        crate::core::fen::to_fen(pos)
                    );
                    if let Ok(r) = resolved {
                        assert_eq!((r.mv.from, r.mv.to), (from, to));
                    }
                    tried += 1;
                    refused += usize::from(!is_legal);
                }
            }
        });
        assert!(tried > 100_000 && refused > 5_000, "{tried} {refused}");
    }
}
