//! Legal move generation: check evasions, pins, en passant (with the horizontal-pin case), promotions and
//! castling under all four FIDE conditions, for standard chess and Chess960.

use super::attacks;
use super::bitboard::Bitboard;
use super::castling::Castling;
use super::moves::{Move, MoveKind, MoveList};
use super::position::Position;
use super::types::{Color, File, Rank, Role, Square};

/// What move generation hands the moves it finds to: a [`MoveList`] keeps them, a [`MoveCounter`] only counts
/// them (perft's bulk counting needs only how many, and counting a set of target squares is one popcount).
pub(crate) trait MoveCollector {
    /// Ordinary moves of a non-pawn piece from `from` to every square of `targets`.
    fn piece_moves(&mut self, pos: &Position, from: Square, role: Role, targets: Bitboard);
    /// One move (pawn moves, castling, en passant).
    fn one(&mut self, m: Move);
    /// Pawn moves without promotion to every square of `targets`, each from `to - delta` (a set of pawns
    /// moved in one shift).
    fn pawn_moves(&mut self, pos: &Position, targets: Bitboard, delta: i8, kind: MoveKind) {
        for to in targets {
            self.one(Move {
                from: Square::new_masked((to.index() as i8 - delta) as u8),
                to,
                role: Role::Pawn,
                capture: pos.board().role_at(to),
                promotion: None,
                kind,
            });
        }
    }
    /// Promotions (four moves each) to every square of `targets`, each from `to - delta`.
    fn pawn_promotions(&mut self, pos: &Position, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::new_masked((to.index() as i8 - delta) as u8);
            self.promotions(from, to, pos.board().role_at(to));
        }
    }
    /// A pawn move to the last rank: four moves, one per promotion role.
    fn promotions(&mut self, from: Square, to: Square, capture: Option<Role>) {
        for promotion in Role::PROMOTIONS {
            self.one(Move {
                from,
                to,
                role: Role::Pawn,
                capture,
                promotion: Some(promotion),
                kind: MoveKind::Normal,
            });
        }
    }
}

