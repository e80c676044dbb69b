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
//! The tree's rows come by the position's own key, so those entries are written in order as they come, to
//! a temporary file; the few under a second key are kept aside, sorted, and merged in at the end.

use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use pgnkit::core::polyglot::{self, Entry};
use pgnkit::core::{Color, Square};

use super::tally::Reached;
use super::{Row, SpillError, SpillStep, Tree, TreeWritten};
use crate::run::JobError;
use crate::stats::spill::TempFile;

pub(crate) fn write(
    tree: Tree,
    out: &mut dyn Write,
    dir: &std::path::Path,
) -> Result<TreeWritten, JobError> {
    let failed = |error: std::io::Error| SpillError {
        step: SpillStep::Write,
        dir: dir.to_path_buf(),
        error,
    };
    let mut main = BufWriter::new(TempFile::create(dir).map_err(failed)?);
    let mut main_entries = 0u64;
    let mut aside: Vec<Entry> = Vec::new();
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
            position_entries(&group, &mut entries, &mut aside);
            entries.sort_by(by_key_then_weight);
            for e in &entries {
                main.write_all(&e.to_bytes()).map_err(failed)?;
            }
            main_entries += entries.len() as u64;
            entries.clear();
            group.clear();
        }
        match next {
            Some(row) => group.push(row),
            None => break,
        }
    }
    let mut file = main.into_inner().map_err(|e| failed(e.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(failed)?;
    aside.sort_by(by_key_then_weight);
    merge(BufReader::new(file), main_entries, aside, out)?;
    Ok(written)
}

/// The entries of one position's rows: under its own key in `entries`, under second keys in `aside`.
fn position_entries(group: &[Row], entries: &mut Vec<Entry>, aside: &mut Vec<Entry>) {
    let Some(first) = group.first() else {
        return;
    };
    let weights = weights(group);
    let reached = Reached(group.iter().fold(0, |all, row| all | row.tally.reached.0));
    if reached.plain() {
        for (row, &weight) in group.iter().zip(&weights) {
            entries.push(entry(first.node.polyglot, row.code, weight));
        }
    }
    for file in reached.passed_files() {
        let key = polyglot::key(&first.position, Some(passed_square(file, first.mover())));
        for (row, &weight) in group.iter().zip(&weights) {
            aside.push(entry(key, row.code, weight));
        }
    }
}

fn by_key_then_weight(a: &Entry, b: &Entry) -> std::cmp::Ordering {
    a.key
        .cmp(&b.key)
        .then(b.weight.cmp(&a.weight))
        .then(a.mv.cmp(&b.mv))
}

/// Writes the sorted entries of `main` (`count` of them) and `aside` in one order.
fn merge(
    mut main: impl Read,
    count: u64,
    aside: Vec<Entry>,
    out: &mut dyn Write,
) -> Result<(), JobError> {
    let mut out = BufWriter::new(out);
    let mut aside = aside.into_iter().peekable();
    for _ in 0..count {
        let mut bytes = [0u8; 16];
        main.read_exact(&mut bytes).map_err(SpillError::reading)?;
        let e = Entry::from_bytes(&bytes);
        while let Some(before) = aside.next_if(|a| by_key_then_weight(a, &e).is_lt()) {
            out.write_all(&before.to_bytes())?;
        }
        out.write_all(&bytes)?;
    }
    for e in aside {
        out.write_all(&e.to_bytes())?;
    }
    out.flush()?;
    Ok(())
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
            (2 * wins + draws).max(1)
        })
        .collect();
    let most = raw.iter().copied().max().unwrap_or(1);
    raw.iter()
        .map(|&w| {
            let scaled = if most > u64::from(u16::MAX) {
                (u128::from(w) * u128::from(u16::MAX) / u128::from(most)) as u64
            } else {
                w
            };
            scaled.clamp(1, u64::from(u16::MAX)) as u16
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_fit_sixteen_bits_and_never_reach_zero() {
        let w = |raw: &[u64]| {
            let most = raw.iter().copied().max().unwrap();
            raw.iter()
                .map(|&w| {
                    let s = if most > 65_535 { w * 65_535 / most } else { w };
                    s.clamp(1, 65_535)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(w(&[1, 10]), vec![1, 10]);
        assert_eq!(w(&[131_070, 2, 65_535]), vec![65_535, 1, 32_767]);
    }

    #[test]
    fn entries_aside_are_merged_in_key_order() {
        let main: Vec<Entry> = [3u64, 5, 9].iter().map(|&k| entry(k, 1, 1)).collect();
        let bytes: Vec<u8> = main.iter().flat_map(|e| e.to_bytes()).collect();
        let aside = vec![entry(1, 2, 1), entry(5, 2, 7), entry(12, 2, 1)];
        let mut out = Vec::new();
        merge(bytes.as_slice(), 3, aside, &mut out).unwrap();
        let keys: Vec<(u64, u16)> = out
            .chunks(16)
            .map(|c| {
                let e = Entry::from_bytes(c.try_into().unwrap());
                (e.key, e.weight)
            })
            .collect();
        assert_eq!(keys, vec![(1, 1), (3, 1), (5, 7), (5, 1), (9, 1), (12, 1)]);
    }
}
