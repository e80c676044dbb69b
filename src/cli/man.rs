//! `pgnkit man [--dir DIR]` (hidden from the main help): manual pages in roff, generated from the same clap
//! definitions as `--help`, so the two never drift apart. The pages committed under `docs/man/` are checked
//! against this output by `tests/integration/cli.rs`.

use std::path::PathBuf;

use super::output::{print_bytes, say};

#[derive(clap::Args)]
pub(crate) struct Args {
    /// Write `pgnkit.1` and one `pgnkit-<command>.1` per command into DIR (created if needed) instead of
    /// printing the page of `pgnkit` to standard output
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub(crate) fn run(args: Args) -> i32 {
    // As `clap_mangen::generate_to` does for the pages it writes: no `help` command in the list.
    let cmd = super::command().disable_help_subcommand(true);
    match args.dir {
        Some(dir) => {
            match std::fs::create_dir_all(&dir).and_then(|()| clap_mangen::generate_to(cmd, &dir)) {
                Ok(()) => 0,
                Err(e) => {
                    let _ = say(&format!("pgnkit: {}: {e}\n", dir.display()));
                    2
                }
            }
        }
        None => {
            let mut page = Vec::new();
            if let Err(e) = clap_mangen::Man::new(cmd).render(&mut page) {
                let _ = say(&format!("pgnkit: cannot render the manual page: {e}\n"));
                return 2;
            }
            print_bytes(&page)
        }
    }
}
