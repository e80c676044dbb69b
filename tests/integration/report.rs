//! End-to-end tests of `pgnkit report`: the page loads nothing from outside, has a board at each faulty move
//! with the position before it (piece counts from a replay of our own here), escapes hostile text, shows the
//! standings of `pgnkit standings`, speaks French with `--messages fr`, keeps validate's exit codes; and a real
//! headless browser (Debian's chromium, through `tests/browser/check_report.sh`) loads it without a console
//! message and draws it.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use pgnkit::core::Position;
use pgnkit::notation::{Language, SanPlus};
use pgnkit::pgn::parse_all;

use crate::util::{self, pgnkit, root, run, show};

fn temp_dir(name: &str) -> PathBuf {
    util::temp_dir("report", name)
}

/// Runs `pgnkit report ARGS -o DIR/page.html`; the exit code and the page.
fn report(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let page = dir.join("page.html");
    let mut all: Vec<&str> = vec!["report", "-q"];
    // English unless asked: the default follows LANG, which the machine running the tests may set.
    if !args.contains(&"--messages") {
        all.extend_from_slice(&["--messages", "en"]);
    }
    all.extend_from_slice(args);
    let page_arg = page.to_str().unwrap().to_string();
    all.extend_from_slice(&["-o", &page_arg]);
    let out = run(&all);
    let html = std::fs::read_to_string(&page)
        .unwrap_or_else(|e| panic!("no page ({e}):\n{}", show(&all, &out)));
    (out.status.code(), html)
}

/// `&amp;` & co. back to text.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The cells of each row of the tables of class `class`, in page order.
fn table_rows(html: &str, class: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for table in html.split(&format!("<table class=\"{class}\">")).skip(1) {
        let body = table.split("</table>").next().unwrap();
        let body = body.split("<tbody>").nth(1).unwrap_or("");
        for row in body.split("<tr>").skip(1) {
            let cells: Vec<String> = row
                .split("<td")
                .skip(1)
                .map(|cell| {
                    let inner = &cell[cell.find('>').unwrap() + 1..];
                    unescape(inner.split("</td>").next().unwrap())
                })
                .collect();
            rows.push(cells);
        }
    }
    rows
}

/// Each problem shown: (article id of its game, the move as shown, pieces on its diagram if it has one).
fn problems_shown(html: &str) -> Vec<(String, Option<String>, Option<usize>)> {
    let mut found = Vec::new();
    for article in html.split("<article class=\"game\" id=\"").skip(1) {
        let id = article.split('"').next().unwrap().to_string();
        let article = article.split("</article>").next().unwrap();
        for problem in article.split("<div class=\"problem ").skip(1) {
            let shown_move = problem
                .split("<code>")
                .nth(2)
                .map(|m| unescape(m.split("</code>").next().unwrap()));
            let pieces = problem
                .split("<svg ")
                .nth(1)
                .map(|svg| svg.matches("class=\"piece\"").count());
            found.push((id.clone(), shown_move, pieces));
        }
    }
    found
}

/// Pieces on the board before main-line half-move `ply` of `game`, replayed here move by move with the
/// notation layer (not the walk the report uses).
fn pieces_before(pgn: &str, game: usize, ply: usize, lang: Language) -> usize {
    let games = parse_all(pgn.as_bytes());
    let g = &games[game];
    let mut pos = Position::default();
    for (_, mt) in g.main_line().take(ply - 1) {
        let san = SanPlus::parse(g.san(mt), lang).unwrap();
        let m = san.resolve(&pos).unwrap().mv;
        pos.play_unchecked(m);
    }
    pos.board().iter().count()
}

#[test]
fn the_page_loads_nothing_from_outside() {
    let dir = temp_dir("offline");
    let (code, html) = report(
        &dir,
        &[
            "fixtures/validate/errors.pgn",
            "fixtures/stats/tournament.pgn",
            "fixtures/examples/round5.pgn",
        ],
    );
    assert_eq!(code, Some(1));
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    for banned in [
        "<link", "<script", "<img", "<iframe", "src=", "url(", "@import",
    ] {
        assert!(!html.contains(banned), "{banned} in the page");
    }
    // The SVG namespace is a name, not a load; no other URL may appear.
    let rest = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!rest.contains("http://") && !rest.contains("https://"));
    assert!(html.contains("default-src 'none'"), "the CSP forbids loads");
    // Every href is an anchor of the page itself, and each points somewhere.
    for href in html.split("href=\"").skip(1) {
        let target = href.split('"').next().unwrap();
        let id = target.strip_prefix('#').expect("a link inside the page");
        assert!(
            html.contains(&format!("id=\"{id}\"")),
            "no element with id {id}"
        );
    }
}

