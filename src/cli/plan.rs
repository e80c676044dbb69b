//! Every output of a run, checked before any input is read: where each one goes once the symbolic links
//! naming it are followed, that it can be written there, that it is no input, and that no two outputs are
//! the same file. A run that fails these checks stops with exit 2 having read and written nothing.
//!
//! Two outputs are the same file when their directories are the same directory (device and inode, so any
//! spelling, `./x.pgn` or `dir/../x.pgn`, and any link to the directory compare alike) and their names are
//! equal, or when both exist and are the same file (a hard link). A file output inside a `--split`
//! directory is refused: that directory holds the group files only, and it is put in place whole at the end.

use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::jobs::localized;
use crate::jobs::messages::Locale;
use crate::jobs::run::Source;

use crate::jobs::safe_text;

/// What an output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A file, replaced when the run completes (`-o FILE`, `--duplicates FILE`).
    File,
    /// A directory of files, put in place when the run completes (`--split BY -o DIR`): new or empty.
    Directory,
}

/// One output a run asks for.
pub(crate) struct Request<'a> {
    /// The option that names it, for messages: `-o`, `--duplicates`.
    pub(crate) option: &'static str,
    pub(crate) path: &'a Path,
    pub(crate) kind: Kind,
}

/// How a file or directory is told apart from every other: device and inode.
#[cfg(unix)]
type FileId = (u64, u64);
/// Without inodes: the canonical path.
#[cfg(not(unix))]
type FileId = PathBuf;

