//! Reading PGN from any [`Read`] with bounded memory: [`read_games`] parses game after game from
//! fixed-size blocks (one thread), [`BatchReader`] hands out owned batches of complete games (for
//! worker threads).
//!
//! See [`BlockReader`] for the limits (game size, blank space) and what a read error gives.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Read};
use std::ops::ControlFlow;

use super::game_reader::{BufferStart, GameLists, GameReader};
use super::lex::{self, is_blank};
use super::location::{self, Location};
use super::model::{DiagnosticKind, Game, RecordStart, TokenKind, kept_blank};
use super::split::game_starts;
use super::text::BOM;

/// Default block size of [`read_games`]: 64 KiB (a block that stays in the CPU cache between the copy
/// and the parse is measurably faster than a larger one).
pub const DEFAULT_BLOCK: usize = 1 << 16;

/// Default block size of [`BatchReader`]: 1 MiB (a batch is a unit of work for a thread).
pub const DEFAULT_BATCH: usize = 1 << 20;

/// The most bytes one game may take in the streaming readers: 64 MiB, from its first byte to the next game's
/// (trailing comments and blank lines included). The largest real games (annotated opening surveys with
/// thousands of variations) are a few megabytes; a game over the limit is reported as [`GameTooLarge`] and
/// skipped, so that memory stays bounded whatever the input.
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// Blank bytes (spaces, tabs, line breaks) after a finished game, or before the first game, that the readers
/// keep: a longer run is dropped as it is read (its lines are still counted). A quarter of the game limit when
/// that is smaller.
pub const MAX_BLANK_RUN: usize = 1 << 20;

/// How far a line's start is examined, when skipping a game over the limit, to tell whether it is a tag pair.
const LOOKAHEAD: usize = 256;

/// The largest column carried across dropped blank space (spans and columns are `u32`).
const MAX_COLUMN: u32 = u32::MAX / 2;

/// A game longer than the readers' limit ([`MAX_GAME_BYTES`] unless set otherwise): it was skipped. The
/// error the readers return for it has kind [`io::ErrorKind::InvalidData`] and this as its inner error; the
/// reader goes on after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTooLarge {
    /// Index of the game in its input (0 for the first).
    pub index: u64,
    /// Line where the game starts.
    pub line: u64,
    /// Column where the game starts.
    pub column: u32,
    /// The limit, in bytes.
    pub limit: usize,
    /// Line where reading resumed (the next game), or `None` when the game ran to the end of the input.
    pub resumed_at: Option<u64>,
}

impl fmt::Display for GameTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: game {} is longer than {}, the most one game may take; skipped ",
            self.line,
            self.column,
            self.index + 1,
            Size(self.limit)
        )?;
        match self.resumed_at {
            Some(line) => write!(f, "to the next game, at line {line}"),
            None => f.write_str("to the end of the input"),
        }
    }
}

impl std::error::Error for GameTooLarge {}

/// A byte count in words: `64 MiB`, `1000 bytes`.
struct Size(usize);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MIB: usize = 1 << 20;
        if self.0 >= MIB && self.0.is_multiple_of(MIB) {
            write!(f, "{} MiB", self.0 / MIB)
        } else {
            write!(f, "{} bytes", self.0)
        }
    }
}

