//! Explanations in the reader's language: why a move is illegal, what the reader found, how a game ended,
//! written in English or French.
//!
//! The data types ([`IllegalReason`], [`SanError`], [`DiagnosticKind`]...) say what is wrong; their
//! `Display` is the English text. [`Explain::explain`] gives the same text in a chosen [`Locale`], with the
//! language's piece names ("le cavalier en f3"). Identifiers meant for programs (`kind`s, JSON keys) never
//! change with the locale: only text meant for people does.
//!
//! ```
//! use pgnkit::explain::{Explain, Locale};
//! use pgnkit::notation::San;
//! use pgnkit::Position;
//!
//! let err = San::from_ascii(b"Nd4").unwrap().to_move(&Position::new()).unwrap_err();
//! assert_eq!(err.explain(Locale::En), "no knight can reach d4");
//! assert_eq!(err.explain(Locale::Fr), "aucun cavalier ne peut aller en d4");
//! ```

use std::fmt::Write;

use crate::core::fen::{Counter, CounterProblem, FenError, FenErrorKind};
use crate::core::{
    CastlingProblem, Color, EnPassantProblem, File, PositionError, Rank, Role, Square, Termination,
};
use crate::notation::{CastlingError, IllegalReason, Language, Leniency, PieceAt, SanError, Slip};
use crate::notation::{SyntaxError, SyntaxErrorKind};
use crate::pgn::{DiagnosticKind, MAX_VARIATION_DEPTH};
use crate::walk::SetupRepair;

/// The language of the messages meant for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Locale {
    /// English (the default).
    #[default]
    En,
    /// French, with the French piece names (roi, dame, tour, fou, cavalier, pion).
    Fr,
}

impl Locale {
    /// Every locale, in `--messages` order.
    pub const ALL: [Locale; 2] = [Locale::En, Locale::Fr];

    /// The code: `en`, `fr`.
    pub const fn code(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Fr => "fr",
        }
    }

    /// Reads a code (`en`, `fr`, case-insensitive).
    pub fn from_code(code: &str) -> Option<Locale> {
        Locale::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code))
    }

    /// The locale POSIX environment values ask for: the first set and non-empty of `LC_ALL`, `LC_MESSAGES`,
    /// `LANG` (in that order of precedence) decides; `fr`, `fr_FR.UTF-8`, `fr_CA`... give French; anything
    /// else (`C`, `en_GB`, unset) English.
    ///
    /// ```
    /// use pgnkit::explain::Locale;
    /// assert_eq!(Locale::from_posix(None, None, Some("fr_FR.UTF-8")), Locale::Fr);
    /// assert_eq!(Locale::from_posix(Some("C"), None, Some("fr_FR.UTF-8")), Locale::En);
    /// assert_eq!(Locale::from_posix(None, Some(""), Some("fr_BE")), Locale::Fr);
    /// ```
    pub fn from_posix(
        lc_all: Option<&str>,
        lc_messages: Option<&str>,
        lang: Option<&str>,
    ) -> Locale {
        let chosen = [lc_all, lc_messages, lang]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty());
        match chosen {
            Some(v) => {
                let language = v.split(['_', '.', '@']).next().unwrap_or("");
                Locale::from_code(language).unwrap_or(Locale::En)
            }
            None => Locale::En,
        }
    }
}

/// Text for people, in a chosen locale.
pub trait Explain {
    /// The text in `locale` (in English it is the type's `Display`).
    fn explain(&self, locale: Locale) -> String;
}

/// French grammar of a piece name: the noun and whether it is feminine (dame, tour).
fn french_noun(role: Role) -> (&'static str, bool) {
    match role {
        Role::Pawn => ("pion", false),
        Role::Knight => ("cavalier", false),
        Role::Bishop => ("fou", false),
        Role::Rook => ("tour", true),
        Role::Queen => ("dame", true),
        Role::King => ("roi", false),
    }
}

/// The French name of a piece, lower case ("cavalier").
pub fn french_role(role: Role) -> &'static str {
    french_noun(role).0
}

/// "le cavalier en f3", "la dame en d1".
fn french_piece_at(p: PieceAt) -> String {
    let (noun, feminine) = french_noun(p.role);
    format!(
        "{} {noun} en {}",
        if feminine { "la" } else { "le" },
        p.square
    )
}

