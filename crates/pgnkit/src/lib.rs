//! pgnkit: the rules of chess to the letter of the FIDE Laws, and a PGN reader and writer with located
//! diagnostics.
//!
//! Layers, lowest first (a layer never imports a higher one): [`core`] (the rules: squares, positions, move
//! generation, FEN, outcomes), [`notation`] (SAN/LAN/UCI, piece letters in many languages), [`pgn`] (reading
//! and writing PGN), [`openings`] (opening names from the moves), [`walk`] (replaying a parsed game move by move with a [`walk::Visitor`]); [`explain`] writes
//! the reasons for people in English or French. [`buffer`] is a utility of the writers.

#![warn(missing_docs)]

pub mod buffer;
pub mod core;

pub use crate::core::{
    Bitboard, Board, CastlingMode, Color, File, Move, MoveKind, MoveList, Piece, Position, Rank,
    Role, Setup, Square,
};
pub mod explain;
pub mod notation;
pub mod openings;
pub mod pgn;
pub mod repair;
pub mod walk;

#[cfg(feature = "serde")]
mod serde_impls;

/// The README's library example, run as a doc test so that it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;
