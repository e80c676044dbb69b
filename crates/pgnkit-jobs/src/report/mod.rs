//! `report`: one self-contained HTML page about a set of PGN files: per tournament the standings and a
//! crosstable, per game its status, and at each faulty move a board diagram of the position before it with
//! validate's reason and suggestion.
//!
//! The work is split as everywhere else: `examine` runs on the workers (validate's replay, with a companion
//! visitor that keeps the position before each faulty move), `Collector::add` on the ordered output thread
//! (validate's cross-game checks, the tournament model's standings, which games the crosstables draw, the
//! listing), [`Collector::finish`] once every game is in (validate's warnings about whole tournaments), and
//! [`Collector::page`] writes the page at the end. The report's problems are validate's, kind by kind
//! ([`Collector::problem_kinds`]). Whatever the input's size the page is bounded: every count is exact, but the listing,
//! the details, the diagrams and the tournaments shown stop at [`Limits`], and the page says what it left
//! out.

pub(crate) mod board;
pub(crate) mod crosstable;
pub(crate) mod escape;
pub(crate) mod html;
mod job;
pub(crate) mod labels;

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use pgnkit::core::{Move, Position, Square, Termination};
use pgnkit::notation::{Language, San, SanPlus, suggest};
use pgnkit::pgn::{Game, TokenKind};
use pgnkit::walk::{MoveAt, MoveFailure, Visitor, Walk};

use crate::messages::Locale;
use crate::options::Tiebreaks;
use crate::tournament::{Added, GameEntry, Standings};
use crate::validate::tournament::RunWarning;
use crate::validate::{GameReport, Severity, ValidateOptions, validate_game_with};

pub(crate) use board::Diagram;
pub(crate) use crosstable::Pairings;
pub use job::ReportJob;
pub(crate) use labels::Label;

/// How much of a large input the page shows (the counts are always whole).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rows of the games table.
    pub rows: usize,
    /// Games whose problems are shown one by one.
    pub(crate) detailed_games: usize,
    /// Problems shown per game.
    pub(crate) problems_per_game: usize,
    /// Board diagrams on the page.
    pub(crate) diagrams: usize,
    /// Diagrams kept per game on the workers (a game of many broken variations has one failure each).
    pub(crate) diagrams_per_game: usize,
    /// Tournaments shown (the first met).
    pub(crate) tournaments: usize,
    /// Standings rows per tournament.
    pub(crate) standings_rows: usize,
    /// Players of a tournament beyond which no crosstable is drawn.
    pub(crate) crosstable_players: usize,
    /// Games kept for the crosstables, over all tournaments.
    pub(crate) pairings: usize,
    /// Player entries of the standings over all tournaments (as `pgnkit standings`).
    pub(crate) players: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rows: 2000,
            detailed_games: 300,
            problems_per_game: 20,
            diagrams: 300,
            diagrams_per_game: 8,
            tournaments: 50,
            standings_rows: 500,
            crosstable_players: 300,
            pairings: 200_000,
            players: 1_000_000,
        }
    }
}

/// What the report keeps of one game, built on a worker.
#[derive(Clone, Debug)]
pub struct GameFacts {
    /// validate's report.
    pub(crate) report: GameReport,
    /// Diagrams of the position before each faulty move, by the problem's byte offset in the file.
    pub(crate) diagrams: Vec<(u64, Diagram)>,
    /// What the standings need (`None`: no tournament).
    pub(crate) entry: Option<GameEntry>,
    /// The Round tag.
    pub(crate) round: String,
}

/// The positions before faulty moves, seen along validate's walk.
struct Faults {
    /// (token's span start in the game, the token, the position before it)
    found: Vec<(u32, Vec<u8>, Position)>,
    max: usize,
}

impl Faults {
    fn keep(&mut self, game: &Game<'_>, at: MoveAt<'_>, before: &Position) {
        if self.found.len() >= self.max {
            return;
        }
        let token = match &at.token.kind {
            TokenKind::Move(mt) => game.san(mt),
            _ => game.bytes(at.token.span),
        };
        // A diagram marks squares from the token: 16 bytes hold any move; longer text is no move.
        let token = token[..token.len().min(16)].to_vec();
        self.found.push((at.token.span.start, token, *before));
    }
}

/// The companion needs the game to read tokens: a visitor borrowing it for the walk.
struct FaultsIn<'f, 'g, 'a> {
    game: &'g Game<'a>,
    faults: &'f mut Faults,
}

