//! select as a [`Job`] of the run: each batch's games judged on a worker, then, in input order, the
//! duplicates told (`--dedupe`: a game is a duplicate of an earlier chosen game of the whole run) and the tags
//! `--where` names looked for.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use pgnkit::pgn::GameReader;

use super::{SelectBatch, SelectOptions, TagSightings, select_batch};
use crate::messages::Explain;
use crate::run::{Input, Job, JobError};

/// select's job.
pub struct SelectJob {
    opts: SelectOptions,
    /// Text buffers the sink is done with, for the workers to fill again.
    buffers: Mutex<Vec<Vec<u8>>>,
}

impl SelectJob {
    pub fn new(opts: SelectOptions) -> SelectJob {
        SelectJob {
            opts,
            buffers: Mutex::default(),
        }
    }

    /// The tags `--where` names that no game of the run had (`state` is the run's), in the expression's
    /// order, each explained with the nearest tag name the games had: a misspelt tag chose nothing without a
    /// word.
    pub fn missing_tags<'a>(&'a self, state: &'a SelectState) -> Vec<impl Explain + 'a> {
        match &self.opts.filter {
            Some(filter) => state.tags.missing(&filter.tags()),
            None => Vec::new(),
        }
    }
}

/// What select keeps across the games of a run.
#[derive(Default)]
pub struct SelectState {
    /// The keys of the chosen games so far (`--dedupe`).
    seen: HashSet<u128, BuildHasherDefault<KeyHasher>>,
    /// Which tags `--where` names the games have.
    pub(crate) tags: TagSightings,
}

/// Keys are already uniform 128-bit hashes: their low half is a good enough hash for the set.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

impl Job for SelectJob {
    type Batch = SelectBatch;
    type State = SelectState;

    fn initial_state(&self) -> SelectState {
        SelectState::default()
    }

    fn work(&self, input: Input<'_>, games: &mut GameReader<'_>) -> Result<SelectBatch, JobError> {
        let buf = self
            .buffers
            .lock()
            .ok()
            .and_then(|mut b| b.pop())
            .unwrap_or_default();
        Ok(select_batch(games, input.name, &self.opts, buf))
    }

    fn merge(&self, state: &mut SelectState, _input: Input<'_>, batch: &mut SelectBatch) {
        state.tags.merge(&batch.tags);
        for chosen in &mut batch.chosen {
            chosen.duplicate = chosen.key.is_some_and(|key| !state.seen.insert(key));
        }
    }

    fn recycle(&self, batch: SelectBatch) {
        if let Ok(mut buffers) = self.buffers.lock() {
            buffers.push(batch.text);
        }
    }
}
