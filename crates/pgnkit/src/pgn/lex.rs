//! Lexical rules shared by the parser ([`super::game_reader`]) and the splitter ([`super::split`]).
//!
//! Both must agree on where every game starts, so the lexical rules a game boundary depends on live here
//! once: byte classes, the scanners for brace comments and tag pairs (the two constructs that can hide
//! a `[` or a termination marker), the "looks like a tag pair" test and the termination-marker test. The
//! boundary rules themselves are [`super::boundary`]'s.
//! The scanners are nom parsers with hand-written memchr fast paths; each also has a `(buf, pos)` form
//! because a few rules look one byte behind the current position.

use memchr::{memchr, memchr2, memrchr};
use nom::IResult;

/// nom result over bytes with the unit error: the grammar never needs nom's error details, because
/// every failure is turned into a [`super::DiagnosticKind`] with a span by the caller.
pub(crate) type PResult<'a, O> = IResult<&'a [u8], O, ()>;

const WS: u8 = 1; // whitespace
const DELIM: u8 = 2; // self-delimiting byte: ends a word, is a token of its own (or starts one)
const NAME: u8 = 4; // tag-name character

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let ws = b" \t\n\r\x0b\x0c";
    let mut i = 0;
    while i < ws.len() {
        t[ws[i] as usize] |= WS;
        i += 1;
    }
    let delim = b"{}()[];\"$*.";
    let mut i = 0;
    while i < delim.len() {
        t[delim[i] as usize] |= DELIM;
        i += 1;
    }
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' {
            t[c] |= NAME;
        }
        c += 1;
    }
    t
};

/// ASCII whitespace: space, tab, LF, CR, vertical tab, form feed.
#[inline(always)]
pub fn is_ws(b: u8) -> bool {
    CLASS[b as usize] & WS != 0
}

/// [`is_ws`] without a table, for the readers' and the model's loops over whole blocks of blank space: the
/// comparisons then run on many bytes at once.
#[inline(always)]
pub(crate) fn is_blank(b: u8) -> bool {
    b == b' ' || b.wrapping_sub(b'\t') < 5
}

/// A byte that ends a word: whitespace or one of `{ } ( ) [ ] ; " $ * .`.
#[inline(always)]
pub fn is_boundary(b: u8) -> bool {
    CLASS[b as usize] & (WS | DELIM) != 0
}

/// Tag-name characters: ASCII letters, digits, underscore (PGN standard symbol characters).
#[inline(always)]
pub fn is_name_char(b: u8) -> bool {
    CLASS[b as usize] & NAME != 0
}

/// Position of the first byte at or after `from` that is one of `set`, or `buf.len()`.
///
/// The splitter skips movetext, and the scanners tag values and comments, with this: most of their bytes are none
/// of the few that matter. On x86_64, where SSE2 is always there, sixteen bytes are tested at once; a byte loop
/// remains for the tail and other targets.
#[inline(always)]
pub(crate) fn find_any<const N: usize>(buf: &[u8], mut from: usize, set: [u8; N]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8, _mm_setzero_si128,
        };
        while let Some(chunk) = buf.get(from..from + 16) {
            // SAFETY: SSE2 is part of every x86_64 target; `chunk` is 16 readable bytes and the load has no
            // alignment requirement.
            let mask = unsafe {
                let bytes = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
                let mut hits = _mm_setzero_si128();
                for b in set {
                    hits = _mm_or_si128(hits, _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b as i8)));
                }
                _mm_movemask_epi8(hits) as u32
            };
            if mask != 0 {
                return from + mask.trailing_zeros() as usize;
            }
            from += 16;
        }
    }
    while from < buf.len() && !set.contains(&buf[from]) {
        from += 1;
    }
    from
}

/// The end of the run of tag-name characters ([`is_name_char`]) that starts at `from`: `from` itself when
/// there is none.
///
/// Both the reader and the splitter read every tag name with this. On x86_64 sixteen bytes are classified
/// at once, which takes in a whole name nearly always; a byte loop goes on past them and for short tails.
#[inline(always)]
pub(crate) fn name_end(buf: &[u8], mut from: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
            _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        };
        while let Some(chunk) = buf.get(from..from + 16) {
            // SAFETY: SSE2 is part of every x86_64 target; `chunk` is 16 readable bytes and the load has no
            // alignment requirement.
            let names = unsafe {
                let bytes = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
                // A range test with signed compares: adding 128 - lo maps lo..=hi onto the lowest signed
                // values, -128..=-128 + (hi - lo), and every other byte above them.
                let below = |v: __m128i, lo: u8, len: u8| {
                    _mm_cmplt_epi8(
                        _mm_add_epi8(v, _mm_set1_epi8(128u8.wrapping_sub(lo) as i8)),
                        _mm_set1_epi8((len as i8).wrapping_add(-128)),
                    )
                };
                // Letters of either case: a capital with bit 5 set is its small letter, and no other byte
                // becomes a letter that way.
                let letters = below(_mm_or_si128(bytes, _mm_set1_epi8(0x20)), b'a', 26);
                let digits = below(bytes, b'0', 10);
                let underscores = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'_' as i8));
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letters, digits), underscores)) as u32
            };
            let run = (!names & 0xFFFF).trailing_zeros() as usize;
            if run < 16 {
                return from + run;
            }
            from += 16;
        }
    }
    while from < buf.len() && is_name_char(buf[from]) {
        from += 1;
    }
    from
}