impl MoveCollector for MoveList {
    #[inline]
    fn piece_moves(&mut self, pos: &Position, from: Square, role: Role, targets: Bitboard) {
        for to in targets {
            self.push(Move {
                from,
                to,
                role,
                capture: pos.board().role_at(to),
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
    }

    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts the moves generated without building them.
struct MoveCounter(u64);

impl MoveCollector for MoveCounter {
    #[inline]
    fn piece_moves(&mut self, _: &Position, _: Square, _: Role, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn promotions(&mut self, _: Square, _: Square, _: Option<Role>) {
        self.0 += 4;
    }

    #[inline]
    fn pawn_moves(&mut self, _: &Position, targets: Bitboard, _: i8, _: MoveKind) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn pawn_promotions(&mut self, _: &Position, targets: Bitboard, _: i8) {
        self.0 += 4 * u64::from(targets.count());
    }
}

impl Position {
    /// Every legal move in this position.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// How many legal moves there are, without listing them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Legal moves of one role (cheaper when resolving SAN).
    pub fn legal_moves_of(&self, role: Role) -> MoveList {
        let mut list = self.legal_moves();
        list.retain(|m| m.role == role);
        list
    }

    /// True if `m` is one of the legal moves here.
    pub fn is_legal(&self, m: &Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// Hands every legal move to `list`.
    pub(crate) fn generate<S: MoveCollector>(&self, list: &mut S) {
        let us = self.turn();
        let b = self.board();
        let ours = b.by_color(us);
        let theirs = b.by_color(!us);
        let occupied = b.occupied();
        let king = self.our_king();
        let checkers = self.checkers();

        self.gen_king_steps(king, ours, list);
        if checkers.more_than_one() {
            return;
        }
        // In check, other pieces must capture the checker or block its line.
        let target = match checkers.single() {
            Some(checker) => attacks::between(king, checker).with(checker),
            None => Bitboard::FULL,
        };
        let pinned = self.pinned();
        let movable = !ours & target;

        for from in b.knights() & ours & !pinned {
            list.piece_moves(
                self,
                from,
                Role::Knight,
                attacks::knight_attacks(from) & movable,
            );
        }
        for from in b.diagonal_sliders() & ours {
            let mut to = attacks::bishop_attacks(from, occupied) & movable;
            if pinned.contains(from) {
                to &= attacks::line(king, from);
            }
            let role = if b.queens().contains(from) {
                Role::Queen
            } else {
                Role::Bishop
            };
            list.piece_moves(self, from, role, to);
        }
        for from in b.straight_sliders() & ours {
            let mut to = attacks::rook_attacks(from, occupied) & movable;
            if pinned.contains(from) {
                to &= attacks::line(king, from);
            }
            let role = if b.queens().contains(from) {
                Role::Queen
            } else {
                Role::Rook
            };
            list.piece_moves(self, from, role, to);
        }
        self.gen_pawn_moves(king, theirs, occupied, target, pinned, list);
        if let Some(ep) = self.ep_square() {
            let capturers = attacks::pawn_attacks(!us, ep) & b.pawns() & ours;
            for from in capturers {
                if self.en_passant_is_legal(from, ep) {
                    list.one(Move {
                        from,
                        to: ep,
                        role: Role::Pawn,
                        capture: Some(Role::Pawn),
                        promotion: None,
                        kind: MoveKind::EnPassant,
                    });
                }
            }
        }
        if checkers.is_empty() {
            self.gen_castling(king, list);
        }
    }

    fn gen_king_steps<S: MoveCollector>(&self, king: Square, ours: Bitboard, list: &mut S) {
        let them = !self.turn();
        // Without the king on the board, a slider's ray continues through its square.
        let occupied = self.board().occupied().without(king);
        let safe = (attacks::king_attacks(king) & !ours)
            .filter(|&to| self.attackers_to(to, them, occupied).is_empty())
            .collect();
        list.piece_moves(self, king, Role::King, safe);
    }

    fn gen_pawn_moves<S: MoveCollector>(
        &self,
        king: Square,
        theirs: Bitboard,
        occupied: Bitboard,
        target: Bitboard,
        pinned: Bitboard,
        list: &mut S,
    ) {
        let us = self.turn();
        let b = self.board();
        let (forward, start_rank, last_rank) = match us {
            Color::White => (8i8, Rank::Second, Rank::Eighth),
            Color::Black => (-8i8, Rank::Seventh, Rank::First),
        };
        let pawns = b.pawns() & b.by_color(us);
        // Unpinned pawns move as a set: one shift per direction, and the counting sink only needs popcounts.
        let free = pawns & !pinned;
        let empty = !occupied;
        let last = Bitboard::rank(last_rank);
        let not_a = !Bitboard::file(File::A);
        let not_h = !Bitboard::file(File::H);
        // (single step, west capture, east capture) shifts and their square deltas.
        let (single, west, east, dw, de) = match us {
            Color::White => (
                free.shift_up(),
                Bitboard((free & not_a).0 << 7),
                Bitboard((free & not_h).0 << 9),
                7i8,
                9i8,
            ),
            Color::Black => (
                free.shift_down(),
                Bitboard((free & not_a).0 >> 9),
                Bitboard((free & not_h).0 >> 7),
                -9i8,
                -7i8,
            ),
        };
        let single = single & empty;
        let third = Bitboard::rank(us.relative_rank(Rank::Third));
        let double = match us {
            Color::White => (single & third).shift_up(),
            Color::Black => (single & third).shift_down(),
        } & empty
            & target;
        let single = single & target;
        let west = west & theirs & target;
        let east = east & theirs & target;
        list.pawn_moves(self, single & !last, forward, MoveKind::Normal);
        list.pawn_promotions(self, single & last, forward);
        list.pawn_moves(self, double, 2 * forward, MoveKind::DoublePush);
        list.pawn_moves(self, west & !last, dw, MoveKind::Normal);
        list.pawn_promotions(self, west & last, dw);
        list.pawn_moves(self, east & !last, de, MoveKind::Normal);
        list.pawn_promotions(self, east & last, de);

        // Pinned pawns may only move along the line through their king, one by one.
        for from in pawns & pinned {
            let allowed = target & attacks::line(king, from);
            let captures = attacks::pawn_attacks(us, from) & theirs & allowed;
            for to in captures {
                push_pawn_move(list, from, to, b.role_at(to), last_rank, MoveKind::Normal);
            }
            let one = Square::new_masked((from.index() as i8 + forward) as u8);
            if occupied.contains(one) {
                continue;
            }
            if allowed.contains(one) {
                push_pawn_move(list, from, one, None, last_rank, MoveKind::Normal);
            }
            if from.rank() == start_rank {
                let two = Square::new_masked((one.index() as i8 + forward) as u8);
                if !occupied.contains(two) && allowed.contains(two) {
                    push_pawn_move(list, from, two, None, last_rank, MoveKind::DoublePush);
                }
            }
        }
    }

    fn gen_castling<S: MoveCollector>(&self, king: Square, list: &mut S) {
        let us = self.turn();
        let back = us.back_rank();
        if king.rank() != back {
            return;
        }
        let b = self.board();
        for rook in self.castling_rights() & Bitboard::rank(back) & b.rooks() & b.by_color(us) {
            // The caller generates castling only when the king is not in check.
            if self
                .castling_obstacle(Castling::new(king, rook), Bitboard::EMPTY)
                .is_none()
            {
                list.one(Move {
                    from: king,
                    to: rook,
                    role: Role::King,
                    capture: None,
                    promotion: None,
                    kind: MoveKind::Castle,
                });
            }
        }
    }
}

#[inline]
fn push_pawn_move<S: MoveCollector>(
    list: &mut S,
    from: Square,
    to: Square,
    capture: Option<Role>,
    last: Rank,
    kind: MoveKind,
) {
    if to.rank() == last {
        list.promotions(from, to, capture);
    } else {
        list.one(Move {
            from,
            to,
            role: Role::Pawn,
            capture,
            promotion: None,
            kind,
        });
    }
}

/// Counts the leaves of the legal move tree to `depth`, counting the last level in bulk (the length of the
/// move list, without playing the moves), as is usual for perft and as the reference does.
///
/// ```
/// use pgnkit::core::{fen, perft, perft_divide};
/// use pgnkit::Position;
///
/// assert_eq!(perft(&Position::new(), 3), 8_902);
/// // "Kiwipete": castling, en passant and promotions early in the tree.
/// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// let pos = fen::parse_fen(kiwipete).unwrap();
/// assert_eq!(perft(&pos, 2), 2_039);
/// // Divided by first move: what to compare when a count disagrees with another program's.
/// let divided = perft_divide(&pos, 2);
/// assert_eq!(divided.len(), 48);
/// assert_eq!(divided.iter().map(|(_, nodes)| nodes).sum::<u64>(), 2_039);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves();
    }
    // Generated into a list in this frame: returned by value, the list's 3 KB would be copied at every node
    // (docs/performance.md, "Tuning constants").
    let mut list = MoveList::new();
    pos.generate(&mut list);
    let mut total = 0;
    for m in list.iter() {
        let mut next = *pos;
        next.play_unchecked(*m);
        total += perft(&next, depth - 1);
    }
    total
}

/// Per-move node counts at `depth` (perft "divide"): each legal move with [`perft`] of the position after
/// it at `depth - 1`, so that the counts add up to `perft(pos, depth)`. At depth 0 the tree is the position
/// alone (`perft` counts 1) and no move is part of it: the list is empty.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|m| (*m, perft(&pos.after_unchecked(*m), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_position_perft() {
        let pos = Position::new();
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 2), 400);
        assert_eq!(perft(&pos, 3), 8_902);
        assert_eq!(perft(&pos, 4), 197_281);
    }

    #[test]
    fn divide_adds_up_to_perft_at_every_depth() {
        let kiwipete = crate::core::fen::parse_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        for pos in [Position::new(), kiwipete] {
            assert!(perft_divide(&pos, 0).is_empty());
            for depth in 1..=3 {
                let divided = perft_divide(&pos, depth);
                assert_eq!(divided.len(), pos.legal_moves().len());
                let sum: u64 = divided.iter().map(|&(_, nodes)| nodes).sum();
                assert_eq!(sum, perft(&pos, depth), "depth {depth}");
            }
        }
    }
}
