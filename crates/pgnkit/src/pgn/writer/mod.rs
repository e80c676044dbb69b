//! Writing a game in PGN export format (Edwards 1994, §8): pure formatting over the game model and the
//! text of its moves, which the caller has already resolved (the writer replays nothing, so it knows no
//! positions and cannot be wrong about a move: the caller, which resolved the moves, gives their text in a
//! [`PrintedMoves`]).
//!
//! # What is written
//! * **Tags**: the Seven Tag Roster first, in its order (Event, Site, Date, Round, White, Black, Result),
//!   missing ones filled with `?`, `????.??.??` for Date, and the termination marker (or `*`) for Result;
//!   then the other tags in ASCII order of their names (a stable sort). One tag a line; values unescaped
//!   from the input and escaped again (`\\`, `\"`), so any escaping the input used comes out canonical; a
//!   line break inside a value (read leniently) becomes a space. A blank line follows.
//! * **Movetext**, lines of at most 79 characters, LF line ends, then a blank line:
//!   - `N.` before every white move; `N...` before a black move only when something other than its white
//!     move stands before it: the start of the movetext, a comment, a NAG, a variation (its start or its
//!     end), a draw offer or an escape line;
//!   - each move as the caller wrote it ([`PrintedMoves`]): canonical SAN in the target language, LAN or UCI;
//!   - NAGs as `$n`, suffix annotations included (`e4!` becomes `e4 $1`, `+=` becomes `$14`): export format
//!     has no suffix annotations;
//!   - brace comments verbatim, except that line ends become LF and, where a line must be broken, the
//!     blanks at the break become the line break; a break is never put before a word that would make
//!     the new line look like a tag pair or an escape line;
//!   - `;` comments stay line comments (their text may hold a `}`), each followed by a line break;
//!   - `%` escape lines verbatim, on lines of their own;
//!   - variations `( ... )`, nested, and `(=)` draw offers, in place;
//!   - the termination marker last, equal to the Result tag.
//!
//! Comments and escape lines found before or between the tags go to the start of the movetext, in order
//! (their tokens come first in [`Game::tokens`]); any after the termination marker go just before the
//! marker, which must end the movetext.
//!
//! A Result tag that holds one of the four markers decides the final marker (the standard wants them
//! equal; the caller may warn when the game's own marker differed). A Result tag with another value is
//! kept as it is and the movetext ends with the game's marker, or `*`.
//!
//! Line width: every line of movetext is under 80 characters, except when one unbreakable unit is longer
//! by itself: a single word of a comment, a `;` comment, an escape line (all kept verbatim). Tag lines are
//! one per tag whatever their length.

mod layout;
mod printed_moves;
mod tags;

pub use layout::MAX_LINE;
pub use printed_moves::PrintedMoves;
pub use tags::export_result;

use super::commands::strip_clocks;
use super::model::{Game, Span, TokenKind};
use layout::{Filler, NumberBuf, Sep, write_comment};

/// What to keep of the input besides tags and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// Brace and `;` comments.
    pub comments: bool,
    /// Variations (with everything inside them).
    pub variations: bool,
    /// NAGs and suffix annotations.
    pub nags: bool,
    /// `[%clk ...]` commands inside comments (a comment left empty without them is dropped).
    pub clocks: bool,
}

impl Default for Keep {
    fn default() -> Keep {
        Keep {
            comments: true,
            variations: true,
            nags: true,
            clocks: true,
        }
    }
}

/// Why a game cannot be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// A move token has no text in the [`PrintedMoves`] (it was not replayed).
    MoveNotGiven {
        /// The token's index in [`Game::tokens`].
        token: usize,
        /// Where it is in the game's source.
        span: Span,
    },
    /// Text that is no PGN token: it cannot be placed in export format.
    UnknownToken {
        /// Where it is in the game's source.
        span: Span,
    },
}

