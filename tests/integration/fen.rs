//! FEN fixtures: kokopu's parse/normalise table, shakmaty's fuzz seeds and a pychess FEN, each with what pgnkit
//! decides to do (see `docs/fen.md`): accept, accept only leniently (with normalisation), or reject.

use pgnkit::core::fen::{
    self, CastlingStyle, Counter, CounterProblem, FenError, FenErrorKind, InvalidFen, to_fen,
    to_fen_with,
};
use pgnkit::core::{CastlingMode, CastlingProblem, EnPassantProblem, Position, PositionError};

fn fixture(path: &str) -> String {
    let path = format!("{}/fixtures/fen/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The first four fields (placement, side, castling, e.p.).
fn epd_part(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// What pgnkit does with a row.
#[derive(Debug)]
enum Verdict {
    /// Both parsers accept it.
    Valid,
    /// Strict parsing reports exactly these problems; lenient parsing accepts and normalises.
    LenientOnly(&'static [fn(&FenErrorKind) -> bool]),
    /// Both parsers reject it, strict parsing reporting at least these problems.
    Invalid(&'static [fn(&FenErrorKind) -> bool]),
}

fn castling_order(k: &FenErrorKind) -> bool {
    matches!(k, FenErrorKind::CastlingOrder(_))
}
fn leading_zeros(k: &FenErrorKind) -> bool {
    matches!(
        k,
        FenErrorKind::Counter {
            problem: CounterProblem::LeadingZeros,
            ..
        }
    )
}
fn fullmove_zero(k: &FenErrorKind) -> bool {
    matches!(
        k,
        FenErrorKind::Counter {
            counter: Counter::Fullmoves,
            problem: CounterProblem::Zero,
            ..
        }
    )
}
fn ep_wrong_rank(k: &FenErrorKind) -> bool {
    matches!(
        k,
        FenErrorKind::Position(PositionError::InvalidEnPassant {
            problem: EnPassantProblem::WrongRank,
            ..
        })
    )
}
fn ep_no_pawn(k: &FenErrorKind) -> bool {
    matches!(
        k,
        FenErrorKind::Position(PositionError::InvalidEnPassant {
            problem: EnPassantProblem::NoPawn,
            ..
        })
    )
}
fn ep_with_clock(k: &FenErrorKind) -> bool {
    matches!(
        k,
        FenErrorKind::Position(PositionError::EnPassantWithHalfmoves { .. })
    )
}
fn asymmetric(k: &FenErrorKind) -> bool {
    matches!(k, FenErrorKind::Position(PositionError::AsymmetricCastling))
}
fn no_rook(k: &FenErrorKind) -> bool {
    matches!(
        k,
        FenErrorKind::Position(PositionError::InvalidCastlingRight {
            problem: CastlingProblem::NoRook,
            ..
        })
    )
}
fn king_moved(k: &FenErrorKind) -> bool {
    matches!(
        k,
        FenErrorKind::Position(PositionError::InvalidCastlingRight {
            problem: CastlingProblem::KingNotOnBackRank,
            ..
        })
    )
}
fn too_much(k: &FenErrorKind) -> bool {
    matches!(
        k,
        FenErrorKind::Position(PositionError::TooMuchMaterial { .. })
    )
}
fn two_kings(k: &FenErrorKind) -> bool {
    matches!(k, FenErrorKind::Position(PositionError::TooManyKings(..)))
}

/// pgnkit's decision for each kokopu row, by label. kokopu's STRICT column is shown beside, for comparison.
fn verdict(label: &str) -> Verdict {
    use Verdict::*;
    match label {
        "Base 1" | "Base 3" | "Base 4" => Valid,
        // kokopu strict accepts full-move number 0; the FEN standard counts from 1.
        "Base 2" => LenientOnly(&[fullmove_zero]),
        "Invalid castling flag order" => LenientOnly(&[castling_order]),
        // With Black to move the e.p. square must be on rank 3: whether the side or the square is wrong cannot be
        // told, so no parser guesses.
        "Invalid en-passant (rank)" => Invalid(&[ep_wrong_rank]),
        // A pawn that has just double-stepped reset the half-move clock, so "f3 2" contradicts itself.
        "Ineffective en-passant 1" => LenientOnly(&[ep_with_clock]),
        // No pawn on h5 could have just crossed h6.
        "Ineffective en-passant 2" => LenientOnly(&[ep_no_pawn]),
        // Consistent, but the capture is illegal (horizontal pin): accepted and dropped (FIDE "same position").
        "Ineffective en-passant 3" => Valid,
        "Invalid move counters 1" | "Invalid move counters 2" => LenientOnly(&[leading_zeros]),
        // X-FEN `KQkq`, Shredder-FEN files and any mix of both name one rook each: accepted.
        "XFEN base"
        | "XFEN with FEN style"
        | "XFEN with mixed style 1"
        | "XFEN with mixed style 2" => Valid,
        // Kings on c1 and d8 with castling rights on both sides: no Chess960 start is asymmetric.
        "Asymetric XFEN" | "Asymetric XFEN with FEN style" => LenientOnly(&[asymmetric]),
        "Ambiguous FEN style with king not on 1st rank" => LenientOnly(&[king_moved, king_moved]),
        "Ambiguous FEN style with multiple kings" => Invalid(&[two_kings]),
        // Three rooks beside eight pawns: one rook must be a promoted pawn, so the position is unreachable
        // (kokopu does not count material); the X-FEN and Shredder letters themselves are read as kokopu does.
        "Valid FEN style with 3 rooks 1"
        | "Ambiguous FEN style with 3 rooks 1"
        | "Valid FEN style with 3 rooks 2"
        | "Ambiguous FEN style with 3 rooks 2" => LenientOnly(&[too_much]),
        "Ambiguous FEN style with flag not on rook file 1"
        | "Ambiguous FEN style with flag not on rook file 2" => LenientOnly(&[too_much, no_rook]),
        "Ambiguous FEN style with flag on king file" => LenientOnly(&[no_rook]),
        "Castling flag decoding without rooks" => {
            LenientOnly(&[no_rook, no_rook, no_rook, no_rook])
        }
        other => panic!("kokopu row {other:?} has no decision: add one"),
    }
}

fn describe(errors: &[FenError]) -> String {
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The whole set of problems must be matched one to one by `expected`.
fn matches_exactly(errors: &[FenError], expected: &[fn(&FenErrorKind) -> bool]) -> bool {
    let mut left: Vec<&FenErrorKind> = errors.iter().map(|e| &e.kind).collect();
    for want in expected {
        match left.iter().position(|k| want(k)) {
            Some(i) => {
                left.remove(i);
            }
            None => return false,
        }
    }
    left.is_empty()
}

#[test]
fn kokopu_rows_are_decided_and_normalised() {
    let text = fixture("kokopu-fens.tsv");
    let mut rows = 0;
    for (n, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        rows += 1;
        let cols: Vec<&str> = line.split('\t').collect();
        let (label, fen_in, variant, fen_out, fen_out_xfen) =
            (cols[0], cols[1], cols[2], cols[8], cols.get(10).copied());
        let fifty: u32 = cols[6].parse().unwrap();
        let full: u32 = cols[7].parse().unwrap();
        let at = format!("kokopu-fens.tsv:{} {label:?} {fen_in:?}", n + 1);
        let strict = fen::parse_fen(fen_in);
        let lenient = strict.clone().or_else(InvalidFen::lenient);
        let pos: Position = match verdict(label) {
            Verdict::Valid => {
                let pos = strict.unwrap_or_else(|e| panic!("{at}: rejected: {e}"));
                assert_eq!(lenient.unwrap(), pos, "{at}");
                pos
            }
            Verdict::LenientOnly(expected) => {
                let invalid = strict.expect_err(&at);
                assert!(
                    matches_exactly(invalid.problems(), expected),
                    "{at}: strict errors: {}",
                    describe(invalid.problems())
                );
                lenient.unwrap_or_else(|e| panic!("{at}: lenient rejected: {e}"))
            }
            Verdict::Invalid(expected) => {
                let errors = strict.expect_err(&at).into_problems();
                for want in expected {
                    assert!(
                        errors.iter().any(|e| want(&e.kind)),
                        "{at}: {}",
                        describe(&errors)
                    );
                }
                assert!(lenient.is_err(), "{at}: lenient accepted");
                continue;
            }
        };
        // Output: kokopu writes Chess960 rights as files (our Shredder style) and, in its X-FEN-off column,
        // `KQkq` letters (our X-FEN style); its default output resets the counters, so compare four fields.
        let chess960 = variant == "chess960";
        let style = if chess960 {
            CastlingStyle::Shredder
        } else {
            CastlingStyle::XFen
        };
        assert_eq!(
            epd_part(&to_fen_with(&pos, style)),
            epd_part(fen_out),
            "{at}"
        );
        if let Some(xfen) = fen_out_xfen.filter(|s| !s.is_empty()) {
            assert_eq!(epd_part(&to_fen(&pos)), epd_part(xfen), "{at}");
        }
        assert_eq!(pos.halfmoves(), fifty, "{at}");
        assert_eq!(pos.fullmoves(), full.max(1), "{at}");
        if pos.castling_rights().non_empty() {
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            assert_eq!(pos.castling_mode(), mode, "{at}");
        }
        // Both output styles read back as the same position (file letters always read as Chess960, so a
        // standard position written Shredder-style comes back the same but for the castling mode).
        for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
            let again = fen::parse_fen(&to_fen_with(&pos, style))
                .or_else(InvalidFen::lenient)
                .unwrap();
            assert_eq!(
                again.to_setup(),
                pos.to_setup(),
                "{at}: {style:?} round trip"
            );
            // Without rights the mode cannot be written (nor does it matter).
            if pos.castling_rights().non_empty() && (chess960 || style == CastlingStyle::XFen) {
                assert_eq!(again, pos, "{at}: {style:?} round trip");
            }
        }
    }
    assert_eq!(rows, 27, "kokopu rows read");
}

#[test]
fn pychess_kkppr_round_trips() {
    let text = fixture("pychess-kkppr.fen");
    let fen_text = text.trim();
    let pos = fen::parse_fen(fen_text).unwrap();
    assert_eq!(to_fen(&pos), fen_text);
    // The move count agrees with shakmaty (a test-only oracle).
    let oracle: shakmaty::Chess = fen_text
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    use shakmaty::Position as _;
    assert_eq!(pos.legal_moves().len(), oracle.legal_moves().len());
    assert!(!pos.is_check());
}

fn fuzz_seed(name: &str) -> (String, Vec<FenError>) {
    let text = fixture(&format!("shakmaty-fuzz/{name}"));
    let fen_text = text.trim_end_matches(['\n', '\r']).to_string();
    let invalid = fen::parse_fen(&fen_text).expect_err(name);
    let errors = invalid.problems().to_vec();
    assert!(invalid.lenient().is_err(), "{name}: lenient accepted");
    (fen_text, errors)
}

#[test]
fn shakmaty_fuzz_seeds_are_rejected_with_reasons() {
    let (_, e) = fuzz_seed("empty.fen");
    assert_eq!(e.len(), 2, "{}", describe(&e));
    assert!(e.iter().all(|e| e.column == 1
        && matches!(
            e.kind,
            FenErrorKind::Position(PositionError::MissingKing(_))
        )));

    for name in ["horde.fen", "chessops-roundtrip-fail.fen"] {
        let (_, e) = fuzz_seed(name);
        let back_rank = e
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    FenErrorKind::Position(PositionError::PawnOnBackRank(_))
                )
            })
            .count();
        assert_eq!(back_rank, 8, "{name}: {}", describe(&e));
        assert!(e.iter().any(|e| matches!(
            e.kind,
            FenErrorKind::Position(PositionError::MissingKing(pgnkit::Color::White))
        )));
        assert!(e.iter().any(|e| matches!(
            e.kind,
            FenErrorKind::Position(PositionError::TooManyPawns(pgnkit::Color::White, _))
        )));
        // Columns point at each pawn of the last rank written (rank 1 starts at column 58).
        let first_pawn = e
            .iter()
            .find(|e| {
                e.kind == FenErrorKind::Position(PositionError::PawnOnBackRank(pgnkit::Square::A1))
            })
            .unwrap();
        assert_eq!(first_pawn.column, 58, "{name}");
    }
    let (_, e) = fuzz_seed("chessops-roundtrip-fail.fen");
    assert!(e.iter().any(|e| e.kind
        == FenErrorKind::Position(PositionError::TooManyKings(pgnkit::Color::Black, 2))
        && e.column == 55));

    let (fen_text, e) = fuzz_seed("scid-3check.fen");
    assert_eq!(e.len(), 1, "{}", describe(&e));
    assert_eq!(e[0].kind, FenErrorKind::FieldCount(7));
    assert_eq!(e[0].column, fen_text.find("+0+0").unwrap() + 1);

    let (fen_text, e) = fuzz_seed("winboard-zh.fen");
    assert_eq!(e.len(), 1, "{}", describe(&e));
    assert_eq!(e[0].kind, FenErrorKind::PlacementChar('['));
    assert_eq!(e[0].column, fen_text.find('[').unwrap() + 1);

    let (fen_text, e) = fuzz_seed("too-many-empty-ranks.fen");
    // A missing field is reported where it would start: after the text.
    assert!(e.contains(&FenError {
        column: fen_text.len() + 1,
        kind: FenErrorKind::FieldCount(1)
    }));
    assert!(e.contains(&FenError {
        column: 16,
        kind: FenErrorKind::RankCount(172)
    }));
}
