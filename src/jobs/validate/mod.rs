//! `validate`: replay every game under the rules and report each problem with its location.

mod engine;
pub(crate) mod report;
pub(crate) mod tags;
pub(crate) mod tournament;

pub(crate) use engine::{ValidateOptions, problem_at, validate_game, validate_game_with};
pub(crate) use report::{GameReport, Problem, ProblemKind, Severity, TagText, termination_name};
pub(crate) use tournament::Tournament;
