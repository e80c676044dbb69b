//! The small value types of the rules: colours, roles, pieces, files, ranks and squares.

use std::fmt;

/// The side a piece belongs to, or the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The rank (0-based from White's side) where this side's pieces start.
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// Rank relative to this side: `relative_rank(Rank::Second)` is rank 7 for Black.
    #[inline]
    pub const fn relative_rank(self, rank: Rank) -> Rank {
        match self {
            Color::White => rank,
            Color::Black => Rank::new_masked(7 - rank as u8),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// `w` or `b`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opposite()
    }
}

/// What a piece is, regardless of its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// English upper-case letter (`P` for pawns), as in FEN and English SAN.
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    pub const fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// Reads an English piece letter in either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// Lower-case English name, for messages ("no knight can reach f3").
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    pub const fn plural(self) -> &'static str {
        match self {
            Role::Pawn => "pawns",
            Role::Knight => "knights",
            Role::Bishop => "bishops",
            Role::Rook => "rooks",
            Role::Queen => "queens",
            Role::King => "kings",
        }
    }
}

/// A coloured piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for White.
    pub const fn fen_char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.lower_char(),
        }
    }

    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

/// A column of the board, `a` to `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file of index `i` (0 is the a-file).
    ///
    /// # Panics
    ///
    /// If `i` is 8 or more.
    #[inline]
    pub const fn new(i: u8) -> File {
        assert!(i < 8, "a file index is below 8");
        File::ALL[i as usize]
    }

    /// The file of `i`'s three low bits: for indices below 8 by construction (a square's bits), where a
    /// check would only cost a branch.
    #[inline]
    pub(crate) const fn new_masked(i: u8) -> File {
        File::ALL[(i & 7) as usize]
    }

    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new_masked(c as u8 - b'a')),
            _ => None,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    pub const fn offset(self, delta: i8) -> Option<File> {
        let f = self as i8 + delta;
        if f >= 0 && f < 8 {
            Some(File::new_masked(f as u8))
        } else {
            None
        }
    }
}

/// A row of the board, `1` to `8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank of index `i` (0 is the first rank, White's back rank).
    ///
    /// # Panics
    ///
    /// If `i` is 8 or more.
    #[inline]
    pub const fn new(i: u8) -> Rank {
        assert!(i < 8, "a rank index is below 8");
        Rank::ALL[i as usize]
    }

    /// The rank of `i`'s three low bits: for indices below 8 by construction (a square's bits), where a
    /// check would only cost a branch.
    #[inline]
    pub(crate) const fn new_masked(i: u8) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }

    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new_masked(c as u8 - b'1')),
            _ => None,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }
}

