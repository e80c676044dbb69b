//! Reading a run's inputs: every source is opened in turn (decompressed as needed) and read in batches of
//! whole games; batches are processed in parallel and their results come back in input order, framed by the
//! start and end of each source. Small texts held in memory are not opened: consecutive ones are taken by one
//! worker together and each read whole ([`Parts`]), so that a column of one-game texts costs its games, not a
//! hand-off between threads, a reader and its buffer per text.

use std::io::Read;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::input::{self, Source};
use super::pipeline::run_ordered;
use super::table::{MAGIC, TableGames};
use super::{Input, Parts, ReadError, Sources};
use crate::options::InputFormat;
use pgnkit::pgn::{
    BOM, Batch, BatchReader, BlockReader, DEFAULT_BLOCK, GameLists, GameReader, MAX_BATCH_GAMES,
    game_starts,
};

/// Bytes of whole games per batch for the worker threads: small enough that the last batches of a file keep
/// every thread busy and that a batch is still in a shared cache when a worker takes it from the reading
/// thread, large enough that handing them out costs little (the sizes tried: docs/performance.md, "Tuning
/// constants").
pub(crate) const BATCH_SIZE: usize = 128 << 10;

thread_local! {
    /// A worker's game lists, lent to the reader of each batch it takes.
    static LISTS: std::cell::Cell<GameLists> = std::cell::Cell::default();
}

/// What the workers make of the games.
pub(crate) trait Work: Sync {
    type Out: Send;

    /// The result of a batch of one source's games.
    fn batch(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Self::Out;

    /// The results of small texts taken together: one each ([`Parts::each`]), or one for them all.
    fn texts(&self, parts: Parts<'_>) -> Texts<Self::Out>;
}

/// What a worker made of small texts taken together.
pub(crate) enum Texts<R> {
    /// A result per text, in order.
    Each(Vec<R>),
    /// One result holding every text's games.
    Joined(R),
}

impl<'r> Parts<'r> {
    fn new(sources: &'r Sources, texts: Range<usize>) -> Self {
        Parts { sources, texts }
    }

    /// A result per text, made by `work`.
    pub(crate) fn each<R>(self, work: impl Fn(Input<'_>, &mut GameReader<'_>) -> R) -> Texts<R> {
        Texts::Each(
            self.map(|(input, mut games)| work(input, &mut games))
                .collect(),
        )
    }
}

/// The sources from `first` on that one worker takes together, each read whole: consecutive texts held in
/// memory, together at most `batch_size` bytes and [`MAX_BATCH_GAMES`] games as the splitter counts them (no
/// more than a batch of a file holds, so a text of many tiny games still costs bounded memory per batch).
/// Empty when the source at `first` is no text, or a text that one batch cannot hold: that one is read as a
/// file is, in batches.
pub(super) fn small_texts(
    sources: &[Source],
    first: usize,
    (batch_size, format): (usize, InputFormat),
    starts: &mut Vec<usize>,
) -> Range<usize> {
    let (mut end, mut bytes, mut games) = (first, 0, 0);
    while let Some(Source::Text { text, .. }) = sources.get(end) {
        // A Parquet file or compressed text held in memory is opened as a file is (`input::open`).
        let opened = (format != InputFormat::Pgn && text.starts_with(MAGIC))
            || input::Compression::sniff(text) != input::Compression::None;
        if text.len() > batch_size - bytes || opened {
            break;
        }
        starts.clear();
        game_starts(text.strip_prefix(BOM).unwrap_or(text), true, true, starts);
        if games + starts.len() > MAX_BATCH_GAMES {
            break;
        }
        bytes += text.len();
        games += starts.len();
        end += 1;
    }
    first..end
}

/// The bytes of the texts `texts`.
fn text_bytes(sources: &[Source], texts: Range<usize>) -> u64 {
    sources[texts].iter().filter_map(Source::size_hint).sum()
}

/// What the ordered output side sees, in input order.
pub(crate) enum Event<R> {
    /// A source is about to be read.
    Start { source: usize },
    /// The result of one batch of games of a source.
    Batch { source: usize, result: R },
    /// A source could not be opened or read, or held a game over the size limit
    /// ([`pgnkit::pgn::MAX_GAME_BYTES`]). Every complete game read before the error has been delivered; after a
    /// read error nothing more of the source comes, after a game over the limit the source goes on (that game
    /// was skipped).
    Error { source: usize, error: ReadError },
    /// A source is finished; `bytes` of text were read from it (decompressed), whatever became of them.
    End { source: usize, bytes: u64 },
}

/// The events of small texts taken together, each framed by its start and end. Joined, the one result comes
/// within the last text's frame, after every text it holds has started.
fn emit_texts<R, B>(
    sources: &[Source],
    texts: Range<usize>,
    results: Texts<R>,
    emit: &mut impl FnMut(Event<R>) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let end = |source: usize| Event::End {
        source,
        bytes: text_bytes(sources, source..source + 1),
    };
    match results {
        Texts::Each(results) => {
            for (source, result) in texts.zip(results) {
                emit(Event::Start { source })?;
                emit(Event::Batch { source, result })?;
                emit(end(source))?;
            }
        }
        Texts::Joined(result) => {
            let last = texts.end.saturating_sub(1);
            for source in texts.start..last {
                emit(Event::Start { source })?;
                emit(end(source))?;
            }
            emit(Event::Start { source: last })?;
            emit(Event::Batch {
                source: last,
                result,
            })?;
            emit(end(last))?;
        }
    }
    ControlFlow::Continue(())
}

enum Item {
    Start(usize),
    Batch(usize, Batch),
    /// Small texts, taken together.
    Texts(Range<usize>),
    Error(usize, ReadError),
    End(usize, u64),
}

/// What a worker made of an item.
enum Done<R> {
    Event(Event<R>),
    Texts(Range<usize>, Texts<R>),
}

/// Reads the sources one after the other, yielding their batches framed by start/end items.
struct Items<'s> {
    sources: &'s [Source],
    block_size: usize,
    index: usize,
    reader: Option<BatchReader<Box<dyn Read + Send>>>,
    /// The games of the current source when it is a Parquet file.
    table: Option<TableGames>,
    format: InputFormat,
    /// Raw bytes read of the current source (compressed bytes for compressed input).
    raw: Arc<AtomicU64>,
    /// Raw bytes of the finished sources.
    done: u64,
    closing: bool,
    /// Buffers of processed batches, handed back by the workers for the reader to fill again.
    returned: Arc<Mutex<Vec<Vec<u8>>>>,
    /// The splitter's game starts in a text (see `small_texts`).
    starts: Vec<usize>,
}

impl Items<'_> {
    fn bytes_read(&self) -> u64 {
        self.done + self.raw.load(Ordering::Relaxed)
    }
}

