//! The words of the movetext: moves in any language's piece letters, move numbers, suffix annotations and
//! annotation symbols. Each recogniser takes the bytes at a word's start and says how long its match is;
//! the reader ([`super::game_reader`]) decides what to do with it. The move's letters are not interpreted
//! (the notation layer resolves them); which capitals can be piece letters comes from the language tables
//! ([`crate::notation::lang`]).

use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::combinator::opt;

use super::lex::{PResult, word_ends};
use crate::notation::lang::{FIGURINE_LEN, figurine_at, is_piece_capital};
use crate::notation::san::Annotation;

/// `…`, the ellipsis character.
pub(super) const ELLIPSIS: &[u8] = "…".as_bytes();

/// The value of ASCII digits, saturating at `u32::MAX`.
pub(super) fn parse_u32(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |n, d| {
        n.saturating_mul(10).saturating_add((d - b'0') as u32)
    })
}

/// A move number: digits, then periods or an ellipsis (`…`); a bare number must end its word. Read in one
/// pass (the value as the digits go by): about a third of a game's words are move numbers, so it is inlined
/// where the reader calls it (left to the compiler, a change elsewhere in the loop could put it out of line).
#[inline(always)]
pub(super) fn move_number(input: &[u8]) -> PResult<'_, (u32, bool)> {
    // One or two digits and one period, then anything but another period or the start of an ellipsis: a
    // white move number, which is what nearly every number is. A period ends the number whatever follows
    // (`1.e4`), so the byte after it only has to rule out the longer forms.
    let single = |next: u8| next != b'.' && next != ELLIPSIS[0];
    match *input {
        [d, b'.', next, ..] if d.is_ascii_digit() && single(next) => {
            return Ok((&input[2..], (u32::from(d - b'0'), false)));
        }
        [d1, d2, b'.', next, ..] if d1.is_ascii_digit() && d2.is_ascii_digit() && single(next) => {
            return Ok((
                &input[3..],
                (u32::from(d1 - b'0') * 10 + u32::from(d2 - b'0'), false),
            ));
        }
        _ => {}
    }
    let mut number = 0u32;
    let mut i = 0;
    while let Some(&d) = input.get(i)
        && d.is_ascii_digit()
    {
        number = number
            .saturating_mul(10)
            .saturating_add(u32::from(d - b'0'));
        i += 1;
    }
    if i == 0 {
        return Err(nom::Err::Error(()));
    }
    let digits_end = i;
    while input.get(i) == Some(&b'.') {
        i += 1;
    }
    let dots = i - digits_end;
    let ellipsis = input[i..].starts_with(ELLIPSIS);
    if ellipsis {
        i += ELLIPSIS.len();
    }
    let rest = &input[i..];
    if dots == 0 && !ellipsis && !word_ends(rest) {
        return Err(nom::Err::Error(()));
    }
    Ok((rest, (number, dots >= 2 || ellipsis)))
}

/// A move token as parsed: lengths relative to its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ParsedMove {
    /// Length of the move with its check marks.
    pub(super) san_len: usize,
    /// What its shape says of its piece letter.
    pub(super) shape: Shape,
    /// A glued suffix annotation, as its NAG.
    pub(super) suffix: Option<u8>,
    /// A glued `e.p.` (or `ep`).
    pub(super) en_passant: bool,
}

#[inline(always)]
pub(super) fn is_file(b: u8) -> bool {
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

/// A lower-case piece letter where it cannot be a file (`nf3`, `qd1`; `b` stays a pawn's file).
#[inline(always)]
fn is_lowercase_piece_letter(b: u8) -> bool {
    b.is_ascii_lowercase() && !is_file(b) && is_piece_capital(b.to_ascii_uppercase())
}

/// Squares part of a move, `[file][rank][x|:|-]file rank`, longest match: (length, destination rank,
/// strict: no `:` or `-` in it). The common `file rank` followed by something else is answered without the
/// general search.
#[inline(always)]
fn squares(b: &[u8]) -> Option<(usize, u8, bool)> {
    if let [f, r, rest @ ..] = b
        && is_file(*f)
        && is_rank(*r)
        && !matches!(rest.first(), Some(&c) if is_square_char(c))
    {
        return Some((2, *r, true));
    }
    // Captures, `exd5` and the `xd5` of `Nxd5`: what the general search finds first for them (no longer
    // shape can start with a file and `x`, nor with `x`).
    match *b {
        [f1, b'x', f2, r2, ..] if is_file(f1) && is_file(f2) && is_rank(r2) => Some((4, r2, true)),
        [b'x', f2, r2, ..] if is_file(f2) && is_rank(r2) => Some((3, r2, true)),
        _ => squares_general(b),
    }
}

/// The other shapes, longest first: `f r sep f r`, `f r f r`, `d sep f r`, `d f r`, `sep f r`, `f r`
/// (`d` a file or a rank, `sep` one of `x : -`).
#[inline(never)]
fn squares_general(b: &[u8]) -> Option<(usize, u8, bool)> {
    let sq = |f: u8, r: u8| is_file(f) && is_rank(r);
    let sep = |c: u8| matches!(c, b'x' | b':' | b'-');
    let d = |c: u8| is_file(c) || is_rank(c);
    match *b {
        [f1, r1, s, f2, r2, ..] if is_file(f1) && is_rank(r1) && sep(s) && sq(f2, r2) => {
            Some((5, r2, s == b'x'))
        }
        [f1, r1, f2, r2, ..] if is_file(f1) && is_rank(r1) && sq(f2, r2) => Some((4, r2, true)),
        [c, s, f, r, ..] if d(c) && sep(s) && sq(f, r) => Some((4, r, s == b'x')),
        [c, f, r, ..] if (d(c) || sep(c)) && sq(f, r) => Some((3, r, c != b':' && c != b'-')),
        [f, r, ..] if sq(f, r) => Some((2, r, true)),
        _ => None,
    }
}

/// Length of a figurine (U+2654..=U+265F, ♔♕♖♗♘♙♚♛♜♝♞♟) at the start of `b`, if any.
#[inline]
fn figurine_len(b: &[u8]) -> Option<usize> {
    figurine_at(b).map(|_| FIGURINE_LEN)
}

fn castle(input: &[u8]) -> PResult<'_, &[u8]> {
    alt((tag("O-O-O"), tag("O-O"), tag("0-0-0"), tag("0-0"))).parse(input)
}