#[inline(always)]
pub fn is_eol(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// Whether the word that would start at `pos` ends there: end of input, a boundary byte, or a Unicode space
/// (see [`unicode_space_len`]).
#[inline(always)]
pub fn word_ends(rest: &[u8]) -> bool {
    match rest.first() {
        None => true,
        Some(&b) if b < 0x80 => is_boundary(b),
        Some(_) => unicode_space_len(rest) > 0,
    }
}

/// Length of a space other than ASCII whitespace at the start of `rest`, 0 if none, where the byte before
/// `rest` is ASCII (the end of a token): the no-break space (U+00A0 in UTF-8, or the byte A0 of
/// Windows-1252), the spaces U+2000 to U+200B, the narrow no-break space U+202F, the ideographic space U+3000,
/// and U+FEFF (a byte-order mark that `cat a.pgn b.pgn` leaves inside a file). Word processors and web pages
/// put them between moves; they separate tokens like a space.
#[inline]
pub fn unicode_space_len(rest: &[u8]) -> usize {
    match rest {
        [0xC2, 0xA0, ..] => 2,
        [0xA0, ..] => 1,
        [0xE2, 0x80, 0x80..=0x8B | 0xAF, ..] | [0xE3, 0x80, 0x80, ..] | [0xEF, 0xBB, 0xBF, ..] => 3,
        _ => 0,
    }
}

/// [`unicode_space_len`] at `pos` of `buf`, whatever comes before: a lone byte A0 is a Windows-1252 no-break
/// space only after an ASCII byte (after any other it is part of a UTF-8 character: `à` is C3 A0).
#[inline]
pub fn unicode_space_at(buf: &[u8], pos: usize) -> usize {
    if buf[pos] == 0xA0 && pos > 0 && buf[pos - 1] >= 0x80 {
        return 0;
    }
    unicode_space_len(&buf[pos..])
}

/// Whether `rest` (the end of what has been read) could be the start of a space of [`unicode_space_len`] cut
/// by the end of a block: a streaming reader must read on before it decides anything there.
#[inline]
pub fn maybe_cut_space(rest: &[u8]) -> bool {
    matches!(
        rest,
        [0xC2] | [0xE2] | [0xE2, 0x80] | [0xE3] | [0xE3, 0x80] | [0xEF] | [0xEF, 0xBB]
    )
}

/// Whether a space of [`unicode_space_at`] ends just before `pos`.
#[inline]
fn unicode_space_before(buf: &[u8], pos: usize) -> bool {
    (1..=3).any(|len| pos >= len && unicode_space_at(&buf[..pos], pos - len) == len)
}

/// The word starting at `pos`: up to the next boundary byte or space of [`unicode_space_at`] (empty when
/// `buf[pos]` is a boundary).
#[inline]
pub fn word_at(buf: &[u8], pos: usize) -> &[u8] {
    let mut end = pos;
    while end < buf.len()
        && !is_boundary(buf[end])
        && !(buf[end] >= 0x80 && unicode_space_at(buf, end) > 0)
    {
        end += 1;
    }
    &buf[pos..end]
}

/// Position of the first byte at or after `pos` that is neither whitespace nor a space of
/// [`unicode_space_len`].
#[inline]
pub fn skip_spaces(buf: &[u8], mut pos: usize) -> usize {
    loop {
        pos = skip_ws(buf, pos);
        match buf.get(pos) {
            Some(&b) if b >= 0x80 => match unicode_space_at(buf, pos) {
                0 => return pos,
                len => pos += len,
            },
            _ => return pos,
        }
    }
}

/// Position of the first byte at or after `pos` that is not whitespace.
#[inline(always)]
pub fn skip_ws(buf: &[u8], pos: usize) -> usize {
    // Most movetext words are one space apart: answered without the loop.
    if let Some(rest) = buf.get(pos..)
        && let [b' ', next, ..] = *rest
        && !is_ws(next)
    {
        return pos + 1;
    }
    skip_ws_loop(buf, pos)
}

#[inline(never)]
fn skip_ws_loop(buf: &[u8], mut pos: usize) -> usize {
    while pos < buf.len() && is_ws(buf[pos]) {
        pos += 1;
    }
    pos
}

#[inline(always)]
fn skip_blanks(buf: &[u8], mut pos: usize) -> usize {
    while pos < buf.len() && (buf[pos] == b' ' || buf[pos] == b'\t') {
        pos += 1;
    }
    pos
}

/// End of the line containing `pos` (position of its `\n`/`\r`, or the end of input).
#[inline]
pub fn line_end(buf: &[u8], pos: usize) -> usize {
    match memchr2(b'\n', b'\r', &buf[pos..]) {
        Some(k) => pos + k,
        None => buf.len(),
    }
}

/// Start of the line after the line break at `eol` (`\r\n` counts as one break).
#[inline]
fn next_line_start(buf: &[u8], eol: usize) -> usize {
    if buf[eol] == b'\r' && buf.get(eol + 1) == Some(&b'\n') {
        eol + 2
    } else {
        eol + 1
    }
}

/// Whether `pos` is in column 1: just after a line break, or at the start of a buffer that starts a line.
/// Byte-order marks before it do not count (columns never count them, and a file concatenated after another
/// brings its BOM to the start of a line): a reader that starts a buffer after one agrees with a reader that
/// sees it.
#[inline(always)]
pub fn at_column_one(buf: &[u8], pos: usize, buf_at_line_start: bool) -> bool {
    let mut pos = pos;
    while pos >= 3 && &buf[pos - 3..pos] == b"\xEF\xBB\xBF" {
        pos -= 3;
    }
    if pos == 0 {
        buf_at_line_start
    } else {
        is_eol(buf[pos - 1])
    }
}

/// A termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: game in progress, abandoned or result unknown
    Unknown,
}

