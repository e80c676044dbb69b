//! `--help` in French (`--messages fr`, or a French `LANG`): the descriptions of the commands and of the
//! options of the commands an arbiter or a club runs (validate, convert, stats, standings, report), put on
//! the English command line that clap builds from the code. Option names and values never change.

use clap::Command;

/// (subcommand, its one-line description, (argument id, its help)...).
type Page = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const INPUTS: &str = "Fichiers PGN ou répertoires (on y cherche les .pgn, .pgn.gz, .pgn.zst, .parquet) ; `-` lit l'entrée standard";
const JOBS: &str = "Fils de calcul (par défaut, ou 0 : tous les cœurs ; au plus un par cœur)";
const INPUT_FORMAT: &str = "Ce que contiennent les entrées : par défaut du Parquet quand un fichier commence comme tel (des lignes de parties : colonnes de balises et `movetext`, ou une colonne `pgn`), sinon du PGN";
const OUTPUT: &str = "Écrire dans FICHIER au lieu de la sortie standard (FICHIER.gz, FICHIER.zst : compressé). FICHIER n'est remplacé que si l'exécution finit par 0 ou 1, jamais s'il est une entrée";
const LANG: &str = "Lettres des pièces des coups : `auto` les détecte partie par partie, ou un code de langue (en, fr, de, nl, es, it, pt, cs, pl, hu, fi, ro, da, no, sv, figurine)";
const COLOR: &str = "Quand colorer";
const MOVELESS: &str = "Ce qu'est une partie décidée sans aucun coup : `forfeit` (forfait, TRF + et -), `unrated` (moins d'un coup : W, D, L) ou `played` (ses coups manquent). Une balise Termination qui dit forfait en est un quoi que dise cette option";
const TIEBREAKS: &str = "Départages après les points, dans l'ordre, par leurs codes FIDE (C.07), séparés par des virgules : PTS, DE, WIN, WON, BPG, BWG, GE, PS, BH, FB, AOB, SB, KS, ARO, TPR, PTP, APRO, APPO, avec un modificateur /C1, /C2 (coupe) ou /M1, /M2 (médiane), par exemple DE,BH/C1,BH,SB : la liste du règlement du tournoi. Par défaut : une liste dans l'ordre que la FIDE a recommandé pour le genre de chaque tournoi (toutes rondes : DE,WIN,SB,KS ; système suisse : BH/C1,BH,DE,ARO/C1,WIN,BWG,BPG,SB). Les anciens noms buchholz_cut1, buchholz, sonneborn_berger, wins et direct_encounter se lisent BH/C1, BH, SB, WIN, DE";
const ALLOCATED_BYE: &str = "Quels byes d'un point sont le bye attribué par l'appariement (TRF U) : `none` (le point d'une partie de bye est un bye demandé, F ; une ronde sans partie une absence, Z), `bye-game` (le point d'une partie de bye est U) ou `unpaired` (de plus, le seul joueur sans partie d'une ronde a eu U, un point)";