impl Iterator for Items<'_> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        let source = self.sources.get(self.index)?;
        if self.closing {
            self.closing = false;
            let bytes = match (self.reader.take(), self.table.take()) {
                (Some(reader), _) => reader.bytes_read(),
                (None, Some(table)) => table.bytes_read(),
                (None, None) => 0,
            };
            self.done += self.raw.swap(0, Ordering::Relaxed);
            self.index += 1;
            return Some(Item::End(self.index - 1, bytes));
        }
        if let Some(table) = self.table.as_mut() {
            let spare = self
                .returned
                .lock()
                .ok()
                .and_then(|mut returned| returned.pop())
                .unwrap_or_default();
            return match table.next_batch(self.block_size, spare) {
                Some(Ok(batch)) => Some(Item::Batch(self.index, batch)),
                Some(Err(e)) => Some(Item::Error(
                    self.index,
                    ReadError::reading(source, e.into()),
                )),
                None => {
                    self.closing = true;
                    self.next()
                }
            };
        }
        let Some(reader) = self.reader.as_mut() else {
            let texts = small_texts(
                self.sources,
                self.index,
                (self.block_size, self.format),
                &mut self.starts,
            );
            if !texts.is_empty() {
                self.done += text_bytes(self.sources, texts.clone());
                self.index = texts.end;
                return Some(Item::Texts(texts));
            }
            return Some(match input::open(source, self.format) {
                Ok(opened) => {
                    self.raw = opened.raw_bytes_read;
                    match opened.table {
                        Some(table) => self.table = Some(table),
                        None => {
                            self.reader =
                                Some(BatchReader::with_block_size(opened.reader, self.block_size))
                        }
                    }
                    Item::Start(self.index)
                }
                Err(e) => {
                    self.closing = true;
                    Item::Error(self.index, ReadError::Open(e))
                }
            });
        };
        if let Ok(mut returned) = self.returned.lock() {
            for buf in returned.drain(..) {
                reader.recycle(buf);
            }
        }
        match reader.next() {
            Some(Ok(batch)) => Some(Item::Batch(self.index, batch)),
            // A game over the size limit (skipped, the reader goes on) or a read error (the complete games
            // before it were handed out; the reader ends next).
            Some(Err(e)) => Some(Item::Error(self.index, ReadError::reading(source, e))),
            None => {
                self.closing = true;
                self.next()
            }
        }
    }
}

