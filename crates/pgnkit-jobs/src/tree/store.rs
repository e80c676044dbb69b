//! The tree's counts while games come in, in bounded memory: (position, move) tallies in one vector, found
//! through a hash table of their indices; when the vector's next growth would pass the limit, it is sorted
//! where it lies and written to a temporary file as a *run*; at the end the runs and what the vector still
//! holds are merged in key order, tallies of one key added up. A tree smaller than the limit never touches
//! the disk.
//!
//! Runs are written compactly (the 54-byte key, then the counters as LEB128 numbers: most tallies of a deep
//! tree are of one game, a few bytes each) to files without a name ([`TempFile`]), so nothing is left behind.
//! At most [`MOST_RUNS_MERGED`] are merged at once: past that, runs are first merged into longer ones.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hasher;

use hashbrown::HashTable;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use super::node::{NODE_BYTES, Node};
use super::tally::Tally;
use super::{SpillError, spill_read_error, spill_write_error};
use crate::stats::spill::TempFile;

/// A position and a move from it (its [`pgnkit::core::polyglot::encode_move`] code).
pub(crate) type Key = (Node, u16);

/// Runs merged at once: each holds a buffer and a file open.
pub(crate) const MOST_RUNS_MERGED: usize = 64;

/// Bytes of one (key, tally) as memory holds it.
const ENTRY_BYTES: usize = std::mem::size_of::<(Key, Tally)>();

/// Bytes of the read and write buffer of each run.
const RUN_BUFFER: usize = 64 << 10;

/// The tallies of a run so far ([`Store::add`]), past `limit` bytes spilled into `dir`.
pub(crate) struct Store {
    entries: Vec<(Key, Tally)>,
    /// Indices into `entries`, by key.
    index: HashTable<u32>,
    limit: usize,
    dir: PathBuf,
    runs: Vec<Run>,
}

/// Keys hash by their position's hash (already uniform) mixed with the rest (the workers' maps).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }
}