/// Agrees a French adjective or participle with a piece: "bloqué" → "bloquée" for a queen or rook.
fn agree(word: &str, role: Role) -> String {
    if french_noun(role).1 {
        format!("{word}e")
    } else {
        word.to_string()
    }
}

fn french_origin(text: &mut String, file: Option<File>, rank: Option<Rank>) {
    let _ = match (file, rank) {
        (Some(file), Some(rank)) => write!(text, " depuis {}", Square::from_coords(file, rank)),
        (Some(file), None) => write!(text, " depuis la colonne {}", file.char()),
        (None, Some(rank)) => write!(text, " depuis la rangée {}", rank.char()),
        (None, None) => Ok(()),
    };
}

/// The French adjective of a piece-letter language as it follows "notation", feminine ("notation française",
/// "notation figurine").
pub fn french_notation_adjective(lang: Language) -> &'static str {
    match lang {
        Language::En => "anglaise",
        Language::Fr => "française",
        Language::De => "allemande",
        Language::Nl => "néerlandaise",
        Language::Es => "espagnole",
        Language::It => "italienne",
        Language::Pt => "portugaise",
        Language::Cs => "tchèque",
        Language::Pl => "polonaise",
        Language::Hu => "hongroise",
        Language::Fi => "finnoise",
        Language::Ro => "roumaine",
        Language::Da => "danoise",
        Language::No => "norvégienne",
        Language::Sv => "suédoise",
        Language::Figurine => "figurine",
    }
}

/// The letters of `lang` as a sentence names them: "English piece letters", "figurines"; in French "en
/// notation anglaise", "en notation figurine".
fn letters_of(lang: Language, locale: Locale) -> String {
    match (lang, locale) {
        (Language::Figurine, Locale::En) => "figurines".into(),
        (lang, Locale::En) => format!("{} piece letters", lang.name()),
        (lang, Locale::Fr) => format!("en notation {}", french_notation_adjective(lang)),
    }
}

/// The suggestion for a move token that failed, in `locale`: the move it most plausibly meant, `meant`,
/// written as the game writes its moves (in `game`'s letters), and why. A token in another language's letters
/// says which letters it was written in and what it is in the game's, so that the two spellings are not
/// taken for one another; any other slip is named in parentheses.
///
/// ```
/// use pgnkit::explain::{Locale, did_you_mean};
/// use pgnkit::notation::{Language, Slip};
///
/// let said = did_you_mean("Nc6", "Cc6", Slip::Language(Language::En), Language::Fr, Locale::En);
/// assert_eq!(
///     said,
///     "did you mean Cc6? Nc6 is written in English piece letters; in the French piece letters of this game, that move is Cc6"
/// );
/// assert_eq!(
///     did_you_mean("nf3", "Nf3", Slip::LetterCase, Language::En, Locale::En),
///     "did you mean Nf3 (wrong letter case)?"
/// );
/// ```
pub fn did_you_mean(
    written: &str,
    meant: &str,
    slip: Slip,
    game: Language,
    locale: Locale,
) -> String {
    match (slip, locale) {
        (Slip::Language(other), Locale::En) => format!(
            "did you mean {meant}? {written} is written in {}; in the {} of this game, that move is {meant}",
            letters_of(other, locale),
            letters_of(game, locale)
        ),
        (Slip::Language(other), Locale::Fr) => format!(
            "vouliez-vous dire {meant} ? {written} est écrit {} ; {}, celle de cette partie, ce coup s'écrit {meant}",
            letters_of(other, locale),
            letters_of(game, locale)
        ),
        (_, Locale::En) => format!("did you mean {meant} ({})?", slip.explain(locale)),
        (_, Locale::Fr) => format!("vouliez-vous dire {meant} ({}) ?", slip.explain(locale)),
    }
}

/// The French name of a piece-letter language ("français"), as a noun ("lettres de plusieurs langues :
/// anglais, français"); after "notation", see [`french_notation_adjective`].
pub fn french_language_name(lang: Language) -> &'static str {
    match lang {
        Language::En => "anglais",
        Language::Fr => "français",
        Language::De => "allemand",
        Language::Nl => "néerlandais",
        Language::Es => "espagnol",
        Language::It => "italien",
        Language::Pt => "portugais",
        Language::Cs => "tchèque",
        Language::Pl => "polonais",
        Language::Hu => "hongrois",
        Language::Fi => "finnois",
        Language::Ro => "roumain",
        Language::Da => "danois",
        Language::No => "norvégien",
        Language::Sv => "suédois",
        Language::Figurine => "figurines",
    }
}

