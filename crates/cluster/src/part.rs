//! The partition of the vertices into blocks, one per worker, and a worker's part: the
//! successor lists of its block.

use std::sync::Arc;

use gamegraph_graph::{Graph, Vertex};

/// Block partition of `n` vertices over `workers` workers: worker `k` owns
/// `[k·b, (k+1)·b)` with `b = ⌈n / workers⌉` (at least 1).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blocks {
    size: usize,
}

impl Blocks {
    pub(crate) fn new(n: usize, workers: usize) -> Self {
        Blocks { size: n.div_ceil(workers).max(1) }
    }

    /// The worker that owns `v`.
    #[inline]
    pub(crate) fn owner(self, v: u32) -> usize {
        v as usize / self.size
    }

    /// The vertices `lo..hi` of worker `w` in a graph of `n` vertices.
    pub(crate) fn range(self, w: usize, n: usize) -> (usize, usize) {
        ((w * self.size).min(n), ((w + 1) * self.size).min(n))
    }
}

/// A worker's vertices `lo..hi` and their successor lists.
pub(crate) struct Part {
    pub(crate) lo: usize,
    pub(crate) hi: usize,
    store: Store,
}

enum Store {
    /// A whole graph that the process holds.
    Shared(Arc<Graph>),
    /// The offsets of `lo..=hi` (from any base) and the targets of those arcs.
    Owned(Vec<u64>, Vec<Vertex>),
}

impl Part {
    /// Worker `w`'s part of a graph the process holds whole, of `workers` in the cluster.
    pub(crate) fn shared(g: &Arc<Graph>, w: usize, workers: usize) -> Part {
        let (lo, hi) = Blocks::new(g.num_vertices(), workers).range(w, g.num_vertices());
        Part { lo, hi, store: Store::Shared(Arc::clone(g)) }
    }

    /// The part of the vertices `lo..hi` from the offsets of `lo..=hi` (from any base) and
    /// the targets of their arcs.
    pub(crate) fn owned(lo: usize, hi: usize, offsets: Vec<u64>, targets: Vec<Vertex>) -> Part {
        Part { lo, hi, store: Store::Owned(offsets, targets) }
    }

    /// The offsets of the vertices `lo..=hi` and the targets of their arcs, the first of
    /// them at offset `offsets[0]`.
    pub(crate) fn csr(&self) -> (&[u64], &[Vertex]) {
        match &self.store {
            Store::Shared(g) => {
                let (offsets, targets) = g.successor_csr();
                let offsets = &offsets[self.lo..=self.hi];
                (offsets, &targets[offsets[0] as usize..offsets[self.hi - self.lo] as usize])
            }
            Store::Owned(offsets, targets) => (offsets, targets),
        }
    }
}
