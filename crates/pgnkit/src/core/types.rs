//! The small value types of the rules: colours, roles, pieces, files, ranks and squares.

use std::fmt;

/// The side a piece belongs to, or the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// White, who moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: an index into per-colour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour (also `!color`).
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

    /// `White` or `Black`, for messages.
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
    /// A pawn.
    Pawn = 0,
    /// A knight.
    Knight = 1,
    /// A bishop.
    Bishop = 2,
    /// A rook.
    Rook = 3,
    /// A queen.
    Queen = 4,
    /// A king.
    King = 5,
}

impl Role {
    /// Every role, pawn to king (the order of [`Role::index`]).
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

    /// 0 for pawns up to 5 for kings: an index into per-role tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role of index `i` (see [`Role::index`]).
    ///
    /// # Panics
    ///
    /// If `i` is 6 or more.
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

    /// English lower-case letter (`p` for pawns), as in FEN for Black's pieces.
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

    /// Lower-case English plural, for messages ("two knights").
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
    /// Whose piece it is.
    pub color: Color,
    /// What piece it is.
    pub role: Role,
}

impl Piece {
    /// The piece of `role` belonging to `color`.
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

    /// Reads a FEN letter: upper case for White, lower case for Black.
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
    /// The a-file (queen's rook's file).
    A = 0,
    /// The b-file.
    B,
    /// The c-file.
    C,
    /// The d-file (the queen's).
    D,
    /// The e-file (the king's).
    E,
    /// The f-file.
    F,
    /// The g-file.
    G,
    /// The h-file (king's rook's file).
    H,
}

impl File {
    /// Every file, a to h.
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

    /// Reads `a` to `h`.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new_masked(c as u8 - b'a')),
            _ => None,
        }
    }

    /// 0 for the a-file up to 7 for the h-file.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `a` to `h`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The file `delta` files to the right (towards h; left if negative), if on the board.
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
    /// Rank 1, White's back rank.
    First = 0,
    /// Rank 2, where White's pawns start.
    Second,
    /// Rank 3.
    Third,
    /// Rank 4.
    Fourth,
    /// Rank 5.
    Fifth,
    /// Rank 6.
    Sixth,
    /// Rank 7, where Black's pawns start.
    Seventh,
    /// Rank 8, Black's back rank.
    Eighth,
}

impl Rank {
    /// Every rank, 1 to 8.
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

    /// Reads `1` to `8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new_masked(c as u8 - b'1')),
            _ => None,
        }
    }

    /// 0 for rank 1 up to 7 for rank 8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `1` to `8`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }
}

