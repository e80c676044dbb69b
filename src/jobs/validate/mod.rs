//! `validate`: replay every game under the rules and report each problem with its location.

pub mod report;
pub mod tags;

pub use report::{GameReport, Problem, ProblemKind, Severity};
