//! The notation layer on the shared corpus (`../shared/corpus` or `$PGNKIT_SHARED/corpus`; the tests that need
//! it are listed as ignored when it is absent) and on a corpus file copied into `fixtures/corpus-subset/`:
//! - the 160 injected bad moves (English and French) fail at exactly the expected ply, with a reason of the
//!   expected kind, and every other game replays;
//! - the French translations replay to exactly the moves of their English originals;
//! - the German sample replays in German letters;
//! - every English corpus file with oracle results replays to exactly python-chess's moves (`expected/*.jsonl.gz`,
//!   read through `gzip -dc`).

use pgnkit::Position;
use pgnkit::notation::{IllegalReason, Language, SanError, SanPlus};

use crate::util::tokens;

/// A file of the shared corpus (see build.rs), which must be there.
fn corpus(path: &str) -> String {
    read(&format!("{}/{path}", env!("PGNKIT_SHARED_CORPUS")))
}

/// A corpus file copied into the repository (`fixtures/corpus-subset/`, at its corpus path).
fn subset(path: &str) -> String {
    read(&format!(
        "{}/fixtures/corpus-subset/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
}

fn read(full: &str) -> String {
    let bytes = std::fs::read(full).unwrap_or_else(|e| panic!("{full}: {e}"));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Replays a game; on the first failing token, its 1-based ply and the error.
fn replay(
    game: &tokens::Game,
    lang: Language,
) -> Result<Vec<pgnkit::Move>, (usize, String, Option<SanError>)> {
    let mut pos = match &game.fen {
        Some(fen) => pgnkit::core::fen::parse_fen(fen).expect("valid FEN tag"),
        None => Position::new(),
    };
    let mut moves = Vec::new();
    for (i, token) in game.tokens.iter().enumerate() {
        let text = String::from_utf8_lossy(token).into_owned();
        let san = SanPlus::parse(token, lang).map_err(|e| (i + 1, format!("{text}: {e}"), None))?;
        let m = san
            .to_move(&pos)
            .map_err(|e| (i + 1, format!("{text}: {e}"), Some(e)))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

fn kind_of(e: &SanError) -> &'static str {
    match e {
        SanError::Ambiguous { .. } => "ambiguous",
        SanError::Illegal(IllegalReason::Castling { .. }) => "castling_not_allowed",
        SanError::Illegal(
            IllegalReason::Pinned { .. }
            | IllegalReason::KingIntoCheck { .. }
            | IllegalReason::IgnoresCheck { .. }
            | IllegalReason::ExposesKing { .. },
        ) => "leaves_king_in_check",
        SanError::Illegal(
            IllegalReason::NoPieceCanReach { .. }
            | IllegalReason::PawnCannotCapture { .. }
            | IllegalReason::OwnPieceOnTarget { .. },
        ) => "no_piece_can_reach",
        SanError::Illegal(_) => "other",
    }
}

/// `"key": value` from one line of flat JSON (numbers and strings without escapes).
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line.find(&format!("\"{key}\": ")).expect(key) + key.len() + 4;
    let rest = &line[start..];
    match rest.strip_prefix('"') {
        Some(text) => &text[..text.find('"').unwrap()],
        None => &rest[..rest.find([',', '}']).unwrap()],
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn injected_errors_are_found_where_expected() {
    let (en, fr, expected) = (
        corpus("injected/injected.en.pgn"),
        corpus("injected/injected.fr.pgn"),
        corpus("injected/injected.expected.jsonl"),
    );
    let expected: Vec<(usize, usize, String)> = expected
        .lines()
        .map(|l| {
            (
                field(l, "game").parse().unwrap(),
                field(l, "ply").parse().unwrap(),
                field(l, "kind").into(),
            )
        })
        .collect();
    let mut shown = 0;
    for (text, lang) in [(en, Language::En), (fr, Language::Fr)] {
        let games = tokens::games(&text);
        assert_eq!(games.len(), 3393);
        for (i, game) in games.iter().enumerate() {
            let want = expected.iter().find(|e| e.0 == i + 1);
            match (replay(game, lang), want) {
                (Ok(_), None) => {}
                (Err((ply, msg, err)), Some((_, want_ply, want_kind))) => {
                    assert_eq!(ply, *want_ply, "game {} ({lang}): {msg}", i + 1);
                    let err = err.unwrap_or_else(|| panic!("game {}: syntax error {msg}", i + 1));
                    assert_eq!(kind_of(&err), want_kind, "game {} ({lang}): {msg}", i + 1);
                    if shown < 8 && lang == Language::Fr {
                        eprintln!("game {} ply {ply}: {msg}", i + 1);
                        shown += 1;
                    }
                }
                (Ok(_), Some(w)) => panic!("game {} ({lang}) should fail at ply {}", i + 1, w.1),
                (Err((ply, msg, _)), None) => {
                    panic!("game {} ({lang}) fails at ply {ply}: {msg}", i + 1)
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn french_games_replay_like_their_english_originals() {
    for name in [
        "twic1389_3393games",
        "pychess-world_matches",
        "lichess-db-2025-05_blitz_438games_clk",
    ] {
        let (en, fr) = (
            corpus(&format!("games-english/{name}.pgn")),
            corpus(&format!("games-french/{name}.fr.pgn")),
        );
        let en = tokens::games(&en);
        let fr = tokens::games(&fr);
        // Records without moves are left out on both sides.
        let en: Vec<_> = en.into_iter().filter(|g| !g.tokens.is_empty()).collect();
        let fr: Vec<_> = fr.into_iter().filter(|g| !g.tokens.is_empty()).collect();
        assert_eq!(en.len(), fr.len(), "{name}");
        for (i, (e, f)) in en.iter().zip(&fr).enumerate() {
            let e = replay(e, Language::En)
                .unwrap_or_else(|x| panic!("{name} game {}: {}", i + 1, x.1));
            let f = replay(f, Language::Fr)
                .unwrap_or_else(|x| panic!("{name} game {}: {}", i + 1, x.1));
            assert_eq!(e, f, "{name} game {}", i + 1);
        }
    }
}

#[test]
fn german_sample_replays() {
    let text = subset("games-localized/pgn-extract-test-Wdeutsch-out.pgn");
    let games = tokens::games(&text);
    assert_eq!(games.len(), 1);
    let moves = replay(&games[0], Language::De).unwrap_or_else(|e| panic!("{}", e.1));
    assert_eq!(moves.len(), 72);
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn english_corpus_replays_like_python_chess() {
    let dir = env!("PGNKIT_SHARED_CORPUS");
    let entries = std::fs::read_dir(format!("{dir}/expected"))
        .unwrap_or_else(|e| panic!("{dir}/expected: {e}"));
    let mut files = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(base) = name.strip_suffix(".jsonl.gz") else {
            continue;
        };
        let Some(text) = ["games-english", "rules-outcomes"]
            .iter()
            .find_map(|folder| std::fs::read(format!("{dir}/{folder}/{base}.pgn")).ok())
        else {
            continue;
        };
        let output = std::process::Command::new("gzip")
            .arg("-dc")
            .arg(&path)
            .output()
            .unwrap_or_else(|e| panic!("gzip -dc {name}: {e}"));
        assert!(output.status.success(), "gzip -dc {name}");
        let expected = String::from_utf8(output.stdout).unwrap();
        let games = tokens::games(&String::from_utf8_lossy(&text));
        for line in expected.lines() {
            let number: usize = field(line, "game").parse().unwrap();
            let game = &games[number - 1];
            let mut pos = match &game.fen {
                Some(fen) => pgnkit::core::fen::parse_fen(fen).unwrap(),
                None => Position::new(),
            };
            let mut ucis = Vec::new();
            for token in &game.tokens {
                let Some(m) = SanPlus::from_ascii(token)
                    .ok()
                    .and_then(|san| san.to_move(&pos).ok())
                else {
                    break;
                };
                ucis.push(pgnkit::notation::uci::to_uci(&pos, &m));
                pos.play_unchecked(m);
            }
            let valid = ucis.len() == game.tokens.len();
            assert_eq!(ucis.join(" "), field(line, "uci"), "{base} game {number}");
            assert_eq!(
                valid.to_string(),
                field(line, "valid"),
                "{base} game {number}"
            );
        }
        files += 1;
    }
    assert!(files >= 10, "only {files} files compared");
}
