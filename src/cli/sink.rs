//! Where `convert`, `stats`, `select`, `standings` and `report` write: standard output, or the file of
//! `-o FILE`, written so that neither an input nor the file already at FILE is ever destroyed by a run that
//! fails; and the staging of `select --split`'s directory. The outputs were checked before (`plan`): none is
//! an input, no two are one file, their directories exist.
//!
//! - The output goes to a temporary file in FILE's directory (so the final rename is atomic), put onto FILE
//!   only when the run ends with exit code 0 or 1; on exit 2, an early stop or a panic it is removed and FILE
//!   is left as it was. On Linux the temporary file has no name until then (`O_TMPFILE`): a process that dies
//!   without a chance to clean up (out of memory, SIGKILL) leaves nothing behind. Elsewhere, or on a file
//!   system without unnamed files, it is a hidden file beside FILE.
//! - A split is written into a hidden directory beside DIR, renamed onto DIR when the run completes: DIR
//!   appears whole or not at all, and the rename fails (exit 2) when DIR was filled meanwhile.
//! - SIGINT, SIGTERM and SIGHUP (unless the run started with them ignored, as under `nohup`) remove every
//!   temporary file and directory of the run, then end the process by the same signal (the shell reports
//!   128 + its number). SIGXFSZ (a file over `ulimit -f`) is ignored, so that such a write fails as a full
//!   disk does, with exit 2, instead of killing the process.
//! - `FILE.gz` is written gzip-compressed, `FILE.zst` (or `.zstd`) zstd-compressed, whatever the case.
//!
//! A FILE that exists and is not a regular file (`/dev/null`, a FIFO) is written directly: there is nothing
//! to rename onto.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::jobs::run::Source;

use super::output::{locale, say, write_failure};
use super::plan::{Kind, Planned, Request, plan};

/// A temporary file or directory of the run, with a name: removed by the signal handler.
struct Pending {
    path: PathBuf,
    directory: bool,
}

impl Pending {
    fn remove(&self) {
        let _ = if self.directory {
            fs::remove_dir_all(&self.path)
        } else {
            fs::remove_file(&self.path)
        };
    }
}

/// Every named temporary file and directory being written. Added to, renamed and removed only under this
/// lock, and the signal handler keeps it to the end: a signal cannot remove what is being renamed into
/// place, and nothing is renamed or created after a signal was taken.
static PENDING: Mutex<Vec<Pending>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<Pending>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn forget(list: &mut Vec<Pending>, path: &Path) {
    list.retain(|p| p.path != path);
}

