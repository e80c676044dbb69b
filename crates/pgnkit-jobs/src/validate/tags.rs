//! Checks of a game's tag pairs for tournament files: the Seven Tag Roster present and well formed
//! (Edwards 1994, 8.1), `SetUp` and `Variant "Chess960"` with their `FEN`, ratings, ECO codes, dates not in
//! the future, and `PlyCount` against the moves replayed.
//!
//! Each check says what it found as a [`Finding`] (the tag and its value); the words are the finding's.

use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use pgnkit::pgn::{GameResult, SEVEN_TAG_ROSTER, roster_index};
use pgnkit::walk::{Variant, variant_of};

use super::report::{CheckedTag, Finding};
use crate::tournament::unplayed::says_double_forfeit;

/// A tag problem and the index of the tag it concerns (`None` for a missing tag: located at the game start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TagProblem {
    pub(crate) tag: Option<usize>,
    pub(crate) finding: Finding,
}

impl TagProblem {
    /// The kind of problem, from what was found.
    #[cfg(test)]
    pub(crate) fn kind(&self) -> super::ProblemKind {
        self.finding.kind()
    }
}

/// The year, month and day of a date `YYYY.MM.DD` (`None` for a part written with `?`: `2024.??.??`), or
/// `None` when it is not one (month and day must be in range when known). Bytes only, no allocation: it runs
/// on the Date and EventDate of every game.
pub(crate) fn date_parts(value: &str) -> Option<[Option<u32>; 3]> {
    let b = value.as_bytes();
    if b.len() != 10 || b[4] != b'.' || b[7] != b'.' {
        return None;
    }
    let part = |digits: &[u8], max: u32| {
        if digits.iter().all(|&c| c == b'?') {
            return Some(None);
        }
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = digits.iter().fold(0, |n, &c| n * 10 + u32::from(c - b'0'));
        (1..=max).contains(&n).then_some(Some(n))
    };
    Some([
        part(&b[..4], 9999)?,
        part(&b[5..7], 12)?,
        part(&b[8..10], 31)?,
    ])
}

/// `YYYY.MM.DD` with `??` (or `????`) for unknown parts, and month/day in range when known.
#[cfg(test)]
pub(crate) fn is_valid_date(value: &str) -> bool {
    date_parts(value).is_some()
}

/// A day of the proleptic Gregorian calendar, ordered as dates are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct CivilDate {
    /// The year (1970 or later for a date from the clock).
    pub(crate) year: u32,
    /// 1 to 12.
    pub(crate) month: u32,
    /// 1 to 31.
    pub(crate) day: u32,
}

impl CivilDate {
    /// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`), for days from 1970 on.
    pub(crate) fn from_unix_days(days: u64) -> CivilDate {
        let z = days + 719_468;
        let era = z / 146_097;
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + u64::from(month <= 2);
        CivilDate {
            year: u32::try_from(year).unwrap_or(u32::MAX),
            month: month as u32,
            day: day as u32,
        }
    }

    /// A date after every date: with a clock set before 1970 (a broken clock) no date is called future.
    pub(crate) const MAX: CivilDate = CivilDate {
        year: u32::MAX,
        month: 12,
        day: 31,
    };

    /// The latest date a game can honestly carry now: tomorrow in UTC, since a game played east of Greenwich
    /// may already be dated a day later than UTC's today. The clock is read once per process, not per game.
    pub(crate) fn latest_plausible() -> CivilDate {
        static LATEST: OnceLock<CivilDate> = OnceLock::new();
        *LATEST.get_or_init(|| match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(since) => CivilDate::from_unix_days(since.as_secs() / 86_400 + 1),
            Err(_) => CivilDate::MAX,
        })
    }
}

impl std::fmt::Display for CivilDate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

/// Whether a date of the form [`is_valid_date`] accepts is certainly after `latest`: its known leading parts
/// say so (`2099.??.??` is; `????.12.31` and `2024.??.??` in 2024 are not).
#[cfg(test)]
pub(crate) fn is_after(value: &str, latest: CivilDate) -> bool {
    date_parts(value).is_some_and(|parts| parts_after(parts, latest))
}

