use super::*;
use std::io;

/// Each batch's games' Event values, numbered by the merge step across inputs.
struct Numbering;

impl Job for Numbering {
    type Batch = Vec<(u64, String)>;
    type State = u64;

    fn initial_state(&self) -> u64 {
        0
    }

    fn batch_bytes(&self) -> usize {
        // Tiny batches: many of them, finishing out of order on two threads.
        64
    }

    fn work(&self, _input: Input<'_>, games: &mut GameReader<'_>) -> Result<Self::Batch, JobError> {
        let mut batch = Vec::new();
        while let Some(game) = games.next_game() {
            let event = game.tag("Event").map(|t| t.into_owned());
            batch.push((0, event.unwrap_or_default()));
        }
        Ok(batch)
    }

    fn merge(&self, seen: &mut u64, _input: Input<'_>, batch: &mut Self::Batch) {
        for (number, _) in batch {
            *seen += 1;
            *number = *seen;
        }
    }
}

#[derive(Default)]
struct Log {
    lines: Vec<String>,
    games: Vec<(u64, String)>,
    /// Stop with a write error at this game.
    fail_at: Option<u64>,
}

impl Sink<Numbering> for Log {
    fn start(&mut self, input: Input<'_>, _: &u64) -> Result<(), JobError> {
        self.lines.push(format!("start {}", input.index));
        Ok(())
    }

    fn batch(
        &mut self,
        _input: Input<'_>,
        batch: &mut Vec<(u64, String)>,
        seen: &u64,
    ) -> Result<(), JobError> {
        assert_eq!(
            batch.last().map(|g| g.0),
            Some(*seen).filter(|_| !batch.is_empty())
        );
        self.games.append(batch);
        if self.fail_at.is_some_and(|at| *seen >= at) {
            return Err(io::Error::from(io::ErrorKind::BrokenPipe).into());
        }
        Ok(())
    }

    fn read_error(&mut self, input: Input<'_>, error: ReadError) -> Result<(), JobError> {
        assert!(
            matches!(error, ReadError::Open(InputError::NotFound(_))),
            "{error}"
        );
        self.lines.push(format!("error {}", input.index));
        Ok(())
    }

    fn end(&mut self, input: Input<'_>, _bytes: u64, _: &u64) -> Result<(), JobError> {
        self.lines.push(format!("end {}", input.index));
        Ok(())
    }
}

/// Games in each file: more than one batch holds on any number of threads.
const GAMES: u64 = 1500;

fn two_files(dir: &str) -> (PathBuf, Sources, u64) {
    let dir = std::env::temp_dir().join(format!("pgnkit-run-{dir}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text: String = (0..GAMES)
        .map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n"))
        .collect();
    let a = dir.join("a.pgn");
    std::fs::write(&a, &text).unwrap();
    let sources = Sources::new(vec![
        Source::File(a.clone()),
        Source::File(dir.join("missing.pgn")),
        Source::File(a),
    ]);
    (dir, sources, text.len() as u64)
}

#[test]
fn the_merge_step_and_the_sink_see_every_batch_in_input_order_on_any_number_of_threads() {
    let (dir, sources, bytes) = two_files("order");
    for threads in [
        Threads(NonZeroUsize::MIN),
        Threads(NonZeroUsize::new(2).unwrap()),
    ] {
        let mut log = Log::default();
        let finished = run(&sources, threads, &Numbering, &mut log).unwrap();
        assert_eq!(
            log.lines,
            ["start 0", "end 0", "error 1", "end 1", "start 2", "end 2"],
            "{threads:?}"
        );
        assert_eq!(finished.state, 2 * GAMES);
        assert_eq!(
            finished.totals,
            RunTotals {
                bytes: 2 * bytes,
                read_errors: 1
            }
        );
        let expected: Vec<(u64, String)> = (0..2 * GAMES)
            .map(|i| (i + 1, (i % GAMES).to_string()))
            .collect();
        assert_eq!(log.games, expected, "{threads:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sink_error_ends_the_run_with_it() {
    let (dir, sources, _) = two_files("stop");
    for threads in [
        Threads(NonZeroUsize::MIN),
        Threads(NonZeroUsize::new(2).unwrap()),
    ] {
        let mut log = Log {
            fail_at: Some(100),
            ..Log::default()
        };
        let stopped = run(&sources, threads, &Numbering, &mut log);
        assert!(
            matches!(&stopped, Err(JobError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe),
            "{stopped:?}"
        );
        // Nothing after the batch that failed.
        assert!((log.games.len() as u64) < GAMES, "{threads:?}");
        assert_eq!(log.lines, ["start 0"], "{threads:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn threads_none_or_zero_are_all_cores_and_requests_are_capped() {
    let cores = Threads::cores().get();
    assert_eq!(Threads::asked(None), (Threads::cores(), None));
    assert_eq!(Threads::asked(Some(0)), (Threads::cores(), None));
    assert_eq!(Threads::asked(Some(1)).0, Threads(NonZeroUsize::MIN));
    assert_eq!(Threads::asked(Some(cores)).0.get(), cores);
    for asked in [cores * THREADS_PER_CORE + 1, usize::MAX] {
        let (threads, capped) = Threads::asked(Some(asked));
        assert_eq!(threads.get(), cores * THREADS_PER_CORE);
        assert_eq!(
            capped,
            Some(Capped {
                asked,
                most: cores * THREADS_PER_CORE
            })
        );
    }
}

#[test]
fn texts_in_memory_are_read_as_they_are_in_order_on_any_threads() {
    let text = |events: std::ops::Range<u64>| -> Arc<[u8]> {
        events
            .map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n"))
            .collect::<String>()
            .into_bytes()
            .into()
    };
    // Bytes that look like gzip's magic are PGN text like any other here: nothing is decompressed.
    let gzip_lookalike: Arc<[u8]> = Arc::from(&b"\x1f\x8b[Event \"x\"]\n\n1. e4 *\n"[..]);
    let sources = Sources::new(vec![
        Source::Text {
            name: "0".into(),
            text: text(0..GAMES),
        },
        Source::Text {
            name: "1".into(),
            text: Arc::from(&b""[..]),
        },
        Source::Text {
            name: "2".into(),
            text: text(GAMES..GAMES + 3),
        },
        Source::Text {
            name: "3".into(),
            text: gzip_lookalike.clone(),
        },
    ]);
    assert_eq!(sources.input(2).name.as_ref(), "2");
    for threads in [1, 2] {
        let mut log = Log::default();
        let threads = Threads(NonZeroUsize::new(threads).unwrap());
        let finished = run(&sources, threads, &Numbering, &mut log).unwrap();
        let starts_and_ends: Vec<String> = (0..4)
            .flat_map(|i| [format!("start {i}"), format!("end {i}")])
            .collect();
        assert_eq!(log.lines, starts_and_ends);
        let events: Vec<&str> = log.games.iter().map(|(_, e)| e.as_str()).collect();
        let expected: Vec<String> = (0..GAMES + 3).map(|i| i.to_string()).collect();
        assert_eq!(&events[..expected.len()], expected);
        // The look-alike's two bytes are read as text before its game.
        assert_eq!(events.last(), Some(&"x"));
        assert_eq!(finished.totals.read_errors, 0);
        let bytes: u64 = sources.list().iter().filter_map(Source::size_hint).sum();
        assert_eq!(finished.totals.bytes, bytes);
    }
}
