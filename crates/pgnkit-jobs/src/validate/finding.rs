//! What validate finds, as data: each [`Finding`] carries what explains it (tokens as written, tags and
//! their values, squares and roles inside the library's reason types, numbers), and is turned into words
//! only when it is shown, in the language asked for then ([`Explain`]; `Display` is the English). The kind a
//! finding is reported as ([`ProblemKind`]) follows from it.

use std::fmt;
use std::sync::Arc;

use pgnkit::core::fen::FenError;
use pgnkit::core::{Color, Termination};
use pgnkit::notation::{Language, Leniency, Slip};
use pgnkit::pgn::writer::WriteError;
use pgnkit::pgn::{DiagnosticKind, DiagnosticSeverity, GameResult};
use pgnkit::walk::{MoveFailure, SetupRepair};

use super::kind::ProblemKind;
use super::pairings::PairingFinding;
use super::tag_text::TagText;
use crate::localized;
use crate::messages::{Explain, Locale, did_you_mean, plural, side_name};

/// Most ranges of rounds a round-numbering warning lists (hostile rounds `1`, `3`, `5`... would otherwise
/// make a message as long as the input).
pub(crate) const MAX_RANGES_SHOWN: usize = 8;

/// One thing validate found in a game (or across games), with the data that explains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Finding {
    /// What the reader found in the text (a syntax error, a lenient reading, a spelling noted).
    Reader(DiagnosticKind),
    /// A draw marker written `1/2` or `½-½` after the moves (`written`, quoted as the engine's `shown_token` cuts it).
    DrawMarkerSpelling { written: String },
    /// Text the reader took for no PGN token, where no line of play reached it.
    UnreadableText { token: String },
    /// A move token that gives no move; `unchecked`: main-line moves after it left unchecked (said on the
    /// main line's last such error only, else 0).
    Move {
        token: String,
        failure: MoveFailure,
        unchecked: u32,
    },
    /// A null move in the main line.
    NullMove,
    /// A move read through a spelling outside the standard: `written` read as `read_as`.
    Spelling {
        spelling: NotedSpelling,
        written: String,
        read_as: String,
    },
    /// A tag value that is not UTF-8, read as Windows-1252.
    NotUtf8Tag { name: String, value: String },
    /// A comment that is not UTF-8, read as Windows-1252.
    NotUtf8Comment,
    /// The FEN tag's half-move clock was repaired.
    FenClockRepaired(SetupRepair),
    /// A variant that is not replayed.
    UnsupportedVariant { name: String },
    /// A FEN tag that is no legal position.
    InvalidFen { problems: Vec<FenError> },
    /// The moves replay in the letters of several languages; `chosen` was taken.
    LanguageGuessed {
        among: Vec<Language>,
        chosen: Language,
    },
    /// The marker after the moves differs from the Result tag (`tag`, as written).
    ResultMismatch { marker: GameResult, tag: TagText },
    /// convert's reading of [`Finding::ResultMismatch`]: the game is written with the tag's result.
    ResultRewritten {
        marker: GameResult,
        written: GameResult,
    },
    /// The game went on after a draw by rule at half-move `ply`; `more` half-moves were played after it.
    MovesAfterAutomaticDraw {
        rule: Termination,
        ply: u32,
        more: u32,
    },
    /// `loser` is checkmated, yet the result claimed is not `expected`.
    CheckmateContradicted {
        loser: Color,
        expected: GameResult,
        claimed: GameResult,
    },
    /// The final position is drawn by `termination`, yet the result claimed is decisive.
    DrawContradicted {
        termination: Termination,
        claimed: GameResult,
    },
    /// A win claimed for `winner`, who cannot mate; `on_time`: the Termination tag says the flag fell.
    WinWithoutMatingMaterial {
        claimed: GameResult,
        winner: Color,
        on_time: bool,
    },
    /// `*` in a file said to be finished.
    UnfinishedGame,
    /// Seven Tag Roster tags missing, in the roster's order.
    MissingTags { missing: Vec<&'static str> },
    /// A checked tag whose value is not in its standard form.
    MalformedTag { tag: CheckedTag, value: String },
    /// A Date or EventDate after tomorrow.
    FutureDate { tag: CheckedTag, value: String },
    /// A Result tag written `1/2` or `½-½`.
    DrawTagSpelling { value: String },
    /// `SetUp "1"` without a FEN tag.
    SetupWithoutFen,
    /// A Chess960 Variant tag (`value`) without a FEN tag.
    Chess960WithoutFen { value: String },
    /// A PlyCount tag (`value`) that differs from the main line's `plies`.
    PlyCountMismatch { value: String, plies: u32 },
    /// A side of a tournament game that names nobody: its tag's `value`, or `None` when there is no tag.
    UnknownPlayer { side: Color, value: Option<String> },
    /// The same `player` on both sides.
    PlayerAgainstSelf { player: String },
    /// The same players (`white`, `black`) and moves as the `earlier` game.
    DuplicateGame {
        earlier: EarlierGame,
        white: TagText,
        black: TagText,
    },
    /// `player` already plays the `earlier` game, against someone else, in `round`.
    PlayerTwiceInRound {
        player: TagText,
        earlier: EarlierGame,
        round: u64,
    },
    /// A tournament's rounds skip one or include a round 0.
    RoundNumbering(Box<RoundGaps>),
    /// A game that was not played: won by `winner` by forfeit (`None`: a double forfeit); `said`: the
    /// Termination tag says forfeit (else the result stands without a move).
    Forfeit { winner: Option<Color>, said: bool },
    /// A decided or drawn game without a move, read as a game of less than one move (`--moveless unrated`).
    UnratedGame { result: GameResult },
    /// A bye game: `player` had no opponent and scored `half_points`; `allocated`: the pairing-allocated bye.
    Bye {
        player: String,
        half_points: u8,
        allocated: bool,
    },
    /// `name` has FIDE id `fide_id`, which the `earlier` game gives under another name: one player.
    FideIdNameVariant {
        name: TagText,
        fide_id: u64,
        earlier: EarlierGame,
    },
    /// `name` has FIDE id `fide_id` here and `other_id` in the `earlier` game: two players of one name.
    NameWithTwoFideIds {
        name: TagText,
        fide_id: u64,
        other_id: u64,
        earlier: EarlierGame,
    },
    /// A difference between the games and the pairing program's report (`--pairings`).
    Pairing(Box<PairingFinding>),
    /// convert could not write a token and validate found nothing to say why.
    Unwritable(WriteError),
}

