//! `[%name value]` commands inside comments (`[%clk 0:03:00]`, `[%eval 0.17]`, `[%cal Ge2e4]`), as chess
//! servers and GUIs embed them. One reading of a command serves every use: [`commands`] finds them, [`clock`]
//! reads the first `[%clk]`, [`strip_clocks`] removes every `[%clk]` (convert's `--strip clocks`).
//!
//! A command is `[%`, a name of ASCII letters, digits and underscores, then its value up to the next `]`; a
//! `[` before that `]` means the text was no command (the search goes on from that `[`).

use std::ops::Range;
use std::time::Duration;

use memchr::{memchr2, memmem};

/// One `[%name value]` command found in a comment's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command<'c> {
    /// The name, without `%` (`clk`, `eval`).
    pub name: &'c [u8],
    /// The value: what follows the name up to `]`, blanks around it trimmed (may be empty).
    pub value: &'c [u8],
    /// Where the command is in the comment's text, `[` to `]` included.
    pub range: Range<usize>,
}

/// The `[%name value]` commands of a comment's text, in order.
///
/// ```
/// use pgnkit::pgn::commands;
/// let found: Vec<_> = commands(b"[%eval 0.17] [%clk 0:03:00] good move")
///     .map(|c| (c.name, c.value))
///     .collect();
/// assert_eq!(found, [(&b"eval"[..], &b"0.17"[..]), (&b"clk"[..], &b"0:03:00"[..])]);
/// ```
pub fn commands(comment: &[u8]) -> impl Iterator<Item = Command<'_>> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            let k = from + memmem::find(&comment[from..], b"[%")?;
            let after = &comment[k + 2..];
            let name_len = after
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                .unwrap_or(after.len());
            let Some(close) = memchr2(b']', b'[', after) else {
                from = comment.len();
                return None;
            };
            if name_len == 0 || after[close] == b'[' || close < name_len {
                from = k + 2 + close;
                continue;
            }
            from = k + 2 + close + 1;
            return Some(Command {
                name: &after[..name_len],
                value: after[name_len..close].trim_ascii(),
                range: k..from,
            });
        }
    })
}

/// The first `[%clk]` command of a comment's text as a duration (`[%clk h:mm:ss]`, `[%clk h:mm:ss.f]`), if
/// there is one and [`parse_clock`] reads its value.
///
/// ```
/// use std::time::Duration;
/// use pgnkit::pgn::clock;
/// assert_eq!(clock(b"[%eval 0.2] [%clk 0:03:05]"), Some(Duration::from_secs(185)));
/// assert_eq!(clock(b"no clock here"), None);
/// ```
pub fn clock(comment: &[u8]) -> Option<Duration> {
    commands(comment)
        .find(|c| c.name == b"clk")
        .and_then(|c| parse_clock(c.value))
}

/// An engine evaluation from a `[%eval]` command, from White's point of view (as Lichess writes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (`[%eval 0.17]` is 17, `[%eval -1.5]` is -150).
    Centipawns(i64),
    /// Moves to mate, positive when White mates (`[%eval #3]`), negative when Black does (`[%eval #-2]`);
    /// 0 once mated (`#0`).
    Mate(i64),
}

/// The first `[%eval]` command of a comment's text that reads, if any: `#N` (mate in N, signed) or pawns
/// with at most two decimals (`0.17`, `-3`, `.5`), optionally followed by `,depth`; pawns are rounded to
/// centipawns half to even, as python-chess rounds them.
///
/// ```
/// use pgnkit::pgn::{Eval, eval};
/// assert_eq!(eval(b"[%eval 0.17] [%clk 0:03:05]"), Some(Eval::Centipawns(17)));
/// assert_eq!(eval(b"[%eval #-3,24]"), Some(Eval::Mate(-3)));
/// assert_eq!(eval(b"[%eval 0.175] [%eval -2.5]"), Some(Eval::Centipawns(-250)));
/// assert_eq!(eval(b"no eval"), None);
/// ```
pub fn eval(comment: &[u8]) -> Option<Eval> {
    commands(comment)
        .filter(|c| c.name == b"eval")
        .find_map(|c| parse_eval(c.value))
}

