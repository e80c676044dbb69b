//! Perft suites from `fixtures/perft/`: every (position, depth) whose expected node count is at most a node limit
//! is recomputed and compared. Meant for `cargo test --release`; a debug build runs the same cases, only slower.
//!
//! The limit defaults to [`DEFAULT_NODE_LIMIT`]; set `PGNKIT_PERFT_NODE_LIMIT` (e.g. `200000000`) for a deeper run.
//! Positions are spread over all cores; every mismatch is reported with its FEN, depth, expected and actual count.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use pgnkit::core::fen::{self, InvalidFen};
use pgnkit::core::perft;

/// Chosen so the whole suite takes about a minute or two in release mode on two shared cores.
const DEFAULT_NODE_LIMIT: u64 = 10_000_000;

#[derive(Debug, Clone, PartialEq)]
struct Case {
    /// `file:line` of the count, so a failure points at the fixture.
    origin: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn node_limit() -> u64 {
    std::env::var("PGNKIT_PERFT_NODE_LIMIT")
        .ok()
        .and_then(|s| s.trim().replace('_', "").parse().ok())
        .unwrap_or(DEFAULT_NODE_LIMIT)
}

/// EPD lines `FEN ;D1 20 ;D2 400` or `FEN; D1 20; D2 400` (FEN with 4 or 6 fields); other opcodes are ignored.
fn parse_epd(name: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // Some upstream files end each line with a NUL byte (and some with CR): both are padding.
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        for op in parts {
            let mut words = op.split_whitespace();
            let (Some(code), Some(count)) = (words.next(), words.next()) else {
                continue;
            };
            let depth = code.strip_prefix('D').and_then(|d| d.parse().ok());
            let nodes = count.parse().ok();
            if let (Some(depth), Some(nodes)) = (depth, nodes) {
                cases.push(Case {
                    origin: format!("{name}:{}", i + 1),
                    fen: fen.clone(),
                    depth,
                    nodes,
                });
            } else {
                panic!("{name}:{}: unreadable perft opcode {op:?}", i + 1);
            }
        }
    }
    cases
}

/// shakmaty/python-chess blocks: `id NAME`, `epd FEN`, then `perft DEPTH NODES` lines.
fn parse_perft_blocks(name: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut fen: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("epd ") {
            fen = Some(rest.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut words = rest.split_whitespace();
            let depth = words.next().and_then(|d| d.parse().ok());
            let nodes = words.next().and_then(|n| n.parse().ok());
            let (Some(fen), Some(depth), Some(nodes)) = (&fen, depth, nodes) else {
                panic!("{name}:{}: unreadable perft line {line:?}", i + 1);
            };
            cases.push(Case {
                origin: format!("{name}:{}", i + 1),
                fen: fen.clone(),
                depth,
                nodes,
            });
        } else if line.starts_with("id ") {
            fen = None;
        }
    }
    cases
}

fn load(name: &str) -> Vec<Case> {
    let path = format!("{}/fixtures/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if name.ends_with(".perft") {
        parse_perft_blocks(name, &text)
    } else {
        parse_epd(name, &text)
    }
}

