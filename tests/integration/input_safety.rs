//! End-to-end tests of the reading side on hostile or unusual inputs: directory walks (names that are not
//! UTF-8, symbolic link loops, FIFOs), damaged compressed streams, and games over the size limit. Every run has
//! a time limit, so a regression that hangs fails instead.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::util::{self, BIN};

const LIMIT: Duration = Duration::from_secs(120);

/// A fresh directory for one test, under the system's temporary directory.
fn temp(name: &str) -> PathBuf {
    util::temp_dir("input-safety", name)
}

/// Runs `pgnkit ARGS`; kills it and fails when it runs longer than `limit`.
fn run_for<S: AsRef<std::ffi::OsStr>>(args: &[S], limit: Duration) -> Output {
    let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_owned()).collect();
    let mut child = crate::util::bin_command()
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pgnkit");
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = reader(Box::new(child.stdout.take().expect("piped")));
    let stderr = reader(Box::new(child.stderr.take().expect("piped")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for pgnkit") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let out = stdout.join().unwrap_or_default();
            let err = stderr.join().unwrap_or_default();
            panic!(
                "pgnkit {args:?} still running after {limit:?}: killed\n--- stdout\n{}\n--- stderr\n{}",
                tail(&out),
                String::from_utf8_lossy(&err)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    run_for(args, LIMIT)
}

/// The last lines of some output (a failing run may print thousands).
fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// A run's exit code, stdout (its end) and stderr, for failure messages.
fn show(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout (end)\n{}\n--- stderr\n{}",
        out.status.code(),
        tail(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `n` valid games, each a different pairing (no duplicate warnings), numbered from `first`.
fn games(n: usize, first: usize) -> String {
    (first..first + n)
        .map(|i| {
            format!(
                "[Event \"Test\"]\n[Site \"Here\"]\n[Date \"2024.01.01\"]\n[Round \"{i}\"]\n[White \"W{i}\"]\n\
                 [Black \"B{i}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
            )
        })
        .collect()
}

/// The `game` numbers of validate's JSON records, in output order.
fn game_numbers(out: &Output) -> Vec<u64> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).ok()?;
            value.get("game")?.as_u64()
        })
        .collect()
}

/// The `file` values of validate's JSON records.
fn record_files(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).ok()?;
            Some(value.get("file")?.as_str()?.to_string())
        })
        .collect()
}

