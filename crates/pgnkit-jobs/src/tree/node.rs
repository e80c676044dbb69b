//! A position of the tree as it is kept, sorted and spilled: its hash first (the position's own Zobrist hash,
//! kept up to date move by move as it is played: free here), then the position itself, packed into 36 bytes,
//! so that two positions are merged only when they are the same under FIDE's rule, never because their hashes
//! meet.

use pgnkit::core::{Bitboard, Board, CastlingMode, Color, Piece, Position, Role, Setup, Square};

/// A position under FIDE's "same position" rule: the pieces, the side to move, the castling rights and the
/// en-passant square when a capture there is legal ([`Position::key`]), packed.
///
/// Ordered by hash, then by the packed position: the hash spreads positions evenly; the rest breaks the (rare)
/// ties of different positions with one hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Node {
    /// [`Position::zobrist`], which follows FIDE's "same position" (an en-passant square only when the
    /// capture is legal).
    pub(crate) hash: u64,
    occupied: u64,
    /// Four bits per occupied square, in square order: `1 + color * 6 + role`.
    pieces: [u64; 2],
    /// Castling rook files (white in bits 0-7, black in 8-15), the en-passant file plus one (bits 16-19, 0
    /// when none), the side to move (bit 20, set for Black).
    rest: u32,
}

/// Bytes of a [`Node`] in a spilled run.
pub(crate) const NODE_BYTES: usize = 8 + 8 + 16 + 4;

impl Node {
    /// The node of `pos`.
    pub(crate) fn of(pos: &Position) -> Node {
        let board = pos.board();
        let mut pieces = [0u64; 2];
        for (n, (_, piece)) in board.iter().enumerate().take(32) {
            let code = 1 + piece.color.index() as u64 * 6 + piece.role.index() as u64;
            pieces[n / 16] |= code << (4 * (n % 16));
        }
        let mut rest = 0u32;
        for rook in pos.castling_rights() {
            let color = if rook.rank().index() == 0 { 0 } else { 8 };
            rest |= 1 << (color + rook.file().index());
        }
        if let Some(ep) = pos.ep_square() {
            rest |= (ep.file().index() as u32 + 1) << 16;
        }
        if pos.turn() == Color::Black {
            rest |= 1 << 20;
        }
        Node {
            hash: pos.zobrist(),
            occupied: board.occupied().0,
            pieces,
            rest,
        }
    }

    /// The position again, with move counters 0 and 1; `None` for bytes no [`Node::of`] made (a damaged
    /// temporary file).
    pub(crate) fn position(&self) -> Option<Position> {
        let mut board = Board::empty();
        let squares = Bitboard(self.occupied);
        if squares.count() > 32 {
            return None;
        }
        for (n, square) in squares.into_iter().enumerate() {
            let code = (self.pieces[n / 16] >> (4 * (n % 16))) & 0xF;
            if code == 0 || code > 12 {
                return None;
            }
            let c = (code - 1) as usize;
            let color = if c >= 6 { Color::Black } else { Color::White };
            board.put(square, Piece::new(color, Role::from_index(c % 6)));
        }
        let turn = if self.rest & (1 << 20) != 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut castling = Bitboard::EMPTY;
        for bit in 0..16u8 {
            if self.rest & (1 << bit) != 0 {
                let rank = if bit < 8 { 0 } else { 7 };
                castling = castling.with(Square::new(rank * 8 + bit % 8));
            }
        }
        let ep_square = match (self.rest >> 16) & 0xF {
            0 => None,
            f => {
                let rank = if turn == Color::White { 5 } else { 2 };
                Some(Square::new(rank * 8 + (f as u8 - 1)))
            }
        };
        // Standard rights are corner rooks with the king on the e-file; any other is Chess960's.
        let standard = castling.into_iter().all(|rook| {
            let king = board.king_of(if rook.rank().index() == 0 {
                Color::White
            } else {
                Color::Black
            });
            matches!(rook.file().index(), 0 | 7) && king.is_some_and(|k| k.file().index() == 4)
        });
        let mode = if standard {
            CastlingMode::Standard
        } else {
            CastlingMode::Chess960
        };
        let setup = Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves: 0,
            fullmoves: 1,
        };
        Position::from_setup_lenient(setup, mode)
            .ok()
            .map(|(pos, _)| pos)
            // What the setup dropped as impossible (a castling right, an en-passant square) changes the hash.
            .filter(|pos| pos.zobrist() == self.hash)
    }

    /// The node as spilled: [`NODE_BYTES`] bytes, little-endian.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.hash.to_le_bytes());
        out.extend_from_slice(&self.occupied.to_le_bytes());
        out.extend_from_slice(&self.pieces[0].to_le_bytes());
        out.extend_from_slice(&self.pieces[1].to_le_bytes());
        out.extend_from_slice(&self.rest.to_le_bytes());
    }

    /// A node written by [`Node::write`].
    pub(crate) fn read(bytes: &[u8; NODE_BYTES]) -> Node {
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
        Node {
            hash: word(0),
            occupied: word(8),
            pieces: [word(16), word(24)],
            rest: u32::from_le_bytes(bytes[32..36].try_into().unwrap_or_default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::core::fen::parse_fen;

    const FENS: [&str; 6] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/1P6/8/8/8/8/8/R3K2R b Kq - 0 1",
        "8/8/8/8/8/8/8/K6k w - - 0 1",
        // Chess960 rights: rooks on b1 and g8.
        "1r4kr/8/8/8/8/8/8/1R4KR w Bh - 0 1",
        // Every square but two occupied is impossible; 32 pieces is the most a game has.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Kq - 5 9",
    ];

    #[test]
    fn a_node_gives_back_its_position() {
        for fen in FENS {
            let pos = parse_fen(fen).unwrap();
            let node = Node::of(&pos);
            let back = node.position().unwrap_or_else(|| panic!("{fen}"));
            assert_eq!(back.key(), pos.key(), "{fen}");
            let mut bytes = Vec::new();
            node.write(&mut bytes);
            assert_eq!(bytes.len(), NODE_BYTES);
            assert_eq!(Node::read(bytes.as_slice().try_into().unwrap()), node);
        }
    }

    #[test]
    fn nodes_are_equal_exactly_when_positions_are_the_same() {
        let counters =
            parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let later =
            parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 9").unwrap();
        let no_castling =
            parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kkq - 0 1").unwrap();
        assert_eq!(Node::of(&counters), Node::of(&later));
        assert_ne!(Node::of(&counters), Node::of(&no_castling));
        let white = parse_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
        let black = parse_fen("8/8/8/8/8/8/8/K6k b - - 0 1").unwrap();
        assert_ne!(Node::of(&white), Node::of(&black));
    }

    #[test]
    fn damaged_bytes_give_no_position() {
        let mut node = Node::of(&Position::new());
        node.pieces[0] |= 0xF;
        assert!(node.position().is_none());
        let mut node = Node::of(&Position::new());
        node.hash ^= 1;
        assert!(node.position().is_none());
    }
}