/// [`is_after`] on a date's parts.
fn parts_after([year, month, day]: [Option<u32>; 3], latest: CivilDate) -> bool {
    use std::cmp::Ordering::{Equal, Greater};
    let Some(year) = year else {
        return false;
    };
    match (year.cmp(&latest.year), month) {
        (Equal, Some(month)) => match (month.cmp(&latest.month), day) {
            (Equal, Some(day)) => day > latest.day,
            (order, _) => order == Greater,
        },
        (order, _) => order == Greater,
    }
}

/// A rating: digits, or nothing known (empty, `?`, `-`).
pub(crate) fn is_valid_rating(value: &str) -> bool {
    let value = value.trim();
    matches!(value, "" | "?" | "-") || value.bytes().all(|b| b.is_ascii_digit())
}

/// An ECO code from `A00` to `E99`, or `?` (or empty) when unknown. Scid's extended codes (`B21z`, `E04b`,
/// `B12a1`: a lower-case letter and an optional digit after the code) are accepted: they refine a valid code.
pub(crate) fn is_valid_eco(value: &str) -> bool {
    let b = value.trim().as_bytes();
    if matches!(b, b"" | b"?") {
        return true;
    }
    let code = b.len() >= 3
        && (b'A'..=b'E').contains(&b[0])
        && b[1].is_ascii_digit()
        && b[2].is_ascii_digit();
    code && match &b[3..] {
        [] => true,
        [letter] => letter.is_ascii_lowercase(),
        [letter, digit] => letter.is_ascii_lowercase() && digit.is_ascii_digit(),
        _ => false,
    }
}

/// `?`, `-`, or dot-separated positive numbers (`5`, `5.2`).
pub(crate) fn is_valid_round(value: &str) -> bool {
    value == "?"
        || value == "-"
        || (!value.is_empty()
            && value
                .split('.')
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit())))
}

/// A draw as some programs write it: `1/2`, `½-½` (read as `1/2-1/2`, with a note).
fn spelled_draw(value: &str) -> bool {
    GameResult::DRAW_SPELLINGS.contains(&value)
}

fn is_valid_result(value: &str) -> bool {
    GameResult::from_bytes(value.as_bytes()).is_some()
}

/// The tags whose values [`check_tags`] reads besides the Seven Tag Roster (the other tags are looked at by
/// name only, so a caller need not decode their values).
pub(crate) fn is_checked_tag(name: &[u8]) -> bool {
    matches!(
        name,
        b"SetUp" | b"Variant" | b"WhiteElo" | b"BlackElo" | b"ECO" | b"EventDate" | b"PlyCount"
    )
}

/// Checks the tags of one game, given as (name, value) in file order (names as the file has them: bytes).
/// Only the values of the Seven Tag Roster and of [`is_checked_tag`]'s tags are read. Whether the players
/// are players is the tournament's question ([`super::tournament::player_problems`]).
pub(crate) fn check_tags<V: AsRef<str>>(tags: &[(&[u8], V)]) -> Vec<TagProblem> {
    check_tags_until(tags, CivilDate::latest_plausible())
}

