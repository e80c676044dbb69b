//! Validating one game: replay (shared with convert and stats, see [`pgnkit::walk`]), then every
//! problem located and explained, the result checked against the board, the tags checked. A pure function of
//! the game's bytes, so games can be validated on any thread.

use std::borrow::Cow;
use std::sync::Arc;

use super::report::{
    Finding, GameReport, NotedSpelling, Problem, ProblemKind, Severity, Suggestion, TagText,
};
use super::tags::{TagProblem, check_ply_count, check_tags, is_checked_tag};
use super::tournament::player_problems;
use crate::messages::Locale;
use crate::options::{AllocatedBye, UnplayedRules};
use crate::repair::found::GameRepair;
use crate::safe_text::push_safe_keeping_tabs;
use crate::tournament::unplayed::{GameFacts, Reading, says_double_forfeit};
use crate::tournament::{fide_id_of, is_unknown, year_of};
use pgnkit::core::fen;
use pgnkit::core::{Color, GameState, Move, Position, Termination};
use pgnkit::notation::{
    CheckMark, Language, Leniencies, Leniency, SanError, SanPlus, Slip, suggest,
};
use pgnkit::pgn::{
    DiagnosticKind, Encoding, Game, GameResult, Locator, MoveToken, Span, TokenKind, roster_index,
};
use pgnkit::repair::RepairOptions;
use pgnkit::walk::{
    self, Confidence, MoveAt, MoveFailure, Prepared, SetupError, Visitor, Walk, WalkOptions,
};
use std::ops::ControlFlow;

/// What the user asked of validate.
#[derive(Debug, Clone, Default)]
pub struct ValidateOptions {
    /// Piece letters to read moves with; `None` detects them per game.
    pub lang: Option<Language>,
    /// The file is said to be finished: `*` results are worth a warning.
    pub finished: bool,
    /// Check the Seven Tag Roster and the form of Date/Round/Result.
    pub tag_checks: bool,
    /// Find the first ply at which a draw could be claimed (costs a little per move).
    pub track_claims: bool,
    /// Fill `final_fen` (costs a string per game; the human report does not show it).
    pub final_fen: bool,
    /// Non-standard spellings are errors, not notes.
    pub strict: bool,
    /// Fill the report's players, event, site and round, and the fingerprint of the game for duplicate
    /// detection (a job with its own reading of the tags, as stats, needs only the verdict).
    pub report_tags: bool,
    /// The language the caller writes the messages in (problems carry no words: they are worded when written,
    /// [`GameReport::record`], [`Problem::message`]).
    pub messages: Locale,
    /// How the games that are not played games (forfeits, byes) are read, for their notes.
    pub unplayed: UnplayedRules,
}

/// Where problems are turned into located records.
struct Reporter<'g, 'a> {
    game: &'g Game<'a>,
    problems: Vec<Problem>,
    /// One record per kind of note, with its count (see [`Severity::Note`]).
    notes: Vec<Problem>,
    locator: Locator<'a>,
    /// Notes become errors (`--strict`).
    strict: bool,
}

impl<'g, 'a> Reporter<'g, 'a> {
    fn new(game: &'g Game<'a>, strict: bool) -> Self {
        Reporter {
            game,
            problems: Vec::new(),
            notes: Vec::new(),
            locator: game.locator(),
            strict,
        }
    }

    /// A located problem. The one pushed before it is complete by now: kept once with a count when it says
    /// the same as the one before it, so a flood of identical problems (a line of 100,000 `(`) costs one
    /// record.
    fn push(&mut self, finding: Finding, span: Span) -> &mut Problem {
        self.collapse_last();
        let problem = self.locate(finding, span);
        self.problems.push(problem);
        self.problems.last_mut().expect("just pushed")
    }

    /// A problem that nothing is added to after it is pushed (what the reader found): when it says the same
    /// as the one before it, only that one's count goes up, and it is not located at all. A line of a
    /// million `)` costs a count, not a million located records each dropped at the next push.
    fn push_repeatable(&mut self, finding: Finding, span: Span) {
        self.collapse_last();
        // Compared before it is located: a record without a move or a suggestion, as `locate` makes it.
        let unlocated = Problem::new(finding, 0, 0, 0);
        if let Some(last) = self.problems.last_mut()
            && last.same_as(&unlocated)
        {
            last.count = Some(u32::try_from(last.times() + 1).unwrap_or(u32::MAX));
            return;
        }
        let problem = self.locate(unlocated.finding, span);
        self.problems.push(problem);
    }

    fn locate(&mut self, finding: Finding, span: Span) -> Problem {
        located(self.game, &mut self.locator, finding, span)
    }

    fn collapse_last(&mut self) {
        let n = self.problems.len();
        if n >= 2 && self.problems[n - 2].same_as(&self.problems[n - 1]) {
            let last = self.problems.pop().expect("two problems");
            let kept = &mut self.problems[n - 2];
            let total = kept.times() + last.times();
            kept.count = Some(u32::try_from(total).unwrap_or(u32::MAX));
        }
    }

    /// A use of a non-standard spelling (of `kind`): the first of its kind in the game is located and kept as
    /// `finding` makes it, later ones only counted.
    fn note(&mut self, kind: ProblemKind, span: Span, finding: impl FnOnce() -> Finding) {
        if let Some(note) = self.notes.iter_mut().find(|n| n.kind() == kind) {
            note.count = Some(note.count.unwrap_or(1).saturating_add(1));
            return;
        }
        // Notes are located out of order with the other problems: a locator of their own would do, but
        // they are few (one per kind), so a scan from the game's start is cheap enough.
        let finding = finding();
        debug_assert_eq!(finding.kind(), kind);
        let mut note = located(self.game, &mut self.game.locator(), finding, span);
        // With --strict a spelling is an error; Windows-1252 text stays a note (the PGN standard's own
        // character set is Latin-1).
        if self.strict && kind.is_spelling() {
            note.severity = Severity::Error;
        }
        note.count = Some(1);
        self.notes.push(note);
    }

