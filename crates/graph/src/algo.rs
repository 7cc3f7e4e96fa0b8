//! Graph algorithms written once for the workspace: connected components, strongly connected
//! components, acyclicity (peeling) and induced subgraphs with their id maps.
//!
//! Each algorithm comes over a [`Graph`] and, where solvers need it, over a graph given by
//! functions (the `*_by` forms): vertices `0..n`, a neighbour function giving `u32` ids in
//! some order, a filter of the vertices that take part, and a `visit` hook called once as
//! each vertex is processed. The hook may stop the algorithm with an error of its own type
//! (a solver's time or work budget); over a [`Graph`] nothing can fail. The order of every
//! result is documented and depends only on the input, so a solver that branches on it
//! gives the same answers and node counts whichever caller built the graph.
//!
//! ```
//! use gamegraph_graph::{Graph, Vertex, algo};
//!
//! // 0 <-> 1 -> 2, and 3 alone.
//! let arcs = [(0, 1), (1, 0), (1, 2)].map(|(u, v)| (Vertex(u), Vertex(v)));
//! let g = Graph::from_arcs(4, &arcs).unwrap();
//! assert_eq!(algo::weak_components(&g), [vec![Vertex(0), Vertex(1), Vertex(2)], vec![Vertex(3)]]);
//! // Sinks first.
//! assert_eq!(
//!     algo::strongly_connected_components(&g),
//!     [vec![Vertex(2)], vec![Vertex(0), Vertex(1)], vec![Vertex(3)]]
//! );
//! assert!(!algo::is_acyclic(&g));
//! assert_eq!(algo::reaches_cycle(&g), [true, true, false, false]);
//! ```

use std::convert::Infallible;

use crate::{Graph, Vertex};

/// The successors of `v` in `g`, as `u32` ids.
fn succ_ids(g: &Graph, v: usize) -> impl Iterator<Item = u32> + '_ {
    g.successors(Vertex(v as u32)).iter().map(|w| w.0)
}

/// The predecessors of `v` in `g`, as `u32` ids.
fn pred_ids(g: &Graph, v: usize) -> impl Iterator<Item = u32> + '_ {
    g.predecessors(Vertex(v as u32)).iter().map(|w| w.0)
}

/// The value of a computation that cannot fail.
fn sure<T>(r: Result<T, Infallible>) -> T {
    let Ok(t) = r;
    t
}

/// The connected components of the undirected graph on `0..n` whose vertex `v` has the
/// neighbours `neighbours(v)`, among the vertices with `keep(v)` (neighbours without it are
/// skipped).
///
/// Order: the components by their smallest vertex; each lists its vertices in breadth-first
/// order from that vertex, the neighbours of a vertex in the order `neighbours` gives them.
/// `visit(v)` is called as `v` leaves the queue, before its neighbours are looked at; its
/// first error stops the search and is returned. For a digraph, pass the successors and the
/// predecessors to get the weakly connected components.
///
/// # Complexity
/// O(n + the neighbours listed) time, O(n) space.
///
/// ```
/// use gamegraph_graph::algo::components_by;
///
/// let adj: Vec<Vec<u32>> = vec![vec![2], vec![], vec![0, 3], vec![2]];
/// let comps = components_by(4, |_| true, |v| adj[v].iter().copied(), |_| Ok::<(), ()>(()));
/// assert_eq!(comps, Ok(vec![vec![0, 2, 3], vec![1]]));
/// ```
pub fn components_by<I, E>(
    n: usize,
    keep: impl Fn(usize) -> bool,
    mut neighbours: impl FnMut(usize) -> I,
    mut visit: impl FnMut(usize) -> Result<(), E>,
) -> Result<Vec<Vec<u32>>, E>
where
    I: IntoIterator<Item = u32>,
{
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for r in 0..n {
        if !keep(r) || seen[r] {
            continue;
        }
        seen[r] = true;
        let mut comp = vec![r as u32];
        let mut head = 0;
        while head < comp.len() {
            let v = comp[head] as usize;
            head += 1;
            visit(v)?;
            for w in neighbours(v) {
                let wi = w as usize;
                if keep(wi) && !seen[wi] {
                    seen[wi] = true;
                    comp.push(w);
                }
            }
        }
        out.push(comp);
    }
    Ok(out)
}

