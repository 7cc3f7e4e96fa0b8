//! The knobs of the solver and the limits that keep every run finite.

use std::time::{Duration, Instant};

/// More cell evaluations than this are refused at once ([`SolveError::Hopeless`]): at about
/// 10^9 evaluations per second they would take decades.
///
/// A cell evaluation is one candidate read while computing a row, so computing r rows of
/// a board with M columns costs r · M evaluations.
///
/// [`SolveError::Hopeless`]: crate::SolveError::Hopeless
pub const LIFETIME_CELLS: u64 = 1_000_000_000_000_000_000;

/// The most rows a computation keeps in memory (plain DP storing every row, the period
/// search, an optimal line): 2^32 rows of 24 bytes and more are refused at once
/// ([`SolveError::TooMuchMemory`]), since they need about 100 GiB.
///
/// [`SolveError::TooMuchMemory`]: crate::SolveError::TooMuchMemory
pub const MAX_STORED_ROWS: u64 = 1 << 32;

/// How a board is solved. Every knob has a documented default ([`Config::default`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Use the period of the rows for tall boards (default `true`). When `false`, every
    /// answer comes from plain DP over all the rows below the top.
    pub extrapolate: bool,
    /// Boards of at most this many rows are solved by plain DP, storing every row (24 bytes
    /// each); taller ones use the period (default 2^20).
    pub store_rows: u64,
    /// How many rows the period search may compute before giving up (default 2^22, at most
    /// [`MAX_STORED_ROWS`]). On giving up, [`solve_cell`](crate::solve_cell) falls back to
    /// streaming DP.
    pub search_rows: u64,
    /// How many cell evaluations (rows computed × columns) one call may make before it
    /// gives up with [`SolveError::Limit`](crate::SolveError::Limit) (default
    /// 2^35). Row r of a board with M columns costs min(r, M) evaluations, a step of the
    /// period's proof M. Work known in advance to exceed it is refused before it starts;
    /// [`LIFETIME_CELLS`] is refused whatever this limit says. The time an evaluation takes
    /// depends on M and on the machine; [`Config::deadline`] bounds the time itself.
    pub max_cells: u64,
    /// Give up with [`SolveError::Limit`](crate::SolveError::Limit) once this
    /// instant has passed (default `None`, no deadline). The clock is read between rows,
    /// at least once every 2^20 cell evaluations, so a call returns within milliseconds
    /// of the deadline.
    pub deadline: Option<Instant>,
}

impl Config {
    /// The default configuration with a deadline `time` from now.
    ///
    /// ```
    /// use gamegraph_graph::Limit;
    /// use gamegraph_tab::{Board, Config, SolveError, solve_cell};
    /// let config = Config::with_time_limit(std::time::Duration::ZERO);
    /// let board = Board::new(1_000_000, 1000)?;
    /// let e = solve_cell(board, board.cell(1, 1)?, &config, &mut |_| {}).unwrap_err();
    /// assert!(matches!(e, SolveError::Limit { limit: Limit::Time, .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_time_limit(time: Duration) -> Config {
        Config { deadline: Instant::now().checked_add(time), ..Config::default() }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            extrapolate: true,
            store_rows: 1 << 20,
            search_rows: 1 << 22,
            max_cells: 1 << 35,
            deadline: None,
        }
    }
}
