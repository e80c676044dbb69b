//! Finding game boundaries fast, and reading a stream in batches of whole games.
//!
//! [`game_starts`] applies the same boundary rules as the parser (see the module documentation of
//! [`crate::pgn`]) without building tokens: it skips movetext with a byte-class loop that stops only at
//! `{ ; [ * - %`, and uses the scanners of [`super::lex`] for comments and tag pairs, so the two agree
//! by construction (and the tests check it on every corpus file, on random and on mutated input).
//! [`BatchReader`] reads any [`Read`] in fixed-size blocks and hands out owned batches of complete
//! games, so memory stays bounded by the block size plus the largest game.

use std::io::{self, Read};

use super::lex::{self, NameSet, is_special};
use super::parser::{GameStart, Games};
use super::text::{self, Location};

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Before,
    Tags,
    Movetext,
    Ended,
}

/// Start offsets of the games in `buf`, appended to `out`.
///
/// `buf` must start at the beginning of a file (BOM already skipped) or at a game boundary;
/// `at_line_start` says whether `buf[0]` is in column 1. The first game starts at 0 (it owns any
/// comment before its tags); game `k` spans `out[k]..out[k + 1]` (the last one to the end of `buf`).
/// A buffer holding only whitespace and comments has no game.
pub fn game_starts(buf: &[u8], at_line_start: bool, out: &mut Vec<usize>) {
    let n = buf.len();
    let mut names = NameSet::default();
    let mut state = State::Before;
    let mut i = 0;
    loop {
        i = lex::skip_ws(buf, i);
        if i >= n {
            return;
        }
        match buf[i] {
            b'%' if lex::at_column_one(buf, i, at_line_start) => i = lex::line_end(buf, i),
            b'{' => i = lex::scan_comment(buf, i).end,
            b';' => i = lex::line_end(buf, i),
            b'[' => {
                let was_tags = state == State::Tags;
                match state {
                    State::Before => out.push(0),
                    State::Ended => {
                        out.push(i);
                        names.clear();
                    }
                    State::Movetext => {
                        if !lex::looks_like_tag(buf, i) {
                            i += 1;
                            continue;
                        }
                        out.push(i);
                        names.clear();
                    }
                    State::Tags => {}
                }
                let scan = lex::scan_tag(buf, i);
                let name = &buf[scan.name.0..scan.name.1];
                if !name.is_empty() {
                    if was_tags && names.contains(name) {
                        out.push(i);
                        names.clear();
                    }
                    names.insert(name);
                }
                state = State::Tags;
                i = scan.end;
            }
            _ => {
                match state {
                    State::Before => out.push(0),
                    State::Ended => out.push(i),
                    State::Tags | State::Movetext => {}
                }
                let (next, ended) = skip_movetext(buf, i, at_line_start);
                i = next;
                state = if ended { State::Ended } else { State::Movetext };
            }
        }
    }
}

/// Skips movetext from `i` up to the next byte that may change the state (`{`, `;`, `[`, a `%` in
/// column 1) or past a termination marker. Returns (position, whether a marker ended the game).
#[inline]
fn skip_movetext(buf: &[u8], mut j: usize, at_line_start: bool) -> (usize, bool) {
    let n = buf.len();
    loop {
        while j < n && !is_special(buf[j]) {
            j += 1;
        }
        if j >= n {
            return (n, false);
        }
        match buf[j] {
            b'*' => return (j + 1, true),
            b'-' => {
                // `1-0` and `0-1` start one byte before the hyphen, `1/2-1/2` three bytes before
                if j >= 1
                    && let Some((_, 3)) = lex::marker_at(buf, j - 1)
                {
                    return (j + 2, true);
                }
                if j >= 3
                    && let Some((_, 7)) = lex::marker_at(buf, j - 3)
                {
                    return (j + 4, true);
                }
                j += 1;
            }
            b'%' => {
                if lex::at_column_one(buf, j, at_line_start) {
                    return (j, false);
                }
                j += 1;
            }
            _ => return (j, false),
        }
    }
}

/// Game start offsets of a whole file in memory (a leading BOM is skipped; offsets are in `buf`).
pub fn split_games(buf: &[u8]) -> Vec<usize> {
    let skip = if buf.starts_with(lex::BOM) { 3 } else { 0 };
    let mut out = Vec::new();
    game_starts(&buf[skip..], true, &mut out);
    for s in &mut out {
        *s += skip;
    }
    out
}

/// Complete games read from a stream: owned bytes that start at a game boundary, and where they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The games' bytes.
    pub bytes: Vec<u8>,
    /// Absolute offset, line, column and game index of `bytes[0]`.
    pub start: GameStart,
    /// Number of games in `bytes`.
    pub games: usize,
}

impl Batch {
    /// A reader over this batch's games.
    pub fn games(&self) -> Games<'_> {
        Games::with_start(&self.bytes, self.start)
    }
}

/// Reads PGN from any [`Read`] in blocks and yields [`Batch`]es of complete games.
///
/// Memory: the pending bytes are one block plus whatever part of an unfinished game is carried over;
/// a game longer than a block grows the buffer (the pending data is rescanned only after it has
/// doubled, so even a huge game costs linear time). A leading UTF-8 BOM is skipped.
#[derive(Debug)]
pub struct BatchReader<R> {
    inner: R,
    block: usize,
    buf: Vec<u8>,
    start: GameStart,
    /// Pending length at the last scan that found no complete game.
    scanned: usize,
    eof: bool,
    bom_checked: bool,
    starts: Vec<usize>,
}

impl<R: Read> BatchReader<R> {
    /// Default block size: 1 MiB.
    pub const DEFAULT_BLOCK: usize = 1 << 20;

