//! Replaying a parsed game move by move: the variant and start position from the tags, the piece-letter
//! language (detected per game), and a walk over the movetext that plays the main line with the rules
//! bookkeeping ([`GameState`]) and every variation from its own branching position, telling a [`Visitor`]
//! what each move token turned out to be. validate, convert and stats are visitors; so is anything a user
//! writes, from a move counter to a tree builder.
//!
//! A visitor that counts the checks of the main line, in a game written with French piece letters:
//!
//! ```
//! use std::ops::ControlFlow;
//! use pgnkit::notation::Language;
//! use pgnkit::pgn::parse_all;
//! use pgnkit::walk::{self, MoveAt, Visitor, Walk};
//! use pgnkit::{Move, Position};
//!
//! #[derive(Default)]
//! struct Checks(u32);
//!
//! impl Visitor for Checks {
//!     type Output = (u32, u32);
//!
//!     fn after_move(&mut self, at: MoveAt<'_>, _: &Move, after: &Position) -> ControlFlow<(u32, u32)> {
//!         if at.depth == 0 && after.is_check() {
//!             self.0 += 1;
//!         }
//!         ControlFlow::Continue(())
//!     }
//!
//!     fn end_game(&mut self, walk: Walk) -> (u32, u32) {
//!         (self.0, walk.state.ply())
//!     }
//! }
//!
//! let games = parse_all(b"1. e4 e5 2. Fc4 Cc6 3. Dh5 Cf6 4. Dxf7# 1-0");
//! let prepared = walk::prepare(&games[0], None).unwrap();
//! assert_eq!(prepared.lang.lang, Language::Fr);
//! let (checks, plies) = walk::walk(&games[0], &prepared, Default::default(), &mut Checks::default());
//! assert_eq!((checks, plies), (1, 7));
//! ```
//!
//! Stopping early, and skipping variations: the first capture of the main line.
//!
//! ```
//! use std::ops::ControlFlow;
//! use pgnkit::pgn::parse_all;
//! use pgnkit::walk::{self, MoveAt, Skip, VariationAt, Visitor, Walk};
//! use pgnkit::{Move, Position};
//!
//! struct FirstCapture;
//!
//! impl Visitor for FirstCapture {
//!     type Output = Option<u32>;
//!
//!     fn begin_variation(&mut self, _: VariationAt) -> ControlFlow<Option<u32>, Skip> {
//!         ControlFlow::Continue(Skip(true))
//!     }
//!
//!     fn before_move(&mut self, at: MoveAt<'_>, _: &Position, m: &Move) -> ControlFlow<Option<u32>> {
//!         if m.is_capture() {
//!             return ControlFlow::Break(Some(at.ply));
//!         }
//!         ControlFlow::Continue(())
//!     }
//!
//!     fn end_game(&mut self, _: Walk) -> Option<u32> {
//!         None
//!     }
//! }
//!
//! let games = parse_all(b"1. e4 d5 (1... e5 2. Nf3) 2. exd5 Qxd5 *");
//! assert_eq!(walk::replay(&games[0], None, &mut FirstCapture), Ok(Some(3)));
//! ```

use crate::core::fen::{self, FenErrorKind, InvalidFen};
use crate::core::{GameState, Move, Position, PositionError, Square};
use crate::notation::{
    Language, LanguageSet, Leniencies, LetterSet, Resolved, SanError, SanPlus, SyntaxError,
    candidate_classes, san_letters,
};
#[cfg(doc)]
use crate::pgn::DiagnosticKind;
use crate::pgn::{Game, MAX_VARIATION_DEPTH, Span, Token, TokenKind};
use std::ops::ControlFlow;

/// Which game variant the tags announce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Standard chess (from the standard start position or a set-up one).
    Standard,
    /// Chess960 (Fischer Random): castling by the king and a rook from their start files.
    Chess960,
}

impl Variant {
    /// The identifier used in JSON output: `standard` or `chess960`.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }
    }
}

/// Reads a Variant tag: standard chess and Chess960 in their usual spellings (`Chess960`, `chess 960`,
/// `Fischerandom`, `Fischer Random`...); lichess's `From Position` is standard chess from a set-up position.
/// Anything else is unsupported and named in the error.
pub fn variant_of(tag: Option<&str>) -> Result<Variant, String> {
    let Some(raw) = tag else {
        return Ok(Variant::Standard);
    };
    let key: String = raw
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" | "classical" => {
            Ok(Variant::Standard)
        }
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "frc"
        | "freestyle" => Ok(Variant::Chess960),
        _ => Err(raw.to_string()),
    }
}

