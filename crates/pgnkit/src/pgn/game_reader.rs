//! The game reader over a buffer in memory: a loop over the tokens of one game that builds the game model
//! (tokens, tags, located diagnostics) and stops where [`super::boundary`] says the game ends. Each token is
//! read by a scanner of [`super::lex`] or a recogniser of [`super::movetext`], chosen by its first byte. No
//! recursion (variations are counted, not nested calls), no backtracking beyond a few bytes: the reader is
//! linear in its input.

use nom::character::complete::digit1;

use super::boundary::{Bracket, GameBoundary, Section};
use super::lex::{self, GameResult, TagScanProblem, word_ends};
use super::location::{self, Location};
use super::model::{
    Diagnostic, DiagnosticKind, Game, MAX_VARIATION_DEPTH, MoveLetters, MoveToken, Record,
    RecordStart, Span, Tag, Token, TokenKind,
};
use super::movetext::{
    ELLIPSIS, ParsedMove, Shape, annotation_symbol, en_passant_suffix, is_file, move_number,
    move_token, parse_u32,
};
use super::text::BOM;

/// Where a buffer of games starts in its input (its first byte, the first game's index): enough to number the
/// lines, columns and games of what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferStart {
    /// Absolute byte offset of the buffer's first byte.
    pub offset: u64,
    /// Line (1-based) of the buffer's first byte.
    pub line: u64,
    /// Column (1-based, characters) of the buffer's first byte.
    pub column: u32,
    /// Index of the buffer's first game in the file.
    pub index: u64,
}

impl Default for BufferStart {
    fn default() -> Self {
        BufferStart {
            offset: 0,
            line: 1,
            column: 1,
            index: 0,
        }
    }
}

/// The most games [`GameReader::next_group`] reads at once: enough that each step of a job serves several
/// games while its code is in the instruction cache, few enough that their models stay in the data cache and
/// that the lists each worker keeps add little to its memory (docs/performance.md, "Tuning constants").
pub const GROUP_GAMES: usize = 8;

/// [`GameReader::next_group`] reads no more games once the group's bytes reach this: the models of a few long
/// annotated games take as much room as those of many short ones.
pub const GROUP_BYTES: usize = 32 << 10;

/// The lists a [`GameReader`] fills (its games' tags, tokens and problems), handed from one reader to the
/// next so that reading another buffer allocates nothing once they have grown: [`GameReader::into_lists`]
/// takes them back, [`GameReader::with_lists`] lends them.
///
/// Lists grown by a very long game are let go rather than kept, so what it holds stays small.
#[derive(Debug, Default)]
pub struct GameLists {
    /// The reader's own game, then those of its group.
    games: Vec<Game<'static>>,
}

/// A game of any buffer with `game`'s lists (emptied, and let go when a long game grew them).
fn reuse<'b>(game: Game<'_>) -> Game<'b> {
    let mut empty = Game {
        tags: game.tags,
        tokens: game.tokens,
        diagnostics: game.diagnostics,
        ..Game::default()
    };
    empty.release_large_lists();
    empty
}

/// Reads the games of a buffer one after the other.
///
/// ```
/// use pgnkit::pgn::{GameReader, GameResult};
/// let pgn = b"[Event \"A\"]\n[White \"Anna\"]\n\n1. e4 e5 2. Nf3 {develops} Nc6 (2... d6) 1-0\n\
///             [Event \"B\"]\n1. d4 *\n";
/// let mut games = GameReader::new(pgn);
///
/// let game = games.next_game().unwrap();
/// let tags: Vec<(&str, String)> = game
///     .tags
///     .iter()
///     .map(|tag| (game.tag_name(tag), game.tag_value(tag).into_owned()))
///     .collect();
/// assert_eq!(tags, [("Event", "A".to_string()), ("White", "Anna".to_string())]);
/// // The main line's moves as written (the variation's `d6` is not among them).
/// let moves: Vec<&str> = game
///     .main_line()
///     .map(|(_, mv)| std::str::from_utf8(game.san(mv)).unwrap())
///     .collect();
/// assert_eq!(moves, ["e4", "e5", "Nf3", "Nc6"]);
/// assert_eq!(game.result, Some(GameResult::WhiteWins));
///
/// // The next game starts at the tag pair after the marker, on line 5.
/// let game = games.next_game().unwrap();
/// assert_eq!((game.index, game.line), (1, 5));
/// assert_eq!(game.tag("Event").as_deref(), Some("B"));
/// assert!(games.next_game().is_none());
/// ```
#[derive(Debug)]
pub struct GameReader<'a> {
    buf: &'a [u8],
    buf_at_line_start: bool,
    pos: usize,
    next: BufferStart,
    /// Where the game being read ends (kept here between games for its allocations).
    boundary: GameBoundary<'a>,
    /// Whether a move was seen on the current line of play (a variation may follow it).
    has_move: bool,
    /// The same for each enclosing line of play (one entry per open variation).
    outer: Vec<bool>,
    /// More bytes follow the buffer: a game that reaches its end may be incomplete and is not returned.
    more_input: bool,
    /// Games this reader may still return (a block reader hands out a bounded number per call).
    games_left: usize,
    game: Game<'a>,
    /// The games [`GameReader::next_group`] read last (the first `group_len`), and spare ones.
    group: Vec<Game<'a>>,
    group_len: usize,
    /// Where the buffer's records start, when it is made of records ([`GameReader::with_records`]).
    records: &'a [RecordStart],
    /// The first record not entered yet.
    next_record: usize,
    /// The record being read.
    record: Option<Record>,
}