/// Reads an `[%eval]` value: see [`eval`].
pub fn parse_eval(value: &[u8]) -> Option<Eval> {
    let text = std::str::from_utf8(value).ok()?;
    let (score, depth) = text.split_once(',').unwrap_or((text, ""));
    if !depth.bytes().all(|b| b.is_ascii_digit()) || (text.contains(',') && depth.is_empty()) {
        return None;
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if let Some(mate) = score.strip_prefix('#') {
        let unsigned = mate.strip_prefix(['+', '-']).unwrap_or(mate);
        if unsigned.is_empty() || unsigned.len() > 18 || !digits(unsigned) {
            return None;
        }
        return mate.parse().ok().map(Eval::Mate);
    }
    let unsigned = score.strip_prefix(['+', '-']).unwrap_or(score);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let shape_ok = whole.len() <= 10
        && digits(whole)
        && digits(fraction)
        && if unsigned.contains('.') {
            // `1.`, `.5`, `1.25`: at most two decimals, a digit somewhere.
            fraction.len() <= 2 && !(whole.is_empty() && fraction.is_empty())
        } else {
            !whole.is_empty()
        };
    if !shape_ok {
        return None;
    }
    let pawns: f64 = score.parse().ok()?;
    Some(Eval::Centipawns((pawns * 100.0).round_ties_even() as i64))
}

/// The first `[%emt]` command (elapsed move time) of a comment's text, read as [`parse_clock`] reads a clock.
///
/// ```
/// use std::time::Duration;
/// use pgnkit::pgn::emt;
/// assert_eq!(emt(b"[%emt 0:00:07.5]"), Some(Duration::from_millis(7500)));
/// ```
pub fn emt(comment: &[u8]) -> Option<Duration> {
    commands(comment)
        .find(|c| c.name == b"emt")
        .and_then(|c| parse_clock(c.value))
}

/// Parses `h:mm:ss`, `mm:ss` or `h:mm:ss.fff` (fractions of a second up to nanoseconds).
pub fn parse_clock(v: &[u8]) -> Option<Duration> {
    let s = std::str::from_utf8(v).ok()?;
    let (whole, frac) = match s.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (s, None),
    };
    let mut secs: u64 = 0;
    let mut parts = 0;
    for p in whole.split(':') {
        if p.is_empty() || p.len() > 10 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        secs = secs.checked_mul(60)?.checked_add(p.parse::<u64>().ok()?)?;
        parts += 1;
    }
    if !(1..=3).contains(&parts) {
        return None;
    }
    let nanos = match frac {
        None => 0,
        Some(f) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()) => {
            f.parse::<u32>().ok()? * 10u32.pow(9 - f.len() as u32)
        }
        Some(_) => return None,
    };
    Some(Duration::new(secs, nanos))
}

/// Removes every `[%clk]` command (as [`commands`] finds them) from a comment's text into `out`, with the
/// blanks before it (or, at the start of the comment, after it), so `{ [%eval 0.2] [%clk 0:03:00] }` becomes
/// `{ [%eval 0.2] }`.
pub fn strip_clocks(text: &str, out: &mut String) {
    out.clear();
    // Text from here on is not copied yet.
    let mut rest = 0;
    for command in commands(text.as_bytes()) {
        if command.name != b"clk" {
            continue;
        }
        // `[` and `]` are ASCII: the range's ends are character boundaries.
        let before = &text[rest..command.range.start];
        let trimmed = before.trim_end_matches([' ', '\t']);
        rest = command.range.end;
        if trimmed.len() == before.len() && out.is_empty() && before.trim().is_empty() {
            // At the start: drop the blanks after the command instead.
            let tail = &text[rest..];
            rest += tail.len() - tail.trim_start_matches([' ', '\t']).len();
            out.push_str(before);
        } else {
            out.push_str(trimmed);
        }
    }
    out.push_str(&text[rest..]);
}

