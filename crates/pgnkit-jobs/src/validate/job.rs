//! validate as a [`Job`] of the run: each game replayed and reported on a worker (with its JSON record when
//! asked), then the checks across games and inputs in input order (the tournament checks), which may add to
//! a game's problems and so to its record.

use std::sync::Arc;
use std::thread::ThreadId;

use pgnkit::pgn::GameReader;

use super::pairings::{Pairings, PgnGame};
use super::{GameReport, Tournament, ValidateOptions, validate_game};
use crate::run::pipeline::SpentBin;
use crate::run::{Input, Job, JobError, Threads};

/// validate's job.
pub struct ValidateJob {
    opts: ValidateOptions,
    records: bool,
    track_games: usize,
    /// The pairing program's report the games are compared with, if any.
    pairings: Option<Arc<Pairings>>,
    /// The batches the sink is done with, freed by the threads that built them.
    spent: SpentBin<ValidatedBatch>,
}

impl ValidateJob {
    /// validate with `opts` on `threads`; `records`: each game's JSON record too; the checks across games
    /// follow `track_games` games (see `Tournament::with_limit`).
    pub fn new(
        opts: ValidateOptions,
        records: bool,
        track_games: usize,
        threads: Threads,
    ) -> ValidateJob {
        ValidateJob {
            opts,
            records,
            track_games,
            pairings: None,
            spent: SpentBin::new(threads.get()),
        }
    }

    /// The same job, comparing the games with the pairings of a TRF as well (`--pairings`): each game in
    /// input order, then what no game answered (`Tournament::pairing_problems`).
    pub fn with_pairings(self, pairings: Arc<Pairings>) -> ValidateJob {
        ValidateJob {
            pairings: Some(pairings),
            ..self
        }
    }
}

/// One batch's games, reported and checked across games.
pub struct ValidatedBatch {
    pub games: Vec<GameReport>,
    /// When asked for, the games' JSON records, one line each (one buffer per batch, written out as it
    /// stands).
    pub records: Vec<u8>,
    /// Where each game's record ends in `records`.
    record_ends: Vec<usize>,
    /// With pairings to compare with: each game as the cross-check reads it (`None` for a game of no
    /// tournament), beside `games`.
    pairing_games: Vec<Option<PgnGame>>,
    /// The thread that built the reports, to free them (see [`SpentBin`]).
    maker: ThreadId,
}

impl Job for ValidateJob {
    type Batch = ValidatedBatch;
    type State = Tournament;

    fn initial_state(&self) -> Tournament {
        let tournament = Tournament::new_in(self.opts.messages).with_limit(self.track_games);
        match &self.pairings {
            Some(pairings) => tournament.with_pairings(pairings.clone()),
            None => tournament,
        }
    }

    fn work(
        &self,
        input: Input<'_>,
        reader: &mut GameReader<'_>,
    ) -> Result<ValidatedBatch, JobError> {
        self.spent.empty();
        let mut games = Vec::new();
        let (mut records, mut record_ends) = (Vec::new(), Vec::new());
        let mut pairing_games = Vec::new();
        if self.records {
            // A record usually takes less room than the game it describes: with room for the batch's bytes
            // the buffer is not moved to a larger one (which would hold both for a while). The room not
            // written to is never touched, so it costs no memory.
            records.reserve(reader.remaining());
        }
        while let Some(group) = reader.next_group() {
            // A group's games are all checked, then all written: each step's code serves the whole group
            // while it is in the instruction cache.
            let first = games.len();
            for game in group {
                games.push(validate_game(game, input.name, &self.opts));
                if self.pairings.is_some() {
                    pairing_games.push(PgnGame::of_game(game, input.name, self.opts.unplayed));
                }
            }
            if self.records {
                for report in &games[first..] {
                    // A record that cannot be written is an empty line, nothing half-written.
                    let start = records.len();
                    if serde_json::to_writer(&mut records, &report.record(self.opts.messages))
                        .is_err()
                    {
                        records.truncate(start);
                    }
                    records.push(b'\n');
                    record_ends.push(records.len());
                }
            }
        }
        Ok(ValidatedBatch {
            games,
            records,
            record_ends,
            pairing_games,
            maker: std::thread::current().id(),
        })
    }

    /// The tournament checks (the games of all inputs together: a tournament kept as one file per round is
    /// one tournament) and the comparison with the pairings; the records of the games they add problems to
    /// are written again.
    fn merge(&self, tournament: &mut Tournament, _input: Input<'_>, batch: &mut ValidatedBatch) {
        if !self.opts.tag_checks && self.pairings.is_none() {
            return;
        }
        // From the first game whose problems grew, the records are gathered anew.
        let mut rewritten: Option<Vec<u8>> = None;
        for (i, report) in batch.games.iter_mut().enumerate() {
            let mut added = self.opts.tag_checks && tournament.check(report);
            if let Some(Some(game)) = batch.pairing_games.get(i) {
                added |= tournament.check_pairing(report, game);
            }
            if !self.records {
                continue;
            }
            let start = if i == 0 { 0 } else { batch.record_ends[i - 1] };
            let end = batch.record_ends[i];
            if added && rewritten.is_none() {
                rewritten = Some(batch.records[..start].to_vec());
            }
            if let Some(records) = rewritten.as_mut() {
                if added {
                    let start = records.len();
                    if serde_json::to_writer(&mut *records, &report.record(self.opts.messages))
                        .is_err()
                    {
                        records.truncate(start);
                    }
                    records.push(b'\n');
                } else {
                    records.extend_from_slice(&batch.records[start..end]);
                }
            }
        }
        if let Some(records) = rewritten {
            // Where each record ends is no longer needed: the sink writes them all.
            batch.records = records;
        }
    }

    fn recycle(&self, batch: ValidatedBatch) {
        // Built on a worker: freed there too (see SpentBin).
        self.spent.put(batch.maker, batch);
    }
}
