//! Appending short byte strings to an output buffer without a call to `memcpy`: the writers put out many
//! pieces of a few bytes (a SAN move, a move number, a CSV cell), and for those the call costs more than the
//! copy.

/// Appends `bytes`, as `extend_from_slice` does, without a call to `memcpy` when there are at most 16 of them.
///
/// ```
/// let mut out = b"1. ".to_vec();
/// pgnkit::buffer::push_bytes(&mut out, b"Nf3");
/// assert_eq!(out, b"1. Nf3");
/// ```
#[inline(always)]
pub fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    push_bytes_then(out, bytes, None);
}

/// [`push_bytes`], then `last` when given (a CSV cell and the comma after it) with one check of the capacity.
///
/// ```
/// let mut out = Vec::new();
/// pgnkit::buffer::push_bytes_then(&mut out, b"e4", Some(b','));
/// assert_eq!(out, b"e4,");
/// ```
#[inline(always)]
pub fn push_bytes_then(out: &mut Vec<u8>, bytes: &[u8], last: Option<u8>) {
    let n = bytes.len();
    if n > 16 {
        out.extend_from_slice(bytes);
        if let Some(b) = last {
            out.push(b);
        }
        return;
    }
    out.reserve(17);
    let len = out.len();
    // SAFETY: `reserve(17)` leaves at least 17 bytes of capacity after `len`: `copy_short` writes `len..len + n`
    // (n <= 16) and `last` byte `len + n`. Then the first `len + n` bytes are initialised, and byte `len + n`
    // too when `last` is written.
    unsafe {
        let dst = out.as_mut_ptr().add(len);
        copy_short(bytes, dst);
        match last {
            Some(b) => {
                *dst.add(n) = b;
                out.set_len(len + n + 1);
            }
            None => out.set_len(len + n),
        }
    }
}

/// Appends the pieces one after the other, as `extend_from_slice` would, with one check of the capacity
/// and no call to `memcpy` when none of them is longer than 16 bytes (a move number, its dots and the move).
///
/// ```
/// let mut out = b"e4 ".to_vec();
/// pgnkit::buffer::push_pieces(&mut out, [b"12", b"... ", b"Nf3"]);
/// assert_eq!(out, b"e4 12... Nf3");
/// ```
#[inline(always)]
pub fn push_pieces<const N: usize>(out: &mut Vec<u8>, pieces: [&[u8]; N]) {
    if pieces.iter().any(|p| p.len() > 16) {
        for p in pieces {
            out.extend_from_slice(p);
        }
        return;
    }
    let total: usize = pieces.iter().map(|p| p.len()).sum();
    out.reserve(total);
    let mut len = out.len();
    // SAFETY: `reserve(total)` leaves `total` bytes of capacity after the length; each piece (at most 16
    // bytes) is written by `copy_short` right after the one before, so all writes land in `len..len + total`,
    // and all those bytes are initialised when the length is set.
    unsafe {
        for p in pieces {
            copy_short(p, out.as_mut_ptr().add(len));
            len += p.len();
        }
        out.set_len(len);
    }
}

