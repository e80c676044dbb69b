//! Piece letters per language (PGN standard §17 and the usual national letters), Unicode figurines, and
//! language detection from the piece capitals a game uses.
//!
//! | code | language | P | N | B | R | Q | K |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | `en` | English | P | N | B | R | Q | K |
//! | `fr` | French | P | C | F | T | D | R |
//! | `de` `da` `no` `sv` | German, Danish, Norwegian, Swedish | B | S | L | T | D | K |
//! | `nl` | Dutch | O | P | L | T | D | K |
//! | `es` `it` | Spanish, Italian | P | C | A | T | D | R |
//! | `pt` | Portuguese | P | C | B | T | D | R |
//! | `cs` | Czech | P | J | S | V | D | K |
//! | `pl` | Polish | P | S | G | W | H | K |
//! | `hu` | Hungarian | G | H | F | B | V | K |
//! | `fi` | Finnish | P | R | L | T | D | K |
//! | `ro` | Romanian | P | C | N | T | D | R |
//! | `figurine` | figurines | ♙ | ♘ | ♗ | ♖ | ♕ | ♔ |
//!
//! Only capital letters are piece letters (`b` is always a file). The figurine "language" reads both sets
//! (♔♕♖♗♘♙ and ♚♛♜♝♞♟, whichever side moves) and writes the outline set ♔♕♖♗♘ for both sides, as printed
//! figurine notation does.
//!
//! **Preference order** (used to rank detection candidates and to pick the representative of a class of
//! languages that read a game identically) is the order of [`Language::ALL`]: `en fr de nl es it pt cs pl hu fi
//! ro da no sv figurine` — English first as the PGN standard's language, then by how common the notation is in
//! published PGN; languages sharing a table (German/Danish/Norwegian/Swedish, Spanish/Italian) are represented
//! by the first.

use std::fmt;
use std::str::FromStr;

use crate::core::Role;

/// A set of piece letters (by language) for reading and writing SAN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Language {
    /// English: `P N B R Q K`.
    En = 0,
    /// French: `P C F T D R`.
    Fr,
    /// German: `B S L T D K`.
    De,
    /// Dutch: `O P L T D K`.
    Nl,
    /// Spanish: `P C A T D R`.
    Es,
    /// Italian: `P C A T D R`.
    It,
    /// Portuguese: `P C B T D R`.
    Pt,
    /// Czech: `P J S V D K`.
    Cs,
    /// Polish: `P S G W H K`.
    Pl,
    /// Hungarian: `G H F B V K`.
    Hu,
    /// Finnish: `P R L T D K`.
    Fi,
    /// Romanian: `P C N T D R`.
    Ro,
    /// Danish: `B S L T D K`.
    Da,
    /// Norwegian: `B S L T D K`.
    No,
    /// Swedish: `B S L T D K`.
    Sv,
    /// Figurines: `♙ ♘ ♗ ♖ ♕ ♔` (the solid set `♟ ♞ ♝ ♜ ♛ ♚` is read too).
    Figurine,
}

/// Letters per language, indexed by [`Role::index`] (P N B R Q K). Figurines have their own table.
const LETTERS: [[u8; 6]; 15] = [
    *b"PNBRQK", // en
    *b"PCFTDR", // fr
    *b"BSLTDK", // de
    *b"OPLTDK", // nl
    *b"PCATDR", // es
    *b"PCATDR", // it
    *b"PCBTDR", // pt
    *b"PJSVDK", // cs
    *b"PSGWHK", // pl
    *b"GHFBVK", // hu
    *b"PRLTDK", // fi
    *b"PCNTDR", // ro
    *b"BSLTDK", // da
    *b"BSLTDK", // no
    *b"BSLTDK", // sv
];

/// Every capital that some language's table uses as a piece letter, bit `c - b'A'` for capital `c` (the
/// languages in use name pieces with all capitals but E, I, M, U, X, Y and Z).
const PIECE_CAPITALS: u32 = {
    let mut mask = 0u32;
    let mut lang = 0;
    while lang < LETTERS.len() {
        let mut role = 0;
        while role < 6 {
            mask |= 1 << (LETTERS[lang][role] - b'A');
            role += 1;
        }
        lang += 1;
    }
    mask
};

