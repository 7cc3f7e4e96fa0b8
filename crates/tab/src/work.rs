//! Counting the work of one call against [`Config::max_cells`] and [`Config::deadline`],
//! with progress reports.

use std::time::Instant;

use std::sync::atomic::{AtomicBool, Ordering};

use gamegraph_graph::{Budget, Limit};

use crate::config::{Config, LIFETIME_CELLS, MAX_STORED_ROWS};
use crate::error::SolveError;

/// Every `PROGRESS_EVERY` rows the progress callback hears how many rows are done.
const PROGRESS_EVERY: u64 = 1 << 16;

/// The clock is read once per `CLOCK_EVERY` cell evaluations (about a millisecond of work),
/// so a deadline is noticed within a few milliseconds.
const CLOCK_EVERY: u64 = 1 << 20;

/// The cell evaluations of computing rows `1..=rows` of a board with `cols` columns: row r
/// reads its `min(r, M)` candidates, so the first M rows cost less than M each.
pub(crate) fn cells_of_rows(rows: u64, cols: u32) -> Option<u64> {
    let m = u64::from(cols);
    let ramp = rows.min(m);
    // Rows 1..=ramp cost 1..=ramp; the rest M each.
    let first = u128::from(ramp) * (u128::from(ramp) + 1) / 2;
    let rest = u128::from(rows - ramp) * u128::from(m);
    u64::try_from(first + rest).ok()
}

/// The cell evaluations spent so far by one call, its deadline and its progress callback.
pub(crate) struct Work<'a> {
    used: u64,
    limit: u64,
    deadline: Option<Instant>,
    /// The count of cell evaluations at which the clock is read next.
    next_clock: u64,
    progress: &'a mut dyn FnMut(u64),
    /// Set by another thread to stop the call ([`Limit::Stop`]).
    stop: Option<&'a AtomicBool>,
}

impl<'a> Work<'a> {
    /// Nothing spent yet, under `config.max_cells` and `config.deadline`.
    pub(crate) fn new(config: &Config, progress: &'a mut dyn FnMut(u64)) -> Work<'a> {
        Work {
            used: 0,
            limit: config.max_cells,
            deadline: config.deadline,
            next_clock: CLOCK_EVERY,
            progress,
            stop: None,
        }
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
    /// [`SolveError::Hopeless`] beyond [`LIFETIME_CELLS`], the cell budget's
    /// [`SolveError::Limit`] when they would exceed what is left of it, [`Limit::Time`]
    /// when the deadline has passed. `searched` is the period search that failed first, if any (for
    /// the message).
    pub(crate) fn plan(
        &self,
        rows: u64,
        cols: u32,
        searched: Option<u64>,
    ) -> Result<(), SolveError> {
        self.plan_cells(cells_of_rows(rows, cols), rows, cols, searched)
    }

    /// [`Work::plan`] for work of `cells` evaluations (`None` beyond u64), said to be
    /// `rows` rows of `cols` columns in messages.
    pub(crate) fn plan_cells(
        &self,
        cells: Option<u64>,
        rows: u64,
        cols: u32,
        searched: Option<u64>,
    ) -> Result<(), SolveError> {
        let cells = cells.filter(|&c| c <= LIFETIME_CELLS);
        let Some(cells) = cells else {
            return Err(SolveError::Hopeless { rows, cols, searched });
        };
        if self.used.saturating_add(cells) > self.limit {
            return Err(self.over(Some(cells)));
        }
        self.clock()
    }

    /// Counts the row at distance `r` from the top of a board with `cols` columns (its
    /// `min(r, cols)` candidates); reports progress every [`PROGRESS_EVERY`] rows.
    #[inline]
    pub(crate) fn row(&mut self, r: u64, cols: u32) -> Result<(), SolveError> {
        self.spend(r.min(u64::from(cols)))?;
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(SolveError::Limit { limit: Limit::Stop, cells: Some(self.used) });
        }
        if r.is_multiple_of(PROGRESS_EVERY) {
            (self.progress)(r);
        }
        Ok(())
    }

    /// Counts `cells` cell evaluations; fails when the limit is passed or, read every
    /// [`CLOCK_EVERY`] evaluations, the deadline.
    #[inline]
    pub(crate) fn spend(&mut self, cells: u64) -> Result<(), SolveError> {
        self.used = self.used.saturating_add(cells);
        if self.used > self.limit {
            return Err(self.over(None));
        }
        if self.used >= self.next_clock {
            self.next_clock = self.used.saturating_add(CLOCK_EVERY);
            self.clock()?;
        }
        Ok(())
    }

    /// Fails with [`Limit::Time`] when the deadline has passed.
    pub(crate) fn clock(&self) -> Result<(), SolveError> {
        match self.deadline {
            Some(d) if Instant::now() >= d => {
                Err(SolveError::Limit { limit: Limit::Time, cells: Some(self.used) })
            }
            _ => Ok(()),
        }
    }

    /// The cell budget passed, or to be passed by work that needs `needed` evaluations.
    fn over(&self, needed: Option<u64>) -> SolveError {
        let limit = Limit::Budget { what: Budget::Cells, limit: self.limit, needed };
        SolveError::Limit { limit, cells: Some(self.used) }
    }
}

/// Refuses to keep more than [`MAX_STORED_ROWS`] rows in memory.
pub(crate) fn check_stored(rows: u64) -> Result<(), SolveError> {
    if rows > MAX_STORED_ROWS {
        return Err(SolveError::TooMuchMemory { rows, max: MAX_STORED_ROWS });
    }
    Ok(())
}

/// Makes room for `additional` more items in `v`, or fails with
/// [`Limit::Memory`] instead of aborting when the memory is not there.
pub(crate) fn reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<(), SolveError> {
    v.try_reserve_exact(additional).map_err(|_| {
        let needed = (v.len().saturating_add(additional) as u64)
            .saturating_mul(std::mem::size_of::<T>() as u64);
        SolveError::Limit { limit: Limit::Memory { needed, allowed: None }, cells: None }
    })
}

/// Pushes `x` onto `v`, doubling its room when full, or fails with
/// [`Limit::Memory`].
#[inline]
pub(crate) fn push<T>(v: &mut Vec<T>, x: T) -> Result<(), SolveError> {
    if v.len() == v.capacity() {
        reserve(v, v.len().max(64))?;
    }
    v.push(x);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_of_rows_counts_the_candidates_of_every_row() {
        for cols in 1..=7u32 {
            for rows in 0..=20u64 {
                let brute: u64 = (1..=rows).map(|r| r.min(u64::from(cols))).sum();
                assert_eq!(cells_of_rows(rows, cols), Some(brute), "{rows} rows, {cols} cols");
            }
        }
        assert_eq!(cells_of_rows(u64::MAX, 100_000), None);
    }
}
