//! The tab board game as an engine, its values from the tab crate's solver: boards far
//! beyond what exploring the game's positions can hold.

use std::fmt;

use gamegraph_game::games::TabBoard;
use gamegraph_game::{Game, MoveValue, PositionValue};
use gamegraph_tab::{Cell, Config, Solution, SolveError, Value};

use super::{Engine, Erased, LookupError, Values};

struct TabValues {
    game: TabBoard,
    solution: Solution,
}

impl TabValues {
    fn value(&self, p: u64) -> Result<Value, LookupError> {
        let (row, col) = self.game.cell(p);
        self.solution.value(Cell { row, col }).map_err(|e| LookupError::new(e.to_string()))
    }
}

/// A depth in plies as a remoteness; every depth fits, as boards have fewer than 2³² rows.
fn remoteness(v: Value) -> Option<u32> {
    Some(u32::try_from(v.depth()).expect("a depth is less than the board's rows"))
}

impl Values<TabBoard> for TabValues {
    fn game(&self) -> &TabBoard {
        &self.game
    }

    fn query(&self, p: u64) -> Result<Option<PositionValue<u64>>, LookupError> {
        let here = self.value(p)?;
        let mut to = Vec::new();
        self.game.moves(p, &mut to);
        let moves = to
            .into_iter()
            .map(|q| {
                let v = self.value(q)?;
                Ok(MoveValue {
                    position: q,
                    outcome: v.outcome().flip(),
                    remoteness: remoteness(v),
                })
            })
            .collect::<Result<_, LookupError>>()?;
        Ok(Some(PositionValue::new(p, here.outcome(), remoteness(here), moves)))
    }
}

/// The most rows of a board [`tab`] plays: a depth in plies must fit a remoteness.
pub const MAX_PLAYED_TAB_ROWS: u64 = u32::MAX as u64;

/// Why a tab board cannot be played.
#[derive(Debug)]
pub enum TabPlayError {
    /// More rows than [`MAX_PLAYED_TAB_ROWS`].
    TooManyRows(u64),
    /// The solver's error.
    Solve(SolveError),
}

impl fmt::Display for TabPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TabPlayError::TooManyRows(rows) => write!(
                f,
                "a board of {rows} rows is too tall to play (at most {MAX_PLAYED_TAB_ROWS}); \
                 `gamegraph tab` gives any cell's value"
            ),
            TabPlayError::Solve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TabPlayError {}

/// Solves the tab board of `game` with the tab crate's solver (its rows by period, not its
/// positions one by one) and plays it from the game's start.
///
/// # Errors
/// [`TabPlayError`]: a board of more than [`MAX_PLAYED_TAB_ROWS`] rows, or the solver's
/// error.
pub fn tab(game: TabBoard) -> Result<Box<dyn Engine>, TabPlayError> {
    let board = game.board();
    if board.rows() > MAX_PLAYED_TAB_ROWS {
        return Err(TabPlayError::TooManyRows(board.rows()));
    }
    let solution = gamegraph_tab::solve(board, &Config::default(), &mut |_| {})
        .map_err(TabPlayError::Solve)?;
    let values = TabValues { game, solution };
    Ok(Box::new(Erased { values, _game: std::marker::PhantomData }))
}
