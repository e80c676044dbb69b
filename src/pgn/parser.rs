//! The PGN grammar (nom parsers over bytes) and the game reader that drives it.
//!
//! The driver is a loop over tokens with a small state (before the game, tags, movetext, after the
//! termination marker) that also decides where the game ends; each token is read by a nom parser chosen
//! by its first byte. No recursion (variations are counted, not nested calls), no backtracking beyond a
//! few bytes: the reader is linear in its input.

use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while, take_while_m_n};
use nom::character::complete::digit1;
use nom::combinator::{opt, recognize, value};

use super::lex::{self, GameResult, NameSet, PResult, TagProblem, is_boundary, word_ends};
use super::model::{Diagnostic, DiagnosticKind, Game, MoveToken, Span, Tag, Token, TokenKind};
use super::text::{self, Location};

/// Where the first game of a buffer starts in its file: enough to number lines, columns and games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameStart {
    /// Absolute byte offset of the buffer's first byte.
    pub offset: u64,
    /// Line (1-based) of the buffer's first byte.
    pub line: u64,
    /// Column (1-based, characters) of the buffer's first byte.
    pub column: u32,
    /// Index of the buffer's first game in the file.
    pub index: u64,
}

impl Default for GameStart {
    fn default() -> Self {
        GameStart {
            offset: 0,
            line: 1,
            column: 1,
            index: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Nothing but whitespace and trivia yet.
    Before,
    /// In the tag section.
    Tags,
    /// In the movetext, no termination marker yet.
    Movetext,
    /// After the termination marker: only trivia still belongs to this game.
    Ended,
}

/// Reads the games of a buffer one after the other.
///
/// ```
/// use pgnkit::pgn::Games;
/// let pgn = b"[Event \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n[Event \"B\"]\n1. d4 *\n";
/// let mut games = Games::new(pgn);
/// while let Some(game) = games.next_game() {
///     println!("game {} at line {}: {} tokens", game.index, game.line, game.tokens.len());
/// }
/// ```
#[derive(Debug)]
pub struct Games<'a> {
    buf: &'a [u8],
    buf_at_line_start: bool,
    pos: usize,
    next: GameStart,
    names: NameSet<'a>,
    /// Per open line of play (main line first): whether a move was seen on it.
    levels: Vec<bool>,
    /// End of the last token (to merge consecutive unknown words).
    last_end: usize,
    game: Game<'a>,
}

impl<'a> Games<'a> {
    /// A whole file (or stream) in memory: a leading UTF-8 BOM is skipped.
    pub fn new(buf: &'a [u8]) -> Games<'a> {
        if buf.starts_with(lex::BOM) {
            Games::with_start(
                &buf[3..],
                GameStart {
                    offset: 3,
                    ..GameStart::default()
                },
            )
        } else {
            Games::with_start(buf, GameStart::default())
        }
    }

    /// A buffer that starts at a game boundary (as a [`super::Batch`] does), with where it is in its file.
    pub fn with_start(buf: &'a [u8], start: GameStart) -> Games<'a> {
        Games {
            buf,
            buf_at_line_start: start.column == 1,
            pos: 0,
            next: start,
            names: NameSet::default(),
            levels: Vec::new(),
            last_end: 0,
            game: Game::default(),
        }
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

    /// Byte position (in the buffer) where the next game starts.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn parse_one(&mut self) -> bool {
        let full = self.buf;
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
        self.names.clear();
        self.levels.clear();
        self.levels.push(false);
        self.last_end = usize::MAX;

        let mut state = State::Before;
        let mut i = start;
        let end = loop {
            i = lex::skip_ws(buf, i);
            if i >= n {
                break n;
            }
            let c = buf[i];
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
                    match state {
                        State::Ended => break i,
                        State::Movetext => {
                            if lex::looks_like_tag(buf, i) {
                                break i;
                            }
                            self.unknown(i, i + 1, start);
                            i += 1;
                            continue;
                        }
                        State::Before | State::Tags => {}
                    }
                    let Ok((_, scan)) = lex::tag_pair(buf, i) else {
                        unreachable!("tag_pair accepts any '['")
                    };
                    let name = &buf[scan.name.0..scan.name.1];
                    if !name.is_empty() {
                        if state == State::Tags && self.names.contains(name) {
                            break i;
                        }
                        self.names.insert(name);
                    }
                    state = State::Tags;
                    self.tag(buf, i, &scan, start);
                    i = scan.end;
                }
                _ => {
                    if state == State::Ended {
                        break i;
                    }
                    state = State::Movetext;
                    let (next, result) = self.movetext_token(buf, i, start);
                    i = next;
                    if result {
                        state = State::Ended;
                    }
                }
            }
        };
        if state == State::Before {
            // only whitespace and trivia left: no game
            self.pos = full.len();
            return false;
        }
        let rel_end = end - start;
        if end == cap && cap < full.len() {
            self.diag(DiagnosticKind::GameTooLarge, rel_end, rel_end);
        }
        if self.game.result.is_none() {
            if self.levels.len() > 1 {
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
        g.encoding = text::detect_encoding(source);
        let after = text::advance(
            Location {
                line: self.next.line,
                column: self.next.column,
            },
            source,
        );
        self.next = GameStart {
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
        self.last_end = to;
    }

    #[inline]
    fn diag(&mut self, kind: DiagnosticKind, from: usize, to: usize) {
        self.game.diagnostics.push(Diagnostic {
            kind,
            span: Span::new(from, to),
        });
    }

    /// An unrecognised word: merged into the previous token when that one is unknown too and only
    /// whitespace separates them.
    fn unknown(&mut self, from: usize, to: usize, base: usize) {
        let merge = matches!(
            self.game.tokens.last(),
            Some(Token {
                kind: TokenKind::Unknown,
                ..
            })
        ) && self.last_end != usize::MAX
            && lex::skip_ws(self.buf, self.last_end) == from;
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
            self.last_end = to;
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
        self.last_end = scan.end;
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
                TagProblem::MissingName(p) => (DiagnosticKind::MissingTagName, at(p)),
                TagProblem::MissingValue(p) => (DiagnosticKind::MissingTagValue, at(p)),
                TagProblem::MissingEnd(p) => (DiagnosticKind::MissingTagEnd, at(p)),
                TagProblem::UnescapedQuote(p) => (DiagnosticKind::UnescapedQuoteInTagValue, at(p)),
                TagProblem::UnterminatedValue(p) => (
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
                if let Some((result, len)) = lex::marker_at(buf, i) {
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
                if !*self.levels.last().unwrap_or(&true) {
                    self.diag(DiagnosticKind::VariationWithoutMove, i - base, i + 1 - base);
                }
                self.levels.push(false);
                self.push(TokenKind::VariationStart, i, i + 1, base);
                (i + 1, false)
            }
            b')' => {
                if self.levels.len() > 1 {
                    self.levels.pop();
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
                self.symbol_or_unknown(i, base)
            }
            _ => self.symbol_or_unknown(i, base),
        }
    }

    #[inline]
    fn mv(&mut self, buf: &[u8], i: usize, len: usize, parsed: ParsedMove, base: usize) -> usize {
        let mut to = i + len;
        let mut en_passant = parsed.en_passant;
        if !en_passant {
            // `exd6 e.p.`
            let j = lex::skip_ws(buf, to);
            if buf[j..].starts_with(b"e.p.") && word_ends(&buf[j + 4..]) {
                en_passant = true;
                to = j + 4;
            }
        }
        let mv = MoveToken {
            san: Span::new(i - base, i + parsed.san_len - base),
            suffix: parsed.suffix,
            en_passant,
        };
        if let Some(l) = self.levels.last_mut() {
            *l = true;
        }
        self.push(TokenKind::Move(mv), i, to, base);
        to
    }

    fn result(&mut self, result: GameResult, from: usize, to: usize, base: usize) -> usize {
        if self.levels.len() > 1 {
            self.diag(DiagnosticKind::UnclosedVariation, from - base, to - base);
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

impl<'a> Iterator for Games<'a> {
    type Item = Game<'a>;

    /// The next game as an owned value (allocates its lists; [`Games::next_game`] reuses them).
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
    Games::new(buf).collect()
}

/// The word starting at `i`: up to the next boundary byte (empty when `buf[i]` is one).
#[inline]
fn word_at(buf: &[u8], i: usize) -> &[u8] {
    let r: PResult<'_, &[u8]> = take_till(is_boundary)(&buf[i..]);
    r.map(|(_, w)| w).unwrap_or_default()
}

fn parse_u32(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |n, d| {
        n.saturating_mul(10).saturating_add((d - b'0') as u32)
    })
}

/// A move number: digits, then periods or an ellipsis (`…`); a bare number must end its word.
fn move_number(input: &[u8]) -> PResult<'_, (u32, bool)> {
    let (rest, digits) = digit1(input)?;
    let (rest, dots) = take_while(|b| b == b'.')(rest)?;
    let (rest, ellipsis) = opt(tag(&b"\xE2\x80\xA6"[..])).parse(rest)?;
    if dots.is_empty() && ellipsis.is_none() && !word_ends(rest) {
        return Err(nom::Err::Error(()));
    }
    Ok((
        rest,
        (parse_u32(digits), dots.len() >= 2 || ellipsis.is_some()),
    ))
}

/// A move token as parsed: lengths relative to its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ParsedMove {
    san_len: usize,
    suffix: Option<u8>,
    en_passant: bool,
}

#[inline(always)]
fn is_file(b: u8) -> bool {
    (b'a'..=b'h').contains(&b)
}

#[inline(always)]
fn is_rank(b: u8) -> bool {
    (b'1'..=b'8').contains(&b)
}

#[inline(always)]
fn is_square_char(b: u8) -> bool {
    is_file(b) || is_rank(b) || b == b'x' || b == b':' || b == b'-'
}

/// Piece letters of the languages in the PGN standard and in use (English KQRBNP, French RDTFC,
/// German KDTLSB, Dutch KDTLPO, Spanish/Italian RDTAC, Czech KDVSJ, Polish KHWGS, Hungarian KVBFHG,
/// Finnish KDTLR, Romanian RDTNC...): every capital except E, I, M, U, X, Y, Z.
#[inline(always)]
fn is_piece_letter(b: u8) -> bool {
    b.is_ascii_uppercase() && !matches!(b, b'E' | b'I' | b'M' | b'U' | b'X' | b'Y' | b'Z')
}

/// A figurine: U+2654..=U+265F (♔♕♖♗♘♙♚♛♜♝♞♟), three bytes in UTF-8.
fn figurine(input: &[u8]) -> PResult<'_, &[u8]> {
    match input {
        [0xE2, 0x99, 0x94..=0x9F, ..] => Ok((&input[3..], &input[..3])),
        _ => Err(nom::Err::Error(())),
    }
}

fn piece(input: &[u8]) -> PResult<'_, &[u8]> {
    alt((take_while_m_n(1, 1, is_piece_letter), figurine)).parse(input)
}

/// Whether `run` (squares, files, ranks and separators) is `[file][rank][x|:|-]file rank`.
fn square_shape(run: &[u8]) -> bool {
    let n = run.len();
    if n < 2 || !is_file(run[n - 2]) || !is_rank(run[n - 1]) {
        return false;
    }
    let mut p = &run[..n - 2];
    if let Some(&(b'x' | b':' | b'-')) = p.last() {
        p = &p[..p.len() - 1];
    }
    match *p {
        [] => true,
        [a] => is_file(a) || is_rank(a),
        [f, r] => is_file(f) && is_rank(r),
        _ => false,
    }
}

/// The longest prefix (2..=6 bytes) of square characters with a [`square_shape`]; returns the
/// destination rank too.
fn squares(input: &[u8]) -> PResult<'_, u8> {
    let (_, run) = take_while_m_n(2, 6, is_square_char)(input)?;
    let mut len = run.len();
    while len >= 2 {
        if square_shape(&run[..len]) {
            return Ok((&input[len..], run[len - 1]));
        }
        len -= 1;
    }
    Err(nom::Err::Error(()))
}

fn castle(input: &[u8]) -> PResult<'_, &[u8]> {
    alt((tag("O-O-O"), tag("O-O"), tag("0-0-0"), tag("0-0"))).parse(input)
}

fn null_move(input: &[u8]) -> PResult<'_, &[u8]> {
    alt((tag("--"), tag("Z0"))).parse(input)
}

