//! Standard Algebraic Notation: the language-free syntax value ([`San`], [`SanPlus`]), its parser (any
//! [`Language`]'s piece letters, with the leniencies real files need) and its writer (canonical SAN in any
//! language or in figurines). Resolving a [`San`] against a position lives in [`super::resolve`].
//!
//! # What the parser accepts
//!
//! `[piece] [from-file] [from-rank] [x|:|-] to-square [[=] promotion] [e.p.] [+|#|++] [!|?|!!|??|!?|?!]`,
//! castling `O-O` / `O-O-O` (or with zeros), and the null moves `--` and `Z0`. The check mark, the `e.p.`
//! suffix and the annotation may come in any order. Capital letters (or figurines, for [`Language::Figurine`])
//! denote pieces — English `bxc3` is a pawn capture, `Bxc3` a bishop's; a lower-case letter is a piece only where
//! it cannot be a file (`nf3`, French `tf1`), and the promotion piece may be lower case. Every departure from strict SAN is recorded as a [`Leniency`]:
//!
//! | written | leniency | decided |
//! | --- | --- | --- |
//! | `0-0`, `0-0-0` | [`Leniency::CastlingZeros`] | parse |
//! | `exd6e.p.`, `exd6ep` | [`Leniency::EnPassantSuffix`] | parse |
//! | `e8Q` | [`Leniency::PromotionWithoutEquals`] | parse |
//! | `e8=q` | [`Leniency::LowercasePromotion`] | parse |
//! | `Nf3++` | [`Leniency::DoublePlusMate`] | parse |
//! | `Pe4` (explicit pawn letter) | [`Leniency::PawnLetter`] | parse |
//! | `Nf3:e5`, `N:e5` | [`Leniency::ColonCapture`] | parse |
//! | `e2-e4`, `Ng1-f3`, `e4xd5` | [`Leniency::LongAlgebraic`] | parse (`-`, a pawn's origin square) or resolution (`Ng1f3`, `Nf3xe5`) |
//! | `Nge2` with one knight able to go | [`Leniency::OverDisambiguated`] | resolution |
//! | `Nf3e5` / `ed5` onto a piece | [`Leniency::MissingCapture`] | resolution |
//! | `Nxe5` onto an empty square | [`Leniency::SpuriousCapture`] | resolution |
//! | `xd5` (pawn capture without its file) | [`Leniency::MissingPawnFile`] | resolution |
//! | no `+` on a check, `+` on a quiet move, `+`/`#` swapped | `MissingCheckMark` / `SpuriousCheckMark` / `WrongCheckMark` | [`SanPlus::mark_leniencies`] |
//! | `nf3`, `qd1`, `rd1` (a lower-case piece letter that is no file letter) | [`Leniency::LowercasePieceLetter`] | parse |
//! | `e2e4`, `g1f3`, `e7e8q`, `e1g1` (coordinates only: the piece on the origin square moves) | [`Leniency::CoordinateMove`] | parse (the shape), resolution (a piece other than a pawn, castling) |
//! | `g1-f3`, `e1-g1`, `f3xe5` (a separator, no piece letter, a piece on the origin square) | [`Leniency::CoordinateMove`] | resolution, when the pawn's reading fails |
//! | `e8(Q)` | [`Leniency::ParenthesizedPromotion`] | parse |
//!
//! A pawn capture may omit the `x` (`ed5`, as python-chess reads it): a pawn token whose from-file differs from
//! its target file is a capture. A pawn token with no file and no `x` is a push. A pawn reaching the last rank
//! without a promotion piece is illegal (python-chess agrees), not silently made a queen.

use std::fmt;

use super::lang::{Language, figurine_at};
use crate::core::{File, Move, Position, Rank, Role, Square};

/// Which way to castle (defined with castling's geometry in [`crate::core`]).
pub use crate::core::CastlingSide;

impl CastlingSide {
    /// The castling as SAN writes it: `O-O` or `O-O-O`.
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::King => "O-O",
            CastlingSide::Queen => "O-O-O",
        }
    }
}

/// A move as SAN writes it, independent of the language of its piece letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The moving piece (a pawn when no letter was written).
        role: Role,
        /// Disambiguation (or the long-algebraic origin): the moving piece's file...
        file: Option<File>,
        /// ...its rank, or both.
        rank: Option<Rank>,
        /// An `x` (or `:`) was written.
        capture: bool,
        /// The destination square.
        to: Square,
        /// The piece a pawn promotes to.
        promotion: Option<Role>,
    },
    /// Castling.
    Castle(CastlingSide),
    /// `--` or `Z0`: a pass, allowed in PGN annotations but no chess move.
    Null,
}

/// `+` (check) or `#` (mate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckMark {
    /// `+`
    Check,
    /// `#`
    Mate,
}

impl CheckMark {
    /// The mark as written.
    pub const fn as_str(self) -> &'static str {
        match self {
            CheckMark::Check => "+",
            CheckMark::Mate => "#",
        }
    }

    /// The leniency of a `written` mark (or of none) on a move that deserves `deserved`.
    pub fn judge(written: Option<CheckMark>, deserved: Option<CheckMark>) -> Leniencies {
        match (written, deserved) {
            (a, b) if a == b => Leniencies::NONE,
            (None, Some(_)) => Leniency::MissingCheckMark.into(),
            (Some(_), None) => Leniency::SpuriousCheckMark.into(),
            _ => Leniency::WrongCheckMark.into(),
        }
    }

    /// The mark a move deserves, given the position after it.
    pub fn after(pos: &Position) -> Option<CheckMark> {
        if !pos.is_check() {
            None
        } else if pos.has_legal_move() {
            Some(CheckMark::Check)
        } else {
            Some(CheckMark::Mate)
        }
    }
}

/// A move-quality suffix glued to the move (`!`, `?`, ...), equivalent to the NAGs `$1` to `$6`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Annotation {
    /// `!` ($1)
    Good,
    /// `?` ($2)
    Mistake,
    /// `!!` ($3)
    Brilliant,
    /// `??` ($4)
    Blunder,
    /// `!?` ($5)
    Speculative,
    /// `?!` ($6)
    Dubious,
}

