//! `pgnkit tree` (issue 42), the opening tree of the games' main lines, compared row by row with
//! `tests/tools/tree_oracle.py`: the same tree counted with python-chess, a parser and move generator nobody
//! here wrote, under the rules of the issue (the script's docstring states them). Compared are a row's keys
//! (the position as the FEN's first four fields, the move in UCI) and its counts, ratings, dates and SAN; the
//! score, performance, ECO and opening are not.
//!
//! `fixtures/tree/games.pgn` is a handful of games written for it (two move orders to one position, a
//! repetition, an illegal move, FEN tags, unfinished results, en passant possible or not, a variant): it runs
//! everywhere, and counts checked by hand are asserted on it besides, with or without python-chess. The
//! corpus files run when the shared corpus is there.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{corpus, pgnkit, python_has, root, show};

const TWIC: &str = "games-english/twic1389_3393games.pgn";
const LICHESS: &str = "games-english/lichess-db-2025-05_blitz_438games_clk.pgn";
const WORLD_MATCHES: &str = "games-english/pychess-world_matches.pgn";

/// The columns compared besides the key (`fen`, `move_uci`).
const COMPARED: [&str; 9] = [
    "move_san",
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "mover_elo",
    "opponent_elo",
    "first_date",
    "last_date",
];

/// The start position, as the `fen` column writes it.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

/// A tree: the compared columns of each (fen, move_uci).
type Tree = BTreeMap<(String, String), BTreeMap<&'static str, String>>;

fn fixture() -> PathBuf {
    root().join("fixtures/tree/games.pgn")
}

/// The tree of a CSV with a header (pgnkit's or the oracle's); `who` names it in the messages.
fn parse(text: &[u8], who: &str) -> Tree {
    let mut reader = csv::Reader::from_reader(text);
    let header = reader
        .headers()
        .unwrap_or_else(|e| panic!("{who}: no CSV header: {e}"))
        .clone();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{who}: no column {name} in the header {header:?}"))
    };
    let (fen, uci) = (column("fen"), column("move_uci"));
    let columns: Vec<(&'static str, usize)> = COMPARED.iter().map(|&c| (c, column(c))).collect();
    let mut tree = Tree::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.unwrap_or_else(|e| panic!("{who}: row {}: {e}", i + 1));
        let key = (record[fen].to_string(), record[uci].to_string());
        let values = columns
            .iter()
            .map(|&(name, at)| (name, record[at].to_string()))
            .collect();
        if tree.insert(key.clone(), values).is_some() {
            panic!("{who}: two rows for {} {}", key.0, key.1);
        }
    }
    tree
}

/// `tree_oracle.py OPTIONS FILES`'s tree.
fn oracle(options: &[&str], files: &[&Path]) -> Tree {
    let script = root().join("tests/tools/tree_oracle.py");
    let out = Command::new("python3")
        .arg(&script)
        .args(options)
        .args(files)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "tree_oracle.py {options:?} {files:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    parse(&out.stdout, "the oracle")
}

/// `pgnkit tree OPTIONS --format csv FILES`'s tree; the run must succeed.
fn tree(options: &[&str], files: &[&Path]) -> Tree {
    let mut args = vec!["tree"];
    args.extend(options);
    args.extend(["--format", "csv"]);
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = pgnkit(&args, None);
    assert!(
        out.status.success(),
        "`pgnkit tree` (issue 42) did not run:\n{}",
        show(&args, &out)
    );
    parse(&out.stdout, "pgnkit tree")
}

