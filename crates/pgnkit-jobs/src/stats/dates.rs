//! Dates as typed tables hold them: the Date tag as a calendar day and its known parts, UTCDate and UTCTime
//! as a day and an instant. CSV and JSON lines keep the tags' text as written; only typed tables (Parquet,
//! Arrow) read them, so a reading here never changes what the text formats say.
//!
//! What is read:
//! * `YYYY.MM.DD`, surrounding blanks ignored, `-` or `/` accepted in place of both dots (`2025-05-17`);
//!   a bare year `YYYY`, as older databases write it;
//! * a part written with `?` (`2025.05.??`, `????.??.??`) or with zeros (`0000`, `00`: the placeholder some
//!   programs write) is unknown, and the others are still read;
//! * a part that is neither (`2025.5.17`, `2025.13.01`, `20x5`) makes the whole value unreadable: a date
//!   that is wrong in one place is not trusted in the others, as validate calls it malformed.
//!
//! A complete date is a [`Day`] only when that day exists (`2025.02.30` has its three parts but no day).
//! Days are of the proleptic Gregorian calendar, Arrow's and Parquet's: a date before 1582 is read as
//! written, not converted from the Julian calendar its source may have used.

use std::fmt;

/// A day that exists in the proleptic Gregorian calendar, years 1 to 9999.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Day {
    year: u16,
    month: u8,
    day: u8,
}

/// Days in `month` (1 to 12) of `year`.
fn month_days(year: u16, month: u8) -> u8 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Day {
    /// The day, if it exists.
    pub(crate) fn new(year: u16, month: u8, day: u8) -> Option<Day> {
        ((1..=9999).contains(&year)
            && (1..=12).contains(&month)
            && (1..=month_days(year, month)).contains(&day))
        .then_some(Day { year, month, day })
    }

    /// Days since 1970-01-01, negative before (Howard Hinnant's `days_from_civil`): Arrow's `Date32`.
    pub(crate) fn unix_days(self) -> i32 {
        // The year starts in March, so that a leap day is the last of its year.
        let (month, day) = (i64::from(self.month), i64::from(self.day));
        let year = i64::from(self.year) - i64::from(month <= 2);
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        // Years 1 to 9999 are within about 3.7 million days of 1970.
        (era * 146_097 + day_of_era - 719_468) as i32
    }
}

impl Day {
    /// The day as the number `YYYYMMDD`, which orders days as time does.
    pub(crate) fn number(self) -> u32 {
        u32::from(self.year) * 10_000 + u32::from(self.month) * 100 + u32::from(self.day)
    }
}

impl fmt::Display for Day {
    /// ISO 8601: `2025-05-17`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The parts of a PGN date that are known: none when the value cannot be read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DateParts {
    pub(crate) year: Option<u16>,
    pub(crate) month: Option<u8>,
    pub(crate) day: Option<u8>,
}

/// A part of a date: `Ok(None)` when unknown (`?`s or zeros), `Err` when it is no part of a date.
fn part(digits: &[u8], max: u16) -> Result<Option<u16>, ()> {
    if digits.iter().all(|&b| b == b'?') {
        return Ok(None);
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return Err(());
    }
    let n = digits
        .iter()
        .fold(0u16, |n, &b| n * 10 + u16::from(b - b'0'));
    match n {
        0 => Ok(None),
        n if n <= max => Ok(Some(n)),
        _ => Err(()),
    }
}

impl DateParts {
    /// The parts of a Date tag's value (see the module's description of what is read).
    pub(crate) fn read(value: &str) -> DateParts {
        Self::try_read(value.trim_ascii().as_bytes()).unwrap_or_default()
    }

    fn try_read(b: &[u8]) -> Result<DateParts, ()> {
        let (year, month, day) = match b.len() {
            4 => (&b[..4], None, None),
            10 if b[4] == b[7] && matches!(b[4], b'.' | b'-' | b'/') => {
                (&b[..4], Some(&b[5..7]), Some(&b[8..10]))
            }
            _ => return Err(()),
        };
        // Parts of at most two digits fit a `u8`.
        let small = |digits: Option<&[u8]>, max| match digits {
            Some(d) => part(d, max).map(|n| n.map(|n| n as u8)),
            None => Ok(None),
        };
        Ok(DateParts {
            year: part(year, 9999)?,
            month: small(month, 12)?,
            day: small(day, 31)?,
        })
    }

    /// The day the date names, when all its parts are known and that day exists.
    pub(crate) fn day(self) -> Option<Day> {
        Day::new(self.year?, self.month?, self.day?)
    }
}

/// Seconds since midnight of a UTCTime value `HH:MM:SS` (surrounding blanks ignored); `None` for anything
/// else, a leap second's `60` included (no day of the tables has one).
pub(crate) fn time_of_day(value: &str) -> Option<u32> {
    let b = value.trim_ascii().as_bytes();
    if b.len() != 8 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    let two = |at: usize, max: u32| {
        let (tens, units) = (b[at], b[at + 1]);
        (tens.is_ascii_digit() && units.is_ascii_digit())
            .then(|| u32::from(tens - b'0') * 10 + u32::from(units - b'0'))
            .filter(|&n| n <= max)
    };
    Some(two(0, 23)? * 3600 + two(3, 59)? * 60 + two(6, 59)?)
}