    /// Every problem, notes included, in file order.
    fn into_problems(mut self) -> Vec<Problem> {
        self.collapse_last();
        let mut problems = self.problems;
        problems.append(&mut self.notes);
        // In file order; problems about the whole game keep their place first.
        problems.sort_by_key(|p| p.offset);
        problems
    }
}

/// A problem at `span`, located by `locator`, with its kind's severity.
fn located(game: &Game<'_>, locator: &mut Locator<'_>, finding: Finding, span: Span) -> Problem {
    let loc = locator.locate(span.start as usize);
    let offset = game.offset + u64::from(span.start);
    let mut problem = Problem::new(finding, loc.line, u64::from(loc.column), offset);
    (problem.source_line, problem.source_caret) =
        source_window(game, locator.line_start(), span.start as usize);
    problem
}

/// A problem at `span` of `game`, located and shown as validate shows its own (other jobs report their
/// findings through this, so every message of pgnkit has validate's precision).
pub(crate) fn problem_at(game: &Game<'_>, finding: Finding, span: Span) -> Problem {
    Reporter::new(game, false).locate(finding, span)
}

/// Most characters of a source line shown on each side of a problem.
const WINDOW: usize = 48;

/// The line holding `offset` (which starts at `line_start` in the game's source) as shown under a problem,
/// and the characters before the problem in it: the whole line when it is short, else [`WINDOW`] characters
/// on each side with `…` where it is cut. Only the bytes shown are decoded, so a line of megabytes costs no
/// more than a short one. Control characters are escaped (`\u{1b}`): they must not reach a terminal.
fn source_window(game: &Game<'_>, line_start: usize, offset: usize) -> (String, u32) {
    let src = game.source;
    let offset = offset.min(src.len());
    // The line's end is looked for only as far as what is shown can reach: past it, any end gives the same
    // window. Searching the whole rest of the line read a long line once per problem on it (quadratic on a
    // line of thousands of broken tags).
    let reach = src.len().min(offset + WINDOW_REACH);
    let line_end = memchr::memchr2(b'\n', b'\r', &src[offset..reach]).map_or(reach, |i| offset + i);
    window_in_line(game, line_start, offset, line_end)
}

/// Up to this many bytes, a line may have few enough characters to be shown whole.
const SHORT: usize = 4 * (2 * WINDOW + 4);

/// Bytes after a problem within which the end of its line changes what [`source_window`] shows.
const WINDOW_REACH: usize = if SHORT > 4 * WINDOW + 4 {
    SHORT
} else {
    4 * WINDOW + 4
} + 1;

/// [`source_window`] once the end of the line (or a point past [`WINDOW_REACH`]) is known.
fn window_in_line(
    game: &Game<'_>,
    line_start: usize,
    offset: usize,
    line_end: usize,
) -> (String, u32) {
    let src = game.source;
    let encoding = game.encoding;
    let decode = |bytes| pgnkit::pgn::decode(bytes, encoding);
    let (before, after, cut_before, cut_after) = if line_end - line_start <= SHORT {
        let before: Vec<char> = decode(&src[line_start..offset]).chars().collect();
        let after: Vec<char> = decode(&src[offset..line_end]).chars().collect();
        if before.len() + after.len() <= 2 * WINDOW + 4 {
            (before, after, false, false)
        } else {
            let cut_before = before.len() > WINDOW;
            let cut_after = after.len() > WINDOW;
            let before = before[before.len().saturating_sub(WINDOW)..].to_vec();
            let after = after[..after.len().min(WINDOW)].to_vec();
            (before, after, cut_before, cut_after)
        }
    } else {
        // Enough bytes for WINDOW characters of up to four bytes each, and one more to tell whether the line
        // goes on; cut at character boundaries (a game that is not UTF-8 has one character per byte).
        let utf8 = game.encoding == pgnkit::pgn::Encoding::Utf8;
        let boundary = |mut i: usize| {
            while utf8 && i < src.len() && (src[i] & 0xC0) == 0x80 {
                i += 1;
            }
            i
        };
        let from = boundary(offset.saturating_sub(4 * WINDOW + 4).max(line_start));
        let to = boundary((offset + 4 * WINDOW + 4).min(line_end));
        let before: Vec<char> = decode(&src[from..offset]).chars().collect();
        let after: Vec<char> = decode(&src[offset..to]).chars().collect();
        let cut_before = from > line_start || before.len() > WINDOW;
        let cut_after = to < line_end || after.len() > WINDOW;
        let before = before[before.len().saturating_sub(WINDOW)..].to_vec();
        let after = after[..after.len().min(WINDOW)].to_vec();
        (before, after, cut_before, cut_after)
    };
    let mut shown = String::new();
    if cut_before {
        shown.push('…');
    }
    push_safe_keeping_tabs(&mut shown, before.iter().copied());
    let caret = shown.chars().count() as u32;
    push_safe_keeping_tabs(&mut shown, after.iter().copied());
    if cut_after {
        shown.push('…');
    }
    (shown, caret)
}

/// Most characters of a token quoted in a message.
const TOKEN_SHOWN: usize = 40;

/// A token as messages quote it: decoded, and cut to [`TOKEN_SHOWN`] characters with `…` (unreadable text can
/// run for megabytes: 20 MB of NUL bytes are one token).
fn shown_token(token: &[u8]) -> String {
    let head = &token[..token.len().min(4 * TOKEN_SHOWN + 4)];
    let text = String::from_utf8_lossy(head);
    let mut chars = text.chars();
    let mut shown: String = chars.by_ref().take(TOKEN_SHOWN).collect();
    if chars.next().is_some() || head.len() < token.len() {
        shown.push('…');
    }
    shown
}

fn move_number(pos: &Position) -> String {
    match pos.turn() {
        Color::White => format!("{}.", pos.fullmoves()),
        Color::Black => format!("{}...", pos.fullmoves()),
    }
}