/// A promotion after a pawn's destination: `=` then a letter or figurine (any rank), or a glued letter
/// or figurine on the last rank (`e8Q`, `e7e8q`). Length, 0 when none.
#[inline]
fn promotion(b: &[u8], rank: u8) -> Option<usize> {
    let piece_at = |b: &[u8]| match b.first() {
        Some(c) if c.is_ascii_alphabetic() => Some(1),
        _ => figurine_len(b),
    };
    match b.first() {
        Some(b'=') => piece_at(&b[1..]).map(|l| l + 1),
        // `e8(Q)`: read with a note; anything else in parentheses is a variation.
        Some(b'(') if rank == b'1' || rank == b'8' => match b {
            [b'(', p, b')', ..] if p.is_ascii_alphabetic() => Some(3),
            _ => Some(0),
        },
        Some(_) if rank == b'1' || rank == b'8' => Some(piece_at(b).unwrap_or(0)),
        _ => Some(0),
    }
}

/// What a move token's shape says about its piece letters (see [`MoveLetters`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// Castling or a null move: no piece letter.
    NoLetter,
    /// An ASCII first byte, then only files, ranks and `x` (check marks aside): the first byte is the only
    /// possible letter.
    Strict,
    /// Anything else (promotions, figurines, drops, `-` or `:` separators).
    Irregular,
}

/// Length of the move itself (before check marks), and its shape. Dispatches on the first byte:
/// * pawn moves: `e4`, `exd5`, `ed5`, `e:d5`, `e2e4`, `e2-e4`, then a promotion;
/// * piece moves: a piece letter (any language) or a figurine, then `[file][rank][x|:|-]square`;
/// * castling `O-O`, `O-O-O`, `0-0`, `0-0-0`; null moves `--`, `Z0`; drops `N@f3`, `@g4`.
#[inline(always)]
fn move_core(b: &[u8]) -> Option<(usize, Shape)> {
    let strictness = |strict: bool| {
        if strict {
            Shape::Strict
        } else {
            Shape::Irregular
        }
    };
    let first = *b.first()?;
    if is_file(first) {
        let (len, rank, strict) = squares(b)?;
        let promo = promotion(&b[len..], rank)?;
        return Some((len + promo, strictness(strict && promo == 0)));
    }
    if first == b'O' || first == b'0' {
        if let Ok((rest, _)) = castle(b) {
            return Some((b.len() - rest.len(), Shape::NoLetter));
        }
        if first == b'0' {
            return None;
        }
    }
    let piece = if is_piece_capital(first) {
        1
    } else if is_lowercase_piece_letter(first) {
        // `nf3`: read (with a note) by the notation layer; its shape is not strict.
        return squares(&b[1..]).map(|(len, _, _)| (1 + len, Shape::Irregular));
    } else if let Some(l) = figurine_len(b) {
        l
    } else {
        return match b {
            [b'-', b'-', ..] | [b'Z', b'0', ..] => Some((2, Shape::NoLetter)),
            [b'@', f, r, ..] if is_file(*f) && is_rank(*r) => Some((3, Shape::Irregular)),
            _ => None,
        };
    };
    let rest = &b[piece..];
    match squares(rest) {
        Some((len, _, strict)) => Some((piece + len, strictness(strict && piece == 1))),
        // A drop (`N@f3`): no squares start with `@`, so it is looked for only when they failed.
        None => match rest {
            [b'@', f, r, ..] if is_file(*f) && is_rank(*r) => Some((piece + 3, Shape::Irregular)),
            _ => None,
        },
    }
}