/// Removes every pending file and directory (what a signal does before ending the process).
fn remove_pending(list: &mut Vec<Pending>) {
    for entry in list.drain(..) {
        entry.remove();
    }
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

/// A hidden name beside `target` for attempt `n`: `.NAME.pgnkit-PID-N.tmp`, NAME cut to leave room for the
/// rest under the usual 255-byte limit of a file name.
fn hidden_name(target: &Path, n: u32) -> PathBuf {
    let mut name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    while name.len() > 200 {
        name.pop();
    }
    directory_of(target).join(format!(".{name}.pgnkit-{}-{n}.tmp", std::process::id()))
}

fn directory_of(target: &Path) -> &Path {
    match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Tries `attempt` on hidden names beside `target` until one is free.
fn on_a_free_name<T>(
    target: &Path,
    mut attempt: impl FnMut(&Path) -> io::Result<T>,
) -> io::Result<(PathBuf, T)> {
    let mut n = 0u32;
    loop {
        let path = hidden_name(target, n);
        match attempt(&path) {
            Ok(made) => return Ok((path, made)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Where the output is written until the run completes.
enum Staging {
    /// A file without a name in the target's directory (Linux's `O_TMPFILE`), given one at the end.
    Unnamed,
    /// A hidden file beside the target, registered in [`PENDING`].
    Named(PathBuf),
}

/// The temporary file of an output: removed when dropped unless it was put in place.
struct Temp {
    staging: Staging,
    target: PathBuf,
    done: bool,
}

impl Temp {
    /// A new temporary file for `target`, with the permissions of the file it will replace when there is
    /// one.
    fn create(target: &Path, replaces: Option<&fs::Metadata>) -> io::Result<(Temp, File)> {
        let (staging, file) = match crate::jobs::unnamed_file::create(directory_of(target), 0o666) {
            Some(file) => (Staging::Unnamed, file),
            None => {
                let (path, file) = create_named(target)?;
                (Staging::Named(path), file)
            }
        };
        if let Some(meta) = replaces {
            // Best effort: the output keeps the mode of the file it replaces.
            let _ = file.set_permissions(meta.permissions());
        }
        let temp = Temp {
            staging,
            target: target.to_path_buf(),
            done: false,
        };
        Ok((temp, file))
    }

    /// Puts the temporary file, whose data is written and synced, onto the target.
    fn commit(mut self, file: &File) -> io::Result<()> {
        let mut list = pending();
        match &self.staging {
            Staging::Named(path) => {
                fs::rename(path, &self.target)?;
                forget(&mut list, path);
            }
            Staging::Unnamed => {
                let named = name_unnamed(file, &self.target, &mut list)?;
                let renamed = fs::rename(&named, &self.target);
                if renamed.is_err() {
                    let _ = fs::remove_file(&named);
                }
                forget(&mut list, &named);
                renamed?;
            }
        }
        self.done = true;
        drop(list);
        sync_directory(directory_of(&self.target));
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let (false, Staging::Named(path)) = (self.done, &self.staging) {
            let mut list = pending();
            let _ = fs::remove_file(path);
            forget(&mut list, path);
        }
    }
}

/// A new hidden file beside `target`, registered in [`PENDING`].
fn create_named(target: &Path) -> io::Result<(PathBuf, File)> {
    let mut list = pending();
    let (path, file) = on_a_free_name(target, |path| {
        OpenOptions::new().write(true).create_new(true).open(path)
    })?;
    list.push(Pending {
        path: path.clone(),
        directory: false,
    });
    Ok((path, file))
}

/// Gives the unnamed `file` a hidden name beside `target` (registered in `list`, whose lock the caller
/// holds): a link through `/proc/self/fd`, or where that fails (no `/proc`), a copy.
#[cfg(target_os = "linux")]
fn name_unnamed(file: &File, target: &Path, list: &mut Vec<Pending>) -> io::Result<PathBuf> {
    use std::ffi::CString;
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    let from = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let linked = on_a_free_name(target, |path| {
        let to = CString::new(path.as_os_str().as_bytes())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        // SAFETY: both paths are NUL-terminated strings that outlive the call.
        let done = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if done == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    });
    match linked {
        Ok((path, ())) => {
            list.push(Pending {
                path: path.clone(),
                directory: false,
            });
            Ok(path)
        }
        Err(_) => copy_to_a_named_file(file, target, list),
    }
}

#[cfg(not(target_os = "linux"))]
fn name_unnamed(file: &File, target: &Path, list: &mut Vec<Pending>) -> io::Result<PathBuf> {
    copy_to_a_named_file(file, target, list)
}

/// A hidden file beside `target` holding what `file` holds.
fn copy_to_a_named_file(
    file: &File,
    target: &Path,
    list: &mut Vec<Pending>,
) -> io::Result<PathBuf> {
    use std::io::Seek;
    let (path, mut copy) = on_a_free_name(target, |path| {
        OpenOptions::new().write(true).create_new(true).open(path)
    })?;
    list.push(Pending {
        path: path.clone(),
        directory: false,
    });
    let copied = (|| {
        let mut source = file;
        source.seek(io::SeekFrom::Start(0))?;
        io::copy(&mut source, &mut copy)?;
        copy.set_permissions(file.metadata()?.permissions())?;
        copy.sync_all()
    })();
    if let Err(e) = copied {
        let _ = fs::remove_file(&path);
        forget(list, &path);
        return Err(e);
    }
    Ok(path)
}

/// Best effort: a rename in `dir` reaches the disk.
fn sync_directory(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// The hidden directory a split is written into, renamed onto its target when the run completes; removed
/// when dropped otherwise.
pub(crate) struct StagedDir {
    path: PathBuf,
    target: PathBuf,
    done: bool,
}

/// Why a staged directory could not be put in place.
pub(crate) enum PlaceFailure {
    /// The target is no longer empty (another run, or someone, wrote into it meanwhile).
    Filled,
    Io(io::Error),
}

impl StagedDir {
    /// A new hidden directory beside `target`, with the permissions of the empty directory it will replace
    /// when there is one.
    pub(crate) fn create(target: &Path, replaces: Option<&fs::Metadata>) -> io::Result<StagedDir> {
        clean_up_on_signals();
        let mut list = pending();
        let (path, ()) = on_a_free_name(target, |path| fs::create_dir(path))?;
        list.push(Pending {
            path: path.clone(),
            directory: true,
        });
        if let Some(meta) = replaces {
            let _ = fs::set_permissions(&path, meta.permissions());
        }
        Ok(StagedDir {
            path,
            target: target.to_path_buf(),
            done: false,
        })
    }

    /// Opens `name` in the directory for appending, creating it when missing. Under the pending lock: a
    /// signal that is removing the directory cannot have a file created in it meanwhile.
    pub(crate) fn append(&self, name: &str) -> io::Result<File> {
        let _list = pending();
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.path.join(name))
    }

    /// Renames the directory onto its target, which must be missing or empty.
    pub(crate) fn commit(mut self) -> Result<(), PlaceFailure> {
        sync_file_system(&self.path);
        let mut list = pending();
        if let Err(e) = fs::rename(&self.path, &self.target) {
            let filled = matches!(
                e.raw_os_error(),
                Some(code) if code == directory_not_empty() || code == libc_eexist()
            );
            return Err(if filled {
                PlaceFailure::Filled
            } else {
                PlaceFailure::Io(e)
            });
        }
        forget(&mut list, &self.path);
        self.done = true;
        drop(list);
        sync_directory(directory_of(&self.target));
        Ok(())
    }
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.done {
            let mut list = pending();
            let _ = fs::remove_dir_all(&self.path);
            forget(&mut list, &self.path);
        }
    }
}

#[cfg(unix)]
fn directory_not_empty() -> i32 {
    libc::ENOTEMPTY
}

#[cfg(unix)]
fn libc_eexist() -> i32 {
    libc::EEXIST
}

#[cfg(not(unix))]
fn directory_not_empty() -> i32 {
    // ERROR_DIR_NOT_EMPTY
    145
}

#[cfg(not(unix))]
fn libc_eexist() -> i32 {
    // ERROR_ALREADY_EXISTS
    183
}

/// Best effort: the files of a split reach the disk before their directory is put in place. One call for
/// the file system, not one per group file (a split may have thousands).
fn sync_file_system(dir: &Path) {
    #[cfg(target_os = "linux")]
    if let Ok(d) = File::open(dir) {
        use std::os::fd::AsRawFd;
        // SAFETY: `syncfs` takes any open descriptor and only reads it.
        unsafe {
            libc::syncfs(d.as_raw_fd());
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = dir;
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

    /// The directory the output is written in before it is put in place (the target's), when it is a file
    /// put in place at the end: where other temporary files of the run may go, on the same disk.
    pub(crate) fn staging_dir(&self) -> Option<&Path> {
        self.temp.as_ref().map(|t| directory_of(&t.target))
    }

    /// Ends the run with exit code `code`: the output is completed (and the temporary file put onto the
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
            temp.commit(&file)?;
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

/// The output of a run with one output: the file of `-o FILE` (checked by [`plan`], see the module
/// documentation), or standard output. `None` once the reason is said on stderr (the exit code is then 2).
pub(crate) fn open_output(path: Option<&Path>, sources: &[Source]) -> Option<Output> {
    let Some(path) = path else {
        return Some(Output::new(Sink::Stdout(io::stdout().lock()), None));
    };
    let request = Request {
        option: "-o",
        path,
        kind: Kind::File,
    };
    match plan(&[request], sources) {
        Ok(planned) => open_planned(&planned[0]),
        Err(refusal) => {
            let _ = say(&format!("pgnkit: {}\n", refusal.message(locale())));
            None
        }
    }
}

/// Opens a file output that [`plan`] checked. `None` once the reason is said on stderr.
pub(crate) fn open_planned(planned: &Planned) -> Option<Output> {
    match open_file(planned) {
        Ok(output) => Some(output),
        Err(e) => {
            let _ = say(&format!(
                "pgnkit: {}: {e}\n",
                crate::jobs::safe_text::safe(&planned.given.display().to_string())
            ));
            None
        }
    }
}

fn open_file(planned: &Planned) -> io::Result<Output> {
    let packing = packing_of(&planned.target);
    if planned.in_place() {
        let file = OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&planned.target)?;
        return Ok(Output::new(Sink::new(file, packing)?, None));
    }
    clean_up_on_signals();
    let (temp, file) = Temp::create(&planned.target, planned.existing.as_ref())?;
    Ok(Output::new(Sink::new(file, packing)?, Some(temp)))
}

/// Installs, once, a thread that takes SIGINT, SIGTERM and SIGHUP: it removes every temporary file and
/// directory being written, then ends the process by the same signal. A signal the run started with ignored
/// (`nohup`, a background job of a non-interactive shell) stays ignored. SIGXFSZ is ignored.
#[cfg(unix)]
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: setting a signal's disposition to SIG_IGN runs no code in the signal's context.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        }
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
                    // The lock is kept to the end: the main thread cannot rename or create meanwhile.
                    let mut list = pending();
                    remove_pending(&mut list);
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
            // On Linux the temporary file has no name; elsewhere it is beside the target.
            let visible = if cfg!(target_os = "linux") { 1 } else { 2 };
            assert_eq!(entries(&dir).len(), visible);
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

    #[test]
    fn every_named_temporary_file_and_directory_is_removed_on_a_signal() {
        let dir = temp_dir("pending");
        let (a, _) = create_named(&dir.join("out.pgn")).unwrap();
        let (b, _) = create_named(&dir.join("dups.pgn")).unwrap();
        let staged = StagedDir::create(&dir.join("split"), None).unwrap();
        fs::write(staged.path.join("group.pgn"), "x").unwrap();
        let ours = [a, b, staged.path.clone()];
        assert_eq!(entries(&dir).len(), 3);
        // What the signal thread does, on this test's entries only (other tests run beside it).
        let mut taken: Vec<Pending> = {
            let mut list = pending();
            let (taken, rest) = list.drain(..).partition(|p| ours.contains(&p.path));
            *list = rest;
            taken
        };
        assert_eq!(taken.len(), 3, "each one registered");
        remove_pending(&mut taken);
        assert_eq!(entries(&dir), Vec::<String>::new());
        drop(staged);
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_unnamed_file_is_copied_where_it_cannot_be_linked() {
        let dir = temp_dir("copy");
        let target = dir.join("out.pgn");
        // A file system without unnamed files has nothing to copy: the named path is the one taken.
        let Some(mut file) = crate::jobs::unnamed_file::create(&dir, 0o666) else {
            return;
        };
        file.write_all(b"all of it").unwrap();
        let named = {
            let mut list = pending();
            let path = copy_to_a_named_file(&file, &target, &mut list).unwrap();
            assert!(list.iter().any(|p| p.path == path), "registered");
            forget(&mut list, &path);
            path
        };
        assert_eq!(fs::read(&named).unwrap(), b"all of it");
        assert!(
            named
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".out.pgn.pgnkit-")
        );
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
