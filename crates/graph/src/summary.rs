//! A few counts that describe a graph at a glance.

use std::fmt;

use crate::Graph;

/// Counts that describe a graph: what `gamegraph info` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Summary {
    /// The number of vertices.
    pub vertices: usize,
    /// The number of arcs (self-loops and repeated arcs included).
    pub arcs: usize,
    /// The number of arcs `v -> v`.
    pub self_loops: usize,
    /// The number of vertices without an outgoing arc (terminal positions).
    pub sinks: usize,
    /// The largest out-degree (0 for a graph without vertices).
    pub max_out_degree: usize,
}

impl Summary {
    /// Counts the summary of `g`.
    ///
    /// # Complexity
    /// O(n + m) time, no extra space (the predecessor arrays are not built).
    ///
    /// # Example
    /// ```
    /// use gamegraph_graph::{Graph, Summary, Vertex};
    ///
    /// let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(0)), (Vertex(0), Vertex(1))]).unwrap();
    /// let s = Summary::of(&g);
    /// assert_eq!((s.self_loops, s.sinks, s.max_out_degree), (1, 2, 2));
    /// ```
    pub fn of(g: &Graph) -> Summary {
        let (offsets, targets) = g.successor_csr();
        let mut s = Summary {
            vertices: g.num_vertices(),
            arcs: g.num_arcs(),
            self_loops: 0,
            sinks: 0,
            max_out_degree: 0,
        };
        for (u, w) in offsets.windows(2).enumerate() {
            let deg = (w[1] - w[0]) as usize;
            s.sinks += usize::from(deg == 0);
            s.max_out_degree = s.max_out_degree.max(deg);
            s.self_loops +=
                targets[w[0] as usize..w[1] as usize].iter().filter(|t| t.index() == u).count();
        }
        s
    }
}

impl fmt::Display for Summary {
    /// One `key: value` line per count, in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "vertices: {}", self.vertices)?;
        writeln!(f, "arcs: {}", self.arcs)?;
        writeln!(f, "self-loops: {}", self.self_loops)?;
        writeln!(f, "sinks: {}", self.sinks)?;
        writeln!(f, "max out-degree: {}", self.max_out_degree)
    }
}
