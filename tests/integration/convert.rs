//! End-to-end tests of `pgnkit convert`, running the binary on `fixtures/convert/` and on the shared corpus
//! (`../shared/corpus` or `$PGNKIT_SHARED/corpus`; those tests are listed as ignored when it is absent):
//! - the French fixture converts to exactly `french.en.pgn`, losing no comment, NAG, variation or escape;
//! - a game that does not replay is copied through unchanged (or skipped) with a located diagnostic, exit 1;
//! - `-o`, standard input, directories, gzip and zstd input give the same bytes; `| head` exits 0;
//! - the French corpus converts to English with python-chess's moves game by game, nothing lost;
//! - German, Spanish, Dutch and figurine output reads back to the same moves; en → fr → en is the identity.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use pgnkit::pgn::{TokenKind, parse_all};

use crate::util::{self, pgnkit, show};

fn fixture(name: &str) -> PathBuf {
    util::root().join("fixtures/convert").join(name)
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    util::temp_dir("convert", name)
}

/// Runs and checks the exit code; returns stdout.
fn convert(args: &[&str], code: i32) -> Vec<u8> {
    let out = pgnkit(args, None);
    assert_eq!(out.status.code(), Some(code), "{}", show(args, &out));
    out.stdout
}

#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
struct Counts {
    games: usize,
    moves: usize,
    comments: usize,
    line_comments: usize,
    nags: usize,
    variations: usize,
    escapes: usize,
    draw_offers: usize,
}

/// What a PGN text holds, per game.
fn counts(bytes: &[u8]) -> Vec<Counts> {
    parse_all(bytes)
        .iter()
        .map(|g| {
            let mut c = Counts {
                games: 1,
                ..Counts::default()
            };
            for t in &g.tokens {
                match t.kind {
                    TokenKind::Move(m) => {
                        c.moves += 1;
                        c.nags += usize::from(m.suffix.is_some());
                    }
                    TokenKind::Comment => c.comments += 1,
                    TokenKind::LineComment => c.line_comments += 1,
                    TokenKind::Nag(_) => c.nags += 1,
                    TokenKind::VariationStart => c.variations += 1,
                    TokenKind::Escape => c.escapes += 1,
                    TokenKind::DrawOffer => c.draw_offers += 1,
                    _ => {}
                }
            }
            c
        })
        .collect()
}

fn total(counts: &[Counts]) -> Counts {
    counts.iter().fold(Counts::default(), |a, c| Counts {
        games: a.games + c.games,
        moves: a.moves + c.moves,
        comments: a.comments + c.comments,
        line_comments: a.line_comments + c.line_comments,
        nags: a.nags + c.nags,
        variations: a.variations + c.variations,
        escapes: a.escapes + c.escapes,
        draw_offers: a.draw_offers + c.draw_offers,
    })
}

/// Every movetext line under 80 characters (tag lines apart).
fn assert_export_lines(text: &str) {
    assert!(!text.contains('\r'));
    for line in text.lines() {
        if line.starts_with('[') && line.ends_with("\"]") {
            continue;
        }
        assert!(line.chars().count() < 80, "long line: {line:?}");
    }
}

#[test]
fn french_fixture_converts_to_the_expected_english() {
    let input = fixture("french.pgn");
    let args = ["convert", input.to_str().unwrap()];
    let out = pgnkit(&args, None);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let expected = std::fs::read(fixture("french.en.pgn")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&expected)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2 games in, 2 out (2 converted"),
        "{stderr}"
    );
    assert_export_lines(&String::from_utf8_lossy(&out.stdout));
    // Nothing lost: the same moves, comments, NAGs (suffixes become $n), variations, escapes, draw offers.
    let source = std::fs::read(&input).unwrap();
    assert_eq!(counts(&source), counts(&out.stdout));
    // Export format is a fixed point.
    let again = pgnkit(&["convert", "-"], Some(&out.stdout));
    assert_eq!(again.stdout, out.stdout);
}

