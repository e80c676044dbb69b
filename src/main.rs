//! The `pgnkit` command: a thin shell over the `pgnkit` library. The jobs (validate, convert, stats and
//! what they share) are in `src/jobs/`, each subcommand's options and printing in `src/cli/`.

mod cli;
mod jobs;

fn main() {
    std::process::exit(cli::run());
}
