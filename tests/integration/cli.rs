//! End-to-end tests of what the command line as a whole offers, running the binary:
//! - the manual pages committed under `docs/man/` are exactly what `pgnkit man --dir` generates now (so they
//!   cannot go stale when a flag or a help text changes), and `pgnkit man` prints the page of `pgnkit`;
//! - `pgnkit completions SHELL` gives a script for every shell clap_complete knows;
//! - both are hidden from the main help list;
//! - the `-o FILE` check shared by `convert` and `stats` refuses an output that is one of the inputs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::util::{self, root, run, show};

/// What regenerates the committed pages, said when they are stale.
const REGENERATE: &str = "cargo run --release -- man --dir docs/man";

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    util::temp_dir("cli", name)
}

/// The files of a directory by name, with their bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(entry.path()).unwrap())
        })
        .collect()
}

#[test]
fn committed_man_pages_equal_the_generated_ones() {
    let dir = temp_dir("man");
    let args = ["man", "--dir", dir.to_str().unwrap()];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let generated = files(&dir);
    let committed = files(&root().join("docs/man"));
    let names: Vec<&String> = generated.keys().collect();
    assert_eq!(
        names,
        [
            "pgnkit-convert.1",
            "pgnkit-fen.1",
            "pgnkit-perft.1",
            "pgnkit-repair.1",
            "pgnkit-report.1",
            "pgnkit-select.1",
            "pgnkit-standings.1",
            "pgnkit-stats.1",
            "pgnkit-tree.1",
            "pgnkit-validate.1",
            "pgnkit.1"
        ],
        "one page for pgnkit and one per visible command, none for the hidden ones"
    );
    assert_eq!(
        committed.keys().collect::<Vec<_>>(),
        names,
        "docs/man/ holds other pages than pgnkit generates: run `{REGENERATE}` (and remove what it no longer writes)"
    );
    for (name, bytes) in &generated {
        assert!(
            committed[name] == *bytes,
            "docs/man/{name} is stale: run `{REGENERATE}`\n--- generated:\n{}",
            String::from_utf8_lossy(bytes)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn man_prints_the_page_of_pgnkit() {
    let out = run(&["man"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&["man"], &out));
    let committed = std::fs::read(root().join("docs/man/pgnkit.1")).unwrap();
    assert!(out.stdout == committed, "{}", show(&["man"], &out));
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.starts_with(".ie") && page.contains(".TH pgnkit 1"),
        "{page}"
    );
    for sub in ["validate", "stats", "fen", "convert", "perft"] {
        assert!(
            page.contains(&format!("pgnkit\\-{sub}(1)")),
            "{sub}: {page}"
        );
    }
    assert!(page.contains("Exit codes: 0 clean"), "{page}");
}

#[test]
fn man_dir_that_cannot_be_created_is_an_io_error() {
    let dir = temp_dir("man-blocked");
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a directory").unwrap();
    let target = file.join("man");
    let args = ["man", "--dir", target.to_str().unwrap()];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
    assert!(out.stdout.is_empty(), "{}", show(&args, &out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn completions_for_every_shell_mention_validate() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let args = ["completions", shell];
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
        let script = String::from_utf8(out.stdout.clone()).unwrap();
        assert!(!script.trim().is_empty(), "{}", show(&args, &out));
        // Long options are spelled differently per shell (fish: `-l lang`).
        for word in ["pgnkit", "validate", "convert", "lang"] {
            assert!(script.contains(word), "{word}: {}", show(&args, &out));
        }
    }
}

#[test]
fn completions_for_an_unknown_shell_is_a_usage_error() {
    let args = ["completions", "tcsh"];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
    assert!(out.stdout.is_empty(), "{}", show(&args, &out));
}

#[test]
fn completions_and_man_are_hidden_from_the_main_help() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&["--help"], &out));
    let help = String::from_utf8(out.stdout).unwrap();
    for visible in ["validate", "stats", "fen", "convert", "perft"] {
        assert!(help.contains(&format!("  {visible} ")), "{visible}: {help}");
    }
    for hidden in ["completions", "man "] {
        assert!(!help.contains(hidden), "{hidden}: {help}");
    }
    // Hidden, not gone: their own help still works.
    for sub in ["completions", "man"] {
        let args = [sub, "--help"];
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    }
}