impl GameResult {
    /// The marker as written in PGN.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// A draw as some programs write it, in a `Result` tag or as the termination marker: read as `1/2-1/2`
    /// (with a note).
    pub const DRAW_SPELLINGS: [&'static str; 2] = ["1/2", "½-½"];

    /// Reads a `Result` tag's value: one of the four markers, or a draw in one of [`Self::DRAW_SPELLINGS`];
    /// `None` for anything else.
    pub fn from_tag(value: &str) -> Option<GameResult> {
        if Self::DRAW_SPELLINGS.contains(&value) {
            Some(GameResult::Draw)
        } else {
            GameResult::from_bytes(value.as_bytes())
        }
    }

    /// The winner a result names, if it names one.
    pub fn winner(self) -> Option<crate::core::Color> {
        match self {
            GameResult::WhiteWins => Some(crate::core::Color::White),
            GameResult::BlackWins => Some(crate::core::Color::Black),
            GameResult::Draw | GameResult::Unknown => None,
        }
    }

    /// The result of a game `color` won.
    pub fn win_for(color: crate::core::Color) -> GameResult {
        match color {
            crate::core::Color::White => GameResult::WhiteWins,
            crate::core::Color::Black => GameResult::BlackWins,
        }
    }

    /// Reads a marker exactly as the standard writes it (as in a `Result` tag value); `None` for anything else.
    pub fn from_bytes(b: &[u8]) -> Option<GameResult> {
        match b {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The termination marker starting at `pos`, with its length. `*` is one anywhere (it is self-delimiting);
/// the other three only as a whole word: preceded by a boundary (or the start of the buffer) and followed
/// by a boundary or the end of input.
#[inline]
pub fn marker_at(buf: &[u8], pos: usize) -> Option<(GameResult, usize)> {
    let rest = &buf[pos..];
    match rest {
        [b'*', ..] => return Some((GameResult::Unknown, 1)),
        [b'0' | b'1', b'-' | b'/', ..] | [0xC2, 0xBD, ..] => {}
        _ => return None,
    }
    if pos > 0 && !is_boundary(buf[pos - 1]) && !unicode_space_before(buf, pos) {
        return None;
    }
    let (result, len) = if rest.starts_with(b"1-0") {
        (GameResult::WhiteWins, 3)
    } else if rest.starts_with(b"0-1") {
        (GameResult::BlackWins, 3)
    } else if rest.starts_with(b"1/2-1/2") {
        (GameResult::Draw, 7)
    } else if rest.starts_with(b"1/2") {
        // a draw as some programs write it (read with a note)
        (GameResult::Draw, 3)
    } else if rest.starts_with("½-½".as_bytes()) {
        (GameResult::Draw, 5)
    } else {
        return None;
    };
    word_ends(&rest[len..]).then_some((result, len))
}

/// Whether a tag pair starts at `pos`: `[`, optional blanks, a tag name, optional blanks, `"`.
/// Used where a `[` is ambiguous (after movetext, and on a line inside a brace comment).
#[inline]
pub fn looks_like_tag(buf: &[u8], pos: usize) -> bool {
    if buf.get(pos) != Some(&b'[') {
        return false;
    }
    let p = skip_blanks(buf, pos + 1);
    let mut q = p;
    while q < buf.len() && is_name_char(buf[q]) {
        q += 1;
    }
    if q == p {
        return false;
    }
    let q = skip_blanks(buf, q);
    buf.get(q) == Some(&b'"')
}

/// What [`scan_comment`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommentScan {
    /// End of the comment token: after its `}`, or where it was cut (end of input, or the line break
    /// before a line that starts a tag pair).
    pub end: usize,
    /// Whether a closing `}` was found.
    pub closed: bool,
    /// Position of the first `\}` read as an escaped brace (kokopu's convention), if any.
    pub escaped_brace: Option<usize>,
}

/// Scans a brace comment starting at `pos` (`buf[pos] == b'{'`).
///
/// Rules: comments do not nest; the comment ends at the first `}` not preceded by an odd run of
/// backslashes (kokopu writes `\}` and `\\` inside comments; such a brace is reported with a warning,
/// since a strict reader would end the comment there). A comment that reaches a line starting with a
/// tag pair (`[Name "`) before its `}` is unterminated and stops at the end of the line before, so a
/// missing `}` never swallows the next game. Linear: each byte is looked at a bounded number of times.
pub fn scan_comment(buf: &[u8], pos: usize) -> CommentScan {
    debug_assert_eq!(buf[pos], b'{');
    let content = pos + 1;
    let mut i = content;
    let mut escaped_brace = None;
    loop {
        // Most comments are short (a clock, an evaluation): an inline sixteen-byte step finds their end
        // sooner than a call to memchr.
        let at = find_any(buf, i, [b'}', b'\n', b'\r']);
        if at == buf.len() {
            return CommentScan {
                end: buf.len(),
                closed: false,
                escaped_brace,
            };
        }
        if buf[at] == b'}' {
            let mut run = 0;
            while at - run > content && buf[at - run - 1] == b'\\' {
                run += 1;
            }
            if run % 2 == 0 {
                return CommentScan {
                    end: at + 1,
                    closed: true,
                    escaped_brace,
                };
            }
            escaped_brace.get_or_insert(at - 1);
            i = at + 1;
        } else {
            let next = next_line_start(buf, at);
            let first = skip_blanks(buf, next);
            // a line starting a tag pair, or the end of the input after the line break: the comment
            // is cut here (the same cut whether or not the buffer stops right before that tag pair)
            if first >= buf.len() || looks_like_tag(buf, first) {
                return CommentScan {
                    end: at,
                    closed: false,
                    escaped_brace,
                };
            }
            i = next;
        }
    }
}

/// A problem the tag scanner found in a tag pair, at a position in the buffer (the reader turns it into a
/// located [`super::DiagnosticKind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagScanProblem {
    /// No tag name after `[` (position of what was found instead).
    MissingName(usize),
    /// No `"` value after the name (position of what was found instead).
    MissingValue(usize),
    /// The value is not closed on its line (position: first byte of the value).
    UnterminatedValue(usize),
    /// A `"` inside the value is not escaped; it was kept as part of the value because the line
    /// closes the value later (position: what a strict reader found after the early quote).
    UnescapedQuote(usize),
    /// No `]` after the value (position: the first non-blank byte found instead, or the end of input).
    MissingEnd(usize),
}

/// What [`scan_tag`] found. Positions are buffer positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagScan {
    /// End of the tag-pair token.
    pub end: usize,
    /// The tag name (may be empty when missing).
    pub name: (usize, usize),
    /// The raw value between the quotes (escapes not undone), if there is one.
    pub value: Option<(usize, usize)>,
    /// Up to two problems (a missing name and something else).
    pub problems: [Option<TagScanProblem>; 2],
    /// The scan reached the end of the buffer where more bytes could change it (a value or a line
    /// cut by the end of the buffer): with more input to come, a streaming reader must wait.
    pub truncated: bool,
}

impl TagScan {
    fn problem(&mut self, p: TagScanProblem) {
        if self.problems[0].is_none() {
            self.problems[0] = Some(p);
        } else if self.problems[1].is_none() {
            self.problems[1] = Some(p);
        }
    }
}

/// Scans the tag pair starting at `pos` (`buf[pos] == b'['`).
///
/// `[`, blanks, name, blanks, `"value"`, blanks, `]`. The value takes `\"` and `\\` escapes and ends at
/// a `"` followed (after blanks) by `]` or the end of the line. Leniency, each reported:
/// * a `"` followed by other text is kept inside the value when the line has another `"` later
///   (`[Event "SK"Vladimir Gortan"-2007"]`, a real TWIC header);
/// * a value not closed on its line continues on the next line when that line is not blank, does not
///   start with `[` and holds a `"` (kokopu's test of a line break inside a value); otherwise the value
///   stops at the end of its line;
/// * after a missing name or value, or a missing `]`, the tag runs to the next `]` on the same line
///   (or stops before a `[` or at the end of the line).
pub fn scan_tag(buf: &[u8], pos: usize) -> TagScan {
    debug_assert_eq!(buf[pos], b'[');
    if let Some(scan) = scan_plain_tag(buf, pos) {
        return scan;
    }
    scan_tag_general(buf, pos)
}

/// [`scan_tag`] for any input.
fn scan_tag_general(buf: &[u8], pos: usize) -> TagScan {
    let n = buf.len();
    let name_start = skip_blanks(buf, pos + 1);
    let mut i = name_start;
    while i < n && is_name_char(buf[i]) {
        i += 1;
    }
    let mut scan = TagScan {
        end: i,
        name: (name_start, i),
        value: None,
        problems: [None, None],
        truncated: false,
    };
    if i == name_start {
        scan.problem(TagScanProblem::MissingName(name_start));
    }
    let q = skip_blanks(buf, i);
    if q >= n {
        scan.truncated = true;
    }
    if buf.get(q) != Some(&b'"') {
        if i != name_start {
            scan.problem(TagScanProblem::MissingValue(q));
        }
        scan.end = recover_in_line(buf, q);
        return scan;
    }
    let value_start = q + 1;
    let (value_end, closed) = scan_tag_value(buf, value_start, &mut scan);
    scan.value = Some((value_start, value_end));
    if !closed {
        scan.end = value_end;
        return scan;
    }
    let k = skip_blanks(buf, value_end + 1);
    if buf.get(k) == Some(&b']') {
        scan.end = k + 1;
    } else {
        scan.problem(TagScanProblem::MissingEnd(skip_ws(buf, k)));
        scan.end = recover_in_line(buf, k).max(value_end + 1);
    }
    scan
}

/// The tag pair at `pos` when it has the form nearly every tag has, `[Name "value"]` (one space, no escape,
/// quote or line break in the value, `]` right after the closing quote): the same scan as the general path
/// gives, found without its blank skipping and problem bookkeeping. `None` for anything else.
#[inline]
fn scan_plain_tag(buf: &[u8], pos: usize) -> Option<TagScan> {
    let plain = plain_tag(buf, pos)?;
    Some(TagScan {
        end: plain.end,
        name: (pos + 1, plain.name_end),
        value: Some((plain.name_end + 2, plain.end - 2)),
        problems: [None, None],
        truncated: false,
    })
}

/// Where a tag pair of the plain form ([`scan_plain_tag`]) ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlainTag {
    /// The end of the name, which starts right after the `[`.
    pub(crate) name_end: usize,
    /// Just past the `]`.
    pub(crate) end: usize,
}

