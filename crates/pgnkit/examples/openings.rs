//! Names the opening of every game of a PGN file from its moves (the embedded lichess table), beside the ECO
//! tag the file gives, and counts how often the two disagree.
//!
//!     cargo run -p pgnkit --example openings -- games.pgn

use std::ops::ControlFlow;
use std::process::ExitCode;

use pgnkit::openings::{self, Classifier};
use pgnkit::pgn::parse_all;
use pgnkit::walk::{self, MoveAt, Visitor, Walk};
use pgnkit::{Move, Position};

/// Shows the classifier every main-line position.
struct Openings(Classifier<'static>);

impl Visitor for Openings {
    type Output = Classifier<'static>;

    fn after_move(
        &mut self,
        at: MoveAt<'_>,
        _: &Move,
        after: &Position,
    ) -> ControlFlow<Self::Output> {
        if at.depth == 0 {
            self.0.observe(after);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: Walk) -> Self::Output {
        self.0
    }
}

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: openings FILE.pgn");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{}: {e}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    let (mut games, mut differ) = (0, 0);
    for game in parse_all(&bytes) {
        let number = game.index + 1;
        let tag = game.tag("ECO").unwrap_or_default();
        let mut visitor = Openings(Classifier::new(openings::table()));
        match walk::replay(&game, None, &mut visitor) {
            Err(e) => println!("game {number}: cannot be replayed: {e:?}"),
            Ok(classifier) => {
                games += 1;
                let (eco, name) = classifier.opening().map_or(("", ""), |o| (o.eco, o.name));
                differ += usize::from(!tag.is_empty() && tag != eco);
                println!("game {number}: {eco} {name} (ECO tag: {tag})");
            }
        }
    }
    println!("{games} games, {differ} whose ECO tag names another code");
    ExitCode::SUCCESS
}
