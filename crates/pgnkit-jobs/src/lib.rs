//! The jobs pgnkit runs over many games: validate, convert, stats, select, and what they share: the run
//! ([`run`]: sources read in batches on all cores, merged in input order into a sink), typed options
//! ([`options`]) and errors. Pure library code: no clap, no terminal handling.
//!
//! The engine behind the `pgnkit` command (`src/cli/`) and the Python package (`python/`), which must give the
//! same answers: both call these functions. Its items are public for them, not a stable API; the stable
//! library is `pgnkit` (rules, notation, PGN).

pub mod convert;
pub mod messages;
pub(crate) mod moves;
pub mod options;
pub mod repair;
pub mod report;
pub mod run;
pub mod safe_text;
pub mod select;
pub mod standings;
pub mod stats;
pub mod tournament;
pub mod tree;
pub mod unnamed_file;
pub mod validate;