/// The tag pair at `pos` (`buf[pos] == b'['`) if it has the plain form `[Name "value"]`. What [`scan_tag`]
/// finds for it is whole: nothing more input could bring changes it. The splitter needs only its name and
/// its end.
#[inline]
pub(crate) fn plain_tag(buf: &[u8], pos: usize) -> Option<PlainTag> {
    let name_start = pos + 1;
    let i = name_end(buf, name_start);
    if i == name_start || buf.get(i..i + 2) != Some(&b" \""[..]) {
        return None;
    }
    let q = find_any(buf, i + 2, [b'"', b'\\', b'\n', b'\r']);
    if buf.get(q..q + 2) != Some(&b"\"]"[..]) {
        return None;
    }
    Some(PlainTag {
        name_end: i,
        end: q + 2,
    })
}

/// After a broken tag: through the next `]` on this line, unless a `[` or the line end comes first
/// (then stop there).
fn recover_in_line(buf: &[u8], pos: usize) -> usize {
    // The first of the four decides. Finding the line's end first, then a bracket before it, read the rest of
    // the line once per broken tag: quadratic on a long line of `[`.
    let stop = find_any(buf, pos, [b']', b'[', b'\n', b'\r']);
    if buf.get(stop) == Some(&b']') {
        stop + 1
    } else {
        stop
    }
}

