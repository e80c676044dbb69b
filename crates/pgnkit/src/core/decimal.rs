//! Decimal digits without allocating: FEN counters, PGN move numbers and NAGs, CSV fields and diagnostics
//! are all written by the thousand, and the formatting machinery costs more than the digits.

/// The decimal digits of `n`, written at the end of `buf`.
#[inline]
pub fn digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
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
