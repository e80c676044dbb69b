//! End-to-end tests of what the command line as a whole offers, running the binary:
//! - the `-o FILE` check shared by `convert` and `stats` refuses an output that is one of the inputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_pgnkit");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run pgnkit")
}

fn show(args: &[&str], out: &Output) -> String {
    format!(
        "pgnkit {}\nexit: {:?}\nstderr:\n{}\nstdout (start):\n{}",
        args.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout[..out.stdout.len().min(2000)])
    )
}

#[test]
fn convert_and_stats_refuse_an_output_that_is_also_an_input() {
    let dir = temp_dir("clash");
    let input = dir.join("round5.pgn");
    let original = std::fs::read(root().join("fixtures/examples/round5.pgn")).unwrap();
    std::fs::write(&input, &original).unwrap();
    let path = input.to_str().unwrap();
    // The same file under another spelling is caught too.
    let other_spelling = dir.join(".").join("round5.pgn");
    for command in ["convert", "stats"] {
        for output in [path, other_spelling.to_str().unwrap()] {
            let args = [command, "-q", "-o", output, path];
            let out = run(&args);
            assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("is also an input") && stderr.contains("refusing to overwrite it"),
                "{}",
                show(&args, &out)
            );
            assert_eq!(
                std::fs::read(&input).unwrap(),
                original,
                "input changed: {}",
                show(&args, &out)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
