//! Solving a board: plain DP storing every row, the period of the rows, streaming DP.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use crate::board::{Board, Cell, Value};
use crate::config::Config;
use crate::error::SolveError;
use crate::period::{self, Period, Periodic};
use crate::row::{Row, Stream};
use crate::solution::Solution;
use crate::work::{Work, check_stored, reserve};

/// Solves every cell of `board`.
///
/// Boards of at most [`Config::store_rows`] rows are solved by plain DP from the top row
/// down, storing every row in O(1) space; taller boards by the period of their rows
/// ([`find_period`]). `progress` hears, every 65536 rows, how many rows have been computed.
///
/// # Complexity
/// Plain DP: O(N · M) time, O(N + M) space. With the period: O((μ + λ) · M) time and
/// O(μ + λ + M) space for pre-period μ and period λ, independent of N.
///
/// # Errors
/// [`SolveError::TooTall`] when plain DP would store more than `store_rows` rows while
/// `extrapolate` is off, [`SolveError::NoPeriod`] when the period search gives up,
/// [`SolveError::Limit`] when the work exceeds [`Config::max_cells`] (checked before
/// plain DP starts), [`SolveError::TooMuchMemory`] when more than
/// [`MAX_STORED_ROWS`](crate::MAX_STORED_ROWS) rows would be stored.
///
/// # Example
/// ```
/// use gamegraph_tab::{Board, Config, Outcome, solve};
/// let board = Board::new(10, 4)?;
/// let sol = solve(board, &Config::default(), &mut |_| {})?;
/// assert_eq!(sol.value(board.cell(5, 3)?)?.outcome(), Outcome::Loss);
/// assert_eq!(sol.value(board.cell(4, 3)?)?.answer(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Reference: the game and its min-max table as posed by Nguyễn Xuân Huy, "Ngày xuân lập
/// trình chơi cờ bảng", with the O(M) row of this crate's overview.
pub fn solve(
    board: Board,
    config: &Config,
    progress: &mut dyn FnMut(u64),
) -> Result<Solution, SolveError> {
    solve_with(board, config, &mut Work::new(config, progress))
}

/// [`solve`] that also gives up, with [`Limit::Stop`](gamegraph_graph::Limit::Stop), once `stop` is set (by
/// another thread: a Ctrl-C handler, a cancel button); the flag is read after every row.
///
/// # Errors
/// As [`solve`], and [`SolveError::Limit`] ([`Limit::Stop`](gamegraph_graph::Limit::Stop)).
///
/// # Example
/// ```
/// use std::sync::atomic::AtomicBool;
/// use gamegraph_graph::Limit;
/// use gamegraph_tab::{Board, Config, SolveError, solve_until};
/// let board = Board::new(1_000_000_000_000_000_000, 50)?;
/// let stop = AtomicBool::new(true);
/// let e = solve_until(board, &Config::default(), &mut |_| {}, &stop).unwrap_err();
/// assert!(matches!(e, SolveError::Limit { limit: Limit::Stop, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_until(
    board: Board,
    config: &Config,
    progress: &mut dyn FnMut(u64),
    stop: &AtomicBool,
) -> Result<Solution, SolveError> {
    solve_with(board, config, &mut Work::with_stop(config, progress, stop))
}

fn solve_with(board: Board, config: &Config, work: &mut Work<'_>) -> Result<Solution, SolveError> {
    if board.rows() <= config.store_rows {
        return Ok(Solution::stored(board, plain_rows(board, work)?));
    }
    if !config.extrapolate {
        return Err(SolveError::TooTall { rows: board.rows(), limit: config.store_rows });
    }
    match period::find(board.cols(), config.search_rows, work)? {
        Some(p) => Ok(Solution::periodic(board, p)),
        None => Err(SolveError::NoPeriod {
            cols: board.cols(),
            searched: period::search_bound(board.cols(), config.search_rows),
        }),
    }
}

fn plain_rows(board: Board, work: &mut Work<'_>) -> Result<Vec<Row>, SolveError> {
    check_stored(board.rows())?;
    work.plan(board.rows() - 1, board.cols(), None)?;
    let mut rows = Vec::new();
    reserve(&mut rows, board.rows() as usize)?;
    let mut s = Stream::new(board.cols());
    rows.push(Row::TOP);
    while s.last() + 1 < board.rows() {
        rows.push(s.advance());
        work.row(s.last(), board.cols())?;
    }
    Ok(rows)
}

/// Finds the period of the rows of every board with `cols` columns (at most
/// [`Config::search_rows`] rows computed); `Ok(None)` when no repeat shows up.
///
/// # Complexity
/// O((μ + λ) · M) time and O(μ + λ + M) space.
///
/// # Errors
/// [`SolveError::Limit`] when the search exceeds [`Config::max_cells`],
/// [`SolveError::TooMuchMemory`] when `search_rows` is more than
/// [`MAX_STORED_ROWS`](crate::MAX_STORED_ROWS).
///
/// # Example
/// ```
/// use gamegraph_tab::{Config, find_period};
/// let p = find_period(4, &Config::default(), &mut |_| {})?.expect("a period");
/// assert_eq!((p.start, p.length, p.min_shift), (1, 10, 4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn find_period(
    cols: u32,
    config: &Config,
    progress: &mut dyn FnMut(u64),
) -> Result<Option<Period>, SolveError> {
    find_periods(cols..=cols, config, progress).map(|v| v[0].1)
}

