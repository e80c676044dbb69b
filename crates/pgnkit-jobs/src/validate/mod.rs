//! `validate`: replay every game under the rules and report each problem with its location.

mod engine;
mod finding;
mod job;
mod kind;
pub(crate) mod pairings;
pub mod report;
mod tag_text;
pub(crate) mod tags;
pub mod tournament;

pub use engine::{ValidateOptions, validate_game, validate_game_with};
pub(crate) use engine::{game_fingerprint, problem_at};
pub use job::{ValidateJob, ValidatedBatch};
pub use kind::{ProblemKind, Severity};
pub use pairings::Pairings;
pub(crate) use report::{Finding, TagText};
pub use report::{GameReport, Problem, ProblemRecords, termination_name};
pub use tournament::Tournament;
