//! One run of a job over many games, the same for every front-end (the command, the Python package): the
//! sources are read in batches of whole games, a [`Job`] does the per-game work of each batch on the worker
//! threads, then, on the calling thread and in input order, its merge step (what crosses games: the
//! tournament checks, the duplicates already seen), and a [`Sink`] receives each merged batch, framed by the
//! start and end of each source, and the sources' read errors.
//!
//! How the inputs are read (files, directories, decompression), cut into batches and put back in order, and
//! the sizes that tune it, are the run's own: a front-end names sources, a thread count, a job and a sink.
//! A batch holds one input's games, unless the job's inputs are parts of one stream ([`JoinedInputs`]):
//! small texts held in memory then share batches, so that what a batch makes spans them.

mod error;
pub(crate) mod input;
pub(crate) mod pipeline;
pub(crate) mod reading;
mod table;

use std::num::NonZeroUsize;
use std::ops::{ControlFlow, Range};
use std::path::PathBuf;
use std::sync::Arc;

use pgnkit::pgn::GameReader;

use crate::messages::Explain;
use crate::options::InputFormat;
use error::Capped;
pub use error::{JobError, ReadError};
pub(crate) use input::first_table_columns;
pub use input::{InputError, Skipped, Source};
use reading::{Event, Texts};
pub use table::TableError;
pub(crate) use table::{TableColumn, TableKind};

/// The inputs of a run, in order, each with the name it is shown by, and what a directory search left out.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    list: Vec<Source>,
    names: Vec<Arc<str>>,
    skipped: Vec<Skipped>,
    format: InputFormat,
}

impl Sources {
    /// The sources named by `paths` as the command reads them: `-` is standard input, a directory yields its
    /// PGN files (recursively, in order of name bytes), a file is read whatever its name and kind. See
    /// [`Sources::skipped`] for what a directory search leaves out.
    pub fn expand(paths: &[PathBuf]) -> Result<Sources, InputError> {
        let found = input::expand(paths)?;
        let mut sources = Sources::new(found.sources);
        sources.skipped = found.skipped;
        Ok(sources)
    }

    /// These sources, read in this order.
    pub fn new(list: Vec<Source>) -> Sources {
        let names = list
            .iter()
            .map(|source| match source {
                Source::Text { name, .. } => Arc::from(name.as_str()),
                _ => Arc::from(source.display_name()),
            })
            .collect();
        Sources {
            list,
            names,
            skipped: Vec::new(),
            format: InputFormat::Auto,
        }
    }

    /// These sources, read as `format` says (by default, each as its first bytes tell).
    pub fn with_format(mut self, format: InputFormat) -> Sources {
        self.format = format;
        self
    }

    /// How the sources are read.
    pub(crate) fn format(&self) -> InputFormat {
        self.format
    }

    /// The sources, in the order they are read.
    pub fn list(&self) -> &[Source] {
        &self.list
    }

    /// Entries a directory search found and does not read, with the reason (to be said to the user).
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// The `index`th source (see [`Input`]).
    pub(crate) fn input(&self, index: usize) -> Input<'_> {
        Input {
            index,
            source: &self.list[index],
            name: &self.names[index],
        }
    }
}

impl std::ops::Deref for Sources {
    type Target = [Source];
    fn deref(&self) -> &[Source] {
        &self.list
    }
}

/// One source of a run, as the job and the sink see it.
#[derive(Clone, Copy, Debug)]
pub struct Input<'r> {
    /// Its place among the run's sources.
    pub index: usize,
    pub source: &'r Source,
    /// Its name in diagnostics and records (`-` for standard input).
    pub name: &'r Arc<str>,
}

/// How many threads a run works on, the calling thread included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads(NonZeroUsize);

/// How many worker threads a run may have per core. More only adds contention and memory (4 batches in
/// flight per thread; the thread counts tried: docs/performance.md, "Tuning constants").
const THREADS_PER_CORE: usize = 1;

