//! Tag names with a meaning in the standard: the Seven Tag Roster (Edwards 1994, 8.1.1), which every
//! game in export format carries, in this order.

/// The Seven Tag Roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The index of a Seven Tag Roster name in [`SEVEN_TAG_ROSTER`] (names are case-sensitive).
///
/// ```
/// use pgnkit::pgn::{SEVEN_TAG_ROSTER, roster_index};
/// assert_eq!(roster_index(b"Round"), Some(3));
/// assert_eq!(SEVEN_TAG_ROSTER[3], "Round");
/// assert_eq!(roster_index(b"WhiteElo"), None);
/// ```
#[inline]
pub fn roster_index(name: &[u8]) -> Option<usize> {
    // A `match` compiles to a switch on the length and one comparison.
    Some(match name {
        b"Event" => 0,
        b"Site" => 1,
        b"Date" => 2,
        b"Round" => 3,
        b"White" => 4,
        b"Black" => 5,
        b"Result" => 6,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roster_indexs_follow_the_roster() {
        for (i, name) in SEVEN_TAG_ROSTER.iter().enumerate() {
            assert_eq!(roster_index(name.as_bytes()), Some(i), "{name}");
        }
        for name in ["WhiteElo", "event", "Sites", "", "ECO"] {
            assert_eq!(roster_index(name.as_bytes()), None, "{name}");
        }
    }
}
