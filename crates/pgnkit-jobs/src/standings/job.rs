//! standings as a [`Job`] of the run: each game's entry (its tournament, players, round and result, with
//! validate's fingerprint) read on a worker, then added to the standings in input order, so that the same game
//! twice is counted once whichever file holds it; with `--pairings`, each game compared with the pairing
//! program's report as well, by validate's cross-check.

use std::sync::Arc;

use pgnkit::pgn::GameReader;

use super::entry_of;
use crate::options::UnplayedRules;
use crate::run::{Input, Job, JobError};
use crate::tournament::{GameEntry, Standings};
use crate::validate::TagText;
use crate::validate::pairings::{PairingCheck, Pairings, PgnGame};
use crate::validate::report::{Finding, Problem};
use crate::validate::tournament::{RunWarning, at_trf_lines};

/// standings' job.
pub struct StandingsJob {
    max_players: usize,
    rules: UnplayedRules,
    pairings: Option<Arc<Pairings>>,
}

impl StandingsJob {
    /// The standings of every tournament of the run, over at most `max_players` player entries in all (see
    /// `Standings::new`), reading the games that are not played games by `rules`.
    pub fn new(max_players: usize, rules: UnplayedRules) -> StandingsJob {
        StandingsJob {
            max_players,
            rules,
            pairings: None,
        }
    }

    /// The same job, comparing the games with the pairings of a TRF as well (`--pairings`).
    pub fn with_pairings(self, pairings: Arc<Pairings>) -> StandingsJob {
        StandingsJob {
            pairings: Some(pairings),
            ..self
        }
    }
}

/// One batch's games: each game's entry (`None` for a game of no tournament) and, with pairings to compare
/// with, the game as the cross-check reads it.
pub struct StandingsBatch {
    entries: Vec<Option<GameEntry>>,
    pairing_games: Vec<Option<PgnGame>>,
}

/// The standings, and what the comparison with the pairings found.
pub struct StandingsState {
    /// Every tournament's standings.
    pub standings: Standings,
    pairings: Option<PairingCheck>,
    /// The differences found at games, located there.
    at_games: Vec<RunWarning>,
}

impl StandingsState {
    /// What the comparison with the pairings found (nothing without them): at games of the PGN, in input
    /// order, then at lines of the TRF, for what no game answered.
    pub fn pairing_problems(&self) -> (&[RunWarning], Vec<Problem>) {
        let at_trf = self.pairings.as_ref().map_or_else(Vec::new, at_trf_lines);
        (&self.at_games, at_trf)
    }
}

impl Job for StandingsJob {
    type Batch = StandingsBatch;
    type State = StandingsState;

    fn initial_state(&self) -> StandingsState {
        StandingsState {
            standings: Standings::new(self.max_players).with_rules(self.rules),
            pairings: self.pairings.clone().map(PairingCheck::new),
            at_games: Vec::new(),
        }
    }

    fn work(
        &self,
        input: Input<'_>,
        games: &mut GameReader<'_>,
    ) -> Result<StandingsBatch, JobError> {
        let mut entries = Vec::new();
        let mut pairing_games = Vec::new();
        while let Some(game) = games.next_game() {
            entries.push(entry_of(game));
            if self.pairings.is_some() {
                pairing_games.push(PgnGame::of_game(game, input.name, self.rules));
            }
        }
        Ok(StandingsBatch {
            entries,
            pairing_games,
        })
    }

    fn merge(&self, state: &mut StandingsState, _: Input<'_>, batch: &mut StandingsBatch) {
        for entry in &batch.entries {
            state.standings.add(entry.as_ref());
        }
        let Some(check) = state.pairings.as_mut() else {
            return;
        };
        for game in batch.pairing_games.iter().flatten() {
            for finding in check.check(game) {
                let finding = Finding::Pairing(Box::new(finding));
                state.at_games.push(RunWarning {
                    file: game.file.clone(),
                    game: game.game,
                    round: TagText::new(&game.round.map_or_else(String::new, |r| r.to_string())),
                    problem: Problem::new(finding, game.line, 1, 0),
                });
            }
        }
    }
}
