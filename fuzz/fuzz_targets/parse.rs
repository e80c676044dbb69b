//! Fuzz target for the PGN reader: any bytes. Checks that nothing panics and that the parser, the
//! splitter and both streaming readers agree on every game (offsets, lines, columns, tokens, problems),
//! that games are contiguous and spans stay inside their game.
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use pgnkit::pgn::{BatchReader, Game, GameReader, read_games, split_games};

type Key = (u64, u64, u32, Vec<pgnkit::pgn::Tag>, Vec<pgnkit::pgn::Token>, Vec<pgnkit::pgn::Diagnostic>);

fn key(g: &Game<'_>) -> Key {
    (g.offset, g.line, g.column, g.tags.clone(), g.tokens.clone(), g.diagnostics.clone())
}

fuzz_target!(|input: &[u8]| {
    // first byte: block size for the streaming readers
    let (block, data) = match input.split_first() {
        Some((b, rest)) => (1 + *b as usize, rest),
        None => (1, input),
    };
    let games: Vec<Game<'_>> = GameReader::new(data).collect();
    let mut next: Option<u64> = None;
    for g in &games {
        if let Some(n) = next {
            assert_eq!(g.offset, n);
        }
        next = Some(g.offset + g.source.len() as u64);
        let len = g.source.len() as u32;
        for t in &g.tokens {
            assert!(t.span.start <= t.span.end && t.span.end <= len);
        }
        for t in &g.tags {
            assert!(t.span.end <= len && t.value.end <= len);
            let _ = g.tag_value(t);
        }
        for d in &g.diagnostics {
            assert!(d.span.end <= len);
            let _ = g.location(d.span.start);
        }
        let _ = g.text(pgnkit::pgn::Span::new(0, g.source.len()));
    }
    if let Some(n) = next {
        assert_eq!(n, data.len() as u64);
    }
    let starts: Vec<u64> = split_games(data).into_iter().map(|s| s as u64).collect();
    let offsets: Vec<u64> = games.iter().map(|g| g.offset).collect();
    assert_eq!(starts, offsets);

    let whole: Vec<_> = games.iter().map(key).collect();
    let mut streamed = Vec::new();
    read_games(data, block, |g| {
        streamed.push(key(g));
        ControlFlow::<()>::Continue(())
    })
    .unwrap();
    assert_eq!(streamed, whole);
    let mut batched = Vec::new();
    for batch in BatchReader::with_block_size(data, block) {
        batched.extend(batch.unwrap().games().map(|g| key(&g)));
    }
    assert_eq!(batched, whole);
});
