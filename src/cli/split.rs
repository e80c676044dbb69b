//! `select --split`: the chosen games written into one file per group, in a directory of their own.
//!
//! The directory must be new or empty, so a split never overwrites anything. The files are written into a
//! hidden directory beside it (`sink::StagedDir`), renamed onto it when the run completes with 0 or 1: an
//! interrupted or failed run leaves no group file, and of two runs splitting into one new directory only the
//! first to finish puts its files there (the other's rename finds it filled, exit 2). Files are created as
//! their first game comes and appended to after that.
//!
//! Group names become file names made safe on every common file system: in Unicode's composed form (NFC),
//! any character other than a letter, a digit, `.`, `-` or `_` becomes `_`; cut to at most 100 characters
//! and [`MAX_STEM_BYTES`] bytes; the names Windows reserves for devices (`CON`, `NUL.txt`...) get a leading
//! `_`; two groups whose names a case-insensitive or normalising file system would take for one another
//! (`ÉÉÉ` and `ééé`, the Kelvin sign and `K`) get `-2`, `-3`...

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use unicode_normalization::UnicodeNormalization;

use crate::jobs::localized;
use crate::jobs::options::SplitBy;

use super::output::{locale, say, write_failure};
use super::plan::Planned;
use super::sink::{PlaceFailure, StagedDir};
use crate::jobs::safe_text;

/// The most group files kept open at once, whatever the process may open: each holds a 64 KiB buffer.
const MAX_OPEN_FILES: usize = 64;

/// Descriptors left free for what the run opens besides the group files while they are open: the next
/// input, its directory walk, standard streams reopened by a library.
const SPARE_DESCRIPTORS: usize = 8;

/// The longest group name in bytes: the 255 bytes most file systems allow a name, less the longest
/// suffix the split adds (`-` and a 20-digit count, `.pgn`).
pub(crate) const MAX_STEM_BYTES: usize = 255 - "-18446744073709551615.pgn".len();

/// The longest group name in characters, for names that stay readable.
const MAX_STEM_CHARS: usize = 100;

/// The files of a split.
pub(crate) struct Splitter {
    staged: Option<StagedDir>,
    /// The directory as given, for messages.
    shown: PathBuf,
    by: SplitBy,
    /// Each group's file name.
    names: HashMap<Box<str>, String>,
    /// The names given, as a case-insensitive, normalising file system compares them.
    taken: HashSet<String>,
    open: HashMap<String, BufWriter<File>>,
    /// How many files may be open at once: the process's own limit, less what it has open.
    cap: usize,
    /// Games written (for [`SplitBy::Games`]).
    written: u64,
}

impl Splitter {
    /// Prepares the split into `planned`'s directory (checked new or empty by `plan`): the hidden directory
    /// the files are written into. `None` once the reason is said on stderr.
    pub(crate) fn new(planned: &Planned, by: SplitBy) -> Option<Splitter> {
        let staged = match StagedDir::create(&planned.target, planned.existing.as_ref()) {
            Ok(s) => s,
            Err(e) => {
                let _ = say(&format!(
                    "pgnkit: {}: {e}\n",
                    safe_text::safe(&planned.given.display().to_string())
                ));
                return None;
            }
        };
        Some(Splitter {
            staged: Some(staged),
            shown: planned.given.clone(),
            by,
            names: HashMap::new(),
            taken: HashSet::new(),
            open: HashMap::new(),
            cap: open_file_cap(),
            written: 0,
        })
    }

