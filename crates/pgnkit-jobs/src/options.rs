//! The options of the jobs as typed values, each read from its text by one `FromStr` with one error type:
//! the command's parser (clap) and the Python package read the same words the same way. [`Choices`] lists
//! the values of an option that has a fixed set, with what each means, for the help.
//!
//! Also [`UsageError`]: options that are each valid but refused together, said before any game is read.

use std::fmt;
use std::str::FromStr;

use pgnkit::notation::Language;

use crate::messages::{Explain, JobReason, Locale};
use crate::tournament::tiebreak_codes::{Kind, TiebreakCode, TiebreakParseError, parse_list};

/// How moves are written in PGN output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// Minimal SAN with `+`/`#` (`Nf3`, `exd5`, `e8=Q#`), in the target language's letters.
    #[default]
    San,
    /// Long algebraic with check marks (`Ng1-f3`, `e7-e8=Q#`), in the target language's letters.
    Lan,
    /// UCI (`g1f3`, `e7e8q`; castling king-takes-rook in Chess960).
    Uci,
}

/// What convert writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// PGN in export format.
    #[default]
    Pgn,
    /// One JSON object per game.
    Jsonl,
    /// One EPD line per position of the main line.
    Epd,
}

/// How `--split` groups the chosen games into files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitBy {
    /// By the `Event` tag.
    Event,
    /// By the `Round` tag's round number (`4.1` and `4.2` are round 4).
    Round,
    /// By the `ECO` tag.
    Eco,
    /// By the opening the moves reach (`opening_eco`).
    Opening,
    /// This many games a file, in order.
    Games(u64),
}

/// How rows are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// RFC 4180 CSV with a header line.
    #[default]
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// Apache Parquet.
    Parquet,
}

/// What `standings` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StandingsFormat {
    /// A table per tournament, for people.
    #[default]
    Text,
    /// One row per player.
    Csv,
    /// One JSON object per tournament.
    Json,
    /// FIDE's Tournament Report File of one tournament.
    Trf(TrfVersion),
}

/// The edition of FIDE's Tournament Report File (FIDE Handbook C.04 Annex 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrfVersion {
    /// TRF-16 (approved in 2015, in force from 2016).
    Trf16,
    /// TRF-26 (approved by the FIDE Council on 12 May 2025, in force from 1 September 2025): TRF-16's records
    /// and the new ones (tie-breaks, encoded time control...).
    Trf26,
}

/// What `tree` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TreeFormat {
    /// The root position's moves, for people: games, results as bars, score, ratings, opening.
    #[default]
    Text,
    /// RFC 4180 CSV with a header line, one row per (position, move).
    Csv,
    /// One JSON object per (position, move).
    Jsonl,
    /// Apache Parquet, typed columns.
    Parquet,
    /// A self-contained HTML page: each position with a board and its moves, linked to the positions
    /// they lead to.
    Html,
    /// A Polyglot opening book.
    Polyglot,
}

impl Choices for TreeFormat {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        (
            "text",
            TreeFormat::Text,
            "The root position's moves, with bars for the results",
        ),
        ("csv", TreeFormat::Csv, "One row per position and move"),
        (
            "jsonl",
            TreeFormat::Jsonl,
            "One JSON object per position and move",
        ),
        (
            "parquet",
            TreeFormat::Parquet,
            "Typed columns, for DuckDB, Polars, pandas, Spark",
        ),
        (
            "html",
            TreeFormat::Html,
            "A page of linked positions, with boards",
        ),
        (
            "polyglot",
            TreeFormat::Polyglot,
            "A Polyglot opening book, for engines and GUIs",
        ),
    ];
}

/// What the inputs hold (`--input-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// Told by each input's first bytes: Parquet (`PAR1`), else PGN (plain, gzip or zstd).
    #[default]
    Auto,
    /// PGN, whatever the first bytes.
    Pgn,
    /// Parquet files whose rows are games; any other input is refused.
    Parquet,
}

/// How the column chunks are compressed (`stats --compression`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Codec {
    /// zstd at level 1: small files, and what every Parquet reader reads.
    #[default]
    Zstd,
    /// LZ4 (the `LZ4_RAW` codec): several times cheaper to compress, files about 1.7 times zstd's.
    Lz4,
    /// No compression.
    None,
}