/// The weakly connected components of `g` (its components when arcs are taken in both
/// directions), in the order of [`components_by`]: by smallest vertex, each in
/// breadth-first order, successors before predecessors. Builds the predecessor arrays.
///
/// # Complexity
/// O(V + E) time, O(V) space besides the predecessor arrays.
pub fn weak_components(g: &Graph) -> Vec<Vec<Vertex>> {
    let comps = sure(components_by(
        g.num_vertices(),
        |_| true,
        |v| succ_ids(g, v).chain(pred_ids(g, v)),
        |_| Ok(()),
    ));
    comps.into_iter().map(|c| c.into_iter().map(Vertex).collect()).collect()
}

/// The strongly connected components of the digraph on `0..n` whose vertex `v` has the
/// successors `successors(v)`, leaving out the vertices with `!on(v)` (and the arcs to
/// them), by Tarjan's algorithm with an explicit stack (no recursion).
///
/// Order: roots are tried in increasing order and successors in the order given. Each
/// component goes to `emit` (its vertices in the order they leave Tarjan's stack) as Tarjan
/// completes it: every arc goes from a component to one emitted earlier or to itself
/// (sinks first). `visit(v)` is called as `v` is numbered, before its successors are
/// looked at; its first error stops the search and is returned.
///
/// # Complexity
/// O(n + m) time and space.
///
/// ```
/// use gamegraph_graph::algo::strongly_connected_by;
///
/// // 0 -> 1 -> 2 -> 1.
/// let succ: Vec<Vec<u32>> = vec![vec![1], vec![2], vec![1]];
/// let mut comps = Vec::new();
/// strongly_connected_by(3, |_| true, |v| succ[v].iter().copied(), |_| Ok::<(), ()>(()), |c| {
///     comps.push(c.to_vec())
/// })
/// .unwrap();
/// assert_eq!(comps, [vec![1, 2], vec![0]]);
/// ```
pub fn strongly_connected_by<I, E>(
    n: usize,
    on: impl Fn(usize) -> bool,
    mut successors: impl FnMut(usize) -> I,
    mut visit: impl FnMut(usize) -> Result<(), E>,
    mut emit: impl FnMut(&[u32]),
) -> Result<(), E>
where
    I: IntoIterator<Item = u32>,
{
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    // (vertex, its successors not yet looked at, or `None` before it is numbered)
    let mut call: Vec<(u32, Option<I::IntoIter>)> = Vec::new();
    let mut next = 0u32;
    for root in 0..n {
        if !on(root) || index[root] != NONE {
            continue;
        }
        call.push((root as u32, None));
        while let Some((v, out)) = call.last_mut() {
            let vs = *v as usize;
            if out.is_none() {
                index[vs] = next;
                low[vs] = next;
                next += 1;
                stack.push(*v);
                on_stack[vs] = true;
                visit(vs)?;
                *out = Some(successors(vs).into_iter());
            }
            let out = out.as_mut().expect("numbered above");
            if let Some(w) = out.next() {
                let w = w as usize;
                if !on(w) {
                    continue;
                }
                if index[w] == NONE {
                    call.push((w as u32, None));
                } else if on_stack[w] {
                    low[vs] = low[vs].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p as usize] = low[p as usize].min(low[vs]);
                }
                if low[vs] == index[vs] {
                    let at = stack.iter().rposition(|&w| w as usize == vs).expect("on the stack");
                    for &w in &stack[at..] {
                        on_stack[w as usize] = false;
                    }
                    emit(&stack[at..]);
                    stack.truncate(at);
                }
            }
        }
    }
    Ok(())
}

/// The strongly connected components of `g` in the order of [`strongly_connected_by`]:
/// sinks first (every arc goes from a component to one listed earlier or to itself), each
/// component's vertices in the order they leave Tarjan's stack.
///
/// # Complexity
/// O(V + E) time and space.
pub fn strongly_connected_components(g: &Graph) -> Vec<Vec<Vertex>> {
    let mut out = Vec::new();
    sure(strongly_connected_by(
        g.num_vertices(),
        |_| true,
        |v| succ_ids(g, v),
        |_| Ok(()),
        |c| out.push(c.iter().map(|&v| Vertex(v)).collect()),
    ));
    out
}

