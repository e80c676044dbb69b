//! Random games for tests: many positions with pins, checks, castling, en passant and promotions, the same on
//! every run (a fixed-seed xorshift, [`Xorshift`], which other tests use for their own random data).

use super::fen::parse_fen;
use super::{Move, Position, Role};

/// Start positions rich in special moves: the initial position and the standard perft positions.
const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// A deterministic source of random numbers (xorshift64): the same sequence on every run for a seed.
pub(crate) struct Xorshift(u64);

impl Xorshift {
    /// A generator from `seed` (any value: zero, which xorshift never leaves, is made odd).
    pub(crate) fn new(seed: u64) -> Xorshift {
        Xorshift(seed | 1)
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// One step of a random game: the position before it, and the move played (`None`: a null move).
pub(crate) struct Step {
    pub(crate) before: Position,
    pub(crate) played: Option<Move>,
}

/// Calls `step` for every move of `games` random games of up to `plies` moves from each start position;
/// about one move in `null_every` is a null move (0: none), in check or not.
pub(crate) fn random_games(
    games: usize,
    plies: usize,
    null_every: usize,
    mut step: impl FnMut(&Step, &Position),
) {
    let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    for start in STARTS {
        for _ in 0..games {
            let mut pos = parse_fen(start).expect("a legal start position");
            for _ in 0..plies {
                // After a null move in check the king could be taken: no game continues past that.
                let mut moves = pos.legal_moves();
                moves.retain(|m| m.capture != Some(Role::King));
                let null = null_every > 0 && rng.below(null_every) == 0;
                if moves.is_empty() && !null {
                    break;
                }
                let before = pos;
                let played = if null {
                    pos.play_null();
                    None
                } else {
                    let m = moves[rng.below(moves.len())];
                    pos.play_unchecked(m);
                    Some(m)
                };
                step(&Step { before, played }, &pos);
            }
        }
    }
}