/// An option with a fixed set of values: each value's word, the value, and what it means (empty when the
/// word says it all), in the order the help lists them.
pub trait Choices: Sized + Copy + 'static {
    const CHOICES: &'static [(&'static str, Self, &'static str)];
}

/// A word that is none of an option's values: one error for every option, said as the option expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChoice {
    pub(crate) value: String,
    /// What the option takes.
    pub(crate) expected: Expected,
}

/// What an option takes, for [`UnknownChoice`]'s message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expected {
    /// One of the words of its [`Choices`].
    Words(Vec<&'static str>),
    /// A language code, or `auto` when `auto` is true.
    Language { auto: bool },
    /// `en` or `fr`.
    Messages,
    /// A way to split, or a number of games.
    Split,
}

impl UnknownChoice {
    fn new(value: &str, expected: Expected) -> UnknownChoice {
        UnknownChoice {
            value: value.to_string(),
            expected,
        }
    }
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = &self.value;
        match &self.expected {
            Expected::Words(words) => write!(f, "'{value}': use one of {}", words.join(", ")),
            Expected::Language { auto: true } => write!(
                f,
                "unknown language '{value}': use auto or one of {}",
                language_codes()
            ),
            Expected::Language { auto: false } => write!(
                f,
                "unknown language '{value}': use one of {}",
                language_codes()
            ),
            Expected::Messages => {
                write!(f, "unknown message language '{value}': use en or fr")
            }
            Expected::Split => write!(
                f,
                "'{value}': split by event, round, eco, opening, or a number of games a file"
            ),
        }
    }
}

impl std::error::Error for UnknownChoice {}

/// The value of `T` named by `word`, exactly.
fn choose<T: Choices>(word: &str) -> Result<T, UnknownChoice> {
    T::CHOICES
        .iter()
        .find(|(name, _, _)| *name == word)
        .map(|&(_, value, _)| value)
        .ok_or_else(|| {
            let words = T::CHOICES.iter().map(|(name, _, _)| *name).collect();
            UnknownChoice::new(word, Expected::Words(words))
        })
}

/// `FromStr` by the [`Choices`] of each type.
macro_rules! from_choices {
    ($($t:ty),*) => {$(
        impl FromStr for $t {
            type Err = UnknownChoice;
            fn from_str(s: &str) -> Result<Self, UnknownChoice> {
                choose(s)
            }
        }
    )*};
}

from_choices!(
    InputFormat,
    Notation,
    OutputFormat,
    Strip,
    Format,
    Codec,
    ReportFormat,
    StandingsFormat,
    TreeFormat,
    Moveless,
    AllocatedBye
);

impl Choices for InputFormat {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        (
            "auto",
            InputFormat::Auto,
            "Parquet when a file starts with `PAR1`, else PGN (plain, gzip or zstd)",
        ),
        ("pgn", InputFormat::Pgn, "PGN, whatever the first bytes"),
        (
            "parquet",
            InputFormat::Parquet,
            "Parquet whose rows are games: tag columns and `movetext`, or a `pgn` column",
        ),
    ];
}

impl Choices for Notation {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        (
            "san",
            Notation::San,
            "Standard algebraic notation, minimal disambiguation, `+`/`#`",
        ),
        (
            "lan",
            Notation::Lan,
            "Long algebraic notation (`Ng1-f3`, `e7-e8=Q+`)",
        ),
        (
            "uci",
            Notation::Uci,
            "UCI coordinates (`g1f3`, `e7e8q`); castling king-takes-rook in Chess960",
        ),
    ];
}

impl Choices for OutputFormat {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        ("pgn", OutputFormat::Pgn, "PGN in export format"),
        (
            "jsonl",
            OutputFormat::Jsonl,
            "One JSON object per game: tags, moves in SAN and UCI, result, termination, language",
        ),
        (
            "epd",
            OutputFormat::Epd,
            "One EPD line per position of the main line, with `id \"game N ply M\";`",
        ),
    ];
}

/// What convert leaves out (`--strip`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strip {
    Comments,
    Variations,
    Nags,
    Clocks,
}

impl Choices for Strip {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        ("comments", Strip::Comments, "Brace and `;` comments"),
        (
            "variations",
            Strip::Variations,
            "Variations, with everything inside them",
        ),
        (
            "nags",
            Strip::Nags,
            "NAGs and suffix annotations (`!`, `?!`...)",
        ),
        (
            "clocks",
            Strip::Clocks,
            "`[%clk ...]` commands inside comments (a comment left empty is dropped)",
        ),
    ];
}

