//! The game model handed to consumers: a game's bytes plus flat, span-carrying lists of tags, tokens and
//! diagnostics. See the module documentation of [`crate::pgn`] for the design.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

pub use super::lex::GameResult;
use super::lex::is_blank;
use super::location::{self, LineMap, Location, Locator};
use super::text::{self, Encoding};

/// Most bytes of the blank space after a game that [`Game::kept_span`] takes, and most line breaks.
const BLANK_KEPT_IN_COPY: usize = 4 << 10;
const LINE_BREAKS_KEPT_IN_COPY: usize = 16;

/// How much of `blank`, the blank space after a game, goes with the game: up to the 16th line break (the
/// first ends the game's last line) or 4 KiB. [`Game::kept_span`] copies that much; the readers hand out
/// that much with a game before a blank run they drop, so that the copy is the same whatever the reads.
pub(crate) fn kept_blank(blank: &[u8]) -> usize {
    let (mut kept, mut breaks) = (0, 0);
    while kept < BLANK_KEPT_IN_COPY
        && breaks < LINE_BREAKS_KEPT_IN_COPY
        && blank.get(kept).is_some_and(|&b| is_blank(b))
    {
        match blank[kept] {
            b'\r' if blank.get(kept + 1) == Some(&b'\n') => {
                kept += 2;
                breaks += 1;
            }
            b'\r' | b'\n' => {
                kept += 1;
                breaks += 1;
            }
            _ => kept += 1,
        }
    }
    kept
}

/// A byte range inside one game's [`Game::source`] (offsets relative to the game's first byte).
/// `u32` keeps tokens small; a game is at most 4 GiB (larger ones are cut, with an error).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from two offsets.
    #[inline]
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The span as a `usize` range, to index [`Game::source`].
    #[inline]
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Length in bytes.
    #[inline]
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether the span is empty (a position, such as where a missing token was expected).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

/// A move as written, any language: the raw bytes are [`Game::bytes`]`(san)`; nothing is resolved here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveToken {
    /// The move itself with its check/mate marks (`Nf3+`, `exd6`, `e8=Q#`, `O-O`, `Cf3`, `♘f3`, `--`,
    /// `Z0`), without a suffix annotation or `e.p.`.
    pub san: Span,
    /// A suffix annotation glued to the move (`e4!?`), as its NAG number 1..=6.
    pub suffix: Option<u8>,
    /// `e.p.` (or `ep`) followed the move (glued or after blanks); the token's span covers it.
    pub en_passant: bool,
}

/// One movetext element. Trivia (comments, escape lines) are tokens too, so a writer can reproduce the
/// game in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// `12.`, `12...`, `12…` or a bare `12`. `black` when written with two or more periods or an
    /// ellipsis. The number saturates at `u32::MAX`.
    MoveNumber {
        /// The number.
        number: u32,
        /// Written as a black move number (`12...`, `12…`).
        black: bool,
    },
    /// A move (see [`MoveToken`]).
    Move(MoveToken),
    /// A NAG: `$n`, a separate suffix annotation (`!`, `?!`...) or an annotation symbol (`+=`, `±`,
    /// `∞`, `N`...), mapped to its standard number; the span tells which form was written.
    Nag(u8),
    /// `{...}`; [`Game::comment`] gives the text between the braces, verbatim.
    Comment,
    /// `;...` to the end of the line (line break excluded).
    LineComment,
    /// A `%` escape line (a `%` in column 1, to the end of the line).
    Escape,
    /// `(`
    VariationStart,
    /// `)`
    VariationEnd,
    /// `(=)`, a draw offer.
    DrawOffer,
    /// A termination marker.
    Result(GameResult),
    /// Text that is no PGN token (consecutive unrecognised words separated by blanks form one token);
    /// always comes with a [`DiagnosticKind::UnknownToken`].
    Unknown,
}

/// A token and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Its bytes in [`Game::source`].
    pub span: Span,
}

