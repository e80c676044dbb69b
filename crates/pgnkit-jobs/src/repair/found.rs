//! What the repair search found in one game, located and worded: the record validate's JSON carries as
//! `repair`, whose words are validate's `help:` line, and a line of `repair --report`. Below validate and the
//! repair job, which both use it.

use std::fmt::Write as _;

use serde::Serialize;

use crate::localized;
use crate::messages::{Explain, Locale};
use pgnkit::core::{Color, Position};
use pgnkit::notation::Language;
use pgnkit::pgn::{Game, Span};
use pgnkit::repair::{self, Diagnosis, EditKind};
use pgnkit::walk::{self, MoveAt, MoveFailure, Prepared, Visitor, Walk};
use std::ops::ControlFlow;

/// One edit as the report writes it, located at the written token it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct EditRecord {
    /// `substitution`, `insertion`, `deletion`, `transposition` or `broadcast_artefact`.
    pub(crate) kind: &'static str,
    /// The ply of the repaired main line where it takes effect, from 1.
    pub(crate) ply: u32,
    /// `22.` or `22...`: the move number of that ply.
    pub(crate) move_number: String,
    /// Where the written token it concerns is (for an insertion: the token the move goes before).
    pub(crate) line: u64,
    /// See `line`.
    pub(crate) column: u64,
    /// What was written there (none for an insertion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) written: Option<String>,
    /// The move put there, in the game's piece letters (a substitution, an insertion; for a transposition, the
    /// two moves in their new order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) correction: Option<String>,
}

/// A correction or an attempt, as the report writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct CandidateRecord {
    /// Its edits, in the order of the game.
    pub(crate) edits: Vec<EditRecord>,
    /// The whole main line replays after it.
    pub(crate) replays: bool,
    /// Plies of the repaired main line that replay.
    pub(crate) plies_replayed: u32,
    /// Written moves after its last edit that replay.
    pub(crate) later_moves: u32,
    /// How unlikely it is (lower is more plausible; see `pgnkit::repair`).
    pub(crate) cost: u32,
}

/// Where a game's main line first fails as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct FailureRecord {
    pub(crate) line: u64,
    pub(crate) column: u64,
    pub(crate) ply: u32,
    pub(crate) move_number: String,
    pub(crate) written: String,
}

/// What repair found for one faulty game: validate's `repair` field, a line of `repair --report`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRepair {
    /// One correction fits best: the game is repaired with it.
    pub(crate) certain: bool,
    /// The first move that fails as written.
    pub(crate) failed: FailureRecord,
    /// The corrections that fit (the whole main line replays), best first, then the attempts that get
    /// furthest.
    pub(crate) candidates: Vec<CandidateRecord>,
    /// The search spent its budget: nothing is certain.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) exhausted: bool,
    #[serde(skip)]
    lang: Language,
    /// The best correction would leave a move of a variation failing, there (line, column).
    #[serde(skip)]
    pub(crate) variation_fails: Option<(u64, u64)>,
}

impl GameRepair {
    /// What the search found in `game`, located; `None` when the main line replays.
    ///
    /// A correction after which a variation of the game still fails is no repair (the whole game does not
    /// replay): the record is then not certain, and says why. With a repair comes the game's text with it made
    /// (comments in `locale`).
    pub(crate) fn find(
        game: &Game<'_>,
        prepared: &Prepared,
        options: &repair::RepairOptions,
        locale: Locale,
    ) -> Option<(GameRepair, Option<Vec<u8>>)> {
        let diagnosis = repair::diagnose(game, prepared, options)?;
        let mut record = GameRepair::of(game, prepared, &diagnosis);
        let text = diagnosis
            .repair()
            .map(|fix| repair::repaired_text(game, prepared, &diagnosis, fix, locale));
        if let Some(t) = &text
            && let Some((line, column)) = variation_failure(t, prepared.lang.lang)
        {
            record.certain = false;
            record.variation_fails = Some((game.line + line - 1, column));
            return Some((record, None));
        }
        Some((record, text))
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
        let written =
            |token: usize| (token < diagnosis.tokens.len()).then(|| diagnosis.written(game, token));
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
                // The SAN of the candidate's moves, which start at its `first_ply`.
                let all = c.sans(prepared.lang.lang);
                let first = c.first_ply as usize;
                let sans = |ply: usize| ply.checked_sub(first).and_then(|i| all.get(i)).cloned();
                let edits = c
                    .edits
                    .iter()
                    .map(|e| {
                        let (line, column) = locate(e.token);
                        let ply = e.ply as usize - 1;
                        let correction = match e.kind {
                            EditKind::Substitution | EditKind::Insertion => sans(ply),
                            EditKind::Transposition => Some(format!(
                                "{} {}",
                                sans(ply).unwrap_or_default(),
                                sans(ply + 2).unwrap_or_default()
                            )),
                            EditKind::Deletion => None,
                            EditKind::BroadcastArtefact => e.variation.map(|_| {
                                let from = ply.saturating_sub(first).min(all.len());
                                all[from..].join(" ")
                            }),
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
                    plies_replayed: c.replayed,
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
            variation_fails: None,
        }
    }

    /// The repair, when certain.
    pub(crate) fn repair(&self) -> Option<&CandidateRecord> {
        if self.certain {
            self.candidates.first()
        } else {
            None
        }
    }

    /// The corrections that fit.
    pub(crate) fn corrections(&self) -> impl Iterator<Item = &CandidateRecord> {
        self.candidates.iter().filter(|c| c.replays)
    }

    /// One correction fits best: the game is repaired with it.
    pub fn is_certain(&self) -> bool {
        self.certain
    }

    /// Whether its words say more than a "did you mean": a repair, corrections that fit equally, or a
    /// correction a failing variation holds back.
    pub fn worth_telling(&self) -> bool {
        self.certain || self.corrections().count() > 1 || self.variation_fails.is_some()
    }

    /// What JSON writes of it: its help line in `locale`, then the record.
    pub(crate) fn record(&self, locale: Locale) -> RepairRecord<'_> {
        RepairRecord {
            help: self.explain(locale),
            found: self,
        }
    }
}

/// A [`GameRepair`] with its words, as validate's JSON writes it.
#[derive(Serialize)]
pub(crate) struct RepairRecord<'a> {
    help: String,
    #[serde(flatten)]
    found: &'a GameRepair,
}

