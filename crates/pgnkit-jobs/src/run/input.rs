//! Where games come from: files, directories (searched recursively for PGN files), standard input, with
//! gzip and zstd decompression detected from the first bytes, whatever the file is called; and texts a caller
//! holds in memory (the Python package's), read as they are.
//!
//! A directory search ([`expand`]) reads every regular PGN file once: names are matched on their bytes (a
//! name that is not UTF-8 is found like any other, shown lossily, opened by its real name), a file reached
//! twice (a hard link, a symbolic link) is read once, a directory reached twice (a symbolic link loop) is
//! searched once, and a FIFO, socket or device with a PGN name is never opened (reading it could wait
//! forever). Everything left out is listed in [`Expanded::skipped`] with the reason, for the caller to report.
//! A path named explicitly is always read, whatever it is (`<(zcat x.gz)` is a pipe).

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::table::{MAGIC, TableColumn, TableError, TableGames, table_columns};
use crate::options::InputFormat;

/// One input as the user named it (or as found inside a named directory).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
    /// A PGN text held in memory, shown as `name`: read as it is, or decompressed when it starts as gzip or
    /// zstd data does, or read as a Parquet file's games when it starts as one.
    Text {
        name: String,
        text: Arc<[u8]>,
    },
}

impl Source {
    /// The name used in diagnostics and output records (`-` for standard input).
    pub(crate) fn display_name(&self) -> String {
        match self {
            Source::Stdin => "-".to_string(),
            Source::File(p) => p.display().to_string(),
            Source::Text { name, .. } => name.clone(),
        }
    }

    /// Size in bytes on disk, when known (for progress bars): not for a pipe (`<(zcat x.gz)`) or a device.
    pub fn size_hint(&self) -> Option<u64> {
        match self {
            Source::Stdin => None,
            Source::File(p) => std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
            Source::Text { text, .. } => Some(text.len() as u64),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display_name())
    }
}

#[derive(Debug)]
pub enum InputError {
    NotFound(PathBuf),
    Io {
        path: String,
        error: io::Error,
    },
    /// A directory holding no PGN file at all: almost always a mistaken path.
    EmptyDirectory(PathBuf),
    /// A Parquet input whose rows are no games, or that cannot be read as Parquet.
    Table {
        path: String,
        error: TableError,
    },
    /// `--input-format parquet`, and the input does not start as a Parquet file does.
    NotParquet(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::NotFound(p) => write!(f, "{}: no such file or directory", p.display()),
            InputError::Io { path, error } => write!(f, "{path}: {error}"),
            InputError::EmptyDirectory(p) => {
                write!(
                    f,
                    "{}: directory contains no .pgn, .pgn.gz, .pgn.zst or .parquet file",
                    p.display()
                )
            }
            InputError::Table { path, error } => write!(f, "{path}: {error}"),
            InputError::NotParquet(path) => write!(
                f,
                "{path}: not a Parquet file (--input-format parquet; it does not start with `PAR1`)"
            ),
        }
    }
}

impl std::error::Error for InputError {}

/// Whether a file name is a Parquet file's (`.parquet`, in any case).
fn is_parquet_name(path: &Path) -> bool {
    let name = path.file_name().map_or(&b""[..], |n| n.as_encoded_bytes());
    name.len() >= 8 && name[name.len() - 8..].eq_ignore_ascii_case(b".parquet")
}

/// Whether a file name looks like PGN (plain or compressed) or Parquet, for directory searches. The name is compared
/// as bytes, the extension case-insensitively: a name that is not valid UTF-8 (`Turnier_M\xfcnchen.pgn`
/// from a Latin-1 system) is found like any other.
pub(crate) fn is_pgn_name(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    let name = name.as_encoded_bytes();
    [
        &b".pgn"[..],
        b".pgn.gz",
        b".pgn.zst",
        b".pgn.zstd",
        b".parquet",
    ]
    .iter()
    .any(|ext| name.len() >= ext.len() && name[name.len() - ext.len()..].eq_ignore_ascii_case(ext))
}

/// The inputs of a run: what to read, in order, and what a directory search left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Expanded {
    /// The inputs to read, in order.
    pub sources: Vec<Source>,
    /// Entries found by a directory search and not read, with the reason (to be reported to the user).
    pub skipped: Vec<Skipped>,
}

