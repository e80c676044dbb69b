//! A position of the tree as it is kept, sorted and spilled: its hash first (the position's own Zobrist hash,
//! kept up to date move by move as it is played: free here), then the position itself as five bitboards and
//! a word (made of the board's own bitboards with a few operations: every half-move of every game makes one),
//! so that two positions are merged only when they are the same under FIDE's rule, never because their hashes
//! meet.

use pgnkit::core::fen;
use pgnkit::core::{Bitboard, Board, CastlingMode, Color, Piece, Position, Role, Setup, Square};

/// A position under FIDE's "same position" rule: the pieces, the side to move, the castling rights and the
/// en-passant square when a capture there is legal ([`Position::key`]), packed.
///
/// Ordered by hash, then by the packed position: the hash spreads positions evenly; the rest breaks the (rare)
/// ties of different positions with one hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Node {
    /// [`Position::zobrist`], which follows FIDE's "same position" (an en-passant square only when the
    /// capture is legal).
    pub(crate) hash: u64,
    occupied: u64,
    white: u64,
    /// The role index of each piece, bit by bit: `roles[k]` holds the squares whose role has bit `k` set
    /// (pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5).
    roles: [u64; 3],
    /// Castling rook files (white in bits 0-7, black in 8-15), the en-passant file plus one (bits 16-19, 0
    /// when none), the side to move (bit 20, set for Black).
    rest: u32,
}

/// Only the hash is hashed: it is uniform already, and equal nodes have equal hashes.
impl std::hash::Hash for Node {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Bytes of a [`Node`] in a spilled run.
pub(crate) const NODE_BYTES: usize = 8 * 6 + 4;

impl Node {
    /// The node of `pos`.
    pub(crate) fn of(pos: &Position) -> Node {
        let board = pos.board();
        let bits = |role: Role| board.by_role(role).0;
        let roles = [
            bits(Role::Knight) | bits(Role::Rook) | bits(Role::King),
            bits(Role::Bishop) | bits(Role::Rook),
            bits(Role::Queen) | bits(Role::King),
        ];
        // Castling rights are rooks on the first and last ranks: their files, white's then black's.
        let rights = pos.castling_rights().0;
        let mut rest = ((rights & 0xFF) | ((rights >> 56) << 8)) as u32;
        if let Some(ep) = pos.ep_square() {
            rest |= (ep.file().index() as u32 + 1) << 16;
        }
        if pos.turn() == Color::Black {
            rest |= 1 << 20;
        }
        Node {
            hash: pos.zobrist(),
            occupied: board.occupied().0,
            white: board.by_color(Color::White).0,
            roles,
            rest,
        }
    }

    /// The role index of the piece on square `index` (0-7; above 5 in damaged bytes).
    #[inline]
    fn role_index(&self, index: usize) -> usize {
        let bit = |k: usize| ((self.roles[k] >> index) & 1) as usize;
        bit(0) | (bit(1) << 1) | (bit(2) << 2)
    }

    /// The position again, with move counters 0 and 1; `None` for bytes no [`Node::of`] made (a damaged
    /// temporary file).
    pub(crate) fn position(&self) -> Option<Position> {
        let mut board = Board::empty();
        let squares = Bitboard(self.occupied);
        if squares.count() > 32
            || self.white & !self.occupied != 0
            || self.roles.iter().any(|r| r & !self.occupied != 0)
        {
            return None;
        }
        for square in squares {
            let role = self.role_index(square.index());
            if role > 5 {
                return None;
            }
            let color = if self.white & (1 << square.index()) != 0 {
                Color::White
            } else {
                Color::Black
            };
            board.put(square, Piece::new(color, Role::from_index(role)));
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

    /// Appends the first four FEN fields of `pos` (this node's position, as [`Node::position`] gave it):
    /// read from the packed pieces, as [`fen::write_epd`] writes them.
    pub(crate) fn write_epd(&self, pos: &Position, out: &mut String) {
        let castling = self.rest & 0xFFFF;
        // Standard rights as KQkq: corner rooks with the king on the e-file (else the FEN writer's X-FEN).
        if castling & !0x8181 != 0 || pos.castling_mode() != CastlingMode::Standard {
            fen::write_epd(pos, out);
            return;
        }
        // Written into bytes on the stack, then appended at once (at most 64 + 7 + 10 bytes).
        let mut text = [0u8; 96];
        let mut len = 0;
        let mut put = |b: u8| {
            text[len] = b;
            len += 1;
        };
        // By colour (white first) and role index; `?` for a role index no piece has (damaged bytes).
        const LETTERS: [&[u8; 8]; 2] = [b"PNBRQK??", b"pnbrqk??"];
        // Rank by rank, only the occupied squares visited (a branch per square is mispredicted half the
        // time), the gaps between them counted.
        for rank in (0..8).rev() {
            let mut files = (self.occupied >> (rank * 8)) & 0xFF;
            let mut next = 0;
            while files != 0 {
                let file = files.trailing_zeros() as usize;
                if file > next {
                    put(b'0' + (file - next) as u8);
                }
                let square = rank * 8 + file;
                let black = usize::from(self.white & (1 << square) == 0);
                put(LETTERS[black][self.role_index(square)]);
                next = file + 1;
                files &= files - 1;
            }
            if next < 8 {
                put(b'0' + (8 - next) as u8);
            }
            if rank > 0 {
                put(b'/');
            }
        }
        let black = self.rest & (1 << 20) != 0;
        put(b' ');
        put(if black { b'b' } else { b'w' });
        put(b' ');
        if castling == 0 {
            put(b'-');
        }
        for (bit, letter) in [(7, b'K'), (0, b'Q'), (15, b'k'), (8, b'q')] {
            if castling & (1 << bit) != 0 {
                put(letter);
            }
        }
        put(b' ');
        match (self.rest >> 16) & 0xF {
            0 => put(b'-'),
            f => {
                put(b'a' + f as u8 - 1);
                put(if black { b'3' } else { b'6' });
            }
        }
        // ASCII only.
        out.push_str(std::str::from_utf8(&text[..len]).unwrap_or_default());
    }

    /// The node as spilled: [`NODE_BYTES`] bytes, little-endian.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        for word in [
            self.hash,
            self.occupied,
            self.white,
            self.roles[0],
            self.roles[1],
            self.roles[2],
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.rest.to_le_bytes());
    }

    /// A node written by [`Node::write`].
    pub(crate) fn read(bytes: &[u8; NODE_BYTES]) -> Node {
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
        Node {
            hash: word(0),
            occupied: word(8),
            white: word(16),
            roles: [word(24), word(32), word(40)],
            rest: u32::from_le_bytes(bytes[48..52].try_into().unwrap_or_default()),
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
            let mut epd = String::new();
            node.write_epd(&back, &mut epd);
            assert_eq!(epd, fen::to_epd(&pos), "{fen}");
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
        node.roles = [u64::MAX; 3];
        assert!(node.position().is_none());
        let mut node = Node::of(&Position::new());
        node.hash ^= 1;
        assert!(node.position().is_none());
    }
}