impl Strip {
    /// What the writer keeps once `stripped` are left out.
    pub fn keep(stripped: &[Strip]) -> pgnkit::pgn::writer::Keep {
        pgnkit::pgn::writer::Keep {
            comments: !stripped.contains(&Strip::Comments),
            variations: !stripped.contains(&Strip::Variations),
            nags: !stripped.contains(&Strip::Nags),
            clocks: !stripped.contains(&Strip::Clocks),
        }
    }
}

impl Choices for Format {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        ("csv", Format::Csv, ""),
        ("jsonl", Format::Jsonl, ""),
        ("parquet", Format::Parquet, ""),
    ];
}

impl Format {
    /// The format's word.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
        }
    }
}

impl Choices for Codec {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        ("zstd", Codec::Zstd, ""),
        ("lz4", Codec::Lz4, ""),
        ("none", Codec::None, ""),
    ];
}

impl Choices for StandingsFormat {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        ("text", StandingsFormat::Text, "A table per tournament"),
        ("csv", StandingsFormat::Csv, "One row per player"),
        ("json", StandingsFormat::Json, "One object per tournament"),
        (
            "trf",
            StandingsFormat::Trf(TrfVersion::Trf26),
            "FIDE's Tournament Report File of one tournament, in the edition in force: trf26",
        ),
        (
            "trf26",
            StandingsFormat::Trf(TrfVersion::Trf26),
            "TRF-26: TRF-16's records and the tie-breaks (202, 212) and encoded time control (222)",
        ),
        (
            "trf16",
            StandingsFormat::Trf(TrfVersion::Trf16),
            "TRF-16, for programs that read only the former edition",
        ),
    ];
}

/// How validate reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportFormat {
    /// Diagnostics for people, then a summary.
    #[default]
    Human,
    /// One JSON record per game.
    Json,
}

impl Choices for ReportFormat {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        (
            "human",
            ReportFormat::Human,
            "Diagnostics with the source line and a caret, then a summary",
        ),
        (
            "json",
            ReportFormat::Json,
            "One JSON object per game (JSON lines); the summary goes to stderr",
        ),
    ];
}

/// What a decided game without a single move is (`--moveless`): PGN has no standard mark for a forfeit, and a
/// game whose result stands with no move is one in most tournament files; where it is not, the arbiter says so.
/// A game whose Termination tag says forfeit is a forfeit whatever this says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Moveless {
    /// A forfeit (TRF `+` and `-`); a draw without moves stays a played draw, as no forfeit is a draw.
    #[default]
    Forfeit,
    /// A game that lasted less than one move, scored and not rated (TRF `W`, `D`, `L`).
    Unrated,
    /// A game played over the board (TRF `1`, `=`, `0`), as if its moves were only missing from the file.
    Played,
}

impl Choices for Moveless {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        (
            "forfeit",
            Moveless::Forfeit,
            "A forfeit: the winner scores, the game is not played (TRF + and -); a draw without moves stays played",
        ),
        (
            "unrated",
            Moveless::Unrated,
            "A game of less than one move: scored, not rated (TRF W, D, L)",
        ),
        (
            "played",
            Moveless::Played,
            "A game played over the board whose moves are missing (TRF 1, =, 0)",
        ),
    ];
}

/// Which full-point byes are the pairing-allocated bye (`--allocated-bye`): PGN cannot tell the bye a Swiss
/// gives the odd player out (TRF `U`) from one a player asked for (`F`), nor an absence (`Z`) from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AllocatedBye {
    /// None: a bye game with a full point is a requested full-point bye (`F`), a round without a game an
    /// absence (`Z`, no point).
    #[default]
    None,
    /// A bye game with a full point is the pairing-allocated bye (`U`).
    ByeGame,
    /// As `bye-game`, and in a round where one player alone has no game, that player had the
    /// pairing-allocated bye (`U`, one point).
    Unpaired,
}