#[cfg(unix)]
fn file_id(_path: &Path, meta: &fs::Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn file_id(path: &Path, _meta: &fs::Metadata) -> FileId {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// An output that passed the checks.
#[derive(Debug)]
pub(crate) struct Planned {
    pub(crate) option: &'static str,
    /// The path as given, for messages.
    pub(crate) given: PathBuf,
    pub(crate) kind: Kind,
    /// Where the output goes: the given path with the links of its last component followed, in its
    /// canonical directory.
    pub(crate) target: PathBuf,
    /// What is at `target` now (never a symbolic link), if anything.
    pub(crate) existing: Option<fs::Metadata>,
    /// `target`'s directory; with the name, the output's identity before it exists.
    dir: FileId,
    name: OsString,
}

impl Planned {
    /// Whether the output is written in place, without a temporary file: an existing device or FIFO.
    pub(crate) fn in_place(&self) -> bool {
        self.existing
            .as_ref()
            .is_some_and(|m| !m.is_file() && !m.is_dir())
    }

    fn existing_id(&self) -> Option<FileId> {
        self.existing.as_ref().map(|m| file_id(&self.target, m))
    }

    /// Whether `self` and `other` would write the same file.
    fn same_file_as(&self, other: &Planned) -> bool {
        if self.dir == other.dir && self.name == other.name {
            return true;
        }
        match (self.existing_id(), other.existing_id()) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }
}

/// Why the outputs of a run were refused. Paths are as the user gave them.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The path or its directory could not be examined.
    Unreadable { given: PathBuf, error: io::Error },
    /// A file output that names an existing directory.
    IsADirectory { given: PathBuf },
    /// A file output that ends with `/` (or `/.`): a directory's name.
    DirectoryName { given: PathBuf },
    /// A path that names no file at all: `/`, `..`.
    NoFileName { given: PathBuf },
    /// The directory the output would go into does not exist.
    MissingDirectory { given: PathBuf, dir: PathBuf },
    /// What should be the output's directory is a file.
    NotADirectory { given: PathBuf, dir: PathBuf },
    /// The symbolic links of the path lead round in a circle (or through too many links).
    LinkLoop { given: PathBuf },
    /// `--split`'s directory exists and is a file.
    SplitNotADirectory { given: PathBuf },
    /// `--split`'s directory holds something.
    SplitNotEmpty { given: PathBuf },
    /// The output file is one of the inputs (`input` as shown in the run: a path, or standard input).
    IsInput {
        given: PathBuf,
        input: Option<PathBuf>,
    },
    /// Two outputs of one run are one file.
    SameFile {
        first: (&'static str, PathBuf),
        second: (&'static str, PathBuf),
    },
    /// A file output inside the `--split` directory.
    InsideSplit {
        option: &'static str,
        given: PathBuf,
        dir: PathBuf,
    },
}

fn shown(path: &Path) -> String {
    safe_text::safe(&path.display().to_string()).into_owned()
}

impl Refusal {
    /// The message, in `locale`, without the `pgnkit: ` prefix or a newline.
    pub(crate) fn message(&self, locale: Locale) -> String {
        match self {
            Refusal::Unreadable { given, error } => format!("{}: {error}", shown(given)),
            Refusal::IsADirectory { given } => localized!(
                locale,
                "{}: is a directory",
                "{} : est un répertoire",
                shown(given)
            ),
            Refusal::DirectoryName { given } => localized!(
                locale,
                "{}: ends with /, a directory's name: give a file's",
                "{} : se termine par /, un nom de répertoire : donnez un nom de fichier",
                shown(given)
            ),
            Refusal::NoFileName { given } => localized!(
                locale,
                "{}: names no file",
                "{} : ne nomme aucun fichier",
                shown(given)
            ),
            Refusal::MissingDirectory { given, dir } => localized!(
                locale,
                "{}: the directory {} does not exist (create it first)",
                "{} : le répertoire {} n'existe pas (créez-le d'abord)",
                shown(given),
                shown(dir)
            ),
            Refusal::NotADirectory { given, dir } => localized!(
                locale,
                "{}: {} is not a directory",
                "{} : {} n'est pas un répertoire",
                shown(given),
                shown(dir)
            ),
            Refusal::LinkLoop { given } => localized!(
                locale,
                "{}: too many levels of symbolic links (a loop?)",
                "{} : trop de liens symboliques à suivre (une boucle ?)",
                shown(given)
            ),
            Refusal::SplitNotADirectory { given } => localized!(
                locale,
                "--split writes into {}, which is not a directory: give a new or empty directory",
                "--split écrit dans {}, qui n'est pas un répertoire : donnez un répertoire nouveau ou vide",
                shown(given)
            ),
            Refusal::SplitNotEmpty { given } => localized!(
                locale,
                "--split writes into {}, which is not empty: give a new or empty directory",
                "--split écrit dans {}, qui n'est pas vide : donnez un répertoire nouveau ou vide",
                shown(given)
            ),
            Refusal::IsInput { given, input } => is_input_message(given, input.as_deref(), locale),
            Refusal::SameFile { first, second } => localized!(
                locale,
                "{} {} and {} {} are the same file: give each output its own",
                "{} {} et {} {} sont le même fichier : donnez à chaque sortie le sien",
                first.0,
                shown(&first.1),
                second.0,
                shown(&second.1)
            ),
            Refusal::InsideSplit { option, given, dir } => localized!(
                locale,
                "{} {} is inside the --split directory {}, which holds the group files only: write it elsewhere",
                "{} {} est dans le répertoire de --split {}, qui ne reçoit que les fichiers des groupes : écrivez-le ailleurs",
                option,
                shown(given),
                shown(dir)
            ),
        }
    }
}

/// [`Refusal::IsInput`]'s message: `input` is `None` for standard input.
fn is_input_message(given: &Path, input: Option<&Path>, locale: Locale) -> String {
    let input = match (input, locale) {
        (Some(p), _) => shown(p),
        (None, Locale::En) => "standard input".to_string(),
        (None, Locale::Fr) => "l'entrée standard".to_string(),
    };
    localized!(
        locale,
        "the output file {} is also an input ({}): refusing to overwrite it",
        "le fichier de sortie {} est aussi une entrée ({}) : il ne sera pas écrasé",
        shown(given),
        input
    )
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Locale::En))
    }
}

