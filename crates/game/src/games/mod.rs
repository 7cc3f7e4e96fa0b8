//! Games that ship with gamegraph, each with its text notation.
//!
//! - [`TicTacToe`]: the 3 × 3 game with ties, up to the 8 symmetries of the board;
//! - [`ConnectFour`]: any board of `width · (height + 1) ≤ 64` cells, ties on a full board;
//! - [`OctalRows`]: octal games on rows of pins, Kayles (`0.77`) and Dawson's Kayles
//!   (`0.07`) among them, impartial and in normal play;
//! - [`Chase`]: a cat chases a mouse round a ring; a loopy game with draws;
//! - [`TabBoard`]: the tab board game, a piece climbing an N × M board;
//! - [`Quixo`]: cubes pushed in from the edge of a 3 × 3 to 5 × 5 board; loopy, with draws.
//!
//! Heap games where a move takes 1 to k objects from one heap are the octal games
//! `0.33…3` (k digits 3) of [`OctalRows`].

mod chase;
mod connect4;
mod octal;
mod quixo;
mod tab;
mod tictactoe;

pub use self::chase::{Chase, MAX_RING, MIN_RING, RingSizeError};
pub use self::connect4::{BoardSizeError, ConnectFour};
pub use self::octal::{MAX_ROW, MAX_ROWS, OctalRows, RowsError};
pub use self::quixo::{MAX_QUIXO, MIN_QUIXO, Quixo, QuixoSizeError};
pub use self::tab::{MAX_TAB_COLS, MAX_TAB_ROWS, TabBoard, TabError};
pub use self::tictactoe::TicTacToe;

/// `with symmetry` or `without symmetry`, in a game's identity.
fn symmetry(on: bool) -> &'static str {
    if on { "with symmetry" } else { "without symmetry" }
}
