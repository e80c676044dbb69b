//! `--material "KRP v KR"`: the pieces on the board, side by side, whichever side has which.

use std::fmt;

use pgnkit::core::{Board, Color, Piece, Role};

/// A balance of material to look for: the exact pieces of one side and of the other, in either colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Material {
    /// Pieces per role ([`Role::index`]) of each side, kings included.
    sides: [[u8; 6]; 2],
    /// Pieces on the board in all: a quick first test.
    total: u32,
}

/// Why a `--material` text does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialError(String);

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Material {
    /// Reads `KRP v KR` (also `KRPvKR`, `KRP KR`, `KRP-KR`, `rp r`): the pieces of each side by their
    /// English letters, K Q R B N P in either case, repeated for each piece (`KPP`: two pawns); the king may
    /// be left out.
    pub(crate) fn parse(text: &str) -> Result<Material, MaterialError> {
        let fail = |m: String| Err(MaterialError(m));
        let compact: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let halves: Vec<&str> = if let Some((a, b)) = compact.split_once(['v', 'V', '-']) {
            vec![a.trim(), b.trim()]
        } else {
            compact.split(' ').collect()
        };
        if halves.len() != 2 {
            return fail(format!(
                "`{text}`: expected the pieces of each side, as `KRP v KR`"
            ));
        }
        let mut sides = [[0u8; 6]; 2];
        for (side, half) in sides.iter_mut().zip(&halves) {
            // Letters in either case, as pgn-extract's material files write them.
            for c in half.chars() {
                let role = match c.to_ascii_uppercase() {
                    'K' => Role::King,
                    'Q' => Role::Queen,
                    'R' => Role::Rook,
                    'B' => Role::Bishop,
                    'N' => Role::Knight,
                    'P' => Role::Pawn,
                    _ => {
                        return fail(format!(
                            "`{text}`: `{c}` is not a piece letter (K Q R B N P)"
                        ));
                    }
                };
                side[role.index()] = side[role.index()].saturating_add(1);
            }
            match side[Role::King.index()] {
                0 => side[Role::King.index()] = 1,
                1 => {}
                _ => return fail(format!("`{text}`: a side has one king")),
            }
            if side[Role::Pawn.index()] > 8 || side.iter().map(|&n| u32::from(n)).sum::<u32>() > 16
            {
                return fail(format!("`{text}`: more pieces than a side can have"));
            }
        }
        let total = sides.iter().flatten().map(|&n| u32::from(n)).sum();
        Ok(Material { sides, total })
    }

    /// Whether the board holds exactly this material, one side's for White and the other's for Black.
    #[inline]
    pub(crate) fn matches(&self, board: &Board) -> bool {
        if board.occupied().count() != self.total {
            return false;
        }
        let count = |color: Color| {
            Role::ALL.map(|role| board.by_piece(Piece::new(color, role)).count() as u8)
        };
        let (white, black) = (count(Color::White), count(Color::Black));
        (white == self.sides[0] && black == self.sides[1])
            || (white == self.sides[1] && black == self.sides[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::core::fen::parse_fen;

    fn board(fen: &str) -> Board {
        *parse_fen(fen).unwrap().board()
    }

    #[test]
    fn either_side_may_have_either_half() {
        let m = Material::parse("KRP v KR").unwrap();
        // White: K, R, P; Black: K, R.
        assert!(m.matches(&board("8/8/4k3/8/3P4/8/1R6/r3K3 w - - 0 1")));
        // The same with colours swapped.
        assert!(m.matches(&board("R3k3/1r6/8/3p4/8/4K3/8/8 b - - 0 1")));
        // Another pawn: not this material.
        assert!(!m.matches(&board("8/8/4k3/8/3PP3/8/1R6/r3K3 w - - 0 1")));
        assert!(!m.matches(&board(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        )));
    }

    #[test]
    fn spellings_and_mistakes() {
        let a = Material::parse("KRP v KR").unwrap();
        for same in [
            "KRPvKR",
            "KRP KR",
            "RP - R",
            "  KRP   v  KR ",
            "rp r",
            "PR V kr",
        ] {
            assert_eq!(Material::parse(same).unwrap(), a, "{same}");
        }
        assert!(Material::parse("KQ").unwrap_err().0.contains("each side"));
        assert!(Material::parse("KX v K").unwrap_err().0.contains("`X`"));
        assert!(
            Material::parse("KK v K")
                .unwrap_err()
                .0
                .contains("one king")
        );
        assert!(Material::parse("PPPPPPPPP v K").is_err());
        assert!(Material::parse("KRP v KR v K").is_err());
    }
}
