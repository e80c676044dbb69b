//! Where games come from: files, directories (searched recursively for PGN files), standard input, with
//! gzip and zstd decompression detected from the first bytes, whatever the file is called.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// One input as the user named it (or as found inside a named directory).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// The name used in diagnostics and output records (`-` for standard input).
    pub fn display_name(&self) -> String {
        match self {
            Source::Stdin => "-".to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }

    /// Size in bytes on disk, when known (for progress bars).
    pub fn size_hint(&self) -> Option<u64> {
        match self {
            Source::Stdin => None,
            Source::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
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
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::NotFound(p) => write!(f, "{}: no such file or directory", p.display()),
            InputError::Io { path, error } => write!(f, "{path}: {error}"),
            InputError::EmptyDirectory(p) => {
                write!(
                    f,
                    "{}: directory contains no .pgn, .pgn.gz or .pgn.zst file",
                    p.display()
                )
            }
        }
    }
}

impl std::error::Error for InputError {}

/// Whether a file name looks like PGN (plain or compressed), for directory searches.
pub fn is_pgn_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    [".pgn", ".pgn.gz", ".pgn.zst", ".pgn.zstd"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// Expands the command-line paths: `-` is standard input, a directory yields its PGN files (recursively, in
/// name order so output is reproducible), a file is taken as it is whatever its name.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<Source>, InputError> {
    let mut sources = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            sources.push(Source::Stdin);
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
            let before = sources.len();
            walk(path, &mut sources)?;
            if sources.len() == before {
                return Err(InputError::EmptyDirectory(path.clone()));
            }
        } else {
            sources.push(Source::File(path.clone()));
        }
    }
    Ok(sources)
}

fn walk(dir: &Path, out: &mut Vec<Source>) -> Result<(), InputError> {
    let io_err = |error| InputError::Io {
        path: dir.display().to_string(),
        error,
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io_err)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io_err)?;
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            walk(&entry, out)?;
        } else if is_pgn_name(&entry) {
            out.push(Source::File(entry));
        }
    }
    Ok(())
}

/// Compression detected from magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    pub fn sniff(head: &[u8]) -> Compression {
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
pub struct Counted<R> {
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

/// An opened input: decompressed bytes, and a shared counter of raw bytes read so far.
pub struct Opened {
    pub reader: Box<dyn Read + Send>,
    pub raw_bytes_read: std::sync::Arc<std::sync::atomic::AtomicU64>,
    pub compression: Compression,
}

/// Opens a source, decompressing gzip (also multi-member, as `cat a.gz b.gz` makes) or zstd transparently.
pub fn open(source: &Source) -> Result<Opened, InputError> {
    let raw: Box<dyn Read + Send> = match source {
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
    let reader: Box<dyn Read + Send> = match compression {
        Compression::None => Box::new(buffered),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(buffered)),
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
            Box::new(decoder)
        }
    };
    Ok(Opened {
        reader,
        raw_bytes_read: count,
        compression,
    })
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
        let names: Vec<String> = found
            .iter()
            .map(|s| match s {
                Source::File(p) => p.strip_prefix(&dir).unwrap().display().to_string(),
                Source::Stdin => "-".into(),
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
            let mut opened = open(&Source::File(path)).unwrap();
            assert_eq!(opened.compression, kind);
            let mut out = Vec::new();
            opened.reader.read_to_end(&mut out).unwrap();
            assert_eq!(out, text);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