/// Length of an `e.p.` (or `ep`) suffix at the start of `b`, 0 if none.
#[inline(always)]
pub(super) fn en_passant_suffix(b: &[u8]) -> usize {
    match b {
        [b'e', b'.', b'p', b'.', ..] => 4,
        [b'e', b'p', ..] => 2,
        _ => 0,
    }
}

/// Check or mate marks: `+`, `++`, `#`.
fn check(input: &[u8]) -> PResult<'_, Option<&[u8]>> {
    opt(alt((tag("++"), tag("+"), tag("#")))).parse(input)
}

/// A suffix annotation ([`Annotation`]: `!`, `?`, `!!`, `??`, `!?`, `?!`) as its NAG number, the longest
/// that matches.
fn suffix(input: &[u8]) -> PResult<'_, u8> {
    for len in [2, 1] {
        if let Some(annotation) = input.get(..len).and_then(Annotation::from_suffix) {
            return Ok((&input[len..], annotation.nag()));
        }
    }
    Err(nom::Err::Error(()))
}

/// A whole move token: the move, check marks, a glued `e.p.` (or `ep`), a glued suffix annotation; it must
/// end its word. The move's letters are not interpreted (any language; the notation layer resolves them).
/// The move itself is matched by a hand-written fast path ([`move_core`]); the rest by nom.
#[inline(always)]
pub(super) fn move_token(input: &[u8]) -> PResult<'_, ParsedMove> {
    let (core, shape) = move_core(input).ok_or(nom::Err::Error(()))?;
    let mut rest = &input[core..];
    let mut san_len = core;
    let mut ep = false;
    let mut sfx = None;
    // most moves end right here: skip the optional parts when the word ends
    if !word_ends(rest) {
        let (r, chk) = check(rest)?;
        san_len += chk.map_or(0, <[u8]>::len);
        let e = en_passant_suffix(r);
        let r = &r[e..];
        let (r, s) = opt(suffix).parse(r)?;
        if !word_ends(r) {
            return Err(nom::Err::Error(()));
        }
        rest = r;
        ep = e > 0;
        sfx = s;
    }
    Ok((
        rest,
        ParsedMove {
            san_len,
            shape,
            suffix: sfx,
            en_passant: ep,
        },
    ))
}

/// Annotation symbols written as whole words, with their standard NAG numbers.
pub(super) fn annotation_symbol(word: &[u8]) -> Option<u8> {
    if word == b"\xB1" {
        // `±` in a Latin-1 / Windows-1252 game
        return Some(16);
    }
    if let Some(annotation) = Annotation::from_suffix(word) {
        return Some(annotation.nag());
    }
    let nag = match std::str::from_utf8(word).ok()? {
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
    use nom::bytes::complete::take_while;
    use nom::character::complete::digit1;

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
        // Without its periods, as pgn-extract also reads it.
        assert_eq!(mv("exd6ep"), Some((4, None, true)));
        assert_eq!(mv("exd6+ep!"), Some((5, Some(1), true)));
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

    /// The combinator reading of a move number, which [`move_number`] must equal.
    fn move_number_by_combinators(input: &[u8]) -> PResult<'_, (u32, bool)> {
        let (rest, digits) = digit1(input)?;
        let (rest, dots) = take_while(|b| b == b'.')(rest)?;
        let (rest, ellipsis) = opt(tag(ELLIPSIS)).parse(rest)?;
        if dots.is_empty() && ellipsis.is_none() && !word_ends(rest) {
            return Err(nom::Err::Error(()));
        }
        Ok((
            rest,
            (parse_u32(digits), dots.len() >= 2 || ellipsis.is_some()),
        ))
    }

    #[test]
    fn move_numbers_read_in_one_pass_as_the_combinators_read_them() {
        // Every word of up to five pieces from these, and numbers past u32::MAX.
        let pieces: [&[u8]; 9] = [
            b"1",
            b"9",
            b"0",
            b".",
            "…".as_bytes(),
            b" ",
            b"e",
            b"\xE2",
            b"{",
        ];
        super::super::for_every_text(&pieces, 5, |word| {
            assert_eq!(
                move_number(word),
                move_number_by_combinators(word),
                "{word:?}"
            );
        });
        for word in [
            &b"4294967295."[..],
            b"4294967296...",
            b"99999999999999999999 e4",
            b"",
        ] {
            assert_eq!(
                move_number(word),
                move_number_by_combinators(word),
                "{word:?}"
            );
        }
        assert_eq!(move_number(b"4294967296.").unwrap().1, (u32::MAX, false));
    }

    #[test]
    fn squares_shortcuts_answer_as_the_general_search() {
        let letters: Vec<[u8; 1]> = b"aehx18:-Q".iter().map(|&b| [b]).collect();
        super::super::for_every_text(&letters, 5, |word| {
            for len in 0..=word.len() {
                let w = &word[..len];
                assert_eq!(
                    squares(w),
                    squares_general(w),
                    "{:?}",
                    String::from_utf8_lossy(w)
                );
            }
        });
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