/// A tag pair: `[Name "value"]`. Bytes are kept raw; [`Game::tag_value`] undoes escapes and decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The name (empty when missing, with a diagnostic).
    pub name: Span,
    /// The raw value between the quotes (escapes kept); empty when missing.
    pub value: Span,
    /// The whole tag pair, `[` to `]`.
    pub span: Span,
}

/// How serious one of the reader's diagnostics is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DiagnosticSeverity {
    /// A spelling outside the standard, read as what it plainly means; nothing is lost.
    Note,
    /// Read leniently; the game's content is faithful to what the file says.
    Warning,
    /// Something could not be read; part of the game is unknown or was skipped.
    Error,
}

/// How deep variations may nest (a variation of the main line is at depth 1). Real games stay within a few
/// levels; the limit keeps what replaying a game holds per open variation bounded on hostile input (a line
/// of a million `(`).
pub const MAX_VARIATION_DEPTH: usize = 256;

/// What is wrong. Words are chosen by [`fmt::Display`]; the data is in the enum and the span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagnosticKind {
    /// Text in the movetext that is no token (`pawn`, `<br>`, a stray `.` or `]`).
    UnknownToken,
    /// `[` without a tag name.
    MissingTagName,
    /// A tag name without a `"` value.
    MissingTagValue,
    /// A tag value without its closing `]`.
    MissingTagEnd,
    /// A tag value not closed on its line.
    UnterminatedTagValue,
    /// A `{` comment without its `}` (cut at the end of input or before a line starting a tag pair).
    UnterminatedComment,
    /// `$` without digits, or a NAG above 255.
    InvalidNag,
    /// `)` with no variation open.
    UnexpectedVariationEnd,
    /// `(` where no move precedes it on its line of play.
    VariationWithoutMove,
    /// The game ended (marker, next game or end of input) inside a variation.
    UnclosedVariation,
    /// A variation opens more than [`MAX_VARIATION_DEPTH`] levels deep (the span is its `(`): it and
    /// everything inside it is kept as text but not read further (no diagnostics) and not replayed.
    VariationTooDeep,
    /// The game is larger than 4 GiB; it is cut there.
    GameTooLarge,
    /// Warning: no termination marker before the next game or the end of input.
    MissingResult,
    /// Warning: an unescaped `"` inside a tag value was kept as part of it.
    UnescapedQuoteInTagValue,
    /// Warning: `\}` inside a comment was read as an escaped brace (kokopu writes them); a strict
    /// reader would end the comment there.
    EscapedBraceInComment,
    /// Note: `...` or `…` apart from a move number (`1. ... e5`, `1. e4 ... e5`), skipped.
    SeparateEllipsis,
    /// Note: a draw written `1/2` or `½-½`, read as `1/2-1/2`.
    ResultSpelling,
    /// Note: a no-break or other Unicode space between tokens, read as a space (see
    /// `docs/notation.md`).
    UnicodeSpace,
}

