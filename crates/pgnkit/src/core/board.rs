//! Piece placement: bitboards per role and colour, plus a square-indexed mailbox for O(1) lookups.

use super::bitboard::Bitboard;
use super::types::{ByColor, Color, File, Piece, Rank, Role, Square};

/// Where the pieces stand, and nothing else (no side to move, rights or counters: see
/// [`Setup`](super::Setup) and [`Position`](super::Position)).
///
/// ```
/// use pgnkit::{Board, Color, Piece, Role, Square};
///
/// let mut board = Board::standard();
/// assert_eq!(board.occupied().count(), 32);
/// assert_eq!(board.piece_at(Square::D1), Some(Piece::new(Color::White, Role::Queen)));
/// // Put replaces what stood there.
/// let pawn = Piece::new(Color::Black, Role::Pawn);
/// assert_eq!(board.put(Square::D1, pawn), Some(Piece::new(Color::White, Role::Queen)));
/// assert_eq!((board.queens() & board.by_color(Color::White)).count(), 0);
/// assert_eq!(board.take(Square::D1), Some(pawn));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    /// 0 for an empty square, else `1 + color * 6 + role`.
    mailbox: [u8; 64],
}

#[inline]
const fn encode(piece: Piece) -> u8 {
    1 + piece.color as u8 * 6 + piece.role as u8
}

#[inline]
const fn decode(code: u8) -> Option<Piece> {
    if code == 0 {
        None
    } else {
        let c = code - 1;
        Some(Piece {
            color: if c >= 6 { Color::Black } else { Color::White },
            role: Role::from_index((c % 6) as usize),
        })
    }
}

impl Board {
    /// A board without pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            mailbox: [0; 64],
        }
    }

    /// The initial position of standard chess.
    pub fn standard() -> Board {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in File::ALL.into_iter().zip(back) {
            board.put(
                Square::from_coords(file, Rank::First),
                Piece::new(Color::White, role),
            );
            board.put(
                Square::from_coords(file, Rank::Second),
                Piece::new(Color::White, Role::Pawn),
            );
            board.put(
                Square::from_coords(file, Rank::Seventh),
                Piece::new(Color::Black, Role::Pawn),
            );
            board.put(
                Square::from_coords(file, Rank::Eighth),
                Piece::new(Color::Black, role),
            );
        }
        board
    }

    /// The occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of the pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of the pieces like `piece` (role and colour).
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role[piece.role.index()] & self.by_color[piece.color.index()]
    }

    /// The squares of the pawns, both colours.
    #[inline]
    pub fn pawns(&self) -> Bitboard {
        self.by_role[Role::Pawn.index()]
    }

    /// The squares of the knights, both colours.
    #[inline]
    pub fn knights(&self) -> Bitboard {
        self.by_role[Role::Knight.index()]
    }

    /// The squares of the bishops, both colours.
    #[inline]
    pub fn bishops(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()]
    }

    /// The squares of the rooks, both colours.
    #[inline]
    pub fn rooks(&self) -> Bitboard {
        self.by_role[Role::Rook.index()]
    }

    /// The squares of the queens, both colours.
    #[inline]
    pub fn queens(&self) -> Bitboard {
        self.by_role[Role::Queen.index()]
    }

    /// The squares of the kings, both colours.
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.by_role[Role::King.index()]
    }

    /// Bishops and queens: pieces that slide diagonally.
    #[inline]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.bishops() | self.queens()
    }

    /// Rooks and queens: pieces that slide along ranks and files.
    #[inline]
    pub fn straight_sliders(&self) -> Bitboard {
        self.rooks() | self.queens()
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        decode(self.mailbox[sq.index()])
    }

    /// The mailbox, square by square from a1: 0 for an empty square, else `1 + color * 6 + role` (writers
    /// that visit every square read it whole).
    #[inline]
    pub(crate) fn codes(&self) -> &[u8; 64] {
        &self.mailbox
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.piece_at(sq).map(|p| p.role)
    }

    /// The single king of `color`, if there is exactly one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color(color)).single()
    }

    /// Places `piece` on `sq`, replacing (and returning) whatever stood there.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        let replaced = self.take(sq);
        self.put_on_empty(sq, piece);
        replaced
    }

    /// Places `piece` on `sq`, which must be empty (making a move empties the square first, and does not pay
    /// for looking).
    #[inline]
    pub(crate) fn put_on_empty(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.mailbox[sq.index()] == 0);
        let bit = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= bit;
        self.by_color[piece.color.index()] |= bit;
        self.occupied |= bit;
        self.mailbox[sq.index()] = encode(piece);
    }

    /// Removes whatever stands on `sq`.
    #[inline]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = decode(self.mailbox[sq.index()])?;
        let bit = !Bitboard::from_square(sq);
        self.by_role[piece.role.index()] &= bit;
        self.by_color[piece.color.index()] &= bit;
        self.occupied &= bit;
        self.mailbox[sq.index()] = 0;
        Some(piece)
    }

    /// Moves a known piece from `from` to the empty square `to` (no mailbox decoding: the caller knows what
    /// moves, which saves work on the hot path of replaying games).
    #[inline]
    pub(crate) fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let bits = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_role[piece.role.index()] ^= bits;
        self.by_color[piece.color.index()] ^= bits;
        self.occupied ^= bits;
        self.mailbox[to.index()] = self.mailbox[from.index()];
        self.mailbox[from.index()] = 0;
    }

    /// Removes a known piece from `sq` (it must stand there), leaving the square's occupancy to the caller's
    /// next step: used for captures, where the capturer lands on the square right after.
    #[inline]
    pub(crate) fn remove(&mut self, piece: Piece, sq: Square) {
        let bit = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bit;
        self.by_color[piece.color.index()] ^= bit;
        self.occupied ^= bit;
        self.mailbox[sq.index()] = 0;
    }

    /// Pieces per colour and role, for material checks.
    pub fn material(&self) -> ByColor<[u8; 6]> {
        let mut m = ByColor::<[u8; 6]>::default();
        for color in Color::ALL {
            for role in Role::ALL {
                m.get_mut(color)[role.index()] =
                    (self.by_piece(Piece::new(color, role))).count() as u8;
            }
        }
        m
    }

    /// Every piece with its square, a1 to h8 rank by rank.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .map(move |sq| (sq, self.piece_at(sq).expect("occupied square")))
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = self
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', |p| p.fen_char());
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_has_32_pieces() {
        let b = Board::standard();
        assert_eq!(b.occupied().count(), 32);
        assert_eq!(b.king_of(Color::White), Some(Square::E1));
        assert_eq!(b.king_of(Color::Black), Some(Square::E8));
        assert_eq!(
            b.piece_at(Square::D8),
            Some(Piece::new(Color::Black, Role::Queen))
        );
        assert_eq!(b.material().white, [8, 2, 2, 2, 1, 1]);
    }

    #[test]
    fn put_and_take_keep_bitboards_consistent() {
        let mut b = Board::standard();
        let p = b.take(Square::E1).unwrap();
        assert_eq!(p, Piece::new(Color::White, Role::King));
        assert_eq!(b.king_of(Color::White), None);
        assert_eq!(b.take(Square::E1), None);
        b.put(Square::E1, p);
        assert_eq!(b, Board::standard());
    }
}
