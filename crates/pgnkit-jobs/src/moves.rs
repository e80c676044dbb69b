//! Writing a legal move's SAN and UCI into a string, fast: convert and stats write one per move of every game.

use pgnkit::buffer::{is_ascii_short, push_bytes};
use pgnkit::core::{Move, Position, Role};
use pgnkit::notation::uci::Uci;
use pgnkit::notation::{Language, San};

/// Appends the canonical SAN of a legal move (minimal disambiguation, `+`/`#` from the position after) in
/// `lang`'s letters, the way [`push_san_body`] writes it, without the formatting machinery: the tests hold it
/// to `SanPlus::from_move(..).display(lang)`.
#[cfg(test)]
pub(crate) fn push_san(
    out: &mut String,
    before: &Position,
    m: &Move,
    after: &Position,
    lang: Language,
) {
    San::from_move(before, m).push_to(out, lang);
    if let Some(mark) = pgnkit::notation::CheckMark::after(after) {
        out.push_str(mark.as_str());
    }
}

/// Appends the canonical SAN of a legal move without its check mark. A token that is canonical already (see
/// [`pgnkit::notation::Resolved::canonical`]) is copied, its piece letter put in `lang`: most tokens of real
/// files are, and copying skips working out the disambiguation again.
// In line: for a copied token the call itself cost as much as the copy (the spelling out is a call).
#[inline(always)]
pub(crate) fn push_san_body(
    out: &mut String,
    token: &[u8],
    canonical: bool,
    before: &Position,
    m: &Move,
    lang: Language,
) {
    if !(canonical && m.promotion.is_none() && copy_canonical(out, token, m, lang)) {
        push_san_spelled(out, before, m, lang);
    }
}

/// [`push_san_body`]'s copy of a canonical token: false (nothing appended) when it cannot be copied: a piece
/// letter that is not an ASCII capital, in the token or in `lang` (figurines), or other bytes that are not ASCII.
#[inline(always)]
fn copy_canonical(out: &mut String, token: &[u8], m: &Move, lang: Language) -> bool {
    let mut end = token.len();
    while end > 0 && matches!(token[end - 1], b'+' | b'#') {
        end -= 1;
    }
    let body = &token[..end];
    let Some(&first) = body.first() else {
        return false;
    };
    if !is_ascii_short(body) {
        return false;
    }
    // SAFETY: only ASCII bytes are appended below (`body` and an ASCII letter), so the string stays UTF-8.
    let bytes = unsafe { out.as_mut_vec() };
    // Pawn moves and castling read the same in every language; a piece move's letter is its first byte.
    let mut copy_whole = |copied: bool| {
        if copied {
            push_bytes(bytes, body);
        }
        copied
    };
    if m.is_castle() {
        return copy_whole(first == b'O');
    }
    if m.role == Role::Pawn {
        return copy_whole((b'a'..=b'h').contains(&first));
    }
    let letter = lang.letter(m.role);
    if first.is_ascii_uppercase() && letter.is_ascii() {
        bytes.push(letter as u8);
        push_bytes(bytes, &body[1..]);
        return true;
    }
    false
}

/// [`push_san_body`] for a token that cannot be copied.
#[inline(never)]
fn push_san_spelled(out: &mut String, before: &Position, m: &Move, lang: Language) {
    San::from_move(before, m).push_to(out, lang);
}