/// Turns what the walk finds into problems, and fingerprints the main line for duplicate detection.
struct Checker<'r, 'g, 'a, C> {
    rep: &'r mut Reporter<'g, 'a>,
    lang: Language,
    /// Kept when the report names the players (duplicate detection needs both).
    fingerprint: Option<Fingerprint>,
    /// Sees every event of the walk too (stats' counters), so that a job needing validate's verdict and
    /// facts of its own replays each game once.
    companion: &'r mut C,
    /// The latest main-line move marked `+` that checks, as (ply, token index): a mate if the main line ends
    /// there in checkmate.
    plus_check: Option<(u32, usize)>,
    /// The game's bytes, where the check mark of each move is read (held here, not looked up through the
    /// report for every move).
    source: &'a [u8],
}

/// A companion that sees nothing: plain validate.
struct Alone;

impl Visitor for Alone {
    type Output = ();
    fn end_game(&mut self, _: Walk) {}
}

/// The text of the token a move callback is about: a move's SAN as written, else the token's bytes.
fn token_text<'g>(game: &'g Game<'_>, at: MoveAt<'_>) -> &'g [u8] {
    match &at.token.kind {
        TokenKind::Move(mt) => game.san(mt),
        _ => game.bytes(at.token.span),
    }
}

/// A game's fingerprint as validate computes it for `duplicate_game` (see `Fingerprint`), replaying only
/// its main line: equal for two games exactly when validate calls the later one a duplicate of the earlier;
/// 0 for a game without moves (never a duplicate).
pub(crate) fn game_fingerprint(game: &Game<'_>) -> u64 {
    let white = game.tag("White").unwrap_or_default();
    let black = game.tag("Black").unwrap_or_default();
    let Ok(prepared) = walk::prepare(game, None) else {
        return 0;
    };
    let mut main_line = MainLine {
        game,
        fingerprint: Fingerprint::of_players(&white, &black),
    };
    walk::walk(game, &prepared, WalkOptions::default(), &mut main_line);
    main_line.fingerprint.value()
}

/// What validate found of a game that could be replayed, besides its report.
pub(crate) struct Replay {
    /// The language and variant the game was replayed with, and how its start was read.
    pub(crate) prepared: Prepared,
    /// The main line as far as it was replayed.
    pub(crate) state: GameState,
    /// Legal moves played in variations.
    pub(crate) variation_moves: u32,
}

/// What "the same game" means, for validate's `duplicate_game` and for every command that counts a game once
/// (standings, TRF, report): the same White and Black tags and the same main line, move for move (a token that
/// could not be played counts as its text). A running hash of them (multiply-xor): duplicate detection needs
/// speed per move, not resistance to crafted collisions.
///
/// A game without a move in its main line is the same as no other: two records of one pair with a result and no
/// moves are the two games of a double round robin as often as one game written twice, and nothing tells them
/// apart.
#[derive(Clone, Copy)]
struct Fingerprint {
    hash: u64,
    moves: bool,
}

impl Fingerprint {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    fn of_players(white: &str, black: &str) -> Fingerprint {
        let mut fingerprint = Fingerprint {
            hash: 0,
            moves: false,
        };
        fingerprint.add_bytes(white.as_bytes());
        fingerprint.add_bytes(black.as_bytes());
        fingerprint
    }

    #[inline]
    fn add(&mut self, x: u64) {
        self.hash = (self.hash.rotate_left(5) ^ x).wrapping_mul(Self::K);
    }

    fn add_bytes(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        self.add(bytes.len() as u64);
    }

    /// A legal move of the main line.
    #[inline]
    fn played(&mut self, m: &Move) {
        self.moves = true;
        self.add(
            (m.from.index() as u64)
                | (m.to.index() as u64) << 6
                | (m.promotion.map_or(7, |r| r.index() as u64)) << 12,
        );
    }

    /// A null move of the main line.
    fn passed(&mut self) {
        self.moves = true;
        self.add(1 << 20);
    }

    /// A main-line token that gave no move (the main line stops there).
    fn unplayable(&mut self, token: &[u8]) {
        self.moves = true;
        self.add_bytes(token);
    }

    /// The value compared: 0 for a game without moves, which is never a duplicate.
    fn value(self) -> u64 {
        if self.moves { self.hash.max(1) } else { 0 }
    }
}

/// Fingerprints the main line alone, skipping variations: what [`game_fingerprint`] walks with.
struct MainLine<'g, 'a> {
    game: &'g Game<'a>,
    fingerprint: Fingerprint,
}

impl Visitor for MainLine<'_, '_> {
    type Output = ();

    fn begin_variation(&mut self, _: walk::VariationAt) -> ControlFlow<(), walk::Skip> {
        ControlFlow::Continue(walk::Skip(true))
    }

    #[inline]
    fn after_move(&mut self, at: MoveAt<'_>, m: &Move, _: &Position) -> ControlFlow<()> {
        if at.depth == 0 {
            self.fingerprint.played(m);
        }
        ControlFlow::Continue(())
    }

    fn null_move(&mut self, at: MoveAt<'_>, _: &Position) -> ControlFlow<()> {
        if at.depth == 0 {
            self.fingerprint.passed();
        }
        ControlFlow::Continue(())
    }

    fn failure(&mut self, at: MoveAt<'_>, _: &Position, _: MoveFailure) -> ControlFlow<()> {
        if at.depth == 0 {
            self.fingerprint.unplayable(token_text(self.game, at));
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Walk) {}
}

impl<C: Visitor> Checker<'_, '_, '_, C> {
    fn locate_move(&mut self, at: MoveAt<'_>, finding: Finding, before: &Position) -> &mut Problem {
        let text = shown_token(token_text(self.rep.game, at));
        let p = self.rep.push(finding, at.token.span);
        p.ply = Some(at.ply);
        p.move_number = Some(move_number(before));
        p.move_text = Some(text);
        p.in_variation = at.depth > 0;
        p
    }
}

/// The move spellings that are noted (see [`Severity::Note`]): each is outside the PGN standard but means one
/// move plainly, or marks a capture that the move does not make. Check and mate marks are judged after the
/// move ([`Checker::judge_check_mark`]). The other leniencies (`0-0`, a missing check mark...) are the import
/// format's own tolerance: an omission or another spelling, where these say something false of the move.
const NOTED_SPELLINGS: [NotedSpelling; 4] = [
    NotedSpelling::LowercasePieceLetter,
    NotedSpelling::CoordinateMove,
    NotedSpelling::ParenthesizedPromotion,
    NotedSpelling::SpuriousCapture,
];

