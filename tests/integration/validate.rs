//! End-to-end tests of `pgnkit validate`: the binary on fixtures (every problem kind with its line, column and
//! exit code), the JSON schema, variants on corpus files copied into `fixtures/corpus-subset/`, and the shared
//! corpus against the python-chess oracle's verdicts (listed as ignored when the corpus is absent).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::util::{self, corpus, records, root, run, subset, temp_dir};

/// (kind, line, column) of every problem of a record.
fn problems(record: &Value) -> Vec<(String, u64, u64)> {
    record["problems"]
        .as_array()
        .expect("problems is an array")
        .iter()
        .map(|p| {
            (
                p["kind"].as_str().unwrap().to_string(),
                p["line"].as_u64().unwrap(),
                p["column"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_error_kind_is_located_and_exits_1() {
    let out = run(&[
        "validate",
        "--format",
        "json",
        "fixtures/validate/errors.pgn",
    ]);
    assert_eq!(out.status.code(), Some(1), "errors found must exit 1");
    let recs = records(&out);
    let expected: [(&str, u64, u64, u64); 11] = [
        // kind, line, column, plies replayed
        ("no_piece_can_reach", 9, 13, 2),
        ("leaves_king_in_check", 19, 34, 6),
        ("castling_not_allowed", 29, 57, 10),
        ("ambiguous", 39, 24, 4),
        ("unreadable_move", 49, 13, 2),
        ("moves_after_game_end", 59, 24, 4),
        ("result_mismatch", 69, 17, 3),
        ("invalid_fen", 79, 1, 0),
        ("unsupported_variant", 90, 1, 0),
        ("no_piece_can_reach", 102, 11, 3),
        ("no_piece_can_reach", 112, 56, 10),
    ];
    assert_eq!(recs.len(), expected.len());
    for (rec, (kind, line, column, plies)) in recs.iter().zip(expected) {
        let errors: Vec<_> = problems(rec).into_iter().filter(|_| true).collect();
        assert!(
            errors.contains(&(kind.to_string(), line, column)),
            "game {}: want {kind} at {line}:{column}, got {errors:?}",
            rec["game"]
        );
        assert_eq!(rec["valid"], Value::Bool(false), "game {}", rec["game"]);
        assert_eq!(rec["plies"].as_u64(), Some(plies), "game {}", rec["game"]);
    }
    // The explanation names the pinning piece; the illegal move in a variation is marked as such.
    let pinned = &recs[1]["problems"][0];
    assert!(
        pinned["message"]
            .as_str()
            .unwrap()
            .contains("pinned to the king on e1 by the bishop on b4")
    );
    assert_eq!(pinned["move"], "Nd5");
    assert_eq!(pinned["move_number"], "4.");
    assert_eq!(recs[9]["problems"][0]["in_variation"], true);
    // An unreadable token stops the main line: nothing after it is read with the wrong side to move.
    assert_eq!(recs[4]["unchecked_moves"], Value::Null);
}

#[test]
fn human_output_shows_the_line_and_a_caret_under_the_move() {
    let out = run(&[
        "validate",
        "--color",
        "never",
        "fixtures/validate/errors.pgn",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error[leaves_king_in_check]: illegal: the knight on c3 is pinned"));
    assert!(text.contains(
        "--> fixtures/validate/errors.pgn:19:34 (game 2, Charlie – Delta, round 2; 4. Nd5)"
    ));
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("19 | "))
        .expect("source line shown");
    let source = &lines[at][5..];
    let caret = &lines[at + 1][5..];
    assert_eq!(
        &source[caret.find('^').unwrap()..][..3],
        "Nd5",
        "caret under the move"
    );
    assert!(!text.contains("\x1b["), "no colours with --color never");
    assert!(text.contains("11 errors in 11 games"));
    let coloured = run(&[
        "validate",
        "--color",
        "always",
        "fixtures/validate/errors.pgn",
    ]);
    assert!(String::from_utf8_lossy(&coloured.stdout).contains("\x1b["));
}

#[test]
fn warnings_alone_exit_0_unless_strict() {
    let out = run(&[
        "validate",
        "--format",
        "json",
        "--finished",
        "fixtures/validate/warnings.pgn",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = records(&out);
    let kinds = |i: usize| {
        problems(&recs[i])
            .into_iter()
            .map(|p| p.0)
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(
        problems(&recs[0]),
        vec![("moves_after_automatic_draw".into(), 10, 15)]
    );
    assert_eq!(recs[0]["ended_at_ply"], 16);
    assert_eq!(
        problems(&recs[1]),
        vec![("win_without_mating_material".into(), 22, 8)]
    );
    assert!(
        kinds(2).contains("missing_tag")
            && kinds(2).contains("malformed_tag")
            && kinds(2).contains("unfinished_game")
    );
    assert!(kinds(3).contains("setup_without_fen"));
    // Game 4 again: a duplicate (its players are not also said to play twice in round 4).
    assert!(kinds(4).contains("duplicate_game") && !kinds(4).contains("player_twice_in_round"));
    assert_eq!(
        problems(&recs[5]),
        vec![("result_contradicts_board".into(), 62, 21)]
    );
    assert!(kinds(6).contains("null_move"));
    for rec in &recs {
        assert_eq!(rec["valid"], true, "warnings keep a game valid: {rec}");
    }
    let strict = run(&[
        "validate",
        "-q",
        "--strict",
        "fixtures/validate/warnings.pgn",
    ]);
    assert_eq!(strict.status.code(), Some(1));
    let without = run(&[
        "validate",
        "-q",
        "--format",
        "json",
        "fixtures/validate/warnings.pgn",
    ]);
    assert!(
        !records(&without)
            .iter()
            .any(|r| problems(r).iter().any(|p| p.0 == "unfinished_game"))
    );
}

#[test]
fn json_records_carry_the_documented_keys() {
    let out = run(&[
        "validate",
        "--format",
        "json",
        "fixtures/validate/errors.pgn",
    ]);
    let recs = records(&out);
    let required = [
        "file",
        "game",
        "white",
        "black",
        "round",
        "result",
        "lang",
        "plies",
        "valid",
        "termination",
        "claimable",
        "problems",
    ];
    for rec in &recs {
        for key in required {
            assert!(rec.get(key).is_some(), "key {key} missing in {rec}");
        }
        assert!(rec["claimable"].is_array());
        let termination = rec["termination"].as_str().unwrap();
        assert!(
            [
                "checkmate",
                "stalemate",
                "insufficient_material",
                "fivefold_repetition",
                "seventyfive_moves",
                "none"
            ]
            .contains(&termination)
        );
        for p in rec["problems"].as_array().unwrap() {
            for key in ["severity", "kind", "line", "column", "message"] {
                assert!(p.get(key).is_some(), "problem key {key} missing in {p}");
            }
            assert!(["error", "warning"].contains(&p["severity"].as_str().unwrap()));
        }
    }
    assert_eq!(recs[5]["termination"], "checkmate");
    assert_eq!(recs[0]["file"], "fixtures/validate/errors.pgn");
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(
        run(&["validate", "no/such/file.pgn"]).status.code(),
        Some(2)
    );
    assert_eq!(
        run(&[
            "validate",
            "--lang",
            "klingon",
            "fixtures/validate/errors.pgn"
        ])
        .status
        .code(),
        Some(2)
    );
    assert_eq!(run(&["validate"]).status.code(), Some(2));
    assert_eq!(
        run(&[
            "validate",
            "--format",
            "xml",
            "fixtures/validate/errors.pgn"
        ])
        .status
        .code(),
        Some(2)
    );
}

#[test]
fn stdin_directories_and_compressed_input_give_the_same_records() {
    let plain = run(&[
        "validate",
        "--format",
        "json",
        "-q",
        "fixtures/validate/errors.pgn",
    ]);
    let text = std::fs::read(root().join("fixtures/validate/errors.pgn")).unwrap();
    let mut child = crate::util::bin_command()
        .args(["validate", "--format", "json", "-q", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let piped = child.wait_with_output().unwrap();
    let strip_file = |out: &Output| {
        records(out)
            .into_iter()
            .map(|mut r| {
                r.as_object_mut().unwrap().remove("file");
                r
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip_file(&plain), strip_file(&piped));

    let dir = util::temp_dir("validate", "directory");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    std::fs::write(dir.join("a.pgn.gz"), gz.finish().unwrap()).unwrap();
    std::fs::write(
        dir.join("sub/b.pgn.zst"),
        zstd::encode_all(&text[..], 3).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join("notes.txt"), b"not a pgn").unwrap();
    // The same games twice: the checks across files would find the second copy's games again (below).
    let unchecked = [
        "validate",
        "--format",
        "json",
        "-q",
        "--no-tournament-checks",
    ];
    let out = run(&[&unchecked[..], &[dir.to_str().unwrap()]].concat());
    let recs = strip_file(&out);
    let once = strip_file(&run(
        &[&unchecked[..], &["fixtures/validate/errors.pgn"]].concat()
    ));
    assert_eq!(
        recs.len(),
        2 * once.len(),
        "both compressed files read, the .txt ignored"
    );
    assert_eq!(&recs[..once.len()], &once[..]);
    assert_eq!(&recs[once.len()..], &once[..]);
    // With the checks, every game of the second file with moves names its twin in the first as the same
    // game, and only that: a duplicate is not also its players twice in the round. A game without a move
    // (its start is no position) is the same as no other.
    let checked = records(&run(&[
        "validate",
        "--format",
        "json",
        "-q",
        dir.to_str().unwrap(),
    ]));
    let first = dir.join("a.pgn.gz").display().to_string();
    let kinds_naming_first = |rec: &Value| {
        rec["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| {
                p["message"]
                    .as_str()
                    .unwrap()
                    .contains(&format!(" of {first}"))
            })
            .map(|p| p["kind"].as_str().unwrap().to_string())
            .collect::<BTreeSet<_>>()
    };
    for rec in &checked[..once.len()] {
        assert!(kinds_naming_first(rec).is_empty(), "{rec}");
    }
    for rec in &checked[once.len()..] {
        let kinds = kinds_naming_first(rec);
        let moved = rec["plies"].as_u64() > Some(0)
            || rec["problems"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p.get("ply").is_some());
        let expected: BTreeSet<String> = if moved {
            BTreeSet::from(["duplicate_game".to_string()])
        } else {
            BTreeSet::new()
        };
        assert_eq!(kinds, expected, "{rec}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn french_game_with_only_kings_and_pawns_is_read_as_french() {
    // `R` is the king in French (and the rook in English): only the French reading replays this game.
    let pgn = "[Event \"?\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Re2 Re7 3. Rf3 Rf6 *\n";
    let mut child = crate::util::bin_command()
        .args(["validate", "--format", "json", "-q", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pgn.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let recs = records(&out);
    assert_eq!(recs[0]["lang"], "fr");
    assert_eq!(recs[0]["lang_confidence"], "replay");
    assert_eq!(recs[0]["valid"], true);
    assert_eq!(recs[0]["plies"], 6);
}

// ---- the shared corpus, against python-chess's verdicts ----

fn expected(name: &str) -> Vec<Value> {
    util::read_jsonl_gz(&corpus(&format!("expected/{name}.jsonl.gz")))
}

fn claims(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// Validates a corpus file and compares every game with the oracle: legality, plies, termination, claims.
fn agree_with_oracle(pgn: &Path, oracle: &str) {
    let out = run(&["validate", "--format", "json", "-q", pgn.to_str().unwrap()]);
    let got = records(&out);
    let want = expected(oracle);
    assert_eq!(got.len(), want.len(), "{pgn:?}: game count");
    let mut differences = Vec::new();
    for (g, e) in got.iter().zip(&want) {
        let same = g["valid"] == e["valid"]
            && g["plies"] == e["plies"]
            && g["termination"] == e["termination"]
            && claims(&g["claimable"]) == claims(&e["claimable"]);
        if !same {
            differences.push(format!(
                "game {}: want valid={} plies={} {} {:?}; got valid={} plies={} {} {:?}",
                e["game"],
                e["valid"],
                e["plies"],
                e["termination"],
                claims(&e["claimable"]),
                g["valid"],
                g["plies"],
                g["termination"],
                claims(&g["claimable"])
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{pgn:?}: {} differences, first: {:?}",
        differences.len(),
        &differences[..differences.len().min(5)]
    );
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn english_corpus_agrees_with_the_oracle_game_by_game() {
    for name in [
        "gnuchess-book_games-000001-020000",
        "twic1389_3393games",
        "lichess-db-2025-05_blitz_438games_clk",
        "pychess-world_matches",
        "chessjs-benchmark",
        "pgnparser-32games",
        "python-chess-kasparov-deep-blue-1997",
        "sunfish-gaviota-starters",
    ] {
        agree_with_oracle(&corpus(&format!("games-english/{name}.pgn")), name);
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn rules_outcome_files_agree_with_the_oracle_and_their_names() {
    for name in [
        "sunfish-3fold_do",
        "pychess-3fold",
        "pychess-threefold",
        "pychess-50",
        "pychess-50halfmoves",
        "pychess-insufficient_material",
        "pychess-mate",
        "pychess-promotion",
    ] {
        agree_with_oracle(&corpus(&format!("rules-outcomes/{name}.pgn")), name);
    }
    // Every game of sunfish-3fold_do ends with threefold repetition claimable.
    let out = run(&[
        "validate",
        "--format",
        "json",
        "-q",
        corpus("rules-outcomes/sunfish-3fold_do.pgn")
            .to_str()
            .unwrap(),
    ]);
    let recs = records(&out);
    assert!(!recs.is_empty());
    for r in &recs {
        assert!(
            claims(&r["claimable"]).contains("threefold_repetition"),
            "game {}",
            r["game"]
        );
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn french_corpus_is_detected_as_french_and_replays_like_the_english_originals() {
    for (name, games) in [
        ("twic1389_3393games", 3393),
        ("pychess-world_matches", 580),
        ("lichess-db-2025-05_blitz_438games_clk", 438),
    ] {
        let fr = corpus(&format!("games-french/{name}.fr.pgn"));
        let out = run(&["validate", "--format", "json", "-q", fr.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{name}: no errors expected");
        let recs = records(&out);
        assert_eq!(recs.len(), games);
        let want = expected(name);
        for (r, e) in recs.iter().zip(&want) {
            assert_eq!(r["plies"], e["plies"], "{name} game {}", e["game"]);
            assert_eq!(r["valid"], true);
            let confidence = r["lang_confidence"].as_str().unwrap();
            assert!(
                r["lang"] == "fr" || confidence == "irrelevant",
                "{name} game {}: read as {} ({confidence})",
                e["game"],
                r["lang"]
            );
        }
        let en = corpus(&format!("games-english/{name}.pgn"));
        let out = run(&["validate", "--format", "json", "-q", en.to_str().unwrap()]);
        for r in records(&out) {
            assert!(
                r["lang"] == "en" || r["lang_confidence"] == "irrelevant",
                "{name} (English) game {}",
                r["game"]
            );
        }
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn injected_errors_are_found_where_the_oracle_put_them() {
    let text = std::fs::read_to_string(corpus("injected/injected.expected.jsonl")).unwrap();
    let injected: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for lang in ["en", "fr"] {
        let path = corpus(&format!("injected/injected.{lang}.pgn"));
        let out = run(&["validate", "--format", "json", "-q", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        let recs = records(&out);
        assert_eq!(recs.len(), 3393);
        let mut bad = BTreeSet::new();
        for e in &injected {
            let game = e["game"].as_u64().unwrap() as usize;
            bad.insert(game);
            let r = &recs[game - 1];
            assert_eq!(r["valid"], false, "{lang} game {game}");
            assert_eq!(r["plies"], e["plies_before"], "{lang} game {game}");
            let line = e[format!("{lang}_line")].as_u64().unwrap();
            let column = e[format!("{lang}_column")].as_u64().unwrap();
            let kinds: Vec<_> = problems(r)
                .into_iter()
                .filter(|p| p.1 == line && p.2 == column)
                .collect();
            assert!(
                !kinds.is_empty(),
                "{lang} game {game}: nothing at {line}:{column}: {:?}",
                problems(r)
            );
            let want_kind = e["kind"].as_str().unwrap();
            assert!(
                kinds.iter().any(|k| k.0 == want_kind),
                "{lang} game {game}: want {want_kind}, got {kinds:?}"
            );
        }
        for (i, r) in recs.iter().enumerate() {
            if !bad.contains(&(i + 1)) {
                assert_eq!(
                    r["valid"],
                    true,
                    "{lang} game {} should be valid: {:?}",
                    i + 1,
                    problems(r)
                );
            }
        }
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn output_order_does_not_depend_on_threads() {
    let path = corpus("games-english/twic1389_3393games.pgn");
    let one = run(&[
        "validate",
        "--format",
        "json",
        "-q",
        "-j1",
        path.to_str().unwrap(),
    ]);
    let two = run(&[
        "validate",
        "--format",
        "json",
        "-q",
        "-j2",
        path.to_str().unwrap(),
    ]);
    let four = run(&[
        "validate",
        "--format",
        "json",
        "-q",
        "-j4",
        path.to_str().unwrap(),
    ]);
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stdout, four.stdout);
}

/// Every `.pgn` file below `dir`, in a stable order.
fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read corpus directory")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn two_threads_report_exactly_what_one_does_on_every_edge_case_in_one_file() {
    // One file of every edge-case and injected-error file: with two threads the reading thread cuts it into
    // many batches, through comments, escapes, tagless games and broken tag sections, where one thread
    // parses blocks as it reads. Diagnostics (game numbers, lines, columns) and the summary must not differ.
    let mut files = Vec::new();
    pgn_files(&corpus("pgn-edge-cases"), &mut files);
    pgn_files(&corpus("injected"), &mut files);
    let mut all = Vec::new();
    for f in &files {
        all.extend(std::fs::read(f).expect("read corpus file"));
        all.push(b'\n');
    }
    assert!(all.len() > 1 << 20, "several batches of 128 KiB");
    let dir = util::temp_dir("validate", "threads");
    let path = dir.join("edge-cases.pgn");
    std::fs::write(&path, &all).unwrap();
    let report = |jobs: &str| {
        let out = run(&["validate", "--color", "never", jobs, path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "the injected errors are found");
        // all but the line with the elapsed time
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with("validated "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = report("-j1");
    assert!(one.matches("error[").count() > 100);
    assert_eq!(one, report("-j2"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chess960_games_replay_with_their_castling_and_other_variants_are_refused() {
    for file in [
        "pgn-edge-cases/pychess/chess960rwch.pgn",
        "pgn-edge-cases/python-chess/cutechess-fischerrandom.pgn",
    ] {
        let out = run(&[
            "validate",
            "--format",
            "json",
            "-q",
            subset(file).to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{file}");
        let recs = records(&out);
        assert!(!recs.is_empty());
        for r in &recs {
            assert_eq!(
                r["valid"],
                true,
                "{file} game {}: {:?}",
                r["game"],
                problems(r)
            );
            assert_eq!(r["variant"], "chess960");
            assert!(r["plies"].as_u64().unwrap() > 0);
        }
    }
    for (file, variant) in [
        (
            "pgn-edge-cases/python-chess/antichess-programfox.pgn",
            "Antichess",
        ),
        (
            "pgn-edge-cases/python-chess/knightvuillaume-jannlee-zh-lichess.pgn",
            "Crazyhouse",
        ),
    ] {
        let out = run(&[
            "validate",
            "--format",
            "json",
            "-q",
            subset(file).to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{file}");
        for r in records(&out) {
            assert_eq!(r["variant"], variant);
            assert_eq!(r["plies"], 0, "never replayed as standard chess");
            assert!(problems(&r).iter().any(|p| p.0 == "unsupported_variant"));
        }
    }
}

/// The round files of one tournament (`fixtures/validate/tournament/`).
const ROUND1: &str = "fixtures/validate/tournament/round1.pgn";
const ROUND2: &str = "fixtures/validate/tournament/round2.pgn";
const ROUND4: &str = "fixtures/validate/tournament/round4.pgn";

/// (kind, message) of every problem of a record.
fn messages(record: &Value) -> Vec<(String, String)> {
    record["problems"]
        .as_array()
        .expect("problems is an array")
        .iter()
        .map(|p| {
            (
                p["kind"].as_str().unwrap().to_string(),
                p["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_tournament_in_one_file_per_round_is_checked_across_its_files() {
    let args = ["validate", "--format", "json", ROUND1, ROUND2];
    let out = run(&args);
    let recs = records(&out);
    assert_eq!(recs.len(), 6, "{}", util::show(&args, &out));
    for rec in &recs[..4] {
        assert_eq!(problems(rec), vec![], "{rec}");
    }
    // round2.pgn's third game is round1.pgn's second, pasted into the wrong file: a duplicate, and only that
    // (the same two players meeting again are not each said to play twice in the round).
    let copied = &recs[4];
    assert_eq!(copied["file"], ROUND2);
    assert_eq!(copied["game"], 3);
    assert_eq!(
        messages(copied),
        vec![(
            "duplicate_game".to_string(),
            format!("same players and same moves as game 2 of {ROUND1} (Cy – Dee)")
        )]
    );
    assert!(
        problems(copied).iter().all(|p| p.1 == 21 && p.2 == 1),
        "at the game's first line"
    );
    // Its fourth game is board 1.3, Ann against Eve, while Ann played board 1.1 against Bob: a round is its
    // number, whatever the board.
    let board_three = &recs[5];
    assert_eq!(
        messages(board_three),
        vec![(
            "player_twice_in_round".to_string(),
            format!("Ann also plays game 1 of {ROUND1} in round 1")
        )]
    );
    // Warnings alone: exit 0, 1 with --strict; and no check across files without the tournament checks.
    assert_eq!(out.status.code(), Some(0), "{}", util::show(&args, &out));
    assert_eq!(
        run(&["validate", "-q", "--strict", ROUND1, ROUND2])
            .status
            .code(),
        Some(1)
    );
    let without = run(&[
        "validate",
        "--format",
        "json",
        "--no-tournament-checks",
        ROUND1,
        ROUND2,
    ]);
    assert!(records(&without).iter().all(|r| problems(r).is_empty()));
    // Each file alone is clean: the findings need both.
    for file in [ROUND1, ROUND2] {
        let alone = run(&["validate", "--format", "json", file]);
        assert!(
            records(&alone).iter().all(|r| problems(r).is_empty()),
            "{file}"
        );
    }
}

#[test]
fn cross_game_checks_follow_as_many_games_as_asked_then_say_they_stopped() {
    // Six games; the fifth repeats the second. Tracking four games misses it and says so on stderr (JSON stays
    // one record per game on stdout); tracking six finds it.
    let limited = [
        "validate",
        "--format",
        "json",
        "--track-games",
        "4",
        ROUND1,
        ROUND2,
    ];
    let out = run(&limited);
    let recs = records(&out);
    assert_eq!(recs.len(), 6, "{}", util::show(&limited, &out));
    assert!(
        recs.iter().all(|r| problems(r).is_empty()),
        "{}",
        util::show(&limited, &out)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("more than 4 games in this run; duplicate, round and round-numbering checks stopped there (--track-games GAMES follows more)"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(0));
    let enough = run(&[
        "validate",
        "--format",
        "json",
        "--track-games",
        "6",
        ROUND1,
        ROUND2,
    ]);
    let kinds: Vec<String> = messages(&records(&enough)[4])
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert!(kinds.contains(&"duplicate_game".to_string()), "{kinds:?}");
    assert!(!String::from_utf8_lossy(&enough.stderr).contains("more than"));
    let one = run(&["validate", "--track-games", "1", ROUND1]);
    assert!(
        String::from_utf8_lossy(&one.stderr).contains("more than 1 game in this run;"),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    // No game tracked is not a limit: a usage error.
    for bad in ["0", "-1", "many"] {
        let args = ["validate", "--track-games", bad, ROUND1];
        assert_eq!(run(&args).status.code(), Some(2), "{bad}");
    }
}

#[test]
fn a_missing_round_is_one_warning_located_at_the_round_after_it() {
    let args = ["validate", "--color", "never", ROUND1, ROUND2, ROUND4];
    let out = run(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let expected = format!(
        "warning[round_numbering]: Spring Cup (Nantes, 2024): round 3 missing; rounds present: 1-2, 4 ({ROUND4}:1:1, game 1, round 4)"
    );
    assert_eq!(
        text.matches("warning[round_numbering]").count(),
        1,
        "{}",
        util::show(&args, &out)
    );
    assert!(text.contains(&expected), "{}", util::show(&args, &out));
    // After the diagnostics, before the summary, and counted in it: 2 warnings of games 3 and 4 of round2.pgn,
    // 1 here.
    let at = text.find(&expected).unwrap();
    assert!(text.find("player_twice_in_round").unwrap() < at);
    assert!(text[at..].contains("no errors, 3 warnings"), "{text}");
    assert_eq!(out.status.code(), Some(0));
    let strict = run(&["validate", "-q", "--strict", ROUND1, ROUND4]);
    assert_eq!(strict.status.code(), Some(1), "the gap alone is a warning");
    // Rounds 1, 2 and 4 in any order of the files: the same one finding.
    let reversed = run(&["validate", "--color", "never", "-q", ROUND4, ROUND1]);
    let reversed_text = String::from_utf8_lossy(&reversed.stdout);
    assert_eq!(
        reversed_text.matches("round_numbering").count(),
        1,
        "{reversed_text}"
    );
    assert!(reversed_text.contains(&format!("({ROUND4}:1:1, game 1, round 4)")));
    // Without round 4, no gap.
    let clean = run(&["validate", "--color", "never", ROUND1, ROUND2]);
    assert!(!String::from_utf8_lossy(&clean.stdout).contains("round_numbering"));
    let off = run(&[
        "validate",
        "--color",
        "never",
        "--no-tournament-checks",
        ROUND1,
        ROUND4,
    ]);
    assert!(!String::from_utf8_lossy(&off.stdout).contains("round_numbering"));
}

#[test]
fn run_level_warnings_keep_json_stdout_one_record_per_game() {
    let args = [
        "validate", "--format", "json", "--color", "never", ROUND1, ROUND2, ROUND4,
    ];
    let out = run(&args);
    let stdout = String::from_utf8(out.stdout.clone()).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        8,
        "one line per game: {}",
        util::show(&args, &out)
    );
    for line in &lines {
        let rec: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(rec["game"].is_u64() && rec["problems"].is_array(), "{line}");
    }
    assert!(!stdout.contains("round_numbering"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "warning[round_numbering]: Spring Cup (Nantes, 2024): round 3 missing; rounds present: 1-2, 4 ({ROUND4}:1:1, game 1, round 4)"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("no errors, 3 warnings"), "{stderr}");
    let strict = run(&[
        "validate", "--format", "json", "-q", "--strict", ROUND1, ROUND4,
    ]);
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(records(&strict).len(), 4);
}

#[test]
fn tag_checks_are_located_at_their_tags() {
    let args = ["validate", "--format", "json", "fixtures/validate/tags.pgn"];
    let out = run(&args);
    let recs = records(&out);
    assert_eq!(recs.len(), 4, "{}", util::show(&args, &out));
    assert_eq!(
        problems(&recs[0]),
        vec![("ply_count_mismatch".into(), 11, 1)]
    );
    assert_eq!(
        messages(&recs[0])[0].1,
        "PlyCount \"9\" disagrees with the main line, which has 7 half-moves"
    );
    assert_eq!(
        problems(&recs[1]),
        vec![
            ("future_date".into(), 22, 1),
            ("malformed_tag".into(), 23, 1),
            ("malformed_tag".into(), 25, 1),
        ]
    );
    assert_eq!(
        problems(&recs[2]),
        vec![("chess960_without_fen".into(), 37, 1)]
    );
    // `?` and empty ratings, ECO `?`, a date with unknown parts, Chess960 with its FEN, PlyCount right.
    assert_eq!(problems(&recs[3]), vec![], "{}", recs[3]);
    assert_eq!(recs[3]["plies"], 1);
    for rec in &recs {
        assert_eq!(rec["valid"], true, "warnings only: {rec}");
        for p in rec["problems"].as_array().unwrap() {
            assert_eq!(p["severity"], "warning", "{p}");
        }
    }
    assert_eq!(out.status.code(), Some(0));
    let off = run(&[
        "validate",
        "--format",
        "json",
        "--no-tournament-checks",
        "fixtures/validate/tags.pgn",
    ]);
    assert!(records(&off).iter().all(|r| problems(r).is_empty()));
}

/// `--messages fr` (or a French `LANG`): every message and the summary in French with French piece names;
/// the kinds, keys and exit code as in English.
#[test]
fn messages_in_french_keep_kinds_and_keys() {
    let file = "fixtures/validate/errors.pgn";
    let french = run(&["validate", "--messages", "fr", file]);
    let text = String::from_utf8_lossy(&french.stdout);
    for expected in [
        "erreur[no_piece_can_reach] : aucun cavalier ne peut aller en g3",
        "illégal : le cavalier en c3 est cloué sur le roi en e1 par le fou en b4",
        "ambigu : les deux cavaliers en b1 et f3 peuvent aller en d2",
        "roque interdit : le roi ou la tour en h1 a bougé",
        "(partie 1, Alpha – Bravo, ronde 1; 2. Ng3)",
        "validé : 11 parties",
        "11 erreurs dans 11 parties",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(!text.contains("error["), "English left in:\n{text}");
    let english = run(&["validate", file]);
    assert_eq!(french.status.code(), english.status.code());
    assert!(String::from_utf8_lossy(&english.stdout).contains("no knight can reach g3"));

    // The environment decides when --messages is not given; --messages wins over it.
    let by_env = |lang: &str, args: &[&str]| {
        let out = util::bin_command()
            .args(args)
            .env("LANG", lang)
            .current_dir(root())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(by_env("fr_FR.UTF-8", &["validate", file]).contains("aucun cavalier"));
    assert!(by_env("fr_FR.UTF-8", &["validate", "--messages", "en", file]).contains("no knight"));
    assert!(by_env("en_GB.UTF-8", &["validate", file]).contains("no knight"));

    // JSON: the same records, kinds and locations; only the messages differ.
    let json = |lang: &str| {
        records(&run(&[
            "validate",
            "--format",
            "json",
            "--messages",
            lang,
            file,
        ]))
    };
    let (en, fr) = (json("en"), json("fr"));
    assert_eq!(en.len(), fr.len());
    for (e, f) in en.iter().zip(&fr) {
        assert_eq!(problems(e), problems(f));
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(e), keys(f));
    }
    let message = |records: &[Value]| {
        records[0]["problems"][0]["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(message(&fr), "aucun cavalier ne peut aller en g3");
    assert_ne!(message(&en), message(&fr));
}

/// A game of a tournament against oneself, or with a side that names nobody, was said nothing of (and standings
/// ranked it): each is a warning at its tag, in English and French, and `--no-tournament-checks` drops them.
#[test]
fn a_player_against_himself_or_without_a_name_is_a_tag_warning() {
    let file = "fixtures/standings/round-3.pgn";
    let expected = |fr: bool| -> Vec<Vec<(String, String, u64)>> {
        let (self_play, unknown, missing) = if fr {
            (
                "White et Black sont le même joueur, \"Chen\" : la partie ne compte dans aucun classement",
                "White \"?\" ne nomme aucun joueur : la partie ne compte dans aucun classement",
                "pas de balise Black : la partie ne nomme aucun joueur de ce côté et ne compte dans aucun classement",
            )
        } else {
            (
                "White and Black are the same player, \"Chen\": the game counts in no standings",
                "White \"?\" names no player: the game counts in no standings",
                "no Black tag: the game names no player on that side and counts in no standings",
            )
        };
        let one = |kind: &str, message: &str, line: u64| {
            vec![(kind.to_string(), message.to_string(), line)]
        };
        vec![
            one("player_against_self", self_play, 54),
            one("unknown_player", unknown, 65),
            one("unknown_player", missing, 72),
        ]
    };
    for fr in [false, true] {
        let args = [
            "validate",
            "--format",
            "json",
            "--messages",
            if fr { "fr" } else { "en" },
            file,
        ];
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", util::show(&args, &out));
        let found: Vec<Vec<(String, String, u64)>> = records(&out)[4..]
            .iter()
            .map(|rec| {
                rec["problems"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|p| p["kind"] != "missing_tag")
                    .map(|p| {
                        assert_eq!(p["column"], 1);
                        (
                            p["kind"].as_str().unwrap().to_string(),
                            p["message"].as_str().unwrap().to_string(),
                            p["line"].as_u64().unwrap(),
                        )
                    })
                    .collect()
            })
            .collect();
        assert_eq!(found, expected(fr));
    }
    let off = run(&[
        "validate",
        "--format",
        "json",
        "--no-tournament-checks",
        file,
    ]);
    assert!(records(&off).iter().all(|r| problems(r).is_empty()));
}

/// "did you mean Cc6 (English piece letters)?" for `Nc6` in a French game read as if Cc6 were English; and
/// French said "en notation français". The suggestion now says what was written in which letters and what it
/// is in the game's, in both languages, and the adjectives agree.
#[test]
fn a_move_in_another_languages_letters_is_said_as_such() {
    let game = "1. e4 e5 2. Cf3 Nc6 3. Fb5 a6 *\n";
    let suggestion = |lang: &str| {
        let out = crate::util::pgnkit(
            &[
                "validate",
                "--format",
                "json",
                "--no-tournament-checks",
                "--messages",
                lang,
                "-",
            ],
            Some(game.as_bytes()),
        );
        let record = &records(&out)[0];
        assert_eq!(record["lang"], "fr", "{record}");
        let problem = &record["problems"][0];
        (
            problem["message"].as_str().unwrap().to_string(),
            problem["suggestion"].as_str().unwrap().to_string(),
        )
    };
    let (_, english) = suggestion("en");
    assert_eq!(
        english,
        "did you mean Cc6? Nc6 is written in English piece letters; in the French piece letters of this game, that move is Cc6"
    );
    let (message, french) = suggestion("fr");
    assert!(message.contains("en notation française"), "{message}");
    assert_eq!(
        french,
        "vouliez-vous dire Cc6 ? Nc6 est écrit en notation anglaise ; en notation française, celle de cette partie, ce coup s'écrit Cc6"
    );
    // Read as English (--lang en), a French letter is no English piece letter: "en notation anglaise".
    let out = crate::util::pgnkit(
        &[
            "validate",
            "--no-tournament-checks",
            "--lang",
            "en",
            "--messages",
            "fr",
            "-",
        ],
        Some(game.as_bytes()),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("'C' n'est pas une lettre de pièce en notation anglaise"),
        "{text}"
    );
    assert!(
        text.contains("vouliez-vous dire Nf3 ? Cf3 est écrit en notation française ; en notation anglaise, celle de cette partie, ce coup s'écrit Nf3"),
        "{text}"
    );
}

/// The summaries said "en 0.01 s (0.1 Mo/s" in French: a decimal comma there too, and the point in English.
#[test]
fn french_summaries_write_a_decimal_comma() {
    let file = "fixtures/examples/round5.pgn";
    // The time of a run's summary line: the figure before " s (", with two decimals.
    let time = |text: &str| -> String {
        let line = text
            .lines()
            .find(|l| l.contains(" s ("))
            .unwrap_or_else(|| panic!("no summary in {text}"));
        let before = &line[..line.find(" s (").unwrap()];
        before[before.rfind(' ').unwrap() + 1..].to_string()
    };
    for args in [
        &["validate"][..],
        &["convert", "-o", "/dev/null"],
        &["stats", "-o", "/dev/null"],
    ] {
        let said = |lang: &str| {
            let mut all = args.to_vec();
            all.extend(["--messages", lang, file]);
            let out = run(&all);
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            time(&text)
        };
        let (en, fr) = (said("en"), said("fr"));
        assert!(en.len() == 4 && en.as_bytes()[1] == b'.', "{args:?}: {en}");
        assert!(fr.len() == 4 && fr.as_bytes()[1] == b',', "{args:?}: {fr}");
    }
}

/// The checks across files and of the tags speak French too, with the same kinds.
#[test]
fn tournament_and_tag_checks_in_french() {
    let args = [
        "validate",
        "--messages",
        "fr",
        "fixtures/validate/tournament/round1.pgn",
        "fixtures/validate/tournament/round2.pgn",
        "fixtures/validate/tournament/round4.pgn",
        "fixtures/validate/tags.pgn",
    ];
    let out = run(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "avertissement[round_numbering] : Spring Cup (Nantes, 2024) : ronde 3 manquante ; rondes présentes : 1-2, 4",
        "avertissement[player_twice_in_round] : Ann joue aussi la partie 1 de fixtures/validate/tournament/round1.pgn à la ronde 1",
        "avertissement[duplicate_game] : mêmes joueurs et mêmes coups que la partie 2 de",
        "avertissement[malformed_tag] : ECO \"Z00\" n'est pas un code de A00 à E99",
        "avertissement[chess960_without_fen] : Variant \"Chess960\" sans balise FEN",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(
        !text.contains(" also plays ") && !text.contains("missing"),
        "{text}"
    );
}

#[test]
fn a_game_after_a_long_blank_run_is_located_at_its_first_tag_whatever_the_threads() {
    // More blank lines than a reader keeps between games (1 MiB): the one-thread reader kept part of them in
    // the second game's text, and a warning about the whole game pointed at where that text started.
    let game = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    let blank_lines = 1_114_050;
    let dir = util::temp_dir("validate", "blank-run");
    let path = dir.join("blank-run.pgn");
    std::fs::write(&path, format!("{game}{}{game}", "\n".repeat(blank_lines))).unwrap();
    let path = path.to_str().unwrap();
    let second_game_line = game.lines().count() + blank_lines + 1;
    let expected = format!("{path}:{second_game_line}:1, game 2");
    for threads in ["-j1", "-j2"] {
        let duplicate = warning_line(path, threads, "duplicate_game");
        assert!(duplicate.contains(&expected), "{threads}: {duplicate}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_without_tags_is_said_to_miss_them_at_its_first_move_whatever_the_blank_lines_and_threads()
{
    // The missing_tag warning was located at the game's first byte: line 1 for a file's first game after a few
    // blank lines, and, after a blank run longer than the reader keeps, inside the run at a line that depended
    // on the number of threads.
    let dir = util::temp_dir("validate", "tagless");
    for blank_lines in [0, 20, 2_000_000] {
        let path = dir.join(format!("tagless-{blank_lines}.pgn"));
        std::fs::write(
            &path,
            format!("{}1. e4 e5 2. Nf3 *\n", "\n".repeat(blank_lines)),
        )
        .unwrap();
        let path = path.to_str().unwrap();
        let expected = format!("({path}:{}:1, game 1)", blank_lines + 1);
        for threads in ["-j1", "-j2"] {
            let warning = warning_line(path, threads, "missing_tag");
            assert!(warning.ends_with(&expected), "{threads}: {warning}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first line of `pgnkit validate` on `path` with `threads` that starts a warning of `kind`.
fn warning_line(path: &str, threads: &str, kind: &str) -> String {
    let args = ["validate", "--color", "never", threads, path];
    let out = run(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let start = format!("warning[{kind}]");
    text.lines()
        .find(|l| l.starts_with(&start))
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("{}", util::show(&args, &out)))
}

/// `validate --format json --no-tournament-checks [EXTRA] -` on `pgn`: the exit code and the one record.
fn validate_text(pgn: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec!["validate", "--format", "json", "--no-tournament-checks"];
    args.extend_from_slice(extra);
    args.push("-");
    let out = util::pgnkit(&args, Some(pgn.as_bytes()));
    let recs = records(&out);
    assert_eq!(recs.len(), 1, "{}", util::show(&args, &out));
    (out.status.code(), recs[0].clone())
}

/// (severity, kind, count) of every problem of a record, in file order.
fn problems_counted(record: &Value) -> Vec<(String, String, u64)> {
    record["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["severity"].as_str().unwrap().to_string(),
                p["kind"].as_str().unwrap().to_string(),
                p["count"].as_u64().unwrap_or(1),
            )
        })
        .collect()
}

/// Issue 37, item 22: `e1-g1` and `g1-f3` (hyphenated coordinates without a piece letter) were read as pawn
/// captures ("no pawn can capture on g1 from e1"). They move the piece on the origin square, castling
/// included, as `e1g1` does, with a `coordinate_move` note (an error with `--strict`); `e2-e4` stays a pawn's
/// long algebraic move, not noted.
#[test]
fn hyphenated_coordinates_move_the_piece_on_their_origin_square() {
    let spelled = "1. e2-e4 e7-e5 2. g1-f3 b8-c6 3. f1-c4 f8-c5 4. e1-g1 g8-f6 5. f3xe5 e8xh8 *\n";
    let standard = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Nxe5 O-O *\n";
    let (code, record) = validate_text(spelled, &[]);
    let (_, reference) = validate_text(standard, &[]);
    assert_eq!(code, Some(0), "{record}");
    assert_eq!(record["valid"], true, "{record}");
    assert_eq!(record["plies"], 10);
    assert_eq!(record["final_fen"], reference["final_fen"]);
    // e2-e4 and e7-e5 are pawn moves; the eight others move a piece; the king takes its own rook once.
    assert_eq!(
        problems_counted(&record),
        [
            ("note".to_string(), "coordinate_move".to_string(), 8),
            ("note".to_string(), "spurious_capture".to_string(), 1),
        ],
        "{record}"
    );
    let (code, record) = validate_text(spelled, &["--strict"]);
    assert_eq!(code, Some(1));
    assert_eq!(record["valid"], false);
    assert!(
        problems_counted(&record)
            .iter()
            .all(|(severity, _, _)| severity == "error"),
        "{record}"
    );
    // A castling that is not allowed says so, of the king.
    let (_, record) = validate_text(
        "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Nf3 Nf6 5. Bc4 Bc5 6. e1-g1 *\n",
        &[],
    );
    let message = record["problems"][0]["message"].as_str().unwrap();
    assert!(message.starts_with("castling not allowed"), "{record}");
}

/// Issue 37, item 23: `2 . Nf3` (the move number apart from its period) stopped the game at an unreadable
/// `.`. The PGN standard makes the period a token of its own: a bare number and the periods after it are one
/// move number indication, two periods or more (or `…`) a black one; nothing to note.
#[test]
fn a_move_number_apart_from_its_periods_is_read() {
    let (code, record) = validate_text(
        "1. e4 e5 2 . Nf3 Nc6 3 .Bb5 3 ... a6 4 . Ba4 4 … Nf6 5\n. O-O *\n",
        &["--strict"],
    );
    assert_eq!(code, Some(0), "{record}");
    assert_eq!(record["valid"], true, "{record}");
    assert_eq!(record["plies"], 9);
    assert_eq!(record["problems"], Value::Array(vec![]), "{record}");
}

/// Issue 37, item 24: `exf6ep` (the e.p. suffix without its periods) was an unreadable token, and `exf6 ep`
/// stopped the game at `ep`. Both are read as `exf6e.p.` and `exf6 e.p.` are, after a pawn capture; `ep`
/// elsewhere is no token.
#[test]
fn an_en_passant_suffix_without_periods_is_read() {
    for capture in ["exf6ep", "exf6 ep", "exf6e.p.", "exf6 e.p."] {
        let pgn = format!("1. e4 d5 2. e5 f5 3. {capture} Nxf6 *\n");
        let (code, record) = validate_text(&pgn, &["--strict"]);
        assert_eq!(code, Some(0), "{capture}: {record}");
        assert_eq!(record["plies"], 6, "{capture}: {record}");
        assert_eq!(
            record["problems"],
            Value::Array(vec![]),
            "{capture}: {record}"
        );
    }
    // After a check mark too (here a false one, noted).
    let (_, record) = validate_text("1. e4 d5 2. e5 f5 3. exf6+ep Nxf6 *\n", &[]);
    assert_eq!(record["plies"], 6, "{record}");
    assert_eq!(
        record["problems"][0]["kind"], "spurious_check_mark",
        "{record}"
    );
    let (_, record) = validate_text("1. Nf3 ep *\n", &[]);
    assert_eq!(record["valid"], false, "{record}");
    assert_eq!(record["problems"][0]["kind"], "unreadable_move", "{record}");
}

/// Issue 37, item 25: `--strict` accepted `Nxf3` onto an empty square and `Bb5+` that gives no check, and
/// without it nothing was said. Marks that say something false of the move are notes, errors with
/// `--strict`: `spurious_capture`, `spurious_check_mark`, and `wrong_check_mark` (`#` on a mere check, `+` on
/// a mate); a missing mark stays the import format's tolerance.
#[test]
fn false_capture_and_check_marks_are_notes_and_errors_with_strict() {
    // Checked with python-chess: 8... Qxe2 and 17. Rxe8 check without mating.
    let pgn = "1. e4 e5 2. Nxf3 Nc6 3. Bb5+ a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4+ \
               7. Kf1 Bc5 8. Qe2 Qxe2# 9. Kxe2 Bg4 10. d3 Bxf3+ 11. gxf3 O-O-O \
               12. Rg1 Rd6 13. Rxg7 Rf6 14. Rxh7 Rxf3 15. Kxf3 Nf6 16. Rxh8+ Ne8 17. Rxe8# *\n";
    let (code, record) = validate_text(pgn, &[]);
    assert_eq!(code, Some(0), "{record}");
    assert_eq!(record["valid"], true, "{record}");
    let note = |kind: &str, count| ("note".to_string(), kind.to_string(), count);
    assert_eq!(
        problems_counted(&record),
        [
            note("spurious_capture", 1),
            note("spurious_check_mark", 1),
            note("wrong_check_mark", 2),
        ],
        "{record}"
    );
    let messages: Vec<&str> = record["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "\"Nxf3\" read as Nf3 ('x' on a move that captures nothing)",
            "\"Bb5+\" read as Bb5 (check mark on a move that gives no check)",
            "\"Qxe2#\" read as Qxe2+ ('+' and '#' confused)",
        ]
    );
    let (code, record) = validate_text(pgn, &["--strict"]);
    assert_eq!(code, Some(1), "{record}");
    assert_eq!(record["valid"], false);
    let error = |kind: &str, count| ("error".to_string(), kind.to_string(), count);
    assert_eq!(
        problems_counted(&record),
        [
            error("spurious_capture", 1),
            error("spurious_check_mark", 1),
            error("wrong_check_mark", 2),
        ]
    );
    // In French.
    let (_, record) = validate_text("1. f3 e5 2. g4 Dh4+ 0-1\n", &["--messages", "fr"]);
    assert_eq!(
        record["problems"][0]["message"],
        "\"Dh4+\" lu comme Dh4# ('+' et '#' confondus)"
    );
    // A missing mark is no note; nor are marks in a variation that are right.
    let (code, record) = validate_text(
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 (4. Bxf7+ Ke7) 1-0\n",
        &["--strict"],
    );
    assert_eq!(code, Some(0), "{record}");
    assert_eq!(record["problems"], Value::Array(vec![]), "{record}");
    // Marks in a variation are judged too.
    let (_, record) = validate_text("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 (3... a6 4. Qxf7+) *\n", &[]);
    assert_eq!(
        problems_counted(&record),
        [note("wrong_check_mark", 1)],
        "{record}"
    );
}

/// (game, kind, severity, line, message) of each problem of `validate --format json` over `args`.
fn problems_of(args: &[&str]) -> Vec<(u64, String, String, u64, String)> {
    let mut all = vec!["validate", "--format", "json"];
    all.extend(args);
    let out = run(&all);
    let mut found = Vec::new();
    for r in records(&out) {
        for p in r["problems"].as_array().unwrap() {
            found.push((
                r["game"].as_u64().unwrap(),
                p["kind"].as_str().unwrap().to_string(),
                p["severity"].as_str().unwrap().to_string(),
                p["line"].as_u64().unwrap(),
                p["message"].as_str().unwrap().to_string(),
            ));
        }
    }
    found
}

/// Each forfeit and bye game of fixtures/standings/forfeits.pgn is a note, at its Result tag (a bye at the tag
/// that names it), in English and French; `--moveless` changes what a game without moves is said to be;
/// `--strict` does not make these notes errors (they are no spellings); an empty side of a bye game is no
/// `unknown_player`.
#[test]
fn forfeits_and_byes_are_noted() {
    let file = "fixtures/standings/forfeits.pgn";
    let kinds = |args: &[&str]| -> Vec<(u64, String, u64)> {
        problems_of(args)
            .into_iter()
            .map(|(game, kind, _, line, _)| (game, kind, line))
            .collect()
    };
    let note = |game: u64, kind: &str, line: u64| (game, kind.to_string(), line);
    assert_eq!(
        kinds(&[file]),
        [
            note(2, "forfeit", 17),
            note(3, "bye", 26),
            note(5, "forfeit", 47),
            note(6, "bye", 56),
            note(7, "forfeit", 68),
            note(9, "bye", 88),
        ]
    );
    let said = problems_of(&["--messages", "fr", file]);
    assert_eq!(
        said[0].4,
        "un forfait : les Blancs gagnent sans jouer (un résultat sans aucun coup ; --moveless lit autrement de telles parties ; TRF + et -)"
    );
    let said = problems_of(&[file]);
    let messages: Vec<&str> = said.iter().map(|p| p.4.as_str()).collect();
    assert_eq!(
        messages,
        [
            "a forfeit: White wins without playing (a result without a single move; --moveless reads such games otherwise; TRF + and -)",
            "a bye: Eklund scores 1 point without an opponent (a full-point bye, TRF F)",
            "a double forfeit: neither player played, both score 0 (TRF - and -)",
            "a bye: Diaz scores ½ point without an opponent (a half-point bye, TRF H)",
            "a forfeit: Black wins without playing (the Termination tag says so; TRF + and -)",
            "a bye: Eklund scores nothing without an opponent (a zero-point bye, TRF Z)",
        ]
    );
    assert!(said.iter().all(|p| p.2 == "note"));
    // --moveless: the game without moves is a game of less than one move, or played (nothing said).
    let unrated = problems_of(&["--moveless", "unrated", file]);
    assert_eq!((unrated[0].0, unrated[0].1.as_str()), (2, "unrated_game"));
    assert!(
        problems_of(&["--moveless", "played", file])
            .iter()
            .all(|p| p.0 != 2)
    );
    let allocated = problems_of(&["--allocated-bye", "bye-game", file]);
    assert!(
        allocated[1].4.contains("pairing-allocated bye (TRF U)"),
        "{allocated:?}"
    );
    let strict = problems_of(&["--strict", file]);
    assert!(strict.iter().all(|p| p.2 == "note"), "{strict:?}");
    let args = ["validate", "--strict", file];
    assert_eq!(run(&args).status.code(), Some(0), "notes only");
}

/// A double forfeit written as files write it, `[Result "0-0"]` (or `-/-`, `-:-`, `0:0`) over a movetext of `*`:
/// validate reads it as the standings do, a note, with no malformed Result tag and no mismatch with the `*`
/// (before, a warning and an error for a game the standings counted as a double forfeit).
#[test]
fn a_double_forfeit_result_tag_is_a_note() {
    let dir = temp_dir("validate", "double_forfeit_tag");
    for result in ["0-0", "-/-", "-:-", "0:0"] {
        let path = dir.join("round.pgn");
        std::fs::write(
            &path,
            format!(
                "[Event \"Forfeit Open\"]\n[Site \"Lyon\"]\n[Date \"2024.05.02\"]\n[Round \"2\"]\n\
                 [White \"Berg\"]\n[Black \"Eklund\"]\n[Result \"{result}\"]\n\n*\n"
            ),
        )
        .unwrap();
        let path = path.display().to_string();
        let found = problems_of(&["--strict", &path]);
        let kinds: Vec<(&str, &str)> = found.iter().map(|p| (p.1.as_str(), p.2.as_str())).collect();
        assert_eq!(kinds, [("forfeit", "note")], "{result}: {found:?}");
        assert!(
            found[0].4.starts_with("a double forfeit"),
            "{result}: {found:?}"
        );
        assert_eq!(
            run(&["validate", "--strict", &path]).status.code(),
            Some(0),
            "{result}"
        );
        // The standings read it alike: no point for either, `-` on both lines of the TRF (round 1, before the
        // file's first round, is an absence).
        let trf =
            String::from_utf8(run(&["standings", "--format", "trf16", &path]).stdout).unwrap();
        let blocks: Vec<&str> = trf
            .split("\r\n")
            .filter(|l| l.starts_with("001"))
            .map(|l| l[91..].trim_end())
            .collect();
        assert_eq!(
            blocks,
            ["0000 - Z     2 w -", "0000 - Z     1 b -"],
            "{result}: {trf}"
        );
    }
    // A Result no reading gives stays a malformed tag.
    std::fs::write(
        dir.join("bad.pgn"),
        "[Event \"Forfeit Open\"]\n[Site \"Lyon\"]\n[Date \"2024.05.02\"]\n[Round \"2\"]\n\
         [White \"Berg\"]\n[Black \"Eklund\"]\n[Result \"2-0\"]\n\n*\n",
    )
    .unwrap();
    let bad = dir.join("bad.pgn").display().to_string();
    assert!(problems_of(&[&bad]).iter().any(|p| p.1 == "malformed_tag"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// fixtures/standings/fide-ids.pgn: each other spelling of a FIDE id's name is noted once, at its first game;
/// one name with a second id is a warning; two players of one name in one round are no player twice in it.
#[test]
fn fide_id_name_variants_and_one_name_with_two_ids() {
    let found: Vec<(u64, String, String, String)> =
        problems_of(&["fixtures/standings/fide-ids.pgn"])
            .into_iter()
            .map(|(game, kind, severity, _, message)| (game, kind, severity, message))
            .collect();
    let one = |game: u64, kind: &str, severity: &str, message: &str| {
        (
            game,
            kind.to_string(),
            severity.to_string(),
            message.to_string(),
        )
    };
    assert_eq!(
        found,
        [
            one(
                2,
                "name_with_two_fide_ids",
                "warning",
                "Smith, John has FIDE id 1000002 here and 1000001 in game 1: two players of the same name"
            ),
            one(
                3,
                "fide_id_name_variant",
                "note",
                "So,W has FIDE id 5202213, which game 1 gives under another name: one player"
            ),
            one(
                5,
                "fide_id_name_variant",
                "note",
                "So, W. has FIDE id 5202213, which game 1 gives under another name: one player"
            ),
        ]
    );
    let fr = problems_of(&["--messages", "fr", "fixtures/standings/fide-ids.pgn"]);
    assert_eq!(
        fr[1].4,
        "So,W a l'identifiant FIDE 5202213, que la partie 1 donne sous un autre nom : un seul joueur"
    );
}
