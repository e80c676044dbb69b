//! Finding game boundaries fast, without parsing.
//!
//! [`game_starts`] feeds the parser's boundary rules ([`super::boundary`]; see the module documentation of
//! [`crate::pgn`]) without building tokens: it skips movetext sixteen bytes at a time ([`lex::find_any`])
//! up to the next of `{ ; [ * - %`, and uses the scanners of [`super::lex`] for comments and tag pairs, so
//! the two agree by construction (and the tests check it on every corpus file, on random and on mutated input).
//! [`super::BatchReader`] uses it to hand out owned batches of complete games.

use super::boundary::{Bracket, GameBoundary, Section};
use super::lex;
use super::text::BOM;

/// Start offsets of the games in `buf`, appended to `out`.
///
/// `buf` must start at the beginning of a file (BOM already skipped) or at a game boundary;
/// `at_line_start` says whether `buf[0]` is in column 1; `complete` whether `buf` runs to the end of
/// the input. The first game starts at 0 (it owns any comment before its tags); game `k` spans
/// `out[k]..out[k + 1]` (the last one to the end of `buf`). A buffer holding only whitespace and
/// comments has no game. When `buf` is not complete, the last game found may be unfinished, and the
/// search stops early where a tag value's reading depends on bytes not yet read.
pub fn game_starts(buf: &[u8], at_line_start: bool, complete: bool, out: &mut Vec<usize>) {
    let n = buf.len();
    let mut boundary = GameBoundary::default();
    let mut i = 0;
    loop {
        i = lex::skip_spaces(buf, i);
        if i >= n {
            return;
        }
        if !complete && lex::maybe_cut_space(&buf[i..]) {
            // a space cut by the end of the buffer, or the first byte of the next game: read on
            return;
        }
        match buf[i] {
            b'%' if lex::at_column_one(buf, i, at_line_start) => i = lex::line_end(buf, i),
            b'{' => i = lex::scan_comment(buf, i).end,
            b';' => i = lex::line_end(buf, i),
            b'[' => {
                match boundary.bracket(buf, i) {
                    Bracket::Stray => {
                        i += 1;
                        continue;
                    }
                    Bracket::NextGame => next_game(&mut boundary, out, i),
                    // the first game owns the trivia before it
                    Bracket::TagPair if boundary.section() == Section::Before => out.push(0),
                    Bracket::TagPair => {}
                }
                // Nearly every tag pair is plain: its name and end are all the boundary needs, found without
                // the general scan's bookkeeping.
                let (name, end) = match lex::plain_tag(buf, i) {
                    Some(tag) => (&buf[i + 1..tag.name_end], tag.end),
                    None => {
                        let scan = lex::scan_tag(buf, i);
                        if !complete && (scan.truncated || scan.name.1 == n) {
                            // cut by the end of the buffer: the rest is the unfinished last game
                            return;
                        }
                        (&buf[scan.name.0..scan.name.1], scan.end)
                    }
                };
                if boundary.tag_pair(name) {
                    next_game(&mut boundary, out, i);
                    boundary.tag_pair(name);
                }
                i = end;
            }
            _ => {
                if boundary.movetext_starts_next() {
                    next_game(&mut boundary, out, i);
                } else if boundary.section() == Section::Before {
                    out.push(0);
                }
                let (next, ended) = skip_movetext(buf, i, at_line_start);
                i = next;
                boundary.movetext(ended);
            }
        }
    }
}

/// A game starts at `i`.
#[inline]
fn next_game(boundary: &mut GameBoundary<'_>, out: &mut Vec<usize>, i: usize) {
    out.push(i);
    boundary.reset();
}

/// The only bytes that can change the splitter's state in movetext.
const SPECIALS: [u8; 7] = [b'{', b';', b'[', b'*', b'-', b'/', b'%'];

/// Skips movetext from `i` up to the next byte that may change the state (`{` of a comment it cannot skip
/// itself, `;`, `[`, a `%` in column 1) or past a termination marker. Returns (position, whether a marker
/// ended the game).
#[inline]
fn skip_movetext(buf: &[u8], mut j: usize, at_line_start: bool) -> (usize, bool) {
    let n = buf.len();
    loop {
        j = lex::find_any(buf, j, SPECIALS);
        if j >= n {
            return (n, false);
        }
        match buf[j] {
            b'*' => return (j + 1, true),
            b'-' => {
                // `1-0` and `0-1` start one byte before the hyphen, `1/2-1/2` three bytes before; the byte
                // before tells which to try (most hyphens are castling's, after an `O`).
                let before = if j >= 1 { buf[j - 1] } else { 0 };
                if matches!(before, b'0' | b'1')
                    && let Some((_, 3)) = lex::marker_at(buf, j - 1)
                {
                    return (j + 2, true);
                }
                if before == b'2'
                    && j >= 3
                    && let Some((_, 7)) = lex::marker_at(buf, j - 3)
                {
                    return (j + 4, true);
                }
                // `½-½`
                if before == 0xBD
                    && j >= 2
                    && let Some((_, 5)) = lex::marker_at(buf, j - 2)
                {
                    return (j + 3, true);
                }
                j += 1;
            }
            b'/' => {
                // `1/2-1/2`, or `1/2` alone
                if j >= 1
                    && buf[j - 1] == b'1'
                    && let Some((_, len)) = lex::marker_at(buf, j - 1)
                {
                    return (j - 1 + len, true);
                }
                j += 1;
            }
            b'%' => {
                if lex::at_column_one(buf, j, at_line_start) {
                    return (j, false);
                }
                j += 1;
            }
            b'{' => {
                // A comment closed on its own line by a `}` with no backslash before it (a clock, an
                // evaluation: most comments) is skipped here; anything else goes to `lex::scan_comment`, which
                // would end the same comment at the same brace. Online games have a comment after every move:
                // leaving this loop for each of them costs the reading thread much of its time with `-j2`.
                let close = lex::find_any(buf, j + 1, [b'}', b'\n', b'\r']);
                if close < n && buf[close] == b'}' && buf[close - 1] != b'\\' {
                    j = close + 1;
                } else {
                    return (j, false);
                }
            }
            _ => return (j, false),
        }
    }
}

/// Game start offsets of a whole file in memory (a leading BOM is skipped; offsets are in `buf`).
pub fn split_games(buf: &[u8]) -> Vec<usize> {
    let skip = if buf.starts_with(BOM) { 3 } else { 0 };
    let mut out = Vec::new();
    game_starts(&buf[skip..], true, true, &mut out);
    for s in &mut out {
        *s += skip;
    }
    out
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
        // comments skipped inside movetext: a marker in a comment is text, an escaped brace does not end it
        assert_eq!(starts("1. e4 {x \\} 1-0} e5 *"), vec![0]);
        assert_eq!(starts("1. e4 {} {1-0} e5 *"), vec![0]);
        assert_eq!(starts("1. e4 {c} 1-0 1. d4 *"), vec![0, 14]);
        // markers are whole words
        assert_eq!(starts("1. e4 11-0 e5 *"), vec![0]);
        assert_eq!(starts("1. e4 h6* 1. d4 *"), vec![0, 10]);
        assert_eq!(starts("1.e4 1/2-1/2 x"), vec![0, 13]);
    }
}