impl DiagnosticKind {
    /// Note, warning or error.
    pub fn severity(self) -> DiagnosticSeverity {
        match self {
            DiagnosticKind::MissingResult
            | DiagnosticKind::UnescapedQuoteInTagValue
            | DiagnosticKind::EscapedBraceInComment => DiagnosticSeverity::Warning,
            DiagnosticKind::SeparateEllipsis
            | DiagnosticKind::ResultSpelling
            | DiagnosticKind::UnicodeSpace => DiagnosticSeverity::Note,
            _ => DiagnosticSeverity::Error,
        }
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DiagnosticKind::UnknownToken => "unrecognised text in the movetext",
            DiagnosticKind::MissingTagName => "tag pair without a name",
            DiagnosticKind::MissingTagValue => "tag pair without a quoted value",
            DiagnosticKind::MissingTagEnd => "tag pair not closed by ']'",
            DiagnosticKind::UnterminatedTagValue => "tag value not closed on its line",
            DiagnosticKind::UnterminatedComment => "comment not closed by '}'",
            DiagnosticKind::InvalidNag => "NAG must be '$' followed by 0 to 255",
            DiagnosticKind::UnexpectedVariationEnd => "')' without an open variation",
            DiagnosticKind::VariationWithoutMove => "variation must follow a move",
            DiagnosticKind::UnclosedVariation => "game ends inside a variation",
            DiagnosticKind::VariationTooDeep => {
                return write!(
                    f,
                    "variation nested more than {MAX_VARIATION_DEPTH} levels deep: its moves are not checked"
                );
            }
            DiagnosticKind::GameTooLarge => "game larger than 4 GiB",
            DiagnosticKind::MissingResult => "no termination marker (1-0, 0-1, 1/2-1/2, *)",
            DiagnosticKind::UnescapedQuoteInTagValue => "unescaped '\"' kept inside the tag value",
            DiagnosticKind::EscapedBraceInComment => {
                "'\\}' read as an escaped brace inside the comment"
            }
            DiagnosticKind::SeparateEllipsis => "'...' apart from its move number, skipped",
            DiagnosticKind::ResultSpelling => "a draw written otherwise than 1/2-1/2",
            DiagnosticKind::UnicodeSpace => "a no-break or other Unicode space read as a space",
        })
    }
}

/// A problem and where it is.
///
/// ```
/// use pgnkit::pgn::{DiagnosticKind, DiagnosticSeverity, parse_all};
/// let games = parse_all(b"[Event \"x\"]\n\n1. e4 e5 2. Nf3 pawn 1-0\n");
/// let game = &games[0];
/// let problem = game.diagnostics[0];
/// assert_eq!(problem.kind, DiagnosticKind::UnknownToken);
/// assert_eq!(problem.kind.severity(), DiagnosticSeverity::Error);
/// assert_eq!(game.text(problem.span), "pawn");
/// // line 3, column 17, as an editor counts
/// assert_eq!(game.location(problem.span.start).to_string(), "3:17");
/// assert_eq!(problem.kind.to_string(), "unrecognised text in the movetext");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// What.
    pub kind: DiagnosticKind,
    /// Where, in [`Game::source`] (may be empty: a position).
    pub span: Span,
}

/// One game: its bytes and everything the reader found in them. Borrows the input buffer.
///
/// `source` runs from the game's first byte to the next game's first byte (or the end of input), so it
/// includes the blank lines and any trailing comment after the game; the first game also includes any
/// comment before its tags. Consecutive games' sources are contiguous.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game<'a> {
    /// The game's bytes.
    pub source: &'a [u8],
    /// Absolute byte offset of `source[0]` in the file.
    pub offset: u64,
    /// Line (1-based, whole file) of `source[0]`.
    pub line: u64,
    /// Column (1-based, in characters) of `source[0]`; 1 unless the game starts mid-line.
    pub column: u32,
    /// Index of the game in the file, from 0.
    pub index: u64,
    /// How the game's bytes decode as a whole: UTF-8 when all of them are valid UTF-8, else Windows-1252.
    /// Columns are counted in it; tag values and comments decode each on its own ([`Game::field_encoding`]).
    pub encoding: Encoding,
    /// Tag pairs, in order.
    pub tags: Vec<Tag>,
    /// Movetext tokens and trivia, in order (a comment or escape line among the tags is here too;
    /// merge with `tags` by `span.start` for the exact interleaving).
    pub tokens: Vec<Token>,
    /// The termination marker, if the game has one.
    pub result: Option<GameResult>,
    /// Problems, in order.
    pub diagnostics: Vec<Diagnostic>,
    /// What the reader saw of the capitals in the move tokens (language detection starts from it).
    pub move_letters: MoveLetters,
    /// Some `(` opened a variation: `tokens` holds a [`TokenKind::VariationStart`]. Most games have none,
    /// and a replay need not look for one after every move.
    pub has_variations: bool,
    /// The record (a table's row) the game's text came from, when its buffer is made of records
    /// ([`crate::pgn::GameReader::with_records`]): `line`, `column` and `offset` then count from the record's
    /// first byte.
    pub record: Option<Record>,
}

