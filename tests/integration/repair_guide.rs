//! The guide's repair example (docs/guide.md, "Putting right transcription slips") run as written, and the
//! round it repairs (fixtures/repair/) checked against the games as played: the repaired main lines are the
//! original's move for move, the clean games come out byte for byte, the repaired file validates clean.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{BIN, records, root, run, show, temp_dir};

const HEADING: &str = "\n## Putting right transcription slips\n";

/// The guide's section, up to the next `## ` heading.
fn section() -> String {
    let guide = std::fs::read_to_string(root().join("docs/guide.md")).unwrap();
    let start = guide
        .find(HEADING)
        .expect("the guide has the section on repair");
    let section = &guide[start + HEADING.len()..];
    section[..section.find("\n## ").unwrap_or(section.len())].to_string()
}

/// The section's examples: each ```text block whose first line is `$ COMMAND`, with the rest of the block,
/// what the guide shows it printing.
fn examples(section: &str) -> Vec<(String, String)> {
    section
        .split("```text\n")
        .skip(1)
        .filter_map(|block| {
            let block = &block[..block.find("```").unwrap()];
            let rest = block.strip_prefix("$ ")?;
            let (command, shown) = rest.split_once('\n').unwrap_or((rest, ""));
            Some((command.to_string(), shown.to_string()))
        })
        .collect()
}

/// A directory laid out as the repository root for the examples (their inputs under `fixtures/repair/`), so
/// that they run as written without writing into the repository.
fn workspace(name: &str) -> PathBuf {
    let dir = temp_dir("repair_guide", name);
    std::fs::create_dir_all(dir.join("fixtures/repair")).unwrap();
    for file in ["round.pgn", "ronde.pgn", "round.original.pgn"] {
        std::fs::copy(
            root().join("fixtures/repair").join(file),
            dir.join("fixtures/repair").join(file),
        )
        .unwrap();
    }
    dir
}

/// Runs a shell command in `dir` with this build's `pgnkit` first on the PATH and no locale (English unless
/// the command asks for French): its exit code and what it printed, standard output then standard error.
fn sh(dir: &Path, command: &str) -> (Option<i32>, String) {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", &path)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .output()
        .unwrap();
    let mut printed = String::from_utf8_lossy(&out.stdout).into_owned();
    printed.push_str(&String::from_utf8_lossy(&out.stderr));
    assert!(!printed.contains("panicked"), "{command}: {printed}");
    (out.status.code(), printed)
}

/// The text without validate's timing line (`validated 5 games, … in 0.01 s …`, `validé : …`), which
/// changes from run to run, and without trailing blank space.
fn without_timing(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("validated ") && !l.starts_with("validé : "))
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