impl Visitor for FaultsIn<'_, '_, '_> {
    type Output = ();

    fn failure(&mut self, at: MoveAt<'_>, before: &Position, _: MoveFailure) -> ControlFlow<()> {
        self.faults.keep(self.game, at, before);
        ControlFlow::Continue(())
    }

    fn null_move(&mut self, at: MoveAt<'_>, before: &Position) -> ControlFlow<()> {
        // validate warns of null moves in the main line only.
        if at.depth == 0 {
            self.faults.keep(self.game, at, before);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Walk) {}
}

/// The squares a move token names: its origin when written in full (`Nb1d2`, `e2e4`), its destination.
fn squares_of(token: &[u8], lang: Language) -> (Option<Square>, Option<Square>) {
    match SanPlus::parse(token, lang).map(|p| p.san) {
        Ok(San::Normal { file, rank, to, .. }) => {
            let from = match (file, rank) {
                (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
                _ => None,
            };
            (from, Some(to))
        }
        _ => (None, None),
    }
}

/// Where a move goes, as a diagram draws it (castling: the king's own destination).
fn span_of(m: &Move) -> (Square, Square) {
    (m.from, m.king_destination())
}

/// Validates one game and keeps what the page needs of it (on a worker).
pub(crate) fn examine(
    game: &Game<'_>,
    file: &Arc<str>,
    opts: &ValidateOptions,
    limits: &Limits,
) -> GameFacts {
    let mut faults = Faults {
        found: Vec::new(),
        max: limits.diagrams_per_game,
    };
    let (report, _) = validate_game_with(
        game,
        file,
        opts,
        &mut FaultsIn {
            game,
            faults: &mut faults,
        },
    );
    let mut diagrams = Vec::new();
    for (start, token, position) in faults.found {
        let offset = game.offset + u64::from(start);
        let Some(problem) = report
            .problems
            .iter()
            .find(|p| p.offset == offset && p.ply.is_some())
        else {
            continue;
        };
        let (from, to) = squares_of(&token, report.lang);
        // validate said which move was meant; the same search gives its squares.
        let suggestion = problem
            .suggestion
            .as_ref()
            .and_then(|_| suggest(&position, &token, report.lang))
            .map(|s| span_of(&s.mv));
        diagrams.push((
            offset,
            Diagram {
                position,
                from,
                to,
                suggestion,
            },
        ));
    }
    GameFacts {
        // validate's fingerprint: a game the page calls a duplicate is the one its standings count once.
        entry: GameEntry::of(game).map(|e| e.fingerprinted(report.fingerprint)),
        round: game.tag("Round").map(|r| r.to_string()).unwrap_or_default(),
        report,
        diagrams,
    }
}

/// A game's status on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Status {
    /// No error, no warning (notes allowed: spellings read as meant).
    Ok,
    /// Warnings, no error.
    Warnings,
    /// At least one error.
    Errors,
}

impl Status {
    /// The status of a report.
    pub(crate) fn of(report: &GameReport) -> Status {
        if report.errors() > 0 {
            Status::Errors
        } else if report.warnings() > 0 {
            Status::Warnings
        } else {
            Status::Ok
        }
    }

    /// The word for it.
    pub(crate) fn label(self) -> Label {
        match self {
            Status::Ok => Label::StatusOk,
            Status::Warnings => Label::StatusWarnings,
            Status::Errors => Label::StatusErrors,
        }
    }
}

/// One input's counts.
#[derive(Clone, Debug, Default)]
pub(crate) struct FileSummary {
    /// The input's name as the command shows it.
    pub(crate) name: String,
    /// Games read.
    pub(crate) games: u64,
    /// Games without error or warning.
    pub(crate) ok: u64,
    /// Games with warnings and no error.
    pub(crate) with_warnings: u64,
    /// Games with errors.
    pub(crate) with_errors: u64,
    /// Games not in the games table.
    pub(crate) not_listed: u64,
}

