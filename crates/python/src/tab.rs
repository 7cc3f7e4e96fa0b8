//! The tab board game: one cell's answer, or a solved board with its rows as arrays, the
//! period of its rows and optimal lines; with a work limit, a time limit and Ctrl-C.

use gamegraph_graph::Limit;
use gamegraph_tab::{
    Board, Cell, Config, Period, Solution, SolveError, solve_cell_until, solve_until,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTimeoutError, PyTypeError};
use pyo3::prelude::*;

use crate::arrays::ranged;
use crate::error::{limit_error, value_error};
use crate::interrupt;

/// The most cells `board()` gives in one array (80 MB of uint64).
const MAX_ARRAY_CELLS: u64 = 10_000_000;

/// The solver's configuration with a `max_cells=` argument (the default's about a minute
/// of work otherwise).
fn config(max_cells: Option<i128>) -> PyResult<Config> {
    let mut config = Config::default();
    if let Some(c) = max_cells {
        config.max_cells = ranged(c, "max_cells", 1, i128::from(u64::MAX))?;
    }
    Ok(config)
}

/// The exception of a solver error: `TimeoutError` for a limit reached (work, time, no
/// period within the search), `ValueError` for work refused before it starts.
fn solve_error(e: SolveError, time_limit: Option<f64>, timed_out: bool) -> PyErr {
    match e {
        SolveError::Limit { limit: Limit::Stop, .. } if timed_out => limit_error(
            Limit::Time,
            format_args!("time limit of {} s reached", time_limit.unwrap_or_default()),
        ),
        SolveError::Limit { limit: limit @ Limit::Budget { .. }, .. } => {
            limit_error(limit, format_args!("{e}; raise the limit with max_cells="))
        }
        SolveError::Limit { limit, .. } => limit_error(limit, e),
        SolveError::NoPeriod { .. } => PyTimeoutError::new_err(e.to_string()),
        other => value_error(other),
    }
}

/// The board and, when given, the cell of the arguments.
fn board_and_cell(
    n: i128,
    m: i128,
    x: Option<i128>,
    y: Option<i128>,
) -> PyResult<(Board, Option<Cell>)> {
    let rows: u64 = ranged(n, "n", 0, i128::from(u64::MAX))?;
    let cols: u32 = ranged(m, "m", 0, i128::from(u32::MAX))?;
    let board = Board::new(rows, cols).map_err(value_error)?;
    let cell = match (x, y) {
        (Some(x), Some(y)) => {
            let row: u64 = ranged(x, "x", 0, i128::from(u64::MAX))?;
            let col: u32 = ranged(y, "y", 0, i128::from(u32::MAX))?;
            Some(board.cell(row, col).map_err(value_error)?)
        }
        (None, None) => None,
        _ => return Err(PyTypeError::new_err("tab() takes both x and y, or neither")),
    };
    Ok((board, cell))
}