impl Explain for PieceAt {
    fn explain(&self, locale: Locale) -> String {
        match locale {
            Locale::En => self.to_string(),
            Locale::Fr => french_piece_at(*self),
        }
    }
}

impl Explain for CastlingError {
    fn explain(&self, locale: Locale) -> String {
        if locale == Locale::En {
            return self.to_string();
        }
        let p = |p: PieceAt| french_piece_at(p);
        match *self {
            CastlingError::KingMoved => "le roi a déjà bougé".into(),
            CastlingError::RookMoved { rook: Some(sq) } => {
                format!("la tour en {sq} a bougé ou n'est plus là")
            }
            CastlingError::RookMoved { rook: None } => "cette tour a bougé ou n'est plus là".into(),
            CastlingError::RightsLost { rook: Some(sq) } => {
                format!("le roi ou la tour en {sq} a bougé")
            }
            CastlingError::RightsLost { rook: None } => "le roi ou cette tour a bougé".into(),
            CastlingError::Occupied { square } => format!("la case {square} est occupée"),
            CastlingError::InCheck { checker } => {
                format!("le roi est en échec par {}", p(checker))
            }
            CastlingError::PassesThroughAttack { square, attacker } => format!(
                "le roi passe par la case {square}, attaquée par {}",
                p(attacker)
            ),
            CastlingError::LandsInCheck { square, attacker } => format!(
                "le roi arriverait en échec sur la case {square}, attaquée par {}",
                p(attacker)
            ),
        }
    }
}

impl Explain for IllegalReason {
    fn explain(&self, locale: Locale) -> String {
        if locale == Locale::En {
            return self.to_string();
        }
        let p = |p: PieceAt| french_piece_at(p);
        match *self {
            IllegalReason::NoPieceCanReach {
                role,
                to,
                file,
                rank,
                blocked,
            } => {
                let (noun, feminine) = french_noun(role);
                let mut text = format!(
                    "{} {noun} ne peut aller en {to}",
                    if feminine { "aucune" } else { "aucun" }
                );
                french_origin(&mut text, file, rank);
                if let Some(b) = blocked {
                    let _ = write!(
                        text,
                        " ({} est {} par {})",
                        p(b.piece),
                        agree("bloqué", b.piece.role),
                        p(b.blocker)
                    );
                }
                text
            }
            IllegalReason::OwnPieceOnTarget { to, piece } => {
                let (noun, feminine) = french_noun(piece.role);
                let colour = match piece.color {
                    Color::White => "blanc",
                    Color::Black => "noir",
                };
                format!(
                    "illégal : la case {to} est occupée par {} {noun} {} du même camp",
                    if feminine { "une" } else { "un" },
                    agree(colour, piece.role)
                )
            }
            IllegalReason::Pinned {
                piece,
                king,
                pinner,
            } => format!(
                "illégal : {} est {} sur le roi en {king} par {}",
                p(piece),
                agree("cloué", piece.role),
                p(pinner)
            ),
            IllegalReason::KingIntoCheck { attacker, .. } => {
                format!("illégal : le roi serait en échec par {}", p(attacker))
            }
            IllegalReason::IgnoresCheck {
                checker,
                second: None,
            } => format!(
                "illégal : le roi est en échec par {} et ce coup n'y pare pas",
                p(checker)
            ),
            IllegalReason::IgnoresCheck {
                checker,
                second: Some(second),
            } => format!(
                "illégal : le roi est en échec double par {} et {} ; seul un coup du roi y pare",
                p(checker),
                p(second)
            ),
            IllegalReason::ExposesKing { attacker } => format!(
                "illégal : le coup mettrait le roi en échec par {}",
                p(attacker)
            ),
            IllegalReason::Castling { reason, .. } => {
                format!("roque interdit : {}", reason.explain(locale))
            }
            IllegalReason::PawnCannotCapture { to, file, rank } => {
                let mut text = format!("aucun pion ne peut prendre en {to}");
                french_origin(&mut text, file, rank);
                text
            }
            IllegalReason::NothingToCapture {
                to,
                en_passant_exposes,
            } => {
                let mut text = format!("il n'y a aucune pièce à prendre en {to}");
                if let Some(attacker) = en_passant_exposes {
                    let _ = write!(
                        text,
                        " (et la prise en passant y mettrait le roi en échec par {})",
                        p(attacker)
                    );
                }
                text
            }
            IllegalReason::MustPromote { .. } => {
                "un pion qui atteint la dernière rangée doit être promu".into()
            }
            IllegalReason::PromotionNotOnLastRank { .. } => {
                "la promotion n'est possible que sur la dernière rangée".into()
            }
            IllegalReason::NotAPawn { role } => {
                let (noun, feminine) = french_noun(role);
                format!(
                    "seul un pion peut être promu, pas {} {noun}",
                    if feminine { "une" } else { "un" }
                )
            }
            IllegalReason::NullMove => {
                "un coup nul (--) passe le trait ; ce n'est pas un coup d'échecs".into()
            }
        }
    }
}