/// Peels a digraph: removes, one at a time, a vertex whose count is 0 and that is
/// `removable`, and takes 1 off the count of each vertex `next(v)` lists for the removed
/// `v`, until no vertex can go. With in-degrees as counts and successors as `next`, this is
/// Kahn's algorithm (sources go first); with out-degrees and predecessors, sinks go first.
/// Returns the number of vertices removed; `count` is left with the counts of the rest.
///
/// Order: the vertices with count 0 at the start, in increasing order, form a stack; the
/// top is removed and the vertices whose count falls to 0 are pushed in the order `next`
/// lists them. `visit(v)` is called as `v` is removed, before `next(v)` is looked at; its
/// first error stops the peeling and is returned.
///
/// # Complexity
/// O(n + the arcs listed) time, O(n) space.
///
/// ```
/// use gamegraph_graph::algo::peel_by;
///
/// // 0 -> 1 -> 2 -> 1: only 0 has no arc in.
/// let succ: Vec<Vec<u32>> = vec![vec![1], vec![2], vec![1]];
/// let mut indegree = vec![0u64, 2, 1];
/// let mut order = Vec::new();
/// let removed = peel_by(&mut indegree, |_| true, |v| succ[v].iter().copied(), |v| {
///     order.push(v);
///     Ok::<(), ()>(())
/// });
/// assert_eq!((removed, order), (Ok(1), vec![0]));
/// ```
pub fn peel_by<I, E>(
    count: &mut [u64],
    removable: impl Fn(usize) -> bool,
    mut next: impl FnMut(usize) -> I,
    mut visit: impl FnMut(usize) -> Result<(), E>,
) -> Result<usize, E>
where
    I: IntoIterator<Item = u32>,
{
    let mut stack: Vec<u32> =
        (0..count.len()).filter(|&v| count[v] == 0 && removable(v)).map(|v| v as u32).collect();
    let mut removed = 0;
    while let Some(v) = stack.pop() {
        removed += 1;
        visit(v as usize)?;
        for w in next(v as usize) {
            let c = &mut count[w as usize];
            *c -= 1;
            if *c == 0 && removable(w as usize) {
                stack.push(w);
            }
        }
    }
    Ok(removed)
}

/// Whether the digraph on `0..n` whose vertex `v` has the successors `successors(v)` has no
/// directed cycle (a self-loop is a cycle), by Kahn's algorithm: the in-degrees are counted,
/// then [`peel_by`] removes sources. `visit(v)` is called as each vertex's successors are
/// counted and again as it is removed; its first error stops the check and is returned.
///
/// # Complexity
/// O(n + m) time, O(n) space.
///
/// ```
/// use gamegraph_graph::algo::is_acyclic_by;
///
/// let path: Vec<Vec<u32>> = vec![vec![1], vec![2], vec![]];
/// assert_eq!(is_acyclic_by(3, |v| path[v].iter().copied(), |_| Ok::<(), ()>(())), Ok(true));
/// let looped: Vec<Vec<u32>> = vec![vec![0]];
/// assert_eq!(is_acyclic_by(1, |v| looped[v].iter().copied(), |_| Ok::<(), ()>(())), Ok(false));
/// ```
pub fn is_acyclic_by<I, E>(
    n: usize,
    mut successors: impl FnMut(usize) -> I,
    mut visit: impl FnMut(usize) -> Result<(), E>,
) -> Result<bool, E>
where
    I: IntoIterator<Item = u32>,
{
    let mut indegree = vec![0u64; n];
    for v in 0..n {
        visit(v)?;
        for w in successors(v) {
            indegree[w as usize] += 1;
        }
    }
    Ok(peel_by(&mut indegree, |_| true, successors, visit)? == n)
}

/// Whether `g` has no directed cycle (a self-loop is a cycle): [`is_acyclic_by`] over its
/// successors (the predecessor arrays are not needed).
///
/// # Complexity
/// O(V + E) time, 8 bytes per vertex of extra space.
pub fn is_acyclic(g: &Graph) -> bool {
    sure(is_acyclic_by(g.num_vertices(), |v| succ_ids(g, v), |_| Ok(())))
}

/// Which vertices of `g` can reach a directed cycle (a self-loop is a cycle): exactly those
/// that [`peel_by`] never removes when sinks are peeled (out-degrees as counts,
/// predecessors as `next`). `g` is acyclic when no entry is `true`. Builds the predecessor
/// arrays.
///
/// # Complexity
/// O(V + E) time, 9 bytes per vertex of extra space besides the predecessor arrays.
pub fn reaches_cycle(g: &Graph) -> Vec<bool> {
    let mut count: Vec<u64> = g.vertices().map(|v| g.out_degree(v) as u64).collect();
    let mut bad = vec![true; g.num_vertices()];
    sure(peel_by(
        &mut count,
        |_| true,
        |v| pred_ids(g, v),
        |v| {
            bad[v] = false;
            Ok(())
        },
    ));
    bad
}

