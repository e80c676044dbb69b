//! Where a byte is, as editors count: 1-based lines across the whole input (LF, CRLF and a lone CR each end a
//! line) and columns in characters of the decoded line. [`advance`] carries a position over bytes (from game
//! to game, from block to block); [`Locator`] (offsets in increasing order, one pass) and [`LineMap`] (any
//! order, a binary search) locate many offsets of one run of bytes, such as a game's
//! [`Game::source`](crate::pgn::Game::source).

use std::fmt;

use memchr::{memchr, memchr2_iter, memmem};

use super::text::{BOM, Encoding, detect_encoding};

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
    count_chars_in(bytes, detect_encoding(bytes))
}

fn count_chars_in(bytes: &[u8], encoding: Encoding) -> u32 {
    match encoding {
        Encoding::Cp1252 => bytes.len() as u32,
        Encoding::Utf8 => {
            let chars = bytes.len() - count_continuation(bytes);
            let boms = memmem::find_iter(bytes, BOM).count();
            (chars - boms) as u32
        }
    }
}

/// A game's encoding and the line and column just after it (the last line's characters counted in the
/// game's encoding, as [`Game::location`](crate::pgn::Game::location) counts them), in one pass over the bytes for the usual case.
pub(crate) fn encoding_and_end(bytes: &[u8], start: Location) -> (Encoding, Location) {
    let scan = LineScan::of(bytes);
    let encoding = if scan.ascii {
        Encoding::Utf8
    } else {
        detect_encoding(bytes)
    };
    let breaks = if scan.carriage_return {
        count_line_breaks(bytes)
    } else {
        scan.line_feeds
    };
    let chars = |line: &[u8]| {
        if scan.ascii {
            line.len() as u32
        } else {
            count_chars_in(line, encoding)
        }
    };
    let end = if breaks == 0 {
        Location {
            line: start.line,
            column: start.column + chars(bytes),
        }
    } else {
        Location {
            line: start.line + breaks,
            column: 1 + chars(&bytes[last_line_start(bytes)..]),
        }
    };
    (encoding, end)
}

/// What one pass over a game's bytes tells of its lines: most games are ASCII without carriage returns,
/// and the three questions cost little more together than one of them alone.
#[derive(Debug, PartialEq, Eq)]
struct LineScan {
    line_feeds: u64,
    carriage_return: bool,
    ascii: bool,
}

impl LineScan {
    fn of(bytes: &[u8]) -> LineScan {
        let (mut line_feeds, mut carriage_return, mut all) = (0u64, false, 0u8);
        let mut rest = bytes;
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_add_epi64, _mm_cmpeq_epi8, _mm_cvtsi128_si64, _mm_loadu_si128,
                _mm_movemask_epi8, _mm_or_si128, _mm_sad_epu8, _mm_set1_epi8, _mm_setzero_si128,
                _mm_sub_epi8, _mm_unpackhi_epi64,
            };
            let mut at = 0;
            // SAFETY: SSE2 is part of every x86_64 target; every load reads 16 bytes inside `bytes` and has no
            // alignment requirement.
            unsafe {
                let (line_feed, return_) = (_mm_set1_epi8(b'\n' as i8), _mm_set1_epi8(b'\r' as i8));
                let (mut returns, mut ored) = (_mm_setzero_si128(), _mm_setzero_si128());
                let mut block = |at: usize, counts: __m128i| {
                    let v = _mm_loadu_si128(bytes.as_ptr().add(at).cast::<__m128i>());
                    returns = _mm_or_si128(returns, _mm_cmpeq_epi8(v, return_));
                    ored = _mm_or_si128(ored, v);
                    _mm_sub_epi8(counts, _mm_cmpeq_epi8(v, line_feed))
                };
                while at + 16 <= bytes.len() {
                    // Each byte lane counts the line feeds at its place, two blocks a round: at most 254 blocks
                    // between two sums keep the counts in a byte.
                    let (mut even, mut odd) = (_mm_setzero_si128(), _mm_setzero_si128());
                    let stop = bytes.len().min(at + 254 * 16);
                    while at + 32 <= stop {
                        even = block(at, even);
                        odd = block(at + 16, odd);
                        at += 32;
                    }
                    if at + 16 <= stop {
                        even = block(at, even);
                        at += 16;
                    }
                    // The lanes summed in two halves of eight.
                    let zero = _mm_setzero_si128();
                    let sums = _mm_add_epi64(_mm_sad_epu8(even, zero), _mm_sad_epu8(odd, zero));
                    line_feeds += _mm_cvtsi128_si64(sums) as u64
                        + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)) as u64;
                }
                carriage_return |= _mm_movemask_epi8(returns) != 0;
                // The top bit of each lane: a byte of 0x80 or more.
                if _mm_movemask_epi8(ored) != 0 {
                    all |= 0x80;
                }
            }
            rest = &rest[at..];
        }
        for &b in rest {
            line_feeds += u64::from(b == b'\n');
            carriage_return |= b == b'\r';
            all |= b;
        }
        LineScan {
            line_feeds,
            carriage_return,
            ascii: all < 0x80,
        }
    }
}

