//! Property tests: random movetext written out and read back gives the same tokens; random PGN-ish
//! soup (fragments chosen to stress the lexer) keeps the parser, the splitter and the streaming
//! readers in agreement.

use std::ops::ControlFlow;

use pgnkit::pgn::{BatchReader, GameReader, TokenKind, read_games, split_games};
use proptest::prelude::*;

/// A token as written, and what the reader must make of it.
#[derive(Clone, Debug)]
struct Tok {
    text: String,
    kind: &'static str,
    /// Needs to be written at the start of a line (escape) or followed by a line break (`;`).
    line: bool,
}

fn tok(text: String, kind: &'static str) -> Tok {
    Tok {
        text,
        kind,
        line: false,
    }
}

fn square() -> impl Strategy<Value = String> {
    ("[a-h]", "[1-8]").prop_map(|(f, r)| format!("{f}{r}"))
}

fn san() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "N", "B", "R", "Q", "K", "C", "F", "T", "D", "S", "L", "P", "♘", "♕", "♔", "♗", "♖",
    ]);
    let piece_move = (
        piece,
        prop::option::of(prop::sample::select(vec!["a", "h", "1", "8", "g1"])),
        prop::option::of(prop::sample::select(vec!["x", ":", "-"])),
        square(),
    )
        .prop_map(|(p, d, x, sq)| format!("{p}{}{}{sq}", d.unwrap_or(""), x.unwrap_or("")));
    let pawn = prop_oneof![
        square(),
        ("[a-h]", square()).prop_map(|(f, sq)| format!("{f}x{sq}")),
        (
            "[a-h]",
            prop::sample::select(vec!["8", "1"]),
            "[QRBNqrbnDTFC]"
        )
            .prop_map(|(f, r, p)| format!("{f}{r}={p}")),
        ("[a-h]", prop::sample::select(vec!["8", "1"]), "[QRBN]")
            .prop_map(|(f, r, p)| format!("{f}{r}{p}")),
        (square(), square()).prop_map(|(a, b)| format!("{a}-{b}")),
    ];
    let special = prop::sample::select(vec!["O-O", "O-O-O", "0-0", "0-0-0", "--", "Z0", "N@f3"])
        .prop_map(str::to_owned);
    (
        prop_oneof![4 => piece_move, 4 => pawn, 1 => special],
        prop::sample::select(vec!["", "", "", "+", "#", "++"]),
    )
        .prop_map(|(m, c)| format!("{m}{c}"))
}

fn annotation() -> impl Strategy<Value = Tok> {
    prop_oneof![
        (0u16..=255).prop_map(|n| tok(format!("${n}"), "nag")),
        prop::sample::select(vec![
            "!", "?", "!!", "??", "!?", "?!", "+=", "=+", "+-", "-+", "+/-", "-/+", "=", "∞", "±",
            "∓", "N", "RR",
        ])
        .prop_map(|s| tok(s.to_owned(), "nag")),
        "[a-zA-Z0-9 .,!?éà♘\\[\\]%:\n-]{0,30}".prop_map(|s| tok(format!("{{{s}}}"), "comment")),
        "[a-zA-Z0-9 {}\\[\\]().]{0,20}".prop_map(|s| Tok {
            text: format!(";{s}"),
            kind: "line",
            line: true
        }),
        "[a-zA-Z0-9 {}\\[\\]]{0,20}".prop_map(|s| Tok {
            text: format!("%{s}"),
            kind: "escape",
            line: true
        }),
        Just(tok("(=)".into(), "draw")),
    ]
}

/// A line of play: moves (with move numbers, annotations) and variations after moves.
fn line(depth: u32) -> BoxedStrategy<Vec<Tok>> {
    let element = (
        prop::option::of((1u32..300, any::<bool>())),
        san(),
        prop::option::of(prop::sample::select(vec!["!", "?", "!?", "??"])),
        prop::collection::vec(annotation(), 0..3),
    );
    let variation = if depth == 0 {
        Just(Vec::new()).boxed()
    } else {
        prop::collection::vec(line(depth - 1), 0..2).boxed()
    };
    prop::collection::vec((element, variation), 1..8)
        .prop_map(|elements| {
            let mut out = Vec::new();
            for ((number, mv, suffix, annotations), variations) in elements {
                if let Some((n, black)) = number {
                    out.push(tok(
                        format!("{n}{}", if black { "..." } else { "." }),
                        "number",
                    ));
                }
                out.push(tok(format!("{mv}{}", suffix.unwrap_or("")), "move"));
                out.extend(annotations);
                for v in variations {
                    out.push(tok("(".into(), "("));
                    out.extend(v);
                    out.push(tok(")".into(), ")"));
                }
            }
            out
        })
        .boxed()
}

