//! The tab board game ("Cờ bảng", docs/games.md): exact min-max answers for boards of any
//! height.
//!
//! A piece stands on cell (x, y) of an N × M board (rows 1..=N from the bottom, columns
//! 1..=M). A move goes to (x + k, k) for any k in 1..=M with k ≠ y and x + k ≤ N; who
//! cannot move loses. The value of a cell is its depth p in plies; the answer of the
//! tab.inp format (docs/formats.md) is d = 0 when the player to move loses, else
//! (p + 1) / 2, A's own moves.
//!
//! ```
//! use gamegraph_tab::{Board, Config, solve_cell};
//! // On 10 × 4, A loses from (5, 3) and wins in 2 moves from (4, 3).
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
//! Call the window at r the rows r − M + 1..=r; of row r − j only columns j + 1..=M are
//! ever read again (by row r − j + k in column k). Three facts:
//!
//! 1. **The window determines the rest.** Row r + 1 only reads V(r + 1 − k, k) for
//!    k ≤ M, all inside the window at r; and once r + 1 ≥ M every k in 1..=M is a legal
//!    step (x + k ≤ N), so the rule that computes row r + 1 from the window is the same
//!    function F for every r ≥ M − 1, and p rows later the same function Fᵖ.
//! 2. **F only compares and adds 1.** Per cell it picks the best candidate under "lost
//!    beats won, shallower lost beats deeper lost, deeper won beats shallower won" and
//!    adds 1; outcomes are depth parities. So if every depth of a window is an affine
//!    function A + t·δ of a parameter t with even slopes δ ≥ 0, and every comparison F
//!    makes is decided the same way for *all* t ≥ 0 (f beats g for all t ≥ 0 iff it does
//!    at t = 0 and its slope is no worse; equal for all t iff the same function), then
//!    F(A + t·δ) is again affine in t, computed once for all t by running F on the pairs
//!    (A, δ). A uniform shift (all δ equal) is the special case in which every comparison
//!    is trivially uniform.
//! 3. **So one proved repeat is forever.** Let A be the window at r₀ and A + δ the window
//!    at r₀ + p (δ even, ≥ 0, entry by entry, on the readable entries). Run Fᵖ
//!    symbolically on A + t·δ. If every comparison is uniform and the result is
//!    A + δ + t·δ, then Fᵖ(A + t·δ) = A + (t + 1)·δ for **every** t ≥ 0; since the window
//!    at r₀ is A (t = 0), induction gives window(r₀ + t·p) = A + t·δ for all t, and row
//!    r₀ + t·p + i is the i-th symbolic row evaluated at t. No assumption about "large t"
//!    is needed: the check is a proof, and a candidate that fails it is only rejected.
//!
//! Candidates come from the rows' signatures (exceptional column, outcomes), whose least
//! period over the last half of the rows computed is found by the KMP failure function
//! at doubling checkpoints, bounded by [`Config::search_rows`]. The reported pre-period is
//! pulled back over the stored rows as far as they still follow the affine law. For some
//! M the depths of different columns grow at different rates (M = 6: 8 or 12 plies per
//! 28 rows), which is why the law is affine per entry rather than one constant shift.
//! Depths are u64 and every product and sum on them is checked. When no repeat is
//! proved, [`solve_cell`] falls back to streaming DP over all rows in O(M) memory, with a
//! progress callback.
//!
//! # Limits
//!
//! Every call counts its cell evaluations (row r reads min(r, M) candidates; a step of the
//! period's proof reads M) against [`Config::max_cells`] and stops with
//! [`SolveError::Limit`] when they run out; work known in advance (plain DP, streaming
//! to a cell, an optimal line) is checked before it starts. A [`Config::deadline`] is
//! checked at least every 2^20 evaluations and stops the call with
//! [`SolveError::Limit`] too (each says which limit it was: the cell budget, the
//! deadline, the stop flag or memory). Work beyond [`LIFETIME_CELLS`] is refused at once with
//! [`SolveError::Hopeless`], more than [`MAX_STORED_ROWS`] rows in memory with
//! [`SolveError::TooMuchMemory`], and memory that cannot be allocated ends the call with
//! [`SolveError::Limit`] rather than an abort.

mod board;
mod config;
mod error;
mod parse;
mod period;
pub mod play;
mod row;
mod solution;
mod solve;
mod symbolic;
mod tokens;
mod work;

pub use board::{Board, Cell, MAX_COLS, Value};
pub use config::{Config, LIFETIME_CELLS, MAX_STORED_ROWS};
pub use error::{BoardError, Field, InputError, InputErrorKind, ShortLine, SolveError};
pub use gamegraph_graph::Outcome;
pub use parse::parse_tests;
pub use period::Period;
pub use solution::Solution;
pub use solve::{
    Test, answer_tests, find_period, find_periods, solve, solve_cell, solve_cell_until, solve_until,
};