/// Checks the outputs of a run against each other and against its inputs, before anything is read or
/// written; the outputs in the order asked.
pub(crate) fn plan(requests: &[Request], sources: &[Source]) -> Result<Vec<Planned>, Refusal> {
    let split = requests.iter().find(|r| r.kind == Kind::Directory);
    // Said before the checks of each path: a file inside a split directory that does not exist yet would
    // otherwise be refused for its missing directory, which is not what is wrong.
    if let Some(split) = split {
        let dir = lexical_absolute(split.path);
        for request in requests.iter().filter(|r| r.kind == Kind::File) {
            let file = lexical_absolute(request.path);
            if file != dir && file.starts_with(&dir) {
                return Err(inside_split(request, split.path));
            }
        }
    }
    let planned = requests
        .iter()
        .map(resolve)
        .collect::<Result<Vec<_>, _>>()?;
    for output in planned.iter().filter(|p| p.kind == Kind::File) {
        if let Some(meta) = &output.existing
            && let Some(input) = sources.iter().find(|s| is_input(s, &output.target, meta))
        {
            return Err(Refusal::IsInput {
                given: output.given.clone(),
                input: match input {
                    Source::Stdin | Source::Text { .. } => None,
                    Source::File(p) => Some(p.clone()),
                },
            });
        }
    }
    for (i, first) in planned.iter().enumerate() {
        for second in &planned[i + 1..] {
            // Devices (`/dev/null`) are written in place: two outputs may share one.
            let devices = first.in_place() && second.in_place();
            if !devices && first.same_file_as(second) {
                return Err(Refusal::SameFile {
                    first: (first.option, first.given.clone()),
                    second: (second.option, second.given.clone()),
                });
            }
        }
    }
    if let Some(split) = planned.iter().find(|p| p.kind == Kind::Directory) {
        for output in planned.iter().filter(|p| p.kind == Kind::File) {
            if output.target.starts_with(&split.target) {
                return Err(Refusal::InsideSplit {
                    option: output.option,
                    given: output.given.clone(),
                    dir: split.given.clone(),
                });
            }
        }
    }
    Ok(planned)
}

fn inside_split(request: &Request, dir: &Path) -> Refusal {
    Refusal::InsideSplit {
        option: request.option,
        given: request.path.to_path_buf(),
        dir: dir.to_path_buf(),
    }
}

/// `path` from the root, `.` and `..` taken as written (links not followed): the first, cheap look at where
/// a path points.
fn lexical_absolute(path: &Path) -> PathBuf {
    let full = match std::env::current_dir() {
        Ok(cwd) => cwd.join(path),
        Err(_) => path.to_path_buf(),
    };
    let mut out = PathBuf::new();
    for component in full.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The most symbolic links followed to an output, as Linux's own limit (`ELOOP` past 40).
const MAX_LINKS: usize = 40;

/// Where `request` goes, and what is there.
fn resolve(request: &Request) -> Result<Planned, Refusal> {
    let given = request.path.to_path_buf();
    if given.as_os_str().is_empty() {
        return Err(Refusal::NoFileName { given });
    }
    match fs::metadata(&given) {
        Ok(meta) if request.kind == Kind::File && meta.is_dir() => {
            Err(Refusal::IsADirectory { given })
        }
        Ok(_) if request.kind == Kind::File && ends_as_a_directory(&given) => {
            Err(Refusal::DirectoryName { given })
        }
        // A device or a FIFO (`/dev/null`, `/dev/stdout` on a pipe): written in place, through its path
        // as given; the links that lead to it may be the system's own (`/proc/self/fd/1`), which no
        // path spells.
        Ok(meta) if !meta.is_file() && !meta.is_dir() => Ok(Planned {
            option: request.option,
            dir: file_id(&given, &meta),
            name: OsString::new(),
            target: given.clone(),
            given,
            kind: request.kind,
            existing: Some(meta),
        }),
        // Links followed by the system.
        Ok(_) => match fs::canonicalize(&given) {
            Ok(real) => locate(request, given, real),
            Err(error) => Err(Refusal::Unreadable { given, error }),
        },
        Err(e) if e.raw_os_error() == Some(too_many_links()) => Err(Refusal::LinkLoop { given }),
        Err(e)
            if e.kind() == io::ErrorKind::NotFound || e.raw_os_error() == Some(libc_enotdir()) =>
        {
            let path = follow_dangling_links(&given)?;
            locate(request, given, path)
        }
        Err(error) => Err(Refusal::Unreadable { given, error }),
    }
}

/// `given` with the symbolic links of its last component followed by hand, for a path that does not
/// exist: a dangling link leads to the file it names, which the output creates (the link kept).
fn follow_dangling_links(given: &Path) -> Result<PathBuf, Refusal> {
    let mut path = given.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&path).map_err(|error| Refusal::Unreadable {
                    given: given.to_path_buf(),
                    error,
                })?;
                path = match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(Refusal::LinkLoop {
        given: given.to_path_buf(),
    })
}

