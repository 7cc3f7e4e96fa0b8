//! The parallel retrograde solver: level-synchronous frontiers over vertex ranges that each
//! belong to one task, with one packed word of state per vertex.

use gamegraph_graph::hint::prefetch;
use gamegraph_graph::{Graph, Vertex};
use rayon::prelude::*;

use crate::{Outcome, Solution, solve};
use gamegraph_graph::outcome::NONE;

/// Low bits of a state word: the count of successors not yet known to be W while the
/// vertex is unlabelled, its depth once it is labelled.
const VALUE: u32 = (1 << 30) - 1;
/// High bits of a state word: the label (none yet, W or L).
const LABEL: u32 = !VALUE;
const WIN: u32 = 1 << 30;
const LOSS: u32 = 2 << 30;

/// How many items ahead the random passes ask for the line they will touch.
const AHEAD: usize = 32;

/// Frontier items are a vertex id, with this bit set when the vertex is L.
const IS_LOSS: u32 = 1 << 31;
const ID: u32 = IS_LOSS - 1;

/// Vertices per range, as a power of two: the state words of one range (256 KiB) stay in
/// the L2 cache while it is updated.
const RANGE_BITS: u32 = 16;
/// Frontiers smaller than this are expanded on the calling thread: long thin games (a
/// path of a million positions has a million levels) would otherwise pay rayon's
/// fork-join cost on every level.
const SEQUENTIAL_FRONTIER: usize = 4096;
/// Arcs into a batch of frontier vertices (their predecessors): bounds the memory of the
/// buckets to 4 MiB whatever the degrees, yet gives each range enough updates to pay for
/// bringing its state words into the cache.
const BATCH: usize = 1 << 20;
/// Vertices per task of the best-move pass.
const MOVE_CHUNK: usize = 1 << 14;

/// The parallel version of [`solve`]: the same [`Solution`], for every number of threads.
///
/// Each vertex has one 32-bit word: two label bits, and either the count of its
/// successors not yet known to be W or, once labelled, its depth. The positions of depth
/// `d` (the frontier) are expanded together: their predecessors are sorted into buckets by
/// vertex range (sequential writes), then each range is updated by one task with plain
/// loads and stores, prefetching the state words ahead; a predecessor of an L position
/// becomes W, a predecessor of a W position loses one from its counter and becomes L at
/// zero. Updates within a level commute, so the new frontier is exactly the positions of
/// depth `d + 1` whatever the schedule. Optimal moves are then chosen by a parallel pass
/// over the successor lists, with the smallest-id rule of the sequential solver.
///
/// # Arguments
/// * `g`: the game graph.
///
/// # Returns
/// The [`Solution`]; equal to `solve(g)`.
///
/// # Complexity
/// O(V + E) work and O(V + E) / p + O(D) time on p threads, D the largest depth.
/// Extra space: the graph's predecessor arrays if not yet built (8 bytes per vertex and 4
/// per arc, kept by the graph; 2 more bytes per arc while they are built), 4 bytes per
/// vertex of state (which becomes the solution's depths), and the frontier buckets (4 bytes
/// per predecessor of a batch of frontier vertices: at most 4 MiB and the in-degree of one
/// vertex, twice that with the vectors' spare room).
/// A graph of 2³⁰ vertices or more, or with a vertex of 2³⁰ moves or more, is handed to
/// [`solve`].
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_retro::{par_solve, solve};
///
/// let arcs = [(0, 1), (1, 2), (2, 0), (0, 3), (3, 4)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(5, &arcs).unwrap();
/// assert_eq!(par_solve(&g), solve(&g));
/// ```
///
/// # Reference
/// Level-synchronous parallel breadth-first search (as in the Graph500 reference codes),
/// applied to the reversed game graph with the counters of retrograde analysis.
pub fn par_solve(g: &Graph) -> Solution {
    solve_in_levels(g, Sizes { shift: RANGE_BITS, batch: BATCH, sequential: SEQUENTIAL_FRONTIER })
}

/// The sizes [`Levels`] works with; tests make them tiny to reach every path on small
/// graphs.
#[derive(Debug, Clone, Copy)]
struct Sizes {
    /// Vertices per range: `1 << shift`.
    shift: u32,
    /// Predecessors of the frontier vertices of a batch, at most (a batch holds at least
    /// one vertex).
    batch: usize,
    /// Frontiers below this size are expanded on the calling thread.
    sequential: usize,
}

