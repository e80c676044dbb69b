//! Text of a PGN file: which encoding a run of bytes is in (UTF-8, else Windows-1252), decoding it, and
//! undoing the escapes of tag values and comments.
//!
//! The encoding decision is made here once ([`detect_encoding`]): for a whole game when it is read, for one
//! field of a game that is not all UTF-8 ([`super::Game::field_encoding`]), and for columns.

use std::borrow::Cow;

use memchr::memchr;

/// The UTF-8 byte-order mark. A reader skips it at the start of the input; elsewhere (files joined with
/// `cat`) it separates tokens like a space and counts as no column.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How bytes are decoded: UTF-8 when they are valid UTF-8, else Windows-1252 (see [`detect_encoding`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Valid UTF-8 (pure ASCII included).
    #[default]
    Utf8,
    /// Not valid UTF-8: read as Windows-1252 (a superset of the printable Latin-1 the PGN standard names).
    Cp1252,
}

/// Windows-1252 code points of bytes 0x80..=0x9F (the five unassigned bytes map to the C1 control of the
/// same value, as WHATWG's decoder does); bytes 0xA0..=0xFF are Latin-1.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// One Windows-1252 byte as a character.
#[inline]
fn cp1252_char(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_HIGH[(b - 0x80) as usize],
        _ => b as char,
    }
}

/// Which encoding bytes are in: UTF-8 when valid, Windows-1252 otherwise. Files are pasted together from
/// sources in different encodings, so the question is asked of each game, and in a game that is not all
/// UTF-8, of each field.
///
/// ```
/// use pgnkit::pgn::{Encoding, detect_encoding};
/// assert_eq!(detect_encoding("Réti".as_bytes()), Encoding::Utf8);
/// assert_eq!(detect_encoding(b"R\xe9ti"), Encoding::Cp1252);
/// ```
#[inline]
pub fn detect_encoding(bytes: &[u8]) -> Encoding {
    if bytes.is_ascii() || std::str::from_utf8(bytes).is_ok() {
        Encoding::Utf8
    } else {
        Encoding::Cp1252
    }
}

/// Decodes bytes (borrowed when UTF-8). Bytes of a UTF-8 game are valid UTF-8 by construction, but a
/// span cut inside a character falls back to a lossy decoding rather than panicking.
pub fn decode(bytes: &[u8], encoding: Encoding) -> Cow<'_, str> {
    match encoding {
        // The strict check has an ASCII fast path the lossy one lacks; a game marked UTF-8 passes it.
        Encoding::Utf8 => match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(bytes),
        },
        Encoding::Cp1252 => {
            if bytes.is_ascii() {
                Cow::Borrowed(std::str::from_utf8(bytes).unwrap_or_default())
            } else {
                Cow::Owned(bytes.iter().map(|&b| cp1252_char(b)).collect())
            }
        }
    }
}

/// Undoes a tag value's escapes (`\"` → `"`, `\\` → `\`; any other backslash is kept) and decodes.
///
/// ```
/// use pgnkit::pgn::{Encoding, tag_value};
/// assert_eq!(tag_value(br#"Smith, \"Jack\" \\ co"#, Encoding::Utf8), r#"Smith, "Jack" \ co"#);
/// assert_eq!(tag_value(b"M\xfcller", Encoding::Cp1252), "Müller");
/// ```
pub fn tag_value(raw: &[u8], encoding: Encoding) -> Cow<'_, str> {
    // Nearly every value is a few ASCII bytes without a backslash: one pass over it answers both questions,
    // where a search for `\` and then the UTF-8 check were two calls (validate reads eight tags a game).
    if !crate::buffer::contains_any(raw, [b'\\'], true) {
        // SAFETY: ASCII bytes are UTF-8, and read the same in Windows-1252.
        return Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(raw) });
    }
    if memchr(b'\\', raw).is_none() {
        return decode(raw, encoding);
    }
    Cow::Owned(decode(&unescape(raw, b'"'), encoding).into_owned())
}

/// Undoes kokopu-style comment escapes (`\}` → `}`, `\\` → `\`); other backslashes are kept.
/// Comment tokens keep their text verbatim; call this only when the producer is known to escape.
pub fn unescape_comment(raw: &[u8]) -> Cow<'_, [u8]> {
    if memchr(b'\\', raw).is_none() {
        return Cow::Borrowed(raw);
    }
    Cow::Owned(unescape(raw, b'}'))
}

fn unescape(raw: &[u8], quote: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if b == b'\\' && i + 1 < raw.len() && (raw[i + 1] == b'\\' || raw[i + 1] == quote) {
            out.push(raw[i + 1]);
            i += 2;
        } else {
            out.push(b);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp1252() {
        assert_eq!(decode(b"caf\xe9 \x80", Encoding::Cp1252), "café €");
        assert_eq!(detect_encoding("café".as_bytes()), Encoding::Utf8);
        assert_eq!(detect_encoding(b"caf\xe9"), Encoding::Cp1252);
    }

    /// What `tag_value` gave before its ASCII shortcut: the escapes undone, then decoded.
    fn tag_value_in_general(raw: &[u8], encoding: Encoding) -> Cow<'_, str> {
        if memchr(b'\\', raw).is_none() {
            return decode(raw, encoding);
        }
        Cow::Owned(decode(&unescape(raw, b'"'), encoding).into_owned())
    }

    #[test]
    fn the_ascii_shortcut_reads_tag_values_as_the_general_path_does() {
        // ASCII letters, the escapes' bytes, a Latin-1 byte, the two bytes of a UTF-8 `é`, a C1 byte.
        let pieces: [&[u8]; 8] = [
            b"a",
            b" ",
            b"\\",
            b"\"",
            b"\xe9",
            b"\xc3\xa9",
            b"\x80",
            b"\x7f",
        ];
        for len in 0..=4 {
            crate::pgn::for_every_text(&pieces, len, |raw| {
                for encoding in [Encoding::Utf8, Encoding::Cp1252] {
                    assert_eq!(
                        tag_value(raw, encoding),
                        tag_value_in_general(raw, encoding),
                        "{raw:?} {encoding:?}"
                    );
                }
            });
        }
    }

    #[test]
    fn unescaping() {
        assert_eq!(
            tag_value(br#"a \"b\" \\ \x"#, Encoding::Utf8),
            r#"a "b" \ \x"#
        );
        assert_eq!(
            unescape_comment(br"ab{cd\}ef\\ghij \\\\\\").as_ref(),
            br"ab{cd}ef\ghij \\\"
        );
    }
}