/// Fails, naming the first differences, unless the two trees have the same rows with the same values.
fn assert_same(what: &str, got: &Tree, want: &Tree) {
    let mut differences = Vec::new();
    for (key, expected) in want {
        match got.get(key) {
            None => differences.push(format!(
                "{} {}: no row in pgnkit's tree (the oracle's: {expected:?})",
                key.0, key.1
            )),
            Some(row) => {
                for name in COMPARED {
                    if row[name] != expected[name] {
                        differences.push(format!(
                            "{} {}: {name} is {:?}, the oracle's {:?}",
                            key.0, key.1, row[name], expected[name]
                        ));
                    }
                }
            }
        }
    }
    for (key, row) in got {
        if !want.contains_key(key) {
            differences.push(format!(
                "{} {}: a row the oracle does not have: {row:?}",
                key.0, key.1
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{what}: pgnkit tree has {} rows, the oracle {}; {} differences, the first ones:\n  {}",
        got.len(),
        want.len(),
        differences.len(),
        differences[..differences.len().min(12)].join("\n  ")
    );
}

/// Runs pgnkit and the oracle with the same options on the same files and compares their trees; nothing when
/// python3 cannot import chess (a failure under `PGNKIT_REQUIRE_CORPUS`).
fn compare_with_the_oracle(what: &str, options: &[&str], files: &[&Path]) {
    if !python_has("chess") {
        return;
    }
    let want = oracle(options, files);
    assert!(!want.is_empty(), "{what}: the oracle's tree is empty");
    assert_same(what, &tree(options, files), &want);
}

/// The values of one row, failing with that position's moves when there is no such row.
fn row<'a>(who: &str, tree: &'a Tree, fen: &str, uci: &str) -> &'a BTreeMap<&'static str, String> {
    tree.get(&(fen.to_string(), uci.to_string()))
        .unwrap_or_else(|| {
            let moves: Vec<&str> = tree
                .keys()
                .filter(|(f, _)| f == fen)
                .map(|(_, m)| m.as_str())
                .collect();
            panic!("{who}: no row for {fen} {uci}; that position's moves: {moves:?}")
        })
}

/// Asserts some columns of one row: `expected` is (column, value) pairs.
fn assert_row(who: &str, tree: &Tree, fen: &str, uci: &str, expected: &[(&str, &str)]) {
    let values = row(who, tree, fen, uci);
    for &(name, value) in expected {
        assert_eq!(values[name], value, "{who}: {fen} {uci}: {name}");
    }
}

// The fixture's positions that the hand counts name.
/// After 1.e4.
const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
/// After 1.e4 e5: again after 3.Ng1 Ng8 and 5.Ng1 Ng8 in the repetition game.
const E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
/// After 1.Nf3 d5 2.d4 and after 1.d4 d5 2.Nf3; no en passant (no black pawn beside d4).
const TRANSPOSED: &str = "rnbqkbnr/ppp1pppp/8/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq -";
/// After 1.e4 Nf6 2.e5 Ng8 3.Nf3 d5: exd6 en passant is legal.
const EP_LEGAL: &str = "rnbqkbnr/ppp1pppp/8/3pP3/8/5N2/PPPP1PPP/RNBQKB1R w KQkq d6";
/// The same pieces after 1.e4 d6 2.e5 Bd7 3.Nf3 Be6 4.Ng1 Bc8 5.Nf3 d5: the pawn came from d6, no en passant.
const EP_NONE: &str = "rnbqkbnr/ppp1pppp/8/3pP3/8/5N2/PPPP1PPP/RNBQKB1R w KQkq -";
/// After 4.d4 and 6.d4 in those two games: one position again.
const EP_THEN_D4: &str = "rnbqkbnr/ppp1pppp/8/3pP3/3P4/5N2/PPP2PPP/RNBQKB1R b KQkq -";
/// After 1.e4 in the first pinned game (its FEN tag), the second's FEN tag: dxe3 en passant would leave the
/// king on a4 to the rook on h4, so there is none. As a FEN with the e3 that a double push writes, for --from.
const PINNED_FROM: &str = "8/7p/8/8/k2pP2R/8/8/6K1 b - e3 0 1";
/// The same position as the `fen` column writes it.
const PINNED: &str = "8/7p/8/8/k2pP2R/8/8/6K1 b - -";

/// The counts of the fixture's trees worked out by hand, asserted on the trees `tree_of` gives for options
/// (pgnkit's, the oracle's); `who` names it in the messages.
fn assert_hand_counts(who: &str, tree_of: &dyn Fn(&[&str]) -> Tree) {
    let got = tree_of(&[]);

    // Nine games reach the start position (the variant game and the two pinned endgames do not); the
    // unreadable 2.Ke3 ends its game's main line after two plies.
    let from_start: u32 = got
        .iter()
        .filter(|((fen, _), _)| fen == START)
        .map(|(_, r)| r["games"].parse::<u32>().unwrap())
        .sum();
    assert_eq!(from_start, 9, "{who}: games from the start position");
    // 1.e4 by seven games, one reaching the start from a FEN tag after 2.Ng1 Ng8; results 1/2, 0-1, 1-0, *,
    // * (tag; 1-0 in the movetext), 1-0, 0-1. Ratings of White: 2500, 4001 (none), 2000, -, -, 0 (none), 1.
    // Dates: 2022.02.30 (no day), 2018.12.31, 2019.??.??, 2023.07.15, 2024.01.01, 2020.06.15, ????.??.??.
    assert_row(
        who,
        &got,
        START,
        "e2e4",
        &[
            ("move_san", "e4"),
            ("games", "7"),
            ("white_wins", "2"),
            ("draws", "1"),
            ("black_wins", "2"),
            ("mover_elo", "1500"),
            ("opponent_elo", "2100"),
            ("first_date", "2018-12-31"),
            ("last_date", "2024-01-01"),
        ],
    );
    // The illegal game's 1...e5 counts; its 2.Ke3 and what follows do not.
    assert_row(
        who,
        &got,
        E4,
        "e7e5",
        &[
            ("games", "3"),
            ("white_wins", "1"),
            ("draws", "1"),
            ("black_wins", "1"),
            ("mover_elo", "2100"),
            ("opponent_elo", "2250"),
            ("first_date", "2018-12-31"),
            ("last_date", "2018-12-31"),
        ],
    );
    assert!(
        got.keys().all(|(_, uci)| uci != "e1e3"),
        "{who}: 2.Ke3 is no move"
    );
    // Two games with Result "*", one of them ending its movetext with 1-0: games only.
    assert_row(
        who,
        &got,
        E4,
        "c7c5",
        &[
            ("games", "2"),
            ("white_wins", "0"),
            ("draws", "0"),
            ("black_wins", "0"),
            ("mover_elo", ""),
            ("first_date", "2023-07-15"),
            ("last_date", "2024-01-01"),
        ],
    );
    // The repetition game plays Nf3 here three times (plies 3, 7 and 11, all in the window): one game, with
    // the FEN game's 4.Nf3.
    assert_row(
        who,
        &got,
        E4_E5,
        "g1f3",
        &[("games", "2"), ("white_wins", "1"), ("draws", "1")],
    );
    // Two move orders, one position: Black's ratings 2200 and ?, White's 2400 and 2301 (2350.5 rounds up).
    assert_row(
        who,
        &got,
        TRANSPOSED,
        "g8f6",
        &[
            ("move_san", "Nf6"),
            ("games", "2"),
            ("white_wins", "1"),
            ("black_wins", "1"),
            ("mover_elo", "2200"),
            ("opponent_elo", "2351"),
            ("first_date", "2020-01-01"),
            ("last_date", "2020-01-01"),
        ],
    );
    // Same pieces, en passant possible in one and not the other: two positions, then one after d4.
    assert_row(
        who,
        &got,
        EP_LEGAL,
        "d2d4",
        &[("games", "1"), ("white_wins", "1")],
    );
    assert_row(
        who,
        &got,
        EP_NONE,
        "d2d4",
        &[("games", "1"), ("black_wins", "1")],
    );
    assert_row(
        who,
        &got,
        EP_THEN_D4,
        "b8c6",
        &[("games", "2"), ("opponent_elo", "1")],
    );
    assert!(
        got.keys().all(|(fen, _)| !fen.starts_with("8/")),
        "{who}: the endgames from a FEN tag never reach the start position"
    );

    // From the pinned position: one game reaches it after 1.e4 (no en passant), the other starts there.
    let pinned = tree_of(&["--from", PINNED_FROM]);
    assert_row(
        who,
        &pinned,
        PINNED,
        "h7h5",
        &[
            ("games", "2"),
            ("white_wins", "1"),
            ("draws", "1"),
            ("first_date", "2017-03-04"),
            ("last_date", "2017-03-05"),
        ],
    );
    assert_eq!(pinned.len(), 4, "{who}: {pinned:?}");

    // Three plies, rows of two games or more: 1.e4, 1...e5, 1...c5 and 2.Nf3 after 1.e4 e5.
    let shallow = tree_of(&["--depth", "3", "--min-games", "2"]);
    let keys: Vec<(&str, &str)> = shallow
        .keys()
        .map(|(f, m)| (f.as_str(), m.as_str()))
        .collect();
    assert_eq!(
        keys,
        [(E4_E5, "g1f3"), (E4, "c7c5"), (E4, "e7e5"), (START, "e2e4")],
        "{who}"
    );

    // "Tal, Mikhail" is White in the repetition game and " tal, MIKHAIL " Black in the FEN game.
    for (options, games) in [
        (&["--player", "Tal, Mikhail"][..], "2"),
        (&["--player", "Tal, Mikhail", "--color", "white"][..], "1"),
        (&["--player", "Tal, Mikhail", "--color", "black"][..], "1"),
    ] {
        let tal = tree_of(options);
        assert_eq!(
            row(who, &tal, START, "e2e4")["games"],
            games,
            "{who}: {options:?}"
        );
    }
}

#[test]
fn the_fixture_tree_has_the_hand_counts_and_the_oracles() {
    let pgn = fixture();
    let files = [pgn.as_path()];
    if python_has("chess") {
        assert_hand_counts("the oracle", &|options| oracle(options, &files));

        for options in [
            &[][..],
            &["--depth", "3", "--min-games", "2"],
            &["--depth", "1"],
            &["--from", PINNED_FROM],
            &["--player", "Tal, Mikhail"],
            &["--player", "Tal, Mikhail", "--color", "black"],
        ] {
            compare_with_the_oracle(&format!("fixture {options:?}"), options, &files);
        }
    }
    assert_hand_counts("pgnkit tree", &|options| tree(options, &files));
}

/// Depth 10 on one corpus file, compared with the oracle.
fn corpus_file_at_depth_10(path: &str) {
    let file = corpus(path);
    compare_with_the_oracle(path, &["--depth", "10"], &[file.as_path()]);
}

#[test]
#[cfg_attr(not(shared_corpus), ignore = "needs the shared corpus (../shared)")]
fn twic_tree_matches_the_oracle() {
    corpus_file_at_depth_10(TWIC);
}

#[test]
#[cfg_attr(not(shared_corpus), ignore = "needs the shared corpus (../shared)")]
fn lichess_tree_matches_the_oracle() {
    corpus_file_at_depth_10(LICHESS);
}

#[test]
#[cfg_attr(not(shared_corpus), ignore = "needs the shared corpus (../shared)")]
fn world_matches_tree_matches_the_oracle() {
    // 556 games with variations, 18 from a FEN tag.
    corpus_file_at_depth_10(WORLD_MATCHES);
}

#[test]
#[cfg_attr(not(shared_corpus), ignore = "needs the shared corpus (../shared)")]
fn twic_tree_of_one_player_as_black_matches_the_oracle() {
    // The file's most frequent player: 28 games as White, 29 as Black. The name as given is trimmed and
    // compared without case.
    let file = corpus(TWIC);
    for options in [
        &[
            "--depth",
            "10",
            "--player",
            " vokhidov,SHAMSIDDIN ",
            "--color",
            "black",
        ][..],
        &["--depth", "10", "--player", "Vokhidov,Shamsiddin"],
    ] {
        compare_with_the_oracle(&format!("{TWIC} {options:?}"), options, &[file.as_path()]);
    }
}

#[test]
#[cfg_attr(not(shared_corpus), ignore = "needs the shared corpus (../shared)")]
fn twic_tree_from_the_sicilian_matches_the_oracle() {
    // After 1.e4 c5, with the e.p. square a double push writes: the position has no en passant.
    let file = corpus(TWIC);
    compare_with_the_oracle(
        &format!("{TWIC} from 1.e4 c5"),
        &[
            "--depth",
            "10",
            "--from",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
        ],
        &[file.as_path()],
    );
}
