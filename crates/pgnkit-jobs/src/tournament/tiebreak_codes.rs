//! FIDE's tie-break codes (Handbook C.07) as `--tiebreaks` and TRF-26's records 202 and 212 write them:
//! [`Kind`] and [`TiebreakCode`] (a code with its modifier), read by [`parse_list`]; [`super::fide_tiebreaks`]
//! computes them. Kept apart from it so that the jobs' option (`crate::options::Tiebreaks`) reads the codes
//! without the rest of the tournament model, which imports the options.

use std::fmt;
use std::str::FromStr;

use crate::localized;
use crate::messages::{Explain, Locale};

/// A tie-break of C.07, by its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// Points (article 5).
    Points,
    /// Direct encounter (6).
    DirectEncounter,
    /// Rounds won, played or not (7.1).
    Wins,
    /// Games won over the board (7.2).
    WonGames,
    /// Games played with Black (7.3).
    BlackGames,
    /// Games won with Black (7.4).
    BlackWins,
    /// Games one elected to play (7.5).
    ElectedGames,
    /// Progressive score: the sum of the scores after each round (7.6).
    Progressive,
    /// Buchholz (8.1).
    Buchholz,
    /// Fore Buchholz: Buchholz with the last round's games as draws (8.2).
    ForeBuchholz,
    /// Average of the opponents' Buchholz (8.3).
    AverageOpponentsBuchholz,
    /// Sonneborn-Berger (9.1).
    SonnebornBerger,
    /// Koya: points against the opponents with at least half the points possible (9.2).
    Koya,
    /// Average rating of the opponents (10.1).
    AverageRating,
    /// Tournament performance rating (10.2).
    PerformanceRating,
    /// Perfect tournament performance (10.3).
    PerfectPerformance,
    /// Average of the opponents' performance ratings (10.4).
    AverageOpponentsPerformance,
    /// Average of the opponents' perfect performances (10.5).
    AverageOpponentsPerfectPerformance,
}

impl Kind {
    /// Every code, in the regulations' order.
    pub(crate) const ALL: [Kind; 18] = [
        Kind::Points,
        Kind::DirectEncounter,
        Kind::Wins,
        Kind::WonGames,
        Kind::BlackGames,
        Kind::BlackWins,
        Kind::ElectedGames,
        Kind::Progressive,
        Kind::Buchholz,
        Kind::ForeBuchholz,
        Kind::AverageOpponentsBuchholz,
        Kind::SonnebornBerger,
        Kind::Koya,
        Kind::AverageRating,
        Kind::PerformanceRating,
        Kind::PerfectPerformance,
        Kind::AverageOpponentsPerformance,
        Kind::AverageOpponentsPerfectPerformance,
    ];

    /// The code, as C.07 and TRF-26 write it.
    pub(crate) fn code(self) -> &'static str {
        match self {
            Kind::Points => "PTS",
            Kind::DirectEncounter => "DE",
            Kind::Wins => "WIN",
            Kind::WonGames => "WON",
            Kind::BlackGames => "BPG",
            Kind::BlackWins => "BWG",
            Kind::ElectedGames => "GE",
            Kind::Progressive => "PS",
            Kind::Buchholz => "BH",
            Kind::ForeBuchholz => "FB",
            Kind::AverageOpponentsBuchholz => "AOB",
            Kind::SonnebornBerger => "SB",
            Kind::Koya => "KS",
            Kind::AverageRating => "ARO",
            Kind::PerformanceRating => "TPR",
            Kind::PerfectPerformance => "PTP",
            Kind::AverageOpponentsPerformance => "APRO",
            Kind::AverageOpponentsPerfectPerformance => "APPO",
        }
    }

    /// Whether the cut and median modifiers apply (article 14: to the sums over opponents or rounds).
    pub(crate) fn takes_cuts(self) -> bool {
        matches!(
            self,
            Kind::Progressive
                | Kind::Buchholz
                | Kind::ForeBuchholz
                | Kind::AverageOpponentsBuchholz
                | Kind::SonnebornBerger
                | Kind::AverageRating
                | Kind::PerformanceRating
                | Kind::PerfectPerformance
                | Kind::AverageOpponentsPerformance
                | Kind::AverageOpponentsPerfectPerformance
        )
    }

    /// Whether a lower value ranks higher (only `DE`, a rank).
    pub(crate) fn lower_is_better(self) -> bool {
        self == Kind::DirectEncounter
    }
}

/// A tie-break code with its modifier: `BH/C1` is Buchholz without its least significant value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TiebreakCode {
    /// The tie-break.
    pub(crate) kind: Kind,
    /// How many of the least significant values are cut (`/C1`, `/C2`, and `/M1`, `/M2`).
    pub(crate) cut_low: u8,
    /// How many of the most significant values are cut (`/M1`, `/M2`).
    pub(crate) cut_high: u8,
}

impl TiebreakCode {
    /// The code without modifier.
    pub(crate) const fn plain(kind: Kind) -> TiebreakCode {
        TiebreakCode {
            kind,
            cut_low: 0,
            cut_high: 0,
        }
    }