/// How the piece-letter language of a game was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confidence {
    /// Given by the user (`--lang`).
    Given,
    /// Only one reading of the letters exists.
    Letters,
    /// Several readings exist and exactly one replays the main line.
    Replay,
    /// Several readings replay the main line; the preferred one was taken.
    Guessed,
    /// No piece letter at all: every language reads the game alike.
    Irrelevant,
}

impl Confidence {
    /// The identifier used in JSON output (`given`, `letters`, `replay`, `guessed`, `irrelevant`).
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Given => "given",
            Confidence::Letters => "letters",
            Confidence::Replay => "replay",
            Confidence::Guessed => "guessed",
            Confidence::Irrelevant => "irrelevant",
        }
    }
}

/// The language chosen for a game.
#[derive(Debug, Clone)]
pub struct LanguageChoice {
    /// The language the moves are read in.
    pub lang: Language,
    /// How it was found.
    pub confidence: Confidence,
    /// Other languages that read every letter the game uses the same way.
    pub equivalents: LanguageSet,
    /// When guessed: the preferred member of every reading that replays (the chosen one first).
    pub guessed_among: Vec<Language>,
}

/// Why a game cannot be replayed at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A variant other than standard chess or Chess960; `span` is its tag.
    UnsupportedVariant {
        /// The Variant tag's value.
        name: String,
        /// Where the tag is.
        span: Span,
    },
    /// The FEN tag is not a legal position; `span` is its tag.
    InvalidFen {
        /// What is wrong with it, each problem at its column of the FEN (`Display` or
        /// [`Explain`](crate::explain::Explain) for the text).
        problems: Vec<fen::FenError>,
        /// Where the tag is.
        span: Span,
    },
}

/// A FEN tag that contradicts itself in a way with one obvious reading, and how it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupRepair {
    /// An en-passant square says a pawn has just moved, so the half-move clock must be 0, yet it is not (a
    /// chess.com export writes `... w KQkq f6 1 2`): the clock was read as 0.
    HalfmoveClockReset {
        /// The en-passant square of the FEN.
        square: Square,
        /// The half-move clock it gave.
        halfmoves: u32,
    },
}

impl std::fmt::Display for SetupRepair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupRepair::HalfmoveClockReset { square, halfmoves } => write!(
                f,
                "the FEN tag's en-passant square {square} says a pawn has just moved, but its half-move clock is {halfmoves}: read as 0"
            ),
        }
    }
}

/// What a game starts from.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The start position: the standard one, or the FEN tag's.
    pub start: Position,
    /// The variant the tags announce.
    pub variant: Variant,
    /// The language of the piece letters, and how it was found.
    pub lang: LanguageChoice,
    /// How a self-contradicting FEN tag was read (see [`SetupRepair`]).
    pub repair: Option<SetupRepair>,
}

/// The start position and variant from the tags, and the language of the piece letters.
pub fn prepare(game: &Game<'_>, lang: Option<Language>) -> Result<Prepared, SetupError> {
    // The first tag of each name counts (as for `Game::tag`); one pass finds both, as every game is prepared.
    let (mut variant_tag, mut fen_tag) = (None, None);
    for tag in &game.tags {
        match game.bytes(tag.name) {
            b"Variant" if variant_tag.is_none() => variant_tag = Some(tag),
            b"FEN" if fen_tag.is_none() => fen_tag = Some(tag),
            _ => {}
        }
    }
    let variant =
        variant_of(variant_tag.map(|t| game.tag_value(t)).as_deref()).map_err(|name| {
            SetupError::UnsupportedVariant {
                name,
                span: variant_tag.map_or(Span::default(), |t| t.span),
            }
        })?;
    let mut repair = None;
    let start = match fen_tag.map(|t| game.tag_value(t)) {
        None => Position::new(),
        Some(text) => {
            let start = fen::parse_fen(&text)
                .or_else(|invalid| {
                    // Only the clock contradicts the e.p. square: trust the square, the one field that
                    // changes what can be played.
                    let contradiction = invalid.problems().iter().find_map(|e| match e.kind {
                        FenErrorKind::Position(PositionError::EnPassantWithHalfmoves {
                            square,
                            halfmoves,
                        }) => Some(SetupRepair::HalfmoveClockReset { square, halfmoves }),
                        _ => None,
                    });
                    let start = invalid.ignore_halfmove_clock()?;
                    repair = contradiction;
                    Ok(start)
                })
                .map_err(|invalid: InvalidFen| SetupError::InvalidFen {
                    problems: invalid.problems().to_vec(),
                    span: fen_tag.map_or(Span::default(), |t| t.span),
                })?;
            match variant {
                Variant::Standard => start,
                // Rights written `KQkq` are Chess960 rights in a Chess960 game (castling is then written as
                // king takes rook in UCI).
                Variant::Chess960 => start.into_chess960(),
            }
        }
    };
    let lang = choose_language(game, &start, lang);
    Ok(Prepared {
        start,
        variant,
        lang,
        repair,
    })
}