impl<'a> GameReader<'a> {
    /// A whole file (or stream) in memory: a leading UTF-8 BOM is skipped.
    pub fn new(buf: &'a [u8]) -> GameReader<'a> {
        if buf.starts_with(BOM) {
            GameReader::with_start(
                &buf[3..],
                BufferStart {
                    offset: 3,
                    ..BufferStart::default()
                },
            )
        } else {
            GameReader::with_start(buf, BufferStart::default())
        }
    }

    /// A buffer that starts at a game boundary (as a [`super::Batch`] does), with where it is in its file.
    pub fn with_start(buf: &'a [u8], start: BufferStart) -> GameReader<'a> {
        GameReader {
            buf,
            buf_at_line_start: start.column == 1,
            pos: 0,
            next: start,
            boundary: GameBoundary::default(),
            has_move: false,
            outer: Vec::new(),
            more_input: false,
            games_left: usize::MAX,
            game: Game::default(),
            group: Vec::new(),
            group_len: 0,
            records: &[],
            next_record: 0,
            record: None,
        }
    }

    /// A buffer made of records, the rows of a table each holding a game's text, one after the other: each
    /// game knows its record ([`Game::record`]), counts its lines, columns and offset from the record's first
    /// byte, and is numbered from the record's `first_game`. A game never runs on into the next record,
    /// whatever its text: an unclosed comment or variation ends with its record.
    ///
    /// `records` are in buffer order; bytes before the first record are read as a buffer's are.
    ///
    /// ```
    /// use pgnkit::pgn::{GameReader, Record, RecordStart};
    /// let rows = b"[White \"A\"]\n\n1. e4 {unclosed\n[White \"B\"]\n\n1. d4 *\n";
    /// let second = rows.iter().rposition(|&b| b == b'[').unwrap();
    /// let records = [
    ///     RecordStart { at: 0, record: Record { group: 0, row: 7 }, first_game: 7 },
    ///     RecordStart { at: second, record: Record { group: 1, row: 8 }, first_game: 8 },
    /// ];
    /// let mut games = GameReader::with_records(rows, &records);
    /// let first = games.next_game().unwrap();
    /// assert_eq!((first.index, first.record.unwrap().row), (7, 7));
    /// let game = games.next_game().unwrap();
    /// assert_eq!((game.index, game.line, game.record.unwrap().group), (8, 1, 1));
    /// assert_eq!(game.tag("White").as_deref(), Some("B"));
    /// assert!(games.next_game().is_none());
    /// ```
    pub fn with_records(buf: &'a [u8], records: &'a [RecordStart]) -> GameReader<'a> {
        let mut reader = GameReader::with_start(buf, BufferStart::default());
        reader.records = records;
        reader
    }

    /// This reader with the lists of an earlier one, to reuse their allocations.
    ///
    /// ```
    /// use pgnkit::pgn::GameReader;
    /// let mut first = GameReader::new(b"1. e4 e5 *\n");
    /// assert!(first.next_game().is_some());
    /// let mut second = GameReader::new(b"1. d4 d5 *\n").with_lists(first.into_lists());
    /// assert_eq!(second.next_game().unwrap().tokens.len(), 4);
    /// ```
    pub fn with_lists(mut self, lists: GameLists) -> Self {
        let mut games = lists.games.into_iter();
        if let Some(game) = games.next() {
            self.game = reuse(game);
        }
        self.group = games.map(reuse).collect();
        self.group_len = 0;
        self
    }

    /// The reader's lists, emptied of this buffer, for the next reader ([`GameReader::with_lists`]).
    pub fn into_lists(self) -> GameLists {
        GameLists {
            games: std::iter::once(self.game)
                .chain(self.group)
                .map(reuse)
                .collect(),
        }
    }

    /// A reader for a block of a stream: `more_input` says whether bytes follow `buf`; if so, a game
    /// that runs to the end of `buf` is held back (not returned, not consumed). `lists` lends its
    /// allocations.
    pub(crate) fn for_block(
        buf: &'a [u8],
        start: BufferStart,
        more_input: bool,
        lists: GameLists,
        most_games: usize,
    ) -> GameReader<'a> {
        let mut games = GameReader::with_start(buf, start).with_lists(lists);
        games.more_input = more_input;
        games.games_left = most_games;
        games
    }

    /// The reader returned as many games as it was allowed to ([`GameReader::for_block`]'s `most_games`).
    pub(crate) fn stopped_at_limit(&self) -> bool {
        self.games_left == 0
    }

    /// Where the next game starts (in the file).
    pub fn next_start(&self) -> BufferStart {
        self.next
    }

