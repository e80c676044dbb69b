//! The kinds of problem validate reports (the `kind` of JSON output) and their severities.

use serde::Serialize;

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
    /// `--pairings`: a game that is no pairing of its round in the TRF (other players, or no round number).
    PairingNotInTrf,
    /// `--pairings`: a game whose players the TRF pairs with the other colours.
    PairingColours,
    /// `--pairings`: a game (or bye) whose result differs from the TRF's, a forfeit against a game played
    /// included.
    PairingResult,
    /// `--pairings`: a pairing the TRF says was played, with no game in the PGN.
    PairingWithoutGame,
    /// `--pairings`: a player of a game that the TRF does not know (said once).
    PairingUnknownPlayer,
    /// `--pairings`: a player of the TRF that no game names (said once).
    PairingPlayerWithoutGames,
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
    /// One name with two FIDE ids in one tournament: two players.
    NameWithTwoFideIds,
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
    // --- notes about a tournament's games: what standings and TRF read them as ---
    /// A game won (or lost by both) by forfeit: a Termination saying so, or a result without a move.
    Forfeit,
    /// A game without a move read as a game of less than one move (`--moveless unrated`).
    UnratedGame,
    /// A bye game: one side names a bye (or is empty, in a game without moves).
    Bye,
    /// A FIDE id met under another name in the tournament: one player.
    FideIdNameVariant,
}

impl ProblemKind {
    /// Whether it notes a spelling outside the standard (which `--strict` makes an error), rather than what a
    /// game of a tournament is read as.
    pub(crate) fn is_spelling(self) -> bool {
        self.severity() == Severity::Note
            && !matches!(
                self,
                ProblemKind::Windows1252Text
                    | ProblemKind::Forfeit
                    | ProblemKind::UnratedGame
                    | ProblemKind::Bye
                    | ProblemKind::FideIdNameVariant
            )
    }

    pub(crate) fn severity(self) -> Severity {
        use ProblemKind::*;
        match self {
            Syntax
            | UnreadableMove
            | NoPieceCanReach
            | LeavesKingInCheck
            | CastlingNotAllowed
            | IllegalPawnMove
            | Ambiguous
            | MovesAfterGameEnd
            | ResultMismatch
            | InvalidFen
            | UnsupportedVariant
            | PairingNotInTrf
            | PairingColours
            | PairingResult
            | PairingWithoutGame
            | PairingUnknownPlayer
            | PairingPlayerWithoutGames => Severity::Error,
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
            | NameWithTwoFideIds
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
            | Windows1252Text
            | Forfeit
            | UnratedGame
            | Bye
            | FideIdNameVariant => Severity::Note,
        }
    }

    pub fn as_str(self) -> &'static str {
        use ProblemKind::*;
        match self {
            Syntax => "syntax",
            PairingNotInTrf => "pairing_not_in_trf",
            PairingColours => "pairing_colours",
            PairingResult => "pairing_result",
            PairingWithoutGame => "pairing_without_game",
            PairingUnknownPlayer => "pairing_unknown_player",
            PairingPlayerWithoutGames => "pairing_player_without_games",
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
            Forfeit => "forfeit",
            UnratedGame => "unrated_game",
            Bye => "bye",
            FideIdNameVariant => "fide_id_name_variant",
            NameWithTwoFideIds => "name_with_two_fide_ids",
        }
    }
}