/// The leniencies of [`NOTED_SPELLINGS`], as a set.
const NOTED: Leniencies = Leniencies::NONE
    .with(Leniency::LowercasePieceLetter)
    .with(Leniency::CoordinateMove)
    .with(Leniency::ParenthesizedPromotion)
    .with(Leniency::SpuriousCapture);

/// The check-mark leniencies that are noted (a missing mark is an omission the import format allows; these
/// marks say something false).
const NOTED_MARKS: [NotedSpelling; 2] = [
    NotedSpelling::SpuriousCheckMark,
    NotedSpelling::WrongCheckMark,
];

impl<C: Visitor> Checker<'_, '_, '_, C> {
    /// Notes the spellings a legal move was read through (the test is inline: it runs on every move).
    #[inline(always)]
    fn note_spellings(&mut self, at: MoveAt<'_>, before: &Position, m: &Move) {
        if at.leniencies.intersects(NOTED) {
            self.note_spellings_of(at, before, m);
        }
    }

    #[cold]
    #[inline(never)]
    fn note_spellings_of(&mut self, at: MoveAt<'_>, before: &Position, m: &Move) {
        for spelling in NOTED_SPELLINGS {
            if at.leniencies.contains(spelling.leniency()) {
                let game = self.rep.game;
                let lang = self.lang;
                self.rep
                    .note(spelling.kind(), at.token.span, || Finding::Spelling {
                        spelling,
                        written: shown_token(token_text(game, at)),
                        read_as: SanPlus::from_move(before, m).display(lang).to_string(),
                    });
            }
        }
    }

    /// Notes a check or mate mark that the position after the move belies; a missing mark is not noted. The
    /// test is inline, since it runs on every move: one byte, the last of the move as the reader gives it
    /// (marks included); only a marked move is looked at further.
    #[inline(always)]
    fn judge_check_mark(&mut self, at: MoveAt<'_>, after: &Position) {
        if let TokenKind::Move(mt) = &at.token.kind
            && let Some(b'+' | b'#') = self.source.get((mt.san.end as usize).wrapping_sub(1))
        {
            self.judge_written_mark(at, mt, after);
        }
    }

    #[inline(never)]
    fn judge_written_mark(&mut self, at: MoveAt<'_>, mt: &MoveToken, after: &Position) {
        let written = match self.rep.game.san(mt) {
            [.., b'#'] | [.., b'+', b'+'] => CheckMark::Mate,
            _ => CheckMark::Check,
        };
        let deserved = match (written, after.is_check()) {
            (_, false) => None,
            // Most marks are a `+` on a check. Whether that check mates needs a search for a legal move,
            // but a mate ends the main line (a move after it fails): the main line's end tells
            // ([`Checker::judge_last_plus`]).
            (CheckMark::Check, true) if at.depth == 0 => {
                self.plus_check = Some((at.ply, at.index));
                return;
            }
            (_, true) => CheckMark::after(after),
        };
        self.note_mark(at.index, written, deserved);
    }

    /// Notes a `+` on the main line's last move when that move mates.
    fn judge_last_plus(&mut self, walk: &Walk) {
        if let Some((ply, index)) = self.plus_check.take()
            && ply == walk.state.ply()
            && walk.state.position().is_checkmate()
        {
            self.note_mark(index, CheckMark::Check, Some(CheckMark::Mate));
        }
    }

    /// Notes the mark `written` on the move token at `index` of the game, when it is not the one it deserves.
    fn note_mark(&mut self, index: usize, written: CheckMark, deserved: Option<CheckMark>) {
        let wrong = CheckMark::judge(Some(written), deserved);
        for spelling in NOTED_MARKS {
            if wrong.contains(spelling.leniency()) {
                let game = self.rep.game;
                let token = &game.tokens[index];
                let TokenKind::Move(mt) = &token.kind else {
                    return;
                };
                let text = game.san(mt);
                self.rep.note(spelling.kind(), token.span, || {
                    let unmarked = match text {
                        [rest @ .., b'+', b'+'] | [rest @ .., b'+' | b'#'] => rest,
                        _ => text,
                    };
                    let mut read_as = shown_token(unmarked);
                    read_as.push_str(deserved.map_or("", CheckMark::as_str));
                    Finding::Spelling {
                        spelling,
                        written: shown_token(text),
                        read_as,
                    }
                });
            }
        }
    }
}

