//! The search budget.

use std::time::Instant;

use crate::KernelError;

/// Limits on a search. The default has none.
///
/// The library reads the clock only to compare it with [`Config::deadline`], every few
/// hundred search nodes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Config {
    /// Give up with [`KernelError::TimeLimit`] once this instant has passed (default: never).
    pub deadline: Option<Instant>,
    /// Give up with [`KernelError::NodeLimit`] after this many search nodes (default: no limit).
    pub max_nodes: Option<u64>,
}

impl Config {
    /// A configuration with a deadline.
    pub fn with_deadline(deadline: Instant) -> Config {
        Config { deadline: Some(deadline), ..Config::default() }
    }
}

/// The running count of search nodes against a [`Config`].
#[derive(Debug)]
pub(crate) struct Budget {
    deadline: Option<Instant>,
    max_nodes: u64,
    pub(crate) nodes: u64,
}

impl Budget {
    pub(crate) fn new(cfg: &Config) -> Budget {
        Budget { deadline: cfg.deadline, max_nodes: cfg.max_nodes.unwrap_or(u64::MAX), nodes: 0 }
    }

    /// Counts one search node; fails when a limit is reached.
    #[inline]
    pub(crate) fn tick(&mut self) -> Result<(), KernelError> {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            return Err(KernelError::NodeLimit { nodes: self.max_nodes });
        }
        if self.nodes & 255 == 0 {
            self.check_clock()?;
        }
        Ok(())
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
            Err(KernelError::NodeLimit { .. }) if capped && self.nodes < outer => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Fails when the deadline has passed.
    pub(crate) fn check_clock(&self) -> Result<(), KernelError> {
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            return Err(KernelError::TimeLimit { nodes: self.nodes });
        }
        Ok(())
    }
}