impl Threads {
    /// One thread per core, as counted by `available_parallelism` (which follows CPU affinity and cgroup
    /// quotas).
    pub(crate) fn cores() -> Threads {
        Threads(std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN))
    }

    /// As many as asked up to the cap (one per core); none or 0, all cores. A request over the cap is
    /// capped, and the second value explains it (to be said to the user).
    pub fn asked(jobs: Option<usize>) -> (Threads, Option<impl Explain>) {
        let cores = Threads::cores().get();
        let most = cores * THREADS_PER_CORE;
        match jobs.and_then(NonZeroUsize::new) {
            None => (Threads::cores(), None),
            Some(n) if n.get() > most => (
                Threads(NonZeroUsize::new(most).unwrap_or(NonZeroUsize::MIN)),
                Some(Capped {
                    asked: n.get(),
                    most,
                }),
            ),
            Some(n) => (Threads(n), None),
        }
    }

    /// The number of threads.
    pub(crate) fn get(self) -> usize {
        self.0.get()
    }
}

/// The work of a run, in two steps: [`Job::work`] on a batch of games, on any worker thread, then
/// [`Job::merge`] on the calling thread, batch after batch in input order, with what crosses games and
/// inputs ([`Job::State`]). The sink then receives the merged batch.
pub trait Job: Sync {
    /// What a worker makes of one batch of games.
    type Batch: Send;
    /// What the merge step keeps across batches and inputs (`()` when nothing crosses games); handed back
    /// when the run ends.
    type State;

    /// The state a run starts with.
    fn initial_state(&self) -> Self::State;

    /// Bytes of whole games per batch when several threads work.
    fn batch_bytes(&self) -> usize {
        reading::BATCH_SIZE
    }

    /// The per-game work of one batch of `input`'s games, on a worker thread. An error ends the run once
    /// the batches before this one have been merged and written.
    fn work(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Result<Self::Batch, JobError>;

    /// What crosses games, on the calling thread in input order, before the sink sees the batch.
    fn merge(&self, _state: &mut Self::State, _input: Input<'_>, _batch: &mut Self::Batch) {}

    /// An input is about to be read (after it opened).
    fn begin_input(&self, _state: &mut Self::State, _input: Input<'_>) {}

    /// The sink is done with `batch`: what it holds may be reused or freed where it is cheapest.
    fn recycle(&self, _batch: Self::Batch) {}

    /// The work of a batch holding several inputs' games, for a job whose inputs are parts of one stream;
    /// `None` (the default): a batch holds one input's games.
    fn joined_inputs(&self) -> Option<&dyn JoinedInputs<Batch = Self::Batch>> {
        None
    }
}

/// A job whose inputs are parts of one stream: consecutive small texts held in memory (a column of one-game
/// texts, as Spark hands them) are taken several to a batch, cut by size across them, so that what a batch
/// makes spans them: one Arrow record batch for thousands of texts, where a batch each would cost more than
/// the games. Each game stays in its own input: [`Parts`] gives each text with its name and its games,
/// numbered and located from the start of the text as a file's are. A file, standard input, or a text too
/// large for one batch is read alone in batches of its own, through [`Job::work`].
///
/// The merge step and the sink see such a batch within the frame of the last text it holds: the texts before
/// it start and end first, with no batch of their own.
pub trait JoinedInputs: Sync {
    /// The job's batch.
    type Batch;

    /// The per-game work of the texts of `parts`, as one batch, on a worker thread.
    fn work_parts(&self, parts: Parts<'_>) -> Result<Self::Batch, JobError>;
}

/// Consecutive small texts of a run, read by one worker, one after the other ([`JoinedInputs`]): each text
/// with a reader over its games.
pub struct Parts<'r> {
    sources: &'r Sources,
    texts: Range<usize>,
}

impl<'r> Iterator for Parts<'r> {
    type Item = (Input<'r>, GameReader<'r>);

    fn next(&mut self) -> Option<Self::Item> {
        let input = self.sources.input(self.texts.next()?);
        // Only texts are taken together.
        let text: &'r [u8] = match input.source {
            Source::Text { text, .. } => text,
            _ => &[],
        };
        Some((input, GameReader::new(text)))
    }
}

/// A job's work, as the workers do it.
struct JobWork<'j, J>(&'j J);

impl<J: Job> reading::Work for JobWork<'_, J> {
    type Out = Result<J::Batch, JobError>;

