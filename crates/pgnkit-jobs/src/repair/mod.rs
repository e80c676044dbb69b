//! `repair`: every game written out in input order, a game whose main line does not replay put right when
//! [`pgnkit::repair`] finds it one certain correction, with a comment at each edit saying what was written; any
//! other game byte for byte. What was found is told as a record per faulty game ([`GameRepair`]), the same
//! record validate's JSON carries as `repair` and whose words are validate's `help:` line.

mod job;

pub use job::RepairJob;

use std::fmt::Write as _;

use serde::Serialize;

use crate::localized;
use crate::messages::{Explain, Locale, plural};
use crate::validate::{Finding, TagText, problem_at};
use pgnkit::core::{Color, Position};
use pgnkit::notation::{Language, SanPlus};
use pgnkit::pgn::{Game, GameReader, Span};
use pgnkit::repair::{self, Candidate, Diagnosis, EditKind};
use pgnkit::walk::{self, MoveAt, MoveFailure, Prepared, Visitor, Walk};

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

/// One edit as the report writes it, located at the written token it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditRecord {
    /// `substitution`, `insertion`, `deletion`, `transposition` or `broadcast_artefact`.
    pub kind: &'static str,
    /// The ply of the repaired main line where it takes effect, from 1.
    pub ply: u32,
    /// `22.` or `22...`: the move number of that ply.
    pub move_number: String,
    /// Where the written token it concerns is (for an insertion: the token the move goes before).
    pub line: u64,
    /// See `line`.
    pub column: u64,
    /// What was written there (none for an insertion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// The move put there, in the game's piece letters (a substitution, an insertion; for a transposition, the
    /// two moves in their new order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correction: Option<String>,
}

/// A correction or an attempt, as the report writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CandidateRecord {
    /// Its edits, in the order of the game.
    pub edits: Vec<EditRecord>,
    /// The whole main line replays after it.
    pub replays: bool,
    /// Plies of the repaired main line that replay.
    pub plies_replayed: u32,
    /// Written moves after its last edit that replay.
    pub later_moves: u32,
    /// How unlikely it is (lower is more plausible; see `pgnkit::repair`).
    pub cost: u32,
}

/// Where a game's main line first fails as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureRecord {
    pub line: u64,
    pub column: u64,
    pub ply: u32,
    pub move_number: String,
    pub written: String,
}

/// What repair found for one faulty game: validate's `repair` field, a line of `repair --report`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRepair {
    /// One correction fits best: the game is repaired with it.
    pub certain: bool,
    /// The first move that fails as written.
    pub failed: FailureRecord,
    /// The corrections that fit (the whole main line replays), best first, then the attempts that get
    /// furthest.
    pub candidates: Vec<CandidateRecord>,
    /// The search spent its budget: nothing is certain.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exhausted: bool,
    #[serde(skip)]
    lang: Language,
}

impl GameRepair {
    /// What the search found in `game`, located; `None` when the main line replays.
    pub fn find(
        game: &Game<'_>,
        prepared: &Prepared,
        options: &repair::RepairOptions,
    ) -> Option<(GameRepair, Diagnosis)> {
        let diagnosis = repair::diagnose(game, prepared, options)?;
        let record = GameRepair::of(game, prepared, &diagnosis);
        Some((record, diagnosis))
    }

    fn of(game: &Game<'_>, prepared: &Prepared, diagnosis: &Diagnosis) -> GameRepair {
        let locate = |token: usize| {
            let span = diagnosis
                .tokens
                .get(token)
                .map_or(Span::default(), |&i| game.tokens[i].span);
            let location = game.location(span.start);
            (location.line, u64::from(location.column))
        };
        let written = |token: usize| diagnosis.written().get(token).cloned();
        let (line, column) = locate(diagnosis.failed_at);
        let failed = FailureRecord {
            line,
            column,
            ply: diagnosis.failed_at as u32 + 1,
            move_number: move_number(&prepared.start, diagnosis.failed_at),
            written: written(diagnosis.failed_at).unwrap_or_default(),
        };
        let candidates = diagnosis
            .candidates
            .iter()
            .map(|c| {
                let sans = sans_of(prepared, c);
                let edits = c
                    .edits
                    .iter()
                    .map(|e| {
                        let (line, column) = locate(e.token);
                        let ply = e.ply as usize - 1;
                        let correction = match e.kind {
                            EditKind::Substitution | EditKind::Insertion => sans.get(ply).cloned(),
                            EditKind::Transposition => Some(format!(
                                "{} {}",
                                sans.get(ply).cloned().unwrap_or_default(),
                                sans.get(ply + 2).cloned().unwrap_or_default()
                            )),
                            EditKind::Deletion => None,
                            EditKind::BroadcastArtefact => {
                                e.variation.map(|_| sans[ply.min(sans.len())..].join(" "))
                            }
                        };
                        let written = match e.kind {
                            EditKind::Insertion => None,
                            EditKind::Transposition => Some(format!(
                                "{} {}",
                                written(e.token).unwrap_or_default(),
                                written(e.token + 2).unwrap_or_default()
                            )),
                            EditKind::BroadcastArtefact => Some(
                                (e.token..e.token + e.len)
                                    .filter_map(written)
                                    .collect::<Vec<_>>()
                                    .join(" "),
                            ),
                            _ => written(e.token),
                        };
                        EditRecord {
                            kind: e.kind.as_str(),
                            ply: e.ply,
                            move_number: move_number(&prepared.start, ply),
                            line,
                            column,
                            written,
                            correction,
                        }
                    })
                    .collect();
                CandidateRecord {
                    edits,
                    replays: c.complete,
                    plies_replayed: c.moves.len() as u32,
                    later_moves: c.later_moves,
                    cost: c.cost,
                }
            })
            .collect();
        GameRepair {
            certain: diagnosis.certain,
            failed,
            candidates,
            exhausted: diagnosis.exhausted,
            lang: prepared.lang.lang,
        }
    }

