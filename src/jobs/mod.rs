//! The jobs pgnkit runs over many games: validate, convert, stats, select, and the machinery they share (inputs,
//! decompression, the parallel ordered pipeline). Pure library code: no clap, no terminal handling.

pub(crate) mod bulk;
pub(crate) mod convert;
pub(crate) mod input;
pub(crate) mod moves;
pub(crate) mod pipeline;
pub(crate) mod select;
pub(crate) mod stats;
pub(crate) mod validate;
