//! Checks across the games of one file: duplicate games and a player in two games of one round. Runs on the
//! thread that emits results in order, so "earlier game" means earlier in the file.

use std::collections::HashMap;

use super::report::{GameReport, Problem, ProblemKind};

/// Beyond this many games in one file, duplicate tracking stops (and says so) to keep memory bounded:
/// a million fingerprints take about 40 MB.
pub const MAX_TRACKED_GAMES: usize = 1_000_000;

#[derive(Default)]
pub struct Tournament {
    /// Fingerprint (players + moves) → first game number.
    seen: HashMap<u64, u64>,
    /// (Event, Round, player) → game number.
    rounds: HashMap<(String, String, String), u64>,
    /// Set once the limit is reached.
    pub saturated: bool,
}

impl Tournament {
    pub fn new() -> Tournament {
        Tournament::default()
    }

    /// Adds the cross-game warnings to `report`; returns whether any was added.
    pub fn check(&mut self, report: &mut GameReport) -> bool {
        let before = report.problems.len();
        if self.seen.len() >= MAX_TRACKED_GAMES {
            self.saturated = true;
        } else if report.plies > 0 || report.fingerprint != 0 {
            match self.seen.get(&report.fingerprint) {
                Some(&first) => {
                    let message = format!(
                        "same players and same moves as game {first} ({} – {})",
                        report.white, report.black
                    );
                    report
                        .problems
                        .push(game_level(report, ProblemKind::DuplicateGame, message));
                }
                None => {
                    self.seen.insert(report.fingerprint, report.game);
                }
            }
        }
        let round_known = !matches!(report.round.as_str(), "" | "?" | "-");
        if round_known && !self.saturated {
            for player in [report.white.clone(), report.black.clone()] {
                if matches!(player.as_str(), "" | "?" | "-" | "NN" | "N.N.") {
                    continue;
                }
                let key = (report.event.clone(), report.round.clone(), player.clone());
                match self.rounds.get(&key) {
                    Some(&other) if other != report.game => {
                        let message =
                            format!("{player} also plays game {other} of round {}", report.round);
                        report.problems.push(game_level(
                            report,
                            ProblemKind::PlayerTwiceInRound,
                            message,
                        ));
                    }
                    Some(_) => {}
                    None => {
                        self.rounds.insert(key, report.game);
                    }
                }
            }
        }
        report.problems.len() > before
    }
}

/// A warning about the whole game, located at its first line.
fn game_level(report: &GameReport, kind: ProblemKind, message: String) -> Problem {
    Problem {
        severity: kind.severity(),
        kind,
        line: report.line,
        column: 1,
        ply: None,
        move_number: None,
        move_text: None,
        in_variation: false,
        message,
        suggestion: None,
        offset: 0,
        source_line: String::new(),
    }
}
