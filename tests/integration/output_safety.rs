//! End-to-end tests of the output side (issue 11, items 2, 4 and 5), running the binary, each test in its own
//! temporary directory:
//! - `-o FILE` never destroys an input: a hard link, a symlink, standard input redirected from FILE and a file
//!   found inside a named directory are refused (exit 2, nothing touched);
//! - FILE is replaced only by a run that ends with 0 or 1: a run that fails (exit 2), or that is stopped by
//!   SIGINT, SIGTERM or SIGHUP, leaves FILE as it was and no temporary file behind; a signal ignored from the
//!   start (`nohup`) stays ignored;
//! - `-o FILE.gz` / `-o FILE.zst` are compressed, and read back by `validate` and `stats`;
//! - a write that fails is exit 2, never a panic: stderr full or closed, stdout full;
//! - `--jobs 0` is all cores, a huge `--jobs` is capped and said;
//! - an input without a single game is warned about (`no_games`) and exits 1.

use std::fmt;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{self, BIN};

/// A round with one illegal move: convert, stats and validate all exit 1 on it.
const ROUND5: &str = "fixtures/examples/round5.pgn";
/// Games that convert and validate cleanly (exit 0).
const FRENCH: &str = "fixtures/convert/french.pgn";

fn fixture(rel: &str) -> Vec<u8> {
    fs::read(util::root().join(rel)).unwrap()
}

/// A fresh temporary directory for one test, holding `in.pgn` (round 5).
fn temp_dir(name: &str) -> PathBuf {
    let dir = util::temp_dir("output-safety", name);
    fs::write(dir.join("in.pgn"), fixture(ROUND5)).unwrap();
    dir
}

/// The names in `dir`, sorted (hidden temporary files included).
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// One finished run.
struct Run {
    args: Vec<String>,
    code: Option<i32>,
    signal: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    fn expect(&self, code: i32) -> &Run {
        assert_eq!(self.code, Some(code), "{self}");
        self
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\npgnkit {}\nexit code {:?}, signal {:?}\n--- stderr:\n{}\n--- stdout (start):\n{}",
            self.args.join(" "),
            self.code,
            self.signal,
            self.stderr,
            String::from_utf8_lossy(&self.stdout[..self.stdout.len().min(2000)])
        )
    }
}

