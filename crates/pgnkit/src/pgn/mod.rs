//! Reading and writing PGN: a reader over bytes that keeps every token's span and reports located
//! diagnostics, the game model it fills, a fast game splitter, bounded-memory streaming readers, and a
//! [`writer`] for export format.
//!
//! `examples/read_games.rs` reads a file and prints each game's tags, its main line's length and the
//! problems found, located; the example of [`GameReader`] does the same over bytes in memory.
//!
//! # Reading
//! * [`GameReader`]: the games of a buffer in memory, one after the other ([`GameReader::next_game`] reuses its
//!   allocations; the [`Iterator`] impl hands out owned [`Game`]s). [`parse_all`] collects them.
//! * [`read_games`]: any [`std::io::Read`], read in fixed-size blocks (bounded memory), each game
//!   handed to a closure as soon as it is complete (one thread; no separate splitting pass).
//! * [`BatchReader`]: any [`std::io::Read`], read in fixed-size blocks, yields [`Batch`]es of complete
//!   games (owned bytes, absolute offset, first line and column, first game index), ready for worker
//!   threads; [`Batch::games`] parses one.
//! * [`game_starts`] / [`split_games`]: where games start, without parsing them.
//!
//! # The game model
//! A [`Game`] borrows its bytes ([`Game::source`]) and holds three flat lists, each entry with a
//! [`Span`] (a `u32` byte range in the game's source):
//! * [`Game::tags`]: [`Tag`] pairs, in order; name and raw value spans. [`Game::tag`] and
//!   [`Game::tag_value`] undo the `\"`/`\\` escapes and decode, only when asked.
//! * [`Game::tokens`]: the movetext as [`Token`]s, in order: move numbers, moves ([`MoveToken`]: the raw
//!   SAN bytes in any language, a glued suffix annotation as its NAG, `e.p.`), NAGs (`$n`, separate
//!   `!`/`?`, and symbols such as `+=`, `±`, `∞`, mapped to their standard numbers), brace and `;`
//!   comments (text kept verbatim; see [`commands()`] and [`clock`] for `[%clk ...]`), variation start
//!   and end (a flat list; nesting depth is unbounded and costs no recursion), `(=)` draw offers, `%`
//!   escape lines, the termination marker, and unknown text. Trivia before or among the tags are in
//!   this list too: merge with the tags by `span.start` to rebuild the exact order.
//! * [`Game::diagnostics`]: [`Diagnostic`]s ([`DiagnosticKind`] + span), notes (a spelling outside the
//!   standard), warnings (read leniently, content faithful) or errors. [`Game::location`] turns any offset into a file line and a column as
//!   editors count ([`Location`]: characters of the decoded line, tabs count one, a BOM none).
//!
//! Streaming readers never decide a boundary from bytes cut by the end of a block: a game whose reading
//! could change with more input is held back until more is read, so [`read_games`], [`BatchReader`] and
//! a whole-buffer [`GameReader`] give the same games, span for span (tested on the corpus, on random input
//! with random block sizes, and by the fuzz target in `fuzz/`). Two limits keep a stream's memory bounded
//! where a whole buffer has none: a game longer than [`MAX_GAME_BYTES`] (64 MiB) is reported and skipped to the
//! next game, and a run of blank space longer than 1 MiB after a finished game is dropped (a comment after
//! it then belongs to the next game); see [`BlockReader`].
//!
//! Also: [`Speed`] (the Lichess speed category of a `TimeControl` tag), [`Game::result`] (the termination marker), [`Game::encoding`] (each game is checked on its own:
//! valid UTF-8 stays UTF-8, anything else is read as Windows-1252/Latin-1; in such a game each tag value and
//! comment is decoded on its own, see [`Game::field_encoding`]), [`Game::offset`],
//! [`Game::line`], [`Game::column`] and [`Game::index`]. [`Locator`] and [`LineMap`] locate many offsets of
//! a game at once. Nothing is decoded or unescaped while parsing;
//! tokens are 24-byte values in vectors that [`GameReader::next_game`] reuses, so parsing allocates nothing
//! per token.
//!
//! # Tokens
//! Words end at whitespace or at one of `{ } ( ) [ ] ; " $ * .`. Move numbers are digits followed by
//! periods or `…` (`12.`, `12...`, `12…`, or a bare `12`); a move may follow glued (`1.e4`, `12…Nf6`). The
//! periods of a bare number may stand apart from it (`12 .`, `12 ...`: the standard makes the period a
//! token of its own).
//! A move is castling (`O-O`, `O-O-O`, with zeros too), a null move (`--`, `Z0`), a piece letter (any
//! capital used by a piece-letter language, or a figurine) then `[file][rank][x|:|-]square`, or a pawn
//! move (`e4`, `exd5`, `ed5`, `e2e4`, `e2-e4`) with an optional promotion (`=Q`, `=q`, or a glued letter
//! on the last rank: `e8Q`); then `+`, `++` or `#`, a glued `e.p.` or `ep`, and a suffix annotation. A
//! word that is none of these (nor a NAG, symbol, marker or number) is [`TokenKind::Unknown`] with an
//! error.
//! Termination markers are whole words (`*` anywhere). A comment ends at the first `}` not escaped by
//! a backslash (kokopu writes `\}`; reported as a warning). A `%` escape line needs `%` in column 1.
//!
//! # Game boundaries
//! The rules that set pgnkit apart (python-chess merges games that lack a blank line between them;
//! pgn-reader splits a game at a blank line after its opening comment). A new game starts:
//! 1. at a tag pair (`[` + name + `"`) that comes after movetext, blank line or not;
//! 2. at anything but whitespace and comments after a termination marker (so tagless games work);
//! 3. at a tag whose name was already seen in the current tag section: tag-only games (broadcast
//!    exports with no movetext and no marker) split there, while blank lines between the tags of one
//!    game are allowed.
//!
//! A blank line never ends a game. A game's bytes run to the next game's first byte: trailing comments
//! and blank lines belong to the game before. A malformed game gets located errors, and the reader goes
//! on with the same boundary rules, so no other game is lost or merged; a missing `}` or an unclosed tag
//! value is cut before the next tag-pair line (a missing `}` also at the last line break of the input).
//! A termination marker inside an open variation ends the game (with an error), as in kokopu.
//! Everything is linear in the input: no backtracking beyond a few bytes, no recursion.