/// A row of the games table.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    /// Index of the file in [`Collector::files`].
    pub(crate) file: usize,
    /// 1-based game number in its file.
    pub(crate) game: u64,
    /// Round, White, Black and Result tags.
    pub(crate) round: String,
    /// White's name.
    pub(crate) white: String,
    /// Black's name.
    pub(crate) black: String,
    /// The Result tag, else the marker.
    pub(crate) result: String,
    /// ok, warnings or errors.
    pub(crate) status: Status,
    /// How the game ended by rule.
    pub(crate) termination: Option<Termination>,
    /// Errors and warnings.
    pub(crate) problems: u64,
    /// Whether its problems are shown one by one (an anchor to link to).
    pub(crate) detailed: bool,
}

/// A game whose problems are shown one by one.
#[derive(Clone, Debug)]
pub(crate) struct Detail {
    /// Index of the file in [`Collector::files`].
    pub(crate) file: usize,
    /// validate's report, its problems cut to [`Limits::problems_per_game`].
    pub(crate) report: GameReport,
    /// Problems of the game not shown.
    pub(crate) hidden: u64,
    /// The diagrams drawn, by problem offset.
    pub(crate) diagrams: Vec<(u64, Diagram)>,
}

/// Everything the page says, gathered game by game in input order.
pub struct Collector {
    limits: Limits,
    tag_checks: bool,
    /// validate's cross-game checks over all the inputs, their warnings in the page's language.
    checks: crate::validate::Tournament,
    /// The inputs, in order.
    pub(crate) files: Vec<FileSummary>,
    /// The games table.
    pub(crate) rows: Vec<Row>,
    /// The games shown in detail.
    pub(crate) details: Vec<Detail>,
    /// The standings of every tournament.
    pub standings: Standings,
    /// How many games of each tournament shown its crosstable draws.
    pub(crate) pairings: Pairings,
    /// Games read.
    pub games: u64,
    /// Problems by severity (a record that stands for several counts them all).
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Notes.
    pub notes: u64,
    /// Games with problems not shown in detail.
    pub(crate) games_not_detailed: u64,
    /// Problems of detailed games not shown.
    pub(crate) problems_not_shown: u64,
    /// Diagrams drawn.
    pub diagrams_drawn: u64,
    /// Diagrams not drawn (over the limit).
    pub(crate) diagrams_not_drawn: u64,
    /// What could not be read.
    pub(crate) read_errors: Vec<String>,
    /// Inputs (or parts of one) that could not be read, all counted.
    read_failures: u64,
    /// validate's warnings about whole tournaments (round numbering), known once every game is in
    /// ([`Collector::finish`]); the first [`Limits::rows`] of them.
    pub(crate) run_warnings: Vec<RunWarning>,
    /// Every error, warning and note found, by kind, as validate counts them.
    kinds: BTreeMap<&'static str, u64>,
}

impl Collector {
    /// The report, reading the games that are not played games by `rules` (before any game is added).
    pub(crate) fn with_rules(self, rules: crate::options::UnplayedRules) -> Collector {
        Collector {
            standings: Standings::new(self.limits.players).with_rules(rules),
            ..self
        }
    }

    /// An empty report; `tag_checks` adds validate's cross-game warnings (duplicates, a player twice in a
    /// round, and round numbering at [`Collector::finish`]).
    pub(crate) fn new(limits: Limits, tag_checks: bool) -> Collector {
        Collector {
            limits,
            tag_checks,
            checks: crate::validate::Tournament::new(),
            files: Vec::new(),
            rows: Vec::new(),
            details: Vec::new(),
            standings: Standings::new(limits.players),
            pairings: Pairings::new(limits.tournaments, limits.pairings),
            games: 0,
            errors: 0,
            warnings: 0,
            notes: 0,
            games_not_detailed: 0,
            problems_not_shown: 0,
            diagrams_drawn: 0,
            diagrams_not_drawn: 0,
            read_errors: Vec::new(),
            read_failures: 0,
            run_warnings: Vec::new(),
            kinds: BTreeMap::new(),
        }
    }

    /// The collector with its cross-game warnings in `locale` (validate's messages about each game follow
    /// [`crate::validate::ValidateOptions::messages`]): give both the page's language.
    pub(crate) fn in_locale(self, locale: crate::messages::Locale) -> Collector {
        Collector {
            checks: crate::validate::Tournament::new_in(locale),
            ..self
        }
    }

    /// The limits in force.
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A new input begins. validate's cross-game checks go on across the inputs, as `pgnkit validate` makes
    /// them and as the standings count a tournament: a game copied into a second file is a duplicate.
    pub(crate) fn start_file(&mut self, name: &str) {
        self.files.push(FileSummary {
            name: name.to_string(),
            ..FileSummary::default()
        });
    }

