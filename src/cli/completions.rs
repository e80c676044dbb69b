//! `pgnkit completions <SHELL>` (hidden from the main help): the shell completion script, generated from the
//! same clap definitions as `--help`, so the two never drift apart.

use clap_complete::Shell;

use super::output::print_bytes;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The shell to complete for
    #[arg(value_enum)]
    shell: Shell,
}

pub(crate) fn run(args: Args) -> i32 {
    // Generated into memory first: clap_complete panics when its writer fails (a closed pipe, say).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "pgnkit", &mut script);
    print_bytes(&script)
}
