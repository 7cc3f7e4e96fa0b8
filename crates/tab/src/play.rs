//! The rules of playing the tab board move by move: the columns a piece can move to, the
//! cell a move reaches, and the engine's move.

use std::fmt;

use crate::board::{Board, Cell};
use crate::error::SolveError;
use crate::solution::Solution;

/// Why a move of the piece is not legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PieceMoveError {
    /// The piece's own column: a move changes column.
    SameColumn {
        /// The piece's cell.
        from: Cell,
    },
    /// The column is outside the board, or the move would leave the board at the top.
    Outside {
        /// The piece's cell.
        from: Cell,
        /// The column asked for.
        col: u64,
    },
}

impl fmt::Display for PieceMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PieceMoveError::SameColumn { from } => {
                write!(f, "no move from {from} to column {}: a move changes column", from.col)
            }
            PieceMoveError::Outside { from, col } => {
                write!(f, "no move from {from} to column {col}: it would leave the board")
            }
        }
    }
}

impl std::error::Error for PieceMoveError {}

/// The columns the piece at `cell` can move to, in increasing order (empty at the end).
///
/// # Example
/// ```
/// use gamegraph_tab::{Board, play};
///
/// let board = Board::new(10, 4).unwrap();
/// assert_eq!(play::columns(board, board.cell(4, 3).unwrap()), [1, 2, 4]);
/// assert!(play::columns(board, board.cell(10, 1).unwrap()).is_empty());
/// ```
pub fn columns(board: Board, cell: Cell) -> Vec<u32> {
    board.successors(cell).map(|c| c.col).collect()
}

/// The cell the piece at `cell` reaches by moving to column `col`: (x + col, col).
///
/// # Errors
/// [`PieceMoveError`] when the move is not legal.
pub fn move_to(board: Board, cell: Cell, col: u64) -> Result<Cell, PieceMoveError> {
    if col == u64::from(cell.col) {
        return Err(PieceMoveError::SameColumn { from: cell });
    }
    board
        .successors(cell)
        .find(|c| u64::from(c.col) == col)
        .ok_or(PieceMoveError::Outside { from: cell, col })
}

/// The engine's move from `cell`: the winner hurries, the loser delays (the solution's best
/// move); `None` when the piece cannot move.
///
/// # Errors
/// What [`Solution::best_move`] returns.
pub fn engine_move(solution: &Solution, cell: Cell) -> Result<Option<Cell>, SolveError> {
    solution.best_move(cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell of small boards: a move is legal exactly when the definition (x + k ≤ N,
    /// k ≠ y, 1 ≤ k ≤ M) says so.
    #[test]
    fn moves_follow_the_definition() {
        for rows in 1..=7u64 {
            for cols in 1..=5u32 {
                let board = Board::new(rows, cols).unwrap();
                for x in 1..=rows {
                    for y in 1..=cols {
                        let cell = board.cell(x, y).unwrap();
                        let mut want = Vec::new();
                        for k in 0..=u64::from(cols) + 1 {
                            let legal = k >= 1
                                && k <= u64::from(cols)
                                && k != u64::from(y)
                                && x + k <= rows;
                            assert_eq!(move_to(board, cell, k).is_ok(), legal, "{cell} {k}");
                            if legal {
                                want.push(k as u32);
                                assert_eq!(
                                    move_to(board, cell, k).unwrap(),
                                    board.cell(x + k, k as u32).unwrap()
                                );
                            }
                        }
                        assert_eq!(columns(board, cell), want);
                    }
                }
            }
        }
    }
}
