//! Where `convert` and `stats` write: standard output, or the file of `-o FILE`, written so that neither an
//! input nor the file already at FILE is ever destroyed by a run that fails:
//!
//! - FILE may not be one of the inputs: same device and inode, so a hard link, a symlink, another spelling of
//!   the path, a file found inside a named directory and standard input redirected from FILE (`- < FILE`) are
//!   all caught before anything is read or written;
//! - the output goes to a hidden temporary file beside FILE (same directory, so the final rename is atomic),
//!   renamed onto FILE only when the run ends with exit code 0 or 1; on exit 2, an early stop or a panic the
//!   temporary file is removed and FILE is left as it was;
//! - SIGINT, SIGTERM and SIGHUP (unless the run started with them ignored, as under `nohup`) remove the
//!   temporary file, then end the process by the same signal (the shell reports 128 + its number);
//! - `FILE.gz` is written gzip-compressed, `FILE.zst` (or `.zstd`) zstd-compressed, whatever the case.
//!
//! A FILE that exists and is not a regular file (`/dev/null`, a FIFO) is written directly: there is nothing
//! to rename onto.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::jobs::input::Source;

use super::output::{say, write_failure};

/// The temporary file being written, if any: removed by the signal handler, renamed or removed by the main
/// thread, always under this lock (so a signal cannot remove a file that is being renamed, nor can a rename
/// happen after a signal was taken).
static PENDING: Mutex<Option<PathBuf>> = Mutex::new(None);

fn pending() -> std::sync::MutexGuard<'static, Option<PathBuf>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// How the output file is compressed, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Packing {
    Plain,
    Gzip,
    Zstd,
}

/// `.gz` gzip, `.zst` or `.zstd` zstd (any letter case), anything else plain text.
pub(crate) fn packing_of(path: &Path) -> Packing {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if name.ends_with(".gz") {
        Packing::Gzip
    } else if name.ends_with(".zst") || name.ends_with(".zstd") {
        Packing::Zstd
    } else {
        Packing::Plain
    }
}

/// zstd's default level: about gzip's ratio at several times its speed.
const ZSTD_LEVEL: i32 = 3;

