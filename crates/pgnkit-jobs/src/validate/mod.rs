//! `validate`: replay every game under the rules and report each problem with its location.

mod engine;
mod job;
pub mod report;
pub mod tags;
pub mod tournament;

pub use engine::{
    ValidateOptions, game_fingerprint, problem_at, validate_game, validate_game_with,
};
pub use job::{ValidateJob, ValidatedBatch};
pub use report::{GameReport, Problem, ProblemKind, Severity, TagText, termination_name};
pub use tournament::Tournament;