/// Scans a tag value from its first byte. Returns (end of value = position of the closing quote or of
/// the line break / end of input where it stopped, closed).
fn scan_tag_value(buf: &[u8], start: usize, scan: &mut TagScan) -> (usize, bool) {
    let n = buf.len();
    let mut i = start;
    // (end of the current line, position of its last quote), computed once per line
    let mut line_info: Option<(usize, Option<usize>)> = None;
    let mut reported_quote = false;
    let mut reported_unterminated = false;
    loop {
        while i < n && !matches!(buf[i], b'"' | b'\\' | b'\n' | b'\r') {
            i += 1;
        }
        if i >= n {
            if !reported_unterminated {
                scan.problem(TagScanProblem::UnterminatedValue(start));
            }
            scan.truncated = true;
            return (n, false);
        }
        let at = i;
        match buf[at] {
            b'\\' => {
                i = if at + 1 < n && !is_eol(buf[at + 1]) {
                    at + 2
                } else {
                    at + 1
                };
            }
            b'"' => {
                let m = skip_blanks(buf, at + 1);
                if m >= n {
                    scan.truncated = true;
                    return (at, true);
                }
                if buf[m] == b']' || is_eol(buf[m]) {
                    return (at, true);
                }
                let (eol, last_quote) = *line_info.get_or_insert_with(|| {
                    let eol = line_end(buf, at);
                    (eol, memrchr(b'"', &buf[at..eol]).map(|r| at + r))
                });
                if eol == n && last_quote.is_none_or(|lq| lq <= at) {
                    scan.truncated = true;
                }
                if last_quote.is_some_and(|lq| lq > at) {
                    if !reported_quote {
                        scan.problem(TagScanProblem::UnescapedQuote(m));
                        reported_quote = true;
                    }
                    i = at + 1;
                } else {
                    return (at, true);
                }
            }
            _ => {
                // a line break inside the value
                if !reported_unterminated {
                    scan.problem(TagScanProblem::UnterminatedValue(start));
                    reported_unterminated = true;
                }
                if continue_value(buf, at, &mut scan.truncated) {
                    i = next_line_start(buf, at);
                    line_info = None;
                } else {
                    return (at, false);
                }
            }
        }
    }
}

