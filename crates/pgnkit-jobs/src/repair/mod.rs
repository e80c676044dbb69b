//! `repair`: every game written out in input order, a game whose main line does not replay put right when
//! [`pgnkit::repair`] finds it one certain correction, with a comment at each edit saying what was written; any
//! other game byte for byte. What was found is told as a record per faulty game (`GameRepair`, in `found.rs`), the same
//! record validate's JSON carries as `repair` and whose words are validate's `help:` line.

pub(crate) mod found;
mod job;

pub use job::RepairJob;

use serde::Serialize;

use crate::localized;
use crate::messages::{Explain, Locale};
use crate::validate::{Finding, TagText, problem_at};
use found::GameRepair;
use pgnkit::notation::Language;
use pgnkit::pgn::{Game, GameReader, Span};
use pgnkit::repair;
use pgnkit::walk;

/// What the user asked of repair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepairOptions {
    /// Piece letters to read; `None` detects them per game.
    pub lang: Option<Language>,
    /// What the search may do.
    pub search: repair::RepairOptions,
    /// The language of the notes and of the comments written at the edits.
    pub messages: Locale,
}

impl Default for RepairOptions {
    fn default() -> RepairOptions {
        RepairOptions {
            lang: None,
            search: repair::RepairOptions::default(),
            messages: Locale::En,
        }
    }
}

/// A faulty game, as repair tells it.
#[derive(Debug, Clone)]
pub struct RepairNote {
    /// 1-based index of the game in its file.
    pub game: u64,
    pub white: TagText,
    pub black: TagText,
    pub round: TagText,
    /// Where the note points (the repair's first edit, else the first failure, else the error).
    pub line: u64,
    pub column: u64,
    /// The row the game came from, when its file is a table of games (Parquet): `line` and `column` then
    /// count in the row's text.
    pub record: Option<pgnkit::pgn::Record>,
    /// The game was repaired.
    pub repaired: bool,
    /// What was found, in the run's language.
    pub message: String,
}

/// What a worker makes of a batch.
#[derive(Debug, Default)]
pub struct RepairBatch {
    /// The games, repaired or as they were.
    pub text: Vec<u8>,
    /// `--report` lines (JSON), one per faulty game.
    pub report: Vec<u8>,
    pub games: u64,
    pub repaired: u64,
    /// Faulty games left as they were.
    pub unrepaired: u64,
    pub notes: Vec<RepairNote>,
}

/// A report line: the game's place and what was found.
#[derive(Serialize)]
struct ReportLine<'a> {
    file: &'a str,
    game: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    row_group: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<u64>,
    line: u64,
    column: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    written: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    correction: Option<&'a str>,
    certain: bool,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    repair: Option<&'a GameRepair>,
}

/// What one game came to.
pub(crate) enum Outcome {
    /// Nothing to repair: its bytes as they were.
    Clean,
    /// Repaired: its new text.
    Repaired { text: Vec<u8>, found: GameRepair },
    /// Faulty, not repaired: why (the search's record, or an error it cannot reach and its place).
    Unrepaired {
        found: Option<GameRepair>,
        reason: String,
        line: u64,
        column: u64,
    },
}

/// What repair makes of one game.
pub(crate) fn repair_game(game: &Game<'_>, opts: &RepairOptions) -> Outcome {
    let locale = opts.messages;
    let at = |span: Span| {
        let l = game.location(span.start);
        (l.line, u64::from(l.column))
    };
    let prepared = match walk::prepare(game, opts.lang) {
        Ok(p) => p,
        Err(e) => {
            let (finding, span) = match e {
                walk::SetupError::UnsupportedVariant { name, span } => {
                    (Finding::UnsupportedVariant { name }, span)
                }
                walk::SetupError::InvalidFen { problems, span } => {
                    (Finding::InvalidFen { problems }, span)
                }
            };
            let problem = problem_at(game, finding, span);
            return Outcome::Unrepaired {
                found: None,
                reason: localized!(
                    locale,
                    "not searched: {}",
                    "pas de recherche : {}",
                    problem.message(locale)
                ),
                line: problem.line,
                column: problem.column,
            };
        }
    };
    if let Some(error) = game.errors().next() {
        let (line, column) = at(error.span);
        return Outcome::Unrepaired {
            found: None,
            reason: localized!(
                locale,
                "not searched: the text cannot be read ({})",
                "pas de recherche : le texte est illisible ({})",
                error.kind.explain(locale)
            ),
            line,
            column,
        };
    }
    match GameRepair::find(game, &prepared, &opts.search, locale) {
        Some((found, Some(text))) => Outcome::Repaired { text, found },
        Some((found, None)) => {
            let (line, column) = found
                .variation_fails
                .unwrap_or((found.failed.line, found.failed.column));
            Outcome::Unrepaired {
                reason: found.explain(locale),
                found: Some(found),
                line,
                column,
            }
        }
        None => match found::variation_span(game, &prepared) {
            Some(span) => {
                let (line, column) = at(span);
                Outcome::Unrepaired {
                    found: None,
                    reason: localized!(
                        locale,
                        "not searched: a move of a variation fails (repair puts right the main line)",
                        "pas de recherche : un coup d'une variante échoue (la correction porte sur la ligne principale)"
                    ),
                    line,
                    column,
                }
            }
            None => Outcome::Clean,
        },
    }
}