/// A drop (crazyhouse, `N@f3`, `@g4`): accepted as a token so that the replay layer, not the syntax,
/// rejects the variant.
fn drop_move(input: &[u8]) -> PResult<'_, ()> {
    let (rest, _) = opt(piece).parse(input)?;
    let (rest, _) = tag("@")(rest)?;
    let (rest, _) = take_while_m_n(1, 1, is_file)(rest)?;
    let (rest, _) = take_while_m_n(1, 1, is_rank)(rest)?;
    Ok((rest, ()))
}

fn piece_move(input: &[u8]) -> PResult<'_, ()> {
    let (rest, _) = piece(input)?;
    let (rest, _) = squares(rest)?;
    Ok((rest, ()))
}

/// A pawn move: `e4`, `exd5`, `ed5`, `e:d5`, `e2e4`, `e2-e4`, then a promotion (`=Q`, `=q`, `=♕`, or a
/// glued letter on the last rank: `e8Q`, `e7e8q`).
fn pawn_move(input: &[u8]) -> PResult<'_, ()> {
    if !input.first().is_some_and(|&b| is_file(b)) {
        return Err(nom::Err::Error(()));
    }
    let (rest, rank) = squares(input)?;
    if let Some(r) = rest.strip_prefix(b"=") {
        let (r, _) = alt((
            take_while_m_n(1, 1, |b: u8| b.is_ascii_alphabetic()),
            figurine,
        ))
        .parse(r)?;
        return Ok((r, ()));
    }
    if (rank == b'1' || rank == b'8')
        && let Ok((r, _)) = alt((
            take_while_m_n::<_, _, ()>(1, 1, |b: u8| b.is_ascii_alphabetic()),
            figurine,
        ))
        .parse(rest)
    {
        return Ok((r, ()));
    }
    Ok((rest, ()))
}