/// [`find_period`] for every column count in `cols`, in order, under one work limit
/// ([`Config::max_cells`] for the whole range).
///
/// # Errors
/// As [`find_period`].
///
/// # Example
/// ```
/// use gamegraph_tab::{Config, find_periods};
/// let found = find_periods(1..=3, &Config::default(), &mut |_| {})?;
/// assert_eq!(found.len(), 3);
/// assert!(found.iter().all(|(_, p)| p.is_some()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn find_periods(
    cols: std::ops::RangeInclusive<u32>,
    config: &Config,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<(u32, Option<Period>)>, SolveError> {
    let mut work = Work::new(config, progress);
    cols.map(|m| Ok((m, period::find(m, config.search_rows, &mut work)?.map(|p| p.period))))
        .collect()
}

/// The value of one cell, by the cheapest exact route: streaming DP over the rows between
/// the top and the cell for boards of at most [`Config::store_rows`] rows, for cells at
/// most [`Config::search_rows`] rows below the top, or when [`Config::extrapolate`] is
/// off; otherwise the period of the rows, falling back to streaming DP (O(M) memory) when
/// the period search gives up.
///
/// # Complexity
/// Streaming: O((N - x) · M) time, O(M) space. With the period: as [`find_period`].
///
/// # Errors
/// [`SolveError::Hopeless`] when streaming DP would need more than
/// [`LIFETIME_CELLS`](crate::LIFETIME_CELLS) cell evaluations, [`SolveError::Limit`]
/// when the work exceeds [`Config::max_cells`]; both checked before streaming starts.
/// [`SolveError::TooMuchMemory`] when a period search would be needed and
/// [`Config::search_rows`] is more than [`MAX_STORED_ROWS`](crate::MAX_STORED_ROWS).
///
/// # Panics
/// When `cell` is not on `board`.
pub fn solve_cell(
    board: Board,
    cell: Cell,
    config: &Config,
    progress: &mut dyn FnMut(u64),
) -> Result<Value, SolveError> {
    let mut cache = BTreeMap::new();
    cell_with_cache(board, cell, config, &mut cache, &mut Work::new(config, progress))
}

/// [`solve_cell`] that also gives up, with [`Limit::Stop`](gamegraph_graph::Limit::Stop), once `stop` is set;
/// the flag is read after every row.
///
/// # Errors
/// As [`solve_cell`], and [`SolveError::Limit`] ([`Limit::Stop`](gamegraph_graph::Limit::Stop)).
///
/// # Panics
/// When `cell` is not on `board`.
pub fn solve_cell_until(
    board: Board,
    cell: Cell,
    config: &Config,
    progress: &mut dyn FnMut(u64),
    stop: &AtomicBool,
) -> Result<Value, SolveError> {
    let mut cache = BTreeMap::new();
    let mut work = Work::with_stop(config, progress, stop);
    cell_with_cache(board, cell, config, &mut cache, &mut work)
}

fn cell_with_cache(
    board: Board,
    cell: Cell,
    config: &Config,
    cache: &mut BTreeMap<u32, Option<Periodic>>,
    work: &mut Work<'_>,
) -> Result<Value, SolveError> {
    assert!(cell.row >= 1 && cell.row <= board.rows(), "cell {cell} is not on the board");
    let r = board.distance_from_top(cell);
    let mut searched = None;
    if config.extrapolate && board.rows() > config.store_rows {
        check_stored(config.search_rows)?;
        // A search costs about as much as streaming `search_rows` rows: only start one
        // when streaming would cost more.
        if r > config.search_rows
            && let std::collections::btree_map::Entry::Vacant(e) = cache.entry(board.cols())
        {
            e.insert(period::find(board.cols(), config.search_rows, work)?);
        }
        match cache.get(&board.cols()) {
            Some(Some(p)) => return Ok(p.row(r)?.value(cell.col)),
            Some(None) => searched = Some(period::search_bound(board.cols(), config.search_rows)),
            None => {}
        }
    }
    work.plan(r, board.cols(), searched)?;
    stream_row(board.cols(), r, work).map(|row| row.value(cell.col))
}

/// Row `r` by streaming DP.
fn stream_row(cols: u32, r: u64, work: &mut Work<'_>) -> Result<Row, SolveError> {
    let mut s = Stream::new(cols);
    let mut row = Row::TOP;
    while s.last() < r {
        row = s.advance();
        work.row(s.last(), cols)?;
    }
    Ok(row)
}

/// One test of `tab.inp`: a board and a start cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Test {
    /// The board.
    pub board: Board,
    /// The start cell.
    pub start: Cell,
}

/// The values of the start cells of `tests`, in order, as [`solve_cell`] computes them
/// (a period found for some M is reused by every later test with M columns), under one
/// work limit ([`Config::max_cells`] for all the tests).
///
/// # Errors
/// As [`solve_cell`].
///
/// # Example
/// ```
/// use gamegraph_tab::{Config, answer_tests, parse_tests};
/// let tests = parse_tests("2\n10 4 5 3\n10 4 4 3\n".as_bytes())?;
/// let values = answer_tests(&tests, &Config::default(), &mut |_| {})?;
/// let d: Vec<u64> = values.iter().map(|v| v.answer()).collect();
/// assert_eq!(d, [0, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn answer_tests(
    tests: &[Test],
    config: &Config,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<Value>, SolveError> {
    let mut cache = BTreeMap::new();
    let mut work = Work::new(config, progress);
    tests.iter().map(|t| cell_with_cache(t.board, t.start, config, &mut cache, &mut work)).collect()
}