/// The piece letters used by all move tokens of a game, variations included. The reader has gathered the
/// capitals of the common shapes already; only a game with other shapes (castling, promotions, figurines)
/// needs its tokens scanned again.
pub fn letters_used(game: &Game<'_>) -> LetterSet {
    let gathered = LetterSet::from_capitals(game.move_letters.capitals);
    if !game.move_letters.irregular {
        return gathered;
    }
    let mut letters = gathered;
    for token in &game.tokens {
        if let TokenKind::Move(m) = &token.kind {
            letters = letters.union(san_letters(game.san(m)));
        }
    }
    letters
}

/// How far the main line replays with `lang`: `Ok(plies)` when all of it does (or `limit` plies did),
/// `Err(plies before the first failure)` otherwise. Positions only, no rules bookkeeping: this is the cheap
/// trial of detection.
fn dry_run(game: &Game<'_>, start: &Position, lang: Language, limit: u32) -> Result<u32, u32> {
    let mut pos = *start;
    let mut plies = 0;
    for (_, mt) in game.main_line() {
        if plies >= limit {
            return Ok(plies);
        }
        let Ok(plus) = SanPlus::parse(game.san(mt), lang) else {
            return Err(plies);
        };
        if plus.san.is_null() {
            pos.play_null();
        } else {
            match plus.san.to_move(&pos) {
                Ok(m) => pos.play_unchecked(m),
                Err(_) => return Err(plies),
            }
        }
        plies += 1;
    }
    Ok(plies)
}

/// Detects the language per game: the capitals the game uses narrow the candidates to classes of languages
/// that read them alike; when several classes remain, replaying the main line decides (French `Rf1` is a king
/// move, English `Rf1` a rook move). Several clean replays: the preferred class wins and the choice is marked
/// as a guess. No clean replay: the class that gets furthest, so its first failing move is what gets reported.
pub fn choose_language(
    game: &Game<'_>,
    start: &Position,
    given: Option<Language>,
) -> LanguageChoice {
    let simple = |lang, confidence| LanguageChoice {
        lang,
        confidence,
        equivalents: LanguageSet::EMPTY,
        guessed_among: Vec::new(),
    };
    if let Some(lang) = given {
        return simple(lang, Confidence::Given);
    }
    let letters = letters_used(game);
    if letters.is_empty() {
        return simple(Language::En, Confidence::Irrelevant);
    }
    let of_class = |class: LanguageSet, confidence| {
        let lang = class.first().unwrap_or(Language::En);
        LanguageChoice {
            lang,
            confidence,
            equivalents: class.without(lang),
            guessed_among: Vec::new(),
        }
    };
    let classes = candidate_classes(letters);
    match classes.as_slice() {
        [only] => of_class(*only, Confidence::Letters),
        [] => {
            // No language reads every letter (a typo, or mixed letters): the reading that gets furthest.
            let mut best = (Language::En, 0);
            for lang in Language::ALL {
                let reach = dry_run(game, start, lang, u32::MAX).unwrap_or_else(|p| p);
                if reach > best.1 {
                    best = (lang, reach);
                }
            }
            simple(best.0, Confidence::Replay)
        }
        several => {
            let preferred = |c: LanguageSet| c.first().unwrap_or(Language::En);
            // The other readings first: a letter read as another piece usually fails within a few moves.
            let others: Vec<(LanguageSet, Result<u32, u32>)> = several[1..]
                .iter()
                .map(|&class| (class, dry_run(game, start, preferred(class), u32::MAX)))
                .collect();
            let clean: Vec<LanguageSet> = others
                .iter()
                .filter(|(_, r)| r.is_ok())
                .map(|(c, _)| *c)
                .collect();
            if clean.is_empty() {
                // The preferred reading only has to get further than the best of the others: the walk then
                // replays it for real (and reports its errors, if it has any).
                let best_other = others
                    .iter()
                    .filter_map(|(_, r)| r.err())
                    .max()
                    .unwrap_or(0);
                return match dry_run(game, start, preferred(several[0]), best_other + 1) {
                    Ok(_) => of_class(several[0], Confidence::Replay),
                    Err(reach) => {
                        let mut best = (several[0], reach);
                        for (class, run) in &others {
                            let other = run.err().unwrap_or(0);
                            if other > best.1 {
                                best = (*class, other);
                            }
                        }
                        of_class(best.0, Confidence::Replay)
                    }
                };
            }
            let first_clean = dry_run(game, start, preferred(several[0]), u32::MAX).is_ok();
            let all_clean: Vec<LanguageSet> = first_clean
                .then_some(several[0])
                .into_iter()
                .chain(clean)
                .collect();
            match all_clean.as_slice() {
                [one] => of_class(*one, Confidence::Replay),
                // No main-line move with a piece letter (the letters are in variations only): replaying told
                // the readings nothing apart; the preferred one is taken without a claim that replay chose it.
                [first, ..]
                    if !game
                        .main_line()
                        .any(|(_, mt)| !san_letters(game.san(mt)).is_empty()) =>
                {
                    of_class(*first, Confidence::Guessed)
                }
                [first, ..] => {
                    let mut choice = of_class(*first, Confidence::Guessed);
                    choice.guessed_among = all_clean.iter().map(|&c| preferred(c)).collect();
                    choice
                }
                [] => of_class(several[0], Confidence::Replay),
            }
        }
    }
}