impl WriteError {
    /// Where in the game's source.
    pub fn span(&self) -> Span {
        match *self {
            WriteError::MoveNotGiven { span, .. } | WriteError::UnknownToken { span } => span,
        }
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::MoveNotGiven { .. } => f.write_str("move was not replayed"),
            WriteError::UnknownToken { .. } => f.write_str("unrecognised text in the movetext"),
        }
    }
}

/// Writes games in export format; holds scratch buffers reused from game to game.
///
/// ```
/// use pgnkit::pgn::writer::{Keep, PrintedMoves, Writer};
/// use pgnkit::pgn::{TokenKind, parse_all};
/// let games = parse_all(b"[White \"Anna\"]\n1.e4 e5 2.Nf3!? {a gambit?} 1-0");
/// let game = &games[0];
/// // The writer prints each move as the caller spells it (here as written; convert resolves and respells).
/// let mut moves = PrintedMoves::default();
/// moves.reset(game.tokens.len());
/// let mut ply = 0;
/// for (i, token) in game.tokens.iter().enumerate() {
///     if let TokenKind::Move(mv) = token.kind {
///         let text = std::str::from_utf8(game.san(&mv)).unwrap();
///         moves.set(i, ply / 2 + 1, ply % 2 == 1, |out| out.push_str(text));
///         ply += 1;
///     }
/// }
/// let mut out = Vec::new();
/// Writer::new(Keep::default()).write_game(game, &moves, &mut out).unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Anna\"]\n\
///      [Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 $5 {a gambit?} 1-0\n\n"
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct Writer {
    keep: Keep,
    order: Vec<u32>,
    scratch: String,
}

impl Writer {
    /// A writer that keeps what `keep` says (everything, by default).
    pub fn new(keep: Keep) -> Writer {
        Writer {
            keep,
            ..Writer::default()
        }
    }

    /// Appends `game` in export format to `out`, the moves printed as `moves` says. On error nothing is
    /// appended.
    pub fn write_game(
        &mut self,
        game: &Game<'_>,
        moves: &PrintedMoves,
        out: &mut Vec<u8>,
    ) -> Result<(), WriteError> {
        self.write_game_with_tags(game, moves, &[], out)
    }

    /// [`Writer::write_game`] with some tags set: each `(name, Some(value))` replaces every tag of that name
    /// (or adds it, in its place in the order), each `(name, None)` leaves that tag out.
    ///
    /// ```
    /// use pgnkit::pgn::writer::{Keep, PrintedMoves, Writer};
    /// use pgnkit::pgn::parse_all;
    /// let games = parse_all(b"[White \"Anna\"]\n[ECO \"A00\"]\n[Variation \"old\"]\n\n*");
    /// let mut out = Vec::new();
    /// let moves = PrintedMoves::default();
    /// let set = [("ECO", Some("B00")), ("Opening", Some("King's Pawn Game")), ("Variation", None)];
    /// Writer::new(Keep::default()).write_game_with_tags(&games[0], &moves, &set, &mut out).unwrap();
    /// let text = String::from_utf8(out).unwrap();
    /// assert!(text.ends_with("[Result \"*\"]\n[ECO \"B00\"]\n[Opening \"King's Pawn Game\"]\n\n*\n\n"), "{text}");
    /// ```
    pub fn write_game_with_tags(
        &mut self,
        game: &Game<'_>,
        moves: &PrintedMoves,
        set: &[(&str, Option<&str>)],
        out: &mut Vec<u8>,
    ) -> Result<(), WriteError> {
        let mark = out.len();
        tags::write_tags(game, set, &mut self.order, out);
        out.push(b'\n');
        let result = self.write_movetext(game, moves, out);
        if result.is_err() {
            out.truncate(mark);
        }
        result
    }