/// Whether a tag value broken by the line break at `eol` continues on the next line.
/// Sets `truncated` when the answer depended on a line cut by the end of the buffer.
fn continue_value(buf: &[u8], eol: usize, truncated: &mut bool) -> bool {
    let next = next_line_start(buf, eol);
    if next >= buf.len() || (buf[eol] == b'\r' && eol + 1 == buf.len()) {
        *truncated = true;
        return false;
    }
    let first = skip_blanks(buf, next);
    if first >= buf.len() {
        *truncated = true;
        return false;
    }
    if is_eol(buf[first]) || buf[first] == b'[' {
        return false;
    }
    let end = line_end(buf, first);
    let found = memchr(b'"', &buf[first..end]).is_some();
    if !found && end == buf.len() {
        *truncated = true;
    }
    found
}

/// nom wrapper: a brace comment at the start of `input`, where `input` is `buf[pos..]`.
pub(crate) fn brace_comment<'a>(buf: &'a [u8], pos: usize) -> PResult<'a, CommentScan> {
    if buf.get(pos) != Some(&b'{') {
        return Err(nom::Err::Error(()));
    }
    let scan = scan_comment(buf, pos);
    Ok((&buf[scan.end..], scan))
}

/// nom wrapper: a tag pair at `buf[pos..]`.
pub(crate) fn tag_pair<'a>(buf: &'a [u8], pos: usize) -> PResult<'a, TagScan> {
    if buf.get(pos) != Some(&b'[') {
        return Err(nom::Err::Error(()));
    }
    let scan = scan_tag(buf, pos);
    Ok((&buf[scan.end..], scan))
}

