//! A set of squares packed into 64 bits.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::types::{File, Rank, Square};

/// A set of squares: bit `i` stands for the square of index `i` ([`Square::index`]).
///
/// It is an iterator over its squares, lowest first, and combines with `&`, `|`, `^` and `!`.
///
/// ```
/// use pgnkit::{Bitboard, File, Rank, Square};
///
/// let corners = Bitboard::from_square(Square::A1).with(Square::H1).with(Square::A8).with(Square::H8);
/// assert_eq!(corners.count(), 4);
/// assert_eq!(corners & Bitboard::rank(Rank::First), Bitboard::from_square(Square::A1).with(Square::H1));
/// assert_eq!((corners & Bitboard::file(File::H)).collect::<Vec<_>>(), [Square::H1, Square::H8]);
/// assert_eq!((corners & Bitboard::DARK_SQUARES).count(), 2); // a1 and h8
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The 32 dark squares (a1 is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
    /// The 32 light squares.
    pub const LIGHT_SQUARES: Bitboard = Bitboard(!0xAA55_AA55_AA55_AA55);

    /// The set of one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// The eight squares of a file.
    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u8)
    }

    /// The eight squares of a rank.
    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xFF << (8 * rank as u8))
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a square.
    #[inline]
    pub const fn non_empty(self) -> bool {
        self.0 != 0
    }

    /// How many squares the set has.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square in the set.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_masked(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_masked(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The only square of a one-square set.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Adds `sq` if absent, removes it if present.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    /// Shifts every square one rank towards rank 8 (White's forward).
    #[inline]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Shifts every square one rank towards rank 1 (Black's forward).
    #[inline]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = if self.contains(Square::from_coords(file, *rank)) {
                    '1'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new_masked(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_ops {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_ops!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_ops!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bit_ops!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_visits_squares_in_order() {
        let bb = Bitboard::from_square(Square::H8) | Bitboard::from_square(Square::A1);
        assert_eq!(bb.collect::<Vec<_>>(), vec![Square::A1, Square::H8]);
        assert_eq!(bb.count(), 2);
        assert!(bb.more_than_one());
        assert_eq!(bb.single(), None);
        assert_eq!(Bitboard::from_square(Square::E1).single(), Some(Square::E1));
        assert_eq!(bb.last(), Some(Square::H8));
    }

    #[test]
    fn square_colours() {
        assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
        assert!(Bitboard::LIGHT_SQUARES.contains(Square::H1));
        for sq in Square::all() {
            assert_eq!(Bitboard::DARK_SQUARES.contains(sq), sq.is_dark());
        }
    }

    #[test]
    fn files_and_ranks() {
        assert_eq!(Bitboard::file(File::A).count(), 8);
        assert!(Bitboard::rank(Rank::Eighth).contains(Square::E8));
        assert!(!Bitboard::rank(Rank::Eighth).contains(Square::E1));
    }
}
