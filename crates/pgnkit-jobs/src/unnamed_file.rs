//! Files without a name: what a process killed outright (a failed allocation, SIGKILL) cannot leave behind.
//! Used for `-o FILE`'s output until it is complete (the command links it into place) and for the per-move
//! rows a batch cannot keep in memory (`stats::spill`).

use std::fs::File;
use std::path::Path;

/// A file without a name in `dir`, readable and writable, with permissions `mode` (less the umask) should it
/// be given a name later; `None` where there is no such thing (not Linux, an old kernel, a file system
/// without it), and the caller falls back on a named file.
#[cfg(target_os = "linux")]
pub fn create(dir: &Path, mode: u32) -> Option<File> {
    use std::fs::OpenOptions;
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_TMPFILE)
        .mode(mode)
        .open(dir)
        .ok()
}

/// Elsewhere than Linux: none, the caller falls back on a named file.
#[cfg(not(target_os = "linux"))]
pub(crate) fn create(_dir: &Path, _mode: u32) -> Option<File> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::{Read, Seek, SeekFrom, Write};

    #[test]
    fn an_unnamed_file_holds_data_and_leaves_no_entry() {
        let dir = std::env::temp_dir().join(format!("pgnkit-unnamed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // Some file systems have no O_TMPFILE: then there is nothing to test here.
        if let Some(mut file) = create(&dir, 0o600) {
            file.write_all(b"rows").unwrap();
            file.seek(SeekFrom::Start(0)).unwrap();
            let mut back = String::new();
            file.read_to_string(&mut back).unwrap();
            assert_eq!(back, "rows");
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