/// An entry of a directory search that is not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The entry, as found (the searched directory joined with the names below it).
    pub path: PathBuf,
    /// Why it is not read.
    pub(crate) reason: SkipReason,
}

/// Why a directory entry is not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SkipReason {
    /// A FIFO, socket or device with a PGN name: opening or reading it could wait forever. Named on the command
    /// line it would be read.
    NotRegularFile(SpecialKind),
    /// The same file (device and inode) as an input already listed, reached through a hard or symbolic link.
    SameFile(PathBuf),
    /// A directory already searched, reached again through a symbolic link (a loop, or a second link).
    SameDirectory(PathBuf),
    /// A Parquet file whose rows are not games (no `movetext` or `pgn` column), or that is not Parquet.
    NotGames,
}

/// A kind of file that is not a regular file nor a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpecialKind {
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    /// Anything else the system has.
    Other,
}

impl SpecialKind {
    fn of(meta: &Metadata) -> SpecialKind {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            let t = meta.file_type();
            if t.is_fifo() {
                return SpecialKind::Fifo;
            }
            if t.is_socket() {
                return SpecialKind::Socket;
            }
            if t.is_char_device() {
                return SpecialKind::CharDevice;
            }
            if t.is_block_device() {
                return SpecialKind::BlockDevice;
            }
        }
        #[cfg(not(unix))]
        let _ = meta;
        SpecialKind::Other
    }
}

impl fmt::Display for SpecialKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpecialKind::Fifo => "a named pipe (FIFO)",
            SpecialKind::Socket => "a socket",
            SpecialKind::CharDevice => "a character device",
            SpecialKind::BlockDevice => "a block device",
            SpecialKind::Other => "a special file",
        })
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.reason {
            SkipReason::NotRegularFile(kind) => write!(
                f,
                "{path}: skipped: {kind}, not a regular file (name it on the command line to read it)"
            ),
            SkipReason::SameFile(first) => write!(
                f,
                "{path}: skipped: the same file as {} (read once)",
                first.display()
            ),
            SkipReason::NotGames => write!(
                f,
                "{path}: skipped: a Parquet file whose rows are not games (no `movetext` or `pgn` column)"
            ),
            SkipReason::SameDirectory(first) => write!(
                f,
                "{path}: skipped: the directory {} again (a symbolic link), searched once",
                first.display()
            ),
        }
    }
}

/// What identifies a file: device and inode where the system has them, else the canonical path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum FileId {
    #[cfg_attr(not(unix), allow(dead_code))]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn file_id(path: &Path, meta: &Metadata) -> FileId {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        FileId::Inode(meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        FileId::Path(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// State of one expansion: the files and directories met so far.
#[derive(Default)]
struct Search {
    out: Expanded,
    files: HashMap<FileId, PathBuf>,
    dirs: HashMap<FileId, PathBuf>,
    /// PGN-named entries met by the current search (read or skipped), to tell an empty directory.
    found: usize,
}

/// Expands the command-line paths: `-` is standard input, a directory yields its PGN files (recursively, in
/// order of name bytes, so output is reproducible), a file is taken as it is whatever its name and kind (a
/// pipe such as `<(zcat x.gz)` included). A directory search reads each regular file once (a file already
/// listed, by name or through a link, is skipped), searches each directory once (symbolic link loops end),
/// and never opens a FIFO, socket or device: those are listed in [`Expanded::skipped`]. A path named twice on
/// the command line is read twice.
pub(crate) fn expand(paths: &[PathBuf]) -> Result<Expanded, InputError> {
    let mut search = Search::default();
    for path in paths {
        if path.as_os_str() == "-" {
            search.out.sources.push(Source::Stdin);
            continue;
        }
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => InputError::NotFound(path.clone()),
            _ => InputError::Io {
                path: path.display().to_string(),
                error: e,
            },
        })?;
        if meta.is_dir() {
            // A directory named again (or inside one named before) is said once, not called empty.
            let again = search.dirs.contains_key(&file_id(path, &meta));
            search.found = 0;
            search.walk(path, &meta)?;
            if search.found == 0 && !again {
                return Err(InputError::EmptyDirectory(path.clone()));
            }
        } else {
            if meta.is_file() {
                search
                    .files
                    .entry(file_id(path, &meta))
                    .or_insert_with(|| path.clone());
            }
            search.out.sources.push(Source::File(path.clone()));
        }
    }
    Ok(search.out)
}

