//! UCI move notation (`e2e4`, `e7e8q`; castling `e1g1`, or king-takes-rook `e1h1` in Chess960).

use std::fmt;

use crate::core::{CastlingMode, Move, Position, Role, Square};

/// A UCI move as written, before it is checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Uci {
    /// The origin square.
    pub from: Square,
    /// The destination square (for castling, the king's destination or its own rook's square).
    pub to: Square,
    /// The piece a pawn promotes to.
    pub promotion: Option<Role>,
}

/// Why text is no UCI move of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// Not two squares and an optional promotion letter (`n`, `b`, `r`, `q`).
    Syntax,
    /// No legal move of the position matches.
    Illegal,
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Syntax => write!(f, "not a UCI move (like e2e4 or e7e8q)"),
            UciError::Illegal => write!(f, "illegal in this position"),
        }
    }
}

impl std::error::Error for UciError {}

impl Uci {
    /// Reads `e2e4` or `e7e8q` (the promotion letter in either case).
    pub fn from_ascii(s: &[u8]) -> Result<Uci, UciError> {
        let (squares, promotion) = match s.len() {
            4 => (s, None),
            5 => {
                let role = Role::from_char(s[4] as char)
                    .filter(|r| !matches!(r, Role::Pawn | Role::King))
                    .ok_or(UciError::Syntax)?;
                (&s[..4], Some(role))
            }
            _ => return Err(UciError::Syntax),
        };
        Ok(Uci {
            from: Square::from_ascii(&squares[..2]).ok_or(UciError::Syntax)?,
            to: Square::from_ascii(&squares[2..]).ok_or(UciError::Syntax)?,
            promotion,
        })
    }

    /// The UCI form of a legal move in `pos` (castling depends on the position's castling mode).
    pub fn from_move(pos: &Position, m: &Move) -> Uci {
        let to = if m.is_castle() && pos.castling_mode() == CastlingMode::Standard {
            m.king_destination()
        } else {
            m.to
        };
        Uci {
            from: m.from,
            to,
            promotion: m.promotion,
        }
    }

    /// The legal move this denotes in `pos`. Castling is accepted both as king-to-destination (`e1g1`) and as
    /// king-takes-rook (`e1h1`).
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciError> {
        pos.legal_moves()
            .iter()
            .find(|m| {
                m.from == self.from
                    && m.promotion == self.promotion
                    && (m.to == self.to
                        || (m.is_castle() && m.king_destination() == self.to && m.from != self.to))
            })
            .copied()
            .ok_or(UciError::Illegal)
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.lower_char())?;
        }
        Ok(())
    }
}

/// Shorthand: the UCI text of a legal move.
pub fn to_uci(pos: &Position, m: &Move) -> String {
    Uci::from_move(pos, m).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_round_trip_from_start() {
        let pos = Position::new();
        for m in pos.legal_moves().iter() {
            let text = to_uci(&pos, m);
            assert_eq!(
                Uci::from_ascii(text.as_bytes())
                    .unwrap()
                    .to_move(&pos)
                    .unwrap(),
                *m
            );
        }
        assert_eq!(
            Uci::from_ascii(b"e2e5").unwrap().to_move(&pos),
            Err(UciError::Illegal)
        );
        assert_eq!(Uci::from_ascii(b"e2e"), Err(UciError::Syntax));
    }
}