/// Runs the cases under the node limit on all cores; panics listing every failure.
fn check(name: &str, expected_positions: usize) {
    let all = load(name);
    let positions: std::collections::HashSet<&str> = all.iter().map(|c| c.fen.as_str()).collect();
    assert_eq!(
        positions.len(),
        expected_positions,
        "{name}: the fixture should hold {expected_positions} distinct positions"
    );
    let limit = node_limit();
    let mut cases: Vec<&Case> = all.iter().filter(|c| c.nodes <= limit).collect();
    assert!(!cases.is_empty(), "{name}: no case under the node limit");
    // Biggest first, so the threads finish together.
    cases.sort_by_key(|c| std::cmp::Reverse(c.nodes));
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let outcome = match fen::parse_fen(&case.fen).or_else(InvalidFen::lenient) {
                        Ok(pos) => {
                            let got = perft(&pos, case.depth);
                            (got != case.nodes).then(|| format!("got {got}"))
                        }
                        Err(invalid) => Some(invalid.to_string()),
                    };
                    if let Some(problem) = outcome {
                        failures.lock().unwrap().push(format!(
                            "{}: {}  depth {}: expected {}, {problem}",
                            case.origin, case.fen, case.depth, case.nodes
                        ));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty(),
        "{name}: {} of {} perft cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_classic_126() {
    check("perftsuite-classic-126.epd", 126);
}

#[test]
fn perft_shakmaty_tricky_including_chess960() {
    check("shakmaty-tricky.perft", 26);
}

#[test]
fn perft_shakmaty_random() {
    check("shakmaty-random.perft", 6752);
}

#[test]
fn perft_ferdy_en_passant() {
    check("chess-epds-ferdy_perft_enpassant_1.epd", 3760);
}

#[test]
fn perft_ferdy_single_check() {
    check("chess-epds-ferdy_perft_single_check_1.epd", 5000);
}

#[test]
fn perft_chess_epds_collection() {
    check("chess-epds-perft.epd", 160);
}

#[test]
fn perft_marcel_sample() {
    check("chess-epds-perft-marcel-every20.epd", 340);
}

#[test]
fn epd_parser_reads_both_opcode_styles() {
    let a = parse_epd("a", "8/8/8/8/8/8/8/K1k5 w - - ;D1 3 ;D2 9\r\n");
    let b = parse_epd("b", "8/8/8/8/8/8/8/K1k5 w - -  0 1; D1 3; D2 9 \0\n\n");
    assert_eq!(a.len(), 2);
    assert_eq!(b.len(), 2);
    assert_eq!(a[0].fen, "8/8/8/8/8/8/8/K1k5 w - -");
    assert_eq!(b[1].fen, "8/8/8/8/8/8/8/K1k5 w - -  0 1");
    assert_eq!((a[1].depth, a[1].nodes), (2, 9));
    assert_eq!((b[0].depth, b[0].nodes), (1, 3));
}

#[test]
fn perft_block_parser_reads_ids_and_counts() {
    let text = "# comment\nid x\nepd 8/8/8/8/8/8/8/K1k5 w - -\nperft 1 3\nperft 2 9\n\nid y\nepd 8/8/8/8/8/8/8/k1K5 b - -\nperft 1 3\n";
    let cases = parse_perft_blocks("t", text);
    assert_eq!(cases.len(), 3);
    assert_eq!(cases[2].fen, "8/8/8/8/8/8/8/k1K5 b - -");
    assert_eq!(cases[2].origin, "t:9");
    assert_eq!((cases[1].depth, cases[1].nodes), (2, 9));
}

/// `pgnkit perft --divide`: the listed counts add up to the printed total, which is the library's perft; at
/// depth 0 no move is listed and the total is 1 (the position alone), as without `--divide`.
#[test]
fn divide_lines_add_up_to_the_total_at_every_depth() {
    for depth in 0..=3u32 {
        let d = depth.to_string();
        let divided = crate::util::run(&["perft", "--divide", "startpos", &d]);
        let plain = crate::util::run(&["perft", "startpos", &d]);
        assert_eq!(divided.status.code(), Some(0));
        let text = String::from_utf8(divided.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let (total, moves) = lines.split_last().expect("a total");
        let listed: u64 = moves
            .iter()
            .map(|l| {
                l.rsplit_once(": ")
                    .expect("move: count")
                    .1
                    .parse::<u64>()
                    .unwrap()
            })
            .sum();
        let expected = perft(&pgnkit::Position::new(), depth);
        assert_eq!(total.parse::<u64>().unwrap(), expected, "depth {depth}");
        assert_eq!(
            String::from_utf8(plain.stdout).unwrap().trim(),
            total.to_string()
        );
        if depth == 0 {
            assert!(moves.is_empty(), "{text}");
        } else {
            assert_eq!(moves.len(), 20);
            assert_eq!(listed, expected, "depth {depth}");
        }
    }
}

/// `pgnkit perft` reads a FEN as `fen --lenient` does, and says on standard error what it tolerated, with the
/// column, as `fen --lenient` does; a clean FEN gets no note, and one leniency cannot save is refused.
#[test]
fn perft_says_what_it_tolerated_in_a_fen() {
    let sloppy = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 00 1";
    let out = crate::util::run(&["perft", sloppy, "2"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "400");
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(note.starts_with("tolerated: 1 problem\n"), "{note}");
    assert!(
        note.contains(&format!("  {}^ column 54: half-move clock", " ".repeat(53))),
        "{note}"
    );
    let fen_note = crate::util::run(&["fen", "--lenient", sloppy]).stderr;
    assert!(
        note.starts_with(std::str::from_utf8(&fen_note).unwrap()),
        "perft: {note}\nfen --lenient: {}",
        String::from_utf8_lossy(&fen_note)
    );

    let clean = crate::util::run(&["perft", "startpos", "1"]);
    assert!(
        !String::from_utf8(clean.stderr)
            .unwrap()
            .contains("tolerated"),
        "a clean position gets no note"
    );

    let broken = crate::util::run(&["perft", "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1", "1"]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(broken.stdout.is_empty());
    assert!(
        String::from_utf8(broken.stderr)
            .unwrap()
            .contains("invalid FEN")
    );
}
