//! A worker's own graph: the successor lists of its block with every target renamed to an
//! index among the distinct targets, and the reverse index that the rounds update through.

use gamegraph_graph::outcome::NONE;
use gamegraph_graph::{Graph, Vertex};

use crate::part::Part;

/// Largest table of [`Targets::Dense`], in bytes per arc of the worker.
const DENSE_BYTES_PER_ARC: usize = 8;

/// The distinct targets of a worker's arcs, numbered `0..len`: how a worker finds a
/// target's index and the vertex of an index.
pub(crate) enum Targets {
    /// Every vertex of the graph is its own index: used when the worker has at least as
    /// many arcs as the graph has vertices, where the other two cost more memory (and a
    /// pass of random look-ups) than arrays over all vertices.
    Identity(usize),
    /// A table over all vertices (4 bytes per vertex of the graph, O(1) per look-up), the
    /// targets in the order of first appearance: used when the table is at most
    /// [`DENSE_BYTES_PER_ARC`] per arc of the worker.
    Dense { table: Vec<u32>, distinct: Vec<u32> },
    /// The distinct targets, sorted: a binary search.
    Sorted(Vec<u32>),
}

impl Targets {
    /// The distinct targets of `arcs` in a graph of `n` vertices.
    fn of(arcs: &[Vertex], n: usize) -> Targets {
        if arcs.len() >= n {
            Targets::Identity(n)
        } else if n.saturating_mul(4) <= arcs.len().saturating_mul(DENSE_BYTES_PER_ARC) {
            let mut table = vec![NONE; n];
            let mut distinct = Vec::new();
            for t in arcs {
                if table[t.index()] == NONE {
                    table[t.index()] = distinct.len() as u32;
                    distinct.push(t.0);
                }
            }
            Targets::Dense { table, distinct }
        } else {
            let mut distinct: Vec<u32> = arcs.iter().map(|t| t.0).collect();
            distinct.sort_unstable();
            distinct.dedup();
            Targets::Sorted(distinct)
        }
    }

    /// The number of indices.
    pub(crate) fn len(&self) -> usize {
        match self {
            Targets::Identity(n) => *n,
            Targets::Dense { distinct, .. } | Targets::Sorted(distinct) => distinct.len(),
        }
    }

    /// The index of target `v`.
    #[inline]
    pub(crate) fn index(&self, v: u32) -> u32 {
        match self {
            Targets::Identity(_) => v,
            Targets::Dense { table, .. } => table[v as usize],
            Targets::Sorted(distinct) => {
                distinct.binary_search(&v).expect("a target of mine") as u32
            }
        }
    }

    /// The vertex of index `i`.
    #[inline]
    pub(crate) fn vertex(&self, i: u32) -> u32 {
        match self {
            Targets::Identity(_) => i,
            Targets::Dense { distinct, .. } | Targets::Sorted(distinct) => distinct[i as usize],
        }
    }
}

/// A worker's vertices `lo..hi` with their successor lists renamed: a graph on
/// `0..max(indices, hi - lo)` whose vertex `u` is the worker's vertex `lo + u` and whose
/// arcs go to target indices; its predecessor lists are the reverse index (for each
/// index, the worker's vertices with an arc into it).
pub(crate) struct Local {
    pub(crate) lo: usize,
    pub(crate) hi: usize,
    pub(crate) graph: Graph,
    pub(crate) names: Targets,
}

impl Local {
    /// Renames the targets of `part`, in a graph of `n` vertices.
    pub(crate) fn new(part: Part, n: usize) -> Local {
        let (lo, hi) = (part.lo, part.hi);
        let (offsets, targets) = part.csr();
        let names = Targets::of(targets, n);
        let local: Vec<Vertex> = targets.iter().map(|t| Vertex(names.index(t.0))).collect();
        let mut offsets: Vec<u64> = offsets.iter().map(|&o| o - offsets[0]).collect();
        offsets.resize(names.len().max(hi - lo) + 1, local.len() as u64);
        let graph = Graph::from_csr(offsets, local).expect("indices below the vertex count");
        Local { lo, hi, graph, names }
    }

    /// The number of the worker's own vertices.
    pub(crate) fn len(&self) -> usize {
        self.hi - self.lo
    }

    /// The target indices of own vertex `u`.
    #[inline]
    pub(crate) fn arcs_of(&self, u: usize) -> &[Vertex] {
        self.graph.successors(Vertex::from_index(u))
    }
}