const PAGES: &[Page] = &[
    (
        "validate",
        "Rejoue chaque partie et signale les coups illégaux, ambigus ou illisibles, les fins de partie et les problèmes de résultat",
        &[
            ("paths", INPUTS),
            ("format", "Format de sortie"),
            ("lang", LANG),
            ("color", COLOR),
            ("jobs", JOBS),
            ("input_format", INPUT_FORMAT),
            ("quiet", "Ni barre de progression, ni bilan"),
            ("strict", "Sortir avec 1 aussi sur des avertissements"),
            (
                "finished",
                "Le fichier est dit complet : une partie inachevée (`*`) vaut un avertissement",
            ),
            (
                "no_tournament_checks",
                "Sauter les contrôles de tournoi (Seven Tag Roster, formats des balises, doublons, joueur deux fois dans une ronde, numérotation des rondes)",
            ),
            (
                "track_games",
                "Nombre de parties que suivent les contrôles entre entrées (doublons, joueur deux fois dans une ronde, numérotation des rondes) avant de s'arrêter en le disant ; chacune coûte environ 40 octets de mémoire",
            ),
            ("moveless", MOVELESS),
            ("allocated_bye", ALLOCATED_BYE),
            (
                "pairings",
                "Comparer les parties au rapport d'un programme d'appariement (TRF-16 ou TRF-26) : chaque partie un appariement de sa ronde avec les mêmes couleurs et le même résultat, chaque appariement joué une partie, exemptions et forfaits identiques",
            ),
        ],
    ),
    (
        "convert",
        "Réécrit les parties en PGN au format d'export (lettres de pièces de toute langue, SAN/LAN/UCI), en lignes JSON ou en EPD",
        &[
            ("paths", INPUTS),
            (
                "to",
                "Lettres des pièces à écrire : en, fr, de, nl, es, it, pt, cs, pl, hu, fi, ro, da, no, sv ou figurine",
            ),
            (
                "from",
                "Lettres des pièces de l'entrée : `auto` les détecte partie par partie, ou un code de langue",
            ),
            ("notation", "Comment les coups sont écrits en PGN"),
            ("strip", "Ce qu'il faut retirer, séparé par des virgules"),
            ("output_format", "Format de sortie"),
            (
                "add_opening",
                "Remplir les balises ECO, Opening et Variation avec l'ouverture atteinte (la table lichess intégrée : la dernière position nommée de la ligne principale) ; une partie qui n'en atteint aucune garde ses balises. Sortie PGN seulement",
            ),
            (
                "skip_invalid",
                "Laisser de côté les parties qui ne peuvent être converties (elles sont comptées ; le code de sortie reste 1)",
            ),
            (
                "repair",
                "Convertir une partie dont la ligne principale ne se rejoue pas avec sa correction certaine (celle de `pgnkit repair`, un commentaire à la correction disant ce qui était écrit) ; une partie qui n'en a pas n'est pas convertie",
            ),
            ("output", OUTPUT),
            ("jobs", JOBS),
            ("input_format", INPUT_FORMAT),
            (
                "quiet",
                "Ni barre de progression, ni bilan (les diagnostics restent affichés)",
            ),
            (
                "color",
                "Quand colorer les diagnostics (sur la sortie d'erreur)",
            ),
        ],
    ),
    (
        "stats",
        "Une ligne CSV par partie (ou par coup) avec balises, validité et décomptes de coups, ou un bilan avec classements",
        &[
            ("paths", INPUTS),
            (
                "per_move",
                "Une ligne par demi-coup de la ligne principale (SAN, UCI, FEN, pendule, évaluation, NAG, commentaire...) au lieu d'une par partie",
            ),
            (
                "summary",
                "Un court rapport au lieu de lignes : résultats par couleur, fins, codes ECO, classement par tournoi",
            ),
            (
                "format",
                "Format des lignes : `csv`, `jsonl` (un objet JSON par ligne) ou `parquet` (colonnes typées, la balise Date en date avec `year`, `month`, `day`, et `utc_date`, `utc_timestamp` d'après UTCDate et UTCTime ; compressé en zstd). Par défaut : d'après le nom donné à -o (`.parquet`, `.jsonl`, `.ndjson`), sinon csv",
            ),
            (
                "compression",
                "Compression Parquet : `zstd` (petits fichiers), `lz4` (écriture plusieurs fois plus rapide, fichiers environ 1,7 fois plus gros) ou `none`",
            ),
            (
                "tags",
                "Ajouter ces balises PGN comme colonnes des lignes par partie, nommées par la balise, dans cet ordre, séparées par des virgules (`--tags UTCDate,WhiteTitle,Link`) ; vide quand une partie n'a pas la balise. Au plus 256, aucune qui ne diffère d'une colonne ou d'une autre balise que par la casse",
            ),
            (
                "keep_columns",
                "Reporter ces colonnes des entrées Parquet (tables de parties : colonnes de balises et `movetext`) dans les lignes par partie, après les balises, sous leur nom et leur type, séparées par des virgules (`--keep-columns Site,WhiteRatingDiff`), ou `all` : toutes les colonnes de balises que les lignes n'ont pas déjà. Un enrichissement en un seul passage",
            ),
            ("output", OUTPUT),
            ("lang", LANG),
            ("jobs", JOBS),
            ("input_format", INPUT_FORMAT),
            (
                "quiet",
                "Ni barre de progression, ni ligne de bilan sur la sortie d'erreur",
            ),
        ],
    ),
    (
        "standings",
        "Classement des tournois avec départages (Buchholz, Sonneborn-Berger, confrontation directe...), par (Event, Site, année) ; TRF-16 de la FIDE",
        &[
            (
                "paths",
                "Fichiers PGN ou répertoires (on y cherche les .pgn, .pgn.gz, .pgn.zst, .parquet) ; `-` lit l'entrée standard. Toutes les entrées d'une exécution sont lues ensemble : un tournoi rangé en un fichier par ronde est un seul tournoi",
            ),
            (
                "event",
                "Seulement les tournois dont la balise Event est NOM",
            ),
            (
                "format",
                "`text` (un tableau par tournoi), `csv` (une ligne par joueur), `json` (un objet par tournoi) ou `trf` (le Tournament Report File de la FIDE, un tournoi)",
            ),
            ("tiebreaks", TIEBREAKS),
            ("moveless", MOVELESS),
            ("allocated_bye", ALLOCATED_BYE),
            ("output", OUTPUT),
            (
                "pairings",
                "Comparer les parties au rapport d'un programme d'appariement (TRF-16 ou TRF-26), comme `validate --pairings` : les différences sur la sortie d'erreur, code de sortie 1 s'il y en a",
            ),
            ("jobs", JOBS),
            ("input_format", INPUT_FORMAT),
            ("quiet", "Pas de barre de progression"),
        ],
    ),
    (
        "report",
        "Une page HTML autonome : classements, grilles américaines, état de chaque partie et un diagramme à chaque coup fautif",
        &[
            (
                "paths",
                "Fichiers PGN ou répertoires (on y cherche les .pgn, .pgn.gz, .pgn.zst, .parquet) ; `-` lit l'entrée standard. Toutes les entrées d'une exécution font une seule page : un tournoi rangé en un fichier par ronde est un seul tournoi",
            ),
            (
                "output",
                "Écrire la page dans FICHIER (obligatoire quand la sortie standard est un terminal ; `FICHIER.gz`/`.zst` la compressent)",
            ),
            (
                "event",
                "Seuls les tournois dont la balise Event est NOM ont classement et grille (toutes les parties sont quand même contrôlées et listées)",
            ),
            ("tiebreaks", TIEBREAKS),
            ("moveless", MOVELESS),
            ("allocated_bye", ALLOCATED_BYE),
            ("jobs", JOBS),
            ("input_format", INPUT_FORMAT),
            (
                "quiet",
                "Ni barre de progression, ni bilan sur la sortie d'erreur",
            ),
        ],
    ),
    (
        "repair",
        "Corrige les erreurs de transcription (une lettre ou une case fausse, un coup oublié, écrit deux fois ou interverti) : une partie est corrigée quand une seule correction permet de rejouer la suite",
        &[
            ("paths", INPUTS),
            ("lang", LANG),
            ("output", OUTPUT),
            (
                "report",
                "Écrire aussi dans FICHIER une ligne JSON par partie fautive : où, le genre de modification, ce qui était écrit, la correction, si elle est certaine, et les candidates avec jusqu'où chacune laisse rejouer la partie",
            ),
            (
                "max_edits",
                "Nombre maximal de modifications d'une correction (1 à 3)",
            ),
            (
                "broadcast",
                "Retirer aussi ce que laissent les retransmissions en direct : coups de roi vers le centre après la partie, coups après la fin, et une correction restée dans une variante là où la ligne principale s'arrête",
            ),
            ("jobs", JOBS),
            ("input_format", INPUT_FORMAT),
            (
                "quiet",
                "Ni barre de progression, ni bilan (les parties fautives restent signalées)",
            ),
            (
                "color",
                "Quand colorer les remarques (sur la sortie d'erreur)",
            ),
        ],
    ),
    (
        "select",
        "Écrit telles quelles les parties qui satisfont une expression, atteignent une position ou ne sont pas des doublons",
        &[],
    ),
    (
        "tree",
        "L'arbre des ouvertures des lignes principales des parties : chaque position jusqu'à une profondeur, pour chaque coup ses parties, résultats, classements et ouverture ; en texte, CSV, lignes JSON, Parquet, page HTML ou livre Polyglot",
        &[
            ("paths", INPUTS),
            (
                "from_fen",
                "Commencer l'arbre à cette position au lieu de la position initiale : une FEN, les quatre champs d'une EPD, ou `startpos`. Une partie compte à partir de sa première arrivée à cette position",
            ),
            (
                "from_moves",
                "Commencer l'arbre après ces coups (depuis --from, ou la position initiale), en SAN avec ou sans numéros : \"1. e4 c5 2. Cf3\"",
            ),
            ("depth", "Demi-coups depuis la racine que couvre l'arbre"),
            (
                "min_games",
                "Omettre les coups joués dans moins de K parties (ils comptent toujours dans les positions où ils mènent)",
            ),
            (
                "player",
                "Seulement les parties de ce joueur (balise White ou Black, comparée sans tenir compte de la casse)",
            ),
            (
                "color",
                "Avec --player : seulement les parties où le joueur avait cette couleur (`white`/`blancs` ou `black`/`noirs`)",
            ),
            (
                "filter",
                "Compter les parties pour lesquelles EXPR est vraie, comme select --where les choisit (`WhiteElo >= 2200 and Event ~ \"Titled\"`)",
            ),
            (
                "format",
                "`text` (les coups de la position de départ, avec des barres pour les résultats), `csv`, `jsonl`, `parquet` (colonnes typées), `html` (une page de positions liées, avec échiquiers) ou `polyglot` (un livre d'ouvertures). Par défaut : d'après le nom donné à -o (.csv, .jsonl, .parquet, .html, .bin), sinon text",
            ),
            (
                "memory",
                "Mémoire pour les comptes (512M, 4G...) : au-delà, des séquences triées vont dans des fichiers temporaires et sont fusionnées à la fin. Par défaut : un quart de la mémoire de la machine (ou du conteneur)",
            ),
            (
                "temp_dir",
                "Où vont les séquences quand les comptes dépassent --memory. Par défaut : à côté de -o FICHIER, sinon le répertoire temporaire du système",
            ),
            ("output", OUTPUT),
            ("lang", LANG),
            ("jobs", JOBS),
            ("input_format", INPUT_FORMAT),
            ("quiet", "Ni barre de progression, ni bilan"),
        ],
    ),
    (
        "fen",
        "Contrôle une FEN et montre la position, son état et ses coups légaux",
        &[],
    ),
    (
        "perft",
        "Compte les feuilles de l'arbre des coups légaux (contrôle du générateur de coups)",
        &[],
    ),
];

