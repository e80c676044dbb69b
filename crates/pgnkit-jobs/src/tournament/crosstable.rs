//! A tournament round by round, in the terms FIDE's rules use: for every player and every round, who the
//! opponent was, with which colour, and how the round ended, in the result codes of the Tournament Report
//! File (TRF-16 and TRF-26: `1 = 0` for games played, `+ -` for forfeits, `W D L` for games that lasted less
//! than one move, `H F U Z` for byes and absences).
//!
//! It is the one shape the FIDE tie-breaks (C.07), the TRF writer and the TRF reader share: the tie-breaks
//! need to know a forfeit from a played game and an absence from a loss (C.07 article 16), which a list of
//! games cannot say.

use std::collections::{BTreeMap, BTreeSet};

use pgnkit::Color;

use super::identity::PlayerInfo;
use crate::options::AllocatedBye;

/// The highest round number a game is placed in by its `Round` tag: a game with a higher one (or none) goes
/// to the first round free for its players, as does a game whose round either player already has a game in.
pub(crate) const MAX_ROUNDS: usize = 999;

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

/// How a pairing's result came about ([`super::unplayed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairingKind {
    /// Played over the board (or unfinished).
    Played,
    /// Forfeited: by one player, or by both (each with no point).
    Forfeit,
    /// Less than one move played: scored, not rated.
    Unrated,
}

impl Outcome {
    /// The outcome of a pairing for the player who scored `half_points` in it (`None`: unfinished).
    pub(crate) fn of_pairing(kind: PairingKind, half_points: Option<u8>) -> Outcome {
        let Some(hp) = half_points else {
            return Outcome::Unfinished;
        };
        match (kind, hp) {
            (PairingKind::Played, 2) => Outcome::Win,
            (PairingKind::Played, 1) => Outcome::Draw,
            (PairingKind::Played, _) => Outcome::Loss,
            (PairingKind::Forfeit, 2) => Outcome::ForfeitWin,
            // A forfeit is never a draw: what would be one is read as played.
            (PairingKind::Forfeit, 1) => Outcome::Draw,
            (PairingKind::Forfeit, _) => Outcome::ForfeitLoss,
            (PairingKind::Unrated, 2) => Outcome::UnratedWin,
            (PairingKind::Unrated, 1) => Outcome::UnratedDraw,
            (PairingKind::Unrated, _) => Outcome::UnratedLoss,
        }
    }

    /// The outcome of a bye worth `half_points`, a full point being the pairing-allocated bye when `allocated`.
    pub(crate) fn of_bye(half_points: u8, allocated: bool) -> Outcome {
        match half_points {
            2 if allocated => Outcome::PairingAllocatedBye,
            2 => Outcome::FullPointBye,
            1 => Outcome::HalfPointBye,
            _ => Outcome::ZeroPointBye,
        }
    }
}

/// A tournament's games and byes placed in rounds, sparse: each player's cells by round (0-based), opponents
/// as indices into the tournament's players. A game goes to the round of its `Round` tag's number; when that
/// round is taken for either player (two games with the same round, such as a match's games or a double round
/// robin written as one round) or the game has no round (or one above [`MAX_ROUNDS`]), it goes to the first
/// later round free for both. So both players always show the game in the same round, and a clean file keeps
/// its rounds. A round a player has nothing in is an absence, unless the rules make the one player without a
/// game in a round the pairing-allocated bye's.
#[derive(Clone, Debug, Default)]
pub(crate) struct Placement {
    /// Each player's rounds.
    pub(crate) cells: Vec<BTreeMap<usize, RoundCell>>,
    /// Rounds holding a game or bye that kept its own round number (whose dates mean something).
    pub(crate) in_own_round: BTreeSet<usize>,
    /// Rounds in all: one past the last round with something in it.
    pub(crate) rounds: usize,
}

/// A game or a bye to place (players as indices into the tournament's players).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Placed {
    Game {
        white: usize,
        black: usize,
        kind: PairingKind,
        white_half_points: Option<u8>,
        black_half_points: Option<u8>,
    },
    Bye {
        player: usize,
        half_points: u8,
    },
}

impl Placed {
    /// Who plays it: one player for a bye.
    fn players(&self) -> [Option<usize>; 2] {
        match *self {
            Placed::Game { white, black, .. } => [Some(white), Some(black)],
            Placed::Bye { player, .. } => [Some(player), None],
        }
    }
}

