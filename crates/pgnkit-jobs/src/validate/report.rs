//! What `validate` says about each game: a [`GameReport`] with its [`Problem`]s, and what JSON writes of them,
//! one [`GameRecord`] per game (the schema is documented in `docs/validate-json.md`), the messages worded in
//! the language asked for as the record is written.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

pub use super::finding::{
    CheckedTag, EarlierGame, Finding, MAX_RANGES_SHOWN, NotedSpelling, RoundGaps, Suggestion,
};
use crate::messages::{Explain, Locale};

use pgnkit::core::{Claim, Termination};
use pgnkit::notation::Language;
use pgnkit::pgn::GameResult;
use pgnkit::walk::Confidence;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A spelling outside the PGN standard that was read as what it plainly means (`nf3`, `1/2`, `e8(Q)`...):
    /// the game replays; counted per kind and game. Errors with `--strict`.
    Note,
    Warning,
    Error,
}

/// Every kind of problem validate reports. The snake_case name is the `kind` in JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    // --- errors: the file is wrong ---
    /// The PGN text itself could not be read (unclosed comment, bad tag...).
    Syntax,
    /// A move token is not a move in any notation pgnkit knows.
    UnreadableMove,
    /// No piece of that kind can reach the square.
    NoPieceCanReach,
    /// The move would leave (or put) the mover's king in check.
    LeavesKingInCheck,
    /// Castling without the right, through or into check, or with pieces in the way.
    CastlingNotAllowed,
    /// A pawn move broken in a pawn-specific way (promotion missing or misplaced, nothing to capture...).
    IllegalPawnMove,
    /// Several pieces could make the move as written.
    Ambiguous,
    /// Moves written after checkmate or stalemate.
    MovesAfterGameEnd,
    /// The termination marker after the moves differs from the Result tag.
    ResultMismatch,
    /// The FEN tag does not describe a legal position.
    InvalidFen,
    /// A variant other than standard chess or Chess960: not replayed.
    UnsupportedVariant,
    // --- warnings: suspicious, or allowed but worth knowing ---
    /// A null move (`--`, `Z0`) in the main line: a pass, not a chess move (warning: analysis files use it).
    NullMove,
    /// The Result contradicts the final position (mate, stalemate, automatic draw). A warning: old and
    /// online archives carry such results (adjudications, clerical slips), and the moves themselves are sound.
    ResultContradictsBoard,
    /// Moves played on after fivefold repetition, the 75-move rule or a dead position.
    MovesAfterAutomaticDraw,
    /// A decisive result for a side that could not have mated (FIDE 6.9).
    WinWithoutMatingMaterial,
    /// `*` in a file said to be finished.
    UnfinishedGame,
    /// No termination marker after the moves.
    MissingResultMarker,
    /// A Seven Tag Roster tag is missing.
    MissingTag,
    /// A tag value not in its standard form: Date, EventDate, Round, Result, WhiteElo/BlackElo (a number),
    /// ECO (A00 to E99), PlyCount (a number).
    MalformedTag,
    /// A Date or EventDate after tomorrow (UTC): a typo in the year, most often.
    FutureDate,
    /// `SetUp "1"` without a `FEN` tag.
    SetupWithoutFen,
    /// `Variant "Chess960"` (or another spelling of it) without a `FEN` tag: the start position is unknown.
    Chess960WithoutFen,
    /// A PlyCount tag that differs from the main line's half-moves (checked only when the game replayed to
    /// its end).
    PlyCountMismatch,
    /// The same players and the same moves as an earlier game (of any input of the run).
    DuplicateGame,
    /// A player meets two different opponents in one round (by round number) of one tournament (across the
    /// inputs of the run).
    PlayerTwiceInRound,
    /// A game of a tournament whose White or Black tag is missing, empty, `?`, `-`, `NN` or `N.N.`: no player
    /// to rank, so standings leave the game out.
    UnknownPlayer,
    /// A game of a tournament whose White and Black are the same name: standings leave it out.
    PlayerAgainstSelf,
    /// The round numbers of a tournament, over all the inputs of a run, skip a round between the lowest and
    /// the highest present, or include a round 0 (a warning about the run, not about one game: see
    /// `Tournament::finish`).
    RoundNumbering,
    /// The piece-letter language was guessed among several that replay the game alike.
    LanguageGuessed,
    /// Text read leniently (an unescaped quote in a tag value, `\}` in a comment).
    LenientSyntax,
    // --- notes: real-world spellings read as what they plainly mean (see docs/notation.md) ---
    /// `...` standing apart from a move number (`1. ... e5`, `1. e4 ... e5`).
    SeparateEllipsis,
    /// A result written `1/2` or `½-½`.
    ResultSpelling,
    /// A piece letter in lower case (`nf3`, `qd1`); `b` stays a pawn's file.
    LowercasePieceLetter,
    /// A move in coordinates (`e2e4`, `g1f3`, `e7e8q`), or with a separator and no piece letter where a piece
    /// stands on the origin square (`g1-f3`, `e1-g1`).
    CoordinateMove,
    /// A promotion piece in parentheses (`e8(Q)`).
    ParenthesizedPromotion,
    /// An `x` (or `:`) on a move that captures nothing (`Nxf3` onto an empty square).
    SpuriousCapture,
    /// `+` or `#` on a move that gives no check.
    SpuriousCheckMark,
    /// `#` on a move that only checks, or `+` on a mate.
    WrongCheckMark,
    /// A no-break or other Unicode space between tokens.
    UnicodeSpace,
    /// A FEN tag whose half-move clock contradicts its en-passant square: the clock was read as 0.
    FenClockRepaired,
    /// A tag value or comment that is not UTF-8, read as Windows-1252.
    #[serde(rename = "windows_1252_text")]
    Windows1252Text,
}

