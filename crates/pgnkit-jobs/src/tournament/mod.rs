//! The tournament, defined once for every command: validate's checks across games, `standings` (its table,
//! CSV, JSON and TRF), `report` (its standings, crosstables and warnings) and `stats --summary` all read it,
//! and none computes any part of it again.
//!
//! * **The key** (`TournamentKey`): Event, Site and year (of EventDate, else of Date), across all the inputs
//!   of a run, so a tournament kept as one file per round is one tournament and "Dortmund" over 82 years is
//!   82 tournaments. A game whose Event says nothing (`is_unknown`: missing, empty, `?`, `-`) belongs to
//!   none.
//! * **Players** (`PlayerInfo`): told apart by their White or Black tag, trimmed; a name that names nobody
//!   (`names_nobody`) or one player on both sides makes a game no pairing (`not_a_pairing`).
//! * **Rounds**: the number before the first `.` of the Round tag (`round_number`; `round_of` for the
//!   tables, which read round 0 as none).
//! * **The same game twice**: validate's `duplicate_game` rule, by its fingerprint of the players and the main
//!   line (`GameEntry::fingerprint`); a game without moves is the same as no other.
//! * **Games that are not games of the tournament**: no pairing, or a copy (`LeftOut`); unfinished games
//!   pair two players and score nothing.
//! * **Games not played over the board** (`unplayed`): forfeits, double forfeits, games of less than a move
//!   and bye games, read from the tags and moves under the arbiter's [`crate::options::UnplayedRules`]; players are told
//!   apart by FIDE id where the games give one.
//! * **Rounds** (`crosstable`): the games and byes placed in rounds (`Placement`) and the round-by-round
//!   table in TRF's result codes (`CrossTable`).
//! * **Pairings, results and standings** ([`Standings`], `Tournament`, `Pairing`, `Standing`) with
//!   the ranking by FIDE's C.07 tie-breaks (`fide_tiebreaks`, by their codes: `tiebreak_codes`) over the
//!   tournament's `CrossTable`, and the performance rating (`perf`).

// Read by the C.07 tie-breaks and the TRF reader and writer as they move onto it (issue 39).
#[allow(dead_code)]
pub(crate) mod crosstable;
// The C.07 tie-breaks over a cross table and the TRF reader: wired into standings and validate by issue 39.
#[allow(dead_code)]
pub(crate) mod fide_tiebreaks;
mod identity;
pub(crate) mod perf;
mod standings;
pub(crate) mod tiebreak_codes;
#[allow(dead_code)]
pub(crate) mod trf_read;
pub(crate) mod unplayed;

#[cfg(test)]
pub(crate) use crosstable::PairingKind;
#[cfg(test)]
pub(crate) use identity::round_of;
pub(crate) use identity::{
    Date, NotAPairing, PlayerInfo, TournamentKey, fide_id_of, is_unknown, names_nobody,
    not_a_pairing, round_number, year_of,
};
#[cfg(test)]
pub(crate) use standings::LeftOut;
pub(crate) use standings::{
    Added, Bounds, Pairing, Standing, TiebreakColumns, Tournament, codes_of, decimal,
};
pub use standings::{GameEntry, Standings};
pub(crate) use tiebreak_codes::TiebreakCode;
