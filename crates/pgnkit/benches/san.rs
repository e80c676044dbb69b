//! SAN throughput: parse + resolve + play over the main lines of real games.
//!
//! Input: the 20,000-game GNU Chess book slice from the shared corpus (`../shared/corpus/...`, beside the
//! repository), read with the throwaway tokenizer of the integration tests (`tests/integration/util/tokens.rs` at
//! the repository root); if the corpus is not there, one real game hard-coded below. The real PGN reader lives
//! elsewhere.
//!
//! Prints one full pass in plies/s first (the figure to compare with the reference's `validate`), then lets
//! criterion measure a 2,000-game slice.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "../../../tests/integration/util/tokens.rs"]
mod tokens;
use pgnkit::Position;
use pgnkit::notation::{Language, SanPlus};
use tokens::{Game, games};

const CORPUS: &str = "../../../shared/corpus/games-english/gnuchess-book_games-000001-020000.pgn";

/// Kasparov - Deep Blue, New York 1997, game 1 (python-chess's test data), for when the corpus is absent.
const FALLBACK: &str = "1.Nf3 d5 2.g3 Bg4 3.b3 Nd7 4.Bb2 e6 5.Bg2 Ngf6 6.O-O c6 7.d3 Bd6 8.Nbd2 O-O 9.h3 Bh5
10.e3 h6 11.Qe1 Qa5 12.a3 Bc7 13.Nh4 g5 14.Nhf3 e5 15.e4 Rfe8 16.Nh2 Qb6 17.Qc1 a5 18.Re1 Bd6 19.Ndf1 dxe4
20.dxe4 Bc5 21.Ne3 Rad8 22.Nhf1 g4 23.hxg4 Nxg4 24.f3 Nxe3 25.Nxe3 Be7 26.Kh1 Bg5 27.Re2 a4 28.b4 f5 29.exf5
e4 30.f4 Bxe2 31.fxg5 Ne5 32.g6 Bf3 33.Bc3 Qb5 34.Qf1 Qxf1+ 35.Rxf1 h5 36.Kg1 Kf8 37.Bh3 b5 38.Kf2 Kg7
39.g4 Kh6 40.Rg1 hxg4 41.Bxg4 Bxg4 42.Nxg4+ Nxg4+ 43.Rxg4 Rd5 44.f6 Rd1 45.g7 1-0";

/// Replays every game; returns the plies played. Panics on an illegal move: the input is known to be legal.
fn replay(games: &[Game]) -> u64 {
    let mut plies = 0;
    for game in games {
        let mut pos = Position::new();
        for token in &game.tokens {
            let san = SanPlus::parse(token, Language::En).expect("valid SAN");
            let m = san.to_move(&pos).expect("legal move");
            pos.play_unchecked(m);
        }
        plies += game.tokens.len() as u64;
        black_box(&pos);
    }
    plies
}

fn bench(c: &mut Criterion) {
    let root = env!("CARGO_MANIFEST_DIR");
    // The corpus has Latin-1 player names: read bytes, not a String.
    let text = match std::fs::read(format!("{root}/{CORPUS}")) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => {
            eprintln!("{CORPUS} not found: benchmarking one hard-coded game");
            FALLBACK.to_string()
        }
    };
    let games = games(&text);

    let start = Instant::now();
    let plies = replay(&games);
    let elapsed = start.elapsed().as_secs_f64();
    eprintln!(
        "full pass: {} games, {plies} plies in {elapsed:.3} s = {:.2} M plies/s (parse + resolve + play)",
        games.len(),
        plies as f64 / elapsed / 1e6
    );

    let slice = &games[..games.len().min(2000)];
    let slice_plies = replay(slice);
    let mut group = c.benchmark_group("san");
    group.throughput(Throughput::Elements(slice_plies));
    group.sample_size(20);
    group.bench_function("parse+resolve+play", |b| {
        b.iter(|| assert_eq!(replay(black_box(slice)), slice_plies))
    });
    let tokens: Vec<&[u8]> = slice
        .iter()
        .flat_map(|g| &g.tokens)
        .map(Vec::as_slice)
        .collect();
    group.bench_function("parse only", |b| {
        b.iter(|| {
            for token in &tokens {
                black_box(SanPlus::parse(black_box(token), Language::En).is_ok());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