impl ProblemKind {
    pub fn severity(self) -> Severity {
        use ProblemKind::*;
        match self {
            Syntax | UnreadableMove | NoPieceCanReach | LeavesKingInCheck | CastlingNotAllowed
            | IllegalPawnMove | Ambiguous | MovesAfterGameEnd | ResultMismatch | InvalidFen
            | UnsupportedVariant => Severity::Error,
            NullMove
            | ResultContradictsBoard
            | MovesAfterAutomaticDraw
            | WinWithoutMatingMaterial
            | UnfinishedGame
            | MissingResultMarker
            | MissingTag
            | MalformedTag
            | FutureDate
            | SetupWithoutFen
            | Chess960WithoutFen
            | PlyCountMismatch
            | DuplicateGame
            | PlayerTwiceInRound
            | UnknownPlayer
            | PlayerAgainstSelf
            | RoundNumbering
            | LanguageGuessed
            | LenientSyntax => Severity::Warning,
            SeparateEllipsis
            | ResultSpelling
            | LowercasePieceLetter
            | CoordinateMove
            | ParenthesizedPromotion
            | SpuriousCapture
            | SpuriousCheckMark
            | WrongCheckMark
            | UnicodeSpace
            | FenClockRepaired
            | Windows1252Text => Severity::Note,
        }
    }

