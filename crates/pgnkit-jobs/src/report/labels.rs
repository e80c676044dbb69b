//! Every word of the report page that pgnkit writes itself, in English and French, in one table
//! ([`Label::text`]): a new language is a new column there. The problems' messages come from validate, in
//! the same [`Locale`].

use pgnkit::core::{Color, Termination};

pub(crate) use crate::messages::Locale;

/// A word or phrase of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(
    missing_docs,
    reason = "each variant is its English text, in Label::text"
)]
pub(crate) enum Label {
    Title,
    GeneratedBy,
    Files,
    File,
    Games,
    Game,
    Ok,
    Warnings,
    Errors,
    NotListed,
    Tournaments,
    NoTournament,
    Standings,
    Crosstable,
    Rank,
    Player,
    Rating,
    Points,
    Wins,
    Unfinished,
    Tiebreaks,
    Aro,
    Performance,
    Byes,
    Bye,
    Round,
    White,
    Black,
    Result,
    Status,
    Termination,
    Problems,
    Suggestion,
    Line,
    Column,
    Move,
    InVariation,
    PositionBefore,
    WhiteToMove,
    BlackToMove,
    Error,
    Warning,
    Note,
    StatusOk,
    StatusWarnings,
    StatusErrors,
    NoTermination,
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    SeventyFiveMoves,
    FivefoldRepetition,
    LeftOut,
    GamesNotListed,
    GamesNotDetailed,
    ProblemsNotShown,
    DiagramsNotDrawn,
    TournamentsNotShown,
    PlayersNotShown,
    CrosstableTooLarge,
    GamesWithoutEvent,
    GamesBeyondPlayerLimit,
    PairingsNotKept,
    ReadErrors,
    GridExplained,
    PerRoundExplained,
    ColourWhite,
    ColourBlack,
    NothingLeftOut,
    NoGames,
    UnfinishedNotScored,
    DuplicatesLeftOut,
    UnknownPlayerLeftOut,
    AgainstSelfLeftOut,
    RoundsNotShown,
    GamesInThoseRounds,
    AboutTournaments,
}

