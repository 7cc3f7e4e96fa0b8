//! The tab board game: a piece climbs a board of N rows and M columns.

use gamegraph_tab::{Board, Cell};

use crate::tier::Tiered;
use crate::{Board as Picture, Game, Grid, ParseError};

/// The most columns: a column is stored in 8 bits.
pub const MAX_TAB_COLS: u32 = 255;
/// The most rows: a row is stored in 56 bits.
pub const MAX_TAB_ROWS: u64 = (1 << 56) - 1;

/// The tab board game on `rows × cols` (rows 1..=N from the bottom up, columns 1..=M from
/// the left): a move takes the piece from (x, y) to (x + k, k) for any column k ≠ y with
/// x + k ≤ N; the player who cannot move loses. The moves are the tab crate's
/// ([`Board::successors`]), so both solvers play one rule.
///
/// Position: a `u64`, the row in bits 8 and up, the column in bits 0–7.
///
/// Notation: the row and the column separated by a space, `5 3`. Reading also accepts a
/// comma.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabBoard {
    board: Board,
    start: u64,
}

/// Why a tab board or its start cell is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabError {
    /// The board's rows.
    pub rows: u64,
    /// The board's columns.
    pub cols: u32,
    /// The start cell `(row, column)`.
    pub cell: (u64, u32),
}

impl std::fmt::Display for TabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (x, y) = self.cell;
        write!(
            f,
            "cell ({x}, {y}) on a {} × {} board: the board has 1 to {MAX_TAB_ROWS} rows and 1 to \
             {MAX_TAB_COLS} columns, and the cell is on it",
            self.rows, self.cols
        )
    }
}

impl std::error::Error for TabError {}

impl TabBoard {
    /// The game on `rows × cols` starting from cell (`row`, `col`).
    ///
    /// # Errors
    /// [`TabError`] when the board is empty or too large, or the cell is not on it.
    pub fn new(rows: u64, cols: u32, row: u64, col: u32) -> Result<TabBoard, TabError> {
        let ok = (1..=MAX_TAB_ROWS).contains(&rows)
            && (1..=MAX_TAB_COLS).contains(&cols)
            && (1..=rows).contains(&row)
            && (1..=cols).contains(&col);
        match Board::new(rows, cols) {
            Ok(board) if ok => Ok(TabBoard { board, start: row << 8 | u64::from(col) }),
            _ => Err(TabError { rows, cols, cell: (row, col) }),
        }
    }

    /// The cell (row, column) of a position.
    pub fn cell(&self, p: u64) -> (u64, u32) {
        (p >> 8, (p & 0xff) as u32)
    }

    /// The board, for the tab crate's solver.
    pub fn board(&self) -> Board {
        self.board
    }
}

impl Game for TabBoard {
    type Position = u64;

    /// `tab 20x6 from 1,1`: rows x columns and the start cell.
    fn identity(&self) -> String {
        let (row, col) = self.cell(self.start);
        format!("tab {}x{} from {row},{col}", self.board.rows(), self.board.cols())
    }

    fn numbering(&self) -> u32 {
        1
    }

    fn start(&self) -> u64 {
        self.start
    }

    fn moves(&self, p: u64, out: &mut Vec<u64>) {
        let (row, col) = self.cell(p);
        let to = self.board.successors(Cell { row, col });
        out.extend(to.map(|c| c.row << 8 | u64::from(c.col)));
    }

    /// The column the piece moves to: `column 3`.
    fn move_name(&self, _: u64, to: u64) -> Option<String> {
        Some(format!("column {}", self.cell(to).1))
    }

