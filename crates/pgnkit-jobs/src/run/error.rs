//! What can go wrong in a run, as values: an input that cannot be read, an output that cannot be written,
//! rows that cannot be encoded, options refused. Words only at `Display` (English) and `Explain`.

use std::fmt;
use std::io;

use pgnkit::pgn::GameTooLarge;

use super::input::{InputError, Source};
use crate::messages::{Explain, JobReason, Locale};
use crate::options::UsageError;

/// Why (part of) an input could not be read. A run goes on with the next input, or with the rest of this one
/// after a game over the limit.
#[derive(Debug)]
pub enum ReadError {
    /// The input could not be opened, or its first bytes read.
    Open(InputError),
    /// Reading stopped part way (an I/O error, damaged compressed data): the complete games before it were
    /// read, and the error says where the input ended.
    Read { path: String, source: io::Error },
    /// A game over the size limit ([`pgnkit::pgn::MAX_GAME_BYTES`]), skipped: the input is read on after it.
    GameTooLarge { path: String, game: GameTooLarge },
}

impl ReadError {
    /// The error of a reader of `source`: a game over the limit, or a read error.
    pub(crate) fn reading(source: &Source, error: io::Error) -> ReadError {
        let path = source.display_name();
        match error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<GameTooLarge>())
        {
            Some(game) => ReadError::GameTooLarge {
                path,
                game: game.clone(),
            },
            None => ReadError::Read {
                path,
                source: error,
            },
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Open(e) => e.fmt(f),
            ReadError::Read { path, source } => write!(f, "{path}: {source}"),
            ReadError::GameTooLarge { path, game } => write!(f, "{path}: {game}"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Open(e) => Some(e),
            ReadError::Read { source, .. } => Some(source),
            ReadError::GameTooLarge { game, .. } => Some(game),
        }
    }
}

/// Why a run, or a job's preparation, stopped.
#[derive(Debug)]
pub enum JobError {
    /// An input could not be read (for a caller that stops at the first; the command goes on and says it).
    Input(ReadError),
    /// The output could not be written (a closed pipe included: the command ends quietly on that one).
    Output(io::Error),
    /// Rows could not be made: the Arrow arrays or their Parquet encoding, or the temporary file of a long
    /// game's rows.
    Encode(Box<dyn JobReason>),
    /// Options refused before any game is read.
    Usage(UsageError),
}

impl From<io::Error> for JobError {
    fn from(e: io::Error) -> Self {
        JobError::Output(e)
    }
}

impl From<UsageError> for JobError {
    fn from(e: UsageError) -> Self {
        JobError::Usage(e)
    }
}

impl Explain for JobError {
    fn explain(&self, locale: Locale) -> String {
        match self {
            JobError::Input(e) => e.to_string(),
            JobError::Output(e) => crate::localized!(
                locale,
                "cannot write output: {e}",
                "impossible d'écrire la sortie : {e}"
            ),
            JobError::Encode(e) => e.explain(locale),
            JobError::Usage(e) => e.explain(locale),
        }
    }
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl std::error::Error for JobError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JobError::Input(e) => Some(e),
            JobError::Output(e) => Some(e),
            JobError::Encode(e) => Some(e.as_ref()),
            JobError::Usage(e) => Some(e),
        }
    }
}

/// More threads asked than the run may have ([`super::Threads::asked`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Capped {
    pub(crate) asked: usize,
    /// What the run has instead: one per core.
    pub(crate) most: usize,
}

impl Explain for Capped {
    fn explain(&self, locale: Locale) -> String {
        let (n, most) = (self.asked, self.most);
        crate::localized!(
            locale,
            "--jobs {n} capped to {most}, the number of cores available",
            "--jobs {n} ramené à {most}, le nombre de cœurs disponibles"
        )
    }
}