    /// A reader with the default block size.
    pub fn new(inner: R) -> Self {
        Self::with_block_size(inner, Self::DEFAULT_BLOCK)
    }

    /// A reader with the given block size (at least 1 byte).
    pub fn with_block_size(inner: R, block: usize) -> Self {
        BatchReader {
            inner,
            block: block.max(1),
            buf: Vec::new(),
            start: GameStart::default(),
            scanned: 0,
            eof: false,
            bom_checked: false,
            starts: Vec::new(),
        }
    }

    fn read_block(&mut self) -> io::Result<()> {
        let want = self.block as u64;
        let got = (&mut self.inner).take(want).read_to_end(&mut self.buf)?;
        if (got as u64) < want {
            self.eof = true;
        }
        Ok(())
    }

    fn emit(&mut self, cut: usize, games: usize) -> Batch {
        let mut rest = Vec::with_capacity(self.block + (self.buf.len() - cut));
        rest.extend_from_slice(&self.buf[cut..]);
        self.buf.truncate(cut);
        let bytes = std::mem::replace(&mut self.buf, rest);
        let start = self.start;
        let after = text::advance(
            Location {
                line: start.line,
                column: start.column,
            },
            &bytes,
        );
        self.start = GameStart {
            offset: start.offset + bytes.len() as u64,
            line: after.line,
            column: after.column,
            index: start.index + games as u64,
        };
        self.scanned = 0;
        Batch {
            bytes,
            start,
            games,
        }
    }
}

impl<R: Read> Iterator for BatchReader<R> {
    type Item = io::Result<Batch>;

    fn next(&mut self) -> Option<io::Result<Batch>> {
        loop {
            if !self.eof
                && let Err(e) = self.read_block()
            {
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Some(Err(e));
            }
            if !self.bom_checked {
                if self.buf.len() < 3 && !self.eof {
                    continue;
                }
                self.bom_checked = true;
                if self.buf.starts_with(lex::BOM) {
                    self.buf.drain(..3);
                    self.start.offset = 3;
                }
            }
            if self.buf.is_empty() && self.eof {
                return None;
            }
            if !self.eof && self.buf.len() < 2 * self.scanned {
                continue;
            }
            self.starts.clear();
            game_starts(&self.buf, self.start.column == 1, &mut self.starts);
            if self.eof {
                let games = self.starts.len();
                if games == 0 {
                    self.buf.clear();
                    return None;
                }
                let len = self.buf.len();
                return Some(Ok(self.emit(len, games)));
            }
            if self.starts.len() >= 2 {
                let cut = *self.starts.last().unwrap_or(&0);
                let games = self.starts.len() - 1;
                return Some(Ok(self.emit(cut, games)));
            }
            self.scanned = self.buf.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(s: &str) -> Vec<usize> {
        split_games(s.as_bytes())
    }

    #[test]
    fn boundaries() {
        assert_eq!(starts(""), Vec::<usize>::new());
        assert_eq!(starts("  ; just a comment\n{x}\n"), Vec::<usize>::new());
        assert_eq!(starts("[A \"1\"]\n1. e4 *\n[A \"2\"]\n*"), vec![0, 16]);
        // no blank line, no result: a tag section after movetext starts a game
        assert_eq!(starts("[A \"1\"]\n1. e4\n[A \"2\"]\n*"), vec![0, 14]);
        // a blank line inside movetext does not
        assert_eq!(starts("[A \"1\"]\n{c}\n\n1. e4\n\ne5 *"), vec![0]);
        // tag-only games: a repeated name starts a game; blank lines between tags are allowed
        assert_eq!(starts("[A \"1\"]\n\n[B \"1\"]\n\n[A \"2\"]\n"), vec![0, 18]);
        // movetext after a marker starts a tagless game; trailing comments stay with the game
        assert_eq!(starts("1. e4 1-0 {end}\n1. d4 0-1"), vec![0, 16]);
        // `[` inside a comment, a `%` escape line, `;` comments
        assert_eq!(
            starts("1. e4 {[%clk 0:01:00]\n[%eval 1]} e5\n%[Event \"x\"]\n; [B \"x\"]\n*"),
            vec![0]
        );
        // a comment missing its brace stops before a line that starts a tag pair
        assert_eq!(starts("1. e4 {open\n[Event \"x\"]\n*"), vec![0, 12]);
        // markers are whole words
        assert_eq!(starts("1. e4 11-0 e5 *"), vec![0]);
        assert_eq!(starts("1. e4 h6* 1. d4 *"), vec![0, 10]);
        assert_eq!(starts("1.e4 1/2-1/2 x"), vec![0, 13]);
    }

    #[test]
    fn batches_agree_with_whole_buffer() {
        let pgn = "[Event \"a\"]\n1. e4 {x} e5 1-0\n\n[Event \"b\"]\n[Site \"s\"]\n\n1. d4 *\n\
                   [Event \"c\"]\n1. c4 (1. d4) 1/2-1/2\n"
            .repeat(7);
        let whole: Vec<_> = Games::new(pgn.as_bytes())
            .map(|g| (g.offset, g.line, g.index, g.tokens.len()))
            .collect();
        for block in [1, 2, 3, 7, 64, 1000] {
            let mut got = Vec::new();
            for batch in BatchReader::with_block_size(pgn.as_bytes(), block) {
                let batch = batch.unwrap();
                let mut n = 0;
                for g in batch.games() {
                    got.push((g.offset, g.line, g.index, g.tokens.len()));
                    n += 1;
                }
                assert_eq!(n, batch.games);
            }
            assert_eq!(got, whole, "block {block}");
        }
    }
}