impl Annotation {
    /// The NAG with the same meaning, `$1` to `$6`.
    pub const fn nag(self) -> u8 {
        self as u8 + 1
    }

    /// The suffix as written.
    pub const fn as_str(self) -> &'static str {
        match self {
            Annotation::Good => "!",
            Annotation::Mistake => "?",
            Annotation::Brilliant => "!!",
            Annotation::Blunder => "??",
            Annotation::Speculative => "!?",
            Annotation::Dubious => "?!",
        }
    }

    /// The suffix a NAG from `$1` to `$6` stands for.
    pub fn from_nag(nag: u8) -> Option<Annotation> {
        Some(match nag {
            1 => Annotation::Good,
            2 => Annotation::Mistake,
            3 => Annotation::Brilliant,
            4 => Annotation::Blunder,
            5 => Annotation::Speculative,
            6 => Annotation::Dubious,
            _ => return None,
        })
    }

    /// Reads a suffix as written after a move (`!`, `?!`...).
    pub fn from_suffix(s: &[u8]) -> Option<Annotation> {
        Some(match s {
            b"!" => Annotation::Good,
            b"?" => Annotation::Mistake,
            b"!!" => Annotation::Brilliant,
            b"??" => Annotation::Blunder,
            b"!?" => Annotation::Speculative,
            b"?!" => Annotation::Dubious,
            _ => return None,
        })
    }
}

/// One way a move token departs from strict SAN while still denoting exactly one legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Leniency {
    /// `0-0` / `0-0-0` written with zeros.
    CastlingZeros,
    /// An `e.p.` (or `ep`) suffix.
    EnPassantSuffix,
    /// A promotion without `=` (`e8Q`).
    PromotionWithoutEquals,
    /// A lower-case promotion piece (`e8=q`).
    LowercasePromotion,
    /// `++` for mate.
    DoublePlusMate,
    /// The pawn's letter written (`Pe4`).
    PawnLetter,
    /// `:` for a capture.
    ColonCapture,
    /// The origin square written in full where SAN needs less (`Ng1f3`, `e2-e4`, `Nf3xe5`).
    LongAlgebraic,
    /// A file or rank given where no other piece could go.
    OverDisambiguated,
    /// A capture without `x`.
    MissingCapture,
    /// An `x` on a move that captures nothing.
    SpuriousCapture,
    /// A pawn capture without the pawn's file (`xd5`).
    MissingPawnFile,
    /// A check or mate without `+` or `#`.
    MissingCheckMark,
    /// `+` or `#` on a move that gives no check.
    SpuriousCheckMark,
    /// `+` on a mate or `#` on a mere check.
    WrongCheckMark,
    /// A piece letter in lower case (`nf3`; not `b`, which is a pawn's file, nor any other file letter).
    LowercasePieceLetter,
    /// The move in coordinates, origin and destination squares and nothing else (`e2e4`, `g1f3`, `e7e8q`,
    /// `e1g1` for castling), as UCI writes it; or with a separator and no piece letter where a piece stands on
    /// the origin square (`g1-f3`, `e1-g1`).
    CoordinateMove,
    /// The promotion piece in parentheses (`e8(Q)`).
    ParenthesizedPromotion,
}

impl Leniency {
    /// Every leniency, in declaration order.
    pub const ALL: [Leniency; 18] = [
        Leniency::CastlingZeros,
        Leniency::EnPassantSuffix,
        Leniency::PromotionWithoutEquals,
        Leniency::LowercasePromotion,
        Leniency::DoublePlusMate,
        Leniency::PawnLetter,
        Leniency::ColonCapture,
        Leniency::LongAlgebraic,
        Leniency::OverDisambiguated,
        Leniency::MissingCapture,
        Leniency::SpuriousCapture,
        Leniency::MissingPawnFile,
        Leniency::MissingCheckMark,
        Leniency::SpuriousCheckMark,
        Leniency::WrongCheckMark,
        Leniency::LowercasePieceLetter,
        Leniency::CoordinateMove,
        Leniency::ParenthesizedPromotion,
    ];

    /// A short name for reports and JSON (`castling-zeros`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Leniency::CastlingZeros => "castling-zeros",
            Leniency::EnPassantSuffix => "en-passant-suffix",
            Leniency::PromotionWithoutEquals => "promotion-without-equals",
            Leniency::LowercasePromotion => "lowercase-promotion",
            Leniency::DoublePlusMate => "double-plus-mate",
            Leniency::PawnLetter => "pawn-letter",
            Leniency::ColonCapture => "colon-capture",
            Leniency::LongAlgebraic => "long-algebraic",
            Leniency::OverDisambiguated => "over-disambiguated",
            Leniency::MissingCapture => "missing-capture",
            Leniency::SpuriousCapture => "spurious-capture",
            Leniency::MissingPawnFile => "missing-pawn-file",
            Leniency::MissingCheckMark => "missing-check-mark",
            Leniency::SpuriousCheckMark => "spurious-check-mark",
            Leniency::WrongCheckMark => "wrong-check-mark",
            Leniency::LowercasePieceLetter => "lowercase-piece-letter",
            Leniency::CoordinateMove => "coordinate-move",
            Leniency::ParenthesizedPromotion => "parenthesized-promotion",
        }
    }
}

impl fmt::Display for Leniency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Leniency::CastlingZeros => "castling written with zeros",
            Leniency::EnPassantSuffix => "'e.p.' suffix",
            Leniency::PromotionWithoutEquals => "promotion without '='",
            Leniency::LowercasePromotion => "lower-case promotion piece",
            Leniency::DoublePlusMate => "'++' for mate",
            Leniency::PawnLetter => "pawn letter written",
            Leniency::ColonCapture => "':' for a capture",
            Leniency::LongAlgebraic => "long algebraic notation (origin square written)",
            Leniency::OverDisambiguated => "unneeded disambiguation",
            Leniency::MissingCapture => "capture without 'x'",
            Leniency::SpuriousCapture => "'x' on a move that captures nothing",
            Leniency::MissingPawnFile => "pawn capture without the pawn's file",
            Leniency::MissingCheckMark => "check or mate not marked",
            Leniency::SpuriousCheckMark => "check mark on a move that gives no check",
            Leniency::WrongCheckMark => "'+' and '#' confused",
            Leniency::LowercasePieceLetter => "lower-case piece letter",
            Leniency::CoordinateMove => "move written in coordinates",
            Leniency::ParenthesizedPromotion => "promotion piece in parentheses",
        })
    }
}

