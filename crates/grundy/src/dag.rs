//! Grundy values of acyclic game graphs.

use std::sync::atomic::{AtomicU64, Ordering};

use gamegraph_graph::{Graph, Vertex};
use rayon::prelude::*;

use crate::{GrundyError, Nimber};

/// Marks a vertex not yet reached by the depth-first search.
const UNSEEN: u64 = u64::MAX;
/// Marks a vertex on the depth-first stack.
const ON_STACK: u64 = u64::MAX - 1;
/// The high bit marks a pending vertex whose low bits count its unvalued followers.
const PENDING: u64 = 1 << 63;

/// Scratch space for the minimum excludant of one vertex's followers, reused across
/// vertices: `seen[x] == stamp` means value `x` occurs among the current followers.
#[derive(Default)]
pub(crate) struct MexScratch {
    seen: Vec<u64>,
    stamp: u64,
}

impl MexScratch {
    /// The mex of `values` (at most `degree` of them matter: the mex never exceeds the degree).
    #[inline]
    pub(crate) fn mex(&mut self, degree: usize, values: impl Iterator<Item = u64>) -> u64 {
        if self.seen.len() <= degree {
            self.seen.resize(degree + 1, 0);
        }
        self.stamp += 1;
        let stamp = self.stamp;
        for x in values {
            if x <= degree as u64 {
                self.seen[x as usize] = stamp;
            }
        }
        self.seen[..=degree].iter().position(|&s| s != stamp).unwrap_or(degree + 1) as u64
    }
}

/// The Grundy value of every vertex of an acyclic game graph.
///
/// `g(v)` is the mex (minimum excludant) of the values of the successors of `v`; a vertex
/// without successors has value 0, and the player to move loses from `v` exactly when
/// `g(v) = 0` (Sprague–Grundy). The values are computed in post-order of an iterative
/// depth-first search over the successor lists only (no predecessor arrays, no recursion:
/// a path of 10⁷ vertices is fine).
///
/// # Arguments
/// - `g`: the game graph.
///
/// # Returns
/// `values[v.index()]` is `g(v)`.
///
/// # Errors
/// [`GrundyError::Cycle`] with one directed cycle when `g` is not acyclic (the same cycle
/// as [`par_grundy`] reports); use [`loopy_grundy`](crate::loopy_grundy) for such graphs.
///
/// # Complexity
/// O(V + E) time; O(V) extra space (the values and the search stack) plus O(max degree).
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_grundy::{grundy, Nimber};
///
/// // A heap of 3 with moves of 1 or 2: vertex x has arcs to x - 1 and x - 2.
/// let arcs = [(1, 0), (2, 1), (2, 0), (3, 2), (3, 1)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(4, &arcs).unwrap();
/// assert_eq!(grundy(&g).unwrap(), [0, 1, 2, 0].map(Nimber));
/// ```
///
/// # Reference
/// R. P. Sprague (1935), P. M. Grundy (1939); the thesis of `seeds/004`, chapter 3.
pub fn grundy(g: &Graph) -> Result<Vec<Nimber>, GrundyError> {
    let n = g.num_vertices();
    let (offsets, targets) = g.successor_csr();
    let mut value = vec![UNSEEN; n];
    let mut stack: Vec<(u32, u64)> = Vec::new();
    let mut scratch = MexScratch::default();
    for root in 0..n {
        if value[root] != UNSEEN {
            continue;
        }
        value[root] = ON_STACK;
        stack.push((root as u32, offsets[root]));
        while let Some(top) = stack.last_mut() {
            let v = top.0 as usize;
            if top.1 < offsets[v + 1] {
                let w = targets[top.1 as usize].index();
                top.1 += 1;
                match value[w] {
                    UNSEEN => {
                        value[w] = ON_STACK;
                        stack.push((w as u32, offsets[w]));
                    }
                    ON_STACK => return Err(GrundyError::Cycle { cycle: canonical_cycle(g) }),
                    _ => {}
                }
            } else {
                let (lo, hi) = (offsets[v] as usize, offsets[v + 1] as usize);
                let followers = targets[lo..hi].iter().map(|w| value[w.index()]);
                value[v] = scratch.mex(hi - lo, followers);
                stack.pop();
            }
        }
    }
    Ok(value.into_iter().map(Nimber).collect())
}

/// Frontiers smaller than this are processed without rayon (a long path has one vertex
/// per level, and spawning tasks for it would cost more than the work).
const PAR_FRONTIER: usize = 4096;