    pub fn as_str(self) -> &'static str {
        use ProblemKind::*;
        match self {
            Syntax => "syntax",
            UnreadableMove => "unreadable_move",
            NoPieceCanReach => "no_piece_can_reach",
            LeavesKingInCheck => "leaves_king_in_check",
            CastlingNotAllowed => "castling_not_allowed",
            IllegalPawnMove => "illegal_pawn_move",
            Ambiguous => "ambiguous",
            MovesAfterGameEnd => "moves_after_game_end",
            NullMove => "null_move",
            ResultMismatch => "result_mismatch",
            ResultContradictsBoard => "result_contradicts_board",
            InvalidFen => "invalid_fen",
            UnsupportedVariant => "unsupported_variant",
            MovesAfterAutomaticDraw => "moves_after_automatic_draw",
            WinWithoutMatingMaterial => "win_without_mating_material",
            UnfinishedGame => "unfinished_game",
            MissingResultMarker => "missing_result_marker",
            MissingTag => "missing_tag",
            MalformedTag => "malformed_tag",
            FutureDate => "future_date",
            SetupWithoutFen => "setup_without_fen",
            Chess960WithoutFen => "chess960_without_fen",
            PlyCountMismatch => "ply_count_mismatch",
            DuplicateGame => "duplicate_game",
            PlayerTwiceInRound => "player_twice_in_round",
            UnknownPlayer => "unknown_player",
            PlayerAgainstSelf => "player_against_self",
            RoundNumbering => "round_numbering",
            LanguageGuessed => "language_guessed",
            LenientSyntax => "lenient_syntax",
            SeparateEllipsis => "separate_ellipsis",
            ResultSpelling => "result_spelling",
            LowercasePieceLetter => "lowercase_piece_letter",
            CoordinateMove => "coordinate_move",
            ParenthesizedPromotion => "parenthesized_promotion",
            SpuriousCapture => "spurious_capture",
            SpuriousCheckMark => "spurious_check_mark",
            WrongCheckMark => "wrong_check_mark",
            UnicodeSpace => "unicode_space",
            FenClockRepaired => "fen_clock_repaired",
            Windows1252Text => "windows_1252_text",
        }
    }
}

/// One problem, located in the file: what was found ([`Finding`], which gives its kind and its words) and
/// where. What JSON writes of it is [`ProblemRecord`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The kind's severity, or an error for a note under `--strict`.
    pub severity: Severity,
    /// What was found, with what explains it.
    pub finding: Finding,
    /// 1-based line in the file.
    pub line: u64,
    /// 1-based column, in characters, as editors count.
    pub column: u64,
    /// 1-based half-move of the main line or variation the problem concerns, when it concerns a move.
    pub ply: Option<u32>,
    /// The move number and side as a reader would write it: `23.` or `23...`.
    pub move_number: Option<String>,
    /// The move as written in the file.
    pub move_text: Option<String>,
    /// True when the move is inside a variation.
    pub in_variation: bool,
    /// The one legal move that the text plausibly meant, and why.
    pub suggestion: Option<Suggestion>,
    /// How many problems this record stands for: a note counts every use of its spelling in the game (its
    /// location is the first), and identical consecutive problems (same finding and move) are kept once with
    /// their number. `None` for a single problem.
    pub count: Option<u32>,
    /// Byte offset in the file.
    pub offset: u64,
    /// The line the problem is on, for showing under the message: at most about a hundred characters around
    /// the problem, `…` where cut, control characters escaped.
    pub source_line: String,
    /// Characters of `source_line` before the problem (where a caret goes).
    pub source_caret: u32,
}

impl Problem {
    /// A problem, with its kind's severity, at a line and column of the file (`offset` its byte), with no
    /// move, no suggestion and no source line yet.
    pub fn new(finding: Finding, line: u64, column: u64, offset: u64) -> Problem {
        Problem {
            severity: finding.kind().severity(),
            finding,
            line,
            column,
            ply: None,
            move_number: None,
            move_text: None,
            in_variation: false,
            suggestion: None,
            count: None,
            offset,
            source_line: String::new(),
            source_caret: 0,
        }
    }

    /// The kind of problem (its `kind` in JSON), from what was found.
    pub fn kind(&self) -> ProblemKind {
        self.finding.kind()
    }

    /// The message for people, in `locale`.
    pub fn message(&self, locale: Locale) -> String {
        self.finding.explain(locale)
    }

    /// Whether `other` says the same thing about the same kind of text, wherever it is: such consecutive
    /// problems are kept once, with their number.
    pub fn same_as(&self, other: &Problem) -> bool {
        self.severity == other.severity
            && self.finding == other.finding
            && self.move_text == other.move_text
            && self.suggestion == other.suggestion
            && self.in_variation == other.in_variation
    }

