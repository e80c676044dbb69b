//! report as a [`Job`] of the run: each game examined on a worker (validate's replay, and the positions the
//! diagrams draw), then collected in input order ([`Collector::add`]: validate's checks across games, the
//! standings, the crosstables' pairings, the listing). The caller ends the collection with
//! [`Collector::finish`] once the run is over, after telling it the inputs that could not be read.

use pgnkit::pgn::GameReader;

use super::{Collector, GameFacts, Limits, examine};
use crate::run::{Input, Job, JobError};
use crate::validate::ValidateOptions;

/// report's job.
pub struct ReportJob {
    opts: ValidateOptions,
    limits: Limits,
}

impl ReportJob {
    /// Games validated with `opts` (whose `messages` is also the language of the checks across games: give
    /// it the page's), the page bounded by `limits`.
    pub fn new(opts: ValidateOptions, limits: Limits) -> ReportJob {
        ReportJob { opts, limits }
    }
}

impl Job for ReportJob {
    type Batch = Vec<GameFacts>;
    type State = Collector;

    fn initial_state(&self) -> Collector {
        Collector::new(self.limits, self.opts.tag_checks)
            .in_locale(self.opts.messages)
            .with_rules(self.opts.unplayed)
    }

    fn work(
        &self,
        input: Input<'_>,
        reader: &mut GameReader<'_>,
    ) -> Result<Vec<GameFacts>, JobError> {
        let mut games = Vec::new();
        while let Some(group) = reader.next_group() {
            // Read a group, then examine it: each step's code serves the whole group while cached.
            for game in group {
                games.push(examine(game, input.name, &self.opts, &self.limits));
            }
        }
        Ok(games)
    }

    /// The input's line in the page's table of files begins (the checks across games go on from the inputs
    /// before: see `Collector::start_file`).
    fn begin_input(&self, collector: &mut Collector, input: Input<'_>) {
        collector.start_file(input.name);
    }

    fn merge(&self, collector: &mut Collector, _: Input<'_>, games: &mut Vec<GameFacts>) {
        for facts in games.drain(..) {
            collector.add(facts);
        }
    }
}
