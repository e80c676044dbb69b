//! Texts as Spark and other Arrow producers hand them over: a column of binary or string values, read as
//! bytes where they lie (no copy into Python objects, no UTF-8 check: real files hold Windows-1252 games);
//! the records Spark's text source cuts at each `\n[Event ` put back together. Compressed file contents
//! (gzip, zstd) are decompressed by the run, as files are.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::make_array;
use arrow_pyarrow::FromPyArrowUnchecked;
use arrow_schema::DataType;
use pgnkit_jobs::run::{Source, Sources};
use pyo3::prelude::*;

use crate::Failure;

/// The separator Spark's text source is given (`lineSep`) to cut PGN files into games: removed from the
/// records, put back here.
pub(crate) const GAME_START: &[u8] = b"\n[Event ";

/// One column of texts, its values as bytes whatever its Arrow type of strings or bytes.
pub(crate) struct Column(arrow_array::ArrayRef);

impl Column {
    /// The values, `None` for a null.
    pub(crate) fn values(&self) -> Box<dyn Iterator<Item = Option<&[u8]>> + '_> {
        let array = self.0.as_ref();
        match array.data_type() {
            DataType::LargeBinary => Box::new(array.as_binary::<i64>().iter()),
            DataType::BinaryView => Box::new(array.as_binary_view().iter()),
            _ => Box::new(array.as_binary::<i32>().iter()),
        }
    }
}

impl<'py> FromPyObject<'_, 'py> for Column {
    type Error = PyErr;

    fn extract(value: Borrowed<'_, 'py, PyAny>) -> PyResult<Column> {
        // SAFETY: the data is only read once `validate_full` below has checked it, as bytes: its buffers and
        // offsets (or views) against its length. The one invariant not checked, that string values are UTF-8,
        // is never relied on: the strings are retyped as bytes first, and no `&str` is made of them.
        let data = unsafe { arrow_data::ArrayData::from_pyarrow_bound_unchecked(&value)? };
        let as_bytes = match data.data_type() {
            DataType::Binary | DataType::Utf8 => DataType::Binary,
            DataType::LargeBinary | DataType::LargeUtf8 => DataType::LargeBinary,
            DataType::BinaryView | DataType::Utf8View => DataType::BinaryView,
            DataType::Null => DataType::Binary,
            other => {
                return Err(Failure::usage(format!(
                    "a column of PGN texts is of strings or bytes, not {other}"
                ))
                .into());
            }
        };
        let data = if *data.data_type() == DataType::Null {
            arrow_data::ArrayData::new_null(&DataType::Binary, data.len())
        } else {
            data.into_builder()
                .data_type(as_bytes)
                .build()
                .map_err(|e| {
                    Failure::usage(format!(
                        "a column of PGN texts that is no valid Arrow array: {e}"
                    ))
                })?
        };
        data.validate_full().map_err(|e| {
            Failure::usage(format!(
                "a column of PGN texts that is no valid Arrow array: {e}"
            ))
        })?;
        Ok(Column(make_array(data)))
    }
}

/// Spark's records put back into the texts they were cut from. A record that followed a separator starts
/// with the rest of its Event tag, the tag's value (`"Rated Blitz game"]`, after any blanks): it gets its
/// `[Event ` back and joins the text before it, so the games come out of exactly the file's bytes. Any other
/// record is a file's start (its first game, or whatever stands before that: a `; comment`, blank lines, a
/// byte order mark), and starts a new text, read as a file's start is. Nulls are no records; an empty record
/// (a file that starts with the separator) starts a text like any file's start.
pub(crate) fn rejoin<'a>(records: impl IntoIterator<Item = Option<&'a [u8]>>) -> Vec<Vec<u8>> {
    let mut texts: Vec<Vec<u8>> = Vec::new();
    for record in records.into_iter().flatten() {
        let value = record.iter().position(|&b| b != b' ' && b != b'\t');
        let follows_separator = value.is_some_and(|at| record[at] == b'"');
        match texts.last_mut() {
            Some(text) if follows_separator => {
                text.extend_from_slice(GAME_START);
                text.extend_from_slice(record);
            }
            _ if follows_separator => {
                let mut text = GAME_START[1..].to_vec();
                text.extend_from_slice(record);
                texts.push(text);
            }
            _ => texts.push(record.to_vec()),
        }
    }
    texts
}

/// The texts of Spark's records (a column, as its chunks: a text may go on from one chunk to the next) as
/// the sources of a run ([`rejoin`]), named `name` in the `file` column, and `name:2`, `name:3`... after each
/// further file's start among them.
pub(crate) fn record_sources(records: &[Column], name: &str) -> Sources {
    let texts = rejoin(records.iter().flat_map(Column::values));
    let list = texts
        .into_iter()
        .enumerate()
        .map(|(i, text)| Source::Text {
            name: match i {
                0 => name.to_owned(),
                i => format!("{name}:{}", i + 1),
            },
            text: Arc::from(text),
        })
        .collect();
    Sources::new(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(records: &[Option<&str>]) -> Vec<String> {
        rejoin(records.iter().map(|r| r.map(str::as_bytes)))
            .into_iter()
            .map(|t| String::from_utf8(t).unwrap())
            .collect()
    }

    /// What Spark's text source makes of a file: cut at each separator, the separator left out.
    fn cut(file: &str) -> Vec<Option<&str>> {
        file.split("\n[Event ").map(Some).collect()
    }

    const TWO: &str = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";

    #[test]
    fn records_give_back_the_file() {
        assert_eq!(texts(&cut(TWO)), [TWO]);
        let opened = format!("; from https://theweekinchess.com/\n\n{TWO}");
        assert_eq!(texts(&cut(&opened)), [opened]);
        let bom = format!("\u{feff}{TWO}");
        assert_eq!(texts(&cut(&bom)), [bom]);
    }

    #[test]
    fn each_file_start_begins_a_text() {
        let blank = format!("\n\n{TWO}");
        let mut records = cut(TWO);
        records.extend(cut(&blank));
        assert_eq!(texts(&records), [TWO.to_owned(), blank]);
    }

    #[test]
    fn a_batch_that_starts_after_a_separator_gets_its_tag_back() {
        let records = cut(TWO);
        assert_eq!(texts(&records[1..]), ["[Event \"b\"]\n\n1. d4 *\n"]);
        // A blank between the tag's name and its value is the value's.
        assert_eq!(
            texts(&[Some(" \t\"c\"]\n1. c4 *")]),
            ["[Event  \t\"c\"]\n1. c4 *"]
        );
    }

    #[test]
    fn nulls_are_skipped_and_empty_records_start_texts() {
        let file = format!("\n{TWO}");
        let mut records = vec![None];
        records.extend(cut(&file));
        records.insert(2, None);
        // The file starts with the separator: its first record is empty.
        assert_eq!(records[1], Some(""));
        assert_eq!(texts(&records), [file]);
        assert!(texts(&[None, None]).is_empty());
        assert_eq!(texts(&[Some(""), Some("")]), ["", ""]);
    }
}
