//! Property tests of the notation layer over random positions (random legal playouts from the standard start,
//! a few rich middlegames and Chess960 starts):
//! - every legal move written as SAN in every language (figurines too) and as LAN parses back and resolves to
//!   the same move, without any leniency;
//! - the SAN we write is never ambiguous and never over-disambiguated, judged against the legal move list;
//! - our English SAN equals shakmaty's (a dev-dependency oracle only).

use pgnkit::core::fen::{parse_fen, to_fen};
use pgnkit::notation::{Language, San, SanPlus, lan, uci::to_uci};
use pgnkit::{CastlingMode, Move, Position, Role};
use proptest::prelude::*;

const STARTS: [&str; 10] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling, pins, en passant.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Promotions on both sides.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Rooks and queens that need disambiguating.
    "r3k2r/8/8/3q4/8/3Q4/8/R3K2R w KQkq - 0 1",
    // Castling every way, with sliders to attack the king's path.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
    // Chess960 starts.
    "bnrbkrqn/pppppppp/8/8/8/8/PPPPPPPP/BNRBKRQN w FCfc - 0 1",
    "qrkbbnrn/pppppppp/8/8/8/8/PPPPPPPP/QRKBBNRN w GBgb - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

/// A position reached by `plies` random legal moves from one of the starts.
fn random_position(start: usize, seed: u64, plies: u32) -> Position {
    let mut pos = parse_fen(STARTS[start]).expect("valid start");
    let mut state = seed | 1;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        pos.play_unchecked(moves[(state % moves.len() as u64) as usize]);
    }
    pos
}

fn positions() -> impl Strategy<Value = Position> {
    (0..STARTS.len(), any::<u64>(), 0u32..100)
        .prop_map(|(start, seed, plies)| random_position(start, seed, plies))
}

/// Checks, against the legal move list only, that `san` names `m` and no other move, with the least
/// disambiguation: none if `m` is the only mover of its kind, else the file if it suffices, else the rank, else
/// both.
fn check_minimal(pos: &Position, m: &Move, san: &San) -> Result<(), String> {
    let San::Normal {
        role, file, rank, ..
    } = *san
    else {
        return Ok(());
    };
    let legal = pos.legal_moves();
    let rivals: Vec<&Move> = legal
        .iter()
        .filter(|o| o.role == role && o.to == m.to && o.promotion == m.promotion && !o.is_castle())
        .filter(|o| o.from != m.from)
        .collect();
    if role == Role::Pawn {
        let want = m.is_capture().then(|| m.from.file());
        return if file == want && rank.is_none() {
            Ok(())
        } else {
            Err(format!("pawn move {m:?} written {san}"))
        };
    }
    let same_file = rivals.iter().any(|o| o.from.file() == m.from.file());
    let same_rank = rivals.iter().any(|o| o.from.rank() == m.from.rank());
    let want = match (rivals.is_empty(), same_file, same_rank) {
        (true, _, _) => (None, None),
        (false, false, _) => (Some(m.from.file()), None),
        (false, true, false) => (None, Some(m.from.rank())),
        (false, true, true) => (Some(m.from.file()), Some(m.from.rank())),
    };
    if (file, rank) == want {
        Ok(())
    } else {
        Err(format!("{m:?} written {san}, rivals {rivals:?}"))
    }
}

fn round_trips(pos: &Position) -> Result<(), TestCaseError> {
    for m in pos.legal_moves().iter() {
        let plus = SanPlus::from_move(pos, m);
        check_minimal(pos, m, &plus.san).map_err(TestCaseError::fail)?;
        for lang in Language::ALL {
            let text = plus.display(lang).to_string();
            let parsed = SanPlus::parse(text.as_bytes(), lang)
                .map_err(|e| TestCaseError::fail(format!("{text} ({lang}): {e}")))?;
            prop_assert_eq!(parsed.san, plus.san, "{} ({})", text, lang);
            prop_assert_eq!(parsed.mark, plus.mark);
            let r = parsed.resolve(pos).map_err(|e| {
                TestCaseError::fail(format!("{text} ({lang}) in {}: {e}", to_fen(pos)))
            })?;
            prop_assert_eq!(r.mv, *m, "{} ({})", text, lang);
            prop_assert!(
                r.leniencies.is_empty(),
                "{} ({}): {:?}",
                text,
                lang,
                r.leniencies
            );
            prop_assert!(parsed.mark_leniencies(&pos.after_unchecked(*m)).is_empty());

            let long = lan(m, lang).to_string();
            let r = SanPlus::parse(long.as_bytes(), lang)
                .map_err(|e| TestCaseError::fail(format!("{long} ({lang}): {e}")))?
                .resolve(pos)
                .map_err(|e| TestCaseError::fail(format!("{long} ({lang}): {e}")))?;
            prop_assert_eq!(r.mv, *m, "{} ({})", long, lang);
        }
    }
    Ok(())
}