/// Reads every source and hands its games to `work`, a batch at a time (or small texts together), on `jobs`
/// threads; `emit` receives the events in input order. `progress` is called on the calling thread with the
/// raw (on-disk) bytes read so far. Returns the value `emit` stopped with, if it did.
///
/// With one thread, blocks are parsed where they are read (no split, no copy: the fastest path); with more,
/// the reader cuts batches of whole games of about `batch_size` bytes that the pool parses and processes.
pub(crate) fn read<W, B, E>(
    sources: &Sources,
    jobs: usize,
    batch_size: usize,
    work: &W,
    emit: E,
    progress: impl FnMut(u64),
) -> Option<B>
where
    W: Work,
    E: FnMut(Event<W::Out>) -> ControlFlow<B>,
{
    if jobs <= 1 {
        read_single(sources, batch_size, work, emit, progress)
    } else {
        read_parallel(sources, jobs, batch_size, work, emit, progress)
    }
}

fn read_single<W, B, E>(
    sources: &Sources,
    batch_size: usize,
    work: &W,
    mut emit: E,
    mut progress: impl FnMut(u64),
) -> Option<B>
where
    W: Work,
    E: FnMut(Event<W::Out>) -> ControlFlow<B>,
{
    let mut done = 0u64;
    let mut starts = Vec::new();
    let mut source = 0;
    while source < sources.len() {
        let texts = small_texts(sources, source, (batch_size, sources.format()), &mut starts);
        if !texts.is_empty() {
            let results = work.texts(Parts::new(sources, texts.clone()));
            done += text_bytes(sources, texts.clone());
            progress(done);
            source = texts.end;
            if let ControlFlow::Break(b) = emit_texts(sources, texts, results, &mut emit) {
                return Some(b);
            }
            continue;
        }
        let input = &sources[source];
        let mut text_bytes = 0;
        let step = (|| {
            let opened = match input::open(input, sources.format()) {
                Ok(opened) => opened,
                Err(e) => {
                    emit(Event::Error {
                        source,
                        error: ReadError::Open(e),
                    })?;
                    return ControlFlow::Continue(());
                }
            };
            emit(Event::Start { source })?;
            let raw = opened.raw_bytes_read.clone();
            if let Some(mut table) = opened.table {
                let mut spare = Vec::new();
                while let Some(batch) = table.next_batch(DEFAULT_BLOCK, std::mem::take(&mut spare))
                {
                    match batch {
                        Ok(batch) => {
                            let result = work.batch(sources.input(source), &mut batch.games());
                            spare = batch.bytes;
                            progress(done + raw.load(Ordering::Relaxed));
                            emit(Event::Batch { source, result })?;
                        }
                        Err(e) => emit(Event::Error {
                            source,
                            error: ReadError::reading(input, e.into()),
                        })?,
                    }
                }
                done += raw.load(Ordering::Relaxed);
                text_bytes = table.bytes_read();
                return ControlFlow::Continue(());
            }
            let mut reader = BlockReader::new(opened.reader, DEFAULT_BLOCK);
            loop {
                match reader.next_block(|games| work.batch(sources.input(source), games)) {
                    Ok(Some(result)) => {
                        progress(done + raw.load(Ordering::Relaxed));
                        emit(Event::Batch { source, result })?;
                    }
                    Ok(None) => break,
                    // A game over the size limit (skipped, the reader goes on) or a read error (the complete
                    // games before it were handed out; the reader ends next).
                    Err(e) => emit(Event::Error {
                        source,
                        error: ReadError::reading(input, e),
                    })?,
                }
            }
            done += raw.load(Ordering::Relaxed);
            text_bytes = reader.bytes_read();
            ControlFlow::Continue(())
        })();
        if let ControlFlow::Break(b) = step {
            return Some(b);
        }
        if let ControlFlow::Break(b) = emit(Event::End {
            source,
            bytes: text_bytes,
        }) {
            return Some(b);
        }
        source += 1;
    }
    None
}

