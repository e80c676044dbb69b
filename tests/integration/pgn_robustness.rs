//! The PGN reader on damaged input: real files (fixtures, most of them copied from the shared corpus)
//! truncated at many points and with bytes flipped.
//! Each run must end (no infinite loop), never panic, give every game either a clean parse or located
//! errors, cover the input with contiguous games, and agree with the splitter and the streaming
//! readers. Deterministic (a fixed xorshift seed), a few seconds in release.

use std::fs;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

use pgnkit::pgn::{BatchReader, GameReader, read_games, split_games};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every invariant the reader promises, on one input.
fn check(data: &[u8], rng: &mut Rng) {
    let games: Vec<_> = GameReader::new(data).collect();
    let skip = if data.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let mut next = None;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.index, i as u64);
        if let Some(n) = next {
            assert_eq!(g.offset, n, "games are contiguous");
        }
        next = Some(g.offset + g.source.len() as u64);
        assert!(!g.source.is_empty());
        // every span is inside the game, tokens in order
        let len = g.source.len() as u32;
        let mut last = 0;
        for t in &g.tokens {
            assert!(t.span.start <= t.span.end && t.span.end <= len);
            assert!(t.span.start >= last, "tokens in order");
            last = t.span.end;
        }
        for d in &g.diagnostics {
            assert!(d.span.start <= d.span.end && d.span.end <= len);
            let at = g.location(d.span.start);
            assert!(at.line >= g.line && at.column >= 1);
        }
        for t in &g.tags {
            assert!(t.span.end <= len);
            let _ = g.tag_value(t);
        }
    }
    if let Some(n) = next {
        assert_eq!(n, data.len() as u64, "the last game runs to the end");
    }
    let starts: Vec<u64> = split_games(data).into_iter().map(|s| s as u64).collect();
    let offsets: Vec<u64> = games.iter().map(|g| g.offset).collect();
    assert_eq!(starts, offsets, "splitter and parser agree");
    if let Some(&first) = offsets.first() {
        assert_eq!(first, skip);
    }
    let whole: Vec<_> = games.iter().map(key).collect();
    let block = 1 + rng.below(300);
    check_blocks(data, &whole, block);
}

type Key = (
    u64,
    u64,
    u32,
    Vec<pgnkit::pgn::Tag>,
    Vec<pgnkit::pgn::Token>,
    Vec<pgnkit::pgn::Diagnostic>,
);

fn key(g: &pgnkit::pgn::Game<'_>) -> Key {
    (
        g.offset,
        g.line,
        g.column,
        g.tags.clone(),
        g.tokens.clone(),
        g.diagnostics.clone(),
    )
}

/// Both streaming readers give the whole-buffer games with this block size.
fn check_blocks(data: &[u8], whole: &[Key], block: usize) {
    let mut streamed = Vec::new();
    read_games(data, block, |g| {
        streamed.push(key(g));
        ControlFlow::<()>::Continue(())
    })
    .unwrap();
    assert_eq!(streamed, whole, "read_games, block {block}");
    let mut batched = Vec::new();
    for batch in BatchReader::with_block_size(data, block) {
        let batch = batch.unwrap();
        let before = batched.len();
        batched.extend(batch.games().map(|g| key(&g)));
        assert_eq!(batched.len() - before, batch.games);
    }
    assert_eq!(batched, whole, "BatchReader, block {block}");
}

/// Found by the fuzzer: a line holding a UTF-8 game and a Latin-1 game; a batch boundary after them
/// counted the whole line's characters one way, the parser game by game another, and the next game's
/// column differed between `BatchReader` and a whole-buffer parse.
#[test]
fn regression_fuzz_column_across_batches() {
    let input = fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pgn/fuzz-column-across-batches.bin"),
    )
    .unwrap();
    let data = &input[1..];
    let whole: Vec<_> = GameReader::new(data).map(|g| key(&g)).collect();
    for block in 1..=256 {
        check_blocks(data, &whole, block);
    }
}

fn samples() -> Vec<(String, Vec<u8>)> {
    // corpus files, copied into `fixtures/corpus-subset/` at their corpus paths (the first games of the
    // large ones); kokopu's syntactic-error-1, tree-sitter-pgn's crlf_line_endings and python-chess's
    // utf8-bom are byte-identical to files of `fixtures/pgn/`, read below
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus-subset");
    let mut out = Vec::new();
    for (name, limit) in [
        ("pgn-edge-cases/kokopu/misc/database.pgn", usize::MAX),
        ("pgn-edge-cases/kokopu/headers/database.pgn", usize::MAX),
        ("pgn-edge-cases/pgn-read/Little_03.pgn", usize::MAX),
        ("pgn-edge-cases/pgn-read/break_pgn_0_8_1_a.pgn", usize::MAX),
        (
            "pgn-edge-cases/scalachess/FWWRC-headers-only.games-1-20.pgn",
            6000,
        ),
        ("games-english/pychess-world_matches.games-1-10.pgn", 8000),
        (
            "games-english/lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn",
            6000,
        ),
        ("games-french/twic1389_3393games.fr.games-1-10.pgn", 6000),
    ] {
        let data = fs::read(root.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name.to_owned(), data[..data.len().min(limit)].to_vec()));
    }
    // the pinned PGN fixtures
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pgn");
    for entry in fs::read_dir(fixtures).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "pgn") {
            out.push((p.display().to_string(), fs::read(&p).unwrap()));
        }
    }
    out
}

#[test]
fn truncated_files() {
    let start = Instant::now();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (name, data) in samples() {
        let step = (data.len() / 400).max(1);
        let mut cut = 0;
        while cut <= data.len() {
            let piece = &data[..cut];
            std::panic::catch_unwind(|| {
                let mut r = Rng(cut as u64 + 1);
                check(piece, &mut r)
            })
            .unwrap_or_else(|_| panic!("{name} truncated at {cut}"));
            cut += step + rng.below(step);
        }
    }
    assert!(start.elapsed() < Duration::from_secs(120));
}

#[test]
fn flipped_bytes() {
    let start = Instant::now();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    // bytes that change the lexical state, and some that break UTF-8
    let nasty = b"{}[]()\";%\\*-.$\n\r \t01/!?\xC3\xE2\xBF\x80\xFF";
    for (name, data) in samples() {
        for round in 0..300 {
            let mut d = data.clone();
            for _ in 0..1 + rng.below(8) {
                if d.is_empty() {
                    break;
                }
                let at = rng.below(d.len());
                d[at] = if rng.below(2) == 0 {
                    nasty[rng.below(nasty.len())]
                } else {
                    rng.next() as u8
                };
            }
            let seed = rng.next();
            std::panic::catch_unwind(|| check(&d, &mut Rng(seed | 1)))
                .unwrap_or_else(|_| panic!("{name}, round {round}"));
        }
    }
    assert!(start.elapsed() < Duration::from_secs(120));
}