/// The spellings of moves that are noted: each means one move plainly, or marks what the move does not do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum NotedSpelling {
    LowercasePieceLetter,
    CoordinateMove,
    ParenthesizedPromotion,
    SpuriousCapture,
    SpuriousCheckMark,
    WrongCheckMark,
}

impl NotedSpelling {
    /// The leniency of the notation that reads it.
    pub(crate) fn leniency(self) -> Leniency {
        match self {
            NotedSpelling::LowercasePieceLetter => Leniency::LowercasePieceLetter,
            NotedSpelling::CoordinateMove => Leniency::CoordinateMove,
            NotedSpelling::ParenthesizedPromotion => Leniency::ParenthesizedPromotion,
            NotedSpelling::SpuriousCapture => Leniency::SpuriousCapture,
            NotedSpelling::SpuriousCheckMark => Leniency::SpuriousCheckMark,
            NotedSpelling::WrongCheckMark => Leniency::WrongCheckMark,
        }
    }

    pub(crate) fn kind(self) -> ProblemKind {
        match self {
            NotedSpelling::LowercasePieceLetter => ProblemKind::LowercasePieceLetter,
            NotedSpelling::CoordinateMove => ProblemKind::CoordinateMove,
            NotedSpelling::ParenthesizedPromotion => ProblemKind::ParenthesizedPromotion,
            NotedSpelling::SpuriousCapture => ProblemKind::SpuriousCapture,
            NotedSpelling::SpuriousCheckMark => ProblemKind::SpuriousCheckMark,
            NotedSpelling::WrongCheckMark => ProblemKind::WrongCheckMark,
        }
    }
}

/// The tags whose values are checked for their form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum CheckedTag {
    Date,
    EventDate,
    Round,
    Result,
    WhiteElo,
    BlackElo,
    Eco,
    PlyCount,
}

impl CheckedTag {
    /// The tag's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            CheckedTag::Date => "Date",
            CheckedTag::EventDate => "EventDate",
            CheckedTag::Round => "Round",
            CheckedTag::Result => "Result",
            CheckedTag::WhiteElo => "WhiteElo",
            CheckedTag::BlackElo => "BlackElo",
            CheckedTag::Eco => "ECO",
            CheckedTag::PlyCount => "PlyCount",
        }
    }
}