impl Placement {
    /// `items` placed in rounds, for `players` players: each item with its round (the `Round` tag's number)
    /// and its game number (input order), games and byes numbered alike.
    pub(crate) fn of(
        players: usize,
        mut items: Vec<(Option<u32>, usize, Placed)>,
        allocated_bye: AllocatedBye,
    ) -> Placement {
        let n = players;
        let round = |r: Option<u32>| r.map(|r| r as usize).filter(|&r| r <= MAX_ROUNDS);
        // Games in their rounds first, in round order, then those without one; in input order within.
        items.sort_unstable_by_key(|&(r, game, _)| (round(r).is_none(), round(r), game));
        let allocated = allocated_bye != AllocatedBye::None;
        let mut placement = Placement {
            cells: vec![BTreeMap::new(); n],
            ..Placement::default()
        };
        // Below `first_free[player]` every round is taken for that player: a long run of games without
        // rounds is placed in time linear in its length.
        let mut first_free = vec![0usize; n];
        for (r, _, item) in items {
            let r = round(r);
            let players = item.players();
            let wanted = r.map_or(0, |r| r - 1);
            let mut column = players
                .iter()
                .flatten()
                .fold(wanted, |c, &p| c.max(first_free[p]));
            while players
                .iter()
                .flatten()
                .any(|&p| placement.cells[p].contains_key(&column))
            {
                column += 1;
            }
            if r == Some(column + 1) {
                placement.in_own_round.insert(column);
            }
            match item {
                Placed::Game {
                    white,
                    black,
                    kind,
                    white_half_points,
                    black_half_points,
                } => {
                    let cell =
                        |opponent: usize, colour: Color, half_points: Option<u8>| RoundCell {
                            opponent: Some(opponent),
                            colour: Some(colour),
                            outcome: Outcome::of_pairing(kind, half_points),
                        };
                    let cells = &mut placement.cells;
                    cells[white].insert(column, cell(black, Color::White, white_half_points));
                    cells[black].insert(column, cell(white, Color::Black, black_half_points));
                }
                Placed::Bye {
                    player,
                    half_points,
                } => {
                    let cell = RoundCell {
                        outcome: Outcome::of_bye(half_points, allocated),
                        ..RoundCell::ABSENT
                    };
                    placement.cells[player].insert(column, cell);
                }
            }
            for p in players.into_iter().flatten() {
                while placement.cells[p].contains_key(&first_free[p]) {
                    first_free[p] += 1;
                }
            }
            placement.rounds = placement.rounds.max(column + 1);
        }
        if allocated_bye == AllocatedBye::Unpaired && n > 1 {
            placement.allocate_byes();
        }
        placement
    }

    /// Gives the pairing-allocated bye to the one player with nothing in a round, in each round that has no
    /// `U` yet.
    fn allocate_byes(&mut self) {
        let mut filled = vec![0usize; self.rounds];
        let mut has_allocated = vec![false; self.rounds];
        for cells in &self.cells {
            for (&c, cell) in cells {
                filled[c] += 1;
                has_allocated[c] |= cell.outcome == Outcome::PairingAllocatedBye;
            }
        }
        let n = self.cells.len();
        for c in 0..self.rounds {
            if filled[c] + 1 != n || has_allocated[c] {
                continue;
            }
            if let Some(cells) = self.cells.iter_mut().find(|cells| !cells.contains_key(&c)) {
                cells.insert(
                    c,
                    RoundCell {
                        outcome: Outcome::PairingAllocatedBye,
                        ..RoundCell::ABSENT
                    },
                );
            }
        }
    }

    /// A player's score in half points (the tournament's player index).
    pub(crate) fn half_points(&self, player: usize) -> u32 {
        self.cells[player]
            .values()
            .map(|cell| u32::from(cell.outcome.half_points()))
            .sum()
    }
}

impl Entrant {
    /// A player as the games describe them.
    pub(crate) fn of(p: &PlayerInfo) -> Entrant {
        Entrant {
            name: p.name.clone(),
            rating: p.rating,
            fide_id: p.fide_id,
            federation: p.federation.clone(),
            title: p.title.clone(),
            ..Entrant::default()
        }
    }
}

impl CrossTable {
    /// The table of the placed rounds of `players` (by index, as the placement numbers them), in the order of
    /// `start` (each player's start rank, from 1, by index); a round a player has nothing in is
    /// [`RoundCell::ABSENT`].
    pub(crate) fn of<'p>(
        players: impl ExactSizeIterator<Item = &'p PlayerInfo>,
        placement: &Placement,
        start: &[usize],
    ) -> CrossTable {
        let n = players.len();
        let mut entrants = vec![Entrant::default(); n];
        let mut rounds = vec![vec![RoundCell::ABSENT; placement.rounds]; n];
        for (i, p) in players.enumerate() {
            let row = start[i] - 1;
            entrants[row] = Entrant::of(p);
            for (&c, cell) in &placement.cells[i] {
                rounds[row][c] = RoundCell {
                    opponent: cell.opponent.map(|o| start[o] - 1),
                    ..*cell
                };
            }
        }
        CrossTable { entrants, rounds }
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