/// Appends the UCI form of a legal move (castling as the position's castling mode wants it).
pub(crate) fn push_uci(out: &mut String, before: &Position, m: &Move) {
    let uci = Uci::from_move(before, m);
    let name = |sq: pgnkit::core::Square| {
        let i = sq.index() as u8;
        [b'a' + (i & 7), b'1' + (i >> 3)]
    };
    let mut text = [0u8; 8];
    text[..2].copy_from_slice(&name(uci.from));
    text[2..4].copy_from_slice(&name(uci.to));
    let mut len = 4;
    if let Some(p) = uci.promotion {
        text[4] = p.lower_char() as u8;
        len = 5;
    }
    debug_assert!(text[..len].is_ascii());
    // SAFETY: square names and promotion letters are ASCII, so the string stays UTF-8. The whole 8-byte buffer
    // is copied into room reserved for it (a fixed-size copy is a single move, a copy of `len` bytes a call to
    // `memcpy` and pushing a char at a time cost as much as the rest of the row), and `len` of its bytes kept.
    unsafe {
        let bytes = out.as_mut_vec();
        bytes.reserve(text.len());
        let end = bytes.len();
        std::ptr::copy_nonoverlapping(text.as_ptr(), bytes.as_mut_ptr().add(end), text.len());
        bytes.set_len(end + len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::core::fen;
    use pgnkit::notation::SanPlus;

    #[test]
    fn direct_san_and_uci_writing_match_the_notation_layer() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "2N1N3/8/2N1N3/8/4k3/8/8/4K3 w - - 0 1",
        ];
        for fen in fens {
            let pos = fen::parse_fen(fen).unwrap();
            for m in pos.legal_moves().iter() {
                let after = pos.after_unchecked(*m);
                for lang in Language::ALL {
                    let mut s = String::new();
                    push_san(&mut s, &pos, m, &after, lang);
                    assert_eq!(s, SanPlus::from_move(&pos, m).display(lang).to_string());
                }
                let mut s = String::new();
                push_uci(&mut s, &pos, m);
                assert_eq!(s, pgnkit::notation::uci::to_uci(&pos, m));
            }
        }
    }

    #[test]
    fn a_token_copied_as_canonical_is_the_spelled_san() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2N1N3/8/2N1N3/8/4k3/8/8/4K3 w - - 0 1",
            "R6R/8/8/8/8/8/1k6/R3K2R w K - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ];
        let (mut copied, mut spelled) = (0, 0);
        for fen in fens {
            let pos = fen::parse_fen(fen).unwrap();
            for m in pos.legal_moves().iter() {
                for lang in [Language::En, Language::Fr, Language::De] {
                    let mut expected = String::new();
                    San::from_move(&pos, m).push_to(&mut expected, lang);
                    // Every way to write the move: hints, capture mark, check marks, castling zeros.
                    let (file, rank) = (m.from.file().char(), m.from.rank().char());
                    let piece = if m.role == Role::Pawn {
                        String::new()
                    } else {
                        lang.letter(m.role).to_string()
                    };
                    let to = format!("{}{}", m.to.file().char(), m.to.rank().char());
                    let mut tokens = vec![
                        expected.clone(),
                        format!("{expected}+"),
                        expected.replace('O', "0"),
                    ];
                    for hint in [
                        String::new(),
                        file.to_string(),
                        rank.to_string(),
                        format!("{file}{rank}"),
                    ] {
                        for x in ["", "x", "-"] {
                            tokens.push(format!("{piece}{hint}{x}{to}"));
                        }
                    }
                    for token in tokens {
                        let Ok(plus) = SanPlus::parse(token.as_bytes(), lang) else {
                            continue;
                        };
                        let Ok(r) = plus.resolve(&pos) else { continue };
                        if r.mv != *m {
                            continue;
                        }
                        let mut s = String::new();
                        push_san_body(&mut s, token.as_bytes(), r.canonical, &pos, m, lang);
                        assert_eq!(s, expected, "{fen}: {token} in {lang:?}");
                        // Into another language.
                        let (mut copy, mut spelling) = (String::new(), String::new());
                        push_san_body(
                            &mut copy,
                            token.as_bytes(),
                            r.canonical,
                            &pos,
                            m,
                            Language::Es,
                        );
                        San::from_move(&pos, m).push_to(&mut spelling, Language::Es);
                        assert_eq!(copy, spelling, "{fen}: {token} in {lang:?} to Spanish");
                        if r.canonical {
                            copied += 1;
                        } else {
                            spelled += 1;
                        }
                    }
                }
            }
        }
        assert!(
            copied > 100 && spelled > 100,
            "{copied} copied, {spelled} spelled"
        );
    }
}