/// A set of [`Leniency`] values.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Leniencies(u32);

impl Leniencies {
    /// The empty set: strict SAN.
    pub const NONE: Leniencies = Leniencies(0);

    /// This set and `l`.
    #[inline]
    pub const fn with(self, l: Leniency) -> Leniencies {
        Leniencies(self.0 | 1 << l as u8)
    }

    /// This set without `l`.
    #[inline]
    pub const fn without(self, l: Leniency) -> Leniencies {
        Leniencies(self.0 & !(1 << l as u8))
    }

    /// Adds `l`.
    #[inline]
    pub fn insert(&mut self, l: Leniency) {
        *self = self.with(l);
    }

    /// Whether `l` is in the set.
    #[inline]
    pub const fn contains(self, l: Leniency) -> bool {
        self.0 & (1 << l as u8) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a leniency.
    #[inline]
    pub const fn intersects(self, other: Leniencies) -> bool {
        self.0 & other.0 != 0
    }

    /// The leniencies of both sets.
    #[inline]
    pub const fn union(self, other: Leniencies) -> Leniencies {
        Leniencies(self.0 | other.0)
    }

    /// The leniencies of the set, in the order of [`Leniency::ALL`].
    pub fn iter(self) -> impl Iterator<Item = Leniency> {
        Leniency::ALL.into_iter().filter(move |l| self.contains(*l))
    }
}

impl std::ops::BitOr for Leniencies {
    type Output = Leniencies;
    fn bitor(self, rhs: Leniencies) -> Leniencies {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for Leniencies {
    fn bitor_assign(&mut self, rhs: Leniencies) {
        *self = self.union(rhs);
    }
}

impl From<Leniency> for Leniencies {
    fn from(l: Leniency) -> Leniencies {
        Leniencies::NONE.with(l)
    }
}

impl fmt::Debug for Leniencies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// A move token as written: the move, its check mark and glued annotation, and the leniencies its syntax
/// needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// The check or mate mark written, if any (not checked against the position: see
    /// [`SanPlus::mark_leniencies`]).
    pub mark: Option<CheckMark>,
    /// A suffix annotation glued to the move.
    pub annotation: Option<Annotation>,
    /// Where the token's syntax departed from strict SAN.
    pub leniencies: Leniencies,
}

/// What is wrong with a move token's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// Nothing (or only suffixes) to read.
    Empty,
    /// A capital letter or figurine that is no piece in the language.
    UnknownPiece {
        /// The letter.
        letter: char,
        /// The language the token was read in.
        lang: Language,
    },
    /// A byte that does not belong here.
    Unexpected(u8),
    /// The token ends before the destination square is complete.
    MissingDestination,
    /// `-` needs the full origin square (`e2-e4`, `Ng1-f3`).
    IncompleteOrigin,
    /// `=` not followed by a piece letter.
    MissingPromotion,
    /// Promotion to a king or a pawn.
    BadPromotion(Role),
    /// A promotion written after a piece move (`Nf3=Q`).
    PieceCannotPromote(Role),
    /// Something that starts like castling but is not `O-O`/`O-O-O`/`0-0`/`0-0-0`.
    BadCastling,
}

/// A syntax error at a byte offset of the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong.
    pub kind: SyntaxErrorKind,
    /// Where, in bytes from the token's start.
    pub offset: usize,
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SyntaxErrorKind::Empty => write!(f, "empty move"),
            SyntaxErrorKind::UnknownPiece { letter, lang } => {
                write!(f, "'{letter}' is not a piece letter in {}", lang.name())
            }
            SyntaxErrorKind::Unexpected(b) if b.is_ascii_graphic() => {
                write!(f, "unexpected '{}'", b as char)
            }
            SyntaxErrorKind::Unexpected(b) => write!(f, "unexpected byte 0x{b:02x}"),
            SyntaxErrorKind::MissingDestination => write!(f, "the destination square is missing"),
            SyntaxErrorKind::IncompleteOrigin => {
                write!(f, "'-' needs the full origin square (like e2-e4)")
            }
            SyntaxErrorKind::MissingPromotion => write!(f, "'=' must be followed by a piece"),
            SyntaxErrorKind::BadPromotion(role) => {
                write!(f, "a pawn cannot promote to a {}", role.name())
            }
            SyntaxErrorKind::PieceCannotPromote(role) => {
                write!(f, "only pawns promote, not a {}", role.name())
            }
            SyntaxErrorKind::BadCastling => write!(f, "castling is written O-O or O-O-O"),
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.kind, self.offset)
    }
}

impl std::error::Error for SyntaxError {}

#[inline]
fn file_of(b: u8) -> Option<File> {
    (b'a'..=b'h').contains(&b).then(|| File::new(b - b'a'))
}

#[inline]
fn rank_of(b: u8) -> Option<Rank> {
    (b'1'..=b'8').contains(&b).then(|| Rank::new(b - b'1'))
}

/// The character a (valid UTF-8) byte string starts with.
fn first_char(bytes: &[u8]) -> char {
    let len = bytes.len().min(4);
    (1..=len)
        .find_map(|n| std::str::from_utf8(&bytes[..n]).ok())
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Splits the check mark, `e.p.` (or `ep`) and annotation suffixes (in any order) off the end of a token.
#[inline]
fn strip_suffixes<'a>(
    mut body: &'a [u8],
    leniencies: &mut Leniencies,
) -> (&'a [u8], Option<CheckMark>, Option<Annotation>) {
    let mut mark = None;
    let mut annotation = None;
    let mut ep = false;
    loop {
        match body {
            [.., b'!' | b'?'] if annotation.is_none() => {
                // Every one- or two-character combination of `!` and `?` is an annotation.
                let n = body.len();
                let len = if n >= 2 && matches!(body[n - 2], b'!' | b'?') {
                    2
                } else {
                    1
                };
                annotation = Annotation::from_suffix(&body[n - len..]);
                body = &body[..n - len];
            }
            [rest @ .., b'+', b'+'] if mark.is_none() => {
                mark = Some(CheckMark::Mate);
                leniencies.insert(Leniency::DoublePlusMate);
                body = rest;
            }
            [rest @ .., b'+'] if mark.is_none() => {
                mark = Some(CheckMark::Check);
                body = rest;
            }
            [rest @ .., b'#'] if mark.is_none() => {
                mark = Some(CheckMark::Mate);
                body = rest;
            }
            [rest @ .., b'e', b'.', b'p', b'.'] | [rest @ .., b'e', b'p'] if !ep => {
                ep = true;
                leniencies.insert(Leniency::EnPassantSuffix);
                body = rest;
            }
            _ => return (body, mark, annotation),
        }
    }
}