/// Runs `pgnkit ARGS` in `dir`, standard input from `stdin`, stdout and stderr captured unless given.
fn run_with(
    dir: &Path,
    args: &[&str],
    stdin: Stdio,
    stdout: Option<Stdio>,
    stderr: Option<Stdio>,
) -> Run {
    let capture_out = stdout.is_none();
    let capture_err = stderr.is_none();
    let child = crate::util::bin_command()
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(stdout.unwrap_or_else(Stdio::piped))
        .stderr(stderr.unwrap_or_else(Stdio::piped))
        .spawn()
        .expect("run pgnkit");
    let out = child.wait_with_output().expect("wait for pgnkit");
    assert!(capture_out || out.stdout.is_empty());
    assert!(capture_err || out.stderr.is_empty());
    Run {
        args: args.iter().map(|a| a.to_string()).collect(),
        code: out.status.code(),
        signal: out.status.signal(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn run(dir: &Path, args: &[&str]) -> Run {
    run_with(dir, args, Stdio::null(), None, None)
}

fn full() -> Stdio {
    Stdio::from(
        fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    )
}

/// The write end of a pipe whose read end is already closed: every write fails with EPIPE.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Stdio::from(writer)
}

fn refused(r: &Run) {
    r.expect(2);
    assert!(
        r.stderr.contains("is also an input") && r.stderr.contains("refusing to overwrite it"),
        "{r}"
    );
}

#[test]
fn a_hard_link_or_symlink_to_an_input_is_refused() {
    let dir = temp_dir("links");
    fs::hard_link(dir.join("in.pgn"), dir.join("hard.pgn")).unwrap();
    std::os::unix::fs::symlink("in.pgn", dir.join("soft.pgn")).unwrap();
    for command in ["convert", "stats"] {
        for output in ["hard.pgn", "soft.pgn", "./in.pgn", "in.pgn"] {
            refused(&run(&dir, &[command, "-q", "in.pgn", "-o", output]));
            // The output named first, the input through the link: the same.
            refused(&run(&dir, &[command, "-q", output, "-o", "in.pgn"]));
            assert_eq!(fs::read(dir.join("in.pgn")).unwrap(), fixture(ROUND5));
            assert_eq!(names(&dir), ["hard.pgn", "in.pgn", "soft.pgn"]);
        }
    }
    // A copy is another file: written, and the input kept.
    fs::copy(dir.join("in.pgn"), dir.join("copy.pgn")).unwrap();
    let r = run(&dir, &["convert", "-q", "in.pgn", "-o", "copy.pgn"]);
    r.expect(1);
    let direct = run(&dir, &["convert", "-q", "in.pgn"]);
    assert_eq!(
        fs::read(dir.join("copy.pgn")).unwrap(),
        direct.stdout,
        "{r}"
    );
    assert_eq!(fs::read(dir.join("in.pgn")).unwrap(), fixture(ROUND5));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn standard_input_redirected_from_the_output_is_refused() {
    let dir = temp_dir("stdin");
    for command in ["convert", "stats"] {
        let stdin = fs::File::open(dir.join("in.pgn")).unwrap();
        let r = run_with(
            &dir,
            &[command, "-q", "-", "-o", "in.pgn"],
            stdin.into(),
            None,
            None,
        );
        refused(&r);
        assert!(r.stderr.contains("standard input"), "{r}");
        assert_eq!(
            fs::read(dir.join("in.pgn")).unwrap(),
            fixture(ROUND5),
            "{r}"
        );
        assert_eq!(names(&dir), ["in.pgn"]);
    }
    // Standard input from another file: fine.
    let stdin = fs::File::open(dir.join("in.pgn")).unwrap();
    let r = run_with(
        &dir,
        &["convert", "-q", "-", "-o", "out.pgn"],
        stdin.into(),
        None,
        None,
    );
    r.expect(1);
    let direct = run(&dir, &["convert", "-q", "in.pgn"]);
    assert_eq!(fs::read(dir.join("out.pgn")).unwrap(), direct.stdout, "{r}");
    assert_eq!(names(&dir), ["in.pgn", "out.pgn"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_file_inside_a_named_directory_is_an_input() {
    let dir = temp_dir("directory");
    fs::create_dir_all(dir.join("games/sub")).unwrap();
    fs::write(dir.join("games/a.pgn"), fixture(FRENCH)).unwrap();
    fs::write(dir.join("games/sub/b.pgn"), fixture(ROUND5)).unwrap();
    for command in ["convert", "stats"] {
        refused(&run(
            &dir,
            &[command, "-q", "games", "-o", "games/sub/b.pgn"],
        ));
        refused(&run(
            &dir,
            &[command, "-q", "games", "-o", "in.pgn", "in.pgn"],
        ));
    }
    assert_eq!(
        fs::read(dir.join("games/sub/b.pgn")).unwrap(),
        fixture(ROUND5)
    );
    assert_eq!(names(&dir.join("games/sub")), ["b.pgn"]);
    // A new file in the directory is no input (it did not exist when the directory was read).
    let direct = run(&dir, &["convert", "-q", "games"]);
    let r = run(&dir, &["convert", "-q", "games", "-o", "games/all.pgn"]);
    r.expect(1);
    assert_eq!(
        fs::read(dir.join("games/all.pgn")).unwrap(),
        direct.stdout,
        "{r}"
    );
    // The second time it is one.
    refused(&run(
        &dir,
        &["convert", "-q", "games", "-o", "games/all.pgn"],
    ));
    assert_eq!(fs::read(dir.join("games/all.pgn")).unwrap(), direct.stdout);
    let _ = fs::remove_dir_all(&dir);
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn compressed_output_by_extension_reads_back() {
    let dir = temp_dir("compressed");
    let plain = run(&dir, &["convert", "-q", "in.pgn"]);
    plain.expect(1);
    let csv = run(&dir, &["stats", "-q", "in.pgn"]);
    csv.expect(1);

    run(&dir, &["convert", "-q", "in.pgn", "-o", "out.pgn.gz"]).expect(1);
    let gz = fs::read(dir.join("out.pgn.gz")).unwrap();
    assert!(gz.starts_with(&[0x1f, 0x8b]), "not gzip");
    assert_eq!(gunzip(&gz), plain.stdout);

    run(&dir, &["convert", "-q", "in.pgn", "-o", "OUT.PGN.ZST"]).expect(1);
    let zst = fs::read(dir.join("OUT.PGN.ZST")).unwrap();
    assert!(zst.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]), "not zstd");
    assert_eq!(zstd::decode_all(&zst[..]).unwrap(), plain.stdout);

    run(&dir, &["stats", "-q", "in.pgn", "-o", "rows.csv.Gz"]).expect(1);
    assert_eq!(
        gunzip(&fs::read(dir.join("rows.csv.Gz")).unwrap()),
        csv.stdout
    );
    run(&dir, &["stats", "-q", "in.pgn", "-o", "rows.csv.zstd"]).expect(1);
    let rows = zstd::decode_all(&fs::read(dir.join("rows.csv.zstd")).unwrap()[..]).unwrap();
    assert_eq!(rows, csv.stdout);

    // validate and stats read the compressed output back as they read the plain one.
    fs::write(dir.join("out.pgn"), &plain.stdout).unwrap();
    let want = run(&dir, &["validate", "--format", "json", "-q", "out.pgn"]);
    want.expect(1);
    for name in ["out.pgn.gz", "OUT.PGN.ZST"] {
        let got = run(&dir, &["validate", "--format", "json", "-q", name]);
        got.expect(1);
        assert_eq!(
            got.stdout().replace(name, "out.pgn"),
            want.stdout(),
            "{got}"
        );
        let stats = run(&dir, &["stats", "-q", name]);
        stats.expect(1);
        assert_eq!(
            stats.stdout().lines().count(),
            csv.stdout().lines().count(),
            "{stats}"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_run_leaves_the_target_as_it_was_and_a_run_with_problems_replaces_it() {
    let dir = temp_dir("failed");
    // A gzip header followed by garbage: an input that fails while being read (exit 2).
    fs::write(
        dir.join("broken.pgn.gz"),
        b"\x1f\x8b\x08\x00not a deflate stream at all",
    )
    .unwrap();
    for command in ["convert", "stats"] {
        fs::write(dir.join("out.txt"), "before").unwrap();
        let r = run(
            &dir,
            &[command, "-q", "in.pgn", "broken.pgn.gz", "-o", "out.txt"],
        );
        r.expect(2);
        assert_eq!(
            fs::read_to_string(dir.join("out.txt")).unwrap(),
            "before",
            "{r}"
        );
        assert_eq!(names(&dir), ["broken.pgn.gz", "in.pgn", "out.txt"], "{r}");
        // Exit 1 (a game with an error): the output is complete, FILE is replaced.
        let r = run(&dir, &[command, "-q", "in.pgn", "-o", "out.txt"]);
        r.expect(1);
        let direct = run(&dir, &[command, "-q", "in.pgn"]);
        assert_eq!(fs::read(dir.join("out.txt")).unwrap(), direct.stdout, "{r}");
        assert_eq!(names(&dir), ["broken.pgn.gz", "in.pgn", "out.txt"], "{r}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_as_output_is_written_in_place() {
    let dir = temp_dir("fifo");
    let made = Command::new("mkfifo")
        .arg(dir.join("pipe"))
        .status()
        .unwrap();
    assert!(made.success());
    let path = dir.join("pipe");
    let reader = std::thread::spawn(move || fs::read(path).unwrap());
    let r = run(&dir, &["convert", "-q", "in.pgn", "-o", "pipe"]);
    r.expect(1);
    use std::os::unix::fs::FileTypeExt;
    // Checked before waiting for the reader: had the FIFO been replaced, nothing would ever reach it.
    let kind = fs::metadata(dir.join("pipe")).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    let read = reader.join().unwrap();
    let direct = run(&dir, &["convert", "-q", "in.pgn"]);
    assert_eq!(read, direct.stdout);
    assert_eq!(names(&dir), ["in.pgn", "pipe"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn unwritable_stderr_is_exit_2_and_leaves_no_output() {
    let dir = temp_dir("stderr");
    for (what, stderr) in [("full", full as fn() -> Stdio), ("closed", closed_pipe)] {
        // validate --format json says its summary on stderr.
        let r = run_with(
            &dir,
            &["validate", "--format", "json", "in.pgn"],
            Stdio::null(),
            None,
            Some(stderr()),
        );
        assert_eq!(r.code, Some(2), "stderr {what}: {r}");
        // A bad game's note cannot be said: no output file, even with -q.
        for command in ["convert", "stats"] {
            let args = [command, "-q", "in.pgn", "-o", "out.txt"];
            let r = run_with(&dir, &args, Stdio::null(), None, Some(stderr()));
            if command == "convert" {
                assert_eq!(r.code, Some(2), "stderr {what}: {r}");
                assert_eq!(names(&dir), ["in.pgn"], "stderr {what}: {r}");
            } else {
                // stats -q says nothing on stderr: nothing is lost, the run is complete.
                assert_eq!(r.code, Some(1), "stderr {what}: {r}");
                assert_eq!(names(&dir), ["in.pgn", "out.txt"], "stderr {what}: {r}");
                fs::remove_file(dir.join("out.txt")).unwrap();
            }
        }
        // Without -q the closing summary cannot be said: exit 2, the previous file kept.
        fs::write(dir.join("out.txt"), "before").unwrap();
        for command in ["convert", "stats"] {
            let r = run_with(
                &dir,
                &[command, "in.pgn", "-o", "out.txt"],
                Stdio::null(),
                None,
                Some(stderr()),
            );
            assert_eq!(r.code, Some(2), "stderr {what}: {r}");
            assert_eq!(
                fs::read_to_string(dir.join("out.txt")).unwrap(),
                "before",
                "{r}"
            );
            assert_eq!(names(&dir), ["in.pgn", "out.txt"], "stderr {what}: {r}");
        }
        fs::remove_file(dir.join("out.txt")).unwrap();
        // Other messages on stderr: a tolerated FEN, perft's speed, a usage error, a capped --jobs (a request
        // that would do no harm uncapped).
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let over = (cores * 4).to_string();
        for args in [
            &[
                "fen",
                "--lenient",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            ][..],
            &["perft", "startpos", "2"],
            &["validate", "-j", &over, "in.pgn"],
            &["stats", "no-such-file.pgn"],
        ] {
            let r = run_with(&dir, args, Stdio::null(), None, Some(stderr()));
            assert_eq!(r.code, Some(2), "stderr {what}: {r}");
        }
    }
    // stdout and stderr on one closed pipe (`2>&1 | true`): the closed stdout ends the run quietly, with 0.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let r = run_with(
        &dir,
        &["validate", "in.pgn"],
        Stdio::null(),
        Some(Stdio::from(writer.try_clone().unwrap())),
        Some(Stdio::from(writer)),
    );
    assert_eq!(r.code, Some(0), "{r}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn full_stdout_is_exit_2_with_a_message() {
    let dir = temp_dir("stdout");
    for args in [
        &["fen", "startpos"][..],
        &["fen", "not a fen"],
        &["perft", "startpos", "3"],
        &["perft", "--divide", "startpos", "2"],
        &["validate", "in.pgn"],
        &["validate", "--format", "json", "in.pgn"],
        &["convert", "in.pgn"],
        &["stats", "in.pgn"],
        &["stats", "--summary", "in.pgn"],
        &["--help"],
        &["man"],
    ] {
        let r = run_with(&dir, args, Stdio::null(), Some(full()), None);
        assert_eq!(r.code, Some(2), "{r}");
        assert_eq!(
            r.stderr.matches("cannot write output").count(),
            1,
            "said once: {r}"
        );
        assert!(!r.stderr.contains("panicked"), "{r}");
        // No closing summary as if the run had gone well.
        for summary in ["validated ", " in, ", "pgnkit stats:"] {
            assert!(!r.stderr.contains(summary), "{r}");
        }
    }
    // A closed pipe on stdout (`| head`) is no error.
    for args in [
        &["fen", "startpos"][..],
        &["perft", "startpos", "2"],
        &["validate", "in.pgn"],
    ] {
        let r = run_with(&dir, args, Stdio::null(), Some(closed_pipe()), None);
        assert_eq!(r.code, Some(0), "{r}");
        assert!(!r.stderr.contains("cannot write output"), "{r}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// A child converting standard input into `-o out.pgn`, fed a few hundred games through a pipe kept open.
struct Converting {
    child: Child,
    stdin: std::process::ChildStdin,
}

fn start_converting(dir: &Path, wrapper: Option<&str>) -> Converting {
    let mut command = match wrapper {
        // As `nohup` does: the signal ignored before pgnkit starts.
        Some(script) => {
            let mut c = Command::new("sh");
            c.args(["-c", script, BIN]);
            c
        }
        None => {
            let mut c = crate::util::bin_command();
            // Whatever the test runner inherited (a background job starts with SIGINT ignored), the child
            // starts with the default actions, as from a terminal.
            // SAFETY: only async-signal-safe calls between fork and exec.
            unsafe {
                c.pre_exec(|| {
                    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                        libc::signal(sig, libc::SIG_DFL);
                    }
                    Ok(())
                });
            }
            c
        }
    };
    let mut child = command
        .args(["convert", "-q", "-j1", "-", "-o", "out.pgn"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run pgnkit");
    let mut stdin = child.stdin.take().unwrap();
    // More than the output buffer (64 KiB): some of it reaches the temporary file.
    let games = fixture(FRENCH).repeat(400);
    stdin.write_all(&games).unwrap();
    stdin.flush().unwrap();
    Converting { child, stdin }
}

/// Waits until the temporary file of `out.pgn` holds some output (bounded: a hang fails, it does not time).
/// Found among the files `child` has open in `dir`: on Linux it has no name (`DIR/#INODE (deleted)`).
fn wait_for_partial_output(dir: &Path, child: &Child) -> PathBuf {
    let deadline = Instant::now() + Duration::from_secs(120);
    let fds = PathBuf::from(format!("/proc/{}/fd", child.id()));
    let dir = fs::canonicalize(dir).unwrap();
    loop {
        let open = fs::read_dir(&fds).into_iter().flatten().find_map(|e| {
            let fd = e.ok()?.path();
            let target = fs::read_link(&fd).ok()?;
            let written = fs::metadata(&fd).is_ok_and(|m| m.is_file() && m.len() > 0);
            (written && target.starts_with(&dir)).then_some(target)
        });
        if let Some(temp) = open {
            return temp;
        }
        assert!(
            Instant::now() < deadline,
            "no temporary file in {}: {:?}",
            dir.display(),
            names(&dir)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn send(signal: &str, child: &Child) {
    let sent = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -s {signal}");
}

#[test]
fn a_signal_during_output_leaves_no_partial_file() {
    let dir = temp_dir("signal");
    for (signal, number) in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
        for before in [None, Some("the file from an earlier run\n")] {
            if let Some(text) = before {
                fs::write(dir.join("out.pgn"), text).unwrap();
            }
            let mut conv = start_converting(&dir, None);
            let temp = wait_for_partial_output(&dir, &conv.child);
            send(signal, &conv.child);
            let status = conv.child.wait().unwrap();
            drop(conv.stdin);
            let what = format!("SIG{signal}, out.pgn before: {before:?}: {status:?}");
            // Ended by the signal itself, as without a handler (the shell reports 128 + its number).
            assert_eq!(status.signal(), Some(number), "{what}");
            assert!(!temp.exists(), "{what}: {} left behind", temp.display());
            match before {
                Some(text) => {
                    assert_eq!(
                        fs::read_to_string(dir.join("out.pgn")).unwrap(),
                        text,
                        "{what}"
                    );
                    assert_eq!(names(&dir), ["in.pgn", "out.pgn"], "{what}");
                    fs::remove_file(dir.join("out.pgn")).unwrap();
                }
                None => assert_eq!(names(&dir), ["in.pgn"], "{what}"),
            }
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_signal_ignored_from_the_start_stays_ignored() {
    let dir = temp_dir("nohup");
    let mut conv = start_converting(&dir, Some("trap '' HUP; exec \"$0\" \"$@\""));
    wait_for_partial_output(&dir, &conv.child);
    send("HUP", &conv.child);
    // Still running: more input is taken, and the output is complete at the end.
    let games = fixture(FRENCH).repeat(400);
    conv.stdin.write_all(&games).unwrap();
    drop(conv.stdin);
    let status = conv.child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    let out = fs::read(dir.join("out.pgn")).unwrap();
    fs::write(dir.join("all.pgn"), fixture(FRENCH).repeat(800)).unwrap();
    let all = run(&dir, &["convert", "-q", "all.pgn"]);
    all.expect(0);
    assert!(
        out == all.stdout,
        "output incomplete: {} bytes of {}",
        out.len(),
        all.stdout.len()
    );
    fs::remove_file(dir.join("all.pgn")).unwrap();
    assert_eq!(names(&dir), ["in.pgn", "out.pgn"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn jobs_zero_is_all_cores_and_a_huge_request_is_capped() {
    let dir = temp_dir("jobs");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Enough games for several batches, so that the threads share the work.
    fs::write(dir.join("many.pgn"), fixture(ROUND5).repeat(300)).unwrap();
    let huge = usize::MAX.to_string();
    for command in ["validate", "convert", "stats"] {
        // The cap first, with a request that would do no harm uncapped: a huge one that were not capped would
        // start more threads than the machine can take.
        let over = (cores * 4).to_string();
        let r = run(&dir, &[command, "--jobs", &over, "in.pgn"]);
        r.expect(1);
        let note = |n: &str| {
            format!("pgnkit: --jobs {n} capped to {cores}, the number of cores available\n")
        };
        assert!(r.stderr.starts_with(&note(&over)), "{r}");
        assert_eq!(r.stderr.matches("capped").count(), 1, "said once: {r}");
        let r = run(&dir, &[command, "--jobs", &huge, "in.pgn"]);
        r.expect(1);
        assert!(r.stderr.starts_with(&note(&huge)), "{r}");
        for jobs in ["0", &cores.to_string()] {
            let r = run(&dir, &[command, "--jobs", jobs, "in.pgn"]);
            r.expect(1);
            assert!(!r.stderr.contains("capped"), "{r}");
        }
        // The output is the same whatever the request; -q leaves the note out.
        let one = run(&dir, &[command, "-q", "-j1", "many.pgn"]);
        one.expect(1);
        for jobs in ["0", &over, &huge] {
            let r = run(&dir, &[command, "-q", "--jobs", jobs, "many.pgn"]);
            r.expect(1);
            assert!(r.stdout == one.stdout, "not as with -j1: {r}");
            assert!(r.stderr == one.stderr, "-q: no note: {r}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn no_games_is_a_warning_and_exit_1() {
    let dir = temp_dir("no-games");
    fs::write(dir.join("empty.pgn"), "").unwrap();
    fs::write(dir.join("blank.pgn"), " \n\n\t\r\n  \n").unwrap();
    let warning = "warning[no_games]: no game found";
    for (input, stdin) in [
        ("empty.pgn", None),
        ("blank.pgn", None),
        ("-", Some("")),
        ("-", Some("\n \n")),
    ] {
        let stdin = || match stdin {
            Some(text) => {
                let path = dir.join("stdin.txt");
                fs::write(&path, text).unwrap();
                let file = fs::File::open(&path).unwrap();
                fs::remove_file(&path).unwrap();
                Stdio::from(file)
            }
            None => Stdio::null(),
        };
        let place = if input == "-" {
            "on standard input".to_string()
        } else {
            format!("in {input}")
        };
        let said = format!("{warning} {place}\n");
        // validate: with the diagnostics on stdout, counted in the summary.
        let r = run_with(
            &dir,
            &["validate", "--color", "never", input],
            stdin(),
            None,
            None,
        );
        r.expect(1);
        assert!(r.stdout().starts_with(&said), "{r}");
        assert!(r.stdout().contains("no errors, 1 warning\n"), "{r}");
        // -q keeps it (a diagnostic, not the summary).
        let r = run_with(&dir, &["validate", "-q", input], stdin(), None, None);
        r.expect(1);
        assert_eq!(r.stdout(), said, "{r}");
        // validate --format json: no record, the warning on stderr.
        let r = run_with(
            &dir,
            &["validate", "--format", "json", "-q", input],
            stdin(),
            None,
            None,
        );
        r.expect(1);
        assert!(r.stdout.is_empty(), "{r}");
        assert_eq!(r.stderr, said, "{r}");
        // convert: nothing out, the warning on stderr.
        let r = run_with(&dir, &["convert", "-q", input], stdin(), None, None);
        r.expect(1);
        assert!(r.stdout.is_empty(), "{r}");
        assert_eq!(r.stderr, said, "{r}");
        // stats: the header alone (or an empty summary), the warning on stderr.
        let r = run_with(&dir, &["stats", "-q", input], stdin(), None, None);
        r.expect(1);
        assert_eq!(r.stdout().lines().count(), 1, "{r}");
        assert_eq!(r.stderr, said, "{r}");
        let r = run_with(
            &dir,
            &["stats", "-q", "--summary", input],
            stdin(),
            None,
            None,
        );
        r.expect(1);
        assert_eq!(r.stderr, said, "{r}");
    }
    // Several inputs, none with a game; and one with games among empty ones (no warning).
    let r = run(&dir, &["validate", "-q", "empty.pgn", "blank.pgn"]);
    r.expect(1);
    assert_eq!(r.stdout(), format!("{warning} in the 2 inputs\n"), "{r}");
    let r = run(&dir, &["convert", "-q", "empty.pgn", "in.pgn", "blank.pgn"]);
    r.expect(1);
    assert!(!r.stderr.contains("no_games"), "{r}");
    let r = run(&dir, &["stats", "-q", "empty.pgn", "-", "blank.pgn"]);
    r.expect(1);
    assert_eq!(r.stderr, format!("{warning} in the 3 inputs\n"), "{r}");
    // -o: the run ends with 1, so FILE is written (empty).
    fs::write(dir.join("out.pgn"), "before").unwrap();
    let r = run(&dir, &["convert", "-q", "empty.pgn", "-o", "out.pgn"]);
    r.expect(1);
    assert_eq!(fs::read(dir.join("out.pgn")).unwrap(), b"", "{r}");
    let _ = fs::remove_dir_all(&dir);
}