/// The local ids of a list of vertices, `verts[i]` getting id `i`: the id map of an induced
/// subgraph, kept in a scratch array of one entry per vertex of the whole graph. The scratch
/// array holds `u32::MAX` everywhere before, and is restored to that when the map is dropped
/// (an early return included), so one array serves every subgraph of a graph in O(its size).
///
/// ```
/// use gamegraph_graph::{Vertex, algo::LocalIds};
///
/// let mut scratch = vec![u32::MAX; 5];
/// {
///     let ids = LocalIds::new(&mut scratch, &[Vertex(3), Vertex(1)]);
///     assert_eq!(ids.get(Vertex(1)), Some(1));
///     assert_eq!(ids.get(Vertex(0)), None);
/// }
/// assert!(scratch.iter().all(|&x| x == u32::MAX));
/// ```
#[derive(Debug)]
pub struct LocalIds<'a> {
    ids: &'a mut [u32],
    verts: &'a [Vertex],
}

impl<'a> LocalIds<'a> {
    /// The map of `verts` (distinct vertices, fewer than `u32::MAX`) in `scratch`.
    ///
    /// # Panics
    /// If a vertex is not below `scratch.len()`.
    pub fn new(scratch: &'a mut [u32], verts: &'a [Vertex]) -> LocalIds<'a> {
        debug_assert!(verts.len() < u32::MAX as usize);
        for (i, v) in verts.iter().enumerate() {
            debug_assert_eq!(scratch[v.index()], u32::MAX, "a repeated vertex or a dirty scratch");
            scratch[v.index()] = i as u32;
        }
        LocalIds { ids: scratch, verts }
    }

    /// The local id of `v`, or `None` when `v` is not in the list.
    #[inline]
    pub fn get(&self, v: Vertex) -> Option<u32> {
        let i = self.ids[v.index()];
        (i != u32::MAX).then_some(i)
    }

    /// The vertices, by local id.
    #[inline]
    pub fn vertices(&self) -> &'a [Vertex] {
        self.verts
    }
}

impl Drop for LocalIds<'_> {
    fn drop(&mut self) {
        for v in self.verts {
            self.ids[v.index()] = u32::MAX;
        }
    }
}

/// An induced subgraph with its id map: the local vertex `i` is the vertex `global[i]` of
/// the whole graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Induced {
    /// The subgraph, on the local ids.
    pub graph: Graph,
    /// The vertex of the whole graph for each local id.
    pub global: Vec<Vertex>,
}

/// The subgraph of `g` induced by `verts` (distinct vertices; local id `i` for `verts[i]`):
/// the arcs of `g` between two of them, each successor list in the order of `g`, self-loops
/// and repeated arcs kept.
///
/// # Complexity
/// O(V) for a scratch array, then as [`induced_subgraph_in`].
///
/// ```
/// use gamegraph_graph::{Graph, Vertex, algo::induced_subgraph};
///
/// let arcs = [(0, 1), (1, 2), (2, 0), (2, 2)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(3, &arcs).unwrap();
/// let sub = induced_subgraph(&g, &[Vertex(2), Vertex(0)]);
/// assert_eq!(sub.global, [Vertex(2), Vertex(0)]);
/// assert_eq!(sub.graph.arcs().collect::<Vec<_>>(), [(Vertex(0), Vertex(1)), (Vertex(0), Vertex(0))]);
/// ```
pub fn induced_subgraph(g: &Graph, verts: &[Vertex]) -> Induced {
    let mut scratch = vec![u32::MAX; g.num_vertices()];
    induced_subgraph_in(g, verts, &mut scratch)
}