    /// An input (or part of one) could not be read.
    fn read_error(&mut self, message: String) {
        self.read_failures += 1;
        // Bounded like everything else: a directory of a million unreadable files still makes a page.
        if self.read_errors.len() < self.limits.rows {
            self.read_errors.push(message);
        }
    }

    /// Once every game is in: the inputs (or parts of them) that could not be read, the messages of the first
    /// of them (`read_errors`, listed up to [`Limits::rows`]) and how many more there were (`unlisted`,
    /// counted); then validate's findings about the run, counted as validate counts them: the warnings about
    /// whole tournaments (`round_numbering`, from its checks across games), and `no_games` when the inputs,
    /// all read, held no game.
    pub fn finish(&mut self, read_errors: Vec<String>, unlisted: u64) {
        for message in read_errors {
            self.read_error(message);
        }
        self.read_failures += unlisted;
        if self.tag_checks {
            let checks = std::mem::take(&mut self.checks);
            for w in checks.finish() {
                self.warnings += w.problem.times();
                *self.kinds.entry(w.problem.kind().as_str()).or_default() += w.problem.times();
                if self.run_warnings.len() < self.limits.rows {
                    self.run_warnings.push(w);
                }
            }
        }
        if self.games == 0 && self.read_failures == 0 {
            self.warnings += 1;
            *self.kinds.entry("no_games").or_default() += 1;
        }
    }