    /// The next game, reusing this reader's allocations (the returned game is overwritten by the next call).
    #[allow(clippy::should_implement_trait)]
    pub fn next_game(&mut self) -> Option<&Game<'a>> {
        if self.parse_one() {
            Some(&self.game)
        } else {
            None
        }
    }

    /// The next few games, read at once: up to [`GROUP_GAMES`], fewer once they add up to [`GROUP_BYTES`] or
    /// at the end of the buffer; `None` when no game is left. The games of the previous call (and
    /// [`GameReader::next_game`]'s) are overwritten, their allocations reused.
    ///
    /// For a job that does several things to each game: done one group at a time, each step's code runs over
    /// the whole group while it is in the processor's instruction cache, where one game at a time would load
    /// the reader, the replay and the output code again for every game.
    ///
    /// ```
    /// use pgnkit::pgn::{GROUP_GAMES, GameReader};
    /// let pgn = "[Event \"A\"]\n\n1. e4 *\n\n".repeat(40);
    /// let mut games = GameReader::new(pgn.as_bytes());
    /// let mut indexes = Vec::new();
    /// while let Some(group) = games.next_group() {
    ///     assert!(group.len() <= GROUP_GAMES);
    ///     indexes.extend(group.iter().map(|game| game.index));
    /// }
    /// assert_eq!(indexes, (0..40).collect::<Vec<u64>>());
    /// ```
    pub fn next_group(&mut self) -> Option<&[Game<'a>]> {
        // Lists grown by a long game are let go before their slot is used again: the group then holds long
        // lists only for the games it holds now.
        for game in &mut self.group[..self.group_len] {
            game.release_large_lists();
        }
        self.group_len = 0;
        let mut bytes = 0;
        while self.group_len < GROUP_GAMES && bytes < GROUP_BYTES && self.parse_one() {
            if self.group_len == self.group.len() {
                self.group.push(Game::default());
            }
            let slot = &mut self.group[self.group_len];
            std::mem::swap(&mut self.game, slot);
            bytes += slot.source.len();
            self.group_len += 1;
        }
        (self.group_len > 0).then(|| &self.group[..self.group_len])
    }

    /// Byte position (in the buffer) where the next game starts.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes of the buffer not yet read: what the games still to come are made of, a size hint for
    /// whatever is built from them.
    ///
    /// ```
    /// let mut games = pgnkit::pgn::GameReader::new(b"1. e4 *\n\n1. d4 *\n");
    /// assert_eq!(games.remaining(), 17);
    /// games.next_game();
    /// assert!(games.remaining() < 17);
    /// while games.next_game().is_some() {}
    /// assert_eq!(games.remaining(), 0);
    /// ```
    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    fn parse_one(&mut self) -> bool {
        if self.games_left == 0 {
            return false;
        }
        let found = loop {
            self.enter_records();
            if self.parse_next() {
                break true;
            }
            // Only whitespace and trivia left in this record: on to the next, if any.
            match self.records.get(self.next_record) {
                Some(next) => self.pos = self.pos.max(next.at),
                None => break false,
            }
        };
        self.games_left -= usize::from(found);
        found
    }

    /// Enters the records the reader has reached: each restarts the numbering of lines, columns, offsets and
    /// games.
    fn enter_records(&mut self) {
        while let Some(next) = self.records.get(self.next_record) {
            if self.pos < next.at {
                break;
            }
            self.pos = next.at;
            self.next = BufferStart {
                offset: 0,
                line: 1,
                column: 1,
                index: next.first_game,
            };
            self.buf_at_line_start = true;
            self.record = Some(next.record);
            self.next_record += 1;
        }
    }

    fn parse_next(&mut self) -> bool {
        // A game ends with its record.
        let full = match self.records.get(self.next_record) {
            Some(next) => &self.buf[..next.at],
            None => self.buf,
        };
        let start = self.pos;
        if start >= full.len() {
            return false;
        }
        // spans are u32: a game is cut at 4 GiB
        let cap = start.saturating_add(u32::MAX as usize);
        let buf = if full.len() > cap { &full[..cap] } else { full };
        let n = buf.len();
        let g = &mut self.game;
        g.tags.clear();
        g.tokens.clear();
        g.diagnostics.clear();
        g.result = None;
        g.move_letters = MoveLetters::default();
        g.has_variations = false;
        self.outer.clear();
        self.has_move = false;

        let mut boundary = std::mem::take(&mut self.boundary);
        boundary.reset();
        let mut i = start;
        // a tag scan looked at a line cut by the end of the buffer
        let mut truncated = false;
        let end = loop {
            i = lex::skip_ws(buf, i);
            if i >= n {
                break n;
            }
            let c = buf[i];
            if c >= 0x80 {
                if self.more_input && n == full.len() && lex::maybe_cut_space(&buf[i..]) {
                    // a space cut by the end of the block, or the next game's first byte: read on
                    truncated = true;
                    break n;
                }
                let space = lex::unicode_space_at(buf, i);
                if space > 0 {
                    // A byte-order mark inside the file (`cat a.pgn b.pgn`) is an artefact of encodings, not
                    // of the text: skipped without a word. Other spaces are a spelling of the file's.
                    if &buf[i..i + space] != BOM {
                        self.diag(DiagnosticKind::UnicodeSpace, i - start, i + space - start);
                    }
                    i += space;
                    continue;
                }
            }
            match c {
                b'%' if lex::at_column_one(buf, i, self.buf_at_line_start) => {
                    let (_, line) = lex::rest_of_line(&buf[i..]).unwrap_or((&[], &[]));
                    self.push(TokenKind::Escape, i, i + line.len(), start);
                    i += line.len();
                }
                b'{' => i = self.comment(buf, i, start),
                b';' => {
                    let (_, line) = lex::rest_of_line(&buf[i..]).unwrap_or((&[], &[]));
                    self.push(TokenKind::LineComment, i, i + line.len(), start);
                    i += line.len();
                }
                b'[' => {
                    match boundary.bracket(buf, i) {
                        Bracket::NextGame => break i,
                        Bracket::Stray => {
                            self.unknown(i, i + 1, start);
                            i += 1;
                            continue;
                        }
                        Bracket::TagPair => {}
                    }
                    let Ok((_, scan)) = lex::tag_pair(buf, i) else {
                        unreachable!("tag_pair accepts any '['")
                    };
                    // a tag cut by the end of the buffer (its name may go on): wait for more input
                    if self.more_input && (scan.truncated || scan.name.1 == n) {
                        truncated = true;
                        break n;
                    }
                    if boundary.tag_pair(&buf[scan.name.0..scan.name.1]) {
                        break i;
                    }
                    self.tag(buf, i, &scan, start);
                    i = scan.end;
                }
                _ => {
                    if boundary.movetext_starts_next() {
                        break i;
                    }
                    let (next, result) = self.movetext_token(buf, i, start);
                    i = next;
                    boundary.movetext(result);
                }
            }
        };
        let section = boundary.section();
        self.boundary = boundary;
        if self.more_input && n == full.len() && (end == n || truncated) {
            // the game (or the trivia before it) may go on in the next block
            return false;
        }
        if section == Section::Before {
            // only whitespace and trivia left: no game
            self.pos = full.len();
            return false;
        }
        let rel_end = end - start;
        // a missing `]` points at what follows the value, which may be the next game's first byte
        let limit = rel_end as u32;
        for d in &mut self.game.diagnostics {
            d.span.start = d.span.start.min(limit);
            d.span.end = d.span.end.min(limit);
        }
        if end == cap && cap < full.len() {
            self.diag(DiagnosticKind::GameTooLarge, rel_end, rel_end);
        }
        if self.game.result.is_none() {
            if !self.outer.is_empty() {
                self.diag(DiagnosticKind::UnclosedVariation, rel_end, rel_end);
            }
            self.diag(DiagnosticKind::MissingResult, rel_end, rel_end);
        }
        let source = &full[start..end];
        let g = &mut self.game;
        g.source = source;
        g.offset = self.next.offset;
        g.line = self.next.line;
        g.column = self.next.column;
        g.index = self.next.index;
        g.record = self.record;
        let (encoding, after) = location::encoding_and_end(
            source,
            Location {
                line: self.next.line,
                column: self.next.column,
            },
        );
        g.encoding = encoding;
        self.next = BufferStart {
            offset: self.next.offset + source.len() as u64,
            line: after.line,
            column: after.column,
            index: self.next.index + 1,
        };
        self.pos = end;
        true
    }

    #[inline(always)]
    fn push(&mut self, kind: TokenKind, from: usize, to: usize, base: usize) {
        self.game.tokens.push(Token {
            kind,
            span: Span::new(from - base, to - base),
        });
    }

    #[inline]
    fn diag(&mut self, kind: DiagnosticKind, from: usize, to: usize) {
        self.game.diagnostics.push(Diagnostic {
            kind,
            span: Span::new(from, to),
        });
    }

    /// Periods (or `…`) from `from` to `to` that stand apart from a bare move number just before them
    /// (`2 . Nf3`, `2 ... Nf6`): the PGN standard makes the period a token of its own, so they are the number's
    /// own, and its token grows over them (`black` for two periods or more, or `…`). Like a glued period they
    /// end the indication whatever follows (`2 .Nf3`). Asked only where periods stand alone, off the path of
    /// ordinary movetext.
    #[cold]
    #[inline(never)]
    fn periods_of_bare_number(&mut self, from: usize, to: usize, black: bool, base: usize) -> bool {
        let buf = self.buf;
        let Some(last) = self.game.tokens.last_mut() else {
            return false;
        };
        let TokenKind::MoveNumber { number, .. } = last.kind else {
            return false;
        };
        let end = base + last.span.end as usize;
        if !buf[end - 1].is_ascii_digit() || lex::skip_ws(buf, end) != from {
            return false;
        }
        last.kind = TokenKind::MoveNumber { number, black };
        last.span.end = (to - base) as u32;
        true
    }

    /// An unrecognised word: merged into the previous token when that one is unknown too and only
    /// whitespace separates them.
    fn unknown(&mut self, from: usize, to: usize, base: usize) {
        let merge = match self.game.tokens.last() {
            Some(Token {
                kind: TokenKind::Unknown,
                span,
            }) => lex::skip_ws(self.buf, base + span.end as usize) == from,
            _ => false,
        };
        if merge {
            let rel = (to - base) as u32;
            if let Some(t) = self.game.tokens.last_mut() {
                t.span.end = rel;
            }
            if let Some(d) = self
                .game
                .diagnostics
                .iter_mut()
                .rev()
                .find(|d| d.kind == DiagnosticKind::UnknownToken)
            {
                d.span.end = rel;
            }
        } else {
            self.push(TokenKind::Unknown, from, to, base);
            self.diag(DiagnosticKind::UnknownToken, from - base, to - base);
        }
    }

    fn comment(&mut self, buf: &'a [u8], i: usize, base: usize) -> usize {
        let Ok((_, scan)) = lex::brace_comment(buf, i) else {
            unreachable!("brace_comment accepts any '{{'")
        };
        self.push(TokenKind::Comment, i, scan.end, base);
        if !scan.closed {
            self.diag(
                DiagnosticKind::UnterminatedComment,
                i + 1 - base,
                scan.end - base,
            );
        }
        if let Some(p) = scan.escaped_brace {
            self.diag(
                DiagnosticKind::EscapedBraceInComment,
                p - base,
                p + 2 - base,
            );
        }
        scan.end
    }

    fn tag(&mut self, buf: &[u8], i: usize, scan: &lex::TagScan, base: usize) {
        let value = match scan.value {
            Some((a, b)) => Span::new(a - base, b - base),
            None => Span::new(scan.end - base, scan.end - base),
        };
        self.game.tags.push(Tag {
            name: Span::new(scan.name.0 - base, scan.name.1 - base),
            value,
            span: Span::new(i - base, scan.end - base),
        });
        // one byte, or nothing at a line break / the end of input
        let at = |p: usize| {
            if p < buf.len() && !lex::is_eol(buf[p]) {
                (p - base, p + 1 - base)
            } else {
                (p - base, p - base)
            }
        };
        for p in scan.problems.into_iter().flatten() {
            let (kind, (a, b)) = match p {
                TagScanProblem::MissingName(p) => (DiagnosticKind::MissingTagName, at(p)),
                TagScanProblem::MissingValue(p) => (DiagnosticKind::MissingTagValue, at(p)),
                TagScanProblem::MissingEnd(p) => (DiagnosticKind::MissingTagEnd, at(p)),
                TagScanProblem::UnescapedQuote(p) => {
                    (DiagnosticKind::UnescapedQuoteInTagValue, at(p))
                }
                TagScanProblem::UnterminatedValue(p) => (
                    DiagnosticKind::UnterminatedTagValue,
                    (p - base, value.end as usize),
                ),
            };
            self.diag(kind, a, b);
        }
    }

    /// One movetext token at `i` (not whitespace, not `{`, `;`, `[`, nor an escape line). Returns the
    /// position after it and whether it was a termination marker.
    #[inline]
    fn movetext_token(&mut self, buf: &'a [u8], i: usize, base: usize) -> (usize, bool) {
        let c = buf[i];
        let rest = &buf[i..];
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {
                if let Ok((r, mv)) = move_token(rest) {
                    return (self.mv(buf, i, rest.len() - r.len(), mv, base), false);
                }
                self.symbol_or_unknown(i, base)
            }
            b'0'..=b'9' => {
                if matches!(rest, [b'0' | b'1', b'-' | b'/', ..])
                    && let Some((result, len)) = lex::marker_at(buf, i)
                {
                    return (self.result(result, i, i + len, base), true);
                }
                if c == b'0' {
                    // castling written with zeros
                    if let Ok((r, mv)) = move_token(rest) {
                        return (self.mv(buf, i, rest.len() - r.len(), mv, base), false);
                    }
                }
                match move_number(rest) {
                    Ok((r, (number, black))) => {
                        let to = i + rest.len() - r.len();
                        self.push(TokenKind::MoveNumber { number, black }, i, to, base);
                        (to, false)
                    }
                    Err(_) => self.unknown_word(i, base),
                }
            }
            b'(' => {
                if rest.starts_with(b"(=)") {
                    self.push(TokenKind::DrawOffer, i, i + 3, base);
                    return (i + 3, false);
                }
                let depth = self.outer.len() + 1;
                if depth > MAX_VARIATION_DEPTH {
                    // Reported where the limit is crossed; what nests deeper is not replayed, so it is
                    // not worth a diagnostic per `(` either.
                    if depth == MAX_VARIATION_DEPTH + 1 {
                        self.diag(DiagnosticKind::VariationTooDeep, i - base, i + 1 - base);
                    }
                } else if !self.has_move {
                    self.diag(DiagnosticKind::VariationWithoutMove, i - base, i + 1 - base);
                }
                self.outer.push(self.has_move);
                self.has_move = false;
                self.game.has_variations = true;
                self.push(TokenKind::VariationStart, i, i + 1, base);
                (i + 1, false)
            }
            b')' => {
                if let Some(outer) = self.outer.pop() {
                    self.has_move = outer;
                } else {
                    self.diag(
                        DiagnosticKind::UnexpectedVariationEnd,
                        i - base,
                        i + 1 - base,
                    );
                }
                self.push(TokenKind::VariationEnd, i, i + 1, base);
                (i + 1, false)
            }
            b'*' => (self.result(GameResult::Unknown, i, i + 1, base), true),
            b'.' => {
                let dots = rest.iter().take_while(|&&b| b == b'.').count();
                if self.periods_of_bare_number(i, i + dots, dots >= 2, base) {
                    return (i + dots, false);
                }
                // `1. ... e5`, `1. e4 ... e5`: an ellipsis apart from its move number (read with a note)
                if dots >= 2 && word_ends(&rest[dots..]) {
                    self.diag(DiagnosticKind::SeparateEllipsis, i - base, i + dots - base);
                    return (i + dots, false);
                }
                self.symbol_or_unknown(i, base)
            }
            b'$' => {
                // `$` followed by a whole termination marker: the marker wins (as the splitter sees it)
                if lex::marker_at(buf, i + 1).is_some() {
                    return self.invalid_nag(i, i + 1, base);
                }
                match digit1::<_, ()>(&rest[1..]) {
                    Ok((r, digits)) => {
                        let to = i + 1 + digits.len();
                        match parse_u32(digits) {
                            n if n <= 255 => {
                                debug_assert_eq!(to, i + rest.len() - r.len());
                                self.push(TokenKind::Nag(n as u8), i, to, base);
                                (to, false)
                            }
                            _ => self.invalid_nag(i, to, base),
                        }
                    }
                    Err(_) => self.invalid_nag(i, i + 1, base),
                }
            }
            b'-' | b'@' => {
                if let Ok((r, mv)) = move_token(rest) {
                    return (self.mv(buf, i, rest.len() - r.len(), mv, base), false);
                }
                self.symbol_or_unknown(i, base)
            }
            0x80.. => {
                if let Ok((r, mv)) = move_token(rest) {
                    return (self.mv(buf, i, rest.len() - r.len(), mv, base), false);
                }
                if let Some((result, len)) = lex::marker_at(buf, i) {
                    return (self.result(result, i, i + len, base), true);
                }
                if rest.starts_with(ELLIPSIS)
                    && self.periods_of_bare_number(i, i + ELLIPSIS.len(), true, base)
                {
                    return (i + ELLIPSIS.len(), false);
                }
                if let Some(r) = rest.strip_prefix(ELLIPSIS)
                    && word_ends(r)
                {
                    self.diag(DiagnosticKind::SeparateEllipsis, i - base, i + 3 - base);
                    return (i + 3, false);
                }
                self.symbol_or_unknown(i, base)
            }
            _ => self.symbol_or_unknown(i, base),
        }
    }

    #[inline(always)]
    fn mv(&mut self, buf: &[u8], i: usize, len: usize, parsed: ParsedMove, base: usize) -> usize {
        let mut to = i + len;
        let mut en_passant = parsed.en_passant;
        // `exd6 e.p.`, `exd6 ep`: only a pawn capture (a file first, three bytes or more) can be followed by
        // it. No move in any language is spelled `ep` (`e` is a file, and `p` no square).
        if !en_passant && parsed.san_len >= 3 && is_file(buf[i]) {
            let j = lex::skip_ws(buf, to);
            let suffix = en_passant_suffix(&buf[j..]);
            if suffix > 0 && word_ends(&buf[j + suffix..]) {
                en_passant = true;
                to = j + suffix;
            }
        }
        let mv = MoveToken {
            san: Span::new(i - base, i + parsed.san_len - base),
            suffix: parsed.suffix,
            en_passant,
        };
        self.has_move = true;
        match parsed.shape {
            Shape::NoLetter => {}
            Shape::Strict => {
                if buf[i].is_ascii_uppercase() {
                    self.game.move_letters.capitals |= 1 << (buf[i] - b'A');
                }
            }
            Shape::Irregular => self.game.move_letters.irregular = true,
        }
        self.push(TokenKind::Move(mv), i, to, base);
        to
    }

    fn result(&mut self, result: GameResult, from: usize, to: usize, base: usize) -> usize {
        if !self.outer.is_empty() {
            self.diag(DiagnosticKind::UnclosedVariation, from - base, to - base);
        }
        if to - from != result.as_str().len() {
            // `1/2`, `½-½`
            self.diag(DiagnosticKind::ResultSpelling, from - base, to - base);
        }
        self.game.result = Some(result);
        self.push(TokenKind::Result(result), from, to, base);
        to
    }

    fn invalid_nag(&mut self, from: usize, to: usize, base: usize) -> (usize, bool) {
        self.push(TokenKind::Unknown, from, to, base);
        self.diag(DiagnosticKind::InvalidNag, from - base, to - base);
        (to, false)
    }

    fn symbol_or_unknown(&mut self, i: usize, base: usize) -> (usize, bool) {
        let word = word_at(self.buf, i);
        if let Some(nag) = annotation_symbol(word) {
            self.push(TokenKind::Nag(nag), i, i + word.len(), base);
            return (i + word.len(), false);
        }
        self.unknown_word(i, base)
    }

    fn unknown_word(&mut self, i: usize, base: usize) -> (usize, bool) {
        let len = word_at(self.buf, i).len().max(1);
        self.unknown(i, i + len, base);
        (i + len, false)
    }
}