    fn write_movetext(
        &mut self,
        game: &Game<'_>,
        moves: &PrintedMoves,
        out: &mut Vec<u8>,
    ) -> Result<(), WriteError> {
        let keep = self.keep;
        let mut f = Filler { out, col: 0 };
        // A black move needs its number when anything but its white move stands before it.
        let mut black_number = true;
        // Separator before the next unit: none right after `(`.
        let mut sep = Sep::Space;
        // Depth of a variation being left out.
        let mut skipping = 0u32;
        let mut number = NumberBuf::default();
        for (i, token) in game.tokens.iter().enumerate() {
            if skipping > 0 {
                match token.kind {
                    TokenKind::VariationStart => skipping += 1,
                    TokenKind::VariationEnd => skipping -= 1,
                    _ => {}
                }
                continue;
            }
            match token.kind {
                TokenKind::MoveNumber { .. } | TokenKind::Result(_) => continue,
                TokenKind::Move(mt) => {
                    let Some((text, n, black)) = moves.get(i) else {
                        return Err(WriteError::MoveNotGiven {
                            token: i,
                            span: token.span,
                        });
                    };
                    // A move number stays on the line of its move.
                    let numbered = !black || black_number;
                    f.put_move(sep, numbered.then_some((n, black)), text);
                    black_number = false;
                    if keep.nags
                        && let Some(nag) = mt.suffix
                    {
                        f.put(Sep::Space, &[number.nag(nag)]);
                        black_number = true;
                    }
                }
                TokenKind::Nag(nag) => {
                    if !keep.nags {
                        continue;
                    }
                    f.put(sep, &[number.nag(nag)]);
                    black_number = true;
                }
                TokenKind::Comment => {
                    if !keep.comments {
                        continue;
                    }
                    let text = game.comment(token.span);
                    let text: &str = if keep.clocks || !text.contains("[%clk") {
                        &text
                    } else {
                        strip_clocks(&text, &mut self.scratch);
                        if self.scratch.trim().is_empty() {
                            continue;
                        }
                        &self.scratch
                    };
                    write_comment(&mut f, sep, text);
                    black_number = true;
                }
                TokenKind::LineComment => {
                    if !keep.comments {
                        continue;
                    }
                    let text = game.text(token.span);
                    f.put(sep, &[text.trim_end_matches(['\r', '\n'])]);
                    f.newline();
                    black_number = true;
                }
                TokenKind::Escape => {
                    let text = game.text(token.span);
                    f.newline();
                    f.push(text.trim_end_matches(['\r', '\n']));
                    f.newline();
                    black_number = true;
                }
                TokenKind::VariationStart => {
                    if !keep.variations {
                        skipping = 1;
                        continue;
                    }
                    f.put(sep, &["("]);
                    sep = Sep::None;
                    black_number = true;
                    continue;
                }
                TokenKind::VariationEnd => {
                    f.put(Sep::None, &[")"]);
                    black_number = true;
                }
                TokenKind::DrawOffer => {
                    f.put(sep, &["(=)"]);
                    black_number = true;
                }
                TokenKind::Unknown => return Err(WriteError::UnknownToken { span: token.span }),
            }
            sep = Sep::Space;
        }
        f.put(sep, &[export_result(game).as_str()]);
        f.out.extend_from_slice(b"\n\n");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::parse_all;

    /// Gives every move token its own bytes as text and numbers from a running count: enough to test
    /// layout without replaying (the writer never looks at what a move means).
    fn verbatim_moves(game: &Game<'_>) -> PrintedMoves {
        let mut moves = PrintedMoves::default();
        moves.reset(game.tokens.len());
        // Per line of play: the ply count, so numbers follow variations like a replay would.
        let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
        for (i, t) in game.tokens.iter().enumerate() {
            match t.kind {
                TokenKind::VariationStart => {
                    let (_, before) = *stack.last().unwrap();
                    stack.push((before, before));
                }
                TokenKind::VariationEnd => {
                    stack.pop();
                }
                TokenKind::Move(mt) => {
                    let top = stack.last_mut().unwrap();
                    let ply = top.0;
                    top.1 = ply;
                    top.0 += 1;
                    let text = String::from_utf8_lossy(game.san(&mt)).into_owned();
                    moves.set(i, ply / 2 + 1, ply % 2 == 1, |s| s.push_str(&text));
                }
                _ => {}
            }
        }
        moves
    }

    fn export(input: &str, keep: Keep) -> String {
        let games = parse_all(input.as_bytes());
        let mut out = Vec::new();
        let mut w = Writer::new(keep);
        for g in &games {
            let moves = verbatim_moves(g);
            w.write_game(g, &moves, &mut out).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[derive(Debug, Default, PartialEq, Eq)]
    struct Counts {
        moves: usize,
        comments: usize,
        line_comments: usize,
        nags: usize,
        variations: usize,
        escapes: usize,
        draw_offers: usize,
        tags: usize,
        comment_words: Vec<String>,
    }

    fn counts(text: &str) -> Vec<Counts> {
        parse_all(text.as_bytes())
            .iter()
            .map(|g| {
                let mut c = Counts {
                    tags: g.tags.len(),
                    ..Counts::default()
                };
                for t in &g.tokens {
                    match t.kind {
                        TokenKind::Move(mt) => {
                            c.moves += 1;
                            c.nags += usize::from(mt.suffix.is_some());
                        }
                        TokenKind::Comment => {
                            c.comments += 1;
                            c.comment_words
                                .extend(g.comment(t.span).split_whitespace().map(String::from));
                        }
                        TokenKind::LineComment => c.line_comments += 1,
                        TokenKind::Nag(_) => c.nags += 1,
                        TokenKind::VariationStart => c.variations += 1,
                        TokenKind::Escape => c.escapes += 1,
                        TokenKind::DrawOffer => c.draw_offers += 1,
                        _ => {}
                    }
                }
                c
            })
            .collect()
    }

    /// Same movetext content (the output has the Seven Tag Roster added).
    fn assert_same_content(input: &str, output: &str) {
        let (a, b) = (&counts(input)[0], &counts(output)[0]);
        assert_eq!(
            (
                a.moves,
                a.comments,
                a.line_comments,
                a.nags,
                a.variations,
                a.escapes,
                a.draw_offers
            ),
            (
                b.moves,
                b.comments,
                b.line_comments,
                b.nags,
                b.variations,
                b.escapes,
                b.draw_offers
            )
        );
        assert!(a.comment_words == b.comment_words, "comment words differ");
    }

    fn assert_width(text: &str) {
        let mut in_tags = true;
        for line in text.lines() {
            if line.is_empty() {
                in_tags = false;
                continue;
            }
            if line.starts_with('[') && in_tags {
                continue;
            }
            assert!(
                line.chars().count() <= MAX_LINE,
                "line of {} characters: {line:?}",
                line.chars().count()
            );
        }
    }

    const RICH: &str = "% escape before the tags\n{a comment before the tags}\n[White \"Smith, \\\"J\\\"\"]\n[Event \"Open\"]\n; between tags\n[ECO \"C20\"]\n[Annotator \"me\"]\n[Result \"1-0\"]\n\n\
        1. e4! {best by test} e5 $2 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3 {the gambit}) 2... Nc6 +=\n\
        ; a line comment with a } brace\n3. Bb5 (=) a6 4. Ba4 Nf6\n%escape in the movetext\n5. O-O 1-0 {after the marker}\n";

    #[test]
    fn set_tags_replace_the_tag_of_their_name_in_its_place() {
        let games = parse_all(
            b"[Event \"Open\"]\n[ECO \"C20\"]\n[Annotator \"me\"]\n[Zeta \"z\"]\n\n1. e4 *",
        );
        let mut moves = PrintedMoves::default();
        moves.reset(games[0].tokens.len());
        let first_move = games[0]
            .tokens
            .iter()
            .position(|t| matches!(t.kind, TokenKind::Move(_)))
            .unwrap();
        moves.set(first_move, 1, false, |s| s.push_str("e4"));
        let set = [
            ("ECO", Some("B00")),
            ("Event", Some("Open \"A\"")),
            ("Opening", Some("King's Pawn Game")),
            ("Zeta", None),
        ];
        let mut out = Vec::new();
        Writer::new(Keep::default())
            .write_game_with_tags(&games[0], &moves, &set, &mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let tags: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
        assert_eq!(
            tags,
            [
                "[Event \"Open \\\"A\\\"\"]",
                "[Site \"?\"]",
                "[Date \"????.??.??\"]",
                "[Round \"?\"]",
                "[White \"?\"]",
                "[Black \"?\"]",
                "[Result \"*\"]",
                "[Annotator \"me\"]",
                "[ECO \"B00\"]",
                "[Opening \"King's Pawn Game\"]",
            ]
        );
        assert!(text.ends_with("\n\n1. e4 *\n\n"), "{text}");
    }

    #[test]
    fn tags_roster_first_others_sorted_and_escaped() {
        let out = export(RICH, Keep::default());
        let tags: Vec<&str> = out.lines().take_while(|l| !l.is_empty()).collect();
        assert_eq!(
            tags,
            [
                "[Event \"Open\"]",
                "[Site \"?\"]",
                "[Date \"????.??.??\"]",
                "[Round \"?\"]",
                "[White \"Smith, \\\"J\\\"\"]",
                "[Black \"?\"]",
                "[Result \"1-0\"]",
                "[Annotator \"me\"]",
                "[ECO \"C20\"]",
            ]
        );
        let back = parse_all(out.as_bytes());
        assert_eq!(back[0].tag("White").as_deref(), Some("Smith, \"J\""));
    }

    #[test]
    fn nothing_is_lost() {
        let out = export(RICH, Keep::default());
        let (a, b) = (&counts(RICH)[0], &counts(&out)[0]);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.comments, b.comments);
        assert_eq!(a.comment_words, b.comment_words);
        assert_eq!(a.line_comments, b.line_comments);
        assert_eq!(a.nags, b.nags);
        assert_eq!(a.variations, b.variations);
        assert_eq!(a.escapes, b.escapes);
        assert_eq!(a.draw_offers, b.draw_offers);
        assert_eq!(b.tags, 9);
        assert!(parse_all(out.as_bytes())[0].diagnostics.is_empty(), "{out}");
        // Writing the output again changes nothing.
        assert_eq!(export(&out, Keep::default()), out);
    }

    #[test]
    fn movetext_layout() {
        let out = export(RICH, Keep::default());
        let movetext = out.split("\n\n").nth(1).unwrap();
        assert_eq!(
            movetext,
            "% escape before the tags\n{a comment before the tags} ; between tags\n\
             1. e4 $1 {best by test} 1... e5 $2 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3 {the\n\
             gambit}) 2... Nc6 $14 ; a line comment with a } brace\n\
             3. Bb5 (=) 3... a6 4. Ba4 Nf6\n%escape in the movetext\n5. O-O {after the marker} 1-0"
        );
        assert!(out.ends_with("1-0\n\n"));
    }

    #[test]
    fn black_numbers_only_after_interruptions() {
        let out = export(
            "1. e4 e5 2. Nf3 $1 Nc6 3. Bb5 (3. Bc4) a6 4. Ba4 {c} Nf6 *",
            Keep::default(),
        );
        assert!(
            out.contains(
                "1. e4 e5 2. Nf3 $1 2... Nc6 3. Bb5 (3. Bc4) 3... a6 4. Ba4 {c} 4... Nf6 *"
            ),
            "{out}"
        );
    }

    #[test]
    fn lines_stay_under_80_characters() {
        let mut text = String::from("[Event \"x\"]\n\n");
        for n in 1..=150 {
            text.push_str(&format!(
                "{n}. Nf3 {{comment number {n} with some words}} Nf6 $13 (Nc6 {{v}} ) "
            ));
        }
        text.push_str("*\n");
        let out = export(&text, Keep::default());
        assert_width(&out);
        assert_same_content(&text, &out);
        // Figurines count as one character each.
        let mut fig = String::new();
        for n in 1..=100 {
            fig.push_str(&format!("{n}. ♘f3 ♘f6 "));
        }
        fig.push('*');
        let out = export(&fig, Keep::default());
        assert_width(&out);
        assert!(out.lines().any(|l| l.chars().count() > 70));
    }

    #[test]
    fn long_comments_break_at_blanks_but_never_before_a_tag_or_escape() {
        // Every padding, so that some break falls right before `[Event` and before `%`.
        for pad in 0..90 {
            let text = format!(
                "1. e4 {{{} word word [Event \"x\"] and %not an escape word}} *",
                "x".repeat(pad)
            );
            let out = export(&text, Keep::default());
            for line in out.split("\n\n").nth(1).unwrap().lines() {
                assert!(
                    !line.starts_with("[Event") && !line.starts_with('%'),
                    "{line}"
                );
            }
            let back = parse_all(out.as_bytes());
            assert_eq!(back.len(), 1);
            assert!(back[0].diagnostics.is_empty(), "{:?}", back[0].diagnostics);
            assert_same_content(&text, &out);
        }
        let long = "word ".repeat(40);
        let out = export(&format!("1. e4 {{{long}}} *"), Keep::default());
        assert_width(&out);
    }

    #[test]
    fn comment_line_breaks_are_kept_as_lf() {
        let out = export("1. e4 {two\r\nlines} *", Keep::default());
        assert!(out.contains("{two\nlines} *"), "{out:?}");
    }

    #[test]
    fn stripping() {
        let keep = Keep {
            comments: false,
            variations: false,
            nags: false,
            clocks: true,
        };
        let out = export(RICH, keep);
        let c = &counts(&out)[0];
        assert_eq!(
            (c.comments, c.line_comments, c.nags, c.variations),
            (0, 0, 0, 0)
        );
        assert_eq!(c.escapes, 2);
        assert_eq!(c.moves, counts(RICH)[0].moves - 4);
        assert!(
            out.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 (=) 3... a6"),
            "{out}"
        );

        let clk = "1. e4 { [%clk 0:03:00] } e5 { [%eval 0.2] [%clk 0:02:59] } 2. Nf3 {[%clk 0:02:58] ok} *";
        let keep = Keep {
            clocks: false,
            ..Keep::default()
        };
        let out = export(clk, keep);
        assert!(
            out.contains("1. e4 e5 { [%eval 0.2] } 2. Nf3 {ok} *"),
            "{out}"
        );
    }

    #[test]
    fn result_comes_from_the_tag_or_the_marker() {
        let out = export("[Result \"0-1\"]\n\n1. e4 *", Keep::default());
        assert!(out.contains("[Result \"0-1\"]") && out.ends_with("1. e4 0-1\n\n"));
        let out = export("1. e4 1/2-1/2", Keep::default());
        assert!(out.contains("[Result \"1/2-1/2\"]") && out.ends_with("1. e4 1/2-1/2\n\n"));
        let out = export("[Result \"?\"]\n\n1. e4", Keep::default());
        assert!(out.contains("[Result \"?\"]") && out.ends_with("1. e4 *\n\n"));
        let out = export("[Event \"x\"]\n[Result \"*\"]\n", Keep::default());
        assert!(out.ends_with("\n\n*\n\n"), "{out:?}");
    }

    #[test]
    fn unwritable_games_write_nothing() {
        let games = parse_all(b"1. e4 e5 2. Nf3 *");
        let mut moves = verbatim_moves(&games[0]);
        moves.reset(games[0].tokens.len());
        let mut out = b"keep".to_vec();
        let err = Writer::default()
            .write_game(&games[0], &moves, &mut out)
            .unwrap_err();
        assert!(matches!(err, WriteError::MoveNotGiven { token: 1, .. }));
        assert_eq!(out, b"keep");
        let games = parse_all(b"1. e4 pawn *");
        let moves = verbatim_moves(&games[0]);
        assert!(matches!(
            Writer::default().write_game(&games[0], &moves, &mut out),
            Err(WriteError::UnknownToken { .. })
        ));
    }
}