/// [`check_tags`], with dates after `latest` called future.
pub(crate) fn check_tags_until<V: AsRef<str>>(
    tags: &[(&[u8], V)],
    latest: CivilDate,
) -> Vec<TagProblem> {
    let mut problems = Vec::new();
    // The tags the checks below look up, found in one pass (each game's tags are checked).
    let mut roster_seen = 0u8;
    let (mut setup, mut variant, mut has_fen) = (None, None, false);
    for (i, (name, _)) in tags.iter().enumerate() {
        if let Some(r) = roster_index(name) {
            roster_seen |= 1 << r;
            continue;
        }
        match *name {
            b"SetUp" if setup.is_none() => setup = Some(i),
            b"Variant" if variant.is_none() => variant = Some(i),
            b"FEN" => has_fen = true,
            _ => {}
        }
    }
    // One problem for all the missing ones: a game without tags is one finding, not seven.
    // Bit `r` of `roster_seen` is the roster's tag `r` (`roster_index` follows the roster's order).
    let missing: Vec<&str> = SEVEN_TAG_ROSTER
        .into_iter()
        .enumerate()
        .filter(|&(r, _)| roster_seen & (1 << r) == 0)
        .map(|(_, name)| name)
        .collect();
    if !missing.is_empty() {
        problems.push(TagProblem {
            tag: None,
            finding: Finding::MissingTags { missing },
        });
    }
    let mut push = |tag, finding| {
        problems.push(TagProblem {
            tag: Some(tag),
            finding,
        })
    };
    // In file order, so that the problems come out in the order of their tags.
    for (i, (name, value)) in tags.iter().enumerate() {
        let value = value.as_ref();
        match *name {
            // EventDate is no roster tag, and exporters (ChessBase among them) write `?` when they do not
            // know it: only Date must be spelled `????.??.??`.
            b"EventDate" if matches!(value.trim(), "" | "?") => {}
            b"Date" | b"EventDate" => {
                let tag = if *name == b"Date" {
                    CheckedTag::Date
                } else {
                    CheckedTag::EventDate
                };
                // The value is copied only into a finding: every game has a Date.
                let parts = date_parts(value);
                if parts.is_none() {
                    push(i, malformed(tag, value));
                } else if parts.is_some_and(|parts| parts_after(parts, latest)) {
                    let value = value.to_owned();
                    push(i, Finding::FutureDate { tag, value });
                }
            }
            b"Round" if !is_valid_round(value) => push(i, malformed(CheckedTag::Round, value)),
            b"Result" if spelled_draw(value) => push(
                i,
                Finding::DrawTagSpelling {
                    value: value.to_owned(),
                },
            ),
            // A double forfeit's `0-0` is no PGN result but says what happened: the tournament model reads it,
            // and validate notes it as a forfeit.
            b"Result" if !is_valid_result(value) && !says_double_forfeit(value) => {
                push(i, malformed(CheckedTag::Result, value))
            }
            b"WhiteElo" | b"BlackElo" if !is_valid_rating(value) => {
                let tag = if *name == b"WhiteElo" {
                    CheckedTag::WhiteElo
                } else {
                    CheckedTag::BlackElo
                };
                push(i, malformed(tag, value));
            }
            b"ECO" if !is_valid_eco(value) => push(i, malformed(CheckedTag::Eco, value)),
            b"PlyCount" if parse_ply_count(value).is_err() => {
                push(i, malformed(CheckedTag::PlyCount, value));
            }
            _ => {}
        }
    }
    if let Some(i) = setup
        && tags[i].1.as_ref() == "1"
        && !has_fen
    {
        push(i, Finding::SetupWithoutFen);
    }
    if let Some(i) = variant
        && variant_of(Some(tags[i].1.as_ref())) == Ok(Variant::Chess960)
        && !has_fen
    {
        let value = tags[i].1.as_ref().to_owned();
        push(i, Finding::Chess960WithoutFen { value });
    }
    problems
}

/// A tag value not in its standard form.
fn malformed(tag: CheckedTag, value: &str) -> Finding {
    Finding::MalformedTag {
        tag,
        value: value.to_owned(),
    }
}

/// A PlyCount value: `Ok(None)` when unknown (empty, `?`, `-`), `Ok(Some(n))` for a number, `Err` otherwise.
fn parse_ply_count(value: &str) -> Result<Option<u32>, ()> {
    let value = value.trim();
    if matches!(value, "" | "?" | "-") {
        return Ok(None);
    }
    if !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    // A number of half-moves too large for any game is still a number: it disagrees with the moves.
    Ok(Some(value.parse().unwrap_or(u32::MAX)))
}