/// Whether `b` is a piece letter in some language: what a reader that does not know a game's language yet
/// accepts as the first byte of a piece move.
#[inline(always)]
pub(crate) const fn is_piece_capital(b: u8) -> bool {
    b.is_ascii_uppercase() && PIECE_CAPITALS & (1 << (b - b'A')) != 0
}

/// Bytes of a figurine in UTF-8 (U+2654..=U+265F, see [`figurine_at`]).
pub(crate) const FIGURINE_LEN: usize = 3;

/// Written figurines (the outline set), indexed by [`Role::index`].
const FIGURINES: [char; 6] = ['♙', '♘', '♗', '♖', '♕', '♔'];

/// Reverse tables: for each letter language and each capital `A..=Z`, `1 + role index`, or 0.
const ROLE_OF: [[u8; 26]; 15] = {
    let mut table = [[0u8; 26]; 15];
    let mut lang = 0;
    while lang < 15 {
        let mut role = 0;
        while role < 6 {
            table[lang][(LETTERS[lang][role] - b'A') as usize] = role as u8 + 1;
            role += 1;
        }
        lang += 1;
    }
    table
};

impl Language {
    /// Every language, in preference order.
    pub const ALL: [Language; 16] = [
        Language::En,
        Language::Fr,
        Language::De,
        Language::Nl,
        Language::Es,
        Language::It,
        Language::Pt,
        Language::Cs,
        Language::Pl,
        Language::Hu,
        Language::Fi,
        Language::Ro,
        Language::Da,
        Language::No,
        Language::Sv,
        Language::Figurine,
    ];