fn check(input: &[u8]) -> PResult<'_, Option<&[u8]>> {
    opt(alt((tag("++"), tag("+"), tag("#")))).parse(input)
}

/// A suffix annotation as its NAG number.
fn suffix(input: &[u8]) -> PResult<'_, u8> {
    alt((
        value(3, tag("!!")),
        value(5, tag("!?")),
        value(6, tag("?!")),
        value(4, tag("??")),
        value(1, tag("!")),
        value(2, tag("?")),
    ))
    .parse(input)
}

/// A whole move token: the move, check marks, a glued `e.p.`, a glued suffix annotation; it must end
/// its word. The move's letters are not interpreted (any language; the notation layer resolves them).
fn move_token(input: &[u8]) -> PResult<'_, ParsedMove> {
    let (rest, core) = recognize((
        alt((
            castle,
            null_move,
            recognize(piece_move),
            recognize(pawn_move),
            recognize(drop_move),
        )),
        check,
    ))
    .parse(input)?;
    let (rest, ep) = opt(tag("e.p.")).parse(rest)?;
    let (rest, sfx) = opt(suffix).parse(rest)?;
    if !word_ends(rest) {
        return Err(nom::Err::Error(()));
    }
    Ok((
        rest,
        ParsedMove {
            san_len: core.len(),
            suffix: sfx,
            en_passant: ep.is_some(),
        },
    ))
}