fn solve_in_levels(g: &Graph, sizes: Sizes) -> Solution {
    let n = g.num_vertices();
    let (soff, succ) = g.successor_csr();
    let degree = |v: usize| soff[v + 1] - soff[v];
    if n > VALUE as usize || (0..n).into_par_iter().any(|v| degree(v) > u64::from(VALUE)) {
        return solve(g);
    }

    let mut state: Vec<u32> = (0..n)
        .into_par_iter()
        .map(|v| match degree(v) {
            0 => LOSS,
            d => d as u32,
        })
        .collect();
    let mut frontier: Vec<u32> =
        (0..n).into_par_iter().filter(|&v| degree(v) == 0).map(|v| v as u32 | IS_LOSS).collect();
    {
        let (poff, pred) = g.predecessor_csr();
        let mut levels = Levels::new(n, rayon::current_num_threads(), sizes);
        let mut depth = 0;
        while !frontier.is_empty() {
            depth += 1;
            frontier = levels.expand(&mut state, poff, pred, &frontier, depth);
        }
    }

    let moves = best_moves(soff, succ, &state);
    let outcomes: Vec<Outcome> = state
        .par_iter()
        .map(|&s| match s & LABEL {
            WIN => Outcome::Win,
            LOSS => Outcome::Loss,
            _ => Outcome::Draw,
        })
        .collect();
    // The depths replace the state words in place: no fresh array to fault in.
    state.par_iter_mut().for_each(|s| *s = if *s & LABEL == 0 { NONE } else { *s & VALUE });
    Solution::from_parts_unchecked(outcomes, state, moves)
}

/// Applies "a successor of `u` was labelled" to `u`'s state word; the new frontier item
/// when `u` is labelled now. `from` is the frontier item of that successor.
#[inline(always)]
fn apply(state: &mut u32, u: u32, from: u32, depth: u32) -> Option<u32> {
    let s = *state;
    if s & LABEL != 0 {
        None
    } else if from & IS_LOSS != 0 {
        *state = WIN | depth;
        Some(u)
    } else if s == 1 {
        *state = LOSS | depth;
        Some(u | IS_LOSS)
    } else {
        *state = s - 1;
        None
    }
}

/// The buffers of the level-by-level expansion, reused from level to level.
struct Levels {
    sizes: Sizes,
    /// `buckets[t][r]`: the predecessors in range `r` found by gathering task `t`, each
    /// with the [`IS_LOSS`] bit of the frontier vertex it was found from.
    buckets: Vec<Vec<Vec<u32>>>,
}

impl Levels {
    fn new(n: usize, threads: usize, sizes: Sizes) -> Levels {
        let ranges = n.div_ceil(1 << sizes.shift).max(1);
        Levels { sizes, buckets: vec![vec![Vec::new(); ranges]; threads.max(1)] }
    }

    /// Expands one frontier (the positions of depth `depth - 1`) and returns the next.
    fn expand(
        &mut self,
        state: &mut [u32],
        poff: &[u64],
        pred: &[Vertex],
        frontier: &[u32],
        depth: u32,
    ) -> Vec<u32> {
        let preds = |item: u32| {
            let v = (item & ID) as usize;
            &pred[poff[v] as usize..poff[v + 1] as usize]
        };
        let mut next = Vec::new();
        if frontier.len() < self.sizes.sequential {
            for &from in frontier {
                for &u in preds(from) {
                    next.extend(apply(&mut state[u.index()], u.0, from, depth));
                }
            }
            return next;
        }
        let shift = self.sizes.shift;
        for batch in batches(frontier, poff, self.sizes.batch) {
            // Gather: the predecessors of the batch, sorted into ranges. A short batch has
            // fewer parts than there are sets of buckets: only `parts` sets are filled, and
            // read below.
            let len = batch.len().div_ceil(self.buckets.len());
            let parts = batch.len().div_ceil(len);
            batch.par_chunks(len).zip(&mut self.buckets).for_each(|(part, out)| {
                out.iter_mut().for_each(Vec::clear);
                for (i, &from) in part.iter().enumerate() {
                    if let Some(&ahead) = part.get(i + AHEAD) {
                        prefetch(poff, (ahead & ID) as usize);
                    }
                    if let Some(&ahead) = part.get(i + AHEAD / 2) {
                        let v = (ahead & ID) as usize;
                        prefetch(pred, poff[v] as usize);
                    }
                    for &u in preds(from) {
                        out[u.index() >> shift].push(u.0 | (from & IS_LOSS));
                    }
                }
            });
            // Update: each range by one task, prefetching the state words ahead.
            let buckets = &self.buckets[..parts];
            let found: Vec<Vec<u32>> = state
                .par_chunks_mut(1 << shift)
                .enumerate()
                .map(|(r, words)| {
                    let base = (r << shift) as u32;
                    let mut found = Vec::new();
                    for items in buckets.iter().map(|b| &b[r]) {
                        for (i, &item) in items.iter().enumerate() {
                            if let Some(&ahead) = items.get(i + AHEAD) {
                                prefetch(words, ((ahead & ID) - base) as usize);
                            }
                            let u = item & ID;
                            found.extend(apply(&mut words[(u - base) as usize], u, item, depth));
                        }
                    }
                    found
                })
                .collect();
            found.iter().for_each(|f| next.extend_from_slice(f));
        }
        next
    }
}