/// One of the 64 squares; `A1 = 0`, `B1 = 1`, ..., `H8 = 63`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A2: Square = Square(8);
    pub const B2: Square = Square(9);
    pub const C2: Square = Square(10);
    pub const D2: Square = Square(11);
    pub const E2: Square = Square(12);
    pub const F2: Square = Square(13);
    pub const G2: Square = Square(14);
    pub const H2: Square = Square(15);
    pub const A3: Square = Square(16);
    pub const B3: Square = Square(17);
    pub const C3: Square = Square(18);
    pub const D3: Square = Square(19);
    pub const E3: Square = Square(20);
    pub const F3: Square = Square(21);
    pub const G3: Square = Square(22);
    pub const H3: Square = Square(23);
    pub const A4: Square = Square(24);
    pub const B4: Square = Square(25);
    pub const C4: Square = Square(26);
    pub const D4: Square = Square(27);
    pub const E4: Square = Square(28);
    pub const F4: Square = Square(29);
    pub const G4: Square = Square(30);
    pub const H4: Square = Square(31);
    pub const A5: Square = Square(32);
    pub const B5: Square = Square(33);
    pub const C5: Square = Square(34);
    pub const D5: Square = Square(35);
    pub const E5: Square = Square(36);
    pub const F5: Square = Square(37);
    pub const G5: Square = Square(38);
    pub const H5: Square = Square(39);
    pub const A6: Square = Square(40);
    pub const B6: Square = Square(41);
    pub const C6: Square = Square(42);
    pub const D6: Square = Square(43);
    pub const E6: Square = Square(44);
    pub const F6: Square = Square(45);
    pub const G6: Square = Square(46);
    pub const H6: Square = Square(47);
    pub const A7: Square = Square(48);
    pub const B7: Square = Square(49);
    pub const C7: Square = Square(50);
    pub const D7: Square = Square(51);
    pub const E7: Square = Square(52);
    pub const F7: Square = Square(53);
    pub const G7: Square = Square(54);
    pub const H7: Square = Square(55);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);

    /// The square of index `i` (`A1 = 0`, `B1 = 1`, ..., `H8 = 63`).
    ///
    /// # Panics
    ///
    /// If `i` is 64 or more.
    #[inline]
    pub const fn new(i: u8) -> Square {
        assert!(i < 64, "a square index is below 64");
        Square(i)
    }

    /// The square of `i`'s six low bits: for indices below 64 by construction (bit scans, pawn steps inside
    /// the board) on the hot paths of move generation, where a check would only cost a branch.
    #[inline]
    pub(crate) const fn new_masked(i: u8) -> Square {
        Square(i & 63)
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File::new_masked(self.0)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new_masked(self.0 >> 3)
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 & 7) as i8 + df;
        let r = (self.0 >> 3) as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// The same square seen from the other side (rank mirrored).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// True for the dark squares (a1 is dark).
    #[inline]
    pub const fn is_dark(self) -> bool {
        ((self.0 >> 3) + (self.0 & 7)).is_multiple_of(2)
    }

    /// Reads `e4`-style coordinates.
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f, r] => Some(Square::from_coords(
                File::from_char(*f as char)?,
                Rank::from_char(*r as char)?,
            )),
            _ => None,
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }

    /// Distance in king moves.
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.0 & 7).abs_diff(other.0 & 7);
        let dr = (self.0 >> 3).abs_diff(other.0 >> 3);
        if df > dr { df } else { dr }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        Square::from_ascii(s.as_bytes()).ok_or(())
    }
}

/// A value per colour, indexed by [`Color`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByColor<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColor<T> {
    #[inline]
    pub fn get(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    #[inline]
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::E1.to_string(), "e1");
        assert_eq!("h8".parse::<Square>(), Ok(Square::H8));
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
    }

    #[test]
    fn indices_out_of_range_are_refused_not_wrapped() {
        assert_eq!(Square::new(63), Square::H8);
        assert!(std::panic::catch_unwind(|| Square::new(64)).is_err());
        assert!(std::panic::catch_unwind(|| File::new(8)).is_err());
        assert!(std::panic::catch_unwind(|| Rank::new(8)).is_err());
        // The crate's own masking constructors keep the low bits.
        assert_eq!(Square::new_masked(64), Square::A1);
        assert_eq!(File::new_masked(9), File::B);
    }

    #[test]
    fn square_colours_and_offsets() {
        assert!(Square::A1.is_dark());
        assert!(!Square::H1.is_dark());
        assert!(Square::H8.is_dark());
        assert_eq!(Square::A1.offset(-1, 0), None);
        assert_eq!(
            Square::A1.offset(1, 1).map(|s| s.to_string()),
            Some("b2".into())
        );
        assert_eq!(Square::E1.flip_vertical(), Square::E8);
        assert_eq!(Square::A1.distance(Square::H8), 7);
    }

    #[test]
    fn relative_ranks() {
        assert_eq!(Color::Black.relative_rank(Rank::Second), Rank::Seventh);
        assert_eq!(Color::White.relative_rank(Rank::Second), Rank::Second);
        assert_eq!(Color::Black.back_rank(), Rank::Eighth);
    }

    #[test]
    fn fen_letters() {
        assert_eq!(
            Piece::from_fen_char('n'),
            Some(Piece::new(Color::Black, Role::Knight))
        );
        assert_eq!(
            Piece::from_fen_char('K'),
            Some(Piece::new(Color::White, Role::King))
        );
        assert_eq!(Piece::from_fen_char('x'), None);
        for role in Role::ALL {
            assert_eq!(Role::from_char(role.upper_char()), Some(role));
        }
    }
}