impl Explain for SanError {
    fn explain(&self, locale: Locale) -> String {
        match (*self, locale) {
            (_, Locale::En) => self.to_string(),
            (SanError::Illegal(reason), _) => reason.explain(locale),
            (SanError::Ambiguous { role, to, from }, Locale::Fr) => {
                let (noun, feminine) = french_noun(role);
                let n = from.count() as usize;
                let mut text = format!(
                    "ambigu : {} {noun}s en ",
                    if n == 2 { "les deux" } else { "les" }
                );
                for (i, sq) in from.enumerate() {
                    let sep = match i {
                        0 => "",
                        _ if i + 1 == n => " et ",
                        _ => ", ",
                    };
                    let _ = write!(text, "{sep}{sq}");
                }
                let all = match (n, feminine) {
                    (2, _) => "",
                    (_, true) => " toutes",
                    (_, false) => " tous",
                };
                let _ = write!(text, " peuvent{all} aller en {to}");
                text
            }
        }
    }
}

impl Explain for SyntaxErrorKind {
    fn explain(&self, locale: Locale) -> String {
        if locale == Locale::En {
            return self.to_string();
        }
        match *self {
            SyntaxErrorKind::Empty => "coup vide".into(),
            SyntaxErrorKind::UnknownPiece { letter, lang } => format!(
                "'{letter}' n'est pas une lettre de pièce en notation {}",
                french_notation_adjective(lang)
            ),
            SyntaxErrorKind::Unexpected(b) if b.is_ascii_graphic() => {
                format!("'{}' inattendu", b as char)
            }
            SyntaxErrorKind::Unexpected(b) => format!("octet 0x{b:02x} inattendu"),
            SyntaxErrorKind::MissingDestination => "la case d'arrivée manque".into(),
            SyntaxErrorKind::IncompleteOrigin => {
                "'-' demande la case de départ complète (comme e2-e4)".into()
            }
            SyntaxErrorKind::MissingPromotion => "'=' doit être suivi d'une pièce".into(),
            SyntaxErrorKind::BadPromotion(role) => {
                let (noun, feminine) = french_noun(role);
                format!(
                    "un pion ne peut pas être promu en {} {noun}",
                    if feminine { "une" } else { "un" }
                )
            }
            SyntaxErrorKind::PieceCannotPromote(role) => {
                let (noun, feminine) = french_noun(role);
                format!(
                    "seuls les pions sont promus, pas {} {noun}",
                    if feminine { "une" } else { "un" }
                )
            }
            SyntaxErrorKind::BadCastling => "le roque s'écrit O-O ou O-O-O".into(),
        }
    }
}

impl Explain for SyntaxError {
    fn explain(&self, locale: Locale) -> String {
        match locale {
            Locale::En => self.to_string(),
            Locale::Fr => format!("{} (à l'octet {})", self.kind.explain(locale), self.offset),
        }
    }
}

