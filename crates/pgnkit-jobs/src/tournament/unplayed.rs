//! Games of a tournament that are not games played over the board, read from the PGN alone: PGN has no
//! standard mark for a forfeit or a bye, so each is read from what tournament files write.
//!
//! The arbiter's say where the files' marks are not enough is [`crate::options::UnplayedRules`].
//!
//! * **Forfeit** (TRF `+`/`-`): a Termination tag that says so (`forfeit`, `Forfeit win`, `forfait`; not
//!   `Time forfeit`, a game lost on time), or a decided result (`1-0`, `0-1`) with no move at all, unless the
//!   arbiter says otherwise ([`Moveless`]). A draw without moves is no forfeit.
//! * **Double forfeit** (`-` for both): a Result tag `0-0` (or `-/-`, `-:-`, `0:0`), or a Termination tag
//!   saying `double forfeit`.
//! * **Bye** (TRF `F`/`U` full point, `H` half point, `Z` zero): a game one side of which names a bye (`BYE`,
//!   `bye`, `(bye)`, `-bye-`, `spielfrei`, `exempt`), or is empty (`""`, the tag present) in a game with a
//!   result and no moves, while the other names a player; the player's score in it is the bye's value. A
//!   missing White or Black tag is no bye: the game names nobody on that side.

use pgnkit::Color;

use super::identity::names_nobody;
use crate::options::Moveless;

/// Result tags that say neither player played.
const DOUBLE_FORFEIT_RESULTS: [&str; 4] = ["0-0", "-/-", "-:-", "0:0"];

/// Whether a Result tag says neither player played (`0-0`, `-/-`, `-:-`, `0:0`): PGN has no result for a double
/// forfeit, and files write it so.
pub(crate) fn says_double_forfeit(result: &str) -> bool {
    DOUBLE_FORFEIT_RESULTS.contains(&result.trim())
}

/// Whether a White or Black tag names a bye rather than a player.
pub(crate) fn names_a_bye(name: &str) -> bool {
    let name = name.trim();
    ["bye", "(bye)", "-bye-", "spielfrei", "exempt"]
        .iter()
        .any(|b| name.eq_ignore_ascii_case(b))
}

/// Whether a Termination tag says the game was forfeited (not `Time forfeit`: a game lost on time was played).
pub(crate) fn says_forfeit(termination: &str) -> bool {
    let t = termination.to_ascii_lowercase();
    (t.contains("forfeit") || t.contains("forfait")) && !t.contains("time")
}

/// What the tags and moves of a game say about whether it was played: the facts, read once; the arbiter's
/// [`UnplayedRules`] turn them into a [`Reading`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GameFacts {
    /// The main line has at least one move.
    pub(crate) moves: bool,
    /// The Termination tag says forfeit.
    pub(crate) forfeit_said: bool,
    /// The Result or Termination tag says neither player played.
    pub(crate) double_forfeit: bool,
    /// The side that names a bye, when the other names a player.
    pub(crate) bye: Option<Color>,
}

/// What a game is, for the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// A game played over the board (or unfinished).
    Played,
    /// Won by the player who scored it; the other did not play.
    Forfeit,
    /// Neither player played: both lose.
    DoubleForfeit,
    /// A game that lasted less than one move: scored, not rated.
    Unrated,
    /// A bye for `player`: no opponent.
    Bye { player: Color },
}

impl GameFacts {
    /// The facts of a game with these White, Black, Result and Termination tags (`None`: missing), whether its
    /// main line has moves, and whether its result is decided or drawn (`decided`: not `*` or unreadable).
    pub(crate) fn of(
        white: Option<&str>,
        black: Option<&str>,
        result: Option<&str>,
        termination: Option<&str>,
        moves: bool,
        decided: bool,
    ) -> GameFacts {
        let termination = termination.unwrap_or("");
        let double_forfeit = result.is_some_and(says_double_forfeit)
            || (says_forfeit(termination) && termination.to_ascii_lowercase().contains("double"));
        // An empty side is a bye only where nothing was played and a result says what the bye was worth.
        let bye_side = |name: Option<&str>| {
            name.is_some_and(|name| {
                names_a_bye(name)
                    || (name.trim().is_empty() && !moves && (decided || double_forfeit))
            })
        };
        let player = |name: Option<&str>| name.is_some_and(|n| !names_nobody(n) && !names_a_bye(n));
        let bye = if bye_side(black) && player(white) {
            Some(Color::Black)
        } else if bye_side(white) && player(black) {
            Some(Color::White)
        } else {
            None
        };
        GameFacts {
            moves,
            forfeit_said: says_forfeit(termination),
            double_forfeit,
            bye,
        }
    }