    /// The repair, when certain.
    pub fn repair(&self) -> Option<&CandidateRecord> {
        if self.certain {
            self.candidates.first()
        } else {
            None
        }
    }

    /// The corrections that fit.
    pub fn corrections(&self) -> impl Iterator<Item = &CandidateRecord> {
        self.candidates.iter().filter(|c| c.replays)
    }

    /// The game's piece letters (what the corrections are written in).
    pub fn lang(&self) -> Language {
        self.lang
    }
}

/// The SAN, with check marks, of a candidate's moves in the game's letters.
fn sans_of(prepared: &Prepared, candidate: &Candidate) -> Vec<String> {
    let mut pos = prepared.start.clone();
    candidate
        .moves
        .iter()
        .map(|m| {
            SanPlus::from_move_and_play(&mut pos, m)
                .display(prepared.lang.lang)
                .to_string()
        })
        .collect()
}

/// `12.` or `12...`: the number of the move at `ply` (from 0) of a line from `start`.
fn move_number(start: &Position, ply: usize) -> String {
    let black_first = start.turn() == Color::Black;
    let half = ply + usize::from(black_first);
    let number = start.fullmoves() as usize + half / 2;
    if half % 2 == 0 {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

/// One edit in words: `22. Ra3 for Ra4`, `22... Kh8 left out`...
fn edit_words(edit: &EditRecord, locale: Locale) -> String {
    let number = &edit.move_number;
    let written = edit.written.as_deref().unwrap_or("");
    let correction = edit.correction.as_deref().unwrap_or("");
    match (edit.kind, locale) {
        ("substitution", Locale::En) => format!("{number} {correction} for {written}"),
        ("substitution", Locale::Fr) => format!("{number} {correction} au lieu de {written}"),
        ("insertion", Locale::En) => format!("{number} {correction} left out"),
        ("insertion", Locale::Fr) => format!("{number} {correction} oublié"),
        ("deletion", Locale::En) => format!("{number} {written} removed"),
        ("deletion", Locale::Fr) => format!("{number} {written} supprimé"),
        ("transposition", Locale::En) => {
            format!("{number} {correction} (written in the other order, {written})")
        }
        ("transposition", Locale::Fr) => {
            format!("{number} {correction} (écrits dans l'autre ordre, {written})")
        }
        (_, Locale::En) if edit.correction.is_some() => {
            format!(
                "the variation at {number} promoted over the moves that stop (a broadcast's correction)"
            )
        }
        (_, Locale::Fr) if edit.correction.is_some() => format!(
            "la variante en {number} promue à la place des coups qui s'arrêtent (une correction de la retransmission)"
        ),
        (_, Locale::En) => format!("{number} {written} removed (played after the game)"),
        (_, Locale::Fr) => format!("{number} {written} supprimés (joués après la partie)"),
    }
}

/// A candidate's edits in words.
pub(crate) fn candidate_words(c: &CandidateRecord, locale: Locale) -> String {
    c.edits
        .iter()
        .map(|e| edit_words(e, locale))
        .collect::<Vec<_>>()
        .join(localized!(locale, ", then ", ", puis ").as_str())
}

/// The help line validate shows and the note repair gives: `probably 22. Ra3 for Ra4 — the only correction
/// after which the 57 later moves replay`, or the corrections that fit equally.
impl Explain for GameRepair {
    fn explain(&self, locale: Locale) -> String {
        let fitting: Vec<&CandidateRecord> = self.corrections().collect();
        if let Some(best) = self.repair() {
            let n = u64::from(best.later_moves);
            let only = if fitting.len() == 1 {
                localized!(locale, "the only correction", "la seule correction")
            } else {
                localized!(
                    locale,
                    "the likeliest correction",
                    "la correction la plus probable"
                )
            };
            let words = candidate_words(best, locale);
            let s = plural(locale, n);
            return localized!(
                locale,
                "probably {words} — {only} after which the {n} later move{s} replay",
                "sans doute {words} — {only} après laquelle les {n} coup{s} suivant{s} se rejouent",
            );
        }
        if self.exhausted {
            return localized!(
                locale,
                "no repair: the search stopped at its limit",
                "pas de correction : la recherche s'est arrêtée à sa limite"
            );
        }
        match fitting.as_slice() {
            [] => localized!(
                locale,
                "no correction of a few edits lets the rest of the game replay",
                "aucune correction de quelques modifications ne permet de rejouer la suite de la partie"
            ),
            several => {
                let mut text = localized!(
                    locale,
                    "{} corrections fit equally well: ",
                    "{} corrections conviennent aussi bien : ",
                    several.len()
                );
                for (i, c) in several.iter().take(3).enumerate() {
                    if i > 0 {
                        text.push_str("; ");
                    }
                    let _ = write!(text, "{}", candidate_words(c, locale));
                }
                if several.len() > 3 {
                    text.push_str("; …");
                }
                text
            }
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

/// Replays the variations (the main line is the search's): the first failure in one, if any.
struct VariationFailure(Option<Span>);

impl Visitor for VariationFailure {
    type Output = Option<Span>;

    fn failure(
        &mut self,
        at: MoveAt<'_>,
        _: &Position,
        _: MoveFailure,
    ) -> std::ops::ControlFlow<Option<Span>> {
        if at.depth > 0 {
            return std::ops::ControlFlow::Break(Some(at.token.span));
        }
        std::ops::ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Walk) -> Option<Span> {
        self.0
    }
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
    match GameRepair::find(game, &prepared, &opts.search) {
        Some((found, diagnosis)) => match diagnosis.repair() {
            Some(fix) => Outcome::Repaired {
                text: repair::repaired_text(game, &prepared, &diagnosis, fix, locale),
                found,
            },
            None => {
                let (line, column) = (found.failed.line, found.failed.column);
                Outcome::Unrepaired {
                    reason: found.explain(locale),
                    found: Some(found),
                    line,
                    column,
                }
            }
        },
        None if game.has_variations => {
            let mut visitor = VariationFailure(None);
            match walk::walk(game, &prepared, Default::default(), &mut visitor) {
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
            }
        }
        None => Outcome::Clean,
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
                repaired,
                message,
            };
            match repair_game(game, opts) {
                Outcome::Clean => out.text.extend_from_slice(game.source),
                Outcome::Repaired { text, found } => {
                    out.repaired += 1;
                    out.text.extend_from_slice(&text);
                    let first = found.repair().and_then(|c| c.edits.first());
                    let (line, column) = first
                        .map_or((found.failed.line, found.failed.column), |e| {
                            (e.line, e.column)
                        });
                    let message = found.explain(opts.messages);
                    write_report(
                        &mut out.report,
                        file,
                        game,
                        line,
                        column,
                        &message,
                        Some(&found),
                    );
                    out.notes.push(note(line, column, true, message));
                }
                Outcome::Unrepaired {
                    found,
                    reason,
                    line,
                    column,
                } => {
                    out.unrepaired += 1;
                    out.text.extend_from_slice(game.source);
                    write_report(
                        &mut out.report,
                        file,
                        game,
                        line,
                        column,
                        &reason,
                        found.as_ref(),
                    );
                    out.notes.push(note(line, column, false, reason));
                }
            }
        }
    }
    out
}

fn write_report(
    report: &mut Vec<u8>,
    file: &str,
    game: &Game<'_>,
    line: u64,
    column: u64,
    message: &str,
    found: Option<&GameRepair>,
) {
    let best = found.and_then(|f| f.candidates.first().filter(|c| c.replays));
    let first = best.and_then(|c| c.edits.first());
    let record = ReportLine {
        file,
        game: game.index + 1,
        line,
        column,
        ply: first.map(|e| e.ply).or(found.map(|f| f.failed.ply)),
        kind: first.map(|e| e.kind),
        written: first
            .and_then(|e| e.written.as_deref())
            .or(found.map(|f| f.failed.written.as_str())),
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
