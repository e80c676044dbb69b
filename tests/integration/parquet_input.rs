//! Parquet files whose rows are games, read by every command as the PGN they were made from.
//!
//! The Parquet files are written by pyarrow (`tests/tools/pgn_to_parquet.py`, a writer nobody here wrote): in
//! the Lichess dataset's shape (a column per tag, ratings as integers, UTCDate a date, UTCTime a time, the
//! moves in `movetext`) or with each game's text in a `pgn` column. The ones under `fixtures/parquet/` were
//! made from `fixtures/corpus-subset/` and run everywhere; the whole corpus is written again when it is beside
//! the repository and Python has pyarrow. Each command's output on the Parquet file must equal its output on
//! the PGN file, but for where things are: the file's name, and lines counted from a row's text instead of
//! the file's start, with the row group and row beside them.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{self, corpus, pgnkit, python_has, show, subset, temp_dir};

/// The fixtures: each Parquet file and the PGN file it was made from.
fn fixture_pairs() -> Vec<(PathBuf, PathBuf)> {
    let english = "games-english";
    [
        (
            "lichess-50.parquet",
            subset(&format!(
                "{english}/lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn"
            )),
        ),
        (
            "twic-event.pgn-column.parquet",
            subset(&format!(
                "{english}/twic1389_3393games.event-6th-vezerkepzo-gm-2021.pgn"
            )),
        ),
        (
            "twic-fr.parquet",
            subset("games-french/twic1389_3393games.fr.games-1-10.pgn"),
        ),
        (
            "slip.parquet",
            util::root().join("fixtures/parquet/slip.pgn"),
        ),
    ]
    .into_iter()
    .map(|(parquet, pgn)| (util::root().join("fixtures/parquet").join(parquet), pgn))
    .collect()
}

fn run(args: &[&str], input: &Path) -> std::process::Output {
    let mut all: Vec<&str> = args.to_vec();
    let input = input.to_str().unwrap();
    all.push(input);
    let out = pgnkit(&all, None);
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{}",
        show(&all, &out)
    );
    out
}