    /// What the game is, its result giving White `white_half_points` (`None`: unfinished), under `moveless`.
    pub(crate) fn reading(&self, white_half_points: Option<u8>, moveless: Moveless) -> Reading {
        if let Some(side) = self.bye {
            return Reading::Bye { player: !side };
        }
        if self.double_forfeit {
            return Reading::DoubleForfeit;
        }
        let Some(hp) = white_half_points else {
            return Reading::Played;
        };
        let decisive = hp != 1;
        if self.forfeit_said && decisive {
            return Reading::Forfeit;
        }
        if self.moves {
            return Reading::Played;
        }
        match moveless {
            Moveless::Forfeit if decisive => Reading::Forfeit,
            Moveless::Unrated => Reading::Unrated,
            _ => Reading::Played,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(white: &str, black: &str, result: &str, termination: &str, moves: bool) -> GameFacts {
        let decided = matches!(result, "1-0" | "0-1" | "1/2-1/2");
        GameFacts::of(
            Some(white),
            Some(black),
            Some(result),
            (!termination.is_empty()).then_some(termination),
            moves,
            decided,
        )
    }

    #[test]
    fn forfeits_are_read_from_the_termination_or_a_result_without_moves() {
        let f = facts("A", "B", "1-0", "", false);
        assert_eq!(f.reading(Some(2), Moveless::Forfeit), Reading::Forfeit);
        assert_eq!(f.reading(Some(2), Moveless::Unrated), Reading::Unrated);
        assert_eq!(f.reading(Some(2), Moveless::Played), Reading::Played);
        // A draw without moves is no forfeit; unrated when the arbiter says so.
        assert_eq!(f.reading(Some(1), Moveless::Forfeit), Reading::Played);
        assert_eq!(f.reading(Some(1), Moveless::Unrated), Reading::Unrated);
        // Moves: played, whatever the option.
        let f = facts("A", "B", "0-1", "", true);
        assert_eq!(f.reading(Some(0), Moveless::Forfeit), Reading::Played);
        for said in ["forfeit", "Forfeit win", "won by forfait"] {
            let f = facts("A", "B", "0-1", said, true);
            assert_eq!(
                f.reading(Some(0), Moveless::Played),
                Reading::Forfeit,
                "{said}"
            );
        }
        for not in ["Time forfeit", "time-forfeit", "Normal", "Abandoned"] {
            let f = facts("A", "B", "0-1", not, true);
            assert_eq!(
                f.reading(Some(0), Moveless::Forfeit),
                Reading::Played,
                "{not}"
            );
        }
        // Unfinished: played (a pairing without result).
        let f = facts("A", "B", "*", "", false);
        assert_eq!(f.reading(None, Moveless::Forfeit), Reading::Played);
    }

    #[test]
    fn double_forfeits_and_byes() {
        for (result, termination) in [("0-0", ""), ("-/-", ""), ("*", "double forfeit")] {
            let f = facts("A", "B", result, termination, false);
            assert_eq!(
                f.reading(None, Moveless::Played),
                Reading::DoubleForfeit,
                "{result} {termination}"
            );
        }
        for bye in [
            "BYE",
            "bye",
            " Bye ",
            "(bye)",
            "-bye-",
            "spielfrei",
            "EXEMPT",
        ] {
            let f = facts("A", bye, "1-0", "", false);
            assert_eq!(f.bye, Some(Color::Black), "{bye}");
            assert_eq!(
                f.reading(Some(2), Moveless::Forfeit),
                Reading::Bye {
                    player: Color::White
                }
            );
            let f = facts(bye, "A", "1/2-1/2", "", false);
            assert_eq!(f.bye, Some(Color::White), "{bye}");
        }
        // An empty side is a bye without moves and with a result; with moves, or unfinished, it is nobody.
        assert_eq!(facts("", "A", "0-1", "", false).bye, Some(Color::White));
        assert_eq!(facts("", "A", "0-1", "", true).bye, None);
        assert_eq!(facts("A", "", "*", "", false).bye, None);
        let missing = GameFacts::of(Some("A"), None, Some("1-0"), None, false, true);
        assert_eq!(missing.bye, None, "a missing tag names nobody");
        // Nobody against a bye, or two byes: no bye for anyone.
        assert_eq!(facts("?", "BYE", "1-0", "", false).bye, None);
        assert_eq!(facts("BYE", "", "1-0", "", false).bye, None);
        assert!(!names_a_bye("Byers, Tom"));
    }
}
