//! Performance ratings as FIDE computes them for norms (Rating Regulations, table 8.1(a)): the average
//! rating of the opponents plus the rating difference `dp` that the fractional score `p` stands for.

/// `dp` for `p` = 0.50, 0.51, ... 1.00 (table 8.1(a)); below 0.50 the table is the mirror image. FIDE's
/// current table gives 800 for a perfect score (older editions left it undefined).
const DP: [i32; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// `dp` for a score given in hundredths (0..=100; larger values count as 100).
pub(crate) fn dp(hundredths: u32) -> i32 {
    let p = hundredths.min(100) as i32;
    if p >= 50 {
        DP[(p - 50) as usize]
    } else {
        -DP[(50 - p) as usize]
    }
}

/// The performance over `games` games against rated opponents whose ratings add up to `opponents_sum`,
/// scoring `half_points` half-points: `Ra + dp(p)`, with `p` rounded to two decimals and `Ra` to a whole
/// number, as FIDE rounds them. `None` without games.
pub(crate) fn performance(opponents_sum: u64, games: u64, half_points: u64) -> Option<i64> {
    if games == 0 {
        return None;
    }
    let g = u128::from(games);
    // p = half_points / (2 g), in hundredths, rounded half up (u128: no overflow whatever the counts).
    let hundredths = (100 * u128::from(half_points) + g) / (2 * g);
    let average = (2 * u128::from(opponents_sum) + g) / (2 * g);
    Some(average as i64 + i64::from(dp(hundredths.min(100) as u32)))
}

/// A rating from an Elo tag: digits only, 1 to 4000; anything else (`?`, `-`, `0`, empty) is no rating.
pub(crate) fn rating_of(tag: &str) -> Option<u16> {
    let t = tag.trim();
    if t.is_empty() || t.len() > 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse::<u16>().ok().filter(|r| (1..=4000).contains(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_symmetric_and_monotonic() {
        assert_eq!(dp(50), 0);
        assert_eq!(dp(100), 800);
        assert_eq!(dp(0), -800);
        assert_eq!(dp(75), 193);
        assert_eq!(dp(25), -193);
        assert_eq!(dp(99), 677);
        assert_eq!(dp(67), 125);
        for p in 0..100 {
            assert!(dp(p) < dp(p + 1), "{p}");
            assert_eq!(dp(p), -dp(100 - p));
        }
    }

    #[test]
    fn performance_rounds_like_fide() {
        // 6.5 / 9 against an average of 2500: p = 0.7222 -> 0.72 -> dp 166.
        assert_eq!(performance(9 * 2500, 9, 13), Some(2666));
        // 2 / 3 = 0.6667 -> 0.67 -> 125; average (2400 + 2401 + 2401) / 3 = 2400.67 -> 2401.
        assert_eq!(performance(7202, 3, 4), Some(2526));
        // 50 %
        assert_eq!(performance(2 * 2000, 2, 2), Some(2000));
        // Perfect and zero scores: the table's ends.
        assert_eq!(performance(1800, 1, 2), Some(2600));
        assert_eq!(performance(1800, 1, 0), Some(1000));
        // p = 0.125 rounds to 0.13 (half up) -> -322.
        assert_eq!(performance(8 * 2000, 8, 2), Some(2000 - 322));
        assert_eq!(performance(0, 0, 0), None);
    }

    #[test]
    fn ratings_from_tags() {
        assert_eq!(rating_of("2710"), Some(2710));
        assert_eq!(rating_of(" 1500 "), Some(1500));
        for bad in ["", "?", "-", "0", "abc", "12345", "15.5", "-100"] {
            assert_eq!(rating_of(bad), None, "{bad}");
        }
    }
}