// A companion's `Break` is ignored: validate's walk runs to the end.
impl<C: Visitor> Visitor for Checker<'_, '_, '_, C> {
    type Output = Walk;

    #[inline]
    fn before_move(&mut self, at: MoveAt<'_>, before: &Position, m: &Move) -> ControlFlow<Walk> {
        self.note_spellings(at, before, m);
        let _ = self.companion.before_move(at, before, m);
        ControlFlow::Continue(())
    }

    // Always inlined into the walk's loop, the companion's part with it (stats'): left to the compiler, the
    // one test of the check mark was enough to put it out of line, a call per move.
    #[inline(always)]
    fn after_move(&mut self, at: MoveAt<'_>, m: &Move, after: &Position) -> ControlFlow<Walk> {
        self.judge_check_mark(at, after);
        let _ = self.companion.after_move(at, m, after);
        if at.depth == 0
            && let Some(fingerprint) = &mut self.fingerprint
        {
            fingerprint.played(m);
        }
        ControlFlow::Continue(())
    }

    // Out of the walk's loop, like `failure`: rare, and inlined they change how the compiler lays out the
    // per-move path.
    #[inline(never)]
    fn null_move(&mut self, at: MoveAt<'_>, before: &Position) -> ControlFlow<Walk> {
        let _ = self.companion.null_move(at, before);
        if at.depth == 0 {
            if let Some(fingerprint) = &mut self.fingerprint {
                fingerprint.passed();
            }
            self.locate_move(at, Finding::NullMove, before);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, walk: Walk) -> Walk {
        self.judge_last_plus(&walk);
        walk
    }

    #[inline(never)]
    fn failure(
        &mut self,
        at: MoveAt<'_>,
        before: &Position,
        failure: MoveFailure,
    ) -> ControlFlow<Walk> {
        let _ = self.companion.failure(at, before, failure);
        let token = token_text(self.rep.game, at);
        if at.depth == 0
            && let Some(fingerprint) = &mut self.fingerprint
        {
            fingerprint.unplayable(token);
        }
        let suggestion = match failure {
            // Several pieces can go: any reading of the token is a guess between them.
            MoveFailure::GameOver { .. } | MoveFailure::San(SanError::Ambiguous { .. }) => None,
            MoveFailure::Unknown if token.len() > 8 => None,
            // A token the game's language reads fine is no slip into another language's letters.
            _ => suggest(before, token, self.lang)
                .filter(|s| {
                    !(matches!(s.slip, Slip::Language(_)) && matches!(failure, MoveFailure::San(_)))
                })
                .map(|s| Suggestion {
                    written: String::from_utf8_lossy(token).into_owned(),
                    meant: SanPlus::from_move(before, &s.mv)
                        .display(self.lang)
                        .to_string(),
                    slip: s.slip,
                    lang: self.lang,
                }),
        };
        let finding = Finding::Move {
            token: shown_token(token),
            failure,
            unchecked: 0,
        };
        let p = self.locate_move(at, finding, before);
        p.suggestion = suggestion;
        ControlFlow::Continue(())
    }
}

/// Puts what the repair search finds on the problem of the main line's first failing move.
#[inline(never)]
fn attach_repair(game: &Game<'_>, prepared: &Prepared, problems: &mut [Problem]) {
    // The comments' words do not matter here: the text is only checked for a variation that still fails.
    let Some((found, _)) = GameRepair::find(game, prepared, &RepairOptions::default(), Locale::En)
    else {
        return;
    };
    let (line, column) = (found.failed.line, found.failed.column);
    if let Some(p) = problems.iter_mut().find(|p| {
        p.line == line && p.column == column && !p.in_variation && p.severity == Severity::Error
    }) {
        p.repair = Some(Box::new(found));
    }
}

/// Validates one game. `file` names the input in the report.
pub(crate) fn validate_game(
    game: &Game<'_>,
    file: &Arc<str>,
    opts: &ValidateOptions,
) -> GameReport {
    validate_game_with(game, file, opts, &mut Alone).0
}