#[test]
fn a_board_at_each_faulty_move_with_the_position_before_it() {
    let dir = temp_dir("boards");
    let (code, html) = report(&dir, &["fixtures/validate/errors.pgn"]);
    assert_eq!(code, Some(1));
    let out = run(&[
        "validate",
        "--format",
        "json",
        "-q",
        "fixtures/validate/errors.pgn",
    ]);
    let pgn = std::fs::read_to_string(root().join("fixtures/validate/errors.pgn")).unwrap();
    let shown = problems_shown(&html);
    let mut boards = 0;
    for record in util::records(&out) {
        let game = record["game"].as_u64().unwrap();
        for p in record["problems"].as_array().unwrap() {
            if p["severity"] != "error" || p.get("ply").is_none() || p.get("in_variation").is_some()
            {
                continue;
            }
            let ply = p["ply"].as_u64().unwrap() as usize;
            let text = format!(
                "{} {}",
                p["move_number"].as_str().unwrap(),
                p["move"].as_str().unwrap()
            );
            let id = format!("g1-{game}");
            let (_, _, pieces) = shown
                .iter()
                .find(|(g, m, _)| *g == id && m.as_deref() == Some(text.as_str()))
                .unwrap_or_else(|| panic!("{id} {text} not shown"));
            let want = pieces_before(&pgn, game as usize - 1, ply, Language::En);
            assert_eq!(*pieces, Some(want), "game {game}, {text}");
            boards += 1;
        }
    }
    // Seven of the eleven errors of errors.pgn are at a move of the main line.
    assert!(boards >= 7, "{boards} boards");
    // The captions name the move and the side to move.
    assert!(
        html.contains("Position before 2. Ng3 — White to move"),
        "caption"
    );
}

#[test]
fn a_hand_checked_board_and_a_french_game() {
    let dir = temp_dir("hand");
    // round5: five captures before 16. Qxe2 (counted by hand in the game): 27 pieces.
    let (_, html) = report(&dir, &["fixtures/examples/round5.pgn"]);
    let shown = problems_shown(&html);
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(shown[0].1.as_deref(), Some("16. Qxe2"));
    assert_eq!(shown[0].2, Some(27));
    // The queen's destination is marked, the board shows White to move.
    assert!(html.contains("class=\"to\""));

    let french = "[Event \"Open\"]\n[Site \"Lyon\"]\n[Date \"2024.03.01\"]\n[Round \"1\"]\n[White \"Dupont\"]\n[Black \"Durand\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fa4 Cf6 5. O-O Fe7 6. Dxe7 1-0\n";
    let path = dir.join("fr.pgn");
    std::fs::write(&path, french).unwrap();
    let (code, html) = report(&dir, &[path.to_str().unwrap(), "--messages", "fr"]);
    assert_eq!(code, Some(1));
    let shown = problems_shown(&html);
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert_eq!(shown[0].1.as_deref(), Some("6. Dxe7"));
    assert_eq!(shown[0].2, Some(pieces_before(french, 0, 11, Language::Fr)));
    assert!(html.contains("Position avant 6. Dxe7 — Trait aux Blancs"));
}

