//! Python's `read_games` as a [`Job`] of the run: validate's report of each game with what its record adds
//! (the tags, the main line in SAN and UCI, whether convert would convert it) on the workers, then
//! validate's checks across games in input order. Every record has the same keys, those of convert's JSON
//! lines for a converted game (`san` and `uci` as lists) and validate's verdict; a game that is not converted
//! holds what replayed.

use std::ops::ControlFlow;
use std::sync::Arc;

use serde::{Serialize, Serializer};

use pgnkit::core::{Move, Position, Termination};
use pgnkit::notation::{CheckMark, Language};
use pgnkit::pgn::writer::export_result;
use pgnkit::pgn::{Game, GameReader, GameResult, TokenKind};
use pgnkit::walk::{Confidence, MoveAt, MoveFailure, Visitor, Walk};

use super::report::{ProblemRecords, termination_or_none};
use super::tournament::MAX_TRACKED_GAMES;
use super::{GameReport, Tournament, ValidateOptions, validate_game_with};
use crate::messages::Locale;
use crate::moves::{push_san_body, push_uci};
use crate::run::{Input, Job, JobError};

/// `read_games`' job.
pub struct ReadGamesJob {
    opts: ValidateOptions,
}

impl ReadGamesJob {
    /// Games read and validated with `opts`; every game is followed by the checks across games (a record
    /// costs far more than the 40 bytes a followed game does, so validate's limit would only hide duplicates).
    pub fn new(opts: ValidateOptions) -> ReadGamesJob {
        ReadGamesJob { opts }
    }
}

/// One game as `read_games` gives it: validate's report and what the record adds.
pub struct GameRead {
    report: GameReport,
    /// Names and values, in the file's order.
    tags: Vec<(String, String)>,
    converted: bool,
    result: GameResult,
    san: String,
    uci: String,
}

impl GameRead {
    /// What `read_games` returns of the game, for serde (its messages in English).
    pub fn record(&self) -> impl Serialize + '_ {
        let report = &self.report;
        Record {
            file: &report.file,
            game: report.game,
            converted: self.converted,
            tags: TagMap(&self.tags),
            lang: report.lang,
            lang_confidence: report.lang_confidence,
            result: self.result,
            termination: report.termination,
            plies: report.plies,
            san: MoveList(&self.san),
            uci: MoveList(&self.uci),
            valid: report.valid,
            problems: ProblemRecords::new(&report.problems, Locale::En),
        }
    }
}

impl Job for ReadGamesJob {
    type Batch = Vec<GameRead>;
    type State = Tournament;

    fn initial_state(&self) -> Tournament {
        Tournament::new().with_limit(MAX_TRACKED_GAMES)
    }

    fn work(
        &self,
        input: Input<'_>,
        games: &mut GameReader<'_>,
    ) -> Result<Vec<GameRead>, JobError> {
        let mut read = Vec::new();
        while let Some(game) = games.next_game() {
            read.push(read_game(game, input.name, &self.opts));
        }
        Ok(read)
    }

    fn merge(&self, tournament: &mut Tournament, _: Input<'_>, batch: &mut Vec<GameRead>) {
        for game in batch {
            tournament.check(&mut game.report);
        }
    }
}

/// A game replayed once: validate's report, and the main line seen along its walk.
fn read_game(game: &Game<'_>, name: &Arc<str>, opts: &ValidateOptions) -> GameRead {
    let mut line = MainLine {
        game,
        san: String::new(),
        uci: String::new(),
        failed: false,
    };
    let (report, replay) = validate_game_with(game, name, opts, &mut line);
    // Convert's conditions: no reader error, a start position, every move played.
    let converted = replay.is_some() && !line.failed && game.errors().next().is_none();
    let tags = game
        .tags
        .iter()
        .map(|t| (game.tag_name(t).to_owned(), game.tag_value(t).into_owned()))
        .collect();
    GameRead {
        report,
        tags,
        converted,
        result: export_result(game),
        san: line.san,
        uci: line.uci,
    }
}

/// The main line as far as it replayed, in canonical English SAN and in UCI (as convert's JSON lines write
/// it), seen along validate's walk so that a game is replayed once.
struct MainLine<'g, 'a> {
    game: &'g Game<'a>,
    san: String,
    uci: String,
    /// A move token gave no move, in the main line or a variation: convert would not convert the game.
    failed: bool,
}

impl MainLine<'_, '_> {
    fn separate(&mut self) {
        if !self.san.is_empty() {
            self.san.push(' ');
            self.uci.push(' ');
        }
    }
}

impl Visitor for MainLine<'_, '_> {
    type Output = ();

    fn before_move(&mut self, at: MoveAt<'_>, before: &Position, m: &Move) -> ControlFlow<()> {
        if at.depth == 0 {
            self.separate();
            let token = match &at.token.kind {
                TokenKind::Move(mt) => self.game.san(mt),
                _ => &[],
            };
            push_san_body(&mut self.san, token, at.canonical, before, m, Language::En);
            push_uci(&mut self.uci, before, m);
        }
        ControlFlow::Continue(())
    }

    fn after_move(&mut self, at: MoveAt<'_>, _: &Move, after: &Position) -> ControlFlow<()> {
        if at.depth == 0
            && let Some(mark) = CheckMark::after(after)
        {
            self.san.push_str(mark.as_str());
        }
        ControlFlow::Continue(())
    }

    fn null_move(&mut self, at: MoveAt<'_>, _: &Position) -> ControlFlow<()> {
        if at.depth == 0 {
            self.separate();
            self.san.push_str("--");
            self.uci.push_str("0000");
        }
        ControlFlow::Continue(())
    }

    fn failure(&mut self, _: MoveAt<'_>, _: &Position, _: MoveFailure) -> ControlFlow<()> {
        self.failed = true;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Walk) {}
}

/// A game's tags as a JSON object, in their order.
struct TagMap<'r>(&'r [(String, String)]);

impl Serialize for TagMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

/// Moves separated by spaces, as a JSON list.
struct MoveList<'r>(&'r str);

impl Serialize for MoveList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.split_ascii_whitespace())
    }
}

/// `read_games`' record of a game.
#[derive(Serialize)]
struct Record<'r> {
    file: &'r str,
    game: u64,
    converted: bool,
    tags: TagMap<'r>,
    lang: Language,
    lang_confidence: Confidence,
    result: GameResult,
    #[serde(serialize_with = "termination_or_none")]
    termination: Option<Termination>,
    plies: u32,
    san: MoveList<'r>,
    uci: MoveList<'r>,
    valid: bool,
    problems: ProblemRecords<'r>,
}