/// An earlier game a cross-game warning points at: its number, and its file when not the same file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EarlierGame {
    /// 1-based index of the game in its file.
    pub(crate) game: u64,
    /// Its file, when it is another file than the warned game's.
    pub(crate) file: Option<Arc<str>>,
}

/// What a round-numbering warning says of a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RoundGaps {
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) year: String,
    /// The missing rounds, as ranges (at most [`MAX_RANGES_SHOWN`] + 1 kept: one more says there are more).
    pub(crate) gaps: Vec<(u64, u64)>,
    /// How many rounds are missing.
    pub(crate) missing: u64,
    /// Whether a round 0 is present.
    pub(crate) round_zero: bool,
    /// The rounds present, as ranges (kept as `gaps`).
    pub(crate) present: Vec<(u64, u64)>,
}

impl RoundGaps {
    /// A tournament's numbering, the range lists cut to what is shown.
    pub(crate) fn new(
        (event, site, year): (String, String, String),
        mut gaps: Vec<(u64, u64)>,
        missing: u64,
        round_zero: bool,
        mut present: Vec<(u64, u64)>,
    ) -> RoundGaps {
        gaps.truncate(MAX_RANGES_SHOWN + 1);
        present.truncate(MAX_RANGES_SHOWN + 1);
        RoundGaps {
            event,
            site,
            year,
            gaps,
            missing,
            round_zero,
            present,
        }
    }
}

/// The move a failed token most plausibly meant, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The token as written.
    pub(crate) written: String,
    /// The move meant, in the game's letters.
    pub(crate) meant: String,
    /// What went wrong in the writing.
    pub(crate) slip: Slip,
    /// The game's piece-letter language.
    pub(crate) lang: Language,
}

impl Explain for Suggestion {
    fn explain(&self, locale: Locale) -> String {
        did_you_mean(&self.written, &self.meant, self.slip, self.lang, locale)
    }
}

impl fmt::Display for Suggestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

/// The kind a reader's diagnostic is reported as.
fn reader_kind(kind: DiagnosticKind) -> ProblemKind {
    match kind {
        DiagnosticKind::MissingResult => ProblemKind::MissingResultMarker,
        DiagnosticKind::SeparateEllipsis => ProblemKind::SeparateEllipsis,
        DiagnosticKind::ResultSpelling => ProblemKind::ResultSpelling,
        DiagnosticKind::UnicodeSpace => ProblemKind::UnicodeSpace,
        k if k.severity() == DiagnosticSeverity::Warning => ProblemKind::LenientSyntax,
        _ => ProblemKind::Syntax,
    }
}

/// The kind a move that gives no move is reported as.
fn move_kind(failure: &MoveFailure) -> ProblemKind {
    use pgnkit::notation::{IllegalReason, SanError};
    match failure {
        MoveFailure::Syntax(_) | MoveFailure::Unknown => ProblemKind::UnreadableMove,
        MoveFailure::GameOver { .. } => ProblemKind::MovesAfterGameEnd,
        MoveFailure::San(SanError::Ambiguous { .. }) => ProblemKind::Ambiguous,
        MoveFailure::San(SanError::Illegal(reason)) => match reason {
            IllegalReason::NoPieceCanReach { .. }
            | IllegalReason::OwnPieceOnTarget { .. }
            | IllegalReason::PawnCannotCapture { .. } => ProblemKind::NoPieceCanReach,
            IllegalReason::Pinned { .. }
            | IllegalReason::KingIntoCheck { .. }
            | IllegalReason::IgnoresCheck { .. }
            | IllegalReason::ExposesKing { .. } => ProblemKind::LeavesKingInCheck,
            IllegalReason::Castling { .. } => ProblemKind::CastlingNotAllowed,
            IllegalReason::NothingToCapture { .. }
            | IllegalReason::MustPromote { .. }
            | IllegalReason::PromotionNotOnLastRank { .. }
            | IllegalReason::NotAPawn { .. } => ProblemKind::IllegalPawnMove,
            IllegalReason::NullMove => ProblemKind::NullMove,
        },
    }
}