fn validate_json(path: &Path, jobs: &str) -> Output {
    run(&[
        "validate".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "-j".as_ref(),
        jobs.as_ref(),
        path.as_os_str(),
    ])
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read_in_a_directory() {
    use std::os::unix::ffi::OsStrExt;
    let dir = temp("latin1-name");
    std::fs::write(
        dir.join(std::ffi::OsStr::from_bytes(b"Turnier_M\xfcnchen.pgn")),
        games(1000, 1),
    )
    .unwrap();
    std::fs::write(dir.join("Zagreb.PGN"), games(1000, 1001)).unwrap();
    let out = validate_json(&dir, "2");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert_eq!(game_numbers(&out).len(), 2000, "{}", show(&out));
    let files = record_files(&out);
    // Shown lossily, in name-byte order.
    assert!(
        files[0].ends_with("Turnier_M\u{FFFD}nchen.pgn"),
        "{}",
        files[0]
    );
    assert!(files[1999].ends_with("Zagreb.PGN"), "{}", files[1999]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn symbolic_link_loops_end_and_each_file_is_read_once() {
    use std::os::unix::fs::symlink;
    let dir = temp("loops");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.pgn"), games(10, 1)).unwrap();
    std::fs::write(dir.join("sub/b.pgn"), games(20, 11)).unwrap();
    // Two loops (the directory into itself, twice), a second link to a file, a hard link.
    symlink("..", dir.join("sub/up")).unwrap();
    symlink(".", dir.join("self")).unwrap();
    symlink("sub/b.pgn", dir.join("z-link.pgn")).unwrap();
    std::fs::hard_link(dir.join("a.pgn"), dir.join("sub/hard.pgn")).unwrap();
    let out = validate_json(&dir, "1");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let numbers = game_numbers(&out);
    assert_eq!(numbers.len(), 30, "{}", show(&out));
    let files = record_files(&out);
    assert_eq!(files.iter().filter(|f| f.ends_with("a.pgn")).count(), 10);
    assert_eq!(files.iter().filter(|f| f.ends_with("b.pgn")).count(), 20);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for skipped in ["self", "sub/up", "z-link.pgn", "sub/hard.pgn"] {
        assert!(
            stderr.lines().any(|l| l.starts_with("pgnkit: warning: ")
                && l.contains(skipped)
                && l.contains("skipped")),
            "{skipped} not reported\n{}",
            show(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_fifo_in_a_walked_directory_is_skipped_and_reported() {
    let dir = temp("fifo-walk");
    mkfifo(&dir.join("x.pgn"));
    std::fs::write(dir.join("y.pgn"), games(5, 1)).unwrap();
    // Opening the FIFO would wait for a writer forever: the time limit turns that into a failure.
    let out = run_for(
        &[
            "validate".as_ref(),
            "--format".as_ref(),
            "json".as_ref(),
            dir.as_os_str(),
        ],
        Duration::from_secs(30),
    );
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert_eq!(game_numbers(&out), [1, 2, 3, 4, 5], "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().any(|l| l.starts_with("pgnkit: warning: ")
            && l.contains("x.pgn")
            && l.contains("named pipe")),
        "{}",
        show(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_fifo_named_on_the_command_line_is_read() {
    let dir = temp("fifo-named");
    let fifo = dir.join("pipe.pgn");
    mkfifo(&fifo);
    let text = games(300, 1);
    let writer = {
        let fifo = fifo.clone();
        // Blocks until pgnkit opens the pipe; left behind if it never does (the run then fails on time).
        std::thread::spawn(move || {
            if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) {
                let _ = f.write_all(text.as_bytes());
            }
        })
    };
    let out = run_for(
        &[
            "validate".as_ref(),
            "--format".as_ref(),
            "json".as_ref(),
            fifo.as_os_str(),
        ],
        Duration::from_secs(60),
    );
    let _ = writer.join();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert_eq!(game_numbers(&out).len(), 300, "{}", show(&out));

    // As bash's process substitution gives it: /dev/fd/N, a pipe.
    if Path::new("/bin/bash").exists() {
        let plain = dir.join("games.txt");
        std::fs::write(&plain, games(50, 1)).unwrap();
        let script = format!(
            "exec '{BIN}' validate --format json <(cat '{}')",
            plain.display()
        );
        let out = Command::new("/bin/bash")
            .arg("-c")
            .arg(script)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        assert_eq!(game_numbers(&out).len(), 50, "{}", show(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gz_with_trailing_zero_bytes_is_read_whole() {
    let dir = temp("gz-zeros");
    let mut bytes = gzip(games(1000, 1).as_bytes());
    bytes.extend(vec![0u8; 20_000]);
    let path = dir.join("padded.pgn.gz");
    std::fs::write(&path, bytes).unwrap();
    for jobs in ["1", "2"] {
        let out = validate_json(&path, jobs);
        assert_eq!(out.status.code(), Some(0), "-j{jobs}\n{}", show(&out));
        let numbers = game_numbers(&out);
        assert_eq!(
            numbers,
            (1..=1000).collect::<Vec<_>>(),
            "-j{jobs}\n{}",
            show(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bytes a decoder gives before it fails.
fn decoded_before_fault(mut decoder: impl Read) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = decoder.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    out
}

/// A damaged compressed file: every game whose end was decoded is reported, in order, then the error (exit 2),
/// which says in which game the input ended; with one and two threads.
fn check_damaged(path: &Path, decoded: &[u8], what: &str) {
    let text = String::from_utf8_lossy(decoded);
    let complete = text.matches("Qxf7# 1-0").count() as u64;
    assert!(complete > 100, "{complete} complete games before the fault");
    for jobs in ["1", "2"] {
        let out = validate_json(path, jobs);
        let context = format!("{what}, -j{jobs}\n{}", show(&out));
        assert_eq!(out.status.code(), Some(2), "{context}");
        assert_eq!(
            game_numbers(&out),
            (1..=complete).collect::<Vec<_>>(),
            "{context}"
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("pgnkit: "))
            .collect();
        assert_eq!(errors.len(), 1, "{context}");
        assert!(
            errors[0].contains(&format!("damaged {what} data")),
            "{context}"
        );
        assert!(
            errors[0].contains(&format!("inside game {}", complete + 1)),
            "{context}"
        );
    }
}

#[test]
fn a_truncated_gz_reports_every_complete_game_then_the_error() {
    let dir = temp("gz-truncated");
    let whole = gzip(games(1000, 1).as_bytes());
    let cut = &whole[..whole.len() * 3 / 4];
    let path = dir.join("truncated.pgn.gz");
    std::fs::write(&path, cut).unwrap();
    let decoded = decoded_before_fault(flate2::read::GzDecoder::new(cut));
    check_damaged(&path, &decoded, "gzip");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_truncated_zst_reports_every_complete_game_then_the_error() {
    let dir = temp("zst-truncated");
    let whole = zstd::encode_all(games(3000, 1).as_bytes(), 3).unwrap();
    let cut = &whole[..whole.len() * 3 / 4];
    let path = dir.join("truncated.pgn.zst");
    std::fs::write(&path, cut).unwrap();
    let decoded = decoded_before_fault(zstd::stream::read::Decoder::new(cut).unwrap());
    check_damaged(&path, &decoded, "zstd");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_over_the_size_limit_is_reported_and_the_next_games_are_read() {
    let dir = temp("size-limit");
    // Game 2 holds a comment of 65 MiB (the limit is 64 MiB).
    let mut text = games(1, 1);
    text.push_str("[Event \"Huge\"]\n[Site \"Here\"]\n[Result \"*\"]\n\n1. e4 {");
    text.push_str(&"annotation ".repeat((65 << 20) / 11));
    text.push_str("} e5 *\n\n");
    text.push_str(&games(3, 3));
    let path = dir.join("huge.pgn");
    std::fs::write(&path, &text).unwrap();
    let line = 1 + text[..text.find("[Event \"Huge\"]").unwrap()]
        .matches('\n')
        .count();
    for jobs in ["1", "2"] {
        let out = validate_json(&path, jobs);
        let context = format!("-j{jobs}\n{}", show(&out));
        assert_eq!(out.status.code(), Some(2), "{context}");
        assert_eq!(game_numbers(&out), [1, 3, 4, 5], "{context}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "line {line}, column 1: game 2 is longer than 64 MiB, the most one game may take; \
                 skipped to the next game, at line {}",
                line + 6
            )),
            "{context}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
