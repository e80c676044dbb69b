//! How a game stands under the FIDE Laws: the endings that stop a game (checkmate 5.1.1, stalemate 5.2.1, dead
//! position 5.2.2 by the static material test, fivefold repetition 9.6.1, 75-move rule 9.6.2) and the draws
//! the player to move may claim (threefold repetition 9.2, fifty moves 9.3), including a claim announced with
//! the move that would produce the third occurrence or the 100th half-move (9.2.1, 9.3.1).
//!
//! [`GameState`] follows a game move by move and keeps only what these rules need: the hashes of the positions
//! since the last irreversible move (earlier positions can never recur), so the cost per move is a copy of the
//! position and a short scan. A long run of reversible moves (a knight shuffled for thousands of moves) switches
//! to a table of occurrence counts, so replay stays linear in the number of moves whatever the input.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveKind};
use super::position::{IllegalMove, Position};
use super::types::{Color, Role, Square};
use super::zobrist;

/// An ending that stops the game, or makes it a draw automatically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// The side to move is in check and has no legal move: the other side wins (5.1.1).
    Checkmate,
    /// The side to move is not in check and has no legal move: a draw (5.2.1).
    Stalemate,
    /// Neither side can mate by any series of legal moves, by the static material test: a draw (5.2.2).
    InsufficientMaterial,
    /// 75 moves by each side without a capture or pawn move: a draw (9.6.2).
    SeventyFiveMoves,
    /// The same position for the fifth time: a draw (9.6.1).
    FivefoldRepetition,
}

impl Termination {
    /// The identifier used in JSON and CSV output.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::FivefoldRepetition => "fivefold_repetition",
        }
    }

    /// Checkmate and stalemate end the game outright: no move can follow them.
    pub fn is_final(self) -> bool {
        matches!(self, Termination::Checkmate | Termination::Stalemate)
    }

    /// Everything but checkmate is a draw.
    pub fn is_draw(self) -> bool {
        self != Termination::Checkmate
    }

    /// Words for messages ("dead position (insufficient material)").
    pub fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "dead position (insufficient material)",
            Termination::SeventyFiveMoves => "75-move rule",
            Termination::FivefoldRepetition => "fivefold repetition",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A draw the player to move may claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Claim {
    /// The same position for the third time, or about to be by the move announced (9.2).
    ThreefoldRepetition,
    /// 50 moves by each side without a capture or pawn move, or about to be (9.3).
    FiftyMoves,
}

