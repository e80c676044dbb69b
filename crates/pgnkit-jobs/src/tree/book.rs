//! `--format polyglot`: the tree as a Polyglot opening book, the format engines and GUIs read: 16-byte
//! entries (key, move, weight, learn), big-endian, sorted by key.
//!
//! The weight of a move is `2 × wins + draws` of the side that played it, at least 1 (readers skip
//! weight 0, and every move of the tree is a move of the book), scaled down within its position when the
//! largest passes 65,535. Within a key, entries come by weight, heaviest first. A position reached right
//! after a double step with a pawn beside it that may not take en passant (it is pinned) has a second key,
//! the one readers compute for it then (they hash the en-passant file whatever the capture's legality):
//! its moves are written under both.
//!
//! The tree's rows come in the tree's own order, not by Polyglot key: entries are gathered up to the tree's
//! memory, sorted, and past it written as sorted runs of 16-byte entries to temporary files, then merged.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use pgnkit::core::polyglot::{self, Entry};
use pgnkit::core::{Color, Square};

use super::tally::Reached;
use super::{Row, SpillError, Tree, TreeWritten, spill_read_error, spill_write_error};
use crate::run::JobError;
use crate::stats::spill::TempFile;

/// Entries held in memory at least, whatever the limit (1 MiB): each run holds a file open at the merge.
const LEAST_ENTRIES: usize = 1 << 16;

pub(crate) fn write(
    tree: Tree,
    out: &mut dyn Write,
    dir: &Path,
    memory: usize,
) -> Result<TreeWritten, JobError> {
    let mut sorter = Sorter {
        held: Vec::new(),
        most: (memory / std::mem::size_of::<Entry>()).max(LEAST_ENTRIES),
        runs: Vec::new(),
        dir,
    };
    let mut written = TreeWritten::default();
    let mut group: Vec<Row> = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    let mut rows = tree.rows();
    loop {
        let next = rows.next().transpose()?;
        let ends_group = match (&next, group.last()) {
            (Some(row), Some(last)) => row.node != last.node,
            (None, Some(_)) => true,
            _ => false,
        };
        if ends_group {
            written.positions += 1;
            written.rows += group.len() as u64;
            position_entries(&group, &mut entries);
            for e in entries.drain(..) {
                sorter.push(e)?;
            }
            group.clear();
        }
        match next {
            Some(row) => group.push(row),
            None => break,
        }
    }
    sorter.finish(out)?;
    Ok(written)
}

/// The entries of one position's rows, under its own key and under the second keys it was reached by.
fn position_entries(group: &[Row], entries: &mut Vec<Entry>) {
    let Some(first) = group.first() else {
        return;
    };
    let weights = weights(group);
    let reached = Reached(group.iter().fold(0, |all, row| all | row.tally.reached.0));
    let mut keys = Vec::with_capacity(2);
    if reached.plain() {
        keys.push(polyglot::key(&first.position, first.position.ep_square()));
    }
    for file in reached.passed_files() {
        keys.push(polyglot::key(
            &first.position,
            Some(passed_square(file, first.mover())),
        ));
    }
    for key in keys {
        for (row, &weight) in group.iter().zip(&weights) {
            entries.push(entry(key, row.code, weight));
        }
    }
}

/// Entries sorted in bounded memory: sorted runs written to temporary files past `most`, merged at the end.
struct Sorter<'d> {
    held: Vec<Entry>,
    most: usize,
    runs: Vec<(BufReader<TempFile>, u64)>,
    dir: &'d Path,
}

