//! Text helpers: decoding (UTF-8 or Windows-1252), tag-value unescaping, line/column positions as
//! editors count them.

use std::borrow::Cow;
use std::fmt;

use memchr::{memchr, memchr2_iter, memmem};

use super::model::{Encoding, Game};

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
pub fn cp1252_char(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_HIGH[(b - 0x80) as usize],
        _ => b as char,
    }
}

/// Which encoding a game's bytes are in: UTF-8 when valid, Windows-1252 otherwise.
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
pub fn tag_value(raw: &[u8], encoding: Encoding) -> Cow<'_, str> {
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

/// A 1-based line and column, as editors count: lines across the whole file (LF, CRLF and a lone CR
/// each end a line), columns in characters of the decoded line (a tab is one; a BOM is none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// Line, from 1.
    pub line: u64,
    /// Column, from 1.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Number of line breaks in `bytes` (LF, CRLF and lone CR each count once). A CR at the very end counts
/// as a break even if an LF follows in the next buffer; game and batch boundaries never fall there.
pub fn count_line_breaks(bytes: &[u8]) -> u64 {
    let lf = count_byte(bytes, b'\n') as u64;
    if memchr(b'\r', bytes).is_none() {
        return lf;
    }
    let lone_cr = memchr::memchr_iter(b'\r', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
        .count() as u64;
    lf + lone_cr
}

/// Occurrences of `needle` (chunks summed in `u8`, which the compiler vectorises well).
fn count_byte(bytes: &[u8], needle: u8) -> usize {
    bytes
        .chunks(255)
        .map(|c| c.iter().map(|&b| (b == needle) as u8).sum::<u8>() as usize)
        .sum()
}

fn count_continuation(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|c| c.iter().map(|&b| ((b & 0xC0) == 0x80) as u8).sum::<u8>() as usize)
        .sum()
}

/// Characters in `bytes` when decoded: UTF-8 characters if valid UTF-8 (BOMs not counted), else one per byte.
pub fn count_chars(bytes: &[u8]) -> u32 {
    if bytes.is_ascii() {
        return bytes.len() as u32;
    }
    if std::str::from_utf8(bytes).is_ok() {
        count_chars_in(bytes, Encoding::Utf8)
    } else {
        bytes.len() as u32
    }
}

fn count_chars_in(bytes: &[u8], encoding: Encoding) -> u32 {
    match encoding {
        Encoding::Cp1252 => bytes.len() as u32,
        Encoding::Utf8 => {
            let chars = bytes.len() - count_continuation(bytes);
            let boms = memmem::find_iter(bytes, super::lex::BOM).count();
            (chars - boms) as u32
        }
    }
}

/// A game's encoding and the line and column just after it (the last line's characters counted in the
/// game's encoding, as [`Game::location`] counts them), in one pass over the bytes for the usual case.
pub(crate) fn encoding_and_end(bytes: &[u8], start: Location) -> (Encoding, Location) {
    let encoding = if bytes.is_ascii() || std::str::from_utf8(bytes).is_ok() {
        Encoding::Utf8
    } else {
        Encoding::Cp1252
    };
    let breaks = if memchr(b'\r', bytes).is_none() {
        count_byte(bytes, b'\n') as u64
    } else {
        count_line_breaks(bytes)
    };
    let end = if breaks == 0 {
        Location {
            line: start.line,
            column: start.column + count_chars_in(bytes, encoding),
        }
    } else {
        Location {
            line: start.line + breaks,
            column: 1 + count_chars_in(&bytes[last_line_start(bytes)..], encoding),
        }
    };
    (encoding, end)
}

/// Line and column just after `bytes` when they end with a line break (column 1 of the next line, whatever
/// the encodings of the games in them); `None` otherwise. One pass over the bytes for all the games of a
/// batch: a line break never straddles two games, as each game starts at a byte that is no blank.
pub(crate) fn end_after_line_break(bytes: &[u8], start: Location) -> Option<Location> {
    if !matches!(bytes.last(), Some(b'\n' | b'\r')) {
        return None;
    }
    let breaks = if memchr(b'\r', bytes).is_none() {
        count_byte(bytes, b'\n') as u64
    } else {
        count_line_breaks(bytes)
    };
    Some(Location {
        line: start.line + breaks,
        column: 1,
    })
}

/// Line and column just after `bytes`, which start at `start` (used to carry positions from game to
/// game and from batch to batch). The last partial line's characters count as UTF-8 characters when
/// they are valid UTF-8, else one per byte.
pub fn advance(start: Location, bytes: &[u8]) -> Location {
    let breaks = count_line_breaks(bytes);
    if breaks == 0 {
        return Location {
            line: start.line,
            column: start.column + count_chars(bytes),
        };
    }
    let last = last_line_start(bytes);
    Location {
        line: start.line + breaks,
        column: 1 + count_chars(&bytes[last..]),
    }
}

fn last_line_start(bytes: &[u8]) -> usize {
    match memchr::memrchr2(b'\n', b'\r', bytes) {
        Some(i) => i + 1,
        None => 0,
    }
}

pub(crate) fn locate(game: &Game<'_>, offset: usize) -> Location {
    let offset = offset.min(game.source.len());
    let before = &game.source[..offset];
    let breaks = count_line_breaks(before);
    if breaks == 0 {
        return Location {
            line: game.line,
            column: game.column + count_chars_in(before, game.encoding),
        };
    }
    let last = last_line_start(before);
    Location {
        line: game.line + breaks,
        column: 1 + count_chars_in(&before[last..], game.encoding),
    }
}

