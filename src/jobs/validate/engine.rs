//! Replaying one game: language detection, the main line with the repetition and move-count rules, every
//! variation from its own branching position, result and tag checks. Pure function of the game's bytes,
//! so games can be validated on any thread.

use std::hash::{Hash, Hasher};

use super::report::{GameReport, Problem, ProblemKind, Severity, claim_names, termination_name};
use super::tags::check_tags;
use crate::core::fen;
use crate::core::{CastlingMode, Color, GameState, Move, Position, Termination};
use crate::notation::{
    IllegalReason, Language, LanguageSet, LetterSet, San, SanError, SanPlus, candidate_classes,
    san_letters, suggest,
};
use crate::pgn::{DiagnosticKind, Game, GameResult, MoveToken, Span, TokenKind};

/// What the user asked of validate.
#[derive(Debug, Clone, Default)]
pub struct ValidateOptions {
    /// Piece letters to read moves with; `None` detects them per game.
    pub lang: Option<Language>,
    /// The file is said to be finished: `*` results are worth a warning.
    pub finished: bool,
    /// Check the Seven Tag Roster and the form of Date/Round/Result.
    pub tag_checks: bool,
    /// Find the first ply at which a draw could be claimed (costs a little per move).
    pub track_claims: bool,
}

/// Which game variant the tags announce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    Standard,
    Chess960,
}

/// Reads the Variant tag: standard chess and Chess960 in their usual spellings; anything else is unsupported.
fn variant_of(tag: Option<&str>) -> Result<Variant, String> {
    let Some(raw) = tag else {
        return Ok(Variant::Standard);
    };
    let key: String = raw
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" | "classical" => Ok(Variant::Standard),
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "frc" | "freestyle"
        | "chess960960" => Ok(Variant::Chess960),
        _ => Err(raw.to_string()),
    }
}

/// The language chosen for a game and how sure we are.
struct LanguageChoice {
    lang: Language,
    confidence: &'static str,
    equivalents: LanguageSet,
    /// Several languages reading the letters differently replay the game without error.
    guessed_among: Option<Vec<Language>>,
}

/// The game's move tokens in order, with their depth (0 = main line).
fn letters_used(game: &Game<'_>) -> LetterSet {
    let mut letters = LetterSet::EMPTY;
    for token in &game.tokens {
        if let TokenKind::Move(m) = &token.kind {
            letters = letters.union(san_letters(game.san(m)));
        }
    }
    letters
}

/// How far the main line replays with `lang`: `Ok(plies)` when all of it does, `Err(plies before the first
/// failure)` otherwise. Positions only; no rules bookkeeping.
fn dry_run(game: &Game<'_>, start: &Position, lang: Language) -> Result<u32, u32> {
    let mut pos = *start;
    let mut plies = 0;
    for (_, mt) in game.main_line() {
        let Ok(plus) = SanPlus::parse(game.san(mt), lang) else {
            return Err(plies);
        };
        if plus.san.is_null() {
            pos.play_null();
        } else {
            match plus.san.to_move(&pos) {
                Ok(m) => pos.play_unchecked(m),
                Err(_) => return Err(plies),
            }
        }
        plies += 1;
    }
    Ok(plies)
}

