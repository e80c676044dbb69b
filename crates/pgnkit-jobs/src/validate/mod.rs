//! `validate`: replay every game under the rules and report each problem with its location.

mod engine;
mod finding;
mod job;
mod kind;
pub mod report;
mod tag_text;
pub mod tags;
pub mod tournament;

pub use engine::{
    ValidateOptions, game_fingerprint, problem_at, validate_game, validate_game_with,
};
pub use job::{ValidateJob, ValidatedBatch};
pub use report::{
    CheckedTag, EarlierGame, Finding, GameRecord, GameReport, NotedSpelling, Problem, ProblemKind,
    ProblemRecord, ProblemRecords, RoundGaps, Severity, Suggestion, TagText, termination_name,
};
pub use tournament::Tournament;
