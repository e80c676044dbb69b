//! Finds the shared test corpus for the tests that need it (nothing here is part of pgnkit itself).
//!
//! The corpus is `corpus/` in the shared folder: `../shared` beside the repository (as on CI), or the folder
//! named by `PGNKIT_SHARED` (a relative path is taken from the repository root). When it is there,
//! `--cfg shared_corpus` is set and the corpus tests run; when it is not, they are listed as ignored with the
//! reason (`#[cfg_attr(not(shared_corpus), ignore = "...")]`). Either way the tests find it at
//! `env!("PGNKIT_SHARED_CORPUS")`, an absolute path. `PGNKIT_REQUIRE_CORPUS=1` (set by `.ci/run`) makes an
//! absent corpus a build error, so a corpus test can never be skipped there.
//!
//! Likewise bbpPairings (a pairing engine whose checker reads TRF; Apache-2.0, its source in the shared folder's
//! `tools/bbpPairings`): the executable named by `BBPPAIRINGS`, else `../tools/bbpPairings/bbpPairings.exe`
//! beside the repository (built there with `make`). When it is there, `--cfg bbp_pairings` is set and
//! `env!("PGNKIT_BBPPAIRINGS")` is its absolute path; when not, the tests that run it are listed as ignored.
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
    println!("cargo::rerun-if-env-changed=BBPPAIRINGS");
    println!("cargo::rustc-check-cfg=cfg(bbp_pairings)");

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

    let bbp = match env::var_os("BBPPAIRINGS") {
        Some(exe) if !exe.is_empty() => root.join(exe),
        _ => root.join("../tools/bbpPairings/bbpPairings.exe"),
    };
    let bbp = bbp.canonicalize().unwrap_or(bbp);
    println!("cargo::rustc-env=PGNKIT_BBPPAIRINGS={}", bbp.display());
    if bbp.is_file() {
        println!("cargo::rustc-cfg=bbp_pairings");
        println!("cargo::rerun-if-changed={}", bbp.display());
    }
}
