//! The `TimeControl` tag (PGN standard 9.6.1) and the speed categories Lichess files games under.

use std::fmt;

/// How fast a game is, as Lichess classifies it: by the estimated duration of a game of 40 moves a side,
/// the initial time plus 40 times the increment (UltraBullet under 30 s, Bullet under 3 min, Blitz under
/// 8 min, Rapid under 25 min, Classical under 6 h; longer, or no clock at all (`-`), Correspondence).
///
/// ```
/// use pgnkit::pgn::Speed;
///
/// assert_eq!(Speed::from_time_control("180+2"), Some(Speed::Blitz)); // 180 + 40 × 2 = 260 s
/// assert_eq!(Speed::from_time_control("60+0"), Some(Speed::Bullet));
/// assert_eq!(Speed::from_time_control("40/5400+30:1800+30"), Some(Speed::Classical));
/// assert_eq!(Speed::from_time_control("-"), Some(Speed::Correspondence));
/// assert_eq!(Speed::from_time_control("?"), None);
/// assert_eq!(Speed::Blitz.as_str(), "blitz");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Under 30 seconds.
    UltraBullet,
    /// 30 seconds to under 3 minutes.
    Bullet,
    /// 3 to under 8 minutes.
    Blitz,
    /// 8 to under 25 minutes.
    Rapid,
    /// 25 minutes to under 6 hours.
    Classical,
    /// 6 hours or more, or no clock.
    Correspondence,
}

impl Speed {
    /// The category of a game whose estimated duration is `seconds`.
    pub fn from_estimate(seconds: f64) -> Speed {
        match seconds {
            s if s < 30.0 => Speed::UltraBullet,
            s if s < 180.0 => Speed::Bullet,
            s if s < 480.0 => Speed::Blitz,
            s if s < 1500.0 => Speed::Rapid,
            s if s < 21600.0 => Speed::Classical,
            _ => Speed::Correspondence,
        }
    }

    /// The category a `TimeControl` tag value gives: its first period's time (`300`, `40/7200`, the
    /// sandglass `*180`) plus 40 times its increment (`+2`); `-` (no clock) is Correspondence. `None` for
    /// `?`, an empty value or one that does not read.
    pub fn from_time_control(value: &str) -> Option<Speed> {
        let value = value.trim();
        if value == "-" {
            return Some(Speed::Correspondence);
        }
        let first = value.split(':').next()?;
        let first = first.strip_prefix('*').unwrap_or(first);
        // `moves/seconds`: the seconds count.
        let timed = first.rsplit_once('/').map_or(first, |(_, t)| t);
        let (base, increment) = timed.split_once('+').unwrap_or((timed, "0"));
        let seconds = |s: &str| -> Option<f64> {
            // Whole seconds, nearly every value: read as an integer, exact as a float below 2^53, where the
            // float parser costs more than the rest of the row (stats reads one a game).
            if (1..=15).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()) {
                return Some(s.bytes().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')) as f64);
            }
            let ok = !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                && s.bytes().filter(|&b| b == b'.').count() <= 1;
            if ok { s.parse().ok() } else { None }
        };
        Some(Speed::from_estimate(
            seconds(base)? + 40.0 * seconds(increment)?,
        ))
    }

    /// The category's word: `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical`, `correspondence`.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_seconds_read_as_the_float_parser_reads_them() {
        // Around every category's edge, with leading zeros, and digit runs of up to 20 (past the integer
        // path's 15), as base and as increment.
        let mut numbers: Vec<String> = [
            0u64, 1, 2, 29, 30, 179, 180, 479, 480, 1499, 1500, 21599, 21600,
        ]
        .iter()
        .flat_map(|n| [n.to_string(), format!("00{n}")])
        .collect();
        numbers.extend((1..=20).map(|len| "9".repeat(len)));
        numbers.extend((1..=20).map(|len| format!("1{}", "0".repeat(len - 1))));
        for base in &numbers {
            for increment in ["0", "1", "3", "0010", "999999999999999", "9999999999999999"] {
                let expected =
                    base.parse::<f64>().unwrap() + 40.0 * increment.parse::<f64>().unwrap();
                let value = format!("{base}+{increment}");
                assert_eq!(
                    Speed::from_time_control(&value),
                    Some(Speed::from_estimate(expected)),
                    "{value}"
                );
            }
        }
    }

    #[test]
    fn lichess_boundaries() {
        // 15+0 is UltraBullet, 0+1 (40 s) Bullet, 2+1 (160 s) Bullet, 3+0 Blitz, 5+3 (420 s) Blitz, 8+0 Rapid,
        // 10+5 (800 s) Rapid, 15+10 (1300 s) Rapid, 25+0 Classical, 30+20 Classical.
        for (tc, speed) in [
            ("15+0", Speed::UltraBullet),
            ("29", Speed::UltraBullet),
            ("30", Speed::Bullet),
            ("0+1", Speed::Bullet),
            ("120+1", Speed::Bullet),
            ("179", Speed::Bullet),
            ("180+0", Speed::Blitz),
            ("300+3", Speed::Blitz),
            ("479", Speed::Blitz),
            ("480+0", Speed::Rapid),
            ("600+5", Speed::Rapid),
            ("900+10", Speed::Rapid),
            ("1499", Speed::Rapid),
            ("1500+0", Speed::Classical),
            ("1800+20", Speed::Classical),
            ("21599", Speed::Classical),
            ("21600", Speed::Correspondence),
            ("-", Speed::Correspondence),
            ("*180", Speed::Blitz),
            ("40/7200:3600", Speed::Classical),
            ("0.25+0", Speed::UltraBullet),
        ] {
            assert_eq!(Speed::from_time_control(tc), Some(speed), "{tc}");
        }
        for unread in ["", "?", "blitz", "3+", "+2", "1.2.3", "-5"] {
            assert_eq!(Speed::from_time_control(unread), None, "{unread}");
        }
    }
}