/// The mark on a game not converted was half English under `--messages fr` (`{pgnkit: not converted:
/// impossible de lire ... (line 3, column 17)}`): it follows the language of the messages, all of it.
#[test]
fn the_mark_on_a_game_not_converted_is_in_one_language() {
    let game = "[Event \"x\"]\n\n1. e4 e5 2. Cf3 Nc6 3. Fb5 a6 *\n";
    let marked = |lang: &str| {
        let out = pgnkit(
            &["convert", "-q", "--messages", lang, "-"],
            Some(game.as_bytes()),
        );
        assert_eq!(out.status.code(), Some(1), "{}", show(&["convert"], &out));
        let text = String::from_utf8(out.stdout).unwrap();
        let start = text.find("{pgnkit").expect("the mark");
        text[start..start + text[start..].find('}').unwrap() + 1].to_string()
    };
    let french = marked("fr");
    assert!(
        french.starts_with("{pgnkit : partie non convertie : impossible de lire \"Nc6\"")
            && french.ends_with("(ligne 3, colonne 17)}"),
        "{french}"
    );
    for english in ["not converted", "line", "column", "cannot"] {
        assert!(!french.contains(english), "{english} in {french}");
    }
    let english = marked("en");
    assert!(
        english.starts_with("{pgnkit: not converted: cannot read \"Nc6\"")
            && english.ends_with("(line 3, column 17)}"),
        "{english}"
    );
}

