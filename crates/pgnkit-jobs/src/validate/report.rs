//! What `validate` says about each game: a [`GameReport`] with its [`Problem`]s, and what JSON writes of them,
//! one [`GameRecord`] per game (the schema is documented in `docs/validate-json.md`), the messages worded in
//! the language asked for as the record is written.

use std::sync::Arc;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

pub(crate) use super::finding::{
    CheckedTag, EarlierGame, Finding, NotedSpelling, RoundGaps, Suggestion,
};
pub(crate) use super::kind::{ProblemKind, Severity};
pub(crate) use super::tag_text::TagText;
use crate::messages::{Explain, Locale};

use pgnkit::core::{Claim, Termination};
use pgnkit::notation::Language;
use pgnkit::pgn::{GameResult, Record};
use pgnkit::walk::Confidence;

use crate::repair::found::GameRepair;

/// One problem, located in the file: what was found (`Finding`, which gives its kind and its words) and
/// where. What JSON writes of it is `ProblemRecord`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The kind's severity, or an error for a note under `--strict`.
    pub severity: Severity,
    /// What was found, with what explains it.
    pub(crate) finding: Finding,
    /// 1-based line in the file.
    pub line: u64,
    /// 1-based column, in characters, as editors count.
    pub column: u64,
    /// 1-based half-move of the main line or variation the problem concerns, when it concerns a move.
    pub(crate) ply: Option<u32>,
    /// The move number and side as a reader would write it: `23.` or `23...`.
    pub move_number: Option<String>,
    /// The move as written in the file.
    pub move_text: Option<String>,
    /// True when the move is inside a variation.
    pub in_variation: bool,
    /// The one legal move that the text plausibly meant, and why.
    pub suggestion: Option<Suggestion>,
    /// At the first move of the main line that fails: what `pgnkit repair` finds (boxed: rare, and large).
    pub(crate) repair: Option<Box<GameRepair>>,
    /// How many problems this record stands for: a note counts every use of its spelling in the game (its
    /// location is the first), and identical consecutive problems (same finding and move) are kept once with
    /// their number. `None` for a single problem.
    pub(crate) count: Option<u32>,
    /// Byte offset in the file.
    pub(crate) offset: u64,
    /// The row the game came from, when its file is a table of games (Parquet): `line`, `column` and
    /// `offset` then count from the row's text.
    pub record: Option<Record>,
    /// The line the problem is on, for showing under the message: at most about a hundred characters around
    /// the problem, `…` where cut, control characters escaped.
    pub source_line: String,
    /// Characters of `source_line` before the problem (where a caret goes).
    pub source_caret: u32,
}

impl Problem {
    /// What `pgnkit repair` finds for the game, on the record of its main line's first failing move.
    pub fn repair(&self) -> Option<&GameRepair> {
        self.repair.as_deref()
    }

    /// A problem, with its kind's severity, at a line and column of the file (`offset` its byte), with no
    /// move, no suggestion and no source line yet.
    pub(crate) fn new(finding: Finding, line: u64, column: u64, offset: u64) -> Problem {
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
            repair: None,
            count: None,
            offset,
            record: None,
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
    pub(crate) fn same_as(&self, other: &Problem) -> bool {
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
    pub(crate) fn record(&self, locale: Locale) -> ProblemRecord<'_> {
        ProblemRecord {
            problem: self,
            locale,
        }
    }
}

/// A problem as JSON writes it (`docs/validate-json.md`): its location, kind, move, and its message and
/// suggestion in a chosen language. The words are made as it is written.
#[derive(Clone, Copy)]
pub(crate) struct ProblemRecord<'p> {
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
            + 2 * usize::from(p.record.is_some())
            + usize::from(p.ply.is_some())
            + usize::from(p.move_number.is_some())
            + usize::from(p.move_text.is_some())
            + usize::from(p.in_variation)
            + usize::from(p.suggestion.is_some())
            + usize::from(p.repair.is_some())
            + usize::from(p.count.is_some());
        let mut s = serializer.serialize_struct("Problem", fields)?;
        s.serialize_field("severity", &p.severity)?;
        s.serialize_field("kind", &p.kind())?;
        if let Some(record) = p.record {
            s.serialize_field("row_group", &record.group)?;
            s.serialize_field("row", &record.row)?;
        }
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
        if let Some(repair) = &p.repair {
            s.serialize_field("repair", &repair.record(self.locale))?;
        }
        if let Some(count) = p.count {
            s.serialize_field("count", &count)?;
        }
        s.end()
    }
}