/// Why a move token does not give a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveFailure {
    /// Not a move in the game's language.
    Syntax(SyntaxError),
    /// Illegal or ambiguous.
    San(SanError),
    /// The position before it is checkmate or stalemate: nothing can follow.
    GameOver {
        /// Checkmate (`true`) or stalemate.
        checkmate: bool,
    },
    /// Text the reader could not take for any PGN token (reported by the reader). It may have been a move,
    /// so its line stops here: what follows would be read with the wrong side to move.
    Unknown,
}

/// Where a move token stands: `depth` 0 is the main line; `ply` counts half-moves from the start of its own
/// line (the main line's start position, or the variation's branching point), from 1. `canonical`: the
/// token, check mark aside, is the canonical SAN of its move in the game's language (see
/// [`Resolved::canonical`]); false for null moves and failures.
#[derive(Debug, Clone, Copy)]
pub struct MoveAt<'t> {
    /// Index of the token in [`Game::tokens`].
    pub index: usize,
    /// The token itself (its span locates it in the file).
    pub token: &'t Token,
    /// 0 for the main line, 1 for a variation of it, and so on.
    pub depth: u32,
    /// Half-moves from the start of the token's own line, from 1.
    pub ply: u32,
    /// The token is its move's canonical SAN (check mark aside).
    pub canonical: bool,
    /// What the token needed to be read (see [`crate::notation::Leniency`]); none for null moves and failures.
    pub leniencies: Leniencies,
}

/// Whether to walk into a variation, returned by [`Visitor::begin_variation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Skip(pub bool);

/// Where a variation opens: `index` is its `(` token in [`Game::tokens`]; `depth` is the variation's own
/// depth (1 for a variation of the main line).
#[derive(Debug, Clone, Copy)]
pub struct VariationAt {
    /// Index of the `(` token in [`Game::tokens`].
    pub index: usize,
    /// 1 for a variation of the main line, 2 for a variation inside it, and so on.
    pub depth: u32,
}

/// What a walk tells its consumer, move by move, in the order of the movetext: variations are visited
/// where they stand, each from the position before the move it replaces.
///
/// Every callback but [`Visitor::end_game`] has a default that does nothing and goes on. A callback
/// returns [`ControlFlow::Break`] with the visitor's output to end the walk there (the rest of the game is
/// not replayed and `end_game` is not called).
///
/// Legal moves come in two calls, [`Visitor::before_move`] with the position before the move and
/// [`Visitor::after_move`] with the position after it, so that the walk never copies a position for the
/// visitor: a visitor that needs both at once keeps what it needs of the first.
pub trait Visitor {
    /// What the walk of one game produces.
    type Output;

    /// A variation opens (before its first move). Return `Skip(true)` to skip it, and everything nested
    /// in it: no callback is made for its moves, nor [`Visitor::end_variation`].
    fn begin_variation(&mut self, _at: VariationAt) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(false))
    }
    /// A variation that was not skipped closes.
    fn end_variation(&mut self) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }
    /// A legal move is about to be played in `before`.
    fn before_move(
        &mut self,
        _at: MoveAt<'_>,
        _before: &Position,
        _m: &Move,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }
    /// The legal move announced by [`Visitor::before_move`] was played: `after` is the position it produced.
    fn after_move(
        &mut self,
        _at: MoveAt<'_>,
        _m: &Move,
        _after: &Position,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }
    /// A null move (`--`, `Z0`) in `before`: the turn passed.
    fn null_move(&mut self, _at: MoveAt<'_>, _before: &Position) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }
    /// A token that gives no move in `before`: the rest of its line is not replayed.
    fn failure(
        &mut self,
        _at: MoveAt<'_>,
        _before: &Position,
        _failure: MoveFailure,
    ) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }
    /// A main-line move token after the main line stopped (it is not read).
    fn unchecked(&mut self, _at: MoveAt<'_>) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }
    /// The movetext is over: `walk` holds the main line as far as it was replayed.
    fn end_game(&mut self, walk: Walk) -> Self::Output;
}