mod boundary;
mod commands;
mod game_reader;
mod lex;
mod location;
mod model;
mod movetext;
mod reader;
mod roster;
mod split;
mod text;
mod time_control;
pub mod writer;

pub use commands::{
    Command, Eval, clock, commands, emt, eval, parse_clock, parse_eval, strip_clocks,
};
pub use game_reader::{BufferStart, GROUP_BYTES, GROUP_GAMES, GameLists, GameReader, parse_all};
pub use lex::GameResult;
pub use location::{LineMap, Location, Locator, advance, count_line_breaks};
pub use model::{
    Diagnostic, DiagnosticKind, DiagnosticSeverity, Game, MAX_VARIATION_DEPTH, MoveLetters,
    MoveToken, Record, RecordStart, Span, Tag, Token, TokenKind,
};
pub use reader::{
    Batch, BatchReader, BlockReader, DEFAULT_BATCH, DEFAULT_BLOCK, GameTooLarge, MAX_BATCH_GAMES,
    MAX_BLANK_RUN, MAX_GAME_BYTES, read_games,
};
pub use roster::{SEVEN_TAG_ROSTER, roster_index};
pub use split::{game_starts, split_games};
pub use text::{BOM, Encoding, decode, detect_encoding, tag_value, unescape_comment};
pub use time_control::Speed;

/// Calls `check` with every text made of `len` pieces from `pieces` (tests that hold a shortcut to what it
/// replaces on all short inputs).
#[cfg(test)]
fn for_every_text<P: AsRef<[u8]>>(pieces: &[P], len: u32, mut check: impl FnMut(&[u8])) {
    let mut text = Vec::new();
    for n in 0..pieces.len().pow(len) {
        text.clear();
        let mut k = n;
        for _ in 0..len {
            text.extend_from_slice(pieces[k % pieces.len()].as_ref());
            k /= pieces.len();
        }
        check(&text);
    }
}
