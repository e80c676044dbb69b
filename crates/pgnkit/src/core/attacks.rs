//! Attack tables, all computed at compile time: leapers and pawns, sliders by kindergarten bitboards, and the
//! `between`/`line` tables that pin and check detection need.
//!
//! Sliders use small tables (9 KiB in all, so they stay in the L1 cache) instead of magic bitboards'
//! 850 KiB: replaying games streams megabytes of PGN through the caches, and a table that large is evicted
//! between lookups, where the small ones are not. Perft, which keeps nothing else in the cache, would favour
//! the magic tables; the PGN jobs are what the library is for. The measurements behind this choice are in
//! docs/performance.md, "Tuning constants".

use super::bitboard::Bitboard;
use super::types::{Color, Square};

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < deltas.len() {
            let f = (sq % 8) as i8 + deltas[i].0;
            let r = (sq / 8) as i8 + deltas[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT_ATTACKS: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING_ATTACKS: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN_ATTACKS: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

const fn sign(x: i8) -> i8 {
    if x > 0 {
        1
    } else if x < 0 {
        -1
    } else {
        0
    }
}

/// For two squares `a` and `b` on a common line: (squares strictly between, the whole line through both, the
/// squares past `b` on the ray from `a` through `b`).
type LineTables = ([[u64; 64]; 64], [[u64; 64]; 64], [[u64; 64]; 64]);

const fn line_tables() -> LineTables {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut beyond = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (fa, ra) = ((a % 8) as i8, (a / 8) as i8);
            let (fb, rb) = ((b % 8) as i8, (b / 8) as i8);
            let (df, dr) = (fb - fa, rb - ra);
            let aligned = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
            if aligned {
                let (sf, sr) = (sign(df), sign(dr));
                // between
                let (mut f, mut r) = (fa + sf, ra + sr);
                while f != fb || r != rb {
                    between[a][b] |= 1 << (r * 8 + f);
                    f += sf;
                    r += sr;
                }
                let (mut f, mut r) = (fb + sf, rb + sr);
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    beyond[a][b] |= 1 << (r * 8 + f);
                    f += sf;
                    r += sr;
                }
                // full line, both directions from a
                line[a][b] |= 1 << a;
                let mut dir = 0;
                while dir < 2 {
                    let (df, dr) = if dir == 0 { (sf, sr) } else { (-sf, -sr) };
                    let (mut f, mut r) = (fa + df, ra + dr);
                    while f >= 0 && f < 8 && r >= 0 && r < 8 {
                        line[a][b] |= 1 << (r * 8 + f);
                        f += df;
                        r += dr;
                    }
                    dir += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    (between, line, beyond)
}

static LINE_TABLES: LineTables = line_tables();

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures onto).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
}

/// Squares a rook on `sq` attacks along its rank and file, each ray stopping at the first square of
/// `occupied` (included).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let i = sq.index();
    let (file, rank) = (i & 7, i >> 3);
    // The rank: its six inner squares are six consecutive bits of the occupancy.
    let inner = ((occupied.0 >> (8 * rank + 1)) & 63) as usize;
    let on_rank = LINE_ATTACKS.0[file][inner] & (0xFF << (8 * rank));
    // The file: shifted onto the a-file, whose six inner squares one multiplication gathers into the top six
    // bits.
    let a_file = (occupied.0 >> file) & A_FILE;
    let inner = (a_file.wrapping_mul(A_FILE_GATHER) >> 58) as usize;
    let on_file = LINE_ATTACKS.1[rank][inner] << file;
    Bitboard(on_rank | on_file)
}

/// Squares a bishop on `sq` attacks along its diagonals, each ray stopping at the first square of `occupied`
/// (included).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let i = sq.index();
    let [diagonal, anti] = DIAGONALS[i];
    Bitboard(
        diagonal_attacks(i & 7, diagonal, occupied.0) | diagonal_attacks(i & 7, anti, occupied.0),
    )
}

/// Attacks along a line with one square per file (a diagonal), from the square on `file`: multiplying the
/// line's occupancy by the b-file collects one bit per file into the top byte, whose six inner bits index
/// the first-rank attacks for that file (copied onto every rank); the line's own mask keeps its squares.
#[inline(always)]
fn diagonal_attacks(file: usize, mask: u64, occupied: u64) -> u64 {
    let inner = ((occupied & mask).wrapping_mul(B_FILE) >> 58) as usize;
    LINE_ATTACKS.0[file][inner] & mask
}

const A_FILE: u64 = 0x0101_0101_0101_0101;
const B_FILE: u64 = A_FILE << 1;
/// Moves a2..a7 to bits 58..63 (a2 lowest); the diagonal c2-h7 shifted so nothing else reaches those bits.
const A_FILE_GATHER: u64 = 0x0004_0810_2040_8000;

/// Squares a rook on `file` of the first rank attacks along that rank, given the occupancy of files b-g as six
/// bits (b lowest).
const fn first_rank_attacks(file: usize, inner: usize) -> u64 {
    let occupied = (inner as u64) << 1;
    let mut attacks = 0u64;
    let mut f = file as i32 + 1;
    while f < 8 {
        attacks |= 1 << f;
        if occupied & (1 << f) != 0 {
            break;
        }
        f += 1;
    }
    let mut f = file as i32 - 1;
    while f >= 0 {
        attacks |= 1 << f;
        if occupied & (1 << f) != 0 {
            break;
        }
        f -= 1;
    }
    attacks
}