impl Claim {
    /// The identifier used in JSON and CSV output.
    pub fn as_str(self) -> &'static str {
        match self {
            Claim::ThreefoldRepetition => "threefold_repetition",
            Claim::FiftyMoves => "fifty_moves",
        }
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule event and the ply (half-moves played from the game's start position) at which it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtPly<T> {
    /// Half-moves played when it happened (0: in the start position).
    pub ply: u32,
    /// What happened.
    pub what: T,
}

/// A game followed move by move, with the history the repetition rules need.
///
/// ```
/// use pgnkit::core::{fen, Claim, GameState, IllegalMove, Termination};
/// use pgnkit::{Move, Position, Square};
///
/// fn find(game: &GameState, from: Square, to: Square) -> Move {
///     *game.position().legal_moves().iter().find(|m| m.from == from && m.to == to).unwrap()
/// }
///
/// // The knights go out and back twice: the start position occurs a third time.
/// let mut game = GameState::new(Position::new());
/// for _ in 0..2 {
///     for (from, to) in [(Square::G1, Square::F3), (Square::G8, Square::F6), (Square::F3, Square::G1), (Square::F6, Square::G8)] {
///         game.play(find(&game, from, to)).unwrap();
///     }
/// }
/// assert_eq!(game.repetitions(), 3);
/// assert_eq!(game.claimable(), [Claim::ThreefoldRepetition]);
/// // Black could claim at ply 7, announcing the move that repeats the start position.
/// assert_eq!(game.first_claim().map(|c| (c.ply, c.what)), Some((7, Claim::ThreefoldRepetition)));
/// assert_eq!(game.termination(), None);
/// // The checked play refuses a move that is not legal, and the game stays as it was.
/// let e4 = find(&game, Square::E2, Square::E4);
/// let e5 = Move { to: Square::E5, ..e4 };
/// assert_eq!(game.play(e5), Err(IllegalMove::CannotReach { from: Square::E2, to: Square::E5 }));
/// assert_eq!(game.ply(), 8);
///
/// let mate = fen::parse_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
/// assert_eq!(GameState::new(mate).termination(), Some(Termination::Checkmate));
/// ```
#[derive(Clone)]
pub struct GameState {
    pos: Position,
    /// The positions since the last irreversible move, oldest first, the current one last: each one's hash,
    /// and its occupied squares (a cheap filter for "one move away", see [`GameState::announce_threefold`]).
    history: Vec<(u64, u64)>,
    /// How often each position of `history` occurred, once the history is longer than [`LONG_HISTORY`]: then a
    /// scan per move would make a long reversible run quadratic.
    counts: Option<Counts>,
    /// How often the current position has occurred since the last irreversible move.
    reps: u32,
    /// Whether some position with this side to move has occurred twice since the last irreversible move:
    /// only then can a move announce a third occurrence, so the costly check is skipped otherwise.
    twice: [bool; 2],
    ply: u32,
    first_claim: Option<AtPly<Claim>>,
    ended: Option<AtPly<Termination>>,
    track_claims: bool,
    /// Off: the moves are played and counted, nothing more ([`GameState::moves_only`]).
    keep_history: bool,
}

/// Above this many positions since the last irreversible move, occurrences are counted in a table rather than
/// by scanning the history (keep it above the length of ordinary reversible runs: the scan is cheaper there).
const LONG_HISTORY: usize = 128;

/// Occurrence counts by Zobrist hash. The hashes are uniformly random already, so they are their own hash.
type Counts = HashMap<u64, u32, BuildHasherDefault<ZobristHasher>>;

/// A [`Hasher`] for keys that are Zobrist hashes: passes the key through.
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl GameState {
    /// A game starting from `pos`, no move played.
    pub fn new(pos: Position) -> GameState {
        let mut state = GameState {
            pos,
            history: Vec::with_capacity(32),
            counts: None,
            reps: 1,
            twice: [false; 2],
            ply: 0,
            first_claim: None,
            ended: None,
            track_claims: true,
            keep_history: true,
        };
        state
            .history
            .push((pos.zobrist(), pos.board().occupied().0));
        state.after_move(true);
        state
    }

    /// Skips the per-move search for the first claimable draw (the final position is still analysed fully).
    pub fn without_claim_tracking(mut self) -> GameState {
        self.track_claims = false;
        self
    }

    /// Plays the moves and counts them, nothing more: no history of positions, so no repetition is ever
    /// seen, and no automatic ending or claim is looked for after the start ([`GameState::ended_by_rule`]
    /// and [`GameState::first_claim`] say what the start position said; [`GameState::termination`] still
    /// sees mate, stalemate, dead positions and the 75-move rule in the final position). For a caller that only needs the moves
    /// (convert's PGN output): the bookkeeping is most of the cost of a move here.
    pub fn moves_only(mut self) -> GameState {
        self.keep_history = false;
        self.track_claims = false;
        self.history.clear();
        self
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Half-moves played so far.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The first ply at which the game ended by an automatic rule (dead position, 75 moves, fivefold
    /// repetition); moves played after it are still legal chess moves, but the game was over.
    #[inline]
    pub fn ended_by_rule(&self) -> Option<AtPly<Termination>> {
        self.ended
    }

    /// The first ply at which the player to move could have claimed a draw.
    #[inline]
    pub fn first_claim(&self) -> Option<AtPly<Claim>> {
        self.first_claim
    }

    /// Plays `m` if it is one of the legal moves of the current position, with the same bookkeeping as
    /// [`GameState::play_unchecked`]; else says why it is not, and nothing changes.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.pos.legality(&m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move that must be legal in the current position (from move generation or SAN resolution):
    /// the position moves on, and the history and the rules' verdicts are brought up to date.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) {
        if !self.keep_history {
            self.pos.play_unchecked(m);
            self.ply += 1;
            return;
        }
        let before = &self.pos;
        let irreversible = m.is_zeroing()
            || before.ep_square().is_some()
            || (before.castling_rights().non_empty() && self.touches_castling(&m));
        self.pos.play_unchecked(m);
        self.record(irreversible, m.capture.is_some() || m.promotion.is_some());
    }

    /// The bookkeeping after any move: earlier positions forgotten after an irreversible one, the new one
    /// recorded, the rules checked.
    #[inline(always)]
    fn record(&mut self, irreversible: bool, material_changed: bool) {
        self.ply += 1;
        if irreversible {
            self.history.clear();
            self.counts = None;
            self.twice = [false; 2];
        }
        let hash = self.pos.zobrist();
        self.history.push((hash, self.pos.board().occupied().0));
        // Most moves come a few plies after an irreversible one. A position recurs four plies after itself
        // at the soonest, so with fewer than five positions kept it stands once, no position has stood
        // twice (`twice` was reset with the history), and only a change of material or a long quiet run
        // can end the game or open a claim: the rest of the bookkeeping has nothing to do.
        if self.history.len() < 5 && !material_changed && self.pos.halfmoves() < 99 {
            debug_assert!(self.counts.is_none() && self.twice == [false; 2]);
            self.reps = 1;
            return;
        }
        self.record_more(hash, material_changed);
    }

    /// [`GameState::record`] past its short cut: repetitions counted, the rules checked.
    #[inline(never)]
    fn record_more(&mut self, hash: u64, material_changed: bool) {
        self.reps = match &mut self.counts {
            Some(counts) => {
                let n = counts.entry(hash).or_insert(0);
                *n += 1;
                *n
            }
            None if self.history.len() > LONG_HISTORY => {
                let mut counts = Counts::default();
                for &(h, _) in &self.history {
                    *counts.entry(h).or_insert(0) += 1;
                }
                let n = counts[&hash];
                self.counts = Some(counts);
                n
            }
            None => self.scan_repetitions() as u32,
        };
        self.after_move(material_changed);
    }

    /// Plays a null move (`--` in PGN): the turn passes.
    pub fn play_null(&mut self) {
        if !self.keep_history {
            self.pos.play_null();
            self.ply += 1;
            return;
        }
        let irreversible = self.pos.ep_square().is_some();
        self.pos.play_null();
        self.record(irreversible, false);
    }

    fn touches_castling(&self, m: &Move) -> bool {
        let rights = self.pos.castling_rights();
        m.role == super::types::Role::King
            && (rights & super::Bitboard::rank(self.pos.turn().back_rank())).non_empty()
            || rights.contains(m.from)
            || rights.contains(m.to)
    }

    /// How often the current position has occurred since the last irreversible move (at least 1).
    #[inline]
    pub fn repetitions(&self) -> usize {
        self.reps as usize
    }

    /// [`GameState::repetitions`] by scanning the history.
    #[inline]
    fn scan_repetitions(&self) -> usize {
        let (current, _) = *self
            .history
            .last()
            .expect("history holds the current position");
        // Only positions with the same side to move can be equal: every other entry, backwards.
        self.history
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&(h, _)| h == current)
            .count()
    }

    #[inline]
    fn after_move(&mut self, material_changed: bool) {
        let reps = self.repetitions();
        if reps >= 2 {
            self.twice[self.pos.turn().index()] = true;
        }
        if self.ended.is_none() {
            let ended = if material_changed && self.pos.is_insufficient_material() {
                Some(Termination::InsufficientMaterial)
            } else if self.pos.halfmoves() >= 150 {
                Some(Termination::SeventyFiveMoves)
            } else if reps >= 5 {
                Some(Termination::FivefoldRepetition)
            } else {
                None
            };
            // A mate on the 150th half-move wins (9.6.2), and mate or stalemate are reported as the final
            // outcome anyway, so the automatic rules only count when the player to move has a move.
            if let Some(what) = ended
                && self.pos.has_legal_move()
            {
                self.ended = Some(AtPly {
                    ply: self.ply,
                    what,
                });
            }
        }
        if self.track_claims && self.first_claim.is_none() {
            // The costly announced-move check only runs when some position with the other side to move has
            // already occurred twice.
            let them = !self.pos.turn();
            let claim = if reps >= 3 || (self.twice[them.index()] && self.announce_threefold()) {
                Some(Claim::ThreefoldRepetition)
            } else if self.pos.halfmoves() >= 99 && self.fifty_claimable() {
                Some(Claim::FiftyMoves)
            } else {
                None
            };
            if let Some(what) = claim {
                self.first_claim = Some(AtPly {
                    ply: self.ply,
                    what,
                });
            }
        }
    }

    /// Some legal move produces a position that has already occurred twice (9.2.1 b).
    fn announce_threefold(&self) -> bool {
        let them = !self.pos.turn();
        if !self.twice[them.index()] || self.pos.ep_square().is_some() {
            // With an e.p. square on the board the history holds only this position (the double step
            // cleared it), so no move can repeat an earlier one.
            return false;
        }
        match &self.counts {
            Some(counts) => self.announce_by_moves(counts),
            None => self.announce_by_scan(),
        }
    }

    /// [`GameState::announce_threefold`] over the history, for a short one.
    fn announce_by_scan(&self) -> bool {
        // A quiet, reversible move changes the occupied squares in exactly two places and the hash by the
        // mover's two squares and the side to move. So each earlier position with the other side to move
        // whose occupancy differs from ours in two squares names the one move that could repeat it; that
        // move is checked, not every legal move generated.
        let occupied = self.pos.board().occupied();
        let rights = self.pos.castling_rights();
        let base = self.pos.zobrist() ^ zobrist::side_key(Color::Black);
        let n = self.history.len();
        (0..n.saturating_sub(1)).rev().step_by(2).any(|i| {
            let (hash, then) = self.history[i];
            let diff = Bitboard(then) ^ occupied;
            if diff.count() != 2 {
                return false;
            }
            let (Some(from), Some(to)) =
                ((diff & occupied).first(), (diff & Bitboard(then)).first())
            else {
                return false;
            };
            self.repeats_by(from, to, hash, rights, base)
                && self
                    .history
                    .iter()
                    .rev()
                    .skip(1)
                    .step_by(2)
                    .filter(|&&(h, _)| h == hash)
                    .count()
                    >= 2
        })
    }

    /// [`GameState::announce_threefold`] for a long history: each legal quiet reversible move's resulting hash
    /// looked up in the counts (a bounded amount of work per position, where the scan grows with the history).
    fn announce_by_moves(&self, counts: &Counts) -> bool {
        let pos = &self.pos;
        let rights = pos.castling_rights();
        let base = pos.zobrist() ^ zobrist::side_key(Color::Black);
        pos.legal_moves().iter().any(|m| {
            if m.role == Role::Pawn
                || m.capture.is_some()
                || m.kind != MoveKind::Normal
                || (rights.non_empty() && self.touches_castling(m))
            {
                return false;
            }
            let Some(piece) = pos.board().piece_at(m.from) else {
                return false;
            };
            let hash = base ^ zobrist::piece_key(piece, m.from) ^ zobrist::piece_key(piece, m.to);
            counts.get(&hash).is_some_and(|&n| n >= 2)
        })
    }

    /// Whether moving our piece from `from` to the empty square `to` is a legal, quiet, reversible move that
    /// produces the position hashed `hash`.
    fn repeats_by(&self, from: Square, to: Square, hash: u64, rights: Bitboard, base: u64) -> bool {
        let pos = &self.pos;
        let us = pos.turn();
        let Some(piece) = pos.board().piece_at(from).filter(|p| p.color == us) else {
            return false;
        };
        let m = Move {
            from,
            to,
            role: piece.role,
            capture: None,
            promotion: None,
            kind: MoveKind::Normal,
        };
        if piece.role == Role::Pawn || (rights.non_empty() && self.touches_castling(&m)) {
            return false;
        }
        if base ^ zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to) != hash {
            return false;
        }
        let occupied = pos.board().occupied();
        let reaches = match piece.role {
            Role::Knight => attacks::knight_attacks(from),
            Role::Bishop => attacks::bishop_attacks(from, occupied),
            Role::Rook => attacks::rook_attacks(from, occupied),
            Role::Queen => attacks::queen_attacks(from, occupied),
            Role::King => attacks::king_attacks(from),
            Role::Pawn => Bitboard::EMPTY,
        };
        if !reaches.contains(to) {
            return false;
        }
        let after = occupied.without(from).with(to);
        let king = if piece.role == Role::King {
            to
        } else {
            pos.our_king()
        };
        pos.attackers_to(king, !us, after).is_empty()
    }

