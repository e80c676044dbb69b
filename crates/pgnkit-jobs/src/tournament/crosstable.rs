//! A tournament round by round, in the terms FIDE's rules use: for every player and every round, who the
//! opponent was, with which colour, and how the round ended, in the result codes of the Tournament Report
//! File (TRF-16 and TRF-26: `1 = 0` for games played, `+ -` for forfeits, `W D L` for games that lasted less
//! than one move, `H F U Z` for byes and absences).
//!
//! It is the one shape the FIDE tie-breaks (C.07), the TRF writer and the TRF reader share: the tie-breaks
//! need to know a forfeit from a played game and an absence from a loss (C.07 article 16), which a list of
//! games cannot say.

use pgnkit::Color;

/// How one round ended for one player: a TRF result code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Outcome {
    /// `1`: a game won over the board.
    Win,
    /// `=`: a game drawn over the board.
    Draw,
    /// `0`: a game lost over the board.
    Loss,
    /// `+`: won by forfeit (the opponent did not play).
    ForfeitWin,
    /// `-`: lost by forfeit (this player did not play).
    ForfeitLoss,
    /// `W`: won a game that lasted less than one move (not rated).
    UnratedWin,
    /// `D`: drew a game that lasted less than one move (not rated).
    UnratedDraw,
    /// `L`: lost a game that lasted less than one move (not rated).
    UnratedLoss,
    /// `H`: a half-point bye.
    HalfPointBye,
    /// `F`: a full-point bye (asked for, not allocated by the pairing).
    FullPointBye,
    /// `U`: the pairing-allocated bye (at most one a round).
    PairingAllocatedBye,
    /// `Z` (or blank): a zero-point bye, a known absence, or a round the player was not paired in.
    ZeroPointBye,
    /// A pairing without a result yet: a game still going or never finished (`*` in PGN). TRF has no code
    /// for it; a writer leaves the result blank only where the format allows.
    Unfinished,
}

impl Outcome {
    /// Every outcome, in TRF's order.
    pub(crate) const ALL: [Outcome; 13] = [
        Outcome::Win,
        Outcome::Draw,
        Outcome::Loss,
        Outcome::ForfeitWin,
        Outcome::ForfeitLoss,
        Outcome::UnratedWin,
        Outcome::UnratedDraw,
        Outcome::UnratedLoss,
        Outcome::HalfPointBye,
        Outcome::FullPointBye,
        Outcome::PairingAllocatedBye,
        Outcome::ZeroPointBye,
        Outcome::Unfinished,
    ];

    /// The TRF result code (column 99 of round 1's block); `None` for [`Outcome::Unfinished`], which has none.
    pub(crate) fn code(self) -> Option<char> {
        Some(match self {
            Outcome::Win => '1',
            Outcome::Draw => '=',
            Outcome::Loss => '0',
            Outcome::ForfeitWin => '+',
            Outcome::ForfeitLoss => '-',
            Outcome::UnratedWin => 'W',
            Outcome::UnratedDraw => 'D',
            Outcome::UnratedLoss => 'L',
            Outcome::HalfPointBye => 'H',
            Outcome::FullPointBye => 'F',
            Outcome::PairingAllocatedBye => 'U',
            Outcome::ZeroPointBye => 'Z',
            Outcome::Unfinished => return None,
        })
    }

    /// The outcome a TRF result code stands for (letters in either case; blank is `Z`).
    pub(crate) fn from_code(code: char) -> Option<Outcome> {
        if code == ' ' {
            return Some(Outcome::ZeroPointBye);
        }
        Outcome::ALL
            .into_iter()
            .find(|o| o.code() == Some(code.to_ascii_uppercase()))
    }

    /// The points it brings, in half points, with FIDE's default scoring (win 1, draw ½; a half-point bye
    /// ½, a full-point or pairing-allocated bye 1).
    pub(crate) fn half_points(self) -> u8 {
        match self {
            Outcome::Win
            | Outcome::ForfeitWin
            | Outcome::UnratedWin
            | Outcome::FullPointBye
            | Outcome::PairingAllocatedBye => 2,
            Outcome::Draw | Outcome::UnratedDraw | Outcome::HalfPointBye => 1,
            Outcome::Loss
            | Outcome::ForfeitLoss
            | Outcome::UnratedLoss
            | Outcome::ZeroPointBye
            | Outcome::Unfinished => 0,
        }
    }