impl Search {
    fn walk(&mut self, dir: &Path, meta: &Metadata) -> Result<(), InputError> {
        if let Some(first) = self.dirs.get(&file_id(dir, meta)) {
            self.out.skipped.push(Skipped {
                path: dir.to_path_buf(),
                reason: SkipReason::SameDirectory(first.clone()),
            });
            return Ok(());
        }
        self.dirs.insert(file_id(dir, meta), dir.to_path_buf());
        let io_err = |error| InputError::Io {
            path: dir.display().to_string(),
            error,
        };
        let mut entries: Vec<(OsString, PathBuf)> = std::fs::read_dir(dir)
            .map_err(io_err)?
            .map(|e| e.map(|e| (e.file_name(), e.path())))
            .collect::<Result<_, _>>()
            .map_err(io_err)?;
        entries.sort_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
        for (_, entry) in entries {
            // Follows symbolic links: a link to a file is that file, a link to a directory that directory.
            let meta = match std::fs::metadata(&entry) {
                Ok(meta) => meta,
                Err(_) => {
                    // A broken link or an entry that vanished: when it looks like PGN, opening it reports why.
                    if is_pgn_name(&entry) {
                        self.found += 1;
                        self.out.sources.push(Source::File(entry));
                    }
                    continue;
                }
            };
            if meta.is_dir() {
                self.walk(&entry, &meta)?;
            } else if is_pgn_name(&entry) {
                self.found += 1;
                if !meta.is_file() {
                    self.out.skipped.push(Skipped {
                        path: entry,
                        reason: SkipReason::NotRegularFile(SpecialKind::of(&meta)),
                    });
                    continue;
                }
                match self.files.entry(file_id(&entry, &meta)) {
                    std::collections::hash_map::Entry::Occupied(first) => {
                        self.out.skipped.push(Skipped {
                            path: entry,
                            reason: SkipReason::SameFile(first.get().clone()),
                        })
                    }
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(entry.clone());
                        if is_parquet_name(&entry) && !super::table::holds_games(&entry) {
                            // Rows that are not games: most often what `pgnkit stats` wrote beside the
                            // games it read.
                            self.out.skipped.push(Skipped {
                                path: entry,
                                reason: SkipReason::NotGames,
                            });
                            continue;
                        }
                        self.out.sources.push(Source::File(entry));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Compression detected from magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    pub(crate) fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// A byte counter around the raw (compressed) stream, so progress follows the file on disk.
pub(crate) struct Counted<R> {
    inner: R,
    count: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

/// An opened input: decompressed bytes, and a shared counter of raw bytes read so far; or the games of a
/// Parquet file (`table`; then `reader` is empty).
pub(crate) struct Opened {
    pub reader: Box<dyn Read + Send>,
    pub(crate) table: Option<TableGames>,
    pub(crate) raw_bytes_read: std::sync::Arc<std::sync::atomic::AtomicU64>,
    #[cfg_attr(
        not(test),
        allow(dead_code, reason = "what was sniffed, checked by the tests")
    )]
    pub(crate) compression: Compression,
}

/// Opens a source, decompressing gzip (also multi-member, as `cat a.gz b.gz` makes; zero bytes after the last
/// member are padding, as `gzip -dc` reads them) or zstd transparently. A decompression error is reported as
/// `damaged gzip data: ...` or `damaged zstd data: ...`; the bytes decoded before it are delivered first.
///
/// A Parquet file (first bytes `PAR1`, or any input with `InputFormat::Parquet`) opens as its games
/// ([`TableGames`]): a file is opened again to be read from its end, standard input or a text is read whole
/// into memory first.
pub(crate) fn open(source: &Source, format: InputFormat) -> Result<Opened, InputError> {
    if let Source::Text { text, .. } = source {
        if format != InputFormat::Pgn && text.starts_with(MAGIC) {
            return open_table(source, bytes::Bytes::copy_from_slice(text));
        }
        if format == InputFormat::Parquet {
            return Err(InputError::NotParquet(source.display_name()));
        }
    }
    let raw: Box<dyn Read + Send> = match source {
        Source::Text { text, .. } if Compression::sniff(text) == Compression::None => {
            return Ok(in_memory(text));
        }
        // A compressed text (Python's bytes of a `.pgn.gz`) is decompressed as a file is.
        Source::Text { text, .. } => Box::new(io::Cursor::new(Arc::clone(text))),
        Source::Stdin => Box::new(io::stdin()),
        Source::File(path) => Box::new(File::open(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => InputError::NotFound(path.clone()),
            _ => InputError::Io {
                path: path.display().to_string(),
                error: e,
            },
        })?),
    };
    let count = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counted = Counted {
        inner: raw,
        count: count.clone(),
    };
    let mut buffered = BufReader::with_capacity(1 << 16, counted);
    let head = buffered.fill_buf().map_err(|error| InputError::Io {
        path: source.display_name(),
        error,
    })?;
    let compression = Compression::sniff(head);
    if format == InputFormat::Parquet && !head.starts_with(MAGIC) {
        return Err(InputError::NotParquet(source.display_name()));
    }
    if format != InputFormat::Pgn && head.starts_with(MAGIC) {
        let io_error = |error| InputError::Io {
            path: source.display_name(),
            error,
        };
        return match source {
            Source::File(path) => {
                let file = File::open(path).map_err(io_error)?;
                let size = file.metadata().map_or(0, |m| m.len());
                let mut table = TableGames::open_file(file).map_err(|error| InputError::Table {
                    path: source.display_name(),
                    error,
                })?;
                count.store(0, std::sync::atomic::Ordering::Relaxed);
                table.count_progress(count.clone(), size);
                Ok(Opened {
                    reader: Box::new(io::empty()),
                    table: Some(table),
                    raw_bytes_read: count,
                    compression: Compression::None,
                })
            }
            _ => {
                let mut whole = Vec::new();
                buffered.read_to_end(&mut whole).map_err(io_error)?;
                open_table(source, bytes::Bytes::from(whole))
            }
        };
    }
    let reader: Box<dyn Read + Send> = match compression {
        Compression::None => Box::new(buffered),
        Compression::Gzip => Box::new(Labelled {
            inner: GzMembers::new(buffered),
            what: "gzip",
        }),
        Compression::Zstd => {
            let mut decoder =
                zstd::stream::read::Decoder::with_buffer(buffered).map_err(|error| {
                    InputError::Io {
                        path: source.display_name(),
                        error,
                    }
                })?;
            // Large-window archives (`zstd --long`) need the decoder to accept windows above the default.
            let _ = decoder.window_log_max(31);
            Box::new(Labelled {
                inner: decoder,
                what: "zstd",
            })
        }
    };
    Ok(Opened {
        reader,
        table: None,
        raw_bytes_read: count,
        compression,
    })
}

/// The columns of the first of `sources` that is a Parquet file of games, when one is (only footers are
/// read).
pub(crate) fn first_table_columns(sources: &[Source]) -> Option<Vec<TableColumn>> {
    sources.iter().find_map(|source| match source {
        Source::File(path) => table_columns(File::open(path).ok()?),
        Source::Text { text, .. } if text.starts_with(MAGIC) => {
            table_columns(bytes::Bytes::copy_from_slice(text))
        }
        _ => None,
    })
}

/// The games of a Parquet file held in memory.
fn open_table(source: &Source, bytes: bytes::Bytes) -> Result<Opened, InputError> {
    let size = bytes.len() as u64;
    let table = TableGames::open_bytes(bytes).map_err(|error| InputError::Table {
        path: source.display_name(),
        error,
    })?;
    Ok(Opened {
        reader: Box::new(io::empty()),
        table: Some(table),
        raw_bytes_read: Arc::new(std::sync::atomic::AtomicU64::new(size)),
        compression: Compression::None,
    })
}

/// A text in memory, opened: its bytes as they are.
fn in_memory(text: &Arc<[u8]>) -> Opened {
    let count = Arc::new(std::sync::atomic::AtomicU64::new(0));
    Opened {
        reader: Box::new(Counted {
            inner: io::Cursor::new(Arc::clone(text)),
            count: count.clone(),
        }),
        table: None,
        raw_bytes_read: count,
        compression: Compression::None,
    }
}

/// A decoder whose errors say which format was damaged (`damaged gzip data: incomplete deflate stream`).
struct Labelled<R> {
    inner: R,
    what: &'static str,
}

impl<R: Read> Read for Labelled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            io::Error::new(e.kind(), format!("damaged {} data: {e}", self.what))
        })
    }
}

