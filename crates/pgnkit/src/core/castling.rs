//! Castling's geometry and conditions, written once for move generation, SAN resolution (which also says why
//! castling is not allowed) and playing a castling move.
//!
//! FIDE 3.8.2 and the Chess960 rules agree: the king ends on the g-file (castling towards the h-file) or the
//! c-file (towards the a-file), the rook beside it on the f- or d-file; every square either piece crosses or
//! lands on must be empty apart from the two of them; the king may not be in check, cross an attacked square
//! or land on one. Standard chess is the case of a king on e1/e8 and rooks in the corners.

use super::attacks;
use super::bitboard::Bitboard;
use super::position::Position;
use super::types::{File, Square};

/// Which way to castle: towards the h-file or towards the a-file, whatever the files the king and rook start
/// on (Chess960).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file: `O-O`; the king lands on the g-file, the rook on the f-file.
    King,
    /// Towards the a-file: `O-O-O`; the king lands on the c-file, the rook on the d-file.
    Queen,
}

impl CastlingSide {
    /// The side of the king that the rook on `rook` stands on.
    #[inline]
    pub fn of(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::King
        } else {
            CastlingSide::Queen
        }
    }

    /// The file the king lands on: g or c.
    #[inline]
    pub const fn king_file(self) -> File {
        match self {
            CastlingSide::King => File::G,
            CastlingSide::Queen => File::C,
        }
    }

    /// The file the rook lands on: f or d.
    #[inline]
    pub const fn rook_file(self) -> File {
        match self {
            CastlingSide::King => File::F,
            CastlingSide::Queen => File::D,
        }
    }
}

/// One castling move's squares: where the king and the rook stand and where they land.
///
/// ```
/// use pgnkit::core::{Castling, CastlingSide};
/// use pgnkit::Square;
///
/// // Standard chess, O-O-O: the king goes from e1 to c1, the rook from a1 to d1, and b1 must be empty too.
/// let long = Castling::new(Square::E1, Square::A1);
/// assert_eq!(long.side(), CastlingSide::Queen);
/// assert_eq!((long.king_to(), long.rook_to()), (Square::C1, Square::D1));
/// assert_eq!(long.path().count(), 3);
/// // Chess960, king on b1 and rook on c1, O-O: the king still lands on g1 and the rook on f1.
/// let short = Castling::new(Square::B1, Square::C1);
/// assert_eq!(short.side(), CastlingSide::King);
/// assert_eq!((short.king_to(), short.rook_to()), (Square::G1, Square::F1));
/// assert_eq!(short.king_crosses().count(), 4); // c1 to f1
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Castling {
    king: Square,
    rook: Square,
}

impl Castling {
    /// The castling of the king on `king` with its rook on `rook`, both on their first rank (the rank of
    /// `king` is the one used).
    #[inline]
    pub const fn new(king: Square, rook: Square) -> Castling {
        Castling { king, rook }
    }

    /// Where the king stands before castling.
    #[inline]
    pub const fn king(self) -> Square {
        self.king
    }

    /// Where the rook stands before castling (the `to` square of a castling [`Move`](super::Move)).
    #[inline]
    pub const fn rook(self) -> Square {
        self.rook
    }

    /// Which way the king castles.
    #[inline]
    pub fn side(self) -> CastlingSide {
        CastlingSide::of(self.king, self.rook)
    }

    /// Where the king lands: the g- or c-file of its rank.
    #[inline]
    pub fn king_to(self) -> Square {
        Square::from_coords(self.side().king_file(), self.king.rank())
    }

    /// Where the rook lands: the f- or d-file of the king's rank.
    #[inline]
    pub fn rook_to(self) -> Square {
        Square::from_coords(self.side().rook_file(), self.king.rank())
    }

    /// The squares that must be empty, apart from the king and the rook themselves: every square either of them
    /// crosses or lands on.
    #[inline]
    pub fn path(self) -> Bitboard {
        let (king_to, rook_to) = (self.king_to(), self.rook_to());
        (attacks::between(self.king, king_to).with(king_to)
            | attacks::between(self.rook, rook_to).with(rook_to))
        .without(self.king)
        .without(self.rook)
    }