impl Label {
    /// The text in `lang`.
    pub(crate) fn text(self, lang: Locale) -> &'static str {
        use Label::*;
        let (en, fr) = match self {
            Title => ("PGN report", "Rapport PGN"),
            GeneratedBy => ("Written by pgnkit", "Écrit par pgnkit"),
            Files => ("Files", "Fichiers"),
            File => ("File", "Fichier"),
            Games => ("Games", "Parties"),
            Game => ("Game", "Partie"),
            Ok => ("OK", "Correctes"),
            Warnings => ("Warnings", "Avertissements"),
            Errors => ("Errors", "Erreurs"),
            NotListed => ("Not listed", "Non listées"),
            Tournaments => ("Tournaments", "Tournois"),
            NoTournament => (
                "No tournament: no game has an Event tag.",
                "Aucun tournoi : aucune partie n'a de balise Event.",
            ),
            Standings => ("Standings", "Classement"),
            Crosstable => ("Crosstable", "Grille américaine"),
            Rank => ("Rank", "Rang"),
            Player => ("Player", "Joueur"),
            Rating => ("Rating", "Elo"),
            Points => ("Points", "Points"),
            Wins => ("Wins", "Victoires"),
            Unfinished => ("Unfinished", "Non terminées"),
            Tiebreaks => ("Tie-breaks", "Départages"),
            Aro => ("Average opponent rating", "Elo moyen des adversaires"),
            Performance => ("Performance", "Performance"),
            Byes => ("Byes", "Exempts"),
            Bye => ("bye", "exempt"),
            Round => ("Round", "Ronde"),
            White => ("White", "Blancs"),
            Black => ("Black", "Noirs"),
            Result => ("Result", "Résultat"),
            Status => ("Status", "État"),
            Termination => ("Ended by rule", "Fin selon les règles"),
            Problems => ("Problems", "Problèmes"),
            Suggestion => ("Suggestion", "Suggestion"),
            Line => ("line", "ligne"),
            Column => ("column", "colonne"),
            Move => ("Move", "Coup"),
            InVariation => ("in a variation", "dans une variante"),
            PositionBefore => ("Position before", "Position avant"),
            WhiteToMove => ("White to move", "Trait aux Blancs"),
            BlackToMove => ("Black to move", "Trait aux Noirs"),
            Error => ("error", "erreur"),
            Warning => ("warning", "avertissement"),
            Note => ("note", "remarque"),
            StatusOk => ("ok", "correcte"),
            StatusWarnings => ("warnings", "avertissements"),
            StatusErrors => ("errors", "erreurs"),
            NoTermination => ("—", "—"),
            Checkmate => ("checkmate", "mat"),
            Stalemate => ("stalemate", "pat"),
            InsufficientMaterial => (
                "dead position (insufficient material)",
                "position morte (matériel insuffisant)",
            ),
            SeventyFiveMoves => ("75-move rule", "règle des 75 coups"),
            FivefoldRepetition => ("fivefold repetition", "quintuple répétition"),
            LeftOut => ("Left out of this page", "Absent de cette page"),
            GamesNotListed => (
                "Games not listed in the games table (counted in the files table)",
                "Parties absentes du tableau des parties (comptées dans celui des fichiers)",
            ),
            GamesNotDetailed => (
                "Games with problems whose problems are not shown",
                "Parties à problèmes dont les problèmes ne sont pas détaillés",
            ),
            ProblemsNotShown => (
                "Problems not shown in games that are shown",
                "Problèmes non détaillés dans les parties détaillées",
            ),
            DiagramsNotDrawn => ("Diagrams not drawn", "Diagrammes non dessinés"),
            TournamentsNotShown => ("Tournaments not shown", "Tournois non montrés"),
            PlayersNotShown => (
                "Players not shown in the standings",
                "Joueurs absents des classements",
            ),
            CrosstableTooLarge => (
                "Too many players for a crosstable on this page.",
                "Trop de joueurs pour une grille sur cette page.",
            ),
            GamesWithoutEvent => (
                "Games without an Event tag (no tournament)",
                "Parties sans balise Event (hors tournoi)",
            ),
            GamesBeyondPlayerLimit => (
                "Games left out of the standings (player limit)",
                "Parties hors classement (limite de joueurs)",
            ),
            PairingsNotKept => (
                "Games left out of the crosstables (pairing limit)",
                "Parties absentes des grilles (limite d'appariements)",
            ),
            ReadErrors => ("Inputs that could not be read", "Entrées illisibles"),
            GridExplained => (
                "Each row is a player, each column an opponent by rank: 1 a win, ½ a draw, 0 a loss, + a forfeit won, - a forfeit lost, * unfinished. Byes in TRF's codes: F full point, H half point, Z zero point, U pairing-allocated.",
                "Chaque ligne est un joueur, chaque colonne un adversaire par son rang : 1 gain, ½ nulle, 0 perte, + gain par forfait, - perte par forfait, * non terminée. Exempts selon les codes du TRF : F un point, H un demi-point, Z zéro point, U exempt de l'appariement.",
            ),
            PerRoundExplained => (
                "Each cell: the opponent's rank, the colour played (w white, b black) and the score (+ a forfeit won, - a forfeit lost); a bye in TRF's codes: F full point, H half point, Z zero point, U pairing-allocated.",
                "Chaque case : le rang de l'adversaire, la couleur jouée (b blancs, n noirs) et le score (+ gain par forfait, - perte par forfait) ; un exempt selon les codes du TRF : F un point, H un demi-point, Z zéro point, U exempt de l'appariement.",
            ),
            ColourWhite => ("w", "b"),
            ColourBlack => ("b", "n"),
            NothingLeftOut => ("Nothing.", "Rien."),
            NoGames => ("No game found.", "Aucune partie trouvée."),
            AboutTournaments => (
                "Warnings about whole tournaments",
                "Avertissements sur des tournois entiers",
            ),
            UnfinishedNotScored => (
                "Unfinished games (not scored)",
                "Parties non terminées (non comptées)",
            ),
            DuplicatesLeftOut => (
                "Duplicates of a game already counted (left out of the tables)",
                "Doublons d'une partie déjà comptée (hors des tableaux)",
            ),
            UnknownPlayerLeftOut => (
                "Games with no player's name on a side (left out of the tables)",
                "Parties sans nom de joueur d'un côté (hors des tableaux)",
            ),
            AgainstSelfLeftOut => (
                "Games of a player against himself (left out of the tables)",
                "Parties d'un joueur contre lui-même (hors des tableaux)",
            ),
            RoundsNotShown => (
                "Rounds not shown in this crosstable (beyond its first 60 columns)",
                "Rondes absentes de cette grille (au-delà de ses 60 premières colonnes)",
            ),
            GamesInThoseRounds => ("games in those rounds", "parties de ces rondes"),
        };
        match lang {
            Locale::En => en,
            Locale::Fr => fr,
        }
    }

    /// The label of a termination (`None`: the game did not end by rule).
    pub(crate) fn of_termination(t: Option<Termination>) -> Label {
        match t {
            None => Label::NoTermination,
            Some(Termination::Checkmate) => Label::Checkmate,
            Some(Termination::Stalemate) => Label::Stalemate,
            Some(Termination::InsufficientMaterial) => Label::InsufficientMaterial,
            Some(Termination::SeventyFiveMoves) => Label::SeventyFiveMoves,
            Some(Termination::FivefoldRepetition) => Label::FivefoldRepetition,
        }
    }

    /// "White to move" or "Black to move".
    pub(crate) fn to_move(side: Color) -> Label {
        match side {
            Color::White => Label::WhiteToMove,
            Color::Black => Label::BlackToMove,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_chess_words() {
        assert_eq!(Label::Standings.text(Locale::Fr), "Classement");
        assert_eq!(Label::Crosstable.text(Locale::Fr), "Grille américaine");
        assert_eq!(Label::Round.text(Locale::Fr), "Ronde");
        assert_eq!(Label::Game.text(Locale::Fr), "Partie");
        assert_eq!(Label::Tiebreaks.text(Locale::Fr), "Départages");
        assert_eq!(Label::Standings.text(Locale::En), "Standings");
        // The colour letters of a crosstable must tell the two sides apart in each language.
        for lang in Locale::ALL {
            assert_ne!(Label::ColourWhite.text(lang), Label::ColourBlack.text(lang));
        }
    }
}