/// A game's problems as JSON writes them: a list of `ProblemRecord`s.
#[derive(Clone, Copy)]
pub(crate) struct ProblemRecords<'p> {
    problems: &'p [Problem],
    locale: Locale,
}

impl<'p> ProblemRecords<'p> {
    /// `problems` written with their words in `locale`.
    pub(crate) fn new(problems: &'p [Problem], locale: Locale) -> ProblemRecords<'p> {
        ProblemRecords { problems, locale }
    }
}

impl Serialize for ProblemRecords<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.problems.iter().map(|p| p.record(self.locale)))
    }
}

/// Everything validate found out about one game: what the checks across games, the renderers and the
/// summaries read. What JSON writes of it is its record (`GameRecord`, see [`GameReport::record`]).
#[derive(Debug, Clone)]
pub struct GameReport {
    pub file: Arc<str>,
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The row the game came from, when its file is a table of games (Parquet).
    pub(crate) record: Option<Record>,
    pub white: TagText,
    pub black: TagText,
    pub round: TagText,
    pub(crate) event: TagText,
    pub(crate) site: TagText,
    /// The tournament's year as standings read it: the first four characters of EventDate, else of Date,
    /// else `????` (with event and site, it keys the checks across games).
    pub(crate) year: TagText,
    /// The Result tag.
    pub(crate) result: TagText,
    /// The termination marker after the moves, if any.
    pub(crate) marker: Option<GameResult>,
    /// Language of the piece letters (its code in JSON: `en`, `fr`, ...).
    pub(crate) lang: Language,
    /// How the language was found: `given` (--lang), `letters` (only one language fits the letters),
    /// `replay` (only one fitting language replays the game), `guessed` (several replay it; preference chose),
    /// `irrelevant` (no piece letters).
    pub(crate) lang_confidence: Confidence,
    /// Other languages that read this game's letters the same way.
    pub(crate) lang_equivalents: Vec<Language>,
    /// Main-line half-moves replayed (up to the first illegal move).
    pub plies: u32,
    /// No errors, variations included.
    pub(crate) valid: bool,
    /// How the final position ended the game by rule, if it did (`none` in JSON when it did not).
    pub termination: Option<Termination>,
    /// The draws the player to move could claim in the final position.
    pub claimable: Vec<Claim>,
    /// The first ply at which the game ended by rule, when it differs from the last ply.
    pub(crate) ended_at_ply: Option<u32>,
    /// The first ply at which a draw could have been claimed.
    pub(crate) claimable_from_ply: Option<u32>,
    /// Main-line moves written after the first illegal one, not checked.
    pub(crate) unchecked_moves: Option<u32>,
    pub(crate) variant: Option<String>,
    /// FEN of the final main-line position.
    pub(crate) final_fen: String,
    pub problems: Vec<Problem>,
    /// Moves replayed in variations (not part of `plies`).
    pub variation_moves: u32,
    /// Line where the game starts (for summaries).
    pub(crate) line: u64,
    /// Hash of the players and the main-line moves, to find duplicate games .
    pub(crate) fingerprint: u64,
    /// `WhiteFideId`, when a FIDE id (filled with the players).
    pub(crate) white_fide_id: Option<u64>,
    /// `BlackFideId`, when a FIDE id.
    pub(crate) black_fide_id: Option<u64>,
}

