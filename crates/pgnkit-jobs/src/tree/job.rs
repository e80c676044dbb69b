//! The tree as a [`Job`] of the run: a worker replays each chosen game's main line through the window of
//! plies the tree covers and tallies the batch's (position, move) pairs in a map of its own; the merge step
//! only adds up what crosses batches that is not the tallies (games read, tags seen), which the caller's
//! sink hands to a [`TreeBuilder`](super::TreeBuilder).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::ops::ControlFlow;
use std::sync::Mutex;

use pgnkit::core::{Color, Move, MoveKind, Position, PositionKey, Role, Square, polyglot};
use pgnkit::pgn::{Game, GameReader};
use pgnkit::walk::{self, MoveAt, Skip, Variant, VariationAt, Visitor, Walk, WalkOptions};

use super::node::Node;
use super::store::{Key, KeyHasher};
use super::tally::{GameFacts, Reached, Tally};
use super::{TreeOptionError, TreeOptions, TreeRequest};
use crate::messages::Explain;
use crate::run::{Input, Job, JobError};
use crate::select::{TagSightings, WhereJudge};

/// The tallies of a batch, by (position, move).
pub(crate) type Tallies = HashMap<Key, Tally, BuildHasherDefault<KeyHasher>>;

/// tree's job.
pub struct TreeJob {
    pub(crate) opts: TreeOptions,
    /// Maps the sink is done with, for the workers to fill again.
    maps: Mutex<Vec<Tallies>>,
}

/// What one batch gives.
#[derive(Default)]
pub struct TreeBatch {
    pub(crate) tallies: Tallies,
    /// Games read.
    games: u64,
    /// Games chosen (by `--where`, `--player`) that play a move from the root.
    counted: u64,
    tags: TagSightings,
}

/// What the merge step keeps across a run.
#[derive(Default)]
pub struct TreeState {
    /// Games read.
    pub games: u64,
    /// Games chosen that play a move from the root.
    pub counted: u64,
    tags: TagSightings,
}

impl TreeJob {
    /// The job of `request`, checked: refused before any game is read when an option is wrong.
    pub fn new(request: TreeRequest<'_>) -> Result<TreeJob, TreeOptionError> {
        Ok(TreeJob {
            opts: TreeOptions::new(request)?,
            maps: Mutex::default(),
        })
    }

    /// The tags `--where` names that no game of the run had, each with the nearest tag name seen.
    pub fn missing_tags<'a>(&'a self, state: &'a TreeState) -> Vec<impl Explain + 'a> {
        match &self.opts.select.filter {
            Some(filter) => state.tags.missing(&filter.tags()),
            None => Vec::new(),
        }
    }
}

impl Job for TreeJob {
    type Batch = TreeBatch;
    type State = TreeState;

    fn initial_state(&self) -> TreeState {
        TreeState::default()
    }

