//! The tab board game ("Cờ bảng", SPEC §2): exact min-max answers for boards of any height.
//!
//! A piece stands on cell (x, y) of an N × M board (rows 1..=N from the bottom, columns
//! 1..=M). A move goes to (x + k, k) for any k in 1..=M with k ≠ y and x + k ≤ N; who
//! cannot move loses. The value of a cell is its depth p in plies (SPEC §1); the seed's
//! answer is d = 0 when the player to move loses, else (p + 1) / 2, A's own moves.
//!
//! ```
//! use gamegraph_tab::{Board, Config, solve_cell};
//! // The seed's examples: on 10 × 4, A loses from (5, 3) and wins in 2 moves from (4, 3).
//! let board = Board::new(10, 4)?;
//! let d = |x, y| solve_cell(board, board.cell(x, y).unwrap(), &Config::default(), &mut |_| {});
//! assert_eq!(d(5, 3)?.answer(), 0);
//! assert_eq!(d(4, 3)?.answer(), 2);
//! // A board of 10^18 rows, by the period of its rows.
//! let tall = Board::new(1_000_000_000_000_000_000, 50)?;
//! let v = solve_cell(tall, tall.cell(1, 1)?, &Config::default(), &mut |_| {})?;
//! assert!(v.depth() > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # One row in O(M)
//!
//! Write r = N − x for the distance of a row from the top and V(r, y) for the value of
//! cell (N − r, y). The successors of (N − r, y) are the cells at distance r − k in column
//! k, for k = 1..=min(M, r), k ≠ y: **the candidates `V(r − k, k)` are the same for every
//! cell of the row**, and cell y only loses candidate k = y. The mover prefers a lost
//! successor of least depth, then a won successor of greatest depth; so every cell takes
//! 1 + the best candidate, except the column of the best one, which takes 1 + the second
//! best (or 0 when it has no other move). A row is therefore three numbers (a, b, ex), it
//! costs O(M) to compute from the M rows above it, and the values depend on r and the
//! column only, never on N.
//!
//! # Boards of any height: why extrapolation is exact
//!
//! Call the window at r the rows r − M + 1..=r. Three facts:
//!
//! 1. **The window determines the rest.** Row r + 1 only reads V(r + 1 − k, k) for
//!    k ≤ M, all inside the window at r; and once r + 1 ≥ M every k in 1..=M is a legal
//!    step (x + k ≤ N), so the rule that computes row r + 1 from the window is the same
//!    function F for every r ≥ M − 1.
//! 2. **F commutes with adding a constant.** F picks, per cell, the best candidate under
//!    "lost beats won, shallower lost beats deeper lost, deeper won beats shallower won",
//!    and adds 1. Adding an even constant c to every depth keeps every outcome (the
//!    outcome is the parity of the depth) and every comparison, so the same candidates
//!    are chosen and F(w + c) = F(w) + c. (With M ≥ 2 every cell at r ≥ M has a move, so
//!    no terminal 0 enters F; with M = 1 only c = 0 is used.)
//! 3. **So one repeat is forever.** If the window at r₀ + p equals the window at r₀ with
//!    every depth plus c, then by (1) and (2) row r₀ + p + 1 = row r₀ + 1 plus c, hence the
//!    window at r₀ + p + 1 is the window at r₀ + 1 plus c, and by induction
//!    V(r + p, y) = V(r, y) + c for every r ≥ r₀ − M + 1. Then
//!    V(r, y) = V(s + (r − s) mod p, y) + ⌊(r − s) / p⌋ · c for every r ≥ s, the least
//!    such start (found by scanning back over the stored rows).
//!
//! [`find_period`] looks for such a repeat with Brent's cycle detection over windows
//! taken up to the constant (comparing outcomes, exceptional columns and depth
//! differences), bounded by [`Config::search_rows`]; depths are u64 and every addition or
//! product on them is checked. When no repeat shows up, [`solve_cell`] falls back to
//! streaming DP over all rows in O(M) memory, with a progress callback.

mod board;
mod error;
mod parse;
mod period;
mod render;
mod row;
mod solve;

pub use board::{Board, Cell, MAX_COLS, Outcome, Value};
pub use error::{BoardError, Field, ParseError, ParseErrorKind, SolveError};
pub use parse::parse_tests;
pub use period::Period;
pub use render::{render_grid, render_svg};
pub use solve::{Config, Solution, Test, answer_tests, find_period, solve, solve_cell};
