//! `--format html`: a self-contained page of the tree's positions.

use std::io::Write;

use super::{Tree, TreeWritten};
use crate::messages::Locale;
use crate::run::JobError;

pub(crate) fn write(
    tree: Tree,
    out: &mut dyn Write,
    _locale: Locale,
) -> Result<TreeWritten, JobError> {
    let _ = (tree, out);
    Err(JobError::Output(std::io::Error::other(
        "html: being written",
    )))
}
