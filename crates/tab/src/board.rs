//! The board, its cells, and the value of a cell.

use std::fmt;

use gamegraph_graph::Outcome;

use crate::error::BoardError;

/// The most columns a [`Board`] may have.
///
/// One row costs O(M) time and the window of the recurrence O(M) space, so the limit
/// only keeps a period search (whose cost is `search_rows × M`) within reach.
pub const MAX_COLS: u32 = 100_000;

/// A board of `rows × cols` cells (docs/games.md): rows `1..=rows` from the bottom up,
/// columns `1..=cols` from left to right.
///
/// Invariants: `rows >= 1` and `1 <= cols <= MAX_COLS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    rows: u64,
    cols: u32,
}

impl Board {
    /// A board of `rows` rows and `cols` columns.
    ///
    /// # Errors
    /// [`BoardError::NoRows`], [`BoardError::NoCols`] or [`BoardError::TooManyCols`].
    pub fn new(rows: u64, cols: u32) -> Result<Board, BoardError> {
        if rows == 0 {
            return Err(BoardError::NoRows);
        }
        if cols == 0 {
            return Err(BoardError::NoCols);
        }
        if cols > MAX_COLS {
            return Err(BoardError::TooManyCols { cols });
        }
        Ok(Board { rows, cols })
    }

    /// The number of rows N.
    pub fn rows(self) -> u64 {
        self.rows
    }

    /// The number of columns M.
    pub fn cols(self) -> u32 {
        self.cols
    }

    /// The cell at `row` (1-based, from the bottom) and `col` (1-based, from the left).
    ///
    /// # Errors
    /// [`BoardError::CellOutside`] when the cell is not on the board.
    pub fn cell(self, row: u64, col: u32) -> Result<Cell, BoardError> {
        if row == 0 || row > self.rows || col == 0 || col > self.cols {
            return Err(BoardError::CellOutside { row, col, rows: self.rows, cols: self.cols });
        }
        Ok(Cell { row, col })
    }

    /// The distance of `cell` from the top row (0 for the top row): the values of a cell
    /// depend only on this distance and the column.
    pub fn distance_from_top(self, cell: Cell) -> u64 {
        self.rows - cell.row
    }

    /// The legal moves from `cell`, by increasing column: `(x + k, k)` for every
    /// `k` in `1..=M`, `k != y`, with `x + k <= N`.
    ///
    /// # Complexity
    /// O(M) time for the whole iteration, O(1) space.
    pub fn successors(self, cell: Cell) -> impl Iterator<Item = Cell> {
        let room = self.rows - cell.row;
        let kmax = room.min(u64::from(self.cols)) as u32;
        (1..=kmax)
            .filter(move |&k| k != cell.col)
            .map(move |k| Cell { row: cell.row + u64::from(k), col: k })
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} × {}", self.rows, self.cols)
    }
}

/// A cell `(row, col)` of a board, both 1-based as in the tab.inp format (row 1 is the
/// bottom row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// The row x, `1..=N` from the bottom up.
    pub row: u64,
    /// The column y, `1..=M` from the left.
    pub col: u32,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// The min-max value of a cell: its depth in plies (a terminal cell has depth 0,
/// a won cell 1 + the least depth of its lost successors, a lost cell 1 + the greatest
/// depth of its successors).
///
/// The outcome is the parity of the depth: won cells have odd depth, lost cells even depth
/// (by induction: a won cell is one ply above a lost one and vice versa).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Value(u64);

impl Value {
    /// The value of a cell whose depth is `plies`.
    pub fn from_depth(plies: u64) -> Value {
        Value(plies)
    }

    /// The depth in plies (both players' moves counted).
    pub fn depth(self) -> u64 {
        self.0
    }

    /// Win or loss for the player to move (never [`Outcome::Draw`]: the game always ends).
    pub fn outcome(self) -> Outcome {
        if self.0 % 2 == 1 { Outcome::Win } else { Outcome::Loss }
    }

    /// The answer d of the tab.inp format: 0 when the player to move (A) loses, otherwise the
    /// number of
    /// A's own moves in the longest forced win, `(depth + 1) / 2`.
    pub fn answer(self) -> u64 {
        if self.outcome() == Outcome::Win { self.0 / 2 + 1 } else { 0 }
    }

    /// How good this value is for the player who moves INTO it (smaller is better): a lost
    /// cell (for the opponent) beats a won one; among lost cells the shallower, among won
    /// cells the deeper. Distinct depths have distinct ranks.
    pub(crate) fn rank(self) -> u64 {
        if self.0.is_multiple_of(2) { self.0 / 2 } else { u64::MAX - self.0 / 2 }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.answer())
    }
}
