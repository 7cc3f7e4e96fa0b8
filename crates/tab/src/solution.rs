//! A solved board: the value of any cell in O(1), best moves and optimal lines.

use crate::board::{Board, Cell, Value};
use crate::config::Config;
use crate::error::SolveError;
use crate::period::{Period, Periodic};
use crate::row::Row;
use crate::work::{Work, check_stored, reserve};

/// The values of every cell of a board, answered in O(1) each.
#[derive(Debug, Clone)]
pub struct Solution {
    board: Board,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    /// Rows `0..N`, distances from the top.
    Stored(Vec<Row>),
    Periodic(Periodic),
}

impl Solution {
    /// Rows `0..N` of `board`, distances from the top.
    pub(crate) fn stored(board: Board, rows: Vec<Row>) -> Solution {
        Solution { board, kind: Kind::Stored(rows) }
    }

    /// Any row of `board` from the period of the rows.
    pub(crate) fn periodic(board: Board, p: Periodic) -> Solution {
        Solution { board, kind: Kind::Periodic(p) }
    }

    /// The board solved.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The period used to extrapolate, if the board was solved that way.
    pub fn period(&self) -> Option<Period> {
        match &self.kind {
            Kind::Stored(_) => None,
            Kind::Periodic(p) => Some(p.period),
        }
    }

    fn row(&self, r: u64) -> Result<Row, SolveError> {
        match &self.kind {
            Kind::Stored(rows) => Ok(rows[r as usize]),
            Kind::Periodic(p) => p.row(r),
        }
    }

    /// The value of `cell`, which must be on the board.
    ///
    /// # Errors
    /// [`SolveError::Overflow`] when a depth does not fit in u64 (never for boards of at
    /// most `u64::MAX` rows, since a depth is at most the distance from the top).
    ///
    /// # Panics
    /// When `cell` is not on the board (cells come from [`Board::cell`]).
    pub fn value(&self, cell: Cell) -> Result<Value, SolveError> {
        assert!(cell.row >= 1 && cell.row <= self.board.rows(), "cell {cell} is not on the board");
        Ok(self.row(self.board.distance_from_top(cell))?.value(cell.col))
    }

    /// The values of row `row` (1-based from the bottom), columns `1..=M`.
    ///
    /// # Errors
    /// As [`Solution::value`].
    ///
    /// # Panics
    /// When `row` is not in `1..=N`.
    pub fn row_values(&self, row: u64) -> Result<Vec<Value>, SolveError> {
        assert!(row >= 1 && row <= self.board.rows(), "row {row} is not on the board");
        let r = self.row(self.board.distance_from_top(Cell { row, col: 1 }))?;
        Ok((1..=self.board.cols()).map(|c| r.value(c)).collect())
    }

    /// The best move from `cell`, or `None` when it has no move: to a lost successor of
    /// least depth from a won cell, to a successor of greatest depth from a lost one, ties
    /// broken by the smallest column.
    ///
    /// # Complexity
    /// O(M) time, O(1) space.
    ///
    /// # Errors
    /// As [`Solution::value`].
    pub fn best_move(&self, cell: Cell) -> Result<Option<Cell>, SolveError> {
        let mut best: Option<(u64, Cell)> = None;
        for next in self.board.successors(cell) {
            let rank = self.value(next)?.rank();
            if best.is_none_or(|(r, _)| rank < r) {
                best = Some((rank, next));
            }
        }
        Ok(best.map(|(_, c)| c))
    }

    /// An optimal play from `cell`: the cells visited, starting with `cell`, for at most
    /// `max_plies` plies (the play has exactly `value(cell).depth()` plies).
    ///
    /// # Complexity
    /// O(min(depth, max_plies) · M) time, O(min(depth, max_plies)) space.
    ///
    /// # Errors
    /// As [`Solution::value`]; [`SolveError::Limit`] when the plies times M exceed
    /// [`Config::max_cells`], [`SolveError::Hopeless`] or [`SolveError::TooMuchMemory`]
    /// when they are out of reach; all checked before the first move.
    /// [`SolveError::Limit`] when [`Config::deadline`] passes.
    pub fn line(
        &self,
        cell: Cell,
        max_plies: u64,
        config: &Config,
    ) -> Result<Vec<Cell>, SolveError> {
        let plies = self.value(cell)?.depth().min(max_plies);
        check_stored(plies)?;
        let cols = self.board.cols();
        let mut silent = |_| {};
        let mut work = Work::new(config, &mut silent);
        work.plan_cells(plies.checked_mul(u64::from(cols)), plies, cols, None)?;
        let mut out = Vec::new();
        reserve(&mut out, plies as usize + 1)?;
        out.push(cell);
        let mut at = cell;
        while (out.len() as u64) <= plies {
            work.spend(u64::from(cols))?;
            match self.best_move(at)? {
                Some(next) => {
                    out.push(next);
                    at = next;
                }
                None => break,
            }
        }
        Ok(out)
    }
}
