//! End-to-end tests of `pgnkit select`: its choices against what independent programs say of the same games.
//! python-chess's facts (`facts_oracle.py`: tags, start FEN, UCI moves, opening classification) decide the
//! tag, column, opening and duplicate selections; shakmaty, replaying those UCI moves, decides which games
//! reach a position; and python-chess reads the written PGN back. The 50 lichess games of
//! `fixtures/corpus-subset/` run everywhere; the whole corpus runs when it is beside the repository.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use shakmaty::Position as _;

use crate::util::{self, corpus, show, subset, temp_dir};

const LICHESS_50: &str = "games-english/lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn";
const LICHESS_50_FACTS: &str =
    "expected/facts-lichess-db-2025-05_blitz_438games_clk.games-1-50.jsonl.gz";
const LICHESS_50_ORACLE: &str =
    "expected/lichess-db-2025-05_blitz_438games_clk.games-1-50.jsonl.gz";

/// The corpus files with facts, by name (`games-english/NAME.pgn`, `expected/facts-NAME.jsonl.gz`).
const CORPUS: [&str; 4] = [
    "twic1389_3393games",
    "lichess-db-2025-05_blitz_438games_clk",
    "pychess-world_matches",
    "gnuchess-book_games-000001-020000",
];

/// One game as python-chess saw it, with its verdict.
struct Facts {
    tags: Value,
    start: String,
    uci: String,
    opening_eco: String,
    opening_name: String,
    /// The oracle's termination (`checkmate`, `none`...).
    termination: String,
}

impl Facts {
    fn tag(&self, name: &str) -> &str {
        self.tags.get(name).and_then(Value::as_str).unwrap_or("")
    }