impl Sorter<'_> {
    fn failed(&self, error: std::io::Error) -> SpillError {
        spill_write_error(self.dir, error)
    }

    fn push(&mut self, e: Entry) -> Result<(), SpillError> {
        if self.held.len() == self.most {
            self.spill()?;
        }
        self.held.push(e);
        Ok(())
    }

    fn spill(&mut self) -> Result<(), SpillError> {
        self.held.sort_by(by_key_then_weight);
        let file = TempFile::create(self.dir).map_err(|e| self.failed(e))?;
        let mut w = BufWriter::new(file);
        for e in &self.held {
            w.write_all(&e.to_bytes()).map_err(|e| self.failed(e))?;
        }
        let mut file = w.into_inner().map_err(|e| self.failed(e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(|e| self.failed(e))?;
        self.runs
            .push((BufReader::new(file), self.held.len() as u64));
        self.held.clear();
        Ok(())
    }

    /// Writes every entry, in order.
    fn finish(mut self, out: &mut dyn Write) -> Result<(), JobError> {
        self.held.sort_by(by_key_then_weight);
        let mut out = BufWriter::new(out);
        if self.runs.is_empty() {
            for e in &self.held {
                out.write_all(&e.to_bytes())?;
            }
            out.flush()?;
            return Ok(());
        }
        // Runs and what is held, merged: (entry as sortable bytes, source).
        let mut heap = BinaryHeap::new();
        let mut held = std::mem::take(&mut self.held).into_iter();
        let mut next_of = |source: usize,
                           runs: &mut Vec<(BufReader<TempFile>, u64)>|
         -> Result<Option<Entry>, SpillError> {
            match runs.get_mut(source) {
                Some((reader, left)) => {
                    if *left == 0 {
                        return Ok(None);
                    }
                    *left -= 1;
                    let mut bytes = [0u8; 16];
                    reader.read_exact(&mut bytes).map_err(spill_read_error)?;
                    Ok(Some(Entry::from_bytes(&bytes)))
                }
                None => Ok(held.next()),
            }
        };
        let sources = self.runs.len() + 1;
        for source in 0..sources {
            if let Some(e) = next_of(source, &mut self.runs)? {
                heap.push(Reverse((Order(e), source)));
            }
        }
        while let Some(Reverse((Order(e), source))) = heap.pop() {
            out.write_all(&e.to_bytes())?;
            if let Some(next) = next_of(source, &mut self.runs)? {
                heap.push(Reverse((Order(next), source)));
            }
        }
        out.flush()?;
        Ok(())
    }
}

/// An entry ordered as the book is.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Order(Entry);

impl Ord for Order {
    fn cmp(&self, other: &Order) -> std::cmp::Ordering {
        by_key_then_weight(&self.0, &other.0)
    }
}

impl PartialOrd for Order {
    fn partial_cmp(&self, other: &Order) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

fn by_key_then_weight(a: &Entry, b: &Entry) -> std::cmp::Ordering {
    a.key
        .cmp(&b.key)
        .then(b.weight.cmp(&a.weight))
        .then(a.mv.cmp(&b.mv))
}

fn entry(key: u64, mv: u16, weight: u16) -> Entry {
    Entry {
        key,
        mv,
        weight,
        learn: 0,
    }
}

/// The square a pawn passed on `file`, seen from the side to move (which would take on it).
fn passed_square(file: usize, mover: Color) -> Square {
    let rank = match mover {
        Color::White => 5,
        Color::Black => 2,
    };
    Square::new((rank * 8 + file) as u8)
}

/// The weights of a position's moves: `2 × wins + draws` of the mover, at least 1, scaled to fit 16 bits.
fn weights(group: &[Row]) -> Vec<u16> {
    let raw: Vec<u64> = group
        .iter()
        .map(|row| {
            let (wins, draws, _) = row.tally.mover_results(row.mover());
            2 * wins + draws
        })
        .collect();
    scaled(&raw)
}

/// Weights made of raw scores: at least 1 (readers skip 0), all scaled down in proportion when the largest
/// passes 65,535.
fn scaled(raw: &[u64]) -> Vec<u16> {
    let most = raw.iter().copied().max().unwrap_or(1).max(1);
    raw.iter()
        .map(|&w| {
            let w = if most > u64::from(u16::MAX) {
                (u128::from(w) * u128::from(u16::MAX) / u128::from(most)) as u64
            } else {
                w
            };
            w.clamp(1, u64::from(u16::MAX)) as u16
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_fit_sixteen_bits_and_never_reach_zero() {
        assert_eq!(scaled(&[0, 1, 10]), vec![1, 1, 10]);
        assert_eq!(scaled(&[131_070, 2, 65_535]), vec![65_535, 1, 32_767]);
        assert_eq!(scaled(&[u64::MAX, 0]), vec![65_535, 1]);
    }

    #[test]
    fn entries_past_the_memory_come_back_sorted_from_runs() {
        let dir = std::env::temp_dir().join(format!("pgnkit-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut sorter = Sorter {
            held: Vec::new(),
            most: 1000,
            runs: Vec::new(),
            dir: &dir,
        };
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        let mut all = Vec::new();
        for i in 0..5000u32 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let e = entry(seed % 700, (i % 7) as u16, (seed >> 40) as u16);
            all.push(e);
            sorter.push(e).unwrap();
        }
        assert_eq!(sorter.runs.len(), 4, "runs of 1,000 entries, the last held");
        let mut out = Vec::new();
        sorter.finish(&mut out).unwrap();
        all.sort_by(by_key_then_weight);
        let back: Vec<Entry> = out
            .chunks(16)
            .map(|c| Entry::from_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(back, all);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
