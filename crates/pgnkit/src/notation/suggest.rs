//! "Did you mean ...?": the single plausible legal reading of a move token that failed, and the kind of slip.
//!
//! Readings tried (all of them, then judged together):
//! - the token as written — if it resolves, only its check mark can be wrong ([`Slip::CheckMark`]);
//! - letter-case repairs: the first letter's case flipped (`nf3` → `Nf3`, `bxc3` ↔ `Bxc3`), capital files
//!   lowered (`KF3` → `Kf3`), or both ([`Slip::LetterCase`]);
//! - every other language's letters, not counting a reading that needs an explicit pawn letter (German `B`,
//!   Dutch `O`, Hungarian `G`), which would make too many slips look like pawn moves ([`Slip::Language`]);
//! - the disambiguation dropped: a wrong file or rank (`Nbd2` with the knights on f3 and b3), or a missing one
//!   that the written check mark settles (`Rd1+` where only one rook gives check) ([`Slip::Disambiguation`]);
//! - the origin square written without a piece letter (`g1f3`) ([`Slip::MissingPieceLetter`]);
//! - castling written as a king move (`Kg1`, `Ke1g1`, `e1c1`) ([`Slip::CastlingAsKingMove`]).
//!
//! A suggestion is returned only when all readings that resolve agree on one move; none when zero or several.

use super::lang::Language;
use super::resolve::SanError;
use super::san::{CastlingSide, CheckMark, Leniency, San, SanPlus};
use crate::core::{Move, Position, Role};

/// The kind of slip a suggestion repairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slip {
    /// Wrong letter case (`nf3`, `KF3`).
    LetterCase,
    /// Another language's piece letters (the preferred language that reads it so).
    Language(Language),
    /// A wrong disambiguation, or a missing one that the check mark settles.
    Disambiguation,
    /// The move is right; only its `+`/`#` is wrong or missing.
    CheckMark,
    /// The origin square written without the piece letter (`g1f3`).
    MissingPieceLetter,
    /// Castling written as a king move (`Kg1`).
    CastlingAsKingMove,
}

impl std::fmt::Display for Slip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Slip::LetterCase => write!(f, "wrong letter case"),
            Slip::Language(lang) => write!(f, "{} piece letters", lang.name()),
            Slip::Disambiguation => write!(f, "wrong or missing disambiguation"),
            Slip::CheckMark => write!(f, "wrong or missing check mark"),
            Slip::MissingPieceLetter => write!(f, "missing piece letter"),
            Slip::CastlingAsKingMove => write!(f, "castling written as a king move"),
        }
    }
}

/// The one legal move a failed token most plausibly meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Suggestion {
    /// The move.
    pub mv: Move,
    /// The slip that turned it into the token as written.
    pub slip: Slip,
}

/// Readings found so far: the first move and its slip, unless two readings disagree.
#[derive(Default)]
struct Readings {
    found: Option<Suggestion>,
    conflict: bool,
}

impl Readings {
    fn add(&mut self, mv: Move, slip: Slip) {
        match self.found {
            None => self.found = Some(Suggestion { mv, slip }),
            Some(s) if s.mv == mv => {}
            Some(_) => self.conflict = true,
        }
    }

    fn result(self) -> Option<Suggestion> {
        if self.conflict { None } else { self.found }
    }
}

/// Tokens longer than this are no SAN slip worth repairing.
const MAX_TOKEN: usize = 24;

/// The single plausible legal reading of `token` (which failed in `lang`), with the kind of slip.
pub fn suggest(pos: &Position, token: &[u8], lang: Language) -> Option<Suggestion> {
    let parsed = SanPlus::parse(token, lang).ok();
    if let Some(plus) = parsed
        && let Ok(r) = plus.resolve(pos)
    {
        let wrong_mark = !plus.mark_leniencies(&pos.after_unchecked(r.mv)).is_empty();
        return wrong_mark.then_some(Suggestion {
            mv: r.mv,
            slip: Slip::CheckMark,
        });
    }
    if token.is_empty() || token.len() > MAX_TOKEN {
        return None;
    }
    let mut readings = Readings::default();
    letter_case(pos, token, lang, &mut readings);
    for other in Language::ALL {
        if other == lang {
            continue;
        }
        if let Ok(plus) = SanPlus::parse(token, other)
            && !plus.leniencies.contains(Leniency::PawnLetter)
            && let Ok(mv) = plus.to_move(pos)
        {
            readings.add(mv, Slip::Language(other));
        }
    }
    if let Some(plus) = parsed {
        disambiguation(pos, &plus, &mut readings);
        coordinates(pos, &plus, &mut readings);
    }
    readings.result()
}