    /// How many problems this record stands for (at least 1).
    pub fn times(&self) -> u64 {
        u64::from(self.count.unwrap_or(1))
    }

    /// What JSON writes of it, its words in `locale`.
    pub fn record(&self, locale: Locale) -> ProblemRecord<'_> {
        ProblemRecord {
            problem: self,
            locale,
        }
    }
}

/// A problem as JSON writes it (`docs/validate-json.md`): its location, kind, move, and its message and
/// suggestion in a chosen language. The words are made as it is written.
#[derive(Clone, Copy)]
pub struct ProblemRecord<'p> {
    problem: &'p Problem,
    locale: Locale,
}

/// A finding's or a suggestion's words in a locale, made as the record is written.
struct Words<'a, T>(&'a T, Locale);

impl<T: Explain> Serialize for Words<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.explain(self.1))
    }
}

impl Serialize for ProblemRecord<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let p = self.problem;
        let fields = 6
            + usize::from(p.ply.is_some())
            + usize::from(p.move_number.is_some())
            + usize::from(p.move_text.is_some())
            + usize::from(p.in_variation)
            + usize::from(p.suggestion.is_some())
            + usize::from(p.count.is_some());
        let mut s = serializer.serialize_struct("Problem", fields)?;
        s.serialize_field("severity", &p.severity)?;
        s.serialize_field("kind", &p.kind())?;
        s.serialize_field("line", &p.line)?;
        s.serialize_field("column", &p.column)?;
        if let Some(ply) = p.ply {
            s.serialize_field("ply", &ply)?;
        }
        if let Some(number) = &p.move_number {
            s.serialize_field("move_number", number)?;
        }
        if let Some(text) = &p.move_text {
            s.serialize_field("move", text)?;
        }
        if p.in_variation {
            s.serialize_field("in_variation", &true)?;
        }
        s.serialize_field("message", &Words(&p.finding, self.locale))?;
        if let Some(suggestion) = &p.suggestion {
            s.serialize_field("suggestion", &Words(suggestion, self.locale))?;
        }
        if let Some(count) = p.count {
            s.serialize_field("count", &count)?;
        }
        s.end()
    }
}

/// A game's problems as JSON writes them: a list of [`ProblemRecord`]s.
#[derive(Clone, Copy)]
pub struct ProblemRecords<'p> {
    problems: &'p [Problem],
    locale: Locale,
}

impl<'p> ProblemRecords<'p> {
    /// `problems` written with their words in `locale`.
    pub fn new(problems: &'p [Problem], locale: Locale) -> ProblemRecords<'p> {
        ProblemRecords { problems, locale }
    }
}

impl Serialize for ProblemRecords<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.problems.iter().map(|p| p.record(self.locale)))
    }
}

/// A tag value as a report keeps it: up to [`TagText::INLINE`] bytes inside the report (nearly every
/// player, event, site, round and result), longer ones on the heap.
///
/// A report holds six of them. As `String`s they were half of validate's allocations per game, and with
/// two threads every allocation costs more: the reports are built on one thread and read on another, and
/// glibc's arenas then contend for their locks.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct TagText(Repr);

#[derive(Clone, PartialEq, Eq)]
enum Repr {
    Inline {
        len: u8,
        bytes: [u8; TagText::INLINE],
    },
    Heap(Box<str>),
}

impl Default for Repr {
    fn default() -> Self {
        Repr::Inline {
            len: 0,
            bytes: [0; TagText::INLINE],
        }
    }
}

impl TagText {
    /// The longest text kept inline: the same size as a `String` on 64-bit targets.
    pub const INLINE: usize = 22;