/// Choices of a walk that are not the visitor's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WalkOptions {
    /// Keep the history that claims need (the first moment a draw could be claimed,
    /// [`GameState::first_claim`]); without it only the final position's claims are known.
    pub track_claims: bool,
    /// Play the main line without the rules history ([`GameState::moves_only`]): for a visitor that needs
    /// the moves but no verdict on repetitions or automatic endings.
    pub moves_only: bool,
}

/// What a walk leaves behind.
pub struct Walk {
    /// The main line as far as it was replayed, with its rules history.
    pub state: GameState,
    /// The main line hit a move it could not play.
    pub main_stopped: bool,
    /// Main-line move tokens after the stop.
    pub unchecked: u32,
    /// Legal moves played in variations.
    pub variation_moves: u32,
}

/// One open variation: its current position and the position before its last move (where a nested
/// variation branches from).
struct Line {
    pos: Position,
    before: Option<Position>,
    ply: u32,
    /// A move failed: the rest of this variation, and what nests in it, is skipped.
    dead: bool,
}

/// Reads one move token in a position: the move and whether the token is its canonical SAN (`None` for a
/// null move).
#[inline(always)]
pub fn read_move(
    token: &[u8],
    pos: &Position,
    lang: Language,
) -> Result<Option<Resolved>, MoveFailure> {
    let plus = SanPlus::parse(token, lang).map_err(MoveFailure::Syntax)?;
    if plus.san.is_null() {
        return Ok(None);
    }
    plus.resolve(pos).map(Some).map_err(|err| {
        if pos.has_legal_move() {
            MoveFailure::San(err)
        } else {
            MoveFailure::GameOver {
                checkmate: pos.is_check(),
            }
        }
    })
}

/// The common case of [`read_move`], kept apart so that its result stays in registers: a strict SAN token
/// ([`SanPlus::parse_strict`]) of a legal move, with the same [`Resolved`] (leniencies of the resolution
/// included) that [`read_move`] gives. `None` for anything else (castling, promotions, null moves, lenient
/// syntax, illegal moves), which [`read_move`] then reads in full: an illegal strict token is read twice, a
/// cost paid only on the error path. Merged with the general path into one `Result`, the move went through
/// the stack, written field by field and read back as whole words, and the CPU stalled on every move waiting
/// for those stores (what that cost: docs/performance.md, "Tuning constants").
#[inline(always)]
fn read_strict_move(token: &[u8], pos: &Position, lang: Language) -> Option<Resolved> {
    SanPlus::parse_strict(token, lang)?.resolve(pos).ok()
}

/// Whether a variation starts right after the move token at `index` (comments and annotations aside).
/// Asked for every main-line move: usually answered by the next token.
#[inline(always)]
fn variation_follows(game: &Game<'_>, index: usize) -> bool {
    if !game.has_variations {
        return false;
    }
    for token in &game.tokens[index + 1..] {
        match token.kind {
            TokenKind::VariationStart => return true,
            TokenKind::Comment
            | TokenKind::LineComment
            | TokenKind::Nag(_)
            | TokenKind::Escape
            | TokenKind::DrawOffer => {}
            _ => return false,
        }
    }
    false
}

/// Prepares a game ([`prepare`]) and walks it ([`walk`]) with the default options: the usual way to replay
/// a game when its language is to be detected (`lang: None`) or is known.
pub fn replay<V: Visitor>(
    game: &Game<'_>,
    lang: Option<Language>,
    visitor: &mut V,
) -> Result<V::Output, SetupError> {
    let prepared = prepare(game, lang)?;
    Ok(walk(game, &prepared, WalkOptions::default(), visitor))
}

/// Replays the game: the main line with [`GameState`] (claim tracking if asked), variations each from the
/// position before the move they replace. After a failure in the main line nothing more is played: later
/// moves would stand on a position that never existed. Variations nested deeper than
/// [`MAX_VARIATION_DEPTH`] are skipped without a callback (the reader reports the first `(` beyond it as
/// [`DiagnosticKind::VariationTooDeep`]).
pub fn walk<V: Visitor>(
    game: &Game<'_>,
    prepared: &Prepared,
    options: WalkOptions,
    visitor: &mut V,
) -> V::Output {
    match walk_tokens(game, prepared, options, visitor) {
        ControlFlow::Continue(walk) => visitor.end_game(walk),
        ControlFlow::Break(output) => output,
    }
}