impl Explain for DiagnosticKind {
    fn explain(&self, locale: Locale) -> String {
        if locale == Locale::En {
            return self.to_string();
        }
        match self {
            DiagnosticKind::UnknownToken => "texte non reconnu dans les coups",
            DiagnosticKind::MissingTagName => "paire de balises sans nom",
            DiagnosticKind::MissingTagValue => "paire de balises sans valeur entre guillemets",
            DiagnosticKind::MissingTagEnd => "paire de balises non fermée par ']'",
            DiagnosticKind::UnterminatedTagValue => "valeur de balise non fermée sur sa ligne",
            DiagnosticKind::UnterminatedComment => "commentaire non fermé par '}'",
            DiagnosticKind::InvalidNag => "un NAG s'écrit '$' suivi d'un nombre de 0 à 255",
            DiagnosticKind::UnexpectedVariationEnd => "')' sans variante ouverte",
            DiagnosticKind::VariationWithoutMove => "une variante doit suivre un coup",
            DiagnosticKind::UnclosedVariation => "la partie se termine dans une variante",
            DiagnosticKind::VariationTooDeep => {
                return format!(
                    "variante imbriquée sur plus de {MAX_VARIATION_DEPTH} niveaux : ses coups ne sont pas vérifiés"
                );
            }
            DiagnosticKind::GameTooLarge => "partie de plus de 4 Gio",
            DiagnosticKind::MissingResult => "pas de marque de fin (1-0, 0-1, 1/2-1/2, *)",
            DiagnosticKind::UnescapedQuoteInTagValue => {
                "'\"' non échappé gardé dans la valeur de la balise"
            }
            DiagnosticKind::EscapedBraceInComment => {
                "'\\}' lu comme une accolade échappée dans le commentaire"
            }
            DiagnosticKind::SeparateEllipsis => "'...' séparé de son numéro de coup, ignoré",
            DiagnosticKind::ResultSpelling => "une nulle écrite autrement que 1/2-1/2",
            DiagnosticKind::UnicodeSpace => {
                "une espace insécable ou autre espace Unicode lue comme une espace"
            }
        }
        .into()
    }
}

impl Explain for Slip {
    fn explain(&self, locale: Locale) -> String {
        match (self, locale) {
            (_, Locale::En) => self.to_string(),
            (Slip::LetterCase, Locale::Fr) => "majuscule ou minuscule erronée".into(),
            (Slip::Language(lang), Locale::Fr) => {
                format!(
                    "lettres de pièces en notation {}",
                    french_notation_adjective(*lang)
                )
            }
            (Slip::Disambiguation, Locale::Fr) => "précision de départ erronée ou manquante".into(),
            (Slip::CheckMark, Locale::Fr) => "marque d'échec erronée ou manquante".into(),
            (Slip::MissingPieceLetter, Locale::Fr) => "lettre de pièce manquante".into(),
            (Slip::CastlingAsKingMove, Locale::Fr) => "roque écrit comme un coup du roi".into(),
        }
    }
}

impl Explain for Leniency {
    fn explain(&self, locale: Locale) -> String {
        if locale == Locale::En {
            return self.to_string();
        }
        match self {
            Leniency::CastlingZeros => "roque écrit avec des zéros",
            Leniency::EnPassantSuffix => "suffixe 'e.p.'",
            Leniency::PromotionWithoutEquals => "promotion sans '='",
            Leniency::LowercasePromotion => "pièce de promotion en minuscule",
            Leniency::DoublePlusMate => "'++' pour le mat",
            Leniency::PawnLetter => "lettre du pion écrite",
            Leniency::ColonCapture => "':' pour une prise",
            Leniency::LongAlgebraic => "notation algébrique longue (case de départ écrite)",
            Leniency::OverDisambiguated => "précision de départ inutile",
            Leniency::MissingCapture => "prise sans 'x'",
            Leniency::SpuriousCapture => "'x' sur un coup qui ne prend rien",
            Leniency::MissingPawnFile => "prise de pion sans la colonne du pion",
            Leniency::MissingCheckMark => "échec ou mat non marqué",
            Leniency::SpuriousCheckMark => "marque d'échec sur un coup qui ne donne pas échec",
            Leniency::WrongCheckMark => "'+' et '#' confondus",
            Leniency::LowercasePieceLetter => "lettre de pièce en minuscule",
            Leniency::CoordinateMove => "coup écrit en coordonnées",
            Leniency::ParenthesizedPromotion => "pièce de promotion entre parenthèses",
        }
        .into()
    }
}

impl Explain for SetupRepair {
    fn explain(&self, locale: Locale) -> String {
        match (self, locale) {
            (_, Locale::En) => self.to_string(),
            (SetupRepair::HalfmoveClockReset { square, halfmoves }, Locale::Fr) => format!(
                "la case en passant {square} de la balise FEN dit qu'un pion vient d'avancer de deux cases, mais son compteur de demi-coups vaut {halfmoves} : lu comme 0"
            ),
        }
    }
}

/// "les Blancs", "les Noirs" (the side as a subject: verbs agree in the plural).
fn french_side(color: Color) -> &'static str {
    match color {
        Color::White => "les Blancs",
        Color::Black => "les Noirs",
    }
}

