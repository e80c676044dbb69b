//! The PGN reader on the pinned fixtures (`fixtures/pgn/`): no shared corpus needed.

use pgnkit::pgn::{DiagnosticKind as D, Encoding, GameReader, GameResult, TokenKind, parse_all};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/fixtures/pgn/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn boundaries_fixture() {
    let data = fixture("boundaries.pgn");
    let games = parse_all(&data);
    let events: Vec<_> = games
        .iter()
        .map(|g| g.tag("Event").map(|e| e.into_owned()).unwrap_or_default())
        .collect();
    assert_eq!(
        events,
        [
            "Boundaries 1",
            "No blank line, no result",
            "Languages",
            "Annotations",
            "",
            "",
            "Tag only",
            "Tag only 2",
            "Café in Latin-1",
            "Broken",
            "After the broken game",
        ]
    );
    let g = &games[0];
    assert_eq!(g.tag("Site").unwrap(), "blank lines between tags");
    assert_eq!(g.result, Some(GameResult::WhiteWins));
    assert!(g.diagnostics.is_empty());
    assert_eq!(g.main_line().count(), 5);
    // the leading `;` comment and the trailing comment belong to game 1
    assert_eq!(g.tokens.first().unwrap().kind, TokenKind::LineComment);
    assert_eq!(g.tokens.last().unwrap().kind, TokenKind::Comment);

    let g = &games[1];
    assert_eq!(g.diagnostics.len(), 1);
    assert_eq!(g.diagnostics[0].kind, D::MissingResult);
    assert_eq!(g.location(g.diagnostics[0].span.start).to_string(), "17:1");

    let g = &games[2];
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    let sans: Vec<_> = g
        .main_line()
        .map(|(_, m)| String::from_utf8_lossy(g.san(m)).into_owned())
        .collect();
    assert_eq!(
        sans.join(" "),
        "e4 e5 Cf3 Cc6 Fb5 a6 Sf3 ♘f6 O-O 0-0 e8Q e1=q Ng1f3 e7-e5 exd6 -- Z0 Qh5#"
    );
    assert!(g.main_line().any(|(_, m)| m.en_passant));

    let g = &games[3];
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    let nags: Vec<u8> = g
        .tokens
        .iter()
        .filter_map(|t| match t.kind {
            TokenKind::Nag(n) => Some(n),
            TokenKind::Move(m) => m.suffix,
            _ => None,
        })
        .collect();
    assert_eq!(nags, [1, 6, 3, 14, 14, 16, 17, 1]);
    assert!(g.tokens.iter().any(|t| t.kind == TokenKind::DrawOffer));
    assert!(g.tokens.iter().any(|t| t.kind == TokenKind::Escape));
    let clock = g
        .tokens
        .iter()
        .find(|t| t.kind == TokenKind::Comment)
        .and_then(|t| pgnkit::pgn::clock(g.comment_bytes(t.span)));
    assert_eq!(clock, Some(std::time::Duration::from_secs(180)));

    assert_eq!(games[4].result, Some(GameResult::WhiteWins));
    assert_eq!(games[5].result, Some(GameResult::BlackWins));
    assert!(games[6].tokens.is_empty() && games[7].tokens.is_empty());
    assert_eq!(games[8].encoding, Encoding::Cp1252);

    let g = &games[9];
    let kinds: Vec<_> = g.diagnostics.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [D::UnknownToken, D::UnterminatedComment, D::MissingResult]
    );
    assert!(!games[10].has_errors());
    assert_eq!(games[10].result, Some(GameResult::Unknown));
}

#[test]
fn lenient_tags_and_encodings() {
    let data = fixture("tree-sitter-unescaped_tagpair_quotes.pgn");
    let g = GameReader::new(&data).next().unwrap();
    assert_eq!(g.tag("Event").unwrap(), r#"SK"Vladimir Gortan"-2007"#);
    assert!(!g.has_errors());
    assert_eq!(g.diagnostics[0].kind, D::UnescapedQuoteInTagValue);

    let data = fixture("python-chess-utf8-bom.pgn");
    let games = parse_all(&data);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].offset, 3);
    assert_eq!(games[0].location(0).to_string(), "1:1");
    assert_eq!(games[1].tag("Event").unwrap(), "B");

    let data = fixture("tree-sitter-crlf_line_endings.pgn");
    let games = parse_all(&data);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| !g.has_errors()));
    assert_eq!(games[1].line, 14);
}

#[test]
fn kokopu_fixture_first_errors() {
    let data = fixture("kokopu-syntactic-error-1.pgn");
    let games = parse_all(&data);
    assert_eq!(games.len(), 22);
    let first: Vec<String> = games
        .iter()
        .map(|g| match g.diagnostics.first() {
            Some(d) => format!("{:?}@{}", d.kind, g.location(d.span.start)),
            None => "-".into(),
        })
        .collect();
    assert_eq!(
        first,
        [
            "UnknownToken@3:4",
            "-",
            "MissingTagName@12:2",
            "MissingTagValue@18:6",
            "UnterminatedTagValue@24:8",
            "UnescapedQuoteInTagValue@31:20",
            "UnknownToken@38:50",
            "-",
            "UnterminatedTagValue@48:8",
            "-",
            "-",
            "UnknownToken@71:1",
            "UnclosedVariation@76:19",
            "VariationWithoutMove@81:11",
            "UnexpectedVariationEnd@86:10",
            "MissingResult@93:1",
            "-",
            "UnknownToken@98:1",
            "MissingTagEnd@105:1",
            "MissingTagName@109:2",
            "MissingTagEnd@115:19",
            "-",
        ]
    );
}