#[test]
fn convert_and_stats_refuse_an_output_that_is_also_an_input() {
    let dir = temp_dir("clash");
    let input = dir.join("round5.pgn");
    let original = std::fs::read(root().join("fixtures/examples/round5.pgn")).unwrap();
    std::fs::write(&input, &original).unwrap();
    let path = input.to_str().unwrap();
    // The same file under another spelling is caught too.
    let other_spelling = dir.join(".").join("round5.pgn");
    for command in ["convert", "stats"] {
        for output in [path, other_spelling.to_str().unwrap()] {
            let args = [command, "-q", "-o", output, path];
            let out = run(&args);
            assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("is also an input") && stderr.contains("refusing to overwrite it"),
                "{}",
                show(&args, &out)
            );
            assert_eq!(
                std::fs::read(&input).unwrap(),
                original,
                "input changed: {}",
                show(&args, &out)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--help` follows `--messages` (or `LANG`): French descriptions, headings and flags; option names, values
/// and exit codes as in English, which stays the default.
#[test]
fn help_in_french() {
    let french = crate::util::run(&["--messages", "fr", "validate", "--help"]);
    assert_eq!(french.status.code(), Some(0));
    let text = String::from_utf8_lossy(&french.stdout);
    for expected in [
        "Rejoue chaque partie et signale les coups illégaux",
        "Utilisation : pgnkit validate [OPTIONS] <PATHS>...",
        "--format <FORMAT>       Format de sortie (valeurs : human, json) (par défaut : human)",
        "-h, --help                  Afficher l'aide",
        "Codes de sortie : 0 rien à signaler, 1 problèmes trouvés",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(
        !text.contains("Usage:") && !text.contains("Print help"),
        "{text}"
    );
    let by_env = crate::util::bin_command()
        .args(["standings", "--help"])
        .env("LANG", "fr_FR.UTF-8")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&by_env.stdout).contains("Départages après les points"));
    let english = crate::util::run(&["validate", "--help"]);
    let text = String::from_utf8_lossy(&english.stdout);
    assert!(
        text.contains("Usage: pgnkit validate") && text.contains("Print help"),
        "{text}"
    );
}

/// A blank run longer than the reader keeps (1 MiB) is partly dropped, and how much of it stays depends on the
/// number of threads: nothing any command writes may depend on it. An invalid game after the run is copied from
/// its first tag, and the summary counts every byte of the file, with one thread or two.
#[test]
fn long_blank_runs_change_no_output_between_thread_counts() {
    let dir = temp_dir("blank-runs");
    let valid = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    let invalid = "[Event \"F\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e4 *\n";
    let text = format!(
        "{valid}{}{invalid}{}{valid}",
        "\n".repeat(1_500_000),
        " ".repeat(1_300_000)
    );
    let path = dir.join("blank-runs.pgn");
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();
    let commands: [&[&str]; 5] = [
        &["validate", "--format", "json"],
        &["convert", "--to", "en"],
        &["convert", "--output-format", "jsonl"],
        &["stats"],
        &["stats", "--summary"],
    ];
    for command in commands {
        let outputs: Vec<String> = ["-j1", "-j2"]
            .iter()
            .map(|threads| {
                let mut args = command.to_vec();
                args.extend([*threads, "-q", path]);
                let out = run(&args);
                assert_eq!(out.status.code(), Some(1), "{}", show(&args, &out));
                String::from_utf8(out.stdout).unwrap()
            })
            .collect();
        assert_eq!(outputs[0], outputs[1], "{command:?}");
        let output = &outputs[0];
        match command {
            ["convert", "--to", ..] => assert!(
                output.contains("1. e4 e5 *\n\n[Event \"F\"]\n[White \"C\"]")
                    && output.contains("\n{pgnkit: not converted: no pawn can reach e4"),
                "{output}"
            ),
            ["convert", ..] => assert!(output.contains(r#""pgn":"[Event \"F\"]"#), "{output}"),
            ["stats", "--summary"] => assert!(
                output.starts_with(&format!(
                    "3 games in 1 file ({:.1} MB)",
                    text.len() as f64 / 1e6
                )),
                "{output}"
            ),
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
