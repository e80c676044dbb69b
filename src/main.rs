//! The `pgnkit` command: a thin shell over the `pgnkit` library and its jobs (`pgnkit-jobs`: validate,
//! convert, stats, select and what they share, in `crates/pgnkit-jobs/`); each subcommand's options and
//! printing are in `src/cli/`.

mod cli;
use pgnkit_jobs as jobs;

fn main() {
    std::process::exit(cli::run());
}
