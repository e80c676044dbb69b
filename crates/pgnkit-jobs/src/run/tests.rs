use super::*;
use crate::messages::Locale;
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
    for none in [None, Some(0)] {
        let (threads, capped) = Threads::asked(none);
        assert_eq!(threads, Threads::cores());
        assert!(capped.is_none());
    }
    assert_eq!(Threads::asked(Some(1)).0, Threads(NonZeroUsize::MIN));
    assert_eq!(Threads::asked(Some(cores)).0.get(), cores);
    for asked in [cores * THREADS_PER_CORE + 1, usize::MAX] {
        let (threads, capped) = Threads::asked(Some(asked));
        let most = cores * THREADS_PER_CORE;
        assert_eq!(threads.get(), most);
        assert_eq!(
            capped.map(|c| c.explain(Locale::En)),
            Some(format!(
                "--jobs {asked} capped to {most}, the number of cores available"
            ))
        );
    }
}

#[test]
fn texts_in_memory_are_read_in_order_on_any_threads_and_decompressed_as_files_are() {
    let text = |events: std::ops::Range<u64>| -> Arc<[u8]> {
        events
            .map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n"))
            .collect::<String>()
            .into_bytes()
            .into()
    };
    // A compressed file's bytes (Python's `bytes` of a `.pgn.gz`) are decompressed, as the file would be.
    let plain_x = b"[Event \"x\"]\n\n1. e4 *\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, plain_x).unwrap();
    let gzipped: Arc<[u8]> = Arc::from(gz.finish().unwrap());
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
            text: gzipped.clone(),
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
        assert_eq!(events.last(), Some(&"x"));
        assert_eq!(finished.totals.read_errors, 0);
        // Bytes of text read: the compressed one's once decompressed.
        let bytes: u64 = sources.list()[..3]
            .iter()
            .filter_map(Source::size_hint)
            .sum();
        assert_eq!(finished.totals.bytes, bytes + plain_x.len() as u64);
    }
}

/// Each game as (its input, its number in the input, its Event), with the batch it came in; the inputs begun
/// so far, to check that every input whose games are merged has begun.
struct Spanning {
    joins: bool,
}

/// A batch of [`Spanning`]: its games, and whether a worker made it of small texts taken together.
#[derive(Default)]
struct SpanningBatch {
    games: Vec<(usize, u64, String)>,
    of_parts: bool,
}

fn games_of(input: Input<'_>, games: &mut GameReader<'_>, into: &mut SpanningBatch) {
    while let Some(game) = games.next_game() {
        let event = game.tag("Event").map(|t| t.into_owned());
        into.games
            .push((input.index, game.index, event.unwrap_or_default()));
    }
}

impl Job for Spanning {
    type Batch = SpanningBatch;
    /// The inputs begun.
    type State = Vec<usize>;

    fn initial_state(&self) -> Vec<usize> {
        Vec::new()
    }

    fn batch_bytes(&self) -> usize {
        1000
    }

    fn work(
        &self,
        input: Input<'_>,
        games: &mut GameReader<'_>,
    ) -> Result<SpanningBatch, JobError> {
        let mut batch = SpanningBatch::default();
        games_of(input, games, &mut batch);
        Ok(batch)
    }

    fn begin_input(&self, begun: &mut Vec<usize>, input: Input<'_>) {
        begun.push(input.index);
    }

    fn merge(&self, begun: &mut Vec<usize>, input: Input<'_>, batch: &mut SpanningBatch) {
        assert_eq!(begun.last(), Some(&input.index));
        assert!(batch.games.iter().all(|g| begun.contains(&g.0)));
    }

    fn joined_inputs(&self) -> Option<&dyn JoinedInputs<Batch = SpanningBatch>> {
        self.joins.then_some(self)
    }
}

impl JoinedInputs for Spanning {
    type Batch = SpanningBatch;

    fn work_parts(&self, parts: Parts<'_>) -> Result<SpanningBatch, JobError> {
        let mut batch = SpanningBatch {
            of_parts: true,
            ..SpanningBatch::default()
        };
        for (input, mut games) in parts {
            games_of(input, &mut games, &mut batch);
        }
        Ok(batch)
    }
}

/// What a sink of [`Spanning`] saw: the frames, the games with the input each batch was delivered under.
#[derive(Default)]
struct Frames {
    lines: Vec<String>,
    open: Option<usize>,
    batches: Vec<(usize, SpanningBatch)>,
}