    /// Whether the game was played over the board (rated or not): C.07 article 16 counts every other round
    /// as unplayed.
    pub(crate) fn is_played(self) -> bool {
        matches!(
            self,
            Outcome::Win
                | Outcome::Draw
                | Outcome::Loss
                | Outcome::UnratedWin
                | Outcome::UnratedDraw
                | Outcome::UnratedLoss
        )
    }

    /// Whether the round had an opponent: a played game, a forfeit or an unfinished pairing.
    pub(crate) fn has_opponent(self) -> bool {
        self.is_played()
            || matches!(
                self,
                Outcome::ForfeitWin | Outcome::ForfeitLoss | Outcome::Unfinished
            )
    }
}

/// One player's round: the opponent (an index into [`CrossTable::entrants`]) and colour when paired, and the
/// outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RoundCell {
    /// The opponent, when the round paired this player with one.
    pub(crate) opponent: Option<usize>,
    /// This player's colour, when the round paired this player with one.
    pub(crate) colour: Option<Color>,
    /// How the round ended for this player.
    pub(crate) outcome: Outcome,
}

impl RoundCell {
    /// A round this player was not in: no opponent, zero points.
    pub(crate) const ABSENT: RoundCell = RoundCell {
        opponent: None,
        colour: None,
        outcome: Outcome::ZeroPointBye,
    };
}

/// A player of the tournament, with what TRF's `001` record can say of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entrant {
    /// The name, as the games (or the TRF) write it.
    pub(crate) name: String,
    /// The rating (FIDE's, when known).
    pub(crate) rating: Option<u16>,
    /// The FIDE identifier.
    pub(crate) fide_id: Option<u64>,
    /// The federation, three letters.
    pub(crate) federation: Option<String>,
    /// The FIDE title (GM, IM, WGM...).
    pub(crate) title: Option<String>,
    /// `m` or `w`, when known.
    pub(crate) sex: Option<char>,
    /// The birth date, as written (`YYYY/MM/DD` or the year alone).
    pub(crate) birth: Option<String>,
}

/// A tournament round by round: `rounds[player][round]` (round 1 at index 0), every player with the same
/// number of rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CrossTable {
    /// The players, in start-rank order (start rank 1 at index 0).
    pub(crate) entrants: Vec<Entrant>,
    /// For each player, one cell a round.
    pub(crate) rounds: Vec<Vec<RoundCell>>,
}

impl CrossTable {
    /// How many rounds the table holds.
    pub(crate) fn round_count(&self) -> usize {
        self.rounds.first().map_or(0, Vec::len)
    }

    /// A player's score, in half points, with FIDE's default scoring.
    pub(crate) fn half_points(&self, player: usize) -> u32 {
        self.rounds[player]
            .iter()
            .map(|cell| u32::from(cell.outcome.half_points()))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_as_its_outcome() {
        for outcome in Outcome::ALL {
            if let Some(code) = outcome.code() {
                assert_eq!(Outcome::from_code(code), Some(outcome));
                assert_eq!(Outcome::from_code(code.to_ascii_lowercase()), Some(outcome));
            }
        }
        assert_eq!(Outcome::from_code(' '), Some(Outcome::ZeroPointBye));
        assert_eq!(Outcome::from_code('X'), None);
    }

    #[test]
    fn a_score_counts_byes_and_forfeits_as_the_regulations_do() {
        let cell = |outcome| RoundCell {
            opponent: None,
            colour: None,
            outcome,
        };
        let table = CrossTable {
            entrants: vec![Entrant::default()],
            rounds: vec![vec![
                cell(Outcome::Win),
                cell(Outcome::ForfeitWin),
                cell(Outcome::HalfPointBye),
                cell(Outcome::ZeroPointBye),
                cell(Outcome::PairingAllocatedBye),
                cell(Outcome::Unfinished),
            ]],
        };
        assert_eq!(table.round_count(), 6);
        assert_eq!(table.half_points(0), 2 + 2 + 1 + 2);
        assert!(!Outcome::ForfeitWin.is_played());
        assert!(Outcome::ForfeitWin.has_opponent());
        assert!(Outcome::UnratedDraw.is_played());
        assert!(!Outcome::HalfPointBye.has_opponent());
    }
}
