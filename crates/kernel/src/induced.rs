//! Induced subgraphs with their own 0-based ids, deduplicated adjacency and no self-loops
//! (a self-loop is kept as a flag), and the structural routines the solvers share.

use gamegraph_graph::algo::{LocalIds, components_by, is_acyclic_by, strongly_connected_by};
use gamegraph_graph::{Graph, Vertex};

use crate::KernelError;
use crate::config::Budget;

/// An induced subgraph in compact form.
#[derive(Debug, Clone)]
pub(crate) struct Subgraph {
    /// `succ[succ_off[v]..succ_off[v + 1]]`: the successors of `v`, sorted, no repeats, no `v`.
    succ_off: Vec<u32>,
    succ: Vec<u32>,
    pred_off: Vec<u32>,
    pred: Vec<u32>,
    /// `looped[v]`: `v` has a self-loop.
    pub(crate) looped: Vec<bool>,
    /// The vertex of the whole graph for each local id.
    pub(crate) global: Vec<Vertex>,
}

/// Sorts and deduplicates each list `all[off[v]..off[v + 1]]` in place, compacting `all`
/// and updating `off`.
fn sort_lists(off: &mut [u32], all: &mut Vec<u32>, budget: &mut Budget) -> Result<(), KernelError> {
    let mut write = 0usize;
    let mut start = 0usize;
    for v in 0..off.len() - 1 {
        let end = off[v + 1] as usize;
        budget.spend(1 + 2 * (end - start) as u64)?;
        all[start..end].sort_unstable();
        off[v] = write as u32;
        let mut last = None;
        for k in start..end {
            let x = all[k];
            if last != Some(x) {
                all[write] = x;
                write += 1;
                last = Some(x);
            }
        }
        start = end;
    }
    *off.last_mut().expect("n + 1 offsets") = write as u32;
    all.truncate(write);
    Ok(())
}

impl Subgraph {
    /// The subgraph of `g` induced by `verts` (in that order). `scratch` has one entry per
    /// vertex of `g`, all `u32::MAX`, and is left that way (also when the budget runs out):
    /// it holds the id map ([`LocalIds`]).
    pub(crate) fn induced(
        g: &Graph,
        verts: &[Vertex],
        scratch: &mut [u32],
        budget: &mut Budget,
    ) -> Result<Subgraph, KernelError> {
        let n = verts.len();
        let ids = LocalIds::new(scratch, verts);
        // Count the arcs kept, then place them (a counting sort by tail and by head).
        let mut looped = vec![false; n];
        let mut succ_off = vec![0u32; n + 1];
        let mut pred_off = vec![0u32; n + 1];
        for (i, &v) in verts.iter().enumerate() {
            budget.spend(1 + g.successors(v).len() as u64)?;
            for &w in g.successors(v) {
                let Some(j) = ids.get(w) else { continue };
                if j as usize == i {
                    looped[i] = true;
                } else {
                    succ_off[i + 1] += 1;
                    pred_off[j as usize + 1] += 1;
                }
            }
        }
        for v in 0..n {
            succ_off[v + 1] += succ_off[v];
            pred_off[v + 1] += pred_off[v];
        }
        let mut succ = vec![0u32; succ_off[n] as usize];
        let mut pred = vec![0u32; pred_off[n] as usize];
        let mut succ_at = succ_off.clone();
        let mut pred_at = pred_off.clone();
        for (i, &v) in verts.iter().enumerate() {
            budget.spend(1 + g.successors(v).len() as u64)?;
            for &w in g.successors(v) {
                let Some(j) = ids.get(w).filter(|&j| j as usize != i) else { continue };
                succ[succ_at[i] as usize] = j;
                succ_at[i] += 1;
                pred[pred_at[j as usize] as usize] = i as u32;
                pred_at[j as usize] += 1;
            }
        }
        drop((succ_at, pred_at, ids));
        sort_lists(&mut succ_off, &mut succ, budget)?;
        sort_lists(&mut pred_off, &mut pred, budget)?;
        Ok(Subgraph { succ_off, succ, pred_off, pred, looped, global: verts.to_vec() })
    }