/// Copies `bytes` (at most 16) to `dst` with a few loads and stores of fixed size instead of a call.
///
/// # Safety
/// `dst` must be valid for writing `bytes.len()` bytes and must not overlap `bytes`.
#[inline(always)]
unsafe fn copy_short(bytes: &[u8], dst: *mut u8) {
    let n = bytes.len();
    debug_assert!(n <= 16);
    let src = bytes.as_ptr();
    // SAFETY: every read is inside `bytes` and every write inside `dst..dst + n` (the caller's promise). The
    // two copies of each size overlap when n is not a multiple of it, writing the same bytes twice.
    unsafe {
        if n >= 8 {
            std::ptr::copy_nonoverlapping(src, dst, 8);
            std::ptr::copy_nonoverlapping(src.add(n - 8), dst.add(n - 8), 8);
        } else if n >= 4 {
            std::ptr::copy_nonoverlapping(src, dst, 4);
            std::ptr::copy_nonoverlapping(src.add(n - 4), dst.add(n - 4), 4);
        } else if n > 0 {
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
    }
}

/// [`push_bytes`] onto a `String`: `text` is already UTF-8, so the string stays UTF-8.
#[inline(always)]
pub fn push_str(out: &mut String, text: &str) {
    // SAFETY: whole UTF-8 strings are appended to a UTF-8 string.
    push_bytes(unsafe { out.as_mut_vec() }, text.as_bytes());
}

/// Whether `bytes` are all ASCII, fast for the few bytes of a move or a number: up to 8 of them are tested with
/// two overlapping loads instead of a loop (longer ones as `<[u8]>::is_ascii` tests them).
///
/// ```
/// assert!(pgnkit::buffer::is_ascii_short(b"Nbxd7"));
/// assert!(!pgnkit::buffer::is_ascii_short("Cé3".as_bytes()));
/// ```
#[inline(always)]
pub fn is_ascii_short(bytes: &[u8]) -> bool {
    let n = bytes.len();
    if (4..=8).contains(&n) {
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        (word(0) | word(n - 4)) & 0x8080_8080 == 0
    } else if (1..4).contains(&n) {
        (bytes[0] | bytes[n / 2] | bytes[n - 1]) < 0x80
    } else {
        bytes.is_ascii()
    }
}

/// Whether `bytes` hold a byte of `set`, or, with `or_non_ascii`, a byte of 0x80 or more. Fast for the short
/// fields of a row or a tag value: eight bytes are tested at once with word arithmetic (the last eight overlap
/// the ones before, and four and four overlap for a field of four to eight bytes), where a loop takes a byte
/// at a time.
///
/// ```
/// use pgnkit::buffer::contains_any;
/// assert!(contains_any(b"Smith, John", [b',', b'"'], false));
/// assert!(!contains_any(b"Smith John", [b',', b'"'], false));
/// assert!(contains_any("Müller".as_bytes(), [b'\\'], true));
/// ```
#[inline]
pub fn contains_any<const N: usize>(bytes: &[u8], set: [u8; N], or_non_ascii: bool) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    let flagged = |word: u64| {
        let mut found = if or_non_ascii { word } else { 0 };
        for b in set {
            // The borrow-free zero-byte test: a high bit where `word` has a byte equal to `b`, and never one
            // in a word without such a byte.
            let marked = word ^ (ONES * u64::from(b));
            found |= marked.wrapping_sub(ONES) & !marked;
        }
        found & HIGH != 0
    };
    let n = bytes.len();
    if n < 4 {
        return bytes
            .iter()
            .any(|&b| set.contains(&b) || (or_non_ascii && b >= 0x80));
    }
    if n <= 8 {
        let half = |at: usize| {
            u64::from(u32::from_le_bytes([
                bytes[at],
                bytes[at + 1],
                bytes[at + 2],
                bytes[at + 3],
            ]))
        };
        return flagged(half(0) | half(n - 4) << 32);
    }
    let word = |at: usize| {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(eight)
    };
    let mut at = 0;
    while at + 8 < n {
        if flagged(word(at)) {
            return true;
        }
        at += 8;
    }
    flagged(word(n - 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_test_finds_exactly_the_bytes_asked_for() {
        // Every length up to 40, a byte of every kind at every place (set members, the same with the high bit
        // set, neighbours, zero), for two sets, with and without the non-ASCII test, against the
        // byte-by-byte definition.
        let sets: [&[u8]; 2] = [b",\"\n\r", b"\\"];
        for n in 0..=40 {
            let base: Vec<u8> = (0..n).map(|k| b'a' + (k % 26) as u8).collect();
            for at in 0..n.max(1) {
                for b in [
                    b',', b'"', b'\n', b'\r', b'\\', 0xAC, 0xA2, 0x8A, 0xDC, 0x80, 0xFF, b'+',
                    b'[', b']', 0x0B, 0,
                ] {
                    let mut bytes = base.clone();
                    if n > 0 {
                        bytes[at] = b;
                    }
                    for non_ascii in [false, true] {
                        let expected = |set: &[u8]| {
                            bytes
                                .iter()
                                .any(|c| set.contains(c) || (non_ascii && *c >= 0x80))
                        };
                        let found = [
                            contains_any(&bytes, [b',', b'"', b'\n', b'\r'], non_ascii),
                            contains_any(&bytes, [b'\\'], non_ascii),
                        ];
                        for (set, found) in sets.iter().zip(found) {
                            assert_eq!(found, expected(set), "{n} {at} {b:#x} {non_ascii} {set:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_length_and_offset_is_copied_as_extend_from_slice_copies_it() {
        let source: Vec<u8> = (0..40u8).map(|b| b'a' + b % 26).collect();
        for prefix in 0..20 {
            for start in 0..8 {
                for n in 0..=24 {
                    let bytes = &source[start..start + n];
                    let mut expected = vec![b'#'; prefix];
                    expected.extend_from_slice(bytes);
                    let mut out = vec![b'#'; prefix];
                    push_bytes(&mut out, bytes);
                    assert_eq!(out, expected, "{prefix} {start} {n}");
                    expected.push(b',');
                    let mut out = vec![b'#'; prefix];
                    out.shrink_to_fit();
                    push_bytes_then(&mut out, bytes, Some(b','));
                    assert_eq!(out, expected, "{prefix} {start} {n}");
                    // In pieces, around a piece of every length.
                    for other in [0, 3, 16, 17] {
                        let around = &source[..other];
                        let mut expected = vec![b'#'; prefix];
                        for p in [around, bytes, around] {
                            expected.extend_from_slice(p);
                        }
                        let mut out = vec![b'#'; prefix];
                        out.shrink_to_fit();
                        push_pieces(&mut out, [around, bytes, around]);
                        assert_eq!(out, expected, "{prefix} {start} {n} {other}");
                    }
                }
            }
        }
        for n in 0..=24 {
            for at in 0..n {
                let mut bytes = source[..n].to_vec();
                assert!(is_ascii_short(&bytes));
                bytes[at] = 0xC3;
                assert!(!is_ascii_short(&bytes), "{n} {at}");
            }
        }
        let mut text = String::from("1. ");
        push_str(&mut text, "Cf3 é");
        assert_eq!(text, "1. Cf3 é");
    }
}