/// Line and column of many offsets of one game, looked up in (mostly) increasing order: each look-up counts
/// only the bytes since the previous one, so locating every problem of a game costs one pass over it (a line
/// holding 100,000 problems was scanned from its start once per problem). A look-up behind the previous one
/// starts again from the game's start.
#[derive(Debug)]
pub struct Locator<'g, 'a> {
    game: &'g Game<'a>,
    offset: usize,
    line_start: usize,
    location: Location,
}

impl<'g, 'a> Locator<'g, 'a> {
    /// A locator at the start of `game`.
    pub fn new(game: &'g Game<'a>) -> Self {
        Locator {
            game,
            offset: 0,
            line_start: 0,
            location: Location {
                line: game.line,
                column: game.column,
            },
        }
    }

    /// Line and column of an offset in the game's source, as [`Game::location`] gives them.
    pub fn locate(&mut self, offset: usize) -> Location {
        let src = self.game.source;
        let offset = offset.min(src.len());
        if offset < self.offset {
            *self = Locator::new(self.game);
        }
        let mut from = self.offset;
        // The previous offset fell between CR and LF: that line break is counted already.
        if from > 0 && from < offset && src[from - 1] == b'\r' && src[from] == b'\n' {
            from += 1;
            self.line_start = from;
        }
        let between = &src[from..offset];
        let breaks = count_line_breaks(between);
        if breaks == 0 {
            self.location.column += count_chars_in(between, self.game.encoding);
        } else {
            let start = from + last_line_start(between);
            self.location = Location {
                line: self.location.line + breaks,
                column: 1 + count_chars_in(&src[start..offset], self.game.encoding),
            };
            self.line_start = start;
        }
        self.offset = offset;
        self.location
    }

    /// Where the line of the last located offset starts in the game's source (0 on the game's first line,
    /// which may start mid-line in the file).
    pub fn line_start(&self) -> usize {
        self.line_start
    }
}

/// Line starts of one game, for many look-ups (binary search instead of a scan per look-up).
#[derive(Debug)]
pub struct LineMap<'g, 'a> {
    game: &'g Game<'a>,
    starts: Vec<u32>,
}

impl<'g, 'a> LineMap<'g, 'a> {
    pub(crate) fn new(game: &'g Game<'a>) -> Self {
        let src = game.source;
        let mut starts = vec![0u32];
        for i in memchr2_iter(b'\n', b'\r', src) {
            if src[i] == b'\r' && src.get(i + 1) == Some(&b'\n') {
                continue;
            }
            starts.push((i + 1) as u32);
        }
        LineMap { game, starts }
    }

    /// Line and column of an offset in the game's source.
    pub fn location(&self, offset: u32) -> Location {
        let offset = offset.min(self.game.source.len() as u32);
        let k = self.starts.partition_point(|&s| s <= offset) - 1;
        let line_start = self.starts[k] as usize;
        let chars = count_chars_in(
            &self.game.source[line_start..offset as usize],
            self.game.encoding,
        );
        if k == 0 {
            Location {
                line: self.game.line,
                column: self.game.column + chars,
            }
        } else {
            Location {
                line: self.game.line + k as u64,
                column: 1 + chars,
            }
        }
    }
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

    #[test]
    fn the_locator_agrees_with_location_forwards_and_backwards() {
        let text = "x 1-0 [Event \"é\"]\r\n\r\n1. e4 {caf\u{e9}\rx}\n e5 (1... c5\r\n) *\n\n[Event \"b\"] 1. d4 *";
        for game in crate::pgn::parse_all(text.as_bytes()) {
            let n = game.source.len();
            let mut locator = game.locator();
            // every offset forwards, then a walk with steps back
            let order: Vec<usize> = (0..=n).chain((0..=n).rev().step_by(3)).collect();
            for offset in order {
                assert_eq!(
                    locator.locate(offset),
                    game.location(offset as u32),
                    "offset {offset} of game {}",
                    game.index
                );
                let start = locator.line_start();
                assert!(start <= offset);
                assert!(!game.source[start..offset].contains(&b'\n'));
            }
        }
    }

    #[test]
    fn line_breaks_and_columns() {
        for s in [
            &b""[..],
            b"a",
            b"ab\ncd",
            b"x\r\ny\rz\n",
            "é\nàb".as_bytes(),
            b"\xe9\n",
        ] {
            let start = Location { line: 3, column: 5 };
            let enc = detect_encoding(s);
            assert_eq!(encoding_and_end(s, start), (enc, advance(start, s)));
        }
        assert_eq!(count_line_breaks(b"a\nb\r\nc\rd"), 3);
        assert_eq!(count_chars("é♘\u{FEFF}x".as_bytes()), 3);
        assert_eq!(count_chars(b"\xe9x"), 2);
        let l = advance(Location { line: 1, column: 1 }, "ab\ncé".as_bytes());
        assert_eq!(l, Location { line: 2, column: 3 });
        let l = advance(Location { line: 4, column: 7 }, b"xyz");
        assert_eq!(
            l,
            Location {
                line: 4,
                column: 10
            }
        );
    }
}