/// Repairs every game of a batch.
pub(crate) fn repair_batch(
    games: &mut GameReader<'_>,
    file: &str,
    opts: &RepairOptions,
) -> RepairBatch {
    let mut out = RepairBatch::default();
    while let Some(group) = games.next_group() {
        for game in group {
            out.games += 1;
            let tag = |name: &str| {
                game.tag(name)
                    .map_or_else(TagText::default, |v| TagText::new(&v))
            };
            let note = |line, column, repaired, message| RepairNote {
                game: game.index + 1,
                white: tag("White"),
                black: tag("Black"),
                round: tag("Round"),
                line,
                column,
                record: game.record,
                repaired,
                message,
            };
            // What the game comes to: its text, and for a faulty game where the note points and what it says.
            let (text, told) = match repair_game(game, opts) {
                Outcome::Clean => (None, None),
                Outcome::Repaired { text, found } => {
                    out.repaired += 1;
                    let first = found.repair().and_then(|c| c.edits.first());
                    let (line, column) = first
                        .map_or((found.failed.line, found.failed.column), |e| {
                            (e.line, e.column)
                        });
                    let message = found.explain(opts.messages);
                    (Some(text), Some((line, column, true, message, Some(found))))
                }
                Outcome::Unrepaired {
                    found,
                    reason,
                    line,
                    column,
                } => {
                    out.unrepaired += 1;
                    (None, Some((line, column, false, reason, found)))
                }
            };
            out.text
                .extend_from_slice(text.as_deref().unwrap_or(game.source));
            if let Some((line, column, repaired, message, found)) = told {
                let at = Place {
                    file,
                    game,
                    line,
                    column,
                };
                write_report(&mut out.report, &at, &message, found.as_ref());
                out.notes.push(note(line, column, repaired, message));
            }
        }
    }
    out
}

/// Where a report line points.
struct Place<'a, 'g> {
    file: &'a str,
    game: &'a Game<'g>,
    line: u64,
    column: u64,
}

fn write_report(
    report: &mut Vec<u8>,
    at: &Place<'_, '_>,
    message: &str,
    found: Option<&GameRepair>,
) {
    let Place {
        file,
        game,
        line,
        column,
    } = *at;
    let best = found.and_then(|f| f.candidates.first().filter(|c| c.replays));
    let first = best.and_then(|c| c.edits.first());
    let record = ReportLine {
        file,
        game: game.index + 1,
        row_group: game.record.map(|r| r.group),
        row: game.record.map(|r| r.row),
        line,
        column,
        ply: first.map(|e| e.ply).or(found.map(|f| f.failed.ply)),
        kind: first.map(|e| e.kind),
        // An insertion writes nothing: `written` is then absent, not the move where the game first failed.
        written: match first {
            Some(e) => e.written.as_deref(),
            None => found.map(|f| f.failed.written.as_str()),
        },
        correction: first.and_then(|e| e.correction.as_deref()),
        certain: found.is_some_and(|f| f.certain),
        message: message.to_string(),
        repair: found,
    };
    let _ = serde_json::to_writer(&mut *report, &record);
    report.push(b'\n');
}

#[cfg(test)]
mod tests;