/// [`grundy`] in parallel, level by level.
///
/// Level 0 holds the vertices without successors; a vertex joins the next level when its
/// last successor gets its value (out-degree counting over the predecessor lists). All
/// vertices of a level are valued in parallel. The result is identical to [`grundy`] for
/// every thread count, errors included.
///
/// # Errors
/// [`GrundyError::Cycle`] as for [`grundy`].
///
/// # Complexity
/// O(V + E) work, O(number of levels) parallel rounds; O(V) extra space besides the
/// graph's predecessor arrays, which this builds on first use (O(V + E)).
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_grundy::{grundy, par_grundy};
///
/// let arcs = [(1, 0), (2, 1), (2, 0), (3, 2), (3, 1)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(4, &arcs).unwrap();
/// assert_eq!(par_grundy(&g), grundy(&g));
/// ```
pub fn par_grundy(g: &Graph) -> Result<Vec<Nimber>, GrundyError> {
    let n = g.num_vertices();
    let (offsets, targets) = g.successor_csr();
    let (poffsets, ptargets) = g.predecessor_csr();
    let state: Vec<AtomicU64> = (0..n)
        .into_par_iter()
        .map(|v| AtomicU64::new(PENDING | (offsets[v + 1] - offsets[v])))
        .collect();
    let mut frontier: Vec<u32> = (0..n as u32)
        .into_par_iter()
        .filter(|&v| offsets[v as usize + 1] == offsets[v as usize])
        .collect();
    let mut done = 0usize;
    // Values `v` of the frontier, then returns the predecessors that became ready.
    let step = |scratch: &mut MexScratch, v: u32, next: &mut Vec<u32>| {
        let v = v as usize;
        let (lo, hi) = (offsets[v] as usize, offsets[v + 1] as usize);
        let followers = targets[lo..hi].iter().map(|w| state[w.index()].load(Ordering::Relaxed));
        let x = scratch.mex(hi - lo, followers);
        state[v].store(x, Ordering::Relaxed);
        let (plo, phi) = (poffsets[v] as usize, poffsets[v + 1] as usize);
        for p in &ptargets[plo..phi] {
            if state[p.index()].fetch_sub(1, Ordering::Relaxed) == PENDING | 1 {
                next.push(p.0);
            }
        }
    };
    let mut scratch = MexScratch::default();
    while !frontier.is_empty() {
        done += frontier.len();
        frontier = if frontier.len() < PAR_FRONTIER {
            let mut next = Vec::new();
            for &v in &frontier {
                step(&mut scratch, v, &mut next);
            }
            next
        } else {
            frontier
                .par_chunks(1024)
                .map_init(MexScratch::default, |scratch, chunk| {
                    let mut next = Vec::new();
                    for &v in chunk {
                        step(scratch, v, &mut next);
                    }
                    next
                })
                .flatten_iter()
                .collect()
        };
    }
    if done < n {
        return Err(GrundyError::Cycle { cycle: canonical_cycle(g) });
    }
    Ok(state.into_par_iter().map(|s| Nimber(s.into_inner())).collect())
}

/// Which vertices can reach a directed cycle: exactly those that out-degree counting
/// over the predecessors never finishes.
pub(crate) fn reaches_cycle(g: &Graph) -> Vec<bool> {
    let n = g.num_vertices();
    let mut count: Vec<u64> = g.vertices().map(|v| g.out_degree(v) as u64).collect();
    let mut queue: Vec<Vertex> = g.vertices().filter(|&v| count[v.index()] == 0).collect();
    let mut bad = vec![true; n];
    while let Some(v) = queue.pop() {
        bad[v.index()] = false;
        for &p in g.predecessors(v) {
            count[p.index()] -= 1;
            if count[p.index()] == 0 {
                queue.push(p);
            }
        }
    }
    bad
}

/// One directed cycle, chosen canonically: walk from the smallest vertex that reaches a
/// cycle, always along the first successor that also reaches one, until a vertex repeats.
///
/// # Panics
/// If the graph is acyclic (callers only ask after finding that it is not).
pub(crate) fn canonical_cycle(g: &Graph) -> Vec<Vertex> {
    let bad = reaches_cycle(g);
    let start = bad.iter().position(|&b| b).expect("a cyclic graph");
    let mut index_of = std::collections::HashMap::new();
    let mut walk = Vec::new();
    let mut v = Vertex::from_index(start);
    while let std::collections::hash_map::Entry::Vacant(e) = index_of.entry(v) {
        e.insert(walk.len());
        walk.push(v);
        v = *g
            .successors(v)
            .iter()
            .find(|w| bad[w.index()])
            .expect("a vertex reaching a cycle has a successor reaching one");
    }
    walk.split_off(index_of[&v])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, arcs: &[(u32, u32)]) -> Graph {
        let arcs: Vec<_> = arcs.iter().map(|&(u, v)| (Vertex(u), Vertex(v))).collect();
        Graph::from_arcs(n, &arcs).unwrap()
    }

    #[test]
    fn long_path_needs_no_recursion() {
        let n = 1_000_000u32;
        let arcs: Vec<_> = (1..n).map(|v| (v, v - 1)).collect();
        let g = graph(n as usize, &arcs);
        let values = grundy(&g).unwrap();
        assert!(values.iter().enumerate().all(|(i, x)| x.0 == (i as u64) % 2));
        assert_eq!(par_grundy(&g).unwrap(), values);
    }

    #[test]
    fn reports_a_cycle() {
        let g = graph(4, &[(0, 1), (1, 2), (2, 3), (3, 1)]);
        let want = Err(GrundyError::Cycle { cycle: vec![Vertex(1), Vertex(2), Vertex(3)] });
        assert_eq!(grundy(&g), want);
        assert_eq!(par_grundy(&g), want);
        let g = graph(2, &[(1, 1)]);
        assert_eq!(grundy(&g), Err(GrundyError::Cycle { cycle: vec![Vertex(1)] }));
    }

    #[test]
    fn repeated_arcs_and_empty_graph() {
        let g = graph(3, &[(2, 1), (2, 1), (1, 0), (2, 0)]);
        assert_eq!(grundy(&g).unwrap(), [0, 1, 2].map(Nimber));
        assert_eq!(par_grundy(&g).unwrap(), [0, 1, 2].map(Nimber));
        let g = graph(0, &[]);
        assert_eq!(grundy(&g).unwrap(), vec![]);
        assert_eq!(par_grundy(&g).unwrap(), vec![]);
    }
}