/// Validates one game with a companion visitor that sees every move of the same walk; with the report comes
/// what the replay found, when the game could be replayed.
pub(crate) fn validate_game_with<C: Visitor>(
    game: &Game<'_>,
    file: &Arc<str>,
    opts: &ValidateOptions,
    companion: &mut C,
) -> (GameReport, Option<Replay>) {
    // One pass over the tags: values decoded once, for the report and the tag checks.
    // Values are decoded only for the tags validate reads (the Seven Tag Roster and the tags the checks read);
    // the others only need their names.
    // Where the first tag of each name the report shows stands in `values`: the Seven Tag Roster in its
    // order, then EventDate (found while the values are gathered, not looked up by name afterwards).
    const RESULT: usize = 6;
    const EVENT_DATE: usize = 7;
    debug_assert_eq!(roster_index(b"Result"), Some(RESULT));
    let mut shown = [None::<usize>; 8];
    // Termination, WhiteFideId and BlackFideId, read for the checks of a tournament's games.
    let mut unplayed_tags: [Option<usize>; 3] = [None; 3];
    let values: Vec<(&[u8], Cow<'_, str>)> = if opts.report_tags || opts.tag_checks {
        let mut values = Vec::with_capacity(game.tags.len());
        for t in &game.tags {
            let name = game.bytes(t.name);
            let slot = roster_index(name).or_else(|| (name == b"EventDate").then_some(EVENT_DATE));
            let unplayed_slot = match name {
                b"Termination" => Some(0),
                b"WhiteFideId" => Some(1),
                b"BlackFideId" => Some(2),
                _ => None,
            };
            if let Some(u) = unplayed_slot {
                unplayed_tags[u].get_or_insert(values.len());
            }
            let value = if slot.is_some() || unplayed_slot.is_some() || is_checked_tag(name) {
                game.tag_value(t)
            } else {
                Cow::Borrowed("")
            };
            if let Some(slot) = slot {
                shown[slot].get_or_insert(values.len());
            }
            values.push((name, value));
        }
        values
    } else {
        // The verdict needs only the Result tag.
        let result = game
            .tags
            .iter()
            .find(|t| game.bytes(t.name) == b"Result")
            .map(|t| (&b"Result"[..], game.tag_value(t)));
        shown[RESULT] = result.as_ref().map(|_| 0);
        result.into_iter().collect()
    };
    let value_at = |slot: usize| shown[slot].map(|k| values[k].1.as_ref());
    let value = |name: &str| {
        let slot = roster_index(name.as_bytes()).unwrap_or(EVENT_DATE);
        debug_assert!(slot != EVENT_DATE || name == "EventDate");
        value_at(slot)
    };
    let tag = |name: &str| value(name).map_or_else(TagText::default, TagText::new);
    let unplayed_value = |u: usize| unplayed_tags[u].map(|k| values[k].1.as_ref());
    let fide_id = |u: usize| unplayed_value(u).and_then(fide_id_of);
    let mut report = GameReport {
        file: file.clone(),
        game: game.index + 1,
        record: game.record,
        white: tag("White"),
        black: tag("Black"),
        round: tag("Round"),
        event: tag("Event"),
        site: tag("Site"),
        year: if opts.report_tags {
            TagText::new(year_of(value("EventDate"), value("Date")))
        } else {
            TagText::default()
        },
        result: tag("Result"),
        marker: game.result,
        lang: Language::En,
        lang_confidence: Confidence::Irrelevant,
        lang_equivalents: Vec::new(),
        plies: 0,
        valid: true,
        termination: None,
        claimable: Vec::new(),
        ended_at_ply: None,
        claimable_from_ply: None,
        unchecked_moves: None,
        variant: None,
        final_fen: String::new(),
        problems: Vec::new(),
        variation_moves: 0,
        line: game.first_line(),
        fingerprint: 0,
        white_fide_id: if opts.report_tags { fide_id(1) } else { None },
        black_fide_id: if opts.report_tags { fide_id(2) } else { None },
    };
    let mut rep = Reporter::new(game, opts.strict);

    // What the reader found.
    for d in &game.diagnostics {
        if d.kind == DiagnosticKind::UnknownToken {
            // The replay reports unknown text where it stands in a line of play, with the move context.
            continue;
        }
        let finding = Finding::Reader(d.kind);
        let kind = finding.kind();
        if kind.severity() == Severity::Note {
            rep.note(kind, d.span, || match d.kind {
                DiagnosticKind::ResultSpelling => Finding::DrawMarkerSpelling {
                    written: shown_token(game.bytes(d.span)),
                },
                _ => finding,
            });
            continue;
        }
        rep.push_repeatable(finding, d.span);
    }

    if game.encoding == pgnkit::pgn::Encoding::Cp1252 {
        note_legacy_text(&mut rep);
    }

    if opts.tag_checks {
        let unplayed = unplayed_problems(game, &values, unplayed_value(0), opts.unplayed);
        // A bye game's empty side names a bye, not an unknown player.
        let bye = unplayed
            .iter()
            .any(|p| p.finding.kind() == ProblemKind::Bye);
        // The players last: a game of a tournament whose players are nobody.
        for p in check_tags(&values)
            .into_iter()
            .chain(
                player_problems(&values)
                    .into_iter()
                    .filter(|p| !(bye && p.finding.kind() == ProblemKind::UnknownPlayer)),
            )
            .chain(unplayed)
        {
            push_tag_problem(&mut rep, p);
        }
    }

    let prepared = match walk::prepare(game, opts.lang) {
        Ok(p) => p,
        Err(SetupError::UnsupportedVariant { name, span }) => {
            rep.push(Finding::UnsupportedVariant { name: name.clone() }, span);
            report.variant = Some(name);
            return (finish(report, rep, None, opts), None);
        }
        Err(SetupError::InvalidFen { problems, span }) => {
            rep.push(Finding::InvalidFen { problems }, span);
            return (finish(report, rep, None, opts), None);
        }
    };
    if let Some(repair) = prepared.repair {
        rep.note(ProblemKind::FenClockRepaired, tag_span(game, "FEN"), || {
            Finding::FenClockRepaired(repair)
        });
    }
    if prepared.variant == walk::Variant::Chess960 {
        report.variant = Some("chess960".into());
    }
    let choice = &prepared.lang;
    report.lang = choice.lang;
    report.lang_confidence = choice.confidence;
    report.lang_equivalents = choice.equivalents.iter().collect();
    if choice.guessed_among.len() > 1 {
        let first_move = game
            .main_line()
            .next()
            .map_or(Span::default(), |(t, _)| t.span);
        let finding = Finding::LanguageGuessed {
            among: choice.guessed_among.clone(),
            chosen: choice.lang,
        };
        rep.push(finding, first_move);
    }

    let fingerprint = opts
        .report_tags
        .then(|| Fingerprint::of_players(&report.white, &report.black));
    let mut checker = Checker {
        rep: &mut rep,
        lang: choice.lang,
        fingerprint,
        companion,
        plus_check: None,
        source: game.source,
    };
    let options = WalkOptions {
        track_claims: opts.track_claims,
        ..WalkOptions::default()
    };
    let walk = walk::walk(game, &prepared, options, &mut checker);
    report.fingerprint = checker.fingerprint.map_or(0, Fingerprint::value);
    // Unknown text the walk did not reach (after the main line stopped, or in a skipped variation) is still
    // an error of the file.
    for d in game
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::UnknownToken)
    {
        let offset = game.offset + u64::from(d.span.start);
        if !rep.problems.iter().any(|p| p.offset == offset) {
            let token = shown_token(game.bytes(d.span));
            rep.push(Finding::UnreadableText { token }, d.span);
        }
    }
    report.variation_moves = walk.variation_moves;
    // The main line stops: what `pgnkit repair` would do, on the record of the move where it stops (a game
    // the reader could not read whole is not searched, as repair does not search it).
    if walk.main_stopped && !game.has_errors() {
        attach_repair(game, &prepared, &mut rep.problems);
    }
    if walk.main_stopped && walk.unchecked > 0 {
        report.unchecked_moves = Some(walk.unchecked);
        if let Some(p) = rep
            .problems
            .iter_mut()
            .rev()
            .find(|p| p.severity == Severity::Error && !p.in_variation && p.ply.is_some())
            && let Finding::Move { unchecked, .. } = &mut p.finding
        {
            *unchecked = walk.unchecked;
        }
    }
    report.plies = walk.state.ply();
    // PlyCount counts the half-moves of the whole game: only a game replayed to its end can be compared.
    if opts.tag_checks
        && !walk.main_stopped
        && let Some(p) = check_ply_count(&values, report.plies)
    {
        push_tag_problem(&mut rep, p);
    }
    let report = finish(report, rep, Some(&walk.state), opts);
    let replay = Replay {
        prepared,
        state: walk.state,
        variation_moves: walk.variation_moves,
    };
    (report, Some(replay))
}

