//! End-to-end tests of issue 37's "never lose or half-write output", running the binary, each test in its
//! own temporary directory:
//! - two outputs of one run that are one file, whatever the spelling or link, are refused before any work
//!   (item 1), and so is a `--duplicates` file inside the `--split` directory (item 2);
//! - a split appears whole when the run completes, never on a signal, and two splits into one new
//!   directory do not both write into it (item 3);
//! - a signal removes every temporary file of the run (item 4); a Parquet write that fails, or a process
//!   killed while writing, leaves no file (item 5);
//! - a missing directory, a directory name or a file where a directory should be is said before any input
//!   is read, naming the path (item 6); a dangling link given as `-o` is written through (item 7);
//! - a split into thousands of groups stays within the process's open-file limit (item 12), and its file
//!   names are short enough, distinct on every file system and no Windows device (item 19).

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use unicode_normalization::UnicodeNormalization;

use crate::util::{self, run_under_ulimits};

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = util::temp_dir("output-hardening", name);
    // Canonical: the paths of the files a process has open are compared with it.
    fs::canonicalize(dir).unwrap()
}

/// The names in `dir`, sorted (hidden ones included).
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// One small game whose moves do not depend on its tags (so two of them are duplicates for `--dedupe`).
fn game(event: &str, n: usize) -> String {
    format!(
        "[Event \"{event}\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"{n}\"]\n[White \"A{n}\"]\n\
         [Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    )
}

/// `count` games over `events` events in turn: with `duplicates`, all with the same moves; without, game
/// `i` opens with one of a dozen first moves chosen by `i`.
fn games(events: usize, count: usize, duplicates: bool) -> String {
    let openings = [
        "a3", "a4", "b3", "b4", "c3", "c4", "d3", "d4", "e3", "f3", "g3", "h3",
    ];
    (0..count)
        .map(|i| {
            let text = game(&format!("Event {}", i % events), i);
            if duplicates {
                text
            } else {
                text.replace(
                    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
                    &format!("1. {} a6 *", openings[i % openings.len()]),
                )
                .replace("[Result \"1-0\"]", "[Result \"*\"]")
            }
        })
        .collect()
}

/// How many games a PGN text holds.
fn count_games(text: &str) -> usize {
    text.matches("[Event \"").count()
}

/// A finished run, shown for an assertion message.
fn show(args: &[&str], out: &Output) -> String {
    util::show(args, out)
}

fn run(dir: &Path, args: &[&str]) -> Output {
    util::bin_command()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run pgnkit")
}

/// A child reading games from a pipe the test keeps open, so the test decides when it is in the middle of
/// its work.
struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
}