fn walk_tokens<V: Visitor>(
    game: &Game<'_>,
    prepared: &Prepared,
    options: WalkOptions,
    visitor: &mut V,
) -> ControlFlow<V::Output, Walk> {
    let lang = prepared.lang.lang;
    let mut state = GameState::new(prepared.start);
    if !options.track_claims {
        state = state.without_claim_tracking();
    }
    if options.moves_only {
        state = state.moves_only();
    }
    let mut main_before: Option<Position> = None;
    let mut main_stopped = false;
    let mut unchecked = 0u32;
    let mut variation_moves = 0u32;
    let mut lines: Vec<Line> = Vec::new();
    // Variations skipped whole (opened after the main line stopped, or skipped by the visitor), counting
    // the nested ones.
    let mut skipped_depth = 0u32;

    for (index, token) in game.tokens.iter().enumerate() {
        match &token.kind {
            TokenKind::VariationStart => {
                if skipped_depth > 0 || main_stopped {
                    skipped_depth += 1;
                    continue;
                }
                // Deeper than the reader reads ([`DiagnosticKind::VariationTooDeep`]): skipped whole, so
                // that the open lines held here stay few whatever the input.
                if lines.len() >= MAX_VARIATION_DEPTH {
                    skipped_depth += 1;
                    continue;
                }
                let depth = lines.len() as u32 + 1;
                if visitor.begin_variation(VariationAt { index, depth })?.0 {
                    skipped_depth += 1;
                    continue;
                }
                let (branch, dead) = match lines.last() {
                    Some(parent) => (parent.before, parent.dead),
                    None => (main_before, false),
                };
                lines.push(Line {
                    pos: branch.unwrap_or(*state.position()),
                    before: None,
                    ply: 0,
                    // Without a move to branch from, the reader has already reported the variation.
                    dead: dead || branch.is_none(),
                });
            }
            TokenKind::VariationEnd => {
                if skipped_depth > 0 {
                    skipped_depth -= 1;
                } else if lines.pop().is_some() {
                    visitor.end_variation()?;
                }
            }
            TokenKind::Move(_) | TokenKind::Unknown => {
                if skipped_depth > 0 {
                    continue;
                }
                let bytes = match &token.kind {
                    TokenKind::Move(mt) => Some(game.san(mt)),
                    _ => None,
                };
                let depth = lines.len() as u32;
                if let Some(line) = lines.last_mut() {
                    variation_moves +=
                        variation_move(index, token, bytes, depth, line, lang, visitor)?;
                    continue;
                }
                let at = MoveAt {
                    index,
                    token,
                    depth: 0,
                    ply: state.ply() + 1,
                    canonical: false,
                    leniencies: Leniencies::NONE,
                };
                if main_stopped {
                    unchecked += 1;
                    visitor.unchecked(at)?;
                    continue;
                }
                if let Some(r) = bytes.and_then(|b| read_strict_move(b, state.position(), lang)) {
                    play_main(game, index, at, r, &mut state, &mut main_before, visitor)?;
                    continue;
                }
                let read = bytes.map_or(Err(MoveFailure::Unknown), |b| {
                    read_move(b, state.position(), lang)
                });
                match read {
                    Ok(Some(r)) => {
                        play_main(game, index, at, r, &mut state, &mut main_before, visitor)?;
                    }
                    Ok(None) => {
                        let before = main_before.insert(*state.position());
                        state.play_null();
                        visitor.null_move(at, before)?;
                    }
                    Err(failure) => {
                        main_stopped = true;
                        visitor.failure(at, state.position(), failure)?;
                    }
                }
            }
            _ => {}
        }
    }
    ControlFlow::Continue(Walk {
        state,
        main_stopped,
        unchecked,
        variation_moves,
    })
}