/// Reads `input` in blocks of `block` bytes and calls `f` on every game, in order, until `f` breaks or
/// the input ends. Memory: one block plus the unfinished game carried over (a game longer than a block
/// grows the buffer; it is re-read only after the pending data doubled, so time stays linear), at most
/// [`MAX_GAME_BYTES`] for a game. A leading UTF-8 BOM is skipped. Returns the value `f` broke with, if it
/// did. Stops at the first error (a read error, after the complete games read before it; a game over the
/// limit): use [`BlockReader`] to go on past a game over the limit.
///
/// ```
/// use std::ops::ControlFlow;
/// let pgn: &[u8] = b"[Event \"A\"]\n1. e4 e5 1-0\n\n[Event \"B\"]\n1. d4 *\n";
/// let mut events = Vec::new();
/// pgnkit::pgn::read_games(pgn, 1 << 20, |game| {
///     events.push(game.tag("Event").unwrap().into_owned());
///     ControlFlow::<()>::Continue(())
/// })
/// .unwrap();
/// assert_eq!(events, ["A", "B"]);
/// ```
pub fn read_games<R, B, F>(input: R, block: usize, mut f: F) -> io::Result<Option<B>>
where
    R: Read,
    F: FnMut(&Game<'_>) -> ControlFlow<B>,
{
    let mut reader = BlockReader::new(input, block);
    loop {
        let step = reader.next_block(|games| {
            while let Some(game) = games.next_game() {
                if let ControlFlow::Break(b) = f(game) {
                    return Some(b);
                }
            }
            None
        })?;
        match step {
            None => return Ok(None),
            Some(Some(b)) => return Ok(Some(b)),
            Some(None) => {}
        }
    }
}

/// What a reader does next (see [`Feed::plan`]).
enum Plan {
    /// Hand out this error.
    Error(io::Error),
    /// The input is over.
    End,
    /// Hand out `buf[..len]` as complete games: finished games before a long blank run or a read error.
    Finished(usize),
    /// Look for complete games in the whole buffer; `more`: bytes may follow it (an unfinished last game is
    /// held back), else the buffer runs to the end of the input.
    Scan { more: bool },
}

/// A game over the limit being skipped.
#[derive(Debug)]
struct Skip {
    /// The game: index, line and column where it starts.
    index: u64,
    line: u64,
    column: u32,
    /// Offset and line of `buf[0]` (columns are not needed: skipping ends at the start of a line).
    offset: u64,
    buf_line: u64,
    /// `buf[0]` is at the start of a line.
    at_line_start: bool,
    /// The bytes dropped so far ended with a CR: an LF first in the next bytes ends the same line.
    after_cr: bool,
    /// A line that is no tag pair was seen: the next tag-pair line starts a game.
    seen_text: bool,
}

/// The input side both readers share: the pending bytes (which start at a game boundary), where they are,
/// and the limits (blank runs, game size, read errors). The readers differ in how they find complete games
/// in the pending bytes (the parser, or the splitter) and what they hand out.
#[derive(Debug)]
struct Feed<R> {
    input: R,
    block: usize,
    max_game: usize,
    buf: Vec<u8>,
    /// Where `buf[0]` is in the input.
    start: BufferStart,
    /// No more input: its end, or a read error (kept in `fault`).
    eof: bool,
    fault: Option<io::Error>,
    /// The buffer was scanned once after a read error (the complete games before it handed out).
    fault_scanned: bool,
    bom_checked: bool,
    /// Everything has been handed out.
    finished: bool,
    /// Blank bytes at the end of `buf`.
    blank_tail: usize,
    /// The last read ended a blank run longer than the readers keep: how many bytes of `buf`, counted from
    /// its end, follow the game before that run (from the end, so that it holds while games are handed out
    /// from the front).
    ended_run: Option<usize>,
    /// Pending length at the last scan that found no complete game (rescanned only after it doubles).
    stalled: usize,
    /// The pending bytes still hold games that the last call did not hand out (it handed out its most): the
    /// next plan reads nothing, so the buffer does not grow a block per call.
    hold: bool,
    /// Length of the non-blank head of `buf` when it last was found not to be finished games.
    unfinished_head: usize,
    skip: Option<Skip>,
    /// Errors to hand out before anything else.
    errors: VecDeque<io::Error>,
    /// Bytes read from the input so far.
    read: u64,
}

impl<R: Read> Feed<R> {
    fn new(input: R, block: usize) -> Self {
        Feed {
            input,
            block: block.max(1),
            max_game: MAX_GAME_BYTES,
            buf: Vec::new(),
            start: BufferStart::default(),
            eof: false,
            fault: None,
            fault_scanned: false,
            bom_checked: false,
            finished: false,
            blank_tail: 0,
            ended_run: None,
            stalled: 0,
            hold: false,
            unfinished_head: 0,
            skip: None,
            errors: VecDeque::new(),
            read: 0,
        }
    }

    /// Reads the next block, unless the input is over or the pending bytes are already past the game limit
    /// (they must be scanned first). A game over the limit being skipped reads on: the skip drops what it
    /// has passed, and may need the rest of a line to find where the next game starts.
    fn fill(&mut self) {
        let skipping = self.skip.is_some();
        if std::mem::take(&mut self.hold)
            || self.eof
            || (!skipping && self.buf.len() > self.max_game)
        {
            return;
        }
        let room = if skipping {
            self.block
        } else {
            self.max_game + 1 - self.buf.len()
        };
        // No read longer than the blank limit: a blank run over it then always ends in another read than the
        // one it starts in, where `ended_run` sees it. At least a byte: a read of none would look like no end.
        let want = self.block.min(self.blank_limit().max(1)).min(room);
        let before = self.buf.len();
        match read_block(&mut self.input, &mut self.buf, want) {
            Ok(got) => self.eof = got < want,
            Err(e) => {
                // The bytes read before the error are in `buf`.
                self.eof = true;
                self.fault = Some(e);
            }
        }
        let new = &self.buf[before..];
        self.read += new.len() as u64;
        let blank = trailing_blank(new);
        self.ended_run = None;
        self.blank_tail = if blank == new.len() {
            self.blank_tail + blank
        } else {
            // A run that crossed the limit within this read is as long as one that crossed it between two
            // reads: both end the game before them, so where a game ends never depends on the reads.
            let leading = new.iter().position(|&b| !is_blank(b)).unwrap_or(new.len());
            if self.blank_tail + leading > self.blank_limit() {
                self.ended_run = Some(new.len() + self.blank_tail);
            }
            blank
        };
    }

    /// The longest blank run kept after a finished game.
    fn blank_limit(&self) -> usize {
        MAX_BLANK_RUN.min(self.max_game / 4)
    }

    /// The bytes `buf[..used]` were handed out (and dropped from `buf` by the caller, which set `start`);
    /// `complete`: the scan ran to the end of the input.
    fn consumed(&mut self, used: usize, complete: bool) {
        self.blank_tail = self.blank_tail.min(self.buf.len());
        if used > 0 {
            self.unfinished_head = 0;
        }
        if complete {
            self.finished = true;
            self.buf.clear();
            return;
        }
        self.stalled = if used == 0 { self.buf.len() } else { 0 };
    }

    /// What to do next: reads as needed, drops blank runs, skips games over the limit.
    fn plan(&mut self) -> Plan {
        loop {
            if let Some(e) = self.errors.pop_front() {
                return Plan::Error(e);
            }
            if self.finished {
                return Plan::End;
            }
            self.fill();
            if !self.bom_checked {
                // A buffer past a tiny game limit reads no more: what it holds decides.
                let final_bytes = self.eof || self.buf.len() > self.max_game;
                if !skip_bom(&mut self.buf, &mut self.start, final_bytes) {
                    continue;
                }
                self.bom_checked = true;
                self.blank_tail = self.blank_tail.min(self.buf.len());
            }
            if self.skip.is_some() {
                self.skip_step();
                continue;
            }
            if self.fault.is_some() {
                if !self.fault_scanned {
                    self.fault_scanned = true;
                    return Plan::Scan { more: true };
                }
                let done = finished_prefix(&self.buf, self.start);
                if done > 0 {
                    return Plan::Finished(done);
                }
                self.fail();
                continue;
            }
            // A blank run over the limit after the head of the buffer: going on, or ended by the last read.
            let long_run = if !self.eof && self.blank_tail > self.blank_limit() {
                if self.blank_tail == self.buf.len() {
                    self.drop_blank();
                    continue;
                }
                Some(self.blank_tail)
            } else {
                // Kept until more is read: a block of more games than one call hands out is read on first.
                self.ended_run.filter(|&after| after < self.buf.len())
            };
            if let Some(after) = long_run {
                let head = self.buf.len() - after;
                // Checked again only once the head doubled: linear time whatever the input.
                if head >= 2 * self.unfinished_head {
                    if finished_prefix(&self.buf[..head], self.start) == head {
                        return Plan::Finished(head + kept_blank(&self.buf[head..]));
                    }
                    self.unfinished_head = head;
                }
            }
            if self.buf.len() > self.max_game {
                if self.stalled != self.buf.len() {
                    return Plan::Scan { more: true };
                }
                // The first game's end is not within the limit. Blank space before it does not count; unless it
                // is a finished game followed by blank space (checked less often above), it is too large.
                let lead = lex::skip_ws(&self.buf, 0);
                if lead > 0 && lead < self.buf.len() {
                    self.drop_front(lead);
                    continue;
                }
                let head = self.buf.len() - self.blank_tail;
                if self.blank_tail > 0 && finished_prefix(&self.buf[..head], self.start) == head {
                    return Plan::Finished(head + kept_blank(&self.buf[head..]));
                }
                self.start_skip();
                continue;
            }
            if self.eof {
                return Plan::Scan { more: false };
            }
            // Blank space alone holds no game: read on (until it is dropped above).
            if self.buf.len() < 2 * self.stalled || self.blank_tail == self.buf.len() {
                continue;
            }
            return Plan::Scan { more: true };
        }
    }

    /// After a read error, once the complete games have been handed out: the error, saying where the input
    /// ended when it ended inside a game. Nothing is read after it.
    fn fail(&mut self) {
        let Some(fault) = self.fault.take() else {
            return;
        };
        let mut message = fault.to_string();
        if let Some(game) = GameReader::with_start(&self.buf, self.start).next_game() {
            let end = location::advance(
                Location {
                    line: self.start.line,
                    column: self.start.column,
                },
                &self.buf,
            );
            message = format!(
                "{message}; the input ends at line {} inside game {} (from line {}), which is left out",
                end.line,
                game.index + 1,
                game.line
            );
        }
        self.errors
            .push_back(io::Error::new(fault.kind(), message.as_str()));
        self.buf.clear();
        self.finished = true;
    }

    /// Drops a buffer of blank bytes (all but a final CR, whose LF may come next), counting its lines.
    fn drop_blank(&mut self) {
        let keep = usize::from(self.buf.last() == Some(&b'\r'));
        self.drop_front(self.buf.len() - keep);
    }

    /// Drops the first `n` bytes of `buf`, all blank (before the first game, or after a finished one),
    /// counting their lines and columns.
    fn drop_front(&mut self, n: usize) {
        let dropped = &self.buf[..n];
        let breaks = location::count_line_breaks(dropped);
        let column = if breaks == 0 {
            let added = u32::try_from(dropped.len()).unwrap_or(u32::MAX);
            self.start.column.saturating_add(added).min(MAX_COLUMN)
        } else {
            let last = dropped
                .iter()
                .rposition(|&b| lex::is_eol(b))
                .map_or(0, |i| i + 1);
            1 + (dropped.len() - last) as u32
        };
        self.start = BufferStart {
            offset: self.start.offset + n as u64,
            line: self.start.line + breaks,
            column,
            index: self.start.index,
        };
        self.buf.drain(..n);
        self.blank_tail = self.blank_tail.min(self.buf.len());
        self.stalled = 0;
        self.unfinished_head = 0;
    }

    /// The game at `buf[0]` is over the limit: skip it.
    fn start_skip(&mut self) {
        let lead = lex::skip_ws(&self.buf, 0);
        let at = location::advance(
            Location {
                line: self.start.line,
                column: self.start.column,
            },
            &self.buf[..lead],
        );
        self.skip = Some(Skip {
            index: self.start.index,
            line: at.line,
            column: at.column,
            offset: self.start.offset,
            buf_line: self.start.line,
            at_line_start: self.start.column == 1,
            after_cr: false,
            seen_text: false,
        });
    }

    /// Drops the bytes of the game being skipped up to the next line that starts a game (a tag pair after a
    /// line of movetext), keeping only an undecided line start; at the end of the input, the skip ends there.
    fn skip_step(&mut self) {
        let Some(skip) = self.skip.as_mut() else {
            return;
        };
        let buf = &self.buf;
        let n = buf.len();
        let more = !self.eof;
        let mut i = 0;
        let mut at_start = skip.at_line_start;
        let (cut, found) = loop {
            if at_start && i < n {
                match classify_line(&buf[i..], more) {
                    Line::Undecided => break (i, false),
                    Line::Tag if skip.seen_text => break (i, true),
                    Line::Tag | Line::Blank => {}
                    Line::Text => skip.seen_text = true,
                }
            }
            if i >= n {
                break (n, false);
            }
            match memchr::memchr2(b'\n', b'\r', &buf[i..]) {
                Some(k) => {
                    i += k + 1;
                    at_start = true;
                }
                None => {
                    i = n;
                    at_start = false;
                }
            }
        };
        let dropped = &buf[..cut];
        let mut breaks = location::count_line_breaks(dropped);
        if skip.after_cr && dropped.first() == Some(&b'\n') {
            breaks -= 1;
        }
        if !dropped.is_empty() {
            skip.after_cr = dropped.last() == Some(&b'\r');
        }
        skip.offset += cut as u64;
        skip.buf_line += breaks;
        skip.at_line_start = at_start || cut < n;
        self.buf.drain(..cut);
        if found {
            let error = GameTooLarge {
                index: skip.index,
                line: skip.line,
                column: skip.column,
                limit: self.max_game,
                resumed_at: Some(skip.buf_line),
            };
            self.start = BufferStart {
                offset: skip.offset,
                line: skip.buf_line,
                column: 1,
                index: skip.index + 1,
            };
            self.skip = None;
            self.errors
                .push_back(io::Error::new(io::ErrorKind::InvalidData, error));
            self.blank_tail = trailing_blank(&self.buf);
            self.stalled = 0;
            self.unfinished_head = 0;
        } else if self.eof {
            let error = GameTooLarge {
                index: skip.index,
                line: skip.line,
                column: skip.column,
                limit: self.max_game,
                resumed_at: None,
            };
            self.skip = None;
            self.errors
                .push_back(io::Error::new(io::ErrorKind::InvalidData, error));
            if let Some(fault) = self.fault.take() {
                self.errors.push_back(fault);
            }
            self.buf.clear();
            self.finished = true;
        }
    }
}

/// The number of blank bytes at the end of `bytes`, 64 at a time while they are all blank.
fn trailing_blank(bytes: &[u8]) -> usize {
    let mut n = 0;
    for chunk in bytes.rchunks(64) {
        if chunk.iter().fold(true, |all, &b| all & is_blank(b)) {
            n += chunk.len();
        } else {
            return n + chunk.iter().rev().take_while(|&&b| is_blank(b)).count();
        }
    }
    n
}

/// What a line is, to find where a game starts after a skipped one.
enum Line {
    /// Blank (spaces and tabs, then a line break).
    Blank,
    /// Starts with a tag pair (`[Name "`, after spaces or tabs).
    Tag,
    /// Anything else.
    Text,
    /// Cannot be told before more bytes are read.
    Undecided,
}

fn classify_line(bytes: &[u8], more: bool) -> Line {
    let j = bytes
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(bytes.len());
    if j == bytes.len() {
        return if !more {
            Line::Blank
        } else if j < LOOKAHEAD {
            Line::Undecided
        } else {
            Line::Text
        };
    }
    match bytes[j] {
        b'\n' | b'\r' | b'\x0b' | b'\x0c' => Line::Blank,
        b'[' => {
            if lex::looks_like_tag(bytes, j) {
                return Line::Tag;
            }
            // `[`, blanks and a name so far, cut by the end of the bytes: a tag pair may still follow.
            let open = bytes[j + 1..]
                .iter()
                .all(|&b| b == b' ' || b == b'\t' || lex::is_name_char(b));
            if more && open && bytes.len() < LOOKAHEAD {
                Line::Undecided
            } else {
                Line::Text
            }
        }
        _ => Line::Text,
    }
}

/// Whether a game read from a buffer that may stop short of the end of the input is complete: its
/// termination marker was read and no comment after it was cut.
fn is_finished(game: &Game<'_>) -> bool {
    let Some(marker) = game
        .tokens
        .iter()
        .rposition(|t| matches!(t.kind, TokenKind::Result(_)))
    else {
        return false;
    };
    let after = game.tokens[marker].span.end;
    !game
        .diagnostics
        .iter()
        .any(|d| d.kind == DiagnosticKind::UnterminatedComment && d.span.start >= after)
}

/// The length of the longest head of `buf` (which starts at `start`, a game boundary) made of finished games
/// when read as if the input ended there: 0 when the first game is not finished.
fn finished_prefix(buf: &[u8], start: BufferStart) -> usize {
    let mut games = GameReader::with_start(buf, start);
    let mut end = 0;
    while let Some(game) = games.next_game() {
        if !is_finished(game) {
            break;
        }
        end = (game.offset - start.offset) as usize + game.source.len();
    }
    end
}

/// Reads `input` in blocks and lends each block's complete games as a [`GameReader`] reader, at most
/// [`MAX_BATCH_GAMES`] per call (the rest of a block comes with the next call, before anything more is
/// read): one pass, no separate split, no copy of the games (the single-threaded path of the bulk jobs, and
/// [`read_games`]).
/// Memory: one block plus the unfinished game carried over (a game longer than a block grows the buffer;
/// it is re-read only after the pending data doubled, so time stays linear), at most the game limit
/// ([`MAX_GAME_BYTES`]); blank space between games is not kept. A leading UTF-8 BOM is skipped.
///
/// # Limits and read errors
/// This reader and [`BatchReader`] hold one block plus the unfinished game carried over, and no more:
/// * A game may take at most [`MAX_GAME_BYTES`] (64 MiB; `with_max_game` sets another limit). A game whose
///   end is not found within that many bytes is an error ([`GameTooLarge`], with where it starts): it is
///   skipped, and reading resumes at the next line that starts with a tag pair after a line of movetext
///   (the next game), so the rest of the input is still read. The reader then goes on: call it again.
/// * Blank space between games is not kept: more than [`MAX_BLANK_RUN`] blank bytes after a finished game
///   (its termination marker read) or before the first game are dropped as they are read (positions are
///   still counted). Such a run ends the finished game before it, whose [`Game::source`] then stops 16 line
///   breaks or 4 KiB into the run (what [`Game::kept_span`] keeps); a comment or escape line after the run
///   starts the next game. Both depend on the bytes alone, not on where reads end. Blank space inside an
///   unfinished game counts towards the game's size.
/// * A read error (a damaged `.gz`) ends the input: every complete game read before it is handed out first
///   (a game whose termination marker was read is complete), then the error, which says where the input
///   ended when it ended inside a game; that unfinished game is not handed out. Nothing after that.
#[derive(Debug)]
pub struct BlockReader<R> {
    feed: Feed<R>,
    recycled: GameLists,
}

impl<R: Read> BlockReader<R> {
    /// A reader over blocks of `block` bytes (at least 1).
    pub fn new(input: R, block: usize) -> Self {
        BlockReader {
            feed: Feed::new(input, block),
            recycled: GameLists::default(),
        }
    }

    /// Sets the most bytes one game may take (at least 1; default [`MAX_GAME_BYTES`]).
    pub fn with_max_game(mut self, bytes: usize) -> Self {
        self.feed.max_game = bytes.max(1);
        self
    }

    /// Bytes read from the input so far: those of the games handed out and those no game holds (blank runs
    /// dropped, a leading BOM, a game over the limit skipped). [`BatchReader`] counts them the same way.
    ///
    /// ```
    /// use pgnkit::pgn::BlockReader;
    /// // Two games around 3 MiB of blank lines, of which the reader keeps only the line count.
    /// let text = format!("1. e4 *{}1. d4 *\n", "\n".repeat(3 << 20));
    /// let mut reader = BlockReader::new(text.as_bytes(), 1 << 16);
    /// let mut games = 0;
    /// while let Some(()) = reader
    ///     .next_block(|block| {
    ///         while block.next_game().is_some() {
    ///             games += 1;
    ///         }
    ///     })
    ///     .unwrap()
    /// {}
    /// assert_eq!(games, 2);
    /// assert_eq!(reader.bytes_read(), text.len() as u64);
    /// ```
    pub fn bytes_read(&self) -> u64 {
        self.feed.read
    }

    /// Reads the next block and calls `f` with a reader over its complete games (games `f` leaves unread
    /// are skipped). `Ok(None)` at the end of the input. A block may hold no complete game yet (a game
    /// longer than a block): `f` then sees an empty reader.
    ///
    /// An error is either a game over the limit ([`GameTooLarge`] inside the [`io::Error`]; it was
    /// skipped) or a read error (after the complete games read before it, with where the input ended);
    /// call again to go on: after a read error the answer is `Ok(None)`.
    pub fn next_block<T>(
        &mut self,
        f: impl FnOnce(&mut GameReader<'_>) -> T,
    ) -> io::Result<Option<T>> {
        let (len, more) = match self.feed.plan() {
            Plan::Error(e) => return Err(e),
            Plan::End => return Ok(None),
            Plan::Finished(len) => (len, false),
            Plan::Scan { more } => (self.feed.buf.len(), more),
        };
        let recycled = std::mem::take(&mut self.recycled);
        let mut games = GameReader::for_block(
            &self.feed.buf[..len],
            self.feed.start,
            more,
            recycled,
            MAX_BATCH_GAMES,
        );
        let out = f(&mut games);
        while games.next_game().is_some() {}
        let used = games.position();
        // A block of more games than one call hands out is read on by the next call, before more is read.
        let held = games.stopped_at_limit();
        let complete = !more && len == self.feed.buf.len() && !held;
        let next = games.next_start();
        self.recycled = games.into_lists();
        self.feed.buf.drain(..used);
        self.feed.start = next;
        self.feed
            .consumed(used, complete && self.feed.eof && self.feed.fault.is_none());
        self.feed.hold = held;
        Ok(Some(out))
    }
}

fn read_block<R: Read>(input: &mut R, buf: &mut Vec<u8>, block: usize) -> io::Result<usize> {
    let before = buf.len();
    loop {
        match input
            .by_ref()
            .take((block - (buf.len() - before)) as u64)
            .read_to_end(buf)
        {
            Ok(_) => return Ok(buf.len() - before),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Complete games read from a stream: owned bytes that start at a game boundary, and where they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The games' bytes.
    pub bytes: Vec<u8>,
    /// Absolute offset, line, column and game index of `bytes[0]`.
    pub start: BufferStart,
    /// Number of games in `bytes`.
    pub games: usize,
    /// Where each record starts when `bytes` is made of records, the rows of a table
    /// ([`GameReader::with_records`]); empty for a file's text.
    pub records: Vec<RecordStart>,
}

impl Batch {
    /// A reader over this batch's games.
    pub fn games(&self) -> GameReader<'_> {
        if self.records.is_empty() {
            GameReader::with_start(&self.bytes, self.start)
        } else {
            GameReader::with_records(&self.bytes, &self.records)
        }
    }
}

/// Reads PGN from any [`Read`] in blocks and yields [`Batch`]es of complete games, at most
/// [`MAX_BATCH_GAMES`] in each.
///
/// Memory: the pending bytes are one block plus whatever part of an unfinished game is carried over;
/// a game longer than a block grows the buffer (the pending data is rescanned only after it has
/// doubled, so even a huge game costs linear time), up to the game limit ([`MAX_GAME_BYTES`]); blank space
/// between games is not kept. A leading UTF-8 BOM is skipped. Limits and read errors are as
/// for [`BlockReader`]: an `Err` item is followed by the next batches (a game over the
/// limit was skipped) or by the end (a read error).
#[derive(Debug)]
pub struct BatchReader<R> {
    feed: Feed<R>,
    starts: Vec<usize>,
    /// Buffers of earlier batches handed back with [`BatchReader::recycle`], reused for the next ones.
    spare: Vec<Vec<u8>>,
    /// Batches cut from the same scan as the one handed out last, waiting their turn.
    queued: VecDeque<Batch>,
}

/// How many handed-back buffers a [`BatchReader`] keeps.
const MAX_SPARE: usize = 16;

/// The most games in one [`Batch`]. What a job keeps for a batch grows with its games, not its bytes (a
/// report, a JSON record: about a kilobyte each, even for a game of just `*`): a block of a million tiny games
/// made hundreds of megabytes of reports per batch, times the batches in flight. The jobs read 128 KiB
/// batches, about two hundred games of the usual size; a stretch of short games fills a batch to this many,
/// and a file of tiny ones is cut into many.
pub const MAX_BATCH_GAMES: usize = 512;

impl<R: Read> BatchReader<R> {
    /// Default block size: [`DEFAULT_BATCH`] (1 MiB).
    pub const DEFAULT_BLOCK: usize = DEFAULT_BATCH;

    /// A reader with the default block size ([`DEFAULT_BATCH`]).
    pub fn new(inner: R) -> Self {
        Self::with_block_size(inner, DEFAULT_BATCH)
    }

    /// A reader with the given block size (at least 1 byte).
    pub fn with_block_size(inner: R, block: usize) -> Self {
        BatchReader {
            feed: Feed::new(inner, block),
            starts: Vec::new(),
            spare: Vec::new(),
            queued: VecDeque::new(),
        }
    }

    /// Sets the most bytes one game may take (at least 1; default [`MAX_GAME_BYTES`]).
    pub fn with_max_game(mut self, bytes: usize) -> Self {
        self.feed.max_game = bytes.max(1);
        self
    }

    /// Bytes read from the input so far, as [`BlockReader::bytes_read`] counts them.
    pub fn bytes_read(&self) -> u64 {
        self.feed.read
    }

    /// Hands back the bytes of a batch that has been processed, to be filled again. A batch is read into a
    /// fresh buffer otherwise, often new memory from the system: page faults and zeroing on the reading
    /// thread, unmapping on the thread that drops it (what it saves: docs/performance.md, "Tuning constants").
    /// A buffer grown by a large game is not kept, nor the small one of a batch cut from a scan of tiny games:
    /// spare buffers stay near the block size, each one of the batches in flight, and a small one would only
    /// be grown again.
    pub fn recycle(&mut self, mut buf: Vec<u8>) {
        let block = self.feed.block;
        if self.spare.len() < MAX_SPARE && (block..=4 * block).contains(&buf.capacity()) {
            buf.clear();
            self.spare.push(buf);
        }
    }

    /// Hands out `buf[..cut]`, which holds `games` games starting at `self.starts`, in batches of at most
    /// [`MAX_BATCH_GAMES`] games: the first is returned, the others queued.
    ///
    /// Only a scan of many tiny games makes several. Each leading batch gets a buffer of its own size, and the
    /// rest of the scan is moved to the front once: a batch queued in the scan's block-sized buffer would hold
    /// a block of memory for a few bytes, and cutting one batch at a time would move the rest once a batch.
    fn emit_all(&mut self, cut: usize, games: usize) -> Batch {
        let (mut left, mut taken) = (games, 0);
        let mut first = None;
        while left > MAX_BATCH_GAMES {
            // `self.starts` is relative to `taken`, the part's first byte.
            let part = self.starts[MAX_BATCH_GAMES];
            let bytes = self.feed.buf[taken..taken + part].to_vec();
            let batch = self.located(bytes, MAX_BATCH_GAMES);
            match first {
                None => first = Some(batch),
                Some(_) => self.queued.push_back(batch),
            }
            self.starts.drain(..MAX_BATCH_GAMES);
            for start in &mut self.starts {
                *start -= part;
            }
            left -= MAX_BATCH_GAMES;
            taken += part;
        }
        self.feed.buf.drain(..taken);
        let last = self.emit(cut - taken, left);
        match first {
            None => last,
            Some(first) => {
                self.queued.push_back(last);
                first
            }
        }
    }

    /// Hands out `buf[..cut]`, which holds `games` games starting at `self.starts`.
    fn emit(&mut self, cut: usize, games: usize) -> Batch {
        let feed = &mut self.feed;
        let mut rest = self.spare.pop().unwrap_or_default();
        rest.reserve(feed.block + (feed.buf.len() - cut));
        rest.extend_from_slice(&feed.buf[cut..]);
        feed.buf.truncate(cut);
        let bytes = std::mem::replace(&mut feed.buf, rest);
        self.located(bytes, games)
    }

    /// The batch of `bytes`, the next bytes of the input, which hold `games` games starting at
    /// `self.starts`: where it starts, and where the next one will.
    fn located(&mut self, bytes: Vec<u8>, games: usize) -> Batch {
        let feed = &mut self.feed;
        let start = feed.start;
        let begin = Location {
            line: start.line,
            column: start.column,
        };
        // The usual batch ends with a line break: count them all at once. Otherwise game by game, exactly
        // as the parser carries lines and columns (each game's tail counted in its own encoding).
        let mut after = begin;
        let quick = location::end_after_line_break(&bytes, begin);
        let per_game = if quick.is_some() { 0 } else { games };
        for (k, &a) in self.starts.iter().take(per_game).enumerate() {
            let b = self
                .starts
                .get(k + 1)
                .copied()
                .unwrap_or(bytes.len())
                .min(bytes.len());
            // the first game of the file may start after a BOM-less prefix of trivia: it starts at 0
            let a = if k == 0 { 0 } else { a };
            after = location::encoding_and_end(&bytes[a..b], after).1;
        }
        if let Some(end) = quick {
            after = end;
        }
        feed.start = BufferStart {
            offset: start.offset + bytes.len() as u64,
            line: after.line,
            column: after.column,
            index: start.index + games as u64,
        };
        Batch {
            bytes,
            start,
            games,
            records: Vec::new(),
        }
    }
}

/// Drops a byte-order mark at the start of the input (offsets then count from 3). Returns false while fewer
/// than three bytes are known and more may come: the mark cannot be told yet.
fn skip_bom(buf: &mut Vec<u8>, start: &mut BufferStart, eof: bool) -> bool {
    if buf.len() < 3 && !eof {
        return false;
    }
    if buf.starts_with(BOM) {
        buf.drain(..3);
        start.offset = 3;
    }
    true
}

impl<R: Read> Iterator for BatchReader<R> {
    type Item = io::Result<Batch>;

    fn next(&mut self) -> Option<io::Result<Batch>> {
        if let Some(batch) = self.queued.pop_front() {
            return Some(Ok(batch));
        }
        loop {
            match self.feed.plan() {
                Plan::Error(e) => return Some(Err(e)),
                Plan::End => return None,
                Plan::Finished(len) => {
                    self.starts.clear();
                    let at_line_start = self.feed.start.column == 1;
                    game_starts(&self.feed.buf[..len], at_line_start, true, &mut self.starts);
                    let games = self.starts.len();
                    let batch = self.emit_all(len, games);
                    self.feed.consumed(len, false);
                    return Some(Ok(batch));
                }
                Plan::Scan { more } => {
                    self.starts.clear();
                    let at_line_start = self.feed.start.column == 1;
                    game_starts(&self.feed.buf, at_line_start, !more, &mut self.starts);
                    if !more {
                        let games = self.starts.len();
                        let len = self.feed.buf.len();
                        let batch = (games > 0).then(|| self.emit_all(len, games));
                        self.feed.consumed(len, true);
                        match batch {
                            Some(batch) => return Some(Ok(batch)),
                            None => continue,
                        }
                    }
                    if self.starts.len() >= 2 {
                        let cut = *self.starts.last().unwrap_or(&0);
                        let games = self.starts.len() - 1;
                        let batch = self.emit_all(cut, games);
                        self.feed.consumed(cut, false);
                        return Some(Ok(batch));
                    }
                    self.feed.consumed(0, false);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_agree_with_whole_buffer() {
        let pgn = "[Event \"a\"]\n1. e4 {x} e5 1-0\n\n[Event \"b\"]\n[Site \"s\"]\n\n1. d4 *\n\
                   [Event \"c\"]\n1. c4 (1. d4) 1/2-1/2\n"
            .repeat(7);
        let whole: Vec<_> = GameReader::new(pgn.as_bytes())
            .map(|g| (g.offset, g.line, g.index, g.tokens.len()))
            .collect();
        for block in [1, 2, 3, 7, 64, 1000] {
            for recycle in [false, true] {
                let mut got = Vec::new();
                let mut reader = BatchReader::with_block_size(pgn.as_bytes(), block);
                while let Some(batch) = reader.next() {
                    let batch = batch.unwrap();
                    let mut n = 0;
                    for g in batch.games() {
                        got.push((g.offset, g.line, g.index, g.tokens.len()));
                        n += 1;
                    }
                    assert_eq!(n, batch.games);
                    if recycle {
                        // Handed back dirty: the reader must not read old bytes as new ones.
                        let mut bytes = batch.bytes;
                        bytes.extend_from_slice(b"[Stale \"x\"]");
                        reader.recycle(bytes);
                    }
                }
                assert_eq!(got, whole, "block {block}, recycle {recycle}");
            }
        }
    }

    #[test]
    fn batches_cut_from_one_scan_hold_their_own_bytes_only() {
        // One 64 KiB block of `*` games is one scan cut into 64 batches. Held all at once (as the batches in
        // flight and the queue are), they take about the scan's bytes, not a block each.
        let block = 1 << 16;
        let pgn = "*\n".repeat(block / 2);
        let mut reader = BatchReader::with_block_size(pgn.as_bytes(), block);
        let batches: Vec<Batch> = reader.by_ref().map(|b| b.unwrap()).collect();
        assert!(batches.len() >= 64, "{} batches", batches.len());
        let games: usize = batches.iter().map(|b| b.games).sum();
        assert_eq!(games, block / 2);
        let held: usize = batches.iter().map(|b| b.bytes.capacity()).sum();
        assert!(
            held <= 4 * block,
            "{held} bytes held for {} of input",
            pgn.len()
        );
        // Handed back, the small buffers are not kept as spares (they would only be grown again); a
        // block-sized one is.
        for batch in batches {
            reader.recycle(batch.bytes);
        }
        assert!(
            reader.spare.iter().all(|b| b.capacity() >= block),
            "{:?}",
            reader.spare.len()
        );
        reader.recycle(Vec::with_capacity(block));
        assert!(!reader.spare.is_empty());
    }

    #[test]
    fn a_scan_of_many_tiny_games_is_cut_into_batches_of_at_most_the_limit() {
        // Runs of one-marker games around ordinary ones, CR and CRLF line ends, a Latin-1 game (columns are
        // counted per encoding), and a last game without a line break.
        let mut pgn = String::from("; lead\n");
        for k in 0..3 {
            pgn.push_str(&"*\n".repeat(MAX_BATCH_GAMES * 2 + 17 * k));
            pgn.push_str("[Event \"a\"]\r\n1. e4 {x} e5 1-0\r\n");
            pgn.push_str(&"1-0\r".repeat(MAX_BATCH_GAMES + 3));
            pgn.push_str("\n[Event \"caf\u{e9}\"]\n1. d4 (1. c4) *\n");
        }
        let mut bytes = pgn.into_bytes();
        bytes.extend_from_slice(b"[Event \"Caf\xe9\"]\n1. e4 e5 2. Nf3 *\n1. d4 d5 *");
        let seen = |g: &Game<'_>| {
            let last = g.tokens.last().map_or(0, |t| t.span.start);
            (
                g.offset,
                g.index,
                g.location(last).to_string(),
                g.tokens.len(),
            )
        };
        let whole: Vec<_> = GameReader::new(&bytes).map(|g| seen(&g)).collect();
        assert!(whole.len() > 3 * 3 * MAX_BATCH_GAMES);
        for block in [DEFAULT_BATCH, 1 << 16, 1000] {
            let mut got = Vec::new();
            let mut full = 0;
            for batch in BatchReader::with_block_size(&bytes[..], block) {
                let batch = batch.unwrap();
                assert!(batch.games <= MAX_BATCH_GAMES, "{} games", batch.games);
                full += usize::from(batch.games == MAX_BATCH_GAMES);
                let before = got.len();
                got.extend(batch.games().map(|g| seen(&g)));
                assert_eq!(got.len() - before, batch.games);
            }
            assert_eq!(got, whole, "block {block}");
            if block == DEFAULT_BATCH {
                // One scan held them all: it was cut.
                assert!(full >= 5, "{full} full batches");
            }
            // The one-thread reader hands out at most as many per call, and reads no more meanwhile.
            let mut blocks = BlockReader::new(&bytes[..], block);
            let mut got = Vec::new();
            let mut full = 0;
            while let Some(n) = blocks
                .next_block(|games| {
                    let before = got.len();
                    while let Some(g) = games.next_game() {
                        got.push(seen(g));
                    }
                    got.len() - before
                })
                .unwrap()
            {
                assert!(n <= MAX_BATCH_GAMES, "{n} games");
                full += usize::from(n == MAX_BATCH_GAMES);
                assert!(blocks.feed.buf.len() <= 2 * block.max(64), "block {block}");
            }
            assert_eq!(got, whole, "block {block}");
            assert!(full >= 5 || block < 1 << 16, "{full} full blocks");
        }
        // Many blocks of tiny games: the pending bytes stay about a block.
        let flood = "*\n".repeat(200_000);
        let mut blocks = BlockReader::new(flood.as_bytes(), 1 << 16);
        let mut games = 0;
        while let Some(n) = blocks.next_block(|g| g.count()).unwrap() {
            assert!(blocks.feed.buf.len() <= 1 << 16);
            games += n;
        }
        assert_eq!(games, 200_000);
    }

    #[test]
    fn read_games_agrees_with_whole_buffer() {
        let pgn =
            "\u{FEFF}; lead\n[Event \"a\"]\n1. e4 {x} e5 1-0 {after}\n\n[Event \"b\"]\n1. d4 *\n\
                   1. c4 (1. d4) 1/2-1/2\n[A \"x\"]\n[A \"y\"]\n"
                .repeat(5);
        let whole: Vec<_> = GameReader::new(pgn.as_bytes())
            .map(|g| {
                (
                    g.offset,
                    g.line,
                    g.column,
                    g.index,
                    g.tokens.len(),
                    g.diagnostics.len(),
                )
            })
            .collect();
        for block in [1, 2, 5, 16, 100, 10_000] {
            let mut got = Vec::new();
            read_games(pgn.as_bytes(), block, |g| {
                got.push((
                    g.offset,
                    g.line,
                    g.column,
                    g.index,
                    g.tokens.len(),
                    g.diagnostics.len(),
                ));
                ControlFlow::<()>::Continue(())
            })
            .unwrap();
            assert_eq!(got, whole, "block {block}");
        }
    }

    #[test]
    fn trailing_blank_counts_from_the_end() {
        assert_eq!(trailing_blank(b""), 0);
        assert_eq!(trailing_blank(b"x \n"), 2);
        let long = [b"x".as_slice(), &[b' '; 200]].concat();
        assert_eq!(trailing_blank(&long), 200);
        assert_eq!(trailing_blank(&long[1..]), 200);
    }

    /// A stream that gives `data`, then fails (like a damaged `.gz`), in reads of at most `chunk` bytes.
    struct Faulty {
        data: Vec<u8>,
        pos: usize,
        chunk: usize,
    }

    impl Read for Faulty {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.pos == self.data.len() {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "broken stream",
                ));
            }
            let n = buf.len().min(self.chunk).min(self.data.len() - self.pos);
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    /// What a reader hands out: each game's (index, line, first tag value or first token's text) or an error.
    #[derive(Debug, PartialEq, Eq)]
    enum Out {
        Game(u64, u64, u32),
        Error(String),
    }

    /// A game's index, and the line and column of its first byte that is not blank (blank space before the
    /// first game may be dropped by the readers).
    fn game_out(g: &Game<'_>) -> Out {
        let at = g.location(lex::skip_ws(g.source, 0) as u32);
        Out::Game(g.index, at.line, at.column)
    }

    /// Everything a `BlockReader` hands out, and the largest buffer it held.
    fn block_outs<R: Read>(mut reader: BlockReader<R>) -> (Vec<Out>, usize) {
        let mut out = Vec::new();
        let mut most = 0;
        loop {
            let step = reader.next_block(|games| {
                let mut v = Vec::new();
                while let Some(g) = games.next_game() {
                    v.push(game_out(g));
                }
                v
            });
            most = most.max(reader.feed.buf.capacity());
            match step {
                Ok(Some(v)) => out.extend(v),
                Ok(None) => break,
                Err(e) => out.push(Out::Error(e.to_string())),
            }
        }
        (out, most)
    }

    /// Everything a `BatchReader` hands out, and the largest buffer it held.
    fn batch_outs<R: Read>(mut reader: BatchReader<R>) -> (Vec<Out>, usize) {
        let mut out = Vec::new();
        let mut most = 0;
        while let Some(item) = reader.next() {
            most = most.max(reader.feed.buf.capacity());
            match item {
                Ok(batch) => {
                    let before = out.len();
                    out.extend(batch.games().map(|g| game_out(&g)));
                    assert_eq!(out.len() - before, batch.games);
                    most = most.max(batch.bytes.capacity());
                    reader.recycle(batch.bytes);
                }
                Err(e) => out.push(Out::Error(e.to_string())),
            }
        }
        (out, most)
    }

    /// What `per_game` says of each game of `data`, read by a `BlockReader` and by a `BatchReader` with
    /// blocks of `block` bytes and a game limit of `limit`.
    fn both_readers<T>(
        data: &[u8],
        block: usize,
        limit: usize,
        per_game: impl Fn(&Game<'_>) -> T,
    ) -> (Vec<T>, Vec<T>) {
        let mut by_block = Vec::new();
        let mut reader = BlockReader::new(data, block).with_max_game(limit);
        while let Some(()) = reader
            .next_block(|games| {
                while let Some(g) = games.next_game() {
                    by_block.push(per_game(g));
                }
            })
            .unwrap()
        {}
        let by_batch = BatchReader::with_block_size(data, block)
            .with_max_game(limit)
            .flat_map(|batch| {
                let batch = batch.unwrap();
                batch.games().map(|g| per_game(&g)).collect::<Vec<_>>()
            })
            .collect();
        (by_block, by_batch)
    }

    fn whole(data: &[u8]) -> Vec<Out> {
        GameReader::new(data).map(|g| game_out(&g)).collect()
    }

    #[test]
    fn a_read_error_comes_after_every_complete_game() {
        let game = "[Event \"e\"]\n[Site \"s\"]\n\n1. e4 {a comment} e5 2. Nf3 Nc6 1-0\n\n";
        let text = game.repeat(40);
        // Cut inside game 31 (its movetext), then right after a termination marker (no line break yet).
        let inside = game.len() * 30 + game.find("Nf3").unwrap();
        let after_marker = game.len() * 30 + game.find("1-0").unwrap() + 3;
        for (cut, games) in [(inside, 30), (after_marker, 31), (game.len() * 40, 40)] {
            let data = text.as_bytes()[..cut].to_vec();
            let all = whole(text.as_bytes());
            for block in [1, 7, 64, 1000, 1 << 16] {
                for chunk in [3, 1 << 20] {
                    let faulty = || Faulty {
                        data: data.clone(),
                        pos: 0,
                        chunk,
                    };
                    for (name, (out, _)) in [
                        ("block", block_outs(BlockReader::new(faulty(), block))),
                        (
                            "batch",
                            batch_outs(BatchReader::with_block_size(faulty(), block)),
                        ),
                    ] {
                        let context = format!("{name}, cut {cut}, block {block}, chunk {chunk}");
                        assert_eq!(out.len(), games + 1, "{context}: {out:?}");
                        assert_eq!(out[..games], all[..games], "{context}");
                        let Out::Error(message) = &out[games] else {
                            panic!("{context}: no error last: {out:?}");
                        };
                        assert!(message.starts_with("broken stream"), "{context}: {message}");
                        if games == 30 {
                            assert!(
                                message.ends_with(
                                    "the input ends at line 154 inside game 31 (from line 151), which \
                                     is left out"
                                ),
                                "{context}: {message}"
                            );
                        } else {
                            assert_eq!(message, "broken stream", "{context}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn blank_space_between_games_is_not_kept() {
        // With a 256 KiB game limit, blank runs over 64 KiB are dropped.
        let limit = 256 << 10;
        let game = "[Event \"e\"]\n\n1. e4 e5 *\n";
        // 160 KiB, 64 Ki line breaks (CRLF among them)
        let blank = " \n\t\r\n".repeat(32 << 10);
        // Blank space first, between finished games, and last; a game without its marker before blank space
        // keeps it (it counts towards the game's size).
        let data = format!("{blank}{game}{blank}{game}{{c}}{blank}1. d4{blank}d5 *\n{blank}");
        let all = whole(data.as_bytes());
        assert_eq!(all.len(), 3);
        for block in [100, 1000, 1 << 16] {
            for (name, (out, most)) in [
                (
                    "block",
                    block_outs(BlockReader::new(data.as_bytes(), block).with_max_game(limit)),
                ),
                (
                    "batch",
                    batch_outs(
                        BatchReader::with_block_size(data.as_bytes(), block).with_max_game(limit),
                    ),
                ),
            ] {
                // Lines are still counted: the same games at the same places as reading the whole buffer.
                assert_eq!(out, all, "{name}, block {block}");
                // The unfinished third game holds its blank space; nothing else is kept.
                let bound = 2 * (blank.len() + limit / 4 + block);
                assert!(bound < data.len());
                assert!(most <= bound, "{name}, block {block}: {most} bytes held");
            }
        }
        // Only blank space: no game, and never more than the blank limit and a block held (the real limits).
        let data = " \n".repeat(2 * MAX_BLANK_RUN);
        for (name, (out, most)) in [
            (
                "block",
                block_outs(BlockReader::new(data.as_bytes(), 1 << 16)),
            ),
            (
                "batch",
                batch_outs(BatchReader::with_block_size(data.as_bytes(), 1 << 16)),
            ),
        ] {
            assert!(out.is_empty(), "{name}");
            assert!(
                most <= 2 * (MAX_BLANK_RUN + (1 << 16)),
                "{name}: {most} bytes held"
            );
        }
    }

    #[test]
    fn a_game_before_a_dropped_blank_run_keeps_the_same_blank_lines_whatever_the_reads() {
        // With a 256 KiB game limit, blank runs over 64 KiB are dropped. Whether a run is dropped depends on
        // where the reads end: the copy of a game (`Game::kept_span`) must not.
        let limit = 256 << 10;
        let game = "[Event \"e\"]\n\n1. e4 e5 *";
        let kept = |g: &Game<'_>| g.bytes(g.kept_span()).to_vec();
        for run in ["\n", "\r\n", " \n\t"] {
            for times in [(64 << 10) / run.len() + 1, 70_000, 100_000] {
                let blank = run.repeat(times);
                let data = format!("{game}{blank}{game}{blank}1. d4 1-0{blank}");
                let all: Vec<Vec<u8>> =
                    GameReader::new(data.as_bytes()).map(|g| kept(&g)).collect();
                assert_eq!(all.len(), 3);
                // Up to the 16th line break after the game.
                let (text, tail) = all[0].split_at(game.len());
                assert_eq!(text, game.as_bytes());
                assert_eq!(tail.iter().filter(|&&b| b == b'\n').count(), 16, "{run:?}");
                assert!(tail.ends_with(b"\n"), "{run:?}");
                for block in [1000, 4096, 1 << 16, 100_000] {
                    let (by_block, by_batch) = both_readers(data.as_bytes(), block, limit, kept);
                    let at = format!("{run:?} x {times}, block {block}");
                    assert_eq!(by_block, all, "block reader, {at}");
                    assert_eq!(by_batch, all, "batch reader, {at}");
                }
            }
        }
    }

    #[test]
    fn a_comment_after_a_long_blank_run_goes_to_the_next_game_whatever_the_reads() {
        // With a 256 KiB game limit, blank runs over 64 KiB end the game before them: a comment or an escape
        // line after such a run opens the next game, after a shorter one it closes the game before.
        let limit = 256 << 10;
        let trivia = |g: &Game<'_>| {
            g.tokens
                .iter()
                .filter(|t| matches!(t.kind, TokenKind::Comment | TokenKind::Escape))
                .count()
        };
        let runs = [
            (64 << 10) - 10,
            (64 << 10) + 1,
            (64 << 10) + 3000,
            100_000,
            200_000,
        ];
        // Before them, no game, or more small games than a block reader hands out in one call.
        for small in [0, MAX_BATCH_GAMES + 100] {
            for run in runs {
                let data = format!(
                    "{}[Event \"a\"]\n\n1. e4 e5 *\n{}{{c}}\n%escape\n[Event \"b\"]\n\n1. d4 *\n",
                    "[Event \"s\"]\n*\n".repeat(small),
                    "\n".repeat(run)
                );
                let mut expected = vec![0; small];
                expected.extend(if run > 64 << 10 { [0, 2] } else { [2, 0] });
                for block in [1000, 4096, 50_000, 1 << 16, 100_000] {
                    let (by_block, by_batch) = both_readers(data.as_bytes(), block, limit, trivia);
                    let at = format!("{small} games, run {run}, block {block}");
                    assert_eq!(by_block, expected, "block reader, {at}");
                    assert_eq!(by_batch, expected, "batch reader, {at}");
                }
            }
        }
    }

    #[test]
    fn the_smallest_game_limits_still_read_to_the_end() {
        // Under 4 bytes no blank run is kept, and a skip needs more of a line than the limit: reads still move
        // on. Read on another thread, so that a reader that loops fails the test instead of hanging it.
        let data = b"[Event \"e\"]\n\n1. e4 *\n\n[Event \"f\"]\n*\n";
        for limit in 1..=5 {
            let (done, outs) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let (by_block, _) =
                    block_outs(BlockReader::new(&data[..], 1 << 16).with_max_game(limit));
                let (by_batch, _) = batch_outs(
                    BatchReader::with_block_size(&data[..], 1 << 16).with_max_game(limit),
                );
                let _ = done.send((by_block, by_batch));
            });
            let (by_block, by_batch) = outs
                .recv_timeout(std::time::Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("limit {limit}: the readers did not finish"));
            assert_eq!(by_block, by_batch, "limit {limit}");
            let [Out::Error(first), Out::Error(second)] = &by_block[..] else {
                panic!("limit {limit}: {by_block:?}");
            };
            assert!(first.contains("game 1 is longer than") && first.ends_with("at line 5"));
            assert!(
                second.contains("game 2 is longer than") && second.ends_with("end of the input")
            );
        }
    }

    #[test]
    fn a_game_over_the_limit_is_skipped_and_reading_goes_on() {
        let limit = 2000;
        let game = |event: &str| format!("[Event \"{event}\"]\n[Site \"s\"]\n\n1. e4 e5 1-0\n\n");
        let long_comment = format!("{{{}}}", "x".repeat(limit));
        let long_lines = "1. e4 e5 {a comment} 2. Nf3 Nc6\n".repeat(limit / 20);
        let data = [
            game("a"),
            format!("[Event \"big\"]\n\n1. e4 {long_comment} e5 1-0\n\n"),
            game("b"),
            // Tag-pair lines inside the long game's first lines do not end the skip; the next game does.
            format!("[Event \"big2\"]\n[Site \"s\"]\n\n{long_lines}*\n"),
            game("c"),
            "\0".repeat(3 * limit),
        ]
        .concat();
        let all = whole(data.as_bytes());
        assert_eq!(all.len(), 6);
        let error = |game: &Out, resumed: Option<&Out>| {
            let Out::Game(index, line, column) = game else {
                unreachable!()
            };
            let to = match resumed {
                Some(Out::Game(_, line, _)) => format!("to the next game, at line {line}"),
                _ => "to the end of the input".to_string(),
            };
            Out::Error(format!(
                "line {line}, column {column}: game {} is longer than 2000 bytes, the most one game \
                 may take; skipped {to}",
                index + 1
            ))
        };
        let expected = vec![
            Out::Game(0, 1, 1),
            error(&all[1], Some(&all[2])),
            Out::Game(2, all_line(&all[2]), 1),
            error(&all[3], Some(&all[4])),
            Out::Game(4, all_line(&all[4]), 1),
            error(&all[5], None),
        ];
        assert_eq!(expected[2], all[2]);
        assert_eq!(expected[4], all[4]);
        for block in [1, 100, 1000, 1 << 16] {
            let (out, most) =
                block_outs(BlockReader::new(data.as_bytes(), block).with_max_game(limit));
            assert_eq!(out, expected, "block, block size {block}");
            assert!(most <= 2 * (limit + block), "block {block}: {most}");
            let (out, most) = batch_outs(
                BatchReader::with_block_size(data.as_bytes(), block).with_max_game(limit),
            );
            assert_eq!(out, expected, "batch, block size {block}");
            assert!(most <= 2 * (limit + block), "batch {block}: {most}");
        }
        // A finished game followed by more blank space than the limit is no game over the limit.
        let data = format!("{}{}{}", game("a"), " ".repeat(3 * limit), game("b"));
        let (out, _) = block_outs(BlockReader::new(data.as_bytes(), 100).with_max_game(limit));
        assert_eq!(out, whole(data.as_bytes()));
        let (out, _) =
            batch_outs(BatchReader::with_block_size(data.as_bytes(), 100).with_max_game(limit));
        assert_eq!(out, whole(data.as_bytes()));
        // The same when the game was seen unfinished before blank space inside it, and finished before it had
        // doubled (the check at the limit finds it).
        let moves = "1. e4 e5 2. Nf3 Nc6 ".repeat(40);
        let data = format!(
            "{}{moves}{}1-0{}{}",
            game("a").trim_end_matches("1. e4 e5 1-0\n\n"),
            " ".repeat(limit / 4 + 10),
            " ".repeat(limit),
            game("b")
        );
        for block in [100, 1000] {
            let (out, _) =
                block_outs(BlockReader::new(data.as_bytes(), block).with_max_game(limit));
            assert_eq!(out, whole(data.as_bytes()), "block {block}");
            let (out, _) = batch_outs(
                BatchReader::with_block_size(data.as_bytes(), block).with_max_game(limit),
            );
            assert_eq!(out, whole(data.as_bytes()), "batch {block}");
        }
    }

    fn all_line(out: &Out) -> u64 {
        match out {
            Out::Game(_, line, _) => *line,
            Out::Error(_) => 0,
        }
    }
}
