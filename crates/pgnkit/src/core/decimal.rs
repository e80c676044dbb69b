//! Decimal digits without allocating: FEN counters, PGN move numbers and NAGs, CSV fields and diagnostics
//! are all written by the thousand, and the formatting machinery costs more than the digits.

/// "00" to "99", two bytes each.
const PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[i * 2] = b'0' + (i / 10) as u8;
        pairs[i * 2 + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

/// The decimal digits of `n`, written at the end of `buf`.
#[inline]
pub fn digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    // Most numbers written (plies, move numbers, FEN counters, NAGs) have one or two digits.
    if n < 10 {
        buf[19] = b'0' + n as u8;
        return &buf[19..];
    }
    if n < 100 {
        let n = n as usize;
        buf[18..].copy_from_slice(&PAIRS[n * 2..n * 2 + 2]);
        return &buf[18..];
    }
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[i..]
}

/// Appends `n` in decimal to `out`.
#[inline]
pub fn push(out: &mut String, n: u64) {
    let mut buf = [0u8; 20];
    for &d in digits(n, &mut buf) {
        out.push(char::from(d));
    }
}

/// Appends a fraction of a second given in nanoseconds (below 10⁹) as its decimal digits after the point,
/// trailing zeros dropped: 500,000,000 is `5`, 50,000,000 is `05`; nothing for 0.
pub fn push_nanos(out: &mut String, nanos: u32) {
    if nanos == 0 {
        return;
    }
    let mut buf = [0u8; 20];
    let written = digits(u64::from(nanos % 1_000_000_000), &mut buf);
    for _ in written.len()..9 {
        out.push('0');
    }
    let end = written
        .iter()
        .rposition(|&d| d != b'0')
        .map_or(0, |i| i + 1);
    for &d in &written[..end] {
        out.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_onto_a_string() {
        let mut s = String::from("game ");
        push(&mut s, 0);
        s.push(' ');
        push(&mut s, 20_000);
        assert_eq!(s, "game 0 20000");
    }

    #[test]
    fn fractions_keep_their_leading_zeros_and_drop_trailing_ones() {
        for (nanos, text) in [
            (0, ""),
            (500_000_000, "5"),
            (50_000_000, "05"),
            (1, "000000001"),
            (123_400_000, "1234"),
            (999_999_999, "999999999"),
        ] {
            let mut s = String::new();
            push_nanos(&mut s, nanos);
            assert_eq!(s, text, "{nanos}");
        }
    }

    #[test]
    fn digits_equal_the_standard_formatting_across_the_short_paths() {
        let mut buf = [0u8; 20];
        for n in (0..1_200).chain([9_999, 10_000, 99_999_999_999]) {
            assert_eq!(digits(n, &mut buf), n.to_string().as_bytes());
        }
    }

    #[test]
    fn digits_of_the_extremes() {
        let mut buf = [0u8; 20];
        assert_eq!(digits(0, &mut buf), b"0");
        assert_eq!(digits(7, &mut buf), b"7");
        assert_eq!(digits(1_000, &mut buf), b"1000");
        assert_eq!(digits(u64::MAX, &mut buf), b"18446744073709551615");
        for n in [10u64, 99, 100, 12345, 4_294_967_295] {
            assert_eq!(digits(n, &mut buf), n.to_string().as_bytes());
        }
    }
}
