//! Induced subgraphs with their own 0-based ids, deduplicated adjacency and no self-loops
//! (a self-loop is kept as a flag), and the structural routines the solvers share.

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
    /// vertex of `g`, all `u32::MAX`, and is left that way (also when the budget runs out).
    pub(crate) fn induced(
        g: &Graph,
        verts: &[Vertex],
        scratch: &mut [u32],
        budget: &mut Budget,
    ) -> Result<Subgraph, KernelError> {
        let local = Subgraph::induced_in(g, verts, scratch, budget);
        for v in verts {
            scratch[v.index()] = u32::MAX;
        }
        local
    }

    fn induced_in(
        g: &Graph,
        verts: &[Vertex],
        scratch: &mut [u32],
        budget: &mut Budget,
    ) -> Result<Subgraph, KernelError> {
        let n = verts.len();
        for (i, v) in verts.iter().enumerate() {
            scratch[v.index()] = i as u32;
        }
        // Count the arcs kept, then place them (a counting sort by tail and by head).
        let mut looped = vec![false; n];
        let mut succ_off = vec![0u32; n + 1];
        let mut pred_off = vec![0u32; n + 1];
        for (i, &v) in verts.iter().enumerate() {
            budget.spend(1 + g.successors(v).len() as u64)?;
            for &w in g.successors(v) {
                let j = scratch[w.index()];
                if j == u32::MAX {
                    continue;
                }
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
                let j = scratch[w.index()];
                if j == u32::MAX || j as usize == i {
                    continue;
                }
                succ[succ_at[i] as usize] = j;
                succ_at[i] += 1;
                pred[pred_at[j as usize] as usize] = i as u32;
                pred_at[j as usize] += 1;
            }
        }
        drop((succ_at, pred_at));
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
    /// `None`), by Tarjan's algorithm. Returns the components in the
    /// order Tarjan completes them: every arc goes from a component to one listed earlier or
    /// to itself (sinks first).
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
        crate::scc::tarjan(
            n,
            |v| self.succ(v),
            on,
            budget,
            |c| {
                let mut comp = c.to_vec();
                comp.sort_unstable();
                out.push(comp);
            },
        )?;
        Ok(out)
    }
}

/// Retrograde labels of the whole graph: a position without moves is lost, one with a move
/// to a lost position is won, one all of whose moves go to won positions is lost, and the
/// rest are draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Label {
    Win,
    Loss,
    Draw,
}

/// Labels every vertex Win, Loss or Draw by retrograde analysis (`gamegraph_retro::solve`).
///
/// Complexity: O(n + m) time and space.
pub(crate) fn retro_labels(g: &Graph) -> Vec<Label> {
    use gamegraph_retro::Outcome;
    gamegraph_retro::solve(g)
        .outcomes()
        .iter()
        .map(|o| match o {
            Outcome::Win => Label::Win,
            Outcome::Loss => Label::Loss,
            Outcome::Draw => Label::Draw,
        })
        .collect()
}

/// Whether `g` has no directed cycle (self-loops count as cycles).
///
/// Complexity: O(n + m) time, O(n) space (Kahn's algorithm).
pub(crate) fn is_acyclic(g: &Graph, budget: &mut Budget) -> Result<bool, KernelError> {
    let n = g.num_vertices();
    let mut indeg = vec![0usize; n];
    for u in g.vertices() {
        budget.spend(1 + g.successors(u).len() as u64)?;
        for v in g.successors(u) {
            indeg[v.index()] += 1;
        }
    }
    let mut stack: Vec<Vertex> = g.vertices().filter(|v| indeg[v.index()] == 0).collect();
    let mut seen = 0;
    while let Some(v) = stack.pop() {
        seen += 1;
        budget.spend(1 + g.successors(v).len() as u64)?;
        for &w in g.successors(v) {
            indeg[w.index()] -= 1;
            if indeg[w.index()] == 0 {
                stack.push(w);
            }
        }
    }
    Ok(seen == n)
}

/// The weakly connected components of the vertices with `keep[v]`, each sorted, ordered by
/// their smallest vertex.
pub(crate) fn weak_components(
    g: &Graph,
    keep: &[bool],
    budget: &mut Budget,
) -> Result<Vec<Vec<Vertex>>, KernelError> {
    let n = g.num_vertices();
    budget.spend(n as u64)?;
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for r in 0..n {
        if !keep[r] || seen[r] {
            continue;
        }
        seen[r] = true;
        stack.push(Vertex::from_index(r));
        let mut comp = Vec::new();
        while let Some(v) = stack.pop() {
            comp.push(v);
            budget.spend(1 + (g.successors(v).len() + g.predecessors(v).len()) as u64)?;
            for &w in g.successors(v).iter().chain(g.predecessors(v)) {
                if keep[w.index()] && !seen[w.index()] {
                    seen[w.index()] = true;
                    stack.push(w);
                }
            }
        }
        comp.sort_unstable();
        out.push(comp);
    }
    Ok(out)
}
