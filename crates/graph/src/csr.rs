//! The CSR game graph.

use std::sync::OnceLock;

use crate::group::{ArcSlice, RADIX_FROM, counting_sort};
use crate::map::Array;
use crate::transpose::sequential_transpose;
use crate::{GraphError, Vertex};

/// One direction of adjacency: `targets[offsets[v]..offsets[v + 1]]` are the neighbours of `v`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Csr {
    offsets: Array<u64>,
    targets: Array<Vertex>,
}

impl Csr {
    #[inline]
    fn neighbours(&self, v: Vertex) -> &[Vertex] {
        let lo = self.offsets[v.index()] as usize;
        let hi = self.offsets[v.index() + 1] as usize;
        &self.targets[lo..hi]
    }

    /// The transpose: for every arc `u -> v` of `self`, an arc `v -> u`, each list sorted by `u`.
    /// In parallel on the current rayon pool (a radix sort by target) from [`RADIX_FROM`]
    /// arcs; sequentially below that, where the arrays fit in the cache and one random
    /// write per arc costs little, and for graphs of `u32::MAX` arcs or more.
    fn transpose(&self) -> Csr {
        let radix = (self.targets.len() >= RADIX_FROM)
            .then(|| crate::transpose::par_transpose(&self.offsets, &self.targets))
            .flatten();
        let (offsets, targets) =
            radix.unwrap_or_else(|| sequential_transpose(&self.offsets, &self.targets));
        Csr::owned(offsets, targets)
    }

    pub(crate) fn owned(offsets: Vec<u64>, targets: Vec<Vertex>) -> Csr {
        Csr { offsets: offsets.into(), targets: targets.into() }
    }

    /// Arrays viewed in a mapped file (checked by the caller).
    pub(crate) fn mapped(offsets: Array<u64>, targets: Array<Vertex>) -> Csr {
        Csr { offsets, targets }
    }
}

/// A validated game graph: vertices `0..n`, successor lists in CSR form, and predecessor
/// lists built once on first use.
///
/// Invariants (checked by every constructor, relied on by the solvers):
/// - `offsets().len() == num_vertices() + 1`, `offsets()[0] == 0`, `offsets()` is
///   non-decreasing and ends at `num_arcs()`;
/// - every target is a vertex below `num_vertices()`;
/// - successor lists keep the order of the input arcs; self-loops and repeated arcs are kept;
/// - predecessor lists are sorted by source vertex (a repeated arc appears repeatedly).
#[derive(Debug)]
pub struct Graph {
    succ: Csr,
    pred: OnceLock<Csr>,
}

impl Clone for Graph {
    fn clone(&self) -> Self {
        Graph { succ: self.succ.clone(), pred: OnceLock::new() }
    }
}

impl PartialEq for Graph {
    fn eq(&self, other: &Self) -> bool {
        self.succ == other.succ
    }
}

impl Eq for Graph {}

impl Graph {
    /// Builds a graph on `n` vertices from a list of arcs, keeping their order within each
    /// successor list.
    ///
    /// # Errors
    /// [`GraphError::TooManyVertices`] if `n` exceeds [`Vertex::MAX_VERTICES`],
    /// [`GraphError::VertexOutOfRange`] if an arc names a vertex `>= n`.
    ///
    /// # Complexity
    /// O(n + m) time, O(n + m) extra space (a counting sort).
    pub fn from_arcs(n: usize, arcs: &[(Vertex, Vertex)]) -> Result<Graph, GraphError> {
        if n > Vertex::MAX_VERTICES {
            return Err(GraphError::TooManyVertices { n: n as u64 });
        }
        if let Some(&bad) = arcs.iter().flat_map(|(u, v)| [u, v]).find(|x| x.index() >= n) {
            return Err(GraphError::VertexOutOfRange { vertex: u64::from(bad.0), n });
        }
        let (offsets, targets) = counting_sort(n, arcs.len(), ArcSlice(arcs));
        Ok(Graph { succ: Csr::owned(offsets, targets), pred: OnceLock::new() })
    }

    /// Builds a graph directly from CSR arrays: the successors of `v` are
    /// `targets[offsets[v]..offsets[v + 1]]`.
    ///
    /// # Errors
    /// [`GraphError::InvalidCsr`] if `offsets` is empty, does not start at 0, decreases or
    /// does not end at `targets.len()`; [`GraphError::VertexOutOfRange`] for a bad target;
    /// [`GraphError::TooManyVertices`] if there are more than [`Vertex::MAX_VERTICES`].
    ///
    /// # Complexity
    /// O(n + m) time to validate, no extra space.
    pub fn from_csr(offsets: Vec<u64>, targets: Vec<Vertex>) -> Result<Graph, GraphError> {
        let Some(n) = offsets.len().checked_sub(1) else {
            return Err(GraphError::InvalidCsr { reason: "offsets must have n + 1 entries" });
        };
        if n > Vertex::MAX_VERTICES {
            return Err(GraphError::TooManyVertices { n: n as u64 });
        }
        if offsets[0] != 0 {
            return Err(GraphError::InvalidCsr { reason: "offsets must start at 0" });
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(GraphError::InvalidCsr { reason: "offsets must not decrease" });
        }
        if offsets[n] != targets.len() as u64 {
            return Err(GraphError::InvalidCsr {
                reason: "offsets must end at the number of arcs",
            });
        }
        if let Some(bad) = targets.iter().find(|t| t.index() >= n) {
            return Err(GraphError::VertexOutOfRange { vertex: u64::from(bad.0), n });
        }
        Ok(Graph { succ: Csr::owned(offsets, targets), pred: OnceLock::new() })
    }