    fn work(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Result<TreeBatch, JobError> {
        let tallies = self
            .maps
            .lock()
            .ok()
            .and_then(|mut m| m.pop())
            .unwrap_or_default();
        Ok(tree_batch(games, input.name, &self.opts, tallies))
    }

    fn merge(&self, state: &mut TreeState, _input: Input<'_>, batch: &mut TreeBatch) {
        state.games += batch.games;
        state.counted += batch.counted;
        state.tags.merge(&batch.tags);
    }

    fn recycle(&self, mut batch: TreeBatch) {
        batch.tallies.clear();
        if let Ok(mut maps) = self.maps.lock() {
            maps.push(batch.tallies);
        }
    }
}

/// The pairs of one game: each (position, move) with its mover and how it was reached.
type Pairs = Vec<(Key, Color, Reached)>;

/// Tallies every game of a batch; `tallies` is empty, reused from an earlier batch.
fn tree_batch(
    games: &mut GameReader<'_>,
    file: &str,
    opts: &TreeOptions,
    tallies: Tallies,
) -> TreeBatch {
    let mut batch = TreeBatch {
        tallies,
        ..TreeBatch::default()
    };
    let mut judge = WhereJudge::new(&opts.select, file);
    let mut pairs = Pairs::new();
    while let Some(read) = games.next_group() {
        for game in read {
            batch.games += 1;
            if !opts.player.as_ref().is_none_or(|p| p.plays(game)) || !judge.passes(game) {
                continue;
            }
            pairs.clear();
            // A game that never reaches the root, or plays no move from it, is not in the tree.
            if !window(game, opts, &mut pairs) || pairs.is_empty() {
                continue;
            }
            batch.counted += 1;
            let facts = GameFacts::read(
                game.tag("Result").as_deref(),
                game.tag("WhiteElo").as_deref(),
                game.tag("BlackElo").as_deref(),
                game.tag("Date").as_deref(),
            );
            // A game counts once for a pair it plays twice (a repetition inside the window).
            pairs.sort_unstable_by_key(|p| p.0);
            pairs.dedup_by(|later, kept| {
                let same = later.0 == kept.0;
                if same {
                    kept.2.0 |= later.2.0;
                }
                same
            });
            for &(key, mover, reached) in &pairs {
                batch
                    .tallies
                    .entry(key)
                    .or_default()
                    .add(&facts, mover, reached);
            }
        }
    }
    batch.tags = judge.sightings();
    batch
}

/// Fills `pairs` with the game's main-line moves from its first arrival at the root, `opts.depth` at most;
/// whether it arrived there. A game of another variant, or whose start cannot be set up, has none.
fn window(game: &Game<'_>, opts: &TreeOptions, pairs: &mut Pairs) -> bool {
    let Ok(prepared) = walk::prepare(game, opts.select.lang) else {
        return false;
    };
    if prepared.variant != Variant::Standard {
        return false;
    }
    let mut visitor = Window {
        root: &opts.root_key,
        depth: opts.depth,
        arrived: false,
        played: 0,
        passed: None,
        pairs,
    };
    if visitor.root.is_of(&prepared.start) {
        visitor.arrived = true;
    }
    let options = WalkOptions {
        moves_only: true,
        ..WalkOptions::default()
    };
    walk::walk(game, &prepared, options, &mut visitor)
}

/// Whether a pawn of the side to move stands beside the pawn that just passed over `passed` (advancing two
/// squares): Polyglot then hashes the en-passant file, whether or not the capture is legal.
fn pawn_beside(pos: &Position, passed: Square) -> bool {
    let rank = match pos.turn() {
        Color::White => 4,
        Color::Black => 3,
    };
    let file = passed.file().index();
    [file.checked_sub(1), (file < 7).then_some(file + 1)]
        .into_iter()
        .flatten()
        .any(|f| {
            pos.board()
                .piece_at(Square::new((rank * 8 + f) as u8))
                .is_some_and(|p| p.role == Role::Pawn && p.color == pos.turn())
        })
}

/// Follows the main line through the tree's window.
struct Window<'a> {
    root: &'a PositionKey,
    depth: u32,
    /// The main line stood on the root.
    arrived: bool,
    /// Moves counted since.
    played: u32,
    /// The square the last move's pawn passed over, when it advanced two squares.
    passed: Option<Square>,
    pairs: &'a mut Pairs,
}

impl Visitor for Window<'_> {
    type Output = bool;

    fn begin_variation(&mut self, _at: VariationAt) -> ControlFlow<bool, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn before_move(&mut self, _at: MoveAt<'_>, before: &Position, m: &Move) -> ControlFlow<bool> {
        if !self.arrived {
            return ControlFlow::Continue(());
        }
        if self.played == self.depth {
            return ControlFlow::Break(true);
        }
        self.played += 1;
        let node = Node::of(before);
        let reached = match self.passed {
            Some(passed) if before.ep_square().is_none() && pawn_beside(before, passed) => {
                Reached::passed_file(passed.file().index())
            }
            _ => Reached::PLAIN,
        };
        self.pairs
            .push(((node, polyglot::encode_move(m)), before.turn(), reached));
        ControlFlow::Continue(())
    }

    fn after_move(&mut self, _at: MoveAt<'_>, m: &Move, after: &Position) -> ControlFlow<bool> {
        self.passed = (m.kind == MoveKind::DoublePush)
            .then(|| Square::new(((m.from.index() + m.to.index()) / 2) as u8));
        if !self.arrived && self.root.is_of(after) {
            self.arrived = true;
        }
        ControlFlow::Continue(())
    }

    fn null_move(&mut self, _at: MoveAt<'_>, _before: &Position) -> ControlFlow<bool> {
        // A null move is no move of the game's: nothing after it is reached by play.
        ControlFlow::Break(self.arrived)
    }

    fn end_game(&mut self, _walk: Walk) -> bool {
        self.arrived
    }
}