fn choose_language(game: &Game<'_>, start: &Position, opts: &ValidateOptions) -> LanguageChoice {
    if let Some(lang) = opts.lang {
        return LanguageChoice {
            lang,
            confidence: "given",
            equivalents: LanguageSet::EMPTY,
            guessed_among: None,
        };
    }
    let letters = letters_used(game);
    let classes = candidate_classes(letters);
    if letters.is_empty() {
        return LanguageChoice {
            lang: Language::En,
            confidence: "irrelevant",
            equivalents: LanguageSet::EMPTY,
            guessed_among: None,
        };
    }
    let class_choice = |class: LanguageSet, confidence| {
        let lang = class.first().unwrap_or(Language::En);
        LanguageChoice {
            lang,
            confidence,
            equivalents: class.iter().filter(|&l| l != lang).collect(),
            guessed_among: None,
        }
    };
    match classes.as_slice() {
        [only] => class_choice(*only, "letters"),
        [] => {
            // No single language reads every letter (a typo, or mixed letters): the one that replays
            // furthest is the best reading; its first failing move will be reported.
            let best = Language::ALL
                .into_iter()
                .max_by_key(|&l| {
                    let reach = dry_run(game, start, l).unwrap_or_else(|p| p);
                    // Ties go to the preferred language (earlier in ALL): max_by_key keeps the last maximum.
                    (reach, std::cmp::Reverse(l.index()))
                })
                .unwrap_or(Language::En);
            LanguageChoice {
                lang: best,
                confidence: "replay",
                equivalents: LanguageSet::EMPTY,
                guessed_among: None,
            }
        }
        several => {
            let runs: Vec<(LanguageSet, Result<u32, u32>)> = several
                .iter()
                .map(|&class| (class, dry_run(game, start, class.first().unwrap_or(Language::En))))
                .collect();
            let clean: Vec<LanguageSet> = runs.iter().filter(|(_, r)| r.is_ok()).map(|(c, _)| *c).collect();
            match clean.as_slice() {
                [one] => class_choice(*one, "replay"),
                [first, ..] => {
                    let mut choice = class_choice(*first, "guessed");
                    choice.guessed_among = Some(clean.iter().filter_map(|c| c.first()).collect());
                    choice
                }
                [] => {
                    let (best, _) = runs
                        .iter()
                        .rev()
                        .max_by_key(|(_, r)| r.err().unwrap_or(0))
                        .copied()
                        .unwrap_or((several[0], Err(0)));
                    class_choice(best, "replay")
                }
            }
        }
    }
}

/// A variation being replayed: its current position and the one before its last move (where a nested
/// variation branches from).
struct Line {
    pos: Position,
    before: Option<Position>,
    /// An illegal move was found: the rest of this variation (and what nests in it) is skipped.
    dead: bool,
}

/// Where problems are turned into located records.
struct Reporter<'g, 'a> {
    game: &'g Game<'a>,
    problems: Vec<Problem>,
}

impl<'g, 'a> Reporter<'g, 'a> {
    fn push(&mut self, kind: ProblemKind, span: Span, message: String) -> &mut Problem {
        let loc = self.game.location(span.start);
        self.problems.push(Problem {
            severity: kind.severity(),
            kind,
            line: loc.line,
            column: u64::from(loc.column),
            ply: None,
            move_number: None,
            move_text: None,
            in_variation: false,
            message,
            suggestion: None,
            offset: self.game.offset + u64::from(span.start),
            source_line: source_line(self.game, span.start as usize),
        });
        self.problems.last_mut().expect("just pushed")
    }
}