/// Microseconds since 1970-01-01T00:00:00 UTC of `seconds` into `day`: Arrow's `Timestamp(Microsecond)`.
pub(crate) fn unix_micros(day: Day, seconds: u32) -> i64 {
    (i64::from(day.unix_days()) * 86_400 + i64::from(seconds)) * 1_000_000
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(year: Option<u16>, month: Option<u8>, day: Option<u8>) -> DateParts {
        DateParts { year, month, day }
    }

    #[test]
    fn complete_dates_are_days_and_partial_ones_keep_their_known_parts() {
        let read = DateParts::read;
        assert_eq!(read("2025.05.17"), parts(Some(2025), Some(5), Some(17)));
        assert_eq!(
            read("2025.05.17").day().map(|d| d.to_string()),
            Some("2025-05-17".into())
        );
        assert_eq!(read("2025.05.??"), parts(Some(2025), Some(5), None));
        assert_eq!(read("2025.??.??"), parts(Some(2025), None, None));
        assert_eq!(read("????.??.??"), DateParts::default());
        assert_eq!(read("????.05.17"), parts(None, Some(5), Some(17)));
        assert_eq!(read("1000.??.??"), parts(Some(1000), None, None));
        assert_eq!(read("1990"), parts(Some(1990), None, None));
        assert_eq!(read("????"), DateParts::default());
        assert_eq!(read("2025.05.??").day(), None);
    }

    #[test]
    fn zeros_are_unknown_parts() {
        assert_eq!(DateParts::read("0000.00.00"), DateParts::default());
        assert_eq!(DateParts::read("1990.00.00"), parts(Some(1990), None, None));
        assert_eq!(
            DateParts::read("0000.05.17"),
            parts(None, Some(5), Some(17))
        );
        assert_eq!(DateParts::read("0000.05.17").day(), None);
    }

    #[test]
    fn blanks_around_and_other_separators_are_read() {
        let may = parts(Some(2025), Some(5), Some(17));
        for value in [" 2025.05.17 ", "\t2025.05.17", "2025-05-17", "2025/05/17"] {
            assert_eq!(DateParts::read(value), may, "{value:?}");
        }
    }

    #[test]
    fn a_date_wrong_in_one_place_is_not_read_at_all() {
        for value in [
            "",
            "?",
            "2025.5.17",
            "2025.13.01",
            "2025.05.32",
            "2025.05-17",
            "2025 05 17",
            "20x5.05.17",
            "2025.0?.17",
            "17.05.2025",
            "2025.05.17.",
            "+025.05.17",
            "２０２５",
            "2025.05.1é",
        ] {
            assert_eq!(DateParts::read(value), DateParts::default(), "{value:?}");
        }
    }

    #[test]
    fn impossible_days_have_their_parts_but_no_day() {
        let feb30 = DateParts::read("2025.02.30");
        assert_eq!(feb30, parts(Some(2025), Some(2), Some(30)));
        assert_eq!(feb30.day(), None);
        assert_eq!(DateParts::read("2023.02.29").day(), None);
        assert_eq!(DateParts::read("2025.04.31").day(), None);
        // Leap years of the Gregorian calendar, before 1582 too.
        for leap in ["2024.02.29", "2000.02.29", "1600.02.29", "1200.02.29"] {
            assert!(DateParts::read(leap).day().is_some(), "{leap}");
        }
        for common in ["1900.02.29", "2100.02.29", "1300.02.29"] {
            assert_eq!(DateParts::read(common).day(), None, "{common}");
        }
    }

    #[test]
    fn unix_days_count_days_from_1970() {
        assert_eq!(Day::new(1970, 1, 1).unwrap().unix_days(), 0);
        assert_eq!(Day::new(2025, 5, 17).unwrap().unix_days(), 20_225);
        assert_eq!(Day::new(1969, 12, 31).unwrap().unix_days(), -1);
        // Python's date(1, 1, 1).toordinal() is 1 and date(1970, 1, 1)'s is 719163.
        assert_eq!(Day::new(1, 1, 1).unwrap().unix_days(), -719_162);
        // Every day from year 1 to 9999, counted one by one: one more than the day before.
        let (mut year, mut month, mut day) = (1u16, 1u8, 1u8);
        let mut expected = -719_162;
        loop {
            let today = Day::new(year, month, day).unwrap();
            assert_eq!(today.unix_days(), expected, "{today}");
            if (year, month, day) == (9999, 12, 31) {
                break;
            }
            expected += 1;
            day += 1;
            if day > month_days(year, month) {
                (month, day) = (month + 1, 1);
                if month > 12 {
                    (year, month) = (year + 1, 1);
                }
            }
        }
        assert_eq!(expected, 2_932_896);
    }

    #[test]
    fn utc_times_are_seconds_since_midnight() {
        assert_eq!(time_of_day("00:00:07"), Some(7));
        assert_eq!(time_of_day(" 23:59:59 "), Some(86_399));
        assert_eq!(time_of_day("12:30:00"), Some(45_000));
        for bad in [
            "", "24:00:00", "12:60:00", "12:00:60", "1:00:00", "12:00", "12.00.00", "??:??:??",
        ] {
            assert_eq!(time_of_day(bad), None, "{bad:?}");
        }
        let day = Day::new(2025, 5, 1).unwrap();
        assert_eq!(unix_micros(day, 7), 1_746_057_607_000_000);
    }
}