/// The parallel path; `block_size` is the batch size.
fn read_parallel<W, B, E>(
    sources: &Sources,
    jobs: usize,
    block_size: usize,
    work: &W,
    mut emit: E,
    mut progress: impl FnMut(u64),
) -> Option<B>
where
    W: Work,
    E: FnMut(Event<W::Out>) -> ControlFlow<B>,
{
    let mut items = Items {
        sources: sources.list(),
        block_size,
        index: 0,
        reader: None,
        table: None,
        format: sources.format(),
        raw: Arc::new(AtomicU64::new(0)),
        done: 0,
        closing: false,
        returned: Arc::default(),
        starts: Vec::new(),
    };
    let returned = items.returned.clone();
    let items = std::iter::from_fn(move || {
        let item = items.next();
        progress(items.bytes_read());
        item
    });
    run_ordered(
        items,
        jobs,
        |item| match item {
            Item::Start(source) => Done::Event(Event::Start { source }),
            Item::Batch(source, batch) => {
                let mut games = batch.games().with_lists(LISTS.take());
                let result = work.batch(sources.input(source), &mut games);
                LISTS.set(games.into_lists());
                if let Ok(mut returned) = returned.lock() {
                    returned.push(batch.bytes);
                }
                Done::Event(Event::Batch { source, result })
            }
            Item::Texts(texts) => {
                let results = work.texts(Parts::new(sources, texts.clone()));
                Done::Texts(texts, results)
            }
            Item::Error(source, error) => Done::Event(Event::Error { source, error }),
            Item::End(source, bytes) => Done::Event(Event::End { source, bytes }),
        },
        |done| match done {
            Done::Event(event) => emit(event),
            Done::Texts(texts, results) => emit_texts(sources, texts, results, &mut emit),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The work of these tests: counting a batch's games.
    struct Count;

    fn count(_: Input<'_>, games: &mut GameReader<'_>) -> usize {
        let mut n = 0;
        while games.next_game().is_some() {
            n += 1;
        }
        n
    }

    impl Work for Count {
        type Out = usize;

        fn batch(&self, input: Input<'_>, games: &mut GameReader<'_>) -> usize {
            count(input, games)
        }

        fn texts(&self, parts: Parts<'_>) -> Texts<usize> {
            parts.each(count)
        }
    }

    #[test]
    fn events_frame_each_source_in_order_and_errors_do_not_stop_the_run() {
        let dir = std::env::temp_dir().join(format!("pgnkit-bulk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.pgn");
        std::fs::write(
            &a,
            "[Event \"1\"]\n\n1. e4 *\n\n[Event \"2\"]\n\n1. d4 *\n".repeat(50),
        )
        .unwrap();
        let sources = Sources::new(vec![
            Source::File(a.clone()),
            Source::File(PathBuf::from("/no/such/file.pgn")),
            Source::File(a),
        ]);
        for jobs in [1, 2] {
            let mut log = Vec::new();
            let mut games = 0;
            let on_event = |event: Event<usize>| {
                match event {
                    Event::Start { source } => log.push(format!("start {source}")),
                    Event::Batch { result, .. } => games += result,
                    Event::Error { source, error } => {
                        assert!(matches!(error, ReadError::Open(_)), "{error}");
                        log.push(format!("error {source}"))
                    }
                    Event::End { source, .. } => log.push(format!("end {source}")),
                }
                ControlFlow::<()>::Continue(())
            };
            let stopped = if jobs == 1 {
                read(&sources, 1, 1 << 20, &Count, on_event, |_| {})
            } else {
                // Tiny batches: many of them.
                read_parallel(&sources, jobs, 64, &Count, on_event, |_| {})
            };
            assert!(stopped.is_none());
            assert_eq!(
                log,
                ["start 0", "end 0", "error 1", "end 1", "start 2", "end 2"],
                "jobs = {jobs}"
            );
            assert_eq!(games, 200, "jobs = {jobs}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_source_gives_its_complete_games_then_one_error_and_the_next_source_is_read() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("pgnkit-bulk-damaged-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = "[Event \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n".repeat(5000);
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(text.as_bytes()).unwrap();
        let gz = enc.finish().unwrap();
        let cut = &gz[..gz.len() / 2];
        let damaged = dir.join("damaged.pgn.gz");
        std::fs::write(&damaged, cut).unwrap();
        let mut decoded = Vec::new();
        let _ = flate2::read::GzDecoder::new(cut).read_to_end(&mut decoded);
        let complete = String::from_utf8_lossy(&decoded).matches('*').count();
        assert!(complete > 100 && complete < 5000, "{complete}");
        let whole = dir.join("whole.pgn");
        std::fs::write(&whole, &text).unwrap();
        let sources = Sources::new(vec![Source::File(damaged), Source::File(whole)]);
        for jobs in [1, 2] {
            let mut log = Vec::new();
            let mut games = [0usize; 2];
            let on_event = |event: Event<usize>| {
                match event {
                    Event::Start { source } => log.push(format!("start {source}")),
                    Event::Batch { source, result } => {
                        assert!(
                            !log.iter()
                                .any(|l| l.starts_with(&format!("error {source}")))
                        );
                        games[source] += result
                    }
                    Event::Error { source, error } => {
                        assert!(matches!(error, ReadError::Read { .. }), "{error}");
                        let message = error.to_string();
                        assert!(message.contains("damaged gzip data"), "{message}");
                        assert!(
                            message.contains(&format!("inside game {}", complete + 1)),
                            "{message}"
                        );
                        log.push(format!("error {source}"))
                    }
                    Event::End { source, .. } => log.push(format!("end {source}")),
                }
                ControlFlow::<()>::Continue(())
            };
            let stopped = read(&sources, jobs, 4096, &Count, on_event, |_| {});
            assert!(stopped.is_none());
            assert_eq!(
                log,
                ["start 0", "error 0", "end 0", "start 1", "end 1"],
                "jobs = {jobs}"
            );
            assert_eq!(games, [complete, 5000], "jobs = {jobs}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
