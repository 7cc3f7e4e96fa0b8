//! Games given by their rules: exploration, four outcomes with remoteness, shipped games.
//!
//! A [`Game`] says where play starts, which moves each position has, and what a finished
//! position is worth (win, loss or tie for the player to move). [`explore`] finds every
//! position reachable from the start, in parallel, identifying symmetric positions through
//! [`Game::canonical`], and builds the game graph. [`solve`] labels every position with
//! one of four [`Outcome`]s for the player to move, win > tie > draw > loss, and its
//! remoteness (plies to the end with best play):
//!
//! - the winner hurries: a win is 1 + the least remoteness of a move to a loss;
//! - the loser delays: a loss is 1 + the greatest remoteness of its moves (all wins);
//! - a tie (the game ends and nobody wins) is reached as fast as possible: 1 + the least
//!   remoteness of a move to a tie, both players preferring a tie to playing for ever.
//!   This is the rule of the GamesmanOne solvers: the player to move picks, among its
//!   tying moves, the one of smallest remoteness (the opponent, who cannot win either,
//!   agrees);
//! - a draw (play goes on for ever) has no remoteness.
//!
//! Optimal moves follow these rules, ties between equal moves broken by the smallest
//! position. A game whose finished positions are all losses gets exactly the win / loss /
//! draw labels and depths of `gamegraph_retro::solve` on the same graph.
//!
//! [`verify`] checks a [`Table`] of outcomes, remoteness and moves (what `solve` gives, or
//! what was read back from text) by local conditions at every vertex, without solving.
//!
//! [`SolvedGame`] does both and answers queries: the value of a position and of every
//! move from it. [`SolvedGame::save`] writes the values to a file of checked, independent
//! blocks, and [`ValuesFile`] answers queries from such a file reading one block each.
//! The [`games`] module ships tic-tac-toe, Connect Four, octal games on rows (Kayles,
//! Dawson's Kayles, heaps with a take limit), a loopy chase where draws occur, and the tab
//! board.
//!
//! Nothing here prints, reads the environment or builds a thread pool: the parallel parts
//! run on the rayon pool they are called on, and give the same results on every number of
//! threads.
//!
//! ```
//! use gamegraph_game::games::TicTacToe;
//! use gamegraph_game::{ExploreConfig, Game, Outcome, SolvedGame};
//!
//! let solved = SolvedGame::new(TicTacToe::new(), &ExploreConfig::default()).unwrap();
//! assert_eq!(solved.len(), 765); // positions up to the 8 symmetries of the board
//! assert_eq!((solved.start_outcome(), solved.start_remoteness()), (Outcome::Tie, Some(9)));
//! let q = solved.query_str("XX./OO./...").unwrap();
//! assert_eq!((q.outcome, q.remoteness), (Outcome::Win, Some(1)));
//! assert_eq!(solved.game().show(q.moves[0].position), "XXX/OO./...");
//! ```

mod board;
mod coder;
mod error;
mod explore;
mod game;
pub mod games;
mod solve;
mod solved;
mod store;
pub mod tier;
mod values_path;
mod verify;

pub use crate::board::{Board, Grid};
pub use crate::error::{ExploreError, ParseError, QueryError};
pub use crate::explore::{BYTES_PER_POSITION, ExploreConfig, Explored, explore};
pub use crate::game::Game;
pub use crate::solve::{Counts, Solution, solve};
pub use crate::solved::{MoveValue, PositionValue, SolvedGame};
pub use crate::store::{FileError, ValuesFile, stored_identity};
pub use crate::values_path::not_a_values_file;
pub use crate::verify::{CertificateError, Table, verified_retro, verify};
pub use gamegraph_graph::{Outcome, Terminal};
