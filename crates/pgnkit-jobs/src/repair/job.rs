//! repair as a [`Job`] of the run: each batch repaired on a worker; nothing crosses games.

use pgnkit::pgn::GameReader;

use super::{RepairBatch, RepairOptions, repair_batch};
use crate::run::{Input, Job, JobError};

/// repair's job.
pub struct RepairJob {
    opts: RepairOptions,
}

impl RepairJob {
    /// repair with `opts`.
    pub fn new(opts: RepairOptions) -> RepairJob {
        RepairJob { opts }
    }
}

impl Job for RepairJob {
    type Batch = RepairBatch;
    type State = ();

    fn initial_state(&self) {}

    fn work(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Result<RepairBatch, JobError> {
        Ok(repair_batch(games, input.name, &self.opts))
    }
}