impl Choices for AllocatedBye {
    const CHOICES: &'static [(&'static str, Self, &'static str)] = &[
        (
            "none",
            AllocatedBye::None,
            "A full-point bye game is a requested bye (TRF F); a round without a game is an absence (Z)",
        ),
        (
            "bye-game",
            AllocatedBye::ByeGame,
            "A full-point bye game is the pairing-allocated bye (TRF U)",
        ),
        (
            "unpaired",
            AllocatedBye::Unpaired,
            "As bye-game, and the one player without a game in a round had the pairing-allocated bye (U, 1 point)",
        ),
    ];
}

/// How a run reads the games that are not played games (`crate::tournament`'s forfeits and byes): the
/// arbiter's say where the files' marks are not enough.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnplayedRules {
    /// What a decided game without a move is.
    pub moveless: Moveless,
    /// Which full-point byes are the pairing-allocated bye.
    pub allocated_bye: AllocatedBye,
}

/// The tie-breaks after points (`--tiebreaks`): FIDE's C.07 codes with their modifiers, in order
/// (`DE,BH/C1,BH,SB`; FIDE's checker's `BH#C1` too), or, by default, the order FIDE recommends for the kind
/// of each tournament (`crate::tournament::fide_tiebreaks::default_tiebreaks`). The names of the five
/// tie-breaks pgnkit had before the codes still read, as the codes they are: `buchholz_cut1` (`BH/C1`),
/// `buchholz` (`BH`), `sonneborn_berger` (`SB`), `wins` (`WIN`), `direct_encounter` (`DE`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tiebreaks(Option<Vec<TiebreakCode>>);

impl Tiebreaks {
    /// The codes asked for, in order; `None` for each tournament's default.
    pub(crate) fn chosen(&self) -> Option<&[TiebreakCode]> {
        self.0.as_deref()
    }

    /// Exactly these codes (none: points alone).
    #[cfg(test)]
    pub(crate) fn of(codes: &[TiebreakCode]) -> Tiebreaks {
        Tiebreaks(Some(codes.to_vec()))
    }
}

/// The code a name of the tie-breaks before FIDE's codes stands for.
fn former_name(name: &str) -> Option<TiebreakCode> {
    Some(match name.trim() {
        "buchholz_cut1" => TiebreakCode::cut(Kind::Buchholz, 1),
        "buchholz" => TiebreakCode::plain(Kind::Buchholz),
        "sonneborn_berger" => TiebreakCode::plain(Kind::SonnebornBerger),
        "wins" => TiebreakCode::plain(Kind::Wins),
        "direct_encounter" => TiebreakCode::plain(Kind::DirectEncounter),
        _ => return None,
    })
}

impl FromStr for Tiebreaks {
    type Err = TiebreakParseError;
    fn from_str(s: &str) -> Result<Tiebreaks, TiebreakParseError> {
        // The former names first, each where it stands, so that a list may mix both.
        let codes: Vec<String> = s
            .split([',', ' ', '\t'])
            .filter(|w| !w.trim().is_empty())
            .map(|w| former_name(w).map_or_else(|| w.to_string(), |c| c.to_string()))
            .collect();
        parse_list(&codes.join(",")).map(|codes| Tiebreaks(Some(codes)))
    }
}

/// The piece letters moves are read with: `auto` detects them per game, or one language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lang(pub Option<Language>);

impl FromStr for Lang {
    /// Neither `auto` nor a language code (any case).
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Lang, UnknownChoice> {
        if s.eq_ignore_ascii_case("auto") {
            return Ok(Lang(None));
        }
        Language::from_code(&s.to_ascii_lowercase())
            .map(|l| Lang(Some(l)))
            .ok_or_else(|| UnknownChoice::new(s, Expected::Language { auto: true }))
    }
}

/// The piece letters moves are written with (convert's `--to`): a language code, in any case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Letters(pub Language);

impl FromStr for Letters {
    /// Not a language code.
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Letters, UnknownChoice> {
        Language::from_code(s)
            .map(Letters)
            .ok_or_else(|| UnknownChoice::new(s, Expected::Language { auto: false }))
    }
}

fn language_codes() -> String {
    let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
    codes.join(", ")
}

/// The language of the messages for people (`--messages`): `en` or `fr`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Messages(pub Locale);

impl FromStr for Messages {
    /// Not a message language.
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Messages, UnknownChoice> {
        Locale::from_code(s)
            .map(Messages)
            .ok_or_else(|| UnknownChoice::new(s, Expected::Messages))
    }
}

