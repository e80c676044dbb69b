//! pgnkit's integration tests, as one test binary with a module per area (`cargo test --release` runs them;
//! `cargo test --release --test integration AREA::` runs one area).
//!
//! One binary rather than one per file: each test binary links pgnkit and every dependency on its own (with
//! LTO, a whole-program optimisation each time), so the build time grew with the number of test files. A new
//! area is a new module here, not a new file under `tests/`.
//!
//! The tests run with the package root as the current directory, so `fixtures/...` paths resolve; the shared
//! corpus is at `env!("PGNKIT_SHARED_CORPUS")` (see build.rs), and the tests that need it are listed as
//! ignored when it is absent. proptest replays and records the failing cases of a module in
//! `tests/proptest-regressions/MODULE.txt` (its default place, derived from the directory that holds this
//! main.rs): commit them with the fix.

mod util;

mod architecture;
mod cli;
mod columnar;
mod convert;
mod fen;
mod input_safety;
mod no_panic;
mod notation;
mod notation_corpus;
mod output_hardening;
mod output_safety;
mod pairings;
mod parquet_input;
mod perft;
mod pgn_corpus;
mod pgn_fixtures;
mod pgn_robustness;
mod pgn_roundtrip;
mod polyglot;
mod properties;
mod real_world;
mod repair;
mod repair_guide;
mod report;
mod select;
mod standings;
mod stats;
mod tiebreaks;
mod tree;
mod tree_book;
mod tree_html;
mod trf_editions;
mod validate;