    /// Builds a graph from CSR arrays its caller has already validated (a generator, or a
    /// reader that checked every invariant while converting).
    pub(crate) fn from_csr_trusted(offsets: Vec<u64>, targets: Vec<Vertex>) -> Graph {
        debug_assert!(!offsets.is_empty() && offsets[0] == 0);
        debug_assert_eq!(offsets[offsets.len() - 1], targets.len() as u64);
        debug_assert!(offsets.windows(2).all(|w| w[0] <= w[1]));
        debug_assert!(targets.iter().all(|t| t.index() < offsets.len() - 1));
        Graph { succ: Csr::owned(offsets, targets), pred: OnceLock::new() }
    }

    /// A graph of checked successor arrays, and predecessor arrays when they are known.
    pub(crate) fn from_parts(succ: Csr, pred: Option<Csr>) -> Graph {
        let cell = OnceLock::new();
        if let Some(pred) = pred {
            let _ = cell.set(pred);
        }
        Graph { succ, pred: cell }
    }

    /// The number of vertices `n`.
    #[inline]
    pub fn num_vertices(&self) -> usize {
        self.succ.offsets.len() - 1
    }

    /// The number of arcs `m` (self-loops and repeated arcs included).
    #[inline]
    pub fn num_arcs(&self) -> usize {
        self.succ.targets.len()
    }

    /// All vertices, in increasing order.
    pub fn vertices(&self) -> impl ExactSizeIterator<Item = Vertex> + use<> {
        (0..self.num_vertices() as u32).map(Vertex)
    }

    /// All arcs `(u, v)`, by source and then in successor-list order.
    pub fn arcs(&self) -> impl Iterator<Item = (Vertex, Vertex)> + '_ {
        self.vertices().flat_map(move |u| self.successors(u).iter().map(move |&v| (u, v)))
    }

    /// The successors of `v` (the moves from `v`), in input order.
    #[inline]
    pub fn successors(&self, v: Vertex) -> &[Vertex] {
        self.succ.neighbours(v)
    }

    /// The number of arcs leaving `v`.
    #[inline]
    pub fn out_degree(&self, v: Vertex) -> usize {
        (self.succ.offsets[v.index() + 1] - self.succ.offsets[v.index()]) as usize
    }

    /// The predecessors of `v`, sorted; the reverse arrays are built on the first call.
    #[inline]
    pub fn predecessors(&self, v: Vertex) -> &[Vertex] {
        self.reverse().neighbours(v)
    }

    /// The successor CSR arrays `(offsets, targets)`.
    #[inline]
    pub fn successor_csr(&self) -> (&[u64], &[Vertex]) {
        (&self.succ.offsets, &self.succ.targets)
    }

    /// The predecessor CSR arrays `(offsets, targets)`, built on the first call.
    ///
    /// # Complexity
    /// The first call: O(V + E) work; from 2²² arcs in parallel on the current rayon pool (a
    /// radix sort of the arcs by target, with a few MiB of temporary space per thread, and
    /// 2 bytes per arc more above 2²¹ vertices); then O(1).
    pub fn predecessor_csr(&self) -> (&[u64], &[Vertex]) {
        let r = self.reverse();
        (&r.offsets, &r.targets)
    }

    /// Consumes the graph, returning its successor CSR arrays `(offsets, targets)`.
    pub fn into_successor_csr(self) -> (Vec<u64>, Vec<Vertex>) {
        (self.succ.offsets.into_vec(), self.succ.targets.into_vec())
    }

    fn reverse(&self) -> &Csr {
        self.pred.get_or_init(|| self.succ.transpose())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(i: u32) -> Vertex {
        Vertex(i)
    }

    #[test]
    fn builds_seed_example() {
        let g = Graph::from_arcs(
            5,
            &[(v(0), v(1)), (v(1), v(2)), (v(2), v(0)), (v(0), v(3)), (v(3), v(4))],
        )
        .unwrap();
        assert_eq!(g.num_vertices(), 5);
        assert_eq!(g.successors(v(0)), &[v(1), v(3)]);
        assert_eq!(g.successors(v(4)), &[] as &[Vertex]);
        assert_eq!(g.predecessors(v(0)), &[v(2)]);
        assert_eq!(g.predecessors(v(4)), &[v(3)]);
        assert_eq!(g.arcs().count(), 5);
    }

    #[test]
    fn rejects_out_of_range() {
        assert_eq!(
            Graph::from_arcs(2, &[(v(0), v(2))]),
            Err(GraphError::VertexOutOfRange { vertex: 2, n: 2 })
        );
        assert!(Graph::from_csr(vec![0, 2], vec![v(0)]).is_err());
        assert!(Graph::from_csr(vec![], vec![]).is_err());
        assert!(Graph::from_csr(vec![0, 1], vec![v(1)]).is_err());
    }

    #[test]
    fn keeps_loops_and_repeats() {
        let g = Graph::from_arcs(2, &[(v(0), v(0)), (v(0), v(1)), (v(0), v(1))]).unwrap();
        assert_eq!(g.out_degree(v(0)), 3);
        assert_eq!(g.predecessors(v(1)), &[v(0), v(0)]);
        assert_eq!(g.predecessors(v(0)), &[v(0)]);
    }
}