impl SanPlus {
    /// Reads a move token in `lang`'s piece letters. Never allocates.
    ///
    /// ```
    /// use pgnkit::notation::{Language, San, SanPlus};
    /// use pgnkit::{Position, Role};
    /// // French C (cavalier) is the English N: the same move.
    /// let french = SanPlus::parse(b"Cf3", Language::Fr).unwrap();
    /// assert_eq!(french, SanPlus::parse(b"Nf3", Language::En).unwrap());
    /// // R is the French king (roi), the English rook.
    /// let role = |token: &[u8], lang| match SanPlus::parse(token, lang).unwrap().san {
    ///     San::Normal { role, .. } => role,
    ///     other => panic!("{other:?}"),
    /// };
    /// assert_eq!(role(b"Rf1", Language::Fr), Role::King);
    /// assert_eq!(role(b"Rf1", Language::En), Role::Rook);
    /// // In a position, the move it denotes, written again in English.
    /// let pos = Position::new();
    /// let mv = french.san.to_move(&pos).unwrap();
    /// assert_eq!(SanPlus::from_move(&pos, &mv).display(Language::En).to_string(), "Nf3");
    /// // C is no piece letter in English.
    /// assert!(SanPlus::parse(b"Cf3", Language::En).is_err());
    /// ```
    #[inline]
    pub fn parse(token: &[u8], lang: Language) -> Result<SanPlus, SyntaxError> {
        match parse_plain(token, lang) {
            Some(plain) => Ok(plain),
            None => SanPlus::parse_general(token, lang),
        }
    }

    /// The token if it has one of the shapes nearly every real move has (`e4`, `exd5`, `Nf3`, `Nbd7`, `Rfxd1`,
    /// with an optional `+`/`#`) in strict SAN; `None` for anything else (castling, promotions, figurines,
    /// annotations, leniencies, errors), which [`SanPlus::parse`] reads.
    #[inline(always)]
    pub fn parse_strict(token: &[u8], lang: Language) -> Option<SanPlus> {
        parse_plain(token, lang)
    }

    /// Everything [`parse_plain`] leaves: castling, promotions, figurines, annotations, leniencies, errors.
    #[inline(never)]
    fn parse_general(token: &[u8], lang: Language) -> Result<SanPlus, SyntaxError> {
        let mut leniencies = Leniencies::NONE;
        let (body, mark, annotation) = strip_suffixes(token, &mut leniencies);
        let san = parse_body(body, lang, &mut leniencies)?;
        Ok(SanPlus {
            san,
            mark,
            annotation,
            leniencies,
        })
    }

    /// Reads an English move token.
    pub fn from_ascii(token: &[u8]) -> Result<SanPlus, SyntaxError> {
        SanPlus::parse(token, Language::En)
    }

    /// The leniencies of the check mark, given the position after the move (see [`CheckMark::after`]).
    pub fn mark_leniencies(&self, after: &Position) -> Leniencies {
        CheckMark::judge(self.mark, CheckMark::after(after))
    }

    /// The canonical token of a legal move: minimal SAN with its check mark (no annotation).
    pub fn from_move(pos: &Position, m: &Move) -> SanPlus {
        SanPlus {
            san: San::from_move(pos, m),
            mark: CheckMark::after(&pos.after_unchecked(*m)),
            annotation: None,
            leniencies: Leniencies::NONE,
        }
    }

    /// Like [`SanPlus::from_move`], also playing the move on `pos` (saves a copy when converting a game).
    pub fn from_move_and_play(pos: &mut Position, m: &Move) -> SanPlus {
        let san = San::from_move(pos, m);
        pos.play_unchecked(*m);
        SanPlus {
            san,
            mark: CheckMark::after(pos),
            annotation: None,
            leniencies: Leniencies::NONE,
        }
    }

    /// Writes the move in `lang` with its check mark and annotation (leniencies are not reproduced).
    pub fn display(&self, lang: Language) -> SanPlusDisplay<'_> {
        SanPlusDisplay { san: self, lang }
    }
}

impl std::str::FromStr for SanPlus {
    type Err = SyntaxError;
    fn from_str(s: &str) -> Result<SanPlus, SyntaxError> {
        SanPlus::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display(Language::En).fmt(f)
    }
}