/// Annotation symbols written as whole words, with their standard NAG numbers.
pub(crate) fn annotation_symbol(word: &[u8]) -> Option<u8> {
    if word == b"\xB1" {
        // `±` in a Latin-1 / Windows-1252 game
        return Some(16);
    }
    let nag = match std::str::from_utf8(word).ok()? {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        "□" => 7,
        "=" => 10,
        "~" | "inf" | "∞" => 13,
        "+=" | "+/=" | "⩲" => 14,
        "=+" | "=/+" | "⩱" => 15,
        "+/-" | "±" => 16,
        "-/+" | "∓" => 17,
        "+-" => 18,
        "-+" => 19,
        "⨀" => 22,
        "⟳" => 32,
        "→" => 36,
        "↑" => 40,
        "=/~" | "=/∞" => 44,
        "⇆" => 132,
        "⊕" => 138,
        "∆" | "Δ" => 140,
        "⌓" => 142,
        "RR" => 145,
        "N" => 146,
        _ => return None,
    };
    Some(nag)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Option<(usize, Option<u8>, bool)> {
        move_token(s.as_bytes())
            .ok()
            .filter(|(r, _)| r.is_empty())
            .map(|(_, m)| (m.san_len, m.suffix, m.en_passant))
    }

    #[test]
    fn move_tokens_any_language() {
        for s in [
            "e4", "Nf3", "Cf3", "Sf3", "♘f3", "e8Q", "e8=q", "e8=Q+", "0-0", "O-O-O", "0-0-0#",
            "Ng1f3", "Ng1-f3", "e2-e4", "e2e4", "e7e8q", "Nf3+", "Qh5#", "Qh5++", "exd5", "e:d5",
            "cd5", "Rxe5", "Tf1", "Lb2", "Dd2", "Tad8", "Nbd7", "R1e2", "Qh4xe1", "--", "Z0",
            "Pe4", "♕xf7#", "bxa8=♕", "Kxe8", "N@f3", "P@g4+", "@e4",
        ] {
            assert_eq!(mv(s).map(|m| m.0), Some(s.len()), "{s}");
        }
        assert_eq!(mv("e4!?"), Some((2, Some(5), false)));
        assert_eq!(mv("Nf3+??"), Some((4, Some(4), false)));
        assert_eq!(mv("exd6e.p."), Some((4, None, true)));
        for s in [
            "pawn",
            "whatever",
            "Event",
            "goes",
            "to",
            "e9",
            "i4",
            "N",
            "RR",
            "e4e",
            "Nf3x",
            "b2xc3Cd7-b6",
            "e8=",
            "O-O-",
            "1.",
            "+-",
        ] {
            assert_eq!(mv(s), None, "{s}");
        }
    }

    #[test]
    fn move_numbers() {
        assert_eq!(move_number(b"12."), Ok((&b""[..], (12, false))));
        assert_eq!(move_number(b"12...Nf6"), Ok((&b"Nf6"[..], (12, true))));
        assert_eq!(
            move_number("12…e5".as_bytes()),
            Ok((&b"e5"[..], (12, true)))
        );
        assert_eq!(move_number(b"7 "), Ok((&b" "[..], (7, false))));
        assert!(move_number(b"7x").is_err());
    }

    #[test]
    fn symbols() {
        assert_eq!(annotation_symbol(b"+="), Some(14));
        assert_eq!(annotation_symbol("∓".as_bytes()), Some(17));
        assert_eq!(annotation_symbol(b"N"), Some(146));
        assert_eq!(annotation_symbol(b"x"), None);
    }
}