impl Sink<Spanning> for Frames {
    fn start(&mut self, input: Input<'_>, _: &Vec<usize>) -> Result<(), JobError> {
        assert_eq!(self.open.replace(input.index), None, "inputs nest");
        self.lines.push(format!("start {}", input.index));
        Ok(())
    }

    fn batch(
        &mut self,
        input: Input<'_>,
        batch: &mut SpanningBatch,
        _: &Vec<usize>,
    ) -> Result<(), JobError> {
        assert_eq!(
            self.open,
            Some(input.index),
            "a batch within its input's frame"
        );
        self.batches.push((input.index, std::mem::take(batch)));
        Ok(())
    }

    fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
        panic!("{error}")
    }

    fn end(&mut self, input: Input<'_>, bytes: u64, _: &Vec<usize>) -> Result<(), JobError> {
        assert_eq!(self.open.take(), Some(input.index));
        assert_eq!(Some(bytes), input.source.size_hint());
        self.lines.push(format!("end {}", input.index));
        Ok(())
    }
}

/// Texts of one game each, then one a batch cannot hold, an empty one, one of three games after a BOM,
/// and one game each again.
fn mixed_texts() -> (Sources, Vec<(usize, u64, String)>) {
    let game = |event: String| format!("[Event \"{event}\"]\n\n1. e4 e5 2. Nf3 *\n\n");
    let mut texts: Vec<String> = (0..300).map(|i| game(format!("small {i}"))).collect();
    texts.push((0..100).map(|k| game(format!("large {k}"))).collect());
    texts.push(String::new());
    texts.push(format!(
        "\u{feff}{}",
        (0..3)
            .map(|k| game(format!("three {k}")))
            .collect::<String>()
    ));
    texts.extend((0..200).map(|i| game(format!("after {i}"))));
    let mut games = Vec::new();
    for (input, text) in texts.iter().enumerate() {
        for (number, event) in text.split("[Event \"").skip(1).enumerate() {
            let event = event.split('"').next().unwrap_or_default();
            games.push((input, number as u64, event.to_owned()));
        }
    }
    let sources = texts
        .into_iter()
        .enumerate()
        .map(|(i, text)| Source::Text {
            name: i.to_string(),
            text: text.into_bytes().into(),
        })
        .collect();
    (Sources::new(sources), games)
}

#[test]
fn a_job_whose_inputs_are_parts_of_one_stream_gets_batches_of_several_small_texts() {
    let (sources, expected) = mixed_texts();
    let large = 300;
    for threads in [1, 2] {
        let threads = Threads(NonZeroUsize::new(threads).unwrap());
        let mut frames = Frames::default();
        let finished = run(&sources, threads, &Spanning { joins: true }, &mut frames).unwrap();
        // Every input begun, started and ended, in order, one after the other.
        assert_eq!(finished.state, (0..sources.len()).collect::<Vec<_>>());
        let frames_expected: Vec<String> = (0..sources.len())
            .flat_map(|i| [format!("start {i}"), format!("end {i}")])
            .collect();
        assert_eq!(frames.lines, frames_expected, "{threads:?}");
        // Every game once, in order, with its own input and its number within it.
        let games: Vec<_> = frames
            .batches
            .iter()
            .flat_map(|(_, b)| b.games.iter().cloned())
            .collect();
        assert_eq!(games, expected, "{threads:?}");
        // The small texts share batches (about 40 bytes each, 1000 bytes a batch), delivered under the last
        // text they hold; the large text is read alone, in batches of its own.
        for (delivered_under, batch) in &frames.batches {
            let inputs: Vec<usize> = batch.games.iter().map(|g| g.0).collect();
            assert_eq!(batch.of_parts, !inputs.contains(&large), "{inputs:?}");
            if batch.of_parts {
                assert!(inputs.iter().all(|i| i <= delivered_under));
            } else {
                assert!(inputs.iter().all(|&i| i == large) && *delivered_under == large);
            }
        }
        let of_parts = frames.batches.iter().filter(|(_, b)| b.of_parts).count();
        assert!(
            of_parts > 1 && of_parts < 100,
            "{of_parts} batches of small texts"
        );
        assert!(frames.batches.iter().any(|(_, b)| !b.of_parts));
    }
}

