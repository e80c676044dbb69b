//! Move notation: SAN in any language's piece letters (syntax in [`san`], resolution against a position in
//! [`resolve`], suggestions for slips in [`mod@suggest`]), the letter tables and language detection ([`lang`]),
//! LAN ([`san::lan`]) and UCI ([`uci`]).
//!
//! A move token is read in a language ([`SanPlus::parse`]), resolved against a position
//! ([`San::to_move`]), and written in any language ([`SanPlus::display`]), LAN or UCI.
//! `examples/french_to_english.rs` rewrites French moves with English letters that way; [`candidate_classes`]
//! tells which languages can read a game's letters.

pub mod lang;
pub mod resolve;
pub mod san;
pub mod suggest;
pub mod uci;

pub use lang::{Language, LanguageClasses, LanguageSet, LetterSet, candidate_classes, san_letters};
pub use resolve::{Blocked, CastlingError, IllegalReason, PieceAt, Resolved, SanError};
pub use san::{
    Annotation, CastlingSide, CheckMark, Leniencies, Leniency, San, SanPlus, SyntaxError,
    SyntaxErrorKind, lan,
};
pub use suggest::{Slip, Suggestion, suggest};
