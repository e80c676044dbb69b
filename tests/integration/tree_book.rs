//! `pgnkit tree`'s Polyglot book read by python-chess's `chess.polyglot` reader (a reader nobody here wrote,
//! computing the keys itself from the boards its own parser reaches); the tree's output the same under a
//! memory limit far below its size (sorted runs spilled and merged); the tree's options and refusals.

use std::path::PathBuf;
use std::process::Command;

use crate::util::{corpus, pgnkit, python_has, show, subset, temp_dir};

/// The fixture games: lichess blitz, a TWIC event, world championship matches, and positions reached just
/// after a double step with a pinned pawn beside it (a second Polyglot key).
fn fixture_games() -> Vec<PathBuf> {
    vec![
        subset("games-english/lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn"),
        subset("games-english/twic1389_3393games.event-6th-vezerkepzo-gm-2021.pgn"),
        subset("games-english/pychess-world_matches.games-1-10.pgn"),
        PathBuf::from("fixtures/tree/book-pinned-en-passant.pgn"),
    ]
}

fn path_args(paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| p.display().to_string()).collect()
}

/// Writes the tree of `games` as a book and as CSV, and has python-chess check the book against the CSV at
/// every position its replay of the games meets.
fn check_book(games: &[PathBuf], depth: u32, min_games: u64, name: &str) {
    let dir = temp_dir("tree-book", name);
    let book = dir.join("book.bin");
    let table = dir.join("tree.csv");
    let common = |out: &PathBuf| {
        let mut args = vec![
            "tree".to_string(),
            "-q".into(),
            "--depth".into(),
            depth.to_string(),
            "-o".into(),
            out.display().to_string(),
        ];
        args.extend(path_args(games));
        args
    };
    let mut book_args = common(&book);
    book_args.extend(["--min-games".into(), min_games.to_string()]);
    let out = pgnkit(&book_args, None);
    assert_eq!(out.status.code(), Some(0), "{}", show(&[], &out));
    let out = pgnkit(&common(&table), None);
    assert_eq!(out.status.code(), Some(0), "{}", show(&[], &out));
    let bytes = std::fs::read(&book).unwrap();
    assert!(
        !bytes.is_empty() && bytes.len().is_multiple_of(16),
        "{}",
        bytes.len()
    );
    let keys: Vec<u64> = bytes
        .chunks(16)
        .map(|e| u64::from_be_bytes(e[..8].try_into().unwrap()))
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] <= w[1]),
        "entries sorted by key"
    );
    let checked = Command::new("python3")
        .arg("tests/tools/tree_book_check.py")
        .arg(&book)
        .arg(&table)
        .arg(depth.to_string())
        .arg(min_games.to_string())
        .args(games)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(
        checked.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    let positions: usize = said
        .trim()
        .rsplit(' ')
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(positions > 100, "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python_chess_finds_in_the_book_the_moves_of_the_tree_at_every_position() {
    if !python_has("chess.polyglot") {
        return;
    }
    check_book(&fixture_games(), 14, 1, "fixtures");
    check_book(&fixture_games(), 14, 2, "fixtures-min2");
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn python_chess_finds_in_the_book_of_the_corpus_the_moves_of_the_tree() {
    if !python_has("chess.polyglot") {
        return;
    }
    let games = [
        corpus("games-english/twic1389_3393games.pgn"),
        corpus("games-english/lichess-db-2025-05_blitz_438games_clk.pgn"),
    ];
    check_book(&games, 10, 2, "corpus");
}

/// The output of `tree ARGS... FORMAT-ARGS` over the fixture games, and what it said on standard error.
fn tree_output(
    extra: &[&str],
    format: &str,
    dir: &std::path::Path,
    name: &str,
) -> (Vec<u8>, String) {
    let out_path = dir.join(name);
    let mut args: Vec<String> = vec!["tree".into(), "--depth".into(), "40".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend([
        "--format".into(),
        format.into(),
        "-o".into(),
        out_path.display().to_string(),
    ]);
    args.extend(path_args(&fixture_games()));
    let out = pgnkit(&args, None);
    assert_eq!(out.status.code(), Some(0), "{}", show(&[], &out));
    (
        std::fs::read(&out_path).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_tree_far_over_its_memory_limit_is_written_as_the_tree_without_one() {
    let dir = temp_dir("tree-book", "memory");
    let spill = dir.join("runs");
    std::fs::create_dir_all(&spill).unwrap();
    let spill_arg = spill.display().to_string();
    for format in ["csv", "parquet", "polyglot", "text", "jsonl"] {
        let (free, said_free) = tree_output(&[], format, &dir, &format!("free.{format}"));
        let (tight, said_tight) = tree_output(
            &["--memory", "1", "--temp-dir", &spill_arg, "-j", "2"],
            format,
            &dir,
            &format!("tight.{format}"),
        );
        assert!(!said_free.contains("sorted runs"), "{said_free}");
        assert!(said_tight.contains("sorted runs merged"), "{said_tight}");
        assert!(free.len() > 1000, "{format}: {} bytes", free.len());
        assert!(free == tight, "{format}: the outputs differ");
    }
    // Thousands of rows, each over a hundred bytes of counts: far over one byte.
    let (csv, _) = tree_output(&[], "csv", &dir, "rows.csv");
    assert!(csv.iter().filter(|&&b| b == b'\n').count() > 3000);
    assert_eq!(
        std::fs::read_dir(&spill).unwrap().count(),
        0,
        "no run left in the temporary directory"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn from_moves_and_from_fen_give_the_same_tree() {
    let dir = temp_dir("tree-book", "from");
    let (by_moves, _) = tree_output(&["--from-moves", "1. e4 c5"], "csv", &dir, "moves.csv");
    let (by_fen, _) = tree_output(
        &[
            "--from",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
        ],
        "csv",
        &dir,
        "fen.csv",
    );
    assert_eq!(by_moves, by_fen);
    let text = String::from_utf8(by_moves).unwrap();
    assert!(text.lines().count() > 10, "{text}");
    // Every row's position comes after 1. e4 c5: white pawn on e4, black's c-pawn moved.
    assert!(
        text.lines()
            .skip(1)
            .all(|l| !l.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refusals_say_what_is_wrong_and_exit_2() {
    let games = path_args(&fixture_games()[..1]);
    let cases: [(&[&str], &str); 4] = [
        (&["--from", "not a fen"], "--from"),
        (&["--from-moves", "1. e4 e5 2. Ke3"], "Ke3"),
        (&["--depth", "0"], "--depth"),
        (&["--color", "white"], "--player"),
    ];
    for (options, says) in cases {
        let mut args = vec!["tree".to_string()];
        args.extend(options.iter().map(|s| s.to_string()));
        args.extend(games.clone());
        let out = pgnkit(&args, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{options:?}: {err}");
        assert!(err.contains(says), "{options:?}: {err}");
    }
}

#[test]
fn a_tree_no_game_reaches_exits_1_with_a_warning() {
    let mut args = vec![
        "tree".to_string(),
        "--from".into(),
        "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
    ];
    args.extend(path_args(&fixture_games()));
    let out = pgnkit(&args, None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("warning[empty_tree]"), "{err}");
}

#[test]
fn a_players_games_with_one_colour_make_the_tree() {
    // The TWIC event's players: the tree of one as White has only games where the White tag names them.
    let twic = subset("games-english/twic1389_3393games.event-6th-vezerkepzo-gm-2021.pgn");
    let text = std::fs::read_to_string(&twic).unwrap();
    let white = text
        .lines()
        .find_map(|l| l.strip_prefix("[White \"")?.strip_suffix("\"]"))
        .unwrap()
        .to_string();
    let as_white = text.matches(&format!("[White \"{white}\"]")).count() as u64;
    let args = [
        "tree",
        "--player",
        &white.to_uppercase(),
        "--color",
        "white",
        "--depth",
        "1",
        "--format",
        "csv",
        &twic.display().to_string(),
    ];
    let out = pgnkit(&args, None);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let csv = String::from_utf8_lossy(&out.stdout);
    let games: u64 = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(games, as_white, "{csv}");
}

/// The text block that follows the guide's `marker` block: what its commands print.
fn guide_output(marker: &str) -> String {
    let guide = std::fs::read_to_string("docs/guide.md").unwrap();
    let after = &guide[guide.find(marker).unwrap()..];
    let start = after.find("```text\n").unwrap() + 8;
    let end = start + after[start..].find("```").unwrap();
    after[start..end].to_string()
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn the_guides_repertoire_example_prints_what_the_guide_shows() {
    use crate::columnar::{guide_commands, run_guide_with};
    let marker = "<!-- example: tree -->";
    let commands = guide_commands(marker);
    assert_eq!(commands.len(), 4, "{commands:?}");
    let has_duckdb = Command::new("duckdb")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has_duckdb || std::env::var_os("PGNKIT_REQUIRE_CORPUS").is_none(),
        "no duckdb command: .ci/run installs it (pip install duckdb-cli)"
    );
    let run = if has_duckdb {
        &commands[..]
    } else {
        eprintln!("note: no duckdb command: the guide's query is skipped");
        &commands[..3]
    };
    let twic = corpus("games-english/twic1389_3393games.pgn");
    let printed = run_guide_with("tree-guide", &[(twic, "twic1389.pgn")], run);
    let shown = guide_output(marker);
    if has_duckdb {
        assert_eq!(printed, shown);
    } else {
        assert!(shown.starts_with(&printed), "{printed}");
    }
}