enum Sink {
    Stdout(io::StdoutLock<'static>),
    File(File),
    Gzip(flate2::write::GzEncoder<File>),
    Zstd(zstd::stream::write::Encoder<'static, File>),
}

impl Sink {
    fn new(file: File, packing: Packing) -> io::Result<Sink> {
        Ok(match packing {
            Packing::Plain => Sink::File(file),
            Packing::Gzip => Sink::Gzip(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::default(),
            )),
            Packing::Zstd => Sink::Zstd(zstd::stream::write::Encoder::new(file, ZSTD_LEVEL)?),
        })
    }

    /// Flushes everything, compressed streams' trailers included; the file, if the output is one.
    fn finish(self) -> io::Result<Option<File>> {
        match self {
            Sink::Stdout(mut out) => out.flush().map(|()| None),
            Sink::File(mut f) => f.flush().map(|()| Some(f)),
            Sink::Gzip(enc) => enc.finish().map(Some),
            Sink::Zstd(enc) => enc.finish().map(Some),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::File(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
            Sink::Zstd(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::File(w) => w.write_all(buf),
            Sink::Gzip(w) => w.write_all(buf),
            Sink::Zstd(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::File(w) => w.flush(),
            Sink::Gzip(w) => w.flush(),
            Sink::Zstd(w) => w.flush(),
        }
    }
}

/// The temporary file beside the target: removed when dropped unless it was renamed onto the target.
struct Temp {
    path: PathBuf,
    target: PathBuf,
    done: bool,
}

impl Temp {
    /// Creates a new hidden file in `target`'s directory (never an existing one), with the permissions of
    /// the file it will replace when there is one.
    fn create(target: &Path, replaces: Option<&fs::Metadata>) -> io::Result<(Temp, File)> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        // Cut to leave room for the suffix under the usual 255-byte limit of a file name.
        let mut name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        while name.len() > 200 {
            name.pop();
        }
        let mut slot = pending();
        let mut n = 0u32;
        loop {
            let path = dir.join(format!(".{name}.pgnkit-{}-{n}.tmp", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    if let Some(meta) = replaces {
                        // Best effort: the output keeps the mode of the file it replaces.
                        let _ = file.set_permissions(meta.permissions());
                    }
                    *slot = Some(path.clone());
                    let temp = Temp {
                        path,
                        target: target.to_path_buf(),
                        done: false,
                    };
                    return Ok((temp, file));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// Renames the temporary file onto the target.
    fn commit(mut self) -> io::Result<()> {
        let mut slot = pending();
        fs::rename(&self.path, &self.target)?;
        self.done = true;
        *slot = None;
        drop(slot);
        // Best effort: the rename itself reaches the disk (the data did, by `sync_all`, before it).
        #[cfg(unix)]
        if let Some(dir) = self.target.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.done {
            let mut slot = pending();
            let _ = fs::remove_file(&self.path);
            *slot = None;
        }
    }
}

/// The output of a run. Written through a 64 KiB buffer; [`Output::close`] ends it.
pub(crate) struct Output {
    out: BufWriter<Sink>,
    temp: Option<Temp>,
}

impl Output {
    fn new(sink: Sink, temp: Option<Temp>) -> Output {
        Output {
            out: BufWriter::with_capacity(1 << 16, sink),
            temp,
        }
    }

    /// Ends the run with exit code `code`: the output is completed (and the temporary file renamed onto the
    /// target) when `code` is 0 or 1; on 2 the temporary file is removed and the target left as it was.
    /// Returns the exit code, 2 when completing the output failed.
    pub(crate) fn close(self, code: i32) -> i32 {
        if code >= 2 {
            return code;
        }
        match self.finish() {
            Ok(()) => code,
            Err(e) => write_failure(&e),
        }
    }

    fn finish(self) -> io::Result<()> {
        let Output { out, temp } = self;
        let sink = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        let file = sink.finish()?;
        if let (Some(file), Some(temp)) = (file, temp) {
            file.sync_all()?;
            drop(file);
            temp.commit()?;
        }
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The output of a run: the file of `-o FILE` (see the module documentation), or standard output. `None`
/// once the reason is said on stderr (the exit code is then 2): FILE is one of the inputs, a directory, or
/// cannot be created.
pub(crate) fn open_output(path: Option<&Path>, sources: &[Source]) -> Option<Output> {
    let Some(path) = path else {
        return Some(Output::new(Sink::Stdout(io::stdout().lock()), None));
    };
    match open_file(path, sources) {
        Ok(output) => Some(output),
        Err(message) => {
            let _ = say(&format!("pgnkit: {message}\n"));
            None
        }
    }
}

fn open_file(path: &Path, sources: &[Source]) -> Result<Output, String> {
    let shown = path.display();
    let existing = match fs::metadata(path) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("{shown}: {e}")),
    };
    let packing = packing_of(path);
    if let Some(meta) = &existing {
        if meta.is_dir() {
            return Err(format!("{shown}: is a directory"));
        }
        if let Some(clash) = sources.iter().find(|s| is_input(s, path, meta)) {
            let clash = match clash {
                Source::Stdin => "standard input".to_string(),
                Source::File(p) => p.display().to_string(),
            };
            return Err(format!(
                "the output file {shown} is also an input ({clash}): refusing to overwrite it"
            ));
        }
        if !meta.is_file() {
            // A device or a FIFO: written in place.
            let file = File::create(path).map_err(|e| format!("{shown}: {e}"))?;
            let sink = Sink::new(file, packing).map_err(|e| format!("{shown}: {e}"))?;
            return Ok(Output::new(sink, None));
        }
    }
    // A symlink is followed: the file it names is replaced, the link kept.
    let target = match existing {
        Some(_) => fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        None => path.to_path_buf(),
    };
    clean_up_on_signals();
    let (temp, file) = Temp::create(&target, existing.as_ref())
        .map_err(|e| format!("{shown}: cannot create a temporary file beside it: {e}"))?;
    let sink = Sink::new(file, packing).map_err(|e| format!("{shown}: {e}"))?;
    Ok(Output::new(sink, Some(temp)))
}

/// Whether `source` is the existing file `path` (whose metadata is `meta`).
#[cfg(unix)]
fn is_input(source: &Source, _path: &Path, meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    let source_meta = match source {
        Source::File(p) => fs::metadata(p).ok(),
        Source::Stdin => stdin_metadata(),
    };
    source_meta.is_some_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino())
}

/// What standard input is: a file, a pipe, a terminal.
#[cfg(unix)]
fn stdin_metadata() -> Option<fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    File::from(fd).metadata().ok()
}

/// Without inodes: the same canonical path (standard input cannot be told apart).
#[cfg(not(unix))]
fn is_input(source: &Source, path: &Path, _meta: &fs::Metadata) -> bool {
    match (source, path.canonicalize()) {
        (Source::File(p), Ok(out)) => p.canonicalize().is_ok_and(|p| p == out),
        _ => false,
    }
}

/// Installs, once, a thread that takes SIGINT, SIGTERM and SIGHUP: it removes the temporary file being
/// written, then ends the process by the same signal. A signal the run started with ignored (`nohup`, a
/// background job of a non-interactive shell) stays ignored.
#[cfg(unix)]
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let wanted: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&sig| !ignored(sig))
            .collect();
        let Ok(mut signals) = signal_hook::iterator::Signals::new(&wanted) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("pgnkit-signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    // The lock is kept to the end: the main thread cannot rename the file meanwhile.
                    let mut slot = pending();
                    if let Some(path) = slot.take() {
                        let _ = fs::remove_file(path);
                    }
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    signal_hook::low_level::exit(128 + sig);
                }
            });
    });
}

