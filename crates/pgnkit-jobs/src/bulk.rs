//! The run as it was before [`crate::run`]: events with read errors as text. Kept for the callers not yet on
//! `run` (the `standings` and `report` commands, the Python module); new code uses [`crate::run::run`].

use std::ops::ControlFlow;

use crate::run::Source;
use crate::run::reading::{self, Event as Read};
use pgnkit::pgn::GameReader;

/// Bytes of whole games per batch for the worker threads (see [`crate::run::Job::batch_bytes`]).
pub const BATCH_SIZE: usize = reading::BATCH_SIZE;

/// What the ordered output side sees, in input order.
pub enum Event<R> {
    /// A source is about to be read.
    Start { source: usize },
    /// The result of one batch of games of a source.
    Batch { source: usize, result: R },
    /// A source could not be opened or read, or held a game over the size limit (see
    /// [`crate::run::ReadError`], whose words `message` holds).
    Error { source: usize, message: String },
    /// A source is finished; `bytes` of text were read from it (decompressed), whatever became of them.
    End { source: usize, bytes: u64 },
}

/// Reads every source and hands its games to `work`, a batch at a time, on `jobs` threads; `emit` receives
/// the events in input order. `progress` is called on the calling thread with the raw (on-disk) bytes read so
/// far. Returns the value `emit` stopped with, if it did.
pub fn run<R, B, W, E>(
    sources: &[Source],
    jobs: usize,
    batch_size: usize,
    work: W,
    mut emit: E,
    progress: impl FnMut(u64),
) -> Option<B>
where
    R: Send,
    W: Fn(usize, &mut GameReader<'_>) -> R + Sync,
    E: FnMut(Event<R>) -> ControlFlow<B>,
{
    reading::read(
        sources,
        jobs,
        batch_size,
        work,
        |event| {
            emit(match event {
                Read::Start { source } => Event::Start { source },
                Read::Batch { source, result } => Event::Batch { source, result },
                Read::Error { source, error } => Event::Error {
                    source,
                    message: error.to_string(),
                },
                Read::End { source, bytes } => Event::End { source, bytes },
            })
        },
        progress,
    )
}