    /// The language's position in [`Language::ALL`], from 0.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The code used on the command line: `en`, `fr`, ..., `figurine`.
    pub const fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Fr => "fr",
            Language::De => "de",
            Language::Nl => "nl",
            Language::Es => "es",
            Language::It => "it",
            Language::Pt => "pt",
            Language::Cs => "cs",
            Language::Pl => "pl",
            Language::Hu => "hu",
            Language::Fi => "fi",
            Language::Ro => "ro",
            Language::Da => "da",
            Language::No => "no",
            Language::Sv => "sv",
            Language::Figurine => "figurine",
        }
    }

    /// The language's English name.
    pub const fn name(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Fr => "French",
            Language::De => "German",
            Language::Nl => "Dutch",
            Language::Es => "Spanish",
            Language::It => "Italian",
            Language::Pt => "Portuguese",
            Language::Cs => "Czech",
            Language::Pl => "Polish",
            Language::Hu => "Hungarian",
            Language::Fi => "Finnish",
            Language::Ro => "Romanian",
            Language::Da => "Danish",
            Language::No => "Norwegian",
            Language::Sv => "Swedish",
            Language::Figurine => "figurines",
        }
    }

    /// Reads a code (case-insensitive), as listed by [`Language::code`].
    pub fn from_code(code: &str) -> Option<Language> {
        Language::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code))
    }

    /// The letter (or figurine) this language writes for `role`; pawns have one too, though SAN omits it.
    #[inline]
    pub const fn letter(self, role: Role) -> char {
        match self {
            Language::Figurine => FIGURINES[role.index()],
            _ => LETTERS[self.index()][role.index()] as char,
        }
    }

    /// The role a piece letter denotes: capital letters only (figurines: both colours).
    pub fn role_of(self, letter: char) -> Option<Role> {
        match self {
            Language::Figurine => figurine_role(letter),
            _ if letter.is_ascii_uppercase() => self.role_of_byte(letter as u8),
            _ => None,
        }
    }

    /// [`Language::role_of`] for one ASCII byte (always `None` for figurines, which are not ASCII).
    #[inline]
    pub(crate) fn role_of_byte(self, b: u8) -> Option<Role> {
        if self == Language::Figurine || !b.is_ascii_uppercase() {
            return None;
        }
        match ROLE_OF[self.index()][(b - b'A') as usize] {
            0 => None,
            r => Some(Role::from_index(usize::from(r) - 1)),
        }
    }

    /// True if every letter of `used` is a piece letter of this language.
    #[inline]
    pub fn reads(self, used: LetterSet) -> bool {
        used.0 & !KNOWN_LETTERS[self.index()] == 0
    }

    /// True if both languages read every letter of `used` as the same role.
    #[inline]
    pub fn same_reading(self, other: Language, used: LetterSet) -> bool {
        let (a, b) = (&LETTER_MASKS[self.index()], &LETTER_MASKS[other.index()]);
        (0..6).all(|role| a[role] & used.0 == b[role] & used.0)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// An unknown language code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLanguage(pub String);

impl fmt::Display for UnknownLanguage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown language '{}' (known: en fr de nl es it pt cs pl hu fi ro da no sv figurine)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLanguage {}

impl FromStr for Language {
    type Err = UnknownLanguage;
    fn from_str(s: &str) -> Result<Language, UnknownLanguage> {
        Language::from_code(s).ok_or_else(|| UnknownLanguage(s.to_string()))
    }
}

/// The role of a figurine of either colour.
pub fn figurine_role(c: char) -> Option<Role> {
    match c {
        '♙' | '♟' => Some(Role::Pawn),
        '♘' | '♞' => Some(Role::Knight),
        '♗' | '♝' => Some(Role::Bishop),
        '♖' | '♜' => Some(Role::Rook),
        '♕' | '♛' => Some(Role::Queen),
        '♔' | '♚' => Some(Role::King),
        _ => None,
    }
}

/// The figurine whose UTF-8 encoding starts `bytes` (three bytes `E2 99 94..=9F`), if any.
#[inline]
pub(crate) fn figurine_at(bytes: &[u8]) -> Option<Role> {
    match bytes {
        // U+2654..U+2659 are the outline set king to pawn, U+265A..U+265F the solid set.
        [0xE2, 0x99, b @ 0x94..=0x9F, ..] => {
            Some(Role::from_index(5 - usize::from((b - 0x94) % 6)))
        }
        _ => None,
    }
}

/// A set of piece letters: capitals `A..=Z` and the six figurines (both colours count as one).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LetterSet(u32);

const FIGURINE_BIT: u32 = 26;

/// Per language and role, the [`LetterSet`] bit of the letter (or figurine) that names it: set operations
/// answer "does this language read these letters" without looking letters up one by one (detection runs per
/// game).
const LETTER_MASKS: [[u32; 6]; 16] = {
    let mut masks = [[0u32; 6]; 16];
    let mut lang = 0;
    while lang < 15 {
        let mut role = 0;
        while role < 6 {
            masks[lang][role] = 1 << (LETTERS[lang][role] - b'A');
            role += 1;
        }
        lang += 1;
    }
    let mut role = 0;
    while role < 6 {
        masks[15][role] = 1 << (FIGURINE_BIT + role as u32);
        role += 1;
    }
    masks
};

/// Per language, every [`LetterSet`] bit it reads: [`LETTER_MASKS`]' six roles together.
const KNOWN_LETTERS: [u32; 16] = {
    let mut known = [0u32; 16];
    let mut lang = 0;
    while lang < 16 {
        let mut role = 0;
        while role < 6 {
            known[lang] |= LETTER_MASKS[lang][role];
            role += 1;
        }
        lang += 1;
    }
    known
};

impl LetterSet {
    /// No letter.
    pub const EMPTY: LetterSet = LetterSet(0);

    /// The capitals of a bit set with bit `c - b'A'` for each capital `c` (the reader's
    /// [`crate::pgn::MoveLetters`]); higher bits are ignored.
    pub const fn from_capitals(bits: u32) -> LetterSet {
        LetterSet(bits & ((1 << FIGURINE_BIT) - 1))
    }

    /// Adds a capital letter or figurine; anything else is ignored (returns false).
    pub fn insert(&mut self, c: char) -> bool {
        match Self::bit(c) {
            Some(bit) => {
                self.0 |= 1 << bit;
                true
            }
            None => false,
        }
    }

    fn bit(c: char) -> Option<u32> {
        if c.is_ascii_uppercase() {
            Some(u32::from(c as u8 - b'A'))
        } else {
            figurine_role(c).map(|r| FIGURINE_BIT + r.index() as u32)
        }
    }

    /// Whether the set holds `c` (a figurine of either colour counts as its role's).
    pub fn contains(self, c: char) -> bool {
        Self::bit(c).is_some_and(|bit| self.0 & (1 << bit) != 0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of letters in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The letters of both sets.
    pub const fn union(self, other: LetterSet) -> LetterSet {
        LetterSet(self.0 | other.0)
    }

    /// The letters, capitals first (alphabetically), then figurines (outline set, pawn to king).
    pub fn iter(self) -> impl Iterator<Item = char> {
        (0..32u32)
            .filter(move |bit| self.0 & (1 << bit) != 0)
            .map(|bit| {
                if bit < FIGURINE_BIT {
                    (b'A' + bit as u8) as char
                } else {
                    FIGURINES[(bit - FIGURINE_BIT) as usize]
                }
            })
    }
}

impl std::ops::BitOr for LetterSet {
    type Output = LetterSet;
    fn bitor(self, rhs: LetterSet) -> LetterSet {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for LetterSet {
    fn bitor_assign(&mut self, rhs: LetterSet) {
        *self = self.union(rhs);
    }
}

impl FromIterator<char> for LetterSet {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> LetterSet {
        let mut set = LetterSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

impl fmt::Debug for LetterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", self.iter().collect::<String>())
    }
}

/// The piece letters a SAN token uses, whatever its language: its leading capital or figurine (not the `O` of
/// castling nor the `Z` of the null move `Z0`), or a leading lower-case letter that is no file (`nf3` uses `N`),
/// and its promotion piece (after `=`, in parentheses, or right after the destination rank, capitalised when
/// written in lower case). Annotation and check suffixes are ignored.
pub fn san_letters(token: &[u8]) -> LetterSet {
    let mut set = LetterSet::EMPTY;
    let body = match token {
        [b'O' | b'0' | b'o', b'-', ..] | [b'Z', b'0'] | [b'-', b'-'] => return set,
        _ => token,
    };
    let rest = if let Some(role) = figurine_at(body) {
        set.0 |= 1 << (FIGURINE_BIT + role.index() as u32);
        &body[3..]
    } else if let Some(&b) = body.first().filter(|b| b.is_ascii_uppercase()) {
        set.insert(b as char);
        &body[1..]
    } else if let Some(&b) = body
        .first()
        .filter(|&&b| b.is_ascii_lowercase() && !(b'a'..=b'h').contains(&b) && b != b'x')
    {
        // A lower-case piece letter (`nf3`): the letter its capital is.
        set.insert(b.to_ascii_uppercase() as char);
        &body[1..]
    } else {
        body
    };
    // The promotion piece follows the last rank digit, possibly after '=' or in parentheses.
    if let Some(digit) = rest.iter().rposition(u8::is_ascii_digit) {
        let after = &rest[digit + 1..];
        let after = after
            .strip_prefix(b"=")
            .or_else(|| after.strip_prefix(b"("))
            .unwrap_or(after);
        if let Some(role) = figurine_at(after) {
            set.0 |= 1 << (FIGURINE_BIT + role.index() as u32);
        } else if let Some(&b) = after.first().filter(|b| b.is_ascii_alphabetic()) {
            // `e.p.` (or `ep`) is not a promotion.
            if !(b == b'e' && matches!(after.get(1), Some(b'.' | b'p'))) {
                set.insert(b.to_ascii_uppercase() as char);
            }
        }
    }
    set
}

/// A set of languages, iterated in preference order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LanguageSet(u16);

impl LanguageSet {
    /// No language.
    pub const EMPTY: LanguageSet = LanguageSet(0);

    /// Adds `lang`.
    pub fn insert(&mut self, lang: Language) {
        self.0 |= 1 << lang.index();
    }

    /// Whether `lang` is in the set.
    pub const fn contains(self, lang: Language) -> bool {
        self.0 & (1 << lang as u8) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of languages in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The set without `lang`.
    pub const fn without(self, lang: Language) -> LanguageSet {
        LanguageSet(self.0 & !(1 << lang as u8))
    }

    /// The preferred language of the set.
    pub fn first(self) -> Option<Language> {
        // Bit `i` is `Language::ALL[i]`, and `ALL` is in preference order: the lowest bit is the first.
        (self.0 != 0).then(|| Language::ALL[self.0.trailing_zeros() as usize])
    }

    /// The languages, in preference order.
    pub fn iter(self) -> impl Iterator<Item = Language> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let first = LanguageSet(bits).first()?;
            bits &= bits - 1;
            Some(first)
        })
    }
}

impl fmt::Debug for LanguageSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Language::code))
            .finish()
    }
}

