//! Pictures of positions: what a front end draws for a game that gives one
//! ([`Game::board`](crate::Game::board)).

use std::fmt;

/// A picture of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Board {
    /// A grid of cells with pieces on them (a board game, a ring of cells).
    Grid(Grid),
    /// Rows of pins, their lengths, longest first (games on rows or heaps).
    Pins(Vec<u32>),
}

/// A grid of cells, rows from the top, each cell a character: `.` for an empty cell, a
/// letter or a sign for a piece (`X`, `O`, `C`, `@`, …). The labels name the rows and
/// columns the way the game's move names do, so a front end can print them at the edge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// The number of columns.
    pub cols: usize,
    /// The cells, row by row from the top: `rows · cols` of them.
    pub cells: Vec<char>,
    /// The label of each row, from the top (`3`, `2`, `1` on tic-tac-toe).
    pub row_labels: Vec<String>,
    /// The label of each column, from the left (`a`, `b`, `c` on tic-tac-toe).
    pub col_labels: Vec<String>,
    /// The cells (indices into `cells`) of a line that decided the game, when one did:
    /// the four of Connect Four, the three of tic-tac-toe.
    pub line: Vec<usize>,
}

impl Grid {
    /// A grid of `rows × cols` cells from `cell(row, col)` (row 0 at the top), labelled
    /// by `row_label(row)` and `col_label(col)`, with no line.
    pub fn from_fn(
        rows: usize,
        cols: usize,
        mut cell: impl FnMut(usize, usize) -> char,
        row_label: impl Fn(usize) -> String,
        col_label: impl Fn(usize) -> String,
    ) -> Grid {
        let cells = (0..rows * cols).map(|i| cell(i / cols, i % cols)).collect();
        Grid {
            cols,
            cells,
            row_labels: (0..rows).map(row_label).collect(),
            col_labels: (0..cols).map(col_label).collect(),
            line: Vec::new(),
        }
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.cells.len().checked_div(self.cols).unwrap_or(0)
    }

    /// The cell at `row` (from the top) and `col`.
    pub fn at(&self, row: usize, col: usize) -> char {
        self.cells[row * self.cols + col]
    }

    /// The name of cell `index`: its column label then its row label (`b2`).
    pub fn cell_name(&self, index: usize) -> String {
        format!("{}{}", self.col_labels[index % self.cols], self.row_labels[index / self.cols])
    }

    /// Marks the first line of `k` equal pieces (not `.`) across, down or diagonal, if
    /// there is one.
    pub fn with_line_of(mut self, k: usize) -> Grid {
        let (rows, cols) = (self.rows() as isize, self.cols as isize);
        let steps = [(0isize, 1isize), (1, 0), (1, 1), (1, -1)];
        for start in 0..self.cells.len() {
            let (r, c) = ((start / self.cols) as isize, (start % self.cols) as isize);
            let piece = self.cells[start];
            if piece == '.' {
                continue;
            }
            for (dr, dc) in steps {
                let line: Vec<usize> = (0..k as isize)
                    .map(|i| (r + i * dr, c + i * dc))
                    .take_while(|&(r, c)| (0..rows).contains(&r) && (0..cols).contains(&c))
                    .map(|(r, c)| (r * cols + c) as usize)
                    .take_while(|&i| self.cells[i] == piece)
                    .collect();
                if line.len() == k {
                    self.line = line;
                    return self;
                }
            }
        }
        self
    }
}

/// The picture as text for a terminal: the grid with its labels and the decisive line
/// named below it, or the rows of pins as `|` marks.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Board::Grid(g) => {
                let width = g.row_labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
                let cell = g.col_labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
                for r in 0..g.rows() {
                    write!(f, "{:>width$} ", g.row_labels[r])?;
                    for c in 0..g.cols {
                        write!(f, " {:>cell$}", g.at(r, c))?;
                    }
                    writeln!(f)?;
                }
                write!(f, "{:width$} ", "")?;
                for label in &g.col_labels {
                    write!(f, " {label:>cell$}")?;
                }
                writeln!(f)?;
                if !g.line.is_empty() {
                    let names: Vec<String> = g.line.iter().map(|&i| g.cell_name(i)).collect();
                    writeln!(f, "the line: {}", names.join(" "))?;
                }
                Ok(())
            }
            Board::Pins(rows) if rows.is_empty() => writeln!(f, "(no pins left)"),
            Board::Pins(rows) => {
                for &n in rows {
                    let pins: String = (0..n).map(|_| "| ").collect();
                    writeln!(f, "{n:>2}  {}", pins.trim_end())?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let cols = rows[0].len();
        Grid::from_fn(
            rows.len(),
            cols,
            |r, c| rows[r].as_bytes()[c] as char,
            |r| (rows.len() - r).to_string(),
            |c| ((b'a' + c as u8) as char).to_string(),
        )
    }

    #[test]
    fn lines_are_found_in_every_direction() {
        assert_eq!(grid(&["XXX", "O.O", "..."]).with_line_of(3).line, [0, 1, 2]);
        assert_eq!(grid(&["X.O", "X.O", ".XO"]).with_line_of(3).line, [2, 5, 8]);
        assert_eq!(grid(&["..O", ".O.", "O.X"]).with_line_of(3).line, [2, 4, 6]);
        assert_eq!(grid(&["X..", ".X.", "..X"]).with_line_of(3).line, [0, 4, 8]);
        assert!(grid(&["XOX", "XOO", "OXX"]).with_line_of(3).line.is_empty());
    }

    #[test]
    fn a_grid_prints_with_its_labels_and_line() {
        let b = Board::Grid(grid(&["XXX", "O.O", "..."]).with_line_of(3));
        assert_eq!(b.to_string(), "3  X X X\n2  O . O\n1  . . .\n   a b c\nthe line: a3 b3 c3\n");
        assert_eq!(Board::Pins(vec![3, 1]).to_string(), " 3  | | |\n 1  |\n");
        assert_eq!(Board::Pins(vec![]).to_string(), "(no pins left)\n");
    }
}
