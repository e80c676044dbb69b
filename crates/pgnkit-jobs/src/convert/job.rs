//! convert as a [`Job`] of the run: each batch converted on a worker; nothing crosses games.

use pgnkit::pgn::GameReader;

use super::{BatchOutput, ConvertOptions, OutputFormat, convert_batch};
use crate::options::UsageError;
use crate::run::{Input, Job, JobError};

/// convert's job.
pub struct ConvertJob {
    opts: ConvertOptions,
}

impl ConvertJob {
    /// convert with `opts`; refused when they do not go together (`add_opening` writes tags: PGN only).
    pub fn new(opts: ConvertOptions) -> Result<ConvertJob, UsageError> {
        if opts.add_opening && opts.format != OutputFormat::Pgn {
            return Err(UsageError::AddOpeningNeedsPgn);
        }
        Ok(ConvertJob { opts })
    }
}

impl Job for ConvertJob {
    type Batch = BatchOutput;
    type State = ();

    fn initial_state(&self) {}

    fn work(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Result<BatchOutput, JobError> {
        Ok(convert_batch(games, input.name, &self.opts))
    }
}