    fn batch(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Self::Out {
        self.0.work(input, games)
    }

    fn texts(&self, parts: Parts<'_>) -> Texts<Self::Out> {
        match self.0.joined_inputs() {
            Some(joined) => Texts::Joined(joined.work_parts(parts)),
            None => parts.each(|input, games| self.0.work(input, games)),
        }
    }
}

/// Where a run's results go, in input order: each input's start and end, its merged batches, its read
/// errors. A method that fails ends the run with its error.
pub trait Sink<J: Job + ?Sized> {
    /// An input opened and is about to be read.
    fn start(&mut self, _input: Input<'_>, _state: &J::State) -> Result<(), JobError> {
        Ok(())
    }

    /// A merged batch of `input`'s games.
    fn batch(
        &mut self,
        input: Input<'_>,
        batch: &mut J::Batch,
        state: &J::State,
    ) -> Result<(), JobError>;

    /// An input could not be opened or read, or held a game over the size limit. Every complete game read
    /// before the error has been delivered; after a read error nothing more of the input comes, after a game
    /// over the limit the input goes on (that game was skipped). The run goes on to the next input unless
    /// this returns an error.
    fn read_error(&mut self, input: Input<'_>, error: ReadError) -> Result<(), JobError>;

    /// An input is finished (whether it opened or not); `bytes` of text were read from it, decompressed.
    fn end(&mut self, _input: Input<'_>, _bytes: u64, _state: &J::State) -> Result<(), JobError> {
        Ok(())
    }

    /// The raw (on-disk) bytes read so far, now and then, for a progress bar.
    fn progress(&mut self, _raw_bytes: u64) {}
}

/// What a run counts whatever the job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunTotals {
    /// Bytes of text read (decompressed), whatever became of them.
    pub bytes: u64,
    /// Read errors the sink was told of (inputs that could not be opened or read, games over the limit).
    pub read_errors: u64,
}

/// A run that went to its end: its totals and the job's merged state.
#[derive(Debug)]
pub struct Finished<S> {
    pub totals: RunTotals,
    pub state: S,
}

/// Runs `job` over every game of `sources` on `threads`, handing the merged batches to `sink` in input
/// order. Ends early with the first error the sink returns.
///
/// With one thread, blocks are parsed where they are read (no split, no copy); with more, the calling thread
/// reads and cuts batches of whole games that the pool (and the calling thread, when the pool has enough
/// waiting) works on, at most a few per thread in flight, so memory stays bounded whatever the input.
pub fn run<J: Job, S: Sink<J>>(
    sources: &Sources,
    threads: Threads,
    job: &J,
    sink: &mut S,
) -> Result<Finished<J::State>, JobError> {
    let mut state = job.initial_state();
    let mut totals = RunTotals::default();
    // The sink is borrowed by the ordered side and by the progress calls, both on the calling thread and
    // never at once.
    let sink = std::cell::RefCell::new(sink);
    let stopped = reading::read(
        sources,
        threads.get(),
        job.batch_bytes(),
        &JobWork(job),
        |event| {
            let mut sink = sink.borrow_mut();
            let step = match event {
                Event::Start { source } => {
                    let input = sources.input(source);
                    job.begin_input(&mut state, input);
                    sink.start(input, &state)
                }
                Event::Batch { source, result } => result.and_then(|mut batch| {
                    let input = sources.input(source);
                    job.merge(&mut state, input, &mut batch);
                    let written = sink.batch(input, &mut batch, &state);
                    job.recycle(batch);
                    written
                }),
                Event::Error { source, error } => {
                    totals.read_errors += 1;
                    sink.read_error(sources.input(source), error)
                }
                Event::End { source, bytes } => {
                    totals.bytes += bytes;
                    sink.end(sources.input(source), bytes, &state)
                }
            };
            match step {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => ControlFlow::Break(e),
            }
        },
        |bytes| sink.borrow_mut().progress(bytes),
    );
    match stopped {
        Some(e) => Err(e),
        None => Ok(Finished { totals, state }),
    }
}

#[cfg(test)]
mod tests;
