//! standings as a [`Job`] of the run: each game's entry (its tournament, players, round and result, with
//! validate's fingerprint) read on a worker, then added to the standings in input order, so that the same game
//! twice is counted once whichever file holds it.

use pgnkit::pgn::GameReader;

use super::entry_of;
use crate::run::{Input, Job, JobError};
use crate::tournament::{GameEntry, Standings};

/// standings' job.
pub struct StandingsJob {
    max_players: usize,
}

impl StandingsJob {
    /// The standings of every tournament of the run, over at most `max_players` player entries in all (see
    /// `Standings::new`).
    pub fn new(max_players: usize) -> StandingsJob {
        StandingsJob { max_players }
    }
}

impl Job for StandingsJob {
    /// Each game's entry, `None` for a game of no tournament.
    type Batch = Vec<Option<GameEntry>>;
    type State = Standings;

    fn initial_state(&self) -> Standings {
        Standings::new(self.max_players)
    }

    fn work(
        &self,
        _: Input<'_>,
        games: &mut GameReader<'_>,
    ) -> Result<Vec<Option<GameEntry>>, JobError> {
        let mut entries = Vec::new();
        while let Some(game) = games.next_game() {
            entries.push(entry_of(game));
        }
        Ok(entries)
    }

    fn merge(&self, standings: &mut Standings, _: Input<'_>, entries: &mut Vec<Option<GameEntry>>) {
        for entry in entries.iter() {
            standings.add(entry.as_ref());
        }
    }
}
