//! No input makes pgnkit panic: random bytes, truncated FENs and byte-flipped FENs, given to the `fen` and
//! `perft` commands (end to end, through the binary) and to the FEN parsers and move generation (at scale).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use pgnkit::core::fen::{self, CastlingStyle, InvalidFen, STARTING_FEN};
use pgnkit::core::perft;

/// Seeds for mutation: valid positions with castling, e.p., promotions and Chess960 rights.
const SEEDS: &[&str] = &[
    STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4pP2/8/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 3",
    "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w BFbf - 0 1",
    "1r2k1r1/8/8/8/8/8/8/1R2K1RR w GQk - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 b - - 99 200",
];

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Characters FENs are made of, so random strings often get far into the parser.
const FEN_ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0912 ";

/// One hostile input: random bytes, FEN-alphabet noise, a truncated seed, a byte-flipped seed, or a seed with
/// a character inserted or deleted.
fn hostile(rng: &mut Rng) -> Vec<u8> {
    let seed = SEEDS[rng.below(SEEDS.len())].as_bytes();
    match rng.below(6) {
        0 => (0..rng.below(80)).map(|_| rng.next() as u8).collect(),
        1 => (0..rng.below(90))
            .map(|_| FEN_ALPHABET[rng.below(FEN_ALPHABET.len())])
            .collect(),
        2 => seed[..rng.below(seed.len() + 1)].to_vec(),
        3 => {
            let mut v = seed.to_vec();
            for _ in 0..=rng.below(3) {
                let i = rng.below(v.len());
                v[i] = if rng.below(2) == 0 {
                    rng.next() as u8
                } else {
                    FEN_ALPHABET[rng.below(FEN_ALPHABET.len())]
                };
            }
            v
        }
        4 => {
            let mut v = seed.to_vec();
            let i = rng.below(v.len() + 1);
            v.insert(i, FEN_ALPHABET[rng.below(FEN_ALPHABET.len())]);
            v
        }
        _ => {
            let mut v = seed.to_vec();
            v.remove(rng.below(v.len()));
            v
        }
    }
}

/// Command-line arguments cannot hold NUL bytes.
fn as_arg(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .map(|&b| if b == 0 { b'0' } else { b })
        .collect()
}

fn run(args: &[&OsStr]) -> (i32, String, String) {
    let output = crate::util::bin_command()
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn binary_never_panics_on_hostile_fen_and_perft_arguments() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut codes = [0usize; 3];
    for i in 0..400 {
        let input = as_arg(&hostile(&mut rng));
        let fen_arg = OsStr::from_bytes(&input);
        let depth = (1 + rng.below(2)).to_string();
        let runs: Vec<Vec<&OsStr>> = if i % 2 == 0 {
            vec![vec![OsStr::new("fen"), fen_arg]]
        } else {
            vec![
                vec![OsStr::new("perft"), fen_arg, OsStr::new(&depth)],
                vec![
                    OsStr::new("perft"),
                    fen_arg,
                    OsStr::new(&depth),
                    OsStr::new("--divide"),
                ],
            ]
        };
        for args in runs {
            let (code, stdout, stderr) = run(&args);
            assert!(
                (0..=2).contains(&code) && !stderr.contains("panicked"),
                "pgnkit {args:?} exited {code}\nstdout:\n{stdout}\nstderr:\n{stderr}"
            );
            codes[code as usize] += 1;
        }
    }
    // The inputs reach every outcome: accepted, rejected as a FEN, rejected as usage.
    assert!(codes.iter().all(|&n| n > 0), "exit codes seen: {codes:?}");
}

#[test]
fn fen_command_exit_codes() {
    let (code, stdout, _) = run(&[OsStr::new("fen"), OsStr::new(STARTING_FEN)]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Legal moves:  20"), "{stdout}");
    let (code, stdout, _) = run(&[OsStr::new("fen"), OsStr::new("startpos")]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Legal moves:  20"), "{stdout}");
    let chess960 = "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w BFbf - 0 1";
    let (code, stdout, _) = run(&[OsStr::new("fen"), OsStr::new(chess960)]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("KQkq (Chess960; Shredder-FEN BFbf)"),
        "{stdout}"
    );
    // Fields given as separate arguments are joined.
    let fields: Vec<&OsStr> = std::iter::once("fen")
        .chain(STARTING_FEN.split(' '))
        .map(OsStr::new)
        .collect();
    assert_eq!(run(&fields).0, 0);
    let (code, stdout, _) = run(&[OsStr::new("fen"), OsStr::new("8/8/8/8/8/8/8/8 w - - 0 1")]);
    assert_eq!(code, 1);
    assert!(stdout.contains("column 1: White has no king"), "{stdout}");
    assert!(stdout.contains("column 1: Black has no king"), "{stdout}");
    assert_eq!(run(&[OsStr::new("fen")]).0, 2);
    assert_eq!(
        run(&[OsStr::new("fen"), OsStr::from_bytes(b"\xff\xfe")]).0,
        2
    );
    let mate = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1";
    let (code, stdout, _) = run(&[OsStr::new("fen"), OsStr::new("--ascii"), OsStr::new(mate)]);
    assert_eq!(code, 0);
    assert!(stdout.contains("checkmate, White wins"), "{stdout}");
    assert!(stdout.contains("8  R . . . . . k ."), "{stdout}");
}

#[test]
fn library_never_panics_on_hostile_fens() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut accepted = 0;
    for _ in 0..100_000 {
        let bytes = hostile(&mut rng);
        let text = String::from_utf8_lossy(&bytes);
        let strict = fen::parse_fen(&text);
        if let Err(invalid) = &strict {
            assert!(!invalid.problems().is_empty());
            for e in invalid.problems() {
                // Columns point inside the text or just after it.
                assert!(
                    e.column >= 1 && e.column <= text.chars().count() + 1,
                    "{text:?}: {e}"
                );
                let _ = e.to_string();
            }
        }
        if let Ok(pos) = strict.or_else(InvalidFen::lenient) {
            accepted += 1;
            let moves = pos.legal_moves();
            assert_eq!(moves.len() as u64, perft(&pos, 1));
            let _ = perft(&pos, 2);
            for m in moves.iter() {
                let after = pos.after_unchecked(*m);
                assert_eq!(
                    after.zobrist(),
                    after.zobrist_from_scratch(),
                    "{text:?} {m:?}"
                );
            }
            for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
                let written = fen::to_fen_with(&pos, style);
                let again = fen::parse_fen(&written)
                    .or_else(InvalidFen::lenient)
                    .unwrap_or_else(|e| panic!("{text:?} -> {written:?}: {e:?}"));
                assert_eq!(again.to_setup(), pos.to_setup(), "{text:?} -> {written:?}");
            }
        }
    }
    assert!(accepted > 1_000, "only {accepted} inputs were accepted");
}