/// For a slider on square `k` (0-7) of a line and each occupancy of the line's six inner squares: its
/// [`first_rank_attacks`] copied onto all eight ranks (for ranks and diagonals, `.0`), and the same attacks laid
/// along the a-file, bit `f` moved to rank `f` (for files, `.1`).
static LINE_ATTACKS: ([[u64; 64]; 8], [[u64; 64]; 8]) = {
    let mut fill = [[0u64; 64]; 8];
    let mut a_file = [[0u64; 64]; 8];
    let mut k = 0;
    while k < 8 {
        let mut inner = 0;
        while inner < 64 {
            let along = first_rank_attacks(k, inner);
            fill[k][inner] = along * A_FILE;
            let mut r = 0;
            while r < 8 {
                if along & (1 << r) != 0 {
                    a_file[k][inner] |= 1 << (8 * r);
                }
                r += 1;
            }
            inner += 1;
        }
        k += 1;
    }
    (fill, a_file)
};

/// The diagonal (a1-h8 direction) and anti-diagonal (a8-h1 direction) through each square, edge to edge.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut table = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut g = 0;
        while g < 8 {
            let (up, down) = (r + (g - f), r - (g - f));
            if up >= 0 && up < 8 {
                table[sq][0] |= 1 << (up * 8 + g);
            }
            if down >= 0 && down < 8 {
                table[sq][1] |= 1 << (down * 8 + g);
            }
            g += 1;
        }
        sq += 1;
    }
    table
};

/// Squares a queen on `sq` attacks: a rook's and a bishop's.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE_TABLES.0[a.index()][b.index()])
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge); empty if not aligned.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE_TABLES.1[a.index()][b.index()])
}

/// The squares past `b` on the ray from `a` through `b` (to the edge); empty if not aligned. What a slider
/// there sees of `a` once `b` is left is what stands between.
#[inline]
pub fn beyond(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE_TABLES.2[a.index()][b.index()])
}

/// True if `c` lies on the line through `a` and `b`.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ray walking, the slow obvious way, as an independent check of the slider tables.
    fn slow_slider(sq: Square, occupied: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut result = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let mut cur = sq;
            while let Some(next) = cur.offset(df, dr) {
                result = result.with(next);
                if occupied.contains(next) {
                    break;
                }
                cur = next;
            }
        }
        result
    }

    #[test]
    fn slider_attacks_agree_with_ray_walking_on_every_blocker_set() {
        // Every subset of the squares on the slider's lines (edges included), for every square: all the
        // occupancies the tables can tell apart.
        const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const BISHOP: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        for i in 0..64 {
            let sq = Square::new(i);
            for (dirs, attacks) in [
                (&ROOK, rook_attacks as fn(Square, Bitboard) -> Bitboard),
                (&BISHOP, bishop_attacks),
            ] {
                let lines = slow_slider(sq, Bitboard::EMPTY, dirs).0;
                let mut subset = 0u64;
                loop {
                    let occupied = Bitboard(subset);
                    assert_eq!(
                        attacks(sq, occupied),
                        slow_slider(sq, occupied, dirs),
                        "{sq:?} {subset:#x}"
                    );
                    // next subset of `lines` (carry-rippler)
                    subset = subset.wrapping_sub(lines) & lines;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn slider_attacks_agree_with_ray_walking() {
        let mut rng = crate::core::random_games::Xorshift::new(0x1234_5678_9abc_def1);
        for _ in 0..20_000 {
            let state = rng.next_u64();
            let occupied = Bitboard(state & (state >> 3));
            let sq = Square::new((state >> 58) as u8);
            assert_eq!(
                rook_attacks(sq, occupied),
                slow_slider(sq, occupied, &[(1, 0), (-1, 0), (0, 1), (0, -1)])
            );
            assert_eq!(
                bishop_attacks(sq, occupied),
                slow_slider(sq, occupied, &[(1, 1), (1, -1), (-1, 1), (-1, -1)])
            );
        }
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks("e4".parse().unwrap()).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, "e4".parse().unwrap()),
            Bitboard::from_square("d5".parse().unwrap())
                | Bitboard::from_square("f5".parse().unwrap())
        );
        assert_eq!(pawn_attacks(Color::Black, Square::A8).count(), 1);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::H8).count(), 6);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::A1, Square::C3).count(), 8);
        assert!(aligned(Square::A1, Square::H8, "d4".parse().unwrap()));
        assert!(!aligned(Square::A1, Square::H8, "d5".parse().unwrap()));
    }

    #[test]
    fn beyond_is_what_b_stands_between_a_and() {
        let squares = || (0..64u8).map(Square::new);
        for a in squares() {
            for b in squares() {
                let expected: Bitboard = squares().filter(|&s| between(a, s).contains(b)).collect();
                assert_eq!(beyond(a, b), expected, "{a} {b}");
            }
        }
        assert_eq!(
            beyond(Square::A1, "c3".parse().unwrap()).count(),
            5,
            "d4 to h8"
        );
    }
}