/// nom parser: the rest of the line (for `;` comments and `%` escape lines), line break excluded.
pub(crate) fn rest_of_line(input: &[u8]) -> PResult<'_, &[u8]> {
    nom::bytes::complete::take_till(is_eol)(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_bytes_are_the_whitespace_class() {
        for b in 0..=255u8 {
            assert_eq!(is_blank(b), is_ws(b), "byte {b}");
        }
    }

    #[test]
    fn a_broken_tag_recovers_where_the_line_then_bracket_search_did() {
        // The two-step search it replaces: the line's end, then the first bracket before it.
        let two_steps = |buf: &[u8], pos: usize| {
            let eol = line_end(buf, pos);
            match memchr2(b']', b'[', &buf[pos..eol]) {
                Some(k) if buf[pos + k] == b']' => pos + k + 1,
                Some(k) => pos + k,
                None => eol,
            }
        };
        super::super::for_every_text(&[b"[", b"]", b"x", b"\n", b"\r"], 6, |text| {
            for from in 0..=text.len() {
                assert_eq!(
                    recover_in_line(text, from),
                    two_steps(text, from),
                    "{text:?} {from}"
                );
            }
        });
    }

    #[test]
    fn whitespace_is_skipped_to_the_first_other_byte_or_the_end() {
        // Every short mix of blanks and a word, from every start: the one-space shortcut and the loop agree
        // with a plain search.
        let bytes: [&[u8]; 9] = [
            b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c", b"e", b"4", b"\x80",
        ];
        super::super::for_every_text(&bytes, 4, |text| {
            for from in 0..=text.len() {
                let expected = text[from..]
                    .iter()
                    .position(|&b| !b.is_ascii_whitespace() && b != 0x0b)
                    .map_or(text.len(), |p| from + p);
                assert_eq!(skip_ws(text, from), expected, "{text:?} from {from}");
            }
        });
    }

    #[test]
    fn byte_order_marks_do_not_move_a_byte_off_column_one() {
        let buf = "*\n\u{feff}\u{feff}%x\n a%".as_bytes();
        let percent = |from: usize| from + buf[from..].iter().position(|&b| b == b'%').unwrap();
        assert!(at_column_one(buf, percent(0), false));
        assert!(!at_column_one(buf, percent(percent(0) + 1), true));
        // A buffer that starts with a BOM: column one only if the buffer starts a line.
        let buf = "\u{feff}%".as_bytes();
        assert!(at_column_one(buf, 3, true));
        assert!(!at_column_one(buf, 3, false));
        assert!(at_column_one(b"%", 0, true) && !at_column_one(b"a%", 1, true));
    }

    #[test]
    fn find_any_agrees_with_a_byte_loop_at_every_offset() {
        // Pseudo-random bytes biased towards the searched ones, long enough for several 16-byte steps and a
        // tail; every start offset, so each byte of a step is found first at least once.
        let mut rng = crate::core::random_games::Xorshift::new(0x2545_f491_4f6c_dd1d);
        let alphabet = b"{;[*-%ab12 \n\"\\";
        let buf: Vec<u8> = (0..300)
            .map(|_| {
                let state = rng.next_u64();
                if state.is_multiple_of(5) {
                    alphabet[(state >> 8) as usize % alphabet.len()]
                } else {
                    b'a' + (state >> 16) as u8 % 26
                }
            })
            .collect();
        let scalar = |set: &[u8], from: usize| {
            (from..buf.len())
                .find(|&i| set.contains(&buf[i]))
                .unwrap_or(buf.len())
        };
        for from in 0..=buf.len() {
            let specials = [b'{', b';', b'[', b'*', b'-', b'%'];
            assert_eq!(
                find_any(&buf, from, specials),
                scalar(&specials, from),
                "from {from}"
            );
            let quotes = [b'"', b'\\', b'\n', b'\r'];
            assert_eq!(
                find_any(&buf, from, quotes),
                scalar(&quotes, from),
                "from {from}"
            );
        }
        // none present: the end
        assert_eq!(find_any(&[b'x'; 40], 0, [b'{']), 40);
        assert_eq!(find_any(b"", 0, [b'{']), 0);
    }

    #[test]
    fn name_runs_end_where_the_byte_loop_ends_them() {
        // Every byte value at every place of runs of up to 40 name characters, read from several offsets:
        // the sixteen-byte classification must stop exactly where `is_name_char` does.
        let by_loop = |buf: &[u8], mut i: usize| {
            while i < buf.len() && is_name_char(buf[i]) {
                i += 1;
            }
            i
        };
        let names: Vec<u8> = (b'A'..=b'Z')
            .chain(b'a'..=b'z')
            .chain(b'0'..=b'9')
            .chain([b'_'])
            .collect();
        for len in 0..=40 {
            let run: Vec<u8> = (0..len).map(|k| names[(k * 7) % names.len()]).collect();
            for at in 0..=len {
                for byte in 0..=255u8 {
                    let mut buf = run.clone();
                    if at < len {
                        buf[at] = byte;
                    } else {
                        buf.push(byte);
                    }
                    buf.extend_from_slice(b" \"x\"]");
                    for from in [0, 1, 5] {
                        let from = from.min(buf.len());
                        assert_eq!(
                            name_end(&buf, from),
                            by_loop(&buf, from),
                            "{len} {at} {byte:#x} {from}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_plain_tag_path_agrees_with_the_general_one() {
        let cases = [
            "[Event \"Open\"]",
            "[Event \"Open\"]\n",
            "[Event \"\"]",
            "[White \"Müller, Jörg\"]\r\n",
            "[Event \"Open\"",
            "[Event \"Open\" ]",
            "[Event  \"Open\"]",
            "[ Event \"Open\"]",
            "[Event \"Op\\\"en\"]",
            "[Event \"Op\"en\"]",
            "[Event \"Open",
            "[Event \"Open\nCup\"]",
            "[Event \"Open\r\"]",
            "[Event\"Open\"]",
            "[Event \"Open\"] [Site \"x\"]",
            "[Event \"Open\"]]",
            "[ \"Open\"]",
            "[Event",
            "[",
        ];
        let mut plain = 0;
        for case in cases {
            let buf = case.as_bytes();
            if let Some(fast) = scan_plain_tag(buf, 0) {
                assert_eq!(fast, scan_tag_general(buf, 0), "{case:?}");
                plain += 1;
            }
            assert_eq!(scan_tag(buf, 0), scan_tag_general(buf, 0), "{case:?}");
        }
        assert_eq!(plain, 6);
    }

    #[test]
    fn markers_are_whole_words() {
        assert_eq!(marker_at(b"1-0", 0), Some((GameResult::WhiteWins, 3)));
        assert_eq!(marker_at(b" 0-1\n", 1), Some((GameResult::BlackWins, 3)));
        assert_eq!(marker_at(b"1/2-1/2)", 0), Some((GameResult::Draw, 7)));
        assert_eq!(marker_at(b"h6*", 2), Some((GameResult::Unknown, 1)));
        assert_eq!(marker_at(b"11-0", 1), None);
        assert_eq!(marker_at(b"1-00", 0), None);
        assert_eq!(marker_at(b"0-0", 0), None);
        assert_eq!(marker_at(b"12.1-0", 3), Some((GameResult::WhiteWins, 3)));
    }

    #[test]
    fn tag_lookalikes() {
        assert!(looks_like_tag(b"[Event \"x\"]", 0));
        assert!(looks_like_tag(b"[ Event\"x\"]", 0));
        assert!(!looks_like_tag(b"[%clk 0:01:00]", 0));
        assert!(!looks_like_tag(b"[Event x]", 0));
    }

    #[test]
    fn comments() {
        let b = b"{a} x";
        assert_eq!(scan_comment(b, 0).end, 3);
        let b = br"{ab{cd\}ef\\gh \\\\} x";
        let s = scan_comment(b, 0);
        assert!(s.closed);
        assert_eq!(s.end, b.len() - 2);
        assert_eq!(s.escaped_brace, Some(6));
        let b = b"{open\n[Event \"x\"]\n";
        let s = scan_comment(b, 0);
        assert!(!s.closed);
        assert_eq!(s.end, 5);
        let b = b"{multi\n[%clk 0:01]\nline}";
        assert!(scan_comment(b, 0).closed);
    }

    fn tag(s: &[u8]) -> (TagScan, String) {
        let t = scan_tag(s, 0);
        let v = t
            .value
            .map(|(a, b)| String::from_utf8_lossy(&s[a..b]).into_owned())
            .unwrap_or_default();
        (t, v)
    }

    #[test]
    fn tags() {
        let (t, v) = tag(br#"[Event "a \"b\" \\"] x"#);
        assert_eq!(v, r#"a \"b\" \\"#);
        assert_eq!(t.end, 20);
        assert_eq!(t.problems, [None, None]);

        let (t, v) = tag(br#"[Event "SK"Vladimir Gortan"-2007"]"#);
        assert_eq!(v, r#"SK"Vladimir Gortan"-2007"#);
        assert_eq!(t.problems[0], Some(TagScanProblem::UnescapedQuote(11)));

        let (t, _) = tag(br#"[Site "Somewhere" %~<|>]"#);
        assert_eq!(t.problems[0], Some(TagScanProblem::MissingEnd(18)));
        assert_eq!(t.end, 24);

        let (t, v) = tag(b"[Site \"Somewhere\non the Earth\"]\n[Result \"1-0\"]");
        assert_eq!(v, "Somewhere\non the Earth");
        assert_eq!(t.problems[0], Some(TagScanProblem::UnterminatedValue(7)));
        assert_eq!(t.end, 31);

        let (t, v) = tag(b"[Site \"\n\n*\n");
        assert_eq!(v, "");
        assert_eq!(t.end, 7);
        assert_eq!(t.problems[0], Some(TagScanProblem::UnterminatedValue(7)));

        let (t, _) = tag(b"[Site]\n");
        assert_eq!(t.problems[0], Some(TagScanProblem::MissingValue(5)));
        assert_eq!(t.end, 6);

        let (t, v) = tag(b"[\"Somewhere\"]");
        assert_eq!(v, "Somewhere");
        assert_eq!(t.problems[0], Some(TagScanProblem::MissingName(1)));
        assert_eq!(t.end, 13);

        let (t, _) = tag(b"[Event \"x\"\n\n*");
        assert_eq!(t.problems[0], Some(TagScanProblem::MissingEnd(12)));
        assert_eq!(t.end, 10);
    }
}