#[cfg(not(unix))]
fn clean_up_on_signals() {}

/// Whether `sig` is ignored (inherited from the parent process).
#[cfg(unix)]
fn ignored(sig: i32) -> bool {
    // SAFETY: `sigaction` with a null new action only writes the current one into `old`, a plain C struct
    // for which all zeroes is a valid value.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-sink-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn packing_follows_the_extension_in_any_case() {
        for (name, want) in [
            ("out.pgn", Packing::Plain),
            ("out.pgn.gz", Packing::Gzip),
            ("OUT.PGN.GZ", Packing::Gzip),
            ("out.csv.zst", Packing::Zstd),
            ("out.csv.ZSTD", Packing::Zstd),
            ("gz", Packing::Plain),
            ("out.gz.pgn", Packing::Plain),
        ] {
            assert_eq!(packing_of(Path::new(name)), want, "{name}");
        }
    }

    #[test]
    fn the_target_is_replaced_only_when_the_run_ends_well() {
        let dir = temp_dir("close");
        let target = dir.join("out.txt");
        fs::write(&target, "before").unwrap();
        for (code, want) in [(2, "before"), (1, "after 1"), (0, "after 0")] {
            let mut out = open_output(Some(&target), &[]).unwrap();
            out.write_all(format!("after {code}").as_bytes()).unwrap();
            assert_eq!(entries(&dir).len(), 2, "a temporary file beside the target");
            assert_eq!(out.close(code), code);
            assert_eq!(fs::read_to_string(&target).unwrap(), want);
            assert_eq!(entries(&dir), ["out.txt"], "no temporary file left");
        }
        // Dropped without closing (an early return, a panic): nothing changes either.
        let mut out = open_output(Some(&target), &[]).unwrap();
        out.write_all(b"lost").unwrap();
        drop(out);
        assert_eq!(fs::read_to_string(&target).unwrap(), "after 0");
        assert_eq!(entries(&dir), ["out.txt"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_long_name_still_has_room_for_the_temporary_one() {
        let dir = temp_dir("long");
        let target = dir.join(format!("{}.pgn", "é".repeat(120)));
        let mut out = open_output(Some(&target), &[]).unwrap();
        out.write_all(b"x").unwrap();
        assert_eq!(out.close(0), 0);
        assert_eq!(fs::read(&target).unwrap(), b"x");
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("mode");
        let target = dir.join("out.txt");
        fs::write(&target, "before").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let out = open_output(Some(&target), &[]).unwrap();
        assert_eq!(out.close(0), 0);
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn inputs_are_recognised_by_inode() {
        let dir = temp_dir("inode");
        let input = dir.join("in.pgn");
        fs::write(&input, "x").unwrap();
        let link = dir.join("hard.pgn");
        fs::hard_link(&input, &link).unwrap();
        let copy = dir.join("copy.pgn");
        fs::write(&copy, "x").unwrap();
        let sources = [Source::File(input.clone())];
        assert!(open_output(Some(&link), &sources).is_none());
        assert!(open_output(Some(&dir.join(".").join("in.pgn")), &sources).is_none());
        assert!(open_output(Some(&copy), &sources).is_some());
        assert_eq!(fs::read_to_string(&input).unwrap(), "x");
        let _ = fs::remove_dir_all(&dir);
    }
}
