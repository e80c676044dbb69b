//! Replays every game of a PGN file with a visitor and prints, per game, its main-line length, the captures
//! and checks on the main line, the moves played in variations, how the final position stands, and the
//! first move that does not replay (with its line and column).
//!
//!     cargo run -p pgnkit --example replay_visitor -- games.pgn

use std::ops::ControlFlow;
use std::process::ExitCode;

use pgnkit::pgn::parse_all;
use pgnkit::walk::{self, MoveAt, MoveFailure, Visitor, Walk};
use pgnkit::{Move, Position};

/// What the visitor gathers of one game.
#[derive(Default)]
struct Tally {
    captures: u32,
    checks: u32,
    variation_moves: u32,
    /// Byte offset (in the game's text) and reason of the first move that does not replay.
    first_failure: Option<(u32, String)>,
}

impl Visitor for Tally {
    type Output = (Tally, Walk);

    fn after_move(
        &mut self,
        at: MoveAt<'_>,
        m: &Move,
        after: &Position,
    ) -> ControlFlow<Self::Output> {
        if at.depth == 0 {
            self.captures += u32::from(m.is_capture());
            self.checks += u32::from(after.is_check());
        } else {
            self.variation_moves += 1;
        }
        ControlFlow::Continue(())
    }

    fn failure(
        &mut self,
        at: MoveAt<'_>,
        _: &Position,
        failure: MoveFailure,
    ) -> ControlFlow<Self::Output> {
        if self.first_failure.is_none() {
            let reason = match failure {
                MoveFailure::Syntax(e) => format!("not a move: {}", e.kind),
                MoveFailure::San(e) => e.to_string(),
                MoveFailure::GameOver { checkmate: true } => "the game is over: checkmate".into(),
                MoveFailure::GameOver { checkmate: false } => "the game is over: stalemate".into(),
                MoveFailure::Unknown => "unreadable text".into(),
            };
            self.first_failure = Some((at.token.span.start, reason));
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, walk: Walk) -> Self::Output {
        (std::mem::take(self), walk)
    }
}

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: replay_visitor FILE.pgn");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{}: {e}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    for game in parse_all(&bytes) {
        let number = game.index + 1;
        match walk::replay(&game, None, &mut Tally::default()) {
            Err(e) => println!("game {number}: cannot be replayed: {e:?}"),
            Ok((tally, walk)) => {
                let ending = walk.state.termination().map_or("none", |t| t.as_str());
                println!(
                    "game {number}: {} plies, {} captures, {} checks, {} moves in variations, ending {ending}",
                    walk.state.ply(),
                    tally.captures,
                    tally.checks,
                    tally.variation_moves
                );
                if let Some((start, reason)) = tally.first_failure {
                    let at = game.location(start);
                    println!("  line {}, column {}: {reason}", at.line, at.column);
                }
            }
        }
    }
    ExitCode::SUCCESS
}
