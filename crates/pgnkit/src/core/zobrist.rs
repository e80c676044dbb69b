//! Zobrist keys for hashing positions, as FIDE 9.2.2 defines "the same position": the pieces on their squares,
//! the side to move, the castling rights (one key per castling rook's square, so Chess960 rights hash too) and
//! the en-passant file only when an en-passant capture is legal ([`Position`](super::Position) stores the
//! e.p. square only then).

use super::types::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 64],
    en_passant: [u64; 8],
    black_to_move: u64,
}

const fn make_keys() -> Keys {
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        castling: [0; 64],
        en_passant: [0; 8],
        black_to_move: 0,
    };
    let mut state = 0x5EED_CAFE_F00D_D00Du64;
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (s, k) = splitmix(state);
            state = s;
            keys.pieces[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let (s, k) = splitmix(state);
        state = s;
        keys.castling[sq] = k;
        sq += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (s, k) = splitmix(state);
        state = s;
        keys.en_passant[f] = k;
        f += 1;
    }
    let (_, k) = splitmix(state);
    keys.black_to_move = k;
    keys
}

static KEYS: Keys = make_keys();

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.color.index() * 6 + piece.role.index()][sq.index()]
}

/// Key of a castling right, named by the square of the rook it castles with.
#[inline]
pub fn castling_key(rook_square: Square) -> u64 {
    KEYS.castling[rook_square.index()]
}

/// Key of an e.p. square, by its file (the rank follows from the side to move).
#[inline]
pub fn en_passant_key(ep_square: Square) -> u64 {
    KEYS.en_passant[ep_square.file().index()]
}

/// Key of the side to move: 0 for White.
#[inline]
pub fn side_key(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS.black_to_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_non_zero() {
        let mut seen = HashSet::new();
        for row in KEYS.pieces.iter() {
            for &k in row {
                assert!(k != 0 && seen.insert(k));
            }
        }
        for &k in KEYS.castling.iter().chain(KEYS.en_passant.iter()) {
            assert!(k != 0 && seen.insert(k));
        }
        assert!(seen.insert(KEYS.black_to_move));
    }
}