/// The PlyCount tag against the main-line half-moves of a game that replayed to its end (`plies`): a problem
/// when the tag is a number that differs. Given the tags as [`check_tags`] is.
pub(crate) fn check_ply_count<V: AsRef<str>>(
    tags: &[(&[u8], V)],
    plies: u32,
) -> Option<TagProblem> {
    let i = tags.iter().position(|(n, _)| *n == b"PlyCount")?;
    let value = tags[i].1.as_ref();
    let count = parse_ply_count(value).ok().flatten()?;
    (count != plies).then(|| TagProblem {
        tag: Some(i),
        finding: Finding::PlyCountMismatch {
            value: value.to_owned(),
            plies,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::ProblemKind;

    #[test]
    fn dates() {
        for ok in ["2024.05.17", "2024.??.??", "????.??.??", "1851.06.21"] {
            assert!(is_valid_date(ok), "{ok}");
        }
        for bad in [
            "2024-05-17",
            "2024.13.01",
            "2024.5.17",
            "24.05.17",
            "",
            "2024.00.10",
            "2024.05",
        ] {
            assert!(!is_valid_date(bad), "{bad}");
        }
    }

    #[test]
    fn missing_roster_tags_and_setup_tags_are_found_wherever_the_tags_stand() {
        let kinds = |tags: &[(&str, &str)]| -> Vec<(ProblemKind, Option<usize>, String)> {
            let tags: Vec<(&[u8], &str)> = tags.iter().map(|(n, v)| (n.as_bytes(), *v)).collect();
            check_tags(&tags)
                .into_iter()
                .map(|p| (p.kind(), p.tag, p.finding.to_string()))
                .collect()
        };
        let roster = [
            ("Event", "e"),
            ("Site", "s"),
            ("Date", "2024.01.02"),
            ("Round", "1"),
            ("White", "w"),
            ("Black", "b"),
            ("Result", "*"),
        ];
        assert_eq!(kinds(&roster), []);
        // Any order, with other tags between: nothing missing.
        let mut shuffled = roster.to_vec();
        shuffled.reverse();
        shuffled.insert(3, ("Annotator", "a"));
        assert_eq!(kinds(&shuffled), []);
        // The missing ones, in roster order whatever order the others come in.
        let some = [
            ("Result", "*"),
            ("Annotator", "a"),
            ("Site", "s"),
            ("White", "w"),
        ];
        let found = kinds(&some);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, ProblemKind::MissingTag);
        assert!(
            found[0].2.ends_with("tags: Event, Date, Round, Black"),
            "{}",
            found[0].2
        );
        // SetUp "1" and Chess960 need a FEN tag, before or after them; the problem points at their tag.
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut tags = roster.to_vec();
            tags.extend_from_slice(extra);
            kinds(&tags)
                .into_iter()
                .map(|(kind, tag, _)| (kind, tag))
                .collect::<Vec<_>>()
        };
        let fen = ("FEN", "8/8/8/8/8/8/8/K1k5 w - - 0 1");
        assert_eq!(
            with(&[("SetUp", "1")]),
            [(ProblemKind::SetupWithoutFen, Some(7))]
        );
        assert_eq!(with(&[("SetUp", "1"), fen]), []);
        assert_eq!(with(&[fen, ("SetUp", "1")]), []);
        assert_eq!(with(&[("SetUp", "0")]), []);
        assert_eq!(
            with(&[("Annotator", "a"), ("Variant", "chess960")]),
            [(ProblemKind::Chess960WithoutFen, Some(8))]
        );
        assert_eq!(with(&[fen, ("Variant", "Chess960")]), []);
        assert_eq!(with(&[("Variant", "Standard")]), []);
    }

    #[test]
    fn rounds_and_results() {
        assert!(
            is_valid_round("5")
                && is_valid_round("5.2")
                && is_valid_round("?")
                && is_valid_round("-")
        );
        assert!(!is_valid_round("five") && !is_valid_round("5.") && !is_valid_round(""));
        assert!(is_valid_result("1/2-1/2") && !is_valid_result("½-½"));
    }

    #[test]
    fn missing_and_malformed_tags_are_named() {
        let tags = [
            ("Event", "Club ch"),
            ("Site", "Paris"),
            ("Date", "2024/05/17"),
            ("Round", "3"),
            ("White", "A"),
            ("Result", "1-0"),
            ("SetUp", "1"),
        ];
        let tags: Vec<(&[u8], &str)> = tags.iter().map(|(n, v)| (n.as_bytes(), *v)).collect();
        let problems = check_tags(&tags);
        let kinds: Vec<ProblemKind> = problems.iter().map(|p| p.kind()).collect();
        assert_eq!(
            kinds,
            vec![
                ProblemKind::MissingTag,
                ProblemKind::MalformedTag,
                ProblemKind::SetupWithoutFen,
            ]
        );
        assert_eq!(
            problems[0].finding.to_string(),
            "missing Seven Tag Roster tag: Black"
        );
        assert_eq!(problems[1].tag, Some(2));
        let none: Vec<(&[u8], &str)> = Vec::new();
        let problems = check_tags(&none);
        assert_eq!(problems.len(), 1, "one problem for all seven");
        assert_eq!(
            problems[0].finding.to_string(),
            "missing Seven Tag Roster tags: Event, Site, Date, Round, White, Black, Result"
        );
        let draw = [(&b"Result"[..], "1/2")];
        let kinds: Vec<ProblemKind> = check_tags(&draw).iter().map(|p| p.kind()).collect();
        assert!(kinds.contains(&ProblemKind::ResultSpelling));
        assert!(!kinds.contains(&ProblemKind::MalformedTag));
    }

    /// (name, value) pairs as the engine gives them.
    fn pairs<'t>(tags: &[(&'t str, &'t str)]) -> Vec<(&'t [u8], &'t str)> {
        tags.iter().map(|(n, v)| (n.as_bytes(), *v)).collect()
    }

    /// The roster, complete and well formed, followed by `extra`.
    fn with_roster<'t>(extra: &[(&'t str, &'t str)]) -> Vec<(&'t [u8], &'t str)> {
        let mut tags = vec![
            ("Event", "Club ch"),
            ("Site", "Paris"),
            ("Date", "2024.05.17"),
            ("Round", "3"),
            ("White", "A"),
            ("Black", "B"),
            ("Result", "1-0"),
        ];
        tags.extend_from_slice(extra);
        pairs(&tags)
    }

    const TODAY: CivilDate = CivilDate {
        year: 2025,
        month: 6,
        day: 15,
    };

    fn kinds(extra: &[(&str, &str)]) -> Vec<(ProblemKind, Option<usize>)> {
        check_tags_until(&with_roster(extra), TODAY)
            .into_iter()
            .map(|p| (p.kind(), p.tag))
            .collect()
    }

    #[test]
    fn civil_dates_from_unix_days() {
        let date = |days| CivilDate::from_unix_days(days).to_string();
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(59), "1970.03.01");
        assert_eq!(date(11_016), "2000.02.29");
        assert_eq!(date(19_723), "2024.01.01");
        assert_eq!(date(20_254), "2025.06.15");
        let latest = CivilDate::latest_plausible();
        assert!(latest.year >= 2025 && (1..=12).contains(&latest.month));
    }

    #[test]
    fn future_dates_compare_their_known_parts() {
        for future in ["2025.06.16", "2025.07.??", "2026.??.??", "2999.01.01"] {
            assert!(is_after(future, TODAY), "{future}");
        }
        for past in [
            "2025.06.15",
            "2025.06.??",
            "2025.??.??",
            "????.12.31",
            "????.??.??",
            "2024.12.31",
            "1851.06.21",
        ] {
            assert!(!is_after(past, TODAY), "{past}");
        }
        assert_eq!(
            kinds(&[("EventDate", "2099.??.??")]),
            vec![(ProblemKind::FutureDate, Some(7))]
        );
        let mut tags = with_roster(&[]);
        tags[2].1 = "2052.05.17";
        let problems = check_tags_until(&tags, TODAY);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind(), ProblemKind::FutureDate);
        assert_eq!(
            problems[0].finding.to_string(),
            "Date \"2052.05.17\" is in the future"
        );
        assert!(kinds(&[("EventDate", "2024.??.??")]).is_empty());
    }

    #[test]
    fn event_date_must_be_a_date_too() {
        assert_eq!(
            kinds(&[("EventDate", "17/05/2024")]),
            vec![(ProblemKind::MalformedTag, Some(7))]
        );
        for unknown in ["????.??.??", "?", ""] {
            assert!(kinds(&[("EventDate", unknown)]).is_empty(), "{unknown:?}");
        }
        let mut tags = with_roster(&[]);
        tags[2].1 = "?";
        assert_eq!(
            check_tags_until(&tags, TODAY)[0].kind(),
            ProblemKind::MalformedTag,
            "Date is a roster tag: `????.??.??` when unknown"
        );
    }

    #[test]
    fn ratings_are_numbers_or_unknown() {
        for ok in ["2450", "0", "", "?", "-", " 2450 "] {
            assert!(is_valid_rating(ok), "{ok:?}");
            assert!(
                kinds(&[("WhiteElo", ok), ("BlackElo", ok)]).is_empty(),
                "{ok:?}"
            );
        }
        for bad in ["2450?", "abc", "24 50", "2450.5", "-1"] {
            assert!(!is_valid_rating(bad), "{bad:?}");
        }
        let problems = check_tags_until(&with_roster(&[("BlackElo", "n/a")]), TODAY);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind(), ProblemKind::MalformedTag);
        assert_eq!(
            problems[0].finding.to_string(),
            "BlackElo \"n/a\" is not a rating: a number, or ? when unknown"
        );
    }

    #[test]
    fn eco_codes_run_from_a00_to_e99() {
        for ok in ["A00", "E99", "B90", "?", "", "B21z", "E04b", "B12a1"] {
            assert!(is_valid_eco(ok), "{ok:?}");
        }
        for bad in [
            "Z00", "F00", "a00", "B9", "B900", "B21Z", "B21ab", "e99", "B-2",
        ] {
            assert!(!is_valid_eco(bad), "{bad:?}");
        }
        assert_eq!(
            kinds(&[("ECO", "Z00")]),
            vec![(ProblemKind::MalformedTag, Some(7))]
        );
        assert!(kinds(&[("ECO", "?")]).is_empty());
    }

    #[test]
    fn chess960_needs_its_fen() {
        for spelling in ["Chess960", "chess 960", "Fischerandom", "FISCHER RANDOM"] {
            assert_eq!(
                kinds(&[("Variant", spelling)]),
                vec![(ProblemKind::Chess960WithoutFen, Some(7))],
                "{spelling}"
            );
            let with_fen = [
                ("Variant", spelling),
                ("SetUp", "1"),
                (
                    "FEN",
                    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                ),
            ];
            assert!(kinds(&with_fen).is_empty(), "{spelling}");
        }
        assert!(kinds(&[("Variant", "Standard")]).is_empty());
        // An unsupported variant is reported by the replay, not here.
        assert!(kinds(&[("Variant", "Crazyhouse")]).is_empty());
    }

    #[test]
    fn ply_count_against_the_moves() {
        let tags = with_roster(&[("PlyCount", "81")]);
        assert_eq!(check_ply_count(&tags, 81), None);
        let problem = check_ply_count(&tags, 80).expect("80 is not 81");
        assert_eq!(problem.kind(), ProblemKind::PlyCountMismatch);
        assert_eq!(problem.tag, Some(7));
        assert_eq!(
            problem.finding.to_string(),
            "PlyCount \"81\" disagrees with the main line, which has 80 half-moves"
        );
        for unknown in ["?", "", "-"] {
            let tags = with_roster(&[("PlyCount", unknown)]);
            assert_eq!(check_ply_count(&tags, 80), None, "{unknown:?}");
            assert!(kinds(&[("PlyCount", unknown)]).is_empty());
        }
        assert_eq!(check_ply_count(&with_roster(&[]), 80), None);
        let huge = with_roster(&[("PlyCount", "99999999999999999999")]);
        assert!(
            check_ply_count(&huge, 80).is_some(),
            "too large is still wrong"
        );
        assert_eq!(
            kinds(&[("PlyCount", "eighty")]),
            vec![(ProblemKind::MalformedTag, Some(7))]
        );
        assert_eq!(
            check_ply_count(&with_roster(&[("PlyCount", "eighty")]), 80),
            None
        );
    }

    #[test]
    fn a_clean_tag_section_has_nothing_to_say() {
        let extra = [
            ("EventDate", "2024.05.15"),
            ("WhiteElo", "2100"),
            ("BlackElo", "?"),
            ("ECO", "C42"),
            ("PlyCount", "41"),
            ("Variant", "Standard"),
        ];
        assert!(kinds(&extra).is_empty());
        for (name, _) in extra {
            assert!(is_checked_tag(name.as_bytes()), "{name}");
        }
        assert!(!is_checked_tag(b"Annotator"));
    }
}