/// The text of the line holding `offset`, decoded, for showing under a diagnostic.
fn source_line(game: &Game<'_>, offset: usize) -> String {
    let src = game.source;
    let offset = offset.min(src.len());
    let start = src[..offset].iter().rposition(|&b| b == b'\n' || b == b'\r').map_or(0, |i| i + 1);
    let end = src[offset..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(src.len(), |i| offset + i);
    crate::pgn::decode(&src[start..end], game.encoding).into_owned()
}

fn move_number(pos: &Position) -> String {
    match pos.turn() {
        Color::White => format!("{}.", pos.fullmoves()),
        Color::Black => format!("{}...", pos.fullmoves()),
    }
}

fn kind_of(err: &SanError) -> ProblemKind {
    match err {
        SanError::Ambiguous { .. } => ProblemKind::Ambiguous,
        SanError::Illegal(reason) => match reason {
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

/// The outcome of reading one move token in a position.
enum Step {
    Move(Move),
    Null,
    Bad {
        kind: ProblemKind,
        message: String,
        suggestion: Option<String>,
    },
}

fn read_move(game: &Game<'_>, mt: &MoveToken, pos: &Position, lang: Language) -> Step {
    let token = game.san(mt);
    let failure = |kind, message: String| {
        let suggestion = suggest(pos, token, lang).map(|s| {
            let san = SanPlus::from_move(pos, &s.mv);
            format!("did you mean {} ({})?", san.display(lang), s.slip)
        });
        Step::Bad {
            kind,
            message,
            suggestion,
        }
    };
    match SanPlus::parse(token, lang) {
        Err(e) => failure(
            ProblemKind::UnreadableMove,
            format!("cannot read \"{}\" as a move: {}", String::from_utf8_lossy(token), e.kind),
        ),
        Ok(plus) if plus.san.is_null() => Step::Null,
        Ok(plus) => match plus.san.to_move(pos) {
            Ok(m) => Step::Move(m),
            Err(err) => {
                if !pos.has_legal_move() {
                    let ended = if pos.is_check() { "checkmate" } else { "stalemate" };
                    return Step::Bad {
                        kind: ProblemKind::MovesAfterGameEnd,
                        message: format!("the game is already over ({ended}): no move can follow"),
                        suggestion: None,
                    };
                }
                failure(kind_of(&err), err.to_string())
            }
        },
    }
}

/// Validates one game. `file` names the input in the report.
pub fn validate_game(game: &Game<'_>, file: &str, opts: &ValidateOptions) -> GameReport {
    let tag = |name: &str| game.tag(name).map(|v| v.into_owned());
    let mut report = GameReport {
        file: file.to_string(),
        game: game.index + 1,
        white: tag("White").unwrap_or_default(),
        black: tag("Black").unwrap_or_default(),
        round: tag("Round").unwrap_or_default(),
        event: tag("Event").unwrap_or_default(),
        result: tag("Result").unwrap_or_default(),
        marker: game.result.map(|r| r.as_str().to_string()),
        lang: "en".into(),
        lang_confidence: "irrelevant",
        lang_equivalents: Vec::new(),
        plies: 0,
        valid: true,
        termination: "none",
        claimable: Vec::new(),
        ended_at_ply: None,
        claimable_from_ply: None,
        unchecked_moves: None,
        variant: None,
        final_fen: String::new(),
        problems: Vec::new(),
        variation_moves: 0,
        line: game.line,
        fingerprint: 0,
    };
    let mut rep = Reporter {
        game,
        problems: Vec::new(),
    };

    // What the reader found.
    for d in &game.diagnostics {
        let kind = match d.kind {
            DiagnosticKind::MissingResult => ProblemKind::MissingResultMarker,
            k if k.severity() == crate::pgn::Severity::Warning => ProblemKind::LenientSyntax,
            _ => ProblemKind::Syntax,
        };
        rep.push(kind, d.span, d.kind.to_string());
    }

    // Tags.
    let tag_span = |i: usize| game.tags[i].span;
    if opts.tag_checks {
        let pairs: Vec<(&str, std::borrow::Cow<'_, str>)> =
            game.tags.iter().map(|t| (game.tag_name(t), game.tag_value(t))).collect();
        let borrowed: Vec<(&str, &str)> = pairs.iter().map(|(n, v)| (*n, v.as_ref())).collect();
        for p in check_tags(&borrowed) {
            let span = p.tag.map_or(game.tags.first().map_or(Span::default(), |t| t.span), tag_span);
            rep.push(p.kind, span, p.message);
        }
    }

    // Start position and variant.
    let variant_tag = tag("Variant");
    let variant = match variant_of(variant_tag.as_deref()) {
        Ok(v) => v,
        Err(name) => {
            let span = game
                .tags
                .iter()
                .find(|t| game.tag_name(t) == "Variant")
                .map_or(Span::default(), |t| t.span);
            rep.push(
                ProblemKind::UnsupportedVariant,
                span,
                format!("variant \"{name}\" is not supported: only standard chess and Chess960 are replayed"),
            );
            report.variant = Some(name);
            return finish(report, rep, None, opts);
        }
    };
    if variant == Variant::Chess960 {
        report.variant = Some("chess960".into());
    }
    let start = match tag("FEN") {
        None => Position::new(),
        Some(text) => {
            let parsed = fen::parse_setup(&text).and_then(|mut p| {
                if variant == Variant::Chess960 {
                    p.mode = CastlingMode::Chess960;
                }
                p.into_position()
            });
            match parsed {
                Ok(pos) => pos,
                Err(errors) => {
                    let span = game
                        .tags
                        .iter()
                        .find(|t| game.tag_name(t) == "FEN")
                        .map_or(Span::default(), |t| t.span);
                    let why: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                    rep.push(
                        ProblemKind::InvalidFen,
                        span,
                        format!("the FEN tag is not a legal position: {}", why.join("; ")),
                    );
                    return finish(report, rep, None, opts);
                }
            }
        }
    };

    // Language.
    let choice = choose_language(game, &start, opts);
    report.lang = choice.lang.code().to_string();
    report.lang_confidence = choice.confidence;
    report.lang_equivalents = choice.equivalents.iter().map(|l| l.code().to_string()).collect();
    if let Some(among) = &choice.guessed_among {
        let names: Vec<&str> = among.iter().map(|l| l.name()).collect();
        let first_move = game.main_line().next().map_or(Span::default(), |(t, _)| t.span);
        rep.push(
            ProblemKind::LanguageGuessed,
            first_move,
            format!(
                "the moves replay legally with the piece letters of several languages ({}); read as {}",
                names.join(", "),
                choice.lang.name()
            ),
        );
    }
    let lang = choice.lang;

    // Replay.
    let mut state = GameState::new(start);
    if !opts.track_claims {
        state = state.without_claim_tracking();
    }
    let mut main_before: Option<Position> = None;
    let mut main_stopped = false;
    let mut unchecked = 0u32;
    let mut lines: Vec<Line> = Vec::new();
    // Depth of variations opened after the main line stopped (skipped entirely).
    let mut skipped_depth = 0u32;
    let mut fingerprint = std::collections::hash_map::DefaultHasher::new();
    report.white.hash(&mut fingerprint);
    report.black.hash(&mut fingerprint);

    for token in &game.tokens {
        match &token.kind {
            TokenKind::VariationStart => {
                if main_stopped {
                    skipped_depth += 1;
                    continue;
                }
                let (branch, dead) = match lines.last() {
                    Some(parent) => (parent.before, parent.dead),
                    None => (main_before, false),
                };
                lines.push(Line {
                    pos: branch.unwrap_or(*state.position()),
                    before: None,
                    // Without a move to branch from, the reader has reported the variation already.
                    dead: dead || branch.is_none(),
                });
            }
            TokenKind::VariationEnd => {
                if skipped_depth > 0 {
                    skipped_depth -= 1;
                } else {
                    lines.pop();
                }
            }
            TokenKind::Move(mt) => {
                if skipped_depth > 0 {
                    continue;
                }
                if let Some(line) = lines.last_mut() {
                    if line.dead {
                        continue;
                    }
                    let before = line.pos;
                    match read_move(game, mt, &before, lang) {
                        Step::Move(m) => {
                            line.before = Some(before);
                            line.pos.play_unchecked(m);
                            report.variation_moves += 1;
                        }
                        Step::Null => {
                            line.before = Some(before);
                            line.pos.play_null();
                        }
                        Step::Bad {
                            kind,
                            message,
                            suggestion,
                        } => {
                            line.dead = true;
                            let p = rep.push(kind, token.span, message);
                            p.in_variation = true;
                            p.move_number = Some(move_number(&before));
                            p.move_text = Some(String::from_utf8_lossy(game.san(mt)).into_owned());
                            p.suggestion = suggestion;
                        }
                    }
                    continue;
                }
                // Main line.
                if main_stopped {
                    unchecked += 1;
                    continue;
                }
                let before = *state.position();
                match read_move(game, mt, &before, lang) {
                    Step::Move(m) => {
                        main_before = Some(before);
                        (m.from, m.to, m.promotion).hash(&mut fingerprint);
                        state.play(m);
                    }
                    Step::Null => {
                        main_before = Some(before);
                        0u8.hash(&mut fingerprint);
                        let p = rep.push(
                            ProblemKind::NullMove,
                            token.span,
                            "a null move passes the turn: it is no chess move (analysis only)".into(),
                        );
                        p.ply = Some(state.ply() + 1);
                        p.move_number = Some(move_number(&before));
                        p.move_text = Some(String::from_utf8_lossy(game.san(mt)).into_owned());
                        state.play_null();
                    }
                    Step::Bad {
                        kind,
                        message,
                        suggestion,
                    } => {
                        main_stopped = true;
                        let p = rep.push(kind, token.span, message);
                        p.ply = Some(state.ply() + 1);
                        p.move_number = Some(move_number(&before));
                        p.move_text = Some(String::from_utf8_lossy(game.san(mt)).into_owned());
                        p.suggestion = suggestion;
                        game.san(mt).hash(&mut fingerprint);
                    }
                }
            }
            _ => {}
        }
    }
    report.fingerprint = fingerprint.finish();
    if main_stopped && unchecked > 0 {
        report.unchecked_moves = Some(unchecked);
        if let Some(p) = rep.problems.iter_mut().rev().find(|p| p.severity == Severity::Error && !p.in_variation) {
            p.message.push_str(&format!(
                " ({} later move{} of the main line left unchecked)",
                unchecked,
                if unchecked == 1 { "" } else { "s" }
            ));
        }
    }
    report.plies = state.ply();
    finish(report, rep, Some(state), opts)
}

/// The result checks and the fields that depend on the final position.
fn finish(
    mut report: GameReport,
    mut rep: Reporter<'_, '_>,
    state: Option<GameState>,
    opts: &ValidateOptions,
) -> GameReport {
    let game = rep.game;
    let marker_span = game
        .tokens
        .iter()
        .rev()
        .find(|t| matches!(t.kind, TokenKind::Result(_)))
        .map(|t| t.span);
    let result_tag_span = game
        .tags
        .iter()
        .find(|t| game.tag_name(t) == "Result")
        .map(|t| t.span);
    let at_end = marker_span.or(result_tag_span).unwrap_or(Span::new(game.source.len(), game.source.len()));

    if let (Some(marker), Some(span)) = (game.result, marker_span)
        && !report.result.is_empty()
        && marker.as_str() != report.result
    {
        rep.push(
            ProblemKind::ResultMismatch,
            span,
            format!(
                "the game ends with {} but its Result tag says {}",
                marker.as_str(),
                report.result
            ),
        );
    }
    // The result the game claims: the tag, else the marker.
    let claimed = if report.result.is_empty() {
        game.result.map(|r| r.as_str().to_string()).unwrap_or_default()
    } else {
        report.result.clone()
    };
    if let Some(state) = &state {
        let pos = state.position();
        let termination = state.termination();
        report.termination = termination_name(termination);
        report.claimable = claim_names(&state.claimable());
        report.final_fen = fen::to_fen(pos);
        if let Some(ended) = state.ended_by_rule()
            && ended.ply < state.ply()
        {
            report.ended_at_ply = Some(ended.ply);
            let span = game.main_line().nth(ended.ply as usize).map_or(at_end, |(t, _)| t.span);
            let p = rep.push(
                ProblemKind::MovesAfterAutomaticDraw,
                span,
                format!(
                    "the game was drawn by the {} after half-move {} (FIDE 9.6 / 5.2.2); {} more half-move{} played on",
                    ended.what.describe(),
                    ended.ply,
                    state.ply() - ended.ply,
                    if state.ply() - ended.ply == 1 { " was" } else { "s were" }
                ),
            );
            p.ply = Some(ended.ply + 1);
        }
        if let Some(claim) = state.first_claim() {
            report.claimable_from_ply = Some(claim.ply);
        }
        let decisive_for = match claimed.as_str() {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            _ => None,
        };
        match termination {
            Some(Termination::Checkmate) => {
                let winner = state.last_mover();
                let expected = if winner == Color::White { "1-0" } else { "0-1" };
                if (claimed == "1/2-1/2" || decisive_for.is_some()) && claimed != expected {
                    rep.push(
                        ProblemKind::ResultContradictsBoard,
                        at_end,
                        format!(
                            "{} is checkmated, so the result must be {expected}, not {claimed}",
                            (!winner).name()
                        ),
                    );
                }
            }
            Some(t) if decisive_for.is_some() => {
                rep.push(
                    ProblemKind::ResultContradictsBoard,
                    at_end,
                    format!("the final position is a draw by {}, so the result must be 1/2-1/2, not {claimed}", t.describe()),
                );
            }
            _ => {
                if let Some(winner) = decisive_for
                    && pos.has_insufficient_material(winner)
                {
                    rep.push(
                        ProblemKind::WinWithoutMatingMaterial,
                        at_end,
                        format!(
                            "{claimed} is a win for {}, who has no material to mate with (FIDE 6.9 makes such a game a draw)",
                            winner.name()
                        ),
                    );
                }
            }
        }
    }
    if claimed == "*" && opts.finished {
        rep.push(ProblemKind::UnfinishedGame, at_end, "the game is unfinished (*) in a file said to be finished".into());
    }
    report.problems = rep.problems;
    report.valid = !report.problems.iter().any(|p| p.severity == Severity::Error);
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_spellings() {
        for s in ["Chess960", "chess 960", "Fischerandom", "fischer random", "960"] {
            assert_eq!(variant_of(Some(s)), Ok(Variant::Chess960), "{s}");
        }
        for s in ["Standard", "From Position", "chess"] {
            assert_eq!(variant_of(Some(s)), Ok(Variant::Standard), "{s}");
        }
        assert!(variant_of(Some("Crazyhouse")).is_err());
        assert!(variant_of(Some("Atomic")).is_err());
    }
}
