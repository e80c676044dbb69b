//! Helpers shared by the test modules: running the binary, temporary directories, where the fixtures and the
//! shared corpus are, and reading the python-chess oracle's records.

pub mod tokens;

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The `pgnkit` binary, built by cargo for the tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_pgnkit");

/// A command running the `pgnkit` binary in English whatever the tester's locale (`LANG=fr_FR` would make
/// its messages French): the tests that want French ask for it.
pub fn bin_command() -> Command {
    let mut command = Command::new(BIN);
    command
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG");
    command
}

/// The package root (also the tests' current directory, so `fixtures/...` resolves from either).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the shared corpus (`../shared/corpus` or `$PGNKIT_SHARED/corpus`: see build.rs).
pub fn corpus(path: &str) -> PathBuf {
    Path::new(env!("PGNKIT_SHARED_CORPUS")).join(path)
}

/// A corpus file copied into the repository (`fixtures/corpus-subset/`, at its corpus path).
pub fn subset(path: &str) -> PathBuf {
    root().join("fixtures/corpus-subset").join(path)
}

/// A fresh, empty temporary directory for one test. Every test runs in this one process, so the name holds
/// the area (the test module) and the test's own name as well as the process id.
pub fn temp_dir(area: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-{area}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `pgnkit ARGS` from the package root without standard input; a panic fails the test, whatever the
/// exit code.
pub fn run(args: &[&str]) -> Output {
    let out = bin_command()
        .args(args)
        .current_dir(root())
        .output()
        .expect("run pgnkit");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "pgnkit {args:?} panicked:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `pgnkit ARGS`, feeding `stdin` from a thread so a full stdout pipe cannot deadlock the test.
pub fn pgnkit<S: AsRef<OsStr>>(args: &[S], stdin: Option<&[u8]>) -> Output {
    let mut child = bin_command()
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pgnkit");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    child.wait_with_output().expect("wait for pgnkit")
}

/// Runs `pgnkit ARGS` with at most `kib` KiB of address space (`ulimit -v`), so that a run needing more ends
/// on a failed allocation instead of taking the machine's memory; standard output goes to `stdout` if given.
pub fn run_within_address_space<S: AsRef<OsStr>>(
    kib: u32,
    args: &[S],
    stdout: Option<&Path>,
) -> Output {
    let mut command = Command::new("sh");
    command
        .args(["-c", &format!("ulimit -v {kib} && exec \"$@\""), "sh"])
        .arg(BIN)
        .args(args)
        .env("LANG", "C");
    if let Some(path) = stdout {
        command.stdout(std::fs::File::create(path).unwrap());
    }
    command.output().expect("run sh")
}

/// A run for an assertion message: the command, its exit code, stderr and the start of stdout.
pub fn show(args: &[&str], out: &Output) -> String {
    format!(
        "pgnkit {}\nexit: {:?}\nstderr:\n{}\nstdout (start):\n{}",
        args.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout[..out.stdout.len().min(2000)])
    )
}

/// The JSON records of a run's standard output (its lines that are JSON objects).
pub fn records(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("each line is a JSON object"))
        .collect()
}

/// The records of a gzipped JSON-lines file, as the python-chess oracle writes them (`expected/*.jsonl.gz`).
pub fn read_jsonl_gz(path: &Path) -> Vec<Value> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Whether `python3` can import `module` (the oracles nobody here wrote: python-chess, pyarrow, Polars). CI
/// installs them and sets `PGNKIT_REQUIRE_CORPUS`: there a missing module fails the test instead of skipping
/// it; elsewhere the skip is noted on stderr.
pub fn python_has(module: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("PGNKIT_REQUIRE_CORPUS").is_none(),
            "python3 cannot import {module}: .ci/run installs it"
        );
        eprintln!("note: python3 cannot import {module}: this check is skipped");
    }
    ok
}

/// Runs `pgnkit ARGS` in `dir` under the shell limits `ulimits` (`ulimit -n 30`, `-v KiB`, `-f blocks`:
/// pairs of the flag and its value), so that a run needing more than it may have fails the test instead of
/// the machine. Standard input is empty; stdout and stderr are captured.
pub fn run_under_ulimits(ulimits: &[(&str, u64)], dir: &Path, args: &[&str]) -> Output {
    let limits: Vec<String> = ulimits
        .iter()
        .map(|(flag, value)| format!("ulimit {flag} {value}"))
        .collect();
    let script = format!("{} && exec \"$@\"", limits.join(" && "));
    Command::new("sh")
        .args(["-c", &script, "sh"])
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C")
        .stdin(Stdio::null())
        .output()
        .expect("run sh")
}

/// Runs a page check of tests/browser/ (`script`, as `check_report.sh`) on `page` with `args`; `None` when it
/// was skipped (no chromium and none could be installed; the scripts fail instead when PGNKIT_REQUIRE_CORPUS is
/// set).
pub fn browser_check(script: &str, page: &Path, args: &[&OsStr]) -> Option<Output> {
    let out = Command::new("bash")
        .arg(root().join("tests/browser").join(script))
        .arg(page)
        .args(args)
        .output()
        .expect("run bash");
    if out.status.code() == Some(3) {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    Some(out)
}
