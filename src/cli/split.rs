//! `select --split`: the chosen games written into one file per group, in a directory of their own.
//!
//! The directory must be new or empty, so a split never overwrites anything; files are created as their first
//! game comes and appended to after that. Group names become file names made safe (any character other than
//! a letter, a digit, `.`, `-` or `_` becomes `_`; two groups that would share a name get `-2`, `-3`...).

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::jobs::select::SplitBy;

/// How many group files stay open at once; past it every file is closed and reopened on its next game, so
/// a split into thousands of groups stays within the process's file limit.
const OPEN_FILES: usize = 64;

/// The files of a split.
pub(crate) struct Splitter {
    dir: PathBuf,
    by: SplitBy,
    /// Each group's file name.
    names: HashMap<Box<str>, String>,
    taken: HashSet<String>,
    open: HashMap<String, BufWriter<File>>,
    /// Games written (for [`SplitBy::Games`]).
    written: u64,
}

impl Splitter {
    /// Prepares `dir`: created when missing; refused (with the reason) when it holds anything.
    pub(crate) fn new(dir: &Path, by: SplitBy) -> Result<Splitter, String> {
        let shown = dir.display();
        match fs::read_dir(dir) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(format!(
                        "--split writes into {shown}, which is not empty: give a new or empty directory"
                    ));
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dir).map_err(|e| format!("{shown}: {e}"))?;
            }
            Err(e) => return Err(format!("{shown}: {e}")),
        }
        Ok(Splitter {
            dir: dir.to_path_buf(),
            by,
            names: HashMap::new(),
            taken: HashSet::new(),
            open: HashMap::new(),
            written: 0,
        })
    }

    /// Appends a chosen game's text to its group's file.
    pub(crate) fn write(&mut self, group: Option<&str>, text: &[u8]) -> io::Result<()> {
        let name = match self.by {
            SplitBy::Games(n) => format!("{}.pgn", self.written / n.max(1) + 1),
            by => {
                let group = group.unwrap_or_default();
                match self.names.get(group) {
                    Some(name) => name.clone(),
                    None => {
                        let name = self.file_name(by, group);
                        self.names.insert(group.into(), name.clone());
                        name
                    }
                }
            }
        };
        self.written += 1;
        if !self.open.contains_key(&name) {
            if self.open.len() >= OPEN_FILES {
                self.close_all()?;
            }
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(self.dir.join(&name))?;
            self.open
                .insert(name.clone(), BufWriter::with_capacity(1 << 16, file));
        }
        match self.open.get_mut(&name) {
            Some(w) => w.write_all(text),
            None => Ok(()),
        }
    }

    /// Writes out and closes every open file.
    pub(crate) fn close_all(&mut self) -> io::Result<()> {
        for (_, mut w) in self.open.drain() {
            w.flush()?;
        }
        Ok(())
    }

    /// How many files the split wrote.
    pub(crate) fn files(&self) -> u64 {
        match self.by {
            SplitBy::Games(n) => self.written.div_ceil(n.max(1)),
            _ => self.taken.len() as u64,
        }
    }

    /// A new file name for a group.
    fn file_name(&mut self, by: SplitBy, group: &str) -> String {
        let unknown = matches!(group.trim(), "" | "?" | "-");
        let stem = match (by, unknown) {
            (SplitBy::Event, true) => "no-event".to_string(),
            (SplitBy::Round, true) => "no-round".to_string(),
            (SplitBy::Eco, true) => "no-eco".to_string(),
            (SplitBy::Opening, true) => "no-opening".to_string(),
            (SplitBy::Round, false) => format!("round-{}", safe(group)),
            _ => safe(group),
        };
        let mut name = format!("{stem}.pgn");
        let mut n = 2;
        while !self.taken.insert(name.to_ascii_lowercase()) {
            name = format!("{stem}-{n}.pgn");
            n += 1;
        }
        name
    }
}

/// A group's value as a file name: letters, digits, `.`, `-` and `_` kept, anything else `_`; at most 100
/// characters, never starting with `.`.
fn safe(value: &str) -> String {
    let mut out: String = value
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    if out.starts_with('.') {
        out.replace_range(..1, "_");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_distinct() {
        assert_eq!(safe("Rated Blitz game"), "Rated_Blitz_game");
        assert_eq!(safe("../../etc/passwd"), "_._.._etc_passwd");
        assert_eq!(safe("Tata Steel 2025/Masters"), "Tata_Steel_2025_Masters");
        let dir = std::env::temp_dir().join(format!("pgnkit-split-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut s = Splitter::new(&dir, SplitBy::Event).unwrap();
        assert_eq!(s.file_name(SplitBy::Event, "A/B"), "A_B.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "A B"), "A_B-2.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "?"), "no-event.pgn");
        assert_eq!(s.file_name(SplitBy::Round, "5.1"), "round-5.1.pgn");
        // Case-insensitive file systems: `a_b` would clash with `A_B`.
        assert_eq!(s.file_name(SplitBy::Event, "a b"), "a_b-3.pgn");
        s.write(Some("x"), b"game\n\n").unwrap();
        s.close_all().unwrap();
        assert_eq!(fs::read(dir.join("x.pgn")).unwrap(), b"game\n\n");
        // Not empty any more: refused.
        assert!(Splitter::new(&dir, SplitBy::Event).is_err());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn by_count_fills_each_file_in_turn() {
        let dir = std::env::temp_dir().join(format!("pgnkit-split-n-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut s = Splitter::new(&dir, SplitBy::Games(2)).unwrap();
        for g in ["a", "b", "c", "d", "e"] {
            s.write(None, g.as_bytes()).unwrap();
        }
        s.close_all().unwrap();
        assert_eq!(s.files(), 3);
        assert_eq!(fs::read_to_string(dir.join("1.pgn")).unwrap(), "ab");
        assert_eq!(fs::read_to_string(dir.join("3.pgn")).unwrap(), "e");
        let _ = fs::remove_dir_all(&dir);
    }
}
