//! The `pgnkit` command: a thin shell over the library; each subcommand lives in `src/cli/`.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
