//! Counting the work of one call against [`Config::max_cells`], with progress reports.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::{Config, LIFETIME_CELLS, MAX_STORED_ROWS};
use crate::error::SolveError;

/// Every `PROGRESS_EVERY` rows the progress callback hears how many rows are done.
const PROGRESS_EVERY: u64 = 1 << 16;

/// The cell evaluations spent so far by one call, and its progress callback.
pub(crate) struct Work<'a> {
    used: u64,
    limit: u64,
    progress: &'a mut dyn FnMut(u64),
    /// Set by another thread to stop the call ([`SolveError::Stopped`]).
    stop: Option<&'a AtomicBool>,
}

impl<'a> Work<'a> {
    /// Nothing spent yet, under `config.max_cells`.
    pub(crate) fn new(config: &Config, progress: &'a mut dyn FnMut(u64)) -> Work<'a> {
        Work { used: 0, limit: config.max_cells, progress, stop: None }
    }

    /// As [`Work::new`], also giving up once `stop` is set (read after every row).
    pub(crate) fn with_stop(
        config: &Config,
        progress: &'a mut dyn FnMut(u64),
        stop: &'a AtomicBool,
    ) -> Work<'a> {
        Work { stop: Some(stop), ..Work::new(config, progress) }
    }

    /// Checks, before starting, that `rows` rows of `cols` columns can be computed:
    /// [`SolveError::Hopeless`] beyond [`LIFETIME_CELLS`], [`SolveError::CellLimit`] when
    /// they would exceed what is left of the limit. `searched` is the period search that
    /// failed first, if any (for the message).
    pub(crate) fn plan(
        &self,
        rows: u64,
        cols: u32,
        searched: Option<u64>,
    ) -> Result<(), SolveError> {
        let cells = rows.checked_mul(u64::from(cols)).filter(|&c| c <= LIFETIME_CELLS);
        let Some(cells) = cells else {
            return Err(SolveError::Hopeless { rows, cols, searched });
        };
        if self.used.saturating_add(cells) > self.limit {
            return Err(SolveError::CellLimit { limit: self.limit, needed: Some(cells) });
        }
        Ok(())
    }

    /// Counts the row at distance `r` from the top, of `cols` cells; reports progress
    /// every [`PROGRESS_EVERY`] rows.
    #[inline]
    pub(crate) fn row(&mut self, r: u64, cols: u32) -> Result<(), SolveError> {
        self.used = self.used.saturating_add(u64::from(cols));
        if self.used > self.limit {
            return Err(SolveError::CellLimit { limit: self.limit, needed: None });
        }
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(SolveError::Stopped);
        }
        if r.is_multiple_of(PROGRESS_EVERY) {
            (self.progress)(r);
        }
        Ok(())
    }
}

/// Refuses to keep more than [`MAX_STORED_ROWS`] rows in memory.
pub(crate) fn check_stored(rows: u64) -> Result<(), SolveError> {
    if rows > MAX_STORED_ROWS {
        return Err(SolveError::TooMuchMemory { rows, max: MAX_STORED_ROWS });
    }
    Ok(())
}