    /// Fifty moves without pawn move or capture have been made, or the move about to be played completes them
    /// (9.3); the resulting position must still allow a move (a mate on that move wins instead).
    fn fifty_claimable(&self) -> bool {
        let pos = &self.pos;
        if pos.halfmoves() >= 100 {
            return pos.has_legal_move();
        }
        pos.halfmoves() >= 99
            && pos
                .legal_moves()
                .iter()
                .any(|m| !m.is_zeroing() && pos.after_unchecked(*m).has_legal_move())
    }

    /// How the final position stands, by the first of checkmate, stalemate, insufficient material, 75 moves
    /// and fivefold repetition that applies.
    pub fn termination(&self) -> Option<Termination> {
        let pos = &self.pos;
        let has_move = pos.has_legal_move();
        if !has_move {
            return Some(if pos.is_check() {
                Termination::Checkmate
            } else {
                Termination::Stalemate
            });
        }
        if pos.is_insufficient_material() {
            Some(Termination::InsufficientMaterial)
        } else if pos.halfmoves() >= 150 {
            Some(Termination::SeventyFiveMoves)
        } else if self.repetitions() >= 5 {
            Some(Termination::FivefoldRepetition)
        } else {
            None
        }
    }

    /// The draws the player to move may claim in the current position.
    pub fn claimable(&self) -> Vec<Claim> {
        let mut claims = Vec::new();
        if self.repetitions() >= 3 || self.announce_threefold() {
            claims.push(Claim::ThreefoldRepetition);
        }
        if self.fifty_claimable() {
            claims.push(Claim::FiftyMoves);
        }
        claims
    }