/// The output `given` at `path` (no link left on its last component): its directory checked, what is
/// there now.
fn locate(request: &Request, given: PathBuf, path: PathBuf) -> Result<Planned, Refusal> {
    let unreadable = |error| Refusal::Unreadable {
        given: given.clone(),
        error,
    };
    let names_a_directory = ends_as_a_directory(&given);
    let Some(name) = path.file_name().map(|n| n.to_os_string()) else {
        return Err(Refusal::NoFileName { given });
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let canonical_dir = match fs::canonicalize(&dir) {
        Ok(d) => d,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(Refusal::MissingDirectory {
                given,
                dir: missing_part(&dir),
            });
        }
        Err(e) if e.raw_os_error() == Some(libc_enotdir()) => {
            return Err(Refusal::NotADirectory {
                given,
                dir: first_file(&dir).unwrap_or(dir),
            });
        }
        Err(e) => return Err(unreadable(e)),
    };
    let dir_meta = fs::metadata(&canonical_dir).map_err(unreadable)?;
    if !dir_meta.is_dir() {
        return Err(Refusal::NotADirectory { given, dir });
    }
    let target = canonical_dir.join(&name);
    let existing = match fs::metadata(&target) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(unreadable(e)),
    };
    match request.kind {
        Kind::File => match &existing {
            Some(meta) if meta.is_dir() => return Err(Refusal::IsADirectory { given }),
            _ if names_a_directory => return Err(Refusal::DirectoryName { given }),
            _ => {}
        },
        Kind::Directory => match &existing {
            Some(meta) if !meta.is_dir() => return Err(Refusal::SplitNotADirectory { given }),
            Some(_) => {
                let mut entries = fs::read_dir(&target).map_err(unreadable)?;
                if entries.next().is_some() {
                    return Err(Refusal::SplitNotEmpty { given });
                }
            }
            None => {}
        },
    }
    Ok(Planned {
        option: request.option,
        given,
        kind: request.kind,
        target,
        existing,
        dir: file_id(&canonical_dir, &dir_meta),
        name,
    })
}

/// Whether a path is written as a directory's: ending with `/`, `/.` or `/..`.
fn ends_as_a_directory(path: &Path) -> bool {
    // Bytes, not components: `Path` drops a trailing `/` and `/.` from its components.
    let text = path.as_os_str().as_encoded_bytes();
    text.ends_with(b"/")
        || text.ends_with(b"/.")
        || text.ends_with(b"/..")
        || text == b"."
        || text == b".."
}

/// The first directory of `dir` that does not exist (what the user must create).
fn missing_part(dir: &Path) -> PathBuf {
    let mut missing = dir.to_path_buf();
    for ancestor in dir.ancestors().skip(1) {
        if ancestor.as_os_str().is_empty() || fs::symlink_metadata(ancestor).is_ok() {
            break;
        }
        missing = ancestor.to_path_buf();
    }
    missing
}

/// The first part of `dir` that exists and is not a directory.
fn first_file(dir: &Path) -> Option<PathBuf> {
    let mut parts: Vec<&Path> = dir.ancestors().collect();
    parts.reverse();
    parts
        .into_iter()
        .filter(|p| !p.as_os_str().is_empty())
        .find(|p| fs::metadata(p).is_ok_and(|m| !m.is_dir()))
        .map(Path::to_path_buf)
}

#[cfg(unix)]
fn libc_enotdir() -> i32 {
    libc::ENOTDIR
}

#[cfg(unix)]
fn too_many_links() -> i32 {
    libc::ELOOP
}

#[cfg(not(unix))]
fn too_many_links() -> i32 {
    // ERROR_CANT_RESOLVE_FILENAME
    1921
}

#[cfg(not(unix))]
fn libc_enotdir() -> i32 {
    // ERROR_DIRECTORY
    267
}

/// Whether `source` is the existing file whose metadata is `meta`.
#[cfg(unix)]
fn is_input(source: &Source, _target: &Path, meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    let source_meta = match source {
        Source::File(p) => fs::metadata(p).ok(),
        Source::Stdin => stdin_metadata(),
        Source::Text { .. } => None,
    };
    source_meta.is_some_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino())
}