impl Explain for CastlingProblem {
    fn explain(&self, locale: Locale) -> String {
        match (self, locale) {
            (_, Locale::En) => self.to_string(),
            (CastlingProblem::NoRook, Locale::Fr) => "aucune tour de cette couleur n'y est".into(),
            (CastlingProblem::KingNotOnBackRank, Locale::Fr) => {
                "le roi n'est pas sur sa première rangée".into()
            }
            (CastlingProblem::NotStandardSquares, Locale::Fr) => {
                "aux échecs classiques, on ne roque qu'avec le roi en e1/e8 et les tours sur les colonnes a et h"
                    .into()
            }
            (CastlingProblem::TwoRooksOneSide, Locale::Fr) => {
                "un autre droit nomme déjà une tour de ce côté du roi".into()
            }
            (CastlingProblem::NotOnBackRank, Locale::Fr) => {
                "les tours qui roquent sont sur la première rangée".into()
            }
        }
    }
}

impl Explain for PositionError {
    fn explain(&self, locale: Locale) -> String {
        if locale == Locale::En {
            return self.to_string();
        }
        match self {
            PositionError::MissingKing(c) => format!("{} n'ont pas de roi", french_side(*c)),
            PositionError::TooManyKings(c, n) => format!("{} ont {n} rois", french_side(*c)),
            PositionError::PawnOnBackRank(sq) => {
                format!("pion en {sq} : un pion ne peut pas être sur la rangée 1 ou 8")
            }
            PositionError::TooManyPawns(c, n) => {
                format!("{} ont {n} pions (au plus 8)", french_side(*c))
            }
            PositionError::TooManyPieces(c, n) => {
                format!("{} ont {n} pièces (au plus 16)", french_side(*c))
            }
            PositionError::TooMuchMaterial {
                color,
                promoted,
                missing_pawns,
            } => format!(
                "{} ont {promoted} pièces de plus que le jeu de départ, mais seuls {missing_pawns} pions ont pu être promus",
                french_side(*color)
            ),
            PositionError::InvalidCastlingRight {
                color,
                rook_square,
                problem,
            } => format!(
                "droit de roque des {} avec la tour en {rook_square} : {}",
                match color {
                    Color::White => "Blancs",
                    Color::Black => "Noirs",
                },
                problem.explain(locale)
            ),
            PositionError::AsymmetricCastling => {
                "les deux camps gardent des droits de roque mais leurs rois ou leurs tours sont sur des colonnes différentes"
                    .into()
            }
            PositionError::InvalidEnPassant { square, problem } => match problem {
                EnPassantProblem::WrongRank => {
                    let rank = if square.rank() == Rank::Sixth { 3 } else { 6 };
                    format!(
                        "la case en passant {square} n'est pas sur la bonne rangée pour le camp au trait (rangée {rank} attendue)"
                    )
                }
                EnPassantProblem::NoPawn => format!(
                    "case en passant {square} : aucun pion devant elle ne vient d'avancer de deux cases"
                ),
                EnPassantProblem::SquaresOccupied => format!(
                    "case en passant {square} : elle et la case d'où vient le pion doivent être vides"
                ),
            },
            PositionError::EnPassantWithHalfmoves { square, halfmoves } => format!(
                "la case en passant {square} dit qu'un pion vient d'avancer, mais le compteur de demi-coups vaut {halfmoves}, pas 0"
            ),
            PositionError::OppositeCheck { king, attacker } => format!(
                "le camp qui n'a pas le trait est en échec (roi en {king} attaqué depuis {attacker})"
            ),
            PositionError::TooManyCheckers(n) => {
                format!("le roi est attaqué par {n} pièces (au plus 2)")
            }
            PositionError::ImpossibleCheck { king, checkers } => {
                let from: Vec<String> = (*checkers).map(|sq| sq.to_string()).collect();
                format!(
                    "l'échec au roi en {king} depuis {} n'a pu être donné par aucun dernier coup",
                    from.join(" et ")
                )
            }
        }
    }
}