fn letter_case(pos: &Position, token: &[u8], lang: Language, readings: &mut Readings) {
    let mut buf = [0u8; MAX_TOKEN];
    for (flip_first, lower_files) in [(true, false), (false, true), (true, true)] {
        let variant = &mut buf[..token.len()];
        variant.copy_from_slice(token);
        if flip_first && variant[0].is_ascii_alphabetic() {
            variant[0] ^= 0x20;
        }
        if lower_files {
            // A capital file is followed by a rank, a capital `X` by a file; a promotion piece by neither.
            for i in 1..variant.len() {
                let next = variant.get(i + 1).copied().unwrap_or(0);
                let lower = match variant[i] {
                    b'A'..=b'H' => next.is_ascii_digit(),
                    b'X' => matches!(next.to_ascii_lowercase(), b'a'..=b'h'),
                    _ => false,
                };
                if lower {
                    variant[i] = variant[i].to_ascii_lowercase();
                }
            }
        }
        if variant == token {
            continue;
        }
        if let Ok(plus) = SanPlus::parse(variant, lang)
            && let Ok(mv) = plus.to_move(pos)
        {
            readings.add(mv, Slip::LetterCase);
        }
    }
}

fn disambiguation(pos: &Position, plus: &SanPlus, readings: &mut Readings) {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = plus.san
    else {
        return;
    };
    if role == Role::Pawn {
        return;
    }
    let loose = San::Normal {
        role,
        file: None,
        rank: None,
        capture,
        to,
        promotion,
    };
    match loose.to_move(pos) {
        Ok(mv) if file.is_some() || rank.is_some() => readings.add(mv, Slip::Disambiguation),
        Err(SanError::Ambiguous { from, .. }) => {
            let Some(mark) = plus.mark else { return };
            let mut matching = from.filter_map(|from| {
                let exact = San::Normal {
                    role,
                    file: Some(from.file()),
                    rank: Some(from.rank()),
                    capture,
                    to,
                    promotion,
                };
                exact
                    .to_move(pos)
                    .ok()
                    .filter(|mv| CheckMark::after(&pos.after_unchecked(*mv)) == Some(mark))
            });
            if let (Some(mv), None) = (matching.next(), matching.next()) {
                readings.add(mv, Slip::Disambiguation);
            }
        }
        _ => {}
    }
}

