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
    let src = bytes.as_ptr();
    // SAFETY: `reserve(17)` leaves at least 17 bytes of capacity after `len`, and every write below lands in
    // `len..len + n + 1` (n <= 16); every read is inside `bytes`. The two copies of each size overlap when n is
    // not a multiple of it, writing the same bytes twice. Then the first `len + n` bytes are initialised, and
    // byte `len + n` too when `last` is written.
    unsafe {
        let dst = out.as_mut_ptr().add(len);
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
        match last {
            Some(b) => {
                *dst.add(n) = b;
                out.set_len(len + n + 1);
            }
            None => out.set_len(len + n),
        }
    }
}

/// [`push_bytes`] onto a `String`: `text` is already UTF-8, so the string stays UTF-8.
#[inline(always)]
pub fn push_str(out: &mut String, text: &str) {
    // SAFETY: whole UTF-8 strings are appended to a UTF-8 string.
    push_bytes(unsafe { out.as_mut_vec() }, text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

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
                }
            }
        }
        let mut text = String::from("1. ");
        push_str(&mut text, "Cf3 é");
        assert_eq!(text, "1. Cf3 é");
    }
}