const EXIT_CODES: &str = "Codes de sortie : 0 rien à signaler, 1 problèmes trouvés, 2 erreur d'utilisation ou d'entrée-sortie.";

const SELECT_EXIT_CODES: &str = "Codes de sortie : 0 au moins une partie choisie, 1 aucune, 2 erreur d'utilisation ou d'entrée-sortie.";

const TREE_EXIT_CODES: &str = "Codes de sortie : 0 un arbre écrit, 1 aucune partie ne joue de coup depuis la racine, 2 erreur d'utilisation ou d'entrée-sortie.";

/// clap's layout with its English headings put in French ("Usage:" → "Utilisation :"; "Arguments" and
/// "Options" are French words already).
const TEMPLATE: &str =
    "{before-help}{about-with-newline}\nUtilisation : {usage}\n\n{all-args}{after-help}";

/// An argument with its French help; clap's English "Possible values" and "[default: ...]" replaced by the
/// same facts in French at the end of the help.
fn french_arg(arg: clap::Arg, help: &str) -> clap::Arg {
    let mut text = help.to_string();
    let takes_values = arg.get_action().takes_values();
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect();
    if takes_values && !values.is_empty() {
        text.push_str(&format!(" (valeurs : {})", values.join(", ")));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .filter(|v| !v.is_empty())
        .collect();
    if takes_values && !defaults.is_empty() && !arg.is_hide_default_value_set() {
        text.push_str(&format!(" (par défaut : {})", defaults.join(",")));
    }
    arg.help(text)
        .long_help(None::<&str>)
        .hide_possible_values(true)
        .hide_default_value(true)
}

/// `-h, --help` said in French (clap's own flag says "Print help").
fn help_flag() -> clap::Arg {
    clap::Arg::new("help")
        .short('h')
        .long("help")
        .action(clap::ArgAction::Help)
        .help("Afficher l'aide")
}

/// `command` with its help in French.
pub(crate) fn translate(command: Command) -> Command {
    let messages = "Langue des messages pour les humains : en ou fr (par défaut : d'après LC_ALL, LC_MESSAGES ou LANG, sinon en). Les types de problèmes, les clés JSON et les colonnes CSV ne changent jamais";
    let mut command = command
        .about("Valider, convertir et résumer des fichiers d'échecs PGN et FEN")
        .after_help(EXIT_CODES)
        .help_template(TEMPLATE)
        .subcommand_help_heading("Commandes")
        .disable_help_flag(true)
        .arg(help_flag())
        .disable_version_flag(true)
        .arg(
            clap::Arg::new("version")
                .short('V')
                .long("version")
                .action(clap::ArgAction::Version)
                .help("Afficher la version"),
        )
        .mut_arg("messages", |a| a.help(messages));
    for (name, about, args) in PAGES {
        command = command.mut_subcommand(*name, |mut sub| {
            sub = sub
                .about(*about)
                .help_template(TEMPLATE)
                .disable_help_flag(true)
                .arg(help_flag());
            sub = sub.after_help(match *name {
                "select" => SELECT_EXIT_CODES,
                "tree" => TREE_EXIT_CODES,
                _ => EXIT_CODES,
            });
            for (id, help) in *args {
                sub = sub.mut_arg(*id, |a| french_arg(a, help));
            }
            sub
        });
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_translated_argument_exists_and_is_shown() {
        // mut_arg on an unknown id panics when the command is built: building checks the table.
        let mut command = translate(super::super::command());
        command.build();
        for (name, about, args) in PAGES {
            let sub = command
                .find_subcommand_mut(name)
                .unwrap_or_else(|| panic!("no subcommand {name}"));
            let help = sub.render_help().to_string();
            assert!(help.contains(about), "{name}: {help}");
            assert!(help.contains("Utilisation : pgnkit"), "{name}: {help}");
            for (id, _) in *args {
                assert!(
                    sub.get_arguments().any(|a| a.get_id() == *id),
                    "{name} {id}"
                );
            }
        }
    }
}