/// `frontier` cut into runs whose vertices have at most `arcs` predecessors in all (a
/// vertex with more is a run by itself).
fn batches<'a>(
    frontier: &'a [u32],
    poff: &'a [u64],
    arcs: usize,
) -> impl Iterator<Item = &'a [u32]> {
    let mut rest = frontier;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut sum = 0u64;
        let mut end = 0;
        while end < rest.len() {
            let v = (rest[end] & ID) as usize;
            sum += poff[v + 1] - poff[v];
            if end > 0 && sum > arcs as u64 {
                break;
            }
            end += 1;
        }
        let (batch, tail) = rest.split_at(end);
        rest = tail;
        Some(batch)
    })
}

/// The optimal move of every vertex from the final state words: for W, the L successor of
/// depth one less; for L, a W successor of depth one less; for D, a D successor; the
/// smallest id among several, [`NONE`] when there is none.
fn best_moves(soff: &[u64], succ: &[Vertex], state: &[u32]) -> Vec<u32> {
    let mut moves = vec![NONE; state.len()];
    moves.par_chunks_mut(MOVE_CHUNK).enumerate().for_each(|(c, out)| {
        let first = c * MOVE_CHUNK;
        for (i, m) in out.iter_mut().enumerate() {
            let v = first + i;
            let s = state[v];
            let (mask, want) = match s & LABEL {
                WIN => (u32::MAX, LOSS | ((s & VALUE) - 1)),
                LOSS if s & VALUE == 0 => continue,
                LOSS => (u32::MAX, WIN | ((s & VALUE) - 1)),
                _ => (LABEL, 0),
            };
            let mut best = NONE;
            for k in soff[v] as usize..soff[v + 1] as usize {
                if let Some(ahead) = succ.get(k + AHEAD) {
                    prefetch(state, ahead.index());
                }
                let t = succ[k];
                if state[t.index()] & mask == want && t.0 < best {
                    best = t.0;
                }
            }
            *m = best;
        }
    });
    moves
}

#[cfg(test)]
mod tests {
    use gamegraph_graph::generate::{GenConfig, random};

    use super::{Sizes, solve_in_levels};
    use crate::solve;

    /// Tiny ranges, batches and sequential threshold: every path of the expansion (many
    /// ranges, several batches per level, frontiers on both sides of the threshold) on
    /// graphs small enough to check against the sequential solver.
    #[test]
    fn every_path_of_the_expansion_equals_the_sequential_solver() {
        for (n, m) in [(1, 0), (3, 3), (50, 60), (300, 700), (2000, 3000), (5000, 20_000)] {
            let cfg = GenConfig {
                vertices: n,
                arcs: m,
                seed: 99,
                self_loops: true,
                ..GenConfig::default()
            };
            let g = random(&cfg);
            let expected = solve(&g);
            for (shift, batch, sequential) in
                [(0, 1, 0), (3, 5, 2), (5, 64, 8), (16, 1 << 22, 4096)]
            {
                for threads in 1..=3 {
                    let pool =
                        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                    let sizes = Sizes { shift, batch, sequential };
                    let got = pool.install(|| solve_in_levels(&g, sizes));
                    assert_eq!(got, expected, "n {n} m {m} {sizes:?} threads {threads}");
                }
            }
        }
    }
}