/// The shapes that make up nearly every real move (`e4`, `exd5`, `Nf3`, `Nxe5`, `Nbd7`, `R1e2`, `Rfxd1`, with
/// an optional `+`/`#`) in strict SAN, read without the general parser's suffix loop; anything else (castling,
/// promotion, figurines, annotations, leniencies) returns `None` and takes the general path.
#[inline(always)]
fn parse_plain(token: &[u8], lang: Language) -> Option<SanPlus> {
    let (body, mark) = match token {
        [rest @ .., b'+'] => (rest, Some(CheckMark::Check)),
        [rest @ .., b'#'] => (rest, Some(CheckMark::Mate)),
        _ => (token, None),
    };
    // The destination is always the last two bytes.
    let [.., f, r] = *body else {
        return None;
    };
    let (to_file, to_rank) = (f.wrapping_sub(b'a'), r.wrapping_sub(b'1'));
    if to_file > 7 || to_rank > 7 {
        return None;
    }
    let to = Square::new_masked(to_rank * 8 + to_file);
    let piece = |p: u8| lang.role_of_byte(p).filter(|&r| r != Role::Pawn);
    let hint = |h: u8| {
        let (file, rank) = (h.wrapping_sub(b'a'), h.wrapping_sub(b'1'));
        if file < 8 {
            Some((Some(File::new(file)), None))
        } else if rank < 8 {
            Some((None, Some(Rank::new(rank))))
        } else {
            None
        }
    };
    let (role, file, rank, capture) = match *body {
        [_, _] => (Role::Pawn, None, None, false),
        [p, _, _] => (piece(p)?, None, None, false),
        [p, b'x', _, _] if p.is_ascii_uppercase() => (piece(p)?, None, None, true),
        [pf, b'x', _, _] => {
            let from_file = pf.wrapping_sub(b'a');
            // A pawn captures diagonally forward; anything else goes to the general path for its message.
            if from_file > 7 || from_file.abs_diff(to_file) != 1 {
                return None;
            }
            (Role::Pawn, Some(File::new(from_file)), None, true)
        }
        [p, h, _, _] => {
            let (file, rank) = hint(h)?;
            (piece(p)?, file, rank, false)
        }
        [p, h, b'x', _, _] => {
            let (file, rank) = hint(h)?;
            (piece(p)?, file, rank, true)
        }
        _ => return None,
    };
    Some(SanPlus {
        san: San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: None,
        },
        mark,
        annotation: None,
        leniencies: Leniencies::NONE,
    })
}

fn parse_body(body: &[u8], lang: Language, lenient: &mut Leniencies) -> Result<San, SyntaxError> {
    let err = |kind, offset| Err(SyntaxError { kind, offset });
    match body {
        [] => return err(SyntaxErrorKind::Empty, 0),
        b"O-O" => return Ok(San::Castle(CastlingSide::King)),
        b"O-O-O" => return Ok(San::Castle(CastlingSide::Queen)),
        b"0-0" | b"0-0-0" => {
            lenient.insert(Leniency::CastlingZeros);
            return Ok(San::Castle(if body.len() == 3 {
                CastlingSide::King
            } else {
                CastlingSide::Queen
            }));
        }
        b"--" | b"Z0" => return Ok(San::Null),
        [b'0', ..] | [b'O', b'-', ..] => return err(SyntaxErrorKind::BadCastling, 0),
        _ => {}
    }

    // The piece.
    let (role, mut i) = if let Some(role) = figurine_at(body) {
        if lang != Language::Figurine {
            let letter = first_char(body);
            return err(SyntaxErrorKind::UnknownPiece { letter, lang }, 0);
        }
        (role, 3)
    } else if body[0].is_ascii_uppercase() {
        match lang.role_of_byte(body[0]) {
            Some(role) => (role, 1),
            None => {
                let letter = body[0] as char;
                return err(SyntaxErrorKind::UnknownPiece { letter, lang }, 0);
            }
        }
    } else if let Some(role) = lowercase_piece(body[0], lang) {
        lenient.insert(Leniency::LowercasePieceLetter);
        (role, 1)
    } else {
        (Role::Pawn, 0)
    };
    if role == Role::Pawn && i > 0 {
        lenient.insert(Leniency::PawnLetter);
    }
    let lettered = i > 0;

    // Squares: [file][rank][separator][file rank].
    let at = |i: usize| body.get(i).copied().unwrap_or(0);
    let file1 = file_of(at(i));
    if file1.is_some() {
        i += 1;
    }
    let rank1 = rank_of(at(i));
    if rank1.is_some() {
        i += 1;
    }
    let separator = match at(i) {
        b @ (b'x' | b':' | b'-') => {
            i += 1;
            Some(b)
        }
        _ => None,
    };
    let (file, rank, to) = match (file_of(at(i)), rank_of(at(i + 1))) {
        (Some(f), Some(r)) => {
            i += 2;
            (file1, rank1, Square::from_coords(f, r))
        }
        _ if separator.is_some() => {
            let offset = if file_of(at(i)).is_some() { i + 1 } else { i };
            return err(SyntaxErrorKind::MissingDestination, offset);
        }
        _ => match (file1, rank1) {
            (Some(f), Some(r)) => (None, None, Square::from_coords(f, r)),
            _ => return err(SyntaxErrorKind::MissingDestination, i),
        },
    };
    match separator {
        Some(b'-') => {
            if file.is_none() || rank.is_none() {
                return err(SyntaxErrorKind::IncompleteOrigin, i - 3);
            }
            lenient.insert(Leniency::LongAlgebraic);
        }
        Some(b':') => lenient.insert(Leniency::ColonCapture),
        _ => {}
    }
    // `e4xd5`: a pawn never needs its rank, so this is long algebraic whatever the position (a piece's
    // `Nf3xe5` is judged at resolution, against the other knights); the piece on the origin square decides.
    if !lettered && file.is_some() && rank.is_some() && matches!(separator, Some(b'x' | b':')) {
        lenient.insert(Leniency::LongAlgebraic);
    }
    let capture = matches!(separator, Some(b'x' | b':'));

    // Promotion: `=Q`, `Q`, `=q`, `q`, `(Q)`, or a figurine.
    let mut promotion = None;
    if i < body.len() {
        let equals = body[i] == b'=';
        let parenthesized = matches!(body[i..], [b'(', _, b')']);
        let start = i + usize::from(equals || parenthesized);
        let rest = &body[start..];
        let (promoted, len) = if let Some(r) = figurine_at(rest) {
            if lang != Language::Figurine {
                let letter = first_char(rest);
                return err(SyntaxErrorKind::UnknownPiece { letter, lang }, start);
            }
            (r, 3)
        } else {
            match rest.first() {
                Some(&b) if b.is_ascii_alphabetic() => {
                    match lang.role_of_byte(b.to_ascii_uppercase()) {
                        Some(r) => {
                            if b.is_ascii_lowercase() {
                                lenient.insert(Leniency::LowercasePromotion);
                            }
                            (r, 1)
                        }
                        None if equals || b.is_ascii_uppercase() => {
                            let letter = b as char;
                            return err(SyntaxErrorKind::UnknownPiece { letter, lang }, start);
                        }
                        None => return err(SyntaxErrorKind::Unexpected(b), start),
                    }
                }
                _ if equals => return err(SyntaxErrorKind::MissingPromotion, start),
                _ => return err(SyntaxErrorKind::Unexpected(body[i]), i),
            }
        };
        if matches!(promoted, Role::King | Role::Pawn) {
            return err(SyntaxErrorKind::BadPromotion(promoted), start);
        }
        if role != Role::Pawn {
            return err(SyntaxErrorKind::PieceCannotPromote(role), i);
        }
        if parenthesized {
            lenient.insert(Leniency::ParenthesizedPromotion);
        } else if !equals {
            lenient.insert(Leniency::PromotionWithoutEquals);
        }
        promotion = Some(promoted);
        i = start + len + usize::from(parenthesized);
    }
    // Origin and destination squares and nothing else: coordinates (UCI), whichever piece stands there.
    if !lettered
        && file.is_some()
        && rank.is_some()
        && separator.is_none()
        && body.len() == i
        && (promotion.is_none() || body.len() == 5)
    {
        lenient.insert(Leniency::CoordinateMove);
    }
    if i < body.len() {
        return err(SyntaxErrorKind::Unexpected(body[i]), i);
    }
    Ok(San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

/// The piece a lower-case letter names in `lang`, when it cannot be a file (`n` in English, `t` in French; never
/// `b`, `c`, `d`, `f`...) and names a piece other than the pawn.
fn lowercase_piece(b: u8, lang: Language) -> Option<Role> {
    if !b.is_ascii_lowercase() || file_of(b).is_some() {
        return None;
    }
    lang.role_of_byte(b.to_ascii_uppercase())
        .filter(|&r| r != Role::Pawn)
}

impl San {
    /// Reads a move token in `lang` (see [`SanPlus::parse`]), dropping its suffixes and leniencies.
    pub fn parse(token: &[u8], lang: Language) -> Result<San, SyntaxError> {
        SanPlus::parse(token, lang).map(|s| s.san)
    }

    /// Reads an English move token.
    pub fn from_ascii(token: &[u8]) -> Result<San, SyntaxError> {
        San::parse(token, Language::En)
    }

    /// Whether this is the null move `--`.
    pub fn is_null(&self) -> bool {
        *self == San::Null
    }

    /// Writes the move in `lang`'s letters (or figurines).
    pub fn display(&self, lang: Language) -> SanDisplay<'_> {
        SanDisplay { san: self, lang }
    }

    /// Appends the move in `lang`'s letters (or figurines) to `out`: the one writer behind [`San::display`], also
    /// called directly where moves are written by the million (no formatting machinery per move).
    pub fn push_to(&self, out: &mut String, lang: Language) {
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push(lang.letter(role));
                }
                if let Some(file) = file {
                    out.push(file.char());
                }
                if let Some(rank) = rank {
                    out.push(rank.char());
                }
                if capture {
                    out.push('x');
                }
                out.push(to.file().char());
                out.push(to.rank().char());
                if let Some(p) = promotion {
                    out.push('=');
                    out.push(lang.letter(p));
                }
            }
            San::Castle(side) => out.push_str(side.san()),
            San::Null => out.push_str("--"),
        }
    }

    fn write(&self, lang: Language, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(8);
        self.push_to(&mut text, lang);
        f.write_str(&text)
    }
}