    /// The side that made the last move.
    pub fn last_mover(&self) -> Color {
        !self.pos.turn()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fen::parse_fen;
    use crate::core::{Role, Square};

    /// Random games that favour reversible moves (so positions repeat, and some histories pass
    /// [`LONG_HISTORY`]): at every ply the repetition count, scanned or counted in the table, equals a plain
    /// count over the history.
    #[test]
    fn repetitions_equal_a_count_over_the_history() {
        let mut rng = crate::core::random_games::Xorshift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next_u64();
        let (mut repeated, mut long) = (0, 0);
        for _ in 0..300 {
            let mut game = GameState::new(Position::new());
            for _ in 0..400 {
                let moves = game.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                let reversible: Vec<&Move> = moves.iter().filter(|m| !m.is_zeroing()).collect();
                let m = if !reversible.is_empty() && next() % 16 != 0 {
                    *reversible[(next() % reversible.len() as u64) as usize]
                } else {
                    moves[(next() % moves.len() as u64) as usize]
                };
                game.play_unchecked(m);
                let (current, _) = *game.history.last().unwrap();
                let counted = game.history.iter().filter(|&&(h, _)| h == current).count();
                assert_eq!(game.repetitions(), counted);
                repeated += usize::from(counted > 1);
                long += usize::from(game.history.len() > LONG_HISTORY);
            }
        }
        // The games went through both ways of counting, and positions did repeat.
        assert!(repeated > 200 && long > 200, "{repeated} {long}");
    }

    fn find(pos: &Position, from: &str, to: &str) -> Move {
        let (from, to): (Square, Square) = (from.parse().unwrap(), to.parse().unwrap());
        *pos.legal_moves()
            .iter()
            .find(|m| m.from == from && m.to == to && m.promotion.is_none_or(|p| p == Role::Queen))
            .expect("legal move")
    }

    fn play(state: &mut GameState, moves: &str) {
        for uci in moves.split_whitespace() {
            let m = find(state.position(), &uci[..2], &uci[2..4]);
            state.play(m).unwrap();
        }
    }

    #[test]
    fn knight_shuffle_gives_threefold_then_fivefold() {
        let mut state = GameState::new(Position::new());
        play(&mut state, "g1f3 g8f6 f3g1 f6g8");
        // The start position has occurred twice; 3. Nf3 would make the position after 1. Nf3 occur only twice.
        assert_eq!(state.repetitions(), 2);
        assert!(state.claimable().is_empty());
        play(&mut state, "g1f3");
        assert!(state.claimable().is_empty());
        play(&mut state, "g8f6 f3g1");
        // Black may announce ...Ng8, producing the start position for the third time.
        assert_eq!(state.claimable(), vec![Claim::ThreefoldRepetition]);
        assert_eq!(state.first_claim().map(|c| c.ply), Some(7));
        play(&mut state, "f6g8");
        assert_eq!(state.repetitions(), 3);
        play(&mut state, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(state.repetitions(), 5);
        assert_eq!(state.termination(), Some(Termination::FivefoldRepetition));
        assert_eq!(state.ended_by_rule().map(|e| e.ply), Some(16));
    }

    #[test]
    fn moves_only_plays_the_same_moves_without_the_history() {
        let shuffle =
            "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
        let mut full = GameState::new(Position::new());
        let mut bare = GameState::new(Position::new()).moves_only();
        play(&mut full, shuffle);
        play(&mut bare, shuffle);
        bare.play_null();
        full.play_null();
        assert_eq!(bare.position(), full.position());
        assert_eq!(bare.ply(), 17);
        assert_eq!(full.ended_by_rule().map(|e| e.ply), Some(16));
        assert_eq!(bare.ended_by_rule(), None);
        assert_eq!(bare.first_claim(), None);
        assert_eq!(bare.repetitions(), 1);
        assert!(bare.claimable().is_empty());
        // The final position's own verdicts still hold.
        let mut mate = GameState::new(Position::new()).moves_only();
        play(&mut mate, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(mate.termination(), Some(Termination::Checkmate));
    }

    #[test]
    fn long_reversible_runs_count_repetitions_as_the_scan_does() {
        // Kings and rooks wander (no pawn, no capture, no castling right) for far longer than LONG_HISTORY
        // positions; at every ply the counted repetitions and the announced-threefold test must agree with
        // the scans.
        let mut state = GameState::new(parse_fen("4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1").unwrap());
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut announced = 0;
        for _ in 0..2000 {
            let moves: Vec<Move> = state
                .position()
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| m.capture.is_none())
                .collect();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Mostly shuffle back and forth between few squares, so positions recur often.
            let m = moves[(seed % moves.len().min(3) as u64) as usize];
            state.play_unchecked(m);
            assert_eq!(state.repetitions(), state.scan_repetitions());
            let them = !state.position().turn();
            if state.twice[them.index()] && state.position().ep_square().is_none() {
                let by_scan = state.announce_by_scan();
                if let Some(counts) = &state.counts {
                    assert_eq!(state.announce_by_moves(counts), by_scan);
                }
                announced += usize::from(by_scan);
            }
        }
        assert!(state.counts.is_some(), "the run must outgrow the scan");
        assert!(announced > 10, "the run must test announcements both ways");
    }

    #[test]
    fn an_announced_repetition_needs_a_move_that_can_be_played() {
        // The rook stands on a7 with Black to move (king on h8) twice, then comes back round to a2: Ra7 would
        // make that position occur a third time, unless the pawn on a4 stands in the way. No other position
        // has occurred twice.
        let moves = "a1b1 h8g8 b1b7 g8h8 b7a7 h8g8 a7a6 g8h8 a6a7 h8g8 a7a5 g8h8 a5b5 h8g8 b5b1 g8h8 \
                     b1a1 h8g8 a1a2 g8h8";
        for (fen, claim) in [
            (
                "7k/8/8/8/8/8/8/R6K w - - 0 1",
                vec![Claim::ThreefoldRepetition],
            ),
            ("7k/8/8/8/P7/8/8/R6K w - - 0 1", vec![]),
        ] {
            let mut state = GameState::new(parse_fen(fen).unwrap());
            play(&mut state, moves);
            assert_eq!(state.repetitions(), 1, "{fen}");
            assert_eq!(state.claimable(), claim, "{fen}");
        }
    }

    #[test]
    fn lost_castling_rights_make_positions_differ() {
        let pos = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let mut state = GameState::new(pos);
        // The rook goes and comes back: the pieces stand as before but White has lost a right.
        play(&mut state, "h1h2 e8d8 h2h1 d8e8 h1h2 e8d8 h2h1 d8e8");
        assert_eq!(
            state.repetitions(),
            2,
            "the first position had the h1 right, so it does not count"
        );
    }

    #[test]
    fn checkmate_and_stalemate() {
        let mate = parse_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            GameState::new(mate).termination(),
            Some(Termination::Checkmate)
        );
        let stale = parse_fen("7k/8/6QK/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            GameState::new(stale).termination(),
            Some(Termination::Stalemate)
        );
    }

    #[test]
    fn fifty_move_claim_counts_the_announced_move() {
        let pos = parse_fen("8/8/4k3/8/8/4K3/8/R7 w - - 99 80").unwrap();
        let state = GameState::new(pos);
        assert_eq!(state.claimable(), vec![Claim::FiftyMoves]);
        let pos = parse_fen("8/8/4k3/8/8/4K3/8/R7 w - - 98 80").unwrap();
        assert!(GameState::new(pos).claimable().is_empty());
    }

    #[test]
    fn seventy_five_moves_end_the_game() {
        let pos = parse_fen("8/8/4k3/8/8/4K3/8/R7 w - - 149 120").unwrap();
        let mut state = GameState::new(pos);
        assert_eq!(state.ended_by_rule(), None);
        play(&mut state, "a1a2");
        assert_eq!(state.termination(), Some(Termination::SeventyFiveMoves));
        assert_eq!(
            state.ended_by_rule().map(|e| (e.ply, e.what)),
            Some((1, Termination::SeventyFiveMoves))
        );
    }

    #[test]
    fn insufficient_material_variants() {
        for (fen, dead) in [
            ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/4K3/8/6N1 w - - 0 1", true),
            ("8/8/4k3/8/8/4K3/8/6B1 w - - 0 1", true),
            ("8/8/4k3/3b4/8/4K3/8/6B1 w - - 0 1", false), // opposite-coloured bishops can mate
            ("8/8/4k3/4b3/8/4K3/8/6B1 w - - 0 1", true),  // same-coloured bishops cannot
            ("8/8/4k3/8/8/4K3/8/5NN1 w - - 0 1", false),
            ("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", false),
        ] {
            let pos = parse_fen(fen).unwrap();
            assert_eq!(pos.is_insufficient_material(), dead, "{fen}");
        }
        // One-sided (6.9): a king and knight cannot mate a king with a queen, but can mate one with a rook
        // (the rook can block its own king's flight).
        let kn_q = parse_fen("8/8/4k3/8/3q4/4K3/8/6N1 w - - 0 1").unwrap();
        assert!(kn_q.has_insufficient_material(Color::White));
        let kn_r = parse_fen("8/8/4k3/8/3r4/4K3/8/6N1 w - - 0 1").unwrap();
        assert!(!kn_r.has_insufficient_material(Color::White));
    }
}