#[cfg(test)]
mod tests {

    #[test]
    fn evals_read_as_python_chess_reads_them() {
        for (value, want) in [
            ("0.17", Some(Eval::Centipawns(17))),
            ("-0.3", Some(Eval::Centipawns(-30))),
            ("+2", Some(Eval::Centipawns(200))),
            ("2.", Some(Eval::Centipawns(200))),
            (".5", Some(Eval::Centipawns(50))),
            // Three decimals: not an eval to python-chess either.
            ("0.145", None),
            ("1.005", None),
            ("0.125,20", None),
            ("0.12,20", Some(Eval::Centipawns(12))),
            ("#3", Some(Eval::Mate(3))),
            ("#-12", Some(Eval::Mate(-12))),
            ("#+1", Some(Eval::Mate(1))),
            ("#0", Some(Eval::Mate(0))),
            ("#", None),
            ("", None),
            (".", None),
            ("abc", None),
            ("1,", None),
            ("12345678901", None),
        ] {
            assert_eq!(parse_eval(value.as_bytes()), want, "{value}");
        }
        // Halves round to even, as python's round does.
        assert_eq!(parse_eval(b"0.5"), Some(Eval::Centipawns(50)));
        assert_eq!(parse_eval(b"-0.01"), Some(Eval::Centipawns(-1)));
    }

    use super::*;

    #[test]
    fn clk() {
        assert_eq!(
            clock(b" [%eval 0.17] [%clk 0:03:00] "),
            Some(Duration::from_secs(180))
        );
        assert_eq!(
            clock(b"[%clk 1:02:03.5]"),
            Some(Duration::from_millis(3_723_500))
        );
        assert_eq!(clock(b"[%clk x]"), None);
        assert_eq!(clock(b"no clock"), None);
        let c: Vec<_> = commands(b"[%cal Ge2e4,Gd2d4][%csl Rh5] text [%] [%a]")
            .map(|c| (c.name, c.value, c.range))
            .collect();
        assert_eq!(
            c,
            vec![
                (&b"cal"[..], &b"Ge2e4,Gd2d4"[..], 0..18),
                (&b"csl"[..], &b"Rh5"[..], 18..28),
                (&b"a"[..], &b""[..], 38..42)
            ]
        );
        // a `[` before the `]`: no command there, the search goes on from it
        let c: Vec<_> = commands(b"[%eval [%clk 0:01]").map(|c| c.name).collect();
        assert_eq!(c, [&b"clk"[..]]);
    }

    #[test]
    fn clocks_are_removed_with_their_blanks() {
        let mut s = String::new();
        strip_clocks("a [%clk 1:00] b", &mut s);
        assert_eq!(s, "a b");
        strip_clocks("[%clk 1:00]", &mut s);
        assert_eq!(s, "");
        strip_clocks("[%clk 1:00]  x [%clk 2]", &mut s);
        assert_eq!(s, "x");
        strip_clocks("\n[%clk 1:00] x", &mut s);
        assert_eq!(s, "\nx");
        strip_clocks("[%clkx 1] [%clk 1", &mut s);
        assert_eq!(s, "[%clkx 1] [%clk 1");
        strip_clocks(" [%eval 0.2] [%clk 0:02:59] ", &mut s);
        assert_eq!(s, " [%eval 0.2] ");
        // what `clock` reads is what is removed
        for text in ["[%clk:1]", "[%clk\u{b}1]", "a [%clk 1 [%clk 2] b"] {
            strip_clocks(text, &mut s);
            assert_eq!(
                commands(s.as_bytes()).filter(|c| c.name == b"clk").count(),
                0,
                "{text}"
            );
        }
    }
}
