//! Messages for people in the user's language (`--messages en|fr`): the [`Locale`] and [`Explain`] of the
//! library, and [`localized!`](crate::localized) to write a message's English and French side by side, so
//! that neither can be forgotten when the other changes.
//!
//! Identifiers for programs (problem `kind`s, JSON keys, CSV columns) never go through here.

use std::borrow::Cow;

pub use pgnkit::explain::{Explain, Locale};
pub(crate) use pgnkit::explain::{did_you_mean, french_language_name, french_notation_adjective};

/// A job's own reason for stopping, said in the user's language: the run layer and the options carry it
/// without knowing which job it comes from (they sit below the jobs, which import them).
pub trait JobReason: Explain + std::error::Error + Send + Sync + 'static {}

impl<T: Explain + std::error::Error + Send + Sync + 'static> JobReason for T {}

/// `format!` in the locale given: `localized!(locale, "{n} games", "{n} parties")`.
#[macro_export]
macro_rules! localized {
    ($locale:expr, $en:literal, $fr:literal $(, $arg:expr)* $(,)?) => {
        match $locale {
            $crate::messages::Locale::En => format!($en $(, $arg)*),
            $crate::messages::Locale::Fr => format!($fr $(, $arg)*),
        }
    };
}

/// `s` after a count other than one (English and French agree on this rule for the nouns used here, except
/// that French counts 0 and 1 as singular).
pub fn plural(locale: Locale, n: u64) -> &'static str {
    match (locale, n) {
        (Locale::En, 1) | (Locale::Fr, 0 | 1) => "",
        _ => "s",
    }
}

/// A figure written with a decimal point (`2.5`, `66.7`) as the locale writes it: `2.5` in English, `2,5` in
/// French. For text people read (tables, the summary, the report page); data (CSV, JSON, TRF, Parquet) keeps
/// the point whatever the locale.
pub fn localized_decimal(locale: Locale, figure: &str) -> Cow<'_, str> {
    match locale {
        Locale::Fr if figure.contains('.') => Cow::Owned(figure.replace('.', ",")),
        _ => Cow::Borrowed(figure),
    }
}

/// The colour's name: `White`/`Black`, `les Blancs`/`les Noirs`.
pub(crate) fn side_name(locale: Locale, color: pgnkit::Color) -> &'static str {
    match (locale, color) {
        (Locale::En, c) => c.name(),
        (Locale::Fr, pgnkit::Color::White) => "les Blancs",
        (Locale::Fr, pgnkit::Color::Black) => "les Noirs",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_of_a_message() {
        let n = 3;
        assert_eq!(
            localized!(Locale::En, "{n} games", "{n} parties"),
            "3 games"
        );
        assert_eq!(
            localized!(Locale::Fr, "{} games", "{} parties", n + 1),
            "4 parties"
        );
        assert_eq!(plural(Locale::Fr, 1), "");
        assert_eq!(plural(Locale::Fr, 0), "");
        assert_eq!(plural(Locale::En, 0), "s");
        assert_eq!(localized_decimal(Locale::En, "2.5"), "2.5");
        assert_eq!(localized_decimal(Locale::Fr, "2.5"), "2,5");
        assert_eq!(localized_decimal(Locale::Fr, "6.25"), "6,25");
        assert_eq!(localized_decimal(Locale::Fr, "3"), "3");
    }
}
