//! Moves and fixed-capacity move lists.

use std::fmt;
use std::mem::MaybeUninit;

use super::castling::{Castling, CastlingSide};
use super::types::{Role, Square};

/// How a move changes the board beyond lifting a piece and putting it down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// Any other move: the piece goes from one square to the other, taking what stands there (a promotion
    /// included).
    Normal,
    /// A pawn's two-square first move: it may set up an en-passant capture.
    DoublePush,
    /// A pawn capturing en passant: the captured pawn stands beside the capturer, not on `to`.
    EnPassant,
    /// Castling; the move's `to` is the square of the castling rook (so Chess960 works the same way).
    Castle,
}

/// A legal-move candidate with everything notation needs: the moving role, what it captures and promotes to.
///
/// For castling, `from` is the king's square and `to` the rook's square ("king takes own rook", as in Chess960
/// UCI); [`Move::king_destination`] gives where the king lands.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
// In declaration order, byte by byte, in eight bytes that are copied as one word: [`Move::assembled`] relies
// on it.
#[repr(C, align(8))]
pub struct Move {
    /// Where the moving piece stands (the king, for castling).
    pub from: Square,
    /// Where it goes (the castling rook's square, for castling).
    pub to: Square,
    /// What moves.
    pub role: Role,
    /// What it takes, if anything (a pawn, for en passant).
    pub capture: Option<Role>,
    /// What a pawn promotes to.
    pub promotion: Option<Role>,
    /// Castling, en passant, a pawn's double step, or any other move.
    pub kind: MoveKind,
}

// One byte per field, six in all, and two of padding: [`Move::assembled`] writes them as one integer.
const _: () = assert!(std::mem::size_of::<Move>() == 8 && std::mem::size_of::<Option<Role>>() == 1);

impl Move {
    /// The move with these parts, put together in a register and stored whole. Built field by field, a move
    /// is stored a byte at a time, and then read back whole when it is copied (as a resolved move is, on its
    /// way to the position): a load the CPU cannot serve from those stores, so it waits for them, on every
    /// move of a replay.
    #[inline(always)]
    pub(crate) fn assembled(
        from: Square,
        to: Square,
        role: Role,
        capture: Option<Role>,
        promotion: Option<Role>,
        kind: MoveKind,
    ) -> Move {
        // SAFETY: `Option<Role>` is one byte (asserted above), and any value of it is a valid byte.
        let byte = |role: Option<Role>| unsafe { std::mem::transmute::<Option<Role>, u8>(role) };
        let bits = u64::from(from.index() as u8)
            | u64::from(to.index() as u8) << 8
            | u64::from(role as u8) << 16
            | u64::from(byte(capture)) << 24
            | u64::from(byte(promotion)) << 32
            | u64::from(kind as u8) << 40;
        // SAFETY: `Move` is `repr(C)`, eight bytes: six one-byte fields in this order, then padding (asserted
        // above), and in memory order (`to_le`) each of the first six bytes is a valid value of its field: a
        // square index below 64 (what `Square::index` returns), the discriminant of a `Role` and of a
        // `MoveKind`, and the bytes of two `Option<Role>`.
        unsafe { std::mem::transmute::<u64, Move>(bits.to_le()) }
    }

    /// Whether the move castles.
    #[inline]
    pub fn is_castle(&self) -> bool {
        self.kind == MoveKind::Castle
    }

    /// Whether the move captures en passant.
    #[inline]
    pub fn is_en_passant(&self) -> bool {
        self.kind == MoveKind::EnPassant
    }

    /// Whether the move takes a piece.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    /// Resets the 50-move counter: a pawn move or a capture.
    #[inline]
    pub fn is_zeroing(&self) -> bool {
        self.role == Role::Pawn || self.capture.is_some()
    }

    /// The squares of a castling move (king and rook, where each stands and lands); `None` for other moves.
    #[inline]
    pub fn castling(&self) -> Option<Castling> {
        if self.is_castle() {
            Some(Castling::new(self.from, self.to))
        } else {
            None
        }
    }

    /// Castling towards the h-file ("O-O").
    #[inline]
    pub fn is_kingside_castle(&self) -> bool {
        self.castling()
            .is_some_and(|c| c.side() == CastlingSide::King)
    }

    /// Where the moving piece ends up (for castling, the king's square: g- or c-file).
    #[inline]
    pub fn king_destination(&self) -> Square {
        match self.castling() {
            Some(castling) => castling.king_to(),
            None => self.to,
        }
    }

    /// Where the castling rook lands (f- or d-file); meaningless for other moves.
    #[inline]
    pub fn rook_destination(&self) -> Square {
        Castling::new(self.from, self.to).rook_to()
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.role.upper_char(), self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "={}", p.upper_char())?;
        }
        match self.kind {
            MoveKind::EnPassant => write!(f, " e.p."),
            MoveKind::Castle => write!(f, " castle"),
            _ => Ok(()),
        }
    }
}

/// A reachable position has at most 218 legal moves; unreachable ones accepted leniently (e.g. 28 queens in a
/// perft suite) have more, so leave ample room.
pub const MAX_MOVES: usize = 512;

/// A list of moves on the stack, for move generation, which must not touch the heap: a list is filled for each
/// position searched or replayed.
///
/// It dereferences to a slice (`list.len()`, `list.iter()`, `list.contains(&m)`...). Moves pushed beyond
/// [`MAX_MOVES`] are dropped (no legal position comes near it).
///
/// The storage is left uninitialised rather than filled with placeholder moves: a list is made at every inner
/// node of a perft search, and writing [`MAX_MOVES`] placeholders each time would add a 3 KB fill to every
/// generation. The invariant that makes the `unsafe` block below sound: `len <= MAX_MOVES`, and the
/// first `len` entries have been written.
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }

    /// Appends a move; a move beyond [`MAX_MOVES`] is dropped.
    #[inline]
    pub fn push(&mut self, m: Move) {
        // A legal position cannot exceed MAX_MOVES; the check keeps a corrupt one from writing out of bounds.
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }

    /// How many moves the list holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves, in the order they were pushed.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries have been written (`push` writes entry `len` before counting it, and
        // `retain` only moves written entries down), `len <= MAX_MOVES` keeps the slice inside `moves`, and
        // `MaybeUninit<Move>` has the size, alignment and layout of `Move`. The slice borrows `self`, so no
        // push can overwrite an entry while it is read.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// Keeps only the moves for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(&m) {
                self.moves[kept] = MaybeUninit::new(m);
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_assembled_move_is_the_move_of_its_fields() {
        let roles = || std::iter::once(None).chain(Role::ALL.map(Some));
        let kinds = [
            MoveKind::Normal,
            MoveKind::DoublePush,
            MoveKind::EnPassant,
            MoveKind::Castle,
        ];
        for from in Square::all() {
            // Every destination with a few origins, every origin with a few destinations.
            for to in
                Square::all().filter(|to| from.index() < 3 || to.index() % 21 == from.index() % 21)
            {
                for role in Role::ALL {
                    for capture in roles() {
                        for promotion in roles() {
                            for kind in kinds {
                                let fields = Move {
                                    from,
                                    to,
                                    role,
                                    capture,
                                    promotion,
                                    kind,
                                };
                                let assembled =
                                    Move::assembled(from, to, role, capture, promotion, kind);
                                assert_eq!(assembled, fields);
                                assert_eq!(
                                    (assembled.from, assembled.to, assembled.role),
                                    (from, to, role)
                                );
                                assert_eq!(
                                    (assembled.capture, assembled.promotion, assembled.kind),
                                    (capture, promotion, kind)
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