    /// Appends a chosen game's text to its group's file. An error names the file.
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
        self.write_to(&name, text)
            .map_err(|e| self.naming(&name, e))
    }

    fn write_to(&mut self, name: &str, text: &[u8]) -> io::Result<()> {
        if !self.open.contains_key(name) {
            if self.open.len() >= self.cap {
                self.close_all()?;
            }
            let file = self.open_file(name)?;
            self.open
                .insert(name.to_string(), BufWriter::with_capacity(1 << 16, file));
        }
        match self.open.get_mut(name) {
            Some(w) => w.write_all(text),
            None => Ok(()),
        }
    }

    /// Opens a group file; when the process is out of descriptors all the same (other threads, a library,
    /// opened some), closes the others and tries again.
    fn open_file(&mut self, name: &str) -> io::Result<File> {
        let Some(staged) = &self.staged else {
            return Err(io::Error::other("the split is over"));
        };
        match staged.append(name) {
            Err(e) if out_of_descriptors(&e) && !self.open.is_empty() => {
                self.close_all()?;
                self.cap = self.cap.saturating_sub(1).max(1);
                match &self.staged {
                    Some(staged) => staged.append(name),
                    None => Err(e),
                }
            }
            opened => opened,
        }
    }

    /// `e` with the group file's path as the user will see it.
    fn naming(&self, name: &str, e: io::Error) -> io::Error {
        io::Error::new(
            e.kind(),
            format!(
                "{}: {e}",
                safe_text::safe(&self.shown.join(name).display().to_string())
            ),
        )
    }

    /// Writes out and closes every open file.
    pub(crate) fn close_all(&mut self) -> io::Result<()> {
        for (_, mut w) in self.open.drain() {
            w.flush()?;
        }
        Ok(())
    }

    /// Ends the split with the run's exit code: the directory is put in place when `code` is 0 or 1, else
    /// removed with its files. Returns the exit code, 2 when the directory could not be put in place.
    pub(crate) fn finish(mut self, code: i32) -> i32 {
        if code >= 2 {
            return code;
        }
        if let Err(e) = self.close_all() {
            return write_failure(&e);
        }
        let Some(staged) = self.staged.take() else {
            return 2;
        };
        let shown = safe_text::safe(&self.shown.display().to_string()).into_owned();
        match staged.commit() {
            Ok(()) => code,
            Err(PlaceFailure::Filled) => {
                let _ = say(&localized!(
                    locale(),
                    "pgnkit: --split: {} is not empty any more (another run wrote into it?): this run's files were not put there\n",
                    "pgnkit : --split : {} n'est plus vide (une autre exécution y a écrit ?) : les fichiers de celle-ci n'y ont pas été mis\n",
                    shown
                ));
                2
            }
            Err(PlaceFailure::Io(e)) => {
                let _ = say(&format!("pgnkit: {shown}: {e}\n"));
                2
            }
        }
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
        let stem = cut(stem);
        let stem = if reserved_on_windows(&stem) {
            format!("_{stem}")
        } else {
            stem
        };
        let mut name = format!("{stem}.pgn");
        let mut n = 2u64;
        while !self.taken.insert(fold(&name)) {
            name = format!("{stem}-{n}.pgn");
            n += 1;
        }
        name
    }
}

/// A group's value as a file name: composed (NFC: a decomposed `é` is one letter, as a composed one),
/// letters, digits, `.`, `-` and `_` kept, anything else `_`; never starting with `.`.
fn safe(value: &str) -> String {
    let mut out: String = value
        .trim()
        .nfc()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.starts_with('.') {
        out.replace_range(..1, "_");
    }
    out
}

/// `stem` cut to [`MAX_STEM_CHARS`] characters and [`MAX_STEM_BYTES`] bytes, at a character's boundary.
fn cut(mut stem: String) -> String {
    let mut end = 0;
    for (count, (at, c)) in stem.char_indices().enumerate() {
        if count == MAX_STEM_CHARS || at + c.len_utf8() > MAX_STEM_BYTES {
            break;
        }
        end = at + c.len_utf8();
    }
    stem.truncate(end);
    stem
}

/// A name as the file systems that ignore case or normalise names compare it: compatibility-composed,
/// case folded (upper then lower case, so that `ß`/`SS`, `ς`/`σ` and the Kelvin sign/`k` meet).
fn fold(name: &str) -> String {
    let upper: String = name.nfkc().flat_map(char::to_uppercase).collect();
    upper.chars().flat_map(char::to_lowercase).nfkc().collect()
}

/// Whether Windows takes `stem` for a device: `CON`, `PRN`, `AUX`, `NUL`, `COM1`-`COM9`, `LPT1`-`LPT9` (and
/// the superscript digits ¹ ² ³ after COM and LPT), in any case, with or without an extension, spaces and
/// dots at the end ignored.
fn reserved_on_windows(stem: &str) -> bool {
    let base = stem.split('.').next().unwrap_or_default();
    let base = base.trim_end_matches([' ', '.']).to_uppercase();
    match base.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" => true,
        _ => {
            let mut chars = base.chars();
            let prefix: String = chars.by_ref().take(3).collect();
            let digit: Vec<char> = chars.collect();
            matches!(prefix.as_str(), "COM" | "LPT")
                && matches!(digit.as_slice(), ['1'..='9' | '¹' | '²' | '³'])
        }
    }
}