/// Reads and plays one move token of a variation on its line (nothing once the line is dead); returns how
/// many moves were played (0 or 1). Out of line, so that the walk's loop stays small enough for the instruction
/// cache: most games have no variation.
#[inline(never)]
fn variation_move<V: Visitor>(
    index: usize,
    token: &Token,
    bytes: Option<&[u8]>,
    depth: u32,
    line: &mut Line,
    lang: Language,
    visitor: &mut V,
) -> ControlFlow<V::Output, u32> {
    if line.dead {
        return ControlFlow::Continue(0);
    }
    let before = line.pos;
    line.ply += 1;
    let mut at = MoveAt {
        index,
        token,
        depth,
        ply: line.ply,
        canonical: false,
        leniencies: Leniencies::NONE,
    };
    match bytes.map_or(Err(MoveFailure::Unknown), |b| read_move(b, &before, lang)) {
        Ok(Some(r)) => {
            let m = r.mv;
            at.canonical = r.canonical;
            at.leniencies = r.leniencies;
            line.before = Some(before);
            visitor.before_move(at, &before, &m)?;
            line.pos.play_unchecked(m);
            visitor.after_move(at, &m, &line.pos)?;
            ControlFlow::Continue(1)
        }
        Ok(None) => {
            line.before = Some(before);
            line.pos.play_null();
            visitor.null_move(at, &before)?;
            ControlFlow::Continue(0)
        }
        Err(failure) => {
            line.dead = true;
            visitor.failure(at, &before, failure)?;
            ControlFlow::Continue(0)
        }
    }
}

