//! PGN reading throughput: the splitter alone, the parser over a buffer in memory, and the streaming
//! reader, on the 11.7 MB GNU Chess book slice (20,000 games). Each bench checks its result.

use std::hint::black_box;
use std::ops::ControlFlow;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit::pgn::{BatchReader, DEFAULT_BLOCK, GameReader, TokenKind, read_games, split_games};

const FILE: &str = "../../../shared/corpus/games-english/gnuchess-book_games-000001-020000.pgn";

fn load() -> Option<Vec<u8>> {
    match std::fs::read(FILE) {
        Ok(b) => Some(b),
        Err(e) => {
            eprintln!("skipping PGN benches: {FILE}: {e}");
            None
        }
    }
}

fn bench(c: &mut Criterion) {
    let Some(data) = load() else { return };
    let mut g = c.benchmark_group("pgn");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(20);

    g.bench_function("split", |b| {
        b.iter(|| {
            let starts = split_games(black_box(&data));
            assert_eq!(starts.len(), 20_000);
        })
    });

    g.bench_function("parse_in_memory", |b| {
        b.iter(|| {
            let mut games = GameReader::new(black_box(&data));
            let (mut n, mut moves) = (0, 0);
            while let Some(game) = games.next_game() {
                n += 1;
                moves += game
                    .tokens
                    .iter()
                    .filter(|t| matches!(t.kind, TokenKind::Move(_)))
                    .count();
            }
            assert_eq!((n, moves), (20_000, 1_535_442));
        })
    });

    g.bench_function("read_games_64KiB_blocks", |b| {
        b.iter(|| {
            let mut n = 0;
            read_games(black_box(&data[..]), DEFAULT_BLOCK, |_| {
                n += 1;
                ControlFlow::<()>::Continue(())
            })
            .unwrap();
            assert_eq!(n, 20_000);
        })
    });

    g.bench_function("batches_then_parse", |b| {
        b.iter(|| {
            let mut n = 0;
            for batch in BatchReader::new(black_box(&data[..])) {
                let batch = batch.unwrap();
                let mut games = batch.games();
                while games.next_game().is_some() {
                    n += 1;
                }
            }
            assert_eq!(n, 20_000);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