impl Running {
    /// Starts `pgnkit ARGS` in `dir`, with SIGINT, SIGTERM and SIGHUP at their default actions whatever the
    /// test runner inherited (as from a terminal).
    fn start(dir: &Path, args: &[&str]) -> Running {
        let mut command = util::bin_command();
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(|| {
                for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                    libc::signal(sig, libc::SIG_DFL);
                }
                Ok(())
            });
        }
        let mut child = command
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run pgnkit");
        let stdin = child.stdin.take();
        Running { child, stdin }
    }

    fn feed(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The files under `dir` the child has open (named or not: an unnamed temporary file shows as
    /// `DIR/#INODE (deleted)`), with their sizes.
    fn files_open_under(&self, dir: &Path) -> Vec<(PathBuf, u64)> {
        let fds = PathBuf::from(format!("/proc/{}/fd", self.child.id()));
        let Ok(entries) = fs::read_dir(&fds) else {
            return Vec::new();
        };
        entries
            .filter_map(|e| {
                let fd = e.ok()?.path();
                let target = fs::read_link(&fd).ok()?;
                let size = fs::metadata(&fd).ok()?;
                (target.starts_with(dir) && size.is_file()).then_some((target, size.len()))
            })
            .collect()
    }

    /// Waits (bounded: a hang fails, it does not time) until at least `files` files under `dir` are open,
    /// together holding more than `bytes` bytes.
    fn wait_for_output(&self, dir: &Path, files: usize, bytes: u64) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let open = self.files_open_under(dir);
            let written: u64 = open.iter().map(|(_, size)| size).sum();
            if open.len() >= files && written > bytes {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "no output under {}: {open:?}",
                dir.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args(["-s", signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -s {signal}");
    }

    /// Waits for the end of a child that was sent a signal, its standard input still open: closed first, the
    /// run could end on its own before its signal thread has been scheduled.
    fn signalled(mut self) -> (ExitStatus, String) {
        let status = self.child.wait().unwrap();
        drop(self.stdin.take());
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            std::io::Read::read_to_string(&mut pipe, &mut stderr).unwrap();
        }
        (status, stderr)
    }

    /// Closes standard input and waits for the end: status and stderr.
    fn finish(mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let out = self.child.wait_with_output().unwrap();
        (
            out.status,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Waits for the end, at most `limit`: `None` (the child killed) when it is still running then.
    fn end_within(mut self, limit: Duration) -> Option<(ExitStatus, String)> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                drop(self.stdin.take());
                let out = self.child.wait_with_output().unwrap();
                return Some((
                    out.status,
                    String::from_utf8_lossy(&out.stderr).into_owned(),
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }
}

#[test]
fn two_outputs_that_are_one_file_are_refused_before_any_work() {
    let dir = temp_dir("same-file");
    fs::write(dir.join("in.pgn"), games(2, 10, true)).unwrap();
    fs::create_dir(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("here")).unwrap();
    std::os::unix::fs::symlink("x.pgn", dir.join("to-x.pgn")).unwrap();
    let before = names(&dir);
    // `x.pgn` does not exist yet: only its directory and name tell it.
    for (out, dups) in [
        ("x.pgn", "./x.pgn"),
        ("x.pgn", "sub/../x.pgn"),
        ("here/x.pgn", "x.pgn"),
        ("to-x.pgn", "x.pgn"),
        ("x.pgn", &*dir.join("x.pgn").display().to_string()),
    ] {
        let args = [
            "select",
            "-q",
            "--dedupe",
            "--duplicates",
            dups,
            "-o",
            out,
            "in.pgn",
        ];
        let r = run(&dir, &args);
        assert_eq!(r.status.code(), Some(2), "{}", show(&args, &r));
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert!(
            stderr.contains(&format!(
                "-o {out} and --duplicates {dups} are the same file"
            )),
            "both named: {}",
            show(&args, &r)
        );
        assert_eq!(names(&dir), before, "nothing written: {}", show(&args, &r));
    }
    // Existing, and a hard link to it.
    fs::write(dir.join("x.pgn"), "kept").unwrap();
    fs::hard_link(dir.join("x.pgn"), dir.join("hard.pgn")).unwrap();
    let args = [
        "select",
        "-q",
        "--dedupe",
        "--duplicates",
        "hard.pgn",
        "-o",
        "x.pgn",
        "in.pgn",
    ];
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(2), "{}", show(&args, &r));
    assert_eq!(fs::read_to_string(dir.join("x.pgn")).unwrap(), "kept");
    // Two outputs, two files: both complete.
    let args = [
        "select",
        "-q",
        "--dedupe",
        "--duplicates",
        "d.pgn",
        "-o",
        "x.pgn",
        "in.pgn",
    ];
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(0), "{}", show(&args, &r));
    let kept = fs::read_to_string(dir.join("x.pgn")).unwrap();
    let dropped = fs::read_to_string(dir.join("d.pgn")).unwrap();
    assert_eq!((count_games(&kept), count_games(&dropped)), (1, 9));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_duplicates_file_inside_the_split_directory_is_refused() {
    let dir = temp_dir("inside-split");
    // A group whose file would be `dups.pgn`, and its duplicate.
    let input = format!("{}{}", game("dups", 1), game("dups", 2));
    fs::write(dir.join("in.pgn"), &input).unwrap();
    for (dups, out) in [
        ("out/dups.pgn", "out"),
        ("out/dups.pgn", "out/"),
        ("./out/sub/dups.pgn", "out"),
    ] {
        let args = [
            "select",
            "-q",
            "--dedupe",
            "--duplicates",
            dups,
            "--split",
            "event",
            "-o",
            out,
            "in.pgn",
        ];
        let r = run(&dir, &args);
        assert_eq!(r.status.code(), Some(2), "{}", show(&args, &r));
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert!(
            stderr.contains(&format!(
                "--duplicates {dups} is inside the --split directory {out}"
            )),
            "{}",
            show(&args, &r)
        );
        assert_eq!(names(&dir), ["in.pgn"], "{}", show(&args, &r));
    }
    // Beside the directory: the group and the duplicate each in their file.
    let args = [
        "select",
        "-q",
        "--dedupe",
        "--duplicates",
        "dups.pgn",
        "--split",
        "event",
        "-o",
        "out",
        "in.pgn",
    ];
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(0), "{}", show(&args, &r));
    assert_eq!(
        fs::read_to_string(dir.join("out/dups.pgn")).unwrap(),
        game("dups", 1)
    );
    assert_eq!(
        fs::read_to_string(dir.join("dups.pgn")).unwrap(),
        game("dups", 2)
    );
    let _ = fs::remove_dir_all(&dir);
}

/// Megabytes of games over ten events: enough for the group files to be written to (past their 64 KiB
/// buffers) while the run waits for more input, even with half of them.
fn split_input() -> String {
    games(10, 16_000, false)
}

#[test]
fn an_interrupted_split_leaves_no_group_file() {
    let dir = temp_dir("split-signal");
    for (signal, number) in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
        let mut run = Running::start(
            &dir,
            &["select", "-q", "-j1", "--split", "event", "-o", "out", "-"],
        );
        run.feed(&split_input());
        run.wait_for_output(&dir, 1, 0);
        run.signal(signal);
        let (status, stderr) = run.signalled();
        assert_eq!(
            status.signal(),
            Some(number),
            "SIG{signal}: {status:?} {stderr}"
        );
        assert_eq!(
            names(&dir),
            Vec::<String>::new(),
            "SIG{signal}: nothing left"
        );
    }
    // The same into an empty directory that exists: it stays empty.
    fs::create_dir(dir.join("out")).unwrap();
    let mut run = Running::start(
        &dir,
        &["select", "-q", "-j1", "--split", "event", "-o", "out", "-"],
    );
    run.feed(&split_input());
    run.wait_for_output(&dir, 1, 0);
    run.signal("TERM");
    let (status, _) = run.signalled();
    assert_eq!(status.signal(), Some(15));
    assert_eq!(names(&dir), ["out"]);
    assert_eq!(names(&dir.join("out")), Vec::<String>::new());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn two_splits_into_one_new_directory_do_not_both_write_into_it() {
    let dir = temp_dir("split-race");
    let args = ["select", "-q", "-j1", "--split", "event", "-o", "out", "-"];
    let mut first = Running::start(&dir, &args);
    let mut second = Running::start(&dir, &args);
    // Both started (their outputs checked) before either has a game.
    std::thread::sleep(Duration::from_millis(500));
    let input = split_input();
    let half = input[..input.len() / 2].rfind("[Event ").unwrap();
    let (head, tail) = input.split_at(half);
    first.feed(head);
    second.feed(head);
    first.wait_for_output(&dir, 1, 0);
    second.wait_for_output(&dir, 1, 0);
    first.feed(tail);
    second.feed(tail);
    let (a, a_err) = first.finish();
    let (b, b_err) = second.finish();
    let mut codes = [a.code(), b.code()];
    codes.sort();
    assert_eq!(codes, [Some(0), Some(2)], "{a:?} {a_err}\n{b:?} {b_err}");
    let refused = if a.code() == Some(2) { &a_err } else { &b_err };
    assert!(
        refused.contains("out is not empty any more"),
        "the directory named: {refused}"
    );
    // One run's games, each once; no hidden directory left.
    assert_eq!(names(&dir), ["out"]);
    let written: usize = fs::read_dir(dir.join("out"))
        .unwrap()
        .map(|e| count_games(&fs::read_to_string(e.unwrap().path()).unwrap()))
        .sum();
    assert_eq!(written, count_games(&input));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_signal_with_two_outputs_removes_both_temporary_files() {
    let dir = temp_dir("two-outputs");
    for (signal, number) in [("TERM", 15), ("INT", 2)] {
        let args = [
            "select",
            "-q",
            "-j1",
            "--dedupe",
            "--duplicates",
            "d.pgn",
            "-o",
            "out.pgn",
            "-",
        ];
        let mut run = Running::start(&dir, &args);
        // Half the games duplicates of the other half: both outputs written to.
        let distinct = games(3, 3_000, false);
        run.feed(&format!("{distinct}{distinct}"));
        run.wait_for_output(&dir, 2, 0);
        run.signal(signal);
        let (status, stderr) = run.signalled();
        assert_eq!(status.signal(), Some(number), "{status:?} {stderr}");
        assert_eq!(
            names(&dir),
            Vec::<String>::new(),
            "SIG{signal}: no temporary file left"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Games with many half-moves: per-move Parquet rows, hundreds of kilobytes of output.
fn long_games(count: usize) -> String {
    let moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nc3 Nc6 4. Nb1 Nb8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nc3 Nc6 8. Nb1 Nb8 \
                 9. e4 e5 10. d4 d5 *";
    (0..count)
        .map(|i| format!("[Event \"E\"]\n[Round \"{i}\"]\n[Result \"*\"]\n\n{moves}\n\n"))
        .collect()
}

#[test]
fn a_parquet_write_over_the_file_size_limit_leaves_no_file() {
    let dir = temp_dir("parquet-fails");
    let input = dir.join("in");
    fs::create_dir(&input).unwrap();
    fs::write(input.join("in.pgn"), long_games(3_000)).unwrap();
    let out = dir.join("out");
    fs::create_dir(&out).unwrap();
    // A file over `ulimit -f` (in blocks of 512 bytes or more: 100 KB at most): the write fails as on a
    // full disk. Before, SIGXFSZ killed the process and its temporary file stayed.
    let args = [
        "stats",
        "-q",
        "--per-move",
        "--format",
        "parquet",
        "--compression",
        "none",
        "-o",
        "out/moves.parquet",
        "in/in.pgn",
    ];
    let r = run_under_ulimits(&[("-f", 200)], &dir, &args);
    assert_eq!(r.status.code(), Some(2), "{}", show(&args, &r));
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("cannot write output"),
        "{}",
        show(&args, &r)
    );
    assert_eq!(names(&out), Vec::<String>::new(), "{}", show(&args, &r));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_run_killed_while_writing_parquet_leaves_no_file() {
    // Killed (as by a failed allocation, which aborts the process without running its destructors or
    // signal handlers) while the Parquet file is being written: no file either.
    let dir = temp_dir("parquet-killed");
    let out = dir.join("out");
    fs::create_dir(&out).unwrap();
    let args = [
        "stats",
        "-q",
        "-j2",
        "--per-move",
        "--format",
        "parquet",
        "-o",
        "out/moves.parquet",
        "-",
    ];
    let mut run = Running::start(&dir, &args);
    let deadline = Instant::now() + Duration::from_secs(120);
    while run
        .files_open_under(&out)
        .iter()
        .all(|(_, size)| *size == 0)
    {
        assert!(Instant::now() < deadline, "no Parquet written");
        run.feed(&long_games(2_000));
    }
    run.signal("KILL");
    let (status, _) = run.signalled();
    assert_eq!(status.signal(), Some(9));
    assert_eq!(names(&out), Vec::<String>::new());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn outputs_are_checked_before_any_input_is_read() {
    let dir = temp_dir("checked-first");
    fs::write(dir.join("file.pgn"), game("E", 1)).unwrap();
    fs::create_dir(dir.join("existing")).unwrap();
    // Each case: the output, and what the message must hold.
    let too_long = format!("{}.pgn", "x".repeat(300));
    let cases = [
        (too_long.as_str(), "File name too long"),
        ("newdir/", "newdir/: ends with /"),
        ("newdir/.", "newdir/.: ends with /"),
        (
            "missing/deeper/out.pgn",
            "the directory missing does not exist",
        ),
        ("file.pgn/out.pgn", "file.pgn is not a directory"),
        ("existing", "existing: is a directory"),
    ];
    for command in ["convert", "stats", "select", "standings", "report"] {
        for (output, said) in cases {
            // Standard input stays open: a run that read it before checking its output would wait forever.
            let args = [command, "-q", "-o", output, "-"];
            let run = Running::start(&dir, &args);
            let Some((status, stderr)) = run.end_within(Duration::from_secs(60)) else {
                panic!("{args:?}: still running, reading its input before checking its output");
            };
            assert_eq!(status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.contains(said) && stderr.contains(output),
                "{args:?}: {stderr}"
            );
            assert_eq!(names(&dir), ["existing", "file.pgn"], "{args:?}");
        }
    }
    // A split's directory: its parent must exist, and it must not be a file.
    for (output, said) in [
        ("missing/out", "the directory missing does not exist"),
        ("file.pgn", "which is not a directory"),
    ] {
        let args = ["select", "-q", "--split", "event", "-o", output, "-"];
        let run = Running::start(&dir, &args);
        let (status, stderr) = run
            .end_within(Duration::from_secs(60))
            .expect("ends before reading");
        assert_eq!(status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
    assert_eq!(names(&dir), ["existing", "file.pgn"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_dangling_link_given_as_output_is_written_through() {
    let dir = temp_dir("dangling");
    fs::write(dir.join("in.pgn"), games(2, 4, false)).unwrap();
    for command in ["convert", "stats", "select"] {
        std::os::unix::fs::symlink("target.out", dir.join("link.out")).unwrap();
        let direct = run(&dir, &[command, "-q", "in.pgn"]);
        let args = [command, "-q", "-o", "link.out", "in.pgn"];
        let r = run(&dir, &args);
        assert_eq!(r.status.code(), direct.status.code(), "{}", show(&args, &r));
        let link = fs::symlink_metadata(dir.join("link.out")).unwrap();
        assert!(link.file_type().is_symlink(), "{command}: the link is kept");
        assert_eq!(
            fs::read(dir.join("target.out")).unwrap(),
            direct.stdout,
            "{command}: the file the link names holds the output"
        );
        fs::remove_file(dir.join("link.out")).unwrap();
        fs::remove_file(dir.join("target.out")).unwrap();
    }
    // A link into a directory that does not exist: refused, the directory named, the link kept.
    std::os::unix::fs::symlink("nowhere/target.out", dir.join("link.out")).unwrap();
    let args = ["convert", "-q", "-o", "link.out", "in.pgn"];
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(2), "{}", show(&args, &r));
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("the directory nowhere does not exist"),
        "{}",
        show(&args, &r)
    );
    assert!(
        fs::symlink_metadata(dir.join("link.out"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(names(&dir), ["in.pgn", "link.out"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_split_into_thousands_of_groups_stays_within_the_open_file_limit() {
    let dir = temp_dir("open-files");
    let groups = 5_000;
    fs::write(dir.join("in.pgn"), games(groups, groups, false)).unwrap();
    let args = ["select", "-q", "--split", "event", "-o", "out", "in.pgn"];
    let r = run_under_ulimits(&[("-n", 30), ("-v", 1 << 20)], &dir, &args);
    assert_eq!(r.status.code(), Some(0), "{}", show(&args, &r));
    let files = names(&dir.join("out"));
    assert_eq!(files.len(), groups);
    for i in [0, 1, 2_500, groups - 1] {
        let text = fs::read_to_string(dir.join(format!("out/Event_{i}.pgn"))).unwrap();
        assert_eq!(count_games(&text), 1, "Event_{i}.pgn");
        assert!(text.contains(&format!("[Round \"{i}\"]")), "Event_{i}.pgn");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// A name as a case-insensitive, normalising file system compares it.
fn folded(name: &str) -> String {
    let upper: String = name.nfkc().flat_map(char::to_uppercase).collect();
    upper.chars().flat_map(char::to_lowercase).nfkc().collect()
}

#[test]
fn group_names_are_short_distinct_and_no_device_on_any_file_system() {
    let dir = temp_dir("group-names");
    let events = [
        "國".repeat(100),
        "國".repeat(100) + "!",
        "ÉÉÉ".into(),
        "ééé".into(),
        "e\u{301}e\u{301}e\u{301}".into(),
        "\u{212a}".into(),
        "K".into(),
        "CON".into(),
        "nul.txt".into(),
        "Com1".into(),
        "Tata Steel".into(),
    ];
    let input: String = events.iter().enumerate().map(|(i, e)| game(e, i)).collect();
    fs::write(dir.join("in.pgn"), &input).unwrap();
    let args = ["select", "-q", "--split", "event", "-o", "out", "in.pgn"];
    let r = run_under_ulimits(&[("-v", 1 << 20)], &dir, &args);
    assert_eq!(r.status.code(), Some(0), "{}", show(&args, &r));
    let files = names(&dir.join("out"));
    assert_eq!(files.len(), events.len(), "{files:?}");
    let mut seen = HashSet::new();
    let mut found = 0;
    for name in &files {
        assert!(name.len() <= 255, "{name}: {} bytes", name.len());
        assert!(
            seen.insert(folded(name)),
            "{name} clashes with another name"
        );
        let base = name.split('.').next().unwrap().to_ascii_uppercase();
        assert!(
            !["CON", "PRN", "AUX", "NUL", "COM1", "LPT1"].contains(&base.as_str()),
            "{name}"
        );
        // Each file one game, found in the input.
        let text = fs::read_to_string(dir.join("out").join(name)).unwrap();
        assert_eq!(count_games(&text), 1, "{name}");
        assert!(input.contains(&text), "{name}");
        found += 1;
    }
    assert_eq!(found, events.len());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_standard_output_named_as_output_is_written_in_place() {
    // `/dev/stdout` on a pipe leads through the system's own links (`/proc/self/fd/1` to `pipe:[N]`),
    // which no path spells: written in place, as a device is.
    let dir = temp_dir("dev-stdout");
    fs::write(dir.join("in.pgn"), games(2, 4, false)).unwrap();
    let direct = run(&dir, &["convert", "-q", "in.pgn"]);
    let args = ["convert", "-q", "-o", "/dev/stdout", "in.pgn"];
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), direct.status.code(), "{}", show(&args, &r));
    assert_eq!(r.stdout, direct.stdout, "{}", show(&args, &r));
    let args = [
        "select",
        "-q",
        "--dedupe",
        "--duplicates",
        "/dev/null",
        "-o",
        "/dev/null",
        "in.pgn",
    ];
    let r = run(&dir, &args);
    assert_eq!(r.status.code(), Some(0), "{}", show(&args, &r));
    assert_eq!(names(&dir), ["in.pgn"]);
    let _ = fs::remove_dir_all(&dir);
}
