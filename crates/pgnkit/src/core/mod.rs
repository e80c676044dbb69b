//! The rules of chess: board representation, attacks, legal moves, positions, FEN and game outcomes.

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod decimal;
pub mod fen;
mod movegen;
mod moves;
mod outcome;
pub mod polyglot;
mod position;
mod types;
pub mod zobrist;

#[cfg(test)]
pub(crate) mod random_games;

pub use bitboard::Bitboard;
pub use board::Board;
pub(crate) use castling::CastlingObstacle;
pub use castling::{Castling, CastlingSide};
pub use movegen::{perft, perft_divide};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use outcome::{AtPly, Claim, GameState, Termination};
pub use position::{
    CastlingMode, CastlingProblem, EnPassantProblem, IllegalMove, Position, PositionError,
    PositionKey, Setup,
};
pub use types::{ByColor, Color, File, Piece, Rank, Role, Square};