/// Whether `e` says that the process has no descriptor left (`EMFILE`, `ENFILE`).
fn out_of_descriptors(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// How many group files may stay open: the soft limit on open files (`ulimit -n`) less the descriptors
/// already open and [`SPARE_DESCRIPTORS`], at least one and at most [`MAX_OPEN_FILES`].
fn open_file_cap() -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` writes the limit into the struct it is given, a valid one.
        let known = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
        if !known || limit.rlim_cur == libc::RLIM_INFINITY {
            return MAX_OPEN_FILES;
        }
        let soft = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
        soft.saturating_sub(descriptors_open() + SPARE_DESCRIPTORS)
            .clamp(1, MAX_OPEN_FILES)
    }
    #[cfg(not(unix))]
    {
        MAX_OPEN_FILES
    }
}

/// The descriptors the process has open, counted in `/proc/self/fd` (or `/dev/fd`); where neither can be
/// read, a guess that holds for a run that just started.
#[cfg(unix)]
fn descriptors_open() -> usize {
    for dir in ["/proc/self/fd", "/dev/fd"] {
        if let Ok(entries) = std::fs::read_dir(dir) {
            // The listing's own descriptor is one of them.
            return entries.count().saturating_sub(1);
        }
    }
    16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::plan::{Kind, Request, plan};
    use std::fs;
    use std::path::Path;

    fn splitter(dir: &Path, by: SplitBy) -> Splitter {
        let planned = plan(
            &[Request {
                option: "-o",
                path: dir,
                kind: Kind::Directory,
            }],
            &[],
        )
        .unwrap();
        Splitter::new(&planned[0], by).unwrap()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-split-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn names_are_safe_and_distinct() {
        assert_eq!(safe("Rated Blitz game"), "Rated_Blitz_game");
        assert_eq!(safe("../../etc/passwd"), "_._.._etc_passwd");
        assert_eq!(safe("Tata Steel 2025/Masters"), "Tata_Steel_2025_Masters");
        let root = temp_dir("names");
        let dir = root.join("out");
        let mut s = splitter(&dir, SplitBy::Event);
        assert_eq!(s.file_name(SplitBy::Event, "A/B"), "A_B.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "A B"), "A_B-2.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "?"), "no-event.pgn");
        assert_eq!(s.file_name(SplitBy::Round, "5.1"), "round-5.1.pgn");
        // Case-insensitive file systems: `a_b` would clash with `A_B`.
        assert_eq!(s.file_name(SplitBy::Event, "a b"), "a_b-3.pgn");
        s.write(Some("x"), b"game\n\n").unwrap();
        // Nothing in the directory until the run completes.
        assert!(!dir.exists());
        assert_eq!(s.finish(0), 0);
        assert_eq!(fs::read(dir.join("x.pgn")).unwrap(), b"game\n\n");
        assert_eq!(
            fs::read_dir(&root).unwrap().count(),
            1,
            "no hidden directory"
        );
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn names_are_cut_at_bytes_on_a_character_boundary() {
        let root = temp_dir("long");
        let mut s = splitter(&root.join("out"), SplitBy::Event);
        // 100 CJK characters are 300 bytes.
        let cjk = "國".repeat(100);
        let name = s.file_name(SplitBy::Event, &cjk);
        let stem = name.strip_suffix(".pgn").unwrap();
        assert!(stem.len() <= MAX_STEM_BYTES, "{} bytes", stem.len());
        assert_eq!(stem, "國".repeat(MAX_STEM_BYTES / 3));
        // The same name again: the suffix still fits in 255 bytes.
        let again = s.file_name(SplitBy::Event, &format!("{cjk}!"));
        assert_eq!(again, format!("{stem}-2.pgn"));
        assert!(again.len() <= 255);
        // Long ASCII: 100 characters at most, as before.
        let ascii = s.file_name(SplitBy::Event, &"a".repeat(300));
        assert_eq!(ascii, format!("{}.pgn", "a".repeat(MAX_STEM_CHARS)));
        // Four-byte characters: never cut inside one.
        let emoji = cut("🂡".repeat(100));
        assert_eq!(emoji.len(), MAX_STEM_BYTES / 4 * 4);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn names_a_case_insensitive_or_normalising_file_system_confuses_are_told_apart() {
        let root = temp_dir("fold");
        let mut s = splitter(&root.join("out"), SplitBy::Event);
        assert_eq!(s.file_name(SplitBy::Event, "ÉÉÉ"), "ÉÉÉ.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "ééé"), "ééé-2.pgn");
        // Decomposed (e and a combining acute accent): written composed, and taken for the same name.
        assert_eq!(
            s.file_name(SplitBy::Event, "e\u{301}e\u{301}e\u{301}"),
            "ééé-3.pgn"
        );
        // The Kelvin sign is K once normalised.
        assert_eq!(s.file_name(SplitBy::Event, "K"), "K.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "\u{212a}"), "K-2.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "k"), "k-3.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "STRASSE"), "STRASSE.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "straße"), "straße-2.pgn");
        // A group named like a suffixed one.
        assert_eq!(s.file_name(SplitBy::Event, "K-2"), "K-2-2.pgn");
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn windows_device_names_are_avoided() {
        for name in [
            "CON",
            "con",
            "Nul",
            "PRN",
            "aux",
            "COM1",
            "com9",
            "LPT1",
            "lpt9",
            "NUL.txt",
            "con.tar.gz",
            "CON.",
            "COM¹",
        ] {
            assert!(reserved_on_windows(&safe(name)), "{name}");
        }
        for name in [
            "CONSOLE",
            "COM0",
            "COM10",
            "LPT",
            "NULL",
            "_CON",
            "AUXILIARY",
            "X.CON",
        ] {
            assert!(!reserved_on_windows(&safe(name)), "{name}");
        }
        let root = temp_dir("windows");
        let mut s = splitter(&root.join("out"), SplitBy::Event);
        assert_eq!(s.file_name(SplitBy::Event, "CON"), "_CON.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "nul.txt"), "_nul.txt.pgn");
        assert_eq!(s.file_name(SplitBy::Event, "_CON"), "_CON-2.pgn");
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn by_count_fills_each_file_in_turn() {
        let root = temp_dir("count");
        let dir = root.join("out");
        let mut s = splitter(&dir, SplitBy::Games(2));
        for g in ["a", "b", "c", "d", "e"] {
            s.write(None, g.as_bytes()).unwrap();
        }
        assert_eq!(s.files(), 3);
        assert_eq!(s.finish(1), 1);
        assert_eq!(fs::read_to_string(dir.join("1.pgn")).unwrap(), "ab");
        assert_eq!(fs::read_to_string(dir.join("3.pgn")).unwrap(), "e");
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn a_failed_run_leaves_nothing() {
        let root = temp_dir("failed");
        let mut s = splitter(&root.join("out"), SplitBy::Games(1));
        s.write(None, b"a").unwrap();
        assert_eq!(s.finish(2), 2);
        assert_eq!(fs::read_dir(&root).unwrap().count(), 0);
        // Dropped (an early return, a panic): the same.
        let mut s = splitter(&root.join("out"), SplitBy::Games(1));
        s.write(None, b"a").unwrap();
        drop(s);
        assert_eq!(fs::read_dir(&root).unwrap().count(), 0);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn a_directory_filled_meanwhile_is_not_replaced() {
        let root = temp_dir("filled");
        let dir = root.join("out");
        let mut s = splitter(&dir, SplitBy::Games(1));
        s.write(None, b"mine").unwrap();
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("1.pgn"), "theirs").unwrap();
        assert_eq!(s.finish(0), 2);
        assert_eq!(fs::read_to_string(dir.join("1.pgn")).unwrap(), "theirs");
        assert_eq!(
            fs::read_dir(&root).unwrap().count(),
            1,
            "no hidden directory"
        );
        // An empty one is replaced.
        let mut s = splitter(&root.join("empty"), SplitBy::Games(1));
        fs::create_dir(root.join("empty")).unwrap();
        s.write(None, b"mine").unwrap();
        assert_eq!(s.finish(0), 0);
        assert_eq!(
            fs::read_to_string(root.join("empty/1.pgn")).unwrap(),
            "mine"
        );
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn the_open_file_cap_follows_the_limit() {
        let cap = open_file_cap();
        assert!((1..=MAX_OPEN_FILES).contains(&cap), "{cap}");
    }
}