    /// The whole graph.
    pub(crate) fn whole(g: &Graph, budget: &mut Budget) -> Result<Subgraph, KernelError> {
        let verts: Vec<Vertex> = g.vertices().collect();
        let mut scratch = vec![u32::MAX; g.num_vertices()];
        Subgraph::induced(g, &verts, &mut scratch, budget)
    }

    #[inline]
    pub(crate) fn n(&self) -> usize {
        self.global.len()
    }

    /// The number of arcs.
    #[inline]
    pub(crate) fn m(&self) -> usize {
        self.succ.len()
    }

    #[inline]
    pub(crate) fn succ(&self, v: usize) -> &[u32] {
        &self.succ[self.succ_off[v] as usize..self.succ_off[v + 1] as usize]
    }

    #[inline]
    pub(crate) fn pred(&self, v: usize) -> &[u32] {
        &self.pred[self.pred_off[v] as usize..self.pred_off[v + 1] as usize]
    }

    /// The neighbours of `v` in the underlying undirected graph (no repeats, no `v`).
    pub(crate) fn undirected(&self, v: usize) -> Vec<u32> {
        let mut a: Vec<u32> = self.succ(v).iter().chain(self.pred(v)).copied().collect();
        a.sort_unstable();
        a.dedup();
        a
    }

    /// Strongly connected components of the subgraph induced by `active` vertices (all when
    /// `None`), by Tarjan's algorithm ([`strongly_connected_by`]), each sorted. Returns the
    /// components in the order Tarjan completes them: every arc goes from a component to one
    /// listed earlier or to itself (sinks first). Spends `n` units of `budget`, then one per
    /// vertex reached plus one per successor.
    ///
    /// Complexity: O(n + m) time and space.
    pub(crate) fn sccs(
        &self,
        active: Option<&[bool]>,
        budget: &mut Budget,
    ) -> Result<Vec<Vec<u32>>, KernelError> {
        let n = self.n();
        budget.spend(n as u64)?;
        let mut out = Vec::new();
        let on = |v: usize| active.is_none_or(|a| a[v]);
        strongly_connected_by(
            n,
            on,
            |v| self.succ(v).iter().copied(),
            |v| budget.spend(1 + self.succ(v).len() as u64),
            |c| {
                let mut comp = c.to_vec();
                comp.sort_unstable();
                out.push(comp);
            },
        )?;
        Ok(out)
    }
}

/// Whether `g` has no directed cycle (self-loops count as cycles), by Kahn's algorithm
/// ([`is_acyclic_by`]); spends one unit of `budget` per vertex and per arc, twice.
///
/// Complexity: O(n + m) time, O(n) space.
pub(crate) fn is_acyclic(g: &Graph, budget: &mut Budget) -> Result<bool, KernelError> {
    let succ = |v: usize| g.successors(Vertex::from_index(v));
    is_acyclic_by(
        g.num_vertices(),
        |v| succ(v).iter().map(|w| w.0),
        |v| budget.spend(1 + succ(v).len() as u64),
    )
}

/// The weakly connected components of the vertices with `keep[v]`, each sorted, ordered by
/// their smallest vertex ([`components_by`] over successors and predecessors).
pub(crate) fn weak_components(
    g: &Graph,
    keep: &[bool],
    budget: &mut Budget,
) -> Result<Vec<Vec<Vertex>>, KernelError> {
    let n = g.num_vertices();
    budget.spend(n as u64)?;
    let comps = components_by(
        n,
        |v| keep[v],
        |v| {
            let v = Vertex::from_index(v);
            g.successors(v).iter().chain(g.predecessors(v)).map(|w| w.0)
        },
        |v| {
            let v = Vertex::from_index(v);
            budget.spend(1 + (g.successors(v).len() + g.predecessors(v).len()) as u64)
        },
    )?;
    Ok(comps
        .into_iter()
        .map(|c| {
            let mut c: Vec<Vertex> = c.into_iter().map(Vertex).collect();
            c.sort_unstable();
            c
        })
        .collect())
}