/// The hash of a key in the store's table: the position's hash is uniform already; the move is mixed in.
fn hash_of(key: &Key) -> u64 {
    let mixed = key.0.hash ^ u64::from(key.1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    mixed ^ (mixed >> 31)
}

impl Store {
    /// A store holding at most about `limit` bytes of tallies in memory, spilling into `dir`. One batch's
    /// tallies are always taken in.
    pub(crate) fn new(limit: usize, dir: PathBuf) -> Store {
        Store {
            entries: Vec::new(),
            index: HashTable::new(),
            limit,
            dir,
            runs: Vec::new(),
        }
    }

    /// Adds a batch's tallies.
    pub(crate) fn add(
        &mut self,
        entries: impl ExactSizeIterator<Item = (Key, Tally)>,
    ) -> Result<(), SpillError> {
        let wanted = self.entries.len() + entries.len();
        if wanted > self.entries.capacity() {
            // The vector must grow: to double its size, or as far as the limit allows, or, when the batch's
            // tallies do not fit even so, after a run is written (a spill sorts the vector where it lies:
            // nothing more is held). One batch is always taken in.
            let most = self.most_entries();
            if wanted > most && !self.entries.is_empty() {
                self.spill()?;
            }
            let wanted = self.entries.len() + entries.len();
            if wanted > self.entries.capacity() {
                let target = wanted.max((2 * self.entries.capacity()).min(most));
                self.entries.reserve_exact(target - self.entries.len());
            }
        }
        let Store {
            entries: held,
            index,
            ..
        } = self;
        for (key, tally) in entries {
            let hash = hash_of(&key);
            match index.find(hash, |&i| held[i as usize].0 == key) {
                Some(&i) => held[i as usize].1.merge(&tally),
                None => {
                    index.insert_unique(hash, held.len() as u32, |&i| hash_of(&held[i as usize].0));
                    held.push((key, tally));
                }
            }
        }
        Ok(())
    }

    /// The most entries the limit holds with their table: a table at most 7/8 full, in a power of two, has
    /// fewer than 16/7 buckets an entry, of 5 bytes each (an index and a control byte). Never more than the
    /// indices count.
    fn most_entries(&self) -> usize {
        let per_entry = ENTRY_BYTES + 12;
        (self.limit / per_entry).min(u32::MAX as usize)
    }

    /// How many runs were written so far.
    pub(crate) fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Writes what the store holds as a sorted run and empties it.
    fn spill(&mut self) -> Result<(), SpillError> {
        self.sort();
        let run = Run::write(&self.dir, self.entries.drain(..))?;
        self.index.clear();
        self.runs.push(run);
        if self.runs.len() > MOST_RUNS_MERGED {
            self.merge_runs()?;
        }
        Ok(())
    }

    /// Sorts the entries by key where they lie (the table's indices are then wrong: it is cleared).
    fn sort(&mut self) {
        self.index.clear();
        self.entries.sort_unstable_by_key(|e| e.0);
    }

    /// Merges the runs into one, so that the final merge holds few files open.
    fn merge_runs(&mut self) -> Result<(), SpillError> {
        let runs = std::mem::take(&mut self.runs);
        let sources = runs.into_iter().map(Source::Run).collect();
        let merged = Merged::new(sources);
        let run = Run::write_results(&self.dir, merged)?;
        self.runs.push(run);
        Ok(())
    }

    /// Every tally, by key, those of one key added up.
    pub(crate) fn finish(mut self) -> Merged {
        self.sort();
        let in_memory = std::mem::take(&mut self.entries);
        if self.runs.is_empty() {
            // Keys are unique in memory: no merge.
            return Merged {
                single: Some(in_memory.into_iter()),
                ..Merged::new(Vec::new())
            };
        }
        let mut sources: Vec<Source> = self.runs.drain(..).map(Source::Run).collect();
        sources.push(Source::Memory(in_memory.into_iter()));
        Merged::new(sources)
    }
}

/// A sorted run in a temporary file.
pub(crate) struct Run {
    reader: BufReader<TempFile>,
    left: u64,
}

impl Run {
    /// Writes sorted entries to a new temporary file in `dir`.
    fn write(
        dir: &std::path::Path,
        entries: impl Iterator<Item = (Key, Tally)>,
    ) -> Result<Run, SpillError> {
        Run::write_results(dir, entries.map(Ok))
    }

    /// Writes sorted entries, stopping at the first that could not be read.
    fn write_results(
        dir: &std::path::Path,
        entries: impl Iterator<Item = Result<(Key, Tally), SpillError>>,
    ) -> Result<Run, SpillError> {
        let failed = |error: io::Error| spill_write_error(dir, error);
        let file = TempFile::create(dir).map_err(failed)?;
        let mut out = BufWriter::with_capacity(RUN_BUFFER, file);
        let mut bytes = Vec::with_capacity(256);
        let mut left = 0u64;
        for entry in entries {
            let ((node, mv), tally) = entry?;
            bytes.clear();
            node.write(&mut bytes);
            bytes.extend_from_slice(&mv.to_le_bytes());
            for n in tally.counters() {
                put_varint(&mut bytes, n);
            }
            out.write_all(&bytes).map_err(failed)?;
            left += 1;
        }
        let mut file = out.into_inner().map_err(|e| failed(e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(failed)?;
        Ok(Run {
            reader: BufReader::with_capacity(RUN_BUFFER, file),
            left,
        })
    }

    fn next_entry(&mut self) -> Option<Result<(Key, Tally), SpillError>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        Some(self.read_entry().map_err(spill_read_error))
    }

    fn read_entry(&mut self) -> io::Result<(Key, Tally)> {
        let mut node = [0u8; NODE_BYTES];
        self.reader.read_exact(&mut node)?;
        let mut mv = [0u8; 2];
        self.reader.read_exact(&mut mv)?;
        let mut counters = [0u64; 14];
        for c in &mut counters {
            *c = get_varint(&mut self.reader)?;
        }
        Ok((
            (Node::read(&node), u16::from_le_bytes(mv)),
            Tally::from_counters(counters),
        ))
    }
}

fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn get_varint(input: &mut impl Read) -> io::Result<u64> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let mut byte = [0u8];
        input.read_exact(&mut byte)?;
        n |= u64::from(byte[0] & 0x7F) << shift;
        if byte[0] & 0x80 == 0 {
            return Ok(n);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        "a number of the temporary file runs on past 64 bits",
    ))
}

/// Where merged entries come from.
enum Source {
    Run(Run),
    Memory(std::vec::IntoIter<(Key, Tally)>),
}

impl Source {
    fn next_entry(&mut self) -> Option<Result<(Key, Tally), SpillError>> {
        match self {
            Source::Run(run) => run.next_entry(),
            Source::Memory(entries) => entries.next().map(Ok),
        }
    }
}

/// Sorted sources merged: each key once, with its tallies added up.
pub(crate) struct Merged {
    /// The only source, when nothing was spilled: its keys are unique and sorted, so they come as they are.
    single: Option<std::vec::IntoIter<(Key, Tally)>>,
    sources: Vec<Source>,
    /// The next entry of each source, smallest key first: (key, source), the tally in `heads`.
    heap: BinaryHeap<Reverse<(Key, usize)>>,
    heads: Vec<Tally>,
    failed: Option<SpillError>,
}

impl Merged {
    fn new(mut sources: Vec<Source>) -> Merged {
        let mut heap = BinaryHeap::with_capacity(sources.len());
        let mut heads = vec![Tally::default(); sources.len()];
        let mut failed = None;
        for (i, source) in sources.iter_mut().enumerate() {
            match source.next_entry() {
                Some(Ok((key, tally))) => {
                    heads[i] = tally;
                    heap.push(Reverse((key, i)));
                }
                Some(Err(e)) => failed = failed.or(Some(e)),
                None => {}
            }
        }
        Merged {
            single: None,
            sources,
            heap,
            heads,
            failed,
        }
    }