fn kind_name(k: &TokenKind) -> &'static str {
    match k {
        TokenKind::MoveNumber { .. } => "number",
        TokenKind::Move(_) => "move",
        TokenKind::Nag(_) => "nag",
        TokenKind::Comment => "comment",
        TokenKind::LineComment => "line",
        TokenKind::Escape => "escape",
        TokenKind::VariationStart => "(",
        TokenKind::VariationEnd => ")",
        TokenKind::DrawOffer => "draw",
        TokenKind::Result(_) => "result",
        TokenKind::Unknown => "unknown",
    }
}

fn write(tokens: &[Tok], result: Option<&str>, seps: &[u8]) -> String {
    let mut s = String::from("[Event \"roundtrip\"]\n\n");
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == "escape" {
            s.push('\n');
        }
        s.push_str(&t.text);
        if t.line {
            s.push('\n');
        } else {
            s.push_str(match seps.get(i).copied().unwrap_or(0) % 4 {
                0 | 1 => " ",
                2 => "\n",
                _ => "  \t",
            });
        }
    }
    if let Some(r) = result {
        s.push_str(r);
        s.push('\n');
    }
    s
}

proptest! {
    // PROPTEST_CASES=100000 for a long run
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(1000),
        ..ProptestConfig::default()
    })]

    #[test]
    fn movetext_round_trip(
        tokens in line(3),
        result in prop::option::of(prop::sample::select(vec!["1-0", "0-1", "1/2-1/2", "*"])),
        seps in prop::collection::vec(any::<u8>(), 64),
    ) {
        let text = write(&tokens, result, &seps);
        let games: Vec<_> = GameReader::new(text.as_bytes()).collect();
        prop_assert_eq!(games.len(), 1, "{}", text);
        let g = &games[0];
        prop_assert!(!g.has_errors(), "{:?}\n{}", g.diagnostics, text);
        let mut got: Vec<(&str, String)> = Vec::new();
        for t in &g.tokens {
            let text = String::from_utf8_lossy(g.bytes(t.span)).into_owned();
            got.push((kind_name(&t.kind), text));
        }
        let mut want: Vec<(&str, String)> =
            tokens.iter().map(|t| (t.kind, t.text.clone())).collect();
        if let Some(r) = result {
            want.push(("result", r.to_owned()));
        }
        prop_assert_eq!(got, want, "{}", text);
    }

    #[test]
    fn soup_keeps_everyone_in_agreement(
        parts in prop::collection::vec(prop::sample::select(vec![
            "[Event \"x\"]", "[Site \"a\\\"b\"]", "[Event \"SK\"V\"-1\"]", "[Site \"open\n",
            "[White", "[ ", "]", "\"", "{", "}", "\\}", "\\", "(", ")", "(=)", "*", "1-0", "0-1",
            "1/2-1/2", "1.", "12...", "e4", "Nf3", "$1", "$", ";", "%", "\n", "\r\n", "\r", " ",
            "\n\n", "[%clk 0:01:00]", "e.p.", "--", "é", "\u{FEFF}", "\u{2026}", "\u{FF}",
            "[Event \"x\"]\n", "\n[Site \"y\"]\n", "{c\n[Event \"z\"]\n",
        ]), 0..60),
        block in 1usize..64,
    ) {
        let text: String = parts.concat();
        let data = text.as_bytes();
        let games: Vec<_> = GameReader::new(data).collect();
        let offsets: Vec<u64> = games.iter().map(|g| g.offset).collect();
        let starts: Vec<u64> = split_games(data).into_iter().map(|s| s as u64).collect();
        prop_assert_eq!(&starts, &offsets, "{:?}", text);
        let key = |g: &pgnkit::pgn::Game<'_>| {
            (g.offset, g.line, g.column, g.tags.clone(), g.tokens.clone(), g.diagnostics.clone())
        };
        let whole: Vec<_> = games.iter().map(key).collect();
        let mut streamed = Vec::new();
        read_games(data, block, |g| {
            streamed.push(key(g));
            ControlFlow::<()>::Continue(())
        })
        .unwrap();
        prop_assert_eq!(&streamed, &whole, "{:?}", text);
        let mut batched = Vec::new();
        for batch in BatchReader::with_block_size(data, block) {
            batched.extend(batch.unwrap().games().map(|g| key(&g)));
        }
        prop_assert_eq!(&batched, &whole, "{:?}", text);
    }
}