impl FromStr for SplitBy {
    /// Not a way to split (`--split`).
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<SplitBy, UnknownChoice> {
        match s {
            "event" => Ok(SplitBy::Event),
            "round" => Ok(SplitBy::Round),
            "eco" => Ok(SplitBy::Eco),
            "opening" => Ok(SplitBy::Opening),
            n => match n.parse::<u64>() {
                Ok(n) if n > 0 => Ok(SplitBy::Games(n)),
                _ => Err(UnknownChoice::new(s, Expected::Split)),
            },
        }
    }
}

/// Options that are each valid but refused together, or refused where the output goes.
#[derive(Debug)]
pub enum UsageError {
    /// convert's `--add-opening` writes tags: PGN output only.
    AddOpeningNeedsPgn,
    /// stats' `--format` and the output's name disagree.
    FormatNotName { asked: Format, output: String },
    /// stats' `--compression` is for Parquet only.
    CompressionNotParquet,
    /// Parquet to a terminal.
    ParquetToTerminal,
    /// Parquet to a name that asks for compression (`.gz`, `.zst`).
    ParquetPacked { output: String },
    /// stats' `--tags` refused.
    Tags(Box<dyn JobReason>),
    /// stats' `--keep-columns` refused: why.
    KeepColumns(String),
}

impl Explain for UsageError {
    fn explain(&self, locale: Locale) -> String {
        // Said in English only, as they always were, but for the tags.
        match self {
            UsageError::AddOpeningNeedsPgn => {
                "--add-opening writes tags: it needs --output-format pgn".into()
            }
            UsageError::FormatNotName { asked, output } => format!(
                "--format {} but the output is named {output}",
                asked.name()
            ),
            UsageError::CompressionNotParquet => "--compression is Parquet's: CSV and JSON lines are compressed by their name (-o FILE.zst, FILE.gz)".into(),
            UsageError::ParquetToTerminal => {
                "Parquet is binary: give a file with -o FILE.parquet, or redirect standard output"
                    .into()
            }
            UsageError::ParquetPacked { output } => {
                format!("{output}: Parquet is compressed inside; name the file FILE.parquet")
            }
            UsageError::Tags(e) => format!("--tags: {}", e.explain(locale)),
            UsageError::KeepColumns(why) => why.clone(),
        }
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl std::error::Error for UsageError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_reads_back_as_its_value() {
        fn check<T: Choices + FromStr + PartialEq + fmt::Debug>() {
            for &(word, value, _) in T::CHOICES {
                assert_eq!(word.parse::<T>().ok(), Some(value), "{word}");
            }
            assert!("nonsense".parse::<T>().is_err());
        }
        check::<Notation>();
        check::<OutputFormat>();
        check::<Strip>();
        check::<Format>();
        check::<Codec>();
        check::<ReportFormat>();
        check::<StandingsFormat>();
        check::<Moveless>();
        check::<AllocatedBye>();
    }

    #[test]
    fn languages_read_as_the_command_reads_them() {
        assert_eq!("AUTO".parse::<Lang>(), Ok(Lang(None)));
        assert_eq!("FR".parse::<Lang>(), Ok(Lang(Some(Language::Fr))));
        assert_eq!(
            "xx".parse::<Lang>().unwrap_err().to_string(),
            format!(
                "unknown language 'xx': use auto or one of {}",
                language_codes()
            )
        );
        assert_eq!("FR".parse::<Letters>(), Ok(Letters(Language::Fr)));
        assert_eq!(
            "auto".parse::<Letters>().unwrap_err().to_string(),
            format!("unknown language 'auto': use one of {}", language_codes())
        );
        assert_eq!("fr".parse::<Messages>(), Ok(Messages(Locale::Fr)));
        assert_eq!(
            "de".parse::<Messages>().unwrap_err().to_string(),
            "unknown message language 'de': use en or fr"
        );
    }

    #[test]
    fn split_reads_names_and_positive_counts() {
        assert_eq!("round".parse::<SplitBy>(), Ok(SplitBy::Round));
        assert_eq!("500".parse::<SplitBy>(), Ok(SplitBy::Games(500)));
        for refused in ["0", "-1", "Event", ""] {
            assert!(refused.parse::<SplitBy>().is_err(), "{refused}");
        }
    }
}