/// Each example of the guide's section prints what the guide shows (validate's timing line apart), in
/// order, from a copy of the repository's layout: validate finds the three slips with their help lines
/// (exit 1), repair puts them right (exit 0) with the comments and the report line shown, validate finds
/// the repaired round clean (exit 0); the same in French.
#[test]
fn the_guides_repair_example_prints_what_the_guide_shows() {
    let dir = workspace("example");
    let mut checked = Vec::new();
    for (command, shown) in examples(&section()) {
        let (code, printed) = sh(&dir, &command);
        // validate exits 1 on the files with slips; everything else, repaired files included, exits 0.
        let slipped_input =
            command.starts_with("pgnkit validate") && command.contains("fixtures/repair/");
        let expected = if slipped_input { 1 } else { 0 };
        assert_eq!(code, Some(expected), "{command}\n{printed}");
        assert_eq!(
            without_timing(&printed),
            without_timing(&shown),
            "{command}: the guide shows something else"
        );
        checked.push(command);
    }
    let expected = [
        "pgnkit validate fixtures/repair/round.pgn",
        "pgnkit repair fixtures/repair/round.pgn -o round-fixed.pgn --report fixes.jsonl",
        "grep -n '{' round-fixed.pgn",
        "head -1 fixes.jsonl",
        "pgnkit validate round-fixed.pgn",
        "pgnkit validate --messages fr fixtures/repair/ronde.pgn",
        "pgnkit repair --messages fr fixtures/repair/ronde.pgn -o ronde-corrigee.pgn",
        "grep -n '{' ronde-corrigee.pgn",
    ];
    assert_eq!(checked, expected, "the section's examples");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The main lines of a PGN file's games in UCI, as `convert --output-format jsonl` reads them (each game
/// must convert).
fn uci_lines(path: &Path, more: &[&str]) -> Vec<Value> {
    let path = path.to_str().unwrap();
    let mut args = vec!["convert", "-q", "--output-format", "jsonl"];
    args.extend_from_slice(more);
    args.push(path);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    records(&out)
        .into_iter()
        .map(|r| {
            assert_eq!(r["converted"], true, "{r}");
            r["uci"].clone()
        })
        .collect()
}

/// The games of a PGN file as its text holds them: each from its `[Event ` to the next.
fn games_text(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games: Vec<String> = text
        .split("\n[Event ")
        .map(|g| format!("[Event {}", g.trim_start_matches("[Event ")))
        .collect();
    for game in &mut games {
        *game = game.trim_end().to_string();
    }
    games
}

/// The fixture round with its three slips comes out of `pgnkit repair` as the games were played: the
/// repaired main lines equal the original's move for move (in English, and from the French file with its
/// English `R`), each slip is repaired with certainty by the edit of its kind, the clean games come out
/// byte for byte, and the repaired file validates without an error or a warning. `convert --repair`
/// converts the same moves.
#[test]
fn the_repaired_round_is_the_round_as_played() {
    let dir = temp_dir("repair_guide", "as_played");
    let fixtures = root().join("fixtures/repair");
    let original = uci_lines(&fixtures.join("round.original.pgn"), &[]);
    assert_eq!(original.len(), 5);

    // The slips are in boards 2, 3 and 5, nowhere else.
    let slipped = games_text(&fixtures.join("round.pgn"));
    let played = games_text(&fixtures.join("round.original.pgn"));
    assert_eq!(slipped.len(), 5);
    let differ: Vec<usize> = (0..5).filter(|&i| slipped[i] != played[i]).collect();
    assert_eq!(differ, [1, 2, 4]);

    let fixed = dir.join("round-fixed.pgn");
    let report = dir.join("fixes.jsonl");
    let args = [
        "repair",
        "-q",
        "fixtures/repair/round.pgn",
        "-o",
        fixed.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    assert_eq!(uci_lines(&fixed, &[]), original, "the repaired main lines");

    // Boards 1 and 4 byte for byte; the other three changed.
    let repaired = games_text(&fixed);
    let unchanged: Vec<usize> = (0..5).filter(|&i| repaired[i] == slipped[i]).collect();
    assert_eq!(unchanged, [0, 3]);

    // One report line per slip, each certain, by the edit of its kind.
    let lines: Vec<Value> = std::fs::read_to_string(&report)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let found: Vec<(u64, &str, bool)> = lines
        .iter()
        .map(|l| {
            (
                l["game"].as_u64().unwrap(),
                l["kind"].as_str().unwrap(),
                l["certain"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (2, "substitution", true),
            (3, "deletion", true),
            (5, "insertion", true)
        ]
    );

    // The repaired file validates clean.
    let args = ["validate", fixed.to_str().unwrap()];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("\nno errors, 0 warnings\n"),
        "{}",
        show(&args, &out)
    );

    // The French round, its English R put right: the same games.
    let fixed_fr = dir.join("ronde-corrigee.pgn");
    let args = [
        "repair",
        "-q",
        "--messages",
        "fr",
        "fixtures/repair/ronde.pgn",
        "-o",
        fixed_fr.to_str().unwrap(),
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    assert_eq!(uci_lines(&fixed_fr, &[]), original, "the French round");
    let args = ["validate", "--strict", fixed_fr.to_str().unwrap()];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));

    // convert --repair converts the slipped files to the same moves.
    for file in ["round.pgn", "ronde.pgn"] {
        assert_eq!(
            uci_lines(&fixtures.join(file), &["--repair"]),
            original,
            "convert --repair {file}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
