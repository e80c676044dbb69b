//! The bulk machinery every job shares: work items (batches of whole games) are processed on a rayon pool
//! while the calling thread reads ahead, takes items itself when the pool has enough queued, and emits results
//! strictly in input order. At most a fixed number of items are in flight, so memory stays bounded whatever
//! the input size.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, mpsc};
use std::thread::{self, ThreadId};

/// How many work items may be read ahead per worker thread before reading pauses.
const IN_FLIGHT_PER_THREAD: usize = 4;

/// How many items each pool thread has waiting before the calling thread takes one itself. The calling
/// thread also reads, splits and emits, so while it works on an item the pool must not run dry: with two
/// waiting per pool thread it did on a file with many warnings to render (measured in docs/performance.md,
/// "Tuning constants").
const QUEUED_PER_POOL_THREAD: usize = 3;

/// Runs `work` over every item of `items`, on `jobs` threads, handing results to `emit` in input order.
///
/// `items` is pulled on the calling thread (reading input there keeps I/O sequential), which is also one of
/// the `jobs` workers: the pool has `jobs - 1` threads. With `jobs == 1` no pool is built and everything runs
/// on the calling thread. `emit` may stop the run early with
/// `ControlFlow::Break` (e.g. a closed output pipe); the break value is returned.
pub(crate) fn run_ordered<T, R, B, I, W, E>(
    items: I,
    jobs: usize,
    work: W,
    mut emit: E,
) -> Option<B>
where
    T: Send,
    R: Send,
    I: IntoIterator<Item = T>,
    W: Fn(T) -> R + Sync,
    E: FnMut(R) -> ControlFlow<B>,
{
    if jobs <= 1 {
        for item in items {
            if let ControlFlow::Break(b) = emit(work(item)) {
                return Some(b);
            }
        }
        return None;
    }
    // The calling thread is one of the `jobs` workers: it processes an item itself whenever the pool has
    // enough queued, so `jobs` threads do the work on `jobs` cores (a pool of `jobs` threads beside a reading
    // thread kept three threads runnable on two cores).
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs - 1)
        .build()
    {
        Ok(pool) => pool,
        // A pool that cannot start (resource limits) still leaves a correct, slower path.
        Err(_) => return run_ordered(items, 1, work, emit),
    };
    let max_in_flight = jobs * IN_FLIGHT_PER_THREAD;
    let max_queued = ((jobs - 1) * QUEUED_PER_POOL_THREAD) as u64;
    // A worker's result, or the panic it ended with: the calling thread waits for results in order, so a
    // result that never came (its worker unwound) would leave it waiting forever. It raises the panic instead.
    let (tx, rx) = mpsc::channel::<(u64, thread::Result<R>)>();
    let work = &work;
    let take = |r: thread::Result<R>| r.unwrap_or_else(|payload| panic::resume_unwind(payload));
    pool.in_place_scope(|scope| {
        let mut pending: BTreeMap<u64, R> = BTreeMap::new();
        let mut next_out = 0u64;
        let mut next_in = 0u64;
        // Items handed to the pool whose results have not come back.
        let mut queued = 0u64;
        let mut stopped: Option<B> = None;
        // Emits every result that is next in order; returns false once emit asked to stop.
        let mut drain =
            |pending: &mut BTreeMap<u64, R>, next_out: &mut u64, stopped: &mut Option<B>| {
                while let Some(r) = pending.remove(next_out) {
                    *next_out += 1;
                    if stopped.is_none()
                        && let ControlFlow::Break(b) = emit(r)
                    {
                        *stopped = Some(b);
                    }
                }
            };
        for item in items {
            if stopped.is_some() {
                break;
            }
            while next_in - next_out >= max_in_flight as u64 {
                match rx.recv() {
                    Ok((seq, r)) => {
                        pending.insert(seq, take(r));
                        queued -= 1;
                    }
                    Err(_) => break,
                }
                drain(&mut pending, &mut next_out, &mut stopped);
            }
            let seq = next_in;
            next_in += 1;
            if queued >= max_queued {
                pending.insert(seq, work(item));
            } else {
                let tx = tx.clone();
                scope.spawn(move |_| {
                    let result = panic::catch_unwind(AssertUnwindSafe(|| work(item)));
                    let _ = tx.send((seq, result));
                });
                queued += 1;
            }
            while let Ok((seq, r)) = rx.try_recv() {
                pending.insert(seq, take(r));
                queued -= 1;
            }
            drain(&mut pending, &mut next_out, &mut stopped);
        }
        drop(tx);
        while next_out < next_in {
            match rx.recv() {
                Ok((seq, r)) => {
                    pending.insert(seq, take(r));
                }
                Err(_) => break,
            }
            drain(&mut pending, &mut next_out, &mut stopped);
        }
        stopped
    })
}

