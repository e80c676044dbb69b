//! pgnkit: read, validate, convert and summarise chess PGN and FEN files, to the letter of the FIDE Laws.
//!
//! Layers, lowest first (a layer never imports a higher one): [`core`] (the rules), `notation`
//! (SAN/LAN/UCI, piece letters), `pgn` (reading and writing), `jobs` (validate, convert, stats).

pub mod core;

pub use crate::core::{
    Bitboard, Board, CastlingMode, Color, File, Move, MoveKind, MoveList, Piece, Position, Rank,
    Role, Setup, Square,
};
pub mod jobs;
pub mod notation;
pub mod pgn;
