//! pgnkit's integration tests, as one test binary with a module per area (`cargo test --release` runs them;
//! `cargo test --release --test integration AREA::` runs one area).
//!
//! One binary rather than a binary per file: every test binary links pgnkit and the dev-dependencies on its
//! own, and with link-time optimisation each link costs as much as building the binary, so seventeen
//! binaries made a clean `cargo test --release` take several times longer than one.
//!
//! The tests run with the package root as the current directory, so `fixtures/...` paths resolve; the shared
//! corpus is at `env!("PGNKIT_SHARED_CORPUS")` (see build.rs), and the tests that need it are listed as
//! ignored when it is absent.

mod util;

mod cli;
mod convert;
mod fen;
mod input_safety;
mod no_panic;
mod notation;
mod notation_corpus;
mod output_safety;
mod perft;
mod pgn_corpus;
mod pgn_fixtures;
mod pgn_robustness;
mod pgn_roundtrip;
mod properties;
mod real_world;
mod stats;
mod validate;