#[test]
fn a_hostile_name_is_shown_as_text() {
    let dir = temp_dir("hostile");
    let path = dir.join("hostile.pgn");
    std::fs::write(
        &path,
        "[Event \"<script>alert('e')</script>\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n\
         [White \"<script>alert(1)</script>\"]\n[Black \"</td></tr></table><b onmouseover=x>\"]\n[Result \"1-0\"]\n\n\
         {<script>alert(2)</script>} 1. e4 e5 2. Qxe5 1-0\n",
    )
    .unwrap();
    let (code, html) = report(&dir, &[path.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(!html.contains("<script"), "a script tag got through");
    assert!(!html.contains("<b onmouseover"), "markup got through");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    // The standings and the games table still hold the names whole.
    let standings = table_rows(&html, "standings");
    assert!(
        standings
            .iter()
            .any(|r| r[1] == "<script>alert(1)</script>"),
        "{standings:?}"
    );
    assert!(
        table_rows(&html, "games")
            .iter()
            .any(|r| r[4] == "</td></tr></table><b onmouseover=x>")
    );
}

/// A White name ending in U+202E (right-to-left override) turned the rest of the game's heading around
/// (everything after "Alice" read backwards). The control is now shown escaped, as on a
/// terminal, and each value sits in its own isolate, so a name in a right-to-left script reads right without
/// moving the words around it.
#[test]
fn a_direction_control_in_a_name_stays_inside_the_name() {
    let dir = temp_dir("bidi");
    let path = dir.join("bidi.pgn");
    let arabic = "\u{639}\u{628}\u{62f} \u{627}\u{644}\u{644}\u{647}";
    std::fs::write(
        &path,
        format!(
            "[Event \"Open\u{2067}\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"Alice\u{202e}\"]\n[Black \"{arabic}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qxe5 1-0\n"
        ),
    )
    .unwrap();
    let (code, html) = report(&dir, &[path.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let raw: Vec<char> = html
        .chars()
        .filter(|c| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
        .collect();
    assert!(raw.is_empty(), "raw direction controls {raw:?}");
    // The game's heading: file, players, round, each isolated.
    let heading = html
        .split("<article class=\"game\"")
        .nth(1)
        .and_then(|a| a.split("</h3>").next())
        .expect("the game's heading");
    assert!(
        heading.contains(&format!(
            "<bdi>Alice\\u{{202e}}</bdi> – <bdi>{arabic}</bdi> (Round <bdi>1</bdi>)"
        )),
        "{heading}"
    );
    // The tournament's heading and the table cells.
    assert!(
        html.contains("<h3><bdi>Open\\u{2067}</bdi> — <bdi>S</bdi> — <bdi>2024</bdi></h3>"),
        "tournament heading"
    );
    for cell in [
        "<td dir=\"auto\">Alice\\u{202e}</td>".to_string(),
        format!("<td dir=\"auto\">{arabic}</td>"),
    ] {
        assert!(html.contains(&cell), "{cell}");
    }
    let games = table_rows(&html, "games");
    assert_eq!(games[0][3], "Alice\\u{202e}");
    assert_eq!(games[0][4], arabic);
}

/// Under `--messages fr` the warnings about several games stayed English ("Najer,E also plays game 1 in round
/// 4") and the figures kept the English decimal point ("2.5" where French writes "2,5").
#[test]
fn a_french_page_says_its_warnings_in_french_and_writes_decimal_commas() {
    let dir = temp_dir("french-warnings");
    let path = dir.join("twice.pgn");
    let game = |white: &str, black: &str, result: &str| {
        format!(
            "[Event \"Ch\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"4\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
        )
    };
    std::fs::write(
        &path,
        [
            game("Najer,E", "Alice", "1/2-1/2"),
            game("Bob", "Najer,E", "1-0"),
        ]
        .concat(),
    )
    .unwrap();
    let (_, html) = report(&dir, &["--messages", "fr", path.to_str().unwrap()]);
    assert!(html.contains("Najer,E joue aussi la partie 1"), "{html}");
    assert!(!html.contains("also plays"), "an English warning");
    let (_, english) = report(&dir, &[path.to_str().unwrap()]);
    assert!(english.contains("Najer,E also plays game 1"), "{english}");

    // Alice of the Spring Open has 2.5 points, 3.5 of Buchholz: 2,5 and 3,5 on the French page.
    let (_, french) = report(&dir, &["--messages", "fr", "fixtures/stats/tournament.pgn"]);
    let (_, english) = report(&dir, &["fixtures/stats/tournament.pgn"]);
    let alice = |html: &str| -> Vec<String> {
        table_rows(html, "standings")
            .into_iter()
            .find(|r| r[1] == "Alice")
            .expect("Alice's row")
    };
    let (fr, en) = (alice(&french), alice(&english));
    assert_eq!(en[3], "2.5");
    assert_eq!(fr[3], "2,5");
    assert_eq!(
        fr,
        en.iter().map(|c| c.replace('.', ",")).collect::<Vec<_>>()
    );
    let grid_points = |html: &str| -> String {
        let rows = table_rows(html, "grid");
        let row = rows
            .iter()
            .find(|r| r[1] == "Alice")
            .expect("Alice's grid row");
        row.last().unwrap().clone()
    };
    assert_eq!(grid_points(&english), "2.5");
    assert_eq!(grid_points(&french), "2,5");
}

#[test]
fn standings_are_those_of_pgnkit_standings() {
    let dir = temp_dir("standings");
    let inputs = [
        "fixtures/stats/tournament.pgn",
        "fixtures/validate/errors.pgn",
    ];
    let (code, html) = report(&dir, &inputs);
    assert_eq!(code, Some(1));
    // The tie-breaks each tournament was ranked by, in its order (the CSV has a column for every code of
    // every tournament, in the order first met).
    let mut args = vec!["standings", "--format", "json"];
    args.extend_from_slice(&inputs);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let codes: HashMap<(String, String, String), Vec<String>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let t: serde_json::Value = serde_json::from_str(line).unwrap();
            let key = ["event", "site", "year"].map(|k| t[k].as_str().unwrap().to_string());
            let codes = t["tiebreaks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().replace('/', "_"))
                .collect();
            (key.into(), codes)
        })
        .collect();
    let mut args = vec!["standings", "--format", "csv"];
    args.extend_from_slice(&inputs);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let expected: Vec<Vec<String>> = reader
        .records()
        .map(|r| {
            let r: HashMap<&str, String> = header
                .iter()
                .map(String::as_str)
                .zip(r.unwrap().iter().map(String::from))
                .collect();
            let key = ["event", "site", "year"].map(|k| r[k].clone());
            let fixed = [
                "rank",
                "player",
                "rating",
                "points",
                "games",
                "wins",
                "unfinished",
                "aro",
                "performance",
            ];
            fixed
                .iter()
                .map(|k| r[k].clone())
                .chain(codes[&key.into()].iter().map(|c| r[c.as_str()].clone()))
                .collect()
        })
        .collect();
    let shown = table_rows(&html, "standings");
    assert!(expected.len() > 10, "{} rows", expected.len());
    assert_eq!(shown, expected);
}

#[test]
fn crosstables_round_robin_and_per_round() {
    let dir = temp_dir("crosstables");
    let (_, html) = report(&dir, &["fixtures/stats/tournament.pgn"]);
    // Spring Open: four players, a grid. Alice (first) beat Bob and Dan and drew Carol.
    let grid = table_rows(&html, "grid");
    let alice = grid.iter().find(|r| r[1] == "Alice").expect("Alice's row");
    assert_eq!(alice[0], "1");
    assert_eq!(alice[2], "", "the diagonal");
    let mut scores: Vec<&str> = alice[3..6].iter().map(String::as_str).collect();
    scores.sort();
    // One of the three is her unfinished game against Dan as well as her win.
    assert!(scores.contains(&"½"), "{alice:?}");
    assert_eq!(alice[6], "2.5");
    // Each cell has its mirror: a 1 for one is a 0 for the other.
    let ones = grid
        .iter()
        .flat_map(|r| r[2..r.len() - 1].iter())
        .filter(|c| c.split(' ').any(|s| s == "1"))
        .count();
    let zeros = grid
        .iter()
        .flat_map(|r| r[2..r.len() - 1].iter())
        .filter(|c| c.split(' ').any(|s| s == "0"))
        .count();
    assert_eq!(ones, zeros);

    // Seventeen players who did not all meet: per round.
    let mut pgn = String::new();
    for round in 1..=3 {
        for board in 0..9 {
            let (w, b) = ((board * 2 + round) % 18, (board * 2 + 1 + round * 3) % 18);
            if w == b {
                continue;
            }
            pgn.push_str(&format!(
                "[Event \"Swiss\"]\n[Site \"X\"]\n[Date \"2024.01.0{round}\"]\n[Round \"{round}.{board}\"]\n[White \"P{w:02}\"]\n[Black \"P{b:02}\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
            ));
        }
    }
    // Games with moves: a decided game without any is a forfeit, marked `+`/`-` (see
    // a_forfeit_is_marked_in_the_report_and_the_summary).
    let path = dir.join("swiss.pgn");
    std::fs::write(&path, pgn).unwrap();
    let (_, html) = report(&dir, &[path.to_str().unwrap()]);
    assert!(!html.contains("<table class=\"grid\">"));
    let rows = table_rows(&html, "rounds");
    assert!(rows.len() > 16, "{} players", rows.len());
    assert!(html.contains("<th>Round 1</th><th>Round 2</th><th>Round 3</th>"));
    // Every cell played: the opponent's rank, w or b, the score (all games here are won by White).
    let ranks: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    let mut played = 0;
    for row in &rows {
        for cell in row[2..row.len() - 1].iter().filter(|c| !c.is_empty()) {
            let (rank, rest) = cell.split_at(cell.find(['w', 'b']).expect(cell));
            assert!(ranks.contains(&rank), "{cell}");
            assert!(rest == "w 1" || rest == "b 0", "{cell}");
            played += 1;
        }
    }
    assert_eq!(played, 2 * 27);
}

#[test]
fn french_labels() {
    let dir = temp_dir("french");
    let (_, html) = report(
        &dir,
        &[
            "--messages",
            "fr",
            "fixtures/stats/tournament.pgn",
            "fixtures/examples/round5.pgn",
        ],
    );
    assert!(html.contains("<html lang=\"fr\">"));
    for word in [
        "Classement",
        "Grille américaine",
        "<th>Partie</th>",
        "<th>Ronde</th>",
        "<th>Points</th>",
        "Départages",
        "Trait aux Blancs",
    ] {
        assert!(html.contains(word), "{word} missing");
    }
    for english in [
        ">Standings<",
        ">Crosstable<",
        "<th>Round</th>",
        "White to move",
    ] {
        assert!(!html.contains(english), "{english} in the French page");
    }
    let out = run(&[
        "report",
        "--messages",
        "de",
        "fixtures/stats/tournament.pgn",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn exit_codes_and_where_the_page_goes() {
    let dir = temp_dir("exit");
    // Clean games: 0.
    let (code, _) = report(&dir, &["fixtures/stats/tournament.pgn"]);
    assert_eq!(code, Some(0));
    // Standard output when it is not a terminal (here a pipe).
    let out = pgnkit(
        &[
            "report",
            "-q",
            "--messages",
            "en",
            "fixtures/stats/tournament.pgn",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.starts_with(b"<!DOCTYPE html>"));
    // An input that cannot be read: 2, and FILE is not written.
    let page = dir.join("missing.html");
    let out = run(&[
        "report",
        "-q",
        "fixtures/no-such-file.pgn",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!page.exists());
    // The output may not be an input.
    let copy = dir.join("in.pgn");
    std::fs::copy(root().join("fixtures/stats/tournament.pgn"), &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let out = run(&[
        "report",
        "-q",
        copy.to_str().unwrap(),
        "-o",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    // No game at all: 1, as validate says, and the page says so.
    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let (code, html) = report(&dir, &[empty.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(html.contains("No game found."));
}

#[test]
fn a_large_input_makes_a_bounded_page() {
    let dir = temp_dir("large");
    let mut pgn = String::new();
    for i in 0..3000 {
        let moves = if i % 3 == 0 {
            "1. e4 e5 2. Qxe5 *"
        } else {
            "1. d4 d5 *"
        };
        pgn.push_str(&format!(
            "[Event \"Online {i}\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"*\"]\n\n{moves}\n\n"
        ));
    }
    let path = dir.join("many.pgn");
    std::fs::write(&path, pgn).unwrap();
    let (code, html) = report(&dir, &[path.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    // The games table stops at 2000 rows, the details at 300 games, the tournaments at 50; each is said.
    assert_eq!(table_rows(&html, "games").len(), 2000);
    assert_eq!(html.matches("<article class=\"game\"").count(), 300);
    assert_eq!(html.matches("<article class=\"tournament\"").count(), 50);
    for said in [
        "Games not listed in the games table (counted in the files table): 1000",
        "Games with problems whose problems are not shown: 700",
        "Tournaments not shown: 2950",
    ] {
        assert!(html.contains(said), "{said}");
    }
    assert!(html.len() < 8 << 20, "{} bytes", html.len());
}

/// The page's tables of a tournament are those of its real games: a copy of a game (in another file, or in the
/// same one), a player against himself and a game without a player's name are left out, and the page says how
/// many, per tournament and in what was left out.
#[test]
fn duplicates_and_games_that_are_no_pairing_are_left_out_of_the_tables() {
    let dir = temp_dir("left-out");
    let round_3 = std::fs::read_to_string(root().join("fixtures/standings/round-3.pgn")).unwrap();
    let third = round_3.match_indices("[Event ").nth(2).unwrap().0;
    let real = dir.join("round-3-real.pgn");
    std::fs::write(&real, &round_3[..third]).unwrap();
    let (code, all) = report(
        &dir,
        &[
            "fixtures/standings/rounds-1-2.pgn",
            "fixtures/standings/round-3.pgn",
        ],
    );
    assert_eq!(code, Some(0));
    let (_, clean) = report(
        &dir,
        &["fixtures/standings/rounds-1-2.pgn", real.to_str().unwrap()],
    );
    for class in ["standings", "grid"] {
        let rows = table_rows(&all, class);
        assert_eq!(rows.len(), 4, "{class}: {rows:?}");
        assert_eq!(rows, table_rows(&clean, class), "{class}");
    }
    for said in [
        "<p>Duplicates of a game already counted (left out of the tables): 2</p>",
        "<p>Games with no player's name on a side (left out of the tables): 2</p>",
        "<p>Games of a player against himself (left out of the tables): 1</p>",
        "<li>Duplicates of a game already counted (left out of the tables): 2</li>",
    ] {
        assert!(all.contains(said), "{said}");
    }
    // The copy in the other file is named as a duplicate on the page too: the checks run across the inputs.
    let copies = table_rows(&all, "games")
        .into_iter()
        .filter(|r| r[6] == "warnings" && (r[3] == "Anna" && (r[4] == "Boris" || r[4] == "Chen")))
        .count();
    assert_eq!(copies, 2);
    assert!(
        all.contains("same players and same moves as game 1 of fixtures/standings/rounds-1-2.pgn")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--event` with a name no tournament has said "no game has an Event tag", which was false: it is a usage
/// error naming the nearest tournaments, and no page is written.
#[test]
fn an_event_no_tournament_has_is_a_usage_error_naming_the_nearest() {
    let dir = temp_dir("no-event");
    let page = dir.join("page.html");
    let args = [
        "report",
        "--event",
        "Spring",
        "fixtures/stats/tournament.pgn",
        "-o",
        page.to_str().unwrap(),
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
    assert!(!page.exists());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(
            "pgnkit report: --event: no tournament is called \"Spring\" (the inputs hold 2 tournaments); the nearest names: \"Spring Open\", \"Club Blitz\""
        ),
        "{stderr}"
    );
    // A name that is there makes the page.
    let (code, html) = report(
        &dir,
        &["--event", "Spring Open", "fixtures/stats/tournament.pgn"],
    );
    assert_eq!(code, Some(0));
    assert!(html.contains("Spring Open") && !html.contains("No tournament"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// One tournament of 200,000 games, each in a round of its own (22 MB of PGN): the per-round crosstable had a
/// column per distinct Round, a page of hundreds of megabytes built in gigabytes. Its columns are round
/// numbers, at most 60, the rest said in a note; under a 256 MiB address-space limit the page is written, and
/// small.
#[test]
fn a_tournament_of_200000_rounds_makes_a_bounded_page_in_bounded_memory() {
    let dir = temp_dir("many-rounds");
    let path = dir.join("marathon.pgn");
    let mut pgn = String::with_capacity(24 << 20);
    for i in 0..200_000u32 {
        // 100 players, each game between two different ones: more than a grid holds, so a table per round.
        let white = i % 100;
        let black = (white + 1 + (i / 100) % 99) % 100;
        pgn.push_str(&format!(
            "[Event \"Marathon\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"{}\"]\n[White \"P{white}\"]\n[Black \"P{black}\"]\n[Result \"1-0\"]\n\n1-0\n\n",
            i + 1
        ));
    }
    std::fs::write(&path, &pgn).unwrap();
    let page = dir.join("page.html");
    let args = [
        "report",
        "-q",
        "-j2",
        "--messages",
        "en",
        path.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ];
    let out = util::run_within_address_space(1 << 18, &args, None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.len() < 2 << 20, "{} bytes", html.len());
    let header = html
        .split("<table class=\"rounds\">")
        .nth(1)
        .and_then(|t| t.split("</tr>").next())
        .expect("a table per round");
    assert_eq!(header.matches("<th>Round ").count(), 60, "{header}");
    assert!(header.contains("<th>Round 1</th>") && header.contains("<th>Round 60</th>"));
    assert!(
        html.contains("Rounds not shown in this crosstable (beyond its first 60 columns): 199940; games in those rounds: 199940"),
        "the cut is said"
    );
    assert_eq!(table_rows(&html, "rounds").len(), 100);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the report's browser check (`--board`: a board must be drawn).
fn browser_check(page: &Path, board: bool) -> Option<std::process::Output> {
    let args: &[&std::ffi::OsStr] = if board { &["--board".as_ref()] } else { &[] };
    crate::util::browser_check("check_report.sh", page, args)
}

#[test]
fn a_real_browser_shows_the_page_without_a_console_message() {
    let dir = temp_dir("browser");
    let (_, html) = report(
        &dir,
        &[
            "fixtures/examples/round5.pgn",
            "fixtures/validate/errors.pgn",
        ],
    );
    assert!(html.contains("class=\"board\""));
    let Some(out) = browser_check(&dir.join("page.html"), true) else {
        return;
    };
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The check itself can fail: a page whose script throws is caught, and so is a blank one.
    let bad = dir.join("bad.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><html><body><p>x</p><script>nope();</script></body></html>",
    )
    .unwrap();
    let out = browser_check(&bad, false).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("console"));
    let blank = dir.join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>").unwrap();
    let out = browser_check(&blank, false).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("blank"));
}

/// Every problem of a run's games by kind, as `pgnkit validate` finds them (validate's job through the run:
/// each game checked, then across the games of all the inputs, then the findings about whole tournaments),
/// and the report's count of the same run (report's job through the run, then `Collector::finish`).
fn kinds_by_validate_and_by_report(
    paths: &[PathBuf],
) -> (BTreeMap<String, u64>, BTreeMap<String, u64>) {
    use pgnkit_jobs::report::{GameFacts, Limits, ReportJob};
    use pgnkit_jobs::run::{self, Input, Job, JobError, ReadError, Sink, Sources, Threads};
    use pgnkit_jobs::validate::{
        DEFAULT_TRACKED_GAMES, ValidateJob, ValidateOptions, ValidatedBatch,
    };

    /// validate's problems by kind, batch by batch.
    #[derive(Default)]
    struct Kinds(BTreeMap<String, u64>);
    impl Sink<ValidateJob> for Kinds {
        fn batch(
            &mut self,
            _: Input<'_>,
            batch: &mut ValidatedBatch,
            _: &<ValidateJob as Job>::State,
        ) -> Result<(), JobError> {
            for p in batch.games.iter().flat_map(|report| &report.problems) {
                *self.0.entry(p.kind().as_str().into()).or_default() += p.times();
            }
            Ok(())
        }
        fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
            panic!("{error}")
        }
    }
    /// The report keeps everything in its job's state.
    struct Page;
    impl Sink<ReportJob> for Page {
        fn batch(
            &mut self,
            _: Input<'_>,
            _: &mut Vec<GameFacts>,
            _: &<ReportJob as Job>::State,
        ) -> Result<(), JobError> {
            Ok(())
        }
        fn read_error(&mut self, _: Input<'_>, error: ReadError) -> Result<(), JobError> {
            panic!("{error}")
        }
    }

    let sources = Sources::expand(paths).unwrap();
    let opts = ValidateOptions {
        tag_checks: true,
        track_claims: true,
        report_tags: true,
        ..ValidateOptions::default()
    };
    let threads = Threads::asked(Some(2)).0;
    let validate = ValidateJob::new(opts.clone(), false, DEFAULT_TRACKED_GAMES, threads);
    let mut kinds = Kinds::default();
    let checks = run::run(&sources, threads, &validate, &mut kinds)
        .unwrap()
        .state;
    let mut by_validate = kinds.0;
    for w in checks.finish() {
        *by_validate
            .entry(w.problem.kind().as_str().into())
            .or_default() += w.problem.times();
    }
    let report = ReportJob::new(opts, Limits::default());
    let mut collector = run::run(&sources, threads, &report, &mut Page)
        .unwrap()
        .state;
    collector.finish(Vec::new(), 0);
    let by_report = collector
        .problem_kinds()
        .iter()
        .map(|(kind, n)| (kind.to_string(), *n))
        .collect();
    let total: u64 = by_report_total(&collector);
    assert_eq!(
        total,
        by_validate.values().sum::<u64>(),
        "the report's errors, warnings and notes"
    );
    (by_validate, by_report)
}

fn by_report_total(c: &pgnkit_jobs::report::Collector) -> u64 {
    c.errors + c.warnings + c.notes
}

/// The report gave validate's problems for each game and the warnings across games, but not the warnings
/// about whole tournaments: a tournament kept as one file per round, round 3 missing, was "2 warnings" in the
/// report and 3 in validate.
#[test]
fn the_report_finds_the_problems_validate_finds_kind_by_kind() {
    let round = |r: &str| root().join(format!("fixtures/validate/tournament/{r}.pgn"));
    let (by_validate, by_report) =
        kinds_by_validate_and_by_report(&[round("round1"), round("round2"), round("round4")]);
    assert_eq!(by_validate.get("round_numbering"), Some(&1));
    assert_eq!(by_report, by_validate);
    // Every fixture in one run: errors, notes, tag checks, tournaments across files.
    let (by_validate, by_report) = kinds_by_validate_and_by_report(&[root().join("fixtures")]);
    assert!(by_validate.len() > 20, "{by_validate:?}");
    assert_eq!(by_report, by_validate);
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus (../shared/corpus or PGNKIT_SHARED; see build.rs)"
)]
fn the_report_finds_the_problems_validate_finds_on_the_corpus() {
    let (by_validate, by_report) =
        kinds_by_validate_and_by_report(&[PathBuf::from(env!("PGNKIT_SHARED_CORPUS"))]);
    assert!(
        by_validate.contains_key("round_numbering"),
        "{by_validate:?}"
    );
    assert_eq!(by_report, by_validate);
}

/// The errors and warnings the page lists, by kind (`(×N)` counted N times), with its summary line's totals.
fn kinds_on_the_page(html: &str) -> BTreeMap<String, u64> {
    let mut kinds = BTreeMap::new();
    for problem in html.split("<div class=\"problem ").skip(1) {
        let kind = problem.split("<code>").nth(1).unwrap();
        let kind = kind.split("</code>").next().unwrap().to_string();
        let head = problem.split("</p>").next().unwrap();
        let times = head
            .split("(×")
            .nth(1)
            .map_or(1, |n| n.split(')').next().unwrap().parse().unwrap());
        *kinds.entry(kind).or_default() += times;
    }
    kinds
}

/// `pgnkit validate`'s errors and warnings by kind: its JSON records, and the warnings about the run it
/// writes on stderr beside them.
fn kinds_said_by_validate(inputs: &[&str]) -> BTreeMap<String, u64> {
    let mut args = vec!["validate", "--format", "json", "-q", "--messages", "en"];
    args.extend_from_slice(inputs);
    let out = run(&args);
    let mut kinds = BTreeMap::new();
    for record in util::records(&out) {
        for p in record["problems"].as_array().unwrap() {
            if p["severity"] != "note" {
                let times = p.get("count").and_then(|n| n.as_u64()).unwrap_or(1);
                *kinds
                    .entry(p["kind"].as_str().unwrap().to_string())
                    .or_default() += times;
            }
        }
    }
    for line in String::from_utf8_lossy(&out.stderr).lines() {
        if let Some(kind) = line.strip_prefix("warning[") {
            let kind = kind.split(']').next().unwrap().to_string();
            *kinds.entry(kind).or_default() += 1;
        }
    }
    kinds
}

#[test]
fn the_page_lists_the_problems_validate_gives_on_the_same_inputs() {
    let dir = temp_dir("same-problems");
    for (inputs, round_numbering) in [
        (
            &[
                "fixtures/validate/tournament/round1.pgn",
                "fixtures/validate/tournament/round2.pgn",
                "fixtures/validate/tournament/round4.pgn",
            ][..],
            1,
        ),
        (
            &[
                "fixtures/standings/round-3.pgn",
                "fixtures/validate/errors.pgn",
                "fixtures/validate/tags.pgn",
            ][..],
            1,
        ),
        (
            &[
                "fixtures/standings/rounds-1-2.pgn",
                "fixtures/standings/round-3.pgn",
            ][..],
            0,
        ),
    ] {
        let (_, html) = report(&dir, inputs);
        let expected = kinds_said_by_validate(inputs);
        assert_eq!(
            expected.get("round_numbering").copied().unwrap_or(0),
            round_numbering,
            "{expected:?}"
        );
        assert_eq!(kinds_on_the_page(&html), expected, "{inputs:?}");
        // The summary line on stderr counts them too.
        let mut args = vec!["report", "--messages", "en", "-o"];
        let page = dir.join("counted.html");
        let page = page.to_str().unwrap();
        args.push(page);
        args.extend_from_slice(inputs);
        let out = run(&args);
        let line = String::from_utf8_lossy(&out.stderr).to_string();
        let warnings: u64 = expected
            .iter()
            .filter(|(kind, _)| !is_error(kind, &html))
            .map(|(_, n)| n)
            .sum();
        assert!(
            line.contains(&format!(", {warnings} warning")),
            "{line} (expected {warnings} warnings: {expected:?})"
        );
    }
}

/// Whether the page shows `kind` as an error.
fn is_error(kind: &str, html: &str) -> bool {
    html.contains(&format!(
        "<strong class=\"errors\">error</strong> <code>{kind}</code>"
    ))
}
