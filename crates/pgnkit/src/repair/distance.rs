//! How far a written move token is from the SAN of a legal move: the edit distance a copyist's hand covers.

/// The part of a token the distance compares: the move without its check mark, annotation or `e.p.`, with
/// castling written with letter O (a scoresheet's `0-0` is no slip).
pub(crate) fn core(token: &[u8]) -> Vec<u8> {
    let mut end = token.len();
    while end > 0 && matches!(token[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let mut core: Vec<u8> = token[..end].to_vec();
    for suffix in [&b"e.p."[..], b"ep"] {
        if core.len() > suffix.len() + 2 && core.ends_with(suffix) {
            core.truncate(core.len() - suffix.len());
            while core.last() == Some(&b' ') {
                core.pop();
            }
        }
    }
    if core.first() == Some(&b'0') {
        for b in &mut core {
            if *b == b'0' {
                *b = b'O';
            }
        }
    }
    core
}

/// Edits (one character changed, added or dropped, or two neighbours swapped) between two cores, stopping
/// at `limit + 1`: the search only wants to know whether a move is near. Castling on the other side counts
/// one edit: `O-O` and `O-O-O` are one slip of the pen, not two characters.
pub(crate) fn edits(written: &[u8], san: &[u8], limit: usize) -> usize {
    let castling = |s: &[u8]| s == b"O-O" || s == b"O-O-O";
    if castling(written) && castling(san) && written != san {
        return 1;
    }
    let (n, m) = (written.len(), san.len());
    if n.abs_diff(m) > limit {
        return limit + 1;
    }
    // Optimal string alignment distance over three rows.
    let mut before = vec![0usize; m + 1];
    let mut previous: Vec<usize> = (0..=m).collect();
    let mut current = vec![0usize; m + 1];
    for i in 1..=n {
        current[0] = i;
        let mut row_min = current[0];
        for j in 1..=m {
            let change = usize::from(written[i - 1] != san[j - 1]);
            let mut d = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + change);
            if i > 1
                && j > 1
                && written[i - 1] == san[j - 2]
                && written[i - 2] == san[j - 1]
                && written[i - 1] != written[i - 2]
            {
                d = d.min(before[j - 2] + 1);
            }
            current[j] = d;
            row_min = row_min.min(d);
        }
        if row_min > limit {
            return limit + 1;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[m].min(limit + 1)
}

/// Digits a hand writes alike (1/7, 3/8, 5/6).
fn look_alike(a: u8, b: u8) -> bool {
    matches!(
        (a.min(b), a.max(b)),
        (b'1', b'7') | (b'3', b'8') | (b'5', b'6')
    )
}

/// What a written token costs as a slip for `san` (both cores), in half-characters, or `None` past `limit`
/// character edits. Each character edit costs 2, except a destination square changed to one that is not
/// next to it: 3 (a file or rank one off, or a digit written like another, is the usual slip; a far square
/// is not, so a near reading beats it, while two near readings stay equal).
pub(crate) fn slip_cost(written: &[u8], san: &[u8], limit: usize) -> Option<u32> {
    let edits = edits(written, san, limit);
    if edits > limit {
        return None;
    }
    if edits != 1 || written.len() != san.len() {
        return Some(2 * edits as u32);
    }
    let Some(at) = written.iter().zip(san).position(|(a, b)| a != b) else {
        return Some(2);
    };
    // The destination: the last file letter followed by a rank digit.
    let destination = (0..san.len().saturating_sub(1))
        .rev()
        .find(|&i| matches!(san[i], b'a'..=b'h') && matches!(san[i + 1], b'1'..=b'8'));
    let (w, s) = (written[at], san[at]);
    let near = match destination {
        Some(d) if at == d => w.abs_diff(s) == 1,
        Some(d) if at == d + 1 => w.abs_diff(s) == 1 || look_alike(w, s),
        _ => true,
    };
    Some(if near { 2 } else { 3 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_core_drops_marks_and_annotations_and_reads_zero_castling_as_letters() {
        assert_eq!(core(b"Nxf7+!?"), b"Nxf7");
        assert_eq!(core(b"exd6e.p."), b"exd6");
        assert_eq!(core(b"0-0-0#"), b"O-O-O");
        assert_eq!(core(b"e4"), b"e4");
    }

    #[test]
    fn one_slip_is_one_edit() {
        assert_eq!(edits(b"Ra4", b"Ra3", 3), 1);
        assert_eq!(edits(b"Bd5", b"Nd5", 3), 1);
        assert_eq!(edits(b"Nd2", b"Nbd2", 3), 1);
        assert_eq!(edits(b"O-O", b"O-O-O", 3), 1);
        assert_eq!(edits(b"Rad1", b"Rda1", 3), 1, "two neighbours swapped");
        assert_eq!(edits(b"Nc3", b"Nc3", 3), 0);
    }

    #[test]
    fn a_near_destination_costs_less_than_a_far_one() {
        assert_eq!(slip_cost(b"Rc3", b"Rb3", 2), Some(2), "file one off");
        assert_eq!(slip_cost(b"Rf3", b"Rb3", 2), Some(3), "file far off");
        assert_eq!(slip_cost(b"Qe8", b"Qe3", 2), Some(2), "3 written as 8");
        assert_eq!(slip_cost(b"Qe8", b"Qe2", 2), Some(3));
        assert_eq!(slip_cost(b"Bd5", b"Nd5", 2), Some(2), "piece letter");
        assert_eq!(
            slip_cost(b"Rge1", b"Rae1", 2),
            Some(2),
            "a disambiguation is no square"
        );
        assert_eq!(slip_cost(b"Nd2", b"Nbd2", 2), Some(2));
        assert_eq!(slip_cost(b"Nd2", b"Bc4", 2), None);
    }

    #[test]
    fn far_tokens_stop_at_the_limit() {
        assert_eq!(edits(b"Qxh7", b"e4", 2), 3);
        assert_eq!(edits(b"Nf3", b"Bc4", 1), 2);
        assert_eq!(edits(b"Nf3", b"Bc4", 5), 3);
    }
}