    pub fn new(text: &str) -> TagText {
        if text.len() <= Self::INLINE {
            let mut bytes = [0; Self::INLINE];
            bytes[..text.len()].copy_from_slice(text.as_bytes());
            TagText(Repr::Inline {
                len: text.len() as u8,
                bytes,
            })
        } else {
            TagText(Repr::Heap(text.into()))
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                let text = &bytes[..usize::from(*len)];
                debug_assert!(std::str::from_utf8(text).is_ok());
                // SAFETY: `new` copies the whole of a `&str` here, and nothing else writes these bytes: they
                // are UTF-8. The checked conversion ran on every read, and the checks across games read
                // players, event, site and round of every game.
                unsafe { std::str::from_utf8_unchecked(text) }
            }
            Repr::Heap(text) => text,
        }
    }
}

impl Deref for TagText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for TagText {
    fn from(text: &str) -> Self {
        TagText::new(text)
    }
}

impl PartialEq<str> for TagText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for TagText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for TagText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for TagText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for TagText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Everything validate found out about one game: what the checks across games, the renderers and the
/// summaries read. What JSON writes of it is [`GameRecord`].
#[derive(Debug, Clone)]
pub struct GameReport {
    pub file: Arc<str>,
    /// 1-based index of the game in its file.
    pub game: u64,
    pub white: TagText,
    pub black: TagText,
    pub round: TagText,
    pub event: TagText,
    pub site: TagText,
    /// The tournament's year as standings read it: the first four characters of EventDate, else of Date,
    /// else `????` (with event and site, it keys the checks across games).
    pub year: TagText,
    /// The Result tag.
    pub result: TagText,
    /// The termination marker after the moves, if any.
    pub marker: Option<GameResult>,
    /// Language of the piece letters (its code in JSON: `en`, `fr`, ...).
    pub lang: Language,
    /// How the language was found: `given` (--lang), `letters` (only one language fits the letters),
    /// `replay` (only one fitting language replays the game), `guessed` (several replay it; preference chose),
    /// `irrelevant` (no piece letters).
    pub lang_confidence: Confidence,
    /// Other languages that read this game's letters the same way.
    pub lang_equivalents: Vec<Language>,
    /// Main-line half-moves replayed (up to the first illegal move).
    pub plies: u32,
    /// No errors, variations included.
    pub valid: bool,
    /// How the final position ended the game by rule, if it did (`none` in JSON when it did not).
    pub termination: Option<Termination>,
    /// The draws the player to move could claim in the final position.
    pub claimable: Vec<Claim>,
    /// The first ply at which the game ended by rule, when it differs from the last ply.
    pub ended_at_ply: Option<u32>,
    /// The first ply at which a draw could have been claimed.
    pub claimable_from_ply: Option<u32>,
    /// Main-line moves written after the first illegal one, not checked.
    pub unchecked_moves: Option<u32>,
    pub variant: Option<String>,
    /// FEN of the final main-line position.
    pub final_fen: String,
    pub problems: Vec<Problem>,
    /// Moves replayed in variations (not part of `plies`).
    pub variation_moves: u32,
    /// Line where the game starts (for summaries).
    pub line: u64,
    /// Hash of the players and the main-line moves, to find duplicate games .
    pub fingerprint: u64,
}

impl GameReport {
    /// Errors (a record that stands for several counts them all: see [`Problem::count`]).
    pub fn errors(&self) -> u64 {
        self.count(Severity::Error)
    }

    /// Warnings.
    pub fn warnings(&self) -> u64 {
        self.count(Severity::Warning)
    }

    /// Uses of non-standard spellings (see [`Severity::Note`]).
    pub fn notes(&self) -> u64 {
        self.count(Severity::Note)
    }

    /// What JSON writes of it, its messages in `locale`.
    pub fn record(&self, locale: Locale) -> GameRecord<'_> {
        GameRecord {
            file: &self.file,
            game: self.game,
            white: &self.white,
            black: &self.black,
            round: &self.round,
            event: &self.event,
            site: &self.site,
            result: &self.result,
            marker: self.marker,
            lang: self.lang,
            lang_confidence: self.lang_confidence,
            lang_equivalents: &self.lang_equivalents,
            plies: self.plies,
            valid: self.valid,
            termination: self.termination,
            claimable: &self.claimable,
            ended_at_ply: self.ended_at_ply,
            claimable_from_ply: self.claimable_from_ply,
            unchecked_moves: self.unchecked_moves,
            variant: self.variant.as_deref(),
            final_fen: &self.final_fen,
            problems: ProblemRecords::new(&self.problems, locale),
        }
    }

    fn count(&self, severity: Severity) -> u64 {
        self.problems
            .iter()
            .filter(|p| p.severity == severity)
            .map(Problem::times)
            .sum()
    }
}