impl std::str::FromStr for San {
    type Err = SyntaxError;
    fn from_str(s: &str) -> Result<San, SyntaxError> {
        San::from_ascii(s.as_bytes())
    }
}

/// [`San`] written in a language.
pub struct SanDisplay<'a> {
    san: &'a San,
    lang: Language,
}

impl fmt::Display for SanDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.san.write(self.lang, f)
    }
}

/// [`SanPlus`] written in a language.
pub struct SanPlusDisplay<'a> {
    san: &'a SanPlus,
    lang: Language,
}

impl fmt::Display for SanPlusDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.san.san.write(self.lang, f)?;
        if let Some(mark) = self.san.mark {
            f.write_str(mark.as_str())?;
        }
        if let Some(a) = self.san.annotation {
            f.write_str(a.as_str())?;
        }
        Ok(())
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(Language::En, f)
    }
}

/// Long algebraic notation (`Ng1-f3`, `e2-e4`, `Bb5xc6`, `e7-e8=Q`, `O-O`) of a move, in any language.
///
/// ```
/// use pgnkit::Position;
/// use pgnkit::notation::uci::to_uci;
/// use pgnkit::notation::{Language, SanPlus, lan};
/// let pos = Position::new();
/// let mv = SanPlus::parse(b"Nf3", Language::En).unwrap().san.to_move(&pos).unwrap();
/// assert_eq!(lan(&mv, Language::En).to_string(), "Ng1-f3");
/// assert_eq!(lan(&mv, Language::De).to_string(), "Sg1-f3");
/// assert_eq!(to_uci(&pos, &mv), "g1f3");
/// ```
pub fn lan(m: &Move, lang: Language) -> LanDisplay {
    LanDisplay { m: *m, lang }
}

/// A move written in long algebraic notation (see [`lan`]).
pub struct LanDisplay {
    m: Move,
    lang: Language,
}