/// Turns a tag problem into a located one: at its tag, or at the game's first tag when it concerns the whole
/// tag section (a missing tag), or where it starts when it has no tags. Not at the game's first byte: the source of
/// a file's first game starts with the blank lines before it, and after a long blank run with the part of it
/// the reader kept, which depends on the number of threads.
/// The note about a game of a tournament that was not played over the board, as standings read it
/// ([`crate::tournament::unplayed`]): a forfeit, a game of less than one move, or a bye; located at the Result
/// tag (a bye at the side that names it).
fn unplayed_problems<V: AsRef<str>>(
    game: &Game<'_>,
    values: &[(&[u8], V)],
    termination: Option<&str>,
    rules: UnplayedRules,
) -> Vec<TagProblem> {
    let find = |name: &[u8]| values.iter().position(|(n, _)| *n == name);
    let value = |name: &[u8]| find(name).map(|i| values[i].1.as_ref());
    if value(b"Event").is_none_or(is_unknown) {
        return Vec::new();
    }
    let result_tag = value(b"Result");
    let result = result_tag
        .and_then(|r| GameResult::from_tag(r.trim()))
        .or(game.result);
    let white_half_points = match result {
        Some(GameResult::WhiteWins) => Some(2),
        Some(GameResult::Draw) => Some(1),
        Some(GameResult::BlackWins) => Some(0),
        _ => None,
    };
    let facts = GameFacts::of(
        value(b"White"),
        value(b"Black"),
        result_tag,
        termination,
        game.main_line().next().is_some(),
        white_half_points.is_some(),
    );
    let at_result = find(b"Result");
    let finding = match facts.reading(white_half_points, rules.moveless) {
        Reading::Played => return Vec::new(),
        Reading::DoubleForfeit => Finding::Forfeit {
            winner: None,
            said: facts.forfeit_said,
        },
        Reading::Forfeit => Finding::Forfeit {
            winner: Some(if white_half_points == Some(2) {
                Color::White
            } else {
                Color::Black
            }),
            said: facts.forfeit_said,
        },
        Reading::Unrated => match result {
            Some(result) => Finding::UnratedGame { result },
            None => return Vec::new(),
        },
        Reading::Bye { player } => {
            let (name, half_points) = match player {
                Color::White => (value(b"White"), white_half_points),
                Color::Black => (value(b"Black"), white_half_points.map(|hp| 2 - hp)),
            };
            let half_points = half_points.unwrap_or(0);
            let bye_side: &[u8] = if player == Color::White {
                b"Black"
            } else {
                b"White"
            };
            return vec![TagProblem {
                tag: find(bye_side).or(at_result),
                finding: Finding::Bye {
                    player: name.unwrap_or("").trim().to_owned(),
                    half_points,
                    allocated: half_points == 2 && rules.allocated_bye != AllocatedBye::None,
                },
            }];
        }
    };
    vec![TagProblem {
        tag: at_result,
        finding,
    }]
}

fn push_tag_problem(rep: &mut Reporter<'_, '_>, p: TagProblem) {
    let game = rep.game;
    let first = game.tags.first().map_or_else(
        || {
            let start = game.content().start as usize;
            Span::new(start, start)
        },
        |t| t.span,
    );
    let span = p.tag.map_or(first, |i| game.tags[i].span);
    let kind = p.finding.kind();
    if kind.severity() == Severity::Note {
        rep.note(kind, span, || p.finding);
    } else {
        let whole_game = p.tag.is_none();
        let pushed = rep.push(p.finding, span);
        if whole_game {
            // About the game, not a line of it: shown on one line.
            pushed.source_line.clear();
        }
    }
}

/// Notes the tag values and comments that are not UTF-8 (read as Windows-1252), naming the first.
fn note_legacy_text(rep: &mut Reporter<'_, '_>) {
    let game = rep.game;
    for tag in &game.tags {
        let raw = game.bytes(tag.value);
        if game.field_encoding(raw) == Encoding::Cp1252 {
            rep.note(ProblemKind::Windows1252Text, tag.span, || {
                Finding::NotUtf8Tag {
                    name: game.tag_name(tag).to_owned(),
                    value: game.tag_value(tag).into_owned(),
                }
            });
        }
    }
    for token in &game.tokens {
        if matches!(token.kind, TokenKind::Comment | TokenKind::LineComment)
            && game.field_encoding(game.comment_bytes(token.span)) == Encoding::Cp1252
        {
            rep.note(ProblemKind::Windows1252Text, token.span, || {
                Finding::NotUtf8Comment
            });
        }
    }
}

/// The span of the first tag named `name` (the game's start when there is none).
fn tag_span(game: &Game<'_>, name: &str) -> Span {
    game.tags
        .iter()
        .find(|t| game.bytes(t.name) == name.as_bytes())
        .map_or(Span::default(), |t| t.span)
}

/// Whether the Termination tag says the game was lost on time (`time forfeit` in the PGN standard and on
/// lichess, `won on time` on chess.com).
fn lost_on_time(game: &Game<'_>) -> bool {
    game.tag("Termination").is_some_and(|t| {
        let t = t.to_lowercase();
        t.contains("time forfeit") || t.contains("on time") || t.contains("timeout")
    })
}