impl Explain for FenErrorKind {
    fn explain(&self, locale: Locale) -> String {
        if locale == Locale::En {
            return self.to_string();
        }
        match self {
            FenErrorKind::FieldCount(n) => {
                format!("6 champs attendus (ou 4 en EPD) séparés par des espaces, {n} trouvés")
            }
            FenErrorKind::PlacementChar(c) => format!(
                "placement des pièces erroné : {c:?} n'est ni une lettre de pièce (PNBRQK, pnbrqk), ni un chiffre de 1 à 8, ni '/'"
            ),
            FenErrorKind::AdjacentDigits => {
                "placement des pièces erroné : deux chiffres de suite (une suite de cases vides s'écrit d'un seul chiffre)"
                    .into()
            }
            FenErrorKind::RankLength { rank, squares } => format!(
                "placement des pièces erroné : la rangée {} a {squares} cases, pas 8",
                rank.char()
            ),
            FenErrorKind::RankCount(n) => {
                format!("placement des pièces erroné : {n} rangées, pas 8")
            }
            FenErrorKind::Side(s) => format!("le trait doit être 'w' ou 'b', pas {s:?}"),
            FenErrorKind::CastlingChar(c) => format!(
                "champ de roque erroné : {c:?} n'est ni K, Q, k, q ni une lettre de colonne (ou '-' seul)"
            ),
            FenErrorKind::CastlingRepeated(c) => {
                format!("champ de roque erroné : {c:?} répète un droit")
            }
            FenErrorKind::CastlingOrder(s) => format!(
                "champ de roque erroné : {s:?} n'est pas dans l'ordre (droits des Blancs d'abord, K avant Q)"
            ),
            FenErrorKind::EnPassant(s) => {
                format!("le champ en passant doit être '-' ou une case, pas {s:?}")
            }
            FenErrorKind::Counter {
                counter,
                text,
                problem,
            } => {
                let name = match counter {
                    Counter::Halfmoves => "le compteur de demi-coups",
                    Counter::Fullmoves => "le numéro de coup",
                };
                let why = match problem {
                    CounterProblem::NotANumber => "n'est pas un nombre",
                    CounterProblem::TooLarge => "est trop grand",
                    CounterProblem::LeadingZeros => "commence par des zéros",
                    CounterProblem::Zero => "doit valoir au moins 1",
                };
                format!("{name} {text:?} {why}")
            }
            FenErrorKind::Position(e) => e.explain(locale),
        }
    }
}

impl Explain for FenError {
    fn explain(&self, locale: Locale) -> String {
        match locale {
            Locale::En => self.to_string(),
            Locale::Fr => format!("colonne {} : {}", self.column, self.kind.explain(locale)),
        }
    }
}