impl FromIterator<Language> for LanguageSet {
    fn from_iter<I: IntoIterator<Item = Language>>(iter: I) -> LanguageSet {
        let mut set = LanguageSet::EMPTY;
        for l in iter {
            set.insert(l);
        }
        set
    }
}

/// The languages that can read a set of letters, grouped into classes whose members read every used letter as
/// the same role (so converting with any member gives the same moves). Classes come in preference order of
/// their preferred member.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct LanguageClasses {
    classes: [LanguageSet; 16],
    len: usize,
}

impl LanguageClasses {
    /// The classes, in preference order.
    pub fn as_slice(&self) -> &[LanguageSet] {
        &self.classes[..self.len]
    }

    /// The number of classes: 1 when the letters tell one reading, 0 when no language reads them all.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no language reads the letters.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All candidate languages, whatever their class.
    pub fn all(&self) -> LanguageSet {
        LanguageSet(self.as_slice().iter().fold(0, |acc, s| acc | s.0))
    }

    /// The classes, in preference order.
    pub fn iter(&self) -> impl Iterator<Item = LanguageSet> + '_ {
        self.as_slice().iter().copied()
    }
}

/// Groups the languages that read every letter of `used` into classes (see [`LanguageClasses`]).
///
/// ```
/// use pgnkit::notation::{Language, LetterSet, candidate_classes, san_letters};
/// // The piece letters of a game's moves: C, F and D leave French alone.
/// let used = ["e4", "Cf3", "Fb5", "O-O", "Dxd8+"]
///     .iter()
///     .fold(LetterSet::EMPTY, |set, token| set | san_letters(token.as_bytes()));
/// assert_eq!(format!("{used:?}"), "{CDF}");
/// let classes = candidate_classes(used);
/// assert_eq!(classes.len(), 1);
/// assert_eq!(classes.as_slice()[0].first(), Some(Language::Fr));
/// // R alone is the king in French (and Spanish...), the rook in English, the knight in Finnish.
/// let classes = candidate_classes(san_letters(b"Rf1"));
/// let preferred: Vec<_> = classes.iter().filter_map(|class| class.first()).collect();
/// assert_eq!(preferred, [Language::En, Language::Fr, Language::Fi]);
/// ```
///
/// A game using only `R` gives `{fr, es, it, pt, ro}` (R = King), `{en}` (Rook), `{fi}` (Knight), in that
/// order; a game using no piece letter at all gives one class holding every language.
pub fn candidate_classes(used: LetterSet) -> LanguageClasses {
    let mut out = LanguageClasses::default();
    for lang in Language::ALL {
        if !lang.reads(used) {
            continue;
        }
        let existing = out.classes[..out.len].iter_mut().find(|class| {
            class
                .first()
                .is_some_and(|rep| rep.same_reading(lang, used))
        });
        match existing {
            Some(class) => class.insert(lang),
            None => {
                out.classes[out.len].insert(lang);
                out.len += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(set: LanguageSet) -> Vec<&'static str> {
        set.iter().map(Language::code).collect()
    }

    #[test]
    fn language_sets_agree_with_the_preference_order() {
        // A set's bit for a language is its place in `Language::ALL`: first, iteration and removal rely on it.
        for (i, lang) in Language::ALL.into_iter().enumerate() {
            assert_eq!(lang.index(), i, "{lang}");
        }
        // Every set of the first and last few languages and a spread of others, against the definitions:
        // the members of ALL in order, the first of them, and all but one.
        for bits in (0u32..1 << 16)
            .step_by(97)
            .chain([0, 1, 0x8000, 0xFFFF, 0x8001])
        {
            let mut set = LanguageSet::EMPTY;
            let members: Vec<Language> = Language::ALL
                .into_iter()
                .filter(|l| bits & (1 << l.index()) != 0)
                .collect();
            for &l in &members {
                set.insert(l);
            }
            assert_eq!(set.iter().collect::<Vec<_>>(), members, "{bits:#x}");
            assert_eq!(set.first(), members.first().copied(), "{bits:#x}");
            assert_eq!(set.len() as usize, members.len());
            for lang in Language::ALL {
                let rest: Vec<Language> = members.iter().copied().filter(|&l| l != lang).collect();
                assert_eq!(set.without(lang).iter().collect::<Vec<_>>(), rest);
            }
        }
    }

    #[test]
    fn a_language_reads_exactly_its_own_letters() {
        // `reads` against the letters one by one: every capital and figurine alone, and each language's own
        // six letters with one other added.
        let single = |bit: u32| LetterSet(1 << bit);
        for lang in Language::ALL {
            let own: u32 = (0..6)
                .map(|role| LETTER_MASKS[lang.index()][role])
                .fold(0, |a, m| a | m);
            for bit in 0..32 {
                assert_eq!(
                    lang.reads(single(bit)),
                    own & (1 << bit) != 0,
                    "{lang} bit {bit}"
                );
                assert_eq!(lang.reads(LetterSet(own | 1 << bit)), own & (1 << bit) != 0);
            }
            assert!(lang.reads(LetterSet(own)) && lang.reads(LetterSet::EMPTY));
        }
    }

    #[test]
    fn letters_follow_the_rules_table() {
        let rows = [
            (Language::En, "PNBRQK"),
            (Language::Fr, "PCFTDR"),
            (Language::De, "BSLTDK"),
            (Language::Da, "BSLTDK"),
            (Language::No, "BSLTDK"),
            (Language::Sv, "BSLTDK"),
            (Language::Nl, "OPLTDK"),
            (Language::Es, "PCATDR"),
            (Language::It, "PCATDR"),
            (Language::Pt, "PCBTDR"),
            (Language::Cs, "PJSVDK"),
            (Language::Pl, "PSGWHK"),
            (Language::Hu, "GHFBVK"),
            (Language::Fi, "PRLTDK"),
            (Language::Ro, "PCNTDR"),
            (Language::Figurine, "♙♘♗♖♕♔"),
        ];
        for (lang, letters) in rows {
            for (role, c) in Role::ALL.into_iter().zip(letters.chars()) {
                assert_eq!(lang.letter(role), c, "{lang} {role:?}");
                assert_eq!(lang.role_of(c), Some(role), "{lang} {c}");
            }
        }
        assert_eq!(Language::Fr.role_of('R'), Some(Role::King));
        assert_eq!(Language::En.role_of('r'), None, "only capitals are pieces");
        assert_eq!(Language::En.role_of('C'), None);
        assert_eq!(Language::Figurine.role_of('♞'), Some(Role::Knight));
        assert_eq!(Language::Figurine.role_of('♚'), Some(Role::King));
        assert_eq!(Language::En.role_of('♘'), None);
    }

    #[test]
    fn codes_round_trip() {
        for lang in Language::ALL {
            assert_eq!(Language::from_code(lang.code()), Some(lang));
            assert_eq!(lang.to_string().parse::<Language>(), Ok(lang));
        }
        assert_eq!(Language::from_code("FR"), Some(Language::Fr));
        assert!("xx".parse::<Language>().is_err());
        assert_eq!(Language::Hu.name(), "Hungarian");
    }

    #[test]
    fn piece_capitals_are_the_union_of_the_tables() {
        for b in b'\0'..=u8::MAX {
            let any = Language::ALL
                .into_iter()
                .any(|lang| lang.role_of(b as char).is_some());
            assert_eq!(is_piece_capital(b), any, "{}", b as char);
        }
        let others: String = (b'A'..=b'Z')
            .filter(|&b| !is_piece_capital(b))
            .map(char::from)
            .collect();
        assert_eq!(others, "EIMUXYZ");
    }

    #[test]
    fn figurine_bytes() {
        for (i, c) in "♙♘♗♖♕♔♟♞♝♜♛♚".chars().enumerate() {
            let mut buf = [0; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            assert_eq!(figurine_at(bytes), figurine_role(c), "{c}");
            assert!(figurine_at(bytes).is_some(), "{i}");
        }
        assert_eq!(figurine_at("♘f3".as_bytes()), Some(Role::Knight));
        assert_eq!(figurine_at(b"Nf3"), None);
        assert_eq!(figurine_at("☃".as_bytes()), None);
    }

    #[test]
    fn letters_of_tokens() {
        let set = |s: &str| san_letters(s.as_bytes()).iter().collect::<String>();
        assert_eq!(set("Nf3"), "N");
        assert_eq!(set("exd5"), "");
        assert_eq!(set("bxc3"), "");
        assert_eq!(set("O-O"), "");
        assert_eq!(set("O-O-O+"), "");
        assert_eq!(set("0-0"), "");
        assert_eq!(set("Z0"), "");
        assert_eq!(set("--"), "");
        assert_eq!(set("e8=D+"), "D");
        assert_eq!(set("e8Q"), "Q");
        assert_eq!(set("exd8=q#"), "Q");
        assert_eq!(set("Txa4!?"), "T");
        assert_eq!(set("bxa8=T"), "T");
        assert_eq!(set("exd6e.p."), "");
        assert_eq!(set("exd6ep"), "");
        assert_eq!(set("♘f3"), "♘");
        assert_eq!(set("♞xf3"), "♘");
        assert_eq!(set("e8=♛"), "♕");
        assert_eq!(set("Pe4"), "P");
        assert_eq!(set("Ce8=D"), "CD");
    }

    #[test]
    fn letter_sets() {
        let set: LetterSet = "NRx♘".chars().collect();
        assert_eq!(set.len(), 3);
        assert!(set.contains('N') && set.contains('♞') && !set.contains('x'));
        assert_eq!(format!("{set:?}"), "{NR♘}");
        assert!((set | LetterSet::EMPTY) == set);
    }

    #[test]
    fn detection_classes() {
        let classes = |s: &str| {
            candidate_classes(s.chars().collect())
                .iter()
                .map(codes)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            classes("R"),
            vec![vec!["en"], vec!["fr", "es", "it", "pt", "ro"], vec!["fi"],]
        );
        assert_eq!(classes("CFTD"), vec![vec!["fr"]]);
        assert_eq!(classes("NQ"), vec![vec!["en"]]);
        assert_eq!(classes("SLTD"), vec![vec!["de", "da", "no", "sv"]]);
        assert_eq!(classes("CATD"), vec![vec!["es", "it"]]);
        assert_eq!(
            classes("B"),
            vec![vec!["en", "pt"], vec!["de", "da", "no", "sv"], vec!["hu"]]
        );
        assert_eq!(classes("♘♕"), vec![vec!["figurine"]]);
        assert!(classes("NX").is_empty());
        let all = candidate_classes(LetterSet::EMPTY);
        assert_eq!(all.len(), 1);
        assert_eq!(all.all().len(), 16);
        assert_eq!(all.as_slice()[0].first(), Some(Language::En));
    }
}
