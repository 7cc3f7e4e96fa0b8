//! Which argument decided a kernel question.

use std::fmt;

/// Which argument decided the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Decided {
    /// The graph is acyclic: its unique kernel is the set of retrograde L vertices.
    Acyclic,
    /// Every vertex got a retrograde label (the graph has cycles, but no draw position): the
    /// unique kernel is the set of L vertices.
    Retrograde,
    /// No part of the draw subgraph has an odd directed cycle, so a kernel exists
    /// (Richardson 1953) and was built without search.
    NoOddCycle,
    /// A part of the draw subgraph has α < β, so there is no kernel (a kernel is both
    /// internally and externally stable, so β ≤ |K| ≤ α; Berge, Graphs and Hypergraphs).
    AlphaBelowBeta {
        /// The number of vertices of that part.
        part: usize,
        /// A proven upper bound on its α.
        alpha_at_most: usize,
        /// A proven lower bound on its β.
        beta_at_least: usize,
    },
    /// An exhaustive search (its node count is in [`Explanation::nodes`]).
    Search,
}

/// How an answer was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Explanation {
    /// The argument that decided.
    pub decided: Decided,
    /// Vertices labelled L (in every kernel), W (in none) and D by retrograde analysis.
    pub loss: usize,
    /// See [`Explanation::loss`].
    pub win: usize,
    /// See [`Explanation::loss`].
    pub draw: usize,
    /// Weakly connected parts of the draw subgraph, solved independently.
    pub parts: usize,
    /// Search nodes explored (decisions and backtracks).
    pub nodes: u64,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.decided {
            Decided::Acyclic => f.write_str("acyclic: the unique kernel is the set of L positions")?,
            Decided::Retrograde => f.write_str(
                "retrograde labels decide every vertex: the unique kernel is the set of L positions",
            )?,
            Decided::NoOddCycle => f.write_str(
                "no odd directed cycle in the draw part: a kernel exists (Richardson), built without search",
            )?,
            Decided::AlphaBelowBeta { part, alpha_at_most, beta_at_least } => write!(
                f,
                "alpha < beta on a draw part of {part} vertices (alpha <= {alpha_at_most} < {beta_at_least} <= beta): no kernel"
            )?,
            Decided::Search => write!(f, "search: {} nodes", self.nodes)?,
        }
        write!(
            f,
            "\nretrograde labels: {} L (in every kernel), {} W (in none), {} D in {} part(s)",
            self.loss, self.win, self.draw, self.parts
        )
    }
}
