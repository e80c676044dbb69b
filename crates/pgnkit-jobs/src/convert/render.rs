//! The walk's visitor of convert: the text of every replayed move, in the notation, language and format
//! asked for.

use std::fmt::Write as _;

use pgnkit::core::fen;
use pgnkit::core::{Color, Move, Position};
use pgnkit::notation::{CheckMark, Language, lan};
use pgnkit::openings::Classifier;
use pgnkit::pgn::writer::PrintedMoves;
use pgnkit::pgn::{Game, TokenKind};
use pgnkit::walk::{MoveAt, MoveFailure, Visitor, Walk};
use std::ops::ControlFlow;

use super::{Failure, Notation, OutputFormat};
use crate::moves::{push_san_body, push_uci};

/// Sees every replayed move and writes its text.
pub(super) struct Render<'c> {
    pub(super) moves: &'c mut PrintedMoves,
    pub(super) notation: Notation,
    pub(super) lang: Language,
    pub(super) format: OutputFormat,
    pub(super) main_san: &'c mut String,
    pub(super) main_uci: &'c mut String,
    pub(super) epd: &'c mut String,
    pub(super) game_number: u64,
    pub(super) failure: Option<Failure>,
    pub(super) source: &'c Game<'c>,
    /// The opening the main line reaches (`--add-opening`; an empty table otherwise).
    pub(super) openings: Classifier<'static>,
}

impl Render<'_> {
    fn fail(&mut self, at: MoveAt<'_>, failure: MoveFailure) {
        if self.failure.is_some() {
            return;
        }
        let text = match &at.token.kind {
            TokenKind::Move(mt) => self.source.san(mt),
            _ => self.source.bytes(at.token.span),
        };
        self.failure = Some(Failure::Move {
            span: at.token.span,
            text: String::from_utf8_lossy(text).into_owned(),
            in_variation: at.depth > 0,
            failure,
        });
    }

    fn epd_line(&mut self, pos: &Position, ply: u32) {
        fen::write_epd(pos, self.epd);
        let _ = writeln!(self.epd, " id \"game {} ply {ply}\";", self.game_number);
    }
}

impl Render<'_> {
    /// The move's text without its check mark (what the position before the move decides).
    fn body(&mut self, at: MoveAt<'_>, before: &Position, m: &Move) {
        let black = before.turn() == Color::Black;
        let token = match &at.token.kind {
            TokenKind::Move(mt) => self.source.san(mt),
            _ => &[],
        };
        let canonical = at.canonical;
        match self.format {
            OutputFormat::Pgn => {
                let (notation, lang) = (self.notation, self.lang);
                self.moves
                    .set(at.index, before.fullmoves(), black, |s| match notation {
                        Notation::San => push_san_body(s, token, canonical, before, m, lang),
                        Notation::Lan => {
                            let _ = write!(s, "{}", lan(m, lang));
                        }
                        Notation::Uci => push_uci(s, before, m),
                    });
            }
            OutputFormat::Jsonl if at.depth == 0 => {
                if !self.main_san.is_empty() {
                    self.main_san.push(' ');
                    self.main_uci.push(' ');
                }
                push_san_body(self.main_san, token, canonical, before, m, self.lang);
                push_uci(self.main_uci, before, m);
            }
            OutputFormat::Epd if at.depth == 0 && at.ply == 1 => self.epd_line(before, 0),
            _ => {}
        }
    }

    /// The rest, once the move is played: the check mark, the position after it.
    #[inline(never)]
    fn mark(&mut self, at: MoveAt<'_>, after: &Position) {
        match self.format {
            OutputFormat::Pgn if self.notation != Notation::Uci => {
                if let Some(mark) = CheckMark::after(after) {
                    self.moves.append(at.index, mark.as_str());
                }
            }
            OutputFormat::Jsonl if at.depth == 0 => {
                if let Some(mark) = CheckMark::after(after) {
                    self.main_san.push_str(mark.as_str());
                }
            }
            OutputFormat::Epd if at.depth == 0 => self.epd_line(after, at.ply),
            _ => {}
        }
    }
}

impl Visitor for Render<'_> {
    type Output = Walk;

    // Moves are written in two steps around the move (SAN body before, check mark after), so the walk copies
    // no position for them.
    #[inline(always)]
    fn before_move(&mut self, at: MoveAt<'_>, before: &Position, m: &Move) -> ControlFlow<Walk> {
        self.body(at, before, m);
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn after_move(&mut self, at: MoveAt<'_>, _: &Move, after: &Position) -> ControlFlow<Walk> {
        // Most moves give no check and, in PGN, leave nothing more to write: that test stays in line.
        if after.is_check() || self.format != OutputFormat::Pgn {
            self.mark(at, after);
        }
        if at.depth == 0 {
            self.openings.observe(after);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, walk: Walk) -> Walk {
        walk
    }

    fn null_move(&mut self, at: MoveAt<'_>, before: &Position) -> ControlFlow<Walk> {
        let black = before.turn() == Color::Black;
        match self.format {
            OutputFormat::Pgn => {
                self.moves
                    .set(at.index, before.fullmoves(), black, |s| s.push_str("--"));
            }
            OutputFormat::Jsonl if at.depth == 0 => {
                if !self.main_san.is_empty() {
                    self.main_san.push(' ');
                    self.main_uci.push(' ');
                }
                self.main_san.push_str("--");
                self.main_uci.push_str("0000");
            }
            OutputFormat::Epd if at.depth == 0 => {
                if at.ply == 1 {
                    self.epd_line(before, 0);
                }
                let mut after = *before;
                after.play_null();
                self.epd_line(&after, at.ply);
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn failure(&mut self, at: MoveAt<'_>, _: &Position, failure: MoveFailure) -> ControlFlow<Walk> {
        self.fail(at, failure);
        ControlFlow::Continue(())
    }
}
