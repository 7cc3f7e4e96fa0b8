//! Grundy values of acyclic game graphs.

use gamegraph_graph::algo::reaches_cycle;
use gamegraph_graph::hint::prefetch;
use gamegraph_graph::{Graph, Vertex};
use rayon::prelude::*;

use crate::{GrundyError, Nimber};

/// Marks a vertex not yet reached by the depth-first search.
const UNSEEN: u64 = u64::MAX;
/// Marks a vertex on the depth-first stack.
const ON_STACK: u64 = u64::MAX - 1;

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
/// R. P. Sprague, *Über mathematische Kampfspiele*, Tôhoku Math. J. 41 (1935) 438–444;
/// P. M. Grundy, *Mathematics and games*, Eureka 2 (1939) 6–8.
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
/// Frontier vertices per batch of counter updates: bounds the buckets' memory (4 bytes per
/// predecessor arc of the batch) yet gives every range enough updates to pay for bringing
/// its counters into the cache.
const BATCH: usize = 1 << 22;
/// Vertices per range of counters, as a power of two: one range (256 KiB) stays in the L2
/// cache while it is updated.
const RANGE_BITS: u32 = 16;
/// The high bit of a word of [`par_grundy`] marks a pending vertex whose low bits count its
/// unvalued followers; otherwise the word is the vertex's value.
const WAITING: u32 = 1 << 31;