/// [`induced_subgraph`] with the caller's scratch array for the id map (see [`LocalIds`]):
/// one entry per vertex of `g`, all `u32::MAX`, and left that way.
///
/// # Complexity
/// O(|verts| + the out-degrees of `verts`) time and space.
pub fn induced_subgraph_in(g: &Graph, verts: &[Vertex], scratch: &mut [u32]) -> Induced {
    let ids = LocalIds::new(scratch, verts);
    let mut offsets = Vec::with_capacity(verts.len() + 1);
    offsets.push(0u64);
    let mut targets = Vec::new();
    for &v in verts {
        targets.extend(g.successors(v).iter().filter_map(|&w| ids.get(w)).map(Vertex));
        offsets.push(targets.len() as u64);
    }
    drop(ids);
    Induced { graph: Graph::from_csr_trusted(offsets, targets), global: verts.to_vec() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, arcs: &[(u32, u32)]) -> Graph {
        let arcs: Vec<(Vertex, Vertex)> =
            arcs.iter().map(|&(u, v)| (Vertex(u), Vertex(v))).collect();
        Graph::from_arcs(n, &arcs).unwrap()
    }

    fn ids(c: &[Vec<Vertex>]) -> Vec<Vec<u32>> {
        c.iter().map(|c| c.iter().map(|v| v.0).collect()).collect()
    }

    #[test]
    fn weak_components_are_breadth_first_by_smallest_vertex() {
        let g = graph(6, &[(4, 0), (0, 2), (5, 2), (1, 3)]);
        assert_eq!(ids(&weak_components(&g)), [vec![0, 2, 4, 5], vec![1, 3]]);
    }

    #[test]
    fn components_skip_vertices_not_kept_and_stop_on_error() {
        let adj: Vec<Vec<u32>> = vec![vec![1], vec![0, 2], vec![1]];
        let keep = [true, false, true];
        let c = components_by(3, |v| keep[v], |v| adj[v].iter().copied(), |_| Ok::<(), ()>(()));
        assert_eq!(c, Ok(vec![vec![0], vec![2]]));
        let mut left = 1;
        let stop = components_by(
            3,
            |_| true,
            |v| adj[v].iter().copied(),
            |_| {
                left -= 1;
                if left < 0 { Err("stop") } else { Ok(()) }
            },
        );
        assert_eq!(stop, Err("stop"));
    }

    #[test]
    fn strongly_connected_components_sinks_first() {
        // 0 -> 1 <-> 2 -> 3, 4 -> 4, 5 -> 0.
        let g = graph(6, &[(0, 1), (1, 2), (2, 1), (2, 3), (4, 4), (5, 0)]);
        assert_eq!(
            ids(&strongly_connected_components(&g)),
            [vec![3], vec![1, 2], vec![0], vec![4], vec![5]]
        );
    }

    #[test]
    fn strongly_connected_leaves_out_vertices_off() {
        let succ: Vec<Vec<u32>> = vec![vec![1], vec![2], vec![0]];
        let mut comps = Vec::new();
        strongly_connected_by(
            3,
            |v| v != 2,
            |v| succ[v].iter().copied(),
            |_| Ok::<(), ()>(()),
            |c| comps.push(c.to_vec()),
        )
        .unwrap();
        assert_eq!(comps, [vec![1], vec![0]]);
    }

    #[test]
    fn acyclicity_and_vertices_reaching_a_cycle() {
        let dag = graph(4, &[(0, 1), (0, 2), (1, 3), (2, 3), (0, 3)]);
        assert!(is_acyclic(&dag));
        assert!(reaches_cycle(&dag).iter().all(|&b| !b));
        let looped = graph(3, &[(0, 1), (1, 1), (2, 0)]);
        assert!(!is_acyclic(&looped));
        assert_eq!(reaches_cycle(&looped), [true, true, true]);
        let tail = graph(4, &[(0, 1), (1, 0), (1, 2), (3, 2)]);
        assert_eq!(reaches_cycle(&tail), [true, true, false, false]);
        assert!(is_acyclic(&graph(0, &[])));
    }

    #[test]
    fn peel_respects_removable_and_order() {
        // Sources 0 and 1; 1 -> 2; 2 is not removable.
        let succ: Vec<Vec<u32>> = vec![vec![], vec![2], vec![]];
        let mut count = vec![0u64, 0, 1];
        let mut order = Vec::new();
        let removed = peel_by(
            &mut count,
            |v| v != 2,
            |v| succ[v].iter().copied(),
            |v| {
                order.push(v);
                Ok::<(), ()>(())
            },
        );
        assert_eq!((removed, order, count), (Ok(2), vec![1, 0], vec![0, 0, 0]));
    }

    #[test]
    fn induced_subgraph_keeps_order_loops_and_repeats() {
        let g = graph(4, &[(0, 3), (0, 1), (0, 3), (1, 1), (2, 0), (3, 0)]);
        let mut scratch = vec![u32::MAX; 4];
        let sub = induced_subgraph_in(&g, &[Vertex(3), Vertex(0), Vertex(1)], &mut scratch);
        assert!(scratch.iter().all(|&x| x == u32::MAX));
        assert_eq!(sub.global, [Vertex(3), Vertex(0), Vertex(1)]);
        let arcs: Vec<(u32, u32)> = sub.graph.arcs().map(|(u, v)| (u.0, v.0)).collect();
        assert_eq!(arcs, [(0, 1), (1, 0), (1, 2), (1, 0), (2, 2)]);
    }

    /// `reach[u][v]`: a path from u to v (of length 0 included) through vertices `on`.
    fn reach(n: usize, adj: &[Vec<u32>], on: &[bool]) -> Vec<Vec<bool>> {
        let mut r = vec![vec![false; n]; n];
        for u in 0..n {
            if !on[u] {
                continue;
            }
            r[u][u] = true;
            let mut todo = vec![u];
            while let Some(x) = todo.pop() {
                for &y in &adj[x] {
                    let y = y as usize;
                    if on[y] && !r[u][y] {
                        r[u][y] = true;
                        todo.push(y);
                    }
                }
            }
        }
        r
    }

    proptest::proptest! {
        #[test]
        fn components_are_the_classes_of_mutual_reachability_sinks_first(
            n in 1usize..12,
            arcs in proptest::collection::vec((0u32..12, 0u32..12), 0..40),
            off in proptest::collection::vec(proptest::prelude::any::<bool>(), 12),
        ) {
            let mut adj = vec![Vec::new(); n];
            for &(u, v) in &arcs {
                if (u as usize) < n && (v as usize) < n {
                    adj[u as usize].push(v);
                }
            }
            let on: Vec<bool> = (0..n).map(|v| !off[v] || v == 0).collect();
            let mut comps: Vec<Vec<u32>> = Vec::new();
            strongly_connected_by(
                n,
                |v| on[v],
                |v| adj[v].iter().copied(),
                |_| Ok::<(), ()>(()),
                |c| comps.push(c.to_vec()),
            )
            .unwrap();
            let r = reach(n, &adj, &on);
            let mut id = vec![usize::MAX; n];
            for (k, c) in comps.iter().enumerate() {
                for &v in c {
                    proptest::prop_assert_eq!(id[v as usize], usize::MAX, "vertex in two components");
                    id[v as usize] = k;
                }
            }
            for u in 0..n {
                proptest::prop_assert_eq!(id[u] != usize::MAX, on[u]);
                for v in 0..n {
                    if on[u] && on[v] {
                        proptest::prop_assert_eq!(id[u] == id[v], r[u][v] && r[v][u]);
                        if r[u][v] {
                            proptest::prop_assert!(id[v] <= id[u], "an arc goes to a later component");
                        }
                    }
                }
            }
        }

        #[test]
        fn weak_components_acyclicity_and_cycle_reach_agree_with_reachability(
            n in 1usize..12,
            arcs in proptest::collection::vec((0u32..12, 0u32..12), 0..30),
        ) {
            let arcs: Vec<(u32, u32)> =
                arcs.into_iter().filter(|&(u, v)| (u as usize) < n && (v as usize) < n).collect();
            let g = graph(n, &arcs);
            let mut both = vec![Vec::new(); n];
            let mut adj = vec![Vec::new(); n];
            for &(u, v) in &arcs {
                adj[u as usize].push(v);
                both[u as usize].push(v);
                both[v as usize].push(u);
            }
            let all = vec![true; n];
            let r = reach(n, &adj, &all);
            let rb = reach(n, &both, &all);
            let comps = weak_components(&g);
            let mut id = vec![usize::MAX; n];
            for (k, c) in comps.iter().enumerate() {
                proptest::prop_assert_eq!(c[0], *c.iter().min().unwrap(), "rooted at its smallest vertex");
                for v in c {
                    id[v.index()] = k;
                }
            }
            for u in 0..n {
                for v in 0..n {
                    proptest::prop_assert_eq!(id[u] == id[v], rb[u][v]);
                }
            }
            // On a cycle: a vertex that reaches a successor reaching it back (or a self-loop).
            let on_cycle: Vec<bool> =
                (0..n).map(|u| adj[u].iter().any(|&w| r[w as usize][u])).collect();
            let reaches: Vec<bool> =
                (0..n).map(|u| (0..n).any(|v| on_cycle[v] && r[u][v])).collect();
            proptest::prop_assert_eq!(reaches_cycle(&g), reaches);
            proptest::prop_assert_eq!(is_acyclic(&g), !on_cycle.contains(&true));
        }
    }
}