    /// The code with a cut of the `n` least significant values (`/Cn`).
    pub(crate) const fn cut(kind: Kind, n: u8) -> TiebreakCode {
        TiebreakCode {
            kind,
            cut_low: n,
            cut_high: 0,
        }
    }

    /// The code's column in CSV and JSON: the code, `_` for `/` (`BH/C1` is `BH_C1`).
    pub(crate) fn column(&self) -> String {
        self.to_string().replace('/', "_")
    }
}

impl fmt::Display for TiebreakCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.code())?;
        match (self.cut_low, self.cut_high) {
            (0, 0) => Ok(()),
            (low, 0) => write!(f, "/C{low}"),
            (low, _) => write!(f, "/M{low}"),
        }
    }
}

/// Why a tie-break code cannot be read: the code as written and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiebreakParseError {
    /// The code as written.
    pub(crate) code: String,
    /// What is wrong with it.
    pub(crate) reason: ParseReason,
}

/// What is wrong with a tie-break code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParseReason {
    /// No code at all (an empty list).
    Empty,
    /// No C.07 code of that name.
    UnknownCode,
    /// A modifier that is none of `C1`–`C9`, `M1`–`M9`.
    UnknownModifier(String),
    /// A modifier on a code that takes none (article 14 lists which do).
    ModifierNotAllowed,
    /// More than one modifier.
    TwoModifiers,
}

impl Explain for TiebreakParseError {
    fn explain(&self, locale: Locale) -> String {
        let code = &self.code;
        match &self.reason {
            ParseReason::Empty => localized!(
                locale,
                "no tie-break code given",
                "aucun code de départage donné"
            ),
            ParseReason::UnknownCode => localized!(
                locale,
                "{code:?} is no FIDE tie-break code (PTS, DE, WIN, WON, BPG, BWG, GE, PS, BH, FB, AOB, SB, KS, ARO, TPR, PTP, APRO, APPO)",
                "{code:?} n’est pas un code de départage FIDE (PTS, DE, WIN, WON, BPG, BWG, GE, PS, BH, FB, AOB, SB, KS, ARO, TPR, PTP, APRO, APPO)"
            ),
            ParseReason::UnknownModifier(m) => localized!(
                locale,
                "{code:?}: {m:?} is no modifier (C1, C2, M1, M2)",
                "{code:?} : {m:?} n’est pas un modificateur (C1, C2, M1, M2)"
            ),
            ParseReason::ModifierNotAllowed => localized!(
                locale,
                "{code:?}: this tie-break takes no cut or median modifier",
                "{code:?} : ce départage ne prend pas de modificateur de coupe ni de médiane"
            ),
            ParseReason::TwoModifiers => localized!(
                locale,
                "{code:?}: one modifier at most",
                "{code:?} : un seul modificateur au plus"
            ),
        }
    }
}

impl fmt::Display for TiebreakParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl std::error::Error for TiebreakParseError {}

impl FromStr for TiebreakCode {
    type Err = TiebreakParseError;

    fn from_str(text: &str) -> Result<TiebreakCode, TiebreakParseError> {
        let written = text.trim();
        let error = |reason| TiebreakParseError {
            code: written.chars().take(40).collect(),
            reason,
        };
        if written.is_empty() {
            return Err(error(ParseReason::Empty));
        }
        let upper = written.to_ascii_uppercase();
        let mut parts = upper.split(['/', '#']);
        let name = parts.next().unwrap_or_default();
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.code() == name)
            .ok_or_else(|| error(ParseReason::UnknownCode))?;
        let mut code = TiebreakCode::plain(kind);
        let mut modifiers = 0;
        for modifier in parts {
            modifiers += 1;
            if modifiers > 1 {
                return Err(error(ParseReason::TwoModifiers));
            }
            let mut chars = modifier.chars();
            let (letter, count) = (chars.next(), chars.as_str());
            let n = match count.parse::<u8>() {
                Ok(n @ 1..=9) if count.len() == 1 => n,
                _ => {
                    return Err(error(ParseReason::UnknownModifier(
                        modifier.chars().take(10).collect(),
                    )));
                }
            };
            match letter {
                Some('C') => code.cut_low = n,
                Some('M') => {
                    code.cut_low = n;
                    code.cut_high = n;
                }
                _ => {
                    return Err(error(ParseReason::UnknownModifier(
                        modifier.chars().take(10).collect(),
                    )));
                }
            }
            if !kind.takes_cuts() {
                return Err(error(ParseReason::ModifierNotAllowed));
            }
        }
        Ok(code)
    }
}

/// A list of codes separated by commas or blanks: `DE,BH/C1,BH,SB`, `PTS BH#C1 SB`.
pub(crate) fn parse_list(text: &str) -> Result<Vec<TiebreakCode>, TiebreakParseError> {
    let codes = text
        .split([',', ' ', '\t'])
        .filter(|s| !s.trim().is_empty())
        .map(str::parse)
        .collect::<Result<Vec<TiebreakCode>, _>>()?;
    if codes.is_empty() {
        return Err(TiebreakParseError {
            code: String::new(),
            reason: ParseReason::Empty,
        });
    }
    Ok(codes)
}