#[test]
fn a_job_that_does_not_join_its_inputs_gets_a_batch_per_small_text() {
    let (sources, expected) = mixed_texts();
    for threads in [1, 2] {
        let threads = Threads(NonZeroUsize::new(threads).unwrap());
        let mut frames = Frames::default();
        run(&sources, threads, &Spanning { joins: false }, &mut frames).unwrap();
        let games: Vec<_> = frames
            .batches
            .iter()
            .flat_map(|(_, b)| b.games.iter().cloned())
            .collect();
        assert_eq!(games, expected, "{threads:?}");
        for (delivered_under, batch) in &frames.batches {
            assert!(!batch.of_parts);
            assert!(batch.games.iter().all(|g| g.0 == *delivered_under));
        }
    }
}

#[test]
fn small_texts_of_many_tiny_games_make_no_larger_batches_than_a_file() {
    // 200 games of `*` in 800 bytes: two such texts are more games than a batch of a file holds.
    let tiny: Arc<[u8]> = "*\n\n\n".repeat(200).into_bytes().into();
    let sources = Sources::new(
        (0..10)
            .map(|i| Source::Text {
                name: i.to_string(),
                text: tiny.clone(),
            })
            .collect(),
    );
    struct Big;
    impl Job for Big {
        type Batch = usize;
        type State = ();
        fn initial_state(&self) {}
        fn work(&self, _: Input<'_>, games: &mut GameReader<'_>) -> Result<usize, JobError> {
            let mut n = 0;
            while games.next_game().is_some() {
                n += 1;
            }
            Ok(n)
        }
        fn joined_inputs(&self) -> Option<&dyn JoinedInputs<Batch = usize>> {
            Some(self)
        }
    }
    impl JoinedInputs for Big {
        type Batch = usize;
        fn work_parts(&self, parts: Parts<'_>) -> Result<usize, JobError> {
            let mut n = 0;
            for (input, mut games) in parts {
                n += Big.work(input, &mut games)?;
            }
            Ok(n)
        }
    }
    struct Sizes(Vec<usize>);
    impl Sink<Big> for Sizes {
        fn batch(&mut self, _: Input<'_>, games: &mut usize, _: &()) -> Result<(), JobError> {
            self.0.push(*games);
            Ok(())
        }
        fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
            panic!("{error}")
        }
    }
    for threads in [1, 2] {
        let mut sizes = Sizes(Vec::new());
        let threads = Threads(NonZeroUsize::new(threads).unwrap());
        run(&sources, threads, &Big, &mut sizes).unwrap();
        assert_eq!(sizes.0.iter().sum::<usize>(), 2000);
        assert!(
            sizes.0.iter().all(|&n| n <= pgnkit::pgn::MAX_BATCH_GAMES),
            "{:?}",
            sizes.0
        );
    }
}

#[test]
fn a_compressed_text_in_memory_is_read_as_the_compressed_file_is() {
    use std::io::Write;
    let text = "[Event \"A\"]\n\n1. e4 e5 *\n\n[Event \"B\"]\n\n1. d4 *\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let mut two_members = gz.finish().unwrap();
    two_members.extend_from_slice(&two_members.clone());
    let zst = zstd::encode_all(text.as_bytes(), 3).unwrap();
    let read = |bytes: &[u8]| {
        let sources = Sources::new(vec![Source::Text {
            name: "t".into(),
            text: Arc::from(bytes),
        }]);
        let mut opened = input::open(&sources[0], crate::options::InputFormat::Auto).unwrap();
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut opened.reader, &mut out).map(|_| out)
    };
    assert_eq!(read(&two_members).unwrap(), text.repeat(2).as_bytes());
    assert_eq!(read(&zst).unwrap(), text.as_bytes());
    let damaged = read(&zst[..zst.len() - 4]).unwrap_err();
    assert!(
        damaged.to_string().starts_with("damaged zstd data"),
        "{damaged}"
    );
    // Taken as a small text with others, it is still opened and decompressed: two games, not bytes.
    let sources = Sources::new(vec![
        Source::Text {
            name: "plain".into(),
            text: Arc::from(text.as_bytes()),
        },
        Source::Text {
            name: "zst".into(),
            text: Arc::from(&zst[..]),
        },
    ]);
    let texts = reading::small_texts(
        &sources,
        0,
        (1 << 20, crate::options::InputFormat::Auto),
        &mut Vec::new(),
    );
    assert_eq!(texts, 0..1);
}