/// A record of a table whose rows hold games (a Parquet file's): where a game's text came from, when it
/// came from no file of its own. Shown to people as `row group 3, row 1234`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Record {
    /// The row group (0-based) holding the row.
    pub group: u32,
    /// The row, 0-based, counted from the table's first row (not the row group's).
    pub row: u64,
}

/// Where a record starts in a buffer of records ([`crate::pgn::GameReader::with_records`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordStart {
    /// The record's first byte in the buffer.
    pub at: usize,
    /// The record.
    pub record: Record,
    /// Index in the table's games of the record's first game.
    pub first_game: u64,
}

/// The capital letters that start move tokens of the common strict shapes (`Nf3`, `Rxe8+`, `Nbd7`: the
/// capital first, then only files, ranks, `x`, `+`, `#`), gathered while reading so language detection need
/// not walk the tokens again; the parser's move recogniser knows the shape it matched. Castling and null moves
/// have no letter; tokens of any other shape (promotions, figurines, drops, `-` or `:` separators) set
/// `irregular`: their letters need the notation layer's full scan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveLetters {
    /// Bit `c - b'A'` for each capital `c`.
    pub capitals: u32,
    /// Some move token has another shape.
    pub irregular: bool,
}

/// Bytes a list of an idle [`Game`] may keep (a long game's): a group of games kept for reuse holds a few
/// lists each, and one huge game must not leave them all huge.
pub(crate) const KEPT_LIST_BYTES: usize = 32 << 10;

fn release_if_large<T>(list: &mut Vec<T>) {
    if list.capacity() * std::mem::size_of::<T>() > KEPT_LIST_BYTES {
        *list = Vec::new();
    }
}

impl<'a> Game<'a> {
    /// Lets go of lists grown beyond what a long game needs (their contents are stale: the next read
    /// clears them anyway).
    pub(crate) fn release_large_lists(&mut self) {
        release_if_large(&mut self.tags);
        release_if_large(&mut self.tokens);
        release_if_large(&mut self.diagnostics);
    }

