//! The tab board game.

use gamegraph_tab::{Board, Config, solve_cell};
use pyo3::prelude::*;

use crate::arrays::ranged;
use crate::error::value_error;

/// The answer d of the tab board game for a piece on cell (x, y) of an n x m board (rows
/// 1..n from the bottom, columns 1..m): 0 when the player to move loses, otherwise the
/// number of own moves the winner needs, as the CLI prints it.
///
/// A move goes from (x, y) to (x + k, k) for any k in 1..m with k != y and x + k <= n;
/// who cannot move loses. Boards of any height (up to 2^64 - 1 rows) are answered through
/// the proven period of their rows.
///
/// Raises ValueError for an empty board or a cell outside it.
///
/// >>> import gamegraph as gg
/// >>> gg.tab(10, 4, 5, 3), gg.tab(10, 4, 4, 3)
/// (0, 2)
#[pyfunction]
pub(crate) fn tab(py: Python<'_>, n: i128, m: i128, x: i128, y: i128) -> PyResult<u64> {
    let rows: u64 = ranged(n, "n", 0, i128::from(u64::MAX))?;
    let cols: u32 = ranged(m, "m", 0, i128::from(u32::MAX))?;
    let board = Board::new(rows, cols).map_err(value_error)?;
    let row: u64 = ranged(x, "x", 0, i128::from(u64::MAX))?;
    let col: u32 = ranged(y, "y", 0, i128::from(u32::MAX))?;
    let cell = board.cell(row, col).map_err(value_error)?;
    let value = py
        .detach(|| solve_cell(board, cell, &Config::default(), &mut |_| {}))
        .map_err(value_error)?;
    Ok(value.answer())
}