impl GameReport {
    /// Its problems of `severity` (a record that stands for several counts them all: [`Problem::times`]);
    /// notes are uses of non-standard spellings ([`Severity::Note`]).
    pub fn count(&self, severity: Severity) -> u64 {
        self.problems
            .iter()
            .filter(|p| p.severity == severity)
            .map(Problem::times)
            .sum()
    }

    /// Errors ([`GameReport::count`]).
    pub(crate) fn errors(&self) -> u64 {
        self.count(Severity::Error)
    }

    /// Warnings.
    pub(crate) fn warnings(&self) -> u64 {
        self.count(Severity::Warning)
    }

    /// Uses of non-standard spellings.
    pub(crate) fn notes(&self) -> u64 {
        self.count(Severity::Note)
    }

    /// What JSON writes of it, for serde (`GameRecord`: the schema of `docs/validate-json.md`), its messages
    /// in `locale`.
    pub fn record(&self, locale: Locale) -> impl Serialize + '_ {
        GameRecord {
            file: &self.file,
            game: self.game,
            row_group: self.record.map(|r| r.group),
            row: self.record.map(|r| r.row),
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
}

/// A game's report as JSON writes it, one object per game (the schema of `docs/validate-json.md`), its
/// messages in a chosen language.
#[derive(Serialize)]
pub(crate) struct GameRecord<'r> {
    file: &'r str,
    game: u64,
    /// The row group and row of a game read from a table of games (Parquet).
    #[serde(skip_serializing_if = "Option::is_none")]
    row_group: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<u64>,
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
pub(crate) fn termination_or_none<S: Serializer>(
    t: &Option<Termination>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(termination_name(*t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{ValidateOptions, validate_game};
    use pgnkit::pgn::parse_all;

    #[test]
    fn a_report_is_worded_in_the_language_it_is_written_in() {
        let text = "[Event \"Open\"]\n[White \"?\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nd4 Nc6 0-1\n";
        let games = parse_all(text.as_bytes());
        let opts = ValidateOptions {
            tag_checks: true,
            report_tags: true,
            ..ValidateOptions::default()
        };
        let report = validate_game(&games[0], &Arc::from("t.pgn"), &opts);
        let json = |locale| serde_json::to_value(report.record(locale)).unwrap();
        let (en, fr) = (json(Locale::En), json(Locale::Fr));
        let problems = |v: &serde_json::Value| v["problems"].as_array().unwrap().clone();
        assert_eq!(problems(&en).len(), report.problems.len());
        assert!(report.problems.len() >= 3, "{:?}", report.problems);
        for ((p, e), f) in report.problems.iter().zip(problems(&en)).zip(problems(&fr)) {
            // Everything but the words is the same in both.
            let strip = |mut v: serde_json::Value| {
                let words = (
                    v["message"].take(),
                    v["suggestion"].take(),
                    v["repair"]["help"].take(),
                );
                (v, words)
            };
            let ((e, (e_message, _, _)), (f, (f_message, _, _))) = (strip(e), strip(f));
            assert_eq!(e, f);
            assert_eq!(e["kind"], p.kind().as_str());
            assert_eq!(e_message, p.message(Locale::En).as_str());
            assert_eq!(f_message, p.message(Locale::Fr).as_str());
            assert_ne!(e_message, f_message);
        }
        // The game's keys in the documented order, whatever the language.
        let written = serde_json::to_string(&report.record(Locale::Fr)).unwrap();
        assert!(
            written.starts_with(
                "{\"file\":\"t.pgn\",\"game\":1,\"white\":\"?\",\"black\":\"B\",\"round\":\"\",\"event\":\"Open\",\"site\":\"\",\"result\":\"1-0\",\"marker\":\"0-1\",\"lang\":\"en\",\"lang_confidence\":"
            ),
            "{written}"
        );
        let at = |key: &str| written.find(&format!("\"{key}\":")).unwrap();
        assert!(at("valid") < at("termination") && at("claimable") < at("unchecked_moves"));
        assert!(at("unchecked_moves") < at("final_fen") && at("final_fen") < at("problems"));
        assert_eq!(en["problems"][0]["kind"], fr["problems"][0]["kind"]);
    }
}
