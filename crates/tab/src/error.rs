//! Errors of the tab crate.

use std::{fmt, io};

use gamegraph_graph::{Limit, Located, Position};

/// Why a board or a cell is not valid.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardError {
    /// A board needs at least one row.
    NoRows,
    /// A board needs at least one column.
    NoCols,
    /// More columns than [`MAX_COLS`](crate::MAX_COLS).
    TooManyCols {
        /// The requested number of columns.
        cols: u32,
    },
    /// A cell outside the board.
    CellOutside {
        /// The cell's row.
        row: u64,
        /// The cell's column.
        col: u32,
        /// The board's rows.
        rows: u64,
        /// The board's columns.
        cols: u32,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::NoRows => f.write_str("a board needs at least one row"),
            BoardError::NoCols => f.write_str("a board needs at least one column"),
            BoardError::TooManyCols { cols } => {
                write!(f, "{cols} columns is more than the {} supported", crate::MAX_COLS)
            }
            BoardError::CellOutside { row, col, rows, cols } => write!(
                f,
                "cell ({row},{col}) is outside the {rows} × {cols} board \
                 (rows 1..={rows}, columns 1..={cols})"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// Why a board could not be solved.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// A depth does not fit in u64.
    Overflow,
    /// Plain DP was asked to store more rows than allowed.
    TooTall {
        /// The board's rows.
        rows: u64,
        /// [`Config::store_rows`](crate::Config::store_rows).
        limit: u64,
    },
    /// No repeat of the rows showed up within the search bound.
    NoPeriod {
        /// The number of columns.
        cols: u32,
        /// The rows computed: [`Config::search_rows`](crate::Config::search_rows), or
        /// 2M + 2 when that is more.
        searched: u64,
    },
    /// Plain DP would need more than [`LIFETIME_CELLS`](crate::LIFETIME_CELLS) cell
    /// evaluations: refused before it starts.
    Hopeless {
        /// The rows plain DP would compute.
        rows: u64,
        /// The number of columns.
        cols: u32,
        /// The rows a period search computed in vain first, if one ran.
        searched: Option<u64>,
    },
    /// More rows would be kept in memory than
    /// [`MAX_STORED_ROWS`](crate::MAX_STORED_ROWS): refused before it starts.
    TooMuchMemory {
        /// The rows that would be kept.
        rows: u64,
        /// The most allowed.
        max: u64,
    },
    /// A limit was reached: the work limit [`Config::max_cells`](crate::Config::max_cells)
    /// ([`Limit::Budget`], with the evaluations needed when the work was known in advance),
    /// [`Config::deadline`](crate::Config::deadline) ([`Limit::Time`]), the stop flag of
    /// [`solve_until`](crate::solve_until) or [`solve_cell_until`](crate::solve_cell_until)
    /// ([`Limit::Stop`]), or memory the work needs that could not be allocated
    /// ([`Limit::Memory`]).
    Limit {
        /// The limit reached.
        limit: Limit,
        /// The cell evaluations made by then, where they are counted.
        cells: Option<u64>,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Overflow => f.write_str("a depth does not fit in 64 bits"),
            SolveError::TooTall { rows, limit } => {
                write!(f, "{rows} rows is more than the {limit} that plain DP stores")
            }
            SolveError::NoPeriod { cols, searched } => {
                write!(f, "no period of the rows of {cols} columns within {searched} rows")
            }
            SolveError::Hopeless { rows, cols, searched } => {
                write!(
                    f,
                    "plain DP over {rows} rows of {cols} columns needs more than {} cell \
                     evaluations and cannot finish",
                    crate::LIFETIME_CELLS
                )?;
                if let Some(searched) = searched {
                    write!(f, " (no period of the rows showed up within {searched} rows)")?;
                }
                Ok(())
            }
            SolveError::TooMuchMemory { rows, max } => write!(
                f,
                "keeping {rows} rows in memory is more than the {max} allowed (24 bytes each)"
            ),
            SolveError::Limit { limit: limit @ Limit::Budget { needed: Some(_), .. }, .. } => {
                write!(f, "the work {limit}")
            }
            SolveError::Limit { limit: Limit::Stop, .. } => {
                f.write_str("stopped before the answer was found")
            }
            SolveError::Limit { limit: Limit::Time, cells } => write!(
                f,
                "the time limit was reached after {} cell evaluations",
                cells.unwrap_or_default()
            ),
            SolveError::Limit { limit: Limit::Memory { needed, allowed: None }, .. } => write!(
                f,
                "not enough memory: {} could not be allocated",
                gamegraph_graph::memory::human_bytes(*needed)
            ),
            SolveError::Limit { limit, .. } => write!(f, "{limit}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// What is wrong in an input of the tab.inp format, and where.
#[derive(Debug)]
#[non_exhaustive]
pub struct InputError {
    /// What went wrong.
    pub kind: InputErrorKind,
    /// The line and column of the offending token (or of the end of the input; for a read
    /// error, the start of the line that could not be read).
    pub(crate) at: Position,
    /// Set when the error shows up past the line its test begins on and that line holds
    /// fewer than the four numbers of a test: most likely one is missing there.
    pub short_line: Option<ShortLine>,
}

/// A test whose first line holds fewer than its four numbers (see
/// [`InputError::short_line`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShortLine {
    /// The test, counted from 1.
    pub test: u64,
    /// The line the test begins on.
    pub line: u64,
    /// How many of the test's numbers stand on that line (1 to 3).
    pub numbers: u8,
}

impl InputError {
    /// An error of `kind` at `at`.
    pub(crate) fn new(kind: InputErrorKind, at: Position) -> InputError {
        InputError { kind, at, short_line: None }
    }
}

impl Located for InputError {
    /// The line and column of the error, or `None` when the input could not be read at
    /// all ([`InputErrorKind::Io`]: a position would say nothing).
    fn position(&self) -> Option<Position> {
        match self.kind {
            InputErrorKind::Io(_) => None,
            _ => Some(self.at),
        }
    }
}

/// Which number of a test a message is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The number of tests s on the first line.
    Count,
    /// N, the rows.
    Rows,
    /// M, the columns.
    Cols,
    /// x, the start row.
    X,
    /// y, the start column.
    Y,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Count => "the number of tests s",
            Field::Rows => "N (rows)",
            Field::Cols => "M (columns)",
            Field::X => "x (start row)",
            Field::Y => "y (start column)",
        })
    }
}