/// A game's report as JSON writes it, one object per game (the schema of `docs/validate-json.md`), its
/// messages in a chosen language.
#[derive(Serialize)]
pub struct GameRecord<'r> {
    file: &'r str,
    game: u64,
    white: &'r str,
    black: &'r str,
    round: &'r str,
    event: &'r str,
    site: &'r str,
    /// The Result tag.
    result: &'r str,
    /// The termination marker after the moves, if any.
    marker: Option<GameResult>,
    /// Language of the piece letters (its code: `en`, `fr`, ...).
    lang: Language,
    /// How the language was found: `given` (--lang), `letters` (only one language fits the letters),
    /// `replay` (only one fitting language replays the game), `guessed` (several replay it; preference chose),
    /// `irrelevant` (no piece letters).
    lang_confidence: Confidence,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    lang_equivalents: &'r [Language],
    plies: u32,
    valid: bool,
    /// `none` when the final position did not end the game by rule.
    #[serde(serialize_with = "termination_or_none")]
    termination: Option<Termination>,
    claimable: &'r [Claim],
    #[serde(skip_serializing_if = "Option::is_none")]
    ended_at_ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    claimable_from_ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unchecked_moves: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<&'r str>,
    final_fen: &'r str,
    problems: ProblemRecords<'r>,
}

/// The word for a termination in reports and summaries: its identifier, or `none`.
pub fn termination_name(t: Option<Termination>) -> &'static str {
    t.map_or("none", Termination::as_str)
}

/// Serializes an optional termination as [`termination_name`] does.
pub fn termination_or_none<S: Serializer>(
    t: &Option<Termination>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(termination_name(*t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_text_keeps_every_byte_of_every_length() {
        // Distinct bytes at every place, so that a piece copied to the wrong place shows.
        let all: String = ('A'..='Z').collect();
        for len in 0..=TagText::INLINE + 1 {
            let text = &all[..len];
            assert_eq!(TagText::new(text).as_str(), text, "{len}");
        }
    }

    #[test]
    fn tag_text_keeps_any_text_whole_inline_or_not() {
        let texts = [
            String::new(),
            "?".to_string(),
            "Barden, Leonard W".to_string(),
            "a".repeat(TagText::INLINE),
            "a".repeat(TagText::INLINE + 1),
            // a two-byte character ending exactly at the inline limit, and one crossing it
            format!("{}é", "a".repeat(TagText::INLINE - 2)),
            format!("{}é", "a".repeat(TagText::INLINE - 1)),
            "Международный турнир, Москва".to_string(),
        ];
        for text in &texts {
            let tag = TagText::new(text);
            assert_eq!(tag.as_str(), text);
            assert_eq!(&*tag, text.as_str());
            assert_eq!(tag.to_string(), *text);
            assert_eq!(tag, text.as_str());
            assert_eq!(tag.len(), text.len());
            assert_eq!(
                serde_json::to_string(&tag).unwrap(),
                serde_json::to_string(text).unwrap()
            );
            assert_eq!(format!("{tag:?}"), format!("{text:?}"));
        }
        let inline = |tag: &TagText| matches!(tag.0, Repr::Inline { .. });
        assert!(inline(&TagText::new(&"a".repeat(TagText::INLINE))));
        assert!(!inline(&TagText::new(&"a".repeat(TagText::INLINE + 1))));
        assert_eq!(TagText::default(), "");
        assert_ne!(TagText::new("1-0"), TagText::new("0-1"));
    }
}
