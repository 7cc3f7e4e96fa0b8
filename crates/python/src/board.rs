//! `Board`: a position's picture, as the game draws it, for print() and for Jupyter; and
//! the rules behind it (boards and move names) for the game types that keep positions as
//! text.

use gamegraph_game::{Game, ParseError};
use pyo3::prelude::*;

/// The picture of a position and the name of a move, positions in the game's notation.
pub(crate) trait Rules: Send + Sync {
    /// The picture of position `s`, if the game draws one.
    fn board(&self, s: &str) -> Result<Option<gamegraph_game::Board>, ParseError>;
    /// The name of the move from `from` to `to` (`column 4`, `b2`), if the game names them.
    fn move_name(&self, from: &str, to: &str) -> Result<Option<String>, ParseError>;
}

impl<G: Game + Send> Rules for G {
    fn board(&self, s: &str) -> Result<Option<gamegraph_game::Board>, ParseError> {
        Ok(Game::board(self, self.parse(s)?))
    }

    fn move_name(&self, from: &str, to: &str) -> Result<Option<String>, ParseError> {
        Ok(Game::move_name(self, self.parse(from)?, self.parse(to)?))
    }
}

/// A position's picture: a grid of cells (a board game, a ring) or rows of pins. str()
/// is the picture the terminal game draws; in Jupyter it shows as a table.
///
/// - kind: 'grid' or 'pins';
/// - cells: the rows of the grid from the top, a str of one character a cell ('.' empty);
/// - row_labels, col_labels: the labels of the rows (from the top) and columns;
/// - line: the names of the cells of the line that decided the game ('a3', …), if one did;
/// - pins: the lengths of the rows of pins.
///
/// >>> import gamegraph as gg
/// >>> s = gg.games.tic_tac_toe()
/// >>> b = s.board("XXX/OO./...")
/// >>> b.kind, b.cells, b.line
/// ('grid', ['XXX', 'OO.', '...'], ['a3', 'b3', 'c3'])
/// >>> print(b)
/// 3  X X X
/// 2  O O .
/// 1  . . .
///    a b c
/// the line: a3 b3 c3
#[pyclass(frozen, name = "Board", module = "gamegraph")]
pub(crate) struct PyBoard {
    board: gamegraph_game::Board,
}

impl PyBoard {
    pub(crate) fn new(board: gamegraph_game::Board) -> PyBoard {
        PyBoard { board }
    }
}

#[pymethods]
impl PyBoard {
    /// 'grid' or 'pins'.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.board {
            gamegraph_game::Board::Grid(_) => "grid",
            gamegraph_game::Board::Pins(_) => "pins",
        }
    }

    /// The rows of a grid from the top, a character a cell; empty for pins.
    #[getter]
    fn cells(&self) -> Vec<String> {
        match &self.board {
            gamegraph_game::Board::Grid(g) => {
                g.cells.chunks(g.cols.max(1)).map(|row| row.iter().collect()).collect()
            }
            gamegraph_game::Board::Pins(_) => Vec::new(),
        }
    }

    /// The labels of a grid's rows, from the top.
    #[getter]
    fn row_labels(&self) -> Vec<String> {
        match &self.board {
            gamegraph_game::Board::Grid(g) => g.row_labels.clone(),
            gamegraph_game::Board::Pins(_) => Vec::new(),
        }
    }

    /// The labels of a grid's columns, from the left.
    #[getter]
    fn col_labels(&self) -> Vec<String> {
        match &self.board {
            gamegraph_game::Board::Grid(g) => g.col_labels.clone(),
            gamegraph_game::Board::Pins(_) => Vec::new(),
        }
    }

    /// The names of the cells of the line that decided the game, if one did.
    #[getter]
    fn line(&self) -> Vec<String> {
        match &self.board {
            gamegraph_game::Board::Grid(g) => g.line.iter().map(|&i| g.cell_name(i)).collect(),
            gamegraph_game::Board::Pins(_) => Vec::new(),
        }
    }

    /// The lengths of the rows of pins; empty for a grid.
    #[getter]
    fn pins(&self) -> Vec<u32> {
        match &self.board {
            gamegraph_game::Board::Grid(_) => Vec::new(),
            gamegraph_game::Board::Pins(rows) => rows.clone(),
        }
    }

    fn __str__(&self) -> String {
        self.board.to_string()
    }

    fn __repr__(&self) -> String {
        match &self.board {
            gamegraph_game::Board::Grid(g) => format!("Board(grid {} × {})", g.rows(), g.cols),
            gamegraph_game::Board::Pins(rows) => format!("Board(pins {rows:?})"),
        }
    }

    /// The picture as an HTML table (Jupyter).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("gamegraph._display")?.call_method1("board_html", (slf,))?.extract()
    }
}
