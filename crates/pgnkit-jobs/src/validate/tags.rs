//! Checks of a game's tag pairs for tournament files: the Seven Tag Roster present and well formed
//! (Edwards 1994, 8.1), and `SetUp` with its `FEN`.

use pgnkit::pgn::{GameResult, SEVEN_TAG_ROSTER};

use super::report::ProblemKind;

/// A tag problem and the index of the tag it concerns (`None` for a missing tag: located at the game start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagProblem {
    pub kind: ProblemKind,
    pub tag: Option<usize>,
    pub message: String,
}

/// `YYYY.MM.DD` with `??` (or `????`) for unknown parts, and month/day in range when known.
pub fn is_valid_date(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    let [year, month, day] = parts.as_slice() else {
        return false;
    };
    let number_or_unknown = |s: &str, len: usize, max: u32| {
        s.len() == len
            && (s.bytes().all(|b| b == b'?')
                || (s.bytes().all(|b| b.is_ascii_digit())
                    && s.parse::<u32>().is_ok_and(|n| (1..=max).contains(&n))))
    };
    number_or_unknown(year, 4, 9999)
        && number_or_unknown(month, 2, 12)
        && number_or_unknown(day, 2, 31)
}

/// `?`, `-`, or dot-separated positive numbers (`5`, `5.2`).
pub fn is_valid_round(value: &str) -> bool {
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

/// Checks the tags of one game, given as (name, value) in file order (names as the file has them: bytes).
pub fn check_tags<V: AsRef<str>>(tags: &[(&[u8], V)]) -> Vec<TagProblem> {
    let mut problems = Vec::new();
    let find = |name: &str| tags.iter().position(|(n, _)| *n == name.as_bytes());
    // One problem for all the missing ones: a game without tags is one finding, not seven.
    let missing: Vec<&str> = SEVEN_TAG_ROSTER
        .into_iter()
        .filter(|name| find(name).is_none())
        .collect();
    if !missing.is_empty() {
        problems.push(TagProblem {
            kind: ProblemKind::MissingTag,
            tag: None,
            message: format!(
                "missing Seven Tag Roster tag{}: {}",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", ")
            ),
        });
    }
    for name in SEVEN_TAG_ROSTER {
        let Some(i) = find(name) else {
            continue;
        };
        let value = tags[i].1.as_ref();
        let malformed = match name {
            "Date" => (!is_valid_date(value)).then(|| {
                format!(
                    "Date \"{value}\" is not YYYY.MM.DD (use ?? for unknown parts, e.g. 2024.??.??)"
                )
            }),
            "Round" => (!is_valid_round(value))
                .then(|| format!("Round \"{value}\" is not a number like 5 or 5.2, '?' or '-'")),
            "Result" if spelled_draw(value) => {
                problems.push(TagProblem {
                    kind: ProblemKind::ResultSpelling,
                    tag: Some(i),
                    message: format!("Result \"{value}\" read as 1/2-1/2"),
                });
                None
            }
            "Result" => (!is_valid_result(value))
                .then(|| format!("Result \"{value}\" is not one of 1-0, 0-1, 1/2-1/2, *")),
            _ => None,
        };
        if let Some(message) = malformed {
            problems.push(TagProblem {
                kind: ProblemKind::MalformedTag,
                tag: Some(i),
                message,
            });
        }
    }
    if let Some(i) = find("SetUp")
        && tags[i].1.as_ref() == "1"
        && find("FEN").is_none()
    {
        problems.push(TagProblem {
            kind: ProblemKind::SetupWithoutFen,
            tag: Some(i),
            message: "SetUp \"1\" says the game starts from a position, but there is no FEN tag"
                .into(),
        });
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let kinds: Vec<ProblemKind> = problems.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            vec![
                ProblemKind::MissingTag,
                ProblemKind::MalformedTag,
                ProblemKind::SetupWithoutFen
            ]
        );
        assert_eq!(problems[0].message, "missing Seven Tag Roster tag: Black");
        assert_eq!(problems[1].tag, Some(2));
        let none: Vec<(&[u8], &str)> = Vec::new();
        let problems = check_tags(&none);
        assert_eq!(problems.len(), 1, "one problem for all seven");
        assert_eq!(
            problems[0].message,
            "missing Seven Tag Roster tags: Event, Site, Date, Round, White, Black, Result"
        );
        let draw = [(&b"Result"[..], "1/2")];
        let kinds: Vec<ProblemKind> = check_tags(&draw).iter().map(|p| p.kind).collect();
        assert!(kinds.contains(&ProblemKind::ResultSpelling));
        assert!(!kinds.contains(&ProblemKind::MalformedTag));
    }
}