/// A gzip stream of one or more members (`cat a.gz b.gz`), like flate2's `MultiGzDecoder`, except that zero
/// bytes after a member, to the end of the input, end the stream cleanly: `gzip -dc` reads such files (tape
/// and block-device images pad them) without complaint. Anything else after a member must be another member.
pub(crate) struct GzMembers<R: BufRead> {
    /// The member being decoded; `None` once the stream has ended.
    member: Option<flate2::bufread::GzDecoder<R>>,
    /// An error to return (the member's input is gone with it).
    failed: Option<io::Error>,
}

impl<R: BufRead> GzMembers<R> {
    /// A decoder over `inner`, which must start with a gzip header.
    pub(crate) fn new(inner: R) -> Self {
        GzMembers {
            member: Some(flate2::bufread::GzDecoder::new(inner)),
            failed: None,
        }
    }

    /// After a member: another member starts, or the stream ends (end of input, or zero padding to it).
    /// Returns the input back when another member starts.
    fn after_member(mut inner: R) -> io::Result<Option<R>> {
        let mut padding = 0u64;
        loop {
            let buf = match inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(None);
            }
            let zeros = buf.iter().take_while(|&&b| b == 0).count();
            if zeros == 0 {
                if padding > 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("data after {padding} zero bytes of padding at the end"),
                    ));
                }
                return Ok(Some(inner));
            }
            padding += zeros as u64;
            inner.consume(zeros);
        }
    }
}

