//! The jobs pgnkit runs over many games: validate, convert, stats, and the machinery they share (inputs,
//! decompression, the parallel ordered pipeline). Pure library code: no clap, no terminal handling.

pub mod bulk;
pub mod convert;
pub mod input;
pub mod pipeline;
pub mod replay;
pub mod stats;
pub mod validate;
