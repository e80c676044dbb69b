//! Perft throughput (bulk counting at the last ply) on the start position and two middlegames, asserting the
//! node counts so a fast wrong answer cannot pass. `benches/compare_perft.sh` compares with the reference.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit::core::{fen, perft};

/// (name, FEN, depth, nodes): counts from the classic perft tables.
const CASES: &[(&str, &str, u32, u64)] = &[
    ("startpos", fen::STARTING_FEN, 5, 4_865_609),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    ),
    (
        "edwards-pos6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
        3_894_594,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for &(name, fen_text, depth, nodes) in CASES {
        let pos = fen::parse_fen(fen_text).expect("valid FEN");
        assert_eq!(perft(&pos, depth), nodes, "{name} depth {depth}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/{depth}"), |b| {
            b.iter(|| {
                let n = perft(black_box(&pos), black_box(depth));
                assert_eq!(n, nodes);
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