/// JSON records with the keys that say where removed (the file's name, lines, the row), recursively.
fn placeless(records: Vec<Value>) -> Vec<Value> {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for key in ["file", "line", "column", "row_group", "row", "offset"] {
                    map.remove(key);
                }
                // stats' `first_error` starts with where the error is.
                if let Some(Value::String(error)) = map.get_mut("first_error") {
                    let at = error.find(": ").map_or(0, |i| i + 2);
                    *error = error[at..].to_string();
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut records = records;
    records.iter_mut().for_each(strip);
    records
}

/// A text with the places of convert's `{pgnkit: not converted: ... (line 21, column 43)}` marks left out:
/// a game from a row says `(row group 1, row 2, line 7, column 43)`.
fn without_marked_places(text: &[u8]) -> String {
    String::from_utf8_lossy(text)
        .lines()
        .map(|line| {
            match (
                line.starts_with("{pgnkit: not converted:"),
                line.rfind(" ("),
            ) {
                (true, Some(at)) => &line[..at],
                _ => line,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every command's output on `parquet` equals its output on `pgn` (but for the places), with the same exit code.
fn assert_same_outputs(parquet: &Path, pgn: &Path) {
    let record_runs: [&[&str]; 4] = [
        &["stats", "-q", "--format", "jsonl"],
        &["stats", "-q", "--per-move", "--format", "jsonl"],
        &["validate", "--format", "json"],
        &["convert", "-q", "--output-format", "jsonl"],
    ];
    for args in record_runs {
        let (a, b) = (run(args, parquet), run(args, pgn));
        assert_eq!(a.status.code(), b.status.code(), "{}", show(args, &a));
        let (ra, rb) = (util::records(&a), util::records(&b));
        assert!(!ra.is_empty(), "{}", show(args, &a));
        assert_eq!(
            placeless(ra),
            placeless(rb),
            "{args:?} on {}",
            parquet.display()
        );
    }
    let text_runs: [&[&str]; 4] = [
        &["convert", "-q", "--to", "fr"],
        &["convert", "-q", "--to", "en", "--notation", "lan"],
        &[
            "select",
            "-q",
            "--where",
            "plies >= 40 or result == \"1-0\"",
        ],
        &["select", "-q", "--where", "termination == \"checkmate\""],
    ];
    for args in text_runs {
        let (a, b) = (run(args, parquet), run(args, pgn));
        assert_eq!(a.status.code(), b.status.code(), "{}", show(args, &a));
        assert!(
            without_marked_places(&a.stdout) == without_marked_places(&b.stdout),
            "{args:?} on {}: the outputs differ\n{}",
            parquet.display(),
            show(args, &a)
        );
    }
}

#[test]
fn each_command_reads_the_fixtures_as_the_pgn_they_were_made_from() {
    for (parquet, pgn) in fixture_pairs() {
        assert_same_outputs(&parquet, &pgn);
    }
}

#[test]
fn a_bad_move_is_located_by_file_row_group_and_row() {
    let slip = util::root().join("fixtures/parquet/slip.parquet");
    let out = run(&["validate"], &slip);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("slip.parquet, row group 1, row 2, 7:43 (game 3, E – F; 11. Qh8)"),
        "{text}"
    );
    let records = util::records(&run(&["validate", "--format", "json"], &slip));
    let bad = records
        .iter()
        .find(|r| r["valid"] == false)
        .expect("one invalid game");
    assert_eq!(
        (
            bad["game"].as_u64(),
            bad["row_group"].as_u64(),
            bad["row"].as_u64()
        ),
        (Some(3), Some(1), Some(2))
    );
    let error = bad["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["severity"] == "error")
        .unwrap();
    assert_eq!(
        (
            error["row"].as_u64(),
            error["line"].as_u64(),
            error["column"].as_u64()
        ),
        (Some(2), Some(7), Some(43))
    );
    // French messages name the row too.
    let out = pgnkit(
        &["validate", "--messages", "fr", slip.to_str().unwrap()],
        None,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("groupe de rangées 1, rangée 2, 7:43"),
        "{text}"
    );
}

#[test]
fn parquet_is_told_by_its_bytes_or_by_the_option_and_refused_when_it_holds_no_games() {
    let dir = temp_dir("parquet_input", "format");
    let lichess = util::root().join("fixtures/parquet/lichess-50.parquet");
    // Whatever its name, from standard input too.
    let renamed = dir.join("games.dat");
    std::fs::copy(&lichess, &renamed).unwrap();
    let by_name = run(&["stats", "-q"], &lichess);
    let by_bytes = run(&["stats", "-q"], &renamed);
    let bytes = std::fs::read(&lichess).unwrap();
    let from_stdin = pgnkit(&["stats", "-q", "-"], Some(&bytes));
    let rows = |out: &std::process::Output| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split_once(',').map_or("", |(_, rest)| rest).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&by_name).len(), 51);
    assert_eq!(rows(&by_name), rows(&by_bytes));
    assert_eq!(
        rows(&by_name),
        rows(&from_stdin),
        "{}",
        show(&["stats", "-"], &from_stdin)
    );

    // --input-format parquet refuses a PGN file; the option is the same on every command.
    let pgn = util::root().join("fixtures/parquet/slip.pgn");
    for command in ["stats", "validate", "select", "convert"] {
        let out = run(&[command, "--input-format", "parquet"], &pgn);
        assert_eq!(out.status.code(), Some(2), "{}", show(&[command], &out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("slip.pgn: not a Parquet file"), "{err}");
    }

    // A Parquet file of other rows (what stats writes) is refused by name, and skipped by a directory search.
    let stats_out = dir.join("stats.parquet");
    let out = pgnkit(
        &[
            "stats",
            "-q",
            "-o",
            stats_out.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{:?}",
        out
    );
    let out = run(&["validate"], &stats_out);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no `movetext` or `pgn` column"), "{err}");
    std::fs::copy(&pgn, dir.join("slip.pgn")).unwrap();
    std::fs::remove_file(&renamed).unwrap();
    let out = run(&["validate", "-q"], &dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("stats.parquet: skipped: a Parquet file whose rows are not games"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(1), "the slip is still found: {err}");

    // A damaged file: said, with its name, and the run goes on to the next input.
    let damaged = dir.join("damaged.parquet");
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    let out = pgnkit(
        &[
            "stats",
            "-q",
            damaged.to_str().unwrap(),
            lichess.to_str().unwrap(),
        ],
        None,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("damaged.parquet"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 51);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn each_command_reads_the_corpus_written_as_parquet_by_pyarrow_as_the_pgn() {
    if !python_has("pyarrow") {
        return;
    }
    let dir = temp_dir("parquet_input", "corpus");
    let mut compared = 0;
    for folder in ["games-english", "games-french"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        files.sort();
        for pgn in files {
            for shape in ["tags", "pgn"] {
                let parquet = dir.join(format!(
                    "{}.{shape}.parquet",
                    pgn.file_stem().unwrap().to_string_lossy()
                ));
                // The PGN the rows stand for: the file without what stands before its first game.
                let rows_pgn = parquet.with_extension("pgn");
                let mut tool = Command::new("python3");
                tool.arg(util::root().join("tests/tools/pgn_to_parquet.py"))
                    .arg(&parquet)
                    .arg(&pgn)
                    .arg("--row-group-size=500")
                    .arg(format!("--pgn-out={}", rows_pgn.display()));
                if shape == "pgn" {
                    tool.arg("--pgn-column");
                }
                // Files not laid out as the export format (or not UTF-8) cannot give back their bytes from
                // rows: the tool says so, and they are left out.
                if !tool.output().unwrap().status.success() {
                    continue;
                }
                assert_same_outputs(&parquet, &rows_pgn);
                compared += 1;
            }
        }
    }
    assert!(
        compared >= 8,
        "only {compared} corpus files could be written as Parquet"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn keep_columns_carries_the_tables_columns_into_the_rows_with_their_types() {
    let lichess = util::root().join("fixtures/parquet/lichess-50.parquet");
    let pgn = subset("games-english/lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn");
    let kept = ["UTCDate", "WhiteRatingDiff", "WhiteTitle"];
    let out = run(
        &["stats", "-q", "--keep-columns", &kept.join(",")],
        &lichess,
    );
    assert_eq!(out.status.code(), Some(0), "{}", show(&["stats"], &out));
    let tags = run(&["stats", "-q", "--tags", &kept.join(",")], &pgn);
    let rows = |out: &std::process::Output| -> Vec<Vec<String>> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| {
                // The last three fields: no field of these games holds a comma after `time_control_category`.
                let fields: Vec<&str> = l.rsplitn(4, ',').collect();
                fields[..3].iter().rev().map(|f| f.to_string()).collect()
            })
            .collect()
    };
    let (kept_rows, tag_rows) = (rows(&out), rows(&tags));
    assert_eq!(kept_rows[0], kept);
    assert_eq!(kept_rows.len(), 51);
    let mut signed = 0;
    for (k, t) in kept_rows.iter().zip(&tag_rows).skip(1) {
        // A date as ISO 8601, an integer as an integer (`+6` is 6), text as it is.
        assert_eq!(k[0], t[0].replace('.', "-"));
        assert_eq!(k[1].parse::<i64>().ok(), t[1].parse::<i64>().ok(), "{t:?}");
        signed += usize::from(t[1].starts_with('+'));
        assert_eq!(k[2], t[2]);
    }
    assert!(signed > 10);

    // `all`: every tag column the rows do not hold already, in the file's order.
    let out = run(&["stats", "-q", "--keep-columns", "all"], &lichess);
    let header = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert!(
        header.ends_with(",UTCDate,UTCTime,WhiteRatingDiff,BlackRatingDiff,WhiteTitle,BlackTitle"),
        "{header}"
    );

    // Refused, before any game is read.
    for (asked, why) in [
        ("Event", "the rows already hold `Event`"),
        ("Nope", "has no column `Nope`"),
        ("movetext", "`movetext` holds no tag values"),
    ] {
        let out = run(&["stats", "-q", "--keep-columns", asked], &lichess);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(why),
            "{asked}"
        );
        assert!(out.stdout.is_empty());
    }
    let out = run(&["stats", "-q", "--keep-columns", "UTCDate"], &pgn);
    assert_eq!(out.status.code(), Some(2));

    // In Parquet, typed as the input's columns.
    if python_has("pyarrow") {
        let dir = temp_dir("parquet_input", "keep");
        let rows = dir.join("rows.parquet");
        let out = pgnkit(
            &[
                "stats",
                "-q",
                "--keep-columns",
                "UTCDate,WhiteRatingDiff,WhiteTitle",
                "-o",
                rows.to_str().unwrap(),
                lichess.to_str().unwrap(),
            ],
            None,
        );
        assert!(out.status.success(), "{out:?}");
        let types = Command::new("python3")
            .args([
                "-c",
                "import sys, pyarrow.parquet as pq; s = pq.read_schema(sys.argv[1]); \
                 print(*(str(s.field(n).type) for n in sys.argv[2:]))",
                rows.to_str().unwrap(),
                "UTCDate",
                "WhiteRatingDiff",
                "WhiteTitle",
            ])
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&types.stdout).trim(),
            "date32[day] int64 string"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