    /// Raw bytes of a span.
    #[inline]
    pub fn bytes(&self, span: Span) -> &'a [u8] {
        &self.source[span.range()]
    }

    /// A span decoded (borrowed when UTF-8): as UTF-8 where it is valid UTF-8, else as Windows-1252 (see
    /// [`Game::field_encoding`]).
    pub fn text(&self, span: Span) -> Cow<'a, str> {
        let bytes = self.bytes(span);
        text::decode(bytes, self.field_encoding(bytes))
    }

    /// How one field of the game (a tag value, a comment) decodes: each on its own, since files are pasted
    /// together from sources in different encodings (a UTF-8 `Müller` beside a Latin-1 `René`). In a game
    /// that is all UTF-8 every field is; otherwise a field that is valid UTF-8 is read as UTF-8, any other as
    /// Windows-1252.
    #[inline]
    pub fn field_encoding(&self, bytes: &[u8]) -> Encoding {
        match self.encoding {
            Encoding::Utf8 => Encoding::Utf8,
            Encoding::Cp1252 => text::detect_encoding(bytes),
        }
    }

    /// A move's bytes (without suffix annotation or `e.p.`).
    #[inline]
    pub fn san(&self, mv: &MoveToken) -> &'a [u8] {
        self.bytes(mv.san)
    }

    /// A tag's name (ASCII letters, digits, underscore).
    pub fn tag_name(&self, tag: &Tag) -> &'a str {
        // tag names are ASCII by construction
        std::str::from_utf8(self.bytes(tag.name)).unwrap_or("")
    }

    /// A tag's value, escapes (`\"`, `\\`) undone and decoded.
    pub fn tag_value(&self, tag: &Tag) -> Cow<'a, str> {
        let raw = self.bytes(tag.value);
        text::tag_value(raw, self.field_encoding(raw))
    }

    /// The first tag with this name, its value unescaped and decoded.
    pub fn tag(&self, name: &str) -> Option<Cow<'a, str>> {
        self.tags
            .iter()
            .find(|t| self.bytes(t.name) == name.as_bytes())
            .map(|t| self.tag_value(t))
    }

    /// The first tag with this name, its raw value bytes.
    pub fn tag_raw(&self, name: &str) -> Option<&'a [u8]> {
        self.tags
            .iter()
            .find(|t| self.bytes(t.name) == name.as_bytes())
            .map(|t| self.bytes(t.value))
    }

    /// The text of a [`TokenKind::Comment`] token between its braces, verbatim (no unescaping),
    /// decoded; for other tokens, the token's text.
    pub fn comment(&self, span: Span) -> Cow<'a, str> {
        let bytes = self.comment_bytes(span);
        text::decode(bytes, self.field_encoding(bytes))
    }

    /// The raw bytes of a comment between its braces (or after `;`).
    pub fn comment_bytes(&self, span: Span) -> &'a [u8] {
        let b = self.bytes(span);
        match b.first() {
            Some(b'{') => {
                let inner = &b[1..];
                inner.strip_suffix(b"}").unwrap_or(inner)
            }
            Some(b';') => &b[1..],
            _ => b,
        }
    }

    /// Whether any diagnostic is an error (not a warning).
    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }

    /// The diagnostics that are errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics
            .iter()
            .filter(|d| d.kind.severity() == DiagnosticSeverity::Error)
    }

    /// The main line's moves, in order (tokens inside variations skipped).
    pub fn main_line(&self) -> impl Iterator<Item = (&Token, &MoveToken)> + '_ {
        let mut depth = 0u32;
        self.tokens.iter().filter_map(move |t| match &t.kind {
            TokenKind::VariationStart => {
                depth += 1;
                None
            }
            TokenKind::VariationEnd => {
                depth = depth.saturating_sub(1);
                None
            }
            TokenKind::Move(m) if depth == 0 => Some((t, m)),
            _ => None,
        })
    }

    /// Absolute byte range of a span in the file.
    pub fn absolute(&self, span: Span) -> Range<u64> {
        self.offset + span.start as u64..self.offset + span.end as u64
    }

    /// Line and column (1-based, as editors count: characters of the decoded line, a tab is one, a
    /// BOM is none) of an offset in [`Game::source`] (up to and including `source.len()`).
    /// Scans the game from its start; for many look-ups in a large game use [`Game::line_map`].
    pub fn location(&self, offset: u32) -> Location {
        location::locate(self.source, self.start(), self.encoding, offset as usize)
    }

    /// Line of the game's first byte that is no blank space: where the game shows in the file. [`Game::line`]
    /// is where its bytes start, which can be earlier: a file's first game owns the blank lines before it, and
    /// before any game the reader keeps part of a blank run longer than it holds, a part that depends on how
    /// the file was read (one thread or several).
    ///
    /// ```
    /// use pgnkit::pgn::parse_all;
    /// let games = parse_all(b"\n\n1. e4 *\n\n[Event \"x\"]\n*");
    /// assert_eq!((games[0].line, games[0].first_line()), (1, 3));
    /// assert_eq!((games[1].line, games[1].first_line()), (5, 5));
    /// ```
    pub fn first_line(&self) -> u64 {
        match self.content().start {
            0 => self.line,
            at => self.location(at).line,
        }
    }

    /// The game's bytes without the blank space (spaces, tabs, line breaks) they may start and end with: where
    /// the game shows in the file (see [`Game::first_line`]). Empty at 0 for a game of blank space alone.
    ///
    /// ```
    /// use pgnkit::pgn::parse_all;
    /// let games = parse_all(b"\n\n{before the tags}\n[Event \"x\"]\n1. e4 * {after}\n\n\n");
    /// let game = &games[0];
    /// assert_eq!(game.text(game.content()), "{before the tags}\n[Event \"x\"]\n1. e4 * {after}");
    /// ```
    pub fn content(&self) -> Span {
        match self.source.iter().position(|&b| !is_blank(b)) {
            None => Span::default(),
            Some(start) => {
                let end = self
                    .source
                    .iter()
                    .rposition(|&b| !is_blank(b))
                    .map_or(start, |i| i + 1);
                Span::new(start, end)
            }
        }
    }

    /// What a copy of the game takes of its bytes: [`Game::content`], and the blank space after it up to its
    /// sixteenth line break or 4 KiB. Blank space between games is no game's: the streaming readers drop a
    /// run of it over [`MAX_BLANK_RUN`](crate::pgn::MAX_BLANK_RUN) and hand out this much with the game before
    /// it, where a whole buffer read at once holds it all; a copy that took it all would change with the
    /// reader.
    ///
    /// ```
    /// use pgnkit::pgn::parse_all;
    /// let text = format!("[Event \"x\"]\n1. e4 *\n\n{}[Event \"y\"]\n*", " ".repeat(10_000));
    /// let games = parse_all(text.as_bytes());
    /// let kept = games[0].kept_span();
    /// assert_eq!(kept.end as usize, "[Event \"x\"]\n1. e4 *\n\n".len() + 4094);
    /// ```
    pub fn kept_span(&self) -> Span {
        let content = self.content();
        let end = content.end as usize;
        Span::new(
            content.start as usize,
            end + kept_blank(&self.source[end..]),
        )
    }

    /// A cursor for many [`Game::location`] look-ups in increasing order (linear in the game's size).
    pub fn locator(&self) -> Locator<'a> {
        Locator::new(self.source, self.start(), self.encoding)
    }

    /// A line index of this game, for many [`Game::location`] look-ups.
    pub fn line_map(&self) -> LineMap<'a> {
        LineMap::new(self.source, self.start(), self.encoding)
    }

    /// Line and column of the game's first byte.
    fn start(&self) -> Location {
        Location {
            line: self.line,
            column: self.column,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::pgn::parse_all;

    /// The copy of a game: from its first byte that is no blank to its last, and the blank space after it up
    /// to the sixteenth line break (a CR LF is one) or 4 KiB, whatever the line ends and the blank space before.
    #[test]
    fn a_copy_keeps_the_blank_lines_after_a_game_up_to_fifteen() {
        for eol in ["\n", "\r\n", "\r"] {
            for (lines, spaces, kept_lines) in
                [(0, 0, 0), (1, 0, 1), (3, 2, 3), (16, 0, 16), (40, 0, 16)]
            {
                let after = format!("{}{}", " ".repeat(spaces), eol.repeat(lines));
                let text =
                    format!("{eol}{eol}  [Event \"x\"]{eol}1. e4 *{after}[Event \"y\"]{eol}*");
                let games = parse_all(text.as_bytes());
                let game = &games[0];
                let expected = format!(
                    "[Event \"x\"]{eol}1. e4 *{}{}",
                    " ".repeat(spaces),
                    eol.repeat(kept_lines)
                );
                assert_eq!(
                    game.text(game.kept_span()),
                    expected,
                    "{eol:?} {lines} {spaces}"
                );
            }
        }
        let text = format!("1. e4 *{}", " ".repeat(5000));
        let games = parse_all(text.as_bytes());
        let kept = games[0].kept_span();
        assert_eq!(kept.end - kept.start, 7 + 4096);
        let blank = parse_all(b"  \n");
        assert!(blank.is_empty() || blank[0].kept_span().start == blank[0].kept_span().end);
    }
}