impl<'a> Iterator for GameReader<'a> {
    type Item = Game<'a>;

    /// The next game as an owned value (allocates its lists; [`GameReader::next_game`] reuses them).
    fn next(&mut self) -> Option<Game<'a>> {
        if self.parse_one() {
            Some(std::mem::take(&mut self.game))
        } else {
            None
        }
    }
}

/// All games of a buffer (a leading BOM skipped).
pub fn parse_all(buf: &[u8]) -> Vec<Game<'_>> {
    GameReader::new(buf).collect()
}

/// The word starting at `i` (see [`lex::word_at`]).
#[inline]
fn word_at(buf: &[u8], i: usize) -> &[u8] {
    lex::word_at(buf, i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::model::KEPT_LIST_BYTES;
    use crate::pgn::{DiagnosticKind as D, Encoding, Location};

    /// Tokens of the first game as short strings: `N12`, `N12...`, `M<san>[!n][ep]`, `$n`, `{}`,
    /// `;`, `%`, `(`, `)`, `(=)`, `R<marker>`, `?<text>`.
    fn toks(pgn: &str) -> Vec<String> {
        let mut games = GameReader::new(pgn.as_bytes());
        let g = games.next_game().expect("a game");
        g.tokens
            .iter()
            .map(|t| match t.kind {
                TokenKind::MoveNumber { number, black } => {
                    format!("N{number}{}", if black { "..." } else { "" })
                }
                TokenKind::Move(m) => format!(
                    "M{}{}{}",
                    String::from_utf8_lossy(g.san(&m)),
                    m.suffix.map(|n| format!("!{n}")).unwrap_or_default(),
                    if m.en_passant { "ep" } else { "" }
                ),
                TokenKind::Nag(n) => format!("${n}"),
                TokenKind::Comment => format!("{{{}}}", g.comment(t.span)),
                TokenKind::LineComment => format!(";{}", g.comment(t.span)),
                TokenKind::Escape => "%".into(),
                TokenKind::VariationStart => "(".into(),
                TokenKind::VariationEnd => ")".into(),
                TokenKind::DrawOffer => "(=)".into(),
                TokenKind::Result(r) => format!("R{r}"),
                TokenKind::Unknown => format!("?{}", g.text(t.span)),
            })
            .collect()
    }

    fn diags(pgn: &str) -> Vec<(D, String)> {
        GameReader::new(pgn.as_bytes())
            .flat_map(|g| {
                g.diagnostics
                    .iter()
                    .map(|d| (d.kind, g.location(d.span.start).to_string()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn movetext_tokens() {
        let t = toks(
            "1. e4 e5 2.Nf3 Nc6 3... a6 12… Cf3 4. ♘f3+ e8Q e8=q 0-0 O-O-O Ng1f3 e2-e4 Qh5# \
             exd6 e.p. exd6e.p. -- Z0 e4!? e4 !? $17 += ∓ ± (=) {a [%clk 0:03:00]}{b} ; rest\n\
             (1... d5 (1... c5) $1) 1/2-1/2",
        );
        let want = "N1 Me4 Me5 N2 MNf3 MNc6 N3... Ma6 N12... MCf3 N4 M♘f3+ Me8Q Me8=q M0-0 MO-O-O \
                    MNg1f3 Me2-e4 MQh5# Mexd6ep Mexd6ep M-- MZ0 Me4!5 Me4 $5 $17 $14 $17 $16 (=) \
                    {a [%clk 0:03:00]} {b} ; rest ( N1... Md5 ( N1... Mc5 ) $1 ) R1/2-1/2";
        assert_eq!(t.join(" "), want);
    }

    /// `ep` without its periods, glued or apart, after a pawn capture as `e.p.` is; anywhere else it is no
    /// token of PGN.
    #[test]
    fn en_passant_suffix_without_periods() {
        assert_eq!(
            toks("3. exd6ep Nf6 4. exd6 ep Nf6 5. exd6+ep *").join(" "),
            "N3 Mexd6ep MNf6 N4 Mexd6ep MNf6 N5 Mexd6+ep R*"
        );
        assert_eq!(toks("1. Nf3 ep *").join(" "), "N1 MNf3 ?ep R*");
        assert_eq!(toks("1. e4 ep *").join(" "), "N1 Me4 ?ep R*");
        let mut reader = GameReader::new(b"1. exd6 ep *");
        let game = reader.next_game().unwrap();
        assert_eq!(game.text(game.tokens[1].span), "exd6 ep");
    }

    /// A bare move number and its periods apart are one move number indication, as the standard's
    /// tokens make them; no separate ellipsis is noted.
    #[test]
    fn periods_apart_from_a_bare_number_are_its_own() {
        let t = toks("1. e4 e5 2 . Nf3 Nc6 3 ... a6 3 …Bc4 4  .Ba4 4\n... Nf6 5 .. O-O *");
        assert_eq!(
            t.join(" "),
            "N1 Me4 Me5 N2 MNf3 MNc6 N3... Ma6 N3... MBc4 N4 MBa4 N4... MNf6 N5... MO-O R*"
        );
        assert!(diags("1. e4 e5 2 . Nf3 Nc6 3 ... a6 *").is_empty());
        // The token covers the periods.
        let mut reader = GameReader::new(b"1. e4 e5 2 . Nf3 *");
        let game = reader.next_game().unwrap();
        let number = &game.tokens[3];
        assert_eq!(game.text(number.span), "2 .");
        // A number that has its period keeps the ellipsis apart as before, with its note.
        assert_eq!(
            diags("1. ... e5 *"),
            [(D::SeparateEllipsis, "1:4".to_string())]
        );
        // Periods after something other than a bare number are not taken.
        assert_eq!(toks("1. e4 . e5 *")[2], "?.");
    }

    #[test]
    fn glued_and_odd_forms() {
        assert_eq!(toks("1... h6*").join(" "), "N1... Mh6 R*");
        assert_eq!(toks("1.e4$1 e5$2 *").join(" "), "N1 Me4 $1 Me5 $2 R*");
        assert_eq!(
            toks("1. e4 pawn goes to e5 *").join(" "),
            "N1 Me4 ?pawn goes to Me5 R*"
        );
        assert_eq!(toks("1. Tf8-e8.0-0 *").join(" "), "N1 MTf8-e8 ?. M0-0 R*");
        assert_eq!(toks("1. e4 $300 $ *").join(" "), "N1 Me4 ?$300 ?$ R*");
        assert_eq!(toks("%escape\n1. e4 % no *").join(" "), "% N1 Me4 ?% no R*");
        assert_eq!(toks("1. e4 $1-0").join(" "), "N1 Me4 ?$ R1-0");
    }

    #[test]
    fn has_variations_says_whether_a_variation_start_was_read() {
        // Each game read by the same reader (its lists recycled): the flag is set by the first `(` and
        // cleared for the next game; a `(` in a comment or a stray `)` does not count.
        let pgn = "1. e4 (1. d4) e5 *\n\n1. e4 {(1. d4)} e5 ) *\n\n1. e4 ( *\n\n1. e4 e5 *\n";
        let mut reader = GameReader::new(pgn.as_bytes());
        let mut seen = Vec::new();
        while let Some(g) = reader.next_game() {
            let has_start = g.tokens.iter().any(|t| t.kind == TokenKind::VariationStart);
            assert_eq!(g.has_variations, has_start, "game {}", g.index);
            seen.push(g.has_variations);
        }
        assert_eq!(seen, [true, false, true, false]);
    }

    #[test]
    fn variations_checked_without_recursion() {
        let nested =
            |depth: usize| format!("1. e4 {}e5{} *", "(1. d4 ".repeat(depth), ")".repeat(depth));
        let at_limit = nested(MAX_VARIATION_DEPTH);
        let g = GameReader::new(at_limit.as_bytes()).next().unwrap();
        assert!(!g.has_errors(), "{:?}", &g.diagnostics[..1]);
        // Beyond the limit: one diagnostic, at the first `(` too deep, whatever lies deeper; the game is
        // still read to its end.
        for depth in [MAX_VARIATION_DEPTH + 1, 100_000] {
            let text = nested(depth);
            let g = GameReader::new(text.as_bytes()).next().unwrap();
            let too_deep = 6 + "(1. d4 ".len() * MAX_VARIATION_DEPTH;
            assert_eq!(
                g.diagnostics,
                [Diagnostic {
                    kind: D::VariationTooDeep,
                    span: Span::new(too_deep, too_deep + 1),
                }],
                "{depth}"
            );
            assert_eq!(g.result, Some(GameResult::Unknown));
            assert_eq!(g.tokens.len(), 2 + 4 * depth + 2);
        }
        // A flood of `(` without moves: one diagnostic per level up to the limit, none deeper.
        let flood = format!("1. e4 {} *", "(".repeat(100_000));
        let kinds: Vec<D> = GameReader::new(flood.as_bytes())
            .next()
            .unwrap()
            .diagnostics
            .iter()
            .map(|d| d.kind)
            .collect();
        let mut expected = vec![D::VariationWithoutMove; MAX_VARIATION_DEPTH - 1];
        expected.extend([D::VariationTooDeep, D::UnclosedVariation]);
        assert_eq!(kinds, expected);
        assert_eq!(
            diags("1. e4 ((1. d4)) *"),
            [(D::VariationWithoutMove, "1:8".into())]
        );
        assert_eq!(
            diags("1. e4 ) *"),
            [(D::UnexpectedVariationEnd, "1:7".into())]
        );
        assert_eq!(
            diags("( 1. e4 ) *"),
            [(D::VariationWithoutMove, "1:1".into())]
        );
        assert_eq!(
            diags("1. e4 (1. d4 *"),
            [(D::UnclosedVariation, "1:14".into())]
        );
        assert_eq!(
            diags("1. e4 (1. d4"),
            [
                (D::UnclosedVariation, "1:13".into()),
                (D::MissingResult, "1:13".into())
            ]
        );
    }

    #[test]
    fn tags_model() {
        let pgn = "[Event \"A \\\"b\\\" \\\\\"]\n\n[Site \"x\"]\n\n1. e4 *";
        let g = GameReader::new(pgn.as_bytes()).next().unwrap();
        assert_eq!(g.tags.len(), 2);
        assert_eq!(g.tag("Event").unwrap(), "A \"b\" \\");
        assert_eq!(g.tag_raw("Event").unwrap(), b"A \\\"b\\\" \\\\");
        assert_eq!(g.tag("Site").unwrap(), "x");
        assert_eq!(g.tag("Round"), None);
        assert_eq!(g.result, Some(GameResult::Unknown));
        assert!(g.diagnostics.is_empty());
    }

    #[test]
    fn game_boundaries() {
        let count = |s: &str| GameReader::new(s.as_bytes()).count();
        // python-chess would merge these; a tag pair after movetext starts a game
        assert_eq!(count("[A \"1\"]\n1. e4 e5\n[A \"2\"]\n1. d4 *"), 2);
        // pgn-reader would split at the blank line after the opening comment
        assert_eq!(count("[A \"1\"]\n\n{opening}\n\n1. e4 e5\n\n2. Nf3 *"), 1);
        // tag-only games, blank lines between tags
        assert_eq!(
            count("[A \"1\"]\n[B \"1\"]\n\n[A \"2\"]\n\n[B \"2\"]\n[C \"2\"]"),
            2
        );
        assert_eq!(count("[A \"1\"]\n\n[B \"1\"]\n"), 1);
        // tagless games separated by markers; trailing comment stays with its game
        let games: Vec<_> = GameReader::new(b"1. e4 1-0 {bye}\n1. d4 0-1\n".as_slice()).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].source, b"1. e4 1-0 {bye}\n");
        assert_eq!(games[1].index, 1);
        // nothing but trivia: no game
        assert_eq!(count("; only\n{a comment}\n"), 0);
        assert_eq!(count(""), 0);
    }

    #[test]
    fn missing_brace_does_not_eat_the_next_game() {
        let pgn = "[Event \"1\"]\n1. e4 {unclosed\n\n[Event \"2\"]\n1. d4 {fine} *\n";
        let games: Vec<_> = GameReader::new(pgn.as_bytes()).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].diagnostics[0].kind, D::UnterminatedComment);
        assert_eq!(
            games[0]
                .location(games[0].diagnostics[0].span.start)
                .to_string(),
            "2:8"
        );
        assert!(!games[1].has_errors());
        assert_eq!(games[1].tag("Event").unwrap(), "2");
    }

    #[test]
    fn locations_as_editors_count() {
        // BOM not counted, tabs count one, UTF-8 characters count one, CRLF is one line break
        let pgn =
            "\u{FEFF}[Event \"é\"]\r\n\r\n1.\te4 ♘f3 pawn *\r\n\r\n[Event \"2\"]\r\n1. e4 zz *";
        let games: Vec<_> = GameReader::new(pgn.as_bytes()).collect();
        assert_eq!(games[0].offset, 3);
        assert_eq!(games[0].location(0), Location { line: 1, column: 1 });
        let d = games[0].diagnostics[0];
        assert_eq!(games[0].location(d.span.start).to_string(), "3:11");
        assert_eq!(games[1].line, 5);
        let d = games[1].diagnostics[0];
        assert_eq!(games[1].location(d.span.start).to_string(), "6:7");
        let map = games[1].line_map();
        assert_eq!(map.location(d.span.start), games[1].location(d.span.start));
        // a game starting mid-line
        let games: Vec<_> = GameReader::new("1. e4 1-0 1. d4 zz *".as_bytes()).collect();
        assert_eq!((games[1].line, games[1].column), (1, 11));
        let d = games[1].diagnostics[0];
        assert_eq!(games[1].location(d.span.start).to_string(), "1:17");
    }

    #[test]
    fn encoding_per_game() {
        let pgn = b"[Event \"caf\xe9\"]\n1. e4 *\n[Event \"caf\xc3\xa9\"]\n1. e4 xx *\n";
        let games: Vec<_> = GameReader::new(pgn.as_slice()).collect();
        assert_eq!(games[0].encoding, Encoding::Cp1252);
        assert_eq!(games[0].tag("Event").unwrap(), "café");
        assert_eq!(games[1].encoding, Encoding::Utf8);
        assert_eq!(games[1].tag("Event").unwrap(), "café");
        let d = games[1].diagnostics[0];
        assert_eq!(games[1].location(d.span.start).to_string(), "4:7");
    }

    #[test]
    fn linear_on_pathological_input() {
        // kokopu's ReDoS case, scaled up: an unterminated comment full of backslashes
        let evil = format!("1. e4 {{{}", "\\\\".repeat(1 << 20));
        let g = GameReader::new(evil.as_bytes()).next().unwrap();
        assert_eq!(g.diagnostics[0].kind, D::UnterminatedComment);
        // many tags with distinct names, many unescaped quotes on one line
        let tags: String = (0..50_000).map(|i| format!("[T{i} \"x\"]")).collect();
        assert_eq!(GameReader::new(tags.as_bytes()).count(), 1);
        let quotes = format!("[Event \"{}\"]", "a\" ".repeat(100_000));
        assert_eq!(GameReader::new(quotes.as_bytes()).count(), 1);
    }

    #[test]
    fn tokens_stay_small() {
        assert!(std::mem::size_of::<Token>() <= 24);
        assert!(std::mem::size_of::<Tag>() <= 24);
        assert!(std::mem::size_of::<Diagnostic>() <= 12);
    }

    /// Games of every kind the reader tells apart, and one long enough to grow the lists past what a slot
    /// keeps.
    fn assorted_games() -> Vec<u8> {
        let mut text = Vec::new();
        for i in 0..70 {
            match i % 7 {
                0 => text.extend_from_slice(
                    b"[Event \"a\"]\n[White \"W\"]\n\n1. e4 e5 2. Nf3 {x} Nc6 1-0\n\n",
                ),
                1 => text.extend_from_slice(b"1. d4 (1. c4 e5) d5 2. c4 $1 *\r\n\r\n"),
                2 => text.extend_from_slice(b"[Event \"caf\xe9\"]\n\n1. e4 Kx?? {unclosed\n\n"),
                3 => text.extend_from_slice(b"[Event \"tags only\"]\n[Result \"*\"]\n\n*\n\n"),
                4 => {
                    text.extend_from_slice(b"[Event \"long\"]\n\n");
                    for n in 1..=3000 {
                        text.extend_from_slice(format!("{n}. Nf3 {{a}} Nf6 {{b}} ").as_bytes());
                    }
                    text.extend_from_slice(b"*\n\n");
                }
                5 => text.extend_from_slice(b"%escaped line\n1. e4 ; rest\n e5 0-1\n\n"),
                _ => text.extend_from_slice(
                    b"[Event \"b\"]\n1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7# 1-0\n\n",
                ),
            }
        }
        text
    }

    #[test]
    fn groups_hold_the_games_read_one_at_a_time() {
        let text = assorted_games();
        let mut one = GameReader::new(&text);
        let mut expected = Vec::new();
        while let Some(game) = one.next_game() {
            expected.push(game.clone());
        }
        assert_eq!(expected.len(), 70);

        let mut grouped = GameReader::new(&text);
        let mut got = Vec::new();
        while let Some(group) = grouped.next_group() {
            assert!(group.len() <= GROUP_GAMES);
            // Only the last game may take the group to its byte limit.
            let before_last: usize = group[..group.len() - 1]
                .iter()
                .map(|g| g.source.len())
                .sum();
            assert!(before_last < GROUP_BYTES, "{before_last}");
            got.extend(group.iter().cloned());
        }
        assert_eq!(got, expected);
        assert!(grouped.next_group().is_none(), "still none after the end");

        // One game at a time and groups, mixed on one reader.
        let mut mixed = GameReader::new(&text);
        let mut got = Vec::new();
        for turn in 0.. {
            if turn % 2 == 0 {
                match mixed.next_game() {
                    Some(game) => got.push(game.clone()),
                    None => break,
                }
            } else {
                match mixed.next_group() {
                    Some(group) => got.extend(group.iter().cloned()),
                    None => break,
                }
            }
        }
        assert_eq!(got, expected);

        // A reader lent the lists of another reads the same games.
        let mut lent = GameReader::new(&text).with_lists(grouped.into_lists());
        let mut got = Vec::new();
        while let Some(game) = lent.next_game() {
            got.push(game.clone());
        }
        assert_eq!(got, expected);
    }

    /// The bytes a reader's idle lists hold: every slot's, its own game's included.
    fn largest_list(reader: &GameReader<'_>) -> usize {
        std::iter::once(&reader.game)
            .chain(&reader.group)
            .map(|g| {
                (g.tokens.capacity() * std::mem::size_of::<Token>())
                    .max(g.tags.capacity() * std::mem::size_of::<Tag>())
                    .max(g.diagnostics.capacity() * std::mem::size_of::<Diagnostic>())
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn a_long_game_leaves_no_long_lists_behind() {
        let mut text = Vec::new();
        text.extend_from_slice(b"[Event \"long\"]\n\n");
        for n in 1..=5000 {
            text.extend_from_slice(format!("{n}. Nf3 {{a}} Nf6 {{b}} ").as_bytes());
        }
        text.extend_from_slice(b"*\n\n");
        let short = "[Event \"short\"]\n\n1. e4 e5 *\n\n".repeat(3 * GROUP_GAMES);
        text.extend_from_slice(short.as_bytes());

        let mut games = GameReader::new(&text);
        let long = &games.next_group().unwrap()[0];
        assert!(long.tokens.len() * std::mem::size_of::<Token>() > KEPT_LIST_BYTES);
        assert_eq!(games.next_group().map(<[Game]>::len), Some(GROUP_GAMES));
        assert!(largest_list(&games) <= KEPT_LIST_BYTES);
        // Nor does the reader's one-at-a-time game keep them, when lent on.
        let mut again = GameReader::new(&text);
        assert!(again.next_game().is_some());
        let lists = again.into_lists();
        assert!(
            lists
                .games
                .iter()
                .all(|g| g.tokens.capacity() * std::mem::size_of::<Token>() <= KEPT_LIST_BYTES)
        );
    }
}