/// The tab board game on an n x m board (rows 1..n from the bottom, columns 1..m).
///
/// A move goes from (x, y) to (x + k, k) for any k in 1..m with k != y and x + k <= n;
/// who cannot move loses. With a cell (x, y): its answer d, 0 when the player to move
/// loses, otherwise the number of own moves the winner needs, as the CLI prints it.
/// Without: the solved board (TabBoard: the answers as 2-D arrays, the period of the rows,
/// optimal lines). Boards of any height (up to 2^64 - 1 rows) are answered through the
/// proven period of their rows.
///
/// max_cells bounds the work (cell evaluations, rows computed x columns; default 2^35,
/// about a minute) and time_limit the time in seconds (default none); either raises
/// TimeoutError, and so does a period search that gives up. Ctrl-C stops the call
/// (KeyboardInterrupt). Raises ValueError for an empty board, a cell outside it, or work
/// that could never finish.
///
/// >>> import gamegraph as gg
/// >>> gg.tab(10, 4, 5, 3), gg.tab(10, 4, 4, 3)
/// (0, 2)
/// >>> b = gg.tab(10, 4)
/// >>> b.board()[3:5].tolist()        # rows 4 and 5: d of cells (4, 1) ... (5, 4)
/// [[2, 2, 2, 2], [0, 0, 0, 0]]
/// >>> b.line(4, 3)
/// [(4, 3), (5, 1), (7, 2), (10, 3)]
#[pyfunction]
#[pyo3(signature = (n, m, x = None, y = None, *, max_cells = None, time_limit = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tab(
    py: Python<'_>,
    n: i128,
    m: i128,
    x: Option<i128>,
    y: Option<i128>,
    max_cells: Option<i128>,
    time_limit: Option<f64>,
) -> PyResult<Py<PyAny>> {
    let (board, cell) = board_and_cell(n, m, x, y)?;
    let config = config(max_cells)?;
    let deadline = interrupt::deadline(time_limit)?;
    match cell {
        Some(cell) => {
            let ended = interrupt::run(py, deadline, |stop| {
                solve_cell_until(board, cell, &config, &mut |_| {}, stop)
            })?;
            let value = ended.value.map_err(|e| solve_error(e, time_limit, ended.timed_out))?;
            Ok(value.answer().into_pyobject(py)?.into_any().unbind())
        }
        None => {
            let ended = interrupt::run(py, deadline, |stop| {
                solve_until(board, &config, &mut |_| {}, stop)
            })?;
            let solution = ended.value.map_err(|e| solve_error(e, time_limit, ended.timed_out))?;
            Ok(Py::new(py, TabBoard { solution, config })?.into_any())
        }
    }
}

/// The period of the rows of a tab board: from distance `start` below the top row on,
/// row r + length has the values of row r, every depth grown by min_shift to max_shift
/// plies (equal when every depth grows alike).
#[pyclass(frozen, get_all, name = "TabPeriod", module = "gamegraph")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct TabPeriod {
    /// The number of columns M.
    cols: u32,
    /// The pre-period, in rows below the top row.
    start: u64,
    /// The period, in rows.
    length: u64,
    /// The least growth of a depth per period, in plies.
    min_shift: u64,
    /// The greatest growth of a depth per period, in plies.
    max_shift: u64,
}

#[pymethods]
impl TabPeriod {
    fn __repr__(&self) -> String {
        format!(
            "TabPeriod(cols={}, start={}, length={}, min_shift={}, max_shift={})",
            self.cols, self.start, self.length, self.min_shift, self.max_shift
        )
    }
}

impl From<Period> for TabPeriod {
    fn from(p: Period) -> Self {
        TabPeriod {
            cols: p.cols,
            start: p.start,
            length: p.length,
            min_shift: p.min_shift,
            max_shift: p.max_shift,
        }
    }
}

/// A solved tab board, from tab(n, m).
///
/// - rows, cols: the board's size;
/// - value(x, y): the answer d of cell (x, y), depth(x, y) its depth in plies;
/// - board(lo=1, hi=None): the answers d of rows lo..hi (1-based from the bottom, both
///   included; hi defaults to the top row) as a uint64 array of shape (hi - lo + 1, cols),
///   a[i, j] the cell (lo + i, j + 1); at most 10^7 cells per call;
/// - period: the period of the rows (TabPeriod) when the board was solved through it,
///   None for a board short enough to be solved row by row;
/// - line(x, y, max_plies=10000): an optimal play from (x, y), the cells visited.
///
/// In Jupyter a board shows as a table of its top rows.
#[pyclass(frozen, name = "TabBoard", module = "gamegraph")]
pub(crate) struct TabBoard {
    solution: Solution,
    config: Config,
}

impl TabBoard {
    fn cell(&self, x: i128, y: i128) -> PyResult<Cell> {
        let row: u64 = ranged(x, "x", 0, i128::from(u64::MAX))?;
        let col: u32 = ranged(y, "y", 0, i128::from(u32::MAX))?;
        self.solution.board().cell(row, col).map_err(value_error)
    }
}

