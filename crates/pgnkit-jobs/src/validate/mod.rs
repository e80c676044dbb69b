//! `validate`: replay every game under the rules and report each problem with its location.

mod engine;
mod finding;
mod job;
mod kind;
pub(crate) mod pairings;
mod read;
pub(crate) mod report;
mod tag_text;
pub(crate) mod tags;
pub(crate) mod tournament;

pub use engine::ValidateOptions;
pub(crate) use engine::{game_fingerprint, problem_at, validate_game, validate_game_with};
pub use job::{ValidateJob, ValidatedBatch};
pub use kind::{ProblemKind, Severity};
pub use pairings::Pairings;
pub use read::{GameRead, ReadGamesJob};
pub(crate) use report::{Finding, TagText};
pub use report::{GameReport, Problem, termination_name};
pub use tournament::{DEFAULT_TRACKED_GAMES, MAX_TRACKED_GAMES, Tournament};