/// Plays a legal main-line move between the visitor's two calls, keeping the position before it only when a
/// variation branches there.
#[inline(always)]
fn play_main<V: Visitor>(
    game: &Game<'_>,
    index: usize,
    mut at: MoveAt<'_>,
    r: Resolved,
    state: &mut GameState,
    main_before: &mut Option<Position>,
    visitor: &mut V,
) -> ControlFlow<V::Output> {
    let m = r.mv;
    at.canonical = r.canonical;
    at.leniencies = r.leniencies;
    if variation_follows(game, index) {
        *main_before = Some(*state.position());
    } else {
        *main_before = None;
    }
    visitor.before_move(at, state.position(), &m)?;
    state.play_unchecked(m);
    visitor.after_move(at, &m, state.position())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::parse_all;

    #[test]
    fn variant_spellings() {
        for s in [
            "Chess960",
            "chess 960",
            "Fischerandom",
            "fischer random",
            "960",
        ] {
            assert_eq!(variant_of(Some(s)), Ok(Variant::Chess960), "{s}");
        }
        for s in ["Standard", "From Position", "chess"] {
            assert_eq!(variant_of(Some(s)), Ok(Variant::Standard), "{s}");
        }
        assert_eq!(variant_of(Some("Crazyhouse")), Err("Crazyhouse".into()));
        assert!(variant_of(Some("Atomic")).is_err());
    }

    #[test]
    fn letters_gathered_by_the_reader_equal_a_full_scan() {
        let full_scan = |game: &Game<'_>| {
            let mut letters = LetterSet::EMPTY;
            for token in &game.tokens {
                if let TokenKind::Move(m) = &token.kind {
                    letters = letters.union(san_letters(game.san(m)));
                }
            }
            letters
        };
        let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 *\n\n\
                    1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. O-O Cf6 5. Rh1 0-0 6. -- Z0 *\n\n\
                    1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6 5. Nf3 Bf5 6. Nd2 Nbd7+ 7. R1e2# *\n\n\
                    1. e8=D f1Q 2. g8N h1=♘ 3. ♘f3 ♞c6 4. N@f3 Pe4 5. Sxf3 Txe8 6. O-O-O+ *\n\n\
                    1. d4 *\n\n\
                    1. e2-e4 e7e5 2. Ng1-f3 Nb8c6 3. d4 exd4 4. e:d5 ed5 5. Qh5++ Sf6 *\n\n\
                    1. e4 d5 2. exd5 Dxd5 3. Cc3 Da5 *";
        let games = parse_all(text.as_bytes());
        assert_eq!(games.len(), 7);
        for game in &games {
            assert_eq!(
                letters_used(game),
                full_scan(game),
                "game {}",
                game.index + 1
            );
        }
        assert!(!games[0].move_letters.irregular);
        assert!(!games[1].move_letters.irregular);
        assert!(games[3].move_letters.irregular);
        assert!(letters_used(&games[4]).is_empty());
        assert!(games[5].move_letters.irregular);
        assert!(!games[6].move_letters.irregular);
    }

    #[derive(Default)]
    struct Trace(Vec<(u32, u32, String)>);

    impl Visitor for Trace {
        type Output = Walk;
        fn before_move(
            &mut self,
            at: MoveAt<'_>,
            before: &Position,
            m: &Move,
        ) -> ControlFlow<Walk> {
            self.0
                .push((at.depth, at.ply, crate::notation::uci::to_uci(before, m)));
            ControlFlow::Continue(())
        }
        fn failure(&mut self, at: MoveAt<'_>, _: &Position, _: MoveFailure) -> ControlFlow<Walk> {
            self.0.push((at.depth, at.ply, "FAIL".into()));
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, walk: Walk) -> Walk {
            walk
        }
    }

    #[test]
    fn variations_branch_from_the_position_before_the_move_they_replace() {
        let games = parse_all(b"1. e4 (1. d4 d5 (1... Nf6 2. c4)) e5 (1... c5 2. Nf3) 2. Nf3 *");
        let game = &games[0];
        let prepared = prepare(game, None).unwrap();
        let mut trace = Trace::default();
        let walk = walk(
            game,
            &prepared,
            WalkOptions {
                track_claims: true,
                ..WalkOptions::default()
            },
            &mut trace,
        );
        let got: Vec<String> = trace
            .0
            .iter()
            .map(|(d, p, u)| format!("{d}:{p}:{u}"))
            .collect();
        assert_eq!(
            got,
            vec![
                "0:1:e2e4", "1:1:d2d4", "1:2:d7d5", "2:1:g8f6", "2:2:c2c4", "0:2:e7e5", "1:1:c7c5",
                "1:2:g1f3", "0:3:g1f3"
            ]
        );
        assert_eq!(walk.state.ply(), 3);
        assert_eq!(walk.variation_moves, 6);
    }

    #[test]
    fn french_letters_are_detected_and_the_main_line_stops_at_an_illegal_move() {
        let games = parse_all(b"1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Dxf7 Cf6 5. Fc4 *");
        let game = &games[0];
        let prepared = prepare(game, None).unwrap();
        assert_eq!(prepared.lang.lang, Language::Fr);
        let mut trace = Trace::default();
        let walk = walk(game, &prepared, WalkOptions::default(), &mut trace);
        assert!(walk.main_stopped);
        assert_eq!(walk.state.ply(), 6);
        assert_eq!(walk.unchecked, 2);
        assert_eq!(trace.0.last().unwrap().2, "FAIL");
    }

    #[test]
    fn unsupported_variants_and_bad_fens_are_setup_errors() {
        let games = parse_all(b"[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *");
        assert!(matches!(
            prepare(&games[0], None),
            Err(SetupError::UnsupportedVariant { .. })
        ));
        assert!(matches!(
            prepare(&games[1], None),
            Err(SetupError::InvalidFen { .. })
        ));
    }

    #[test]
    fn the_setup_tags_are_found_in_any_order_among_others() {
        // Chess960 rights from the FEN only when the Variant tag says so, before or after it.
        let fen = "[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]";
        for (tags, chess960) in [
            (
                format!("[Event \"e\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n{fen}"),
                true,
            ),
            (format!("{fen}\n[Site \"s\"]\n[Variant \"chess960\"]"), true),
            (format!("[Event \"e\"]\n{fen}\n[White \"w\"]"), false),
        ] {
            let text = format!("{tags}\n\n9. g3 *\n");
            let games = parse_all(text.as_bytes());
            let prepared = prepare(&games[0], None).unwrap();
            let wanted =
                fen::parse_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                    .unwrap();
            let wanted = if chess960 {
                wanted.into_chess960()
            } else {
                wanted
            };
            assert_eq!(prepared.start, wanted, "{tags}");
            let variant = if chess960 {
                Variant::Chess960
            } else {
                Variant::Standard
            };
            assert_eq!(prepared.variant, variant, "{tags}");
        }
    }

    #[test]
    fn variations_deeper_than_the_limit_are_skipped_and_the_rest_is_replayed() {
        // Black's first move replaced by itself at every level, then a sibling variation and the main line
        // go on: only the levels beyond the limit are skipped.
        for depth in [MAX_VARIATION_DEPTH, MAX_VARIATION_DEPTH + 1, 5_000] {
            let text = format!(
                "1. e4 e5 {}{} (1... c5) 2. Nf3 *",
                "(1... e6 ".repeat(depth),
                ")".repeat(depth)
            );
            let games = parse_all(text.as_bytes());
            let game = &games[0];
            let prepared = prepare(game, None).unwrap();
            let mut trace = Trace::default();
            let walk = walk(game, &prepared, WalkOptions::default(), &mut trace);
            let replayed = depth.min(MAX_VARIATION_DEPTH);
            let deepest = trace.0.iter().map(|(d, _, _)| *d).max();
            assert_eq!(deepest, Some(replayed as u32), "{depth}");
            assert_eq!(walk.variation_moves, replayed as u32 + 1, "{depth}");
            assert_eq!(walk.state.ply(), 3, "{depth}");
            let after_nest: Vec<String> = trace.0[trace.0.len() - 2..]
                .iter()
                .map(|(d, p, u)| format!("{d}:{p}:{u}"))
                .collect();
            assert_eq!(after_nest, ["1:1:c7c5", "0:3:g1f3"], "{depth}");
        }
    }
}
