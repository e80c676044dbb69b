//! End-to-end tests of what real files hold at the edges (issue #11): spellings outside the standard that
//! replay with a note (`--strict` makes them errors), hostile input that stays bounded, text that reaches a
//! terminal clean, and messages that say the right thing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::util::{self, records, run, run_within_address_space};

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    util::temp_dir("real-world", name)
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

/// (severity, kind) → count, of a record's problems.
fn problem_counts(record: &Value) -> BTreeMap<(String, String), u64> {
    let mut counts = BTreeMap::new();
    for p in record["problems"].as_array().unwrap() {
        let key = (
            p["severity"].as_str().unwrap().to_string(),
            p["kind"].as_str().unwrap().to_string(),
        );
        *counts.entry(key).or_default() += p["count"].as_u64().unwrap_or(1);
    }
    counts
}

const SPELLED: &str = "fixtures/validate/spellings.pgn";
const STANDARD: &str = "fixtures/validate/spellings.standard.pgn";

/// The notes each game of `spellings.pgn` must get: (kind, uses).
fn expected_notes() -> Vec<Vec<(&'static str, u64)>> {
    vec![
        vec![("separate_ellipsis", 1)],
        vec![],
        vec![("separate_ellipsis", 2), ("result_spelling", 1)],
        // the Result tag and the marker
        vec![("result_spelling", 2)],
        vec![("lowercase_piece_letter", 6)],
        vec![("coordinate_move", 8)],
        vec![("coordinate_move", 1)],
        vec![("parenthesized_promotion", 1)],
        vec![("unicode_space", 2)],
        vec![("fen_clock_repaired", 1)],
        // after a byte-order mark in the middle of the file: no extra game, nothing to say
        vec![],
    ]
}

#[test]
fn real_world_spellings_replay_every_ply_like_their_standard_forms_with_notes() {
    let spelled = run(&["validate", "--format", "json", SPELLED]);
    let standard = run(&["validate", "--format", "json", STANDARD]);
    assert_eq!(spelled.status.code(), Some(0), "notes alone exit 0");
    assert_eq!(standard.status.code(), Some(0));
    let (spelled, standard) = (records(&spelled), records(&standard));
    let expected = expected_notes();
    assert_eq!(spelled.len(), expected.len(), "one record per game");
    assert_eq!(standard.len(), expected.len());
    for ((s, t), notes) in spelled.iter().zip(&standard).zip(&expected) {
        let game = s["game"].as_u64().unwrap();
        assert_eq!(s["valid"], true, "game {game}: {s}");
        assert_eq!(s["plies"], t["plies"], "game {game}: every ply replays");
        assert!(s["plies"].as_u64().unwrap() > 0);
        assert_eq!(
            s["final_fen"], t["final_fen"],
            "game {game}: the same moves"
        );
        assert_eq!(s["marker"], t["marker"], "game {game}");
        let want: BTreeMap<(String, String), u64> = notes
            .iter()
            .map(|(kind, n)| (("note".to_string(), kind.to_string()), *n))
            .collect();
        assert_eq!(problem_counts(s), want, "game {game}: {s}");
        assert!(
            problem_counts(t).is_empty(),
            "game {game} in standard notation has nothing to say: {t}"
        );
    }
}

#[test]
fn strict_turns_the_spelling_notes_into_errors() {
    let out = run(&["validate", "--format", "json", "--strict", SPELLED]);
    assert_eq!(out.status.code(), Some(1));
    for (record, notes) in records(&out).iter().zip(expected_notes()) {
        let game = record["game"].as_u64().unwrap();
        assert_eq!(record["valid"], notes.is_empty(), "game {game}: {record}");
        let want: BTreeMap<(String, String), u64> = notes
            .iter()
            .map(|(kind, n)| (("error".to_string(), kind.to_string()), *n))
            .collect();
        assert_eq!(problem_counts(record), want, "game {game}: {record}");
    }
}

#[test]
fn notes_are_one_line_per_file_in_human_output() {
    let out = run(&["validate", "--color", "never", SPELLED]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let note_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("note")).collect();
    assert_eq!(note_lines.len(), 1, "{text}");
    let line = note_lines[0];
    assert!(
        line.starts_with(&format!("note: {SPELLED}: 25 non-standard spellings")),
        "{line}"
    );
    for kind in [
        "separate_ellipsis 3 in 2 games (first 11:4, game 1)",
        "lowercase_piece_letter 6 in 1 game",
        "coordinate_move 9 in 2 games",
        "parenthesized_promotion 1 in 1 game",
        "unicode_space 2 in 1 game",
        "fen_clock_repaired 1 in 1 game",
        "result_spelling 3 in 2 games",
    ] {
        assert!(line.contains(kind), "{kind} in {line}");
    }
    assert!(
        !text.contains("error[") && !text.contains("warning["),
        "no diagnostic per game: {text}"
    );
    assert!(text.contains("no errors, 0 warnings, 25 notes"), "{text}");
}