/// The kinds of [`InputError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// The input could not be read.
    Io(io::Error),
    /// A token that is not a natural number.
    NotANumber {
        /// The test (1-based), or `None` for the count.
        test: Option<u64>,
        /// Which number.
        field: Field,
        /// The token, quoted ([`quote`](gamegraph_graph::quote)).
        found: String,
    },
    /// A negative number.
    Negative {
        /// The test (1-based), or `None` for the count.
        test: Option<u64>,
        /// Which number.
        field: Field,
        /// The token, shortened ([`shorten`](gamegraph_graph::position::shorten)).
        found: String,
    },
    /// A zero where a positive number is needed.
    Zero {
        /// The test (1-based), or `None` for the count.
        test: Option<u64>,
        /// Which number.
        field: Field,
    },
    /// A number too large for its field.
    TooLarge {
        /// The test (1-based), or `None` for the count.
        test: Option<u64>,
        /// Which number.
        field: Field,
        /// The token, shortened ([`shorten`](gamegraph_graph::position::shorten)).
        found: String,
        /// The largest value allowed.
        max: u64,
    },
    /// A start cell outside its board.
    OutsideBoard {
        /// The test (1-based).
        test: u64,
        /// [`Field::X`] or [`Field::Y`].
        field: Field,
        /// The value.
        value: u64,
        /// The board's rows (for x) or columns (for y).
        limit: u64,
    },
    /// The input ended before a number of a test.
    Missing {
        /// The number of tests announced.
        expected: u64,
        /// The test (1-based), or `None` for the count.
        test: Option<u64>,
        /// Which number.
        field: Field,
    },
    /// Something after the last test.
    Trailing {
        /// The token, quoted ([`quote`](gamegraph_graph::quote)).
        found: String,
    },
}

fn test_prefix(f: &mut fmt::Formatter<'_>, test: &Option<u64>) -> fmt::Result {
    match test {
        Some(t) => write!(f, "test {t}: "),
        None => Ok(()),
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            InputErrorKind::Io(e) => write!(f, "cannot read the input: {e}"),
            InputErrorKind::NotANumber { test, field, found } => {
                test_prefix(f, test)?;
                write!(f, "{field} must be a natural number, found {found}")
            }
            InputErrorKind::Negative { test, field, found } => {
                test_prefix(f, test)?;
                write!(f, "{field} must not be negative, found {found}")
            }
            InputErrorKind::Zero { test, field } => {
                test_prefix(f, test)?;
                write!(f, "{field} must be at least 1, found 0")
            }
            InputErrorKind::TooLarge { test, field, found, max } => {
                test_prefix(f, test)?;
                write!(f, "{field} is {found}, more than the largest allowed {max}")
            }
            InputErrorKind::OutsideBoard { test, field, value, limit } => {
                let what = if *field == Field::X { "rows" } else { "columns" };
                write!(
                    f,
                    "test {test}: {field} = {value} is outside the board ({what} 1..={limit})"
                )
            }
            InputErrorKind::Missing { expected, test, field } => {
                test_prefix(f, test)?;
                write!(f, "the input ends where {field} was expected")?;
                match (test, expected) {
                    (None, _) => Ok(()),
                    (Some(_), 1) => f.write_str(" (1 test was announced)"),
                    (Some(_), n) => write!(f, " ({n} tests were announced)"),
                }
            }
            InputErrorKind::Trailing { found } => {
                write!(f, "unexpected {found} after the last test")
            }
        }?;
        if let Some(ShortLine { test, line, numbers }) = self.short_line {
            let numbers =
                if numbers == 1 { "1 number".into() } else { format!("{numbers} numbers") };
            write!(
                f,
                " (test {test} begins on line {line}, which holds only {numbers} of its four \
                 N M x y: is one missing there?)"
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            InputErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}
