//! Laying out the movetext: lines of at most [`MAX_LINE`] characters filled unit by unit, a unit never broken
//! (a move with its number, a NAG, a word of a comment), brace comments kept word for word.

use crate::buffer::{is_ascii_short, push_bytes, push_pieces};
use crate::core::decimal;
use crate::pgn::lex::looks_like_tag;

/// Longest movetext line, in characters.
pub const MAX_LINE: usize = 79;

/// What separates a unit from the one before it on the same line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sep<'s> {
    /// One space (or a line break).
    Space,
    /// Nothing (or a line break): after `(`, before `)`.
    None,
    /// Blanks of a comment, kept when the next unit fits on the line (else they become the break).
    Run(&'s str),
    /// Blanks of a comment that may not become a line break (the next word must not start a line).
    Keep(&'s str),
}

/// Width of text in characters (figurines and accented letters are one each).
#[inline]
fn width(s: &str) -> usize {
    if is_ascii_short(s.as_bytes()) {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Fills lines of at most [`MAX_LINE`] characters.
pub(super) struct Filler<'o> {
    pub(super) out: &'o mut Vec<u8>,
    /// Characters on the current line.
    pub(super) col: usize,
}

impl Filler<'_> {
    /// Writes a unit made of `parts` (never broken), after `sep` or, when it does not fit, after a line break.
    #[inline]
    pub(super) fn put(&mut self, sep: Sep<'_>, parts: &[&str]) {
        let w: usize = parts.iter().map(|p| width(p)).sum();
        self.separate(sep, w);
        for p in parts {
            push_bytes(self.out, p.as_bytes());
        }
        self.col += w;
    }

    /// Writes `sep` before a unit `w` characters wide, or a line break when the unit would not fit (nothing
    /// at the start of a line).
    #[inline(always)]
    fn separate(&mut self, sep: Sep<'_>, w: usize) {
        if self.col == 0 {
            return;
        }
        if sep == Sep::Space {
            // The usual separator, before almost every move: kept in line, without a call to copy one byte.
            if self.col + 1 + w <= MAX_LINE {
                self.out.push(b' ');
                self.col += 1;
            } else {
                self.out.push(b'\n');
                self.col = 0;
            }
            return;
        }
        self.separate_other(sep, w);
    }

    /// [`Filler::separate`] for the separators other than a space.
    #[inline(never)]
    fn separate_other(&mut self, sep: Sep<'_>, w: usize) {
        let (sep_text, breakable) = match sep {
            Sep::Space => (" ", true),
            Sep::None => ("", true),
            Sep::Run(r) => (r, true),
            Sep::Keep(r) => (r, false),
        };
        let sep_width = width(sep_text);
        if !breakable || self.col + sep_width + w <= MAX_LINE {
            self.out.extend_from_slice(sep_text.as_bytes());
            self.col += sep_width;
        } else {
            self.out.push(b'\n');
            self.col = 0;
        }
    }

    /// Writes a move, after its number when given (`12.` or `12...`, then a space): [`Filler::put`] for the
    /// unit that every move is, without its general parts (the number is formatted in place).
    #[inline]
    pub(super) fn put_move(&mut self, sep: Sep<'_>, number: Option<(u32, bool)>, text: &str) {
        // The number's digits end at byte 20, its dots follow: the prefix is one piece.
        let mut buf = [0u8; 24];
        let prefix: &[u8] = match number {
            Some((n, black)) => {
                let (digits, dots) = buf.split_at_mut(20);
                let digits: &mut [u8; 20] = digits.try_into().expect("20 bytes");
                let len = decimal::digits(n.into(), digits).len();
                dots.copy_from_slice(if black { b"... " } else { b".   " });
                &buf[20 - len..if black { 24 } else { 22 }]
            }
            None => b"",
        };
        let w = prefix.len() + width(text);
        self.separate(sep, w);
        push_pieces(self.out, [prefix, text.as_bytes()]);
        self.col += w;
    }

    /// Ends the current line, if anything is on it.
    pub(super) fn newline(&mut self) {
        if self.col > 0 {
            self.out.push(b'\n');
            self.col = 0;
        }
    }

    /// Writes text verbatim on the current line (no line break inside it).
    pub(super) fn push(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
        self.col += width(text);
    }

    /// Writes blanks holding line breaks verbatim, with LF line ends.
    pub(super) fn breaks(&mut self, run: &str) {
        let mut chars = run.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => {
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    self.out.push(b'\n');
                    self.col = 0;
                }
                '\n' => {
                    self.out.push(b'\n');
                    self.col = 0;
                }
                c => {
                    let mut buf = [0u8; 4];
                    self.out
                        .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    self.col += 1;
                }
            }
        }
    }
}

/// Whether a comment word may not start a line: the line would read as a tag pair (`[Event "`, which
/// ends a comment for readers that recover from a missing `}`) or as an escape line (`%`).
fn must_not_start_line(rest: &str) -> bool {
    rest.starts_with('%') || looks_like_tag(rest.as_bytes(), 0)
}

/// A brace comment: words and blanks verbatim, `{` glued to the first word and `}` to the last.
pub(super) fn write_comment(f: &mut Filler<'_>, sep: Sep<'_>, text: &str) {
    let mut sep = sep;
    let mut open = "{";
    let mut rest = text;
    loop {
        let blank = rest.len() - rest.trim_start().len();
        if blank > 0 {
            let run = &rest[..blank];
            rest = &rest[blank..];
            if !open.is_empty() {
                f.put(sep, &[open]);
                open = "";
            }
            if run.contains(['\n', '\r']) {
                f.breaks(run);
                sep = Sep::None;
            } else if must_not_start_line(rest) {
                sep = Sep::Keep(run);
            } else {
                sep = Sep::Run(run);
            }
        }
        if rest.is_empty() {
            f.put(sep, &[open, "}"]);
            return;
        }
        let word_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..word_len];
        rest = &rest[word_len..];
        let close = if rest.is_empty() { "}" } else { "" };
        f.put(sep, &[open, word, close]);
        open = "";
        if rest.is_empty() {
            return;
        }
    }
}

/// Formats NAGs without allocating.
#[derive(Default)]
pub(super) struct NumberBuf {
    buf: String,
}

impl NumberBuf {
    pub(super) fn nag(&mut self, nag: u8) -> &str {
        let mut buf = [0u8; 20];
        self.buf.clear();
        self.buf.push('$');
        self.buf.extend(
            decimal::digits(nag.into(), &mut buf)
                .iter()
                .map(|&d| char::from(d)),
        );
        &self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let mut b = NumberBuf::default();
        let mut out = Vec::new();
        let mut f = Filler {
            out: &mut out,
            col: 0,
        };
        f.put_move(Sep::Space, Some((12, true)), "Nf3");
        f.put_move(Sep::Space, None, "e5");
        f.put_move(Sep::Space, Some((4_294_967_295, false)), "O-O");
        assert_eq!(out, b"12... Nf3 e5 4294967295. O-O");
        assert_eq!(b.nag(255), "$255");
        assert_eq!(b.nag(0), "$0");
    }
}
