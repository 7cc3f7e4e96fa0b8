//! Retrograde analysis of game graphs: win / lose / draw, depth and optimal moves.
//!
//! A game graph has a position per vertex and a move per arc; two players alternate
//! moving a token, and the player who cannot move loses (see docs/games.md). [`solve`] labels every
//! position W (the player to move wins), L (loses) or D (draw: best play goes on for
//! ever), with its depth in plies (the winner hurries, the loser delays) and an optimal
//! move, ties broken by the smallest vertex id. [`par_solve`] does the same on the rayon
//! pool it is called on, with identical output for every number of threads. [`verify`]
//! checks any [`Solution`] against its certificate in linear time; [`read_table`] reads
//! one back from the table [`Solution::table`] prints, so that it can be checked.
//!
//! ```
//! use gamegraph_graph::{Graph, Vertex};
//! use gamegraph_retro::{LineEnd, Outcome, par_solve, solve, verify};
//!
//! // A 3-cycle with a tail: 1->2, 2->3, 3->1, 1->4, 4->5 (0-based here), starting at 1.
//! let arcs = [(0, 1), (1, 2), (2, 0), (0, 3), (3, 4)].map(|(u, v)| (Vertex(u), Vertex(v)));
//! let g = Graph::from_arcs(5, &arcs).unwrap();
//! let s = solve(&g);
//! verify(&g, &s).unwrap();
//! assert_eq!(s.outcome(Vertex(0)).code(), 0); // a draw
//! assert_eq!(s.outcome(Vertex(3)), Outcome::Win);
//! assert_eq!(s.depth(Vertex(3)), Some(1));
//! assert_eq!(s.best_move(Vertex(0)), Some(Vertex(1)));
//! let line = s.principal_variation(Vertex(0));
//! assert_eq!(line.positions(), &[Vertex(0), Vertex(1), Vertex(2)]);
//! assert_eq!(line.end(), LineEnd::Repeats(Vertex(0)));
//! assert_eq!(s.table().to_string(), "1 D - 2\n2 D - 3\n3 D - 1\n4 W 1 5\n5 L 0 -\n");
//! assert_eq!(par_solve(&g), s);
//! ```

mod error;
mod par;
mod read;
mod solution;
mod solve;
mod verify;

pub use crate::error::{CertificateError, PartsError};
pub use crate::par::par_solve;
pub use crate::read::read_table;
pub use crate::solution::{Counts, Line, LineDisplay, LineEnd, Solution, Table};
pub use crate::solve::solve;
pub use crate::verify::verify;
pub use gamegraph_graph::Outcome;
