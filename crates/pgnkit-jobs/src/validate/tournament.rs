//! Checks across the games of one file: duplicate games and a player in two games of one round. Runs on the
//! thread that emits results in order, so "earlier game" means earlier in the file.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::report::{GameReport, Problem, ProblemKind};

/// Beyond this many games in one file, duplicate tracking stops (and says so) to keep memory bounded
/// (tens of megabytes at this limit).
pub const MAX_TRACKED_GAMES: usize = 1_000_000;

/// Keys here are already 64-bit hashes (or hashed once into one): mixing them again with SipHash is wasted
/// work on a path that runs once per game.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Map<K> = HashMap<K, u64, BuildHasherDefault<Mix>>;

#[derive(Default)]
pub struct Tournament {
    /// Fingerprint (players + moves) → first game number.
    seen: Map<u64>,
    /// Hash of (Event, Site, Round, player) → game number.
    rounds: Map<u64>,
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
        // A round only means something inside a named event: collections of games from many events (book
        // files, databases) often have `Event "?"` and round numbers that belong to different tournaments.
        let unknown = |s: &str| matches!(s.trim(), "" | "?" | "-");
        if !unknown(&report.round) && !unknown(&report.event) && !self.saturated {
            for white in [true, false] {
                let player = if white { &report.white } else { &report.black };
                if matches!(player.as_str(), "" | "?" | "-" | "NN" | "N.N.") {
                    continue;
                }
                // One 64-bit key per (event, site, round, player): no strings kept per game.
                let mut h = Mix::default();
                for part in [&report.event, &report.site, &report.round, player] {
                    h.write(part.as_bytes());
                    h.write_u64(part.len() as u64);
                }
                let key = h.finish();
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
    Problem::new(kind, report.line, 1, 0, message)
}