impl fmt::Display for LanDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.m;
        if let Some(castling) = m.castling() {
            return f.write_str(castling.side().san());
        }
        if m.role != Role::Pawn {
            write!(f, "{}", self.lang.letter(m.role))?;
        }
        let sep = if m.is_capture() { 'x' } else { '-' };
        write!(f, "{}{sep}{}", m.from, m.to)?;
        if let Some(p) = m.promotion {
            write!(f, "={}", self.lang.letter(p))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> SanPlus {
        SanPlus::from_ascii(s.as_bytes()).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn parse_in(s: &str, lang: Language) -> SanPlus {
        SanPlus::parse(s.as_bytes(), lang).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn error(s: &str, lang: Language) -> SyntaxError {
        SanPlus::parse(s.as_bytes(), lang).expect_err(s)
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn normal(
        role: Role,
        file: Option<char>,
        rank: Option<char>,
        capture: bool,
        to: &str,
        promotion: Option<Role>,
    ) -> San {
        San::Normal {
            role,
            file: file.and_then(File::from_char),
            rank: rank.and_then(Rank::from_char),
            capture,
            to: sq(to),
            promotion,
        }
    }

    #[test]
    fn strict_san() {
        use Role::*;
        let cases = [
            ("Nf3", normal(Knight, None, None, false, "f3", None)),
            ("e4", normal(Pawn, None, None, false, "e4", None)),
            ("exd5", normal(Pawn, Some('e'), None, true, "d5", None)),
            ("bxc3", normal(Pawn, Some('b'), None, true, "c3", None)),
            ("Bxc3", normal(Bishop, None, None, true, "c3", None)),
            ("Nge2", normal(Knight, Some('g'), None, false, "e2", None)),
            ("R1d1", normal(Rook, None, Some('1'), false, "d1", None)),
            (
                "Qh4e1",
                normal(Queen, Some('h'), Some('4'), false, "e1", None),
            ),
            ("e8=Q", normal(Pawn, None, None, false, "e8", Some(Queen))),
            (
                "dxc1=N",
                normal(Pawn, Some('d'), None, true, "c1", Some(Knight)),
            ),
            ("Kxh8", normal(King, None, None, true, "h8", None)),
            ("O-O", San::Castle(CastlingSide::King)),
            ("O-O-O", San::Castle(CastlingSide::Queen)),
            ("--", San::Null),
            ("Z0", San::Null),
        ];
        for (text, san) in cases {
            let parsed = parse(text);
            assert_eq!(parsed.san, san, "{text}");
            assert!(parsed.leniencies.is_empty(), "{text}");
            assert_eq!(parsed.mark, None);
            // Null moves are written `--`.
            assert_eq!(san.to_string(), text.replace("Z0", "--"));
            assert_eq!(text.parse::<San>(), Ok(san));
        }
    }

    #[test]
    fn suffixes_are_split_off() {
        let p = parse("Nf3+");
        assert_eq!(p.mark, Some(CheckMark::Check));
        let p = parse("Qxf7#");
        assert_eq!(p.mark, Some(CheckMark::Mate));
        assert!(p.leniencies.is_empty());
        let p = parse("Qxf7++");
        assert_eq!(p.mark, Some(CheckMark::Mate));
        assert!(p.leniencies.contains(Leniency::DoublePlusMate));
        for (text, a) in [
            ("e4!", Annotation::Good),
            ("e4?", Annotation::Mistake),
            ("e4!!", Annotation::Brilliant),
            ("e4??", Annotation::Blunder),
            ("e4!?", Annotation::Speculative),
            ("e4?!", Annotation::Dubious),
        ] {
            let p = parse(text);
            assert_eq!(p.annotation, Some(a), "{text}");
            assert_eq!(Annotation::from_nag(a.nag()), Some(a));
            assert_eq!(p.to_string(), text);
        }
        let p = parse("O-O+!?");
        assert_eq!(
            (p.san, p.mark, p.annotation),
            (
                San::Castle(CastlingSide::King),
                Some(CheckMark::Check),
                Some(Annotation::Speculative)
            )
        );
        let p = parse("Rd1!+");
        assert_eq!(
            (p.mark, p.annotation),
            (Some(CheckMark::Check), Some(Annotation::Good))
        );
        let p = parse("exd6e.p.+");
        assert_eq!(p.san, normal(Role::Pawn, Some('e'), None, true, "d6", None));
        assert!(p.leniencies.contains(Leniency::EnPassantSuffix));
        assert_eq!(p.mark, Some(CheckMark::Check));
        let p = parse("exd6+e.p.");
        assert!(p.leniencies.contains(Leniency::EnPassantSuffix));
        for text in ["exd6ep", "exd6ep+", "exd6+ep"] {
            let p = parse(text);
            assert_eq!(
                p.san,
                normal(Role::Pawn, Some('e'), None, true, "d6", None),
                "{text}"
            );
            assert_eq!(
                p.leniencies.iter().collect::<Vec<_>>(),
                [Leniency::EnPassantSuffix],
                "{text}"
            );
        }
        // Three annotation marks: the last two form one, the first is left and rejected.
        assert_eq!(
            error("e4?!?", Language::En).kind,
            SyntaxErrorKind::Unexpected(b'?')
        );
        assert_eq!(error("+", Language::En).kind, SyntaxErrorKind::Empty);
    }

    #[test]
    fn leniencies_of_syntax() {
        use Leniency::*;
        let cases: [(&str, San, &[Leniency]); 14] = [
            ("0-0", San::Castle(CastlingSide::King), &[CastlingZeros]),
            ("0-0-0", San::Castle(CastlingSide::Queen), &[CastlingZeros]),
            (
                "e8Q",
                normal(Role::Pawn, None, None, false, "e8", Some(Role::Queen)),
                &[PromotionWithoutEquals],
            ),
            (
                "e8=q",
                normal(Role::Pawn, None, None, false, "e8", Some(Role::Queen)),
                &[LowercasePromotion],
            ),
            (
                "e8n",
                normal(Role::Pawn, None, None, false, "e8", Some(Role::Knight)),
                &[PromotionWithoutEquals, LowercasePromotion],
            ),
            (
                "e2-e4",
                normal(Role::Pawn, Some('e'), Some('2'), false, "e4", None),
                &[LongAlgebraic],
            ),
            (
                "Ng1-f3",
                normal(Role::Knight, Some('g'), Some('1'), false, "f3", None),
                &[LongAlgebraic],
            ),
            (
                "Pe4",
                normal(Role::Pawn, None, None, false, "e4", None),
                &[PawnLetter],
            ),
            // A pawn's origin square in full: long algebraic whatever the position.
            (
                "e4xd5",
                normal(Role::Pawn, Some('e'), Some('4'), true, "d5", None),
                &[LongAlgebraic],
            ),
            (
                "e4:d5",
                normal(Role::Pawn, Some('e'), Some('4'), true, "d5", None),
                &[ColonCapture, LongAlgebraic],
            ),
            (
                "N:e5",
                normal(Role::Knight, None, None, true, "e5", None),
                &[ColonCapture],
            ),
            (
                "Nf3e5",
                normal(Role::Knight, Some('f'), Some('3'), false, "e5", None),
                &[],
            ),
            (
                "ed5",
                normal(Role::Pawn, Some('e'), None, false, "d5", None),
                &[],
            ),
            (
                "e7-e8=Q",
                normal(
                    Role::Pawn,
                    Some('e'),
                    Some('7'),
                    false,
                    "e8",
                    Some(Role::Queen),
                ),
                &[LongAlgebraic],
            ),
        ];
        for (text, san, expected) in cases {
            let p = parse(text);
            assert_eq!(p.san, san, "{text}");
            assert_eq!(p.leniencies.iter().collect::<Vec<_>>(), expected, "{text}");
        }
    }

    #[test]
    fn other_languages() {
        use Role::*;
        let fr = |s| parse_in(s, Language::Fr).san;
        assert_eq!(fr("Cf3"), normal(Knight, None, None, false, "f3", None));
        assert_eq!(fr("Rf1"), normal(King, None, None, false, "f1", None));
        assert_eq!(fr("Txa4"), normal(Rook, None, None, true, "a4", None));
        assert_eq!(
            fr("e8=D"),
            normal(Pawn, None, None, false, "e8", Some(Queen))
        );
        assert_eq!(fr("bxa8=T+").to_string(), "bxa8=R");
        let de = |s| parse_in(s, Language::De).san;
        assert_eq!(de("Lb2"), normal(Bishop, None, None, false, "b2", None));
        assert_eq!(de("Tad8"), normal(Rook, Some('a'), None, false, "d8", None));
        let p = parse_in("Be4", Language::De);
        assert_eq!(p.san, normal(Pawn, None, None, false, "e4", None));
        assert!(p.leniencies.contains(Leniency::PawnLetter));
        let nl = parse_in("O-O", Language::Nl).san;
        assert_eq!(nl, San::Castle(CastlingSide::King));
        let hu = |s| parse_in(s, Language::Hu).san;
        assert_eq!(hu("Bd1"), normal(Rook, None, None, false, "d1", None));
        assert_eq!(hu("Hf3"), normal(Knight, None, None, false, "f3", None));
        let fig = |s: &str| parse_in(s, Language::Figurine).san;
        assert_eq!(fig("♘f3"), normal(Knight, None, None, false, "f3", None));
        assert_eq!(fig("♞xf3"), normal(Knight, None, None, true, "f3", None));
        assert_eq!(
            fig("e8=♕"),
            normal(Pawn, None, None, false, "e8", Some(Queen))
        );
        assert_eq!(
            fig("e1♛"),
            normal(Pawn, None, None, false, "e1", Some(Queen))
        );
    }

    #[test]
    fn syntax_errors_point_at_the_byte() {
        use SyntaxErrorKind::*;
        let en = Language::En;
        let cases: [(&str, Language, SyntaxErrorKind, usize); 17] = [
            ("", en, Empty, 0),
            (
                "Cf3",
                en,
                UnknownPiece {
                    letter: 'C',
                    lang: en,
                },
                0,
            ),
            (
                "Nf3",
                Language::Fr,
                UnknownPiece {
                    letter: 'N',
                    lang: Language::Fr,
                },
                0,
            ),
            (
                "♘f3",
                en,
                UnknownPiece {
                    letter: '♘',
                    lang: en,
                },
                0,
            ),
            ("Nf", en, MissingDestination, 2),
            ("Nx", en, MissingDestination, 2),
            ("Nxf", en, MissingDestination, 3),
            ("N-f3", en, IncompleteOrigin, 1),
            ("e8=", en, MissingPromotion, 3),
            ("e8=K", en, BadPromotion(Role::King), 3),
            ("e8=P", en, BadPromotion(Role::Pawn), 3),
            ("Nf3=Q", en, PieceCannotPromote(Role::Knight), 3),
            (
                "e8=X",
                en,
                UnknownPiece {
                    letter: 'X',
                    lang: en,
                },
                3,
            ),
            ("e4z", en, Unexpected(b'z'), 2),
            ("e4 ", en, Unexpected(b' '), 2),
            ("O-O-", en, BadCastling, 0),
            ("0-O", en, BadCastling, 0),
        ];
        for (text, lang, kind, offset) in cases {
            let e = error(text, lang);
            assert_eq!((e.kind, e.offset), (kind, offset), "{text}");
            assert!(!e.to_string().is_empty());
        }
        assert_eq!(error("i4", en).kind, MissingDestination);
        assert_eq!(error("e9", en).kind, MissingDestination);
        assert_eq!(
            error("é4", en).kind,
            MissingDestination,
            "non-ASCII bytes are no squares"
        );
    }

    #[test]
    fn writing_in_languages() {
        let san = normal(Role::Knight, Some('g'), None, true, "e2", None);
        assert_eq!(san.display(Language::En).to_string(), "Ngxe2");
        assert_eq!(san.display(Language::Fr).to_string(), "Cgxe2");
        assert_eq!(san.display(Language::De).to_string(), "Sgxe2");
        assert_eq!(san.display(Language::Figurine).to_string(), "♘gxe2");
        let promo = normal(Role::Pawn, Some('d'), None, true, "c8", Some(Role::Queen));
        assert_eq!(promo.display(Language::Fr).to_string(), "dxc8=D");
        assert_eq!(promo.display(Language::Figurine).to_string(), "dxc8=♕");
        let plus = SanPlus {
            san: promo,
            mark: Some(CheckMark::Mate),
            annotation: Some(Annotation::Brilliant),
            leniencies: Leniencies::NONE,
        };
        assert_eq!(plus.display(Language::Pl).to_string(), "dxc8=H#!!");
        assert_eq!(
            San::Castle(CastlingSide::Queen)
                .display(Language::Fr)
                .to_string(),
            "O-O-O"
        );
    }

    #[test]
    fn leniency_sets() {
        let set = Leniencies::NONE
            .with(Leniency::CastlingZeros)
            .with(Leniency::WrongCheckMark);
        assert_eq!(set.iter().count(), 2);
        assert!(set.contains(Leniency::WrongCheckMark));
        assert!(!set.contains(Leniency::PawnLetter));
        assert_eq!(
            set.without(Leniency::WrongCheckMark),
            Leniency::CastlingZeros.into()
        );
        assert_eq!(set.without(Leniency::PawnLetter), set);
        for l in Leniency::ALL {
            assert!(!l.to_string().is_empty() && !l.name().is_empty());
        }
    }
}
