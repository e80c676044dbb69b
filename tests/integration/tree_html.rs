//! End-to-end tests of `pgnkit tree --format html`: one file that loads nothing, a section per position with
//! the counts the CSV output of the same run gives, links that all lead to a section of the page, the root's
//! first; a bounded page for a large tree that says what it left out; French; and a real headless browser
//! (Debian's chromium, through `tests/browser/check_tree.sh`) that draws it without a console message and
//! follows the root's links.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use pgnkit::core::Position;
use pgnkit::notation::{Language, SanPlus};

use crate::util::{self, pgnkit, show};

const LICHESS: &str =
    "fixtures/corpus-subset/games-english/lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn";
const HOSTILE: &str = "fixtures/tree/html-hostile.pgn";

/// The anchor of the start position: its Polyglot key.
const START: &str = "p463b96181691fc9c";

fn temp_dir(name: &str) -> PathBuf {
    util::temp_dir("tree_html", name)
}

/// Runs `pgnkit tree ARGS -o DIR/NAME`; the page and the run's stderr (its closing line).
fn page(dir: &Path, name: &str, args: &[&str]) -> (String, String) {
    let path = dir.join(name);
    let mut all: Vec<&str> = vec!["tree"];
    if !args.contains(&"--messages") {
        all.extend_from_slice(&["--messages", "en"]);
    }
    all.extend_from_slice(args);
    let path_arg = path.to_str().unwrap().to_string();
    all.extend_from_slice(&["-o", &path_arg]);
    let out = pgnkit(&all, None);
    assert_eq!(out.status.code(), Some(0), "{}", show(&all, &out));
    let html = std::fs::read_to_string(&path).unwrap();
    (html, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The values of attribute `name` in the page, in order.
fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let start = format!(" {name}=\"");
    html.match_indices(&start)
        .map(|(at, _)| {
            let rest = &html[at + start.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

/// A section of the page: its anchor, its EPD and its moves (SAN, games) in order.
#[derive(Debug)]
struct Section {
    id: String,
    epd: String,
    moves: Vec<(String, u64)>,
}

fn sections(html: &str) -> Vec<Section> {
    html.split("<section class=\"position\" id=\"")
        .skip(1)
        .map(|s| {
            let id = s[..s.find('"').unwrap()].to_string();
            let epd = s
                .split("<p class=\"fen\"><code>")
                .nth(1)
                .and_then(|r| r.split("</code>").next())
                .unwrap()
                .replace("&amp;", "&");
            let moves = s
                .split("<tr><td class=\"san\">")
                .skip(1)
                .map(|row| {
                    let san_cell = &row[..row.find("</td>").unwrap()];
                    let san = match san_cell.find("\">") {
                        Some(at) => san_cell[at + 2..].trim_end_matches("</a>"),
                        None => san_cell,
                    };
                    let games = row
                        .split("<td class=\"n\">")
                        .nth(1)
                        .and_then(|c| c.split("</td>").next())
                        .unwrap()
                        .replace(',', "");
                    (san.to_string(), games.parse().unwrap())
                })
                .collect();
            Section { id, epd, moves }
        })
        .collect()
}

/// The rows of the same run as CSV, by position (EPD): each move's SAN and games.
fn csv_rows(args: &[&str]) -> BTreeMap<String, Vec<(String, u64)>> {
    let mut all = vec!["tree", "-q", "--format", "csv"];
    all.extend_from_slice(args);
    let out = pgnkit(&all, None);
    assert_eq!(out.status.code(), Some(0), "{}", show(&all, &out));
    let mut rows: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    for record in reader.records() {
        let r = record.unwrap();
        rows.entry(r[0].to_string())
            .or_default()
            .push((r[2].to_string(), r[3].parse().unwrap()));
    }
    rows
}

/// What the closing line says was written: (moves, positions).
fn written(stderr: &str) -> (u64, u64) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pgnkit tree:"))
        .unwrap_or_else(|| panic!("no closing line: {stderr}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "moves").unwrap();
    let number = |w: &str| w.replace(',', "").parse::<u64>().unwrap();
    (number(words[at - 1]), number(words[at + 2]))
}

/// The page is one file that loads nothing, links only to its own sections.
fn assert_self_contained(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>\n"));
    assert!(html.ends_with("</html>\n"));
    assert!(html.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
    ));
    for banned in [
        "<script", "<link", "<img", "<iframe", "src=", "url(", "@import",
    ] {
        assert!(!html.contains(banned), "{banned} in the page");
    }
    for href in attributes(html, "href") {
        assert!(href.starts_with('#'), "href=\"{href}\" leaves the page");
    }
    let without_ns = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!without_ns.contains("http://") && !without_ns.contains("https://"));
    let ids: HashSet<&str> = attributes(html, "id").into_iter().collect();
    for href in attributes(html, "href") {
        assert!(ids.contains(&href[1..]), "{href} has no id on the page");
    }
}

#[test]
fn every_position_has_its_section_with_the_counts_of_the_csv_and_links_that_lead_somewhere() {
    let dir = temp_dir("lichess");
    let (html, stderr) = page(&dir, "tree.html", &[LICHESS]);
    assert_self_contained(&html);
    let shown = sections(&html);
    // The root first, its moves as the explorer view gives them.
    assert_eq!(shown[0].id, START);
    assert!(html.contains("<h2>Root position</h2>"));
    assert_eq!(
        shown[0].moves,
        [("e4", 36), ("d4", 10), ("b3", 2), ("c4", 1), ("e3", 1)].map(|(m, g)| (m.to_string(), g))
    );
    assert!(html.contains(
        "<td class=\"san\"><a href=\"#p823c9b50fd114196\">e4</a></td><td class=\"n\">36</td><td class=\"n\">72.0%</td>"
    ));
    // The position after 1. e4 right after the root, as the links reach it first.
    assert_eq!(shown[1].id, "p823c9b50fd114196");
    assert!(html.contains("<h2>After 1. e4</h2>"));
    // Every position of the tree (fewer than the page holds) with the moves of the CSV, most played first.
    let csv = csv_rows(&[LICHESS]);
    assert_eq!(shown.len(), csv.len());
    for section in &shown {
        let mut want = csv[&section.epd].clone();
        want.sort_by_key(|m| std::cmp::Reverse(m.1));
        let games = |moves: &[(String, u64)]| moves.iter().map(|m| m.1).collect::<Vec<_>>();
        assert_eq!(games(&section.moves), games(&want), "{}", section.epd);
        let mut got = section.moves.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{}", section.epd);
    }
    let rows: usize = csv.values().map(Vec::len).sum();
    assert_eq!(written(&stderr), (rows as u64, csv.len() as u64));
    assert!(!html.contains("id=\"left-out\""));
    // Each move's link leads to the section of the position after it.
    let by_id: BTreeMap<&str, &Section> = shown.iter().map(|s| (s.id.as_str(), s)).collect();
    let start = Position::new();
    let e4 = start
        .legal_moves()
        .as_slice()
        .iter()
        .copied()
        .find(|m| {
            SanPlus::from_move(&start, m)
                .display(Language::En)
                .to_string()
                == "e4"
        })
        .unwrap();
    let after = start.after_unchecked(e4);
    assert_eq!(
        by_id["p823c9b50fd114196"].epd,
        pgnkit::core::fen::to_epd(&after)
    );
    // `--format html` to standard output writes the same page.
    let out = pgnkit(
        &[
            "tree",
            "-q",
            "--messages",
            "en",
            "--format",
            "html",
            LICHESS,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), html);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_of_the_games_never_reaches_the_page() {
    let dir = temp_dir("hostile");
    let (html, _) = page(&dir, "tree.html", &[HOSTILE]);
    assert_self_contained(&html);
    for text in ["alert", "Mallory", "Eve", "example.com", "<b>"] {
        assert!(!html.contains(text), "{text} in the page");
    }
    // The transposition 1. Nf3 Nc6 2. e4 e5 meets 1. e4 e5 2. Nf3 Nc6: one section, linked from both sides.
    let shown = sections(&html);
    let met = shown
        .iter()
        .find(|s| s.epd == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -")
        .expect("the position both orders reach");
    assert_eq!(met.moves, [("Bc4".to_string(), 1), ("Bb5".to_string(), 1)]);
    let link = format!("<td class=\"san\"><a href=\"#{}\">", met.id);
    assert_eq!(html.matches(&link).count(), 2, "Nc6 and e5 lead there");
    assert!(html.contains("<h2>After 1. e4 e5 2. Nf3 Nc6</h2>"));
    assert!(html.contains("King&#39;s Pawn Game"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `count` games of `plies` random legal moves each (a fixed seed): a tree of many positions.
fn random_games(count: usize, plies: usize) -> String {
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut pgn = String::new();
    for g in 0..count {
        let mut pos = Position::new();
        let mut moves = String::new();
        for ply in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Few choices on the first moves: the tree has positions of many games and of one.
            let choices = if ply < 2 { 3 } else { legal.len() };
            let m = legal.as_slice()[(seed % choices as u64) as usize];
            if ply % 2 == 0 {
                moves.push_str(&format!("{}. ", ply / 2 + 1));
            }
            moves.push_str(
                &SanPlus::from_move(&pos, &m)
                    .display(Language::En)
                    .to_string(),
            );
            moves.push(' ');
            pos.play_unchecked(m);
        }
        let result = ["1-0", "0-1", "1/2-1/2"][g % 3];
        pgn.push_str(&format!(
            "[Event \"R\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"{result}\"]\n\n{moves}{result}\n\n"
        ));
    }
    pgn
}

#[test]
fn a_large_tree_makes_a_bounded_page_that_says_what_it_left_out() {
    let dir = temp_dir("large");
    let input = dir.join("random.pgn");
    std::fs::write(&input, random_games(400, 16)).unwrap();
    let input = input.to_str().unwrap();
    let (html, stderr) = page(&dir, "tree.html", &[input]);
    assert_self_contained(&html);
    let shown = sections(&html);
    assert_eq!(shown.len(), 2000, "the cap");
    assert_eq!(shown[0].id, START);
    let csv = csv_rows(&[input]);
    assert!(csv.len() > 4000, "{} positions", csv.len());
    let rows: usize = csv.values().map(Vec::len).sum();
    let shown_rows: usize = shown.iter().map(|s| s.moves.len()).sum();
    assert_eq!(written(&stderr), (shown_rows as u64, 2000));
    let note = format!(
        "This page shows the 2,000 positions with the most games; left out: {} more positions of the tree ({} moves). A higher --min-games or a lower --depth makes a smaller tree",
        thousands(csv.len() - 2000),
        thousands(rows - shown_rows)
    );
    assert!(html.contains(&note), "{note}");
    // The positions kept are the most played: none left out has more games than one kept.
    let games = |moves: &[(String, u64)]| moves.iter().map(|m| m.1).sum::<u64>();
    let kept: HashSet<&str> = shown.iter().map(|s| s.epd.as_str()).collect();
    let least_kept = shown.iter().map(|s| games(&s.moves)).min().unwrap();
    let most_left = csv
        .iter()
        .filter(|(epd, _)| !kept.contains(epd.as_str()))
        .map(|(_, moves)| games(moves))
        .max()
        .unwrap();
    assert!(most_left <= least_kept, "{most_left} > {least_kept}");
    assert!(html.len() < 12 << 20, "{} bytes", html.len());
    // With --min-games the tree is small enough: nothing left out.
    let (small, _) = page(&dir, "small.html", &["--min-games", "3", input]);
    assert!(!small.contains("id=\"left-out\""));
    assert!(small.contains("Moves played in fewer than 3 games are left out (--min-games)."));
    assert_self_contained(&small);
    let _ = std::fs::remove_dir_all(&dir);
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn messages_fr_makes_a_french_page() {
    let dir = temp_dir("fr");
    let (html, _) = page(&dir, "arbre.html", &["--messages", "fr", LICHESS]);
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"fr\">"));
    for text in [
        "<h1>Arbre des ouvertures</h1>",
        "<h2>Position racine</h2>",
        "<h2>Après 1. e4</h2>",
        "50 parties · Trait aux Blancs",
        ">Coup</th>",
        "72,0\u{a0}%",
    ] {
        assert!(html.contains(text), "{text}");
    }
    assert!(!html.contains("Root position"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the tree page's browser check, keeping its screenshot in `shot`.
fn browser_check(page: &Path, shot: Option<&Path>) -> Option<std::process::Output> {
    let mut args: Vec<&std::ffi::OsStr> = Vec::new();
    if let Some(shot) = shot {
        args.extend(["--screenshot".as_ref(), shot.as_os_str()]);
    }
    crate::util::browser_check("check_tree.sh", page, &args)
}

#[test]
fn a_real_browser_draws_the_page_and_follows_its_links() {
    let dir = temp_dir("browser");
    let (_, _) = page(&dir, "tree.html", &[LICHESS]);
    let Some(out) = browser_check(&dir.join("tree.html"), Some(&dir.join("tree.png"))) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("click-through: links 5 followed 5 broken []"),
        "{stdout}"
    );
    // The check can fail: a link of the root to no section is caught.
    let (html, _) = page(&dir, "tree.html", &[LICHESS]);
    let broken = dir.join("broken.html");
    std::fs::write(
        &broken,
        html.replacen("href=\"#p823c9b50fd114196\"", "href=\"#nowhere\"", 1),
    )
    .unwrap();
    let out = browser_check(&broken, None).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("lead nowhere"));
    let _ = std::fs::remove_dir_all(&dir);
}