fn shakmaty_agrees(pos: &Position) -> Result<(), TestCaseError> {
    use shakmaty::Position as _;
    let fen = to_fen(pos);
    let mode = match pos.castling_mode() {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    };
    let theirs: shakmaty::Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?
        .into_position(mode)
        .map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
    let ours = pos.legal_moves();
    prop_assert_eq!(ours.len(), theirs.legal_moves().len(), "{}", fen);
    for m in ours.iter() {
        let uci = to_uci(pos, m);
        let their_move = uci
            .parse::<shakmaty::uci::UciMove>()
            .map_err(|e| TestCaseError::fail(format!("{uci}: {e}")))?
            .to_move(&theirs)
            .map_err(|e| TestCaseError::fail(format!("{uci} in {fen}: {e}")))?;
        let expected = shakmaty::san::SanPlus::from_move(theirs.clone(), their_move).to_string();
        let written = SanPlus::from_move(pos, m).to_string();
        prop_assert_eq!(written, expected, "{} in {}", uci, fen);
    }
    Ok(())
}

/// Castling resolution checks the FIDE conditions itself (to explain failures): it must agree with move
/// generation on which castlings are legal.
fn castling_agrees(pos: &Position) -> Result<(), TestCaseError> {
    use pgnkit::notation::CastlingSide;
    let legal = pos.legal_moves();
    for (side, kingside) in [(CastlingSide::King, true), (CastlingSide::Queen, false)] {
        let generated = legal
            .iter()
            .find(|m| m.is_castle() && m.is_kingside_castle() == kingside)
            .copied();
        prop_assert_eq!(
            San::Castle(side).to_move(pos).ok(),
            generated,
            "{}",
            to_fen(pos)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn castling_resolution_agrees_with_move_generation(pos in positions()) {
        castling_agrees(&pos)?;
    }

    #[test]
    fn san_and_lan_round_trip_in_every_language(pos in positions()) {
        round_trips(&pos)?;
    }

    #[test]
    fn english_san_matches_shakmaty(pos in positions()) {
        shakmaty_agrees(&pos)?;
    }

    /// Parsing never panics, whatever the bytes, and what parses either resolves or says why not.
    #[test]
    fn arbitrary_tokens_never_panic(
        token in proptest::collection::vec(
            prop_oneof![
                Just(b'N'), Just(b'x'), Just(b'='), Just(b'+'), Just(b'#'), Just(b'-'), Just(b'O'),
                Just(b'0'), Just(b'!'), Just(b'?'), Just(b'e'), Just(b'.'), Just(b'p'), 0u8..=255,
                b'a'..=b'h', b'1'..=b'8', b'A'..=b'Z',
            ],
            0..10,
        ),
        lang in 0usize..16,
        pos in positions(),
    ) {
        let lang = Language::ALL[lang];
        if let Ok(plus) = SanPlus::parse(&token, lang) {
            match plus.resolve(&pos) {
                Ok(r) => prop_assert!(pos.legal_moves().contains(&r.mv)),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
        let _ = pgnkit::notation::suggest(&pos, &token, lang);
        let _ = pgnkit::notation::san_letters(&token);
    }
}

/// Resolution finds exactly the legal moves: `role + target` resolves when one legal move fits, is ambiguous
/// with the right pieces when several do, and fails otherwise — for every role and target on every start.
#[test]
fn every_target_of_every_role_agrees_with_move_generation() {
    for fen in STARTS {
        let pos = parse_fen(fen).unwrap();
        let legal = pos.legal_moves();
        for role in Role::ALL {
            for to in pgnkit::Square::all() {
                let san = San::Normal {
                    role,
                    file: None,
                    rank: None,
                    capture: false,
                    to,
                    promotion: None,
                };
                let expected = legal
                    .iter()
                    .filter(|m| {
                        m.role == role && m.to == to && m.promotion.is_none() && !m.is_castle()
                    })
                    // A pawn token without a file is a push.
                    .filter(|m| role != Role::Pawn || !m.is_capture())
                    .count();
                match san.to_move(&pos) {
                    Ok(m) => assert!(legal.contains(&m) && expected == 1, "{san} in {fen}"),
                    Err(pgnkit::notation::SanError::Ambiguous { from, .. }) => {
                        assert_eq!(from.count() as usize, expected, "{san} in {fen}")
                    }
                    Err(_) => assert_eq!(expected, 0, "{san} in {fen}"),
                }
            }
        }
    }
}

/// A row of the leniency table of docs/notation.md: its examples, its leniency's name, and what validate says
/// of them.
struct LeniencyRow {
    examples: Vec<String>,
    leniency: String,
    said: Said,
}

/// The last column of the leniency table.
#[derive(Debug)]
enum Said {
    /// `—`: the import format's ordinary tolerance.
    Nothing,
    /// `note KIND`: read, with a note (an error with `--strict`).
    Note(String),
    /// `error KIND`: not read from a file at all (the library's parser alone takes it).
    Error(String),
}

/// The leniency table of docs/notation.md, as written.
fn leniency_table() -> Vec<LeniencyRow> {
    let doc = std::fs::read_to_string(crate::util::root().join("docs/notation.md")).unwrap();
    let header = "| written | leniency | validate |";
    let start = doc
        .find(header)
        .expect("docs/notation.md has the leniency table");
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    doc[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(cells.len(), 5, "three cells: {line}");
            let leniency = ticked(cells[2]);
            assert_eq!(leniency.len(), 1, "one leniency a row: {line}");
            let kind = ticked(cells[3]).into_iter().next();
            let said = match (cells[3].split(' ').next(), kind) {
                (Some("—"), None) => Said::Nothing,
                (Some("note"), Some(kind)) => Said::Note(kind),
                (Some("error"), Some(kind)) => Said::Error(kind),
                _ => panic!("'—', 'note `kind`' or 'error `kind`': {line}"),
            };
            LeniencyRow {
                examples: ticked(cells[1]),
                leniency: leniency[0].clone(),
                said,
            }
        })
        .collect()
}

/// Where each example of the table is a legal move, and in which language.
fn example_position(example: &str) -> Option<(&'static str, Language)> {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const CASTLE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const EN_PASSANT: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    const PROMOTION: &str = "8/4P3/8/8/8/8/k7/7K w - - 0 1";
    const FOOLS_MATE: &str = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
    // The pawn on a7 keeps the material from a dead position after the capture.
    const KNIGHT_TAKES: &str = "4k3/p7/8/4p3/8/5N2/8/4K3 w - - 0 1";
    const KNIGHT_ALONE: &str = "4k3/p7/8/8/8/5N2/8/4K3 w - - 0 1";
    const PAWN_TAKES: &str = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";
    const BISHOP_CHECKS: &str = "rnbqkbnr/ppp2ppp/3p4/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    const BISHOP_QUIET: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    const QUEEN_CHECKS: &str = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    Some(match example {
        "0-0" | "0-0-0" => (CASTLE, Language::En),
        "exd6e.p." | "exd6ep" | "exd6 e.p." | "exd6 ep" => (EN_PASSANT, Language::En),
        "e8Q" | "e8=q" => (PROMOTION, Language::En),
        "Qh4++" | "Qh4+" => (FOOLS_MATE, Language::En),
        "Pe4" | "e2-e4" | "Ng1f3" => (START, Language::En),
        "Be4" => (START, Language::De),
        "N:e5" | "Nf3xe5" | "Ne5" => (KNIGHT_TAKES, Language::En),
        "Nxe5" => (KNIGHT_ALONE, Language::En),
        "e4xd5" | "ed5" | "xd5" => (PAWN_TAKES, Language::En),
        "Nge2" => (AFTER_E4, Language::En),
        "Bb5" => (BISHOP_CHECKS, Language::En),
        "Bb5+" => (BISHOP_QUIET, Language::En),
        "Qh5#" => (QUEEN_CHECKS, Language::En),
        _ => return None,
    })
}

/// The game of one move, `example`, from `fen`.
fn one_move_game(fen: &str, example: &str) -> String {
    let number = if fen.contains(" b ") { "1..." } else { "1." };
    format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n{number} {example} *\n")
}

/// Issue 37, item 25: docs/notation.md's leniency table and the code say the same, row by row. Every example
/// of a row, read from a file by the reader, resolves with the row's leniency (the check mark judged with the
/// position after it, an `e.p.` suffix being the reader's); `validate` replays it with the row's note, or
/// with nothing to say, and `--strict` makes exactly the noted rows errors. A row the reader does not take
/// says which error it gets.
#[test]
fn the_leniency_table_of_notation_md_is_what_the_code_does() {
    use pgnkit::notation::Leniency;
    use pgnkit::pgn::{TokenKind, parse_all};
    let rows = leniency_table();
    assert!(rows.len() >= 15, "{} rows", rows.len());
    for row in &rows {
        assert!(!row.examples.is_empty(), "{}: an example", row.leniency);
        for example in &row.examples {
            let (fen, lang) = example_position(example).unwrap_or_else(|| {
                panic!(
                    "{example} ({}): give it a position in this test",
                    row.leniency
                )
            });
            let pgn = one_move_game(fen, example);
            let games = parse_all(pgn.as_bytes());
            let game = &games[0];
            let token = game.tokens.iter().find_map(|t| match t.kind {
                TokenKind::Move(m) => Some(m),
                _ => None,
            });
            // The move as the reader gives it; a row the reader does not take is the parser's alone.
            let (text, en_passant) = match (&row.said, token) {
                (Said::Error(_), None) => (example.as_bytes(), false),
                (Said::Error(_), Some(_)) => {
                    panic!("{example}: read as a move, not as the table says")
                }
                (_, Some(token)) => (game.san(&token), token.en_passant),
                (_, None) => panic!("{example}: not read as a move"),
            };
            let pos = parse_fen(fen).unwrap();
            let plus = SanPlus::parse(text, lang).unwrap_or_else(|e| panic!("{example}: {e}"));
            let resolved = plus
                .resolve(&pos)
                .unwrap_or_else(|e| panic!("{example}: {e}"));
            let mut leniencies =
                resolved.leniencies | plus.mark_leniencies(&pos.after_unchecked(resolved.mv));
            if en_passant {
                leniencies.insert(Leniency::EnPassantSuffix);
            }
            assert!(
                leniencies.iter().any(|l| l.name() == row.leniency),
                "{example}: {} not in {leniencies:?}",
                row.leniency
            );

            for strict in [false, true] {
                let mut args = vec![
                    "validate",
                    "--format",
                    "json",
                    "--no-tournament-checks",
                    "--lang",
                    lang.code(),
                ];
                if strict {
                    args.push("--strict");
                }
                args.push("-");
                let out = crate::util::pgnkit(&args, Some(pgn.as_bytes()));
                let records = crate::util::records(&out);
                let record = &records[0];
                let shown = crate::util::show(&args, &out);
                let problems: Vec<(&str, &str)> = record["problems"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| (p["severity"].as_str().unwrap(), p["kind"].as_str().unwrap()))
                    .collect();
                let (expected, valid, plies) = match &row.said {
                    Said::Nothing => (vec![], true, 1),
                    Said::Note(kind) if strict => (vec![("error", kind.as_str())], false, 1),
                    Said::Note(kind) => (vec![("note", kind.as_str())], true, 1),
                    Said::Error(kind) => (vec![("error", kind.as_str())], false, 0),
                };
                assert_eq!(problems, expected, "{example}: {shown}");
                assert_eq!(record["valid"], valid, "{example}: {shown}");
                assert_eq!(record["plies"], plies, "{example}: {shown}");
            }
        }
    }
}