/// The result checks and the fields that depend on the final position.
fn finish(
    mut report: GameReport,
    mut rep: Reporter<'_, '_>,
    state: Option<&GameState>,
    opts: &ValidateOptions,
) -> GameReport {
    let game = rep.game;
    let marker_span = game
        .tokens
        .iter()
        .rev()
        .find(|t| matches!(t.kind, TokenKind::Result(_)))
        .map(|t| t.span);
    let result_tag_span = game
        .tags
        .iter()
        .find(|t| game.bytes(t.name) == b"Result")
        .map(|t| t.span);
    let at_end = marker_span
        .or(result_tag_span)
        .unwrap_or(Span::new(game.source.len(), game.source.len()));

    // `1/2` and `½-½` in the tag are the draw they spell (noted with the tags).
    let tag_text = report.result.as_str();
    let tag_result = GameResult::from_tag(tag_text);
    // A double forfeit written `0-0` in the tag has no marker of its own: `*` (no result) is its movetext.
    let double_forfeit = says_double_forfeit(tag_text);
    if let (Some(marker), Some(span)) = (game.result, marker_span)
        && !tag_text.is_empty()
        && tag_result != Some(marker)
        && !(double_forfeit && marker == GameResult::Unknown)
    {
        let finding = Finding::ResultMismatch {
            marker,
            tag: report.result.clone(),
        };
        rep.push(finding, span);
    }
    // The result the game claims: the tag, else the marker.
    let claimed = if tag_text.is_empty() {
        game.result
    } else {
        tag_result
    };
    if let Some(state) = state {
        let pos = state.position();
        let termination = state.termination();
        report.termination = termination;
        report.claimable = state.claimable();
        if opts.final_fen {
            report.final_fen = fen::to_fen(pos);
        }
        if let Some(ended) = state.ended_by_rule()
            && ended.ply < state.ply()
        {
            report.ended_at_ply = Some(ended.ply);
            let next = game.main_line().nth(ended.ply as usize);
            let span = next.map_or(at_end, |(t, _)| t.span);
            let move_text = next.map(|(_, mt)| shown_token(game.san(mt)));
            let finding = Finding::MovesAfterAutomaticDraw {
                rule: ended.what,
                ply: ended.ply,
                more: state.ply() - ended.ply,
            };
            let p = rep.push(finding, span);
            p.ply = Some(ended.ply + 1);
            p.move_text = move_text;
        }
        if let Some(claim) = state.first_claim() {
            report.claimable_from_ply = Some(claim.ply);
        }
        let decisive_for = claimed.and_then(GameResult::winner);
        match termination {
            Some(Termination::Checkmate) => {
                let winner = state.last_mover();
                let expected = GameResult::win_for(winner);
                if let Some(claimed) = claimed
                    && (claimed == GameResult::Draw || decisive_for.is_some())
                    && claimed != expected
                {
                    let finding = Finding::CheckmateContradicted {
                        loser: !winner,
                        expected,
                        claimed,
                    };
                    rep.push(finding, at_end);
                }
            }
            Some(t) if let Some(claimed) = claimed.filter(|_| decisive_for.is_some()) => {
                let finding = Finding::DrawContradicted {
                    termination: t,
                    claimed,
                };
                rep.push(finding, at_end);
            }
            _ => {
                if let (Some(winner), Some(claimed)) = (decisive_for, claimed)
                    && pos.has_insufficient_material(winner)
                {
                    let finding = Finding::WinWithoutMatingMaterial {
                        claimed,
                        winner,
                        on_time: lost_on_time(game),
                    };
                    rep.push(finding, at_end);
                }
            }
        }
    }
    if claimed == Some(GameResult::Unknown) && opts.finished {
        rep.push(Finding::UnfinishedGame, at_end);
    }
    report.problems = rep.into_problems();
    if let Some(record) = report.record {
        for problem in &mut report.problems {
            problem.record = Some(record);
        }
    }
    report.valid = !report
        .problems
        .iter()
        .any(|p| p.severity == Severity::Error);
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::pgn::parse_all;

    #[test]
    fn the_fingerprint_alone_is_the_one_validate_compares() {
        // Legal moves, variations (not fingerprinted), a null move, a move that cannot be played, a FEN start,
        // another language's letters, no moves at all.
        let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 (1. d4 d5) e5 2. Nf3 -- 3. Bb5 *\n\n\
                    [White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Qxf7 Nf6 *\n\n\
                    [White \"A\"]\n[Black \"B\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n\n\
                    [White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Cf3 Cc6 *\n\n\
                    [White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1-0\n\n\
                    [White \"A\"]\n[Black \"B\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n";
        let opts = ValidateOptions {
            report_tags: true,
            ..ValidateOptions::default()
        };
        let file: Arc<str> = "t.pgn".into();
        let games = parse_all(text.as_bytes());
        let mut seen = Vec::new();
        for game in &games {
            let report = validate_game(game, &file, &opts);
            assert_eq!(
                game_fingerprint(game),
                report.fingerprint,
                "game {}",
                game.index + 1
            );
            seen.push(report.fingerprint);
        }
        // Every game with moves has one, all different; a game without moves, or whose start is no position,
        // has none.
        assert!(seen[..4].iter().all(|&f| f != 0), "{seen:?}");
        assert_eq!(&seen[4..], [0, 0]);
        let mut distinct = seen[..4].to_vec();
        distinct.dedup();
        assert_eq!(distinct.len(), 4);
        // Variations, comments and the result do not count: the same main line is the same game.
        let again =
            parse_all(b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 {best} e5 2. Nf3 -- 3. Bb5 1-0\n");
        assert_eq!(game_fingerprint(&again[0]), seen[0]);
    }

    #[test]
    fn the_readers_identical_problems_in_a_row_are_one_record_with_their_count() {
        let text = "1. e4 ) ) $999 ) )\n) ) ) (e5) *\n";
        let games = parse_all(text.as_bytes());
        let report = validate_game(&games[0], &Arc::from("t.pgn"), &ValidateOptions::default());
        let seen: Vec<(String, u64, u64, u64)> = report
            .problems
            .iter()
            .filter(|p| p.kind() == ProblemKind::Syntax)
            .map(|p| (p.message(Locale::En), p.line, p.column, p.times()))
            .collect();
        let end = "')' without an open variation".to_string();
        let nag = "NAG must be '$' followed by 0 to 255".to_string();
        assert_eq!(
            seen,
            [(end.clone(), 1, 7, 2), (nag, 1, 11, 1), (end, 1, 16, 5)]
        );
    }

    #[test]
    fn a_line_shows_the_same_window_whatever_lies_beyond_reach() {
        // Lines of one- and two-byte characters ending just before, at and after the reach of every offset.
        for unit in ["x", "é"] {
            for chars in [5, 100, 200, 217, 218, 219, 230, 400, 460, 600] {
                let text = format!("[Event \"x\"]\n\n1. e4 {{{}}}\n*\n", unit.repeat(chars));
                let games = parse_all(text.as_bytes());
                let game = &games[0];
                let line_start = game.source.iter().position(|&b| b == b'1').unwrap();
                let full_end = line_start
                    + game.source[line_start..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .unwrap();
                for offset in line_start..=full_end {
                    if !text.is_char_boundary(offset) {
                        continue;
                    }
                    assert_eq!(
                        source_window(game, line_start, offset),
                        window_in_line(game, line_start, offset, full_end),
                        "{unit} x {chars}, offset {offset}"
                    );
                }
            }
        }
    }
}
