//! Finds the shared test corpus for the tests that need it (nothing here is part of pgnkit itself).
//!
//! The corpus is `corpus/` in the shared folder: `../shared` beside the repository (as on CI), or the folder
//! named by `PGNKIT_SHARED` (a relative path is taken from the repository root). When it is there,
//! `--cfg shared_corpus` is set and the corpus tests run; when it is not, they are listed as ignored with the
//! reason (`#[cfg_attr(not(shared_corpus), ignore = "...")]`). Either way the tests find it at
//! `env!("PGNKIT_SHARED_CORPUS")`, an absolute path. `PGNKIT_REQUIRE_CORPUS=1` (set by `.ci/run`) makes an
//! absent corpus a build error, so a corpus test can never be skipped there.
//!
//! The same for bbpPairings, a pairing engine nobody here wrote, that the TRF tests run when it is there
//! (issue 39): `BBPPAIRINGS` naming its `bbpPairings.exe` sets `--cfg bbppairings`; the tests find it at
//! `env!("PGNKIT_BBPPAIRINGS")`, and are listed as ignored without it. Unset, it is looked for beside the
//! repository, where docs/notes/fide-check.md builds it: `../tools/bbpPairings/bbpPairings.exe`. `.ci/run`
//! builds it from the shared folder's source and sets the variable.
//!
//! What makes cargo run this again: either variable changing, and the corpus's README.md while the corpus is
//! there (so its removal is noticed). An absent corpus is not watched: cargo re-runs a build script on every
//! build while a watched path is missing, and re-running it rebuilds pgnkit. So after putting the corpus in
//! place, `touch build.rs` (or set `PGNKIT_SHARED`) for cargo to see it.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-env-changed=PGNKIT_SHARED");
    println!("cargo::rerun-if-env-changed=PGNKIT_REQUIRE_CORPUS");
    println!("cargo::rustc-check-cfg=cfg(shared_corpus)");

    // The repository root: this package's directory. Only the root package's tests (tests/integration) read
    // the corpus, so the library crates need no build script.
    let root =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let shared = match env::var_os("PGNKIT_SHARED") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("../shared"),
    };
    let corpus = shared.join("corpus");
    let corpus = corpus.canonicalize().unwrap_or(corpus);
    println!("cargo::rustc-env=PGNKIT_SHARED_CORPUS={}", corpus.display());

    println!("cargo::rerun-if-env-changed=BBPPAIRINGS");
    println!("cargo::rustc-check-cfg=cfg(bbppairings)");
    let program = match env::var_os("BBPPAIRINGS") {
        Some(p) if !p.is_empty() => root.join(p),
        _ => root.join("../tools/bbpPairings/bbpPairings.exe"),
    };
    let program = program.canonicalize().unwrap_or(program);
    match Some(program).filter(|p| p.is_file()) {
        Some(path) => {
            println!("cargo::rustc-cfg=bbppairings");
            println!("cargo::rustc-env=PGNKIT_BBPPAIRINGS={}", path.display());
            println!("cargo::rerun-if-changed={}", path.display());
        }
        None => println!("cargo::rustc-env=PGNKIT_BBPPAIRINGS="),
    }

    if corpus.is_dir() {
        println!("cargo::rustc-cfg=shared_corpus");
        let readme = corpus.join("README.md");
        let watched = if readme.is_file() { readme } else { corpus };
        println!("cargo::rerun-if-changed={}", watched.display());
    } else if env::var_os("PGNKIT_REQUIRE_CORPUS").is_some_and(|v| !v.is_empty() && v != "0") {
        println!(
            "cargo::error=PGNKIT_REQUIRE_CORPUS is set but the shared corpus is not at {} \
             (put the shared folder beside the repository as ../shared, or set PGNKIT_SHARED)",
            corpus.display()
        );
    }
}