#[test]
fn invalid_game_is_copied_through_with_a_located_diagnostic() {
    let input = fixture("invalid.pgn");
    let path = input.to_str().unwrap();
    let args = ["convert", path];
    let out = pgnkit(&args, None);
    assert_eq!(out.status.code(), Some(1), "{}", show(&args, &out));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let source = std::fs::read_to_string(&input).unwrap();
    let start = source.find("[Event \"Invalide\"]").unwrap();
    let end = source.find("[Event \"Valide 2\"]").unwrap();
    // The game as it was, its movetext after a comment that marks it as not converted and says why.
    let original = &source[start..end];
    let movetext = original.find("\n\n").unwrap() + 2;
    let mark = "{pgnkit: not converted: ";
    let marked = text.find(mark).expect("the mark");
    let mark_end = marked + text[marked..].find("}\n").unwrap() + 2;
    assert!(
        [&text[..marked], &text[mark_end..]]
            .concat()
            .contains(original),
        "{text}"
    );
    assert!(
        text[marked..mark_end].contains("(line 13, column 37)"),
        "{text}"
    );
    assert!(text[..marked].ends_with(&original[..movetext]), "{text}");
    let first = text.find("[Event \"Valide 1\"]").unwrap();
    let second = text.find("[Event \"Invalide\"]").unwrap();
    let third = text.find("[Event \"Valide 2\"]").unwrap();
    assert!(first < second && second < third);
    assert!(text.contains("4. Qxf7# 1-0") && text.contains("2. g4 Qh4# 0-1"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // validate's diagnostic, then what became of the game
    assert!(
        stderr.contains(&format!("--> {path}:13:37 (game 2")),
        "{stderr}"
    );
    assert!(stderr.contains(" Cxe5)\n"), "{stderr}");
    assert!(
        stderr.contains("= note: game 2 copied unchanged, marked by a comment"),
        "{stderr}"
    );
    let validated = pgnkit(&["validate", "--color", "never", path], None);
    let diagnostic = String::from_utf8_lossy(&validated.stdout);
    let from = diagnostic.find("error[").expect("validate finds the error");
    let first_error = &diagnostic[from..from + diagnostic[from..].find("\n\n").unwrap()];
    assert!(
        stderr.contains(first_error),
        "convert's message is validate's:\n{first_error}\nin\n{stderr}"
    );
    assert!(
        stderr.contains("3 games in, 3 out (2 converted, 1 not converted"),
        "{stderr}"
    );

    let args = ["convert", "--skip-invalid", path];
    let out = pgnkit(&args, None);
    assert_eq!(out.status.code(), Some(1), "{}", show(&args, &out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("Invalide") && text.contains("Valide 2"));
    assert_eq!(parse_all(text.as_bytes()).len(), 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("3 games in, 2 out"), "{stderr}");
    assert!(stderr.contains("1 skipped"), "{stderr}");
    assert!(stderr.contains(":13:37 (game 2"), "{stderr}");
    assert!(stderr.contains("= note: game 2 skipped"), "{stderr}");

    // JSON lines: the game is a record with its error; EPD leaves it out.
    let out = convert(&["convert", "--output-format", "jsonl", path], 1);
    let records: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records[1]["converted"], false);
    assert_eq!(records[1]["error"]["line"], 13);
    assert_eq!(records[1]["error"]["column"], 37);
    assert_eq!(records[2]["san"], "f3 e5 g4 Qh4#");
    let out = convert(&["convert", "--output-format", "epd", path], 1);
    assert_eq!(String::from_utf8(out).unwrap().lines().count(), 8 + 5);
}

#[test]
fn output_file_stdin_directories_and_compressed_input_give_the_same_bytes() {
    let input = fixture("french.pgn");
    let plain = convert(&["convert", input.to_str().unwrap()], 0);
    let source = std::fs::read(&input).unwrap();
    let dir = temp_dir("io");

    let out_path = dir.join("out.pgn");
    let stdout = convert(
        &[
            "convert",
            "-o",
            out_path.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        0,
    );
    assert!(stdout.is_empty());
    assert_eq!(std::fs::read(&out_path).unwrap(), plain);

    let out = pgnkit(&["convert", "-"], Some(&source));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, plain);

    let gz = dir.join("sub/french.pgn.gz");
    std::fs::create_dir_all(gz.parent().unwrap()).unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&source).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    assert_eq!(convert(&["convert", gz.to_str().unwrap()], 0), plain);

    let zst = dir.join("sub/french.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(&source[..], 3).unwrap()).unwrap();
    assert_eq!(convert(&["convert", zst.to_str().unwrap()], 0), plain);

    // A directory is searched recursively, in name order: .gz before .zst.
    let both = convert(
        &["convert", "-j", "2", dir.join("sub").to_str().unwrap()],
        0,
    );
    assert_eq!(both, [plain.clone(), plain.clone()].concat());

    // The output may not overwrite an input.
    let copy = dir.join("copy.pgn");
    std::fs::write(&copy, &source).unwrap();
    convert(
        &[
            "convert",
            "-o",
            copy.to_str().unwrap(),
            copy.to_str().unwrap(),
        ],
        2,
    );
    assert_eq!(std::fs::read(&copy).unwrap(), source);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn many_games_in_parallel_keep_their_order_and_a_closed_pipe_exits_0() {
    let source = std::fs::read(fixture("french.pgn")).unwrap();
    let dir = temp_dir("big");
    let big = dir.join("big.pgn");
    // About 4 MB: several batches.
    let mut text = Vec::new();
    for _ in 0..2500 {
        text.extend_from_slice(&source);
        text.push(b'\n');
    }
    std::fs::write(&big, &text).unwrap();
    let one = convert(&["convert", "-q", "-j", "1", big.to_str().unwrap()], 0);
    let two = convert(&["convert", "-q", "-j", "2", big.to_str().unwrap()], 0);
    assert_eq!(one, two);
    assert_eq!(parse_all(&one).len(), 5000);

    let mut child = crate::util::bin_command()
        .args(["convert", big.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 100];
    stdout.read_exact(&mut head).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_and_input_errors_exit_2() {
    let input = fixture("french.pgn");
    convert(&["convert", "--to", "xx", input.to_str().unwrap()], 2);
    convert(&["convert", "--strip", "moves", input.to_str().unwrap()], 2);
    convert(&["convert", "/no/such/file.pgn"], 2);
    convert(&["convert"], 2);
}

#[test]
fn options_strip_notation_and_formats() {
    let input = fixture("french.pgn");
    let path = input.to_str().unwrap();
    let out = convert(&["convert", "--strip", "comments,variations,nags", path], 0);
    let c = total(&counts(&out));
    assert_eq!(
        (c.comments, c.line_comments, c.variations, c.nags),
        (0, 0, 0, 0)
    );
    assert_eq!(c.escapes, 2);
    assert_eq!(c.moves, 33 + 20);
    assert!(String::from_utf8_lossy(&out).contains("1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3"));

    let out = String::from_utf8(convert(&["convert", "--notation", "uci", path], 0)).unwrap();
    assert!(out.contains("12. e1c1 a8d8"), "{out}");
    let out = String::from_utf8(convert(&["convert", "--notation", "lan", path], 0)).unwrap();
    assert!(out.contains("11. Bc4xb5+ Nb8-d7 12. O-O-O Ra8-d8"), "{out}");

    let out = convert(
        &["convert", "--output-format", "jsonl", "--to", "fr", path],
        0,
    );
    let records: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["lang"], "fr");
    assert_eq!(records[0]["termination"], "checkmate");
    assert_eq!(records[0]["tags"]["Annotator"], "Anonyme \"le Parisien\"");
    assert!(
        records[0]["san"]
            .as_str()
            .unwrap()
            .ends_with("Fxd7+ Cxd7 Db8+ Cxb8 Td8#")
    );
    assert!(
        records[0]["uci"]
            .as_str()
            .unwrap()
            .starts_with("e2e4 e7e5 g1f3")
    );

    let out = String::from_utf8(convert(&["convert", "--output-format", "epd", path], 0)).unwrap();
    // 33 plies + the start, 20 plies + the start.
    assert_eq!(out.lines().count(), 34 + 21);
    assert!(
        out.lines()
            .nth(33)
            .unwrap()
            .ends_with(" id \"game 1 ply 33\";")
    );
}

// ---- the shared corpus ----

/// A file of the shared corpus (see build.rs), which must be there.
fn corpus(path: &str) -> PathBuf {
    let full = util::corpus(path);
    assert!(full.exists(), "{} not found", full.display());
    full
}

/// The oracle's main-line UCI moves, per game.
fn expected_uci(name: &str) -> Vec<String> {
    util::read_jsonl_gz(&corpus(&format!("expected/{name}.jsonl.gz")))
        .iter()
        .map(|v| v["uci"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Main-line UCI of every game of a PGN file, read back by pgnkit itself (`--from` as given).
fn uci_of(pgn: &Path, from: &str) -> Vec<String> {
    let out = convert(
        &[
            "convert",
            "-q",
            "--from",
            from,
            "--output-format",
            "jsonl",
            pgn.to_str().unwrap(),
        ],
        0,
    );
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["converted"], true, "{l}");
            v["uci"].as_str().unwrap().to_string()
        })
        .collect()
}

const FRENCH: [(&str, usize); 3] = [
    ("twic1389_3393games", 3393),
    ("pychess-world_matches", 580),
    ("lichess-db-2025-05_blitz_438games_clk", 438),
];

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn french_corpus_converts_to_english_with_the_oracles_moves_and_nothing_lost() {
    let dir = temp_dir("corpus-fr");
    for (name, games) in FRENCH {
        let (fr, expected) = (
            corpus(&format!("games-french/{name}.fr.pgn")),
            expected_uci(name),
        );
        let en = convert(&["convert", "-q", "--to", "en", fr.to_str().unwrap()], 0);
        let source = std::fs::read(&fr).unwrap();
        let (a, b) = (counts(&source), counts(&en));
        assert_eq!(a.len(), games, "{name}");
        assert_eq!(b.len(), games, "{name}");
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(x, y, "{name} game {}", i + 1);
        }
        assert_export_lines(&String::from_utf8_lossy(&en));
        let en_path = dir.join(format!("{name}.en.pgn"));
        std::fs::write(&en_path, &en).unwrap();
        let got = uci_of(&en_path, "en");
        assert_eq!(got.len(), expected.len(), "{name}");
        for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(g, e, "{name} game {}", i + 1);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn other_languages_read_back_to_the_same_moves() {
    let dir = temp_dir("corpus-langs");
    for (name, _) in FRENCH {
        let fr = corpus(&format!("games-french/{name}.fr.pgn"));
        let fr = fr.to_str().unwrap().to_string();
        let english = convert(&["convert", "-q", &fr], 0);
        for lang in ["de", "es", "nl", "figurine"] {
            let out = convert(&["convert", "-q", "--to", lang, &fr], 0);
            let path = dir.join(format!("{name}.{lang}.pgn"));
            std::fs::write(&path, &out).unwrap();
            let p = path.to_str().unwrap();
            // Read back with the language given, and detected: the same English, byte for byte.
            let given = convert(&["convert", "-q", "--from", lang, p], 0);
            assert!(
                given == english,
                "{name}: {lang} read back with --from {lang}"
            );
            // Detected: the same, except in games whose letters read legally in several languages (Dutch
            // `Pf3` is a knight move, and also an English pawn move with its letter), which must be warned
            // about by number.
            let args = ["convert", "-q", p];
            let out = pgnkit(&args, None);
            assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
            let stderr = String::from_utf8_lossy(&out.stderr);
            let (auto, want) = (parse_all(&out.stdout), parse_all(&english));
            assert_eq!(auto.len(), want.len());
            for (i, (a, w)) in auto.iter().zip(&want).enumerate() {
                if a.source != w.source {
                    let warned = format!("(game {}", i + 1);
                    let warned = stderr
                        .split("\n\n")
                        .any(|d| d.starts_with("warning[language_guessed]") && d.contains(&warned));
                    assert!(
                        warned,
                        "{name}: {lang} game {} read back differently with --from auto, unwarned",
                        i + 1
                    );
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn english_to_french_to_english_is_the_identity() {
    let dir = temp_dir("roundtrip");
    for (name, _) in FRENCH {
        let en = corpus(&format!("games-english/{name}.pgn"));
        let en = en.to_str().unwrap();
        let canonical = convert(&["convert", "-q", en], 0);
        let fr = convert(&["convert", "-q", "--to", "fr", en], 0);
        let fr_path = dir.join(format!("{name}.fr.pgn"));
        std::fs::write(&fr_path, &fr).unwrap();
        let back = convert(
            &["convert", "-q", "--to", "en", fr_path.to_str().unwrap()],
            0,
        );
        assert!(back == canonical, "{name}: en → fr → en differs");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--messages fr`: the notes about games and the summary in French; the converted games are the same bytes.
#[test]
fn messages_in_french() {
    let file = "fixtures/validate/errors.pgn";
    let french = crate::util::run(&["convert", "--to", "en", "--messages", "fr", file]);
    let english = crate::util::run(&["convert", "--to", "en", file]);
    let said = String::from_utf8_lossy(&french.stderr);
    for expected in [
        "erreur[no_piece_can_reach] : aucun cavalier ne peut aller en g3",
        "= remarque : partie 1 copiée telle quelle, signalée par un commentaire",
        "11 parties lues, 11 écrites (1 convertie, 10 non converties",
    ] {
        assert!(said.contains(expected), "missing {expected:?} in:\n{said}");
    }
    assert_eq!(french.status.code(), english.status.code());
    // Only the marking comments of the games copied unconverted say why in the chosen language.
    let lines = |out: &std::process::Output| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with('{'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&french), lines(&english));
}