impl<R: BufRead> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            let Some(member) = self.member.as_mut() else {
                return Ok(0);
            };
            let n = member.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            // The member ended (its CRC and length checked): what follows?
            let Some(done) = self.member.take() else {
                return Ok(0);
            };
            match Self::after_member(done.into_inner()) {
                Ok(Some(inner)) => self.member = Some(flate2::bufread::GzDecoder::new(inner)),
                Ok(None) => return Ok(0),
                Err(e) => self.failed = Some(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-input-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn directories_are_searched_recursively_in_name_order() {
        let dir = temp_dir("walk");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for name in ["b.pgn", "a.PGN", "notes.txt", "sub/c.pgn.gz"] {
            std::fs::write(dir.join(name), b"").unwrap();
        }
        let found = expand(std::slice::from_ref(&dir)).unwrap();
        assert!(found.skipped.is_empty());
        let names: Vec<String> = found
            .sources
            .iter()
            .map(|s| match s {
                Source::File(p) => p.strip_prefix(&dir).unwrap().display().to_string(),
                Source::Stdin => "-".into(),
                Source::Text { name, .. } => name.clone(),
            })
            .collect();
        assert_eq!(names, vec!["a.PGN", "b.pgn", "sub/c.pgn.gz"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn missing_paths_and_empty_directories_are_errors() {
        assert!(matches!(
            expand(&[PathBuf::from("/definitely/not/here.pgn")]),
            Err(InputError::NotFound(_))
        ));
        let dir = temp_dir("empty");
        assert!(matches!(
            expand(std::slice::from_ref(&dir)),
            Err(InputError::EmptyDirectory(_))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn gzip_and_zstd_are_decompressed_by_content() {
        let dir = temp_dir("compress");
        let text = b"[Event \"x\"]\n\n1. e4 *\n".repeat(100);
        let gz = dir.join("g.bin");
        let mut enc = flate2::write::GzEncoder::new(
            File::create(&gz).unwrap(),
            flate2::Compression::default(),
        );
        enc.write_all(&text).unwrap();
        enc.finish().unwrap();
        let zst = dir.join("z.pgn.zst");
        std::fs::write(&zst, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
        for (path, kind) in [(gz, Compression::Gzip), (zst, Compression::Zstd)] {
            let mut opened = open(&Source::File(path), InputFormat::Auto).unwrap();
            assert_eq!(opened.compression, kind);
            let mut out = Vec::new();
            opened.reader.read_to_end(&mut out).unwrap();
            assert_eq!(out, text);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    fn names(found: &[Source], dir: &Path) -> Vec<String> {
        found
            .iter()
            .map(|s| match s {
                Source::File(p) => p.strip_prefix(dir).unwrap().display().to_string(),
                Source::Stdin => "-".into(),
                Source::Text { name, .. } => name.clone(),
            })
            .collect()
    }

    #[cfg(unix)]
    #[test]
    fn names_are_matched_as_bytes() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let dir = temp_dir("bytes");
        // Latin-1 `ü`: not UTF-8. Sorted by name bytes.
        let latin1 = dir.join(OsStr::from_bytes(b"Turnier_M\xfcnchen.pgn"));
        std::fs::write(&latin1, b"").unwrap();
        std::fs::write(dir.join("Turnier_Z.PGN.GZ"), b"").unwrap();
        std::fs::write(dir.join(OsStr::from_bytes(b"x\xff.txt")), b"").unwrap();
        assert!(is_pgn_name(&latin1));
        assert!(!is_pgn_name(Path::new("pgn")));
        assert!(!is_pgn_name(Path::new("a.pgnx")));
        let found = expand(std::slice::from_ref(&dir)).unwrap();
        assert_eq!(
            found.sources,
            vec![
                Source::File(latin1.clone()),
                Source::File(dir.join("Turnier_Z.PGN.GZ"))
            ]
        );
        // Shown lossily, opened by the real name.
        assert!(
            found.sources[0]
                .display_name()
                .ends_with("Turnier_M\u{FFFD}nchen.pgn")
        );
        assert!(open(&found.sources[0], InputFormat::Auto).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_read_once_and_loops_end() {
        use std::os::unix::fs::symlink;
        let dir = temp_dir("links");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.pgn"), b"*").unwrap();
        std::fs::hard_link(dir.join("a.pgn"), dir.join("hard.pgn")).unwrap();
        symlink("a.pgn", dir.join("sym.pgn")).unwrap();
        symlink("..", dir.join("sub/loop")).unwrap();
        symlink(".", dir.join("loop2")).unwrap();
        std::fs::write(dir.join("sub/b.pgn"), b"*").unwrap();
        symlink("missing.pgn", dir.join("sub/broken.pgn")).unwrap();
        let found = expand(std::slice::from_ref(&dir)).unwrap();
        // A broken link is listed: opening it says why it cannot be read.
        assert_eq!(
            names(&found.sources, &dir),
            ["a.pgn", "sub/b.pgn", "sub/broken.pgn"]
        );
        let skipped: Vec<(String, SkipReason)> = found
            .skipped
            .iter()
            .map(|s| {
                (
                    s.path.strip_prefix(&dir).unwrap().display().to_string(),
                    s.reason.clone(),
                )
            })
            .collect();
        assert_eq!(
            skipped,
            [
                ("hard.pgn".into(), SkipReason::SameFile(dir.join("a.pgn"))),
                ("loop2".into(), SkipReason::SameDirectory(dir.clone())),
                ("sub/loop".into(), SkipReason::SameDirectory(dir.clone())),
                ("sym.pgn".into(), SkipReason::SameFile(dir.join("a.pgn"))),
            ]
        );
        assert!(found.skipped[0].to_string().contains("the same file as"));
        // A file named on the command line is always read; the walk then skips it.
        let found = expand(&[
            dir.join("sub/b.pgn"),
            dir.join("sub/b.pgn"),
            dir.join("sub"),
        ])
        .unwrap();
        // (sub/loop leads back to the top, not searched in this run.)
        assert_eq!(
            names(&found.sources, &dir),
            ["sub/b.pgn", "sub/b.pgn", "sub/broken.pgn", "sub/loop/a.pgn"]
        );
        // A directory named twice is no empty directory.
        let found = expand(&[dir.join("sub"), dir.join("sub")]).unwrap();
        assert_eq!(found.sources.len(), 3);
        assert_eq!(
            found.skipped.last().map(|s| &s.reason),
            Some(&SkipReason::SameDirectory(dir.join("sub")))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_skipped_by_a_walk_and_read_when_named() {
        let dir = temp_dir("special");
        let fifo = dir.join("x.pgn");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let socket = dir.join("s.pgn");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        std::fs::write(dir.join("y.pgn"), b"*").unwrap();
        let found = expand(std::slice::from_ref(&dir)).unwrap();
        assert_eq!(names(&found.sources, &dir), ["y.pgn"]);
        assert_eq!(
            found.skipped,
            [
                Skipped {
                    path: socket,
                    reason: SkipReason::NotRegularFile(SpecialKind::Socket)
                },
                Skipped {
                    path: fifo.clone(),
                    reason: SkipReason::NotRegularFile(SpecialKind::Fifo)
                },
            ]
        );
        assert!(found.skipped[1].to_string().contains("named pipe"));
        // Only special files: reported, and no "empty directory".
        std::fs::remove_file(dir.join("y.pgn")).unwrap();
        assert_eq!(expand(std::slice::from_ref(&dir)).unwrap().skipped.len(), 2);
        // Named explicitly: listed (expand never opens anything).
        let found = expand(std::slice::from_ref(&fifo)).unwrap();
        assert_eq!(found.sources, [Source::File(fifo)]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    /// Decompresses `bytes` through `open`: what was decoded, and the error if any.
    fn decode(name: &str, bytes: &[u8]) -> (Vec<u8>, Option<io::Error>) {
        let dir = temp_dir(name);
        let path = dir.join("in.pgn.gz");
        std::fs::write(&path, bytes).unwrap();
        let mut opened = open(&Source::File(path), InputFormat::Auto).unwrap();
        let mut out = Vec::new();
        let error = opened.reader.read_to_end(&mut out).err();
        let _ = std::fs::remove_dir_all(&dir);
        (out, error)
    }

    #[test]
    fn gzip_members_and_zero_padding() {
        let a = b"[Event \"a\"]\n\n1. e4 *\n".repeat(50);
        let b = b"[Event \"b\"]\n\n1. d4 *\n".repeat(50);
        let mut two = gzip(&a);
        two.extend(gzip(&b));
        let (out, error) = decode("gz-members", &two);
        assert!(error.is_none(), "{error:?}");
        assert_eq!(out, [a.clone(), b.clone()].concat());

        // Zero padding after the last member, as `gzip -dc` reads it: no error.
        let mut padded = two.clone();
        padded.extend(vec![0u8; 100_000]);
        let (out, error) = decode("gz-padded", &padded);
        assert!(error.is_none(), "{error:?}");
        assert_eq!(out, [a.clone(), b.clone()].concat());

        // Anything else after a member is an error, after everything decoded.
        let mut garbage = padded.clone();
        garbage.extend(b"junk");
        let (out, error) = decode("gz-garbage-after-zeros", &garbage);
        assert_eq!(out, [a.clone(), b.clone()].concat());
        let error = error.expect("data after the padding");
        assert!(
            error.to_string().starts_with("damaged gzip data"),
            "{error}"
        );
        let mut garbage = two.clone();
        garbage.extend(b"junk");
        let (out, error) = decode("gz-garbage", &garbage);
        assert_eq!(out, [a.clone(), b.clone()].concat());
        assert!(error.is_some());

        // Truncated: the bytes decoded before the fault, then the error.
        let whole = gzip(&a.repeat(100));
        let (out, error) = decode("gz-truncated", &whole[..whole.len() / 2]);
        let error = error.expect("a truncated stream is an error");
        assert!(
            error.to_string().starts_with("damaged gzip data"),
            "{error}"
        );
        assert!(out.len() > a.len() * 10, "{} bytes decoded", out.len());
        assert_eq!(out[..], a.repeat(100)[..out.len()]);
    }

    #[test]
    fn truncated_zstd_is_an_error_after_the_decoded_bytes() {
        let text = b"[Event \"x\"]\n\n1. e4 e5 *\n".repeat(20_000);
        let whole = zstd::encode_all(&text[..], 3).unwrap();
        let (out, error) = decode("zst-truncated", &whole[..whole.len() - 10]);
        let error = error.expect("a truncated zstd frame is an error");
        assert!(
            error.to_string().starts_with("damaged zstd data"),
            "{error}"
        );
        assert!(out.len() > text.len() / 2, "{} bytes decoded", out.len());
        assert_eq!(out[..], text[..out.len()]);
    }
}