/// Replays the variations (the main line is the search's): the first failure in one, if any.
struct VariationFailure;

impl Visitor for VariationFailure {
    type Output = Option<Span>;

    fn failure(
        &mut self,
        at: MoveAt<'_>,
        _: &Position,
        _: MoveFailure,
    ) -> ControlFlow<Option<Span>> {
        if at.depth > 0 {
            return ControlFlow::Break(Some(at.token.span));
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Walk) -> Option<Span> {
        None
    }
}

/// Where a move of a variation of `game` first fails, if one does (its span).
pub(crate) fn variation_span(game: &Game<'_>, prepared: &Prepared) -> Option<Span> {
    if !game.has_variations {
        return None;
    }
    walk::walk(game, prepared, Default::default(), &mut VariationFailure)
}

/// Where a variation of a repaired game's text first fails, if one does: its line (counted from the text's
/// first line, 1) and column.
fn variation_failure(text: &[u8], lang: Language) -> Option<(u64, u64)> {
    let games = pgnkit::pgn::parse_all(text);
    let game = games.first()?;
    let prepared = walk::prepare(game, Some(lang)).ok()?;
    let span = variation_span(game, &prepared)?;
    let l = game.location(span.start);
    Some((l.line, u64::from(l.column)))
}

/// `12.` or `12...`: the number of the move at `ply` (from 0) of a line from `start`.
fn move_number(start: &Position, ply: usize) -> String {
    let black_first = start.turn() == Color::Black;
    let half = ply + usize::from(black_first);
    let number = start.fullmoves() as usize + half / 2;
    if half.is_multiple_of(2) {
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
        ("transposition", _) => {
            // The two moves of one side, a move apart: `11. d4 and 12. Nbd2 in the other order`.
            let next = number.trim_end_matches('.').parse::<u64>().map_or_else(
                |_| number.clone(),
                |n| {
                    format!(
                        "{}{}",
                        n + 1,
                        &number[number.find('.').unwrap_or(number.len())..]
                    )
                },
            );
            let mut moves = correction.split(' ');
            let (a, b) = (moves.next().unwrap_or(""), moves.next().unwrap_or(""));
            localized!(
                locale,
                "{number} {a} and {next} {b} in the other order",
                "{number} {a} et {next} {b} dans l'autre ordre"
            )
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
            let removal = best
                .edits
                .last()
                .is_some_and(|e| e.kind == "broadcast_artefact" && e.correction.is_none());
            if removal {
                return localized!(locale, "probably {words}", "sans doute {words}");
            }
            return match n {
                0 => localized!(
                    locale,
                    "probably {words} — {only} (no later move to check it by)",
                    "sans doute {words} — {only} (aucun coup suivant pour la vérifier)",
                ),
                1 => localized!(
                    locale,
                    "probably {words} — {only} after which the one later move replays",
                    "sans doute {words} — {only} après laquelle le coup suivant se rejoue",
                ),
                _ => localized!(
                    locale,
                    "probably {words} — {only} after which the {n} later moves replay",
                    "sans doute {words} — {only} après laquelle les {n} coups suivants se rejouent",
                ),
            };
        }
        if self.variation_fails.is_some()
            && let Some(best) = self.candidates.first()
        {
            let words = candidate_words(best, locale);
            return localized!(
                locale,
                "probably {words}, but a move of a variation would still fail: left as it was",
                "sans doute {words}, mais un coup d'une variante échouerait encore : laissée telle quelle"
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
                let separator = localized!(locale, "; ", " ; ");
                for (i, c) in several.iter().take(3).enumerate() {
                    if i > 0 {
                        text.push_str(&separator);
                    }
                    let _ = write!(text, "{}", candidate_words(c, locale));
                }
                if several.len() > 3 {
                    text.push_str(&separator);
                    text.push('…');
                }
                text
            }
        }
    }
}