/// Line and column just after `bytes` when they end with a line break (column 1 of the next line, whatever
/// the encodings of the games in them); `None` otherwise. One pass over the bytes for all the games of a
/// batch: a line break never straddles two games, as each game starts at a byte that is no blank.
pub(crate) fn end_after_line_break(bytes: &[u8], start: Location) -> Option<Location> {
    if !matches!(bytes.last(), Some(b'\n' | b'\r')) {
        return None;
    }
    // The reading thread counts every batch's lines before handing it out: one vector pass, where a search for
    // a carriage return and a count of line feeds were two.
    let scan = LineScan::of(bytes);
    let breaks = if scan.carriage_return {
        count_line_breaks(bytes)
    } else {
        scan.line_feeds
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

/// Line and column of `offset` in `source`, which starts at `start` and whose characters are counted in
/// `encoding`. Scans `source` up to `offset`.
pub(crate) fn locate(
    source: &[u8],
    start: Location,
    encoding: Encoding,
    offset: usize,
) -> Location {
    let offset = offset.min(source.len());
    let before = &source[..offset];
    let breaks = count_line_breaks(before);
    if breaks == 0 {
        return Location {
            line: start.line,
            column: start.column + count_chars_in(before, encoding),
        };
    }
    let last = last_line_start(before);
    Location {
        line: start.line + breaks,
        column: 1 + count_chars_in(&before[last..], encoding),
    }
}

/// Line and column of many offsets of one run of bytes (a game's source), looked up in (mostly) increasing
/// order: each look-up counts only the bytes since the previous one, so locating every problem of a game costs
/// one pass over it however many problems share a line. A look-up behind the previous one starts again from
/// the start.
///
/// ```
/// use pgnkit::pgn::{Encoding, Location, Locator};
/// let mut locator = Locator::new("1. e4\n1... é5 x".as_bytes(), Location { line: 10, column: 1 }, Encoding::Utf8);
/// assert_eq!(locator.locate(3).to_string(), "10:4");
/// // 'é' is one character: the 'x' after it is in column 9
/// assert_eq!(locator.locate(15).to_string(), "11:9");
/// ```
#[derive(Clone, Debug)]
pub struct Locator<'a> {
    source: &'a [u8],
    start: Location,
    encoding: Encoding,
    offset: usize,
    line_start: usize,
    location: Location,
}

impl<'a> Locator<'a> {
    /// A locator over `source`, whose first byte is at `start` in its file; columns count characters of
    /// `encoding`.
    pub fn new(source: &'a [u8], start: Location, encoding: Encoding) -> Self {
        Locator {
            source,
            start,
            encoding,
            offset: 0,
            line_start: 0,
            location: start,
        }
    }

    /// Line and column of an offset in the source (up to and including its length).
    pub fn locate(&mut self, offset: usize) -> Location {
        let src = self.source;
        let offset = offset.min(src.len());
        if offset < self.offset {
            *self = Locator::new(src, self.start, self.encoding);
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
            self.location.column += count_chars_in(between, self.encoding);
        } else {
            let start = from + last_line_start(between);
            self.location = Location {
                line: self.location.line + breaks,
                column: 1 + count_chars_in(&src[start..offset], self.encoding),
            };
            self.line_start = start;
        }
        self.offset = offset;
        self.location
    }

    /// Where the line of the last located offset starts in the source (0 on the source's first line, which
    /// may start mid-line in the file).
    pub fn line_start(&self) -> usize {
        self.line_start
    }
}

/// Line starts of one run of bytes (a game's source), for many look-ups in any order (a binary search
/// instead of a scan per look-up).
#[derive(Clone, Debug)]
pub struct LineMap<'a> {
    source: &'a [u8],
    start: Location,
    encoding: Encoding,
    starts: Vec<u32>,
}