impl Finding {
    /// The kind it is reported as (its `kind` in JSON).
    pub(crate) fn kind(&self) -> ProblemKind {
        use Finding::*;
        match self {
            Reader(kind) => reader_kind(*kind),
            DrawMarkerSpelling { .. } | DrawTagSpelling { .. } => ProblemKind::ResultSpelling,
            UnreadableText { .. } | Unwritable(_) => ProblemKind::Syntax,
            Move { failure, .. } => move_kind(failure),
            NullMove => ProblemKind::NullMove,
            Spelling { spelling, .. } => spelling.kind(),
            NotUtf8Tag { .. } | NotUtf8Comment => ProblemKind::Windows1252Text,
            FenClockRepaired(_) => ProblemKind::FenClockRepaired,
            UnsupportedVariant { .. } => ProblemKind::UnsupportedVariant,
            InvalidFen { .. } => ProblemKind::InvalidFen,
            LanguageGuessed { .. } => ProblemKind::LanguageGuessed,
            ResultMismatch { .. } | ResultRewritten { .. } => ProblemKind::ResultMismatch,
            MovesAfterAutomaticDraw { .. } => ProblemKind::MovesAfterAutomaticDraw,
            CheckmateContradicted { .. } | DrawContradicted { .. } => {
                ProblemKind::ResultContradictsBoard
            }
            WinWithoutMatingMaterial { .. } => ProblemKind::WinWithoutMatingMaterial,
            UnfinishedGame => ProblemKind::UnfinishedGame,
            MissingTags { .. } => ProblemKind::MissingTag,
            MalformedTag { .. } => ProblemKind::MalformedTag,
            FutureDate { .. } => ProblemKind::FutureDate,
            SetupWithoutFen => ProblemKind::SetupWithoutFen,
            Chess960WithoutFen { .. } => ProblemKind::Chess960WithoutFen,
            PlyCountMismatch { .. } => ProblemKind::PlyCountMismatch,
            UnknownPlayer { .. } => ProblemKind::UnknownPlayer,
            PlayerAgainstSelf { .. } => ProblemKind::PlayerAgainstSelf,
            DuplicateGame { .. } => ProblemKind::DuplicateGame,
            PlayerTwiceInRound { .. } => ProblemKind::PlayerTwiceInRound,
            RoundNumbering(_) => ProblemKind::RoundNumbering,
            Forfeit { .. } => ProblemKind::Forfeit,
            UnratedGame { .. } => ProblemKind::UnratedGame,
            Bye { .. } => ProblemKind::Bye,
            FideIdNameVariant { .. } => ProblemKind::FideIdNameVariant,
            NameWithTwoFideIds { .. } => ProblemKind::NameWithTwoFideIds,
            Pairing(finding) => finding.kind(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl Explain for Finding {
    fn explain(&self, locale: Locale) -> String {
        use Finding::*;
        match self {
            Reader(kind) => kind.explain(locale),
            DrawMarkerSpelling { written } => localized!(
                locale,
                "\"{written}\" read as 1/2-1/2",
                "\"{written}\" lu comme 1/2-1/2"
            ),
            UnreadableText { token } => localized!(
                locale,
                "cannot read \"{token}\" as a move or any other PGN token",
                "impossible de lire \"{token}\" comme un coup ou un autre élément PGN"
            ),
            Move {
                token,
                failure,
                unchecked,
            } => {
                let mut text = failure_text(token, failure, locale);
                if *unchecked > 0 {
                    let n = u64::from(*unchecked);
                    let s = plural(locale, n);
                    text.push_str(&localized!(
                        locale,
                        " ({n} later move{s} of the main line left unchecked)",
                        " ({n} coup{s} suivant{s} de la ligne principale non vérifié{s})"
                    ));
                }
                text
            }
            NullMove => localized!(
                locale,
                "a null move passes the turn: it is no chess move (analysis only)",
                "un coup nul passe le trait : ce n'est pas un coup d'échecs (analyse seulement)"
            ),
            Spelling {
                spelling,
                written,
                read_as,
            } => localized!(
                locale,
                "\"{written}\" read as {read_as} ({})",
                "\"{written}\" lu comme {read_as} ({})",
                spelling.leniency().explain(locale)
            ),
            NotUtf8Tag { name, value } => localized!(
                locale,
                "the {name} tag is not UTF-8: read as Windows-1252 (\"{value}\")",
                "la balise {name} n'est pas en UTF-8 : lue en Windows-1252 (\"{value}\")"
            ),
            NotUtf8Comment => localized!(
                locale,
                "a comment is not UTF-8: read as Windows-1252",
                "un commentaire n'est pas en UTF-8 : lu en Windows-1252"
            ),
            FenClockRepaired(repair) => repair.explain(locale),
            UnsupportedVariant { name } => localized!(
                locale,
                "variant \"{name}\" is not supported: only standard chess and Chess960 are replayed",
                "la variante \"{name}\" n'est pas prise en charge : seuls les échecs classiques et Chess960 sont rejoués"
            ),
            InvalidFen { problems } => localized!(
                locale,
                "the FEN tag is not a legal position: {}",
                "la balise FEN ne décrit pas une position légale : {}",
                problems
                    .iter()
                    .map(|p| p.explain(locale))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            LanguageGuessed { among, chosen } => {
                let name = |l: Language| match locale {
                    Locale::En => l.name(),
                    Locale::Fr => crate::messages::french_language_name(l),
                };
                let names: Vec<&str> = among.iter().map(|l| name(*l)).collect();
                localized!(
                    locale,
                    "the moves replay legally with the piece letters of several languages ({}); read as {}",
                    "les coups se rejouent légalement avec les lettres de pièces de plusieurs langues ({}) ; lus en notation {}",
                    names.join(", "),
                    match locale {
                        Locale::En => chosen.name(),
                        Locale::Fr => crate::messages::french_notation_adjective(*chosen),
                    }
                )
            }
            ResultMismatch { marker, tag } => localized!(
                locale,
                "the game ends with {marker} but its Result tag says {tag}",
                "la partie se termine par {marker} mais sa balise Result dit {tag}"
            ),
            ResultRewritten { marker, written } => localized!(
                locale,
                "the game ends with {marker} but its Result tag says {written}; written as {written}",
                "la partie se termine par {marker} mais sa balise Result dit {written} ; écrite {written}"
            ),
            MovesAfterAutomaticDraw { rule, ply, more } => {
                let rule = rule.explain(locale);
                let (was, s) = match (locale, more) {
                    (Locale::En, 1) => (" was", ""),
                    (Locale::En, _) => ("s were", "s"),
                    (Locale::Fr, 1) => ("", ""),
                    (Locale::Fr, _) => ("s", "s"),
                };
                localized!(
                    locale,
                    "the game was drawn by the {rule} after half-move {ply} (FIDE 9.6 / 5.2.2); {more} more half-move{was} played on",
                    "la partie était nulle par {rule} après le demi-coup {ply} (FIDE 9.6 / 5.2.2) ; {more} demi-coup{s} joué{was} ensuite"
                )
            }
            CheckmateContradicted {
                loser,
                expected,
                claimed,
            } => localized!(
                locale,
                "{} is checkmated, so the result must be {expected}, not {claimed}",
                "{} sont mat, le résultat doit donc être {expected}, pas {claimed}",
                side_name(locale, *loser)
            ),
            DrawContradicted {
                termination,
                claimed,
            } => localized!(
                locale,
                "the final position is a draw by {}, so the result must be 1/2-1/2, not {claimed}",
                "la position finale est nulle par {}, le résultat doit donc être 1/2-1/2, pas {claimed}",
                termination.explain(locale)
            ),
            WinWithoutMatingMaterial {
                claimed,
                winner,
                on_time,
            } => {
                // FIDE 6.9 is about the flag: a loss on time against a side that cannot mate is a draw. A
                // resignation stands whatever the material.
                let side = side_name(locale, *winner);
                if *on_time {
                    localized!(
                        locale,
                        "{claimed} says {side} won on time, but {side} cannot checkmate by any series of legal moves: the game is drawn (FIDE 6.9)",
                        "{claimed} dit que {side} ont gagné au temps, mais {side} ne peuvent mater par aucune suite de coups légaux : la partie est nulle (FIDE 6.9)"
                    )
                } else {
                    localized!(
                        locale,
                        "{claimed} is a win for {side}, who cannot checkmate by any series of legal moves: a resignation stands, but a loss on time would be a draw (FIDE 6.9)",
                        "{claimed} est une victoire pour {side}, qui ne peuvent mater par aucune suite de coups légaux : un abandon reste valable, mais une perte au temps serait nulle (FIDE 6.9)"
                    )
                }
            }
            UnfinishedGame => localized!(
                locale,
                "the game is unfinished (*) in a file said to be finished",
                "la partie est inachevée (*) dans un fichier annoncé comme terminé"
            ),
            MissingTags { missing } => {
                let s = if missing.len() == 1 { "" } else { "s" };
                let missing = missing.join(", ");
                localized!(
                    locale,
                    "missing Seven Tag Roster tag{s}: {missing}",
                    "balise{s} du Seven Tag Roster manquante{s} : {missing}"
                )
            }
            MalformedTag { tag, value } => malformed_text(*tag, value, locale),
            FutureDate { tag, value } => {
                let name = tag.name();
                localized!(
                    locale,
                    "{name} \"{value}\" is in the future",
                    "{name} \"{value}\" est dans le futur"
                )
            }
            DrawTagSpelling { value } => localized!(
                locale,
                "Result \"{value}\" read as 1/2-1/2",
                "Result \"{value}\" lu comme 1/2-1/2"
            ),
            SetupWithoutFen => localized!(
                locale,
                "SetUp \"1\" says the game starts from a position, but there is no FEN tag",
                "SetUp \"1\" dit que la partie part d'une position, mais il n'y a pas de balise FEN"
            ),
            Chess960WithoutFen { value } => localized!(
                locale,
                "Variant \"{value}\" without a FEN tag: replayed from the standard start position (Chess960 position 518)",
                "Variant \"{value}\" sans balise FEN : rejouée depuis la position de départ classique (position Chess960 n° 518)"
            ),
            PlyCountMismatch { value, plies } => {
                let s = plural(locale, u64::from(*plies));
                localized!(
                    locale,
                    "PlyCount \"{value}\" disagrees with the main line, which has {plies} half-move{s}",
                    "PlyCount \"{value}\" ne correspond pas à la ligne principale, qui a {plies} demi-coup{s}"
                )
            }
            UnknownPlayer { side, value } => {
                let name = side.name();
                match value {
                    None => localized!(
                        locale,
                        "no {name} tag: the game names no player on that side and counts in no standings",
                        "pas de balise {name} : la partie ne nomme aucun joueur de ce côté et ne compte dans aucun classement"
                    ),
                    Some(value) => localized!(
                        locale,
                        "{name} \"{value}\" names no player: the game counts in no standings",
                        "{name} \"{value}\" ne nomme aucun joueur : la partie ne compte dans aucun classement"
                    ),
                }
            }
            PlayerAgainstSelf { player } => localized!(
                locale,
                "White and Black are the same player, \"{player}\": the game counts in no standings",
                "White et Black sont le même joueur, \"{player}\" : la partie ne compte dans aucun classement"
            ),
            DuplicateGame {
                earlier,
                white,
                black,
            } => localized!(
                locale,
                "same players and same moves as {} ({white} – {black})",
                "mêmes joueurs et mêmes coups que {} ({white} – {black})",
                earlier.explain(locale)
            ),
            PlayerTwiceInRound {
                player,
                earlier,
                round,
            } => localized!(
                locale,
                "{player} also plays {} in round {round}",
                "{player} joue aussi {} à la ronde {round}",
                earlier.explain(locale)
            ),
            RoundNumbering(gaps) => gaps.explain(locale),
            Forfeit {
                winner: None,
                said: _,
            } => localized!(
                locale,
                "a double forfeit: neither player played, both score 0 (TRF - and -)",
                "double forfait : aucun joueur n'a joué, les deux marquent 0 (TRF - et -)"
            ),
            Forfeit {
                winner: Some(winner),
                said,
            } => {
                let why = match (said, locale) {
                    (true, Locale::En) => "the Termination tag says so",
                    (true, Locale::Fr) => "la balise Termination le dit",
                    (false, Locale::En) => {
                        "a result without a single move; --moveless reads such games otherwise"
                    }
                    (false, Locale::Fr) => {
                        "un résultat sans aucun coup ; --moveless lit autrement de telles parties"
                    }
                };
                localized!(
                    locale,
                    "a forfeit: {} wins without playing ({why}; TRF + and -)",
                    "un forfait : {} gagnent sans jouer ({why} ; TRF + et -)",
                    side_name(locale, *winner)
                )
            }
            UnratedGame { result } => localized!(
                locale,
                "{} without a move: a game of less than one move, scored and not rated (--moveless unrated; TRF W, D, L)",
                "{} sans aucun coup : une partie de moins d'un coup, comptée et non évaluée (--moveless unrated ; TRF W, D, L)",
                result.as_str()
            ),
            Bye {
                player,
                half_points,
                allocated,
            } => match (half_points, allocated) {
                (2, true) => localized!(
                    locale,
                    "a bye: {player} scores 1 point without an opponent, the pairing-allocated bye (TRF U)",
                    "un bye : {player} marque 1 point sans adversaire, le bye attribué par l'appariement (TRF U)"
                ),
                (2, false) => localized!(
                    locale,
                    "a bye: {player} scores 1 point without an opponent (a full-point bye, TRF F)",
                    "un bye : {player} marque 1 point sans adversaire (bye d'un point, TRF F)"
                ),
                (1, _) => localized!(
                    locale,
                    "a bye: {player} scores ½ point without an opponent (a half-point bye, TRF H)",
                    "un bye : {player} marque ½ point sans adversaire (bye d'un demi-point, TRF H)"
                ),
                _ => localized!(
                    locale,
                    "a bye: {player} scores nothing without an opponent (a zero-point bye, TRF Z)",
                    "un bye : {player} ne marque rien, sans adversaire (bye de zéro point, TRF Z)"
                ),
            },
            FideIdNameVariant {
                name,
                fide_id,
                earlier,
            } => localized!(
                locale,
                "{name} has FIDE id {fide_id}, which {} gives under another name: one player",
                "{name} a l'identifiant FIDE {fide_id}, que {} donne sous un autre nom : un seul joueur",
                earlier.explain(locale)
            ),
            NameWithTwoFideIds {
                name,
                fide_id,
                other_id,
                earlier,
            } => localized!(
                locale,
                "{name} has FIDE id {fide_id} here and {other_id} in {}: two players of the same name",
                "{name} a l'identifiant FIDE {fide_id} ici et {other_id} dans {} : deux joueurs du même nom",
                earlier.explain(locale)
            ),
            Pairing(finding) => finding.explain(locale),
            Unwritable(error) => match (locale, error) {
                (Locale::En, _) => error.to_string(),
                (Locale::Fr, WriteError::MoveNotGiven { .. }) => "coup non rejoué".into(),
                (Locale::Fr, WriteError::UnknownToken { .. }) => {
                    "texte non reconnu dans les coups".into()
                }
            },
        }
    }
}

/// The words for a move token that gives no move (`token` as quoted).
fn failure_text(token: &str, failure: &MoveFailure, locale: Locale) -> String {
    match failure {
        MoveFailure::Syntax(e) => localized!(
            locale,
            "cannot read \"{token}\" as a move: {}",
            "impossible de lire \"{token}\" comme un coup : {}",
            e.kind.explain(locale)
        ),
        MoveFailure::San(err) => err.explain(locale),
        MoveFailure::Unknown => localized!(
            locale,
            "cannot read \"{token}\" as a move or any other PGN token",
            "impossible de lire \"{token}\" comme un coup ou un autre élément PGN"
        ),
        MoveFailure::GameOver { checkmate } => {
            let ending = if *checkmate {
                Termination::Checkmate
            } else {
                Termination::Stalemate
            };
            localized!(
                locale,
                "the game is already over ({}): no move can follow",
                "la partie est déjà finie ({}) : aucun coup ne peut suivre",
                ending.explain(locale)
            )
        }
    }
}

/// The words for a tag value not in its standard form.
fn malformed_text(tag: CheckedTag, value: &str, locale: Locale) -> String {
    let name = tag.name();
    match tag {
        CheckedTag::Date | CheckedTag::EventDate => localized!(
            locale,
            "{name} \"{value}\" is not YYYY.MM.DD (use ?? for unknown parts, e.g. 2024.??.??)",
            "{name} \"{value}\" n'est pas de la forme AAAA.MM.JJ (?? pour une partie inconnue, par exemple 2024.??.??)"
        ),
        CheckedTag::Round => localized!(
            locale,
            "Round \"{value}\" is not a number like 5 or 5.2, '?' or '-'",
            "Round \"{value}\" n'est ni un numéro comme 5 ou 5.2, ni '?', ni '-'"
        ),
        CheckedTag::Result => localized!(
            locale,
            "Result \"{value}\" is not one of 1-0, 0-1, 1/2-1/2, *",
            "Result \"{value}\" n'est pas l'un de 1-0, 0-1, 1/2-1/2, *"
        ),
        CheckedTag::WhiteElo | CheckedTag::BlackElo => localized!(
            locale,
            "{name} \"{value}\" is not a rating: a number, or ? when unknown",
            "{name} \"{value}\" n'est pas un classement Elo : un nombre, ou ? s'il est inconnu"
        ),
        CheckedTag::Eco => localized!(
            locale,
            "ECO \"{value}\" is not a code from A00 to E99, or ? when unknown",
            "ECO \"{value}\" n'est pas un code de A00 à E99, ou ? s'il est inconnu"
        ),
        CheckedTag::PlyCount => localized!(
            locale,
            "PlyCount \"{value}\" is not a number of half-moves",
            "PlyCount \"{value}\" n'est pas un nombre de demi-coups"
        ),
    }
}

impl Explain for EarlierGame {
    /// "game 3" in the same file, "game 3 of round5.pgn" in another.
    fn explain(&self, locale: Locale) -> String {
        let game = self.game;
        match &self.file {
            None => localized!(locale, "game {game}", "la partie {game}"),
            Some(other) => localized!(
                locale,
                "game {game} of {other}",
                "la partie {game} de {other}"
            ),
        }
    }
}

/// Ranges of consecutive numbers, written `1-4, 6`, at most [`MAX_RANGES_SHOWN`] of them (then `…`).
fn ranges(numbers: &[(u64, u64)]) -> String {
    let mut shown: Vec<String> = Vec::new();
    for (i, &(from, to)) in numbers.iter().enumerate() {
        if i == MAX_RANGES_SHOWN {
            shown.push("…".into());
            break;
        }
        shown.push(if from == to {
            from.to_string()
        } else {
            format!("{from}-{to}")
        });
    }
    shown.join(", ")
}

impl Explain for RoundGaps {
    fn explain(&self, locale: Locale) -> String {
        let mut said = Vec::new();
        if !self.gaps.is_empty() {
            let s = if self.missing == 1 { "" } else { "s" };
            let gaps = ranges(&self.gaps);
            said.push(localized!(
                locale,
                "round{s} {gaps} missing",
                "ronde{s} {gaps} manquante{s}"
            ));
        }
        if self.round_zero {
            said.push(localized!(
                locale,
                "a round 0 (rounds count from 1)",
                "une ronde 0 (les rondes se comptent à partir de 1)"
            ));
        }
        let (event, year) = (&self.event, &self.year);
        let site = if self.site.is_empty() {
            "?"
        } else {
            &self.site
        };
        let said = said.join(localized!(locale, " and ", " et ").as_str());
        let present = ranges(&self.present);
        localized!(
            locale,
            "{event} ({site}, {year}): {said}; rounds present: {present}",
            "{event} ({site}, {year}) : {said} ; rondes présentes : {present}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_finding_has_words_in_both_languages_that_differ() {
        let findings = [
            Finding::NullMove,
            Finding::UnfinishedGame,
            Finding::MissingTags {
                missing: vec!["Site", "Date"],
            },
            Finding::DuplicateGame {
                earlier: EarlierGame {
                    game: 3,
                    file: Some("round5.pgn".into()),
                },
                white: "A".into(),
                black: "B".into(),
            },
            Finding::Unwritable(WriteError::UnknownToken {
                span: pgnkit::pgn::Span::default(),
            }),
        ];
        for finding in findings {
            let (en, fr) = (finding.explain(Locale::En), finding.explain(Locale::Fr));
            assert_eq!(finding.to_string(), en);
            assert!(!en.is_empty() && !fr.is_empty() && en != fr, "{en} / {fr}");
        }
    }

    #[test]
    fn round_ranges_are_cut_where_they_are_shown() {
        let many: Vec<(u64, u64)> = (0..100).map(|i| (2 * i + 1, 2 * i + 1)).collect();
        let gaps = RoundGaps::new(
            ("E".into(), String::new(), "2024".into()),
            many.clone(),
            99,
            false,
            many,
        );
        assert_eq!(gaps.gaps.len(), MAX_RANGES_SHOWN + 1);
        assert_eq!(
            gaps.explain(Locale::En),
            "E (?, 2024): rounds 1, 3, 5, 7, 9, 11, 13, 15, … missing; rounds present: 1, 3, 5, 7, 9, 11, 13, 15, …"
        );
    }
}