/// One of the 64 squares; `A1 = 0`, `B1 = 1`, ..., `H8 = 63`.
///
/// ```
/// use pgnkit::{Color, File, Piece, Rank, Role, Square};
///
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::from_coords(File::E, Rank::Fourth));
/// assert_eq!((e4.file().char(), e4.rank().char(), e4.index()), ('e', '4', 28));
/// assert_eq!(Square::new(28), e4);
/// assert_eq!(e4.offset(1, 1), Some(Square::F5));
/// assert_eq!(Square::H8.offset(1, 0), None); // off the board
/// assert!(Square::D4.is_dark() && !e4.is_dark());
/// // Colours and roles.
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::Black.relative_rank(Rank::Second), Rank::Seventh);
/// assert_eq!(Piece::from_fen_char('n'), Some(Piece::new(Color::Black, Role::Knight)));
/// assert_eq!((Role::Knight.upper_char(), Role::Knight.name()), ('N', "knight"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// The square a1.
    pub const A1: Square = Square(0);
    /// The square b1.
    pub const B1: Square = Square(1);
    /// The square c1.
    pub const C1: Square = Square(2);
    /// The square d1.
    pub const D1: Square = Square(3);
    /// The square e1.
    pub const E1: Square = Square(4);
    /// The square f1.
    pub const F1: Square = Square(5);
    /// The square g1.
    pub const G1: Square = Square(6);
    /// The square h1.
    pub const H1: Square = Square(7);
    /// The square a2.
    pub const A2: Square = Square(8);
    /// The square b2.
    pub const B2: Square = Square(9);
    /// The square c2.
    pub const C2: Square = Square(10);
    /// The square d2.
    pub const D2: Square = Square(11);
    /// The square e2.
    pub const E2: Square = Square(12);
    /// The square f2.
    pub const F2: Square = Square(13);
    /// The square g2.
    pub const G2: Square = Square(14);
    /// The square h2.
    pub const H2: Square = Square(15);
    /// The square a3.
    pub const A3: Square = Square(16);
    /// The square b3.
    pub const B3: Square = Square(17);
    /// The square c3.
    pub const C3: Square = Square(18);
    /// The square d3.
    pub const D3: Square = Square(19);
    /// The square e3.
    pub const E3: Square = Square(20);
    /// The square f3.
    pub const F3: Square = Square(21);
    /// The square g3.
    pub const G3: Square = Square(22);
    /// The square h3.
    pub const H3: Square = Square(23);
    /// The square a4.
    pub const A4: Square = Square(24);
    /// The square b4.
    pub const B4: Square = Square(25);
    /// The square c4.
    pub const C4: Square = Square(26);
    /// The square d4.
    pub const D4: Square = Square(27);
    /// The square e4.
    pub const E4: Square = Square(28);
    /// The square f4.
    pub const F4: Square = Square(29);
    /// The square g4.
    pub const G4: Square = Square(30);
    /// The square h4.
    pub const H4: Square = Square(31);
    /// The square a5.
    pub const A5: Square = Square(32);
    /// The square b5.
    pub const B5: Square = Square(33);
    /// The square c5.
    pub const C5: Square = Square(34);
    /// The square d5.
    pub const D5: Square = Square(35);
    /// The square e5.
    pub const E5: Square = Square(36);
    /// The square f5.
    pub const F5: Square = Square(37);
    /// The square g5.
    pub const G5: Square = Square(38);
    /// The square h5.
    pub const H5: Square = Square(39);
    /// The square a6.
    pub const A6: Square = Square(40);
    /// The square b6.
    pub const B6: Square = Square(41);
    /// The square c6.
    pub const C6: Square = Square(42);
    /// The square d6.
    pub const D6: Square = Square(43);
    /// The square e6.
    pub const E6: Square = Square(44);
    /// The square f6.
    pub const F6: Square = Square(45);
    /// The square g6.
    pub const G6: Square = Square(46);
    /// The square h6.
    pub const H6: Square = Square(47);
    /// The square a7.
    pub const A7: Square = Square(48);
    /// The square b7.
    pub const B7: Square = Square(49);
    /// The square c7.
    pub const C7: Square = Square(50);
    /// The square d7.
    pub const D7: Square = Square(51);
    /// The square e7.
    pub const E7: Square = Square(52);
    /// The square f7.
    pub const F7: Square = Square(53);
    /// The square g7.
    pub const G7: Square = Square(54);
    /// The square h7.
    pub const H7: Square = Square(55);
    /// The square a8.
    pub const A8: Square = Square(56);
    /// The square b8.
    pub const B8: Square = Square(57);
    /// The square c8.
    pub const C8: Square = Square(58);
    /// The square d8.
    pub const D8: Square = Square(59);
    /// The square e8.
    pub const E8: Square = Square(60);
    /// The square f8.
    pub const F8: Square = Square(61);
    /// The square g8.
    pub const G8: Square = Square(62);
    /// The square h8.
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

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// 0 for a1 up to 63 for h8 (rank by rank).
    #[inline]
    pub const fn index(self) -> usize {
        // Always below 64 (the constructors see to it); the mask says so to the compiler, so a table indexed
        // by square needs no bounds check wherever it loses track of where the square came from.
        (self.0 & 63) as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File::new_masked(self.0)
    }

    /// The square's rank.
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

    /// Every square, a1 to h8 rank by rank.
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
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// The value of `color`.
    #[inline]
    pub fn get(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The value of `color`, mutable.
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
