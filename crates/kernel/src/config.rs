//! The search budget.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use gamegraph_graph::{Budget as Units, Limit};

use crate::KernelError;

/// Limits on a search. The default has none.
///
/// The library reads the clock only to compare it with [`Config::deadline`], after every
/// few hundred thousand elementary steps (an adjacency entry visited, a bitset word
/// combined), that is about every millisecond whatever the cost of a search node, in the
/// reductions and bounds as in the searches themselves; [`Config::stop`] is read as often.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Give up with [`KernelError::Limit`] ([`Limit::Time`]) once this instant has passed
    /// (default: never).
    pub deadline: Option<Instant>,
    /// Give up with [`KernelError::Limit`] ([`Limit::Budget`]) after this many search nodes
    /// (default: no limit).
    pub max_nodes: Option<u64>,
    /// Give up with [`KernelError::Limit`] ([`Limit::Stop`]) once another thread sets this
    /// flag (a user's Ctrl-C, say); default: none.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Config {
    /// A configuration with a deadline.
    pub fn with_deadline(deadline: Instant) -> Config {
        Config { deadline: Some(deadline), ..Config::default() }
    }
}

/// Elementary steps between two readings of the clock.
const CLOCK_EVERY: u64 = 1 << 18;

/// The running count of search nodes and work against a [`Config`].
#[derive(Debug)]
pub(crate) struct Budget {
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    max_nodes: u64,
    pub(crate) nodes: u64,
    /// Elementary steps since the clock was last read.
    work: u64,
    /// Tests: fail as if the deadline had passed at every `.0`-th call of `spend`.
    #[cfg(test)]
    pub(crate) trip: Option<(u64, u64)>,
}

impl Budget {
    pub(crate) fn new(cfg: &Config) -> Budget {
        Budget {
            deadline: cfg.deadline,
            stop: cfg.stop.clone(),
            max_nodes: cfg.max_nodes.unwrap_or(u64::MAX),
            nodes: 0,
            work: 0,
            #[cfg(test)]
            trip: None,
        }
    }

    /// Counts one search node that cost `work` elementary steps; fails when a limit is
    /// reached.
    #[inline]
    pub(crate) fn tick(&mut self, work: u64) -> Result<(), KernelError> {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            let limit = Limit::Budget { what: Units::Nodes, limit: self.max_nodes, needed: None };
            return Err(KernelError::Limit { limit, nodes: self.max_nodes });
        }
        self.spend(work.saturating_add(1))
    }

    /// Counts `work` elementary steps; fails when the deadline has passed (the clock is read
    /// once per [`CLOCK_EVERY`] steps).
    #[inline]
    pub(crate) fn spend(&mut self, work: u64) -> Result<(), KernelError> {
        #[cfg(test)]
        if let Some((every, calls)) = &mut self.trip {
            *calls += 1;
            if *calls % *every == 0 {
                return Err(KernelError::Limit { limit: Limit::Time, nodes: self.nodes });
            }
        }
        self.work = self.work.saturating_add(work);
        if self.work >= CLOCK_EVERY {
            self.work = 0;
            self.check_clock()?;
        }
        Ok(())
    }

    /// A budget for a parallel task: the same deadline, its own node count, no node limit
    /// (parallel searches run only without one, see [`Budget::unlimited_nodes`]).
    pub(crate) fn fork(&self) -> Budget {
        Budget {
            deadline: self.deadline,
            stop: self.stop.clone(),
            max_nodes: u64::MAX,
            nodes: 0,
            work: 0,
            #[cfg(test)]
            trip: None,
        }
    }

    /// Whether no node limit applies, so that a search may run in parallel and still give
    /// the same answer.
    pub(crate) fn unlimited_nodes(&self) -> bool {
        self.max_nodes == u64::MAX
    }

    /// Runs `f` with at most `cap` more nodes. Returns `Ok(None)` when that cap (and not the
    /// configured limit) stopped it.
    pub(crate) fn capped<T>(
        &mut self,
        cap: u64,
        f: impl FnOnce(&mut Budget) -> Result<T, KernelError>,
    ) -> Result<Option<T>, KernelError> {
        let outer = self.max_nodes;
        self.max_nodes = outer.min(self.nodes.saturating_add(cap));
        let r = f(self);
        let capped = self.max_nodes < outer;
        self.max_nodes = outer;
        match r {
            Ok(t) => Ok(Some(t)),
            Err(KernelError::Limit { limit: Limit::Budget { .. }, .. })
                if capped && self.nodes < outer =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The time left before the deadline (zero once it has passed), or `max` when that is
    /// less or there is no deadline: the limit to give work that cannot check the clock.
    pub(crate) fn time_left(&self, max: Duration) -> Duration {
        self.deadline.map_or(max, |d| d.saturating_duration_since(Instant::now()).min(max))
    }

    /// Fails when the deadline has passed or the stop flag is set.
    pub(crate) fn check_clock(&self) -> Result<(), KernelError> {
        match self.clock() {
            Some(limit) => Err(KernelError::Limit { limit, nodes: self.nodes }),
            None => Ok(()),
        }
    }

    /// [`Limit::Stop`] when the stop flag is set, [`Limit::Time`] when the deadline has
    /// passed, `None` otherwise.
    pub(crate) fn clock(&self) -> Option<Limit> {
        if self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
            Some(Limit::Stop)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Limit::Time)
        } else {
            None
        }
    }
}

/// Stops one search after `cap` nodes of its own (not an error: the result is then
/// inexact, with a proven bound).
#[derive(Debug)]
pub(crate) struct Cap {
    left: Option<u64>,
}

impl Cap {
    pub(crate) fn new(cap: Option<u64>) -> Cap {
        Cap { left: cap }
    }

    /// Counts one node; `false` when the cap is used up.
    pub(crate) fn spend(&mut self) -> bool {
        match &mut self.left {
            None => true,
            Some(0) => false,
            Some(l) => {
                *l -= 1;
                true
            }
        }
    }

    /// Whether a cap applies.
    pub(crate) fn limited(&self) -> bool {
        self.left.is_some()
    }
}