    /// Every problem found, by kind (validate's kinds, and `no_games`), with how many times each was found:
    /// what `pgnkit validate` finds on the same inputs.
    pub fn problem_kinds(&self) -> &BTreeMap<&'static str, u64> {
        &self.kinds
    }

    /// Whether the run found problems, as validate counts them: an error, or no game at all.
    pub fn has_problems(&self) -> bool {
        self.errors > 0 || self.games == 0
    }

    /// The page, its labels and messages in `lang`; standings and crosstables only for the tournaments whose
    /// Event tag is `event` when it is given (every game is listed), ranked by `tiebreaks` as `pgnkit
    /// standings` ranks by them (`Tiebreaks::default()`: each tournament's default list for its kind).
    pub fn page(&self, event: Option<&str>, tiebreaks: &Tiebreaks, lang: Locale) -> String {
        let opts = html::PageOptions {
            lang,
            event,
            tiebreaks,
        };
        html::page(self, &opts)
    }

    /// Adds one game, in input order.
    pub(crate) fn add(&mut self, facts: GameFacts) {
        let GameFacts {
            mut report,
            diagrams,
            entry,
            round,
        } = facts;
        if self.files.is_empty() {
            self.start_file(&report.file);
        }
        if self.tag_checks {
            self.checks.check(&mut report);
        }
        // The crosstables show the games the standings count, and no other.
        if let Added::Counted { .. } = self.standings.add(entry.as_ref())
            && let Some(entry) = &entry
        {
            self.pairings.add(&entry.key);
        }
        self.games += 1;
        self.errors += report.errors();
        self.warnings += report.warnings();
        self.notes += report.notes();
        for p in &report.problems {
            *self.kinds.entry(p.kind().as_str()).or_default() += p.times();
        }
        let status = Status::of(&report);
        let file_index = self.files.len() - 1;
        let file = &mut self.files[file_index];
        file.games += 1;
        match status {
            Status::Ok => file.ok += 1,
            Status::Warnings => file.with_warnings += 1,
            Status::Errors => file.with_errors += 1,
        }
        let problems = report.errors() + report.warnings();
        let detailed = status != Status::Ok && self.details.len() < self.limits.detailed_games;
        if status != Status::Ok && !detailed {
            self.games_not_detailed += 1;
        }
        if self.rows.len() < self.limits.rows {
            self.rows.push(Row {
                file: file_index,
                game: report.game,
                round: round.trim().to_string(),
                white: report.white.to_string(),
                black: report.black.to_string(),
                result: if report.result.is_empty() {
                    report
                        .marker
                        .map(|m| m.as_str().to_string())
                        .unwrap_or_default()
                } else {
                    report.result.to_string()
                },
                status,
                termination: report.termination,
                problems,
                detailed,
            });
        } else {
            file.not_listed += 1;
        }
        if detailed {
            // Notes are spellings read as meant: counted, not shown one by one.
            report.problems.retain(|p| p.severity != Severity::Note);
            let keep = self.limits.problems_per_game;
            let hidden: u64 = report.problems.iter().skip(keep).map(|p| p.times()).sum();
            report.problems.truncate(keep);
            self.problems_not_shown += hidden;
            let mut kept = Vec::new();
            for (offset, diagram) in diagrams {
                if !report.problems.iter().any(|p| p.offset == offset) {
                    continue;
                }
                if self.diagrams_drawn < self.limits.diagrams as u64 {
                    self.diagrams_drawn += 1;
                    kept.push((offset, diagram));
                } else {
                    self.diagrams_not_drawn += 1;
                }
            }
            self.details.push(Detail {
                file: file_index,
                report,
                hidden,
                diagrams: kept,
            });
        } else if status != Status::Ok {
            self.diagrams_not_drawn += diagrams.len() as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::pgn::parse_all;

    fn opts() -> ValidateOptions {
        ValidateOptions {
            tag_checks: true,
            track_claims: true,
            report_tags: true,
            ..ValidateOptions::default()
        }
    }

    fn facts(pgn: &str) -> Vec<GameFacts> {
        let file: Arc<str> = "t.pgn".into();
        parse_all(pgn.as_bytes())
            .iter()
            .map(|g| examine(g, &file, &opts(), &Limits::default()))
            .collect()
    }

    #[test]
    fn a_diagram_of_the_position_before_the_faulty_move() {
        // 2. Qxe5: the queen on d1 is blocked by the pawn on d2.
        let f = facts(
            "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Qxe5 *\n",
        );
        let g = &f[0];
        assert_eq!(g.report.errors(), 1);
        assert_eq!(g.diagrams.len(), 1);
        let (offset, d) = &g.diagrams[0];
        let problem = g
            .report
            .problems
            .iter()
            .find(|p| p.offset == *offset)
            .unwrap();
        assert_eq!(problem.move_text.as_deref(), Some("Qxe5"));
        // The position after 1. e4 e5, White to move, 32 pieces; the target is marked.
        assert_eq!(d.position.board().iter().count(), 32);
        assert_eq!(d.position.turn(), pgnkit::core::Color::White);
        assert!(d.position.board().piece_at(Square::E5).is_some());
        assert_eq!(d.to, Some(Square::E5));
        assert_eq!(d.from, None);
    }

    #[test]
    fn a_suggestion_is_marked_on_the_board() {
        // No knight reaches g3; whether validate suggests a move or not, the diagram agrees with it.
        let f = facts("[Event \"E\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ng3 *\n");
        let g = &f[0];
        let (offset, d) = &g.diagrams[0];
        let problem = g
            .report
            .problems
            .iter()
            .find(|p| p.offset == *offset)
            .unwrap();
        assert_eq!(problem.suggestion.is_some(), d.suggestion.is_some());
        assert_eq!(d.to, Some(Square::G3));
    }

    #[test]
    fn counts_status_and_limits() {
        let mut pgn = String::new();
        for i in 0..10 {
            let moves = if i % 2 == 0 {
                "1. e4 e5 *"
            } else {
                "1. e4 e4 *"
            };
            pgn.push_str(&format!(
                "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"{i}\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"*\"]\n\n{moves}\n\n"
            ));
        }
        let limits = Limits {
            rows: 4,
            detailed_games: 2,
            diagrams: 1,
            ..Limits::default()
        };
        let mut c = Collector::new(limits, true);
        c.start_file("t.pgn");
        for f in facts(&pgn) {
            c.add(f);
        }
        assert_eq!(c.games, 10);
        assert_eq!(c.files[0].with_errors, 5);
        assert_eq!(c.files[0].ok + c.files[0].with_warnings, 5);
        assert_eq!(c.rows.len(), 4);
        assert_eq!(c.files[0].not_listed, 6);
        assert_eq!(c.details.len(), 2);
        assert_eq!(c.games_not_detailed, 3);
        assert_eq!((c.diagrams_drawn, c.diagrams_not_drawn), (1, 4));
        assert!(c.has_problems());
        assert_eq!(c.standings.ranked(&Tiebreaks::default()).len(), 1);
    }

    #[test]
    fn no_game_is_a_problem() {
        let c = Collector::new(Limits::default(), true);
        assert!(c.has_problems());
    }
}