    /// The board with the piece `@` and the cells it can move to `+`, rows numbered from
    /// the bottom; on boards of at most 30 rows and 30 columns.
    fn board(&self, p: u64) -> Option<Picture> {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        if rows > 30 || cols > 30 {
            return None;
        }
        let (row, col) = self.cell(p);
        let mut to = Vec::new();
        self.moves(p, &mut to);
        let to: Vec<(u64, u32)> = to.into_iter().map(|q| self.cell(q)).collect();
        let grid = Grid::from_fn(
            rows as usize,
            cols as usize,
            |r, c| {
                let here = (rows - r as u64, c as u32 + 1);
                if here == (row, col) {
                    '@'
                } else if to.contains(&here) {
                    '+'
                } else {
                    '.'
                }
            },
            |r| (rows - r as u64).to_string(),
            |c| (c + 1).to_string(),
        );
        Some(Picture::Grid(grid))
    }

    fn show(&self, p: u64) -> String {
        let (x, y) = self.cell(p);
        format!("{x} {y}")
    }

    fn parse(&self, s: &str) -> Result<u64, ParseError> {
        let mut numbers: Vec<(usize, u64)> = Vec::new();
        let mut current: Option<(usize, u64)> = None;
        for (i, ch) in s.chars().chain(std::iter::once(' ')).enumerate() {
            let at = i + 1;
            if let Some(d) = ch.to_digit(10) {
                let (start, n) = current.unwrap_or((at, 0));
                let n = n
                    .checked_mul(10)
                    .and_then(|n| n.checked_add(u64::from(d)))
                    .filter(|&n| n <= MAX_TAB_ROWS)
                    .ok_or_else(|| ParseError::new(start, "number too large"))?;
                current = Some((start, n));
            } else if ch == ' ' || ch == '\t' || ch == ',' {
                numbers.extend(current.take());
            } else {
                return Err(ParseError::new(
                    at,
                    format!("unexpected {ch:?}: expected row and column"),
                ));
            }
            if numbers.len() > 2 {
                return Err(ParseError::new(numbers[2].0, "expected only a row and a column"));
            }
        }
        let [(xat, x), (yat, y)] = numbers[..] else {
            return Err(ParseError::new(1, "expected a row and a column, as `5 3`"));
        };
        if !(1..=self.board.rows()).contains(&x) {
            return Err(ParseError::new(
                xat,
                format!("row {x} is not on the board (1..={})", self.board.rows()),
            ));
        }
        if !(1..=u64::from(self.board.cols())).contains(&y) {
            return Err(ParseError::new(
                yat,
                format!("column {y} is not on the board (1..={})", self.board.cols()),
            ));
        }
        Ok(x << 8 | y)
    }
}

/// Tier `x` holds the positions on row `x` (the piece only climbs); a position's rank in its
/// tier is its column. Boards of 2³² rows or more have more tiers than a tier number holds:
/// their rows past 2³² − 2 are not numbered, and a tier solve of them is refused.
impl Tiered for TabBoard {
    fn tier_count(&self) -> u32 {
        u32::try_from(self.board.rows() + 1).unwrap_or(u32::MAX)
    }

    fn tier(&self, p: u64) -> u32 {
        u32::try_from(self.cell(p).0).unwrap_or(u32::MAX)
    }

    fn child_tiers(&self, t: u32, out: &mut Vec<u32>) {
        let last = (u64::from(t) + u64::from(self.board.cols())).min(self.board.rows());
        out.extend((u64::from(t) + 1..=last).filter_map(|r| u32::try_from(r).ok()));
    }

    fn tier_size(&self, _: u32) -> u64 {
        u64::from(self.board.cols()) + 1
    }

    fn tier_rank(&self, p: u64) -> u64 {
        u64::from(self.cell(p).1)
    }

    fn tier_unrank(&self, t: u32, r: u64) -> Option<u64> {
        (r <= u64::from(self.board.cols()) && u64::from(t) <= self.board.rows())
            .then(|| u64::from(t) << 8 | r)
    }

    fn moves_stay(&self, _: u32) -> bool {
        false
    }

    fn remoteness_bound(&self) -> Option<u32> {
        u32::try_from(self.board.rows()).ok()
    }
}