fn coordinates(pos: &Position, plus: &SanPlus, readings: &mut Readings) {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    } = plus.san
    else {
        return;
    };
    let king = pos.our_king();
    let implicit = role == Role::Pawn && !plus.leniencies.contains(Leniency::PawnLetter);
    let from = file
        .zip(rank)
        .map(|(f, r)| crate::core::Square::from_coords(f, r));
    // Castling as a king move: `Kg1`, `Ke1g1`, `e1g1` (the king two files away on its back rank).
    let by_king = role == Role::King || (implicit && from == Some(king));
    let side = [CastlingSide::King, CastlingSide::Queen]
        .into_iter()
        .find(|side| side.king_file() == to.file());
    if by_king
        && from.is_none_or(|f| f == king)
        && to.rank() == king.rank()
        && to.rank() == pos.turn().back_rank()
        && let Some(side) = side
        && to.file().index().abs_diff(king.file().index()) >= 2
    {
        if let Ok(mv) = San::Castle(side).to_move(pos) {
            readings.add(mv, Slip::CastlingAsKingMove);
        }
        return;
    }
    // Coordinates without the piece letter: `g1f3`.
    if let Some(from) = from
        && implicit
        && let Some(piece) = pos.board().piece_at(from)
        && piece.color == pos.turn()
        && piece.role != Role::Pawn
    {
        let san = San::Normal {
            role: piece.role,
            file,
            rank,
            capture,
            to,
            promotion: None,
        };
        if let Ok(mv) = san.to_move(pos) {
            readings.add(mv, Slip::MissingPieceLetter);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fen::parse_fen;

    fn suggestion(fen: &str, token: &str, lang: Language) -> Option<(String, Slip)> {
        let pos = if fen == "start" {
            Position::new()
        } else {
            parse_fen(fen).unwrap()
        };
        suggest(&pos, token.as_bytes(), lang)
            .map(|s| (SanPlus::from_move(&pos, &s.mv).san.to_string(), s.slip))
    }

    fn some(fen: &str, token: &str, lang: Language) -> (String, Slip) {
        suggestion(fen, token, lang).unwrap_or_else(|| panic!("no suggestion for {token}"))
    }

    #[test]
    fn letter_case() {
        // `nf3` reads as it is (a noted leniency): nothing to suggest.
        assert_eq!(suggestion("start", "nf3", Language::En), None);
        assert_eq!(
            some("start", "NF3", Language::En),
            ("Nf3".into(), Slip::LetterCase)
        );
        assert_eq!(
            some("start", "nG1F3", Language::En),
            ("Nf3".into(), Slip::LetterCase)
        );
        assert_eq!(
            some("start", "E4", Language::En),
            ("e4".into(), Slip::LetterCase)
        );
        let king = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            some(king, "KF2", Language::En),
            ("Kf2".into(), Slip::LetterCase)
        );
        assert_eq!(suggestion(king, "kf2", Language::En), None);
        assert_eq!(
            some(king, "kF2", Language::En),
            ("Kf2".into(), Slip::LetterCase)
        );
        let bishop = "4k3/8/8/8/8/2p5/1B6/4K3 w - - 0 1";
        assert_eq!(
            some(bishop, "bxc3", Language::En),
            ("Bxc3".into(), Slip::LetterCase)
        );
        let french = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        // French `r` is the king (read with a note), so nothing to suggest; `RF2` is a slip of case.
        assert_eq!(suggestion(french, "rf2", Language::Fr), None);
        assert_eq!(
            some(french, "RF2", Language::Fr),
            ("Kf2".into(), Slip::LetterCase)
        );
    }

    #[test]
    fn other_languages() {
        assert_eq!(
            some("start", "Cf3", Language::En),
            ("Nf3".into(), Slip::Language(Language::Fr))
        );
        assert_eq!(
            some("start", "Nf3", Language::Fr),
            ("Nf3".into(), Slip::Language(Language::En))
        );
        assert_eq!(
            some("start", "Sf3", Language::Fr),
            ("Nf3".into(), Slip::Language(Language::De))
        );
        assert_eq!(
            some("start", "♘f3", Language::En),
            ("Nf3".into(), Slip::Language(Language::Figurine))
        );
        // English rook or French king: two readings, no suggestion.
        assert_eq!(
            suggestion("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "Rf1", Language::De),
            None
        );
        // A German pawn letter is not taken as a slip.
        assert_eq!(suggestion("start", "Be4", Language::En), None);
    }

    #[test]
    fn disambiguation() {
        let one = "4k3/8/8/8/8/5N2/8/4K3 w - - 0 1";
        assert_eq!(
            some(one, "Nbd2", Language::En),
            ("Nd2".into(), Slip::Disambiguation)
        );
        let discovered = "k7/8/8/8/8/5N2/8/1N2K2B w - - 0 1";
        assert_eq!(
            some(discovered, "Nd2+", Language::En),
            ("Nfd2".into(), Slip::Disambiguation)
        );
        assert_eq!(suggestion(discovered, "Nd2", Language::En), None);
        assert_eq!(
            suggestion("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rd1", Language::En),
            None
        );
    }

    #[test]
    fn check_marks_and_notation() {
        assert_eq!(
            some("start", "e4+", Language::En),
            ("e4".into(), Slip::CheckMark)
        );
        assert_eq!(suggestion("start", "e4", Language::En), None);
        let castle = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        assert_eq!(
            some(castle, "Kg1", Language::En),
            ("O-O".into(), Slip::CastlingAsKingMove)
        );
        assert_eq!(
            some(castle, "Ke1g1", Language::En),
            ("O-O".into(), Slip::CastlingAsKingMove)
        );
        // Coordinates read as they are (noted leniencies): nothing to suggest.
        assert_eq!(suggestion(castle, "e1g1", Language::En), None);
        assert_eq!(suggestion(castle, "Kc1", Language::En), None);
        assert_eq!(suggestion("start", "g1f3", Language::En), None);
        assert_eq!(suggestion("start", "Qh5", Language::En), None);
        assert_eq!(suggestion("start", "xyz", Language::En), None);
        assert_eq!(suggestion("start", "", Language::En), None);
    }
}