/// Results the ordered output side has finished with, left to be dropped by the thread that built them.
///
/// A result built on a worker and dropped on another thread frees its memory into another thread's allocator
/// arena: glibc then takes that arena's lock, which the owner is taking for its own allocations (the lock
/// waits showed in profiles as futex calls), and the owner's cache of free blocks stays empty. Dropping each
/// result on the thread that built it keeps allocation and release together (docs/performance.md, "Tuning
/// constants"). Each thread
/// empties its share as it starts an item, so at most what the output side finished since then waits here.
pub(crate) struct SpentBin<T> {
    /// With one thread everything runs on the calling thread: drop at once.
    deferred: bool,
    items: Mutex<Vec<(ThreadId, T)>>,
}

impl<T> SpentBin<T> {
    /// A bin for a run on `jobs` threads.
    pub(crate) fn new(jobs: usize) -> Self {
        SpentBin {
            deferred: jobs > 1,
            items: Mutex::new(Vec::new()),
        }
    }

    /// Leaves `item`, built on thread `maker`, to be dropped there (dropped here with one thread).
    pub(crate) fn put(&self, maker: ThreadId, item: T) {
        if !self.deferred {
            return;
        }
        if let Ok(mut items) = self.items.lock() {
            items.push((maker, item));
        }
    }

    /// Drops what the output side left of the items this thread built; called by a worker as it starts an item.
    pub(crate) fn empty(&self) {
        let me = std::thread::current().id();
        let mine: Vec<T> = match self.items.lock() {
            Ok(mut items) if items.iter().any(|(maker, _)| *maker == me) => items
                .extract_if(.., |(maker, _)| *maker == me)
                .map(|(_, item)| item)
                .collect(),
            _ => return,
        };
        // Dropped outside the lock, so the output side never waits for the frees.
        drop(mine);
    }

    /// How many items wait to be dropped.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.items.lock().map_or(0, |items| items.len())
    }

    /// Whether nothing waits to be dropped.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_out_in_input_order() {
        for jobs in [1, 2, 4] {
            let mut out = Vec::new();
            let stopped: Option<()> = run_ordered(
                0..500u64,
                jobs,
                |i| {
                    // Uneven work so completion order differs from input order.
                    let spin = (i * 7919) % 1000;
                    std::hint::black_box((0..spin).sum::<u64>());
                    i
                },
                |r| {
                    out.push(r);
                    ControlFlow::Continue(())
                },
            );
            assert!(stopped.is_none());
            assert_eq!(out, (0..500).collect::<Vec<_>>(), "jobs = {jobs}");
        }
    }

    /// A worker that unwound used to leave the calling thread waiting for its result forever: the run hung
    /// (seen with an allocation failure inside a Parquet encoder under a memory limit).
    #[test]
    fn a_panic_in_a_worker_ends_the_run_instead_of_hanging_it() {
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            let caller = std::thread::current().id();
            let outcome = panic::catch_unwind(|| {
                run_ordered(
                    0..200u32,
                    2,
                    // The first item a pool thread takes fails (the calling thread takes items too).
                    |i| {
                        assert!(std::thread::current().id() == caller, "item {i} fails");
                        i
                    },
                    |_| ControlFlow::<()>::Continue(()),
                )
            });
            let _ = done.send(outcome.is_err());
        });
        let panicked = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the run ended");
        assert!(panicked, "the worker's panic reached the caller");
    }

    #[test]
    fn spent_bin_drops_items_on_the_thread_that_built_them() {
        let bin = SpentBin::new(2);
        let item = std::sync::Arc::new(());
        let here = std::thread::current().id();
        let elsewhere = std::thread::spawn(|| std::thread::current().id())
            .join()
            .unwrap();
        bin.put(here, item.clone());
        bin.put(elsewhere, item.clone());
        bin.put(here, item.clone());
        assert_eq!(bin.len(), 3);
        assert_eq!(std::sync::Arc::strong_count(&item), 4);
        // This thread drops only its own two.
        bin.empty();
        assert_eq!(bin.len(), 1);
        assert_eq!(std::sync::Arc::strong_count(&item), 2);
        bin.empty();
        assert_eq!(bin.len(), 1);

        // With one thread nothing is kept.
        let single = SpentBin::new(1);
        single.put(here, item.clone());
        assert!(single.is_empty());
        assert_eq!(std::sync::Arc::strong_count(&item), 2);
    }

    #[test]
    fn emit_can_stop_early() {
        let mut seen = 0;
        let stopped = run_ordered(
            0..10_000u32,
            2,
            |i| i,
            |i| {
                seen += 1;
                if i == 10 {
                    ControlFlow::Break(i)
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(stopped, Some(10));
        assert_eq!(seen, 11);
    }
}