#[pymethods]
impl TabBoard {
    /// The number of rows n.
    #[getter]
    fn rows(&self) -> u64 {
        self.solution.board().rows()
    }

    /// The number of columns m.
    #[getter]
    fn cols(&self) -> u32 {
        self.solution.board().cols()
    }

    /// The period of the rows, or None for a board solved row by row.
    #[getter]
    fn period(&self) -> Option<TabPeriod> {
        self.solution.period().map(TabPeriod::from)
    }

    /// The answer d of cell (x, y): 0 when the player to move loses, else the winner's
    /// own moves.
    fn value(&self, x: i128, y: i128) -> PyResult<u64> {
        let cell = self.cell(x, y)?;
        Ok(self.solution.value(cell).map_err(value_error)?.answer())
    }

    /// The depth of cell (x, y) in plies (even when the player to move loses).
    fn depth(&self, x: i128, y: i128) -> PyResult<u64> {
        let cell = self.cell(x, y)?;
        Ok(self.solution.value(cell).map_err(value_error)?.depth())
    }

    /// The answers d of rows lo..hi (both included, 1-based from the bottom; hi defaults
    /// to the top row) as a read-only uint64 array of shape (hi - lo + 1, cols).
    ///
    /// Raises ValueError for rows outside the board or more than 10^7 cells.
    #[pyo3(signature = (lo = 1, hi = None))]
    fn board<'py>(
        &self,
        py: Python<'py>,
        lo: i128,
        hi: Option<i128>,
    ) -> PyResult<Bound<'py, PyArray2<u64>>> {
        let n = self.rows();
        let m = u64::from(self.cols());
        let hi: u64 = ranged(hi.unwrap_or(i128::from(n)), "hi", 1, i128::from(n))?;
        let lo: u64 = ranged(lo, "lo", 1, i128::from(hi))?;
        let count = hi - lo + 1;
        if count.saturating_mul(m) > MAX_ARRAY_CELLS {
            return Err(value_error(format!(
                "rows {lo}..={hi} have {} cells, more than the {MAX_ARRAY_CELLS} one array \
                 holds; ask for fewer rows",
                u128::from(count) * u128::from(m)
            )));
        }
        let solution = &self.solution;
        let flat: Result<Vec<u64>, SolveError> = py.detach(|| {
            let mut flat = Vec::with_capacity((count * m) as usize);
            for row in lo..=hi {
                flat.extend(solution.row_values(row)?.iter().map(|v| v.answer()));
            }
            Ok(flat)
        });
        let flat = flat.map_err(value_error)?;
        let array = PyArray1::from_vec(py, flat).reshape([count as usize, m as usize])?;
        array.as_any().call_method1("setflags", (false,))?;
        Ok(array)
    }

    /// An optimal play from (x, y): the cells visited, as (row, column) pairs, starting
    /// with (x, y), for at most max_plies plies (the winner hurries, the loser delays).
    #[pyo3(signature = (x, y, max_plies = 10_000))]
    fn line(&self, py: Python<'_>, x: i128, y: i128, max_plies: u64) -> PyResult<Vec<(u64, u32)>> {
        let cell = self.cell(x, y)?;
        let (solution, config) = (&self.solution, &self.config);
        let cells = py.detach(|| solution.line(cell, max_plies, config));
        let cells = cells.map_err(|e| solve_error(e, None, false))?;
        Ok(cells.iter().map(|c| (c.row, c.col)).collect())
    }

    fn __repr__(&self) -> String {
        let period = match self.solution.period() {
            Some(p) => format!("period={} from row distance {}", p.length, p.start),
            None => "solved row by row".to_owned(),
        };
        format!("TabBoard(rows={}, cols={}, {period})", self.rows(), self.cols())
    }

    /// The top rows as an HTML table (Jupyter).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("gamegraph._display")?.call_method1("tab_html", (slf,))?.extract()
    }
}
