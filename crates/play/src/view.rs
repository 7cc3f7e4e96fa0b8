//! A session as data: what a page or a script needs to draw the position and offer its
//! moves, serialisable as the JSON of `gamegraph play --game … --json`.

use gamegraph_game::{Board, Outcome};
use serde::Serialize;

use crate::session::{End, Session};

/// The state of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    /// The game's identity.
    pub game: String,
    /// The position in play, in the game's notation.
    pub position: String,
    /// Its picture, when the game gives one.
    pub board: Option<BoardView>,
    /// The moves made so far: the first player is to move when it is even.
    pub ply: usize,
    /// The position's outcome for the player to move.
    pub outcome: &'static str,
    /// Its remoteness (`None` for a draw).
    pub remoteness: Option<u32>,
    /// Why the game is over, when it is: `finished` (no move) or `repeated`.
    pub over: Option<&'static str>,
    /// For a finished game, its value for the player to move there: `win`, `loss` or
    /// `tie`; `draw` for a repetition.
    pub result: Option<&'static str>,
    /// The legal moves, in the game's order.
    pub moves: Vec<MoveView>,
    /// The name of the best move.
    pub best: Option<String>,
    /// Advice for playing it, as the terminal's `hint` words it: `column 4 wins in 5
    /// plies`.
    pub advice: Option<String>,
    /// Every position reached, the first one first: the value history.
    pub history: Vec<StepView>,
}

/// A legal move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// What to type (or send) for it.
    pub name: String,
    /// The position after it.
    pub position: String,
    /// Its outcome for the player who makes it.
    pub outcome: &'static str,
    /// The remoteness of the position after it.
    pub remoteness: Option<u32>,
    /// The cells of the grid it changes (indices into the board's cells), for a page
    /// that plays a move by a click on one of them.
    pub cells: Vec<usize>,
}

/// A position of the value history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepView {
    /// The move that led here (`None` at the first position).
    pub played: Option<String>,
    /// The position.
    pub position: String,
    /// Its outcome for the player to move there.
    pub outcome: &'static str,
    /// Its remoteness.
    pub remoteness: Option<u32>,
}

/// A picture of a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BoardView {
    /// A grid of cells: `cells` row by row from the top, a character each (`.` empty).
    Grid {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// The cells, `rows · cols` characters.
        cells: String,
        /// The row labels from the top.
        row_labels: Vec<String>,
        /// The column labels from the left.
        col_labels: Vec<String>,
        /// The cells of the line that decided the game.
        line: Vec<usize>,
    },
    /// Rows of pins, their lengths.
    Pins {
        /// The lengths.
        rows: Vec<u32>,
    },
}

impl BoardView {
    fn of(board: &Board) -> BoardView {
        match board {
            Board::Grid(g) => BoardView::Grid {
                rows: g.rows(),
                cols: g.cols,
                cells: g.cells.iter().collect(),
                row_labels: g.row_labels.clone(),
                col_labels: g.col_labels.clone(),
                line: g.line.clone(),
            },
            Board::Pins(rows) => BoardView::Pins { rows: rows.clone() },
        }
    }
}

impl Session<'_> {
    /// The session's state as data.
    pub fn view(&self) -> View {
        let engine = self.engine();
        let board = self.board();
        let changed = |to: u128| match (&board, engine.board(to)) {
            (Some(Board::Grid(a)), Some(Board::Grid(b))) if a.cells.len() == b.cells.len() => {
                (0..a.cells.len()).filter(|&i| a.cells[i] != b.cells[i]).collect()
            }
            _ => Vec::new(),
        };
        let (over, result) = match self.over() {
            None => (None, None),
            Some(End::Repeated) => (Some("repeated"), Some(Outcome::Draw.word())),
            Some(End::Finished(t)) => (Some("finished"), Some(Outcome::from(t).word())),
        };
        View {
            game: engine.identity(),
            position: self.show(),
            board: board.as_ref().map(BoardView::of),
            ply: self.ply(),
            outcome: self.value().0.word(),
            remoteness: self.value().1,
            over,
            result,
            moves: self
                .moves()
                .iter()
                .map(|m| MoveView {
                    name: m.name.clone(),
                    position: engine.show(m.position),
                    outcome: m.outcome.word(),
                    remoteness: m.remoteness,
                    cells: changed(m.position),
                })
                .collect(),
            best: self.best().map(|m| m.name.clone()),
            advice: self.best().map(crate::Move::advice),
            history: self
                .history()
                .iter()
                .map(|s| StepView {
                    played: s.played.clone(),
                    position: engine.show(s.position),
                    outcome: s.outcome.word(),
                    remoteness: s.remoteness,
                })
                .collect(),
        }
    }
}