impl Explain for Termination {
    fn explain(&self, locale: Locale) -> String {
        match locale {
            Locale::En => self.describe().to_string(),
            Locale::Fr => match self {
                Termination::Checkmate => "mat",
                Termination::Stalemate => "pat",
                Termination::InsufficientMaterial => "position morte (matériel insuffisant)",
                Termination::SeventyFiveMoves => "règle des 75 coups",
                Termination::FivefoldRepetition => "quintuple répétition",
            }
            .to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::core::fen;
    use crate::notation::San;

    fn error(fen_text: &str, san: &str) -> SanError {
        let pos: Position = fen::parse_fen(fen_text).unwrap();
        San::from_ascii(san.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap_err()
    }

    #[test]
    fn french_names_agree_with_their_piece() {
        // A pinned queen is "clouée", a pinned knight "cloué".
        let queen = error("4k3/8/8/8/4r3/8/4Q3/4K3 w - - 0 1", "Qd3");
        assert_eq!(
            queen.explain(Locale::Fr),
            "illégal : la dame en e2 est clouée sur le roi en e1 par la tour en e4"
        );
        let knight = error("4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1", "Nc3");
        assert!(
            knight
                .explain(Locale::Fr)
                .starts_with("illégal : le cavalier en e2 est cloué sur"),
            "{}",
            knight.explain(Locale::Fr)
        );
        // English is the Display text, unchanged.
        assert_eq!(queen.explain(Locale::En), queen.to_string());
    }

    #[test]
    fn ambiguity_and_castling_in_french() {
        let rooks = error("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rd1");
        assert_eq!(
            rooks.explain(Locale::Fr),
            "ambigu : les deux tours en a1 et h1 peuvent aller en d1"
        );
        let castle = error("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O");
        assert_eq!(
            castle.explain(Locale::Fr),
            "roque interdit : le roi ou la tour en h1 a bougé"
        );
        let none = error("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qd4");
        assert_eq!(none.explain(Locale::Fr), "aucune dame ne peut aller en d4");
    }

    #[test]
    fn fen_problems_in_french() {
        let invalid = fen::parse_fen("8/8/8/8 w - - 0 1").unwrap_err();
        let text: Vec<String> = invalid
            .problems()
            .iter()
            .map(|p| p.explain(Locale::Fr))
            .collect();
        assert_eq!(
            text,
            ["colonne 8 : placement des pièces erroné : 4 rangées, pas 8"]
        );
        let kings = fen::parse_fen("8/8/8/8/8/8/8/K6K w - - 0 1").unwrap_err();
        let text: Vec<String> = kings
            .problems()
            .iter()
            .map(|p| p.explain(Locale::Fr))
            .collect();
        assert!(
            text.iter().any(|t| t.contains("les Blancs ont 2 rois")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|t| t.contains("les Noirs n'ont pas de roi")),
            "{text:?}"
        );
    }

    #[test]
    fn french_agrees_with_notation_and_with_letters() {
        use crate::notation::SyntaxErrorKind;
        let unknown = SyntaxErrorKind::UnknownPiece {
            letter: 'N',
            lang: Language::Fr,
        };
        assert_eq!(
            unknown.explain(Locale::Fr),
            "'N' n'est pas une lettre de pièce en notation française"
        );
        let unknown = SyntaxErrorKind::UnknownPiece {
            letter: 'C',
            lang: Language::En,
        };
        assert!(
            unknown
                .explain(Locale::Fr)
                .ends_with("en notation anglaise"),
            "{}",
            unknown.explain(Locale::Fr)
        );
        assert_eq!(
            Slip::Language(Language::En).explain(Locale::Fr),
            "lettres de pièces en notation anglaise"
        );
        for lang in Language::ALL {
            let adjective = french_notation_adjective(lang);
            assert!(
                !["anglais", "français", "allemand", "espagnol"].contains(&adjective),
                "{adjective}: a masculine form after the feminine \"notation\""
            );
        }
    }

    #[test]
    fn a_suggestion_in_another_language_says_what_was_written_and_what_it_is_here() {
        let slip = Slip::Language(Language::En);
        // Nc6 written in a French game: Cc6 is the French spelling, Nc6 the English one.
        let english = did_you_mean("Nc6", "Cc6", slip, Language::Fr, Locale::En);
        assert!(
            english.contains("Nc6 is written in English piece letters")
                && english.contains("in the French piece letters of this game, that move is Cc6"),
            "{english}"
        );
        let french = did_you_mean("Nc6", "Cc6", slip, Language::Fr, Locale::Fr);
        assert_eq!(
            french,
            "vouliez-vous dire Cc6 ? Nc6 est écrit en notation anglaise ; en notation française, celle de cette partie, ce coup s'écrit Cc6"
        );
        // The other way round, a game read in English letters.
        let other = did_you_mean(
            "Cf3",
            "Nf3",
            Slip::Language(Language::Fr),
            Language::En,
            Locale::En,
        );
        assert!(
            other.contains("Cf3 is written in French piece letters")
                && other.contains("in the English piece letters of this game, that move is Nf3"),
            "{other}"
        );
        assert_eq!(
            did_you_mean("nf3", "Nf3", Slip::LetterCase, Language::En, Locale::Fr),
            "vouliez-vous dire Nf3 (majuscule ou minuscule erronée) ?"
        );
    }

    #[test]
    fn locale_from_the_environment() {
        assert_eq!(Locale::from_posix(None, None, None), Locale::En);
        assert_eq!(
            Locale::from_posix(None, Some("fr_CA.UTF-8"), Some("en_US")),
            Locale::Fr
        );
        assert_eq!(
            Locale::from_posix(None, Some("en_US"), Some("fr_FR")),
            Locale::En
        );
        assert_eq!(Locale::from_posix(Some("fr"), None, None), Locale::Fr);
        assert_eq!(Locale::from_posix(None, None, Some("de_DE")), Locale::En);
        assert_eq!(Locale::from_code("FR"), Some(Locale::Fr));
        assert_eq!(Locale::from_code("de"), None);
    }

    #[test]
    fn every_diagnostic_and_termination_has_french_text() {
        for t in [
            Termination::Checkmate,
            Termination::Stalemate,
            Termination::InsufficientMaterial,
            Termination::SeventyFiveMoves,
            Termination::FivefoldRepetition,
        ] {
            assert_ne!(t.explain(Locale::Fr), t.explain(Locale::En));
        }
        assert_eq!(
            DiagnosticKind::UnterminatedComment.explain(Locale::Fr),
            "commentaire non fermé par '}'"
        );
    }
}