/// [`grundy`] in parallel, level by level.
///
/// Level 0 holds the vertices without successors; a vertex joins the next level when its
/// last successor gets its value (out-degree counting over the predecessor lists). All
/// vertices of a level are valued in parallel; their predecessors are then sorted into
/// buckets by vertex range and each range's counters are updated by one task with plain
/// loads and stores (no atomic read-modify-write, which would stall on every cache miss).
/// The result is identical to [`grundy`] for every thread count, errors included.
///
/// # Errors
/// [`GrundyError::Cycle`] as for [`grundy`].
///
/// # Complexity
/// O(V + E) work, O(number of levels) parallel rounds; 4 bytes per vertex of extra space
/// and the buckets (4 bytes per predecessor arc of a batch), besides the graph's
/// predecessor arrays, which this builds on first use (O(V + E)). A graph with a vertex of
/// 2³¹ moves or more is handed to [`grundy`].
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
    let degree = |v: usize| offsets[v + 1] - offsets[v];
    if (0..n).into_par_iter().any(|v| degree(v) >= u64::from(WAITING)) {
        return grundy(g);
    }
    let (poffsets, ptargets) = g.predecessor_csr();
    let mut state: Vec<u32> = (0..n).into_par_iter().map(|v| WAITING | degree(v) as u32).collect();
    let mut frontier: Vec<u32> =
        (0..n as u32).into_par_iter().filter(|&v| degree(v as usize) == 0).collect();
    let threads = rayon::current_num_threads().max(1);
    let mut buckets: Vec<Vec<Vec<u32>>> =
        vec![vec![Vec::new(); n.div_ceil(1 << RANGE_BITS).max(1)]; threads];
    let followers =
        |v: u32| &targets[offsets[v as usize] as usize..offsets[v as usize + 1] as usize];
    let preds =
        |v: u32| &ptargets[poffsets[v as usize] as usize..poffsets[v as usize + 1] as usize];
    let mut done = 0usize;
    let mut scratch = MexScratch::default();
    while !frontier.is_empty() {
        done += frontier.len();
        // Values: every follower of a frontier vertex was valued at an earlier level. The
        // followers' words are asked for a few vertices ahead (their lists, and the offsets
        // of those lists, further ahead still).
        let values_of = |scratch: &mut MexScratch, chunk: &[u32]| -> Vec<u32> {
            let mut out = Vec::with_capacity(chunk.len());
            for (i, &v) in chunk.iter().enumerate() {
                if let Some(&ahead) = chunk.get(i + 16) {
                    prefetch(offsets, ahead as usize);
                }
                if let Some(&ahead) = chunk.get(i + 8) {
                    prefetch(targets, offsets[ahead as usize] as usize);
                }
                if let Some(&ahead) = chunk.get(i + 4) {
                    followers(ahead).iter().for_each(|w| prefetch(&state, w.index()));
                }
                let ws = followers(v);
                out.push(
                    scratch.mex(ws.len(), ws.iter().map(|w| u64::from(state[w.index()]))) as u32
                );
            }
            out
        };
        let values: Vec<u32> = if frontier.len() < PAR_FRONTIER {
            values_of(&mut scratch, &frontier)
        } else {
            frontier
                .par_chunks(1024)
                .map_init(MexScratch::default, |scratch, chunk| values_of(scratch, chunk))
                .flatten_iter()
                .collect()
        };
        for (&v, x) in frontier.iter().zip(values) {
            state[v as usize] = x;
        }
        // Counters: a predecessor whose last follower was just valued joins the next level.
        let mut next = Vec::new();
        if frontier.len() < PAR_FRONTIER {
            for &v in &frontier {
                for p in preds(v) {
                    state[p.index()] -= 1;
                    if state[p.index()] == WAITING {
                        next.push(p.0);
                    }
                }
            }
        } else {
            for batch in frontier.chunks(BATCH) {
                let len = batch.len().div_ceil(threads);
                let parts = batch.len().div_ceil(len);
                batch.par_chunks(len).zip(&mut buckets).for_each(|(part, out)| {
                    out.iter_mut().for_each(Vec::clear);
                    for &v in part {
                        for p in preds(v) {
                            out[p.index() >> RANGE_BITS].push(p.0);
                        }
                    }
                });
                let buckets = &buckets[..parts];
                let ready: Vec<Vec<u32>> = state
                    .par_chunks_mut(1 << RANGE_BITS)
                    .enumerate()
                    .map(|(r, words)| {
                        let base = (r << RANGE_BITS) as u32;
                        let mut ready = Vec::new();
                        for &p in buckets.iter().flat_map(|b| &b[r]) {
                            let w = &mut words[(p - base) as usize];
                            *w -= 1;
                            if *w == WAITING {
                                ready.push(p);
                            }
                        }
                        ready
                    })
                    .collect();
                ready.iter().for_each(|r| next.extend_from_slice(r));
            }
        }
        frontier = next;
    }
    if done < n {
        return Err(GrundyError::Cycle { cycle: canonical_cycle(g) });
    }
    Ok(state.into_par_iter().map(|s| Nimber(u64::from(s))).collect())
}

/// One directed cycle, chosen canonically: walk from the smallest vertex that reaches a
/// cycle ([`reaches_cycle`]), always along the first successor that also reaches one, until
/// a vertex repeats.
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
    use gamegraph_graph::generate::{GenConfig, random};
    use gamegraph_testkit::graph;

    use super::*;

    /// Frontiers large enough for the bucketed updates, over several ranges, with and
    /// without a cycle, on pools of one to three threads.
    #[test]
    fn par_grundy_equals_grundy_on_large_frontiers() {
        for (n, m, cyclic) in [(200_000, 500_000, false), (150_000, 300_000, true)] {
            let cfg =
                GenConfig { vertices: n, arcs: m, seed: 2024, acyclic: !cyclic, self_loops: false };
            let g = random(&cfg);
            let expected = grundy(&g);
            assert_eq!(expected.is_err(), cyclic);
            for threads in 1..=3 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                assert_eq!(pool.install(|| par_grundy(&g)), expected, "n {n} threads {threads}");
            }
        }
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
        let g = Graph::from_arcs(0, &[]).unwrap();
        assert_eq!(grundy(&g).unwrap(), vec![]);
        assert_eq!(par_grundy(&g).unwrap(), vec![]);
    }
}