    fn number(&self, name: &str) -> Option<u64> {
        let v = self.tag(name);
        (!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            .then(|| v.parse().ok())
            .flatten()
    }

    fn plies(&self) -> usize {
        self.uci.split_ascii_whitespace().count()
    }

    /// Whether shakmaty, replaying the moves from the start, meets `target` (an EPD, e.p. square only when
    /// legal) at the start or after any move.
    fn reaches(&self, target: &str) -> bool {
        self.any_position(|p| {
            shakmaty::fen::Epd::from_position(p, shakmaty::EnPassantMode::Legal).to_string()
                == target
        })
    }

    /// Whether shakmaty, replaying the moves, meets a position where one side has exactly the pieces
    /// `a` and the other exactly `b` (FEN letters in upper case, kings included).
    fn has_material(&self, a: &str, b: &str) -> bool {
        let sorted = |s: &str| {
            let mut v: Vec<char> = s.chars().collect();
            v.sort_unstable();
            v
        };
        let (a, b) = (sorted(a), sorted(b));
        self.any_position(|p| {
            let side = |color: shakmaty::Color| {
                let mut v: Vec<char> = p
                    .board()
                    .iter()
                    .filter(|(_, piece)| piece.color == color)
                    .map(|(_, piece)| piece.role.upper_char())
                    .collect();
                v.sort_unstable();
                v
            };
            let (w, k) = (side(shakmaty::Color::White), side(shakmaty::Color::Black));
            (w == a && k == b) || (w == b && k == a)
        })
    }

    fn any_position(&self, mut test: impl FnMut(&shakmaty::Chess) -> bool) -> bool {
        let fen: shakmaty::fen::Fen = self.start.parse().expect("the oracle's start FEN");
        let mut pos: shakmaty::Chess = fen
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("a legal start");
        if test(&pos) {
            return true;
        }
        for uci in self.uci.split_ascii_whitespace() {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("UCI")
                .to_move(&pos)
                .expect("a legal move");
            pos.play_unchecked(m);
            if test(&pos) {
                return true;
            }
        }
        false
    }
}

/// White, rated at least 200 above Black, lost: issue #41's example of arithmetic in `--where`.
const HIGHER_RATED_WHITE_LOST: &str = "WhiteElo - BlackElo >= 200 and result == \"0-1\"";

/// White's rating minus Black's, when both tags are whole numbers.
fn rating_difference(f: &Facts) -> Option<i64> {
    let (w, b) = (f.number("WhiteElo")?, f.number("BlackElo")?);
    Some(i64::try_from(w).ok()? - i64::try_from(b).ok()?)
}

fn white_lost_to_a_player_rated_200_below(f: &Facts) -> bool {
    rating_difference(f).is_some_and(|d| d >= 200) && f.tag("Result") == "0-1"
}

fn read_facts(facts: &Path, oracle: &Path) -> Vec<Facts> {
    let facts = util::read_jsonl_gz(facts);
    let oracle = util::read_jsonl_gz(oracle);
    assert_eq!(facts.len(), oracle.len());
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_string();
    facts
        .iter()
        .zip(&oracle)
        .map(|(f, o)| {
            assert_eq!(f["valid"], o["valid"]);
            Facts {
                tags: f["tags"].clone(),
                start: text(f, "start"),
                uci: text(f, "uci"),
                opening_eco: text(f, "opening_eco"),
                opening_name: text(f, "opening_name"),
                termination: text(o, "termination"),
            }
        })
        .collect()
}

/// A selection and python-chess's (or shakmaty's) answer to it.
type Query = (Vec<String>, fn(&Facts) -> bool);

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The position after a line of UCI moves from the initial position, as an EPD.
fn epd_after(uci: &str) -> String {
    let f = Facts {
        tags: Value::Null,
        start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
        uci: String::new(),
        opening_eco: String::new(),
        opening_name: String::new(),
        termination: String::new(),
    };
    let fen: shakmaty::fen::Fen = f.start.parse().unwrap();
    let mut pos: shakmaty::Chess = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
    for m in uci.split_ascii_whitespace() {
        let m = m
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(m);
    }
    shakmaty::fen::Epd::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The queries every file is put to: tags, columns, openings (python-chess's facts).
fn queries() -> Vec<Query> {
    vec![
        (
            args(&["--where", "WhiteElo >= 2500 and BlackElo >= 2500"]),
            |f| {
                f.number("WhiteElo").unwrap_or(0) >= 2500
                    && f.number("BlackElo").unwrap_or(0) >= 2500
            },
        ),
        (args(&["--where", "WhiteElo < 1500 or not BlackElo"]), |f| {
            f.number("WhiteElo").is_some_and(|e| e < 1500) || f.tag("BlackElo").is_empty()
        }),
        (args(&["--where", "termination == \"checkmate\""]), |f| {
            f.termination == "checkmate"
        }),
        (
            args(&["--where", "plies < 40 and result == \"1/2-1/2\""]),
            |f| f.plies() < 40 && f.tag("Result") == "1/2-1/2",
        ),
        (
            args(&["--where", "plies >= 100 and Result != \"1-0\""]),
            |f| f.plies() >= 100 && f.tag("Result") != "1-0",
        ),
        (args(&["--where", "opening_eco ~ \"^C6\""]), |f| {
            f.opening_eco.starts_with("C6")
        }),
        (args(&["--where", "opening_name ~ \"Sicilian\""]), |f| {
            f.opening_name.contains("Sicilian")
        }),
        (args(&["--where", "opening_eco == \"\""]), |f| {
            f.opening_eco.is_empty()
        }),
        (args(&["--where", HIGHER_RATED_WHITE_LOST]), |f| {
            white_lost_to_a_player_rated_200_below(f)
        }),
        // Unknown under `not` stays unknown: only games with both ratings.
        (
            args(&["--where", "not (WhiteElo - BlackElo >= 200)"]),
            |f| rating_difference(f).is_some_and(|d| d < 200),
        ),
        (
            args(&[
                "--where",
                "(WhiteElo + BlackElo) / 2 >= 2000 and (result == \"1-0\" or result == \"0-1\")",
            ]),
            |f| {
                let decisive = matches!(f.tag("Result"), "1-0" | "0-1");
                let sum = f
                    .number("WhiteElo")
                    .zip(f.number("BlackElo"))
                    .map(|(w, b)| w + b);
                decisive && sum.is_some_and(|s| s >= 4000)
            },
        ),
        (
            args(&[
                "--where",
                "white_elo < black_elo - 100 or abs(white_elo - black_elo) <= 10",
            ]),
            |f| rating_difference(f).is_some_and(|d| d < -100 || d.abs() <= 10),
        ),
        (
            args(&["--where", "plies / 2 >= 40 and -plies > -150"]),
            |f| (40 * 2..150).contains(&f.plies()),
        ),
        (
            args(&[
                "--where",
                "Event ~ \"(?i)rated|ch\" and not (ECO ~ \"^[A-B]\")",
            ]),
            |f| {
                let event = f.tag("Event").to_lowercase();
                (event.contains("rated") || event.contains("ch"))
                    && !f.tag("ECO").starts_with(['A', 'B'])
            },
        ),
    ]
}

/// Positions to look for, and the lines that reach them from the initial position (shakmaty writes the
/// EPD; pgnkit is given it as a FEN with other move counters).
const TARGETS: [&str; 5] = [
    // 1. e4 c5: the Sicilian.
    "e2e4 c7c5",
    // 1. e4 e5 2. Nf3 Nc6 3. Bb5: the Ruy Lopez.
    "e2e4 e7e5 g1f3 b8c6 f1b5",
    // 1. d4 Nf6 2. c4 e6: reached by many move orders.
    "d2d4 g8f6 c2c4 e7e6",
    // 1. e4: the e.p. square e3 is useless and not part of the position.
    "e2e4",
    // 1. d4 d5 2. c4: the Queen's Gambit.
    "d2d4 d7d5 c2c4",
];

fn select(path: &Path, extra: &[String]) -> Output {
    let mut a: Vec<String> = vec!["select".into()];
    a.extend(extra.iter().cloned());
    a.push(path.display().to_string());
    util::pgnkit(&a, None)
}

fn count(path: &Path, extra: &[String]) -> usize {
    let mut a = extra.to_vec();
    a.push("--count".into());
    let out = select(path, &a);
    let shown: Vec<&str> = a.iter().map(String::as_str).collect();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        show(&shown, &out)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let n: usize = stdout
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("{}", show(&shown, &out)));
    // 1 exactly when nothing was chosen.
    assert_eq!(
        out.status.code(),
        Some(if n == 0 { 1 } else { 0 }),
        "{}",
        show(&shown, &out)
    );
    n
}

/// Every query, every target and the duplicates of one file, against the oracles; returns how many
/// selections were checked and how many chose at least one game.
fn check_file(pgn: &Path, games: &[Facts]) -> (usize, usize) {
    let (mut checked, mut nonempty) = (0, 0);
    let name = pgn.display();
    for (a, pred) in queries() {
        let want = games.iter().filter(|f| pred(f)).count();
        assert_eq!(count(pgn, &a), want, "{name}: select {a:?}");
        checked += 1;
        nonempty += usize::from(want > 0);
    }
    for line in TARGETS {
        let target = epd_after(line);
        let want = games.iter().filter(|f| f.reaches(&target)).count();
        // Given as a FEN with other counters: they must not matter.
        let fen = format!("{target} 0 30");
        assert_eq!(
            count(pgn, &args(&["--reaches", &fen])),
            want,
            "{name}: --reaches {fen} (after {line})"
        );
        checked += 1;
        nonempty += usize::from(want > 0);
    }
    // `startpos`, as `pgnkit fen` and `perft` take it: the initial position, which a game reaches when it
    // starts there (whatever its moves) or comes back to it.
    let start = epd_after("");
    let want = games.iter().filter(|f| f.reaches(&start)).count();
    assert_eq!(
        count(pgn, &args(&["--reaches", "startpos"])),
        want,
        "{name}: --reaches startpos"
    );
    checked += 1;
    nonempty += usize::from(want > 0);
    // Any of several targets.
    let (a, b) = (epd_after(TARGETS[0]), epd_after(TARGETS[4]));
    let want = games
        .iter()
        .filter(|f| f.reaches(&a) || f.reaches(&b))
        .count();
    assert_eq!(
        count(pgn, &args(&["--reaches", &a, "--reaches", &b])),
        want,
        "{name}"
    );
    // Material, in either colour.
    for (a, b) in [("KRP", "KR"), ("KQ", "KR"), ("KRRPPPP", "KRRPPPP")] {
        let want = games.iter().filter(|f| f.has_material(a, b)).count();
        let text = format!("{a} v {b}");
        assert_eq!(
            count(pgn, &args(&["--material", &text])),
            want,
            "{name}: --material {text}"
        );
        checked += 1;
        nonempty += usize::from(want > 0);
    }
    // Duplicates: the same start and the same moves; games without moves are all kept.
    let distinct: HashSet<(&str, &str)> = games
        .iter()
        .filter(|f| !f.uci.is_empty())
        .map(|f| (f.start.as_str(), f.uci.as_str()))
        .collect();
    let want = distinct.len() + games.iter().filter(|f| f.uci.is_empty()).count();
    assert_eq!(count(pgn, &args(&["--dedupe"])), want, "{name}: --dedupe");
    (checked + 2, nonempty)
}

fn subset_games() -> Vec<Facts> {
    read_facts(&subset(LICHESS_50_FACTS), &subset(LICHESS_50_ORACLE))
}

#[test]
fn choices_on_the_lichess_sample_agree_with_python_chess_and_shakmaty() {
    let games = subset_games();
    assert_eq!(games.len(), 50);
    let (checked, nonempty) = check_file(&subset(LICHESS_50), &games);
    assert!(checked >= 16 && nonempty >= 8, "{checked} {nonempty}");
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn choices_on_the_corpus_agree_with_python_chess_and_shakmaty() {
    let mut nonempty = 0;
    for name in CORPUS {
        let games = read_facts(
            &corpus(&format!("expected/facts-{name}.jsonl.gz")),
            &corpus(&format!("expected/{name}.jsonl.gz")),
        );
        let (_, n) = check_file(&corpus(&format!("games-english/{name}.pgn")), &games);
        nonempty += n;
    }
    assert!(nonempty >= 40, "{nonempty}");
}

/// The games of a file as text, split at each `[Event ` line that follows a blank line (the lichess and
/// TWIC files are clean), each with its trailing blank lines.
fn split_games(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = text
        .match_indices("\n\n[Event ")
        .map(|(i, _)| i + 2)
        .collect();
    starts.insert(0, 0);
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

#[test]
fn chosen_games_are_written_byte_for_byte_in_input_order_on_any_number_of_threads() {
    let pgn = subset(LICHESS_50);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = subset_games();
    let pieces = split_games(&text);
    assert_eq!(pieces.len(), games.len());
    let want: String = pieces
        .iter()
        .zip(&games)
        .filter(|(_, f)| f.plies() >= 60)
        .map(|(p, _)| {
            let mut p = p.to_string();
            while !p.ends_with("\n\n") {
                p.push('\n');
            }
            p
        })
        .collect();
    assert!(want.len() > 10_000);
    for jobs in ["1", "2"] {
        let out = select(&pgn, &args(&["--where", "plies >= 60", "-j", jobs, "-q"]));
        assert_eq!(out.status.code(), Some(0));
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap(), want, "-j {jobs}");
    }
}

/// The tags that tell a game of the corpus from the others, as python-chess read them.
const WHICH_GAME: [&str; 5] = ["Event", "Round", "White", "Black", "Date"];

/// The value of tag `name` in a game's text: its first `[name "..."]` line (the corpus's values hold no
/// escaped quote).
fn tag_line<'g>(game: &'g str, name: &str) -> &'g str {
    let start = format!("[{name} \"");
    game.lines()
        .find_map(|l| l.strip_prefix(start.as_str())?.strip_suffix("\"]"))
        .unwrap_or("")
}

/// Selects from `pgn` with `--where expr`, and checks that exactly the games `pred` says (by python-chess's
/// facts, `games`) are written, in order, told apart by their [`WHICH_GAME`] tags; returns how many.
fn chosen_exactly(pgn: &Path, games: &[Facts], expr: &str, pred: fn(&Facts) -> bool) -> usize {
    let want: Vec<Vec<String>> = games
        .iter()
        .filter(|f| pred(f))
        .map(|f| WHICH_GAME.iter().map(|t| f.tag(t).to_string()).collect())
        .collect();
    let words = args(&["--where", expr, "-q"]);
    let out = select(pgn, &words);
    let shown: Vec<&str> = words.iter().map(String::as_str).collect();
    assert_eq!(
        out.status.code(),
        Some(if want.is_empty() { 1 } else { 0 }),
        "{}",
        show(&shown, &out)
    );
    // Each game from its `[Event` line (the whole corpus has one a game, at the start of a line).
    let text = format!("\n{}", String::from_utf8_lossy(&out.stdout));
    let written: Vec<Vec<String>> = text
        .split("\n[Event ")
        .skip(1)
        .map(|g| format!("[Event {g}"))
        .map(|g| {
            WHICH_GAME
                .iter()
                .map(|t| tag_line(&g, t).to_string())
                .collect()
        })
        .collect();
    assert!(
        written == want,
        "{}: {} games written, python-chess's facts choose {}",
        show(&shown, &out),
        written.len(),
        want.len()
    );
    want.len()
}

#[test]
fn arithmetic_chooses_the_games_python_chess_says_on_the_lichess_sample() {
    let pgn = subset(LICHESS_50);
    let games = subset_games();
    let upset: fn(&Facts) -> bool = |f| {
        rating_difference(f).is_some_and(|d| {
            (d >= 50 && f.tag("Result") == "0-1") || (d <= -50 && f.tag("Result") == "1-0")
        })
    };
    let upsets = chosen_exactly(
        &pgn,
        &games,
        "(WhiteElo - BlackElo >= 50 and result == \"0-1\") or (BlackElo - WhiteElo >= 50 and result == \"1-0\")",
        upset,
    );
    // python-chess's facts: 5 of the 50 games.
    assert_eq!(upsets, 5);
    let close = chosen_exactly(&pgn, &games, "abs(white_elo - black_elo) < 25", |f| {
        rating_difference(f).is_some_and(|d| d.abs() < 25)
    });
    assert!(close > 0 && close < 50, "{close}");
    // No game of the sample: nothing written, exit 1.
    assert_eq!(
        chosen_exactly(
            &pgn,
            &games,
            HIGHER_RATED_WHITE_LOST,
            white_lost_to_a_player_rated_200_below
        ),
        0
    );
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn the_higher_rated_player_losing_is_chosen_as_python_chess_says_on_the_corpus() {
    let mut chosen = 0;
    // The two files whose games split cleanly; the count of every corpus file is checked by
    // `choices_on_the_corpus_agree_with_python_chess_and_shakmaty`.
    for name in [
        "lichess-db-2025-05_blitz_438games_clk",
        "twic1389_3393games",
    ] {
        let games = read_facts(
            &corpus(&format!("expected/facts-{name}.jsonl.gz")),
            &corpus(&format!("expected/{name}.jsonl.gz")),
        );
        chosen += chosen_exactly(
            &corpus(&format!("games-english/{name}.pgn")),
            &games,
            HIGHER_RATED_WHITE_LOST,
            white_lost_to_a_player_rated_200_below,
        );
    }
    // python-chess's facts: 6 lichess games and 106 TWIC games.
    assert_eq!(chosen, 112);
}

/// Five games by their White: rated 250 above Black (lost), 250 below (won), Black unrated, Black rated
/// `?`, neither rated.
const RATINGS_PGN: &str = "\
[White \"g1\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2450\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n\
[White \"g2\"]\n[WhiteElo \"2450\"]\n[BlackElo \"2700\"]\n[Result \"1-0\"]\n\n1. d4 d5 1-0\n\n\
[White \"g3\"]\n[WhiteElo \"2600\"]\n[Result \"0-1\"]\n\n1. c4 c5 0-1\n\n\
[White \"g4\"]\n[WhiteElo \"2600\"]\n[BlackElo \"?\"]\n[Result \"0-1\"]\n\n1. Nf3 Nf6 0-1\n\n\
[White \"g5\"]\n[Result \"0-1\"]\n\n1. g3 g6 0-1\n\n";

#[test]
fn arithmetic_on_missing_ratings_chooses_nothing_even_under_not() {
    let dir = temp_dir("select", "arithmetic");
    let pgn = dir.join("ratings.pgn");
    std::fs::write(&pgn, RATINGS_PGN).unwrap();
    for (expr, want) in [
        (HIGHER_RATED_WHITE_LOST, &["g1"][..]),
        ("WhiteElo - BlackElo >= 200", &["g1"]),
        ("not (WhiteElo - BlackElo >= 200)", &["g2"]),
        ("WhiteElo - BlackElo < 200", &["g2"]),
        ("not WhiteElo or not BlackElo", &["g3", "g5"]),
        ("white_elo > black_elo", &["g1"]),
        ("not white_elo > black_elo", &["g2"]),
        // Division by zero (g1: 2700 / 0) is missing.
        ("WhiteElo / (BlackElo - 2450) > 0", &["g2"]),
        ("not (WhiteElo / (BlackElo - 2450) > 0)", &[]),
        ("(WhiteElo + BlackElo) / 2 == 2575", &["g1", "g2"]),
        (
            "abs(WhiteElo - BlackElo) == 250 and -WhiteElo < -2500",
            &["g1"],
        ),
    ] {
        let out = select(&pgn, &args(&["--where", expr, "-q"]));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let chosen: Vec<&str> = stdout
            .lines()
            .filter_map(|l| l.strip_prefix("[White \"")?.strip_suffix("\"]"))
            .collect();
        assert_eq!(chosen, want, "{expr}");
        let code = if want.is_empty() { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(code), "{expr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_arithmetic_mistake_is_said_with_its_column_in_english_and_french() {
    let pgn = subset(LICHESS_50);
    for (expr, column, english, french) in [
        (
            "abs WhiteElo > 100",
            1,
            "`abs` takes its value in parentheses",
            "`abs` prend sa valeur entre parenthèses",
        ),
        (
            "\"a\" + 1 > 0",
            1,
            "text cannot be calculated with",
            "on ne calcule pas avec du texte",
        ),
        (
            "WhiteElo - BlackElo >=",
            23,
            "ends where a column, a tag or a value was expected",
            "s'arrête là où une colonne",
        ),
        (
            "WhiteElo * > 2",
            12,
            "expected a column, a tag or a value, found `>`",
            "trouvé : `>`",
        ),
        (
            "(plies > 1) + 1 > 0",
            1,
            "a condition is true or false, not a value",
            "une condition est vraie ou fausse",
        ),
    ] {
        for (messages, words) in [("en", english), ("fr", french)] {
            let out = util::pgnkit(
                &[
                    "--messages",
                    messages,
                    "select",
                    "--where",
                    expr,
                    pgn.to_str().unwrap(),
                ],
                None,
            );
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{expr}: {stderr}");
            assert!(out.stdout.is_empty(), "{expr}");
            let at = match messages {
                "en" => format!("column {column}: "),
                _ => format!("colonne {column} : "),
            };
            assert!(stderr.contains(&at), "{expr}: {stderr}");
            assert!(stderr.contains(words), "{expr}: {stderr}");
            let caret = stderr.lines().last().unwrap();
            assert_eq!(caret.find('^'), Some(column + 1), "{expr}: {stderr}");
        }
    }
}

#[test]
fn duplicates_go_to_their_own_file_and_the_first_of_each_is_kept() {
    let dir = temp_dir("select", "duplicates");
    let text = std::fs::read_to_string(subset(LICHESS_50)).unwrap();
    let pieces = split_games(&text);
    // Games 1-50, then 11-20 again (with another Event tag: tags do not count), then a game without moves
    // twice (never a duplicate).
    let mut doubled = text.clone();
    if !doubled.ends_with("\n\n") {
        doubled.push('\n');
    }
    for p in &pieces[10..20] {
        doubled.push_str(&p.replacen("[Event \"", "[Event \"Again ", 1));
    }
    doubled.push_str("[Event \"empty\"]\n\n*\n\n[Event \"empty\"]\n\n*\n\n");
    let input = dir.join("doubled.pgn");
    std::fs::write(&input, &doubled).unwrap();
    let kept = dir.join("kept.pgn");
    let dups = dir.join("dups.pgn");
    let out = util::pgnkit(
        &[
            "select".as_ref(),
            "--dedupe".as_ref(),
            "--duplicates".as_ref(),
            dups.as_os_str(),
            "-o".as_ref(),
            kept.as_os_str(),
            input.as_os_str(),
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("52 of 62 games chosen, 10 duplicates dropped"),
        "{stderr}"
    );
    let kept = std::fs::read_to_string(&kept).unwrap();
    let dups = std::fs::read_to_string(&dups).unwrap();
    assert_eq!(kept.matches("[Event \"Again ").count(), 0);
    assert_eq!(kept.matches("[Event \"empty\"]").count(), 2);
    assert_eq!(dups.matches("[Event \"Again ").count(), 10);
    assert!(kept.starts_with(pieces[0]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_expression_is_a_usage_error_that_points_at_its_column() {
    for (expr, column, words) in [
        ("WhiteElo = 2500", 10, "write `==`"),
        ("plies > 40 and", 15, "ends where"),
        ("white_elp > 2000", 1, "did you mean `white_elo`"),
        ("(plies > 40", 12, "never closed"),
        ("White ~ \"[\"", 9, "not a regular expression"),
        (
            "plies > 40 plies",
            12,
            "expected an operator, `and`, `or` or the end",
        ),
    ] {
        let out = select(&subset(LICHESS_50), &args(&["--where", expr]));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{expr}: {stderr}");
        assert!(out.stdout.is_empty());
        assert!(
            stderr.contains(&format!("column {column}: ")),
            "{expr}: {stderr}"
        );
        assert!(stderr.contains(words), "{expr}: {stderr}");
        // The caret under the column.
        let caret = stderr.lines().last().unwrap();
        assert_eq!(caret.find('^'), Some(column + 1), "{expr}: {stderr}");
    }
}

/// 1,300 regular expressions of a few bytes each, each compiling to megabytes (Unicode word characters,
/// counted): before the expression had a budget, 70 s of parsing, then a failed allocation. Now refused at
/// once, by their number; and 200 of them by their size; and a chain of comparisons by its length.
#[test]
fn an_expression_beyond_its_budget_is_refused_at_once_in_bounded_memory() {
    let pgn = subset(LICHESS_50);
    let pattern = |i: usize| format!("White ~ \"\\w{{1,{}}}\"", 190 + i % 10);
    let regexes = |n: usize| (0..n).map(pattern).collect::<Vec<_>>().join(" or ");
    // Within the 128 KiB a command-line argument may have.
    let comparisons = vec!["valid"; 10_001].join(" and ");
    for (expr, says, fr) in [
        (
            regexes(1300),
            "1300 regular expressions: at most 256 in one expression",
            "1300 expressions régulières : au plus 256",
        ),
        (
            regexes(200),
            "column 9: this regular expression needs more than 102 KiB compiled, its share of the 20 MiB that \
             the expression's 200 regular expressions may take",
            "colonne 9 : cette expression régulière demande plus de 102 Kio",
        ),
        (
            comparisons,
            "more than 10000 comparisons",
            "plus de 10000 comparaisons",
        ),
    ] {
        for (messages, said) in [("en", says), ("fr", fr)] {
            let words = [
                "--messages",
                messages,
                "select",
                "-q",
                "--count",
                "--where",
                &expr,
                pgn.to_str().unwrap(),
            ];
            let started = std::time::Instant::now();
            let out = util::run_within_address_space(256 << 10, &words, None);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains(said), "{stderr}");
            assert!(out.stdout.is_empty());
            // The long expression is not written back.
            assert!(stderr.len() < 1000, "{stderr}");
            assert!(started.elapsed().as_secs() < 10, "{said}");
        }
    }
    // Two of those patterns share the budget and run.
    assert_eq!(count(&pgn, &args(&["--where", &regexes(2)])), 50);
}

/// `Whiteelo > 2500` (a misspelt tag) is empty in every game: it chose nothing without a word, while
/// `whiteelo` (a column that does not exist) got a "did you mean". Now each tag the expression names that
/// no game of the run has is warned about once, with the nearest tag the games have, in English or French;
/// the exit code stays what the choice says.
#[test]
fn a_tag_no_game_has_is_warned_about_with_the_nearest_name() {
    let dir = temp_dir("select", "missing-tag");
    // Five batches of games, so that the tags are seen (or not) on several threads.
    let pgn = dir.join("five.pgn");
    let text = std::fs::read_to_string(subset(LICHESS_50)).unwrap();
    std::fs::write(&pgn, format!("{text}\n").repeat(5)).unwrap();
    let expr = "Whiteelo > 2500 or (WhitElo < 1000 and Whiteelo < 1) or Annotator or WhiteTitle";
    for jobs in ["1", "2"] {
        let out = select(&pgn, &args(&["--where", expr, "-j", jobs, "--count"]));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let warnings: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("warning"))
            .collect();
        assert_eq!(
            warnings,
            [
                "warning[unknown_tag]: --where: no game has a tag `Whiteelo`; did you mean `WhiteElo`?",
                "warning[unknown_tag]: --where: no game has a tag `WhitElo`; did you mean `WhiteElo`?",
                "warning[unknown_tag]: --where: no game has a tag `Annotator`",
            ],
            "-j {jobs}: {stderr}"
        );
        // WhiteTitle is a tag some games have: chosen by it alone, exit 0.
        assert_eq!(out.status.code(), Some(0), "{stderr}");
    }
    let out = select(
        &pgn,
        &args(&["--messages", "fr", "--where", "Whiteelo > 2500", "-q"]),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "avertissement[unknown_tag] : --where : aucune partie n'a de balise `Whiteelo` ; vouliez-vous dire \
         `WhiteElo` ?\n"
    );
    // Tags the games have: no warning.
    let out = select(
        &pgn,
        &args(&["--where", "WhiteElo > 2000 and Event ~ \"Blitz\"", "-q"]),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_usage_errors_exit_2_and_write_nothing() {
    let dir = temp_dir("select", "usage");
    let pgn = subset(LICHESS_50);
    let out = select(&pgn, &args(&["--reaches", "not a position"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--reaches"));
    // --duplicates needs --dedupe; it may not be the output.
    let out = select(&pgn, &args(&["--duplicates", "x.pgn"]));
    assert_eq!(out.status.code(), Some(2));
    let same = dir.join("same.pgn").display().to_string();
    let out = select(
        &pgn,
        &args(&["--dedupe", "--duplicates", &same, "-o", &same]),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.join("same.pgn").exists());
    // -o onto the input is refused and the input left alone.
    let copy = dir.join("in.pgn");
    std::fs::copy(&pgn, &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let out = select(&copy, &args(&["-o", &copy.display().to_string()]));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_chosen_exits_1_and_writes_nothing() {
    let out = select(
        &subset(LICHESS_50),
        &args(&["--where", "plies > 10000", "-q"]),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        count(&subset(LICHESS_50), &args(&["--where", "plies > 10000"])),
        0
    );
}

#[test]
fn normalise_writes_export_format_that_validates() {
    let dir = temp_dir("select", "normalise");
    let out_path = dir.join("out.pgn");
    let out = util::pgnkit(
        &[
            "select".as_ref(),
            "--normalise".as_ref(),
            "--where".as_ref(),
            "termination == \"checkmate\"".as_ref(),
            "-o".as_ref(),
            out_path.as_os_str(),
            subset(LICHESS_50).as_os_str(),
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_path).unwrap();
    let want = subset_games()
        .iter()
        .filter(|f| f.termination == "checkmate")
        .count();
    assert!(want > 0);
    assert_eq!(text.matches("[Event ").count(), want);
    // Export format: the roster first, moves numbered with a space, and no line over 80 characters.
    assert!(text.starts_with("[Event "));
    assert!(text.contains("\n1. "));
    assert!(text.lines().all(|l| l.chars().count() <= 80));
    let v = util::run(&["validate", "-q", &out_path.display().to_string()]);
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&v.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_opening_columns_agree_with_python_chess_on_the_sample() {
    let out = util::run(&["stats", &subset(LICHESS_50).display().to_string()]);
    assert_eq!(out.status.code(), Some(0));
    let mut rows = csv::Reader::from_reader(&out.stdout[..]);
    let header = rows.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (eco, name) = (col("opening_eco"), col("opening_name"));
    let games = subset_games();
    let mut named = 0;
    for (row, f) in rows.records().zip(&games) {
        let row = row.unwrap();
        assert_eq!(
            (&row[eco], &row[name]),
            (f.opening_eco.as_str(), f.opening_name.as_str())
        );
        named += usize::from(!f.opening_eco.is_empty());
    }
    assert!(named >= 45, "{named}");
}

/// Which games a selection should choose.
type Predicate = Box<dyn Fn(&Facts) -> bool>;

/// Reads a PGN file with python-chess: per game, its Event, White, Black, Round and main-line UCI moves.
fn python_chess_reads(path: &Path) -> Vec<(String, String)> {
    let script = r#"
import io, sys, chess.pgn
raw = open(sys.argv[1], "rb").read()
try:
    text = raw.decode("utf-8")
except UnicodeDecodeError:
    text = raw.decode("latin-1")
f = io.StringIO(text)
while (g := chess.pgn.read_game(f)) is not None:
    assert not g.errors, g.errors
    h = g.headers
    print("|".join([h.get("Event", ""), h.get("White", ""), h.get("Black", ""), h.get("Round", "")]) + "\t" + " ".join(m.uci() for m in g.mainline_moves()))
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(path)
        .output()
        .expect("python3 (with python-chess: pip install chess) reads the output back");
    assert!(
        out.status.success(),
        "python-chess: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (tags, uci) = l.split_once('\t').unwrap();
            (tags.to_string(), uci.to_string())
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED), and python-chess: see README.md"
)]
fn python_chess_reads_the_written_pgn_back_as_exactly_the_chosen_games() {
    let dir = temp_dir("select", "readback");
    let name = "twic1389_3393games";
    let games = read_facts(
        &corpus(&format!("expected/facts-{name}.jsonl.gz")),
        &corpus(&format!("expected/{name}.jsonl.gz")),
    );
    let pgn = corpus(&format!("games-english/{name}.pgn"));
    let sicilian = epd_after(TARGETS[0]);
    let cases: Vec<(Vec<String>, Predicate)> = vec![
        (
            args(&["--where", "opening_eco ~ \"^B\" and WhiteElo > 2400"]),
            Box::new(|f: &Facts| {
                f.opening_eco.starts_with('B') && f.number("WhiteElo").is_some_and(|e| e > 2400)
            }),
        ),
        (
            args(&["--reaches", &sicilian]),
            Box::new(move |f: &Facts| f.reaches(&sicilian)),
        ),
        (
            args(&["--normalise", "--where", "plies < 30"]),
            Box::new(|f: &Facts| f.plies() < 30),
        ),
    ];
    for (i, (a, pred)) in cases.iter().enumerate() {
        let out_path: PathBuf = dir.join(format!("out{i}.pgn"));
        let mut full = a.clone();
        full.extend(args(&["-q", "-o", &out_path.display().to_string()]));
        let out = select(&pgn, &full);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{a:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let read = python_chess_reads(&out_path);
        let want: Vec<(String, String)> = games
            .iter()
            .filter(|f| pred(f))
            .map(|f| {
                (
                    [
                        f.tag("Event"),
                        f.tag("White"),
                        f.tag("Black"),
                        f.tag("Round"),
                    ]
                    .join("|"),
                    f.uci.clone(),
                )
            })
            .collect();
        assert!(want.len() > 10, "{a:?}: {}", want.len());
        assert_eq!(read.len(), want.len(), "{a:?}");
        assert!(read == want, "{a:?}: python-chess reads other games back");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_add_opening_writes_the_tags_python_chess_classifies() {
    let out = util::run(&[
        "convert",
        "--add-opening",
        &subset(LICHESS_50).display().to_string(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let games = subset_games();
    let written: Vec<&str> = text.split("[Event ").skip(1).collect();
    assert_eq!(written.len(), games.len());
    let tag = |game: &str, name: &str| -> Option<String> {
        let start = game.find(&format!("\n[{name} \""))? + name.len() + 4;
        let end = start + game[start..].find("\"]")?;
        Some(game[start..end].to_string())
    };
    let mut with_variation = 0;
    for (i, (game, f)) in written.iter().zip(&games).enumerate() {
        assert!(!f.opening_eco.is_empty(), "game {}", i + 1);
        assert_eq!(
            tag(game, "ECO").as_deref(),
            Some(f.opening_eco.as_str()),
            "game {}",
            i + 1
        );
        let name = match (tag(game, "Opening"), tag(game, "Variation")) {
            (Some(o), Some(v)) => {
                with_variation += 1;
                format!("{o}: {v}")
            }
            (Some(o), None) => o,
            (None, _) => panic!("game {}: no Opening tag", i + 1),
        };
        assert_eq!(name, f.opening_name, "game {}", i + 1);
        // One of each, and after them the game goes on.
        assert_eq!(game.matches("\n[ECO ").count(), 1);
    }
    assert!(with_variation > 10, "{with_variation}");
    // Tags only in PGN.
    let out = util::run(&[
        "convert",
        "--add-opening",
        "--output-format",
        "jsonl",
        &subset(LICHESS_50).display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn split_writes_each_group_to_its_own_file_and_loses_no_game() {
    let dir = temp_dir("select", "split");
    let games = subset_games();
    // By the opening the moves reach: each file holds exactly the games python-chess classifies so.
    let by_opening = dir.join("by-opening");
    let out = select(
        &subset(LICHESS_50),
        &args(&[
            "--split",
            "opening",
            "-o",
            &by_opening.display().to_string(),
        ]),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let mut total = 0;
    for entry in std::fs::read_dir(&by_opening).unwrap() {
        let path = entry.unwrap().path();
        let eco = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let sites: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("[Site \""))
            .collect();
        let want: Vec<&str> = games
            .iter()
            .filter(|f| f.opening_eco == eco)
            .map(|f| f.tag("Site"))
            .collect();
        let want: Vec<String> = want.iter().map(|s| format!("{s}\"]")).collect();
        assert_eq!(sites, want, "{eco}");
        total += sites.len();
    }
    assert_eq!(total, games.len());
    // N games a file, in input order; a second split into the same directory is refused.
    let by_count = dir.join("by-count");
    let out = select(
        &subset(LICHESS_50),
        &args(&["--split", "20", "-o", &by_count.display().to_string()]),
    );
    assert_eq!(out.status.code(), Some(0));
    let mut joined = String::new();
    for n in 1..=3 {
        let text = std::fs::read_to_string(by_count.join(format!("{n}.pgn"))).unwrap();
        assert_eq!(text.matches("[Event ").count(), if n < 3 { 20 } else { 10 });
        joined.push_str(&text);
    }
    let original = std::fs::read_to_string(subset(LICHESS_50)).unwrap();
    assert_eq!(joined.trim_end(), original.trim_end());
    let out = select(
        &subset(LICHESS_50),
        &args(&["--split", "20", "-o", &by_count.display().to_string()]),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--split round` made a file per board (`round-4.1.pgn`, `round-4.2.pgn`): a round is its number, as
/// standings, TRF, report and validate read it, so boards 4.1 and 4.2 go to `round-4.pgn`.
#[test]
fn split_by_round_is_by_round_number() {
    let dir = temp_dir("select", "split-round");
    let game = |round: &str, white: &str| {
        format!(
            "[Event \"E\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"X\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
        )
    };
    let pgn: String = [
        game("4.1", "a"),
        game("4.2", "b"),
        game("5", "c"),
        game("5.1", "d"),
        game("?", "e"),
        game("Final", "f"),
        game("4", "g"),
    ]
    .concat();
    let input = dir.join("in.pgn");
    std::fs::write(&input, pgn).unwrap();
    let out_dir = dir.join("by-round");
    let out = select(
        &input,
        &args(&["--split", "round", "-o", &out_dir.display().to_string()]),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<(String, Vec<String>)> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let whites = std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .filter_map(|l| l.strip_prefix("[White \""))
                .map(|w| w.trim_end_matches("\"]").to_string())
                .collect();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                whites,
            )
        })
        .collect();
    files.sort();
    let owned = |name: &str, whites: &[&str]| {
        (
            name.to_string(),
            whites.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        files,
        [
            owned("no-round.pgn", &["e", "f"]),
            owned("round-4.pgn", &["a", "b", "g"]),
            owned("round-5.pgn", &["c", "d"]),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_and_odd_games_are_judged_without_a_panic_and_none_is_lost() {
    // Every edge case of the sample corpus (damaged games, variants, other letters, odd syntax), and the
    // same bytes with every 97th byte flipped.
    let dir = temp_dir("select", "damaged");
    let mut files = Vec::new();
    let mut stack = vec![subset("pgn-edge-cases")];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if p.extension().is_some_and(|e| e == "pgn") {
            files.push(p);
        }
    }
    assert!(files.len() > 20, "{}", files.len());
    let mut all = Vec::new();
    for f in &files {
        all.extend(std::fs::read(f).unwrap());
        all.extend(b"\n\n");
    }
    let mut flipped = all.clone();
    for i in (0..flipped.len()).step_by(97) {
        flipped[i] ^= 0x5a;
    }
    for (name, bytes) in [("edge.pgn", &all), ("flipped.pgn", &flipped)] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let games = count(&path, &[]);
        assert!(games > 50, "{name}: {games}");
        // A condition and its negation split the games between them, whatever they hold.
        for expr in [
            "valid",
            "plies > 10",
            "termination == \"none\"",
            "opening_eco ~ \"^[AB]\"",
        ] {
            let yes = count(&path, &args(&["--where", expr]));
            let no = count(&path, &args(&["--where", &format!("not ({expr})")]));
            assert_eq!(yes + no, games, "{name}: {expr}");
        }
        for extra in [
            args(&["--dedupe"]),
            args(&["--material", "KQ v K"]),
            args(&[
                "--reaches",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ]),
        ] {
            let n = count(&path, &extra);
            assert!(n <= games, "{name}: {extra:?}");
        }
        let out = select(&path, &args(&["--normalise", "-q"]));
        assert!(matches!(out.status.code(), Some(0 | 1)));
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