#[test]
fn a_flood_of_identical_problems_is_one_diagnostic_with_its_count() {
    let dir = temp_dir("flood");
    let file = dir.join("parens.pgn");
    let text = format!("[Event \"x\"]\n\n1. e4 {} *\n", ")".repeat(100_000));
    std::fs::write(&file, text).unwrap();
    let out = run(&["validate", "--color", "never", path_str(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("')' without an open variation (and 99999 more like this)"),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert!(
        text.contains("100000 errors in 1 game"),
        "the summary counts them all"
    );
    // Each diagnostic shows a window of its line, not the line.
    assert!(text.len() < 4000, "{} bytes of output", text.len());
    let json = run(&["validate", "--format", "json", path_str(&file)]);
    let record = &records(&json)[0];
    let flood = record["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "syntax" && p["count"].is_u64())
        .expect("one record with a count");
    assert_eq!(flood["count"], 100_000);
    assert_eq!(
        (flood["line"].as_u64(), flood["column"].as_u64()),
        (Some(3), Some(7))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `1. e4 e5` then Black's first move replaced by `e6` in variations nested `depth` deep, one per line.
fn nested_variations(depth: usize) -> String {
    format!(
        "[Event \"deep\"]\n\n1. e4 e5 {}{} (1... c5 2. Nf3) 2. Nf3 *\n",
        "(e6\n".repeat(depth),
        ")".repeat(depth)
    )
}

#[test]
fn variations_nested_beyond_the_limit_are_one_located_error_and_are_not_replayed() {
    let dir = temp_dir("nested");
    let file = dir.join("nested.pgn");
    std::fs::write(&file, nested_variations(300)).unwrap();
    let json = run(&["validate", "--format", "json", path_str(&file)]);
    assert_eq!(json.status.code(), Some(1));
    let record = &records(&json)[0];
    let problems = record["problems"].as_array().unwrap();
    let errors: Vec<&Value> = problems
        .iter()
        .filter(|p| p["severity"] == "error")
        .collect();
    assert_eq!(errors.len(), 1, "{problems:?}");
    assert_eq!(errors[0]["kind"], "syntax");
    assert_eq!(
        errors[0]["message"],
        "variation nested more than 256 levels deep: its moves are not checked"
    );
    // The 257th `(` opens line 3 + 256.
    assert_eq!(
        (errors[0]["line"].as_u64(), errors[0]["column"].as_u64()),
        (Some(259), Some(1))
    );
    // The 256 levels within the limit and the sibling variation are replayed, and so is the main line.
    assert_eq!(record["plies"], 3, "{record}");
    let human = run(&["validate", "--color", "never", path_str(&file)]);
    assert!(
        stdout(&human).contains("3 half-moves in the main lines and 258 in variations"),
        "{}",
        stdout(&human)
    );

    let fr = run(&[
        "--messages",
        "fr",
        "validate",
        "--color",
        "never",
        path_str(&file),
    ]);
    assert!(
        stdout(&fr).contains("variante imbriquée sur plus de 256 niveaux"),
        "{}",
        stdout(&fr)
    );

    // convert keeps the game as it was (with its error marked), never drops or rewrites it.
    let out_file = dir.join("out.pgn");
    let convert = run(&["convert", "-o", path_str(&out_file), path_str(&file)]);
    assert_eq!(convert.status.code(), Some(1));
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(written.matches("(e6").count(), 300);
    assert!(written.contains("(1... c5 2. Nf3) 2. Nf3 *"), "{written}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Before the limit, every open variation held two positions while the game was replayed: millions of `(`
/// (a 16 MB game, within the reader's 64 MiB) needed gigabytes and ended the process on a failed allocation.
#[test]
fn deep_nesting_is_read_within_bounded_memory() {
    let dir = temp_dir("nested-memory");
    let file = dir.join("deep.pgn");
    std::fs::write(&file, nested_variations(4_000_000)).unwrap();
    for command in ["validate", "convert", "stats"] {
        for threads in ["-j1", "-j2"] {
            let out = run_within_address_space(1 << 20, &[command, threads, path_str(&file)], None);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{command} {threads}: {}",
                &stderr[..stderr.len().min(2000)]
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of 300,000 one-marker games (600 KB) was one batch for the worker threads (batches were cut by
/// bytes only) and its reports took hundreds of megabytes: under a 256 MiB address-space limit the run ended
/// on a failed allocation. Batches now hold at most `pgn::MAX_BATCH_GAMES` games.
#[test]
fn a_flood_of_tiny_games_is_read_within_bounded_memory() {
    let dir = temp_dir("tiny-games");
    let file = dir.join("tiny.pgn");
    std::fs::write(&file, "*\n".repeat(300_000)).unwrap();
    for threads in ["-j1", "-j2"] {
        for format in ["human", "json"] {
            let out_file = dir.join(format!("out-{threads}-{format}"));
            let args = [
                "validate",
                "-q",
                threads,
                "--format",
                format,
                path_str(&file),
            ];
            let out = run_within_address_space(1 << 18, &args, Some(&out_file));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{threads} {format}: {}",
                &stderr[..stderr.len().min(2000)]
            );
            let text = std::fs::read_to_string(&out_file).unwrap();
            match format {
                "json" => assert_eq!(text.lines().count(), 300_000, "{threads}"),
                _ => assert!(
                    text.contains(":300000:1, game 300000)"),
                    "{threads}: {}",
                    &text[text.len().saturating_sub(500)..]
                ),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn control_bytes_never_reach_the_terminal() {
    let dir = temp_dir("controls");
    let file = dir.join("controls.pgn");
    std::fs::write(
        &file,
        b"[Event \"x\x07\"]\n[White \"Ann\x1b[31mRED\"]\n[Black \"B\x00b\"]\n\n1. e4 e5 2. Q\x1bh5 *\n",
    )
    .unwrap();
    let out = run(&["validate", "--color", "never", path_str(&file)]);
    assert_eq!(out.status.code(), Some(1), "Q\\x1bh5 is no move");
    for stream in [&out.stdout, &out.stderr] {
        let bad: Vec<u8> = stream
            .iter()
            .copied()
            .filter(|&b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f)
            .collect();
        assert!(
            bad.is_empty(),
            "raw control bytes {bad:?} in:\n{}",
            String::from_utf8_lossy(stream)
        );
    }
    let text = stdout(&out);
    assert!(text.contains("Ann\\u{1b}[31mRED"), "{text}");
    assert!(text.contains("B\\u{0}b"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game of one tournament between `white` and `black`, a 1-0.
fn decided_game(event: &str, white: &str, black: &str) -> String {
    format!(
        "[Event \"{event}\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"1-0\"]\n\n1-0\n\n"
    )
}

/// The text table padded every row to the tournament's longest name: 10,000 players and one name of 65,535
/// characters made a table of gigabytes (here a failed allocation under the cap), and a name of 65,536
/// characters ended the run on a panic (`Formatting argument out of range`). Names are now cut to a column of
/// at most 32 terminal columns, in `standings` and in `stats --summary` alike.
#[test]
fn a_name_of_any_length_keeps_the_text_tables_bounded() {
    let dir = temp_dir("long-names");
    let mut players: Vec<String> = (0..10_000).map(|i| format!("Player {i:05}")).collect();
    players[5_000] = "L".repeat(65_535);
    let wide_field: String = players
        .chunks(2)
        .map(|pair| decided_game("Big", &pair[0], &pair[1]))
        .collect();
    let wide_file = dir.join("wide-field.pgn");
    std::fs::write(&wide_file, &wide_field).unwrap();
    // Past what a format width can say, and a name of wide characters (two terminal columns each).
    let huge = "M".repeat(65_536);
    let chinese = "丁".repeat(400_000);
    let huge_file = dir.join("huge-names.pgn");
    std::fs::write(&huge_file, decided_game("Huge", &huge, &chinese)).unwrap();

    // Each long name's row: its first 31 characters and an ellipsis, the rest of the row after them; fifteen
    // wide characters (30 columns), the ellipsis and a space of padding make the 32 columns too.
    let cut = |c: &str, n: usize| format!("{}…", c.repeat(n));
    for (file, shown) in [
        (&wide_file, vec![cut("L", 31)]),
        (
            &huge_file,
            vec![cut("M", 31), format!("{} ", cut("丁", 15))],
        ),
    ] {
        let input = std::fs::metadata(file).unwrap().len() as usize;
        for command in [&["standings"][..], &["stats", "--summary"]] {
            let out_file = dir.join("out.txt");
            let mut args = command.to_vec();
            args.extend(["-j2", path_str(file)]);
            let out = run_within_address_space(256 << 10, &args, Some(&out_file));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
            let text = std::fs::read_to_string(&out_file).unwrap();
            // A row of some hundred bytes per player: linear in the input.
            assert!(
                text.len() <= 2 * input,
                "{args:?}: {} bytes out of {input} in",
                text.len()
            );
            for name in &shown {
                assert!(text.contains(name.as_str()), "{args:?}: no {name}");
            }
            assert!(!text.contains(&"丁".repeat(16)), "{args:?}");
            assert!(
                text.lines().all(|l| l.chars().count() < 160),
                "{args:?}: a line of {} characters",
                text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a terminal could take `c` as a command or reorder the line with it: a control character but the
/// line feed (C0, DEL, C1), a direction control, a line or paragraph separator.
fn obeyed_by_a_terminal(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{2028}' | '\u{2029}'
        )
}

/// An event named with an OSC window title, names with colours, a backspace, a carriage return, the C1 CSI and
/// direction controls: `standings`' table and its list of tournaments for `--format trf`, `stats --summary`
/// and validate's location line printed them raw (validate only escaped C0 controls).
#[test]
fn nothing_a_terminal_would_obey_reaches_it_from_any_text_output() {
    let dir = temp_dir("terminal-text");
    let file = dir.join("hostile.pgn");
    let title = "Open\x1b]0;owned\x07";
    let names = [
        "Ann\x1b[31mRED",
        "Bob\x08\x08\x08Eve",
        "Carl\rDan",
        "Dora\u{9b}2J",
        "Emil\u{202e}",
        "Finn\u{2066}x\u{200f}y\u{061c}",
    ];
    let mut pgn = String::new();
    for (i, white) in names.iter().enumerate() {
        for black in &names[i + 1..] {
            pgn.push_str(&decided_game(title, white, black));
        }
    }
    // A second tournament, so that --format trf lists both.
    pgn.push_str(&decided_game("Other\u{202e}", "X", "Y"));
    // A move that cannot be played, for validate's location line.
    pgn.push_str(
        "[Event \"Blitz\"]\n[White \"Gus\u{202e}\x1b[2J\"]\n[Black \"Hal\"]\n[Round \"1\u{202e}\"]\n\n1. e4 e5 2. Qxe5 1-0\n\n",
    );
    std::fs::write(&file, &pgn).unwrap();
    let path = path_str(&file);
    let runs: [&[&str]; 5] = [
        &["standings", path],
        &["standings", "--format", "trf", path],
        &["stats", "--summary", path],
        &["validate", "--color", "never", path],
        &["convert", "-o", "/dev/null", path],
    ];
    for args in runs {
        let out = run(args);
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            let raw: Vec<char> = text.chars().filter(|&c| obeyed_by_a_terminal(c)).collect();
            assert!(raw.is_empty(), "{args:?} {stream}: raw {raw:?} in\n{text}");
        }
    }
    let table = stdout(&run(&["standings", path]));
    for shown in [
        "Open\\u{1b}]0;owned\\u{7}",
        "Ann\\u{1b}[31mRED",
        "Bob\\u{8}\\u{8}\\u{8}Eve",
        "Carl\\rDan",
        "Dora\\u{9b}2J",
        "Emil\\u{202e}",
        "Finn\\u{2066}x\\u{200f}y\\u{61c}",
    ] {
        assert!(table.contains(shown), "{shown} not in\n{table}");
    }
    let trf = run(&["standings", "--format", "trf", path]);
    assert_eq!(trf.status.code(), Some(2));
    let listed = String::from_utf8_lossy(&trf.stderr);
    assert!(
        listed.contains("  Open\\u{1b}]0;owned\\u{7} — S — 2024 (6 players)")
            && listed.contains("  Other\\u{202e} — S — 2024 (2 players)"),
        "{listed}"
    );
    let summary = stdout(&run(&["stats", "--summary", path]));
    assert!(
        summary.contains("event \"Open\\u{1b}]0;owned\\u{7}\"")
            && summary.contains("Emil\\u{202e}"),
        "{summary}"
    );
    // validate's location line: the names and the round, each control shown escaped.
    let validated = stdout(&run(&["validate", "--color", "never", path]));
    assert!(
        validated.contains("Gus\\u{202e}\\u{1b}[2J – Hal, round 1\\u{202e}; 2. Qxe5)"),
        "{validated}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_tag_value_and_comment_is_decoded_on_its_own() {
    let dir = temp_dir("encodings");
    let file = dir.join("mixed.pgn");
    // a UTF-8 name, a Latin-1 name, a Latin-1 comment: one game
    std::fs::write(
        &file,
        b"[Event \"Open\"]\n[Site \"Paris\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"M\xc3\xbcller\"]\n[Black \"Ren\xe9\"]\n[Result \"*\"]\n\n1. e4 {caf\xe9} e5 *\n",
    )
    .unwrap();
    let out = run(&["validate", "--format", "json", path_str(&file)]);
    assert_eq!(out.status.code(), Some(0));
    let record = &records(&out)[0];
    assert_eq!(record["white"], "Müller");
    assert_eq!(record["black"], "René");
    let notes: Vec<&Value> = record["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "windows_1252_text")
        .collect();
    assert_eq!(notes.len(), 1, "{record}");
    assert_eq!(notes[0]["severity"], "note");
    assert_eq!(notes[0]["count"], 2, "the Black tag and the comment");
    assert!(
        notes[0]["message"].as_str().unwrap().contains("Black tag"),
        "the note names the field: {}",
        notes[0]
    );
    // Not UTF-8 is the PGN standard's own Latin-1: a note even with --strict.
    let strict = run(&["validate", "--strict", "--format", "json", path_str(&file)]);
    assert_eq!(strict.status.code(), Some(0));
    // convert writes both names as UTF-8
    let converted = run(&["convert", path_str(&file)]);
    let text = String::from_utf8(converted.stdout).expect("convert writes UTF-8");
    assert!(
        text.contains("[White \"Müller\"]") && text.contains("[Black \"René\"]"),
        "{text}"
    );
    assert!(text.contains("{café}"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_win_against_mating_material_is_drawn_only_on_time() {
    let dir = temp_dir("fide-6-9");
    let file = dir.join("bare-king.pgn");
    // White has a bare king and is scored the winner: by resignation (stands), or on time (a draw, 6.9).
    let game = |termination: &str| {
        format!(
            "[Event \"x\"]\n[Site \"x\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n\
             [Result \"1-0\"]\n[Termination \"{termination}\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/q7/4K3 w - - 0 1\"]\n\n\
             1. Kf1 Qb1+ 2. Kg2 1-0\n\n"
        )
    };
    std::fs::write(
        &file,
        [game("A won by resignation"), game("A won on time")].concat(),
    )
    .unwrap();
    let out = run(&["validate", "--format", "json", path_str(&file)]);
    let recs = records(&out);
    let message = |r: &Value| {
        r["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["kind"] == "win_without_mating_material")
            .map(|p| p["message"].as_str().unwrap().to_string())
            .expect("the warning")
    };
    let resigned = message(&recs[0]);
    assert!(
        resigned.contains("cannot checkmate by any series of legal moves"),
        "{resigned}"
    );
    assert!(resigned.contains("a resignation stands"), "{resigned}");
    assert!(!resigned.contains("is drawn"), "{resigned}");
    let flagged = message(&recs[1]);
    assert!(flagged.contains("won on time"), "{flagged}");
    assert!(
        flagged.contains("the game is drawn (FIDE 6.9)"),
        "{flagged}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_tags_are_one_line_per_game() {
    let dir = temp_dir("tagless");
    let file = dir.join("tagless.pgn");
    std::fs::write(&file, "1. e4 e5 *\n\n1. d4 d5 *\n").unwrap();
    let out = run(&["validate", "--color", "never", path_str(&file)]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let missing: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("warning[missing_tag]"))
        .collect();
    assert_eq!(missing.len(), 2, "{text}");
    for i in missing {
        assert!(
            lines[i].contains(
                "missing Seven Tag Roster tags: Event, Site, Date, Round, White, Black, Result"
            ),
            "{}",
            lines[i]
        );
        assert!(
            lines[i].ends_with(", game 1)") || lines[i].ends_with(", game 2)"),
            "{}",
            lines[i]
        );
        assert!(
            !lines
                .get(i + 1)
                .is_some_and(|l| l.trim_start().starts_with("-->")),
            "{text}"
        );
    }
    assert!(text.contains("2 warnings"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_language_is_guessed_from_variations_alone() {
    let dir = temp_dir("guess");
    let file = dir.join("guess.pgn");
    // The main line is a null move; the only letter (R, a rook in English, a king in French) is in a variation.
    std::fs::write(
        &file,
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. -- (1. Rf1) *\n",
    )
    .unwrap();
    let out = run(&["validate", "--format", "json", path_str(&file)]);
    let record = &records(&out)[0];
    assert!(
        !problem_counts(record)
            .keys()
            .any(|(_, kind)| kind == "language_guessed"),
        "{record}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
