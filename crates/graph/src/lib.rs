//! Compact game graphs in CSR form, and their file formats.
//!
//! A game graph has positions `0..n` (the [`Vertex`] newtype, 0-based inside the
//! library; file formats and the CLI speak 1-based ids) and arcs `u -> v`, one per
//! legal move. [`Graph`] stores the successors of every vertex contiguously (CSR) and
//! builds the predecessor arrays once, on first use.
//!
//! File formats (header text, arc list, binary, DOT) live in [`format`](mod@format); [`open`](mod@open)
//! opens a graph file in any of them; random graphs come from [`generate`]; the graph
//! algorithms the solvers share (components, strongly connected components, acyclicity,
//! induced subgraphs) live in [`algo`], each written once.
//!
//! ```
//! use gamegraph_graph::{Graph, Vertex};
//!
//! // A 3-cycle with a tail: 1->2, 2->3, 3->1, 1->4, 4->5 (0-based here).
//! let arcs = [(0, 1), (1, 2), (2, 0), (0, 3), (3, 4)].map(|(u, v)| (Vertex(u), Vertex(v)));
//! let g = Graph::from_arcs(5, &arcs).unwrap();
//! assert_eq!(g.num_arcs(), 5);
//! assert_eq!(g.successors(Vertex(0)), &[Vertex(1), Vertex(3)]);
//! assert_eq!(g.predecessors(Vertex(0)), &[Vertex(2)]);
//! ```

pub mod algo;
mod assemble;
mod csr;
mod error;
pub mod format;
pub mod generate;
mod group;
pub mod hint;
mod limit;
mod map;
pub mod memory;
pub mod open;
pub mod outcome;
pub mod position;
mod summary;
pub mod table;
mod transpose;
mod vertex;
mod vertex_list;

pub use crate::csr::Graph;
pub use crate::error::{GenError, GraphError, ReadError, ReadErrorKind, VertexListError};
pub use crate::limit::{Budget, Limit};
pub use crate::outcome::{Label, Outcome, Terminal};
pub use crate::position::{Located, Position, quote};
pub use crate::summary::Summary;
pub use crate::table::TableError;
pub use crate::vertex::Vertex;
pub use crate::vertex_list::parse_vertex_list;