/// What standard input is: a file, a pipe, a terminal.
#[cfg(unix)]
fn stdin_metadata() -> Option<fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    fs::File::from(fd).metadata().ok()
}

/// Without inodes: the same canonical path (standard input cannot be told apart).
#[cfg(not(unix))]
fn is_input(source: &Source, target: &Path, _meta: &fs::Metadata) -> bool {
    match source {
        Source::File(p) => p.canonicalize().is_ok_and(|p| p == target),
        Source::Stdin | Source::Text { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-plan-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // Canonical, so that the targets compare with paths built from it.
        fs::canonicalize(dir).unwrap()
    }

    fn file<'a>(option: &'static str, path: &'a Path) -> Request<'a> {
        Request {
            option,
            path,
            kind: Kind::File,
        }
    }

    fn split(path: &Path) -> Request<'_> {
        Request {
            option: "-o",
            path,
            kind: Kind::Directory,
        }
    }

    #[test]
    fn two_spellings_of_one_new_file_are_the_same_file() {
        let dir = temp_dir("spellings");
        fs::create_dir(dir.join("sub")).unwrap();
        let a = dir.join("x.pgn");
        for b in [
            dir.join(".").join("x.pgn"),
            dir.join("sub/../x.pgn"),
            dir.join("sub").join("..").join(".").join("x.pgn"),
        ] {
            let refused = plan(&[file("-o", &a), file("--duplicates", &b)], &[]).unwrap_err();
            assert!(
                matches!(&refused, Refusal::SameFile { first, second }
                    if first == &("-o", a.clone()) && second == &("--duplicates", b.clone())),
                "{b:?}: {refused:?}"
            );
            let message = refused.message(Locale::En);
            assert!(
                message.contains(&a.display().to_string())
                    && message.contains(&b.display().to_string()),
                "both named: {message}"
            );
        }
        // Another name in the same directory is another file.
        plan(
            &[file("-o", &a), file("--duplicates", &dir.join("y.pgn"))],
            &[],
        )
        .unwrap();
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn links_lead_to_the_same_file() {
        let dir = temp_dir("links");
        fs::create_dir(dir.join("real")).unwrap();
        std::os::unix::fs::symlink(dir.join("real"), dir.join("alias")).unwrap();
        // Through a link to the directory, before the file exists.
        let a = dir.join("real/x.pgn");
        let b = dir.join("alias/x.pgn");
        assert!(matches!(
            plan(&[file("-o", &a), file("--duplicates", &b)], &[]),
            Err(Refusal::SameFile { .. })
        ));
        // A link to the file, dangling (the file does not exist yet) or not; and a hard link.
        std::os::unix::fs::symlink("real/x.pgn", dir.join("to-x.pgn")).unwrap();
        let link = dir.join("to-x.pgn");
        assert!(matches!(
            plan(&[file("-o", &a), file("--duplicates", &link)], &[]),
            Err(Refusal::SameFile { .. })
        ));
        fs::write(&a, "x").unwrap();
        assert!(matches!(
            plan(&[file("-o", &link), file("--duplicates", &a)], &[]),
            Err(Refusal::SameFile { .. })
        ));
        fs::hard_link(&a, dir.join("hard.pgn")).unwrap();
        assert!(matches!(
            plan(
                &[file("-o", &a), file("--duplicates", &dir.join("hard.pgn"))],
                &[]
            ),
            Err(Refusal::SameFile { .. })
        ));
        // Two outputs to one device are fine: it is written in place.
        let null = Path::new("/dev/null");
        plan(&[file("-o", null), file("--duplicates", null)], &[]).unwrap();
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_leads_to_the_file_it_names() {
        let dir = temp_dir("dangling");
        std::os::unix::fs::symlink("target.pgn", dir.join("link.pgn")).unwrap();
        let planned = plan(&[file("-o", &dir.join("link.pgn"))], &[]).unwrap();
        assert_eq!(planned[0].target, dir.join("target.pgn"));
        assert!(planned[0].existing.is_none());
        // A link into a directory that does not exist: that directory is named.
        std::os::unix::fs::symlink("nowhere/t.pgn", dir.join("lost.pgn")).unwrap();
        let refused = plan(&[file("-o", &dir.join("lost.pgn"))], &[]).unwrap_err();
        assert!(
            matches!(&refused, Refusal::MissingDirectory { dir: d, .. } if d == &dir.join("nowhere")),
            "{refused:?}"
        );
        // A loop.
        std::os::unix::fs::symlink("b", dir.join("a")).unwrap();
        std::os::unix::fs::symlink("a", dir.join("b")).unwrap();
        assert!(matches!(
            plan(&[file("-o", &dir.join("a"))], &[]),
            Err(Refusal::LinkLoop { .. })
        ));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn directories_missing_or_given_as_files_are_named() {
        let dir = temp_dir("dirs");
        fs::write(dir.join("file.pgn"), "x").unwrap();
        let cases: [(PathBuf, &str); 6] = [
            (dir.join("newdir/"), "DirectoryName"),
            (dir.join("file.pgn/"), "DirectoryName"),
            (dir.join("newdir/."), "DirectoryName"),
            (dir.join("missing/deeper/out.pgn"), "MissingDirectory"),
            (dir.join("file.pgn/out.pgn"), "NotADirectory"),
            (dir.clone(), "IsADirectory"),
        ];
        for (path, want) in cases {
            let refused = plan(&[file("-o", &path)], &[]).unwrap_err();
            assert!(
                format!("{refused:?}").starts_with(want),
                "{path:?}: {refused:?}"
            );
            assert!(
                refused
                    .message(Locale::En)
                    .starts_with(&path.display().to_string()),
                "{refused}"
            );
            assert!(!refused.message(Locale::Fr).is_empty());
        }
        let refused = plan(&[file("-o", &dir.join("missing/deeper/out.pgn"))], &[]).unwrap_err();
        assert!(
            matches!(&refused, Refusal::MissingDirectory { dir: d, .. } if d == &dir.join("missing")),
            "the first missing directory: {refused:?}"
        );
        // A split directory: new, empty or refused.
        plan(&[split(&dir.join("newdir/"))], &[]).unwrap();
        fs::create_dir(dir.join("empty")).unwrap();
        plan(&[split(&dir.join("empty"))], &[]).unwrap();
        assert!(matches!(
            plan(&[split(&dir)], &[]),
            Err(Refusal::SplitNotEmpty { .. })
        ));
        assert!(matches!(
            plan(&[split(&dir.join("file.pgn"))], &[]),
            Err(Refusal::SplitNotADirectory { .. })
        ));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_inside_the_split_directory_is_refused() {
        let dir = temp_dir("inside");
        let out = dir.join("out");
        for dups in [
            out.join("dups.pgn"),
            out.join("sub/dups.pgn"),
            dir.join("x/../out/dups.pgn"),
        ] {
            let refused = plan(&[split(&out), file("--duplicates", &dups)], &[]).unwrap_err();
            assert!(
                matches!(
                    &refused,
                    Refusal::InsideSplit {
                        option: "--duplicates",
                        ..
                    }
                ),
                "{dups:?}: {refused:?}"
            );
        }
        // The split directory existing, reached through a link.
        fs::create_dir(&out).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("out", dir.join("alias")).unwrap();
            let refused = plan(
                &[
                    split(&out),
                    file("--duplicates", &dir.join("alias/dups.pgn")),
                ],
                &[],
            )
            .unwrap_err();
            assert!(
                matches!(refused, Refusal::InsideSplit { .. }),
                "{refused:?}"
            );
        }
        // Beside it: fine.
        plan(
            &[split(&out), file("--duplicates", &dir.join("dups.pgn"))],
            &[],
        )
        .unwrap();
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn an_input_is_no_output() {
        let dir = temp_dir("input");
        let input = dir.join("in.pgn");
        fs::write(&input, "x").unwrap();
        let sources = [Source::File(input.clone())];
        assert!(matches!(
            plan(&[file("-o", &dir.join("./in.pgn"))], &sources),
            Err(Refusal::IsInput { .. })
        ));
        plan(&[file("-o", &dir.join("out.pgn"))], &sources).unwrap();
        let _ = fs::remove_dir_all(&dir);
    }
}