    /// The squares the king passes over, none of which may be attacked (its start and landing squares are
    /// the other two conditions: not castling out of check, nor into it).
    #[inline]
    pub fn king_crosses(self) -> Bitboard {
        attacks::between(self.king, self.king_to())
    }

    /// The occupied squares after castling, given those before.
    #[inline]
    pub fn occupied_after(self, occupied: Bitboard) -> Bitboard {
        occupied
            .without(self.king)
            .without(self.rook)
            .with(self.king_to())
            .with(self.rook_to())
    }
}

/// The first condition of castling that fails, in the order they are checked: path, check, crossing,
/// landing (crate-private: the notation layer turns it into its own explanation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CastlingObstacle {
    /// These pieces stand in the way (on [`Castling::path`]).
    Blocked(Bitboard),
    /// The king is in check from these pieces.
    InCheck(Bitboard),
    /// The king would cross `square`, attacked by `attackers`.
    CrossesAttack { square: Square, attackers: Bitboard },
    /// The king would land on an attacked square (attacked by `attackers`, the castling pieces moved).
    LandsInCheck { attackers: Bitboard },
}

impl Position {
    /// Whether the side to move may carry out `castling` now, given that it still has the right to (the
    /// caller checks the right): `None` if it may, else the first condition that fails. `checkers` are the
    /// pieces giving check (move generation knows there are none, and passes it on to save the work).
    #[inline(always)]
    pub(crate) fn castling_obstacle(
        &self,
        castling: Castling,
        checkers: Bitboard,
    ) -> Option<CastlingObstacle> {
        let occupied = self.board().occupied();
        let blockers = castling.path() & occupied;
        if blockers.non_empty() {
            return Some(CastlingObstacle::Blocked(blockers));
        }
        if checkers.non_empty() {
            return Some(CastlingObstacle::InCheck(checkers));
        }
        let them = !self.turn();
        // The rook may cross attacked squares; only the king's way counts.
        for square in castling.king_crosses() {
            let attackers = self.attackers_to(square, them, occupied);
            if attackers.non_empty() {
                return Some(CastlingObstacle::CrossesAttack { square, attackers });
            }
        }
        let attackers =
            self.attackers_to(castling.king_to(), them, castling.occupied_after(occupied));
        if attackers.non_empty() {
            return Some(CastlingObstacle::LandsInCheck { attackers });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_squares() {
        let short = Castling::new(Square::E8, Square::H8);
        assert_eq!(short.side(), CastlingSide::King);
        assert_eq!((short.king_to(), short.rook_to()), (Square::G8, Square::F8));
        assert_eq!(
            short.path(),
            Bitboard::from_square(Square::F8).with(Square::G8)
        );
        assert_eq!(short.king_crosses(), Bitboard::from_square(Square::F8));
        let long = Castling::new(Square::E1, Square::A1);
        assert_eq!(
            long.path(),
            Bitboard::from_square(Square::B1)
                .with(Square::C1)
                .with(Square::D1)
        );
        assert_eq!(long.king_crosses(), Bitboard::from_square(Square::D1));
    }

    #[test]
    fn chess960_squares_exclude_the_movers() {
        // King on f1 and rook on g1 castling short: the king lands on the rook's square and the rook on the
        // king's; nothing else needs to be empty.
        let c = Castling::new(Square::F1, Square::G1);
        assert_eq!(c.path(), Bitboard::EMPTY);
        assert_eq!(
            c.occupied_after(c.path().with(Square::F1).with(Square::G1))
                .count(),
            2
        );
        // King on b1, rook on a1, long: the king moves right to c1, the rook to d1.
        let c = Castling::new(Square::B1, Square::A1);
        assert_eq!(c.side(), CastlingSide::Queen);
        assert_eq!(c.path(), Bitboard::from_square(Square::C1).with(Square::D1));
        assert_eq!(c.king_crosses(), Bitboard::EMPTY);
    }
}
