//! Move notation: SAN in any language's piece letters, the letter tables and language detection ([`lang`]),
//! LAN and UCI ([`uci`]).

pub mod lang;
pub mod uci;

pub use lang::{
    Language, LanguageClasses, LanguageSet, LetterSet, candidate_classes, san_letters,
};