    /// Takes the head of source `i` and puts its next entry in its place.
    fn advance(&mut self, i: usize) -> Result<Tally, SpillError> {
        let tally = self.heads[i];
        match self.sources[i].next_entry() {
            Some(Ok((key, next))) => {
                self.heads[i] = next;
                self.heap.push(Reverse((key, i)));
            }
            Some(Err(e)) => return Err(e),
            None => {}
        }
        Ok(tally)
    }
}

impl Iterator for Merged {
    type Item = Result<(Key, Tally), SpillError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(entries) = &mut self.single {
            return entries.next().map(Ok);
        }
        if let Some(e) = self.failed.take() {
            self.heap.clear();
            return Some(Err(e));
        }
        let Reverse((key, i)) = self.heap.pop()?;
        let mut tally = match self.advance(i) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        while let Some(Reverse((next, _))) = self.heap.peek() {
            if *next != key {
                break;
            }
            let Some(Reverse((_, j))) = self.heap.pop() else {
                break;
            };
            match self.advance(j) {
                Ok(t) => tally.merge(&t),
                Err(e) => return Some(Err(e)),
            }
        }
        Some(Ok((key, tally)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::tally::{GameFacts, Reached};
    use pgnkit::core::{Color, Position, polyglot};

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-tree-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Entries for the positions of a few random walks: many keys, some met again and again.
    fn batches() -> Vec<Vec<(Key, Tally)>> {
        let facts = [
            GameFacts::read(Some("1-0"), Some("2000"), Some("1900"), Some("2024.01.02")),
            GameFacts::read(Some("0-1"), None, Some("2100"), Some("2023.05.06")),
            GameFacts::read(Some("1/2-1/2"), Some("1500"), None, None),
        ];
        let mut seed = 0x1234_5678_u64;
        let mut batches = Vec::new();
        for b in 0..30 {
            let mut batch = Vec::new();
            for g in 0..20 {
                let mut pos = Position::new();
                for _ in 0..12 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Few choices near the start: the same keys come back.
                    let m = moves.as_slice()[(seed % moves.len().min(3) as u64) as usize];
                    let mut tally = Tally::default();
                    tally.add(&facts[(b + g) % 3], pos.turn(), Reached::PLAIN);
                    batch.push(((Node::of(&pos), polyglot::encode_move(&m)), tally));
                    pos.play_unchecked(m);
                }
            }
            batches.push(batch);
        }
        batches
    }

    fn all(limit: usize, dir: &std::path::Path) -> (Vec<(Key, Tally)>, usize) {
        let mut store = Store::new(limit, dir.to_path_buf());
        for batch in batches() {
            store.add(batch.into_iter()).unwrap();
        }
        let runs = store.runs();
        (store.finish().collect::<Result<_, _>>().unwrap(), runs)
    }

    #[test]
    fn a_store_spilling_runs_gives_what_one_in_memory_gives() {
        let dir = temp_dir("runs");
        let (expected, runs) = all(usize::MAX, &dir);
        assert_eq!(runs, 0);
        assert!(
            expected.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, each key once"
        );
        let games: u64 = expected.iter().map(|(_, t)| t.games).sum();
        assert_eq!(games, 30 * 20 * 12);
        for limit in [1, 40_000, 200_000] {
            let (got, runs) = all(limit, &dir);
            assert!(runs > 0, "{limit}");
            assert_eq!(got, expected, "{limit}");
        }
        // A limit this low writes a run per batch: more than are merged at once.
        assert!(all(1, &dir).1 <= MOST_RUNS_MERGED + 1);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no file left");
    }

    #[test]
    fn numbers_are_written_in_as_few_bytes_as_they_need() {
        for n in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut bytes = Vec::new();
            put_varint(&mut bytes, n);
            assert_eq!(get_varint(&mut bytes.as_slice()).unwrap(), n);
        }
        let mut bytes = Vec::new();
        put_varint(&mut bytes, 127);
        assert_eq!(bytes.len(), 1);
        assert!(get_varint(&mut [0xFFu8; 11].as_slice()).is_err());
        let _ = Color::White;
    }

    #[test]
    fn a_directory_that_cannot_hold_a_run_is_an_error() {
        let mut store = Store::new(1, PathBuf::from("/nonexistent/pgnkit-tree"));
        let mut result = Ok(());
        for batch in batches().into_iter().take(3) {
            result = result.and(store.add(batch.into_iter()));
        }
        let e = result.unwrap_err();
        assert_eq!(e.step, crate::tree::SpillStep::Write);
    }
}