impl<'a> LineMap<'a> {
    /// The line starts of `source`, whose first byte is at `start` in its file; columns count characters of
    /// `encoding`. `source` is at most 4 GiB (offsets are `u32`, as in a [`Span`](crate::pgn::Span)).
    pub fn new(source: &'a [u8], start: Location, encoding: Encoding) -> Self {
        let mut starts = vec![0u32];
        for i in memchr2_iter(b'\n', b'\r', source) {
            if source[i] == b'\r' && source.get(i + 1) == Some(&b'\n') {
                continue;
            }
            starts.push((i + 1) as u32);
        }
        LineMap {
            source,
            start,
            encoding,
            starts,
        }
    }

    /// Line and column of an offset in the source (up to and including its length).
    pub fn location(&self, offset: u32) -> Location {
        let offset = offset.min(self.source.len() as u32);
        let k = self.starts.partition_point(|&s| s <= offset) - 1;
        let line_start = self.starts[k] as usize;
        let chars = count_chars_in(&self.source[line_start..offset as usize], self.encoding);
        if k == 0 {
            Location {
                line: self.start.line,
                column: self.start.column + chars,
            }
        } else {
            Location {
                line: self.start.line + k as u64,
                column: 1 + chars,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::detect_encoding;

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
    fn one_scan_answers_as_the_separate_searches() {
        // Texts of every length around the sixteen-byte blocks, and around and past the 254 blocks between two
        // sums (4,064 bytes), with each kind of byte at each place of interest.
        for len in (0..=40).chain([4063, 4064, 4065, 4081, 8200]) {
            for at in [0, 1, 15, 16, 17, 31, 32, 4063, 4064, 8199] {
                if at >= len {
                    continue;
                }
                for byte in [b'\n', b'\r', 0x80, 0xFF, b'\t'] {
                    let mut t = vec![b'\n'; len];
                    t[at] = byte;
                    let scan = LineScan::of(&t);
                    assert_eq!(
                        scan.line_feeds,
                        t.iter().filter(|&&b| b == b'\n').count() as u64,
                        "{len} {at}"
                    );
                    assert_eq!(scan.carriage_return, t.contains(&b'\r'));
                    assert_eq!(scan.ascii, t.is_ascii());
                }
            }
        }
        let mut text = vec![b'e'; 700];
        for at in [0, 1, 254, 255, 256, 509, 510, 699] {
            for byte in [b'\n', b'\r', 0x80, 0xFF, b'\t'] {
                let mut t = text.clone();
                t[at] = byte;
                t[(at * 7 + 3) % 700] = b'\n';
                let scan = LineScan::of(&t);
                assert_eq!(
                    scan.line_feeds,
                    t.iter().filter(|&&b| b == b'\n').count() as u64
                );
                assert_eq!(scan.carriage_return, t.contains(&b'\r'));
                assert_eq!(scan.ascii, t.is_ascii());
                let start = Location { line: 2, column: 9 };
                assert_eq!(
                    encoding_and_end(&t, start),
                    (detect_encoding(&t), advance(start, &t))
                );
            }
        }
        text.truncate(0);
        assert_eq!(
            LineScan::of(&text),
            LineScan {
                line_feeds: 0,
                carriage_return: false,
                ascii: true
            }
        );
    }

    /// A batch's end found in one pass (the reading thread's shortcut) is where the general count puts it:
    /// every short mix of letters and line breaks, and long ones past the vector count's sums, each with a
    /// carriage return or without.
    #[test]
    fn a_batch_ending_with_a_line_break_ends_where_the_general_count_says() {
        let start = Location { line: 7, column: 4 };
        let check = |text: &[u8]| {
            let quick = end_after_line_break(text, start);
            if matches!(text.last(), Some(b'\n' | b'\r')) {
                assert_eq!(quick, Some(advance(start, text)), "{text:?}");
            } else {
                assert_eq!(quick, None, "{text:?}");
            }
        };
        for len in 0..=5 {
            crate::pgn::for_every_text(
                &[&b"a"[..], b"\n", b"\r", b"\r\n", "é".as_bytes()],
                len,
                check,
            );
        }
        for len in [4063, 4064, 4065, 8200, 100_000] {
            let mut text: Vec<u8> = b"ab\n".iter().copied().cycle().take(len).collect();
            text.push(b'\n');
            check(&text);
            text[len / 2] = b'\r';
            check(&text);
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
